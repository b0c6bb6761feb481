/*
 * merge.c — `sunset merge FILE...`: joins the JSON documents of sharded runs.
 * Scan shards (`scan --shard i/n --format json`) merge into the document an unsharded scan
 * writes: findings re-sorted, counting stats summed (elapsed time and threads: the maximum).
 * History shards (`history --shard i/n --format json`) merge into one series ordered by each
 * commit's position in the unsharded range. Mixed or malformed inputs are an error (exit 2),
 * and so is a number the field cannot hold (FILE:LINE:COL: number out of range), and a set
 * of documents that is not every shard of one run exactly once (check_shards).
 */
#include <cjson/cJSON.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/json.h"
#include "cmd/cli.h"
#include "cmd/documents.h"
#include "cmd/session.h"
#include "core/result.h"

static const char *str_of(const cJSON *o, const char *k) {
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* One input: the text is kept so that an error can name its line and column. */
typedef struct mdoc {
    const char *name; /* borrowed: the command line's */
    char *text;       /* owned */
    size_t len;
    cJSON *root; /* owned: parsed from text */
    bool bad;    /* a number error was printed */
} mdoc;

/* Member k of o as a whole number in [0, max], dflt when absent or not a number. A number
 * out of range or with a fraction is printed as FILE:LINE:COL and marks the document bad
 * (the first error only): a cast of 1e300 to an integer would be undefined. */
static long num_of(mdoc *d, const cJSON *o, const char *k, long max, long dflt) {
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
    if (!cJSON_IsNumber(v)) return dflt;
    long n = dflt;
    json_int_rc rc = json_get_int(v, 0, max, &n);
    if (rc != JSON_INT_OK && !d->bad) {
        unsigned line, col;
        json_item_pos(d->text, d->len, d->root, v, &line, &col);
        fprintf(stderr, "sunset: %s:%u:%u: %s\n", d->name, line, col, json_int_error(rc));
        d->bad = true;
    }
    return rc == JSON_INT_OK ? n : dflt;
}

/* A finding from JSON into f; every string is borrowed from the parsed document (copied when
 * the finding is added to the result). */
static int finding_of(mdoc *d, const cJSON *j, sunset_finding *f) {
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
    f->task = (int)num_of(d, j, "task", INT_MAX, 0);
    f->span = (sunset_span){(uint32_t)num_of(d, j, "line", UINT32_MAX, 0),
                            (uint32_t)num_of(d, j, "column", UINT32_MAX, 0),
                            (uint32_t)num_of(d, j, "end_line", UINT32_MAX, 0),
                            (uint32_t)num_of(d, j, "end_column", UINT32_MAX, 0)};
    f->test = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(j, "test"));
    const cJSON *st = cJSON_GetObjectItemCaseSensitive(j, "statement");
    if (cJSON_IsObject(st))
        f->stmt = (sunset_span){(uint32_t)num_of(d, st, "line", UINT32_MAX, 0),
                                (uint32_t)num_of(d, st, "column", UINT32_MAX, 0),
                                (uint32_t)num_of(d, st, "end_line", UINT32_MAX, 0),
                                (uint32_t)num_of(d, st, "end_column", UINT32_MAX, 0)};
    const cJSON *enc = cJSON_GetObjectItemCaseSensitive(j, "enclosing");
    if (cJSON_IsObject(enc)) {
        f->enc_kind = (char *)str_of(enc, "kind");
        f->enc_name = (char *)str_of(enc, "name");
        f->enc_start = (uint32_t)num_of(d, enc, "start_line", UINT32_MAX, 0);
        f->enc_end = (uint32_t)num_of(d, enc, "end_line", UINT32_MAX, 0);
    }
    memcpy(f->fingerprint, fp, 17);
    return d->bad ? -1 : 0;
}

/* "index" was checked by merge_histories: compared as doubles, never converted */
static int cmp_index(const void *x, const void *y) {
    double a = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(*(cJSON *const *)x, "index"));
    double b = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(*(cJSON *const *)y, "index"));
    return a < b ? -1 : a > b;
}

static void add_stat(mdoc *d, size_t *dst, const cJSON *o, const char *k) {
    *dst += (size_t)num_of(d, o, k, LONG_MAX, 0);
}

static int merge_scans(mdoc *docs, size_t n, sb *out) {
    sunset_result r = {0};
    vec fams = VEC_INIT(sunset_family_title);
    int rc = -1;
    for (size_t d = 0; d < n; d++) {
        const cJSON *fs = cJSON_GetObjectItemCaseSensitive(docs[d].root, "findings"), *it;
        const cJSON *st = cJSON_GetObjectItemCaseSensitive(docs[d].root, "stats");
        if (!cJSON_IsArray(fs) || !cJSON_IsObject(st)) {
            fprintf(stderr, "sunset: %s: not a scan document (no findings/stats)\n", docs[d].name);
            goto cleanup;
        }
        cJSON_ArrayForEach(it, fs) {
            sunset_finding f;
            if (finding_of(&docs[d], it, &f)) {
                if (docs[d].bad) goto cleanup; /* the number error is printed */
                fprintf(stderr, "sunset: %s: finding %zu is malformed\n", docs[d].name, r.n_findings + 1);
                goto cleanup;
            }
            if (!sunset_result_add(&r, &f)) goto cleanup; /* fingerprint kept as written */
        }
        sunset_stats *s = &r.stats;
        const cJSON *sk = cJSON_GetObjectItemCaseSensitive(st, "skipped");
        /* the walk's own counters (ignored, excluded, symlinks): every shard repeats them */
#define STAT(field, kind, group, k)                                                            \
    if ((kind) != SUNSET_STAT_WALK || d == 0) add_stat(&docs[d], &s->field, (group) == 1 ? sk : st, k);
        SUNSET_STATS_COUNTERS(STAT)
#undef STAT
        if (d == 0) {
            r.root = (char *)str_of(docs[d].root, "root");
            const cJSON *bf = cJSON_GetObjectItemCaseSensitive(st, "by_family"), *f;
            cJSON_ArrayForEach(f, bf) {
                sunset_family_title t = {f->string, f->string};
                if (!vec_push(&fams, &t)) goto cleanup;
            }
        }
        double el = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(st, "elapsed_ms"));
        if (el > s->elapsed_ms) s->elapsed_ms = el;
        long jobs = num_of(&docs[d], st, "jobs", INT_MAX, 0);
        if (jobs > s->jobs) s->jobs = (int)jobs;
        if (docs[d].bad) goto cleanup;
    }
    sunset_result_sort(&r);
    r.families = (const sunset_family_title *)fams.v;
    r.n_families = fams.n;
    sunset_envelope env = {.opts = {false, false, false, false}};
    rc = doc_format_find(CMD_SCAN, "json")->write.findings->write(&r, &env, out);
cleanup:
    r.root = NULL; /* borrowed from the first document */
    sunset_result_free(&r);
    vec_free(&fams);
    return rc;
}

static int merge_histories(mdoc *docs, size_t n, sb *out) {
    vec all = VEC_INIT(cJSON *);
    int rc = -1;
    for (size_t d = 0; d < n; d++) {
        const cJSON *cs = cJSON_GetObjectItemCaseSensitive(docs[d].root, "commits"), *it;
        if (!cJSON_IsArray(cs)) {
            fprintf(stderr, "sunset: %s: not a history document (no commits)\n", docs[d].name);
            goto cleanup;
        }
        cJSON_ArrayForEach(it, cs) {
            if (!cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(it, "index"))) {
                fprintf(stderr, "sunset: %s: a commit without \"index\" (written by an older sunset?)\n", docs[d].name);
                goto cleanup;
            }
            num_of(&docs[d], it, "index", LONG_MAX, 0); /* checked here, compared by cmp_index */
            if (docs[d].bad) goto cleanup;
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
    cJSON_AddItemToObject(doc, "range", cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(docs[0].root, "range"), 1));
    cJSON_AddItemToObject(doc, "families", cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(docs[0].root, "families"), 1));
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

/* Every input is one shard of one run: "shard" (i/n) and "inputs" (the run's rules, options
 * and paths, see scan_inputs_id) as `--shard` wrote them, one count and one inputs for all,
 * each part once and none missing. Joining anything else would print a plausible but wrong
 * total, so each case is an error naming the file and the shard. */
static int check_shards(const mdoc *docs, size_t n) {
    unsigned count = 0;
    size_t *seen = NULL; /* seen[i-1]: 1 + the document that is shard i */
    int rc = -1;
    for (size_t d = 0; d < n; d++) {
        const char *sh = str_of(docs[d].root, "shard"), *in = str_of(docs[d].root, "inputs");
        unsigned i, k;
        if (!sh || !in) {
            fprintf(stderr, "sunset: %s: not a shard (no \"shard\" and \"inputs\"; write it with --shard I/N)\n",
                    docs[d].name);
            goto cleanup;
        }
        if (!cli_shard_parse(sh, &i, &k)) {
            fprintf(stderr, "sunset: %s: shard \"%s\" is not I/N with 1 <= I <= N\n", docs[d].name, sh);
            goto cleanup;
        }
        if (d == 0) {
            count = k;
            if (!(seen = sunset_calloc(count, sizeof *seen))) goto cleanup;
        } else if (k != count) {
            fprintf(stderr, "sunset: %s: shard %s is foreign: %s is a shard of %u\n", docs[d].name, sh,
                    docs[0].name, count);
            goto cleanup;
        } else if (strcmp(in, str_of(docs[0].root, "inputs")) != 0) {
            fprintf(stderr,
                    "sunset: %s: shard %s is foreign: another run's inputs than %s (rules, options or paths "
                    "differ: %s, not %s)\n",
                    docs[d].name, sh, docs[0].name, in, str_of(docs[0].root, "inputs"));
            goto cleanup;
        }
        if (seen[i - 1]) {
            fprintf(stderr, "sunset: %s: shard %s is given twice (also %s)\n", docs[d].name, sh, docs[seen[i - 1] - 1].name);
            goto cleanup;
        }
        seen[i - 1] = d + 1;
    }
    size_t missing = 0;
    for (unsigned i = 0; i < count; i++) missing += !seen[i];
    if (missing) {
        fprintf(stderr, "sunset: %zu of %u shards missing:", missing, count);
        size_t shown = 0;
        for (unsigned i = 0; i < count && shown < 10; i++)
            if (!seen[i]) fprintf(stderr, "%s %u/%u", shown++ ? "," : "", i + 1, count);
        fprintf(stderr, "%s\n", missing > shown ? ", ..." : "");
        goto cleanup;
    }
    rc = 0;
cleanup:
    sunset_free(seen);
    return rc;
}

int cmd_merge(const cli *c) {
    size_t n = c->paths.n;
    if (!n) return cli_usage_error("merge needs the JSON files of the shards");
    mdoc *docs = sunset_calloc(n, sizeof *docs);
    const char *const *names = (const char *const *)c->paths.v;
    sb out = {0};
    int rc = EXIT_USAGE, kind = -1;
    if (!docs) goto cleanup;
    for (size_t i = 0; i < n; i++) {
        docs[i].name = names[i];
        int e = read_file(names[i], 0, &docs[i].text, &docs[i].len);
        if (e) {
            fprintf(stderr, "sunset: %s: cannot read: %s\n", names[i], strerror(e));
            goto cleanup;
        }
        size_t err_off = 0;
        docs[i].root = json_parse(docs[i].text, docs[i].len, &err_off);
        if (!docs[i].root) {
            sunset_error err = {{0}};
            json_parse_error(docs[i].text, err_off, names[i], "invalid JSON", &err);
            fprintf(stderr, "sunset: %s\n", err.msg);
            goto cleanup;
        }
        int k = cJSON_GetObjectItemCaseSensitive(docs[i].root, "commits") ? 1 : 0;
        if (kind >= 0 && k != kind) {
            fprintf(stderr, "sunset: %s: cannot merge a %s document with %s ones\n", names[i],
                    k ? "history" : "scan", kind ? "history" : "scan");
            goto cleanup;
        }
        kind = k;
    }
    if (check_shards(docs, n)) goto cleanup;
    if ((kind ? merge_histories(docs, n, &out) : merge_scans(docs, n, &out)) != 0) goto cleanup;
    rc = output_write(c->output, &out);
cleanup:
    for (size_t i = 0; docs && i < n; i++) {
        cJSON_Delete(docs[i].root);
        sunset_free(docs[i].text);
    }
    sunset_free(docs);
    sb_free(&out);
    return rc;
}
