/*
 * python_int.h — private to the Python frontend (src/lang/python/): the capture roles of
 * facts.scm, compiled queries and their predicates, the frontend's state and workers.
 * query.c compiles facts.scm and the rules' queries; frontend.c parses and emits facts.
 */
#ifndef SUNSET_PYTHON_INT_H
#define SUNSET_PYTHON_INT_H

#include "lang/python.h"
#include "sunset.h"
#include "base/util.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <tree_sitter/api.h>

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

const TSLanguage *tree_sitter_python(void);

#define FACTS_FILE "python/facts.scm"
#define REPORT_OUTERMOST UINT32_MAX
#define NO_OFFSET UINT32_MAX

#define PY_OOM_MSG "python frontend: out of memory"

/* Chain bound. The 0.20 query cursor keeps one in-progress state per enclosing node that
 * still waits for a later child, and steps every state at every node. A postfix chain
 * (`paddle.a.a...`, `f()()...`, `a.b().b()...`) nests each link as the first child of the
 * next, and facts.scm's attribute and call patterns wait behind each link for its name or
 * arguments: the walk costs the square of the chain (40,000 links took 7.5 s, 20,000
 * method calls 8.4 s; other deep nesting, `((((1))))` or `f(f(f(y)))`, stays linear). A
 * file with a chain longer than MAX_CHAIN is refused with a warning before any query runs,
 * as the C++ frontend refuses 20,000-operator chains; 10,000 links take ~0.5 s. */
#define MAX_CHAIN 12000u
/* and so is a file whose chains cost as much together: the squares of their lengths summed
 * over MAX_CHAIN squared (ten chains of 8,000 links took 7 s, each alone 0.7 s) */
#define MAX_CHAIN_WORK ((uint64_t)MAX_CHAIN * MAX_CHAIN)

/* The time limit (--parse-budget, the last guard behind the deterministic limits) is
 * checked every CLOCK_EVERY query matches: one match costs far more than a clock read, but
 * the cursor's loop between two matches cannot be interrupted. The parser reads the text
 * PARSE_CHUNK bytes at a time and the limit is checked at every read, so a fake clock
 * (sunset_set_clock) stops a parse too; with the real clock tree-sitter's own timeout
 * also stops a parse that no longer reads. */
#define CLOCK_EVERY 64u
#define PARSE_CHUNK 16384u


/* ---- capture roles of facts.scm ---------------------------------------------------------- */

typedef enum role {
    ROLE_IGNORE = 0,
    ROLE_IMPORT_MODULE, ROLE_IMPORT_NAME, ROLE_IMPORT_STAR, ROLE_IMPORT_FROM, ROLE_IMPORT_ALIAS,
    ROLE_BASE_NAME, ROLE_BASE_CLASS,
    ROLE_CALL_CALLEE, ROLE_CALL_ARGS,
    ROLE_KWARG_NAME,
    ROLE_ATTR_NAME, ROLE_ATTR_OBJECT, ROLE_ATTR, ROLE_ATTR_STORE,
    ROLE_DEF_CLASS, ROLE_DEF_FUNCTION, ROLE_DEF_NAME, ROLE_DEF_METHOD,
    ROLE_IDENT, ROLE_IDENT_DEFINITION,
    ROLE_STRING, ROLE_STRING_CONTENT, ROLE_DOCSTRING,
    ROLE_COMMENT,
    ROLE_STMT,
    ROLE_BIND_TARGET, ROLE_BIND_VALUE, ROLE_BIND_RETURN,
    ROLE_BIND_PARAM, ROLE_BIND_ARG, ROLE_BIND_KW, ROLE_BIND_FOR,
    ROLE_COUNT
} role;

/* A primary capture yields a fact, a companion is read from the primary's match, a mark
 * annotates a node reported by another pattern's primary capture. */
typedef enum role_class { RC_COMPANION, RC_PRIMARY, RC_MARK } role_class;

static const struct {
    const char *name;
    role_class cls;
} role_table[ROLE_COUNT] __attribute__((unused)) = {
    [ROLE_IMPORT_MODULE] = {"import.module", RC_PRIMARY},
    [ROLE_IMPORT_NAME] = {"import.name", RC_PRIMARY},
    [ROLE_IMPORT_STAR] = {"import.star", RC_PRIMARY},
    [ROLE_IMPORT_FROM] = {"import.from", RC_COMPANION},
    [ROLE_IMPORT_ALIAS] = {"import.alias", RC_COMPANION},
    [ROLE_BASE_NAME] = {"base.name", RC_PRIMARY},
    [ROLE_BASE_CLASS] = {"base.class", RC_COMPANION},
    [ROLE_CALL_CALLEE] = {"call.callee", RC_PRIMARY},
    [ROLE_CALL_ARGS] = {"call.args", RC_PRIMARY},
    [ROLE_KWARG_NAME] = {"kwarg.name", RC_PRIMARY},
    [ROLE_ATTR_NAME] = {"attr.name", RC_PRIMARY},
    [ROLE_ATTR_OBJECT] = {"attr.object", RC_COMPANION},
    [ROLE_ATTR] = {"attr", RC_COMPANION},
    [ROLE_ATTR_STORE] = {"attr.store", RC_MARK},
    [ROLE_DEF_CLASS] = {"def.class", RC_PRIMARY},
    [ROLE_DEF_FUNCTION] = {"def.function", RC_PRIMARY},
    [ROLE_DEF_NAME] = {"def.name", RC_COMPANION},
    [ROLE_DEF_METHOD] = {"def.method", RC_MARK},
    [ROLE_IDENT] = {"ident", RC_PRIMARY},
    [ROLE_IDENT_DEFINITION] = {"ident.definition", RC_MARK},
    [ROLE_STRING] = {"string", RC_MARK},
    [ROLE_STRING_CONTENT] = {"string.content", RC_PRIMARY},
    [ROLE_DOCSTRING] = {"docstring", RC_MARK},
    [ROLE_COMMENT] = {"comment", RC_PRIMARY},
    [ROLE_STMT] = {"stmt", RC_PRIMARY},
    [ROLE_BIND_TARGET] = {"bind.target", RC_PRIMARY},
    [ROLE_BIND_VALUE] = {"bind.value", RC_COMPANION},
    [ROLE_BIND_RETURN] = {"bind.return", RC_PRIMARY},
    [ROLE_BIND_PARAM] = {"bind.param", RC_PRIMARY},
    [ROLE_BIND_ARG] = {"bind.arg", RC_PRIMARY},
    [ROLE_BIND_KW] = {"bind.kw", RC_COMPANION},
    [ROLE_BIND_FOR] = {"bind.for", RC_PRIMARY},
};

/* ---- compiled queries ------------------------------------------------------------------- */

typedef enum pred_op { PRED_EQ, PRED_NOT_EQ, PRED_MATCH, PRED_NOT_MATCH, PRED_ANY_OF } pred_op;

typedef struct pred {
    pred_op op;
    uint32_t capture;                   /* the capture tested */
    int64_t other;                      /* #eq?/#not-eq? against a capture: its id; else -1 */
    const char *str;                    /* #eq?/#not-eq? string; borrowed from the TSQuery */
    uint32_t str_len;
    pcre2_code *re;                     /* #match?/#not-match?; owned */
    const TSQueryPredicateStep *args;   /* #any-of? strings; borrowed from the TSQuery */
    uint32_t nargs;
} pred;

typedef struct pattern_info {
    uint32_t first, n;          /* its predicates: a slice of pyquery.preds */
    uint32_t report;            /* query rules: the capture id reported, or REPORT_OUTERMOST */
    const sunset_rule *rule;    /* query rules: the rule it belongs to; borrowed; else NULL */
} pattern_info;

typedef struct pyquery {
    TSQuery *q;                 /* owned */
    vec preds;                  /* of pred; owned */
    pattern_info *pats;         /* one per pattern; owned */
    uint8_t *roles;             /* facts.scm only: role per capture id; owned */
} pyquery;

typedef struct py_state {
    pcre2_general_context *gctx; /* routes PCRE2's allocations through sunset_malloc */
    pcre2_compile_context *cctx;
    pyquery facts;
    pyquery *rules;              /* one query per query rule, compiled only when `all` is not
                                    (fewer than two rules, or to name the rule of an error);
                                    q NULL otherwise; owned */
    const sunset_rule **rule_of; /* per query rule: the rule; borrowed; the array owned */
    size_t nrules;
    pyquery all;                 /* every rule's patterns in one query, so that a file is walked
                                    once for all rules; q is NULL with fewer than two rules */
    char *facts_path;            /* for messages; owned */
    unsigned parse_budget_ms;
    uint32_t match_limit;
    TSSymbol sym_attribute, sym_call; /* the links of a postfix chain (see MAX_CHAIN) */
    /* lazy (sunset_frontend_config.lazy_queries): the queries are compiled by the first scan
     * that needs them (py_ready, under mu; the one part of the state written after init) */
    bool lazy;
    char *facts_text;            /* facts.scm's bytes until then; owned */
    size_t facts_len;
    pthread_mutex_t mu;
    _Atomic bool ready;
    bool failed;
    char *lazy_error;            /* why they did not compile; owned */
} py_state;

typedef struct py_worker {
    const py_state *st;          /* borrowed; outlives the worker */
    TSParser *parser;
    TSQueryCursor *cursor;
    pcre2_match_data *md;
    pcre2_match_context *mctx;   /* the interpreter retry's limits (a larger heap) */
    size_t cancel;               /* the parser's cancellation flag: set when the time is up */
} py_worker;

/* A query text and where it comes from, for init error messages. */
typedef struct qsrc {
    const char *path;            /* facts.scm path, or a label; used when rule is NULL */
    const sunset_rule *rule;     /* the rule whose query this is, or NULL */
    const char *text;
    size_t len;
    bool facts;                  /* facts.scm: capture names are roles */
} qsrc;

/* ---- doccode.c ---- */

/* The code examples of the docstrings docs[i] = {start, end} (byte offsets of the string
 * nodes, quotes included) in a copy of data as long as data (plus a NUL), all other bytes
 * blanks, newlines kept; NULL when they hold no code (or on OOM). Caller frees. */
char *py_doc_mask(const char *data, size_t len, const uint32_t (*docs)[2], size_t n);
/* The same for comments ({start, end} from the '#'): the text of those that look like code (a
 * call, an assignment, an import); NULL when none does. Caller frees. */
char *py_comment_mask(const char *data, size_t len, const uint32_t (*comments)[2], size_t n);
/* The same for a document: a Markdown file's Python (or untagged) fences, a reST file's
 * code-block / `::` bodies, doctest lines in either; NULL when it has none. Caller frees. */
char *py_markup_mask(const char *data, size_t len, bool markdown);
/* A Jupyter notebook's code as Jupyter runs it: each code cell's source strings (a list or
 * one string) joined and JSON-decoded (escapes, \uXXXX, lines split between strings or
 * joined by "\n" in one), one cell after another. text is as long as the file (plus a NUL),
 * the code first, blanks after it, so that it can take a mask's place; off maps each code
 * byte to the file byte it was decoded from, so py_nb_span gives a fact the file's line and
 * column. */
typedef struct py_nb {
    const char *data;
    char *text;
    uint32_t n;                    /* the code's length in text */
    uint32_t *off;                 /* n + 1 file offsets */
    uint32_t *rows, nrows;         /* where each line of text starts */
    uint32_t *lines, nlines;       /* where each line of the file starts */
} py_nb;
/* False when the file has no code cell, is no notebook, or on OOM (nb then holds nothing). */
bool py_notebook_source(const char *data, size_t len, py_nb *nb);
/* A span in nb->text (1-based lines and columns) as the file's. */
sunset_span py_nb_span(const py_nb *nb, sunset_span s);
void py_nb_free(py_nb *nb); /* text too, unless taken (set to NULL) */

/* ---- units.c ---- */

/* A top-level unit of a module: a statement with its decorators, its else / elif / except /
 * finally clauses and the comment and blank lines after it; the lines before the first
 * statement are a unit of their own. Units start at the start of a line and end where the
 * next one starts (the last at the end of the file). */
typedef struct py_unit {
    uint32_t start;   /* byte offset */
    uint32_t row;     /* 0-based line */
} py_unit;

/* The units of d, in order, into out (of py_unit; emptied first): the first is always the
 * lines before the first statement, empty when the file starts with one. 0, -1 on OOM. */
int py_units(const char *d, size_t len, vec *out);
/* The same for the bytes [from, to) of d, row the 0-based line at from, whose statements
 * start at `indent` blanks: 0 for a module, -1 for a class unit (the indentation of its
 * body's first statement; the first unit is then the class's header: decorators, the class
 * line, comments up to the first statement of the body). */
int py_split(const char *d, uint32_t from, uint32_t to, uint32_t row, int indent, vec *out);
/* Is the unit [from, to) a class definition (after its decorators)? */
bool py_unit_is_class(const char *d, uint32_t from, uint32_t to);

/* The '.' and '(' of d, counted up to MAX_CHAIN + 1. Every attribute link owns a '.' and
 * every call link a '(' of its own, so text with at most MAX_CHAIN of them holds no chain
 * over MAX_CHAIN and chains whose squared lengths sum to at most MAX_CHAIN_WORK: it needs
 * no walk (the walk was 2.4% of a cold scan of Paddle, perf). A chain whose links are all
 * error-recovery MISSING tokens would escape this count; the time limit still bounds such a
 * file. */
uint32_t py_chain_marks(const char *d, size_t len);

/* The part of a file to parse, and what it leaves out. */
typedef struct py_part {
    vec ranges;   /* TSRange: the units to parse, adjacent ones merged */
    vec skipped;  /* uint32_t[2]: the byte ranges left out, sorted */
    uint64_t skipped_work; /* the units left out: the sum of their py_chain_marks squared,
                              a bound on their chains' share of MAX_CHAIN_WORK */
} py_part;

/* Which of the file's units to parse, into pt (its vecs empty): those a rule may match in
 * (sunset_sink_may_match of each: a match lies within one statement, and so do its
 * literals), and the first statement, on which it depends whether a string opens the module
 * (its docstring); a class of 2 KB or more by the statements of its body. False when the
 * whole file is to be parsed: fewer than two units, a part of most of the file, a chain
 * over MAX_CHAIN possible in a unit left out, or OOM. A Python file that reaches the parser
 * is mostly code no rule can match in (Paddle's framework.py: 290 KB for a few matches),
 * and the parse and the facts query cost in proportion to what is parsed. */
bool py_choose_part(const sunset_source *src, sunset_sink *sink, py_part *pt);

/* ---- query.c ---- */

/* PCRE2's allocator hooks: sunset_malloc/sunset_free, so the allocation hook sees them. */
void *py_pc_malloc(PCRE2_SIZE n, void *ud);
void py_pc_free(void *p, void *ud);
/* Frees what pq owns; pq is left zeroed. */
void py_query_free(pyquery *pq);
/* Compile w's text into pq (roles for facts.scm, predicates, the rule binding). 0, or -1 with
 * err set to "FILE:LINE:COL: message". */
int py_query_compile(pyquery *pq, const py_state *st, const qsrc *w, sunset_error *err);
/* st->all from st->rule_of: every query rule in one query, rule i owning the patterns its
 * text holds. 0, or -1 with err set (a message about the union, not naming the rule). */
int py_compile_all_rules(py_state *st, sunset_error *err);
/* query.c: 1 with *at the head of a postfix chain longer than MAX_CHAIN, 2 with *at the head of
 * the chain at which the squares of the chains' lengths sum to more than `work`, else 0. */
int py_long_chain(const py_state *st, TSNode root, uint64_t work, TSNode *at);
/* doccode.c: the byte ranges [start, end) of the commented-out statements of a comments'
 * parse (false on OOM); the mask with its blank-only lines emptied (returns its length). */
bool py_dead_statements(TSNode root, vec *out);
size_t py_squeeze_blank_lines(char *m, size_t len);

#endif
