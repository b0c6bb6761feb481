/*
 * gate.h — the pull-request gate's judgement (src/analysis/gate.c), apart from the command that reads
 * options and writes reports (src/cmd/check.c). Today's findings are sorted into known
 * (fingerprint in the known set), moved (a vanished known finding with the same rule, matched
 * text and enclosing scope turned up elsewhere), new (the rest; against a diff base only those
 * on lines the change adds or edits) and fixed (known findings in scope that vanished).
 */
#ifndef SUNSET_GATE_H
#define SUNSET_GATE_H

#include <stdbool.h>
#include "analysis/baseline.h"
#include "analysis/diffmode.h"

typedef struct sunset_gate_run {
    sunset_result *cur;      /* today's findings, sorted (sunset_result_finish); borrowed */
    sunset_known_set *known; /* marked seen/now by the judgement; borrowed */
    const diff_set *diff;    /* the change against the diff base; NULL for a full scan */
    bool full;               /* every file was scanned: open counts come from cur */
    size_t n_baseline;       /* the first n_baseline entries of known are the baseline's */
    bool have_baseline;
    /* out */
    bool *is_new;            /* per finding of cur: new (or suppressed new); owned */
    sunset_fixed *fixed;     /* g->fixed points here; owned */
} sunset_gate_run;

/* Judge run->cur against run->known into g (counts, fixed list, open per task). 0, or -1 on
 * OOM. Free with sunset_gate_run_free. */
int sunset_gate_judge(sunset_gate_run *run, sunset_gate *g);

/* The baseline after --update-baseline: what is still there (refreshed), without the fixed,
 * plus the new findings when accept_new. 0, or -1 on OOM; nb is the caller's. */
int sunset_gate_next_baseline(const sunset_gate_run *run, bool accept_new, sunset_known_set *nb);

void sunset_gate_run_free(sunset_gate_run *run);

#endif
