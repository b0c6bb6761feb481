/*
 * refs.c — every reference to a file or CMake target that a removal could leave dangling, in
 * one enumeration shared by the closure (closure.c: which deletions the patch may make, and
 * the line edits they need) and the verification (verify.c: does a patch leave any behind).
 *
 * A reference lies in a file that stays and names a file that goes or a target that goes:
 * a CMake argument naming the file as a path relative to its CMake file (SRCS, set() lists,
 * anything), a CMake argument naming a removed Python test module by its stem (py_test_modules,
 * set_tests_properties, list(REMOVE_ITEM ...)), a CMake argument naming a removed target
 * (DEPS, target_link_libraries, set_property(TEST ...)), an #include, a Python import, and a
 * USE_OP / USE_PASS link to an operator or pass registered only in files that go. For
 * each it says how it can go: the whole CMake command (it defines or configures only the
 * removed thing), the one argument (a list entry), the whole import/include line, the import
 * line rewritten to take re-exported names from where they are defined (reexport.c), or not at all.
 */
#include "analysis/removable/rm_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Commands whose arguments are conditions or loop variables: an edit could change meaning. */
static bool control_command(const ix_cmd *k) {
    return !strcmp(k->name, "if") || !strcmp(k->name, "elseif") || !strcmp(k->name, "while") ||
           !strcmp(k->name, "foreach") || !strcmp(k->name, "string") || !strcmp(k->name, "file");
}

/* The removal references are checked against: dead files and dropped targets, and an open
 * hash set (0: empty; NULL: none, every test passes) of what an argument can match to name one,
 * a hash per kind (the seeds below): a dead file's basename, a dead Python file's stem, a dropped
 * target's name. Most CMake arguments name nothing removed, and the lookups that showed it
 * (a path built and hashed, the .py path, the target table) were most of the closure. */
typedef struct removal {
    const bool *dead, *dropped;
    uint64_t *set;
    size_t cap;
} removal;

enum { SEED_BASE = 10, SEED_PY_STEM = 11, SEED_TARGET = 12 };

static uint64_t removal_hash(const char *s, size_t n, uint64_t seed) {
    uint64_t h = hash64(s, n, seed);
    return h ? h : 1;
}

static void removal_add(removal *R, const char *s, size_t n, uint64_t seed) {
    uint64_t h = removal_hash(s, n, seed);
    size_t k = h & (R->cap - 1);
    while (R->set[k] && R->set[k] != h) k = (k + 1) & (R->cap - 1);
    R->set[k] = h;
}

/* Could s (n bytes) name a removed thing of the seed's kind? */
static bool removal_may(const removal *R, const char *s, size_t n, uint64_t seed) {
    if (!R->set) return true;
    uint64_t h = removal_hash(s, n, seed);
    for (size_t k = h & (R->cap - 1); R->set[k]; k = (k + 1) & (R->cap - 1))
        if (R->set[k] == h) return true;
    return false;
}

static void removal_init(removal *R, const ctx *c, const bool *dead, const bool *dropped) {
    *R = (removal){dead, dropped, NULL, 64};
    size_t n = 0;
    for (size_t f = 0; f < c->nf; f++) n += dead[f] ? 2 : 0;
    for (size_t t = 0; t < c->targets.n; t++) n += dropped[t];
    while (R->cap < n * 4) R->cap *= 2;
    if (!(R->set = sunset_calloc(R->cap, sizeof *R->set))) return;
    for (size_t f = 0; f < c->nf; f++) {
        if (!dead[f]) continue;
        const char *b = rm_base_name(c->files[f]->path);
        size_t bn = strlen(b);
        removal_add(R, b, bn, SEED_BASE);
        if (bn > 3 && !strcmp(b + bn - 3, ".py")) removal_add(R, b, bn - 3, SEED_PY_STEM);
    }
    for (size_t t = 0; t < c->targets.n; t++) {
        const char *name = VEC_AT(&c->targets, tgt, t).name;
        if (dropped[t]) removal_add(R, name, strlen(name), SEED_TARGET);
    }
}

/* Could CMake argument arg name a dead file as a path? Its last segment is the file's basename,
 * unless it is empty, "." or ".." (the normalised path's is another one). */
static bool may_name_dead_file(const removal *R, const char *arg) {
    const char *b = rm_base_name(arg);
    if (!b[0] || !strcmp(b, ".") || !strcmp(b, "..")) return true;
    return removal_may(R, b, strlen(b), SEED_BASE);
}

/* What CMake argument a of k names in the removal: a dead file (path relative to the CMake
 * file, or a Python module's stem beside it) or a dropped target. Sets *to / *tgt. */
static bool cmake_arg_removed(const ctx *c, size_t f, const ix_cmd *k, uint32_t a, const removal *R, long *to,
                              long *tgt) {
    const char *arg = k->args[a];
    const bool *dead = R->dead;
    *to = *tgt = -1;
    if (!arg[0] || strchr(arg, '$')) return false;
    const char *path = c->files[f]->path;
    size_t dn = rm_dir_len(path);
    size_t an = strlen(arg);
    bool stem = !strchr(arg, '.') && !strchr(arg, '/');
    bool may_py = stem && removal_may(R, arg, an, SEED_PY_STEM);
    /* no lookup when neither answer could be a dead file (the .py one needs this one's -1) */
    long p = may_py || may_name_dead_file(R, arg) ? rm_lookup_rel(c, path, dn, arg) : -1;
    if (p >= 0 && (size_t)p != f && dead[p]) {
        *to = p;
        return true;
    }
    if (p < 0 && may_py) {
        char py[512];
        if (snprintf(py, sizeof py, "%s.py", arg) < (int)sizeof py) {
            p = rm_lookup_rel(c, path, dn, py);
            if (p >= 0 && dead[p] && rm_is_test_module(c, c->files[p]->path)) {
                *to = p;
                return true;
            }
        }
    }
    long t = removal_may(R, arg, an, SEED_TARGET) ? rm_target_pos(c, arg) : -1;
    if (t >= 0 && R->dropped[t]) {
        *tgt = t;
        return true;
    }
    return false;
}

/* How a CMake reference at argument a goes. */
static rm_ref_how cmake_how(const ctx *c, size_t f, const ix_cmd *k, uint32_t a, const removal *R) {
    if (control_command(k)) return RM_REF_KEEP;
    /* set_tests_properties names several tests from its first argument on: checked below */
    if (a == 0 && strcmp(k->name, "set_tests_properties") != 0)
        return strcmp(k->name, "set") && strcmp(k->name, "list") ? RM_REF_COMMAND : RM_REF_KEEP;
    if (!strcmp(k->name, "set_property") || !strcmp(k->name, "get_property")) {
        const char *prev = k->args[a - 1];
        return !strcmp(prev, "TEST") || !strcmp(prev, "TARGET") ? RM_REF_COMMAND : RM_REF_TOKEN;
    }
    if (!strcmp(k->name, "set_tests_properties")) {
        uint32_t to = 0, hits = 0;
        for (; to < k->n_args && strcmp(k->args[to], "PROPERTIES") != 0; to++) {
            long x, y;
            hits += cmake_arg_removed(c, f, k, to, R, &x, &y);
        }
        return hits == to ? RM_REF_COMMAND : RM_REF_TOKEN;
    }
    if (!strcmp(k->name, "list") && k->n_args >= 3 && !strcmp(k->args[0], "REMOVE_ITEM")) {
        uint32_t hits = 0;
        for (uint32_t i = 2; i < k->n_args; i++) {
            long x, y;
            hits += cmake_arg_removed(c, f, k, i, R, &x, &y);
        }
        return hits == k->n_args - 2 ? RM_REF_COMMAND : RM_REF_TOKEN;
    }
    return RM_REF_TOKEN;
}

static void cmake_refs(ctx *c, size_t f, const removal *R, rm_ref_fn fn, void *ud) {
    const ix_file *F = c->files[f];
    for (size_t i = 0; i < F->cmds.n; i++) {
        const ix_cmd *k = &VEC_AT(&F->cmds, ix_cmd, i);
        for (uint32_t a = 0; a < k->n_args; a++) {
            rm_ref r = {0};
            if (!cmake_arg_removed(c, f, k, a, R, &r.to, &r.target)) continue;
            r.from = f;
            r.cmd = k;
            r.arg = a;
            r.token = k->args[a];
            r.how = cmake_how(c, f, k, a, R);
            r.line = r.how == RM_REF_COMMAND ? k->line : k->arg_lines[a];
            r.end = r.how == RM_REF_COMMAND ? k->end : k->arg_lines[a];
            fn(c, &r, ud);
            /* the command goes whole: its other arguments go with it */
            if (r.how == RM_REF_COMMAND) break;
        }
    }
}

/* An import statement binding only the one module, on lines of its own. */
static bool import_alone(const ix_file *F, uint32_t line, uint32_t *end) {
    size_t n = 0;
    for (size_t i = 0; i < F->imports.n; i++) {
        const ix_import *m = &VEC_AT(&F->imports, ix_import, i);
        if (m->line <= line && m->end >= line) {
            n++;
            *end = m->end;
        }
    }
    return n == 1;
}

/* The statement at `line` is a plain `import a.b` (from-imports are rm_import_rewrite's). */
static bool plain_import(const ix_file *F, uint32_t line) {
    for (size_t i = 0; i < F->imports.n; i++) {
        const ix_import *m = &VEC_AT(&F->imports, ix_import, i);
        if (m->line <= line && m->end >= line && m->name) return false;
    }
    return true;
}

/* A macro call "NAME arg" of the index (ix_file.macros) in a link group of the settings: the
 * group, whether NAME defines or declares, and the symbol. Returns -1 when NAME is in none. */
static long link_role(const ctx *c, const char *text, bool *def, const char **arg) {
    const char *sp = strchr(text, ' ');
    if (!sp) return -1;
    size_t n = (size_t)(sp - text);
    *arg = sp + 1;
    for (size_t g = 0; g < c->conv->links.n; g++) {
        const sunset_link *l = &VEC_AT(&c->conv->links, sunset_link, g);
        const vec *lists[] = {&l->define, &l->declare};
        for (size_t k = 0; k < 2; k++)
            for (size_t i = 0; i < lists[k]->n; i++) {
                const char *m = VEC_AT(lists[k], char *, i);
                if (strlen(m) == n && !memcmp(m, text, n)) {
                    *def = k == 0;
                    return (long)g;
                }
            }
    }
    return -1;
}

static uint64_t link_key(size_t group, const char *arg) { return hash64(arg, strlen(arg), 100 + group); }

static int linkdef_cmp(const void *a, const void *b) {
    const struct rm_linkdef *x = a, *y = b;
    if (x->key != y->key) return x->key < y->key ? -1 : 1;
    return x->file < y->file ? -1 : x->file > y->file;
}

/* Every defining macro call of the tree, once (c->link_defs). */
static void links_build(ctx *c) {
    c->links_built = true;
    if (!c->conv->links.n) return;
    vec all = VEC_INIT(struct rm_linkdef);
    for (size_t f = 0; f < c->nf; f++) {
        const ix_file *F = c->files[f];
        for (size_t i = 0; i < F->macros.n; i++) {
            bool def;
            const char *arg;
            long g = link_role(c, VEC_AT(&F->macros, ix_word, i).text, &def, &arg);
            struct rm_linkdef d = {g >= 0 ? link_key((size_t)g, arg) : 0, f};
            if (g >= 0 && def && !vec_push(&all, &d)) c->oom = true;
        }
    }
    if (all.n) qsort(all.v, all.n, sizeof(struct rm_linkdef), linkdef_cmp);
    c->link_defs = all.v;
    c->n_link_defs = all.n;
}

/* The first of c->link_defs with this key (n_link_defs when none). */
static size_t link_first(const ctx *c, uint64_t key) {
    size_t lo = 0, hi = c->n_link_defs;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (c->link_defs[mid].key < key) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

/* The declaring call at [line, end] of file F is a statement of its own: no other macro call,
 * include, class or function of F starts on its lines, so the lines can go. */
static bool decl_alone(const ix_file *F, const ix_word *w) {
    for (size_t i = 0; i < F->macros.n; i++) {
        const ix_word *o = &VEC_AT(&F->macros, ix_word, i);
        if (o != w && o->line >= w->line && o->line <= w->end) return false;
    }
    for (size_t i = 0; i < F->includes.n; i++) {
        uint32_t l = VEC_AT(&F->includes, ix_include, i).line;
        if (l >= w->line && l <= w->end) return false;
    }
    for (size_t i = 0; i < F->classes.n; i++) {
        const ix_class *k = &VEC_AT(&F->classes, ix_class, i);
        if (k->line <= w->end && k->end >= w->line) return false;
    }
    return true;
}

/* DECLARE_FILE_SYMBOLS(x), USE_OP(x), USE_PASS(x), PD_DECLARE_KERNEL(x) ... in file f (the
 * declaring macros of settings.cross_file.links) link the definition of x by name: when every
 * file defining x in that group goes, the declaration is a reference to each. A declaration on
 * lines of its own goes with them (it only declares and touches the symbol); any other keeps
 * them. */
static void link_refs(ctx *c, size_t f, const bool *dead, rm_ref_fn fn, void *ud) {
    const ix_file *F = c->files[f];
    if (!c->links_built) links_build(c);
    for (size_t u = 0; u < F->macros.n && c->n_link_defs; u++) {
        const ix_word *w = &VEC_AT(&F->macros, ix_word, u);
        bool def;
        const char *arg;
        long g = link_role(c, w->text, &def, &arg);
        if (g < 0 || def) continue;
        uint64_t key = link_key((size_t)g, arg);
        size_t lo = link_first(c, key);
        size_t end = lo, gone = 0;
        for (; end < c->n_link_defs && c->link_defs[end].key == key; end++) gone += dead[c->link_defs[end].file];
        if (end == lo || gone < end - lo) continue;
        rm_ref_how how = decl_alone(F, w) ? RM_REF_LINE : RM_REF_KEEP;
        for (size_t i = lo; i < end; i++) {
            if (i > lo && c->link_defs[i].file == c->link_defs[i - 1].file) continue;
            rm_ref ref = {f, (long)c->link_defs[i].file, -1, NULL, UINT32_MAX, w->line, w->end, arg, how, true};
            fn(c, &ref, ud);
            if (how == RM_REF_LINE) break; /* the line goes once: naming one definer is enough */
        }
    }
}

void rm_refs_each(ctx *c, const bool *dead, const bool *dropped, rm_ref_fn fn, void *ud) {
    removal R;
    removal_init(&R, c, dead, dropped);
    for (size_t f = 0; f < c->nf; f++) {
        if (dead[f] || (c->refs_from && !c->refs_from[f])) continue;
        const ix_file *F = c->files[f];
        if (F->lang == SUNSET_LANG_CMAKE) {
            cmake_refs(c, f, &R, fn, ud);
            continue;
        }
        if (F->lang == SUNSET_LANG_CPP) link_refs(c, f, dead, fn, ud);
        for (size_t e = 0; e < c->out[f].n; e++) {
            const edge *ed = &VEC_AT(&c->out[f], edge, e);
            if (!dead[ed->to]) continue;
            rm_ref r = {0};
            r.from = f;
            r.to = (long)ed->to;
            r.target = -1;
            r.arg = UINT32_MAX;
            r.line = r.end = ed->line;
            r.token = c->files[ed->to]->path;
            if (F->lang == SUNSET_LANG_PYTHON) {
                /* a from-import goes or is rewritten by what the file still needs of it (its
                 * dead classes going too, other files' re-imports counting); a plain import
                 * goes when unused */
                uint32_t end = r.end;
                char *text = rm_import_rewrite(c, f, ed->line, &end, dead);
                if (text) {
                    r.how = text[0] ? RM_REF_REWRITE : RM_REF_LINE;
                    r.end = end;
                } else {
                    r.how = !ed->counts && plain_import(F, ed->line) && import_alone(F, ed->line, &r.end) ? RM_REF_LINE
                                                                                                     : RM_REF_KEEP;
                }
                sunset_free(text);
            }
            else r.how = ed->counts ? RM_REF_KEEP : RM_REF_LINE;
            fn(c, &r, ud);
        }
    }
    sunset_free(R.set);
}

/* Targets that go with the dead files: every source they resolve to is dead. */
void rm_dropped_targets(const ctx *c, const bool *dead, bool *dropped) {
    for (size_t t = 0; t < c->targets.n; t++) {
        const tgt *T = &VEC_AT(&c->targets, tgt, t);
        bool all = T->srcs.n > 0;
        for (size_t s = 0; s < T->srcs.n && all; s++) all = dead[VEC_AT(&T->srcs, size_t, s)];
        dropped[t] = all;
    }
}

/* ---- who may reference a file (the what-ifs' closures) ---- */

static void may_add(ctx *c, size_t to, size_t from) {
    vec *v = &c->may_ref[to];
    if (v->n && VEC_AT(v, size_t, v->n - 1) == from) return; /* files are added in order: once each */
    if (!vec_push(v, &from)) c->oom = true;
}

/* What CMake argument a of command k in file f may name, as cmake_arg_removed looks it up: the
 * file its path resolves to, a test module by its stem, the sources of a target of its name. */
static void may_cmake_arg(ctx *c, size_t f, const ix_cmd *k, uint32_t a) {
    const char *arg = k->args[a], *path = c->files[f]->path;
    if (!arg[0] || strchr(arg, '$')) return;
    size_t dn = rm_dir_len(path);
    long p = rm_lookup_rel(c, path, dn, arg);
    if (p >= 0) may_add(c, (size_t)p, f);
    char py[512];
    if (p < 0 && !strchr(arg, '.') && !strchr(arg, '/') && snprintf(py, sizeof py, "%s.py", arg) < (int)sizeof py &&
        (p = rm_lookup_rel(c, path, dn, py)) >= 0)
        may_add(c, (size_t)p, f);
    long t = rm_target_pos(c, arg);
    const vec *srcs = t >= 0 ? &VEC_AT(&c->targets, tgt, t).srcs : NULL;
    for (size_t s = 0; srcs && s < srcs->n; s++) may_add(c, VEC_AT(srcs, size_t, s), f);
}

/* The definers of every symbol file f declares (link_refs' lookup). */
static void may_links(ctx *c, size_t f) {
    const ix_file *F = c->files[f];
    for (size_t u = 0; u < F->macros.n && c->n_link_defs; u++) {
        bool def;
        const char *arg;
        long g = link_role(c, VEC_AT(&F->macros, ix_word, u).text, &def, &arg);
        if (g < 0 || def) continue;
        uint64_t key = link_key((size_t)g, arg);
        size_t lo = link_first(c, key);
        for (; lo < c->n_link_defs && c->link_defs[lo].key == key; lo++) may_add(c, c->link_defs[lo].file, f);
    }
}

static void may_ref_build(ctx *c) {
    if (!(c->may_ref = sunset_calloc(c->nf ? c->nf : 1, sizeof(vec)))) {
        c->oom = true;
        return;
    }
    for (size_t f = 0; f < c->nf; f++) c->may_ref[f] = VEC_INIT(size_t);
    if (!c->links_built) links_build(c);
    for (size_t f = 0; f < c->nf && !c->oom; f++) {
        const ix_file *F = c->files[f];
        if (F->lang == SUNSET_LANG_CMAKE) {
            for (size_t i = 0; i < F->cmds.n; i++) {
                const ix_cmd *k = &VEC_AT(&F->cmds, ix_cmd, i);
                for (uint32_t a = 0; a < k->n_args; a++) may_cmake_arg(c, f, k, a);
            }
            continue;
        }
        if (F->lang == SUNSET_LANG_CPP) may_links(c, f);
        for (size_t e = 0; e < c->out[f].n; e++) may_add(c, VEC_AT(&c->out[f], edge, e).to, f);
    }
}

int rm_refs_from(ctx *c, const bool *dead, bool *from) {
    if (!c->may_ref) may_ref_build(c);
    if (c->oom) return -1;
    memset(from, 0, c->nf);
    for (size_t g = 0; g < c->nf; g++)
        for (size_t i = 0; dead[g] && i < c->may_ref[g].n; i++) from[VEC_AT(&c->may_ref[g], size_t, i)] = true;
    return 0;
}
