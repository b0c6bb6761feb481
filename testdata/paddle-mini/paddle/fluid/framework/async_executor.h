// paddle-mini: file-driven multi-thread trainer of the 2018 fleet API.
#pragma once
#include <time.h>

#include <memory>
#include <random>
#include <string>
#include <vector>

#include "paddle/fluid/framework/data_feed.pb.h"
#include "paddle/fluid/framework/executor.h"
#include "paddle/fluid/framework/executor_thread_worker.h"
#include "paddle/fluid/framework/program_desc.h"
#include "paddle/fluid/framework/scope.h"

namespace paddle {
namespace framework {

inline double current_realtime() {
  struct timespec tp;
  clock_gettime(CLOCK_REALTIME, &tp);
  return tp.tv_sec + tp.tv_nsec * 1e-9;
}

inline std::default_random_engine& local_random_engine() {
  static thread_local std::default_random_engine engine(
      static_cast<uint64_t>(current_realtime() * 1e9));
  return engine;
}

class AsyncExecutor {
 public:
  AsyncExecutor(Scope* scope, const platform::Place& place);
  virtual ~AsyncExecutor() {}

  void RunFromFile(const ProgramDesc& main_program,
                   const std::string& data_feed_desc_str,
                   const std::vector<std::string>& filelist,
                   const int thread_num,
                   const std::vector<std::string>& fetch_var_names,
                   const std::string& mode,
                   const bool debug);

 private:
  void CreateThreads(ExecutorThreadWorker* worker,
                     const ProgramDesc& main_program,
                     const std::shared_ptr<DataFeed>& reader,
                     const std::vector<std::string>& fetch_var_names,
                     Scope* root_scope,
                     const int thread_index,
                     const bool debug);

  Scope* root_scope_;
  platform::Place place_;
  AsyncWorkerParamConfig param_config_;
};

}  // namespace framework
}  // namespace paddle
