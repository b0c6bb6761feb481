/*
 * factcase.h — what the data-file tests of facts share (test_facts.c, the index's; and
 * test_lang_facts.c, the frontends'): the cases under testdata/facts/<lang>/, walked in name
 * order (an input is any file but the expected .facts and .index beside it), and the
 * comparison of what a case gave with its expected file, which prints the first line that
 * differs or, with SUNSET_UPDATE_GOLDEN=1, rewrites the file instead.
 */
#ifndef SUNSET_TEST_FACTCASE_H
#define SUNSET_TEST_FACTCASE_H

#include <dirent.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/util.h"

#define FACTS_DIR "testdata/facts"

static inline bool factcase_update(void) {
    const char *u = getenv("SUNSET_UPDATE_GOLDEN");
    return u && strcmp(u, "1") == 0;
}

static inline bool factcase_has_suffix(const char *s, const char *suf) {
    size_t n = strlen(s), m = strlen(suf);
    return n >= m && strcmp(s + n - m, suf) == 0;
}

static inline int factcase_by_name(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every input below dir (its file-system path), each handed to one with the path the lexers
 * see (rel, its path below <lang>/). */
static inline void factcase_walk(const char *dir, const char *rel, void (*one)(void *ud, const char *fs, const char *path),
                                 void *ud) {
    DIR *d = opendir(dir);
    assert_non_null(d);
    vec names = VEC_INIT(char *);
    struct dirent *e;
    while ((e = readdir(d)))
        if (e->d_name[0] != '.' && !factcase_has_suffix(e->d_name, ".facts") &&
            !factcase_has_suffix(e->d_name, ".index")) {
            char *s = sunset_strndup(e->d_name, strlen(e->d_name));
            assert_true(s && vec_push(&names, &s));
        }
    closedir(d);
    qsort(names.v, names.n, sizeof(char *), factcase_by_name);
    for (size_t i = 0; i < names.n; i++) {
        char fs[PATH_MAX], path[PATH_MAX];
        const char *name = VEC_AT(&names, char *, i);
        snprintf(fs, sizeof fs, "%s/%s", dir, name);
        snprintf(path, sizeof path, "%s%s%s", rel, *rel ? "/" : "", name);
        struct stat st;
        assert_int_equal(stat(fs, &st), 0);
        if (S_ISDIR(st.st_mode)) factcase_walk(fs, path, one, ud);
        else one(ud, fs, path);
        sunset_free(VEC_AT(&names, char *, i));
    }
    vec_free(&names);
}

/* got against the file `expected`: true when they are equal (or the file was rewritten, under
 * SUNSET_UPDATE_GOLDEN=1); else the first line that differs is printed, expected and got. */
static inline bool factcase_compare(const char *expected, const sb *got) {
    if (factcase_update()) {
        assert_int_equal(write_file_atomic(expected, got->s ? got->s : "", got->len), 0);
        return true;
    }
    char *want = NULL;
    size_t n = 0;
    if (read_file(expected, 0, &want, &n)) {
        fprintf(stderr, "%s: missing (SUNSET_UPDATE_GOLDEN=1 writes it; review it line by line)\n", expected);
        return false;
    }
    const char *g = got->s ? got->s : "";
    bool same = n == got->len && memcmp(want, g, n) == 0;
    if (!same) {
        unsigned line = 1;
        size_t k = 0;
        while (k < n && k < got->len && want[k] == g[k]) line += want[k++] == '\n';
        while (k > 0 && want[k - 1] != '\n') k--;
        const char *ws = k < n ? want + k : "(end)", *gs = k < got->len ? g + k : "(end)";
        fprintf(stderr, "%s:%u: expected: %.*s\n%s:%u:      got: %.*s\n", expected, line, (int)strcspn(ws, "\n"), ws,
                expected, line, (int)strcspn(gs, "\n"), gs);
    }
    sunset_free(want);
    return same;
}

#endif
