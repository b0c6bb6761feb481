/*
 * baseline.h — known findings and the baseline file (src/analysis/baseline.c). A known finding is a
 * baseline entry or a finding of a file as it was at the diff base; the gate (src/analysis/gate.c)
 * matches today's findings against a set of them.
 */
#ifndef SUNSET_BASELINE_H
#define SUNSET_BASELINE_H

#include <stdbool.h>
#include "core/result.h"

#define SUNSET_DEFAULT_BASELINE ".sunset-baseline.json"
/* 2: fingerprints hash the finding's context kind and entries record it ("context"); a
 * version-1 baseline is refused with the command that regenerates it. */
#define SUNSET_BASELINE_VERSION 2

/* One sunset_known finding: a baseline entry or a finding of the file at REV. */
typedef struct sunset_known {
    char *rule, *path, *matched, *scope, *fp; /* owned */
    uint32_t line;
    int task;
    sunset_context ctx;  /* code, comment, string ...: part of the fingerprint and the move key */
    bool in_scope;       /* may be matched as moved, and counts as fixed when unseen */
    bool seen;
    const sunset_finding *now; /* the current finding that matched it */
} sunset_known;

typedef struct sunset_known_set {
    sunset_known *v;
    size_t n, cap;
} sunset_known_set;

/* Frees every entry and the array; k is left empty. */
void sunset_known_set_free(sunset_known_set *k);
/* A zeroed entry appended to k (owned by k), or NULL on OOM. */
sunset_known *sunset_known_push(sunset_known_set *k);
/* An entry copied from f. 0, or -1 on OOM. */
int sunset_known_add_finding(sunset_known_set *k, const sunset_finding *f, bool in_scope);

/* Load FILE into k. Returns EXIT_USAGE (2) with "FILE:LINE:COL: message" or "FILE:
 * findings[i]: message" in err when it cannot be read or is not a baseline; 0 when loaded. */
int sunset_baseline_load(const char *file, sunset_known_set *k, sunset_error *err);
/* The same from text already read (a blob at the diff base); file names it in messages. */
int sunset_baseline_load_text(const char *file, const char *data, size_t len, sunset_known_set *k,
                              sunset_error *err);
/* Write entries (sorted here, duplicates by fingerprint dropped) to FILE atomically; *written
 * gets the count. 0, or EXIT_USAGE with a message in err. */
int sunset_baseline_write(const char *file, sunset_known *v, size_t n, size_t *written, sunset_error *err);

/* Load FILE as a baseline and drop it (the fuzz harness): EXIT_OK, or EXIT_USAGE (the message
 * dropped). */
int sunset_baseline_check_file(const char *file);

#endif
