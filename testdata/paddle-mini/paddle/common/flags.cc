// paddle-mini: exported gflags (a handful of them).
#include "paddle/common/flags.h"

/*
 * Name: FLAGS_check_nan_inf
 * Checks every operator output for NaN/Inf (slow, debug only).
 */
PHI_DEFINE_EXPORTED_bool(check_nan_inf,
                         false,
                         "Check every operator output for NaN or Inf.");

/*
 * Name: FLAGS_local_exe_sub_scope_limit
 * Memory limit (MB) of the sub-scopes kept under a local execution scope.
 */
PHI_DEFINE_EXPORTED_double(
    local_exe_sub_scope_limit,
    256.0,
    "Upper bound (MB) for the sub-scopes under each local execution "
    "scope; FLAGS_local_exe_sub_scope_limit=-1 disables the check.");

/*
 * Name: FLAGS_sync_nccl_allreduce
 * Synchronize the stream after every NCCL allreduce (both executors).
 */
PHI_DEFINE_EXPORTED_bool(sync_nccl_allreduce,
                         true,
                         "Synchronize the NCCL stream once an allreduce "
                         "has been issued.");

/*
 * Name: FLAGS_allreduce_record_one_event
 * Record one event for all fused allreduce handles instead of one each.
 */
PHI_DEFINE_EXPORTED_bool(allreduce_record_one_event,
                         false,
                         "Let fused allreduce handles share a single event.");

/*
 * CINN related FLAG
 * Name: FLAGS_enable_pe_launch_cinn
 * Value Range: bool, default=true
 * Example: FLAGS_enable_pe_launch_cinn=false makes cinn_launch skip the
 * route through ParallelExecutor.
 */
PHI_DEFINE_EXPORTED_bool(enable_pe_launch_cinn,
                         true,
                         "Run CINN-compiled graphs through "
                         "ParallelExecutor");

/*
 * CINN related FLAG
 * Name: FLAGS_enable_interpretercore_launch_cinn
 * Runs CINN compiled instructions with InterpreterCore.
 */
PHI_DEFINE_EXPORTED_bool(enable_interpretercore_launch_cinn,
                         true,
                         "Run CINN-compiled graphs through "
                         "InterpreterCore");

PHI_DEFINE_EXPORTED_bool(use_cinn, false, "Compile sub-graphs with CINN.");
