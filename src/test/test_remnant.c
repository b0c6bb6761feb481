/*
 * test_remnant.c — the remnant layer (analysis/remnant.c) and its writers (report/remnant.c):
 * a whole-legacy file is one delete remnant absorbing every finding, a file the plan proves
 * dead is one too, a mixed file gives one remnant per line or touching run in one scope, a
 * line with several rules is one remnant carrying them all, a line inside a live plan item
 * is migrate naming the item's live callers, a named consumer from settings.remnants makes
 * migrate, comments and documents are update-doc; every finding is in exactly one remnant;
 * severities follow the action, capped by the findings'; settings.remnants is checked when
 * loaded; in a test a successor's object or a name inside a longer string is migrate; the
 * text writer prints one item per remnant unless --findings.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/remnant.h"
#include "core/rules_int.h"
#include "report/report.h"
#include "cmd/documents.h"

static const char *const PACK =
    "{\"schema\":1,\"settings\":{\"families\":[{\"id\":\"parallel_executor\",\"title\":\"PE\"}],"
    "\"remnants\":{\"file_rules\":[\"PE-PATH\"],\"delete_rules\":[\"*-CMAKE-*\"],"
    "\"doc_paths\":[\"\\\\.md$\"],"
    "\"consumers\":[{\"path\":\"graph_helper\\\\.cc$\",\"consumer\":\"graph-to-program conversion\"}],"
    "\"severity\":{\"delete\":\"error\",\"migrate\":\"warning\",\"update-doc\":\"info\"}}}}";

static sunset_ruleset *load(const char *json, sunset_error *err) {
    return sunset_ruleset_load_string(json, "00-settings.json", NULL, err);
}

static void add(sunset_result *r, const char *rule, const char *path, uint32_t line, sunset_context ctx,
                sunset_severity sev, const char *scope) {
    sunset_finding f = {.rule_id = rule, .family = "parallel_executor", .message = "m",
                        .fix = strstr(rule, "INCLUDE") ? "delete the include" : "replace it",
                        .task = 5, .severity = sev, .ctx = ctx, .path = (char *)path,
                        .span = {line, 3, line, 9}, .matched = "ParallelExecutor",
                        .snippet = "ParallelExecutor x;", .enc_kind = scope ? "function" : NULL,
                        .enc_name = (char *)scope, .enc_start = scope ? 1 : 0, .enc_end = scope ? 99 : 0};
    assert_non_null(sunset_result_add(r, &f));
}

/* A result over five files, and a plan with a live class and a dead file. */
static void fixture(sunset_result *r, rm_plan *p, rm_item *items, char **callers) {
    memset(r, 0, sizeof *r);
    const sunset_severity E = SUNSET_SEV_ERROR, W = SUNSET_SEV_WARNING;
    /* whole-legacy: a path rule and three more findings, two on one line */
    add(r, "PE-PATH", "fw/parallel_executor.cc", 1, SUNSET_CTX_CODE, E, NULL);
    add(r, "PE-CPP-IDENT", "fw/parallel_executor.cc", 40, SUNSET_CTX_CODE, E, "Run");
    add(r, "ES-CPP-IDENT", "fw/parallel_executor.cc", 40, SUNSET_CTX_CODE, E, "Run");
    add(r, "PE-CPP-IDENT", "fw/parallel_executor.cc", 90, SUNSET_CTX_COMMENT, SUNSET_SEV_INFO, NULL);
    /* mixed: a named consumer; a multi-rule line; a touching line in the same scope; a
     * comment; a line in another scope */
    add(r, "ES-CPP-IDENT", "fw/ir/graph_helper.cc", 5, SUNSET_CTX_CODE, E, "ReplaceAllReduceOp");
    add(r, "ES-CPP-FIELD", "fw/ir/graph_helper.cc", 5, SUNSET_CTX_CODE, E, "ReplaceAllReduceOp");
    add(r, "ES-CPP-IDENT", "fw/ir/graph_helper.cc", 6, SUNSET_CTX_CODE, E, "ReplaceAllReduceOp");
    add(r, "OH-IDENT", "fw/ir/graph_helper.cc", 9, SUNSET_CTX_COMMENT, SUNSET_SEV_INFO, "ReplaceAllReduceOp");
    add(r, "OH-IDENT", "fw/ir/graph_helper.cc", 30, SUNSET_CTX_CODE, W, "GetGraphOpDesc");
    /* a live class of the plan */
    add(r, "PE-CPP-LIVE", "fw/executor_cache.h", 12, SUNSET_CTX_CODE, E, "ExecutorInfoCache");
    /* a document */
    add(r, "PE-DOC", "README.md", 3, SUNSET_CTX_CODE, SUNSET_SEV_INFO, NULL);
    /* a file the plan proves dead, no file rule; a CMake line of a delete rule */
    add(r, "OH-IDENT", "fw/dead_helper.cc", 7, SUNSET_CTX_CODE, E, NULL);
    add(r, "PE-CMAKE-SRC", "fw/CMakeLists.txt", 4, SUNSET_CTX_CODE, E, NULL);
    /* a file a path rule matched that the plan keeps live */
    add(r, "PE-PATH", "fw/op_handle_base.h", 1, SUNSET_CTX_CODE, E, NULL);
    sunset_result_finish(r);
    callers[0] = "operators/run_program_op.h uses ExecutorInfoCache";
    callers[1] = "fw/operator.cc:2 includes it";
    memset(items, 0, 3 * sizeof *items);
    items[0] = (rm_item){.kind = RM_CLASS, .path = "fw/executor_cache.h", .name = "ExecutorInfoCache",
                         .line = 10, .end = 20, .live = true, .callers = callers, .n_callers = 1};
    items[1] = (rm_item){.kind = RM_FILE, .path = "fw/dead_helper.cc", .line = 1, .end = 30};
    items[2] = (rm_item){.kind = RM_FILE, .path = "fw/op_handle_base.h", .line = 1, .end = 40, .live = true,
                         .callers = callers + 1, .n_callers = 1};
    memset(p, 0, sizeof *p);
    p->items = items;
    p->n_items = 3;
}

static const sunset_remnant *at(const sunset_remnants *rm, const char *path, uint32_t line) {
    for (size_t i = 0; i < rm->n; i++)
        if (strcmp(rm->v[i].path, path) == 0 && (rm->v[i].file || rm->v[i].line == line)) return &rm->v[i];
    return NULL;
}

static bool has_rule(const sunset_remnant *m, const char *id) {
    for (size_t i = 0; i < m->n_rules; i++)
        if (strcmp(m->rules[i], id) == 0) return true;
    return false;
}

static void remnants_from_evidence(void **state) {
    (void)state;
    sunset_error err = {{0}};
    sunset_ruleset *rs = load(PACK, &err);
    assert_non_null(rs);
    sunset_result r;
    rm_plan plan;
    rm_item items[3];
    char *callers[2];
    fixture(&r, &plan, items, callers);
    sunset_remnants rm;
    assert_int_equal(sunset_remnants_build(&r, rs, &plan, NULL, &rm), 0);

    /* every finding in exactly one remnant */
    size_t *seen = calloc(r.n_findings, sizeof *seen);
    for (size_t i = 0; i < rm.n; i++)
        for (size_t k = 0; k < rm.v[i].n_findings; k++) seen[rm.v[i].findings[k]]++;
    for (size_t i = 0; i < r.n_findings; i++) assert_int_equal(seen[i], 1);
    free(seen);

    /* the whole-legacy file: one delete remnant absorbing all four findings */
    const sunset_remnant *pe = at(&rm, "fw/parallel_executor.cc", 1);
    assert_non_null(pe);
    assert_true(pe->file);
    assert_int_equal(pe->action, SUNSET_ACT_DELETE);
    assert_int_equal(pe->n_findings, 4);
    assert_true(has_rule(pe, "PE-PATH") && has_rule(pe, "ES-CPP-IDENT"));
    assert_non_null(strstr(pe->evidence[0], "rule PE-PATH matched the path"));
    assert_int_equal(pe->severity, SUNSET_SEV_ERROR);

    /* the mixed file: lines 5-6 (one scope, touching, three findings, two rules on line 5),
     * the comment on 9, the other scope on 30 */
    const sunset_remnant *l5 = at(&rm, "fw/ir/graph_helper.cc", 5);
    assert_non_null(l5);
    assert_false(l5->file);
    assert_int_equal(l5->end_line, 6);
    assert_int_equal(l5->n_findings, 3);
    assert_true(has_rule(l5, "ES-CPP-IDENT") && has_rule(l5, "ES-CPP-FIELD"));
    assert_int_equal(l5->action, SUNSET_ACT_MIGRATE);
    assert_string_equal(l5->consumer, "graph-to-program conversion");
    assert_int_equal(l5->severity, SUNSET_SEV_WARNING); /* errors, but migrate first */
    assert_null(strstr(l5->fix, "delete the include"));
    const sunset_remnant *l9 = at(&rm, "fw/ir/graph_helper.cc", 9);
    assert_non_null(l9);
    assert_int_equal(l9->action, SUNSET_ACT_DOC);
    assert_int_equal(l9->severity, SUNSET_SEV_INFO);
    assert_non_null(at(&rm, "fw/ir/graph_helper.cc", 30));

    /* a live plan item: migrate, naming its live caller */
    const sunset_remnant *live = at(&rm, "fw/executor_cache.h", 12);
    assert_non_null(live);
    assert_int_equal(live->action, SUNSET_ACT_MIGRATE);
    assert_non_null(strstr(live->consumer, "run_program_op.h uses ExecutorInfoCache"));

    /* a document, a dead file by the plan alone, a delete rule in CMake */
    const sunset_remnant *doc = at(&rm, "README.md", 3);
    assert_non_null(doc);
    assert_int_equal(doc->action, SUNSET_ACT_DOC);
    const sunset_remnant *dead = at(&rm, "fw/dead_helper.cc", 1);
    assert_non_null(dead);
    assert_true(dead->file);
    assert_int_equal(dead->action, SUNSET_ACT_DELETE);
    /* liveness before rule intent: a delete rule's CMake line the plan does not prove dead,
     * and a path rule's file the plan keeps live, are migrated (issue 26 item 3) */
    const sunset_remnant *cm = at(&rm, "fw/CMakeLists.txt", 4);
    assert_non_null(cm);
    assert_int_equal(cm->action, SUNSET_ACT_MIGRATE);
    assert_int_equal(cm->severity, SUNSET_SEV_WARNING);
    assert_non_null(strstr(cm->consumer, "fw/CMakeLists.txt"));
    const sunset_remnant *kept = at(&rm, "fw/op_handle_base.h", 1);
    assert_non_null(kept);
    assert_true(kept->file);
    assert_int_equal(kept->action, SUNSET_ACT_MIGRATE);
    assert_int_equal(kept->severity, SUNSET_SEV_WARNING);
    assert_string_equal(kept->consumer, "fw/operator.cc:2 includes it");
    assert_null(strstr(kept->fix, "delete the file once"));
    assert_int_equal(rm.n, 9);

    /* the human order: task 5 for all, so migrate first, then delete, then update-doc */
    const sunset_remnant *order[9];
    sunset_remnants_rank(&rm, order);
    for (size_t i = 1; i < rm.n; i++) {
        static const int rank[SUNSET_ACT_COUNT] = {1, 0, 2};
        assert_true(rank[order[i - 1]->action] <= rank[order[i]->action]);
    }

    /* without the plan: the live class falls back to its enclosing scope, the dead file to
     * line remnants */
    sunset_remnants bare;
    assert_int_equal(sunset_remnants_build(&r, rs, NULL, NULL, &bare), 0);
    const sunset_remnant *b = at(&bare, "fw/executor_cache.h", 12);
    assert_non_null(b);
    assert_int_equal(b->action, SUNSET_ACT_MIGRATE);
    assert_non_null(strstr(b->consumer, "function ExecutorInfoCache"));
    assert_false(at(&bare, "fw/dead_helper.cc", 7)->file);
    /* no plan, no liveness: the rules' intent stands */
    assert_int_equal(at(&bare, "fw/CMakeLists.txt", 4)->action, SUNSET_ACT_DELETE);
    assert_int_equal(at(&bare, "fw/op_handle_base.h", 1)->action, SUNSET_ACT_DELETE);
    sunset_remnants_free(&bare);

    /* the text writer: one item per remnant by default, every finding with --findings */
    sunset_envelope e = {.opts = {false, true, false, false}, .remnants = &rm};
    sb out = {0};
    assert_int_equal(doc_format_find(CMD_SCAN, "text")->write.findings->write(&r, &e, &out), 0);
    assert_non_null(strstr(out.s, "fw/parallel_executor.cc: error: delete file (task 5, parallel_executor; 4 findings"));
    assert_non_null(strstr(out.s, "fw/ir/graph_helper.cc:5:3: warning: migrate lines 5-6"));
    assert_non_null(strstr(out.s, "    consumer: graph-to-program conversion\n"));
    assert_non_null(strstr(out.s, "fw/op_handle_base.h: warning: migrate file (task 5"));
    assert_non_null(strstr(out.s, "9 remnants:\n  task 5: 2 files to delete, 1 file to migrate, 4 lines to migrate, 2 docs\n"));
    assert_null(strstr(out.s, "[PE-CPP-IDENT]"));
    out.len = 0;
    e.opts.findings = true;
    assert_int_equal(doc_format_find(CMD_SCAN, "text")->write.findings->write(&r, &e, &out), 0);
    assert_non_null(strstr(out.s, "fw/parallel_executor.cc:40:3: error: [ES-CPP-IDENT]"));
    assert_null(strstr(out.s, "delete file"));
    sb_free(&out);

    sunset_remnants_free(&rm);
    sunset_remnants_free(NULL);
    sunset_result_free(&r);
    sunset_ruleset_free(rs);
}

/* settings.remnants is checked: unknown fields, a bad consumer, an unknown action. */
/* A multi-line call is one remnant over the whole statement: a finding on its argument line
 * joins the call's, and the remnant ends where the statement does. */
static void statement_spans_one_remnant(void **state) {
    (void)state;
    sunset_error err = {{0}};
    sunset_ruleset *rs = load(PACK, &err);
    assert_non_null(rs);
    sunset_result r = {0};
    sunset_finding call = {.rule_id = "PE-PY-IDENT", .family = "parallel_executor", .message = "m",
                           .fix = "replace it", .task = 5, .severity = SUNSET_SEV_ERROR, .path = "train.py",
                           .span = {10, 12, 10, 28}, .stmt = {10, 1, 14, 2}, .matched = "ParallelExecutor",
                           .snippet = "exe = fluid.ParallelExecutor("};
    sunset_finding kw = call;
    kw.rule_id = "ES-PY-KWARG";
    kw.span = (sunset_span){13, 5, 13, 18};
    kw.matched = "exec_strategy";
    sunset_finding later = call;
    later.span = (sunset_span){20, 1, 20, 10};
    later.stmt = (sunset_span){0, 0, 0, 0};
    assert_non_null(sunset_result_add(&r, &call));
    assert_non_null(sunset_result_add(&r, &kw));
    assert_non_null(sunset_result_add(&r, &later));
    sunset_result_finish(&r);
    sunset_remnants rm;
    assert_int_equal(sunset_remnants_build(&r, rs, NULL, NULL, &rm), 0);
    assert_int_equal(rm.n, 2);
    assert_int_equal(rm.v[0].line, 10);
    assert_int_equal(rm.v[0].end_line, 14); /* the call's closing line, past its last finding */
    assert_int_equal(rm.v[0].n_findings, 2);
    assert_int_equal(rm.v[1].line, 20);
    assert_int_equal(rm.v[1].end_line, 20);
    sunset_remnants_free(&rm);
    sunset_result_free(&r);
    sunset_ruleset_free(rs);
}

/* A CMake command that defines no target (set(), list(), add_dependencies()) spans its whole
 * command from the command's line when the finding carries the command as its statement (its
 * target, text.c): the entries inside join it. A Python code finding inside a short multi-line
 * call starts at the call's line too (code_range: the statement is the code edit's unit). */
static void cmake_commands_span_from_their_line(void **state) {
    (void)state;
    sunset_error err = {{0}};
    sunset_ruleset *rs = load(PACK, &err);
    assert_non_null(rs);
    sunset_result r = {0};
    sunset_finding a = {.rule_id = "OH-CMAKE-VAR", .family = "parallel_executor", .message = "m",
                        .fix = "replace it", .task = 5, .severity = SUNSET_SEV_WARNING,
                        .path = "fw/details/CMakeLists.txt", .span = {2, 5, 2, 19},
                        .stmt = {1, 1, 4, 30}, .matched = "op_handle_srcs",
                        .snippet = "    op_handle_srcs"};
    sunset_finding b = a;
    b.span = (sunset_span){4, 5, 4, 29}, b.matched = "scale_loss_grad_op_handle.cc";
    b.stmt = (sunset_span){0, 0, 0, 0};
    sunset_finding py = a;
    py.path = "python/paddle/base/compiler.py", py.span = (sunset_span){12, 9, 12, 20};
    py.stmt = (sunset_span){11, 5, 13, 6};
    assert_non_null(sunset_result_add(&r, &a));
    assert_non_null(sunset_result_add(&r, &b));
    assert_non_null(sunset_result_add(&r, &py));
    sunset_result_finish(&r);
    sunset_remnants rm;
    assert_int_equal(sunset_remnants_build(&r, rs, NULL, NULL, &rm), 0);
    assert_int_equal(rm.n, 2);
    const sunset_remnant *c = strstr(rm.v[0].path, "CMake") ? &rm.v[0] : &rm.v[1];
    const sunset_remnant *p = c == &rm.v[0] ? &rm.v[1] : &rm.v[0];
    assert_int_equal(c->line, 1);
    assert_int_equal(c->end_line, 4);
    assert_int_equal(c->n_findings, 2);
    assert_int_equal(p->line, 11);
    assert_int_equal(p->end_line, 13);
    sunset_remnants_free(&rm);
    sunset_result_free(&r);
    sunset_ruleset_free(rs);
}

/* A CMake target's remnant is its whole command, from the command's line (not the first
 * matched argument's), and a class's remnant its whole definition, the findings inside it
 * included; a constructor naming the class inside it is not its definition. */
static void definitions_span_one_remnant(void **state) {
    (void)state;
    sunset_error err = {{0}};
    sunset_ruleset *rs = load(PACK, &err);
    assert_non_null(rs);
    sunset_result r = {0};
    sunset_finding tgt = {.rule_id = "OH-CMAKE-TARGET", .family = "parallel_executor", .message = "m",
                          .fix = "replace it", .task = 5, .severity = SUNSET_SEV_WARNING,
                          .path = "fw/details/CMakeLists.txt", .span = {4, 5, 4, 21},
                          .matched = "detail_op_handle", .snippet = "    detail_op_handle",
                          .enc_kind = "cmake_target", .enc_name = "detail_op_handle", .enc_start = 3, .enc_end = 6};
    sunset_finding var = tgt;
    var.rule_id = "OH-CMAKE-VAR", var.span = (sunset_span){6, 10, 6, 24}, var.matched = "op_handle_deps";
    sunset_finding cls = tgt;
    cls.path = "fw/details/build_strategy.cc", cls.rule_id = "BS-CPP-PASSBUILDER";
    cls.span = (sunset_span){51, 7, 51, 34}, cls.matched = "ParallelExecutorPassBuilder";
    cls.enc_kind = "class", cls.enc_name = "ParallelExecutorPassBuilder", cls.enc_start = 51, cls.enc_end = 331;
    sunset_finding inner = cls;
    inner.span = (sunset_span){200, 5, 200, 32}; /* its constructor: inside, not a definition */
    assert_non_null(sunset_result_add(&r, &tgt));
    assert_non_null(sunset_result_add(&r, &var));
    assert_non_null(sunset_result_add(&r, &cls));
    assert_non_null(sunset_result_add(&r, &inner));
    sunset_result_finish(&r);
    sunset_remnants rm;
    assert_int_equal(sunset_remnants_build(&r, rs, NULL, NULL, &rm), 0);
    assert_int_equal(rm.n, 2);
    const sunset_remnant *c = strstr(rm.v[0].path, "CMake") ? &rm.v[0] : &rm.v[1];
    const sunset_remnant *k = c == &rm.v[0] ? &rm.v[1] : &rm.v[0];
    assert_int_equal(c->line, 3);
    assert_int_equal(c->end_line, 6);
    assert_int_equal(c->n_findings, 2);
    assert_int_equal(k->line, 51);
    assert_int_equal(k->end_line, 331);
    assert_int_equal(k->n_findings, 2);
    sunset_remnants_free(&rm);
    sunset_result_free(&r);
    sunset_ruleset_free(rs);
}

/* In a test that stays, a line using a legacy object a successor replaces
 * (settings.remnants.successor_rules) is migrate, the test moving to the successor; a line of
 * a setting dropped with the mechanism is still deleted; a name inside a longer string (a
 * vmodule list) is migrate, the string rewritten; a whole-string name is deleted. */
static void lines_follow_successors(void **state) {
    (void)state;
    const char *pack =
        "{\"schema\":1,\"settings\":{\"families\":[{\"id\":\"parallel_executor\",\"title\":\"PE\"}],"
        "\"remnants\":{\"successor_rules\":[\"PE-*\"],\"code_rules\":[\"OH-STR-*\"]}}}";
    sunset_error err = {{0}};
    sunset_ruleset *rs = load(pack, &err);
    assert_non_null(rs);
    sunset_result r = {0};
    sunset_finding pe = {.rule_id = "PE-CPP-IDENT", .family = "parallel_executor", .message = "m",
                         .fix = "replace it", .task = 5, .severity = SUNSET_SEV_ERROR, .test = true,
                         .path = "test/pass_test.cc", .span = {10, 19, 10, 35}, .matched = "ParallelExecutor",
                         .snippet = "  std::unique_ptr<ParallelExecutor> executor_;", .enc_kind = "class",
                         .enc_name = "PassTester", .enc_start = 1, .enc_end = 40};
    sunset_finding es = pe;
    es.rule_id = "ES-CPP-IDENT", es.span = (sunset_span){20, 3, 20, 20}, es.matched = "ExecutionStrategy";
    es.snippet = "  ExecutionStrategy exec_strategy_;";
    sunset_finding part = pe;
    part.rule_id = "OH-STR-VMODULE", part.ctx = SUNSET_CTX_STRING, part.span = (sunset_span){30, 6, 30, 20};
    part.matched = "a_op_handle", part.snippet = "    \"a_op_handle=10,executor=10\";";
    sunset_finding whole = part;
    whole.span = (sunset_span){35, 6, 35, 17}, whole.snippet = "    \"a_op_handle\";";
    assert_non_null(sunset_result_add(&r, &pe));
    assert_non_null(sunset_result_add(&r, &es));
    assert_non_null(sunset_result_add(&r, &part));
    assert_non_null(sunset_result_add(&r, &whole));
    sunset_result_finish(&r);
    sunset_remnants rm;
    assert_int_equal(sunset_remnants_build(&r, rs, NULL, NULL, &rm), 0);
    assert_int_equal(rm.n, 4);
    assert_int_equal(rm.v[0].action, SUNSET_ACT_MIGRATE);
    assert_non_null(strstr(rm.v[0].evidence[0], "successor"));
    assert_int_equal(rm.v[1].action, SUNSET_ACT_DELETE);
    assert_int_equal(rm.v[2].action, SUNSET_ACT_MIGRATE);
    assert_non_null(strstr(rm.v[2].evidence[0], "longer string"));
    assert_int_equal(rm.v[3].action, SUNSET_ACT_DELETE);
    sunset_remnants_free(&rm);
    sunset_result_free(&r);
    sunset_ruleset_free(rs);
}

static void bad_settings(void **state) {
    (void)state;
    const char *bad[][2] = {
        {"{\"file_rule\":[]}", "unknown field \"file_rule\""},
        {"{\"consumers\":[{\"path\":\"x\"}]}", "each consumer needs"},
        {"{\"consumers\":[{\"path\":\"(\",\"consumer\":\"c\"}]}", "consumers"},
        {"{\"severity\":{\"remove\":\"error\"}}", "unknown field \"remove\""},
        {"{\"severity\":{\"delete\":\"fatal\"}}", "delete"},
        {"{\"successor_rules\":3}", "successor_rules"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char json[512];
        snprintf(json, sizeof json,
                 "{\"schema\":1,\"settings\":{\"families\":[{\"id\":\"f\",\"title\":\"F\"}],\"remnants\":%s}}", bad[i][0]);
        sunset_error err = {{0}};
        sunset_ruleset *rs = load(json, &err);
        assert_null(rs);
        assert_non_null(strstr(err.msg, "00-settings.json:"));
        if (!strstr(err.msg, bad[i][1])) fail_msg("%s: %s", bad[i][0], err.msg);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(remnants_from_evidence),
        cmocka_unit_test(statement_spans_one_remnant),
        cmocka_unit_test(definitions_span_one_remnant),
        cmocka_unit_test(cmake_commands_span_from_their_line),
        cmocka_unit_test(lines_follow_successors),
        cmocka_unit_test(bad_settings),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
