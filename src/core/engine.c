/*
 * engine.c — the scan engine. Per file: read once, skip binary and generated files, run the
 * path rules, run the literal prefilter for the file's language, and only then hand the file
 * to its frontend, whose facts are matched here against the rule set's clause index. Matches
 * become candidates; when the frontend is done, overlapping candidates are reduced to the most
 * specific rule, each survivor gets its severity (by context), enclosing scope, snippet and
 * test flag, and is copied into the worker's result. Workers pull files from a shared atomic
 * counter; results are merged and sorted, so output does not depend on the thread count.
 */
#include "core/engine.h"
#include "core/engine_int.h"

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/normalize.h"
#include "core/anchor.h"
#include "core/cache.h"
#include "core/xflow.h"
#include "core/flow.h"
#include "core/lang.h"
#include "core/prefilter.h"
#include "core/rules_int.h"
#include "core/suppress.h"


#define DEFAULT_MAX_FILE SUNSET_DEFAULT_MAX_FILE


typedef struct cand {
    const sunset_rule *rule;
    sunset_span span;
    sunset_context ctx;
    char *matched;
    sunset_span stmt; /* the statement holding the match; all 0 = none */
    bool embedded;    /* from a document's embedded code (scan_embedded) */
    bool code_string; /* a string that code uses (sunset_string_is_code) */
} cand;

typedef struct scope {
    char *kind, *name;
    uint32_t start, end;
} scope;

typedef struct worker {
    sunset_engine *e;
    void *fe_worker[N_FRONTENDS];
    pcre2_match_data *md;
    signed char *rule_ok; /* per rule: -1 unknown, 0/1 = path filters for the current file */
    sb readbuf;           /* the file being scanned; reused for every file of this worker */
    sunset_result res;
    const char *premarks; /* the names another module binds (xflow_importers): a second scan */
} worker;

struct sunset_sink {
    worker *w;
    const sunset_source *src;
    vec cands;  /* cand */
    vec scopes; /* scope */
    bool capped;        /* MAX_FILE_CANDS reached: later matches dropped */
    bool has_marker;    /* the file holds SUNSET_SUPPRESS_MARKER (searched once, in scan_one) */
    uint32_t at_line;   /* line cursor (seek_line): `at` is the start of line at_line */
    const char *at;
    sunset_span stmt;   /* the statement of the fact being matched (sunset_emit), else 0 */
    bool code_string;   /* the string being matched is one code uses (sunset_emit_string) */
    sb *exports;        /* the file's exports for core/xflow.c, when it notes them */
    bool embedded;      /* scanning a document's embedded code (scan_embedded) */
    bool anchored;      /* the file is tied to Paddle (core/anchor.c); sticky, since the facts
                           that tied it come again after a restart */
    flow_file *flow;    /* legacy-object flow (core/flow.c) when the language has flow rules;
                           owned, freed by finish_file */
    sunset_lang flow_lang; /* whose flow rules: the file's, or its embedded code's */
    /* what the file had before its frontend ran (sunset_sink_restart goes back to it) */
    size_t fe_cands, fe_warnings;
    bool fe_capped;
};

/* Per-file bound on matches. A pathological file (16 MB of "ParallelExecutor") would
 * otherwise hold a worker's memory without limit and make finishing the file quadratic;
 * beyond this the rest of the file is not reported, with a warning naming it. */
#define MAX_FILE_CANDS 10000

/* Start of `line` (1-based), or NULL past the end. Matches arrive, and findings are built,
 * mostly in line order: the cursor keeps that linear instead of rescanning from the top. */
static const char *seek_line(sunset_sink *s, uint32_t line) {
    const char *end = s->src->data + s->src->len;
    if (!s->at || line < s->at_line) {
        s->at = s->src->data;
        s->at_line = 1;
    }
    while (s->at_line < line) {
        const char *nl = memchr(s->at, '\n', (size_t)(end - s->at));
        if (!nl) return NULL;
        s->at = nl + 1;
        s->at_line++;
    }
    return s->at;
}

/* ---- small helpers ---- */

static void warnf(worker *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void warnf(worker *w, const char *fmt, ...) {
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    sunset_result_add_warning(&w->res, buf);
}

/* Do the rule's path filters and the configuration's disable list let it apply here? */
static bool rule_applies(worker *w, const sunset_rule *r, const char *path) {
    signed char *ok = &w->rule_ok[r->index];
    if (*ok >= 0) return *ok;
    bool yes = true;
    if (r->path_include.n && !re_list_search(&r->path_include, path, w->md)) yes = false;
    if (yes && r->path_exclude.n && re_list_search(&r->path_exclude, path, w->md)) yes = false;
    const sunset_engine_opts *o = w->e->o;
    for (size_t i = 0; yes && i < o->n_disable; i++) {
        const disable_entry *d = &o->disable[i];
        bool rule_hit = false, path_hit = d->n_paths == 0;
        for (size_t k = 0; k < d->n_rules && !rule_hit; k++)
            rule_hit = sunset_glob_match(d->rules[k], r->id);
        for (size_t k = 0; k < d->n_paths && !path_hit; k++)
            path_hit = sunset_glob_match(d->paths[k], path);
        if (rule_hit && path_hit) yes = false;
    }
    *ok = yes;
    return yes;
}

static void add_cand(sunset_sink *s, const sunset_rule *r, sunset_span span, sunset_context ctx,
                     const char *text, size_t len) {
    if (s->cands.n >= MAX_FILE_CANDS) {
        s->capped = true;
        return;
    }
    if (!rule_applies(s->w, r, s->src->path)) return;
    cand c = {r, span, ctx, sunset_strndup(text ? text : "", text ? len : 0), s->stmt,
              s->embedded, s->code_string && ctx == SUNSET_CTX_STRING};
    if (!c.matched || !vec_push(&s->cands, &c)) sunset_free(c.matched);
    else if (s->flow) flow_seed(s->flow, r, ctx, span, c.matched, strlen(c.matched));
}

/* Match one fact (kind k) against the index. For regex clauses over LINE and STRING facts
 * the span narrows to the regex match; otherwise the fact's span is used. */
static void match_fact(sunset_sink *s, int k, const sunset_fact *f) {
    const clause_index *ix = &s->w->e->rs->index[s->src->lang][k];
    pcre2_match_data *md = s->w->md;
    /* the finding's text is what its span covers: for a from-import, the imported name */
    const char *shown = f->text;
    size_t shown_len = f->text_len;
    if (k == SUNSET_FACT_IMPORT && f->aux) {
        shown = f->aux;
        shown_len = f->aux_len;
    }
    if (ix->n_slots && f->text) {
        const struct name_slot *slot = rules_index_lookup(ix, f->text, f->text_len);
        if (slot) {
            for (size_t i = 0; i < slot->clauses.n; i++) {
                const clause *c = VEC_AT(&slot->clauses, clause *, i);
                if (clause_match_rest(c, f, md)) add_cand(s, c->rule, f->span, f->ctx, shown, shown_len);
            }
        }
    }
    if (!ix->all.n) return;
    const char *text = f->text ? f->text : "";
    size_t len = f->text ? f->text_len : 0;
    /* the union of the clauses' regexes: a mismatch rules them all out; an error rules out
     * nothing (each clause's own regex reports it) */
    if (ix->any_re && re_match_rc(ix->any_re, text, len, 0, md) == PCRE2_ERROR_NOMATCH) return;
    bool narrow = k == SUNSET_FACT_LINE || k == SUNSET_FACT_STRING;
    for (size_t i = 0; i < ix->all.n; i++) {
        const clause *c = VEC_AT(&ix->all, clause *, i);
        if (!clause_match_rest(c, f, md)) continue;
        if (!c->main.re) {
            add_cand(s, c->rule, f->span, f->ctx, shown ? shown : text, shown ? shown_len : len);
            continue;
        }
        int rc = re_match_rc(c->main.re, text, len, 0, md);
        if (rc < 0) {
            if (rc != PCRE2_ERROR_NOMATCH) {
                char msg[160];
                re_error_message(rc, msg, sizeof msg);
                sunset_warn(s, f->span.line, f->span.col, "rule %s: regex error: %s", c->rule->id,
                            msg);
            }
            continue;
        }
        PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);
        size_t so = ov[0], eo = ov[1];
        if (narrow && eo > so) {
            sunset_span sp = span_in_text(f->span, text, so, eo);
            add_cand(s, c->rule, sp, f->ctx, text + so, eo - so);
        } else {
            add_cand(s, c->rule, f->span, f->ctx, shown ? shown : text, shown ? shown_len : len);
        }
    }
}

/* ---- the sink API (sunset.h) ---- */

void sunset_emit(sunset_sink *s, const sunset_fact *f) {
    if ((unsigned)f->kind >= SUNSET_FACT_KIND_COUNT || (unsigned)f->ctx >= SUNSET_CTX_COUNT) return;
    /* a statement that does not hold the fact's line is a frontend's slip: ignore it */
    if (f->stmt.line && f->stmt.line <= f->span.line && f->stmt.end_line >= f->span.line)
        s->stmt = f->stmt;
    if (s->flow) {
        sunset_fact g = *f;
        g.stmt = s->stmt;
        flow_fact(s->flow, &g);
    }
    if (!s->anchored) s->anchored = anchor_by_fact(&s->w->e->rs->anchor, s->src->lang, f, s->w->md);
    if (f->kind != SUNSET_FACT_BIND) match_fact(s, f->kind, f);
    s->stmt = (sunset_span){0, 0, 0, 0};
}

static void match_word(void *ud, sunset_context ctx, sunset_span span, const char *word, size_t n) {
    sunset_fact f = {.kind = (sunset_fact_kind)MATCH_WORD, .ctx = ctx, .span = span, .text = word, .text_len = n};
    match_fact(ud, MATCH_WORD, &f);
}

void sunset_emit_text(sunset_sink *s, sunset_context ctx, sunset_span at, const char *text,
                      size_t len, const char *call) {
    if ((unsigned)ctx >= SUNSET_CTX_COUNT || !text) return;
    const sunset_ruleset *rs = s->w->e->rs;
    sunset_lang lang = s->src->lang;
    /* whole-text string rules: literals and docstrings only */
    if (ctx != SUNSET_CTX_COMMENT) {
        const clause_index *ix = &rs->index[lang][SUNSET_FACT_STRING];
        if (ix->n_slots || ix->all.n) {
            sunset_span sp = span_in_text(at, text, 0, len);
            sunset_fact f = {.kind = SUNSET_FACT_STRING, .ctx = ctx, .span = sp, .text = text,
                             .text_len = len, .aux = call, .aux_len = call ? strlen(call) : 0};
            match_fact(s, SUNSET_FACT_STRING, &f);
        }
    }
    const clause_index *wx = &rs->index[lang][MATCH_WORD];
    if (wx->n_slots || wx->all.n) text_words(rs, ctx, at, text, len, match_word, s);
}

void sunset_emit_text_stmt(sunset_sink *s, sunset_context ctx, sunset_span at, const char *text,
                           size_t len, const char *call, sunset_span stmt) {
    if (stmt.line && stmt.line <= at.line && stmt.end_line >= at.line) s->stmt = stmt;
    sunset_emit_text(s, ctx, at, text, len, call);
    s->stmt = (sunset_span){0, 0, 0, 0};
}

void sunset_emit_string(sunset_sink *s, sunset_span at, const char *text, size_t len, const char *call,
                        sunset_str_use use, int arg, sunset_span stmt) {
    s->code_string = sunset_string_is_code(&s->w->e->rs->remnants, use, call, arg);
    sunset_emit_text_stmt(s, SUNSET_CTX_STRING, at, text, len, call, stmt);
    s->code_string = false;
}

void sunset_emit_match(sunset_sink *s, const sunset_rule *rule, sunset_context ctx,
                       sunset_span span) {
    if ((unsigned)ctx >= SUNSET_CTX_COUNT || !(rule->ctx_mask & (1u << ctx))) return;
    if (s->cands.n >= MAX_FILE_CANDS) {
        s->capped = true;
        return;
    }
    /* the matched text: the span's bytes when on one line */
    const char *p = NULL;
    size_t n = 0;
    if (span.line == span.end_line) {
        const char *d = seek_line(s, span.line), *end = s->src->data + s->src->len;
        if (d && span.col >= 1 && span.end_col >= span.col &&
            (size_t)(end - d) >= (size_t)span.end_col - 1) {
            p = d + span.col - 1;
            n = span.end_col - span.col;
        }
    }
    add_cand(s, rule, span, ctx, p, n);
}

void sunset_scope(sunset_sink *s, const char *kind, const char *name, uint32_t start,
                  uint32_t end) {
    if (s->flow) flow_scope(s->flow, kind, name, start, end < start ? start : end);
    if (!s->anchored) s->anchored = anchor_by_scope(&s->w->e->rs->anchor, kind, name, s->w->md);
    scope sc = {sunset_strndup(kind, strlen(kind)), sunset_strndup(name, strlen(name)), start,
                end < start ? start : end};
    if (!sc.kind || !sc.name || !vec_push(&s->scopes, &sc)) {
        sunset_free(sc.kind);
        sunset_free(sc.name);
    }
}

void sunset_warn(sunset_sink *s, uint32_t line, uint32_t col, const char *fmt, ...) {
    char msg[700];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    warnf(s->w, "%s:%u:%u: warning: %s", s->src->path, line, col, msg);
}

/* ---- per-file finalisation ---- */

/* Winner between two overlapping candidates: more specific kind, higher severity, smaller id. */
static bool beats(const cand *a, const cand *b) {
    /* on one span a document's own rule stands over its embedded code's */
    if (a->embedded != b->embedded) return !a->embedded;
    if (a->rule->specificity != b->rule->specificity)
        return a->rule->specificity > b->rule->specificity;
    sunset_severity sa = rule_severity(a->rule, a->ctx), sb_ = rule_severity(b->rule, b->ctx);
    if (sa != sb_) return sa > sb_;
    /* one rule, one span, twice (a docstring word and the example's code fact): keep the one
     * that knows its statement */
    if ((a->stmt.line != 0) != (b->stmt.line != 0)) return a->stmt.line != 0;
    return strcmp(a->rule->id, b->rule->id) < 0;
}

static bool overlaps(const sunset_span *a, const sunset_span *b) {
    /* (line, col) pairs compared lexicographically; spans are half-open */
    uint64_t as = (uint64_t)a->line << 32 | a->col, ae = (uint64_t)a->end_line << 32 | a->end_col;
    uint64_t bs = (uint64_t)b->line << 32 | b->col, be = (uint64_t)b->end_line << 32 | b->end_col;
    if (as == ae || bs == be) return as == bs; /* empty spans meet only at one point */
    return as < be && bs < ae;
}

static int cmp_cand(const void *x, const void *y) {
    const cand *a = x, *b = y;
    if (a->span.line != b->span.line) return a->span.line < b->span.line ? -1 : 1;
    if (a->span.col != b->span.col) return a->span.col < b->span.col ? -1 : 1;
    return strcmp(a->rule->id, b->rule->id);
}

static char *line_text(sunset_sink *s, uint32_t line) {
    const char *d = seek_line(s, line), *end = s->src->data + s->src->len;
    if (!d) return sunset_strndup("", 0);
    const char *nl = memchr(d, '\n', (size_t)(end - d));
    size_t n = nl ? (size_t)(nl - d) : (size_t)(end - d);
    if (n && d[n - 1] == '\r') n--;
    if (n > 400) n = 400; /* a minified line is not worth printing whole */
    return sunset_strndup(d, n);
}

static char *normalise(const char *s) {
    sb b = {0};
    bool space = false;
    for (; *s; s++) {
        if (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r') {
            space = b.len > 0;
            continue;
        }
        if (space) sb_putc(&b, ' ');
        space = false;
        sb_putc(&b, *s);
    }
    return b.oom ? NULL : sb_take(&b);
}

static void flow_report(void *ud, const sunset_rule *r, sunset_context ctx, sunset_span span,
                        sunset_span stmt, const char *text, size_t len) {
    sunset_sink *s = ud;
    s->stmt = stmt;
    add_cand(s, r, span, ctx, text, len);
    s->stmt = (sunset_span){0, 0, 0, 0};
}

/* Does the file say its rule's matches are another meaning: "unless.file" finds something in
 * it, or "unless.file_without" finds nothing (the construction the rule presumes is gone)? */
static bool file_unless(sunset_sink *s, const sunset_rule *r) {
    size_t so, eo;
    if (r->unless_file && re_search(r->unless_file, s->src->data, s->src->len, 0, s->w->md, &so, &eo))
        return true;
    return r->unless_file_without &&
           !re_search(r->unless_file_without, s->src->data, s->src->len, 0, s->w->md, &so, &eo);
}

/* Is the match another meaning of the word: on a line, or in a file, its rule's "unless"
 * names? file_hit caches the file's answer per rule (-1 unknown). */
static bool unless_hit(sunset_sink *s, const cand *c, signed char *file_hit) {
    const sunset_rule *r = c->rule;
    size_t so, eo;
    if (r->unless_line) {
        const char *d = seek_line(s, c->span.line), *end = s->src->data + s->src->len;
        const char *nl = d ? memchr(d, '\n', (size_t)(end - d)) : NULL;
        if (d && re_search(r->unless_line, d, (size_t)((nl ? nl : end) - d), 0, s->w->md, &so, &eo))
            return true;
    }
    if (!r->unless_file && !r->unless_file_without) return false;
    if (!file_hit) return file_unless(s, r);
    if (file_hit[r->index] < 0) file_hit[r->index] = file_unless(s, r);
    return file_hit[r->index];
}

/* Drop the matches that do not count: an anchored rule's in a file not tied to Paddle, a
 * rule's the tree turns off, and those its rule's "unless" reads as another meaning. */
static void drop_cands(sunset_sink *s) {
    vec *cv = &s->cands;
    size_t nr = s->w->e->n_rules ? s->w->e->n_rules : 1, k = 0;
    signed char *file_hit = NULL; /* allocated for the first "unless" (NULL on OOM: no cache) */
    for (size_t i = 0; i < cv->n; i++) {
        cand *c = &VEC_AT(cv, cand, i);
        const sunset_rule *r = c->rule;
        bool drop = (!s->anchored && r->anchored) || s->w->e->tree_off[r->index];
        bool by_file = r->unless_file || r->unless_file_without;
        if (!drop && by_file && !file_hit && (file_hit = sunset_malloc(nr))) memset(file_hit, -1, nr);
        if (!drop && (r->unless_line || by_file)) drop = unless_hit(s, c, file_hit);
        if (drop) sunset_free(c->matched);
        else VEC_AT(cv, cand, k++) = *c;
    }
    cv->n = k;
    sunset_free(file_hit);
}

static void export_line(void *ud, const sunset_rule *r, const char *name) { sb_printf(ud, "%s\t%s\n", r->id, name); }

/* Returns false when the result depends on the machine's speed (the flow was stopped by the
 * time limit): it is not to be cached. */
static bool finish_file(sunset_sink *s) {
    worker *w = s->w;
    vec *cv = &s->cands;
    bool timeless = true;
    if (s->flow) {
        flow_file *ff = s->flow;
        s->flow = NULL; /* its reports are not seeds */
        s->embedded = s->flow_lang != s->src->lang; /* the flow of a document's embedded code */
        if (s->exports) flow_exports(ff, &w->e->rs->flow_rules[s->flow_lang], export_line, s->exports);
        flow_limits lim = {0, w->e->o->parse_budget_ms};
        flow_status fs = flow_finish(ff, &w->e->rs->flow_rules[s->flow_lang], w->md, &lim,
                                     flow_report, s);
        s->embedded = false;
        if (fs == FLOW_WORK_LIMIT)
            warnf(w, "%s: warning: legacy-object flow stopped at its work limit (%llu steps); "
                  "uses of legacy objects may be missing", s->src->path,
                  (unsigned long long)flow_file_work(ff));
        else if (fs == FLOW_TIME_LIMIT)
            warnf(w, "%s: warning: legacy-object flow stopped by the time limit (--parse-budget "
                  "%u ms); uses of legacy objects may be missing", s->src->path, lim.budget_ms);
        else if (fs == FLOW_OOM)
            warnf(w, "%s: warning: out of memory in legacy-object flow; uses of legacy objects "
                  "may be missing", s->src->path);
        timeless = fs != FLOW_TIME_LIMIT;
        flow_file_free(ff);
    }
    drop_cands(s);
    if (s->capped)
        warnf(w, "%s: warning: more than %d matches; the rest of this file is not reported",
              s->src->path, MAX_FILE_CANDS);
    size_t first = w->res.n_findings; /* this file's findings start here */
    if (cv->n) {
        qsort(cv->v, cv->n, sizeof(cand), cmp_cand);
        /* drop losers of overlapping pairs; path findings (at 1:1, empty) stand alone */
        bool *dead = sunset_calloc(cv->n, sizeof(bool));
        for (size_t i = 0; dead && i < cv->n; i++) {
            cand *a = &VEC_AT(cv, cand, i);
            if (dead[i] || a->rule->kind == RK_PATH) continue;
            for (size_t j = i + 1; j < cv->n; j++) {
                cand *b = &VEC_AT(cv, cand, j);
                if (b->span.line > a->span.end_line) break;
                if (dead[j] || b->rule->kind == RK_PATH || !overlaps(&a->span, &b->span)) continue;
                if (beats(b, a)) {
                    dead[i] = true;
                    break;
                }
                dead[j] = true;
            }
        }
        bool test = sunset_ruleset_is_test_path(w->e->rs, s->src->path, w->md);
        for (size_t i = 0; i < cv->n; i++) {
            cand *c = &VEC_AT(cv, cand, i);
            if (dead && dead[i]) continue;
            sunset_finding f = {
                .rule_id = c->rule->id, .family = c->rule->family, .message = c->rule->message,
                .fix = c->rule->fix, .task = c->rule->task, .severity = rule_severity(c->rule, c->ctx),
                .ctx = c->ctx, .span = c->span, .test = test, .path = (char *)s->src->path,
                .stmt = c->stmt, .code_string = c->code_string,
            };
            f.matched = normalise(c->matched);
            f.snippet = line_text(s, c->span.line);
            const scope *best = NULL;
            for (size_t k = 0; k < s->scopes.n; k++) {
                const scope *sc = &VEC_AT(&s->scopes, scope, k);
                if (sc->start > c->span.line || sc->end < c->span.line) continue;
                if (!best || sc->end - sc->start < best->end - best->start ||
                    (sc->end - sc->start == best->end - best->start && sc->start > best->start))
                    best = sc;
            }
            if (best) {
                f.enc_kind = best->kind;
                f.enc_name = best->name;
                f.enc_start = best->start;
                f.enc_end = best->end;
            }
            if (f.matched && f.snippet) sunset_result_add(&w->res, &f); /* OOM: the finding is lost */
            sunset_free(f.matched);
            sunset_free(f.snippet);
        }
        sunset_free(dead);
    }
    for (size_t i = 0; i < cv->n; i++) sunset_free(VEC_AT(cv, cand, i).matched);
    vec_free(cv);
    for (size_t i = 0; i < s->scopes.n; i++) {
        sunset_free(VEC_AT(&s->scopes, scope, i).kind);
        sunset_free(VEC_AT(&s->scopes, scope, i).name);
    }
    vec_free(&s->scopes);
    /* in-source sunset-ignore comments (src/core/suppress.c) */
    if (s->has_marker && sunset_suppress_file(&w->res, first, s->src, w->e->rs, sunset_suppress_today()))
        warnf(w, "%s: warning: out of memory applying suppressions", s->src->path);
    return timeless;
}

/* A file read but not analysed: recorded with its reason for the gate (which fails closed on
 * a changed one); an OOM here only loses the record, the counter stays right. */
static void skipped(worker *w, const char *path, uint32_t line, const char *why) {
    if (sunset_result_add_skip(&w->res, path, line, why)) warnf(w, "%s: warning: out of memory", path);
}

/* The prefilter for rules limited to some paths: their literals count only where they apply. */
static bool scoped_literal_match(worker *w, sunset_lang lang, const char *path, const char *data,
                                 size_t len) {
    const vec *sc = &w->e->rs->scoped[lang];
    for (size_t i = 0; i < sc->n; i++) {
        const sunset_rule *r = VEC_AT(sc, sunset_rule *, i);
        if (!rule_applies(w, r, path)) continue;
        for (size_t k = 0; k < r->literals.n; k++) {
            const char *lit = VEC_AT(&r->literals, char *, k);
            if (memmem(data, len, lit, strlen(lit))) return true;
        }
    }
    return false;
}

/* Can a rule of `lang` match in data (path's file)? The prefilter and the path-scoped
 * literals; always with --no-prefilter. One gate for the file, its embedded code and the
 * masked texts a frontend derives from it. */
static bool may_match(worker *w, sunset_lang lang, const char *path, const char *data, size_t len) {
    return w->e->o->no_prefilter || prefilter_match(w->e->pf[lang], data, len) ||
           scoped_literal_match(w, lang, path, data, len);
}

bool sunset_sink_may_match(sunset_sink *s, const char *data, size_t len) {
    sunset_engine *e = s->w->e;
    if (s->flow && flow_file_has_bound_seed(s->flow, &e->rs->flow_rules[s->flow_lang])) return true;
    /* the import that ties the file to Paddle must be parsed, match or not */
    if (!s->anchored && s->src->lang == SUNSET_LANG_PYTHON && anchor_may_import(&e->rs->anchor, data, len))
        return true;
    return may_match(s->w, s->src->lang, s->src->path, data, len);
}

bool sunset_sink_rule_may_match(sunset_sink *s, const sunset_rule *r) {
    if (s->w->e->o->no_prefilter || !r->literals.n) return true;
    for (size_t k = 0; k < r->literals.n; k++) {
        const char *lit = VEC_AT(&r->literals, char *, k);
        if (memmem(s->src->data, s->src->len, lit, strlen(lit))) return true;
    }
    return false;
}

typedef struct skipped_text {
    const char *data;
    const uint32_t (*ranges)[2];
    size_t n;
} skipped_text;

static bool in_skipped(void *ud, const char *name, size_t len) {
    const skipped_text *k = ud;
    for (size_t i = 0; i < k->n; i++)
        if (memmem(k->data + k->ranges[i][0], k->ranges[i][1] - k->ranges[i][0], name, len)) return true;
    return false;
}

bool sunset_sink_part_suffices(sunset_sink *s, const uint32_t (*skipped)[2], size_t n) {
    const vec *rules = &s->w->e->rs->flow_rules[s->flow_lang];
    if (!n || !s->flow || !flow_file_has_bound_seed(s->flow, rules)) return true;
    skipped_text k = {s->src->data, skipped, n};
    return !flow_escapes(s->flow, rules, in_skipped, &k);
}

/* The worker's premarks ("FLOW-RULE\tname\n" lines) as bindings of the file's flow. */
static void premark(sunset_sink *s) {
    for (const char *p = s->w->premarks; s->flow && p && *p;) {
        const char *tab = strchr(p, '\t'), *nl = strchr(p, '\n');
        if (!tab || !nl || tab > nl) break;
        char id[128];
        snprintf(id, sizeof id, "%.*s", (int)(tab - p), p);
        const sunset_rule *r = sunset_ruleset_find(s->w->e->rs, id);
        if (r && r->flow && r->flow->n_bound) flow_premark(s->flow, r->flow->bound[0], tab + 1, (size_t)(nl - tab - 1));
        p = nl + 1;
    }
}

void sunset_sink_restart(sunset_sink *s) {
    for (size_t i = s->fe_cands; i < s->cands.n; i++) sunset_free(VEC_AT(&s->cands, cand, i).matched);
    s->cands.n = s->fe_cands;
    s->capped = s->fe_capped;
    for (size_t i = 0; i < s->scopes.n; i++) {
        sunset_free(VEC_AT(&s->scopes, scope, i).kind);
        sunset_free(VEC_AT(&s->scopes, scope, i).name);
    }
    s->scopes.n = 0;
    sunset_result *r = &s->w->res;
    for (size_t i = s->fe_warnings; i < r->n_warnings; i++) sunset_free(r->warnings[i]);
    if (r->n_warnings > s->fe_warnings) r->n_warnings = s->fe_warnings;
    s->stmt = (sunset_span){0, 0, 0, 0};
    if (s->flow) {
        flow_file_free(s->flow);
        s->flow = flow_file_new(); /* NULL (OOM): no flow, as when it cannot start */
        premark(s);
    }
}

/* The file's own frontend, with the sink's state noted for sunset_sink_restart. */
static int frontend_scan(worker *w, const sunset_frontend *fe, int fi, const sunset_source *src,
                         sunset_sink *sink) {
    sink->fe_cands = sink->cands.n;
    sink->fe_warnings = w->res.n_warnings;
    sink->fe_capped = sink->capped;
    return fe->scan(w->fe_worker[fi], src, sink);
}

/* The code blocks a document embeds (core/lang.c: Markdown/reST hold Python), scanned by that
 * language's frontend and matched against its rules, at the document's positions. */
static void scan_embedded(worker *w, sunset_sink *sink) {
    sunset_engine *e = w->e;
    const sunset_source *doc = sink->src;
    sunset_lang emb = sunset_lang_embedded(doc->path, doc->lang);
    if (emb == SUNSET_LANG_NONE || e->fe_of_lang[emb] < 0) return;
    /* a document's code is its text; a notebook's (TEXT) is JSON-encoded, a name split by
     * escapes or between strings: the frontend asks again about the decoded code */
    if (doc->lang != SUNSET_LANG_TEXT && !may_match(w, emb, doc->path, doc->data, doc->len)) return;
    int fi = e->fe_of_lang[emb];
    const sunset_frontend *fe = e->o->frontends[fi];
    if (!w->fe_worker[fi]) w->fe_worker[fi] = fe->worker_new(e->fe_state[fi]);
    if (!w->fe_worker[fi]) return;
    sunset_source src = *doc;
    src.lang = emb;
    sink->src = &src;
    sink->embedded = true;
    if (!sink->flow && e->rs->flow_rules[emb].n) { /* the document's own language has none */
        sink->flow = flow_file_new();
        sink->flow_lang = emb;
    }
    fe->scan(w->fe_worker[fi], &src, sink); /* a failure leaves the document's own findings */
    sink->embedded = false;
    sink->src = doc;
}

typedef struct index_take {
    const sunset_indexer *ix;
    const sunset_source *src;
} index_take;

static bool take_index(void *ud, void *bytes, size_t n) {
    index_take *u = ud;
    return u->ix->adopt(u->ix->ud, u->src, bytes, n);
}

/* Hand src to the indexer: the content cache's bytes of its entry when there are some (key
 * != 0: the cache is on), adopted where they lie, else lexed, and the new entry then a side
 * entry of the cache, saved from where the index keeps it. */
static void index_file(sunset_engine *e, const sunset_source *src, uint64_t key, uint64_t digest) {
    const sunset_indexer *ix = e->o->indexer;
    index_take u = {ix, src};
    bool cached = key && ix->adopt && ix->export_fn;
    if (cached && sunset_cache_take_blob(e->o->cache, SUNSET_CACHE_TAG_INDEX, key, src->len, digest, take_index,
                                         &u, ix->export_fn))
        return;
    const void *block = NULL;
    size_t n = 0;
    ix->file(ix->ud, src, cached ? &block : NULL, &n);
    if (block) sunset_cache_put_blob(e->o->cache, SUNSET_CACHE_TAG_INDEX, key, src->len, digest, block, n, ix->export_fn);
}

/* The bytes of one file: mem when a buffer was handed in, else fspath read into the worker's
 * buffer. The size limit holds for every input: a file read here, and the staged blob, the
 * diff base's blob, a history blob or stdin handed in as a buffer. false = skipped (too large,
 * unreadable), recorded and warned about. */
static bool read_input(worker *w, const char *path, const sb *fspath, const char **data, size_t *len) {
    sunset_engine *e = w->e;
    sunset_stats *st = &w->res.stats;
    size_t cap = e->o->max_file_size ? e->o->max_file_size : DEFAULT_MAX_FILE;
    bool in_memory = *data != NULL;
    int err = in_memory && *len > cap ? EFBIG : 0;
    if (!in_memory) err = fspath->oom ? ENOMEM : read_file_sb(fspath->s, cap, &w->readbuf);
    if (err == EFBIG) {
        st->skipped_too_large++;
        skipped(w, path, 0, "too large (--max-filesize)");
        warnf(w, "%s: warning: skipped: larger than the %zu-byte limit (--max-filesize)", path, cap);
        return false;
    }
    if (in_memory) return true;
    if (err) {
        st->skipped_unreadable++;
        skipped(w, path, 0, "unreadable");
        warnf(w, "%s: warning: skipped: %s", path, strerror(err));
        return false;
    }
    *data = w->readbuf.s;
    *len = w->readbuf.len;
    st->bytes_read += *len;
    return true;
}

/* Is the file one to scan, and in which language? false = skipped, recorded: binary, generated
 * (sunset's own reports whatever --include-generated says) or in a source encoding sunset does
 * not read. */
static bool admit_file(worker *w, const char *path, const char *data, size_t len, sunset_lang *lang) {
    sunset_engine *e = w->e;
    sunset_stats *st = &w->res.stats;
    if (memchr(data, 0, len < 8000 ? len : 8000)) {
        st->skipped_binary++;
        skipped(w, path, 0, "binary (a NUL byte in the first 8000 bytes)");
        return false;
    }
    uint32_t gen_line = 0;
    if ((!e->o->judge_own_output && sunset_own_output(data, len)) ||
        (!e->o->include_generated && sunset_ruleset_is_generated(e->rs, path, data, len, w->md, &gen_line))) {
        st->skipped_generated++;
        skipped(w, path, gen_line, gen_line ? "generated (a generator's marker; --include-generated scans it)"
                                            : "generated (its name; --include-generated scans it)");
        return false;
    }
    *lang = sunset_lang_for_file(path, data, len);
    char enc[64];
    if (sunset_lang_foreign_encoding(*lang, data, len, enc, sizeof enc)) {
        /* read as bytes, such a file could spell any name unseen (a UTF-7 "+AAo-" is a newline) */
        st->skipped_parse_failed++;
        skipped(w, path, 1, "unparsable: a source encoding sunset does not read");
        warnf(w, "%s:1:1: warning: skipped: source encoding '%s' (only UTF-8 and ASCII are read)", path, enc);
        return false;
    }
    return true;
}

/* A file's text as the toolchain reads it (base/normalize.h): Python's identifiers after NFKC,
 * for the prefilter and the frontend alike (text); C++ with its line splices joined, for the
 * prefilter only (pf: libclang joins them itself and keeps the file's columns). The buffers
 * hold what was rewritten; without a rewrite, the text is the file's bytes. */
typedef struct file_text {
    const char *data, *pf_data;
    size_t len, pf_len;
    sb folded, joined;
} file_text;

static void read_as_toolchain(file_text *t, sunset_lang lang) {
    unsigned reads = sunset_lang_reads(lang);
    if ((reads & SUNSET_READS_NFKC) && text_fold_nfkc_ascii(t->data, t->len, &t->folded) && !t->folded.oom) {
        t->data = t->folded.s;
        t->len = t->folded.len;
    }
    t->pf_data = t->data;
    t->pf_len = t->len;
    if ((reads & SUNSET_READS_SPLICES) && text_join_splices(t->data, t->len, &t->joined) && !t->joined.oom) {
        t->pf_data = t->joined.s;
        t->pf_len = t->joined.len;
    }
}

/* The content cache (src/core/cache.c) for one file: its key and digest, whether its result
 * may be stored, and what the worker's result held before it (a store takes what came after). */
typedef struct file_cache {
    uint64_t key, digest;
    bool store;
    size_t first_finding, first_warning;
    sunset_stats before;
} file_cache;

/* Look the file up: the index's entry first (the path's and bytes' alone, cached whatever the
 * findings are), then its findings. Files with sunset-ignore comments are not cached: an until=
 * date makes their result depend on the day. true = the file's findings and counters were
 * replayed, nothing left to do. */
#define CACHE_TAG_XFLOW 0x574f4c46u /* a Python module's exports (core/xflow.c) */

typedef struct export_take {
    xflow *xf;
    const char *path;
    bool found;
} export_take;

static bool take_exports(void *ud, void *bytes, size_t n) {
    export_take *t = ud;
    t->found = xflow_note_exports(t->xf, t->path, bytes, n && ((char *)bytes)[0] != '\n' ? n : 0) != NULL;
    return false; /* copied: the entry stays the cache's */
}

static bool cache_lookup(worker *w, const sunset_sink *sink, file_cache *c) {
    sunset_engine *e = w->e;
    const sunset_source *src = sink->src;
    *c = (file_cache){.first_finding = w->res.n_findings, .first_warning = w->res.n_warnings,
                      .before = w->res.stats, .store = e->o->cache && !sink->has_marker};
    if (e->o->cache) {
        c->key = sunset_cache_key(src->path, src->data, src->len);
        c->digest = sunset_cache_digest(src->data, src->len);
    }
    if (e->o->indexer && src->lang != SUNSET_LANG_NONE && !w->premarks) index_file(e, src, c->key, c->digest);
    if (!c->store) return false;
    /* one path and content, tied to Paddle in its tree and not in another tree */
    if (e->tree_anchored) c->key = hash64("tree", 4, c->key);
    if (e->tree_off_key) c->key = hash64(&e->tree_off_key, sizeof e->tree_off_key, c->key); /* rules kept on */
    if (w->premarks) { /* scanned under another module's exports: they are part of the key */
        uint64_t km = xflow_key_material(w->premarks);
        c->key = hash64(&km, sizeof km, c->key);
    }
    /* a module whose exports the cache lost is scanned again: its importers need them */
    export_take t = {e->xf, src->path, false};
    if (sink->exports && (sunset_cache_take_blob(e->o->cache, CACHE_TAG_XFLOW, c->key, src->len, c->digest,
                                                 take_exports, &t, NULL), !t.found))
        return false;
    return sunset_cache_replay(e->o->cache, c->key, src->len, c->digest, src->path, &w->res);
}

/* The path rules of the file's language: they need no parse. */
static void match_path_rules(worker *w, sunset_sink *sink) {
    const char *path = sink->src->path;
    sunset_lang lang = sink->src->lang;
    if (lang == SUNSET_LANG_NONE) return;
    const vec *pr = &w->e->rs->path_rules;
    for (size_t i = 0; i < pr->n; i++) {
        const sunset_rule *r = VEC_AT(pr, sunset_rule *, i);
        if (!(r->lang_mask & (1u << lang))) continue;
        if (strtest_match(&r->path, path, strlen(path), w->md))
            add_cand(sink, r, (sunset_span){1, 1, 1, 1}, SUNSET_CTX_CODE, path, strlen(path));
    }
}

/* The file's frontend, when its language has one and the prefilter (on pf_data) lets the file
 * through, then the code it embeds. false = the frontend failed: the result must not be cached,
 * since a replay would lose the record of the failure. */
static bool match_by_frontend(worker *w, sunset_sink *sink, const char *pf_data, size_t pf_len) {
    sunset_engine *e = w->e;
    sunset_stats *st = &w->res.stats;
    const sunset_source *src = sink->src;
    if (src->lang == SUNSET_LANG_NONE || e->fe_of_lang[src->lang] < 0) {
        st->skipped_no_language++;
        return true;
    }
    bool ok = true;
    st->files_scanned++;
    if (!w->premarks && !may_match(w, src->lang, src->path, pf_data, pf_len)) {
        st->files_prefiltered++;
    } else {
        int fi = e->fe_of_lang[src->lang];
        const sunset_frontend *fe = e->o->frontends[fi];
        if (!w->fe_worker[fi]) w->fe_worker[fi] = fe->worker_new(e->fe_state[fi]);
        if (!w->fe_worker[fi]) {
            warnf(w, "%s: warning: skipped: out of memory starting the %s frontend", src->path, fe->name);
            st->skipped_parse_failed++;
        } else if (frontend_scan(w, fe, fi, src, sink) != 0) {
            st->skipped_parse_failed++;
            skipped(w, src->path, 0, "unparsable");
            ok = false;
        } else {
            st->files_parsed++;
        }
    }
    scan_embedded(w, sink);
    return ok;
}

/* A file admitted to the scan, in lang, as the toolchain reads it: anchoring, the cache, path
 * rules, the frontend, then the file's candidates reduced to findings (and stored). */
static void scan_text(worker *w, const char *path, const char *fspath, const file_text *t, sunset_lang lang) {
    sunset_engine *e = w->e;
    memset(w->rule_ok, -1, e->n_rules ? e->n_rules : 1);
    sunset_source src = {path, fspath, t->data, t->len, lang};
    sunset_sink sink = {.w = w, .src = &src, .cands = VEC_INIT(cand), .scopes = VEC_INIT(scope)};
    sink.anchored = e->o->anchor_all || e->tree_anchored ||
                    anchor_by_file(&e->rs->anchor, path, t->data, t->len, w->md);
    /* every file is searched for the marker; the strided prefilter does it at a tenth of the
     * probes memmem makes (memmem was 2.5% of a cold scan's CPU, perf) */
    sink.has_marker = prefilter_match(e->marker, t->data, t->len);
    /* a module of the scan: its imports and exports for the modules importing it (xflow.h);
     * one scanned under their exports is anchored by them */
    sb exports = {0};
    if (e->xf && !w->premarks && e->rs->flow_rules[lang].n && xflow_has(e->xf, path)) {
        xflow_note_imports(e->xf, path, t->data, t->len);
        sink.exports = &exports;
    }
    sink.anchored |= w->premarks != NULL;
    file_cache c;
    if (cache_lookup(w, &sink, &c)) return;
    sink.flow_lang = lang;
    if (e->rs->flow_rules[lang].n) sink.flow = flow_file_new(); /* NULL (OOM): no flow */
    premark(&sink);
    match_path_rules(w, &sink);
    if (!match_by_frontend(w, &sink, t->pf_data, t->pf_len)) c.store = false;
    if (!finish_file(&sink)) c.store = false;
    const char *kept = sink.exports && !exports.oom ? xflow_note_exports(e->xf, path, exports.s, exports.len) : NULL;
    sb_free(&exports);
    if (sink.exports && !kept) c.store = false;
    if (c.store) {
        sunset_cache_store(e->o->cache, c.key, t->len, c.digest, &w->res, c.first_finding, c.first_warning,
                           &c.before);
        if (kept) sunset_cache_put_blob(e->o->cache, CACHE_TAG_XFLOW, c.key, t->len, c.digest, kept, strlen(kept), NULL);
    }
}

/* Scan one file; mem NULL = read it from root/path. */
static void scan_one(worker *w, const char *root, const char *path, const char *mem, size_t memlen) {
    sb fspath = {0};
    sb_printf(&fspath, "%s/%s", root, path);
    file_text t = {.data = mem, .len = memlen};
    sunset_lang lang;
    if (read_input(w, path, &fspath, &t.data, &t.len) && admit_file(w, path, t.data, t.len, &lang)) {
        read_as_toolchain(&t, lang);
        scan_text(w, path, fspath.s, &t, lang);
    }
    sb_free(&fspath);
    sb_free(&t.folded);
    sb_free(&t.joined);
}

static worker *worker_new(sunset_engine *e) {
    worker *w = sunset_calloc(1, sizeof *w);
    if (!w) return NULL;
    w->e = e;
    w->md = sunset_re_match_data(32);
    w->rule_ok = sunset_malloc(e->n_rules ? e->n_rules : 1);
    if (!w->md || !w->rule_ok) {
        pcre2_match_data_free(w->md);
        sunset_free(w->rule_ok);
        sunset_free(w);
        return NULL;
    }
    return w;
}

static void worker_free(worker *w) {
    if (!w) return;
    for (size_t i = 0; i < N_FRONTENDS; i++)
        if (w->fe_worker[i]) w->e->o->frontends[i]->worker_free(w->fe_worker[i]);
    pcre2_match_data_free(w->md);
    sunset_free(w->rule_ok);
    sb_free(&w->readbuf);
    sunset_result_free(&w->res);
    sunset_free(w);
}

typedef struct pool {
    sunset_engine *e;
    const char *root;
    char *const *paths;
    size_t n;
    atomic_size_t next, done;
    worker **workers;
} pool;

static void *pool_run(void *arg) {
    void **a = arg;
    pool *p = a[0];
    worker *w = a[1];
    for (;;) {
        size_t i = atomic_fetch_add(&p->next, 1);
        if (i >= p->n) break;
        scan_one(w, p->root, p->paths[i], NULL, 0);
        atomic_fetch_add(&p->done, 1);
    }
    return NULL;
}

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int cores(void) {
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

/* The second pass of the cross-module flow: an importer scanned again under its premarks,
 * whose findings replace its first ones (its counters and warnings are the first scan's). */
typedef struct rescan {
    worker *w;
    const char *root;
    sunset_result *res;
    int rc;
} rescan;

static void rescan_importer(void *ud, const char *path, const char *premarks) {
    rescan *r = ud;
    worker *w = r->w;
    sunset_result_free(&w->res);
    memset(&w->res, 0, sizeof w->res);
    w->premarks = premarks;
    scan_one(w, r->root, path, NULL, 0);
    w->premarks = NULL;
    bool *keep = sunset_malloc(r->res->n_findings ? r->res->n_findings : 1);
    if (!keep) {
        r->rc = -1;
        return;
    }
    for (size_t i = 0; i < r->res->n_findings; i++) keep[i] = strcmp(r->res->findings[i].path, path) != 0;
    sunset_result_keep(r->res, keep);
    sunset_free(keep);
    for (size_t i = 0; i < w->res.n_findings; i++)
        if (!sunset_result_add(r->res, &w->res.findings[i])) r->rc = -1;
    sunset_result_free(&w->res);
    memset(&w->res, 0, sizeof w->res);
}

int sunset_engine_scan(sunset_engine *e, const char *root, char *const *paths, size_t n,
                       sunset_result *res) {
    double t0 = now_ms();
    e->xf = NULL;
    if (e->rs->flow_rules[SUNSET_LANG_PYTHON].n && (e->xf = xflow_new(e->rs, paths, n)) && !vec_push(&e->xflows, &e->xf)) {
        xflow_free(e->xf);
        e->xf = NULL;
    }
    e->tree_anchored = anchor_tree(&e->rs->anchor, root, e->o->tree_top);
    engine_set_tree_off(e, root, NULL, NULL);
    int jobs = e->o->jobs > 0 ? e->o->jobs : cores();
    if ((size_t)jobs > n) jobs = n ? (int)n : 1;
    pool p = {e, root, paths, n, 0, 0, NULL};
    worker **ws = sunset_calloc((size_t)jobs, sizeof(worker *));
    pthread_t *th = sunset_calloc((size_t)jobs, sizeof(pthread_t));
    void *(*args)[2] = sunset_calloc((size_t)jobs, sizeof *args);
    bool *started = sunset_calloc((size_t)jobs, sizeof(bool));
    int rc = 0;
    if (!ws || !th || !args || !started) {
        rc = -1;
        goto cleanup;
    }
    for (int i = 0; i < jobs; i++) {
        if (!(ws[i] = worker_new(e))) {
            rc = -1;
            goto cleanup;
        }
        args[i][0] = &p;
        args[i][1] = ws[i];
    }
    if (jobs == 1) {
        pool_run(args[0]);
    } else {
        for (int i = 0; i < jobs; i++)
            started[i] = pthread_create(&th[i], NULL, pool_run, args[i]) == 0;
        /* a thread that could not start leaves its share to the others */
        bool any = false;
        for (int i = 0; i < jobs; i++) any |= started[i];
        if (!any) pool_run(args[0]);
        if (e->o->progress) {
            double last = 0;
            bool shown = false;
            while (atomic_load(&p.done) < n) {
                struct timespec ts = {0, 100 * 1000 * 1000};
                nanosleep(&ts, NULL);
                double t = now_ms() - t0;
                if (t > 1000 && t - last >= 200) {
                    sunset_note("\rsunset: %zu/%zu files", atomic_load(&p.done), n);
                    last = t;
                    shown = true;
                }
                bool alive = false;
                for (int i = 0; i < jobs; i++) alive |= started[i];
                if (!alive) break;
            }
            /* the line ends at the total it counted to, and stays: a count left at n-1 (the
             * last files finish between two updates) reads as a scan that stopped */
            if (shown)
                sunset_note("\rsunset: %zu/%zu files, %.1f s\033[K\n", atomic_load(&p.done), n,
                            (now_ms() - t0) / 1000);
        }
        for (int i = 0; i < jobs; i++)
            if (started[i]) pthread_join(th[i], NULL);
    }
    for (int i = 0; i < jobs; i++)
        if (sunset_result_absorb(res, &ws[i]->res)) rc = -1;
    if (e->xf) {
        rescan rs = {ws[0], root, res, 0};
        xflow_importers(e->xf, rescan_importer, &rs);
        if (rs.rc) rc = -1;
    }
    res->stats.files_seen += n;
    res->stats.jobs = jobs;
    res->stats.elapsed_ms += now_ms() - t0;
    res->families = e->families;
    res->n_families = e->rs->families.n;
    sunset_result_finish(res);
cleanup:
    for (int i = 0; ws && i < jobs; i++) worker_free(ws[i]);
    sunset_free(ws);
    sunset_free(th);
    sunset_free(args);
    sunset_free(started);
    return rc;
}

bool sunset_engine_set_tree(sunset_engine *e, bool (*exists)(void *ud, const char *path), void *ud) {
    e->tree_anchored = anchor_tree_by(&e->rs->anchor, exists, ud);
    engine_set_tree_off(e, NULL, exists, ud);
    return e->tree_anchored;
}

int sunset_engine_scan_buffer(sunset_engine *e, const char *path, const char *data, size_t len,
                              sunset_result *res) {
    worker *w = worker_new(e);
    if (!w) return -1;
    scan_one(w, ".", path, data, len);
    int rc = sunset_result_absorb(res, &w->res);
    res->stats.files_seen++;
    res->families = e->families;
    res->n_families = e->rs->families.n;
    worker_free(w);
    sunset_result_finish(res);
    return rc;
}

struct sunset_worker {
    worker *w;
};

sunset_worker *sunset_worker_new(sunset_engine *e) {
    sunset_worker *sw = sunset_calloc(1, sizeof *sw);
    if (!sw) return NULL;
    if (!(sw->w = worker_new(e))) {
        sunset_free(sw);
        return NULL;
    }
    return sw;
}

void sunset_worker_free(sunset_worker *sw) {
    if (!sw) return;
    worker_free(sw->w);
    sunset_free(sw);
}

int sunset_worker_scan(sunset_worker *sw, const char *path, const char *data, size_t len,
                       sunset_result *res) {
    worker *w = sw->w;
    scan_one(w, ".", path, data, len);
    int rc = sunset_result_absorb(res, &w->res);
    /* merge moved the findings; reset the worker's own counters for the next file */
    sunset_result_free(&w->res);
    res->stats.files_seen++;
    res->families = w->e->families;
    res->n_families = w->e->rs->families.n;
    return rc;
}
