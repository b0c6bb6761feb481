/*
 * clang.c — the C/C++/CUDA frontend. Each file is parsed on its own by libclang and then
 * read three ways:
 *
 *   1. Tokens. clang_tokenize lexes the whole file raw, so code in inactive #if/#elif/#else
 *      branches is seen too (Paddle defines AllReduceOpHandle three times that way). Most
 *      facts come from the tokens: identifiers, comments, string literals, member accesses,
 *      calls, includes, class bases, and an outline of namespaces, classes and function
 *      bodies built by brace matching. Brackets are matched on a persistent stack that
 *      follows the first branch of each conditional and re-joins the others at #endif, so
 *      an unbalanced brace inside one branch does not derail the rest of the file.
 *   2. Cursors. A bounded, iterative walk over the main file's declarations adds function
 *      and method declarations without bodies, and in precise mode exact scopes.
 *   3. References (precise mode only). With a compilation database, files it lists are
 *      parsed with their real arguments and each identifier is resolved to the fully
 *      qualified entity it names.
 *
 * Fast mode (the default) parses with SingleFileParse + SkipFunctionBodies and never opens
 * an include, so it needs no build; in that mode libclang's AST loses out-of-line method
 * definitions of classes declared elsewhere, which is why scopes come from the token
 * outline and the cursors only refine it.
 *
 * Ownership: everything allocated for one file lives in a `cscan` and is freed before
 * scan() returns; the worker owns only its CXIndex; the state owns the compilation database.
 * All memory goes through sunset_malloc; libclang's own objects are disposed with their
 * clang_dispose* functions. No recursion depends on the input's nesting depth.
 */
#include <cjson/cJSON.h>
#include <clang-c/CXCompilationDatabase.h>
#include <clang-c/Index.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "json.h"
#include "sunset.h"
#include "util.h"

/* ---------------------------------------------------------------- state and worker */

typedef struct clang_state {
    CXCompilationDatabase db;   /* owned; NULL in fast mode */
    pthread_mutex_t db_lock;    /* libclang does not promise a thread-safe database */
    char **db_files;            /* owned, sorted: normalised paths the database lists */
    size_t n_db_files;
    char *root;                 /* owned copy of cfg->root, or NULL */
    unsigned budget_ms;
} clang_state;

typedef struct clang_worker {
    clang_state *st;            /* borrowed */
    CXIndex index;              /* owned, used by this worker's thread only */
} clang_worker;

/* ---------------------------------------------------------------- per-file data */

enum { TK_PUNCT, TK_KEYWORD, TK_IDENT, TK_LITERAL, TK_COMMENT };

enum {
    P_NONE, P_LPAREN, P_RPAREN, P_LBRACK, P_RBRACK, P_LBRACE, P_RBRACE, P_SEMI, P_COMMA,
    P_COLON, P_SCOPE, P_DOT, P_ARROW, P_LT, P_GT, P_SHR, P_HASH, P_TILDE, P_STAR, P_AMP,
    P_ANDAND, P_ASSIGN, P_OPASSIGN, P_QUESTION, P_ELLIPSIS, P_OTHER
};

enum {
    TF_LINE_START = 1u << 0, /* first token of a logical line */
    TF_DIRECTIVE = 1u << 1,  /* part of a preprocessor directive */
    TF_DIR_HEAD = 1u << 2,   /* the '#' starting a directive */
    TF_SKIP = 1u << 3,       /* no facts: directive name, include path tokens */
    TF_DEFINITION = 1u << 4, /* the name a definition declares */
};

/* What a '{' opens. */
enum { B_OTHER, B_NS, B_CLASS, B_FUNC, B_EXTERN };

/* Directive kinds. */
enum { D_OTHER, D_IF, D_ELSE, D_ENDIF, D_DEFINE, D_INCLUDE };

typedef struct ctok {
    uint32_t start, end; /* byte offsets into the file */
    int32_t match;       /* matching bracket token, -1 */
    int32_t aux;         /* token naming the innermost enclosing call, -1 */
    int32_t rec;         /* record this token names, -1 */
    int32_t body;        /* '{': record whose body it opens, -1 */
    uint8_t kind, punct, flags, bkind;
} ctok;

enum { R_NAMESPACE, R_CLASS, R_STRUCT, R_UNION, R_FUNCTION, R_METHOD, R_MACRO };
static const char *const rec_kind_name[] = {"namespace", "class",  "struct", "union",
                                            "function",  "method", "macro"};

typedef struct crec {
    uint32_t name_off;           /* NUL-terminated scope name in cscan.names */
    uint32_t def_start, def_end; /* byte span of the bare name; def_end == 0: no DEF fact */
    uint32_t start_line, end_line;
    int32_t also; /* another record closed by the same brace, -1 */
    uint8_t kind, has_scope, cursor_scope;
} crec;

/* A node of the persistent bracket stack: pushing never overwrites, so the stack as it was
 * at an #if can be restored at #else by remembering one index. */
typedef struct pnode {
    int32_t parent, tok, aux, link, next_link;
    uint32_t depth;
    uint8_t open, bkind, closed;
} pnode;

typedef struct cond {
    int32_t base, first_end;
} cond;
#define COND_UNSET INT32_MIN

typedef struct cscan {
    const sunset_source *src;
    sunset_sink *sink;
    const char *d;
    uint32_t len;
    bool precise;
    ctok *t;
    int32_t n;
    CXCursor *cursors; /* precise mode: the cursor annotating each token */
    vec lines;         /* uint32_t offsets of line starts */
    vec recs;          /* crec */
    vec nodes;         /* pnode */
    vec conds;         /* cond */
    vec work;          /* int32_t scratch for closing linked nodes */
    sb names;          /* record names, NUL-separated */
    sb tmp, tmp2;
    int32_t top;
    bool oom;
} cscan;

/* ---------------------------------------------------------------- small helpers */

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static bool push(cscan *c, vec *v, const void *elem) {
    if (vec_push(v, elem)) return true;
    c->oom = true;
    return false;
}

static uint32_t tlen(const cscan *c, int32_t i) { return c->t[i].end - c->t[i].start; }
static const char *ttext(const cscan *c, int32_t i) { return c->d + c->t[i].start; }

static bool teq(const cscan *c, int32_t i, const char *s) {
    size_t n = strlen(s);
    return i >= 0 && i < c->n && tlen(c, i) == n && memcmp(ttext(c, i), s, n) == 0;
}

static bool is_ident(const cscan *c, int32_t i) { return i >= 0 && c->t[i].kind == TK_IDENT; }
static bool is_kw(const cscan *c, int32_t i, const char *s) {
    return i >= 0 && c->t[i].kind == TK_KEYWORD && teq(c, i, s);
}
static bool is_p(const cscan *c, int32_t i, int p) { return i >= 0 && c->t[i].punct == p; }

/* Next/previous token that is not a comment. In code, directive lines are skipped too;
 * inside a directive the walk stays on that directive's logical line. */
static int32_t nx(const cscan *c, int32_t i, bool in_dir) {
    for (int32_t j = i + 1; j < c->n; j++) {
        const ctok *t = &c->t[j];
        if (in_dir && (t->flags & TF_LINE_START)) return -1;
        if (t->kind == TK_COMMENT) continue;
        if (!in_dir && (t->flags & TF_DIRECTIVE)) continue;
        return j;
    }
    return -1;
}

static int32_t pv(const cscan *c, int32_t i, bool in_dir) {
    if (in_dir && i >= 0 && i < c->n && (c->t[i].flags & TF_DIR_HEAD)) return -1;
    for (int32_t j = i - 1; j >= 0; j--) {
        const ctok *t = &c->t[j];
        if (t->kind == TK_COMMENT) continue;
        if (!in_dir && (t->flags & TF_DIRECTIVE)) continue;
        if (in_dir && !(t->flags & TF_DIRECTIVE)) return -1;
        if (in_dir && (t->flags & TF_DIR_HEAD)) return -1;
        return j;
    }
    return -1;
}

static uint32_t line_of(const cscan *c, uint32_t off) {
    const uint32_t *ls = c->lines.v;
    size_t lo = 0, hi = c->lines.n; /* ls[0] == 0 <= off */
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (ls[mid] <= off) lo = mid;
        else hi = mid;
    }
    return (uint32_t)lo + 1;
}

static void pos_of(const cscan *c, uint32_t off, uint32_t *line, uint32_t *col) {
    uint32_t l = line_of(c, off);
    *line = l;
    *col = off - ((const uint32_t *)c->lines.v)[l - 1] + 1;
}

static sunset_span span_of(const cscan *c, uint32_t s, uint32_t e) {
    sunset_span sp;
    pos_of(c, s, &sp.line, &sp.col);
    pos_of(c, e, &sp.end_line, &sp.end_col);
    return sp;
}

static bool word_byte(char ch) {
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
           ch == '_' || (unsigned char)ch >= 0x80;
}

/* Appends the tokens a..b (inclusive) as written but without whitespace, keeping one space
 * between two word tokens; template argument lists are left out when skip_angles is set.
 * Output is capped at 512 bytes. */
static void join_tokens(cscan *c, int32_t a, int32_t b, bool in_dir, bool skip_angles, sb *out) {
    int angle = 0;
    for (int32_t k = a; k >= 0 && k <= b && k < c->n; k++) {
        const ctok *t = &c->t[k];
        if (t->kind == TK_COMMENT || (!in_dir && (t->flags & TF_DIRECTIVE))) continue;
        if (skip_angles) {
            if (t->punct == P_LT) { angle++; continue; }
            if (angle > 0) {
                if (t->punct == P_GT) angle--;
                else if (t->punct == P_SHR) angle = angle > 2 ? angle - 2 : 0;
                continue;
            }
        }
        if (out->len + tlen(c, k) + 1 > 512) break;
        if (out->len && word_byte(out->s[out->len - 1]) && word_byte(*ttext(c, k)))
            sb_putc(out, ' ');
        sb_putn(out, ttext(c, k), tlen(c, k));
    }
}

static bool all_caps(const char *s, size_t n) {
    bool letter = false;
    for (size_t i = 0; i < n; i++) {
        char ch = s[i];
        if (ch >= 'A' && ch <= 'Z') letter = true;
        else if (!(ch == '_' || (ch >= '0' && ch <= '9'))) return false;
    }
    return letter;
}

/* ---------------------------------------------------------------- records */

static int32_t rec_new(cscan *c, int kind, const char *name, size_t name_len) {
    crec r = {0};
    r.name_off = (uint32_t)c->names.len;
    r.kind = (uint8_t)kind;
    r.also = -1;
    if (!sb_putn(&c->names, name, name_len) || !sb_putc(&c->names, '\0')) {
        c->oom = true;
        return -1;
    }
    if (!push(c, &c->recs, &r)) return -1;
    return (int32_t)c->recs.n - 1;
}

static crec *rec_at(cscan *c, int32_t r) { return &VEC_AT(&c->recs, crec, r); }

static void rec_rename(cscan *c, int32_t r, const char *name, size_t len) {
    uint32_t off = (uint32_t)c->names.len;
    if (!sb_putn(&c->names, name, len) || !sb_putc(&c->names, '\0')) {
        c->oom = true;
        return;
    }
    rec_at(c, r)->name_off = off;
}

/* Attach record r to the body brace b (several records may share one brace). */
static void rec_attach_body(cscan *c, int32_t r, int32_t b, int bkind) {
    if (r < 0 || b < 0) return;
    crec *rc = rec_at(c, r);
    if (!rc->cursor_scope) rc->has_scope = 1;
    if (c->t[b].body != r) {
        rc->also = c->t[b].body;
        c->t[b].body = r;
    }
    c->t[b].bkind = (uint8_t)bkind;
}

/* ---------------------------------------------------------------- bracket stack */

static pnode *node(cscan *c, int32_t k) { return &VEC_AT(&c->nodes, pnode, k); }
static uint32_t node_depth(cscan *c, int32_t k) { return k < 0 ? 0 : node(c, k)->depth; }

static int32_t bm_push(cscan *c, int32_t tok, uint8_t open, int32_t aux, uint8_t bkind) {
    pnode nd = {.parent = c->top, .tok = tok, .aux = aux, .link = -1, .next_link = -1,
                .depth = node_depth(c, c->top) + 1, .open = open, .bkind = bkind};
    if (!push(c, &c->nodes, &nd)) return -1;
    c->top = (int32_t)c->nodes.n - 1;
    return c->top;
}

/* Close node k (and every node of another #if branch linked to it) at token `closer`.
 * Pass 0 records bracket matches, pass 1 closes the records whose body the brace opened. */
static void bm_close(cscan *c, int32_t k, int32_t closer, int pass) {
    c->work.n = 0;
    if (!push(c, &c->work, &k)) return;
    while (c->work.n) {
        int32_t x = VEC_AT(&c->work, int32_t, --c->work.n);
        pnode *nd = node(c, x);
        if (pass == 0 && c->t[closer].match < 0) c->t[closer].match = nd->tok;
        if (nd->closed) continue;
        nd->closed = 1;
        if (pass == 0) {
            c->t[nd->tok].match = closer;
        } else {
            uint32_t line = line_of(c, c->t[closer].start);
            for (int32_t r = c->t[nd->tok].body, guard = 0; r >= 0 && guard < 64;
                 r = rec_at(c, r)->also, guard++) {
                crec *rc = rec_at(c, r);
                if (!rc->cursor_scope && rc->end_line == 0) rc->end_line = line;
            }
        }
        for (int32_t l = nd->link; l >= 0; l = node(c, l)->next_link)
            if (!push(c, &c->work, &l)) return;
    }
}

/* A closing bracket. ')' and ']' close only nearby openers and never across a '{'; '}'
 * closes through unclosed '(' and '['. Nodes at or below the floor (the stack when the
 * current directive began) are out of reach. */
static void bm_closer(cscan *c, int32_t i, uint32_t floor_depth, int pass) {
    uint8_t want = c->t[i].punct == P_RPAREN ? '(' : c->t[i].punct == P_RBRACK ? '[' : '{';
    int32_t k = c->top, target = -1;
    for (int steps = 0; k >= 0 && node(c, k)->depth > floor_depth && steps < 256; steps++) {
        pnode *nd = node(c, k);
        if (nd->open == want) { target = k; break; }
        if (want != '{' && (nd->open == '{' || steps >= 8)) break;
        k = nd->parent;
    }
    if (target < 0) return;
    bm_close(c, target, i, pass);
    c->top = node(c, target)->parent;
}

/* At the end of an #elif/#else branch: nodes that branch left open are paired, bottom-up,
 * with those the first branch left open, so one closing bracket after #endif closes both. */
static void bm_link(cscan *c, int32_t base, int32_t alt_top, int32_t first_top) {
    enum { MAXL = 256 };
    int32_t a[MAXL], f[MAXL];
    int na = 0, nf = 0;
    uint32_t bd = node_depth(c, base);
    int32_t k;
    for (k = alt_top; k >= 0 && node(c, k)->depth > bd; k = node(c, k)->parent) {
        if (na == MAXL) return;
        a[na++] = k;
    }
    if (k != base) return;
    for (k = first_top; k >= 0 && node(c, k)->depth > bd; k = node(c, k)->parent) {
        if (nf == MAXL) return;
        f[nf++] = k;
    }
    if (k != base) return;
    for (int m = 0; m < na && m < nf; m++) {
        pnode *an = node(c, a[na - 1 - m]), *fn = node(c, f[nf - 1 - m]);
        if (an->open != fn->open) break;
        an->next_link = fn->link;
        fn->link = a[na - 1 - m];
    }
}

static int directive_kind(const cscan *c, int32_t hash) {
    int32_t d = nx(c, hash, true);
    if (d < 0) return D_OTHER;
    if (teq(c, d, "if") || teq(c, d, "ifdef") || teq(c, d, "ifndef")) return D_IF;
    if (teq(c, d, "elif") || teq(c, d, "else") || teq(c, d, "elifdef") ||
        teq(c, d, "elifndef"))
        return D_ELSE;
    if (teq(c, d, "endif")) return D_ENDIF;
    if (teq(c, d, "define")) return D_DEFINE;
    if (teq(c, d, "include") || teq(c, d, "include_next") || teq(c, d, "import"))
        return D_INCLUDE;
    return D_OTHER;
}

static void cond_apply(cscan *c, int kind) {
    if (kind == D_IF) {
        cond cd = {c->top, COND_UNSET};
        push(c, &c->conds, &cd);
        return;
    }
    if (c->conds.n == 0) return;
    cond *cd = &VEC_AT(&c->conds, cond, c->conds.n - 1);
    if (kind == D_ELSE) {
        if (cd->first_end == COND_UNSET) cd->first_end = c->top;
        else bm_link(c, cd->base, c->top, cd->first_end);
        c->top = cd->base;
    } else if (kind == D_ENDIF) {
        if (cd->first_end != COND_UNSET) {
            bm_link(c, cd->base, c->top, cd->first_end);
            c->top = cd->first_end;
        }
        c->conds.n--;
    }
}

/* ---------------------------------------------------------------- token shapes */

/* From a '>' or '>>' back to the '<' opening that template argument list, or -1. */
static int32_t angle_back(const cscan *c, int32_t e, bool in_dir) {
    int depth = 0;
    for (int32_t k = e, steps = 0; k >= 0 && steps < 128; k = pv(c, k, in_dir), steps++) {
        const ctok *t = &c->t[k];
        switch (t->punct) {
        case P_GT: depth++; break;
        case P_SHR: depth += 2; break;
        case P_LT:
            if (--depth == 0) return k;
            if (depth < 0) return -1;
            break;
        case P_RPAREN: case P_RBRACK:
            if (t->match < 0 || t->match >= k) return -1;
            k = t->match;
            break;
        case P_LPAREN: case P_LBRACK: case P_LBRACE: case P_RBRACE: case P_SEMI:
            return -1;
        default: break;
        }
    }
    return -1;
}

/* From a '<' forward to the '>' closing it (or the '>>' holding it), or -1. */
static int32_t angle_fwd(const cscan *c, int32_t s, bool in_dir) {
    int depth = 0;
    for (int32_t k = s, steps = 0; k >= 0 && steps < 256; k = nx(c, k, in_dir), steps++) {
        const ctok *t = &c->t[k];
        switch (t->punct) {
        case P_LT: depth++; break;
        case P_GT: if (--depth <= 0) return k; break;
        case P_SHR: depth -= 2; if (depth <= 0) return k; break;
        case P_LPAREN: case P_LBRACK:
            if (t->match <= k) return -1;
            k = t->match;
            break;
        case P_RPAREN: case P_RBRACK: case P_LBRACE: case P_RBRACE: case P_SEMI:
            return -1;
        default: break;
        }
    }
    return -1;
}

/* The callee before a '(': `a::b<T>::c` or `~Foo` or `operator==`. */
typedef struct chain {
    int32_t start;      /* first token of the qualified chain */
    int32_t name;       /* the token naming the callee (last identifier, or `operator`) */
    int32_t bare_start; /* first token of the bare name (`~`, `operator` or the name) */
    int32_t bare_end;   /* last token of the bare name */
} chain;

static bool find_chain(const cscan *c, int32_t lp, bool in_dir, chain *ch) {
    int32_t e = pv(c, lp, in_dir);
    if (e < 0) return false;
    int32_t name = -1, bare_end = -1;
    if (is_ident(c, e)) {
        name = bare_end = e;
    } else if (is_p(c, e, P_GT) || is_p(c, e, P_SHR)) {
        int32_t l = angle_back(c, e, in_dir);
        int32_t n = l >= 0 ? pv(c, l, in_dir) : -1;
        if (!is_ident(c, n)) return false;
        name = bare_end = n;
    } else {
        /* operator==( , operator()( , operator new( , operator bool( */
        int32_t k = e;
        for (int steps = 0; k >= 0 && steps < 4; steps++, k = pv(c, k, in_dir)) {
            if (is_kw(c, k, "operator")) break;
            const ctok *t = &c->t[k];
            if (t->kind == TK_IDENT || t->kind == TK_LITERAL || t->punct == P_SEMI ||
                t->punct == P_LBRACE || t->punct == P_RBRACE)
                return false;
        }
        if (!is_kw(c, k, "operator") || k == e) return false;
        name = k;
        bare_end = e;
    }
    int32_t bare_start = name;
    if (is_p(c, pv(c, name, in_dir), P_TILDE)) bare_start = pv(c, name, in_dir);
    int32_t s = bare_start;
    for (int steps = 0; steps < 32; steps++) {
        int32_t p = pv(c, s, in_dir);
        if (!is_p(c, p, P_SCOPE)) break;
        int32_t q = pv(c, p, in_dir);
        if (is_ident(c, q)) { s = q; continue; }
        if (is_p(c, q, P_GT) || is_p(c, q, P_SHR)) {
            int32_t l = angle_back(c, q, in_dir);
            int32_t r = l >= 0 ? pv(c, l, in_dir) : -1;
            if (is_ident(c, r)) { s = r; continue; }
            break;
        }
        s = p; /* leading global :: */
        break;
    }
    ch->start = s;
    ch->name = name;
    ch->bare_start = bare_start;
    ch->bare_end = bare_end;
    return true;
}

static bool chain_qualified(const chain *ch) { return ch->start != ch->bare_start; }

/* Keywords after which `name(` is an expression, not a declaration. */
static bool expr_keyword(const cscan *c, int32_t k) {
    static const char *const kws[] = {"return", "new",    "delete",    "throw",    "case",
                                      "else",   "do",     "sizeof",    "co_return", "co_await",
                                      "co_yield", "not",  "and",       "or",       "typeid",
                                      "alignof", "goto",  NULL};
    for (int i = 0; kws[i]; i++)
        if (teq(c, k, kws[i])) return true;
    return false;
}

static bool at_decl_level(cscan *c) {
    if (c->top < 0) return true;
    pnode *nd = node(c, c->top);
    return nd->open == '{' && (nd->bkind == B_NS || nd->bkind == B_CLASS || nd->bkind == B_EXTERN);
}

static int32_t enclosing_class_rec(cscan *c) {
    if (c->top < 0) return -1;
    pnode *nd = node(c, c->top);
    if (nd->open != '{' || nd->bkind != B_CLASS) return -1;
    return c->t[nd->tok].body;
}

/* Scope name: the enclosing class's name, "::", then the chain as written. */
static void qualified_name(cscan *c, int32_t cls, int32_t a, int32_t b, sb *out) {
    out->len = 0;
    if (out->s) out->s[0] = 0;
    if (cls >= 0) {
        const char *cn = c->names.s + rec_at(c, cls)->name_off;
        size_t cl = strlen(cn);
        if (cl < 512) {
            sb_putn(out, cn, cl);
            sb_puts(out, "::");
        }
    }
    join_tokens(c, a, b, false, true, out);
    if (out->oom) c->oom = true;
}

/* Where a declaration's head begins: back over its specifiers, return type and template
 * header. */
static int32_t head_start(const cscan *c, int32_t s) {
    int32_t k = s;
    for (int steps = 0; steps < 64; steps++) {
        int32_t p = pv(c, k, false);
        if (p < 0) break;
        const ctok *t = &c->t[p];
        if (t->kind == TK_IDENT || (t->kind == TK_KEYWORD && !expr_keyword(c, p) &&
                                    !teq(c, p, "public") && !teq(c, p, "private") &&
                                    !teq(c, p, "protected"))) {
            k = p;
        } else if (t->punct == P_SCOPE || t->punct == P_STAR || t->punct == P_AMP ||
                   t->punct == P_ANDAND || t->punct == P_TILDE) {
            k = p;
        } else if (t->punct == P_GT || t->punct == P_SHR) {
            int32_t l = angle_back(c, p, false);
            if (l < 0) break;
            k = l;
        } else if (t->punct == P_RBRACK && t->match >= 0 && t->match < p &&
                   is_p(c, t->match + 1, P_LBRACK)) { /* [[attribute]] */
            k = t->match;
        } else {
            break;
        }
    }
    return k;
}

/* After the ')' of a parameter list at namespace or class level: the '{' of the function
 * body, or -1 when this is not a definition; *is_decl is set when the head ends with ';'
 * or `= 0|default|delete` instead (a declaration). */
static int32_t find_function_body(const cscan *c, int32_t lp, bool *is_decl) {
    *is_decl = false;
    int32_t rp = c->t[lp].match;
    if (rp <= lp) return -1;
    int32_t j = nx(c, rp, false);
    for (int steps = 0; j >= 0 && steps < 64; steps++) {
        const ctok *t = &c->t[j];
        if (t->punct == P_LBRACE) return j;
        if (t->kind == TK_KEYWORD) {
            if (teq(c, j, "const") || teq(c, j, "volatile") || teq(c, j, "try") ||
                teq(c, j, "mutable")) {
                j = nx(c, j, false);
                continue;
            }
            if (teq(c, j, "noexcept") || teq(c, j, "throw") || teq(c, j, "__attribute__") ||
                teq(c, j, "alignas")) {
                j = nx(c, j, false);
                if (is_p(c, j, P_LPAREN)) {
                    if (c->t[j].match <= j) return -1;
                    j = nx(c, c->t[j].match, false);
                }
                continue;
            }
            return -1;
        }
        if (t->kind == TK_IDENT) {
            if (!(teq(c, j, "override") || teq(c, j, "final") || teq(c, j, "__attribute__") ||
                  all_caps(ttext(c, j), tlen(c, j))))
                return -1;
            bool attr = teq(c, j, "__attribute__");
            j = nx(c, j, false);
            if (attr && is_p(c, j, P_LPAREN)) {
                if (c->t[j].match <= j) return -1;
                j = nx(c, c->t[j].match, false);
            }
            continue;
        }
        switch (t->punct) {
        case P_AMP: case P_ANDAND:
            j = nx(c, j, false);
            continue;
        case P_LBRACK: /* [[attribute]] */
            if (t->match <= j) return -1;
            j = nx(c, t->match, false);
            continue;
        case P_ARROW: /* trailing return type */
            for (int k = 0; j >= 0 && k < 128; k++) {
                j = nx(c, j, false);
                if (j < 0) return -1;
                int p = c->t[j].punct;
                if (p == P_LBRACE) return j;
                if (p == P_SEMI || p == P_ASSIGN) {
                    *is_decl = true;
                    return -1;
                }
                if (p == P_RBRACE) return -1;
                if ((p == P_LPAREN || p == P_LBRACK) && c->t[j].match > j) j = c->t[j].match;
            }
            return -1;
        case P_COLON: /* constructor initializer list */
            j = nx(c, j, false);
            for (int k = 0; j >= 0 && k < 256; k++) {
                while (j >= 0 && (is_ident(c, j) || is_p(c, j, P_SCOPE) ||
                                  is_kw(c, j, "template") || is_kw(c, j, "typename"))) {
                    int32_t n = nx(c, j, false);
                    if (is_p(c, n, P_LT)) {
                        int32_t g = angle_fwd(c, n, false);
                        if (g < 0) return -1;
                        n = nx(c, g, false);
                    }
                    j = n;
                }
                if (!(is_p(c, j, P_LPAREN) || is_p(c, j, P_LBRACE)) || c->t[j].match <= j)
                    return -1;
                j = nx(c, c->t[j].match, false);
                if (is_p(c, j, P_ELLIPSIS)) j = nx(c, j, false);
                if (is_p(c, j, P_LBRACE)) return j;
                if (!is_p(c, j, P_COMMA)) return -1;
                j = nx(c, j, false);
            }
            return -1;
        case P_SEMI: case P_ASSIGN:
            *is_decl = true;
            return -1;
        default:
            return -1;
        }
    }
    return -1;
}

/* ---------------------------------------------------------------- fact emission */

static void emit_fact(cscan *c, sunset_fact_kind kind, uint32_t s, uint32_t e, unsigned flags,
                      const char *text, size_t text_len, const char *aux, size_t aux_len) {
    sunset_fact f = {0};
    f.kind = kind;
    f.ctx = SUNSET_CTX_CODE;
    f.span = span_of(c, s, e);
    f.flags = flags;
    f.text = text;
    f.text_len = text_len;
    f.aux = aux;
    f.aux_len = aux_len;
    sunset_emit(c->sink, &f);
}

static void emit_call(cscan *c, const chain *ch, bool in_dir) {
    c->tmp.len = 0;
    join_tokens(c, ch->start, ch->bare_end, in_dir, true, &c->tmp);
    if (c->tmp.oom) { c->oom = true; return; }
    if (!c->tmp.len) return;
    emit_fact(c, SUNSET_FACT_CALL, c->t[ch->start].start, c->t[ch->bare_end].end, 0, c->tmp.s,
              c->tmp.len, NULL, 0);
}

/* `#include "x"` / `#include <x>` at the directive starting with '#' at `hash`. */
static void emit_include(cscan *c, int32_t hash) {
    int32_t d = nx(c, hash, true);
    int32_t p = d >= 0 ? nx(c, d, true) : -1;
    if (p < 0) return;
    uint32_t s, e;
    if (c->t[p].kind == TK_LITERAL && tlen(c, p) >= 2 && *ttext(c, p) == '"') {
        s = c->t[p].start + 1;
        e = c->t[p].end - 1;
        if (c->d[e] != '"') return;
    } else if (is_p(c, p, P_LT)) {
        s = c->t[p].end;
        e = s;
        while (e < c->len && c->d[e] != '>' && c->d[e] != '\n') e++;
        if (e >= c->len || c->d[e] != '>') return;
    } else {
        return; /* computed include */
    }
    if (e <= s) return;
    emit_fact(c, SUNSET_FACT_INCLUDE, s, e, 0, c->d + s, e - s, NULL, 0);
}

/* `#define NAME`: a macro definition record. Returns the first token of the body. */
static int32_t define_macro(cscan *c, int32_t hash) {
    int32_t d = nx(c, hash, true);
    int32_t name = d >= 0 ? nx(c, d, true) : -1;
    if (!is_ident(c, name)) return name < 0 ? c->n : name;
    int32_t r = rec_new(c, R_MACRO, ttext(c, name), tlen(c, name));
    if (r >= 0) {
        crec *rc = rec_at(c, r);
        rc->def_start = c->t[name].start;
        rc->def_end = c->t[name].end;
        c->t[name].rec = r;
        c->t[name].flags |= TF_DEFINITION;
    }
    int32_t b = name + 1;
    if (b < c->n && is_p(c, b, P_LPAREN) && c->t[b].start == c->t[name].end &&
        !(c->t[b].flags & TF_LINE_START) && c->t[b].match > b)
        return c->t[b].match + 1; /* function-like: body after the parameters */
    return b;
}

/* ---------------------------------------------------------------- outline (pass 1) */

/* `class|struct|union [attrs] NAME [final] [: bases] {` at keyword k. */
static void class_head(cscan *c, int32_t k) {
    if (is_kw(c, pv(c, k, false), "enum")) return;
    int32_t j = nx(c, k, false), cstart = -1, cend = -1, name = -1;
    for (int steps = 0; j >= 0 && steps < 64; steps++) {
        if (is_p(c, j, P_LBRACK) && is_p(c, j + 1, P_LBRACK) && c->t[j].match > j) {
            j = nx(c, c->t[j].match, false);
            continue;
        }
        if (is_kw(c, j, "alignas") || is_kw(c, j, "__attribute__") ||
            is_kw(c, j, "__declspec")) {
            j = nx(c, j, false);
            if (is_p(c, j, P_LPAREN) && c->t[j].match > j) j = nx(c, c->t[j].match, false);
            continue;
        }
        if (!is_ident(c, j)) break;
        int32_t n1 = nx(c, j, false);
        if (is_p(c, n1, P_LPAREN)) { /* attribute-like macro: PADDLE_ALIGN(8) */
            if (c->t[n1].match <= n1) return;
            j = nx(c, c->t[n1].match, false);
            cstart = name = -1;
            continue;
        }
        if (cstart < 0) cstart = j;
        name = cend = j;
        j = n1;
        if (is_p(c, j, P_LT)) {
            int32_t g = angle_fwd(c, j, false);
            if (g < 0) return;
            cend = g;
            j = nx(c, g, false);
        }
        if (is_p(c, j, P_SCOPE)) {
            cend = j;
            j = nx(c, j, false);
            continue;
        }
        if (is_ident(c, j) && !teq(c, j, "final") && !teq(c, j, "sealed")) {
            cstart = name = -1; /* what we saw was an export macro */
            continue;
        }
        break;
    }
    if (name < 0 || j < 0) return;
    if (is_ident(c, j) && (teq(c, j, "final") || teq(c, j, "sealed"))) j = nx(c, j, false);

    enum { MAXB = 32 };
    int32_t bs[MAXB], be[MAXB];
    int nb = 0;
    if (is_p(c, j, P_COLON)) {
        j = nx(c, j, false);
        for (int guard = 0; guard < MAXB; guard++) {
            while (is_kw(c, j, "public") || is_kw(c, j, "protected") ||
                   is_kw(c, j, "private") || is_kw(c, j, "virtual"))
                j = nx(c, j, false);
            int32_t first = j, last = -1;
            int depth = 0;
            for (int steps = 0;; steps++) {
                if (j < 0 || steps > 256) return;
                int p = c->t[j].punct;
                if ((p == P_COMMA || p == P_LBRACE) && depth <= 0) break;
                if (p == P_LT) depth++;
                else if (p == P_GT) depth--;
                else if (p == P_SHR) depth -= 2;
                else if (p == P_LPAREN || p == P_LBRACK) {
                    if (c->t[j].match <= j) return;
                    j = c->t[j].match;
                } else if (p == P_SEMI || p == P_RBRACE || p == P_RPAREN || p == P_RBRACK ||
                           p == P_LBRACE || p == P_ASSIGN) {
                    return;
                }
                last = j;
                j = nx(c, j, false);
            }
            if (last >= first && nb < MAXB) {
                bs[nb] = first;
                be[nb] = last;
                nb++;
            }
            if (is_p(c, j, P_LBRACE)) break;
            j = nx(c, j, false);
        }
    }
    if (!is_p(c, j, P_LBRACE)) return;

    for (int b = 0; b < nb; b++) {
        c->tmp.len = 0;
        join_tokens(c, bs[b], be[b], false, false, &c->tmp);
        if (c->tmp.oom) { c->oom = true; return; }
        emit_fact(c, SUNSET_FACT_BASE, c->t[bs[b]].start, c->t[be[b]].end, 0, c->tmp.s,
                  c->tmp.len, ttext(c, name), tlen(c, name));
    }

    int kind = teq(c, k, "struct") ? R_STRUCT : teq(c, k, "union") ? R_UNION : R_CLASS;
    int32_t cls = enclosing_class_rec(c);
    int32_t r = c->t[name].rec;
    if (r < 0) {
        qualified_name(c, cls, cstart, cend, &c->tmp2);
        r = rec_new(c, kind, c->tmp2.s ? c->tmp2.s : "", c->tmp2.len);
        if (r < 0) return;
        crec *rc = rec_at(c, r);
        rc->start_line = line_of(c, c->t[head_start(c, k)].start);
        c->t[name].rec = r;
    }
    crec *rc = rec_at(c, r);
    rc->def_start = c->t[name].start;
    rc->def_end = c->t[name].end;
    c->t[name].flags |= TF_DEFINITION;
    rec_attach_body(c, r, j, B_CLASS);
}

/* `[inline] namespace [a[::b]] {` at keyword k: one record per component. */
static void namespace_head(cscan *c, int32_t k) {
    enum { MAXN = 16 };
    int32_t names[MAXN];
    int nn = 0;
    int32_t j = nx(c, k, false);
    while (is_ident(c, j) && nn < MAXN) {
        names[nn++] = j;
        j = nx(c, j, false);
        if (!is_p(c, j, P_SCOPE)) break;
        j = nx(c, j, false);
        if (is_kw(c, j, "inline")) j = nx(c, j, false);
    }
    if (is_p(c, j, P_LBRACK) && is_p(c, j + 1, P_LBRACK) && c->t[j].match > j)
        j = nx(c, c->t[j].match, false);
    if (!is_p(c, j, P_LBRACE)) return;
    uint32_t line = line_of(c, c->t[k].start);
    if (nn == 0) {
        int32_t r = rec_new(c, R_NAMESPACE, "(anonymous)", 11);
        if (r < 0) return;
        rec_at(c, r)->start_line = line;
        rec_attach_body(c, r, j, B_NS);
        return;
    }
    for (int m = 0; m < nn; m++) {
        int32_t r = c->t[names[m]].rec;
        if (r < 0) {
            r = rec_new(c, R_NAMESPACE, ttext(c, names[m]), tlen(c, names[m]));
            if (r < 0) return;
            rec_at(c, r)->start_line = line;
            c->t[names[m]].rec = r;
        }
        rec_attach_body(c, r, j, B_NS);
    }
}

/* A function definition `chain(...) ... {` at namespace or class level. Returns true when
 * it is a macro-made definition such as TEST(Suite, Name) { ... }. */
static bool function_def(cscan *c, const chain *ch, int32_t lp, int32_t body, bool stmt_start) {
    int32_t cls = enclosing_class_rec(c);
    bool qualified = chain_qualified(ch);
    int kind = (cls >= 0 || qualified) ? R_METHOD : R_FUNCTION;
    /* TEST(Suite, Name) { ... }: a macro-made definition, named with its arguments. */
    bool macro_like = cls < 0 && !qualified && stmt_start && is_ident(c, ch->name) &&
                      all_caps(ttext(c, ch->name), tlen(c, ch->name));
    c->tmp2.len = 0;
    if (macro_like) {
        sb_putn(&c->tmp2, ttext(c, ch->name), tlen(c, ch->name));
        sb_putc(&c->tmp2, '(');
        for (int32_t k = nx(c, lp, false); k >= 0 && k < c->t[lp].match && c->tmp2.len < 256;
             k = nx(c, k, false)) {
            sb_putn(&c->tmp2, ttext(c, k), tlen(c, k));
            if (is_p(c, k, P_COMMA)) sb_putc(&c->tmp2, ' ');
        }
        sb_putc(&c->tmp2, ')');
        if (c->tmp2.oom) { c->oom = true; return macro_like; }
    } else {
        qualified_name(c, cls, ch->start, ch->bare_end, &c->tmp2);
    }
    int32_t r = c->t[ch->name].rec;
    if (r >= 0) { /* declared by a cursor too */
        crec *rc = rec_at(c, r);
        if (!rc->cursor_scope) {
            rec_rename(c, r, c->tmp2.s ? c->tmp2.s : "", c->tmp2.len);
            rc = rec_at(c, r);
            rc->kind = (uint8_t)kind;
            rc->start_line = line_of(c, c->t[head_start(c, ch->start)].start);
        }
        if (macro_like) { /* libclang took TEST(...) for a function named TEST */
            rc->def_end = rc->def_start = 0;
            c->t[ch->name].flags &= (uint8_t)~TF_DEFINITION;
        }
    } else {
        r = rec_new(c, kind, c->tmp2.s ? c->tmp2.s : "", c->tmp2.len);
        if (r < 0) return macro_like;
        crec *rc = rec_at(c, r);
        rc->start_line = line_of(c, c->t[head_start(c, ch->start)].start);
        if (!macro_like) {
            rc->def_start = c->t[ch->bare_start].start;
            rc->def_end = c->t[ch->bare_end].end;
        }
        c->t[ch->name].rec = r;
    }
    if (!macro_like) c->t[ch->name].flags |= TF_DEFINITION;
    rec_attach_body(c, r, body, B_FUNC);
    return macro_like;
}

/* A member function declared in a class body (`void Run();`, `Foo(int);`, `~Foo() = default;`).
 * libclang reports these too, but only in the branch it could parse. */
static void method_decl(cscan *c, const chain *ch) {
    if (c->t[ch->name].rec >= 0) return;
    int32_t cls = enclosing_class_rec(c);
    qualified_name(c, cls, ch->start, ch->bare_end, &c->tmp2);
    int32_t r = rec_new(c, R_METHOD, c->tmp2.s ? c->tmp2.s : "", c->tmp2.len);
    if (r < 0) return;
    crec *rc = rec_at(c, r);
    rc->def_start = c->t[ch->bare_start].start;
    rc->def_end = c->t[ch->bare_end].end;
    c->t[ch->name].rec = r;
    c->t[ch->name].flags |= TF_DEFINITION;
}

/* Can a function definition's name start here? Not after ',' or a ':' that is not an
 * access specifier: those are constructor initializers (`: member_(x), base_(y) {`). */
static bool def_head_ok(const cscan *c, const chain *ch) {
    int32_t p = pv(c, ch->start, false);
    if (is_p(c, p, P_COMMA) || is_p(c, p, P_ASSIGN) || is_p(c, p, P_QUESTION)) return false;
    if (is_p(c, p, P_COLON)) {
        int32_t a = pv(c, p, false);
        return is_kw(c, a, "public") || is_kw(c, a, "private") || is_kw(c, a, "protected") ||
               is_ident(c, a); /* Qt-style `slots:` or a macro expanding to one */
    }
    return true;
}

/* Is `chain(` a call (as opposed to a declaration)? */
static bool is_call(cscan *c, const chain *ch, bool decl_level, bool in_dir, int32_t body_start,
                    bool *stmt_start_out) {
    int32_t p = pv(c, ch->start, in_dir);
    if (in_dir && p >= 0 && p < body_start) p = -1;
    bool stmt_start = p < 0 || is_p(c, p, P_SEMI) || is_p(c, p, P_LBRACE) ||
                      is_p(c, p, P_RBRACE) || is_p(c, p, P_COLON) ||
                      (decl_level && is_p(c, p, P_RPAREN));
    *stmt_start_out = stmt_start;
    if (decl_level) {
        if (stmt_start) {
            int32_t cls = enclosing_class_rec(c);
            if (cls >= 0) { /* Foo(...); or ~Foo(); inside class Foo: a constructor */
                const crec *rc = rec_at(c, cls);
                if (is_p(c, ch->bare_start, P_TILDE)) return false;
                if (rc->def_end && tlen(c, ch->name) == rc->def_end - rc->def_start &&
                    memcmp(ttext(c, ch->name), c->d + rc->def_start, tlen(c, ch->name)) == 0)
                    return false;
            }
            return true;
        }
        const ctok *t = &c->t[p];
        if (t->kind == TK_IDENT) return false;
        if (t->kind == TK_KEYWORD) return expr_keyword(c, p);
        switch (t->punct) {
        case P_STAR: case P_AMP: case P_ANDAND: case P_GT: case P_SHR: case P_RBRACK:
        case P_SCOPE: case P_TILDE:
            return false;
        default:
            return true;
        }
    }
    if (stmt_start) return true;
    const ctok *t = &c->t[p];
    if (t->kind == TK_IDENT) return false;
    if (t->kind == TK_KEYWORD) return expr_keyword(c, p);
    return !(t->punct == P_GT || t->punct == P_SHR);
}

/* One walk over the tokens with the bracket stack. Pass 0 matches brackets; pass 1 builds
 * the outline, records the innermost call of each token and emits calls, bases, includes. */
static void walk(cscan *c, int pass) {
    c->top = -1;
    c->nodes.n = 0;
    c->conds.n = 0;
    bool in_dir = false;
    int dir_kind = D_OTHER;
    int32_t dir_top = -1, body_start = 0;
    uint32_t floor_depth = 0;
    for (int32_t i = 0; i < c->n && !c->oom; i++) {
        ctok *t = &c->t[i];
        if (t->flags & TF_LINE_START) {
            if (in_dir) {
                c->top = dir_top;
                in_dir = false;
                floor_depth = 0;
            }
            if (t->flags & TF_DIR_HEAD) {
                dir_kind = directive_kind(c, i);
                cond_apply(c, dir_kind);
                in_dir = true;
                dir_top = c->top;
                floor_depth = node_depth(c, dir_top);
                body_start = c->n;
                if (pass == 1 && dir_kind == D_INCLUDE) emit_include(c, i);
                if (pass == 1 && dir_kind == D_DEFINE) body_start = define_macro(c, i);
                continue;
            }
        }
        if (t->kind == TK_COMMENT) continue;
        int32_t cur_aux = c->top >= 0 ? node(c, c->top)->aux : -1;
        if (pass == 1) t->aux = cur_aux;
        if (in_dir && dir_kind == D_INCLUDE) continue;
        switch (t->punct) {
        case P_LPAREN: {
            int32_t aux = cur_aux;
            if (pass == 1) {
                chain ch;
                bool dir_code = in_dir && dir_kind == D_DEFINE && i >= body_start;
                if (find_chain(c, i, in_dir, &ch)) {
                    /* Parameters of a declaration or definition keep the outer call. */
                    bool decl_level = !in_dir && at_decl_level(c);
                    bool stmt_start = false;
                    bool call = is_call(c, &ch, decl_level, in_dir, body_start, &stmt_start);
                    bool is_decl = false;
                    int32_t body = decl_level && def_head_ok(c, &ch)
                                       ? find_function_body(c, i, &is_decl)
                                       : -1;
                    if (body >= 0) {
                        if (function_def(c, &ch, i, body, stmt_start)) aux = ch.name;
                    } else if (call) {
                        aux = ch.name;
                        if (!in_dir || dir_code) emit_call(c, &ch, in_dir);
                    } else if (is_decl && enclosing_class_rec(c) >= 0) {
                        method_decl(c, &ch);
                    } else if (!decl_level && !in_dir) {
                        /* `Type var(args)` in a body: the constructor's arguments get the
                         * variable as their enclosing call (pybind's `py::class_<T> v(pe, ..)`) */
                        aux = ch.name;
                    }
                }
            }
            bm_push(c, i, '(', aux, B_OTHER);
            break;
        }
        case P_LBRACK:
            bm_push(c, i, '[', cur_aux, B_OTHER);
            break;
        case P_LBRACE:
            bm_push(c, i, '{', -1, in_dir ? B_OTHER : t->bkind);
            break;
        case P_RPAREN: case P_RBRACK: case P_RBRACE:
            bm_closer(c, i, floor_depth, pass);
            break;
        default:
            if (pass == 1 && !in_dir && t->kind == TK_KEYWORD) {
                if (teq(c, i, "class") || teq(c, i, "struct") || teq(c, i, "union")) {
                    class_head(c, i);
                } else if (teq(c, i, "namespace")) {
                    namespace_head(c, i);
                } else if (teq(c, i, "extern")) {
                    int32_t s = nx(c, i, false), b = s >= 0 ? nx(c, s, false) : -1;
                    if (s >= 0 && c->t[s].kind == TK_LITERAL && is_p(c, b, P_LBRACE))
                        c->t[b].bkind = B_EXTERN;
                }
            }
            break;
        }
    }
}

/* ---------------------------------------------------------------- cursors */

static bool class_like(enum CXCursorKind k) {
    return k == CXCursor_ClassDecl || k == CXCursor_StructDecl || k == CXCursor_UnionDecl ||
           k == CXCursor_ClassTemplate || k == CXCursor_ClassTemplatePartialSpecialization;
}

static bool function_like(enum CXCursorKind k) {
    return k == CXCursor_FunctionDecl || k == CXCursor_CXXMethod || k == CXCursor_Constructor ||
           k == CXCursor_Destructor || k == CXCursor_ConversionFunction ||
           k == CXCursor_FunctionTemplate;
}

static int32_t token_at(const cscan *c, uint32_t off) {
    int32_t lo = 0, hi = c->n;
    while (lo < hi) {
        int32_t mid = lo + (hi - lo) / 2;
        if (c->t[mid].start < off) lo = mid + 1;
        else hi = mid;
    }
    return lo < c->n && c->t[lo].start == off ? lo : -1;
}

static uint32_t cursor_offset(CXSourceLocation loc) {
    unsigned off = 0;
    clang_getFileLocation(loc, NULL, NULL, NULL, &off);
    return off;
}

/* Appends the class-like semantic parents of cur, outermost first, each followed by "::". */
static void class_prefix(CXCursor cur, sb *out) {
    CXCursor chainv[16];
    int n = 0;
    for (CXCursor p = clang_getCursorSemanticParent(cur);
         n < 16 && !clang_Cursor_isNull(p) && class_like(clang_getCursorKind(p));
         p = clang_getCursorSemanticParent(p))
        chainv[n++] = p;
    while (n-- > 0) {
        CXString s = clang_getCursorSpelling(chainv[n]);
        sb_puts(out, clang_getCString(s));
        sb_puts(out, "::");
        clang_disposeString(s);
    }
}

/* A declaration seen by libclang in the main file: functions always, namespaces and classes
 * in precise mode (in fast mode the token outline is the better witness for those). */
static void cursor_record(cscan *c, CXCursor cur, enum CXCursorKind kind) {
    CXString sp = clang_getCursorSpelling(cur);
    const char *name = clang_getCString(sp);
    size_t nl = name ? strlen(name) : 0;
    int32_t ti = nl ? token_at(c, cursor_offset(clang_getCursorLocation(cur))) : -1;
    int32_t name_tok = -1, bs = -1, be = -1;
    if (ti >= 0) {
        if (is_ident(c, ti) && tlen(c, ti) == nl && memcmp(ttext(c, ti), name, nl) == 0) {
            name_tok = bs = be = ti;
            if (name[0] != '~' && is_p(c, ti - 1, P_TILDE)) name_tok = -1;
        } else if (name[0] == '~' && is_p(c, ti, P_TILDE) && is_ident(c, ti + 1) &&
                   tlen(c, ti + 1) == nl - 1 && memcmp(ttext(c, ti + 1), name + 1, nl - 1) == 0) {
            name_tok = be = ti + 1;
            bs = ti;
        } else if (is_ident(c, ti) && name[0] == '~' && is_p(c, ti - 1, P_TILDE) &&
                   tlen(c, ti) == nl - 1 && memcmp(ttext(c, ti), name + 1, nl - 1) == 0) {
            name_tok = be = ti;
            bs = ti - 1;
        } else if (is_kw(c, ti, "operator") && strncmp(name, "operator", 8) == 0) {
            name_tok = bs = ti;
            int32_t j = ti + 1;
            if (is_p(c, j, P_LPAREN) && is_p(c, j + 1, P_RPAREN)) j += 2;
            else
                while (j < c->n && j < ti + 4 && !is_p(c, j, P_LPAREN)) j++;
            be = j - 1;
        }
    }
    if (name_tok < 0 || c->t[name_tok].rec >= 0) {
        clang_disposeString(sp);
        return;
    }
    int rk;
    if (kind == CXCursor_Namespace) {
        rk = R_NAMESPACE;
    } else if (class_like(kind)) {
        enum CXCursorKind tk = kind == CXCursor_ClassTemplate ? clang_getTemplateCursorKind(cur)
                                                              : kind;
        rk = tk == CXCursor_StructDecl ? R_STRUCT : tk == CXCursor_UnionDecl ? R_UNION : R_CLASS;
    } else if (kind == CXCursor_FunctionDecl) {
        rk = R_FUNCTION;
    } else if (kind == CXCursor_FunctionTemplate) {
        rk = class_like(clang_getCursorKind(clang_getCursorSemanticParent(cur))) ? R_METHOD
                                                                                 : R_FUNCTION;
    } else {
        rk = R_METHOD;
    }
    c->tmp2.len = 0;
    if (c->tmp2.s) c->tmp2.s[0] = 0;
    if (rk != R_NAMESPACE) class_prefix(cur, &c->tmp2);
    sb_putn(&c->tmp2, name, nl);
    clang_disposeString(sp);
    if (c->tmp2.oom) { c->oom = true; return; }
    int32_t r = rec_new(c, rk, c->tmp2.s, c->tmp2.len);
    if (r < 0) return;
    crec *rc = rec_at(c, r);
    if (rk != R_NAMESPACE) {
        rc->def_start = c->t[bs].start;
        rc->def_end = c->t[be].end;
        c->t[name_tok].flags |= TF_DEFINITION;
    }
    c->t[name_tok].rec = r;
    if (c->precise && clang_isCursorDefinition(cur)) {
        CXSourceRange ext = clang_getCursorExtent(cur);
        uint32_t so = cursor_offset(clang_getRangeStart(ext));
        uint32_t eo = cursor_offset(clang_getRangeEnd(ext));
        if (so <= eo && eo <= c->len) {
            rc->start_line = line_of(c, so);
            rc->end_line = line_of(c, eo > so ? eo - 1 : eo);
            rc->has_scope = rc->cursor_scope = 1;
        }
    }
}

static enum CXChildVisitResult collect_child(CXCursor cur, CXCursor parent, CXClientData data) {
    (void)parent;
    return vec_push(data, &cur) ? CXChildVisit_Continue : CXChildVisit_Break;
}

/* Iterative walk over declarations of the main file (namespaces, linkage specs, classes);
 * function bodies are never entered. */
static void cursor_walk(cscan *c, CXTranslationUnit tu) {
    vec stack = VEC_INIT(CXCursor), kids = VEC_INIT(CXCursor);
    CXCursor root = clang_getTranslationUnitCursor(tu);
    if (!push(c, &stack, &root)) goto cleanup;
    while (stack.n && !c->oom) {
        CXCursor cur = VEC_AT(&stack, CXCursor, --stack.n);
        kids.n = 0;
        clang_visitChildren(cur, collect_child, &kids);
        for (size_t i = 0; i < kids.n; i++) {
            CXCursor k = VEC_AT(&kids, CXCursor, i);
            if (!clang_Location_isFromMainFile(clang_getCursorLocation(k))) continue;
            enum CXCursorKind kind = clang_getCursorKind(k);
            if (function_like(kind)) {
                cursor_record(c, k, kind);
            } else if (kind == CXCursor_Namespace || class_like(kind) ||
                       kind == CXCursor_LinkageSpec || kind == CXCursor_UnexposedDecl) {
                if (c->precise && (kind == CXCursor_Namespace ||
                                   (class_like(kind) && clang_isCursorDefinition(k))))
                    cursor_record(c, k, kind);
                if (stack.n < 1000000 && !push(c, &stack, &k)) goto cleanup;
            }
        }
    }
cleanup:
    vec_free(&stack);
    vec_free(&kids);
}

/* ---------------------------------------------------------------- precise references */

/* "paddle::framework::ParallelExecutor" for the entity `cur` names; false for locals,
 * parameters, template parameters and anything not reachable through namespaces and
 * classes. */
static bool qual_name(CXCursor ref, sb *out) {
    enum CXCursorKind rk = clang_getCursorKind(ref);
    if (rk == CXCursor_ParmDecl || rk == CXCursor_TemplateTypeParameter ||
        rk == CXCursor_NonTypeTemplateParameter || rk == CXCursor_TemplateTemplateParameter ||
        rk == CXCursor_LabelStmt || !clang_isDeclaration(rk))
        return false;
    CXCursor parts[32];
    int n = 0;
    parts[n++] = ref;
    for (CXCursor p = clang_getCursorSemanticParent(ref);; p = clang_getCursorSemanticParent(p)) {
        if (clang_Cursor_isNull(p)) break;
        enum CXCursorKind k = clang_getCursorKind(p);
        if (k == CXCursor_TranslationUnit || clang_isInvalid(k)) break;
        if (k == CXCursor_LinkageSpec || k == CXCursor_UnexposedDecl) continue;
        if (k == CXCursor_Namespace && clang_Cursor_isInlineNamespace(p)) continue;
        if (!(k == CXCursor_Namespace || class_like(k) || k == CXCursor_EnumDecl)) return false;
        if (n == 32) return false;
        parts[n++] = p;
    }
    out->len = 0;
    while (n-- > 0) {
        CXString s = clang_getCursorSpelling(parts[n]);
        const char *str = clang_getCString(s);
        if (!str || !*str)
            str = clang_getCursorKind(parts[n]) == CXCursor_Namespace ? "(anonymous namespace)"
                                                                      : "(anonymous)";
        sb_puts(out, str);
        if (n) sb_puts(out, "::");
        clang_disposeString(s);
    }
    return !out->oom && out->len > 0;
}

/* Does the entity at `ref` carry the name token i spells (`~Foo` for the `Foo` of a
 * destructor)? */
static bool names_token(const cscan *c, int32_t i, CXCursor ref) {
    CXString sp = clang_getCursorSpelling(ref);
    const char *s = clang_getCString(sp);
    size_t n = tlen(c, i);
    bool same = s && ((strlen(s) == n && memcmp(s, ttext(c, i), n) == 0) ||
                      (s[0] == '~' && strlen(s + 1) == n && memcmp(s + 1, ttext(c, i), n) == 0));
    clang_disposeString(sp);
    return same;
}

/* Searches a type (through pointers, references, sugar and template arguments, boundedly)
 * for a declaration named like token i. */
static bool type_names_token(const cscan *c, int32_t i, CXType ty, int depth, CXCursor *out) {
    for (int guard = 0; guard < 8; guard++) {
        if (ty.kind == CXType_Pointer || ty.kind == CXType_LValueReference ||
            ty.kind == CXType_RValueReference)
            ty = clang_getPointeeType(ty);
        else if (ty.kind == CXType_Elaborated)
            ty = clang_Type_getNamedType(ty);
        else
            break;
    }
    if (ty.kind == CXType_Invalid) return false;
    /* the type as written, then its canonical form (clang 14's using-types are Unexposed) */
    CXType forms[2] = {ty, clang_getCanonicalType(ty)};
    for (int f = 0; f < 2; f++) {
        CXCursor d = clang_getTypeDeclaration(forms[f]);
        if (!clang_Cursor_isNull(d) && !clang_isInvalid(clang_getCursorKind(d)) &&
            names_token(c, i, d)) {
            *out = d;
            return true;
        }
    }
    int na = clang_Type_getNumTemplateArguments(ty);
    for (int a = 0; depth < 2 && a < na && a < 8; a++)
        if (type_names_token(c, i, clang_Type_getTemplateArgumentAsType(ty, (unsigned)a),
                             depth + 1, out))
            return true;
    return false;
}

/* The entity identifier token i refers to, qualified; false when unknown or when libclang's
 * cursor is not about this very name (inactive branches, macro arguments). */
static bool token_qual(cscan *c, int32_t i, sb *out) {
    CXCursor cur = c->cursors[i];
    enum CXCursorKind k = clang_getCursorKind(cur);
    if (clang_isInvalid(k) || k == CXCursor_TranslationUnit) return false;
    CXCursor ref = clang_getCursorReferenced(cur);
    if (clang_Cursor_isNull(ref)) return false;
    if (clang_getCursorKind(ref) == CXCursor_OverloadedDeclRef) {
        if (clang_getNumOverloadedDecls(ref) == 0) return false;
        ref = clang_getOverloadedDecl(ref, 0);
    }
    if (names_token(c, i, ref)) return qual_name(ref, out);
    /* libclang 14 exposes no TypeRef for a type named through a using-declaration
     * (`using ns::T; void f(T *p)` annotates T with the ParmDecl): look through the
     * declared type instead. */
    if (!clang_isDeclaration(k)) return false;
    CXType ty = function_like(k) ? clang_getCursorResultType(cur) : clang_getCursorType(cur);
    CXCursor d;
    return type_names_token(c, i, ty, 0, &d) && qual_name(d, out);
}

/* ---------------------------------------------------------------- facts (pass 2) */

/* One element of a receiver, ending at token j: `name`, `this`, `name(...)`, `a[i]`,
 * `f<T>()`, `(expr)`. Sets *first to its first token. */
static bool receiver_elem(cscan *c, int32_t j, bool in_dir, int *budget, int32_t *first) {
    int32_t k = j;
    bool grp = false;
    while (k >= 0 && (is_p(c, k, P_RPAREN) || is_p(c, k, P_RBRACK)) && c->t[k].match >= 0 &&
           c->t[k].match < k) {
        *budget -= k - c->t[k].match;
        if (*budget < 0) return false;
        *first = c->t[k].match;
        k = pv(c, c->t[k].match, in_dir);
        grp = true;
    }
    if (grp && (is_p(c, k, P_GT) || is_p(c, k, P_SHR))) {
        int32_t l = angle_back(c, k, in_dir);
        int32_t n = l >= 0 ? pv(c, l, in_dir) : -1;
        if (is_ident(c, n)) k = n;
    }
    if (is_ident(c, k) || is_kw(c, k, "this")) {
        *first = k;
        return true;
    }
    return grp;
}

/* The receiver of the member access whose '.' or '->' is token dot: the chain of names,
 * calls and subscripts written just before it, e.g. "this->strategy_" or "member_->places_". */
static void receiver_text(cscan *c, int32_t dot, bool in_dir, sb *out) {
    out->len = 0;
    int budget = 256;
    int32_t last = pv(c, dot, in_dir), first = -1;
    if (last < 0) return;
    if (!receiver_elem(c, last, in_dir, &budget, &first)) {
        sb_putn(out, ttext(c, last), tlen(c, last) < 256 ? tlen(c, last) : 256);
        return;
    }
    for (int elems = 1; elems < 32; elems++) {
        int32_t sep = pv(c, first, in_dir);
        if (!(is_p(c, sep, P_DOT) || is_p(c, sep, P_ARROW) || is_p(c, sep, P_SCOPE))) break;
        int32_t f2 = -1;
        if (!receiver_elem(c, pv(c, sep, in_dir), in_dir, &budget, &f2)) break;
        first = f2;
    }
    join_tokens(c, first, last, in_dir, false, out);
}

static bool is_assign_op(const cscan *c, int32_t k) {
    return is_p(c, k, P_ASSIGN) || is_p(c, k, P_OPASSIGN);
}

/* String literal contents: after the prefix (L u8 u U, R"delim() and before the closing
 * quote (and any user-defined suffix). False for character and numeric literals. */
static bool string_contents(const cscan *c, int32_t i, uint32_t *cs, uint32_t *ce) {
    const char *s = ttext(c, i);
    uint32_t n = tlen(c, i), p = 0;
    while (p < n && p < 3 && (s[p] == 'L' || s[p] == 'u' || s[p] == 'U' || s[p] == '8')) p++;
    bool raw = p < n && s[p] == 'R';
    if (raw) p++;
    if (p >= n || s[p] != '"') return false;
    p++;
    uint32_t q = n;
    while (q > p && s[q - 1] != '"') q--; /* user-defined suffix */
    if (q <= p) return false;             /* unterminated */
    q--;                                  /* the closing quote */
    if (raw) {
        uint32_t d = p;
        while (d < q && s[d] != '(' && d - p < 16) d++;
        if (d >= q || s[d] != '(') return false;
        uint32_t dl = d - p;
        if (q < d + 1 + dl + 1 || s[q - dl - 1] != ')' || memcmp(s + q - dl, s + p, dl) != 0)
            return false;
        *cs = c->t[i].start + d + 1;
        *ce = c->t[i].start + q - dl - 1;
        return true;
    }
    *cs = c->t[i].start + p;
    *ce = c->t[i].start + q;
    return true;
}

static void emit_text_at(cscan *c, sunset_context ctx, uint32_t s, uint32_t e,
                         const char *call) {
    sunset_span at = span_of(c, s, s);
    sunset_emit_text(c->sink, ctx, at, c->d + s, e - s, call);
}

static void emit_tokens(cscan *c) {
    char call[256];
    for (int32_t i = 0; i < c->n && !c->oom; i++) {
        const ctok *t = &c->t[i];
        bool in_dir = (t->flags & TF_DIRECTIVE) != 0;
        if (t->kind == TK_COMMENT) {
            const char *s = ttext(c, i);
            uint32_t n = tlen(c, i);
            if (n < 2) continue;
            uint32_t cs = t->start + 2, ce = t->end;
            if (s[1] == '*' && n >= 4 && s[n - 2] == '*' && s[n - 1] == '/') ce -= 2;
            while (s[1] == '/' && ce > cs && c->d[ce - 1] == '\r') ce--;
            if (ce > cs) emit_text_at(c, SUNSET_CTX_COMMENT, cs, ce, NULL);
            continue;
        }
        if (t->flags & TF_SKIP) continue;
        if (t->kind == TK_LITERAL) {
            uint32_t cs, ce;
            if (!string_contents(c, i, &cs, &ce) || ce == cs) continue;
            const char *cl = NULL;
            if (t->aux >= 0) {
                size_t al = tlen(c, t->aux) < sizeof call - 1 ? tlen(c, t->aux) : sizeof call - 1;
                memcpy(call, ttext(c, t->aux), al);
                call[al] = 0;
                cl = call;
            }
            emit_text_at(c, SUNSET_CTX_STRING, cs, ce, cl);
            continue;
        }
        if (t->kind != TK_IDENT) continue;

        const char *text = ttext(c, i);
        size_t text_len = tlen(c, i);
        if (memchr(text, '\\', text_len)) { /* spliced by backslash-newline */
            c->tmp.len = 0;
            for (size_t k = 0; k < text_len; k++) {
                if (text[k] == '\\') {
                    size_t m = k + 1;
                    if (m < text_len && text[m] == '\r') m++;
                    if (m < text_len && text[m] == '\n') { k = m; continue; }
                }
                sb_putc(&c->tmp, text[k]);
            }
            if (c->tmp.oom) { c->oom = true; break; }
            text = c->tmp.s;
            text_len = c->tmp.len;
        }
        sunset_fact f = {0};
        f.kind = SUNSET_FACT_IDENT;
        f.ctx = SUNSET_CTX_CODE;
        f.span = span_of(c, t->start, t->end);
        f.flags = (t->flags & TF_DEFINITION) ? SUNSET_FACT_DEFINITION : 0;
        f.text = text;
        f.text_len = text_len;
        if (t->aux >= 0) {
            f.aux = ttext(c, t->aux);
            f.aux_len = tlen(c, t->aux);
        }
        if (c->cursors && token_qual(c, i, &c->tmp2)) {
            f.qual = c->tmp2.s;
            f.qual_len = c->tmp2.len;
        }
        sunset_emit(c->sink, &f);

        int32_t p = pv(c, i, in_dir);
        if (is_kw(c, p, "template")) p = pv(c, p, in_dir);
        if (is_p(c, p, P_DOT) || is_p(c, p, P_ARROW)) {
            receiver_text(c, p, in_dir, &c->tmp2);
            if (c->tmp2.oom) { c->oom = true; break; }
            unsigned flags = is_assign_op(c, nx(c, i, in_dir)) ? SUNSET_FACT_STORE : 0;
            emit_fact(c, SUNSET_FACT_ATTR, t->start, t->end, flags, text, text_len,
                      c->tmp2.len ? c->tmp2.s : "", c->tmp2.len);
        }
    }
}

static void emit_records(cscan *c) {
    uint32_t last_line = (uint32_t)c->lines.n;
    for (size_t r = 0; r < c->recs.n; r++) {
        crec *rc = rec_at(c, (int32_t)r);
        const char *kind = rec_kind_name[rc->kind];
        if (rc->def_end > rc->def_start) {
            sunset_fact f = {0};
            f.kind = SUNSET_FACT_DEF;
            f.ctx = SUNSET_CTX_CODE;
            f.span = span_of(c, rc->def_start, rc->def_end);
            f.flags = 0;
            f.text = c->d + rc->def_start;
            f.text_len = rc->def_end - rc->def_start;
            f.aux = kind;
            f.aux_len = strlen(kind);
            sunset_emit(c->sink, &f);
        }
        if (rc->has_scope) {
            uint32_t end = rc->end_line ? rc->end_line : last_line;
            if (end < rc->start_line) end = rc->start_line;
            sunset_scope(c->sink, kind, c->names.s + rc->name_off, rc->start_line, end);
        }
    }
}

/* ---------------------------------------------------------------- token table */

static int punct_code(const char *s, uint32_t n) {
    if (n == 1) {
        switch (s[0]) {
        case '(': return P_LPAREN;
        case ')': return P_RPAREN;
        case '[': return P_LBRACK;
        case ']': return P_RBRACK;
        case '{': return P_LBRACE;
        case '}': return P_RBRACE;
        case ';': return P_SEMI;
        case ',': return P_COMMA;
        case ':': return P_COLON;
        case '.': return P_DOT;
        case '<': return P_LT;
        case '>': return P_GT;
        case '#': return P_HASH;
        case '~': return P_TILDE;
        case '*': return P_STAR;
        case '&': return P_AMP;
        case '=': return P_ASSIGN;
        case '?': return P_QUESTION;
        default: return P_OTHER;
        }
    }
    if (n == 2) {
        if (!memcmp(s, "::", 2)) return P_SCOPE;
        if (!memcmp(s, "->", 2)) return P_ARROW;
        if (!memcmp(s, ">>", 2)) return P_SHR;
        if (!memcmp(s, "&&", 2)) return P_ANDAND;
        if (!memcmp(s, "%:", 2)) return P_HASH;
        if (!memcmp(s, "<%", 2)) return P_LBRACE;
        if (!memcmp(s, "%>", 2)) return P_RBRACE;
        if (!memcmp(s, "<:", 2)) return P_LBRACK;
        if (!memcmp(s, ":>", 2)) return P_RBRACK;
        if (s[1] == '=' && strchr("+-*/%&|^", s[0])) return P_OPASSIGN;
        return P_OTHER;
    }
    if (n == 3) {
        if (!memcmp(s, "...", 3)) return P_ELLIPSIS;
        if (!memcmp(s, "<<=", 3) || !memcmp(s, ">>=", 3)) return P_OPASSIGN;
    }
    return P_OTHER;
}

/* Converts libclang's tokens into the table (and annotates them in precise mode). */
static bool load_tokens(cscan *c, CXTranslationUnit tu, CXToken *toks, unsigned nt) {
    if (nt > INT32_MAX / 2) return false;
    c->t = sunset_calloc(nt ? nt : 1, sizeof *c->t);
    if (!c->t) return false;
    if (c->precise && nt) {
        c->cursors = sunset_malloc(nt * sizeof *c->cursors);
        if (!c->cursors) return false;
        clang_annotateTokens(tu, toks, nt, c->cursors);
    }
    int32_t n = 0;
    uint32_t prev_end = 0;
    for (unsigned k = 0; k < nt; k++) {
        CXSourceRange ext = clang_getTokenExtent(tu, toks[k]);
        uint32_t s = cursor_offset(clang_getRangeStart(ext));
        uint32_t e = cursor_offset(clang_getRangeEnd(ext));
        if (e < s || e > c->len || s < prev_end) continue; /* never seen; be safe */
        ctok *t = &c->t[n];
        t->start = s;
        t->end = e;
        t->match = t->aux = t->rec = t->body = -1;
        switch (clang_getTokenKind(toks[k])) {
        case CXToken_Punctuation:
            t->kind = TK_PUNCT;
            t->punct = (uint8_t)punct_code(c->d + s, e - s);
            break;
        case CXToken_Keyword: t->kind = TK_KEYWORD; break;
        case CXToken_Identifier: t->kind = TK_IDENT; break;
        case CXToken_Literal: t->kind = TK_LITERAL; break;
        default: t->kind = TK_COMMENT; break;
        }
        if (c->cursors && (int32_t)k != n) c->cursors[n] = c->cursors[k];
        prev_end = e;
        n++;
    }
    c->n = n;
    return true;
}

/* Line starts; logical line starts (a newline not escaped by a backslash); directives. */
static bool mark_lines(cscan *c) {
    uint32_t zero = 0;
    if (!push(c, &c->lines, &zero)) return false;
    for (uint32_t k = 0; k < c->len; k++)
        if (c->d[k] == '\n') {
            uint32_t next = k + 1;
            if (!push(c, &c->lines, &next)) return false;
        }
    for (int32_t i = 0; i < c->n; i++) {
        bool ls = i == 0;
        if (!ls) {
            for (uint32_t k = c->t[i - 1].end; k < c->t[i].start; k++) {
                if (c->d[k] != '\n') continue;
                uint32_t m = k;
                if (m > c->t[i - 1].end && c->d[m - 1] == '\r') m--;
                if (m > c->t[i - 1].end && c->d[m - 1] == '\\') continue;
                ls = true;
                break;
            }
        }
        if (ls) c->t[i].flags |= TF_LINE_START;
    }
    for (int32_t i = 0; i < c->n; i++) {
        if (!((c->t[i].flags & TF_LINE_START) && c->t[i].punct == P_HASH)) continue;
        c->t[i].flags |= TF_DIR_HEAD | TF_DIRECTIVE;
        int32_t j = i + 1;
        for (; j < c->n && !(c->t[j].flags & TF_LINE_START); j++) c->t[j].flags |= TF_DIRECTIVE;
        int kind = directive_kind(c, i);
        int32_t d = nx(c, i, true);
        if (d >= 0) c->t[d].flags |= TF_SKIP;
        if (kind == D_INCLUDE)
            for (int32_t k = i; k < j; k++)
                if (c->t[k].kind != TK_COMMENT) c->t[k].flags |= TF_SKIP;
        i = j - 1;
    }
    return true;
}

/* ---------------------------------------------------------------- compile commands */

typedef struct precise_cmd {
    char *file;  /* absolute path of the source, owned */
    char **argv; /* owned strings */
    int argc;
} precise_cmd;

static void precise_cmd_free(precise_cmd *pc) {
    for (int i = 0; i < pc->argc; i++) sunset_free(pc->argv[i]);
    sunset_free(pc->argv);
    sunset_free(pc->file);
    memset(pc, 0, sizeof *pc);
}

/* dir + "/" + p, or p alone when absolute. Caller frees; NULL when out of memory. */
static char *path_join(const char *dir, const char *p) {
    sb b = {0};
    if (p[0] == '/' || !dir || !*dir) {
        sb_puts(&b, p);
    } else {
        sb_puts(&b, dir);
        if (b.len && b.s[b.len - 1] != '/') sb_putc(&b, '/');
        sb_puts(&b, p);
    }
    if (b.oom) { sb_free(&b); return NULL; }
    return sb_take(&b);
}

/* Appends s, taking ownership (freed here on failure). False when s is NULL or out of memory. */
static bool argv_add(precise_cmd *pc, char *s, int *cap) {
    if (!s) return false;
    if (pc->argc == *cap) {
        int nc = *cap ? *cap * 2 : 32;
        char **nv = sunset_realloc(pc->argv, (size_t)nc * sizeof *nv);
        if (!nv) { sunset_free(s); return false; }
        pc->argv = nv;
        *cap = nc;
    }
    pc->argv[pc->argc++] = s;
    return true;
}

/* Caller frees. */
static char *dup_cstr(const char *s) { return sunset_strndup(s, strlen(s)); }

/* Options whose argument is a path to resolve against the entry's directory. */
static const char *const path_opts[] = {"-I", "-isystem", "-iquote", "-idirafter", "-include",
                                        "-imacros", "-F", NULL};
/* Options to drop together with their argument. */
static const char *const drop_with_arg[] = {"-o", "-MF", "-MT", "-MQ", NULL};
static const char *const drop_alone[] = {"-c", "-M", "-MM", "-MD", "-MMD", "-MP", "-MG",
                                         "-fsyntax-only", "-E", "-S", NULL};

static bool in_list(const char *const *list, const char *s) {
    for (int i = 0; list[i]; i++)
        if (strcmp(list[i], s) == 0) return true;
    return false;
}

/* Normalised absolute path for comparing files: realpath when the file exists. Caller frees. */
static char *normal_path(const char *abs) {
    char buf[PATH_MAX];
    return dup_cstr(realpath(abs, buf) ? buf : abs);
}

static int cmp_str(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The files the database really lists. libclang answers a query for any other file with a
 * command interpolated from a neighbour; those files stay in fast mode. */
static bool collect_db_files(clang_state *st) {
    bool ok = false;
    size_t cap = 0;
    CXCompileCommands all = clang_CompilationDatabase_getAllCompileCommands(st->db);
    unsigned n = all ? clang_CompileCommands_getSize(all) : 0;
    for (unsigned i = 0; i < n; i++) {
        CXCompileCommand cmd = clang_CompileCommands_getCommand(all, i);
        CXString dirs = clang_CompileCommand_getDirectory(cmd);
        CXString files = clang_CompileCommand_getFilename(cmd);
        const char *file = clang_getCString(files);
        char *joined = file ? path_join(clang_getCString(dirs), file) : NULL;
        char *norm = joined ? normal_path(joined) : NULL;
        sunset_free(joined);
        clang_disposeString(dirs);
        clang_disposeString(files);
        if (!file) continue;
        if (!norm) goto cleanup;
        if (st->n_db_files == cap) {
            size_t nc = cap ? cap * 2 : 64;
            char **nv = sunset_realloc(st->db_files, nc * sizeof *nv);
            if (!nv) {
                sunset_free(norm);
                goto cleanup;
            }
            st->db_files = nv;
            cap = nc;
        }
        st->db_files[st->n_db_files++] = norm;
    }
    if (st->n_db_files) qsort(st->db_files, st->n_db_files, sizeof *st->db_files, cmp_str);
    ok = true;
cleanup:
    if (all) clang_CompileCommands_dispose(all);
    return ok;
}

static bool db_lists(const clang_state *st, const char *abs) {
    char *norm = normal_path(abs);
    if (!norm) return false;
    bool found = st->n_db_files &&
                 bsearch(&norm, st->db_files, st->n_db_files, sizeof *st->db_files, cmp_str);
    sunset_free(norm);
    return found;
}

/* Looks `abs` up in the database; on success fills pc with the arguments to parse with. */
static bool precise_lookup(clang_state *st, const char *abs, precise_cmd *pc, bool *oom) {
    bool ok = false;
    int cap = 0;
    pthread_mutex_lock(&st->db_lock);
    CXCompileCommands cmds = clang_CompilationDatabase_getCompileCommands(st->db, abs);
    unsigned ncmd = cmds ? clang_CompileCommands_getSize(cmds) : 0;
    if (ncmd == 0) goto cleanup;
    CXCompileCommand cmd = clang_CompileCommands_getCommand(cmds, 0);
    /* nvcc command lines mean nothing to libclang: such files stay in fast mode */
    CXString cc = clang_CompileCommand_getArg(cmd, 0);
    const char *ccs = clang_getCString(cc);
    const char *base = ccs ? strrchr(ccs, '/') : NULL;
    bool nvcc = ccs && strstr(base ? base + 1 : ccs, "nvcc") != NULL;
    clang_disposeString(cc);
    if (nvcc) goto cleanup;
    CXString dirs = clang_CompileCommand_getDirectory(cmd);
    CXString files = clang_CompileCommand_getFilename(cmd);
    const char *dir = clang_getCString(dirs);
    const char *given = clang_getCString(files);
    pc->file = path_join(dir, given ? given : abs);
    bool good = pc->file != NULL;
    unsigned na = clang_CompileCommand_getNumArgs(cmd);
    for (unsigned i = 1; good && i < na; i++) {
        CXString as = clang_CompileCommand_getArg(cmd, i);
        const char *a = clang_getCString(as);
        CXString nexts = {0};
        const char *next = NULL;
        if (i + 1 < na) {
            nexts = clang_CompileCommand_getArg(cmd, i + 1);
            next = clang_getCString(nexts);
        }
        bool took_next = false;
        if (!a) {
        } else if (strcmp(a, "-x") == 0 && next && strstr(next, "-header")) {
            /* a header listed as such: parse it as a source, not as a PCH */
            good = argv_add(pc, dup_cstr("-x"), &cap) &&
                   argv_add(pc, sunset_strndup(next, (size_t)(strstr(next, "-header") - next)),
                            &cap);
            took_next = true;
        } else if (in_list(drop_with_arg, a)) {
            took_next = true;
        } else if (in_list(drop_alone, a) || (strncmp(a, "-o", 2) == 0 && a[2]) ||
                   ((strncmp(a, "-MF", 3) == 0 || strncmp(a, "-MT", 3) == 0 ||
                     strncmp(a, "-MQ", 3) == 0) && a[3])) {
        } else if ((given && strcmp(a, given) == 0) || strcmp(a, abs) == 0 ||
                   strcmp(a, pc->file) == 0) {
        } else {
            const char *opt = NULL;
            for (int k = 0; path_opts[k]; k++) {
                size_t ol = strlen(path_opts[k]);
                if (strncmp(a, path_opts[k], ol) == 0 && (a[ol] == 0 || ol <= 2)) {
                    opt = path_opts[k];
                    break;
                }
            }
            if (opt && a[strlen(opt)] == 0 && next) { /* -I dir */
                good = argv_add(pc, dup_cstr(opt), &cap) &&
                       argv_add(pc, path_join(dir, next), &cap);
                took_next = true;
            } else if (opt && a[strlen(opt)]) { /* -Idir */
                char *p = path_join(dir, a + strlen(opt));
                sb b = {0};
                sb_puts(&b, opt);
                if (p) sb_puts(&b, p);
                sunset_free(p);
                good = p && !b.oom && argv_add(pc, sb_take(&b), &cap);
                if (!good) sb_free(&b);
            } else {
                good = argv_add(pc, dup_cstr(a), &cap);
            }
        }
        clang_disposeString(as);
        if (next) clang_disposeString(nexts);
        if (took_next) i++;
    }
    /* No -working-directory=DIR: libclang 14 applies it to the real file system, which
     * chdir()s the whole process (every relative path sunset holds, --output included, then
     * resolves inside the compile command's directory). Path options are joined with DIR
     * above instead. */
    good = good && argv_add(pc, dup_cstr("-Wno-everything"), &cap) &&
           argv_add(pc, dup_cstr("-ferror-limit=0"), &cap);
    clang_disposeString(dirs);
    clang_disposeString(files);
    if (!good) {
        *oom = true;
        precise_cmd_free(pc);
        goto cleanup;
    }
    ok = true;
cleanup:
    if (cmds) clang_CompileCommands_dispose(cmds);
    pthread_mutex_unlock(&st->db_lock);
    return ok;
}

/* ---------------------------------------------------------------- frontend entry points */

static const char *const fast_args[] = {"-x", "c++", "-std=c++17", "-fsyntax-only", "-nostdinc",
                                        "-nostdinc++", "-Wno-everything", "-ferror-limit=0"};
static const unsigned fast_opts = CXTranslationUnit_SingleFileParse | CXTranslationUnit_KeepGoing |
                                  CXTranslationUnit_SkipFunctionBodies;
static const unsigned precise_opts = CXTranslationUnit_KeepGoing;

static void clang_fini(void *state);

/* libclang answers a malformed compile_commands.json with several lines of its own on stderr
 * (YAML errors, "LIBCLANG TOOLING ERROR"); check the shape first so that the user gets one
 * line: "FILE:LINE:COL: invalid JSON" or "FILE: entry N: ...". Keys as libclang 14 knows them.
 * Returns true when libclang may read it. */
static bool compdb_check(const char *file, sunset_error *err) {
    char *text = NULL;
    size_t len = 0;
    int e = read_file(file, 0, &text, &len);
    if (e) {
        snprintf(err->msg, sizeof err->msg, "%s: cannot read: %s", file, strerror(e));
        return false;
    }
    size_t err_off = 0;
    cJSON *doc = json_parse(text, len, &err_off);
    bool ok = false;
    if (!doc) {
        unsigned line, col;
        json_line_col(text, err_off, &line, &col);
        snprintf(err->msg, sizeof err->msg, "%s:%u:%u: invalid JSON", file, line, col);
        goto cleanup;
    }
    if (!cJSON_IsArray(doc)) {
        snprintf(err->msg, sizeof err->msg, "%s: not a JSON array of compile commands", file);
        goto cleanup;
    }
    int i = 0;
    const cJSON *ent;
    cJSON_ArrayForEach(ent, doc) {
        i++;
        const char *bad = NULL;
        if (!cJSON_IsObject(ent)) bad = "not an object";
        for (const cJSON *k = bad ? NULL : ent->child; k && !bad; k = k->next) {
            if (strcmp(k->string, "arguments") == 0) {
                if (!cJSON_IsArray(k)) bad = "\"arguments\" is not an array";
                for (const cJSON *a = bad ? NULL : k->child; a; a = a->next)
                    if (!cJSON_IsString(a)) bad = "\"arguments\" holds a non-string";
            } else if (strcmp(k->string, "directory") && strcmp(k->string, "file") &&
                       strcmp(k->string, "command") && strcmp(k->string, "output")) {
                bad = "unknown key";
            } else if (!cJSON_IsString(k)) {
                bad = "a value is not a string";
            }
        }
        if (!bad && (!cJSON_IsString(cJSON_GetObjectItemCaseSensitive(ent, "directory")) ||
                     !cJSON_IsString(cJSON_GetObjectItemCaseSensitive(ent, "file"))))
            bad = "\"directory\" or \"file\" missing";
        if (!bad && !cJSON_GetObjectItemCaseSensitive(ent, "command") &&
            !cJSON_GetObjectItemCaseSensitive(ent, "arguments"))
            bad = "neither \"command\" nor \"arguments\"";
        if (bad) {
            snprintf(err->msg, sizeof err->msg, "%s: entry %d: %s", file, i, bad);
            goto cleanup;
        }
    }
    ok = true;
cleanup:
    cJSON_Delete(doc);
    sunset_free(text);
    return ok;
}

/* Loads the compilation database once (precise mode). On success *state owns it. */
static int clang_init(const sunset_frontend_config *cfg, void **state, sunset_error *err) {
    int rc = -1;
    clang_state *st = sunset_calloc(1, sizeof *st);
    if (!st) {
        snprintf(err->msg, sizeof err->msg, "clang: out of memory");
        return -1;
    }
    pthread_mutex_init(&st->db_lock, NULL);
    /* parses run on our own big-stack thread (parse_deep); once per run, before any worker */
    setenv("LIBCLANG_NOTHREADS", "1", 1);
    st->budget_ms = cfg ? cfg->parse_budget_ms : 0;
    if (cfg && cfg->root) {
        st->root = dup_cstr(cfg->root);
        if (!st->root) {
            snprintf(err->msg, sizeof err->msg, "clang: out of memory");
            goto cleanup;
        }
    }
    if (cfg && cfg->compile_db_dir) {
        CXCompilationDatabase_Error dberr = CXCompilationDatabase_NoError;
        char *json = path_join(cfg->compile_db_dir, "compile_commands.json");
        /* libclang prints to stderr when the file is missing; check first */
        bool readable = json && access(json, R_OK) == 0;
        if (readable && !compdb_check(json, err)) {
            sunset_free(json);
            goto cleanup;
        }
        sunset_free(json);
        if (readable) {
            /* what libclang would still print, it prints to stderr: keep it off the user's
             * terminal (init runs once, before any worker thread) */
            fflush(stderr);
            int saved = dup(2), null = open("/dev/null", O_WRONLY | O_CLOEXEC);
            if (saved >= 0 && null >= 0) dup2(null, 2);
            st->db = clang_CompilationDatabase_fromDirectory(cfg->compile_db_dir, &dberr);
            if (saved >= 0 && null >= 0) dup2(saved, 2);
            if (saved >= 0) close(saved);
            if (null >= 0) close(null);
        }
        if (!st->db || dberr != CXCompilationDatabase_NoError) {
            const char *d = cfg->compile_db_dir;
            size_t dl = strlen(d);
            snprintf(err->msg, sizeof err->msg,
                     "%s%scompile_commands.json: cannot load compilation database", d,
                     dl && d[dl - 1] == '/' ? "" : "/");
            goto cleanup;
        }
        if (!collect_db_files(st)) {
            snprintf(err->msg, sizeof err->msg, "clang: out of memory");
            goto cleanup;
        }
    }
    *state = st;
    st = NULL;
    rc = 0;
cleanup:
    clang_fini(st); /* NULL on success */
    return rc;
}

static void clang_fini(void *state) {
    clang_state *st = state;
    if (!st) return;
    for (size_t i = 0; i < st->n_db_files; i++) sunset_free(st->db_files[i]);
    sunset_free(st->db_files);
    if (st->db) clang_CompilationDatabase_dispose(st->db);
    pthread_mutex_destroy(&st->db_lock);
    sunset_free(st->root);
    sunset_free(st);
}

static void *clang_worker_new(void *state) {
    clang_worker *w = sunset_calloc(1, sizeof *w);
    if (!w) return NULL;
    w->st = state;
    w->index = clang_createIndex(0, 0); /* 0: never print diagnostics */
    if (!w->index) {
        sunset_free(w);
        return NULL;
    }
    return w;
}

static void clang_worker_free(void *worker) {
    clang_worker *w = worker;
    if (!w) return;
    clang_disposeIndex(w->index);
    sunset_free(w);
}

/* Absolute path of the file, for the compilation database. Caller frees. */
static char *absolute_path(const clang_state *st, const sunset_source *src) {
    if (src->fspath && src->fspath[0] == '/') return dup_cstr(src->fspath);
    if (st->root && src->path) return path_join(st->root, src->path);
    if (src->fspath) {
        char buf[PATH_MAX];
        if (realpath(src->fspath, buf)) return dup_cstr(buf);
    }
    return NULL;
}

/* Deeply nested input. libclang parses on a thread of its own with an 8 MB stack, and its
 * recursive-descent parser spends about 2.7 KB of it per nested unary operator: a file
 * holding `int x = - - - ... 1;` 4,000 deep (or `1+1+...` 50,000 long) overflowed it and
 * killed the whole scan, which crash recovery cannot catch. So clang_init sets
 * LIBCLANG_NOTHREADS, every parse runs on a thread of ours with PARSE_STACK bytes of stack
 * (address space; only what a parse touches is ever committed), and a file with an operator
 * chain longer than MAX_CHAIN is refused before libclang sees it (20,000 unary operators take
 * ~55 MB of stack; a chain of 99,000 casts took 48 s to parse). */
#define PARSE_STACK ((size_t)512 << 20)
#define MAX_CHAIN 20000u

typedef struct parse_job {
    CXIndex index;
    const char *file;
    const char *const *argv;
    int argc;
    struct CXUnsavedFile *uf;
    unsigned opts;
    CXTranslationUnit tu;
    enum CXErrorCode e;
} parse_job;

static void *parse_thread(void *arg) {
    parse_job *j = arg;
    j->e = clang_parseTranslationUnit2(j->index, j->file, j->argv, j->argc, j->uf, 1, j->opts,
                                       &j->tu);
    return NULL;
}

static enum CXErrorCode parse_deep(CXIndex index, const char *file, const char *const *argv,
                                   int argc, struct CXUnsavedFile *uf, unsigned opts,
                                   CXTranslationUnit *tu) {
    parse_job j = {index, file, argv, argc, uf, opts, NULL, CXError_Failure};
    pthread_attr_t attr;
    pthread_t th;
    bool ran = false;
    if (pthread_attr_init(&attr) == 0) {
        if (pthread_attr_setstacksize(&attr, PARSE_STACK) == 0 &&
            pthread_create(&th, &attr, parse_thread, &j) == 0) {
            pthread_join(th, NULL);
            ran = true;
        }
        pthread_attr_destroy(&attr);
    }
    /* no thread (address space exhausted): the file is reported unparsable */
    *tu = ran ? j.tu : NULL;
    return ran ? j.e : CXError_Failure;
}

static uint32_t line_at(const char *d, uint32_t off) {
    uint32_t line = 1;
    for (uint32_t i = 0; i < off; i++) line += d[i] == '\n';
    return line;
}

/* Is there an expression with more than MAX_CHAIN operators? Counts operator characters and
 * opening parentheses between separators (; , { }), outside comments and string/character literals; *at = the
 * offset where the count ran over. Linear, no allocation. */
static bool operator_chain(const char *d, size_t len, uint32_t *at) {
    uint32_t n = 0;
    for (size_t i = 0; i < len; i++) {
        char ch = d[i];
        if (ch == '/' && i + 1 < len && d[i + 1] == '/') {
            while (i < len && d[i] != '\n') i++;
        } else if (ch == '/' && i + 1 < len && d[i + 1] == '*') {
            for (i += 2; i + 1 < len && !(d[i] == '*' && d[i + 1] == '/'); i++) {}
            i++;
        } else if (ch == '"' || ch == '\'') {
            for (i++; i < len && d[i] != ch && d[i] != '\n'; i++)
                if (d[i] == '\\') i++;
        } else if (ch == ';' || ch == ',' || ch == '{' || ch == '}') {
            n = 0;
        } else if (strchr("+-*/%&|^!~<>=?:(", ch) && ch) {
            if (++n > MAX_CHAIN) {
                *at = (uint32_t)i;
                return true;
            }
        }
    }
    return false;
}

static int clang_scan(void *worker, const sunset_source *src, sunset_sink *sink) {
    clang_worker *w = worker;
    clang_state *st = w->st;
    cscan c = {0};
    c.src = src;
    c.sink = sink;
    c.d = src->data;
    c.lines = VEC_INIT(uint32_t);
    c.recs = VEC_INIT(crec);
    c.nodes = VEC_INIT(pnode);
    c.conds = VEC_INIT(cond);
    c.work = VEC_INIT(int32_t);
    int rc = -1;
    CXTranslationUnit tu = NULL;
    CXToken *toks = NULL;
    unsigned ntoks = 0;
    precise_cmd pc = {0};
    char *abs = NULL;
    const char *name = src->fspath && *src->fspath ? src->fspath : src->path ? src->path : "";

    if (src->len > UINT32_MAX - 1) {
        sunset_warn(sink, 0, 0, "file too large for the C++ frontend");
        goto cleanup;
    }
    c.len = (uint32_t)src->len;
    uint32_t chain_at = 0;
    if (operator_chain(src->data, src->len, &chain_at)) {
        sunset_warn(sink, line_at(src->data, chain_at), 0,
                    "skipped: an expression of more than %u operators (libclang's parser "
                    "would overflow its stack)", MAX_CHAIN);
        goto cleanup;
    }

    double t0 = now_ms();
    if (st->db) {
        bool oom = false;
        abs = absolute_path(st, src);
        if (abs && db_lists(st, abs) && precise_lookup(st, abs, &pc, &oom)) {
            struct CXUnsavedFile uf = {pc.file, src->data, src->len};
            enum CXErrorCode e = parse_deep(w->index, pc.file, (const char *const *)pc.argv,
                                            pc.argc, &uf, precise_opts, &tu);
            if (e == CXError_Success && tu) {
                c.precise = true;
                name = pc.file;
            } else {
                tu = NULL;
                sunset_warn(sink, 0, 0,
                            "libclang could not parse this file with its compile command "
                            "(error %d); falling back to fast mode",
                            (int)e);
            }
        } else if (oom) {
            sunset_warn(sink, 0, 0, "out of memory");
            goto cleanup;
        }
    }
    if (!tu) {
        struct CXUnsavedFile uf = {name, src->data, src->len};
        enum CXErrorCode e = parse_deep(w->index, name, fast_args,
                                        (int)(sizeof fast_args / sizeof *fast_args), &uf,
                                        fast_opts, &tu);
        if (e != CXError_Success || !tu) {
            tu = NULL;
            sunset_warn(sink, 0, 0, "libclang could not parse this file (error %d)", (int)e);
            goto cleanup;
        }
    }
    double parse_ms = now_ms() - t0;
    if (st->budget_ms && parse_ms > st->budget_ms)
        sunset_warn(sink, 0, 0, "parse took %.0f ms, over the %u ms budget", parse_ms,
                    st->budget_ms);

    CXFile file = clang_getFile(tu, name);
    if (!file) {
        sunset_warn(sink, 0, 0, "libclang lost track of this file");
        goto cleanup;
    }
    CXSourceRange whole = clang_getRange(clang_getLocationForOffset(tu, file, 0),
                                         clang_getLocationForOffset(tu, file, c.len));
    clang_tokenize(tu, whole, &toks, &ntoks);
    if (!load_tokens(&c, tu, toks, ntoks) || !mark_lines(&c)) {
        sunset_warn(sink, 0, 0, "out of memory");
        goto cleanup;
    }
    if (toks) clang_disposeTokens(tu, toks, ntoks);
    toks = NULL;

    cursor_walk(&c, tu);
    walk(&c, 0);
    walk(&c, 1);
    emit_tokens(&c);
    emit_records(&c);
    if (c.oom || c.names.oom) {
        sunset_warn(sink, 0, 0, "out of memory");
        goto cleanup;
    }
    rc = 0;
cleanup:
    if (toks) clang_disposeTokens(tu, toks, ntoks);
    if (tu) clang_disposeTranslationUnit(tu);
    precise_cmd_free(&pc);
    sunset_free(abs);
    sunset_free(c.t);
    sunset_free(c.cursors);
    vec_free(&c.lines);
    vec_free(&c.recs);
    vec_free(&c.nodes);
    vec_free(&c.conds);
    vec_free(&c.work);
    sb_free(&c.names);
    sb_free(&c.tmp);
    sb_free(&c.tmp2);
    return rc;
}

static const sunset_lang clang_langs[] = {SUNSET_LANG_CPP, SUNSET_LANG_NONE};

const sunset_frontend sunset_frontend_clang = {
    .abi = SUNSET_FRONTEND_ABI,
    .name = "clang",
    .langs = clang_langs,
    .init = clang_init,
    .fini = clang_fini,
    .worker_new = clang_worker_new,
    .worker_free = clang_worker_free,
    .scan = clang_scan,
};
