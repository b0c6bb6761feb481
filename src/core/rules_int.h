/*
 * rules_int.h — engine-private view of a loaded rule set: rules compiled into clauses, each
 * clause a test on one kind of fact, indexed by language and fact kind for the scan's hot
 * path. Private to core: the tiers above read the rule set through core/ruleset.h, frontends
 * through the accessors in sunset.h.
 */
#ifndef SUNSET_RULES_INT_H
#define SUNSET_RULES_INT_H

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include "base/pcre.h"
#include <stdbool.h>

#include "core/relit.h"
#include "core/ruleset.h"

struct clause {
    const sunset_rule *rule;
    int fact;             /* sunset_fact_kind or MATCH_WORD */
    unsigned ctx_mask;    /* 1u << sunset_context */
    unsigned flags;       /* fact flags that must be set */
    strtest main;         /* the fact's text */
    strtest aux, target, section, qual;
};

/* String test against n bytes. */
bool strtest_match(const strtest *t, const char *s, size_t n, pcre2_match_data *md);
/* pcre2_match, retried with the interpreter when the JIT fails with an error (not a
 * mismatch): returns the match's rc (>= 0), PCRE2_ERROR_NOMATCH, or the retry's error. */
int re_match_rc(const pcre2_code *re, const char *s, size_t n, size_t start,
                pcre2_match_data *md);
/* PCRE2's message for an error rc. */
void re_error_message(int rc, char *buf, size_t size);
/* Does fact f pass everything clause c tests but its main text (context, flags, aux, target,
 * section, qualified name)? */
bool clause_match_rest(const clause *c, const sunset_fact *f, pcre2_match_data *md);
/* The span of bytes [so, eo) of a fact's text that starts at `at` (a regex match in a LINE or
 * STRING fact), lines counted through the text's newlines. */
sunset_span span_in_text(sunset_span at, const char *text, size_t so, size_t eo);
/* The words of prose text (a comment, a docstring, a string) that starts at `at`, each handed to
 * word with its span: identifiers at a word boundary, but for a sunset-ignore marker with the
 * rest of its line (in a comment) and a rule id or glob of rs ("PE-PY-IDENT", "OH-*"). */
void text_words(const sunset_ruleset *rs, sunset_context ctx, sunset_span at, const char *text, size_t len,
                void (*word)(void *ud, sunset_context ctx, sunset_span span, const char *w, size_t n), void *ud);

/* The clause index of rs (src/core/match.c): built once when the rule set is loaded; 0, or -1
 * on OOM. A lookup is a name's slot in one language and fact kind's index, or NULL. */
int rules_index_build(sunset_ruleset *rs);
struct name_slot *rules_index_lookup(const clause_index *ix, const char *name, size_t n);

#endif
