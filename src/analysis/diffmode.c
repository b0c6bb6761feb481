/*
 * diffmode.c — the change a pull request makes, read through libgit2 rather than by running
 * git: tree(REV) against the work tree with the index (so staged, unstaged and untracked files
 * all count) to know which files changed, rename detection (untracked files too), then per
 * file the old blob and the added lines' new line numbers, diffed from the bytes the scan reads
 * so that .gitattributes has no say. Gitlinks (submodules) are no files: only their paths are
 * kept. Paths are made relative to the scan root; files outside it are left out.
 */
#include "analysis/diffmode.h"

#include <errno.h>
#include <git2.h>
#include <git2/sys/filter.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "base/git.h"
#include "core/result.h"
#include "core/walk.h"

#include <git2/sys/mempack.h>
#include <git2/sys/odb_backend.h>
#include <sys/stat.h>
#include <unistd.h>

static void git_err(char *err, size_t n, const char *what) {
    const git_error *e = git_error_last();
    snprintf(err, n, "%s: %s", what, e && e->message ? e->message : "unknown libgit2 error");
}

/* A repository path made root-relative; NULL when outside the root. */
static char *rel(const char *prefix, const char *path) {
    size_t n = strlen(prefix);
    if (!path || strncmp(path, prefix, n) != 0) return NULL;
    return sunset_strndup(path + n, strlen(path + n));
}

static void file_free(diff_file *f) {
    sunset_free(f->path);
    sunset_free(f->old_path);
    sunset_free(f->old_data);
    sunset_free(f->added);
    sunset_free(f->new_data);
}

void diff_set_free(diff_set *d) {
    for (size_t i = 0; i < d->n; i++) file_free(&d->files[i]);
    sunset_free(d->files);
    d->files = NULL;
    d->n = 0;
    for (size_t i = 0; i < d->submodules.n; i++) sunset_free(VEC_AT(&d->submodules, char *, i));
    vec_free(&d->submodules);
}

bool diff_line_added(const diff_file *f, uint32_t line) {
    if (f->all_added) return true;
    size_t lo = 0, hi = f->n_added;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (f->added[mid] == line) return true;
        if (f->added[mid] < line) lo = mid + 1;
        else hi = mid;
    }
    return false;
}

static int add_lines(git_patch *patch, diff_file *f) {
    vec lines = VEC_INIT(uint32_t);
    size_t nh = git_patch_num_hunks(patch);
    for (size_t h = 0; h < nh; h++) {
        const git_diff_hunk *hunk;
        size_t nl;
        if (git_patch_get_hunk(&hunk, &nl, patch, h)) continue;
        for (size_t l = 0; l < nl; l++) {
            const git_diff_line *line;
            if (git_patch_get_line_in_hunk(&line, patch, h, l)) continue;
            if (line->origin != GIT_DIFF_LINE_ADDITION || line->new_lineno <= 0) continue;
            uint32_t n = (uint32_t)line->new_lineno;
            if (!vec_push(&lines, &n)) {
                vec_free(&lines);
                return -1;
            }
        }
    }
    f->added = lines.v; /* hunks come in order, so the lines are ascending */
    f->n_added = lines.n;
    return 0;
}

/* A copy of data with the CR of each CRLF dropped (line numbers do not move), so a checkout's
 * eol conversion is not an edit of every line; NULL on OOM. */
static char *without_cr_at_eol(const char *data, size_t len, size_t *out_len) {
    char *s = sunset_malloc(len + 1);
    if (!s) return NULL;
    size_t n = 0;
    for (size_t i = 0; i < len; i++)
        if (!(data[i] == '\r' && i + 1 < len && data[i + 1] == '\n')) s[n++] = data[i];
    s[n] = 0;
    *out_len = n;
    return s;
}

/* The lines `now` adds to `before`, from the bytes themselves: no path is given, so no
 * .gitattributes (-diff, binary, diff=, a driver's textconv) decides how the change reads, and
 * the text is forced (a NUL or control bytes do not make it a binary without hunks). */
static int added_between(const char *before, size_t blen, const char *now, size_t nlen,
                         diff_file *f) {
    size_t bl = 0, nl = 0;
    char *b = without_cr_at_eol(before, blen, &bl), *n = without_cr_at_eol(now, nlen, &nl);
    git_diff_options opts;
    git_diff_options_init(&opts, GIT_DIFF_OPTIONS_VERSION);
    opts.flags = GIT_DIFF_FORCE_TEXT;
    opts.context_lines = 0;
    git_patch *patch = NULL;
    int rc = b && n && !git_patch_from_buffers(&patch, b, bl, NULL, n, nl, NULL, &opts) ? 0 : -1;
    if (!rc && patch) rc = add_lines(patch, f);
    git_patch_free(patch);
    sunset_free(b);
    sunset_free(n);
    return rc;
}

static char *blob_text(git_repository *repo, const git_oid *id, size_t *len) {
    git_blob *blob = NULL;
    char *s = NULL;
    if (git_blob_lookup(&blob, repo, id) == 0) {
        *len = (size_t)git_blob_rawsize(blob);
        s = sunset_strndup(git_blob_rawcontent(blob), *len);
        git_blob_free(blob);
    }
    return s;
}

/* ---- the work tree without libgit2's work-tree iterator ----
 * That iterator refuses a tree with a directory nested more than 100 deep ("directory nesting
 * too deep"), which made every --diff-base run of such a tree exit 2. In its place the work
 * tree becomes an in-memory index: the tracked files as they are on disk (the index's blob id
 * where size and mtime still match it, else the content hashed into an in-memory object
 * store, never the repository's), plus the untracked files the walker finds (iterative, any
 * depth, .gitignore honoured, then libgit2's own ignore rules); the tree-to-index diff of that
 * has no depth limit. */

/* The entry for the file at abs as the work tree has it, its blob stored in mp when it is not
 * the index's own; 1 when there is no file there (deleted, or not a file or link). */
static int wt_entry(git_odb_backend *mp, const char *abs, const git_index_entry *old, git_index_entry *e) {
    struct stat st;
    if (lstat(abs, &st) != 0 || !(S_ISREG(st.st_mode) || S_ISLNK(st.st_mode))) return 1;
    uint32_t mode = S_ISLNK(st.st_mode) ? GIT_FILEMODE_LINK
                    : (st.st_mode & S_IXUSR) ? GIT_FILEMODE_BLOB_EXECUTABLE : GIT_FILEMODE_BLOB;
    if (old && old->mode == mode && old->file_size == (uint32_t)st.st_size &&
        old->mtime.seconds == (int32_t)st.st_mtim.tv_sec && old->mtime.nanoseconds == (uint32_t)st.st_mtim.tv_nsec)
        return 0; /* as the index recorded it: its blob id stands */
    char *data = NULL;
    size_t len = 0;
    if (S_ISLNK(st.st_mode)) {
        char buf[PATH_MAX];
        ssize_t n = readlink(abs, buf, sizeof buf);
        if (n < 0 || !(data = sunset_strndup(buf, (size_t)n))) return -1;
        len = (size_t)n;
    } else if (read_file(abs, 0, &data, &len)) {
        return 1; /* gone or unreadable since the lstat: not in the work tree */
    }
    int rc = git_odb_hash(&e->id, data, len, GIT_OBJECT_BLOB) ||
             (!(old && git_oid_equal(&old->id, &e->id)) && mp->write(mp, &e->id, data, len, GIT_OBJECT_BLOB));
    sunset_free(data);
    e->mode = mode;
    e->file_size = (uint32_t)st.st_size;
    return rc ? -1 : 0;
}

/* The work tree under prefix as an in-memory index (*out); its blobs in an in-memory backend of
 * repo's object database. 0, or -1 with a message. */
static int workdir_index(const sunset_checkout *co, git_index **out, char *err, size_t errn) {
    git_repository *repo = co->repo;
    const char *prefix = co->prefix;
    git_index *real = NULL, *wi = NULL;
    git_odb *odb = NULL;
    git_odb_backend *mp = NULL;
    const char *wd = git_repository_workdir(repo);
    vec files = VEC_INIT(char *);
    int rc = -1;
    if (git_repository_index(&real, repo) || git_index_new(&wi) || git_repository_odb(&odb, repo) ||
        git_mempack_new(&mp)) {
        git_err(err, errn, "work tree");
        goto cleanup;
    }
    if (git_odb_add_backend(odb, mp, 999)) { /* first for reads; the odb owns it from here */
        mp->free(mp);
        git_err(err, errn, "work tree");
        goto cleanup;
    }
    sb abs = {0};
    size_t n = git_index_entrycount(real);
    for (size_t i = 0; i < n; i++) {
        const git_index_entry *e = git_index_get_byindex(real, i);
        if (!e || git_index_entry_stage(e) > 0 || strncmp(e->path, prefix, strlen(prefix))) continue;
        git_index_entry ne = *e;
        abs.len = 0;
        sb_printf(&abs, "%s%s", wd, e->path);
        int r = abs.oom ? -1 : e->mode == GIT_FILEMODE_COMMIT ? 0 : wt_entry(mp, abs.s, e, &ne);
        if (r < 0 || (r == 0 && git_index_add(wi, &ne))) goto fail;
    }
    /* the untracked files: what the walker takes under the prefix that the index does not hold */
    /* the walk runs from the top: the checkout's tracked paths, with the root's prefix */
    vec tracked = VEC_INIT(char *);
    int we = sunset_checkout_tracked(co, &tracked) ? ENOMEM : 0;
    for (size_t i = 0; i < tracked.n && !we; i++) {
        char **t = &VEC_AT(&tracked, char *, i), *full = sunset_malloc(strlen(prefix) + strlen(*t) + 1);
        if (full) sprintf(full, "%s%s", prefix, *t);
        else we = ENOMEM;
        sunset_free(*t);
        *t = full;
    }
    walk_opts wo = {true, NULL, 0, NULL, 0, false, &tracked, co->top};
    walk_stats ws = {0};
    sb start = {0};
    sb_putn(&start, prefix, *prefix ? strlen(prefix) - 1 : 0);
    if (!we) we = start.oom ? ENOMEM : walk_tree(wd, start.s ? start.s : "", &wo, &files, &ws, NULL, NULL);
    sb_free(&start);
    for (size_t i = 0; i < tracked.n; i++) sunset_free(VEC_AT(&tracked, char *, i));
    vec_free(&tracked);
    if (we) goto fail;
    for (size_t i = 0; i < files.n; i++) {
        const char *p = VEC_AT(&files, char *, i);
        if (git_index_get_bypath(real, p, 0)) continue;
        /* git's own ignore rules decide what is untracked: nested .gitignore files, the
         * repository's info/exclude and the user's core.excludesFile, which the walk does
         * not read */
        int ignored = 0;
        if (git_ignore_path_is_ignored(&ignored, repo, p) == 0 && ignored) continue;
        git_index_entry ne = {0};
        ne.path = p;
        abs.len = 0;
        sb_printf(&abs, "%s%s", wd, p);
        int r = abs.oom ? -1 : wt_entry(mp, abs.s, NULL, &ne);
        if (r < 0 || (r == 0 && git_index_add(wi, &ne))) goto fail;
    }
    *out = wi;
    wi = NULL;
    rc = 0;
fail:
    if (rc) git_err(err, errn, "work tree");
    sb_free(&abs);
cleanup:
    for (size_t i = 0; i < files.n; i++) sunset_free(VEC_AT(&files, char *, i));
    vec_free(&files);
    git_index_free(wi);
    git_index_free(real);
    git_odb_free(odb);
    return rc;
}

/* Is path untracked (not in repo's index)? For the in-memory index's additions. */
static bool untracked_in(git_repository *repo, const char *path) {
    git_index *idx = NULL;
    bool u = git_repository_index(&idx, repo) == 0 && !git_index_get_bypath(idx, path, 0);
    git_index_free(idx);
    return u;
}

/* The work tree's bytes of a repository path, as the scan reads them (no filter); NULL when
 * unreadable (the scan then reports it). */
static char *workdir_text(git_repository *repo, const char *path, size_t *len) {
    sb abs = {0};
    sb_printf(&abs, "%s%s", git_repository_workdir(repo), path);
    char *s = NULL;
    if (abs.oom || read_file(abs.s, 0, &s, len)) s = NULL;
    sb_free(&abs);
    return s;
}

static int push_path(vec *v, const char *path) {
    char *p = path ? sunset_strndup(path, strlen(path)) : NULL;
    if (p && vec_push(v, &p)) return 0;
    sunset_free(p);
    return -1;
}

/* One delta into files: the root-relative paths, the old blob, the staged blob (--staged) and
 * the added lines, computed from the bytes the scan reads. A gitlink side (a submodule's
 * commit) is no file: it is left out and its path noted in submodules. 0, -1 on OOM, -2 when
 * a staged blob cannot be read. */
static int take_delta(git_repository *repo, const char *prefix, const git_diff_delta *d,
                      bool staged, bool via_index, vec *files, vec *submodules) {
    bool old_link = d->old_file.mode == GIT_FILEMODE_COMMIT;
    bool new_link = d->new_file.mode == GIT_FILEMODE_COMMIT;
    bool is_new = d->status == GIT_DELTA_ADDED || d->status == GIT_DELTA_UNTRACKED || old_link;
    bool gone = d->status == GIT_DELTA_DELETED || new_link;
    if (old_link || new_link) {
        char *p = rel(prefix, new_link ? d->new_file.path : d->old_file.path);
        int e = p && push_path(submodules, p);
        sunset_free(p);
        if (e) return -1;
        if (is_new && gone) return 0;
    }
    diff_file f = {0};
    f.path = gone ? NULL : rel(prefix, d->new_file.path);
    f.old_path = is_new ? NULL : rel(prefix, d->old_file.path);
    f.renamed = d->status == GIT_DELTA_RENAMED;
    f.symlink = !gone && d->new_file.mode == GIT_FILEMODE_LINK;
    /* through the in-memory index (a deep tree) an untracked file is an addition the real
     * index does not hold */
    f.untracked = d->status == GIT_DELTA_UNTRACKED || (via_index && is_new && untracked_in(repo, d->new_file.path));
    if (!f.path && !f.old_path) return 0; /* outside the root */
    /* an old side we cannot read is treated as a new file */
    if (f.old_path && !(f.old_data = blob_text(repo, &d->old_file.id, &f.old_len))) {
        sunset_free(f.old_path);
        f.old_path = NULL;
    }
    if (f.path && staged && !(f.new_data = blob_text(repo, &d->new_file.id, &f.new_len))) {
        file_free(&f);
        return -2;
    }
    int rc = 0;
    f.all_added = f.symlink || !f.old_data; /* a link is judged by its target, every line new */
    if (f.path && !f.all_added) {
        size_t len = f.new_len;
        char *now = staged ? f.new_data : workdir_text(repo, d->new_file.path, &len);
        if (now) rc = added_between(f.old_data, f.old_len, now, len, &f);
        else f.all_added = true;
        if (now != f.new_data) sunset_free(now);
    }
    if (!rc && vec_push(files, &f)) return 0;
    file_free(&f);
    return -1;
}

static pthread_once_t filters_once = PTHREAD_ONCE_INIT;

/* libgit2 reads a work-tree file through the filters .gitattributes names to decide whether
 * it changed; `ident` collapses a whole $Id: ...$ line, so an edit inside one would read as
 * no change. Without it a file that differs on disk is a change (crlf stays: it only drops
 * the CR of CRLF, which no finding depends on). */
static void drop_filters(void) { git_filter_unregister(GIT_FILTER_IDENT); }

static int collect(const sunset_checkout *co, const char *rev, bool staged, diff_set *out, char *err, size_t errn) {
    git_repository *repo = co->repo;
    git_tree *tree = NULL;
    git_diff *diff = NULL;
    const char *prefix = co->prefix;
    vec files = VEC_INIT(diff_file);
    int rc = -1;
    memset(out, 0, sizeof *out);
    out->submodules = VEC_INIT(char *);
    sunset_git_init();
    pthread_once(&filters_once, drop_filters);
    if (!prefix) {
        snprintf(err, errn, "%s: not inside a git work tree", co->root ? co->root : ".");
        goto cleanup;
    }
    if (sunset_checkout_tree_at(co, rev, &tree, err, errn)) goto cleanup;
    git_diff_options opts;
    git_diff_options_init(&opts, GIT_DIFF_OPTIONS_VERSION);
    /* forced text: a .gitattributes `binary` or `-diff` neither hides a change nor stops its
     * rename from being found */
    opts.flags = GIT_DIFF_FORCE_TEXT;
    if (!staged)
        opts.flags |= GIT_DIFF_INCLUDE_UNTRACKED | GIT_DIFF_RECURSE_UNTRACKED_DIRS |
                      GIT_DIFF_SHOW_UNTRACKED_CONTENT;
    opts.context_lines = 0;
    /* a submodule is not judged, so its work tree is never opened (libgit2 1.5 leaks reading
     * its configuration); a gitlink the index or the tree records still makes a delta */
    opts.ignore_submodules = GIT_SUBMODULE_IGNORE_ALL;
    char *spec[1] = {(char *)prefix};
    if (*prefix) {
        opts.pathspec.strings = spec;
        opts.pathspec.count = 1;
    }
    git_index *wi = NULL; /* the work tree as an index, when libgit2's iterator refuses it */
    bool via_index = false;
    int de = staged ? git_diff_tree_to_index(&diff, repo, tree, NULL, &opts)
                    : git_diff_tree_to_workdir_with_index(&diff, repo, tree, &opts);
    const git_error *ge = de ? git_error_last() : NULL;
    if (de && !staged && ge && ge->message && strstr(ge->message, "nesting too deep")) {
        if (workdir_index(co, &wi, err, errn)) goto cleanup;
        opts.flags = GIT_DIFF_FORCE_TEXT;
        de = git_diff_tree_to_index(&diff, repo, tree, wi, &opts);
        git_index_free(wi);
        via_index = true;
    }
    if (de) {
        git_err(err, errn, "diff");
        goto cleanup;
    }
    git_diff_find_options fo;
    git_diff_find_options_init(&fo, GIT_DIFF_FIND_OPTIONS_VERSION);
    fo.flags = GIT_DIFF_FIND_RENAMES | GIT_DIFF_FIND_FOR_UNTRACKED;
    if (git_diff_find_similar(diff, &fo)) {
        git_err(err, errn, "rename detection");
        goto cleanup;
    }
    size_t n = git_diff_num_deltas(diff);
    for (size_t i = 0; i < n; i++) {
        const git_diff_delta *d = git_diff_get_delta(diff, i);
        if (d->status == GIT_DELTA_UNMODIFIED || d->status == GIT_DELTA_IGNORED ||
            d->status == GIT_DELTA_UNREADABLE)
            continue;
        int e = take_delta(repo, prefix, d, staged, via_index, &files, &out->submodules);
        if (e) {
            if (e == -2) snprintf(err, errn, "%s: cannot read the staged file", d->new_file.path);
            else snprintf(err, errn, "out of memory reading the diff");
            goto cleanup;
        }
    }
    out->files = files.v;
    out->n = files.n;
    files = VEC_INIT(diff_file);
    rc = 0;
cleanup:
    for (size_t i = 0; i < files.n; i++) file_free(&VEC_AT(&files, diff_file, i));
    vec_free(&files);
    git_diff_free(diff);
    git_tree_free(tree);
    return rc;
}

int diff_collect(const sunset_checkout *co, const char *rev, diff_set *out, char *err, size_t errn) {
    return collect(co, rev, false, out, err, errn);
}

int diff_collect_staged(const sunset_checkout *co, const char *rev, diff_set *out, char *err, size_t errn) {
    return collect(co, rev, true, out, err, errn);
}

/* A diff mode's unused suppressions: those of the changed files that the change made unused
 * (in use at REV, or not there) or that sit on a line it adds or edits. */
void diff_keep_changed_unused(sunset_result *cur, const sunset_result *old, const diff_set *ds) {
    size_t kept = 0;
    for (size_t i = 0; i < cur->n_unused; i++) {
        sunset_unused *u = &cur->unused[i];
        const diff_file *df = NULL;
        for (size_t k = 0; k < ds->n && !df; k++)
            if (ds->files[k].path && !strcmp(ds->files[k].path, u->path)) df = &ds->files[k];
        bool was = false; /* unused at REV already (its file under its current name) */
        for (size_t k = 0; k < old->n_unused && !was; k++)
            was = !strcmp(old->unused[k].path, u->path) && !strcmp(old->unused[k].what, u->what);
        if (df && (!was || diff_line_added(df, u->line) || df->all_added)) {
            cur->unused[kept++] = *u;
        } else {
            sunset_free(u->path);
            sunset_free(u->what);
        }
    }
    cur->n_unused = kept;
}
