/*
 * sarifcheck.h — SARIF documents checked as code scanning would take them: a small
 * JSON-Schema validator for testdata/sarif/sarif-schema-2.1.0-subset.json (written by us from
 * the SARIF 2.1.0 specification; the draft-07 keywords it uses: $ref, type, required,
 * properties, additionalProperties, enum, items, minItems, uniqueItems, minimum, maximum,
 * anyOf), plus what GitHub needs and the schema leaves optional (ruleId, a location with a
 * relative uri and region, fingerprints, a rule name that is not its id). Header-only, for
 * test_sarif.c and test_action.c (include cmocka.h and cjson first).
 */
#ifndef SUNSET_TEST_SARIFCHECK_H
#define SUNSET_TEST_SARIFCHECK_H

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "base/util.h"

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
        /* code scanning warns when a rule's name is its id (or missing) */
        const cJSON *name = cJSON_GetObjectItem(rule, "name"), *rid = cJSON_GetObjectItem(rule, "id");
        if (!cJSON_IsString(name) || !cJSON_IsString(rid) || !strcmp(name->valuestring, rid->valuestring)) {
            print_error("rule %s: name %s\n", cJSON_IsString(rid) ? rid->valuestring : "?",
                        cJSON_IsString(name) ? "equals its id" : "missing");
            bad++;
        }
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

#endif
