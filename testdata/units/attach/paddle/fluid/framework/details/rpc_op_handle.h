// An OpHandle a live pass still builds, written for sunset's tests.
#pragma once

namespace paddle {
namespace framework {
namespace details {
class RPCOpHandle {
 public:
  void Run();
};
}  // namespace details
}  // namespace framework
}  // namespace paddle
