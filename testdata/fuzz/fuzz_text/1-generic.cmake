function(cc_test TARGET_NAME)
  cmake_parse_arguments(cc_test "" "" "SRCS;DEPS" ${ARGN})
endfunction()
cc_test(parallel_executor_test SRCS pe_test.cc DEPS parallel_executor)
