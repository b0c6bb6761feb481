/*
 * tracking_links.c — the repository's side of the tracking report's links
 * (analysis/tracking_links.h): HEAD and its date, the PRs the history names, the remote that
 * holds the measured commit. Read through libgit2 from the checkout's repository.
 */
#include "analysis/tracking_links.h"

#include <git2.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

/* The commit at HEAD of repo (the tree's, or NULL) and its date. */
void trk_tree_revision(git_repository *repo, char sha[GIT_OID_HEXSZ + 1], char date[16]) {
    git_commit *head = NULL;
    git_oid id;
    sha[0] = date[0] = 0;
    if (!repo) return;
    if (git_repository_is_bare(repo) || git_reference_name_to_id(&id, repo, "HEAD") != 0 ||
        git_commit_lookup(&head, repo, &id) != 0)
        goto cleanup;
    git_oid_tostr(sha, GIT_OID_HEXSZ + 1, &id);
    time_t t = (time_t)git_commit_time(head);
    struct tm tm;
    if (gmtime_r(&t, &tm)) strftime(date, 16, "%Y-%m-%d", &tm);
cleanup:
    git_commit_free(head);
}


static int cmp_pr_seen(const void *a, const void *b) {
    const trk_pr_seen *x = a, *y = b;
    return x->pr != y->pr ? (x->pr < y->pr ? -1 : 1) : (x->time > y->time ? -1 : x->time < y->time);
}

/* The PR numbers ("#123" in a commit's subject) of every commit reachable from HEAD of repo
 * (the tree's, or NULL), merged branches included, sorted; *ok false without history. */
int trk_history_prs(git_repository *repo, vec *prs, bool *ok) {
    git_revwalk *walk = NULL;
    git_oid id;
    int rc = 0;
    *ok = false;
    if (!repo || git_repository_is_bare(repo) || git_revwalk_new(&walk, repo) != 0 || git_revwalk_push_head(walk) != 0)
        goto cleanup;
    while (git_revwalk_next(&id, walk) == 0) {
        git_commit *c = NULL;
        if (git_commit_lookup(&c, repo, &id) != 0) continue;
        const char *p = git_commit_summary(c);
        while (p && (p = strchr(p, '#'))) {
            char *end;
            long v = strtol(p + 1, &end, 10);
            trk_pr_seen ps = {v, (int64_t)git_commit_time(c), false};
            if (end > p + 1 && v > 0 && (p[1] >= '0' && p[1] <= '9') && !vec_push(prs, &ps)) rc = -1;
            p++;
        }
        git_commit_free(c);
    }
    *ok = true;
    /* by number, the newest commit first; one entry per number */
    if (prs->n > 1) qsort(prs->v, prs->n, sizeof(trk_pr_seen), cmp_pr_seen);
    size_t u = 0;
    for (size_t i = 0; i < prs->n; i++)
        if (!u || VEC_AT(prs, trk_pr_seen, u - 1).pr != VEC_AT(prs, trk_pr_seen, i).pr)
            VEC_AT(prs, trk_pr_seen, u++) = VEC_AT(prs, trk_pr_seen, i);
    prs->n = u;
cleanup:
    git_revwalk_free(walk);
    return rc;
}

/* The web URL of a remote URL: https://host/path for https://, ssh:// and scp-like
 * git@host:path forms, without a trailing ".git" or '/'. False for a local path. */
static bool web_of_remote(const char *url, sb *out) {
    const char *host = NULL;
    bool scheme = true;
    if (strncmp(url, "https://", 8) == 0 || strncmp(url, "http://", 7) == 0) host = strstr(url, "//") + 2;
    else if (strncmp(url, "ssh://", 6) == 0) host = url + 6;
    else if (!strstr(url, "://") && url[0] != '/' && url[0] != '.') {
        const char *colon = strchr(url, ':'), *sl = strchr(url, '/');
        if (colon && (!sl || colon < sl)) host = url, scheme = false; /* git@host:owner/repo */
    }
    if (!host) return false;
    const char *at = strchr(host, '@'), *slash = strchr(host, '/');
    if (at && (!slash || at < slash)) host = at + 1;
    size_t hl = strcspn(host, ":/");
    const char *path = host + hl;
    if (*path == ':') {
        path++;
        if (scheme) path += strspn(path, "0123456789"); /* a port */
    }
    while (*path == '/') path++;
    size_t pl = strlen(path);
    while (pl && path[pl - 1] == '/') pl--;
    if (pl > 4 && strncmp(path + pl - 4, ".git", 4) == 0) pl -= 4;
    if (!hl || !pl) return false;
    sb_printf(out, "https://%.*s/%.*s", (int)hl, host, (int)pl, path);
    return !out->oom;
}

bool trk_same_web(const char *a, const char *b) {
    size_t la = strlen(a), lb = strlen(b);
    while (la && a[la - 1] == '/') la--;
    while (lb && b[lb - 1] == '/') lb--;
    return la == lb && strncasecmp(a, b, la) == 0;
}

/* A remote-tracking branch: its remote's name and its commit. */
typedef struct remote_tip {
    char name[128];
    git_oid id;
} remote_tip;

/* Which remote holds the measured commit, so links to it resolve: the web URL of a remote
 * one of whose branches (refs/remotes/NAME/...) contains `rev` — the manifest's repository
 * when it is one of them — into *web (empty when none). The remotes are found from their
 * branches and their URLs read from the configuration, not with git_remote_list /
 * git_remote_lookup: with the system PCRE2, libgit2 1.5 leaks their configuration regexes. */
void trk_revision_remote(git_repository *repo, const char *rev, const char *manifest_repo, sb *web) {
    git_reference_iterator *it = NULL;
    git_reference *ref = NULL;
    git_config *cfg = NULL;
    git_oid id;
    vec tips = VEC_INIT(remote_tip), ids = VEC_INIT(git_oid);
    if (!repo || git_oid_fromstr(&id, rev) != 0 || git_repository_config_snapshot(&cfg, repo) != 0 ||
        git_reference_iterator_glob_new(&it, repo, "refs/remotes/*") != 0)
        goto cleanup;
    while (git_reference_next(&ref, it) == 0) {
        const char *n = git_reference_name(ref) + strlen("refs/remotes/");
        git_reference *res = NULL;
        remote_tip t;
        memset(&t, 0, sizeof t);
        size_t nl = strcspn(n, "/");
        if (n[nl] == '/' && nl < sizeof t.name && git_reference_resolve(&res, ref) == 0 && git_reference_target(res)) {
            memcpy(t.name, n, nl);
            git_oid_cpy(&t.id, git_reference_target(res));
            vec_push(&tips, &t);
        }
        git_reference_free(res);
        git_reference_free(ref);
    }
    for (size_t i = 0; i < tips.n; i++) {
        const char *name = VEC_AT(&tips, remote_tip, i).name;
        bool seen = false; /* each remote once, with all its branches */
        for (size_t k = 0; k < i && !seen; k++) seen = strcmp(VEC_AT(&tips, remote_tip, k).name, name) == 0;
        if (seen) continue;
        ids.n = 0;
        for (size_t k = i; k < tips.n; k++)
            if (strcmp(VEC_AT(&tips, remote_tip, k).name, name) == 0) vec_push(&ids, &VEC_AT(&tips, remote_tip, k).id);
        sb key = {0}, w = {0};
        git_buf url = {0};
        sb_printf(&key, "remote.%s.url", name);
        if (!key.oom && git_config_get_string_buf(&url, cfg, key.s) == 0 && web_of_remote(url.ptr, &w)) {
            bool holds = false;
            for (size_t k = 0; k < ids.n && !holds; k++) holds = git_oid_equal(&VEC_AT(&ids, git_oid, k), &id);
            if (!holds && ids.n) holds = git_graph_reachable_from_any(repo, &id, (const git_oid *)ids.v, ids.n) == 1;
            /* the manifest's repository wins; else the first remote that holds the commit */
            if (holds && (!web->len || (manifest_repo && trk_same_web(w.s, manifest_repo)))) {
                web->len = 0;
                sb_putn(web, w.s, w.len);
            }
        }
        git_buf_dispose(&url);
        sb_free(&key);
        sb_free(&w);
    }
cleanup:
    vec_free(&tips);
    vec_free(&ids);
    git_reference_iterator_free(it);
    git_config_free(cfg);
}

int trk_pr_in_history(void *ctx, long pr) {
    const vec *prs = ctx;
    trk_pr_seen key = {pr, INT64_MAX, false};
    size_t lo = 0, hi = prs->n;
    while (lo < hi) { /* the first entry >= key: the PR's, when it is there */
        size_t mid = (lo + hi) / 2;
        if (cmp_pr_seen(&VEC_AT(prs, trk_pr_seen, mid), &key) < 0) lo = mid + 1;
        else hi = mid;
    }
    if (lo == prs->n || VEC_AT(prs, trk_pr_seen, lo).pr != pr) return 0;
    return VEC_AT(prs, trk_pr_seen, lo).old ? 2 : 1;
}

static int cmp_i64(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y;
}

/* A PR the manifest names whose commit is far older (half a year) than the median of the
 * manifest's PRs is marked old: #6782 for #63782 names a 2017 design-doc commit. */
void trk_mark_old_prs(const tracking_manifest *m, vec *prs) {
    vec times = VEC_INIT(int64_t);
    vec named = VEC_INIT(trk_pr_seen *);
    for (size_t i = 0; i < m->tasks.n; i++) {
        const trk_task *t = &VEC_AT(&m->tasks, trk_task, i);
        for (size_t k = 0; k < t->prs.n + t->items.n; k++) {
            const char *p = k < t->prs.n ? VEC_AT(&t->prs, char *, k) : VEC_AT(&t->items, trk_item, k - t->prs.n).pr;
            if (!p || p[0] != '#') continue;
            long v = strtol(p + 1, NULL, 10);
            for (size_t j = 0; j < prs->n; j++) {
                trk_pr_seen *ps = &VEC_AT(prs, trk_pr_seen, j);
                if (ps->pr != v) continue;
                vec_push(&times, &ps->time);
                vec_push(&named, &ps);
                break;
            }
        }
    }
    if (times.n >= 3) {
        qsort(times.v, times.n, sizeof(int64_t), cmp_i64);
        int64_t median = VEC_AT(&times, int64_t, times.n / 2);
        for (size_t j = 0; j < named.n; j++)
            if (VEC_AT(&named, trk_pr_seen *, j)->time < median - 183 * 86400) VEC_AT(&named, trk_pr_seen *, j)->old = true;
    }
    vec_free(&times);
    vec_free(&named);
}

