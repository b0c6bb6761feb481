/*
 * shell.h — helpers for the tests that drive the built binary ($SUNSET_BIN, default
 * build/sunset) through the shell: run a command line, load a JSON file. Header-only, since
 * every test file is its own program.
 */
#ifndef SUNSET_TEST_SHELL_H
#define SUNSET_TEST_SHELL_H

#include <cjson/cJSON.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>

#include "base/util.h"

static inline const char *test_bin(void) {
    const char *b = getenv("SUNSET_BIN");
    return b && *b ? b : "build/sunset";
}

/* Run a printf-formatted command line with sh; its exit code, or -1 if it did not exit. */
static int test_sh(const char *fmt, ...) __attribute__((format(printf, 1, 2), unused));
static int test_sh(const char *fmt, ...) {
    char cmd[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    int st = system(cmd);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Parse dir/name as JSON; NULL when missing or malformed. Caller frees with cJSON_Delete. */
static inline cJSON *test_load_json(const char *dir, const char *name) {
    char p[512], *text = NULL;
    size_t n;
    snprintf(p, sizeof p, "%s/%s", dir, name);
    if (read_file(p, 0, &text, &n)) return NULL;
    cJSON *j = cJSON_Parse(text);
    sunset_free(text);
    return j;
}

#endif
