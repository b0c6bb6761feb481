/*
 * normalize.h — the text a compiler or interpreter reads, as opposed to the file's bytes:
 * C and C++ join a backslash-newline before they tokenise (a line splice), Python compares
 * identifiers after NFKC normalisation. The prefilter and the frontends see this text so that
 * a spelling the toolchain accepts cannot hide a name from the rules.
 */
#ifndef SUNSET_NORMALIZE_H
#define SUNSET_NORMALIZE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/util.h"

/* s with every backslash-newline (and backslash-CR-LF) removed into *out; false, with *out
 * untouched, when s holds none. out is the caller's (sb_free). */
bool text_join_splices(const char *s, size_t n, sb *out);

/* s with every code point whose NFKC form is ASCII identifier text (fullwidth letters,
 * mathematical alphanumerics, ligatures ...) replaced by that text into *out; false, with
 * *out untouched, when nothing folds. Invalid UTF-8 is copied as it is. */
bool text_fold_nfkc_ascii(const char *s, size_t n, sb *out);

/* The ASCII identifier text of code point cp's NFKC form, or NULL when it has none (the
 * table behind text_fold_nfkc_ascii, for decoders that see code points one by one: a
 * notebook's \uXXXX escapes). */
const char *text_nfkc_ascii(uint32_t cp);

/* The code point of the UTF-8 sequence at s (n bytes left) and its length; 0 when invalid
 * (overlong, a surrogate, past U+10FFFF, truncated). */
size_t text_utf8_decode(const unsigned char *s, size_t n, uint32_t *cp);

#endif
