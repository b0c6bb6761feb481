/*
 * result.c — the only code that adds, moves, filters, sorts, fingerprints and frees the
 * contents of a sunset_result (findings, warnings, unused suppressions, counters).
 *
 * Before this module a finding was built in five places and freed in two, and one of the
 * frees forgot two members; the result now has one owner, so a new owned member is added in
 * sunset_result_add and sunset_finding_free and nowhere else.
 */
#include "core/result.h"

#include <stdlib.h>
#include <string.h>

/* Room for one more element in an array of elem bytes. 0, or -1 on OOM. */
static int grow(void **v, size_t *cap, size_t n, size_t elem, size_t first) {
    if (n < *cap) return 0;
    size_t c = *cap ? *cap * 2 : first;
    void *p = sunset_realloc(*v, c * elem);
    if (!p) return -1;
    *v = p;
    *cap = c;
    return 0;
}

/* NULL stays NULL; otherwise a copy, and *oom set when the copy failed. */
static char *dup_or_null(const char *s, bool *oom) {
    if (!s) return NULL;
    char *d = sunset_strndup(s, strlen(s));
    if (!d) *oom = true;
    return d;
}

sunset_finding *sunset_result_add(sunset_result *r, const sunset_finding *f) {
    if (grow((void **)&r->findings, &r->cap_findings, r->n_findings, sizeof *r->findings, 64))
        return NULL;
    sunset_finding *d = &r->findings[r->n_findings];
    *d = *f;
    bool oom = false;
    d->path = dup_or_null(f->path, &oom);
    d->matched = dup_or_null(f->matched, &oom);
    d->snippet = dup_or_null(f->snippet, &oom);
    d->enc_kind = dup_or_null(f->enc_kind, &oom);
    d->enc_name = dup_or_null(f->enc_kind ? f->enc_name : NULL, &oom);
    d->justification = dup_or_null(f->justification, &oom);
    d->chain = dup_or_null(f->chain, &oom);
    if (oom || !d->path || !d->matched) {
        sunset_finding_free(d);
        return NULL;
    }
    r->n_findings++;
    return d;
}

void sunset_finding_free(sunset_finding *f) {
    if (!f) return;
    sunset_free(f->path);
    sunset_free(f->matched);
    sunset_free(f->snippet);
    sunset_free(f->enc_kind);
    sunset_free(f->enc_name);
    sunset_free(f->justification);
    sunset_free(f->chain);
    memset(f, 0, sizeof *f);
}

void sunset_result_truncate(sunset_result *r, size_t n) {
    while (r->n_findings > n) sunset_finding_free(&r->findings[--r->n_findings]);
}

void sunset_result_keep(sunset_result *r, const bool *keep) {
    size_t k = 0;
    for (size_t i = 0; i < r->n_findings; i++) {
        if (keep[i])
            r->findings[k++] = r->findings[i];
        else
            sunset_finding_free(&r->findings[i]);
    }
    r->n_findings = k;
}

int sunset_result_add_warning(sunset_result *r, const char *line) {
    if (grow((void **)&r->warnings, &r->cap_warnings, r->n_warnings, sizeof(char *), 16)) return -1;
    char *s = sunset_strndup(line, strlen(line));
    if (!s) return -1;
    r->warnings[r->n_warnings++] = s;
    r->stats.warnings++;
    return 0;
}

static int add_note(sunset_unused **v, size_t *n, size_t *cap, const char *path, uint32_t line,
                    const char *what) {
    if (grow((void **)v, cap, *n, sizeof **v, 8)) return -1;
    char *p = sunset_strndup(path, strlen(path)), *w = sunset_strndup(what, strlen(what));
    if (!p || !w) {
        sunset_free(p);
        sunset_free(w);
        return -1;
    }
    (*v)[(*n)++] = (sunset_unused){p, line, w};
    return 0;
}

int sunset_result_add_unused(sunset_result *r, const char *path, uint32_t line, const char *what) {
    return add_note(&r->unused, &r->n_unused, &r->cap_unused, path, line, what);
}

int sunset_result_add_skip(sunset_result *r, const char *path, uint32_t line, const char *what) {
    return add_note(&r->skipped, &r->n_skipped, &r->cap_skipped, path, line, what);
}

/* Room for n more elements at once, so that a move either happens whole or not at all. */
static int reserve(void **v, size_t *cap, size_t have, size_t more, size_t elem) {
    if (have + more <= *cap) return 0;
    size_t c = *cap ? *cap * 2 : 64;
    if (c < have + more) c = have + more;
    void *p = sunset_realloc(*v, c * elem);
    if (!p) return -1;
    *v = p;
    *cap = c;
    return 0;
}

int sunset_result_absorb(sunset_result *dst, sunset_result *src) {
    if (reserve((void **)&dst->findings, &dst->cap_findings, dst->n_findings, src->n_findings,
                sizeof *dst->findings) ||
        reserve((void **)&dst->warnings, &dst->cap_warnings, dst->n_warnings, src->n_warnings,
                sizeof(char *)) ||
        reserve((void **)&dst->unused, &dst->cap_unused, dst->n_unused, src->n_unused,
                sizeof *dst->unused) ||
        reserve((void **)&dst->skipped, &dst->cap_skipped, dst->n_skipped, src->n_skipped,
                sizeof *dst->skipped))
        return -1;
    /* guarded: an empty array may be NULL, and NULL + 0 is undefined too */
    if (src->n_findings)
        memcpy(dst->findings + dst->n_findings, src->findings, src->n_findings * sizeof *src->findings);
    dst->n_findings += src->n_findings;
    src->n_findings = 0;
    if (src->n_warnings)
        memcpy(dst->warnings + dst->n_warnings, src->warnings, src->n_warnings * sizeof(char *));
    dst->n_warnings += src->n_warnings;
    src->n_warnings = 0;
    if (src->n_unused)
        memcpy(dst->unused + dst->n_unused, src->unused, src->n_unused * sizeof *src->unused);
    dst->n_unused += src->n_unused;
    src->n_unused = 0;
    if (src->n_skipped)
        memcpy(dst->skipped + dst->n_skipped, src->skipped, src->n_skipped * sizeof *src->skipped);
    dst->n_skipped += src->n_skipped;
    src->n_skipped = 0;
    sunset_stats_add(&dst->stats, &src->stats, SUNSET_STAT_FILE);
    return 0;
}

void sunset_stats_add(sunset_stats *dst, const sunset_stats *src, int kind) {
    /* SUNSET_STAT_FILE covers the cached per-file counters too */
#define ADD(field, k, group, key)                                                                    \
    if ((k) == kind || (kind == SUNSET_STAT_FILE && (k) == SUNSET_STAT_CACHE)) dst->field += src->field;
    SUNSET_STATS_COUNTERS(ADD)
#undef ADD
}

/* ---- sorting and fingerprints ---- */

static int cmp_finding(const void *x, const void *y) {
    const sunset_finding *a = x, *b = y;
    int c = strcmp(a->path, b->path);
    if (c) return c;
    if (a->span.line != b->span.line) return a->span.line < b->span.line ? -1 : 1;
    if (a->span.col != b->span.col) return a->span.col < b->span.col ? -1 : 1;
    return strcmp(a->rule_id, b->rule_id);
}

static int cmp_str(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int cmp_unused(const void *x, const void *y) {
    const sunset_unused *a = x, *b = y;
    int c = strcmp(a->path, b->path);
    if (c) return c;
    if (a->line != b->line) return a->line < b->line ? -1 : 1;
    return strcmp(a->what, b->what);
}

static uint64_t fp_base(const sunset_finding *f) {
    uint64_t h = hash64(f->rule_id, strlen(f->rule_id) + 1, 0);
    h = hash64(f->path, strlen(f->path) + 1, h);
    h = hash64(f->matched, strlen(f->matched) + 1, h);
    /* the context kind: code never takes the identity of a comment or string that names it */
    unsigned char ctx = (unsigned char)f->ctx;
    h = hash64(&ctx, 1, h);
    if (f->enc_kind) {
        h = hash64(f->enc_kind, strlen(f->enc_kind) + 1, h);
        h = hash64(f->enc_name, strlen(f->enc_name) + 1, h);
    }
    return h;
}

void sunset_result_sort(sunset_result *r) {
    if (r->n_findings) qsort(r->findings, r->n_findings, sizeof *r->findings, cmp_finding);
    if (r->n_warnings) qsort(r->warnings, r->n_warnings, sizeof(char *), cmp_str);
    if (r->n_unused) qsort(r->unused, r->n_unused, sizeof *r->unused, cmp_unused);
    if (r->n_skipped) qsort(r->skipped, r->n_skipped, sizeof *r->skipped, cmp_unused);
}

void sunset_result_finish(sunset_result *r) {
    sunset_result_sort(r);
    /* occurrence index: how many earlier findings (in sorted order) share the same base */
    uint64_t *base = sunset_calloc(r->n_findings ? r->n_findings : 1, sizeof(uint64_t));
    for (size_t i = 0; i < r->n_findings; i++) {
        sunset_finding *f = &r->findings[i];
        uint64_t b = fp_base(f);
        unsigned occ = 0;
        if (base) {
            base[i] = b;
            /* same path sorts together, so scanning back within the path is enough */
            for (size_t j = i; j-- > 0 && strcmp(r->findings[j].path, f->path) == 0;)
                occ += base[j] == b;
        }
        uint64_t h = hash64(&occ, sizeof occ, b);
        snprintf(f->fingerprint, sizeof f->fingerprint, "%016llx", (unsigned long long)h);
    }
    sunset_free(base);
}

void sunset_result_free(sunset_result *r) {
    for (size_t i = 0; i < r->n_findings; i++) sunset_finding_free(&r->findings[i]);
    sunset_free(r->findings);
    for (size_t i = 0; i < r->n_unused; i++) {
        sunset_free(r->unused[i].path);
        sunset_free(r->unused[i].what);
    }
    sunset_free(r->unused);
    for (size_t i = 0; i < r->n_skipped; i++) {
        sunset_free(r->skipped[i].path);
        sunset_free(r->skipped[i].what);
    }
    sunset_free(r->skipped);
    for (size_t i = 0; i < r->n_warnings; i++) sunset_free(r->warnings[i]);
    sunset_free(r->warnings);
    sunset_free(r->root);
    memset(r, 0, sizeof *r);
}
