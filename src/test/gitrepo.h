/*
 * gitrepo.h — a scratch git repository for the tests that drive the built binary through the
 * gate ($SUNSET_BIN, default build/sunset): run a command in it with $S set to sunset, keep its
 * stdout and stderr, write files (put asserts: include cmocka.h first). Header-only, since
 * every test file is its own program.
 */
#ifndef SUNSET_TEST_GITREPO_H
#define SUNSET_TEST_GITREPO_H

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "base/util.h"

typedef struct repo {
    char dir[PATH_MAX];
    char *out, *err; /* of the last run */
} repo;

static inline const char *bin(void) {
    const char *b = getenv("SUNSET_BIN");
    return b && *b ? b : "build/sunset";
}

static inline char *slurp(const char *path) {
    char *s = NULL;
    size_t n;
    if (read_file(path, 0, &s, &n)) return NULL;
    return s;
}

/* Run a sh command in the repository ($S is sunset); keeps stdout/stderr; returns the exit code. */
static inline int run(repo *r, const char *fmt, ...) {
    char cmd[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    char abs_bin[PATH_MAX];
    if (!realpath(bin(), abs_bin)) fail_msg("no sunset binary at %s", bin());
    setenv("S", abs_bin, 1);
    setenv("GATE_CMD", cmd, 1);
    unsetenv("GITHUB_STEP_SUMMARY");
    sb full = {0};
    sb_printf(&full, "cd '%s' && sh -c \"$GATE_CMD\" >'%s/.out' 2>'%s/.err' </dev/null", r->dir, r->dir, r->dir);
    int st = system(full.s);
    sb_free(&full);
    sunset_free(r->out);
    sunset_free(r->err);
    char p[PATH_MAX + 8];
    snprintf(p, sizeof p, "%s/.out", r->dir);
    r->out = slurp(p);
    snprintf(p, sizeof p, "%s/.err", r->dir);
    r->err = slurp(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static inline void put(repo *r, const char *path, const char *text) {
    char p[PATH_MAX + 256];
    snprintf(p, sizeof p, "%s/%s", r->dir, path);
    char *slash = strrchr(p, '/');
    *slash = 0;
    char mk[PATH_MAX + 300];
    snprintf(mk, sizeof mk, "mkdir -p '%s'", p);
    assert_int_equal(system(mk), 0);
    *slash = '/';
    assert_int_equal(write_file_atomic(p, text, strlen(text)), 0);
}

static inline int count_lines_starting(const char *s, const char *prefix) {
    int n = 0;
    size_t pl = strlen(prefix);
    for (const char *p = s; p && *p;) {
        if (strncmp(p, prefix, pl) == 0) n++;
        p = strchr(p, '\n');
        if (p) p++;
    }
    return n;
}

/* A new empty scratch directory $TMPDIR/sunset-TAG-XXXXXX in r->dir. 0, or -1. */
static inline int repo_mkdir(repo *r, const char *tag) {
    snprintf(r->dir, sizeof r->dir, "%s/sunset-%s-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", tag);
    return mkdtemp(r->dir) ? 0 : -1;
}

/* git init r->dir and commit what is there as "base" (a test identity). 0, or -1. */
static inline int repo_commit_base(repo *r) {
    return run(r, "git init -q && git config user.email t@example.com && git config user.name t && "
                  "git add -A && git commit -qm base") == 0 ? 0 : -1;
}

/* Remove the directory and free what the runs kept; r itself is the caller's. 0, or -1. */
static inline int repo_clear(repo *r) {
    char cmd[PATH_MAX + 16];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", r->dir);
    int rc = system(cmd) == 0 ? 0 : -1;
    sunset_free(r->out);
    sunset_free(r->err);
    r->out = r->err = NULL;
    return rc;
}

/* A cmocka teardown for a state that is a calloc'ed repo: cleared and freed. */
static inline int repo_teardown(void **state) {
    repo *r = *state;
    int rc = repo_clear(r);
    free(r);
    return rc;
}

#endif
