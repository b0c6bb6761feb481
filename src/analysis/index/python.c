/*
 * python.c — the index's Python lexer: logical lines (brackets and backslashes join physical
 * ones), strings with their prefixes, comments; from those, imports (which names they bind),
 * classes with their bases and indentation extent, top-level functions, the names used
 * outside top-level class bodies and per class, and in tool lists the identifier-like strings.
 * A name goes into one set (outside, or the current top-level class's); the file's names are
 * their union, merged at the end. Bytes are dispatched by a table, a token's trailing spaces
 * skipped with it. A logical line is told at its first token: one py_line acts on (an import,
 * a block's head, a module-level statement, a docstring) is stored and read whole; any other
 * can only add names, and its tokens are named as they are lexed (pymode).
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
    ix_arena *a;     /* the file's strings */
    sb tmp;          /* a dotted name or a base being joined */
    const char *end; /* of the file's bytes */
    hset outside;    /* names outside top-level class bodies */
    hset cls;        /* names of the current top-level class */
    long cur_cls;    /* index of that class in f->classes, -1 = none */
    hset *names;     /* where names go now: outside or cls; the file's names are their union,
                        made at the end (one add per member, not a second per occurrence) */
    hset bare_out, bare_cls; /* the same, less the names only used as attributes (`base.core`) */
    hset *bare;      /* where bare names go now */
    vec cls_bare;    /* pybare: each closed top-level class's bare names */
    vec blocks; /* pyblock */
    vec toks;   /* tok: the current logical line's, when it is one py_line reads (PL_TOKENS) */
    int mode;   /* what the current logical line is (pymode) */
    bool after_dot; /* PL_NAMES: the line's last token was '.' */
    uint32_t line_end; /* PL_NAMES: the last line of the line's last token */
    uint32_t last_line;
    bool tools; /* a tool list: record identifier-like strings */
    bool decorator; /* the last logical line was a decorator */
    bool oom;
} pyctx;

/* A logical line, told at its first token: PL_TOKENS, one py_line reads whole (an import, a
 * block's head, a module-level statement, one starting with a string: a docstring); PL_NAMES,
 * any other, which could only add names: its tokens are named as they come, never stored. */
enum pymode { PL_NONE, PL_TOKENS, PL_NAMES };

typedef struct pybare {
    size_t cls;      /* its index in f->classes */
    uint64_t *v;     /* sorted, owned */
    size_t n;
} pybare;

static inline void py_name(pyctx *c, const char *s, size_t n) {
    if (n >= 2) ix_hset_add_nz(c->names, ix_name_hash_in(s, n, c->end));
}

/* An identifier s (n bytes): a name, and a bare one when `bare` (it follows no '.'). */
__attribute__((always_inline)) static inline void py_id_name(pyctx *c, const char *s, size_t n, bool bare) {
    if (n < 2) return;
    uint64_t h = ix_name_hash_in(s, n, c->end);
    ix_hset_add_nz(c->names, h);
    if (bare) ix_hset_add_nz(c->bare, h);
}

/* Identifier t[i] of a line: a name, and a bare one unless it follows '.' (an attribute). */
__attribute__((always_inline)) static inline void py_id(pyctx *c, const tok *t, size_t i) {
    py_id_name(c, t[i].s, t[i].n, !(i > 0 && t[i - 1].kind == TK_PUNCT && t[i - 1].n == 1 && t[i - 1].s[0] == '.'));
}

/* Close the current top-level class: its name set moves into the class. */
static void py_end_class(pyctx *c) {
    if (c->cur_cls < 0) return;
    ix_class *k = &VEC_AT(&c->f->classes, ix_class, c->cur_cls);
    if (!ix_hset_sorted(&c->cls, &k->names, &k->n_names)) c->oom = true;
    pybare b = {(size_t)c->cur_cls, NULL, 0};
    if (!ix_hset_sorted(&c->bare_cls, &b.v, &b.n) || !vec_push(&c->cls_bare, &b)) {
        sunset_free(b.v);
        c->oom = true;
    }
    sunset_free(c->cls.slots);
    memset(&c->cls, 0, sizeof c->cls);
    sunset_free(c->bare_cls.slots);
    memset(&c->bare_cls, 0, sizeof c->bare_cls);
    c->cur_cls = -1;
    c->names = &c->outside;
    c->bare = &c->bare_out;
}

static char *join_dotted(pyctx *c, const tok *t, size_t n, size_t *used) {
    /* identifiers joined by '.' tokens, leading dots kept (relative imports) */
    sb *b = &c->tmp;
    size_t i = 0;
    for (; i < n; i++) {
        if (t[i].kind == TK_ID && !(b->len && b->s[b->len - 1] != '.')) {
            if (ix_tok_is(&t[i], "import") || ix_tok_is(&t[i], "as")) break;
            sb_putn(b, t[i].s, t[i].n);
        } else if (t[i].kind == TK_PUNCT && t[i].n == 1 && t[i].s[0] == '.') {
            sb_putc(b, '.');
        } else {
            break;
        }
    }
    *used = i;
    return ix_sb_take(c->a, b);
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
            char *mod = join_dotted(c, t + i, n - i, &used);
            if (!mod) {
                c->oom = true;
                return;
            }
            i += used;
            char *alias = NULL;
            if (i + 1 < n && ix_tok_is(&t[i], "as") && t[i + 1].kind == TK_ID) {
                alias = ix_strndup(c->a, t[i + 1].s, t[i + 1].n);
                i += 2;
            }
            ix_import im = {mod, NULL, alias, line, end, false};
            if (*mod) vec_push(&c->f->imports, &im);
            while (i < n && !(t[i].kind == TK_PUNCT && t[i].s[0] == ',')) i++;
            i++;
        }
        return;
    }
    /* from X import a [as b], (c, d) */
    size_t used;
    char *mod = join_dotted(c, t + 1, n - 1, &used);
    if (!mod) {
        c->oom = true;
        return;
    }
    i = 1 + used;
    if (!*mod) return; /* "from import x" is not Python; nothing to record */
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
        char *name = ix_strndup(c->a, t[i].s, t[i].n);
        i++;
        char *alias = NULL;
        if (i + 1 < n && ix_tok_is(&t[i], "as") && t[i + 1].kind == TK_ID) {
            alias = ix_strndup(c->a, t[i + 1].s, t[i + 1].n);
            i += 2;
        }
        ix_import im = {mod, name, alias, line, end, false}; /* the module's string is shared */
        if (name) vec_push(&c->f->imports, &im);
        any = true;
    }
    (void)any;
    /* star imports: the '*' token */
    for (size_t k = 1 + used; k < n; k++) {
        if (t[k].kind == TK_PUNCT && t[k].s[0] == '*') {
            char *star = ix_strndup(c->a, "*", 1);
            ix_import im = {mod, star, NULL, line, end, true};
            if (star) vec_push(&c->f->imports, &im);
        }
    }
}

/* A class's bases: the dotted names between the brackets that open at t[0], keyword arguments
 * (metaclass=...) left out. */
static vec class_bases(pyctx *c, const tok *t, size_t n) {
    vec bases = VEC_INIT(char *);
    int depth = 0;
    sb *cur = &c->tmp;
    bool kw = false;
    for (size_t i = 0; i < n; i++) {
        const tok *x = &t[i];
        if (x->kind == TK_PUNCT && (x->s[0] == '(' || x->s[0] == '[')) {
            if (depth++ == 0) continue;
        }
        bool closes = x->kind == TK_PUNCT && (x->s[0] == ')' || x->s[0] == ']') && --depth == 0;
        if (closes || (depth == 1 && x->kind == TK_PUNCT && x->s[0] == ',')) {
            if (cur->len && !kw) {
                char *s = ix_sb_take(c->a, cur);
                if (s) vec_push(&bases, &s);
            }
            cur->len = 0;
            if (closes) break;
            kw = false;
            continue;
        }
        if (depth == 1 && x->kind == TK_PUNCT && x->s[0] == '=') kw = true;
        if (depth == 1 && (x->kind == TK_ID || (x->kind == TK_PUNCT && x->s[0] == '.')))
            sb_putn(cur, x->s, x->n);
    }
    cur->len = 0;
    return bases;
}

/* A `class` (t[k] is the keyword, t[k + 1] the name) recorded with its bases; a top-level one
 * becomes the class whose names are gathered apart. Notes its index in b. */
static void py_class(pyctx *c, const tok *t, size_t n, size_t k, bool top, bool decorated, pyblock *b) {
    ix_class ic = {ix_strndup(c->a, t[k + 1].s, t[k + 1].n), t[0].line, c->last_line, NULL, 0, top, NULL, 0, decorated, 0};
    vec bases = VEC_INIT(char *);
    if (n > k + 2 && t[k + 2].kind == TK_PUNCT && t[k + 2].s[0] == '(') bases = class_bases(c, t + k + 2, n - k - 2);
    ic.bases = bases.v;
    ic.n_bases = (uint32_t)bases.n;
    if (!ic.name || !vec_push(&c->f->classes, &ic)) {
        vec_free(&bases);
        c->oom = true;
        return;
    }
    b->cls = c->f->classes.n - 1;
    if (top) {
        c->cur_cls = (long)b->cls;
        c->names = &c->cls;
        c->bare = &c->bare_cls;
    }
}

/* A `class` or `def` line (t[k] the keyword): the block it opens, a class or a top-level
 * function recorded, the names of its head used. */
static void py_block_head(pyctx *c, const tok *t, size_t n, size_t k, bool decorated) {
    pyblock b = {SIZE_MAX, SIZE_MAX, t[0].col};
    bool top = c->blocks.n == 0;
    if (ix_tok_is(&t[k], "class")) {
        py_class(c, t, n, k, top, decorated, &b);
    } else if (top) {
        ix_func fn = {ix_strndup(c->a, t[k + 1].s, t[k + 1].n), t[0].line, c->last_line};
        if (!fn.name || !vec_push(&c->f->funcs, &fn)) c->oom = true;
        else b.func = c->f->funcs.n - 1;
    }
    if (!vec_push(&c->blocks, &b)) c->oom = true;
    for (size_t i = k + 2; i < n; i++)
        if (t[i].kind == TK_ID) py_id(c, t, i);
}

/* A module-level assignment `X = ...`: a re-export `X = mod.X` lets an importer take X from
 * mod (the alias's value is the dotted name; anything else assigns no value). */
static void py_module_alias(pyctx *c, const tok *t, size_t n) {
    if (c->blocks.n || n < 3 || t[0].kind != TK_ID || !(t[1].kind == TK_PUNCT && t[1].n == 1 && t[1].s[0] == '=') ||
        (t[2].kind == TK_PUNCT && t[2].s[0] == '='))
        return;
    bool dotted = t[0].col == 1 && t[2].kind == TK_ID;
    for (size_t i = 3; i < n && dotted; i++)
        dotted = (i % 2) ? t[i].kind == TK_PUNCT && t[i].n == 1 && t[i].s[0] == '.' : t[i].kind == TK_ID;
    dotted = dotted && n % 2 == 1;
    size_t used = 0;
    ix_alias a = {ix_strndup(c->a, t[0].s, t[0].n), dotted ? join_dotted(c, t + 2, n - 2, &used) : NULL, t[0].line};
    if (!a.name || (dotted && !a.value) || !vec_push(&c->f->aliases, &a)) c->oom = true;
}

/* A string's contents s (n bytes, on lines [line, end]) used by a line: a name when they look
 * like one; in a tool list, a word of the list too. */
static void py_str_name(pyctx *c, const char *s, uint32_t n, uint32_t line, uint32_t end) {
    uint64_t h = ix_string_name(s, n);
    if (h) {
        ix_hset_add_nz(c->names, h);
        ix_hset_add_nz(c->bare, h); /* __all__ = ["core"] */
    }
    if (c->tools && ix_looks_like_name(s, n) && !ix_word_push(c->a, &c->f->list_words, s, n, line, end)) c->oom = true;
}

/* The names a line uses: its identifiers and strings (a docstring's aside); in a tool list,
 * the identifier-like strings are words of the list too. */
static void py_line_names(pyctx *c, const tok *t, size_t n) {
    bool docstring = n == 1 && t[0].kind == TK_STR;
    for (size_t i = 0; i < n; i++) {
        if (t[i].kind == TK_ID) py_id(c, t, i);
        else if (t[i].kind == TK_STR && !docstring) py_str_name(c, t[i].s, t[i].n, t[i].line, t[i].end_line);
    }
}

/* One logical line: the blocks its indentation closes, then an import, a block's head, or a
 * statement (a module-level alias, the names it uses). */
static void py_line(pyctx *c, tok *t, size_t n) {
    if (!n) return;
    close_blocks(c, t[0].col, c->last_line);
    if (!c->blocks.n) py_end_class(c);
    c->last_line = t[n - 1].end_line;
    c->f->blank = false;
    bool decorated = c->decorator;
    c->decorator = t[0].kind == TK_PUNCT && t[0].s[0] == '@';
    if (ix_tok_is(&t[0], "import") || (ix_tok_is(&t[0], "from") && n > 1)) {
        py_import(c, t, n);
        return;
    }
    size_t k = ix_tok_is(&t[0], "async") && n > 1 ? 1 : 0;
    if (n > k + 1 && (ix_tok_is(&t[k], "class") || ix_tok_is(&t[k], "def")) && t[k + 1].kind == TK_ID) {
        py_block_head(c, t, n, k, decorated);
        return;
    }
    py_module_alias(c, t, n);
    py_line_names(c, t, n);
}

/* Is the identifier s (n bytes) a keyword py_line acts on at the start of a line? */
static bool py_head_word(const char *s, uint32_t n) {
    switch (n) {
    case 3: return !memcmp(s, "def", 3);
    case 4: return !memcmp(s, "from", 4);
    case 5: return !memcmp(s, "class", 5) || !memcmp(s, "async", 5);
    case 6: return !memcmp(s, "import", 6);
    default: return false;
    }
}

/* A logical line's first token (kind, s, n bytes, at column col): the blocks its indentation
 * closes (as py_line would: nothing changes them before it), and which pymode the line is. A
 * line opening with a keyword py_line acts on, a string, or an identifier at module level (an
 * alias `X = mod.X`) is read whole; any other (punctuation, a number, an identifier inside a
 * block) only uses names, as py_line_names would find them. */
static int py_line_kind(pyctx *c, tk kind, const char *s, uint32_t n, uint32_t col) {
    close_blocks(c, col, c->last_line);
    if (!c->blocks.n) py_end_class(c);
    c->f->blank = false;
    if (kind == TK_STR || (kind == TK_ID && (!c->blocks.n || py_head_word(s, n)))) return PL_TOKENS;
    c->decorator = kind == TK_PUNCT && s[0] == '@';
    return PL_NAMES;
}

/* A token of the current logical line: stored for py_line, or named now (an identifier is a
 * bare name unless it follows '.'; a string as py_str_name says). */
static inline void py_tok(pyctx *c, tk kind, const char *s, uint32_t n, uint32_t line, uint32_t end_line,
                          uint32_t col) {
    if (c->mode == PL_NONE) c->mode = py_line_kind(c, kind, s, n, col);
    if (c->mode == PL_TOKENS) {
        if (!ix_tok_add(&c->toks, kind, s, n, line, end_line, col)) c->oom = true;
        return;
    }
    c->line_end = end_line;
    if (kind == TK_ID) {
        py_id_name(c, s, n, !c->after_dot);
    } else if (kind == TK_STR) {
        py_str_name(c, s, n, line, end_line);
    }
    c->after_dot = kind == TK_PUNCT && s[0] == '.';
}

/* The end of a logical line that has tokens. */
static void py_line_end(pyctx *c) {
    if (c->mode == PL_TOKENS) py_line(c, c->toks.v, c->toks.n);
    else c->last_line = c->line_end;
    c->toks.n = 0;
    c->mode = PL_NONE;
    c->after_dot = false;
}

/* Two sorted sets' union into out (room for na + nb); returns its size. */
static size_t merge_sorted(const uint64_t *a, size_t na, const uint64_t *b, size_t nb, uint64_t *out) {
    size_t i = 0, j = 0, n = 0;
    while (i < na && j < nb) {
        uint64_t x = a[i] <= b[j] ? a[i] : b[j];
        i += a[i] == x;
        j += b[j] == x;
        out[n++] = x;
    }
    while (i < na) out[n++] = a[i++];
    while (j < nb) out[n++] = b[j++];
    return n;
}

/* The file's names: those outside top-level class bodies and those of each such class, their
 * union merged from the sorted sets (into f->names) when there are few classes, else added to
 * the set *names. False on OOM. */
static bool file_names(ix_file *f, hset *names) {
    size_t total = f->n_outside, sets = 0;
    for (size_t k = 0; k < f->classes.n; k++) {
        const ix_class *cl = &VEC_AT(&f->classes, ix_class, k);
        total += cl->n_names;
        sets += cl->n_names > 0;
    }
    if (sets > 8) { /* a merge per class would be quadratic */
        for (size_t i = 0; i < f->n_outside; i++) ix_hset_add_nz(names, f->outside[i]);
        for (size_t k = 0; k < f->classes.n; k++) {
            const ix_class *cl = &VEC_AT(&f->classes, ix_class, k);
            for (size_t i = 0; i < cl->n_names; i++) ix_hset_add_nz(names, cl->names[i]);
        }
        return !names->oom;
    }
    if (!total) return true;
    uint64_t *u = sunset_malloc(total * sizeof *u), *tmp = sunset_malloc(total * sizeof *tmp);
    if (!u || !tmp) {
        sunset_free(u);
        sunset_free(tmp);
        return false;
    }
    size_t n = f->n_outside;
    if (n) memcpy(u, f->outside, n * sizeof *u);
    for (size_t k = 0; k < f->classes.n; k++) {
        const ix_class *cl = &VEC_AT(&f->classes, ix_class, k);
        if (!cl->n_names) continue;
        n = merge_sorted(u, n, cl->names, cl->n_names, tmp);
        uint64_t *t = u;
        u = tmp;
        tmp = t;
    }
    sunset_free(tmp);
    f->names = u; /* packing copies it at its size */
    f->n_names = n;
    return true;
}

/* What a byte starts, for the lexer's dispatch. PB_PREFIX: r b u f in either case, the letters
 * of a string prefix (rb"", F''), else an identifier's. */
enum { PB_PUNCT, PB_NL, PB_BLANK, PB_ID, PB_PREFIX, PB_DIGIT, PB_QUOTE, PB_HASH, PB_BSLASH, PB_OPEN, PB_CLOSE };
static const unsigned char py_byte[256] = {
    ['\n'] = PB_NL, [' '] = PB_BLANK, ['\t'] = PB_BLANK, ['\r'] = PB_BLANK, ['\f'] = PB_BLANK,
    ['0'] = PB_DIGIT, ['1'] = PB_DIGIT, ['2'] = PB_DIGIT, ['3'] = PB_DIGIT, ['4'] = PB_DIGIT,
    ['5'] = PB_DIGIT, ['6'] = PB_DIGIT, ['7'] = PB_DIGIT, ['8'] = PB_DIGIT, ['9'] = PB_DIGIT,
    ['"'] = PB_QUOTE, ['\''] = PB_QUOTE, ['#'] = PB_HASH, ['\\'] = PB_BSLASH,
    ['('] = PB_OPEN, ['['] = PB_OPEN, ['{'] = PB_OPEN, [')'] = PB_CLOSE, [']'] = PB_CLOSE, ['}'] = PB_CLOSE,
    ['_'] = PB_ID,
    ['A'] = PB_ID, ['B'] = PB_PREFIX, ['C'] = PB_ID, ['D'] = PB_ID, ['E'] = PB_ID, ['F'] = PB_PREFIX, ['G'] = PB_ID,
    ['H'] = PB_ID, ['I'] = PB_ID, ['J'] = PB_ID, ['K'] = PB_ID, ['L'] = PB_ID, ['M'] = PB_ID, ['N'] = PB_ID,
    ['O'] = PB_ID, ['P'] = PB_ID, ['Q'] = PB_ID, ['R'] = PB_PREFIX, ['S'] = PB_ID, ['T'] = PB_ID, ['U'] = PB_PREFIX,
    ['V'] = PB_ID, ['W'] = PB_ID, ['X'] = PB_ID, ['Y'] = PB_ID, ['Z'] = PB_ID,
    ['a'] = PB_ID, ['b'] = PB_PREFIX, ['c'] = PB_ID, ['d'] = PB_ID, ['e'] = PB_ID, ['f'] = PB_PREFIX, ['g'] = PB_ID,
    ['h'] = PB_ID, ['i'] = PB_ID, ['j'] = PB_ID, ['k'] = PB_ID, ['l'] = PB_ID, ['m'] = PB_ID, ['n'] = PB_ID,
    ['o'] = PB_ID, ['p'] = PB_ID, ['q'] = PB_ID, ['r'] = PB_PREFIX, ['s'] = PB_ID, ['t'] = PB_ID, ['u'] = PB_PREFIX,
    ['v'] = PB_ID, ['w'] = PB_ID, ['x'] = PB_ID, ['y'] = PB_ID, ['z'] = PB_ID,
};

/* A string token from q, the opening quote (after its prefix, if any; on line *line at column
 * col): to py_tok; the lexer's position and line move past it. */
static void py_string_tok(pyctx *c, const char *q, const char *end, const char **pos, uint32_t *line, uint32_t col) {
    char qc = *q;
    bool triple = end - q > 2 && q[1] == qc && q[2] == qc;
    const char *s = q + (triple ? 3 : 1), *e = s;
    uint32_t l2 = *line;
    while ((e = ix_find3(e, end, qc, '\\', '\n')) < end) { /* other bytes change nothing */
        if (*e == '\\' && e + 1 < end) {
            if (e[1] == '\n') l2++;
            e += 2;
            continue;
        }
        if (*e == '\n') {
            if (!triple) break;
            l2++;
        }
        if (*e == qc && (!triple || (end - e > 2 && e[1] == qc && e[2] == qc))) break;
        e++;
    }
    const char *stop = e < end ? e + (triple ? 3 : 1) : e;
    *pos = stop > end ? end : stop;
    py_tok(c, TK_STR, s, (uint32_t)(e - s), *line, l2, col);
    *line = l2;
}

static bool hset_has(const hset *h, uint64_t v) {
    if (!h->cap) return false;
    if (!v) v = 1;
    for (size_t k = ix_hset_slot(h, v); h->slots[k]; k = (k + 1) & (h->cap - 1))
        if (h->slots[k] == v) return true;
    return false;
}

static bool sorted_has(const uint64_t *v, size_t n, uint64_t h) {
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (v[mid] < h) lo = mid + 1;
        else hi = mid;
    }
    return lo < n && v[lo] == h;
}

/* f->attr: each name an import binds that a scope (outside top-level classes, one such class,
 * the whole file) uses only as an attribute (`base.core` when `core` is imported), keyed by
 * ix_attr_key. The names a scope uses are then those of its set less these. */
static bool attr_only(pyctx *c) {
    ix_file *f = c->f;
    hset out = {0};
    for (size_t i = 0; i < f->imports.n && !out.oom; i++) {
        const ix_import *m = &VEC_AT(&f->imports, ix_import, i);
        if (m->name && !strcmp(m->name, "*")) continue;
        char first[256];
        const char *b = ix_import_bound(m, first, sizeof first);
        size_t bn = strlen(b);
        if (bn < 2) continue;
        uint64_t h = ix_name_hash(b, bn);
        h = h ? h : 1;
        bool any = false, bare = false;
        if (sorted_has(f->outside, f->n_outside, h)) {
            any = true;
            if (hset_has(&c->bare_out, h)) bare = true;
            else ix_hset_add(&out, ix_attr_key(h, -1));
        }
        for (size_t q = 0; q < c->cls_bare.n; q++) {
            const pybare *pb = &VEC_AT(&c->cls_bare, pybare, q);
            const ix_class *k = &VEC_AT(&f->classes, ix_class, pb->cls);
            if (!sorted_has(k->names, k->n_names, h)) continue;
            any = true;
            if (sorted_has(pb->v, pb->n, h)) bare = true;
            else ix_hset_add(&out, ix_attr_key(h, (long)pb->cls));
        }
        if (any && !bare) ix_hset_add(&out, ix_attr_key(h, -2));
    }
    bool ok = ix_hset_sorted(&out, &f->attr, &f->n_attr);
    sunset_free(out.slots);
    return ok;
}

int ix_lex_python(ix_file *f, ix_arena *a, const char *d, size_t len, hset *names) {
    pyctx c = {.f = f, .a = a, .end = d + len, .cur_cls = -1, .blocks = VEC_INIT(pyblock)};
    c.names = &c.outside;
    c.bare = &c.bare_out;
    c.cls_bare = VEC_INIT(pybare);
    if (!ix_hset_reserve(&c.outside, len / 48)) return -1; /* about the real Paddle tree's */
    c.tools = strncmp(f->path, "tools/", 6) == 0 || strstr(f->path, "/tools/") != NULL;
    c.toks = VEC_INIT(tok);
    uint32_t line = 1, col = 1;
    int depth = 0;
    const char *p = d, *end = d + len;
    while (p < end) { /* out of memory is looked at once a line: a load per byte was 2% of the lexer */
        unsigned char ch = (unsigned char)*p;
        tk kind = TK_PUNCT;
        const char *e = p + 1;
        switch (py_byte[ch]) {
        case PB_NL:
            if (depth == 0 && c.mode) py_line_end(&c);
            if (c.oom) p = end - 1; /* the rest is not read */
            line++;
            col = 1;
            p++;
            continue;
        case PB_BLANK: /* every blank byte is a column */
            for (;;) {
                e = ix_spaces_end(e, end);
                if (e < end && py_byte[(unsigned char)*e] == PB_BLANK) e++;
                else break;
            }
            col += (uint32_t)(e - p);
            p = e;
            continue;
        case PB_BSLASH:
            if (e < end && *e == '\n') {
                p += 2;
                line++;
                col = 1;
                continue;
            }
            break;
        case PB_HASH: {
            const char *nl = memchr(p, '\n', (size_t)(end - p));
            p = nl ? nl : end;
            continue;
        }
        case PB_QUOTE:
        case PB_PREFIX: { /* a string, its quote after up to three of r b u f */
            const char *q = p;
            while (q < end && q - p < 3 && (py_byte[(unsigned char)*q] == PB_PREFIX)) q++;
            if (q < end && py_byte[(unsigned char)*q] == PB_QUOTE) {
                const char *stop;
                py_string_tok(&c, q, end, &stop, &line, col);
                col += (uint32_t)(stop - p);
                p = stop;
                continue;
            }
        }
            /* fall through - the letters without a quote: an identifier */
        case PB_ID:
            e = ix_id_end(e, end);
            kind = TK_ID;
            break;
        case PB_DIGIT:
            while (e < end && (id_char((unsigned char)*e) || *e == '.')) e++;
            kind = TK_NUM;
            break;
        case PB_OPEN: depth++; break;
        case PB_CLOSE:
            if (depth > 0) depth--;
            break;
        }
        py_tok(&c, kind, p, (uint32_t)(e - p), line, line, col);
        /* the spaces after a token, without a dispatch of their own: each is a column */
        while (e < end && *e == ' ') e++;
        col += (uint32_t)(e - p);
        p = e;
    }
    if (c.mode && !c.oom) py_line_end(&c);
    close_blocks(&c, 0, c.last_line ? c.last_line : 1);
    py_end_class(&c);
    if (!c.oom && !ix_hset_sorted(&c.outside, &f->outside, &f->n_outside)) c.oom = true;
    if (!c.oom && !file_names(f, names)) c.oom = true;
    if (!c.oom && !attr_only(&c)) c.oom = true;
    sunset_free(c.outside.slots);
    sunset_free(c.cls.slots);
    sunset_free(c.bare_out.slots);
    sunset_free(c.bare_cls.slots);
    for (size_t q = 0; q < c.cls_bare.n; q++) sunset_free(VEC_AT(&c.cls_bare, pybare, q).v);
    vec_free(&c.cls_bare);
    sb_free(&c.tmp);
    vec_free(&c.toks);
    vec_free(&c.blocks);
    return c.oom ? -1 : 0;
}
