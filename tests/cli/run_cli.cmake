# Runs comet-cli with ARGS and checks its exit code and that stdout+stderr match EXPECT_REGEX.
separate_arguments(arg_list UNIX_COMMAND "${ARGS}")
execute_process(COMMAND ${CLI} ${arg_list}
                RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
string(REPLACE "\n" " " all "${out}${err}")
if(NOT code STREQUAL EXPECT_CODE)
  message(FATAL_ERROR "comet-cli ${ARGS}: exit code ${code}, expected ${EXPECT_CODE}\n${out}${err}")
endif()
if(NOT all MATCHES "${EXPECT_REGEX}")
  message(FATAL_ERROR "comet-cli ${ARGS}: output does not match '${EXPECT_REGEX}':\n${out}${err}")
endif()
