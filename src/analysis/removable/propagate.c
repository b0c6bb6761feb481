/*
 * propagate.c — what is legacy. Seeds are the scan's findings: a path finding marks its file,
 * a code finding on a class header marks the class, a finding on a CMake target's name marks
 * the target, one inside a flag definition or pass registration marks the flag or pass.
 * Propagation then runs a table of named rules to a fixed point: each rule looks at one item
 * that is not legacy yet and, when it applies, says why (an evidence step and the items it was
 * derived from). Items are visited by kind (classes, files, targets, flags, passes) and, for
 * each item, the rules of its kind in table order: the first that applies gives the reason.
 * The rules are monotone except where noted, so the fixed point does not depend on the order;
 * the reasons (the chains) do, which is why the order is fixed.
 */
#include "analysis/removable/rm_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* A seed's evidence: the rule and where it matched (strings borrowed from the result). */
static rm_ev seed_ev(const sunset_finding *fd, bool path) {
    rm_ev ev = {0};
    ev.step = rm_step_of(path ? RM_EV_RULE_PATH : RM_EV_RULE_AT, fd->path, path ? 0 : fd->span.line, NULL);
    ev.step.rule_id = fd->rule_id;
    return ev;
}

static int seed_dir_cmp(const void *a, const void *b) {
    const struct rm_seed_dir *x = a, *y = b;
    if (x->h != y->h) return x->h < y->h ? -1 : 1;
    return x->file < y->file ? -1 : x->file > y->file;
}

/* The directories of the files a path rule seeded (rule file-test-only-header asks them). */
static void seed_dirs(ctx *c) {
    size_t n = 0;
    for (size_t f = 0; f < c->nf; f++)
        if (c->fn[f].legacy && c->fn[f].ev && c->fn[f].ev->step.kind == RM_EV_RULE_PATH) n++;
    if (!n) return;
    if (!(c->seed_dirs = sunset_malloc(n * sizeof *c->seed_dirs))) {
        c->oom = true;
        return;
    }
    for (size_t f = 0; f < c->nf; f++) {
        if (!c->fn[f].legacy || !c->fn[f].ev || c->fn[f].ev->step.kind != RM_EV_RULE_PATH) continue;
        const char *p = c->files[f]->path;
        c->seed_dirs[c->n_seed_dirs++] = (struct rm_seed_dir){hash64(p, rm_dir_len(p), 11), f};
    }
    qsort(c->seed_dirs, c->n_seed_dirs, sizeof *c->seed_dirs, seed_dir_cmp);
}

void rm_seeds(ctx *c) {
    for (size_t i = 0; i < c->res->n_findings; i++) {
        const sunset_finding *fd = &c->res->findings[i];
        long f = sunset_index_file_pos(c->ix, fd->path);
        if (f < 0) continue;
        const ix_file *F = c->files[f];
        if (path_finding(fd)) {
            rm_ev ev = seed_ev(fd, true);
            rm_mark(c, &c->fn[f], &ev);
            continue;
        }
        if (fd->ctx != SUNSET_CTX_CODE || !fd->matched) continue;
        uint32_t line = fd->span.line;
        rm_ev ev = seed_ev(fd, false);
        for (size_t q = 0; q < c->file_classes[f].n; q++) {
            size_t k = VEC_AT(&c->file_classes[f], size_t, q);
            const cls *x = &VEC_AT(&c->classes, cls, k);
            if (line < x->c->line || line > x->c->line + 2) continue;
            bool hit = !strcmp(fd->matched, x->c->name);
            for (uint32_t b = 0; b < x->c->n_bases && !hit; b++) hit = same_tail(x->c->bases[b], fd->matched);
            if (hit)
                rm_mark(c, &c->cn[k], &ev);
        }
        /* the file's own flags and passes (flag_at, pass_at) */
        for (size_t k = c->flag_at[f]; k < c->flag_at[f + 1]; k++) {
            const wordref *w = &VEC_AT(&c->flags, wordref, k);
            if (line >= w->w->line && line <= w->w->end && strstr(fd->matched, w->w->text))
                rm_mark(c, &c->gn[k], &ev);
        }
        for (size_t k = c->pass_at[f]; k < c->pass_at[f + 1]; k++) {
            const wordref *w = &VEC_AT(&c->passes, wordref, k);
            if (line >= w->w->line && line <= w->w->end)
                rm_mark(c, &c->pn[k], &ev);
        }
        if (F->lang == SUNSET_LANG_CMAKE) {
            long tp = rm_target_pos(c, fd->matched);
            for (size_t t = tp < 0 ? c->targets.n : (size_t)tp; t < c->targets.n && (long)t == tp; t++) {
                tgt *T = &VEC_AT(&c->targets, tgt, t);
                for (size_t d = 0; d < T->defs.n; d++) {
                    const cmdref *r = &VEC_AT(&c->cmds, cmdref, VEC_AT(&T->defs, size_t, d));
                    if (r->file == (size_t)f && r->cmd->arg_lines[0] == line)
                        rm_mark(c, &c->tn[t], &ev);
                }
            }
        }
    }
    seed_dirs(c);
}

/* ---- propagation ---- */

typedef enum rule_on { ON_CLASS, ON_FILE, ON_TARGET, ON_FLAG, ON_PASS, ON_COUNT } rule_on;

/* Does the rule make item `id` legacy? Then it fills *ev and returns true. */
typedef bool (*rule_fn)(const ctx *c, size_t id, rm_ev *ev);

typedef struct prop_rule {
    const char *name;
    const char *what; /* one line: when it applies */
    rule_on on;
    rule_fn fn;
} prop_rule;

/* ev: one step caused by one node. */
static bool because(rm_ev *ev, rm_step_kind kind, const char *path, uint32_t line, const char *detail,
                    const node *cause) {
    memset(ev, 0, sizeof *ev);
    ev->step = rm_step_of(kind, path, line, detail);
    ev->step.n_causes = 1;
    ev->cause[0] = cause;
    return true;
}

static bool py_considered(const ix_class *k) { return k->n_bases > 0; }

static bool py_or_header(const ctx *c, size_t f) {
    const ix_file *F = c->files[f];
    return F->lang == SUNSET_LANG_PYTHON || (F->lang == SUNSET_LANG_CPP && c->header[f]);
}

/* The one CMake file naming a source's basename anywhere, for the orphan rule. */
static bool cmake_mentions(const ctx *c, const char *path) {
    const char *b = rm_base_name(path);
    if (rm_u64_has(c->cm_args, c->n_cm_args, hash64(b, strlen(b), 7))) return true;
    return rm_u64_has(c->glob_dirs, c->n_glob_dirs, hash64(path, rm_dir_len(path), 9));
}

static bool has_cmakelists(const ctx *c, const char *path) {
    char buf[4096];
    size_t dn = rm_dir_len(path);
    if (dn + 20 > sizeof buf) return false;
    memcpy(buf, path, dn);
    snprintf(buf + dn, sizeof buf - dn, "%sCMakeLists.txt", dn ? "/" : "");
    return sunset_index_file_pos(c->ix, buf) >= 0;
}

/* ---- classes ---- */

static bool rule_class_in_legacy_file(const ctx *c, size_t k, rm_ev *ev) {
    const cls *x = &VEC_AT(&c->classes, cls, k);
    if (!c->fn[x->file].legacy) return false;
    return because(ev, RM_EV_CLASS_IN_LEGACY, c->files[x->file]->path, 0, x->c->name, &c->fn[x->file]);
}

static bool rule_class_derives_legacy(const ctx *c, size_t k, rm_ev *ev) {
    /* base_at first: most classes have no base, and need not be read */
    if (c->base_at[k] == c->base_at[k + 1]) return false;
    const cls *x = &VEC_AT(&c->classes, cls, k);
    for (uint32_t b = 0; b < x->c->n_bases; b++) {
        /* memoised: propagation retries this rule on every pass to the fixed point, and the
         * resolution (include walks, import chains) was a third of the plan's time */
        long *memo = &c->base_of[c->base_at[k] + b];
        if (*memo == -2) *memo = rm_resolve_base(c, k, x->c->bases[b]);
        long r = *memo;
        if (r < 0 || !c->cn[r].legacy) continue;
        const cls *y = &VEC_AT(&c->classes, cls, r);
        because(ev, RM_EV_DERIVES, c->files[x->file]->path, x->c->line, x->c->name, &c->cn[r]);
        ev->step.other = (char *)y->c->name; /* borrowed until flattened */
        ev->step.other_path = c->files[y->file]->path;
        ev->step.other_line = y->c->line;
        return true;
    }
    return false;
}

/* ---- files ---- */

static bool rule_file_all_classes(const ctx *c, size_t f, rm_ev *ev) {
    const ix_file *F = c->files[f];
    if (!py_or_header(c, f)) return false;
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
    if (!n || leg != n) return false;
    /* a Python module with functions besides its classes is not all legacy, unless it is a
     * test (the regexes last: this rule is tried on every file not legacy yet, every pass) */
    bool pure = F->lang == SUNSET_LANG_CPP || F->funcs.n == 0 || rm_in_test_tree(c, F->path);
    if (!pure) return false;
    return because(ev, RM_EV_ALL_CLASSES, NULL, 0, NULL, &c->cn[first]);
}

/* Not monotone: a test module holding a live test class is kept. */
static bool rule_file_only_legacy_users(const ctx *c, size_t f, rm_ev *ev) {
    const ix_file *F = c->files[f];
    if (!py_or_header(c, f) || !c->users[f].n) return false;
    if (F->lang == SUNSET_LANG_PYTHON && rm_is_test_module(c, F->path)) {
        for (size_t q = 0; q < c->file_classes[f].n; q++) {
            size_t k = VEC_AT(&c->file_classes[f], size_t, q);
            if (py_considered(VEC_AT(&c->classes, cls, k).c) && !c->cn[k].legacy) return false;
        }
    }
    for (size_t i = 0; i < c->users[f].n; i++)
        if (!c->fn[VEC_AT(&c->users[f], size_t, i)].legacy) return false;
    memset(ev, 0, sizeof *ev);
    ev->step = rm_step_of(F->lang == SUNSET_LANG_PYTHON ? RM_EV_IMPORTED_ONLY : RM_EV_INCLUDED_ONLY, NULL, 0, NULL);
    size_t n = c->users[f].n < RM_EV_MAX_CAUSES ? c->users[f].n : RM_EV_MAX_CAUSES;
    for (size_t i = 0; i < n; i++) {
        size_t g = VEC_AT(&c->users[f], size_t, i);
        ev->cause[i] = &c->fn[g];
        ev->cause_path[i] = c->files[g]->path;
    }
    ev->step.n_causes = (uint32_t)n;
    ev->step.n_more = c->users[f].n - n;
    return true;
}

static bool rule_file_empty_test(const ctx *c, size_t f, rm_ev *ev) {
    const ix_file *F = c->files[f];
    if (!F->blank || F->lang != SUNSET_LANG_PYTHON || !rm_is_test_module(c, F->path)) return false;
    char stem[512];
    snprintf(stem, sizeof stem, "%s", rm_base_name(F->path));
    char *dot = strrchr(stem, '.');
    if (dot) *dot = 0;
    long t = rm_target_pos(c, stem);
    if (t < 0 || !c->tn[t].legacy) return false;
    /* the target's name is the stem: borrow it from the target */
    return because(ev, RM_EV_EMPTY_TEST, NULL, 0, VEC_AT(&c->targets, tgt, t).name, &c->tn[t]);
}

/* Not monotone: a source defining a class that is not legacy is kept. */
static bool rule_file_implements_legacy(const ctx *c, size_t f, rm_ev *ev) {
    const ix_file *F = c->files[f];
    if (F->lang != SUNSET_LANG_CPP || c->header[f]) return false;
    /* a source whose header is legacy, when it defines nothing else */
    for (size_t e = 0; e < c->out[f].n; e++) {
        size_t g = VEC_AT(&c->out[f], edge, e).to;
        if (!c->fn[g].legacy || !rm_same_stem_files(c, f, g)) continue;
        for (size_t q = 0; q < c->file_classes[f].n; q++)
            if (!c->cn[VEC_AT(&c->file_classes[f], size_t, q)].legacy) return false;
        return because(ev, RM_EV_IMPLEMENTS, c->files[g]->path, 0, NULL, &c->fn[g]);
    }
    return false;
}

static bool rule_file_orphan(const ctx *c, size_t f, rm_ev *ev) {
    const ix_file *F = c->files[f];
    if (F->lang != SUNSET_LANG_CPP || c->header[f] || c->file_targets_n[f]) return false;
    /* the legacy header first: the CMake lookups then run for few files */
    long g = -1;
    for (size_t e = 0; e < c->out[f].n && g < 0; e++) {
        size_t to = VEC_AT(&c->out[f], edge, e).to;
        if (c->fn[to].legacy && c->header[to]) g = (long)to;
    }
    if (g < 0 || !has_cmakelists(c, F->path) || cmake_mentions(c, F->path)) return false;
    return because(ev, RM_EV_ORPHAN, c->files[g]->path, 0, NULL, &c->fn[g]);
}

/* Does file f register a pass that code not (yet) legacy applies by name? Passes are looked up
 * in the registry at run time (core.get_pass("buffer_shared_inplace_pass"), PassRegistry::Get),
 * a dependency no CMake DEPS list shows: the file and its targets serve that code too. */
static bool registers_used_pass(const ctx *c, size_t f) {
    for (size_t i = c->pass_at[f]; i < c->pass_at[f + 1]; i++) {
        for (size_t j = 0; j < c->pass_users[i].n; j++)
            if (!c->fn[VEC_AT(&c->pass_users[i], size_t, j)].legacy) return true;
    }
    return false;
}

static bool target_registers_used_pass(const ctx *c, size_t t) {
    const tgt *T = &VEC_AT(&c->targets, tgt, t);
    for (size_t s = 0; s < T->srcs.n; s++)
        if (registers_used_pass(c, VEC_AT(&T->srcs, size_t, s))) return true;
    return false;
}

static bool rule_file_only_legacy_targets(const ctx *c, size_t f, rm_ev *ev) {
    if (!c->file_targets_n[f] || c->files[f]->lang != SUNSET_LANG_CPP) return false;
    if (registers_used_pass(c, f)) return false;
    long first = -1;
    for (size_t q = 0; q < c->file_tgts[f].n; q++) {
        size_t t = VEC_AT(&c->file_tgts[f], size_t, q);
        if (!c->tn[t].legacy) return false;
        if (first < 0) first = (long)t;
    }
    if (first < 0) return false;
    return because(ev, RM_EV_ONLY_TARGET, NULL, 0, VEC_AT(&c->targets, tgt, first).name, &c->tn[first]);
}

/* The first file a path rule seeded in path's directory, or -1. */
static long seed_in_dir(const ctx *c, const char *path) {
    uint64_t h = hash64(path, rm_dir_len(path), 11);
    size_t lo = 0, hi = c->n_seed_dirs;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (c->seed_dirs[mid].h < h) lo = mid + 1;
        else hi = mid;
    }
    return lo < c->n_seed_dirs && c->seed_dirs[lo].h == h ? (long)c->seed_dirs[lo].file : -1;
}

/* The base name's length up to its last '.'. */
static size_t base_stem(const char *path, const char **base) {
    *base = rm_base_name(path);
    const char *dot = strrchr(*base, '.');
    return dot ? (size_t)(dot - *base) : strlen(*base);
}

/* A C++ test source: in a test tree, or named x_test.cc / x_tester.cc / test_x.cc. */
static bool cpp_test_file(const ctx *c, size_t f) {
    const char *b;
    size_t n = base_stem(c->files[f]->path, &b);
    if ((n > 5 && !memcmp(b + n - 5, "_test", 5)) || (n > 7 && !memcmp(b + n - 7, "_tester", 7)) ||
        !strncmp(b, "test_", 5))
        return true;
    return rm_in_test_tree(c, c->files[f]->path);
}

/* A header of a legacy directory (one holding a file a path rule seeded) that no CMake file
 * names and that nothing but tests includes: test support or a utility only its own test
 * still exercises (paddle/fluid/framework/details/graph_test_base.h and
 * paddle/fluid/framework/details/cow_ptr.h). */
static bool rule_file_test_only_header(const ctx *c, size_t f, rm_ev *ev) {
    const ix_file *F = c->files[f];
    if (F->lang != SUNSET_LANG_CPP || !c->header[f] || !c->n_seed_dirs) return false;
    long seed = seed_in_dir(c, F->path);
    if (seed < 0) return false;
    const char *first = "no file";
    for (size_t i = 0; i < c->users[f].n; i++) {
        size_t g = VEC_AT(&c->users[f], size_t, i);
        if (c->files[g]->lang != SUNSET_LANG_CPP || !cpp_test_file(c, g)) return false;
        if (i == 0) first = c->files[g]->path;
    }
    if (cmake_mentions(c, F->path)) return false;
    return because(ev, RM_EV_TEST_ONLY, c->files[seed]->path, 0, first, &c->fn[seed]);
}

/* The test of a legacy header: x_test.cc or test_x.cc including legacy x.h. */
static bool rule_file_tests_legacy(const ctx *c, size_t f, rm_ev *ev) {
    const ix_file *F = c->files[f];
    if (F->lang != SUNSET_LANG_CPP || c->header[f]) return false;
    const char *b = NULL;
    size_t n = 0;
    /* the legacy header it is named after first, whether it is a test (a regex over its path)
     * last: the rule is tried on every C++ source not legacy yet, every pass */
    for (size_t e = 0; e < c->out[f].n; e++) {
        size_t g = VEC_AT(&c->out[f], edge, e).to;
        if (!c->fn[g].legacy || !c->header[g]) continue;
        if (!b) n = base_stem(F->path, &b);
        const char *hb;
        size_t hn = base_stem(c->files[g]->path, &hb);
        bool suffix = n == hn + 5 && !memcmp(b, hb, hn) && !memcmp(b + hn, "_test", 5);
        bool prefix = n == hn + 5 && !memcmp(b, "test_", 5) && !memcmp(b + 5, hb, hn);
        if (suffix || prefix)
            return cpp_test_file(c, f) && because(ev, RM_EV_TESTS, c->files[g]->path, 0, NULL, &c->fn[g]);
    }
    return false;
}

/* A C++ source every one of whose operator and pass registrations is legacy: the classes it
 * defines (kernels, makers, the pass) serve those registrations (run_program_op.cc). */
static bool rule_file_registers_legacy(const ctx *c, size_t f, rm_ev *ev) {
    if (c->files[f]->lang != SUNSET_LANG_CPP || c->header[f]) return false;
    size_t a = c->pass_at[f], b = c->pass_at[f + 1];
    if (a == b) return false;
    for (size_t i = a; i < b; i++) {
        if (c->pn[i].legacy) continue;
        /* REGISTER_OPERATOR(x) beside its legacy PD_REGISTER_STRUCT_KERNEL(x): one operator */
        bool same = false;
        for (size_t j = a; j < b && !same; j++)
            same = c->pn[j].legacy && !strcmp(VEC_AT(&c->passes, wordref, j).w->text, VEC_AT(&c->passes, wordref, i).w->text);
        if (!same) return false;
    }
    size_t k = a; /* the cause is legacy already: evidence never forms a cycle */
    while (!c->pn[k].legacy) k++;
    return because(ev, RM_EV_REGISTERS_LEGACY, NULL, 0, VEC_AT(&c->passes, wordref, k).w->text, &c->pn[k]);
}

/* A header whose implementing sources (same path up to the '.', .cc / .cu / ...) are all
 * legacy: it declares what they implement (paddle/fluid/operators/run_program_op.h of its
 * .cc and .cu). */
static bool rule_file_declares_for_legacy(const ctx *c, size_t f, rm_ev *ev) {
    if (c->files[f]->lang != SUNSET_LANG_CPP || !c->header[f]) return false;
    long first = -1;
    for (size_t i = 0; i < c->users[f].n; i++) {
        size_t g = VEC_AT(&c->users[f], size_t, i);
        if (c->header[g] || !rm_same_stem_files(c, f, g)) continue;
        /* a source legacy because only legacy code calls its functions says nothing of the rest
         * of its header (paddle/fluid/framework/details/multi_devices_helper.h: inline helpers
         * and constants live passes use) */
        if (!c->fn[g].legacy || (c->fn[g].ev && c->fn[g].ev->step.kind == RM_EV_CALLED_ONLY)) return false;
        if (first < 0) first = (long)g;
    }
    if (first < 0) return false;
    return because(ev, RM_EV_DECLARES_FOR, c->files[first]->path, 0, NULL, &c->fn[first]);
}

/* A C++ source whose functions (ix_file.funcs) only legacy files call, through its own header
 * (calls.c), and that defines nothing else live: no class that is not legacy, no registration,
 * no flag, no main (paddle/fluid/framework/details/multi_devices_helper.cc, whose functions only
 * parallel_executor.cc calls). */
static bool rule_file_calls_only_legacy(const ctx *c, size_t f, rm_ev *ev) {
    const ix_file *F = c->files[f];
    const vec *by = &c->func_callers[f];
    if (F->lang != SUNSET_LANG_CPP || c->header[f] || !by->n) return false;
    if (c->pass_at[f] != c->pass_at[f + 1] || c->flag_at[f] != c->flag_at[f + 1]) return false;
    for (size_t i = 0; i < F->funcs.n; i++)
        if (!strcmp(VEC_AT(&F->funcs, ix_func, i).name, "main")) return false;
    for (size_t q = 0; q < c->file_classes[f].n; q++)
        if (!c->cn[VEC_AT(&c->file_classes[f], size_t, q)].legacy) return false;
    for (size_t i = 0; i < by->n; i++)
        if (!c->fn[VEC_AT(by, size_t, i)].legacy) return false;
    size_t g = VEC_AT(by, size_t, 0);
    return because(ev, RM_EV_CALLED_ONLY, c->files[g]->path, 0, rm_func_called(c, f, g), &c->fn[g]);
}

/* ---- targets ---- */

static bool rule_target_all_sources(const ctx *c, size_t t, rm_ev *ev) {
    const tgt *T = &VEC_AT(&c->targets, tgt, t);
    if (!T->srcs.n) return false;
    for (size_t s = 0; s < T->srcs.n; s++)
        if (!c->fn[VEC_AT(&T->srcs, size_t, s)].legacy) return false;
    size_t s0 = VEC_AT(&T->srcs, size_t, 0);
    return because(ev, RM_EV_ALL_SOURCES, c->files[s0]->path, 0, NULL, &c->fn[s0]);
}

static bool rule_target_only_legacy_dependents(const ctx *c, size_t t, rm_ev *ev) {
    const tgt *T = &VEC_AT(&c->targets, tgt, t);
    if (!T->dependents.n || target_registers_used_pass(c, t)) return false;
    for (size_t d = 0; d < T->dependents.n; d++)
        if (!c->tn[VEC_AT(&T->dependents, size_t, d)].legacy) return false;
    size_t d0 = VEC_AT(&T->dependents, size_t, 0);
    return because(ev, RM_EV_ONLY_DEPENDENTS, NULL, 0, VEC_AT(&c->targets, tgt, d0).name, &c->tn[d0]);
}

/* ---- flags and passes: only legacy non-CMake files use them ---- */

static bool word_defined_in_legacy(const ctx *c, const vec *v, size_t i, rm_ev *ev) {
    const wordref *w = &VEC_AT(v, wordref, i);
    if (!c->fn[w->file].legacy) return false;
    return because(ev, RM_EV_DEFINED_IN, c->files[w->file]->path, 0, NULL, &c->fn[w->file]);
}

static bool word_only_legacy_users(const ctx *c, const vec *us, rm_step_kind kind, rm_ev *ev) {
    long first = -1;
    for (size_t j = 0; j < us->n; j++) {
        size_t f = VEC_AT(us, size_t, j);
        if (!c->fn[f].legacy) return false;
        if (first < 0) first = (long)f;
    }
    if (first < 0) return false;
    return because(ev, kind, c->files[first]->path, 0, NULL, &c->fn[first]);
}

static bool rule_flag_defined_in_legacy(const ctx *c, size_t i, rm_ev *ev) {
    return word_defined_in_legacy(c, &c->flags, i, ev);
}

static bool rule_flag_read_only_by_legacy(const ctx *c, size_t i, rm_ev *ev) {
    return word_only_legacy_users(c, &c->flag_users[i], RM_EV_READ_ONLY, ev);
}

static bool rule_pass_defined_in_legacy(const ctx *c, size_t i, rm_ev *ev) {
    return word_defined_in_legacy(c, &c->passes, i, ev);
}

static bool rule_pass_used_only_by_legacy(const ctx *c, size_t i, rm_ev *ev) {
    return word_only_legacy_users(c, &c->pass_users[i], RM_EV_USED_ONLY, ev);
}

/* A pass whose users that are not legacy name it only inside the body of a legacy class, in
 * a string (AppendPass("add_reader_dependency_pass") in ParallelExecutorPassBuilder, in
 * build_strategy.cc): the class is what applies it. A use outside the class bodies (but for a
 * link-time USE_PASS, which goes with the registration), in a class that is not legacy, in a
 * header or in Python keeps the pass out. Monotone: legacy marks only grow. */
static bool rule_pass_named_in_legacy_class(const ctx *c, size_t i, rm_ev *ev) {
    const vec *us = &c->pass_users[i];
    const char *name = VEC_AT(&c->passes, wordref, i).w->text;
    long first = -1;
    for (size_t j = 0; j < us->n; j++) {
        size_t g = VEC_AT(us, size_t, j);
        if (c->fn[g].legacy) continue;
        const ix_file *G = c->files[g];
        if (G->lang != SUNSET_LANG_CPP || c->header[g] || !G->n_outside || ix_hashes_have(G->outside, G->n_outside, name))
            return false;
        long in = -1;
        for (size_t q = 0; q < c->file_classes[g].n; q++) {
            size_t k = VEC_AT(&c->file_classes[g], size_t, q);
            const ix_class *x = VEC_AT(&c->classes, cls, k).c;
            if (!x->top || !ix_hashes_have(x->names, x->n_names, name)) continue;
            if (!c->cn[k].legacy) return false;
            if (in < 0) in = (long)k;
        }
        if (in < 0) return false; /* named in a class body, but not as a string: not told apart */
        if (first < 0) first = in;
    }
    if (first < 0) return false;
    const cls *x = &VEC_AT(&c->classes, cls, (size_t)first);
    return because(ev, RM_EV_NAMED_IN_CLASS, c->files[x->file]->path, x->c->line, x->c->name, &c->cn[first]);
}

/* In the order they are tried for an item of each kind. */
static const prop_rule RULES[] = {
    {"class-in-legacy-file", "a class defined in a legacy file", ON_CLASS, rule_class_in_legacy_file},
    {"class-derives-legacy", "a class one of whose bases is a legacy class", ON_CLASS, rule_class_derives_legacy},
    {"file-all-classes", "a Python module (no functions, or a test) or a header whose classes are all legacy",
     ON_FILE, rule_file_all_classes},
    {"file-only-legacy-users", "a Python module or header only legacy files import or include", ON_FILE,
     rule_file_only_legacy_users},
    {"file-empty-test", "an empty Python test module registered under a legacy test target", ON_FILE,
     rule_file_empty_test},
    {"file-implements-legacy", "a C++ source of a legacy header that defines no other class", ON_FILE,
     rule_file_implements_legacy},
    {"file-orphan", "a C++ source no CMake file names, that includes a legacy header", ON_FILE, rule_file_orphan},
    {"file-only-legacy-targets", "a C++ source only legacy targets compile (none registering a pass other code uses)",
     ON_FILE, rule_file_only_legacy_targets},
    {"file-registers-legacy", "a C++ source whose operator and pass registrations are all legacy", ON_FILE,
     rule_file_registers_legacy},
    {"file-declares-for-legacy", "a C++ header whose implementing sources (same stem) are all legacy", ON_FILE,
     rule_file_declares_for_legacy},
    {"file-test-only-header",
     "a C++ header in a legacy directory that no CMake file names and only tests include", ON_FILE,
     rule_file_test_only_header},
    {"file-tests-legacy", "a C++ test source (x_test.cc, test_x.cc) of a legacy header x.h", ON_FILE,
     rule_file_tests_legacy},
    {"file-calls-only-legacy",
     "a C++ source whose functions only legacy files call (through its header), defining nothing else live",
     ON_FILE, rule_file_calls_only_legacy},
    {"target-all-sources", "a CMake target whose sources are all legacy", ON_TARGET, rule_target_all_sources},
    {"target-only-legacy-dependents", "a CMake target only legacy targets depend on (and none registers a pass other code uses)", ON_TARGET,
     rule_target_only_legacy_dependents},
    {"flag-defined-in-legacy", "a gflag defined in a legacy file", ON_FLAG, rule_flag_defined_in_legacy},
    {"flag-read-only-by-legacy", "a gflag only legacy code reads", ON_FLAG, rule_flag_read_only_by_legacy},
    {"pass-defined-in-legacy", "a pass registered in a legacy file", ON_PASS, rule_pass_defined_in_legacy},
    {"pass-used-only-by-legacy", "a pass only legacy code uses", ON_PASS, rule_pass_used_only_by_legacy},
    {"pass-named-in-legacy-class", "a pass code that is not legacy names only inside legacy classes' bodies",
     ON_PASS, rule_pass_named_in_legacy_class},
};

static node *nodes_of(ctx *c, rule_on on, size_t *n) {
    switch (on) {
    case ON_CLASS: *n = c->classes.n; return c->cn;
    case ON_FILE: *n = c->nf; return c->fn;
    case ON_TARGET: *n = c->targets.n; return c->tn;
    case ON_FLAG: *n = c->flags.n; return c->gn;
    default: *n = c->passes.n; return c->pn;
    }
}

/* One pass over every item not legacy yet; a mark is seen by the items after it. */
static bool propagate_once(ctx *c) {
    bool changed = false;
    for (int on = 0; on < ON_COUNT; on++) {
        size_t n;
        node *nodes = nodes_of(c, (rule_on)on, &n);
        /* the rules of this kind, in table order, picked once (the table's walk per item, past
         * the other kinds' rules, was a third of propagation) */
        const prop_rule *mine[sizeof RULES / sizeof RULES[0]];
        size_t nm = 0;
        for (size_t r = 0; r < sizeof RULES / sizeof RULES[0]; r++)
            if (RULES[r].on == (rule_on)on) mine[nm++] = &RULES[r];
        for (size_t id = 0; id < n; id++) {
            for (size_t r = 0; r < nm && !nodes[id].legacy; r++) {
                rm_ev ev;
                if (!mine[r]->fn(c, id, &ev)) continue;
                rm_mark(c, &nodes[id], &ev);
                changed = true;
            }
        }
    }
    return changed;
}

void rm_propagate(ctx *c) {
    size_t nb = 0;
    if (!(c->base_at = sunset_malloc((c->classes.n + 1) * sizeof *c->base_at))) {
        c->oom = true;
        return;
    }
    for (size_t k = 0; k < c->classes.n; k++) {
        c->base_at[k] = nb;
        nb += VEC_AT(&c->classes, cls, k).c->n_bases;
    }
    c->base_at[c->classes.n] = nb;
    if (!(c->base_of = sunset_malloc((nb ? nb : 1) * sizeof *c->base_of))) {
        c->oom = true;
        return;
    }
    for (size_t i = 0; i < nb; i++) c->base_of[i] = -2;
    while (!c->oom && propagate_once(c)) {}
}
