#include "paddle/fluid/framework/details/nan_inf_utils.h"

namespace paddle {
namespace framework {
namespace details {
void CheckOpHasNanOrInf() {}
}  // namespace details
}  // namespace framework
}  // namespace paddle
