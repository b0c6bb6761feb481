// paddle-mini: concatenates SelectedRows from every device.
#include "paddle/fluid/framework/details/gather_op_handle.h"

#include "paddle/fluid/framework/details/container_cast.h"
#include "paddle/fluid/framework/details/variable_visitor.h"

REGISTER_FILE_SYMBOLS(gather_op_handle);

namespace paddle {
namespace framework {
namespace details {

GatherOpHandle::GatherOpHandle(ir::Node *node,
                               const std::vector<Scope *> &local_scopes,
                               const std::vector<platform::Place> &places)
    : OpHandleBase(node), local_scopes_(local_scopes), places_(places) {}

void GatherOpHandle::RunImpl() {
  if (places_.size() == 1) return;

  auto in_var_handles = DynamicCast<VarHandle>(inputs_);
  auto out_var_handles = DynamicCast<VarHandle>(outputs_);
  PADDLE_ENFORCE_EQ(out_var_handles.size(),
                    1UL,
                    platform::errors::InvalidArgument(
                        "gather needs one output, but got %d.",
                        out_var_handles.size()));

  std::vector<int64_t> rows;
  for (auto *in : in_var_handles) {
    auto *var = local_exec_scopes_[in->scope_idx_]->FindVar(in->name_);
    auto &selected = var->Get<phi::SelectedRows>();
    rows.insert(rows.end(), selected.rows().begin(), selected.rows().end());
  }

  auto *out = out_var_handles.front();
  auto *out_var = local_exec_scopes_[out->scope_idx_]->FindVar(out->name_);
  out_var->GetMutable<phi::SelectedRows>()->set_rows(rows);
}

std::string GatherOpHandle::Name() const { return "gather"; }

}  // namespace details
}  // namespace framework
}  // namespace paddle
