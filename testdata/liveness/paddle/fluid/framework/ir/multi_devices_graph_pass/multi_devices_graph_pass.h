#pragma once

namespace paddle {
namespace framework {
namespace ir {
class MultiDevSSAGraphBuilderBase {};
}  // namespace ir
}  // namespace framework
}  // namespace paddle
