/*
 * match.c — the matching primitives every rule clause runs at scan time: regex search with
 * the interpreter as the fallback when the JIT fails, name lists searched by bisection, and
 * the test-path predicate every finding's `test` flag comes from. Loading and compiling the
 * rules is src/core/rules.c; matching facts against the clause index is the engine's.
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "core/rules_int.h"

/* The interpreter's limits for the retry: the default match limit (it bounds catastrophic
 * backtracking), a larger heap for its backtracking frames. Read-only once made, so one
 * context serves every thread. */
#define RETRY_HEAP_KIB (256u * 1024u)

static pcre2_match_context *retry_ctx;
static pthread_once_t retry_once = PTHREAD_ONCE_INIT;

static void retry_ctx_make(void) {
    retry_ctx = pcre2_match_context_create(NULL); /* NULL (no memory): default limits */
    if (retry_ctx) pcre2_set_heap_limit(retry_ctx, RETRY_HEAP_KIB);
}

int re_match_rc(const pcre2_code *re, const char *s, size_t n, size_t start,
                pcre2_match_data *md) {
    int rc = pcre2_match(re, (PCRE2_SPTR)s, n, start, 0, md, NULL);
    if (rc >= 0 || rc == PCRE2_ERROR_NOMATCH) return rc;
    /* An error is not "no match": the JIT's 32 KiB stack runs out on long input (a dotted
     * path of ~850 components against (\.\w+)*), so retry with the interpreter, which keeps
     * its backtracking on the heap. */
    pthread_once(&retry_once, retry_ctx_make);
    return pcre2_match(re, (PCRE2_SPTR)s, n, start, PCRE2_NO_JIT, md, retry_ctx);
}

void re_error_message(int rc, char *buf, size_t size) {
    if (pcre2_get_error_message(rc, (PCRE2_UCHAR *)buf, size) < 0)
        snprintf(buf, size, "error %d", rc);
}

bool re_search(const pcre2_code *re, const char *s, size_t n, size_t start, pcre2_match_data *md,
               size_t *so, size_t *eo) {
    int rc = re_match_rc(re, s, n, start, md);
    if (rc < 0) return false;
    PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);
    if (so) *so = ov[0];
    if (eo) *eo = ov[1];
    return true;
}

bool re_list_search(const vec *res, const char *s, pcre2_match_data *md) {
    for (size_t i = 0; i < res->n; i++)
        if (re_search(VEC_AT(res, pcre2_code *, i), s, strlen(s), 0, md, NULL, NULL)) return true;
    return false;
}

bool sunset_ruleset_is_test_path(const sunset_ruleset *rs, const char *path, pcre2_match_data *md) {
    return rs && re_list_search(&rs->test_paths, path, md);
}

bool strtest_match(const strtest *t, const char *s, size_t n, pcre2_match_data *md) {
    if (t->n_names) {
        size_t lo = 0, hi = t->n_names;
        while (lo < hi) {
            size_t mid = (lo + hi) / 2;
            int c = strncmp(t->names[mid], s, n);
            if (c == 0 && t->names[mid][n] != 0) c = 1;
            if (c == 0) return true;
            if (c < 0) lo = mid + 1;
            else hi = mid;
        }
        return false;
    }
    if (t->re) return re_search(t->re, s ? s : "", s ? n : 0, 0, md, NULL, NULL);
    return true;
}

