/*
 * report/history.h — the history series' writers (src/report/history.c) and the burn-down
 * chart the tracking report embeds.
 */
#ifndef SUNSET_REPORT_HISTORY_H
#define SUNSET_REPORT_HISTORY_H

#include "analysis/history.h"
#include "core/result.h"

#include <stdbool.h>
#include <stdint.h>

typedef struct history_point {
    uint32_t findings;
    uint32_t by_task[SUNSET_TASKS]; /* index 1..n_tasks */
    long pr;              /* the PR the subject names, or -1 */
    const long *prs;      /* the PRs the change is attributed to (a merge: the merged ones); borrowed */
    size_t n_prs;
    bool tracked;         /* the PR is one the tracking manifest names (a filled marker) */
    bool baseline;        /* the range's start (A of A..B) */
    int64_t time;         /* commit time, seconds since the epoch (the x axis) */
    const char *label;    /* the commit subject (borrowed) */
    const char *date;     /* YYYY-MM-DD (borrowed) */
} history_point;

/* Append a self-contained SVG burn-down of n points (oldest first) to *b: the total with a
 * label on every drop of more than min_drop findings and on every drop of a tracked PR
 * (lanes, so labels never overlap and no leader line crosses another label), the `named` PRs
 * (the manifest's) that got no label listed with the reason, then one small panel for each of the
 * tasks 1..n_tasks (the rule set's) on its own scale; x is time (UTC), the title names the window. */
void history_svg(const history_point *pts, size_t n, int n_tasks, const char *window, uint32_t min_drop, const long *named,
                 size_t n_named, sb *b);
/* The width in pixels the chart gives a label's text (11px sans-serif): the layout's and the
 * tests' measure. */
double history_label_width(const char *text);

/* The series v[0..n) (oldest first) with a column for each of the tasks 1..n_tasks (the rule
 * set's, sunset_ruleset_task_max) and nf family columns, appended to *b. */
void history_write_csv(const history_sample *v, size_t n, int n_tasks, const sunset_family_title *fam, size_t nf,
                       sb *b);
void history_write_json(const history_sample *v, size_t n, int n_tasks, const sunset_family_title *fam, size_t nf,
                        const char *range, sb *b);
void history_write_svg(const history_sample *v, size_t n, int n_tasks, const char *window, uint32_t min_drop, const long *named,
                       size_t n_named, sb *b);

#endif
