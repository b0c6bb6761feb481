/*
 * test_suppress.c — sunset-ignore comments through the engine (so the hook in finish_file is
 * exercised too): same-line and line-above forms, stacking, begin/end blocks, the file form,
 * rule globs, until= dates (expired ones stop applying), and every malformed form becoming a
 * SUNSET-SUPPRESSION finding while suppressing nothing; unused markers are recorded.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/engine.h"
#include "lang/registry.h"
#include "core/suppress.h"

static const char *pack =
    "{\"schema\":1,\"settings\":{\"families\":[{\"id\":\"parallel_executor\",\"title\":\"PE\"}],"
    "\"test_paths\":[],\"generated_markers\":[],\"generated_paths\":[]},"
    "\"family\":\"parallel_executor\",\"rules\":["
    "{\"id\":\"PE-IDENT\",\"task\":5,\"languages\":[\"cpp\",\"python\"],\"severity\":\"error\",\"message\":\"m\",\"fix\":\"f\","
    " \"literals\":[\"ParallelExecutor\"],\"match\":{\"kind\":\"identifier\",\"pattern\":\"ParallelExecutor\"}},"
    "{\"id\":\"PE-OTHER\",\"task\":2,\"languages\":[\"cpp\",\"python\"],\"severity\":\"error\",\"message\":\"m\",\"fix\":\"f\","
    " \"literals\":[\"SSAGraphExecutor\"],\"match\":{\"kind\":\"identifier\",\"pattern\":\"SSAGraphExecutor\"}}"
    "]}";

typedef struct fixture {
    sunset_ruleset *rs;
    sunset_engine *e;
    sunset_engine_opts o;
} fixture;

static int setup(void **state) {
    fixture *f = calloc(1, sizeof *f);
    sunset_error err = {{0}};
    f->rs = sunset_ruleset_load_string(pack, "pack.json", "queries", &err);
    if (!f->rs) {
        fprintf(stderr, "%s\n", err.msg);
        return -1;
    }
    f->o = (sunset_engine_opts){SUNSET_ALL_FRONTENDS, .jobs = 1, .queries_dir = "queries"};
    f->e = sunset_engine_new(f->rs, &f->o, &err);
    if (!f->e) {
        fprintf(stderr, "%s\n", err.msg);
        return -1;
    }
    *state = f;
    return 0;
}

static int teardown(void **state) {
    fixture *f = *state;
    sunset_engine_free(f->e);
    sunset_ruleset_free(f->rs);
    free(f);
    return 0;
}

static void scan(void **state, const char *path, const char *code, sunset_result *r) {
    fixture *f = *state;
    memset(r, 0, sizeof *r);
    assert_int_equal(sunset_engine_scan_buffer(f->e, path, code, strlen(code), r), 0);
}

static const sunset_finding *at(const sunset_result *r, const char *rule, uint32_t line) {
    for (size_t i = 0; i < r->n_findings; i++)
        if (strcmp(r->findings[i].rule_id, rule) == 0 && r->findings[i].span.line == line) return &r->findings[i];
    return NULL;
}

static size_t count(const sunset_result *r, const char *rule) {
    size_t n = 0;
    for (size_t i = 0; i < r->n_findings; i++) n += strcmp(r->findings[i].rule_id, rule) == 0;
    return n;
}

static void same_line_and_line_above(void **state) {
    sunset_result r;
    scan(state, "a.py",
         "x = ParallelExecutor()  # sunset-ignore[PE-IDENT]: migrated in the next PR\n" /* 1 */
         "# sunset-ignore[PE-IDENT]: kept for the converter\n"                           /* 2 */
         "y = ParallelExecutor()\n"                                                      /* 3 */
         "z = ParallelExecutor()\n",                                                     /* 4 */
         &r);
    const sunset_finding *f = at(&r, "PE-IDENT", 1);
    assert_non_null(f);
    assert_true(f->suppressed);
    assert_string_equal(f->justification, "migrated in the next PR");
    assert_true(at(&r, "PE-IDENT", 3)->suppressed);
    assert_string_equal(at(&r, "PE-IDENT", 3)->justification, "kept for the converter");
    assert_false(at(&r, "PE-IDENT", 4)->suppressed); /* only the line right below */
    assert_int_equal(count(&r, SUNSET_SUPPRESSION_RULE), 0);
    assert_int_equal(r.n_unused, 0);
    sunset_result_free(&r);
}

static void stacked_markers_and_globs(void **state) {
    sunset_result r;
    scan(state, "a.cc",
         "// sunset-ignore[PE-IDENT]: the first of the stack\n"  /* 1 */
         "// sunset-ignore[PE-OTHER]: the second of the stack\n" /* 2 */
         "ParallelExecutor *p; SSAGraphExecutor *q;\n" /* 3 */
         "/* sunset-ignore[PE-*]: both, by glob */ SSAGraphExecutor *s;\n", /* 4 */
         &r);
    assert_true(at(&r, "PE-IDENT", 3)->suppressed);
    assert_true(at(&r, "PE-OTHER", 3)->suppressed);
    assert_string_equal(at(&r, "PE-OTHER", 3)->justification, "the second of the stack");
    assert_true(at(&r, "PE-OTHER", 4)->suppressed);
    assert_string_equal(at(&r, "PE-OTHER", 4)->justification, "both, by glob");
    sunset_result_free(&r);
}

static void blocks_and_file_form(void **state) {
    sunset_result r;
    scan(state, "b.py",
         "a = ParallelExecutor()\n"                                   /* 1 */
         "# sunset-ignore-begin[PE-IDENT]: the compatibility shim\n" /* 2 */
         "b = ParallelExecutor()\n"                                   /* 3 */
         "c = ParallelExecutor()\n"                                   /* 4 */
         "# sunset-ignore-end[PE-IDENT]\n"                            /* 5 */
         "d = ParallelExecutor()\n",                                  /* 6 */
         &r);
    assert_false(at(&r, "PE-IDENT", 1)->suppressed);
    assert_true(at(&r, "PE-IDENT", 3)->suppressed);
    assert_true(at(&r, "PE-IDENT", 4)->suppressed);
    assert_false(at(&r, "PE-IDENT", 6)->suppressed);
    assert_int_equal(count(&r, SUNSET_SUPPRESSION_RULE), 0);
    sunset_result_free(&r);

    scan(state, "c.py",
         "a = ParallelExecutor()\n"
         "b = SSAGraphExecutor()\n"
         "# sunset-ignore-file[PE-OTHER]: this module is the SSA graph's last user\n",
         &r);
    assert_false(at(&r, "PE-IDENT", 1)->suppressed);
    assert_true(at(&r, "PE-OTHER", 2)->suppressed);
    sunset_result_free(&r);
}

static void malformed_markers_are_findings(void **state) {
    sunset_result r;
    scan(state, "d.py",
         "# sunset-ignore[PE-IDENT]\n"                 /* 1: no reason */
         "a = ParallelExecutor()\n"                    /* 2 */
         "b = ParallelExecutor()  # sunset-ignore[NO-SUCH-RULE]: why\n" /* 3: unknown rule */
         "c = ParallelExecutor()  # sunset-ignore: no rule list\n"      /* 4 */
         "# sunset-ignore-end\n"                       /* 5: end without begin */
         "d = ParallelExecutor()  # sunset-ignore[PE-IDENT] until=2024-02-30: bad date\n" /* 6 */
         "# sunset-ignore-begin[PE-IDENT]: never closed\n" /* 7 */
         "e = ParallelExecutor()\n",                   /* 8 */
         &r);
    for (uint32_t line = 2; line <= 8; line += (line == 4 ? 2 : line == 6 ? 2 : 1)) {
        const sunset_finding *f = at(&r, "PE-IDENT", line);
        assert_non_null(f);
        assert_false(f->suppressed);
    }
    assert_int_equal(count(&r, SUNSET_SUPPRESSION_RULE), 6);
    uint32_t bad_lines[] = {1, 3, 4, 5, 6, 7};
    for (size_t i = 0; i < 6; i++) {
        const sunset_finding *f = at(&r, SUNSET_SUPPRESSION_RULE, bad_lines[i]);
        assert_non_null(f);
        assert_int_equal(f->severity, SUNSET_SEV_ERROR);
        assert_int_equal(f->task, 0);
        assert_int_equal(strlen(f->fingerprint), 16);
    }
    assert_non_null(strstr(at(&r, SUNSET_SUPPRESSION_RULE, 1)->message, "without a reason"));
    assert_non_null(strstr(at(&r, SUNSET_SUPPRESSION_RULE, 3)->message, "unknown rule"));
    assert_non_null(strstr(at(&r, SUNSET_SUPPRESSION_RULE, 6)->message, "until="));
    assert_non_null(strstr(at(&r, SUNSET_SUPPRESSION_RULE, 7)->message, "without a matching"));
    sunset_result_free(&r);
}

static void until_dates_and_unused(void **state) {
    sunset_result r;
    scan(state, "e.py",
         "a = ParallelExecutor()  # sunset-ignore[PE-IDENT] until=2000-01-01: long gone by now\n"
         "b = ParallelExecutor()  # sunset-ignore[PE-IDENT] until=2999-12-31: far away in the future\n"
         "c = 1  # sunset-ignore[PE-OTHER]: nothing here\n",
         &r);
    assert_false(at(&r, "PE-IDENT", 1)->suppressed);
    assert_true(at(&r, "PE-IDENT", 2)->suppressed);
    assert_string_equal(at(&r, "PE-IDENT", 2)->justification, "far away in the future");
    assert_int_equal(r.n_unused, 2);
    assert_int_equal(r.unused[0].line, 1);
    assert_non_null(strstr(r.unused[0].what, "expired 2000-01-01"));
    assert_int_equal(r.unused[1].line, 3);
    assert_string_equal(r.unused[1].what, "sunset-ignore[PE-OTHER]");
    sunset_result_free(&r);
}

/* A reason is a sentence, a file-level marker names its rules, a quoted marker is code. */
static void short_reasons_blankets_and_strings(void **state) {
    sunset_result r;
    scan(state, "g.cc",
         "// sunset-ignore-file[*]: the whole file is on its way out soon\n" /* 1: blanket */
         "ParallelExecutor *p;  // sunset-ignore[PE-IDENT]: .\n"              /* 2: too short */
         "const char *s = \"// sunset-ignore[PE-IDENT]: a reason long enough\"; ParallelExecutor *q;\n" /* 3 */
         "ParallelExecutor *t;  // sunset-ignore[PE-IDENT]: kept until the converter goes\n", /* 4 */
         &r);
    assert_non_null(strstr(at(&r, SUNSET_SUPPRESSION_RULE, 1)->message, "sunset-ignore-file[*] is not accepted"));
    assert_false(at(&r, "PE-IDENT", 2)->suppressed);
    assert_non_null(strstr(at(&r, SUNSET_SUPPRESSION_RULE, 2)->message, "too short"));
    assert_false(at(&r, "PE-IDENT", 3)->suppressed);
    assert_int_equal(count(&r, SUNSET_SUPPRESSION_RULE), 2);
    assert_true(at(&r, "PE-IDENT", 4)->suppressed);
    sunset_result_free(&r);
    scan(state, "h.py", "a = ParallelExecutor(); b = '# sunset-ignore[PE-IDENT]: a reason long enough'\n", &r);
    assert_false(at(&r, "PE-IDENT", 1)->suppressed);
    sunset_result_free(&r);
}

static void markers_outside_comments_do_not_count(void **state) {
    sunset_result r;
    /* in Python only '#' leads a marker; in Markdown prose it is just text */
    scan(state, "f.py", "a = ParallelExecutor()  // sunset-ignore[PE-IDENT]: not Python\n", &r);
    assert_false(at(&r, "PE-IDENT", 1)->suppressed);
    assert_int_equal(count(&r, SUNSET_SUPPRESSION_RULE), 0);
    sunset_result_free(&r);
    scan(state, "a.cc", "int sunset_ignored = 0; ParallelExecutor *p; // sunset-ignored[x]\n", &r);
    assert_false(at(&r, "PE-IDENT", 1)->suppressed);
    assert_int_equal(count(&r, SUNSET_SUPPRESSION_RULE), 0);
    assert_int_equal(r.n_unused, 0);
    sunset_result_free(&r);
}

static void dates(void **state) {
    (void)state;
    assert_int_equal(sunset_suppress_parse_date("1970-01-01", 10), 0);
    assert_int_equal(sunset_suppress_parse_date("1970-01-02", 10), 1);
    assert_int_equal(sunset_suppress_parse_date("2000-03-01", 10) - sunset_suppress_parse_date("2000-02-28", 10), 2);
    assert_int_equal(sunset_suppress_parse_date("2024-02-29", 10), 19782);
    assert_int_equal(sunset_suppress_parse_date("2023-02-29", 10), -1);
    assert_int_equal(sunset_suppress_parse_date("2024-13-01", 10), -1);
    assert_int_equal(sunset_suppress_parse_date("2024-1-01", 9), -1);
    assert_true(sunset_suppress_today() > sunset_suppress_parse_date("2024-01-01", 10));
}

/* The README's own suppression block (section "Suppressions"), scanned as C++ with the shipped
 * rules: the markers and the rule ids they name are no finding. A finding on a marker's line
 * is the code before the marker, and suppressed; rule ids in other tools' markers (`noqa`) and
 * in prose are skipped too, while a legacy name beside them still counts. */
static char *readme_block(const char *heading) {
    FILE *fp = fopen("README.md", "rb");
    assert_non_null(fp);
    char line[1024], *out = calloc(1, 1 << 14);
    size_t n = 0;
    int state = 0; /* 0 before the heading, 1 before the fence, 2 inside, 3 done */
    while (state < 3 && fgets(line, sizeof line, fp)) {
        if (state == 0 && strcmp(line, heading) == 0) state = 1;
        else if (state == 1 && strncmp(line, "```", 3) == 0) state = 2;
        else if (state == 2 && strncmp(line, "```", 3) == 0) state = 3;
        else if (state == 2 && n + strlen(line) < (1 << 14)) n += (size_t)sprintf(out + n, "%s", line);
    }
    fclose(fp);
    assert_int_equal(state, 3);
    return out;
}

static void marker_lines_have_no_findings(const char *path, const char *code) {
    const char *dirs[] = {"rules"};
    sunset_error err = {{0}};
    sunset_ruleset *rs = sunset_ruleset_load(dirs, 1, "queries", &err);
    assert_non_null(rs);
    sunset_engine_opts o = {SUNSET_ALL_FRONTENDS, .jobs = 1, .queries_dir = "queries"};
    sunset_engine *e = sunset_engine_new(rs, &o, &err);
    assert_non_null(e);
    sunset_result r = {0};
    assert_int_equal(sunset_engine_scan_buffer(e, path, code, strlen(code), &r), 0);
    size_t on_markers = 0;
    for (size_t i = 0; i < r.n_findings; i++) {
        const sunset_finding *f = &r.findings[i];
        const char *l = code;
        for (uint32_t k = 1; k < f->span.line && l; k++) l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL;
        assert_non_null(l);
        const char *eol = strchr(l, '\n'), *m = strstr(l, "sunset-ignore");
        if (!m || (eol && m > eol)) m = strstr(l, "noqa");
        if (!m || (eol && m > eol)) continue;
        on_markers++;
        if (!f->suppressed || (size_t)(f->span.col - 1) >= (size_t)(m - l))
            fail_msg("%s:%u:%u: %s on a marker line", path, f->span.line, f->span.col, f->rule_id);
    }
    assert_true(on_markers > 0); /* the same-line form suppresses the code before it */
    sunset_result_free(&r);
    sunset_engine_free(e);
    sunset_ruleset_free(rs);
}

static void readme_markers_are_no_findings(void **state) {
    (void)state;
    char *code = readme_block("### Suppressions\n");
    marker_lines_have_no_findings("paddle/fluid/framework/x.cc", code);
    free(code);
    marker_lines_have_no_findings(
        "python/paddle/x.py",
        "import paddle.fluid as fluid\n"
        "exe = fluid.ParallelExecutor(True)  # sunset-ignore[PE-PY-IDENT]: removed with #1234\n"
        "exe = fluid.ParallelExecutor(True)  # noqa: PE-PY-IDENT  # sunset-ignore[PE-*]: gone with #1234\n");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(same_line_and_line_above),
        cmocka_unit_test(stacked_markers_and_globs),
        cmocka_unit_test(blocks_and_file_form),
        cmocka_unit_test(malformed_markers_are_findings),
        cmocka_unit_test(until_dates_and_unused),
        cmocka_unit_test(markers_outside_comments_do_not_count),
        cmocka_unit_test(short_reasons_blankets_and_strings),
        cmocka_unit_test(dates),
        cmocka_unit_test(readme_markers_are_no_findings),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
