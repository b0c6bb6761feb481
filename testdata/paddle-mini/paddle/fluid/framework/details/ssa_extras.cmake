# paddle-mini: targets of the asynchronous SSA graph executor and its helpers.
cc_library(
  graph_run_stats
  SRCS graph_run_stats.cc
  DEPS glog)
cc_library(
  op_run_timer
  SRCS op_run_timer.cc
  DEPS glog)
cc_library(
  async_ssa_graph_executor
  SRCS async_ssa_graph_executor.cc
  DEPS graph_run_stats op_run_timer ssa_graph_executor buffer_shared_inplace_op_pass
       inplace_addto_op_pass)
cc_library(
  op_timer_report
  SRCS ../new_executor/op_timer_report.cc
  DEPS op_run_timer)
