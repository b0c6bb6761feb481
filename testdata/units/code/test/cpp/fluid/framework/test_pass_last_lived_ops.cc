#include "gtest/gtest.h"
#include "paddle/fluid/framework/parallel_executor.h"

namespace paddle {
namespace framework {

class PassTester {
 public:
  void Build(const std::vector<platform::Place> &places, Scope *scope) {
    details::BuildStrategy build_strategy;
    executor_ = std::make_unique<ParallelExecutor>(places,
                                                   scope,
                                                   exec_strategy_,
                                                   build_strategy);
    auto ref_cnt_pass =
        ir::PassRegistry::Instance().Get("reference_count_pass");
  }

 private:
  details::ExecutionStrategy exec_strategy_;
  std::unique_ptr<ParallelExecutor> executor_;
};

}  // namespace framework
}  // namespace paddle
