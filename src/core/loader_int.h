/*
 * loader_int.h — what the rule-pack loader (core/rules.c) shares with the settings loader
 * (core/settings.c): the loader's state and its validating helpers, each of which fills the
 * loader's error ("FILE:LINE:COL: message") and returns -1. Private to core.
 */
#ifndef SUNSET_LOADER_INT_H
#define SUNSET_LOADER_INT_H

#include <cjson/cJSON.h>

#include "core/rules_int.h"

typedef struct loader {
    sunset_ruleset *rs;
    const char *origin; /* file name for messages */
    const char *text;   /* the pack's text */
    sunset_error *err;
    const char *rule_id; /* current rule, for positions */
    pcre2_match_data *md;
    const cJSON *root; /* the pack parsed from text (borrowed), for exact positions */
    bool pack_unanchored; /* the pack says "anchored": false (its rules' default) */
    const char *pack_migrate_to; /* the pack's "migrate_to" (its rules' default); borrowed */
} loader;

/* An error at "key" of the current rule (located by searching the text). */
int ld_fail(loader *L, const char *key, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* An error at the value of a parsed item (its exact position). */
int ld_fail_item(loader *L, const cJSON *item, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
int ld_oom(loader *L);
/* Compile a regex; on error names the rule, field and the offset in the pattern. */
int ld_compile_re(loader *L, const char *field, const char *pat, pcre2_code **out);
/* Reject fields of o not in allowed (NULL-terminated): a typo must not silently widen a rule. */
int ld_check_fields(loader *L, const cJSON *o, const char *what, const char *const *allowed);
int ld_severity_of(loader *L, const cJSON *v, const char *field, sunset_severity *out);
/* Append each regex (pcre2_code *) or string (char *) of the array arr to out. */
int ld_regex_list(loader *L, const cJSON *arr, const char *field, vec *out);
/* After ld_regex_list took arr: each regex's literals (relit *, NULL when none are known) onto
 * out, parallel to the regexes (src/core/relit.h). 0, or -1 on OOM. */
int ld_regex_lits(loader *L, const cJSON *arr, vec *out);
int ld_string_list(loader *L, const cJSON *arr, const char *field, vec *out);

/* The settings pack (core/settings.c): its vecs initialised empty, loaded, freed. */
void settings_init(sunset_ruleset *rs);
int ld_settings(loader *L, const cJSON *s);
void settings_free(sunset_ruleset *rs);

#endif
