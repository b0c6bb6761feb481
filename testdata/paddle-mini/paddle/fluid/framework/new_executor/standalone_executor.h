// paddle-mini: the executor that runs a Plan of jobs with InterpreterCore.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "paddle/fluid/framework/new_executor/interpretercore.h"
#include "paddle/fluid/framework/new_executor/plan.h"
#include "paddle/fluid/framework/scope.h"

namespace paddle {
namespace framework {

class StandaloneExecutor {
 public:
  StandaloneExecutor(const platform::Place& place,
                     const interpreter::Plan& plan,
                     Scope* scope);
  ~StandaloneExecutor() {}

  paddle::framework::FetchList Run(const std::vector<std::string>& feed_names,
                                   const bool enable_job_schedule_profiler);

 private:
  bool is_interpretercore_build_result_shared_{false};
  const platform::Place place_;
  const interpreter::Plan plan_;
  std::vector<framework::Scope*> micro_batch_scopes_;
  std::vector<std::shared_ptr<InterpreterCore>> interpretercores_;
  Scope* scope_;
};

}  // namespace framework
}  // namespace paddle
