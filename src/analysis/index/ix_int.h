/*
 * ix_int.h — private to src/analysis/index/: what the per-language lexers (python.c, cpp.c,
 * cmake.c) share with the index core (index.c): the per-file set of name hashes, the token
 * the C/C++ and Python lexers produce, and small character tests.
 */
#ifndef SUNSET_IX_INT_H
#define SUNSET_IX_INT_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "analysis/index.h"

static inline bool id_start(unsigned char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
}
static inline bool id_char(unsigned char c) { return id_start(c) || (c >= '0' && c <= '9'); }

/* An open-addressing set of name hashes, local to one file. */
typedef struct hset {
    uint64_t *slots;
    size_t cap, n;
    bool oom;
} hset;

void ix_hset_add(hset *h, uint64_t v);
void ix_hset_name(hset *h, const char *s, size_t n);   /* names of 3 bytes or more */
/* A string's contents count as a name when they look like one (pass names, test names). */
void ix_hset_string(hset *h, const char *s, size_t n);
int ix_cmp_u64(const void *a, const void *b);
bool ix_word_push(vec *v, const char *s, size_t n, uint32_t line, uint32_t end); /* false on OOM */
bool ix_looks_like_name(const char *s, size_t n);

typedef enum tk { TK_ID, TK_STR, TK_PUNCT, TK_NUM } tk;

typedef struct tok {
    tk kind;
    const char *s; /* for TK_STR: the contents */
    uint32_t n;
    uint32_t line, end_line;
    uint32_t col; /* Python: column of the token (indentation of a logical line) */
} tok;

static inline bool ix_tok_is(const tok *t, const char *w) {
    size_t n = strlen(w);
    return t->n == n && (n == 0 || memcmp(t->s, w, n) == 0); /* t->s may be NULL when empty */
}

/* The lexers: fill f from its bytes, names into *names. Return 0, -1 on OOM. */
int ix_lex_python(ix_file *f, const char *d, size_t len, hset *names);
int ix_lex_cpp(ix_file *f, const char *d, size_t len, hset *names);
int ix_lex_cmake(ix_file *f, const char *d, size_t len, hset *names);
/* Shell and other text: words; `list`: test-like words are tool-list entries. */
int ix_lex_words(ix_file *f, const char *d, size_t len, hset *names, bool list);

#endif
