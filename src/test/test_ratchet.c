/*
 * test_ratchet.c — the ratchet pull request as a maintainer makes it, on a git copy of
 * testdata/paddle-mini with a committed .sunset-baseline.json: the removal patch
 * (`removable --patch`) applied, `check --update-baseline` with no --baseline, both committed;
 * `check --diff-base HEAD~1` with no flags passes. The same change with one legacy line more,
 * with a baseline entry added, or with an entry dropped that the change did not fix, fails and
 * names it. A rename ratchets too. Then --staged reads the staged baseline, and an invalid one fails closed.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "test/gitrepo.h"

static int setup(void **state) {
    repo *r = calloc(1, sizeof *r);
    char src[PATH_MAX];
    if (!r || repo_mkdir(r, "ratchet") || !realpath("testdata/paddle-mini", src)) return -1;
    if (run(r, "cp -R '%s'/. . && printf '.out\\n.err\\n.sunset-cache/\\n' > .gitignore", src)) return -1;
    if (repo_commit_base(r)) return -1;
    /* the maintainer's first baseline, committed, then the cleanup pull request */
    if (run(r, "$S baseline -q && git add -A && git commit -qm baseline") ||
        run(r, "$S removable --patch -o ../ratchet.patch . && git apply --index ../ratchet.patch && "
               "rm ../ratchet.patch && $S check -q --update-baseline && git add -A && git commit -qm cleanup"))
        return -1;
    *state = r;
    return 0;
}

static void expect(const repo *r, const char *needle, bool want) {
    bool has = r->out && strstr(r->out, needle);
    if (has != want)
        fail_msg("want%s '%s' in:\n%s\nstderr:\n%s", want ? "" : " no", needle, r->out ? r->out : "", r->err ? r->err : "");
}

static int gate(repo *r, const char *opts) {
    return run(r, "$S check --diff-base HEAD~1 -f github %s", opts ? opts : "");
}

/* The cleanup, ratcheted as --update-baseline writes it: passes with no flags. */
static void the_ratchet_passes(void **state) {
    repo *r = *state;
    assert_int_equal(run(r, "git diff --quiet HEAD~1 -- .sunset-baseline.json"), 1); /* it was edited */
    assert_int_equal(gate(r, NULL), 0);
    expect(r, "SUNSET-GATE", false);
    assert_int_equal(run(r, "$S check --diff-base HEAD~1"), 0);
    expect(r, "gate: passed", true);
    /* dropping fewer entries than were fixed keeps them: still only drops */
    assert_int_equal(run(r, "git show HEAD~1:.sunset-baseline.json > .sunset-baseline.json"), 0);
    assert_int_equal(gate(r, NULL), 0);
}

/* A rename ratcheted: its entries re-keyed under the new name, a path rule's dropped. */
static void a_renamed_file_ratchets(void **state) {
    repo *r = *state;
    assert_int_equal(run(r, "git mv paddle/fluid/framework/details/ssa_graph_executor.h "
                            "paddle/fluid/framework/details/graph_executor.h && $S check -q --update-baseline >/dev/null && "
                            "git add -A && git commit -qm rename && git diff HEAD~1 -- .sunset-baseline.json | "
                            "grep -c '^+ .*graph_executor.h'"), 0);
    assert_true(atoi(r->out) > 0);
    assert_int_equal(gate(r, NULL), 0);
    expect(r, "SUNSET-GATE", false);
}

/* One legacy line more in the same pull request: that line fails, not the baseline. */
static void a_legacy_line_fails(void **state) {
    repo *r = *state;
    assert_int_equal(run(r, "printf '#include \"paddle/fluid/framework/parallel_executor.h\"\\n' >> "
                            "paddle/fluid/pybind/data_set_py.cc && git commit -qam more"), 0);
    assert_int_equal(gate(r, NULL), 1);
    expect(r, "file=paddle/fluid/pybind/data_set_py.cc,", true);
    expect(r, "title=sunset PE-CPP-INCLUDE", true);
    expect(r, "SUNSET-GATE", false);
}

/* The edit adds an entry (a copy of a kept one under another fingerprint) or drops one whose
 * finding is still there: each fails, naming the entry. */
static void a_baseline_edit_beyond_the_ratchet_fails(void **state) {
    repo *r = *state;
    /* the first entry's line, re-fingerprinted, inserted after it */
    assert_int_equal(run(r, "l=$(grep -n '\"fingerprint\"' .sunset-baseline.json | head -1 | cut -d: -f1) && "
                            "sed -n \"${l}p\" .sunset-baseline.json | sed 's/\"fingerprint\": *\"[0-9a-f]*\"/\"fingerprint\": "
                            "\"00000000deadbeef\"/' > ../entry && sed -i \"${l}r ../entry\" .sunset-baseline.json && "
                            "rm ../entry && echo $((l + 1))"), 0);
    char want[64];
    snprintf(want, sizeof want, "file=.sunset-baseline.json,line=%d,", atoi(r->out));
    assert_int_equal(run(r, "git commit -qam add-entry"), 0);
    assert_int_equal(gate(r, NULL), 1);
    expect(r, want, true);
    expect(r, "Adds the entry ", true);
    expect(r, "(fingerprint 00000000deadbeef)", true);
    assert_int_equal(gate(r, "--allow-config-change"), 0); /* a maintainer's decision */
    /* dropped without a fix: the first entry, whose file the change did not touch */
    assert_int_equal(run(r, "git reset -q --hard HEAD~1 && grep -m1 '\"fingerprint\"' .sunset-baseline.json | "
                            "sed 's/.*\"fingerprint\": *\"\\([0-9a-f]*\\)\".*/\\1/'"), 0);
    char fp[32] = {0};
    snprintf(fp, sizeof fp, "%.16s", r->out ? r->out : "");
    assert_int_equal(strlen(fp), 16);
    assert_int_equal(run(r, "sed -i '/%s/d' .sunset-baseline.json && git commit -qam drop-entry", fp), 0);
    assert_int_equal(gate(r, NULL), 1);
    expect(r, "Drops the entry ", true);
    expect(r, fp, true);
}

/* --staged judges the staged baseline; an invalid one fails closed, and --update-baseline
 * without a baseline to update says so. */
static void staged_and_invalid_baselines(void **state) {
    repo *r = *state;
    assert_int_equal(run(r, "git reset -q --soft HEAD~1 && $S check --staged -f github"), 0);
    assert_int_equal(run(r, "printf '{\"version\": 2, \"findings\": [' > .sunset-baseline.json && git add -A && "
                            "$S check --staged -f github"), 1);
    expect(r, "file=.sunset-baseline.json,line=1,", true);
    expect(r, "not a valid baseline", true);
    assert_int_equal(run(r, "git rm -q --cached .sunset-baseline.json && rm .sunset-baseline.json && "
                            "$S check --update-baseline"), 2);
    assert_non_null(strstr(r->err, "no .sunset-baseline.json at the top of the work tree to update"));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(the_ratchet_passes, setup, repo_teardown),
        cmocka_unit_test_setup_teardown(a_renamed_file_ratchets, setup, repo_teardown),
        cmocka_unit_test_setup_teardown(a_legacy_line_fails, setup, repo_teardown),
        cmocka_unit_test_setup_teardown(a_baseline_edit_beyond_the_ratchet_fails, setup, repo_teardown),
        cmocka_unit_test_setup_teardown(staged_and_invalid_baselines, setup, repo_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
