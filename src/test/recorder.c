/*
 * recorder.c — implements the sink API of sunset.h by recording, for frontend unit tests.
 */
#include "recorder.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *dup_or_null(const char *s, size_t n) { return s ? sunset_strndup(s, n) : NULL; }

static rec *rec_new(sunset_sink *s) {
    if (s->n == s->cap) {
        s->cap = s->cap ? s->cap * 2 : 64;
        s->recs = realloc(s->recs, s->cap * sizeof *s->recs);
        if (!s->recs) abort();
    }
    rec *r = &s->recs[s->n++];
    memset(r, 0, sizeof *r);
    return r;
}

void sunset_emit(sunset_sink *s, const sunset_fact *f) {
    rec *r = rec_new(s);
    r->type = REC_FACT;
    r->kind = f->kind;
    r->ctx = f->ctx;
    r->span = f->span;
    r->stmt = f->stmt;
    r->block = f->block;
    r->flags = f->flags;
    r->text = dup_or_null(f->text, f->text_len);
    r->aux = dup_or_null(f->aux, f->aux_len);
    r->target = dup_or_null(f->target, f->target_len);
    r->section = dup_or_null(f->section, f->section_len);
    r->qual = dup_or_null(f->qual, f->qual_len);
}

void sunset_emit_text(sunset_sink *s, sunset_context ctx, sunset_span at, const char *text,
                      size_t len, const char *call) {
    rec *r = rec_new(s);
    r->type = REC_TEXT;
    r->ctx = ctx;
    r->span = at;
    r->text = sunset_strndup(text, len);
    r->aux = call ? sunset_strndup(call, strlen(call)) : NULL;
}

void sunset_emit_text_stmt(sunset_sink *s, sunset_context ctx, sunset_span at, const char *text,
                           size_t len, const char *call, sunset_span stmt) {
    sunset_emit_text(s, ctx, at, text, len, call);
    s->recs[s->n - 1].stmt = stmt;
}

void sunset_emit_string(sunset_sink *s, sunset_span at, const char *text, size_t len, const char *call,
                        sunset_str_use use, int arg, sunset_span stmt) {
    sunset_emit_text_stmt(s, SUNSET_CTX_STRING, at, text, len, call, stmt);
    s->recs[s->n - 1].use = use;
    s->recs[s->n - 1].arg = arg;
}

int rec_lazy_stmts;

/* The statement asked at once: what the engine would get when a rule matched the fact. */
void sunset_emit_lazy(sunset_sink *s, const sunset_fact *f, sunset_stmt_fn stmt, void *ud) {
    sunset_emit(s, f);
    s->recs[s->n - 1].stmt = stmt(ud);
    rec_lazy_stmts++;
}

void sunset_emit_string_lazy(sunset_sink *s, sunset_span at, const char *text, size_t len, const char *call,
                             sunset_str_use use, int arg, sunset_stmt_fn stmt, void *ud) {
    sunset_emit_string(s, at, text, len, call, use, arg, stmt(ud));
    rec_lazy_stmts++;
}

void sunset_emit_match(sunset_sink *s, const sunset_rule *rule, sunset_context ctx,
                       sunset_span span) {
    rec *r = rec_new(s);
    r->type = REC_MATCH;
    r->ctx = ctx;
    r->span = span;
    r->rule = rule;
    r->text = sunset_strndup(rule->id, strlen(rule->id));
}

void sunset_scope(sunset_sink *s, const char *kind, const char *name, uint32_t start,
                  uint32_t end) {
    rec *r = rec_new(s);
    r->type = REC_SCOPE;
    r->span = (sunset_span){start, 0, end, 0};
    r->text = sunset_strndup(name, strlen(name));
    r->aux = sunset_strndup(kind, strlen(kind));
}

void sunset_warn(sunset_sink *s, uint32_t line, uint32_t col, const char *fmt, ...) {
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    rec *r = rec_new(s);
    r->type = REC_WARN;
    r->span = (sunset_span){line, col, line, col};
    r->text = sunset_strndup(buf, strlen(buf));
}

/* The recorder has no rules to prefilter by: every pass runs, as with --no-prefilter,
 * unless a test names the one literal its prefilter stands for. */
const char *rec_may_match_literal;
bool rec_part_suffices = true;
int rec_restarts;

bool sunset_sink_may_match(sunset_sink *s, const char *data, size_t len) {
    (void)s;
    return !rec_may_match_literal || memmem(data, len, rec_may_match_literal, strlen(rec_may_match_literal));
}

bool sunset_sink_part_suffices(sunset_sink *s, const uint32_t (*skipped)[2], size_t n) {
    (void)s;
    (void)skipped;
    (void)n;
    return rec_part_suffices;
}

static void free_recs(sunset_sink *s) {
    for (size_t i = 0; i < s->n; i++) {
        rec *r = &s->recs[i];
        sunset_free(r->text);
        sunset_free(r->aux);
        sunset_free(r->target);
        sunset_free(r->section);
        sunset_free(r->qual);
    }
    s->n = 0;
}

/* Forget the records: tests scan one file per rec_reset. */
void sunset_sink_restart(sunset_sink *s) {
    free_recs(s);
    rec_restarts++;
}

bool sunset_sink_rule_may_match(sunset_sink *s, const sunset_rule *r) {
    (void)s;
    (void)r;
    return true;
}

size_t sunset_ruleset_query_count(const sunset_ruleset *rs, sunset_lang lang) {
    size_t c = 0;
    for (size_t i = 0; rs && i < rs->n; i++) c += rs->rules[i].lang == lang;
    return c;
}

const sunset_rule *sunset_ruleset_query_at(const sunset_ruleset *rs, sunset_lang lang, size_t k) {
    for (size_t i = 0; rs && i < rs->n; i++)
        if (rs->rules[i].lang == lang && k-- == 0) return &rs->rules[i];
    return NULL;
}

const char *sunset_rule_id(const sunset_rule *r) { return r->id; }

/* The keywords of the settings pack (rules/00-settings.json) the frontend tests name. */
bool sunset_ruleset_cmake_keyword(const sunset_ruleset *rs, const char *s, size_t n) {
    static const char *const paddle[] = {"ARGS", "DEPS", "ENVS", "EXTRA_DEPS", "MODULES", "SERIAL", "SRCS", "START_BASH", NULL};
    for (const char *const *k = paddle; *k; k++)
        if (strlen(*k) == n && memcmp(*k, s, n) == 0) return true;
    return false;
}

/* The target commands of the settings pack (rules/00-settings.json) the frontend tests name. */
bool sunset_ruleset_target_command(const sunset_ruleset *rs, const char *name) {
    static const char *const paddle[] = {"cc_library", "cc_test", "hip_library", "nv_library", "nv_test",
                                         "py_test", "py_test_modules", NULL};
    for (const char *const *c = paddle; *c; c++)
        if (strcmp(*c, name) == 0) return true;
    return false;
}
const char *sunset_rule_query(const sunset_rule *r) { return r->query; }
const char *sunset_rule_query_capture(const sunset_rule *r) { return r->capture ? r->capture : ""; }
const char *sunset_rule_origin(const sunset_rule *r) { (void)r; return "test"; }

void rec_reset(sunset_sink *s) {
    free_recs(s);
    free(s->recs);
    memset(s, 0, sizeof *s);
}

static int rec_matches(const rec *r, rec_type type, sunset_fact_kind kind, const char *text) {
    if (r->type != type) return 0;
    if (type == REC_FACT && r->kind != kind) return 0;
    return !text || (r->text && strcmp(r->text, text) == 0);
}

const rec *rec_find(const sunset_sink *s, rec_type type, sunset_fact_kind kind, const char *text) {
    for (size_t i = 0; i < s->n; i++)
        if (rec_matches(&s->recs[i], type, kind, text)) return &s->recs[i];
    return NULL;
}

size_t rec_count(const sunset_sink *s, rec_type type, sunset_fact_kind kind, const char *text) {
    size_t c = 0;
    for (size_t i = 0; i < s->n; i++) c += rec_matches(&s->recs[i], type, kind, text);
    return c;
}

void rec_dump(const sunset_sink *s) {
    static const char *types[] = {"fact", "text", "match", "scope", "warn"};
    for (size_t i = 0; i < s->n; i++) {
        const rec *r = &s->recs[i];
        fprintf(stderr, "%s k=%d ctx=%d %u:%u-%u:%u f=%u text=[%s] aux=[%s] target=[%s] sec=[%s] qual=[%s]\n",
                types[r->type], r->kind, r->ctx, r->span.line, r->span.col, r->span.end_line,
                r->span.end_col, r->flags, r->text ? r->text : "", r->aux ? r->aux : "",
                r->target ? r->target : "", r->section ? r->section : "", r->qual ? r->qual : "");
    }
}
