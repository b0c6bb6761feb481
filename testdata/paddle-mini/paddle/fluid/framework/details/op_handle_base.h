// paddle-mini: base class of every operator node in the SSA graph.
#pragma once
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "paddle/fluid/framework/details/execution_strategy.h"
#include "paddle/fluid/framework/details/var_handle.h"
#include "paddle/fluid/framework/ir/node.h"
#include "paddle/fluid/platform/device_context.h"

namespace paddle {
namespace framework {
class Scope;

namespace details {

class OpHandleBase {
 public:
  enum Priority { kHighest = 0, kNormal = 1 };

  explicit OpHandleBase(ir::Node *node) : node_(node) {
    node_->WrappedBy(this);
  }
  virtual ~OpHandleBase();

  void Run(DeviceType use_device);
  virtual std::string Name() const = 0;
  virtual Priority GetPriority() const { return kNormal; }
  virtual bool IsMultiDeviceTransfer() { return false; }

  void AddInput(VarHandleBase *in);
  void AddOutput(VarHandleBase *out);
  const std::vector<VarHandleBase *> &Inputs() const { return inputs_; }
  const std::vector<VarHandleBase *> &Outputs() const { return outputs_; }
  ir::Node *Node() { return node_; }

  void SetLocalExecScopes(
      const std::unordered_map<Scope *, Scope *> &scope_map);

 protected:
  virtual void RunImpl() = 0;
  virtual std::vector<Scope *> GetLocalScopes() = 0;

  ir::Node *node_;
  std::vector<VarHandleBase *> inputs_;
  std::vector<VarHandleBase *> outputs_;
  std::map<platform::Place, platform::DeviceContext *> dev_ctxes_;
  std::vector<Scope *> local_exec_scopes_;
};

}  // namespace details
}  // namespace framework
}  // namespace paddle
