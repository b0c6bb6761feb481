/*
 * result.h — what a scan produces (the result model) and its one owner (src/core/result.c).
 * Every finding, warning and unused-suppression entry enters a result through a function
 * here, and only this module grows, moves, filters, sorts, fingerprints and frees them.
 * Writers (report/report.h) read a finished result and never change it.
 */
#ifndef SUNSET_RESULT_H
#define SUNSET_RESULT_H

#include <stdbool.h>
#include <stdint.h>
#include "sunset.h"
#include "base/util.h"

typedef struct sunset_finding {
    const char *rule_id, *family, *message, *fix; /* borrowed from the rule set */
    int task;
    sunset_severity severity;
    sunset_context ctx;
    char *path;                /* root-relative; owned by the result */
    sunset_span span;
    sunset_span stmt;          /* the whole statement holding a code finding (a multi-line
                                  call's argument lines); all 0 = not known */
    bool test;                 /* the file is a test (settings.test_paths) */
    bool code_string;          /* a string literal that code uses: a registered name, a key, an
                                  operand (settings.remnants.code_strings); not prose */
    char *matched;             /* the matched text, whitespace-normalised; owned */
    char *snippet;             /* the source line holding span.line; owned */
    char *enc_kind, *enc_name; /* innermost enclosing scope, NULL when none; owned */
    uint32_t enc_start, enc_end;
    char fingerprint[17];      /* 16 hex digits; see README "Fingerprints" */
    bool suppressed;           /* a sunset-ignore comment covers it (src/core/suppress.c) */
    char *justification;       /* that comment's reason when suppressed; owned */
    bool derived;              /* legacy by propagation across files (scan --derive, removable.h) */
    char *chain;               /* the evidence chain when derived; owned */
} sunset_finding;

/* A valid sunset-ignore comment that suppressed nothing, or that has expired (suppress.c). */
typedef struct sunset_unused {
    char *path;      /* root-relative; owned */
    uint32_t line;
    char *what;      /* "sunset-ignore[RULES]" as written, plus " (expired YYYY-MM-DD)"; owned */
} sunset_unused;

/* A file the scan read but did not analyse: binary, generated, too large, unreadable,
 * unparsable. Same shape as sunset_unused: line is the marker's line (generated) or 0, what
 * the reason ("generated: '// @generated' on line 1"). The gate fails closed on changed ones. */
typedef sunset_unused sunset_skip;

/* The CI gate's verdict (src/analysis/gate.c), in the envelope of the documents `check`
 * writes (report/report.h): the result's findings are then the new ones (failing or below the
 * threshold) and the suppressed ones. */
#define SUNSET_TASKS 8 /* task numbers 0..7; 0 = not a task (sunset's own findings) */

typedef struct sunset_fixed {
    const char *rule, *path, *matched; /* borrowed from the checker */
    uint32_t line;
    int task;
} sunset_fixed;

/* A finding's state against the known ones, SARIF's baselineState (the fixed are absent). */
#define SUNSET_STATE_NEW 0
#define SUNSET_STATE_UNCHANGED 1
#define SUNSET_STATE_UPDATED 2 /* moved: same rule, text and scope elsewhere */

typedef struct sunset_gate {
    const char *against;        /* "baseline FILE", "REV", "FILE list" ...; for humans */
    sunset_severity threshold;  /* new findings at or above it fail the gate */
    size_t n_new, n_failing, n_suppressed, n_unchanged, n_moved;
    const sunset_fixed *fixed; size_t n_fixed;
    size_t new_by_task[SUNSET_TASKS], fixed_by_task[SUNSET_TASKS];
    size_t suppressed_by_task[SUNSET_TASKS], open_by_task[SUNSET_TASKS];
    bool open_known;            /* open_by_task is meaningful */
    bool list_unused;           /* the result's unused suppressions were asked for */
    bool updated;               /* --update-baseline rewrote the baseline */
    const unsigned char *states; /* per finding of the result: a SUNSET_STATE_*; NULL = every
                                  * finding is new (the result holds only the new ones); borrowed */
    size_t baseline_before, baseline_after;
} sunset_gate;

/* Every counter of sunset_stats, listed once: X(field, kind, group, key). kind:
 * SUNSET_STAT_WALK  set by the walk (each shard repeats it; `merge` takes the first shard's),
 * SUNSET_STAT_SEEN  files found by the walk (summed over shards),
 * SUNSET_STAT_FILE  counted per file by the workers (summed over workers and shards),
 * SUNSET_STAT_CACHE per file too, and replayed from a cache entry (src/core/cache.c).
 * group and key place it in the JSON document's "stats": 0 at the top, 1 inside "skipped",
 * 2 after "by_severity" (README "JSON output"); the order here is the document's order.
 * Adding a counter is one line here: the workers' sums, the cache, the JSON writer and
 * `merge` all iterate this list. */
#define SUNSET_STAT_WALK 0
#define SUNSET_STAT_SEEN 1
#define SUNSET_STAT_FILE 2
#define SUNSET_STAT_CACHE 3
#define SUNSET_STATS_COUNTERS(X)                                        \
    X(files_seen, SUNSET_STAT_SEEN, 0, "files_seen")                    \
    X(files_scanned, SUNSET_STAT_CACHE, 0, "files_scanned")             \
    X(files_parsed, SUNSET_STAT_CACHE, 0, "files_parsed")               \
    X(files_prefiltered, SUNSET_STAT_CACHE, 0, "files_prefiltered")     \
    X(skipped_binary, SUNSET_STAT_FILE, 1, "binary")                    \
    X(skipped_generated, SUNSET_STAT_FILE, 1, "generated")              \
    X(skipped_too_large, SUNSET_STAT_FILE, 1, "too_large")              \
    X(skipped_unreadable, SUNSET_STAT_FILE, 1, "unreadable")            \
    X(skipped_no_language, SUNSET_STAT_CACHE, 1, "no_language")         \
    X(skipped_parse_failed, SUNSET_STAT_CACHE, 1, "parse_failed")       \
    X(ignored, SUNSET_STAT_WALK, 1, "ignored")                          \
    X(excluded, SUNSET_STAT_WALK, 1, "excluded")                        \
    X(symlinks_skipped, SUNSET_STAT_WALK, 1, "symlinks")                \
    X(warnings, SUNSET_STAT_CACHE, 2, "warnings")                       \
    X(bytes_read, SUNSET_STAT_FILE, 2, "bytes_read")

typedef struct sunset_stats {
#define SUNSET_STAT_FIELD(field, kind, group, key) size_t field;
    SUNSET_STATS_COUNTERS(SUNSET_STAT_FIELD)
#undef SUNSET_STAT_FIELD
    double elapsed_ms;
    int jobs;
} sunset_stats;

typedef struct sunset_family_title {
    const char *id, *title; /* borrowed from the rule set */
} sunset_family_title;

/* A rule as SARIF's tool.driver.rules[] describes it. */
typedef struct sunset_rule_info {
    const char *id, *family, *message, *fix; /* borrowed */
    int task;
    sunset_severity severity; /* in code (comments and docs may lower it) */
} sunset_rule_info;

typedef struct sunset_result {
    char *root;                 /* as given on the command line; owned */
    sunset_finding *findings;
    size_t n_findings, cap_findings;
    char **warnings;            /* "PATH:LINE:COL: warning: ..." lines; owned */
    size_t n_warnings, cap_warnings;
    sunset_stats stats;
    const sunset_family_title *families; /* in the settings pack's order; borrowed */
    size_t n_families;
    sunset_unused *unused;      /* unused/expired suppressions, unsorted; owned */
    size_t n_unused, cap_unused;
    sunset_skip *skipped;       /* files read but not analysed, unsorted; owned */
    size_t n_skipped, cap_skipped;
} sunset_result;

void sunset_result_free(sunset_result *r); /* frees the members; r itself is the caller's */

/* Append a copy of f to r: the rule strings (rule_id, family, message, fix) stay borrowed,
 * every owned member (path, matched, snippet, enc_kind, enc_name, justification, chain) is
 * duplicated, so f itself only borrows. path and matched must be set.
 * Returns the finding inside r (valid until r next grows), or NULL on OOM with r unchanged.
 * The only function that builds a finding. */
sunset_finding *sunset_result_add(sunset_result *r, const sunset_finding *f);

/* Frees f's owned members and zeroes f. NULL is a no-op. The only function that frees one. */
void sunset_finding_free(sunset_finding *f);

/* Drops (and frees) the findings from index n on: undoes a partial append. */
void sunset_result_truncate(sunset_result *r, size_t n);

/* Keeps the findings i with keep[i], in order, and frees the others. */
void sunset_result_keep(sunset_result *r, const bool *keep);

/* A copy of line appended to r's warnings, counted in stats.warnings. 0, or -1 on OOM. */
int sunset_result_add_warning(sunset_result *r, const char *line);

/* An unused or expired suppression; path and what are copied. 0, or -1 on OOM. */
int sunset_result_add_unused(sunset_result *r, const char *path, uint32_t line, const char *what);

/* A skipped file and why; path and what are copied. 0, or -1 on OOM. */
int sunset_result_add_skip(sunset_result *r, const char *path, uint32_t line, const char *what);

/* Moves src's findings, warnings, unused and skip entries to the end of dst and adds src's
 * per-file counters (SUNSET_STAT_FILE) to dst's stats. On OOM nothing is moved and -1 is
 * returned; src keeps what it had. src's stats are left as they were. */
int sunset_result_absorb(sunset_result *dst, sunset_result *src);

/* dst += src for the counters of one kind (SUNSET_STAT_WALK or SUNSET_STAT_FILE). */
void sunset_stats_add(sunset_stats *dst, const sunset_stats *src, int kind);

/* Sorts findings (path, line, column, rule), warnings and unused entries. */
void sunset_result_sort(sunset_result *r);

/* sunset_result_sort, then every fingerprint (README "Fingerprints"). Call once all
 * findings are in. */
void sunset_result_finish(sunset_result *r);

#endif
