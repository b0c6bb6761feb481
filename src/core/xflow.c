/*
 * xflow.c — legacy-object flow across Python modules (xflow.h). A module's exports come from
 * its flow (core/flow.c flow_exports: module-level names whose last binding is a legacy
 * object), its imports from a scan of its import statements' text (every `import` and `from
 * ... import` statement, wherever it stands; parentheses and backslashes join lines), each
 * resolved to a walked file: `from .trainer import x` beside the importer (a dot per package
 * level), `from trainer import x` beside it, at the root or under an import root; `from pkg
 * import trainer` and `import trainer` bind the module itself, whose exports are then
 * `trainer.x`. An importer's premarks are the imported names some module exports: `from
 * trainer import train_exe as exe` gives `exe`, `import trainer` gives `trainer.train_exe`,
 * `from trainer import *` every export; a function returning a legacy object is exported as
 * "build()", and `from trainer import build` premarks "build()": its calls hold the object. The other way, a module that passes a legacy object to
 * a function it imports (`evaluate(exe)`, `ev.check(runner=exe)`: exports "@evaluate#0",
 * "@ev.check#=runner") gives that function's module the premark "@evaluate#0" ("@check#=runner"),
 * which binds the parameter (argument_premarks). Not followed: a module that re-exports what it
 * imported (one step only).
 */
#include "core/xflow.h"

#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "core/lang.h"

typedef struct ximport {
    char *local;   /* the name the importer binds: "exe", "trainer", "" for a star import */
    size_t target; /* the module's index in x->py */
    char *name;    /* the imported name; NULL: the module itself; "*": every export */
} ximport;

typedef struct xpy {
    const char *path; /* first: cmp_str and find_py read it as the element */
    size_t at;        /* its index among xflow_new's paths */
} xpy;

struct xflow {
    const sunset_ruleset *rs;
    xpy *py; /* sorted by path */
    size_t n_py;
    char **exports;  /* per module: "RULE\tname\n" lines, owned; NULL none */
    char **kept;     /* per module: its import statements as noted, one a line, when kept; owned */
    char **stmts;    /* per module: its import statements, '\n'-separated, until xflow_importers
                        resolves them; owned; NULL none or not noted */
    vec *imports;    /* per module: ximport */
    _Atomic size_t n_exporters; /* modules with exports: the resolving step's names follow it */
    size_t resolved;            /* statements resolved (xflow_resolved) */
    bool *anchored;  /* per module: its first scan was run (not replayed) and tied it to Paddle */
    /* a module's name as a path without its tail ("a/b" for a/b.py and a/b/__init__.py) ->
     * the module, open addressing: every import statement of every module tries a few
     * candidates, and a binary search of strcmp per candidate and tail was most of it */
    struct xslot *slots;
    size_t cap; /* a power of two, or 0 (then the binary search) */
};

static int cmp_str(const void *a, const void *b) { return strcmp(*(const char *const *)a, *(const char *const *)b); }

typedef struct xslot {
    uint64_t hash;        /* 0 = empty */
    const char *name;     /* a prefix of a module's path */
    size_t len;
    long py, init;        /* NAME.py, NAME/__init__.py ("__init__.py" for "" at the root): -1 none */
} xslot;

static uint64_t name_hash(const char *s, size_t n) {
    uint64_t h = hash64(s, n, 0x70797468ull); /* "pyth" */
    return h ? h : 1;
}

static xslot *slot_of(const xflow *x, const char *name, size_t len) {
    uint64_t h = name_hash(name, len);
    size_t k = h & (x->cap - 1);
    while (x->slots[k].hash && !(x->slots[k].hash == h && x->slots[k].len == len && !memcmp(x->slots[k].name, name, len)))
        k = (k + 1) & (x->cap - 1);
    x->slots[k].hash = h;
    return &x->slots[k];
}

static void table_put(xflow *x, size_t i, size_t len, bool init) {
    xslot *e = slot_of(x, x->py[i].path, len);
    if (!e->name) {
        e->name = x->py[i].path;
        e->len = len;
        e->py = e->init = -1;
    }
    if (init) e->init = (long)i;
    else e->py = (long)i;
}

/* The table; without it (out of memory) module_at falls back to the binary search. */
static void build_table(xflow *x) {
    size_t cap = 16;
    while (cap < x->n_py * 4) cap *= 2; /* at most two names a module, half full */
    if (!(x->slots = sunset_calloc(cap, sizeof *x->slots))) return;
    x->cap = cap;
    for (size_t i = 0; i < x->n_py; i++) {
        const char *p = x->py[i].path;
        size_t n = strlen(p);
        if (n >= 3 && !strcmp(p + n - 3, ".py")) table_put(x, i, n - 3, false);
        if (!strcmp(p, "__init__.py")) table_put(x, i, 0, true);
        else if (n > 12 && !strcmp(p + n - 12, "/__init__.py")) table_put(x, i, n - 12, true);
    }
}

/* The module whose name (a path without its tail) is name[0..len), by the table: NAME.py
 * before NAME/__init__.py, or only the package (any false); -1 none. */
static long table_module(const xflow *x, const char *name, size_t len, bool any) {
    uint64_t h = name_hash(name, len);
    for (size_t k = h & (x->cap - 1); x->slots[k].hash; k = (k + 1) & (x->cap - 1)) {
        const xslot *e = &x->slots[k];
        if (e->hash != h || e->len != len || memcmp(e->name, name, len)) continue;
        return any && e->py >= 0 ? e->py : e->init;
    }
    return -1;
}

xflow *xflow_new(const sunset_ruleset *rs, char *const *paths, size_t n) {
    xflow *x = sunset_calloc(1, sizeof *x);
    if (!x || !(x->py = sunset_calloc(n ? n : 1, sizeof *x->py))) return sunset_free(x), NULL;
    x->rs = rs;
    for (size_t i = 0; i < n; i++)
        if (sunset_lang_for_path(paths[i]) == SUNSET_LANG_PYTHON) x->py[x->n_py++] = (xpy){paths[i], i};
    if (x->n_py) qsort(x->py, x->n_py, sizeof *x->py, cmp_str);
    x->exports = sunset_calloc(x->n_py ? x->n_py : 1, sizeof *x->exports);
    x->imports = sunset_calloc(x->n_py ? x->n_py : 1, sizeof *x->imports);
    x->kept = sunset_calloc(x->n_py ? x->n_py : 1, sizeof *x->kept);
    x->stmts = sunset_calloc(x->n_py ? x->n_py : 1, sizeof *x->stmts);
    x->anchored = sunset_calloc(x->n_py ? x->n_py : 1, sizeof *x->anchored);
    if (!x->exports || !x->imports || !x->kept || !x->stmts || !x->anchored) return xflow_free(x), NULL;
    for (size_t i = 0; i < x->n_py; i++) x->imports[i] = VEC_INIT(ximport);
    build_table(x);
    return x;
}

void xflow_free(xflow *x) {
    if (!x) return;
    for (size_t i = 0; i < x->n_py; i++) {
        if (x->exports) sunset_free(x->exports[i]);
        if (x->kept) sunset_free(x->kept[i]);
        if (x->stmts) sunset_free(x->stmts[i]);
        for (size_t k = 0; x->imports && k < x->imports[i].n; k++) {
            sunset_free(VEC_AT(&x->imports[i], ximport, k).local);
            sunset_free(VEC_AT(&x->imports[i], ximport, k).name);
        }
        if (x->imports) vec_free(&x->imports[i]);
    }
    sunset_free(x->exports);
    sunset_free(x->kept);
    sunset_free(x->stmts);
    sunset_free(x->anchored);
    sunset_free(x->imports);
    sunset_free(x->py);
    sunset_free(x->slots);
    sunset_free(x);
}

static long find_py(const xflow *x, const char *path) {
    if (!x) return -1;
    const xpy *hit = bsearch(&path, x->py, x->n_py, sizeof *x->py, cmp_str);
    return hit ? (long)(hit - x->py) : -1;
}

bool xflow_has(const xflow *x, const char *path) { return find_py(x, path) >= 0; }

/* ---- resolving a module ---- */

/* dir (a path's directory, "" = the root) + rest ("a/b") as a module file, or -1. */
static long module_at(const xflow *x, const char *dir, size_t dn, const char *rest, size_t rn) {
    static const char *const tails[] = {".py", "/__init__.py"};
    char p[1024];
    /* "dir/rest" once, then each tail after it: snprintf per candidate was two thirds of the
     * import scan (every import statement of every Python file, perf) */
    bool sep = dn != 0, any = rn != 0; /* as given: "%.*s" stops at a NUL, these do not */
    dn = strnlen(dir, dn);
    rn = strnlen(rest, rn);
    size_t k = dn + sep + rn;
    if (k >= sizeof p) return -1; /* no candidate fits */
    memcpy(p, dir, dn);
    if (sep) p[dn] = '/';
    memcpy(p + k - rn, rest, rn);
    if (x->cap) { /* the candidates' longest form must fit as below: ".py" or "/__init__.py" */
        long i = table_module(x, p, any ? k : dn, any);
        const char *path = i >= 0 ? x->py[i].path : NULL;
        return path && strlen(path) < sizeof p ? i : -1;
    }
    for (int t = 0; t < 2; t++) {
        const char *tail = any ? tails[t] : "__init__.py";
        size_t tn = strlen(tail);
        if (k + tn < sizeof p) {
            memcpy(p + k, tail, tn + 1);
            long i = find_py(x, p);
            if (i >= 0) return i;
        }
        if (!any) break;
    }
    return -1;
}

/* The module `mod` ("a.b", ".a", "..") names in the file at path, or -1. */
static long resolve(const xflow *x, const char *path, const char *mod) {
    const char *slash = strrchr(path, '/');
    size_t dn = slash ? (size_t)(slash - path) : 0;
    size_t dots = strspn(mod, ".");
    sb rest = {0};
    sb_puts(&rest, mod + dots);
    for (size_t i = 0; i < rest.len; i++)
        if (rest.s[i] == '.') rest.s[i] = '/';
    long hit = -1;
    if (rest.oom) return -1;
    if (dots) {
        for (size_t up = 1; up < dots && dn; up++) { /* `..`: the package above */
            const char *s = memrchr(path, '/', dn);
            dn = s ? (size_t)(s - path) : 0;
        }
        hit = module_at(x, path, dn, rest.s ? rest.s : "", rest.len);
    } else if (rest.len) {
        hit = module_at(x, path, dn, rest.s, rest.len); /* a script's sibling */
        if (hit < 0) hit = module_at(x, "", 0, rest.s, rest.len);
        const vec *roots = &x->rs->cross_file.import_roots;
        for (size_t r = 0; hit < 0 && r < roots->n; r++) {
            const char *root = VEC_AT(roots, char *, r);
            size_t rl = strlen(root);
            while (rl && root[rl - 1] == '/') rl--;
            hit = module_at(x, root, rl, rest.s, rest.len);
        }
    }
    sb_free(&rest);
    return hit;
}

/* ---- reading import statements ---- */

static bool add_import(xflow *x, long importer, long target, const char *local, size_t ln, const char *name,
                       size_t nn) {
    ximport im = {sunset_strndup(local, ln), (size_t)target, name ? sunset_strndup(name, nn) : NULL};
    if (!im.local || (name && !im.name) || !vec_push(&x->imports[importer], &im)) {
        sunset_free(im.local);
        sunset_free(im.name);
        return false;
    }
    return true;
}

/* The words of one statement (its text with brackets, commas and continuations blanked). */
#define MAX_WORDS 64
static size_t words_of(char *s, char **w) {
    size_t n = 0;
    for (char *p = s; *p;) {
        while (*p == ' ') p++;
        if (!*p) break;
        w[n++] = p;
        while (*p && *p != ' ') p++;
        if (*p) *p++ = 0;
        if (n == MAX_WORDS) break;
    }
    return n;
}

static void note_statement(xflow *x, long me, const char *path, char *const *w, size_t n) {
    if (n >= 2 && !strcmp(w[0], "import")) {
        for (size_t i = 1; i < n; i++) { /* import a.b [as c], d */
            bool as = i + 2 < n && !strcmp(w[i + 1], "as");
            long t = resolve(x, path, w[i]);
            const char *local = as ? w[i + 2] : w[i];
            if (t >= 0) add_import(x, me, t, local, strlen(local), NULL, 0);
            i += as ? 2 : 0;
        }
    } else if (n >= 4 && !strcmp(w[0], "from") && !strcmp(w[2], "import")) {
        long t = resolve(x, path, w[1]);
        for (size_t i = 3; i < n; i++) { /* from m import a [as b], c */
            bool as = i + 2 < n && !strcmp(w[i + 1], "as");
            const char *local = as ? w[i + 2] : w[i];
            sb sub = {0}; /* m.a, or .a after a bare `from . import` */
            sb_puts(&sub, w[1]);
            if (w[1][strlen(w[1]) - 1] != '.') sb_putc(&sub, '.');
            sb_puts(&sub, w[i]);
            long m = strcmp(w[i], "*") && !sub.oom ? resolve(x, path, sub.s) : -1; /* from pkg import module */
            sb_free(&sub);
            if (m >= 0) add_import(x, me, m, local, strlen(local), NULL, 0);
            else if (t >= 0) add_import(x, me, t, strcmp(w[i], "*") ? local : "", strcmp(w[i], "*") ? strlen(local) : 0,
                                        w[i], strlen(w[i]));
            i += as ? 2 : 0;
        }
    }
}

/* One statement from p: its text up to a newline outside brackets (a backslash continues
 * it), a ';' or a '#', with brackets and commas as spaces. Returns where it ended. */
static const char *statement_at(const char *p, const char *end, sb *out) {
    int depth = 0;
    char buf[256]; /* the text goes out a buffer at a time, not a call per byte */
    size_t k = 0;
    for (; p < end; p++) {
        char c = *p;
        if (c == '\\' && p + 1 < end && (p[1] == '\n' || p[1] == '\r')) {
            p++;
            continue;
        }
        if ((c == '\n' && !depth) || c == ';' || c == '#') break;
        if (c == '(') depth++;
        else if (c == ')') depth -= depth > 0;
        buf[k++] = c == '(' || c == ')' || c == ',' || c == '\n' || c == '\r' || c == '\t' ? ' ' : c;
        if (k == sizeof buf) {
            sb_putn(out, buf, k);
            k = 0;
        }
    }
    if (k) sb_putn(out, buf, k);
    return p;
}

/* The end of the spaces and tabs from q (a line's indentation), 16 bytes at a time with SSE2. */
static inline const char *blanks_end(const char *q, const char *end) {
#ifdef __SSE2__
    const __m128i sp = _mm_set1_epi8(' '), tab = _mm_set1_epi8('\t');
    for (; end - q >= 16; q += 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)q);
        unsigned m = ~(unsigned)_mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(v, sp), _mm_cmpeq_epi8(v, tab))) & 0xffffu;
        if (m) return q + __builtin_ctz(m);
    }
#endif
    while (q < end && (*q == ' ' || *q == '\t')) q++;
    return q;
}

/* Could the line starting at l start an import statement: 'f' or 'i' past its blanks? Where
 * that byte is, or NULL. */
static inline const char *candidate_line(const char *l, const char *end) {
    const char *q = blanks_end(l, end);
    return q < end && (*q == 'f' || *q == 'i') ? q : NULL;
}

/* The first byte past the blanks of the first line after p whose first byte past blanks is
 * 'f' or 'i' (one that could start an import statement), or end: the newlines found 16 bytes
 * at a time with SSE2, not by a memchr per line (every line of every Python module of the
 * scan), and the blanks passed once, not again by the caller byte by byte. */
static const char *next_candidate(const char *p, const char *end) {
    const char *q;
#ifdef __SSE2__
    const __m128i nl = _mm_set1_epi8('\n');
    for (; end - p >= 16; p += 16) {
        unsigned m = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(const void *)p), nl));
        for (; m; m &= m - 1)
            if ((q = candidate_line(p + __builtin_ctz(m) + 1, end))) return q;
    }
#endif
    while (p < end && (p = memchr(p, '\n', (size_t)(end - p))))
        if ((q = candidate_line(++p, end))) return q;
    return end;
}

const char *xflow_note_imports(xflow *x, const char *path, const char *data, size_t len, bool keep) {
    long me = find_py(x, path);
    if (me < 0) return NULL;
    const char *end = data + len;
    sb kept = {0}, stmts = {0};
    bool first = !x->stmts[me]; /* noted again (a rescan under premarks): resolved already */
    sb st = {0}; /* one statement's text, the buffer reused */
    for (const char *p = data; p < end;) {
        while (p < end && (*p == ' ' || *p == '\t')) p++;
        bool head = (end - p > 5 && !memcmp(p, "from ", 5)) || (end - p > 7 && !memcmp(p, "import ", 7));
        if (head) {
            st.len = 0;
            p = statement_at(p, end, &st); /* never empty: it starts with its head */
            size_t n = st.s ? strlen(st.s) : 0; /* to its first NUL, as read */
            /* kept as read: no bracket, comma or newline is left in it, and the space before
             * the newline keeps a last backslash from continuing it */
            if (keep && !st.oom && st.s) sb_putn(&kept, st.s, n), sb_putn(&kept, " \n", 2);
            if (first && !st.oom && st.s) sb_putn(&stmts, st.s, n), sb_putc(&stmts, '\n');
            kept.oom |= st.oom;
            stmts.oom |= st.oom;
            const char *nl = memchr(p, '\n', (size_t)(end - p));
            p = nl ? nl + 1 : end;
            continue;
        }
        p = next_candidate(p, end); /* the lines between start no statement */
    }
    sb_free(&st);
    if (keep && !kept.oom && !x->kept[me]) x->kept[me] = kept.len ? sb_take(&kept) : sunset_strndup("\n", 1);
    sb_free(&kept);
    /* resolved once every module's exports are known (xflow_importers): most statements then
     * need no resolving at all (resolve_module); out of memory, as before, notes none */
    if (first && !stmts.oom) x->stmts[me] = stmts.len ? sb_take(&stmts) : sunset_strndup("", 0);
    sb_free(&stmts);
    return keep ? x->kept[me] : NULL;
}

const char *xflow_note_exports(xflow *x, const char *path, const char *text, size_t len) {
    long me = find_py(x, path);
    if (me < 0) return NULL;
    if (len && !x->exports[me] && (x->exports[me] = sunset_strndup(text, len))) x->n_exporters++;
    return x->exports[me] ? x->exports[me] : "\n";
}

void xflow_note_anchored(xflow *x, const char *path) {
    long me = find_py(x, path);
    if (me >= 0) x->anchored[me] = true;
}

/* ---- premarks ---- */

static void premarks_of(const xflow *x, size_t i, sb *out) {
    for (size_t k = 0; k < x->imports[i].n; k++) {
        const ximport *im = &VEC_AT(&x->imports[i], ximport, k);
        const char *ex = x->exports[im->target];
        if (!ex || im->target == i) continue;
        for (const char *line = ex; *line;) {
            const char *tab = strchr(line, '\t'), *nl = strchr(line, '\n');
            if (!tab || !nl || tab > nl) break;
            const char *name = tab + 1;
            size_t nn = (size_t)(nl - name);
            if (*name == '@') /* an argument the module passes out (argument_premarks) */
                ;
            else if (!im->name)
                sb_printf(out, "%.*s\t%s.%.*s\n", (int)(tab - line), line, im->local, (int)nn, name);
            else if (!strcmp(im->name, "*"))
                sb_printf(out, "%.*s\t%.*s\n", (int)(tab - line), line, (int)nn, name);
            else if (strlen(im->name) == nn && !memcmp(im->name, name, nn))
                sb_printf(out, "%.*s\t%s\n", (int)(tab - line), line, im->local);
            else if (nn > 2 && !memcmp(name + nn - 2, "()", 2) && strlen(im->name) == nn - 2 &&
                     !memcmp(im->name, name, nn - 2)) /* a function returning the object */
                sb_printf(out, "%.*s\t%s()\n", (int)(tab - line), line, im->local);
            line = nl + 1;
        }
    }
}

/* ---- resolving the import statements, once the exports are known ---- */

/* The name a module is imported by, its path's last component without the tail: "trainer"
 * for a/trainer.py and a/trainer/__init__.py, "" for the root's __init__.py. */
static void module_word(const char *path, const char **w, size_t *n) {
    size_t len = strlen(path);
    if (len >= 11 && !strcmp(path + len - 11, "__init__.py") && (len == 11 || path[len - 12] == '/'))
        len = len == 11 ? 0 : len - 12;
    else if (len >= 3 && !strcmp(path + len - 3, ".py"))
        len -= 3;
    const char *s = memrchr(path, '/', len);
    *w = s ? s + 1 : path;
    *n = (size_t)(path + len - *w);
}

/* The names of the modules with exports (module_word), as a set: open addressing by hash. */
typedef struct names {
    uint64_t *h; /* 0 = empty */
    size_t cap;
    size_t built_at; /* x->n_exporters when built */
} names;

static uint64_t word_hash(const char *s, size_t n) {
    uint64_t h = hash64(s, n, 0x776f7264ull); /* "word" */
    return h ? h : 1;
}

static bool names_has(const names *ns, const char *s, size_t n) {
    uint64_t h = word_hash(s, n);
    for (size_t k = h & (ns->cap - 1); ns->h[k]; k = (k + 1) & (ns->cap - 1))
        if (ns->h[k] == h) return true; /* a colliding hash only resolves one more statement */
    return false;
}

static bool names_build(const xflow *x, names *ns) {
    sunset_free(ns->h);
    ns->built_at = x->n_exporters;
    ns->cap = 16;
    while (ns->cap < ns->built_at * 2 + 2) ns->cap *= 2;
    if (!(ns->h = sunset_calloc(ns->cap, sizeof *ns->h))) return false;
    for (size_t i = 0; i < x->n_py; i++) {
        if (!x->exports[i]) continue;
        const char *w;
        size_t n;
        module_word(x->py[i].path, &w, &n);
        uint64_t h = word_hash(w, n);
        size_t k = h & (ns->cap - 1);
        while (ns->h[k] && ns->h[k] != h) k = (k + 1) & (ns->cap - 1);
        ns->h[k] = h;
    }
    return true;
}

/* Can the statement's words name a module with exports? Every module a statement resolves to
 * is named by one of its words: the module's name (module_word) is that word's last dotted
 * part ("b" of `import a.b`, of `from a.b import c` and of `from a import b`), or the word is
 * dots alone (`from .. import x`: the package above). A statement that cannot adds no import
 * a premark would come from (premarks_of skips a target without exports). */
static bool may_name_exporter(const names *ns, char *const *w, size_t n) {
    for (size_t i = 0; i < n; i++) {
        size_t len = strlen(w[i]);
        if (strspn(w[i], ".") == len) return true;
        const char *dot = memrchr(w[i], '.', len), *last = dot ? dot + 1 : w[i];
        if (names_has(ns, last, (size_t)(w[i] + len - last))) return true;
    }
    return false;
}

/* Module i's noted statements resolved into its imports, those that may matter only. */
static void resolve_module(xflow *x, size_t i, const names *ns) {
    char *text = x->stmts[i];
    if (!text) return;
    for (char *line = text, *nl; *line; line = nl + 1) {
        nl = strchr(line, '\n');
        if (!nl) break;
        *nl = 0;
        char *w[MAX_WORDS];
        size_t n = words_of(line, w);
        if (ns->h && !may_name_exporter(ns, w, n)) continue;
        note_statement(x, (long)i, x->py[i].path, w, n);
        x->resolved++;
    }
    sunset_free(text);
    x->stmts[i] = NULL;
}

/* One "@callee#arg" export line of module j (a legacy object passed to callee): where
 * callee is a function j imports (`from m import f`: f; `import m` / `from pkg import m`:
 * m.f), the premark "RULE\t@f#arg" of module m, added to rev[m] once. */
static void argument_premark(const xflow *x, size_t j, const char *rule, size_t rn, const char *name, size_t nn,
                             sb *rev) {
    const char *hash = memchr(name, '#', nn);
    if (!hash) return;
    const char *callee = name + 1, *dot = memchr(callee, '.', (size_t)(hash - callee));
    size_t head = (size_t)((dot ? dot : hash) - callee);
    for (size_t k = 0; k < x->imports[j].n; k++) {
        const ximport *im = &VEC_AT(&x->imports[j], ximport, k);
        if (im->target == j || strlen(im->local) != head || memcmp(im->local, callee, head) ||
            (dot ? im->name != NULL : !im->name || !strcmp(im->name, "*")))
            continue;
        sb line = {0};
        if (dot) sb_printf(&line, "%.*s\t@%.*s\n", (int)rn, rule, (int)(name + nn - dot - 1), dot + 1);
        else sb_printf(&line, "%.*s\t@%s%.*s\n", (int)rn, rule, im->name, (int)(name + nn - hash), hash);
        sb *to = &rev[im->target];
        if (!line.oom && line.s && (!to->s || !strstr(to->s, line.s))) sb_puts(to, line.s);
        sb_free(&line);
    }
}

/* The premarks each module gets from its importers' arguments (export_argument of
 * core/flow.c): an importer with such exports has every import statement resolved. */
static sb *argument_premarks(xflow *x) {
    sb *rev = sunset_calloc(x->n_py ? x->n_py : 1, sizeof *rev);
    names none = {0};
    for (size_t j = 0; rev && j < x->n_py; j++) {
        const char *ex = x->exports[j];
        if (!ex || !strstr(ex, "\t@")) continue;
        resolve_module(x, j, &none);
        for (const char *line = ex; *line;) {
            const char *tab = strchr(line, '\t'), *nl = strchr(line, '\n');
            if (!tab || !nl || tab > nl) break;
            if (tab[1] == '@') argument_premark(x, j, line, (size_t)(tab - line), tab + 1, (size_t)(nl - tab - 1), rev);
            line = nl + 1;
        }
    }
    return rev;
}

void xflow_importers(xflow *x, xflow_importer_fn out, void *ud) {
    names ns = {0};
    sb *rev = x ? argument_premarks(x) : NULL;
    for (size_t i = 0; x && i < x->n_py; i++) {
        /* a rescan below may give a module exports it did not have: the names follow (without
         * the set, out of memory, every statement is resolved) */
        if (x->stmts[i] && (!ns.h || ns.built_at != x->n_exporters)) names_build(x, &ns);
        resolve_module(x, i, &ns);
        bool called = rev && rev[i].len && !rev[i].oom;
        if (!x->imports[i].n && !called) continue;
        sb pm = {0};
        premarks_of(x, i, &pm);
        if (called) sb_puts(&pm, rev[i].s);
        if (!pm.oom && pm.len) out(ud, x->py[i].path, x->py[i].at, pm.s);
        sb_free(&pm);
    }
    for (size_t i = 0; rev && i < x->n_py; i++) sb_free(&rev[i]);
    sunset_free(rev);
    sunset_free(ns.h);
}

bool xflow_rescan_moot(const xflow *x, const char *path, const char *premarks, const char *data, size_t len) {
    long me = find_py(x, path);
    if (me < 0 || !x->anchored[me]) return false;
    for (const char *line = premarks; *line;) {
        const char *tab = strchr(line, '\t'), *nl = strchr(line, '\n');
        if (!tab || !nl || tab > nl) return false;
        const char *name = tab + 1, *dot = memrchr(name, '.', (size_t)(nl - name));
        const char *last = dot ? dot + 1 : name;
        if (*name == '@') { /* "@f#arg": the function f is what a use reaches */
            const char *hash = memchr(name, '#', (size_t)(nl - name));
            if (!hash || hash == name + 1 || memmem(data, len, name + 1, (size_t)(hash - name - 1))) return false;
            line = nl + 1;
            continue;
        }
        size_t ln = (size_t)(nl - last);
        if (ln > 2 && !memcmp(nl - 2, "()", 2)) ln -= 2; /* "build()": the call names build */
        if (last == nl || memmem(data, len, last, ln)) return false;
        line = nl + 1;
    }
    return true;
}

uint64_t xflow_key_material(const char *premarks) {
    return hash64(premarks, strlen(premarks), 0x78666c6f77ull); /* "xflow" */
}

size_t xflow_resolved(const xflow *x) { return x ? x->resolved : 0; }
