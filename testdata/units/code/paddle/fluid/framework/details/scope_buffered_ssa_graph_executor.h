#pragma once
namespace paddle {
namespace framework {
namespace details {
struct VariableInfo {};
class ScopeBufferedSSAGraphExecutor {};
}  // namespace details
}  // namespace framework
}  // namespace paddle
