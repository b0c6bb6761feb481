/*
 * evidence.c — evidence chains as data. While propagating, a legacy node keeps one step (what
 * made it legacy, with borrowed strings) and pointers to the nodes it was derived from; a node
 * is marked once, so a chain never changes after it is written. For the plan, a chain is
 * flattened into an owned list of steps in preorder (a step, then each cause's whole chain),
 * which is what writers render (src/report/evidence.c) and where `scan --derive` finds the
 * seed rule: the last step with a rule id, the same rule the old text form named last.
 */
#include "analysis/removable/rm_int.h"

#include <string.h>

rm_step rm_step_of(rm_step_kind kind, const char *path, uint32_t line, const char *detail) {
    rm_step s = {0};
    s.kind = kind;
    s.path = (char *)path; /* borrowed until flattened */
    s.line = line;
    s.detail = (char *)detail;
    return s;
}

void rm_mark(ctx *c, node *n, const rm_ev *ev) {
    if (n->legacy) return;
    if (!(n->ev = sunset_malloc(sizeof *n->ev))) { /* unmarked: propagation stops on oom */
        c->oom = true;
        return;
    }
    n->legacy = true;
    n->derived = ev->step.n_causes > 0;
    *n->ev = *ev;
}

static bool dup_field(char **dst, const char *src) {
    if (!src) return true;
    *dst = rm_dupz(src);
    return *dst != NULL;
}

static bool push_step(rm_step **v, size_t *n, size_t *cap, const rm_step *s) {
    if (*n == *cap) {
        size_t nc = *cap ? *cap * 2 : 8;
        rm_step *nv = sunset_realloc(*v, nc * sizeof *nv);
        if (!nv) return false;
        *v = nv;
        *cap = nc;
    }
    rm_step *d = &(*v)[*n];
    memset(d, 0, sizeof *d);
    d->kind = s->kind;
    d->line = s->line;
    d->rule_id = s->rule_id;
    d->other_line = s->other_line;
    d->n_causes = s->n_causes;
    d->n_more = s->n_more;
    (*n)++; /* counted first, so that rm_steps_free frees whatever was copied */
    return dup_field(&d->path, s->path) && dup_field(&d->detail, s->detail) && dup_field(&d->other, s->other) &&
           dup_field(&d->other_path, s->other_path);
}

static bool flatten(const rm_ev *ev, rm_step **v, size_t *n, size_t *cap) {
    if (!push_step(v, n, cap, &ev->step)) return false;
    bool users = ev->step.kind == RM_EV_IMPORTED_ONLY || ev->step.kind == RM_EV_INCLUDED_ONLY;
    for (uint32_t i = 0; i < ev->step.n_causes; i++) {
        if (users) {
            rm_step u = rm_step_of(RM_EV_USER, ev->cause_path[i], 0, NULL);
            u.n_causes = 1;
            if (!push_step(v, n, cap, &u)) return false;
        }
        if (!flatten(ev->cause[i]->ev, v, n, cap)) return false;
    }
    return true;
}

void rm_ev_flatten(ctx *c, const rm_ev *ev, rm_step **steps, size_t *n_steps) {
    size_t cap = *n_steps;
    if (!flatten(ev, steps, n_steps, &cap)) c->oom = true;
}

const char *rm_chain_seed(const rm_step *steps, size_t n) {
    for (size_t i = n; i-- > 0;)
        if (steps[i].rule_id) return steps[i].rule_id;
    return NULL;
}

void rm_steps_free(rm_step *steps, size_t n) {
    for (size_t i = 0; steps && i < n; i++) {
        sunset_free(steps[i].path);
        sunset_free(steps[i].detail);
        sunset_free(steps[i].other);
        sunset_free(steps[i].other_path);
    }
    sunset_free(steps);
}
