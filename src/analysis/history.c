/*
 * history.c — the burn-down's data: legacy findings over git history.
 *
 * The rule set is replayed over first-parent commits by reading git objects with libgit2; no
 * checkout is made. The first sampled commit's tree is scanned whole; every later sample is
 * the previous one plus the change between the two trees, found by walking both and never
 * opening a subtree whose id is the same on both sides, so a commit costs what it changed:
 * the paths that left are taken out of the totals, the ones that came or changed re-judged.
 * A blob already scanned at the same path is never parsed again (its counts are cached by
 * blob id and path: path rules and test flags depend on the path).
 */
#include "base/git.h"
#include "analysis/history.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>


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

/* The blob cache: (blob id, path, in Paddle's own tree or not) -> counts, in fixed slots, the
 * path kept as a 64-bit hash seeded by the tree flag (string keys of "oid:flag:path" were
 * 5 MB of a 1,800-commit Paddle replay's heap). */
typedef struct blob_slot {
    git_oid id;
    uint32_t ci;    /* index into replay.counts; 0 = no finding */
    uint64_t path;  /* 0 = empty slot (a hash of 0 is taken as 1) */
} blob_slot;

typedef struct blob_cache {
    blob_slot *slots;
    size_t cap, n;
} blob_cache;

static size_t blob_home(const blob_cache *c, const git_oid *id, uint64_t path) {
    uint64_t h;
    memcpy(&h, id->id, sizeof h);
    return (size_t)((h ^ path) * 0x9E3779B97F4A7C15ull >> 20) & (c->cap - 1);
}

static blob_slot *blob_cache_find(blob_cache *c, const git_oid *id, uint64_t path, bool insert) {
    if (c->cap == 0 || (insert && (c->n + 1) * 2 > c->cap)) {
        if (!c->cap && !insert) return NULL;
        blob_cache g = {sunset_calloc(c->cap ? c->cap * 2 : 1024, sizeof(blob_slot)), c->cap ? c->cap * 2 : 1024, c->n};
        if (!g.slots) return NULL;
        for (size_t i = 0; i < c->cap; i++) {
            if (!c->slots[i].path) continue;
            size_t h = blob_home(&g, &c->slots[i].id, c->slots[i].path);
            while (g.slots[h].path) h = (h + 1) & (g.cap - 1);
            g.slots[h] = c->slots[i];
        }
        sunset_free(c->slots);
        *c = g;
    }
    size_t h = blob_home(c, id, path);
    for (; c->slots[h].path; h = (h + 1) & (c->cap - 1))
        if (c->slots[h].path == path && git_oid_equal(&c->slots[h].id, id)) return &c->slots[h];
    if (!insert) return NULL;
    c->slots[h] = (blob_slot){*id, 0, path};
    c->n++;
    return &c->slots[h];
}

typedef struct replay {
    const history_opts *o;
    git_repository *repo;
    sunset_worker *w;
    table state;
    blob_cache cache;
    table tagged;   /* directories holding a CACHEDIR.TAG: the walk never enters them */
    table links;    /* symlinks of the tree: judged by their target's blob, re-resolved per commit */
    vec counts;     /* history_counts, append-only; [0] is all zero */
    history_counts total;
    uint32_t files;
    size_t n_families;
    size_t blobs_scanned, blobs_cached, trees_read;
    int err;
    sunset_error *error; /* the one-line message of a failure */
    bool baseline;  /* the range's start A is the first selected commit */
    git_oid from;   /* A */
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
    for (int i = 0; i < SUNSET_TASKS; i++) a->by_task[i] += (uint32_t)(sign * (int64_t)b->by_task[i]);
    for (int i = 0; i < HISTORY_MAX_FAMILIES; i++) a->by_family[i] += (uint32_t)(sign * (int64_t)b->by_family[i]);
}

/* The walk's rules on a commit's tree, as scan applies them to a checkout of it (issue 32):
 * the globs (a commit's tree is its tracked files, which .gitignore never drops), no
 * component the walk skips by name, no directory holding a CACHEDIR.TAG. Which language, or
 * none, is the engine's decision for both (extension, then shebang): every blob goes to it. */
static bool path_walked(const replay *rp, const char *path) {
    char comp[4096];
    for (const char *p = path, *e; *p; p = *e ? e + 1 : e) {
        e = strchr(p, '/');
        if (!e) e = p + strlen(p);
        size_t n = (size_t)(e - p);
        if (n >= sizeof comp || e - path >= (ptrdiff_t)sizeof comp) return false;
        memcpy(comp, p, n);
        comp[n] = 0;
        if (walk_name_skipped(comp, false)) return false;
        if (*e == '/' && rp->tagged.n) { /* the directory path[0, e) */
            memcpy(comp, path, (size_t)(e - path));
            comp[e - path] = 0;
            if (table_find((table *)&rp->tagged, comp, false)) return false;
        }
    }
    return true;
}

static bool path_wanted(const replay *rp, const char *path) {
    const history_opts *o = rp->o;
    walk_opts wo = {false, o->include ? (const char *const *)o->include->v : NULL, o->include ? o->include->n : 0,
                    o->exclude ? (const char *const *)o->exclude->v : NULL, o->exclude ? o->exclude->n : 0, false, NULL, NULL};
    return walk_selected(&wo, path) && path_walked(rp, path);
}

static const history_counts *counts_at(const replay *rp, uint32_t ci) {
    return &VEC_AT(&rp->counts, history_counts, ci);
}

/* Counts of one blob at one path, as an index into rp->counts: from the cache, or by
 * scanning it. */
static int blob_counts(replay *rp, const char *path, const git_oid *id, uint32_t *ci) {
    /* one blob counts differently in Paddle's own tree and in another */
    uint64_t ph = hash64(path, strlen(path), rp->paddle_tree ? 0x7061646c : 0);
    ph += !ph;
    blob_slot *e = blob_cache_find(&rp->cache, id, ph, false);
    if (e) {
        *ci = e->ci;
        rp->blobs_cached++;
        return 0;
    }
    git_blob *blob = NULL;
    if (git_blob_lookup(&blob, rp->repo, id) != 0) {
        const git_error *ge = git_error_last();
        sunset_error_set(rp->error, "history: %s: cannot read blob: %s", path, ge ? ge->message : "?");
        return -1;
    }
    sunset_result res = {0};
    int rc = sunset_worker_scan(rp->w, path, git_blob_rawcontent(blob), (size_t)git_blob_rawsize(blob), &res);
    git_blob_free(blob);
    history_counts c = {0};
    for (size_t i = 0; i < res.n_findings; i++) {
        const sunset_finding *f = &res.findings[i];
        c.findings++;
        if (f->task > 0 && f->task < SUNSET_TASKS) c.by_task[f->task]++;
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
    if (!(e = blob_cache_find(&rp->cache, id, ph, true))) return -1;
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

/* Does the tree `dir` hold a CACHEDIR.TAG, a regular blob (the walk reads it without
 * following a link) starting with the signature? */
static bool tree_tagged(replay *rp, const git_oid *dir) {
    git_tree *t = NULL;
    git_blob *b = NULL;
    bool tag = false;
    if (git_tree_lookup(&t, rp->repo, dir) != 0) return false;
    const git_tree_entry *e = git_tree_entry_byname(t, "CACHEDIR.TAG");
    if (e && git_tree_entry_type(e) == GIT_OBJECT_BLOB && git_tree_entry_filemode(e) != GIT_FILEMODE_LINK &&
        git_blob_lookup(&b, rp->repo, git_tree_entry_id(e)) == 0)
        tag = walk_cachedir_tag(git_blob_rawcontent(b), (size_t)git_blob_rawsize(b));
    git_blob_free(b);
    git_tree_free(t);
    return tag;
}

typedef struct tree_walk {
    replay *rp;
    const char *prefix; /* the walked subtree's path with its '/', "" for the whole tree */
} tree_walk;

static int tree_cb(const char *root, const git_tree_entry *te, void *payload) {
    tree_walk *tw = payload;
    replay *rp = tw->rp;
    git_object_t type = git_tree_entry_type(te);
    if (type != GIT_OBJECT_BLOB && type != GIT_OBJECT_TREE) return 0; /* a submodule */
    sb path = {0};
    sb_printf(&path, "%s%s%s", tw->prefix, root, git_tree_entry_name(te));
    int rc = 0;
    if (path.oom) {
        rc = -1;
    } else if (type == GIT_OBJECT_TREE) {
        /* skipped (1) as the walk skips it: by name, or a cache directory, remembered */
        if (walk_name_skipped(git_tree_entry_name(te), false)) rc = 1;
        else if (tree_tagged(rp, git_tree_entry_id(te))) rc = table_find(&rp->tagged, path.s, true) ? 1 : -1;
    } else if (git_tree_entry_filemode(te) == GIT_FILEMODE_LINK) {
        rc = table_find(&rp->links, path.s, true) ? 0 : -1; /* resolved once the tree is read */
    } else if (path_wanted(rp, path.s)) {
        rc = state_set(rp, path.s, git_tree_entry_id(te));
    }
    sb_free(&path);
    if (rc < 0) rp->err = 1;
    return rc;
}

/* A symlink's target in `tree`, as the walk takes it (a file inside the tree, through
 * chains of links): 0 with *id, 1 when it is no such file. */
static int link_target(replay *rp, git_tree *tree, const char *link, git_oid *id) {
    char cur[4096];
    snprintf(cur, sizeof cur, "%s", link);
    for (int hops = 0; hops < 40; hops++) { /* SYMLOOP_MAX */
        git_tree_entry *e = NULL;
        if (git_tree_entry_bypath(&e, tree, cur) != 0) return 1;
        bool blob = git_tree_entry_type(e) == GIT_OBJECT_BLOB, is_link = git_tree_entry_filemode(e) == GIT_FILEMODE_LINK;
        git_oid oid = *git_tree_entry_id(e);
        git_tree_entry_free(e);
        if (!blob) return 1; /* a directory: never followed */
        if (!is_link) {
            *id = oid;
            return 0;
        }
        git_blob *b = NULL;
        if (git_blob_lookup(&b, rp->repo, &oid) != 0) return 1;
        size_t tl = (size_t)git_blob_rawsize(b);
        char target[4096];
        bool ok = tl < sizeof target && tl > 0;
        if (ok) memcpy(target, git_blob_rawcontent(b), tl);
        git_blob_free(b);
        if (!ok || target[0] == '/' || memchr(target, 0, tl)) return 1; /* absolute: outside */
        target[tl] = 0;
        /* the link's directory, then each component: "." stays, ".." climbs, never above */
        char *sl = strrchr(cur, '/');
        size_t n = sl ? (size_t)(sl - cur) : 0;
        cur[n] = 0;
        for (char *c = target, *end; *c; c = end) {
            end = strchr(c, '/');
            if (end) *end++ = 0;
            else end = c + strlen(c);
            if (!*c || strcmp(c, ".") == 0) continue;
            if (strcmp(c, "..") == 0) {
                if (!n) return 1;
                char *up = strrchr(cur, '/');
                n = up ? (size_t)(up - cur) : 0;
                cur[n] = 0;
                continue;
            }
            int w = snprintf(cur + n, sizeof cur - n, "%s%s", n ? "/" : "", c);
            if (w < 0 || (size_t)w >= sizeof cur - n) return 1;
            n += (size_t)w;
        }
        if (!n) return 1;
    }
    return 1;
}

/* Every symlink of the tree by its target now (a target may change without its link). */
static int resolve_links(replay *rp, git_tree *tree) {
    for (size_t i = 0; i < rp->links.cap; i++) {
        const char *l = rp->links.slots[i].key;
        if (!l) continue;
        git_oid id;
        if (path_wanted(rp, l) && link_target(rp, tree, l, &id) == 0) {
            if (state_set(rp, l, &id)) return -1;
        } else {
            state_remove(rp, l);
        }
    }
    return 0;
}

/* Forget what lies below dir (its files, links and cache directories), for a walk again. */
static void forget_below(replay *rp, const char *dir) {
    table *ts[] = {&rp->state, &rp->links, &rp->tagged};
    size_t dl = strlen(dir);
    for (int k = 0; k < 3; k++) {
        vec gone = VEC_INIT(char *);
        for (size_t i = 0; i < ts[k]->cap; i++) {
            char *p = ts[k]->slots[i].key;
            if (p && strncmp(p, dir, dl) == 0 && p[dl] == '/') vec_push(&gone, &p);
        }
        for (size_t i = 0; i < gone.n; i++) {
            char *p = sunset_strndup(VEC_AT(&gone, char *, i), strlen(VEC_AT(&gone, char *, i)));
            if (!p) continue;
            if (k == 0) state_remove(rp, p);
            else table_remove(ts[k], p);
            sunset_free(p);
        }
        vec_free(&gone);
    }
}

/* A directory whose CACHEDIR.TAG came, went or changed: walked again as the walk would. */
static int rewalk_dir(replay *rp, git_tree *to, const char *dir) {
    forget_below(rp, dir);
    if (rp->tagged.n) table_remove(&rp->tagged, dir);
    git_tree_entry *e = NULL;
    if (git_tree_entry_bypath(&e, to, dir) != 0) return 0; /* gone */
    int rc = 0;
    if (git_tree_entry_type(e) == GIT_OBJECT_TREE) {
        sb pre = {0};
        sb_printf(&pre, "%s/", dir);
        git_tree *sub = NULL;
        if (pre.oom || git_tree_lookup(&sub, rp->repo, git_tree_entry_id(e)) != 0) rc = -1;
        else if (tree_tagged(rp, git_tree_entry_id(e))) rc = table_find(&rp->tagged, dir, true) ? 0 : -1;
        else if (path_walked(rp, dir)) {
            tree_walk tw = {rp, pre.s};
            rc = git_tree_walk(sub, GIT_TREEWALK_PRE, tree_cb, &tw) || rp->err ? -1 : 0;
        }
        git_tree_free(sub);
        sb_free(&pre);
    }
    git_tree_entry_free(e);
    return rc;
}

/* ---- the change between two trees: a walk of both that never opens a subtree whose id
 * is the same on both sides (libgit2's tree-to-tree diff reads every tree of both commits,
 * which was half of a Paddle replay's CPU) ---- */

typedef struct tree_diff {
    replay *rp;
    sb path;    /* the entry's path; each level appends its name and truncates back */
    vec retag;  /* char *: directories whose CACHEDIR.TAG came, went or changed */
    int rc;
} tree_diff;

static bool entry_is_tree(const git_tree_entry *e) { return git_tree_entry_type(e) == GIT_OBJECT_TREE; }

/* Git's order of tree entries: by name, a tree's name as if it ended in '/'. */
static int entry_cmp(const git_tree_entry *a, const git_tree_entry *b) {
    const char *x = git_tree_entry_name(a), *y = git_tree_entry_name(b);
    size_t lx = strlen(x), ly = strlen(y), n = lx < ly ? lx : ly;
    int c = memcmp(x, y, n);
    if (c) return c;
    int cx = lx > n ? (unsigned char)x[n] : entry_is_tree(a) ? '/' : 0;
    int cy = ly > n ? (unsigned char)y[n] : entry_is_tree(b) ? '/' : 0;
    return cx - cy;
}

/* A CACHEDIR.TAG below the root changed: its directory is walked again afterwards. */
static void note_tag(tree_diff *td) {
    const char *p = td->path.s, *sl = strrchr(p, '/');
    if (!sl || strcmp(sl + 1, "CACHEDIR.TAG")) return;
    char *dir = sunset_strndup(p, (size_t)(sl - p));
    if (!dir || !vec_push(&td->retag, &dir)) {
        sunset_free(dir);
        td->rc = -1;
    }
}

static int diff_trees(tree_diff *td, const git_tree *a, const git_tree *b);

/* The subtrees at td->path, old (ea) and new (eb), either NULL when that side has none. */
static int diff_subtree(tree_diff *td, const git_tree_entry *ea, const git_tree_entry *eb) {
    git_tree *ta = NULL, *tb = NULL;
    int rc = 0;
    td->rp->trees_read += (ea != NULL) + (eb != NULL);
    if ((ea && git_tree_lookup(&ta, td->rp->repo, git_tree_entry_id(ea)) != 0) ||
        (eb && git_tree_lookup(&tb, td->rp->repo, git_tree_entry_id(eb)) != 0)) {
        const git_error *ge = git_error_last();
        sunset_error_set(td->rp->error, "history: %s: cannot read tree: %s", td->path.s, ge ? ge->message : "?");
        rc = -1;
    } else {
        rc = diff_trees(td, ta, tb);
    }
    git_tree_free(ta);
    git_tree_free(tb);
    return rc;
}

/* A file (blob, link or submodule) at td->path leaves the tree. */
static void file_gone(tree_diff *td) {
    replay *rp = td->rp;
    note_tag(td);
    state_remove(rp, td->path.s);
    if (rp->links.n) table_remove(&rp->links, td->path.s);
}

/* A file at td->path arrives (or changes): judged as the walk of the new tree would. */
static int file_new(tree_diff *td, const git_tree_entry *e) {
    replay *rp = td->rp;
    note_tag(td);
    git_filemode_t mode = git_tree_entry_filemode(e);
    if (mode == GIT_FILEMODE_COMMIT) return 0;
    if (mode == GIT_FILEMODE_LINK) return table_find(&rp->links, td->path.s, true) ? 0 : -1;
    return path_wanted(rp, td->path.s) ? state_set(rp, td->path.s, git_tree_entry_id(e)) : 0;
}

/* One name of the two trees: ea the old side's entry, eb the new side's, either NULL. */
static int diff_entry(tree_diff *td, const git_tree_entry *ea, const git_tree_entry *eb) {
    size_t len = td->path.len;
    const char *name = git_tree_entry_name(ea ? ea : eb);
    if (len) sb_putc(&td->path, '/');
    sb_puts(&td->path, name);
    int rc = td->path.oom ? -1 : 0;
    if (rc || (ea && eb && git_oid_equal(git_tree_entry_id(ea), git_tree_entry_id(eb)) &&
               git_tree_entry_filemode(ea) == git_tree_entry_filemode(eb))) {
        /* out of memory, or unchanged: a subtree is not opened */
    } else if (ea && eb && entry_is_tree(ea) && entry_is_tree(eb)) {
        rc = diff_subtree(td, ea, eb);
    } else {
        if (ea && entry_is_tree(ea)) rc = diff_subtree(td, ea, NULL);
        else if (ea) file_gone(td);
        if (!rc && eb && entry_is_tree(eb)) rc = diff_subtree(td, NULL, eb);
        else if (!rc && eb) rc = file_new(td, eb);
    }
    td->path.len = len;
    if (td->path.s) td->path.s[len] = 0;
    return rc || td->rc ? -1 : 0;
}

/* Both trees' entries in git's order, merged (either tree may be NULL: all added or gone). */
static int diff_trees(tree_diff *td, const git_tree *a, const git_tree *b) {
    size_t na = a ? git_tree_entrycount(a) : 0, nb = b ? git_tree_entrycount(b) : 0, i = 0, j = 0;
    while (i < na || j < nb) {
        const git_tree_entry *ea = i < na ? git_tree_entry_byindex(a, i) : NULL;
        const git_tree_entry *eb = j < nb ? git_tree_entry_byindex(b, j) : NULL;
        int c = !ea ? 1 : !eb ? -1 : entry_cmp(ea, eb);
        if (diff_entry(td, c <= 0 ? ea : NULL, c >= 0 ? eb : NULL)) return -1;
        i += c <= 0;
        j += c >= 0;
    }
    return 0;
}

static int apply_diff(replay *rp, git_tree *from, git_tree *to) {
    tree_diff td = {rp, {0}, VEC_INIT(char *), 0};
    int rc = diff_trees(&td, from, to);
    for (size_t i = 0; i < td.retag.n; i++) {
        char *dir = VEC_AT(&td.retag, char *, i);
        if (!rc) rc = rewalk_dir(rp, to, dir);
        sunset_free(dir);
    }
    vec_free(&td.retag);
    sb_free(&td.path);
    return rc ? rc : resolve_links(rp, to);
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

/* ---- shallow clones: libgit2's revwalk fails at the first parent the clone lacks ---- */

static int cmp_oid(const void *a, const void *b) { return git_oid_cmp(a, b); }

/* Every commit of the clone reachable from `from` (a range's excluded side), sorted. */
static bool reachable(git_repository *repo, const git_oid *from, vec *out) {
    vec todo = VEC_INIT(git_oid);
    bool ok = vec_push(&todo, from);
    while (ok && todo.n) {
        git_oid id = VEC_AT(&todo, git_oid, --todo.n);
        bool seen = false;
        for (size_t i = 0; i < out->n && !seen; i++) seen = git_oid_equal(&VEC_AT(out, git_oid, i), &id);
        git_commit *c = NULL;
        if (seen || git_commit_lookup(&c, repo, &id)) continue; /* beyond the clone */
        ok = vec_push(out, &id);
        for (unsigned k = 0; ok && k < git_commit_parentcount(c); k++) ok = vec_push(&todo, git_commit_parent_id(c, k));
        git_commit_free(c);
    }
    vec_free(&todo);
    if (out->n > 1) qsort(out->v, out->n, sizeof(git_oid), cmp_oid);
    return ok;
}

/* The hint for fetching `rev` (history needs the commits between, not only the tip). */
static const char *fetch_hint(replay *rp, const char *rev, char *buf, size_t n) {
    sunset_git_fetch_hint(rp->repo, rev, false, buf, n);
    return buf;
}

/* The first-parent walk of a shallow clone, newest first: from `tip` until a commit of
 * `hidden` (a range), `max` commits or `since`; -1 with a message naming what the clone
 * lacks when its history ends first. */
static int shallow_walk(replay *rp, const char *range, const git_oid *tip, const vec *hidden,
                        long max, int64_t since, vec *newest_first, bool *cut) {
    git_oid id = *tip;
    char hint[512], last[GIT_OID_HEXSZ + 1] = "";
    for (;;) {
        if (hidden->n && bsearch(&id, hidden->v, hidden->n, sizeof(git_oid), cmp_oid)) return 0;
        git_commit *c = NULL;
        if (git_commit_lookup(&c, rp->repo, &id)) break; /* past the clone's boundary */
        bool older = since && git_commit_time(c) < since;
        bool root = git_commit_parentcount(c) == 0;
        if (!older && !vec_push(newest_first, &id)) {
            git_commit_free(c);
            return -1;
        }
        git_oid_tostr(last, sizeof last, &id);
        if (!root) id = *git_commit_parent_id(c, 0);
        git_commit_free(c);
        if (older || (max && (long)newest_first->n >= max)) *cut = true;
        if (older || root || *cut) return 0;
    }
    const char *dots = strstr(range, "..");
    if (dots) { /* A..B: the excluded side, as named */
        char from[256];
        snprintf(from, sizeof from, "%.*s", (int)(dots - range), range);
        sunset_error_set(rp->error, "history: '%s': this clone is shallow and its history ends at %.12s, before %s; "
                         "fetch the rest: %s", range, last, from, fetch_hint(rp, from, hint, sizeof hint));
    } else {
        char deeper[300];
        size_t have = newest_first->n;
        snprintf(deeper, sizeof deeper, "%s~%ld", range, max ? max - (long)have : 1);
        sunset_error_set(rp->error, "history: %s: this clone is shallow: it holds %zu of the %s first-parent commits "
                         "asked for (its history ends at %.12s); fetch the rest: %s; or ask for fewer (--max-count %zu)",
                         range, have, since ? "--since" : max == 100 ? "last 100" : "--max-count", last,
                fetch_hint(rp, deeper, hint, sizeof hint), have);
    }
    return -1;
}

/* A revision or range that does not resolve: which side, and how to fetch it. */
static void unresolved(replay *rp, const char *range) {
    const git_error *ge = git_error_last();
    char why[256], side[256], hint[512];
    snprintf(why, sizeof why, "%s", ge && ge->message ? ge->message : "not a revision");
    snprintf(side, sizeof side, "%s", range);
    const char *dots = strstr(range, "..");
    if (dots) {
        git_object *o = NULL;
        snprintf(side, sizeof side, "%.*s", (int)(dots - range), range);
        if (side[0] && git_revparse_single(&o, rp->repo, side) == 0) { /* the left side is here */
            git_object_free(o);
            snprintf(side, sizeof side, "%s", dots + (dots[2] == '.' ? 3 : 2));
        }
    }
    if (!side[0] || (git_repository_is_shallow(rp->repo) != 1 && !strchr(side, '/'))) {
        sunset_error_set(rp->error, "history: '%s': %s", range, why);
        return;
    }
    sunset_error_set(rp->error, "history: '%s': %s is not in this clone (%s); fetch it: %s", range, side, why,
                     fetch_hint(rp, side, hint, sizeof hint));
}

/* Appends the PR numbers ("#123") of a subject to *prs. */
static void subject_prs(const char *subject, vec *prs) {
    for (const char *p = subject; p && (p = strchr(p, '#')); p++) {
        char *end;
        long v = strtol(p + 1, &end, 10);
        if (end > p + 1 && p[1] >= '0' && p[1] <= '9' && v > 0) vec_push(prs, &v);
    }
}

/* What a commit's change is attributed to: the PR its subject names (the last "#N"); for a
 * merge commit naming none, the PRs of the commits it brings in (reachable from its other
 * parents, not from the first), newest first, each once. 0, or -1 on OOM. */
static int commit_prs(git_repository *repo, git_commit *cm, const char *summary, history_sample *smp) {
    vec prs = VEC_INIT(long);
    if (smp->pr > 0) {
        if (!vec_push(&prs, &smp->pr)) return -1;
    } else if (git_commit_parentcount(cm) > 1) {
        git_revwalk *w = NULL;
        git_oid id;
        if (git_revwalk_new(&w, repo) == 0 && git_revwalk_hide(w, git_commit_parent_id(cm, 0)) == 0) {
            for (unsigned k = 1; k < git_commit_parentcount(cm); k++) git_revwalk_push(w, git_commit_parent_id(cm, k));
            git_revwalk_sorting(w, GIT_SORT_TOPOLOGICAL | GIT_SORT_TIME);
            while (git_revwalk_next(&id, w) == 0) {
                git_commit *c = NULL;
                if (git_commit_lookup(&c, repo, &id) != 0) continue;
                size_t before = prs.n;
                subject_prs(git_commit_summary(c), &prs);
                /* each PR once: the merged branch may name it in several commits */
                for (size_t i = before; i < prs.n; i++)
                    for (size_t j = 0; j < before; j++)
                        if (VEC_AT(&prs, long, j) == VEC_AT(&prs, long, i)) {
                            VEC_AT(&prs, long, i--) = VEC_AT(&prs, long, --prs.n);
                            break;
                        }
                git_commit_free(c);
            }
        }
        git_revwalk_free(w);
        if (prs.n) smp->pr = VEC_AT(&prs, long, 0);
    }
    (void)summary;
    smp->prs = prs.n ? (long *)prs.v : NULL;
    smp->n_prs = prs.n;
    if (!prs.n) vec_free(&prs);
    return 0;
}

/* The first-parent commits of the range, oldest first, after --since/--max-count/--every. */
static int select_commits(replay *rp, const char *range, vec *out) {
    const history_opts *c = rp->o;
    git_revwalk *walk = NULL;
    vec newest_first = VEC_INIT(git_oid), hidden = VEC_INIT(git_oid);
    int rc = -1;
    if (git_revwalk_new(&walk, rp->repo) != 0) goto cleanup;
    git_revwalk_sorting(walk, GIT_SORT_TOPOLOGICAL | GIT_SORT_TIME);
    git_revwalk_simplify_first_parent(walk);
    git_revspec spec;
    if (git_revparse(&spec, rp->repo, range) != 0) {
        unresolved(rp, range);
        goto cleanup;
    }
    bool is_range = spec.flags & GIT_REVSPEC_RANGE;
    git_oid tip = *git_object_id(is_range ? spec.to : spec.from), from = *git_object_id(spec.from);
    git_object_free(spec.from);
    git_object_free(spec.to);
    int64_t since = 0;
    if (c->since && !parse_date(c->since, &since)) {
        sunset_error_set(rp->error, "--since takes a date YYYY-MM-DD, not '%s'", c->since);
        goto cleanup;
    }
    /* default: the last 100 first-parent commits when neither a range nor --since bounds
     * the walk (a cut is noted below) */
    bool default_cap = c->max_count <= 0 && !strstr(range, "..") && !since;
    long max = c->max_count > 0 ? c->max_count : default_cap ? 100 : 0;
    bool cut = false; /* --since or --max-count ended the walk before the range's start */
    if (git_repository_is_shallow(rp->repo) == 1) {
        if (is_range && !reachable(rp->repo, &from, &hidden)) goto cleanup;
        if (shallow_walk(rp, range, &tip, &hidden, max, since, &newest_first, &cut)) goto cleanup;
    } else {
        git_revwalk_push(walk, &tip);
        if (is_range) git_revwalk_hide(walk, &from);
        git_oid id;
        int r;
        while ((r = git_revwalk_next(&id, walk)) == 0) {
            if (since) {
                git_commit *cm = NULL;
                if (git_commit_lookup(&cm, rp->repo, &id) == 0) {
                    bool older = git_commit_time(cm) < since;
                    git_commit_free(cm);
                    if (older) {
                        cut = true;
                        break;
                    }
                }
            }
            if (!vec_push(&newest_first, &id)) goto cleanup;
            if (max && (long)newest_first.n >= max) {
                git_oid more;
                cut = true;
                if (default_cap && !c->quiet && git_revwalk_next(&more, walk) == 0)
                    sunset_note("sunset: history: the last 100 commits of %s (the default without a range "
                                    "or --since); --max-count N or A..B for more\n", range);
                break;
            }
        }
        if (r != 0 && r != GIT_ITEROVER) { /* a missing object: not an empty history */
            const git_error *ge = git_error_last();
            sunset_error_set(rp->error, "history: '%s': %s", range, ge && ge->message ? ge->message : "walk failed");
            goto cleanup;
        }
    }
    /* A..B: A itself is the first sample, the state the range starts from, so the change of
     * the range's first commit is a step like any other (not the chart's starting level) */
    if (is_range && !cut && !vec_push(out, &from)) goto cleanup;
    rp->baseline = is_range && !cut;
    rp->from = from;
    long every = c->every > 0 ? c->every : 1;
    /* oldest first; every Nth counting from the newest, which is always kept */
    for (size_t i = newest_first.n; i-- > 0;) {
        if (i % (size_t)every) continue; /* i history_counts from the newest (0) */
        if (!vec_push(out, &VEC_AT(&newest_first, git_oid, i))) goto cleanup;
    }
    rc = 0;
cleanup:
    vec_free(&newest_first);
    vec_free(&hidden);
    git_revwalk_free(walk);
    return rc;
}

/* Does the commit's tree hold `path` (a file or a directory)? */
static bool tree_has(void *ud, const char *path) {
    git_tree_entry *te = NULL;
    bool yes = git_tree_entry_bypath(&te, ud, path) == 0;
    git_tree_entry_free(te);
    return yes;
}

/* The progress line on a terminal: commit i of n and the day the replay has reached, at most
 * about 200 updates however long the range (a line per commit of a 2,000-commit range was
 * most of what the terminal drew). */
static void progress(const history_opts *o, size_t i, size_t n, const history_sample *smp) {
    size_t step = n / 200 ? n / 200 : 1;
    if (!o->progress || ((i + 1) % step && i + 1 != n)) return;
    char date[32];
    history_iso_date(smp->time, smp->tz_minutes, date, sizeof date);
    sunset_note("\rsunset: history %zu/%zu commits (%.10s)", i + 1, n, date);
}

/* Replay the selected commits: the first tree whole, then tree-to-tree diffs. */
static int replay_commits(replay *rp, const history_opts *o, const vec *ids, vec *out) {
    git_tree *prev = NULL;
    int rc = -1;
    for (size_t i = 0; i < ids->n; i++) {
        git_commit *cm = NULL;
        git_tree *tree = NULL;
        if (git_commit_lookup(&cm, rp->repo, &VEC_AT(ids, git_oid, i)) != 0 || git_commit_tree(&tree, cm) != 0) {
            git_commit_free(cm);
            sunset_error_set(rp->error, "history: cannot read commit %zu of the range", i);
            goto cleanup;
        }
        tree_walk tw = {rp, ""};
        bool paddle_tree = sunset_engine_set_tree(rp->e, tree_has, tree);
        bool flipped = paddle_tree != rp->paddle_tree;
        rp->paddle_tree = paddle_tree;
        int r = prev ? apply_diff(rp, prev, tree)
                     : git_tree_walk(tree, GIT_TREEWALK_PRE, tree_cb, &tw) || rp->err ? -1 : resolve_links(rp, tree);
        /* the tree became Paddle's own or stopped being it: every file counts anew */
        if (r == 0 && !rp->err && prev && flipped)
            r = git_tree_walk(tree, GIT_TREEWALK_PRE, tree_cb, &tw) || rp->err ? -1 : resolve_links(rp, tree);
        if (r != 0 || rp->err) {
            git_tree_free(tree);
            git_commit_free(cm);
            /* the blob's or tree's own message, said first, stays the one shown */
            if (!rp->error || !rp->error->msg[0])
                sunset_error_set(rp->error, "history: failed while replaying commit %zu", i);
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
            .baseline = rp->baseline && git_oid_equal(&VEC_AT(ids, git_oid, i), &rp->from),
        };
        int prc = commit_prs(rp->repo, cm, summary, &smp);
        git_commit_free(cm);
        if (prc || !smp.subject || !vec_push(out, &smp)) {
            sunset_free(smp.subject);
            sunset_free(smp.prs);
            goto cleanup;
        }
        /* what a scan freed stays in glibc's heap, in holes the next allocations do not
         * fill: handed back every 32 samples, a long replay's peak stays near its first
         * tree's (742e3d0a1d..1eb6d50e49 on Paddle: 2 MB less, 0.1 s more CPU) */
        if (i % 32 == 0) sunset_heap_trim();
        progress(o, i, ids->n, &VEC_AT(out, history_sample, out->n - 1));
    }
    if (o->progress) sunset_note("\r\033[K");
    rc = 0;
cleanup:
    git_tree_free(prev);
    return rc;
}

int history_replay(sunset_engine *e, const sunset_checkout *co, const char *range, const history_opts *o,
                   vec *out, history_stats *st, sunset_error *err) {
    replay rp = {.o = o, .counts = VEC_INIT(history_counts), .e = e, .repo = co->repo, .error = err};
    vec ids = VEC_INIT(git_oid);
    int rc = -1;
    history_counts none = {0};
    if (!vec_push(&rp.counts, &none)) return -1;
    sunset_git_init();
    /* the object cache and the pack windows are bounded for the process (base/git.c): a
     * replay reads each blob once, and since the diffs open only the trees that changed, the
     * cache serves nearly nothing (Paddle's 345-commit window: 8 MB cache and 32 MB of
     * windows peaked at 143 MB RSS, 2 MB and 8 MB at 135 MB, same CPU; a 64 KB cache took
     * the 1,800-commit replay 742e3d0a1d..1eb6d50e49 from 107 to 103 MB) */
    /* libgit2 re-hashes every object it inflates (a fifth of a Paddle replay's CPU); git
     * itself trusts its object store on read, and so does the replay */
    git_libgit2_opts(GIT_OPT_ENABLE_STRICT_HASH_VERIFICATION, 0);
    if (!rp.repo) {
        sunset_error_set(err, "%s: not a git repository", co->display ? co->display : co->root);
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
    if (st) *st = (history_stats){rp.blobs_scanned, rp.blobs_cached, rp.trees_read};
    rc = 0;
cleanup:
    vec_free(&ids);
    table_free(&rp.state);
    sunset_free(rp.cache.slots);
    table_free(&rp.tagged);
    table_free(&rp.links);
    vec_free(&rp.counts);
    sunset_worker_free(rp.w);
    return rc;
}

void history_samples_free(vec *samples) {
    for (size_t i = 0; i < samples->n; i++) {
        sunset_free(VEC_AT(samples, history_sample, i).subject);
        sunset_free(VEC_AT(samples, history_sample, i).prs);
    }
    vec_free(samples);
}
