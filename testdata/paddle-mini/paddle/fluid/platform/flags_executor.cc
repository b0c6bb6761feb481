// paddle-mini: flags of the executor helpers.
#include "paddle/common/flags.h"

PHI_DEFINE_EXPORTED_int32(graph_run_stats_interval,
                          0,
                          "Log graph run statistics every N runs (0: never).");

PHI_DEFINE_EXPORTED_bool(op_run_timer_enabled,
                         false,
                         "Time every operator run.");
