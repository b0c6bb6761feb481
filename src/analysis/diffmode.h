/*
 * diffmode.h — what a change touched, read with libgit2: the diff between a revision and the
 * work tree (index and untracked files included, renames detected), per file the lines the
 * change adds or edits and the file's content at the revision. Used by `check --diff-base` and
 * `check --staged`, which also read the configuration and the baseline at the revision.
 */
#ifndef SUNSET_DIFFMODE_H
#define SUNSET_DIFFMODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/checkout.h"
#include "base/util.h"

typedef struct diff_file {
    char *path;          /* root-relative path in the work tree; NULL when deleted; owned */
    char *old_path;      /* root-relative path at the revision; NULL when new; owned */
    char *old_data;      /* the file at the revision (NUL-terminated); NULL when new; owned */
    size_t old_len;
    uint32_t *added;     /* work-tree line numbers added or edited, ascending; owned */
    size_t n_added;
    bool renamed;
    bool symlink;        /* the new side is a symbolic link */
    bool untracked;      /* a work-tree file git does not track (nor ignore) */
    bool all_added;      /* every line counts as added (a symlink: its target is judged) */
    char *new_data;      /* --staged: the file as staged in the index; NULL otherwise; owned */
    size_t new_len;
} diff_file;

typedef struct diff_set {
    diff_file *files;    /* in libgit2's delta order (by path) */
    size_t n;
    vec submodules;      /* char *: root-relative paths of gitlinks the change adds, bumps or
                          * removes (a submodule is no file to read; not in files); owned */
} diff_set;

/* Collect the changes between `rev` and the work tree for the files under the checkout's root
 * (inside a git work tree), through its repository handle. Returns 0, or -1 with a one-line
 * message in err. Free with diff_set_free. */
int diff_collect(const sunset_checkout *co, const char *rev, diff_set *out, char *err, size_t errn);
/* The same between `rev` and the index (what a commit would record, `check --staged`): each
 * file's new_data is its staged content. */
int diff_collect_staged(const sunset_checkout *co, const char *rev, diff_set *out, char *err, size_t errn);
void diff_set_free(diff_set *d);
/* Does the change add or edit line `line` of f? */
bool diff_line_added(const diff_file *f, uint32_t line);
/* A diff mode's unused suppressions: cur keeps those of the changed files in ds that the change
 * made unused (in use in old, the files as the revision had them, or not there) or that sit on
 * a line it adds or edits; the others are dropped. */
struct sunset_result;
void diff_keep_changed_unused(struct sunset_result *cur, const struct sunset_result *old, const diff_set *ds);

#endif
