/*
 * anchor.c — settings.anchor: which files are tied to Paddle (anchor.h). Each test is one
 * regex list of the settings pack; the engine asks until one says yes, then stops asking.
 */
#include "core/anchor.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/util.h"

/* A licence header sits in the first lines; a mention further down is not one. */
#define ANCHOR_HEAD_LINES 20

void sunset_anchor_init(sunset_anchor *a) {
    memset(a, 0, sizeof *a);
    a->paths = a->header = a->modules = a->namespaces = a->headers = a->commands = a->words =
        VEC_INIT(pcre2_code *);
    a->module_literals = a->tree = VEC_INIT(char *);
}

void sunset_anchor_free(sunset_anchor *a) {
    vec *res[] = {&a->paths, &a->header, &a->modules, &a->namespaces, &a->headers, &a->commands,
                  &a->words};
    for (size_t k = 0; k < sizeof res / sizeof *res; k++) {
        for (size_t i = 0; i < res[k]->n; i++) pcre2_code_free(VEC_AT(res[k], pcre2_code *, i));
        vec_free(res[k]);
    }
    vec *strs[] = {&a->module_literals, &a->tree};
    for (size_t k = 0; k < 2; k++) {
        for (size_t i = 0; i < strs[k]->n; i++) sunset_free(VEC_AT(strs[k], char *, i));
        vec_free(strs[k]);
    }
}

/* Does dir's first n bytes joined with `name` exist? */
static bool exists_in(const char *dir, size_t n, const char *name) {
    sb p = {0};
    sb_printf(&p, "%.*s/%s", (int)n, dir, name);
    struct stat st;
    bool yes = !p.oom && stat(p.s, &st) == 0;
    sb_free(&p);
    return yes;
}

/* Length of the parent of dir's first n bytes ("/a/b" -> "/a", "/a" -> "" meaning "/"). */
static size_t parent_len(const char *dir, size_t n) {
    while (n > 0 && dir[n - 1] != '/') n--;
    return n ? n - 1 : 0;
}

bool anchor_tree_by(const sunset_anchor *a, bool (*exists)(void *ud, const char *path), void *ud) {
    bool yes = !a->on;
    for (size_t i = 0; i < a->tree.n && !yes; i++) yes = exists(ud, VEC_AT(&a->tree, char *, i));
    return yes;
}

/* The fallback for a caller with no checkout (tests, the library): the length of dir's part
 * that is the top of its git work tree (the nearest ancestor holding .git; 0 = "/"), or len
 * outside git. A command hands the checkout's top instead. */
static size_t anchor_find_top(const char *dir, size_t len) {
    for (size_t n = len;; n = parent_len(dir, n)) {
        if (exists_in(dir, n, ".git")) return n;
        if (n == 0) return len;
    }
}

bool anchor_tree(const sunset_anchor *a, const char *root, const char *top) {
    if (!a->on || !root || !*root) return !a->on;
    char dir[PATH_MAX];
    size_t tl = top ? (strcmp(top, "/") ? strlen(top) : 0) : 0;
    bool given = top && strncmp(root, top, tl) == 0 && (root[tl] == 0 || root[tl] == '/');
    if (given) snprintf(dir, sizeof dir, "%s", root); /* the checkout resolved both */
    else if (!realpath(root, dir)) return false;
    /* the root and its parents up to the top of its git work tree, so that a file or a
     * sub-directory of a Paddle checkout is scanned as part of it; outside git, the root */
    size_t len = strlen(dir), stop = given ? tl : anchor_find_top(dir, len);
    bool yes = false;
    for (size_t n = len; !yes; n = parent_len(dir, n)) {
        for (size_t i = 0; i < a->tree.n && !yes; i++)
            yes = exists_in(dir, n, VEC_AT(&a->tree, char *, i));
        if (n <= stop) break;
    }
    return yes;
}

/* Does a regex of the list match in the n bytes at s? */
static bool any(const vec *res, const char *s, size_t n, pcre2_match_data *md) {
    size_t so, eo;
    for (size_t i = 0; s && i < res->n; i++)
        if (re_search(VEC_AT(res, pcre2_code *, i), s, n, 0, md, &so, &eo)) return true;
    return false;
}

bool anchor_by_file(const sunset_anchor *a, const char *path, const char *data, size_t len,
                    pcre2_match_data *md) {
    if (!a->on || any(&a->paths, path, strlen(path), md)) return true;
    const char *p = data, *end = data + len;
    for (int i = 0; i < ANCHOR_HEAD_LINES && p < end && a->header.n; i++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
        if (any(&a->header, p, n, md)) return true;
        p += n + 1;
    }
    return false;
}

bool anchor_by_fact(const sunset_anchor *a, sunset_lang lang, const sunset_fact *f,
                    pcre2_match_data *md) {
    switch (f->kind) {
    case SUNSET_FACT_IMPORT: return any(&a->modules, f->text, f->text_len, md);
    case SUNSET_FACT_INCLUDE: return any(&a->headers, f->text, f->text_len, md);
    case SUNSET_FACT_IDENT:
        /* `paddle::framework::X`, `using namespace paddle;`, `namespace fw = paddle::...`;
         * not a variable that happens to be called `paddle` (a game's) */
        return lang == SUNSET_LANG_CPP && f->ctx == SUNSET_CTX_CODE &&
               (f->flags & SUNSET_FACT_NAMESPACE) && any(&a->namespaces, f->text, f->text_len, md);
    case SUNSET_FACT_CMAKE:
        return any(&a->commands, f->aux, f->aux_len, md) || any(&a->words, f->text, f->text_len, md);
    case SUNSET_FACT_LINE: return any(&a->words, f->text, f->text_len, md);
    default: return false;
    }
}

bool anchor_by_scope(const sunset_anchor *a, const char *kind, const char *name,
                     pcre2_match_data *md) {
    return strcmp(kind, "namespace") == 0 && any(&a->namespaces, name, strlen(name), md);
}

bool anchor_may_import(const sunset_anchor *a, const char *data, size_t len) {
    if (!memmem(data, len, "import", 6)) return false;
    for (size_t i = 0; i < a->module_literals.n; i++) {
        const char *lit = VEC_AT(&a->module_literals, char *, i);
        if (memmem(data, len, lit, strlen(lit))) return true;
    }
    return false;
}
