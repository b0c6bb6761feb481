// paddle-mini: CinnLaunchContext.
#include "paddle/fluid/operators/cinn/cinn_launch_context.h"

#include "paddle/fluid/framework/details/build_strategy.h"
#include "paddle/fluid/framework/details/execution_strategy.h"
#include "paddle/fluid/framework/ir/graph_helper.h"
#include "paddle/fluid/framework/new_executor/interpretercore.h"

namespace paddle {
namespace operators {
namespace details {

using framework::ParallelExecutor;

ParallelExecutor* CinnLaunchContext::InitializePE(const platform::Place& place,
                                                  framework::Scope* scope) {
  if (!parallel_executor_ || scope != cached_scope_) {
    framework::details::ExecutionStrategy exec_strategy;
    exec_strategy.use_device_ = platform::Place2DeviceType(place);
    framework::details::BuildStrategy build_strategy;
    parallel_executor_ = std::make_unique<ParallelExecutor>(
        place, scope, exec_strategy, build_strategy, runtime_graph_.get());
    cached_scope_ = scope;
  }
  return parallel_executor_.get();
}

framework::InterpreterCore* CinnLaunchContext::InitializeInterpreterCore(
    const platform::Place& place, framework::Scope* scope) {
  if (!interpreter_core_ || scope != cached_scope_) {
    framework::interpreter::ExecutionConfig execution_config;
    execution_config.create_local_scope = false;
    execution_config.skip_gc_vars = skip_gc_vars_;
    interpreter_core_ = std::make_unique<framework::InterpreterCore>(
        place, runtime_program_desc_->Block(0), scope, execution_config);
    cached_scope_ = scope;
  }
  return interpreter_core_.get();
}

}  // namespace details
}  // namespace operators
}  // namespace paddle
