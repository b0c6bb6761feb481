/*
 * match.c — the matching primitives every rule clause runs at scan time: regex search with
 * the interpreter as the fallback when the JIT fails, name lists searched by bisection, a
 * clause's tests besides its main text, a match's span inside a fact's text, the words of prose
 * as the word matcher sees them, the test-path predicate every finding's `test` flag comes
 * from, the generated-file predicate, and the clause index the engine looks facts up in. Loading and compiling the rules is src/core/rules.c.
 * A regex runs only on a text that holds one of the literals its every match holds
 * (src/core/relit.c): most facts, paths and file heads are ruled out before PCRE2.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/rules_int.h"
#include "core/suppress.h"
#include "core/walk.h"

/* The interpreter's limits for the retry: the default match limit (it bounds catastrophic
 * backtracking), a larger heap for its backtracking frames. Read-only once made, so one
 * context serves every thread. */
#define RETRY_HEAP_KIB (256u * 1024u)

static pcre2_match_context *retry_ctx;
static pthread_once_t retry_once = PTHREAD_ONCE_INIT;

static void retry_ctx_make(void) {
    /* made once and kept for the process, so not through the allocation hook (whose live
     * count must be zero at exit); NULL (no memory): default limits */
    retry_ctx = pcre2_match_context_create(NULL);
    if (retry_ctx) pcre2_set_heap_limit(retry_ctx, RETRY_HEAP_KIB);
}

int re_match_rc(const pcre2_code *re, const char *s, size_t n, size_t start,
                pcre2_match_data *md) {
    int rc = pcre2_match(re, (PCRE2_SPTR)s, n, start, 0, md, NULL);
    if (rc >= 0 || rc == PCRE2_ERROR_NOMATCH) return rc;
    /* An error is not "no match": the JIT's 32 KiB stack runs out on long input (a dotted
     * path of ~850 components against (\.\w+)*), so retry with the interpreter, which keeps
     * its backtracking on the heap. */
    pthread_once(&retry_once, retry_ctx_make);
    return pcre2_match(re, (PCRE2_SPTR)s, n, start, PCRE2_NO_JIT, md, retry_ctx);
}

void re_error_message(int rc, char *buf, size_t size) {
    if (pcre2_get_error_message(rc, (PCRE2_UCHAR *)buf, size) < 0)
        snprintf(buf, size, "error %d", rc);
}

bool re_search(const pcre2_code *re, const char *s, size_t n, size_t start, pcre2_match_data *md,
               size_t *so, size_t *eo) {
    int rc = re_match_rc(re, s, n, start, md);
    if (rc < 0) return false;
    PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);
    if (so) *so = ov[0];
    if (eo) *eo = ov[1];
    return true;
}

bool re_list_search(const vec *res, const char *s, pcre2_match_data *md) {
    for (size_t i = 0; i < res->n; i++)
        if (re_search(VEC_AT(res, pcre2_code *, i), s, strlen(s), 0, md, NULL, NULL)) return true;
    return false;
}

bool sunset_ruleset_is_test_path(const sunset_ruleset *rs, const char *path, pcre2_match_data *md) {
    return rs && re_list_search(&rs->test_paths, path, md);
}

bool strtest_match(const strtest *t, const char *s, size_t n, pcre2_match_data *md) {
    if (t->n_names) {
        size_t lo = 0, hi = t->n_names;
        while (lo < hi) {
            size_t mid = (lo + hi) / 2;
            int c = strncmp(t->names[mid], s, n);
            if (c == 0 && t->names[mid][n] != 0) c = 1;
            if (c == 0) return true;
            if (c < 0) lo = mid + 1;
            else hi = mid;
        }
        return false;
    }
    if (!t->re) return true;
    if (!s) s = "", n = 0;
    /* a text without the regex's literals cannot match it (a path rule's regex was tried on
     * every file's path) */
    return relit_may_match(t->lit, s, n) && re_search(t->re, s, n, 0, md, NULL, NULL);
}

/* An optional test of a fact's side text: no test passes anything, a test fails an absent text. */
static bool opt_test(const strtest *t, const char *s, size_t n, pcre2_match_data *md) {
    if (!t->n_names && !t->re) return true;
    if (!s) return false;
    return strtest_match(t, s, n, md);
}

bool clause_match_rest(const clause *c, const sunset_fact *f, pcre2_match_data *md) {
    if (!(c->ctx_mask & (1u << f->ctx))) return false;
    if ((f->flags & c->flags) != c->flags) return false;
    if (!opt_test(&c->aux, f->aux, f->aux_len, md)) return false;
    if (!opt_test(&c->target, f->target, f->target_len, md)) return false;
    if (!opt_test(&c->section, f->section, f->section_len, md)) return false;
    /* a qualified-name constraint only binds when the frontend resolved the name */
    if (f->qual && !opt_test(&c->qual, f->qual, f->qual_len, md)) return false;
    return true;
}

sunset_span span_in_text(sunset_span at, const char *text, size_t so, size_t eo) {
    sunset_span sp = {at.line, at.col, at.line, at.col};
    for (size_t i = 0; i < eo; i++) {
        if (i == so) {
            sp.line = sp.end_line;
            sp.col = sp.end_col;
        }
        if (text[i] == '\n') {
            sp.end_line++;
            sp.end_col = 1;
        } else {
            sp.end_col++;
        }
    }
    if (so == eo) {
        sp.line = sp.end_line;
        sp.col = sp.end_col;
    }
    return sp;
}

static inline bool word_start(unsigned char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
}
static inline bool word_char(unsigned char c) { return word_start(c) || (c >= '0' && c <= '9'); }

void text_words(const sunset_ruleset *rs, sunset_context ctx, sunset_span at, const char *text, size_t len,
                void (*word)(void *ud, sunset_context ctx, sunset_span span, const char *w, size_t n), void *ud) {
    uint32_t line = at.line, col = at.col;
    size_t i = 0;
    while (i < len) {
        unsigned char c = (unsigned char)text[i];
        if (word_start(c) && (i == 0 || !word_char((unsigned char)text[i - 1]))) {
            size_t j = i;
            while (j < len && word_char((unsigned char)text[j])) j++;
            if (ctx == SUNSET_CTX_COMMENT && j - i == 6 && len - i >= sizeof SUNSET_SUPPRESS_MARKER - 1 &&
                memcmp(text + i, SUNSET_SUPPRESS_MARKER, sizeof SUNSET_SUPPRESS_MARKER - 1) == 0) {
                /* a suppression marker, its ids and its reason, to the end of the line, are
                 * sunset's own words: no finding */
                while (i < len && text[i] != '\n') i++, col++;
                continue;
            }
            if (j < len && text[j] == '-') {
                /* a rule id or glob (`PE-PY-IDENT`, `OH-*`) is skipped whole */
                size_t k = j;
                while (k < len && (word_char((unsigned char)text[k]) || text[k] == '-' ||
                                   text[k] == '*'))
                    k++;
                while (k > j && text[k - 1] == '-') k--;
                if (sunset_rule_id_token(rs, text + i, k - i)) {
                    col += (uint32_t)(k - i);
                    i = k;
                    continue;
                }
            }
            word(ud, ctx, (sunset_span){line, col, line, col + (uint32_t)(j - i)}, text + i, j - i);
            col += (uint32_t)(j - i);
            i = j;
            continue;
        }
        if (c == '\n') {
            line++;
            col = 1;
        } else {
            col++;
        }
        i++;
    }
}

/* Generators write their marker in a header comment, so only the first lines are read: a
 * marker further down, or a quoted one in prose, does not make a file generated. */
#define GENERATED_HEAD_LINES 5

/* The first line of the head (line 0 = none) that marker i matches, looking no further than
 * line `before`. A marker whose literals are not in the head matches none of its lines. */
static uint32_t marker_line(const sunset_ruleset *rs, size_t i, const char *data, size_t head, uint32_t before,
                            pcre2_match_data *md) {
    const relit *lit = i < rs->generated_lits.n ? VEC_AT(&rs->generated_lits, relit *, i) : NULL;
    if (!relit_may_match(lit, data, head)) return 0;
    const char *p = data, *end = data + head;
    for (uint32_t n = 1; n < before && p < end; n++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t ll = nl ? (size_t)(nl - p) : (size_t)(end - p);
        if (re_search(VEC_AT(&rs->generated_markers, pcre2_code *, i), p, ll, 0, md, NULL, NULL)) return n;
        p = nl ? nl + 1 : end;
    }
    return 0;
}

bool sunset_ruleset_is_generated(const sunset_ruleset *rs, const char *path, const char *data, size_t len,
                                 pcre2_match_data *md, uint32_t *line) {
    *line = 0;
    if (re_list_search(&rs->generated_paths, path, md)) return true;
    const char *p = data, *end = data + len;
    for (uint32_t n = 1; n <= GENERATED_HEAD_LINES && p < end; n++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        p = nl ? nl + 1 : end;
    }
    /* marker by marker, the earliest line any of them is on */
    uint32_t first = GENERATED_HEAD_LINES + 1;
    for (size_t i = 0; i < rs->generated_markers.n; i++) {
        uint32_t n = marker_line(rs, i, data, (size_t)(p - data), first, md);
        if (n) first = n;
    }
    if (first > GENERATED_HEAD_LINES) return false;
    *line = first;
    return true;
}

/* ---- the clause index: per language and fact kind, names hashed (built once per rule set) ---- */

static struct name_slot *slot_for(clause_index *ix, const char *name, size_t n, bool insert) {
    if (!ix->n_slots) return NULL;
    size_t h = (size_t)hash64(name, n, 0) & (ix->n_slots - 1);
    for (;;) {
        struct name_slot *s = &ix->slots[h];
        if (!s->name) return insert ? s : NULL;
        if (strncmp(s->name, name, n) == 0 && s->name[n] == 0) return s;
        h = (h + 1) & (ix->n_slots - 1);
    }
}

static inline unsigned name_bit(const char *name, size_t n) {
    unsigned char first = n ? (unsigned char)name[0] : 0, last = n ? (unsigned char)name[n - 1] : 0;
    return ((unsigned)n * 131u + first * 31u + last) & 4095u;
}

struct name_slot *rules_index_lookup(const clause_index *ix, const char *name, size_t n) {
    unsigned b = name_bit(name, n);
    if (!((ix->name_bits[b / 64] >> (b % 64)) & 1)) return NULL;
    return slot_for((clause_index *)ix, name, n, false);
}

int rules_index_build(sunset_ruleset *rs) {
    for (size_t i = 0; i < rs->rules.n; i++) {
        sunset_rule *r = VEC_AT(&rs->rules, sunset_rule *, i);
        for (int l = 1; l < SUNSET_LANG_COUNT; l++) {
            if (!(r->lang_mask & (1u << l))) continue;
            rs->lang_has_rules[l] = true;
            if (r->path_include.n && r->kind != RK_PATH) {
                if (!vec_push(&rs->scoped[l], &r)) return -1;
            } else {
                for (size_t j = 0; j < r->literals.n; j++)
                    if (!vec_push(&rs->literals[l], &VEC_AT(&r->literals, char *, j))) return -1;
            }
            if (r->kind == RK_QUERY && (int)r->query_lang == l && !vec_push(&rs->queries[l], &r)) return -1;
        }
        if (r->kind == RK_PATH && !vec_push(&rs->path_rules, &r)) return -1;
    }
    for (int l = 1; l < SUNSET_LANG_COUNT; l++) {
        for (int k = 0; k < MATCH_KIND_COUNT; k++) {
            clause_index *ix = &rs->index[l][k];
            size_t named = 0;
            for (size_t i = 0; i < rs->rules.n; i++) {
                sunset_rule *r = VEC_AT(&rs->rules, sunset_rule *, i);
                if (!(r->lang_mask & (1u << l))) continue;
                for (size_t j = 0; j < r->clauses.n; j++) {
                    clause *c = &VEC_AT(&r->clauses, clause, j);
                    if (c->fact == k) named += c->main.n_names;
                }
            }
            size_t n_slots = 16;
            while (n_slots < named * 2) n_slots *= 2;
            ix->slots = sunset_calloc(n_slots, sizeof *ix->slots);
            if (!ix->slots) return -1;
            ix->n_slots = n_slots;
            sb alt = {0};
            bool alt_ok = true;
            for (size_t i = 0; i < rs->rules.n; i++) {
                sunset_rule *r = VEC_AT(&rs->rules, sunset_rule *, i);
                if (!(r->lang_mask & (1u << l))) continue;
                for (size_t j = 0; j < r->clauses.n; j++) {
                    clause *c = &VEC_AT(&r->clauses, clause, j);
                    if (c->fact != k) continue;
                    if (c->main.n_names) {
                        for (size_t n = 0; n < c->main.n_names; n++) {
                            const char *nm = c->main.names[n];
                            struct name_slot *s = slot_for(ix, nm, strlen(nm), true);
                            unsigned b = name_bit(nm, strlen(nm));
                            ix->name_bits[b / 64] |= 1ull << (b % 64);
                            if (!s->name) {
                                s->name = nm;
                                s->clauses = VEC_INIT(clause *);
                            }
                            if (!vec_push(&s->clauses, &c)) { sb_free(&alt); return -1; }
                        }
                        continue;
                    }
                    if (!vec_push(&ix->all, &c)) { sb_free(&alt); return -1; }
                    if (!c->main.src) {
                        alt_ok = false; /* a clause without a main regex always runs */
                        continue;
                    }
                    sb_printf(&alt, "%s(?:%s)", alt.len ? "|" : "", c->main.src);
                }
            }
            /* One combined regex rejects most tokens with a single JIT match. */
            if (alt_ok && ix->all.n > 1 && !alt.oom) {
                int ec;
                PCRE2_SIZE eo;
                ix->any_re = sunset_re_compile(alt.s, alt.len, 0, &ec, &eo); /* NULL: no prefilter */
                if (ix->any_re) pcre2_jit_compile(ix->any_re, PCRE2_JIT_COMPLETE);
                /* and its literals rule out most tokens before PCRE2 sees them */
                if (ix->any_re) ix->any_lit = relit_new(alt.s, alt.len, 0);
            }
            sb_free(&alt);
        }
    }
    return 0;
}

/* ---- strings that code uses (settings.remnants.code_strings) ---- */

bool sunset_string_is_code(const sunset_remnant_settings *st, sunset_str_use use, const char *call,
                           int arg) {
    if (use <= SUNSET_USE_NONE || use >= SUNSET_USE_COUNT) return false;
    if (use != SUNSET_USE_ARG) return (st->code_uses >> use) & 1u;
    if (!call || !*call) return false;
    for (size_t i = 0; i < st->code_callees.n; i++) {
        int want = VEC_AT(&st->code_args, int, i);
        if ((want < 0 || want == arg) && sunset_glob_match(VEC_AT(&st->code_callees, char *, i), call)) return true;
    }
    return false;
}
