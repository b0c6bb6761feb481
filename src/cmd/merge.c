/*
 * merge.c — `sunset merge FILE...`: joins the JSON documents of sharded runs.
 * Scan shards (`scan --shard i/n --format json`) merge into the document an unsharded scan
 * writes: findings re-sorted, counting stats summed (elapsed time and threads: the maximum).
 * History shards (`history --shard i/n --format json`) merge into one series ordered by each
 * commit's position in the unsharded range. Mixed or malformed inputs are an error (exit 2).
 */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cli.h"
#include "core/result.h"
#include "cmd/session.h"

static const char *str_of(const cJSON *o, const char *k) {
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

static long num_of(const cJSON *o, const char *k, long dflt) {
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
    return cJSON_IsNumber(v) ? (long)v->valuedouble : dflt;
}

/* A finding from JSON into f; every string is borrowed from the parsed document (copied when
 * the finding is added to the result). */
static int finding_of(const cJSON *j, sunset_finding *f) {
    memset(f, 0, sizeof *f);
    f->rule_id = str_of(j, "rule");
    f->family = str_of(j, "family");
    f->message = str_of(j, "message");
    f->fix = str_of(j, "fix");
    f->path = (char *)str_of(j, "path");
    f->matched = (char *)str_of(j, "matched");
    f->snippet = (char *)str_of(j, "snippet");
    const char *fp = str_of(j, "fingerprint");
    const char *sev = str_of(j, "severity"), *ctx = str_of(j, "context");
    if (!f->rule_id || !f->family || !f->message || !f->fix || !f->path || !f->matched || !f->snippet ||
        !fp || !sev || !ctx || strlen(fp) != 16)
        return -1;
    int s = sunset_severity_from_name(sev);
    if (s < 0) return -1;
    f->severity = (sunset_severity)s;
    for (int c = 0; c < SUNSET_CTX_COUNT; c++)
        if (strcmp(sunset_context_name((sunset_context)c), ctx) == 0) f->ctx = (sunset_context)c;
    f->task = (int)num_of(j, "task", 0);
    f->span = (sunset_span){(uint32_t)num_of(j, "line", 0), (uint32_t)num_of(j, "column", 0),
                            (uint32_t)num_of(j, "end_line", 0), (uint32_t)num_of(j, "end_column", 0)};
    f->test = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(j, "test"));
    const cJSON *enc = cJSON_GetObjectItemCaseSensitive(j, "enclosing");
    if (cJSON_IsObject(enc)) {
        f->enc_kind = (char *)str_of(enc, "kind");
        f->enc_name = (char *)str_of(enc, "name");
        f->enc_start = (uint32_t)num_of(enc, "start_line", 0);
        f->enc_end = (uint32_t)num_of(enc, "end_line", 0);
    }
    memcpy(f->fingerprint, fp, 17);
    return 0;
}

static int cmp_index(const void *x, const void *y) {
    long a = num_of(*(cJSON *const *)x, "index", 0), b = num_of(*(cJSON *const *)y, "index", 0);
    return a < b ? -1 : a > b;
}

static void add_stat(size_t *dst, const cJSON *o, const char *k) { *dst += (size_t)num_of(o, k, 0); }

static int merge_scans(cJSON **docs, size_t n, const char *const *names, sb *out) {
    sunset_result r = {0};
    vec fams = VEC_INIT(sunset_family_title);
    int rc = -1;
    for (size_t d = 0; d < n; d++) {
        const cJSON *fs = cJSON_GetObjectItemCaseSensitive(docs[d], "findings"), *it;
        const cJSON *st = cJSON_GetObjectItemCaseSensitive(docs[d], "stats");
        if (!cJSON_IsArray(fs) || !cJSON_IsObject(st)) {
            fprintf(stderr, "sunset: %s: not a scan document (no findings/stats)\n", names[d]);
            goto cleanup;
        }
        cJSON_ArrayForEach(it, fs) {
            sunset_finding f;
            if (finding_of(it, &f)) {
                fprintf(stderr, "sunset: %s: finding %zu is malformed\n", names[d], r.n_findings + 1);
                goto cleanup;
            }
            if (!sunset_result_add(&r, &f)) goto cleanup; /* fingerprint kept as written */
        }
        sunset_stats *s = &r.stats;
        const cJSON *sk = cJSON_GetObjectItemCaseSensitive(st, "skipped");
        /* the walk's own counters (ignored, excluded, symlinks): every shard repeats them */
#define STAT(field, kind, group, k)                                                            \
    if ((kind) != SUNSET_STAT_WALK || d == 0) add_stat(&s->field, (group) == 1 ? sk : st, k);
        SUNSET_STATS_COUNTERS(STAT)
#undef STAT
        if (d == 0) {
            r.root = (char *)str_of(docs[d], "root");
            const cJSON *bf = cJSON_GetObjectItemCaseSensitive(st, "by_family"), *f;
            cJSON_ArrayForEach(f, bf) {
                sunset_family_title t = {f->string, f->string};
                if (!vec_push(&fams, &t)) goto cleanup;
            }
        }
        double el = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(st, "elapsed_ms"));
        if (el > s->elapsed_ms) s->elapsed_ms = el;
        if (num_of(st, "jobs", 0) > s->jobs) s->jobs = (int)num_of(st, "jobs", 0);
    }
    sunset_result_sort(&r);
    r.families = (const sunset_family_title *)fams.v;
    r.n_families = fams.n;
    sunset_output_opts oo = {false, false, false};
    rc = sunset_writer_find("json")->write(&r, &oo, out);
cleanup:
    r.root = NULL; /* borrowed from the first document */
    sunset_result_free(&r);
    vec_free(&fams);
    return rc;
}

static int merge_histories(cJSON **docs, size_t n, const char *const *names, sb *out) {
    vec all = VEC_INIT(cJSON *);
    int rc = -1;
    for (size_t d = 0; d < n; d++) {
        const cJSON *cs = cJSON_GetObjectItemCaseSensitive(docs[d], "commits"), *it;
        if (!cJSON_IsArray(cs)) {
            fprintf(stderr, "sunset: %s: not a history document (no commits)\n", names[d]);
            goto cleanup;
        }
        cJSON_ArrayForEach(it, cs) {
            if (!cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(it, "index"))) {
                fprintf(stderr, "sunset: %s: a commit without \"index\" (written by an older sunset?)\n", names[d]);
                goto cleanup;
            }
            if (!vec_push(&all, &it)) goto cleanup;
        }
    }
    if (all.n) qsort(all.v, all.n, sizeof(cJSON *), cmp_index);
    cJSON *doc = cJSON_CreateObject(), *arr = cJSON_CreateArray();
    if (!doc || !arr) {
        cJSON_Delete(doc);
        cJSON_Delete(arr);
        goto cleanup;
    }
    cJSON_AddNumberToObject(doc, "version", 1);
    cJSON_AddItemToObject(doc, "range", cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(docs[0], "range"), 1));
    cJSON_AddItemToObject(doc, "families", cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(docs[0], "families"), 1));
    for (size_t i = 0; i < all.n; i++) cJSON_AddItemToArray(arr, cJSON_Duplicate(VEC_AT(&all, cJSON *, i), 1));
    cJSON_AddItemToObject(doc, "commits", arr);
    char *text = cJSON_PrintUnformatted(doc);
    cJSON_Delete(doc);
    if (!text) goto cleanup;
    sb_puts(out, text);
    sb_putc(out, '\n');
    cJSON_free(text);
    rc = out->oom ? -1 : 0;
cleanup:
    vec_free(&all);
    return rc;
}

int cmd_merge(cli *c) {
    size_t n = c->paths.n;
    if (!n) return cli_usage_error("merge needs the JSON files of the shards");
    cJSON **docs = sunset_calloc(n, sizeof *docs);
    const char *const *names = (const char *const *)c->paths.v;
    sb out = {0};
    int rc = EXIT_USAGE, kind = -1;
    if (!docs) goto cleanup;
    for (size_t i = 0; i < n; i++) {
        char *text = NULL;
        size_t len;
        int e = read_file(names[i], 0, &text, &len);
        if (e) {
            fprintf(stderr, "sunset: %s: cannot read: %s\n", names[i], strerror(e));
            goto cleanup;
        }
        const char *end = NULL;
        docs[i] = cJSON_ParseWithOpts(text, &end, 1);
        if (!docs[i]) {
            unsigned line = 1, col = 1;
            const char *ep = cJSON_GetErrorPtr();
            for (const char *p = text; ep && p < ep && *p; p++) {
                if (*p == '\n') line++, col = 1;
                else col++;
            }
            fprintf(stderr, "sunset: %s:%u:%u: invalid JSON\n", names[i], line, col);
            sunset_free(text);
            goto cleanup;
        }
        sunset_free(text);
        int k = cJSON_GetObjectItemCaseSensitive(docs[i], "commits") ? 1 : 0;
        if (kind >= 0 && k != kind) {
            fprintf(stderr, "sunset: %s: cannot merge a %s document with %s ones\n", names[i],
                    k ? "history" : "scan", kind ? "history" : "scan");
            goto cleanup;
        }
        kind = k;
    }
    if ((kind ? merge_histories(docs, n, names, &out) : merge_scans(docs, n, names, &out)) != 0) goto cleanup;
    rc = output_write(c->output, &out);
cleanup:
    for (size_t i = 0; docs && i < n; i++) cJSON_Delete(docs[i]);
    sunset_free(docs);
    sb_free(&out);
    return rc;
}
