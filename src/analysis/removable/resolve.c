/*
 * resolve.c — names to things, for the graph (rm_int.h): an include or a Python module named
 * in a file to the file it means, a base class as written to the class it means (Python: through
 * the module's imports; C++: the file, then what it includes, then a unique class of that name),
 * a target name to its target; and the small path helpers every step shares.
 */
#include "analysis/removable/rm_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *rm_dupz(const char *s) { return sunset_strndup(s, strlen(s)); }

/* Sized exactly: nothing is cut. */
char *rm_fmt(const char *f, ...) {
    va_list ap;
    va_start(ap, f);
    int n = vsnprintf(NULL, 0, f, ap);
    va_end(ap);
    if (n < 0) return NULL;
    char *s = sunset_malloc((size_t)n + 1);
    if (!s) return NULL;
    va_start(ap, f);
    vsnprintf(s, (size_t)n + 1, f, ap);
    va_end(ap);
    return s;
}

size_t rm_cat3(char *buf, size_t n, const char *a, const char *b, const char *c) {
    const char *part[3] = {a, b, c};
    size_t at = 0;
    for (int i = 0; i < 3; i++) {
        size_t k = strlen(part[i]);
        if (k > n - 1 - at) k = n - 1 - at;
        memcpy(buf + at, part[i], k);
        at += k;
    }
    buf[at] = 0;
    return at;
}

void rm_submodule(char *buf, size_t n, const ix_import *m) {
    rm_cat3(buf, n, m->module, m->module[strlen(m->module) - 1] == '.' ? "" : ".", m->name);
}

const char *rm_base_name(const char *path) {
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

size_t rm_dir_len(const char *path) {
    const char *s = strrchr(path, '/');
    return s ? (size_t)(s - path) : 0;
}

bool rm_is_header(const char *path) {
    const char *e = strrchr(path, '.');
    return e && (!strcmp(e, ".h") || !strcmp(e, ".hh") || !strcmp(e, ".hpp") || !strcmp(e, ".cuh"));
}

bool rm_same_stem_files(const ctx *c, size_t f, size_t g) {
    return c->stem_n[f] == c->stem_n[g] && !memcmp(c->files[f]->path, c->files[g]->path, c->stem_n[f]);
}

bool rm_matches(const ctx *c, const vec *regexes, const char *path) {
    for (size_t i = 0; i < regexes->n; i++)
        if (re_search(VEC_AT(regexes, pcre2_code *, i), path, strlen(path), 0, c->md, NULL, NULL)) return true;
    return false;
}

bool rm_has_string(const vec *strings, const char *s) {
    for (size_t i = 0; i < strings->n; i++)
        if (!strcmp(VEC_AT(strings, char *, i), s)) return true;
    return false;
}

bool rm_is_test_module(const ctx *c, const char *path) { return rm_matches(c, &c->conv->test_modules, path); }

bool rm_in_test_tree(const ctx *c, const char *path) { return rm_matches(c, &c->conv->test_trees, path); }

/* Normalise dir + "/" + rel ("./", "../") and look it up. */
long rm_lookup_rel(const ctx *c, const char *dir, size_t dn, const char *rel) {
    char buf[4096];
    size_t n = 0;
    if (dn) {
        if (dn >= sizeof buf - 2) return -1;
        memcpy(buf, dir, dn);
        n = dn;
        buf[n++] = '/';
    }
    for (const char *p = rel; *p;) {
        const char *q = strchr(p, '/');
        size_t seg = q ? (size_t)(q - p) : strlen(p);
        if (seg == 1 && p[0] == '.') {
        } else if (seg == 2 && p[0] == '.' && p[1] == '.') {
            if (n) n--;
            while (n && buf[n - 1] != '/') n--;
        } else {
            if (n + seg + 2 >= sizeof buf) return -1;
            memcpy(buf + n, p, seg);
            n += seg;
            if (q) buf[n++] = '/';
        }
        p = q ? q + 1 : p + seg;
    }
    buf[n] = 0;
    return sunset_index_file_pos(c->ix, buf);
}

long rm_resolve_include(const ctx *c, size_t from, const char *inc) {
    long p = sunset_index_file_pos(c->ix, inc);
    if (p >= 0) return p;
    const char *path = c->files[from]->path;
    return rm_lookup_rel(c, path, rm_dir_len(path), inc);
}

/* A Python module named in file `from` (dotted, maybe relative) to a file index. */
static long resolve_module(const ctx *c, size_t from, const char *mod) {
    const char *path = c->files[from]->path;
    char rel[2048];
    size_t dots = 0;
    while (mod[dots] == '.') dots++;
    size_t n = 0;
    for (const char *p = mod + dots; *p && n < sizeof rel - 16; p++) rel[n++] = *p == '.' ? '/' : *p;
    rel[n] = 0;
    char dir[2048];
    size_t dn = rm_dir_len(path);
    if (dn >= sizeof dir) return -1;
    memcpy(dir, path, dn);
    dir[dn] = 0;
    for (size_t k = 1; k < dots; k++) {
        while (dn && dir[dn - 1] != '/') dn--;
        if (dn) dn--;
        dir[dn] = 0;
    }
    char cand[2200];
    const char *exts[] = {".py", "/__init__.py"};
    for (int e = 0; e < 2; e++) {
        if (!n) {
            if (e == 0) continue;
            rm_cat3(cand, sizeof cand, "__init__.py", "", "");
        } else {
            rm_cat3(cand, sizeof cand, rel, exts[e], "");
        }
        long p = rm_lookup_rel(c, dir, dn, cand);
        if (p >= 0) return p;
        if (dots) continue;
        if ((p = sunset_index_file_pos(c->ix, cand)) >= 0) return p;
        /* the import roots: `import paddle.x` is python/paddle/x.py in Paddle */
        for (size_t r = 0; r < c->conv->import_roots.n; r++) {
            char py[2300];
            rm_cat3(py, sizeof py, VEC_AT(&c->conv->import_roots, char *, r), "/", cand);
            if ((p = sunset_index_file_pos(c->ix, py)) >= 0) return p;
        }
    }
    return -1;
}

/* A module's last part when every part is a name (not empty: no "a..b", no trailing '.'), so
 * that each candidate path ends in it (.py or /__init__.py) as written; else NULL. */
static const char *mod_last(const char *mod, size_t *n) {
    const char *last = mod, *p = mod;
    for (; *p; p++) {
        if (*p == '.') {
            if (p == last) return NULL;
            last = p + 1;
        } else if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '_')) {
            return NULL;
        }
    }
    *n = (size_t)(p - last);
    return *n && p - mod < 1024 ? last : NULL; /* resolve_module cuts no shorter module */
}

/* Twice the slots, at half load: false when out of memory (the memo stays as it was). */
static bool mod_memo_grow(struct rm_mod_memo *m) {
    size_t cap = m->cap * 2;
    struct rm_mod_slot *v = sunset_calloc(cap, sizeof *v);
    if (!v) return false;
    for (size_t i = 0; i < m->cap; i++) {
        if (!m->slot[i].h) continue;
        size_t k = m->slot[i].h & (cap - 1);
        while (v[k].h) k = (k + 1) & (cap - 1);
        v[k] = m->slot[i];
    }
    sunset_free(m->slot);
    m->slot = v;
    m->cap = cap;
    return true;
}

/* The answer depends on the asking file's directory and the module alone: asked once per pair. */
long rm_resolve_module(const ctx *c, size_t from, const char *mod) {
    struct rm_mod_memo *m = c->mod_memo;
    if (!m) return resolve_module(c, from, mod);
    const char *path = c->files[from]->path;
    size_t dn = rm_dir_len(path), mn = strlen(mod);
    uint64_t h = (sunset_index_name_hash(path, dn) * 0x9E3779B97F4A7C15ull ^ sunset_index_name_hash(mod, mn)) | 1;
    size_t k = h & (m->cap - 1);
    for (; m->slot[k].h; k = (k + 1) & (m->cap - 1)) {
        const struct rm_mod_slot *s = &m->slot[k];
        const char *sp = c->files[s->from]->path;
        if (s->h == h && rm_dir_len(sp) == dn && !memcmp(sp, path, dn) && !strcmp(s->mod, mod)) return s->to;
    }
    size_t dots = strspn(mod, "."), ln;
    const char *last = mod_last(mod + dots, &ln);
    long to = last && !rm_u64_has(m->stems, m->n_stems, sunset_index_name_hash(last, ln)) ? -1
                                                                                        : resolve_module(c, from, mod);
    char *keep = (m->n + 1) * 2 <= m->cap || mod_memo_grow(m) ? sunset_strndup(mod, mn) : NULL;
    if (!keep) return to; /* out of memory: answered, not kept */
    for (k = h & (m->cap - 1); m->slot[k].h;) k = (k + 1) & (m->cap - 1);
    m->slot[k] = (struct rm_mod_slot){h, from, keep, to};
    m->n++;
    return to;
}

static int cmp_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* rm_mod_memo.stems: per x.py its x, per x/__init__.py its x (and __init__). */
static bool mod_stems(const ctx *c, struct rm_mod_memo *m) {
    if (!(m->stems = sunset_malloc((2 * c->nf + 1) * sizeof *m->stems))) return false;
    for (size_t f = 0; f < c->nf; f++) {
        const char *p = c->files[f]->path, *b = rm_base_name(p);
        size_t bn = strlen(b);
        if (bn < 3 || memcmp(b + bn - 3, ".py", 3) != 0) continue;
        m->stems[m->n_stems++] = sunset_index_name_hash(b, bn - 3);
        if (strcmp(b, "__init__.py") != 0 || b == p) continue;
        const char *d = b - 1;
        while (d > p && d[-1] != '/') d--;
        m->stems[m->n_stems++] = sunset_index_name_hash(d, (size_t)(b - 1 - d));
    }
    qsort(m->stems, m->n_stems, sizeof *m->stems, cmp_u64);
    return true;
}

struct rm_mod_memo *rm_mod_memo_new(const ctx *c) {
    struct rm_mod_memo *m = sunset_calloc(1, sizeof *m);
    if (m && (!(m->slot = sunset_calloc(m->cap = 1024, sizeof *m->slot)) || !mod_stems(c, m))) {
        rm_mod_memo_free(m);
        return NULL;
    }
    return m;
}

void rm_mod_memo_free(struct rm_mod_memo *m) {
    for (size_t k = 0; m && m->slot && k < m->cap; k++) sunset_free(m->slot[k].mod);
    if (m) sunset_free(m->slot);
    if (m) sunset_free(m->stems);
    sunset_free(m);
}


long rm_class_named(const ctx *c, const char *name) {
    uint64_t h = sunset_index_name_hash(name, strlen(name));
    for (size_t k = h & (c->cls_cap - 1); c->cls_by_name[k].h; k = (k + 1) & (c->cls_cap - 1)) {
        const struct cls_slot *o = &c->cls_by_name[k];
        if (o->h == h && !strcmp(VEC_AT(&c->classes, cls, o->first).c->name, name)) return o->first;
    }
    return -1;
}

/* The class of file f among first and the classes of its name after it, or -1. */
static long class_of_name_in(const ctx *c, long first, size_t f) {
    for (long k = first; k >= 0; k = c->cls_next[k])
        if (VEC_AT(&c->classes, cls, k).file == f) return k;
    return -1;
}

/* Class id of `name` defined at the top of file f, or -1. */
static long class_in_file(const ctx *c, size_t f, const char *name) {
    return class_of_name_in(c, rm_class_named(c, name), f);
}

static long py_find_class(const ctx *c, size_t f, const char *name, const char *qual, int depth);

/* A name bound in module f by its imports. */
static long py_imported_class(const ctx *c, size_t f, const char *name, const char *qual, int depth) {
    const ix_file *F = c->files[f];
    for (size_t i = 0; i < F->imports.n; i++) {
        const ix_import *m = &VEC_AT(&F->imports, ix_import, i);
        if (qual) {
            /* qual.Name: import qual / import x as qual / from pkg import qual */
            const char *bound = m->alias ? m->alias : m->name;
            long g = -1;
            if (m->name && bound && strcmp(bound, qual) == 0 && strcmp(m->name, "*") != 0) {
                char sub[1024];
                rm_submodule(sub, sizeof sub, m);
                g = rm_resolve_module(c, f, sub);
            } else if (!m->name && ((m->alias && !strcmp(m->alias, qual)) || !strcmp(m->module, qual))) {
                g = rm_resolve_module(c, f, m->module);
            }
            if (g >= 0 && (size_t)g != f) {
                long k = py_find_class(c, (size_t)g, name, NULL, depth + 1);
                if (k >= 0) return k;
            }
            continue;
        }
        if (!m->name) continue;
        bool star = strcmp(m->name, "*") == 0;
        const char *bound = m->alias ? m->alias : m->name;
        if (!star && strcmp(bound, name) != 0) continue;
        long g = rm_resolve_module(c, f, m->module);
        if (g < 0 || (size_t)g == f) continue;
        long k = py_find_class(c, (size_t)g, star ? name : m->name, NULL, depth + 1);
        if (k >= 0) return k;
    }
    return -1;
}

static long py_find_class(const ctx *c, size_t f, const char *name, const char *qual, int depth) {
    if (depth > 4) return -1;
    if (!qual) {
        long k = class_in_file(c, f, name);
        if (k >= 0) return k;
    }
    return py_imported_class(c, f, name, qual, depth);
}

/* C++: the class in f or in a file f includes (breadth first, 4 levels), else a unique one. */
static long cpp_find_class(const ctx *c, size_t f, const char *name) {
    long first = rm_class_named(c, name);
    if (first < 0) return -1;
    long k = class_of_name_in(c, first, f);
    if (k >= 0) return k;
    /* the walk visits only C++ files: with one C++ class of that name it finds that one or
     * none, and the unique one is it again; with none, nothing */
    size_t n_cpp = 0;
    for (long i = first; i >= 0 && n_cpp < 2; i = c->cls_next[i])
        if (c->files[VEC_AT(&c->classes, cls, i).file]->lang == SUNSET_LANG_CPP) {
            n_cpp++;
            k = i;
        }
    if (n_cpp < 2) return n_cpp ? k : -1;
    vec q = VEC_INIT(size_t), depth = VEC_INIT(int);
    bool *seen = sunset_calloc(c->nf, 1);
    long found = -1;
    if (!seen) goto cleanup;
    seen[f] = true;
    int d0 = 0;
    vec_push(&q, &f);
    vec_push(&depth, &d0);
    for (size_t qi = 0; qi < q.n && found < 0; qi++) {
        size_t g = VEC_AT(&q, size_t, qi);
        int d = VEC_AT(&depth, int, qi);
        if (g != f && (found = class_of_name_in(c, first, g)) >= 0) break;
        if (d >= 4) continue;
        for (size_t e = 0; e < c->out[g].n; e++) {
            size_t to = VEC_AT(&c->out[g], edge, e).to;
            if (seen[to] || c->files[to]->lang != SUNSET_LANG_CPP) continue;
            seen[to] = true;
            int d1 = d + 1;
            vec_push(&q, &to);
            vec_push(&depth, &d1);
        }
    }
    /* not reached, and more than one: no unique one either */
cleanup:
    sunset_free(seen);
    vec_free(&q);
    vec_free(&depth);
    return found;
}

long rm_resolve_base(const ctx *c, size_t cid, const char *base) {
    const cls *k = &VEC_AT(&c->classes, cls, cid);
    char buf[512];
    size_t bn = strnlen(base, sizeof buf - 1); /* cut as snprintf would, without its cost */
    memcpy(buf, base, bn);
    buf[bn] = 0;
    /* template arguments were dropped by the lexer; strip qualifiers */
    char *name = buf, *qual = NULL;
    if (c->files[k->file]->lang == SUNSET_LANG_PYTHON) {
        char *dot = strrchr(buf, '.');
        if (dot) {
            *dot = 0;
            qual = buf;
            name = dot + 1;
        }
        long r = py_find_class(c, k->file, name, qual, 0);
        return r == (long)cid ? -1 : r;
    }
    char *cc = NULL;
    for (char *p = buf; (p = strstr(p, "::")); p += 2) cc = p;
    if (cc) name = cc + 2;
    long r = cpp_find_class(c, k->file, name);
    return r == (long)cid ? -1 : r;
}

long rm_target_pos(const ctx *c, const char *name) {
    if (!c->tgt_by_name) {
        for (size_t i = 0; i < c->targets.n; i++)
            if (!strcmp(VEC_AT(&c->targets, tgt, i).name, name)) return (long)i;
        return -1;
    }
    size_t m = c->tgt_cap - 1;
    for (size_t k = hash64(name, strlen(name), 3) & m; c->tgt_by_name[k] >= 0; k = (k + 1) & m)
        if (!strcmp(VEC_AT(&c->targets, tgt, c->tgt_by_name[k]).name, name)) return c->tgt_by_name[k];
    return -1;
}

bool rm_u64_has(const uint64_t *v, size_t n, uint64_t h) {
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t m = (lo + hi) / 2;
        if (v[m] < h) lo = m + 1;
        else hi = m;
    }
    return lo < n && v[lo] == h;
}

