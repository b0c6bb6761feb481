// paddle-mini: AsyncExecutor (no CMake target builds this file).
#include "paddle/fluid/framework/async_executor.h"

#include <thread>

#include "google/protobuf/text_format.h"
#include "paddle/fluid/framework/data_feed_factory.h"

namespace paddle {
namespace framework {

AsyncExecutor::AsyncExecutor(Scope* scope, const platform::Place& place)
    : root_scope_(scope), place_(place) {}

void AsyncExecutor::CreateThreads(
    ExecutorThreadWorker* worker,
    const ProgramDesc& main_program,
    const std::shared_ptr<DataFeed>& reader,
    const std::vector<std::string>& fetch_var_names,
    Scope* root_scope,
    const int thread_index,
    const bool debug) {
  worker->SetThreadId(thread_index);
  worker->SetDebug(debug);
  worker->SetFetchVarNames(fetch_var_names);
  worker->CreateThreadResource(main_program, place_);
  worker->SetDataFeed(reader);
  worker->SetRootScope(root_scope);
}

void AsyncExecutor::RunFromFile(const ProgramDesc& main_program,
                                const std::string& data_feed_desc_str,
                                const std::vector<std::string>& filelist,
                                const int thread_num,
                                const std::vector<std::string>& fetch_var_names,
                                const std::string& mode,
                                const bool debug) {
  DataFeedDesc data_feed_desc;
  google::protobuf::TextFormat::ParseFromString(data_feed_desc_str,
                                                &data_feed_desc);
  std::vector<std::shared_ptr<ExecutorThreadWorker>> workers(thread_num);
  std::vector<std::thread> threads;
  for (int i = 0; i < thread_num; ++i) {
    if (mode == "mpi") {
      workers[i] = std::make_shared<AsyncExecutorThreadWorker>();
    } else {
      workers[i] = std::make_shared<ExecutorThreadWorker>();
    }
    auto reader = DataFeedFactory::CreateDataFeed(data_feed_desc.name());
    CreateThreads(workers[i].get(), main_program, reader, fetch_var_names,
                  root_scope_, i, debug);
    threads.emplace_back([&workers, i] { workers[i]->TrainFiles(); });
  }
  for (auto& th : threads) th.join();
  root_scope_->DropKids();
}

}  // namespace framework
}  // namespace paddle
