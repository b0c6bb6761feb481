/*
 * git.c — libgit2 initialised once for the process (git.h).
 */
#include "base/git.h"

#include <git2.h>
#include <pthread.h>
#include <stdlib.h>

static pthread_once_t git_once = PTHREAD_ONCE_INIT;

static void git_shutdown_at_exit(void) { git_libgit2_shutdown(); }

static void git_init_once(void) {
    /* a failed init leaves libgit2 unusable, and its calls then fail with their own errors */
    if (git_libgit2_init() > 0) atexit(git_shutdown_at_exit);
}

void sunset_git_init(void) { pthread_once(&git_once, git_init_once); }
