/*
 * check.c — the baseline and the pull-request gate (`sunset baseline`, `sunset check`).
 *
 * A baseline is the list of today's unsuppressed findings, one entry per finding (rule, path,
 * fingerprint, and line/matched/scope/task for humans), pretty-printed one entry per line and
 * sorted so that a review diff shows exactly what changed. `check` sorts the findings it sees
 * into known (fingerprint in the baseline, or — with --diff-base — in the file as it was at
 * REV), moved (a vanished known finding with the same rule, matched text and enclosing scope
 * turned up elsewhere), new (the rest; with --diff-base only those on lines the change adds or
 * edits) and fixed (known findings in scope that vanished). Fingerprints never contain line
 * numbers, and matching is per finding, so a fix and a regression in one file never cancel.
 * New findings at or above --severity-threshold fail the gate (exit 1); errors exit 2 and
 * win over findings. A malformed baseline is an error and is never overwritten.
 */
#include <cjson/cJSON.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "diffmode.h"
#include "scan.h"
#include "suppress.h"

#define DEFAULT_BASELINE ".sunset-baseline.json"

/* One known finding: a baseline entry or a finding of the file at REV. */
typedef struct known {
    char *rule, *path, *matched, *scope, *fp; /* owned */
    uint32_t line;
    int task;
    bool in_scope;       /* may be matched as moved, and counts as fixed when unseen */
    bool seen;
    const sunset_finding *now; /* the current finding that matched it */
} known;

typedef struct known_set {
    known *v;
    size_t n, cap;
} known_set;

static void known_free(known_set *k) {
    for (size_t i = 0; i < k->n; i++) {
        known *e = &k->v[i];
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

static known *known_push(known_set *k) {
    if (k->n == k->cap) {
        size_t cap = k->cap ? k->cap * 2 : 64;
        known *v = sunset_realloc(k->v, cap * sizeof *v);
        if (!v) return NULL;
        k->v = v;
        k->cap = cap;
    }
    known *e = &k->v[k->n++];
    memset(e, 0, sizeof *e);
    return e;
}

static int known_add_finding(known_set *k, const sunset_finding *f, bool in_scope) {
    known *e = known_push(k);
    if (!e) return -1;
    e->rule = dup(f->rule_id);
    e->path = dup(f->path);
    e->matched = dup(f->matched);
    e->scope = scope_of(f);
    e->fp = dup(f->fingerprint);
    e->line = f->span.line;
    e->task = f->task;
    e->in_scope = in_scope;
    return e->rule && e->path && e->matched && e->fp && (e->scope || !f->enc_kind) ? 0 : -1;
}

/* ---- the baseline file ---- */

static void pos_of(const char *data, const char *at, int *line, int *col) {
    *line = 1;
    *col = 1;
    for (const char *p = data; p < at && *p; p++) {
        if (*p == '\n') (*line)++, *col = 1;
        else (*col)++;
    }
}

static bool is_fp(const char *s) {
    if (!s || strlen(s) != 16) return false;
    for (const char *p = s; *p; p++)
        if (!((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f'))) return false;
    return true;
}

/* Load FILE into k. Prints "FILE:LINE:COL: message" or "FILE: findings[i]: message" and
 * returns EXIT_USAGE when it cannot be read or is not a baseline. */
static int baseline_load(const char *file, known_set *k) {
    char *data = NULL;
    size_t len = 0;
    cJSON *doc = NULL;
    int rc = EXIT_USAGE;
    int e = read_file(file, 0, &data, &len);
    if (e) {
        fprintf(stderr, "sunset: %s: cannot read the baseline: %s\n", file, strerror(e));
        goto cleanup;
    }
    const char *end = NULL;
    doc = cJSON_ParseWithLengthOpts(data, len + 1, &end, true); /* with the NUL */
    if (!doc) {
        int line, col;
        const char *at = cJSON_GetErrorPtr();
        pos_of(data, at && at >= data && at <= data + len ? at : data + len, &line, &col);
        fprintf(stderr, "sunset: %s:%d:%d: malformed baseline: not valid JSON\n", file, line, col);
        goto cleanup;
    }
    const cJSON *ver = cJSON_GetObjectItemCaseSensitive(doc, "version");
    const cJSON *list = cJSON_GetObjectItemCaseSensitive(doc, "findings");
    if (!cJSON_IsObject(doc) || !cJSON_IsNumber(ver) || ver->valueint != 1) {
        fprintf(stderr, "sunset: %s: malformed baseline: want an object with \"version\": 1\n", file);
        goto cleanup;
    }
    if (!cJSON_IsArray(list)) {
        fprintf(stderr, "sunset: %s: malformed baseline: \"findings\" must be an array\n", file);
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
        const char *why = NULL;
        if (!cJSON_IsObject(it)) why = "not an object";
        else if (!cJSON_IsString(rule) || !*rule->valuestring) why = "\"rule\" must be a rule id";
        else if (!cJSON_IsString(path) || !*path->valuestring) why = "\"path\" must be a path";
        else if (!cJSON_IsString(fp) || !is_fp(fp->valuestring)) why = "\"fingerprint\" must be 16 hex digits";
        else if (line && !cJSON_IsNumber(line)) why = "\"line\" must be a number";
        else if (matched && !cJSON_IsString(matched)) why = "\"matched\" must be a string";
        else if (scope && !cJSON_IsString(scope) && !cJSON_IsNull(scope)) why = "\"scope\" must be a string or null";
        else if (task && !cJSON_IsNumber(task)) why = "\"task\" must be a number";
        if (why) {
            fprintf(stderr, "sunset: %s: malformed baseline: findings[%d]: %s\n", file, i, why);
            goto cleanup;
        }
        known *e = known_push(k);
        if (!e) goto oom;
        e->rule = dup(rule->valuestring);
        e->path = dup(path->valuestring);
        e->fp = dup(fp->valuestring);
        e->matched = dup(cJSON_IsString(matched) ? matched->valuestring : "");
        e->scope = cJSON_IsString(scope) ? dup(scope->valuestring) : NULL;
        e->line = line && line->valuedouble > 0 ? (uint32_t)line->valuedouble : 0;
        e->task = task ? task->valueint : 0;
        if (!e->rule || !e->path || !e->fp || !e->matched || (cJSON_IsString(scope) && !e->scope)) goto oom;
        i++;
    }
    rc = EXIT_OK;
    goto cleanup;
oom:
    fprintf(stderr, "sunset: out of memory reading %s\n", file);
cleanup:
    cJSON_Delete(doc);
    sunset_free(data);
    return rc;
}

static int cmp_known(const void *x, const void *y) {
    const known *a = x, *b = y;
    int c = strcmp(a->path, b->path);
    if (c) return c;
    if (a->line != b->line) return a->line < b->line ? -1 : 1;
    if ((c = strcmp(a->rule, b->rule))) return c;
    return strcmp(a->fp, b->fp);
}

int sunset_baseline_check_file(const char *file) {
    known_set k = {0};
    int rc = baseline_load(file, &k);
    known_free(&k);
    return rc;
}

/* Write entries (sorted here, duplicates by fingerprint dropped) to FILE atomically. */
static int baseline_write(const char *file, known *v, size_t n, size_t *written) {
    if (n) qsort(v, n, sizeof *v, cmp_known);
    sb b = {0};
    size_t count = 0;
    sb_puts(&b, "{\n  \"version\": 1,\n  \"tool\": \"sunset " SUNSET_VERSION "\",\n  \"findings\": [");
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
        fprintf(stderr, "sunset: out of memory writing %s\n", file);
        rc = EXIT_USAGE;
    } else {
        int e = write_file_atomic(file, b.s, b.len);
        if (e) {
            fprintf(stderr, "sunset: %s: cannot write the baseline: %s\n", file, strerror(e));
            rc = EXIT_USAGE;
        }
    }
    if (written) *written = count;
    sb_free(&b);
    return rc;
}

int cmd_baseline(cli *c) {
    scan_ctx s = {0};
    sunset_result res = {0};
    known_set k = {0};
    const char *file = c->output ? c->output : DEFAULT_BASELINE;
    int rc;
    if ((rc = scan_prepare(c, &s)) || (rc = scan_execute(c, &s, &res))) goto cleanup;
    size_t by_task[SUNSET_TASKS] = {0};
    for (size_t i = 0; i < res.n_findings; i++) {
        const sunset_finding *f = &res.findings[i];
        if (f->suppressed) continue;
        if (known_add_finding(&k, f, true)) {
            fprintf(stderr, "sunset: out of memory\n");
            rc = EXIT_USAGE;
            goto cleanup;
        }
        if (f->task >= 0 && f->task < SUNSET_TASKS) by_task[f->task]++;
    }
    size_t n = 0;
    if ((rc = baseline_write(file, k.v, k.n, &n))) goto cleanup;
    if (!c->quiet) {
        fprintf(stderr, "sunset: baseline %s: %zu finding%s", file, n, n == 1 ? "" : "s");
        for (int t = 0; t < SUNSET_TASKS; t++)
            if (by_task[t]) fprintf(stderr, "; task %d: %zu", t, by_task[t]);
        fprintf(stderr, "\n");
    }
cleanup:
    known_free(&k);
    sunset_result_free(&res);
    scan_ctx_free(&s);
    return rc;
}

/* ---- check ---- */

static int cmp_cstr(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool in_sorted(const vec *v, const char *s) {
    return v->n && bsearch(&s, v->v, v->n, sizeof(char *), cmp_cstr) != NULL;
}

/* Keep only the files of s->files that are in `keep` (sorted char *). */
static void restrict_files(scan_ctx *s, const vec *keep) {
    size_t u = 0;
    for (size_t i = 0; i < s->files.n; i++) {
        char *f = VEC_AT(&s->files, char *, i);
        if (in_sorted(keep, f)) VEC_AT(&s->files, char *, u++) = f;
        else sunset_free(f);
    }
    s->files.n = u;
}

/* Read --files-from: one root-relative path per line ("./" and blank lines and # comments
 * skipped). Absolute paths under the root are made relative. Returns EXIT_OK or EXIT_USAGE. */
static int read_list(const char *file, const char *root, vec *out) {
    char *data = NULL;
    size_t len = 0;
    int e;
    if (strcmp(file, "-") == 0) {
        sb in = {0};
        char buf[4096];
        size_t n;
        while ((n = fread(buf, 1, sizeof buf, stdin)) > 0) sb_putn(&in, buf, n);
        e = ferror(stdin) ? EIO : in.oom ? ENOMEM : 0;
        len = in.len;
        data = in.s ? sb_take(&in) : sunset_strndup("", 0);
    } else {
        e = read_file(file, 0, &data, &len);
    }
    if (e || !data) {
        fprintf(stderr, "sunset: %s: cannot read the file list: %s\n", file, strerror(e ? e : ENOMEM));
        sunset_free(data);
        return EXIT_USAGE;
    }
    size_t rl = strlen(root);
    for (char *line = data; line && *line;) {
        char *nl = strchr(line, '\n');
        if (nl) *nl = 0;
        size_t n = strlen(line);
        while (n && (line[n - 1] == '\r' || line[n - 1] == ' ' || line[n - 1] == '\t')) line[--n] = 0;
        char *p = line;
        while (*p == ' ' || *p == '\t') p++;
        if (*p == '/' && strncmp(p, root, rl) == 0 && p[rl] == '/') p += rl + 1;
        while (p[0] == '.' && p[1] == '/') p += 2;
        if (*p && *p != '#') {
            char *d = dup(p);
            if (!d || !vec_push(out, &d)) {
                sunset_free(d);
                sunset_free(data);
                fprintf(stderr, "sunset: out of memory\n");
                return EXIT_USAGE;
            }
        }
        line = nl ? nl + 1 : NULL;
    }
    sunset_free(data);
    if (out->n) qsort(out->v, out->n, sizeof(char *), cmp_cstr);
    return EXIT_OK;
}

static bool exists_under(const char *root, const char *path) {
    sb p = {0};
    sb_printf(&p, "%s/%s", root, path);
    struct stat st;
    bool ok = p.s && lstat(p.s, &st) == 0;
    sb_free(&p);
    return ok;
}

/* Would the walk have taken this (now deleted) path? Only the globs can say. */
static bool path_selected(const cli *c, const char *path) {
    for (size_t i = 0; i < c->exclude.n; i++)
        if (sunset_glob_match(VEC_AT(&c->exclude, const char *, i), path)) return false;
    if (!c->include.n) return true;
    for (size_t i = 0; i < c->include.n; i++)
        if (sunset_glob_match(VEC_AT(&c->include, const char *, i), path)) return true;
    return false;
}

/* Key for moves: rule, matched text and enclosing scope — not the path. */
static bool same_move_key(const known *k, const sunset_finding *f) {
    if (strcmp(k->rule, f->rule_id) || strcmp(k->matched, f->matched)) return false;
    if (!k->scope || !f->enc_kind) return !k->scope && !f->enc_kind;
    size_t kl = strlen(f->enc_kind);
    return strncmp(k->scope, f->enc_kind, kl) == 0 && k->scope[kl] == ' ' &&
           strcmp(k->scope + kl + 1, f->enc_name ? f->enc_name : "") == 0;
}

static int cmp_known_fp(const void *x, const void *y) {
    return strcmp((*(known *const *)x)->fp, (*(known *const *)y)->fp);
}

static int write_summary_file(const char *file, const sb *md, bool append) {
    sb all = {0};
    if (append) {
        char *old = NULL;
        size_t n = 0;
        if (read_file(file, 0, &old, &n) == 0) sb_putn(&all, old, n);
        sunset_free(old);
        if (all.len) sb_putc(&all, '\n');
    }
    sb_putn(&all, md->s ? md->s : "", md->len);
    int e = all.oom ? ENOMEM : write_file_atomic(file, all.s ? all.s : "", all.len);
    sb_free(&all);
    if (e) {
        fprintf(stderr, "sunset: %s: cannot write the summary: %s\n", file, strerror(e));
        return EXIT_USAGE;
    }
    return EXIT_OK;
}

/* The text report's closing lines. */
static void text_gate(const sunset_result *r, const sunset_gate *g, sb *b) {
    if (b->len) sb_putc(b, '\n');
    sb_puts(b, "sunset check against ");
    sb_put_printable_str(b, g->against);
    sb_printf(b, ": %zu new finding%s (%zu at or above %s), %zu suppressed, "
                 "%zu unchanged, %zu moved\n",
              g->n_new, g->n_new == 1 ? "" : "s", g->n_failing,
              sunset_severity_name(g->threshold), g->n_suppressed, g->n_unchanged, g->n_moved);
    if (g->n_fixed) {
        sb_printf(b, "this change removes %zu use%s", g->n_fixed, g->n_fixed == 1 ? "" : "s");
        for (int t = 0; t < SUNSET_TASKS; t++) {
            if (!g->fixed_by_task[t]) continue;
            if (g->open_known)
                sb_printf(b, "; task %d: %zu fixed, now %zu open", t, g->fixed_by_task[t], g->open_by_task[t]);
            else
                sb_printf(b, "; task %d: %zu fixed", t, g->fixed_by_task[t]);
        }
        sb_puts(b, "\n");
    }
    for (int t = 0; t < SUNSET_TASKS; t++)
        if (g->new_by_task[t]) sb_printf(b, "task %d: %zu new\n", t, g->new_by_task[t]);
    if (g->updated)
        sb_printf(b, "baseline updated: %zu -> %zu findings\n", g->baseline_before, g->baseline_after);
    if (g->list_unused) {
        for (size_t i = 0; i < r->n_unused; i++)
        {
            sb_put_printable_str(b, r->unused[i].path);
            sb_printf(b, ":%u: note: unused suppression ", r->unused[i].line);
            sb_put_printable_str(b, r->unused[i].what);
            sb_putc(b, '\n');
        }
        if (!r->n_unused) sb_puts(b, "no unused suppressions\n");
    }
    sb_printf(b, "gate: %s\n", g->n_failing ? "FAILED" : "passed");
}

int cmd_check(cli *c) {
    scan_ctx s = {0};
    sunset_result cur = {0}, old = {0}, out = {0};
    known_set ks = {0};
    diff_set ds = {0};
    vec listed = VEC_INIT(char *), keep = VEC_INIT(char *), deleted = VEC_INIT(char *);
    known **byfp = NULL;
    sunset_fixed *fixed = NULL;
    sunset_rule_info *infos = NULL;
    char *prefix = NULL;
    sb doc = {0}, md = {0}, against = {0};
    sunset_gate g = {0};
    int rc = EXIT_USAGE;
    const char *fmt = c->format ? c->format : "text";
    const sunset_writer *writer = sunset_writer_find(fmt);
    bool full = !c->diff_base && !c->files_from;

    /* options */
    if (!writer) {
        fprintf(stderr, "sunset: unknown format '%s' (known: %s)\n", fmt, sunset_writer_names());
        goto cleanup;
    }
    g.threshold = SUNSET_SEV_WARNING;
    if (c->threshold) {
        int sev = sunset_severity_from_name(c->threshold);
        if (sev < 0) {
            rc = cli_usage_error("--severity-threshold takes info, warning or error, not '%s'", c->threshold);
            goto cleanup;
        }
        g.threshold = (sunset_severity)sev;
    }
    if (c->diff_base && c->files_from) {
        rc = cli_usage_error("--diff-base and --files-from exclude each other");
        goto cleanup;
    }
    if (c->update_baseline && !c->baseline) {
        rc = cli_usage_error("--update-baseline needs --baseline FILE");
        goto cleanup;
    }
    if (c->update_baseline && !full) {
        rc = cli_usage_error("--update-baseline needs a full scan (no --diff-base or --files-from)");
        goto cleanup;
    }
    if (c->accept_new && !c->update_baseline) {
        rc = cli_usage_error("--accept-new goes with --update-baseline");
        goto cleanup;
    }
    if (c->report_unused && !full && !c->quiet)
        fprintf(stderr, "sunset: --report-unused-suppressions needs a full scan; ignored\n");
    g.list_unused = c->report_unused && full;

    /* the baseline first: a malformed one stops everything before any scan or write */
    if (c->baseline && (rc = baseline_load(c->baseline, &ks))) goto cleanup;
    size_t n_baseline = ks.n;
    if ((rc = scan_prepare(c, &s))) goto cleanup;
    rc = EXIT_USAGE;

    /* which files: all, the listed ones, or the changed ones */
    if (c->files_from) {
        if ((rc = read_list(c->files_from, s.root, &listed))) goto cleanup;
        rc = EXIT_USAGE;
        for (size_t i = 0; i < listed.n; i++) {
            char *p = VEC_AT(&listed, char *, i);
            if (!exists_under(s.root, p) && path_selected(c, p)) vec_push(&deleted, &p);
        }
        restrict_files(&s, &listed);
    } else if (c->diff_base) {
        char err[512];
        if (diff_collect(s.root, c->diff_base, &ds, err, sizeof err)) {
            fprintf(stderr, "sunset: %s\n", err);
            goto cleanup;
        }
        for (size_t i = 0; i < ds.n; i++)
            if (ds.files[i].path) vec_push(&keep, &ds.files[i].path);
        if (keep.n) qsort(keep.v, keep.n, sizeof(char *), cmp_cstr);
        restrict_files(&s, &keep);
        /* the files as they were at REV, under their current name so fingerprints line up */
        for (size_t i = 0; i < ds.n; i++) {
            const diff_file *f = &ds.files[i];
            if (!f->old_data) continue;
            if (f->path ? !in_sorted(&s.files, f->path) : !path_selected(c, f->old_path)) continue;
            if (sunset_engine_scan_buffer(s.eng, f->path ? f->path : f->old_path, f->old_data, f->old_len, &old)) {
                fprintf(stderr, "sunset: out of memory scanning %s at %s\n", f->old_path, c->diff_base);
                goto cleanup;
            }
        }
        /* baseline entries only filter; fixes are measured against REV */
        for (size_t i = 0; i < ks.n; i++) ks.v[i].in_scope = false;
        for (size_t i = 0; i < old.n_findings; i++)
            if (!old.findings[i].suppressed && known_add_finding(&ks, &old.findings[i], true)) goto oom;
    }
    if (!c->diff_base)
        for (size_t i = 0; i < ks.n; i++) {
            known *k = &ks.v[i];
            /* in scope: a file we scan, or one that is gone (and would have been scanned) */
            k->in_scope = in_sorted(&s.files, k->path) ||
                          (c->files_from ? in_sorted(&deleted, k->path)
                                         : !exists_under(s.root, k->path) && path_selected(c, k->path));
        }
    if ((rc = scan_execute(c, &s, &cur))) goto cleanup;
    rc = EXIT_USAGE;
    sunset_suppress_sort(&cur);

    /* 1. known by fingerprint */
    byfp = sunset_calloc(ks.n ? ks.n : 1, sizeof *byfp);
    bool *is_known = sunset_calloc(cur.n_findings ? cur.n_findings : 1, sizeof(bool));
    bool *is_new = sunset_calloc(cur.n_findings ? cur.n_findings : 1, sizeof(bool));
    if (!byfp || !is_known || !is_new) {
        sunset_free(is_known);
        sunset_free(is_new);
        goto oom;
    }
    for (size_t i = 0; i < ks.n; i++) byfp[i] = &ks.v[i];
    if (ks.n) qsort(byfp, ks.n, sizeof *byfp, cmp_known_fp);
    for (size_t i = 0; i < cur.n_findings; i++) {
        const sunset_finding *f = &cur.findings[i];
        known key = {.fp = (char *)f->fingerprint}, *kp = &key;
        known **hit = ks.n ? bsearch(&kp, byfp, ks.n, sizeof *byfp, cmp_known_fp) : NULL;
        if (!hit) continue;
        while (hit > byfp && strcmp(hit[-1]->fp, f->fingerprint) == 0) hit--;
        for (; hit < byfp + ks.n && strcmp((*hit)->fp, f->fingerprint) == 0; hit++) {
            (*hit)->seen = true;
            (*hit)->now = f;
        }
        is_known[i] = true;
    }
    /* 2. candidates: unknown (and, against REV, on an added line); moves take a vanished
     *    in-scope known finding with the same rule, text and scope */
    const diff_file *df = NULL;
    for (size_t i = 0; i < cur.n_findings; i++) {
        const sunset_finding *f = &cur.findings[i];
        if (is_known[i]) {
            g.n_unchanged++;
            continue;
        }
        bool on_added = true;
        if (c->diff_base) {
            if (!df || !df->path || strcmp(df->path, f->path)) {
                df = NULL;
                for (size_t k = 0; k < ds.n && !df; k++)
                    if (ds.files[k].path && strcmp(ds.files[k].path, f->path) == 0) df = &ds.files[k];
            }
            on_added = df && diff_line_added(df, f->span.line);
        }
        known *mv = NULL;
        for (size_t k = 0; k < ks.n && !mv; k++)
            if (ks.v[k].in_scope && !ks.v[k].seen && same_move_key(&ks.v[k], f)) mv = &ks.v[k];
        if (!mv && !on_added && c->diff_base) {
            /* an untouched line whose fingerprint changed (its scope was renamed above it):
             * not new; it takes the vanished finding of the same rule and text in its file */
            for (size_t k = 0; k < ks.n && !mv; k++) {
                known *e = &ks.v[k];
                if (e->in_scope && !e->seen && !strcmp(e->path, f->path) && !strcmp(e->rule, f->rule_id) &&
                    !strcmp(e->matched, f->matched))
                    mv = e;
            }
        }
        if (mv) {
            mv->seen = true;
            mv->now = f;
            g.n_moved++;
            continue;
        }
        if (!on_added) {
            g.n_unchanged++;
            continue;
        }
        is_new[i] = true;
        int t = f->task >= 0 && f->task < SUNSET_TASKS ? f->task : 0;
        if (f->suppressed) {
            g.n_suppressed++;
            g.suppressed_by_task[t]++;
        } else {
            g.n_new++;
            g.new_by_task[t]++;
            if (f->severity >= g.threshold) g.n_failing++;
        }
    }
    /* 3. fixed: in-scope known findings nobody claimed */
    fixed = sunset_calloc(ks.n ? ks.n : 1, sizeof *fixed);
    if (!fixed) {
        sunset_free(is_known);
        sunset_free(is_new);
        goto oom;
    }
    for (size_t i = 0; i < ks.n; i++) {
        known *k = &ks.v[i];
        if (!k->in_scope || k->seen) continue;
        fixed[g.n_fixed++] = (sunset_fixed){k->rule, k->path, k->matched, k->line, k->task};
        g.fixed_by_task[k->task >= 0 && k->task < SUNSET_TASKS ? k->task : 0]++;
    }
    g.fixed = fixed;
    /* 4. open per task */
    if (full) {
        g.open_known = true;
        for (size_t i = 0; i < cur.n_findings; i++)
            if (!cur.findings[i].suppressed) {
                int t = cur.findings[i].task;
                g.open_by_task[t >= 0 && t < SUNSET_TASKS ? t : 0]++;
            }
    } else if (c->baseline) {
        g.open_known = true;
        for (size_t i = 0; i < n_baseline; i++) {
            int t = ks.v[i].task;
            g.open_by_task[t >= 0 && t < SUNSET_TASKS ? t : 0]++;
        }
        for (int t = 0; t < SUNSET_TASKS; t++) {
            g.open_by_task[t] += g.new_by_task[t];
            g.open_by_task[t] = g.open_by_task[t] > g.fixed_by_task[t] ? g.open_by_task[t] - g.fixed_by_task[t] : 0;
        }
    }
    /* 5. --update-baseline: keep what is still there (refreshed), drop the fixed, add the new
     *    only with --accept-new */
    if (c->update_baseline) {
        known_set nb = {0};
        bool bad = false;
        for (size_t i = 0; i < ks.n && !bad; i++) {
            known *k = &ks.v[i];
            if (k->in_scope && !k->seen) continue;
            if (k->in_scope && k->now) {
                bad = known_add_finding(&nb, k->now, true) != 0;
                continue;
            }
            known *e = known_push(&nb);
            if (!e) {
                bad = true;
                break;
            }
            *e = *k;
            e->rule = dup(k->rule), e->path = dup(k->path), e->matched = dup(k->matched);
            e->scope = dup(k->scope), e->fp = dup(k->fp);
            bad = !e->rule || !e->path || !e->matched || !e->fp || (k->scope && !e->scope);
        }
        for (size_t i = 0; c->accept_new && !bad && i < cur.n_findings; i++)
            if (is_new[i] && !cur.findings[i].suppressed) bad = known_add_finding(&nb, &cur.findings[i], true) != 0;
        size_t n = 0;
        int wrc = bad ? EXIT_USAGE : baseline_write(c->baseline, nb.v, nb.n, &n);
        if (bad) fprintf(stderr, "sunset: out of memory updating the baseline\n");
        known_free(&nb);
        if (wrc) {
            sunset_free(is_known);
            sunset_free(is_new);
            rc = wrc;
            goto cleanup;
        }
        g.updated = true;
        g.baseline_before = n_baseline;
        g.baseline_after = n;
    }

    /* the reported result: the new findings and the suppressed ones, moved out of cur */
    size_t n_out = 0;
    for (size_t i = 0; i < cur.n_findings; i++) n_out += is_new[i];
    out.findings = sunset_calloc(n_out ? n_out : 1, sizeof *out.findings);
    if (!out.findings) {
        sunset_free(is_known);
        sunset_free(is_new);
        goto oom;
    }
    for (size_t i = 0; i < cur.n_findings; i++) {
        if (!is_new[i]) continue;
        out.findings[out.n_findings++] = cur.findings[i];
        memset(&cur.findings[i], 0, sizeof cur.findings[i]);
        cur.findings[i].rule_id = ""; /* freed as an empty finding */
    }
    sunset_free(is_known);
    sunset_free(is_new);
    out.cap_findings = n_out;
    out.root = cur.root, cur.root = NULL;
    out.stats = cur.stats;
    out.families = cur.families;
    out.n_families = cur.n_families;
    out.unused = cur.unused, out.n_unused = cur.n_unused, out.cap_unused = cur.cap_unused;
    cur.unused = NULL, cur.n_unused = cur.cap_unused = 0;
    if (c->baseline && c->diff_base) sb_printf(&against, "%s and baseline %s", c->diff_base, c->baseline);
    else if (c->diff_base) sb_printf(&against, "%s", c->diff_base);
    else if (c->baseline) sb_printf(&against, "baseline %s", c->baseline);
    else sb_puts(&against, "an empty baseline");
    if (c->files_from) sb_printf(&against, " (files listed in %s)", c->files_from);
    g.against = against.s ? against.s : "";
    out.gate = &g;
    prefix = diff_repo_prefix(s.root);
    out.uri_prefix = prefix;
    infos = sunset_calloc(s.rs->rules.n + 1, sizeof *infos);
    if (!infos) goto oom;
    for (size_t i = 0; i < s.rs->rules.n; i++) {
        const sunset_rule *r = VEC_AT(&s.rs->rules, sunset_rule *, i);
        infos[i] = (sunset_rule_info){r->id, r->family, r->message, r->fix, r->task, r->sev[SUNSET_CTX_CODE]};
    }
    infos[s.rs->rules.n] = (sunset_rule_info){SUNSET_SUPPRESSION_RULE, SUNSET_SUPPRESSION_FAMILY,
                                              "Malformed sunset-ignore suppression comment.",
                                              SUNSET_SUPPRESSION_FIX, 0, SUNSET_SEV_ERROR};
    out.rules = infos;
    out.n_rules = s.rs->rules.n + 1;

    /* write */
    sunset_output_opts oo = output_opts(c);
    if (strcmp(writer->name, "text") == 0) {
        sunset_output_opts to = oo;
        to.summary = false;
        if (writer->write(&out, &to, &doc)) goto oom;
        if (oo.summary) text_gate(&out, &g, &doc);
    } else if (writer->write(&out, &oo, &doc)) {
        goto oom;
    }
    if (doc.oom) goto oom;
    const char *summary = c->summary;
    bool append = false;
    if (!summary && strcmp(writer->name, "github") == 0 && getenv("GITHUB_STEP_SUMMARY") &&
        *getenv("GITHUB_STEP_SUMMARY")) {
        summary = getenv("GITHUB_STEP_SUMMARY");
        append = true; /* other steps' summaries share the file */
    }
    if (summary) {
        const sunset_writer *mw = sunset_writer_find("markdown");
        if (!mw || mw->write(&out, &oo, &md)) goto oom;
        if ((rc = write_summary_file(summary, &md, append))) goto cleanup;
    }
    if ((rc = output_write(c->output, &doc))) goto cleanup;
    rc = g.n_failing ? EXIT_FINDINGS : EXIT_OK;
    goto cleanup;
oom:
    fprintf(stderr, "sunset: out of memory\n");
    rc = EXIT_USAGE;
cleanup:
    sb_free(&doc);
    sb_free(&md);
    sb_free(&against);
    sunset_free(prefix);
    sunset_free(infos);
    sunset_free(fixed);
    sunset_free(byfp);
    for (size_t i = 0; i < listed.n; i++) sunset_free(VEC_AT(&listed, char *, i));
    vec_free(&listed);
    vec_free(&keep);
    vec_free(&deleted);
    diff_set_free(&ds);
    known_free(&ks);
    sunset_result_free(&out);
    sunset_result_free(&cur);
    sunset_result_free(&old);
    scan_ctx_free(&s);
    return rc;
}
