/*
 * recorder.h — a stand-in for the engine's sink, for frontend unit tests. A test links a
 * frontend with recorder.c instead of the engine: every fact, text, scope, match and warning
 * the frontend emits is recorded as a flat record that the test can search.
 */
#ifndef SUNSET_TEST_RECORDER_H
#define SUNSET_TEST_RECORDER_H

#include "../sunset.h"

typedef enum rec_type { REC_FACT, REC_TEXT, REC_MATCH, REC_SCOPE, REC_WARN } rec_type;

typedef struct rec {
    rec_type type;
    sunset_fact_kind kind;   /* REC_FACT */
    sunset_context ctx;      /* REC_FACT, REC_TEXT, REC_MATCH */
    sunset_span span;
    sunset_span stmt;        /* REC_FACT, REC_TEXT (strings): the statement the fact sits in */
    sunset_span block;       /* REC_FACT: a BIND's block */
    unsigned flags;
    char *text, *aux, *target, *section, *qual; /* owned copies; NULL when absent */
    const sunset_rule *rule; /* REC_MATCH */
    sunset_str_use use;      /* REC_TEXT of a code string (sunset_emit_string) */
    int arg;                 /* its argument position when use is SUNSET_USE_ARG */
} rec;

struct sunset_sink {
    rec *recs;
    size_t n, cap;
};

/* A fake rule set holding query rules for tests of frontends that evaluate them. */
struct sunset_rule {
    const char *id, *query, *capture;
    sunset_lang lang;
};
struct sunset_ruleset {
    const struct sunset_rule *rules;
    size_t n;
};

void rec_reset(sunset_sink *s);
/* The prefilter the recorder stands for (sunset_sink_may_match): NULL, the default, lets
 * every text through; else only a text holding this literal. */
extern const char *rec_may_match_literal;
/* What sunset_sink_part_suffices answers (default true), and the sunset_sink_restart calls. */
extern bool rec_part_suffices;
extern int rec_restarts;
/* The statements a frontend left to be asked (sunset_emit_lazy, sunset_emit_string_lazy): the
 * recorder asks each at once and records it as the fact's stmt. */
extern int rec_lazy_stmts;
/* First record of `type` (and fact `kind` for REC_FACT) whose text equals `text` (NULL = any),
 * or NULL. */
const rec *rec_find(const sunset_sink *s, rec_type type, sunset_fact_kind kind, const char *text);
size_t rec_count(const sunset_sink *s, rec_type type, sunset_fact_kind kind, const char *text);
/* Print every record to stderr (for debugging a failing test). */
void rec_dump(const sunset_sink *s);

#endif
