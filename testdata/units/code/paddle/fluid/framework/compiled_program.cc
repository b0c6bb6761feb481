#include <iostream>

#include "paddle/fluid/framework/details/build_strategy.h"

namespace paddle {
namespace framework {

void PrintStrategy(const details::BuildStrategy &strategy) { std::cout << strategy; }

}  // namespace framework
}  // namespace paddle
