/*
 * gate.h — the pull-request gate's judgement (src/analysis/gate.c), apart from the command that reads
 * options and writes reports (src/cmd/check.c). Today's findings are sorted into known
 * (fingerprint in the known set), moved (a vanished known finding with the same rule, matched
 * text and enclosing scope turned up elsewhere), new (the rest; against a diff base only those
 * on lines the change adds or edits) and fixed (known findings in scope that vanished).
 */
#ifndef SUNSET_GATE_H
#define SUNSET_GATE_H

#include <stdbool.h>
#include "analysis/baseline.h"
#include "analysis/diffmode.h"

typedef struct sunset_gate_run {
    sunset_result *cur;      /* today's findings, sorted (sunset_result_finish); borrowed */
    sunset_known_set *known; /* marked seen/now by the judgement; borrowed */
    const diff_set *diff;    /* the change against the diff base; NULL for a full scan */
    bool full;               /* every file was scanned: open counts come from cur */
    size_t n_baseline;       /* the first n_baseline entries of known are the baseline's */
    bool have_baseline;
    /* out */
    bool *is_new;            /* per finding of cur: new (or suppressed new); owned */
    unsigned char *state;    /* per finding of cur: SUNSET_STATE_* (result.h); owned */
    sunset_fixed *fixed;     /* g->fixed points here; owned */
} sunset_gate_run;

/* Judge run->cur against run->known into g (counts, fixed list, open per task). 0, or -1 on
 * OOM. Free with sunset_gate_run_free. */
int sunset_gate_judge(sunset_gate_run *run, sunset_gate *g);

/* The baseline after --update-baseline: what is still there (refreshed), without the fixed,
 * plus the new findings when accept_new. 0, or -1 on OOM; nb is the caller's. */
int sunset_gate_next_baseline(const sunset_gate_run *run, bool accept_new, sunset_known_set *nb);

void sunset_gate_run_free(sunset_gate_run *run);
/* The key of each new finding of cur that fails the gate g judged in run (not suppressed, at or
 * above the threshold), pushed onto keys (char *, the caller frees): "path:line:col: RULE".
 * 0, or -1 on OOM. */
int sunset_gate_failing_keys(const sunset_result *cur, const sunset_gate_run *run, const sunset_gate *g, vec *keys);

/* ---- the ratchet (src/analysis/ratchet.c) ----
 * A diff mode's baseline edit, judged after the judgement: each entry of the base's baseline
 * (run->known's first n_baseline) may stay, be dropped when the change fixed its finding, or
 * be rewritten to the finding it became (moved, re-keyed, renamed) — what --update-baseline
 * writes. Anything else is a violation. */
typedef enum sunset_ratchet_kind {
    RATCHET_ADDED,   /* an entry of the edited baseline that stands for no entry of the base's */
    RATCHET_DROPPED, /* an entry of the base's baseline the edit drops though the change did not fix it */
} sunset_ratchet_kind;

typedef struct sunset_ratchet_violation {
    sunset_ratchet_kind kind;
    char *what; /* "RULE path:line matched"; owned */
    char *fp;   /* the entry's fingerprint; owned */
} sunset_ratchet_violation;

/* Compare the edited baseline with what the judged run allows; append violations to out
 * (VEC_INIT(sunset_ratchet_violation)). 0, or -1 on OOM. */
int sunset_ratchet_check(const sunset_gate_run *run, const sunset_known_set *edited, vec *out);
void sunset_ratchet_violations_free(vec *v);

/* ---- failing closed: the gate's own findings ----
 * In diff modes (check --diff-base, --staged) the gate judges only what it analysed, so what
 * it could not analyse, a change to what decides its verdict, and a suppression the change
 * adds are findings of rule SUNSET-GATE: always new, always failing (error). */
#define SUNSET_GATE_RULE "SUNSET-GATE"
#define SUNSET_GATE_FAMILY "gate"
#define SUNSET_GATE_FIX "see the message; the gate never passes what it did not judge"

/* sunset's own rules: the findings the engine (SUNSET-SUPPRESSION) and the gate (SUNSET-GATE)
 * make themselves, not a rule pack's. Always errors, never suppressible. `rules show`,
 * `rules list`, RULES.md and SARIF's rule descriptors read them from this table. */
typedef struct sunset_builtin_rule {
    const char *id, *family, *message, *why, *fix;
} sunset_builtin_rule;
extern const sunset_builtin_rule sunset_builtin_rules[];
extern const size_t sunset_builtin_rules_n;
/* The builtin rule called id, or NULL. */
const sunset_builtin_rule *sunset_builtin_rule_find(const char *id);

typedef enum sunset_gate_kind {
    GATE_BINARY,         /* a changed file the scan skipped as binary */
    GATE_GENERATED,      /* ... as generated */
    GATE_TOO_LARGE,      /* ... as larger than --max-filesize */
    GATE_UNREADABLE,     /* ... as unreadable */
    GATE_UNPARSABLE,     /* ... because its frontend failed */
    GATE_SYMLINK,        /* a changed symlink whose target is outside the work tree or missing */
    GATE_CONFIG,         /* the change edits the configuration, baseline, an ignore file, rules or queries */
    GATE_SUPPRESSION,    /* the change adds a suppression */
    GATE_BASELINE_ADDS,  /* the change's baseline edit adds an entry (not the ratchet) */
    GATE_BASELINE_DROPS, /* ... drops an entry whose finding the change did not fix */
    GATE_BASELINE_BAD,   /* ... is not a valid baseline */
} sunset_gate_kind;

/* The message of a gate finding of kind k. */
const char *sunset_gate_message(sunset_gate_kind k);

/* The kind for a skip's reason (sunset_skip.what, written by the engine). */
sunset_gate_kind sunset_gate_skip_kind(const char *reason);

/* Append a SUNSET-GATE finding of kind k at path:line to r; `what` (copied) becomes the
 * finding's matched text (the reason, the file). 0, or -1 on OOM. Call sunset_result_finish
 * after the last one. */
int sunset_gate_add_finding(sunset_result *r, sunset_gate_kind k, const char *path, uint32_t line,
                            const char *what);

/* Does the root-relative path decide the verdict: a .sunset.json or .gitignore at any depth,
 * the baseline (root-relative, or NULL), or a file under one of dirs (root-relative
 * directories of rules and queries)? */
bool sunset_gate_is_trust_file(const char *path, const char *baseline, const char *const *dirs, size_t n_dirs);

#endif
