/*
 * relit.h — the literals every match of a regex contains, worked out from its source when the
 * rules load, so that a text holding none of them is ruled out without running PCRE2.
 */
#ifndef SUNSET_RELIT_H
#define SUNSET_RELIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct relit relit;

/* The literals of pattern[0..len) compiled with PCRE2 options `options`: NULL when nothing is
 * known (a construct the analysis does not read, any option but 0, a match that needs no
 * literal) or on OOM. Either way NULL only means the regex must always run. */
relit *relit_new(const char *pattern, size_t len, uint32_t options);
void relit_free(relit *rl);
/* False when s[0..n) holds none of the literals, so the regex cannot match it. NULL: true. */
bool relit_may_match(const relit *rl, const char *s, size_t n);
/* The literals, for tests and `rules show`-style dumps: the count, and the i-th one. */
size_t relit_count(const relit *rl);
const char *relit_at(const relit *rl, size_t i, size_t *n);

#endif
