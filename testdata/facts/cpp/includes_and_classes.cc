// Copyright (c) 2024 sunset test data: a Paddle-style op handle, written for the tests.
#include "paddle/fluid/framework/details/op_handle_base.h"
#include <memory>
#include <vector>
#include "paddle/fluid/platform/place.h"

namespace paddle {
namespace framework {
namespace details {

class FetchOpHandle;  // a forward declaration is not a class

class ComputationOpHandle : public OpHandleBase {
 public:
  ComputationOpHandle(ir::Node *node, Scope *scope, platform::Place place);
  std::string Name() const override;

 private:
  std::unique_ptr<OperatorBase> op_;
};

struct ScaleLossGradOpHandle final : public details::OpHandleBase,
                                      private platform::NonCopyable {
  float coeff_;
};

template <typename T>
class ReduceOpHandle : public OpHandleBase {
  std::vector<T> buffers_;
};

enum class ExecutionKind { kSync, kAsync };  // not a class

}  // namespace details
}  // namespace framework
}  // namespace paddle
