/*
 * fuzz_index.c — libFuzzer harness for the cross-file index lexers (src/analysis/index/, behind
 * `sunset removable` and `scan --derive`): one fast lexer per language that reads a file's
 * bytes with no parser in front of it. The first input byte picks the file name (so the
 * lexer: Python, C++, CMake, shell, plain text tool list), the rest is the file; it is
 * indexed, the index finished and looked up, and every record must be well formed (names
 * set, line ranges inside the file). Nothing may leak. Seeds: testdata/fuzz/fuzz_index/.
 */
#include <stdint.h>

#include "fuzz_engine.h"
#include "analysis/index.h"
#include "core/lang.h"
#include "core/ruleset.h"

/* The bundled settings' macros (settings.macros.roles), loaded once from rules/ of the working
 * directory when it has them: the C++ lexer reads registrations only with them. */
static const sunset_macro_roles *bundled_roles(void) {
    static sunset_ruleset *rs;
    static int tried;
    if (!tried++) {
        const char *dirs[] = {"rules"};
        sunset_error err = {{0}};
        rs = sunset_ruleset_load(dirs, 1, "queries", &err);
    }
    return rs ? &rs->macro_roles : NULL;
}

static const char *const paths[] = {
    "python/paddle/fluid/compiler.py", "paddle/fluid/framework/parallel_executor.cc",
    "paddle/fluid/framework/CMakeLists.txt", "tools/check_api.sh", "tools/parallel_UT_rule.txt",
    "paddle/fluid/framework/details/op_handle_base.h", "cmake/generic.cmake",
};
#define N_PATHS (sizeof paths / sizeof paths[0])

static void check_words(const vec *v, uint32_t n_lines) {
    for (size_t i = 0; i < v->n; i++) {
        const ix_word *w = &VEC_AT(v, ix_word, i);
        if (!w->text || w->line < 1 || w->end < w->line || w->line > n_lines + 1) abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len) {
    if (len == 0) return 0;
    const char *path = paths[data[0] % N_PATHS];
    char *text = fuzz_copy(data + 1, len - 1);
    const sunset_macro_roles *roles = bundled_roles(); /* before the leak count: kept to the end */
    long live = sunset_alloc_live();
    sunset_index *ix = sunset_index_new();
    if (!ix) abort();
    sunset_index_set_roles(ix, roles);
    sunset_source src = {.path = path, .fspath = path, .data = text, .len = len - 1,
                         .lang = sunset_lang_for_path(path)};
    const void *block = NULL;
    size_t bn = 0;
    if (sunset_index_add_keep(ix, &src, &block, &bn) != 0 || !block) abort(); /* no OOM here */
    /* the content cache's form of the entry adopts back into an index with the same facts */
    uint64_t *bytes = calloc(1, bn + 8);
    if (!bytes) abort();
    memcpy(bytes, block, bn);
    sunset_index_export((char *)bytes, block, bn);
    sunset_index *two = sunset_index_new();
    if (!two || !sunset_index_adopt(two, &src, bytes, bn)) abort();
    sunset_index_finish(two);
    const ix_file *g = sunset_index_file(two, path), *h = block;
    if (!g || g->n_names != h->n_names || g->classes.n != h->classes.n || g->imports.n != h->imports.n ||
        g->cmds.n != h->cmds.n || (g->n_names && memcmp(g->names, h->names, g->n_names * sizeof *g->names)))
        abort();
    sunset_index_free(two);
    free(bytes);
    sunset_index_finish(ix);
    const ix_file *f = sunset_index_file(ix, path);
    if (!f || strcmp(f->path, path) != 0) abort();
    for (size_t i = 0; i < f->classes.n; i++) {
        const ix_class *c = &VEC_AT(&f->classes, ix_class, i);
        if (!c->name || c->line < 1 || c->end < c->line) abort();
        for (uint32_t b = 0; b < c->n_bases; b++)
            if (!c->bases[b]) abort();
    }
    for (size_t i = 0; i < f->funcs.n; i++) {
        const ix_func *fn = &VEC_AT(&f->funcs, ix_func, i);
        if (!fn->name || fn->line < 1 || fn->end < fn->line) abort();
    }
    for (size_t i = 0; i < f->imports.n; i++) {
        const ix_import *im = &VEC_AT(&f->imports, ix_import, i);
        if (!im->module || im->line < 1 || im->end < im->line) abort();
    }
    for (size_t i = 0; i < f->includes.n; i++)
        if (!VEC_AT(&f->includes, ix_include, i).path) abort();
    for (size_t i = 0; i < f->cmds.n; i++) {
        const ix_cmd *c = &VEC_AT(&f->cmds, ix_cmd, i);
        if (!c->name) abort();
        for (uint32_t a = 0; a < c->n_args; a++)
            if (!c->args[a]) abort();
    }
    check_words(&f->flag_defs, f->n_lines);
    check_words(&f->pass_regs, f->n_lines);
    check_words(&f->list_words, f->n_lines);
    check_words(&f->macros, f->n_lines);
    /* the names are sorted unique hashes: membership of a present name must hold */
    for (size_t i = 1; i < f->n_names; i++)
        if (f->names[i - 1] >= f->names[i]) abort();
    (void)ix_file_uses(f, "ParallelExecutor");
    sunset_index_free(ix);
    fuzz_check_live(live, "indexing");
    free(text);
    return 0;
}
