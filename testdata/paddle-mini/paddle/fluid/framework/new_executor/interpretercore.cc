// paddle-mini: InterpreterCore picks ProgramInterpreter or PirInterpreter.
#include "paddle/fluid/framework/new_executor/interpretercore.h"

#include "paddle/common/flags.h"
#include "paddle/fluid/framework/new_executor/pir_interpreter.h"
#include "paddle/fluid/framework/new_executor/program_interpreter.h"

COMMON_DECLARE_bool(sync_nccl_allreduce);
PD_DECLARE_bool(new_executor_serial_run);

namespace paddle {
namespace framework {

InterpreterCore::InterpreterCore(const platform::Place& place,
                                 const BlockDesc& block,
                                 framework::Scope* scope,
                                 const ExecutionConfig& execution_config) {
  VLOG(4) << "InterpreterCore(): " << this << " on " << place;
  impl_ = std::make_unique<ProgramInterpreter>(
      place, block, scope, execution_config);
}

InterpreterCore::InterpreterCore(
    const platform::Place& place,
    const std::vector<std::string>& fetch_var_names,
    const ::pir::Block* ir_block,
    framework::Scope* scope,
    const ExecutionConfig& execution_config) {
  impl_ = std::make_unique<PirInterpreter>(
      place, fetch_var_names, ir_block, scope, execution_config);
}

FetchList InterpreterCore::Run(const std::vector<std::string>& feed_names,
                               bool need_fetch,
                               bool enable_job_schedule_profiler,
                               bool switch_stream) {
  if (FLAGS_sync_nccl_allreduce) {
    VLOG(6) << "allreduce kernels will synchronize their stream";
  }
  return impl_->Run(
      feed_names, need_fetch, enable_job_schedule_profiler, switch_stream);
}

void InterpreterCore::SetSkipGcVars(
    const std::set<std::string>& skip_gc_vars) {
  impl_->SetSkipGcVars(skip_gc_vars);
}

}  // namespace framework
}  // namespace paddle
