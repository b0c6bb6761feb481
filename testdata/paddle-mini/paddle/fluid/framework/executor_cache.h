// paddle-mini: caches of compiled sub-programs for the run_program op.
#pragma once
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "paddle/fluid/framework/parallel_executor.h"
#include "paddle/fluid/framework/program_desc.h"

namespace paddle {
namespace framework {
namespace ir {
class Graph;
}

class InterpreterCore;

class ExecutorInfo {
 public:
  struct CacheValue {
    std::shared_ptr<ParallelExecutor> executor_{nullptr};
    std::shared_ptr<ir::Graph> graph_{nullptr};
    std::vector<std::string> skip_eager_delete_vars_;
  };

  CacheValue &GetMutable(bool is_grad) {
    return is_grad ? backward_info_ : forward_info_;
  }

 private:
  CacheValue forward_info_;
  CacheValue backward_info_;
};

class ExecutorInfoCache {
 public:
  static ExecutorInfoCache &Instance();

  void SetBuildStrategy(int64_t program_id,
                        const details::BuildStrategy &build_strategy) {
    strategy_map_[program_id] = build_strategy;
  }
  void Finalize() { info_map_.clear(); }

 private:
  std::unordered_map<int64_t, ExecutorInfo> info_map_;
  std::unordered_map<int64_t, details::BuildStrategy> strategy_map_;
};

using CacheInfo = std::pair<std::shared_ptr<ParallelExecutor>, bool>;
using PEAndGraphPair =
    std::pair<std::shared_ptr<ParallelExecutor>, std::shared_ptr<ir::Graph>>;

CacheInfo GetExecutorInfoFromCache(const ProgramDesc &program_desc,
                                   const platform::Place &place,
                                   int64_t start_op_index,
                                   int64_t end_op_index,
                                   bool is_grad,
                                   int64_t program_id,
                                   framework::Scope *scope);

class InterpreterCoreInfo {
 public:
  std::shared_ptr<InterpreterCore> core_{nullptr};
  std::vector<std::string> skip_eager_delete_vars_;
};

class InterpreterCoreInfoCache {
 public:
  static InterpreterCoreInfoCache &Instance();
  bool Has(int64_t program_id, bool is_grad) const;
  InterpreterCoreInfo &GetMutable(int64_t program_id, bool is_grad);
  void Finalize() { info_map_.clear(); }

 private:
  std::unordered_map<int64_t, InterpreterCoreInfo> info_map_;
};

std::shared_ptr<InterpreterCore> CreateProgramInterpreterCoreInfoToCache(
    const ProgramDesc &program_desc,
    const platform::Place &place,
    bool is_grad,
    int64_t program_id,
    framework::Scope *scope);

}  // namespace framework
}  // namespace paddle
