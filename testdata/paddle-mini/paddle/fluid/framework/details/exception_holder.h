// paddle-mini: keeps the first exception thrown by a worker thread.
#pragma once
#include <memory>
#include <mutex>
#include <string>

#include "glog/logging.h"
#include "paddle/fluid/platform/enforce.h"

namespace paddle {
namespace framework {
namespace details {

class ExceptionHolder {
 public:
  void Catch(std::exception_ptr eptr) {
    std::lock_guard<std::mutex> lock(mu_);
    if (exception_ == nullptr) exception_ = eptr;
  }

  bool IsCaught() const {
    std::lock_guard<std::mutex> lock(mu_);
    return exception_ != nullptr;
  }

  void ReThrow() {
    std::lock_guard<std::mutex> lock(mu_);
    if (exception_ == nullptr) return;
    std::exception_ptr e = exception_;
    exception_ = nullptr;
    std::rethrow_exception(e);
  }

  void Clear() {
    std::lock_guard<std::mutex> lock(mu_);
    exception_ = nullptr;
  }

 private:
  std::exception_ptr exception_{nullptr};
  mutable std::mutex mu_;
};

}  // namespace details
}  // namespace framework
}  // namespace paddle
