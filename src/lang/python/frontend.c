/*
 * python.c — the Python frontend. Each file is parsed with tree-sitter-python; the matches of
 * queries/python/facts.scm become facts (imports, class bases, calls, attributes, keyword
 * arguments, definitions, identifiers, strings, docstrings, comments) and scopes, and the rule
 * set's query rules are run with their predicates, which the 0.20 runtime leaves to the caller.
 *
 * Which node becomes which fact is decided by facts.scm's capture names (documented at the top
 * of that file); C adds only what a query cannot express: the innermost call whose argument
 * list holds a node and the enclosing classes/functions that qualify a scope name. Both come
 * from one sweep over the captures sorted in document order, with explicit stacks, so no code
 * here recurses over the syntax tree and a 10,000-deep expression cannot exhaust the stack.
 * The same sweep asks for node parents (a string's use, a binding's block) through one
 * tree cursor that follows it (parent.c), not ts_node_parent's walk from the root.
 *
 * A file is parsed in part when it can be (units.c: the top-level statements, and the body
 * statements of large classes, a rule may match in); everything is then read from that
 * parse, whose nodes keep the file's positions. When legacy-object flow may carry a binding
 * of the part into what was left out (sunset_sink_part_suffices), what the part reported is
 * forgotten and the whole file parsed.
 *
 * Query rules are compiled all together at init, so that a file is walked once for all of
 * them; one by one only to name the rule of an init error, and, for a file whose single walk
 * hits the match limit, to re-run them one by one and name the rule whose matches may be
 * missing.
 *
 * Ownership: the state (init/fini) owns the compiled queries and regexes; a worker owns its
 * parser, query cursor and regex match data; everything made for one file lives in a scan_ctx
 * that scan() frees before returning. Text handed to the sink points into src->data or into
 * the scan_ctx pool and is copied by the engine.
 */
#include "lang/python/python_int.h"
#include "lang/python/scan_int.h"

#include <ctype.h>
#include <stdatomic.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static uint32_t match_limit_override;

void sunset_python_set_match_limit(uint32_t limit) { match_limit_override = limit; }

static void py_fini(void *state) {
    py_state *st = state;
    if (!st) return;
    py_query_free(&st->facts);
    py_query_free(&st->all);
    for (size_t i = 0; i < st->nrules; i++) py_query_free(&st->rules[i]);
    sunset_free(st->rules);
    sunset_free(st->rule_of);
    sunset_free(st->facts_path);
    sunset_free(st->facts_text);
    sunset_free(st->lazy_error);
    if (st->lazy) pthread_mutex_destroy(&st->mu);
    pcre2_compile_context_free(st->cctx);
    pcre2_general_context_free(st->gctx);
    sunset_free(st);
}

/* Query rule i compiled alone into *pq. 0, or -1 with err naming the rule. */
static int compile_rule(const py_state *st, size_t i, pyquery *pq, sunset_error *err) {
    const char *q = sunset_rule_query(st->rule_of[i]);
    qsrc rw = {.rule = st->rule_of[i], .text = q, .len = strlen(q)};
    return py_query_compile(pq, st, &rw, err);
}

/* facts.scm (its text) and the rules' queries. 0, or -1 with err naming the file or rule. */
static int compile_queries(py_state *st, const char *text, size_t len, sunset_error *err) {
    qsrc fw = {.path = st->facts_path, .text = text, .len = len, .facts = true};
    if (py_query_compile(&st->facts, st, &fw, err) < 0) return -1;
    /* All rules in one query. Each is compiled alone only when there is one, or when the union
     * fails, to name the rule at fault: every compile costs ~1.3-2 ms before its patterns (the
     * 0.20 runtime analyses the grammar for it), and seven of them were 2% of a cold scan. */
    sunset_error whole = {{0}};
    if (st->nrules == 1 || (st->nrules > 1 && py_compile_all_rules(st, &whole) < 0)) {
        py_query_free(&st->all);
        for (size_t i = 0; i < st->nrules; i++)
            if (compile_rule(st, i, &st->rules[i], err) < 0) return -1;
        if (st->nrules > 1) { /* each alone compiles, their union does not */
            *err = whole;
            return -1;
        }
    }
    return 0;
}

/* A lazy state's queries, compiled by the first caller (the others wait): true when they are.
 * Compiled before under the same configuration, they fail here only out of memory. */
static bool py_ready(const py_state *cst) {
    py_state *st = (py_state *)(uintptr_t)cst; /* the lazily written part, under st->mu */
    if (!st->lazy || atomic_load(&st->ready)) return true;
    pthread_mutex_lock(&st->mu);
    if (!atomic_load(&st->ready) && !st->failed) {
        sunset_error err = {{0}};
        snprintf(err.msg, sizeof err.msg, "%s", PY_OOM_MSG);
        if (compile_queries(st, st->facts_text, st->facts_len, &err) == 0) atomic_store(&st->ready, true);
        else st->failed = true, st->lazy_error = sunset_strndup(err.msg, strlen(err.msg));
    }
    pthread_mutex_unlock(&st->mu);
    return atomic_load(&st->ready);
}

static int py_init(const sunset_frontend_config *cfg, void **state, sunset_error *err) {
    py_state *st = NULL;
    char *text = NULL;
    size_t len = 0;
    sb path = {0};
    int rc = -1;

    *state = NULL;
    snprintf(err->msg, sizeof err->msg, "%s", PY_OOM_MSG); /* replaced by any other error */
    uint32_t abi = ts_language_version(tree_sitter_python());
    if (abi < TREE_SITTER_MIN_COMPATIBLE_LANGUAGE_VERSION || abi > TREE_SITTER_LANGUAGE_VERSION) {
        snprintf(err->msg, sizeof err->msg,
                 "python frontend: grammar ABI %u is outside the tree-sitter runtime's %u..%u",
                 abi, (unsigned)TREE_SITTER_MIN_COMPATIBLE_LANGUAGE_VERSION,
                 (unsigned)TREE_SITTER_LANGUAGE_VERSION);
        goto cleanup;
    }
    st = sunset_calloc(1, sizeof *st);
    if (!st) goto cleanup;
    st->parse_budget_ms = cfg->parse_budget_ms;
    st->match_limit = match_limit_override ? match_limit_override : SUNSET_PYTHON_MATCH_LIMIT;
    st->sym_attribute = ts_language_symbol_for_name(tree_sitter_python(), "attribute", 9, true);
    st->sym_call = ts_language_symbol_for_name(tree_sitter_python(), "call", 4, true);
    st->gctx = pcre2_general_context_create(py_pc_malloc, py_pc_free, NULL);
    st->cctx = st->gctx ? pcre2_compile_context_create(st->gctx) : NULL;
    if (!st->cctx) goto cleanup;

    const char *dir = cfg->queries_dir && *cfg->queries_dir ? cfg->queries_dir : "queries";
    if (!sb_printf(&path, "%s/%s", dir, FACTS_FILE) || !(st->facts_path = sb_take(&path)))
        goto cleanup;
    int e = read_file(st->facts_path, 0, &text, &len);
    if (e) {
        snprintf(err->msg, sizeof err->msg, "%s: cannot read: %s", st->facts_path, strerror(e));
        goto cleanup;
    }
    size_t n = cfg->rules ? sunset_ruleset_query_count(cfg->rules, SUNSET_LANG_PYTHON) : 0;
    st->rules = sunset_calloc(n ? n : 1, sizeof *st->rules);
    st->rule_of = sunset_calloc(n ? n : 1, sizeof *st->rule_of);
    if (!st->rules || !st->rule_of) goto cleanup;
    for (size_t i = 0; i < n; i++) {
        const sunset_rule *rule = sunset_ruleset_query_at(cfg->rules, SUNSET_LANG_PYTHON, i);
        if (rule && sunset_rule_query(rule)) st->rule_of[st->nrules++] = rule;
    }
    if (cfg->lazy_queries) { /* known to compile: the first scan that needs them does it */
        if (pthread_mutex_init(&st->mu, NULL) != 0) goto cleanup;
        st->lazy = true;
        st->facts_text = text;
        st->facts_len = len;
        text = NULL;
    } else if (compile_queries(st, text, len, err) < 0) {
        goto cleanup;
    }
    *state = st;
    st = NULL;
    err->msg[0] = 0;
    rc = 0;
cleanup:
    sb_free(&path);
    sunset_free(text);
    py_fini(st);
    return rc;
}

static void py_worker_free(void *wp) {
    py_worker *w = wp;
    if (!w) return;
    if (w->parser) ts_parser_delete(w->parser);
    if (w->cursor) ts_query_cursor_delete(w->cursor);
    pcre2_match_data_free(w->md);
    pcre2_match_context_free(w->mctx);
    sunset_free(w);
}

static void *py_worker_new(void *state) {
    const py_state *st = state;
    py_worker *w = sunset_calloc(1, sizeof *w);
    if (!w) return NULL;
    w->st = st;
    w->parser = ts_parser_new();
    w->cursor = ts_query_cursor_new();
    w->md = pcre2_match_data_create(1, st->gctx);
    w->mctx = pcre2_match_context_create(st->gctx);
    if (w->mctx) pcre2_set_heap_limit(w->mctx, 256u * 1024u); /* KiB */
    if (!w->parser || !w->cursor || !w->md || !w->mctx ||
        !ts_parser_set_language(w->parser, tree_sitter_python())) {
        py_worker_free(w);
        return NULL;
    }
    ts_parser_set_cancellation_flag(w->parser, &w->cancel);
    ts_query_cursor_set_match_limit(w->cursor, st->match_limit);
    return w;
}

/* ---- per-file scratch ------------------------------------------------------------------- */

/* (the scratch types are in lang/python/scan_int.h) */

/* Called once per query match: true (and sc->over_budget set) once the time is up. */
static bool budget_spent(scan_ctx *sc) {
    if (sc->over_budget) return true;
    if (!sc->deadline_ms || ++sc->ticks < CLOCK_EVERY) return false;
    sc->ticks = 0;
    sc->over_budget = sunset_clock_ms() > sc->deadline_ms;
    return sc->over_budget;
}

/* The file stopped by the time limit: a warning that says so, distinct from the work limits'
 * ("skipped: a chain of ...", "query match limit hit"), which do not depend on the machine. */
static void warn_time_limit(scan_ctx *sc, const char *where) {
    sunset_warn(sc->sink, 0, 0,
                "stopped by the time limit (--parse-budget %u ms) %s; file not analysed",
                sc->w->st->parse_budget_ms, where);
}

/* tree-sitter reads the text through this, PARSE_CHUNK bytes at a time, so that the time
 * limit is checked as the parse advances. */
typedef struct py_input {
    scan_ctx *sc;
    const char *data;
    uint32_t len;
} py_input;

static const char *py_read(void *payload, uint32_t byte, TSPoint at, uint32_t *n) {
    py_input *in = payload;
    scan_ctx *sc = in->sc;
    if (sc->deadline_ms && !sc->over_budget && sunset_clock_ms() > sc->deadline_ms) {
        sc->over_budget = true;
        sc->w->cancel = 1; /* the parser sees it within its next 100 operations */
    }
    if (byte >= in->len) {
        *n = 0;
        return "";
    }
    *n = in->len - byte < PARSE_CHUNK ? in->len - byte : PARSE_CHUNK;
    return in->data + byte;
}

/* Parse data (the parser's included ranges apply) under the file's time limit. NULL when it
 * was stopped (sc->over_budget set) or failed; the parser is then reset, so that the next
 * parse does not resume this one. */
static TSTree *py_parse(scan_ctx *sc, const char *data, uint32_t len) {
    TSParser *p = sc->w->parser;
    unsigned budget = sc->w->st->parse_budget_ms;
    py_input in = {sc, data, len};
    sc->w->cancel = 0;
    /* the real clock only: a fake one must be the only clock a test's verdict depends on */
    ts_parser_set_timeout_micros(p, sunset_clock_is_real() ? (uint64_t)budget * 1000u : 0);
    TSInput input = {&in, py_read, TSInputEncodingUTF8};
    TSTree *t = sc->over_budget ? NULL : ts_parser_parse(p, NULL, input);
    if (!t) {
        ts_parser_reset(p);
        if (sc->deadline_ms) sc->over_budget = true; /* our flag or tree-sitter's timeout */
    }
    return t;
}

static char *pool_alloc(scan_ctx *sc, size_t n) {
    pool_chunk *c = sc->pool;
    if (!c || c->cap - c->used < n) {
        size_t cap = n > 4000 ? n : 4000;
        c = sunset_malloc(sizeof *c + cap);
        if (!c) {
            sc->oom = true;
            return NULL;
        }
        c->next = sc->pool;
        c->used = 0;
        c->cap = cap;
        sc->pool = c;
    }
    char *p = c->data + c->used;
    c->used += n;
    return p;
}

static void scan_ctx_free(scan_ctx *sc) {
    py_path_end(sc); /* (emit_facts ends it, unless it did not run) */
    vec_free(&sc->caps);
    vec_free(&sc->items);
    vec_free(&sc->marks);
    vec_free(&sc->ranges);
    vec_free(&sc->calls);
    vec_free(&sc->scopes);
    vec_free(&sc->found);
    while (sc->pool) {
        pool_chunk *next = sc->pool->next;
        sunset_free(sc->pool);
        sc->pool = next;
    }
}

slice py_node_text(const scan_ctx *sc, TSNode n) {
    uint32_t a = ts_node_start_byte(n), b = ts_node_end_byte(n);
    return (slice){sc->src->data + a, b - a};
}

sunset_span py_node_span(TSNode n) {
    TSPoint a = ts_node_start_point(n), b = ts_node_end_point(n);
    return (sunset_span){a.row + 1, a.column + 1, b.row + 1, b.column + 1};
}

/* A span of the parsed text as the file's (they differ only for a notebook's decoded code). */
sunset_span py_file_span(const scan_ctx *sc, sunset_span s) {
    return sc->nb ? py_nb_span(sc->nb, s) : s;
}

/* A dotted module or name without the blanks, backslash-newlines and comments that may sit
 * between its parts ("a . b" -> "a.b"); the source text itself when it has none. */
slice py_compact_dotted(scan_ctx *sc, slice s) {
    size_t i;
    for (i = 0; i < s.n; i++)
        if (s.s[i] && strchr(" \t\r\n\f\\#", s.s[i])) break;
    if (i == s.n) return s;
    char *d = pool_alloc(sc, s.n);
    if (!d) return s;
    size_t n = 0;
    for (i = 0; i < s.n; i++) {
        char c = s.s[i];
        if (c == '#') {
            while (i < s.n && s.s[i] != '\n') i++;
        } else if (!c || !strchr(" \t\r\n\f\\", c)) {
            d[n++] = c;
        }
    }
    return (slice){d, n};
}

/* ---- predicates ------------------------------------------------------------------------- */

static bool slice_eq(slice a, const char *b, size_t bn) {
    return a.n == bn && (bn == 0 || memcmp(a.s, b, bn) == 0); /* an empty slice may be NULL */
}

static bool pred_holds(scan_ctx *sc, const pyquery *pq, const pred *pd, const TSQueryMatch *m) {
    const TSQuery *q = pq->q;
    for (uint16_t i = 0; i < m->capture_count; i++) {
        if (m->captures[i].index != pd->capture) continue;
        slice t = py_node_text(sc, m->captures[i].node);
        bool ok = true;
        switch (pd->op) {
        case PRED_EQ:
        case PRED_NOT_EQ:
            if (pd->other >= 0) {
                uint16_t k;
                for (k = 0; k < m->capture_count; k++)
                    if (m->captures[k].index == (uint32_t)pd->other) break;
                if (k == m->capture_count) break; /* the other capture is absent: vacuous */
                slice o = py_node_text(sc, m->captures[k].node);
                ok = slice_eq(t, o.s, o.n);
            } else {
                ok = slice_eq(t, pd->str, pd->str_len);
            }
            if (pd->op == PRED_NOT_EQ) ok = !ok;
            break;
        case PRED_MATCH:
        case PRED_NOT_MATCH: {
            int r = pcre2_match(pd->re, (PCRE2_SPTR)t.s, t.n, 0, 0, sc->w->md, NULL);
            /* An error is not a mismatch: the JIT's small stack runs out on long text, so
             * retry with the interpreter (its backtracking is on the heap) before giving up. */
            if (r < 0 && r != PCRE2_ERROR_NOMATCH)
                r = pcre2_match(pd->re, (PCRE2_SPTR)t.s, t.n, 0, PCRE2_NO_JIT, sc->w->md,
                                sc->w->mctx);
            if (r < 0 && r != PCRE2_ERROR_NOMATCH) {
                PCRE2_UCHAR msg[160];
                if (pcre2_get_error_message(r, msg, sizeof msg) < 0)
                    snprintf((char *)msg, sizeof msg, "error %d", r);
                const pattern_info *pi = &pq->pats[m->pattern_index];
                TSPoint at = ts_node_start_point(m->captures[i].node);
                if (pi->rule)
                    sunset_warn(sc->sink, at.row + 1, at.column + 1,
                                "rule %s: regex error: %s; predicate taken as false",
                                sunset_rule_id(pi->rule), (const char *)msg);
                else
                    sunset_warn(sc->sink, at.row + 1, at.column + 1,
                                "%s: regex error: %s; predicate taken as false",
                                sc->w->st->facts_path, (const char *)msg);
            }
            ok = r >= 0;
            if (pd->op == PRED_NOT_MATCH && (r >= 0 || r == PCRE2_ERROR_NOMATCH)) ok = !ok;
            break;
        }
        case PRED_ANY_OF:
            ok = false;
            for (uint32_t k = 0; k < pd->nargs && !ok; k++) {
                uint32_t len;
                const char *s = ts_query_string_value_for_id(q, pd->args[k].value_id, &len);
                ok = slice_eq(t, s, len);
            }
            break;
        }
        if (!ok) return false;
    }
    return true;
}

static bool preds_hold(scan_ctx *sc, const pyquery *pq, const TSQueryMatch *m) {
    const pattern_info *pp = &pq->pats[m->pattern_index];
    for (uint32_t i = 0; i < pp->n; i++)
        if (!pred_holds(sc, pq, &VEC_AT(&pq->preds, pred, pp->first + i), m)) return false;
    return true;
}

/* ---- facts ------------------------------------------------------------------------------ */

static bool collect_facts(scan_ctx *sc, TSNode root) {
    const py_state *st = sc->w->st;
    const pyquery *pq = &st->facts;
    TSQueryCursor *cur = sc->w->cursor;
    TSQueryMatch m;
    ts_query_cursor_exec(cur, pq->q, root);
    while (ts_query_cursor_next_match(cur, &m)) {
        if (budget_spent(sc)) return true; /* the caller reports it */
        if (!preds_hold(sc, pq, &m)) continue;
        uint32_t first = (uint32_t)sc->caps.n;
        for (uint16_t i = 0; i < m.capture_count; i++) {
            fact_cap c = {m.captures[i].node, pq->roles[m.captures[i].index]};
            if (c.role == ROLE_IGNORE) continue;
            if (!vec_push(&sc->caps, &c)) return false;
        }
        uint32_t n = (uint32_t)sc->caps.n - first;
        for (uint32_t i = first; i < first + n; i++) {
            fact_cap *c = &VEC_AT(&sc->caps, fact_cap, i);
            uint32_t a = ts_node_start_byte(c->node), b = ts_node_end_byte(c->node);
            if (role_table[c->role].cls == RC_PRIMARY) {
                item it = {a, b, (uint32_t)sc->items.n, i, first, n};
                if (!vec_push(&sc->items, &it)) return false;
            } else if (role_table[c->role].cls == RC_MARK) {
                mark mk = {c->role, a, b};
                if (!vec_push(&sc->marks, &mk)) return false;
            }
        }
    }
    if (ts_query_cursor_did_exceed_match_limit(cur))
        sunset_warn(sc->sink, 0, 0, "query match limit hit for %s; facts may be missing",
                    st->facts_path);
    return true;
}

static int item_cmp(const void *pa, const void *pb) {
    const item *a = pa, *b = pb;
    if (a->start != b->start) return a->start < b->start ? -1 : 1;
    if (a->end != b->end) return a->end > b->end ? -1 : 1;
    return a->seq < b->seq ? -1 : a->seq > b->seq;
}

static int mark_cmp(const void *pa, const void *pb) {
    const mark *a = pa, *b = pb;
    if (a->role != b->role) return a->role < b->role ? -1 : 1;
    if (a->start != b->start) return a->start < b->start ? -1 : 1;
    return a->end < b->end ? -1 : a->end > b->end;
}

static bool has_mark(const scan_ctx *sc, role r, TSNode n) {
    mark key = {r, ts_node_start_byte(n), ts_node_end_byte(n)};
    return sc->marks.n && bsearch(&key, sc->marks.v, sc->marks.n, sizeof key, mark_cmp);
}

/* The first capture of `r` in the item's match, or NULL. */
const fact_cap *py_companion(const scan_ctx *sc, const item *it, role r) {
    for (uint32_t i = it->first; i < it->first + it->n; i++)
        if (VEC_AT(&sc->caps, fact_cap, i).role == r) return &VEC_AT(&sc->caps, fact_cap, i);
    return NULL;
}

slice py_companion_text(const scan_ctx *sc, const item *it, role r) {
    const fact_cap *c = py_companion(sc, it, r);
    return c ? py_node_text(sc, c->node) : (slice){NULL, 0};
}

sunset_fact py_fact_at(scan_ctx *sc, sunset_fact_kind kind, TSNode at, unsigned flags,
                           slice text, slice aux, slice target) {
    return (sunset_fact){
        .kind = kind,
        .ctx = sc->doc ? sc->code_ctx : SUNSET_CTX_CODE,
        .span = py_file_span(sc, py_node_span(at)),
        .flags = flags,
        .text = text.s, .text_len = text.n,
        .aux = aux.s, .aux_len = aux.n,
        .target = target.s, .target_len = target.n,
        .stmt = sc->stmt_end ? py_file_span(sc, sc->stmt) : (sunset_span){0, 0, 0, 0},
    };
}

static void emit_fact(scan_ctx *sc, sunset_fact_kind kind, TSNode at, unsigned flags, slice text,
                      slice aux, slice target) {
    sunset_fact f = py_fact_at(sc, kind, at, flags, text, aux, target);
    sunset_emit(sc->sink, &f);
}

/* A BIND fact: its span and aux are the bound value (text only up to a line's worth: the
 * flow tests look at a name or a callee, never at a whole multi-line call). */
call_frame *py_top_call(scan_ctx *sc) {
    return sc->calls.n ? &VEC_AT(&sc->calls, call_frame, sc->calls.n - 1) : NULL;
}

static const char *call_cstr(scan_ctx *sc) {
    call_frame *f = py_top_call(sc);
    if (!f) return NULL;
    if (!f->cstr) {
        f->cstr = pool_alloc(sc, f->callee.n + 1);
        if (!f->cstr) return NULL;
        if (f->callee.n) memcpy(f->cstr, f->callee.s, f->callee.n); /* empty: maybe NULL */
        f->cstr[f->callee.n] = 0;
    }
    return f->cstr;
}

static void emit_def(scan_ctx *sc, const item *it, TSNode node) {
    const fact_cap *name = py_companion(sc, it, ROLE_DEF_NAME);
    if (!name) return;
    slice nm = py_node_text(sc, name->node);
    uint32_t r = VEC_AT(&sc->caps, fact_cap, it->cap).role;
    const char *kind = r == ROLE_DEF_CLASS ? "class"
                       : has_mark(sc, ROLE_DEF_METHOD, node) ? "method"
                                                             : "function";
    emit_fact(sc, SUNSET_FACT_DEF, name->node, 0, nm, (slice){kind, strlen(kind)},
              (slice){NULL, 0});

    const scope_frame *up = sc->scopes.n ? &VEC_AT(&sc->scopes, scope_frame, sc->scopes.n - 1)
                                         : NULL;
    size_t qlen = up ? up->qlen + 1 + nm.n : nm.n;
    char *q = pool_alloc(sc, qlen + 1);
    if (!q) return;
    if (up) {
        memcpy(q, up->qual, up->qlen);
        q[up->qlen] = '.';
    }
    if (nm.n) memcpy(q + qlen - nm.n, nm.s, nm.n); /* an empty slice may be NULL */
    q[qlen] = 0;
    sunset_span sp = py_file_span(sc, py_node_span(node));
    sunset_scope(sc->sink, kind, q, sp.line, sp.end_line);
    scope_frame f = {it->end, q, qlen};
    if (!vec_push(&sc->scopes, &f)) sc->oom = true;
}

/* The three questions below are asked of a string_content's string node `str` and its parent
 * `up` (may be null), found once by emit_text_node; the parents above are py_parent's
 * (parent.c: ts_node_parent walks down from the root). */

/* Is the string (content and all) the only element of a list, tuple or set literal `lit`? */
static bool sole_entry(TSNode lit) {
    if (ts_node_is_null(lit)) return false;
    const char *t = ts_node_type(lit);
    return (!strcmp(t, "list") || !strcmp(t, "tuple") || !strcmp(t, "set")) &&
           ts_node_named_child_count(lit) == 1;
}

/* Is the string `str` the value of an assignment, whole or an operand of the operators that
 * make it (`env["K"] = "..."`, `cmd = ('grep x ' + f + ' | wc')`)? Its line alone cannot go:
 * it would leave an assignment without a value or a dangling `+ f`. */
static bool assigned_value(scan_ctx *sc, TSNode str, TSNode up) {
    TSNode s = str, p;
    for (p = up; !ts_node_is_null(p); s = p, p = py_parent(sc, p)) {
        const char *t = ts_node_type(p);
        if (strcmp(t, "concatenated_string") && strcmp(t, "parenthesized_expression") && strcmp(t, "binary_operator"))
            break;
    }
    if (ts_node_is_null(p)) return false;
    const char *t = ts_node_type(p);
    return (!strcmp(t, "assignment") || !strcmp(t, "augmented_assignment")) &&
           ts_node_eq(ts_node_child_by_field_name(p, "right", 5), s);
}

/* Where code puts the string `str` (sunset_str_use): the string itself, or the
 * concatenation or parentheses holding it, as a call's argument (*arg its position, -1 a
 * keyword's value), a subscript's key, a dict literal's key or a comparison's operand. */
static sunset_str_use string_use(scan_ctx *sc, TSNode str, TSNode up, int *arg) {
    TSNode s = str, p;
    *arg = -1;
    for (p = up; !ts_node_is_null(p); s = p, p = py_parent(sc, p))
        if (strcmp(ts_node_type(p), "concatenated_string") && strcmp(ts_node_type(p), "parenthesized_expression"))
            break;
    if (ts_node_is_null(p)) return SUNSET_USE_NONE;
    const char *t = ts_node_type(p);
    if (!strcmp(t, "comparison_operator")) return SUNSET_USE_COMPARE;
    if (!strcmp(t, "subscript"))
        return ts_node_eq(ts_node_child_by_field_name(p, "value", 5), s) ? SUNSET_USE_NONE : SUNSET_USE_SUBSCRIPT;
    if (!strcmp(t, "pair"))
        return ts_node_eq(ts_node_child_by_field_name(p, "key", 3), s) ? SUNSET_USE_KEY : SUNSET_USE_NONE;
    if (!strcmp(t, "keyword_argument")) {
        TSNode up = py_parent(sc, p);
        bool in_call = !ts_node_is_null(up) && !strcmp(ts_node_type(up), "argument_list");
        return in_call && ts_node_eq(ts_node_child_by_field_name(p, "value", 5), s) ? SUNSET_USE_ARG : SUNSET_USE_NONE;
    }
    if (strcmp(t, "argument_list")) return SUNSET_USE_NONE;
    int k = 0;
    for (uint32_t i = 0; i < ts_node_named_child_count(p); i++) {
        TSNode c = ts_node_named_child(p, i);
        if (ts_node_eq(c, s)) break;
        if (strcmp(ts_node_type(c), "comment")) k++;
    }
    *arg = k;
    return SUNSET_USE_ARG;
}

static void emit_text_node(scan_ctx *sc, sunset_context ctx, TSNode n, size_t skip,
                           const char *call) {
    slice t = py_node_text(sc, n);
    if (skip > t.n) return;
    sunset_span at = py_node_span(n);
    at.col += (uint32_t)skip;
    t.s += skip;
    t.n -= skip;
    if (ctx == SUNSET_CTX_COMMENT) /* one line; the grammar's comment may take a CR */
        while (t.n && (t.s[t.n - 1] == '\r' || t.s[t.n - 1] == '\n')) t.n--, at.end_col--;
    /* a call's string argument takes its statement (`raise TypeError(\n "..."\n)`), so do a
     * raise's or assert's message and the only entry of a list (`black_list = [\n "X",\n]`
     * is rewritten whole) and an assignment's value; not a
     * docstring or comment (removing a word there is an edit) nor one entry of a longer list
     * (removing one name from a tool list leaves the list) */
    at = py_file_span(sc, at);
    if (ctx == SUNSET_CTX_STRING) {
        int arg = -1;
        TSNode str = py_parent(sc, n), up = str;
        bool in_str = !ts_node_is_null(str) && !strcmp(ts_node_type(str), "string");
        if (in_str) up = py_parent(sc, str);
        sunset_str_use use = in_str ? string_use(sc, str, up, &arg) : SUNSET_USE_NONE;
        /* a key, a subscript or an operand is edited where it stands, not with its statement */
        bool stmt = sc->stmt_end && (use == SUNSET_USE_NONE || use == SUNSET_USE_ARG) &&
                    (call || sc->stmt_message || (in_str && (sole_entry(up) || assigned_value(sc, str, up))));
        sunset_emit_string(sc->sink, at, t.s, t.n, call, use, arg,
                           stmt ? py_file_span(sc, sc->stmt) : (sunset_span){0, 0, 0, 0});
    } else {
        sunset_emit_text(sc->sink, ctx, at, t.s, t.n, call);
    }
}

static bool accepted(const vec *acc, uint32_t at) {
    for (size_t i = 0; i < acc->n; i++) {
        const uint32_t *r = (const uint32_t *)acc->v + 2 * i;
        if (at >= r[0] && at < r[1]) return true;
    }
    return false;
}

static void emit_item(scan_ctx *sc, const item *it) {
    const fact_cap *pc = &VEC_AT(&sc->caps, fact_cap, it->cap);
    TSNode node = pc->node;
    slice none = {NULL, 0};
    /* a notebook's cells are the file's code (CODE); examples and dead code are not */
    if (sc->doc && sc->code_ctx != SUNSET_CTX_CODE && (pc->role == ROLE_DEF_CLASS || pc->role == ROLE_DEF_FUNCTION ||
                    pc->role == ROLE_STRING_CONTENT || pc->role == ROLE_COMMENT))
        return; /* an example's scopes are not the file's; its text is docstring text */
    if (sc->accept && !accepted(sc->accept, it->start)) return;
    switch ((role)pc->role) {
    case ROLE_IMPORT_MODULE:
        emit_fact(sc, SUNSET_FACT_IMPORT, node, 0, py_compact_dotted(sc, py_node_text(sc, node)), none,
                  py_companion_text(sc, it, ROLE_IMPORT_ALIAS));
        break;
    case ROLE_IMPORT_NAME:
    case ROLE_IMPORT_STAR: {
        slice from = py_compact_dotted(sc, py_companion_text(sc, it, ROLE_IMPORT_FROM));
        slice name = pc->role == ROLE_IMPORT_STAR ? (slice){"*", 1}
                                                  : py_compact_dotted(sc, py_node_text(sc, node));
        if (!from.s) from = (slice){"", 0};
        emit_fact(sc, SUNSET_FACT_IMPORT, node, 0, from, name,
                  py_companion_text(sc, it, ROLE_IMPORT_ALIAS));
        break;
    }
    case ROLE_BASE_NAME:
        emit_fact(sc, SUNSET_FACT_BASE, node, 0, py_node_text(sc, node),
                  py_companion_text(sc, it, ROLE_BASE_CLASS), none);
        break;
    case ROLE_CALL_CALLEE:
        emit_fact(sc, SUNSET_FACT_CALL, node, 0, py_node_text(sc, node), none, none);
        break;
    case ROLE_CALL_ARGS: {
        call_frame f = {it->end, py_companion_text(sc, it, ROLE_CALL_CALLEE), NULL};
        if (!f.callee.s) break;
        if (!vec_push(&sc->calls, &f)) sc->oom = true;
        break;
    }
    case ROLE_KWARG_NAME: {
        /* The innermost argument list around a keyword argument is the one holding it; with
         * none, it is a class statement's keyword (metaclass=): statements never sit in calls. */
        const call_frame *f = py_top_call(sc);
        if (f)
            emit_fact(sc, SUNSET_FACT_KWARG, node, 0, py_node_text(sc, node), f->callee, none);
        break;
    }
    case ROLE_ATTR_NAME: {
        const fact_cap *attr = py_companion(sc, it, ROLE_ATTR);
        emit_fact(sc, SUNSET_FACT_ATTR, node,
                  attr && has_mark(sc, ROLE_ATTR_STORE, attr->node) ? SUNSET_FACT_STORE : 0u,
                  py_node_text(sc, node), py_companion_text(sc, it, ROLE_ATTR_OBJECT), none);
        break;
    }
    case ROLE_DEF_CLASS:
    case ROLE_DEF_FUNCTION:
        emit_def(sc, it, node);
        break;
    case ROLE_IDENT: {
        const call_frame *f = py_top_call(sc);
        emit_fact(sc, SUNSET_FACT_IDENT, node,
                  has_mark(sc, ROLE_IDENT_DEFINITION, node) ? SUNSET_FACT_DEFINITION : 0u,
                  py_node_text(sc, node), f ? f->callee : none, none);
        break;
    }
    case ROLE_STRING_CONTENT: {
        const fact_cap *owner = py_companion(sc, it, ROLE_STRING);
        bool doc = owner && has_mark(sc, ROLE_DOCSTRING, owner->node);
        emit_text_node(sc, doc ? SUNSET_CTX_DOCSTRING : SUNSET_CTX_STRING, node, 0, call_cstr(sc));
        break;
    }
    case ROLE_COMMENT:
        emit_text_node(sc, SUNSET_CTX_COMMENT, node, 1, NULL);
        break;
    case ROLE_BIND_TARGET:
    case ROLE_BIND_RETURN:
    case ROLE_BIND_PARAM:
    case ROLE_BIND_ARG:
    case ROLE_BIND_FOR:
        py_emit_binding(sc, it, pc, node);
        break;
    case ROLE_STMT:
        /* simple statements do not nest: the latest one holds what follows until its end */
        sc->stmt_end = it->end;
        sc->stmt = py_node_span(node);
        sc->stmt_message = !strcmp(ts_node_type(node), "raise_statement") ||
                           !strcmp(ts_node_type(node), "assert_statement");
        break;
    default:
        break;
    }
}

/* Items in document order, marks sorted for has_mark's and build_ranges' lookups. */
static void sort_facts(scan_ctx *sc) {
    if (sc->items.n) qsort(sc->items.v, sc->items.n, sizeof(item), item_cmp);
    if (sc->marks.n) qsort(sc->marks.v, sc->marks.n, sizeof(mark), mark_cmp);
}

/* Emit every fact in document order (after sort_facts); the call and scope stacks hold the argument lists and
 * definitions enclosing the current item (tree nodes nest, so a popped frame never returns). */
static void emit_facts(scan_ctx *sc, TSNode root) {
    py_path_start(sc, root);
    for (size_t i = 0; i < sc->items.n && !sc->oom; i++) {
        const item *it = &VEC_AT(&sc->items, item, i);
        while (sc->calls.n && it->start >= VEC_AT(&sc->calls, call_frame, sc->calls.n - 1).end)
            sc->calls.n--;
        while (sc->scopes.n && it->start >= VEC_AT(&sc->scopes, scope_frame, sc->scopes.n - 1).end)
            sc->scopes.n--;
        if (sc->stmt_end && it->start >= sc->stmt_end) sc->stmt_end = 0;
        emit_item(sc, it);
    }
    py_path_end(sc);
}

/* ---- contexts and query rules ----------------------------------------------------------- */

static int range_cmp(const void *pa, const void *pb) {
    const ctx_range *a = pa, *b = pb;
    if (a->start != b->start) return a->start < b->start ? -1 : 1;
    return a->end > b->end ? -1 : a->end < b->end;
}

/* The outermost string and comment ranges, sorted and disjoint, for context lookups. */
static bool build_ranges(scan_ctx *sc) {
    for (size_t i = 0; i < sc->marks.n; i++) {
        const mark *mk = &VEC_AT(&sc->marks, mark, i);
        if (mk->role != ROLE_STRING) continue;
        mark key = {ROLE_DOCSTRING, mk->start, mk->end};
        bool doc = bsearch(&key, sc->marks.v, sc->marks.n, sizeof key, mark_cmp) != NULL;
        ctx_range r = {mk->start, mk->end, doc ? SUNSET_CTX_DOCSTRING : SUNSET_CTX_STRING};
        if (!vec_push(&sc->ranges, &r)) return false;
    }
    for (size_t i = 0; i < sc->items.n; i++) {
        const item *it = &VEC_AT(&sc->items, item, i);
        if (VEC_AT(&sc->caps, fact_cap, it->cap).role != ROLE_COMMENT) continue;
        ctx_range r = {it->start, it->end, SUNSET_CTX_COMMENT};
        if (!vec_push(&sc->ranges, &r)) return false;
    }
    if (!sc->ranges.n) return true;
    qsort(sc->ranges.v, sc->ranges.n, sizeof(ctx_range), range_cmp);
    size_t kept = 0;
    for (size_t i = 0; i < sc->ranges.n; i++) {
        ctx_range r = VEC_AT(&sc->ranges, ctx_range, i);
        if (kept && r.start < VEC_AT(&sc->ranges, ctx_range, kept - 1).end) continue; /* nested */
        VEC_AT(&sc->ranges, ctx_range, kept++) = r;
    }
    sc->ranges.n = kept;
    return true;
}

static sunset_context ctx_of(const scan_ctx *sc, TSNode n) {
    uint32_t a = ts_node_start_byte(n), b = ts_node_end_byte(n);
    size_t lo = 0, hi = sc->ranges.n; /* find the last range starting at or before a */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (VEC_AT(&sc->ranges, ctx_range, mid).start <= a) lo = mid + 1;
        else hi = mid;
    }
    if (lo == 0) return SUNSET_CTX_CODE;
    const ctx_range *r = &VEC_AT(&sc->ranges, ctx_range, lo - 1);
    return a < r->end && b <= r->end ? r->ctx : SUNSET_CTX_CODE;
}

/* The node a rule reports: its capture; for a rule without one, or when that capture is
 * optional and absent from this match, the outermost captured node. */
static bool report_node(uint32_t report, const TSQueryMatch *m, TSNode *out) {
    bool found = false;
    for (uint16_t i = 0; i < m->capture_count; i++) {
        if (m->captures[i].index == report) {
            *out = m->captures[i].node;
            return true;
        }
    }
    for (uint16_t i = 0; i < m->capture_count; i++) {
        TSNode n = m->captures[i].node;
        if (!found || ts_node_start_byte(n) < ts_node_start_byte(*out) ||
            (ts_node_start_byte(n) == ts_node_start_byte(*out) &&
             ts_node_end_byte(n) > ts_node_end_byte(*out))) {
            *out = n;
            found = true;
        }
    }
    return found;
}

/* Run one query of rules over the tree, appending what its matches report to sc->found.
 * Returns false when the cursor's match limit was hit, i.e. matches may be missing. */
static bool run_query(scan_ctx *sc, const pyquery *pq, TSNode root) {
    TSQueryCursor *cur = sc->w->cursor;
    TSQueryMatch m;
    ts_query_cursor_exec(cur, pq->q, root);
    while (ts_query_cursor_next_match(cur, &m)) {
        if (budget_spent(sc)) return true; /* the caller reports it */
        const pattern_info *pi = &pq->pats[m.pattern_index];
        if (!preds_hold(sc, pq, &m)) continue;
        TSNode n;
        if (!report_node(pi->report, &m, &n)) { /* a pattern whose captures are all optional */
            sunset_warn(sc->sink, 0, 0, "rule %s: a match captured no node to report",
                        sunset_rule_id(pi->rule));
            continue;
        }
        rule_hit f = {pi->rule, ctx_of(sc, n), py_node_span(n)};
        if (!vec_push(&sc->found, &f)) {
            sc->oom = true;
            break;
        }
    }
    return !ts_query_cursor_did_exceed_match_limit(cur);
}

/* All rules in one walk; if that hits the match limit, which cannot be pinned on one rule,
 * its results are dropped and each rule runs alone with the whole limit to itself. The hits
 * stay in sc->found until emit_matches. */
static void run_rules(scan_ctx *sc, TSNode root) {
    const py_state *st = sc->w->st;
    /* no query at all when none of the query rules' literals is in the file (18 of the 32
     * Python files of Paddle that reach the parser need one) */
    bool live = false;
    for (size_t r = 0; r < st->nrules && !live; r++) live = sunset_sink_rule_may_match(sc->sink, st->rule_of[r]);
    if (!live) return;
    if (!st->all.q || !run_query(sc, &st->all, root)) {
        sc->found.n = 0;
        for (size_t r = 0; r < st->nrules && !sc->oom && !sc->over_budget; r++) {
            /* compiled at init only without `all`; here, for this file alone (it compiled as
             * part of `all`, so it compiles alone: an error is only OOM) */
            pyquery mine = {0};
            const pyquery *pq = &st->rules[r];
            if (!pq->q) {
                sunset_error err = {{0}};
                if (compile_rule(st, r, &mine, &err) < 0) {
                    py_query_free(&mine);
                    sc->oom = true;
                    break;
                }
                pq = &mine;
            }
            if (!run_query(sc, pq, root))
                sunset_warn(sc->sink, 0, 0,
                            "query match limit hit for rule %s; matches may be missing",
                            sunset_rule_id(st->rule_of[r]));
            py_query_free(&mine);
        }
    }
}

static void emit_matches(scan_ctx *sc) {
    for (size_t i = 0; i < sc->found.n && !sc->oom; i++) {
        const rule_hit *f = &VEC_AT(&sc->found, rule_hit, i);
        sunset_emit_match(sc->sink, f->rule, f->ctx, f->span);
    }
}

/* A second pass over `mask` (as long as the file, see doccode.c): its facts in context ctx;
 * for dead code only those of py_dead_statements; a notebook's code (nb) at the file's
 * positions. Takes mask. Stopped by the time limit, it emits nothing and sets
 * sc->over_budget. */
static void scan_masked(scan_ctx *sc, sunset_context ctx, char *mask, const py_nb *nb) {
    vec acc = VEC_INIT(uint32_t[2]);
    TSTree *tree = NULL;
    /* most docstrings and comments name nothing legacy: no second parse for them (the two
     * masked parses were 40% of the parse time of a cold scan of Paddle, perf) */
    if (!sunset_sink_may_match(sc->sink, mask, sc->src->len)) goto cleanup;
    size_t len = py_squeeze_blank_lines(mask, sc->src->len);
    tree = py_parse(sc, mask, (uint32_t)len);
    if (!tree) goto cleanup;
    TSNode root = ts_tree_root_node(tree);
    if (ctx == SUNSET_CTX_DEAD_CODE && (!py_dead_statements(root, &acc) || !acc.n)) goto cleanup;
    sunset_source src = *sc->src;
    src.data = mask;
    src.len = len;
    scan_ctx d = {
        .w = sc->w, .src = &src, .sink = sc->sink, .doc = true, .code_ctx = ctx,
        .accept = ctx == SUNSET_CTX_DEAD_CODE ? &acc : NULL,
        .caps = VEC_INIT(fact_cap), .items = VEC_INIT(item), .marks = VEC_INIT(mark),
        .ranges = VEC_INIT(ctx_range), .calls = VEC_INIT(call_frame),
        .scopes = VEC_INIT(scope_frame), .found = VEC_INIT(rule_hit),
        .deadline_ms = sc->deadline_ms, .nb = nb,
    };
    if (collect_facts(&d, root) && !d.over_budget) {
        sort_facts(&d);
        emit_facts(&d, root);
    }
    if (d.over_budget) sc->over_budget = true;
    scan_ctx_free(&d);
cleanup:
    if (tree) ts_tree_delete(tree);
    vec_free(&acc);
    sunset_free(mask);
}

/* The second passes: the code examples of the file's docstrings and its commented-out code
 * (sc->ranges, after the first pass), each parsed from a masked copy of the file
 * (doccode.c), so positions are the file's. */
static void scan_second(scan_ctx *sc) {
    for (int pass = 0; pass < 2; pass++) {
        sunset_context want = pass ? SUNSET_CTX_COMMENT : SUNSET_CTX_DOCSTRING;
        vec rs = VEC_INIT(uint32_t[2]);
        for (size_t i = 0; i < sc->ranges.n; i++) {
            const ctx_range *r = &VEC_AT(&sc->ranges, ctx_range, i);
            uint32_t d[2] = {r->start, r->end};
            if (r->ctx == want && !vec_push(&rs, &d)) break;
        }
        char *mask = !rs.n ? NULL
                     : pass ? py_comment_mask(sc->src->data, sc->src->len, rs.v, rs.n)
                            : py_doc_mask(sc->src->data, sc->src->len, rs.v, rs.n);
        vec_free(&rs);
        if (mask) scan_masked(sc, pass ? SUNSET_CTX_DEAD_CODE : SUNSET_CTX_DOCSTRING, mask, NULL);
    }
}

/* 1 for a Markdown path, 2 for reST, 3 for a notebook, else 0. The engine hands such a file to this frontend
 * for its embedded Python (core/lang.c: sunset_lang_embedded); the suffixes are the
 * registry's for those languages (this frontend does not link the registry). */
static int markup_kind(const char *path) {
    const char *dot = strrchr(path, '.');
    if (!dot || strchr(dot, '/')) return 0;
    return !strcasecmp(dot, ".md") ? 1 : !strcasecmp(dot, ".rst") ? 2 : !strcasecmp(dot, ".ipynb") ? 3 : 0;
}

/* ---- the part of a file a rule can match in (units.c) ------------------------------------ */

/* The parse of the part alone (tree-sitter's included ranges: nodes keep the file's
 * positions); NULL when it fails or has an error, which a cut in the wrong place would make
 * (units.c), so that the caller parses the whole file. */
static TSTree *parse_part(scan_ctx *sc, const py_part *pt) {
    TSParser *p = sc->w->parser;
    if (!ts_parser_set_included_ranges(p, pt->ranges.v, (uint32_t)pt->ranges.n)) return NULL;
    TSTree *t = py_parse(sc, sc->src->data, (uint32_t)sc->src->len);
    ts_parser_set_included_ranges(p, NULL, 0); /* the whole document again */
    if (!t) return NULL;
    if (ts_node_has_error(ts_tree_root_node(t))) {
        ts_tree_delete(t);
        return NULL;
    }
    return t;
}

static void scan_ctx_init(scan_ctx *sc, py_worker *w, const sunset_source *src, sunset_sink *sink,
                          double deadline_ms) {
    *sc = (scan_ctx){
        .w = w, .src = src, .sink = sink,
        .caps = VEC_INIT(fact_cap), .items = VEC_INIT(item), .marks = VEC_INIT(mark),
        .ranges = VEC_INIT(ctx_range), .calls = VEC_INIT(call_frame),
        .scopes = VEC_INIT(scope_frame), .found = VEC_INIT(rule_hit),
        .deadline_ms = deadline_ms,
    };
}

/* Facts, query rules and the second passes over a parse of the file (whole or part; a
 * part's chains are held to what `skipped_work`, the bound of the units left out, leaves of
 * MAX_CHAIN_WORK, so that a part is refused where the whole file would be). 0, or -1 with
 * a warning: the file is not analysed. */
static int analyse(scan_ctx *sc, TSTree *tree, uint64_t skipped_work) {
    sunset_sink *sink = sc->sink;
    const sunset_source *src = sc->src;
    py_worker *w = sc->w;
    TSNode root = ts_tree_root_node(tree), head;
    uint64_t work = skipped_work < MAX_CHAIN_WORK ? MAX_CHAIN_WORK - skipped_work : 0;
    int chains = py_chain_marks(src->data, src->len) > MAX_CHAIN
                     ? py_long_chain(w->st, root, work, &head) : 0;
    if (chains) {
        TSPoint at = ts_node_start_point(head);
        if (chains == 1)
            sunset_warn(sink, at.row + 1, at.column + 1,
                        "skipped: a chain of more than %u attributes and calls (the query cost "
                        "grows with the square of its length)", MAX_CHAIN);
        else
            sunset_warn(sink, at.row + 1, at.column + 1,
                        "skipped: the chains of attributes and calls up to this one have "
                        "squared lengths summing to more than %u squared (the query cost "
                        "grows with the square of a chain's length)", MAX_CHAIN);
        return -1;
    }
    /* Everything is computed before anything is emitted, so that a file over budget is
     * reported as not analysed rather than half analysed. */
    if (!collect_facts(sc, root)) sc->oom = true;
    if (!sc->oom && !sc->over_budget) sort_facts(sc);
    if (!sc->oom && !sc->over_budget && !build_ranges(sc)) sc->oom = true;
    if (!sc->oom && !sc->over_budget) run_rules(sc, root);
    if (sc->oom) {
        sunset_warn(sink, 0, 0, "out of memory; file not fully analysed");
        return -1;
    }
    if (sc->over_budget) {
        warn_time_limit(sc, "in the queries");
        return -1;
    }
    emit_facts(sc, root);
    if (!sc->oom) emit_matches(sc);
    if (!sc->oom) scan_second(sc);
    if (sc->oom) {
        sunset_warn(sink, 0, 0, "out of memory; file not fully analysed");
        return -1;
    }
    if (sc->over_budget) { /* what the first pass emitted is forgotten: not half analysed */
        sunset_sink_restart(sink);
        warn_time_limit(sc, "in the code of its docstrings and comments");
        return -1;
    }
    return 0;
}

static int py_scan(void *wp, const sunset_source *src, sunset_sink *sink) {
    py_worker *w = wp;
    TSTree *tree = NULL;
    int rc = -1;
    py_part pt = {VEC_INIT(TSRange), VEC_INIT(uint32_t[2]), 0};
    scan_ctx sc;
    /* One time limit for the parses and the queries of the file. */
    unsigned budget = w->st->parse_budget_ms;
    scan_ctx_init(&sc, w, src, sink, budget ? sunset_clock_ms() + budget : 0);

    if (src->len > UINT32_MAX) {
        sunset_warn(sink, 0, 0, "file too large for the Python parser (%zu bytes)", src->len);
        goto cleanup;
    }
    if (!py_ready(w->st)) {
        sunset_warn(sink, 0, 0, "%s", w->st->lazy_error ? w->st->lazy_error : PY_OOM_MSG);
        goto cleanup;
    }
    int markup = markup_kind(src->path);
    if (markup) { /* a document's code blocks only */
        py_nb nb;
        if (markup == 3 && py_notebook_source(src->data, src->len, &nb)) {
            /* a notebook's code cells are code */
            char *text = nb.text;
            nb.text = NULL;
            scan_masked(&sc, SUNSET_CTX_CODE, text, &nb);
            py_nb_free(&nb);
        } else if (markup != 3) { /* a document's examples are documentation */
            char *mask = py_markup_mask(src->data, src->len, markup == 1);
            if (mask) scan_masked(&sc, SUNSET_CTX_DOCSTRING, mask, NULL);
        }
        rc = 0;
        if (sc.over_budget) {
            sunset_sink_restart(sink);
            warn_time_limit(&sc, "in its code blocks");
            rc = -1;
        }
        goto cleanup;
    }
    /* the part a rule can match in, when it is enough: else, everything it reported is
     * forgotten and the whole file parsed */
    if (py_choose_part(src, sink, &pt) && (tree = parse_part(&sc, &pt))) {
        rc = analyse(&sc, tree, pt.skipped_work);
        if (rc == 0 && sunset_sink_part_suffices(sink, pt.skipped.v, pt.skipped.n)) goto cleanup;
        if (sc.over_budget) goto cleanup; /* analyse warned */
        sunset_sink_restart(sink);
        double deadline = sc.deadline_ms;
        scan_ctx_free(&sc);
        scan_ctx_init(&sc, w, src, sink, deadline);
        ts_tree_delete(tree);
        tree = NULL;
        rc = -1;
    }
    if (!sc.over_budget) tree = py_parse(&sc, src->data, (uint32_t)src->len);
    if (!tree) {
        if (sc.over_budget) warn_time_limit(&sc, "while parsing");
        else sunset_warn(sink, 0, 0, "Python parser failed; file not analysed");
        goto cleanup;
    }
    rc = analyse(&sc, tree, 0);
cleanup:
    scan_ctx_free(&sc);
    vec_free(&pt.ranges);
    vec_free(&pt.skipped);
    if (tree) ts_tree_delete(tree);
    return rc;
}

static const sunset_lang python_langs[] = {SUNSET_LANG_PYTHON, SUNSET_LANG_NONE};

const sunset_frontend sunset_frontend_python = {
    .abi = SUNSET_FRONTEND_ABI,
    .name = "python",
    .langs = python_langs,
    .init = py_init,
    .fini = py_fini,
    .worker_new = py_worker_new,
    .worker_free = py_worker_free,
    .scan = py_scan,
};
