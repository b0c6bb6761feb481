/*
 * test_report.c — the report writers: the JSON document parses back with every field (control
 * characters and invalid UTF-8 in snippets escaped), the text writer's line format, caret and
 * summary, and the document table as the one list of writers.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <cjson/cJSON.h>
#include <string.h>

#include "report/report.h"
#include "cmd/documents.h"

static const sunset_family_title fams[] = {{"parallel_executor", "PE"}, {"op_handle", "OH"}};

static void make_result(sunset_result *r, sunset_finding *f) {
    memset(r, 0, sizeof *r);
    memset(f, 0, sizeof *f);
    f->rule_id = "PE-CPP-IDENT";
    f->family = "parallel_executor";
    f->message = "ParallelExecutor \"used\"";
    f->fix = "delete";
    f->task = 5;
    f->severity = SUNSET_SEV_ERROR;
    f->ctx = SUNSET_CTX_CODE;
    f->path = "paddle/fluid/framework/pe.cc";
    f->span = (sunset_span){3, 5, 3, 21};
    f->matched = "ParallelExecutor";
    /* a tab, a control byte and an invalid UTF-8 byte in the source line */
    f->snippet = "\tnew ParallelExecutor(\x01\xff);";
    f->enc_kind = "function";
    f->enc_name = "Build";
    f->enc_start = 2;
    f->enc_end = 9;
    strcpy(f->fingerprint, "0123456789abcdef");
    r->findings = f;
    r->n_findings = 1;
    r->root = "tree";
    r->families = fams;
    r->n_families = 2;
    r->stats.files_scanned = 7;
    r->stats.jobs = 2;
}

static void json_round_trip(void **state) {
    (void)state;
    sunset_result r;
    sunset_finding f;
    make_result(&r, &f);
    const sunset_writer *w = doc_format_find(CMD_SCAN, "json")->write.findings;
    assert_non_null(w);
    sb out = {0};
    sunset_envelope e = {.opts = {false, true, true, false}};
    assert_int_equal(w->write(&r, &e, &out), 0);
    cJSON *doc = cJSON_Parse(out.s);
    assert_non_null(doc);
    assert_int_equal(cJSON_GetObjectItem(doc, "version")->valueint, 1);
    assert_string_equal(cJSON_GetObjectItem(doc, "root")->valuestring, "tree");
    const cJSON *x = cJSON_GetArrayItem(cJSON_GetObjectItem(doc, "findings"), 0);
    assert_string_equal(cJSON_GetObjectItem(x, "message")->valuestring, "ParallelExecutor \"used\"");
    assert_string_equal(cJSON_GetObjectItem(x, "snippet")->valuestring, "\tnew ParallelExecutor(\x01\xEF\xBF\xBD);");
    assert_int_equal(cJSON_GetObjectItem(x, "end_column")->valueint, 21);
    assert_string_equal(cJSON_GetObjectItem(cJSON_GetObjectItem(x, "enclosing"), "name")->valuestring, "Build");
    assert_false(cJSON_IsTrue(cJSON_GetObjectItem(x, "test")));
    const cJSON *st = cJSON_GetObjectItem(doc, "stats");
    assert_int_equal(cJSON_GetObjectItem(cJSON_GetObjectItem(st, "by_family"), "parallel_executor")->valueint, 1);
    assert_int_equal(cJSON_GetObjectItem(cJSON_GetObjectItem(st, "by_family"), "op_handle")->valueint, 0);
    assert_int_equal(cJSON_GetObjectItem(cJSON_GetObjectItem(st, "by_severity"), "error")->valueint, 1);
    assert_int_equal(cJSON_GetObjectItem(st, "files_scanned")->valueint, 7);
    /* the control byte is escaped, not raw */
    assert_non_null(strstr(out.s, "\\u0001"));
    cJSON_Delete(doc);
    sb_free(&out);
}

static void text_format(void **state) {
    (void)state;
    sunset_result r;
    sunset_finding f;
    make_result(&r, &f);
    sb out = {0};
    sunset_envelope e = {.opts = {false, true, true, false}};
    assert_int_equal(doc_format_find(CMD_SCAN, "text")->write.findings->write(&r, &e, &out), 0);
    const char *want =
        "paddle/fluid/framework/pe.cc:3:5: error: [PE-CPP-IDENT] ParallelExecutor \"used\"\n"
        "    \tnew ParallelExecutor(\\x01\\xff);\n"
        "    \t   ^~~~~~~~~~~~~~~~\n";
    assert_memory_equal(out.s, want, strlen(want));
    assert_non_null(strstr(out.s, "1 findings (1 error, 0 warning, 0 info)"));
    assert_non_null(strstr(out.s, "parallel_executor"));
    assert_null(strstr(out.s, "op_handle")); /* families without findings are not listed */
    sb_free(&out);
    /* colour adds escapes; no summary removes the summary */
    e.opts.color = true;
    e.opts.summary = false;
    assert_int_equal(doc_format_find(CMD_SCAN, "text")->write.findings->write(&r, &e, &out), 0);
    assert_non_null(strstr(out.s, "\033[1;31merror:"));
    assert_null(strstr(out.s, "findings ("));
    sb_free(&out);
}

static void printable(void **state) {
    (void)state;
    sb out = {0};
    static const char in[] = "a\tb\nc\rd\033[2Je\x7f f\xc2\x9b g\xff h\xc3\xa9 \\ \x00z";
    assert_true(sb_put_printable(&out, in, sizeof in - 1));
    assert_string_equal(out.s, "a\tb\\nc\\rd\\x1b[2Je\\x7f f\\u009b g\\xff h\xc3\xa9 \\ \\x00z");
    sb_free(&out);
    assert_true(sb_put_printable_str(&out, NULL));
    assert_null(out.s);
}

/* A file name with a newline must not start a line of its own in a CI log (`::error ...` is a
 * workflow command there), nor a source line carry a raw terminal escape. */
static void text_escapes_control_chars(void **state) {
    (void)state;
    sunset_result r;
    sunset_finding f;
    make_result(&r, &f);
    f.path = "x.py\n::error file=ci.py::injected";
    f.snippet = "\033[31mnew ParallelExecutor();";
    f.span = (sunset_span){3, 10, 3, 26}; /* ParallelExecutor, after the 5-byte escape */
    sb out = {0};
    sunset_envelope e = {.opts = {false, false, true, false}};
    assert_int_equal(doc_format_find(CMD_SCAN, "text")->write.findings->write(&r, &e, &out), 0);
    const char *want = "x.py\\n::error file=ci.py::injected:3:10: error: [PE-CPP-IDENT] "
                       "ParallelExecutor \"used\"\n"
                       "    \\x1b[31mnew ParallelExecutor();\n"
                       "                ^~~~~~~~~~~~~~~~\n";
    assert_string_equal(out.s, want);
    assert_null(strstr(out.s, "\n::"));
    assert_null(strchr(out.s, '\033'));
    sb_free(&out);
}

/* The document table is the one list of writers: each scan format names its own writer, and
 * an unknown format none. */
static void registry(void **state) {
    (void)state;
    assert_null(doc_format_find(CMD_SCAN, "xml"));
    static const char *const names[] = {"text", "json", "sarif", "github", "markdown"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        const doc_format *f = doc_format_find(CMD_SCAN, names[i]);
        assert_non_null(f);
        assert_string_equal(f->write.findings->name, names[i]);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(json_round_trip),
        cmocka_unit_test(text_format),
        cmocka_unit_test(printable),
        cmocka_unit_test(text_escapes_control_chars),
        cmocka_unit_test(registry),
    };
    return cmocka_run_group_tests_name("report", tests, NULL, NULL);
}
