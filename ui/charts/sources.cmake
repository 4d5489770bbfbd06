# Sources of ui/charts (appended to comet_ui).
target_sources(comet_ui PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/chart_model.cpp
  ${CMAKE_CURRENT_LIST_DIR}/chart_model_fsdp.cpp
  ${CMAKE_CURRENT_LIST_DIR}/qt_overlay_chart.cpp
  ${CMAKE_CURRENT_LIST_DIR}/qt_stacked_bars.cpp
  ${CMAKE_CURRENT_LIST_DIR}/qt_charts_views.cpp
  ${CMAKE_CURRENT_LIST_DIR}/qt_tornado.cpp
  ${CMAKE_CURRENT_LIST_DIR}/qt_pareto.cpp
  ${CMAKE_CURRENT_LIST_DIR}/qt_fsdp.cpp
)
