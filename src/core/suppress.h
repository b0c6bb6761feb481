/*
 * suppress.h — in-source suppressions: `// sunset-ignore[RULES]: reason` (or `# ...`) on the
 * line or alone on the line above, `sunset-ignore-begin[...]` / `sunset-ignore-end`, and
 * `sunset-ignore-file[...]`, each with an optional `until=YYYY-MM-DD`. Applied by the engine
 * to every file's findings, so they hold in `scan` and `check` alike. Engine-private tier.
 */
#ifndef SUNSET_SUPPRESS_H
#define SUNSET_SUPPRESS_H

#include "core/result.h"
#include "core/ruleset.h"

/* The rule id of sunset's own findings about malformed suppressions (no reason, unknown rule,
 * bad date, unbalanced begin/end). They fail the gate like any error and cannot be suppressed. */
#define SUNSET_SUPPRESSION_RULE "SUNSET-SUPPRESSION"
#define SUNSET_SUPPRESSION_FAMILY "suppressions"
#define SUNSET_SUPPRESSION_FIX "write the rule id(s) and a reason: // sunset-ignore[RULE-ID]: why"

/* Apply the suppressions written in src's text to res->findings[first..] (the findings of
 * this file): marks them suppressed with the justification, appends a SUNSET-SUPPRESSION
 * finding for every malformed suppression and records unused/expired ones in res->unused.
 * `today` is days since 1970-01-01 (UTC); rs resolves rule ids (borrowed).
 * Returns 0, or -1 on OOM (the findings stay valid). */
/* The text every suppression comment contains: a file without it has none. */
#define SUNSET_SUPPRESS_MARKER "sunset-ignore"

int sunset_suppress_file(sunset_result *res, size_t first, const sunset_source *src,
                         const sunset_ruleset *rs, long today);

/* Is s[0..n) a rule id of rs, or a glob naming at least one (`PE-PY-IDENT`, `OH-*`)? Only
 * upper-case, digits, `_`, `*` and at least one `-` qualify. The engine skips such a token in
 * comments and strings: sunset's own vocabulary (a marker's ids, a `noqa: ID`) is no finding. */
bool sunset_rule_id_token(const sunset_ruleset *rs, const char *s, size_t n);

/* Today in days since 1970-01-01 (UTC). */
long sunset_suppress_today(void);
/* Parse "YYYY-MM-DD" (exactly) into days since 1970-01-01; -1 when malformed. */
long sunset_suppress_parse_date(const char *s, size_t n);

#endif
