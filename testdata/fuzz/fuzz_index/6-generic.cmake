function(cc_library TARGET_NAME)
  set(options STATIC static SHARED shared)
  cmake_parse_arguments(cc_library "${options}" "" "SRCS;DEPS" ${ARGN})
endfunction(cc_library)
