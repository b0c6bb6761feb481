/*
 * facts.c — pass 2 of the C/C++ frontend: facts from the token table once the outline is
 * built. Every comment and string literal goes to the engine as text (words and all);
 * every identifier becomes an IDENT fact with its enclosing call, its definition flag and,
 * in precise mode, its qualified name; a member access also becomes an ATTR fact with the
 * receiver as written. Finally each record yields its DEF fact and its scope.
 */
#include "lang/clang/clang_int.h"

#include <stdint.h>
#include <string.h>

static const char *const rec_kind_name[] = {"namespace", "class",  "struct", "union",
                                            "function",  "method", "macro"};

void clang_emit_fact(cscan *c, sunset_fact_kind kind, uint32_t s, uint32_t e, unsigned flags,
                     const char *text, size_t text_len, const char *aux, size_t aux_len) {
    sunset_fact f = {0};
    f.kind = kind;
    f.ctx = SUNSET_CTX_CODE;
    f.span = clang_span_of(c, s, e);
    f.flags = flags;
    f.text = text;
    f.text_len = text_len;
    f.aux = aux;
    f.aux_len = aux_len;
    sunset_emit(c->sink, &f);
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
        int32_t l = clang_angle_back(c, k, in_dir);
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
    clang_join_tokens(c, first, last, in_dir, false, out);
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

static bool is_string_tok(const cscan *c, int32_t i) {
    uint32_t cs, ce;
    return i >= 0 && c->t[i].kind == TK_LITERAL && string_contents(c, i, &cs, &ce);
}

/* Where code puts the string literal i (sunset_str_use), adjacent literals being one string:
 * between [ and ] a subscript's key, beside == or != a comparison's operand, a whole argument
 * of the call t->aux names (*arg its position: the commas before it at its bracket depth). */
static sunset_str_use string_use(const cscan *c, int32_t i, bool in_dir, int *arg) {
    int32_t lo = i, hi = i, p, q;
    *arg = -1;
    while (is_string_tok(c, p = pv(c, lo, in_dir))) lo = p;
    while (is_string_tok(c, q = nx(c, hi, in_dir))) hi = q;
    if (is_p(c, p, P_LBRACK) && is_p(c, q, P_RBRACK)) return SUNSET_USE_SUBSCRIPT;
    if (teq(c, p, "==") || teq(c, p, "!=") || teq(c, q, "==") || teq(c, q, "!=")) return SUNSET_USE_COMPARE;
    if (c->t[i].aux < 0 || !(is_p(c, p, P_LPAREN) || is_p(c, p, P_COMMA)) ||
        !(is_p(c, q, P_RPAREN) || is_p(c, q, P_COMMA)))
        return SUNSET_USE_NONE;
    int n = 0;
    for (int32_t k = p, steps = 0; k >= 0 && steps < 4096; k = pv(c, k, in_dir), steps++) {
        if (is_p(c, k, P_LPAREN)) {
            *arg = n;
            return SUNSET_USE_ARG;
        }
        if (is_p(c, k, P_COMMA)) n++;
        else if ((is_p(c, k, P_RPAREN) || is_p(c, k, P_RBRACK) || is_p(c, k, P_RBRACE)) && c->t[k].match >= 0 &&
                 c->t[k].match < k)
            k = c->t[k].match;
        else if (is_p(c, k, P_LBRACK) || is_p(c, k, P_LBRACE) || is_p(c, k, P_SEMI))
            break;
    }
    return SUNSET_USE_NONE;
}

/* A string literal inserted into a stream (`os << "x_: "` or `"x_: " << ...`): its statement,
 * from the string's line to the line of the `;` that ends it (brackets skipped), so that a
 * label and the member it prints on the next line (`<< strategy.x_ << std::endl;`) are one
 * statement. All 0 when the string is no `<<` operand or the statement ends nowhere near. */
static sunset_span stream_stmt(const cscan *c, int32_t i, bool in_dir) {
    sunset_span none = {0, 0, 0, 0};
    int32_t lo = i, hi = i, p, q;
    while (is_string_tok(c, p = pv(c, lo, in_dir))) lo = p;
    while (is_string_tok(c, q = nx(c, hi, in_dir))) hi = q;
    if (!teq(c, p, "<<") && !teq(c, q, "<<")) return none;
    for (int32_t k = q, steps = 0; k >= 0 && steps < 256; k = nx(c, k, in_dir), steps++) {
        if (is_p(c, k, P_SEMI)) {
            sunset_span s = clang_span_of(c, c->t[i].start, c->t[k].end);
            s.col = s.end_col = 0;
            return s.end_line > s.line ? s : none; /* one line: the line is the statement */
        }
        if (is_p(c, k, P_LBRACE) || is_p(c, k, P_RBRACE) || is_p(c, k, P_RPAREN) || is_p(c, k, P_RBRACK))
            return none; /* the statement does not end at this level */
        if ((is_p(c, k, P_LPAREN) || is_p(c, k, P_LBRACK)) && c->t[k].match > k) k = c->t[k].match;
    }
    return none;
}

/* A branch longer than this is no one edit: the condition's string stays a line of its own. */
#define BRANCH_LINES 8
/* Nor is a first `if` (with its `else if` branches) longer than this. */
#define CHAIN_LINES 16

/* The closing brace of the last branch of the if-chain whose first block closes at close: each
 * `else if (...) {...}` after it, and a plain `else {...}` ending it (the statement is one
 * edit: rewriting it keeps what the other branches do). -1 when a branch is no braced block. */
static int32_t chain_close(const cscan *c, int32_t close, bool in_dir) {
    for (int steps = 0; steps < 64; steps++) {
        int32_t e = nx(c, close, in_dir), k = nx(c, e, in_dir), lp = nx(c, k, in_dir);
        if (!is_kw(c, e, "else")) return close;
        if (is_p(c, k, P_LBRACE) && c->t[k].match > k) return c->t[k].match; /* a plain `else`: the last */
        if (!is_kw(c, k, "if") || !is_p(c, lp, P_LPAREN) || c->t[lp].match <= lp) return -1;
        int32_t body = nx(c, c->t[lp].match, in_dir);
        if (!is_p(c, body, P_LBRACE) || c->t[body].match <= body) return -1;
        close = c->t[body].match;
    }
    return -1;
}

/* A name or string literal in the condition of an `if` whose body is a braced block: the
 * branch, from the `if` line to its closing brace's line (the line before it when that line
 * goes on, `} else if (...) {`, and the branch itself is an `else if`: the next branch's header
 * stays). A first `if` takes its `else if` branches and its plain `else` with it (dropping it
 * alone would leave a dangling `else`; the edit rewrites the statement, keeping what the other
 * branches do), at most CHAIN_LINES. All 0 otherwise. */
static sunset_span branch_stmt(const cscan *c, int32_t i, bool in_dir) {
    sunset_span none = {0, 0, 0, 0};
    int32_t open = -1;
    for (int32_t k = pv(c, i, in_dir), steps = 0; k >= 0 && steps < 64; k = pv(c, k, in_dir), steps++) {
        if ((is_p(c, k, P_RPAREN) || is_p(c, k, P_RBRACK)) && c->t[k].match >= 0 && c->t[k].match < k) {
            k = c->t[k].match;
            continue;
        }
        if (is_p(c, k, P_LPAREN) && is_kw(c, pv(c, k, in_dir), "if")) {
            open = k;
            break;
        }
        if (is_p(c, k, P_LPAREN) || is_p(c, k, P_LBRACK)) continue;
        if (is_p(c, k, P_SEMI) || is_p(c, k, P_LBRACE) || is_p(c, k, P_RBRACE)) return none;
    }
    if (open < 0 || c->t[open].match <= open) return none;
    int32_t kw = pv(c, open, in_dir), body = nx(c, c->t[open].match, in_dir);
    if (!is_p(c, body, P_LBRACE) || c->t[body].match <= body) return none;
    int32_t close = c->t[body].match, before = pv(c, kw, in_dir);
    bool elif = is_kw(c, before, "else");
    if (!elif && (close = chain_close(c, close, in_dir)) < 0) return none;
    int32_t after = nx(c, close, in_dir);
    uint32_t first = clang_line_of(c, c->t[elif ? before : kw].start), last = clang_line_of(c, c->t[close].start);
    bool goes_on = after >= 0 && clang_line_of(c, c->t[after].start) == last;
    if (elif && (before < 1 || !is_p(c, pv(c, before, in_dir), P_RBRACE))) return none;
    if (goes_on && !(elif && is_kw(c, after, "else"))) return none;
    if (goes_on) last--;
    if (last - first >= (elif ? BRANCH_LINES : CHAIN_LINES)) return none;
    if (elif && clang_line_of(c, c->t[pv(c, before, in_dir)].start) != first) return none;
    return (sunset_span){first, 0, last, 0};
}

/* The `(` at k opens a call (or a template's argument list) around the token, not a condition
 * (`if (`, `while (` ...): a name or `>` before it. */
static bool call_paren(const cscan *c, int32_t k, bool in_dir) {
    int32_t p = pv(c, k, in_dir);
    return is_p(c, k, P_LPAREN) && (is_ident(c, p) || teq(c, p, ">"));
}

/* A name in a simple statement over several lines (`x_ = std::make_unique<ParallelExecutor>(\n
 * a,\n b);`): the statement, from its first token's line to the `;` that ends it, brackets
 * skipped, at most BRANCH_LINES long; with calls, a string argument's too (`auto p =\n
 * Registry::Get("x_pass");`: the calls around it are the statement's). All 0 for one line, or
 * where a brace comes first (a definition, a block). */
static sunset_span simple_stmt(const cscan *c, int32_t i, bool in_dir, bool calls) {
    sunset_span none = {0, 0, 0, 0};
    if (in_dir) return none;
    int32_t first = i, end = -1;
    for (int32_t k = pv(c, i, in_dir), steps = 0; k >= 0; k = pv(c, k, in_dir), steps++) {
        if (steps > 256) return none;
        if ((is_p(c, k, P_RPAREN) || is_p(c, k, P_RBRACK)) && c->t[k].match >= 0 && c->t[k].match < k) {
            first = k = c->t[k].match;
            continue;
        }
        if (calls && call_paren(c, k, in_dir) && c->t[k].match > i) {
            first = k;
            continue;
        }
        if (is_p(c, k, P_SEMI) || is_p(c, k, P_LBRACE) || is_p(c, k, P_RBRACE) || is_p(c, k, P_LPAREN) ||
            is_p(c, k, P_LBRACK) || teq(c, k, ":")) /* `private:`, `case x:` end what is before */
            break;
        first = k;
    }
    for (int32_t k = nx(c, i, in_dir), steps = 0; k >= 0 && steps < 256; k = nx(c, k, in_dir), steps++) {
        if (is_p(c, k, P_SEMI)) {
            end = k;
            break;
        }
        if (calls && is_p(c, k, P_RPAREN) && c->t[k].match >= 0 && c->t[k].match < i &&
            call_paren(c, c->t[k].match, in_dir))
            continue;
        if (is_p(c, k, P_LBRACE) || is_p(c, k, P_RBRACE) || is_p(c, k, P_RPAREN) || is_p(c, k, P_RBRACK)) return none;
        if ((is_p(c, k, P_LPAREN) || is_p(c, k, P_LBRACK)) && c->t[k].match > k) k = c->t[k].match;
    }
    if (end < 0) return none;
    uint32_t a = clang_line_of(c, c->t[first].start), z = clang_line_of(c, c->t[end].start);
    if (z <= a || z - a >= BRANCH_LINES) return none;
    return (sunset_span){a, 0, z, 0};
}

static sunset_span string_stmt(const cscan *c, int32_t i, bool in_dir) {
    sunset_span s = stream_stmt(c, i, in_dir);
    if (!s.line) s = branch_stmt(c, i, in_dir);
    return s.line ? s : simple_stmt(c, i, in_dir, true);
}

/* An element of a chained call statement, each on lines of its own (pybind's
 * `py::class_<X>(m, "X")\n .def_property(\n "name",\n [](const X &self) {...},\n
 * [](X &self, T v) {...})`): from its `.` to the `)` closing its argument list. The element at
 * the `.` at i, or its close (-1) when i starts none: the `.` first on its line, after a `)`,
 * before `name(`. Its code ends before a last argument that is a string (the binding's
 * `R"DOC(...)DOC"`: prose, whose own findings are text); the statement of the code's names
 * still runs to the close, so that removing the binding takes its doc string too. */
typedef struct chain_elem {
    int32_t dot, paren, close, last;
} chain_elem;

/* The last token of the element's code: before the `,` of a trailing string argument, else its
 * close. */
static int32_t chain_last(const cscan *c, int32_t lp, int32_t close) {
    int32_t comma = -1;
    for (int32_t k = nx(c, lp, false); k >= 0 && k < close; k = nx(c, k, false)) {
        if ((is_p(c, k, P_LPAREN) || is_p(c, k, P_LBRACK) || is_p(c, k, P_LBRACE)) && c->t[k].match > k) k = c->t[k].match;
        else if (is_p(c, k, P_COMMA)) comma = k;
    }
    if (comma < 0 || !is_string_tok(c, nx(c, comma, false))) return close;
    return pv(c, comma, false);
}

static chain_elem chain_elem_at(const cscan *c, int32_t i) {
    chain_elem none = {-1, -1, -1, -1};
    int32_t p = pv(c, i, false), name = nx(c, i, false), lp = nx(c, name, false);
    if (!(is_p(c, i, P_DOT) || is_p(c, i, P_ARROW)) || !is_p(c, p, P_RPAREN) || !is_ident(c, name) ||
        !is_p(c, lp, P_LPAREN) || c->t[lp].match <= lp)
        return none;
    if (clang_line_of(c, c->t[p].start) == clang_line_of(c, c->t[i].start)) return none;
    return (chain_elem){i, lp, c->t[lp].match, chain_last(c, lp, c->t[lp].match)};
}

/* A name inside the element's code, or a string that is its first argument (the binding's
 * name): the element's lines, lambda bodies and trailing doc string and all (the binding is one
 * unit: its getter, setter and doc go with it). All 0 outside one, or for an element on one
 * line. */
static sunset_span chain_stmt(const cscan *c, const chain_elem *el, int32_t i, bool string) {
    sunset_span none = {0, 0, 0, 0};
    if (el->dot < 0 || i <= el->paren || i > el->last || (string && pv(c, i, false) != el->paren)) return none;
    uint32_t a = clang_line_of(c, c->t[el->dot].start), z = clang_line_of(c, c->t[el->close].start);
    return z > a ? (sunset_span){a, 0, z, 0} : none;
}

/* Token i and what its statement is computed from, for the engine to ask (sunset_emit_lazy):
 * a statement walks up to hundreds of tokens, and few of the tokens become findings. */
typedef struct stmt_at {
    const cscan *c;
    const chain_elem *el;
    int32_t i;
    bool in_dir;
} stmt_at;

/* An identifier's statement: a binding's element, a condition's short branch, a simple
 * statement over several lines. */
static sunset_span ident_stmt(void *ud) {
    const stmt_at *a = ud;
    sunset_span s = a->in_dir ? (sunset_span){0, 0, 0, 0} : chain_stmt(a->c, a->el, a->i, false);
    if (!s.line) s = branch_stmt(a->c, a->i, a->in_dir);
    if (!s.line) s = simple_stmt(a->c, a->i, a->in_dir, false);
    return s;
}

/* A string literal's statement: a binding's name, else string_stmt. */
static sunset_span literal_stmt(void *ud) {
    const stmt_at *a = ud;
    sunset_span s = a->in_dir ? (sunset_span){0, 0, 0, 0} : chain_stmt(a->c, a->el, a->i, true);
    return s.line ? s : string_stmt(a->c, a->i, a->in_dir);
}

static void emit_text_at(cscan *c, sunset_context ctx, uint32_t s, uint32_t e,
                         const char *call) {
    sunset_span at = clang_span_of(c, s, s);
    sunset_emit_text(c->sink, ctx, at, c->d + s, e - s, call);
}

void clang_emit_tokens(cscan *c) {
    char call[256];
    chain_elem el = {-1, -1, -1, -1}; /* the outermost chained call element around i */
    for (int32_t i = 0; i < c->n && !c->oom; i++) {
        const ctok *t = &c->t[i];
        bool in_dir = (t->flags & TF_DIRECTIVE) != 0;
        if (i > el.close) el = in_dir || (t->flags & TF_SKIP) ? (chain_elem){-1, -1, -1, -1} : chain_elem_at(c, i);
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
            int arg;
            sunset_str_use use = string_use(c, i, in_dir, &arg);
            stmt_at at = {c, &el, i, in_dir};
            sunset_emit_string_lazy(c->sink, clang_span_of(c, cs, cs), c->d + cs, ce - cs, cl, use, arg,
                                    literal_stmt, &at);
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
        f.span = clang_span_of(c, t->start, t->end);
        f.flags = (t->flags & TF_DEFINITION) ? SUNSET_FACT_DEFINITION : 0;
        if (is_p(c, nx(c, i, in_dir), P_SCOPE) || is_kw(c, pv(c, i, in_dir), "namespace"))
            f.flags |= SUNSET_FACT_NAMESPACE;
        f.text = text;
        f.text_len = text_len;
        if (t->aux >= 0) {
            f.aux = ttext(c, t->aux);
            f.aux_len = tlen(c, t->aux);
        }
        if (c->cursors && clang_token_qual(c, i, &c->tmp2)) {
            f.qual = c->tmp2.s;
            f.qual_len = c->tmp2.len;
        }
        stmt_at at = {c, &el, i, in_dir};
        sunset_emit_lazy(c->sink, &f, ident_stmt, &at);

        int32_t p = pv(c, i, in_dir);
        if (is_kw(c, p, "template")) p = pv(c, p, in_dir);
        if (is_p(c, p, P_DOT) || is_p(c, p, P_ARROW)) {
            receiver_text(c, p, in_dir, &c->tmp2);
            if (c->tmp2.oom) { c->oom = true; break; }
            unsigned flags = is_assign_op(c, nx(c, i, in_dir)) ? SUNSET_FACT_STORE : 0;
            clang_emit_fact(c, SUNSET_FACT_ATTR, t->start, t->end, flags, text, text_len,
                            c->tmp2.len ? c->tmp2.s : "", c->tmp2.len);
        }
    }
}

void clang_emit_records(cscan *c) {
    uint32_t last_line = (uint32_t)c->lines.n;
    for (size_t r = 0; r < c->recs.n; r++) {
        crec *rc = rec_at(c, (int32_t)r);
        const char *kind = rec_kind_name[rc->kind];
        if (rc->def_end > rc->def_start) {
            sunset_fact f = {0};
            f.kind = SUNSET_FACT_DEF;
            f.ctx = SUNSET_CTX_CODE;
            f.span = clang_span_of(c, rc->def_start, rc->def_end);
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
