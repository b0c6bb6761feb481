// paddle-mini: data feeds of the dataset trainers (kept).
#pragma once
#include <time.h>

#include <memory>
#include <random>
#include <string>
#include <vector>

#include "paddle/fluid/framework/data_feed.pb.h"
#include "paddle/fluid/framework/scope.h"

namespace paddle {
namespace framework {

inline double current_realtime() {
  struct timespec tp;
  clock_gettime(CLOCK_REALTIME, &tp);
  return tp.tv_sec + tp.tv_nsec * 1e-9;
}

inline std::default_random_engine& local_random_engine() {
  struct engine_wrapper_t {
    std::default_random_engine engine;
    engine_wrapper_t() : engine(static_cast<uint64_t>(current_realtime())) {}
  };
  static thread_local engine_wrapper_t r;
  return r.engine;
}

class DataFeed {
 public:
  virtual ~DataFeed() = default;
  virtual void Init(const DataFeedDesc& data_feed_desc) = 0;
  virtual bool Start() = 0;
  virtual int Next() = 0;
  void SetBatchSize(int batch) { default_batch_size_ = batch; }

 protected:
  int default_batch_size_{1};
  std::vector<std::string> use_slots_;
};

}  // namespace framework
}  // namespace paddle
