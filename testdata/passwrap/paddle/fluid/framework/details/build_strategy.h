#pragma once

#include <string>

namespace paddle {
namespace framework {
namespace details {

struct BuildStrategy {
  bool IsMultiDevPass(const std::string &name) const;
};

}  // namespace details
}  // namespace framework
}  // namespace paddle
