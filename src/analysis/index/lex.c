/*
 * lex.c — the pieces the index's lexers share (ix_int.h): a per-file open-addressing set of
 * 64-bit name hashes, and the recording of words (flag names, pass names, list entries).
 */
#include "analysis/index/ix_int.h"

#include <stdlib.h>

void ix_hset_add(hset *h, uint64_t v) {
    if (h->oom) return;
    if (!v) v = 1; /* 0 marks an empty slot */
    if ((h->n + 1) * 2 > h->cap) {
        size_t cap = h->cap ? h->cap * 2 : 256;
        uint64_t *s = sunset_calloc(cap, sizeof *s);
        if (!s) {
            h->oom = true;
            return;
        }
        for (size_t i = 0; i < h->cap; i++) {
            if (!h->slots[i]) continue;
            size_t k = h->slots[i] & (cap - 1);
            while (s[k]) k = (k + 1) & (cap - 1);
            s[k] = h->slots[i];
        }
        sunset_free(h->slots);
        h->slots = s;
        h->cap = cap;
    }
    size_t k = v & (h->cap - 1);
    while (h->slots[k]) {
        if (h->slots[k] == v) return;
        k = (k + 1) & (h->cap - 1);
    }
    h->slots[k] = v;
    h->n++;
}

void ix_hset_name(hset *h, const char *s, size_t n) {
    if (n >= 3) ix_hset_add(h, sunset_index_name_hash(s, n));
}

void ix_hset_string(hset *h, const char *s, size_t n) {
    if (n < 3 || n > 100 || !id_start((unsigned char)s[0])) return;
    for (size_t i = 1; i < n; i++)
        if (!id_char((unsigned char)s[i])) return;
    ix_hset_name(h, s, n);
}

int ix_cmp_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

bool ix_word_push(vec *v, const char *s, size_t n, uint32_t line, uint32_t end) {
    ix_word w = {sunset_strndup(s, n), line, end};
    if (!w.text || !vec_push(v, &w)) {
        sunset_free(w.text);
        return false;
    }
    return true;
}

bool ix_looks_like_name(const char *s, size_t n) {
    if (!n || !id_start((unsigned char)s[0])) return false;
    for (size_t i = 1; i < n; i++)
        if (!id_char((unsigned char)s[i])) return false;
    return true;
}

