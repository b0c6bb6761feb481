/*
 * ix_int.h — private to src/analysis/index/: what the per-language lexers (python.c, cpp.c,
 * cmake.c) share with the index core (index.c): the per-file set of name hashes, the arena
 * a file's strings are built in, the Python lexer's token, and the byte scans every lexer
 * runs over every byte of the tree (character classes, identifier and space runs and line
 * counts 16 bytes at a time with SSE2, a scalar loop elsewhere), inline for that reason.
 */
#ifndef SUNSET_IX_INT_H
#define SUNSET_IX_INT_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "analysis/index.h"

/* Character classes by table: the lexers test every byte of the tree. Bit 1: starts an
 * identifier (A-Z a-z _); bit 2: continues one (those and 0-9). */
extern const unsigned char ix_char_class[256];
static inline bool id_start(unsigned char c) { return ix_char_class[c] & 1; }
static inline bool id_char(unsigned char c) { return ix_char_class[c] & 2; }

/* The end of an identifier's run of id_char bytes from p (p itself when it is none). With
 * SSE2 (every x86-64), 16 bytes at a time while 16 can be read: identifier scanning was the
 * lexers' hottest loop. */
static inline const char *ix_id_end(const char *p, const char *end) {
#ifdef __SSE2__
    const __m128i x20 = _mm_set1_epi8(0x20), a = _mm_set1_epi8('a' - 1), z = _mm_set1_epi8('z' + 1);
    const __m128i d0 = _mm_set1_epi8('0' - 1), d9 = _mm_set1_epi8('9' + 1), us = _mm_set1_epi8('_');
    while (end - p >= 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
        __m128i lo = _mm_or_si128(v, x20); /* A-Z to a-z; bytes from 0x80 stay negative */
        __m128i alpha = _mm_and_si128(_mm_cmpgt_epi8(lo, a), _mm_cmplt_epi8(lo, z));
        __m128i digit = _mm_and_si128(_mm_cmpgt_epi8(v, d0), _mm_cmplt_epi8(v, d9));
        __m128i id = _mm_or_si128(_mm_or_si128(alpha, digit), _mm_cmpeq_epi8(v, us));
        unsigned stop = ~(unsigned)_mm_movemask_epi8(id) & 0xffffu;
        if (stop) return p + __builtin_ctz(stop);
        p += 16;
    }
#endif
    while (p < end && id_char((unsigned char)*p)) p++;
    return p;
}

/* The end of a run of spaces from p (indentation), 16 bytes at a time with SSE2. */
static inline const char *ix_spaces_end(const char *p, const char *end) {
#ifdef __SSE2__
    const __m128i sp = _mm_set1_epi8(' ');
    while (end - p >= 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
        unsigned stop = ~(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, sp)) & 0xffffu;
        if (stop) return p + __builtin_ctz(stop);
        p += 16;
    }
#endif
    while (p < end && *p == ' ') p++;
    return p;
}

/* The first byte from p that is a, b or c, or end: 16 bytes at a time with SSE2 (a Python
 * string's contents, docstrings most of all, are scanned for its quote, a backslash or a
 * newline). */
static inline const char *ix_find3(const char *p, const char *end, char a, char b, char c) {
#ifdef __SSE2__
    const __m128i va = _mm_set1_epi8(a), vb = _mm_set1_epi8(b), vc = _mm_set1_epi8(c);
    for (; end - p >= 16; p += 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
        __m128i hit = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, va), _mm_cmpeq_epi8(v, vb)), _mm_cmpeq_epi8(v, vc));
        unsigned m = (unsigned)_mm_movemask_epi8(hit);
        if (m) return p + __builtin_ctz(m);
    }
#endif
    while (p < end && *p != a && *p != b && *p != c) p++;
    return p;
}

/* The number of '\n' bytes in [p, end): 64 at a time with SSE2 (four blocks of 16 a step: the
 * loop's own count and compare were half of a one-block step), in byte counters summed every
 * 252 blocks (every file's line count is a pass over all of its bytes; memchr per line was a
 * call per 40 bytes). */
static inline size_t ix_count_nl(const char *p, const char *end) {
    size_t n = 0;
#ifdef __SSE2__
    const __m128i nl = _mm_set1_epi8('\n'), zero = _mm_setzero_si128();
#define IX_NL_AT(o) _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(const void *)(p + (o))), nl)
    while (end - p >= 64) {
        __m128i acc = zero; /* each byte lane counts up to 4 a step, 63 steps: at most 252 */
        for (int k = 0; k < 63 && end - p >= 64; k++, p += 64) {
            __m128i a = _mm_add_epi8(IX_NL_AT(0), IX_NL_AT(16)), b = _mm_add_epi8(IX_NL_AT(32), IX_NL_AT(48));
            acc = _mm_sub_epi8(acc, _mm_add_epi8(a, b));
        }
        __m128i sum = _mm_sad_epu8(acc, zero); /* two 16-bit sums, in lanes 0 and 4 */
        n += (size_t)_mm_extract_epi16(sum, 0) + (size_t)_mm_extract_epi16(sum, 4);
    }
    while (end - p >= 16) {
        __m128i sum = _mm_sad_epu8(_mm_sub_epi8(zero, IX_NL_AT(0)), zero);
        n += (size_t)_mm_extract_epi16(sum, 0) + (size_t)_mm_extract_epi16(sum, 4);
        p += 16;
    }
#undef IX_NL_AT
#endif
    for (; p < end; p++) n += *p == '\n';
    return n;
}

/* An open-addressing set of name hashes, local to one file. Its slot is a value's top bits
 * (`shift` = 64 - log2 cap, kept so that an add shifts instead of counting cap's zeros), and
 * `room` the members it takes before it doubles (half of cap): the lexers add every
 * identifier of the tree. All zero is the empty set. */
typedef struct hset {
    uint64_t *slots;
    size_t cap, n, room;
    unsigned shift;
    bool oom;
} hset;

/* The last step of the name hash: the final word multiplied in, whose product's top bits
 * (the set's slot) depend on every bit of it, folded onto the low ones for the tables that
 * take their slot from those (index.c's paths, removable/'s classes). A second multiply
 * and shift, a quarter of a short name's hash, added nothing the slots read. Never 0. */
static inline uint64_t ix_hash_last(uint64_t h, uint64_t w) {
    h = (h ^ w) * 0xbf58476d1ce4e5b9ull;
    h ^= h >> 32;
    return h ? h : 1;
}

/* The name hash (sunset_index_name_hash), inline for the lexers: a word at a time. Never 0
 * (0 marks an empty slot). It lives only in memory (and in the content cache, whose
 * namespace covers the binary), so its values may change between versions. */
static inline uint64_t ix_name_hash(const char *s, size_t n) {
    uint64_t h = 0x9E3779B97F4A7C15ull ^ ((uint64_t)n * 0xff51afd7ed558ccdull);
    for (; n >= 8; s += 8, n -= 8) {
        uint64_t w;
        memcpy(&w, s, 8);
        h = (h ^ w) * 0xbf58476d1ce4e5b9ull;
        h ^= h >> 31;
    }
    uint64_t w = 0;
    for (size_t i = 0; i < n; i++) w |= (uint64_t)(unsigned char)s[i] << (8 * i);
    return ix_hash_last(h, w);
}

/* The same hash of a name inside a buffer that ends at `end`: when 8 bytes can be read from
 * the name's last word, its tail is one load and a mask instead of a loop of up to 7 bytes
 * (the lexers hash every identifier of the tree). */
static inline uint64_t ix_name_hash_in(const char *s, size_t n, const char *end) {
    size_t tail = n & 7;
    const char *t = s + (n - tail);
#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
    tail = 0; /* the mask below picks the low bytes of the load, the name's only when little-endian */
#endif
    if (!tail || end - t < 8) return ix_name_hash(s, n);
    uint64_t h = 0x9E3779B97F4A7C15ull ^ ((uint64_t)n * 0xff51afd7ed558ccdull);
    for (; s < t; s += 8) {
        uint64_t w;
        memcpy(&w, s, 8);
        h = (h ^ w) * 0xbf58476d1ce4e5b9ull;
        h ^= h >> 31;
    }
    /* little-endian: the name's bytes are the low ones (a mask per tail length, not a shift
     * computed per name) */
    static const uint64_t low[8] = {0, 0xff, 0xffff, 0xffffff, 0xffffffff, 0xffffffffff, 0xffffffffffff,
                                    0xffffffffffffff};
    uint64_t w;
    memcpy(&w, t, 8);
    return ix_hash_last(h, w & low[tail]);
}

/* The slot is the value's top bits, so the slots hold the set nearly in ascending order
 * (linear probing moves a value a few slots on, and a run may wrap past the end): the sorted
 * array is then one insertion pass, not a general sort (ix_hset_sorted). */
static inline size_t ix_hset_slot(const hset *h, uint64_t v) { return (size_t)(v >> h->shift); }

/* Make room for one more member (doubling, at most half full; the first room is small: most
 * sets, a Python class's, hold a few dozen names, and every slot is zeroed and read back when
 * sorted); sets h->oom on failure. */
void ix_hset_grow(hset *h);
/* An empty set's slots, about `slots` of them (a power of two), when that is more than the
 * first growth gives: growing to a file's final size rehashed every member at each step.
 * False on OOM. */
bool ix_hset_reserve(hset *h, size_t slots);

/* Add v, never 0 (0 marks an empty slot: every name hash is nonzero). Inline: the lexers add
 * every identifier of the tree, most of them already members. */
static inline void ix_hset_add_nz(hset *h, uint64_t v) {
    if (h->n >= h->room) {
        ix_hset_grow(h);
        if (h->oom) return;
    }
    size_t k = ix_hset_slot(h, v);
    while (h->slots[k]) {
        if (h->slots[k] == v) return;
        k = (k + 1) & (h->cap - 1);
    }
    h->slots[k] = v;
    h->n++;
}

/* Add any value (0 is stored as 1). */
static inline void ix_hset_add(hset *h, uint64_t v) { ix_hset_add_nz(h, v ? v : 1); }

/* The key of (name hash h, scope) in ix_file.attr: scope -1 outside top-level classes, -2 the
 * whole file, else a class's index. */
static inline uint64_t ix_attr_key(uint64_t h, long scope) {
    return h ^ ((uint64_t)(scope + 3) * 0x9E3779B97F4A7C15ull);
}

/* names of 3 bytes or more */
static inline void ix_hset_name(hset *h, const char *s, size_t n) {
    if (n >= 3) ix_hset_add_nz(h, ix_name_hash(s, n));
}
/* The set's members as an ascending array (*out owned by the caller; NULL when empty);
 * the set is left as it was. Returns false on OOM. */
bool ix_hset_sorted(const hset *h, uint64_t **out, size_t *n);
/* A string's contents count as a name when they look like one (pass names, test names): 3 to
 * 100 bytes of an identifier. Its name hash then, else 0 (never hashed: most strings are
 * messages, and the check fails at their first space). */
uint64_t ix_string_name(const char *s, size_t n);
/* Where the lexers put a file's strings while they build it: chunks from a bump pointer,
 * the first one the caller's (on its stack), all freed at once when the file is packed
 * (index.c). A string each malloc'd and freed was most of the index's allocator traffic. */
typedef struct ix_arena {
    char *cur, *end; /* the free part of the current chunk */
    void *chunks;    /* chunks allocated, each starting with the previous one's address */
    size_t n_chunks;
} ix_arena;
/* A copy of s[0..n) with a terminating NUL, in a; NULL on OOM. */
char *ix_strndup(ix_arena *a, const char *s, size_t n);
void ix_arena_free(ix_arena *a);
/* b's contents (NULL on OOM), copied into a; b is emptied, its buffer kept for the next. */
char *ix_sb_take(ix_arena *a, sb *b);

bool ix_word_push(ix_arena *a, vec *v, const char *s, size_t n, uint32_t line, uint32_t end); /* false on OOM */
bool ix_looks_like_name(const char *s, size_t n);

/* The Python lexer's token (cpp.c has a smaller one of its own). */
typedef enum tk { TK_ID, TK_STR, TK_PUNCT, TK_NUM } tk;

typedef struct tok {
    tk kind;
    const char *s; /* for TK_STR: the contents */
    uint32_t n;
    uint32_t line, end_line;
    uint32_t col; /* Python: column of the token (indentation of a logical line) */
} tok;

/* Append a token: the lexers' innermost push, kept out of the generic vec_push (a call and
 * a memcpy per token were a tenth of the index's time). The fields are stored one by one:
 * copying a token assembled on the stack read it back whole before its fields' stores had
 * landed, a store-forwarding stall that was a third of the Python lexer's time. Returns
 * false on OOM. */
static inline bool ix_tok_add(vec *v, tk kind, const char *s, uint32_t n, uint32_t line, uint32_t end_line,
                              uint32_t col) {
    if (v->n == v->cap) {
        size_t cap = v->cap ? v->cap * 2 : 1024;
        tok *nv = sunset_realloc(v->v, cap * sizeof(tok));
        if (!nv) return false;
        v->v = nv;
        v->cap = cap;
    }
    tok *t = &((tok *)v->v)[v->n++];
    t->kind = kind;
    t->s = s;
    t->n = n;
    t->line = line;
    t->end_line = end_line;
    t->col = col;
    return true;
}

static inline bool ix_tok_is(const tok *t, const char *w) {
    size_t n = strlen(w);
    return t->n == n && (n == 0 || memcmp(t->s, w, n) == 0); /* t->s may be NULL when empty */
}

/* The lexers: fill f from its bytes (its strings in a), names into *names, or straight into
 * f->names (sorted, unique) when the lexer has them so. Return 0, -1 on OOM. */
int ix_lex_python(ix_file *f, ix_arena *a, const char *d, size_t len, hset *names);
int ix_lex_cpp(ix_file *f, ix_arena *a, const char *d, size_t len, hset *names, const struct sunset_macro_roles *roles);
int ix_lex_cmake(ix_file *f, ix_arena *a, const char *d, size_t len, hset *names);
/* Shell and other text: words; `list`: test-like words are tool-list entries. */
int ix_lex_words(ix_file *f, ix_arena *a, const char *d, size_t len, hset *names, bool list);

/* The digest of f's facts (ix_file.facts; digest.c), never 0; 0 on OOM. */
uint64_t ix_file_facts(const ix_file *f);

#endif
