/*
 * pcre.c — PCRE2's allocations through sunset_malloc: a general context made for each call
 * (PCRE2 copies its allocator into what it creates, so the context itself is freed at once).
 */
#include "base/pcre.h"

#include "base/util.h"

static void *re_malloc(PCRE2_SIZE n, void *ud) {
    (void)ud;
    return sunset_malloc(n);
}

static void re_free(void *p, void *ud) {
    (void)ud;
    sunset_free(p);
}

pcre2_general_context *sunset_re_context(void) { return pcre2_general_context_create(re_malloc, re_free, NULL); }

pcre2_code *sunset_re_compile(const char *pat, size_t len, uint32_t options, int *ec, PCRE2_SIZE *eo) {
    pcre2_general_context *g = sunset_re_context();
    pcre2_compile_context *cc = g ? pcre2_compile_context_create(g) : NULL;
    pcre2_code *re = NULL;
    if (cc) {
        re = pcre2_compile((PCRE2_SPTR)pat, len, options, ec, eo, cc);
    } else {
        *ec = PCRE2_ERROR_HEAP_FAILED;
        *eo = 0;
    }
    pcre2_compile_context_free(cc);
    pcre2_general_context_free(g);
    return re;
}

pcre2_match_data *sunset_re_match_data(uint32_t pairs) {
    pcre2_general_context *g = sunset_re_context();
    pcre2_match_data *md = g ? pcre2_match_data_create(pairs, g) : NULL;
    pcre2_general_context_free(g);
    return md;
}
