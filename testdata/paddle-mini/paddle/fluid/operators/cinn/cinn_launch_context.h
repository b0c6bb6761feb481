// paddle-mini: per-compilation runtime state of a CINN launch.
#pragma once
#include <memory>
#include <string>
#include <unordered_set>
#include <vector>

#include "paddle/fluid/framework/new_executor/interpretercore.h"
#include "paddle/fluid/framework/parallel_executor.h"
#include "paddle/fluid/framework/scope.h"

namespace paddle {
namespace operators {
namespace details {

class CinnLaunchContext {
 public:
  explicit CinnLaunchContext(const framework::ir::Graph& graph);

  // Builds (once) a ParallelExecutor that runs the runtime graph.
  framework::ParallelExecutor* InitializePE(const platform::Place& place,
                                            framework::Scope* scope);

  framework::InterpreterCore* InitializeInterpreterCore(
      const platform::Place& place, framework::Scope* scope);

  const std::vector<std::string>& GetSkipEagerVars() const {
    return skip_eager_vars_;
  }

  void CheckTensorEquivalent(const framework::Scope& scope) const;

 private:
  std::unique_ptr<framework::ir::Graph> runtime_graph_;
  std::unique_ptr<framework::ProgramDesc> runtime_program_desc_;
  std::unique_ptr<framework::ParallelExecutor> parallel_executor_;
  std::unique_ptr<framework::InterpreterCore> interpreter_core_;
  std::vector<std::string> skip_eager_vars_;
  std::unordered_set<std::string> skip_gc_vars_;
  framework::Scope* cached_scope_{nullptr};
};

}  // namespace details
}  // namespace operators
}  // namespace paddle
