/*
 * gate.c — the gate's judgement: today's findings against the known ones.
 *
 * Fingerprints never contain line numbers, and matching is per finding, so a fix and a
 * regression in one file never cancel. Four steps, each its own function: known by
 * fingerprint, then the rest classified as moved, unchanged or new, then the fixed (known in
 * scope, claimed by nobody), then the open count per task.
 */
#include "analysis/gate.h"

#include <stdlib.h>
#include <string.h>

#include "core/suppress.h"

static int task_slot(int t) { return t >= 0 && t < SUNSET_TASKS ? t : 0; }

static int cmp_known_fp(const void *x, const void *y) {
    return strcmp((*(sunset_known *const *)x)->fp, (*(sunset_known *const *)y)->fp);
}

/* Key for moves: rule, matched text, context kind and enclosing scope — not the path. Code
 * never moves from a comment or a string. */
static bool same_move_key(const sunset_known *k, const sunset_finding *f) {
    if (strcmp(k->rule, f->rule_id) || strcmp(k->matched, f->matched) || k->ctx != f->ctx)
        return false;
    if (!k->scope || !f->enc_kind) return !k->scope && !f->enc_kind;
    size_t kl = strlen(f->enc_kind);
    return strncmp(k->scope, f->enc_kind, kl) == 0 && k->scope[kl] == ' ' &&
           strcmp(k->scope + kl + 1, f->enc_name ? f->enc_name : "") == 0;
}

/* 1. known by fingerprint: is_known[i], and every known entry it matches marked seen. */
static int match_known(sunset_gate_run *run, bool *is_known) {
    sunset_known_set *ks = run->known;
    sunset_known **byfp = sunset_calloc(ks->n ? ks->n : 1, sizeof *byfp);
    if (!byfp) return -1;
    for (size_t i = 0; i < ks->n; i++) byfp[i] = &ks->v[i];
    if (ks->n) qsort(byfp, ks->n, sizeof *byfp, cmp_known_fp);
    for (size_t i = 0; i < run->cur->n_findings; i++) {
        const sunset_finding *f = &run->cur->findings[i];
        sunset_known key = {.fp = (char *)f->fingerprint}, *kp = &key;
        sunset_known **hit = ks->n ? bsearch(&kp, byfp, ks->n, sizeof *byfp, cmp_known_fp) : NULL;
        if (!hit) continue;
        while (hit > byfp && strcmp(hit[-1]->fp, f->fingerprint) == 0) hit--;
        for (; hit < byfp + ks->n && strcmp((*hit)->fp, f->fingerprint) == 0; hit++) {
            (*hit)->seen = true;
            (*hit)->now = f;
        }
        is_known[i] = true;
    }
    sunset_free(byfp);
    return 0;
}

/* Does the change add or edit a line of f: its own lines, or any line of the whole statement
 * holding it (a legacy call's argument two lines below the call is part of the change)? */
static bool touches(const diff_file *df, const sunset_finding *f) {
    uint32_t a = f->span.line, b = f->span.end_line > a ? f->span.end_line : a;
    if (f->stmt.line && f->stmt.line < a) a = f->stmt.line;
    if (f->stmt.end_line > b) b = f->stmt.end_line;
    for (uint32_t l = a; l <= b; l++)
        if (diff_line_added(df, l)) return true;
    return false;
}

/* The vanished in-scope known finding f moved from, or NULL. */
static sunset_known *moved_from(sunset_known_set *ks, const sunset_finding *f, bool on_added, bool diff) {
    for (size_t k = 0; k < ks->n; k++)
        if (ks->v[k].in_scope && !ks->v[k].seen && same_move_key(&ks->v[k], f)) return &ks->v[k];
    if (on_added || !diff) return NULL;
    /* an untouched line whose fingerprint changed (its scope was renamed above it): not new;
     * it takes the vanished finding of the same rule and text in its file */
    for (size_t k = 0; k < ks->n; k++) {
        sunset_known *e = &ks->v[k];
        if (e->in_scope && !e->seen && e->ctx == f->ctx && !strcmp(e->path, f->path) &&
            !strcmp(e->rule, f->rule_id) && !strcmp(e->matched, f->matched))
            return e;
    }
    return NULL;
}

/* The vanished in-scope known finding of f's file, rule and text in another context kind (a
 * comment uncommented, or a block comment's or docstring's delimiters deleted around an
 * untouched line), or NULL. */
static sunset_known *recontexted(sunset_known_set *ks, const sunset_finding *f) {
    for (size_t k = 0; k < ks->n; k++) {
        sunset_known *e = &ks->v[k];
        if (e->in_scope && !e->seen && e->ctx != f->ctx && !strcmp(e->path, f->path) &&
            !strcmp(e->rule, f->rule_id) && !strcmp(e->matched, f->matched))
            return e;
    }
    return NULL;
}

/* 2. the rest: moved, unchanged (not on an added line) or new. */
static void classify(sunset_gate_run *run, const bool *is_known, sunset_gate *g) {
    const diff_file *df = NULL;
    const diff_set *ds = run->diff;
    for (size_t i = 0; i < run->cur->n_findings; i++) {
        const sunset_finding *f = &run->cur->findings[i];
        bool own = strcmp(f->rule_id, SUNSET_GATE_RULE) == 0; /* new by construction */
        if (is_known[i] && !own) {
            g->n_unchanged++;
            run->state[i] = SUNSET_STATE_UNCHANGED;
            continue;
        }
        bool on_added = true;
        if (ds && !own) {
            if (!df || !df->path || strcmp(df->path, f->path)) {
                df = NULL;
                for (size_t k = 0; k < ds->n && !df; k++)
                    if (ds->files[k].path && strcmp(ds->files[k].path, f->path) == 0) df = &ds->files[k];
            }
            on_added = df && touches(df, f);
        }
        sunset_known *mv = own ? NULL : moved_from(run->known, f, on_added, ds != NULL);
        if (mv) {
            mv->seen = true;
            mv->now = f;
            g->n_moved++;
            run->state[i] = SUNSET_STATE_UPDATED;
            continue;
        }
        /* the same text in another context kind: not fixed, and on an untouched line not
         * unchanged (it is judged in its new context) */
        sunset_known *was = own ? NULL : recontexted(run->known, f);
        if (was) was->seen = true;
        if (!on_added && !was) {
            g->n_unchanged++;
            run->state[i] = SUNSET_STATE_UNCHANGED;
            continue;
        }
        run->is_new[i] = true;
        int t = task_slot(f->task);
        if (f->suppressed) {
            g->n_suppressed++;
            g->suppressed_by_task[t]++;
        } else {
            g->n_new++;
            g->new_by_task[t]++;
            if (f->severity >= g->threshold) g->n_failing++;
        }
    }
}

/* 3. fixed: in-scope known findings nobody claimed. */
static int collect_fixed(sunset_gate_run *run, sunset_gate *g) {
    sunset_known_set *ks = run->known;
    run->fixed = sunset_calloc(ks->n ? ks->n : 1, sizeof *run->fixed);
    if (!run->fixed) return -1;
    for (size_t i = 0; i < ks->n; i++) {
        sunset_known *k = &ks->v[i];
        if (!k->in_scope || k->seen) continue;
        run->fixed[g->n_fixed++] = (sunset_fixed){k->rule, k->path, k->matched, k->line, k->task};
        g->fixed_by_task[task_slot(k->task)]++;
    }
    g->fixed = run->fixed;
    return 0;
}

/* 4. open per task: counted on a full scan, estimated from the baseline otherwise. */
static void count_open(const sunset_gate_run *run, sunset_gate *g) {
    if (run->full) {
        g->open_known = true;
        for (size_t i = 0; i < run->cur->n_findings; i++)
            if (!run->cur->findings[i].suppressed) g->open_by_task[task_slot(run->cur->findings[i].task)]++;
    } else if (run->have_baseline) {
        g->open_known = true;
        for (size_t i = 0; i < run->n_baseline; i++) g->open_by_task[task_slot(run->known->v[i].task)]++;
        for (int t = 0; t < SUNSET_TASKS; t++) {
            g->open_by_task[t] += g->new_by_task[t];
            g->open_by_task[t] = g->open_by_task[t] > g->fixed_by_task[t] ? g->open_by_task[t] - g->fixed_by_task[t] : 0;
        }
    }
}

int sunset_gate_judge(sunset_gate_run *run, sunset_gate *g) {
    size_t n = run->cur->n_findings ? run->cur->n_findings : 1;
    bool *is_known = sunset_calloc(n, sizeof(bool));
    run->is_new = sunset_calloc(n, sizeof(bool));
    run->state = sunset_calloc(n, 1);
    int rc = -1;
    if (!is_known || !run->is_new || !run->state || match_known(run, is_known)) goto cleanup;
    classify(run, is_known, g);
    if (collect_fixed(run, g)) goto cleanup;
    count_open(run, g);
    rc = 0;
cleanup:
    sunset_free(is_known);
    return rc;
}

static char *dup(const char *s) { return s ? sunset_strndup(s, strlen(s)) : NULL; }

int sunset_gate_next_baseline(const sunset_gate_run *run, bool accept_new, sunset_known_set *nb) {
    const sunset_known_set *ks = run->known;
    for (size_t i = 0; i < ks->n; i++) {
        const sunset_known *k = &ks->v[i];
        if (k->in_scope && !k->seen) continue;
        if (k->in_scope && k->now) {
            if (sunset_known_add_finding(nb, k->now, true)) return -1;
            continue;
        }
        sunset_known *e = sunset_known_push(nb);
        if (!e) return -1;
        *e = *k;
        e->rule = dup(k->rule), e->path = dup(k->path), e->matched = dup(k->matched);
        e->scope = dup(k->scope), e->fp = dup(k->fp);
        if (!e->rule || !e->path || !e->matched || !e->fp || (k->scope && !e->scope)) return -1;
    }
    for (size_t i = 0; accept_new && i < run->cur->n_findings; i++)
        if (run->is_new[i] && !run->cur->findings[i].suppressed &&
            sunset_known_add_finding(nb, &run->cur->findings[i], true))
            return -1;
    return 0;
}

void sunset_gate_run_free(sunset_gate_run *run) {
    if (!run) return;
    sunset_free(run->is_new);
    sunset_free(run->fixed);
    sunset_free(run->state);
    run->state = NULL;
    run->is_new = NULL;
    run->fixed = NULL;
}

/* ---- the gate's own findings ---- */

static const char *const gate_messages[] = {
    [GATE_BINARY] = "Changed file not analysed: binary (a NUL byte in its first 8000 bytes); the gate fails closed.",
    [GATE_GENERATED] = "Changed file not analysed: generated (its name or a generator's header marker); the gate "
                       "fails closed. Check it with --include-generated.",
    [GATE_TOO_LARGE] = "Changed file not analysed: larger than --max-filesize; the gate fails closed.",
    [GATE_UNREADABLE] = "Changed file not analysed: unreadable; the gate fails closed.",
    [GATE_UNPARSABLE] = "Changed file not analysed: its parser failed (or its source encoding is not one sunset "
                        "decodes); the gate fails closed.",
    [GATE_SYMLINK] = "A changed symbolic link whose target is outside the work tree or missing; its content cannot be judged.",
    [GATE_CONFIG] = "The change edits what decides the gate's verdict (configuration, baseline, ignore file, rules or "
                    "queries); the verdict used the diff base's version. A maintainer accepts it with --allow-config-change.",
    [GATE_SUPPRESSION] = "The change adds a sunset-ignore suppression; a maintainer accepts it with --allow-new-suppressions.",
    [GATE_BASELINE_ADDS] = "The change's baseline edit adds this entry, which stands for no finding of the diff base's "
                           "baseline: it would excuse a finding the gate did not accept. The ratchet only drops what the "
                           "change fixed (what check --update-baseline writes); a maintainer accepts other edits with "
                           "--allow-config-change.",
    [GATE_BASELINE_DROPS] = "The change's baseline edit drops this entry though the change did not fix its finding. The "
                            "ratchet only drops what the change fixed (what check --update-baseline writes); a maintainer "
                            "accepts other edits with --allow-config-change.",
    [GATE_BASELINE_BAD] = "The change's baseline is not a valid baseline (the error above says why); the verdict used the "
                          "diff base's version.",
};

const char *sunset_gate_message(sunset_gate_kind k) { return gate_messages[k]; }

sunset_gate_kind sunset_gate_skip_kind(const char *reason) {
    static const struct { const char *prefix; sunset_gate_kind k; } by_reason[] = {
        {"binary", GATE_BINARY}, {"generated", GATE_GENERATED}, {"too large", GATE_TOO_LARGE},
        {"unreadable", GATE_UNREADABLE},
    };
    for (size_t i = 0; i < sizeof by_reason / sizeof by_reason[0]; i++)
        if (!strncmp(reason, by_reason[i].prefix, strlen(by_reason[i].prefix))) return by_reason[i].k;
    return GATE_UNPARSABLE;
}

int sunset_gate_add_finding(sunset_result *r, sunset_gate_kind k, const char *path, uint32_t line,
                            const char *what) {
    sunset_finding f = {
        .rule_id = SUNSET_GATE_RULE, .family = SUNSET_GATE_FAMILY, .message = gate_messages[k],
        .fix = SUNSET_GATE_FIX, .severity = SUNSET_SEV_ERROR, .ctx = SUNSET_CTX_CODE,
        .span = {line ? line : 1, 1, line ? line : 1, 1}, .path = (char *)path, .matched = (char *)what,
    };
    return sunset_result_add(r, &f) ? 0 : -1;
}

bool sunset_gate_is_trust_file(const char *path, const char *baseline, const char *const *dirs, size_t n_dirs) {
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    if (strcmp(base, ".sunset.json") == 0 || strcmp(base, ".gitignore") == 0) return true;
    if (baseline && strcmp(path, baseline) == 0) return true;
    for (size_t i = 0; i < n_dirs; i++) {
        size_t n = strlen(dirs[i]);
        while (n && dirs[i][n - 1] == '/') n--;
        if (n && strncmp(path, dirs[i], n) == 0 && path[n] == '/') return true;
    }
    return false;
}

/* ---- sunset's own rules ---- */

const sunset_builtin_rule sunset_builtin_rules[] = {
    {SUNSET_GATE_RULE, SUNSET_GATE_FAMILY, "What the gate could not judge, or may not trust, in a change.",
     "In diff modes (`check --diff-base`, `check --staged`) the gate judges only what it analysed, so it "
     "fails closed on a changed file it skipped (binary, generated, larger than --max-filesize, unreadable, "
     "unparsable), on a changed symbolic link it cannot follow inside the work tree, on a change to what "
     "decides its verdict (.sunset.json, the baseline, an ignore file, rules or queries: the verdict uses the "
     "diff base's version) and on a suppression the change adds. Each finding's message names the case.",
     SUNSET_GATE_FIX "; a maintainer accepts a configuration change with --allow-config-change and a new "
     "suppression with --allow-new-suppressions"},
    {SUNSET_SUPPRESSION_RULE, SUNSET_SUPPRESSION_FAMILY, "Malformed sunset-ignore suppression comment.",
     "A sunset-ignore marker without a reason, with a reason shorter than suppression_min_reason, naming no "
     "known rule, a file-level marker naming `*`, one with a bad until= date, or an unbalanced begin/end "
     "suppresses nothing: a suppression must say what it silences and why, so that review can judge it.",
     SUNSET_SUPPRESSION_FIX},
};
const size_t sunset_builtin_rules_n = sizeof sunset_builtin_rules / sizeof sunset_builtin_rules[0];

const sunset_builtin_rule *sunset_builtin_rule_find(const char *id) {
    for (size_t i = 0; i < sunset_builtin_rules_n; i++)
        if (strcmp(sunset_builtin_rules[i].id, id) == 0) return &sunset_builtin_rules[i];
    return NULL;
}

/* The key of each new finding of cur that fails the gate (not suppressed, at or above the
 * threshold), pushed onto keys: "path:line:col: RULE". 0, or -1 on OOM. */
int sunset_gate_failing_keys(const sunset_result *cur, const sunset_gate_run *run, const sunset_gate *g, vec *keys) {
    for (size_t i = 0; i < cur->n_findings; i++) {
        const sunset_finding *f = &cur->findings[i];
        if (!run->is_new || !run->is_new[i] || f->suppressed || f->severity < g->threshold) continue;
        sb k = {0};
        sb_printf(&k, "%s:%u:%u: %s", f->path, (unsigned)f->span.line, (unsigned)f->span.col, f->rule_id);
        if (k.oom || !vec_push(keys, &k.s)) {
            sb_free(&k);
            return -1;
        }
    }
    return 0;
}
