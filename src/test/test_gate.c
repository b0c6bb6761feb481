/*
 * test_gate.c — the gate's judgement (src/analysis/gate.c) on hand-built results and diffs:
 * which findings a change adds. A finding counts as on a changed line when the change touches
 * any line of the statement holding it, not only the line the finding starts on.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "analysis/gate.h"

/* One Python finding at `line`, its statement spanning [stmt_a, stmt_b] (0: none known). */
static void one_finding(sunset_result *r, uint32_t line, uint32_t stmt_a, uint32_t stmt_b) {
    sunset_finding f = {
        .rule_id = "PE-PY-IDENT", .family = "parallel_executor", .message = "m", .fix = "x", .task = 5,
        .severity = SUNSET_SEV_ERROR, .span = {line, 5, line, 21}, .stmt = {stmt_a, 1, stmt_b, 2},
        .path = "train.py", .matched = "ParallelExecutor",
    };
    assert_non_null(sunset_result_add(r, &f));
    sunset_result_finish(r);
}

/* Judge r against an empty known set and a diff that adds exactly `added` in train.py. */
static size_t judge_new(sunset_result *r, uint32_t added) {
    uint32_t lines[1] = {added};
    diff_file df = {.path = "train.py", .added = lines, .n_added = 1};
    diff_set ds = {.files = &df, .n = 1};
    sunset_known_set ks = {0};
    sunset_gate g = {.threshold = SUNSET_SEV_WARNING};
    sunset_gate_run run = {.cur = r, .known = &ks, .diff = &ds};
    assert_int_equal(sunset_gate_judge(&run, &g), 0);
    size_t n = g.n_new;
    sunset_gate_run_free(&run);
    sunset_known_set_free(&ks);
    return n;
}

static void argument_line_of_a_call_is_part_of_the_change(void **state) {
    (void)state;
    sunset_result r = {0};
    /* `pe = fluid.ParallelExecutor(` on line 5, its arguments down to line 7 */
    one_finding(&r, 5, 5, 7);
    assert_int_equal(judge_new(&r, 7), 1); /* the change adds the call's last argument */
    assert_int_equal(judge_new(&r, 8), 0); /* a line after the statement: not this finding */
    assert_int_equal(judge_new(&r, 4), 0);
    sunset_result_free(&r);
}

static void without_a_statement_only_its_own_lines_count(void **state) {
    (void)state;
    sunset_result r = {0};
    one_finding(&r, 5, 0, 0);
    assert_int_equal(judge_new(&r, 5), 1);
    assert_int_equal(judge_new(&r, 6), 0);
    sunset_result_free(&r);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(argument_line_of_a_call_is_part_of_the_change),
        cmocka_unit_test(without_a_statement_only_its_own_lines_count),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
