/*
 * history.c — `sunset history [REV_RANGE]`: the burn-down of legacy findings over git history.
 *
 * The rule set is replayed over first-parent commits by reading git objects with libgit2; no
 * checkout is made. The first sampled commit's tree is scanned whole; every later sample is
 * the previous one plus the tree-to-tree diff between them, so a commit costs what it changed.
 * A blob already scanned at the same path is never parsed again (its counts are cached by
 * blob id and path: path rules and test flags depend on the path). Output: a CSV or JSON time
 * series per task and family, or an SVG chart drawn here (no external tool).
 */
#include "history.h"

#include <cjson/cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <git2.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "lang/registry.h"
#include "scan.h"

#define MAX_FAMILIES 32
#define N_TASKS 7 /* index 1..6 */

/* Counts one file (or a whole tree) contributes. */
typedef struct counts {
    uint32_t findings;
    uint32_t by_task[N_TASKS];
    uint32_t by_family[MAX_FAMILIES];
} counts;

/* Path -> (blob, counts) for the tree being replayed; blob cache: (blob, path) -> counts.
 * Both are open-addressing tables keyed by strings we own. */
typedef struct entry {
    char *key;      /* path (state) or "oid\0path" rendered as "oid:path" (cache) */
    git_oid blob;
    counts c;
} entry;

typedef struct table {
    entry *slots;
    size_t cap, n;
} table;

static entry *table_find(table *t, const char *key, bool insert) {
    if (t->cap == 0 || (insert && (t->n + 1) * 2 > t->cap)) {
        size_t cap = t->cap ? t->cap * 2 : 1024;
        entry *s = sunset_calloc(cap, sizeof *s);
        if (!s) return NULL;
        for (size_t i = 0; i < t->cap; i++) {
            if (!t->slots[i].key) continue;
            size_t h = (size_t)hash64(t->slots[i].key, strlen(t->slots[i].key), 0) & (cap - 1);
            while (s[h].key) h = (h + 1) & (cap - 1);
            s[h] = t->slots[i];
        }
        sunset_free(t->slots);
        t->slots = s;
        t->cap = cap;
    }
    size_t h = (size_t)hash64(key, strlen(key), 0) & (t->cap - 1);
    while (t->slots[h].key) {
        if (strcmp(t->slots[h].key, key) == 0) return &t->slots[h];
        h = (h + 1) & (t->cap - 1);
    }
    if (!insert) return NULL;
    if (!(t->slots[h].key = sunset_strndup(key, strlen(key)))) return NULL;
    t->n++;
    return &t->slots[h];
}

/* Removal by backward-shift deletion keeps probe chains intact. */
static void table_remove(table *t, const char *key) {
    if (!t->cap) return;
    size_t h = (size_t)hash64(key, strlen(key), 0) & (t->cap - 1);
    while (t->slots[h].key && strcmp(t->slots[h].key, key) != 0) h = (h + 1) & (t->cap - 1);
    if (!t->slots[h].key) return;
    sunset_free(t->slots[h].key);
    t->slots[h].key = NULL;
    t->n--;
    size_t j = h;
    for (;;) {
        j = (j + 1) & (t->cap - 1);
        if (!t->slots[j].key) break;
        size_t home = (size_t)hash64(t->slots[j].key, strlen(t->slots[j].key), 0) & (t->cap - 1);
        /* move j back to h when its home is not cyclically in (h, j] */
        bool in = h < j ? (home > h && home <= j) : (home > h || home <= j);
        if (!in) {
            t->slots[h] = t->slots[j];
            t->slots[j].key = NULL;
            h = j;
        }
    }
}

static void table_free(table *t) {
    for (size_t i = 0; i < t->cap; i++) sunset_free(t->slots[i].key);
    sunset_free(t->slots);
    memset(t, 0, sizeof *t);
}

typedef struct sample {
    size_t index;   /* position in the unsharded series (for merge) */
    git_oid id;
    char *subject;
    int64_t time;
    int tz_minutes;
    counts total;
    uint32_t files; /* files with at least one finding */
    long pr;        /* PR number named in the subject ("(#12345)"), or -1 */
    bool tracked;   /* the PR is one the tracking manifest names */
} sample;

typedef struct replay {
    cli *c;
    scan_ctx *s;
    git_repository *repo;
    sunset_worker *w;
    table state, cache;
    counts total;
    uint32_t files;
    size_t n_families;
    size_t blobs_scanned, blobs_cached;
    int err;
} replay;

static int family_index(const sunset_result *r, const char *fam) {
    for (size_t i = 0; i < r->n_families && i < MAX_FAMILIES; i++)
        if (strcmp(r->families[i].id, fam) == 0) return (int)i;
    return -1;
}

static void counts_add(counts *a, const counts *b, int sign) {
    a->findings += (uint32_t)(sign * (int64_t)b->findings);
    for (int i = 0; i < N_TASKS; i++) a->by_task[i] += (uint32_t)(sign * (int64_t)b->by_task[i]);
    for (int i = 0; i < MAX_FAMILIES; i++) a->by_family[i] += (uint32_t)(sign * (int64_t)b->by_family[i]);
}

static bool path_wanted(const cli *c, const char *path) {
    if (sunset_lang_for_path(path) == SUNSET_LANG_NONE) return false;
    for (size_t i = 0; i < c->exclude.n; i++)
        if (sunset_glob_match(VEC_AT(&c->exclude, const char *, i), path)) return false;
    if (!c->include.n) return true;
    for (size_t i = 0; i < c->include.n; i++)
        if (sunset_glob_match(VEC_AT(&c->include, const char *, i), path)) return true;
    return false;
}

/* Counts of one blob at one path: from the cache, or by scanning it. */
static int blob_counts(replay *rp, const char *path, const git_oid *id, counts *out) {
    char key[GIT_OID_HEXSZ + 2 + 4096];
    git_oid_tostr(key, GIT_OID_HEXSZ + 1, id);
    snprintf(key + GIT_OID_HEXSZ, sizeof key - GIT_OID_HEXSZ, ":%s", path);
    entry *e = table_find(&rp->cache, key, false);
    if (e) {
        *out = e->c;
        rp->blobs_cached++;
        return 0;
    }
    git_blob *blob = NULL;
    if (git_blob_lookup(&blob, rp->repo, id) != 0) {
        const git_error *ge = git_error_last();
        fprintf(stderr, "sunset: history: %s: cannot read blob: %s\n", path, ge ? ge->message : "?");
        return -1;
    }
    sunset_result res = {0};
    int rc = sunset_worker_scan(rp->w, path, git_blob_rawcontent(blob), (size_t)git_blob_rawsize(blob), &res);
    git_blob_free(blob);
    memset(out, 0, sizeof *out);
    for (size_t i = 0; i < res.n_findings; i++) {
        const sunset_finding *f = &res.findings[i];
        out->findings++;
        if (f->task > 0 && f->task < N_TASKS) out->by_task[f->task]++;
        int fi = family_index(&res, f->family);
        if (fi >= 0) out->by_family[fi]++;
    }
    rp->n_families = res.n_families < MAX_FAMILIES ? res.n_families : MAX_FAMILIES;
    sunset_result_free(&res);
    if (rc) return -1;
    rp->blobs_scanned++;
    if (!(e = table_find(&rp->cache, key, true))) return -1;
    e->blob = *id;
    e->c = *out;
    return 0;
}

static int state_set(replay *rp, const char *path, const git_oid *id) {
    counts c;
    if (blob_counts(rp, path, id, &c)) return -1;
    entry *e = table_find(&rp->state, path, false);
    if (e) {
        if (e->c.findings) rp->files--;
        counts_add(&rp->total, &e->c, -1);
    } else if (!(e = table_find(&rp->state, path, true))) {
        return -1;
    }
    e->blob = *id;
    e->c = c;
    counts_add(&rp->total, &c, +1);
    if (c.findings) rp->files++;
    return 0;
}

static void state_remove(replay *rp, const char *path) {
    entry *e = table_find(&rp->state, path, false);
    if (!e) return;
    counts_add(&rp->total, &e->c, -1);
    if (e->c.findings) rp->files--;
    table_remove(&rp->state, path);
}

static int tree_cb(const char *root, const git_tree_entry *te, void *payload) {
    replay *rp = payload;
    if (git_tree_entry_type(te) != GIT_OBJECT_BLOB) return 0;
    if (git_tree_entry_filemode(te) == GIT_FILEMODE_LINK) return 0; /* a symlink's blob is its target */
    sb path = {0};
    sb_printf(&path, "%s%s", root, git_tree_entry_name(te));
    int rc = 0;
    if (path.oom) rc = -1;
    else if (path_wanted(rp->c, path.s)) rc = state_set(rp, path.s, git_tree_entry_id(te));
    sb_free(&path);
    if (rc) rp->err = 1;
    return rc ? -1 : 0;
}

static int apply_diff(replay *rp, git_tree *from, git_tree *to) {
    git_diff *diff = NULL;
    git_diff_options opts;
    git_diff_options_init(&opts, GIT_DIFF_OPTIONS_VERSION);
    opts.flags |= GIT_DIFF_SKIP_BINARY_CHECK;
    if (git_diff_tree_to_tree(&diff, rp->repo, from, to, &opts) != 0) return -1;
    int rc = 0;
    size_t n = git_diff_num_deltas(diff);
    for (size_t i = 0; i < n && !rc; i++) {
        const git_diff_delta *d = git_diff_get_delta(diff, i);
        if (d->old_file.path && d->status != GIT_DELTA_ADDED) state_remove(rp, d->old_file.path);
        if (d->status == GIT_DELTA_DELETED) continue;
        if (d->new_file.mode == GIT_FILEMODE_LINK || d->new_file.mode == GIT_FILEMODE_COMMIT) continue;
        if (path_wanted(rp->c, d->new_file.path)) rc = state_set(rp, d->new_file.path, &d->new_file.id);
    }
    git_diff_free(diff);
    return rc;
}

static long pr_number(const char *subject) {
    const char *p = subject;
    long last = -1;
    while ((p = strchr(p, '#'))) {
        char *end;
        long v = strtol(p + 1, &end, 10);
        if (end > p + 1 && v > 0) last = v;
        p++;
    }
    return last;
}

static void iso_date(int64_t t, int tz, char *buf, size_t n) {
    time_t tt = (time_t)(t + tz * 60);
    struct tm tm;
    gmtime_r(&tt, &tm);
    snprintf(buf, n, "%04d-%02d-%02dT%02d:%02d:%02d%c%02d:%02d", tm.tm_year + 1900, tm.tm_mon + 1,
             tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, tz < 0 ? '-' : '+', abs(tz) / 60, abs(tz) % 60);
}

/* Parse YYYY-MM-DD into seconds since the epoch (UTC midnight). */
static bool parse_date(const char *s, int64_t *out) {
    int y, m, d;
    char extra;
    if (sscanf(s, "%4d-%2d-%2d%c", &y, &m, &d, &extra) != 3 || m < 1 || m > 12 || d < 1 || d > 31)
        return false;
    struct tm tm = {0};
    tm.tm_year = y - 1900;
    tm.tm_mon = m - 1;
    tm.tm_mday = d;
    *out = (int64_t)timegm(&tm);
    return true;
}

/* The first-parent commits of the range, oldest first, after --since/--max-count/--every. */
static int select_commits(replay *rp, const char *range, vec *out) {
    cli *c = rp->c;
    git_revwalk *walk = NULL;
    int rc = -1;
    if (git_revwalk_new(&walk, rp->repo) != 0) goto cleanup;
    git_revwalk_sorting(walk, GIT_SORT_TOPOLOGICAL | GIT_SORT_TIME);
    git_revwalk_simplify_first_parent(walk);
    git_revspec spec;
    if (git_revparse(&spec, rp->repo, range) != 0) {
        const git_error *ge = git_error_last();
        fprintf(stderr, "sunset: history: '%s': %s\n", range, ge ? ge->message : "not a revision");
        goto cleanup;
    }
    if (spec.flags & GIT_REVSPEC_RANGE) {
        git_revwalk_push(walk, git_object_id(spec.to));
        git_revwalk_hide(walk, git_object_id(spec.from));
    } else {
        git_revwalk_push(walk, git_object_id(spec.from));
    }
    git_object_free(spec.from);
    git_object_free(spec.to);
    int64_t since = 0;
    if (c->since && !parse_date(c->since, &since)) {
        fprintf(stderr, "sunset: --since takes a date YYYY-MM-DD, not '%s'\n", c->since);
        goto cleanup;
    }
    /* default: the last 100 first-parent commits when no range was given */
    long max = c->max_count > 0 ? c->max_count : (strstr(range, "..") ? 0 : 100);
    vec newest_first = VEC_INIT(git_oid);
    git_oid id;
    while (git_revwalk_next(&id, walk) == 0) {
        if (since) {
            git_commit *cm = NULL;
            if (git_commit_lookup(&cm, rp->repo, &id) == 0) {
                bool older = git_commit_time(cm) < since;
                git_commit_free(cm);
                if (older) break;
            }
        }
        if (!vec_push(&newest_first, &id)) {
            vec_free(&newest_first);
            goto cleanup;
        }
        if (max && (long)newest_first.n >= max) break;
    }
    long every = c->every > 0 ? c->every : 1;
    /* oldest first; every Nth counting from the newest, which is always kept */
    for (size_t i = newest_first.n; i-- > 0;) {
        if (i % (size_t)every) continue; /* i counts from the newest (0) */
        if (!vec_push(out, &VEC_AT(&newest_first, git_oid, i))) {
            vec_free(&newest_first);
            goto cleanup;
        }
    }
    vec_free(&newest_first);
    rc = 0;
cleanup:
    git_revwalk_free(walk);
    return rc;
}

/* ---- the tracking manifest's PRs (rules DIR/tracking/*.json) ---- */

static void collect_prs(const cJSON *j, vec *out) {
    if (cJSON_IsString(j)) {
        const char *s = j->valuestring;
        if (s[0] == '#') {
            char *end;
            long v = strtol(s + 1, &end, 10);
            if (end > s + 1 && !*end && v > 0) vec_push(out, &v);
        }
        return;
    }
    const cJSON *it;
    cJSON_ArrayForEach(it, j) {
        if (cJSON_IsArray(j) || (it->string && (strcmp(it->string, "pr") == 0 || strcmp(it->string, "prs") == 0)))
            collect_prs(it, out);
        else if (cJSON_IsObject(it) || cJSON_IsArray(it))
            collect_prs(it, out);
    }
}

/* Every "#NNN" under a "pr"/"prs" key of the manifests next to the rule directories. */
static void manifest_prs(const scan_ctx *s, vec *out) {
    for (size_t d = 0; d < s->dirs.n; d++) {
        sb dir = {0};
        sb_printf(&dir, "%s/tracking", VEC_AT(&s->dirs, const char *, d));
        DIR *dp = dir.oom ? NULL : opendir(dir.s);
        struct dirent *de;
        while (dp && (de = readdir(dp))) {
            size_t n = strlen(de->d_name);
            if (n < 6 || strcmp(de->d_name + n - 5, ".json")) continue;
            sb p = {0};
            sb_printf(&p, "%s/%s", dir.s, de->d_name);
            char *text = NULL;
            size_t len;
            if (!p.oom && read_file(p.s, 4 << 20, &text, &len) == 0) {
                cJSON *j = cJSON_Parse(text);
                if (j) collect_prs(j, out);
                cJSON_Delete(j);
            }
            sunset_free(text);
            sb_free(&p);
        }
        if (dp) closedir(dp);
        sb_free(&dir);
    }
}

/* ---- writers ---- */

static void csv_field(sb *b, const char *s) {
    sb_putc(b, '"');
    for (; *s; s++) {
        if (*s == '"') sb_putc(b, '"');
        sb_putc(b, *s == '\n' ? ' ' : *s);
    }
    sb_putc(b, '"');
}

static void write_csv(const sample *v, size_t n, const sunset_family_title *fam, size_t nf, sb *b) {
    sb_puts(b, "commit,date,subject,pr,findings,files");
    for (int t = 1; t < N_TASKS; t++) sb_printf(b, ",task%d", t);
    for (size_t f = 0; f < nf; f++) sb_printf(b, ",%s", fam[f].id);
    sb_putc(b, '\n');
    for (size_t i = 0; i < n; i++) {
        char hex[GIT_OID_HEXSZ + 1], date[64];
        git_oid_tostr(hex, sizeof hex, &v[i].id);
        iso_date(v[i].time, v[i].tz_minutes, date, sizeof date);
        sb_printf(b, "%s,%s,", hex, date);
        csv_field(b, v[i].subject);
        if (v[i].pr > 0) sb_printf(b, ",%ld", v[i].pr);
        else sb_puts(b, ",");
        sb_printf(b, ",%u,%u", v[i].total.findings, v[i].files);
        for (int t = 1; t < N_TASKS; t++) sb_printf(b, ",%u", v[i].total.by_task[t]);
        for (size_t f = 0; f < nf; f++) sb_printf(b, ",%u", v[i].total.by_family[f]);
        sb_putc(b, '\n');
    }
}

static void write_json(const sample *v, size_t n, const sunset_family_title *fam, size_t nf,
                       const char *range, sb *b) {
    sb_puts(b, "{\"version\":1,\"range\":\"");
    sb_put_json_escaped(b, range, strlen(range));
    sb_puts(b, "\",\"families\":[");
    for (size_t f = 0; f < nf; f++) sb_printf(b, "%s\"%s\"", f ? "," : "", fam[f].id);
    sb_puts(b, "],\"commits\":[");
    for (size_t i = 0; i < n; i++) {
        char hex[GIT_OID_HEXSZ + 1], date[64];
        git_oid_tostr(hex, sizeof hex, &v[i].id);
        iso_date(v[i].time, v[i].tz_minutes, date, sizeof date);
        sb_printf(b, "%s\n{\"index\":%zu,\"commit\":\"%s\",\"date\":\"%s\",\"subject\":\"", i ? "," : "", v[i].index, hex, date);
        sb_put_json_escaped(b, v[i].subject, strlen(v[i].subject));
        sb_puts(b, "\",\"pr\":");
        if (v[i].pr > 0) sb_printf(b, "%ld", v[i].pr);
        else sb_puts(b, "null");
        sb_printf(b, ",\"tracked\":%s,\"findings\":%u,\"files\":%u,\"by_task\":{",
                  v[i].tracked ? "true" : "false", v[i].total.findings, v[i].files);
        for (int t = 1; t < N_TASKS; t++) sb_printf(b, "%s\"%d\":%u", t > 1 ? "," : "", t, v[i].total.by_task[t]);
        sb_puts(b, "},\"by_family\":{");
        for (size_t f = 0; f < nf; f++) sb_printf(b, "%s\"%s\":%u", f ? "," : "", fam[f].id, v[i].total.by_family[f]);
        sb_puts(b, "}}");
    }
    sb_puts(b, n ? "\n]}\n" : "]}\n");
}

static void svg_text(sb *b, const char *s) {
    for (; *s; s++) {
        switch (*s) {
        case '<': sb_puts(b, "&lt;"); break;
        case '>': sb_puts(b, "&gt;"); break;
        case '&': sb_puts(b, "&amp;"); break;
        case '"': sb_puts(b, "&quot;"); break;
        default: sb_putc(b, *s);
        }
    }
}

/* A burn-down: open findings per task over the sampled commits, the total on top, and a
 * marker on each commit whose subject names a PR and that removed findings. */
void history_svg(const history_point *pts, size_t n, sb *b) {
    static const char *colors[N_TASKS] = {"#000", "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b"};
    const int W = 960, H = 420, L = 60, R = 20, T = 30, B = 60;
    uint32_t maxv = 1;
    for (size_t i = 0; i < n; i++)
        if (pts[i].findings > maxv) maxv = pts[i].findings;
    double xs = n > 1 ? (double)(W - L - R) / (double)(n - 1) : 0;
    double ys = (double)(H - T - B) / maxv;
    sb_printf(b, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
                 "font-family=\"sans-serif\" font-size=\"11\" role=\"img\" aria-label=\"legacy findings burn-down\">\n",
              W, H, W, H);
    sb_printf(b, "<rect width=\"%d\" height=\"%d\" fill=\"#fff\"/>\n", W, H);
    sb_printf(b, "<text x=\"%d\" y=\"18\" font-size=\"14\">Open legacy findings per task (%zu commits)</text>\n", L, n);
    /* y grid: 5 steps */
    for (int k = 0; k <= 5; k++) {
        uint32_t v = (uint32_t)((uint64_t)maxv * (uint64_t)k / 5);
        double y = H - B - v * ys;
        sb_printf(b, "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>"
                     "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%u</text>\n",
                  L, W - R, y, y, L - 6, y + 4, v);
    }
    for (int series = 0; series < N_TASKS; series++) {
        bool any = false;
        for (size_t i = 0; i < n; i++) any |= (series ? pts[i].by_task[series] : pts[i].findings) > 0;
        if (!any) continue;
        sb_printf(b, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"%s\" points=\"", colors[series],
                  series ? "1.5" : "2.5");
        for (size_t i = 0; i < n; i++) {
            uint32_t v = series ? pts[i].by_task[series] : pts[i].findings;
            sb_printf(b, "%s%.1f,%.1f", i ? " " : "", L + i * xs, H - B - v * ys);
        }
        sb_puts(b, "\"/>\n");
    }
    for (size_t i = 1; i < n; i++) {
        if (pts[i].pr <= 0 || pts[i].findings >= pts[i - 1].findings) continue;
        double x = L + i * xs, y = H - B - pts[i].findings * ys;
        sb_printf(b, "<g class=\"pr\"><line x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\" stroke=\"#bbb\" "
                     "stroke-dasharray=\"3,3\"/><circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"#000\"><title>#%ld ",
                  x, x, T, H - B, x, y, pts[i].pr);
        svg_text(b, pts[i].label ? pts[i].label : "");
        sb_printf(b, " (-%u)</title></circle><text x=\"%.1f\" y=\"%d\" font-size=\"9\" text-anchor=\"middle\">#%ld</text></g>\n",
                  pts[i - 1].findings - pts[i].findings, x, T + 10 + (int)(i % 3) * 10, pts[i].pr);
    }
    /* x labels: first and last date */
    if (n) {
        sb_printf(b, "<text x=\"%d\" y=\"%d\">", L, H - B + 18);
        svg_text(b, pts[0].date);
        sb_printf(b, "</text><text x=\"%d\" y=\"%d\" text-anchor=\"end\">", W - R, H - B + 18);
        svg_text(b, pts[n - 1].date);
        sb_puts(b, "</text>\n");
    }
    /* legend */
    int lx = L;
    for (int series = 0; series < N_TASKS; series++) {
        char label[16];
        if (series) snprintf(label, sizeof label, "task %d", series);
        else snprintf(label, sizeof label, "all");
        sb_printf(b, "<rect x=\"%d\" y=\"%d\" width=\"10\" height=\"10\" fill=\"%s\"/><text x=\"%d\" y=\"%d\">%s</text>\n",
                  lx, H - 22, colors[series], lx + 14, H - 13, label);
        lx += 70;
    }
    sb_puts(b, "</svg>\n");
}

static void write_svg(const sample *v, size_t n, sb *b) {
    history_point *pts = sunset_calloc(n ? n : 1, sizeof *pts);
    char (*dates)[64] = sunset_calloc(n ? n : 1, sizeof *dates);
    if (!pts || !dates) {
        b->oom = true;
        sunset_free(pts);
        sunset_free(dates);
        return;
    }
    for (size_t i = 0; i < n; i++) {
        iso_date(v[i].time, v[i].tz_minutes, dates[i], sizeof dates[i]);
        dates[i][10] = 0; /* the day is enough on an axis */
        pts[i].findings = v[i].total.findings;
        for (int t = 0; t < N_TASKS; t++) pts[i].by_task[t] = v[i].total.by_task[t];
        pts[i].pr = v[i].tracked ? v[i].pr : -1;
        pts[i].label = v[i].subject;
        pts[i].date = dates[i];
    }
    history_svg(pts, n, b);
    sunset_free(pts);
    sunset_free(dates);
}

int cmd_history(cli *c) {
    const char *range = c->paths.n ? VEC_AT(&c->paths, const char *, 0) : "HEAD";
    if (c->paths.n > 1) return cli_usage_error("history takes one revision range, e.g. A..B");
    const char *fmt = c->format ? c->format : "csv";
    if (strcmp(fmt, "csv") && strcmp(fmt, "json") && strcmp(fmt, "svg")) {
        fprintf(stderr, "sunset: unknown format '%s' (known: csv, json, svg)\n", fmt);
        return EXIT_USAGE;
    }
    scan_ctx s = {0};
    replay rp = {0};
    vec ids = VEC_INIT(git_oid), samples = VEC_INIT(sample);
    sb doc = {0};
    git_tree *prev = NULL;
    int rc = EXIT_USAGE;
    const char *repo_dir = c->repo ? c->repo : ".";
    c->paths.n = 0; /* the range is not a path to find a configuration from */
    vec_push(&c->paths, &repo_dir);
    git_libgit2_init();
    /* libgit2 keeps up to 256 MB of parsed objects and maps pack windows freely; a replay
     * reads each blob once, so small bounds cost nothing and keep the peak memory low */
    git_libgit2_opts(GIT_OPT_SET_CACHE_MAX_SIZE, (ssize_t)(8 << 20));
    git_libgit2_opts(GIT_OPT_SET_MWINDOW_SIZE, (size_t)(4 << 20));
    git_libgit2_opts(GIT_OPT_SET_MWINDOW_MAPPED_LIMIT, (size_t)(32 << 20));
    if ((rc = scan_load_rules(c, &s))) goto cleanup;
    rc = EXIT_USAGE;
    sunset_error err = {{0}};
    s.eo.jobs = 1;
    if (!(s.eng = sunset_engine_new(s.rs, &s.eo, &err))) {
        fprintf(stderr, "sunset: %s\n", err.msg);
        goto cleanup;
    }
    rp.c = c;
    rp.s = &s;
    if (git_repository_open_ext(&rp.repo, repo_dir, 0, NULL) != 0) {
        const git_error *ge = git_error_last();
        fprintf(stderr, "sunset: %s: not a git repository: %s\n", repo_dir, ge ? ge->message : "?");
        goto cleanup;
    }
    if (!(rp.w = sunset_worker_new(s.eng))) goto cleanup;
    if (select_commits(&rp, range, &ids)) goto cleanup;
    /* --shard i/n: commits at positions i-1, i-1+n, ... (each shard replays its own diffs) */
    if (cli_shard(c)) goto cleanup;
    size_t kept = 0;
    for (size_t i = 0; i < ids.n; i++)
        if (!c->shard_n || i % c->shard_n == c->shard_i - 1) VEC_AT(&ids, git_oid, kept++) = VEC_AT(&ids, git_oid, i);
    ids.n = kept;
    for (size_t i = 0; i < ids.n; i++) {
        git_commit *cm = NULL;
        git_tree *tree = NULL;
        if (git_commit_lookup(&cm, rp.repo, &VEC_AT(&ids, git_oid, i)) != 0 || git_commit_tree(&tree, cm) != 0) {
            git_commit_free(cm);
            fprintf(stderr, "sunset: history: cannot read commit %zu of the range\n", i);
            goto cleanup;
        }
        int r = prev ? apply_diff(&rp, prev, tree) : git_tree_walk(tree, GIT_TREEWALK_PRE, tree_cb, &rp);
        if (r != 0 || rp.err) {
            git_tree_free(tree);
            git_commit_free(cm);
            fprintf(stderr, "sunset: history: failed while replaying commit %zu\n", i);
            goto cleanup;
        }
        git_tree_free(prev);
        prev = tree;
        const char *summary = git_commit_summary(cm);
        sample smp = {
            .index = c->shard_n ? i * c->shard_n + c->shard_i - 1 : i,
            .id = VEC_AT(&ids, git_oid, i),
            .subject = sunset_strndup(summary ? summary : "", summary ? strlen(summary) : 0),
            .time = (int64_t)git_commit_time(cm),
            .tz_minutes = git_commit_time_offset(cm),
            .total = rp.total,
            .files = rp.files,
            .pr = pr_number(summary ? summary : ""),
        };
        git_commit_free(cm);
        if (!smp.subject || !vec_push(&samples, &smp)) {
            sunset_free(smp.subject);
            goto cleanup;
        }
        if (!c->quiet && isatty(2))
            fprintf(stderr, "\rsunset: history %zu/%zu commits", i + 1, ids.n);
    }
    if (!c->quiet && isatty(2)) fprintf(stderr, "\r\033[K");
    /* annotate the PRs of the tracking manifest; without a manifest, every PR a subject names */
    vec prs = VEC_INIT(long);
    manifest_prs(&s, &prs);
    for (size_t i = 0; i < samples.n; i++) {
        sample *sp = &VEC_AT(&samples, sample, i);
        sp->tracked = sp->pr > 0 && !prs.n;
        for (size_t k = 0; k < prs.n && sp->pr > 0; k++)
            if (VEC_AT(&prs, long, k) == sp->pr) sp->tracked = true;
    }
    vec_free(&prs);
    sunset_family_title *fams = sunset_calloc(s.rs->families.n ? s.rs->families.n : 1, sizeof *fams);
    size_t nf = s.rs->families.n < MAX_FAMILIES ? s.rs->families.n : MAX_FAMILIES;
    for (size_t f = 0; fams && f < nf; f++) {
        fams[f].id = VEC_AT(&s.rs->families, family_info, f).id;
        fams[f].title = VEC_AT(&s.rs->families, family_info, f).title;
    }
    if (!fams) goto cleanup;
    if (strcmp(fmt, "csv") == 0) write_csv((sample *)samples.v, samples.n, fams, nf, &doc);
    else if (strcmp(fmt, "json") == 0) write_json((sample *)samples.v, samples.n, fams, nf, range, &doc);
    else write_svg((sample *)samples.v, samples.n, &doc);
    sunset_free(fams);
    if (doc.oom) goto cleanup;
    if (c->verbose)
        fprintf(stderr, "sunset: history: %zu commits, %zu blobs scanned, %zu reused\n", samples.n,
                rp.blobs_scanned, rp.blobs_cached);
    rc = output_write(c->output, &doc);
cleanup:
    sb_free(&doc);
    git_tree_free(prev);
    for (size_t i = 0; i < samples.n; i++) sunset_free(VEC_AT(&samples, sample, i).subject);
    vec_free(&samples);
    vec_free(&ids);
    table_free(&rp.state);
    table_free(&rp.cache);
    sunset_worker_free(rp.w);
    git_repository_free(rp.repo);
    scan_ctx_free(&s);
    git_libgit2_shutdown();
    return rc;
}
