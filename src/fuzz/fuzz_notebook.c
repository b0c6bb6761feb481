/*
 * fuzz_notebook.c — libFuzzer harness for the notebook decoder (lang/python/doccode.c): the
 * input is one .ipynb file. It is decoded directly, and the decoded code's invariants are
 * checked (never longer than the file, every byte mapped to a file offset inside the file, the
 * offsets in file order, every span mapped back inside the file, end not before start); then
 * it is scanned through the engine twice (fuzz_scan_with_stops: a fake clock, up at a read
 * chosen from the input's hash the second time), so the decoded cells reach the Python frontend, the
 * rules and the flow. Seeds: testdata/fuzz/fuzz_notebook/.
 */
#include <stdint.h>

#include "fuzz_engine.h"
#include "lang/python/python_int.h"

static fuzz_engine F;

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv) {
    fuzz_engine_open(&F);
    fuzz_use_fake_clock();
    return 0;
}

static void check_decoded(const char *src, size_t len) {
    py_nb nb;
    if (!py_notebook_source(src, len, &nb)) return;
    if (nb.n > len || nb.off[nb.n] != len || nb.text[len] != 0) abort();
    for (uint32_t i = 0; i < nb.n; i++)
        if (nb.off[i] >= len || (i && nb.off[i] < nb.off[i - 1])) abort();
    /* every line's whole extent, and a span ending past the code, map into the file */
    for (uint32_t r = 0; r < nb.nrows; r++) {
        uint32_t end = r + 1 < nb.nrows ? nb.rows[r + 1] - nb.rows[r] : nb.n - nb.rows[r];
        sunset_span s = py_nb_span(&nb, (sunset_span){r + 1, 1, r + 1, end + 1});
        sunset_span t = py_nb_span(&nb, (sunset_span){r + 1, 1, r + 3, 1});
        if (!s.line || s.line > nb.nlines || s.end_line < s.line ||
            (s.end_line == s.line && s.end_col < s.col) || t.end_line > nb.nlines + 1)
            abort();
    }
    py_nb_free(&nb);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len) {
    char *src = fuzz_copy(data, len);
    long live = sunset_alloc_live();
    check_decoded(src, len);
    fuzz_check_live(live, "the notebook decoder");
    fuzz_scan_with_stops(F.eng, "notebooks/fuzz.ipynb", src, len, "the notebook scan");
    free(src);
    return 0;
}
