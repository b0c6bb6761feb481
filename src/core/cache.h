/*
 * cache.h — the content cache: a file's scan results keyed by (path, content), in a namespace
 * of (rule-set hash, configuration that changes results, tool version). A warm re-scan of an
 * unchanged tree only reads and hashes. Private to the engine and the scan pipeline.
 */
#ifndef SUNSET_CACHE_H
#define SUNSET_CACHE_H

#include <stdbool.h>
#include <stdint.h>

#include "core/result.h"

typedef struct sunset_cache sunset_cache;
struct sunset_ruleset;

typedef struct sunset_cache_stats {
    size_t loaded, hits, misses, stored, corrupt, evicted;
} sunset_cache_stats;

/* Open (and load) the cache in `dir` for this namespace. A missing or unreadable cache file
 * is an empty cache; a corrupt entry is skipped (counted) and rewritten on save. NULL only
 * on out of memory. rs must outlive the cache (replayed findings borrow its rule strings). */
sunset_cache *sunset_cache_open(const char *dir, uint64_t namespace_hash,
                                const struct sunset_ruleset *rs, size_t max_bytes);
/* Must the cache directory dir be left alone? True, with the reason in why, when it lies in a
 * git work tree and git tracks it or a file below it, or a symbolic link inside the work tree
 * is on its path: a change could then plant entries that replay a clean result, or point
 * sunset's writes outside the tree.
 * repo: the repository already open (the command's checkout's) when dir lies in its work
 * tree; NULL only for a dir outside it (another repository, or none: opened from dir). */
typedef struct git_repository git_repository;
bool sunset_cache_dir_refused_in(const char *dir, git_repository *repo, char *why, size_t n);
/* Write the cache back: when this run only stored entries, they are appended to the file in
 * one write (if no other run wrote it since it was loaded and it stays within max_bytes; a
 * reader that meets a torn last entry keeps the ones before it); else rewritten whole
 * (atomically: temp file + rename, so concurrent runs never see a torn file; the last writer
 * wins), keeping this run's entries and then the most recently used ones up to max_bytes.
 * Returns 0 or an errno value. */
int sunset_cache_save(sunset_cache *c);
void sunset_cache_free(sunset_cache *c); /* accepts NULL */
sunset_cache_stats sunset_cache_get_stats(const sunset_cache *c);

/* The key of a file: its path and its bytes. */
uint64_t sunset_cache_key(const char *path, const char *data, size_t len);
/* A second digest of the bytes, by another function: checked with the key before a replay. */
uint64_t sunset_cache_digest(const char *data, size_t len);

/* If the cache holds `key` for content of this length and digest in its namespace, append its findings and warnings to *res, add its counters to
 * res->stats and return true. Thread-safe. */
bool sunset_cache_replay(sunset_cache *c, uint64_t key, size_t len, uint64_t digest, const char *path,
                         sunset_result *res);
/* Record what scanning one file added to *res: findings [first_finding, n), warnings
 * [first_warning, n) and the counter deltas between *before and res->stats. Thread-safe;
 * a failure to allocate just leaves the file uncached. */
void sunset_cache_store(sunset_cache *c, uint64_t key, size_t len, uint64_t digest, const sunset_result *res,
                        size_t first_finding, size_t first_warning, const sunset_stats *before);

/* Side entries: bytes a layer above the engine keeps per file content (the cross-file index's
 * entry of a file, tag SUNSET_CACHE_TAG_INDEX), under (tag, key) with the content's length and
 * digest, saved after the findings and so evicted first. Not counted in the statistics. They
 * are never copied, so they stay live where their user keeps them:
 * - take: when an entry agrees (and its checksum), take(ud, bytes, n) runs on its bytes, which
 *   stay valid until sunset_cache_free and which it must not write (a loaded entry's lie in
 *   the cache's file as mapped, and take then runs outside the cache's lock); true when take
 *   returns true (it may keep the pointer). An entry put by this run (live memory) is not
 *   taken.
 * - put: an entry whose bytes are the caller's live memory (export_fn(dst, live, n), when not
 *   NULL, turns a copy in dst into the stored form on save), which must stay valid until the
 *   cache is saved or freed.
 * Thread-safe. */
typedef void (*sunset_blob_export)(char *dst, const void *live, size_t n);
#define SUNSET_CACHE_TAG_INDEX 0x58444e49u
bool sunset_cache_take_blob(sunset_cache *c, uint32_t tag, uint64_t key, size_t len, uint64_t digest,
                            bool (*take)(void *ud, const void *bytes, size_t n), void *ud);
void sunset_cache_put_blob(sunset_cache *c, uint32_t tag, uint64_t key, size_t len, uint64_t digest,
                           const void *live, size_t n, sunset_blob_export export_fn);

/* Small side records the cache owns (a copy is stored and handed back), under (tag, key)
 * with a check value that must agree, e.g. SUNSET_CACHE_TAG_VOUCH: what a file known by its
 * git blob id was read as (core/engine.c). get copies exactly n bytes into out, true when a
 * record of that size agrees. Thread-safe. */
#define SUNSET_CACHE_TAG_VOUCH 0x48435556u
/* the frontends' queries compiled in this namespace (cmd/session.c): one byte, key 1 */
#define SUNSET_CACHE_TAG_QUERIES 0x59524551u
bool sunset_cache_get_rec(sunset_cache *c, uint32_t tag, uint64_t key, uint64_t check, void *out, size_t n);
void sunset_cache_put_rec(sunset_cache *c, uint32_t tag, uint64_t key, uint64_t check, const void *data, size_t n);

/* A hint: the n entries a caller is about to look up, findings (tag 0: sunset_cache_replay's
 * key) or side entries (tag, key), brought towards the processor together, so that their
 * memory latencies overlap instead of following one another (a warm run's lookups of a
 * file's entries were each a miss into the table, then into the entry). Changes nothing the
 * cache holds or answers. Thread-safe. */
void sunset_cache_prefetch(sunset_cache *c, const uint32_t *tags, const uint64_t *keys, size_t n);

/* The first line of a CACHEDIR.TAG (bford.info/cachedir): the cache directory writes one,
 * and the walk never enters a directory holding one. */
#define SUNSET_CACHEDIR_SIGNATURE "Signature: 8a477f597d28d172789f06886806bc55"

#endif
