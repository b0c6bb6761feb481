/*
 * fuzz_tracking.c — libFuzzer harness for the tracking manifest (src/analysis/tracking.c) and the
 * three tracking writers (src/report/tracking_*.c): the input is a manifest as
 * `sunset report --manifest` reads it. It is parsed (a bad one must give a message); a good
 * one is measured against a small fixed scan result and written as Markdown, JSON and HTML,
 * with work batches by owner, so the manifest's strings (titles, names, PRs, URLs) reach
 * every writer. The JSON document must parse back. Nothing may leak.
 * Seeds: testdata/fuzz/fuzz_tracking/, with -dict=testdata/fuzz/json.dict.
 */
#include <stdint.h>

#include <cjson/cJSON.h>

#include "fuzz_engine.h"
#include "analysis/tracking.h"

/* root-relative paths of the tree, sorted (tracking_opts.tree) */
static char *tree[] = {
    "paddle/fluid/framework/parallel_executor.cc", "python/paddle/fluid/compiler.py",
    "test/cpp/fluid/pe_test.cc", "test/legacy_test/test_pe.py",
};
#define N_TREE (sizeof tree / sizeof tree[0])
static const char owners[] = "python/ @alice\n/test/ @bob @carol\n* @dave\n";

static void add(sunset_result *r, const char *rule, const char *family, int task, const char *path,
                uint32_t line, uint32_t end) {
    sunset_finding *f = &r->findings[r->n_findings++];
    memset(f, 0, sizeof *f);
    f->rule_id = rule;
    f->family = family;
    f->message = "m <b>&amp;</b>";
    f->fix = "f";
    f->task = task;
    f->severity = SUNSET_SEV_ERROR;
    f->span = (sunset_span){line, 1, end, 5};
    f->path = sunset_strndup(path, strlen(path));
    f->matched = sunset_strndup("ParallelExecutor", 16);
    f->snippet = sunset_strndup("exe = ParallelExecutor()", 24);
    f->enc_kind = sunset_strndup("class", 5);
    f->enc_name = sunset_strndup("TestPE", 6);
    f->enc_start = 1;
    f->enc_end = 40;
    if (!f->path || !f->matched || !f->snippet || !f->enc_kind || !f->enc_name) abort();
}

/* A fixed result, sorted by path and line as the engine leaves it. */
static void fixed_result(sunset_result *r) {
    r->findings = sunset_calloc(8, sizeof *r->findings);
    if (!r->findings) abort();
    r->cap_findings = 8;
    add(r, "PE-CC-CLASS", "parallel_executor", 5, tree[0], 10, 12);
    add(r, "PE-CC-CLASS", "parallel_executor", 5, tree[0], 30, 30);
    add(r, "BS-PY-ATTR", "build_strategy", 2, tree[1], 3, 3);
    add(r, "LT-CC-TEST", "legacy_tests", 1, tree[2], 1, 1);
    add(r, "LT-PY-CLASS", "legacy_tests", 1, tree[3], 5, 20);
    add(r, "ES-PY-IDENT", "execution_strategy", 3, tree[3], 7, 7);
    r->stats.files_seen = r->stats.files_scanned = N_TREE;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len) {
    char *json = fuzz_copy(data, len);
    long live = sunset_alloc_live();
    sunset_error err = {{0}};
    tracking_manifest *m = tracking_manifest_parse(json, "fuzz.json", &err);
    if (!m) {
        if (!err.msg[0]) {
            fprintf(stderr, "fuzz: a manifest was refused without a message\n");
            abort();
        }
        goto cleanup;
    }
    sunset_result res = {0};
    fixed_result(&res);
    tracking_opts o = {.root = NULL, .tree = tree, .n_tree = N_TREE};
    tracking_report rep = {0};
    if (tracking_compute(m, &res, &o, &rep) != 0) abort(); /* no OOM here */
    vec batches = {0};
    if (tracking_batches(&rep, owners, 2, &batches) != 0) abort();
    sb doc = {0};
    if (tracking_write_md(&rep, &batches, &doc) != 0) abort();
    sb_free(&doc);
    if (tracking_write_html(&rep, &batches, &doc) != 0) abort();
    sb_free(&doc);
    if (tracking_write_json(&rep, &batches, &doc) != 0) abort();
    cJSON *back = cJSON_ParseWithLength(doc.s, doc.len);
    if (!back) {
        fprintf(stderr, "fuzz: the tracking JSON does not parse back\n");
        abort();
    }
    cJSON_Delete(back);
    sb_free(&doc);
    /* the issue-body update around the generated region */
    bool missing = false;
    char *body = tracking_update_body(json, TRACKING_MARK_BEGIN "x" TRACKING_MARK_END, &missing);
    sunset_free(body);
    tracking_batches_free(&batches);
    tracking_report_free(&rep);
    sunset_result_free(&res);
    tracking_manifest_free(m);
cleanup:
    fuzz_check_live(live, "the tracking report");
    free(json);
    return 0;
}
