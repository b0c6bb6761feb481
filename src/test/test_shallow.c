/*
 * test_shallow.c — `history` and `check` in a real shallow clone (git clone --depth over a
 * file:// URL, as CI clones): what the clone lacks is said on one line with exit 2 and the
 * fetch that brings it (origin/BRANCH: git fetch origin BRANCH; HEAD~N: git fetch
 * --deepen=N; the window: --deepen or --unshallow); what the clone holds is replayed.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "test/gitrepo.h"

static int setup(void **state) {
    repo *r = calloc(1, sizeof *r);
    if (repo_mkdir(r, "shallow")) return -1;
    /* origin: develop with four commits, each adding a legacy line; the clone: the last two */
    if (run(r, "mkdir up && cd up && git init -q && git config user.email t@example.com && git config user.name t && "
               "for i in 1 2 3 4; do printf 'import paddle\\npe = paddle.static.ParallelExecutor(p%%d)\\n' $i > a$i.py && "
               "git add -A && git commit -qm \"c$i (#10$i)\"; done && git branch -q -m develop && cd .. && "
               "git clone -q --depth 2 --branch develop \"file://$PWD/up\" clone && git -C clone remote set-branches origin '*'"))
        return -1;
    *state = r;
    return 0;
}

static void expect_err(repo *r, const char *needle) {
    if (!r->err || !strstr(r->err, needle)) fail_msg("want '%s' in stderr:\n%s\nstdout:\n%s", needle, r->err, r->out);
}

/* One line, naming the fetch. */
static void one_line(repo *r) {
    assert_non_null(r->err);
    const char *nl = strchr(r->err, '\n');
    assert_true(nl && nl[1] == 0);
}

static void history_says_what_the_clone_lacks(void **state) {
    repo *r = *state;
    /* the default window (last 100): two commits are here, the rest is not */
    assert_int_equal(run(r, "cd clone && $S history --no-config"), 2);
    expect_err(r, "this clone is shallow: it holds 2 of the last 100 first-parent commits");
    expect_err(r, "fetch the rest: git fetch --deepen=98 origin, or all of it: git fetch --unshallow origin; "
                  "or ask for fewer (--max-count 2)");
    one_line(r);
    /* what the clone holds, asked for: replayed */
    assert_int_equal(run(r, "cd clone && $S history --no-config --max-count 2"), 0);
    assert_int_equal(count_lines_starting(r->out, ""), 3); /* the header and two commits */
    assert_non_null(strstr(r->out, "c4 (#104)"));
    assert_int_equal(run(r, "cd clone && $S history --no-config HEAD~1..HEAD"), 0);
    assert_non_null(strstr(r->out, "c4 (#104)"));
    /* an ancestor beyond the clone */
    assert_int_equal(run(r, "cd clone && $S history --no-config HEAD~3..HEAD"), 2);
    expect_err(r, "'HEAD~3..HEAD': HEAD~3 is not in this clone (");
    expect_err(r, "fetch it: git fetch --deepen=3 origin, or all of it: git fetch --unshallow origin");
    one_line(r);
    /* a branch the clone has not fetched */
    assert_int_equal(run(r, "cd up && git checkout -q -b feature HEAD~3 && cd ../clone && $S history --no-config origin/feature..HEAD"), 2);
    expect_err(r, "origin/feature is not in this clone (");
    expect_err(r, "fetch it: git fetch origin feature, or all of it: git fetch --unshallow origin");
    /* fetched by name at depth 1: here, but the history between is not */
    assert_int_equal(run(r, "cd clone && git fetch -q --depth=1 origin feature && $S history --no-config origin/feature..HEAD"), 2);
    expect_err(r, "'origin/feature..HEAD': this clone is shallow and its history ends at ");
    expect_err(r, ", before origin/feature; fetch the rest: git fetch origin feature, or all of it: git fetch --unshallow origin");
    /* following the hint fixes it */
    assert_int_equal(run(r, "cd clone && git fetch -q --unshallow origin && $S history --no-config origin/feature..HEAD"), 0);
    assert_int_equal(count_lines_starting(r->out, ""), 5); /* feature (the range's start), c2, c3, c4 */
}

static void check_gives_the_same_hints(void **state) {
    repo *r = *state;
    assert_int_equal(run(r, "cd clone && $S check -q --no-cache --diff-base HEAD~3"), 2);
    expect_err(r, "HEAD~3: no such revision in this clone (");
    expect_err(r, "fetch it first: git fetch --deepen=3 origin");
    assert_int_equal(run(r, "cd up && git checkout -q -b feature HEAD~2 && cd ../clone && $S check -q --no-cache --diff-base origin/feature"), 2);
    expect_err(r, "fetch it first: git fetch --no-tags --depth=1 origin feature");
    /* the hint, followed, is enough for check: the base's tree */
    assert_int_equal(run(r, "cd clone && git fetch -q --no-tags --depth=1 origin feature && $S check -q --no-cache --diff-base origin/feature"), 1);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(history_says_what_the_clone_lacks, setup, repo_teardown),
        cmocka_unit_test_setup_teardown(check_gives_the_same_hints, setup, repo_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
