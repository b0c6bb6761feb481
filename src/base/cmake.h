/*
 * cmake.h — the one CMake tokenizer (the cmake-language(7) grammar), shared by the text
 * frontend (lang/text.c: facts, scopes, comments) and the cross-file index
 * (analysis/index/cmake.c: commands and the names in their arguments).
 *
 * It finds command invocations whose arguments span lines, nested parentheses, quoted
 * arguments with escapes and continuations, bracket arguments ([[...]], [=[...]=]) and
 * bracket comments (#[[...]]), line comments, legacy unquoted arguments (a"quoted part",
 * $(VAR)), each with its line and column. Nothing is allocated per token: texts point into
 * the caller's data, the arguments of the command being read are in the caller's vector.
 *
 * Recovery: a byte at the top level that cannot start a command, or a name without '(',
 * is reported once per file ("CMake syntax error: ...") and the rest of its line skipped;
 * a command missing its ')' (or with an unterminated quoted or bracket argument) is
 * reported, forgotten (with the comments and line marks it swallowed) and tokenizing
 * resumes on the line after its start, at most CMAKE_MAX_RESTARTS times per file; an
 * unterminated bracket comment runs to the end of the file.
 */
#ifndef SUNSET_CMAKE_H
#define SUNSET_CMAKE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sunset.h"
#include "base/util.h"

/* After this many unterminated commands in one file the rest is not tokenized further:
 * each resumption rescans to the end of the file, so the cap keeps the cost linear. */
#define CMAKE_MAX_RESTARTS 8

/* Per-line marks (cmake_lexer.lines). */
enum { CMAKE_LINE_CODE = 1, CMAKE_LINE_COMMENT = 2 };

enum cmake_arg_kind { CMAKE_UNQUOTED, CMAKE_QUOTED, CMAKE_BRACKET, CMAKE_LPAREN, CMAKE_RPAREN };

/* One argument of a command. All pointers are into the data being tokenized. */
typedef struct cmake_arg {
    const char *text; /* the value as written: quoted and bracket arguments without their
                       * delimiters, escapes left as they are (cmake_unescape resolves them) */
    size_t len;
    const char *raw; /* as written, quotes and brackets included (for if() conditions) */
    size_t raw_len;
    sunset_span span; /* covers text */
    enum cmake_arg_kind kind;
} cmake_arg;

/* A comment: the text after '#', or a bracket comment's contents. */
typedef struct cmake_comment {
    const char *text;
    size_t len;
    uint32_t line, col;
} cmake_comment;

/* A complete command invocation, as handed to cmake_lexer.command. */
typedef struct cmake_command {
    const char *name; /* as written (not lower-cased) */
    size_t name_len;
    uint32_t line, col;         /* of the name */
    uint32_t end_line, end_col; /* just past the closing ')' */
    const cmake_arg *args;      /* parentheses inside the list included, as CMAKE_[LR]PAREN */
    size_t n_args;
} cmake_command;

typedef struct cmake_lexer {
    /* set by the caller before cmake_lex */
    vec *args;         /* VEC_INIT(cmake_arg): scratch for the command being read (required) */
    vec *comments;     /* VEC_INIT(cmake_comment): every comment, in file order; NULL: none kept */
    uint8_t *lines;    /* CMAKE_LINE_* per 1-based line, len + 2 zeroed entries; NULL: none kept */
    void (*command)(void *ctx, const cmake_command *c);                   /* may be NULL */
    void (*error)(void *ctx, uint32_t line, uint32_t col, const char *msg); /* may be NULL */
    void *ctx;
    /* after cmake_lex */
    uint32_t line; /* the line the tokenizer ended on (1-based) */
    bool oom;      /* a vector could not grow: what was found is incomplete */
    /* the tokenizer's own */
    const char *p, *end, *line_start;
    bool junk_warned;
    unsigned restarts;
} cmake_lexer;

/* Tokenizes data[0..len) (a UTF-8 BOM is skipped), calling x->command for each complete
 * command and x->error for each problem, in file order. */
void cmake_lex(cmake_lexer *x, const char *data, size_t len);

/* A quoted argument's value with each escape resolved to the byte it escapes (\" -> ",
 * \\ -> \, \n -> n), appended to b. */
bool cmake_unescape(sb *b, const char *s, size_t n);

#endif
