# Sources of ui/export (appended to comet_ui): PNG, SVG, PDF and clipboard export of any ChartRenderable.
target_sources(comet_ui PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/chart_export.cpp
  ${CMAKE_CURRENT_LIST_DIR}/slide.cpp
)
