# Sources of ui/common (appended to comet_ui).
target_sources(comet_ui PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/autosave.cpp
  ${CMAKE_CURRENT_LIST_DIR}/axis_defaults.cpp
  ${CMAKE_CURRENT_LIST_DIR}/evaluation_controller.cpp
  ${CMAKE_CURRENT_LIST_DIR}/latest_job.cpp
  ${CMAKE_CURRENT_LIST_DIR}/metrics.cpp
  ${CMAKE_CURRENT_LIST_DIR}/scenario_document.cpp
  ${CMAKE_CURRENT_LIST_DIR}/validation_status.cpp
  ${CMAKE_CURRENT_LIST_DIR}/while_shown.cpp
)
