// paddle-mini: summarises profiler events per executor kind.
#include "paddle/fluid/framework/new_executor/executor_statistics.h"

#include <functional>
#include <string>
#include <vector>

#include "paddle/fluid/platform/profiler/utils.h"

namespace paddle {
namespace framework {

class StatisticsEngine {
 public:
  int Apply(const platform::NodeTrees& trees);

 private:
  using Filter = std::function<bool(const platform::HostTraceEventNode&)>;

  int Init(const platform::NodeTrees& trees);
  int InitFiltersForExecutor();
  int InitFiltersForParallelExecutor();
  int InitFiltersForInterpreterCore();

  std::vector<std::pair<std::string, Filter>> filters_;
};

int StatisticsEngine::Init(const platform::NodeTrees& trees) {
  for (const auto& name : platform::TopLevelEventNames(trees)) {
    if (name.find("Executor::") == 0) {
      return InitFiltersForExecutor();
    } else if (name.find("ParallelExecutor::") == 0) {
      VLOG(10) << "statistics for ParallelExecutor events";
      return InitFiltersForParallelExecutor();
    } else if (name.find("StandaloneExecutor::") == 0) {
      return InitFiltersForInterpreterCore();
    }
  }
  return -1;
}

int StatisticsEngine::InitFiltersForParallelExecutor() {
  filters_.emplace_back("Total", [](const auto& evt) {
    return evt.Name() == "ParallelExecutor::Run";
  });
  return 0;
}

int StatisticsEngine::InitFiltersForInterpreterCore() {
  filters_.emplace_back("Total", [](const auto& evt) {
    return evt.Name() == "StandaloneExecutor::run";
  });
  return 0;
}

}  // namespace framework
}  // namespace paddle
