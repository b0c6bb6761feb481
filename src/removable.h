/*
 * removable.h — propagation over the cross-file index (index.h) and the removal plan.
 *
 * A file, class, CMake target, gflag or pass is *legacy* when a rule matched its definition
 * (the scan's findings are the seeds) or when it exists only to serve legacy code: a class
 * deriving a legacy class, a module every user of which is legacy, a header only legacy files
 * include, a target only legacy targets depend on, a flag only legacy code reads, a pass only
 * legacy code uses. Every derived fact keeps its evidence chain. A legacy item is *live* when
 * live code still depends on it (its live callers are listed; the plan never deletes it) and
 * *dead* otherwise. The plan lists the dead whole files (dependents first), their registration
 * lines, partial removals, targets, flags and passes to retire, and the live legacy items.
 *
 * Ownership: a plan owns all its strings; free with rm_plan_free.
 */
#ifndef SUNSET_REMOVABLE_H
#define SUNSET_REMOVABLE_H

#include <stdbool.h>
#include <stdint.h>

#include "index.h"
#include "report.h"

typedef enum rm_kind {
    RM_FILE = 0,   /* a whole file */
    RM_CLASS,      /* a class / struct (C++ or Python) */
    RM_TARGET,     /* a CMake target (its defining command) */
    RM_FLAG,       /* a gflag definition */
    RM_PASS,       /* a pass registration */
    RM_IMPORT,     /* an import / include line of a removed or legacy module */
    RM_REGISTRATION, /* a CMake command or argument, or a tool-list entry, naming a removed file */
    RM_KIND_COUNT
} rm_kind;

typedef struct rm_item {
    rm_kind kind;
    char *path;         /* the file holding it */
    char *name;         /* class/target/flag/pass/module name; NULL for a whole file */
    uint32_t line, end; /* lines to remove (a whole file: 1..last) */
    char *enclosing;    /* "class TestFoo", "py_test_modules(test_x)", NULL */
    bool derived;       /* legacy by propagation, not by a rule matching it */
    bool live;          /* legacy, but live code depends on it: migrate first */
    bool patchable;     /* provably safe: --patch removes it */
    char *chain;        /* evidence: "rule LT-PY-PATH" or "TestX derives TestBase (f.py:9), ..." */
    const char *seed_rule, *seed_family; /* the rule the chain starts from; borrowed from the
                                            rule set; NULL when not legacy by a rule */
    int seed_task;
    char **callers;     /* live callers "path:line name" (live items) */
    size_t n_callers;
    int step;           /* order in the plan: dependents before dependencies (1-based) */
    char *after;        /* a dead file still imported/included by files that stay: the partial
                           removals to do first ("a.py:7; b.cc:3"); such a file is not patched */
} rm_item;

typedef struct rm_plan {
    char *root;
    rm_item *items;     /* whole files first in step order, then partial items by path, line */
    size_t n_items, cap;
    size_t n_files_indexed;
    /* legacy items by classification, for the summary */
    size_t n_legacy_files, n_dead_files, n_live_files, n_derived_files;
} rm_plan;

/* Build the plan from a finished index and the scan result (the seeds). Returns 0, -1 on OOM. */
int rm_plan_build(const sunset_index *ix, const sunset_result *res, rm_plan *plan);
void rm_plan_free(rm_plan *plan);

/* Derived findings for `scan --derive`: one finding per derived legacy file, class, target,
 * flag or pass (rule "DERIVED", the family and task of the rule its chain starts from, `test`
 * from the item's own path by rs's settings.test_paths), appended to res; the caller re-sorts
 * (sunset_result_finish). Returns 0, -1 on OOM. */
int rm_plan_derived_findings(const rm_plan *plan, const sunset_ruleset *rs, sunset_result *res);

const char *rm_kind_name(rm_kind k);

/* Writers (src/report/removable_write.c). Return 0, -1 on OOM. */
int rm_write_json(const rm_plan *plan, sb *out);
int rm_write_markdown(const rm_plan *plan, sb *out);
/* A `git apply`-able unified diff deleting the patchable items; root is the tree on disk.
 * Returns 0, or an errno value when a file could not be read. */
int rm_write_patch(const rm_plan *plan, const char *root, sb *out);

#endif
