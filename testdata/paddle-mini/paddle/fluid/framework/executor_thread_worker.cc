// paddle-mini: ExecutorThreadWorker and friends.
#include "paddle/fluid/framework/executor_thread_worker.h"

#include <chrono>

namespace paddle {
namespace framework {

int DensePullThread::start() {
  running_ = true;
  t_ = std::thread(&DensePullThread::run, this);
  return 0;
}

void DensePullThread::run() {
  while (running_) {
    std::this_thread::sleep_for(std::chrono::milliseconds(threshold_));
  }
}

void ExecutorThreadWorker::SetDataFeed(
    const std::shared_ptr<DataFeed>& datafeed) {
  thread_reader_ = datafeed;
}

void ExecutorThreadWorker::SetFetchVarNames(
    const std::vector<std::string>& fetch_var_names) {
  fetch_var_names_ = fetch_var_names;
}

void ExecutorThreadWorker::TrainFiles() {
  thread_reader_->Start();
  int batch_cnt = 0;
  while (thread_reader_->Next() > 0) {
    ++batch_cnt;
    if (debug_) VLOG(3) << "thread " << thread_id_ << " batch " << batch_cnt;
  }
}

void AsyncExecutorThreadWorker::TrainFiles() {
  if (pull_dense_thread_ != nullptr) pull_dense_thread_->start();
  ExecutorThreadWorker::TrainFiles();
  if (pull_dense_thread_ != nullptr) pull_dense_thread_->stop();
}

}  // namespace framework
}  // namespace paddle
