// paddle-mini: the multi-device graph executor behind CompiledProgram.
#pragma once
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "paddle/fluid/framework/details/build_strategy.h"
#include "paddle/fluid/framework/details/execution_strategy.h"
#include "paddle/fluid/framework/details/op_handle_base.h"
#include "paddle/fluid/framework/details/scope_buffered_ssa_graph_executor.h"
#include "paddle/fluid/framework/feed_fetch_type.h"
#include "paddle/fluid/framework/scope.h"

namespace paddle {
namespace framework {

class ParallelExecutorPrivate;

using details::BuildStrategy;
using details::ExecutionStrategy;
namespace p = paddle::platform;
using DeviceType = paddle::platform::DeviceType;

class ParallelExecutor {
  DISABLE_COPY_AND_ASSIGN(ParallelExecutor);

 public:
  ParallelExecutor(const std::vector<platform::Place> &places,
                   const std::vector<std::string> &bcast_vars,
                   const std::string &loss_var_name,
                   Scope *scope,
                   const std::vector<Scope *> &local_scopes,
                   const ExecutionStrategy &exec_strategy,
                   const BuildStrategy &build_strategy,
                   ir::Graph *graph);

  // Single-device form, used by the run_program op.
  ParallelExecutor(const platform::Place &place,
                   Scope *scope,
                   const ExecutionStrategy &exec_strategy,
                   const BuildStrategy &build_strategy,
                   ir::Graph *graph);

  ~ParallelExecutor();

  size_t DeviceCount() const;
  std::vector<Scope *> &GetLocalScopes();
  void DropLocalExeScopes();
  bool NeedCreateLocalExeScope();

  FetchUnmergedList Run(const std::vector<std::string> &fetch_tensors);
  FetchList RunAndMerge(const std::vector<std::string> &fetch_tensors);
  void RunWithoutFetch(const std::vector<std::string> &skip_eager_vars);

  void SkipMemoryReuse(size_t scope_idx,
                       const std::vector<std::string> &skip_vars);
  void ResetOpHandleScopeMapOfGraphs(
      const std::unordered_map<Scope *, Scope *> &scope_map);

 private:
  std::unique_ptr<details::SSAGraphExecutor> CreateSSAGraphExecutor(
      const ExecutionStrategy &exec_strategy, ir::Graph *graph);

  std::unique_ptr<ParallelExecutorPrivate> member_;
};

}  // namespace framework
}  // namespace paddle
