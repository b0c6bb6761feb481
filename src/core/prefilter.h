/*
 * prefilter.h — one pass over a file's bytes that tells whether any of a set of literals
 * occurs in it. Only files that can match are handed to a parser.
 */
#ifndef SUNSET_PREFILTER_H
#define SUNSET_PREFILTER_H

#include <stdbool.h>
#include <stddef.h>

typedef struct prefilter prefilter;

/* Build from n literals of >= 4 bytes each (shorter ones make the filter pass everything).
 * Returns NULL on OOM. The literals are copied. Free with prefilter_free (accepts NULL). */
prefilter *prefilter_new(const char *const *lits, size_t n);
void prefilter_free(prefilter *pf);
/* True when one of the literals occurs in data[0..len). An empty literal set never matches. */
bool prefilter_match(const prefilter *pf, const char *data, size_t len);

#endif
