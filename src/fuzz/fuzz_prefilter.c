/*
 * fuzz_prefilter.c — libFuzzer harness for the prefilter (src/core/prefilter.c), the code every
 * scanned file goes through first (the engine harnesses turn it off so that each input reaches
 * its frontend). The input's lines up to the first empty line are the literals, the rest is a
 * file; prefilter_match must agree with a plain memmem over the literals, the contract in
 * prefilter.h (a literal shorter than 4 bytes passes everything, no literal matches nothing):
 * a missed literal would silently drop findings. Seeds: testdata/fuzz/fuzz_prefilter/.
 */
#include <stdint.h>

#include "fuzz_engine.h"
#include "core/prefilter.h"

#define MAX_LITS 64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len) {
    char *text = fuzz_copy(data, len);
    const char *lits[MAX_LITS];
    size_t lens[MAX_LITS], n = 0;
    char *p = text, *end = text + len;
    /* literals: lines until an empty one (or MAX_LITS) */
    while (p < end && n < MAX_LITS) {
        char *nl = memchr(p, '\n', (size_t)(end - p));
        if (!nl) nl = end;
        if (nl == p) {
            p++;
            break;
        }
        *nl = 0;
        lits[n] = p;
        lens[n++] = (size_t)(nl - p);
        p = nl < end ? nl + 1 : end;
    }
    const char *file = p;
    size_t flen = (size_t)(end - p);
    /* a literal holding the NUL we wrote ends there: prefilter_new copies with strlen */
    for (size_t i = 0; i < n; i++) lens[i] = strlen(lits[i]);

    bool expect = false;
    for (size_t i = 0; i < n && !expect; i++)
        expect = lens[i] < 4 || memmem(file, flen, lits[i], lens[i]) != NULL;

    long live = sunset_alloc_live();
    prefilter *pf = prefilter_new(lits, n);
    if (!pf) abort(); /* no OOM here */
    bool got = prefilter_match(pf, file, flen);
    if (got != expect) {
        fprintf(stderr, "fuzz: prefilter says %d, memmem over %zu literals says %d\n", got, n, expect);
        abort();
    }
    prefilter_free(pf);
    fuzz_check_live(live, "the prefilter");
    free(text);
    return 0;
}
