#pragma once

namespace paddle {
namespace framework {
namespace details {
void CheckOpHasNanOrInf();
}  // namespace details
}  // namespace framework
}  // namespace paddle
