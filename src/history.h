/*
 * history.h — `sunset history` and the burn-down chart, which the tracking report can embed.
 */
#ifndef SUNSET_HISTORY_H
#define SUNSET_HISTORY_H

#include <stdint.h>
#include "cli.h"
#include "util.h"

typedef struct history_point {
    uint32_t findings;
    uint32_t by_task[7];  /* index 1..6 */
    long pr;              /* PR to mark on the chart (named in the subject and, when a
                           * tracking manifest exists, in it), or -1 */
    const char *label;    /* the commit subject (borrowed) */
    const char *date;     /* YYYY-MM-DD (borrowed) */
} history_point;

/* Append a self-contained SVG burn-down of n points (oldest first) to *b. */
void history_svg(const history_point *pts, size_t n, sb *b);

#endif
