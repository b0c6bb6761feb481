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
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/checkout.h"
#include "base/normalize.h"
#include "core/anchor.h"
#include "core/cache.h"
#include "core/xflow.h"
#include "core/flow.h"
#include "core/lang.h"
#include "core/prefilter.h"
#include "core/rules_int.h"
#include "core/suppress.h"



/* Start of `line` (1-based), or NULL past the end. Matches arrive, and findings are built,
 * mostly in line order: the cursor keeps that linear instead of rescanning from the top. */
const char *engine_seek_line(sunset_sink *s, uint32_t line) {
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

void engine_warnf(worker *w, const char *fmt, ...) {
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

/* The statement a frontend left to be asked (sunset_emit_lazy), asked once: kept when it holds
 * the line of the fact or text being matched. */
static void stmt_resolve(sunset_sink *s) {
    if (!s->stmt_fn) return;
    sunset_span st = s->stmt_fn(s->stmt_ud);
    s->stmt_fn = NULL;
    if (st.line && st.line <= s->stmt_line && st.end_line >= s->stmt_line) s->stmt = st;
}

void engine_add_cand(sunset_sink *s, const sunset_rule *r, sunset_span span, sunset_context ctx,
                     const char *text, size_t len) {
    if (s->cands.n >= MAX_FILE_CANDS) {
        s->capped = true;
        return;
    }
    if (!rule_applies(s->w, r, s->src->path)) return;
    stmt_resolve(s);
    if (s->code_pending && ctx == SUNSET_CTX_STRING) {
        s->code_string = sunset_string_is_code(&s->w->e->rs->remnants, s->code_use, s->code_call, s->code_arg);
        s->code_pending = false;
    }
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
                if (clause_match_rest(c, f, md)) engine_add_cand(s, c->rule, f->span, f->ctx, shown, shown_len);
            }
        }
    }
    if (!ix->all.n) return;
    const char *text = f->text ? f->text : "";
    size_t len = f->text ? f->text_len : 0;
    /* the union of the clauses' regexes: a mismatch rules them all out; an error rules out
     * nothing (each clause's own regex reports it) */
    if (ix->any_re && (!relit_may_match(ix->any_lit, text, len) ||
                       re_match_rc(ix->any_re, text, len, 0, md) == PCRE2_ERROR_NOMATCH))
        return;
    bool narrow = k == SUNSET_FACT_LINE || k == SUNSET_FACT_STRING;
    for (size_t i = 0; i < ix->all.n; i++) {
        const clause *c = VEC_AT(&ix->all, clause *, i);
        if (!clause_match_rest(c, f, md)) continue;
        if (!c->main.re) {
            engine_add_cand(s, c->rule, f->span, f->ctx, shown ? shown : text, shown ? shown_len : len);
            continue;
        }
        if (!relit_may_match(c->main.lit, text, len)) continue; /* its literals are not in the text */
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
            engine_add_cand(s, c->rule, sp, f->ctx, text + so, eo - so);
        } else {
            engine_add_cand(s, c->rule, f->span, f->ctx, shown ? shown : text, shown ? shown_len : len);
        }
    }
}

/* ---- the sink API (sunset.h) ---- */

/* The fact, its statement in s->stmt or left to s->stmt_fn. */
static void emit_fact(sunset_sink *s, const sunset_fact *f) {
    if (s->flow) {
        stmt_resolve(s);
        sunset_fact g = *f;
        g.stmt = s->stmt;
        flow_fact(s->flow, &g);
    }
    if (!s->anchored) s->anchored = anchor_by_fact(&s->w->e->rs->anchor, s->src->lang, f, s->w->md);
    if (f->kind != SUNSET_FACT_BIND) match_fact(s, f->kind, f);
    s->stmt = (sunset_span){0, 0, 0, 0};
    s->stmt_fn = NULL;
}

static bool fact_ok(const sunset_fact *f) {
    return (unsigned)f->kind < SUNSET_FACT_KIND_COUNT && (unsigned)f->ctx < SUNSET_CTX_COUNT;
}

void sunset_emit(sunset_sink *s, const sunset_fact *f) {
    if (!fact_ok(f)) return;
    /* a statement that does not hold the fact's line is a frontend's slip: ignore it */
    if (f->stmt.line && f->stmt.line <= f->span.line && f->stmt.end_line >= f->span.line)
        s->stmt = f->stmt;
    emit_fact(s, f);
}

void sunset_emit_lazy(sunset_sink *s, const sunset_fact *f, sunset_stmt_fn stmt, void *ud) {
    if (!fact_ok(f)) return;
    s->stmt_fn = stmt;
    s->stmt_ud = ud;
    s->stmt_line = f->span.line;
    emit_fact(s, f);
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
    /* whole-text string rules: literals and docstrings, comments for a rule that asks */
    if (ctx != SUNSET_CTX_COMMENT || rs->comment_strings[lang]) {
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

/* Whether the string being emitted is one code uses, left to its first candidate (engine_add_cand). */
static void code_ask(sunset_sink *s, sunset_str_use use, const char *call, int arg) {
    s->code_string = false;
    s->code_pending = true;
    s->code_use = use;
    s->code_call = call;
    s->code_arg = arg;
}

void sunset_emit_string(sunset_sink *s, sunset_span at, const char *text, size_t len, const char *call,
                        sunset_str_use use, int arg, sunset_span stmt) {
    code_ask(s, use, call, arg);
    sunset_emit_text_stmt(s, SUNSET_CTX_STRING, at, text, len, call, stmt);
    s->code_string = s->code_pending = false;
}

void sunset_emit_string_lazy(sunset_sink *s, sunset_span at, const char *text, size_t len, const char *call,
                             sunset_str_use use, int arg, sunset_stmt_fn stmt, void *ud) {
    code_ask(s, use, call, arg);
    s->stmt_fn = stmt;
    s->stmt_ud = ud;
    s->stmt_line = at.line;
    sunset_emit_text(s, SUNSET_CTX_STRING, at, text, len, call);
    s->stmt = (sunset_span){0, 0, 0, 0};
    s->stmt_fn = NULL;
    s->code_string = s->code_pending = false;
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
        const char *d = engine_seek_line(s, span.line), *end = s->src->data + s->src->len;
        if (d && span.col >= 1 && span.end_col >= span.col &&
            (size_t)(end - d) >= (size_t)span.end_col - 1) {
            p = d + span.col - 1;
            n = span.end_col - span.col;
        }
    }
    engine_add_cand(s, rule, span, ctx, p, n);
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
    engine_warnf(s->w, "%s:%u:%u: warning: %s", s->src->path, line, col, msg);
}

/* A file read but not analysed: recorded with its reason for the gate (which fails closed on
 * a changed one); an OOM here only loses the record, the counter stays right. */
static void skipped(worker *w, const char *path, uint32_t line, const char *why) {
    if (sunset_result_add_skip(&w->res, path, line, why)) engine_warnf(w, "%s: warning: out of memory", path);
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
    s->stmt_fn = NULL;
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

static bool take_index(void *ud, const void *bytes, size_t n) {
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
    if (cached && sunset_cache_take_blob(e->o->cache, SUNSET_CACHE_TAG_INDEX, key, src->len, digest, take_index, &u))
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
        engine_warnf(w, "%s: warning: skipped: larger than the %zu-byte limit (--max-filesize)", path, cap);
        return false;
    }
    if (in_memory) return true;
    if (err) {
        st->skipped_unreadable++;
        skipped(w, path, 0, "unreadable");
        engine_warnf(w, "%s: warning: skipped: %s", path, strerror(err));
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
enum { ADMITTED, SKIP_BINARY, SKIP_GENERATED, SKIP_OTHER };

/* Record a skip of kind SKIP_BINARY or SKIP_GENERATED (line: the generator's marker, or 0). */
static void skip_as(worker *w, const char *path, uint32_t kind, uint32_t line) {
    sunset_stats *st = &w->res.stats;
    if (kind == SKIP_BINARY) {
        st->skipped_binary++;
        skipped(w, path, 0, "binary (a NUL byte in the first 8000 bytes)");
    } else {
        st->skipped_generated++;
        skipped(w, path, line, line ? "generated (a generator's marker; --include-generated scans it)"
                                    : "generated (its name; --include-generated scans it)");
    }
}

/* *kind: ADMITTED, or why not (SKIP_*), *line the generator's marker's. */
static bool admit_file(worker *w, const char *path, const char *data, size_t len, sunset_lang *lang, uint32_t *kind,
                       uint32_t *line) {
    sunset_engine *e = w->e;
    sunset_stats *st = &w->res.stats;
    *kind = SKIP_OTHER;
    *line = 0;
    if (memchr(data, 0, len < 8000 ? len : 8000)) {
        skip_as(w, path, *kind = SKIP_BINARY, 0);
        return false;
    }
    uint32_t gen_line = 0;
    if ((!e->o->judge_own_output && sunset_own_output(data, len)) ||
        (!e->o->include_generated && sunset_ruleset_is_generated(e->rs, path, data, len, w->md, &gen_line))) {
        skip_as(w, path, *kind = SKIP_GENERATED, *line = gen_line);
        return false;
    }
    *lang = sunset_lang_for_file(path, data, len);
    char enc[64];
    if (sunset_lang_foreign_encoding(*lang, data, len, enc, sizeof enc)) {
        /* read as bytes, such a file could spell any name unseen (a UTF-7 "+AAo-" is a newline) */
        st->skipped_parse_failed++;
        skipped(w, path, 1, "unparsable: a source encoding sunset does not read");
        engine_warnf(w, "%s:1:1: warning: skipped: source encoding '%s' (only UTF-8 and ASCII are read)", path, enc);
        return false;
    }
    *kind = ADMITTED;
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
    uint64_t content_key; /* key before findings_key: the content's (the index entry's too) */
    bool store;
    size_t first_finding, first_warning;
    sunset_stats before;
} file_cache;

/* The findings' key of a content key: one path and content, tied to Paddle in its tree and
 * not in another tree, with the rules kept on there. */
static uint64_t findings_key(const sunset_engine *e, uint64_t key) {
    if (e->tree_anchored) key = hash64("tree", 4, key);
    if (e->tree_off_key) key = hash64(&e->tree_off_key, sizeof e->tree_off_key, key);
    return key;
}

/* The findings' key of this scan of the file: scanned under another module's exports (an
 * importer's second scan), they are part of it. */
static uint64_t scan_key(const worker *w, uint64_t key) {
    key = findings_key(w->e, key);
    if (w->premarks) {
        uint64_t km = xflow_key_material(w->premarks);
        key = hash64(&km, sizeof km, key);
    }
    return key;
}

/* ---- the cross-module flow's side entries (core/xflow.h) ---- */

#define CACHE_TAG_XFLOW 0x574f4c46u    /* a Python module's exports, under its findings' key */
#define CACHE_TAG_XIMPORTS 0x504d4958u /* its import statements, under its content's key */

typedef struct export_take {
    xflow *xf;
    const char *path;
    bool found;
} export_take;

static bool take_exports(void *ud, const void *bytes, size_t n) {
    export_take *t = ud;
    t->found = xflow_note_exports(t->xf, t->path, bytes, n && ((const char *)bytes)[0] != '\n' ? n : 0) != NULL;
    return false; /* copied: the entry stays the cache's */
}

static bool take_copy(void *ud, const void *bytes, size_t n) {
    sb_putn(ud, bytes, n);
    return false; /* copied: the entry stays the cache's */
}

/* Is the file a module of this scan's cross-module flow, whose imports and exports its
 * importers need (a first scan, not one under another module's exports)? */
static bool in_xflow(const worker *w, const char *path, sunset_lang lang) {
    const sunset_engine *e = w->e;
    return e->xf && !w->premarks && e->rs->flow_rules[lang].n && xflow_has(e->xf, path);
}

/* What a file the git index vouches for was read as: its text's key, digest and length (after
 * read_as_toolchain), its language and the bytes read; a record of the cache under the path,
 * the blob id and the options that decide whether a file is admitted (vouch_key). */
typedef struct vouch_rec {
    uint64_t key, digest, len, raw_len;
    uint32_t lang;
    uint32_t kind, line; /* ADMITTED, or a skip (SKIP_BINARY, SKIP_GENERATED at line) */
    uint32_t zero;
} vouch_rec;

static uint64_t vouch_key(const sunset_engine *e, const char *path, uint64_t blob) {
    uint64_t v[4] = {blob, e->o->include_generated, e->o->judge_own_output, e->o->max_file_size};
    return hash64(v, sizeof v, hash64(path, strlen(path), 0x3c6ef372fe94f82bull));
}

/* Does a vouched file's replay take its index entry (a second scan's was the first's)? */
static bool vouched_indexed(const worker *w, const sunset_source *src) {
    return w->e->o->indexer && src->lang != SUNSET_LANG_NONE && !w->premarks;
}

/* An admitted vouched file's index entry, then its findings (under fkey), from the cache. false = read it
 * (w->indexed says whether its index entry was taken already). */
static bool replay_vouched(worker *w, const char *path, const vouch_rec *r, uint64_t fkey) {
    sunset_engine *e = w->e;
    const sunset_indexer *ix = e->o->indexer;
    sunset_source src = {path, NULL, NULL, (size_t)r->len, (sunset_lang)r->lang};
    if (vouched_indexed(w, &src)) { /* a second scan: indexed by the first */
        index_take u = {ix, &src};
        if (!ix->adopt || !ix->export_fn ||
            !sunset_cache_take_blob(e->o->cache, SUNSET_CACHE_TAG_INDEX, r->key, src.len, r->digest, take_index, &u))
            return false;
        w->indexed = true;
    }
    if (!sunset_cache_replay(e->o->cache, fkey, src.len, r->digest, path, &w->res)) return false;
    w->res.stats.bytes_read += r->raw_len;
    return true;
}

/* The entries a vouched file's replay looks up (its findings under fkey, its index entry, a
 * module's imports and its exports under xkey), fetched together: one after the other, each
 * lookup was a miss or two into the cache's table. */
static void prefetch_vouched(worker *w, const char *path, const vouch_rec *r, bool flow, uint64_t fkey,
                             uint64_t xkey) {
    sunset_source src = {path, NULL, NULL, (size_t)r->len, (sunset_lang)r->lang};
    uint32_t tags[4];
    uint64_t keys[4];
    size_t n = 0;
    tags[n] = 0, keys[n++] = fkey;
    if (vouched_indexed(w, &src)) tags[n] = SUNSET_CACHE_TAG_INDEX, keys[n++] = r->key;
    if (flow) {
        tags[n] = CACHE_TAG_XIMPORTS, keys[n++] = r->key;
        tags[n] = CACHE_TAG_XFLOW, keys[n++] = xkey;
    }
    sunset_cache_prefetch(w->e->o->cache, tags, keys, n);
}

/* A vouched file replayed without a read. A module of the cross-module flow notes what its
 * text would have (scan_text): its import statements and its exports, kept beside its entry;
 * without both it is read. false = read it. */
static bool scan_vouched(worker *w, const char *path) {
    sunset_engine *e = w->e;
    vouch_rec r;
    if (!sunset_cache_get_rec(e->o->cache, SUNSET_CACHE_TAG_VOUCH, vouch_key(e, path, w->blob), w->blob, &r,
                              sizeof r) ||
        r.lang >= SUNSET_LANG_COUNT || r.zero || r.kind > SKIP_GENERATED)
        return false;
    if (r.kind != ADMITTED) { /* skipped as it was, unread */
        skip_as(w, path, r.kind, r.line);
        w->res.stats.bytes_read += r.raw_len;
        return true;
    }
    sb imports = {0}, exports = {0};
    bool flow = in_xflow(w, path, (sunset_lang)r.lang);
    uint64_t fkey = scan_key(w, r.key), xkey = findings_key(e, r.key);
    prefetch_vouched(w, path, &r, flow, fkey, xkey);
    if (flow) {
        sunset_cache_take_blob(e->o->cache, CACHE_TAG_XIMPORTS, r.key, r.len, r.digest, take_copy, &imports);
        sunset_cache_take_blob(e->o->cache, CACHE_TAG_XFLOW, xkey, r.len, r.digest, take_copy, &exports);
    }
    bool ok = (!flow || (imports.len && exports.len && !imports.oom && !exports.oom)) &&
              replay_vouched(w, path, &r, fkey);
    if (ok && flow) {
        xflow_note_imports(e->xf, path, imports.s, imports.len, false);
        xflow_note_exports(e->xf, path, exports.s, exports.s[0] != '\n' ? exports.len : 0);
    }
    sb_free(&imports);
    sb_free(&exports);
    return ok;
}

/* After a vouched file's result was stored: the record, when the file is still as the index
 * vouched for it (the same stamp after the read: no write in between). */
static void note_vouched(worker *w, const char *path, const char *fspath, const vouch_rec *rec) {
    struct stat st;
    if (!w->blob || lstat(fspath, &st) != 0 || sunset_stat_stamp(&st) != w->stamp) return;
    vouch_rec r = *rec;
    r.raw_len = w->raw_len;
    sunset_cache_put_rec(w->e->o->cache, SUNSET_CACHE_TAG_VOUCH, vouch_key(w->e, path, w->blob), w->blob,
                         &r, sizeof r);
}

/* Look the file up: the index's entry first (the path's and bytes' alone, cached whatever the
 * findings are), then its findings. Files with sunset-ignore comments are not cached: an until=
 * date makes their result depend on the day. true = the file's findings and counters were
 * replayed, nothing left to do. */
static bool cache_lookup(worker *w, const sunset_sink *sink, file_cache *c) {
    sunset_engine *e = w->e;
    const sunset_source *src = sink->src;
    *c = (file_cache){.first_finding = w->res.n_findings, .first_warning = w->res.n_warnings,
                      .before = w->res.stats, .store = e->o->cache && !sink->has_marker};
    if (e->o->cache) {
        c->key = c->content_key = sunset_cache_key(src->path, src->data, src->len);
        c->digest = sunset_cache_digest(src->data, src->len);
    }
    if (e->o->indexer && src->lang != SUNSET_LANG_NONE && !w->premarks && !w->indexed)
        index_file(e, src, c->key, c->digest);
    if (!c->store) return false;
    c->key = scan_key(w, c->key);
    /* a module whose exports the cache lost is scanned again: its importers need them */
    export_take t = {e->xf, src->path, false};
    if (sink->exports && (sunset_cache_take_blob(e->o->cache, CACHE_TAG_XFLOW, c->key, src->len, c->digest,
                                                 take_exports, &t), !t.found))
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
            engine_add_cand(sink, r, (sunset_span){1, 1, 1, 1}, SUNSET_CTX_CODE, path, strlen(path));
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
            engine_warnf(w, "%s: warning: skipped: out of memory starting the %s frontend", src->path, fe->name);
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
    /* a second scan that could not change the first's findings (uncached: with the cache on it
     * is run, so that its entry is there for the next run) */
    if (w->premarks && !e->o->cache && xflow_rescan_moot(e->xf, path, w->premarks, t->data, t->len)) {
        w->moot = true;
        return;
    }
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
    const char *imports = NULL; /* kept for the cache when a replay could need them (scan_vouched) */
    bool module = in_xflow(w, path, lang);
    if (module) {
        imports = xflow_note_imports(e->xf, path, t->data, t->len, w->blob != 0);
        sink.exports = &exports;
    }
    sink.anchored |= w->premarks != NULL;
    file_cache c;
    if (cache_lookup(w, &sink, &c)) return;
    sink.flow_lang = lang;
    if (e->rs->flow_rules[lang].n) sink.flow = flow_file_new(); /* NULL (OOM): no flow */
    premark(&sink);
    match_path_rules(w, &sink);
    bool done = match_by_frontend(w, &sink, t->pf_data, t->pf_len);
    done &= engine_finish_file(&sink);
    if (!done) c.store = false;
    if (module && done && sink.anchored) xflow_note_anchored(e->xf, path);
    const char *kept = sink.exports && !exports.oom ? xflow_note_exports(e->xf, path, exports.s, exports.len) : NULL;
    sb_free(&exports);
    if (sink.exports && !kept) c.store = false;
    if (c.store) {
        sunset_cache_store(e->o->cache, c.key, t->len, c.digest, &w->res, c.first_finding, c.first_warning,
                           &c.before);
        if (kept) sunset_cache_put_blob(e->o->cache, CACHE_TAG_XFLOW, c.key, t->len, c.digest, kept, strlen(kept), NULL);
        if (imports)
            sunset_cache_put_blob(e->o->cache, CACHE_TAG_XIMPORTS, c.content_key, t->len, c.digest, imports,
                                  strlen(imports), NULL);
        vouch_rec r = {c.content_key, c.digest, t->len, 0, (uint32_t)lang, ADMITTED, 0, 0};
        if (!w->premarks) note_vouched(w, path, fspath, &r); /* a second scan's would be the first's */
    }
}

/* Scan one file; mem NULL = read it from root/path, unless the index vouches for it (blob,
 * stamp: sunset_engine_opts.blob_ids) and the cache knows it. */
static void scan_one(worker *w, const char *root, const char *path, const char *mem, size_t memlen, uint64_t blob,
                     uint64_t stamp) {
    w->blob = mem || !w->e->o->cache ? 0 : blob;
    w->stamp = stamp;
    w->indexed = false;
    if (w->blob && scan_vouched(w, path)) return;
    sb fspath = {0};
    sb_puts(&fspath, root); /* a file's path, every file: no format */
    sb_putc(&fspath, '/');
    sb_puts(&fspath, path);
    file_text t = {.data = mem, .len = memlen};
    sunset_lang lang;
    bool ok = read_input(w, path, &fspath, &t.data, &t.len);
    w->raw_len = t.len;
    uint32_t kind, line;
    if (ok && admit_file(w, path, t.data, t.len, &lang, &kind, &line)) {
        read_as_toolchain(&t, lang);
        scan_text(w, path, fspath.s, &t, lang);
    } else if (ok && (kind == SKIP_BINARY || kind == SKIP_GENERATED) && w->blob && !fspath.oom) {
        vouch_rec r = {0, 0, 0, 0, 0, kind, line, 0};
        note_vouched(w, path, fspath.s, &r);
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
        const sunset_engine_opts *o = p->e->o;
        scan_one(w, p->root, p->paths[i], NULL, 0, o->blob_ids ? o->blob_ids[i] : 0,
                 o->blob_stamps ? o->blob_stamps[i] : 0);
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

static void rescan_importer(void *ud, const char *path, size_t at, const char *premarks) {
    rescan *r = ud;
    worker *w = r->w;
    const sunset_engine_opts *o = w->e->o;
    sunset_result_free(&w->res);
    memset(&w->res, 0, sizeof w->res);
    w->premarks = premarks;
    w->moot = false;
    scan_one(w, r->root, path, NULL, 0, o->blob_ids ? o->blob_ids[at] : 0, o->blob_stamps ? o->blob_stamps[at] : 0);
    w->premarks = NULL;
    if (w->moot) { /* its first findings stand */
        sunset_result_free(&w->res);
        memset(&w->res, 0, sizeof w->res);
        return;
    }
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
    scan_one(w, ".", path, data, len, 0, 0);
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
    scan_one(w, ".", path, data, len, 0, 0);
    int rc = sunset_result_absorb(res, &w->res);
    /* merge moved the findings; reset the worker's own counters for the next file */
    sunset_result_free(&w->res);
    res->stats.files_seen++;
    res->families = w->e->families;
    res->n_families = w->e->rs->families.n;
    return rc;
}
