/*
 * index.c — the cross-file index (index.h). One small lexer per language turns a file's bytes,
 * already in memory in the engine's worker, into the facts the propagation needs: C/C++
 * includes, class definitions with their bases and brace-matched extent, gflag definitions,
 * pass registrations; Python imports (which names they bind and whether the module uses them),
 * classes with bases and indentation extent, top-level functions; CMake commands with their
 * arguments and lines; words of tool lists and scripts; and for every file the set of names its
 * code uses (comments and import lines excluded), kept as sorted 64-bit hashes. The lexers never
 * parse: they know strings, comments, brackets and a handful of keywords, which is what the
 * facts need, and they cost a few percent of the scan.
 */
#include "index.h"

#include <stdlib.h>
#include <string.h>

/* ---- small helpers ---- */

uint64_t sunset_index_name_hash(const char *s, size_t n) { return hash64(s, n, 0x5157u); }

static inline bool id_start(unsigned char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
}
static inline bool id_char(unsigned char c) { return id_start(c) || (c >= '0' && c <= '9'); }

/* An open-addressing set of name hashes, local to one file. */
typedef struct hset {
    uint64_t *slots;
    size_t cap, n;
    bool oom;
} hset;

static void hset_add(hset *h, uint64_t v) {
    if (h->oom) return;
    if (!v) v = 1; /* 0 marks an empty slot */
    if ((h->n + 1) * 2 > h->cap) {
        size_t cap = h->cap ? h->cap * 2 : 256;
        uint64_t *s = sunset_calloc(cap, sizeof *s);
        if (!s) {
            h->oom = true;
            return;
        }
        for (size_t i = 0; i < h->cap; i++) {
            if (!h->slots[i]) continue;
            size_t k = h->slots[i] & (cap - 1);
            while (s[k]) k = (k + 1) & (cap - 1);
            s[k] = h->slots[i];
        }
        sunset_free(h->slots);
        h->slots = s;
        h->cap = cap;
    }
    size_t k = v & (h->cap - 1);
    while (h->slots[k]) {
        if (h->slots[k] == v) return;
        k = (k + 1) & (h->cap - 1);
    }
    h->slots[k] = v;
    h->n++;
}

static void hset_name(hset *h, const char *s, size_t n) {
    if (n >= 3) hset_add(h, sunset_index_name_hash(s, n));
}

/* A string's contents count as a name when they look like one (pass names, test names). */
static void hset_string(hset *h, const char *s, size_t n) {
    if (n < 3 || n > 100 || !id_start((unsigned char)s[0])) return;
    for (size_t i = 1; i < n; i++)
        if (!id_char((unsigned char)s[i])) return;
    hset_name(h, s, n);
}

static int cmp_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static bool word_push(vec *v, const char *s, size_t n, uint32_t line, uint32_t end) {
    ix_word w = {sunset_strndup(s, n), line, end};
    if (!w.text || !vec_push(v, &w)) {
        sunset_free(w.text);
        return false;
    }
    return true;
}

static bool looks_like_name(const char *s, size_t n) {
    if (!n || !id_start((unsigned char)s[0])) return false;
    for (size_t i = 1; i < n; i++)
        if (!id_char((unsigned char)s[i])) return false;
    return true;
}

/* ---- tokens ---- */

typedef enum tk { TK_ID, TK_STR, TK_PUNCT, TK_NUM } tk;

typedef struct tok {
    tk kind;
    const char *s; /* for TK_STR: the contents */
    uint32_t n;
    uint32_t line, end_line;
    uint32_t col; /* Python: column of the token (indentation of a logical line) */
} tok;

static bool tok_is(const tok *t, const char *w) {
    size_t n = strlen(w);
    return t->n == n && memcmp(t->s, w, n) == 0;
}

/* ---- Python ---- */

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
    bool oom;
} pyctx;

static void py_name(pyctx *c, const char *s, size_t n) {
    hset_name(c->all, s, n);
    hset_name(c->names, s, n);
}

static void py_string(pyctx *c, const char *s, size_t n) {
    hset_string(c->all, s, n);
    hset_string(c->names, s, n);
}

/* Close the current top-level class: its name set moves into the class. */
static void py_end_class(pyctx *c) {
    if (c->cur_cls < 0) return;
    ix_class *k = &VEC_AT(&c->f->classes, ix_class, c->cur_cls);
    if (c->cls.oom) c->oom = true;
    if (c->cls.n) {
        k->names = sunset_malloc(c->cls.n * sizeof(uint64_t));
        if (!k->names) c->oom = true;
        for (size_t i = 0; k->names && i < c->cls.cap; i++)
            if (c->cls.slots[i]) k->names[k->n_names++] = c->cls.slots[i];
        if (k->names) qsort(k->names, k->n_names, sizeof(uint64_t), cmp_u64);
    }
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
            if (tok_is(&t[i], "import") || tok_is(&t[i], "as")) break;
            sb_putn(&b, t[i].s, t[i].n);
        } else if (t[i].kind == TK_PUNCT && t[i].n == 1 && t[i].s[0] == '.') {
            sb_putc(&b, '.');
        } else {
            break;
        }
    }
    *used = i;
    if (!b.s) sb_puts(&b, "");
    return b.oom ? (sb_free(&b), NULL) : sb_take(&b);
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
    if (tok_is(&t[0], "import")) {
        while (i < n) {
            size_t used;
            char *mod = join_dotted(t + i, n - i, &used);
            if (!mod) {
                c->oom = true;
                return;
            }
            i += used;
            char *alias = NULL;
            if (i + 1 < n && tok_is(&t[i], "as") && t[i + 1].kind == TK_ID) {
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
    if (i < n && tok_is(&t[i], "import")) i++;
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
        if (i + 1 < n && tok_is(&t[i], "as") && t[i + 1].kind == TK_ID) {
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
    if (tok_is(&t[0], "import") || (tok_is(&t[0], "from") && n > 1)) {
        py_import(c, t, n);
        return;
    }
    size_t k = 0;
    if (tok_is(&t[0], "async") && n > 1) k = 1;
    if (n > k + 1 && (tok_is(&t[k], "class") || tok_is(&t[k], "def")) && t[k + 1].kind == TK_ID) {
        bool cls = tok_is(&t[k], "class");
        pyblock b = {SIZE_MAX, SIZE_MAX, indent};
        bool top = c->blocks.n == 0;
        if (cls) {
            ix_class ic = {sunset_strndup(t[k + 1].s, t[k + 1].n), t[0].line, c->last_line, NULL, 0, top, NULL, 0};
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
                                char *s = sb_take(&cur);
                                if (!vec_push(&bases, &s)) sunset_free(s);
                            }
                            sb_free(&cur);
                            break;
                        }
                    }
                    if (depth == 1 && x->kind == TK_PUNCT && x->s[0] == ',') {
                        if (cur.len && !kw) {
                            char *s = sb_take(&cur);
                            if (!vec_push(&bases, &s)) sunset_free(s);
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
    bool docstring = n == 1 && t[0].kind == TK_STR;
    for (size_t i = 0; i < n; i++) {
        if (t[i].kind == TK_ID) py_name(c, t[i].s, t[i].n);
        else if (t[i].kind == TK_STR && !docstring) {
            py_string(c, t[i].s, t[i].n);
            if (c->tools && looks_like_name(t[i].s, t[i].n) &&
                !word_push(&c->f->list_words, t[i].s, t[i].n, t[i].line, t[i].end_line))
                c->oom = true;
        }
    }
}

static int index_python(ix_file *f, const char *d, size_t len, hset *names) {
    pyctx c = {f, names, {0}, {0}, -1, NULL, VEC_INIT(pyblock), 0, false, false};
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
            while (i < len && d[i] != '\n') i++;
            continue;
        }
        tok t = {TK_PUNCT, d + i, 1, line, line, col};
        /* string, with an optional prefix */
        size_t p = i;
        while (p < len && p - i < 3 && d[p] && strchr("rRbBuUfF", d[p])) p++;
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
            if (!vec_push(&toks, &t)) c.oom = true;
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
        if (!vec_push(&toks, &t)) c.oom = true;
    }
    if (toks.n && !c.oom) py_line(&c, toks.v, toks.n);
    close_blocks(&c, 0, c.last_line ? c.last_line : 1);
    py_end_class(&c);
    if (c.outside.oom) c.oom = true;
    if (c.outside.n && !c.oom) {
        f->outside = sunset_malloc(c.outside.n * sizeof(uint64_t));
        if (!f->outside) c.oom = true;
        for (size_t i = 0; f->outside && i < c.outside.cap; i++)
            if (c.outside.slots[i]) f->outside[f->n_outside++] = c.outside.slots[i];
        if (f->outside) qsort(f->outside, f->n_outside, sizeof(uint64_t), cmp_u64);
    }
    sunset_free(c.outside.slots);
    sunset_free(c.cls.slots);
    vec_free(&toks);
    vec_free(&c.blocks);
    return c.oom ? -1 : 0;
}

/* ---- C and C++ ---- */

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

static int index_cpp(ix_file *f, const char *d, size_t len, hset *names) {
    vec toks = VEC_INIT(tok);
    uint32_t line = 1;
    bool bol = true, oom = false;
    size_t i = 0;
    while (i < len && !oom) {
        unsigned char ch = (unsigned char)d[i];
        if (ch == '\n') {
            line++;
            bol = true;
            i++;
            continue;
        }
        if (ch == ' ' || ch == '\t' || ch == '\r' || ch == '\f' || ch == '\v') {
            i++;
            continue;
        }
        if (ch == '\\' && i + 1 < len && (d[i + 1] == '\n' || d[i + 1] == '\r')) {
            i++;
            continue;
        }
        if (ch == '/' && i + 1 < len && d[i + 1] == '/') {
            while (i < len && d[i] != '\n') i++;
            continue;
        }
        if (ch == '/' && i + 1 < len && d[i + 1] == '*') {
            i += 2;
            while (i + 1 < len && !(d[i] == '*' && d[i + 1] == '/')) {
                if (d[i] == '\n') line++;
                i++;
            }
            i += 2;
            continue;
        }
        if (ch == '#' && bol) {
            size_t j = i + 1;
            while (j < len && (d[j] == ' ' || d[j] == '\t')) j++;
            if (len - j >= 7 && memcmp(d + j, "include", 7) == 0) {
                j += 7;
                while (j < len && (d[j] == ' ' || d[j] == '\t')) j++;
                if (j < len && (d[j] == '"' || d[j] == '<')) {
                    char close = d[j] == '"' ? '"' : '>';
                    size_t s = j + 1, e = s;
                    while (e < len && d[e] != close && d[e] != '\n') e++;
                    ix_include inc = {sunset_strndup(d + s, e - s), line};
                    if (!inc.path || !vec_push(&f->includes, &inc)) {
                        sunset_free(inc.path);
                        oom = true;
                    }
                }
                f->blank = false;
                while (i < len && d[i] != '\n') i++;
                continue;
            }
            i = j; /* other directives: their words are code */
            bol = false;
            continue;
        }
        bol = false;
        f->blank = false;
        tok t = {TK_PUNCT, d + i, 1, line, line, 0};
        if (ch == 'R' && i + 1 < len && d[i + 1] == '"') {
            /* raw string R"delim( ... )delim" */
            size_t s = i + 2, p = s;
            while (p < len && d[p] != '(' && p - s < 16) p++;
            char delim[24];
            size_t dn = p - s;
            if (p < len && dn < 16) {
                delim[0] = ')';
                memcpy(delim + 1, d + s, dn);
                delim[dn + 1] = '"';
                const char *e = memmem(d + p, len - p, delim, dn + 2);
                size_t stop = e ? (size_t)(e - d) + dn + 2 : len;
                for (size_t k = i; k < stop; k++)
                    if (d[k] == '\n') line++;
                i = stop;
                continue;
            }
        }
        if (ch == '"' || ch == '\'') {
            size_t s = i + 1, e = s;
            while (e < len && d[e] != (char)ch && d[e] != '\n') {
                if (d[e] == '\\' && e + 1 < len) e++;
                e++;
            }
            if (ch == '"') hset_string(names, d + s, e - s);
            i = e < len ? e + 1 : e;
            continue;
        }
        if (id_start(ch)) {
            size_t e = i + 1;
            while (e < len && id_char((unsigned char)d[e])) e++;
            t.kind = TK_ID;
            t.n = (uint32_t)(e - i);
            hset_name(names, d + i, e - i);
        } else if (ch >= '0' && ch <= '9') {
            size_t e = i + 1;
            while (e < len && (id_char((unsigned char)d[e]) || d[e] == '.' || d[e] == '\'')) e++;
            t.kind = TK_NUM;
            t.n = (uint32_t)(e - i);
        } else if (ch == ':' && i + 1 < len && d[i + 1] == ':') {
            t.n = 2;
        }
        i += t.n;
        if (!vec_push(&toks, &t)) oom = true;
    }
    /* second walk over the tokens: classes, braces, flags, passes */
    vec braces = VEC_INIT(cbrace);
    const tok *tv = toks.v;
    size_t n = toks.n;
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
        if (tok_is(t, "namespace")) {
            pending = 1;
            continue;
        }
        if ((tok_is(t, "class") || tok_is(t, "struct")) && k + 1 < n) {
            /* template parameter (class T>), elaborated type (struct x *p), enum class */
            if (k > 0 && tv[k - 1].kind == TK_ID && tok_is(&tv[k - 1], "enum")) continue;
            size_t j = k + 1;
            const tok *name = NULL;
            while (j < n && tv[j].kind == TK_ID) {
                if (!tok_is(&tv[j], "final")) name = &tv[j];
                j++;
            }
            /* skip attribute-like macros with arguments: PADDLE_API(x) is rare; alignas(...) */
            if (!name || j >= n) continue;
            const tok *nx = &tv[j];
            if (nx->kind != TK_PUNCT || (nx->s[0] != ':' && nx->s[0] != '{') || nx->n != 1) continue;
            bool top = true;
            for (size_t b = 0; b < braces.n; b++)
                if (VEC_AT(&braces, cbrace, b).kind != 1) top = false;
            ix_class ic = {sunset_strndup(name->s, name->n), t->line, t->line, NULL, 0, top, NULL, 0};
            vec bases = VEC_INIT(char *);
            if (nx->s[0] == ':') {
                sb cur = {0};
                int angle = 0;
                for (j++; j < n; j++) {
                    const tok *x = &tv[j];
                    if (x->kind == TK_PUNCT && x->s[0] == '{' && angle == 0) break;
                    if (x->kind == TK_PUNCT && x->s[0] == ';') break;
                    if (x->kind == TK_PUNCT && x->s[0] == '<') angle++;
                    else if (x->kind == TK_PUNCT && x->s[0] == '>') angle--;
                    else if (angle == 0 && x->kind == TK_PUNCT && x->s[0] == ',') {
                        if (cur.len) {
                            char *s = sb_take(&cur);
                            if (!vec_push(&bases, &s)) sunset_free(s);
                        }
                        sb_free(&cur);
                    } else if (angle == 0 && x->kind == TK_ID) {
                        if (tok_is(x, "public") || tok_is(x, "private") || tok_is(x, "protected") ||
                            tok_is(x, "virtual"))
                            continue;
                        if (cur.len && cur.s[cur.len - 1] != ':') sb_free(&cur);
                        sb_putn(&cur, x->s, x->n);
                    } else if (angle == 0 && x->kind == TK_PUNCT && x->n == 2) {
                        sb_puts(&cur, "::");
                    }
                }
                if (cur.len) {
                    char *s = sb_take(&cur);
                    if (!vec_push(&bases, &s)) sunset_free(s);
                }
                sb_free(&cur);
                if (j >= n || tv[j].s[0] != '{') {
                    for (size_t b = 0; b < bases.n; b++) sunset_free(VEC_AT(&bases, char *, b));
                    vec_free(&bases);
                    sunset_free(ic.name);
                    continue;
                }
            }
            ic.bases = bases.v;
            ic.n_bases = (uint32_t)bases.n;
            if (!ic.name || !vec_push(&f->classes, &ic)) {
                sunset_free(ic.name);
                for (size_t b = 0; b < bases.n; b++) sunset_free(VEC_AT(&bases, char *, b));
                vec_free(&bases);
                oom = true;
                continue;
            }
            pending = 2;
            pending_cls = f->classes.n - 1;
            k = j - 1; /* the '{' is handled next */
            continue;
        }
        bool flag = is_flag_define(t), pass = tok_is(t, "REGISTER_PASS");
        if ((flag || pass) && k + 2 < n && tv[k + 1].kind == TK_PUNCT && tv[k + 1].s[0] == '(' &&
            tv[k + 2].kind == TK_ID) {
            /* the macro call's extent: to the matching ')' and a following ';' */
            int depth = 0;
            size_t j = k + 1;
            for (; j < n; j++) {
                if (tv[j].kind != TK_PUNCT) continue;
                if (tv[j].s[0] == '(') depth++;
                if (tv[j].s[0] == ')' && --depth == 0) break;
            }
            uint32_t end = j < n ? tv[j].line : t->line;
            if (!word_push(flag ? &f->flag_defs : &f->pass_regs, tv[k + 2].s, tv[k + 2].n, t->line, end))
                oom = true;
        }
    }
    vec_free(&braces);
    vec_free(&toks);
    return oom ? -1 : 0;
}

/* ---- CMake ---- */

static int index_cmake(ix_file *f, const char *d, size_t len, hset *names) {
    uint32_t line = 1;
    size_t i = 0;
    bool oom = false;
    while (i < len && !oom) {
        unsigned char ch = (unsigned char)d[i];
        if (ch == '\n') {
            line++;
            i++;
            continue;
        }
        if (ch == '#') {
            if (i + 2 < len && d[i + 1] == '[' && d[i + 2] == '[') {
                const char *e = memmem(d + i, len - i, "]]", 2);
                size_t stop = e ? (size_t)(e - d) + 2 : len;
                for (size_t k = i; k < stop; k++)
                    if (d[k] == '\n') line++;
                i = stop;
                continue;
            }
            while (i < len && d[i] != '\n') i++;
            continue;
        }
        if (!id_start(ch)) {
            i++;
            continue;
        }
        size_t s = i;
        while (i < len && id_char((unsigned char)d[i])) i++;
        size_t nl = i - s;
        size_t p = i;
        while (p < len && (d[p] == ' ' || d[p] == '\t')) p++;
        if (p >= len || d[p] != '(') continue;
        f->blank = false;
        ix_cmd cmd = {sunset_strndup(d + s, nl), line, line, NULL, NULL, 0};
        if (!cmd.name) {
            oom = true;
            break;
        }
        for (char *c = cmd.name; *c; c++)
            if (*c >= 'A' && *c <= 'Z') *c = (char)(*c - 'A' + 'a');
        vec args = VEC_INIT(char *), lines = VEC_INIT(uint32_t);
        i = p + 1;
        int depth = 1;
        while (i < len && depth > 0) {
            ch = (unsigned char)d[i];
            if (ch == '\n') {
                line++;
                i++;
                continue;
            }
            /* a NUL byte separates like a blank: the unquoted-argument loop below stops at
             * it (strchr finds the terminator) without consuming it, which never advanced */
            if (ch == ' ' || ch == '\t' || ch == '\r' || ch == 0) {
                i++;
                continue;
            }
            if (ch == '#') {
                while (i < len && d[i] != '\n') i++;
                continue;
            }
            if (ch == '(') {
                depth++;
                i++;
                continue;
            }
            if (ch == ')') {
                depth--;
                i++;
                continue;
            }
            uint32_t at = line;
            sb a = {0};
            if (ch == '"') {
                i++;
                while (i < len && d[i] != '"') {
                    if (d[i] == '\\' && i + 1 < len) {
                        sb_putc(&a, d[i + 1]);
                        i += 2;
                        continue;
                    }
                    if (d[i] == '\n') line++;
                    sb_putc(&a, d[i++]);
                }
                i++;
            } else {
                while (i < len && !strchr(" \t\r\n()#\"", d[i])) {
                    if (d[i] == '$' && i + 1 < len && d[i + 1] == '{') {
                        while (i < len && d[i] != '}' && d[i] != '\n') sb_putc(&a, d[i++]);
                        if (i < len && d[i] == '}') sb_putc(&a, d[i++]);
                        continue;
                    }
                    sb_putc(&a, d[i++]);
                }
            }
            if (a.oom) oom = true;
            if (!a.s) sb_puts(&a, "");
            char *arg = sb_take(&a);
            if (!arg || !vec_push(&lines, &at) || !vec_push(&args, &arg)) {
                if (lines.n > args.n) lines.n = args.n;
                sunset_free(arg);
                arg = NULL;
                oom = true;
            }
            /* words inside the argument are names (DEPS entries, FLAGS_x=1 in ENVS) */
            for (size_t k = 0; arg && arg[k];) {
                if (id_start((unsigned char)arg[k])) {
                    size_t e = k;
                    while (arg[e] && id_char((unsigned char)arg[e])) e++;
                    hset_name(names, arg + k, e - k);
                    k = e;
                } else {
                    k++;
                }
            }
        }
        cmd.end = line;
        cmd.args = args.v;
        cmd.arg_lines = lines.v;
        cmd.n_args = (uint32_t)args.n;
        if (!vec_push(&f->cmds, &cmd)) {
            for (size_t k = 0; k < args.n; k++) sunset_free(VEC_AT(&args, char *, k));
            vec_free(&args);
            vec_free(&lines);
            sunset_free(cmd.name);
            oom = true;
        }
    }
    return oom ? -1 : 0;
}

/* ---- shell and other text: words ---- */

static int index_words(ix_file *f, const char *d, size_t len, hset *names, bool list) {
    uint32_t line = 1;
    for (size_t i = 0; i < len;) {
        unsigned char ch = (unsigned char)d[i];
        if (ch == '\n') {
            line++;
            i++;
            continue;
        }
        if (!id_start(ch) || (i > 0 && id_char((unsigned char)d[i - 1]))) {
            if (!(ch == ' ' || ch == '\t' || ch == '\r')) f->blank = false;
            i++;
            continue;
        }
        f->blank = false;
        size_t e = i;
        while (e < len && id_char((unsigned char)d[e])) e++;
        hset_name(names, d + i, e - i);
        if (list && e - i >= 6 && (memmem(d + i, e - i, "test", 4) || memmem(d + i, e - i, "Test", 4)) &&
            !word_push(&f->list_words, d + i, e - i, line, line))
            return -1;
        i = e;
    }
    return 0;
}

/* ---- the index ---- */

static void file_free(ix_file *f) {
    if (!f) return;
    sunset_free(f->path);
    for (size_t i = 0; i < f->classes.n; i++) {
        ix_class *c = &VEC_AT(&f->classes, ix_class, i);
        sunset_free(c->name);
        for (uint32_t k = 0; k < c->n_bases; k++) sunset_free(c->bases[k]);
        sunset_free(c->bases);
        sunset_free(c->names);
    }
    for (size_t i = 0; i < f->funcs.n; i++) sunset_free(VEC_AT(&f->funcs, ix_func, i).name);
    for (size_t i = 0; i < f->imports.n; i++) {
        ix_import *m = &VEC_AT(&f->imports, ix_import, i);
        sunset_free(m->module);
        sunset_free(m->name);
        sunset_free(m->alias);
    }
    for (size_t i = 0; i < f->includes.n; i++) sunset_free(VEC_AT(&f->includes, ix_include, i).path);
    for (size_t i = 0; i < f->cmds.n; i++) {
        ix_cmd *c = &VEC_AT(&f->cmds, ix_cmd, i);
        sunset_free(c->name);
        for (uint32_t k = 0; k < c->n_args; k++) sunset_free(c->args[k]);
        sunset_free(c->args);
        sunset_free(c->arg_lines);
    }
    vec *words[] = {&f->flag_defs, &f->pass_regs, &f->list_words};
    for (size_t w = 0; w < 3; w++) {
        for (size_t i = 0; i < words[w]->n; i++) sunset_free(VEC_AT(words[w], ix_word, i).text);
        vec_free(words[w]);
    }
    vec_free(&f->classes);
    vec_free(&f->funcs);
    vec_free(&f->imports);
    vec_free(&f->includes);
    vec_free(&f->cmds);
    sunset_free(f->names);
    sunset_free(f->outside);
    sunset_free(f);
}

sunset_index *sunset_index_new(void) {
    sunset_index *ix = sunset_calloc(1, sizeof *ix);
    if (!ix) return NULL;
    if (pthread_mutex_init(&ix->mu, NULL) != 0) {
        sunset_free(ix);
        return NULL;
    }
    ix->files = VEC_INIT(ix_file *);
    return ix;
}

void sunset_index_free(sunset_index *ix) {
    if (!ix) return;
    for (size_t i = 0; i < ix->files.n; i++) file_free(VEC_AT(&ix->files, ix_file *, i));
    vec_free(&ix->files);
    pthread_mutex_destroy(&ix->mu);
    sunset_free(ix);
}

bool ix_hashes_have(const uint64_t *v, size_t n, const char *name) {
    if (!n) return false;
    uint64_t h = sunset_index_name_hash(name, strlen(name));
    if (!h) h = 1;
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (v[mid] < h) lo = mid + 1;
        else hi = mid;
    }
    return lo < n && v[lo] == h;
}

bool ix_file_uses(const ix_file *f, const char *name) { return ix_hashes_have(f->names, f->n_names, name); }

int sunset_index_add(sunset_index *ix, const sunset_source *src) {
    ix_file *f = sunset_calloc(1, sizeof *f);
    if (!f) return -1;
    hset names = {0};
    int rc = -1;
    f->path = sunset_strndup(src->path, strlen(src->path));
    if (!f->path) goto cleanup;
    f->lang = src->lang;
    f->size = src->len;
    f->blank = true;
    f->classes = VEC_INIT(ix_class);
    f->funcs = VEC_INIT(ix_func);
    f->imports = VEC_INIT(ix_import);
    f->includes = VEC_INIT(ix_include);
    f->cmds = VEC_INIT(ix_cmd);
    f->flag_defs = VEC_INIT(ix_word);
    f->pass_regs = VEC_INIT(ix_word);
    f->list_words = VEC_INIT(ix_word);
    uint32_t nl = 0;
    for (const char *p = src->data, *end = src->data + src->len; (p = memchr(p, '\n', (size_t)(end - p)));
         p++)
        nl++;
    f->n_lines = nl + (src->len && src->data[src->len - 1] != '\n');
    int r = 0;
    switch (src->lang) {
    case SUNSET_LANG_CPP: r = index_cpp(f, src->data, src->len, &names); break;
    case SUNSET_LANG_PYTHON: r = index_python(f, src->data, src->len, &names); break;
    case SUNSET_LANG_CMAKE: r = index_cmake(f, src->data, src->len, &names); break;
    case SUNSET_LANG_SHELL: r = index_words(f, src->data, src->len, &names, true); break;
    default: f->blank = src->len == 0; break;
    }
    if (r || names.oom) goto cleanup;
    if (names.n) {
        f->names = sunset_malloc(names.n * sizeof(uint64_t));
        if (!f->names) goto cleanup;
        for (size_t i = 0; i < names.cap; i++)
            if (names.slots[i]) f->names[f->n_names++] = names.slots[i];
        qsort(f->names, f->n_names, sizeof(uint64_t), cmp_u64);
    }
    /* an import is used when the name it binds occurs in the module's code */
    for (size_t i = 0; i < f->imports.n; i++) {
        ix_import *m = &VEC_AT(&f->imports, ix_import, i);
        if (m->name && strcmp(m->name, "*") == 0) continue;
        const char *bound = m->alias ? m->alias : m->name;
        char first[256];
        if (!bound) {
            size_t k = 0;
            while (m->module[k] && m->module[k] != '.' && k < sizeof first - 1) {
                first[k] = m->module[k];
                k++;
            }
            first[k] = 0;
            bound = first;
        }
        m->used = strlen(bound) < 3 ? true : ix_file_uses(f, bound);
    }
    pthread_mutex_lock(&ix->mu);
    bool ok = vec_push(&ix->files, &f) != NULL;
    pthread_mutex_unlock(&ix->mu);
    if (!ok) goto cleanup;
    f = NULL;
    rc = 0;
cleanup:
    sunset_free(names.slots);
    file_free(f);
    return rc;
}

void sunset_index_hook(void *ud, const sunset_source *src) {
    sunset_index *ix = ud;
    if (sunset_index_add(ix, src) == 0) return;
    pthread_mutex_lock(&ix->mu);
    ix->oom = true;
    pthread_mutex_unlock(&ix->mu);
}

static int cmp_file(const void *a, const void *b) {
    return strcmp((*(ix_file *const *)a)->path, (*(ix_file *const *)b)->path);
}

void sunset_index_finish(sunset_index *ix) {
    if (ix->files.n) qsort(ix->files.v, ix->files.n, sizeof(ix_file *), cmp_file);
    ix->finished = true;
}

long sunset_index_file_pos(const sunset_index *ix, const char *path) {
    size_t lo = 0, hi = ix->files.n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        int c = strcmp(VEC_AT(&ix->files, ix_file *, mid)->path, path);
        if (c == 0) return (long)mid;
        if (c < 0) lo = mid + 1;
        else hi = mid;
    }
    return -1;
}

const ix_file *sunset_index_file(const sunset_index *ix, const char *path) {
    long p = sunset_index_file_pos(ix, path);
    return p < 0 ? NULL : VEC_AT(&ix->files, ix_file *, p);
}
