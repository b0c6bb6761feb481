// Command-line switches of the graph engine.
#include <gflags/gflags.h>

DEFINE_bool(enable_parallel_graph, false, "run the independent stages of a graph at once");
DEFINE_string(pe_profile_fname, "", "where the stage profiler writes");

bool RunStagesInParallel() { return FLAGS_enable_parallel_graph; }
