# Sources of ui/report (appended to comet_ui): the one-click PDF report (compute, then paint).
target_sources(comet_ui PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/report_data.cpp
  ${CMAKE_CURRENT_LIST_DIR}/report_text.cpp
  ${CMAKE_CURRENT_LIST_DIR}/report_pdf.cpp
)
