/*
 * fuzz_report.c — libFuzzer harness for the report writers (src/report/: text, json, sarif,
 * github, markdown) fed hostile strings: the input's NUL-separated fields become the root,
 * the URI prefix, the findings' paths, matched texts, snippets, scopes, rule ids, messages,
 * justifications and chains, the warnings and the unused suppressions, as a pull request
 * could make them (file names with newlines, quotes, control bytes, invalid UTF-8). The first
 * byte sets the flags (colour, summary, snippets, a check gate, suppressed/derived findings).
 * Checks what each format promises: the JSON and SARIF documents parse back, and every line
 * of the github output is a workflow command or a "sunset: " line (a newline in a field must
 * not start a command of its own). Nothing may leak. Seeds: testdata/fuzz/fuzz_report/.
 */
#include <stdint.h>

#include <cjson/cJSON.h>

#include "cmd/documents.h"
#include "fuzz_engine.h"

#define MAX_FIELDS 64
#define MAX_FINDINGS 24

static char *dup0(const char *s) {
    char *d = sunset_strndup(s, strlen(s));
    if (!d) abort();
    return d;
}

/* writers see findings sorted by path and line, as the engine leaves them */
static int cmp_finding(const void *x, const void *y) {
    const sunset_finding *a = x, *b = y;
    int c = strcmp(a->path, b->path);
    return c ? c : (a->span.line > b->span.line) - (a->span.line < b->span.line);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len) {
    if (len < 2) return 0;
    unsigned flags = data[0];
    char *text = fuzz_copy(data + 1, len - 1);
    const char *fld[MAX_FIELDS];
    size_t k = 0;
    for (const char *p = text; p <= text + len - 1 && k < MAX_FIELDS; p += strlen(p) + 1) fld[k++] = p;
#define F(i) fld[(size_t)(i) % k]

    long live = sunset_alloc_live();
    sunset_result res = {0};
    res.root = dup0(F(0));
    size_t nf = k > 3 ? (k - 2) / 3 : 1;
    if (nf > MAX_FINDINGS) nf = MAX_FINDINGS;
    res.findings = sunset_calloc(nf, sizeof *res.findings);
    if (!res.findings) abort();
    res.cap_findings = nf;
    static const sunset_family_title fams[] = {{"parallel_executor", "ParallelExecutor"}, {"legacy_tests", "tests"}};
    res.families = fams;
    res.n_families = 2;
    for (size_t i = 0; i < nf; i++) {
        sunset_finding *f = &res.findings[res.n_findings++];
        f->path = dup0(F(2 + 3 * i));
        f->matched = dup0(F(3 + 3 * i));
        f->snippet = dup0(F(4 + 3 * i));
        f->rule_id = F(5 + i);
        f->family = i % 2 ? "legacy_tests" : F(6 + i);
        f->message = F(7 + i);
        f->fix = F(8 + i);
        f->task = (int)(i % 8);
        f->severity = (sunset_severity)(i % 3);
        f->ctx = (sunset_context)(i % 3);
        uint32_t line = (uint32_t)(strlen(F(9 + i)) % 1000);
        f->span = (sunset_span){line, (uint32_t)i, line + (uint32_t)(i % 2), (uint32_t)i + 3};
        f->test = i % 3 == 0;
        if (i % 2) {
            f->enc_kind = dup0("class");
            f->enc_name = dup0(F(10 + i));
            f->enc_start = line ? line - 1 : 0;
            f->enc_end = line + 5;
        }
        snprintf(f->fingerprint, sizeof f->fingerprint, "%016zx", i * 0x9e3779b9u);
        if ((flags & 16) && i % 3 == 1) {
            f->suppressed = true;
            f->justification = dup0(F(11 + i));
        }
        if ((flags & 32) && i % 4 == 2) {
            f->derived = true;
            f->chain = dup0(F(12 + i));
        }
    }
    qsort(res.findings, res.n_findings, sizeof *res.findings, cmp_finding);
    /* warnings and unused suppressions: the fields again */
    res.warnings = sunset_calloc(2, sizeof *res.warnings);
    if (!res.warnings) abort();
    res.cap_warnings = 2;
    res.warnings[res.n_warnings++] = dup0(F(k - 1));
    res.warnings[res.n_warnings++] = dup0(F(k / 2));
    res.unused = sunset_calloc(1, sizeof *res.unused);
    if (!res.unused) abort();
    res.cap_unused = 1;
    res.unused[0] = (sunset_unused){dup0(F(3)), 7, dup0(F(4))};
    res.n_unused = 1;
    res.stats = (sunset_stats){.files_seen = k, .files_scanned = k, .files_parsed = nf, .jobs = 1};
    sunset_fixed fixed[] = {{F(5), F(6), F(7), 3, 2}};
    sunset_gate gate = {.against = F(2), .threshold = SUNSET_SEV_WARNING, .n_new = nf, .n_failing = nf / 2,
                        .fixed = fixed, .n_fixed = 1, .open_known = true, .list_unused = true,
                        .new_by_task = {1, 2}, .fixed_by_task = {0, 1}};

    const char *formats[] = {"text", "json", "sarif", "github", "markdown"};
    for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++) {
        const sunset_writer *w = doc_format_find(CMD_SCAN, formats[i])->write.findings;
        if (!w) abort();
        sunset_envelope env = {.opts = {flags & 1, flags & 2, flags & 4, flags & 8}, .uri_prefix = F(1),
                               .gate = flags & 8 ? &gate : NULL};
        sb doc = {0};
        if (w->write(&res, &env, &doc) != 0) abort(); /* no OOM here */
        if (i == 1 || i == 2) {
            cJSON *back = cJSON_ParseWithLength(doc.s ? doc.s : "", doc.len);
            if (!back) {
                fprintf(stderr, "fuzz: the %s document does not parse back\n", formats[i]);
                abort();
            }
            cJSON_Delete(back);
        }
        if (i == 3) {
            for (const char *l = doc.s; l && l < doc.s + doc.len;) {
                if (strncmp(l, "::", 2) != 0 && strncmp(l, "sunset: ", 8) != 0) {
                    fprintf(stderr, "fuzz: a github line is neither a command nor sunset's: %.60s\n", l);
                    abort();
                }
                const char *nl = memchr(l, '\n', (size_t)(doc.s + doc.len - l));
                l = nl ? nl + 1 : doc.s + doc.len;
            }
        }
        sb_free(&doc);
    }
    sunset_result_free(&res);
    fuzz_check_live(live, "the writers");
    free(text);
    return 0;
#undef F
}
