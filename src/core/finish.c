/*
 * finish.c — the scan engine's per-file finalisation (engine_finish_file, engine_int.h): a
 * file's candidates, once its frontend is done, reduced to the most specific rule where they
 * overlap, filtered by the rules' unless clauses, given severity, snippet, scope and test flag,
 * copied into the worker's result; then the file's sunset-ignore comments applied.
 */
#include "core/engine_int.h"

#include <stdlib.h>
#include <string.h>

#include "core/suppress.h"

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
    const char *d = engine_seek_line(s, line), *end = s->src->data + s->src->len;
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
    engine_add_cand(s, r, span, ctx, text, len);
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
        const char *d = engine_seek_line(s, c->span.line), *end = s->src->data + s->src->len;
        const char *nl = d ? memchr(d, '\n', (size_t)(end - d)) : NULL;
        if (d && re_search(r->unless_line, d, (size_t)((nl ? nl : end) - d), 0, s->w->md, &so, &eo))
            return true;
    }
    if (!r->unless_file && !r->unless_file_without) return false;
    if (!file_hit) return file_unless(s, r);
    if (file_hit[r->index] < 0) file_hit[r->index] = file_unless(s, r);
    return file_hit[r->index];
}

/* Is the match a name its unanchored rule shares with other projects ("unless.untied")? */
static bool untied_hit(const sunset_sink *s, const cand *c) {
    size_t so, eo;
    const char *m = c->matched ? c->matched : "";
    return c->rule->unless_untied && re_search(c->rule->unless_untied, m, strlen(m), 0, s->w->md, &so, &eo);
}

/* Drop the matches that do not count: an anchored rule's in a file not tied to Paddle (or a
 * rule's anchored in the file's language, or a name it shares with other projects), a
 * rule's the tree turns off, and those its rule's "unless" reads as another meaning. */
static void drop_cands(sunset_sink *s) {
    vec *cv = &s->cands;
    size_t nr = s->w->e->n_rules ? s->w->e->n_rules : 1, k = 0;
    signed char *file_hit = NULL; /* allocated for the first "unless" (NULL on OOM: no cache) */
    for (size_t i = 0; i < cv->n; i++) {
        cand *c = &VEC_AT(cv, cand, i);
        const sunset_rule *r = c->rule;
        bool tied_only = r->anchored || (r->anchored_langs >> s->src->lang & 1u) || untied_hit(s, c);
        bool drop = (!s->anchored && tied_only) || s->w->e->tree_off[r->index];
        bool by_file = r->unless_file || r->unless_file_without;
        if (!drop && by_file && !file_hit && (file_hit = sunset_malloc(nr))) memset(file_hit, -1, nr);
        if (!drop && (r->unless_line || by_file)) drop = unless_hit(s, c, file_hit);
        if (drop) sunset_free(c->matched);
        else VEC_AT(cv, cand, k++) = *c;
    }
    cv->n = k;
    sunset_free(file_hit);
}

/* One of the file's exports (flow_exports) as a line of core/xflow.c's: "FLOW-RULE\tname". */
static void export_line(void *ud, const sunset_rule *r, const char *name) { sb_printf(ud, "%s\t%s\n", r->id, name); }

/* Returns false when the result depends on the machine's speed (the flow was stopped by the
 * time limit): it is not to be cached. */
bool engine_finish_file(sunset_sink *s) {
    worker *w = s->w;
    vec *cv = &s->cands;
    bool timeless = true;
    if (s->flow) {
        flow_file *ff = s->flow;
        s->flow = NULL; /* its reports are not seeds */
        s->embedded = s->flow_lang != s->src->lang; /* the flow of a document's embedded code */
        /* a file not tied to Paddle exports nothing: its `ParallelExecutor` is its own, and what
         * it passes to another module's function must not bind that function's parameter */
        if (s->exports && s->anchored) flow_exports(ff, &w->e->rs->flow_rules[s->flow_lang], export_line, s->exports);
        flow_limits lim = {0, w->e->o->parse_budget_ms};
        flow_status fs = flow_finish(ff, &w->e->rs->flow_rules[s->flow_lang], w->md, &lim,
                                     flow_report, s);
        s->embedded = false;
        if (fs == FLOW_WORK_LIMIT)
            engine_warnf(w, "%s: warning: legacy-object flow stopped at its work limit (%llu steps); "
                  "uses of legacy objects may be missing", s->src->path,
                  (unsigned long long)flow_file_work(ff));
        else if (fs == FLOW_TIME_LIMIT)
            engine_warnf(w, "%s: warning: legacy-object flow stopped by the time limit (--parse-budget "
                  "%u ms); uses of legacy objects may be missing", s->src->path, lim.budget_ms);
        else if (fs == FLOW_OOM)
            engine_warnf(w, "%s: warning: out of memory in legacy-object flow; uses of legacy objects "
                  "may be missing", s->src->path);
        timeless = fs != FLOW_TIME_LIMIT;
        flow_file_free(ff);
    }
    drop_cands(s);
    if (s->capped)
        engine_warnf(w, "%s: warning: more than %d matches; the rest of this file is not reported",
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
        engine_warnf(w, "%s: warning: out of memory applying suppressions", s->src->path);
    return timeless;
}

