// paddle-mini: packs gradients into one continuous buffer (kept pass).
#include <string>
#include <vector>

#include "paddle/fluid/framework/details/multi_devices_helper.h"
#include "paddle/fluid/framework/ir/graph_helper.h"

namespace paddle {
namespace framework {
namespace ir {

class CoalesceGradTensorPass : public ir::Pass {
 protected:
  void ApplyImpl(ir::Graph *graph) const override {
    if (!graph->Has(details::kFusedVars)) {
      graph->Set(details::kFusedVars, new details::FusedVars);
    }
    auto &fused_vars = graph->Get<details::FusedVars>(details::kFusedVars);
    for (auto *node : graph->Nodes()) {
      if (!node->IsVar() || node->Var() == nullptr) continue;
      if (!IsGradient(node->Name())) continue;
      details::VariableInfo var_info;
      var_info.name_ = node->Name();
      var_info.type_ = node->Var()->GetType();
      var_info.persistable_ = node->Var()->Persistable();
      fused_vars.emplace(var_info.name_, var_info);
    }
    // Op roles come from the attribute helpers in multi_devices_helper.h.
    for (auto *node : graph->Nodes()) {
      if (node->IsOp() && details::IsOpRole(*node->Op(), OpRole::kBackward)) {
        VLOG(10) << "backward op " << node->Name();
      }
    }
  }

 private:
  static bool IsGradient(const std::string &name) {
    return name.find("@GRAD") != std::string::npos;
  }
};

}  // namespace ir
}  // namespace framework
}  // namespace paddle

REGISTER_PASS(coalesce_grad_tensor_pass,
              paddle::framework::ir::CoalesceGradTensorPass);
