/*
 * fuzz_baseline.c — libFuzzer harness for baseline reading (`check --baseline FILE`): the
 * input is written to a file and loaded the way check loads it. Whatever the bytes, the load
 * returns OK or the usage-error code after its message, and leaks nothing. Seeds:
 * testdata/fuzz/fuzz_baseline/.
 */
#include <stdint.h>
#include <unistd.h>

#include "analysis/baseline.h"
#include "cmd/cli.h"
#include "fuzz_engine.h"

static const char *file;

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv) {
    file = fuzz_tmp_path("baseline", "baseline.json");
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len) {
    fuzz_write(file, data, len);
    long live = sunset_alloc_live();
    int rc = sunset_baseline_check_file(file);
    if (rc != EXIT_OK && rc != EXIT_USAGE) abort();
    fuzz_check_live(live, "baseline loading");
    return 0;
}
