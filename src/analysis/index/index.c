/*
 * index.c — the cross-file index (index.h). One small lexer per language (python.c, cpp.c,
 * cmake.c) turns a file's bytes, already in memory in the engine's worker, into the facts the
 * propagation needs: C/C++ includes, class definitions with their bases and brace-matched
 * extent, gflag definitions, pass registrations; Python imports (which names they bind and
 * whether the module uses them), classes with bases and indentation extent, top-level
 * functions; CMake commands with their arguments and lines; words of tool lists and scripts;
 * and for every file the set of names its code uses (comments and import lines excluded), kept
 * as sorted 64-bit hashes. The lexers never parse: they know strings, comments, brackets and a
 * handful of keywords, which is what the facts need, and they cost a few percent of the scan.
 * This file is the index itself: adding a file, sorting, lookups.
 */
#include "analysis/index/ix_int.h"

#include <stdlib.h>

uint64_t sunset_index_name_hash(const char *s, size_t n) { return ix_name_hash(s, n); }

static void file_free(ix_file *f) {
    if (!f) return;
    sunset_free(f->path);
    for (size_t i = 0; i < f->classes.n; i++) {
        ix_class *c = &VEC_AT(&f->classes, ix_class, i);
        sunset_free(c->name);
        for (uint32_t k = 0; k < c->n_bases; k++) sunset_free(c->bases[k]);
        sunset_free(c->bases);
        sunset_free(c->names);
    }
    for (size_t i = 0; i < f->funcs.n; i++) sunset_free(VEC_AT(&f->funcs, ix_func, i).name);
    for (size_t i = 0; i < f->imports.n; i++) {
        ix_import *m = &VEC_AT(&f->imports, ix_import, i);
        sunset_free(m->module);
        sunset_free(m->name);
        sunset_free(m->alias);
    }
    for (size_t i = 0; i < f->aliases.n; i++) {
        sunset_free(VEC_AT(&f->aliases, ix_alias, i).name);
        sunset_free(VEC_AT(&f->aliases, ix_alias, i).value);
    }
    for (size_t i = 0; i < f->includes.n; i++) sunset_free(VEC_AT(&f->includes, ix_include, i).path);
    for (size_t i = 0; i < f->cmds.n; i++) {
        ix_cmd *c = &VEC_AT(&f->cmds, ix_cmd, i);
        sunset_free(c->name);
        for (uint32_t k = 0; k < c->n_args; k++) sunset_free(c->args[k]);
        sunset_free(c->args);
        sunset_free(c->arg_lines);
    }
    vec *words[] = {&f->flag_defs, &f->pass_regs, &f->op_regs, &f->reg_uses, &f->list_words};
    for (size_t w = 0; w < 5; w++) {
        for (size_t i = 0; i < words[w]->n; i++) sunset_free(VEC_AT(words[w], ix_word, i).text);
        vec_free(words[w]);
    }
    vec_free(&f->classes);
    vec_free(&f->funcs);
    vec_free(&f->imports);
    vec_free(&f->aliases);
    vec_free(&f->includes);
    vec_free(&f->cmds);
    sunset_free(f->names);
    sunset_free(f->outside);
    sunset_free(f);
}

sunset_index *sunset_index_new(void) {
    sunset_index *ix = sunset_calloc(1, sizeof *ix);
    if (!ix) return NULL;
    if (pthread_mutex_init(&ix->mu, NULL) != 0) {
        sunset_free(ix);
        return NULL;
    }
    ix->files = VEC_INIT(ix_file *);
    return ix;
}

void sunset_index_free(sunset_index *ix) {
    if (!ix) return;
    for (size_t i = 0; i < ix->files.n; i++) file_free(VEC_AT(&ix->files, ix_file *, i));
    vec_free(&ix->files);
    sunset_free(ix->path_hash);
    sunset_free(ix->path_pos);
    pthread_mutex_destroy(&ix->mu);
    sunset_free(ix);
}

bool ix_hashes_have(const uint64_t *v, size_t n, const char *name) {
    if (!n) return false;
    uint64_t h = ix_name_hash(name, strlen(name));
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (v[mid] < h) lo = mid + 1;
        else hi = mid;
    }
    return lo < n && v[lo] == h;
}

bool ix_file_uses(const ix_file *f, const char *name) { return ix_hashes_have(f->names, f->n_names, name); }

/* An import is used when the name it binds occurs in the module's code. */
const char *ix_import_bound(const ix_import *m, char *buf, size_t n) {
    if (m->alias || m->name) return m->alias ? m->alias : m->name;
    size_t k = 0;
    while (m->module[k] && m->module[k] != '.' && k < n - 1) {
        buf[k] = m->module[k];
        k++;
    }
    buf[k] = 0;
    return buf;
}

static void mark_used_imports(ix_file *f) {
    for (size_t i = 0; i < f->imports.n; i++) {
        ix_import *m = &VEC_AT(&f->imports, ix_import, i);
        if (m->name && strcmp(m->name, "*") == 0) continue;
        char first[256];
        const char *bound = ix_import_bound(m, first, sizeof first);
        m->used = strlen(bound) < 3 ? true : ix_file_uses(f, bound);
    }
}

int sunset_index_add(sunset_index *ix, const sunset_source *src) {
    ix_file *f = sunset_calloc(1, sizeof *f);
    if (!f) return -1;
    hset names = {0};
    int rc = -1;
    f->path = sunset_strndup(src->path, strlen(src->path));
    if (!f->path) goto cleanup;
    f->lang = src->lang;
    f->size = src->len;
    f->blank = true;
    f->classes = VEC_INIT(ix_class);
    f->funcs = VEC_INIT(ix_func);
    f->imports = VEC_INIT(ix_import);
    f->aliases = VEC_INIT(ix_alias);
    f->includes = VEC_INIT(ix_include);
    f->cmds = VEC_INIT(ix_cmd);
    f->flag_defs = VEC_INIT(ix_word);
    f->pass_regs = VEC_INIT(ix_word);
    f->op_regs = VEC_INIT(ix_word);
    f->reg_uses = VEC_INIT(ix_word);
    f->list_words = VEC_INIT(ix_word);
    uint32_t nl = (uint32_t)ix_count_nl(src->data, src->data + src->len);
    f->n_lines = nl + (src->len && src->data[src->len - 1] != '\n');
    int r = 0;
    switch (src->lang) {
    case SUNSET_LANG_CPP: r = ix_lex_cpp(f, src->data, src->len, &names); break;
    case SUNSET_LANG_PYTHON: r = ix_lex_python(f, src->data, src->len, &names); break;
    case SUNSET_LANG_CMAKE: r = ix_lex_cmake(f, src->data, src->len, &names); break;
    case SUNSET_LANG_SHELL: r = ix_lex_words(f, src->data, src->len, &names, true); break;
    default: f->blank = src->len == 0; break;
    }
    if (r || names.oom) goto cleanup;
    /* every file's entry lives to the end of the run: no spare capacity */
    vec *vs[] = {&f->classes, &f->funcs, &f->imports, &f->includes, &f->cmds,
                 &f->flag_defs, &f->pass_regs, &f->op_regs, &f->reg_uses, &f->list_words};
    for (size_t i = 0; i < sizeof vs / sizeof vs[0]; i++) ix_vec_fit(vs[i]);
    if (!ix_hset_sorted(&names, &f->names, &f->n_names)) goto cleanup;
    mark_used_imports(f);
    pthread_mutex_lock(&ix->mu);
    bool ok = vec_push(&ix->files, &f) != NULL;
    pthread_mutex_unlock(&ix->mu);
    if (!ok) goto cleanup;
    f = NULL;
    rc = 0;
cleanup:
    sunset_free(names.slots);
    file_free(f);
    return rc;
}

void sunset_index_hook(void *ud, const sunset_source *src) {
    sunset_index *ix = ud;
    if (sunset_index_add(ix, src) == 0) return;
    pthread_mutex_lock(&ix->mu);
    ix->oom = true;
    pthread_mutex_unlock(&ix->mu);
}

static int cmp_file(const void *a, const void *b) {
    return strcmp((*(ix_file *const *)a)->path, (*(ix_file *const *)b)->path);
}

static uint64_t path_hash(const char *path) { return ix_name_hash(path, strlen(path)); }

/* The path table; without it (out of memory) lookups fall back to the binary search. */
static void build_path_table(sunset_index *ix) {
    sunset_free(ix->path_hash);
    sunset_free(ix->path_pos);
    ix->path_hash = NULL;
    ix->path_pos = NULL;
    ix->path_cap = 0;
    if (!ix->files.n || ix->files.n > UINT32_MAX / 4) return;
    size_t cap = 16;
    while (cap < ix->files.n * 2) cap *= 2;
    uint64_t *h = sunset_calloc(cap, sizeof *h);
    uint32_t *p = sunset_malloc(cap * sizeof *p);
    if (!h || !p) {
        sunset_free(h);
        sunset_free(p);
        return;
    }
    for (size_t i = 0; i < ix->files.n; i++) {
        uint64_t v = path_hash(VEC_AT(&ix->files, ix_file *, i)->path);
        size_t k = v & (cap - 1);
        while (h[k]) k = (k + 1) & (cap - 1);
        h[k] = v;
        p[k] = (uint32_t)i;
    }
    ix->path_hash = h;
    ix->path_pos = p;
    ix->path_cap = cap;
}

void sunset_index_finish(sunset_index *ix) {
    if (ix->files.n) qsort(ix->files.v, ix->files.n, sizeof(ix_file *), cmp_file);
    build_path_table(ix);
    ix->finished = true;
}

long sunset_index_file_pos(const sunset_index *ix, const char *path) {
    if (ix->path_cap) {
        uint64_t v = path_hash(path);
        for (size_t k = v & (ix->path_cap - 1); ix->path_hash[k]; k = (k + 1) & (ix->path_cap - 1))
            if (ix->path_hash[k] == v && strcmp(VEC_AT(&ix->files, ix_file *, ix->path_pos[k])->path, path) == 0)
                return (long)ix->path_pos[k];
        return -1;
    }
    size_t lo = 0, hi = ix->files.n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        int c = strcmp(VEC_AT(&ix->files, ix_file *, mid)->path, path);
        if (c == 0) return (long)mid;
        if (c < 0) lo = mid + 1;
        else hi = mid;
    }
    return -1;
}

const ix_file *sunset_index_file(const sunset_index *ix, const char *path) {
    long p = sunset_index_file_pos(ix, path);
    return p < 0 ? NULL : VEC_AT(&ix->files, ix_file *, p);
}

