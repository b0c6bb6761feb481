/*
 * flow.h — legacy-object flow within a file (Python): rules whose attribute matcher says
 * `"receiver": {"bound_to": ["RULE-ID", ...]}` report the uses of a variable, `self.x` or
 * function bound to an expression another rule matched. Engine-private, like rules_int.h.
 */
#ifndef SUNSET_FLOW_H
#define SUNSET_FLOW_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>

#include "core/rules_int.h"

/* A flow rule's receiver: the rules that mark an object, and which uses are reported. */
typedef struct flow_rule {
    char **bound_ids;              /* owned; the ids as written */
    const sunset_rule **bound;     /* resolved by flow_link; borrowed from the rule set */
    size_t n_bound;
    bool arguments;                /* also report the object passed as a call argument */
} flow_rule;

/* Parse the "receiver" object into r->flow. 0, or -1 with msg (a sentence) filled. */
int flow_rule_parse(sunset_rule *r, const cJSON *receiver, char *msg, size_t msg_size);
/* Resolve every flow rule's bound_to ids (after all packs are loaded). 0, or -1 with msg
 * naming the rule and the unknown id. Sets rs->flow_rules[lang]. */
int flow_link(sunset_ruleset *rs, char *msg, size_t msg_size);
void flow_rule_free(flow_rule *f);

/* One file's bindings, uses and seeds, gathered while its frontend runs. */
typedef struct flow_file flow_file;

flow_file *flow_file_new(void);
void flow_file_free(flow_file *ff);
/* A BIND fact, an ATTR fact, an IDENT fact inside an argument list (aux = its callee). */
void flow_fact(flow_file *ff, const sunset_fact *f);
/* A lexical scope (sunset_scope); kind and name are copied. */
void flow_scope(flow_file *ff, const char *kind, const char *name, uint32_t start, uint32_t end);
/* A candidate match of any rule: seeds are the bound rules' matches in code or in a
 * docstring's code example (a word in a string or comment binds nothing). text is the
 * matched text: a seed marks a binding only when its last dotted component is what the
 * bound value is (its trailing callee or attribute), not a name inside its arguments. */
void flow_seed(flow_file *ff, const sunset_rule *r, sunset_context ctx, sunset_span span,
               const char *text, size_t len);

/* Has a seed of one of the flow rules' bound rules been recorded (`rules` a vec of
 * sunset_rule *)? While none has, no fact can be reported as a use. */
bool flow_file_has_bound_seed(const flow_file *ff, const vec *rules);

/* Could a legacy object this file's facts bind be used where they were not gathered from?
 * For every flow rule, the names that carry one out of a function: the last component of
 * each binding holding it at module or class level (`x = ...`, `self.x = ...`), and the name
 * of each function returning it. True as soon as `seen` says true for one (the name occurs
 * in the part of the file the frontend left out), on OOM and when the work limit cuts the
 * answer short. */
typedef bool (*flow_name_fn)(void *ud, const char *name, size_t len);
bool flow_escapes(flow_file *ff, const vec *rules, flow_name_fn seen, void *ud);

/* The flow's limits per file. Its work is counted in steps (a binding or use looked at, an
 * index probe): deterministic, so a file cut by it is cut on every machine. The time limit
 * (--parse-budget, read through sunset_clock_ms) is the last guard behind it. */
#define FLOW_MAX_WORK 20000000u
typedef struct flow_limits {
    uint64_t max_work;   /* 0 = FLOW_MAX_WORK */
    unsigned budget_ms;  /* 0 = no time limit */
} flow_limits;

typedef enum flow_status {
    FLOW_DONE,           /* every use reported */
    FLOW_WORK_LIMIT,     /* stopped at max_work steps: uses may be missing */
    FLOW_TIME_LIMIT,     /* stopped by the time limit: uses may be missing */
    FLOW_OOM,            /* out of memory: nothing reported */
} flow_status;

/* Tests: the work limit of every file from now on (0 = the limits' own). */
void flow_set_work_limit(uint64_t steps);
/* The steps the last flow_finish or flow_escapes of this file took. */
uint64_t flow_file_work(const flow_file *ff);

/* Called once per reported use. */
typedef void (*flow_report_fn)(void *ud, const sunset_rule *r, sunset_context ctx,
                               sunset_span span, sunset_span stmt, const char *text, size_t len);
/* Run every flow rule of `rules` (a vec of sunset_rule *) over the file and report the uses.
 * What was reported before a limit stopped it stands. */
flow_status flow_finish(flow_file *ff, const vec *rules, pcre2_match_data *md,
                        const flow_limits *lim, flow_report_fn report, void *ud);

/* Across modules (core/xflow.c). A name the module importing this file's code binds to a
 * legacy object another module exports: a module-level binding of `name` (`train_exe`, or
 * `trainer.train_exe` for `import trainer`) before the first line, marked as if `bound` had
 * matched its value. */
void flow_premark(flow_file *ff, const sunset_rule *bound, const char *name, size_t n);
/* The module-level names this file leaves bound to a legacy object, per flow rule. */
typedef void (*flow_export_fn)(void *ud, const sunset_rule *flow_rule, const char *name);
void flow_exports(flow_file *ff, const vec *rules, flow_export_fn out, void *ud);

#endif
