#include <string>

namespace paddle {
namespace framework {

int StatisticsEngine::Init(const std::string &name) {
  if (name.find("Executor::") == 0) {
    VLOG(10) << "type: Executor";
    return InitFiltersForExecutor();
  } else if (name.find("ParallelExecutor::") == 0) {
    VLOG(10) << "type: ParallelExecutor";
    executor_type_ = ExecutorType::LEGACY;
    return InitFiltersForParallelExecutor();
  } else if (name.find("StandaloneExecutor::") == 0) {
    return InitFiltersForInterpreterCore();
  }
  return 0;
}

}  // namespace framework
}  // namespace paddle
