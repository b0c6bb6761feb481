/*
 * fuzz_cli.c — libFuzzer harness for the option parser (src/cmd/cli.c): the input's
 * NUL-separated fields are argv[1..] of `sunset` (the command, then options and values: long
 * and short forms, "--opt=value", bundled values, "--"). cli_parse must return a documented
 * exit code, leave every string it kept pointing into argv, and cli_free must release all of
 * it, on success and on every error path; --shard values go through cli_shard too. Help and
 * version text go to stdout, which the harness sends to /dev/null. Seeds:
 * testdata/fuzz/fuzz_cli/.
 */
#include <stdint.h>

#include "cmd/cli.h"
#include "fuzz_engine.h"

#define MAX_ARGS 64

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv) {
    if (!freopen("/dev/null", "w", stdout)) {
        perror("fuzz: /dev/null");
        exit(2);
    }
    return 0;
}

static bool in_input(const char *s, const char *text, size_t len) {
    return !s || (s >= text && s <= text + len);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len) {
    char *text = fuzz_copy(data, len);
    char *argv[MAX_ARGS + 2];
    int argc = 0;
    argv[argc++] = "sunset";
    for (char *p = text; p < text + len && argc <= MAX_ARGS; p += strlen(p) + 1) argv[argc++] = p;
    argv[argc] = NULL;

    long live = sunset_alloc_live();
    cli c;
    bool done = false;
    int rc = cli_parse(argc, argv, &c, &done);
    if (rc != EXIT_OK && rc != EXIT_USAGE) abort();
    if (rc == EXIT_OK && !done) {
        if (!c.cmd || !c.command) abort();
        /* what the parser kept are argv's strings (or static ones: --no-color's "never", a
         * format alias's name), never copies that leak */
        const char *strs[] = {c.output, c.config, c.compdb, c.root, c.baseline, c.shard};
        for (size_t i = 0; i < sizeof strs / sizeof strs[0]; i++)
            if (!in_input(strs[i], text, len)) abort();
        for (size_t i = 0; i < c.paths.n; i++)
            if (!in_input(VEC_AT(&c.paths, const char *, i), text, len)) abort();
        cli_shard_spec sh;
        if (cli_shard(&c, &sh) == EXIT_OK) (void)cli_in_shard(&sh, "python/paddle/fluid/compiler.py");
    }
    cli_free(&c);
    fuzz_check_live(live, "option parsing");
    free(text);
    return 0;
}
