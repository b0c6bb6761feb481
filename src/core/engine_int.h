/*
 * engine_int.h — private to the scan engine, like rules_int.h: the engine, a worker, the sink a
 * frontend reports to and a file's candidates, shared by src/core/engine.c (the scan),
 * src/core/finish.c (a file's findings) and src/core/engine_life.c (making and freeing an
 * engine), and what they share of each other.
 */
#ifndef SUNSET_ENGINE_INT_H
#define SUNSET_ENGINE_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "core/engine.h"
#include "core/flow.h"
#include "core/prefilter.h"
#include "core/rules_int.h"
#include "core/xflow.h"

#define DEFAULT_MAX_FILE SUNSET_DEFAULT_MAX_FILE

/* One slot per frontend the session handed over (sunset_engine_opts.frontends), in its order. */
#define N_FRONTENDS SUNSET_MAX_FRONTENDS

struct sunset_engine {
    const sunset_ruleset *rs;
    const sunset_engine_opts *o;
    void *fe_state[N_FRONTENDS];
    int fe_of_lang[SUNSET_LANG_COUNT]; /* index into frontends, -1 = none */
    prefilter *pf[SUNSET_LANG_COUNT];
    prefilter *marker;                 /* SUNSET_SUPPRESS_MARKER alone (see scan_one) */
    size_t n_rules;
    sunset_family_title *families;
    bool tree_anchored; /* the scanned tree is Paddle's own (settings.anchor.tree) */
    unsigned char *tree_off; /* per rule: 1 = its "unless.tree_without" holds in the scanned tree */
    uint64_t tree_off_key;   /* for the content cache: a hash of the rules with "unless.tree_without"
                                the tree keeps on (one of their paths exists); 0 = none. A tree
                                with none of the paths, like one that never heard of them, keeps
                                the plain key */
    xflow *xf;          /* this scan's cross-module flow (core/xflow.c); NULL = none */
    vec xflows;         /* xflow *: every scan's, kept while the cache may hold their texts */
};

typedef struct cand {
    const sunset_rule *rule;
    sunset_span span;
    sunset_context ctx;
    char *matched;
    sunset_span stmt; /* the statement holding the match; all 0 = none */
    bool embedded;    /* from a document's embedded code (scan_embedded) */
    bool code_string; /* a string that code uses (sunset_string_is_code) */
} cand;

typedef struct scope {
    char *kind, *name;
    uint32_t start, end;
} scope;

typedef struct worker {
    sunset_engine *e;
    void *fe_worker[N_FRONTENDS];
    pcre2_match_data *md;
    signed char *rule_ok; /* per rule: -1 unknown, 0/1 = path filters for the current file */
    sb readbuf;           /* the file being scanned; reused for every file of this worker */
    sunset_result res;
    const char *premarks; /* the names another module binds (xflow_importers): a second scan */
    /* the current file as the git index vouches for it (sunset_engine_opts.blob_ids): its
     * blob id and stamp (0: not vouched), the bytes read, and whether its index entry was
     * taken already (scan_vouched) */
    uint64_t blob, stamp;
    size_t raw_len;
    bool indexed;
    bool moot; /* a second scan found needless (xflow_rescan_moot): the first's findings stand */
} worker;

struct sunset_sink {
    worker *w;
    const sunset_source *src;
    vec cands;  /* cand */
    vec scopes; /* scope */
    bool capped;        /* MAX_FILE_CANDS reached: later matches dropped */
    bool has_marker;    /* the file holds SUNSET_SUPPRESS_MARKER (searched once, in scan_one) */
    uint32_t at_line;   /* line cursor (seek_line): `at` is the start of line at_line */
    const char *at;
    sunset_span stmt;   /* the statement of the fact being matched (sunset_emit), else 0 */
    sunset_stmt_fn stmt_fn; /* non-NULL: stmt is still to be asked of the frontend (sunset_emit_lazy) */
    void *stmt_ud;
    uint32_t stmt_line; /* the line the fact or text being matched starts on */
    bool code_string;   /* the string being matched is one code uses (sunset_emit_string) */
    /* code_string still to be asked (sunset_string_is_code of these): asked by the first
     * candidate of the string, since most strings give none and the callee globs cost */
    bool code_pending;
    sunset_str_use code_use;
    const char *code_call;
    int code_arg;
    sb *exports;        /* the file's exports for core/xflow.c, when it notes them */
    bool embedded;      /* scanning a document's embedded code (scan_embedded) */
    bool anchored;      /* the file is tied to Paddle (core/anchor.c); sticky, since the facts
                           that tied it come again after a restart */
    flow_file *flow;    /* legacy-object flow (core/flow.c) when the language has flow rules;
                           owned, freed by finish_file */
    sunset_lang flow_lang; /* whose flow rules: the file's, or its embedded code's */
    /* what the file had before its frontend ran (sunset_sink_restart goes back to it) */
    size_t fe_cands, fe_warnings;
    bool fe_capped;
};

/* Per-file bound on matches. A pathological file (16 MB of "ParallelExecutor") would
 * otherwise hold a worker's memory without limit and make finishing the file quadratic;
 * beyond this the rest of the file is not reported, with a warning naming it. */
#define MAX_FILE_CANDS 10000

/* Which rules the tree turns off (engine_life.c); root NULL with exists, or exists NULL. */
void engine_set_tree_off(sunset_engine *e, const char *root, bool (*exists)(void *, const char *), void *ud);

/* engine.c */
void engine_warnf(worker *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void engine_add_cand(sunset_sink *s, const sunset_rule *r, sunset_span span, sunset_context ctx, const char *text,
                     size_t len);
const char *engine_seek_line(sunset_sink *s, uint32_t line);
/* finish.c: the file's candidates reduced to findings in the worker's result; false when
 * the result must not be cached (it depends on the day: a sunset-ignore until= date). */
bool engine_finish_file(sunset_sink *s);

#endif
