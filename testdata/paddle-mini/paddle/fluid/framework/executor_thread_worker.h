// paddle-mini: per-thread workers of AsyncExecutor.
#pragma once
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "paddle/fluid/framework/data_feed.h"
#include "paddle/fluid/framework/executor.h"
#include "paddle/fluid/framework/program_desc.h"
#include "paddle/fluid/framework/scope.h"

namespace paddle {
namespace framework {

struct AsyncWorkerParamConfig {
  int slot_dim;
  int fea_dim;
  int32_t tmp_push_dense_wait_times;
  std::vector<std::string> skip_op;
};

struct DensePullThreadParam {
  int threshold;
  int training_thread_num;
  Scope* root_scope;
  std::map<uint64_t, std::vector<std::string>>* dense_params;
};

class DensePullThread {
 public:
  explicit DensePullThread(const DensePullThreadParam& param)
      : running_(false), threshold_(param.threshold),
        root_scope_(param.root_scope) {}
  int start();
  void stop() {
    if (running_) {
      running_ = false;
      t_.join();
    }
  }

 private:
  void run();
  bool running_;
  int threshold_;
  Scope* root_scope_;
  std::thread t_;
};

class ExecutorThreadWorker {
 public:
  ExecutorThreadWorker() : thread_id_(-1), debug_(false) {}
  virtual ~ExecutorThreadWorker() {}

  void CreateThreadResource(const ProgramDesc& program,
                            const platform::Place& place);
  void SetThreadId(int tid) { thread_id_ = tid; }
  void SetDebug(bool debug) { debug_ = debug; }
  void SetRootScope(Scope* g_scope) { root_scope_ = g_scope; }
  void SetDataFeed(const std::shared_ptr<DataFeed>& datafeed);
  void SetFetchVarNames(const std::vector<std::string>& fetch_var_names);
  virtual void TrainFiles();

 protected:
  int thread_id_;
  bool debug_;
  Scope* root_scope_{nullptr};
  std::shared_ptr<DataFeed> thread_reader_;
  std::vector<std::string> fetch_var_names_;
};

class AsyncExecutorThreadWorker : public ExecutorThreadWorker {
 public:
  AsyncExecutorThreadWorker() = default;
  void TrainFiles() override;

 private:
  AsyncWorkerParamConfig* param_config_{nullptr};
  std::shared_ptr<DensePullThread> pull_dense_thread_;
};

}  // namespace framework
}  // namespace paddle
