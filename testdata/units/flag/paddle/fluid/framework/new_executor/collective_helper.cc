#include "paddle/common/flags.h"

COMMON_DECLARE_bool(allreduce_record_one_event);

namespace paddle {
namespace framework {

bool RecordOneEvent() { return FLAGS_allreduce_record_one_event; }

}  // namespace framework
}  // namespace paddle
