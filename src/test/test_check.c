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

/* --report-unused-suppressions in a diff mode: the markers the change made unused or added,
 * not those that were unused already on lines it left alone. */
static void unused_suppressions_in_diff_mode(void **state) {
    repo *r = *state;
    put(r, "python/paddle/old.py",
        "import paddle\n\n\ndef make():\n"
        "    return paddle.static.ParallelExecutor()  # sunset-ignore[PE-PY-IDENT]: removed with the executor\n"
        "\n\nx = 1  # sunset-ignore[PE-PY-IDENT]: unused before the change\n");
    assert_int_equal(run(r, "git add -A && git commit -qm legacy && $S check -q --diff-base HEAD "
                            "--report-unused-suppressions"), 0);
    assert_non_null(strstr(r->out, "no unused suppressions"));
    /* the change removes the suppressed call and adds an unused marker */
    put(r, "python/paddle/old.py",
        "import paddle\n\n\ndef make():\n"
        "    return paddle.static.Program()  # sunset-ignore[PE-PY-IDENT]: removed with the executor\n"
        "\n\nx = 1  # sunset-ignore[PE-PY-IDENT]: unused before the change\n"
        "y = 2  # sunset-ignore[ES-PY-KWARG]: added by the change, hiding nothing\n");
    for (int staged = 0; staged < 2; staged++) {
        assert_int_equal(run(r, "%s$S check -q --diff-base HEAD --report-unused-suppressions%s",
                             staged ? "git add -A && " : "", staged ? " --staged" : ""), 0);
        assert_non_null(strstr(r->out, "python/paddle/old.py:5: note: unused suppression sunset-ignore[PE-PY-IDENT]"));
        assert_non_null(strstr(r->out, "python/paddle/old.py:9: note: unused suppression sunset-ignore[ES-PY-KWARG]"));
        assert_null(strstr(r->out, "old.py:8: note"));
        assert_null(strstr(r->err, "needs a full scan"));
    }
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

/* A directory nested 120 deep (libgit2's work-tree iterator stops at 100: every --diff-base
 * run of such a tree exited 2): the tracked file unchanged passes; a line added deep down, an
 * untracked legacy file deep down and a line beside it are new; the known findings are not. */
static void deep_directories_in_diff_mode(void **state) {
    repo *r = *state;
    char deep[300] = "python";
    for (int i = 0; i < 120; i++) strcat(deep, "/d");
    char p[320];
    snprintf(p, sizeof p, "%s/legacy.py", deep);
    put(r, p, LEGACY_PY);
    assert_int_equal(run(r, "git add -A && git commit -qm deep"), 0);
    assert_int_equal(run(r, "$S check -q --diff-base HEAD -f json"), 0);
    cJSON *doc = gate_of(r);
    assert_int_equal(gnum(doc, "new"), 0);
    cJSON_Delete(doc);
    put(r, "python/paddle/run.py", "import os\nes = ExecutionStrategy()\n");
    put(r, p, "import os\n\n\ndef make_strategy():\n    es = ExecutionStrategy()\n    es.num_threads = 4\n"
              "    return es\n\n\ndef cwd():\n    return fluid.ParallelExecutor(os.getcwd())\n");
    snprintf(p, sizeof p, "%s/new_pe.py", deep);
    put(r, p, "import paddle.fluid as fluid\npe = fluid.ParallelExecutor(None)\n");
    assert_int_equal(run(r, "$S check -q --diff-base HEAD -f json"), 1);
    doc = gate_of(r);
    assert_int_equal(gnum(doc, "new"), 3);
    assert_int_equal(gnum(doc, "unchanged"), 3);
    int in_deep = 0;
    const cJSON *f;
    cJSON_ArrayForEach(f, cJSON_GetObjectItem(doc, "findings")) {
        const char *path = cJSON_GetObjectItem(f, "path")->valuestring;
        if (!strncmp(path, deep, strlen(deep))) in_deep++;
    }
    assert_int_equal(in_deep, 2);
    cJSON_Delete(doc);
    /* the same files staged */
    assert_int_equal(run(r, "git add -A && $S check -q --staged -f json"), 1);
    doc = gate_of(r);
    assert_int_equal(gnum(doc, "new"), 3);
    cJSON_Delete(doc);
}

/* A change can commit a CACHEDIR.TAG, a .sunset-cache/ directory or a first line that looks
 * like sunset's report: full check and --files-from passed such files unjudged. Tracked, they
 * are judged now; an untracked cache directory (the CI's own) is still left out, and scan
 * still skips all three. */
static void gate_judges_what_scan_skips(void **state) {
    repo *r = *state;
    assert_int_equal(run(r, "$S baseline -q --output base.json"), 0);
    const char *pe = "import paddle.fluid as fluid\npe = fluid.ParallelExecutor(None)\n";
    put(r, "tools/tagged/CACHEDIR.TAG", "Signature: 8a477f597d28d172789f06886806bc55\n");
    put(r, "tools/tagged/a.py", pe);
    put(r, ".sunset-cache/b.py", pe);
    char own[256];
    snprintf(own, sizeof own, "# x.py:1:1: error: [PE-X] y\n%s", pe);
    put(r, "python/paddle/c.py", own);
    assert_int_equal(run(r, "git add -f tools .sunset-cache python"), 0);
    put(r, "ci-cache/CACHEDIR.TAG", "Signature: 8a477f597d28d172789f06886806bc55\n");
    put(r, "ci-cache/d.py", pe);
    assert_int_equal(run(r, "$S check -q --no-cache --baseline base.json -f json"), 1);
    cJSON *doc = gate_of(r);
    assert_int_equal(gnum(doc, "new"), 3);
    cJSON_Delete(doc);
    assert_int_equal(run(r, "printf 'tools/tagged/a.py\\n.sunset-cache/b.py\\npython/paddle/c.py\\nci-cache/d.py\\n' > list.txt && "
                            "$S check -q --no-cache --baseline base.json --files-from list.txt -f json"), 1);
    doc = gate_of(r);
    assert_int_equal(gnum(doc, "new"), 4); /* listed: the untracked one too */
    cJSON_Delete(doc);
    /* the baseline takes them too, so a full check against it passes */
    assert_int_equal(run(r, "$S baseline -q --no-cache --output base2.json && $S check -q --no-cache --baseline base2.json"), 0);
    assert_int_equal(run(r, "$S scan -q --no-cache -f json > scan.json && ! grep -q 'ParallelExecutor(None)' scan.json"), 0);
}

/* --max-filesize held only for files read from disk: staged content, stdin and the diff
 * base's side were scanned whatever their size. Each path now skips a larger input. */
static void max_filesize_on_every_input(void **state) {
    repo *r = *state;
    /* a 3 KB legacy file, committed */
    assert_int_equal(run(r, "{ echo 'import paddle.fluid as fluid'; echo 'pe = fluid.ParallelExecutor(None)'; "
                            "i=0; while [ $i -lt 100 ]; do echo \"x$i = 'padding padding padding'\"; i=$((i+1)); done; } "
                            "> python/paddle/big.py && git add -A && git -c user.name=t -c user.email=t@t commit -qm big"), 0);
    /* the base side: over the limit at HEAD it is not scanned, so the legacy line
     * edited in a small file is not known there: new, not unchanged */
    assert_int_equal(run(r, "printf 'import paddle.fluid as fluid\npe = fluid.ParallelExecutor(None)  # kept\n' "
                            "> python/paddle/big.py && $S check -q --diff-base HEAD -f json"), 0);
    cJSON *doc = gate_of(r);
    assert_int_equal(gnum(doc, "unchanged"), 1);
    cJSON_Delete(doc);
    assert_int_equal(run(r, "$S check -q --diff-base HEAD --max-filesize 1K -f json"), 1);
    doc = gate_of(r);
    assert_int_equal(gnum(doc, "unchanged"), 0);
    assert_int_equal(gnum(doc, "new"), 1);
    cJSON_Delete(doc);
    /* staged: the staged blob over the limit fails the gate as a file not judged, by name */
    assert_int_equal(run(r, "git checkout -q -- python && echo 'es = ExecutionStrategy()' >> python/paddle/big.py && "
                            "git add -A && $S check -q --staged --max-filesize 1K -f json"), 1);
    assert_non_null(strstr(r->out, "\"rule\":\"SUNSET-GATE\""));
    assert_non_null(strstr(r->out, "larger than"));
    assert_null(strstr(r->out, "\"rule\":\"ES-PY-IDENT\""));
    assert_int_equal(run(r, "$S check -q --staged -f json"), 1);
    assert_null(strstr(r->out, "\"rule\":\"SUNSET-GATE\""));
    /* stdin */
    assert_int_equal(run(r, "$S scan -q --no-config -f json - --stdin-filename big.py --max-filesize 1K "
                            "< python/paddle/big.py"), 0);
    assert_non_null(strstr(r->out, "\"too_large\":1"));
    assert_non_null(strstr(r->out, "\"findings\":[]"));
    assert_int_equal(run(r, "$S scan -q --no-config -f json - --stdin-filename big.py < python/paddle/big.py"), 0);
    assert_non_null(strstr(r->out, "\"too_large\":0"));
}

/* A broken query stops a diff-mode check at start-up, with its file, line and column and exit
 * 2, before anything is judged or printed (the engine is made while the diff is collected,
 * cmd/check.c prepare_with_diff), without a cache as with one that has seen good queries. */
static void broken_query_stops_diff_mode(void **state) {
    repo *r = *state;
    put(r, "python/paddle/run.py", "import paddle\nes = paddle.static.ExecutionStrategy()\n");
    assert_int_equal(run(r, "cp -r \"$(dirname \"$S\")/../queries\" .git/q && wc -l <.git/q/python/facts.scm"), 0);
    int lines = atoi(r->out);
    assert_int_equal(run(r, "$S check -q --diff-base HEAD --queries .git/q --cache .git/c -f json"), 1);
    assert_int_equal(run(r, "printf '(no_such_node) @x\\n' >>.git/q/python/facts.scm"), 0);
    char want[128];
    snprintf(want, sizeof want, ".git/q/python/facts.scm:%d:2: invalid query: invalid node type\n", lines + 1);
    for (int cached = 0; cached < 2; cached++) {
        assert_int_equal(run(r, "$S check -q --diff-base HEAD --queries .git/q %s -f json",
                             cached ? "--cache .git/c" : "--no-cache"), 2);
        assert_string_equal(r->out, "");
        assert_non_null(r->err);
        assert_non_null(strstr(r->err, want));
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(adding_exec_strategy_fails_with_one_annotation, setup, teardown),
        cmocka_unit_test_setup_teardown(moving_a_legacy_function_passes, setup, teardown),
        cmocka_unit_test_setup_teardown(deleting_a_legacy_file_passes_and_ratchets, setup, teardown),
        cmocka_unit_test_setup_teardown(suppressions_in_the_gate, setup, teardown),
        cmocka_unit_test_setup_teardown(unused_suppressions_in_diff_mode, setup, teardown),
        cmocka_unit_test_setup_teardown(malformed_baseline_is_an_error_and_kept, setup, teardown),
        cmocka_unit_test_setup_teardown(baseline_knows_the_context, setup, teardown),
        cmocka_unit_test_setup_teardown(files_from_and_threshold, setup, teardown),
        cmocka_unit_test_setup_teardown(diff_mode_reads_only_the_change, setup, teardown),
        cmocka_unit_test_setup_teardown(deep_directories_in_diff_mode, setup, teardown),
        cmocka_unit_test_setup_teardown(gate_judges_what_scan_skips, setup, teardown),
        cmocka_unit_test_setup_teardown(max_filesize_on_every_input, setup, teardown),
        cmocka_unit_test_setup_teardown(broken_query_stops_diff_mode, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
