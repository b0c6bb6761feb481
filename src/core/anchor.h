/*
 * anchor.h — is a file tied to Paddle? A match of an anchored rule counts only in a file that
 * is (settings.anchor, rules/SCHEMA.md): code that merely uses Paddle's words (mxnet's
 * OpHandle, MegEngine's ExecutionStrategy, a project's own ParallelExecutor) is not a remnant.
 * The engine decides per file from its path and head and from the facts its frontends emit.
 */
#ifndef SUNSET_ANCHOR_H
#define SUNSET_ANCHOR_H

#include "core/rules_int.h"

void sunset_anchor_init(sunset_anchor *a);
void sunset_anchor_free(sunset_anchor *a);

/* Is the tree under `root` Paddle's own (one of settings.anchor.tree exists in root or a
 * parent up to its git work tree's top)? Then every file scanned in it is tied. top: that
 * top, resolved (the checkout's; root then resolved too), or NULL: found from root. */
bool anchor_tree(const sunset_anchor *a, const char *root, const char *top);
/* The same for a tree not on disk (a commit's): `exists` answers for a root-relative path. */
bool anchor_tree_by(const sunset_anchor *a, bool (*exists)(void *ud, const char *path), void *ud);
/* Tied by the file alone: its root-relative path, or a line of its head (a licence header). */
bool anchor_by_file(const sunset_anchor *a, const char *path, const char *data, size_t len,
                    pcre2_match_data *md);
/* Tied by one fact of a `lang` file: an import, an include, a namespace, a CMake command, a
 * prose line naming Paddle. */
bool anchor_by_fact(const sunset_anchor *a, sunset_lang lang, const sunset_fact *f,
                    pcre2_match_data *md);
/* Tied by a scope the frontend declared (a C++ namespace). */
bool anchor_by_scope(const sunset_anchor *a, const char *kind, const char *name,
                     pcre2_match_data *md);
/* Might this part of a Python file hold an anchoring import? A partial parse keeps it. */
bool anchor_may_import(const sunset_anchor *a, const char *data, size_t len);

#endif
