/*
 * session.h — the scan pipeline every scanning command shares: configuration, rules, engine,
 * file discovery and the scan itself, each step printing its own error and returning an
 * exit code. `sunset scan` is the thinnest user; baseline, check, report ... build on it.
 */
#ifndef SUNSET_SCAN_H
#define SUNSET_SCAN_H

#include "base/checkout.h"
#include "cmd/cli.h"
#include "core/config.h"
#include "core/engine.h"
#include "report/report.h"

typedef struct scan_ctx {
    sunset_config cfg;
    bool cfg_ready;    /* cfg was loaded by the caller (check: as at the diff base); set before
                        * scan_prepare, after sunset_config_init */
    sunset_ruleset *rs;
    sunset_engine_opts eo;
    sunset_engine *eng;
    char *bundled_rules, *bundled_queries;
    const char *queries;
    vec dirs;          /* const char *: rule directories */
    sunset_checkout co; /* where the command runs, resolved once (base/checkout.h); the four
                        * below are its, borrowed: */
    char *root;        /* absolute scan root */
    char *shown;       /* envelope's shown_prefix: the root as seen from the current directory */
    char *repo_prefix; /* envelope's uri_prefix: the root below its git work tree; NULL outside */
    vec starts;        /* char *: root-relative start paths */
    vec files;         /* char *: root-relative files, sorted, unique */
    bool no_walk;      /* set before scan_prepare: the caller names the files (check's diff
                        * modes replace the list with the changed files), so no walk */
    walk_stats ws;
    struct sunset_cache *cache; /* NULL with --no-cache */
    char *cache_dir;   /* where the cache lives (see cache_location); owned */
    uint64_t *blob_ids, *blob_stamps; /* per file of `files` (n_blob of them): the index's blob id
                        * and the vouching lstat's stamp, 0 when the checkout cannot vouch
                        * (base/checkout.h); NULL until scan_vouch; owned */
    size_t n_blob;
    /* The scan options derived from the command line (which stays const) and the
     * configuration, built once: */
    const char *config_from; /* set before scan_load_rules: where the configuration search
                              * starts (NULL: the first PATH, else ".") */
    vec include, exclude;    /* const char *, borrowed: the command line's globs, then the
                              * configuration's (scan_add_config_globs) */
    cli_shard_spec shard;    /* --shard, parsed (scan_prepare; history: cli_shard) */
    bool warned;             /* a walk or cache warning was met (a replay would not repeat it) */
} scan_ctx;

/* Configuration and rules (every command that reads rules). */
int scan_load_rules(const cli *c, scan_ctx *s);
/* s->include/s->exclude: the command line's globs, then the configuration's (borrowed from c
 * and s->cfg): every command selects files by the same globs. 0, or EXIT_USAGE on OOM. */
int scan_add_config_globs(const cli *c, scan_ctx *s);
/* Configuration, rules and engine, then the walk: s->files is ready. */
int scan_prepare(const cli *c, scan_ctx *s);
/* scan_prepare in two steps: configuration, rules, checkout, the walk and where the cache
 * lives (nothing scanned read, the cache not opened); then the content cache and the engine. */
int scan_prepare_files(const cli *c, scan_ctx *s);
int scan_prepare_engine(const cli *c, scan_ctx *s);
/* The content cache's namespace: the tool, the binary, the rules and what changes a file's
 * result (after scan_load_rules). */
uint64_t scan_cache_namespace(const scan_ctx *s);
/* Did anything below cmd/ write a note (sunset_note) in this process? */
bool scan_noted(void);
/* Run the engine over s->files into *res (zero it first; free with sunset_result_free). */
int scan_execute(const cli *c, scan_ctx *s, sunset_result *res);
void scan_ctx_free(scan_ctx *s);
/* The identity of a sharded run's inputs, 16 hex digits into out: the rules, the options
 * that change the findings or the file set, the PATHs as given (paths: const char *) and `what` (the command's
 * other input, e.g. history's range). Every shard of one run has the same; `merge` checks. */
void scan_inputs_id(const cli *c, const scan_ctx *s, const vec *paths, const char *what, char out[17]);

/* The scan with the cross-file index attached (the analysis in src/analysis/ runs on it):
 * scan_execute with an index; on success *ix (caller frees with sunset_index_free) is
 * finished and res filled. Returns an exit code, having printed any error. */
/* What the git index knows of s->files without reading them (s->blob_ids), once, when the
 * cache is on: the warm path's key and the engine's lookups of unchanged files use it. */
void scan_vouch(const cli *c, scan_ctx *s);

struct sunset_index;
int scan_with_index(const cli *c, scan_ctx *s, sunset_result *res, struct sunset_index **ix);
/* `scan --derive`: scan_execute, then one derived finding (marked derived, with its evidence
 * chain) per item that is legacy only by propagation, and the result re-sorted. */
int scan_derive(const cli *c, scan_ctx *s, sunset_result *res);
/* The scan with the index, then the removal plan without its migrate table (rm_plan_build_lean:
 * the scan never reads it) into *plan (zeroed; caller frees with rm_plan_free), with the derived
 * findings added when `derive` (scan_derive). */
struct rm_plan;
int scan_plan(const cli *c, scan_ctx *s, sunset_result *res, bool derive, struct rm_plan *plan);

/* Write a finished document to FILE (atomically; a device in place) or stdout. */
int output_write(const char *file, const sb *doc);
/* Output options for the text writer from the command line (colour on a tty, ...). */
sunset_output_opts output_opts(const cli *c);
/* The envelope of a document about s's result (report/report.h): the output options, the
 * root's prefix in its repository and as the user would type it; the command adds the rest. */
sunset_envelope scan_envelope(const cli *c, const scan_ctx *s);

#endif
