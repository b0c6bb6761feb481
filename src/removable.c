/*
 * removable.c — propagation over the cross-file index and the removal plan (removable.h).
 *
 * Seeds are the scan's findings: a path finding marks its file, a code finding on a class
 * header marks the class, a finding on a CMake target's name marks the target, one inside a
 * flag definition or pass registration marks the flag or pass. Propagation then runs to a
 * fixpoint over monotone rules (a class deriving a legacy class; a file whose classes are all
 * legacy; a helper module or header whose every user is legacy; an empty test registered under
 * a legacy target; a source compiled only by legacy targets or by none while including legacy
 * headers; a target whose sources or whose dependents are all legacy; a flag or pass only
 * legacy files use). Each derivation writes its evidence chain. Liveness is a second fixpoint:
 * everything non-legacy is live, and a legacy item reached from live code through an import
 * whose name is used, an include whose classes are used, a class name, a CMake dependency or a
 * flag/pass use is live, with that caller recorded. The plan is the dead remainder.
 */
#include "removable.h"

#include "rules_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- graph ---- */

/* The finding a legacy item's chain starts from: its rule's id, family and task, borrowed from
 * the rule set (the result's findings array may move while derived findings are appended). */
typedef struct seed_rule {
    const char *rule_id, *family;
    int task;
} seed_rule;

typedef struct node {
    bool legacy, derived, live;
    char *chain;
    seed_rule seed;
    vec callers; /* char * */
} node;

typedef struct edge {
    size_t to;
    uint32_t line;
    bool counts; /* a real dependency (used import, include whose names are used) */
} edge;

typedef struct cls {
    size_t file;
    const ix_class *c;
} cls;

typedef struct tgt {
    char *name;
    vec defs;    /* size_t: index into cmds (file, cmd) pairs */
    vec srcs;    /* size_t: file indexes */
    vec deps;    /* char *: names (borrowed from the index) */
    vec dependents; /* size_t: target indexes */
    bool test;   /* a test registration (py_test_modules, cc_test, paddle_test ...) */
} tgt;

typedef struct cmdref {
    size_t file;
    const ix_cmd *cmd;
} cmdref;

typedef struct wordref {
    size_t file;
    const ix_word *w;
} wordref;

typedef struct ctx {
    const sunset_index *ix;
    const sunset_result *res;
    size_t nf;
    ix_file **files;
    node *fn;
    vec *out;        /* per file: edge */
    vec *in;         /* per file: size_t importer file index (only counting edges) */
    vec *users;      /* per file: size_t every importer / includer, used or not */
    vec classes;     /* cls */
    node *cn;
    size_t *by_name; /* class ids sorted by name */
    vec cmds;        /* cmdref: every CMake command */
    vec targets;     /* tgt */
    node *tn;
    vec flags;       /* wordref */
    node *gn;
    vec passes;      /* wordref */
    node *pn;
    vec *flag_users, *pass_users; /* per flag / pass: size_t files using it (not the definer, not CMake) */
    size_t *file_targets_n; /* per file: number of targets compiling it */
    vec *file_classes;      /* per file: size_t class ids */
    vec *file_tgts;         /* per file: size_t targets compiling it */
    size_t *tgt_sorted;     /* target ids sorted by name */
    uint64_t *cm_args;      /* sorted hashes of every CMake argument's basename */
    size_t n_cm_args;
    uint64_t *glob_dirs;    /* sorted hashes of directories whose CMake files glob sources */
    size_t n_glob_dirs;
    bool oom;
} ctx;

static char *dupz(const char *s) { return sunset_strndup(s, strlen(s)); }

static char *fmt(const char *f, ...) __attribute__((format(printf, 1, 2)));
static char *fmt(const char *f, ...) {
    va_list ap;
    va_start(ap, f);
    char buf[2048];
    vsnprintf(buf, sizeof buf, f, ap);
    va_end(ap);
    return dupz(buf);
}

static const char *base_name(const char *path) {
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

static size_t dir_len(const char *path) {
    const char *s = strrchr(path, '/');
    return s ? (size_t)(s - path) : 0;
}

static bool is_header(const char *path) {
    const char *e = strrchr(path, '.');
    return e && (!strcmp(e, ".h") || !strcmp(e, ".hh") || !strcmp(e, ".hpp") || !strcmp(e, ".cuh"));
}

static bool is_test_module(const char *path) {
    const char *b = base_name(path);
    return strncmp(b, "test_", 5) == 0;
}

static bool in_test_tree(const char *path) {
    return strncmp(path, "test/", 5) == 0 || strstr(path, "/tests/") || strstr(path, "/unittests/") ||
           strstr(path, "/test/") || is_test_module(path);
}

/* Normalise dir + "/" + rel ("./", "../") and look it up. */
static long lookup_rel(const ctx *c, const char *dir, size_t dn, const char *rel) {
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

static long resolve_include(const ctx *c, size_t from, const char *inc) {
    long p = sunset_index_file_pos(c->ix, inc);
    if (p >= 0) return p;
    const char *path = c->files[from]->path;
    return lookup_rel(c, path, dir_len(path), inc);
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
    size_t dn = dir_len(path);
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
            snprintf(cand, sizeof cand, "__init__.py");
        } else {
            snprintf(cand, sizeof cand, "%s%s", rel, exts[e]);
        }
        long p = lookup_rel(c, dir, dn, cand);
        if (p >= 0) return p;
        if (dots) continue;
        if ((p = sunset_index_file_pos(c->ix, cand)) >= 0) return p;
        char py[2300];
        snprintf(py, sizeof py, "python/%s", cand);
        if ((p = sunset_index_file_pos(c->ix, py)) >= 0) return p;
    }
    return -1;
}

static int cmp_cls_name(const void *a, const void *b, void *arg) {
    const ctx *c = arg;
    const cls *x = &VEC_AT(&c->classes, cls, *(const size_t *)a);
    const cls *y = &VEC_AT(&c->classes, cls, *(const size_t *)b);
    int r = strcmp(x->c->name, y->c->name);
    if (r) return r;
    return *(const size_t *)a < *(const size_t *)b ? -1 : 1;
}

/* First and one-past-last position in by_name of classes called `name`. */
static void class_range(const ctx *c, const char *name, size_t *lo, size_t *hi) {
    size_t n = c->classes.n, l = 0, h = n;
    while (l < h) {
        size_t m = (l + h) / 2;
        if (strcmp(VEC_AT(&c->classes, cls, c->by_name[m]).c->name, name) < 0) l = m + 1;
        else h = m;
    }
    *lo = l;
    h = n;
    size_t l2 = l;
    while (l2 < h) {
        size_t m = (l2 + h) / 2;
        if (strcmp(VEC_AT(&c->classes, cls, c->by_name[m]).c->name, name) <= 0) l2 = m + 1;
        else h = m;
    }
    *hi = l2;
}

/* Class id of `name` defined at the top of file f, or -1. */
static long class_in_file(const ctx *c, size_t f, const char *name) {
    size_t lo, hi;
    class_range(c, name, &lo, &hi);
    for (size_t i = lo; i < hi; i++) {
        const cls *k = &VEC_AT(&c->classes, cls, c->by_name[i]);
        if (k->file == f) return (long)c->by_name[i];
    }
    return -1;
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
                snprintf(sub, sizeof sub, "%s%s%s", m->module,
                         m->module[strlen(m->module) - 1] == '.' ? "" : ".", m->name);
                g = resolve_module(c, f, sub);
            } else if (!m->name && ((m->alias && !strcmp(m->alias, qual)) || !strcmp(m->module, qual))) {
                g = resolve_module(c, f, m->module);
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
        long g = resolve_module(c, f, m->module);
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
    long k = class_in_file(c, f, name);
    if (k >= 0) return k;
    size_t lo, hi;
    class_range(c, name, &lo, &hi);
    if (lo == hi) return -1;
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
        if (g != f && (found = class_in_file(c, g, name)) >= 0) break;
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
    if (found < 0) {
        size_t n_cpp = 0;
        for (size_t i = lo; i < hi; i++) {
            const cls *x = &VEC_AT(&c->classes, cls, c->by_name[i]);
            if (c->files[x->file]->lang == SUNSET_LANG_CPP) {
                n_cpp++;
                found = (long)c->by_name[i];
            }
        }
        if (n_cpp != 1) found = -1;
    }
cleanup:
    sunset_free(seen);
    vec_free(&q);
    vec_free(&depth);
    return found;
}

static long resolve_base(const ctx *c, size_t cid, const char *base) {
    const cls *k = &VEC_AT(&c->classes, cls, cid);
    char buf[512];
    snprintf(buf, sizeof buf, "%s", base);
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

/* ---- nodes ---- */

/* A seed: a rule's finding marks n. */
static void mark_seed(ctx *c, node *n, const sunset_finding *fd, char *chain) {
    if (n->legacy) {
        sunset_free(chain);
        return;
    }
    if (!chain) c->oom = true;
    n->legacy = true;
    n->chain = chain;
    n->seed = (seed_rule){fd->rule_id, fd->family, fd->task};
}

/* A derivation: n is legacy because of `cause`, whose seed it inherits. */
static void mark(ctx *c, node *n, const node *cause, char *chain) {
    if (n->legacy) {
        sunset_free(chain);
        return;
    }
    if (!chain) c->oom = true;
    n->legacy = true;
    n->derived = true;
    n->chain = chain;
    n->seed = cause->seed;
}

static void add_caller(ctx *c, node *n, char *who) {
    if (!who) {
        c->oom = true;
        return;
    }
    for (size_t i = 0; i < n->callers.n; i++)
        if (!strcmp(VEC_AT(&n->callers, char *, i), who)) {
            sunset_free(who);
            return;
        }
    if (n->callers.n >= 20 || !vec_push(&n->callers, &who)) sunset_free(who);
}

static void node_free(node *n) {
    sunset_free(n->chain);
    for (size_t i = 0; i < n->callers.n; i++) sunset_free(VEC_AT(&n->callers, char *, i));
    vec_free(&n->callers);
}

static const char *chain_of(const node *n) { return n->chain ? n->chain : "?"; }

/* ---- building the graph ---- */

static bool is_keyword(const char *a) {
    size_t n = strlen(a);
    if (n < 3) return false;
    for (size_t i = 0; i < n; i++)
        if (!((a[i] >= 'A' && a[i] <= 'Z') || a[i] == '_')) return false;
    return true;
}

/* set(VAR a b c) in the same CMake file: its values. */
static const ix_cmd *find_set(const ix_file *F, const char *var) {
    const ix_cmd *found = NULL;
    for (size_t i = 0; i < F->cmds.n; i++) {
        const ix_cmd *k = &VEC_AT(&F->cmds, ix_cmd, i);
        if (k->n_args >= 1 && !strcmp(k->name, "set") && !strcmp(k->args[0], var)) found = k;
    }
    return found;
}

static bool target_command(const ix_cmd *k) {
    if (k->n_args < 2 || !strcmp(k->name, "set") || !strcmp(k->name, "list") ||
        !strcmp(k->name, "set_tests_properties") || !strcmp(k->name, "set_property") ||
        !strcmp(k->name, "foreach") || !strcmp(k->name, "if") || !strcmp(k->name, "file") ||
        !strcmp(k->name, "string") || !strcmp(k->name, "set_target_properties"))
        return false;
    if (strchr(k->args[0], '$')) return false;
    for (uint32_t i = 1; i < k->n_args; i++)
        if (!strcmp(k->args[i], "SRCS") || !strcmp(k->args[i], "MODULES") || !strcmp(k->args[i], "DEPS"))
            return true;
    return false;
}

static bool is_test_command(const char *name) {
    return strstr(name, "test") != NULL;
}

static long target_pos(const ctx *c, const char *name) {
    if (!c->tgt_sorted) {
        for (size_t i = 0; i < c->targets.n; i++)
            if (!strcmp(VEC_AT(&c->targets, tgt, i).name, name)) return (long)i;
        return -1;
    }
    size_t lo = 0, hi = c->targets.n;
    while (lo < hi) {
        size_t m = (lo + hi) / 2;
        int r = strcmp(VEC_AT(&c->targets, tgt, c->tgt_sorted[m]).name, name);
        if (!r) return (long)c->tgt_sorted[m];
        if (r < 0) lo = m + 1;
        else hi = m;
    }
    return -1;
}

static int cmp_tgt(const void *a, const void *b, void *arg) {
    const ctx *c = arg;
    return strcmp(VEC_AT(&c->targets, tgt, *(const size_t *)a).name, VEC_AT(&c->targets, tgt, *(const size_t *)b).name);
}

static int cmp_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static bool u64_has(const uint64_t *v, size_t n, uint64_t h) {
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t m = (lo + hi) / 2;
        if (v[m] < h) lo = m + 1;
        else hi = m;
    }
    return lo < n && v[lo] == h;
}

/* Collect a section's values (expanding ${VAR} from set() in the same file, two levels). */
static void section_values(const ix_file *F, const ix_cmd *k, const char *sec, vec *out, int depth) {
    bool in = false;
    for (uint32_t i = 1; i < k->n_args; i++) {
        const char *a = k->args[i];
        if (is_keyword(a)) {
            in = !strcmp(a, sec);
            continue;
        }
        if (!in) continue;
        if (a[0] == '$' && a[1] == '{' && depth < 2) {
            char var[256];
            size_t n = strlen(a);
            if (n > 3 && n - 3 < sizeof var && a[n - 1] == '}') {
                memcpy(var, a + 2, n - 3);
                var[n - 3] = 0;
                const ix_cmd *s = find_set(F, var);
                if (s) {
                    ix_cmd tmp = *s;
                    /* treat set's values as the section */
                    for (uint32_t j = 1; j < tmp.n_args; j++) {
                        if (tmp.args[j][0] == '$') continue;
                        const char *v = tmp.args[j];
                        vec_push(out, &v);
                    }
                }
            }
            continue;
        }
        if (strchr(a, '$')) continue;
        vec_push(out, &a);
    }
}

static int build(ctx *c) {
    const sunset_index *ix = c->ix;
    c->nf = ix->files.n;
    c->files = ix->files.v;
    size_t nf = c->nf ? c->nf : 1;
    c->fn = sunset_calloc(nf, sizeof(node));
    c->out = sunset_calloc(nf, sizeof(vec));
    c->in = sunset_calloc(nf, sizeof(vec));
    c->users = sunset_calloc(nf, sizeof(vec));
    c->file_classes = sunset_calloc(nf, sizeof(vec));
    c->file_tgts = sunset_calloc(nf, sizeof(vec));
    if (!c->file_classes || !c->file_tgts) return -1;
    c->file_targets_n = sunset_calloc(nf, sizeof(size_t));
    if (!c->fn || !c->out || !c->in || !c->users || !c->file_targets_n) return -1;
    c->classes = VEC_INIT(cls);
    c->cmds = VEC_INIT(cmdref);
    c->targets = VEC_INIT(tgt);
    c->flags = VEC_INIT(wordref);
    c->passes = VEC_INIT(wordref);
    for (size_t f = 0; f < c->nf; f++) {
        c->fn[f].callers = VEC_INIT(char *);
        c->out[f] = VEC_INIT(edge);
        c->in[f] = VEC_INIT(size_t);
        c->users[f] = VEC_INIT(size_t);
        const ix_file *F = c->files[f];
        c->file_classes[f] = VEC_INIT(size_t);
        c->file_tgts[f] = VEC_INIT(size_t);
        for (size_t i = 0; i < F->classes.n; i++) {
            cls k = {f, &VEC_AT(&F->classes, ix_class, i)};
            if (!k.c->top) continue;
            if (!vec_push(&c->classes, &k)) return -1;
            size_t id = c->classes.n - 1;
            if (!vec_push(&c->file_classes[f], &id)) return -1;
        }
        for (size_t i = 0; i < F->cmds.n; i++) {
            cmdref r = {f, &VEC_AT(&F->cmds, ix_cmd, i)};
            if (!vec_push(&c->cmds, &r)) return -1;
        }
        for (size_t i = 0; i < F->flag_defs.n; i++) {
            wordref w = {f, &VEC_AT(&F->flag_defs, ix_word, i)};
            if (!vec_push(&c->flags, &w)) return -1;
        }
        for (size_t i = 0; i < F->pass_regs.n; i++) {
            wordref w = {f, &VEC_AT(&F->pass_regs, ix_word, i)};
            if (!vec_push(&c->passes, &w)) return -1;
        }
    }
    size_t nc = c->classes.n ? c->classes.n : 1;
    c->cn = sunset_calloc(nc, sizeof(node));
    c->by_name = sunset_calloc(nc, sizeof(size_t));
    if (!c->cn || !c->by_name) return -1;
    for (size_t i = 0; i < c->classes.n; i++) {
        c->by_name[i] = i;
        c->cn[i].callers = VEC_INIT(char *);
    }
    qsort_r(c->by_name, c->classes.n, sizeof(size_t), cmp_cls_name, c);
    /* edges */
    for (size_t f = 0; f < c->nf; f++) {
        const ix_file *F = c->files[f];
        for (size_t i = 0; i < F->includes.n; i++) {
            const ix_include *inc = &VEC_AT(&F->includes, ix_include, i);
            long to = resolve_include(c, f, inc->path);
            if (to < 0 || (size_t)to == f) continue;
            edge e = {(size_t)to, inc->line, true};
            if (!vec_push(&c->out[f], &e)) return -1;
        }
        for (size_t i = 0; i < F->imports.n; i++) {
            const ix_import *m = &VEC_AT(&F->imports, ix_import, i);
            long to = -1;
            if (m->name && strcmp(m->name, "*") != 0) {
                /* from pkg import mod: the submodule when there is one */
                char sub[1024];
                snprintf(sub, sizeof sub, "%s%s%s", m->module,
                         m->module[strlen(m->module) - 1] == '.' ? "" : ".", m->name);
                to = resolve_module(c, f, sub);
            }
            if (to < 0) to = resolve_module(c, f, m->module);
            if (to < 0 || (size_t)to == f) continue;
            edge e = {(size_t)to, m->line, m->used};
            if (!vec_push(&c->out[f], &e)) return -1;
        }
    }
    /* an include counts when the includer uses a class the header defines (or it defines none) */
    for (size_t f = 0; f < c->nf; f++) {
        for (size_t e = 0; e < c->out[f].n; e++) {
            edge *ed = &VEC_AT(&c->out[f], edge, e);
            const ix_file *G = c->files[ed->to];
            if (c->files[f]->lang == SUNSET_LANG_CPP && G->lang == SUNSET_LANG_CPP && G->classes.n) {
                bool used = false;
                for (size_t k = 0; k < G->classes.n && !used; k++)
                    used = ix_file_uses(c->files[f], VEC_AT(&G->classes, ix_class, k).name);
                if (!used && !is_header(c->files[f]->path)) {
                    /* a source always depends on its own header */
                    const char *a = c->files[f]->path, *b = G->path;
                    size_t an = strrchr(a, '.') ? (size_t)(strrchr(a, '.') - a) : strlen(a);
                    size_t bn = strrchr(b, '.') ? (size_t)(strrchr(b, '.') - b) : strlen(b);
                    used = an == bn && !strncmp(a, b, an);
                }
                ed->counts = used;
            }
            if (ed->counts && !vec_push(&c->in[ed->to], &f)) return -1;
            bool dup = false;
            for (size_t u = 0; u < c->users[ed->to].n && !dup; u++) dup = VEC_AT(&c->users[ed->to], size_t, u) == f;
            if (!dup && !vec_push(&c->users[ed->to], &f)) return -1;
        }
    }
    /* CMake targets (a small open hash from name to target while they are collected) */
    size_t hcap = 1024;
    while (hcap < c->cmds.n * 2) hcap *= 2;
    long *th = sunset_malloc(hcap * sizeof(long));
    if (!th) return -1;
    for (size_t i = 0; i < hcap; i++) th[i] = -1;
    vec cmarg = VEC_INIT(uint64_t), globd = VEC_INIT(uint64_t);
    for (size_t i = 0; i < c->cmds.n; i++) {
        const cmdref *r = &VEC_AT(&c->cmds, cmdref, i);
        for (uint32_t a = 0; a < r->cmd->n_args; a++) {
            uint64_t h = hash64(base_name(r->cmd->args[a]), strlen(base_name(r->cmd->args[a])), 7);
            vec_push(&cmarg, &h);
            if (!strcmp(r->cmd->name, "file") && strstr(r->cmd->args[a], "GLOB")) {
                const char *fp = c->files[r->file]->path;
                uint64_t d = hash64(fp, dir_len(fp), 9);
                vec_push(&globd, &d);
            }
        }
        if (!target_command(r->cmd)) continue;
        const char *tname = r->cmd->args[0];
        size_t slot = hash64(tname, strlen(tname), 3) & (hcap - 1);
        while (th[slot] >= 0 && strcmp(VEC_AT(&c->targets, tgt, th[slot]).name, tname) != 0)
            slot = (slot + 1) & (hcap - 1);
        long t = th[slot];
        if (t < 0) {
            tgt nt = {r->cmd->args[0], VEC_INIT(size_t), VEC_INIT(size_t), VEC_INIT(char *),
                      VEC_INIT(size_t), is_test_command(r->cmd->name)};
            if (!vec_push(&c->targets, &nt)) {
                sunset_free(th);
                return -1;
            }
            t = (long)c->targets.n - 1;
            th[slot] = t;
        }
        tgt *T = &VEC_AT(&c->targets, tgt, t);
        vec_push(&T->defs, &i);
        const ix_file *F = c->files[r->file];
        vec vals = VEC_INIT(const char *);
        section_values(F, r->cmd, "SRCS", &vals, 0);
        bool py = !strcmp(r->cmd->name, "py_test_modules") || !strcmp(r->cmd->name, "py_test");
        if (py) section_values(F, r->cmd, "MODULES", &vals, 0);
        for (size_t k = 0; k < vals.n; k++) {
            const char *v = VEC_AT(&vals, const char *, k);
            char rel[1024];
            snprintf(rel, sizeof rel, "%s%s", v, py && !strstr(v, ".py") ? ".py" : "");
            long sf = lookup_rel(c, F->path, dir_len(F->path), rel);
            if (sf < 0) continue;
            bool dup = false;
            for (size_t s = 0; s < T->srcs.n; s++) dup |= VEC_AT(&T->srcs, size_t, s) == (size_t)sf;
            if (!dup) {
                size_t u = (size_t)sf, tt = (size_t)t;
                vec_push(&T->srcs, &u);
                vec_push(&c->file_tgts[u], &tt);
                c->file_targets_n[u]++;
            }
        }
        vals.n = 0;
        section_values(F, r->cmd, "DEPS", &vals, 0);
        for (size_t k = 0; k < vals.n; k++) {
            const char *v = VEC_AT(&vals, const char *, k);
            vec_push(&T->deps, &v);
        }
        vec_free(&vals);
    }
    sunset_free(th);
    c->cm_args = cmarg.v;
    c->n_cm_args = cmarg.n;
    c->glob_dirs = globd.v;
    c->n_glob_dirs = globd.n;
    if (c->n_cm_args) qsort(c->cm_args, c->n_cm_args, sizeof(uint64_t), cmp_u64);
    if (c->n_glob_dirs) qsort(c->glob_dirs, c->n_glob_dirs, sizeof(uint64_t), cmp_u64);
    size_t nt = c->targets.n ? c->targets.n : 1;
    c->tn = sunset_calloc(nt, sizeof(node));
    c->tgt_sorted = sunset_calloc(nt, sizeof(size_t));
    if (!c->tn || !c->tgt_sorted) return -1;
    for (size_t t = 0; t < c->targets.n; t++) c->tgt_sorted[t] = t;
    qsort_r(c->tgt_sorted, c->targets.n, sizeof(size_t), cmp_tgt, c);
    for (size_t t = 0; t < c->targets.n; t++) {
        c->tn[t].callers = VEC_INIT(char *);
        tgt *T = &VEC_AT(&c->targets, tgt, t);
        for (size_t k = 0; k < T->deps.n; k++) {
            long d = target_pos(c, VEC_AT(&T->deps, char *, k));
            if (d < 0 || (size_t)d == t) continue;
            tgt *D = &VEC_AT(&c->targets, tgt, d);
            bool dup = false;
            for (size_t s = 0; s < D->dependents.n; s++) dup |= VEC_AT(&D->dependents, size_t, s) == t;
            if (!dup) vec_push(&D->dependents, &t);
        }
    }
    c->gn = sunset_calloc(c->flags.n ? c->flags.n : 1, sizeof(node));
    c->pn = sunset_calloc(c->passes.n ? c->passes.n : 1, sizeof(node));
    if (!c->gn || !c->pn) return -1;
    for (size_t i = 0; i < c->flags.n; i++) c->gn[i].callers = VEC_INIT(char *);
    for (size_t i = 0; i < c->passes.n; i++) c->pn[i].callers = VEC_INIT(char *);
    return 0;
}

static bool is_cmake_file_(const ix_file *F) { return F->lang == SUNSET_LANG_CMAKE; }

/* For n names, the files whose code uses each (one pass over every file's name set). */
typedef struct want {
    uint64_t h;
    size_t id;
} want;

static int cmp_want(const void *a, const void *b) {
    const want *x = a, *y = b;
    if (x->h != y->h) return x->h < y->h ? -1 : 1;
    return x->id < y->id ? -1 : x->id > y->id;
}

static int users_of(const ctx *c, const char *const *names, size_t n, vec *out) {
    want *w = sunset_calloc(n ? n : 1, sizeof *w);
    if (!w) return -1;
    for (size_t i = 0; i < n; i++) {
        out[i] = VEC_INIT(size_t);
        uint64_t h = sunset_index_name_hash(names[i], strlen(names[i]));
        w[i] = (want){h ? h : 1, i};
    }
    qsort(w, n, sizeof *w, cmp_want);
    for (size_t f = 0; f < c->nf; f++) {
        const ix_file *F = c->files[f];
        if (!F->n_names) continue;
        /* merge two sorted lists */
        size_t a = 0, b = 0;
        while (a < F->n_names && b < n) {
            if (F->names[a] < w[b].h) a++;
            else if (F->names[a] > w[b].h) b++;
            else {
                for (size_t k = b; k < n && w[k].h == F->names[a]; k++)
                    if (!vec_push(&out[w[k].id], &f)) {
                        sunset_free(w);
                        return -1;
                    }
                a++;
            }
        }
    }
    sunset_free(w);
    return 0;
}

static int flag_pass_users(ctx *c) {
    for (int kind = 0; kind < 2; kind++) {
        vec *v = kind ? &c->passes : &c->flags;
        char **names = sunset_calloc(v->n ? v->n : 1, sizeof(char *));
        vec *out = sunset_calloc(v->n ? v->n : 1, sizeof(vec));
        if (!names || !out) {
            sunset_free(names);
            sunset_free(out);
            return -1;
        }
        int rc = 0;
        for (size_t i = 0; i < v->n && !rc; i++) {
            const wordref *w = &VEC_AT(v, wordref, i);
            names[i] = kind ? dupz(w->w->text) : fmt("FLAGS_%s", w->w->text);
            if (!names[i]) rc = -1;
        }
        if (!rc) rc = users_of(c, (const char *const *)names, v->n, out);
        for (size_t i = 0; i < v->n; i++) sunset_free(names[i]);
        sunset_free(names);
        if (kind) c->pass_users = out;
        else c->flag_users = out;
        if (rc) return -1;
        /* drop the definer, CMake files, and for flags anything but C++ and Python */
        for (size_t i = 0; i < v->n; i++) {
            const wordref *w = &VEC_AT(v, wordref, i);
            size_t k = 0;
            for (size_t j = 0; j < out[i].n; j++) {
                size_t f = VEC_AT(&out[i], size_t, j);
                const ix_file *F = c->files[f];
                if (f == w->file || is_cmake_file_(F)) continue;
                if (!kind && F->lang != SUNSET_LANG_CPP && F->lang != SUNSET_LANG_PYTHON) continue;
                VEC_AT(&out[i], size_t, k++) = f;
            }
            out[i].n = k;
        }
    }
    return 0;
}

/* ---- seeds ---- */

static bool path_finding(const sunset_finding *f) {
    return f->span.line == 1 && f->span.col == 1 && f->span.end_line == 1 && f->span.end_col == 1 &&
           f->matched && !strcmp(f->matched, f->path);
}

static bool same_tail(const char *base, const char *matched) {
    size_t bn = strlen(base), mn = strlen(matched);
    if (mn > bn) return false;
    if (strcmp(base + bn - mn, matched) != 0) return false;
    return bn == mn || base[bn - mn - 1] == '.' || base[bn - mn - 1] == ':';
}

static void seeds(ctx *c) {
    for (size_t i = 0; i < c->res->n_findings; i++) {
        const sunset_finding *fd = &c->res->findings[i];
        long f = sunset_index_file_pos(c->ix, fd->path);
        if (f < 0) continue;
        const ix_file *F = c->files[f];
        if (path_finding(fd)) {
            mark_seed(c, &c->fn[f], fd, fmt("rule %s (path)", fd->rule_id));
            continue;
        }
        if (fd->ctx != SUNSET_CTX_CODE || !fd->matched) continue;
        uint32_t line = fd->span.line;
        for (size_t q = 0; q < c->file_classes[f].n; q++) {
            size_t k = VEC_AT(&c->file_classes[f], size_t, q);
            const cls *x = &VEC_AT(&c->classes, cls, k);
            if (line < x->c->line || line > x->c->line + 2) continue;
            bool hit = !strcmp(fd->matched, x->c->name);
            for (uint32_t b = 0; b < x->c->n_bases && !hit; b++) hit = same_tail(x->c->bases[b], fd->matched);
            if (hit)
                mark_seed(c, &c->cn[k], fd, fmt("rule %s at %s:%u", fd->rule_id, fd->path, line));
        }
        for (size_t k = 0; k < c->flags.n; k++) {
            const wordref *w = &VEC_AT(&c->flags, wordref, k);
            if (w->file == (size_t)f && line >= w->w->line && line <= w->w->end && strstr(fd->matched, w->w->text))
                mark_seed(c, &c->gn[k], fd, fmt("rule %s at %s:%u", fd->rule_id, fd->path, line));
        }
        for (size_t k = 0; k < c->passes.n; k++) {
            const wordref *w = &VEC_AT(&c->passes, wordref, k);
            if (w->file == (size_t)f && line >= w->w->line && line <= w->w->end)
                mark_seed(c, &c->pn[k], fd, fmt("rule %s at %s:%u", fd->rule_id, fd->path, line));
        }
        if (F->lang == SUNSET_LANG_CMAKE) {
            long tp = target_pos(c, fd->matched);
            for (size_t t = tp < 0 ? c->targets.n : (size_t)tp; t < c->targets.n && (long)t == tp; t++) {
                tgt *T = &VEC_AT(&c->targets, tgt, t);
                for (size_t d = 0; d < T->defs.n; d++) {
                    const cmdref *r = &VEC_AT(&c->cmds, cmdref, VEC_AT(&T->defs, size_t, d));
                    if (r->file == (size_t)f && r->cmd->arg_lines[0] == line)
                        mark_seed(c, &c->tn[t], fd, fmt("rule %s at %s:%u", fd->rule_id, fd->path, line));
                }
            }
        }
    }
}

/* ---- propagation ---- */

static bool py_considered(const ix_class *k) { return k->n_bases > 0; }


/* The one CMake file naming a source's basename anywhere, for the orphan rule. */
static bool cmake_mentions(const ctx *c, const char *path) {
    const char *b = base_name(path);
    if (u64_has(c->cm_args, c->n_cm_args, hash64(b, strlen(b), 7))) return true;
    return u64_has(c->glob_dirs, c->n_glob_dirs, hash64(path, dir_len(path), 9));
}

static bool has_cmakelists(const ctx *c, const char *path) {
    char buf[4096];
    size_t dn = dir_len(path);
    if (dn + 20 > sizeof buf) return false;
    memcpy(buf, path, dn);
    snprintf(buf + dn, sizeof buf - dn, "%sCMakeLists.txt", dn ? "/" : "");
    return sunset_index_file_pos(c->ix, buf) >= 0;
}

static bool propagate_once(ctx *c) {
    bool changed = false;
    /* classes */
    for (size_t k = 0; k < c->classes.n; k++) {
        if (c->cn[k].legacy) continue;
        const cls *x = &VEC_AT(&c->classes, cls, k);
        if (c->fn[x->file].legacy) {
            mark(c, &c->cn[k], &c->fn[x->file], fmt("%s is defined in %s, which is legacy: %s", x->c->name,
                                          c->files[x->file]->path, chain_of(&c->fn[x->file])));
            changed = true;
            continue;
        }
        for (uint32_t b = 0; b < x->c->n_bases; b++) {
            long r = resolve_base(c, k, x->c->bases[b]);
            if (r < 0 || !c->cn[r].legacy) continue;
            const cls *y = &VEC_AT(&c->classes, cls, r);
            mark(c, &c->cn[k], &c->cn[r],
                 fmt("%s:%u: %s derives %s (%s:%u), %s", c->files[x->file]->path, x->c->line, x->c->name,
                     y->c->name, c->files[y->file]->path, y->c->line, chain_of(&c->cn[r])));
            changed = true;
            break;
        }
    }
    /* files */
    for (size_t f = 0; f < c->nf; f++) {
        if (c->fn[f].legacy) continue;
        const ix_file *F = c->files[f];
        char *why = NULL;
        const node *cause = NULL;
        if (F->lang == SUNSET_LANG_PYTHON || (F->lang == SUNSET_LANG_CPP && is_header(F->path))) {
            size_t n = 0, leg = 0;
            long first = -1;
            for (size_t q = 0; q < c->file_classes[f].n; q++) {
                size_t k = VEC_AT(&c->file_classes[f], size_t, q);
                const cls *x = &VEC_AT(&c->classes, cls, k);
                if (F->lang == SUNSET_LANG_PYTHON && !py_considered(x->c)) continue;
                n++;
                if (c->cn[k].legacy) {
                    leg++;
                    if (first < 0) first = (long)k;
                }
            }
            bool pure = F->lang == SUNSET_LANG_CPP || in_test_tree(F->path) || F->funcs.n == 0;
            if (n && leg == n && pure)
                cause = &c->cn[first], why = fmt("every class in it is legacy: %s", chain_of(&c->cn[first]));
        }
        if (!why && (F->lang == SUNSET_LANG_PYTHON || (F->lang == SUNSET_LANG_CPP && is_header(F->path))) &&
            c->users[f].n) {
            bool all = true, live_test = false;
            if (F->lang == SUNSET_LANG_PYTHON && is_test_module(F->path)) {
                for (size_t q = 0; q < c->file_classes[f].n; q++) {
                    size_t k = VEC_AT(&c->file_classes[f], size_t, q);
                    if (py_considered(VEC_AT(&c->classes, cls, k).c) && !c->cn[k].legacy) live_test = true;
                }
            }
            for (size_t i = 0; i < c->users[f].n && all; i++) all = c->fn[VEC_AT(&c->users[f], size_t, i)].legacy;
            if (all && !live_test) {
                sb b = {0};
                sb_printf(&b, "%s only by legacy files: ", F->lang == SUNSET_LANG_PYTHON ? "imported" : "included");
                for (size_t i = 0; i < c->users[f].n && i < 4; i++) {
                    size_t g = VEC_AT(&c->users[f], size_t, i);
                    sb_printf(&b, "%s%s (%s)", i ? "; " : "", c->files[g]->path, chain_of(&c->fn[g]));
                    cause = &c->fn[g];
                }
                if (c->users[f].n > 4) sb_printf(&b, "; and %zu more", c->users[f].n - 4);
                why = b.oom ? (sb_free(&b), NULL) : sb_take(&b);
                if (!why) c->oom = true;
            }
        }
        if (!why && F->blank && F->lang == SUNSET_LANG_PYTHON && is_test_module(F->path)) {
            char stem[512];
            snprintf(stem, sizeof stem, "%s", base_name(F->path));
            char *dot = strrchr(stem, '.');
            if (dot) *dot = 0;
            long t = target_pos(c, stem);
            if (t >= 0 && c->tn[t].legacy)
                cause = &c->tn[t], why = fmt("empty, and registered as the legacy test target %s (%s)", stem, chain_of(&c->tn[t]));
        }
        if (!why && F->lang == SUNSET_LANG_CPP && !is_header(F->path)) {
            /* a source whose header is legacy, when it defines nothing else */
            for (size_t e = 0; e < c->out[f].n && !why; e++) {
                size_t g = VEC_AT(&c->out[f], edge, e).to;
                const char *a = F->path, *b = c->files[g]->path;
                size_t an = strrchr(a, '.') ? (size_t)(strrchr(a, '.') - a) : strlen(a);
                size_t bn = strrchr(b, '.') ? (size_t)(strrchr(b, '.') - b) : strlen(b);
                if (an != bn || strncmp(a, b, an) || !c->fn[g].legacy) continue;
                bool other = false;
                for (size_t q = 0; q < c->file_classes[f].n; q++)
                    if (!c->cn[VEC_AT(&c->file_classes[f], size_t, q)].legacy) other = true;
                if (!other) cause = &c->fn[g], why = fmt("implements %s, which is legacy: %s", b, chain_of(&c->fn[g]));
            }
            if (!why && c->file_targets_n[f] == 0 && has_cmakelists(c, F->path) && !cmake_mentions(c, F->path)) {
                for (size_t e = 0; e < c->out[f].n && !why; e++) {
                    size_t g = VEC_AT(&c->out[f], edge, e).to;
                    if (c->fn[g].legacy && is_header(c->files[g]->path))
                        cause = &c->fn[g], why = fmt("no CMake target compiles it, and it includes legacy %s (%s)",
                                  c->files[g]->path, chain_of(&c->fn[g]));
                }
            }
        }
        if (!why && c->file_targets_n[f]) {
            size_t n = 0, leg = 0;
            long first = -1;
            for (size_t q = 0; q < c->file_tgts[f].n; q++) {
                size_t t = VEC_AT(&c->file_tgts[f], size_t, q);
                n++;
                if (c->tn[t].legacy) {
                    leg++;
                    if (first < 0) first = (long)t;
                }
            }
            if (n && leg == n && F->lang == SUNSET_LANG_CPP)
                cause = &c->tn[first], why = fmt("compiled only by legacy target %s (%s)",
                          VEC_AT(&c->targets, tgt, first).name, chain_of(&c->tn[first]));
        }
        if (why) {
            mark(c, &c->fn[f], cause, why);
            changed = true;
        }
    }
    /* targets */
    for (size_t t = 0; t < c->targets.n; t++) {
        if (c->tn[t].legacy) continue;
        tgt *T = &VEC_AT(&c->targets, tgt, t);
        char *why = NULL;
        const node *cause = NULL;
        if (T->srcs.n) {
            bool all = true;
            for (size_t s = 0; s < T->srcs.n && all; s++) all = c->fn[VEC_AT(&T->srcs, size_t, s)].legacy;
            size_t s0 = VEC_AT(&T->srcs, size_t, 0);
            if (all) cause = &c->fn[s0], why = fmt("every source is legacy: %s (%s)", c->files[s0]->path, chain_of(&c->fn[s0]));
        }
        if (!why && T->dependents.n) {
            bool all = true;
            for (size_t d = 0; d < T->dependents.n && all; d++) all = c->tn[VEC_AT(&T->dependents, size_t, d)].legacy;
            size_t d0 = VEC_AT(&T->dependents, size_t, 0);
            if (all)
                cause = &c->tn[d0], why = fmt("only legacy targets depend on it: %s (%s)", VEC_AT(&c->targets, tgt, d0).name,
                          chain_of(&c->tn[d0]));
        }
        if (why) {
            mark(c, &c->tn[t], cause, why);
            changed = true;
        }
    }
    /* flags and passes: only legacy non-CMake files use them */
    for (int kind = 0; kind < 2; kind++) {
        vec *v = kind ? &c->passes : &c->flags;
        node *nodes = kind ? c->pn : c->gn;
        for (size_t i = 0; i < v->n; i++) {
            if (nodes[i].legacy) continue;
            const wordref *w = &VEC_AT(v, wordref, i);
            char name[300];
            snprintf(name, sizeof name, kind ? "%s" : "FLAGS_%s", w->w->text);
            if (c->fn[w->file].legacy) {
                mark(c, &nodes[i], &c->fn[w->file], fmt("defined in legacy %s (%s)", c->files[w->file]->path,
                                              chain_of(&c->fn[w->file])));
                changed = true;
                continue;
            }
            const vec *us = kind ? &c->pass_users[i] : &c->flag_users[i];
            size_t users = us->n, leg = 0;
            long first = -1;
            for (size_t j = 0; j < us->n; j++) {
                size_t f = VEC_AT(us, size_t, j);
                if (c->fn[f].legacy) {
                    leg++;
                    if (first < 0) first = (long)f;
                }
            }
            if (users && leg == users) {
                mark(c, &nodes[i], &c->fn[first], fmt("%s only in legacy code: %s (%s)", kind ? "used" : "read",
                                              c->files[first]->path, chain_of(&c->fn[first])));
                changed = true;
            }
        }
    }
    return changed;
}

/* ---- liveness ---- */

static bool reaches(const ctx *c, size_t from, size_t to, int depth) {
    if (from == to) return true;
    if (depth == 0) return false;
    for (size_t e = 0; e < c->out[from].n; e++)
        if (reaches(c, VEC_AT(&c->out[from], edge, e).to, to, depth - 1)) return true;
    return false;
}

static bool file_live(const ctx *c, size_t f) { return !c->fn[f].legacy || c->fn[f].live; }

/* Does live code in file f use `name`? In Python, a use inside the body of a dead legacy class
 * does not count (deleting the class deletes the use). */
static bool uses_live(const ctx *c, size_t f, const char *name) {
    const ix_file *F = c->files[f];
    if (F->lang != SUNSET_LANG_PYTHON || !c->file_classes[f].n) return ix_file_uses(F, name);
    if (ix_hashes_have(F->outside, F->n_outside, name)) return true;
    for (size_t q = 0; q < c->file_classes[f].n; q++) {
        size_t k = VEC_AT(&c->file_classes[f], size_t, q);
        const ix_class *x = VEC_AT(&c->classes, cls, k).c;
        if (c->cn[k].legacy && !c->cn[k].live) continue;
        if (ix_hashes_have(x->names, x->n_names, name)) return true;
    }
    return false;
}

/* An edge from a live file: does it still count? Python imports are re-checked against live uses. */
static bool edge_live(const ctx *c, size_t f, const edge *ed) {
    if (!ed->counts) return false;
    const ix_file *F = c->files[f];
    if (F->lang != SUNSET_LANG_PYTHON) return true;
    for (size_t i = 0; i < F->imports.n; i++) {
        const ix_import *m = &VEC_AT(&F->imports, ix_import, i);
        if (m->line != ed->line) continue;
        if (m->name && !strcmp(m->name, "*")) return true;
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
        if (strlen(bound) < 3 || uses_live(c, f, bound)) return true;
    }
    return false;
}

static void make_live(ctx *c, node *n, char *who, bool *changed) {
    add_caller(c, n, who);
    if (!n->live) {
        n->live = true;
        *changed = true;
    }
}

static void liveness(ctx *c) {
    /* the users of every legacy class's name, computed once */
    vec leg = VEC_INIT(size_t);
    for (size_t k = 0; k < c->classes.n; k++)
        if (c->cn[k].legacy && !vec_push(&leg, &k)) c->oom = true;
    const char **names = sunset_calloc(leg.n ? leg.n : 1, sizeof(char *));
    vec *cu = sunset_calloc(leg.n ? leg.n : 1, sizeof(vec));
    if (!names || !cu) c->oom = true;
    for (size_t i = 0; names && i < leg.n; i++) names[i] = VEC_AT(&c->classes, cls, VEC_AT(&leg, size_t, i)).c->name;
    if (!c->oom && users_of(c, names, leg.n, cu)) c->oom = true;
    bool changed = true;
    while (changed && !c->oom) {
        changed = false;
        for (size_t f = 0; f < c->nf; f++) {
            if (!file_live(c, f)) continue;
            for (size_t e = 0; e < c->out[f].n; e++) {
                const edge *ed = &VEC_AT(&c->out[f], edge, e);
                if (!c->fn[ed->to].legacy || !edge_live(c, f, ed)) continue;
                if (c->fn[ed->to].live) {
                    add_caller(c, &c->fn[ed->to], fmt("%s:%u", c->files[f]->path, ed->line));
                    continue;
                }
                make_live(c, &c->fn[ed->to], fmt("%s:%u", c->files[f]->path, ed->line), &changed);
            }
        }
        for (size_t i = 0; i < leg.n; i++) {
            size_t k = VEC_AT(&leg, size_t, i);
            const cls *x = &VEC_AT(&c->classes, cls, k);
            /* C++: a class of a legacy file that stays live stays with it (its own file's uses
             * cannot be told from its definition) */
            if (!c->cn[k].live && c->files[x->file]->lang == SUNSET_LANG_CPP && c->fn[x->file].legacy &&
                c->fn[x->file].live)
                make_live(c, &c->cn[k], fmt("defined in %s, which stays live", c->files[x->file]->path), &changed);
            /* C++: uses within one file are not tracked, so a live class keeps its neighbours */
            if (!c->cn[k].live && c->files[x->file]->lang == SUNSET_LANG_CPP) {
                for (size_t q = 0; q < c->file_classes[x->file].n; q++) {
                    size_t o = VEC_AT(&c->file_classes[x->file], size_t, q);
                    if (o == k || !c->cn[o].legacy || !c->cn[o].live) continue;
                    make_live(c, &c->cn[k], fmt("in the same file as live %s", VEC_AT(&c->classes, cls, o).c->name),
                              &changed);
                    break;
                }
            }
            for (size_t j = 0; j < cu[i].n; j++) {
                size_t f = VEC_AT(&cu[i], size_t, j);
                if (f == x->file || !file_live(c, f)) continue;
                if (c->cn[k].live && c->cn[k].callers.n >= 20) break;
                if (!uses_live(c, f, x->c->name)) continue;
                if (!reaches(c, f, x->file, 3)) continue;
                make_live(c, &c->cn[k], fmt("%s uses %s", c->files[f]->path, x->c->name), &changed);
                if (!c->fn[x->file].live && c->fn[x->file].legacy)
                    make_live(c, &c->fn[x->file], fmt("%s uses %s", c->files[f]->path, x->c->name), &changed);
            }
        }
        for (size_t t = 0; t < c->targets.n; t++) {
            if (c->tn[t].legacy && !c->tn[t].live) continue;
            tgt *T = &VEC_AT(&c->targets, tgt, t);
            const cmdref *r = &VEC_AT(&c->cmds, cmdref, VEC_AT(&T->defs, size_t, 0));
            for (size_t k = 0; k < T->deps.n; k++) {
                long d = target_pos(c, VEC_AT(&T->deps, char *, k));
                if (d < 0 || !c->tn[d].legacy || (size_t)d == t) continue;
                char *who = fmt("%s:%u target %s", c->files[r->file]->path, r->cmd->line, T->name);
                if (c->tn[d].live) add_caller(c, &c->tn[d], who);
                else make_live(c, &c->tn[d], who, &changed);
            }
            for (size_t s = 0; s < T->srcs.n; s++) {
                size_t sf = VEC_AT(&T->srcs, size_t, s);
                if (!c->fn[sf].legacy || c->fn[sf].live) continue;
                make_live(c, &c->fn[sf], fmt("%s:%u target %s compiles it", c->files[r->file]->path,
                                             r->cmd->line, T->name), &changed);
            }
        }
        /* a source implementing a header that stays live stays too */
        for (size_t f = 0; f < c->nf; f++) {
            if (!c->fn[f].legacy || c->fn[f].live || c->files[f]->lang != SUNSET_LANG_CPP ||
                is_header(c->files[f]->path))
                continue;
            const char *a = c->files[f]->path;
            size_t an = strrchr(a, '.') ? (size_t)(strrchr(a, '.') - a) : strlen(a);
            for (size_t e = 0; e < c->out[f].n; e++) {
                size_t g = VEC_AT(&c->out[f], edge, e).to;
                const char *b = c->files[g]->path;
                size_t bn = strrchr(b, '.') ? (size_t)(strrchr(b, '.') - b) : strlen(b);
                if (an != bn || strncmp(a, b, an) || !file_live(c, g)) continue;
                make_live(c, &c->fn[f], fmt("implements %s, which stays", b), &changed);
                break;
            }
        }
        /* a live legacy file keeps its targets */
        for (size_t t = 0; t < c->targets.n; t++) {
            if (!c->tn[t].legacy || c->tn[t].live) continue;
            tgt *T = &VEC_AT(&c->targets, tgt, t);
            for (size_t s = 0; s < T->srcs.n; s++) {
                size_t sf = VEC_AT(&T->srcs, size_t, s);
                if (c->fn[sf].legacy && c->fn[sf].live) {
                    make_live(c, &c->tn[t], fmt("compiles live %s", c->files[sf]->path), &changed);
                    break;
                }
            }
        }
    }
    for (size_t i = 0; cu && i < leg.n; i++) vec_free(&cu[i]);
    sunset_free(cu);
    sunset_free(names);
    vec_free(&leg);
}

/* Flags and passes that live code uses are live, and so is the legacy file defining them
 * (a pass registered in a legacy file that a live file names in USE_PASS keeps that file).
 * Returns whether anything changed. */
static bool flags_passes_live(ctx *c) {
    bool changed = false;
    for (int kind = 0; kind < 2; kind++) {
        vec *v = kind ? &c->passes : &c->flags;
        node *nodes = kind ? c->pn : c->gn;
        for (size_t i = 0; i < v->n; i++) {
            const wordref *w = &VEC_AT(v, wordref, i);
            if (!nodes[i].legacy && !c->fn[w->file].legacy) continue;
            char name[300];
            snprintf(name, sizeof name, kind ? "%s" : "FLAGS_%s", w->w->text);
            const vec *us = kind ? &c->pass_users[i] : &c->flag_users[i];
            for (size_t j = 0; j < us->n; j++) {
                size_t f = VEC_AT(us, size_t, j);
                if (!file_live(c, f)) continue;
                if (nodes[i].legacy) {
                    if (nodes[i].live) add_caller(c, &nodes[i], fmt("%s uses %s", c->files[f]->path, name));
                    else make_live(c, &nodes[i], fmt("%s uses %s", c->files[f]->path, name), &changed);
                }
                if (c->fn[w->file].legacy && !c->fn[w->file].live)
                    make_live(c, &c->fn[w->file], fmt("%s uses %s %s defined here", c->files[f]->path,
                                                      kind ? "pass" : "flag", w->w->text), &changed);
            }
        }
    }
    return changed;
}

/* ---- the plan ---- */

const char *rm_kind_name(rm_kind k) {
    static const char *const names[] = {"file", "class", "target", "flag", "pass", "import", "registration"};
    return (unsigned)k < RM_KIND_COUNT ? names[k] : "?";
}

static rm_item *plan_add(ctx *c, rm_plan *p, rm_kind kind, const char *path, const char *name,
                         uint32_t line, uint32_t end) {
    if (p->n_items == p->cap) {
        size_t cap = p->cap ? p->cap * 2 : 64;
        rm_item *v = sunset_realloc(p->items, cap * sizeof *v);
        if (!v) {
            c->oom = true;
            return NULL;
        }
        p->items = v;
        p->cap = cap;
    }
    rm_item *it = &p->items[p->n_items];
    memset(it, 0, sizeof *it);
    it->kind = kind;
    it->path = dupz(path);
    it->name = name ? dupz(name) : NULL;
    it->line = line;
    it->end = end < line ? line : end;
    if (!it->path || (name && !it->name)) {
        sunset_free(it->path);
        sunset_free(it->name);
        c->oom = true;
        return NULL;
    }
    p->n_items++;
    return it;
}

static void item_from_node(ctx *c, rm_item *it, const node *n) {
    if (!it) return;
    it->seed_rule = n->seed.rule_id;
    it->seed_family = n->seed.family;
    it->seed_task = n->seed.task;
    it->derived = n->derived;
    it->live = n->live;
    it->chain = n->chain ? dupz(n->chain) : NULL;
    if (n->callers.n) {
        it->callers = sunset_calloc(n->callers.n, sizeof(char *));
        if (!it->callers) {
            c->oom = true;
            return;
        }
        for (size_t i = 0; i < n->callers.n; i++) {
            it->callers[i] = dupz(VEC_AT(&n->callers, char *, i));
            if (it->callers[i]) it->n_callers++;
        }
    }
}

/* Names of removed things that registrations mention: test module stems, dead targets. */
typedef struct rmname {
    const char *name;
    int step;
    const char *why; /* "test module x.py" / "target t" */
} rmname;

static const rmname *find_rmname(const vec *v, const char *s) {
    for (size_t i = 0; i < v->n; i++)
        if (!strcmp(VEC_AT(v, rmname, i).name, s)) return &VEC_AT(v, rmname, i);
    return NULL;
}

static int cmp_item(const void *a, const void *b) {
    const rm_item *x = a, *y = b;
    bool xf = x->kind == RM_FILE, yf = y->kind == RM_FILE;
    if (xf != yf) return xf ? -1 : 1;
    if (x->step != y->step) return x->step < y->step ? -1 : 1;
    int r = strcmp(x->path, y->path);
    if (r) return r;
    if (x->line != y->line) return x->line < y->line ? -1 : 1;
    if (x->kind != y->kind) return x->kind < y->kind ? -1 : 1;
    return strcmp(x->name ? x->name : "", y->name ? y->name : "");
}

static void registrations(ctx *c, rm_plan *p, const vec *names, const bool *dead_target) {
    /* CMake commands */
    for (size_t i = 0; i < c->cmds.n; i++) {
        const cmdref *r = &VEC_AT(&c->cmds, cmdref, i);
        const ix_cmd *k = r->cmd;
        const ix_file *F = c->files[r->file];
        if (c->fn[r->file].legacy && !c->fn[r->file].live) continue;
        if (target_command(k)) {
            long t = target_pos(c, k->args[0]);
            if (t >= 0 && dead_target[t]) {
                rm_item *it = plan_add(c, p, RM_TARGET, F->path, k->args[0], k->line, k->end);
                if (it) {
                    item_from_node(c, it, &c->tn[t]);
                    it->enclosing = fmt("%s(%s)", k->name, k->args[0]);
                    it->patchable = true;
                    const rmname *rn = find_rmname(names, k->args[0]);
                    it->step = rn ? rn->step : 0;
                }
                continue;
            }
            /* a live target listing a removed source or dependency: drop that entry */
            for (uint32_t a = 1; a < k->n_args; a++) {
                const char *arg = k->args[a];
                long sf = lookup_rel(c, F->path, dir_len(F->path), arg);
                bool removed_src = sf >= 0 && c->fn[sf].legacy && !c->fn[sf].live;
                long dt = target_pos(c, arg);
                bool removed_dep = dt >= 0 && dead_target[dt];
                if (!removed_src && !removed_dep) continue;
                rm_item *it = plan_add(c, p, RM_REGISTRATION, F->path, arg, k->arg_lines[a], k->arg_lines[a]);
                if (it) {
                    it->enclosing = fmt("%s(%s)", k->name, k->args[0]);
                    it->chain = fmt("%s %s is removed", removed_src ? "source" : "target", arg);
                }
            }
            continue;
        }
        /* list(REMOVE_ITEM VAR names...), set_tests_properties(names... PROPERTIES ...), other */
        uint32_t from = 0, to = k->n_args;
        if (!strcmp(k->name, "list")) {
            if (k->n_args < 3 || strcmp(k->args[0], "REMOVE_ITEM") != 0) continue;
            from = 2;
        } else if (!strcmp(k->name, "set_tests_properties")) {
            for (to = 0; to < k->n_args && strcmp(k->args[to], "PROPERTIES") != 0; to++) {}
        } else if (!strcmp(k->name, "set") || !strcmp(k->name, "foreach") || !strcmp(k->name, "if") ||
                   !strcmp(k->name, "file") || !strcmp(k->name, "string")) {
            continue;
        } else {
            to = k->n_args == 1 ? 1 : 0; /* copy_onnx(name): a one-argument command */
        }
        uint32_t hits = 0;
        for (uint32_t a = from; a < to; a++) hits += find_rmname(names, k->args[a]) != NULL;
        if (!hits) continue;
        if (hits == to - from) {
            rm_item *it = plan_add(c, p, RM_REGISTRATION, F->path, k->args[from], k->line, k->end);
            if (it) {
                const rmname *rn = find_rmname(names, k->args[from]);
                it->enclosing = fmt("%s(%s)", k->name, k->args[0]);
                it->chain = fmt("registers %s, which is removed", rn->why);
                it->patchable = true;
                it->step = rn->step;
            }
        } else {
            for (uint32_t a = from; a < to; a++) {
                const rmname *rn = find_rmname(names, k->args[a]);
                if (!rn) continue;
                rm_item *it = plan_add(c, p, RM_REGISTRATION, F->path, k->args[a], k->arg_lines[a], k->arg_lines[a]);
                if (it) {
                    it->enclosing = fmt("%s(%s)", k->name, k->args[0]);
                    it->chain = fmt("names %s, which is removed (the command also names live tests)", rn->why);
                    it->step = rn->step;
                }
            }
        }
    }
    /* tool lists and scripts */
    for (size_t f = 0; f < c->nf; f++) {
        const ix_file *F = c->files[f];
        if (c->fn[f].legacy && !c->fn[f].live) continue;
        for (size_t i = 0; i < F->list_words.n; i++) {
            const ix_word *w = &VEC_AT(&F->list_words, ix_word, i);
            const rmname *rn = find_rmname(names, w->text);
            if (!rn) continue;
            rm_item *it = plan_add(c, p, RM_REGISTRATION, F->path, w->text, w->line, w->end);
            if (it) {
                it->enclosing = dupz(F->lang == SUNSET_LANG_SHELL ? "script" : "tool list");
                it->chain = fmt("names %s, which is removed", rn->why);
                it->patchable = true; /* the patch writer keeps only lines holding just this entry */
                it->step = rn->step;
            }
        }
    }
}

static int plan(ctx *c, rm_plan *p) {
    /* whole files: legacy and dead */
    size_t nf = c->nf;
    bool *dead = sunset_calloc(nf ? nf : 1, 1);
    int *step = sunset_calloc(nf ? nf : 1, sizeof(int));
    size_t *indeg = sunset_calloc(nf ? nf : 1, sizeof(size_t));
    bool *dead_target = sunset_calloc(c->targets.n ? c->targets.n : 1, 1);
    vec names = VEC_INIT(rmname);
    int rc = -1;
    if (!dead || !step || !indeg || !dead_target) goto cleanup;
    for (size_t f = 0; f < nf; f++) {
        if (!c->fn[f].legacy) continue;
        p->n_legacy_files++;
        p->n_derived_files += c->fn[f].derived;
        if (c->fn[f].live) p->n_live_files++;
        else {
            dead[f] = true;
            p->n_dead_files++;
        }
    }
    /* order: a file before the files it depends on (Kahn over edges among dead files) */
    for (size_t f = 0; f < nf; f++)
        if (dead[f])
            for (size_t e = 0; e < c->out[f].n; e++) {
                size_t to = VEC_AT(&c->out[f], edge, e).to;
                if (dead[to] && to != f) indeg[to]++;
            }
    int s = 0;
    size_t left = p->n_dead_files;
    while (left) {
        bool progress = false;
        for (size_t f = 0; f < nf; f++) {
            if (!dead[f] || step[f] || indeg[f]) continue;
            step[f] = ++s;
            left--;
            progress = true;
            for (size_t e = 0; e < c->out[f].n; e++) {
                size_t to = VEC_AT(&c->out[f], edge, e).to;
                if (dead[to] && to != f && indeg[to]) indeg[to]--;
            }
            break; /* restart: always the first ready file by path */
        }
        if (!progress) {
            /* a cycle: take the first remaining file by path */
            for (size_t f = 0; f < nf; f++)
                if (dead[f] && !step[f]) {
                    step[f] = ++s;
                    left--;
                    for (size_t e = 0; e < c->out[f].n; e++) {
                        size_t to = VEC_AT(&c->out[f], edge, e).to;
                        if (dead[to] && to != f && indeg[to]) indeg[to]--;
                    }
                    break;
                }
        }
    }
    for (size_t f = 0; f < nf; f++) {
        const ix_file *F = c->files[f];
        if (!c->fn[f].legacy) continue;
        rm_item *it = plan_add(c, p, RM_FILE, F->path, NULL, 1, F->n_lines ? F->n_lines : 1);
        item_from_node(c, it, &c->fn[f]);
        if (it) {
            it->step = dead[f] ? step[f] : 0;
            it->patchable = dead[f];
            /* files that stay but still import or include it (unused, or only from dead code) */
            sb after = {0};
            for (size_t u = 0; dead[f] && u < c->users[f].n; u++) {
                size_t g = VEC_AT(&c->users[f], size_t, u);
                if (dead[g]) continue;
                for (size_t e = 0; e < c->out[g].n; e++)
                    if (VEC_AT(&c->out[g], edge, e).to == f) {
                        sb_printf(&after, "%s%s:%u", after.len ? "; " : "", c->files[g]->path,
                                  VEC_AT(&c->out[g], edge, e).line);
                        break;
                    }
            }
            if (after.len) {
                it->patchable = false;
                it->after = sb_take(&after);
                if (!it->after) c->oom = true;
            }
            sb_free(&after);
        }
        if (dead[f] && F->lang == SUNSET_LANG_PYTHON && is_test_module(F->path)) {
            if (!it) goto cleanup;
            char *stem = dupz(base_name(F->path));
            if (!stem) goto cleanup;
            char *dot = strrchr(stem, '.');
            if (dot) *dot = 0;
            it->name = stem; /* owned by the item; the name list borrows it */
            rmname rn = {stem, step[f], F->path};
            vec_push(&names, &rn);
        }
    }
    for (size_t t = 0; t < c->targets.n; t++) {
        if (!c->tn[t].legacy || c->tn[t].live) continue;
        tgt *T = &VEC_AT(&c->targets, tgt, t);
        dead_target[t] = true;
        if (find_rmname(&names, T->name)) continue;
        int st = 0;
        for (size_t k = 0; k < T->srcs.n; k++) {
            size_t sf = VEC_AT(&T->srcs, size_t, k);
            if (dead[sf] && (!st || step[sf] < st)) st = step[sf];
        }
        rmname rn = {T->name, st, T->name};
        vec_push(&names, &rn);
    }
    registrations(c, p, &names, dead_target);
    /* partial: dead legacy classes in files that stay */
    for (size_t k = 0; k < c->classes.n; k++) {
        const cls *x = &VEC_AT(&c->classes, cls, k);
        if (!c->cn[k].legacy || dead[x->file]) continue;
        rm_item *it = plan_add(c, p, RM_CLASS, c->files[x->file]->path, x->c->name, x->c->line, x->c->end);
        item_from_node(c, it, &c->cn[k]);
        if (it) it->enclosing = fmt("class %s", x->c->name);
    }
    /* imports and includes of removed or legacy modules in files that stay */
    for (size_t f = 0; f < nf; f++) {
        if (dead[f]) continue;
        const ix_file *F = c->files[f];
        for (size_t e = 0; e < c->out[f].n; e++) {
            const edge *ed = &VEC_AT(&c->out[f], edge, e);
            if (!c->fn[ed->to].legacy || (ed->counts && !dead[ed->to])) continue;
            bool other = false, seen = false;
            for (size_t e2 = 0; e2 < c->out[f].n; e2++) {
                const edge *o = &VEC_AT(&c->out[f], edge, e2);
                if (o->to != ed->to) continue;
                if (o->counts && !dead[ed->to]) other = true;
                if (e2 < e && o->line == ed->line) seen = true;
            }
            if (other || seen) continue;
            uint32_t end = ed->line;
            for (size_t i = 0; i < F->imports.n; i++)
                if (VEC_AT(&F->imports, ix_import, i).line == ed->line) end = VEC_AT(&F->imports, ix_import, i).end;
            rm_item *it = plan_add(c, p, RM_IMPORT, F->path, c->files[ed->to]->path, ed->line, end);
            if (it) {
                it->chain = fmt("%s %s, which is legacy%s: %s", F->lang == SUNSET_LANG_PYTHON ? "imports" : "includes",
                                c->files[ed->to]->path, ed->counts ? "" : " and unused here",
                                chain_of(&c->fn[ed->to]));
                it->derived = true;
                it->live = !dead[ed->to];
            }
        }
    }
    /* flags and passes defined in files that stay */
    for (int kind = 0; kind < 2; kind++) {
        vec *v = kind ? &c->passes : &c->flags;
        node *nodes = kind ? c->pn : c->gn;
        for (size_t i = 0; i < v->n; i++) {
            const wordref *w = &VEC_AT(v, wordref, i);
            if (!nodes[i].legacy || dead[w->file]) continue;
            rm_item *it = plan_add(c, p, kind ? RM_PASS : RM_FLAG, c->files[w->file]->path, w->w->text,
                                   w->w->line, w->w->end);
            item_from_node(c, it, &nodes[i]);
        }
    }
    if (!c->oom) qsort(p->items, p->n_items, sizeof *p->items, cmp_item);
    rc = c->oom ? -1 : 0;
cleanup:
    vec_free(&names);
    sunset_free(dead);
    sunset_free(step);
    sunset_free(indeg);
    sunset_free(dead_target);
    return rc;
}

static void ctx_free(ctx *c) {
    for (size_t f = 0; c->fn && f < c->nf; f++) node_free(&c->fn[f]);
    for (size_t f = 0; c->out && f < c->nf; f++) vec_free(&c->out[f]);
    for (size_t f = 0; c->in && f < c->nf; f++) vec_free(&c->in[f]);
    for (size_t f = 0; c->users && f < c->nf; f++) vec_free(&c->users[f]);
    for (size_t f = 0; c->file_classes && f < c->nf; f++) vec_free(&c->file_classes[f]);
    for (size_t f = 0; c->file_tgts && f < c->nf; f++) vec_free(&c->file_tgts[f]);
    sunset_free(c->file_classes);
    sunset_free(c->file_tgts);
    sunset_free(c->tgt_sorted);
    sunset_free(c->cm_args);
    sunset_free(c->glob_dirs);
    for (size_t k = 0; c->cn && k < c->classes.n; k++) node_free(&c->cn[k]);
    for (size_t t = 0; t < c->targets.n; t++) {
        tgt *T = &VEC_AT(&c->targets, tgt, t);
        vec_free(&T->defs);
        vec_free(&T->srcs);
        vec_free(&T->deps);
        vec_free(&T->dependents);
        if (c->tn) node_free(&c->tn[t]);
    }
    for (size_t i = 0; c->flag_users && i < c->flags.n; i++) vec_free(&c->flag_users[i]);
    for (size_t i = 0; c->pass_users && i < c->passes.n; i++) vec_free(&c->pass_users[i]);
    sunset_free(c->flag_users);
    sunset_free(c->pass_users);
    for (size_t i = 0; c->gn && i < c->flags.n; i++) node_free(&c->gn[i]);
    for (size_t i = 0; c->pn && i < c->passes.n; i++) node_free(&c->pn[i]);
    sunset_free(c->fn);
    sunset_free(c->out);
    sunset_free(c->in);
    sunset_free(c->users);
    sunset_free(c->cn);
    sunset_free(c->by_name);
    sunset_free(c->tn);
    sunset_free(c->gn);
    sunset_free(c->pn);
    sunset_free(c->file_targets_n);
    vec_free(&c->classes);
    vec_free(&c->cmds);
    vec_free(&c->targets);
    vec_free(&c->flags);
    vec_free(&c->passes);
}

int rm_plan_build(const sunset_index *ix, const sunset_result *res, rm_plan *p) {
    ctx c = {0};
    c.ix = ix;
    c.res = res;
    int rc = -1;
    memset(p, 0, sizeof *p);
    p->n_files_indexed = ix->files.n;
    if (res->root && !(p->root = dupz(res->root))) goto cleanup;
    if (build(&c)) goto cleanup;
    if (flag_pass_users(&c)) goto cleanup;
    seeds(&c);
    while (!c.oom && propagate_once(&c)) {}
    /* live files keep the passes and flags they use, which can keep more files live */
    do {
        liveness(&c);
    } while (!c.oom && flags_passes_live(&c));
    if (c.oom) goto cleanup;
    rc = plan(&c, p);
cleanup:
    ctx_free(&c);
    if (rc) rm_plan_free(p);
    return rc;
}

/* Is path a test (settings.test_paths), as the engine decides for ordinary findings? */
static bool is_test_path(const sunset_ruleset *rs, pcre2_match_data *md, const char *path) {
    for (size_t i = 0; rs && i < rs->test_paths.n; i++)
        if (re_search(VEC_AT(&rs->test_paths, pcre2_code *, i), path, strlen(path), 0, md, NULL, NULL)) return true;
    return false;
}

int rm_plan_derived_findings(const rm_plan *p, const sunset_ruleset *rs, sunset_result *res) {
    pcre2_match_data *md = pcre2_match_data_create(1, NULL);
    if (!md) return -1;
    int rc = -1;
    for (size_t i = 0; i < p->n_items; i++) {
        const rm_item *it = &p->items[i];
        if (!it->derived || !it->chain || it->kind == RM_IMPORT || it->kind == RM_REGISTRATION) continue;
        if (!it->seed_rule) continue;
        if (res->n_findings == res->cap_findings) {
            size_t cap = res->cap_findings ? res->cap_findings * 2 : 64;
            sunset_finding *v = sunset_realloc(res->findings, cap * sizeof *v);
            if (!v) goto cleanup;
            res->findings = v;
            res->cap_findings = cap;
        }
        sunset_finding f = {0};
        f.rule_id = "DERIVED";
        f.family = it->seed_family;
        f.task = it->seed_task;
        f.message = it->kind == RM_FILE ? "legacy across files: the whole file only serves legacy code"
                                        : "legacy across files: only serves legacy code";
        f.fix = it->live ? "migrate its live callers first (sunset removable lists them)"
                         : "remove it (sunset removable --patch for whole files)";
        f.severity = SUNSET_SEV_WARNING;
        f.ctx = SUNSET_CTX_CODE;
        f.span = (sunset_span){it->line, 1, it->line, 1};
        /* the item's own path decides, as for every finding; not the seed's */
        f.test = is_test_path(rs, md, it->path);
        f.derived = true;
        f.path = dupz(it->path);
        f.matched = dupz(it->name ? it->name : it->path);
        f.snippet = dupz("");
        f.chain = fmt("%s%s", it->live ? "[live] " : "", it->chain);
        if (it->kind != RM_FILE) {
            f.enc_kind = dupz(rm_kind_name(it->kind));
            f.enc_name = it->name ? dupz(it->name) : NULL;
            f.enc_start = it->line;
            f.enc_end = it->end;
        }
        if (!f.path || !f.matched || !f.snippet || !f.chain || (it->kind != RM_FILE && (!f.enc_kind || !f.enc_name))) {
            sunset_free(f.path);
            sunset_free(f.matched);
            sunset_free(f.snippet);
            sunset_free(f.chain);
            sunset_free(f.enc_kind);
            sunset_free(f.enc_name);
            goto cleanup;
        }
        res->findings[res->n_findings++] = f;
    }
    rc = 0;
cleanup:
    pcre2_match_data_free(md);
    return rc;
}

void rm_plan_free(rm_plan *p) {
    if (!p) return;
    for (size_t i = 0; i < p->n_items; i++) {
        rm_item *it = &p->items[i];
        sunset_free(it->path);
        sunset_free(it->name);
        sunset_free(it->enclosing);
        sunset_free(it->chain);
        sunset_free(it->after);
        for (size_t k = 0; k < it->n_callers; k++) sunset_free(it->callers[k]);
        sunset_free(it->callers);
    }
    sunset_free(p->items);
    sunset_free(p->root);
    memset(p, 0, sizeof *p);
}
