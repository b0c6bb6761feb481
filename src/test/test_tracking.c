/*
 * test_tracking.c — tracking reports (src/analysis/tracking.c, src/report/tracking_*.c, `sunset report`):
 *  - the manifest loader: the bundled 63510 manifest, and one-line errors naming the place;
 *  - the removal handling of a file (直接删除 by a file-level finding, by the main declaration,
 *    by a derived fact, by legacy test classes; 部分删除 ranges merged from scopes and lines);
 *  - item states measured against a tree (at its path, moved, gone), task completion, batches
 *    by directory and by CODEOWNERS, the --update region;
 *  - end to end with $SUNSET_BIN: golden reports on testdata/paddle-mini and on a variant built
 *    here in a temp dir (a file deleted, a file moved, task 6 finished), JSON compared as
 *    parsed data and Markdown as exact text, and the three outputs checked to agree.
 * SUNSET_UPDATE_GOLDEN=1 rewrites testdata/tracking/<case>/ instead of comparing (make golden).
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
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "analysis/tracking.h"

/* --- helpers --- */

static char *slurp(const char *path) {
    char *s = NULL;
    size_t n;
    return read_file(path, 0, &s, &n) ? NULL : s;
}

static void spit(const char *path, const char *text) {
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
}

static int sh(const char *fmt, ...) {
    char cmd[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    int st = system(cmd);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static char tmpdir[PATH_MAX], binpath[PATH_MAX], repo[PATH_MAX];

static int setup_all(void **state) {
    (void)state;
    const char *b = getenv("SUNSET_BIN");
    if (!realpath(b && *b ? b : "build/sunset", binpath)) binpath[0] = 0;
    if (!getcwd(repo, sizeof repo)) return -1;
    snprintf(tmpdir, sizeof tmpdir, "/tmp/sunset-tracking-XXXXXX");
    return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown_all(void **state) {
    (void)state;
    if (tmpdir[0]) sh("rm -rf '%s'", tmpdir);
    return 0;
}

static sunset_finding fnd(const char *path, uint32_t line, const char *matched, int task, sunset_context ctx) {
    sunset_finding f;
    memset(&f, 0, sizeof f);
    f.rule_id = "X-RULE";
    f.family = task == 6 ? "async_executor" : "parallel_executor";
    f.message = "Legacy thing. More words.";
    f.task = task;
    f.ctx = ctx;
    f.path = (char *)path;
    f.span = (sunset_span){line, 1, line, 2};
    f.matched = (char *)matched;
    return f;
}

static void scope(sunset_finding *f, const char *kind, const char *name, uint32_t a, uint32_t b) {
    f->enc_kind = (char *)kind;
    f->enc_name = (char *)name;
    f->enc_start = a;
    f->enc_end = b;
}

static void result_of(sunset_result *r, sunset_finding *f, size_t n) {
    memset(r, 0, sizeof *r);
    r->root = "tree";
    r->findings = f;
    r->n_findings = n;
}

static const char *minimal_manifest =
    "{\"schema\":1,\"id\":\"t\",\"title\":\"T\",\"tasks\":[{\"number\":1,\"title\":\"one\",\"match\":{\"tasks\":[1]},"
    "\"items\":[{\"handling\":\"直接删除\",\"name\":\"x.py\",\"file\":\"old/dir/x.py\"},"
    "{\"handling\":\"部分删除\",\"name\":\"y.py\",\"file\":\"old/y.py\"},"
    "{\"handling\":\"直接删除\",\"name\":\"z.py\",\"file\":\"old/z.py\"}]},"
    "{\"number\":6,\"title\":\"six\",\"claimant\":\"@c\",\"prs\":[\"#6\"],\"match\":{\"tasks\":[6]},"
    "\"items\":[{\"name\":\"ae\",\"match\":{\"families\":[\"async_executor\"]}}]}]}";

/* --- manifest --- */

static void manifest_bundled(void **state) {
    (void)state;
    sunset_error err = {{0}};
    tracking_manifest *m = tracking_manifest_load("rules/tracking/63510.json", &err);
    if (!m) print_error("%s\n", err.msg);
    assert_non_null(m);
    assert_int_equal(m->tasks.n, 6);
    const trk_task *t1 = &VEC_AT(&m->tasks, trk_task, 0);
    assert_int_equal(t1->number, 1);
    assert_int_equal(t1->items.n, 27);
    size_t direct = 0, typo = 0;
    for (size_t i = 0; i < t1->items.n; i++) {
        const trk_item *it = &VEC_AT(&t1->items, trk_item, i);
        assert_non_null(it->file);
        direct += it->handling == TRK_DIRECT;
        if (strstr(it->name, ".py.py")) {
            typo++;
            /* the issue's text is displayed, the real file is matched, and the manifest says so */
            assert_string_equal(it->file, "test/legacy_test/test_program_prune_backward.py");
            assert_non_null(it->note);
        }
    }
    assert_int_equal(direct, 19); /* the issue's table: 19 直接删除, 8 部分删除 */
    assert_int_equal(typo, 1);
    tracking_manifest_free(m);
}

static void manifest_errors(void **state) {
    (void)state;
    static const struct {
        const char *json, *want;
    } cases[] = {
        {"{\"schema\":1,\n \"id\": }", "m.json:2:8: invalid JSON"},
        {"{\"schema\":2,\"id\":\"a\",\"title\":\"t\",\"tasks\":[]}", "m.json: \"schema\" must be 1"},
        {"{\"schema\":1,\"id\":\"a\",\"title\":\"t\",\"tasks\":[]}", "m.json: \"tasks\" must be a non-empty array"},
        {"{\"schema\":1,\"id\":\"a\",\"title\":\"t\",\"colour\":1,\"tasks\":[]}", "m.json: unknown key \"colour\""},
        {"{\"schema\":1,\"id\":\"a\",\"title\":\"t\",\"tasks\":[{\"number\":1,\"title\":\"x\"}]}",
         "m.json: tasks[0]: missing \"match\" (which findings belong to the task)"},
        {"{\"schema\":1,\"id\":\"a\",\"title\":\"t\",\"tasks\":[{\"number\":1,\"title\":\"x\",\"match\":{},"
         "\"items\":[{\"name\":\"a\"},{\"name\":\"b\",\"file\":\"b.py\",\"handling\":\"删除\"}]}]}",
         "m.json: tasks[0].items[0]: an item needs \"file\" or \"match\""},
        {"{\"schema\":1,\"id\":\"a\",\"title\":\"t\",\"tasks\":[{\"number\":1,\"title\":\"x\",\"match\":{},"
         "\"items\":[{\"name\":\"b\",\"file\":\"b.py\",\"handling\":\"删除\"}]}]}",
         "m.json: tasks[0].items[0]: \"handling\" must be 直接删除 or 部分删除, not \"删除\""},
        {"{\"schema\":1,\"id\":\"a\",\"title\":\"t\",\"tasks\":[{\"number\":1,\"title\":\"x\",\"match\":{\"tasks\":[0]}}]}",
         "m.json: tasks[0]: \"tasks\" must be an array of task numbers (1-99)"},
        {"{\"schema\":1,\"id\":\"a\",\"title\":\"t\",\"tasks\":[{\"number\":1,\"title\":\"x\",\"match\":{}},"
         "{\"number\":1,\"title\":\"y\",\"match\":{}}]}",
         "m.json: tasks[1]: task number  repeats an earlier task"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        sunset_error err = {{0}};
        tracking_manifest *m = tracking_manifest_parse(cases[i].json, "m.json", &err);
        if (m || strcmp(err.msg, cases[i].want) != 0) print_error("case %zu: got '%s'\n", i, err.msg);
        assert_null(m);
        assert_string_equal(err.msg, cases[i].want);
    }
    sunset_error err = {{0}};
    tracking_manifest *m = tracking_manifest_parse(minimal_manifest, "m.json", &err);
    assert_non_null(m);
    tracking_manifest_free(m);
    tracking_manifest_free(NULL);
}

/* --- classification --- */

static bool derived(void *ctx, const char *path, const char **reason) {
    (void)ctx;
    *reason = "only the legacy executors include it";
    return strcmp(path, "d/derived.cc") == 0;
}

static void classify_files(void **state) {
    (void)state;
    sunset_finding f[8];
    f[0] = fnd("a/legacy_thing.cc", 1, "a/legacy_thing.cc", 5, SUNSET_CTX_CODE); /* file level: 1:1, matched = path */
    f[0].span.end_col = 1;
    f[1] = fnd("b/parallel_executor.cc", 40, "ParallelExecutor", 5, SUNSET_CTX_CODE);
    f[2] = fnd("c/live.cc", 10, "ParallelExecutor", 5, SUNSET_CTX_CODE);
    scope(&f[2], "function", "Foo", 10, 20); /* on the scope's first line: the function is legacy */
    f[3] = fnd("c/live.cc", 30, "exec_strategy", 3, SUNSET_CTX_CODE);
    scope(&f[3], "class", "Live", 25, 60); /* a live class: only the line */
    f[4] = fnd("c/live.cc", 31, "ExecutionStrategy", 3, SUNSET_CTX_CODE);
    scope(&f[4], "class", "Live", 25, 60);
    f[5] = fnd("c/live.cc", 40, "ParallelExecutor", 5, SUNSET_CTX_COMMENT);
    scope(&f[5], "namespace", "paddle", 1, 90); /* a namespace never becomes a range */
    f[6] = fnd("c/parallel_executor_user.cc", 3, "ParallelExecutor", 5, SUNSET_CTX_COMMENT); /* a comment is no declaration */
    f[7] = fnd("d/derived.cc", 7, "OpHandleBase", 5, SUNSET_CTX_CODE);
    sunset_result res;
    result_of(&res, f, 8);
    sunset_error err = {{0}};
    tracking_manifest *m = tracking_manifest_parse(minimal_manifest, "m.json", &err);
    assert_non_null(m);
    tracking_opts o = {NULL, NULL, 0, NULL, derived, NULL, TRK_EN, NULL, NULL};
    tracking_report r;
    /* Chinese reasons: the prose Chinese, names and rule ids in code spans */
    assert_int_equal(tracking_compute(m, &res, &o, &r), 0);
    o.lang = TRK_ZH;
    tracking_report_free(&r);
    assert_int_equal(tracking_compute(m, &res, &o, &r), 0);
    assert_string_equal(tracking_file(&r, "a/legacy_thing.cc")->reason, "整个文件属于旧执行器（parallel_executor，规则 `X-RULE`）");
    assert_string_equal(tracking_file(&r, "b/parallel_executor.cc")->reason, "主声明 `ParallelExecutor` 属于旧执行器");
    const trk_range *zg = tracking_file(&r, "c/live.cc")->ranges.v;
    assert_string_equal(zg[0].reason, "整个 `Foo` 属于旧执行器（`ParallelExecutor`）");
    assert_string_equal(zg[1].reason, "`Live` 中的 `exec_strategy`");
    assert_string_equal(zg[2].reason, "注释中的 `ParallelExecutor`");
    tracking_report_free(&r);
    o.lang = TRK_EN;
    assert_int_equal(tracking_compute(m, &res, &o, &r), 0);
    assert_int_equal(r.files.n, 5);
    const trk_file *a = tracking_file(&r, "a/legacy_thing.cc");
    assert_int_equal(a->handling, TRK_DIRECT);
    assert_string_equal(a->reason, "Legacy thing"); /* one phrase of the rule's message */
    const trk_file *b = tracking_file(&r, "b/parallel_executor.cc");
    assert_int_equal(b->handling, TRK_DIRECT);
    assert_string_equal(b->reason, "its main declaration ParallelExecutor is legacy");
    const trk_file *c = tracking_file(&r, "c/live.cc");
    assert_int_equal(c->handling, TRK_PARTIAL);
    assert_int_equal(c->ranges.n, 3);
    const trk_range *g = c->ranges.v;
    assert_int_equal(g[0].start, 10);
    assert_int_equal(g[0].end, 20);
    assert_string_equal(g[0].reason, "function Foo is legacy (ParallelExecutor)");
    assert_int_equal(g[1].start, 30);
    assert_int_equal(g[1].end, 31); /* adjacent lines merge */
    assert_string_equal(g[1].reason, "exec_strategy in class Live");
    assert_int_equal(g[2].start, 40);
    assert_int_equal(g[2].end, 40);
    assert_string_equal(g[2].reason, "ParallelExecutor comment");
    assert_int_equal(c->lines, 11 + 2 + 1);
    assert_int_equal(c->tasks, (1u << 3) | (1u << 5));
    assert_int_equal(tracking_file(&r, "c/parallel_executor_user.cc")->handling, TRK_PARTIAL);
    const trk_file *d = tracking_file(&r, "d/derived.cc");
    assert_int_equal(d->handling, TRK_DIRECT);
    assert_string_equal(d->reason, "only the legacy executors include it");
    assert_null(tracking_file(&r, "e/none.cc"));
    tracking_report_free(&r);
    tracking_report_free(NULL);
    tracking_manifest_free(m);
}

/* A Python test goes whole when every top-level class has a finding on its header. */
static void classify_python_tests(void **state) {
    (void)state;
    char dir[PATH_MAX + 16], p[PATH_MAX + 64];
    snprintf(dir, sizeof dir, "%s/py", tmpdir);
    mkdir(dir, 0777);
    snprintf(p, sizeof p, "%s/test_all.py", dir);
    spit(p, "import unittest\nfrom pe_base import TestParallelExecutorBase\n\n\n"
            "class TestA(TestParallelExecutorBase):\n    pass\n\n\nclass TestB(TestParallelExecutorBase):\n    pass\n");
    snprintf(p, sizeof p, "%s/test_some.py", dir);
    spit(p, "import unittest\nfrom pe_base import TestParallelExecutorBase\n\n\n"
            "class TestA(TestParallelExecutorBase):\n    pass\n\n\nclass TestB(unittest.TestCase):\n    pass\n");
    sunset_finding f[6];
    f[0] = fnd("test_all.py", 2, "TestParallelExecutorBase", 1, SUNSET_CTX_CODE);
    f[1] = fnd("test_all.py", 5, "TestParallelExecutorBase", 1, SUNSET_CTX_CODE);
    f[2] = fnd("test_all.py", 9, "TestParallelExecutorBase", 1, SUNSET_CTX_CODE);
    f[3] = fnd("test_some.py", 2, "TestParallelExecutorBase", 1, SUNSET_CTX_CODE);
    f[4] = fnd("test_some.py", 5, "TestParallelExecutorBase", 1, SUNSET_CTX_CODE);
    scope(&f[4], "class", "TestA", 5, 6);
    f[5] = fnd("test_some.py", 9, "unused", 1, SUNSET_CTX_COMMENT); /* a comment does not make TestB legacy */
    for (int i = 0; i < 6; i++) f[i].test = true;
    sunset_result res;
    result_of(&res, f, 6);
    sunset_error err = {{0}};
    tracking_manifest *m = tracking_manifest_parse(minimal_manifest, "m.json", &err);
    tracking_opts o = {dir, NULL, 0, NULL, NULL, NULL, TRK_ZH, NULL, NULL};
    tracking_report r;
    assert_int_equal(tracking_compute(m, &res, &o, &r), 0);
    assert_string_equal(tracking_file(&r, "test_all.py")->reason, "旧执行器单测：其 2 个测试类均派生自旧基类");
    tracking_report_free(&r);
    o.lang = TRK_EN;
    assert_int_equal(tracking_compute(m, &res, &o, &r), 0);
    const trk_file *all = tracking_file(&r, "test_all.py");
    assert_int_equal(all->handling, TRK_DIRECT);
    assert_string_equal(all->reason, "a legacy test: its 2 test classes derive from a legacy base");
    assert_int_equal(all->lines, 10); /* the whole file */
    const trk_file *some = tracking_file(&r, "test_some.py");
    assert_int_equal(some->handling, TRK_PARTIAL);
    assert_int_equal(((trk_range *)some->ranges.v)[1].start, 5);
    assert_int_equal(((trk_range *)some->ranges.v)[1].end, 6); /* class TestA, found on its header */
    tracking_report_free(&r);
    tracking_manifest_free(m);
}

/* --- items that add up --- */

static int check_sums(const cJSON *doc);
static int english_runs(const char *md, char *first, size_t n);

/* Every finding of a task is in exactly one row: the most specific check item (names over
 * paths over families), else 其他; an item in another repository holds nothing and is not in
 * the fraction; an item left with comments only is a state of its own. */
static void items_add_up(void **state) {
    (void)state;
    static const char *mf =
        "{\"schema\":1,\"id\":\"t\",\"title\":\"T\",\"tasks\":[{\"number\":5,\"title\":\"five\","
        "\"match\":{\"tasks\":[5]},\"items\":["
        "{\"name\":\"handles\",\"match\":{\"families\":[\"op_handle\"]}},"
        "{\"name\":\"reduce\",\"match\":{\"paths\":[\"**/reduce_op_handle.*\"]}},"
        "{\"name\":\"run op\",\"match\":{\"names\":[\"cinn_instruction_run*\"],\"files\":[\"**/run_op.cc\"]}},"
        "{\"name\":\"pe\",\"match\":{\"families\":[\"parallel_executor\"],\"paths\":[\"pe/**\"]}},"
        "{\"name\":\"docs\",\"outside\":\"o/docs\"}]}]}";
    sunset_finding f[7];
    f[0] = fnd("d/reduce_op_handle.cc", 3, "ReduceOpHandle", 5, SUNSET_CTX_CODE);
    f[1] = fnd("d/scale_op_handle.cc", 4, "OpHandleBase", 5, SUNSET_CTX_CODE);
    f[2] = fnd("d/x.cc", 9, "cinn_instruction_run", 5, SUNSET_CTX_STRING);
    f[3] = fnd("d/y.cc", 2, "ParallelExecutor", 5, SUNSET_CTX_CODE); /* no item: 其他 */
    f[4] = fnd("d/run_op.cc", 2, "RunOp", 5, SUNSET_CTX_CODE);
    f[5] = fnd("pe/a.cc", 7, "ParallelExecutor", 5, SUNSET_CTX_COMMENT);
    f[6] = fnd("pe/b.cc", 1, "ParallelExecutor", 5, SUNSET_CTX_DOCSTRING);
    f[0].family = f[1].family = "op_handle";
    f[2].family = f[4].family = "cinn";
    sunset_result res;
    result_of(&res, f, 7);
    sunset_error err = {{0}};
    tracking_manifest *m = tracking_manifest_parse(mf, "m.json", &err);
    if (!m) print_error("%s\n", err.msg);
    assert_non_null(m);
    tracking_opts o = {NULL, NULL, 0, NULL, NULL, NULL, TRK_ZH, NULL, NULL};
    tracking_report r;
    assert_int_equal(tracking_compute(m, &res, &o, &r), 0);
    const trk_task *t = &VEC_AT(&m->tasks, trk_task, 0);
    const trk_item *it = (const trk_item *)t->items.v;
    assert_int_equal(it[0].open.n, 1); /* scale_op_handle: the family item */
    assert_int_equal(VEC_AT(&it[0].open, size_t, 0), 1);
    assert_int_equal(it[1].open.n, 1); /* reduce_op_handle: the path item, not the family one */
    assert_int_equal(VEC_AT(&it[1].open, size_t, 0), 0);
    assert_int_equal(it[2].open.n, 2); /* by its matched name, and every finding of run_op.cc */
    assert_int_equal(it[3].open.n, 2);
    assert_int_equal(trk_item_state(&it[3]), TRK_S_COMMENTS);
    assert_int_equal(it[3].comments, 2);
    assert_int_equal(trk_item_state(&it[4]), TRK_S_OUTSIDE);
    assert_false(it[4].done);
    assert_int_equal(t->other.n, 1);
    assert_int_equal(VEC_AT(&t->other, size_t, 0), 3);
    assert_int_equal(t->findings.n, 7); /* 1 + 1 + 2 + 2 + 1 */
    assert_int_equal(t->items_total, 4);
    assert_int_equal(t->items_done, 0);
    sb md = {0}, js = {0};
    assert_int_equal(tracking_write_md(&r, NULL, &md), 0);
    assert_non_null(strstr(md.s, "| 5 | five 🚧 进展 0/4，剩余 7 处（7 个文件） |"));
    assert_non_null(strstr(md.s, "| pe | 💬 仅剩注释 2 处 |"));
    assert_non_null(strstr(md.s, "| docs | ➖ 不在本仓库（o/docs） |"));
    assert_non_null(strstr(md.s, "| 其他（不属于任何子项） | ⬜ 剩余 1 处 |  | [d/y.cc#L2]("));
    assert_int_equal(tracking_write_json(&r, NULL, &js), 0);
    cJSON *doc = cJSON_Parse(js.s);
    assert_non_null(doc);
    assert_int_equal(check_sums(doc), 1);
    cJSON_Delete(doc);
    sb_free(&md);
    sb_free(&js);
    tracking_report_free(&r);
    /* an outside item measures nothing: it takes no file or match */
    static const char *bad = "{\"schema\":1,\"id\":\"t\",\"title\":\"T\",\"tasks\":[{\"number\":1,\"title\":\"x\","
                             "\"match\":{},\"items\":[{\"name\":\"d\",\"outside\":\"o/d\",\"match\":{}}]}]}";
    assert_null(tracking_manifest_parse(bad, "m.json", &err));
    assert_string_equal(err.msg, "m.json: tasks[0].items[0]: an \"outside\" item takes no \"file\", \"handling\" or \"match\"");
    tracking_manifest_free(m);
}

/* The counter of English runs: it finds them, and skips code, links and rule ids. */
static void english_run_counter(void **state) {
    (void)state;
    char first[256];
    assert_int_equal(english_runs("说明：the issue writes the name twice", first, sizeof first), 1);
    assert_string_equal(first, "the issue writes the name twice");
    /* a number ends a run: two runs here */
    assert_int_equal(english_runs("a legacy test: its 2 test classes derive from a legacy base", first, sizeof first), 2);
    assert_string_equal(first, "a legacy test: its 2 test classes derive from a legacy base");
    assert_int_equal(english_runs("| see the HTML report | x |\n| +5 more files in it |", first, sizeof first), 2);
    assert_int_equal(english_runs("移除 `remove the whole legacy thing` 中的 PE-PATH PS-PATH OH-PATH CINN-IDENT",
                                  first, sizeof first),
                     0);
    assert_int_equal(english_runs("[a b c d](https://x/a b c d) Fundable Projects No.4 Docs仓库 three words here",
                                  first, sizeof first),
                     1); /* the link text only */
    assert_int_equal(english_runs("移除OpHandle组件 ParallelExecutor 与 SSAGraphExecutor of it", first, sizeof first), 0);
}

/* check_sums on reports written elsewhere, e.g. of the real trees, and english_runs on their
 * Markdown: SUNSET_TRACKING_REPORTS is a ':'-separated list of tracking.json and Chinese
 * tracking.md files (skipped when unset). */
static void given_reports(void **state) {
    (void)state;
    const char *list = getenv("SUNSET_TRACKING_REPORTS");
    if (!list || !*list) skip();
    char *copy = strdup(list), *save = NULL;
    assert_non_null(copy);
    for (char *p = strtok_r(copy, ":", &save); p; p = strtok_r(NULL, ":", &save)) {
        char *text = slurp(p);
        if (!text) print_error("%s: cannot read\n", p);
        assert_non_null(text);
        size_t pl = strlen(p);
        if (pl > 3 && strcmp(p + pl - 3, ".md") == 0) {
            char run[256];
            int runs = english_runs(text, run, sizeof run);
            print_message("%s: %d runs of four or more English words%s%s\n", p, runs, runs ? "; the first: " : "",
                          run);
            assert_int_equal(runs, 0);
            sunset_free(text);
            continue;
        }
        cJSON *doc = cJSON_Parse(text);
        assert_non_null(doc);
        int n = check_sums(doc);
        print_message("%s: %d tasks add up\n", p, n);
        assert_true(n > 0);
        cJSON_Delete(doc);
        sunset_free(text);
    }
    free(copy);
}

/* --- item states --- */

/* The history of the test: PR #6 is merged, nothing else. */
static int merged_6(void *ctx, long pr) {
    (void)ctx;
    return pr == 6;
}

static void item_states(void **state) {
    (void)state;
    char *tree[] = {"new/dir/x.py", "old/y.py", "other/x.py", "src/ae.cc"};
    sunset_finding f[2];
    f[0] = fnd("new/dir/x.py", 3, "TestParallelExecutorBase", 1, SUNSET_CTX_CODE);
    f[1] = fnd("src/ae.cc", 5, "AsyncExecutor", 6, SUNSET_CTX_CODE);
    sunset_result res;
    result_of(&res, f, 2);
    sunset_error err = {{0}};
    tracking_manifest *m = tracking_manifest_parse(minimal_manifest, "m.json", &err);
    tracking_opts o = {NULL, tree, 4, NULL, NULL, NULL, TRK_ZH, NULL, NULL};
    tracking_report r;
    assert_int_equal(tracking_compute(m, &res, &o, &r), 0);
    trk_task *t1 = &VEC_AT(&m->tasks, trk_task, 0), *t6 = &VEC_AT(&m->tasks, trk_task, 1);
    const trk_item *x = &VEC_AT(&t1->items, trk_item, 0), *y = &VEC_AT(&t1->items, trk_item, 1),
                   *z = &VEC_AT(&t1->items, trk_item, 2);
    /* moved: the candidate sharing the longest directory suffix wins (new/dir/ over other/) */
    assert_int_equal(x->where, TRK_MOVED);
    assert_string_equal(x->found, "new/dir/x.py");
    assert_false(x->done);
    assert_int_equal(x->open.n, 1);
    assert_non_null(strstr(x->remark, "已移至 `new/dir/x.py`"));
    /* 部分删除 at its path without a finding of the task: done */
    assert_int_equal(y->where, TRK_AT_PATH);
    assert_true(y->done);
    /* 直接删除 and gone: done */
    assert_int_equal(z->where, TRK_GONE);
    assert_true(z->done);
    assert_int_equal(t1->items_done, 2);
    assert_false(t1->done);
    assert_false(t6->done);
    assert_int_equal(t6->findings.n, 1);
    assert_int_equal(r.tasks_done, 0);
    assert_int_equal(r.tasks_claimed, 1);
    /* no history: "submitted" is unknown, not the manifest's PR list */
    assert_false(r.submitted_known);
    assert_int_equal(r.tasks_submitted, 0);
    tracking_report_free(&r);
    /* the AsyncExecutor finding gone: task 6 completes; its PR #6 is in the history */
    result_of(&res, f, 1);
    o.pr_merged = merged_6;
    assert_int_equal(tracking_compute(m, &res, &o, &r), 0);
    assert_true(r.submitted_known);
    assert_int_equal(r.tasks_submitted, 1);
    assert_true(t6->merged);
    assert_false(t1->merged);
    assert_true(t6->done);
    assert_int_equal(r.tasks_done, 1);
    sb md = {0};
    assert_int_equal(tracking_write_md(&r, NULL, &md), 0);
    assert_non_null(strstr(md.s, "| 6 | six ✅ | @c #6 |"));
    assert_non_null(strstr(md.s, "#### 任务六：six ✅（整体进展：1/1）"));
    assert_non_null(strstr(md.s, "| T | 2 | 1 / 1 | 50.0% | 1 | 50.0% |"));
    sb_free(&md);
    tracking_report_free(&r);
    tracking_manifest_free(m);
}

/* A 部分删除 item stays open while its file holds legacy code of any task: the test that still
 * constructs a ParallelExecutor is not done because task 1's rules no longer match it. The
 * task row and the progress line show the same done/total; the remark names the other task. */
static void partial_item_other_task(void **state) {
    (void)state;
    char *tree[] = {"old/y.py"};
    sunset_finding f[1];
    f[0] = fnd("old/y.py", 7, "ExecutionStrategy", 6, SUNSET_CTX_CODE);
    f[0].family = "execution_strategy";
    sunset_result res;
    result_of(&res, f, 1);
    sunset_error err = {{0}};
    tracking_manifest *m = tracking_manifest_parse(minimal_manifest, "m.json", &err);
    assert_non_null(m);
    for (int lang = TRK_ZH; lang <= TRK_EN; lang++) {
        tracking_opts o = {NULL, tree, 1, NULL, NULL, NULL, (trk_lang)lang, NULL, NULL};
        tracking_report r;
        assert_int_equal(tracking_compute(m, &res, &o, &r), 0);
        r.lang = (trk_lang)lang;
        const trk_task *t1 = &VEC_AT(&m->tasks, trk_task, 0);
        const trk_item *y = &VEC_AT(&t1->items, trk_item, 1);
        /* no finding of task 1's own rules, but the row counts what keeps its item open */
        assert_int_equal(t1->findings.n, 1);
        assert_int_equal(t1->n_files, 1);
        assert_int_equal(t1->other.n, 0);
        assert_false(y->done);
        assert_int_equal(y->open.n, 1);
        assert_int_equal(y->open_other, 1);
        assert_non_null(strstr(y->remark, lang == TRK_EN ? "still holds legacy code of task 6 (execution_strategy: 1)"
                                                          : "仍有任务六（execution_strategy：1 处）的旧执行器代码"));
        assert_int_equal(t1->items_done, 2); /* x.py and z.py (直接删除) are gone */
        sb md = {0};
        assert_int_equal(tracking_write_md(&r, NULL, &md), 0);
        if (lang == TRK_EN) {
            assert_non_null(strstr(md.s, "| 1 | one 🚧 2/3 done, 1 finding left in 1 file |"));
        } else {
            assert_non_null(strstr(md.s, "| 1 | one 🚧 进展 2/3，剩余 1 处（1 个文件） |"));
            assert_non_null(strstr(md.s, "#### 任务一：one（整体进展：2/3）"));
        }
        sb_free(&md);
        tracking_report_free(&r);
    }
    tracking_manifest_free(m);
}

static void update_region(void **state) {
    (void)state;
    const char *body = "intro\n" TRACKING_MARK_BEGIN "\nold\n" TRACKING_MARK_END "\noutro\n";
    const char *region = TRACKING_MARK_BEGIN "\nnew\n" TRACKING_MARK_END "\n";
    bool missing;
    char *once = tracking_update_body(body, region, &missing);
    assert_non_null(once);
    assert_string_equal(once, "intro\n" TRACKING_MARK_BEGIN "\nnew\n" TRACKING_MARK_END "\noutro\n");
    char *twice = tracking_update_body(once, region, &missing);
    assert_string_equal(twice, once); /* idempotent */
    assert_null(tracking_update_body("no markers here\n", region, &missing));
    assert_true(missing);
    assert_null(tracking_update_body(TRACKING_MARK_END "\n" TRACKING_MARK_BEGIN "\n", region, &missing));
    assert_true(missing);
    sunset_free(once);
    sunset_free(twice);
}

/* Markers count only as a line of their own: a path spelling one inside the region (a table
 * cell) no longer cuts it, and one the report would write on its own line is defused. */
static void update_markers_are_lines(void **state) {
    (void)state;
    bool missing;
    const char *body = "intro\n" TRACKING_MARK_BEGIN "\n| `a/" TRACKING_MARK_END ".py` | 3 |\nold\n" TRACKING_MARK_END
                       "\noutro\n";
    const char *region = TRACKING_MARK_BEGIN "\nnew\n" TRACKING_MARK_END "\n";
    char *once = tracking_update_body(body, region, &missing);
    assert_non_null(once);
    assert_string_equal(once, "intro\n" TRACKING_MARK_BEGIN "\nnew\n" TRACKING_MARK_END "\noutro\n");
    sunset_free(once);
    /* the report's own text holding a marker line: shown, never a marker */
    const char *spelled = TRACKING_MARK_BEGIN "\n- x\n" TRACKING_MARK_END "\n" TRACKING_MARK_BEGIN "\ny\n" TRACKING_MARK_END "\n";
    once = tracking_update_body(body, spelled, &missing);
    assert_non_null(once);
    assert_string_equal(once, "intro\n" TRACKING_MARK_BEGIN "\n- x\n&lt;!-- sunset:tracking:end -->\n"
                              "&lt;!-- sunset:tracking:begin -->\ny\n" TRACKING_MARK_END "\noutro\n");
    char *twice = tracking_update_body(once, spelled, &missing);
    assert_string_equal(twice, once);
    sunset_free(once);
    sunset_free(twice);
    /* CRLF, as GitHub's editor saves a body; a marker with more on its line is not one */
    once = tracking_update_body("a\r\n" TRACKING_MARK_BEGIN "\r\nold\r\n" TRACKING_MARK_END "\r\nb\r\n", region, &missing);
    assert_non_null(once);
    assert_string_equal(once, "a\r\n" TRACKING_MARK_BEGIN "\nnew\n" TRACKING_MARK_END "\r\nb\r\n");
    sunset_free(once);
    assert_null(tracking_update_body(TRACKING_MARK_BEGIN " x\n" TRACKING_MARK_END "\n", region, &missing));
    assert_true(missing);
}

static void batches(void **state) {
    (void)state;
    sunset_finding f[11];
    static char paths[11][32];
    for (int i = 0; i < 10; i++) {
        snprintf(paths[i], sizeof paths[i], "a/f%02d.cc", i);
        f[i] = fnd(paths[i], 4, "ParallelExecutor", 5, SUNSET_CTX_COMMENT);
    }
    f[10] = fnd("b/g.cc", 4, "AsyncExecutor", 6, SUNSET_CTX_COMMENT);
    sunset_result res;
    result_of(&res, f, 11);
    sunset_error err = {{0}};
    tracking_manifest *m = tracking_manifest_parse(minimal_manifest, "m.json", &err);
    tracking_opts o = {NULL, NULL, 0, NULL, NULL, NULL, TRK_ZH, NULL, NULL};
    tracking_report r;
    assert_int_equal(tracking_compute(m, &res, &o, &r), 0);
    vec b;
    assert_int_equal(tracking_batches(&r, NULL, 4, &b), 0);
    assert_int_equal(b.n, 4); /* a/: 4 + 4 + 2, b/: 1 */
    assert_string_equal(VEC_AT(&b, trk_batch, 0).key, "a");
    assert_string_equal(VEC_AT(&b, trk_batch, 1).key, "a (2)");
    assert_int_equal(VEC_AT(&b, trk_batch, 2).files.n, 2);
    assert_string_equal(VEC_AT(&b, trk_batch, 3).key, "b");
    assert_int_equal(VEC_AT(&b, trk_batch, 3).lines, 1);
    assert_string_equal(VEC_AT(&VEC_AT(&b, trk_batch, 3).families, const char *, 0), "async_executor");
    tracking_batches_free(&b);
    const char *owners = "# owners\n* @everyone\na/f0* @ann\n/b/ @bea @ben\n";
    assert_int_equal(tracking_batches(&r, owners, 8, &b), 0);
    assert_int_equal(b.n, 3);
    assert_string_equal(VEC_AT(&b, trk_batch, 0).key, "@ann");
    assert_int_equal(VEC_AT(&b, trk_batch, 0).files.n, 8);
    assert_string_equal(VEC_AT(&b, trk_batch, 1).key, "@ann (2)");
    assert_string_equal(VEC_AT(&b, trk_batch, 2).key, "@bea @ben");
    tracking_batches_free(&b);
    tracking_report_free(&r);
    tracking_manifest_free(m);
}

static void cn_numbers(void **state) {
    (void)state;
    char buf[16];
    assert_string_equal(trk_cn_number(1, buf), "一");
    assert_string_equal(trk_cn_number(6, buf), "六");
    assert_string_equal(trk_cn_number(10, buf), "十");
    assert_string_equal(trk_cn_number(12, buf), "十二");
    assert_string_equal(trk_cn_number(21, buf), "二十一");
    assert_string_equal(trk_cn_number(100, buf), "100");
}


/* Every allocation failure is survived: the calls return an error or succeed, nothing leaks. */
static void out_of_memory(void **state) {
    (void)state;
    sunset_finding f[4];
    f[0] = fnd("a/legacy_thing.cc", 1, "a/legacy_thing.cc", 6, SUNSET_CTX_CODE);
    f[0].span.end_col = 1;
    f[1] = fnd("c/live.cc", 10, "ParallelExecutor", 5, SUNSET_CTX_CODE);
    scope(&f[1], "function", "Foo", 10, 20);
    f[2] = fnd("c/live.cc", 30, "AsyncExecutor", 6, SUNSET_CTX_CODE);
    f[3] = fnd("old/dir/x.py", 3, "TestParallelExecutorBase", 1, SUNSET_CTX_CODE);
    char *tree[] = {"a/legacy_thing.cc", "c/live.cc", "old/dir/x.py"};
    sunset_result res;
    result_of(&res, f, 4);
    long base = sunset_alloc_live();
    char *want[3] = {NULL, NULL, NULL};
    size_t failed = 0, ok_run = 0;
    /* n = 0: the reference run; then fail the n-th allocation until 200 runs in a row no
     * longer reach a failure */
    for (size_t n = 0; n < 20000 && ok_run < 200; n++) {
        sunset_alloc_fail_after((long)n);
        sunset_error err = {{0}};
        tracking_manifest *m = tracking_manifest_parse(minimal_manifest, "m.json", &err);
        tracking_report r = {0};
        vec b = VEC_INIT(trk_batch);
        sb doc[3] = {{0}};
        tracking_opts o = {NULL, tree, 3, NULL, NULL, NULL, TRK_ZH, NULL, NULL};
        int rc = !m ? -1 : tracking_compute(m, &res, &o, &r);
        if (!rc) rc = tracking_batches(&r, "* @x\n", 2, &b);
        if (!rc) rc = tracking_write_md(&r, &b, &doc[0]);
        if (!rc) rc = tracking_write_json(&r, &b, &doc[1]);
        if (!rc) rc = tracking_write_html(&r, &b, &doc[2]);
        sunset_alloc_fail_after(0);
        if (n == 0) {
            assert_int_equal(rc, 0);
            for (int k = 0; k < 3; k++) want[k] = sb_take(&doc[k]);
        } else if (rc == 0) {
            /* no error: then nothing was lost either */
            for (int k = 0; k < 3; k++) {
                if (strcmp(doc[k].s, want[k]) != 0) {
                    size_t at = 0;
                    while (doc[k].s[at] && doc[k].s[at] == want[k][at]) at++;
                    print_error("allocation %zu failed silently: document %d differs at byte %zu: '%.80s' vs '%.80s'\n", n,
                                k, at, doc[k].s + at, want[k] + at);
                }
                assert_string_equal(doc[k].s, want[k]);
            }
            ok_run++;
        } else {
            failed++;
            ok_run = 0;
        }
        for (int k = 0; k < 3; k++) sb_free(&doc[k]);
        tracking_batches_free(&b);
        tracking_report_free(&r);
        tracking_manifest_free(m);
        assert_int_equal(sunset_alloc_live(), base + (n ? 3 : 3));
    }
    assert_true(failed > 50);
    assert_int_equal(ok_run, 200);
    for (int k = 0; k < 3; k++) sunset_free(want[k]);
    assert_int_equal(sunset_alloc_live(), base);
}

/* --- end to end --- */

/* Run `sunset report` in `cwd` with `args`; returns the exit code (stderr shown on failure). */
static int report(const char *cwd, const char *args) {
    char err[PATH_MAX + 16];
    snprintf(err, sizeof err, "%s/stderr", tmpdir);
    int rc = sh("cd '%s' && '%s' report %s 2>'%s'", cwd, binpath, args, err);
    if (rc) {
        char *e = slurp(err);
        print_error("sunset report %s: exit %d: %s\n", args, rc, e ? e : "");
        sunset_free(e);
    }
    return rc;
}

/* Runs of four or more English words in a Markdown text, outside code spans, link targets
 * and rule ids: what a reader of a Chinese report would read as an English sentence. A word
 * is ASCII letters (with ' or -, an opening parenthesis or closing punctuation); a rule id
 * (PE-PATH), a path, a number or any non-ASCII character ends a run, blanks continue it. The
 * first run found goes to *first. */
static int english_runs(const char *md, char *first, size_t n) {
    int runs = 0, words = 0;
    const char *run_start = NULL, *p = md;
    first[0] = 0;
    while (*p) {
        if (*p == '`') { /* a code span: skipped whole */
            const char *e = strchr(p + 1, '`');
            p = e ? e + 1 : p + 1;
            words = 0;
            continue;
        }
        if (p[0] == ']' && p[1] == '(') { /* a link target; its text reads on */
            const char *e = strchr(p, ')');
            p = e ? e + 1 : p + 2;
            continue;
        }
        if (*p == '[' || *p == ']') {
            p++;
            continue;
        }
        if (*p == ' ' || *p == '\t') {
            p++;
            continue;
        }
        if ((unsigned char)*p >= 0x80) { /* Chinese text (or any non-ASCII) ends a run */
            words = 0;
            p++;
            continue;
        }
        size_t len = 0;
        while (p[len] && !strchr(" \t\n`[]", p[len]) && (unsigned char)p[len] < 0x80) len++;
        const char *q = p;
        if (*q == '(') q++;
        size_t letters = 0, upper = 0, other = 0;
        for (; q < p + len; q++) {
            if ((*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z')) letters++, upper += *q <= 'Z';
            else if ((*q == '\'' || *q == '-') && letters) continue;
            else if (strchr(",.;:!?)", *q) && letters) continue;
            else other++;
        }
        bool rule_id = upper == letters && memchr(p, '-', len) != NULL;
        if (letters && !other && !rule_id) {
            if (!words++) run_start = p;
            if (words == 4 && !runs++) snprintf(first, n, "%.*s", (int)strcspn(run_start, "\n|"), run_start);
        } else {
            words = 0;
        }
        p += len;
        if (*p == '\n') words = 0, p++;
    }
    return runs;
}

/* A finding of the JSON as one comparable string. */
static void finding_key(const cJSON *f, char *out, size_t n) {
    snprintf(out, n, "%s:%d:%s", cJSON_GetObjectItem(f, "path")->valuestring,
             cJSON_GetObjectItem(f, "line")->valueint, cJSON_GetObjectItem(f, "rule")->valuestring);
}

static int cmp_str(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every row of a task adds up: its count is the sum of its items' and 其他's, and as lists
 * the findings of the items and 其他 are the task's, each exactly once. Items outside the
 * repository hold nothing and are not in the fraction. Returns the tasks checked. */
static int check_sums(const cJSON *doc) {
    const cJSON *t;
    int tasks = 0;
    cJSON_ArrayForEach(t, cJSON_GetObjectItem(doc, "tasks")) {
        const cJSON *rem = cJSON_GetObjectItem(t, "remaining"), *other = cJSON_GetObjectItem(t, "other"), *it, *f;
        int nf = cJSON_GetObjectItem(t, "findings")->valueint, sum = cJSON_GetObjectItem(other, "open")->valueint;
        int total = 0, done = 0;
        size_t n = 0, m = 0, cap = (size_t)cJSON_GetArraySize(rem) + 1;
        char **want = calloc(cap, sizeof *want), **got = calloc(cap, sizeof *got);
        assert_non_null(want);
        assert_non_null(got);
        cJSON_ArrayForEach(f, rem) {
            want[n] = malloc(1200);
            finding_key(f, want[n++], 1200);
        }
        cJSON_ArrayForEach(it, cJSON_GetObjectItem(t, "items")) {
            int open = cJSON_GetObjectItem(it, "open")->valueint;
            const char *st = cJSON_GetObjectItem(it, "state")->valuestring;
            assert_int_equal(open, cJSON_GetArraySize(cJSON_GetObjectItem(it, "findings")));
            sum += open;
            if (strcmp(st, "outside") == 0) {
                assert_int_equal(open, 0);
                assert_false(cJSON_IsTrue(cJSON_GetObjectItem(it, "done")));
                continue;
            }
            total++;
            done += cJSON_IsTrue(cJSON_GetObjectItem(it, "done"));
            if (strcmp(st, "comments_only") == 0)
                assert_int_equal(cJSON_GetObjectItem(it, "comments")->valueint, open);
            cJSON_ArrayForEach(f, cJSON_GetObjectItem(it, "findings")) {
                assert_true(m < cap);
                got[m] = malloc(1200);
                finding_key(f, got[m++], 1200);
            }
        }
        cJSON_ArrayForEach(f, cJSON_GetObjectItem(other, "findings")) {
            assert_true(m < cap);
            got[m] = malloc(1200);
            finding_key(f, got[m++], 1200);
        }
        if (sum != nf)
            print_error("task %d: %d findings, but its rows sum to %d\n", cJSON_GetObjectItem(t, "number")->valueint,
                        nf, sum);
        assert_int_equal(sum, nf);
        assert_int_equal(n, (size_t)nf);
        assert_int_equal(m, n);
        qsort(want, n, sizeof *want, cmp_str);
        qsort(got, m, sizeof *got, cmp_str);
        for (size_t i = 0; i < n; i++) assert_string_equal(got[i], want[i]);
        for (size_t i = 0; i < n; i++) free(want[i]), free(got[i]);
        free(want);
        free(got);
        assert_int_equal(cJSON_GetObjectItem(t, "items_total")->valueint, total);
        assert_int_equal(cJSON_GetObjectItem(t, "items_done")->valueint, done);
        tasks++;
    }
    return tasks;
}

/* The numbers of the three views agree: JSON tasks vs Markdown overview, 整体进展 and 看板信息,
 * vs HTML data attributes. */
static void check_agreement(const char *dir) {
    char p[PATH_MAX + 32];
    snprintf(p, sizeof p, "%s/tracking.json", dir);
    char *js = slurp(p);
    snprintf(p, sizeof p, "%s/tracking.md", dir);
    char *md = slurp(p);
    snprintf(p, sizeof p, "%s/tracking.html", dir);
    char *html = slurp(p);
    assert_non_null(js);
    assert_non_null(md);
    assert_non_null(html);
    cJSON *doc = cJSON_Parse(js);
    assert_non_null(doc);
    const cJSON *t, *sum = cJSON_GetObjectItem(doc, "summary");
    const char *mp = md, *hp = html;
    assert_true(check_sums(doc) > 0);
    cJSON_ArrayForEach(t, cJSON_GetObjectItem(doc, "tasks")) {
        int num = cJSON_GetObjectItem(t, "number")->valueint;
        int done = cJSON_IsTrue(cJSON_GetObjectItem(t, "done"));
        int idone = cJSON_GetObjectItem(t, "items_done")->valueint;
        int itotal = cJSON_GetObjectItem(t, "items_total")->valueint;
        int nf = cJSON_GetObjectItem(t, "findings")->valueint;
        int nfiles = cJSON_GetObjectItem(t, "files")->valueint;
        /* Markdown overview row */
        char key[64];
        snprintf(key, sizeof key, "\n| %d | ", num);
        const char *row = strstr(md, key);
        assert_non_null(row);
        const char *eol = strchr(row + 1, '\n');
        if (done) {
            assert_non_null(strstr(row, "✅"));
            assert_true(strstr(row, "✅") < eol);
        } else {
            /* the row's fraction is the progress line's: done / total, never the open count */
            int rd = -1, rt = -1, f = -1, fl = -1;
            const char *o = strstr(row, "🚧");
            assert_non_null(o);
            assert_true(o < eol);
            if (itotal) {
                assert_int_equal(sscanf(o, "🚧 进展 %d/%d，剩余 %d 处（%d 个文件）", &rd, &rt, &f, &fl), 4);
                assert_int_equal(rd, idone);
                assert_int_equal(rt, itotal);
            } else {
                assert_int_equal(sscanf(o, "🚧 剩余 %d 处（%d 个文件）", &f, &fl), 2);
            }
            assert_int_equal(f, nf);
            assert_int_equal(fl, nfiles);
        }
        /* Markdown detail heading, in task order */
        const char *h = strstr(mp, "（整体进展：");
        assert_non_null(h);
        int a = -1, b = -1;
        assert_int_equal(sscanf(h, "（整体进展：%d/%d）", &a, &b), 2);
        assert_int_equal(a, idone);
        assert_int_equal(b, itotal);
        mp = h + 1;
        /* HTML task row */
        const char *hr = strstr(hp, "<tr data-task=\"");
        assert_non_null(hr);
        int hn, hd, ht, hf, hfl;
        char hdone[8];
        assert_int_equal(sscanf(hr, "<tr data-task=\"%d\" data-done=\"%5[a-z]\" data-items-done=\"%d\" "
                                    "data-items-total=\"%d\" data-findings=\"%d\" data-files=\"%d\"",
                                &hn, hdone, &hd, &ht, &hf, &hfl),
                         6);
        assert_int_equal(hn, num);
        assert_string_equal(hdone, done ? "true" : "false");
        assert_int_equal(hd, idone);
        assert_int_equal(ht, itotal);
        assert_int_equal(hf, nf);
        assert_int_equal(hfl, nfiles);
        hp = hr + 1;
    }
    /* 看板信息 */
    const char *board = strstr(md, "| 任务方向 |");
    assert_non_null(board);
    board = strstr(board, "---|\n| ");
    assert_non_null(board);
    board = strchr(board + 6, '|');
    int n = -1, s = -1, c = -1, d = -1;
    if (cJSON_IsNull(cJSON_GetObjectItem(sum, "submitted"))) {
        /* no history to measure "submitted" in: the board says so instead of copying */
        assert_int_equal(sscanf(board, "| %d | 未知 / %d | — | %d |", &n, &c, &d), 3);
    } else {
        assert_int_equal(sscanf(board, "| %d | %d / %d | %*f%% | %d |", &n, &s, &c, &d), 4);
        assert_int_equal(s, cJSON_GetObjectItem(sum, "submitted")->valueint);
    }
    assert_int_equal(n, cJSON_GetObjectItem(sum, "tasks")->valueint);
    assert_int_equal(c, cJSON_GetObjectItem(sum, "claimed")->valueint);
    assert_int_equal(d, cJSON_GetObjectItem(sum, "done")->valueint);
    int hn = -1, hd = -1;
    const char *hb = strstr(html, "<table id=\"board\"");
    assert_non_null(hb);
    assert_int_equal(sscanf(hb, "<table id=\"board\" data-tasks=\"%d\" data-done=\"%d\"", &hn, &hd), 2);
    assert_int_equal(hn, n);
    assert_int_equal(hd, d);
    /* every file with findings appears in the HTML's handling table; the Markdown lists the
     * ones its budget holds and counts the rest in its "+N more" line */
    const cJSON *f;
    int in_md = 0, files = cJSON_GetArraySize(cJSON_GetObjectItem(doc, "files")), more = 0;
    cJSON_ArrayForEach(f, cJSON_GetObjectItem(doc, "files")) {
        const char *path = cJSON_GetObjectItem(f, "path")->valuestring;
        char want[1024];
        const char *h = cJSON_GetObjectItem(f, "handling")->valuestring;
        snprintf(want, sizeof want, "\n| %s | [%s](", strcmp(h, "delete") == 0 ? "直接删除" : "部分删除", path);
        in_md += strstr(md, want) != NULL;
        snprintf(want, sizeof want, ">%s</a></td>", path);
        assert_non_null(strstr(html, want));
    }
    const char *ml = strstr(md, "个文件（问题较少）");
    if (ml) {
        while (ml > md && ml[-1] != '\n') ml--;
        assert_int_equal(sscanf(ml, "- 另有 %d ", &more), 1);
    }
    assert_int_equal(in_md + more, files);
    assert_true(trk_chars(md, strlen(md)) < TRACKING_MD_BUDGET);
    cJSON_Delete(doc);
    sunset_free(js);
    sunset_free(md);
    sunset_free(html);
}

/* Compare (or, with SUNSET_UPDATE_GOLDEN=1, rewrite) testdata/tracking/<name>/. */
static void golden(const char *out, const char *name) {
    char got[PATH_MAX + 32], want[PATH_MAX + 64];
    bool update = getenv("SUNSET_UPDATE_GOLDEN") && strcmp(getenv("SUNSET_UPDATE_GOLDEN"), "1") == 0;
    if (update) {
        assert_int_equal(sh("mkdir -p '%s/testdata/tracking/%s' && cp '%s/tracking.json' '%s/tracking.md' "
                            "'%s/testdata/tracking/%s/'",
                            repo, name, out, out, repo, name),
                         0);
        return;
    }
    snprintf(got, sizeof got, "%s/tracking.json", out);
    snprintf(want, sizeof want, "%s/testdata/tracking/%s/tracking.json", repo, name);
    char *g = slurp(got), *w = slurp(want);
    assert_non_null(g);
    if (!w) print_error("missing %s: run make golden\n", want);
    assert_non_null(w);
    cJSON *gj = cJSON_Parse(g), *wj = cJSON_Parse(w);
    assert_non_null(gj);
    assert_non_null(wj);
    /* compared as parsed data, key by key so a difference is named */
    const cJSON *wk;
    int bad = 0;
    cJSON_ArrayForEach(wk, wj) {
        const cJSON *gk = cJSON_GetObjectItem(gj, wk->string);
        if (!gk || !cJSON_Compare(wk, gk, 1)) {
            print_error("%s: tracking.json: \"%s\" differs from the golden\n", name, wk->string);
            bad++;
        }
    }
    assert_int_equal(cJSON_GetArraySize(gj), cJSON_GetArraySize(wj));
    assert_int_equal(bad, 0);
    cJSON_Delete(gj);
    cJSON_Delete(wj);
    sunset_free(g);
    sunset_free(w);
    snprintf(got, sizeof got, "%s/tracking.md", out);
    snprintf(want, sizeof want, "%s/testdata/tracking/%s/tracking.md", repo, name);
    g = slurp(got);
    w = slurp(want);
    assert_non_null(g);
    assert_non_null(w);
    if (strcmp(g, w) != 0) print_error("%s: tracking.md differs from the golden: diff '%s' '%s'\n", name, want, got);
    assert_string_equal(g, w);
    sunset_free(g);
    sunset_free(w);
}

static cJSON *load_json(const char *dir) {
    char p[PATH_MAX + 32];
    snprintf(p, sizeof p, "%s/tracking.json", dir);
    char *s = slurp(p);
    assert_non_null(s);
    cJSON *j = cJSON_Parse(s);
    sunset_free(s);
    assert_non_null(j);
    return j;
}

static const cJSON *task_of(const cJSON *doc, int number) {
    const cJSON *t;
    cJSON_ArrayForEach(t, cJSON_GetObjectItem(doc, "tasks")) if (cJSON_GetObjectItem(t, "number")->valueint == number) return t;
    fail_msg("no task %d", number);
    return NULL;
}

static const cJSON *item_named(const cJSON *task, const char *name) {
    const cJSON *it;
    cJSON_ArrayForEach(it, cJSON_GetObjectItem(task, "items")) if (strcmp(cJSON_GetObjectItem(it, "name")->valuestring, name) == 0) return it;
    fail_msg("no item %s", name);
    return NULL;
}

static void e2e_mini(void **state) {
    (void)state;
    char out[PATH_MAX + 16], args[PATH_MAX * 2];
    snprintf(out, sizeof out, "%s/mini", tmpdir);
    snprintf(args, sizeof args, "testdata/paddle-mini --no-config -q --manifest testdata/tracking/manifest.json --out-dir '%s'", out);
    assert_int_equal(report(repo, args), 0);
    check_agreement(out);
    cJSON *doc = load_json(out);
    const cJSON *t1 = task_of(doc, 1);
    const cJSON *sere = item_named(t1, "seresnext_test_base.py");
    /* the manifest says 部分删除, the file is entirely legacy now: the report says so */
    assert_string_equal(cJSON_GetObjectItem(sere, "computed")->valuestring, "delete");
    assert_non_null(strstr(cJSON_GetObjectItem(sere, "remark")->valuestring, "但现在应整个删除"));
    assert_string_equal(cJSON_GetObjectItem(item_named(t1, "test_gone_long_ago.py"), "where")->valuestring, "gone");
    cJSON_Delete(doc);
    golden(out, "mini");
}

/* Drop the lines holding `word` from a file of the variant tree. */
static void drop_lines(const char *path, const char *w1, const char *w2) {
    char *s = slurp(path);
    assert_non_null(s);
    sb out = {0};
    for (char *l = s; *l;) {
        char *nl = strchr(l, '\n');
        size_t n = nl ? (size_t)(nl - l + 1) : strlen(l);
        char save = l[n];
        l[n] = 0;
        if (!strstr(l, w1) && !strstr(l, w2)) sb_puts(&out, l);
        l[n] = save;
        l += n;
    }
    spit(path, out.s ? out.s : "");
    sb_free(&out);
    sunset_free(s);
}

static void e2e_progress(void **state) {
    (void)state;
    char tree[PATH_MAX + 32], out[PATH_MAX + 16], args[PATH_MAX * 3], p[PATH_MAX + 128];
    snprintf(tree, sizeof tree, "%s/paddle-mini-progress", tmpdir);
    snprintf(out, sizeof out, "%s/progress", tmpdir);
    assert_int_equal(sh("cp -R '%s/testdata/paddle-mini' '%s'", repo, tree), 0);
    /* a file deleted, a file moved, task 6 finished */
    assert_int_equal(sh("cd '%s' && rm test/legacy_test/test_ir_inplace_pass.py && mkdir -p test/deprecated/legacy_test && "
                        "mv test/legacy_test/test_program_prune_backward.py test/deprecated/legacy_test/ && "
                        "rm paddle/fluid/framework/async_executor.cc paddle/fluid/framework/async_executor.h "
                        "paddle/fluid/framework/executor_thread_worker.cc paddle/fluid/framework/executor_thread_worker.h",
                        tree),
                     0);
    static const char *const refs[] = {"paddle/fluid/pybind/data_set_py.cc", "python/paddle/base/data_feed_desc.py",
                                       "doc/design/executor_migration.md"};
    for (size_t i = 0; i < 3; i++) {
        snprintf(p, sizeof p, "%s/%s", tree, refs[i]);
        drop_lines(p, "AsyncExecutor", "async_executor");
    }
    snprintf(args, sizeof args,
             "paddle-mini-progress --no-config -q --manifest '%s/testdata/tracking/manifest.json' --out-dir '%s'", repo, out);
    assert_int_equal(report(tmpdir, args), 0);
    check_agreement(out);
    cJSON *doc = load_json(out);
    const cJSON *t1 = task_of(doc, 1), *t6 = task_of(doc, 6);
    const cJSON *del = item_named(t1, "test_ir_inplace_pass.py");
    assert_string_equal(cJSON_GetObjectItem(del, "where")->valuestring, "gone");
    assert_true(cJSON_IsTrue(cJSON_GetObjectItem(del, "done")));
    const cJSON *mv = item_named(t1, "test_program_prune_backward.py.py");
    assert_string_equal(cJSON_GetObjectItem(mv, "where")->valuestring, "moved");
    assert_string_equal(cJSON_GetObjectItem(mv, "found")->valuestring, "test/deprecated/legacy_test/test_program_prune_backward.py");
    assert_false(cJSON_IsTrue(cJSON_GetObjectItem(mv, "done"))); /* still has its task-1 finding */
    assert_non_null(strstr(cJSON_GetObjectItem(mv, "remark")->valuestring, "已移至 `test/deprecated/legacy_test/"));
    assert_true(cJSON_IsTrue(cJSON_GetObjectItem(t6, "done")));
    assert_int_equal(cJSON_GetObjectItem(t6, "findings")->valueint, 0);
    assert_int_equal(cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "summary"), "done")->valueint, 1);
    /* one more item done than on the unchanged tree (the deleted file) */
    char mini[PATH_MAX + 16];
    snprintf(mini, sizeof mini, "%s/mini", tmpdir);
    struct stat st;
    if (stat(mini, &st) == 0) {
        cJSON *before = load_json(mini);
        assert_int_equal(cJSON_GetObjectItem(t1, "items_done")->valueint,
                         cJSON_GetObjectItem(task_of(before, 1), "items_done")->valueint + 1);
        cJSON_Delete(before);
    }
    cJSON_Delete(doc);
    golden(out, "progress");
}

/* The bundled manifest on the sample tree: the views agree; --update rewrites only the region. */
/* --update fits the whole body without --md-budget: the report gets what the text outside
 * the markers leaves of the issue limit, and an explicit --md-budget still caps it. */
static void e2e_update_fits_body(void **state) {
    (void)state;
    char body[PATH_MAX + 16], args[PATH_MAX * 2];
    snprintf(body, sizeof body, "%s/long-issue.md", tmpdir);
    /* 35,000 characters of the issue's own text: the 43,000-character report no longer fits */
    sb text = {0};
    for (int i = 0; i < 700; i++) sb_printf(&text, "任务描述详细见 RFC，第 %03d 行：旧执行器退场的背景与说明。Line of prose %03d.\n", i, i);
    size_t around = trk_chars(text.s, text.len);
    assert_true(around > 30000 && around < 40000);
    sb_puts(&text, TRACKING_MARK_BEGIN "\nold\n" TRACKING_MARK_END "\n");
    spit(body, text.s);
    snprintf(args, sizeof args, "testdata/paddle-mini --no-config -q --update '%s'", body);
    assert_int_equal(report(repo, args), 0);
    char *got = slurp(body);
    assert_non_null(got);
    size_t chars = trk_chars(got, strlen(got));
    assert_true(chars <= TRACKING_ISSUE_LIMIT);
    assert_true(chars > TRACKING_ISSUE_LIMIT - 2000); /* the room is used, not a fixed budget */
    assert_non_null(strstr(got, "未在此列出")); /* something was cut to fit */
    assert_true(strncmp(got, text.s, text.len - strlen(TRACKING_MARK_BEGIN "\nold\n" TRACKING_MARK_END "\n")) == 0);
    sunset_free(got);
    /* --md-budget below the room wins */
    spit(body, text.s);
    snprintf(args, sizeof args, "testdata/paddle-mini --no-config -q --md-budget 28000 --update '%s'", body);
    assert_int_equal(report(repo, args), 0);
    got = slurp(body);
    assert_true(trk_chars(got, strlen(got)) - around < 28000);
    sunset_free(got);
    sb_free(&text);
}

/* Links follow the remote that has the measured commit: none (a local commit) keeps the
 * manifest's branch links with a warning; a fork's remote whose branch holds it gets the
 * blob links. */
static void e2e_links_follow_remote(void **state) {
    (void)state;
    char tree[PATH_MAX + 16], args[PATH_MAX * 3], errp[PATH_MAX + 16];
    snprintf(tree, sizeof tree, "%s/gitmini", tmpdir);
    snprintf(errp, sizeof errp, "%s/stderr", tmpdir);
    assert_int_equal(sh("rm -rf '%s' && cp -R testdata/paddle-mini '%s' && cd '%s' && git init -q . && git add -A && "
                        "git -c user.name=t -c user.email=t@t commit -qm t",
                        tree, tree, tree),
                     0);
    snprintf(args, sizeof args, "'%s' --no-config -o '%s/l1.md'", tree, tmpdir);
    assert_int_equal(report(repo, args), 0);
    char p[PATH_MAX + 32];
    snprintf(p, sizeof p, "%s/l1.md", tmpdir);
    char *md = slurp(p), *err = slurp(errp);
    assert_non_null(strstr(err, "is in no remote branch with a web URL"));
    assert_non_null(strstr(md, "](https://github.com/PaddlePaddle/Paddle/blob/develop/"));
    assert_non_null(strstr(md, "该提交不在任何远程仓库中，链接指向分支"));
    sunset_free(md);
    sunset_free(err);
    /* a fork's remote branch holds the commit: blob links into the fork */
    assert_int_equal(sh("cd '%s' && git remote add fork git@github.com:someone/Paddle.git && "
                        "git update-ref refs/remotes/fork/develop HEAD",
                        tree),
                     0);
    snprintf(args, sizeof args, "'%s' --no-config -o '%s/l2.md'", tree, tmpdir);
    assert_int_equal(report(repo, args), 0);
    snprintf(p, sizeof p, "%s/l2.md", tmpdir);
    md = slurp(p);
    err = slurp(errp);
    char sha[64] = {0};
    assert_int_equal(sh("cd '%s' && git rev-parse HEAD > '%s/sha'", tree, tmpdir), 0);
    snprintf(p, sizeof p, "%s/sha", tmpdir);
    char *sh_txt = slurp(p);
    snprintf(sha, sizeof sha, "%.40s", sh_txt);
    char want[256];
    snprintf(want, sizeof want, "](https://github.com/someone/Paddle/blob/%s/", sha);
    assert_non_null(strstr(md, want));
    assert_non_null(strstr(md, "链接均指向该提交"));
    assert_non_null(strstr(err, "links point at https://github.com/someone/Paddle, the remote that has it"));
    sunset_free(sh_txt);
    sunset_free(md);
    sunset_free(err);
}

/* A checklist file renamed (x.py → x_deprecated.py, or the manifest's renamed_to) is followed:
 * measured under its new name and reported as renamed, not deleted. */
static void renames_followed(void **state) {
    (void)state;
    static const char *mf =
        "{\"schema\":1,\"id\":\"t\",\"title\":\"T\",\"rename_suffixes\":[\"_deprecated\"],\"tasks\":["
        "{\"number\":1,\"title\":\"one\",\"match\":{\"tasks\":[1]},\"items\":["
        "{\"handling\":\"部分删除\",\"name\":\"a.py\",\"file\":\"test/legacy_test/test_a.py\"},"
        "{\"handling\":\"部分删除\",\"name\":\"b.py\",\"file\":\"test/legacy_test/test_b.py\"},"
        "{\"handling\":\"直接删除\",\"name\":\"c.py\",\"file\":\"test/c.py\",\"renamed_to\":\"test/old/c_old.py\"}]}]}";
    char *tree[] = {"test/deprecated/legacy_test/test_a_deprecated.py", "test/deprecated/legacy_test/test_b_deprecated.py",
                    "test/old/c_old.py"};
    sunset_finding f[1];
    f[0] = fnd("test/deprecated/legacy_test/test_a_deprecated.py", 4, "ParallelExecutor", 1, SUNSET_CTX_CODE);
    sunset_result res;
    result_of(&res, f, 1);
    sunset_error err = {{0}};
    tracking_manifest *m = tracking_manifest_parse(mf, "m.json", &err);
    if (!m) print_error("%s\n", err.msg);
    assert_non_null(m);
    tracking_opts o = {NULL, tree, 3, NULL, NULL, NULL, TRK_ZH, NULL, NULL};
    tracking_report r;
    assert_int_equal(tracking_compute(m, &res, &o, &r), 0);
    const trk_item *it = VEC_AT(&m->tasks, trk_task, 0).items.v;
    assert_int_equal(it[0].where, TRK_RENAMED);
    assert_string_equal(it[0].found, "test/deprecated/legacy_test/test_a_deprecated.py");
    assert_int_equal(it[0].open.n, 1); /* measured under the new name */
    assert_false(it[0].done);
    assert_string_equal(it[0].remark, "已重命名为 `test/deprecated/legacy_test/test_a_deprecated.py`");
    assert_int_equal(it[1].where, TRK_RENAMED);
    assert_true(it[1].done); /* renamed, and nothing legacy left in it */
    assert_null(strstr(it[1].remark, "删除"));
    assert_int_equal(it[2].where, TRK_RENAMED);
    assert_string_equal(it[2].found, "test/old/c_old.py");
    assert_false(it[2].done); /* 直接删除, but the file lives on under another name */
    tracking_report_free(&r);
    tracking_manifest_free(m);
}

/* PRs checked against the history: one not in it and one far older than the rest are shown
 * in code spans (GitHub does not link them) and listed with the reason; the HTML strikes
 * them instead of linking. */
static int history_of_prs(void *ctx, long pr) {
    (void)ctx;
    return pr == 6 ? 1 : pr == 8 ? 2 : 0;
}

static void prs_checked(void **state) {
    (void)state;
    static const char *mf =
        "{\"schema\":1,\"id\":\"t\",\"title\":\"T\",\"repository\":\"https://github.com/o/r\",\"tasks\":["
        "{\"number\":2,\"title\":\"two\",\"prs\":[\"#6\",\"#7\",\"#8\"],\"match\":{\"tasks\":[2]},\"items\":[]}]}";
    sunset_error err = {{0}};
    tracking_manifest *m = tracking_manifest_parse(mf, "m.json", &err);
    assert_non_null(m);
    sunset_result res;
    result_of(&res, NULL, 0);
    tracking_opts o = {NULL, NULL, 0, NULL, NULL, NULL, TRK_ZH, history_of_prs, NULL};
    tracking_report r;
    assert_int_equal(tracking_compute(m, &res, &o, &r), 0);
    assert_int_equal(trk_pr_state(&r, "#6"), 1);
    assert_int_equal(trk_pr_state(&r, "#7"), 0);
    assert_int_equal(trk_pr_state(&r, "6"), -1);
    assert_true(VEC_AT(&m->tasks, trk_task, 0).merged);
    sb md = {0}, html = {0};
    assert_int_equal(tracking_write_md(&r, NULL, &md), 0);
    assert_non_null(strstr(md.s, "| 2 | two ✅ | #6 `#7`⚠️ `#8`⚠️ |"));
    assert_non_null(strstr(md.s, "PR 核对：`#7`（任务二）不在所测提交的历史中"));
    assert_non_null(strstr(md.s, "PR 核对：`#8`（任务二）在历史中是比本议题其余 PR 早半年以上的提交"));
    assert_int_equal(tracking_write_html(&r, NULL, &html), 0);
    assert_non_null(strstr(html.s, "<a href=\"https://github.com/o/r/pull/6\">#6</a>"));
    assert_null(strstr(html.s, "/pull/7\""));
    assert_non_null(strstr(html.s, ">#8</s>"));
    sb_free(&md);
    sb_free(&html);
    tracking_report_free(&r);
    tracking_manifest_free(m);
}

static void e2e_bundled_and_update(void **state) {
    (void)state;
    char out[PATH_MAX + 16], args[PATH_MAX * 3], body[PATH_MAX + 16];
    snprintf(out, sizeof out, "%s/bundled", tmpdir);
    snprintf(args, sizeof args, "testdata/paddle-mini --no-config -q --out-dir '%s' --batches", out);
    assert_int_equal(report(repo, args), 0);
    check_agreement(out);
    cJSON *doc = load_json(out);
    const cJSON *t1 = task_of(doc, 1);
    assert_int_equal(cJSON_GetObjectItem(t1, "items_total")->valueint, 27);
    const cJSON *b, *f;
    size_t in_batches = 0;
    cJSON_ArrayForEach(b, cJSON_GetObjectItem(doc, "batches")) {
        assert_true(cJSON_GetArraySize(cJSON_GetObjectItem(b, "files")) <= 8);
        in_batches += (size_t)cJSON_GetArraySize(cJSON_GetObjectItem(b, "files"));
    }
    assert_int_equal(in_batches, (size_t)cJSON_GetArraySize(cJSON_GetObjectItem(doc, "files")));
    cJSON_ArrayForEach(f, cJSON_GetObjectItem(doc, "files")) {
        const char *h = cJSON_GetObjectItem(f, "handling")->valuestring;
        assert_true(strcmp(h, "delete") == 0 || strcmp(h, "partial") == 0);
        if (strcmp(h, "partial") == 0) assert_true(cJSON_GetArraySize(cJSON_GetObjectItem(f, "ranges")) > 0);
        else assert_non_null(cJSON_GetObjectItem(f, "reason")->valuestring);
    }
    cJSON_Delete(doc);

    snprintf(body, sizeof body, "%s/issue.md", tmpdir);
    spit(body, "Intro written by hand.\n\n" TRACKING_MARK_BEGIN "\nstale table\n" TRACKING_MARK_END "\n\nOutro.\n");
    /* with --out-dir in the same run, its tracking.md is the region: one budget, the body's */
    snprintf(out, sizeof out, "%s/bundled-update", tmpdir);
    snprintf(args, sizeof args, "testdata/paddle-mini --no-config -q --batches --update '%s' --out-dir '%s'", body, out);
    assert_int_equal(report(repo, args), 0);
    char *once = slurp(body);
    assert_non_null(once);
    assert_true(strncmp(once, "Intro written by hand.\n\n" TRACKING_MARK_BEGIN "\n", 25 + strlen(TRACKING_MARK_BEGIN)) == 0);
    assert_null(strstr(once, "stale table"));
    assert_non_null(strstr(once, TRACKING_MARK_END "\n\nOutro.\n"));
    char mdpath[PATH_MAX + 32];
    snprintf(mdpath, sizeof mdpath, "%s/tracking.md", out);
    char *md = slurp(mdpath);
    assert_non_null(strstr(once, md)); /* the region is the Markdown report, byte for byte */
    /* one language: the Chinese report of the bundled manifest has no English sentence */
    char run[256];
    int runs = english_runs(md, run, sizeof run);
    if (runs) print_error("%d English runs, the first: %s\n", runs, run);
    assert_int_equal(runs, 0);
    assert_int_equal(report(repo, args), 0);
    char *twice = slurp(body);
    assert_string_equal(once, twice);
    sunset_free(once);
    sunset_free(twice);
    sunset_free(md);
    /* no markers: exit 2, the file untouched */
    spit(body, "no markers\n");
    char err[PATH_MAX + 16];
    snprintf(err, sizeof err, "%s/stderr", tmpdir);
    assert_int_equal(sh("cd '%s' && '%s' report testdata/paddle-mini --no-config -q --update '%s' 2>'%s'", repo, binpath,
                        body, err),
                     2);
    char *e = slurp(err), *kept = slurp(body);
    assert_non_null(strstr(e, "no region to update"));
    assert_string_equal(kept, "no markers\n");
    sunset_free(e);
    sunset_free(kept);
}

/* A file whose name spells the end marker, listed in the region's batch table: the region
 * is still found whole, so a second --update changes nothing (it cut the region at the
 * table row before). */
static void e2e_update_with_a_marker_path(void **state) {
    (void)state;
    char tree[PATH_MAX + 16], body[PATH_MAX + 16], args[PATH_MAX * 3];
    snprintf(tree, sizeof tree, "%s/marker-tree", tmpdir);
    snprintf(body, sizeof body, "%s/marker-issue.md", tmpdir);
    assert_int_equal(sh("cp -r '%s/testdata/paddle-mini' '%s' && printf 'import paddle\\npe = paddle.static.ParallelExecutor(p)\\n"
                        "es = paddle.static.ExecutionStrategy()\\n' > '%s/python/paddle/" TRACKING_MARK_END ".py'",
                        repo, tree, tree), 0);
    spit(body, "Intro.\n\n" TRACKING_MARK_BEGIN "\nold\n" TRACKING_MARK_END "\n\nOutro.\n");
    snprintf(args, sizeof args, "'%s' --no-config -q --batches --update '%s'", tree, body);
    assert_int_equal(report(repo, args), 0);
    char *once = slurp(body);
    assert_non_null(once);
    assert_non_null(strstr(once, "[" TRACKING_MARK_END ".py]")); /* the path is in the region */
    assert_int_equal(report(repo, args), 0);
    char *twice = slurp(body);
    assert_string_equal(twice, once);
    const char *end = strstr(once, "\n" TRACKING_MARK_END "\n");
    assert_non_null(end);
    assert_string_equal(end, "\n" TRACKING_MARK_END "\n\nOutro.\n");
    sunset_free(once);
    sunset_free(twice);
}

int main(void) {
    /* the report's date of a tree outside git is the run's: pin it for the goldens */
    setenv("SOURCE_DATE_EPOCH", "1715212800", 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(manifest_bundled),
        cmocka_unit_test(manifest_errors),
        cmocka_unit_test(classify_files),
        cmocka_unit_test(classify_python_tests),
        cmocka_unit_test(item_states),
        cmocka_unit_test(items_add_up),
        cmocka_unit_test(english_run_counter),
        cmocka_unit_test(given_reports),
        cmocka_unit_test(partial_item_other_task),
        cmocka_unit_test(update_region),
        cmocka_unit_test(update_markers_are_lines),
        cmocka_unit_test(batches),
        cmocka_unit_test(cn_numbers),
        cmocka_unit_test(out_of_memory),
        cmocka_unit_test(e2e_mini),
        cmocka_unit_test(e2e_progress),
        cmocka_unit_test(e2e_bundled_and_update),
        cmocka_unit_test(e2e_update_with_a_marker_path),
        cmocka_unit_test(e2e_update_fits_body),
        cmocka_unit_test(e2e_links_follow_remote),
        cmocka_unit_test(prs_checked),
        cmocka_unit_test(renames_followed),
    };
    return cmocka_run_group_tests(tests, setup_all, teardown_all);
}
