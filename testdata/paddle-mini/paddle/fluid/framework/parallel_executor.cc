// paddle-mini: ParallelExecutor (trimmed to its skeleton).
#include "paddle/fluid/framework/parallel_executor.h"

#include <memory>
#include <utility>

#include "paddle/fluid/framework/details/fast_threaded_ssa_graph_executor.h"
#include "paddle/fluid/framework/details/multi_devices_helper.h"
#include "paddle/fluid/framework/details/threaded_ssa_graph_executor.h"
#include "paddle/fluid/framework/ir/pass.h"
#include "paddle/fluid/platform/profiler/event_tracing.h"

PADDLE_DEFINE_EXPORTED_string(pe_profile_fname,
                              "",
                              "Profiler output file of ParallelExecutor; "
                              "empty means no profiling.");

namespace paddle {
namespace framework {

class ParallelExecutorPrivate {
 public:
  ParallelExecutorPrivate(const std::vector<platform::Place> &places,
                          Scope *global_scope)
      : places_(places), global_scope_(global_scope) {}

  ir::Graph *ApplyMemoryOptimizePass(ir::Graph *graph) {
    auto &registry = ir::PassRegistry::Instance();
    graph = registry.Get("reference_count_pass")->Apply(graph);
    if (build_strategy_.enable_inplace_) {
      graph = registry.Get("buffer_shared_inplace_pass")->Apply(graph);
    }
    return registry.Get("eager_deletion_pass")->Apply(graph);
  }

  BuildStrategy build_strategy_;
  std::vector<platform::Place> places_;
  std::vector<Scope *> local_scopes_;
  std::vector<Scope *> local_exec_scopes_;
  Scope *global_scope_;
  std::unique_ptr<details::SSAGraphExecutor> executor_;
  DeviceType use_device_{DeviceType::CPU};
};

ParallelExecutor::ParallelExecutor(const platform::Place &place,
                                   Scope *scope,
                                   const ExecutionStrategy &exec_strategy,
                                   const BuildStrategy &build_strategy,
                                   ir::Graph *graph)
    : member_(new ParallelExecutorPrivate({place}, scope)) {
  member_->build_strategy_ = build_strategy;
  member_->use_device_ = exec_strategy.use_device_;
  member_->local_scopes_.emplace_back(scope);
  if (build_strategy.fix_op_run_order_) {
    VLOG(3) << "op run order is fixed";
  }
  graph = member_->ApplyMemoryOptimizePass(graph);
  member_->executor_ = CreateSSAGraphExecutor(exec_strategy, graph);
}

ParallelExecutor::~ParallelExecutor() = default;

FetchUnmergedList ParallelExecutor::Run(
    const std::vector<std::string> &fetch_tensors) {
  platform::RecordEvent record_run(
      "ParallelExecutor::Run", platform::TracerEventType::UserDefined, 1);
  auto fetch_data = member_->executor_->Run(fetch_tensors, false);
  return PADDLE_GET(FetchUnmergedList, fetch_data);
}

std::unique_ptr<details::SSAGraphExecutor>
ParallelExecutor::CreateSSAGraphExecutor(const ExecutionStrategy &exec_strategy,
                                         ir::Graph *graph) {
  std::unique_ptr<details::SSAGraphExecutor> executor;
  if (exec_strategy.type_ == ExecutionStrategy::kDefault) {
    executor = std::make_unique<details::ThreadedSSAGraphExecutor>(
        exec_strategy, member_->local_scopes_, member_->local_exec_scopes_,
        member_->places_, graph);
  } else {
    executor = std::make_unique<details::FastThreadedSSAGraphExecutor>(
        exec_strategy, member_->local_scopes_, member_->local_exec_scopes_,
        member_->places_, graph);
  }
  return std::make_unique<details::ScopeBufferedSSAGraphExecutor>(
      exec_strategy, member_->local_scopes_, member_->local_exec_scopes_,
      std::vector<details::VariableInfo>(), member_->places_,
      std::move(executor));
}

}  // namespace framework
}  // namespace paddle

USE_PASS(reference_count_pass);
USE_PASS(eager_deletion_pass);
USE_PASS(buffer_shared_inplace_pass);
USE_PASS(buffer_shared_cross_op_memory_reuse_pass);
USE_PASS(inplace_addto_op_pass);
USE_PASS(fix_op_run_order_pass);
