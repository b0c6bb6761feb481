// paddle-mini: gradient all-reduce node; one definition per backend.
#pragma once
#include <string>
#include <vector>

#include "paddle/fluid/framework/details/op_handle_base.h"
#include "paddle/fluid/framework/scope.h"
#if defined(PADDLE_WITH_NCCL) || defined(PADDLE_WITH_RCCL)
#include "paddle/fluid/framework/details/nccl_op_handle.h"
#elif defined(PADDLE_WITH_XPU_BKCL)
#include "paddle/fluid/framework/details/bkcl_op_handle.h"
#endif

namespace paddle {
namespace framework {
namespace details {

#if defined(PADDLE_WITH_NCCL) || defined(PADDLE_WITH_RCCL)
class AllReduceOpHandle : public NCCLOpHandleBase {
 public:
  AllReduceOpHandle(ir::Node *node,
                    const std::vector<Scope *> &local_scopes,
                    const std::vector<platform::Place> &places,
                    const platform::NCCLCommunicator *ctxs);
#elif defined(PADDLE_WITH_XPU_BKCL)
class AllReduceOpHandle : public BKCLOpHandleBase {
 public:
  AllReduceOpHandle(ir::Node *node,
                    const std::vector<Scope *> &local_scopes,
                    const std::vector<platform::Place> &places,
                    const platform::BKCLCommunicator *ctxs);
#else
class AllReduceOpHandle : public OpHandleBase {
 public:
  AllReduceOpHandle(ir::Node *node,
                    const std::vector<Scope *> &local_scopes,
                    const std::vector<platform::Place> &places);
#endif
  std::string Name() const override { return "all_reduce"; }
  bool IsMultiDeviceTransfer() override { return true; }

 protected:
  void RunImpl() override;
  std::vector<Scope *> GetLocalScopes() override { return local_scopes_; }
  void AllReduceImpl(const std::vector<VarHandle *> &in_var_handles,
                     const std::vector<VarHandle *> &out_var_handles);

  std::vector<Scope *> local_scopes_;
#if !defined(PADDLE_WITH_NCCL) && !defined(PADDLE_WITH_RCCL) && \
    !defined(PADDLE_WITH_XPU_BKCL)
  std::vector<platform::Place> places_;
#endif
};

}  // namespace details
}  // namespace framework
}  // namespace paddle
