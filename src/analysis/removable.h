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

#include "analysis/index.h"
#include "core/result.h"

typedef enum rm_kind {
    RM_FILE = 0,   /* a whole file */
    RM_CLASS,      /* a class / struct (C++ or Python) */
    RM_TARGET,     /* a CMake target (its defining command) */
    RM_FLAG,       /* a gflag definition */
    RM_PASS,       /* a pass registration */
    RM_IMPORT,     /* an import / include line of a removed or legacy module */
    RM_REGISTRATION, /* a CMake command or argument, or a tool-list entry, naming a removed file */
    RM_OP,         /* an operator registration (REGISTER_OPERATOR ...): run by its type name */
    RM_ARGUMENT,   /* a whole-line keyword parameter or argument nothing reads (rule "mechanical") */
    RM_KIND_COUNT
} rm_kind;

/* One step of an evidence chain. A chain is a list of steps in preorder: a step, then the
 * chains of its n_causes causes, each complete (a seed step has none). The seed rule of a
 * chain is its last step with a rule_id. Rendered to text only by rm_chain_write
 * (src/report/evidence.c); nothing parses text back. */
typedef enum rm_step_kind {
    RM_EV_RULE_PATH = 0,   /* seed: a path rule matched the file */
    RM_EV_RULE_AT,         /* seed: rule_id matched at path:line */
    RM_EV_CLASS_IN_LEGACY, /* class `detail` is defined in legacy file `path` */
    RM_EV_DERIVES,         /* class `detail` at path:line derives `other` (other_path:other_line) */
    RM_EV_ALL_CLASSES,     /* every class in the file is legacy (cause: the first one) */
    RM_EV_IMPORTED_ONLY,   /* imported only by legacy files: causes are RM_EV_USER steps */
    RM_EV_INCLUDED_ONLY,   /* included only by legacy files: likewise */
    RM_EV_USER,            /* one of those files, `path` (cause: its chain) */
    RM_EV_EMPTY_TEST,      /* empty, registered as the legacy test target `detail` */
    RM_EV_IMPLEMENTS,      /* implements header `path`, which is legacy */
    RM_EV_ORPHAN,          /* no CMake target compiles it, and it includes legacy `path` */
    RM_EV_ONLY_TARGET,     /* compiled only by legacy target `detail` */
    RM_EV_ALL_SOURCES,     /* every source is legacy (`path`: the first) */
    RM_EV_ONLY_DEPENDENTS, /* only legacy targets depend on it (`detail`: the first) */
    RM_EV_DEFINED_IN,      /* flag or pass defined in legacy file `path` */
    RM_EV_READ_ONLY,       /* flag read only in legacy code (`path`: the first reader) */
    RM_EV_USED_ONLY,       /* pass used only in legacy code (`path`: the first user) */
    RM_EV_IMPORTS,         /* plan: imports legacy `path` (used here) */
    RM_EV_IMPORTS_UNUSED,  /* plan: imports legacy `path`, unused here */
    RM_EV_INCLUDES,        /* plan: includes legacy `path` */
    RM_EV_INCLUDES_UNUSED, /* plan: includes legacy `path`, unused here */
    RM_EV_SOURCE_REMOVED,  /* plan: a live target lists removed source `detail` */
    RM_EV_TARGET_REMOVED,  /* plan: a live target depends on removed target `detail` */
    RM_EV_REGISTERS,       /* plan: the command registers only removed `detail` */
    RM_EV_NAMES,           /* plan: a list entry names removed `detail` */
    RM_EV_NAMES_MIXED,     /* plan: names removed `detail`; the command also names live tests */
    RM_EV_INCLUDES_REMOVED, /* plan: an include of `detail`, which the patch deletes */
    RM_EV_IMPORTS_REMOVED,  /* plan: an import of `detail`, which the patch deletes */
    RM_EV_IMPORTS_REEXPORT, /* plan: imports legacy `path` for names defined elsewhere (`detail`: the new line) */
    RM_EV_LINKS_REMOVED,    /* plan: a declaration linking symbol `detail` of `path`, which the patch deletes */
    RM_EV_IMPORT_CUT,       /* plan: an import of `detail` only class `path` used, which the patch cuts */
    RM_EV_REGISTERS_LEGACY, /* every operator / pass it registers is legacy (`detail`: the first) */
    RM_EV_DECLARES_FOR,    /* a header whose implementing sources are legacy (`path`: the first) */
    RM_EV_TEST_ONLY,       /* a header only tests include, in legacy directory `path`'s (cause: a seed there) */
    RM_EV_TESTS,           /* the test of legacy header `path` */
    RM_EV_NAMED_IN_CLASS,  /* a pass only legacy class `detail` (path:line) names in code that is not
                              legacy (cause: the class) */
    RM_EV_CALLED_ONLY,     /* its functions are called only by legacy files: `detail` by `path`, the
                              first (cause: its chain) */
    RM_EV_KIND_COUNT
} rm_step_kind;

typedef struct rm_step {
    rm_step_kind kind;
    char *path;            /* the file the step names; owned; NULL when none */
    uint32_t line;         /* 0 when none */
    const char *rule_id;   /* seeds: the rule that matched; borrowed from the rule set */
    char *detail;          /* the class, target or entry the step names; owned; NULL when none */
    char *other, *other_path; /* RM_EV_DERIVES: the base class and where it is; owned */
    uint32_t other_line;
    uint32_t n_causes;     /* this many complete chains follow */
    size_t n_more;         /* RM_EV_*_ONLY: users not listed */
} rm_step;

/* The seed rule of a chain: its last step with a rule id; NULL when none. */
const char *rm_chain_seed(const rm_step *steps, size_t n);
void rm_steps_free(rm_step *steps, size_t n);
/* How a chain becomes text: the one renderer is rm_chain_write (report/removable.h); the
 * analysis takes it as a parameter so it never depends on the report tier. */
typedef int (*rm_chain_writer)(sb *out, const rm_step *steps, size_t n);

typedef struct rm_item {
    rm_kind kind;
    char *path;         /* the file holding it */
    char *name;         /* class/target/flag/pass/module name; NULL for a whole file */
    uint32_t line, end; /* lines to remove (a whole file: 1..last) */
    char *enclosing;    /* "class TestFoo", "py_test_modules(test_x)", NULL */
    bool derived;       /* legacy by propagation, not by a rule matching it */
    bool live;          /* legacy, but live code depends on it: migrate first */
    bool patchable;     /* provably safe: --patch removes it */
    rm_step *steps;     /* the evidence chain (see rm_step); owned */
    size_t n_steps;
    char **callers;     /* live callers "path:line name" (live items) */
    size_t n_callers;
    int step;           /* order in the plan: dependents before dependencies (1-based) */
    char *after;        /* a dead legacy file the patch keeps: why (a reference no safe edit
                           removes, "kept: a.h:32 still names it ..."); such a file is not patched */
    bool token;         /* a registration: remove only the argument `name` from line `line` */
    char *replace;      /* RM_IMPORT: the statement becomes this one line (same indentation)
                           instead of going; owned; NULL when it goes */
    char *migrate_to;   /* live: the target API, the `migrate_to` of its chain's seed rule; owned; NULL none */
    char **unblocks;    /* a live file: the legacy items that turn dead once it is migrated away
                           (a what-if run of the liveness), "file a.cc", "class Foo (a.h)"; owned */
    size_t n_unblocks;
    char *mechanical;   /* a migration the patch makes itself ("drop-argument"); owned; NULL none */
    int *unblocks_steps; /* a live file: the steps (rm_plan.unblocked) its migration makes possible,
                            ascending; owned */
    size_t n_unblocks_steps;
} rm_item;

/* A step that migrating live code makes possible: the plan's closure (what the patch would
 * delete, grouped into independently landable steps) run again on the dead set of a migrate
 * entry's what-if, one of its groups that deletes a file the plan does not. Numbered after the
 * plan's own steps; the same group unblocked by several migrations is one step. */
typedef struct rm_wstep {
    int step;
    char **deletes;     /* the files it deletes that the plan does not, by path; owned */
    size_t n_deletes;
    int *joins;         /* the plan's steps whose files it deletes too (the group took them in), ascending */
    size_t n_joins;
} rm_wstep;

/* Code that is not legacy but keeps legacy code live (it is a live caller of a live item): what
 * to migrate it to and what that unblocks (the liveness re-run as if it named no legacy code). */
typedef struct rm_consumer {
    char *path;
    char **migrate_to;  /* the distinct migrate_to of the items it keeps live, in order; owned */
    size_t n_migrate_to;
    size_t n_keeps;     /* live items it is a caller of */
    char **unblocks;    /* as rm_item.unblocks; owned */
    size_t n_unblocks;
    int *unblocks_steps; /* as rm_item.unblocks_steps; owned */
    size_t n_unblocks_steps;
} rm_consumer;

typedef struct rm_plan {
    char *root;
    rm_item *items;     /* whole files first in step order, then partial items by path, line */
    size_t n_items, cap;
    size_t n_files_indexed;
    /* legacy items by classification, for the summary */
    size_t n_legacy_files, n_dead_files, n_live_files, n_derived_files;
    size_t n_kept_files; /* dead but kept: a reference to them cannot go by a safe edit */
    size_t n_steps;      /* independently landable steps (rm_item.step 1..n_steps) */
    rm_consumer *consumers; /* by path */
    size_t n_consumers;
    rm_wstep *unblocked; /* the steps migrations unblock, numbered n_steps + 1 ... in order */
    size_t n_unblocked;
} rm_plan;

/* Build the plan from a finished index and the scan result (the seeds), with the tree's
 * conventions from rs's settings.cross_file (NULL: none). Returns 0, -1 on OOM. */
int rm_plan_build(const sunset_index *ix, const sunset_ruleset *rs, const sunset_result *res, rm_plan *plan);
/* rm_plan_build without the migrate table: no item's migrate_to or unblocks, no consumers
 * (those cost a what-if run of the liveness per live legacy file and per consumer, most of a
 * cold scan's plan). Everything else is rm_plan_build's: the items, their live marks, callers
 * and chains, which is all the scan reads (derived findings, remnants). */
int rm_plan_build_lean(const sunset_index *ix, const sunset_ruleset *rs, const sunset_result *res, rm_plan *plan);
void rm_plan_free(rm_plan *plan);

/* Derived findings for `scan --derive`: one finding per derived legacy file, class, target,
 * flag or pass (rule "DERIVED", the family and task of its chain's seed rule as rs defines
 * it, `test` from the item's own path by rs's settings.test_paths, the chain rendered by
 * `write`, normally rm_chain_write), appended to res; the caller re-sorts
 * (sunset_result_finish). Returns 0, -1 on OOM. */
int rm_plan_derived_findings(const rm_plan *plan, const sunset_ruleset *rs, rm_chain_writer write,
                             sunset_result *res);

/* Apply a unified diff (`git diff` form) to the index in memory and re-check every reference
 * (CMake names of files and targets, includes, imports): one "path:line: names ..." line per
 * dangling one into report, counted in *n_dangling. Returns 0, 1 when the patch is malformed
 * (report holds "LINE: why"), -1 on OOM. */
int rm_patch_check(const sunset_index *ix, const sunset_ruleset *rs, const char *patch, size_t len, sb *report,
                   size_t *n_dangling);

/* Does the patch apply to the files under root as they are? 0 when it does; else the reason,
 * "LINE: why" (LINE: of the patch) into why: RM_PATCH_APPLIED when every part of it is applied
 * already, RM_PATCH_NOT_APPLYING when a part neither applies nor is applied (or only some
 * are), RM_PATCH_MALFORMED; -1 on OOM. Renames, copies, mode changes and C-quoted paths are
 * understood; a hunk may stand at another line (git apply's offset), never with fuzz. */
enum { RM_PATCH_MALFORMED = 1, RM_PATCH_APPLIED = 2, RM_PATCH_NOT_APPLYING = 3 };
int rm_patch_applies(const char *root, const char *patch, size_t len, sb *why);

const char *rm_kind_name(rm_kind k);

#endif
