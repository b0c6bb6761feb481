/*
 * gate.c — what the writers share about the CI gate (`sunset check`): the gate's member of
 * the JSON document and its text lines. The gate itself is computed in src/analysis/gate.c;
 * writers only read the sunset_gate in the document's envelope.
 */
#include "report/report.h"

#include <string.h>

void sunset_gate_json(const sunset_result *r, const sunset_gate *g, sb *b) {
    sb_puts(b, ",\"gate\":{\"against\":");
    sb_put_json_str(b, g->against);
    sb_puts(b, ",\"threshold\":");
    sb_put_json_str(b, sunset_severity_name(g->threshold));
    sb_printf(b, ",\"passed\":%s,\"new\":%zu,\"failing\":%zu,\"suppressed\":%zu,\"unchanged\":%zu,"
                 "\"moved\":%zu,\"fixed\":%zu",
              g->n_failing ? "false" : "true", g->n_new, g->n_failing, g->n_suppressed,
              g->n_unchanged, g->n_moved, g->n_fixed);
    sb_puts(b, ",\"fixed_findings\":[");
    for (size_t i = 0; i < g->n_fixed; i++) {
        const sunset_fixed *f = &g->fixed[i];
        sb_puts(b, i ? ",{\"rule\":" : "{\"rule\":");
        sb_put_json_str(b, f->rule);
        sb_printf(b, ",\"task\":%d,\"path\":", f->task);
        sb_put_json_str(b, f->path);
        sb_printf(b, ",\"line\":%u,\"matched\":", f->line);
        sb_put_json_str(b, f->matched);
        sb_putc(b, '}');
    }
    sb_puts(b, "],\"by_task\":{");
    bool first = true;
    for (int t = 0; t < SUNSET_TASKS; t++) {
        if (!g->new_by_task[t] && !g->fixed_by_task[t] && !g->suppressed_by_task[t] &&
            !(g->open_known && g->open_by_task[t]))
            continue;
        sb_printf(b, "%s\"%d\":{\"new\":%zu,\"fixed\":%zu,\"suppressed\":%zu,\"open\":", first ? "" : ",",
                  t, g->new_by_task[t], g->fixed_by_task[t], g->suppressed_by_task[t]);
        if (g->open_known) sb_printf(b, "%zu}", g->open_by_task[t]);
        else sb_puts(b, "null}");
        first = false;
    }
    sb_putc(b, '}');
    if (g->list_unused) {
        sb_puts(b, ",\"unused_suppressions\":[");
        for (size_t i = 0; i < r->n_unused; i++) {
            sb_puts(b, i ? ",{\"path\":" : "{\"path\":");
            sb_put_json_str(b, r->unused[i].path);
            sb_printf(b, ",\"line\":%u,\"suppression\":", r->unused[i].line);
            sb_put_json_str(b, r->unused[i].what);
            sb_putc(b, '}');
        }
        sb_putc(b, ']');
    }
    if (g->updated)
        sb_printf(b, ",\"baseline\":{\"before\":%zu,\"after\":%zu}", g->baseline_before, g->baseline_after);
    sb_putc(b, '}');
}

/* The text report's closing lines (check's summary). */
void sunset_gate_text(const sunset_result *r, const sunset_gate *g, sb *b) {
    if (b->len) sb_putc(b, '\n');
    sb_puts(b, "sunset check against ");
    sb_put_printable_str(b, g->against);
    sb_printf(b, ": %zu new finding%s (%zu at or above %s), %zu suppressed, "
                 "%zu unchanged, %zu moved\n",
              g->n_new, g->n_new == 1 ? "" : "s", g->n_failing,
              sunset_severity_name(g->threshold), g->n_suppressed, g->n_unchanged, g->n_moved);
    if (g->n_fixed) {
        sb_printf(b, "this change removes %zu use%s", g->n_fixed, g->n_fixed == 1 ? "" : "s");
        for (int t = 0; t < SUNSET_TASKS; t++) {
            if (!g->fixed_by_task[t]) continue;
            if (g->open_known)
                sb_printf(b, "; task %d: %zu fixed, now %zu open", t, g->fixed_by_task[t], g->open_by_task[t]);
            else
                sb_printf(b, "; task %d: %zu fixed", t, g->fixed_by_task[t]);
        }
        sb_puts(b, "\n");
    }
    for (int t = 0; t < SUNSET_TASKS; t++)
        if (g->new_by_task[t]) sb_printf(b, "task %d: %zu new\n", t, g->new_by_task[t]);
    if (g->updated)
        sb_printf(b, "baseline updated: %zu -> %zu findings\n", g->baseline_before, g->baseline_after);
    if (g->list_unused) {
        for (size_t i = 0; i < r->n_unused; i++) {
            sb_put_printable_str(b, r->unused[i].path);
            sb_printf(b, ":%u: note: unused suppression ", r->unused[i].line);
            sb_put_printable_str(b, r->unused[i].what);
            sb_putc(b, '\n');
        }
        if (!r->n_unused) sb_puts(b, "no unused suppressions\n");
    }
    sb_printf(b, "gate: %s\n", g->n_failing ? "FAILED" : "passed");
}

void sunset_gate_against(sb *b, const char *rev, bool staged, const char *baseline, const char *files_from) {
    const char *what = staged ? " (the staged change)" : "";
    if (baseline && rev) sb_printf(b, "%s%s and baseline %s", rev, what, baseline);
    else if (rev) sb_printf(b, "%s%s", rev, what);
    else if (baseline) sb_printf(b, "baseline %s", baseline);
    else sb_puts(b, "an empty baseline");
    if (files_from) sb_printf(b, " (files listed in %s)", files_from);
}
