/*
 * remnant.h — the remnant layer: a finished result's findings grouped into what a person acts
 * on. A *file remnant* stands for a file that is legacy as a whole (a rule of
 * settings.remnants.file_rules matched its path, or the removal plan proves the file dead);
 * it absorbs every finding in the file. Elsewhere a *line remnant* stands for one line (or a
 * short statement spanning lines) and carries every rule that fired on it. Each remnant asks
 * for one action, derived from evidence (the plan's live/dead classification and live
 * callers, the finding contexts, settings.remnants): delete, migrate (naming the live
 * consumer) or update-doc. Findings stay as they are: every finding is in exactly one
 * remnant, and the gate, baselines and fingerprints keep working per finding.
 *
 * Ownership: a sunset_remnants owns its remnants and their strings; the findings are
 * referred to by index into the result they were built from, and `path` is borrowed from
 * that result. Free with sunset_remnants_free.
 */
#ifndef SUNSET_REMNANT_H
#define SUNSET_REMNANT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/removable.h"
#include "core/result.h"

typedef enum sunset_action {
    SUNSET_ACT_DELETE = 0,  /* dead: nothing live needs it */
    SUNSET_ACT_MIGRATE,     /* legacy, still reached from live code: move `consumer` off it */
    SUNSET_ACT_DOC,         /* a comment, docstring, string or document names it */
    SUNSET_ACT_COUNT
} sunset_action;

typedef struct sunset_remnant {
    const char *path;        /* borrowed from the result's findings */
    bool file;               /* a file remnant (else a line remnant) */
    uint32_t line, end_line; /* a file remnant: 1 .. its last finding's line */
    sunset_action action;
    sunset_severity severity; /* settings.remnants.severity of the action */
    const char *family;      /* of the remnant's leading finding; borrowed from the rule set */
    int task;
    size_t *findings;        /* indices into the result's findings, ascending; owned */
    size_t n_findings;
    const char **rules;      /* distinct rule ids, in first-seen order; the array is owned */
    size_t n_rules;
    char **evidence;         /* why this action, one line each; owned */
    size_t n_evidence;
    char *consumer;          /* migrate: the live consumer ("CompiledProgram._compile"); owned */
    char *fix;               /* the fix hint, following the action; owned */
    const rm_item *basis;    /* the plan item that decided the action; borrowed; NULL = none */
    bool attached;           /* text attached to its code (remnant_ranges.c): the item's head
                              * names its first code finding, whose level it shows */
    const char *why;         /* a new use (sunset_remnants_as_new): its leading rule's message;
                              * borrowed; NULL otherwise */
} sunset_remnant;

typedef struct sunset_remnants {
    sunset_remnant *v;       /* in finding order (path, line); owned */
    size_t n, cap;
} sunset_remnants;

/* Groups res's findings (sorted and finished) into *out (zeroed first). plan may be NULL
 * (no cross-file layer: no dead-file or live-caller evidence); write renders a plan's
 * evidence chain (rm_chain_write), may be NULL when plan is. rs's settings.remnants decide
 * the file rules, delete rules, documents, named consumers and severities.
 * Returns 0, or -1 on OOM (out is then freed). */
int sunset_remnants_build(const sunset_result *res, const sunset_ruleset *rs, const rm_plan *plan,
                          rm_chain_writer write, sunset_remnants *out);
void sunset_remnants_free(sunset_remnants *r); /* NULL is a no-op */

/* One severity (README "Severity"): each finding of res takes the lower of its own severity
 * and its remnant's action severity, so that what a line shows (the remnant's severity, the
 * most severe of its findings) is what --error, github annotations and SARIF levels use.
 * Live code awaiting migration is a warning, dead code an error, prose info. */
void sunset_remnants_settle(sunset_result *res, const sunset_remnants *rem);

/* In a change every remnant is a new use, actionable now: its severity is its most severe
 * finding's (what the gate judges), its fix the leading rule's own hint and `why` that rule's
 * message. Returns -1 on OOM. */
int sunset_remnants_as_new(const sunset_result *res, sunset_remnants *rem);

/* "delete", "migrate", "update-doc". */
const char *sunset_action_name(sunset_action a);

/* The human order (text, markdown): task, then action (migrate, delete, update-doc), then
 * path and line. Fills order[0..r->n) with pointers into r->v. */
void sunset_remnants_rank(const sunset_remnants *r, const sunset_remnant **order);

#endif
