/*
 * history.h — the legacy findings over git history (src/analysis/history.c): first-parent
 * commits replayed from git objects with libgit2, no checkout. The writers of the series
 * (CSV, JSON, the SVG burn-down) are in src/report/history.c; the command in src/cmd/history.c.
 */
#ifndef SUNSET_HISTORY_H
#define SUNSET_HISTORY_H

#include <git2.h>
#include <stdint.h>
#include "base/checkout.h"
#include "base/util.h"
#include "core/engine.h"

#define HISTORY_MAX_FAMILIES 32

/* Counts one file (or a whole tree) contributes. */
typedef struct history_counts {
    uint32_t findings;
    uint32_t by_task[SUNSET_TASKS]; /* index 1..the rule set's last task (settings.tasks) */
    uint32_t by_family[HISTORY_MAX_FAMILIES];
} history_counts;

/* One sampled commit. subject is owned (history_samples_free). */
typedef struct history_sample {
    size_t index;   /* position in the unsharded series (for merge) */
    git_oid id;
    char *subject;
    int64_t time;
    int tz_minutes;
    history_counts total;
    uint32_t files; /* files with at least one finding */
    long pr;        /* PR number named in the subject ("(#12345)"), or -1; for a merge commit
                     * without one, the first of prs */
    long *prs;      /* the PRs the commit's change is attributed to, owned: the subject's, or for
                     * a merge commit the PR numbers in the subjects of the commits it merges
                     * (newest first); NULL when none */
    size_t n_prs;
    bool tracked;   /* one of them is a PR the tracking manifest names */
    bool baseline;  /* the start of a range A..B: A itself, so the first commit's change shows */
} history_sample;

typedef struct history_opts {
    const vec *include, *exclude; /* path globs (const char *); borrowed */
    const char *since;            /* YYYY-MM-DD, or NULL */
    long max_count, every;        /* 0: the defaults (100 without a range or since; every commit) */
    int shard_i, shard_n;         /* --shard i/n; shard_n 0 = unsharded */
    bool progress;                /* a progress line (sunset_note) */
    bool quiet;                   /* no note when the default 100 cuts the walk */
} history_opts;

typedef struct history_stats {
    size_t blobs_scanned, blobs_cached;
    size_t trees_read; /* trees the changes between samples opened (unchanged subtrees are not) */
} history_stats;

/* Replay `range` ("A..B" or one revision) of the checkout's repository (co->repo, opened once
 * by the command; the replay opens none) with engine e (one job): appends one history_sample
 * per sampled commit, oldest first, to *out (a vec of history_sample). 0, or -1 with the
 * one-line message in err (empty when out of memory). */
int history_replay(sunset_engine *e, const sunset_checkout *co, const char *range, const history_opts *o,
                   vec *out, history_stats *st, sunset_error *err);
/* Frees every sample's subject and the vec. */
void history_samples_free(vec *samples);

/* "YYYY-MM-DDTHH:MM:SS+HH:MM" of a commit time and its offset in minutes. */
void history_iso_date(int64_t t, int tz, char *buf, size_t n);

#endif
