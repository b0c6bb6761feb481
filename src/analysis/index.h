/*
 * index.h — the cross-file index behind `sunset removable` and `scan --derive`: per file, its
 * declarations (classes with their bases, top-level functions), its dependencies (includes,
 * imports), its CMake commands, gflag definitions, pass registrations, identifier-like strings
 * in tool lists and the set of names it uses. Built from the bytes the engine already read
 * (sunset_indexer hook, see core/engine.h): one fast lexer per language, no parse and no second
 * read. Workers add files concurrently; sunset_index_finish sorts them by path, so nothing
 * depends on the number of threads.
 *
 * Ownership: the index owns every string it holds; ix_* pointers stay valid until
 * sunset_index_free.
 */
#ifndef SUNSET_INDEX_H
#define SUNSET_INDEX_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "sunset.h"
#include "base/util.h"

typedef struct ix_class {
    char *name;
    uint32_t line, end;     /* header line, last line of the body */
    char **bases;           /* as written, e.g. "details::OpHandleBase", "unittest.TestCase" */
    uint32_t n_bases;
    bool top;               /* at module / namespace level (not nested in a class or function) */
    uint64_t *names;        /* top-level classes: sorted hashes of the names the body uses (Python),
                               of the name-like strings it holds (C++ sources) */
    size_t n_names;
    bool decorated;         /* Python: a decorator line precedes the header */
    uint32_t used_at;       /* C++: the first line of its file naming it outside its body (not a
                               declaration or an out-of-line member definition); 0 none */
} ix_class;

typedef struct ix_func {
    char *name;
    uint32_t line, end;
} ix_func;

typedef struct ix_import {
    char *module;           /* dotted, relative ones keep their dots */
    char *name;             /* from-import name, "*" for star, NULL for a plain import */
    char *alias;            /* NULL when none */
    uint32_t line, end;     /* the whole statement */
    bool used;              /* the bound name is used outside import statements */
} ix_import;

/* The name an import binds in its file: the alias, the from-imported name, or a plain
 * import's first component (copied into buf, n bytes). Borrowed from m or buf. */
const char *ix_import_bound(const ix_import *m, char *buf, size_t n);

typedef struct ix_alias {   /* Python: an assignment `name = ...` outside any class or function */
    char *name;
    char *value;            /* `a.b.c` when the value is just a dotted name at column 1; else NULL */
    uint32_t line;
} ix_alias;

typedef struct ix_include {
    char *path;
    uint32_t line;
} ix_include;

typedef struct ix_word {    /* a name at a line: flag definition, pass registration, list entry */
    char *text;
    uint32_t line, end;
} ix_word;

typedef struct ix_cmd {     /* one CMake command */
    char *name;             /* lower-case */
    uint32_t line, end;
    char **args;            /* unquoted */
    uint32_t *arg_lines;
    uint32_t n_args;
} ix_cmd;

typedef struct ix_file {
    char *path;             /* root-relative */
    sunset_lang lang;
    size_t size;
    uint32_t n_lines;
    bool blank;             /* nothing but whitespace and comments */
    vec classes;            /* ix_class */
    vec funcs;              /* ix_func: top-level functions (Python); a C++ header's namespace-level
                               functions and constants; a C++ source's namespace-level function
                               definitions (not static, not in an anonymous namespace) */
    vec imports;            /* ix_import */
    vec aliases;            /* ix_alias (Python) */
    vec includes;           /* ix_include */
    vec cmds;               /* ix_cmd */
    vec flag_defs;          /* ix_word: DEFINE_*(name ...) / PHI_DEFINE_EXPORTED_*(name ...) */
    vec pass_regs;          /* ix_word: REGISTER_PASS(name, ...) */
    vec op_regs;            /* ix_word: REGISTER_OPERATOR(name, ...), REGISTER_OP_WITHOUT_GRADIENT(name,
                               ...), PD_REGISTER_STRUCT_KERNEL(name, ...): an operator type */
    vec reg_uses;           /* ix_word: USE_OP(x), USE_OP_ITSELF(x), USE_NO_KERNEL_OP(x), USE_PASS(x):
                               links the registration of x by name */
    vec list_words;         /* ix_word: identifier-like strings / words in tool lists and scripts */
    vec op_runs;            /* ix_word: operator types this file registers and also names as a string
                               literal ("run_program_grad" in a grad maker's SetType): run by type */
    vec macros;             /* ix_word: C++ macro calls at namespace level, MACRO_NAME(arg ...), as
                               "MACRO_NAME arg" (settings.cross_file.links pairs them) */
    uint64_t *names;        /* sorted unique hashes of the names used in code (not in comments,
                               not on import lines); strings that look like names count */
    size_t n_names;
    uint64_t *outside;      /* the names used outside top-level class bodies: Python; C++ sources
                               with such classes (link-time declarations' arguments aside) */
    size_t n_outside;
    uint64_t *attr;         /* Python: sorted ix_attr_key of each name an import binds that a scope
                               uses only as an attribute (`base.core`, `core` imported) */
    size_t n_attr;
    uint64_t facts;         /* a digest of every field above but size and n_lines, taken when
                               the file is lexed for the content cache (index/digest.c:
                               ix_file_facts); 0 until then, and without the cache */
} ix_file;

struct sunset_macro_roles;

typedef struct sunset_index {
    pthread_mutex_t mu;
    vec files;              /* ix_file *, sorted by path after finish */
    /* after finish: path -> position, open addressing (the plan looks up every include and
     * import candidate; a binary search of strcmp was 4% of a default scan); owned */
    uint64_t *path_hash;    /* per slot: the path's hash, 0 = empty */
    uint32_t *path_pos;     /* per slot: its position in files */
    size_t path_cap;        /* a power of two, or 0 (then the binary search) */
    bool finished;
    bool oom;               /* a file could not be indexed (out of memory) */
    size_t replayed;        /* files adopted from the content cache (sunset_index_adopt), not lexed */
    /* adopted entries still as the cache's bytes (offsets, never written: rebasing them where
     * they lie copied every page of the cache's mapping, a fault and a TLB shootdown each, most
     * of a warm run's system time); rebased into copies by finish, or by sunset_index_realize
     * after a lazy finish. Under mu until finish. */
    vec pending;            /* of struct ix_raw (index.c) */
    bool lazy;              /* finish keeps them as bytes (sunset_index_set_lazy) */
    size_t *raw;            /* after a lazy finish: per position in files, the bytes' length when
                               still bytes, else 0; NULL = none */
    const struct sunset_macro_roles *roles; /* settings.macros.roles (borrowed), NULL = none */
    /* the files' memory (index.c): each packed into a block carved from these chunks, each
     * chunk starting with the previous one's address; under mu */
    void *chunks;
    char *chunk_cur, *chunk_end;
} sunset_index;

/* NULL on OOM. Free with sunset_index_free (accepts NULL). */
sunset_index *sunset_index_new(void);
void sunset_index_free(sunset_index *ix);
/* The C/C++ macros the index reads registrations, links and flags from (settings.macros.roles
 * of the rule set, borrowed: it outlives the index); without them it reads none. The content
 * cache's namespace covers them (the rule packs' bytes). */
void sunset_index_set_roles(sunset_index *ix, const struct sunset_macro_roles *roles);

/* Index one file (thread-safe). src and its data are borrowed. Returns 0, -1 on OOM. */
int sunset_index_add(sunset_index *ix, const sunset_source *src);

/* The same, and when block is not NULL, *block = the file's entry as the index holds it
 * (*n bytes, valid until sunset_index_free; NULL on failure), for the content cache: its
 * pointers all point inside it, so sunset_index_export turns a copy of it into bytes of
 * offsets, which sunset_index_adopt takes back without a lex. */
int sunset_index_add_keep(sunset_index *ix, const sunset_source *src, const void **block, size_t *n);
/* dst: a copy of the n bytes of an entry at live (from add_keep or adopt); rebased to offsets. */
void sunset_index_export(char *dst, const void *live, size_t n);
/* Add src's entry from n bytes sunset_index_export wrote for the same path and content:
 * they are checked (every offset inside them, aligned, the arrays whole) and never written;
 * finish (or sunset_index_realize) rebases a copy of them into the index's memory. They must
 * stay valid until then, or until sunset_index_free. True, or false (nothing added) when they
 * do not fit src (path, language, size) or do not decode. Thread-safe. */
bool sunset_index_adopt(sunset_index *ix, const sunset_source *src, const void *bytes, size_t n);

/* Sort by path; call once after every add. */
void sunset_index_finish(sunset_index *ix);
/* Before any add: finish leaves the adopted entries as bytes. Until sunset_index_realize,
 * the only questions such an index answers are sunset_index_facts_digest,
 * sunset_index_file_pos and sunset_index_file_lines (sunset_index_file gives NULL for an
 * entry still in bytes; nothing may read ix->files): a warm run whose removal plan is kept
 * needs no more, and so never rebases (or copies) the cache's entries of every file. */
void sunset_index_set_lazy(sunset_index *ix);
/* Rebase every entry a lazy finish left as bytes: afterwards the index is a finished one.
 * false on out of memory (then ix->oom). */
bool sunset_index_realize(sunset_index *ix);

/* Every fact of a finished index but its files' sizes and line counts, as one number from
 * seed (src/analysis/index/digest.c): the removal plan's cache key. false when the index is
 * not finished or is incomplete (out of memory), and then no key. */
bool sunset_index_facts_digest(const sunset_index *ix, uint64_t seed, uint64_t *out);

/* Lookups (after finish). */
const ix_file *sunset_index_file(const sunset_index *ix, const char *path);
/* Index of the file in ix->files, or -1. */
long sunset_index_file_pos(const sunset_index *ix, const char *path);
/* The file's line count into *lines (an entry still in bytes too); false when not indexed. */
bool sunset_index_file_lines(const sunset_index *ix, const char *path, uint32_t *lines);
uint64_t sunset_index_name_hash(const char *s, size_t n);
bool ix_file_uses(const ix_file *f, const char *name);
/* Python: does the scope (cls: an index into f->classes, -1 outside top-level classes, -2 the
 * whole file) use `name`, an import's bound name, only as an attribute (never bare)? */
bool ix_attr_only(const ix_file *f, long cls, const char *name);
/* Sorted-hash membership (names, outside, a class's names). */
bool ix_hashes_have(const uint64_t *v, size_t n, const char *name);

/* The hook the engine calls (core/engine.h sunset_indexer.file); ud is the sunset_index. */
void sunset_index_hook(void *ud, const sunset_source *src, const void **block, size_t *n);
bool sunset_index_adopt_hook(void *ud, const sunset_source *src, const void *bytes, size_t n);

/* One file's facts as stable text, one a line (src/analysis/index/dump.c): the form the
 * data-file tests in testdata/facts/ compare. */
void sunset_index_dump(const ix_file *f, sb *out);

#endif
