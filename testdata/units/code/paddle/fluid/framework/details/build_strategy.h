#pragma once

#include <ostream>

#include "paddle/fluid/framework/details/scope_buffered_ssa_graph_executor.h"
#include "paddle/fluid/framework/details/var_handle.h"

namespace paddle {
namespace framework {
namespace details {

struct BuildStrategy {
  bool enable_sequential_execution_{false};
  std::vector<VarHandle *> vars_;
  VariableInfo info_;
};

inline std::ostream &operator<<(std::ostream &os, const BuildStrategy &strategy) {
  os << "enable_sequential_execution_: "
     << strategy.enable_sequential_execution_ << std::endl;
  return os;
}

}  // namespace details
}  // namespace framework
}  // namespace paddle
