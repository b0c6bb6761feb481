/*
 * test_prefilter.c — the literal prefilter: finds a literal anywhere (including the last
 * bytes), rejects near misses, and treats a too-short literal as "everything passes".
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "core/prefilter.h"

static void finds_literals(void **state) {
    (void)state;
    const char *lits[] = {"ParallelExecutor", "exec_strategy", "OpHandleBase", "ParallelExecutor"};
    prefilter *pf = prefilter_new(lits, 4);
    assert_non_null(pf);
    const char *hit = "int x; // uses core.ParallelExecutor here";
    assert_true(prefilter_match(pf, hit, strlen(hit)));
    const char *end = "a=1\nexec_strategy";
    assert_true(prefilter_match(pf, end, strlen(end)));
    const char *miss = "ParallelExecuto exec_strateg OpHandleBas StandaloneExecutor";
    assert_false(prefilter_match(pf, miss, strlen(miss)));
    /* a literal cut by the length bound does not match */
    assert_false(prefilter_match(pf, end, strlen(end) - 1));
    assert_false(prefilter_match(pf, "", 0));
    assert_false(prefilter_match(pf, "Par", 3));
    prefilter_free(pf);
}

static void shared_prefixes(void **state) {
    (void)state;
    const char *lits[] = {"exec_strategy", "exec_other_thing"};
    prefilter *pf = prefilter_new(lits, 2);
    const char *s = "x.exec_other_thing = 1";
    assert_true(prefilter_match(pf, s, strlen(s)));
    const char *t = "x.exec_other = 1";
    assert_false(prefilter_match(pf, t, strlen(t)));
    prefilter_free(pf);
}

static void empty_and_short(void **state) {
    (void)state;
    prefilter *none = prefilter_new(NULL, 0);
    assert_false(prefilter_match(none, "anything at all", 15));
    prefilter_free(none);
    const char *lits[] = {"abc"};
    prefilter *all = prefilter_new(lits, 1);
    assert_true(prefilter_match(all, "zzz", 3));
    prefilter_free(all);
    prefilter_free(NULL);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(finds_literals),
        cmocka_unit_test(shared_prefixes),
        cmocka_unit_test(empty_and_short),
    };
    return cmocka_run_group_tests_name("prefilter", tests, NULL, NULL);
}
