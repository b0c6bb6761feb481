/*
 * tracking_since.c — 本周变化: what changed between a previous tracking report (its JSON, as
 * `sunset report -f json` wrote it) and the report just computed. Tasks are matched by number,
 * items by their task and their file (file items) or name (check items); a task's findings the
 * previous report did not list are new legacy code (matched by fingerprint when the previous
 * report has them, else by path and rule, as a multiset). The commits in between and their
 * drops are measured by the caller (the history replay) and recorded here.
 */
#include <stdlib.h>
#include <string.h>

#include "analysis/tracking.h"
#include "base/json.h"

static int bad(sunset_error *err, const char *origin, const char *text, size_t len, const cJSON *root,
               const cJSON *at, const char *msg) {
    unsigned line = 1, col = 1;
    if (at) json_item_pos(text, len, root, at, &line, &col);
    snprintf(err->msg, sizeof err->msg, "%s:%u:%u: %s", origin, line, col, msg);
    return 1;
}

static char *dup_or_null(const cJSON *j) {
    return cJSON_IsString(j) ? sunset_strndup(j->valuestring, strlen(j->valuestring)) : NULL;
}

static int cmp_str(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int cmp_size(const void *a, const void *b) {
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return x < y ? -1 : x > y;
}

/* The key a finding is matched by across the two reports. */
static void key_of(sb *k, bool by_fp, const char *path, const char *rule, const char *fp) {
    k->len = 0;
    if (k->s) k->s[0] = 0;
    if (by_fp) sb_puts(k, fp ? fp : "");
    else sb_printf(k, "%s\n%s", path ? path : "", rule ? rule : "");
}

static const char *jstr(const cJSON *o, const char *name) {
    const cJSON *j = cJSON_GetObjectItemCaseSensitive(o, name);
    return cJSON_IsString(j) ? j->valuestring : NULL;
}

static long jlong(const cJSON *o, const char *name) {
    long v = 0;
    json_get_int(cJSON_GetObjectItemCaseSensitive(o, name), 0, 1L << 40, &v);
    return v;
}

/* The task's findings now that the previous report's `remaining` does not list. */
static int added_findings(const cJSON *remaining, bool by_fp, const tracking_report *r, const trk_task *t,
                          trk_since_task *st) {
    vec old = VEC_INIT(char *);
    sb k = {0};
    int rc = -1;
    bool *used = NULL;
    const cJSON *f;
    cJSON_ArrayForEach(f, remaining) {
        key_of(&k, by_fp, jstr(f, "path"), jstr(f, "rule"), jstr(f, "fingerprint"));
        char *d = k.oom ? NULL : sunset_strndup(k.s ? k.s : "", k.len);
        if (!d || !vec_push(&old, &d)) {
            sunset_free(d);
            goto cleanup;
        }
    }
    if (old.n > 1) qsort(old.v, old.n, sizeof(char *), cmp_str);
    if (!(used = sunset_calloc(old.n + 1, 1))) goto cleanup;
    for (size_t i = 0; i < t->findings.n; i++) {
        size_t idx = VEC_AT(&t->findings, size_t, i);
        const sunset_finding *nf = &r->res->findings[idx];
        key_of(&k, by_fp, nf->path, nf->rule_id, nf->fingerprint);
        if (k.oom) goto cleanup;
        const char *key = k.s ? k.s : "";
        size_t lo = 0, hi = old.n;
        while (lo < hi) {
            size_t mid = (lo + hi) / 2;
            if (strcmp(VEC_AT(&old, char *, mid), key) < 0) lo = mid + 1;
            else hi = mid;
        }
        while (lo < old.n && used[lo] && strcmp(VEC_AT(&old, char *, lo), key) == 0) lo++;
        if (lo < old.n && strcmp(VEC_AT(&old, char *, lo), key) == 0) used[lo] = true;
        else if (!vec_push(&st->added, &idx)) goto cleanup;
    }
    rc = 0;
cleanup:
    for (size_t i = 0; i < old.n; i++) sunset_free(VEC_AT(&old, char *, i));
    vec_free(&old);
    sunset_free(used);
    sb_free(&k);
    return rc;
}

/* The previous report's item matching `it`: same file (file items) or same name. */
static const cJSON *old_item(const cJSON *old_task, const trk_item *it) {
    const cJSON *o;
    cJSON_ArrayForEach(o, cJSON_GetObjectItemCaseSensitive(old_task, "items")) {
        const char *file = jstr(o, "file"), *name = jstr(o, "name");
        if (it->file ? file && strcmp(file, it->file) == 0 : !file && name && it->name && strcmp(name, it->name) == 0)
            return o;
    }
    return NULL;
}

static int compare_task(const cJSON *ot, bool by_fp, const tracking_report *r, const trk_task *t, trk_since *out) {
    trk_since_task st = {.number = t->number, .known = ot != NULL, .now_done = t->done,
                         .after = (long)t->findings.n, .added = VEC_INIT(size_t)};
    if (ot) {
        st.was_done = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(ot, "done"));
        st.before = jlong(ot, "findings");
        if (added_findings(cJSON_GetObjectItemCaseSensitive(ot, "remaining"), by_fp, r, t, &st)) {
            vec_free(&st.added);
            return -1;
        }
    }
    if (!vec_push(&out->tasks, &st)) {
        vec_free(&st.added);
        return -1;
    }
    for (size_t k = 0; k < t->items.n; k++) {
        const trk_item *it = &VEC_AT(&t->items, trk_item, k);
        const cJSON *oi = ot ? old_item(ot, it) : NULL;
        const char *before = oi ? jstr(oi, "state") : NULL;
        if (before && strcmp(before, trk_state_key(trk_item_state(it))) == 0) continue;
        trk_since_item si = {.task = t->number, .it = it, .open_before = oi ? jlong(oi, "open") : 0};
        snprintf(si.before, sizeof si.before, "%s", before ? before : "");
        if (!vec_push(&out->items, &si)) return -1;
    }
    return 0;
}

int trk_since_compute(const char *text, size_t len, const char *origin, const tracking_report *r,
                      trk_since *out, sunset_error *err) {
    memset(out, 0, sizeof *out);
    out->tasks = VEC_INIT(trk_since_task);
    out->items = VEC_INIT(trk_since_item);
    out->prs = VEC_INIT(trk_since_pr);
    size_t off = 0;
    cJSON *root = json_parse(text, len, &off);
    if (!root) {
        json_parse_error(text, off, origin, "not valid JSON", err);
        return 1;
    }
    int rc = 1;
    const cJSON *tasks = cJSON_GetObjectItemCaseSensitive(root, "tasks");
    const cJSON *man = cJSON_GetObjectItemCaseSensitive(root, "manifest");
    if (!cJSON_IsObject(root) || !cJSON_IsArray(tasks) || !cJSON_IsObject(man)) {
        rc = bad(err, origin, text, len, root, root,
                 "not a tracking report (write one with 'sunset report -f json'): no \"manifest\" and \"tasks\"");
        goto cleanup;
    }
    const char *id = jstr(man, "id");
    if (!id || !r->m->id || strcmp(id, r->m->id) != 0) {
        sb msg = {0};
        sb_printf(&msg, "the report is of tracking issue %s, not %s", id ? id : "?", r->m->id ? r->m->id : "?");
        rc = bad(err, origin, text, len, root, cJSON_GetObjectItemCaseSensitive(man, "id"), msg.s ? msg.s : "?");
        sb_free(&msg);
        goto cleanup;
    }
    rc = -1;
    const char *rev = jstr(root, "revision"), *date = jstr(root, "date");
    if ((rev && !(out->revision = dup_or_null(cJSON_GetObjectItemCaseSensitive(root, "revision")))) ||
        (date && !(out->date = dup_or_null(cJSON_GetObjectItemCaseSensitive(root, "date")))))
        goto cleanup;
    /* fingerprints when the previous report has them (every report since they were added) */
    const cJSON *t0, *f;
    out->by_fingerprint = true;
    cJSON_ArrayForEach(t0, tasks) cJSON_ArrayForEach(f, cJSON_GetObjectItemCaseSensitive(t0, "remaining"))
        if (!jstr(f, "fingerprint")) out->by_fingerprint = false;
    for (size_t i = 0; i < r->m->tasks.n; i++) {
        const trk_task *t = &VEC_AT(&r->m->tasks, trk_task, i);
        const cJSON *ot = NULL, *o;
        cJSON_ArrayForEach(o, tasks) if (jlong(o, "number") == t->number) ot = o;
        if (compare_task(ot, out->by_fingerprint, r, t, out)) goto cleanup;
    }
    /* new findings over all tasks, each once (a finding can keep two tasks open) */
    vec all = VEC_INIT(size_t);
    for (size_t i = 0; i < out->tasks.n; i++) {
        const vec *a = &VEC_AT(&out->tasks, trk_since_task, i).added;
        for (size_t k = 0; k < a->n; k++)
            if (!vec_push(&all, &VEC_AT(a, size_t, k))) {
                vec_free(&all);
                goto cleanup;
            }
    }
    if (all.n > 1) qsort(all.v, all.n, sizeof(size_t), cmp_size);
    out->added = 0;
    for (size_t i = 0; i < all.n; i++) out->added += !i || VEC_AT(&all, size_t, i) != VEC_AT(&all, size_t, i - 1);
    vec_free(&all);
    rc = 0;
cleanup:
    cJSON_Delete(root);
    return rc;
}

int trk_since_add_commit(trk_since *s, const char *sha, const char *subject, const long *prs, size_t n_prs,
                         long delta, const int32_t by_task[TRK_SINCE_TASKS]) {
    bool moved = delta != 0;
    for (size_t t = 0; t < TRK_SINCE_TASKS && !moved; t++) moved = by_task[t] != 0;
    s->delta += delta;
    if (!moved) {
        if (n_prs) s->quiet_prs++;
        return 0;
    }
    trk_since_pr p = {.delta = delta};
    snprintf(p.sha, sizeof p.sha, "%.12s", sha ? sha : "");
    memcpy(p.by_task, by_task, sizeof p.by_task);
    p.subject = sunset_strndup(subject ? subject : "", subject ? strlen(subject) : 0);
    if (n_prs) p.prs = sunset_calloc(n_prs, sizeof(long));
    if (!p.subject || (n_prs && !p.prs)) goto oom;
    if (n_prs) memcpy(p.prs, prs, n_prs * sizeof(long));
    p.n_prs = n_prs;
    if (!vec_push(&s->prs, &p)) goto oom;
    return 0;
oom:
    sunset_free(p.subject);
    sunset_free(p.prs);
    return -1;
}

static int cmp_pr(const void *a, const void *b) {
    const trk_since_pr *x = a, *y = b;
    if (x->delta != y->delta) return x->delta < y->delta ? -1 : 1; /* the largest drop first */
    return strcmp(x->sha, y->sha);
}

void trk_since_sort(trk_since *s) {
    if (s->prs.n > 1) qsort(s->prs.v, s->prs.n, sizeof(trk_since_pr), cmp_pr);
}

const trk_since_task *trk_since_task_of(const trk_since *s, int number) {
    for (size_t i = 0; i < s->tasks.n; i++)
        if (VEC_AT(&s->tasks, trk_since_task, i).number == number) return &VEC_AT(&s->tasks, trk_since_task, i);
    return NULL;
}

void trk_since_free(trk_since *s) {
    if (!s) return;
    for (size_t i = 0; i < s->tasks.n; i++) vec_free(&VEC_AT(&s->tasks, trk_since_task, i).added);
    for (size_t i = 0; i < s->prs.n; i++) {
        sunset_free(VEC_AT(&s->prs, trk_since_pr, i).subject);
        sunset_free(VEC_AT(&s->prs, trk_since_pr, i).prs);
    }
    vec_free(&s->tasks);
    vec_free(&s->items);
    vec_free(&s->prs);
    sunset_free(s->revision);
    sunset_free(s->date);
    sunset_free(s->history_note);
    memset(s, 0, sizeof *s);
}
