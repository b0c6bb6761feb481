/*
 * store.c — a removal plan as bytes and back (rm_plan_encode, rm_plan_decode, removable.h):
 * the content cache's form of the plan a warm run takes instead of building it. Every field
 * of rm_plan, rm_item, rm_step, rm_consumer and rm_wstep is written in a fixed order; a step's rule id,
 * borrowed from the rule set, is written as text and looked up again. The decoder checks
 * every length against what is left, so damaged bytes are refused (then the plan is built).
 */
#include "analysis/removable.h"

#include <stdlib.h>
#include <string.h>

#include "core/ruleset.h"

#define PLAN_MAGIC 0x324e414c50u /* "PLAN2" (1 had no unblocked steps) */

static void e32(sb *b, uint32_t v) { sb_putn(b, (const char *)&v, 4); }
static void e64(sb *b, uint64_t v) { sb_putn(b, (const char *)&v, 8); }

static void estr(sb *b, const char *s) {
    e32(b, s ? (uint32_t)strlen(s) : UINT32_MAX);
    if (s) sb_putn(b, s, strlen(s));
}

static void estrs(sb *b, char *const *v, size_t n) {
    e64(b, n);
    for (size_t i = 0; i < n; i++) estr(b, v[i]);
}

static void eints(sb *b, const int *v, size_t n) {
    e64(b, n);
    for (size_t i = 0; i < n; i++) e32(b, (uint32_t)v[i]);
}

static void estep(sb *b, const rm_step *s) {
    e32(b, (uint32_t)s->kind);
    estr(b, s->path);
    e32(b, s->line);
    estr(b, s->rule_id);
    estr(b, s->detail);
    estr(b, s->other);
    estr(b, s->other_path);
    e32(b, s->other_line);
    e32(b, s->n_causes);
    e64(b, s->n_more);
}

static void eitem(sb *b, const rm_item *it) {
    e32(b, (uint32_t)it->kind);
    estr(b, it->path);
    estr(b, it->name);
    e32(b, it->line);
    e32(b, it->end);
    estr(b, it->enclosing);
    e32(b, (uint32_t)it->derived | (uint32_t)it->live << 1 | (uint32_t)it->patchable << 2 | (uint32_t)it->token << 3);
    e64(b, it->n_steps);
    for (size_t k = 0; k < it->n_steps; k++) estep(b, &it->steps[k]);
    estrs(b, it->callers, it->n_callers);
    e32(b, (uint32_t)it->step);
    estr(b, it->after);
    estr(b, it->replace);
    estr(b, it->migrate_to);
    estrs(b, it->unblocks, it->n_unblocks);
    estr(b, it->mechanical);
    eints(b, it->unblocks_steps, it->n_unblocks_steps);
}

int rm_plan_encode(const rm_plan *p, sb *out) {
    e64(out, PLAN_MAGIC);
    estr(out, p->root);
    size_t counts[] = {p->n_files_indexed, p->n_legacy_files, p->n_dead_files, p->n_live_files,
                       p->n_derived_files, p->n_kept_files, p->n_steps, p->n_items, p->n_consumers};
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++) e64(out, counts[i]);
    for (size_t i = 0; i < p->n_items; i++) eitem(out, &p->items[i]);
    for (size_t i = 0; i < p->n_consumers; i++) {
        const rm_consumer *k = &p->consumers[i];
        estr(out, k->path);
        estrs(out, k->migrate_to, k->n_migrate_to);
        e64(out, k->n_keeps);
        estrs(out, k->unblocks, k->n_unblocks);
        eints(out, k->unblocks_steps, k->n_unblocks_steps);
    }
    e64(out, p->n_unblocked);
    for (size_t i = 0; i < p->n_unblocked; i++) {
        const rm_wstep *w = &p->unblocked[i];
        e32(out, (uint32_t)w->step);
        estrs(out, w->deletes, w->n_deletes);
        eints(out, w->joins, w->n_joins);
    }
    return out->oom ? -1 : 0;
}

/* ---- decoding ---- */

typedef struct dec {
    const char *p, *end;
    bool bad, oom;
} dec;

static uint64_t take(dec *d, size_t n) {
    uint64_t v = 0;
    if ((size_t)(d->end - d->p) < n) {
        d->bad = true;
        return 0;
    }
    memcpy(&v, d->p, n);
    d->p += n;
    return v;
}

static uint32_t g32(dec *d) { return (uint32_t)take(d, 4); }
static uint64_t g64(dec *d) { return take(d, 8); }

static char *gstr(dec *d) {
    uint32_t n = g32(d);
    if (d->bad || n == UINT32_MAX) return NULL;
    if ((size_t)(d->end - d->p) < n) {
        d->bad = true;
        return NULL;
    }
    char *s = sunset_strndup(d->p, n);
    d->p += n;
    if (!s) d->oom = d->bad = true;
    return s;
}

/* A count of elements of at least min bytes each that the rest could hold. */
static size_t gcount(dec *d, size_t min) {
    uint64_t n = g64(d);
    if (d->bad || n > (uint64_t)(d->end - d->p) / min) {
        d->bad = true;
        return 0;
    }
    return (size_t)n;
}

static void *gcalloc(dec *d, size_t n, size_t elem) {
    if (d->bad || !n) return NULL;
    void *v = sunset_calloc(n, elem);
    if (!v) d->oom = d->bad = true;
    return v;
}

static char **gstrs(dec *d, size_t *n) {
    *n = gcount(d, 4);
    char **v = gcalloc(d, *n, sizeof *v);
    if (!v) *n = 0;
    for (size_t i = 0; i < *n && !d->bad; i++) v[i] = gstr(d);
    return v;
}

static int *gints(dec *d, size_t *n) {
    *n = gcount(d, 4);
    int *v = gcalloc(d, *n, sizeof *v);
    if (!v) *n = 0;
    for (size_t i = 0; i < *n && !d->bad; i++) v[i] = (int)g32(d);
    return v;
}

static void gstep(dec *d, const sunset_ruleset *rs, rm_step *s) {
    uint32_t kind = g32(d);
    s->kind = (rm_step_kind)kind;
    s->path = gstr(d);
    s->line = g32(d);
    char *id = gstr(d);
    if (id) {
        const sunset_rule *r = rs ? sunset_ruleset_find(rs, id) : NULL;
        if (r) s->rule_id = r->id;
        else d->bad = true; /* a rule no longer there: build the plan */
        sunset_free(id);
    }
    s->detail = gstr(d);
    s->other = gstr(d);
    s->other_path = gstr(d);
    s->other_line = g32(d);
    s->n_causes = g32(d);
    s->n_more = (size_t)g64(d);
    if (kind >= RM_EV_KIND_COUNT) d->bad = true;
}

static void gitem(dec *d, const sunset_ruleset *rs, rm_item *it) {
    it->kind = (rm_kind)g32(d);
    it->path = gstr(d);
    it->name = gstr(d);
    it->line = g32(d);
    it->end = g32(d);
    it->enclosing = gstr(d);
    uint32_t flags = g32(d);
    it->derived = flags & 1;
    it->live = flags & 2;
    it->patchable = flags & 4;
    it->token = flags & 8;
    it->n_steps = gcount(d, 40);
    it->steps = gcalloc(d, it->n_steps, sizeof *it->steps);
    if (!it->steps) it->n_steps = 0;
    for (size_t k = 0; k < it->n_steps && !d->bad; k++) gstep(d, rs, &it->steps[k]);
    it->callers = gstrs(d, &it->n_callers);
    it->step = (int)g32(d);
    it->after = gstr(d);
    it->replace = gstr(d);
    it->migrate_to = gstr(d);
    it->unblocks = gstrs(d, &it->n_unblocks);
    it->mechanical = gstr(d);
    it->unblocks_steps = gints(d, &it->n_unblocks_steps);
    if (!it->path) d->bad = true;
}

int rm_plan_decode(const char *bytes, size_t n, const sunset_ruleset *rs, rm_plan *p) {
    dec d = {bytes, bytes + n, false, false};
    memset(p, 0, sizeof *p);
    if (g64(&d) != PLAN_MAGIC) return 1;
    p->root = gstr(&d);
    size_t *counts[] = {&p->n_files_indexed, &p->n_legacy_files, &p->n_dead_files, &p->n_live_files,
                        &p->n_derived_files, &p->n_kept_files, &p->n_steps};
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++) *counts[i] = (size_t)g64(&d);
    size_t n_items = gcount(&d, 60), n_cons = gcount(&d, 28);
    if ((p->items = gcalloc(&d, n_items, sizeof *p->items))) p->n_items = p->cap = n_items;
    for (size_t i = 0; i < p->n_items && !d.bad; i++) gitem(&d, rs, &p->items[i]);
    if ((p->consumers = gcalloc(&d, n_cons, sizeof *p->consumers))) p->n_consumers = n_cons;
    for (size_t i = 0; i < p->n_consumers && !d.bad; i++) {
        rm_consumer *k = &p->consumers[i];
        k->path = gstr(&d);
        k->migrate_to = gstrs(&d, &k->n_migrate_to);
        k->n_keeps = (size_t)g64(&d);
        k->unblocks = gstrs(&d, &k->n_unblocks);
        k->unblocks_steps = gints(&d, &k->n_unblocks_steps);
        if (!k->path) d.bad = true;
    }
    size_t n_un = gcount(&d, 20);
    if ((p->unblocked = gcalloc(&d, n_un, sizeof *p->unblocked))) p->n_unblocked = n_un;
    for (size_t i = 0; i < p->n_unblocked && !d.bad; i++) {
        rm_wstep *w = &p->unblocked[i];
        w->step = (int)g32(&d);
        w->deletes = gstrs(&d, &w->n_deletes);
        w->joins = gints(&d, &w->n_joins);
    }
    if (d.p != d.end) d.bad = true;
    if (!d.bad) return 0;
    rm_plan_free(p);
    return d.oom ? -1 : 1;
}

/* A whole file's item ends at the file's last line: the one fact the plan takes that the
 * facts digest leaves out (sunset_index_facts_digest), so it is read from this run's index. */
void rm_plan_refresh_lines(rm_plan *p, const sunset_index *ix) {
    for (size_t i = 0; i < p->n_items; i++) {
        rm_item *it = &p->items[i];
        uint32_t lines = 0;
        if (it->kind == RM_FILE && sunset_index_file_lines(ix, it->path, &lines)) it->end = lines ? lines : 1;
    }
}
