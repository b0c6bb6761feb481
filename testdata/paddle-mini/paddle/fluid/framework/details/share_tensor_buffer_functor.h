// paddle-mini: shares tensor buffers between in-place variables.
#pragma once
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "paddle/fluid/framework/details/op_handle_base.h"
#include "paddle/fluid/framework/ir/memory_optimize_pass/memory_optimization_var_info.h"
#include "paddle/fluid/framework/scope.h"

namespace paddle {
namespace framework {
namespace details {

// Used by the program interpreters to run share_buffer-like instructions.
class ShareTensorBufferFunctor {
 public:
  ShareTensorBufferFunctor(
      Scope *scope,
      size_t scope_idx,
      const std::string &op_type,
      const std::vector<const ir::MemOptVarInfo *> &in_var_infos,
      const std::vector<std::string> &out_var_names,
      bool share_dims_and_dtype = false);

  void AddReuseVarPair(const ir::MemOptVarInfo *in_var_info,
                       const std::string &out_var_name);
  void SetShareDimsAndDtype(bool share) { share_dims_and_dtype_ = share; }
  void operator()(Scope *exec_scope);

 private:
  Scope *scope_;
  size_t scope_idx_;
  std::string op_type_;
  std::vector<const ir::MemOptVarInfo *> in_var_infos_;
  std::vector<std::string> out_var_names_;
  std::vector<std::pair<Variable *, Variable *>> in_out_vars_;
  bool share_dims_and_dtype_;
};

}  // namespace details
}  // namespace framework
}  // namespace paddle
