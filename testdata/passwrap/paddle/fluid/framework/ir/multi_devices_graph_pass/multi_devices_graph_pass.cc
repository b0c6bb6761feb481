#include "paddle/fluid/framework/ir/multi_devices_graph_pass/multi_devices_graph_pass.h"

namespace paddle {
namespace framework {
namespace ir {

std::unordered_set<std::string> &MultiDevSSAGraphBuilder() {
  static std::unordered_set<std::string> names;
  return names;
}

static int RegisterBuilder(const std::string &name) {
  MultiDevSSAGraphBuilder().insert(name);
  return 0;
}

void MultiDevSSAGraphBuilderBase::ApplyImpl() const {}

}  // namespace ir
}  // namespace framework
}  // namespace paddle

#define REGISTER_MULTI_DEVICES_PASS(pass_name, pass_class)        \
  int _multi_dev_builder_##pass_name =                            \
      paddle::framework::ir::RegisterBuilder(#pass_name);         \
  REGISTER_PASS(pass_name, pass_class)                            \
      .RequirePassAttr(paddle::framework::ir::kLossVarName)       \
      .RequirePassAttr(paddle::framework::ir::kStrategy)

REGISTER_MULTI_DEVICES_PASS(all_reduce_mode_multi_devices_pass,
                            paddle::framework::ir::MultiDevSSAGraphBuilderBase);
