# Sources of ui/forms (appended to comet_ui).
target_sources(comet_ui PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/dlrm_tables_editor.cpp
  ${CMAKE_CURRENT_LIST_DIR}/field_table.cpp
  ${CMAKE_CURRENT_LIST_DIR}/parameter_panel.cpp
  ${CMAKE_CURRENT_LIST_DIR}/preset_picker.cpp
)
