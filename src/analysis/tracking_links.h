/*
 * tracking_links.h — what the tracking report (`sunset report`) reads from the measured tree's
 * repository so that its links resolve (src/analysis/tracking_links.c): the commit at HEAD and
 * its date, the PR numbers the history's commit subjects name (one far older than the
 * manifest's others marked: a typo for another number), and the remote whose branches hold
 * the measured commit. The repository is the command's checkout's; NULL means none.
 */
#ifndef SUNSET_TRACKING_LINKS_H
#define SUNSET_TRACKING_LINKS_H

#include <stdbool.h>
#include <stdint.h>

#include "analysis/tracking.h"
#include "base/util.h"

typedef struct git_repository git_repository;

/* A PR number named in a commit subject of the history, and the newest such commit's time. */
typedef struct trk_pr_seen {
    long pr;
    int64_t time;
    bool old; /* far older than the manifest's other PRs: a typo for another number */
} trk_pr_seen;

/* The commit at HEAD of repo and its date (YYYY-MM-DD, UTC); both empty without one. */
void trk_tree_revision(git_repository *repo, char sha[41], char date[16]);
/* The PR numbers ("#123" in a commit's subject) of every commit reachable from HEAD of repo,
 * merged branches included, into prs (trk_pr_seen), sorted, one per number; *ok false without
 * history. 0, or -1 on OOM. */
int trk_history_prs(git_repository *repo, vec *prs, bool *ok);
/* A PR the manifest names whose commit is far older (half a year) than the median of the
 * manifest's PRs is marked old. */
void trk_mark_old_prs(const tracking_manifest *m, vec *prs);
/* For tracking_compute: 1 when the history (ctx, trk_history_prs's vec) names pr, 2 when it is
 * marked old, 0 when it does not name it. */
int trk_pr_in_history(void *ctx, long pr);
/* The web URL of a remote whose branches hold commit rev (the manifest's repository when it is
 * one of them) into *web; empty when none. */
void trk_revision_remote(git_repository *repo, const char *rev, const char *manifest_repo, sb *web);
/* Are two web URLs the same repository (case and trailing '/' aside)? */
bool trk_same_web(const char *a, const char *b);

#endif
