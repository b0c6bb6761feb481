/*
 * gitindex.h — the paths a git index file tracks, read without libgit2 (gitindex.c).
 */
#ifndef SUNSET_BASE_GITINDEX_H
#define SUNSET_BASE_GITINDEX_H

#include "base/util.h"

/* The paths of the index file at index_path that start with prefix ("" or "a/b/"), the
 * prefix taken off, gitlinks left out and a conflicted path's stages kept once, in the
 * file's order, appended to out (char *, the caller frees each). 0 when read; 1 when the
 * file is missing or not one this reader fully understands (out unchanged: ask libgit2);
 * -1 on OOM (out unchanged). */
int sunset_gitindex_paths(const char *index_path, const char *prefix, vec *out);

#endif
