/*
 * report.h — what a scan produces, as report writers see it (public tier: src/report/*.c
 * include this and sunset.h/util.h only). Findings are sorted by path, line, column, rule
 * before any writer runs, so every output is independent of the thread count.
 */
#ifndef SUNSET_REPORT_H
#define SUNSET_REPORT_H

#include <stdbool.h>
#include "sunset.h"
#include "util.h"

typedef struct sunset_finding {
    const char *rule_id, *family, *message, *fix; /* borrowed from the rule set */
    int task;
    sunset_severity severity;
    sunset_context ctx;
    char *path;                /* root-relative; owned by the result */
    sunset_span span;
    bool test;                 /* the file is a test (settings.test_paths) */
    char *matched;             /* the matched text, whitespace-normalised; owned */
    char *snippet;             /* the source line holding span.line; owned */
    char *enc_kind, *enc_name; /* innermost enclosing scope, NULL when none; owned */
    uint32_t enc_start, enc_end;
    char fingerprint[17];      /* 16 hex digits; see README "Fingerprints" */
} sunset_finding;

typedef struct sunset_stats {
    size_t files_seen;          /* found by the walk (after ignore/exclude) */
    size_t files_scanned;       /* read and checked against the rules */
    size_t files_parsed;        /* passed the prefilter and went through a frontend */
    size_t files_prefiltered;   /* read, but no literal of any rule occurs: not parsed */
    size_t skipped_binary, skipped_generated, skipped_too_large, skipped_unreadable;
    size_t skipped_no_language, skipped_parse_failed;
    size_t ignored, excluded, symlinks_skipped;
    size_t warnings;
    size_t bytes_read;
    double elapsed_ms;
    int jobs;
} sunset_stats;

typedef struct sunset_family_title {
    const char *id, *title; /* borrowed from the rule set */
} sunset_family_title;

typedef struct sunset_result {
    char *root;                 /* as given on the command line; owned */
    sunset_finding *findings;
    size_t n_findings, cap_findings;
    char **warnings;            /* "PATH:LINE:COL: warning: ..." lines; owned */
    size_t n_warnings, cap_warnings;
    sunset_stats stats;
    const sunset_family_title *families; /* in the settings pack's order; borrowed */
    size_t n_families;
} sunset_result;

void sunset_result_free(sunset_result *r); /* frees the members; r itself is the caller's */

typedef struct sunset_output_opts {
    bool color;     /* ANSI colour in text output */
    bool summary;   /* the closing summary in text output */
    bool snippets;  /* source line and caret under each text finding */
} sunset_output_opts;

/* A report writer appends the whole document to *out. Returns 0, or -1 on OOM. */
typedef int (*sunset_writer_fn)(const sunset_result *r, const sunset_output_opts *o, sb *out);

typedef struct sunset_writer {
    const char *name; /* the --format value */
    sunset_writer_fn write;
} sunset_writer;

/* The registry (src/report/registry.c): NULL when no writer has that name. */
const sunset_writer *sunset_writer_find(const char *name);
/* "text, json, ..." for messages and --help. */
const char *sunset_writer_names(void);

#endif
