/*
 * sunset.h — the public seam between the scan engine and its plug-ins.
 *
 * Frontends (src/lang/*.c) and report writers (src/report/*.c) include this header and
 * nothing of the engine's private headers (*_int.h); `make lint-headers` checks that.
 * A frontend turns one source file into a stream of *facts* (an identifier in code, a word
 * in a comment, an include, a Python keyword argument, a CMake DEPS entry ...) and hands
 * them to the engine through a sink; the engine alone decides which rules match.
 * The engine therefore knows no language, and a frontend knows no rule semantics beyond
 * the query rules that only it can evaluate.
 *
 * Ownership: every pointer a frontend receives is borrowed for the duration of the call
 * unless a comment says otherwise; every pointer it passes to the sink is copied by the
 * engine before the call returns, so a frontend may free its scratch right after.
 */
#ifndef SUNSET_H
#define SUNSET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The version: the file VERSION at the top is its one place (the Makefile passes it;
 * scripts/bump-version.sh changes it and every file that repeats it). */
#ifndef SUNSET_VERSION
#error "SUNSET_VERSION is unset: build with make, which reads it from the file VERSION"
#endif

/* Set by the Makefile for the objects that print them (cmd/cli.c, report/sarif.c): the commit
 * sunset was built from ("" outside a checkout) and where its sources are published ("" =
 * unknown: SARIF then has no informationUri/helpUri). */
#ifndef SUNSET_GIT_COMMIT
#define SUNSET_GIT_COMMIT ""
#endif
#ifndef SUNSET_URL
#define SUNSET_URL ""
#endif

/* Bumped whenever sunset_frontend or the sink API changes shape; the registry refuses a
 * frontend built against another value. */
#define SUNSET_FRONTEND_ABI 3

/* Bumped when rules/*.json change incompatibly; the loader refuses other values. */
#define SUNSET_RULE_SCHEMA 1

typedef enum sunset_lang {
    SUNSET_LANG_NONE = 0,
    SUNSET_LANG_CPP,      /* .c .cc .cpp .cxx .cu .h .hh .hpp .cuh */
    SUNSET_LANG_PYTHON,   /* .py .pyi */
    SUNSET_LANG_CMAKE,    /* CMakeLists.txt, *.cmake */
    SUNSET_LANG_PROTO,    /* .proto */
    SUNSET_LANG_SHELL,    /* .sh .bash, shebang */
    SUNSET_LANG_MARKDOWN, /* .md */
    SUNSET_LANG_RST,      /* .rst */
    SUNSET_LANG_TEXT,     /* other text: .txt, CODEOWNERS, .cfg, .yml ... */
    SUNSET_LANG_COUNT
} sunset_lang;

/* Where a match sits. Comments and docs lower a finding's default severity. */
typedef enum sunset_context {
    SUNSET_CTX_CODE = 0,
    SUNSET_CTX_COMMENT,
    SUNSET_CTX_STRING,
    SUNSET_CTX_DOCSTRING,
    SUNSET_CTX_DEAD_CODE, /* commented-out code: a comment that parses as a statement (Python) */
    SUNSET_CTX_COUNT
} sunset_context;

typedef enum sunset_severity {
    SUNSET_SEV_INFO = 0,
    SUNSET_SEV_WARNING,
    SUNSET_SEV_ERROR,
    SUNSET_SEV_COUNT
} sunset_severity;

/* 1-based line and byte column; end_col is the column just past the last byte (exclusive). */
typedef struct sunset_span {
    uint32_t line, col, end_line, end_col;
} sunset_span;

/* What a frontend can report. The meaning of text/aux/target/section per kind: */
typedef enum sunset_fact_kind {
    SUNSET_FACT_IDENT = 0, /* identifier token in code. text = the identifier; aux = name of the
                              innermost call/macro whose argument list holds it (NULL if none);
                              qual = fully qualified referenced entity (precise mode, else NULL) */
    SUNSET_FACT_STRING,    /* string literal. text = contents without quotes/prefix (raw, escapes
                              kept); span covers the contents. Use sunset_emit_text() for strings:
                              it also reports the words inside. */
    SUNSET_FACT_INCLUDE,   /* C/C++ #include. text = the path between <> or "" */
    SUNSET_FACT_IMPORT,    /* Python import. text = dotted module ("a.b"; relative ones keep their
                              leading dots); aux = imported name for from-imports ("*" for star),
                              NULL for plain imports; target = alias or NULL */
    SUNSET_FACT_BASE,      /* class base. text = base as written ("details::OpHandleBase",
                              "unittest.TestCase"); aux = the derived class name */
    SUNSET_FACT_ATTR,      /* attribute access (Python) or member access (C++ ./->).
                              text = attribute name; aux = receiver expression text */
    SUNSET_FACT_KWARG,     /* keyword argument. text = keyword; aux = callee text */
    SUNSET_FACT_CALL,      /* call. text = callee as written ("core.ParallelExecutor") */
    SUNSET_FACT_DEF,       /* definition of a class/function/method. text = its name;
                              aux = "class" | "function" | "method" | "struct" | "macro" ... */
    SUNSET_FACT_CMAKE,     /* CMake command argument. text = the argument (unquoted);
                              aux = command name (lower-case); target = first argument (the
                              target or variable name); section = the keyword section it sits in
                              ("SRCS", "DEPS", "MODULES" ...; "" before any keyword); the argument
                              that is itself the target has flags SUNSET_FACT_TARGET. */
    SUNSET_FACT_LINE,      /* one line of a text file (text frontend). text = the line, no EOL */
    SUNSET_FACT_BIND,      /* Python binding, for legacy-object flow (never matched by itself).
                              text = the target as written ("exe", "self._pe"); aux = the bound
                              expression's text; span = the bound expression. With flag
                              SUNSET_FACT_RETURN: a return statement of the enclosing function,
                              text = "". With SUNSET_FACT_ARG: an argument of a call, text = the
                              callee as written, span = the argument's value, section = the
                              keyword, or the 0-based position in decimal. With
                              SUNSET_FACT_PARAM: a parameter of the function whose definition
                              holds it, text = its name, aux = "", section = its 0-based
                              position in decimal (NULL: keyword-only or variadic), stmt = the
                              function's body (its column is the body's block depth) */
    SUNSET_FACT_KIND_COUNT
} sunset_fact_kind;

enum {
    SUNSET_FACT_STORE = 1u << 0,      /* ATTR: assigned to (x.a = ..., x.a += ...) */
    SUNSET_FACT_DEFINITION = 1u << 1, /* IDENT: the identifier being declared */
    SUNSET_FACT_TARGET = 1u << 2,     /* CMAKE: this argument names the target being defined */
    SUNSET_FACT_RETURN = 1u << 3,     /* BIND: the value of a return statement */
    SUNSET_FACT_ARG = 1u << 4,        /* BIND: a call's argument binds a parameter */
    SUNSET_FACT_PARAM = 1u << 5,      /* BIND: a function's parameter */
    SUNSET_FACT_ELEM = 1u << 6,       /* BIND: element `section` (decimal) of a tuple: the
                                         target of `a, b = f()`, an entry of `return a, b` */
    SUNSET_FACT_ITEM = 1u << 7,       /* BIND: the value becomes an element of the target
                                         (`exes = [pe]`, `exes.append(pe)`) */
    SUNSET_FACT_ITER = 1u << 8,       /* BIND: the target is an element of the value, a
                                         container (`for e in exes:`) */
    SUNSET_FACT_NAMESPACE = 1u << 9,  /* IDENT (C++): written as a namespace, followed by `::`
                                         or after `namespace` (`paddle::framework`, `using
                                         namespace paddle;`), not a variable of that name */
};

typedef struct sunset_fact {
    sunset_fact_kind kind;
    sunset_context ctx;
    sunset_span span;
    unsigned flags;
    const char *text; size_t text_len;
    const char *aux; size_t aux_len;         /* may be NULL */
    const char *target; size_t target_len;   /* may be NULL */
    const char *section; size_t section_len; /* may be NULL */
    const char *qual; size_t qual_len;       /* may be NULL */
    sunset_span stmt;   /* code facts: the whole statement holding the fact (a multi-line call
                           with its argument lines), which a removal must take; all 0 = none */
    sunset_span block;  /* BIND: the block holding the binding (a parameter's: its function's
                           body), whose lines a re-binding must hold to end a mark; all 0 =
                           unknown (then the statement's column stands for its depth) */
} sunset_fact;

/* One file handed to a frontend. All fields are borrowed for the duration of scan(). */
typedef struct sunset_source {
    const char *path;    /* relative to the scan root, '/'-separated */
    const char *fspath;  /* path to open() if the frontend needs the file itself */
    const char *data;    /* the whole file, NUL-terminated (data[len] == 0) */
    size_t len;
    sunset_lang lang;    /* may differ from the path's language: the Python blocks of a
                            Markdown/reST file are handed to the Python frontend as lang PYTHON
                            (core/lang.c: sunset_lang_embedded), to be scanned at the file's
                            positions */
} sunset_source;

typedef struct sunset_sink sunset_sink;   /* engine-owned, one per file being scanned */
typedef struct sunset_rule sunset_rule;   /* engine-owned, lives as long as the rule set */
typedef struct sunset_ruleset sunset_ruleset;

/* Report a fact. Strings in *fact are copied if needed; the fact may live on the stack. */
void sunset_emit(sunset_sink *sink, const sunset_fact *fact);

/* Report a comment, string literal or docstring whose contents start at `at` (line/col of the
 * first content byte; end fields are ignored). The engine matches string rules against the
 * whole text and identifier rules against each word in it, computing each word's position
 * by walking the text (so `text` must be the raw source bytes when it spans lines).
 * `call` is the callee whose argument list holds a string (NULL if none). */
void sunset_emit_text(sunset_sink *sink, sunset_context ctx, sunset_span at,
                      const char *text, size_t len, const char *call);

/* sunset_emit_text for a string literal that sits in a simple statement: its matches carry
 * `stmt` (the lines a removal takes: `raise TypeError(\n "...ParallelExecutor..."\n)`), as
 * code facts do. A stmt that does not hold at.line is ignored. */
void sunset_emit_text_stmt(sunset_sink *sink, sunset_context ctx, sunset_span at,
                           const char *text, size_t len, const char *call, sunset_span stmt);

/* Where code puts a string literal, as its frontend reads the literal's place: an argument
 * of a call (`call`, at position `arg`: 0-based, -1 a keyword argument), a subscript's key
 * (`env["FLAGS_x"]`), a dict literal's key, a comparison's operand (`name == "X"`, `"X" in
 * s`). Whether such a string is code (a name the program registers, looks up or compares)
 * or text (a message) is the settings pack's (settings.remnants.code_strings), never the
 * frontend's. */
typedef enum sunset_str_use {
    SUNSET_USE_NONE = 0,
    SUNSET_USE_ARG,
    SUNSET_USE_SUBSCRIPT,
    SUNSET_USE_KEY,
    SUNSET_USE_COMPARE,
    SUNSET_USE_COUNT
} sunset_str_use;

/* sunset_emit_text_stmt for a string literal of code, with its use (stmt may be all 0). */
void sunset_emit_string(sunset_sink *sink, sunset_span at, const char *text, size_t len,
                        const char *call, sunset_str_use use, int arg, sunset_span stmt);

/* A statement a frontend computes only when asked (sunset_emit_lazy): most facts match no
 * rule, and the walk to a statement's ends is dearer than the fact itself. ud is the
 * frontend's, valid for the duration of the emit call. */
typedef sunset_span (*sunset_stmt_fn)(void *ud);

/* sunset_emit with the statement left to stmt(ud) (fact->stmt is not read): called at most
 * once, during this call, and only when the engine needs it (a rule matched the fact, or
 * legacy-object flow records it); the result is judged as fact->stmt is. */
void sunset_emit_lazy(sunset_sink *sink, const sunset_fact *fact, sunset_stmt_fn stmt, void *ud);

/* sunset_emit_string with the statement left to stmt(ud), as sunset_emit_lazy. */
void sunset_emit_string_lazy(sunset_sink *sink, sunset_span at, const char *text, size_t len,
                             const char *call, sunset_str_use use, int arg, sunset_stmt_fn stmt,
                             void *ud);

/* A query rule matched (frontends that evaluate query rules themselves). */
void sunset_emit_match(sunset_sink *sink, const sunset_rule *rule, sunset_context ctx,
                       sunset_span span);

/* Declare a lexical scope (namespace, class, struct, function, method, cmake target ...).
 * The engine attributes each finding to the innermost scope holding its line. */
void sunset_scope(sunset_sink *sink, const char *kind, const char *name,
                  uint32_t start_line, uint32_t end_line);

/* Can any rule match in `data`, a text derived from this file (a docstring's or comment's
 * code, masked to the file's positions)? False only when none of the engine's prefilter
 * literals for the file's language occurs in it and no legacy-object flow of this file is
 * waiting on a bound object: then scanning `data` could report nothing, and a frontend may
 * skip that pass (a second parse of the whole file). */
bool sunset_sink_may_match(sunset_sink *sink, const char *data, size_t len);

/* Can `rule` match anywhere in this file? False only when none of its literals occurs in
 * the file: a rule matches nowhere its literals are absent (the prefilter's contract), so a
 * frontend may skip the work that only that rule needs (its query). */
bool sunset_sink_rule_may_match(sunset_sink *sink, const sunset_rule *rule);

/* A frontend may scan part of a file: the parts no rule can match in (sunset_sink_may_match
 * of each) left out of its parse. Every match is then in the part; but a legacy object the
 * part binds at module or class level (`x = ...`, `self.x = ...`), or a function of it
 * returns, may be used in the parts left out, where legacy-object flow would report it.
 * After scanning the part, a frontend asks whether it suffices (`skipped`: the byte ranges
 * [start, end) it left out, sorted); when it does not, sunset_sink_restart forgets
 * everything it reported for the file (facts, matches, scopes, warnings) and the frontend
 * scans the whole file. */
bool sunset_sink_part_suffices(sunset_sink *sink, const uint32_t (*skipped)[2], size_t n);
void sunset_sink_restart(sunset_sink *sink);

/* A diagnostic about this file ("parse budget exceeded", "query match limit hit").
 * Printed as "PATH:LINE:COL: warning: MESSAGE" and counted; never fatal. line/col 0 = unknown. */
void sunset_warn(sunset_sink *sink, uint32_t line, uint32_t col, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* --- rule access for frontends that evaluate language-specific rules (query rules) --- */

/* Number of query rules for `lang`, and the i-th (borrowed, lives as long as the rule set). */
size_t sunset_ruleset_query_count(const sunset_ruleset *rules, sunset_lang lang);
const sunset_rule *sunset_ruleset_query_at(const sunset_ruleset *rules, sunset_lang lang, size_t i);
const char *sunset_rule_id(const sunset_rule *rule);
/* The rule's query source text (NUL-terminated) and the capture it reports ("" = whole match). */
const char *sunset_rule_query(const sunset_rule *rule);
const char *sunset_rule_query_capture(const sunset_rule *rule);
/* Where the query text came from, for error messages: "rules/x.json" or "queries/python/y.scm". */
const char *sunset_rule_origin(const sunset_rule *rule);

/* Does the CMake command `name` (lower case) define the target its first argument names
 * (settings.cmake.target_commands: cc_library, py_test ...)? CMake's own target commands are
 * the frontend's to know; rules may be NULL (none). */
bool sunset_ruleset_target_command(const sunset_ruleset *rules, const char *name);
/* Is s[0, n) a keyword argument of the tree's CMake wrappers that opens a section
 * (settings.cmake.keywords: SRCS, DEPS, MODULES ...)? rules may be NULL (none). */
bool sunset_ruleset_cmake_keyword(const sunset_ruleset *rules, const char *s, size_t n);

/* --- frontends --- */

typedef struct sunset_frontend_config {
    const sunset_ruleset *rules;
    const char *queries_dir;      /* directory holding <frontend>/ query files */
    const char *compile_db_dir;   /* -p DIR: compile_commands.json directory, or NULL */
    const char *root;             /* scan root (absolute) */
    unsigned parse_budget_ms;     /* per-file parse budget, 0 = none */
    /* the queries compiled before under this very configuration (the content cache keeps the
     * record, in a namespace of the query files' and rules' bytes and the binary): a frontend
     * may compile them when a file first needs them instead of at init */
    bool lazy_queries;
} sunset_frontend_config;

/* Errors from init: one line, "FILE:LINE:COL: message" when a position is known. */
typedef struct sunset_error {
    char msg[1024];
} sunset_error;

typedef struct sunset_frontend {
    unsigned abi;                 /* SUNSET_FRONTEND_ABI */
    const char *name;             /* "clang", "python", "text" */
    const sunset_lang *langs;     /* languages handled, SUNSET_LANG_NONE-terminated */
    /* Once per run. Returns 0 and sets *state, or -1 with err filled. */
    int (*init)(const sunset_frontend_config *cfg, void **state, sunset_error *err);
    void (*fini)(void *state);    /* accepts NULL */
    /* Once per worker thread; the result is only ever used by that thread. NULL = out of memory. */
    void *(*worker_new)(void *state);
    void (*worker_free)(void *worker); /* accepts NULL */
    /* Scan one file. Returns 0; -1 only when the file could not be analysed at all (the engine
     * reports it as skipped with a warning the frontend gave through sunset_warn). */
    int (*scan)(void *worker, const sunset_source *src, sunset_sink *sink);
} sunset_frontend;

/* Memory hook: all sunset code allocates through these, so tests can count allocations and
 * fail the Nth one. They return NULL on failure (never abort); free accepts NULL. */
void *sunset_malloc(size_t n);
void *sunset_calloc(size_t n, size_t size);
void *sunset_realloc(void *p, size_t n);
char *sunset_strndup(const char *s, size_t n);
void sunset_free(void *p);

#endif
