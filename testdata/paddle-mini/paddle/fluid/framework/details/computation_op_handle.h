// paddle-mini: wraps one framework operator as a graph node.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "paddle/fluid/framework/details/op_handle_base.h"
#include "paddle/fluid/framework/operator.h"
#include "paddle/fluid/framework/scope.h"

namespace paddle {
namespace framework {
namespace details {

class ComputationOpHandle : public OpHandleBase {
 public:
  ComputationOpHandle(ir::Node *node,
                      Scope *scope,
                      platform::Place place,
                      size_t scope_idx);

  OperatorBase *GetOp() { return op_.get(); }
  const Scope *GetScope() const { return scope_; }
  size_t GetScopeIdx() const { return scope_idx_; }
  const platform::Place &GetPlace() const { return place_; }
  void SetLockAndRecordEventFree(bool b) { is_lock_and_record_event_free_ = b; }

  std::string Name() const override;

 protected:
  void RunImpl() override;
  std::vector<Scope *> GetLocalScopes() override { return {scope_}; }

 private:
  std::unique_ptr<OperatorBase> op_;
  Scope *scope_;
  platform::Place place_;
  size_t scope_idx_;
  bool is_lock_and_record_event_free_{false};
};

}  // namespace details
}  // namespace framework
}  // namespace paddle
