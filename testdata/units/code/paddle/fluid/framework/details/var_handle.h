#pragma once
namespace paddle {
namespace framework {
namespace details {
struct VarHandle {};
}  // namespace details
}  // namespace framework
}  // namespace paddle
