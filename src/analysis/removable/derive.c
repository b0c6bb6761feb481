/*
 * derive.c — the derived findings of `scan --derive`: one per item of the plan that is legacy
 * only by propagation (files, classes, targets, flags, passes; not the import lines and
 * registrations, which are consequences of removing them). Each takes its family and task
 * from its chain's seed rule, and its `test` flag from its own path by settings.test_paths,
 * exactly as the engine decides `test` for the findings it makes.
 */
#include "analysis/removable/rm_int.h"

#include "core/ruleset.h"

#include <string.h>

/* Appends the finding for item it, whose seed rule is r, to res. Returns 0, -1 on OOM. */
static int add_derived(const rm_item *it, const sunset_rule_info *r, bool test, rm_chain_writer write,
                       sunset_result *res) {
    sb chain = {0};
    if (it->live) sb_puts(&chain, "[live] ");
    if (write(&chain, it->steps, it->n_steps) || chain.oom) {
        sb_free(&chain);
        return -1;
    }
    sunset_finding f = {
        .rule_id = "DERIVED", .family = r->family, .task = r->task,
        .message = it->kind == RM_FILE ? "legacy across files: the whole file only serves legacy code"
                                       : "legacy across files: only serves legacy code",
        .fix = it->live ? "migrate its live callers first (sunset removable lists them)"
                        : "remove it (sunset removable --patch for whole files)",
        .severity = SUNSET_SEV_WARNING, .ctx = SUNSET_CTX_CODE, .span = {it->line, 1, it->line, 1},
        .test = test, .derived = true, .path = it->path, .matched = it->name ? it->name : it->path,
        .snippet = "", .chain = chain.s ? chain.s : "",
    };
    if (it->kind != RM_FILE) {
        f.enc_kind = (char *)rm_kind_name(it->kind);
        f.enc_name = it->name ? it->name : "";
        f.enc_start = it->line;
        f.enc_end = it->end;
    }
    int rc = sunset_result_add(res, &f) ? 0 : -1;
    sb_free(&chain);
    return rc;
}

int rm_plan_derived_findings(const rm_plan *p, const sunset_ruleset *rs, rm_chain_writer write, sunset_result *res) {
    pcre2_match_data *md = sunset_re_match_data(1);
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
        /* the item's own path decides, as for every finding; not the seed's */
        if (add_derived(it, &r, sunset_ruleset_is_test_path(rs, it->path, md), write, res)) goto cleanup;
    }
    rc = 0;
cleanup:
    pcre2_match_data_free(md);
    return rc;
}
