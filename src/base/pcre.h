/*
 * pcre.h — PCRE2 through the allocation hook (base/util.c): a pattern compiled and the match
 * data made here allocate with sunset_malloc, so a test can fail an allocation inside PCRE2
 * and count what it leaves live, as it does for sunset's own. A compiled pattern and a match
 * data keep the hook (PCRE2 copies it into them): pcre2_code_free, pcre2_code_copy and
 * pcre2_match_data_free use it too. Free of sunset semantics.
 */
#ifndef SUNSET_BASE_PCRE_H
#define SUNSET_BASE_PCRE_H

#ifndef PCRE2_CODE_UNIT_WIDTH
#define PCRE2_CODE_UNIT_WIDTH 8
#endif
#include <pcre2.h>
#include <stddef.h>

/* pcre2_compile through the hook: the compiled pattern, or NULL with *ec and *eo set (*ec is
 * PCRE2_ERROR_HEAP_FAILED when an allocation failed). */
pcre2_code *sunset_re_compile(const char *pat, size_t len, uint32_t options, int *ec, PCRE2_SIZE *eo);
/* pcre2_match_data_create through the hook; NULL when out of memory. */
pcre2_match_data *sunset_re_match_data(uint32_t pairs);
/* pcre2_general_context_create through the hook (caller frees with
 * pcre2_general_context_free); NULL when out of memory. */
pcre2_general_context *sunset_re_context(void);

#endif
