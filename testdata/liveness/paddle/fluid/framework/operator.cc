// The live operator core still calls the NaN/Inf checker compiled into detail_op_handle.
#include "paddle/fluid/framework/details/nan_inf_utils.h"

namespace paddle {
namespace framework {

void OperatorBase::Run() { details::CheckOpHasNanOrInf(); }

}  // namespace framework
}  // namespace paddle
