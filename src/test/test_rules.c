/*
 * test_rules.c — the rule loader: a valid pack compiles into the expected clauses, and every
 * error path gives FILE:LINE:COL plus a message naming the problem; allocation failures at
 * any point return an error and leak nothing.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <limits.h>
#include <string.h>

#include "base/json.h"
#include "core/rules_int.h"

#define SETTINGS "\"settings\":{\"families\":[{\"id\":\"parallel_executor\",\"title\":\"PE\"}]," \
                 "\"macros\":{\"flag_definers\":\"(DEFINE|DECLARE)\"}}"

static const char *valid =
    "{\"schema\":1," SETTINGS ",\"family\":\"parallel_executor\",\"rules\":[\n"
    " {\"id\":\"PE-CPP-CLASS\",\"task\":5,\"languages\":[\"cpp\",\"python\"],\"severity\":\"error\",\n"
    "  \"message\":\"m\",\"fix\":\"delete\",\"match\":{\"kind\":\"identifier\",\"pattern\":\"ParallelExecutor\"},\n"
    "  \"literals\":[\"ParallelExecutor\"]},\n"
    " {\"id\":\"PE-FLAG\",\"task\":5,\"languages\":[\"cpp\",\"python\",\"cmake\"],\"severity\":\"warning\",\n"
    "  \"message\":\"m\",\"fix\":\"delete\",\"match\":{\"kind\":\"gflag\",\"names\":[\"pe_profile_fname\"]}},\n"
    " {\"id\":\"PE-PATH\",\"task\":1,\"languages\":[\"python\"],\"severity\":\"info\",\n"
    "  \"message\":\"m\",\"fix\":\"delete the file\",\"match\":{\"kind\":\"path\",\"pattern\":\"test_parallel_executor_\"}}\n"
    "]}";

static void loads_valid_pack(void **state) {
    (void)state;
    sunset_error err = {{0}};
    sunset_ruleset *rs = sunset_ruleset_load_string(valid, "p.json", NULL, &err);
    assert_non_null(rs);
    assert_int_equal(rs->rules.n, 3);
    const sunset_rule *r = sunset_ruleset_find(rs, "PE-CPP-CLASS");
    assert_non_null(r);
    assert_int_equal(r->task, 5);
    assert_string_equal(r->family, "parallel_executor");
    /* identifier: one clause for code identifiers, one for words in comments/strings */
    assert_int_equal(r->clauses.n, 2);
    assert_int_equal(r->sev[SUNSET_CTX_CODE], SUNSET_SEV_ERROR);
    assert_int_equal(r->sev[SUNSET_CTX_COMMENT], SUNSET_SEV_INFO);
    const sunset_rule *g = sunset_ruleset_find(rs, "PE-FLAG");
    /* gflag expands: FLAGS_x ident, FLAGS_x word, x in DEFINE/DECLARE, 2 strings, a line */
    assert_int_equal(g->clauses.n, 6);
    assert_int_equal(rs->path_rules.n, 1);
    assert_true(rs->lang_has_rules[SUNSET_LANG_CMAKE]);
    assert_false(rs->lang_has_rules[SUNSET_LANG_PROTO]);
    sunset_ruleset_free(rs);
}

typedef struct bad_case {
    const char *name, *json, *want; /* want: substring of the message */
} bad_case;

#define RULE(fields) "{\"schema\":1," SETTINGS ",\"family\":\"parallel_executor\",\"rules\":[\n" fields "]}"
#define BASE "\"task\":5,\"languages\":[\"cpp\"],\"severity\":\"error\",\"message\":\"m\",\"fix\":\"f\""

static const bad_case bad[] = {
    {"invalid JSON", "{\"schema\":1,\n  \"rules\": [,]}", "bad.json:2:13: invalid JSON"},
    {"wrong schema", "{\"schema\":7," SETTINGS "}", "schema 7 is not supported"},
    {"unknown pack field", "{\"schema\":1," SETTINGS ",\"rulez\":[]}", "unknown field \"rulez\""},
    {"no settings", "{\"schema\":1,\"rules\":[]}", "rules loaded before the settings pack"},
    {"bad id", RULE("{\"id\":\"pe-x\"," BASE ",\"match\":{\"kind\":\"identifier\",\"names\":[\"ParallelExecutor\"]}}"), "bad id"},
    {"duplicate id", RULE("{\"id\":\"PE-X\"," BASE ",\"match\":{\"kind\":\"identifier\",\"names\":[\"ParallelExecutor\"]}},"
                          "{\"id\":\"PE-X\"," BASE ",\"match\":{\"kind\":\"identifier\",\"names\":[\"ParallelExecutor\"]}}"),
     "duplicate rule id"},
    {"unknown rule field", RULE("{\"id\":\"PE-X\"," BASE ",\"sevrity\":\"x\",\"match\":{\"kind\":\"identifier\",\"names\":[\"ParallelExecutor\"]}}"),
     "unknown field \"sevrity\""},
    {"unknown family", RULE("{\"id\":\"PE-X\",\"family\":\"nope\"," BASE ",\"match\":{\"kind\":\"identifier\",\"names\":[\"ParallelExecutor\"]}}"),
     "family \"nope\" is not declared"},
    {"bad task", RULE("{\"id\":\"PE-X\",\"task\":9,\"languages\":[\"cpp\"],\"severity\":\"error\",\"message\":\"m\",\"fix\":\"f\",\"match\":{\"kind\":\"identifier\",\"names\":[\"ParallelExecutor\"]}}"),
     "\"task\" must be a whole number from 1 to 7"},
    {"tasks out of order", "{\"schema\":1,\"settings\":{\"families\":[{\"id\":\"pe\",\"title\":\"PE\"}],"
                           "\"tasks\":[{\"id\":2,\"title\":\"t\"}]}}", "tasks are numbered 1, 2, ... in order: want 1"},
    {"too many tasks", "{\"schema\":1,\"settings\":{\"families\":[{\"id\":\"pe\",\"title\":\"PE\"}],\"tasks\":["
                       "{\"id\":1,\"title\":\"t\"},{\"id\":2,\"title\":\"t\"},{\"id\":3,\"title\":\"t\"},"
                       "{\"id\":4,\"title\":\"t\"},{\"id\":5,\"title\":\"t\"},{\"id\":6,\"title\":\"t\"},"
                       "{\"id\":7,\"title\":\"t\"},{\"id\":8,\"title\":\"t\"}]}}", "at most 7 tasks"},
    {"bad test path role", "{\"schema\":1,\"settings\":{\"families\":[{\"id\":\"pe\",\"title\":\"PE\"}],"
                           "\"test_paths\":[{\"pattern\":\"^t/\",\"roles\":[\"tests\"]}]}}",
     "bad.json:1:103: a \"test_paths\" role must be \"test\", \"module\" or \"tree\""},
    {"test path without roles", "{\"schema\":1,\"settings\":{\"families\":[{\"id\":\"pe\",\"title\":\"PE\"}],"
                                "\"test_paths\":[{\"pattern\":\"^t/\"}]}}", "needs \"pattern\" (a regex) and \"roles\""},
    {"test modules moved", "{\"schema\":1,\"settings\":{\"families\":[{\"id\":\"pe\",\"title\":\"PE\"}],"
                           "\"cross_file\":{\"test_trees\":[\"^t/\"]}}}",
     "\"cross_file.test_trees\" moved: give its patterns the role \"tree\" in \"test_paths\""},
    {"bad cmake setting", "{\"schema\":1,\"settings\":{\"families\":[{\"id\":\"pe\",\"title\":\"PE\"}],"
                          "\"cmake\":{\"targets\":[]}}}", "unknown field \"targets\" in \"cmake\""},
    {"bad cmake section", "{\"schema\":1,\"settings\":{\"families\":[{\"id\":\"pe\",\"title\":\"PE\"}],"
                          "\"cmake\":{\"sections\":{\"srcs\":[\"SRCS\"]}}}}", "unknown field \"srcs\" in \"cmake.sections\""},
    {"cmake sources not a list", "{\"schema\":1,\"settings\":{\"families\":[{\"id\":\"pe\",\"title\":\"PE\"}],"
                          "\"cmake\":{\"sections\":{\"sources\":\"SRCS\"}}}}", "\"sources\" must be an array of strings"},
    {"unknown macro role", "{\"schema\":1,\"settings\":{\"families\":[{\"id\":\"pe\",\"title\":\"PE\"}],"
                          "\"macros\":{\"roles\":{\"kernels\":[\"PD_REGISTER_KERNEL\"]}}}}", "unknown field \"kernels\" in \"macros.roles\""},
    {"kernel role not a list", "{\"schema\":1,\"settings\":{\"families\":[{\"id\":\"pe\",\"title\":\"PE\"}],"
                          "\"macros\":{\"roles\":{\"kernel\":\"PD_REGISTER_KERNEL\"}}}}", "\"kernel\" must be an array of strings"},
    {"flag role without stem", "{\"schema\":1,\"settings\":{\"families\":[{\"id\":\"pe\",\"title\":\"PE\"}],"
                          "\"macros\":{\"roles\":{\"flag\":{\"types\":[\"bool\"]}}}}}", "\"flag\" needs \"stem\""},
    {"unknown language", RULE("{\"id\":\"PE-X\",\"task\":5,\"languages\":[\"go\"],\"severity\":\"error\",\"message\":\"m\",\"fix\":\"f\",\"match\":{\"kind\":\"identifier\",\"names\":[\"ParallelExecutor\"]}}"),
     "unknown language \"go\""},
    {"kind/language mismatch", RULE("{\"id\":\"PE-X\"," BASE ",\"match\":{\"kind\":\"keyword\",\"names\":[\"exec_strategy\"]}}"),
     "does not apply to one of the languages"},
    {"bad severity", RULE("{\"id\":\"PE-X\",\"task\":5,\"languages\":[\"cpp\"],\"severity\":\"fatal\",\"message\":\"m\",\"fix\":\"f\",\"match\":{\"kind\":\"identifier\",\"names\":[\"ParallelExecutor\"]}}"),
     "\"severity\" must be"},
    {"invalid regex", RULE("{\"id\":\"PE-X\"," BASE ",\"literals\":[\"abcd\"],\"match\":{\"kind\":\"identifier\",\"pattern\":\"Parallel(Executor\"}}"),
     "rule PE-X: invalid regex in \"pattern\" at offset 17"},
    {"regex without literals", RULE("{\"id\":\"PE-X\"," BASE ",\"match\":{\"kind\":\"identifier\",\"pattern\":\"ParallelExecutor\"}}"),
     "needs \"literals\""},
    {"short literal", RULE("{\"id\":\"PE-X\"," BASE ",\"literals\":[\"PE\"],\"match\":{\"kind\":\"identifier\",\"pattern\":\"PE\"}}"),
     "at least 4 bytes"},
    {"short name", RULE("{\"id\":\"PE-X\"," BASE ",\"match\":{\"kind\":\"identifier\",\"names\":[\"PE\"]}}"),
     "shorter than 4 bytes"},
    {"unknown match kind", RULE("{\"id\":\"PE-X\"," BASE ",\"match\":{\"kind\":\"regex\",\"pattern\":\"x\"}}"),
     "unknown match kind \"regex\""},
    {"unknown matcher field", RULE("{\"id\":\"PE-X\"," BASE ",\"match\":{\"kind\":\"identifier\",\"names\":[\"ParallelExecutor\"],\"reciever\":\"x\"}}"),
     "unknown field \"reciever\" in \"match\""},
    {"names and pattern", RULE("{\"id\":\"PE-X\"," BASE ",\"match\":{\"kind\":\"identifier\",\"names\":[\"ParallelExecutor\"],\"pattern\":\"x\"}}"),
     "not both"},
    {"query with two languages", RULE("{\"id\":\"PE-X\",\"task\":5,\"languages\":[\"python\",\"cpp\"],\"severity\":\"error\",\"message\":\"m\",\"fix\":\"f\",\"literals\":[\"abcd\"],\"match\":{\"kind\":\"query\",\"query\":\"(identifier) @x\"}}"),
     "does not apply"},
    {"flow: unknown bound_to id", RULE("{\"id\":\"PE-X\",\"task\":5,\"languages\":[\"python\"],\"severity\":\"error\",\"message\":\"m\",\"fix\":\"f\",\"match\":{\"kind\":\"attribute\",\"receiver\":{\"bound_to\":\"PE-NOPE\"}}}"),
     "rule PE-X: \"receiver.bound_to\": no rule has the id \"PE-NOPE\""},
    {"flow: bound to itself", RULE("{\"id\":\"PE-X\",\"task\":5,\"languages\":[\"python\"],\"severity\":\"error\",\"message\":\"m\",\"fix\":\"f\",\"match\":{\"kind\":\"attribute\",\"receiver\":{\"bound_to\":[\"PE-X\"]}}}"),
     "cannot be bound to a flow rule"},
    {"flow: unknown receiver field", RULE("{\"id\":\"PE-X\",\"task\":5,\"languages\":[\"python\"],\"severity\":\"error\",\"message\":\"m\",\"fix\":\"f\",\"match\":{\"kind\":\"attribute\",\"receiver\":{\"bound\":\"PE-X\"}}}"),
     "unknown field \"bound\" in \"receiver\""},
    {"flow: empty bound_to", RULE("{\"id\":\"PE-X\",\"task\":5,\"languages\":[\"python\"],\"severity\":\"error\",\"message\":\"m\",\"fix\":\"f\",\"match\":{\"kind\":\"attribute\",\"receiver\":{\"bound_to\":[]}}}"),
     "must be a rule id or a non-empty array"},
    {"bad mechanical", RULE("{\"id\":\"PE-X\"," BASE ",\"mechanical\":\"rewrite\",\"match\":{\"kind\":\"identifier\",\"names\":[\"ParallelExecutor\"]}}"),
     "\"mechanical\" must be \"drop-argument\""},
    {"empty migrate_to", RULE("{\"id\":\"PE-X\"," BASE ",\"migrate_to\":\"\",\"match\":{\"kind\":\"identifier\",\"names\":[\"ParallelExecutor\"]}}"),
     "\"migrate_to\" must be a non-empty string"},
    {"missing message", RULE("{\"id\":\"PE-X\",\"task\":5,\"languages\":[\"cpp\"],\"severity\":\"error\",\"fix\":\"f\",\"match\":{\"kind\":\"identifier\",\"names\":[\"ParallelExecutor\"]}}"),
     "missing \"message\""},
};

static void rejects_bad_packs(void **state) {
    (void)state;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        sunset_error err = {{0}};
        long live = sunset_alloc_live();
        sunset_ruleset *rs = sunset_ruleset_load_string(bad[i].json, "bad.json", NULL, &err);
        if (rs || !strstr(err.msg, bad[i].want) || strncmp(err.msg, "bad.json:", 9) != 0)
            fail_msg("case '%s': got \"%s\", want a message containing \"%s\"", bad[i].name,
                     err.msg, bad[i].want);
        assert_int_equal(sunset_alloc_live(), live);
    }
}

/* A pack's settings with `n` tasks (1..n) and one rule of task `task`. */
static sunset_ruleset *load_with_tasks(int n, int task, sunset_error *err) {
    char pack[2048];
    int o = snprintf(pack, sizeof pack, "{\"schema\":1,\"settings\":{\"families\":[{\"id\":\"pe\",\"title\":\"PE\"}],"
                                        "\"tasks\":[");
    for (int i = 1; i <= n; i++) o += snprintf(pack + o, sizeof pack - (size_t)o, "%s{\"id\":%d,\"title\":\"t%d\"}", i > 1 ? "," : "", i, i);
    snprintf(pack + o, sizeof pack - (size_t)o,
             "]},\"family\":\"pe\",\"rules\":[{\"id\":\"PE-X\",\"task\":%d,\"languages\":[\"cpp\"],"
             "\"severity\":\"error\",\"message\":\"m\",\"fix\":\"f\","
             "\"match\":{\"kind\":\"identifier\",\"names\":[\"ParallelExecutor\"]}}]}", task);
    return sunset_ruleset_load_string(pack, "p.json", NULL, err);
}

/* The task range is the settings pack's (settings.tasks): a pack declaring a seventh task may
 * use it, one declaring six may not; no rebuild. */
static void tasks_come_from_settings(void **state) {
    (void)state;
    sunset_error err = {{0}};
    sunset_ruleset *rs = load_with_tasks(7, 7, &err);
    assert_non_null(rs);
    assert_int_equal(sunset_ruleset_task_max(rs), 7);
    assert_int_equal(sunset_ruleset_find(rs, "PE-X")->task, 7);
    assert_string_equal(VEC_AT(&rs->tasks, char *, 6), "t7");
    sunset_ruleset_free(rs);
    assert_null(load_with_tasks(6, 7, &err));
    assert_non_null(strstr(err.msg, "\"task\" must be a whole number from 1 to 6"));
    assert_null(load_with_tasks(3, 4, &err));
    assert_non_null(strstr(err.msg, "from 1 to 3"));
}

/* settings.cmake.target_commands: the tree's wrappers, compared in lower case. */
static void cmake_target_commands_from_settings(void **state) {
    (void)state;
    sunset_error err = {{0}};
    sunset_ruleset *rs = sunset_ruleset_load_string(
        "{\"schema\":1,\"settings\":{\"families\":[{\"id\":\"pe\",\"title\":\"PE\"}],"
        "\"cmake\":{\"target_commands\":[\"zz_test\",\"My_Wrapper\",\"aa_library\"]}}}", "p.json", NULL, &err);
    assert_non_null(rs);
    assert_true(sunset_ruleset_target_command(rs, "my_wrapper"));
    assert_true(sunset_ruleset_target_command(rs, "aa_library"));
    assert_true(sunset_ruleset_target_command(rs, "zz_test"));
    assert_false(sunset_ruleset_target_command(rs, "cc_library")); /* not declared here */
    assert_false(sunset_ruleset_target_command(NULL, "my_wrapper"));
    sunset_ruleset_free(rs);
}

/* settings.test_paths is the one list of test-path patterns: each entry's roles say whether it
 * marks a finding as a test's, a Python test module, a file of a test tree, or several; a bare
 * string is the role "test" alone. */
static void test_paths_have_roles(void **state) {
    (void)state;
    sunset_error err = {{0}};
    sunset_ruleset *rs = sunset_ruleset_load_string(
        "{\"schema\":1,\"settings\":{\"families\":[{\"id\":\"pe\",\"title\":\"PE\"}],\"test_paths\":["
        "\"_test\\\\.cc$\",{\"pattern\":\"(^|/)test_[^/]*$\",\"roles\":[\"module\",\"tree\",\"test\"]},"
        "{\"pattern\":\"^qa/\",\"roles\":[\"tree\"]}]}}", "p.json", NULL, &err);
    assert_non_null(rs);
    assert_int_equal(rs->test_paths.n, 2);
    assert_int_equal(rs->cross_file.test_modules.n, 1);
    assert_int_equal(rs->cross_file.test_trees.n, 2);
    pcre2_match_data *md = pcre2_match_data_create(4, NULL);
    assert_true(sunset_ruleset_is_test_path(rs, "a/b_test.cc", md));
    assert_true(sunset_ruleset_is_test_path(rs, "a/test_x.py", md));
    assert_false(sunset_ruleset_is_test_path(rs, "qa/helper.py", md)); /* a test tree's file, not a test */
    assert_true(re_list_search(&rs->cross_file.test_trees, "qa/helper.py", md));
    assert_false(re_list_search(&rs->cross_file.test_modules, "qa/helper.py", md));
    assert_true(re_list_search(&rs->cross_file.test_modules, "a/test_x.py", md));
    pcre2_match_data_free(md);
    sunset_ruleset_free(rs);
}

/* A pack with settings.macros `macros` (JSON, "" = none) and one gflag rule. */
static sunset_ruleset *load_gflag(const char *macros, sunset_error *err) {
    char pack[1024];
    snprintf(pack, sizeof pack,
             "{\"schema\":1,\"settings\":{\"families\":[{\"id\":\"pe\",\"title\":\"PE\"}]%s},"
             "\"family\":\"pe\",\"rules\":[{\"id\":\"PE-FLAG\",\"task\":5,\"languages\":[\"cpp\"],"
             "\"severity\":\"error\",\"message\":\"m\",\"fix\":\"f\","
             "\"match\":{\"kind\":\"gflag\",\"names\":[\"pe_flag\"]}}]}", macros);
    return sunset_ruleset_load_string(pack, "p.json", NULL, err);
}

/* The macros whose argument names a gflag are the settings pack's (settings.macros), not
 * Paddle's DEFINE/DECLARE built in: another tree's definer takes effect without a rebuild. */
static void flag_definers_from_settings(void **state) {
    (void)state;
    sunset_error err = {{0}};
    sunset_ruleset *rs = load_gflag(",\"macros\":{\"flag_definers\":\"^MYDEF_\"}", &err);
    assert_non_null(rs);
    const sunset_rule *r = sunset_ruleset_find(rs, "PE-FLAG");
    assert_int_equal(r->clauses.n, 6);
    const clause *c = &VEC_AT(&r->clauses, clause, 2); /* the name as a macro's argument */
    assert_non_null(c->aux.re);
    pcre2_match_data *md = pcre2_match_data_create(4, NULL);
    assert_true(re_search(c->aux.re, "MYDEF_bool", 10, 0, md, NULL, NULL));
    assert_false(re_search(c->aux.re, "DEFINE_bool", 11, 0, md, NULL, NULL));
    pcre2_match_data_free(md);
    sunset_ruleset_free(rs);
    rs = load_gflag("", &err); /* none declared: no macro clause */
    assert_non_null(rs);
    assert_int_equal(sunset_ruleset_find(rs, "PE-FLAG")->clauses.n, 5);
    sunset_ruleset_free(rs);
    assert_null(load_gflag(",\"macros\":{\"flag_definers\":\"(DEFINE\"}", &err));
    assert_non_null(strstr(err.msg, "invalid regex in \"flag_definers\""));
}

static void error_position_points_at_field(void **state) {
    (void)state;
    sunset_error err = {{0}};
    const char *json = RULE("{\"id\":\"PE-X\",\n \"task\":0,\"languages\":[\"cpp\"],\"severity\":\"error\",\"message\":\"m\",\"fix\":\"f\",\"match\":{\"kind\":\"identifier\",\"names\":[\"ParallelExecutor\"]}}");
    assert_null(sunset_ruleset_load_string(json, "x.json", NULL, &err));
    /* line 3 holds "task" (line 1: pack header, line 2: the rule's id) */
    assert_non_null(strstr(err.msg, "x.json:3:2: rule PE-X:"));
}

static void survives_every_allocation_failure(void **state) {
    (void)state;
    long base = sunset_alloc_live();
    int failures = 0;
    for (long n = 1; n < 400; n++) {
        sunset_error err = {{0}};
        sunset_alloc_fail_after(n);
        sunset_ruleset *rs = sunset_ruleset_load_string(valid, "p.json", NULL, &err);
        sunset_alloc_fail_after(0);
        if (rs) {
            sunset_ruleset_free(rs);
        } else {
            failures++;
            assert_non_null(strstr(err.msg, "out of memory"));
        }
        assert_int_equal(sunset_alloc_live(), base);
    }
    assert_true(failures > 20); /* the loop did reach into the loader */
}

static void strtest_names_exact(void **state) {
    (void)state;
    sunset_error err = {{0}};
    sunset_ruleset *rs = sunset_ruleset_load_string(valid, "p.json", NULL, &err);
    const sunset_rule *g = sunset_ruleset_find(rs, "PE-FLAG");
    const clause *c = &VEC_AT(&g->clauses, clause, 0);
    assert_true(strtest_match(&c->main, "FLAGS_pe_profile_fname", 22, NULL));
    assert_false(strtest_match(&c->main, "FLAGS_pe_profile_fnam", 21, NULL));
    assert_false(strtest_match(&c->main, "FLAGS_pe_profile_fname2", 23, NULL));
    sunset_ruleset_free(rs);
}

/* json.c, the reader under every JSON document: exact item positions (a repeated key, a
 * value inside nested arrays), and integers checked before any conversion. */
static void json_reader(void **state) {
    (void)state;
    const char *t = "{\"a\": 1, \"a\": [\"x]\", {\"b\": 2}],\n  \"big\": 1e300, \"neg\": -1e19}";
    size_t off = 99;
    cJSON *doc = json_parse(t, strlen(t), &off);
    assert_non_null(doc);
    const cJSON *a2 = doc->child->next;
    const cJSON *b = cJSON_GetObjectItem(cJSON_GetArrayItem(a2, 1), "b");
    unsigned line, col;
    json_item_pos(t, strlen(t), doc, a2, &line, &col);
    assert_int_equal(line, 1);
    assert_int_equal(col, 15);
    json_item_pos(t, strlen(t), doc, b, &line, &col);
    assert_int_equal(col, 28);
    const cJSON *big = cJSON_GetObjectItem(doc, "big");
    json_item_pos(t, strlen(t), doc, big, &line, &col);
    assert_int_equal(line, 2);
    assert_int_equal(col, 10);
    long v = 7;
    assert_int_equal(json_get_int(big, 0, 10, &v), JSON_INT_RANGE);
    assert_int_equal(json_get_int(cJSON_GetObjectItem(doc, "neg"), LONG_MIN, LONG_MAX, &v), JSON_INT_RANGE);
    assert_int_equal(v, 7);
    assert_int_equal(json_get_int(b, 0, 10, &v), JSON_INT_OK);
    assert_int_equal(v, 2);
    assert_int_equal(json_get_int(b, 3, 10, &v), JSON_INT_RANGE);
    assert_int_equal(json_get_int(a2, 0, 10, &v), JSON_INT_NOT_NUMBER);
    assert_string_equal(json_int_error(JSON_INT_RANGE), "number out of range");
    cJSON *two63 = cJSON_CreateNumber(0x1p63), *half = cJSON_CreateNumber(2.5);
    assert_int_equal(json_get_int(two63, LONG_MIN, LONG_MAX, &v), JSON_INT_RANGE);
    assert_int_equal(json_get_int(half, 0, 10, &v), JSON_INT_NOT_WHOLE);
    cJSON_Delete(two63);
    cJSON_Delete(half);
    cJSON_Delete(doc);
    /* a parse error: its offset; a NUL inside the text is an error, not the end */
    assert_null(json_parse("{\"a\": ]", 8, &off));
    assert_int_equal(off, 6);
    assert_null(json_parse("{}\0{}", 5, &off));
    json_line_col("ab\ncd", 4, &line, &col);
    assert_int_equal(line, 2);
    assert_int_equal(col, 2);
}

/* "migrate_to" is the rule's, else its pack's; "mechanical" only where the rule says so. */
static void migrate_to_from_rule_or_pack(void **state) {
    (void)state;
    static const char *pack =
        "{\"schema\":1," SETTINGS ",\"family\":\"parallel_executor\",\"migrate_to\":\"paddle.static.Executor\",\"rules\":[\n"
        " {\"id\":\"PE-A\",\"task\":5,\"languages\":[\"python\"],\"severity\":\"error\",\"message\":\"m\",\"fix\":\"f\",\n"
        "  \"match\":{\"kind\":\"identifier\",\"names\":[\"ParallelExecutor\"]}},\n"
        " {\"id\":\"PE-B\",\"task\":5,\"languages\":[\"python\"],\"severity\":\"error\",\"message\":\"m\",\"fix\":\"f\",\n"
        "  \"migrate_to\":\"drop the argument\",\"mechanical\":\"drop-argument\",\n"
        "  \"match\":{\"kind\":\"identifier\",\"names\":[\"use_fast_executor\"]}}]}";
    static const char *plain = "{\"schema\":1," SETTINGS ",\"family\":\"parallel_executor\",\"rules\":[\n"
        " {\"id\":\"PE-A\",\"task\":5,\"languages\":[\"python\"],\"severity\":\"error\",\"message\":\"m\",\"fix\":\"f\",\n"
        "  \"match\":{\"kind\":\"identifier\",\"names\":[\"ParallelExecutor\"]}}]}";
    sunset_error err = {{0}};
    sunset_ruleset *rs = sunset_ruleset_load_string(pack, "p.json", NULL, &err);
    if (!rs) fail_msg("%s", err.msg);
    const sunset_rule *a = sunset_ruleset_find(rs, "PE-A"), *b = sunset_ruleset_find(rs, "PE-B");
    assert_string_equal(a->migrate_to, "paddle.static.Executor");
    assert_null(a->mechanical);
    assert_string_equal(b->migrate_to, "drop the argument");
    assert_string_equal(b->mechanical, "drop-argument");
    sunset_ruleset_free(rs);
    rs = sunset_ruleset_load_string(plain, "p.json", NULL, &err);
    if (!rs) fail_msg("%s", err.msg);
    assert_null(sunset_ruleset_find(rs, "PE-A")->migrate_to);
    sunset_ruleset_free(rs);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(migrate_to_from_rule_or_pack),
        cmocka_unit_test(loads_valid_pack),
        cmocka_unit_test(rejects_bad_packs),
        cmocka_unit_test(tasks_come_from_settings),
        cmocka_unit_test(cmake_target_commands_from_settings),
        cmocka_unit_test(test_paths_have_roles),
        cmocka_unit_test(flag_definers_from_settings),
        cmocka_unit_test(error_position_points_at_field),
        cmocka_unit_test(survives_every_allocation_failure),
        cmocka_unit_test(strtest_names_exact),
        cmocka_unit_test(json_reader),
    };
    return cmocka_run_group_tests_name("rules", tests, NULL, NULL);
}
