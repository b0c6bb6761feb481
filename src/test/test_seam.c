/*
 * test_seam.c — core stands alone: the engine runs the frontends the session hands it
 * (sunset_engine_opts.frontends) and no other. A stub frontend written here emits one
 * identifier fact per line; the engine matches it against a rule, skips a language it was
 * given no frontend for, and refuses more frontends than it holds; each test ends with every
 * allocation freed. Linked with core and base only (make core-test), no libclang, no tree-sitter.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "core/engine.h"

static const char *pack =
    "{\"schema\":1,\"settings\":{\"families\":[{\"id\":\"pe\",\"title\":\"PE\"}]},"
    "\"family\":\"pe\",\"rules\":["
    "{\"id\":\"PE-IDENT\",\"task\":5,\"languages\":[\"cpp\",\"python\"],\"severity\":\"error\","
    " \"message\":\"m\",\"fix\":\"f\",\"literals\":[\"ParallelExecutor\"],"
    " \"match\":{\"kind\":\"identifier\",\"names\":[\"ParallelExecutor\"]}}]}";

static int stub_inits, stub_scans;

static int stub_init(const sunset_frontend_config *cfg, void **state, sunset_error *err) {
    stub_inits++;
    *state = &stub_inits;
    return 0;
}
static void stub_fini(void *state) {}
static void *stub_worker_new(void *state) { return state; }
static void stub_worker_free(void *worker) {}

/* Each line's first word, as an identifier in code. */
static int stub_scan(void *worker, const sunset_source *src, sunset_sink *sink) {
    stub_scans++;
    uint32_t line = 1;
    for (const char *p = src->data, *end = src->data + src->len; p < end; line++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *eol = nl ? nl : end;
        size_t n = strcspn(p, " \n");
        if (n > (size_t)(eol - p)) n = (size_t)(eol - p);
        if (n) {
            sunset_fact f = {.kind = SUNSET_FACT_IDENT, .ctx = SUNSET_CTX_CODE,
                             .span = {line, 1, line, (uint32_t)n + 1}, .text = p, .text_len = n};
            sunset_emit(sink, &f);
        }
        p = nl ? nl + 1 : end;
    }
    return 0;
}

static const sunset_lang stub_langs[] = {SUNSET_LANG_CPP, SUNSET_LANG_NONE};
static const sunset_frontend stub = {SUNSET_FRONTEND_ABI, "stub", stub_langs, stub_init, stub_fini,
                                     stub_worker_new, stub_worker_free, stub_scan};
static const sunset_frontend *const stub_list[] = {&stub};

static size_t scan(sunset_engine *e, const char *path, const char *text, sunset_result *res) {
    memset(res, 0, sizeof *res);
    assert_int_equal(sunset_engine_scan_buffer(e, path, text, strlen(text), res), 0);
    return res->n_findings;
}

/* The handed frontend scans C++; Python has a rule but no frontend: skipped, not parsed. */
static void test_engine_runs_the_frontends_it_is_handed(void **state) {
    long live = sunset_alloc_live();
    sunset_error err = {{0}};
    sunset_ruleset *rs = sunset_ruleset_load_string(pack, "pack.json", "queries", &err);
    assert_non_null(rs);
    sunset_engine_opts o = {.frontends = stub_list, .n_frontends = 1, .jobs = 1};
    stub_inits = stub_scans = 0;
    sunset_engine *e = sunset_engine_new(rs, &o, &err);
    assert_non_null(e);
    assert_int_equal(stub_inits, 1);
    sunset_result res;
    assert_int_equal(scan(e, "a.cc", "int x;\nParallelExecutor pe;\n", &res), 1);
    assert_string_equal(res.findings[0].rule_id, "PE-IDENT");
    assert_int_equal(res.findings[0].span.line, 2);
    assert_int_equal(stub_scans, 1);
    sunset_result_free(&res);
    assert_int_equal(scan(e, "a.py", "ParallelExecutor\n", &res), 0);
    assert_int_equal(res.stats.skipped_no_language, 1);
    assert_int_equal(stub_scans, 1);
    sunset_result_free(&res);
    sunset_engine_free(e);
    sunset_ruleset_free(rs);
    assert_int_equal(sunset_alloc_live(), live);
}

/* No frontends at all: every file is of no language the engine can parse. */
static void test_engine_without_frontends(void **state) {
    long live = sunset_alloc_live();
    sunset_error err = {{0}};
    sunset_ruleset *rs = sunset_ruleset_load_string(pack, "pack.json", "queries", &err);
    assert_non_null(rs);
    sunset_engine_opts o = {.jobs = 1};
    sunset_engine *e = sunset_engine_new(rs, &o, &err);
    assert_non_null(e);
    sunset_result res;
    assert_int_equal(scan(e, "a.cc", "ParallelExecutor pe;\n", &res), 0);
    assert_int_equal(res.stats.skipped_no_language, 1);
    sunset_result_free(&res);
    sunset_engine_free(e);
    sunset_ruleset_free(rs);
    assert_int_equal(sunset_alloc_live(), live);
}

/* More frontends than the engine keeps slots for: refused with a message, nothing leaks. */
static void test_engine_refuses_too_many_frontends(void **state) {
    long live = sunset_alloc_live();
    sunset_error err = {{0}};
    sunset_ruleset *rs = sunset_ruleset_load_string(pack, "pack.json", "queries", &err);
    assert_non_null(rs);
    const sunset_frontend *many[SUNSET_MAX_FRONTENDS + 1];
    for (size_t i = 0; i < SUNSET_MAX_FRONTENDS + 1; i++) many[i] = &stub;
    sunset_engine_opts o = {.frontends = many, .n_frontends = SUNSET_MAX_FRONTENDS + 1, .jobs = 1};
    assert_null(sunset_engine_new(rs, &o, &err));
    assert_non_null(strstr(err.msg, "at most"));
    sunset_ruleset_free(rs);
    assert_int_equal(sunset_alloc_live(), live);
}

/* A stub that leaves each line's statement to be asked (sunset_emit_lazy): lines 1-2 of the
 * file are one statement, and a line starting "Bad" claims one (lines 9-9) that does not hold it. */
static int asked;

static sunset_span lazy_stmt(void *ud) {
    asked++;
    uint32_t line = *(const uint32_t *)ud;
    if (line <= 2) return (sunset_span){1, 0, 2, 0};
    return (sunset_span){9, 0, 9, 0};
}

static int lazy_scan(void *worker, const sunset_source *src, sunset_sink *sink) {
    uint32_t line = 1;
    for (const char *p = src->data, *end = src->data + src->len; p < end; line++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t n = strcspn(p, " \n");
        sunset_fact f = {.kind = SUNSET_FACT_IDENT, .ctx = SUNSET_CTX_CODE,
                         .span = {line, 1, line, (uint32_t)n + 1}, .text = p, .text_len = n,
                         .stmt = {line, 0, line, 0}}; /* not read: the function answers */
        sunset_emit_lazy(sink, &f, lazy_stmt, &line);
        p = nl ? nl + 1 : end;
    }
    return 0;
}

static const sunset_frontend lazy = {SUNSET_FRONTEND_ABI, "lazy", stub_langs, stub_init, stub_fini,
                                     stub_worker_new, stub_worker_free, lazy_scan};
static const sunset_frontend *const lazy_list[] = {&lazy};

/* The statement is asked only of a fact a rule matched, once, and carried by its finding; one
 * that does not hold the fact's line is ignored, as a fact's own stmt would be. */
static void test_statement_asked_only_for_a_match(void **state) {
    long live = sunset_alloc_live();
    sunset_error err = {{0}};
    sunset_ruleset *rs = sunset_ruleset_load_string(pack, "pack.json", "queries", &err);
    assert_non_null(rs);
    sunset_engine_opts o = {.frontends = lazy_list, .n_frontends = 1, .jobs = 1};
    sunset_engine *e = sunset_engine_new(rs, &o, &err);
    assert_non_null(e);
    sunset_result res;
    asked = 0;
    assert_int_equal(scan(e, "a.cc", "int x;\nParallelExecutor pe;\nint y;\nint z;\n", &res), 1);
    assert_int_equal(asked, 1); /* of the one match, not of the four facts */
    assert_int_equal(res.findings[0].span.line, 2);
    assert_int_equal(res.findings[0].stmt.line, 1);
    assert_int_equal(res.findings[0].stmt.end_line, 2);
    sunset_result_free(&res);
    asked = 0;
    assert_int_equal(scan(e, "b.cc", "int x;\nint y;\nParallelExecutor pe;\n", &res), 1);
    assert_int_equal(asked, 1);
    assert_int_equal(res.findings[0].span.line, 3);
    assert_int_equal(res.findings[0].stmt.line, 0); /* lines 9-9 do not hold line 3 */
    sunset_result_free(&res);
    sunset_engine_free(e);
    sunset_ruleset_free(rs);
    assert_int_equal(sunset_alloc_live(), live);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_engine_runs_the_frontends_it_is_handed),
        cmocka_unit_test(test_engine_without_frontends),
        cmocka_unit_test(test_engine_refuses_too_many_frontends),
        cmocka_unit_test(test_statement_asked_only_for_a_match),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
