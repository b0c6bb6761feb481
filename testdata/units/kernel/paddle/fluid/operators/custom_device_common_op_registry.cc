#include "paddle/fluid/operators/run_program_op.h"

namespace paddle {
namespace operators {

void RegisterCustomDeviceCommonKernel(const std::string &dev_type) {
  auto device_type = dev_type.c_str();
  REGISTER_OP_CUSTOM_DEVICE_KERNEL(
      run_program_grad,
      device_type,
      paddle::operators::RunProgramGradOpKernel<float, CustomDeviceContext>);
}

}  // namespace operators
}  // namespace paddle
