// paddle-mini: seeds loss@GRAD with 1/num_devices (or 1, or a user value).
#pragma once
#include <string>
#include <vector>

#include "paddle/fluid/framework/details/op_handle_base.h"
#include "paddle/fluid/framework/framework.pb.h"
#include "paddle/fluid/framework/scope.h"

namespace paddle {
namespace framework {
namespace details {

struct ScaleLossGradOpHandle final : public OpHandleBase {
 public:
  ScaleLossGradOpHandle(ir::Node *node,
                        size_t num_dev,
                        Scope *scope,
                        platform::Place place,
                        platform::DeviceContext *context,
                        proto::VarType::Type dtype);
  ~ScaleLossGradOpHandle() final;

  proto::VarType::Type DType() const { return out_dtype_; }
  float Coeff() const { return coeff_; }
  std::string Name() const override { return "scale_loss_grad"; }

 protected:
  void RunImpl() override;
  std::vector<Scope *> GetLocalScopes() override { return {scope_}; }

 private:
  float coeff_;
  Scope *scope_;
  platform::Place place_;
  proto::VarType::Type out_dtype_;
};

}  // namespace details
}  // namespace framework
}  // namespace paddle
