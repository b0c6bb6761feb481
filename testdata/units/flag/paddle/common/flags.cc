#include "paddle/common/flags.h"

/**
 * Distributed related FLAG
 * Name: FLAGS_allreduce_record_one_event
 * Since Version: 2.2.0
 * Example: FLAGS_allreduce_record_one_event=true makes the fused allreduce
 *          op handle wait on one event.
 */
PHI_DEFINE_EXPORTED_bool(allreduce_record_one_event,
                         false,
                         "Wait on one event in the fused allreduce.");

/**
 * Distributed related FLAG
 * Name: FLAGS_skip_fused_all_reduce_check
 * Since Version: 2.2.0
 */
PHI_DEFINE_EXPORTED_bool(skip_fused_all_reduce_check,
                         false,
                         "Skip the fused allreduce's input check.");
