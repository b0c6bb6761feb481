# sunset test data: Paddle-style target commands across lines, a quoted argument, a
# variable reference, a generator expression, and a comment inside a command.
cc_library(
  parallel_executor
  SRCS parallel_executor.cc
  DEPS threaded_ssa_graph_executor scope_buffered_ssa_graph_executor
       fast_threaded_ssa_graph_executor # the fast one too
       "variable_visitor")

cc_test(
  parallel_executor_test
  SRCS parallel_executor_test.cc
  DEPS parallel_executor gtest)

set(PE_DEPS ${PE_DEPS} "op_handle_base;scope_buffered_monitor")
if(WITH_GPU AND NOT WIN32)
  nv_library(nccl_op_handle SRCS nccl_op_handle.cc DEPS $<TARGET_NAME_IF_EXISTS:nccl>)
endif()
