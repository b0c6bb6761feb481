/*
 * test_facts.c — the cross-file index's lexers tested as data, as universal-ctags tests its
 * parsers: each input under testdata/facts/<lang>/ (C++, Python, CMake; its path below
 * <lang>/ is the path the index sees, so tools/x.py is a tool list) sits beside the facts the
 * index must extract from it, <input>.facts, in the stable text form of sunset_index_dump
 * (analysis/index/dump.c), reviewed line by line. Every case is compared and every difference
 * printed (the first differing line, expected and got); a case without its .facts file fails.
 * SUNSET_UPDATE_GOLDEN=1 writes the .facts files from the index instead (make golden); review
 * the diff before committing.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analysis/index.h"
#include "base/util.h"
#include "core/lang.h"

#define FACTS_DIR "testdata/facts"
#define SUFFIX ".facts"

typedef struct run {
    bool update;
    int cases, failed;
    int per_lang[SUNSET_LANG_COUNT];
} run;

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static bool has_suffix(const char *s, const char *suf) {
    size_t n = strlen(s), m = strlen(suf);
    return n >= m && strcmp(s + n - m, suf) == 0;
}

/* The index's facts of the file at fs, seen as path. */
static void facts_of(const char *fs, const char *path, sb *out, sunset_lang *lang) {
    char *data = NULL;
    size_t len = 0;
    assert_int_equal(read_file(fs, 0, &data, &len), 0);
    *lang = sunset_lang_for_file(path, data, len);
    assert_int_not_equal(*lang, SUNSET_LANG_NONE);
    sunset_index *ix = sunset_index_new();
    assert_non_null(ix);
    sunset_source src = {path, fs, data, len, *lang};
    assert_int_equal(sunset_index_add(ix, &src), 0);
    sunset_index_finish(ix);
    const ix_file *f = sunset_index_file(ix, path);
    assert_non_null(f);
    sunset_index_dump(f, out);
    assert_false(out->oom);
    sunset_index_free(ix);
    sunset_free(data);
}

/* The first line where want and got differ, printed with both. */
static void show_difference(const char *expected, const char *want, const char *got) {
    unsigned line = 1;
    const char *w = want, *g = got;
    while (*w && *g && *w == *g) {
        if (*w == '\n') line++;
        w++, g++;
    }
    while (w > want && w[-1] != '\n') w--, g--;
    int wl = (int)strcspn(w, "\n"), gl = (int)strcspn(g, "\n");
    fprintf(stderr, "%s:%u: expected: %.*s\n%s:%u:      got: %.*s\n", expected, line, wl, *w ? w : "(end)", expected,
            line, gl, *g ? g : "(end)");
}

static void check_case(run *r, const char *fs, const char *path) {
    sb got = {0}, expected = {0};
    sunset_lang lang;
    facts_of(fs, path, &got, &lang);
    sb_printf(&expected, "%s%s", fs, SUFFIX);
    r->cases++;
    r->per_lang[lang]++;
    if (r->update) {
        assert_int_equal(write_file_atomic(expected.s, got.s, got.len), 0);
    } else {
        char *want = NULL;
        size_t n = 0;
        if (read_file(expected.s, 0, &want, &n)) {
            fprintf(stderr, "%s: missing (SUNSET_UPDATE_GOLDEN=1 writes it; review it line by line)\n", expected.s);
            r->failed++;
        } else if (n != got.len || memcmp(want, got.s, n) != 0) {
            show_difference(expected.s, want, got.s);
            r->failed++;
        }
        sunset_free(want);
    }
    sb_free(&got);
    sb_free(&expected);
}

/* Every input below dir (fs path), its index path being rel. */
static void walk(run *r, const char *dir, const char *rel) {
    DIR *d = opendir(dir);
    assert_non_null(d);
    struct dirent *e;
    vec names = VEC_INIT(char *);
    while ((e = readdir(d)))
        if (e->d_name[0] != '.' && !has_suffix(e->d_name, SUFFIX)) {
            char *s = sunset_strndup(e->d_name, strlen(e->d_name));
            assert_true(s && vec_push(&names, &s));
        }
    closedir(d);
    qsort(names.v, names.n, sizeof(char *), by_name);
    for (size_t i = 0; i < names.n; i++) {
        char fs[PATH_MAX], path[PATH_MAX];
        const char *name = VEC_AT(&names, char *, i);
        snprintf(fs, sizeof fs, "%s/%s", dir, name);
        snprintf(path, sizeof path, "%s%s%s", rel, *rel ? "/" : "", name);
        struct stat st;
        assert_int_equal(stat(fs, &st), 0);
        if (S_ISDIR(st.st_mode)) walk(r, fs, path);
        else check_case(r, fs, path);
        sunset_free(VEC_AT(&names, char *, i));
    }
    vec_free(&names);
}

static void facts_match_their_inputs(void **state) {
    (void)state;
    const char *u = getenv("SUNSET_UPDATE_GOLDEN");
    run r = {.update = u && strcmp(u, "1") == 0};
    static const char *const langs[] = {"cpp", "python", "cmake"};
    for (size_t i = 0; i < sizeof langs / sizeof *langs; i++) {
        char dir[64];
        snprintf(dir, sizeof dir, "%s/%s", FACTS_DIR, langs[i]);
        walk(&r, dir, "");
    }
    if (r.update) printf("wrote %d facts files; review: git diff %s\n", r.cases, FACTS_DIR);
    else printf("%d cases, %d failed\n", r.cases, r.failed);
    /* the cases cover the three lexers */
    assert_true(r.per_lang[SUNSET_LANG_CPP] >= 3);
    assert_true(r.per_lang[SUNSET_LANG_PYTHON] >= 3);
    assert_true(r.per_lang[SUNSET_LANG_CMAKE] >= 2);
    assert_int_equal(r.failed, 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(facts_match_their_inputs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
