/*
 * text.c — the human report: "path:line:col: severity: [rule-id] message" (col in terminal
 * columns: a CJK character counts two, as gcc's display columns), the source line and a caret
 * under the match, then a summary of files and findings per family (under `check`, the gate's
 * verdict instead, report/gate.c). Colour only
 * when asked (main.c decides: a tty, or --color=always). Paths, messages and snippets go
 * through sb_put_printable: a control character in a file name or a source line is shown as
 * an escape, never written raw to a terminal or a CI log.
 */
#include "report/report.h"

#include <string.h>

#define C_RESET "\033[0m"
#define C_BOLD "\033[1m"
#define C_GREEN "\033[32m"

static const char *sev_color(sunset_severity s) {
    return s == SUNSET_SEV_ERROR ? "\033[1;31m" : s == SUNSET_SEV_WARNING ? "\033[1;35m" : "\033[1;36m";
}

/* Blanks as wide as the n bytes of s on a terminal (tabs stay tabs, so the caret lines up
 * whatever the tab width). */
static void pad(sb *b, const char *s, size_t n) {
    while (n) {
        const char *tab = memchr(s, '\t', n);
        size_t seg = tab ? (size_t)(tab - s) : n;
        for (size_t w = utf8_columns(s, seg, false); w; w--) sb_putc(b, ' ');
        if (!tab) break;
        sb_putc(b, '\t');
        n -= seg + 1;
        s = tab + 1;
    }
}

/* Caret line under the snippet as sb_put_printable shows it: blanks as wide as the shown
 * prefix, then ^~~~ as wide as the shown match, in terminal columns (a CJK character is two). */
static void caret(sb *b, const sunset_finding *f, bool color) {
    const char *s = f->snippet;
    size_t len = strlen(s), col = f->span.col ? f->span.col - 1 : 0;
    size_t end = f->span.end_line == f->span.line ? f->span.end_col - 1 : len;
    if (col > len) col = len;
    if (end > len) end = len;
    sb shown = {0};
    sb_put_printable(&shown, s, col);
    sb_puts(b, "    ");
    pad(b, shown.s ? shown.s : "", shown.len);
    shown.len = 0;
    if (end > col) sb_put_printable(&shown, s + col, end - col);
    if (shown.oom) b->oom = true;
    if (color) sb_puts(b, C_GREEN);
    sb_putc(b, '^');
    for (size_t i = 1, w = utf8_columns(shown.s ? shown.s : "", shown.len, false); i < w; i++) sb_putc(b, '~');
    if (color) sb_puts(b, C_RESET);
    sb_putc(b, '\n');
    sb_free(&shown);
}

static int write_text(const sunset_result *r, const sunset_envelope *e, sb *b) {
    const sunset_output_opts *o = &e->opts;
    if (e->remnants && !o->findings) sunset_remnants_text(r, e, b); /* one item per remnant */
    else for (size_t i = 0; i < r->n_findings; i++) {
        const sunset_finding *f = &r->findings[i];
        if (f->suppressed) continue; /* counted in the summary; listed in JSON and SARIF */
        if (o->color) sb_puts(b, C_BOLD);
        if (e->shown_prefix) sb_put_printable_str(b, e->shown_prefix);
        sb_put_printable_str(b, f->path);
        sb_printf(b, ":%u:%zu: ", f->span.line, sunset_finding_column(f, f->span.col, false));
        if (o->color) sb_printf(b, "%s", sev_color(f->severity));
        sb_printf(b, "%s:", sunset_severity_name(f->severity));
        if (o->color) sb_puts(b, C_RESET);
        sb_puts(b, " [");
        sb_put_printable_str(b, f->rule_id);
        sb_puts(b, "] ");
        sb_put_printable_str(b, f->message);
        if (f->ctx != SUNSET_CTX_CODE) sb_printf(b, " (in a %s)", sunset_context_name(f->ctx));
        sb_putc(b, '\n');
        if (o->snippets && f->span.line && (f->span.col > 1 || f->span.end_col > 1)) {
            sb_puts(b, "    ");
            sb_put_printable_str(b, f->snippet); /* no raw ESC [ ... to recolour a terminal */
            sb_putc(b, '\n');
            caret(b, f, o->color);
        }
    }
    if (o->summary && e->gate) {
        sunset_gate_text(r, e->gate, b); /* check's summary: the verdict instead of the counts */
    } else if (o->summary) {
        const sunset_stats *s = &r->stats;
        size_t skipped = s->skipped_binary + s->skipped_generated + s->skipped_too_large +
                         s->skipped_unreadable + s->skipped_parse_failed;
        sb_printf(b, "\n%zu files scanned, %zu parsed, %zu skipped (%zu binary, %zu generated, "
                  "%zu too large, %zu unreadable, %zu unparsable); %zu ignored, %zu excluded\n",
                  s->files_scanned, s->files_parsed, skipped, s->skipped_binary,
                  s->skipped_generated, s->skipped_too_large, s->skipped_unreadable,
                  s->skipped_parse_failed, s->ignored, s->excluded);
        size_t by_sev[SUNSET_SEV_COUNT] = {0};
        for (size_t k = 0; k < r->n_findings; k++) by_sev[r->findings[k].severity]++;
        sb_printf(b, "%zu findings (%zu error, %zu warning, %zu info)", r->n_findings,
                  by_sev[SUNSET_SEV_ERROR], by_sev[SUNSET_SEV_WARNING], by_sev[SUNSET_SEV_INFO]);
        size_t n_supp = sunset_findings_suppressed(r);
        if (n_supp) sb_printf(b, ", %zu of them suppressed", n_supp);
        sb_puts(b, r->n_findings ? ":\n" : "\n");
        for (size_t i = 0; i < r->n_families; i++) {
            size_t n = 0, files = 0;
            const char *last = NULL;
            for (size_t k = 0; k < r->n_findings; k++) {
                if (strcmp(r->findings[k].family, r->families[i].id)) continue;
                n++;
                if (!last || strcmp(last, r->findings[k].path)) files++;
                last = r->findings[k].path;
            }
            if (n) sb_printf(b, "  %-20s %6zu in %zu files  (%s)\n", r->families[i].id, n, files,
                             r->families[i].title);
        }
        if (e->remnants) sunset_remnants_summary_text(r, e, b);
        sb_printf(b, "time: %.0f ms with %d thread%s\n", s->elapsed_ms, s->jobs, s->jobs == 1 ? "" : "s");
    }
    return b->oom ? -1 : 0;
}

const sunset_writer sunset_writer_text = {"text", write_text};
