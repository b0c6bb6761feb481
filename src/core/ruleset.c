/*
 * ruleset.c — the loaded rule set's accessors: a rule by id, a severity override
 * (.sunset.json), the query rules of a language and a rule's own fields. The loader and
 * compiler are rules.c; both share core/rules_int.h.
 */
#include <stdlib.h>
#include <string.h>

#include "core/rules_int.h"

const sunset_rule *sunset_ruleset_find(const sunset_ruleset *rs, const char *id) {
    for (size_t i = 0; i < rs->rules.n; i++) {
        const sunset_rule *r = VEC_AT(&rs->rules, sunset_rule *, i);
        if (strcmp(r->id, id) == 0) return r;
    }
    return NULL;
}

int sunset_ruleset_set_severity(sunset_ruleset *rs, const char *id, sunset_severity sev) {
    sunset_rule *r = (sunset_rule *)sunset_ruleset_find(rs, id);
    if (!r) return -1;
    for (int c = 0; c < SUNSET_CTX_COUNT; c++) r->sev[c] = sev;
    r->sev_overridden = true;
    return 0;
}

size_t sunset_ruleset_query_count(const sunset_ruleset *rs, sunset_lang lang) {
    return (unsigned)lang < SUNSET_LANG_COUNT ? rs->queries[lang].n : 0;
}

const sunset_rule *sunset_ruleset_query_at(const sunset_ruleset *rs, sunset_lang lang, size_t i) {
    if ((unsigned)lang >= SUNSET_LANG_COUNT || i >= rs->queries[lang].n) return NULL;
    return VEC_AT(&rs->queries[lang], sunset_rule *, i);
}

const char *sunset_rule_id(const sunset_rule *r) { return r->id; }
const char *sunset_rule_query(const sunset_rule *r) { return r->query ? r->query : ""; }
const char *sunset_rule_query_capture(const sunset_rule *r) { return r->capture ? r->capture : ""; }
const char *sunset_rule_origin(const sunset_rule *r) { return r->origin; }

static int cmp_name(const void *key, const void *elem) { return strcmp(key, *(char *const *)elem); }

bool sunset_ruleset_target_command(const sunset_ruleset *rs, const char *name) {
    return rs && rs->cmake_targets.n &&
           bsearch(name, rs->cmake_targets.v, rs->cmake_targets.n, sizeof(char *), cmp_name) != NULL;
}

bool sunset_ruleset_cmake_keyword(const sunset_ruleset *rs, const char *s, size_t n) {
    if (!rs) return false;
    size_t lo = 0, hi = rs->cmake_keywords.n;
    while (lo < hi) { /* s is counted, not NUL-terminated */
        size_t mid = (lo + hi) / 2;
        const char *k = VEC_AT(&rs->cmake_keywords, char *, mid);
        size_t kn = strlen(k);
        int c = memcmp(s, k, n < kn ? n : kn);
        if (c == 0) c = n < kn ? -1 : n > kn;
        if (c == 0) return true;
        if (c < 0) hi = mid;
        else lo = mid + 1;
    }
    return false;
}
