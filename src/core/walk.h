/*
 * walk.h — discovers the files to scan below a root: honours .gitignore in a git work tree,
 * include/exclude globs, never follows a symlink out of the tree or into a loop.
 */
#ifndef SUNSET_WALK_H
#define SUNSET_WALK_H

#include <stdbool.h>
#include "base/util.h"

typedef struct walk_opts {
    bool gitignore;              /* honour .gitignore files (when inside a git work tree) */
    const char *const *include;  /* globs; a file must match one when any are given */
    size_t n_include;
    const char *const *exclude;  /* globs; matching files and directories are skipped */
    size_t n_exclude;
    bool gate;                   /* check, baseline: a cache directory (CACHEDIR.TAG, .sunset-cache)
                                  * exempts no file git tracks: a change can commit either */
    const vec *tracked;          /* char *: the index's root-relative paths, sorted (the
                                  * checkout's, base/checkout.h): the caller resolved the work
                                  * tree, `top` says where it is. NULL: the walk finds the work
                                  * tree and reads the index itself (walk_find_git, for callers
                                  * with no checkout: tests, fuzzers) */
    const char *top;             /* with tracked: the resolved top of the git work tree holding
                                  * the root (the checkout's), NULL outside any work tree */
} walk_opts;

typedef struct walk_stats {
    size_t files, dirs, ignored, excluded, symlinks_skipped, unreadable_dirs;
    size_t too_long; /* entries skipped because their path exceeds PATH_MAX (warned) */
} walk_stats;

/* Called for each problem met (unreadable directory ...); msg is one line. */
typedef void (*walk_warn_fn)(void *ctx, const char *msg);

/* Walk `start` (a directory or a file under root; "" or "." = root itself) and append the
 * root-relative paths of regular files to *out (char *, caller frees each with sunset_free).
 * Returns 0, or an errno value when `start` itself cannot be read. */
int walk_tree(const char *root, const char *start, const walk_opts *o, vec *out, walk_stats *st,
              walk_warn_fn warn, void *warn_ctx);

/* Does the include/exclude part of the rule take root-relative rel? For paths the walk cannot
 * see (deleted files, paths of another revision): check and history ask this. */
bool walk_selected(const walk_opts *o, const char *rel);

/* The walk's rules by content and by name, for the walks that read no directory (history
 * walks a commit's tree): does a CACHEDIR.TAG with these bytes make its directory a cache
 * (never entered, in the gate only for its tracked files); is an entry of this name never
 * walked (.git; .sunset-cache, but in the gate)? */
bool walk_cachedir_tag(const char *data, size_t len);
bool walk_name_skipped(const char *name, bool gate);

/* Is this file one sunset wrote (a scan report in text, JSON, SARIF, GitHub annotations or
 * markdown; a baseline; a tracking report in markdown or JSON; a removal plan; a history in
 * JSON or CSV)? Recognised by its first bytes, whatever its name: the engine never scans its
 * own outputs, whose messages and help texts name every legacy symbol. (HTML and SVG have no
 * language sunset scans.) */
bool sunset_own_output(const char *data, size_t len);

/* Glob match, gitignore flavour: `*` and `?` do not cross '/', `**` does, `[...]` classes.
 * A pattern without '/' is matched against the last path component only. */
bool sunset_glob_match(const char *pat, const char *path);

#endif
