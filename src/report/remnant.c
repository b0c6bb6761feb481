/*
 * remnant.c — how the remnant layer (analysis/remnant.h) is written: one text or markdown
 * item per remnant in the human order (task, then migrate, delete, update-doc, then path),
 * the summary of remnants per task and action, the JSON "remnants" member, and SARIF's
 * results (one per remnant, its findings as relatedLocations). The per-finding writers stay
 * in text.c, markdown.c, json.c and sarif.c; each calls in here when the envelope carries
 * remnants and --findings was not given. A remnant whose every finding is suppressed is left
 * out of text, markdown and SARIF's listing as a suppressed finding is, and kept in JSON.
 */
#include "report/report.h"

#include "analysis/remnant.h"

#include <string.h>

#define MD_CAP 200

static bool all_suppressed(const sunset_result *r, const sunset_remnant *m) {
    for (size_t i = 0; i < m->n_findings; i++)
        if (!r->findings[m->findings[i]].suppressed) return false;
    return true;
}

/* The ranked remnants, or NULL on OOM (caller frees). */
static const sunset_remnant **ranked(const sunset_remnants *rm) {
    const sunset_remnant **order = sunset_malloc((rm->n ? rm->n : 1) * sizeof *order);
    if (order) sunset_remnants_rank(rm, order);
    return order;
}

static void rules_list(sb *b, const sunset_remnant *m) {
    for (size_t i = 0; i < m->n_rules; i++) {
        if (i) sb_puts(b, ", ");
        sb_put_printable_str(b, m->rules[i]);
    }
}

static void where(sb *b, const sunset_remnant *m) {
    sb_put_printable_str(b, m->path);
    if (m->file) return;
    sb_printf(b, ":%u", m->line);
    if (m->end_line > m->line) sb_printf(b, "-%u", m->end_line);
}

/* The finding an item's head names: its first; for text attached to its code (a comment
 * above the code it describes), the first code finding, at the level its line shows. */
static const sunset_finding *head_finding(const sunset_result *r, const sunset_remnant *m) {
    const sunset_finding *f = &r->findings[m->findings[0]];
    for (size_t i = 0; m->attached && f->ctx != SUNSET_CTX_CODE && i < m->n_findings; i++)
        if (r->findings[m->findings[i]].ctx == SUNSET_CTX_CODE) f = &r->findings[m->findings[i]];
    return f;
}

/* The item's head, as a compiler's "path:line:col: severity:" so editors jump to it. */
static void head(sb *b, const sunset_result *r, const sunset_envelope *e, const sunset_remnant *m) {
    const sunset_finding *f = head_finding(r, m);
    uint32_t line = m->attached ? f->span.line : m->line;
    /* the path as the user would type it, as the findings view prints it (report/text.c) */
    if (e->shown_prefix) sb_put_printable_str(b, e->shown_prefix);
    sb_put_printable_str(b, m->path);
    /* the column as the terminal shows it (wide characters count two) */
    /* a remnant widened to its definition starts at the definition's first column */
    if (!m->file)
        sb_printf(b, ":%u:%zu", line,
                  f->span.line == line ? sunset_finding_column(f, f->span.col ? f->span.col : 1, false) : (size_t)1);
    /* a change's remnant is a new use (or a new mention in prose), whatever its action */
    const char *what = !m->why ? sunset_action_name(m->action) : m->action == SUNSET_ACT_DOC ? "new mention" : "new use";
    sb_printf(b, ": %s: %s", sunset_severity_name(m->severity), what);
    if (m->file) sb_puts(b, " file");
    else if (m->end_line > m->line) sb_printf(b, " lines %u-%u", m->line, m->end_line);
}

/* An indented detail line under an item. */
static void labelled(sb *b, const char *label, const char *s) {
    sb_printf(b, "    %s", label);
    sb_put_printable_str(b, s);
    sb_putc(b, '\n');
}

void sunset_remnants_text(const sunset_result *r, const sunset_envelope *e, sb *b) {
    const sunset_remnants *rm = e->remnants;
    const sunset_remnant **order = ranked(rm);
    if (!order) {
        b->oom = true;
        return;
    }
    for (size_t i = 0; i < rm->n; i++) {
        const sunset_remnant *m = order[i];
        if (all_suppressed(r, m)) continue;
        head(b, r, e, m);
        sb_printf(b, " (task %d, ", m->task);
        sb_put_printable_str(b, m->family);
        sb_printf(b, "; %zu finding%s: ", m->n_findings, m->n_findings == 1 ? "" : "s");
        rules_list(b, m);
        sb_puts(b, ")\n");
        const sunset_finding *f = head_finding(r, m); /* the snippet of the line the head names */
        if (e->opts.snippets && !m->file && f->snippet && *f->snippet) labelled(b, "", f->snippet);
        if (m->why) labelled(b, "why: ", m->why);
        if (m->consumer) labelled(b, "consumer: ", m->consumer);
        labelled(b, "fix: ", m->fix);
        for (size_t k = 0; k < m->n_evidence; k++) labelled(b, "evidence: ", m->evidence[k]);
    }
    sunset_free(order);
}

/* Per task: files to delete, lines to delete, lines to migrate, docs. */
typedef struct task_counts { size_t files, mig_files, del, mig, doc; } task_counts;

static size_t count(const sunset_result *r, const sunset_remnants *rm, task_counts *by_task) {
    size_t n = 0;
    memset(by_task, 0, SUNSET_TASKS * sizeof *by_task);
    for (size_t i = 0; i < rm->n; i++) {
        const sunset_remnant *m = &rm->v[i];
        if (all_suppressed(r, m)) continue;
        n++;
        task_counts *t = &by_task[m->task >= 0 && m->task < SUNSET_TASKS ? m->task : 0];
        if (m->file && m->action == SUNSET_ACT_MIGRATE) t->mig_files++;
        else if (m->file) t->files++;
        else if (m->action == SUNSET_ACT_DELETE) t->del++;
        else if (m->action == SUNSET_ACT_MIGRATE) t->mig++;
        else t->doc++;
    }
    return n;
}

static void task_line(sb *b, const task_counts *t) {
    const char *sep = "";
    if (t->files) sb_printf(b, "%s%zu file%s to delete", sep, t->files, t->files == 1 ? "" : "s"), sep = ", ";
    if (t->mig_files)
        sb_printf(b, "%s%zu file%s to migrate", sep, t->mig_files, t->mig_files == 1 ? "" : "s"), sep = ", ";
    if (t->del) sb_printf(b, "%s%zu line%s to delete", sep, t->del, t->del == 1 ? "" : "s"), sep = ", ";
    if (t->mig) sb_printf(b, "%s%zu line%s to migrate", sep, t->mig, t->mig == 1 ? "" : "s"), sep = ", ";
    if (t->doc) sb_printf(b, "%s%zu doc%s", sep, t->doc, t->doc == 1 ? "" : "s");
}

/* One line per task with remnants, each after `bullet` ("  task 5: ..."). */
static void task_lines(sb *b, const task_counts *by_task, const char *bullet, const char *task_word) {
    for (int t = 0; t < SUNSET_TASKS; t++) {
        const task_counts *c = &by_task[t];
        if (!c->files && !c->mig_files && !c->del && !c->mig && !c->doc) continue;
        if (t) sb_printf(b, "%s%s %d: ", bullet, task_word, t);
        else sb_printf(b, "%ssuppression comments: ", bullet);
        task_line(b, c);
        sb_putc(b, '\n');
    }
}

void sunset_remnants_summary_text(const sunset_result *r, const sunset_envelope *e, sb *b) {
    task_counts by_task[SUNSET_TASKS];
    size_t n = count(r, e->remnants, by_task);
    sb_printf(b, "%zu remnant%s%s\n", n, n == 1 ? "" : "s", n ? ":" : "");
    task_lines(b, by_task, "  ", "task");
}

void sunset_remnants_markdown(const sunset_result *r, const sunset_envelope *e, sb *b) {
    task_counts by_task[SUNSET_TASKS];
    size_t n = count(r, e->remnants, by_task), shown = 0;
    sb_printf(b, "\n### %zu remnant%s\n\n", n, n == 1 ? "" : "s");
    task_lines(b, by_task, "- ", "Task");
    if (!n) return;
    const sunset_remnant **order = ranked(e->remnants);
    if (!order) {
        b->oom = true;
        return;
    }
    sb_puts(b, "\n| Task | Action | Where | Rules | Findings | Consumer / fix |\n|---:|---|---|---|---:|---|\n");
    for (size_t i = 0; i < e->remnants->n; i++) {
        const sunset_remnant *m = order[i];
        if (all_suppressed(r, m)) continue;
        if (shown++ == MD_CAP) break;
        sb_printf(b, "| %d | %s%s | ", m->task, sunset_action_name(m->action), m->file ? " file" : "");
        sb w = {0}, rl = {0};
        if (e->uri_prefix) sb_puts(&w, e->uri_prefix);
        where(&w, m);
        rules_list(&rl, m);
        sunset_md_text(b, w.s, true, true);
        sb_puts(b, " | ");
        sunset_md_text(b, rl.s, true, true);
        sb_printf(b, " | %zu | ", m->n_findings);
        sunset_md_text(b, m->consumer ? m->consumer : m->fix, false, false);
        sb_puts(b, " |\n");
        if (w.oom || rl.oom) b->oom = true;
        sb_free(&w);
        sb_free(&rl);
    }
    if (n > MD_CAP) sb_printf(b, "\n… and %zu more (`--format json` lists every remnant).\n", n - MD_CAP);
    sunset_free(order);
}

void sunset_remnants_json(const sunset_result *r, const sunset_envelope *e, sb *b) {
    (void)r;
    const sunset_remnants *rm = e->remnants;
    sb_puts(b, ",\"remnants\":[");
    for (size_t i = 0; i < rm->n; i++) {
        const sunset_remnant *m = &rm->v[i];
        sb_puts(b, i ? ",\n{\"path\":" : "\n{\"path\":");
        sb_put_json_str(b, m->path);
        sb_printf(b, ",\"kind\":\"%s\",\"line\":%u,\"end_line\":%u,\"action\":\"%s\",\"severity\":\"%s\",\"family\":",
                  m->file ? "file" : "line", m->line, m->end_line, sunset_action_name(m->action),
                  sunset_severity_name(m->severity));
        sb_put_json_str(b, m->family);
        sb_printf(b, ",\"task\":%d,\"rules\":[", m->task);
        for (size_t k = 0; k < m->n_rules; k++) {
            if (k) sb_putc(b, ',');
            sb_put_json_str(b, m->rules[k]);
        }
        sb_puts(b, "],\"findings\":[");
        for (size_t k = 0; k < m->n_findings; k++) sb_printf(b, "%s%zu", k ? "," : "", m->findings[k]);
        sb_puts(b, "],\"consumer\":");
        sb_put_json_str_or_null(b, m->consumer);
        sb_puts(b, ",\"fix\":");
        sb_put_json_str(b, m->fix);
        sb_puts(b, ",\"evidence\":[");
        for (size_t k = 0; k < m->n_evidence; k++) {
            if (k) sb_putc(b, ',');
            sb_put_json_str(b, m->evidence[k]);
        }
        sb_puts(b, "]}");
    }
    sb_puts(b, rm->n ? "\n]" : "]");
}
