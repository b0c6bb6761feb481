/*
 * git.h — libgit2, initialised once for the process.
 *
 * git_libgit2_init does its set-up each time its count goes from 0 to 1, and with Debian's
 * mbedTLS backend that set-up seeds a random generator and parses the system's CA bundle
 * (about 140 PEM certificates, 9 ms on the machine of issue 18). Every git use of sunset
 * (the walk's tracked files, check's diff, report's revision, history) used to init and shut
 * down around itself, so a `check --diff-base` paid it seven times. Callers now take
 * sunset_git_init instead and never shut down: the first call initialises, and the
 * shutdown runs at exit, so leak checkers still see libgit2's memory freed.
 */
#ifndef SUNSET_BASE_GIT_H
#define SUNSET_BASE_GIT_H

/* Thread-safe; cheap after the first call. libgit2's own errors are left to its calls. */
void sunset_git_init(void);

#include <stdbool.h>
#include <stddef.h>

typedef struct git_repository git_repository;

/* git_repository_open_ext through one door (initialising libgit2 first), so that a test can
 * count how often a command opens a repository: every open in sunset goes through here. */
int sunset_git_open(git_repository **out, const char *path, unsigned flags);
/* How many times sunset_git_open ran in this process. */
size_t sunset_git_open_count(void);

/* How to bring `rev` (a revision that does not resolve, or one a shallow clone's history
 * does not reach) into the clone, as a command for the message that says so, into buf:
 * REMOTE/BRANCH: `git fetch REMOTE BRANCH`; X~N, X^: `git fetch --deepen=N REMOTE`; other
 * names and commit ids: `git fetch REMOTE REV`. `tip_only` (check's base: one tree is
 * enough) adds --depth=1 to a fetch by name; else (history: the commits between) a
 * shallow clone is also told `git fetch --unshallow REMOTE`. The remote is the one REV
 * names, else origin. */
void sunset_git_fetch_hint(git_repository *repo, const char *rev, bool tip_only, char *buf, size_t n);

#endif
