// paddle-mini: OpHandleBase bookkeeping.
#include "paddle/fluid/framework/details/op_handle_base.h"

#include "glog/logging.h"

namespace paddle {
namespace framework {
namespace details {

OpHandleBase::~OpHandleBase() = default;

void OpHandleBase::Run(DeviceType use_device) {
  if (use_device == p::kCUDA) {
    VLOG(4) << "run " << Name() << " on its CUDA stream";
  }
  RunImpl();
}

void OpHandleBase::AddInput(VarHandleBase *in) {
  inputs_.emplace_back(in);
  node_->inputs.push_back(in->Node());
  in->AddOutput(this, node_);
}

void OpHandleBase::AddOutput(VarHandleBase *out) {
  outputs_.emplace_back(out);
  node_->outputs.push_back(out->Node());
  out->AddInput(this, node_);
}

void OpHandleBase::SetLocalExecScopes(
    const std::unordered_map<Scope *, Scope *> &scope_map) {
  local_exec_scopes_.clear();
  for (auto *scope : GetLocalScopes()) {
    auto iter = scope_map.find(scope);
    local_exec_scopes_.emplace_back(iter == scope_map.end() ? scope
                                                            : iter->second);
  }
}

}  // namespace details
}  // namespace framework
}  // namespace paddle
