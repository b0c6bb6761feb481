#pragma once

namespace paddle {
namespace framework {
namespace details {
class OpHandleBase {
 public:
  virtual ~OpHandleBase() {}
};
}  // namespace details
}  // namespace framework
}  // namespace paddle
