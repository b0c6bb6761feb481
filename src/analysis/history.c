/*
 * history.c — the burn-down's data: legacy findings over git history.
 *
 * The rule set is replayed over first-parent commits by reading git objects with libgit2; no
 * checkout is made. The first sampled commit's tree is scanned whole; every later sample is
 * the previous one plus the tree-to-tree diff between them, so a commit costs what it changed.
 * A blob already scanned at the same path is never parsed again (its counts are cached by
 * blob id and path: path rules and test flags depend on the path).
 */
#include "base/git.h"
#include "analysis/history.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lang/registry.h"

/* Path -> counts for the tree being replayed; blob cache: (blob, path) -> counts. Both are
 * open-addressing tables keyed by strings we own. An entry holds an index into the replay's
 * `counts`, where 0 is "no finding": almost every blob has none, and a history_counts in each
 * of the ~100,000 slots of a Paddle replay was 25 MB of its 47 MB heap peak (massif). */
typedef struct entry {
    char *key;      /* path (state) or "oid\0path" rendered as "oid:path" (cache) */
    uint32_t ci;    /* index into replay.counts; 0 = no finding */
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

typedef struct replay {
    const history_opts *o;
    git_repository *repo;
    sunset_worker *w;
    table state, cache;
    vec counts;     /* history_counts, append-only; [0] is all zero */
    history_counts total;
    uint32_t files;
    size_t n_families;
    size_t blobs_scanned, blobs_cached;
    int err;
    sunset_engine *e;
    bool paddle_tree; /* the commit's tree is Paddle's own (settings.anchor.tree) */
} replay;

static int family_index(const sunset_result *r, const char *fam) {
    for (size_t i = 0; i < r->n_families && i < HISTORY_MAX_FAMILIES; i++)
        if (strcmp(r->families[i].id, fam) == 0) return (int)i;
    return -1;
}

static void counts_add(history_counts *a, const history_counts *b, int sign) {
    a->findings += (uint32_t)(sign * (int64_t)b->findings);
    for (int i = 0; i < HISTORY_TASKS; i++) a->by_task[i] += (uint32_t)(sign * (int64_t)b->by_task[i]);
    for (int i = 0; i < HISTORY_MAX_FAMILIES; i++) a->by_family[i] += (uint32_t)(sign * (int64_t)b->by_family[i]);
}

static bool path_wanted(const history_opts *o, const char *path) {
    if (sunset_lang_for_path(path) == SUNSET_LANG_NONE) return false;
    /* the walk's rule: a commit's tree is its tracked files, which .gitignore never drops */
    walk_opts wo = {false, o->include ? (const char *const *)o->include->v : NULL, o->include ? o->include->n : 0,
                    o->exclude ? (const char *const *)o->exclude->v : NULL, o->exclude ? o->exclude->n : 0};
    return walk_selected(&wo, path);
}

static const history_counts *counts_at(const replay *rp, uint32_t ci) {
    return &VEC_AT(&rp->counts, history_counts, ci);
}

/* Counts of one blob at one path, as an index into rp->counts: from the cache, or by
 * scanning it. */
static int blob_counts(replay *rp, const char *path, const git_oid *id, uint32_t *ci) {
    char key[GIT_OID_HEXSZ + 2 + 4096];
    git_oid_tostr(key, GIT_OID_HEXSZ + 1, id);
    /* one blob counts differently in Paddle's own tree and in another */
    snprintf(key + GIT_OID_HEXSZ, sizeof key - GIT_OID_HEXSZ, ":%d:%s", rp->paddle_tree, path);
    entry *e = table_find(&rp->cache, key, false);
    if (e) {
        *ci = e->ci;
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
    history_counts c = {0};
    for (size_t i = 0; i < res.n_findings; i++) {
        const sunset_finding *f = &res.findings[i];
        c.findings++;
        if (f->task > 0 && f->task < HISTORY_TASKS) c.by_task[f->task]++;
        int fi = family_index(&res, f->family);
        if (fi >= 0) c.by_family[fi]++;
    }
    rp->n_families = res.n_families < HISTORY_MAX_FAMILIES ? res.n_families : HISTORY_MAX_FAMILIES;
    sunset_result_free(&res);
    if (rc) return -1;
    rp->blobs_scanned++;
    *ci = 0;
    if (c.findings) {
        if (rp->counts.n >= UINT32_MAX || !vec_push(&rp->counts, &c)) return -1;
        *ci = (uint32_t)(rp->counts.n - 1);
    }
    if (!(e = table_find(&rp->cache, key, true))) return -1;
    e->ci = *ci;
    return 0;
}

static int state_set(replay *rp, const char *path, const git_oid *id) {
    uint32_t ci;
    if (blob_counts(rp, path, id, &ci)) return -1;
    entry *e = table_find(&rp->state, path, false);
    if (e) {
        if (e->ci) rp->files--;
        counts_add(&rp->total, counts_at(rp, e->ci), -1);
    } else if (!(e = table_find(&rp->state, path, true))) {
        return -1;
    }
    e->ci = ci;
    counts_add(&rp->total, counts_at(rp, ci), +1);
    if (ci) rp->files++;
    return 0;
}

static void state_remove(replay *rp, const char *path) {
    entry *e = table_find(&rp->state, path, false);
    if (!e) return;
    counts_add(&rp->total, counts_at(rp, e->ci), -1);
    if (e->ci) rp->files--;
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
    else if (path_wanted(rp->o, path.s)) rc = state_set(rp, path.s, git_tree_entry_id(te));
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
        if (path_wanted(rp->o, d->new_file.path)) rc = state_set(rp, d->new_file.path, &d->new_file.id);
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

void history_iso_date(int64_t t, int tz, char *buf, size_t n) {
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
    const history_opts *c = rp->o;
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
        if (i % (size_t)every) continue; /* i history_counts from the newest (0) */
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

/* Replay the selected commits: the first tree whole, then tree-to-tree diffs. */
/* Does the commit's tree hold `path` (a file or a directory)? */
static bool tree_has(void *ud, const char *path) {
    git_tree_entry *te = NULL;
    bool yes = git_tree_entry_bypath(&te, ud, path) == 0;
    git_tree_entry_free(te);
    return yes;
}

static int replay_commits(replay *rp, const history_opts *o, const vec *ids, vec *out) {
    git_tree *prev = NULL;
    int rc = -1;
    for (size_t i = 0; i < ids->n; i++) {
        git_commit *cm = NULL;
        git_tree *tree = NULL;
        if (git_commit_lookup(&cm, rp->repo, &VEC_AT(ids, git_oid, i)) != 0 || git_commit_tree(&tree, cm) != 0) {
            git_commit_free(cm);
            fprintf(stderr, "sunset: history: cannot read commit %zu of the range\n", i);
            goto cleanup;
        }
        bool paddle_tree = sunset_engine_set_tree(rp->e, tree_has, tree);
        bool flipped = paddle_tree != rp->paddle_tree;
        rp->paddle_tree = paddle_tree;
        int r = prev ? apply_diff(rp, prev, tree) : git_tree_walk(tree, GIT_TREEWALK_PRE, tree_cb, rp);
        /* the tree became Paddle's own or stopped being it: every file counts anew */
        if (r == 0 && prev && flipped) r = git_tree_walk(tree, GIT_TREEWALK_PRE, tree_cb, rp);
        if (r != 0 || rp->err) {
            git_tree_free(tree);
            git_commit_free(cm);
            fprintf(stderr, "sunset: history: failed while replaying commit %zu\n", i);
            goto cleanup;
        }
        git_tree_free(prev);
        prev = tree;
        const char *summary = git_commit_summary(cm);
        history_sample smp = {
            .index = o->shard_n ? i * o->shard_n + o->shard_i - 1 : i,
            .id = VEC_AT(ids, git_oid, i),
            .subject = sunset_strndup(summary ? summary : "", summary ? strlen(summary) : 0),
            .time = (int64_t)git_commit_time(cm),
            .tz_minutes = git_commit_time_offset(cm),
            .total = rp->total,
            .files = rp->files,
            .pr = pr_number(summary ? summary : ""),
        };
        git_commit_free(cm);
        if (!smp.subject || !vec_push(out, &smp)) {
            sunset_free(smp.subject);
            goto cleanup;
        }
        if (o->progress)
            fprintf(stderr, "\rsunset: history %zu/%zu commits", i + 1, ids->n);
    }
    if (o->progress) fprintf(stderr, "\r\033[K");
    rc = 0;
cleanup:
    git_tree_free(prev);
    return rc;
}

int history_replay(sunset_engine *e, const char *repo_dir, const char *range, const history_opts *o,
                   vec *out, history_stats *st) {
    replay rp = {.o = o, .counts = VEC_INIT(history_counts), .e = e};
    vec ids = VEC_INIT(git_oid);
    int rc = -1;
    history_counts none = {0};
    if (!vec_push(&rp.counts, &none)) return -1;
    sunset_git_init();
    /* libgit2 keeps up to 256 MB of parsed objects and maps pack windows freely; a replay
     * reads each blob once, so small bounds cost nothing and keep the peak memory low
     * (Paddle's 345-commit window: 8 MB cache and 32 MB of windows peaked at 143 MB RSS,
     * 2 MB and 8 MB at 135 MB, same CPU; smaller windows only added system time) */
    git_libgit2_opts(GIT_OPT_SET_CACHE_MAX_SIZE, (ssize_t)(2 << 20));
    git_libgit2_opts(GIT_OPT_SET_MWINDOW_SIZE, (size_t)(1 << 20));
    git_libgit2_opts(GIT_OPT_SET_MWINDOW_MAPPED_LIMIT, (size_t)(8 << 20));
    if (git_repository_open_ext(&rp.repo, repo_dir, 0, NULL) != 0) {
        const git_error *ge = git_error_last();
        fprintf(stderr, "sunset: %s: not a git repository: %s\n", repo_dir, ge ? ge->message : "?");
        goto cleanup;
    }
    if (!(rp.w = sunset_worker_new(e))) goto cleanup;
    if (select_commits(&rp, range, &ids)) goto cleanup;
    /* --shard i/n: commits at positions i-1, i-1+n, ... (each shard replays its own diffs) */
    size_t kept = 0;
    for (size_t i = 0; i < ids.n; i++)
        if (!o->shard_n || i % (size_t)o->shard_n == (size_t)o->shard_i - 1)
            VEC_AT(&ids, git_oid, kept++) = VEC_AT(&ids, git_oid, i);
    ids.n = kept;
    if (replay_commits(&rp, o, &ids, out)) goto cleanup;
    if (st) *st = (history_stats){rp.blobs_scanned, rp.blobs_cached};
    rc = 0;
cleanup:
    vec_free(&ids);
    table_free(&rp.state);
    table_free(&rp.cache);
    vec_free(&rp.counts);
    sunset_worker_free(rp.w);
    git_repository_free(rp.repo);
    return rc;
}

void history_samples_free(vec *samples) {
    for (size_t i = 0; i < samples->n; i++) sunset_free(VEC_AT(samples, history_sample, i).subject);
    vec_free(samples);
}
