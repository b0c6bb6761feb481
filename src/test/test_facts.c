/*
 * test_facts.c — the cross-file index's lexers tested as data, as universal-ctags tests its
 * parsers: each input under testdata/facts/<lang>/ (C++, Python, CMake; its path below
 * <lang>/ is the path the index sees, so tools/x.py is a tool list) sits beside the facts the
 * index must extract from it, <input>.index, in the stable text form of sunset_index_dump
 * (analysis/index/dump.c), reviewed line by line. Every case is compared and every difference
 * printed (the first differing line, expected and got); a case without its .index file fails.
 * SUNSET_UPDATE_GOLDEN=1 writes the .index files from the index instead (make golden); review
 * the diff before committing. The frontends' facts of the same inputs, <input>.facts, are
 * test_lang_facts.c's.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "analysis/index.h"
#include "base/util.h"
#include "core/lang.h"
#include "test/factcase.h"
#include "test/bundled.h"

#define SUFFIX ".index"

typedef struct run {
    int cases, failed;
    int per_lang[SUNSET_LANG_COUNT];
} run;

/* The index's facts of the file at fs, seen as path. */
static void facts_of(const char *fs, const char *path, sb *out, sunset_lang *lang) {
    char *data = NULL;
    size_t len = 0;
    assert_int_equal(read_file(fs, 0, &data, &len), 0);
    *lang = sunset_lang_for_file(path, data, len);
    assert_int_not_equal(*lang, SUNSET_LANG_NONE);
    sunset_index *ix = new_index();
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

static void check_case(void *ud, const char *fs, const char *path) {
    run *r = ud;
    sb got = {0}, expected = {0};
    sunset_lang lang;
    facts_of(fs, path, &got, &lang);
    sb_printf(&expected, "%s%s", fs, SUFFIX);
    r->cases++;
    r->per_lang[lang]++;
    if (!factcase_compare(expected.s, &got)) r->failed++;
    sb_free(&got);
    sb_free(&expected);
}

static void facts_match_their_inputs(void **state) {
    (void)state;
    run r = {0};
    static const char *const langs[] = {"cpp", "python", "cmake"};
    for (size_t i = 0; i < sizeof langs / sizeof *langs; i++) {
        char dir[64];
        snprintf(dir, sizeof dir, "%s/%s", FACTS_DIR, langs[i]);
        factcase_walk(dir, "", check_case, &r);
    }
    if (factcase_update()) printf("wrote %d index facts files; review: git diff %s\n", r.cases, FACTS_DIR);
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
    return cmocka_run_group_tests(tests, load_rules, free_rules);
}
