/*
 * fuzz_python.c — libFuzzer harness for the Python frontend: the input is one Python file,
 * scanned through the engine (tree-sitter parse, facts.scm, the query rules and their
 * predicates, fact matching, legacy-object flow, both report writers). Seeds:
 * testdata/fuzz/fuzz_python/.
 *
 * The time limit is fuzzed without the real clock, so a replay is deterministic: each input
 * is scanned twice under a fake clock (fuzz_scan_with_stops, fuzz_engine.h), first never up, counting how often
 * the scan looks at it, then up at a read chosen from the input's hash, so that the stops of
 * the parse, the queries, the second passes and the flow all run, and must free everything.
 */
#include <stdint.h>

#include "fuzz_engine.h"

static fuzz_engine F;

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv) {
    fuzz_engine_open(&F);
    fuzz_use_fake_clock();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len) {
    char *src = fuzz_copy(data, len);
    fuzz_scan_with_stops(F.eng, "python/paddle/fluid/fuzz.py", src, len, "the Python scan");
    free(src);
    return 0;
}
