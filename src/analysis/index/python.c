/*
 * python.c — the index's Python lexer: logical lines (brackets and backslashes join physical
 * ones), strings with their prefixes, comments; from those, imports (which names they bind),
 * classes with their bases and indentation extent, top-level functions, the names used
 * outside top-level class bodies and per class, and in tool lists the identifier-like strings.
 */
#include "analysis/index/ix_int.h"

#include <stdlib.h>

typedef struct pyblock {
    size_t cls;      /* index into classes, or SIZE_MAX for a function */
    size_t func;     /* index into funcs, or SIZE_MAX */
    uint32_t indent;
} pyblock;

/* Lex Python into logical lines and hand each to py_line. */
typedef struct pyctx {
    ix_file *f;
    hset *all;       /* every name of the file */
    hset outside;    /* names outside top-level class bodies */
    hset cls;        /* names of the current top-level class */
    long cur_cls;    /* index of that class in f->classes, -1 = none */
    hset *names;     /* where names go now: outside or cls (and always all) */
    vec blocks; /* pyblock */
    uint32_t last_line;
    bool tools; /* a tool list: record identifier-like strings */
    bool decorator; /* the last logical line was a decorator */
    bool oom;
} pyctx;

/* r, b, u, f in either case: the letters of a string prefix (rb"", F'') */
static inline bool is_str_prefix(unsigned char ch) {
    ch |= 0x20;
    return ch == 'r' || ch == 'b' || ch == 'u' || ch == 'f';
}

static void py_name(pyctx *c, const char *s, size_t n) {
    if (n < 3) return;
    uint64_t h = ix_name_hash(s, n); /* once for both sets */
    ix_hset_add(c->all, h);
    ix_hset_add(c->names, h);
}

static void py_string(pyctx *c, const char *s, size_t n) {
    ix_hset_string(c->all, s, n);
    ix_hset_string(c->names, s, n);
}

/* Close the current top-level class: its name set moves into the class. */
static void py_end_class(pyctx *c) {
    if (c->cur_cls < 0) return;
    ix_class *k = &VEC_AT(&c->f->classes, ix_class, c->cur_cls);
    if (!ix_hset_sorted(&c->cls, &k->names, &k->n_names)) c->oom = true;
    sunset_free(c->cls.slots);
    memset(&c->cls, 0, sizeof c->cls);
    c->cur_cls = -1;
    c->names = &c->outside;
}

static char *join_dotted(const tok *t, size_t n, size_t *used) {
    /* identifiers joined by '.' tokens, leading dots kept (relative imports) */
    sb b = {0};
    size_t i = 0;
    for (; i < n; i++) {
        if (t[i].kind == TK_ID && !(b.len && b.s[b.len - 1] != '.')) {
            if (ix_tok_is(&t[i], "import") || ix_tok_is(&t[i], "as")) break;
            sb_putn(&b, t[i].s, t[i].n);
        } else if (t[i].kind == TK_PUNCT && t[i].n == 1 && t[i].s[0] == '.') {
            sb_putc(&b, '.');
        } else {
            break;
        }
    }
    *used = i;
    if (!b.s) sb_puts(&b, "");
    return ix_sb_take(&b);
}

static void close_blocks(pyctx *c, uint32_t indent, uint32_t end) {
    while (c->blocks.n) {
        pyblock *b = &VEC_AT(&c->blocks, pyblock, c->blocks.n - 1);
        if (b->indent < indent) break;
        if (b->cls != SIZE_MAX) VEC_AT(&c->f->classes, ix_class, b->cls).end = end;
        if (b->func != SIZE_MAX) VEC_AT(&c->f->funcs, ix_func, b->func).end = end;
        c->blocks.n--;
    }
}

static void py_import(pyctx *c, const tok *t, size_t n) {
    uint32_t line = t[0].line, end = t[n - 1].end_line;
    size_t i = 1;
    if (ix_tok_is(&t[0], "import")) {
        while (i < n) {
            size_t used;
            char *mod = join_dotted(t + i, n - i, &used);
            if (!mod) {
                c->oom = true;
                return;
            }
            i += used;
            char *alias = NULL;
            if (i + 1 < n && ix_tok_is(&t[i], "as") && t[i + 1].kind == TK_ID) {
                alias = sunset_strndup(t[i + 1].s, t[i + 1].n);
                i += 2;
            }
            ix_import im = {mod, NULL, alias, line, end, false};
            if (!*mod || !vec_push(&c->f->imports, &im)) {
                sunset_free(mod);
                sunset_free(alias);
            }
            while (i < n && !(t[i].kind == TK_PUNCT && t[i].s[0] == ',')) i++;
            i++;
        }
        return;
    }
    /* from X import a [as b], (c, d) */
    size_t used;
    char *mod = join_dotted(t + 1, n - 1, &used);
    if (!mod) {
        c->oom = true;
        return;
    }
    i = 1 + used;
    if (!*mod) { /* "from import x" is not Python; nothing to record */
        sunset_free(mod);
        return;
    }
    if (i < n && ix_tok_is(&t[i], "import")) i++;
    bool any = false;
    while (i < n) {
        if (t[i].kind == TK_PUNCT) {
            i++;
            continue;
        }
        if (t[i].kind != TK_ID) {
            i++;
            continue;
        }
        char *name = sunset_strndup(t[i].s, t[i].n);
        i++;
        char *alias = NULL;
        if (i + 1 < n && ix_tok_is(&t[i], "as") && t[i + 1].kind == TK_ID) {
            alias = sunset_strndup(t[i + 1].s, t[i + 1].n);
            i += 2;
        }
        char *m = sunset_strndup(mod, strlen(mod));
        ix_import im = {m, name, alias, line, end, false};
        if (!m || !name || !vec_push(&c->f->imports, &im)) {
            sunset_free(m);
            sunset_free(name);
            sunset_free(alias);
        }
        any = true;
    }
    (void)any;
    /* star imports: the '*' token */
    for (size_t k = 1 + used; k < n; k++) {
        if (t[k].kind == TK_PUNCT && t[k].s[0] == '*') {
            char *m = sunset_strndup(mod, strlen(mod));
            char *star = sunset_strndup("*", 1);
            ix_import im = {m, star, NULL, line, end, true};
            if (!m || !star || !vec_push(&c->f->imports, &im)) {
                sunset_free(m);
                sunset_free(star);
            }
        }
    }
    sunset_free(mod);
}

static void py_line(pyctx *c, tok *t, size_t n) {
    if (!n) return;
    uint32_t indent = t[0].col;
    close_blocks(c, indent, c->last_line);
    if (!c->blocks.n) py_end_class(c);
    c->last_line = t[n - 1].end_line;
    c->f->blank = false;
    bool decorated = c->decorator;
    c->decorator = t[0].kind == TK_PUNCT && t[0].s[0] == '@';
    if (ix_tok_is(&t[0], "import") || (ix_tok_is(&t[0], "from") && n > 1)) {
        py_import(c, t, n);
        return;
    }
    size_t k = 0;
    if (ix_tok_is(&t[0], "async") && n > 1) k = 1;
    if (n > k + 1 && (ix_tok_is(&t[k], "class") || ix_tok_is(&t[k], "def")) && t[k + 1].kind == TK_ID) {
        bool cls = ix_tok_is(&t[k], "class");
        pyblock b = {SIZE_MAX, SIZE_MAX, indent};
        bool top = c->blocks.n == 0;
        if (cls) {
            ix_class ic = {sunset_strndup(t[k + 1].s, t[k + 1].n), t[0].line, c->last_line, NULL, 0, top, NULL, 0, decorated};
            vec bases = VEC_INIT(char *);
            if (n > k + 2 && t[k + 2].kind == TK_PUNCT && t[k + 2].s[0] == '(') {
                int depth = 0;
                sb cur = {0};
                bool kw = false;
                for (size_t i = k + 2; i < n; i++) {
                    const tok *x = &t[i];
                    if (x->kind == TK_PUNCT && (x->s[0] == '(' || x->s[0] == '[')) {
                        if (depth++ == 0) continue;
                    }
                    if (x->kind == TK_PUNCT && (x->s[0] == ')' || x->s[0] == ']')) {
                        if (--depth == 0) {
                            if (cur.len && !kw) {
                                char *s = ix_sb_take(&cur);
                                if (s && !vec_push(&bases, &s)) sunset_free(s);
                            }
                            sb_free(&cur);
                            break;
                        }
                    }
                    if (depth == 1 && x->kind == TK_PUNCT && x->s[0] == ',') {
                        if (cur.len && !kw) {
                            char *s = ix_sb_take(&cur);
                            if (s && !vec_push(&bases, &s)) sunset_free(s);
                        }
                        sb_free(&cur);
                        kw = false;
                        continue;
                    }
                    if (depth == 1 && x->kind == TK_PUNCT && x->s[0] == '=') kw = true;
                    if (depth == 1 && (x->kind == TK_ID || (x->kind == TK_PUNCT && x->s[0] == '.')))
                        sb_putn(&cur, x->s, x->n);
                }
                sb_free(&cur);
            }
            ix_vec_fit(&bases);
            ic.bases = bases.v;
            ic.n_bases = (uint32_t)bases.n;
            if (!ic.name || !vec_push(&c->f->classes, &ic)) {
                sunset_free(ic.name);
                for (size_t i = 0; i < bases.n; i++) sunset_free(VEC_AT(&bases, char *, i));
                vec_free(&bases);
                c->oom = true;
            } else {
                b.cls = c->f->classes.n - 1;
                if (top) {
                    c->cur_cls = (long)b.cls;
                    c->names = &c->cls;
                }
            }
        } else if (top) {
            ix_func fn = {sunset_strndup(t[k + 1].s, t[k + 1].n), t[0].line, c->last_line};
            if (!fn.name || !vec_push(&c->f->funcs, &fn)) {
                sunset_free(fn.name);
                c->oom = true;
            } else {
                b.func = c->f->funcs.n - 1;
            }
        }
        if (!vec_push(&c->blocks, &b)) c->oom = true;
        for (size_t i = k + 2; i < n; i++)
            if (t[i].kind == TK_ID) py_name(c, t[i].s, t[i].n);
        return;
    }
    /* a module-level assignment: a re-export `X = mod.X` lets an importer take X from mod */
    if (!c->blocks.n && n >= 3 && t[0].kind == TK_ID && t[1].kind == TK_PUNCT && t[1].n == 1 && t[1].s[0] == '=' &&
        !(t[2].kind == TK_PUNCT && t[2].s[0] == '=')) {
        bool dotted = t[0].col == 1 && t[2].kind == TK_ID;
        for (size_t i = 3; i < n && dotted; i++)
            dotted = (i % 2) ? t[i].kind == TK_PUNCT && t[i].n == 1 && t[i].s[0] == '.' : t[i].kind == TK_ID;
        dotted = dotted && n % 2 == 1;
        size_t used = 0;
        ix_alias a = {sunset_strndup(t[0].s, t[0].n), dotted ? join_dotted(t + 2, n - 2, &used) : NULL, t[0].line};
        if (!a.name || (dotted && !a.value) || !vec_push(&c->f->aliases, &a)) {
            sunset_free(a.name);
            sunset_free(a.value);
            c->oom = true;
        }
    }
    bool docstring = n == 1 && t[0].kind == TK_STR;
    for (size_t i = 0; i < n; i++) {
        if (t[i].kind == TK_ID) py_name(c, t[i].s, t[i].n);
        else if (t[i].kind == TK_STR && !docstring) {
            py_string(c, t[i].s, t[i].n);
            if (c->tools && ix_looks_like_name(t[i].s, t[i].n) &&
                !ix_word_push(&c->f->list_words, t[i].s, t[i].n, t[i].line, t[i].end_line))
                c->oom = true;
        }
    }
}

int ix_lex_python(ix_file *f, const char *d, size_t len, hset *names) {
    pyctx c = {f, names, {0}, {0}, -1, NULL, VEC_INIT(pyblock), 0, false, false, false};
    c.names = &c.outside;
    c.tools = strncmp(f->path, "tools/", 6) == 0 || strstr(f->path, "/tools/") != NULL;
    vec toks = VEC_INIT(tok);
    uint32_t line = 1, col = 1;
    int depth = 0;
    size_t i = 0;
    while (i < len && !c.oom) {
        unsigned char ch = (unsigned char)d[i];
        if (ch == '\n') {
            if (depth == 0 && toks.n) {
                py_line(&c, toks.v, toks.n);
                toks.n = 0;
            }
            line++;
            col = 1;
            i++;
            continue;
        }
        if (ch == '\\' && i + 1 < len && d[i + 1] == '\n') {
            i += 2;
            line++;
            col = 1;
            continue;
        }
        if (ch == ' ' || ch == '\t' || ch == '\r' || ch == '\f') {
            col++;
            i++;
            continue;
        }
        if (ch == '#') {
            const char *nl = memchr(d + i, '\n', len - i);
            i = nl ? (size_t)(nl - d) : len;
            continue;
        }
        tok t = {TK_PUNCT, d + i, 1, line, line, col};
        /* string, with an optional prefix */
        size_t p = i;
        while (p < len && p - i < 3 && is_str_prefix((unsigned char)d[p])) p++;
        if (p < len && (d[p] == '\'' || d[p] == '"') && (p == i || id_start(ch))) {
            char q = d[p];
            bool triple = p + 2 < len && d[p + 1] == q && d[p + 2] == q;
            size_t s = p + (triple ? 3 : 1), e = s;
            uint32_t l2 = line;
            while (e < len) {
                if (d[e] == '\\' && e + 1 < len) {
                    if (d[e + 1] == '\n') l2++;
                    e += 2;
                    continue;
                }
                if (d[e] == '\n') {
                    if (!triple) break;
                    l2++;
                }
                if (d[e] == q && (!triple || (e + 2 < len && d[e + 1] == q && d[e + 2] == q))) break;
                e++;
            }
            t.kind = TK_STR;
            t.s = d + s;
            t.n = (uint32_t)(e - s);
            t.end_line = l2;
            size_t stop = e < len ? e + (triple ? 3 : 1) : e;
            if (stop > len) stop = len;
            col += (uint32_t)(stop - i);
            line = l2;
            i = stop;
            if (!ix_tok_push(&toks, &t)) c.oom = true;
            continue;
        }
        if (id_start(ch)) {
            size_t e = i + 1;
            while (e < len && id_char((unsigned char)d[e])) e++;
            t.kind = TK_ID;
            t.n = (uint32_t)(e - i);
        } else if (ch >= '0' && ch <= '9') {
            size_t e = i + 1;
            while (e < len && (id_char((unsigned char)d[e]) || d[e] == '.')) e++;
            t.kind = TK_NUM;
            t.n = (uint32_t)(e - i);
        } else {
            if (ch == '(' || ch == '[' || ch == '{') depth++;
            if ((ch == ')' || ch == ']' || ch == '}') && depth > 0) depth--;
        }
        col += t.n;
        i += t.n;
        if (!ix_tok_push(&toks, &t)) c.oom = true;
    }
    if (toks.n && !c.oom) py_line(&c, toks.v, toks.n);
    close_blocks(&c, 0, c.last_line ? c.last_line : 1);
    py_end_class(&c);
    if (!c.oom && !ix_hset_sorted(&c.outside, &f->outside, &f->n_outside)) c.oom = true;
    sunset_free(c.outside.slots);
    sunset_free(c.cls.slots);
    vec_free(&toks);
    vec_free(&c.blocks);
    return c.oom ? -1 : 0;
}
