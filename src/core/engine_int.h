/*
 * engine_int.h — the engine's own state, shared by engine.c (the scan) and engine_life.c
 * (making and freeing an engine). Private to core/, like rules_int.h.
 */
#ifndef SUNSET_ENGINE_INT_H
#define SUNSET_ENGINE_INT_H

#include "core/engine.h"
#include "core/prefilter.h"
#include "core/rules_int.h"
#include "core/xflow.h"

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

/* Which rules the tree turns off (engine_life.c); root NULL with exists, or exists NULL. */
void engine_set_tree_off(sunset_engine *e, const char *root, bool (*exists)(void *, const char *), void *ud);

#endif
