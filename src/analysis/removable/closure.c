/*
 * closure.c — the deleted set, closed under reference (rm_closure). Starting from the dead
 * legacy files, every reference to one of them or to a target that goes with them (refs.c) is
 * either removable by a line edit — the whole CMake command, one list entry, an unused include
 * or import line — or it keeps the file it names, with the reason; a kept file's own
 * references then count too, so this runs to a fixed point. What is left deletes cleanly.
 *
 * Then the steps: the dead files fall into groups that reference each other (includes,
 * imports, the sources of one dropped target); no reference crosses groups, so each group with
 * its edits is one independently landable change. Groups are numbered by their first file in
 * the plan's dependents-first order.
 */
#include "analysis/removable/rm_int.h"

#include <string.h>

typedef struct closure {
    bool *dead;
    char **why;
    vec *edits;
    bool changed;
} closure;

static void keep(ctx *c, closure *L, size_t f, const rm_ref *r) {
    if (!L->dead[f]) return;
    L->dead[f] = false;
    L->changed = true;
    if (!L->why[f])
        L->why[f] = rm_fmt("kept: %s:%u still names it%s%s (no safe edit removes that reference)",
                           c->files[r->from]->path, r->line, r->cmd ? " in " : "", r->cmd ? r->cmd->name : "");
    if (!L->why[f]) c->oom = true;
}

static void on_ref(ctx *c, const rm_ref *r, void *ud) {
    closure *L = ud;
    if (r->how == RM_REF_KEEP && rm_whatif_migrated(c, r)) return; /* the migration takes it */
    if (r->how == RM_REF_KEEP) {
        if (r->to >= 0) keep(c, L, (size_t)r->to, r);
        if (r->target >= 0) {
            const tgt *T = &VEC_AT(&c->targets, tgt, r->target);
            for (size_t s = 0; s < T->srcs.n; s++) keep(c, L, VEC_AT(&T->srcs, size_t, s), r);
        }
        return;
    }
    rm_edit e = {r->from, r->line, r->end, r->how == RM_REF_TOKEN ? r->token : NULL, r->how, r->to, r->target, 0,
                 r->link ? r->token : NULL};
    if (!vec_push(L->edits, &e)) c->oom = true;
}

static size_t uf_find(size_t *up, size_t x) {
    while (up[x] != x) x = up[x] = up[up[x]];
    return x;
}

static void uf_join(size_t *up, size_t a, size_t b) {
    a = uf_find(up, a);
    b = uf_find(up, b);
    if (a != b) up[a > b ? a : b] = a < b ? a : b;
}

/* Group the dead files and number the groups; step[] holds the dependents-first order on
 * entry. Returns the number of steps, -1 on OOM. */
static int steps(ctx *c, const bool *dead, const bool *dropped, int *step, vec *edits) {
    size_t nf = c->nf ? c->nf : 1;
    size_t *up = sunset_malloc(nf * sizeof(size_t));
    int *first = sunset_malloc(nf * sizeof(int)); /* per position in the order: its file */
    int *num = sunset_calloc(nf, sizeof(int));     /* per group root: its step */
    int n = -1;
    if (!up || !first || !num) goto cleanup;
    for (size_t f = 0; f < c->nf; f++) up[f] = f;
    for (size_t f = 0; f < c->nf; f++)
        for (size_t e = 0; dead[f] && e < c->out[f].n; e++)
            if (dead[VEC_AT(&c->out[f], edge, e).to]) uf_join(up, f, VEC_AT(&c->out[f], edge, e).to);
    for (size_t t = 0; t < c->targets.n; t++) {
        const tgt *T = &VEC_AT(&c->targets, tgt, t);
        for (size_t s = 1; dropped[t] && s < T->srcs.n; s++)
            uf_join(up, VEC_AT(&T->srcs, size_t, 0), VEC_AT(&T->srcs, size_t, s));
    }
    /* number the groups by their first file's position in the order (step[] on entry) */
    for (size_t f = 0; f < c->nf; f++) first[f] = -1;
    for (size_t f = 0; f < c->nf; f++)
        if (dead[f] && step[f] > 0 && (size_t)step[f] <= c->nf) first[step[f] - 1] = (int)f;
    n = 0;
    for (size_t pos = 0; pos < c->nf; pos++) {
        if (first[pos] < 0) continue;
        size_t r = uf_find(up, (size_t)first[pos]);
        if (!num[r]) num[r] = ++n;
    }
    for (size_t f = 0; f < c->nf; f++)
        if (dead[f]) step[f] = num[uf_find(up, f)];
    for (size_t i = 0; i < edits->n; i++) {
        rm_edit *e = &VEC_AT(edits, rm_edit, i);
        long f = e->to;
        if (f < 0 && e->target >= 0 && VEC_AT(&c->targets, tgt, e->target).srcs.n)
            f = (long)VEC_AT(&VEC_AT(&c->targets, tgt, e->target).srcs, size_t, 0);
        e->step = f >= 0 && dead[f] ? step[f] : 0;
    }
cleanup:
    sunset_free(up);
    sunset_free(first);
    sunset_free(num);
    return n;
}

int rm_closure(ctx *c, bool *dead, bool *dropped, char **why, int *step, vec *edits) {
    closure L = {dead, why, edits, true};
    while (L.changed && !c->oom) {
        L.changed = false;
        edits->n = 0;
        rm_dropped_targets(c, dead, dropped);
        rm_refs_each(c, dead, dropped, on_ref, &L);
    }
    if (c->oom) return -1;
    return steps(c, dead, dropped, step, edits);
}
