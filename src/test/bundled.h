/*
 * bundled.h — the bundled rule set (rules/ of the working directory, as `make unit-tests` runs
 * them) for tests of the cross-file index, whose C/C++ lexer reads registration, link and flag
 * macros only from settings.macros.roles: a group setup that loads it and an index reading its
 * macros (test_index.c, test_facts.c).
 */
#ifndef SUNSET_TEST_BUNDLED_H
#define SUNSET_TEST_BUNDLED_H

#include <stdio.h>

#include "analysis/index.h"
#include "core/ruleset.h"

static sunset_ruleset *RULES;

static int load_rules(void **state) {
    (void)state;
    const char *dirs[] = {"rules"};
    sunset_error err = {0};
    RULES = sunset_ruleset_load(dirs, 1, "queries", &err);
    if (!RULES) fprintf(stderr, "%s\n", err.msg);
    return RULES ? 0 : -1;
}

static int free_rules(void **state) {
    (void)state;
    sunset_ruleset_free(RULES);
    return 0;
}

/* An index reading the bundled settings' macros. */
static sunset_index *new_index(void) {
    sunset_index *ix = sunset_index_new();
    if (ix) sunset_index_set_roles(ix, &RULES->macro_roles);
    return ix;
}

#endif
