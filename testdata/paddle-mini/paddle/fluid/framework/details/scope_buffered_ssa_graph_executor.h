// paddle-mini: wraps another graph executor and recycles local scopes.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "paddle/fluid/framework/details/execution_strategy.h"
#include "paddle/fluid/framework/details/op_handle_base.h"
#include "paddle/fluid/framework/details/scope_buffered_monitor.h"
#include "paddle/fluid/framework/details/ssa_graph_executor.h"
#include "paddle/fluid/framework/scope.h"

namespace paddle {
namespace framework {
namespace details {

// Also consumed by the fuse passes through FusedVars (multi_devices_helper.h).
struct VariableInfo {
  std::string name_;
  proto::VarType::Type type_;
  bool persistable_;
};

class ScopeBufferedSSAGraphExecutor : public SSAGraphExecutor {
 public:
  ScopeBufferedSSAGraphExecutor(
      ExecutionStrategy strategy,
      std::vector<Scope *> local_scopes,
      std::vector<Scope *> local_exec_scopes,
      std::vector<VariableInfo> var_infos,
      std::vector<platform::Place> places,
      std::unique_ptr<SSAGraphExecutor> &&underlying_executor);

  const ir::Graph &Graph() const override {
    return underlying_executor_->Graph();
  }
  FetchResultType Run(const std::vector<std::string> &fetch_tensors,
                      bool return_merged) override;

  void DropLocalExeScopes(bool need_wait = true);
  bool NeedCreateLocalExeScope();
  void PrepareLocalExeScopes();

 private:
  size_t drop_scope_counter_{0};
  ExecutionStrategy strategy_;
  std::unique_ptr<SSAGraphExecutor> underlying_executor_;
  std::vector<Scope *> local_scopes_;
  std::vector<Scope *> local_exec_scopes_;
  std::vector<VariableInfo> var_infos_;
  std::vector<platform::Place> places_;
  ScopeBufferedMonitor scope_monitor_;
};

}  // namespace details
}  // namespace framework
}  // namespace paddle
