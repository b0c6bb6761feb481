/*
 * rm_int.h — private to src/analysis/removable/: the graph the propagation runs on, and the
 * steps of rm_plan_build that share it.
 *
 * rm_plan_build (plan.c) runs, in order: rm_graph_build (graph.c: files, classes, CMake
 * targets, flags and passes from the index, and the edges between them; resolve.c answers
 * "which file / class / target does this name mean"), rm_seeds and rm_propagate (propagate.c:
 * the scan's findings mark their items legacy, then a table of named rules derives more to a
 * fixed point), rm_liveness (live.c: which legacy items live code still needs), then the plan
 * itself (plan.c). Every node is marked legacy at most once, and its evidence is fixed then.
 *
 * Ownership: the ctx owns every array and node it holds (rm_graph_free); names and paths are
 * borrowed from the index, which outlives it.
 */
#ifndef SUNSET_RM_INT_H
#define SUNSET_RM_INT_H

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include "base/pcre.h"
#include <stdbool.h>
#include <stdint.h>

#include "analysis/removable.h"
#include "core/ruleset.h"

struct node;

/* Why a node is legacy: its own step (strings borrowed from the index and the rule set) and
 * the nodes it was derived from, whose evidence is complete and never changes again. Flattened
 * into an owned rm_step list only for the plan (rm_ev_flatten). */
#define RM_EV_MAX_CAUSES 4
typedef struct rm_ev {
    rm_step step;                  /* its strings are borrowed here, not owned */
    const struct node *cause[RM_EV_MAX_CAUSES];
    const char *cause_path[RM_EV_MAX_CAUSES]; /* RM_EV_*_ONLY: the user file of each cause */
} rm_ev;

typedef struct node {
    bool legacy, derived, live;
    rm_ev *ev;   /* why it is legacy, when it is (cause nodes are borrowed); owned, NULL
                  * until marked: most of the tree's 40k nodes never are (5 MB inline) */
    vec callers; /* char *: live callers "path:line name"; owned */
} node;

typedef struct edge {
    size_t to;
    uint32_t line;
    bool counts; /* a real dependency (used import, include whose names are used) */
} edge;

typedef struct cls {
    size_t file;
    const ix_class *c;
} cls;

typedef struct tgt {
    char *name;
    vec defs;    /* size_t: index into cmds (file, cmd) pairs */
    vec srcs;    /* size_t: file indexes */
    vec deps;    /* char *: names (borrowed from the index) */
    vec dep_ids; /* size_t: the targets deps names, in order (not itself; link_targets) */
    vec dependents; /* size_t: target indexes */
} tgt;

typedef struct cmdref {
    size_t file;
    const ix_cmd *cmd;
} cmdref;

typedef struct wordref {
    size_t file;
    const ix_word *w;
    bool op;             /* in passes: an operator registration (run by type name, like a pass) */
    bool kernel;         /* an op's kernel registration (settings.macros.roles.kernel), when the
                          * tree also registers the operator itself: the op's users and runs by
                          * type need that registration, not this one (graph.c) */
} wordref;

typedef struct ctx {
    const sunset_index *ix;
    const sunset_result *res;
    const sunset_cross_file *conv; /* the tree's conventions (settings.cross_file); never NULL */
    const sunset_ruleset *rs;      /* the rules (their "mechanical"); NULL when none */
    pcre2_match_data *md;          /* for conv's regexes */
    size_t nf;
    ix_file **files;
    node *fn;
    vec *out;        /* per file: edge */
    vec *in;         /* per file: size_t importer file index (only counting edges) */
    vec *users;      /* per file: size_t every importer / includer, used or not */
    vec classes;     /* cls */
    node *cn;
    /* classes by name: an open hash (hash 0: empty) to the first class of each name, and per
     * class the next one of its name, ids ascending */
    struct cls_slot {
        uint64_t h;
        long first;
    } *cls_by_name;
    size_t cls_cap;
    long *cls_next;
    vec cmds;        /* cmdref: every CMake command */
    vec targets;     /* tgt */
    node *tn;
    vec flags;       /* wordref */
    node *gn;
    vec passes;      /* wordref */
    size_t *flag_at, *pass_at; /* per file + 1: where its flags / passes start in flags / passes
                                * (collected file by file) */
    node *pn;
    vec *flag_users, *pass_users; /* per flag / pass: size_t files using it (not the definer, not CMake) */
    size_t *file_targets_n; /* per file: number of targets compiling it */
    bool *header;           /* per file: rm_is_header(its path), asked by rules on every pass */
    size_t *stem_n;         /* per file: its path's length up to the last '.' */
    vec *file_classes;      /* per file: size_t class ids */
    vec *file_tgts;         /* per file: size_t targets compiling it */
    long *tgt_by_name;      /* open hash (hash64 seed 3) of target names: id, -1 empty */
    size_t tgt_cap;         /* its size, a power of two */
    uint64_t *cm_args;      /* sorted hashes of every CMake argument's basename */
    size_t n_cm_args;
    uint64_t *glob_dirs;    /* sorted hashes of directories whose CMake files glob sources */
    size_t n_glob_dirs;
    /* rule class-derives-legacy: each class's resolved bases, filled on first use (the
     * resolution never depends on legacy marks; the pointee is written through a const ctx) */
    size_t *base_at;        /* per class + 1: offset of its bases in base_of */
    long *base_of;          /* class id, -1 none, -2 not resolved yet */
    /* settings.cross_file.links: every defining macro call, sorted by key (the link group and
     * the symbol's name hashed), built on first use (refs.c) */
    struct rm_linkdef {
        uint64_t key;
        size_t file;
    } *link_defs;
    size_t n_link_defs;
    bool links_built;
    /* directories holding a file a path rule seeded: (hash64 of the directory, seed 11) to the
     * first such file, sorted by hash (rm_seeds) */
    struct rm_seed_dir {
        uint64_t h;
        size_t file;
    } *seed_dirs;
    size_t n_seed_dirs;
    vec *func_callers;      /* per file: size_t the C++ files calling its functions (calls.c) */
    signed char *near;      /* per file: 1 when it is, or includes, the file rm_mark_near marked; else 0 */
    /* rm_liveness: the legacy classes (class ids) and the files using each one's name, kept
     * for the what-ifs' runs (whatif.c), which mark nothing legacy: asked again only when the
     * legacy classes are not these */
    vec live_leg;           /* size_t */
    vec *live_cu;           /* per live_leg entry: size_t file ids */
    /* the what-ifs' closures (refs.c): per file, the files whose references may name it (an
     * include or import of it, a CMake argument resolving to it or to a target compiling it, a
     * link declaration of a symbol it defines), built on first use; and while a what-if's
     * closure runs, the files rm_refs_each reads (NULL: every file) */
    vec *may_ref;           /* size_t */
    const bool *refs_from;
    size_t block_p1;        /* what-if (whatif.c): file + 1 that never turns live, 0 none */
    size_t mute_p1;         /* what-if: file + 1 whose references keep nothing live, 0 none */
    /* rm_resolve_module's answers by (the asking file's directory, module): 63K questions,
     * 15K distinct, on the real tree; an open hash (h 0: empty), written through a const ctx */
    struct rm_mod_memo {
        struct rm_mod_slot {
            uint64_t h;
            size_t from; /* a file of the directory */
            char *mod;
            long to;
        } *slot;
        size_t cap, n;
        /* sorted name hashes of every x of an x.py and every directory x of an x/__init__.py:
         * a module whose last part is none of them is no file, answered without a look-up */
        uint64_t *stems;
        size_t n_stems;
    } *mod_memo;
    bool oom;
} ctx;

/* ---- small helpers (resolve.c) ---- */

char *rm_dupz(const char *s); /* NULL on OOM */
char *rm_fmt(const char *f, ...) __attribute__((format(printf, 1, 2))); /* NULL on OOM */
/* a, b and c into buf (n > 0 bytes), cut as snprintf would: for the paths built per import and
 * per candidate, where snprintf's format parsing was the cost. Returns the length. */
size_t rm_cat3(char *buf, size_t n, const char *a, const char *b, const char *c);
/* `from pkg import name`: pkg.name, the submodule the name may be, into buf (n bytes). */
void rm_submodule(char *buf, size_t n, const ix_import *m);
const char *rm_base_name(const char *path);
size_t rm_dir_len(const char *path);
bool rm_is_header(const char *path);
/* Files f and g are a.cc and a.h: the same path up to the last '.' (stem_n). */
bool rm_same_stem_files(const ctx *c, size_t f, size_t g);
bool rm_u64_has(const uint64_t *v, size_t n, uint64_t h);
/* A Python test module / a file of a test tree (settings.test_paths entries with the role "module" / "tree"). */
bool rm_matches(const ctx *c, const vec *regexes, const char *path);
bool rm_has_string(const vec *strings, const char *s);
bool rm_is_test_module(const ctx *c, const char *path);
bool rm_in_test_tree(const ctx *c, const char *path);

/* ---- names to files, classes, targets (resolve.c); -1 when none ---- */

/* dir (dn bytes) + "/" + rel, "./" and "../" normalised, looked up in the index. */
long rm_lookup_rel(const ctx *c, const char *dir, size_t dn, const char *rel);
long rm_resolve_include(const ctx *c, size_t from, const char *inc);
/* A Python module named in file `from` (dotted, maybe relative) to a file index. */
long rm_resolve_module(const ctx *c, size_t from, const char *mod);
struct rm_mod_memo *rm_mod_memo_new(const ctx *c); /* NULL: out of memory (rm_resolve_module asks anew) */
void rm_mod_memo_free(struct rm_mod_memo *m);
/* The class a base of class cid names (never cid itself). */
long rm_resolve_base(const ctx *c, size_t cid, const char *base);
/* The first class (lowest id) called `name`; cls_next gives the others. */
long rm_class_named(const ctx *c, const char *name);
long rm_target_pos(const ctx *c, const char *name);
/* A CMake command defining a target: NAME then a section of settings.cmake.sections (SRCS,
 * MODULES, DEPS ...). */
bool rm_target_command(const sunset_cross_file *conv, const ix_cmd *k);

/* ---- names a Python module only passes on (reexport.c) ---- */

/* Where `name`, imported by file `importer` from module file mod_file, is really defined: the
 * non-legacy module file it resolves to through re-exports (mod: its dotted name as the importer
 * can write it, attr: the name there), or -1. */
long rm_reexport(const ctx *c, size_t importer, size_t mod_file, const char *name, char *mod, size_t mn,
                 char *attr, size_t an);
/* The from-import statement of file f at `line` rewritten to take every name f still needs
 * (rm_py_needed) from where it is defined (rm_reexport), the others dropped: one line
 * (statements joined by "; "), owned, or "" when every name goes; *end the statement's last
 * line. NULL when a needed name does not resolve, the statement is not a from-import of one
 * module, or on OOM. */
char *rm_import_rewrite(const ctx *c, size_t f, uint32_t line, uint32_t *end, const bool *dead);

/* ---- dead legacy Python classes cut out of files that stay (pyclass.c) ---- */

/* Class k can go by a line edit (dead[]: the files the patch deletes). */
bool rm_class_removable(const ctx *c, size_t k, const bool *dead);
/* Does Python file f use `name`, a name one of its imports binds, bare (not only as an
 * attribute, `base.core`) outside top-level classes (q -1) or in its q-th class? */
bool rm_py_bound_used(const ctx *c, size_t f, const char *name, long q);
/* Does Python file f still need `name` once its removable classes are gone? */
bool rm_py_needed(const ctx *c, size_t f, const char *name, const bool *dead);

/* ---- the graph (graph.c) ---- */

/* Everything propagation needs from the index. Returns 0, -1 on OOM (free with rm_graph_free). */
int rm_graph_build(ctx *c);
void rm_graph_free(ctx *c);
/* For n names, the files whose code uses each (out[i]: size_t file ids). Returns 0, -1 on OOM. */
int rm_users_of(const ctx *c, const char *const *names, size_t n, vec *out);
void rm_add_caller(ctx *c, node *n, char *who); /* takes who (NULL = OOM) */

/* ---- who calls a C++ source's functions (calls.c) ---- */

/* Does file `from` reach file `to` through at most depth edges? */
/* Whether from reaches file `to` within three edges (includes, imports), while
 * rm_mark_near(c, to, 1) holds (ctx.near): the last hop a look-up, so the walk is two deep,
 * where a walk of three edges was 1.3% of a scan; rm_mark_near(c, to, 0) clears the marks. */
bool rm_reaches3_near(const ctx *c, size_t from);
void rm_mark_near(ctx *c, size_t to, signed char v);
/* Fill c->func_callers: per source, the C++ files naming one of its functions (ix_file.funcs)
 * and including its own header within three includes. Returns 0, -1 on OOM. */
int rm_func_callers(ctx *c);
/* The header source f implements (it includes it, same stem), or -1. */
long rm_own_header(const ctx *c, size_t f);
/* The first function of file f that file g names ("" none); borrowed from the index. */
const char *rm_func_called(const ctx *c, size_t f, size_t g);

/* ---- evidence (evidence.c) ---- */

/* Mark n legacy, a seed (derived false) when ev has no cause, else derived. No-op when it is
 * legacy already: the first reason found stays. */
void rm_mark(ctx *c, node *n, const rm_ev *ev);
/* A step with borrowed strings (copied when flattened). */
rm_step rm_step_of(rm_step_kind kind, const char *path, uint32_t line, const char *detail);
/* Append n's chain (ev's step and, recursively, its causes'), strings copied, to *steps.
 * On OOM sets c->oom. */
void rm_ev_flatten(ctx *c, const rm_ev *ev, rm_step **steps, size_t *n_steps);

/* ---- legacy (propagate.c) and live (live.c) ---- */

void rm_seeds(ctx *c);
/* The propagation rules to a fixed point. */
void rm_propagate(ctx *c);
/* The liveness fixed point, flags and passes included. */
void rm_liveness(ctx *c);
/* Frees what rm_liveness keeps for the what-ifs (rm_graph_free calls it). */
void rm_live_users_free(ctx *c);

/* ---- what migrating a live legacy file unblocks (whatif.c) ---- */

/* Is n file c->block_p1 - 1 or defined there (a what-if keeps it dead)? */
bool rm_whatif_blocked(const ctx *c, const node *n);
void rm_wstep_free(rm_wstep *w);
/* Every live item's migrate_to (from rs), and the migrate table: a what-if per live legacy file
 * (its callers moved, it and what it defines kept from turning live) and per consumer (as if
 * it named no legacy code, c->mute_p1), each giving the legacy items the real liveness run keeps
 * live that turn dead ("file a.cc", "class Foo (a.h)") and the steps that then become possible
 * (the closure run on the what-if's dead set, numbered into p->unblocked). The real run's marks
 * and callers are unchanged. 0, -1 on OOM. */
int rm_migrate_fill(ctx *c, const sunset_ruleset *rs, rm_plan *p);

/* ---- references a removal could leave dangling (refs.c) ---- */

typedef enum rm_ref_how {
    RM_REF_KEEP = 0, /* cannot go by a safe edit: the file it names must stay */
    RM_REF_COMMAND,  /* the whole CMake command [line, end] goes */
    RM_REF_TOKEN,    /* the one argument `token` goes from line `line` */
    RM_REF_LINE,     /* the include / import statement [line, end] goes */
    RM_REF_REWRITE,  /* the import statement [line, end] becomes rm_import_rewrite's line */
} rm_ref_how;

typedef struct rm_ref {
    size_t from;          /* the file holding the reference (it stays) */
    long to, target;      /* the dead file or the dropped target it names; -1 when not */
    const ix_cmd *cmd;    /* CMake: the command; NULL otherwise */
    uint32_t arg;         /* CMake: the argument's index */
    uint32_t line, end;
    const char *token;    /* CMake: the argument as written; a link: the symbol; else the named file's path */
    rm_ref_how how;
    bool link;            /* a declaration linking a symbol the named file defines (cross_file.links) */
} rm_ref;

typedef void (*rm_ref_fn)(ctx *c, const rm_ref *r, void *ud);
/* A what-if's reference that its migration removes (whatif.c): one naming the migrated-away
 * file c->block_p1 - 1 (or a target compiling it), or lying in the migrated consumer
 * c->mute_p1 - 1. The closure counts no such reference as keeping a file. */
bool rm_whatif_migrated(const ctx *c, const rm_ref *r);
/* Every reference from a file not dead[] to a dead[] file or a dropped[] target (of the files
 * c->refs_from holds, when set). */
void rm_refs_each(ctx *c, const bool *dead, const bool *dropped, rm_ref_fn fn, void *ud);
/* from[f]: file f may hold a reference to a dead[] file or a target compiling one (c->may_ref);
 * a file it leaves false holds none, so rm_refs_each reading only the others enumerates the
 * same references in the same order. Returns 0, -1 on OOM. */
int rm_refs_from(ctx *c, const bool *dead, bool *from);
/* dropped[t]: every source target t resolves to is dead. */
void rm_dropped_targets(const ctx *c, const bool *dead, bool *dropped);

/* ---- the closure (closure.c) ---- */

typedef struct rm_edit {
    size_t file;
    uint32_t line, end;
    const char *token;   /* RM_REF_TOKEN: the argument to drop; NULL: the lines go */
    rm_ref_how how;
    long to, target;     /* what it removes a reference to */
    int step;
    const char *symbol;  /* a link's declaration: the symbol it links (rm_ref.link) */
} rm_edit;

/* Shrink dead[] until every reference to a dead file or dropped target can go by an edit;
 * a file that must stay gets its reason (owned) in why[f]. Fills edits (rm_edit), dropped[]
 * and step[] (per dead file: its independently landable step, 1-based; edits carry theirs).
 * Returns the number of steps, -1 on OOM. */
int rm_closure(ctx *c, bool *dead, bool *dropped, char **why, int *step, vec *edits);

#endif
