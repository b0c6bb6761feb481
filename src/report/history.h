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
    uint32_t by_task[HISTORY_TASKS]; /* index 1..6 */
    long pr;              /* the PR the subject names, or -1 */
    bool tracked;         /* the PR is one the tracking manifest names (a filled marker) */
    int64_t time;         /* commit time, seconds since the epoch (the x axis) */
    const char *label;    /* the commit subject (borrowed) */
    const char *date;     /* YYYY-MM-DD (borrowed) */
} history_point;

/* Append a self-contained SVG burn-down of n points (oldest first) to *b: the total with a
 * label on every drop of more than min_drop findings (lanes, so labels never collide), then
 * one small panel per task on its own scale; x is time (UTC), the title names the window. */
void history_svg(const history_point *pts, size_t n, const char *window, uint32_t min_drop, sb *b);

/* The series v[0..n) (oldest first) with nf family columns, appended to *b. */
void history_write_csv(const history_sample *v, size_t n, const sunset_family_title *fam, size_t nf, sb *b);
void history_write_json(const history_sample *v, size_t n, const sunset_family_title *fam, size_t nf,
                        const char *range, sb *b);
void history_write_svg(const history_sample *v, size_t n, const char *window, uint32_t min_drop, sb *b);

#endif
