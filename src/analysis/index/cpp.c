/*
 * cpp.c — the index's C/C++ lexer. A first walk over the bytes makes tokens (identifiers,
 * numbers, punctuation; strings and comments skipped, a string's contents counted as a name
 * when it looks like one), hashes every identifier into the file's names and records #include
 * lines; a second walk over the tokens finds classes with their bases and brace-matched
 * extent, gflag definitions and pass registrations. The first walk is the index's hottest
 * loop (every byte of 8,000 C/C++ files in the real Paddle tree): one table dispatch per
 * token, 16-byte tokens, and the positions of the few tokens the second walk acts on, so that
 * it visits those rather than every token.
 */
#include "analysis/index/ix_int.h"

#include <stdlib.h>

#include "core/ruleset.h"

typedef struct cbrace {
    int kind;       /* 0 other, 1 namespace, 2 class */
    size_t cls;     /* class index when kind 2 */
    bool anon;      /* kind 1: an anonymous namespace (what it defines is the file's own) */
} cbrace;

/* Is s (n bytes) one of the names in v (char *)? */
static bool in_names(const vec *v, const char *s, size_t n) {
    for (size_t i = 0; i < v->n; i++) {
        const char *w = VEC_AT(v, const char *, i);
        if (strlen(w) == n && memcmp(w, s, n) == 0) return true;
    }
    return false;
}

/* A gflag definer as settings.macros.roles.flag spells one (sunset_macro_roles): the last
 * occurrence of the stem at the start or after one of the prefixes, a type after the last '_'. */
static bool is_flag_define(const sunset_macro_roles *m, const char *s, size_t n) {
    const char *stem = m->flag_stem, *d = NULL;
    if (!stem) return false;
    size_t sn = strlen(stem);
    if (sn > n) return false;
    if (!sn) d = s + n;
    for (size_t i = n - sn + 1; sn && i-- > 0;) /* from the end: the last occurrence */
        if (s[i] == stem[0] && memcmp(s + i, stem, sn) == 0) {
            d = s + i;
            break;
        }
    if (!d) return false;
    bool pre = d == s;
    for (size_t i = 0; i < m->flag_prefixes.n && !pre; i++) {
        const char *p = VEC_AT(&m->flag_prefixes, const char *, i);
        size_t pn = strlen(p);
        pre = pn && pn <= n && memcmp(s, p, pn) == 0;
    }
    if (!pre) return false;
    const char *us = memrchr(s, '_', n);
    return us && in_names(&m->flag_types, us + 1, n - (size_t)(us + 1 - s));
}

/* ---- first walk: bytes to tokens ---- */

/* A token of the first walk, 16 bytes (the walk makes one per identifier and punctuator of
 * every C/C++ file, and the second reads them all back). Its kind follows from its first
 * byte: an identifier starts with A-Z a-z _, a number with a digit, anything else is
 * punctuation ("::" the only one of two bytes). Strings and comments make none. */
typedef struct ctok {
    const char *s;
    uint32_t n, line;
} ctok;

static inline bool ct_id(const ctok *t) { return id_start((unsigned char)t->s[0]); }
/* An identifier spelled w (n bytes): no number or punctuator has a letter first. */
static inline bool ct_is(const ctok *t, const char *w, uint32_t n) { return t->n == n && memcmp(t->s, w, n) == 0; }
#define CT_IS(t, lit) ct_is((t), lit, (uint32_t)(sizeof lit - 1))

/* What a byte starts, for the first walk's dispatch: one table load instead of a chain of
 * comparisons per byte. */
enum { CB_PUNCT, CB_NL, CB_BLANK, CB_ID, CB_DIGIT, CB_QUOTE, CB_SLASH, CB_HASH, CB_BSLASH, CB_COLON, CB_BRACE, CB_SEMI, CB_PAREN };
static const unsigned char cpp_byte[256] = {
    ['\n'] = CB_NL, [' '] = CB_BLANK, ['\t'] = CB_BLANK, ['\r'] = CB_BLANK, ['\f'] = CB_BLANK, ['\v'] = CB_BLANK,
    ['0'] = CB_DIGIT, ['1'] = CB_DIGIT, ['2'] = CB_DIGIT, ['3'] = CB_DIGIT, ['4'] = CB_DIGIT,
    ['5'] = CB_DIGIT, ['6'] = CB_DIGIT, ['7'] = CB_DIGIT, ['8'] = CB_DIGIT, ['9'] = CB_DIGIT,
    ['"'] = CB_QUOTE, ['\''] = CB_QUOTE, ['/'] = CB_SLASH, ['#'] = CB_HASH, ['\\'] = CB_BSLASH, [':'] = CB_COLON,
    ['{'] = CB_BRACE, ['}'] = CB_BRACE, [';'] = CB_SEMI, ['('] = CB_PAREN,
    ['_'] = CB_ID,
    ['A'] = CB_ID, ['B'] = CB_ID, ['C'] = CB_ID, ['D'] = CB_ID, ['E'] = CB_ID, ['F'] = CB_ID, ['G'] = CB_ID,
    ['H'] = CB_ID, ['I'] = CB_ID, ['J'] = CB_ID, ['K'] = CB_ID, ['L'] = CB_ID, ['M'] = CB_ID, ['N'] = CB_ID,
    ['O'] = CB_ID, ['P'] = CB_ID, ['Q'] = CB_ID, ['R'] = CB_ID, ['S'] = CB_ID, ['T'] = CB_ID, ['U'] = CB_ID,
    ['V'] = CB_ID, ['W'] = CB_ID, ['X'] = CB_ID, ['Y'] = CB_ID, ['Z'] = CB_ID,
    ['a'] = CB_ID, ['b'] = CB_ID, ['c'] = CB_ID, ['d'] = CB_ID, ['e'] = CB_ID, ['f'] = CB_ID, ['g'] = CB_ID,
    ['h'] = CB_ID, ['i'] = CB_ID, ['j'] = CB_ID, ['k'] = CB_ID, ['l'] = CB_ID, ['m'] = CB_ID, ['n'] = CB_ID,
    ['o'] = CB_ID, ['p'] = CB_ID, ['q'] = CB_ID, ['r'] = CB_ID, ['s'] = CB_ID, ['t'] = CB_ID, ['u'] = CB_ID,
    ['v'] = CB_ID, ['w'] = CB_ID, ['x'] = CB_ID, ['y'] = CB_ID, ['z'] = CB_ID,
};

/* The tokens, and the positions of those the second walk acts on (the others it only reads
 * past, or looks at around these): '{', '}', ';', the keywords namespace, class and struct,
 * and an identifier followed by '(' (a macro call). Visiting these alone, in order, is the
 * walk over every token, at a fraction of the steps. */
typedef struct ctoks {
    ctok *v;
    size_t n, cap;
    size_t *at;
    size_t n_at, cap_at;
    vec defines; /* cdefine: function-like #define lines, whose parameters are never names */
    vec wrappers; /* cwrapper: the file's own macros around REGISTER_PASS */
    int cond;     /* #if nesting depth */
    int skip;     /* the depth of the #if whose #elif/#else branch the walk is in; 0 = none */
    const char *src; /* the file's first byte */
    const sunset_macro_roles *roles; /* settings.macros.roles */
    uint64_t role_lens; /* a bit per length (mod 64) of the roles' op, pass and use names */
    size_t stem_n;      /* the flag stem's length; SIZE_MAX when there is none */
    vec strs;           /* cstr: the name-like string literals, for the scopes (cpp_scopes) */
} ctoks;

/* Could an identifier of n bytes be one of the roles' op, pass or use names? Most macro calls
 * are none, and the length alone tells most of them (no strlen and compare per name). */
static inline bool role_len(const ctoks *t, size_t n) { return t->role_lens >> (n & 63) & 1; }

/* A name-like string literal ("add_reader_dependency_pass") and its line. */
typedef struct cstr {
    uint64_t h;
    uint32_t line;
} cstr;

/* `#define NAME(params) body`, on lines [first, last] (continuations included). */
typedef struct cdefine {
    uint32_t first, last;
    const char *params; /* the parameter list, borrowed from the file's bytes */
    size_t pn;
    const char *name;   /* the macro's name, borrowed */
    size_t nn;
} cdefine;

/* A file-local `#define M(a, b) REGISTER_PASS(a, b) ...` (a pass registrar of
 * settings.macros.roles): a call M(x, ...) registers pass x, its argument `arg` (0-based) being
 * the one the body hands the registrar first. */
typedef struct cwrapper {
    const char *name; /* borrowed */
    uint32_t n;
    unsigned arg;
    const ctok *reg;  /* the registrar's call in the body */
} cwrapper;

/* Room for more tokens than t->cap (doubling; from 1024). False on OOM. */
static bool ct_grow(ctoks *t) {
    size_t cap = t->cap ? t->cap * 2 : 1024;
    ctok *nv = sunset_realloc(t->v, cap * sizeof *nv);
    if (!nv) return false;
    t->v = nv;
    t->cap = cap;
    return true;
}

/* Room for a file of len bytes' tokens and marks, sized from the real Paddle tree's C++ (a
 * token per 6.6 bytes, a mark per 35): growing from 1024 by doubling copied 130 MB of tokens
 * per cold scan. A denser file still grows; the room unused is never touched. False on OOM. */
static bool ct_reserve(ctoks *t, size_t len) {
    size_t cap = len / 6 + 64, cap_at = len / 32 + 16;
    if (cap <= 1024) return true;
    t->v = sunset_malloc(cap * sizeof *t->v);
    t->at = sunset_malloc(cap_at * sizeof *t->at);
    if (!t->v || !t->at) return false; /* the caller frees both */
    t->cap = cap;
    t->cap_at = cap_at;
    return true;
}

/* Token k is one the second walk acts on. */
static inline bool ct_mark(ctoks *t, size_t k) {
    if (t->n_at == t->cap_at) {
        size_t cap = t->cap_at ? t->cap_at * 2 : 256;
        size_t *nv = sunset_realloc(t->at, cap * sizeof *nv);
        if (!nv) return false;
        t->at = nv;
        t->cap_at = cap;
    }
    t->at[t->n_at++] = k;
    return true;
}

/* namespace, class, struct: the identifiers the second walk acts on by name */
static inline bool ct_keyword(const char *s, size_t n) {
    switch (n) {
    case 5: return memcmp(s, "class", 5) == 0 || memcmp(s, "const", 5) == 0;
    case 6: return memcmp(s, "struct", 6) == 0;
    case 9: return memcmp(s, "namespace", 9) == 0 || memcmp(s, "constexpr", 9) == 0;
    default: return false;
    }
}

/* A directive at p, the '#' that starts a line: #include is recorded and its line skipped
 * (*bol stays set); the words of other directives are code. Returns where the walk goes on;
 * NULL on OOM. */
static const char *directive(ix_file *f, ix_arena *a, const char *p, const char *end, uint32_t line, bool *bol) {
    const char *j = p + 1;
    while (j < end && (*j == ' ' || *j == '\t')) j++;
    if (end - j < 7 || memcmp(j, "include", 7) != 0) {
        *bol = false;
        return j; /* other directives: their words are code */
    }
    j += 7;
    while (j < end && (*j == ' ' || *j == '\t')) j++;
    if (j < end && (*j == '"' || *j == '<')) {
        char close = *j == '"' ? '"' : '>';
        const char *s = j + 1, *e = s;
        while (e < end && *e != close && *e != '\n') e++;
        ix_include inc = {ix_strndup(a, s, (size_t)(e - s)), line};
        if (!inc.path || !vec_push(&f->includes, &inc)) return NULL;
    }
    f->blank = false;
    const char *nl = memchr(j, '\n', (size_t)(end - j));
    return nl ? nl : end;
}

/* A conditional directive at p ('#' at the start of a line): only the first branch of an
 * #if / #elif / #else counts for braces, so that a signature or an `if (...) {` written once
 * per branch (`#if defined(PADDLE_WITH_NCCL) ... const {  #else ... const {  #endif`) opens
 * one scope, not one per branch, and what follows is still seen at namespace level. */
static void cond_directive(const char *p, const char *end, ctoks *t) {
    const char *j = p + 1;
    while (j < end && (*j == ' ' || *j == '\t')) j++;
    const char *e = ix_id_end(j, end);
    size_t n = (size_t)(e - j);
    if ((n == 2 && !memcmp(j, "if", 2)) || (n == 5 && !memcmp(j, "ifdef", 5)) || (n == 6 && !memcmp(j, "ifndef", 6))) {
        t->cond++;
    } else if ((n == 4 && (!memcmp(j, "elif", 4) || !memcmp(j, "else", 4))) ||
               (n == 7 && (!memcmp(j, "elifdef", 7))) || (n == 8 && !memcmp(j, "elifndef", 8))) {
        if (!t->skip && t->cond) t->skip = t->cond;
    } else if (n == 5 && !memcmp(j, "endif", 5) && t->cond) {
        if (t->skip == t->cond) t->skip = 0;
        t->cond--;
    }
}

/* A function-like `#define NAME(a, b)` at p ('#', at the start of line `line`): its parameters
 * and lines into t->defines. False on OOM. */
static bool define_params(const char *p, const char *end, uint32_t line, ctoks *t) {
    const char *j = p + 1;
    while (j < end && (*j == ' ' || *j == '\t')) j++;
    if (end - j < 7 || memcmp(j, "define", 6) != 0 || (j[6] != ' ' && j[6] != '\t')) return true;
    j += 7;
    while (j < end && (*j == ' ' || *j == '\t')) j++;
    const char *e = ix_id_end(j, end);
    if (e == j || e >= end || *e != '(') return true; /* object-like: no parameters */
    const char *close = memchr(e, ')', (size_t)(end - e));
    if (!close) return true;
    cdefine d = {line, line, e + 1, (size_t)(close - e - 1), j, (size_t)(e - j)};
    for (const char *q = e; q < end && *q != '\n'; q++) /* to the first line not continued */
        if (*q == '\\' && q + 1 < end && (q[1] == '\n' || (q[1] == '\r' && q + 2 < end && q[2] == '\n'))) {
            d.last++;
            q += q[1] == '\r' ? 2 : 1;
        }
    return vec_push(&t->defines, &d);
}

/* Is token x a parameter of a #define it stands in? Its define and the parameter's 0-based
 * position into *def and *pos when asked. */
static bool macro_param_at(const ctoks *t, const ctok *x, const cdefine **def, unsigned *pos) {
    for (size_t i = 0; i < t->defines.n; i++) {
        const cdefine *d = &VEC_AT(&t->defines, cdefine, i);
        if (x->line < d->first || x->line > d->last) continue;
        unsigned k = 0;
        for (const char *q = d->params, *e = d->params + d->pn; q < e;) {
            while (q < e && !id_start((unsigned char)*q)) q++;
            const char *s = q;
            q = ix_id_end(q, e);
            if ((size_t)(q - s) == x->n && !memcmp(s, x->s, x->n)) {
                if (def) *def = d;
                if (pos) *pos = k;
                return true;
            }
            if (q == s) q++;
            else k++;
        }
    }
    return false;
}

static bool macro_param(const ctoks *t, const ctok *x) { return macro_param_at(t, x, NULL, NULL); }

/* A raw string R"delim( ... )delim" at p: where it ends (its lines added to *line), or NULL
 * when it is not one. */
static const char *raw_string(const char *p, const char *end, uint32_t *line) {
    const char *s = p + 2, *q = s;
    while (q < end && *q != '(' && q - s < 16) q++;
    size_t dn = (size_t)(q - s);
    if (q >= end || dn >= 16) return NULL;
    char delim[24];
    delim[0] = ')';
    memcpy(delim + 1, s, dn);
    delim[dn + 1] = '"';
    const char *e = memmem(q, (size_t)(end - q), delim, dn + 2);
    const char *stop = e ? e + dn + 2 : end;
    *line += (uint32_t)ix_count_nl(p, stop);
    return stop;
}

/* A string literal's contents s (n bytes): a name when they look like one, kept with its line
 * for the scopes (cpp_scopes). False on OOM. */
static bool string_name(hset *names, ctoks *out, const char *s, size_t n, uint32_t line) {
    cstr cs = {ix_string_name(s, n), line};
    if (!cs.h) return true;
    ix_hset_add_nz(names, cs.h);
    return vec_push(&out->strs, &cs);
}

/* The blanks from p (spaces, tabs, CR, FF, VT) skipped. */
static inline const char *skip_blanks(const char *p, const char *end) {
    while (p < end && cpp_byte[(unsigned char)*p] == CB_BLANK) p = ix_spaces_end(p + 1, end);
    return p;
}

/* A comment at p ('/'): where the walk goes on past it (its lines added to *line), end for one
 * unterminated; NULL when p starts none (a '/' operator). */
static inline const char *comment_end(const char *p, const char *end, uint32_t *line) {
    if (p + 1 < end && p[1] == '/') {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        return nl ? nl : end;
    }
    if (p + 1 < end && p[1] == '*') {
        const char *e = memmem(p + 2, (size_t)(end - p - 2), "*/", 2);
        if (!e) return end; /* unterminated: the rest is comment */
        *line += (uint32_t)ix_count_nl(p + 2, e);
        return e + 2;
    }
    return NULL;
}

/* Bytes to tokens: whitespace, line continuations and comments skipped (comments by
 * memchr/memmem: a licence header on every file is most of the bytes skipped), #include
 * recorded, a string's contents counted as a name when they look like one, every
 * identifier's hash into the names. One dispatch per token: the byte's class picks its whole
 * handling (a newline takes the next line's indentation with it; two dispatches per token, the
 * second a chain of compares, were the walk's costliest branches), then the token is pushed
 * and the spaces after it skipped. False on OOM. */
static bool cpp_tokens(ix_file *f, ix_arena *a, const char *d, size_t len, hset *names, ctoks *out) {
    const char *p = d, *end = d + len, *q;
    uint32_t line = 1;
    bool bol = true, blank = true;
    bool prev_id = false, prev_mark = false; /* the last token pushed: an identifier, marked */
    ctok *tv = out->v; /* in locals until the end (through out, reloaded after each names store) */
    size_t tn = out->n, tcap = out->cap;
    while (p < end) {
        unsigned char ch = (unsigned char)*p;
        const char *e = p + 1;
        bool id = false, mark = false;
        switch (cpp_byte[ch]) {
        case CB_NL:
            line++;
            bol = true;
            p = skip_blanks(e, end);
            continue;
        case CB_BLANK:
            p = skip_blanks(p, end);
            continue;
        case CB_SLASH:
            if ((q = comment_end(p, end, &line))) {
                p = q;
                continue;
            }
            goto punct;
        case CB_HASH:
            if (!bol) goto punct;
            if (!define_params(p, end, line, out)) return false;
            cond_directive(p, end, out);
            if (!(p = directive(f, a, p, end, line, &bol))) return false;
            continue;
        case CB_BSLASH:
            if (e < end && (*e == '\n' || *e == '\r')) { /* a continuation: the newline counts */
                p = e;
                continue;
            }
            goto punct;
        case CB_QUOTE:
            bol = blank = false;
            while (e < end && *e != (char)ch && *e != '\n') {
                if (*e == '\\' && e + 1 < end) e++;
                e++;
            }
            if (ch == '"' && !string_name(names, out, p + 1, (size_t)(e - p - 1), line)) return false;
            p = e < end ? e + 1 : e;
            continue;
        case CB_ID:
            bol = blank = false;
            if (ch == 'R' && e < end && *e == '"' && (q = raw_string(p, end, &line))) {
                p = q;
                continue;
            }
            e = ix_id_end(e, end);
            if (e - p >= 3) ix_hset_add_nz(names, ix_name_hash_in(p, (size_t)(e - p), end));
            id = true;
            mark = ct_keyword(p, (size_t)(e - p));
            break;
        case CB_DIGIT:
            bol = blank = false;
            while (e < end && (id_char((unsigned char)*e) || *e == '.' || *e == '\'')) e++;
            break;
        case CB_COLON:
            bol = blank = false;
            if (e < end && *e == ':') e++;
            break;
        case CB_BRACE: /* the punctuators the second walk acts on have classes of their own */
            bol = blank = false;
            mark = !out->skip;
            break;
        case CB_SEMI:
            bol = blank = false;
            mark = true;
            break;
        case CB_PAREN:
            bol = blank = false;
            if (prev_id && !prev_mark && !ct_mark(out, tn - 1)) return false; /* the identifier before: a call */
            break;
        default:
        punct:
            bol = blank = false;
            break;
        }
        if (mark && !ct_mark(out, tn)) return false;
        if (tn == tcap) {
            if (!ct_grow(out)) return false;
            tv = out->v;
            tcap = out->cap;
        }
        tv[tn++] = (ctok){p, (uint32_t)(e - p), line};
        prev_id = id;
        prev_mark = mark;
        while (e < end && *e == ' ') e++; /* the space after a token, without a dispatch of its own */
        p = e;
    }
    if (!blank) f->blank = false; /* a local until here: a store per token was 3% of the lexer */
    out->n = tn;
    return true;
}

/* ---- second walk: tokens to classes, flags, passes ---- */

static void push_base(ix_arena *a, vec *bases, sb *cur) {
    if (cur->len) {
        char *s = ix_sb_take(a, cur);
        if (s) vec_push(bases, &s);
    }
    cur->len = 0;
}

/* The base list after ':' at tv[j]: until the body's '{' (returned position) or ';'. */
static size_t base_list(ix_arena *a, const ctok *tv, size_t n, size_t j, vec *bases) {
    sb cur = {0};
    int angle = 0;
    for (j++; j < n; j++) {
        const ctok *x = &tv[j];
        char c = x->s[0];
        if (c == '{' && angle == 0) break;
        if (c == ';') break;
        if (c == '<') angle++;
        else if (c == '>') angle--;
        else if (angle == 0 && c == ',') {
            push_base(a, bases, &cur);
        } else if (angle == 0 && ct_id(x)) {
            if (CT_IS(x, "public") || CT_IS(x, "private") || CT_IS(x, "protected") || CT_IS(x, "virtual"))
                continue;
            if (cur.len && cur.s[cur.len - 1] != ':') cur.len = 0;
            sb_putn(&cur, x->s, x->n);
        } else if (angle == 0 && c == ':' && x->n == 2) {
            sb_puts(&cur, "::");
        }
    }
    push_base(a, bases, &cur);
    sb_free(&cur);
    return j;
}

/* `class`/`struct` at tv[k]: a definition is recorded, and *next is its '{'. Returns 1 when
 * one was, 0 when not (a declaration, a template parameter ...), -1 on OOM. */
static int class_def(ix_file *f, ix_arena *a, const ctok *tv, size_t n, size_t k, const vec *braces, size_t *next) {
    /* template parameter (class T>), elaborated type (struct x *p), enum class */
    if (k > 0 && CT_IS(&tv[k - 1], "enum")) return 0;
    size_t j = k + 1;
    const ctok *name = NULL;
    while (j < n && ct_id(&tv[j])) {
        if (!CT_IS(&tv[j], "final")) name = &tv[j];
        j++;
    }
    /* skip attribute-like macros with arguments: PADDLE_API(x) is rare; alignas(...) */
    if (!name || j >= n) return 0;
    const ctok *nx = &tv[j];
    if ((nx->s[0] != ':' && nx->s[0] != '{') || nx->n != 1) return 0;
    bool top = true;
    for (size_t b = 0; b < braces->n; b++)
        if (VEC_AT(braces, cbrace, b).kind != 1) top = false;
    ix_class ic = {ix_strndup(a, name->s, name->n), tv[k].line, tv[k].line, NULL, 0, top, NULL, 0, false, 0};
    vec bases = VEC_INIT(char *);
    if (nx->s[0] == ':') {
        j = base_list(a, tv, n, j, &bases);
        if (j >= n || tv[j].s[0] != '{') {
            vec_free(&bases);
            return 0;
        }
    }
    ic.bases = bases.v;
    ic.n_bases = (uint32_t)bases.n;
    if (!ic.name || !vec_push(&f->classes, &ic)) {
        vec_free(&bases);
        return -1;
    }
    *next = j;
    return 1;
}

/* An upper-case name with an underscore, as macros are spelled: USE_OP, DECLARE_FILE_SYMBOLS. */
static bool macro_name(const ctok *t) {
    bool us = false;
    for (uint32_t i = 0; i < t->n; i++) {
        char ch = t->s[i];
        if (!((ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '_')) return false;
        us |= ch == '_';
    }
    return us && t->n >= 4;
}

/* The macro call's extent: to the matching ')' (its last line). */
static uint32_t macro_end(const ctok *tv, size_t n, size_t k) {
    int depth = 0;
    size_t j = k + 1;
    for (; j < n; j++) {
        if (tv[j].s[0] == '(') depth++;
        if (tv[j].s[0] == ')' && --depth == 0) break;
    }
    return j < n ? tv[j].line : tv[k].line;
}

/* A macro call at namespace level, NAME(arg ...): "NAME arg" into f->macros, for the link-time
 * pairs the removal analysis reads from settings (DECLARE_FILE_SYMBOLS / REGISTER_FILE_SYMBOLS,
 * PD_DECLARE_KERNEL / PD_REGISTER_KERNEL ...). Returns false on OOM. */
static bool macro_call(ix_file *f, ix_arena *a, const ctok *tv, size_t n, size_t k, const vec *braces) {
    const ctok *t = &tv[k], *arg = &tv[k + 2];
    if (!macro_name(t)) return true;
    for (size_t b = 0; b < braces->n; b++)
        if (VEC_AT(braces, cbrace, b).kind != 1) return true;
    char buf[256];
    if ((size_t)t->n + 1 + arg->n >= sizeof buf) return true;
    memcpy(buf, t->s, t->n);
    buf[t->n] = ' ';
    memcpy(buf + t->n + 1, arg->s, arg->n);
    return ix_word_push(a, &f->macros, buf, t->n + 1 + arg->n, t->line, macro_end(tv, n, k));
}

/* The bytes [a, b) of a line, trimmed of blanks (and a CR). */
static void trim_line(const char **a, const char **b) {
    while (*a < *b && (**a == ' ' || **a == '\t')) (*a)++;
    while (*b > *a && ((*b)[-1] == ' ' || (*b)[-1] == '\t' || (*b)[-1] == '\r')) (*b)--;
}

/* The first line of the comment block directly above tv[k] (a flag's doc: deleting the flag
 * takes it): one block comment or a run of // lines, each on lines of their own, with no
 * blank line between; else tv[k]'s line. Reads only the bytes after the previous token (for
 * the first, after line 1 of src). */
static uint32_t doc_start(const char *src, const ctok *tv, size_t k) {
    const char *lo = k ? tv[k - 1].s + tv[k - 1].n : src, *p = tv[k].s;
    /* the file's first token: from the end of line 1 (a comment there is the file's header) */
    if (!k)
        while (lo < p && *lo != '\n') lo++;
    while (p > lo && p[-1] != '\n')
        if (*--p != ' ' && *p != '\t') return tv[k].line;
    uint32_t line = tv[k].line;
    while (p > lo) { /* p starts a line; the one above is [q, p - 1) */
        const char *q = p - 1;
        while (q > lo && q[-1] != '\n') q--;
        if (q == lo) break; /* the previous token's line */
        const char *a = q, *b = p - 1;
        trim_line(&a, &b);
        if (b - a >= 2 && a[0] == '/' && a[1] == '/') {
            line--, p = q;
            continue;
        }
        if (b - a >= 2 && b[-2] == '*' && b[-1] == '/' && line == tv[k].line) {
            const char *o = b - 2;
            while (o > lo && !(o[-1] == '/' && o[0] == '*')) o--;
            if (o == lo) break;
            const char *ls = --o;
            while (ls > lo && ls[-1] != '\n')
                if (*--ls != ' ' && *ls != '\t') return tv[k].line;
            if (ls == lo) break;
            uint32_t n = 0;
            for (const char *c = ls; c < p; c++) n += *c == '\n';
            return tv[k].line - n;
        }
        break;
    }
    return line;
}

/* A flag definition, a pass's or an operator's registration or a link to one at tv[k] (the
 * roles of settings.macros.roles), an identifier followed by '(' and an identifier. Returns
 * false on OOM. */
static bool macro_word(ix_file *f, ix_arena *a, const ctoks *toks, size_t k) {
    const ctok *tv = toks->v;
    size_t n = toks->n;
    const ctok *t = &tv[k];
    const sunset_macro_roles *m = toks->roles;
    bool named = role_len(toks, t->n);
    bool flag = t->n >= toks->stem_n && is_flag_define(m, t->s, t->n), pass = named && in_names(&m->pass, t->s, t->n);
    bool op = named && in_names(&m->op, t->s, t->n), use = named && in_names(&m->use, t->s, t->n);
    if (!(flag || pass || op || use)) return true;
    uint32_t end = macro_end(tv, n, k);
    vec *into = flag ? &f->flag_defs : op ? &f->op_regs : use ? &f->reg_uses : &f->pass_regs;
    /* a flag's extent starts at its doc comment: deleting the definition takes it */
    return ix_word_push(a, into, tv[k + 2].s, tv[k + 2].n, flag ? doc_start(toks->src, tv, k) : t->line, end);
}

/* Is line within a #define? */
static bool in_define(const ctoks *t, uint32_t line) {
    for (size_t i = 0; i < t->defines.n; i++) {
        const cdefine *d = &VEC_AT(&t->defines, cdefine, i);
        if (line >= d->first && line <= d->last) return true;
    }
    return false;
}

/* The token of the call at tv[k]'s argument `arg` (0-based), when that argument is one
 * identifier; else 0. */
static size_t call_arg(const ctok *tv, size_t n, size_t k, unsigned arg) {
    int depth = 0;
    unsigned at = 0;
    for (size_t j = k + 1; j < n; j++) {
        char ch = tv[j].s[0];
        if (ch == '(' || ch == '[' || ch == '{') depth++;
        else if (ch == ')' || ch == ']' || ch == '}') {
            if (--depth == 0) return 0;
        } else if (ch == ',' && depth == 1 && ++at > arg) return 0;
        else if (depth == 1 && at == arg && tv[j - 1].s[0] == (at ? ',' : '(') && ct_id(&tv[j]) && j + 1 < n &&
                 (tv[j + 1].s[0] == ',' || tv[j + 1].s[0] == ')'))
            return j;
    }
    return 0;
}

/* A file's own wrapper of REGISTER_PASS (`#define REGISTER_MULTI_DEVICES_PASS(pass_name, cls)
 * ... REGISTER_PASS(pass_name, cls)`): the REGISTER_PASS in its body records the wrapper, and a
 * call of the wrapper outside any #define registers the pass it names, as REGISTER_PASS would.
 * Returns false on OOM. */
static bool pass_wrapper(ix_file *f, ix_arena *a, ctoks *toks, size_t k) {
    const ctok *tv = toks->v, *t = &tv[k];
    const cdefine *d;
    unsigned pos;
    if (role_len(toks, t->n) && in_names(&toks->roles->pass, t->s, t->n)) {
        if (!ct_id(&tv[k + 2]) || !macro_param_at(toks, &tv[k + 2], &d, &pos) || !d->nn) return true;
        for (size_t i = 0; i < toks->wrappers.n; i++) {
            const cwrapper *w = &VEC_AT(&toks->wrappers, cwrapper, i);
            if (w->n == d->nn && !memcmp(w->name, d->name, d->nn)) return true;
        }
        cwrapper w = {d->name, (uint32_t)d->nn, pos, t};
        return vec_push(&toks->wrappers, &w) != NULL;
    }
    for (size_t i = 0; i < toks->wrappers.n; i++) {
        const cwrapper *w = &VEC_AT(&toks->wrappers, cwrapper, i);
        if (!ct_is(t, w->name, w->n) || in_define(toks, t->line)) continue;
        size_t j = call_arg(tv, toks->n, k, w->arg);
        if (!j || tv[j].n > 200 || w->reg->n > 200) return true;
        uint32_t end = macro_end(tv, toks->n, k);
        /* as expanded: a registration by name, and the "REGISTER_PASS x" call the link pairs
         * of settings.cross_file.links read (a USE_PASS(x) elsewhere links this file) */
        char buf[416];
        size_t rn = w->reg->n;
        memcpy(buf, w->reg->s, rn);
        buf[rn] = ' ';
        memcpy(buf + rn + 1, tv[j].s, tv[j].n);
        return ix_word_push(a, &f->pass_regs, tv[j].s, tv[j].n, t->line, end) &&
               ix_word_push(a, &f->macros, buf, rn + 1 + tv[j].n, t->line, end);
    }
    return true;
}

/* Every brace open around here is a namespace's. */
static bool at_namespace_level(const vec *braces) {
    for (size_t b = 0; b < braces->n; b++)
        if (VEC_AT(braces, cbrace, b).kind != 1) return false;
    return true;
}

/* At namespace level, none of them anonymous. */
static bool at_named_namespace_level(const vec *braces) {
    for (size_t b = 0; b < braces->n; b++)
        if (VEC_AT(braces, cbrace, b).kind != 1 || VEC_AT(braces, cbrace, b).anon) return false;
    return true;
}

static bool decl_push(ix_file *f, ix_arena *a, const ctok *t) {
    ix_func fn = {ix_strndup(a, t->s, t->n), t->line, t->line};
    return fn.name && vec_push(&f->funcs, &fn);
}

/* The identifier at tv[k], before '(', names a declaration: it follows a type (an identifier
 * that is neither a macro nor a keyword of a statement or directive, or '&', '*', '>'). */
static bool named_after_type(const ctok *tv, size_t k) {
    const ctok *t = &tv[k];
    if (k == 0 || macro_name(t) || CT_IS(t, "operator") || CT_IS(t, "defined")) return false;
    const ctok *pv = &tv[k - 1];
    char pc = pv->s[0];
    /* a directive's words are tokens too: `#if defined(X)`, `#endif` before a macro call */
    static const char *const not_types[] = {"return", "new", "delete", "sizeof", "if", "elif", "else",
                                            "endif", "ifdef", "ifndef", "define", "undef", "pragma", NULL};
    bool after_type = ct_id(pv) && !macro_name(pv);
    for (size_t i = 0; after_type && not_types[i]; i++) after_type = !ct_is(pv, not_types[i], (uint32_t)strlen(not_types[i]));
    return after_type || (pv->n == 1 && (pc == '&' || pc == '*' || pc == '>'));
}

/* A header's namespace-level declarations other than classes, into f->funcs, so that an
 * includer using only them (`ir::MultiDevSSAGraphBuilder()`, `ir::kLossVarName`) depends on
 * the header: a constant after const/constexpr at tv[k] (`constexpr char kLossVarName[] =`),
 * or a function, the identifier at tv[k] before '(' after a type (`std::set<std::string>
 * &MultiDevSSAGraphBuilder();`). Returns false on OOM. */
static bool header_decl(ix_file *f, ix_arena *a, const ctok *tv, size_t n, size_t k) {
    const ctok *t = &tv[k];
    if (CT_IS(t, "const") || CT_IS(t, "constexpr")) {
        for (size_t j = k + 1; j + 1 < n; j++) {
            char ch = tv[j].s[0];
            if (ch == ';' || ch == '(' || ch == ')' || ch == '{' || ch == '}' || ch == ',') return true;
            char nx = tv[j + 1].s[0];
            if (ct_id(&tv[j]) && tv[j + 1].n == 1 && (nx == '[' || nx == '=' || nx == ';' || nx == '{'))
                return decl_push(f, a, &tv[j]);
        }
        return true;
    }
    return !named_after_type(tv, k) || decl_push(f, a, t);
}

/* A source's namespace-level function definition at tv[k] (an identifier before '(' after a
 * type, its ')' followed by '{' past at most four specifiers: const, noexcept, override ...),
 * not static nor in an anonymous namespace: into f->funcs, for the rule that a source whose
 * functions only legacy code calls is legacy (paddle/fluid/framework/details/multi_devices_helper.cc).
 * Out-of-line members (`Foo::Run(`) are not functions of the file. Returns false on OOM. */
static bool source_def(ix_file *f, ix_arena *a, const ctok *tv, size_t n, size_t k) {
    if (!named_after_type(tv, k)) return true;
    for (size_t j = k, back = 0; j-- > 0 && back < 16; back++) {
        char ch = tv[j].s[0];
        if (tv[j].n == 1 && (ch == ';' || ch == '{' || ch == '}')) break;
        if (CT_IS(&tv[j], "static")) return true;
    }
    int depth = 0;
    size_t j = k + 1;
    for (; j < n; j++) {
        if (tv[j].s[0] == '(') depth++;
        if (tv[j].s[0] == ')' && --depth == 0) break;
    }
    for (size_t spec = 0; ++j < n && spec < 4 && ct_id(&tv[j]); spec++) {}
    if (j >= n || tv[j].n != 1 || tv[j].s[0] != '{') return true;
    return decl_push(f, a, &tv[k]);
}

static bool cpp_structure(ix_file *f, ix_arena *a, ctoks *toks) {
    size_t pl = strlen(f->path);
    bool header = (pl > 2 && !strcmp(f->path + pl - 2, ".h")) || (pl > 4 && !strcmp(f->path + pl - 4, ".hpp")) ||
                  (pl > 3 && !strcmp(f->path + pl - 3, ".hh")) || (pl > 4 && !strcmp(f->path + pl - 4, ".cuh"));
    const ctok *tv = toks->v;
    size_t n = toks->n;
    vec braces = VEC_INIT(cbrace);
    bool oom = false;
    int pending = 0; /* kind of the next '{' */
    size_t pending_cls = 0;
    bool pending_anon = false;
    for (size_t i = 0; i < toks->n_at && !oom; i++) {
        size_t k = toks->at[i];
        const ctok *t = &tv[k];
        char c = t->s[0];
        if (c == '{') {
            cbrace b = {pending, pending_cls, pending == 1 && pending_anon};
            if (!vec_push(&braces, &b)) oom = true;
            pending = 0;
            continue;
        }
        if (c == '}') {
            if (braces.n) {
                cbrace *b = &VEC_AT(&braces, cbrace, braces.n - 1);
                if (b->kind == 2) VEC_AT(&f->classes, ix_class, b->cls).end = t->line;
                braces.n--;
            }
            continue;
        }
        if (c == ';') {
            pending = 0;
            continue;
        }
        if (!ct_id(t)) continue;
        if (CT_IS(t, "const") || CT_IS(t, "constexpr")) {
            if (header && at_namespace_level(&braces) && !in_define(toks, t->line) && !header_decl(f, a, tv, n, k))
                oom = true;
            continue;
        }
        if (header && k + 1 < n && tv[k + 1].s[0] == '(' && at_namespace_level(&braces) &&
            !in_define(toks, t->line) && !header_decl(f, a, tv, n, k))
            oom = true;
        if (!header && k + 1 < n && tv[k + 1].s[0] == '(' && at_named_namespace_level(&braces) &&
            !in_define(toks, t->line) && !source_def(f, a, tv, n, k))
            oom = true;
        if (CT_IS(t, "namespace")) {
            pending = 1;
            pending_anon = k + 1 < n && tv[k + 1].s[0] == '{';
            continue;
        }
        if ((CT_IS(t, "class") || CT_IS(t, "struct")) && k + 1 < n) {
            size_t next;
            int r = class_def(f, a, tv, n, k, &braces, &next);
            if (r < 0) oom = true;
            if (r <= 0) continue;
            pending = 2;
            pending_cls = f->classes.n - 1;
            while (i + 1 < toks->n_at && toks->at[i + 1] < next) i++; /* the '{' is handled next */
            continue;
        }
        bool registrar = role_len(toks, t->n) && in_names(&toks->roles->pass, t->s, t->n);
        if (k + 2 < n && tv[k + 1].s[0] == '(' && (toks->wrappers.n || registrar) && !pass_wrapper(f, a, toks, k))
            oom = true;
        /* the call's shape first: most identifiers are not followed by '(' and a name, and
         * the DEFINE_ search reads the whole token */
        if (k + 2 < n && tv[k + 1].s[0] == '(' && ct_id(&tv[k + 2]) && !macro_param(toks, &tv[k + 2]) &&
            (!macro_word(f, a, toks, k) || !macro_call(f, a, tv, n, k, &braces)))
            oom = true;
    }
    vec_free(&braces);
    return !oom;
}

/* A class class_uses still looks for, its name's length taken once (not a strlen per class
 * per identifier of that length). */
typedef struct cwant {
    ix_class *c;
    uint32_t n;
} cwant;

/* Is tv[k], spelling class c's name, a use of it: outside its body, not after
 * class/struct/friend/enum (a declaration), nor followed by '::' at namespace level (`other`:
 * the open braces that are not a namespace's), nor a member's own name (Foo::Foo, Foo::~Foo)? */
static bool class_use(const ctoks *toks, size_t k, const ix_class *c, size_t other) {
    const ctok *tv = toks->v, *t = &tv[k];
    if (t->line >= c->line && t->line <= c->end) return false;
    if (k > 0 && (CT_IS(&tv[k - 1], "class") || CT_IS(&tv[k - 1], "struct") || CT_IS(&tv[k - 1], "friend") ||
                  CT_IS(&tv[k - 1], "enum")))
        return false;
    if (!other && k + 1 < toks->n && tv[k + 1].n == 2 && tv[k + 1].s[0] == ':') return false;
    if (k > 0 && tv[k - 1].n == 1 && tv[k - 1].s[0] == '~') return false;
    return !(k > 1 && tv[k - 1].n == 2 && tv[k - 1].s[0] == ':' && ct_is(&tv[k - 2], c->name, t->n));
}

/* A bit per length (mod 64) of the names looked for: most identifiers skip the compare. */
static uint64_t want_lens(const cwant *w, size_t n) {
    uint64_t lens = 0;
    for (size_t i = 0; i < n; i++) lens |= (uint64_t)1 << (w[i].n & 63);
    return lens;
}

/* Each top-level class's first use in its own file outside its body (ix_class.used_at), as
 * class_use tells. One walk over the tokens, a brace stack telling namespace braces from
 * others; only the classes still looked for are compared, and the walk ends when none is. */
static bool class_uses(ix_file *f, const ctoks *toks) {
    if (!f->classes.n) return true;
    cwant *want = sunset_malloc(f->classes.n * sizeof *want);
    if (!want) return false;
    size_t left = 0;
    for (size_t i = 0; i < f->classes.n; i++) {
        ix_class *c = &VEC_AT(&f->classes, ix_class, i);
        if (c->top && !c->used_at) want[left++] = (cwant){c, (uint32_t)strlen(c->name)};
    }
    uint64_t lens = want_lens(want, left);
    vec ns = VEC_INIT(bool);
    size_t other = 0; /* open braces that are not a namespace's */
    const ctok *tv = toks->v;
    bool ok = true;
    for (size_t k = 0; k < toks->n && left && ok; k++) {
        const ctok *t = &tv[k];
        /* a token's length first, its byte only for one of one byte or a class name's length:
         * most tokens are then passed without a load from the file's bytes */
        if (t->n != 1 && !(lens >> (t->n & 63) & 1)) continue;
        if (t->s[0] == '{') {
            bool is_ns = (k >= 1 && CT_IS(&tv[k - 1], "namespace")) || (k >= 2 && CT_IS(&tv[k - 2], "namespace")) ||
                         (k >= 1 && CT_IS(&tv[k - 1], "extern"));
            ok = vec_push(&ns, &is_ns) != NULL;
            other += !is_ns;
            continue;
        }
        if (t->s[0] == '}') {
            if (ns.n) other -= !VEC_AT(&ns, bool, --ns.n);
            continue;
        }
        if (!ct_id(t) || !(lens >> (t->n & 63) & 1)) continue;
        for (size_t i = 0; i < left;) {
            const cwant *w = &want[i];
            if (w->n != t->n || w->c->name[0] != t->s[0] || memcmp(w->c->name, t->s, t->n) != 0 ||
                !class_use(toks, k, w->c, other)) {
                i++;
                continue;
            }
            w->c->used_at = t->line;
            want[i] = want[--left]; /* found: the others' order does not matter */
            lens = want_lens(want, left);
        }
    }
    vec_free(&ns);
    sunset_free(want);
    return ok;
}

/* Is token t the argument of a link-time declaration (ix_file.reg_uses: USE_PASS(x) ...)? */
static bool reg_use_arg(const ix_file *f, const ctok *t) {
    for (size_t i = 0; i < f->reg_uses.n; i++) {
        const ix_word *w = &VEC_AT(&f->reg_uses, ix_word, i);
        if (w->line <= t->line && t->line <= w->end && strlen(w->text) == t->n && !memcmp(w->text, t->s, t->n))
            return true;
    }
    return false;
}

/* A source with top-level classes: f->outside, the names its code uses outside their bodies
 * (the arguments of link-time declarations aside: they go with what they link), and each top
 * class's names, the name-like strings its body holds, so that a pass a source names only in a
 * legacy class's body (AppendPass("add_reader_dependency_pass") in ParallelExecutorPassBuilder)
 * is told from one its other code applies. False on OOM. */
static bool cpp_scopes(ix_file *f, const ctoks *toks, const char *end) {
    bool any = false;
    for (size_t i = 0; i < f->classes.n && !any; i++) {
        const ix_class *c = &VEC_AT(&f->classes, ix_class, i);
        any = c->top && c->end > c->line;
    }
    size_t pl = strlen(f->path);
    if (!any || (pl > 2 && f->path[pl - 2] == '.' && f->path[pl - 1] == 'h')) return true;
    /* per line, 1 + the top class whose body holds it (0 none) */
    uint32_t last = toks->n ? toks->v[toks->n - 1].line : 1;
    for (size_t i = 0; i < toks->strs.n; i++)
        if (VEC_AT(&toks->strs, cstr, i).line > last) last = VEC_AT(&toks->strs, cstr, i).line;
    uint32_t *at = sunset_calloc((size_t)last + 1, sizeof *at);
    hset out = {0}, *per = sunset_calloc(f->classes.n, sizeof *per);
    bool ok = at && per;
    for (size_t i = 0; ok && i < f->classes.n; i++) {
        const ix_class *c = &VEC_AT(&f->classes, ix_class, i);
        if (!c->top || c->end <= c->line) continue;
        for (uint32_t l = c->line; l <= c->end && l <= last; l++) at[l] = (uint32_t)i + 1;
    }
    for (size_t k = 0; ok && k < toks->n; k++) {
        const ctok *t = &toks->v[k];
        if (t->n < 3 || at[t->line] || !ct_id(t) || reg_use_arg(f, t)) continue;
        ix_hset_add_nz(&out, ix_name_hash_in(t->s, t->n, end));
    }
    for (size_t i = 0; ok && i < toks->strs.n; i++) {
        const cstr *cs = &VEC_AT(&toks->strs, cstr, i);
        ix_hset_add(at[cs->line] ? &per[at[cs->line] - 1] : &out, cs->h ? cs->h : 1);
    }
    ok = ok && !out.oom && ix_hset_sorted(&out, &f->outside, &f->n_outside);
    for (size_t i = 0; per && i < f->classes.n; i++) {
        ix_class *c = &VEC_AT(&f->classes, ix_class, i);
        if (ok && per[i].n && !(!per[i].oom && ix_hset_sorted(&per[i], &c->names, &c->n_names))) ok = false;
        sunset_free(per[i].slots);
    }
    sunset_free(per);
    sunset_free(at);
    sunset_free(out.slots);
    return ok;
}

/* The operators the file registers that it also names as a string literal, "x" (a grad maker's
 * SetType("x"), a type test): f->op_runs. Only files registering operators are searched. */
static bool op_runs(ix_file *f, ix_arena *a, const char *d, size_t len) {
    for (size_t i = 0; i < f->op_regs.n; i++) {
        const char *name = VEC_AT(&f->op_regs, ix_word, i).text;
        bool dup = false;
        for (size_t j = 0; j < f->op_runs.n && !dup; j++) dup = !strcmp(VEC_AT(&f->op_runs, ix_word, j).text, name);
        char q[260];
        size_t n = strlen(name);
        if (dup || n + 2 >= sizeof q) continue;
        q[0] = '"';
        memcpy(q + 1, name, n);
        q[n + 1] = '"';
        const char *hit = memmem(d, len, q, n + 2);
        if (!hit) continue;
        uint32_t line = (uint32_t)ix_count_nl(d, hit) + 1;
        if (!ix_word_push(a, &f->op_runs, name, n, line, line)) return false;
    }
    return true;
}

int ix_lex_cpp(ix_file *f, ix_arena *a, const char *d, size_t len, hset *names, const sunset_macro_roles *roles) {
    static const sunset_macro_roles none = {0};
    ctoks toks = {0};
    toks.src = d;
    toks.roles = roles ? roles : &none;
    toks.defines = VEC_INIT(cdefine);
    toks.wrappers = VEC_INIT(cwrapper);
    toks.strs = VEC_INIT(cstr);
    const vec *role_names[] = {&toks.roles->op, &toks.roles->pass, &toks.roles->use};
    for (size_t r = 0; r < 3; r++)
        for (size_t i = 0; i < role_names[r]->n; i++)
            toks.role_lens |= (uint64_t)1 << (strlen(VEC_AT(role_names[r], const char *, i)) & 63);
    toks.stem_n = toks.roles->flag_stem ? strlen(toks.roles->flag_stem) : SIZE_MAX;
    if (!ix_hset_reserve(names, len / 48)) return -1; /* a slot per 48 bytes: the real Paddle tree's C/C++ has a distinct name per 92 */
    bool ok = ct_reserve(&toks, len) && cpp_tokens(f, a, d, len, names, &toks) && cpp_structure(f, a, &toks) &&
              class_uses(f, &toks) && op_runs(f, a, d, len) && cpp_scopes(f, &toks, d + len);
    sunset_free(toks.v);
    sunset_free(toks.at);
    vec_free(&toks.defines);
    vec_free(&toks.wrappers);
    vec_free(&toks.strs);
    return ok ? 0 : -1;
}
