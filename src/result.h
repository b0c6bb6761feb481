/*
 * result.h — the one owner of a scan result's contents (src/result.c). Every finding,
 * warning and unused-suppression entry enters a result through a function here, and only
 * this module grows, moves, filters, sorts, fingerprints and frees them. Writers read the
 * result through report.h and never change it.
 */
#ifndef SUNSET_RESULT_H
#define SUNSET_RESULT_H

#include <stdbool.h>
#include "report.h"

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

/* Moves src's findings, warnings and unused entries to the end of dst and adds src's
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
