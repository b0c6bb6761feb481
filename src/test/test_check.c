/*
 * test_check.c — the CI gate end to end: the built binary ($SUNSET_BIN, default build/sunset)
 * against real git repositories made in a temp directory. A change that adds exec_strategy=
 * fails with one annotation at the right line; moving a legacy function (within a file and
 * to another file) passes; deleting a legacy file passes, is reported as fixed per task, and
 * --update-baseline shrinks the baseline (never grows it without --accept-new); a suppressed
 * line passes while an unexplained suppression fails; a malformed baseline exits 2 and is not
 * touched; --files-from, the severity threshold and "an error outranks findings".
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <cjson/cJSON.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/util.h"
#include "test/gitrepo.h"

static const char *RUN_PY =
    "import paddle\n"
    "\n"
    "\n"
    "def compile_program(prog, es):\n"
    "    return paddle.static.CompiledProgram(prog, build_strategy=None)\n"
    "\n"
    "\n"
    "def main():\n"
    "    return compile_program(paddle.static.Program(), None)\n";

static const char *LEGACY_PY =
    "import os\n"
    "\n"
    "\n"
    "def make_strategy():\n"
    "    es = ExecutionStrategy()\n"
    "    es.num_threads = 4\n"
    "    return es\n"
    "\n"
    "\n"
    "def cwd():\n"
    "    return os.getcwd()\n";

static const char *PE_CC =
    "#include \"paddle/fluid/framework/parallel_executor.h\"\n"
    "namespace paddle {\n"
    "void RunOld(const Places &places) {\n"
    "  auto *pe = new framework::ParallelExecutor(places);\n"
    "  pe->Run();\n"
    "}\n"
    "}  // namespace paddle\n";

static int setup(void **state) {
    repo *r = calloc(1, sizeof *r);
    if (repo_mkdir(r, "gate")) return -1;
    put(r, "python/paddle/run.py", RUN_PY);
    put(r, "python/paddle/legacy.py", LEGACY_PY);
    put(r, "paddle/fluid/pe_user.cc", PE_CC);
    put(r, ".gitignore", ".out\n.err\n*.json\n*.sarif\n*.md\nlist.txt\n");
    if (repo_commit_base(r)) return -1;
    *state = r;
    return 0;
}

static int teardown(void **state) {
    repo *r = *state;
    int rc = repo_clear(r);
    free(r);
    return rc;
}

static cJSON *gate_of(repo *r) {
    cJSON *doc = cJSON_Parse(r->out);
    if (!doc) fail_msg("not JSON: %s", r->out ? r->out : "(none)");
    return doc;
}

static int gnum(const cJSON *doc, const char *key) {
    const cJSON *v = cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "gate"), key);
    if (!cJSON_IsNumber(v)) fail_msg("gate.%s missing", key);
    return v->valueint;
}

static int baseline_count(repo *r, const char *file) {
    char p[PATH_MAX + 64];
    snprintf(p, sizeof p, "%s/%s", r->dir, file);
    char *s = slurp(p);
    assert_non_null(s);
    cJSON *doc = cJSON_Parse(s);
    assert_non_null(doc);
    int n = cJSON_GetArraySize(cJSON_GetObjectItem(doc, "findings"));
    cJSON_Delete(doc);
    sunset_free(s);
    return n;
}

static void adding_exec_strategy_fails_with_one_annotation(void **state) {
    repo *r = *state;
    assert_int_equal(run(r, "$S baseline -q --output base.json"), 0);
    int before = baseline_count(r, "base.json");
    assert_true(before >= 3);
    put(r, "python/paddle/run.py",
        "import paddle\n\n\ndef compile_program(prog, es):\n"
        "    return paddle.static.CompiledProgram(prog, build_strategy=None, exec_strategy=es)\n"
        "\n\ndef main():\n    return compile_program(paddle.static.Program(), None)\n");
    /* against the commit */
    assert_int_equal(run(r, "$S check -q --diff-base HEAD --format github"), 1);
    assert_int_equal(count_lines_starting(r->out, "::error "), 1);
    assert_int_equal(count_lines_starting(r->out, "::warning "), 0);
    assert_non_null(strstr(r->out, "::error file=python/paddle/run.py,line=5,col="));
    assert_non_null(strstr(r->out, "title=sunset ES-PY-KWARG (task 3)::"));
    /* against the baseline: the same single finding, whatever the format */
    assert_int_equal(run(r, "$S check -q --baseline base.json --format json"), 1);
    cJSON *doc = gate_of(r);
    assert_int_equal(gnum(doc, "new"), 1);
    assert_int_equal(gnum(doc, "failing"), 1);
    assert_int_equal(gnum(doc, "fixed"), 0);
    const cJSON *f0 = cJSON_GetArrayItem(cJSON_GetObjectItem(doc, "findings"), 0);
    assert_string_equal(cJSON_GetObjectItem(f0, "rule")->valuestring, "ES-PY-KWARG");
    assert_int_equal(cJSON_GetObjectItem(f0, "line")->valueint, 5);
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(doc, "findings")), 1);
    cJSON_Delete(doc);
    assert_int_equal(run(r, "$S check -q --baseline base.json --format sarif"), 1);
    assert_int_equal(run(r, "$S check -q --baseline base.json --format markdown --summary sum.md"), 1);
    assert_non_null(strstr(r->out, "| Task 3 | 1 |"));
    /* the step summary goes where GitHub says, appended */
    assert_int_equal(run(r, "echo previous > step.md; GITHUB_STEP_SUMMARY=step.md $S check -q --baseline "
                            "base.json -f github >/dev/null; rc=$?; head -1 step.md; grep -c 'gate: ' step.md; exit $rc"),
                     1);
    assert_string_equal(r->out, "previous\n1\n");
    /* an error outranks findings */
    assert_int_equal(run(r, "$S check -q --baseline base.json -o no/such/dir/out.txt"), 2);
    /* never grows without --accept-new; grows with it */
    assert_int_equal(run(r, "cp base.json b2.json && $S check -q --baseline b2.json --update-baseline"), 1);
    assert_int_equal(baseline_count(r, "b2.json"), before);
    assert_int_equal(run(r, "$S check -q --baseline b2.json --update-baseline --accept-new"), 1);
    assert_int_equal(baseline_count(r, "b2.json"), before + 1);
    assert_int_equal(run(r, "$S check -q --baseline b2.json"), 0);
}

static void moving_a_legacy_function_passes(void **state) {
    repo *r = *state;
    assert_int_equal(run(r, "$S baseline -q --output base.json"), 0);
    /* within the file: make_strategy goes below cwd */
    put(r, "python/paddle/legacy.py",
        "import os\n\n\ndef cwd():\n    return os.getcwd()\n\n\n"
        "def make_strategy():\n    es = ExecutionStrategy()\n    es.num_threads = 4\n    return es\n");
    /* across files: RunOld moves to a new file */
    put(r, "paddle/fluid/pe_user.cc", "namespace paddle {\n}  // namespace paddle\n");
    put(r, "paddle/fluid/pe_moved.cc",
        "#include \"paddle/fluid/framework/parallel_executor.h\"\n"
        "namespace paddle {\n"
        "void RunOld(const Places &places) {\n"
        "  auto *pe = new framework::ParallelExecutor(places);\n"
        "  pe->Run();\n"
        "}\n"
        "}  // namespace paddle\n");
    assert_int_equal(run(r, "$S check -q --diff-base HEAD -f json"), 0);
    cJSON *doc = gate_of(r);
    assert_int_equal(gnum(doc, "new"), 0);
    assert_int_equal(gnum(doc, "fixed"), 0);
    assert_true(gnum(doc, "moved") >= 2);
    cJSON_Delete(doc);
    assert_int_equal(run(r, "$S check -q --baseline base.json -f json"), 0);
    doc = gate_of(r);
    assert_int_equal(gnum(doc, "new"), 0);
    assert_int_equal(gnum(doc, "fixed"), 0);
    cJSON_Delete(doc);
    /* a fix and a regression in one file do not cancel out */
    put(r, "python/paddle/legacy.py",
        "import os\n\n\ndef cwd():\n    return os.getcwd()\n\n\n"
        "def make_strategy():\n    es = ExecutionStrategy()\n    return es\n\n\n"
        "def other():\n    x.exec_strategy = 1\n");
    assert_int_equal(run(r, "$S check -q --baseline base.json -f json"), 1);
    doc = gate_of(r);
    assert_int_equal(gnum(doc, "new"), 1);
    assert_int_equal(gnum(doc, "fixed"), 1);
    cJSON_Delete(doc);
}

static void deleting_a_legacy_file_passes_and_ratchets(void **state) {
    repo *r = *state;
    assert_int_equal(run(r, "$S baseline -q --output base.json"), 0);
    int before = baseline_count(r, "base.json");
    assert_int_equal(run(r, "git rm -q python/paddle/legacy.py"), 0);
    assert_int_equal(run(r, "$S check -q --diff-base HEAD"), 0);
    /* 3: ExecutionStrategy(), es.num_threads and `return es` (a flow use, core/flow.c) */
    assert_non_null(strstr(r->out, "this change removes 3 uses; task 3: 3 fixed"));
    assert_int_equal(run(r, "$S check -q --baseline base.json --update-baseline -f json"), 0);
    cJSON *doc = gate_of(r);
    assert_int_equal(gnum(doc, "fixed"), 3);
    const cJSON *t3 = cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "gate"), "by_task"), "3");
    assert_int_equal(cJSON_GetObjectItem(t3, "fixed")->valueint, 3);
    assert_int_equal(cJSON_GetObjectItem(t3, "open")->valueint, 0);
    cJSON_Delete(doc);
    assert_int_equal(baseline_count(r, "base.json"), before - 3);
    /* the shrunk baseline is the new normal */
    assert_int_equal(run(r, "$S check -q --baseline base.json -f json"), 0);
    doc = gate_of(r);
    assert_int_equal(gnum(doc, "fixed"), 0);
    assert_int_equal(gnum(doc, "unchanged"), before - 3);
    cJSON_Delete(doc);
}

static void suppressions_in_the_gate(void **state) {
    repo *r = *state;
    put(r, "python/paddle/run.py",
        "import paddle\n\n\ndef compile_program(prog, es):\n"
        "    return paddle.static.CompiledProgram(prog, exec_strategy=es)  "
        "# sunset-ignore[ES-PY-KWARG]: removed with the converter in the next PR\n"
        "\n\ndef main():\n    return compile_program(paddle.static.Program(), None)\n");
    /* a suppression the change adds fails the gate unless a maintainer accepts it */
    assert_int_equal(run(r, "$S check -q --diff-base HEAD -f github"), 1);
    assert_int_equal(count_lines_starting(r->out, "::error "), 1);
    assert_non_null(strstr(r->out, "file=python/paddle/run.py,line=5,col=1,endLine=5,title=sunset SUNSET-GATE::The change adds a sunset-ignore"));
    assert_int_equal(run(r, "$S check -q --diff-base HEAD --allow-new-suppressions -f json"), 0);
    cJSON *doc = gate_of(r);
    assert_int_equal(gnum(doc, "new"), 0);
    assert_int_equal(gnum(doc, "suppressed"), 1);
    const cJSON *f0 = cJSON_GetArrayItem(cJSON_GetObjectItem(doc, "findings"), 0);
    assert_true(cJSON_IsTrue(cJSON_GetObjectItem(f0, "suppressed")));
    assert_string_equal(cJSON_GetObjectItem(f0, "justification")->valuestring,
                        "removed with the converter in the next PR");
    cJSON_Delete(doc);
    assert_int_equal(run(r, "$S check -q --diff-base HEAD --allow-new-suppressions -f sarif"), 0);
    assert_non_null(strstr(r->out, "\"suppressions\":[{\"kind\":\"inSource\""));
    /* no reason: the marker is a finding and suppresses nothing */
    put(r, "python/paddle/run.py",
        "import paddle\n\n\ndef compile_program(prog, es):\n"
        "    return paddle.static.CompiledProgram(prog, exec_strategy=es)  # sunset-ignore[ES-PY-KWARG]\n"
        "\n\ndef main():\n    return compile_program(paddle.static.Program(), None)\n");
    assert_int_equal(run(r, "$S check -q --diff-base HEAD -f github"), 1);
    assert_int_equal(count_lines_starting(r->out, "::error "), 2);
    assert_non_null(strstr(r->out, "title=sunset SUNSET-SUPPRESSION::suppression without a reason"));
    /* unused suppressions, on request, in a full scan */
    put(r, "python/paddle/run.py", RUN_PY);
    put(r, "python/paddle/extra.py", "x = 1  # sunset-ignore[PE-PY-IDENT]: nothing to hide\n");
    assert_int_equal(run(r, "$S check -q --report-unused-suppressions"), 1); /* no baseline: all new */
    assert_non_null(strstr(r->out, "python/paddle/extra.py:1: note: unused suppression sunset-ignore[PE-PY-IDENT]"));
}

static void malformed_baseline_is_an_error_and_kept(void **state) {
    repo *r = *state;
    const char *bad = "{\"version\": 1, \"findings\": [\n  {\"rule\": \"X\", \"path\": \"a\",\n";
    put(r, "bad.json", bad);
    assert_int_equal(run(r, "$S check -q --baseline bad.json --update-baseline"), 2);
    assert_non_null(strstr(r->err, "bad.json:"));
    assert_non_null(strstr(r->err, "malformed baseline"));
    char p[PATH_MAX + 16];
    snprintf(p, sizeof p, "%s/bad.json", r->dir);
    char *now = slurp(p);
    assert_string_equal(now, bad);
    sunset_free(now);
    put(r, "bad2.json", "{\"version\": 2, \"findings\": [{\"rule\": \"X\", \"path\": \"a\", \"fingerprint\": 7}]}");
    assert_int_equal(run(r, "$S check -q --baseline bad2.json"), 2);
    assert_non_null(strstr(r->err, "findings[0]: \"fingerprint\""));
    assert_int_equal(run(r, "$S check -q --baseline missing.json"), 2);
    assert_int_equal(run(r, "$S check -q --update-baseline"), 2);
    assert_int_equal(run(r, "$S check -q --severity-threshold loud"), 2);
    assert_int_equal(run(r, "$S check -q --diff-base no-such-rev"), 2);
    assert_non_null(strstr(r->err, "no-such-rev"));
}

/* Entries record their context kind (baseline version 2): code added above a comment the
 * baseline knows is new. A version-1 baseline (fingerprints without the context) is refused
 * with the command that regenerates it, and kept. */
static void baseline_knows_the_context(void **state) {
    repo *r = *state;
    put(r, "python/paddle/run.py", "import paddle\n\n\ndef main():\n    # ExecutionStrategy is gone\n    return 1\n");
    assert_int_equal(run(r, "git commit -qam comment && $S baseline -q --output base.json"), 0);
    char p[PATH_MAX + 16];
    snprintf(p, sizeof p, "%s/base.json", r->dir);
    char *text = slurp(p);
    assert_non_null(strstr(text, "\"version\": 2,"));
    assert_non_null(strstr(text, "\"path\": \"python/paddle/run.py\", \"line\": 5, \"matched\": \"ExecutionStrategy\", "
                                 "\"context\": \"comment\""));
    put(r, "python/paddle/run.py",
        "import paddle\n\n\ndef main():\n    es = ExecutionStrategy()\n    # ExecutionStrategy is gone\n    return es\n");
    assert_int_equal(run(r, "$S check -q --baseline base.json -f json"), 1);
    cJSON *doc = gate_of(r);
    assert_int_equal(gnum(doc, "failing"), 2); /* the constructor and `return es` */
    assert_int_equal(gnum(doc, "new"), 2);
    assert_int_equal(gnum(doc, "unchanged"), baseline_count(r, "base.json")); /* the comment too */
    cJSON_Delete(doc);
    /* version 1 */
    char *v1 = sunset_strndup(text, strlen(text));
    memcpy(strstr(v1, "\"version\": 2"), "\"version\": 1", 12);
    put(r, "v1.json", v1);
    assert_int_equal(run(r, "$S check -q --baseline v1.json --update-baseline"), 2);
    assert_string_equal(r->err, "sunset: v1.json: baseline version 1 predates context-aware fingerprints; regenerate "
                                "it with 'sunset baseline --output FILE' (in a diff mode, merge that with "
                                "--allow-config-change)\n");
    snprintf(p, sizeof p, "%s/v1.json", r->dir);
    char *kept = slurp(p);
    assert_string_equal(kept, v1);
    /* version 2 without a context */
    put(r, "v2.json", "{\"version\": 2, \"findings\": [{\"rule\": \"X\", \"path\": \"a\", "
                      "\"fingerprint\": \"0123456789abcdef\"}]}");
    assert_int_equal(run(r, "$S check -q --baseline v2.json"), 2);
    assert_non_null(strstr(r->err, "v2.json: malformed baseline: findings[0]: \"context\" must be code, comment"));
    sunset_free(kept);
    sunset_free(v1);
    sunset_free(text);
}

static void files_from_and_threshold(void **state) {
    repo *r = *state;
    assert_int_equal(run(r, "$S baseline -q --output base.json"), 0);
    put(r, "python/paddle/run.py",
        "import paddle\n\n\ndef compile_program(prog, es):\n"
        "    # no ParallelExecutor here any more\n"
        "    return paddle.static.CompiledProgram(prog, build_strategy=None)\n"
        "\n\ndef main():\n    return compile_program(paddle.static.Program(), None)\n");
    /* a new info finding (a comment) passes at the default threshold, fails at info */
    assert_int_equal(run(r, "$S check -q --baseline base.json"), 0);
    assert_int_equal(run(r, "$S check -q --baseline base.json --severity-threshold info"), 1);
    /* the list names only the untouched file: nothing new there */
    assert_int_equal(run(r, "echo python/paddle/legacy.py > list.txt && $S check -q --baseline base.json "
                            "--files-from list.txt --severity-threshold info -f json"),
                     0);
    cJSON *doc = gate_of(r);
    assert_int_equal(gnum(doc, "unchanged"), 3); /* with the flow use `return es` */
    cJSON_Delete(doc);
    assert_int_equal(run(r, "printf './python/paddle/run.py\\n' | $S check -q --baseline base.json --files-from - "
                            "--severity-threshold info -f json"),
                     1);
    doc = gate_of(r);
    assert_int_equal(gnum(doc, "new"), 1);
    cJSON_Delete(doc);
}

/* A diff mode judges the changed files only: no walk of the tree (a pre-commit hook's wall
 * time on a Paddle-sized tree), so the walk's counts (its .gitignore'd files) stay at 0. */
static void diff_mode_reads_only_the_change(void **state) {
    repo *r = *state;
    put(r, "notes/a.md", "ParallelExecutor\n");
    put(r, "out/b.json", "{}\n");
    put(r, "python/paddle/run.py", "import paddle\n\n\ndef main():\n    return paddle.static.Program()\n");
    assert_int_equal(run(r, "$S check -q --diff-base HEAD -f json"), 0);
    cJSON *doc = gate_of(r);
    const cJSON *st = cJSON_GetObjectItem(doc, "stats");
    assert_int_equal(cJSON_GetObjectItem(st, "files_seen")->valueint, 1);
    assert_int_equal(cJSON_GetObjectItem(cJSON_GetObjectItem(st, "skipped"), "ignored")->valueint, 0);
    cJSON_Delete(doc);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(adding_exec_strategy_fails_with_one_annotation, setup, teardown),
        cmocka_unit_test_setup_teardown(moving_a_legacy_function_passes, setup, teardown),
        cmocka_unit_test_setup_teardown(deleting_a_legacy_file_passes_and_ratchets, setup, teardown),
        cmocka_unit_test_setup_teardown(suppressions_in_the_gate, setup, teardown),
        cmocka_unit_test_setup_teardown(malformed_baseline_is_an_error_and_kept, setup, teardown),
        cmocka_unit_test_setup_teardown(baseline_knows_the_context, setup, teardown),
        cmocka_unit_test_setup_teardown(files_from_and_threshold, setup, teardown),
        cmocka_unit_test_setup_teardown(diff_mode_reads_only_the_change, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
