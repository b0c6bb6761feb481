// paddle-mini: thread-pool executor that walks the SSA graph by readiness.
#pragma once
#include <memory>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "ThreadPool.h"
#include "paddle/fluid/framework/blocking_queue.h"
#include "paddle/fluid/framework/details/exception_holder.h"
#include "paddle/fluid/framework/details/execution_strategy.h"
#include "paddle/fluid/framework/details/ssa_graph_executor.h"
#include "paddle/fluid/framework/scope.h"

namespace paddle {
namespace framework {
namespace details {

struct OpDependentData {
  std::unordered_map<OpHandleBase *, size_t> pending_ops_;
  std::unordered_set<OpHandleBase *> ready_ops_;
  size_t num_ops_{0};
};

class ThreadedSSAGraphExecutor : public SSAGraphExecutor {
 public:
  ThreadedSSAGraphExecutor(const ExecutionStrategy &strategy,
                           const std::vector<Scope *> &local_scopes,
                           const std::vector<Scope *> &local_exec_scopes,
                           const std::vector<platform::Place> &places,
                           ir::Graph *graph);
  ~ThreadedSSAGraphExecutor() final = default;

  const ir::Graph &Graph() const override { return *graph_; }
  FetchResultType Run(const std::vector<std::string> &fetch_tensors,
                      bool return_merged) override;

 private:
  using ReadyQueue = BlockingQueue<VarHandleBase *>;
  void RunOp(const std::shared_ptr<ReadyQueue> &ready_var_q,
             OpHandleBase *op);
  void PrepareOpDeps();

  ir::Graph *graph_;
  std::vector<Scope *> local_scopes_;
  std::vector<Scope *> local_exec_scopes_;
  std::vector<platform::Place> places_;
  ExecutionStrategy strategy_;
  std::unique_ptr<::ThreadPool> pool_;
  ExceptionHolder exception_holder_;
  std::unique_ptr<OpDependentData> op_deps_;
};

}  // namespace details
}  // namespace framework
}  // namespace paddle
