/*
 * rules.c — loads rule packs (rules/*.json) with cJSON, validates every field, and compiles
 * each rule into clauses: tests on one kind of fact (an identifier, an include, a CMake
 * argument ...). The sugar kinds gflag and pass expand into several clauses here, so the
 * matcher in engine.c only ever sees clauses. Errors carry FILE:LINE:COL; cJSON does not keep
 * positions, so for a semantic error the position is that of the offending key inside the
 * rule, found by searching the pack's text from the rule's id.
 */
#include "core/loader_int.h"
#include "core/flow.h"

#include "base/json.h"

#include <cjson/cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/anchor.h"
#include "core/lang.h"


/* Position of "key" within the current rule (or of the rule itself, or the file start). */
static size_t locate(const loader *L, const char *key) {
    const char *from = L->text;
    if (L->rule_id) {
        char pat[256];
        snprintf(pat, sizeof pat, "\"%s\"", L->rule_id);
        const char *p = strstr(L->text, pat);
        if (p) {
            /* back up to the "id" key of this rule */
            const char *q = p;
            while (q > L->text && *q != '{') q--;
            from = q;
        }
    }
    if (key) {
        char pat[128];
        snprintf(pat, sizeof pat, "\"%s\"", key);
        const char *p = strstr(from, pat);
        if (p) return (size_t)(p - L->text);
    }
    return (size_t)(from - L->text);
}

static int vfail_at(loader *L, size_t off, const char *fmt, va_list ap) {
    unsigned line, col;
    json_line_col(L->text, off, &line, &col);
    char msg[400];
    vsnprintf(msg, sizeof msg, fmt, ap);
    if (L->rule_id)
        snprintf(L->err->msg, sizeof L->err->msg, "%s:%u:%u: rule %s: %s", L->origin, line, col,
                 L->rule_id, msg);
    else
        snprintf(L->err->msg, sizeof L->err->msg, "%s:%u:%u: %s", L->origin, line, col, msg);
    return -1;
}

/* An error at "key" of the current rule (located by searching the text). */
int ld_fail(loader *L, const char *key, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vfail_at(L, locate(L, key), fmt, ap);
    va_end(ap);
    return -1;
}

/* An error at the value of a parsed item (its exact position). */
int ld_fail_item(loader *L, const cJSON *item, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vfail_at(L, json_offset_of(L->text, strlen(L->text), L->root, item), fmt, ap);
    va_end(ap);
    return -1;
}

int ld_oom(loader *L) { return ld_fail(L, NULL, "out of memory"); }

/* Compile a regex; on error names the rule, field and the offset in the pattern. */
int ld_compile_re(loader *L, const char *field, const char *pat, pcre2_code **out) {
    int ec;
    PCRE2_SIZE eo;
    pcre2_code *re = sunset_re_compile(pat, PCRE2_ZERO_TERMINATED, 0, &ec, &eo);
    if (!re && ec == PCRE2_ERROR_HEAP_FAILED) return ld_oom(L);
    if (!re) {
        PCRE2_UCHAR buf[200];
        pcre2_get_error_message(ec, buf, sizeof buf);
        return ld_fail(L, field, "invalid regex in \"%s\" at offset %zu: %s", field, (size_t)eo,
                    (char *)buf);
    }
    pcre2_jit_compile(re, PCRE2_JIT_COMPLETE); /* JIT is an optimisation: ignore failure */
    *out = re;
    return 0;
}

static void strtest_free(strtest *t) {
    for (size_t i = 0; i < t->n_names; i++) sunset_free(t->names[i]);
    sunset_free(t->names);
    pcre2_code_free(t->re);
    sunset_free(t->src);
    relit_free(t->lit);
    memset(t, 0, sizeof *t);
}

static int cmp_str(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int strtest_names(loader *L, strtest *t, const char *field, const cJSON *arr,
                         const char *prefix) {
    if (!cJSON_IsArray(arr) || cJSON_GetArraySize(arr) == 0)
        return ld_fail(L, field, "\"%s\" must be a non-empty array of strings", field);
    size_t n = (size_t)cJSON_GetArraySize(arr);
    t->names = sunset_calloc(n, sizeof(char *));
    if (!t->names) return ld_oom(L);
    const cJSON *it;
    cJSON_ArrayForEach(it, arr) {
        if (!cJSON_IsString(it) || !it->valuestring[0])
            return ld_fail(L, field, "\"%s\" must hold non-empty strings", field);
        sb b = {0};
        sb_puts(&b, prefix ? prefix : "");
        sb_puts(&b, it->valuestring);
        if (b.oom) {
            sb_free(&b);
            return ld_oom(L);
        }
        t->names[t->n_names++] = sb_take(&b);
    }
    qsort(t->names, t->n_names, sizeof(char *), cmp_str);
    return 0;
}

static int strtest_re(loader *L, strtest *t, const char *field, const cJSON *v) {
    if (!cJSON_IsString(v)) return ld_fail(L, field, "\"%s\" must be a string (a PCRE2 regex)", field);
    if (!(t->src = sunset_strndup(v->valuestring, strlen(v->valuestring)))) return ld_oom(L);
    if (ld_compile_re(L, field, v->valuestring, &t->re)) return -1;
    t->lit = relit_new(t->src, strlen(t->src), 0); /* NULL (none known, OOM): the regex always runs */
    return 0;
}

static int strtest_copy(loader *L, strtest *dst, const strtest *src) {
    memset(dst, 0, sizeof *dst);
    if (src->n_names) {
        dst->names = sunset_calloc(src->n_names, sizeof(char *));
        if (!dst->names) return ld_oom(L);
        for (size_t i = 0; i < src->n_names; i++) {
            dst->names[i] = sunset_strndup(src->names[i], strlen(src->names[i]));
            if (!dst->names[i]) return ld_oom(L);
            dst->n_names++;
        }
    }
    if (src->re) {
        dst->re = pcre2_code_copy_with_tables(src->re);
        if (!dst->re) return ld_oom(L);
        pcre2_jit_compile(dst->re, PCRE2_JIT_COMPLETE);
    }
    if (src->src && !(dst->src = sunset_strndup(src->src, strlen(src->src)))) return ld_oom(L);
    if (dst->src && dst->re) dst->lit = relit_new(dst->src, strlen(dst->src), 0);
    return 0;
}

static clause *add_clause(loader *L, sunset_rule *r, int fact, unsigned ctx_mask) {
    clause c = {0};
    c.rule = r;
    c.fact = fact;
    c.ctx_mask = ctx_mask & r->ctx_mask;
    /* a comment's whole text is a string only to a string matcher that asks ("comments") */
    if (fact == SUNSET_FACT_STRING) c.ctx_mask &= ~(1u << SUNSET_CTX_COMMENT);
    clause *p = vec_push(&r->clauses, &c);
    if (!p) ld_oom(L);
    return p;
}

#define CTX_ALL ((1u << SUNSET_CTX_COUNT) - 1)
#define CTX_CODE (1u << SUNSET_CTX_CODE)
#define CTX_TEXTUAL (CTX_ALL & ~CTX_CODE)
/* code facts also come from docstrings' code examples (Python), at docstring severity */
#define CTX_CODE_DOC (CTX_CODE | (1u << SUNSET_CTX_DOCSTRING) | (1u << SUNSET_CTX_DEAD_CODE))

/* The main text test shared by most kinds: "names" or "pattern". required: one must be given. */
static int main_test(loader *L, const cJSON *m, strtest *t, bool required) {
    const cJSON *names = cJSON_GetObjectItemCaseSensitive(m, "names");
    const cJSON *pat = cJSON_GetObjectItemCaseSensitive(m, "pattern");
    if (names && pat) return ld_fail(L, "names", "give \"names\" or \"pattern\", not both");
    if (names) return strtest_names(L, t, "names", names, NULL);
    if (pat) return strtest_re(L, t, "pattern", pat);
    if (required) return ld_fail(L, "match", "the matcher needs \"names\" or \"pattern\"");
    return 0;
}

static int opt_re(loader *L, const cJSON *m, const char *field, strtest *t) {
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(m, field);
    return v ? strtest_re(L, t, field, v) : 0;
}

static bool has_field(const cJSON *o, const char *f) {
    return cJSON_GetObjectItemCaseSensitive(o, f) != NULL;
}

/* Reject fields the kind does not know: a typo must not silently widen a rule. */
int ld_check_fields(loader *L, const cJSON *o, const char *what, const char *const *allowed) {
    const cJSON *it;
    cJSON_ArrayForEach(it, o) {
        bool ok = false;
        for (const char *const *a = allowed; *a; a++)
            if (strcmp(*a, it->string) == 0) ok = true;
        if (!ok) return ld_fail(L, it->string, "unknown field \"%s\" in %s", it->string, what);
    }
    return 0;
}

static int add_literals_from(loader *L, sunset_rule *r, const strtest *t, const char *prefix) {
    for (size_t i = 0; i < t->n_names; i++) {
        sb b = {0};
        sb_puts(&b, prefix ? prefix : "");
        sb_puts(&b, t->names[i]);
        if (b.oom) {
            sb_free(&b);
            return ld_oom(L);
        }
        char *s = sb_take(&b);
        if (!vec_push(&r->literals, &s)) {
            sunset_free(s);
            return ld_oom(L);
        }
    }
    return 0;
}

/* ---- the matcher kinds: one row each (kinds[] below), compiled by the row's function ---- */

typedef struct kind_row kind_row;
typedef int (*kind_compile)(loader *L, sunset_rule *r, const cJSON *m, const kind_row *k);
struct kind_row {
    const char *name;          /* as rules/*.json spell it */
    unsigned langs;            /* 1u << sunset_lang: the languages it applies to */
    int specificity;           /* higher wins when rules meet on one span */
    const char *const *fields; /* the "match" fields it knows, NULL-terminated */
    kind_compile compile;
    /* for compile_simple: one clause on `fact` in `ctx`, its main test "names"/"pattern"
     * ("pattern" only when pattern_only), `aux` an optional regex field for its aux text,
     * the names the prefilter's literals when `literals` */
    int fact;
    unsigned ctx;
    const char *aux;
    bool pattern_only, literals;
};

/* One clause on one fact kind: include, base_class, keyword, call, definition, string, text. */
static int compile_simple(loader *L, sunset_rule *r, const cJSON *m, const kind_row *k) {
    if (k->pattern_only && !has_field(m, "pattern")) return ld_fail(L, "match", "the matcher needs \"pattern\"");
    clause *c = add_clause(L, r, k->fact, k->ctx);
    if (!c) return -1;
    if (main_test(L, m, &c->main, true) || (k->aux && opt_re(L, m, k->aux, &c->aux))) return -1;
    return k->literals ? add_literals_from(L, r, &c->main, NULL) : 0;
}

/* string: a literal's or docstring's contents; with "comments": true, a comment's text too
 * (prose such as "use the parallel executor", which no single word says). */
static int compile_string(loader *L, sunset_rule *r, const cJSON *m, const kind_row *k) {
    const cJSON *cm = cJSON_GetObjectItemCaseSensitive(m, "comments");
    if (cm && !cJSON_IsBool(cm)) return ld_fail(L, "comments", "\"comments\" must be true or false");
    if (compile_simple(L, r, m, k)) return -1;
    if (cJSON_IsTrue(cm) && (r->ctx_mask & (1u << SUNSET_CTX_COMMENT))) {
        VEC_AT(&r->clauses, clause, r->clauses.n - 1).ctx_mask |= 1u << SUNSET_CTX_COMMENT;
        for (int l = 0; l < SUNSET_LANG_COUNT; l++)
            if (r->lang_mask & (1u << l)) L->rs->comment_strings[l] = true;
    }
    return 0;
}

static int compile_ident(loader *L, sunset_rule *r, const cJSON *m, const kind_row *k) {
    strtest main = {0}, call = {0}, qual = {0};
    clause *c;
    int rc = main_test(L, m, &main, true) || opt_re(L, m, "call", &call) || opt_re(L, m, "qualified", &qual);
    if (!rc && add_literals_from(L, r, &main, NULL)) rc = -1;
    if (!rc && (c = add_clause(L, r, SUNSET_FACT_IDENT, CTX_CODE_DOC))) {
        rc = strtest_copy(L, &c->main, &main) || strtest_copy(L, &c->aux, &call) ||
             strtest_copy(L, &c->qual, &qual);
    } else if (!rc) rc = -1;
    /* Words in comments and strings: a call constraint cannot hold there. */
    if (!rc && !call.re && (r->ctx_mask & CTX_TEXTUAL)) {
        if ((c = add_clause(L, r, MATCH_WORD, CTX_TEXTUAL))) rc = strtest_copy(L, &c->main, &main);
        else rc = -1;
    }
    strtest_free(&main);
    strtest_free(&call);
    strtest_free(&qual);
    return rc;
}

static int compile_import(loader *L, sunset_rule *r, const cJSON *m, const kind_row *k) {
    if (!has_field(m, "module") && !has_field(m, "name"))
        return ld_fail(L, "match", "an import matcher needs \"module\" or \"name\"");
    clause *c = add_clause(L, r, SUNSET_FACT_IMPORT, CTX_CODE_DOC);
    if (!c) return -1;
    return opt_re(L, m, "module", &c->main) || opt_re(L, m, "name", &c->aux);
}

static int compile_attr(loader *L, sunset_rule *r, const cJSON *m, const kind_row *k) {
    /* a flow receiver: the clause is tested by core/flow.c on the uses of bound objects,
     * so it sits under BIND, a kind no fact is matched against; literals come from the
     * rules it is bound to (no seed, no finding) */
    const cJSON *rv = cJSON_GetObjectItemCaseSensitive(m, "receiver");
    bool flow = cJSON_IsObject(rv);
    clause *c = add_clause(L, r, flow ? SUNSET_FACT_BIND : SUNSET_FACT_ATTR, CTX_CODE_DOC);
    if (!c) return -1;
    const cJSON *st = cJSON_GetObjectItemCaseSensitive(m, "store");
    if (st && !cJSON_IsBool(st)) return ld_fail(L, "store", "\"store\" must be true or false");
    if (cJSON_IsTrue(st)) c->flags |= SUNSET_FACT_STORE;
    if (flow) {
        char msg[200];
        r->specificity = 1; /* on one span the bound rule's own finding stands */
        if (flow_rule_parse(r, rv, msg, sizeof msg)) return ld_fail(L, "receiver", "%s", msg);
        return main_test(L, m, &c->main, false);
    }
    if (main_test(L, m, &c->main, true) || opt_re(L, m, "receiver", &c->aux)) return -1;
    return add_literals_from(L, r, &c->main, NULL);
}

/* The query's text: inline, or read from queries_dir/query_file (then its origin). */
static int query_text(loader *L, sunset_rule *r, const cJSON *q, const cJSON *qf) {
    if (q) {
        if (!cJSON_IsString(q)) return ld_fail(L, "query", "\"query\" must be a string");
        r->query = sunset_strndup(q->valuestring, strlen(q->valuestring));
        return r->query ? 0 : ld_oom(L);
    }
    if (!cJSON_IsString(qf) || strstr(qf->valuestring, ".."))
        return ld_fail(L, "query_file", "\"query_file\" must be a relative path without ..");
    sb p = {0};
    sb_printf(&p, "%s/%s", L->rs->queries_dir ? L->rs->queries_dir : "queries", qf->valuestring);
    size_t len;
    int e = p.oom ? ENOMEM : read_file(p.s, 1 << 20, &r->query, &len);
    if (e) {
        ld_fail(L, "query_file", "cannot read %s: %s", p.s, strerror(e));
        sb_free(&p);
        return -1;
    }
    sunset_free(r->origin);
    r->origin = sb_take(&p);
    return 0;
}

static int compile_query(loader *L, sunset_rule *r, const cJSON *m, const kind_row *k) {
    const cJSON *q = cJSON_GetObjectItemCaseSensitive(m, "query");
    const cJSON *qf = cJSON_GetObjectItemCaseSensitive(m, "query_file");
    const cJSON *cap = cJSON_GetObjectItemCaseSensitive(m, "capture");
    if (!!q == !!qf) return ld_fail(L, "match", "a query matcher needs \"query\" or \"query_file\"");
    if (cap && !cJSON_IsString(cap)) return ld_fail(L, "capture", "\"capture\" must be a string");
    unsigned langs = r->lang_mask;
    if (langs == 0 || (langs & (langs - 1))) return ld_fail(L, "languages", "a query rule takes exactly one language");
    for (int i = 0; i < SUNSET_LANG_COUNT; i++)
        if (langs == 1u << i) r->query_lang = (sunset_lang)i;
    if (query_text(L, r, q, qf)) return -1;
    r->capture = sunset_strndup(cap ? cap->valuestring : "", cap ? strlen(cap->valuestring) : 0);
    return r->capture ? 0 : ld_oom(L);
}

static int compile_path(loader *L, sunset_rule *r, const cJSON *m, const kind_row *k) {
    if (!has_field(m, "pattern")) return ld_fail(L, "match", "the matcher needs \"pattern\"");
    return main_test(L, m, &r->path, true);
}

static int compile_cmake(loader *L, sunset_rule *r, const cJSON *m, const kind_row *k) {
    /* quoted arguments arrive with ctx STRING: they are still arguments */
    clause *c = add_clause(L, r, SUNSET_FACT_CMAKE, CTX_CODE | (1u << SUNSET_CTX_STRING));
    if (!c) return -1;
    const cJSON *td = cJSON_GetObjectItemCaseSensitive(m, "target_def");
    if (td && !cJSON_IsBool(td)) return ld_fail(L, "target_def", "\"target_def\" must be true or false");
    if (cJSON_IsTrue(td)) c->flags |= SUNSET_FACT_TARGET;
    const cJSON *names = cJSON_GetObjectItemCaseSensitive(m, "names");
    if (names && has_field(m, "arg")) return ld_fail(L, "names", "give \"names\" or \"arg\", not both");
    int rc = names ? strtest_names(L, &c->main, "names", names, NULL) : opt_re(L, m, "arg", &c->main);
    if (!rc) rc = opt_re(L, m, "command", &c->aux) || opt_re(L, m, "target", &c->target) ||
                  opt_re(L, m, "section", &c->section);
    if (!rc && !c->main.n_names && !c->main.re && !c->target.re)
        rc = ld_fail(L, "match", "a cmake matcher needs \"arg\", \"names\" or \"target\"");
    if (!rc) rc = add_literals_from(L, r, &c->main, NULL);
    return rc;
}

/* A clause on `fact` in `ctx` testing a copy of `names`; 0, or -1 (OOM reported). */
static int names_clause(loader *L, sunset_rule *r, int fact, unsigned ctx, const strtest *names, clause **out) {
    clause *c = add_clause(L, r, fact, ctx);
    if (out) *out = c;
    return c ? strtest_copy(L, &c->main, names) : -1;
}

/* gflag: FLAGS_x identifiers and words; x as the argument of a macro settings.macros calls a
 * flag definer (DEFINE_bool, DECLARE_int32 ...); "x" and "FLAGS_x" strings; \bFLAGS_x\b in
 * text files. */
static int gflag_clauses(loader *L, sunset_rule *r, const cJSON *arr, const strtest *names) {
    strtest flags_names = {0};
    clause *c;
    int rc = strtest_names(L, &flags_names, "names", arr, "FLAGS_");
    if (!rc) rc = names_clause(L, r, SUNSET_FACT_IDENT, CTX_CODE, &flags_names, NULL);
    if (!rc) rc = names_clause(L, r, MATCH_WORD, CTX_TEXTUAL, &flags_names, NULL);
    const char *definers = L->rs->flag_definers; /* settings.macros */
    if (!rc && definers) rc = names_clause(L, r, SUNSET_FACT_IDENT, CTX_CODE, names, &c);
    if (!rc && definers) rc = ld_compile_re(L, "names", definers, &c->aux.re);
    if (!rc) rc = names_clause(L, r, SUNSET_FACT_STRING, CTX_TEXTUAL, names, NULL);
    if (!rc) rc = names_clause(L, r, SUNSET_FACT_STRING, CTX_TEXTUAL, &flags_names, NULL);
    if (!rc) {
        sb re = {0};
        sb_puts(&re, "\\bFLAGS_(?:");
        for (size_t i = 0; i < names->n_names; i++) sb_printf(&re, "%s%s", i ? "|" : "", names->names[i]);
        sb_puts(&re, ")\\b");
        if (re.oom) rc = ld_oom(L);
        if (!rc && (c = add_clause(L, r, SUNSET_FACT_LINE, CTX_ALL))) rc = ld_compile_re(L, "names", re.s, &c->main.re);
        sb_free(&re);
    }
    if (!rc) rc = add_literals_from(L, r, &flags_names, NULL);
    strtest_free(&flags_names);
    return rc;
}

/* pass: the name as the argument of a macro settings.macros calls a pass registrar (USE_PASS,
 * REGISTER_PASS), a string, a CMake argument. */
static int pass_clauses(loader *L, sunset_rule *r, const strtest *names) {
    clause *c;
    const char *registrars = L->rs->pass_registrars; /* settings.macros */
    int rc = registrars ? names_clause(L, r, SUNSET_FACT_IDENT, CTX_CODE, names, &c) : 0;
    if (!rc && registrars) rc = ld_compile_re(L, "names", registrars, &c->aux.re);
    if (!rc) rc = names_clause(L, r, SUNSET_FACT_STRING, CTX_TEXTUAL, names, NULL);
    if (!rc) rc = names_clause(L, r, SUNSET_FACT_CMAKE, CTX_CODE | (1u << SUNSET_CTX_STRING), names, NULL);
    return rc;
}

static int compile_named(loader *L, sunset_rule *r, const cJSON *m, const kind_row *k) {
    strtest names = {0};
    const cJSON *arr = cJSON_GetObjectItemCaseSensitive(m, "names");
    if (!arr) return ld_fail(L, "match", "the matcher needs \"names\"");
    int rc = strtest_names(L, &names, "names", arr, NULL);
    if (!rc) rc = add_literals_from(L, r, &names, NULL);
    if (!rc) rc = k->fact == SUNSET_FACT_IDENT ? gflag_clauses(L, r, arr, &names) : pass_clauses(L, r, &names);
    strtest_free(&names);
    return rc;
}

static const char *const f_ident[] = {"kind", "names", "pattern", "call", "qualified", NULL};
static const char *const f_pat[] = {"kind", "pattern", NULL};
static const char *const f_import[] = {"kind", "module", "name", NULL};
static const char *const f_base[] = {"kind", "pattern", "class", NULL};
static const char *const f_attr[] = {"kind", "names", "pattern", "receiver", "store", NULL};
static const char *const f_kw[] = {"kind", "names", "pattern", "callee", NULL};
static const char *const f_def[] = {"kind", "names", "pattern", "def_kind", NULL};
static const char *const f_str[] = {"kind", "names", "pattern", "comments", NULL};
static const char *const f_query[] = {"kind", "query", "query_file", "capture", NULL};
static const char *const f_cmake[] = {"kind", "command", "target", "section", "arg", "names", "target_def", NULL};
static const char *const f_names[] = {"kind", "names", NULL};

/* Every matcher kind, one row each: its name, languages, specificity, fields and compiler. */
#define L(x) (1u << SUNSET_LANG_##x)
static const kind_row kinds[RK_COUNT] = {
    [RK_IDENTIFIER] = {"identifier", L(CPP) | L(PYTHON), 2, f_ident, compile_ident},
    [RK_INCLUDE] = {"include", L(CPP), 3, f_pat, compile_simple, SUNSET_FACT_INCLUDE, CTX_ALL, NULL, true, false},
    [RK_IMPORT] = {"import", L(PYTHON), 3, f_import, compile_import},
    [RK_BASE_CLASS] = {"base_class", L(CPP) | L(PYTHON), 3, f_base, compile_simple, SUNSET_FACT_BASE, CTX_CODE,
                       "class", true, false},
    [RK_ATTRIBUTE] = {"attribute", L(CPP) | L(PYTHON), 3, f_attr, compile_attr},
    [RK_KEYWORD] = {"keyword", L(PYTHON), 3, f_kw, compile_simple, SUNSET_FACT_KWARG, CTX_CODE_DOC, "callee",
                    false, true},
    [RK_CALL] = {"call", L(CPP) | L(PYTHON), 3, f_pat, compile_simple, SUNSET_FACT_CALL, CTX_ALL, NULL, true, false},
    [RK_DEFINITION] = {"definition", L(CPP) | L(PYTHON), 3, f_def, compile_simple, SUNSET_FACT_DEF, CTX_CODE,
                       "def_kind", false, true},
    [RK_STRING] = {"string", L(CPP) | L(PYTHON) | L(PROTO) | L(SHELL), 3, f_str, compile_string, SUNSET_FACT_STRING,
                   CTX_TEXTUAL, NULL, false, true},
    [RK_QUERY] = {"query", L(PYTHON), 4, f_query, compile_query},
    [RK_PATH] = {"path", ~0u & ~1u, 0, f_pat, compile_path},
    [RK_CMAKE] = {"cmake", L(CMAKE), 3, f_cmake, compile_cmake},
    [RK_GFLAG] = {"gflag", L(CPP) | L(PYTHON) | L(CMAKE) | L(SHELL) | L(TEXT) | L(MARKDOWN) | L(RST), 3, f_names,
                  compile_named, SUNSET_FACT_IDENT},
    [RK_PASS] = {"pass", L(CPP) | L(PYTHON) | L(CMAKE), 3, f_names, compile_named, SUNSET_FACT_CMAKE},
    [RK_TEXT] = {"text", L(CMAKE) | L(PROTO) | L(SHELL) | L(MARKDOWN) | L(RST) | L(TEXT), 1, f_pat, compile_simple,
                 SUNSET_FACT_LINE, CTX_ALL, NULL, true, false},
};
#undef L

static int compile_match(loader *L, sunset_rule *r, const cJSON *m) {
    const cJSON *k = cJSON_GetObjectItemCaseSensitive(m, "kind");
    if (!cJSON_IsString(k)) return ld_fail(L, "match", "\"match\" needs a \"kind\" string");
    const kind_row *row = NULL;
    for (int i = 0; i < RK_COUNT; i++)
        if (strcmp(kinds[i].name, k->valuestring) == 0) {
            row = &kinds[i];
            r->kind = (rule_kind)i;
        }
    if (!row) return ld_fail(L, "kind", "unknown match kind \"%s\"", k->valuestring);
    r->specificity = row->specificity;
    if (r->lang_mask & ~row->langs)
        return ld_fail(L, "languages", "a \"%s\" matcher does not apply to one of the languages given",
                    k->valuestring);
    if (ld_check_fields(L, m, "\"match\"", row->fields)) return -1;
    return row->compile(L, r, m, row);
}

/* A list of language names (key: the field's name, for the message) as a mask. */
static int lang_mask_of(loader *L, const char *key, const cJSON *arr, unsigned *mask) {
    if (!cJSON_IsArray(arr) || cJSON_GetArraySize(arr) == 0)
        return ld_fail(L, key, "\"%s\" must be a non-empty array", key);
    const cJSON *it;
    *mask = 0;
    cJSON_ArrayForEach(it, arr) {
        sunset_lang l = cJSON_IsString(it) ? sunset_lang_from_name(it->valuestring) : SUNSET_LANG_NONE;
        if (l == SUNSET_LANG_NONE)
            return ld_fail(L, key, "unknown language %s%s%s (known: cpp python cmake proto "
                        "shell markdown rst text)", cJSON_IsString(it) ? "\"" : "",
                        cJSON_IsString(it) ? it->valuestring : "(not a string)",
                        cJSON_IsString(it) ? "\"" : "");
        *mask |= 1u << l;
    }
    return 0;
}

static int ctx_mask_of(loader *L, const cJSON *arr, unsigned *mask) {
    if (!cJSON_IsArray(arr) || cJSON_GetArraySize(arr) == 0)
        return ld_fail(L, "contexts", "\"contexts\" must be a non-empty array");
    *mask = 0;
    const cJSON *it;
    cJSON_ArrayForEach(it, arr) {
        int found = -1;
        for (int i = 0; i < SUNSET_CTX_COUNT && cJSON_IsString(it); i++)
            if (strcmp(it->valuestring, sunset_context_name((sunset_context)i)) == 0) found = i;
        if (found < 0)
            return ld_fail(L, "contexts", "unknown context (known: code comment string docstring dead_code)");
        *mask |= 1u << found;
    }
    /* commented-out code is a comment: a rule for comments sees it unless it says otherwise */
    if (*mask & (1u << SUNSET_CTX_COMMENT)) *mask |= 1u << SUNSET_CTX_DEAD_CODE;
    return 0;
}

int ld_severity_of(loader *L, const cJSON *v, const char *field, sunset_severity *out) {
    int s = cJSON_IsString(v) ? sunset_severity_from_name(v->valuestring) : -1;
    if (s < 0) return ld_fail(L, field, "\"%s\" must be \"error\", \"warning\" or \"info\"", field);
    *out = (sunset_severity)s;
    return 0;
}

int ld_regex_list(loader *L, const cJSON *arr, const char *field, vec *out) {
    if (!cJSON_IsArray(arr)) return ld_fail(L, field, "\"%s\" must be an array of regexes", field);
    const cJSON *it;
    cJSON_ArrayForEach(it, arr) {
        pcre2_code *re;
        if (!cJSON_IsString(it)) return ld_fail(L, field, "\"%s\" must hold strings", field);
        if (ld_compile_re(L, field, it->valuestring, &re)) return -1;
        if (!vec_push(out, &re)) {
            pcre2_code_free(re);
            return ld_oom(L);
        }
    }
    return 0;
}

int ld_regex_lits(loader *L, const cJSON *arr, vec *out) {
    const cJSON *it;
    cJSON_ArrayForEach(it, arr) {
        relit *rl = relit_new(it->valuestring, strlen(it->valuestring), 0);
        if (!vec_push(out, &rl)) return relit_free(rl), ld_oom(L);
    }
    return 0;
}

static char *dup_string_field(loader *L, const cJSON *o, const char *field, bool required) {
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, field);
    if (!v) {
        if (required) ld_fail(L, field, "missing \"%s\"", field);
        return NULL;
    }
    if (!cJSON_IsString(v) || !v->valuestring[0]) {
        ld_fail(L, field, "\"%s\" must be a non-empty string", field);
        return NULL;
    }
    char *s = sunset_strndup(v->valuestring, strlen(v->valuestring));
    if (!s) ld_oom(L);
    return s;
}

/* "migrate_to" (else the pack's) and "mechanical": what a live use of the rule's match moves
 * to, and the one edit the patch may make for it by itself. */
static int ld_migrate(loader *L, const cJSON *o, sunset_rule *r) {
    if (has_field(o, "migrate_to")) {
        if (!(r->migrate_to = dup_string_field(L, o, "migrate_to", true))) return -1;
    } else if (L->pack_migrate_to && !(r->migrate_to = sunset_strndup(L->pack_migrate_to, strlen(L->pack_migrate_to))))
        return ld_oom(L);
    if (!has_field(o, "mechanical")) return 0;
    if (!(r->mechanical = dup_string_field(L, o, "mechanical", true))) return -1;
    if (strcmp(r->mechanical, "drop-argument"))
        return ld_fail(L, "mechanical", "\"mechanical\" must be \"drop-argument\"");
    return 0;
}

static void rule_free(sunset_rule *r) {
    if (!r) return;
    sunset_free(r->id);
    sunset_free(r->family);
    sunset_free(r->message);
    sunset_free(r->description);
    sunset_free(r->fix);
    sunset_free(r->migrate_to);
    sunset_free(r->mechanical);
    sunset_free(r->origin);
    for (size_t i = 0; i < r->path_include.n; i++) pcre2_code_free(VEC_AT(&r->path_include, pcre2_code *, i));
    for (size_t i = 0; i < r->path_exclude.n; i++) pcre2_code_free(VEC_AT(&r->path_exclude, pcre2_code *, i));
    vec_free(&r->path_include);
    vec_free(&r->path_exclude);
    for (size_t i = 0; i < r->clauses.n; i++) {
        clause *c = &VEC_AT(&r->clauses, clause, i);
        strtest_free(&c->main);
        strtest_free(&c->aux);
        strtest_free(&c->target);
        strtest_free(&c->section);
        strtest_free(&c->qual);
    }
    vec_free(&r->clauses);
    strtest_free(&r->path);
    sunset_free(r->query);
    sunset_free(r->capture);
    for (size_t i = 0; i < r->literals.n; i++) sunset_free(VEC_AT(&r->literals, char *, i));
    vec_free(&r->literals);
    sunset_free(r->examples_json);
    pcre2_code_free(r->unless_line);
    pcre2_code_free(r->unless_file);
    pcre2_code_free(r->unless_file_without);
    pcre2_code_free(r->unless_untied);
    for (size_t i = 0; i < r->unless_tree_without.n; i++) sunset_free(VEC_AT(&r->unless_tree_without, char *, i));
    vec_free(&r->unless_tree_without);
    flow_rule_free(r->flow);
    sunset_free(r);
}

static bool valid_id(const char *s) {
    if (!(*s >= 'A' && *s <= 'Z')) return false;
    bool dash = false;
    for (const char *p = s; *p; p++) {
        if (*p == '-') {
            if (p[1] == 0 || p[1] == '-') return false;
            dash = true;
        } else if (!((*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9'))) {
            return false;
        }
    }
    return dash;
}

static bool family_known(const sunset_ruleset *rs, const char *f) {
    for (size_t i = 0; i < rs->families.n; i++)
        if (strcmp(VEC_AT(&rs->families, family_info, i).id, f) == 0) return true;
    return false;
}

/* "unless.tree_without": paths, relative to the tree's top, as settings.anchor.tree's. */
static int ld_unless_tree(loader *L, sunset_rule *r, const cJSON *a) {
    if (!a) return 0;
    if (!cJSON_IsArray(a) || !cJSON_GetArraySize(a))
        return ld_fail(L, "tree_without", "\"unless.tree_without\" must be a non-empty array of paths");
    const cJSON *it;
    cJSON_ArrayForEach(it, a) {
        if (!cJSON_IsString(it) || !*it->valuestring || it->valuestring[0] == '/')
            return ld_fail(L, "tree_without", "\"unless.tree_without\" holds relative paths");
        char *d = sunset_strndup(it->valuestring, strlen(it->valuestring));
        if (!d || !vec_push(&r->unless_tree_without, &d)) {
            sunset_free(d);
            return ld_oom(L);
        }
    }
    return 0;
}

/* The rule's family: its own or its pack's, declared in the settings pack. */
static int ld_rule_family(loader *L, sunset_rule *r, const cJSON *o, const char *pack_family) {
    if (has_field(o, "family")) {
        if (!(r->family = dup_string_field(L, o, "family", true))) return -1;
    } else if (pack_family) {
        r->family = sunset_strndup(pack_family, strlen(pack_family));
        if (!r->family) return ld_oom(L);
    } else {
        ld_fail(L, NULL, "no \"family\" in the rule or its pack");
        return -1;
    }
    if (!family_known(L->rs, r->family)) {
        ld_fail(L, "family", "family \"%s\" is not declared in the settings pack", r->family);
        return -1;
    }
    return 0;
}

/* "task" (1 to the settings' task bound), "languages" and "contexts". */
static int ld_rule_task(loader *L, sunset_rule *r, const cJSON *o) {
    const cJSON *task = cJSON_GetObjectItemCaseSensitive(o, "task");
    long tv = 0;
    json_int_rc trc = json_get_int(task, INT_MIN, INT_MAX, &tv); /* (int)1e300 is undefined */
    if (trc == JSON_INT_RANGE) {
        ld_fail_item(L, task, "\"task\": %s", json_int_error(trc));
        return -1;
    }
    int task_max = sunset_ruleset_task_max(L->rs);
    if (trc != JSON_INT_OK || tv < 1 || tv > task_max) {
        ld_fail(L, "task", "\"task\" must be a whole number from 1 to %d", task_max);
        return -1;
    }
    r->task = (int)tv;
    if (lang_mask_of(L, "languages", cJSON_GetObjectItemCaseSensitive(o, "languages"), &r->lang_mask)) return -1;
    const cJSON *ctx = cJSON_GetObjectItemCaseSensitive(o, "contexts");
    if (ctx && ctx_mask_of(L, ctx, &r->ctx_mask)) return -1;
    return 0;
}

/* "severity", "comment_severity", "string_severity": the severity per context. */
static int ld_rule_severity(loader *L, sunset_rule *r, const cJSON *o) {
    sunset_severity sev = SUNSET_SEV_ERROR, csev = SUNSET_SEV_INFO, ssev;
    if (!has_field(o, "severity")) { ld_fail(L, NULL, "missing \"severity\""); return -1; }
    if (ld_severity_of(L, cJSON_GetObjectItemCaseSensitive(o, "severity"), "severity", &sev)) return -1;
    ssev = sev;
    if (has_field(o, "comment_severity") &&
        ld_severity_of(L, cJSON_GetObjectItemCaseSensitive(o, "comment_severity"), "comment_severity", &csev))
        return -1;
    if (has_field(o, "string_severity") &&
        ld_severity_of(L, cJSON_GetObjectItemCaseSensitive(o, "string_severity"), "string_severity", &ssev))
        return -1;
    r->sev[SUNSET_CTX_CODE] = sev;
    r->sev[SUNSET_CTX_COMMENT] = r->sev[SUNSET_CTX_DOCSTRING] = csev;
    r->sev[SUNSET_CTX_STRING] = ssev;
    /* dead code is deleted, not reworded: above a comment, at most a warning */
    r->sev[SUNSET_CTX_DEAD_CODE] = sev < SUNSET_SEV_WARNING ? sev : SUNSET_SEV_WARNING;
    if (r->sev[SUNSET_CTX_DEAD_CODE] < csev) r->sev[SUNSET_CTX_DEAD_CODE] = csev;
    return 0;
}

/* "message", "fix", "description" (or the pack's) and "anchored": true, false, or the
 * languages in which it is anchored (unanchored in the others). */
static int ld_rule_texts(loader *L, sunset_rule *r, const cJSON *o, const char *pack_desc) {
    if (!(r->message = dup_string_field(L, o, "message", true))) return -1;
    if (!(r->fix = dup_string_field(L, o, "fix", true))) return -1;
    if (ld_migrate(L, o, r)) return -1;
    if (has_field(o, "description") && !(r->description = dup_string_field(L, o, "description", true))) return -1;
    if (!r->description && pack_desc && !(r->description = sunset_strndup(pack_desc, strlen(pack_desc)))) return ld_oom(L);
    const cJSON *anc = cJSON_GetObjectItemCaseSensitive(o, "anchored");
    if (anc && cJSON_IsArray(anc)) return lang_mask_of(L, "anchored", anc, &r->anchored_langs);
    if (anc && !cJSON_IsBool(anc)) { ld_fail(L, "anchored", "\"anchored\" must be true, false or a list of languages"); return -1; }
    r->anchored = anc ? cJSON_IsTrue(anc) : !L->pack_unanchored;
    return 0;
}

/* "unless": line, file, file_without, untied regexes and tree_without paths. */
static int ld_rule_unless(loader *L, sunset_rule *r, const cJSON *o) {
    const cJSON *unless = cJSON_GetObjectItemCaseSensitive(o, "unless"), *uv;
    if (unless) {
        static const char *const uf[] = {"line", "file", "file_without", "untied", "tree_without", NULL};
        if (!cJSON_IsObject(unless)) { ld_fail(L, "unless", "\"unless\" must be an object"); return -1; }
        if (ld_check_fields(L, unless, "\"unless\"", uf)) return -1;
        if (ld_unless_tree(L, r, cJSON_GetObjectItemCaseSensitive(unless, "tree_without"))) return -1;
        pcre2_code **res[] = {&r->unless_line, &r->unless_file, &r->unless_file_without, &r->unless_untied};
        for (int k = 0; k < 4; k++) {
            pcre2_code **re = res[k];
            if (!(uv = cJSON_GetObjectItemCaseSensitive(unless, uf[k]))) continue;
            if (!cJSON_IsString(uv)) { ld_fail(L, uf[k], "\"unless.%s\" must be a regex string", uf[k]); return -1; }
            if (ld_compile_re(L, uf[k], uv->valuestring, re)) return -1;
        }
    }
    return 0;
}

/* "paths": include and exclude regex lists. */
static int ld_rule_paths(loader *L, sunset_rule *r, const cJSON *o) {
    const cJSON *paths = cJSON_GetObjectItemCaseSensitive(o, "paths");
    if (paths) {
        static const char *const pf[] = {"include", "exclude", NULL};
        if (!cJSON_IsObject(paths)) { ld_fail(L, "paths", "\"paths\" must be an object"); return -1; }
        if (ld_check_fields(L, paths, "\"paths\"", pf)) return -1;
        const cJSON *inc = cJSON_GetObjectItemCaseSensitive(paths, "include");
        const cJSON *exc = cJSON_GetObjectItemCaseSensitive(paths, "exclude");
        if (inc && ld_regex_list(L, inc, "include", &r->path_include)) return -1;
        if (exc && ld_regex_list(L, exc, "exclude", &r->path_exclude)) return -1;
    }
    return 0;
}

/* "match", compiled, then "literals" for the prefilter (explicit or derived from names). */
static int ld_rule_match(loader *L, sunset_rule *r, const cJSON *o) {
    const cJSON *m = cJSON_GetObjectItemCaseSensitive(o, "match");
    if (!cJSON_IsObject(m)) { ld_fail(L, "match", "missing \"match\" object"); return -1; }
    if (compile_match(L, r, m)) return -1;

    const cJSON *lits = cJSON_GetObjectItemCaseSensitive(o, "literals");
    if (lits) {
        /* explicit literals replace those derived from names: the author may know a rarer
         * string every match must contain (the receiver, say) */
        for (size_t i = 0; i < r->literals.n; i++) sunset_free(VEC_AT(&r->literals, char *, i));
        r->literals.n = 0;
        if (!cJSON_IsArray(lits) || cJSON_GetArraySize(lits) == 0) {
            ld_fail(L, "literals", "\"literals\" must be a non-empty array of strings");
            return -1;
        }
        const cJSON *it;
        cJSON_ArrayForEach(it, lits) {
            if (!cJSON_IsString(it) || strlen(it->valuestring) < 4) {
                ld_fail(L, "literals", "each literal must be a string of at least 4 bytes");
                return -1;
            }
            char *s = sunset_strndup(it->valuestring, strlen(it->valuestring));
            if (!s || !vec_push(&r->literals, &s)) {
                sunset_free(s);
                return ld_oom(L);
            }
        }
    }
    /* a flow rule needs none: it reports nothing in a file where no bound rule matched */
    if (r->kind != RK_PATH && !r->flow && r->literals.n == 0) {
        ld_fail(L, "match", "a regex matcher needs \"literals\" for the prefilter (strings of >= 4 "
             "bytes, one of which every matching file contains)");
        return -1;
    }
    for (size_t i = 0; i < r->literals.n; i++)
        if (strlen(VEC_AT(&r->literals, char *, i)) < 4) {
            ld_fail(L, "names", "name \"%s\" is shorter than 4 bytes: give \"literals\" of >= 4 bytes",
                 VEC_AT(&r->literals, char *, i));
            return -1;
        }
    return 0;
}

/* "examples", kept as compact JSON in our allocator. */
static int ld_rule_examples(loader *L, sunset_rule *r, const cJSON *o) {
    const cJSON *ex = cJSON_GetObjectItemCaseSensitive(o, "examples");
    if (ex) {
        if (!cJSON_IsArray(ex)) { ld_fail(L, "examples", "\"examples\" must be an array"); return -1; }
        r->examples_json = cJSON_PrintUnformatted(ex);
        if (!r->examples_json) return ld_oom(L);
        /* cJSON allocates with malloc: move into our allocator so rule_free stays uniform. */
        char *copy = sunset_strndup(r->examples_json, strlen(r->examples_json));
        cJSON_free(r->examples_json);
        r->examples_json = copy;
        if (!copy) return ld_oom(L);
    }
    return 0;
}

static int load_rule(loader *L, const cJSON *o, const char *pack_family, const char *pack_desc) {
    static const char *const allowed[] = {"id", "family", "task", "languages", "severity",
                                          "comment_severity", "string_severity", "contexts",
                                          "message", "fix", "paths", "match", "literals",
                                          "examples", "description", "anchored", "unless",
                                          "migrate_to", "mechanical", NULL};
    L->rule_id = NULL;
    if (!cJSON_IsObject(o)) return ld_fail(L, "rules", "each rule must be an object");
    const cJSON *idv = cJSON_GetObjectItemCaseSensitive(o, "id");
    if (!cJSON_IsString(idv)) return ld_fail(L, "rules", "a rule without an \"id\" string");
    L->rule_id = idv->valuestring;
    if (!valid_id(idv->valuestring))
        return ld_fail(L, "id", "bad id (want upper-case words joined by '-', e.g. PE-CPP-CLASS)");
    if (sunset_ruleset_find(L->rs, idv->valuestring)) return ld_fail(L, "id", "duplicate rule id");
    if (ld_check_fields(L, o, "a rule", allowed)) return -1;

    sunset_rule *r = sunset_calloc(1, sizeof *r);
    if (!r) return ld_oom(L);
    r->path_include = r->path_exclude = VEC_INIT(pcre2_code *);
    r->clauses = VEC_INIT(clause);
    r->literals = VEC_INIT(char *);
    r->unless_tree_without = VEC_INIT(char *);
    r->index = L->rs->rules.n;
    r->ctx_mask = CTX_ALL;
    int rc = -1;

    if (!(r->id = sunset_strndup(idv->valuestring, strlen(idv->valuestring)))) { ld_oom(L); goto cleanup; }
    r->origin = sunset_strndup(L->origin, strlen(L->origin));
    if (!r->origin) { ld_oom(L); goto cleanup; }
    if (ld_rule_family(L, r, o, pack_family) || ld_rule_task(L, r, o) || ld_rule_severity(L, r, o) ||
        ld_rule_texts(L, r, o, pack_desc) || ld_rule_unless(L, r, o) || ld_rule_paths(L, r, o) ||
        ld_rule_match(L, r, o) || ld_rule_examples(L, r, o))
        goto cleanup;
    if (!vec_push(&L->rs->rules, &r)) { ld_oom(L); goto cleanup; }
    rc = 0;
cleanup:
    if (rc) rule_free(r);
    return rc;
}

/* Parse one pack. Settings come first in the directory order (00-settings.json), so
 * families are known when rules refer to them. */
static int load_pack(loader *L, const char *text) {
    L->text = text;
    L->rule_id = NULL;
    size_t off = 0;
    cJSON *root = json_parse(text, strlen(text), &off);
    L->root = root;
    if (!root) {
        json_parse_error(text, off, L->origin, "invalid JSON", L->err);
        return -1;
    }
    int rc = -1;
    static const char *const allowed[] = {"schema", "pack", "family", "description", "rules",
                                          "settings", "anchored", "migrate_to", NULL};
    if (!cJSON_IsObject(root)) { ld_fail(L, NULL, "a pack must be a JSON object"); goto cleanup; }
    if (ld_check_fields(L, root, "a pack", allowed)) goto cleanup;
    const cJSON *schema = cJSON_GetObjectItemCaseSensitive(root, "schema");
    if (!cJSON_IsNumber(schema)) { ld_fail(L, NULL, "missing \"schema\" (this sunset reads schema %d)", SUNSET_RULE_SCHEMA); goto cleanup; }
    if (schema->valueint != SUNSET_RULE_SCHEMA) {
        ld_fail(L, "schema", "schema %d is not supported (this sunset reads schema %d)",
             schema->valueint, SUNSET_RULE_SCHEMA);
        goto cleanup;
    }
    const cJSON *settings = cJSON_GetObjectItemCaseSensitive(root, "settings");
    if (settings && ld_settings(L, settings)) goto cleanup;
    const cJSON *rules = cJSON_GetObjectItemCaseSensitive(root, "rules");
    if (rules) {
        if (!L->rs->families.n) {
            ld_fail(L, "rules", "rules loaded before the settings pack (it declares the families)");
            goto cleanup;
        }
        const cJSON *fam = cJSON_GetObjectItemCaseSensitive(root, "family");
        if (fam && !cJSON_IsString(fam)) { ld_fail(L, "family", "\"family\" must be a string"); goto cleanup; }
        if (!cJSON_IsArray(rules)) { ld_fail(L, "rules", "\"rules\" must be an array"); goto cleanup; }
        const cJSON *anc = cJSON_GetObjectItemCaseSensitive(root, "anchored");
        if (anc && !cJSON_IsBool(anc)) { ld_fail(L, "anchored", "\"anchored\" must be true or false"); goto cleanup; }
        L->pack_unanchored = anc && !cJSON_IsTrue(anc);
        const cJSON *mig = cJSON_GetObjectItemCaseSensitive(root, "migrate_to");
        if (mig && (!cJSON_IsString(mig) || !mig->valuestring[0])) { ld_fail(L, "migrate_to", "\"migrate_to\" must be a non-empty string"); goto cleanup; }
        L->pack_migrate_to = mig ? mig->valuestring : NULL;
        const cJSON *it;
        cJSON_ArrayForEach(it, rules) {
            if (load_rule(L, it, fam ? fam->valuestring : NULL,
                          cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(root, "description")))) goto cleanup;
        }
    } else if (!settings) {
        ld_fail(L, NULL, "a pack needs \"rules\" or \"settings\"");
        goto cleanup;
    }
    rc = 0;
cleanup:
    L->rule_id = NULL;
    L->root = NULL;
    L->pack_migrate_to = NULL;
    cJSON_Delete(root);
    return rc;
}

static sunset_ruleset *ruleset_new(const char *queries_dir) {
    sunset_ruleset *rs = sunset_calloc(1, sizeof *rs);
    if (!rs) return NULL;
    rs->rules = VEC_INIT(sunset_rule *);
    rs->families = VEC_INIT(family_info);
    rs->test_paths = rs->generated_paths = rs->generated_markers = VEC_INIT(pcre2_code *);
    rs->generated_lits = VEC_INIT(relit *);
    rs->suppress_min_reason = SUNSET_MIN_REASON;
    settings_init(rs);
    sunset_anchor_init(&rs->anchor);
    rs->remnants.file_rules = rs->remnants.delete_rules = rs->remnants.consumers = rs->remnants.code_rules =
        rs->remnants.code_callees = rs->remnants.successor_rules = VEC_INIT(char *);
    rs->remnants.code_args = VEC_INIT(int);
    rs->remnants.doc_paths = rs->remnants.consumer_paths = VEC_INIT(pcre2_code *);
    memcpy(rs->remnants.severity, (sunset_severity[]){SUNSET_SEV_ERROR, SUNSET_SEV_WARNING, SUNSET_SEV_INFO},
           sizeof rs->remnants.severity);
    rs->path_rules = VEC_INIT(sunset_rule *);
    for (int l = 0; l < SUNSET_LANG_COUNT; l++) {
        rs->queries[l] = VEC_INIT(sunset_rule *);
        rs->literals[l] = VEC_INIT(char *);
        rs->scoped[l] = VEC_INIT(sunset_rule *);
        rs->flow_rules[l] = VEC_INIT(sunset_rule *);
        for (int k = 0; k < MATCH_KIND_COUNT; k++) rs->index[l][k].all = VEC_INIT(clause *);
    }
    if (queries_dir && !(rs->queries_dir = sunset_strndup(queries_dir, strlen(queries_dir)))) {
        sunset_free(rs);
        return NULL;
    }
    return rs;
}

static sunset_ruleset *finish(loader *L, sunset_ruleset *rs) {
    if (!rs->families.n) {
        snprintf(L->err->msg, sizeof L->err->msg, "no settings pack found (rules/00-settings.json)");
        sunset_ruleset_free(rs);
        return NULL;
    }
    if (rules_index_build(rs)) {
        ld_oom(L);
        sunset_ruleset_free(rs);
        return NULL;
    }
    if (flow_link(rs, L->err->msg, sizeof L->err->msg)) {
        sunset_ruleset_free(rs);
        return NULL;
    }
    return rs;
}

sunset_ruleset *sunset_ruleset_load_string(const char *json, const char *origin,
                                           const char *queries_dir, sunset_error *err) {
    sunset_ruleset *rs = ruleset_new(queries_dir);
    if (!rs) {
        snprintf(err->msg, sizeof err->msg, "%s: out of memory", origin);
        return NULL;
    }
    loader L = {rs, origin, json, err, NULL, NULL, NULL, false, NULL};
    rs->hash = hash64(json, strlen(json), 0);
    if (load_pack(&L, json)) {
        sunset_ruleset_free(rs);
        return NULL;
    }
    return finish(&L, rs);
}

static int cmp_names(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

sunset_ruleset *sunset_ruleset_load(const char *const *dirs, size_t n_dirs, const char *queries_dir,
                                    sunset_error *err) {
    sunset_ruleset *rs = ruleset_new(queries_dir);
    if (!rs) {
        snprintf(err->msg, sizeof err->msg, "out of memory loading rules");
        return NULL;
    }
    for (size_t d = 0; d < n_dirs; d++) {
        DIR *dir = opendir(dirs[d]);
        if (!dir) {
            snprintf(err->msg, sizeof err->msg, "%s: cannot open rules directory: %s", dirs[d],
                     strerror(errno));
            sunset_ruleset_free(rs);
            return NULL;
        }
        vec names = VEC_INIT(char *);
        struct dirent *de;
        int rc = 0;
        while ((de = readdir(dir))) {
            size_t len = strlen(de->d_name);
            if (len > 5 && strcmp(de->d_name + len - 5, ".json") == 0 && de->d_name[0] != '.') {
                char *s = sunset_strndup(de->d_name, len);
                if (!s || !vec_push(&names, &s)) {
                    sunset_free(s);
                    rc = -1;
                    snprintf(err->msg, sizeof err->msg, "out of memory loading rules");
                    break;
                }
            }
        }
        closedir(dir);
        if (names.n) qsort(names.v, names.n, sizeof(char *), cmp_names);
        for (size_t i = 0; i < names.n && !rc; i++) {
            sb path = {0};
            sb_printf(&path, "%s/%s", dirs[d], VEC_AT(&names, char *, i));
            char *text = NULL;
            size_t len;
            int e = path.oom ? ENOMEM : read_file(path.s, 16 << 20, &text, &len);
            if (e) {
                snprintf(err->msg, sizeof err->msg, "%s: cannot read: %s", path.s ? path.s : "rules",
                         strerror(e));
                rc = -1;
            } else if (memchr(text, 0, len)) {
                snprintf(err->msg, sizeof err->msg, "%s:1:1: not a text file (NUL byte)", path.s);
                rc = -1;
            } else {
                loader L = {rs, path.s, text, err, NULL, NULL, NULL, false, NULL};
                rs->hash = hash64(text, len, rs->hash);
                rc = load_pack(&L, text);
            }
            sunset_free(text);
            sb_free(&path);
        }
        for (size_t i = 0; i < names.n; i++) sunset_free(VEC_AT(&names, char *, i));
        vec_free(&names);
        if (rc) {
            sunset_ruleset_free(rs);
            return NULL;
        }
    }
    loader L = {rs, "rules", "", err, NULL, NULL, NULL, false, NULL};
    return finish(&L, rs);
}

void sunset_ruleset_free(sunset_ruleset *rs) {
    if (!rs) return;
    for (size_t i = 0; i < rs->rules.n; i++) rule_free(VEC_AT(&rs->rules, sunset_rule *, i));
    vec_free(&rs->rules);
    for (size_t i = 0; i < rs->families.n; i++) {
        sunset_free(VEC_AT(&rs->families, family_info, i).id);
        sunset_free(VEC_AT(&rs->families, family_info, i).title);
    }
    vec_free(&rs->families);
    for (size_t i = 0; i < rs->test_paths.n; i++) pcre2_code_free(VEC_AT(&rs->test_paths, pcre2_code *, i));
    for (size_t i = 0; i < rs->generated_paths.n; i++) pcre2_code_free(VEC_AT(&rs->generated_paths, pcre2_code *, i));
    for (size_t i = 0; i < rs->generated_markers.n; i++) pcre2_code_free(VEC_AT(&rs->generated_markers, pcre2_code *, i));
    vec_free(&rs->test_paths);
    vec_free(&rs->generated_paths);
    vec_free(&rs->generated_markers);
    for (size_t i = 0; i < rs->generated_lits.n; i++) relit_free(VEC_AT(&rs->generated_lits, relit *, i));
    vec_free(&rs->generated_lits);
    settings_free(rs);
    vec_free(&rs->path_rules);
    for (int l = 0; l < SUNSET_LANG_COUNT; l++) {
        vec_free(&rs->queries[l]);
        vec_free(&rs->literals[l]);
        vec_free(&rs->scoped[l]);
        vec_free(&rs->flow_rules[l]);
        for (int k = 0; k < MATCH_KIND_COUNT; k++) {
            clause_index *ix = &rs->index[l][k];
            vec_free(&ix->all);
            for (size_t s = 0; s < ix->n_slots; s++) vec_free(&ix->slots[s].clauses);
            sunset_free(ix->slots);
            pcre2_code_free(ix->any_re);
            relit_free(ix->any_lit);
        }
    }
    sunset_free(rs->queries_dir);
    sunset_free(rs);
}

const char *rule_kind_name(rule_kind k) { return k < RK_COUNT ? kinds[k].name : "?"; }
