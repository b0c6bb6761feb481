/*
 * ruleset.h — the loaded rule set, as the tiers above core read it: rules with their ids,
 * families, tasks, languages and severities, and the settings pack's conventions (test paths,
 * cross-file, remnants, anchor). Loaded and compiled by core (rules.c, match.c); the compiled
 * matchers (clauses, their index) stay behind core's private rules_int.h. No pcre2.h here: a
 * compiled regex is an opaque `struct pcre2_real_code_8 *` (PCRE2's own pcre2_code, 8-bit).
 */
#ifndef SUNSET_CORE_RULESET_H
#define SUNSET_CORE_RULESET_H

#include <stdbool.h>
#include <stdint.h>

#include "sunset.h"
#include "base/util.h"

struct pcre2_real_code_8;
struct pcre2_real_match_data_8;

/* A suppression's reason must say why in a sentence, not "ok" or "." */
#define SUNSET_MIN_REASON 10

/* Fact kinds the matcher distinguishes: the frontend's kinds plus WORD, a word inside a
 * comment/string/docstring, which the engine derives from sunset_emit_text(). */
enum { MATCH_WORD = SUNSET_FACT_KIND_COUNT, MATCH_KIND_COUNT };

typedef enum rule_kind {
    RK_IDENTIFIER, RK_INCLUDE, RK_IMPORT, RK_BASE_CLASS, RK_ATTRIBUTE, RK_KEYWORD, RK_CALL,
    RK_DEFINITION, RK_STRING, RK_QUERY, RK_PATH, RK_CMAKE, RK_GFLAG, RK_PASS, RK_TEXT,
    RK_COUNT
} rule_kind;

/* The matcher's name as rules/*.json spell it ("identifier", "cmake" ...). */
const char *rule_kind_name(rule_kind k);

typedef struct clause clause;

/* A string test: exact names (sorted, for bsearch) or a regex. Neither = matches anything. */
typedef struct strtest {
    char **names;
    size_t n_names;
    struct pcre2_real_code_8 *re;
    char *src; /* the regex's source, for combining */
    struct relit *lit; /* literals every match of re holds (src/core/relit.h); NULL: none known */
} strtest;


struct sunset_rule {
    char *id, *family, *message, *fix, *origin;
    int task;
    size_t index;          /* load order */
    rule_kind kind;
    int specificity;       /* higher wins when rules meet on one span */
    unsigned lang_mask;    /* 1u << sunset_lang */
    unsigned ctx_mask;
    sunset_severity sev[SUNSET_CTX_COUNT];
    bool sev_overridden;   /* by configuration */
    vec path_include, path_exclude; /* pcre2_code * */
    vec clauses;           /* clause */
    strtest path;          /* RK_PATH */
    char *query, *capture; /* RK_QUERY */
    sunset_lang query_lang;
    vec literals;          /* char * */
    char *examples_json;   /* the rule's "examples" array, serialised; NULL if none */
    char *description;     /* the rule's "description", else its pack's; NULL if neither */
    char *migrate_to;      /* "migrate_to": the API a live use moves to, else its pack's; NULL if neither */
    char *mechanical;      /* "mechanical": the edit the patch makes for it ("drop-argument"); NULL none */
    struct flow_rule *flow; /* attribute rules with "receiver": {"bound_to": ...}; owned
                               (core/flow.h); NULL for every other rule */
    bool anchored;         /* counts only in a file tied to Paddle (settings.anchor); false when
                              the rule or its pack says "anchored": false */
    unsigned anchored_langs; /* 1u << sunset_lang: anchored in these languages only
                                ("anchored": [LANG...]); anchored is then false */
    struct pcre2_real_code_8 *unless_line, *unless_file; /* "unless": a match on such a line, or in such a
                                              file, is another meaning of the word; NULL = none */
    struct pcre2_real_code_8 *unless_file_without; /* "unless.file_without": a match in a file where
                                              this finds nothing is no finding (the legacy
                                              construction the rule presumes is gone); NULL = none */
    struct pcre2_real_code_8 *unless_untied; /* "unless.untied": a match whose text this finds, in a
                                              file not tied to Paddle, is no finding (a name the
                                              rule shares with other projects); NULL = none */
    vec unless_tree_without; /* char *: "unless.tree_without": a match in a tree where none of these
                                paths exists (settings.anchor.tree's test) is no finding */
};

typedef struct family_info {
    char *id, *title;
} family_info;

/* Per (language, fact kind): the clauses to try. Identifier-like kinds get a hash of exact
 * names and a combined regex of all pattern clauses as a quick reject. */
typedef struct clause_index {
    vec all;               /* clause * — clauses with regex or no main test */
    /* open-addressing hash: name -> list of clause * with that exact name */
    struct name_slot { const char *name; vec clauses; } *slots;
    size_t n_slots;
    /* a bit per hashed (length, first byte, last byte) of the names: most tokens are no name,
     * and this rules them out before hashing them whole */
    uint64_t name_bits[64];
    struct pcre2_real_code_8 *any_re;    /* alternation of the regexes in `all`; NULL = try each */
    struct relit *any_lit;               /* literals every match of any_re holds; NULL: none known */
} clause_index;

/* settings.cross_file.links: C++ macros defining a symbol by name (REGISTER_FILE_SYMBOLS(x))
 * and macros that only declare and link it (DECLARE_FILE_SYMBOLS(x)): a link-time reference. */
typedef struct sunset_link {
    char *name;           /* what the pair links, for messages: "file symbols", "operator" */
    vec define, declare;  /* char *: macro names */
} sunset_link;

/* settings.cross_file: the tree's conventions the cross-file analysis needs (removable.h);
 * all empty when the settings pack has none. */
typedef struct sunset_cross_file {
    /* from settings.test_paths, by role: */
    vec test_modules;     /* pcre2_code *: "module", a Python test module (registered by its file stem) */
    vec test_trees;       /* pcre2_code *: "tree", a file of a test tree (its helpers may have functions) */
    vec import_roots;     /* char *: directories absolute Python imports are also resolved under */
    vec module_commands;  /* char *: CMake commands whose MODULES section lists Python sources */
    /* char *: settings.cmake.sections, the wrappers' keywords opening a target's sources (SRCS),
     * its Python modules (MODULES, of module_commands) and its dependencies (DEPS); a command
     * with one after its first argument defines that target */
    vec cmake_sources, cmake_modules, cmake_deps;
    vec links;            /* sunset_link: macros that define a symbol and macros that link it */
} sunset_cross_file;

/* settings.macros.roles (rules/SCHEMA.md): the C/C++ macros the cross-file index reads
 * (analysis/index/cpp.c): a call NAME(x ...) of one of `op` registers operator x, of `pass`
 * registers pass x, of `use` links x; a flag definer is spelled [PREFIX ...]STEM..._TYPE, a
 * prefix of flag_prefixes (or none) then STEM anywhere, the part after its last '_' one of
 * flag_types. Empty = none. */
typedef struct sunset_macro_roles {
    vec op, pass, use;             /* char * */
    vec kernel;                    /* char *: the op macros that register a kernel of the op, not
                                    * the operator (its users need the operator's registration) */
    char *flag_stem;               /* NULL = no flag definers */
    vec flag_prefixes, flag_types; /* char * */
} sunset_macro_roles;

/* settings.remnants (rules/SCHEMA.md): how analysis/remnant.c groups findings into remnants
 * and which action each asks; all empty when the settings pack has none. */
#define SUNSET_REMNANT_ACTIONS 3 /* delete, migrate, update-doc (analysis/remnant.h) */
typedef struct sunset_remnant_settings {
    vec file_rules;       /* char *: rule-id globs; one finding makes its whole file legacy */
    vec delete_rules;     /* char *: rule-id globs; in live code the line goes, nothing to migrate */
    vec successor_rules;  /* char *: rule-id globs whose legacy object a successor replaces: a test
                             that stays moves to it (migrate), it does not lose the line */
    vec code_rules;       /* char *: rule-id globs whose string matches are code (binding names) */
    unsigned code_uses;   /* code_strings.uses: bit (1u << sunset_str_use) per use whose strings
                             are code (a subscript's key, a dict key, a comparison operand) */
    vec code_callees;     /* char *: code_strings.calls' callee globs: a string argument of ... */
    vec code_args;        /* int: ... at this position (-1: any) is code (a registered name) */
    vec doc_paths;        /* pcre2_code *: documentation files; their remnants are update-doc */
    vec consumer_paths;   /* pcre2_code *: live files whose legacy lines serve ... */
    vec consumers;        /* char *: ... this named consumer (parallel to consumer_paths) */
    sunset_severity severity[SUNSET_REMNANT_ACTIONS]; /* per action */
} sunset_remnant_settings;

/* Is a string literal that code puts there (sunset_emit_string's use, callee and position)
 * code by settings.remnants.code_strings? */
bool sunset_string_is_code(const sunset_remnant_settings *st, sunset_str_use use, const char *call,
                           int arg);

/* settings.anchor (rules/SCHEMA.md): what ties a file to Paddle, so that an anchored rule's
 * match in it counts (core/anchor.c). Each vec holds pcre2_code *, but module_literals. */
typedef struct sunset_anchor {
    bool on;              /* the settings pack has an anchor; else every file is tied */
    vec tree;             /* char *: paths under the scan root whose presence makes the whole
                             tree Paddle's own (paddle/fluid) */
    vec paths;            /* over the root-relative path: Paddle's own files anywhere */
    vec header;           /* over the file's first lines: a licence header naming Paddle */
    vec modules;          /* over a Python import's dotted module */
    vec namespaces;       /* over a C++ namespace scope's name and identifiers in C++ code */
    vec headers;          /* over a C++ #include path */
    vec commands;         /* over a CMake command's name */
    vec words;            /* over a line of a text file (CMake, proto, shell, docs, text) */
    vec module_literals;  /* char *: one of them is in every anchoring import (partial parse) */
} sunset_anchor;

struct sunset_ruleset {
    vec rules;                 /* sunset_rule * */
    vec families;              /* family_info */
    vec test_paths;            /* pcre2_code *: settings.test_paths with the role "test" */
    vec generated_markers;     /* pcre2_code *, matched per line of the file's head */
    vec generated_lits;        /* relit *, each marker's literals (NULL: none known) */
    vec generated_paths;       /* pcre2_code * */
    size_t suppress_min_reason; /* a sunset-ignore reason's minimum length (bytes); .sunset.json
                                 * "suppression_min_reason" sets it, default SUNSET_MIN_REASON */
    sunset_cross_file cross_file;
    sunset_remnant_settings remnants;
    sunset_anchor anchor;
    vec tasks;                 /* char *: settings.tasks, the title of task i + 1 at i; empty =
                                  none declared (then any task the results can hold) */
    vec cmake_targets;         /* char *: settings.cmake.target_commands, lower case, sorted */
    vec cmake_keywords;        /* char *: settings.cmake.keywords, sorted */
    char *flag_definers;       /* settings.macros.flag_definers: a regex over the macro a gflag's
                                  name is an argument of (DEFINE_bool ...); NULL = none */
    char *pass_registrars;     /* settings.macros.pass_registrars: the same for a pass's name
                                  (USE_PASS, REGISTER_PASS); NULL = none */
    sunset_macro_roles macro_roles; /* settings.macros.roles */
    clause_index index[SUNSET_LANG_COUNT][MATCH_KIND_COUNT];
    vec path_rules;            /* sunset_rule * of kind RK_PATH */
    vec queries[SUNSET_LANG_COUNT]; /* sunset_rule * of kind RK_QUERY */
    vec literals[SUNSET_LANG_COUNT]; /* char * (borrowed from rules), for the prefilter:
                                      * the literals of rules that apply to every path */
    vec scoped[SUNSET_LANG_COUNT];   /* sunset_rule *: rules with a path "include"; their
                                      * literals are checked only for files they apply to */
    vec flow_rules[SUNSET_LANG_COUNT]; /* sunset_rule * with a flow receiver (core/flow.c) */
    bool lang_has_rules[SUNSET_LANG_COUNT];
    bool comment_strings[SUNSET_LANG_COUNT]; /* a string rule reads comments ("comments": true) */
    char *queries_dir;
    uint64_t hash;             /* over every pack's bytes, for caches */
};

/* Load every *.json pack in each directory (in name order). On error returns NULL and fills
 * err with "FILE:LINE:COL: message". queries_dir resolves query_file. Caller frees with
 * sunset_ruleset_free. */
sunset_ruleset *sunset_ruleset_load(const char *const *dirs, size_t n_dirs,
                                    const char *queries_dir, sunset_error *err);
/* Load from one in-memory pack (tests). `origin` names it in messages. */
sunset_ruleset *sunset_ruleset_load_string(const char *json, const char *origin,
                                           const char *queries_dir, sunset_error *err);
void sunset_ruleset_free(sunset_ruleset *rs);

/* Severity overrides and rule disabling from configuration. Returns -1 for an unknown id. */
int sunset_ruleset_set_severity(sunset_ruleset *rs, const char *id, sunset_severity sev);
const sunset_rule *sunset_ruleset_find(const sunset_ruleset *rs, const char *id);

/* The highest task number a rule may carry: the settings pack's last task, else the most the
 * results hold (core/result.h SUNSET_TASKS - 1). */
int sunset_ruleset_task_max(const sunset_ruleset *rs);

/* Regex search (an error counts as no match); on a hit sets *so/*eo (when not NULL) to the
 * match offsets. */
bool re_search(const struct pcre2_real_code_8 *re, const char *s, size_t n, size_t start,
               struct pcre2_real_match_data_8 *md, size_t *so, size_t *eo);
/* Does any regex of the list (a vec of pcre2_code *) match somewhere in s? */
bool re_list_search(const vec *res, const char *s, struct pcre2_real_match_data_8 *md);
/* Is path a test file (settings.test_paths)? The one place every finding's `test` comes from. */
bool sunset_ruleset_is_test_path(const sunset_ruleset *rs, const char *path, struct pcre2_real_match_data_8 *md);
/* Is the file generated: settings.generated_paths by name, or settings.generated_markers on one
 * of its first lines? *line gets the marker's line, 0 for a name (src/core/match.c). */
bool sunset_ruleset_is_generated(const sunset_ruleset *rs, const char *path, const char *data, size_t len,
                                 struct pcre2_real_match_data_8 *md, uint32_t *line);

/* Final severity of a rule's match in a context. */
static inline sunset_severity rule_severity(const sunset_rule *r, sunset_context ctx) {
    return r->sev[ctx];
}

#endif
