/*
 * text.c — the text frontend: CMake, proto, shell, Markdown, reStructuredText and other
 * plain text files (CODEOWNERS, .txt, .cfg, .yml ...).
 *
 * Every language gets one SUNSET_FACT_LINE per line (text without the EOL; ctx COMMENT for
 * a line that is entirely a comment, DOCSTRING for every Markdown/RST line, CODE otherwise)
 * and every comment is also reported through sunset_emit_text so that word-level rules see
 * it. Proto and shell string literals are reported as STRING text.
 *
 * CMake files go through the one CMake tokenizer (base/cmake.c, shared with the index): command
 * invocations whose arguments span lines, nested parentheses, quoted arguments with escapes
 * and continuations, bracket arguments and bracket comments, legacy unquoted arguments.
 * Each argument of a command becomes a SUNSET_FACT_CMAKE fact (text, command, target, keyword
 * section, TARGET flag); target-defining commands, if/elseif/else branches and
 * function/macro definitions become scopes. A command missing its ')' is reported with
 * sunset_warn and tokenizing resumes on the line after its start, so one typo does not
 * swallow the rest of the file.
 *
 * Speed: nothing is allocated per line or per token. Fact texts point into src->data; a
 * worker owns a few growable scratch arrays (line flags, command arguments, comments, the
 * if/function stack) that are reused from file to file.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sunset.h"
#include "base/cmake.h"
#include "base/util.h"

enum cm_block_kind { BLK_IF, BLK_FUNCTION, BLK_MACRO };

/* An open if()/function()/macro(). name_off indexes the worker's name arena. */
typedef struct cm_block {
    enum cm_block_kind kind;
    uint32_t start_line, start_col;
    size_t name_off;
} cm_block;

/* Run-wide state: the rule set, for the tree's CMake target commands (settings.cmake). */
typedef struct text_state {
    const sunset_ruleset *rules;
} text_state;

/* Per-thread scratch, reused across files. Owned by the worker; freed by text_worker_free. */
typedef struct text_worker {
    const sunset_ruleset *rules; /* borrowed from the state */
    uint8_t *lflags; /* CMAKE_LINE_* per line, index = 1-based line number */
    size_t lflags_cap;
    vec args;     /* cmake_arg of the current command */
    vec comments; /* cmake_comment of the current file */
    vec blocks;   /* cm_block stack */
    sb names;     /* NUL-terminated names of open blocks */
    sb tmp;       /* lower-cased command name */
    sb tmp2;      /* scope names (target, condition) */
    bool oom;
} text_worker;

/* ------------------------------------------------------------------ shared helpers */

static inline bool is_hspace(unsigned char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

static void emit_line(sunset_sink *sink, uint32_t line, const char *s, size_t n,
                      sunset_context ctx) {
    sunset_fact f = {0};
    f.kind = SUNSET_FACT_LINE;
    f.ctx = ctx;
    f.span = (sunset_span){line, 1, line, (uint32_t)n + 1};
    f.text = s;
    f.text_len = n;
    sunset_emit(sink, &f);
}

static void emit_text_at(sunset_sink *sink, sunset_context ctx, uint32_t line, uint32_t col,
                         const char *s, size_t n) {
    if (n == 0) return;
    sunset_emit_text(sink, ctx, (sunset_span){line, col, line, col}, s, n, NULL);
}

/* Length of a line without its EOL ("\n" or "\r\n"); *next is where the next line starts. */
static inline size_t line_at(const char *p, const char *end, const char **next) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    const char *e = nl ? nl : end;
    *next = nl ? nl + 1 : end;
    size_t n = (size_t)(e - p);
    if (n && p[n - 1] == '\r') n--;
    return n;
}

/* ------------------------------------------------------------------ line-oriented languages */

/* TEXT (and CODEOWNERS-like files): '#' at the start of a line or after whitespace. */
static void scan_hash_line(sunset_sink *sink, uint32_t line, const char *s, size_t n) {
    bool code = false;
    const char *hash = NULL;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '#' && (i == 0 || is_hspace((unsigned char)s[i - 1]))) {
            hash = s + i;
            break;
        }
        if (!is_hspace((unsigned char)s[i])) code = true;
    }
    emit_line(sink, line, s, n, hash && !code ? SUNSET_CTX_COMMENT : SUNSET_CTX_CODE);
    if (hash)
        emit_text_at(sink, SUNSET_CTX_COMMENT, line, (uint32_t)(hash - s) + 2, hash + 1,
                     (size_t)(s + n - hash - 1));
}

/* Shell: '#' starting a word is a comment; '...' and "..." on one line are strings. */
static void scan_shell_line(sunset_sink *sink, uint32_t line, const char *s, size_t n) {
    bool code = false;
    size_t hash = n; /* index of the comment's '#', n = none */
    size_t i = 0;
    while (i < n) {
        unsigned char c = (unsigned char)s[i];
        if (c == '\\') {
            code = true;
            i += 2;
            continue;
        }
        if (c == '\'' || c == '"') {
            size_t j = i + 1;
            while (j < n && (unsigned char)s[j] != c) j += (c == '"' && s[j] == '\\') ? 2 : 1;
            size_t close = j < n ? j : n;
            emit_text_at(sink, SUNSET_CTX_STRING, line, (uint32_t)i + 2, s + i + 1, close - i - 1);
            code = true;
            i = close + 1;
            continue;
        }
        if (c == '#' && (i == 0 || is_hspace((unsigned char)s[i - 1]) ||
                         (s[i - 1] && strchr(";&|()<>", s[i - 1])))) {
            hash = i;
            break;
        }
        if (!is_hspace(c)) code = true;
        i++;
    }
    emit_line(sink, line, s, n, hash < n && !code ? SUNSET_CTX_COMMENT : SUNSET_CTX_CODE);
    if (hash < n)
        emit_text_at(sink, SUNSET_CTX_COMMENT, line, (uint32_t)hash + 2, s + hash + 1,
                     n - hash - 1);
}

/* Proto: // and block comments, "..." and '...' strings (which cannot span lines). A block
 * comment is reported once, when it closes, as the raw bytes between its delimiters. */
typedef struct proto_state {
    bool in_block;
    const char *block; /* first byte of the open block comment's contents */
    uint32_t block_line, block_col;
} proto_state;

static void scan_proto_line(sunset_sink *sink, proto_state *ps, uint32_t line, const char *s,
                            size_t n) {
    bool code = false, comment = ps->in_block;
    size_t i = 0;
    while (i < n) {
        if (ps->in_block) {
            const char *e = NULL;
            for (const char *q = s + i; q + 1 < s + n; q++)
                if (q[0] == '*' && q[1] == '/') {
                    e = q;
                    break;
                }
            if (!e) break;
            emit_text_at(sink, SUNSET_CTX_COMMENT, ps->block_line, ps->block_col, ps->block,
                         (size_t)(e - ps->block));
            ps->in_block = false;
            i = (size_t)(e - s) + 2;
            continue;
        }
        unsigned char c = (unsigned char)s[i];
        if (c == '/' && i + 1 < n && s[i + 1] == '/') {
            comment = true;
            emit_text_at(sink, SUNSET_CTX_COMMENT, line, (uint32_t)i + 3, s + i + 2, n - i - 2);
            break;
        }
        if (c == '/' && i + 1 < n && s[i + 1] == '*') {
            comment = true;
            ps->in_block = true;
            ps->block = s + i + 2;
            ps->block_line = line;
            ps->block_col = (uint32_t)i + 3;
            i += 2;
            continue;
        }
        if (c == '"' || c == '\'') {
            size_t j = i + 1;
            while (j < n && (unsigned char)s[j] != c) j += s[j] == '\\' ? 2 : 1;
            size_t close = j < n ? j : n;
            emit_text_at(sink, SUNSET_CTX_STRING, line, (uint32_t)i + 2, s + i + 1, close - i - 1);
            code = true;
            i = close + 1;
            continue;
        }
        if (!is_hspace(c)) code = true;
        i++;
    }
    emit_line(sink, line, s, n, comment && !code ? SUNSET_CTX_COMMENT : SUNSET_CTX_CODE);
}

static void scan_lines(const sunset_source *src, sunset_sink *sink) {
    const char *p = src->data, *end = src->data + src->len, *next;
    proto_state ps = {0};
    uint32_t line = 0;
    while (p < end) {
        size_t n = line_at(p, end, &next);
        line++;
        switch (src->lang) {
        case SUNSET_LANG_MARKDOWN:
        case SUNSET_LANG_RST: emit_line(sink, line, p, n, SUNSET_CTX_DOCSTRING); break;
        case SUNSET_LANG_SHELL: scan_shell_line(sink, line, p, n); break;
        case SUNSET_LANG_PROTO: scan_proto_line(sink, &ps, line, p, n); break;
        default: scan_hash_line(sink, line, p, n); break;
        }
        p = next;
    }
    if (ps.in_block)
        emit_text_at(sink, SUNSET_CTX_COMMENT, ps.block_line, ps.block_col, ps.block,
                     (size_t)(end - ps.block));
}

/* ------------------------------------------------------------------ CMake tables */

enum {
    CMD_OTHER = 0,
    CMD_IF,
    CMD_ELSEIF,
    CMD_ELSE,
    CMD_ENDIF,
    CMD_FUNCTION,
    CMD_ENDFUNCTION,
    CMD_MACRO,
    CMD_ENDMACRO,
    CMD_SUBCOMMAND,   /* list(), file(): the target is the second argument */
    CMD_ADD_TEST,     /* add_test(NAME t ...): the target follows NAME */
    CMD_SET_PROPERTY, /* set_property(TEST|TARGET|SOURCE ... t ...): the target follows */
    CMD_KIND_MASK = 0xff,
    CMD_DEFINES = 0x100, /* defines the target named by its target argument */
};

typedef struct cm_command {
    const char *name;
    unsigned kind;
} cm_command;

/* CMake's own commands the frontend knows, sorted by name (bsearch). The tree's wrappers that
 * define a target (Paddle's cc_library, py_test ...) are data: settings.cmake.target_commands. */
static const cm_command cm_commands[] = {
    {"add_custom_target", CMD_DEFINES},
    {"add_executable", CMD_DEFINES},
    {"add_library", CMD_DEFINES},
    {"add_test", CMD_ADD_TEST | CMD_DEFINES},
    {"else", CMD_ELSE},
    {"elseif", CMD_ELSEIF},
    {"endfunction", CMD_ENDFUNCTION},
    {"endif", CMD_ENDIF},
    {"endmacro", CMD_ENDMACRO},
    {"file", CMD_SUBCOMMAND},
    {"function", CMD_FUNCTION},
    {"if", CMD_IF},
    {"list", CMD_SUBCOMMAND},
    {"macro", CMD_MACRO},
    {"set_property", CMD_SET_PROPERTY},
};

/* CMake's own keyword arguments that open a section, across its command families: target
 * commands, test registration, properties, list()/file() subcommands. Sorted (bsearch). The
 * tree's wrappers' keywords (Paddle's SRCS, DEPS, MODULES ...) are data:
 * settings.cmake.keywords. */
static const char *const cm_keywords[] = {
    "APPEND", "APPEND_STRING", "CACHE", "COMMAND", "COMMENT", "COMPILE_DEFINITIONS",
    "COMPILE_FLAGS", "COMPILE_OPTIONS", "CONFIGURATIONS", "DEPENDS", "DESTINATION", "DIRECTORY",
    "DISABLED", "ENVIRONMENT", "EXCLUDE", "FILES", "FILTER", "FIXTURES_REQUIRED",
    "FIXTURES_SETUP", "GLOB", "GLOB_RECURSE", "INCLUDE", "INSERT", "INTERFACE", "LABELS",
    "NAME", "OBJECT", "OUTPUT", "PREPEND", "PRIVATE", "PROCESSORS", "PROPERTIES", "PROPERTY",
    "PUBLIC", "REMOVE_AT", "REMOVE_DUPLICATES", "REMOVE_ITEM", "RESOURCE_LOCK", "RUN_SERIAL",
    "SHARED", "SOURCE", "SOURCES", "STATIC", "TARGET", "TARGETS", "TEST", "TIMEOUT",
    "WILL_FAIL", "WORKING_DIRECTORY",
};

/* Scope keywords of set_property() after which the target name follows. */
static const char *const cm_property_scopes[] = {
    "CACHE", "DIRECTORY", "INSTALL", "SOURCE", "TARGET", "TEST",
};

/* strcmp between a counted string and a NUL-terminated one. */
static int cmp_counted(const char *s, size_t n, const char *k) {
    for (size_t i = 0; i < n; i++) {
        unsigned char a = (unsigned char)s[i], b = (unsigned char)k[i];
        if (b == 0) return 1; /* s is longer (s may hold NUL bytes: binary input) */
        if (a != b) return a < b ? -1 : 1;
    }
    return k[n] ? -1 : 0;
}

static bool in_sorted(const char *s, size_t n, const char *const *tab, size_t count) {
    size_t lo = 0, hi = count;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        int c = cmp_counted(s, n, tab[mid]);
        if (c == 0) return true;
        if (c < 0) hi = mid;
        else lo = mid + 1;
    }
    return false;
}

static bool is_keyword(const sunset_ruleset *rules, const cmake_arg *a) {
    if (a->kind != CMAKE_UNQUOTED || a->len == 0 || a->len > 24) return false;
    if (a->text[0] < 'A' || a->text[0] > 'Z') return false;
    for (size_t i = 1; i < a->len; i++) {
        char c = a->text[i];
        if (!((c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_')) return false;
    }
    return in_sorted(a->text, a->len, cm_keywords, sizeof cm_keywords / sizeof cm_keywords[0]) ||
           sunset_ruleset_cmake_keyword(rules, a->text, a->len);
}

static unsigned command_kind(const sunset_ruleset *rules, const char *lname) {
    size_t lo = 0, hi = sizeof cm_commands / sizeof cm_commands[0];
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        int c = strcmp(lname, cm_commands[mid].name);
        if (c == 0) return cm_commands[mid].kind;
        if (c < 0) hi = mid;
        else lo = mid + 1;
    }
    return sunset_ruleset_target_command(rules, lname) ? CMD_DEFINES : CMD_OTHER;
}

/* ------------------------------------------------------------------ CMake tokenizer */

/* What the tokenizer's callbacks need (base/cmake.h is the tokenizer). */
typedef struct cm_ctx {
    text_worker *w;
    sunset_sink *sink;
} cm_ctx;

/* ------------------------------------------------------------------ CMake semantics */

/* Appends `s` to b with each run of whitespace as one space. */
static void put_normalized(sb *b, const char *s, size_t n) {
    bool space = false;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (is_hspace(c) || c == '\n') {
            space = true;
            continue;
        }
        if (space) sb_putc(b, ' ');
        space = false;
        sb_putc(b, (char)c);
    }
}

/* The if()/elseif() condition as written, whitespace normalized: "WITH_GPU OR WITH_ROCM",
 * "(A OR B) AND NOT C". Returns w->tmp2's text (valid until tmp2 is next used). */
static const char *condition_text(text_worker *w) {
    sb *b = &w->tmp2;
    b->len = 0;
    sb_putn(b, "", 0);
    for (size_t i = 0; i < w->args.n; i++) {
        const cmake_arg *a = &VEC_AT(&w->args, cmake_arg, i);
        if (i > 0 && a->kind != CMAKE_RPAREN &&
            VEC_AT(&w->args, cmake_arg, i - 1).kind != CMAKE_LPAREN)
            sb_putc(b, ' ');
        put_normalized(b, a->raw, a->raw_len);
    }
    return b->oom || !b->s ? "" : b->s;
}

/* Opens a block; its name is copied into the name arena. */
static void block_push(text_worker *w, enum cm_block_kind kind, uint32_t line, uint32_t col,
                       const char *name, size_t len) {
    cm_block b = {kind, line, col, w->names.len};
    if (!sb_putn(&w->names, name, len) || !sb_putc(&w->names, 0) || !vec_push(&w->blocks, &b))
        w->oom = true;
}

static void block_emit(text_worker *w, sunset_sink *sink, const cm_block *b, uint32_t end_line) {
    static const char *const kinds[] = {"if", "function", "macro"};
    const char *name = w->names.s && !w->names.oom ? w->names.s + b->name_off : "";
    sunset_scope(sink, kinds[b->kind], name, b->start_line,
                 end_line >= b->start_line ? end_line : b->start_line);
}

static void block_pop(text_worker *w) {
    cm_block *b = &VEC_AT(&w->blocks, cm_block, w->blocks.n - 1);
    w->names.len = b->name_off;
    if (w->names.s) w->names.s[w->names.len] = 0;
    w->blocks.n--;
}

/* Closes the innermost open block of `kind` at end_line, and any left open inside it. */
static void block_close(cm_ctx *x, enum cm_block_kind kind, const char *cmd, uint32_t line,
                        uint32_t col, uint32_t end_line) {
    text_worker *w = x->w;
    size_t i = w->blocks.n;
    while (i > 0 && VEC_AT(&w->blocks, cm_block, i - 1).kind != kind) i--;
    if (i == 0) {
        sunset_warn(x->sink, line, col, "%s() without a matching opening command", cmd);
        return;
    }
    while (w->blocks.n >= i) {
        block_emit(w, x->sink, &VEC_AT(&w->blocks, cm_block, w->blocks.n - 1), end_line);
        block_pop(w);
    }
}

/* elseif()/else(): ends the current branch of the innermost if() and starts the next. */
static void block_branch(cm_ctx *x, const char *cmd, uint32_t line, uint32_t col,
                         const char *name, size_t len) {
    text_worker *w = x->w;
    if (w->blocks.n == 0 || VEC_AT(&w->blocks, cm_block, w->blocks.n - 1).kind != BLK_IF) {
        sunset_warn(x->sink, line, col, "%s() outside of an if() block", cmd);
        return;
    }
    cm_block b = VEC_AT(&w->blocks, cm_block, w->blocks.n - 1);
    block_emit(w, x->sink, &b, line - 1);
    block_pop(w);
    block_push(w, BLK_IF, line, col, name, len);
}

/* Index into w->args (skipping parentheses) of the argument that is the command's target,
 * or SIZE_MAX. */
static size_t target_index(const text_worker *w, unsigned kind) {
    size_t want = 0, seen = 0;
    for (size_t i = 0; i < w->args.n; i++) {
        const cmake_arg *a = &VEC_AT(&w->args, cmake_arg, i);
        if (a->kind == CMAKE_LPAREN || a->kind == CMAKE_RPAREN) continue;
        if (seen == 0) {
            if ((kind & CMD_KIND_MASK) == CMD_SUBCOMMAND) want = 1;
            else if ((kind & CMD_KIND_MASK) == CMD_ADD_TEST && a->kind == CMAKE_UNQUOTED &&
                     cmp_counted(a->text, a->len, "NAME") == 0)
                want = 1;
            else if ((kind & CMD_KIND_MASK) == CMD_SET_PROPERTY && a->kind == CMAKE_UNQUOTED &&
                     in_sorted(a->text, a->len, cm_property_scopes,
                               sizeof cm_property_scopes / sizeof cm_property_scopes[0]))
                want = 1;
        }
        if (seen++ == want) return i;
    }
    return SIZE_MAX;
}

/* Does the command hold exactly one value: one argument that is not its target, a keyword or a
 * parenthesis (`list(REMOVE_ITEM TEST_OPS\n     test_x)`)? */
static bool one_value(const text_worker *w, size_t ti) {
    size_t n = 0;
    for (size_t i = 0; i < w->args.n && n < 2; i++) {
        const cmake_arg *a = &VEC_AT(&w->args, cmake_arg, i);
        n += a->kind != CMAKE_LPAREN && a->kind != CMAKE_RPAREN && i != ti && !is_keyword(w->rules, a);
    }
    return n == 1;
}

/* A complete command: report its arguments and update the scopes. */
static void cm_command_done(cm_ctx *x, const char *name, size_t name_len, uint32_t line,
                            uint32_t col, uint32_t end_line, uint32_t end_col) {
    text_worker *w = x->w;
    sb *ln = &w->tmp;
    ln->len = 0;
    if (!sb_grow(ln, name_len)) {
        w->oom = true;
        return;
    }
    for (size_t i = 0; i < name_len; i++) {
        char c = name[i];
        ln->s[i] = c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
    }
    ln->s[name_len] = 0;
    ln->len = name_len;
    unsigned kind = command_kind(w->rules, ln->s);
    size_t ti = target_index(w, kind);
    const cmake_arg *target = ti == SIZE_MAX ? NULL : &VEC_AT(&w->args, cmake_arg, ti);

    sunset_fact f = {0};
    f.kind = SUNSET_FACT_CMAKE;
    f.aux = ln->s;
    f.aux_len = ln->len;
    f.target = target ? target->text : NULL;
    f.target_len = target ? target->len : 0;
    f.section = "";
    f.section_len = 0;
    /* the command is the statement of its target (the variable of set(), the list of list(),
     * the target of add_dependencies()) and of what shares the command's first line: removing
     * those takes the command whole, from its name's line to its `)`, never leaving a
     * dangling `set(`; an entry on a line of its own is removed alone, unless it is the
     * command's one value (removing it would leave `list(REMOVE_ITEM TEST_OPS\n)`; set()'s
     * lone value aside: `set(X)` unsets X, a meaning of its own). A block's opener or closer
     * (if, function, endif ...) is no statement of its own. */
    unsigned k = kind & CMD_KIND_MASK;
    sunset_span cmd = {line, col, end_line, end_col}, none = {0, 0, 0, 0};
    bool stmt = k < CMD_IF || k > CMD_ENDMACRO;
    bool whole = stmt && end_line > line && strcmp(ln->s, "set") != 0 && one_value(w, ti); /* one-line: moot */
    for (size_t i = 0; i < w->args.n; i++) {
        const cmake_arg *a = &VEC_AT(&w->args, cmake_arg, i);
        if (a->kind == CMAKE_LPAREN || a->kind == CMAKE_RPAREN) continue;
        if (i != ti && is_keyword(w->rules, a)) {
            f.section = a->text;
            f.section_len = a->len;
        }
        f.ctx = a->kind == CMAKE_UNQUOTED ? SUNSET_CTX_CODE : SUNSET_CTX_STRING;
        f.span = a->span;
        f.text = a->text;
        f.text_len = a->len;
        f.flags = (i == ti && (kind & CMD_DEFINES)) ? SUNSET_FACT_TARGET : 0;
        f.stmt = stmt && (i == ti || a->span.line == line || whole) ? cmd : none;
        sunset_emit(x->sink, &f);
    }

    if ((kind & CMD_DEFINES) && target) {
        sb *b = &w->tmp2;
        b->len = 0;
        if (sb_putn(b, target->text, target->len))
            sunset_scope(x->sink, "cmake_target", b->s, line, end_line);
        else
            w->oom = true;
    }

    const char *first = NULL;
    size_t first_len = 0;
    for (size_t i = 0; i < w->args.n; i++) {
        const cmake_arg *a = &VEC_AT(&w->args, cmake_arg, i);
        if (a->kind != CMAKE_LPAREN && a->kind != CMAKE_RPAREN) {
            first = a->text;
            first_len = a->len;
            break;
        }
    }
    switch (kind & CMD_KIND_MASK) {
    case CMD_IF: {
        const char *c = condition_text(w);
        block_push(w, BLK_IF, line, col, c, strlen(c));
        break;
    }
    case CMD_ELSEIF: {
        const char *c = condition_text(w);
        block_branch(x, "elseif", line, col, c, strlen(c));
        break;
    }
    case CMD_ELSE: block_branch(x, "else", line, col, "else", 4); break;
    case CMD_ENDIF: block_close(x, BLK_IF, "endif", line, col, end_line); break;
    case CMD_FUNCTION:
        block_push(w, BLK_FUNCTION, line, col, first ? first : "", first_len);
        break;
    case CMD_MACRO: block_push(w, BLK_MACRO, line, col, first ? first : "", first_len); break;
    case CMD_ENDFUNCTION:
        block_close(x, BLK_FUNCTION, "endfunction", line, col, end_line);
        break;
    case CMD_ENDMACRO: block_close(x, BLK_MACRO, "endmacro", line, col, end_line); break;
    default: break;
    }
}

static void cm_on_command(void *ctx, const cmake_command *c) {
    cm_command_done(ctx, c->name, c->name_len, c->line, c->col, c->end_line, c->end_col);
}

static void cm_error(void *ctx, uint32_t line, uint32_t col, const char *msg) {
    sunset_warn(((cm_ctx *)ctx)->sink, line, col, "%s", msg);
}

static void scan_cmake(text_worker *w, const sunset_source *src, sunset_sink *sink) {
    const char *data = src->data, *end = data + src->len, *next;
    cm_ctx ctx = {w, sink};
    cmake_lexer x = {0};
    x.args = &w->args;
    x.comments = &w->comments;
    x.lines = w->lflags;
    x.command = cm_on_command;
    x.error = cm_error;
    x.ctx = &ctx;
    w->comments.n = 0;
    w->blocks.n = 0;
    w->names.len = 0;
    cmake_lex(&x, data, src->len);
    if (x.oom) w->oom = true;
    /* the last line is x.line, unless that is the empty remainder after a final newline */
    uint32_t last = x.line > 1 && src->len && data[src->len - 1] == '\n' ? x.line - 1 : x.line;
    while (w->blocks.n > 0) {
        cm_block *b = &VEC_AT(&w->blocks, cm_block, w->blocks.n - 1);
        static const char *const opener[] = {"if", "function", "macro"};
        sunset_warn(sink, b->start_line, b->start_col, "%s() block is never closed",
                    opener[b->kind]);
        block_emit(w, sink, b, last);
        block_pop(w);
    }

    uint32_t line = 0;
    for (const char *p = data; p < end; p = next) {
        size_t n = line_at(p, end, &next);
        line++;
        uint8_t f = w->lflags[line];
        emit_line(sink, line, p, n,
                  (f & CMAKE_LINE_COMMENT) && !(f & CMAKE_LINE_CODE) ? SUNSET_CTX_COMMENT : SUNSET_CTX_CODE);
    }
    for (size_t i = 0; i < w->comments.n; i++) {
        const cmake_comment *c = &VEC_AT(&w->comments, cmake_comment, i);
        emit_text_at(sink, SUNSET_CTX_COMMENT, c->line, c->col, c->text, c->len);
    }
}

/* ------------------------------------------------------------------ frontend */

static int text_init(const sunset_frontend_config *cfg, void **state, sunset_error *err) {
    text_state *st = sunset_calloc(1, sizeof *st);
    if (!st) {
        snprintf(err->msg, sizeof err->msg, "text frontend: out of memory");
        return -1;
    }
    st->rules = cfg->rules;
    *state = st;
    return 0;
}

static void text_fini(void *state) { sunset_free(state); }

static void *text_worker_new(void *state) {
    text_worker *w = sunset_calloc(1, sizeof *w);
    if (!w) return NULL;
    w->rules = ((const text_state *)state)->rules;
    w->args = VEC_INIT(cmake_arg);
    w->comments = VEC_INIT(cmake_comment);
    w->blocks = VEC_INIT(cm_block);
    return w;
}

static void text_worker_free(void *worker) {
    text_worker *w = worker;
    if (!w) return;
    sunset_free(w->lflags);
    vec_free(&w->args);
    vec_free(&w->comments);
    vec_free(&w->blocks);
    sb_free(&w->names);
    sb_free(&w->tmp);
    sb_free(&w->tmp2);
    sunset_free(w);
}

/* Makes w->lflags hold at least `n` zeroed entries. */
static bool lflags_reserve(text_worker *w, size_t n) {
    if (n > w->lflags_cap) {
        size_t cap = w->lflags_cap ? w->lflags_cap : 1024;
        while (cap < n) cap *= 2;
        uint8_t *p = sunset_malloc(cap);
        if (!p) return false;
        sunset_free(w->lflags);
        w->lflags = p;
        w->lflags_cap = cap;
    }
    memset(w->lflags, 0, n);
    return true;
}

static int text_scan(void *worker, const sunset_source *src, sunset_sink *sink) {
    text_worker *w = worker;
    w->oom = false;
    w->names.oom = w->tmp.oom = w->tmp2.oom = false;
    if (src->lang != SUNSET_LANG_CMAKE) {
        scan_lines(src, sink);
        return 0;
    }
    /* One flag byte per line; a file has at most len + 1 lines (index 0 unused). Sizing by
     * bytes spares a counting pass and costs no more than a copy of the file. */
    if (src->len >= UINT32_MAX || !lflags_reserve(w, src->len + 2)) {
        sunset_warn(sink, 0, 0, "out of memory");
        return -1;
    }
    scan_cmake(w, src, sink);
    if (w->oom) {
        sunset_warn(sink, 0, 0, "out of memory; CMake facts are incomplete");
        return -1;
    }
    return 0;
}

static const sunset_lang text_langs[] = {
    SUNSET_LANG_CMAKE, SUNSET_LANG_PROTO, SUNSET_LANG_SHELL, SUNSET_LANG_MARKDOWN,
    SUNSET_LANG_RST,   SUNSET_LANG_TEXT,  SUNSET_LANG_NONE,
};

const sunset_frontend sunset_frontend_text = {
    .abi = SUNSET_FRONTEND_ABI,
    .name = "text",
    .langs = text_langs,
    .init = text_init,
    .fini = text_fini,
    .worker_new = text_worker_new,
    .worker_free = text_worker_free,
    .scan = text_scan,
};
