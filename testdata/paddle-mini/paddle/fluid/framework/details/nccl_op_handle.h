// paddle-mini: NCCL plumbing shared by the collective op handles.
#pragma once
#include <string>
#include <vector>

#include "paddle/fluid/framework/details/op_handle_base.h"
#include "paddle/fluid/platform/device/gpu/nccl_helper.h"

namespace paddle {
namespace framework {
namespace details {

class NCCLOpHandleBase : public OpHandleBase {
 public:
  NCCLOpHandleBase(ir::Node *node,
                   const std::vector<platform::Place> &places,
                   const platform::NCCLCommunicator *nccl_ctxs)
      : OpHandleBase(node), places_(places), nccl_ctxs_(nccl_ctxs) {}

  const platform::NCCLCommunicator *GetNcclContext() const {
    return nccl_ctxs_;
  }
  ncclComm_t GetComm() const;
  void SetRunEnv(int run_order, bool use_hierarchical_allreduce);

 protected:
  void FlatNCCLAllReduce(platform::Place place,
                         const void *sendbuff,
                         void *recvbuff,
                         size_t count,
                         ncclDataType_t datatype,
                         ncclRedOp_t op);

  std::vector<platform::Place> places_;
  const platform::NCCLCommunicator *nccl_ctxs_{nullptr};
  int run_order_{0};
  bool use_hierarchical_allreduce_{false};
};

}  // namespace details
}  // namespace framework
}  // namespace paddle
