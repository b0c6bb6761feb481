#include "gtest/gtest.h"
#include "paddle/fluid/framework/parallel_executor.h"

namespace paddle {
namespace framework {

void ConfigureExecutionStrategy(int threads) {
  VLOG(3) << "threads " << threads;
  VLOG(3) << "configured";
}

class SetupTester {
 public:
  void Build(const std::vector<platform::Place> &places, Scope *scope) {
    details::BuildStrategy build_strategy;
    details::ExecutionStrategy exec_strategy;
    exec_strategy.num_threads_ = 1;

    executor_ = std::make_unique<ParallelExecutor>(places,
                                                   scope,
                                                   exec_strategy,
                                                   build_strategy);
  }

  void Spare() {
    details::ExecutionStrategy spare;
    VLOG(3) << "spare";
  }

 private:
  std::unique_ptr<ParallelExecutor> executor_;
};

}  // namespace framework
}  // namespace paddle
