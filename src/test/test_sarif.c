/*
 * test_sarif.c — the SARIF, GitHub and Markdown writers. SARIF documents are validated
 * against testdata/sarif/sarif-schema-2.1.0-subset.json (written by us from the SARIF 2.1.0
 * specification) by a small JSON-Schema validator below (the draft-07 keywords that schema
 * uses: $ref, type, required, properties, additionalProperties, enum, items, minItems,
 * uniqueItems, minimum, maximum, anyOf), plus the members GitHub code scanning needs and the
 * schema leaves optional (ruleId, a location with a relative uri and region, fingerprints).
 * The validator is checked to reject broken documents, so a pass means something.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <limits.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "report/report.h"
#include "cmd/documents.h"

#include "test/sarifcheck.h"

static const sunset_family_title fams[] = {{"execution_strategy", "ES"}};

static void two_findings(sunset_result *r, sunset_finding *f, sunset_envelope *e) {
    memset(r, 0, sizeof *r);
    memset(f, 0, 2 * sizeof *f);
    for (int i = 0; i < 2; i++) {
        f[i].rule_id = i ? "ES-PY-IDENT" : "ES-PY-KWARG";
        f[i].family = "execution_strategy";
        f[i].message = "ExecutionStrategy \"used\"";
        f[i].fix = "drop it";
        f[i].task = 3;
        f[i].severity = i ? SUNSET_SEV_INFO : SUNSET_SEV_ERROR;
        f[i].ctx = i ? SUNSET_CTX_COMMENT : SUNSET_CTX_CODE;
        f[i].path = i ? "dir with space/b.py" : "a.py";
        f[i].span = (sunset_span){4 + i, 10, 4 + i, 23};
        f[i].matched = "exec_strategy";
        f[i].snippet = "    run(exec_strategy=es)";
        strcpy(f[i].fingerprint, i ? "1111111111111111" : "0123456789abcdef");
    }
    f[1].suppressed = true;
    f[1].justification = "kept: the converter needs it";
    r->findings = f;
    r->n_findings = 2;
    r->families = fams;
    r->n_families = 1;
    *e = (sunset_envelope){.opts = {false, true, true, false}, .uri_prefix = "sub/"};
}

static cJSON *write_doc(const char *fmt, const sunset_result *r, const sunset_envelope *e, sb *out) {
    const sunset_writer *w = doc_format_find(CMD_SCAN, fmt)->write.findings;
    assert_non_null(w);
    assert_int_equal(w->write(r, e, out), 0);
    return cJSON_Parse(out->s);
}

static void sarif_validates(void **state) {
    (void)state;
    cJSON *schema = load_schema();
    sunset_result r;
    sunset_finding f[2];
    sunset_envelope e;
    two_findings(&r, f, &e);
    sunset_gate g = {.against = "baseline b.json", .threshold = SUNSET_SEV_WARNING, .n_new = 1, .n_failing = 1};
    e.gate = &g;
    sb out = {0};
    cJSON *doc = write_doc("sarif", &r, &e, &out);
    assert_non_null(doc);
    assert_int_equal(validate(schema, schema, doc, "$", false), 0);
    assert_int_equal(github_checks(doc), 0);
    const cJSON *run = cJSON_GetArrayItem(cJSON_GetObjectItem(doc, "runs"), 0);
    const cJSON *results = cJSON_GetObjectItem(run, "results");
    assert_int_equal(cJSON_GetArraySize(results), 2);
    const cJSON *r0 = cJSON_GetArrayItem(results, 0), *r1 = cJSON_GetArrayItem(results, 1);
    assert_string_equal(cJSON_GetObjectItem(r0, "level")->valuestring, "error");
    assert_string_equal(cJSON_GetObjectItem(r1, "level")->valuestring, "note");
    assert_string_equal(cJSON_GetObjectItem(r0, "baselineState")->valuestring, "new");
    const cJSON *loc = cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(r1, "locations"), 0), "physicalLocation");
    assert_string_equal(cJSON_GetObjectItem(cJSON_GetObjectItem(loc, "artifactLocation"), "uri")->valuestring,
                        "sub/dir%20with%20space/b.py");
    assert_int_equal(cJSON_GetObjectItem(cJSON_GetObjectItem(loc, "region"), "startLine")->valueint, 5);
    assert_null(cJSON_GetObjectItem(r0, "suppressions"));
    const cJSON *sup = cJSON_GetArrayItem(cJSON_GetObjectItem(r1, "suppressions"), 0);
    assert_string_equal(cJSON_GetObjectItem(sup, "kind")->valuestring, "inSource");
    assert_string_equal(cJSON_GetObjectItem(sup, "justification")->valuestring, "kept: the converter needs it");
    assert_string_equal(cJSON_GetObjectItem(cJSON_GetObjectItem(r0, "partialFingerprints"), "sunset/v1")->valuestring,
                        "0123456789abcdef");
    /* rules derived from the findings (no rule table given): two, sorted, with the task */
    const cJSON *rules = cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetObjectItem(run, "tool"), "driver"), "rules");
    assert_int_equal(cJSON_GetArraySize(rules), 2);
    assert_string_equal(cJSON_GetObjectItem(cJSON_GetArrayItem(rules, 0), "id")->valuestring, "ES-PY-IDENT");
    cJSON_Delete(doc);
    sb_free(&out);

    /* with the full rule table, ruleIndex points into it */
    sunset_rule_info infos[] = {{"A-RULE", "x", "m", "f", 1, SUNSET_SEV_WARNING},
                                {"ES-PY-IDENT", "execution_strategy", "m", "f", 3, SUNSET_SEV_ERROR},
                                {"ES-PY-KWARG", "execution_strategy", "m", "f", 3, SUNSET_SEV_ERROR}};
    e.rules = infos;
    e.n_rules = 3;
    doc = write_doc("sarif", &r, &e, &out);
    assert_int_equal(validate(schema, schema, doc, "$", false), 0);
    assert_int_equal(github_checks(doc), 0);
    results = cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(doc, "runs"), 0), "results");
    assert_int_equal(cJSON_GetObjectItem(cJSON_GetArrayItem(results, 0), "ruleIndex")->valueint, 2);
    cJSON_Delete(doc);
    sb_free(&out);
    cJSON_Delete(schema);
}

/* The validator must reject what the schema forbids, or the test above proves nothing. */
static void validator_rejects_broken_documents(void **state) {
    (void)state;
    cJSON *schema = load_schema();
    const char *broken[] = {
        "{\"runs\":[]}",                                             /* no version */
        "{\"version\":\"2.0.0\",\"runs\":[]}",                      /* wrong version */
        "{\"version\":\"2.1.0\",\"runs\":[{}]}",                    /* run without tool */
        "{\"version\":\"2.1.0\",\"runs\":[{\"tool\":{\"driver\":{}}}]}", /* driver without name */
        "{\"version\":\"2.1.0\",\"runs\":[{\"tool\":{\"driver\":{\"name\":\"s\"}},\"results\":[{\"ruleId\":\"x\"}]}]}",
        "{\"version\":\"2.1.0\",\"runs\":[{\"tool\":{\"driver\":{\"name\":\"s\"}},\"results\":[{\"message\":{\"text\":\"m\"},"
        "\"level\":\"fatal\"}]}]}",
        "{\"version\":\"2.1.0\",\"runs\":[{\"tool\":{\"driver\":{\"name\":\"s\"}},\"results\":[{\"message\":{\"text\":\"m\"},"
        "\"locations\":[{\"physicalLocation\":{\"artifactLocation\":{\"uri\":\"a\"},\"region\":{\"startLine\":0}}}]}]}]}",
        "{\"version\":\"2.1.0\",\"runs\":[{\"tool\":{\"driver\":{\"name\":\"s\"}},\"results\":[{\"message\":{}}]}]}",
        "{\"version\":\"2.1.0\",\"runs\":[{\"tool\":{\"driver\":{\"name\":\"s\"}},\"results\":[{\"message\":{\"text\":\"m\"},"
        "\"suppressions\":[{\"kind\":\"inline\"}]}]}]}",
        "{\"version\":\"2.1.0\",\"runs\":[{\"tool\":{\"driver\":{\"name\":\"s\",\"rulez\":[]}}}]}",
        "{\"version\":\"2.1.0\",\"runs\":[{\"tool\":{\"driver\":{\"name\":\"s\",\"rules\":[{\"id\":\"a\",\"defaultConfiguration\":"
        "{\"level\":\"severe\"}}]}}}]}",
    };
    for (size_t i = 0; i < sizeof broken / sizeof broken[0]; i++) {
        cJSON *doc = cJSON_Parse(broken[i]);
        assert_non_null(doc);
        if (validate(schema, schema, doc, "$", true) == 0) fail_msg("accepted broken document %zu: %s", i, broken[i]);
        cJSON_Delete(doc);
    }
    cJSON *ok = cJSON_Parse("{\"version\":\"2.1.0\",\"runs\":[{\"tool\":{\"driver\":{\"name\":\"s\"}},\"results\":[]}]}");
    assert_int_equal(validate(schema, schema, ok, "$", false), 0);
    cJSON_Delete(ok);
    cJSON_Delete(schema);
}

static void github_escaping(void **state) {
    (void)state;
    sb b = {0};
    sunset_github_escape(&b, "a%b\r\nc:d,e", false);
    assert_string_equal(b.s, "a%25b%0D%0Ac:d,e");
    sb_free(&b);
    sunset_github_escape(&b, "a%b\r\nc:d,e", true);
    assert_string_equal(b.s, "a%25b%0D%0Ac%3Ad%2Ce");
    sb_free(&b);
}

static void github_order_and_cap(void **state) {
    (void)state;
    /* 14 errors (one suppressed), 2 warnings, 1 info, listed warnings first */
    sunset_finding f[17];
    memset(f, 0, sizeof f);
    char paths[17][32];
    for (int i = 0; i < 17; i++) {
        snprintf(paths[i], sizeof paths[i], "p,%02d.py", i);
        f[i].rule_id = "R";
        f[i].family = "x";
        f[i].message = "m";
        f[i].task = 3;
        f[i].severity = i < 2 ? SUNSET_SEV_WARNING : i == 2 ? SUNSET_SEV_INFO : SUNSET_SEV_ERROR;
        f[i].path = paths[i];
        f[i].span = (sunset_span){7, 2, 7, 5};
        f[i].matched = f[i].snippet = "";
        f[i].suppressed = i == 16;
    }
    sunset_result r = {0};
    r.findings = f;
    r.n_findings = 17;
    const sunset_writer *w = doc_format_find(CMD_SCAN, "github")->write.findings;
    assert_non_null(w);
    sb out = {0};
    sunset_envelope e = {.opts = {false, true, true, false}};
    assert_int_equal(w->write(&r, &e, &out), 0);
    int errors = 0, warnings = 0, notices = 0, line = 0, first_warning = -1, last_error = -1;
    for (char *p = out.s; p && *p; line++) {
        char *nl = strchr(p, '\n');
        if (!strncmp(p, "::error ", 8)) errors++, last_error = line;
        if (!strncmp(p, "::warning ", 10)) {
            warnings++;
            if (first_warning < 0) first_warning = line;
        }
        if (!strncmp(p, "::notice ", 9)) notices++;
        p = nl ? nl + 1 : NULL;
    }
    assert_int_equal(errors, 10);
    assert_int_equal(warnings, 2);
    assert_int_equal(notices, 1);
    assert_true(last_error < first_warning); /* highest severity first */
    assert_non_null(strstr(out.s, "+3 more errors"));
    assert_non_null(strstr(out.s, "::error file=p%2C03.py,line=7,col=2,endLine=7,endColumn=5,title=sunset R (task 3)::m\n"));
    sb_free(&out);
}

static void markdown_gate_summary(void **state) {
    (void)state;
    sunset_result r;
    sunset_finding f[2];
    sunset_envelope e;
    two_findings(&r, f, &e);
    sunset_fixed fixed[] = {{"ES-CPP-IDENT", "a|b.cc", "ExecutionStrategy", 9, 3}};
    sunset_gate g = {.against = "HEAD~1", .threshold = SUNSET_SEV_WARNING, .n_new = 1, .n_failing = 1,
                     .n_suppressed = 1, .fixed = fixed, .n_fixed = 1, .open_known = true};
    g.new_by_task[3] = 1;
    g.suppressed_by_task[3] = 1;
    g.fixed_by_task[3] = 1;
    g.open_by_task[3] = 4;
    e.gate = &g;
    sb out = {0};
    const sunset_writer *w = doc_format_find(CMD_SCAN, "markdown")->write.findings;
    assert_int_equal(w->write(&r, &e, &out), 0);
    assert_non_null(strstr(out.s, "failed"));
    assert_non_null(strstr(out.s, "This change removes **1** use; Task 3 now 4 open."));
    assert_non_null(strstr(out.s, "| Task 3 | 1 | 1 | 1 | 4 |"));
    assert_non_null(strstr(out.s, "`sub/a.py:4`"));
    assert_non_null(strstr(out.s, "kept: the converter needs it"));
    assert_non_null(strstr(out.s, "| `sub/a\\|b.cc:9` | `ES-CPP-IDENT` | `ExecutionStrategy` |"));
    sb_free(&out);
}

/* The text writer's summary is the envelope's: the scan's counts, or under a gate its verdict
 * (what `check` prints) in their place; the findings above it are the same. */
static void text_summary_from_envelope(void **state) {
    (void)state;
    sunset_result r;
    sunset_finding f[2];
    sunset_envelope e;
    two_findings(&r, f, &e);
    sb scan = {0}, gate = {0};
    const sunset_writer *w = doc_format_find(CMD_SCAN, "text")->write.findings;
    assert_int_equal(w->write(&r, &e, &scan), 0);
    assert_non_null(strstr(scan.s, "2 findings (1 error, 0 warning, 1 info), 1 of them suppressed"));
    assert_null(strstr(scan.s, "gate:"));
    sunset_gate g = {.against = "origin/develop", .threshold = SUNSET_SEV_WARNING, .n_new = 1, .n_failing = 1};
    g.new_by_task[3] = 1;
    e.gate = &g;
    assert_int_equal(w->write(&r, &e, &gate), 0);
    assert_null(strstr(gate.s, "findings ("));
    assert_non_null(strstr(gate.s, "\nsunset check against origin/develop: 1 new finding (1 at or above warning)"));
    assert_non_null(strstr(gate.s, "task 3: 1 new\ngate: FAILED\n"));
    /* the findings part is the scan's */
    const char *cut = strstr(scan.s, "\n\n");
    assert_non_null(cut);
    assert_memory_equal(gate.s, scan.s, (size_t)(cut - scan.s) + 1);
    sb_free(&scan);
    sb_free(&gate);
}

/* The binary's own SARIF for the sample tree, from `scan` and from `check` (every finding new,
 * the full rule table), validates too, and so does check's full set with baselineStates. */
static void binary_sarif_validates(void **state) {
    (void)state;
    const char *b = getenv("SUNSET_BIN");
    if (!b || !*b) b = "build/sunset";
    cJSON *schema = load_schema();
    char tmpl[] = "/tmp/sunset-sarif-XXXXXX";
    assert_non_null(mkdtemp(tmpl));
    const char *cmds[] = {"scan", "check"};
    int want_rc[] = {0, 1};
    for (int i = 0; i < 2; i++) {
        char cmd[PATH_MAX * 2 + 256], out[PATH_MAX];
        snprintf(out, sizeof out, "%s/%s.sarif", tmpl, cmds[i]);
        snprintf(cmd, sizeof cmd, "%s %s testdata/paddle-mini --no-config -q -j2 -f sarif -o %s", b, cmds[i], out);
        int st = system(cmd);
        assert_true(WIFEXITED(st));
        assert_int_equal(WEXITSTATUS(st), want_rc[i]);
        cJSON *doc = load_valid(out, schema);
        const cJSON *run = cJSON_GetArrayItem(cJSON_GetObjectItem(doc, "runs"), 0);
        assert_true(cJSON_GetArraySize(cJSON_GetObjectItem(run, "results")) > 50);
        const cJSON *rules = cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetObjectItem(run, "tool"), "driver"), "rules");
        if (i == 1) assert_true(cJSON_GetArraySize(rules) > 100); /* check lists every rule */
        cJSON_Delete(doc);
        unlink(out);
    }
    /* check's full set against a baseline of part of the tree: new and unchanged results */
    char cmd[PATH_MAX * 3 + 256], out[PATH_MAX], base[PATH_MAX];
    snprintf(out, sizeof out, "%s/states.sarif", tmpl);
    snprintf(base, sizeof base, "%s/base.json", tmpl);
    snprintf(cmd, sizeof cmd, "%s baseline testdata/paddle-mini --no-config -q --exclude 'python/**' -o %s && "
             "%s check testdata/paddle-mini --no-config -q -j2 --baseline %s -f sarif -o %s", b, base, b, base, out);
    int st = system(cmd);
    assert_true(WIFEXITED(st));
    assert_int_equal(WEXITSTATUS(st), 1);
    cJSON *doc = load_valid(out, schema);
    int states[2] = {0, 0};
    const cJSON *it;
    cJSON_ArrayForEach(it, cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(doc, "runs"), 0), "results")) {
        const char *bs = cJSON_GetObjectItem(it, "baselineState")->valuestring;
        states[0] += strcmp(bs, "new") == 0;
        states[1] += strcmp(bs, "unchanged") == 0;
    }
    assert_true(states[0] > 10);
    assert_true(states[1] > 10);
    cJSON_Delete(doc);
    unlink(out);
    unlink(base);
    rmdir(tmpl);
    cJSON_Delete(schema);
}

/* The member names of an object, sorted and joined (skip: one member to leave out). */
static void members(const cJSON *o, const char *skip, char *out, size_t n) {
    const char *names[32];
    int k = 0;
    const cJSON *m;
    cJSON_ArrayForEach(m, o) if (k < 32 && (!skip || strcmp(m->string, skip))) names[k++] = m->string;
    for (int i = 1; i < k; i++)
        for (int j = i; j > 0 && strcmp(names[j - 1], names[j]) > 0; j--) {
            const char *t = names[j];
            names[j] = names[j - 1];
            names[j - 1] = t;
        }
    out[0] = 0;
    for (int i = 0; i < k; i++) snprintf(out + strlen(out), n - strlen(out), "%s,", names[i]);
}

/* scan -f sarif and check -f sarif upload to one category: one result per finding under one
 * fingerprint scheme, with the same members and properties (check adds baselineState). */
static void scan_and_check_share_one_shape(void **state) {
    (void)state;
    const char *b = getenv("SUNSET_BIN");
    if (!b || !*b) b = "build/sunset";
    char tmpl[] = "/tmp/sunset-shape-XXXXXX";
    assert_non_null(mkdtemp(tmpl));
    char cmd[PATH_MAX * 2 + 256];
    snprintf(cmd, sizeof cmd, "%s scan testdata/paddle-mini --no-config -q -f sarif -o %s/scan.sarif; "
             "%s check testdata/paddle-mini --no-config -q -f sarif -o %s/check.sarif; exit 0", b, tmpl, b, tmpl);
    assert_int_equal(system(cmd), 0);
    cJSON *schema = load_schema();
    char p[PATH_MAX];
    snprintf(p, sizeof p, "%s/scan.sarif", tmpl);
    cJSON *scan = load_valid(p, schema);
    unlink(p);
    snprintf(p, sizeof p, "%s/check.sarif", tmpl);
    cJSON *check = load_valid(p, schema);
    unlink(p);
    rmdir(tmpl);
    const cJSON *sr = cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(scan, "runs"), 0), "results");
    const cJSON *cr = cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(check, "runs"), 0), "results");
    assert_int_equal(cJSON_GetArraySize(sr), cJSON_GetArraySize(cr));
    const cJSON *c, *s;
    int compared = 0;
    cJSON_ArrayForEach(c, cr) {
        const char *fp = cJSON_GetObjectItem(cJSON_GetObjectItem(c, "partialFingerprints"), "sunset/v1")->valuestring;
        const cJSON *twin = NULL;
        cJSON_ArrayForEach(s, sr) if (!twin && !strcmp(cJSON_GetObjectItem(cJSON_GetObjectItem(s, "partialFingerprints"),
                                                                           "sunset/v1")->valuestring, fp)) twin = s;
        if (!twin) fail_msg("check's result %s is not one of scan's", fp);
        char a[512], z[512];
        members(twin, NULL, a, sizeof a);
        members(c, "baselineState", z, sizeof z);
        if (strcmp(a, z)) fail_msg("result %s: scan has %s, check %s", fp, a, z);
        members(cJSON_GetObjectItem(twin, "properties"), NULL, a, sizeof a);
        members(cJSON_GetObjectItem(c, "properties"), NULL, z, sizeof z);
        if (strcmp(a, z)) fail_msg("result %s properties: scan has %s, check %s", fp, a, z);
        members(cJSON_GetObjectItem(c, "partialFingerprints"), NULL, z, sizeof z);
        assert_string_equal(z, "sunset/v1,");
        compared++;
    }
    assert_true(compared > 50);
    cJSON_Delete(scan);
    cJSON_Delete(check);
    cJSON_Delete(schema);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sarif_validates),
        cmocka_unit_test(validator_rejects_broken_documents),
        cmocka_unit_test(github_escaping),
        cmocka_unit_test(github_order_and_cap),
        cmocka_unit_test(markdown_gate_summary),
        cmocka_unit_test(text_summary_from_envelope),
        cmocka_unit_test(binary_sarif_validates),
        cmocka_unit_test(scan_and_check_share_one_shape),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
