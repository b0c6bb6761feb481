// paddle-mini: registration of the cinn_launch op.
#include "paddle/fluid/operators/cinn/cinn_launch_op.h"

#include "paddle/fluid/framework/op_registry.h"

namespace paddle {
namespace operators {

class CinnLaunchOp : public framework::OperatorWithKernel {
 public:
  using framework::OperatorWithKernel::OperatorWithKernel;

  void InferShape(framework::InferShapeContext* ctx) const override {
    OP_INOUT_CHECK(ctx->HasInputs("X"), "Input", "X", "CinnLaunchOp");
    OP_INOUT_CHECK(ctx->HasOutputs("Out"), "Output", "Out", "CinnLaunchOp");
  }
};

class CinnLaunchOpMaker : public framework::OpProtoAndCheckerMaker {
 public:
  void Make() override {
    AddInput("X", "(vector<phi::DenseTensor>) inputs of the subgraph.")
        .AsDuplicable();
    AddOutput("Out", "(vector<phi::DenseTensor>) outputs of the subgraph.")
        .AsDuplicable();
    AddAttr<int64_t>("compilation_key", "key of the compiled CINN object.");
    AddComment("Runs a subgraph compiled by CINN.");
  }
};

}  // namespace operators
}  // namespace paddle

namespace ops = paddle::operators;
REGISTER_OPERATOR(cinn_launch, ops::CinnLaunchOp, ops::CinnLaunchOpMaker);
PD_REGISTER_STRUCT_KERNEL(
    cinn_launch, CPU, ALL_LAYOUT, ops::CinnLaunchOpKernel, float) {}
