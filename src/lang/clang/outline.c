/*
 * outline.c — pass 1 of the C/C++ frontend: the outline of namespaces, classes, functions
 * and macros, read from the token table by brace matching rather than from libclang's AST
 * (in fast mode the AST loses out-of-line method definitions of classes declared
 * elsewhere). One walk drives the bracket stack twice: pass 0 only matches brackets; pass 1
 * recognises declaration heads (class/struct/union, namespace, function definitions and
 * member declarations, macro-made definitions such as TEST(Suite, Name) { ... }), turns
 * them into records with their scope lines, records the innermost call around each token,
 * and emits calls, class bases and includes. Records the cursors already made (cursors.c)
 * are refined, not duplicated.
 */
#include "lang/clang/clang_int.h"

#include <stdint.h>
#include <string.h>

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

int32_t clang_rec_new(cscan *c, int kind, const char *name, size_t name_len) {
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

/* ---------------------------------------------------------------- declaration shapes */

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
        int32_t l = clang_angle_back(c, e, in_dir);
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
            int32_t l = clang_angle_back(c, q, in_dir);
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
    clang_join_tokens(c, a, b, false, true, out);
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
            int32_t l = clang_angle_back(c, p, false);
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
                        int32_t g = clang_angle_fwd(c, n, false);
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

/* ---------------------------------------------------------------- calls and directives */

static void emit_call(cscan *c, const chain *ch, bool in_dir) {
    c->tmp.len = 0;
    clang_join_tokens(c, ch->start, ch->bare_end, in_dir, true, &c->tmp);
    if (c->tmp.oom) { c->oom = true; return; }
    if (!c->tmp.len) return;
    clang_emit_fact(c, SUNSET_FACT_CALL, c->t[ch->start].start, c->t[ch->bare_end].end, 0,
                    c->tmp.s, c->tmp.len, NULL, 0);
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
    clang_emit_fact(c, SUNSET_FACT_INCLUDE, s, e, 0, c->d + s, e - s, NULL, 0);
}

/* `#define NAME`: a macro definition record. Returns the first token of the body. */
static int32_t define_macro(cscan *c, int32_t hash) {
    int32_t d = nx(c, hash, true);
    int32_t name = d >= 0 ? nx(c, d, true) : -1;
    if (!is_ident(c, name)) return name < 0 ? c->n : name;
    int32_t r = clang_rec_new(c, R_MACRO, ttext(c, name), tlen(c, name));
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

/* The name in a class head after its keyword k: attributes, alignas and attribute-like or
 * export macros skipped; the qualified name runs from *cstart to *cend (a template-id's
 * arguments and qualifiers in it), *name its last component. Returns the token after it
 * ("final" or "sealed" skipped), -1 = not a class head. */
static int32_t class_head_name(cscan *c, int32_t k, int32_t *cstart, int32_t *cend, int32_t *name) {
    int32_t j = nx(c, k, false);
    *cstart = *cend = *name = -1;
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
            if (c->t[n1].match <= n1) return -1;
            j = nx(c, c->t[n1].match, false);
            *cstart = *name = -1;
            continue;
        }
        if (*cstart < 0) *cstart = j;
        *name = *cend = j;
        j = n1;
        if (is_p(c, j, P_LT)) {
            int32_t g = clang_angle_fwd(c, j, false);
            if (g < 0) return -1;
            *cend = g;
            j = nx(c, g, false);
        }
        if (is_p(c, j, P_SCOPE)) {
            *cend = j;
            j = nx(c, j, false);
            continue;
        }
        if (is_ident(c, j) && !teq(c, j, "final") && !teq(c, j, "sealed")) {
            *cstart = *name = -1; /* what we saw was an export macro */
            continue;
        }
        break;
    }
    if (*name < 0 || j < 0) return -1;
    if (is_ident(c, j) && (teq(c, j, "final") || teq(c, j, "sealed"))) j = nx(c, j, false);
    return j;
}

enum { MAX_BASES = 32 };

/* A class's base specifiers, each from its first token to its last (access and virtual
 * skipped); the first MAX_BASES are kept. */
typedef struct class_bases {
    int32_t first[MAX_BASES], last[MAX_BASES];
    int n;
} class_bases;

/* The base-clause after the ':' at j. Returns the token that ends it (the body's '{' when
 * there is one), -1 = what follows cannot be a base-clause. */
static int32_t base_clause(cscan *c, int32_t j, class_bases *b) {
    j = nx(c, j, false);
    for (int guard = 0; guard < MAX_BASES; guard++) {
        while (is_kw(c, j, "public") || is_kw(c, j, "protected") ||
               is_kw(c, j, "private") || is_kw(c, j, "virtual"))
            j = nx(c, j, false);
        int32_t first = j, last = -1;
        int depth = 0;
        for (int steps = 0;; steps++) {
            if (j < 0 || steps > 256) return -1;
            int p = c->t[j].punct;
            if ((p == P_COMMA || p == P_LBRACE) && depth <= 0) break;
            if (p == P_LT) depth++;
            else if (p == P_GT) depth--;
            else if (p == P_SHR) depth -= 2;
            else if (p == P_LPAREN || p == P_LBRACK) {
                if (c->t[j].match <= j) return -1;
                j = c->t[j].match;
            } else if (p == P_SEMI || p == P_RBRACE || p == P_RPAREN || p == P_RBRACK ||
                       p == P_LBRACE || p == P_ASSIGN) {
                return -1;
            }
            last = j;
            j = nx(c, j, false);
        }
        if (last >= first && b->n < MAX_BASES) {
            b->first[b->n] = first;
            b->last[b->n] = last;
            b->n++;
        }
        if (is_p(c, j, P_LBRACE)) break;
        j = nx(c, j, false);
    }
    return j;
}

/* A class defined (its body opens at body): a fact per base, and its record (made here unless
 * a declaration made it already) marked defined at its name, with the body attached. */
static void class_definition(cscan *c, int32_t k, int32_t cstart, int32_t cend, int32_t name, const class_bases *b,
                             int32_t body) {
    for (int i = 0; i < b->n; i++) {
        c->tmp.len = 0;
        clang_join_tokens(c, b->first[i], b->last[i], false, false, &c->tmp);
        if (c->tmp.oom) { c->oom = true; return; }
        clang_emit_fact(c, SUNSET_FACT_BASE, c->t[b->first[i]].start, c->t[b->last[i]].end, 0, c->tmp.s,
                        c->tmp.len, ttext(c, name), tlen(c, name));
    }
    int kind = teq(c, k, "struct") ? R_STRUCT : teq(c, k, "union") ? R_UNION : R_CLASS;
    int32_t cls = enclosing_class_rec(c);
    int32_t r = c->t[name].rec;
    if (r < 0) {
        qualified_name(c, cls, cstart, cend, &c->tmp2);
        r = clang_rec_new(c, kind, c->tmp2.s ? c->tmp2.s : "", c->tmp2.len);
        if (r < 0) return;
        crec *rc = rec_at(c, r);
        rc->start_line = clang_line_of(c, c->t[head_start(c, k)].start);
        c->t[name].rec = r;
    }
    crec *rc = rec_at(c, r);
    rc->def_start = c->t[name].start;
    rc->def_end = c->t[name].end;
    c->t[name].flags |= TF_DEFINITION;
    rec_attach_body(c, r, body, B_CLASS);
}

/* `class|struct|union [attrs] NAME [final] [: bases] {` at keyword k. */
static void class_head(cscan *c, int32_t k) {
    if (is_kw(c, pv(c, k, false), "enum")) return;
    int32_t cstart, cend, name;
    int32_t j = class_head_name(c, k, &cstart, &cend, &name);
    if (j < 0) return;
    class_bases b = {.n = 0};
    if (is_p(c, j, P_COLON)) j = base_clause(c, j, &b);
    if (j < 0 || !is_p(c, j, P_LBRACE)) return;
    class_definition(c, k, cstart, cend, name, &b, j);
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
    uint32_t line = clang_line_of(c, c->t[k].start);
    if (nn == 0) {
        int32_t r = clang_rec_new(c, R_NAMESPACE, "(anonymous)", 11);
        if (r < 0) return;
        rec_at(c, r)->start_line = line;
        rec_attach_body(c, r, j, B_NS);
        return;
    }
    for (int m = 0; m < nn; m++) {
        int32_t r = c->t[names[m]].rec;
        if (r < 0) {
            r = clang_rec_new(c, R_NAMESPACE, ttext(c, names[m]), tlen(c, names[m]));
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
            rc->start_line = clang_line_of(c, c->t[head_start(c, ch->start)].start);
        }
        if (macro_like) { /* libclang took TEST(...) for a function named TEST */
            rc->def_end = rc->def_start = 0;
            c->t[ch->name].flags &= (uint8_t)~TF_DEFINITION;
        }
    } else {
        r = clang_rec_new(c, kind, c->tmp2.s ? c->tmp2.s : "", c->tmp2.len);
        if (r < 0) return macro_like;
        crec *rc = rec_at(c, r);
        rc->start_line = clang_line_of(c, c->t[head_start(c, ch->start)].start);
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
    int32_t r = clang_rec_new(c, R_METHOD, c->tmp2.s ? c->tmp2.s : "", c->tmp2.len);
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
void clang_walk(cscan *c, int pass) {
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
                dir_kind = clang_directive_kind(c, i);
                clang_cond_apply(c, dir_kind);
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
            clang_bm_push(c, i, '(', aux, B_OTHER);
            break;
        }
        case P_LBRACK:
            clang_bm_push(c, i, '[', cur_aux, B_OTHER);
            break;
        case P_LBRACE:
            clang_bm_push(c, i, '{', -1, in_dir ? B_OTHER : t->bkind);
            break;
        case P_RPAREN: case P_RBRACK: case P_RBRACE:
            clang_bm_closer(c, i, floor_depth, pass);
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
