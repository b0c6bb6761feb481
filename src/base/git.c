/*
 * git.c — libgit2 initialised once for the process (git.h).
 */
#include "base/git.h"

#include <git2.h>
#include <pthread.h>
#include <stdatomic.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static pthread_once_t git_once = PTHREAD_ONCE_INIT;

static void git_shutdown_at_exit(void) { git_libgit2_shutdown(); }

#define GIT_CACHE_MAX ((size_t)64 << 10)
#define GIT_WINDOW_SIZE ((size_t)1 << 20)
#define GIT_WINDOWS_MAPPED ((size_t)8 << 20)

static void git_init_once(void) {
    /* a failed init leaves libgit2 unusable, and its calls then fail with their own errors */
    if (git_libgit2_init() <= 0) return;
    atexit(git_shutdown_at_exit);
    /* libgit2 keeps up to 256 MB of the objects it reads, raw and parsed, and maps 1 GB
     * pack windows (every page read stays resident while mapped); nothing of ours reads an
     * object twice that it could not read again cheaply. `report` walks the whole history for
     * its PR numbers (48,000 commits of the 2024-05-09 tree): the cache grew by ~55 MB of
     * heap and the pack's pages by 21 MB, the run's peak (171 -> ~80 MB RSS with these
     * bounds, same CPU). The history replay found the same bounds best (analysis/history.c). */
    git_libgit2_opts(GIT_OPT_SET_CACHE_MAX_SIZE, (ssize_t)GIT_CACHE_MAX);
    git_libgit2_opts(GIT_OPT_SET_MWINDOW_SIZE, GIT_WINDOW_SIZE);
    git_libgit2_opts(GIT_OPT_SET_MWINDOW_MAPPED_LIMIT, GIT_WINDOWS_MAPPED);
}

void sunset_git_init(void) { pthread_once(&git_once, git_init_once); }

static atomic_size_t git_opens;

int sunset_git_open(git_repository **out, const char *path, unsigned flags) {
    sunset_git_init();
    atomic_fetch_add(&git_opens, 1);
    return git_repository_open_ext(out, path, flags, NULL);
}

size_t sunset_git_open_count(void) { return atomic_load(&git_opens); }

/* The remote rev names as its first component ("upstream/develop"), into r; else "origin".
 * True when rev names it. (One config entry read: libgit2 1.5's remote listing and lookup
 * match config names with a regex whose match data they leak on every mismatch.) */
static bool remote_of(git_repository *repo, const char *rev, char *r, size_t n) {
    const char *slash = strchr(rev, '/');
    snprintf(r, n, "origin");
    if (!repo || !slash || (size_t)(slash - rev) >= n) return false;
    snprintf(r, n, "%.*s", (int)(slash - rev), rev);
    char key[160];
    snprintf(key, sizeof key, "remote.%s.url", r);
    git_config *cfg = NULL;
    git_config_entry *e = NULL;
    bool named = git_repository_config_snapshot(&cfg, repo) == 0 && git_config_get_entry(&e, cfg, key) == 0;
    git_config_entry_free(e);
    git_config_free(cfg);
    if (!named) snprintf(r, n, "origin");
    return named;
}

/* The generations rev's ~N / ^ suffixes go back (HEAD~3^ is 4); 0 for none. *base_len =
 * the length of what they follow. */
static long ancestry(const char *rev, size_t *base_len) {
    size_t n = strlen(rev), i = n;
    long gens = 0;
    while (i > 0) {
        size_t d = i;
        while (d > 0 && isdigit((unsigned char)rev[d - 1])) d--;
        if (d == 0 || (rev[d - 1] != '~' && rev[d - 1] != '^')) break;
        long k = d < i ? strtol(rev + d, NULL, 10) : 1;
        gens += rev[d - 1] == '~' ? k : 1; /* ^N is the Nth parent: one generation */
        i = d - 1;
    }
    *base_len = i;
    return gens;
}

void sunset_git_fetch_hint(git_repository *repo, const char *rev, bool tip_only, char *buf, size_t n) {
    char remote[128];
    bool shallow = repo && git_repository_is_shallow(repo) == 1;
    size_t base_len;
    long gens = ancestry(rev, &base_len);
    const char *more = shallow && !tip_only ? ", or all of it: git fetch --unshallow " : "";
    if (gens > 0) {
        remote_of(repo, rev, remote, sizeof remote);
        snprintf(buf, n, "git fetch --deepen=%ld %s%s%s", gens, remote, more, *more ? remote : "");
        return;
    }
    const char *name = rev;
    if (remote_of(repo, rev, remote, sizeof remote)) name = rev + strlen(remote) + 1;
    snprintf(buf, n, "git fetch%s %s %s%s%s", tip_only ? " --no-tags --depth=1" : "", remote, name, more,
             *more ? remote : "");
}
