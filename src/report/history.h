/*
 * report/history.h — the history series' writers (src/report/history.c) and the burn-down
 * chart the tracking report embeds.
 */
#ifndef SUNSET_REPORT_HISTORY_H
#define SUNSET_REPORT_HISTORY_H

#include "analysis/history.h"
#include "core/result.h"

typedef struct history_point {
    uint32_t findings;
    uint32_t by_task[HISTORY_TASKS]; /* index 1..6 */
    long pr;              /* PR to mark on the chart (named in the subject and, when a
                           * tracking manifest exists, in it), or -1 */
    const char *label;    /* the commit subject (borrowed) */
    const char *date;     /* YYYY-MM-DD (borrowed) */
} history_point;

/* Append a self-contained SVG burn-down of n points (oldest first) to *b. */
void history_svg(const history_point *pts, size_t n, sb *b);

/* The series v[0..n) (oldest first) with nf family columns, appended to *b. */
void history_write_csv(const history_sample *v, size_t n, const sunset_family_title *fam, size_t nf, sb *b);
void history_write_json(const history_sample *v, size_t n, const sunset_family_title *fam, size_t nf,
                        const char *range, sb *b);
void history_write_svg(const history_sample *v, size_t n, sb *b);

#endif
