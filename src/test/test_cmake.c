/*
 * test_cmake.c — the one CMake tokenizer (base/cmake.c) on its own: commands and their
 * arguments with line and column, nested parentheses, quoted arguments with escapes and
 * continuations, bracket arguments and bracket comments of every level, line marks, the
 * escape decoding, and the recovery from junk, a command missing its ')', an unterminated
 * bracket comment and too many unterminated commands. Each test writes what the tokenizer
 * reported as text (one line per command, argument, comment or error) and compares it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "base/cmake.h"
#include "base/util.h"

static const char *const kinds[] = {"U", "Q", "B", "(", ")"};

static void on_command(void *ctx, const cmake_command *c) {
    sb *b = ctx;
    sb_printf(b, "cmd %.*s %u:%u-%u:%u\n", (int)c->name_len, c->name, c->line, c->col, c->end_line,
              c->end_col);
    for (size_t i = 0; i < c->n_args; i++) {
        const cmake_arg *a = &c->args[i];
        sb_printf(b, "  %s [%.*s] %u:%u-%u:%u raw=[%.*s]\n", kinds[a->kind], (int)a->len, a->text,
                  a->span.line, a->span.col, a->span.end_line, a->span.end_col, (int)a->raw_len,
                  a->raw);
    }
}

static void on_error(void *ctx, uint32_t line, uint32_t col, const char *msg) {
    sb_printf(ctx, "error %u:%u %s\n", line, col, msg);
}

/* Tokenizes text; returns the report (commands, errors, then comments and line marks). */
static char *lex(const char *text, size_t len) {
    sb out = {0};
    vec args = VEC_INIT(cmake_arg), comments = VEC_INIT(cmake_comment);
    uint8_t lines[256] = {0};
    assert_true(len + 2 <= sizeof lines);
    cmake_lexer x = {0};
    x.args = &args;
    x.comments = &comments;
    x.lines = lines;
    x.command = on_command;
    x.error = on_error;
    x.ctx = &out;
    cmake_lex(&x, text, len);
    assert_false(x.oom);
    for (size_t i = 0; i < comments.n; i++) {
        const cmake_comment *c = &VEC_AT(&comments, cmake_comment, i);
        sb_printf(&out, "comment %u:%u [%.*s]\n", c->line, c->col, (int)c->len, c->text);
    }
    sb_puts(&out, "lines");
    for (uint32_t l = 1; l <= x.line; l++)
        sb_printf(&out, " %c", "-CMB"[lines[l] & 3]); /* C code, M comment, B both */
    sb_puts(&out, "\n");
    vec_free(&args);
    vec_free(&comments);
    return sb_take(&out);
}

static void expect(const char *text, const char *want) {
    char *got = lex(text, strlen(text));
    if (strcmp(got, want) != 0) print_error("input:\n%s\ngot:\n%s\nwant:\n%s\n", text, got, want);
    assert_string_equal(got, want);
    sunset_free(got);
}

static void commands_nested_and_multiline(void **st) {
    (void)st;
    expect("cc_library(lib SRCS a.cc\n"
           "  DEPS ${x} $(Y) -D\"A B\")\n"
           "if((A OR B) AND NOT C)\n",
           "cmd cc_library 1:1-2:26\n"
           "  U [lib] 1:12-1:15 raw=[lib]\n"
           "  U [SRCS] 1:16-1:20 raw=[SRCS]\n"
           "  U [a.cc] 1:21-1:25 raw=[a.cc]\n"
           "  U [DEPS] 2:3-2:7 raw=[DEPS]\n"
           "  U [${x}] 2:8-2:12 raw=[${x}]\n"
           "  U [$(Y)] 2:13-2:17 raw=[$(Y)]\n"
           "  U [-D\"A B\"] 2:18-2:25 raw=[-D\"A B\"]\n"
           "cmd if 3:1-3:23\n"
           "  ( [(] 3:4-3:5 raw=[(]\n"
           "  U [A] 3:5-3:6 raw=[A]\n"
           "  U [OR] 3:7-3:9 raw=[OR]\n"
           "  U [B] 3:10-3:11 raw=[B]\n"
           "  ) [)] 3:11-3:12 raw=[)]\n"
           "  U [AND] 3:13-3:16 raw=[AND]\n"
           "  U [NOT] 3:17-3:20 raw=[NOT]\n"
           "  U [C] 3:21-3:22 raw=[C]\n"
           "lines C C C -\n");
}

static void bracket_arguments(void **st) {
    (void)st;
    /* the newline right after the opener is dropped; ]] does not close a [=[ */
    expect("set(x [[a b]] [=[\nc]]d]=] [==[]==])\n",
           "cmd set 1:1-2:18\n"
           "  U [x] 1:5-1:6 raw=[x]\n"
           "  B [a b] 1:9-1:12 raw=[[[a b]]]\n"
           "  B [c]]d] 2:1-2:5 raw=[[=[\nc]]d]=]]\n"
           "  B [] 2:13-2:13 raw=[[==[]==]]\n"
           "lines C C -\n");
}

static void bracket_comments(void **st) {
    (void)st;
    expect("#[[ cc_library(gone)\n]] set(a #[=[ in\nargs ]=] b) # tail\n# whole\n",
           "cmd set 2:4-3:12\n"
           "  U [a] 2:8-2:9 raw=[a]\n"
           "  U [b] 3:10-3:11 raw=[b]\n"
           "comment 1:4 [ cc_library(gone)\n]\n"
           "comment 2:14 [ in\nargs ]\n"
           "comment 3:14 [ tail]\n"
           "comment 4:2 [ whole]\n"
           "lines M B B M -\n");
}

static void quoted_escapes_and_continuations(void **st) {
    (void)st;
    expect("message(\"a\\\"b\\\\\" \"c\\\nd\" \"e\nf\")\nx()\n",
           "cmd message 1:1-3:4\n"
           "  Q [a\\\"b\\\\] 1:10-1:16 raw=[\"a\\\"b\\\\\"]\n"
           "  Q [c\\\nd] 1:19-2:2 raw=[\"c\\\nd\"]\n"
           "  Q [e\nf] 2:5-3:2 raw=[\"e\nf\"]\n"
           "cmd x 4:1-4:4\n"
           "lines C C C C -\n");
    sb b = {0};
    const char q[] = "a\\\"b\\\\c\\n\\";
    assert_true(cmake_unescape(&b, q, sizeof q - 1));
    assert_string_equal(b.s, "a\"b\\cn\\"); /* a lone trailing backslash is kept */
    sb_free(&b);
}

static void unterminated_command_resumes(void **st) {
    (void)st;
    /* what foo( swallowed (the comment, the marks) is forgotten; bar on the next line is read */
    expect("foo(a # c\nbar(b)\n\"x\n",
           "error 1:1 unterminated command 'foo(' (missing ')')\n"
           "cmd bar 2:1-2:7\n"
           "  U [b] 2:5-2:6 raw=[b]\n"
           "error 3:1 CMake syntax error: expected a command name\n"
           "lines B C C -\n"); /* line 1 keeps its comment mark: only later lines are reset */
    /* an unterminated quoted or bracket argument is an unterminated command too */
    expect("a(\"x\nb([[y\n",
           "error 1:1 unterminated command 'a(' (missing ')')\n"
           "error 2:1 unterminated command 'b(' (missing ')')\n"
           "lines C C -\n");
}

static void junk_reported_once(void **st) {
    (void)st;
    expect("a b c\n1x\nok()\n)\n",
           "error 1:1 CMake syntax error: expected '(' after the command name\n"
           "cmd ok 3:1-3:5\n"
           "lines C C C C -\n");
}

static void unterminated_bracket_comment(void **st) {
    (void)st;
    expect("x()\n#[[ open\nset(y)\n",
           "cmd x 1:1-1:4\n"
           "error 2:1 unterminated bracket comment\n"
           "comment 2:4 [ open\nset(y)\n]\n"
           "lines C M M M\n");
}

static void restarts_capped(void **st) {
    (void)st;
    char text[128] = "";
    for (int i = 0; i < 10; i++) strcat(text, "f(\n");
    char *got = lex(text, strlen(text));
    int unterminated = 0;
    for (const char *p = got; (p = strstr(p, "unterminated command '")); p++) unterminated++;
    assert_int_equal(unterminated, CMAKE_MAX_RESTARTS + 1);
    assert_non_null(strstr(got, "error 10:1 too many unterminated commands; the rest is not tokenized\n"));
    sunset_free(got);
}

static void nul_separates_arguments(void **st) {
    (void)st;
    static const char text[] = "f(a\0b)";
    char *got = lex(text, sizeof text - 1);
    assert_string_equal(got, "cmd f 1:1-1:7\n"
                             "  U [a] 1:3-1:4 raw=[a]\n"
                             "  U [b] 1:5-1:6 raw=[b]\n"
                             "lines C\n");
    sunset_free(got);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(commands_nested_and_multiline),
        cmocka_unit_test(bracket_arguments),
        cmocka_unit_test(bracket_comments),
        cmocka_unit_test(quoted_escapes_and_continuations),
        cmocka_unit_test(unterminated_command_resumes),
        cmocka_unit_test(junk_reported_once),
        cmocka_unit_test(unterminated_bracket_comment),
        cmocka_unit_test(restarts_capped),
        cmocka_unit_test(nul_separates_arguments),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
