// paddle-mini: copies fetched variables back to the host.
#pragma once
#include <string>
#include <vector>

#include "paddle/fluid/framework/details/op_handle_base.h"
#include "paddle/fluid/framework/feed_fetch_type.h"
#include "paddle/fluid/framework/scope.h"

namespace paddle {
namespace framework {
namespace details {

struct FetchOpHandle : public OpHandleBase {
 public:
  FetchOpHandle(ir::Node *node,
                FetchResultType *data,
                size_t offset,
                std::vector<Scope *> *local_scopes,
                std::vector<Scope *> *local_exec_scopes,
                bool return_merged);
  ~FetchOpHandle() override;

  std::string Name() const override { return "fetch"; }

 protected:
  void RunImpl() override;
  std::vector<Scope *> GetLocalScopes() override { return *local_scopes_; }

 private:
  void WaitAndMergeCPUFetchVars() const;

  FetchResultType *data_;
  size_t offset_;
  std::vector<Scope *> *local_scopes_;
  std::vector<Scope *> *local_exec_scopes_;
  std::vector<FetchType> tensors_;
  bool return_merged_;
};

}  // namespace details
}  // namespace framework
}  // namespace paddle
