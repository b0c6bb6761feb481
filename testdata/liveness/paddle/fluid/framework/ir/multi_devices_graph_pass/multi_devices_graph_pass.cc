#include "paddle/fluid/framework/ir/multi_devices_graph_pass/multi_devices_graph_pass.h"

namespace paddle {
namespace framework {
namespace ir {
void Touch(MultiDevSSAGraphBuilderBase *b) { (void)b; }
}  // namespace ir
}  // namespace framework
}  // namespace paddle
