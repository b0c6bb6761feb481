/*
 * replay.h — the warm path of `scan`: a run whose every input is what an earlier run had
 * (the rules and settings, the options, the displayed root, today's date and each walked
 * file by its git index blob id, or by a hash of its bytes when the index cannot vouch for
 * it) writes that run's document again, with this run's elapsed time, without starting the
 * engine, the index or the plan and without reading a file git knows unchanged. The
 * documents live in the cache directory as <key>.result, written atomically.
 */
#ifndef SUNSET_REPLAY_H
#define SUNSET_REPLAY_H

#include <stdbool.h>
#include <stdint.h>
#include "analysis/removable.h"
#include "cmd/session.h"

/* The run key of a prepared scan (s walked, not started), from ns (the content cache's
 * namespace, scan_cache_namespace). false: this run cannot be replayed (no cache place, a
 * shard, stdin, an input outside the key such as a compile database, or OOM). */
bool replay_key(const cli *c, const scan_ctx *s, uint64_t ns, uint64_t *key);

/* A stored document for key: written to c->output with elapsed_ms in place of the stored
 * run's; true with *rc the exit code (the stored one, unless writing failed). false: none
 * stored, or damaged (then the caller scans). */
bool replay_try(const cli *c, const char *cache_dir, uint64_t key, double elapsed_ms, int *rc);

/* Store a finished run: doc as written (elapsed_ms in it) and the same document rendered
 * with REPLAY_SENTINEL_MS as the elapsed time. Stored only when putting elapsed_ms where the
 * sentinel stands gives back doc byte for byte. Errors are silent (the cache is an aid). */
#define REPLAY_SENTINEL_MS 987654321.0
void replay_store(const char *cache_dir, uint64_t key, const sb *doc, const sb *sentinel_doc, double elapsed_ms,
                  int rc);

/* The removal plan's cache (cmd/replay.c), one plan per namespace ns: the key of a plan built
 * from ix (finished) and res under s's rules and options, false when there is none (no
 * cache, a shard, OOM); a stored plan for key into plan (true; its whole files' last lines
 * from ix), else false and plan empty; store one (errors silent). */
bool replay_plan_key(const cli *c, const scan_ctx *s, uint64_t ns, const sunset_index *ix, const sunset_result *res,
                     uint64_t *key);
bool replay_plan_load(const char *cache_dir, uint64_t ns, uint64_t key, const sunset_ruleset *rs,
                      const sunset_index *ix, rm_plan *plan);
void replay_plan_store(const char *cache_dir, uint64_t ns, uint64_t key, const rm_plan *plan);

#endif
