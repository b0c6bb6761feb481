/*
 * fuzz_config.c — libFuzzer harness for the project configuration (.sunset.json): the input
 * is written to a file in a private temporary directory and loaded with sunset_config_load
 * (the loader reads files only). A refused file must come with a message. Seeds:
 * testdata/fuzz/fuzz_config/.
 */
#include <stdint.h>
#include <unistd.h>

#include "core/config.h"
#include "fuzz_engine.h"

static const char *file;

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv) {
    file = fuzz_tmp_path("config", ".sunset.json");
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len) {
    fuzz_write(file, data, len);
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
