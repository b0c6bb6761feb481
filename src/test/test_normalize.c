/*
 * test_normalize.c — the text the toolchain reads (base/normalize.c): C++ line splices joined,
 * Python identifiers folded as NFKC folds them to ASCII, and both leave text without them alone.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "base/normalize.h"

static void splices_are_joined(void **state) {
    (void)state;
    sb out = {0};
    const char *src = "new Parallel\\\nExecutor(p); a\\\r\nb; \"x\\\\\" \\n";
    assert_true(text_join_splices(src, strlen(src), &out));
    assert_string_equal(out.s, "new ParallelExecutor(p); ab; \"x\\\\\" \\n");
    sb_free(&out);
    const char *none = "int a = '\\\\'; // no splice \\ here\n";
    assert_false(text_join_splices(none, strlen(none), &out));
    assert_null(out.s);
    /* a backslash at the very end is no splice */
    assert_false(text_join_splices("a\\", 2, &out));
}

static void nfkc_folds_what_python_folds(void **state) {
    (void)state;
    sb out = {0};
    /* fullwidth S, mathematical bold E, the fi ligature, superscript two */
    const char *src = "Execution\xef\xbc\xb3trategy \xf0\x9d\x90\x84xec pro\xef\xac\x81le x\xc2\xb2";
    assert_true(text_fold_nfkc_ascii(src, strlen(src), &out));
    assert_string_equal(out.s, "ExecutionStrategy Exec profile x2");
    sb_free(&out);
    /* Chinese text and invalid UTF-8 stay as they are */
    const char *keep = "\xe4\xb8\xad\xe6\x96\x87 \xff\xfe ok";
    assert_false(text_fold_nfkc_ascii(keep, strlen(keep), &out));
    assert_null(out.s);
    /* a fold never touches a newline, so line numbers stay the file's */
    const char *lines = "a\n\xef\xbc\xa1\nb\n";
    assert_true(text_fold_nfkc_ascii(lines, strlen(lines), &out));
    assert_string_equal(out.s, "a\nA\nb\n");
    sb_free(&out);
    /* ASCII is skipped a word at a time: a fold at every offset of a long run is still seen */
    for (size_t k = 0; k < 24; k++) {
        char buf[64], want[64];
        memset(buf, 'a', k);
        memcpy(buf + k, "\xef\xbc\xa1", 3); /* fullwidth A */
        memset(buf + k + 3, 'b', 20);
        memset(want, 'a', k);
        want[k] = 'A';
        memset(want + k + 1, 'b', 20);
        want[k + 21] = 0;
        assert_true(text_fold_nfkc_ascii(buf, k + 23, &out));
        assert_string_equal(out.s, want);
        sb_free(&out);
    }
    /* and 64 bytes at a time: a fold in any byte of the first three blocks, or after a fold,
     * is seen, whatever the text's length past it */
    for (size_t k = 0; k < 200; k++) {
        char buf[300], want[300];
        memset(buf, 'a', k);
        memcpy(buf + k, "\xef\xbc\xa1", 3);
        memset(buf + k + 3, 'b', 70);
        memcpy(buf + k + 73, "\xef\xbc\xa2", 3); /* fullwidth B, 70 bytes on */
        memset(want, 'a', k);
        want[k] = 'A';
        memset(want + k + 1, 'b', 70);
        want[k + 71] = 'B';
        want[k + 72] = 0;
        assert_true(text_fold_nfkc_ascii(buf, k + 76, &out));
        assert_string_equal(out.s, want);
        sb_free(&out);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(splices_are_joined),
        cmocka_unit_test(nfkc_folds_what_python_folds),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
