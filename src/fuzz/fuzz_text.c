/*
 * fuzz_text.c — libFuzzer harness for the text frontend: CMake, proto, shell, Markdown, reST
 * and plain text. The first input byte picks the file name (so the language), the rest is the
 * file, scanned through the engine with the bundled rules. Seeds: testdata/fuzz/fuzz_text/.
 */
#include <stdint.h>

#include "fuzz_engine.h"

static fuzz_engine F;

static const char *const paths[] = {
    "paddle/fluid/framework/CMakeLists.txt", "cmake/generic.cmake", "paddle/fluid/framework/framework.proto",
    "tools/check_api.sh", "doc/design.md", "doc/design.rst", "tools/parallel_UT_rule.txt",
};
#define N_PATHS (sizeof paths / sizeof paths[0])

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv) {
    fuzz_engine_open(&F);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len) {
    if (len == 0) return 0;
    const char *path = paths[data[0] % N_PATHS];
    char *src = fuzz_copy(data + 1, len - 1);
    long live = sunset_alloc_live();
    fuzz_scan(F.eng, path, src, len - 1);
    fuzz_check_live(live, "the text scan");
    free(src);
    return 0;
}
