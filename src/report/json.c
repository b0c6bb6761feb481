/*
 * json.c — the JSON report: one document, {"version":1,"root":...,"findings":[...],
 * "stats":{...}}, schema documented in the README. Written by hand with sb rather than built
 * as a cJSON tree: a large scan's findings would otherwise be held twice.
 */
#include "report/report.h"

#include <string.h>

static void key(sb *b, const char *k, bool first) {
    if (!first) sb_putc(b, ',');
    sb_put_json_str(b, k);
    sb_putc(b, ':');
}

static void kv_str(sb *b, const char *k, const char *v, bool first) {
    key(b, k, first);
    if (v) sb_put_json_str(b, v);
    else sb_puts(b, "null");
}

/* The digits of v, as "%llu" writes them: a finding has ten numbers, and a printf each was a
 * third of writing a large document (perf, a warm scan of the 2024-05-09 tree). */
static void kv_num(sb *b, const char *k, unsigned long long v, bool first) {
    key(b, k, first);
    char d[24];
    size_t at = sizeof d;
    do {
        d[--at] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    sb_putn(b, d + at, sizeof d - at);
}

/* One finding's object (after a comma unless first). */
static void json_finding(sb *b, const sunset_finding *f, bool first) {
    sb_puts(b, first ? "\n{" : ",\n{");
    kv_str(b, "rule", f->rule_id, true);
    kv_str(b, "family", f->family, false);
    kv_num(b, "task", (unsigned)f->task, false);
    kv_str(b, "severity", sunset_severity_name(f->severity), false);
    kv_str(b, "path", f->path, false);
    kv_num(b, "line", f->span.line, false);
    kv_num(b, "column", f->span.col, false);
    kv_num(b, "end_line", f->span.end_line, false);
    kv_num(b, "end_column", f->span.end_col, false);
    key(b, "statement", false);
    if (f->stmt.line) {
        sb_putc(b, '{');
        kv_num(b, "line", f->stmt.line, true);
        kv_num(b, "column", f->stmt.col, false);
        kv_num(b, "end_line", f->stmt.end_line, false);
        kv_num(b, "end_column", f->stmt.end_col, false);
        sb_putc(b, '}');
    } else {
        sb_puts(b, "null");
    }
    kv_str(b, "context", sunset_context_name(f->ctx), false);
    key(b, "test", false);
    sb_puts(b, f->test ? "true" : "false");
    key(b, "enclosing", false);
    if (f->enc_kind) {
        sb_putc(b, '{');
        kv_str(b, "kind", f->enc_kind, true);
        kv_str(b, "name", f->enc_name, false);
        kv_num(b, "start_line", f->enc_start, false);
        kv_num(b, "end_line", f->enc_end, false);
        sb_putc(b, '}');
    } else {
        sb_puts(b, "null");
    }
    kv_str(b, "message", f->message, false);
    kv_str(b, "fix", f->fix, false);
    kv_str(b, "matched", f->matched, false);
    kv_str(b, "snippet", f->snippet, false);
    kv_str(b, "fingerprint", f->fingerprint, false);
    if (f->suppressed) { /* only then, so unsuppressed documents keep their shape */
        key(b, "suppressed", false);
        sb_puts(b, "true");
        kv_str(b, "justification", f->justification, false);
    }
    if (f->derived) { /* scan --derive: legacy by propagation, with its evidence */
        key(b, "derived", false);
        sb_puts(b, "true");
        kv_str(b, "chain", f->chain, false);
    }
    sb_putc(b, '}');
}

/* The "stats" member: the counters, per family and per severity, the run's. */
static void json_stats(sb *b, const sunset_result *r) {
    sb_puts(b, ",\"stats\":{");
    const sunset_stats *s = &r->stats;
    bool first = true, first_skipped = true;
#define TOP(field, kind, group, k)                                                            \
    if ((group) == 0) kv_num(b, k, s->field, first), first = false;
    SUNSET_STATS_COUNTERS(TOP)
#undef TOP
    key(b, "skipped", first);
    sb_putc(b, '{');
#define SKIPPED(field, kind, group, k)                                                        \
    if ((group) == 1) kv_num(b, k, s->field, first_skipped), first_skipped = false;
    SUNSET_STATS_COUNTERS(SKIPPED)
#undef SKIPPED
    sb_putc(b, '}');
    kv_num(b, "findings", r->n_findings, false);
    size_t n_supp = sunset_findings_suppressed(r);
    if (n_supp) kv_num(b, "suppressed", n_supp, false);
    key(b, "by_family", false);
    sb_putc(b, '{');
    for (size_t i = 0; i < r->n_families; i++) {
        size_t n = 0;
        for (size_t k = 0; k < r->n_findings; k++) n += strcmp(r->findings[k].family, r->families[i].id) == 0;
        kv_num(b, r->families[i].id, n, i == 0);
    }
    sb_putc(b, '}');
    key(b, "by_severity", false);
    sb_putc(b, '{');
    for (int sev = SUNSET_SEV_ERROR; sev >= SUNSET_SEV_INFO; sev--) {
        size_t n = 0;
        for (size_t k = 0; k < r->n_findings; k++) n += r->findings[k].severity == (sunset_severity)sev;
        kv_num(b, sunset_severity_name((sunset_severity)sev), n, sev == SUNSET_SEV_ERROR);
    }
    sb_putc(b, '}');
#define TAIL(field, kind, group, k)                                                           \
    if ((group) == 2) kv_num(b, k, s->field, false);
    SUNSET_STATS_COUNTERS(TAIL)
#undef TAIL
    kv_num(b, "jobs", (unsigned)s->jobs, false);
    key(b, "elapsed_ms", false);
    sb_printf(b, "%.1f", s->elapsed_ms);
    sb_putc(b, '}');
}

static int write_json(const sunset_result *r, const sunset_envelope *e, sb *b) {
    sb_puts(b, e->remnants ? "{\"version\":2," : "{\"version\":1,");
    kv_str(b, "root", r->root ? r->root : ".", true);
    if (e->shard) { /* only then: a merged document equals an unsharded one */
        kv_str(b, "shard", e->shard, false);
        kv_str(b, "inputs", e->inputs, false);
    }
    sb_puts(b, ",\"findings\":[");
    for (size_t i = 0; i < r->n_findings; i++) json_finding(b, &r->findings[i], i == 0);
    sb_puts(b, r->n_findings ? "\n]" : "]");
    if (e->remnants) sunset_remnants_json(r, e, b); /* schema version 2 */
    json_stats(b, r);
    if (e->gate) sunset_gate_json(r, e->gate, b);
    sb_puts(b, "}\n");
    return b->oom ? -1 : 0;
}

const sunset_writer sunset_writer_json = {"json", write_json};
