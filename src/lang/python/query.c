/*
 * query.c — the Python frontend's queries: facts.scm, whose capture names are roles, and the
 * rule set's query rules with their predicates (#eq?, #match?, #any-of? and the negations),
 * which the 0.20 runtime leaves to the caller. Errors name FILE:LINE:COL of the query text.
 */
#include "lang/python/python_int.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void *py_pc_malloc(PCRE2_SIZE n, void *ud) {
    (void)ud;
    return sunset_malloc(n);
}

void py_pc_free(void *p, void *ud) {
    (void)ud;
    sunset_free(p);
}

/* 1-based line and byte column of `off` in text. */
static void offset_to_pos(const char *text, size_t len, size_t off, unsigned *line, unsigned *col) {
    unsigned l = 1;
    size_t bol = 0;
    if (off > len) off = len;
    for (size_t i = 0; i < off; i++)
        if (text[i] == '\n') l++, bol = i + 1;
    *line = l;
    *col = (unsigned)(off - bol + 1);
}

/* Fill err with "PREFIX: message"; PREFIX is "FILE:LINE:COL" for facts.scm (just FILE when
 * off is NO_OFFSET) and "ORIGIN: rule ID" for a rule. */
static void qsrc_error(const qsrc *w, uint32_t off, sunset_error *err, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void qsrc_error(const qsrc *w, uint32_t off, sunset_error *err, const char *fmt, ...) {
    int n;
    if (w->rule) {
        n = snprintf(err->msg, sizeof err->msg, "%s: rule %s: ", sunset_rule_origin(w->rule),
                     sunset_rule_id(w->rule));
    } else if (off != NO_OFFSET) {
        unsigned line, col;
        offset_to_pos(w->text, w->len, off, &line, &col);
        n = snprintf(err->msg, sizeof err->msg, "%s:%u:%u: ", w->path, line, col);
    } else {
        n = snprintf(err->msg, sizeof err->msg, "%s: ", w->path);
    }
    if (n < 0 || (size_t)n >= sizeof err->msg) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg + n, sizeof err->msg - (size_t)n, fmt, ap);
    va_end(ap);
}

static const char *query_error_name(TSQueryError e) {
    switch (e) {
    case TSQueryErrorSyntax: return "syntax error";
    case TSQueryErrorNodeType: return "invalid node type";
    case TSQueryErrorField: return "invalid field";
    case TSQueryErrorCapture: return "invalid capture";
    case TSQueryErrorStructure: return "impossible pattern structure";
    case TSQueryErrorLanguage: return "incompatible grammar version";
    default: return "unknown error";
    }
}

void py_query_free(pyquery *pq) {
    if (!pq) return;
    for (size_t i = 0; i < pq->preds.n; i++) pcre2_code_free(VEC_AT(&pq->preds, pred, i).re);
    vec_free(&pq->preds);
    sunset_free(pq->pats);
    sunset_free(pq->roles);
    if (pq->q) ts_query_delete(pq->q);
    memset(pq, 0, sizeof *pq);
}

/* Offset of the first "@name" (not followed by more name characters) in the query text, for
 * pointing at an unknown capture; NO_OFFSET if not found. */
static uint32_t capture_offset(const qsrc *w, const char *name, uint32_t nlen) {
    for (size_t i = 0; i + nlen < w->len; i++) {
        if (w->text[i] != '@' || memcmp(w->text + i + 1, name, nlen) != 0) continue;
        unsigned char c = i + 1 + nlen < w->len ? (unsigned char)w->text[i + 1 + nlen] : 0;
        if (!(c == '_' || c == '.' || c == '-' || isalnum(c))) return (uint32_t)i;
    }
    return NO_OFFSET;
}

static int compile_roles(pyquery *pq, const qsrc *w, sunset_error *err) {
    uint32_t n = ts_query_capture_count(pq->q);
    pq->roles = sunset_calloc(n ? n : 1, 1);
    if (!pq->roles) {
        snprintf(err->msg, sizeof err->msg, "%s", PY_OOM_MSG);
        return -1;
    }
    for (uint32_t i = 0; i < n; i++) {
        uint32_t len;
        const char *name = ts_query_capture_name_for_id(pq->q, i, &len);
        if (len > 0 && name[0] == '_') continue; /* free for predicates */
        int r;
        for (r = 1; r < ROLE_COUNT; r++)
            if (strlen(role_table[r].name) == len && memcmp(role_table[r].name, name, len) == 0)
                break;
        if (r == ROLE_COUNT) {
            qsrc_error(w, capture_offset(w, name, len), err, "unknown capture @%.*s", (int)len,
                       name);
            return -1;
        }
        pq->roles[i] = (uint8_t)r;
    }
    return 0;
}

/* Parse one predicate (steps up to, not including, its Done step) of pattern `pat`. */
static int compile_pred(pyquery *pq, const py_state *st, const qsrc *w, uint32_t pat,
                        const TSQueryPredicateStep *steps, uint32_t n, sunset_error *err) {
    uint32_t pat_off = ts_query_start_byte_for_pattern(pq->q, pat);
    uint32_t len;
    if (n == 0 || steps[0].type != TSQueryPredicateStepTypeString) {
        qsrc_error(w, pat_off, err, "invalid predicate in pattern %u: no predicate name", pat);
        return -1;
    }
    const char *name = ts_query_string_value_for_id(pq->q, steps[0].value_id, &len);
    pred pd = {.other = -1};
    if (strcmp(name, "eq?") == 0) pd.op = PRED_EQ;
    else if (strcmp(name, "not-eq?") == 0) pd.op = PRED_NOT_EQ;
    else if (strcmp(name, "match?") == 0) pd.op = PRED_MATCH;
    else if (strcmp(name, "not-match?") == 0) pd.op = PRED_NOT_MATCH;
    else if (strcmp(name, "any-of?") == 0) pd.op = PRED_ANY_OF;
    else {
        qsrc_error(w, pat_off, err, "unsupported predicate #%s in pattern %u", name, pat);
        return -1;
    }
    const TSQueryPredicateStep *a = steps + 1;
    uint32_t na = n - 1;
    bool ok = na >= 2 && a[0].type == TSQueryPredicateStepTypeCapture;
    if (ok && pd.op != PRED_ANY_OF) ok = na == 2;
    if (ok && pd.op != PRED_EQ && pd.op != PRED_NOT_EQ)
        for (uint32_t i = 1; i < na; i++) ok = ok && a[i].type == TSQueryPredicateStepTypeString;
    if (!ok) {
        qsrc_error(w, pat_off, err,
                   "invalid predicate #%s in pattern %u: expected a capture then %s", name, pat,
                   pd.op == PRED_ANY_OF ? "one or more strings"
                   : pd.op == PRED_MATCH || pd.op == PRED_NOT_MATCH ? "a regex string"
                                                                     : "a string or a capture");
        return -1;
    }
    pd.capture = a[0].value_id;
    if (pd.op == PRED_EQ || pd.op == PRED_NOT_EQ) {
        if (a[1].type == TSQueryPredicateStepTypeCapture) pd.other = a[1].value_id;
        else pd.str = ts_query_string_value_for_id(pq->q, a[1].value_id, &pd.str_len);
    } else if (pd.op == PRED_ANY_OF) {
        pd.args = a + 1;
        pd.nargs = na - 1;
    } else {
        uint32_t rlen;
        const char *re = ts_query_string_value_for_id(pq->q, a[1].value_id, &rlen);
        int code;
        PCRE2_SIZE eoff;
        pd.re = pcre2_compile((PCRE2_SPTR)re, rlen, 0, &code, &eoff, st->cctx);
        if (!pd.re) {
            PCRE2_UCHAR msg[160];
            if (pcre2_get_error_message(code, msg, sizeof msg) < 0) strcpy((char *)msg, "?");
            qsrc_error(w, pat_off, err, "invalid regex \"%s\" at offset %zu: %s", re, (size_t)eoff,
                       (const char *)msg);
            return -1;
        }
        /* Without JIT (unsupported platform) pcre2_match interprets; the result is the same. */
        (void)pcre2_jit_compile(pd.re, PCRE2_JIT_COMPLETE);
    }
    if (!vec_push(&pq->preds, &pd)) {
        pcre2_code_free(pd.re);
        snprintf(err->msg, sizeof err->msg, "%s", PY_OOM_MSG);
        return -1;
    }
    return 0;
}

/* Bind patterns [first, first + n) of pq to `rule`: the capture they report, which each of
 * them must have (any capture at all when the rule names none). */
static int bind_rule(pyquery *pq, uint32_t first, uint32_t n, const sunset_rule *rule,
                     sunset_error *err) {
    qsrc w = {.rule = rule};
    const char *cap = sunset_rule_query_capture(rule);
    uint32_t ncap = ts_query_capture_count(pq->q), id = REPORT_OUTERMOST, len;
    if (n == 0) {
        qsrc_error(&w, NO_OFFSET, err, "query has no pattern");
        return -1;
    }
    if (cap && *cap) {
        for (id = 0; id < ncap; id++) {
            const char *name = ts_query_capture_name_for_id(pq->q, id, &len);
            if (strlen(cap) == len && memcmp(cap, name, len) == 0) break;
        }
        if (id == ncap) {
            qsrc_error(&w, NO_OFFSET, err, "capture @%s is not in the query", cap);
            return -1;
        }
    }
    for (uint32_t p = first; p < first + n; p++) {
        pq->pats[p].rule = rule;
        pq->pats[p].report = id;
        bool has = false;
        for (uint32_t c = 0; c < ncap && !has; c++)
            has = (id == REPORT_OUTERMOST || c == id) &&
                  ts_query_capture_quantifier_for_id(pq->q, p, c) != TSQuantifierZero;
        if (!has) {
            if (id == REPORT_OUTERMOST)
                qsrc_error(&w, NO_OFFSET, err, "pattern %u has no capture to report", p - first);
            else
                qsrc_error(&w, NO_OFFSET, err, "capture @%s is not in pattern %u", cap, p - first);
            return -1;
        }
    }
    return 0;
}

/* Compile one query with its predicates (and roles for facts.scm; bound to w->rule for a
 * rule). On error pq holds what was built so far; the caller frees it with py_query_free. */
int py_query_compile(pyquery *pq, const py_state *st, const qsrc *w, sunset_error *err) {
    uint32_t eoff = 0;
    TSQueryError etype = TSQueryErrorNone;
    pq->preds = VEC_INIT(pred);
    if (w->len > UINT32_MAX) {
        qsrc_error(w, NO_OFFSET, err, "query too large");
        return -1;
    }
    pq->q = ts_query_new(tree_sitter_python(), w->text, (uint32_t)w->len, &eoff, &etype);
    if (!pq->q) {
        if (w->rule)
            qsrc_error(w, NO_OFFSET, err, "invalid query at offset %u: %s", eoff,
                       query_error_name(etype));
        else
            qsrc_error(w, eoff, err, "invalid query: %s", query_error_name(etype));
        return -1;
    }
    if (w->facts && compile_roles(pq, w, err) < 0) return -1;
    uint32_t npat = ts_query_pattern_count(pq->q);
    pq->pats = sunset_calloc(npat ? npat : 1, sizeof *pq->pats);
    if (!pq->pats) {
        snprintf(err->msg, sizeof err->msg, "%s", PY_OOM_MSG);
        return -1;
    }
    for (uint32_t p = 0; p < npat; p++) {
        pq->pats[p].report = REPORT_OUTERMOST;
        uint32_t ns;
        const TSQueryPredicateStep *steps = ts_query_predicates_for_pattern(pq->q, p, &ns);
        pq->pats[p].first = (uint32_t)pq->preds.n;
        for (uint32_t i = 0; i < ns;) {
            uint32_t j = i;
            while (j < ns && steps[j].type != TSQueryPredicateStepTypeDone) j++;
            if (compile_pred(pq, st, w, p, steps + i, j - i, err) < 0) return -1;
            i = j + 1;
        }
        pq->pats[p].n = (uint32_t)pq->preds.n - pq->pats[p].first;
    }
    return w->rule ? bind_rule(pq, 0, npat, w->rule, err) : 0;
}

int py_compile_all_rules(py_state *st, sunset_error *err) {
    sb text = {0};
    int rc = -1;
    uint32_t *off = sunset_calloc(st->nrules + 1, sizeof *off); /* where each rule's text starts */
    snprintf(err->msg, sizeof err->msg, "%s", PY_OOM_MSG);
    if (!off) goto cleanup;
    for (size_t i = 0; i < st->nrules; i++) {
        off[i] = (uint32_t)text.len;
        if (!sb_puts(&text, sunset_rule_query(st->rule_of[i])) || !sb_putc(&text, '\n')) goto cleanup;
    }
    off[st->nrules] = (uint32_t)text.len;
    qsrc w = {.path = "query rules", .text = text.s, .len = text.len};
    if (py_query_compile(&st->all, st, &w, err) < 0) goto cleanup;
    /* patterns keep the text's order: rule i owns those that start within its text */
    uint32_t p = 0, total = ts_query_pattern_count(st->all.q);
    for (size_t i = 0; i < st->nrules; i++) {
        uint32_t first = p;
        while (p < total && ts_query_start_byte_for_pattern(st->all.q, p) < off[i + 1]) p++;
        if (bind_rule(&st->all, first, p - first, st->rule_of[i], err) < 0) goto cleanup;
    }
    if (p != total) {
        snprintf(err->msg, sizeof err->msg, "python frontend: query rules: pattern count mismatch");
        goto cleanup;
    }
    rc = 0;
cleanup:
    sunset_free(off);
    sb_free(&text);
    return rc;
}

/* ---- frontend state --------------------------------------------------------------------- */

/* ---- chains too costly to query (the frontend refuses them) ---- */

static bool is_link(const py_state *st, TSNode n) {
    TSSymbol sym = ts_node_symbol(n);
    return sym == st->sym_attribute || sym == st->sym_call;
}

/* Chains too costly to query: 1 with *at the head of a postfix chain longer than MAX_CHAIN
 * (links: attribute and call nodes, each the first child of the next), 2 with *at the head
 * of the chain at which the squares of the chains' lengths sum to more than `work`, else 0.
 * One iterative walk (no recursion over the tree) that measures each chain from its head
 * only, so linear in the nodes. */
int py_long_chain(const py_state *st, TSNode root, uint64_t work, TSNode *at) {
    TSTreeCursor cur = ts_tree_cursor_new(root);
    int found = 0;
    bool first_of_link = false; /* entered as the first child of a link */
    uint64_t sum = 0;
    for (;;) {
        TSNode n = ts_tree_cursor_current_node(&cur);
        bool link = is_link(st, n);
        if (link && !first_of_link) {
            uint64_t len = 1;
            for (TSNode k = n; len <= MAX_CHAIN && ts_node_child_count(k) > 0;) {
                k = ts_node_child(k, 0);
                if (!is_link(st, k)) break;
                len++;
            }
            sum += len * len;
            found = len > MAX_CHAIN ? 1 : sum > work ? 2 : 0;
            if (found) {
                *at = n;
                break;
            }
        }
        if (ts_tree_cursor_goto_first_child(&cur)) {
            first_of_link = link;
            continue;
        }
        first_of_link = false;
        while (!ts_tree_cursor_goto_next_sibling(&cur))
            if (!ts_tree_cursor_goto_parent(&cur)) goto done;
    }
done:
    ts_tree_cursor_delete(&cur);
    return found;
}
