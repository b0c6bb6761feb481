/*
 * lex.c — the pieces the index's lexers share (ix_int.h): a per-file open-addressing set of
 * 64-bit name hashes (its add is inline in ix_int.h, its growth and sorting here), the arena
 * a file's strings are built in, and the recording of words (flag names, pass names, list
 * entries).
 */
#include "analysis/index/ix_int.h"

#include <stdlib.h>

const unsigned char ix_char_class[256] = {
    ['0'] = 2, ['1'] = 2, ['2'] = 2, ['3'] = 2, ['4'] = 2, ['5'] = 2, ['6'] = 2, ['7'] = 2, ['8'] = 2, ['9'] = 2,
    ['_'] = 3,
    ['A'] = 3, ['B'] = 3, ['C'] = 3, ['D'] = 3, ['E'] = 3, ['F'] = 3, ['G'] = 3, ['H'] = 3, ['I'] = 3,
    ['J'] = 3, ['K'] = 3, ['L'] = 3, ['M'] = 3, ['N'] = 3, ['O'] = 3, ['P'] = 3, ['Q'] = 3, ['R'] = 3,
    ['S'] = 3, ['T'] = 3, ['U'] = 3, ['V'] = 3, ['W'] = 3, ['X'] = 3, ['Y'] = 3, ['Z'] = 3,
    ['a'] = 3, ['b'] = 3, ['c'] = 3, ['d'] = 3, ['e'] = 3, ['f'] = 3, ['g'] = 3, ['h'] = 3, ['i'] = 3,
    ['j'] = 3, ['k'] = 3, ['l'] = 3, ['m'] = 3, ['n'] = 3, ['o'] = 3, ['p'] = 3, ['q'] = 3, ['r'] = 3,
    ['s'] = 3, ['t'] = 3, ['u'] = 3, ['v'] = 3, ['w'] = 3, ['x'] = 3, ['y'] = 3, ['z'] = 3,
};

/* The first capacity of a set that grows from empty: a Python class's names, a CMake file's,
 * fit it or one doubling (256 slots, 2 KB zeroed and read back per class, were most of the
 * slots the index ever sorted). */
#define HSET_FIRST 64

/* Empty slots, cap of them (a power of two), for h: false on OOM. */
static bool hset_alloc(hset *h, size_t cap) {
    uint64_t *s = sunset_calloc(cap, sizeof *s);
    if (!s) return false;
    h->slots = s;
    h->cap = cap;
    h->room = cap / 2;
    h->shift = 64u - (unsigned)__builtin_ctzll(cap);
    return true;
}

bool ix_hset_reserve(hset *h, size_t slots) {
    if (h->cap || slots <= HSET_FIRST) return true;
    size_t cap = HSET_FIRST;
    while (cap < slots && cap < ((size_t)1 << 20)) cap *= 2;
    return hset_alloc(h, cap);
}

void ix_hset_grow(hset *h) {
    if (h->oom || h->n < h->room) return;
    hset old = *h;
    if (!hset_alloc(h, old.cap ? old.cap * 2 : HSET_FIRST)) {
        h->oom = true;
        return;
    }
    for (size_t i = 0; i < old.cap; i++) {
        if (!old.slots[i]) continue;
        size_t k = ix_hset_slot(h, old.slots[i]);
        while (h->slots[k]) k = (k + 1) & (h->cap - 1);
        h->slots[k] = old.slots[i];
    }
    sunset_free(old.slots);
}

uint64_t ix_string_name(const char *s, size_t n) {
    if (n < 3 || n > 100 || !id_start((unsigned char)s[0])) return 0;
    for (size_t i = 1; i < n; i++)
        if (!id_char((unsigned char)s[i])) return 0;
    return ix_name_hash(s, n);
}

/* Insertion sort: linear on the nearly sorted slot order of the set. */
static void sort_nearly_sorted(uint64_t *v, size_t n) {
    for (size_t i = 1; i < n; i++) {
        uint64_t x = v[i];
        size_t k = i;
        for (; k > 0 && v[k - 1] > x; k--) v[k] = v[k - 1];
        v[k] = x;
    }
}

bool ix_hset_sorted(const hset *h, uint64_t **out, size_t *n) {
    *out = NULL;
    *n = 0;
    if (h->oom) return false;
    if (!h->n) return true;
    /* the members gathered without a branch per slot (whether a slot is empty is a coin toss
     * at the set's load): an empty slot's 0 is written, then overwritten. Four slots a step
     * (cap is a power of two from 64, so a multiple of 4): the steps' writes once the n members
     * are in all land on v[n], hence its room */
    uint64_t *v = sunset_malloc((h->n + 1) * sizeof *v);
    if (!v) return false;
    size_t k = 0;
    const uint64_t *s = h->slots;
    for (size_t i = 0; i < h->cap && k < h->n; i += 4) {
        v[k] = s[i];
        k += s[i] != 0;
        v[k] = s[i + 1];
        k += s[i + 1] != 0;
        v[k] = s[i + 2];
        k += s[i + 2] != 0;
        v[k] = s[i + 3];
        k += s[i + 3] != 0;
    }
    sort_nearly_sorted(v, k);
    *out = v;
    *n = k;
    return true;
}

bool ix_word_push(ix_arena *a, vec *v, const char *s, size_t n, uint32_t line, uint32_t end) {
    ix_word w = {ix_strndup(a, s, n), line, end};
    return w.text && vec_push(v, &w);
}

bool ix_looks_like_name(const char *s, size_t n) {
    if (!n || !id_start((unsigned char)s[0])) return false;
    for (size_t i = 1; i < n; i++)
        if (!id_char((unsigned char)s[i])) return false;
    return true;
}

char *ix_strndup(ix_arena *a, const char *s, size_t n) {
    if ((size_t)(a->end - a->cur) <= n) {
        /* a new chunk, twice the last (4 KB to 1 MB), or the string's own when larger */
        size_t size = (size_t)4096 << (a->n_chunks < 8 ? a->n_chunks : 8);
        if (size < n + 1 + sizeof(void *)) size = n + 1 + sizeof(void *);
        void **c = sunset_malloc(size);
        if (!c) return NULL;
        *c = a->chunks;
        a->chunks = c;
        a->n_chunks++;
        a->cur = (char *)(c + 1);
        a->end = (char *)c + size;
    }
    char *p = a->cur;
    if (n) memcpy(p, s, n); /* s may be NULL when n == 0 */
    p[n] = 0;
    a->cur += n + 1;
    return p;
}

void ix_arena_free(ix_arena *a) {
    for (void *c = a->chunks, *next; c; c = next) {
        next = *(void **)c;
        sunset_free(c);
    }
    a->chunks = NULL;
    a->n_chunks = 0;
}

char *ix_sb_take(ix_arena *a, sb *b) {
    char *s = b->oom ? NULL : ix_strndup(a, b->s, b->len);
    b->len = 0;
    return s;
}
