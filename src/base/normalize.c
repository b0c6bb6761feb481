/*
 * normalize.c — line splices and NFKC-to-ASCII folding (normalize.h). Both leave the line
 * structure alone where it matters: folding never adds or removes a newline, so line numbers
 * of findings are the file's; a splice moves the text after it onto the line before, which
 * only the prefilter sees (libclang reads the file itself and handles splices).
 */
#include "base/normalize.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "base/nfkc_table.h"

bool text_join_splices(const char *s, size_t n, sb *out) {
    const char *p = memchr(s, '\\', n);
    bool any = false;
    size_t from = 0;
    while (p) {
        size_t i = (size_t)(p - s), skip = 0;
        if (i + 1 < n && s[i + 1] == '\n') skip = 2;
        else if (i + 2 < n && s[i + 1] == '\r' && s[i + 2] == '\n') skip = 3;
        if (skip) {
            sb_putn(out, s + from, i - from);
            from = i + skip;
            any = true;
        }
        size_t next = i + (skip ? skip : 1);
        p = next < n ? memchr(s + next, '\\', n - next) : NULL;
    }
    if (any) sb_putn(out, s + from, n - from);
    return any;
}

static int cmp_cp(const void *k, const void *e) {
    uint32_t a = *(const uint32_t *)k, b = ((const struct nfkc_ascii *)e)->cp;
    return a < b ? -1 : a > b;
}

size_t text_utf8_decode(const unsigned char *s, size_t n, uint32_t *cp) {
    size_t len = s[0] >= 0xF0 ? 4 : s[0] >= 0xE0 ? 3 : s[0] >= 0xC0 ? 2 : 0;
    if (!len || len > n || s[0] > 0xF4) return 0;
    uint32_t c = s[0] & (0x7F >> len);
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xC0) != 0x80) return 0;
        c = c << 6 | (s[i] & 0x3F);
    }
    static const uint32_t min[] = {0, 0, 0x80, 0x800, 0x10000};
    if (c < min[len] || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) return 0;
    *cp = c;
    return len;
}

const char *text_nfkc_ascii(uint32_t cp) {
    const struct nfkc_ascii *hit =
        bsearch(&cp, nfkc_ascii_table, sizeof nfkc_ascii_table / sizeof nfkc_ascii_table[0],
                sizeof nfkc_ascii_table[0], cmp_cp);
    return hit ? hit->to : NULL;
}

bool text_fold_nfkc_ascii(const char *s, size_t n, sb *out) {
    const unsigned char *u = (const unsigned char *)s;
    size_t from = 0;
    bool any = false;
    for (size_t i = 0; i < n;) {
        if (u[i] < 0x80) {
            /* ASCII runs 64 bytes at a time with SSE2, then a word at a time: every Python
             * file of the tree passes through here, nearly all of it ASCII (a byte loop was 1.1%
             * of a cold scan, perf; 8 bytes at a time about an instruction a byte) */
            i++;
#ifdef __SSE2__
            for (; n - i >= 64; i += 64) {
                const __m128i *q = (const __m128i *)(const void *)(u + i);
                __m128i v = _mm_or_si128(_mm_or_si128(_mm_loadu_si128(q), _mm_loadu_si128(q + 1)),
                                         _mm_or_si128(_mm_loadu_si128(q + 2), _mm_loadu_si128(q + 3)));
                if (_mm_movemask_epi8(v)) break;
            }
#endif
            for (; n - i >= 8; i += 8) {
                uint64_t w;
                memcpy(&w, u + i, 8);
                if (w & 0x8080808080808080ull) break;
            }
            while (i < n && u[i] < 0x80) i++;
            continue;
        }
        uint32_t cp = 0;
        size_t len = text_utf8_decode(u + i, n - i, &cp);
        if (!len) {
            i++;
            continue;
        }
        const char *to = text_nfkc_ascii(cp);
        if (to) {
            sb_putn(out, s + from, i - from);
            sb_puts(out, to);
            from = i + len;
            any = true;
        }
        i += len;
    }
    if (any) sb_putn(out, s + from, n - from);
    return any;
}
