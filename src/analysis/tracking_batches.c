/*
 * tracking_batches.c — the remaining work of a tracking report in contributor-sized batches:
 * the files with findings grouped by directory, or by owner when CODEOWNERS text is given
 * (the last matching line wins, as GitHub reads it), each group split into batches of at
 * most max_files files (tracking_batches in tracking.h).
 */
#include <stdlib.h>
#include <string.h>

#include "analysis/tracking.h"
#include "core/walk.h"


void tracking_batches_free(vec *batches) {
    if (!batches) return;
    for (size_t i = 0; i < batches->n; i++) {
        trk_batch *b = &VEC_AT(batches, trk_batch, i);
        sunset_free(b->key);
        vec_free(&b->files);
        vec_free(&b->families);
    }
    vec_free(batches);
}

/* The owners of `path` by CODEOWNERS (last matching line wins), or NULL. Returns a pointer
 * into `owners` and the length through *n. */
static const char *owner_of(const char *owners, const char *path, size_t *n) {
    const char *hit = NULL;
    *n = 0;
    for (const char *s = owners; s && *s;) {
        const char *nl = strchr(s, '\n');
        size_t len = nl ? (size_t)(nl - s) : strlen(s);
        while (len && (*s == ' ' || *s == '\t')) s++, len--;
        if (len && *s != '#') {
            size_t pl = strcspn(s, " \t\n");
            if (pl < len && pl < 512) {
                char pat[520];
                const char *p = s;
                size_t k = 0;
                if (*p == '/') p++, pl--; /* anchored at the root */
                memcpy(pat, p, pl);
                k = pl;
                pat[k] = 0;
                bool anchored = s[0] == '/' || strchr(pat, '/') != NULL;
                bool m = false;
                if (k && pat[k - 1] == '/') {
                    m = strncmp(path, pat, k) == 0 || (!anchored && strstr(path, pat));
                } else if (anchored) {
                    m = sunset_glob_match(pat, path);
                    if (!m && !strpbrk(pat, "*?[")) m = strncmp(path, pat, k) == 0 && path[k] == '/';
                } else {
                    m = sunset_glob_match(pat, path);
                }
                if (m) {
                    const char *o = s + pl + (s[0] == '/');
                    size_t rest = len - (size_t)(o - s);
                    while (rest && (*o == ' ' || *o == '\t')) o++, rest--;
                    while (rest && (o[rest - 1] == ' ' || o[rest - 1] == '\t' || o[rest - 1] == '\r')) rest--;
                    if (rest) hit = o, *n = rest;
                }
            }
        }
        if (!nl) break;
        s = nl + 1;
    }
    return hit;
}

static int cmp_cstr(const void *a, const void *b) {
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

typedef struct batch_key {
    char *key;    /* owned */
    size_t batch; /* index of its newest batch */
    size_t count; /* batches so far */
} batch_key;

int tracking_batches(const tracking_report *r, const char *owners, size_t max_files, vec *out) {
    *out = VEC_INIT(trk_batch);
    vec keys = VEC_INIT(batch_key);
    int rc = -1;
    if (!max_files) max_files = 8;
    for (size_t i = 0; i < r->files.n; i++) {
        const trk_file *tf = &VEC_AT(&r->files, trk_file, i);
        sb key = {0};
        if (owners) {
            size_t n;
            const char *o = owner_of(owners, tf->path, &n);
            if (o) sb_putn(&key, o, n);
            else sb_puts(&key, "(no owner)");
        } else {
            const char *sl = strrchr(tf->path, '/');
            if (sl) sb_putn(&key, tf->path, (size_t)(sl - tf->path));
            else sb_puts(&key, ".");
        }
        if (key.oom) {
            sb_free(&key);
            goto cleanup;
        }
        batch_key *bk = NULL;
        for (size_t j = 0; j < keys.n && !bk; j++)
            if (strcmp(VEC_AT(&keys, batch_key, j).key, key.s) == 0) bk = &VEC_AT(&keys, batch_key, j);
        if (!bk) {
            batch_key nk = {trk_take(&key), 0, 0};
            if (!nk.key || !(bk = vec_push(&keys, &nk))) {
                sunset_free(nk.key);
                goto cleanup;
            }
        }
        sb_free(&key);
        trk_batch *b = bk->count ? &VEC_AT(out, trk_batch, bk->batch) : NULL;
        if (!b || b->files.n >= max_files) {
            sb kk = {0};
            if (bk->count) sb_printf(&kk, "%s (%zu)", bk->key, bk->count + 1);
            else sb_puts(&kk, bk->key);
            trk_batch nb = {trk_take(&kk), VEC_INIT(size_t), 0, 0, VEC_INIT(const char *)};
            if (!nb.key || !(b = vec_push(out, &nb))) {
                sunset_free(nb.key);
                goto cleanup;
            }
            bk->batch = out->n - 1;
            bk->count++;
        }
        if (!vec_push(&b->files, &i)) goto cleanup;
        b->findings += tf->n;
        b->lines += tf->lines;
        for (size_t f = 0; f < tf->n; f++) {
            const char *fam = r->res->findings[tf->first + f].family;
            bool seen = false;
            for (size_t q = 0; q < b->families.n && !seen; q++)
                seen = strcmp(VEC_AT(&b->families, const char *, q), fam) == 0;
            if (!seen && !vec_push(&b->families, &fam)) goto cleanup;
        }
        if (b->families.n > 1) qsort(b->families.v, b->families.n, sizeof(char *), cmp_cstr);
    }
    rc = 0;
cleanup:
    for (size_t j = 0; j < keys.n; j++) sunset_free(VEC_AT(&keys, batch_key, j).key);
    vec_free(&keys);
    if (rc) tracking_batches_free(out);
    return rc;
}

