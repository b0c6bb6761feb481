/*
 * engine_life.c — an engine's making and freeing (its frontends started once, the prefilters
 * of each language's literals, the families' titles), and which rules the scanned tree turns
 * off. The scan itself is engine.c.
 */
#include "core/engine_int.h"

#include <stdio.h>
#include <string.h>

#include "core/anchor.h"
#include "core/suppress.h"

/* Which rules does the tree turn off ("unless.tree_without": none of its paths exists)? The
 * paths are looked up as settings.anchor.tree's are: by exists, or under root and its parents
 * up to the top of its git work tree. No tree (NULL root, an in-memory scan of none) turns
 * nothing off: absence is evidence only where a tree was looked at. */
void engine_set_tree_off(sunset_engine *e, const char *root, bool (*exists)(void *, const char *),
                         void *ud) {
    e->tree_off_key = 0;
    if (!e->tree_off) return;
    for (size_t i = 0; i < e->n_rules; i++) {
        const sunset_rule *r = VEC_AT(&e->rs->rules, sunset_rule *, i);
        e->tree_off[i] = 0;
        if (!r->unless_tree_without.n) continue;
        sunset_anchor a = {.on = true, .tree = r->unless_tree_without};
        if (exists || (root && *root))
            e->tree_off[i] = !(exists ? anchor_tree_by(&a, exists, ud) : anchor_tree(&a, root, e->o->tree_top));
        if (!e->tree_off[i]) e->tree_off_key = hash64(r->id, strlen(r->id), e->tree_off_key + 1);
    }
}

/* ---- engine lifetime ---- */

sunset_engine *sunset_engine_new(const sunset_ruleset *rs, const sunset_engine_opts *o,
                                 sunset_error *err) {
    sunset_engine *e = sunset_calloc(1, sizeof *e);
    if (!e) {
        snprintf(err->msg, sizeof err->msg, "out of memory");
        return NULL;
    }
    e->rs = rs;
    e->o = o;
    e->xflows = VEC_INIT(xflow *);
    e->tree_anchored = anchor_tree(&rs->anchor, o->tree_root, o->tree_top);
    e->n_rules = rs->rules.n;
    if (!(e->tree_off = sunset_calloc(e->n_rules ? e->n_rules : 1, 1))) {
        snprintf(err->msg, sizeof err->msg, "out of memory");
        sunset_free(e);
        return NULL;
    }
    engine_set_tree_off(e, o->tree_root, NULL, NULL);
    for (int l = 0; l < SUNSET_LANG_COUNT; l++) e->fe_of_lang[l] = -1;
    sunset_frontend_config cfg = {rs, o->queries_dir, o->compile_db_dir, NULL, o->parse_budget_ms, o->lazy_queries};
    if (o->n_frontends > N_FRONTENDS) {
        snprintf(err->msg, sizeof err->msg, "%zu frontends, the engine holds at most %d", o->n_frontends,
                 N_FRONTENDS);
        sunset_engine_free(e);
        return NULL;
    }
    for (size_t i = 0; i < o->n_frontends; i++) {
        const sunset_frontend *fe = o->frontends[i];
        if (fe->abi != SUNSET_FRONTEND_ABI) {
            snprintf(err->msg, sizeof err->msg, "frontend %s: ABI %u, engine wants %u", fe->name,
                     fe->abi, SUNSET_FRONTEND_ABI);
            sunset_engine_free(e);
            return NULL;
        }
        bool needed = false;
        for (const sunset_lang *l = fe->langs; *l; l++)
            if (rs->lang_has_rules[*l]) needed = true;
        if (!needed) continue;
        if (fe->init(&cfg, &e->fe_state[i], err) != 0) {
            sunset_engine_free(e);
            return NULL;
        }
        for (const sunset_lang *l = fe->langs; *l; l++) e->fe_of_lang[*l] = (int)i;
    }
    const char *marker = SUNSET_SUPPRESS_MARKER;
    if (!(e->marker = prefilter_new(&marker, 1))) {
        snprintf(err->msg, sizeof err->msg, "out of memory");
        sunset_engine_free(e);
        return NULL;
    }
    for (int l = 1; l < SUNSET_LANG_COUNT; l++) {
        const vec *lits = &rs->literals[l];
        e->pf[l] = prefilter_new((const char *const *)lits->v, lits->n);
        if (!e->pf[l]) {
            snprintf(err->msg, sizeof err->msg, "out of memory");
            sunset_engine_free(e);
            return NULL;
        }
    }
    e->families = sunset_calloc(rs->families.n ? rs->families.n : 1, sizeof *e->families);
    if (!e->families) {
        snprintf(err->msg, sizeof err->msg, "out of memory");
        sunset_engine_free(e);
        return NULL;
    }
    for (size_t i = 0; i < rs->families.n; i++) {
        e->families[i].id = VEC_AT(&rs->families, family_info, i).id;
        e->families[i].title = VEC_AT(&rs->families, family_info, i).title;
    }
    return e;
}

void sunset_engine_free(sunset_engine *e) {
    if (!e) return;
    for (size_t i = 0; i < N_FRONTENDS; i++)
        if (e->fe_state[i]) e->o->frontends[i]->fini(e->fe_state[i]);
    for (int l = 0; l < SUNSET_LANG_COUNT; l++) prefilter_free(e->pf[l]);
    prefilter_free(e->marker);
    for (size_t i = 0; i < e->xflows.n; i++) xflow_free(VEC_AT(&e->xflows, xflow *, i));
    vec_free(&e->xflows);
    sunset_free(e->families);
    sunset_free(e->tree_off);
    sunset_free(e);
}

