/*
 * selftest.h — `sunset rules test`, `sunset rules list` and `sunset rules show`.
 */
#ifndef SUNSET_SELFTEST_H
#define SUNSET_SELFTEST_H

#include <stdio.h>
#include "cmd/cli.h"
#include "core/engine.h"

/* Scan every rule's examples and check each yields exactly `expect` findings of that rule.
 * Prints failures (and with verbose every example) to out, then "rules: N passed, M failed".
 * Returns the number of failures, or -1 on OOM. */
int sunset_rules_test(const sunset_ruleset *rs, const sunset_engine_opts *o, bool verbose, FILE *out);

/* One line a rule: id, family, task, severity, languages, message. json: an array. */
int sunset_rules_list(const sunset_ruleset *rs, bool json, sb *out);

/* The rules with these ids (none = every rule) in full: message, rationale, fix, severities,
 * examples; format text (NULL), json or markdown (src/cmd/rules_show.c). An unknown id is
 * printed as an error and returns -1, as does OOM. */
int sunset_rules_show(const sunset_ruleset *rs, const char *const *ids, size_t n_ids, const char *format, sb *out);

#endif
