/*
 * fuzz_python.c — libFuzzer harness for the Python frontend: the input is one Python file,
 * scanned through the engine (tree-sitter parse, facts.scm, the query rules and their
 * predicates, fact matching, legacy-object flow, both report writers). Seeds:
 * testdata/fuzz/fuzz_python/.
 *
 * The time limit is fuzzed without the real clock, so a replay is deterministic: each input
 * is scanned twice under a fake clock (sunset_set_clock), first never up, counting how often
 * the scan looks at it, then up at a read chosen from the input's hash, so that the stops of
 * the parse, the queries, the second passes and the flow all run, and must free everything.
 */
#include <limits.h>
#include <stdint.h>

#include "fuzz_engine.h"

static fuzz_engine F;
static long clock_reads, clock_up_at;

static double fake_clock(void) { return clock_reads++ >= clock_up_at ? 3.6e6 : 0.0; }

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv) {
    fuzz_engine_open(&F);
    sunset_set_clock(fake_clock);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len) {
    char *src = fuzz_copy(data, len);
    long live = sunset_alloc_live();
    clock_reads = 0;
    clock_up_at = LONG_MAX; /* never */
    fuzz_scan(F.eng, "python/paddle/fluid/fuzz.py", src, len);
    fuzz_check_live(live, "the Python scan");
    clock_up_at = clock_reads ? (long)(hash64(data, len, 0) % (uint64_t)clock_reads) : 0;
    clock_reads = 0;
    fuzz_scan(F.eng, "python/paddle/fluid/fuzz.py", src, len);
    fuzz_check_live(live, "the Python scan stopped by the time limit");
    free(src);
    return 0;
}
