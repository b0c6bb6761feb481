/*
 * baseline.c — known findings and the baseline file.
 *
 * A baseline is the list of today's unsuppressed findings, one entry per finding (rule, path,
 * fingerprint, and line/matched/scope/task for humans), pretty-printed one entry per line and
 * sorted so that a review diff shows exactly what changed. A malformed baseline is an error
 * and is never overwritten.
 */
#include "analysis/baseline.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/json.h"

void sunset_known_set_free(sunset_known_set *k) {
    for (size_t i = 0; i < k->n; i++) {
        sunset_known *e = &k->v[i];
        sunset_free(e->rule);
        sunset_free(e->path);
        sunset_free(e->matched);
        sunset_free(e->scope);
        sunset_free(e->fp);
    }
    sunset_free(k->v);
    memset(k, 0, sizeof *k);
}

static char *dup(const char *s) { return s ? sunset_strndup(s, strlen(s)) : NULL; }

static char *scope_of(const sunset_finding *f) {
    if (!f->enc_kind) return NULL;
    sb s = {0};
    sb_printf(&s, "%s %s", f->enc_kind, f->enc_name ? f->enc_name : "");
    return s.oom ? NULL : sb_take(&s);
}

sunset_known *sunset_known_push(sunset_known_set *k) {
    if (k->n == k->cap) {
        size_t cap = k->cap ? k->cap * 2 : 64;
        sunset_known *v = sunset_realloc(k->v, cap * sizeof *v);
        if (!v) return NULL;
        k->v = v;
        k->cap = cap;
    }
    sunset_known *e = &k->v[k->n++];
    memset(e, 0, sizeof *e);
    return e;
}

int sunset_known_add_finding(sunset_known_set *k, const sunset_finding *f, bool in_scope) {
    sunset_known *e = sunset_known_push(k);
    if (!e) return -1;
    e->rule = dup(f->rule_id);
    e->path = dup(f->path);
    e->matched = dup(f->matched);
    e->scope = scope_of(f);
    e->fp = dup(f->fingerprint);
    e->line = f->span.line;
    e->task = f->task;
    e->ctx = f->ctx;
    e->in_scope = in_scope;
    return e->rule && e->path && e->matched && e->fp && (e->scope || !f->enc_kind) ? 0 : -1;
}

/* ---- the baseline file ---- */

static bool is_fp(const char *s) {
    if (!s || strlen(s) != 16) return false;
    for (const char *p = s; *p; p++)
        if (!((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f'))) return false;
    return true;
}

/* The context kind named s (as sunset_context_name writes it), or -1. */
static int context_of(const char *s) {
    for (int c = 0; c < SUNSET_CTX_COUNT; c++)
        if (strcmp(sunset_context_name((sunset_context)c), s) == 0) return c;
    return -1;
}

/* Load FILE into k. Returns EXIT_USAGE with "FILE:LINE:COL: message" or "FILE: findings[i]:
 * message" in err when it cannot be read or is not a baseline. */
int sunset_baseline_load(const char *file, sunset_known_set *k, sunset_error *err) {
    char *data = NULL;
    size_t len = 0;
    int e = read_file(file, 0, &data, &len);
    if (e) {
        sunset_error_set(err, "%s: cannot read the baseline: %s", file, strerror(e));
        return EXIT_USAGE;
    }
    int rc = sunset_baseline_load_text(file, data, len, k, err);
    sunset_free(data);
    return rc;
}

int sunset_baseline_load_text(const char *file, const char *data, size_t len, sunset_known_set *k,
                              sunset_error *err) {
    cJSON *doc = NULL;
    int rc = EXIT_USAGE;
    size_t err_off = len;
    doc = json_parse(data, len, &err_off);
    if (!doc) {
        json_parse_error(data, err_off, file, "malformed baseline: not valid JSON", err);
        goto cleanup;
    }
    const cJSON *ver = cJSON_GetObjectItemCaseSensitive(doc, "version");
    const cJSON *list = cJSON_GetObjectItemCaseSensitive(doc, "findings");
    if (cJSON_IsObject(doc) && cJSON_IsNumber(ver) && ver->valuedouble == 1) {
        /* its fingerprints lack the context kind: none would match, every finding would be new */
        sunset_error_set(err, "%s: baseline version 1 predates context-aware fingerprints; "
                "regenerate it with 'sunset baseline --output FILE' (in a diff mode, merge that with "
                "--allow-config-change)", file);
        goto cleanup;
    }
    if (!cJSON_IsObject(doc) || !cJSON_IsNumber(ver) ||
        ver->valuedouble != SUNSET_BASELINE_VERSION) {
        sunset_error_set(err, "%s: malformed baseline: want an object with \"version\": %d",
                file, SUNSET_BASELINE_VERSION);
        goto cleanup;
    }
    if (!cJSON_IsArray(list)) {
        sunset_error_set(err, "%s: malformed baseline: \"findings\" must be an array", file);
        goto cleanup;
    }
    int i = 0;
    const cJSON *it;
    cJSON_ArrayForEach(it, list) {
        const cJSON *rule = cJSON_GetObjectItemCaseSensitive(it, "rule");
        const cJSON *path = cJSON_GetObjectItemCaseSensitive(it, "path");
        const cJSON *fp = cJSON_GetObjectItemCaseSensitive(it, "fingerprint");
        const cJSON *line = cJSON_GetObjectItemCaseSensitive(it, "line");
        const cJSON *matched = cJSON_GetObjectItemCaseSensitive(it, "matched");
        const cJSON *scope = cJSON_GetObjectItemCaseSensitive(it, "scope");
        const cJSON *task = cJSON_GetObjectItemCaseSensitive(it, "task");
        const cJSON *ctx = cJSON_GetObjectItemCaseSensitive(it, "context");
        int cv = cJSON_IsString(ctx) ? context_of(ctx->valuestring) : -1;
        const char *why = NULL;
        if (!cJSON_IsObject(it)) why = "not an object";
        else if (!cJSON_IsString(rule) || !*rule->valuestring) why = "\"rule\" must be a rule id";
        else if (!cJSON_IsString(path) || !*path->valuestring) why = "\"path\" must be a path";
        else if (!cJSON_IsString(fp) || !is_fp(fp->valuestring)) why = "\"fingerprint\" must be 16 hex digits";
        else if (line && !cJSON_IsNumber(line)) why = "\"line\" must be a number";
        else if (matched && !cJSON_IsString(matched)) why = "\"matched\" must be a string";
        else if (scope && !cJSON_IsString(scope) && !cJSON_IsNull(scope)) why = "\"scope\" must be a string or null";
        else if (task && !cJSON_IsNumber(task)) why = "\"task\" must be a number";
        else if (cv < 0) why = "\"context\" must be code, comment, string, docstring or dead_code";
        if (why) {
            sunset_error_set(err, "%s: malformed baseline: findings[%d]: %s", file, i, why);
            goto cleanup;
        }
        /* checked before any conversion: (uint32_t)1e10 is undefined behaviour */
        long lv = 0, tv = 0;
        const cJSON *num = line;
        json_int_rc nrc = line ? json_get_int(line, LONG_MIN, UINT32_MAX, &lv) : JSON_INT_OK;
        if (nrc == JSON_INT_OK && task) {
            num = task;
            nrc = json_get_int(task, INT_MIN, INT_MAX, &tv);
        }
        if (nrc != JSON_INT_OK) {
            unsigned nl, nc;
            json_item_pos(data, len, doc, num, &nl, &nc);
            sunset_error_set(err, "%s:%u:%u: malformed baseline: findings[%d]: \"%s\": %s", file, nl, nc,
                    i, num->string, json_int_error(nrc));
            goto cleanup;
        }
        sunset_known *e = sunset_known_push(k);
        if (!e) goto oom;
        e->rule = dup(rule->valuestring);
        e->path = dup(path->valuestring);
        e->fp = dup(fp->valuestring);
        e->matched = dup(cJSON_IsString(matched) ? matched->valuestring : "");
        e->scope = cJSON_IsString(scope) ? dup(scope->valuestring) : NULL;
        e->line = lv > 0 ? (uint32_t)lv : 0;
        e->task = (int)tv;
        e->ctx = (sunset_context)cv;
        if (!e->rule || !e->path || !e->fp || !e->matched || (cJSON_IsString(scope) && !e->scope)) goto oom;
        i++;
    }
    rc = EXIT_OK;
    goto cleanup;
oom:
    sunset_error_set(err, "out of memory reading %s", file);
cleanup:
    cJSON_Delete(doc);
    return rc;
}

static int cmp_known(const void *x, const void *y) {
    const sunset_known *a = x, *b = y;
    int c = strcmp(a->path, b->path);
    if (c) return c;
    if (a->line != b->line) return a->line < b->line ? -1 : 1;
    if ((c = strcmp(a->rule, b->rule))) return c;
    return strcmp(a->fp, b->fp);
}

int sunset_baseline_check_file(const char *file) {
    sunset_known_set k = {0};
    sunset_error err = {{0}};
    int rc = sunset_baseline_load(file, &k, &err);
    sunset_known_set_free(&k);
    return rc;
}

/* Write entries (sorted here, duplicates by fingerprint dropped) to FILE atomically. */
int sunset_baseline_write(const char *file, sunset_known *v, size_t n, size_t *written, sunset_error *err) {
    if (n) qsort(v, n, sizeof *v, cmp_known);
    sb b = {0};
    size_t count = 0;
    sb_printf(&b, "{\n  \"version\": %d,\n  \"tool\": \"sunset " SUNSET_VERSION "\",\n",
              SUNSET_BASELINE_VERSION);
    sb_puts(&b, "  \"findings\": [");
    for (size_t i = 0; i < n; i++) {
        bool again = false;
        for (size_t j = i; j-- > 0 && strcmp(v[j].path, v[i].path) == 0;)
            if (strcmp(v[j].fp, v[i].fp) == 0) again = true;
        if (again) continue;
        sb_puts(&b, count++ ? ",\n    {\"rule\": " : "\n    {\"rule\": ");
        sb_put_json_str(&b, v[i].rule);
        sb_printf(&b, ", \"task\": %d, \"path\": ", v[i].task);
        sb_put_json_str(&b, v[i].path);
        sb_printf(&b, ", \"line\": %u, \"matched\": ", v[i].line);
        sb_put_json_str(&b, v[i].matched);
        sb_printf(&b, ", \"context\": \"%s\"", sunset_context_name(v[i].ctx));
        sb_puts(&b, ", \"scope\": ");
        if (v[i].scope) sb_put_json_str(&b, v[i].scope);
        else sb_puts(&b, "null");
        sb_puts(&b, ", \"fingerprint\": ");
        sb_put_json_str(&b, v[i].fp);
        sb_putc(&b, '}');
    }
    sb_puts(&b, count ? "\n  ]\n}\n" : "]\n}\n");
    int rc = EXIT_OK;
    if (b.oom) {
        sunset_error_set(err, "out of memory writing %s", file);
        rc = EXIT_USAGE;
    } else {
        int e = write_file_atomic(file, b.s, b.len);
        if (e) {
            sunset_error_set(err, "%s: cannot write the baseline: %s", file, strerror(e));
            rc = EXIT_USAGE;
        }
    }
    if (written) *written = count;
    sb_free(&b);
    return rc;
}

