#include "paddle/fluid/operators/run_program_op.h"

namespace paddle {
namespace operators {

class RunProgramOp {};
class RunProgramGradOp {};

template <typename T>
class RunProgramGradOpMaker {
 protected:
  void Apply(T *grad_op) const { grad_op->SetType("run_program_grad"); }
};

}  // namespace operators
}  // namespace paddle

namespace ops = paddle::operators;
REGISTER_OPERATOR(run_program,
                  ops::RunProgramOp,
                  ops::RunProgramGradOpMaker<paddle::framework::OpDesc>);
REGISTER_OPERATOR(run_program_grad, ops::RunProgramGradOp);

PD_REGISTER_STRUCT_KERNEL(
    run_program, CPU, ALL_LAYOUT, ops::RunProgramOpKernel, float) {}
PD_REGISTER_STRUCT_KERNEL(
    run_program_grad, CPU, ALL_LAYOUT, ops::RunProgramGradOpKernel, float) {}
