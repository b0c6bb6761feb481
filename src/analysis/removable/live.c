/*
 * live.c — which legacy items live code still needs. Everything not legacy is live; a legacy
 * item reached from live code through an import whose name is used, an include whose classes
 * are used, a class name, a CMake dependency or a flag/pass use is live too, with that caller
 * recorded (at most 20). A second fixed point over the graph, after propagation; the plan
 * never deletes a live item.
 */
#include "analysis/removable/rm_int.h"

#include <stdio.h>
#include <string.h>

/* n lists 20 callers: rm_add_caller would drop another, and the work finding it can be skipped. */
static bool callers_full(const node *n) { return n->live && n->callers.n >= 20; }

/* A what-if's muted file (c->mute_p1) counts as migrated: nothing it names keeps code live. */
static bool file_live(const ctx *c, size_t f) {
    if (c->mute_p1 == f + 1) return false;
    return !c->fn[f].legacy || c->fn[f].live;
}

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

/* Does live code in Python file f use `bound`, a name its imports bind, bare (a use as an
 * attribute, `base.core`, is another module's name)? Uses in a dead legacy class do not count. */
static bool bound_used_live(const ctx *c, size_t f, const char *bound) {
    if (rm_py_bound_used(c, f, bound, -1)) return true;
    for (size_t q = 0; q < c->file_classes[f].n; q++) {
        size_t k = VEC_AT(&c->file_classes[f], size_t, q);
        if (c->cn[k].legacy && !c->cn[k].live) continue;
        if (VEC_AT(&c->classes, cls, k).c->top && rm_py_bound_used(c, f, bound, (long)q)) return true;
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
        char first[256];
        const char *bound = ix_import_bound(m, first, sizeof first);
        if (strlen(bound) < 3 || bound_used_live(c, f, bound)) {
            /* a re-exported name can be imported from where it is defined instead */
            char mod[600], attr[300];
            if (m->name && rm_reexport(c, f, ed->to, m->name, mod, sizeof mod, attr, sizeof attr) >= 0) continue;
            return true;
        }
    }
    return false;
}

static void make_live(ctx *c, node *n, char *who, bool *changed) {
    if (rm_whatif_blocked(c, n)) {
        sunset_free(who);
        return;
    }
    rm_add_caller(c, n, who);
    if (!n->live) {
        n->live = true;
        *changed = true;
    }
}

/* Legacy files a live file imports or includes (a counting, still-used edge) are live. */
static void live_edges(ctx *c, bool *changed) {
    for (size_t f = 0; f < c->nf; f++) {
        if (!file_live(c, f)) continue;
        for (size_t e = 0; e < c->out[f].n; e++) {
            const edge *ed = &VEC_AT(&c->out[f], edge, e);
            if (!c->fn[ed->to].legacy || callers_full(&c->fn[ed->to]) || !edge_live(c, f, ed)) continue;
            if (c->fn[ed->to].live) {
                rm_add_caller(c, &c->fn[ed->to], rm_fmt("%s:%u", c->files[f]->path, ed->line));
                continue;
            }
            make_live(c, &c->fn[ed->to], rm_fmt("%s:%u", c->files[f]->path, ed->line), changed);
        }
    }
}

/* Legacy class leg[i] (cu[i]: the files using its name): live when live code uses it. */
static void live_class(ctx *c, size_t k, const vec *users, bool *changed) {
    const cls *x = &VEC_AT(&c->classes, cls, k);
    /* C++: a class of a legacy file that stays live stays with it (its own file's uses
     * cannot be told from its definition) */
    if (!c->cn[k].live && c->files[x->file]->lang == SUNSET_LANG_CPP && c->fn[x->file].legacy &&
        c->fn[x->file].live)
        make_live(c, &c->cn[k], rm_fmt("defined in %s, which stays live", c->files[x->file]->path), changed);
    /* C++: a class its own live file names outside its body (`new ParallelExecutorPassBuilder(*this)`
     * in BuildStrategy's code, a neighbour class's member) is used there (ix_class.used_at) */
    if (!c->cn[k].live && c->files[x->file]->lang == SUNSET_LANG_CPP && x->c->used_at && file_live(c, x->file))
        make_live(c, &c->cn[k], rm_fmt("%s:%u names %s outside it", c->files[x->file]->path, x->c->used_at, x->c->name),
                  changed);
    bool marked = false; /* x's file and its includers, for rm_reaches3_near */
    for (size_t j = 0; j < users->n; j++) {
        size_t f = VEC_AT(users, size_t, j);
        if (f == x->file || !file_live(c, f)) continue;
        if (callers_full(&c->cn[k])) break;
        if (!uses_live(c, f, x->c->name)) continue;
        if (!marked) rm_mark_near(c, x->file, 1);
        marked = true;
        if (!rm_reaches3_near(c, f)) continue;
        make_live(c, &c->cn[k], rm_fmt("%s uses %s", c->files[f]->path, x->c->name), changed);
        if (!c->fn[x->file].live && c->fn[x->file].legacy)
            make_live(c, &c->fn[x->file], rm_fmt("%s uses %s", c->files[f]->path, x->c->name), changed);
    }
    if (marked) rm_mark_near(c, x->file, 0);
}

/* A live target keeps the legacy targets it depends on and the legacy sources it compiles. */
static void live_target_deps(ctx *c, bool *changed) {
    for (size_t t = 0; t < c->targets.n; t++) {
        if (c->tn[t].legacy && !c->tn[t].live) continue;
        tgt *T = &VEC_AT(&c->targets, tgt, t);
        const cmdref *r = &VEC_AT(&c->cmds, cmdref, VEC_AT(&T->defs, size_t, 0));
        if (c->mute_p1 == r->file + 1) continue;
        for (size_t k = 0; k < T->dep_ids.n; k++) {
            size_t d = VEC_AT(&T->dep_ids, size_t, k);
            if (!c->tn[d].legacy || callers_full(&c->tn[d])) continue;
            char *who = rm_fmt("%s:%u target %s", c->files[r->file]->path, r->cmd->line, T->name);
            if (c->tn[d].live) rm_add_caller(c, &c->tn[d], who);
            else make_live(c, &c->tn[d], who, changed);
        }
        for (size_t s = 0; s < T->srcs.n; s++) {
            size_t sf = VEC_AT(&T->srcs, size_t, s);
            if (!c->fn[sf].legacy || c->fn[sf].live) continue;
            make_live(c, &c->fn[sf], rm_fmt("%s:%u target %s compiles it", c->files[r->file]->path,
                                            r->cmd->line, T->name), changed);
        }
    }
}

/* A legacy source whose functions a live file calls (calls.c) stays, that file its caller. */
static void live_called(ctx *c, bool *changed) {
    for (size_t f = 0; f < c->nf; f++) {
        if (!c->fn[f].legacy || callers_full(&c->fn[f])) continue;
        const vec *by = &c->func_callers[f];
        /* the calls go through its header: a what-if migrating the header away takes them */
        if (by->n && c->block_p1 && (long)c->block_p1 - 1 == rm_own_header(c, f)) continue;
        for (size_t i = 0; i < by->n && !callers_full(&c->fn[f]); i++) {
            size_t g = VEC_AT(by, size_t, i);
            if (!file_live(c, g)) continue;
            char *who = rm_fmt("%s calls %s", c->files[g]->path, rm_func_called(c, f, g));
            if (c->fn[f].live) rm_add_caller(c, &c->fn[f], who);
            else make_live(c, &c->fn[f], who, changed);
        }
    }
}

/* A source implementing a header that stays live stays too. */
static void live_sources(ctx *c, bool *changed) {
    for (size_t f = 0; f < c->nf; f++) {
        if (!c->fn[f].legacy || c->fn[f].live || c->files[f]->lang != SUNSET_LANG_CPP || c->header[f]) continue;
        for (size_t e = 0; e < c->out[f].n; e++) {
            size_t g = VEC_AT(&c->out[f], edge, e).to;
            const char *b = c->files[g]->path;
            if (!rm_same_stem_files(c, f, g) || !file_live(c, g)) continue;
            make_live(c, &c->fn[f], rm_fmt("implements %s, which stays", b), changed);
            break;
        }
    }
}

/* A live legacy file keeps its targets. */
static void live_targets_of_files(ctx *c, bool *changed) {
    for (size_t t = 0; t < c->targets.n; t++) {
        if (!c->tn[t].legacy || c->tn[t].live) continue;
        tgt *T = &VEC_AT(&c->targets, tgt, t);
        for (size_t s = 0; s < T->srcs.n; s++) {
            size_t sf = VEC_AT(&T->srcs, size_t, s);
            if (c->fn[sf].legacy && c->fn[sf].live) {
                make_live(c, &c->tn[t], rm_fmt("compiles live %s", c->files[sf]->path), changed);
                break;
            }
        }
    }
}

/* leg: the legacy classes, cu[i]: the files using leg[i]'s name. */
static void files_classes_targets_live(ctx *c, const vec *leg, const vec *cu) {
    bool changed = true;
    while (changed && !c->oom) {
        changed = false;
        live_edges(c, &changed);
        for (size_t i = 0; i < leg->n; i++) live_class(c, VEC_AT(leg, size_t, i), &cu[i], &changed);
        live_target_deps(c, &changed);
        live_sources(c, &changed);
        live_targets_of_files(c, &changed);
        live_called(c, &changed);
    }
}

/* An operator its own live registering file runs by type (ix_file.op_runs) is live; running
 * it by type needs the operator's registration, not a kernel's (wordref.kernel). */
static void ops_run_by_definer(ctx *c, bool *changed) {
    for (size_t i = 0; i < c->passes.n; i++) {
        const wordref *w = &VEC_AT(&c->passes, wordref, i);
        if (!w->op || w->kernel || !c->pn[i].legacy || c->pn[i].live || !file_live(c, w->file)) continue;
        const ix_file *F = c->files[w->file];
        for (size_t j = 0; j < F->op_runs.n; j++) {
            const ix_word *r = &VEC_AT(&F->op_runs, ix_word, j);
            if (strcmp(r->text, w->w->text) != 0) continue;
            make_live(c, &c->pn[i], rm_fmt("%s:%u runs op %s by type", F->path, r->line, r->text), changed);
            break;
        }
    }
}

/* Is file f, a user of kernel registration w's op name, another registration of the same
 * kernel (`REGISTER_OP_CUSTOM_DEVICE_KERNEL(x, dev, ops::XKernel<...>)`, the GPU file's
 * PD_REGISTER_STRUCT_KERNEL): does it name a legacy class of a header w's file includes, the
 * kernel it registers too? Such a use dies with the kernel: it keeps nothing live. */
static bool kernel_sibling(const ctx *c, const wordref *w, size_t f) {
    for (size_t e = 0; e < c->out[w->file].n; e++) {
        size_t h = VEC_AT(&c->out[w->file], edge, e).to;
        for (size_t q = 0; q < c->file_classes[h].n; q++) {
            size_t k = VEC_AT(&c->file_classes[h], size_t, q);
            if (c->cn[k].legacy && ix_file_uses(c->files[f], VEC_AT(&c->classes, cls, k).c->name)) return true;
        }
    }
    return false;
}

/* Flags and passes that live code uses are live, and so is the legacy file defining them
 * (a pass registered in a legacy file that a live file names in USE_PASS keeps that file).
 * A kernel registration (wordref.kernel) is not kept by another registration of its kernel.
 * Returns whether anything changed. */
static bool flags_passes_live(ctx *c) {
    bool changed = false;
    ops_run_by_definer(c, &changed);
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
                if (!file_live(c, f) || (w->kernel && kernel_sibling(c, w, f))) continue;
                if (nodes[i].legacy && !callers_full(&nodes[i])) {
                    if (nodes[i].live) rm_add_caller(c, &nodes[i], rm_fmt("%s uses %s", c->files[f]->path, name));
                    else make_live(c, &nodes[i], rm_fmt("%s uses %s", c->files[f]->path, name), &changed);
                }
                if (c->fn[w->file].legacy && !c->fn[w->file].live)
                    make_live(c, &c->fn[w->file], rm_fmt("%s uses %s %s defined here", c->files[f]->path,
                                                      kind ? (w->op ? "op" : "pass") : "flag", w->w->text), &changed);
            }
        }
    }
    return changed;
}

/* The legacy classes into leg (class ids); false on OOM. */
static bool legacy_classes(const ctx *c, vec *leg) {
    for (size_t k = 0; k < c->classes.n; k++)
        if (c->cn[k].legacy && !vec_push(leg, &k)) return false;
    return true;
}

void rm_live_users_free(ctx *c) {
    for (size_t i = 0; c->live_cu && i < c->live_leg.n; i++) vec_free(&c->live_cu[i]);
    sunset_free(c->live_cu);
    c->live_cu = NULL;
    vec_free(&c->live_leg);
}

/* The users of every legacy class's name (c->live_cu), computed once for the legacy classes
 * there are now: liveness marks nothing legacy, so the what-ifs ask for the same ones. */
static void legacy_class_users(ctx *c) {
    vec leg = VEC_INIT(size_t);
    if (!legacy_classes(c, &leg)) c->oom = true;
    if (c->live_cu && leg.n == c->live_leg.n && (!leg.n || !memcmp(leg.v, c->live_leg.v, leg.n * sizeof(size_t)))) {
        vec_free(&leg);
        return;
    }
    rm_live_users_free(c);
    c->live_leg = leg;
    const char **names = sunset_calloc(leg.n ? leg.n : 1, sizeof(char *));
    c->live_cu = sunset_calloc(leg.n ? leg.n : 1, sizeof(vec));
    if (!names || !c->live_cu) c->oom = true;
    for (size_t i = 0; names && i < leg.n; i++) names[i] = VEC_AT(&c->classes, cls, VEC_AT(&leg, size_t, i)).c->name;
    if (!c->oom && rm_users_of(c, names, leg.n, c->live_cu)) c->oom = true;
    sunset_free(names);
}

void rm_liveness(ctx *c) {
    legacy_class_users(c);
    /* live files keep the passes and flags they use, which can keep more files live */
    do {
        files_classes_targets_live(c, &c->live_leg, c->live_cu);
    } while (!c->oom && flags_passes_live(c));
}
