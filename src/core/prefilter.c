/*
 * prefilter.c — multi-literal search in two parts: the long literals by 4-byte fingerprints
 * sampled with a stride, the short ones by their rarest byte.
 *
 * Long literals (SHORT_LEN bytes or more). Let m be the shortest one's length and s = m - 3
 * the stride. Any occurrence of a literal covers m consecutive bytes and so holds a 4-byte
 * window that starts at a multiple of s; the scan therefore loads only the windows at p = 0,
 * s, 2s, ... Every literal contributes the keys of its windows at s consecutive offsets
 * k..k+s-1 (any such run holds a probed window of every occurrence; k is the run of the rarest
 * bytes, which spares verify() the common words literals begin with), each remembered with
 * its offset. A table of bytes, indexed by a hash of the key, says whether any entry has that
 * key; a hit is verified against the literals sharing the key, each at p minus its offset.
 * Bytes, not bits: a bit's test needs a shift by a variable count, which x86-64 without BMI2
 * takes only in %cl, so every probe paid two moves and a shift more (10 instructions a probe
 * against 4; the probes were ~80% of a cold scan's 0.33G prefilter instructions).
 *
 * Short literals (4 to SHORT_LEN - 1 bytes) would force a stride of 1 to 4 on everything:
 * Paddle's rules have a dozen (" PE,", "(PE " ...), and with them the whole tree was probed
 * at every byte (77 ms of one core for 106 MB). Each short literal is instead anchored on
 * one of its bytes that is rare in source code (a byte-frequency table); memchr finds the
 * anchor's occurrences and each is verified. Anchors are shared where that costs little, so
 * Paddle's short literals need one memchr pass ('P'); when more than MAX_ANCHORS distinct
 * anchors would be needed, the short literals join the strided part instead. A set of one
 * literal (the suppression marker) is anchored whatever its length. An anchor's hit is
 * verified only when the byte after it is one that follows the anchor in its literals.
 *
 * The result is exactly "some literal occurs in the data" (the fuzz harness checks it against
 * memmem). No per-file allocation. Rules guarantee literals of at least 4 bytes (the loader
 * enforces it); a shorter one makes the filter pass everything.
 */
#include "core/prefilter.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

/* The strided probes' byte table: 32 bytes per entry, between 2^9 and 2^15 bytes. The scan's
 * own literal sets (hundreds of entries) take 32 KB, L1's size (16 KB set twice the share of
 * its bytes: more verify() calls, 27 -> 29 ms a pass over the clone's C/C++); a set of a few
 * (one regex's, src/core/relit.c: 125 of them per run) takes 512 bytes to a few KB (8 KB each
 * was 1 MB of a scan's peak memory) */
#define TABLE_BITS 15
#define MIN_TABLE_BITS 9
#define TABLE_PER_ENTRY 32
/* beyond this, longer strides only shrink the probe count a little and grow the key table */
#define MAX_STRIDE 16
/* literals shorter than this are searched by their rarest byte */
#define SHORT_LEN 8
#define MAX_ANCHORS 3

typedef struct lit {
    char *s;
    size_t n;    /* >= 4 */
    uint32_t head; /* its first 4 bytes, compared before the memcmp of the whole */
} lit;

typedef struct entry {
    uint32_t key;  /* the 4 bytes at lits[lit].s + off */
    uint32_t lit;  /* index into lits */
    size_t off;    /* < stride */
} entry;

typedef struct anchored {
    uint32_t lit;  /* index into lits */
    size_t off;    /* of the anchor byte in the literal */
} anchored;

typedef struct anchor {
    unsigned char byte;
    bool last;        /* the anchor ends one of its literals: whatever follows it may match */
    uint64_t next[4]; /* else the bytes that follow it in its literals: a hit followed by
                       * another is no match ("->" for the marker's '-', "PR" for " PE,"'s 'P') */
    anchored *lits;
    size_t n;
} anchor;

/* Where a key's entries start in ents: an open-addressing table over the distinct keys
 * (first = index + 1; 0 marks an empty slot). */
typedef struct key_slot {
    uint32_t key;
    uint32_t first;
} key_slot;

struct prefilter {
    unsigned char *bits; /* 2^table_bits bytes, nonzero where some entry's key lands */
    uint32_t mask;       /* 2^table_bits - 1 */
    lit *lits;
    size_t n;      /* lits[0..n_long) are strided, lits[n_long..n) anchored */
    size_t n_long;
    entry *ents;   /* n_long * stride, sorted by key */
    size_t n_ents;
    key_slot *keys; /* 2^key_bits slots, at most half full */
    unsigned key_bits;
    size_t stride; /* >= 1 */
    anchor anchors[MAX_ANCHORS];
    size_t n_anchors;
    bool all;      /* a literal shorter than 4 bytes: everything passes */
};

/* How common each byte is in C++ and Python source, in parts per 10,000 (measured on the
 * Paddle tree; 0 = under 1). Only the order matters: a poor anchor costs time, never a match. */
static const unsigned short byte_freq[256] = {
    ['\t'] = 10, ['\n'] = 280, [' '] = 2647, ['!'] = 2, ['"'] = 60, ['#'] = 30, ['$'] = 1,
    ['%'] = 2, ['&'] = 20, ['\''] = 18, ['('] = 128, [')'] = 128, ['*'] = 40, ['+'] = 15,
    [','] = 114, ['-'] = 40, ['.'] = 121, ['/'] = 52, ['0'] = 60, ['1'] = 40, ['2'] = 30,
    ['3'] = 15, ['4'] = 10, ['5'] = 5, ['6'] = 6, ['7'] = 2, ['8'] = 3, ['9'] = 1, [':'] = 108,
    [';'] = 48, ['<'] = 30, ['='] = 70, ['>'] = 30, ['?'] = 1, ['@'] = 2, ['A'] = 40, ['B'] = 12,
    ['C'] = 30, ['D'] = 30, ['E'] = 37, ['F'] = 15, ['G'] = 10, ['H'] = 6, ['I'] = 30,
    ['J'] = 0, ['K'] = 5, ['L'] = 25, ['M'] = 15, ['N'] = 25, ['O'] = 25, ['P'] = 27, ['Q'] = 2,
    ['R'] = 30, ['S'] = 30, ['T'] = 35, ['U'] = 10, ['V'] = 8, ['W'] = 5, ['X'] = 5, ['Y'] = 5,
    ['Z'] = 0, ['['] = 30, ['\\'] = 4, [']'] = 30, ['^'] = 0, ['_'] = 265, ['`'] = 4, ['a'] = 393,
    ['b'] = 60, ['c'] = 194, ['d'] = 248, ['e'] = 632, ['f'] = 125, ['g'] = 70, ['h'] = 80,
    ['i'] = 330, ['j'] = 3, ['k'] = 30, ['l'] = 241, ['m'] = 140, ['n'] = 332, ['o'] = 308,
    ['p'] = 245, ['q'] = 10, ['r'] = 340, ['s'] = 377, ['t'] = 478, ['u'] = 178, ['v'] = 40,
    ['w'] = 30, ['x'] = 30, ['y'] = 30, ['z'] = 5, ['{'] = 25, ['|'] = 2, ['}'] = 25, ['~'] = 0,
};

static inline uint32_t load32(const char *p) {
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}

/* the key's byte in the table: a 64-bit product's bits 40.. (each depends on all of the key's)
 * under the mask, a shift by a constant */
static inline uint32_t slot(uint32_t key, uint32_t mask) {
    return (uint32_t)(((uint64_t)key * 0x9E3779B97F4A7C15ull) >> 40) & mask;
}
static inline uint32_t key_slot_of(uint32_t key, unsigned bits) { return (key * 0x9E3779B1u) >> (32 - bits); }

/* The key table over pf->ents (sorted by key). False on OOM. */
static bool build_keys(prefilter *pf) {
    pf->key_bits = 4;
    while (((size_t)1 << pf->key_bits) < 2 * pf->n_ents) pf->key_bits++;
    size_t mask = ((size_t)1 << pf->key_bits) - 1;
    if (!(pf->keys = sunset_calloc(mask + 1, sizeof *pf->keys))) return false;
    for (size_t i = 0; i < pf->n_ents; i++) {
        if (i && pf->ents[i - 1].key == pf->ents[i].key) continue;
        size_t k = key_slot_of(pf->ents[i].key, pf->key_bits);
        while (pf->keys[k].first) k = (k + 1) & mask;
        pf->keys[k] = (key_slot){pf->ents[i].key, (uint32_t)i + 1};
    }
    return true;
}

static int cmp_ent(const void *a, const void *b) {
    const entry *x = a, *y = b;
    if (x->key != y->key) return x->key < y->key ? -1 : 1;
    return x->lit < y->lit ? -1 : x->lit > y->lit;
}

/* Anchor the short literals pf->lits[first..n): a greedy cover that picks, while some
 * literal has no anchor, the byte that serves most of them (a byte serves a literal it
 * occurs in when it is at most 4 times as common there as the literal's rarest byte; the
 * rarer one wins a tie). False when that takes more than MAX_ANCHORS bytes, or on OOM. */
static bool plan_anchors(prefilter *pf, size_t first) {
    size_t n = pf->n - first;
    unsigned *limit = sunset_calloc(n ? n : 1, sizeof *limit);
    bool *done = sunset_calloc(n ? n : 1, sizeof *done);
    bool ok = limit && done;
    for (size_t i = 0; ok && i < n; i++) {
        const lit *l = &pf->lits[first + i];
        unsigned best = UINT32_MAX;
        for (size_t k = 0; k < l->n; k++)
            if (byte_freq[(unsigned char)l->s[k]] < best) best = byte_freq[(unsigned char)l->s[k]];
        limit[i] = 4 * best;
    }
    for (size_t left = n; ok && left;) {
        int pick = -1;
        size_t pick_n = 0;
        for (int c = 0; c < 256; c++) {
            size_t served = 0;
            for (size_t i = 0; i < n; i++)
                if (!done[i] && byte_freq[c] <= limit[i] && memchr(pf->lits[first + i].s, c, pf->lits[first + i].n))
                    served++;
            if (served > pick_n || (served && served == pick_n && byte_freq[c] < byte_freq[pick])) {
                pick = c;
                pick_n = served;
            }
        }
        if (pick < 0 || pf->n_anchors == MAX_ANCHORS) {
            ok = false;
            break;
        }
        anchor *an = &pf->anchors[pf->n_anchors++];
        an->byte = (unsigned char)pick;
        if (!(an->lits = sunset_calloc(pick_n, sizeof *an->lits))) ok = false;
        for (size_t i = 0; ok && i < n; i++) {
            const lit *l = &pf->lits[first + i];
            const char *at = memchr(l->s, pick, l->n);
            if (done[i] || byte_freq[pick] > limit[i] || !at) continue;
            an->lits[an->n++] = (anchored){(uint32_t)(first + i), (size_t)(at - l->s)};
            if (at + 1 == l->s + l->n) an->last = true;
            else an->next[(unsigned char)at[1] / 64] |= 1ull << ((unsigned char)at[1] % 64);
            done[i] = true;
            left--;
        }
    }
    if (!ok) {
        for (size_t a = 0; a < pf->n_anchors; a++) sunset_free(pf->anchors[a].lits);
        memset(pf->anchors, 0, sizeof pf->anchors);
        pf->n_anchors = 0;
    }
    sunset_free(limit);
    sunset_free(done);
    return ok;
}

/* Where a literal's run of `stride` windows starts: any run serves (an occurrence holds a
 * probed window inside any `stride` consecutive offsets), so the one of rarest bytes, by the
 * frequency table, to spare verify() the common words ("para", "exec") most literals begin
 * with. */
static size_t rarest_run(const lit *l, size_t stride) {
    size_t best = 0;
    double best_cost = 0;
    for (size_t from = 0; from + stride + 3 <= l->n; from++) {
        double cost = 0;
        for (size_t k = from; k < from + stride; k++) {
            double w = 1;
            for (size_t b = 0; b < 4; b++) w *= byte_freq[(unsigned char)l->s[k + b]] + 1;
            cost += w;
        }
        if (from == 0 || cost < best_cost) best = from, best_cost = cost;
    }
    return best;
}

static int cmp_len_desc(const void *a, const void *b) {
    const lit *x = a, *y = b;
    return x->n < y->n ? 1 : x->n > y->n ? -1 : memcmp(x->s, y->s, x->n);
}

prefilter *prefilter_new(const char *const *lits, size_t n) {
    prefilter *pf = sunset_calloc(1, sizeof *pf);
    if (!pf) return NULL;
    pf->lits = sunset_calloc(n ? n : 1, sizeof(lit));
    if (!pf->lits) goto oom;
    for (size_t i = 0; i < n; i++) {
        size_t len = strlen(lits[i]);
        if (len < 4) {
            pf->all = true;
            continue;
        }
        /* duplicates are common (several rules name one identifier): keep one */
        bool dup = false;
        for (size_t j = 0; j < pf->n && !dup; j++)
            dup = pf->lits[j].n == len && memcmp(pf->lits[j].s, lits[i], len) == 0;
        if (dup) continue;
        lit *l = &pf->lits[pf->n];
        if (!(l->s = sunset_strndup(lits[i], len))) goto oom;
        l->n = len;
        l->head = load32(l->s);
        pf->n++;
    }
    if (pf->n == 0) return pf;
    /* longest first: the long ones are lits[0..n_long), the short ones after them */
    qsort(pf->lits, pf->n, sizeof *pf->lits, cmp_len_desc);
    pf->n_long = 0;
    while (pf->n_long < pf->n && pf->lits[pf->n_long].n >= SHORT_LEN) pf->n_long++;
    /* one literal (the suppression marker, a generated marker's) by its rarest byte: memchr's
     * pass beat a probe every m - 3 bytes (the marker's search was 0.10G of a cold scan) */
    if (pf->n == 1) pf->n_long = 0;
    if (pf->n_long < pf->n && !plan_anchors(pf, pf->n_long)) pf->n_long = pf->n; /* all strided */
    if (pf->n_long == 0) return pf;
    size_t shortest = pf->lits[pf->n_long - 1].n;
    pf->stride = shortest - 3 < MAX_STRIDE ? shortest - 3 : MAX_STRIDE;
    pf->ents = sunset_calloc(pf->n_long * pf->stride, sizeof(entry));
    unsigned tb = MIN_TABLE_BITS;
    while (tb < TABLE_BITS && ((size_t)1 << tb) < TABLE_PER_ENTRY * pf->n_long * pf->stride) tb++;
    pf->mask = ((uint32_t)1 << tb) - 1;
    pf->bits = sunset_calloc((size_t)1 << tb, 1);
    if (!pf->ents || !pf->bits) goto oom;
    for (size_t i = 0; i < pf->n_long; i++) {
        size_t from = rarest_run(&pf->lits[i], pf->stride);
        for (size_t k = from; k < from + pf->stride; k++) {
            entry *en = &pf->ents[pf->n_ents++];
            en->key = load32(pf->lits[i].s + k);
            en->lit = (uint32_t)i;
            en->off = k;
            pf->bits[slot(en->key, pf->mask)] = 1;
        }
    }
    qsort(pf->ents, pf->n_ents, sizeof(entry), cmp_ent);
    if (pf->n_ents >= UINT32_MAX || !build_keys(pf)) goto oom;
    return pf;
oom:
    prefilter_free(pf);
    return NULL;
}

void prefilter_free(prefilter *pf) {
    if (!pf) return;
    if (pf->lits)
        for (size_t i = 0; i < pf->n; i++) sunset_free(pf->lits[i].s);
    for (size_t a = 0; a < pf->n_anchors; a++) sunset_free(pf->anchors[a].lits);
    sunset_free(pf->lits);
    sunset_free(pf->ents);
    sunset_free(pf->bits);
    sunset_free(pf->keys);
    sunset_free(pf);
}

/* Does a literal whose window at its offset `off` has this key occur with that window at p? */
static bool verify(const prefilter *pf, uint32_t key, const char *data, size_t len, size_t p) {
    /* the key's first entry by its table (a binary search over the entries was most of this
     * function, itself a quarter of the prefilter's time, perf) */
    size_t mask = ((size_t)1 << pf->key_bits) - 1, k = key_slot_of(key, pf->key_bits);
    while (pf->keys[k].first && pf->keys[k].key != key) k = (k + 1) & mask;
    if (!pf->keys[k].first) return false; /* the bit table's false positive */
    for (size_t i = pf->keys[k].first - 1; i < pf->n_ents && pf->ents[i].key == key; i++) {
        const entry *en = &pf->ents[i];
        const lit *l = &pf->lits[en->lit];
        if (en->off > p) continue; /* the literal would start before the data */
        size_t start = p - en->off;
        if (l->n <= len - start && load32(data + start) == l->head && memcmp(l->s, data + start, l->n) == 0)
            return true;
    }
    return false;
}

/* Does a short literal occur, found by its anchor byte? */
static bool anchored_match(const anchor *an, const lit *lits, const char *data, size_t len) {
    for (const char *q = data, *end = data + len; (q = memchr(q, an->byte, (size_t)(end - q))); q++) {
        size_t at = (size_t)(q - data);
        if (!an->last && (at + 1 == len || !((an->next[(unsigned char)q[1] / 64] >> ((unsigned char)q[1] % 64)) & 1)))
            continue;
        for (size_t i = 0; i < an->n; i++) {
            const lit *l = &lits[an->lits[i].lit];
            size_t off = an->lits[i].off;
            if (off <= at && l->n <= len - (at - off) && load32(data + at - off) == l->head &&
                memcmp(l->s, data + at - off, l->n) == 0)
                return true;
        }
    }
    return false;
}

bool prefilter_match(const prefilter *pf, const char *data, size_t len) {
    if (!pf) return false;
    if (pf->all) return true;
    if (pf->n == 0 || len < 4) return false;
    for (size_t a = 0; a < pf->n_anchors; a++)
        if (anchored_match(&pf->anchors[a], pf->lits, data, len)) return true;
    if (!pf->n_long) return false;
    const size_t s = pf->stride;
    const uint32_t mask = pf->mask;
    const unsigned char *bits = pf->bits;
    size_t p = 0;
    /* four probes per branch: a hit is rare, and one test of four bytes mispredicts less */
    for (; p + 3 * s <= len - 4; p += 4 * s) {
        uint32_t h0 = slot(load32(data + p), mask), h1 = slot(load32(data + p + s), mask);
        uint32_t h2 = slot(load32(data + p + 2 * s), mask), h3 = slot(load32(data + p + 3 * s), mask);
        if (!(bits[h0] | bits[h1] | bits[h2] | bits[h3])) continue;
        for (size_t k = 0; k < 4; k++) {
            uint32_t key = load32(data + p + k * s);
            if (bits[slot(key, mask)] && verify(pf, key, data, len, p + k * s)) return true;
        }
    }
    for (; p <= len - 4; p += s) {
        uint32_t key = load32(data + p);
        if (bits[slot(key, mask)] && verify(pf, key, data, len, p)) return true;
    }
    return false;
}
