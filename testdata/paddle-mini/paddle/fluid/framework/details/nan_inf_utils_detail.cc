// paddle-mini: NaN/Inf checking used by operator.cc and the new executor.
#include "paddle/fluid/framework/details/nan_inf_utils_detail.h"

#include <string>
#include <unordered_set>

#include "paddle/common/flags.h"
#include "paddle/fluid/framework/scope.h"

COMMON_DECLARE_int32(check_nan_inf_level);

namespace paddle {
namespace framework {
namespace details {

static const std::unordered_set<std::string> &SkippedOpTypes() {
  static const std::unordered_set<std::string> kSkipped = {
      "coalesce_tensor", "fill_constant", "feed", "fetch"};
  return kSkipped;
}

void CheckOpHasNanOrInf(const framework::OperatorBase &op,
                        const framework::Scope &exec_scope,
                        const platform::Place &place) {
  if (SkippedOpTypes().count(op.Type())) return;
  for (const auto &pair : op.Outputs()) {
    for (const auto &name : pair.second) {
      auto *var = exec_scope.FindVar(name);
      if (var == nullptr || !var->IsType<phi::DenseTensor>()) continue;
      CheckVarHasNanOrInf(op.Type(), name, var, place);
    }
  }
  VLOG(10) << "nan/inf check done for " << op.Type() << ", level "
           << FLAGS_check_nan_inf_level;
}

}  // namespace details
}  // namespace framework
}  // namespace paddle
