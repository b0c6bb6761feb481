// paddle-mini: the base of the passes that reuse variable memory.
#pragma once

#include <string>
#include <unordered_map>

#include "paddle/fluid/framework/ir/pass.h"

namespace paddle {
namespace framework {
namespace ir {

class MemoryReusePass : public Pass {
 protected:
  void ApplyImpl(Graph *graph) const final;
  virtual void Run(Graph *graph) const = 0;
  bool TryReuseVar(const std::string &in, const std::string &out) const;

 private:
  mutable std::unordered_map<std::string, std::string> reused_;
};

}  // namespace ir
}  // namespace framework
}  // namespace paddle
