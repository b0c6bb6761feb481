/*
 * graph.c — the graph propagation runs on, built from a finished index (rm_int.h): one node
 * per file, top-level class, CMake target, gflag definition and pass registration; edges from
 * a file to the files it includes or imports (counting only when the includer uses what the
 * header defines, or the import's name is used); targets with their sources, dependencies and
 * dependents; the files using each flag and pass. Built in named steps (rm_graph_build).
 */
#include "analysis/removable/rm_int.h"

#include <stdlib.h>
#include <string.h>

/* Sort v ascending: LSD radix, a byte a pass (qsort's comparison calls over every CMake
 * argument's hash were most of add_targets). Returns 0, -1 on OOM. */
static int sort_u64(uint64_t *v, size_t n) {
    uint64_t *tmp = sunset_malloc((n ? n : 1) * sizeof *tmp);
    if (!tmp) return -1;
    uint64_t *from = v, *to = tmp;
    for (unsigned sh = 0; sh < 64; sh += 8) {
        size_t at[256] = {0};
        for (size_t i = 0; i < n; i++) at[(from[i] >> sh) & 0xff]++;
        for (size_t b = 0, sum = 0; b < 256; b++) {
            size_t k = at[b];
            at[b] = sum;
            sum += k;
        }
        for (size_t i = 0; i < n; i++) to[at[(from[i] >> sh) & 0xff]++] = from[i];
        uint64_t *t = from;
        from = to;
        to = t;
    }
    /* eight passes: the result is back in v */
    sunset_free(tmp);
    return 0;
}

/* ---- nodes ---- */

void rm_add_caller(ctx *c, node *n, char *who) {
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
    sunset_free(n->ev);
    for (size_t i = 0; i < n->callers.n; i++) sunset_free(VEC_AT(&n->callers, char *, i));
    vec_free(&n->callers);
}

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

bool rm_target_command(const sunset_cross_file *conv, const ix_cmd *k) {
    if (k->n_args < 2 || !strcmp(k->name, "set") || !strcmp(k->name, "list") ||
        !strcmp(k->name, "set_tests_properties") || !strcmp(k->name, "set_property") ||
        !strcmp(k->name, "foreach") || !strcmp(k->name, "if") || !strcmp(k->name, "file") ||
        !strcmp(k->name, "string") || !strcmp(k->name, "set_target_properties"))
        return false;
    if (strchr(k->args[0], '$')) return false;
    for (uint32_t i = 1; i < k->n_args; i++)
        if (rm_has_string(&conv->cmake_sources, k->args[i]) || rm_has_string(&conv->cmake_modules, k->args[i]) ||
            rm_has_string(&conv->cmake_deps, k->args[i]))
            return true;
    return false;
}

/* Collect a section's values (expanding ${VAR} from set() in the same file, two levels). */
static void section_values(const ix_file *F, const ix_cmd *k, const vec *secs, vec *out, int depth) {
    bool in = false;
    for (uint32_t i = 1; i < k->n_args; i++) {
        const char *a = k->args[i];
        if (is_keyword(a)) {
            in = rm_has_string(secs, a);
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

/* Is the op registration w of file F a call of a kernel macro (settings.macros.roles.kernel):
 * the file's namespace-level macro call on w's line, "NAME arg", NAME one of them? */
static bool kernel_macro(const ctx *c, const ix_file *F, const ix_word *w) {
    const vec *k = c->ix->roles ? &c->ix->roles->kernel : NULL;
    for (size_t i = 0; k && k->n && i < F->macros.n; i++) {
        const ix_word *m = &VEC_AT(&F->macros, ix_word, i);
        const char *sp = strchr(m->text, ' ');
        if (m->line != w->line || !sp || strcmp(sp + 1, w->text)) continue;
        for (size_t j = 0; j < k->n; j++) {
            const char *name = VEC_AT(k, char *, j);
            if (strlen(name) == (size_t)(sp - m->text) && !memcmp(name, m->text, (size_t)(sp - m->text))) return true;
        }
    }
    return false;
}

/* A kernel registration stands apart from its operator only when the tree registers the
 * operator too (else it is the op's one registration, and its users are its own). */
static void kernels_with_operator(ctx *c) {
    for (size_t i = 0; i < c->passes.n; i++) {
        wordref *w = &VEC_AT(&c->passes, wordref, i);
        if (!w->kernel) continue;
        bool op = false;
        for (size_t j = 0; j < c->passes.n && !op; j++) {
            const wordref *o = &VEC_AT(&c->passes, wordref, j);
            op = o->op && !o->kernel && !strcmp(o->w->text, w->w->text);
        }
        w->kernel = op;
    }
}

/* Per-file arrays, and every top-level class, CMake command, flag and pass in one list each. */
static int collect(ctx *c) {
    size_t nf = c->nf ? c->nf : 1;
    c->fn = sunset_calloc(nf, sizeof(node));
    c->out = sunset_calloc(nf, sizeof(vec));
    c->in = sunset_calloc(nf, sizeof(vec));
    c->users = sunset_calloc(nf, sizeof(vec));
    c->file_classes = sunset_calloc(nf, sizeof(vec));
    c->file_tgts = sunset_calloc(nf, sizeof(vec));
    if (!c->file_classes || !c->file_tgts) return -1;
    c->file_targets_n = sunset_calloc(nf, sizeof(size_t));
    c->flag_at = sunset_calloc(c->nf + 1, sizeof(size_t));
    c->pass_at = sunset_calloc(c->nf + 1, sizeof(size_t));
    c->header = sunset_calloc(nf, sizeof(bool));
    c->stem_n = sunset_calloc(nf, sizeof(size_t));
    if (!c->fn || !c->out || !c->in || !c->users || !c->file_targets_n || !c->flag_at || !c->pass_at ||
        !c->header || !c->stem_n)
        return -1;
    for (size_t f = 0; f < c->nf; f++) {
        c->flag_at[f] = c->flags.n;
        c->pass_at[f] = c->passes.n;
        const char *path = c->files[f]->path, *dot = strrchr(path, '.');
        c->header[f] = rm_is_header(path);
        c->stem_n[f] = dot ? (size_t)(dot - path) : strlen(path);
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
            wordref w = {f, &VEC_AT(&F->flag_defs, ix_word, i), false, false};
            if (!vec_push(&c->flags, &w)) return -1;
        }
        for (size_t i = 0; i < F->pass_regs.n; i++) {
            wordref w = {f, &VEC_AT(&F->pass_regs, ix_word, i), false, false};
            if (!vec_push(&c->passes, &w)) return -1;
        }
        /* operators are run by type name as passes are applied by theirs: the same analysis */
        for (size_t i = 0; i < F->op_regs.n; i++) {
            const ix_word *reg = &VEC_AT(&F->op_regs, ix_word, i);
            wordref w = {f, reg, true, kernel_macro(c, F, reg)};
            if (!vec_push(&c->passes, &w)) return -1;
        }
    }
    c->flag_at[c->nf] = c->flags.n;
    c->pass_at[c->nf] = c->passes.n;
    size_t nc = c->classes.n ? c->classes.n : 1;
    c->cn = sunset_calloc(nc, sizeof(node));
    c->cls_next = sunset_malloc(nc * sizeof(long));
    c->cls_cap = 16;
    while (c->cls_cap < c->classes.n * 2) c->cls_cap *= 2;
    c->cls_by_name = sunset_calloc(c->cls_cap, sizeof *c->cls_by_name);
    if (!c->cn || !c->cls_next || !c->cls_by_name) return -1;
    /* the name table, where sorting the ids by name was a tenth of the plan: filled from the
     * last class so that each name's list runs in ascending id order */
    for (size_t i = c->classes.n; i-- > 0;) {
        c->cn[i].callers = VEC_INIT(char *);
        const char *name = VEC_AT(&c->classes, cls, i).c->name;
        uint64_t h = sunset_index_name_hash(name, strlen(name));
        size_t k = h & (c->cls_cap - 1);
        for (; c->cls_by_name[k].h; k = (k + 1) & (c->cls_cap - 1)) {
            struct cls_slot *o = &c->cls_by_name[k];
            if (o->h == h && !strcmp(VEC_AT(&c->classes, cls, o->first).c->name, name)) break;
        }
        c->cls_next[i] = c->cls_by_name[k].h ? c->cls_by_name[k].first : -1;
        c->cls_by_name[k] = (struct cls_slot){h, (long)i};
    }
    return 0;
}

/* Edges: includes and imports resolved to files. */
static int add_edges(ctx *c) {
    for (size_t f = 0; f < c->nf; f++) {
        const ix_file *F = c->files[f];
        for (size_t i = 0; i < F->includes.n; i++) {
            const ix_include *inc = &VEC_AT(&F->includes, ix_include, i);
            long to = rm_resolve_include(c, f, inc->path);
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
                rm_submodule(sub, sizeof sub, m);
                to = rm_resolve_module(c, f, sub);
            }
            if (to < 0) to = rm_resolve_module(c, f, m->module);
            if (to < 0 || (size_t)to == f) continue;
            edge e = {(size_t)to, m->line, m->used};
            if (!vec_push(&c->out[f], &e)) return -1;
        }
    }
    return 0;
}

/* An include counts when the includer uses a class the header defines, or a function or
 * constant it declares at namespace level (or it defines no class); then the reverse lists:
 * counting importers (in) and every importer (users). */
static int weigh_edges(ctx *c) {
    for (size_t f = 0; f < c->nf; f++) {
        for (size_t e = 0; e < c->out[f].n; e++) {
            edge *ed = &VEC_AT(&c->out[f], edge, e);
            const ix_file *G = c->files[ed->to];
            if (c->files[f]->lang == SUNSET_LANG_CPP && G->lang == SUNSET_LANG_CPP && G->classes.n) {
                bool used = false;
                for (size_t k = 0; k < G->classes.n && !used; k++)
                    used = ix_file_uses(c->files[f], VEC_AT(&G->classes, ix_class, k).name);
                for (size_t k = 0; c->header[ed->to] && k < G->funcs.n && !used; k++)
                    used = ix_file_uses(c->files[f], VEC_AT(&G->funcs, ix_func, k).name);
                /* a source always depends on its own header */
                if (!used && !c->header[f]) used = rm_same_stem_files(c, f, ed->to);
                ed->counts = used;
            }
            if (ed->counts && !vec_push(&c->in[ed->to], &f)) return -1;
            /* f only grows, so a file already listed is the last one: a scan of the list was
             * quadratic for the headers everything includes */
            vec *us = &c->users[ed->to];
            if ((!us->n || VEC_AT(us, size_t, us->n - 1) != f) && !vec_push(us, &f)) return -1;
        }
    }
    return 0;
}

/* The sources (SRCS, and MODULES of settings.cross_file.module_commands) and DEPS (the keywords
 * of settings.cmake.sections) of target t as defined by command r. */
static void target_sections(ctx *c, const cmdref *r, size_t t) {
    tgt *T = &VEC_AT(&c->targets, tgt, t);
    const ix_file *F = c->files[r->file];
    vec vals = VEC_INIT(const char *);
    section_values(F, r->cmd, &c->conv->cmake_sources, &vals, 0);
    bool py = rm_has_string(&c->conv->module_commands, r->cmd->name);
    if (py) section_values(F, r->cmd, &c->conv->cmake_modules, &vals, 0);
    for (size_t k = 0; k < vals.n; k++) {
        const char *v = VEC_AT(&vals, const char *, k);
        char rel[1024];
        rm_cat3(rel, sizeof rel, v, py && !strstr(v, ".py") ? ".py" : "", "");
        long sf = rm_lookup_rel(c, F->path, rm_dir_len(F->path), rel);
        if (sf < 0) continue;
        bool dup = false;
        for (size_t s = 0; s < T->srcs.n; s++) dup |= VEC_AT(&T->srcs, size_t, s) == (size_t)sf;
        if (!dup) {
            size_t u = (size_t)sf;
            vec_push(&T->srcs, &u);
            vec_push(&c->file_tgts[u], &t);
            c->file_targets_n[u]++;
        }
    }
    vals.n = 0;
    section_values(F, r->cmd, &c->conv->cmake_deps, &vals, 0);
    for (size_t k = 0; k < vals.n; k++) {
        const char *v = VEC_AT(&vals, const char *, k);
        vec_push(&T->deps, &v);
    }
    vec_free(&vals);
}

/* CMake targets (an open hash from name to target, kept for rm_target_pos), and the sorted
 * hashes of every argument's basename and of the directories that glob sources, for the
 * orphan rule. */
static int add_targets(ctx *c) {
    size_t hcap = 1024;
    while (hcap < c->cmds.n * 2) hcap *= 2;
    long *th = sunset_malloc(hcap * sizeof(long));
    if (!th) return -1;
    for (size_t i = 0; i < hcap; i++) th[i] = -1;
    vec cmarg = VEC_INIT(uint64_t), globd = VEC_INIT(uint64_t);
    int rc = 0;
    for (size_t i = 0; i < c->cmds.n && !rc; i++) {
        const cmdref *r = &VEC_AT(&c->cmds, cmdref, i);
        bool file_cmd = !strcmp(r->cmd->name, "file");
        for (uint32_t a = 0; a < r->cmd->n_args; a++) {
            const char *b = rm_base_name(r->cmd->args[a]);
            uint64_t h = hash64(b, strlen(b), 7);
            vec_push(&cmarg, &h);
            if (file_cmd && strstr(r->cmd->args[a], "GLOB")) {
                const char *fp = c->files[r->file]->path;
                uint64_t d = hash64(fp, rm_dir_len(fp), 9);
                vec_push(&globd, &d);
            }
        }
        if (!rm_target_command(c->conv, r->cmd)) continue;
        const char *tname = r->cmd->args[0];
        size_t slot = hash64(tname, strlen(tname), 3) & (hcap - 1);
        while (th[slot] >= 0 && strcmp(VEC_AT(&c->targets, tgt, th[slot]).name, tname) != 0)
            slot = (slot + 1) & (hcap - 1);
        long t = th[slot];
        if (t < 0) {
            tgt nt = {r->cmd->args[0], VEC_INIT(size_t), VEC_INIT(size_t), VEC_INIT(char *), VEC_INIT(size_t),
                      VEC_INIT(size_t)};
            if (!vec_push(&c->targets, &nt)) {
                rc = -1;
                break;
            }
            t = (long)c->targets.n - 1;
            th[slot] = t;
        }
        vec_push(&VEC_AT(&c->targets, tgt, t).defs, &i);
        target_sections(c, r, (size_t)t);
    }
    c->tgt_by_name = th;
    c->tgt_cap = hcap;
    c->cm_args = cmarg.v;
    c->n_cm_args = cmarg.n;
    c->glob_dirs = globd.v;
    c->n_glob_dirs = globd.n;
    if (!rc && (sort_u64(c->cm_args, c->n_cm_args) || sort_u64(c->glob_dirs, c->n_glob_dirs))) rc = -1;
    return rc;
}

/* Target nodes, each target's dependencies resolved, and its dependents. */
static int link_targets(ctx *c) {
    size_t nt = c->targets.n ? c->targets.n : 1;
    c->tn = sunset_calloc(nt, sizeof(node));
    if (!c->tn) return -1;
    for (size_t t = 0; t < c->targets.n; t++) {
        c->tn[t].callers = VEC_INIT(char *);
        tgt *T = &VEC_AT(&c->targets, tgt, t);
        for (size_t k = 0; k < T->deps.n; k++) {
            long d = rm_target_pos(c, VEC_AT(&T->deps, char *, k));
            if (d < 0 || (size_t)d == t) continue;
            size_t du = (size_t)d;
            if (!vec_push(&T->dep_ids, &du)) return -1;
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

int rm_users_of(const ctx *c, const char *const *names, size_t n, vec *out) {
    want *w = sunset_calloc(n ? n : 1, sizeof *w);
    /* the wanted hashes in a small open-addressing table (slot: first position in w): each
     * file's names are probed, a predictable miss almost always, where the merge of two
     * sorted lists mispredicted on every step (4% of a default scan) */
    size_t cap = 16;
    while (cap < n * 4) cap *= 2;
    uint64_t *th = sunset_calloc(cap, sizeof *th);
    size_t *tp = sunset_malloc(cap * sizeof *tp);
    /* and a bitmap in front of it, 64 bits a wanted name: a clear bit stops all but ~2% of
     * the names before the probe, whose loop mispredicted on every occupied slot. The word by
     * the hash's top bits, the bit in it by its low six (a bt of the hash itself: a bit index
     * taken from the top bits cost a copy and a shift more per name, 13 instructions against 9) */
    unsigned bits = 12;
    while (bits < 40 && ((size_t)1 << bits) < n * 64) bits++;
    const unsigned wsh = 64 - (bits - 6);
    uint64_t *bm = sunset_calloc((size_t)1 << (bits - 6), sizeof *bm);
    int rc = -1;
    if (!w || !th || !tp || !bm) goto cleanup;
    for (size_t i = 0; i < n; i++) {
        out[i] = VEC_INIT(size_t);
        uint64_t h = sunset_index_name_hash(names[i], strlen(names[i]));
        w[i] = (want){h ? h : 1, i};
    }
    qsort(w, n, sizeof *w, cmp_want);
    for (size_t i = 0; i < n; i++) {
        if (i && w[i].h == w[i - 1].h) continue;
        size_t k = w[i].h & (cap - 1);
        while (th[k]) k = (k + 1) & (cap - 1);
        th[k] = w[i].h;
        tp[k] = i;
        bm[w[i].h >> wsh] |= (uint64_t)1 << (w[i].h & 63);
    }
    for (size_t f = 0; f < c->nf; f++) {
        const ix_file *F = c->files[f];
        /* the files' name arrays lie apart: a miss at each one's start, hidden by asking for
         * the next file's first names (and where the one after keeps them) ahead */
        if (f + 2 < c->nf) __builtin_prefetch(&c->files[f + 2]->names);
        if (f + 1 < c->nf) __builtin_prefetch(c->files[f + 1]->names);
        const uint64_t *names = F->names; /* in locals: the pushes below would have them reloaded */
        for (size_t a = 0, nn = F->n_names; a < nn; a++) {
            uint64_t h = names[a];
            if (!((bm[h >> wsh] >> (h & 63)) & 1)) continue;
            size_t k = h & (cap - 1);
            while (th[k] && th[k] != h) k = (k + 1) & (cap - 1);
            if (!th[k]) continue;
            for (size_t b = tp[k]; b < n && w[b].h == h; b++)
                if (!vec_push(&out[w[b].id], &f)) goto cleanup;
        }
    }
    rc = 0;
cleanup:
    sunset_free(w);
    sunset_free(th);
    sunset_free(tp);
    sunset_free(bm);
    return rc;
}

/* Flag i, then pass i - nfl: the order of flag_pass_users' one name list. */
static const wordref *flag_or_pass(const ctx *c, size_t nfl, size_t i) {
    return i < nfl ? &VEC_AT(&c->flags, wordref, i) : &VEC_AT(&c->passes, wordref, i - nfl);
}

/* Flags and passes in one rm_users_of call: it reads every name of every file, once. */
static int flag_pass_users(ctx *c) {
    size_t nfl = c->flags.n, n = nfl + c->passes.n;
    char **names = sunset_calloc(n ? n : 1, sizeof(char *));
    vec *out = sunset_calloc(n ? n : 1, sizeof(vec));
    c->flag_users = sunset_calloc(nfl ? nfl : 1, sizeof(vec));
    c->pass_users = sunset_calloc(c->passes.n ? c->passes.n : 1, sizeof(vec));
    int rc = names && out && c->flag_users && c->pass_users ? 0 : -1;
    for (size_t i = 0; i < n && !rc; i++) {
        bool pass = i >= nfl;
        const wordref *w = flag_or_pass(c, nfl, i);
        names[i] = pass ? rm_dupz(w->w->text) : rm_fmt("FLAGS_%s", w->w->text);
        if (!names[i]) rc = -1;
    }
    if (!rc) rc = rm_users_of(c, (const char *const *)names, n, out);
    for (size_t i = 0; names && i < n; i++) sunset_free(names[i]);
    sunset_free(names);
    if (out && c->flag_users && c->pass_users) {
        memcpy(c->flag_users, out, nfl * sizeof(vec));
        memcpy(c->pass_users, out + nfl, c->passes.n * sizeof(vec));
    } else {
        for (size_t i = 0; out && i < n; i++) vec_free(&out[i]);
    }
    sunset_free(out);
    if (rc) return -1;
    /* drop the definer of a pass or op (its registration names it), CMake files, and for flags
     * anything but C++ and Python; a flag's definer reading FLAGS_x reads it (its definition
     * does not spell FLAGS_x): a live definer keeps it */
    for (size_t i = 0; i < n; i++) {
        bool pass = i >= nfl;
        const wordref *w = flag_or_pass(c, nfl, i);
        vec *us = pass ? &c->pass_users[i - nfl] : &c->flag_users[i];
        size_t k = 0;
        for (size_t j = 0; j < us->n; j++) {
            size_t f = VEC_AT(us, size_t, j);
            const ix_file *F = c->files[f];
            if ((pass && f == w->file) || is_cmake_file_(F)) continue;
            if (!pass && F->lang != SUNSET_LANG_CPP && F->lang != SUNSET_LANG_PYTHON) continue;
            VEC_AT(us, size_t, k++) = f;
        }
        us->n = k;
    }
    return 0;
}

int rm_graph_build(ctx *c) {
    c->nf = c->ix->files.n;
    c->files = c->ix->files.v;
    c->classes = VEC_INIT(cls);
    c->cmds = VEC_INIT(cmdref);
    c->targets = VEC_INIT(tgt);
    c->flags = VEC_INIT(wordref);
    c->passes = VEC_INIT(wordref);
    c->mod_memo = rm_mod_memo_new(c);
    if (!(c->near = sunset_calloc(c->nf ? c->nf : 1, 1))) return -1;
    if (collect(c) || add_edges(c) || weigh_edges(c) || add_targets(c) || link_targets(c)) return -1;
    kernels_with_operator(c);
    return flag_pass_users(c) || rm_func_callers(c) ? -1 : 0;
}

void rm_graph_free(ctx *c) {
    rm_mod_memo_free(c->mod_memo);
    c->mod_memo = NULL;
    sunset_free(c->near);
    c->near = NULL;
    rm_live_users_free(c);
    for (size_t f = 0; c->fn && f < c->nf; f++) node_free(&c->fn[f]);
    for (size_t f = 0; c->out && f < c->nf; f++) vec_free(&c->out[f]);
    for (size_t f = 0; c->in && f < c->nf; f++) vec_free(&c->in[f]);
    for (size_t f = 0; c->users && f < c->nf; f++) vec_free(&c->users[f]);
    for (size_t f = 0; c->file_classes && f < c->nf; f++) vec_free(&c->file_classes[f]);
    for (size_t f = 0; c->file_tgts && f < c->nf; f++) vec_free(&c->file_tgts[f]);
    sunset_free(c->file_classes);
    sunset_free(c->file_tgts);
    sunset_free(c->tgt_by_name);
    sunset_free(c->cm_args);
    sunset_free(c->glob_dirs);
    sunset_free(c->base_at);
    sunset_free(c->base_of);
    sunset_free(c->link_defs);
    for (size_t f = 0; c->may_ref && f < c->nf; f++) vec_free(&c->may_ref[f]);
    sunset_free(c->may_ref);
    sunset_free(c->seed_dirs);
    for (size_t k = 0; c->cn && k < c->classes.n; k++) node_free(&c->cn[k]);
    for (size_t t = 0; t < c->targets.n; t++) {
        tgt *T = &VEC_AT(&c->targets, tgt, t);
        vec_free(&T->defs);
        vec_free(&T->srcs);
        vec_free(&T->deps);
        vec_free(&T->dep_ids);
        vec_free(&T->dependents);
        if (c->tn) node_free(&c->tn[t]);
    }
    for (size_t i = 0; c->flag_users && i < c->flags.n; i++) vec_free(&c->flag_users[i]);
    for (size_t i = 0; c->pass_users && i < c->passes.n; i++) vec_free(&c->pass_users[i]);
    sunset_free(c->flag_users);
    sunset_free(c->pass_users);
    for (size_t f = 0; c->func_callers && f < c->nf; f++) vec_free(&c->func_callers[f]);
    sunset_free(c->func_callers);
    for (size_t i = 0; c->gn && i < c->flags.n; i++) node_free(&c->gn[i]);
    for (size_t i = 0; c->pn && i < c->passes.n; i++) node_free(&c->pn[i]);
    sunset_free(c->fn);
    sunset_free(c->out);
    sunset_free(c->in);
    sunset_free(c->users);
    sunset_free(c->cn);
    sunset_free(c->cls_by_name);
    sunset_free(c->cls_next);
    sunset_free(c->tn);
    sunset_free(c->gn);
    sunset_free(c->pn);
    sunset_free(c->file_targets_n);
    sunset_free(c->flag_at);
    sunset_free(c->pass_at);
    sunset_free(c->header);
    sunset_free(c->stem_n);
    vec_free(&c->classes);
    vec_free(&c->cmds);
    vec_free(&c->targets);
    vec_free(&c->flags);
    vec_free(&c->passes);
}
