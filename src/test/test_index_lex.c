/*
 * test_index_lex.c — the pieces the index's lexers share (analysis/index/ix_int.h) at their
 * edges: the name hash set grows from its small first capacity exactly when half full and
 * sorts runs that wrap past its end; line counts agree with a byte loop across the 64-byte
 * steps and the counters' flush; the in-buffer name hash equals the plain one at every tail
 * length and distance to the buffer's end. And the Python lexer's names-only lines (named as
 * they are lexed, never stored): a local import, a docstring, a module-level alias and a
 * decorator still reach the whole-line reading, and an identifier after '.' stays an
 * attribute.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/index.h"
#include "analysis/index/ix_int.h"

static void hset_grows_at_half_and_sorts(void **state) {
    (void)state;
    hset h = {0};
    /* values whose slot is the last one (top bits all set) probe past the end and wrap */
    uint64_t v[40];
    for (size_t i = 0; i < 40; i++) v[i] = ~(uint64_t)0 - 977 * i;
    for (size_t i = 0; i < 32; i++) ix_hset_add(&h, v[i]);
    assert_int_equal(h.cap, 64); /* the first capacity: 32 members fit it */
    ix_hset_add(&h, v[32]);
    assert_int_equal(h.cap, 128); /* the 33rd doubles it */
    assert_int_equal(h.n, 33);
    ix_hset_add(&h, v[5]); /* a member again: not counted */
    assert_int_equal(h.n, 33);
    for (size_t i = 33; i < 40; i++) ix_hset_add(&h, v[i]);
    ix_hset_add(&h, 0); /* 0 marks an empty slot: stored as 1 */
    uint64_t *out;
    size_t n;
    assert_true(ix_hset_sorted(&h, &out, &n));
    assert_int_equal(n, 41);
    assert_int_equal(out[0], 1);
    for (size_t i = 1; i < n; i++) assert_true(out[i - 1] < out[i]);
    assert_int_equal(out[n - 1], ~(uint64_t)0);
    sunset_free(out);
    sunset_free(h.slots);
    /* a reserved set starts at its size and sorts a single member */
    hset r = {0};
    assert_true(ix_hset_reserve(&r, 1000));
    assert_int_equal(r.cap, 1024);
    ix_hset_add_nz(&r, 42);
    assert_true(ix_hset_sorted(&r, &out, &n));
    assert_int_equal(n, 1);
    assert_int_equal(out[0], 42);
    sunset_free(out);
    sunset_free(r.slots);
}

static size_t count_slow(const char *p, size_t n) {
    size_t k = 0;
    for (size_t i = 0; i < n; i++) k += p[i] == '\n';
    return k;
}

static void count_nl_matches_bytes(void **state) {
    (void)state;
    /* all newlines: every byte lane counts to its limit; 3 flushes and a tail */
    size_t big = 64 * 63 * 3 + 37;
    char *b = sunset_malloc(big);
    assert_non_null(b);
    memset(b, '\n', big);
    assert_int_equal(ix_count_nl(b, b + big), big);
    for (size_t i = 0; i < big; i++) b[i] = (i * 7 % 5 == 0) ? '\n' : 'x';
    for (size_t len = 0; len <= 300; len++)
        for (size_t off = 0; off < 3; off++) assert_int_equal(ix_count_nl(b + off, b + off + len), count_slow(b + off, len));
    assert_int_equal(ix_count_nl(b, b + big), count_slow(b, big));
    sunset_free(b);
}

static void name_hash_in_is_name_hash(void **state) {
    (void)state;
    char buf[64];
    for (size_t i = 0; i < sizeof buf; i++) buf[i] = (char)('a' + i % 26);
    for (size_t n = 1; n <= 40; n++)
        for (size_t pad = 0; pad <= 8; pad++) {
            const char *s = buf + sizeof buf - n - pad; /* the name ends pad bytes before the buffer */
            assert_true(ix_name_hash_in(s, n, buf + sizeof buf) == ix_name_hash(s, n));
            assert_true(ix_name_hash(s, n) != 0);
        }
    assert_true(ix_name_hash("abc", 3) != ix_name_hash("abd", 3));
    assert_true(ix_name_hash("abcdefgh", 8) != ix_name_hash("abcdefg", 7));
}

static const char PY_LINES[] = "import core\n"
                               "import json_like\n"
                               "X = os.path\n"
                               "@dataclass\n"
                               "class D:\n"
                               "    \"\"\"docstring_only_name\"\"\"\n"
                               "    def f(self):\n"
                               "        import local_mod\n"
                               "        (self).x = base.core\n"
                               "        y = (json_like)\n"
                               "        return \"string_used_name\"\n"
                               "def g():\n"
                               "    return base.core\n";

static void python_names_lines(void **state) {
    (void)state;
    sunset_index *ix = sunset_index_new();
    assert_non_null(ix);
    sunset_source src = {"m.py", "m.py", PY_LINES, strlen(PY_LINES), SUNSET_LANG_PYTHON};
    assert_int_equal(sunset_index_add(ix, &src), 0);
    sunset_index_finish(ix);
    const ix_file *f = sunset_index_file(ix, "m.py");
    assert_non_null(f);
    /* a local import opens its line with a keyword: read whole */
    bool local = false;
    for (size_t i = 0; i < f->imports.n; i++) {
        const ix_import *m = &VEC_AT(&f->imports, ix_import, i);
        if (!strcmp(m->module, "local_mod")) local = m->line == 8;
    }
    assert_true(local);
    /* a module-level statement: the alias */
    assert_int_equal(f->aliases.n, 1);
    assert_string_equal(VEC_AT(&f->aliases, ix_alias, 0).name, "X");
    assert_string_equal(VEC_AT(&f->aliases, ix_alias, 0).value, "os.path");
    /* the decorator line, named as lexed, still marks the class */
    assert_int_equal(f->classes.n, 1);
    assert_true(VEC_AT(&f->classes, ix_class, 0).decorated);
    assert_int_equal(VEC_AT(&f->classes, ix_class, 0).end, 11);
    /* a docstring is no name; a returned string is */
    assert_false(ix_file_uses(f, "docstring_only_name"));
    assert_true(ix_file_uses(f, "string_used_name"));
    /* `base.core` alone: an attribute; `(json_like)` after punctuation: bare */
    assert_true(ix_file_uses(f, "core"));
    assert_true(ix_attr_only(f, -2, "core"));
    assert_false(ix_attr_only(f, -2, "json_like"));
    assert_true(ix_file_uses(f, "dataclass"));
    sunset_index_free(ix);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(hset_grows_at_half_and_sorts),
        cmocka_unit_test(count_nl_matches_bytes),
        cmocka_unit_test(name_hash_in_is_name_hash),
        cmocka_unit_test(python_names_lines),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
