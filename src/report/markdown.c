/*
 * markdown.c — a Markdown summary for a pull-request comment or $GITHUB_STEP_SUMMARY. Under
 * `check`: the verdict, what the change removes ("this change removes 7 uses; task 3 now 0
 * open"), a per-task table (new, fixed, suppressed, open) and the new, suppressed and fixed
 * findings, each list capped so the comment stays readable. Under `scan`: findings per task
 * and per family. Table cells are escaped (| and newlines) and code spans keep backquotes out.
 */
#include "report/report.h"

#include <string.h>

#define LIST_CAP 50

static void cell(sb *b, const char *s) { sunset_md_text(b, s, false, false); }

static void code(sb *b, const char *s) { sunset_md_text(b, s, true, true); }

static void loc(sb *b, const sunset_envelope *e, const char *path, uint32_t line) {
    sb l = {0};
    sb_printf(&l, "%s%s:%u", e->uri_prefix ? e->uri_prefix : "", path, line);
    code(b, l.s);
    if (l.oom) b->oom = true;
    sb_free(&l);
}

static void task_name(sb *b, int t) {
    if (t) sb_printf(b, "Task %d", t);
    else sb_puts(b, "suppression comments");
}

/* The per-task table: new, fixed, suppressed and open findings, and the totals. */
static void gate_task_table(const sunset_gate *g, sb *b) {
    sb_puts(b, "\n| Task | New | Fixed | Suppressed | Open |\n|---|---:|---:|---:|---:|\n");
    size_t tn = 0, tf = 0, ts = 0, to = 0;
    for (int t = 0; t < SUNSET_TASKS; t++) {
        if (!g->new_by_task[t] && !g->fixed_by_task[t] && !g->suppressed_by_task[t] &&
            !(g->open_known && g->open_by_task[t]))
            continue;
        sb_puts(b, "| ");
        task_name(b, t);
        sb_printf(b, " | %zu | %zu | %zu | ", g->new_by_task[t], g->fixed_by_task[t], g->suppressed_by_task[t]);
        if (g->open_known) sb_printf(b, "%zu |\n", g->open_by_task[t]);
        else sb_puts(b, "– |\n");
        tn += g->new_by_task[t], tf += g->fixed_by_task[t], ts += g->suppressed_by_task[t];
        to += g->open_by_task[t];
    }
    sb_printf(b, "| **all** | **%zu** | **%zu** | **%zu** | ", tn, tf, ts);
    if (g->open_known) sb_printf(b, "**%zu** |\n", to);
    else sb_puts(b, "– |\n");
}

static void gate_lists(const sunset_result *r, const sunset_envelope *e, sb *b);

static void write_gate(const sunset_result *r, const sunset_envelope *e, sb *b) {
    const sunset_gate *g = e->gate;
    sb_printf(b, "## sunset legacy-executor gate: %s\n\n",
              g->n_failing ? "❌ failed" : "✅ passed");
    sb_puts(b, "Compared with ");
    sb_put_printable_str(b, g->against);
    sb_printf(b, "; findings at or above **%s** fail the gate.\n\n",
              sunset_severity_name(g->threshold));
    if (g->n_failing)
        sb_printf(b, "This change adds **%zu** new use%s of legacy executor code (%zu failing).\n",
                  g->n_new, g->n_new == 1 ? "" : "s", g->n_failing);
    else if (g->n_new)
        sb_printf(b, "This change adds %zu new finding%s below the threshold.\n", g->n_new,
                  g->n_new == 1 ? "" : "s");
    else
        sb_puts(b, "This change adds no new legacy usage.\n");
    if (g->n_fixed) {
        sb_printf(b, "This change removes **%zu** use%s", g->n_fixed, g->n_fixed == 1 ? "" : "s");
        for (int t = 0; t < SUNSET_TASKS; t++) {
            if (!g->fixed_by_task[t]) continue;
            sb_puts(b, "; ");
            task_name(b, t);
            if (g->open_known) sb_printf(b, " now %zu open", g->open_by_task[t]);
            else sb_printf(b, " %zu fixed", g->fixed_by_task[t]);
        }
        sb_puts(b, ".\n");
    }
    if (g->n_moved) sb_printf(b, "%zu finding%s moved without change.\n", g->n_moved, g->n_moved == 1 ? "" : "s");
    if (g->updated)
        sb_printf(b, "The baseline was updated: %zu → %zu findings.\n", g->baseline_before, g->baseline_after);
    gate_task_table(g, b);
    gate_lists(r, e, b);
}

/* The new, suppressed and fixed findings and the unused suppressions, each list capped. */
static void gate_lists(const sunset_result *r, const sunset_envelope *e, sb *b) {
    const sunset_gate *g = e->gate;
    size_t shown = 0;
    if (g->n_new) {
        sb_puts(b, "\n### New findings\n\n| Location | Severity | Rule | Message |\n|---|---|---|---|\n");
        for (size_t i = 0; i < r->n_findings; i++) {
            const sunset_finding *f = &r->findings[i];
            if (f->suppressed) continue;
            if (shown++ == LIST_CAP) break;
            sb_puts(b, "| ");
            loc(b, e, f->path, f->span.line);
            sb_printf(b, " | %s | ", sunset_severity_name(f->severity));
            code(b, f->rule_id);
            sb_puts(b, " | ");
            cell(b, f->message);
            sb_puts(b, " |\n");
        }
        if (g->n_new > LIST_CAP) sb_printf(b, "\n… and %zu more.\n", g->n_new - LIST_CAP);
    }
    if (g->n_suppressed) {
        shown = 0;
        sb_puts(b, "\n### Suppressed\n\n| Location | Rule | Justification |\n|---|---|---|\n");
        for (size_t i = 0; i < r->n_findings; i++) {
            const sunset_finding *f = &r->findings[i];
            if (!f->suppressed) continue;
            if (shown++ == LIST_CAP) break;
            sb_puts(b, "| ");
            loc(b, e, f->path, f->span.line);
            sb_puts(b, " | ");
            code(b, f->rule_id);
            sb_puts(b, " | ");
            cell(b, f->justification);
            sb_puts(b, " |\n");
        }
        if (g->n_suppressed > LIST_CAP) sb_printf(b, "\n… and %zu more.\n", g->n_suppressed - LIST_CAP);
    }
    if (g->n_fixed) {
        sb_puts(b, "\n<details><summary>Fixed findings</summary>\n\n| Location | Rule | Matched |\n|---|---|---|\n");
        for (size_t i = 0; i < g->n_fixed && i < LIST_CAP; i++) {
            const sunset_fixed *f = &g->fixed[i];
            sb_puts(b, "| ");
            loc(b, e, f->path, f->line);
            sb_puts(b, " | ");
            code(b, f->rule);
            sb_puts(b, " | ");
            code(b, f->matched);
            sb_puts(b, " |\n");
        }
        if (g->n_fixed > LIST_CAP) sb_printf(b, "\n… and %zu more.\n", g->n_fixed - LIST_CAP);
        sb_puts(b, "\n</details>\n");
    }
    if (g->list_unused && r->n_unused) {
        sb_puts(b, "\n### Unused suppressions\n\n");
        for (size_t i = 0; i < r->n_unused && i < LIST_CAP; i++) {
            sb_puts(b, "- ");
            loc(b, e, r->unused[i].path, r->unused[i].line);
            sb_puts(b, " ");
            code(b, r->unused[i].what);
            sb_putc(b, '\n');
        }
    }
}

static void write_scan(const sunset_result *r, sb *b) {
    size_t by_task[SUNSET_TASKS] = {0}, open = 0;
    for (size_t i = 0; i < r->n_findings; i++) {
        const sunset_finding *f = &r->findings[i];
        if (f->suppressed) continue;
        open++;
        if (f->task >= 0 && f->task < SUNSET_TASKS) by_task[f->task]++;
    }
    sb_printf(b, "## sunset: %zu legacy-executor finding%s", open, open == 1 ? "" : "s");
    size_t supp = sunset_findings_suppressed(r);
    if (supp) sb_printf(b, " (%zu suppressed)", supp);
    sb_puts(b, "\n\n| Task | Open |\n|---|---:|\n");
    for (int t = 0; t < SUNSET_TASKS; t++) {
        if (!by_task[t]) continue;
        sb_puts(b, "| ");
        task_name(b, t);
        sb_printf(b, " | %zu |\n", by_task[t]);
    }
    sb_puts(b, "\n| Family | Findings | Files |\n|---|---:|---:|\n");
    for (size_t k = 0; k < r->n_families; k++) {
        size_t n = 0, files = 0;
        const char *last = NULL;
        for (size_t i = 0; i < r->n_findings; i++) {
            const sunset_finding *f = &r->findings[i];
            if (f->suppressed || strcmp(f->family, r->families[k].id)) continue;
            n++;
            if (!last || strcmp(last, f->path)) files++;
            last = f->path;
        }
        if (!n) continue;
        sb_puts(b, "| ");
        cell(b, r->families[k].title);
        sb_printf(b, " | %zu | %zu |\n", n, files);
    }
}

static int write_markdown(const sunset_result *r, const sunset_envelope *e, sb *b) {
    if (e->gate) write_gate(r, e, b);
    else write_scan(r, b);
    if (!e->gate && e->remnants && !e->opts.findings) sunset_remnants_markdown(r, e, b);
    return b->oom ? -1 : 0;
}

const sunset_writer sunset_writer_markdown = {"markdown", write_markdown};
