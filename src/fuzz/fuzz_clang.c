/*
 * fuzz_clang.c — libFuzzer harness for the C/C++ frontend: the input is one C++ source file,
 * scanned through the engine (libclang parse, tokens, preprocessor branches, fact matching
 * against the bundled rules, both report writers). Seeds: testdata/fuzz/fuzz_clang/.
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
    fuzz_scan(F.eng, "paddle/fluid/framework/fuzz.cc", src, len);
    fuzz_check_live(live, "the C/C++ scan");
    free(src);
    return 0;
}
