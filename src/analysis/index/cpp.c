/*
 * cpp.c — the index's C/C++ lexer. A first walk over the bytes makes tokens (identifiers,
 * numbers, punctuation; strings and comments skipped, a string's contents counted as a name
 * when it looks like one) and records #include lines; a second walk over the tokens finds
 * classes with their bases and brace-matched extent, gflag definitions and pass registrations.
 */
#include "analysis/index/ix_int.h"

#include <stdlib.h>

typedef struct cbrace {
    int kind;       /* 0 other, 1 namespace, 2 class */
    size_t cls;     /* class index when kind 2 */
} cbrace;

static bool is_flag_define(const tok *t) {
    static const char *const types[] = {"bool", "int32", "int64", "uint32", "uint64", "double", "string"};
    const char *s = t->s;
    size_t n = t->n;
    const char *d = NULL;
    for (size_t i = 0; i + 7 <= n; i++)
        if (memcmp(s + i, "DEFINE_", 7) == 0) d = s + i;
    if (!d) return false;
    if (d != s && !(d - s >= 1 && (memcmp(s, "PHI_", 4) == 0 || memcmp(s, "PADDLE_", 7) == 0 ||
                                   memcmp(s, "COMMON_", 7) == 0)))
        return false;
    const char *us = memrchr(s, '_', n);
    if (!us) return false;
    size_t tn = n - (size_t)(us + 1 - s);
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
        if (strlen(types[i]) == tn && memcmp(us + 1, types[i], tn) == 0) return true;
    return false;
}

/* ---- first walk: bytes to tokens ---- */

typedef struct clex {
    ix_file *f;
    const char *d;
    size_t len, i;
    uint32_t line;
    bool bol, oom;
    hset *names;
    vec toks; /* tok */
} clex;

/* Whitespace, line continuations and comments at x->i: skip them; false when there are none. */
static bool skip_blank(clex *x) {
    const char *d = x->d;
    size_t len = x->len;
    unsigned char ch = (unsigned char)d[x->i];
    if (ch == '\n') {
        x->line++;
        x->bol = true;
        x->i++;
        return true;
    }
    if (ch == ' ' || ch == '\t' || ch == '\r' || ch == '\f' || ch == '\v') {
        do x->i++;
        while (x->i < len && (d[x->i] == ' ' || d[x->i] == '\t'));
        return true;
    }
    if (ch == '\\' && x->i + 1 < len && (d[x->i + 1] == '\n' || d[x->i + 1] == '\r')) {
        x->i++;
        return true;
    }
    /* comments by memchr/memmem: a licence header on every file is most of the bytes skipped */
    if (ch == '/' && x->i + 1 < len && d[x->i + 1] == '/') {
        const char *nl = memchr(d + x->i, '\n', len - x->i);
        x->i = nl ? (size_t)(nl - d) : len;
        return true;
    }
    if (ch == '/' && x->i + 1 < len && d[x->i + 1] == '*') {
        const char *s = d + x->i + 2, *e = memmem(s, len - (x->i + 2), "*/", 2);
        const char *stop = e ? e : d + len - (len > x->i + 2); /* unterminated: as before */
        for (const char *p = s; (p = memchr(p, '\n', (size_t)(stop - p))); p++) x->line++;
        x->i = (size_t)(stop - d) + 2;
        return true;
    }
    return false;
}

/* A directive at the start of a line: #include is recorded and skipped; the words of other
 * directives are code. */
static void directive(clex *x) {
    const char *d = x->d;
    size_t len = x->len, j = x->i + 1;
    while (j < len && (d[j] == ' ' || d[j] == '\t')) j++;
    if (len - j >= 7 && memcmp(d + j, "include", 7) == 0) {
        j += 7;
        while (j < len && (d[j] == ' ' || d[j] == '\t')) j++;
        if (j < len && (d[j] == '"' || d[j] == '<')) {
            char close = d[j] == '"' ? '"' : '>';
            size_t s = j + 1, e = s;
            while (e < len && d[e] != close && d[e] != '\n') e++;
            ix_include inc = {sunset_strndup(d + s, e - s), x->line};
            if (!inc.path || !vec_push(&x->f->includes, &inc)) {
                sunset_free(inc.path);
                x->oom = true;
            }
        }
        x->f->blank = false;
        while (x->i < len && d[x->i] != '\n') x->i++;
        return;
    }
    x->i = j; /* other directives: their words are code */
    x->bol = false;
}

/* A raw string R"delim( ... )delim" at x->i: skip it; false when it is not one. */
static bool raw_string(clex *x) {
    const char *d = x->d;
    size_t len = x->len, i = x->i;
    if (!(d[i] == 'R' && i + 1 < len && d[i + 1] == '"')) return false;
    size_t s = i + 2, p = s;
    while (p < len && d[p] != '(' && p - s < 16) p++;
    char delim[24];
    size_t dn = p - s;
    if (p >= len || dn >= 16) return false;
    delim[0] = ')';
    memcpy(delim + 1, d + s, dn);
    delim[dn + 1] = '"';
    const char *e = memmem(d + p, len - p, delim, dn + 2);
    size_t stop = e ? (size_t)(e - d) + dn + 2 : len;
    for (size_t k = i; k < stop; k++)
        if (d[k] == '\n') x->line++;
    x->i = stop;
    return true;
}

static void cpp_tokens(clex *x) {
    const char *d = x->d;
    size_t len = x->len;
    while (x->i < len && !x->oom) {
        if (skip_blank(x)) continue;
        unsigned char ch = (unsigned char)d[x->i];
        if (ch == '#' && x->bol) {
            directive(x);
            continue;
        }
        x->bol = false;
        x->f->blank = false;
        size_t i = x->i;
        tok t = {TK_PUNCT, d + i, 1, x->line, x->line, 0};
        if (raw_string(x)) continue;
        if (ch == '"' || ch == '\'') {
            size_t s = i + 1, e = s;
            while (e < len && d[e] != (char)ch && d[e] != '\n') {
                if (d[e] == '\\' && e + 1 < len) e++;
                e++;
            }
            if (ch == '"') ix_hset_string(x->names, d + s, e - s);
            x->i = e < len ? e + 1 : e;
            continue;
        }
        if (id_start(ch)) {
            size_t e = i + 1;
            while (e < len && id_char((unsigned char)d[e])) e++;
            t.kind = TK_ID;
            t.n = (uint32_t)(e - i);
            ix_hset_name(x->names, d + i, e - i);
        } else if (ch >= '0' && ch <= '9') {
            size_t e = i + 1;
            while (e < len && (id_char((unsigned char)d[e]) || d[e] == '.' || d[e] == '\'')) e++;
            t.kind = TK_NUM;
            t.n = (uint32_t)(e - i);
        } else if (ch == ':' && i + 1 < len && d[i + 1] == ':') {
            t.n = 2;
        }
        x->i += t.n;
        if (!ix_tok_push(&x->toks, &t)) x->oom = true;
    }
}

/* ---- second walk: tokens to classes, flags, passes ---- */

static void free_bases(vec *bases) {
    for (size_t b = 0; b < bases->n; b++) sunset_free(VEC_AT(bases, char *, b));
    vec_free(bases);
}

static void push_base(vec *bases, sb *cur) {
    if (cur->len) {
        char *s = ix_sb_take(cur);
        if (s && !vec_push(bases, &s)) sunset_free(s);
    }
    sb_free(cur);
}

/* The base list after ':' at tv[j]: until the body's '{' (returned position) or ';'. */
static size_t base_list(const tok *tv, size_t n, size_t j, vec *bases) {
    sb cur = {0};
    int angle = 0;
    for (j++; j < n; j++) {
        const tok *x = &tv[j];
        if (x->kind == TK_PUNCT && x->s[0] == '{' && angle == 0) break;
        if (x->kind == TK_PUNCT && x->s[0] == ';') break;
        if (x->kind == TK_PUNCT && x->s[0] == '<') angle++;
        else if (x->kind == TK_PUNCT && x->s[0] == '>') angle--;
        else if (angle == 0 && x->kind == TK_PUNCT && x->s[0] == ',') {
            push_base(bases, &cur);
        } else if (angle == 0 && x->kind == TK_ID) {
            if (ix_tok_is(x, "public") || ix_tok_is(x, "private") || ix_tok_is(x, "protected") ||
                ix_tok_is(x, "virtual"))
                continue;
            if (cur.len && cur.s[cur.len - 1] != ':') sb_free(&cur);
            sb_putn(&cur, x->s, x->n);
        } else if (angle == 0 && x->kind == TK_PUNCT && x->n == 2) {
            sb_puts(&cur, "::");
        }
    }
    push_base(bases, &cur);
    return j;
}

/* `class`/`struct` at tv[k]: a definition is recorded, and *next is its '{'. Returns 1 when
 * one was, 0 when not (a declaration, a template parameter ...), -1 on OOM. */
static int class_def(ix_file *f, const tok *tv, size_t n, size_t k, const vec *braces, size_t *next) {
    /* template parameter (class T>), elaborated type (struct x *p), enum class */
    if (k > 0 && tv[k - 1].kind == TK_ID && ix_tok_is(&tv[k - 1], "enum")) return 0;
    size_t j = k + 1;
    const tok *name = NULL;
    while (j < n && tv[j].kind == TK_ID) {
        if (!ix_tok_is(&tv[j], "final")) name = &tv[j];
        j++;
    }
    /* skip attribute-like macros with arguments: PADDLE_API(x) is rare; alignas(...) */
    if (!name || j >= n) return 0;
    const tok *nx = &tv[j];
    if (nx->kind != TK_PUNCT || (nx->s[0] != ':' && nx->s[0] != '{') || nx->n != 1) return 0;
    bool top = true;
    for (size_t b = 0; b < braces->n; b++)
        if (VEC_AT(braces, cbrace, b).kind != 1) top = false;
    ix_class ic = {sunset_strndup(name->s, name->n), tv[k].line, tv[k].line, NULL, 0, top, NULL, 0, false};
    vec bases = VEC_INIT(char *);
    if (nx->s[0] == ':') {
        j = base_list(tv, n, j, &bases);
        if (j >= n || tv[j].s[0] != '{') {
            free_bases(&bases);
            sunset_free(ic.name);
            return 0;
        }
    }
    ix_vec_fit(&bases);
    ic.bases = bases.v;
    ic.n_bases = (uint32_t)bases.n;
    if (!ic.name || !vec_push(&f->classes, &ic)) {
        sunset_free(ic.name);
        free_bases(&bases);
        return -1;
    }
    *next = j;
    return 1;
}

/* DEFINE_*(name ...), REGISTER_PASS(name, ...) or an operator's registration at tv[k]. Returns
 * false on OOM. */
static bool macro_word(ix_file *f, const tok *tv, size_t n, size_t k) {
    const tok *t = &tv[k];
    /* the call's shape first: most identifiers are not followed by '(' and a name, and the
     * DEFINE_ search reads the whole token */
    if (k + 2 >= n || tv[k + 1].kind != TK_PUNCT || tv[k + 1].s[0] != '(' || tv[k + 2].kind != TK_ID)
        return true;
    bool flag = is_flag_define(t), pass = ix_tok_is(t, "REGISTER_PASS");
    bool op = ix_tok_is(t, "REGISTER_OPERATOR") || ix_tok_is(t, "REGISTER_OP_WITHOUT_GRADIENT") ||
              ix_tok_is(t, "PD_REGISTER_STRUCT_KERNEL");
    bool use = ix_tok_is(t, "USE_OP") || ix_tok_is(t, "USE_OP_ITSELF") || ix_tok_is(t, "USE_NO_KERNEL_OP") ||
               ix_tok_is(t, "USE_PASS");
    if (!(flag || pass || op || use)) return true;
    /* the macro call's extent: to the matching ')' and a following ';' */
    int depth = 0;
    size_t j = k + 1;
    for (; j < n; j++) {
        if (tv[j].kind != TK_PUNCT) continue;
        if (tv[j].s[0] == '(') depth++;
        if (tv[j].s[0] == ')' && --depth == 0) break;
    }
    uint32_t end = j < n ? tv[j].line : t->line;
    vec *into = flag ? &f->flag_defs : op ? &f->op_regs : use ? &f->reg_uses : &f->pass_regs;
    return ix_word_push(into, tv[k + 2].s, tv[k + 2].n, t->line, end);
}

static bool cpp_structure(ix_file *f, const tok *tv, size_t n) {
    vec braces = VEC_INIT(cbrace);
    bool oom = false;
    int pending = 0; /* kind of the next '{' */
    size_t pending_cls = 0;
    for (size_t k = 0; k < n && !oom; k++) {
        const tok *t = &tv[k];
        if (t->kind == TK_PUNCT && t->s[0] == '{') {
            cbrace b = {pending, pending_cls};
            if (!vec_push(&braces, &b)) oom = true;
            pending = 0;
            continue;
        }
        if (t->kind == TK_PUNCT && t->s[0] == '}') {
            if (braces.n) {
                cbrace *b = &VEC_AT(&braces, cbrace, braces.n - 1);
                if (b->kind == 2) VEC_AT(&f->classes, ix_class, b->cls).end = t->line;
                braces.n--;
            }
            continue;
        }
        if (t->kind == TK_PUNCT && t->s[0] == ';') {
            pending = 0;
            continue;
        }
        if (t->kind != TK_ID) continue;
        if (ix_tok_is(t, "namespace")) {
            pending = 1;
            continue;
        }
        if ((ix_tok_is(t, "class") || ix_tok_is(t, "struct")) && k + 1 < n) {
            size_t next;
            int r = class_def(f, tv, n, k, &braces, &next);
            if (r < 0) oom = true;
            if (r <= 0) continue;
            pending = 2;
            pending_cls = f->classes.n - 1;
            k = next - 1; /* the '{' is handled next */
            continue;
        }
        if (!macro_word(f, tv, n, k)) oom = true;
    }
    vec_free(&braces);
    return !oom;
}

int ix_lex_cpp(ix_file *f, const char *d, size_t len, hset *names) {
    clex x = {f, d, len, 0, 1, true, false, names, VEC_INIT(tok)};
    cpp_tokens(&x);
    bool ok = !x.oom && cpp_structure(f, x.toks.v, x.toks.n);
    vec_free(&x.toks);
    return ok ? 0 : -1;
}
