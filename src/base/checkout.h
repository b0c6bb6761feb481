/*
 * checkout.h — where a command runs, resolved once: the scan root and how its paths are
 * shown, the git work tree around it and the root's place in it, the repository handle
 * (opened once per command, through base/git.h's counted open), the index's tracked paths and
 * a file as a revision has it. Every walker, diff, cache-location and report function takes
 * this object instead of finding the root or the repository again.
 */
#ifndef SUNSET_BASE_CHECKOUT_H
#define SUNSET_BASE_CHECKOUT_H

#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>
#include "base/util.h"

typedef struct git_repository git_repository;

typedef struct sunset_checkout {
    char *root;     /* absolute, resolved scan root */
    char *display;  /* the root as the user named it (a result's "root"; may be taken) */
    char *shown;    /* the prefix that turns a root-relative path into the one the user types */
    char *top;      /* the git work tree's top, resolved; NULL outside a work tree */
    char *prefix;   /* the root below top: "" or "a/b/"; NULL outside a work tree */
    vec starts;     /* char *: root-relative start paths, one per PATH */
    git_repository *repo; /* the repository holding the root; NULL outside one */
    bool open;
    bool borrowed;        /* repo is the caller's (req.repo): close leaves it open */
} sunset_checkout;

typedef struct sunset_checkout_req {
    const char *const *paths; /* the PATHs as given; none = "." */
    size_t n_paths;
    const char *root;         /* --root DIR, or NULL: the PATHs' common directory */
    git_repository *repo;     /* an open repository to use instead of opening one (a second
                               * look at the same checkout), or NULL */
} sunset_checkout_req;

/* Resolve the root (the one function that does), open its repository once. 0, or EXIT_USAGE
 * with a one-line message in err ("PATH: reason"). Close with sunset_checkout_close. */
int sunset_checkout_open(sunset_checkout *co, const sunset_checkout_req *req, char *err, size_t errn);

/* The gate judges a whole tree, whatever the PATHs: the root moves up to the nearest
 * directory between it and the work tree's top that is_root(ud, dir) accepts (Paddle's own
 * tree, by the settings' anchor), else to the top; the PATHs become start paths below it,
 * so findings and baselines are keyed by tree-relative paths, and the shown prefix follows.
 * Nothing with --root or outside git. The repository is not opened again. 0, or EXIT_USAGE
 * with a message. */
typedef bool (*sunset_tree_root_fn)(void *ud, const char *dir);
int sunset_checkout_reroot(sunset_checkout *co, const sunset_checkout_req *req, sunset_tree_root_fn is_root,
                           void *ud, char *err, size_t errn);
void sunset_checkout_close(sunset_checkout *co);

/* The repository for path, opened once: co's handle when path lies in co's work tree, else
 * NULL (the caller opens another one itself). */
git_repository *sunset_checkout_repo_for(const sunset_checkout *co, const char *abs_path);

/* The index's paths below the root, root-relative and sorted, into out (char *, caller
 * frees each); gitlinks left out. Nothing outside a work tree. 0, or -1 on OOM. */
int sunset_checkout_tracked(const sunset_checkout *co, vec *out);

/* What the git index knows of files without reading them: for each root-relative path of
 * files[0..n) (below the root, sorted or not), ids[i] = a 64-bit digest of the blob id of
 * its index entry when git itself would take the work-tree file as unchanged without
 * reading it: a regular stage-0 entry, not assumed-valid, skip-worktree or intent-to-add,
 * whose stat data (mtime and ctime to the nanosecond, size, inode, device, owner, the
 * executable bit) match the file's lstat, and that is not racily clean (its mtime is older
 * than the index file's: a file written in the same instant as the index may have changed
 * unseen). Else ids[i] = 0: the caller reads the file. Outside a work tree every id is 0.
 * Returns how many ids are known. stamps (NULL: not wanted): see sunset_stat_stamp. */
size_t sunset_checkout_blob_ids(const sunset_checkout *co, char *const *files, size_t n, uint64_t *ids,
                                uint64_t *stamps);
/* The stat data git compares (mode, size, inode, device, owner, mtime and ctime to the
 * nanosecond) as one number, never 0: stamps[i] above is that of the lstat that vouched for
 * ids[i], so a reader that finds the same stamp after reading the file has read that blob's
 * bytes (a write in between moves mtime past it). */
struct stat;
uint64_t sunset_stat_stamp(const struct stat *st);

/* rev's tree in the checkout's repository into *tree (caller frees with git_tree_free): 0, or
 * -1 with a message; a revision that does not resolve gets the fetch a shallow clone needs. */
typedef struct git_tree git_tree;
int sunset_checkout_tree_at(const sunset_checkout *co, const char *rev, git_tree **tree, char *err, size_t errn);

/* A file as revision rev has it, by its path relative to the work tree's top: 0 with *data
 * (NUL-terminated, caller frees) and *len; 1 when rev has no such file; -1 with a message. */
int sunset_checkout_read_at(const sunset_checkout *co, const char *rev, const char *toprel, char **data,
                            size_t *len, char *err, size_t errn);

/* path (absolute, or relative to the current directory) relative to the work tree's top,
 * or NULL when outside it or outside git. Lexical for a path that does not exist. */
char *sunset_checkout_toprel(const sunset_checkout *co, const char *path);

#endif
