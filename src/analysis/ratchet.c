/*
 * ratchet.c — is a change's baseline edit the ratchet, and nothing more?
 *
 * In a diff mode the verdict uses the baseline as the diff base has it, so an edit of it is
 * judged against the judgement itself: each entry of the base's baseline may stay as it was;
 * it may be dropped when the change fixed its finding; it may be rewritten to the finding it
 * became when the change moved or re-keyed it (what --update-baseline writes, line numbers
 * aside). Any other entry of the edited baseline is added, and any other entry missing was
 * dropped without a fix: both are named, and the gate fails on them.
 */
#include "analysis/gate.h"

#include <stdlib.h>
#include <string.h>

/* An entry's identity: everything the gate reads of it (not the line, which is for humans). */
static char *key_of(const char *rule, const char *path, sunset_context ctx, const char *fp,
                    const char *matched, const char *scope) {
    sb k = {0};
    sb_printf(&k, "%s\x1f%s\x1f%d\x1f%s\x1f%s\x1f%s", rule, path, (int)ctx, fp, matched ? matched : "",
              scope ? scope : "");
    return k.oom ? NULL : sb_take(&k);
}

static char *known_key(const sunset_known *k) {
    return key_of(k->rule, k->path, k->ctx, k->fp, k->matched, k->scope);
}

static char *finding_key(const sunset_finding *f) {
    sb scope = {0};
    if (f->enc_kind) sb_printf(&scope, "%s %s", f->enc_kind, f->enc_name ? f->enc_name : "");
    char *k = scope.oom ? NULL : key_of(f->rule_id, f->path, f->ctx, f->fingerprint, f->matched, scope.s);
    sb_free(&scope);
    return k;
}

/* One entry of the base's baseline and what the change allows in its place. */
typedef struct slot {
    char *key;      /* as it is */
    char *now;      /* the finding it became (moved, re-keyed), or NULL */
    bool droppable; /* the change fixed it */
    bool used;
} slot;

/* The diff base's finding (an entry of known after the baseline's) that baseline entry e
 * stands for: the same fingerprint, or for a file the change renamed the same rule, text,
 * context and scope under the new name. NULL when the change did not touch it. */
static const sunset_known *counterpart(const sunset_gate_run *run, const sunset_known *e, bool *taken) {
    const sunset_known_set *ks = run->known;
    for (size_t i = run->n_baseline; i < ks->n; i++)
        if (!taken[i] && !strcmp(ks->v[i].fp, e->fp) && !strcmp(ks->v[i].path, e->path)) {
            taken[i] = true;
            return &ks->v[i];
        }
    const char *to = NULL;
    for (size_t i = 0; run->diff && i < run->diff->n && !to; i++) {
        const diff_file *f = &run->diff->files[i];
        if (f->path && f->old_path && strcmp(f->path, f->old_path) && !strcmp(f->old_path, e->path)) to = f->path;
    }
    for (size_t i = run->n_baseline; to && i < ks->n; i++) {
        const sunset_known *o = &ks->v[i];
        if (!taken[i] && !strcmp(o->path, to) && !strcmp(o->rule, e->rule) && o->ctx == e->ctx &&
            !strcmp(o->matched, e->matched) && !strcmp(o->scope ? o->scope : "", e->scope ? e->scope : "")) {
            taken[i] = true;
            return o;
        }
    }
    return NULL;
}

/* Did the change rename or delete path? */
static bool path_gone(const diff_set *ds, const char *path) {
    for (size_t i = 0; ds && i < ds->n; i++) {
        const diff_file *f = &ds->files[i];
        if (f->old_path && !strcmp(f->old_path, path) && (!f->path || strcmp(f->path, path))) return true;
    }
    return false;
}

static int push_violation(vec *out, sunset_ratchet_kind kind, const sunset_known *k) {
    sunset_ratchet_violation v = {kind, NULL, sunset_strndup(k->fp, strlen(k->fp))};
    sb w = {0};
    sb_printf(&w, "%s %s:%u %s", k->rule, k->path, k->line, k->matched);
    v.what = w.oom ? NULL : sb_take(&w);
    if (v.what && v.fp && vec_push(out, &v)) return 0;
    sunset_free(v.what);
    sunset_free(v.fp);
    return -1;
}

static int fill_slots(const sunset_gate_run *run, slot *slots) {
    bool *taken = sunset_calloc(run->known->n ? run->known->n : 1, sizeof *taken);
    if (!taken) return -1;
    int rc = 0;
    for (size_t i = 0; i < run->n_baseline && !rc; i++) {
        const sunset_known *e = &run->known->v[i];
        const sunset_known *o = counterpart(run, e, taken);
        slots[i].key = known_key(e);
        if (!slots[i].key) rc = -1;
        /* an entry of a path the change renamed or deleted that no finding became: gone (its
         * fingerprint names a path that no longer is; a path rule's finding, say) */
        if (!o) slots[i].droppable = path_gone(run->diff, e->path);
        if (!o || rc) continue;
        slots[i].droppable = o->in_scope && !o->seen;
        if (o->now && !(slots[i].now = finding_key(o->now))) rc = -1;
    }
    sunset_free(taken);
    return rc;
}

/* The slot for key k (as it is, or the finding it became when `now`), unused; NULL if none. */
static slot *find_slot(slot *slots, size_t n, const char *k, bool now) {
    for (size_t i = 0; i < n; i++) {
        const char *sk = now ? slots[i].now : slots[i].key;
        if (!slots[i].used && sk && !strcmp(sk, k)) return &slots[i];
    }
    return NULL;
}

int sunset_ratchet_check(const sunset_gate_run *run, const sunset_known_set *edited, vec *out) {
    size_t n = run->n_baseline;
    slot *slots = sunset_calloc(n ? n : 1, sizeof *slots);
    bool *matched = sunset_calloc(edited->n ? edited->n : 1, sizeof *matched);
    int rc = -1;
    if (!slots || !matched || fill_slots(run, slots)) goto cleanup;
    /* an entry as it was first, so that a rewritten twin cannot take its place */
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < edited->n; i++) {
            if (matched[i]) continue;
            char *k = known_key(&edited->v[i]);
            if (!k) goto cleanup;
            slot *s = find_slot(slots, n, k, pass == 1);
            sunset_free(k);
            if (s) s->used = matched[i] = true;
        }
    for (size_t i = 0; i < edited->n; i++)
        if (!matched[i] && push_violation(out, RATCHET_ADDED, &edited->v[i])) goto cleanup;
    for (size_t i = 0; i < n; i++)
        if (!slots[i].used && !slots[i].droppable && push_violation(out, RATCHET_DROPPED, &run->known->v[i]))
            goto cleanup;
    rc = 0;
cleanup:
    for (size_t i = 0; slots && i < n; i++) {
        sunset_free(slots[i].key);
        sunset_free(slots[i].now);
    }
    sunset_free(slots);
    sunset_free(matched);
    return rc;
}

void sunset_ratchet_violations_free(vec *v) {
    for (size_t i = 0; i < v->n; i++) {
        sunset_free(VEC_AT(v, sunset_ratchet_violation, i).what);
        sunset_free(VEC_AT(v, sunset_ratchet_violation, i).fp);
    }
    vec_free(v);
}
