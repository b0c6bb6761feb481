/*
 * fuzz_config.c — libFuzzer harness for the project configuration (.sunset.json): the input
 * is written to a file in a private temporary directory and loaded with sunset_config_load
 * (the loader reads files only). A refused file must come with a message. Seeds:
 * testdata/fuzz/fuzz_config/.
 */
#include <stdint.h>
#include <unistd.h>

#include "config.h"
#include "fuzz_engine.h"

static char dir[] = "/tmp/sunset-fuzz-config-XXXXXX";
static char file[sizeof dir + 16];

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
    snprintf(file, sizeof file, "%s/.sunset.json", dir);
    atexit(cleanup);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len) {
    FILE *f = fopen(file, "wb");
    if (!f || fwrite(data, 1, len, f) != len || fclose(f) != 0) abort();
    long live = sunset_alloc_live();
    sunset_config cfg;
    sunset_config_init(&cfg);
    sunset_error err = {{0}};
    if (sunset_config_load(file, &cfg, &err) != 0 && !err.msg[0]) {
        fprintf(stderr, "fuzz: the configuration loader refused a file without a message\n");
        abort();
    }
    sunset_config_free(&cfg);
    fuzz_check_live(live, "configuration loading");
    return 0;
}
