/*
 * calls.c — which files call a C++ source's functions. A source's namespace-level function
 * definitions (ix_file.funcs: not static, not in an anonymous namespace) are called from other
 * files through the header that declares them, its own header (same path up to the '.'): a
 * file naming one of those functions and including that header (directly or within three
 * includes) calls it. Propagation reads the callers (rule file-calls-only-legacy: a source
 * only legacy code calls is legacy, paddle/fluid/framework/details/multi_devices_helper.cc of
 * parallel_executor.cc), and so does liveness (a live caller keeps the source).
 */
#include "analysis/removable/rm_int.h"

#include <string.h>

/* Whether from reaches the marked file within three includes or imports: from itself, or a
 * file at most two edges on, is the file or one of its includers (near). */
bool rm_reaches3_near(const ctx *c, size_t from) {
    const signed char *near = c->near;
    if (near[from]) return true;
    for (size_t e = 0; e < c->out[from].n; e++) {
        size_t x = VEC_AT(&c->out[from], edge, e).to;
        if (near[x]) return true;
        for (size_t k = 0; k < c->out[x].n; k++)
            if (near[VEC_AT(&c->out[x], edge, k).to]) return true;
    }
    return false;
}

void rm_mark_near(ctx *c, size_t to, signed char v) {
    c->near[to] = v;
    for (size_t k = 0; k < c->users[to].n; k++) c->near[VEC_AT(&c->users[to], size_t, k)] = v;
}

long rm_own_header(const ctx *c, size_t f) {
    for (size_t e = 0; e < c->out[f].n; e++) {
        size_t g = VEC_AT(&c->out[f], edge, e).to;
        if (c->header[g] && rm_same_stem_files(c, f, g)) return (long)g;
    }
    return -1;
}

/* Sources with functions and their own header: the candidates, and their names in one list. */
static int collect_names(ctx *c, vec *names, vec *owner) {
    for (size_t f = 0; f < c->nf; f++) {
        const ix_file *F = c->files[f];
        if (F->lang != SUNSET_LANG_CPP || c->header[f] || !F->funcs.n || rm_own_header(c, f) < 0) continue;
        for (size_t i = 0; i < F->funcs.n; i++) {
            const char *name = VEC_AT(&F->funcs, ix_func, i).name;
            if (strlen(name) < 3) continue; /* the index hashes no shorter names */
            if (!vec_push(names, &name) || !vec_push(owner, &f)) return -1;
        }
    }
    return 0;
}

int rm_func_callers(ctx *c) {
    if (!(c->func_callers = sunset_calloc(c->nf ? c->nf : 1, sizeof(vec)))) return -1;
    for (size_t f = 0; f < c->nf; f++) c->func_callers[f] = VEC_INIT(size_t);
    vec names = VEC_INIT(const char *), owner = VEC_INIT(size_t);
    int rc = collect_names(c, &names, &owner);
    vec *users = NULL;
    if (!rc && names.n && !(users = sunset_calloc(names.n, sizeof(vec)))) rc = -1;
    if (!rc && names.n) rc = rm_users_of(c, (const char *const *)names.v, names.n, users);
    /* per source, each file asked once whether it reaches the header (a file naming several of
     * its functions was asked, and its includes walked, once per name): 1 yes, -1 no; tried:
     * the files asked, to clear when the next source's names begin (they come by source) */
    signed char *asked = !rc && names.n ? sunset_calloc(c->nf, 1) : NULL;
    vec tried = VEC_INIT(size_t);
    if (!rc && names.n && !c->near) rc = -1;
    long h = -1;
    for (size_t i = 0; !rc && i < names.n; i++) {
        size_t f = VEC_AT(&owner, size_t, i);
        if (!i || VEC_AT(&owner, size_t, i - 1) != f) {
            for (size_t k = 0; k < tried.n; k++) asked[VEC_AT(&tried, size_t, k)] = 0;
            tried.n = 0;
            if (h >= 0) rm_mark_near(c, (size_t)h, 0);
            rm_mark_near(c, (size_t)(h = rm_own_header(c, f)), 1);
        }
        vec *out = &c->func_callers[f];
        for (size_t j = 0; j < users[i].n && !rc; j++) {
            size_t g = VEC_AT(&users[i], size_t, j);
            if (g == f || (long)g == h || c->files[g]->lang != SUNSET_LANG_CPP || asked[g]) continue;
            asked[g] = rm_reaches3_near(c, g) ? 1 : -1;
            if (!vec_push(&tried, &g) || (asked[g] > 0 && !vec_push(out, &g))) rc = -1;
        }
    }
    if (h >= 0) rm_mark_near(c, (size_t)h, 0);
    sunset_free(asked);
    vec_free(&tried);
    for (size_t i = 0; users && i < names.n; i++) vec_free(&users[i]);
    sunset_free(users);
    vec_free(&names);
    vec_free(&owner);
    return rc;
}

const char *rm_func_called(const ctx *c, size_t f, size_t g) {
    const ix_file *F = c->files[f];
    for (size_t i = 0; i < F->funcs.n; i++) {
        const char *name = VEC_AT(&F->funcs, ix_func, i).name;
        if (strlen(name) >= 3 && ix_file_uses(c->files[g], name)) return name;
    }
    return "";
}
