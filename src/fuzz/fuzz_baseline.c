/*
 * fuzz_baseline.c — libFuzzer harness for baseline reading (`check --baseline FILE`): the
 * input is written to a file and loaded the way check loads it. Whatever the bytes, the load
 * returns OK or the usage-error code after its message, and leaks nothing. Seeds:
 * testdata/fuzz/fuzz_baseline/.
 */
#include <stdint.h>
#include <unistd.h>

#include "cli.h"
#include "fuzz_engine.h"

static char dir[] = "/tmp/sunset-fuzz-baseline-XXXXXX";
static char file[sizeof dir + 32];

static void cleanup(void) {
    unlink(file);
    rmdir(dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv) {
    if (!mkdtemp(dir)) {
        perror("fuzz: mkdtemp");
        exit(2);
    }
    snprintf(file, sizeof file, "%s/baseline.json", dir);
    atexit(cleanup);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len) {
    FILE *f = fopen(file, "wb");
    if (!f || fwrite(data, 1, len, f) != len || fclose(f) != 0) abort();
    long live = sunset_alloc_live();
    int rc = sunset_baseline_check_file(file);
    if (rc != EXIT_OK && rc != EXIT_USAGE) abort();
    fuzz_check_live(live, "baseline loading");
    return 0;
}
