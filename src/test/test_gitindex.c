/*
 * test_gitindex.c — the index reader (base/gitindex.c) against libgit2 on the same index
 * files: every shape git writes that the reader takes (versions 2, 3 and 4, extended flags,
 * gitlinks, conflict stages, a path that fills the 12-bit length field, optional
 * extensions) gives libgit2's paths, and every file it must leave to libgit2 (a split
 * index, a truncated file, an unknown version) leaves out untouched.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <git2.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/gitindex.h"
#include "base/util.h"
#include "test/gitrepo.h"

static void free_paths(vec *v) {
    for (size_t i = 0; i < v->n; i++) sunset_free(VEC_AT(v, char *, i));
    vec_free(v);
}

/* libgit2's reading of r's index below prefix, as checkout.c's fallback takes it. */
static void libgit2_paths(repo *r, const char *prefix, vec *out) {
    git_repository *g = NULL;
    git_index *idx = NULL;
    assert_int_equal(git_repository_open(&g, r->dir), 0);
    if (git_repository_index(&idx, g)) fail_msg("libgit2: %s", git_error_last() ? git_error_last()->message : "?");
    size_t pl = strlen(prefix);
    for (size_t i = 0; i < git_index_entrycount(idx); i++) {
        const git_index_entry *e = git_index_get_byindex(idx, i);
        if (e->mode == GIT_FILEMODE_COMMIT || strncmp(e->path, prefix, pl) != 0) continue;
        if (out->n && strcmp(VEC_AT(out, char *, out->n - 1), e->path + pl) == 0) continue;
        char *s = sunset_strndup(e->path + pl, strlen(e->path + pl));
        assert_non_null(vec_push(out, &s));
    }
    git_index_free(idx);
    git_repository_free(g);
}

/* The reader on r's index: rc, and when 0 the same paths as libgit2's, in its order. */
static void same_as_libgit2(repo *r, const char *prefix, int want_rc) {
    char ip[PATH_MAX + 16];
    snprintf(ip, sizeof ip, "%s/.git/index", r->dir);
    vec got = VEC_INIT(char *), want = VEC_INIT(char *);
    char *keep = "kept";
    assert_non_null(vec_push(&got, &keep)); /* what was there stays, in every case */
    assert_int_equal(sunset_gitindex_paths(ip, prefix, &got), want_rc);
    assert_ptr_equal(VEC_AT(&got, char *, 0), keep);
    if (want_rc == 0) {
        libgit2_paths(r, prefix, &want);
        assert_true(want.n > 0);
        assert_int_equal(got.n - 1, want.n);
        for (size_t i = 0; i < want.n; i++) assert_string_equal(VEC_AT(&got, char *, i + 1), VEC_AT(&want, char *, i));
    } else {
        assert_int_equal(got.n, 1);
    }
    for (size_t i = 1; i < got.n; i++) sunset_free(VEC_AT(&got, char *, i)); /* keep is not ours */
    vec_free(&got);
    free_paths(&want);
}

/* A repository whose index holds each kind of entry: files in and out of a sub-directory, a
 * gitlink, a path of 4,095 bytes (the 12-bit length field full: the path ends at its NUL;
 * libgit2 1.5 refuses an index with a longer one), three conflict stages of one path, an
 * intent-to-add and a skip-worktree entry (the extended flags that make git write v3). */
static void every_kind(repo *r) {
    assert_int_equal(repo_mkdir(r, "gitindex"), 0);
    put(r, "top.txt", "t\n");
    put(r, "src/a.cc", "a\n");
    put(r, "src/sub/b.py", "b\n");
    put(r, "src2/c.txt", "c\n");
    assert_int_equal(repo_commit_base(r), 0);
    put(r, "src/new.cc", "n\n");
    assert_int_equal(run(r, "E=$(git hash-object -w /dev/null) && "
                            "L=src/$(python3 -c \"print('/'.join(['d'*200]*20))\") && "
                            "git update-index --add --cacheinfo 100644,$E,$L/$(printf %%063d 0)long.txt && "
                            "git update-index --add --cacheinfo 160000,$(git rev-parse HEAD),src/module && "
                            "printf '100644 %%s 1\\tsrc/conf.txt\\n100644 %%s 2\\tsrc/conf.txt\\n"
                            "100644 %%s 3\\tsrc/conf.txt\\n' $E $E $E | git update-index --index-info && "
                            "git add -N src/new.cc && git update-index --skip-worktree src/a.cc"),
                     0);
}

static void versions_two_three_four_match_libgit2(void **state) {
    (void)state;
    repo r = {0};
    every_kind(&r);
    const char *prefixes[] = {"", "src/", "src/sub/", "nowhere/"};
    for (int v = 3; v <= 4; v++) {
        assert_int_equal(run(&r, "git update-index --index-version %d", v), 0);
        for (size_t i = 0; i < 3; i++) same_as_libgit2(&r, prefixes[i], 0);
    }
    /* version 2 cannot hold the extended flags: the same tree without them */
    assert_int_equal(run(&r, "git update-index --no-skip-worktree src/a.cc && git rm -q --cached src/new.cc && "
                             "git update-index --index-version 2 && git update-index --untracked-cache"),
                     0);
    for (size_t i = 0; i < 3; i++) same_as_libgit2(&r, prefixes[i], 0);
    /* a prefix nothing is under: read, and nothing added */
    char ip[PATH_MAX + 16];
    snprintf(ip, sizeof ip, "%s/.git/index", r.dir);
    vec none = VEC_INIT(char *);
    assert_int_equal(sunset_gitindex_paths(ip, prefixes[3], &none), 0);
    assert_int_equal(none.n, 0);
    vec_free(&none);
    assert_int_equal(repo_clear(&r), 0);
}

static void files_it_does_not_know_are_left_to_libgit2(void **state) {
    (void)state;
    repo r = {0};
    every_kind(&r);
    char ip[PATH_MAX + 16];
    snprintf(ip, sizeof ip, "%s/.git/index", r.dir);
    /* a split index keeps its entries in a shared file: the "link" extension */
    assert_int_equal(run(&r, "git update-index --split-index"), 0);
    same_as_libgit2(&r, "", 1);
    assert_int_equal(run(&r, "git update-index --no-split-index"), 0);
    same_as_libgit2(&r, "", 0);
    /* cut short in an entry, and with another version number */
    assert_int_equal(run(&r, "cp .git/index ../idx.$$ && head -c 300 ../idx.$$ > .git/index && rm ../idx.$$"), 0);
    same_as_libgit2(&r, "", 1);
    assert_int_equal(write_file_atomic(ip, "DIRC\0\0\0\5\0\0\0\0aaaaaaaaaaaaaaaaaaaa", 32), 0);
    same_as_libgit2(&r, "", 1);
    assert_int_equal(unlink(ip), 0);
    vec v = VEC_INIT(char *);
    assert_int_equal(sunset_gitindex_paths(ip, "", &v), 1); /* none: libgit2 says what that means */
    assert_int_equal(v.n, 0);
    vec_free(&v);
    assert_int_equal(repo_clear(&r), 0);
}

int main(void) {
    git_libgit2_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(versions_two_three_four_match_libgit2),
        cmocka_unit_test(files_it_does_not_know_are_left_to_libgit2),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    git_libgit2_shutdown();
    return rc;
}
