// sunset test data: an operator registered for the legacy executor and the names it links.
#include "paddle/fluid/framework/op_registry.h"

namespace ops = paddle::operators;

REGISTER_OPERATOR(run_program,
                  ops::RunProgramOp,
                  ops::RunProgramOpMaker,
                  ops::RunProgramGradOpMaker<paddle::framework::OpDesc>);
REGISTER_OPERATOR(run_program_grad, ops::RunProgramGradOp);
REGISTER_OP_WITHOUT_GRADIENT(c_sync_comm_stream, ops::CSyncCommStreamOp, ops::CSyncCommStreamOpMaker);

template <typename T>
class RunProgramGradOpMaker : public paddle::framework::SingleGradOpMaker<T> {
 protected:
  void Apply(GradOpPtr<T> grad_op) const override { grad_op->SetType("run_program_grad"); }
};

USE_OP_ITSELF(scale);
USE_NO_KERNEL_OP(feed);
