/*
 * fuzz_python.c — libFuzzer harness for the Python frontend: the input is one Python file,
 * scanned through the engine (tree-sitter parse under the time budget, facts.scm, the query
 * rules and their predicates, fact matching, both report writers). Seeds: testdata/fuzz/fuzz_python/.
 */
#include <stdint.h>

#include "fuzz_engine.h"

static fuzz_engine F;

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv) {
    fuzz_engine_open(&F);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len) {
    char *src = fuzz_copy(data, len);
    long live = sunset_alloc_live();
    fuzz_scan(F.eng, "python/paddle/fluid/fuzz.py", src, len);
    fuzz_check_live(live, "the Python scan");
    free(src);
    return 0;
}
