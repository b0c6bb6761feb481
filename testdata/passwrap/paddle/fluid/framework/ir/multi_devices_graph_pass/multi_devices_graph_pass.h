#pragma once

#include <string>
#include <unordered_set>

namespace paddle {
namespace framework {
namespace ir {

constexpr char kLossVarName[] = "loss_var_name";
constexpr char kStrategy[] = "strategy";

std::unordered_set<std::string> &MultiDevSSAGraphBuilder();

class MultiDevSSAGraphBuilderBase {
 public:
  virtual ~MultiDevSSAGraphBuilderBase() = default;
  void ApplyImpl() const;
};

}  // namespace ir
}  // namespace framework
}  // namespace paddle
