// A synthetic op handle defined once per device backend, the way legacy
// executor code selects a base class with the preprocessor.
#pragma once

#include <string>
#include "paddle/fluid/framework/details/op_handle_base.h"
#if defined(PADDLE_WITH_NCCL)
#include "paddle/fluid/framework/details/nccl_op_handle.h"
#elif defined(PADDLE_WITH_XPU_BKCL)
#include <paddle/fluid/framework/details/bkcl_op_handle.h>
#endif

namespace paddle {
namespace framework {
namespace details {

#if defined(PADDLE_WITH_NCCL)
class AllReduceOpHandle : public NCCLOpHandleBase {
 public:
  AllReduceOpHandle(ir::Node *node, const platform::NCCLCommunicator *ctxs);
#elif defined(PADDLE_WITH_XPU_BKCL)
class AllReduceOpHandle : public BKCLOpHandleBase {
 public:
  AllReduceOpHandle(ir::Node *node, const platform::BKCLCommunicator *ctxs);
#else
class AllReduceOpHandle : public OpHandleBase {
 public:
  explicit AllReduceOpHandle(ir::Node *node);
#endif
  std::string Name() const override;

 protected:
  void RunImpl() override;
  int num_places_ = 0;
};

struct Helper {
  int Count() const { return 1; }
};

}  // namespace details
}  // namespace framework
}  // namespace paddle
