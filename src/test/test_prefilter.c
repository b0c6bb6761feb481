/*
 * test_prefilter.c — the literal prefilter: finds a literal anywhere (including the last
 * bytes), rejects near misses, and treats a too-short literal as "everything passes". The
 * strided scan must find a literal at every alignment to its stride (also in a language-sized
 * set, whose byte table is the largest), and agree with memmem on random text.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>
#include <string.h>

#include "core/prefilter.h"

static void finds_literals(void **state) {
    (void)state;
    const char *lits[] = {"ParallelExecutor", "exec_strategy", "OpHandleBase", "ParallelExecutor"};
    prefilter *pf = prefilter_new(lits, 4);
    assert_non_null(pf);
    const char *hit = "int x; // uses core.ParallelExecutor here";
    assert_true(prefilter_match(pf, hit, strlen(hit)));
    const char *end = "a=1\nexec_strategy";
    assert_true(prefilter_match(pf, end, strlen(end)));
    const char *miss = "ParallelExecuto exec_strateg OpHandleBas StandaloneExecutor";
    assert_false(prefilter_match(pf, miss, strlen(miss)));
    /* a literal cut by the length bound does not match */
    assert_false(prefilter_match(pf, end, strlen(end) - 1));
    assert_false(prefilter_match(pf, "", 0));
    assert_false(prefilter_match(pf, "Par", 3));
    prefilter_free(pf);
}

static void shared_prefixes(void **state) {
    (void)state;
    const char *lits[] = {"exec_strategy", "exec_other_thing"};
    prefilter *pf = prefilter_new(lits, 2);
    const char *s = "x.exec_other_thing = 1";
    assert_true(prefilter_match(pf, s, strlen(s)));
    const char *t = "x.exec_other = 1";
    assert_false(prefilter_match(pf, t, strlen(t)));
    prefilter_free(pf);
}

static void empty_and_short(void **state) {
    (void)state;
    prefilter *none = prefilter_new(NULL, 0);
    assert_false(prefilter_match(none, "anything at all", 15));
    prefilter_free(none);
    const char *lits[] = {"abc"};
    prefilter *all = prefilter_new(lits, 1);
    assert_true(prefilter_match(all, "zzz", 3));
    prefilter_free(all);
    prefilter_free(NULL);
}

/* `lit` planted at offsets 0..39 of x's: found, also when it ends the data or is the data,
 * and not when its last byte is cut off. */
static void found_at_every_offset(const prefilter *pf, const char *lit) {
    char buf[96];
    size_t n = strlen(lit);
    for (size_t at = 0; at < 40; at++) {
        memset(buf, 'x', sizeof buf);
        memcpy(buf + at, lit, n);
        assert_true(prefilter_match(pf, buf, sizeof buf));
        assert_true(prefilter_match(pf, buf, at + n));      /* ends the data */
        assert_false(prefilter_match(pf, buf, at + n - 1)); /* cut by one byte */
        assert_true(prefilter_match(pf, buf + at, n));      /* is the data */
    }
}

/* The scan probes every stride-th window (stride = shortest literal - 3 = 5 here): a literal
 * must be found at each offset modulo the stride, at the start, at the very end, and not
 * when its last byte is cut off. */
static void every_alignment(void **state) {
    (void)state;
    const char *lits[] = {"OpHandle", "ParallelExecutor", "enable_pe_launch_cinn"};
    prefilter *pf = prefilter_new(lits, 3);
    assert_non_null(pf);
    for (size_t l = 0; l < 3; l++) found_at_every_offset(pf, lits[l]);
    prefilter_free(pf);
}

/* A set the size of a language's (hundreds of literals: the largest byte table, 2^15 bytes,
 * keyed by every bit of its mask): each literal found at every alignment and cut by a byte,
 * and a text of none of them passes nothing. */
static void large_set(void **state) {
    (void)state;
    enum { N = 700 };
    static char store[N][24];
    const char *lits[N];
    for (int i = 0; i < N; i++) {
        snprintf(store[i], sizeof store[i], "lit%c%c%c_%04d_name", 'a' + i % 26, 'a' + i / 26 % 26, 'q', i * 7919 % 10000);
        lits[i] = store[i];
    }
    prefilter *pf = prefilter_new(lits, N);
    assert_non_null(pf);
    for (int i = 0; i < N; i += 13) found_at_every_offset(pf, lits[i]);
    char text[4096];
    for (size_t i = 0; i < sizeof text; i++) text[i] = "lit_name0123456789abcq "[i * 31 % 23];
    assert_false(prefilter_match(pf, text, sizeof text));
    prefilter_free(pf);
}

/* Short literals are found by a rare byte of theirs (anchors): at every alignment, cut by a
 * byte, among many near misses; and with more distinct rare bytes than there are anchors,
 * by the strided scan instead. */
static void short_literals_by_anchor(void **state) {
    (void)state;
    const char *lits[] = {" PE,", "(PE ", " PE's", "OpHandle"};
    prefilter *pf = prefilter_new(lits, 4);
    assert_non_null(pf);
    for (size_t l = 0; l < 4; l++) found_at_every_offset(pf, lits[l]);
    char buf[96];
    const char *near = "TYPE PEER (PE) PE; PE:: SHAPE_PE PE''s OpHandl pHandle";
    assert_false(prefilter_match(pf, near, strlen(near)));
    prefilter_free(pf);

    const char *rare[] = {"Jjjj", "Zzzz", "^^^^", "~~~~", "qQqQ", "ParallelExecutor"};
    pf = prefilter_new(rare, 6);
    assert_non_null(pf);
    for (size_t l = 0; l < 6; l++) {
        memset(buf, 'x', sizeof buf);
        memcpy(buf + 33, rare[l], strlen(rare[l]));
        assert_true(prefilter_match(pf, buf, sizeof buf));
        assert_false(prefilter_match(pf, buf, 33 + strlen(rare[l]) - 1));
    }
    prefilter_free(pf);
}

/* One literal is found by its rarest byte, whatever its length: at every alignment, and not
 * where that byte is followed by another than in the literal ("->" against the marker's '-');
 * a literal that ends on its anchor is found with anything or nothing after it. */
static void one_literal_by_anchor(void **state) {
    (void)state;
    const char *marker[] = {"sunset-ignore"};
    prefilter *pf = prefilter_new(marker, 1);
    assert_non_null(pf);
    found_at_every_offset(pf, marker[0]);
    const char *near = "p->x; sunset-ignor sunset-Ignore sunset_ignore a-i sunset-\nignore -";
    assert_false(prefilter_match(pf, near, strlen(near)));
    prefilter_free(pf);
    const char *tail[] = {"abcde@"};
    pf = prefilter_new(tail, 1);
    assert_non_null(pf);
    found_at_every_offset(pf, tail[0]);
    assert_true(prefilter_match(pf, "xabcde@y", 8));
    assert_false(prefilter_match(pf, "xabcd@@", 7));
    prefilter_free(pf);
    /* a long literal keyed by its rarest run (its end here), found wherever it starts */
    const char *runs[] = {"eeeeeeeeeeeeeeeeeeQJZ", "tttttttttt"};
    pf = prefilter_new(runs, 2);
    assert_non_null(pf);
    found_at_every_offset(pf, runs[0]);
    found_at_every_offset(pf, runs[1]);
    assert_false(prefilter_match(pf, "eeeeeeeeeeeeeeeeeeQJ eeeeeeeeeeeeeeeeeQJZ", 41));
    prefilter_free(pf);
    /* two literals sharing the anchor byte with different bytes after it */
    const char *two[] = {" PE,", " PR;"};
    pf = prefilter_new(two, 2);
    assert_non_null(pf);
    found_at_every_offset(pf, two[0]);
    found_at_every_offset(pf, two[1]);
    assert_false(prefilter_match(pf, " PE; PR, PX, P", 14));
    prefilter_free(pf);
}

/* Differential: random text over a small alphabet, literals planted at random places,
 * prefilter_match == "memmem finds one of the literals", for several literal sets whose
 * shortest member gives strides 1 to 13. */
static void agrees_with_memmem(void **state) {
    (void)state;
    const char *sets[][3] = {{"abab", "babba", "aabbaabb"},
                             {"abbaab", "bbbbab", "abababba"},
                             {"aabbabab", "babbabaa", "abbbabbaaab"},
                             {"abbababbabaaaab", "bababbabbaaabab", "aabababbbbabaaab"},
                             {"abxbaab", NULL, NULL}, /* one literal: anchored on 'x' */
                             {"aaxb", "bxab", "xbbx"}}; /* short: anchored on 'x' */
    uint32_t rnd = 12345;
    char buf[200];
    for (size_t k = 0; k < sizeof sets / sizeof *sets; k++) {
        size_t nl = sets[k][1] ? 3 : 1;
        prefilter *pf = prefilter_new(sets[k], nl);
        assert_non_null(pf);
        for (int round = 0; round < 3000; round++) {
            size_t len = 0;
            rnd = rnd * 1103515245u + 12345u;
            len = (rnd >> 16) % sizeof buf;
            for (size_t i = 0; i < len; i++) {
                rnd = rnd * 1103515245u + 12345u;
                buf[i] = (rnd >> 16) % 3 ? 'a' + (char)((rnd >> 20) & 1) : 'x';
            }
            bool expect = false;
            for (size_t j = 0; j < nl; j++) {
                size_t n = strlen(sets[k][j]);
                for (size_t i = 0; i + n <= len && !expect; i++)
                    expect = memcmp(buf + i, sets[k][j], n) == 0;
            }
            assert_int_equal(prefilter_match(pf, buf, len), expect);
        }
        prefilter_free(pf);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(finds_literals),
        cmocka_unit_test(shared_prefixes),
        cmocka_unit_test(empty_and_short),
        cmocka_unit_test(every_alignment),
        cmocka_unit_test(large_set),
        cmocka_unit_test(short_literals_by_anchor),
        cmocka_unit_test(one_literal_by_anchor),
        cmocka_unit_test(agrees_with_memmem),
    };
    return cmocka_run_group_tests_name("prefilter", tests, NULL, NULL);
}
