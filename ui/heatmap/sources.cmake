# Sources of ui/heatmap (appended to comet_ui).
target_sources(comet_ui PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/heatmap_data.cpp
  ${CMAKE_CURRENT_LIST_DIR}/color_scale.cpp
  ${CMAKE_CURRENT_LIST_DIR}/nice_ticks.cpp
  ${CMAKE_CURRENT_LIST_DIR}/heatmap_geometry.cpp
  ${CMAKE_CURRENT_LIST_DIR}/heatmap_widget.cpp
)
