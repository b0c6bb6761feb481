/*
 * fuzz_suppress.c — libFuzzer harness for the suppression-comment parser (src/core/suppress.c):
 * the input is a file's text; every one of its first lines carries a finding of one of two
 * rules of a small pack built here (FZ-ONE, FZ-TWO: the seeds name them, so they stay valid
 * whatever the bundled rules are called), and sunset_suppress_file applies the file's
 * sunset-ignore comments to them with a fixed "today" (the verdict must not depend on the
 * date the run happens on). Every finding must stay well formed, the unused list too, and
 * nothing may leak. Seeds: testdata/fuzz/fuzz_suppress/.
 */
#include <stdint.h>

#include "fuzz_engine.h"
#include "core/suppress.h"

#define PACK "{\"schema\":1,\"settings\":{\"families\":[{\"id\":\"fz\",\"title\":\"fuzz\"}]}," \
    "\"family\":\"fz\",\"rules\":[" \
    "{\"id\":\"FZ-ONE\",\"task\":1,\"languages\":[\"python\"],\"severity\":\"error\"," \
    "\"message\":\"m\",\"fix\":\"f\",\"match\":{\"kind\":\"identifier\",\"names\":[\"ParallelExecutor\"]}}," \
    "{\"id\":\"FZ-TWO\",\"task\":2,\"languages\":[\"python\"],\"severity\":\"warning\"," \
    "\"message\":\"m\",\"fix\":\"f\",\"match\":{\"kind\":\"identifier\",\"names\":[\"CompiledProgram\"]}}]}"

/* 2024-06-01: seeds with until= dates on either side of it exercise both branches */
#define TODAY 19875L
#define MAX_LINES 2000

static sunset_ruleset *rs;
static const sunset_rule *rules[2];

static void cleanup(void) { sunset_ruleset_free(rs); }

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv) {
    sunset_error err = {{0}};
    if (!(rs = sunset_ruleset_load_string(PACK, "fuzz.json", "queries", &err))) {
        fprintf(stderr, "fuzz: %s (run from the repository root)\n", err.msg);
        exit(2);
    }
    rules[0] = sunset_ruleset_find(rs, "FZ-ONE");
    rules[1] = sunset_ruleset_find(rs, "FZ-TWO");
    if (!rules[0] || !rules[1]) {
        fprintf(stderr, "fuzz: the harness's own pack lost a rule\n");
        exit(2);
    }
    atexit(cleanup);
    return 0;
}

static void add_finding(sunset_result *r, const char *id, uint32_t line) {
    if (r->n_findings == r->cap_findings) {
        size_t cap = r->cap_findings ? 2 * r->cap_findings : 16;
        sunset_finding *v = sunset_realloc(r->findings, cap * sizeof *v);
        if (!v) abort();
        r->findings = v;
        r->cap_findings = cap;
    }
    sunset_finding *f = &r->findings[r->n_findings++];
    memset(f, 0, sizeof *f);
    f->rule_id = id;
    f->family = "fz";
    f->message = "m";
    f->fix = "f";
    f->severity = SUNSET_SEV_ERROR;
    f->span = (sunset_span){line, 1, line, 2};
    f->path = sunset_strndup("a.py", 4);
    f->matched = sunset_strndup("x", 1);
    f->snippet = sunset_strndup("x", 1);
    if (!f->path || !f->matched || !f->snippet) abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len) {
    char *text = fuzz_copy(data, len);
    long live = sunset_alloc_live();
    sunset_result res = {0};
    /* one finding per line, both rules in turn, and one past the end (line n + 1) */
    uint32_t lines = 1;
    for (size_t i = 0; i < len && lines < MAX_LINES; i++) lines += data[i] == '\n';
    for (uint32_t l = 1; l <= lines + 1; l++) add_finding(&res, l % 2 ? "FZ-ONE" : "FZ-TWO", l);
    size_t before = res.n_findings;
    sunset_source src = {.path = "a.py", .fspath = "a.py", .data = text, .len = len, .lang = SUNSET_LANG_PYTHON};
    if (sunset_suppress_file(&res, 0, &src, rs, TODAY) != 0) abort(); /* no OOM here */
    for (size_t i = 0; i < res.n_findings; i++) {
        const sunset_finding *f = &res.findings[i];
        if (!f->rule_id || !f->path || !f->matched || !f->snippet) abort();
        if (f->suppressed && !f->justification) abort(); /* a suppression always has its reason */
        if (i >= before && strcmp(f->rule_id, SUNSET_SUPPRESSION_RULE) != 0) abort();
        if (f->span.line < 1) abort();
    }
    sunset_result_sort(&res);
    for (size_t i = 0; i < res.n_unused; i++)
        if (!res.unused[i].path || !res.unused[i].what || res.unused[i].line < 1) abort();
    sunset_result_free(&res);
    fuzz_check_live(live, "suppression parsing");
    free(text);
    return 0;
}
