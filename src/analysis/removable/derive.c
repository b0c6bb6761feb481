/*
 * derive.c — the derived findings of `scan --derive`: one per item of the plan that is legacy
 * only by propagation (files, classes, targets, flags, passes; not the import lines and
 * registrations, which are consequences of removing them). Each takes its family and task
 * from its chain's seed rule, and its `test` flag from its own path by settings.test_paths,
 * exactly as the engine decides `test` for the findings it makes.
 */
#include "analysis/removable/rm_int.h"

#include "core/rules_int.h"

#include <string.h>

/* Is path a test (settings.test_paths), as the engine decides for ordinary findings? */
static bool is_test_path(const sunset_ruleset *rs, pcre2_match_data *md, const char *path) {
    for (size_t i = 0; rs && i < rs->test_paths.n; i++)
        if (re_search(VEC_AT(&rs->test_paths, pcre2_code *, i), path, strlen(path), 0, md, NULL, NULL)) return true;
    return false;
}

static void finding_free(sunset_finding *f) {
    sunset_free(f->path);
    sunset_free(f->matched);
    sunset_free(f->snippet);
    sunset_free(f->chain);
    sunset_free(f->enc_kind);
    sunset_free(f->enc_name);
}

/* The finding for item it, whose seed rule is r. Returns 0, -1 on OOM (f then holds nothing). */
static int derived_finding(const rm_item *it, const sunset_rule_info *r, bool test, rm_chain_writer write,
                           sunset_finding *f) {
    memset(f, 0, sizeof *f);
    f->rule_id = "DERIVED";
    f->family = r->family;
    f->task = r->task;
    f->message = it->kind == RM_FILE ? "legacy across files: the whole file only serves legacy code"
                                     : "legacy across files: only serves legacy code";
    f->fix = it->live ? "migrate its live callers first (sunset removable lists them)"
                      : "remove it (sunset removable --patch for whole files)";
    f->severity = SUNSET_SEV_WARNING;
    f->ctx = SUNSET_CTX_CODE;
    f->span = (sunset_span){it->line, 1, it->line, 1};
    f->test = test;
    f->derived = true;
    f->path = rm_dupz(it->path);
    f->matched = rm_dupz(it->name ? it->name : it->path);
    f->snippet = rm_dupz("");
    sb chain = {0};
    if (it->live) sb_puts(&chain, "[live] ");
    if (write(&chain, it->steps, it->n_steps) || chain.oom) sb_free(&chain);
    f->chain = sb_take(&chain);
    if (it->kind != RM_FILE) {
        f->enc_kind = rm_dupz(rm_kind_name(it->kind));
        f->enc_name = it->name ? rm_dupz(it->name) : NULL;
        f->enc_start = it->line;
        f->enc_end = it->end;
    }
    if (!f->path || !f->matched || !f->snippet || !f->chain || (it->kind != RM_FILE && (!f->enc_kind || !f->enc_name))) {
        finding_free(f);
        return -1;
    }
    return 0;
}

int rm_plan_derived_findings(const rm_plan *p, const sunset_ruleset *rs, rm_chain_writer write, sunset_result *res) {
    pcre2_match_data *md = pcre2_match_data_create(1, NULL);
    if (!md) return -1;
    int rc = -1;
    for (size_t i = 0; i < p->n_items; i++) {
        const rm_item *it = &p->items[i];
        if (!it->derived || !it->n_steps || it->kind == RM_IMPORT || it->kind == RM_REGISTRATION) continue;
        /* the seed rule as the rule set defines it: its family and task */
        const char *seed = rm_chain_seed(it->steps, it->n_steps);
        const sunset_rule *rule = seed && rs ? sunset_ruleset_find(rs, seed) : NULL;
        if (!rule) continue;
        sunset_rule_info r = {.family = rule->family, .task = rule->task};
        if (res->n_findings == res->cap_findings) {
            size_t cap = res->cap_findings ? res->cap_findings * 2 : 64;
            sunset_finding *v = sunset_realloc(res->findings, cap * sizeof *v);
            if (!v) goto cleanup;
            res->findings = v;
            res->cap_findings = cap;
        }
        /* the item's own path decides, as for every finding; not the seed's */
        if (derived_finding(it, &r, is_test_path(rs, md, it->path), write, &res->findings[res->n_findings]))
            goto cleanup;
        res->n_findings++;
    }
    rc = 0;
cleanup:
    pcre2_match_data_free(md);
    return rc;
}
