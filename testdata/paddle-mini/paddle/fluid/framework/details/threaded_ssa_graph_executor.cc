// paddle-mini: ThreadedSSAGraphExecutor.
#include "paddle/fluid/framework/details/threaded_ssa_graph_executor.h"

#include "paddle/fluid/platform/profiler/event_tracing.h"

namespace paddle {
namespace framework {
namespace details {

ThreadedSSAGraphExecutor::ThreadedSSAGraphExecutor(
    const ExecutionStrategy &strategy,
    const std::vector<Scope *> &local_scopes,
    const std::vector<Scope *> &local_exec_scopes,
    const std::vector<platform::Place> &places,
    ir::Graph *graph)
    : graph_(graph),
      local_scopes_(local_scopes),
      local_exec_scopes_(local_exec_scopes),
      places_(places),
      strategy_(strategy),
      pool_(strategy.num_threads_ >= 2
                ? new ::ThreadPool(strategy.num_threads_)
                : nullptr) {
  PrepareOpDeps();
}

FetchResultType ThreadedSSAGraphExecutor::Run(
    const std::vector<std::string> &fetch_tensors, bool return_merged) {
  platform::RecordEvent record("ThreadedSSAGraphExecutorPrepare",
                               platform::TracerEventType::UserDefined,
                               2);
  auto ready_vars = std::make_shared<ReadyQueue>();
  std::vector<OpHandleBase *> fetch_ops;
  FetchResultType fetch_data = FetchList(fetch_tensors.size());

  for (auto *op : op_deps_->ready_ops_) {
    RunOp(ready_vars, op);
  }
  size_t finished = 0;
  while (finished < op_deps_->num_ops_) {
    auto *var = ready_vars->Pop();
    for (auto *op : var->Node()->outputs) {
      (void)op;
    }
    ++finished;
  }
  ClearFetchOp(graph_, &fetch_ops);
  exception_holder_.ReThrow();
  return fetch_data;
}

void ThreadedSSAGraphExecutor::RunOp(
    const std::shared_ptr<ReadyQueue> &ready_var_q, OpHandleBase *op) {
  auto op_run = [ready_var_q, op, this] {
    op->Run(strategy_.use_device_);
    for (auto *out : op->Outputs()) ready_var_q->Push(out);
  };
  if (pool_) {
    pool_->enqueue(op_run);
  } else {
    op_run();
  }
}

void ThreadedSSAGraphExecutor::PrepareOpDeps() {
  op_deps_ = std::make_unique<OpDependentData>();
  for (auto *node : graph_->Nodes()) {
    if (!node->IsWrappedBy<OpHandleBase>()) continue;
    auto &op = node->Wrapper<OpHandleBase>();
    if (op.Inputs().empty()) {
      op_deps_->ready_ops_.insert(&op);
    } else {
      op_deps_->pending_ops_[&op] = op.Inputs().size();
    }
    ++op_deps_->num_ops_;
  }
}

}  // namespace details
}  // namespace framework
}  // namespace paddle
