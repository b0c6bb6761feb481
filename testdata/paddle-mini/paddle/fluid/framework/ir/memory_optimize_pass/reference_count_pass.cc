// paddle-mini: counts the last users of every variable for eager deletion.
#include <memory>
#include <string>
#include <vector>

#include "paddle/fluid/framework/details/computation_op_handle.h"
#include "paddle/fluid/framework/details/multi_devices_helper.h"
#include "paddle/fluid/framework/ir/graph_helper.h"
#include "paddle/fluid/framework/ir/memory_optimize_pass/reference_count_pass_helper.h"

namespace paddle {
namespace framework {
namespace ir {

class ReferenceCountPass : public ir::Pass {
 protected:
  void ApplyImpl(ir::Graph *graph) const override;
};

static details::ComputationOpHandle *FindLastLivedOp(
    const std::vector<details::OpHandleBase *> &ops) {
  details::ComputationOpHandle *last = nullptr;
  for (auto *op : ops) {
    auto *compute_op = dynamic_cast<details::ComputationOpHandle *>(op);
    if (compute_op != nullptr) last = compute_op;
  }
  return last;
}

void ReferenceCountPass::ApplyImpl(ir::Graph *graph) const {
  auto &last_live_ops_of_vars =
      Get<std::vector<LastLiveOpsOfVars>>(kLastLiveOpsOfVars);
  const auto &vars = graph->Get<details::GraphVars>(details::kGraphVars);
  last_live_ops_of_vars.resize(vars.size());

  for (size_t i = 0; i < vars.size(); ++i) {
    for (auto &name_var_pair : vars[i]) {
      auto *var = name_var_pair.second.back();
      std::vector<details::OpHandleBase *> users(var->PendingOps().begin(),
                                                 var->PendingOps().end());
      auto *last = FindLastLivedOp(users);
      if (last == nullptr) continue;
      last_live_ops_of_vars[i].emplace(name_var_pair.first, last);
    }
  }
}

}  // namespace ir
}  // namespace framework
}  // namespace paddle

REGISTER_PASS(reference_count_pass, paddle::framework::ir::ReferenceCountPass)
    .RequirePassAttr(paddle::framework::ir::kMemOptVarInfoMapList)
    .RequirePassAttr(paddle::framework::ir::kLastLiveOpsOfVars);
