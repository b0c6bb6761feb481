/*
 * cmake.c — the one CMake tokenizer (see cmake.h): the top level (commands, comments,
 * junk), argument lists, quoted/bracket/unquoted arguments, and the recovery from a
 * command missing its ')'.
 */
#include "base/cmake.h"

#include <stdio.h>
#include <stdarg.h>
#include <string.h>

static inline bool is_hspace(unsigned char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

/* Between arguments a NUL byte separates like a blank (binary input: no argument's text
 * holds one, so a C string of it loses nothing). */
static inline bool is_separator(unsigned char c) { return is_hspace(c) || c == 0; }

static inline uint32_t lx_col(const cmake_lexer *x, const char *at) {
    return (uint32_t)(at - x->line_start) + 1;
}

static inline void lx_mark(cmake_lexer *x, uint32_t line, uint8_t mark) {
    if (x->lines) x->lines[line] |= mark;
}

/* x->p is at '\n'. */
static inline void lx_newline(cmake_lexer *x, uint8_t mark) {
    x->p++;
    x->line++;
    x->line_start = x->p;
    lx_mark(x, x->line, mark);
}

static void lx_error(cmake_lexer *x, uint32_t line, uint32_t col, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void lx_error(cmake_lexer *x, uint32_t line, uint32_t col, const char *fmt, ...) {
    if (!x->error) return;
    char msg[160];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    x->error(x->ctx, line, col, msg);
}

/* If x->p starts "[", "="*, "[", returns the number of '=' (and leaves x->p alone). */
static int bracket_open(const cmake_lexer *x) {
    const char *q = x->p + 1;
    while (q < x->end && *q == '=') q++;
    if (q < x->end && *q == '[') return (int)(q - x->p - 1);
    return -1;
}

/* Consumes a bracket construct whose opener is at x->p with `level` '='. Sets the contents
 * (CMake drops a newline right after the opener). Returns false at EOF (unterminated);
 * then x->p is at end and *len runs to the end. `mark` is applied to every line it covers. */
static bool lx_bracket(cmake_lexer *x, int level, uint8_t mark, const char **text, size_t *len,
                       uint32_t *line, uint32_t *col) {
    x->p += (size_t)level + 2;
    if (x->p < x->end && *x->p == '\r' && x->p + 1 < x->end && x->p[1] == '\n') x->p++;
    if (x->p < x->end && *x->p == '\n') lx_newline(x, mark);
    *text = x->p;
    *line = x->line;
    *col = lx_col(x, x->p);
    while (x->p < x->end) {
        char c = *x->p;
        if (c == '\n') {
            lx_newline(x, mark);
            continue;
        }
        if (c == ']') {
            const char *q = x->p + 1;
            int k = 0;
            while (k < level && q < x->end && *q == '=') q++, k++;
            if (k == level && q < x->end && *q == ']') {
                *len = (size_t)(x->p - *text);
                x->p = q + 1;
                return true;
            }
        }
        x->p++;
    }
    *len = (size_t)(x->p - *text);
    return false;
}

static void push_comment(cmake_lexer *x, const char *text, size_t len, uint32_t line, uint32_t col) {
    cmake_comment c = {text, len, line, col};
    if (len && x->comments && !vec_push(x->comments, &c)) x->oom = true;
}

/* x->p at '#'. Returns false when a bracket comment runs to EOF. */
static bool lx_comment(cmake_lexer *x) {
    lx_mark(x, x->line, CMAKE_LINE_COMMENT);
    x->p++;
    int level = x->p < x->end && *x->p == '[' ? bracket_open(x) : -1;
    if (level >= 0) {
        const char *t;
        size_t n;
        uint32_t l, c;
        bool ok = lx_bracket(x, level, CMAKE_LINE_COMMENT, &t, &n, &l, &c);
        push_comment(x, t, n, l, c);
        return ok;
    }
    const char *nl = memchr(x->p, '\n', (size_t)(x->end - x->p));
    const char *e = nl ? nl : x->end;
    size_t n = (size_t)(e - x->p);
    if (n && x->p[n - 1] == '\r') n--;
    push_comment(x, x->p, n, x->line, lx_col(x, x->p));
    x->p = e;
    return true;
}

/* x->p just past the opening '"': to the closing '"' (left at it). False at EOF. */
static bool lx_quoted(cmake_lexer *x) {
    for (;;) {
        if (x->p >= x->end) return false;
        char q = *x->p;
        if (q == '"') return true;
        if (q == '\n') {
            lx_newline(x, CMAKE_LINE_CODE);
        } else if (q == '\\' && x->p + 1 < x->end) {
            if (x->p[1] == '\n') {
                x->p++;
                lx_newline(x, CMAKE_LINE_CODE);
            } else {
                x->p += 2;
            }
        } else {
            x->p++;
        }
    }
}

/* Byte classes inside an unquoted argument: most bytes are plain and need one lookup. */
enum { UQ_PLAIN = 0, UQ_END, UQ_ESCAPE, UQ_QUOTE, UQ_DOLLAR };
static const uint8_t uq_class[256] = {
    [' '] = UQ_END,  ['\t'] = UQ_END, ['\r'] = UQ_END, ['\n'] = UQ_END, ['\f'] = UQ_END,
    ['\v'] = UQ_END, ['('] = UQ_END,  [')'] = UQ_END,  ['#'] = UQ_END,  ['\\'] = UQ_ESCAPE,
    ['"'] = UQ_QUOTE, ['$'] = UQ_DOLLAR, [0] = UQ_END,
};

/* x->p at an unquoted argument: to its end. False at EOF inside a legacy quoted part. */
static bool lx_unquoted(cmake_lexer *x) {
    while (x->p < x->end) {
        uint8_t k = uq_class[(unsigned char)*x->p];
        if (k == UQ_PLAIN) {
            x->p++;
        } else if (k == UQ_END) {
            break;
        } else if (k == UQ_ESCAPE) {
            x->p += x->p + 1 < x->end && x->p[1] != '\n' ? 2 : 1;
        } else if (k == UQ_QUOTE) {
            /* legacy: a quoted part inside an unquoted argument, spaces included */
            x->p++;
            while (x->p < x->end && *x->p != '"') {
                if (*x->p == '\n') lx_newline(x, CMAKE_LINE_CODE);
                else x->p += (*x->p == '\\' && x->p + 1 < x->end && x->p[1] != '\n') ? 2 : 1;
            }
            if (x->p >= x->end) return false;
            x->p++;
        } else if (x->p + 1 < x->end && x->p[1] == '(') {
            /* legacy make-style $(VAR) */
            const char *q = x->p + 2;
            while (q < x->end && *q != ')' && *q != '\n') q++;
            x->p = q < x->end && *q == ')' ? q + 1 : q;
        } else {
            x->p++;
        }
    }
    return true;
}

/* One argument from x->p (not a blank, newline or '#') into *a. 1: read; 0: it was the
 * list's closing ')'; -1: EOF inside it. */
static int lx_argument(cmake_lexer *x, cmake_arg *a, unsigned *depth) {
    unsigned char c = (unsigned char)*x->p;
    a->raw = x->p;
    a->span.line = x->line;
    a->span.col = lx_col(x, x->p);
    if (c == '(' || c == ')') {
        x->p++;
        if (c == ')' && --*depth == 0) return 0;
        if (c == '(') ++*depth;
        a->kind = c == '(' ? CMAKE_LPAREN : CMAKE_RPAREN;
        a->text = a->raw;
        a->len = 1;
    } else if (c == '"') {
        a->kind = CMAKE_QUOTED;
        a->text = ++x->p;
        a->span.col++;
        if (!lx_quoted(x)) return -1;
        a->len = (size_t)(x->p - a->text);
        x->p++;
    } else if (c == '[' && bracket_open(x) >= 0) {
        a->kind = CMAKE_BRACKET;
        if (!lx_bracket(x, bracket_open(x), CMAKE_LINE_CODE, &a->text, &a->len, &a->span.line,
                        &a->span.col))
            return -1;
    } else {
        a->kind = CMAKE_UNQUOTED;
        a->text = x->p;
        if (!lx_unquoted(x)) return -1;
        a->len = (size_t)(x->p - a->text);
    }
    a->raw_len = (size_t)(x->p - a->raw);
    /* The value ends on the line the lexer is on now: closing quotes and brackets
     * cannot contain a newline. */
    a->span.end_line = x->line;
    a->span.end_col = lx_col(x, a->text + a->len);
    return 1;
}

/* Tokenizes the argument list of a command (x->p just past its '('). Returns false at EOF. */
static bool lx_arguments(cmake_lexer *x) {
    unsigned depth = 1;
    x->args->n = 0;
    while (x->p < x->end) {
        unsigned char c = (unsigned char)*x->p;
        if (c == '\n') {
            lx_newline(x, 0);
            continue;
        }
        if (is_separator(c)) {
            x->p++;
            continue;
        }
        if (c == '#') {
            if (!lx_comment(x)) return false;
            continue;
        }
        lx_mark(x, x->line, CMAKE_LINE_CODE);
        cmake_arg a;
        int r = lx_argument(x, &a, &depth);
        if (r <= 0) return r == 0;
        if (!vec_push(x->args, &a)) x->oom = true;
    }
    return false;
}

static void lx_junk(cmake_lexer *x, const char *what) {
    lx_mark(x, x->line, CMAKE_LINE_CODE);
    if (!x->junk_warned) lx_error(x, x->line, lx_col(x, x->p), "CMake syntax error: %s", what);
    x->junk_warned = true;
    const char *nl = memchr(x->p, '\n', (size_t)(x->end - x->p));
    x->p = nl ? nl : x->end;
}

static inline bool ident_start(unsigned char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
static inline bool ident_char(unsigned char c) { return ident_start(c) || (c >= '0' && c <= '9'); }

/* The command whose name starts at `name` (line, col) is missing its ')': forgets what it
 * swallowed and resumes on the line after its start. False when tokenizing stops. */
static bool lx_recover(cmake_lexer *x, const char *name, size_t name_len, uint32_t line,
                       uint32_t col, size_t ncomments) {
    lx_error(x, line, col, "unterminated command '%.*s(' (missing ')')",
             (int)(name_len > 64 ? 64 : name_len), name);
    if (x->comments) x->comments->n = ncomments;
    if (x->lines) memset(x->lines + line + 1, 0, x->line - line);
    x->line = line;
    const char *nl = memchr(name, '\n', (size_t)(x->end - name));
    if (!nl || ++x->restarts > CMAKE_MAX_RESTARTS) {
        if (nl) lx_error(x, line + 1, 1, "too many unterminated commands; the rest is not tokenized");
        x->p = x->end;
        return false;
    }
    x->p = nl;
    return true;
}

/* x->p at a command name's first byte: the whole invocation. False when tokenizing stops. */
static bool lx_command(cmake_lexer *x) {
    const char *name = x->p;
    uint32_t line = x->line, col = lx_col(x, name);
    while (x->p < x->end && ident_char((unsigned char)*x->p)) x->p++;
    size_t name_len = (size_t)(x->p - name);
    while (x->p < x->end && (*x->p == ' ' || *x->p == '\t')) x->p++;
    if (x->p >= x->end || *x->p != '(') {
        x->p = name;
        lx_junk(x, "expected '(' after the command name");
        return true;
    }
    x->p++;
    lx_mark(x, line, CMAKE_LINE_CODE);
    size_t ncomments = x->comments ? x->comments->n : 0;
    if (!lx_arguments(x)) return lx_recover(x, name, name_len, line, col, ncomments);
    if (x->command) {
        cmake_command c = {name, name_len, line, col, x->line, lx_col(x, x->p),
                           (const cmake_arg *)x->args->v, x->args->n};
        x->command(x->ctx, &c);
    }
    return true;
}

void cmake_lex(cmake_lexer *x, const char *data, size_t len) {
    x->p = data;
    x->end = data + len;
    x->line_start = data;
    x->line = 1;
    x->oom = false;
    x->junk_warned = false;
    x->restarts = 0;
    x->args->n = 0;
    if (len >= 3 && memcmp(x->p, "\xEF\xBB\xBF", 3) == 0) x->p += 3; /* BOM */
    while (x->p < x->end) {
        unsigned char c = (unsigned char)*x->p;
        if (c == '\n') {
            lx_newline(x, 0);
            continue;
        }
        if (is_hspace(c)) {
            x->p++;
            continue;
        }
        if (c == '#') {
            uint32_t line = x->line, col = lx_col(x, x->p);
            if (!lx_comment(x)) lx_error(x, line, col, "unterminated bracket comment");
            continue;
        }
        if (!ident_start(c)) {
            lx_junk(x, "expected a command name");
            continue;
        }
        if (!lx_command(x)) break;
    }
}

bool cmake_unescape(sb *b, const char *s, size_t n) {
    size_t i = 0;
    while (i < n) {
        const char *bs = memchr(s + i, '\\', n - i);
        size_t run = bs ? (size_t)(bs - (s + i)) : n - i;
        if (run && !sb_putn(b, s + i, run)) return false;
        i += run;
        if (i >= n) break;
        if (i + 1 < n) {
            if (!sb_putc(b, s[i + 1])) return false;
            i += 2;
        } else {
            if (!sb_putc(b, s[i])) return false;
            i++;
        }
    }
    return true;
}
