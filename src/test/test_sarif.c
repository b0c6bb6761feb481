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

#define SCHEMA "testdata/sarif/sarif-schema-2.1.0-subset.json"

/* ---- a small JSON-Schema validator ---- */

static const cJSON *resolve(const cJSON *root, const cJSON *schema) {
    const cJSON *ref = cJSON_GetObjectItemCaseSensitive(schema, "$ref");
    if (!cJSON_IsString(ref)) return schema;
    const char *p = ref->valuestring;
    if (strncmp(p, "#/definitions/", 14) != 0) return NULL;
    return cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(root, "definitions"), p + 14);
}

static bool type_is(const cJSON *v, const char *t) {
    if (!strcmp(t, "object")) return cJSON_IsObject(v);
    if (!strcmp(t, "array")) return cJSON_IsArray(v);
    if (!strcmp(t, "string")) return cJSON_IsString(v);
    if (!strcmp(t, "boolean")) return cJSON_IsBool(v);
    if (!strcmp(t, "null")) return cJSON_IsNull(v);
    if (!strcmp(t, "number")) return cJSON_IsNumber(v);
    if (!strcmp(t, "integer")) return cJSON_IsNumber(v) && floor(v->valuedouble) == v->valuedouble;
    return false;
}

/* Returns the number of violations, printing each with its JSON path. */
static int validate(const cJSON *root, const cJSON *schema, const cJSON *v, const char *path, bool quiet) {
    schema = resolve(root, schema);
    if (!schema) {
        if (!quiet) print_error("%s: unresolvable $ref\n", path);
        return 1;
    }
    int bad = 0;
#define FAIL(...)                                     \
    do {                                              \
        if (!quiet) {                                 \
            print_error("%s: ", path);                \
            print_error(__VA_ARGS__);                 \
            print_error("\n");                        \
        }                                             \
        bad++;                                        \
    } while (0)
    const cJSON *type = cJSON_GetObjectItemCaseSensitive(schema, "type");
    if (cJSON_IsString(type) && !type_is(v, type->valuestring)) FAIL("not of type %s", type->valuestring);
    if (cJSON_IsArray(type)) {
        bool ok = false;
        const cJSON *t;
        cJSON_ArrayForEach(t, type) ok |= type_is(v, t->valuestring);
        if (!ok) FAIL("of none of the allowed types");
    }
    const cJSON *en = cJSON_GetObjectItemCaseSensitive(schema, "enum");
    if (en) {
        bool ok = false;
        const cJSON *e;
        cJSON_ArrayForEach(e, en) ok |= cJSON_Compare(e, v, true);
        if (!ok) FAIL("not one of the enumerated values");
    }
    const cJSON *min = cJSON_GetObjectItemCaseSensitive(schema, "minimum");
    if (min && cJSON_IsNumber(v) && v->valuedouble < min->valuedouble) FAIL("below the minimum %g", min->valuedouble);
    const cJSON *max = cJSON_GetObjectItemCaseSensitive(schema, "maximum");
    if (max && cJSON_IsNumber(v) && v->valuedouble > max->valuedouble) FAIL("above the maximum %g", max->valuedouble);
    if (cJSON_IsObject(v)) {
        const cJSON *req = cJSON_GetObjectItemCaseSensitive(schema, "required"), *r;
        cJSON_ArrayForEach(r, req) if (!cJSON_GetObjectItemCaseSensitive(v, r->valuestring))
            FAIL("missing required member \"%s\"", r->valuestring);
        const cJSON *props = cJSON_GetObjectItemCaseSensitive(schema, "properties");
        const cJSON *addl = cJSON_GetObjectItemCaseSensitive(schema, "additionalProperties");
        const cJSON *m;
        cJSON_ArrayForEach(m, v) {
            char sub[512];
            snprintf(sub, sizeof sub, "%s.%s", path, m->string);
            const cJSON *ps = cJSON_GetObjectItemCaseSensitive(props, m->string);
            if (ps) bad += validate(root, ps, m, sub, quiet);
            else if (cJSON_IsFalse(addl)) FAIL("member \"%s\" is not allowed", m->string);
            else if (cJSON_IsObject(addl)) bad += validate(root, addl, m, sub, quiet);
        }
    }
    if (cJSON_IsArray(v)) {
        const cJSON *items = cJSON_GetObjectItemCaseSensitive(schema, "items");
        const cJSON *mi = cJSON_GetObjectItemCaseSensitive(schema, "minItems");
        if (mi && cJSON_GetArraySize(v) < mi->valueint) FAIL("fewer than %d items", mi->valueint);
        int i = 0;
        const cJSON *it;
        cJSON_ArrayForEach(it, v) {
            char sub[512];
            snprintf(sub, sizeof sub, "%s[%d]", path, i++);
            if (items) bad += validate(root, items, it, sub, quiet);
        }
        if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(schema, "uniqueItems"))) {
            for (const cJSON *a = v->child; a; a = a->next)
                for (const cJSON *b = a->next; b; b = b->next)
                    if (cJSON_Compare(a, b, true)) FAIL("items are not unique");
        }
    }
    const cJSON *any = cJSON_GetObjectItemCaseSensitive(schema, "anyOf");
    if (any) {
        bool ok = false;
        const cJSON *alt;
        cJSON_ArrayForEach(alt, any) ok |= validate(root, alt, v, path, true) == 0;
        if (!ok) FAIL("matches none of anyOf");
    }
#undef FAIL
    return bad;
}

static cJSON *load_schema(void) {
    char *s = NULL;
    size_t n;
    assert_int_equal(read_file(SCHEMA, 0, &s, &n), 0);
    cJSON *j = cJSON_Parse(s);
    sunset_free(s);
    assert_non_null(j);
    return j;
}

/* GitHub's own demands beyond the schema. */
static int github_checks(const cJSON *doc) {
    int bad = 0;
    const cJSON *run = cJSON_GetArrayItem(cJSON_GetObjectItem(doc, "runs"), 0);
    const cJSON *rules = cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetObjectItem(run, "tool"), "driver"), "rules");
    const cJSON *rule, *res;
    cJSON_ArrayForEach(rule, rules) {
        bad += !cJSON_GetObjectItem(rule, "shortDescription") || !cJSON_GetObjectItem(rule, "fullDescription") ||
               !cJSON_GetObjectItem(rule, "help") ||
               !cJSON_GetObjectItem(cJSON_GetObjectItem(rule, "defaultConfiguration"), "level");
    }
    cJSON_ArrayForEach(res, cJSON_GetObjectItem(run, "results")) {
        const cJSON *id = cJSON_GetObjectItem(res, "ruleId");
        const cJSON *idx = cJSON_GetObjectItem(res, "ruleIndex");
        bad += !cJSON_IsString(id);
        if (cJSON_IsNumber(idx))
            bad += strcmp(cJSON_GetObjectItem(cJSON_GetArrayItem(rules, idx->valueint), "id")->valuestring,
                          id->valuestring) != 0;
        const cJSON *pl = cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(res, "locations"), 0),
                                              "physicalLocation");
        const cJSON *uri = cJSON_GetObjectItem(cJSON_GetObjectItem(pl, "artifactLocation"), "uri");
        bad += !cJSON_IsString(uri) || uri->valuestring[0] == '/' || strstr(uri->valuestring, "://") != NULL;
        bad += !cJSON_GetObjectItem(cJSON_GetObjectItem(pl, "region"), "startLine");
        bad += !cJSON_IsObject(cJSON_GetObjectItem(res, "partialFingerprints"));
    }
    return bad;
}

static const sunset_family_title fams[] = {{"execution_strategy", "ES"}};

static void two_findings(sunset_result *r, sunset_finding *f) {
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
    r->uri_prefix = "sub/";
}

static cJSON *write_doc(const char *fmt, const sunset_result *r, sb *out) {
    const sunset_writer *w = sunset_writer_find(fmt);
    assert_non_null(w);
    sunset_output_opts o = {false, true, true, false};
    assert_int_equal(w->write(r, &o, out), 0);
    return cJSON_Parse(out->s);
}

static void sarif_validates(void **state) {
    (void)state;
    cJSON *schema = load_schema();
    sunset_result r;
    sunset_finding f[2];
    two_findings(&r, f);
    sunset_gate g = {.against = "baseline b.json", .threshold = SUNSET_SEV_WARNING, .n_new = 1, .n_failing = 1};
    r.gate = &g;
    sb out = {0};
    cJSON *doc = write_doc("sarif", &r, &out);
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
    r.rules = infos;
    r.n_rules = 3;
    doc = write_doc("sarif", &r, &out);
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
    const sunset_writer *w = sunset_writer_find("github");
    assert_non_null(w);
    sb out = {0};
    sunset_output_opts o = {false, true, true, false};
    assert_int_equal(w->write(&r, &o, &out), 0);
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
    two_findings(&r, f);
    sunset_fixed fixed[] = {{"ES-CPP-IDENT", "a|b.cc", "ExecutionStrategy", 9, 3}};
    sunset_gate g = {.against = "HEAD~1", .threshold = SUNSET_SEV_WARNING, .n_new = 1, .n_failing = 1,
                     .n_suppressed = 1, .fixed = fixed, .n_fixed = 1, .open_known = true};
    g.new_by_task[3] = 1;
    g.suppressed_by_task[3] = 1;
    g.fixed_by_task[3] = 1;
    g.open_by_task[3] = 4;
    r.gate = &g;
    sb out = {0};
    const sunset_writer *w = sunset_writer_find("markdown");
    sunset_output_opts o = {false, true, true, false};
    assert_int_equal(w->write(&r, &o, &out), 0);
    assert_non_null(strstr(out.s, "failed"));
    assert_non_null(strstr(out.s, "This change removes **1** use; Task 3 now 4 open."));
    assert_non_null(strstr(out.s, "| Task 3 | 1 | 1 | 1 | 4 |"));
    assert_non_null(strstr(out.s, "`sub/a.py:4`"));
    assert_non_null(strstr(out.s, "kept: the converter needs it"));
    assert_non_null(strstr(out.s, "| `sub/a\\|b.cc:9` | `ES-CPP-IDENT` | `ExecutionStrategy` |"));
    sb_free(&out);
}

/* The SARIF file at path, parsed, valid against the schema and what GitHub needs. */
static cJSON *load_valid(const char *path, const cJSON *schema) {
    char *s = NULL;
    size_t n;
    assert_int_equal(read_file(path, 0, &s, &n), 0);
    cJSON *doc = cJSON_Parse(s);
    sunset_free(s);
    assert_non_null(doc);
    assert_int_equal(validate(schema, schema, doc, "$", false), 0);
    assert_int_equal(github_checks(doc), 0);
    return doc;
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

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sarif_validates),
        cmocka_unit_test(validator_rejects_broken_documents),
        cmocka_unit_test(github_escaping),
        cmocka_unit_test(github_order_and_cap),
        cmocka_unit_test(markdown_gate_summary),
        cmocka_unit_test(binary_sarif_validates),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
