/*
 * whatif.c — the migrate table's "unblocks": for each live legacy file, the liveness fixed
 * point run again as if that file had been migrated away (its callers moved to the rule's
 * `migrate_to`): the file, and what it defines, never turns live and so keeps nothing live.
 * The legacy items live before and dead then are what migrating it unblocks. A computation
 * over the same graph, not a list: the real run's live marks and callers are put aside and
 * restored after each what-if. The steps it unblocks are the plan's closure (closure.c) run on
 * the what-if's dead files, the references the migration removes aside: each group deleting a
 * file the plan does not is a step, numbered after the plan's own, once for whoever unblocks it.
 */
#include "analysis/removable/rm_int.h"

#include <string.h>

/* Every node of the graph, group by group. */
typedef struct group {
    node *n;
    size_t count;
    rm_kind kind;
} group;

static size_t groups_of(const ctx *c, group g[5]) {
    g[0] = (group){c->fn, c->nf, RM_FILE};
    g[1] = (group){c->cn, c->classes.n, RM_CLASS};
    g[2] = (group){c->tn, c->targets.n, RM_TARGET};
    g[3] = (group){c->gn, c->flags.n, RM_FLAG};
    g[4] = (group){c->pn, c->passes.n, RM_PASS};
    return 5;
}

/* The file defining node i of group k (targets: none, SIZE_MAX). */
static size_t definer(const ctx *c, size_t k, size_t i) {
    switch (k) {
    case 0: return i;
    case 1: return VEC_AT(&c->classes, cls, i).file;
    case 3: return VEC_AT(&c->flags, wordref, i).file;
    case 4: return VEC_AT(&c->passes, wordref, i).file;
    default: return SIZE_MAX;
    }
}

bool rm_whatif_blocked(const ctx *c, const node *n) {
    if (!c->block_p1) return false;
    group g[5];
    size_t ng = groups_of(c, g);
    for (size_t k = 0; k < ng; k++)
        if (g[k].count && n >= g[k].n && n < g[k].n + g[k].count)
            return definer(c, k, (size_t)(n - g[k].n)) == c->block_p1 - 1;
    return false;
}

/* "file a.cc", "class Foo (a.h)", "pass x", ... for node i of group k; owned, NULL on OOM. */
static char *describe(const ctx *c, size_t k, size_t i) {
    switch (k) {
    case 0: return rm_fmt("file %s", c->files[i]->path);
    case 1: {
        const cls *x = &VEC_AT(&c->classes, cls, i);
        return rm_fmt("class %s (%s)", x->c->name, c->files[x->file]->path);
    }
    case 2: return rm_fmt("target %s", VEC_AT(&c->targets, tgt, i).name);
    case 3: return rm_fmt("flag %s", VEC_AT(&c->flags, wordref, i).w->text);
    default: {
        const wordref *w = &VEC_AT(&c->passes, wordref, i);
        return rm_fmt("%s %s", w->op ? "op" : "pass", w->w->text);
    }
    }
}

typedef struct saved {
    bool live;
    vec callers;
} saved;

/* Put the real run's marks aside (all nodes dead, no callers) or bring them back. */
static void swap_marks(const ctx *c, saved **keep, bool restore) {
    group g[5];
    size_t ng = groups_of(c, g);
    for (size_t k = 0; k < ng; k++)
        for (size_t i = 0; i < g[k].count; i++) {
            node *n = &g[k].n[i];
            saved *s = &keep[k][i];
            if (restore) {
                for (size_t j = 0; j < n->callers.n; j++) sunset_free(VEC_AT(&n->callers, char *, j));
                vec_free(&n->callers);
                n->live = s->live;
                n->callers = s->callers;
            } else {
                *s = (saved){n->live, n->callers};
                n->live = false;
                n->callers = VEC_INIT(char *);
            }
        }
}

bool rm_whatif_migrated(const ctx *c, const rm_ref *r) {
    if (c->mute_p1) return r->from == c->mute_p1 - 1;
    if (!c->block_p1) return false;
    if (r->to >= 0) return (size_t)r->to == c->block_p1 - 1;
    if (r->target < 0) return false;
    const vec *srcs = &VEC_AT(&c->targets, tgt, r->target).srcs;
    for (size_t s = 0; s < srcs->n; s++)
        if (VEC_AT(srcs, size_t, s) == c->block_p1 - 1) return true;
    return false;
}

void rm_wstep_free(rm_wstep *w) {
    for (size_t i = 0; i < w->n_deletes; i++) sunset_free(w->deletes[i]);
    sunset_free(w->deletes);
    sunset_free(w->joins);
    memset(w, 0, sizeof *w);
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }
static int cmp_int(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }

/* Add file f, dead in the what-if, to its group's step: a file the plan deletes in step ps[f]
 * joins that step, any other is one the group deletes anew. */
static int wstep_add(const ctx *c, rm_wstep *w, size_t f, const int *ps) {
    if (!ps[f]) {
        char **v = sunset_realloc(w->deletes, (w->n_deletes + 1) * sizeof *v);
        if (!v) return -1;
        w->deletes = v;
        if (!(v[w->n_deletes] = rm_dupz(c->files[f]->path))) return -1;
        w->n_deletes++;
        return 0;
    }
    for (size_t i = 0; i < w->n_joins; i++)
        if (w->joins[i] == ps[f]) return 0;
    int *v = sunset_realloc(w->joins, (w->n_joins + 1) * sizeof *v);
    if (!v) return -1;
    w->joins = v;
    v[w->n_joins++] = ps[f];
    return 0;
}

/* The what-if's steps: the closure run on its dead files as the plan's runs on its own (the
 * references the migration removes aside, rm_whatif_migrated), each group deleting a file the
 * plan does not (ps[f]: the plan's step deleting f, 0 none) into out (rm_wstep, owned). When
 * every dead file is the plan's already there is no such group (the closure only keeps files),
 * and no closure to run. */
static int whatif_steps(ctx *c, const int *ps, vec *out) {
    bool fresh = false;
    for (size_t f = 0; f < c->nf && !fresh; f++) fresh = c->fn[f].legacy && !c->fn[f].live && !ps[f];
    if (!fresh) return 0;
    size_t nf = c->nf;
    bool *dead = sunset_calloc(nf, 1), *dropped = sunset_calloc(c->targets.n ? c->targets.n : 1, 1);
    bool *from = sunset_calloc(nf, 1);
    int *step = sunset_calloc(nf, sizeof(int));
    char **why = sunset_calloc(nf, sizeof(char *));
    vec edits = VEC_INIT(rm_edit);
    rm_wstep *g = NULL;
    int n = -1, ng = 0;
    if (!dead || !dropped || !from || !step || !why) goto cleanup;
    for (size_t f = 0; f < nf; f++)
        if (c->fn[f].legacy && !c->fn[f].live) dead[f] = true, step[f] = (int)f + 1; /* any order numbers the groups */
    /* only the files that may name a dead one are read: the same references, far fewer files */
    if (rm_refs_from(c, dead, from)) goto cleanup;
    c->refs_from = from;
    n = rm_closure(c, dead, dropped, why, step, &edits);
    c->refs_from = NULL;
    if (n < 0 || !(g = sunset_calloc((size_t)n + 1, sizeof *g))) {
        n = -1;
        goto cleanup;
    }
    ng = n;
    for (size_t f = 0; f < nf && n >= 0; f++)
        if (dead[f] && wstep_add(c, &g[step[f]], f, ps)) n = -1;
    for (int k = 1; k <= n; k++) {
        if (!g[k].n_deletes) continue;
        qsort(g[k].deletes, g[k].n_deletes, sizeof(char *), cmp_str);
        if (g[k].n_joins) qsort(g[k].joins, g[k].n_joins, sizeof(int), cmp_int);
        if (!vec_push(out, &g[k])) n = -1;
        else g[k] = (rm_wstep){0};
    }
cleanup:
    for (int k = 0; g && k <= ng; k++) rm_wstep_free(&g[k]);
    sunset_free(g);
    for (size_t f = 0; why && f < nf; f++) sunset_free(why[f]);
    sunset_free(why);
    vec_free(&edits);
    sunset_free(dead);
    sunset_free(from);
    sunset_free(dropped);
    sunset_free(step);
    return n < 0 ? -1 : 0;
}

/* The what-if for legacy file f: what was live (keep) and is dead now, f's own items left out,
 * into out (char *, owned), and the steps that makes possible into steps (rm_wstep, owned). */
static void whatif_one(ctx *c, saved **keep, size_t f, bool mute, const int *ps, vec *out, vec *steps) {
    swap_marks(c, keep, false);
    *(mute ? &c->mute_p1 : &c->block_p1) = f + 1;
    rm_liveness(c);
    if (!c->oom && whatif_steps(c, ps, steps)) c->oom = true;
    c->block_p1 = c->mute_p1 = 0;
    group g[5];
    size_t ng = groups_of(c, g);
    for (size_t k = 0; k < ng && !c->oom; k++)
        for (size_t i = 0; i < g[k].count; i++) {
            if (!g[k].n[i].legacy || !keep[k][i].live || g[k].n[i].live || (!mute && definer(c, k, i) == f)) continue;
            char *d = describe(c, k, i);
            if (!d || !vec_push(out, &d)) {
                sunset_free(d);
                c->oom = true;
                break;
            }
        }
    swap_marks(c, keep, true);
}

static int whatif_run(ctx *c, size_t f, bool mute, const int *ps, vec *out, vec *steps) {
    group g[5];
    size_t ng = groups_of(c, g);
    saved *keep[5] = {0};
    int rc = -1;
    for (size_t k = 0; k < ng; k++)
        if (!(keep[k] = sunset_calloc(g[k].count ? g[k].count : 1, sizeof(saved)))) goto cleanup;
    whatif_one(c, keep, f, mute, ps, out, steps);
    rc = c->oom ? -1 : 0;
cleanup:
    for (size_t k = 0; k < ng; k++) sunset_free(keep[k]);
    return rc;
}

static rm_item *live_file_item(rm_plan *p, const char *path) {
    for (size_t i = 0; i < p->n_items; i++)
        if (p->items[i].kind == RM_FILE && p->items[i].live && !strcmp(p->items[i].path, path)) return &p->items[i];
    return NULL;
}

/* The file a caller string starts with ("a.cc:12 ...", "a.cc uses X"), when it is one that is
 * not legacy; else -1. */
static long caller_file(const ctx *c, const char *who) {
    char path[4096];
    size_t n = strcspn(who, ": ");
    if (!n || n >= sizeof path) return -1;
    memcpy(path, who, n);
    path[n] = 0;
    long f = rm_lookup_rel(c, "", 0, path);
    return f >= 0 && !c->fn[f].legacy ? f : -1;
}

/* Add s to consumer k's target APIs unless it holds it already. */
static int add_target_api(rm_consumer *k, const char *s) {
    if (!s) return 0;
    for (size_t i = 0; i < k->n_migrate_to; i++)
        if (!strcmp(k->migrate_to[i], s)) return 0;
    char **v = sunset_realloc(k->migrate_to, (k->n_migrate_to + 1) * sizeof *v);
    if (!v) return -1;
    k->migrate_to = v;
    if (!(v[k->n_migrate_to] = rm_dupz(s))) return -1;
    k->n_migrate_to++;
    return 0;
}

static rm_consumer *consumer_of(rm_plan *p, const char *path, bool *oom) {
    for (size_t i = 0; i < p->n_consumers; i++)
        if (!strcmp(p->consumers[i].path, path)) return &p->consumers[i];
    rm_consumer *v = sunset_realloc(p->consumers, (p->n_consumers + 1) * sizeof *v);
    char *d = rm_dupz(path);
    if (v) p->consumers = v;
    if (!v || !d) {
        sunset_free(d);
        *oom = true;
        return NULL;
    }
    rm_consumer *k = &p->consumers[p->n_consumers++];
    memset(k, 0, sizeof *k);
    k->path = d;
    return k;
}

static int cmp_consumer(const void *a, const void *b) {
    return strcmp(((const rm_consumer *)a)->path, ((const rm_consumer *)b)->path);
}

static bool wstep_same(const rm_wstep *a, const rm_wstep *b) {
    if (a->n_deletes != b->n_deletes || a->n_joins != b->n_joins) return false;
    for (size_t i = 0; i < a->n_deletes; i++)
        if (strcmp(a->deletes[i], b->deletes[i]) != 0) return false;
    return !a->n_joins || !memcmp(a->joins, b->joins, a->n_joins * sizeof(int));
}

/* Step w's number in p->unblocked, w appended there (taken, numbered after the plan's steps and
 * those before it) when it is not one of them yet, else freed. -1 on OOM (w freed). */
static int number_step(rm_plan *p, rm_wstep *w) {
    for (size_t j = 0; j < p->n_unblocked; j++)
        if (wstep_same(&p->unblocked[j], w)) {
            rm_wstep_free(w);
            return p->unblocked[j].step;
        }
    rm_wstep *u = sunset_realloc(p->unblocked, (p->n_unblocked + 1) * sizeof *u);
    if (!u) {
        rm_wstep_free(w);
        return -1;
    }
    p->unblocked = u;
    w->step = (int)(p->n_steps + p->n_unblocked + 1);
    u[p->n_unblocked++] = *w;
    *w = (rm_wstep){0};
    return u[p->n_unblocked - 1].step;
}

/* The what-if of file f (a live legacy file, or with mute a consumer): its unblocked items
 * into *unb (owned), the numbers of the steps it unblocks, ascending, into *nums (owned). */
static int entry_whatif(ctx *c, rm_plan *p, size_t f, bool mute, const int *ps, char ***unb, size_t *n_unb,
                        int **nums, size_t *n_nums) {
    vec out = VEC_INIT(char *), steps = VEC_INIT(rm_wstep);
    int rc = whatif_run(c, f, mute, ps, &out, &steps);
    *unb = (char **)out.v; /* the vec's buffer, now the entry's */
    *n_unb = out.n;
    int *v = steps.n ? sunset_calloc(steps.n, sizeof(int)) : NULL;
    if (steps.n && !v) rc = -1;
    for (size_t i = 0; i < steps.n; i++) {
        rm_wstep *w = &VEC_AT(&steps, rm_wstep, i);
        int k = rc ? -1 : number_step(p, w);
        if (k < 0) {
            rm_wstep_free(w);
            rc = -1;
        } else v[(*n_nums)++] = k;
    }
    if (*n_nums > 1) qsort(v, *n_nums, sizeof(int), cmp_int);
    *nums = v;
    vec_free(&steps);
    return rc;
}

/* Every live item's callers that are not legacy code: the plan's consumers, each with the
 * target APIs of what it keeps live and what migrating it unblocks. */
static int consumers_fill(ctx *c, rm_plan *p, const int *ps) {
    bool oom = false;
    for (size_t i = 0; i < p->n_items && !oom; i++) {
        const rm_item *it = &p->items[i];
        for (size_t j = 0; it->live && j < it->n_callers && !oom; j++) {
            long f = caller_file(c, it->callers[j]);
            if (f < 0) continue;
            rm_consumer *k = consumer_of(p, c->files[f]->path, &oom);
            if (!k) break;
            k->n_keeps++;
            if (add_target_api(k, it->migrate_to)) oom = true;
        }
    }
    if (oom) return -1;
    if (p->n_consumers) qsort(p->consumers, p->n_consumers, sizeof *p->consumers, cmp_consumer);
    for (size_t i = 0; i < p->n_consumers; i++) {
        rm_consumer *k = &p->consumers[i];
        if (entry_whatif(c, p, (size_t)rm_lookup_rel(c, "", 0, k->path), true, ps, &k->unblocks, &k->n_unblocks,
                         &k->unblocks_steps, &k->n_unblocks_steps))
            return -1;
    }
    return 0;
}

/* Per file: the plan's step deleting it, 0 when the plan does not; NULL on OOM. */
static int *plan_steps(const ctx *c, const rm_plan *p) {
    int *ps = sunset_calloc(c->nf ? c->nf : 1, sizeof(int));
    for (size_t i = 0; ps && i < p->n_items; i++) {
        const rm_item *it = &p->items[i];
        if (it->kind != RM_FILE || it->live || !it->patchable || it->step <= 0) continue;
        long f = rm_lookup_rel(c, "", 0, it->path);
        if (f >= 0) ps[f] = it->step;
    }
    return ps;
}

int rm_migrate_fill(ctx *c, const sunset_ruleset *rs, rm_plan *p) {
    for (size_t i = 0; i < p->n_items; i++) {
        rm_item *it = &p->items[i];
        if (!it->live) continue;
        const char *seed = rm_chain_seed(it->steps, it->n_steps);
        const sunset_rule *r = seed ? sunset_ruleset_find(rs, seed) : NULL;
        if (r && r->migrate_to && !(it->migrate_to = rm_dupz(r->migrate_to))) return -1;
    }
    int *ps = plan_steps(c, p);
    int rc = ps ? 0 : -1;
    for (size_t f = 0; f < c->nf && !rc; f++) {
        if (!c->fn[f].legacy || !c->fn[f].live) continue;
        rm_item *it = live_file_item(p, c->files[f]->path);
        if (it && entry_whatif(c, p, f, false, ps, &it->unblocks, &it->n_unblocks, &it->unblocks_steps,
                               &it->n_unblocks_steps))
            rc = -1;
    }
    if (!rc) rc = consumers_fill(c, p, ps);
    sunset_free(ps);
    return rc;
}
