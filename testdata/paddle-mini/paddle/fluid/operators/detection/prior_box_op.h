// paddle-mini: prior_box kernel (PriorBoxOpHandler is a kernel helper).
#pragma once
#include <vector>

#include "paddle/fluid/framework/op_registry.h"
#include "paddle/phi/core/visit_type.h"

namespace paddle {
namespace operators {

template <typename T>
class PriorBoxOpKernel : public framework::OpKernel<T> {
 public:
  void Compute(const framework::ExecutionContext& ctx) const override {
    auto* image = ctx.Input<phi::DenseTensor>("Image");
    PD_VISIT_FLOATING_TYPES(image->dtype(), "PriorBoxOpHandler", ([&] {
                              PriorBoxOpHandler<data_t>(ctx);
                            }));
  }

  template <typename K>
  void PriorBoxOpHandler(const framework::ExecutionContext& ctx) const {
    auto* boxes = ctx.Output<phi::DenseTensor>("Boxes");
    auto min_sizes = ctx.Attr<std::vector<float>>("min_sizes");
    boxes->mutable_data<K>(ctx.GetPlace());
    VLOG(10) << "prior_box with " << min_sizes.size() << " min sizes";
  }
};

}  // namespace operators
}  // namespace paddle
