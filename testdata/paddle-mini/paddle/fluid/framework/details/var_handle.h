// paddle-mini: variable nodes of the SSA graph.
#pragma once
#include <string>
#include <unordered_set>
#include <utility>

#include "paddle/fluid/framework/ir/node.h"
#include "paddle/fluid/platform/place.h"

namespace paddle {
namespace framework {
namespace details {

class OpHandleBase;

struct VarHandleBase {
  explicit VarHandleBase(ir::Node *node) : node_(node) {
    node_->WrappedBy(this);
  }
  virtual ~VarHandleBase() = default;
  virtual std::string DebugString() const = 0;

  void AddInput(OpHandleBase *in, ir::Node *node);
  void AddOutput(OpHandleBase *out, ir::Node *node);
  OpHandleBase *GeneratedOp() { return generated_op_; }
  ir::Node *Node() { return node_; }

 protected:
  OpHandleBase *generated_op_{nullptr};
  std::unordered_set<OpHandleBase *> pending_ops_;
  ir::Node *node_;
};

struct VarHandle : public VarHandleBase {
  VarHandle(ir::Node *node, size_t version, size_t scope_index,
            std::string name, platform::Place place)
      : VarHandleBase(node),
        version_(version),
        scope_idx_(scope_index),
        name_(std::move(name)),
        place_(place) {}
  std::string DebugString() const override;

  size_t version_;
  size_t scope_idx_;
  std::string name_;
  platform::Place place_;
};

// Orders ops that share no real variable.
struct DummyVarHandle : public VarHandleBase {
  explicit DummyVarHandle(ir::Node *node) : VarHandleBase(node) {}
  std::string DebugString() const override { return "dummy"; }
};

}  // namespace details
}  // namespace framework
}  // namespace paddle
