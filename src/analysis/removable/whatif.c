/*
 * whatif.c — the migrate table's "unblocks": for each live legacy file, the liveness fixed
 * point run again as if that file had been migrated away (its callers moved to the rule's
 * `migrate_to`): the file, and what it defines, never turns live and so keeps nothing live.
 * The legacy items live before and dead then are what migrating it unblocks. A computation
 * over the same graph, not a list: the real run's live marks and callers are put aside and
 * restored after each what-if.
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

/* The what-if for legacy file f: what was live (keep) and is dead now, f's own items left out,
 * into out (char *, owned). */
static void whatif_one(ctx *c, saved **keep, size_t f, bool mute, vec *out) {
    swap_marks(c, keep, false);
    *(mute ? &c->mute_p1 : &c->block_p1) = f + 1;
    rm_liveness(c);
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

static int whatif_run(ctx *c, size_t f, bool mute, vec *out) {
    group g[5];
    size_t ng = groups_of(c, g);
    saved *keep[5] = {0};
    int rc = -1;
    for (size_t k = 0; k < ng; k++)
        if (!(keep[k] = sunset_calloc(g[k].count ? g[k].count : 1, sizeof(saved)))) goto cleanup;
    whatif_one(c, keep, f, mute, out);
    rc = c->oom ? -1 : 0;
cleanup:
    for (size_t k = 0; k < ng; k++) sunset_free(keep[k]);
    return rc;
}

int rm_whatif(ctx *c, size_t f, vec *out) { return whatif_run(c, f, false, out); }
int rm_whatif_consumer(ctx *c, size_t f, vec *out) { return whatif_run(c, f, true, out); }

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

/* Every live item's callers that are not legacy code: the plan's consumers, each with the
 * target APIs of what it keeps live and what migrating it unblocks. */
static int consumers_fill(ctx *c, rm_plan *p) {
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
        vec out = VEC_INIT(char *);
        int rc = rm_whatif_consumer(c, (size_t)rm_lookup_rel(c, "", 0, k->path), &out);
        k->unblocks = (char **)out.v; /* the vec's buffer, now the consumer's */
        k->n_unblocks = out.n;
        if (rc) return -1;
    }
    return 0;
}

int rm_migrate_fill(ctx *c, const sunset_ruleset *rs, rm_plan *p) {
    for (size_t i = 0; i < p->n_items; i++) {
        rm_item *it = &p->items[i];
        if (!it->live) continue;
        const char *seed = rm_chain_seed(it->steps, it->n_steps);
        const sunset_rule *r = seed ? sunset_ruleset_find(rs, seed) : NULL;
        if (r && r->migrate_to && !(it->migrate_to = rm_dupz(r->migrate_to))) return -1;
    }
    for (size_t f = 0; f < c->nf; f++) {
        if (!c->fn[f].legacy || !c->fn[f].live) continue;
        rm_item *it = live_file_item(p, c->files[f]->path);
        if (!it) continue;
        vec out = VEC_INIT(char *);
        if (rm_whatif(c, f, &out)) {
            for (size_t k = 0; k < out.n; k++) sunset_free(VEC_AT(&out, char *, k));
            vec_free(&out);
            return -1;
        }
        it->unblocks = (char **)out.v; /* the vec's buffer, now the item's */
        it->n_unblocks = out.n;
    }
    return consumers_fill(c, p);
}
