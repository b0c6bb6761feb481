/*
 * engine.h — the scan engine's API for the layers above core: runs the walker's file list
 * through the prefilter and the frontends on a thread pool, matches facts against the rule
 * set and produces a sorted sunset_result. Frontends and writers never include it.
 */
#ifndef SUNSET_ENGINE_H
#define SUNSET_ENGINE_H

#include "core/result.h"
#include "core/ruleset.h"
#include "core/walk.h"

typedef struct disable_entry {
    const char *const *rules; size_t n_rules; /* globs over rule ids */
    const char *const *paths; size_t n_paths; /* globs over root-relative paths */
} disable_entry;

/* An observer of every file the engine reads (the cross-file index, src/analysis/index.h): called once
 * per file that is not binary, generated or of no language, from any worker thread, with the
 * bytes already in memory, whether or not the prefilter lets the file reach a frontend. */
typedef struct sunset_indexer {
    void *ud;
    /* index src; when block is not NULL, *block = its entry as the indexer keeps it (*n
     * bytes, NULL when none), which the content cache saves through export */
    void (*file)(void *ud, const sunset_source *src, const void **block, size_t *n);
    /* index src from the bytes export wrote for the same path and content, never writing them
     * (they stay valid to the end of the run), without reading the file: true, or false
     * (nothing added; file() runs). NULL = no adopt */
    bool (*adopt)(void *ud, const sunset_source *src, const void *bytes, size_t n);
    void (*export_fn)(char *dst, const void *live, size_t n); /* a copy of an entry to bytes */
} sunset_indexer;

#define SUNSET_DEFAULT_MAX_FILE (16u << 20) /* --max-filesize's default */

/* At most this many frontends per engine (the engine keeps one slot each). */
#define SUNSET_MAX_FRONTENDS 8

typedef struct sunset_engine_opts {
    /* The frontends, in the order the engine initialises them (a later one claiming a language
     * wins): the session hands it the registry's (lang/registry.h), a test its own. Borrowed. */
    const sunset_frontend *const *frontends;
    size_t n_frontends;
    int jobs;                   /* worker threads; <= 0 = number of cores */
    bool include_generated;
    bool judge_own_output;      /* the gate: looking like sunset's own report exempts no file */
    size_t max_file_size;       /* bytes; 0 = default (16 MiB); every input: files, buffers */
    unsigned parse_budget_ms;
    const char *compile_db_dir; /* -p DIR or NULL */
    const char *queries_dir;
    bool lazy_queries;        /* sunset_frontend_config.lazy_queries */
    bool no_prefilter;          /* parse every file (benchmarks, debugging) */
    bool anchor_all;            /* every file counts as tied to Paddle (settings.anchor): the
                                   rule examples, which model Paddle's code */
    const char *tree_root;      /* the tree in-memory scans (check, stdin) belong to, for
                                   settings.anchor.tree; NULL = none. A scan uses its root */
    const char *tree_top;       /* the git work tree's top around the root, resolved (the
                                   checkout's); NULL: outside one, or found from the root */
    bool progress;              /* progress line (sunset_note) */
    const disable_entry *disable; size_t n_disable;
    const sunset_indexer *indexer; /* NULL = none */
    struct sunset_cache *cache;    /* the content cache (src/core/cache.h), NULL = none */
    /* per path of sunset_engine_scan, when the git index vouches for the file (base/checkout.h:
     * sunset_checkout_blob_ids): its blob id and stat stamp, else 0; NULL = none. With the
     * cache, such a file once read is replayed without a read (what it was read as is a
     * record of the cache under its path and blob id). */
    const uint64_t *blob_ids, *blob_stamps;
} sunset_engine_opts;

typedef struct sunset_engine sunset_engine;

/* Initialises every frontend (compiles queries ...). NULL with err filled on failure.
 * rs and opts are borrowed and must outlive the engine. */
sunset_engine *sunset_engine_new(const sunset_ruleset *rs, const sunset_engine_opts *opts,
                                 sunset_error *err);
void sunset_engine_free(sunset_engine *e);

/* Scan root-relative `paths` under `root`. Appends to *res (zero-initialise it first;
 * free with sunset_result_free). Returns 0, -1 on OOM. */
int sunset_engine_scan(sunset_engine *e, const char *root, char *const *paths, size_t n,
                       sunset_result *res);

/* For in-memory scans of a tree not on disk (history replays commits): is that tree Paddle's
 * own (settings.anchor.tree)? `exists` answers for a root-relative path. Then every file
 * scanned until the next call is tied to Paddle. Returns the answer. */
bool sunset_engine_set_tree(sunset_engine *e, bool (*exists)(void *ud, const char *path), void *ud);

/* Scan one in-memory file as if it were at root-relative `path` (the rule self-test). */
int sunset_engine_scan_buffer(sunset_engine *e, const char *path, const char *data, size_t len,
                              sunset_result *res);

/* A worker kept across many in-memory scans (history replay): frontend state such as
 * libclang's index is created once, not per file. Findings go to *res as with
 * sunset_engine_scan_buffer, but unsorted: call sunset_result_finish when done. Use one
 * worker per thread. */
typedef struct sunset_worker sunset_worker;
sunset_worker *sunset_worker_new(sunset_engine *e);
void sunset_worker_free(sunset_worker *w);
int sunset_worker_scan(sunset_worker *w, const char *path, const char *data, size_t len,
                       sunset_result *res);

#endif
