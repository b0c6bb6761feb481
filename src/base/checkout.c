/*
 * checkout.c — the command's place, resolved once (checkout.h).
 */
#include "base/checkout.h"

#include <errno.h>
#include <fcntl.h>
#include <git2.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/git.h"
#include "base/gitindex.h"

static char *dupstr(const char *s) { return sunset_strndup(s, strlen(s)); }

/* root (absolute, resolved) as a path relative to cwd (absolute, resolved), "../" included,
 * with a trailing '/' unless empty. */
static void relative_to(sb *p, const char *cwd, const char *root) {
    size_t k = 0, common = 0;
    while (cwd[k] && cwd[k] == root[k]) {
        k++;
        if (cwd[k - 1] == '/') common = k;
    }
    if ((cwd[k] == 0 || cwd[k] == '/') && (root[k] == 0 || root[k] == '/')) common = k;
    for (const char *q = cwd + common; *q;) {
        while (*q == '/') q++;
        if (!*q) break;
        sb_puts(p, "../");
        while (*q && *q != '/') q++;
    }
    const char *rest = root + common;
    while (*rest == '/') rest++;
    if (*rest) sb_printf(p, "%s/", rest);
}

static bool all_relative(const sunset_checkout_req *req) {
    for (size_t i = 0; i < req->n_paths; i++)
        if (req->paths[i][0] == '/') return false;
    return true;
}

/* The prefix that turns a root-relative path into the one the user would type to open the
 * file, as gcc, rg and ruff print it: relative to the current directory when the root is
 * inside it (or, for the gate, above it); else the PATH as given (its directory, for a
 * file), or for several PATHs their common root, relative when they were all given relative.
 * --root keeps paths relative to DIR, as documented. */
static char *shown_prefix(const sunset_checkout_req *req, const char *root, bool widened) {
    char here[PATH_MAX], cwd[PATH_MAX];
    sb p = {0};
    if (req->root) return dupstr("");
    size_t cl = getcwd(here, sizeof here) && realpath(here, cwd) ? strlen(cwd) : 0;
    bool rel = cl > 0 && all_relative(req);
    if (cl && strncmp(root, cwd, cl) == 0 && (root[cl] == 0 || root[cl] == '/' || cl == 1)) {
        relative_to(&p, cwd, root);
    } else if (widened) {
        if (rel) relative_to(&p, cwd, root);
        else sb_printf(&p, "%s/", strcmp(root, "/") ? root : "");
    } else if (req->n_paths == 1) {
        const char *given = req->paths[0];
        struct stat st;
        size_t n = strlen(given);
        if (stat(given, &st) == 0 && !S_ISDIR(st.st_mode)) {
            const char *sl = strrchr(given, '/');
            n = sl ? (size_t)(sl - given) + 1 : 0;
        }
        sb_putn(&p, given, n);
        if (p.len && p.s[p.len - 1] != '/') sb_putc(&p, '/');
    } else if (rel) {
        relative_to(&p, cwd, root);
    } else {
        sb_printf(&p, "%s/", strcmp(root, "/") ? root : "");
    }
    if (p.oom) return NULL;
    return p.s ? sb_take(&p) : dupstr("");
}

/* The common ancestor directory of every PATH (a file's directory) into root. */
static int common_root(const sunset_checkout_req *req, char root[PATH_MAX], char *err, size_t errn) {
    char real[PATH_MAX];
    root[0] = 0;
    for (size_t i = 0; i < req->n_paths; i++) {
        const char *p = req->paths[i];
        struct stat st;
        if (!realpath(p, real) || stat(real, &st) != 0) {
            snprintf(err, errn, "%s: %s", p, strerror(errno));
            return EXIT_USAGE;
        }
        if (!S_ISDIR(st.st_mode)) {
            char *sl = strrchr(real, '/');
            if (sl && sl != real) *sl = 0;
            else strcpy(real, "/");
        }
        if (!root[0]) {
            strcpy(root, real);
            continue;
        }
        size_t k = 0;
        while (root[k] && root[k] == real[k]) k++;
        if (!(root[k] == 0 && (real[k] == '/' || real[k] == 0))) {
            while (k > 0 && root[k] != '/') k--;
            root[k ? k : 1] = 0;
        }
    }
    return EXIT_OK;
}

/* The repository around co->root, its top and the root's prefix below it. */
static void open_repo(sunset_checkout *co, git_repository *borrow) {
    char top[PATH_MAX];
    if (borrow) {
        co->repo = borrow;
        co->borrowed = true;
    } else if (sunset_git_open(&co->repo, co->root, 0)) {
        co->repo = NULL;
        return;
    }
    const char *wd = git_repository_workdir(co->repo);
    size_t n;
    if (git_repository_is_bare(co->repo) || !wd || !realpath(wd, top) ||
        strncmp(co->root, top, (n = strlen(top))) != 0 || (co->root[n] != 0 && co->root[n] != '/'))
        return; /* a repository, but the root is in no work tree of it */
    const char *rest = co->root + n + (co->root[n] == '/');
    sb p = {0};
    sb_puts(&p, rest);
    if (p.len && p.s[p.len - 1] != '/') sb_putc(&p, '/');
    co->prefix = p.oom ? NULL : p.s ? sb_take(&p) : dupstr("");
    co->top = co->prefix ? dupstr(top) : NULL;
}

/* Each PATH relative to the root, into co->starts. */
static int make_starts(sunset_checkout *co, const sunset_checkout_req *req, char *err, size_t errn) {
    char real[PATH_MAX];
    size_t rl = strlen(co->root);
    for (size_t i = 0; i < req->n_paths; i++) {
        const char *p = req->paths[i];
        if (!realpath(p, real)) {
            snprintf(err, errn, "%s: %s", p, strerror(errno));
            return EXIT_USAGE;
        }
        const char *rel;
        if (strcmp(real, co->root) == 0) rel = "";
        else if (strncmp(real, co->root, rl) == 0 && (real[rl] == '/' || rl == 1)) rel = real + rl + (rl > 1);
        else {
            snprintf(err, errn, "%s: not under the root %s", p, req->root ? req->root : co->root);
            return EXIT_USAGE;
        }
        char *dup = dupstr(rel);
        if (!dup || !vec_push(&co->starts, &dup)) {
            sunset_free(dup);
            snprintf(err, errn, "out of memory");
            return EXIT_USAGE;
        }
    }
    return EXIT_OK;
}

/* The start paths and the shown prefix for co->root. */
static int place(sunset_checkout *co, const sunset_checkout_req *req, bool widened, char *err, size_t errn) {
    int rc = make_starts(co, req, err, errn);
    if (rc) return rc;
    if ((co->shown = shown_prefix(req, co->root, widened))) return EXIT_OK;
    snprintf(err, errn, "out of memory");
    return EXIT_USAGE;
}

int sunset_checkout_open(sunset_checkout *co, const sunset_checkout_req *req0, char *err, size_t errn) {
    static const char *const dot[] = {"."};
    sunset_checkout_req req = *req0;
    char root[PATH_MAX];
    memset(co, 0, sizeof *co);
    co->starts = VEC_INIT(char *);
    co->open = true;
    if (!req.n_paths) req.paths = dot, req.n_paths = 1;
    if (req.root) {
        if (!realpath(req.root, root)) {
            snprintf(err, errn, "%s: %s", req.root, strerror(errno));
            return EXIT_USAGE;
        }
        co->display = dupstr(req.root);
    } else {
        int rc = common_root(&req, root, err, errn);
        if (rc) return rc;
        struct stat st;
        bool single_dir = req.n_paths == 1 && stat(req.paths[0], &st) == 0 && S_ISDIR(st.st_mode);
        co->display = dupstr(single_dir ? req.paths[0] : root);
    }
    co->root = dupstr(root);
    if (!co->root || !co->display) goto oom;
    sunset_git_init();
    open_repo(co, req.repo);
    return place(co, &req, false, err, errn);
oom:
    snprintf(err, errn, "out of memory");
    return EXIT_USAGE;
}

/* The tree's root for the gate: the nearest directory from the root up to the work tree's
 * top that is_root accepts, else the top. */
static char *tree_root(const sunset_checkout *co, sunset_tree_root_fn is_root, void *ud) {
    size_t tl = strlen(co->top);
    char *dir = dupstr(co->root);
    if (!dir) return NULL;
    for (size_t n = strlen(dir); n > tl; n--) {
        if (dir[n] != '/' && dir[n] != 0) continue;
        dir[n] = 0;
        if (is_root && is_root(ud, dir)) return dir;
    }
    sunset_free(dir);
    return dupstr(co->top);
}

int sunset_checkout_reroot(sunset_checkout *co, const sunset_checkout_req *req0, sunset_tree_root_fn is_root, void *ud,
                           char *err, size_t errn) {
    static const char *const dot[] = {"."};
    sunset_checkout_req req = *req0;
    if (!req.n_paths) req.paths = dot, req.n_paths = 1;
    if (req.root || !co->top || !co->prefix) return EXIT_OK;
    char *root = tree_root(co, is_root, ud);
    if (!root) goto oom;
    if (!strcmp(root, co->root)) {
        sunset_free(root);
        return EXIT_OK;
    }
    /* the gate judges the tree: its paths are the tree's, whatever the PATHs */
    char here[PATH_MAX], cwd[PATH_MAX];
    sb d = {0}, p = {0};
    if (getcwd(here, sizeof here) && realpath(here, cwd) && all_relative(&req)) relative_to(&d, cwd, root);
    else sb_puts(&d, root);
    if (d.len > 1 && d.s[d.len - 1] == '/') d.s[--d.len] = 0;
    if (!d.len) sb_puts(&d, ".");
    size_t tl = strlen(co->top);
    sb_puts(&p, root[tl] ? root + tl + 1 : "");
    if (p.len) sb_putc(&p, '/');
    if (!p.s) sb_puts(&p, "");
    if (d.oom || p.oom) {
        sb_free(&d);
        sb_free(&p);
        sunset_free(root);
        goto oom;
    }
    sunset_free(co->display);
    sunset_free(co->root);
    sunset_free(co->prefix);
    sunset_free(co->shown);
    for (size_t i = 0; i < co->starts.n; i++) sunset_free(VEC_AT(&co->starts, char *, i));
    co->starts.n = 0;
    co->display = sb_take(&d);
    co->prefix = sb_take(&p);
    co->root = root;
    return place(co, &req, true, err, errn);
oom:
    snprintf(err, errn, "out of memory");
    return EXIT_USAGE;
}

void sunset_checkout_close(sunset_checkout *co) {
    if (!co || !co->open) return;
    for (size_t i = 0; i < co->starts.n; i++) sunset_free(VEC_AT(&co->starts, char *, i));
    vec_free(&co->starts);
    sunset_free(co->root);
    sunset_free(co->display);
    sunset_free(co->shown);
    sunset_free(co->top);
    sunset_free(co->prefix);
    if (!co->borrowed) git_repository_free(co->repo);
    memset(co, 0, sizeof *co);
}

git_repository *sunset_checkout_repo_for(const sunset_checkout *co, const char *abs_path) {
    if (!co || !co->repo || !co->top || !abs_path) return NULL;
    size_t n = strlen(co->top);
    return strncmp(abs_path, co->top, n) == 0 && (abs_path[n] == 0 || abs_path[n] == '/') ? co->repo : NULL;
}

static int cmp_cstr(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* The index's paths through libgit2: for an index gitindex.c leaves to it. */
static int tracked_by_libgit2(const sunset_checkout *co, vec *out) {
    git_index *idx = NULL;
    if (git_repository_index(&idx, co->repo)) return 0;
    size_t ol = strlen(co->prefix), n = git_index_entrycount(idx);
    size_t first = out->n;
    int rc = 0;
    for (size_t i = 0; i < n && !rc; i++) {
        const git_index_entry *e = git_index_get_byindex(idx, i);
        if (!e || e->mode == GIT_FILEMODE_COMMIT || strncmp(e->path, co->prefix, ol) != 0) continue;
        const char *p = e->path + ol;
        /* a conflicted path has one entry per stage, adjacent: keep one */
        if (out->n > first && strcmp(VEC_AT(out, char *, out->n - 1), p) == 0) continue;
        char *d = dupstr(p);
        if (!d || !vec_push(out, &d)) {
            sunset_free(d);
            rc = -1;
        }
    }
    git_index_free(idx);
    return rc;
}

int sunset_checkout_tracked(const sunset_checkout *co, vec *out) {
    if (!co || !co->repo || !co->prefix) return 0;
    size_t first = out->n;
    sb ipath = {0};
    sb_printf(&ipath, "%sindex", git_repository_path(co->repo));
    if (ipath.oom) return -1;
    int rc = sunset_gitindex_paths(ipath.s, co->prefix, out);
    sb_free(&ipath);
    if (rc > 0) rc = tracked_by_libgit2(co, out);
    if (rc) return rc;
    /* the index holds its entries in path order already (unless core.ignorecase has libgit2
     * sort them case-folded): a check of each pair, not a merge sort of the tree's paths */
    size_t m = out->n - first, k = 1;
    if (m < 2) return rc;
    char **v = (char **)out->v + first;
    while (k < m && strcmp(v[k - 1], v[k]) <= 0) k++;
    if (k < m) qsort(v, m, sizeof(char *), cmp_cstr);
    return rc;
}

int sunset_checkout_tree_at(const sunset_checkout *co, const char *rev, git_tree **tree, char *err, size_t errn) {
    git_object *obj = NULL;
    *tree = NULL;
    if (!co->repo || !co->top) {
        snprintf(err, errn, "%s: not inside a git work tree", co->root ? co->root : ".");
        return -1;
    }
    if (git_revparse_single(&obj, co->repo, rev)) {
        const git_error *e = git_error_last();
        char why[256], hint[512];
        snprintf(why, sizeof why, "%s", e && e->message ? e->message : "not found");
        sunset_git_fetch_hint(co->repo, rev, true, hint, sizeof hint); /* the base's tree is enough */
        snprintf(err, errn, "%s: no such revision in this clone (%s); fetch it first: %s", rev, why, hint);
        return -1;
    }
    int rc = git_object_peel((git_object **)tree, obj, GIT_OBJECT_TREE);
    if (rc) {
        const git_error *e = git_error_last();
        snprintf(err, errn, "%s: %s", rev, e && e->message ? e->message : "not a tree");
    }
    git_object_free(obj);
    return rc ? -1 : 0;
}

int sunset_checkout_read_at(const sunset_checkout *co, const char *rev, const char *toprel, char **data,
                            size_t *len, char *err, size_t errn) {
    git_tree *tree = NULL;
    git_tree_entry *ent = NULL;
    git_blob *blob = NULL;
    int rc = -1;
    *data = NULL;
    *len = 0;
    if (sunset_checkout_tree_at(co, rev, &tree, err, errn)) return -1;
    if (git_tree_entry_bypath(&ent, tree, toprel)) {
        rc = 1;
        goto cleanup;
    }
    if (git_tree_entry_type(ent) != GIT_OBJECT_BLOB || git_blob_lookup(&blob, co->repo, git_tree_entry_id(ent))) {
        snprintf(err, errn, "%s at %s: not a file", toprel, rev);
        goto cleanup;
    }
    *len = (size_t)git_blob_rawsize(blob);
    if (!(*data = sunset_strndup(git_blob_rawcontent(blob), *len))) {
        snprintf(err, errn, "out of memory");
        goto cleanup;
    }
    rc = 0;
cleanup:
    git_blob_free(blob);
    git_tree_entry_free(ent);
    git_tree_free(tree);
    return rc;
}

char *sunset_checkout_toprel(const sunset_checkout *co, const char *path) {
    char real[PATH_MAX];
    sb abs = {0};
    if (!co->top) return NULL;
    if (realpath(path, real)) sb_puts(&abs, real);
    else if (path[0] == '/') sb_puts(&abs, path);
    else if (getcwd(real, sizeof real)) sb_printf(&abs, "%s/%s", real, path);
    size_t tl = strlen(co->top);
    char *r = NULL;
    if (abs.s && strncmp(abs.s, co->top, tl) == 0 && abs.s[tl] == '/') r = dupstr(abs.s + tl + 1);
    sb_free(&abs);
    return r;
}

/* Would git take the file as unchanged from its index entry without reading it (racy-clean
 * rules against the index file's mtime im)? */
static bool entry_clean(const git_index_entry *e, const struct stat *st, const struct timespec *im) {
    if (GIT_INDEX_ENTRY_STAGE(e) != 0 || (e->flags & GIT_INDEX_ENTRY_VALID) ||
        (e->flags_extended & (GIT_INDEX_ENTRY_SKIP_WORKTREE | GIT_INDEX_ENTRY_INTENT_TO_ADD)))
        return false;
    if ((e->mode != GIT_FILEMODE_BLOB && e->mode != GIT_FILEMODE_BLOB_EXECUTABLE) || !S_ISREG(st->st_mode))
        return false;
    if ((e->mode == GIT_FILEMODE_BLOB_EXECUTABLE) != ((st->st_mode & S_IXUSR) != 0)) return false;
    if (e->file_size != (uint32_t)st->st_size || e->ino != (uint32_t)st->st_ino ||
        e->dev != (uint32_t)st->st_dev || e->uid != (uint32_t)st->st_uid || e->gid != (uint32_t)st->st_gid)
        return false;
    if (e->mtime.seconds != (int32_t)st->st_mtim.tv_sec || e->mtime.nanoseconds != (uint32_t)st->st_mtim.tv_nsec ||
        e->ctime.seconds != (int32_t)st->st_ctim.tv_sec || e->ctime.nanoseconds != (uint32_t)st->st_ctim.tv_nsec)
        return false;
    /* racily clean: written no earlier than the index, so a later change of the same size
     * within the timestamp's granularity is invisible to the stat data */
    return (int64_t)e->mtime.seconds < (int64_t)im->tv_sec ||
           ((int64_t)e->mtime.seconds == (int64_t)im->tv_sec && e->mtime.nanoseconds < (uint32_t)im->tv_nsec);
}

uint64_t sunset_stat_stamp(const struct stat *st) {
    uint64_t v[10] = {(uint64_t)st->st_mode, (uint64_t)st->st_size, (uint64_t)st->st_ino, (uint64_t)st->st_dev,
                      (uint64_t)st->st_uid, (uint64_t)st->st_gid, (uint64_t)st->st_mtim.tv_sec,
                      (uint64_t)st->st_mtim.tv_nsec, (uint64_t)st->st_ctim.tv_sec, (uint64_t)st->st_ctim.tv_nsec};
    uint64_t h = hash64(v, sizeof v, 0x6a09e667f3bcc908ull);
    return h ? h : 1;
}

/* lstat of root/file through a descriptor of its directory, kept while the files (sorted)
 * stay in it: a path walk from the root for each of a tree's files was half the cost. */
typedef struct dir_at {
    int fd;          /* -1: none open */
    bool have;       /* dir names the directory fd is of (or failed to open) */
    sb dir, path;
} dir_at;

static int lstat_at(dir_at *d, const char *root, const char *file, struct stat *st) {
    const char *slash = strrchr(file, '/');
    size_t dl = slash ? (size_t)(slash - file) : 0;
    if (!d->have || d->dir.len != dl || memcmp(d->dir.s ? d->dir.s : "", file, dl) != 0) {
        if (d->fd >= 0) close(d->fd);
        d->dir.len = d->path.len = 0;
        sb_putn(&d->dir, file, dl);
        sb_printf(&d->path, "%s/%.*s", root, (int)dl, file);
        d->fd = d->dir.oom || d->path.oom ? -1 : open(d->path.s, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        d->have = !d->dir.oom;
    }
    if (d->fd < 0) return -1;
    return fstatat(d->fd, slash ? slash + 1 : file, st, AT_SYMLINK_NOFOLLOW);
}

size_t sunset_checkout_blob_ids(const sunset_checkout *co, char *const *files, size_t n, uint64_t *ids,
                                uint64_t *stamps) {
    memset(ids, 0, n * sizeof *ids);
    if (stamps) memset(stamps, 0, n * sizeof *stamps);
    git_index *idx = NULL;
    if (!co || !co->repo || !co->prefix || !co->root || git_repository_index(&idx, co->repo)) return 0;
    struct stat ist;
    const char *ipath = git_index_path(idx);
    size_t known = 0;
    sb rel = {0};
    dir_at d = {-1, false, {0}, {0}};
    if (ipath && stat(ipath, &ist) == 0) {
        for (size_t i = 0; i < n; i++) {
            rel.len = 0;
            sb_printf(&rel, "%s%s", co->prefix, files[i]);
            if (rel.oom) break;
            const git_index_entry *e = git_index_get_bypath(idx, rel.s, 0);
            struct stat st;
            if (!e || lstat_at(&d, co->root, files[i], &st) != 0 || !entry_clean(e, &st, &ist.st_mtim)) continue;
            uint64_t id;
            memcpy(&id, e->id.id, sizeof id);
            ids[i] = id ? id : 1;
            if (stamps) stamps[i] = sunset_stat_stamp(&st);
            known++;
        }
    }
    if (d.fd >= 0) close(d.fd);
    sb_free(&d.dir);
    sb_free(&d.path);
    sb_free(&rel);
    git_index_free(idx);
    return known;
}
