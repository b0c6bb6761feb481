/*
 * test_documents.c — the document table (cmd/documents.c), run from the repository root:
 *  - every (command, format) pair README.md's Usage block and options table name is a row of
 *    the table, README's aliases (`md`, `txt`, ...) find the row of their format, and the
 *    formats README calls the default are the rows marked so;
 *  - every command has one default format, and a writer for every row of a document that has
 *    writers;
 *  - cli_parse rejects an unknown format for each command with the documented error
 *    (EXIT_USAGE, "unknown format 'F' for 'CMD' (known: ...)" naming every format README
 *    lists for it), and maps an alias to its format's one name.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/util.h"
#include "cmd/cli.h"
#include "cmd/documents.h"

static unsigned cmd_bit(const char *name) {
    for (size_t i = 0; i < sunset_n_commands; i++)
        if (strcmp(sunset_commands[i].name, name) == 0) return sunset_commands[i].bit;
    return 0;
}

/* One (command, format) pair README names. */
typedef struct pair {
    char cmd[16], fmt[16];
} pair;

static void readme(char **s) {
    size_t n;
    *s = NULL;
    assert_int_equal(read_file("README.md", 0, s, &n), 0); /* run from the repository root */
}

/* The pairs of the Usage block: "sunset CMD ... [-f a|b|c]" or "[--format a]". */
static size_t usage_pairs(const char *doc, pair *out, size_t cap) {
    const char *block = strstr(doc, "## Usage");
    assert_non_null(block);
    const char *end = strstr(block, "\n```\n");
    assert_non_null(end);
    size_t n = 0;
    for (const char *l = strstr(block, "\nsunset "); l && l < end; l = strstr(l + 1, "\nsunset ")) {
        const char *eol = strchr(l + 1, '\n');
        char cmd[16] = "";
        sscanf(l + 1, "sunset %15[a-z]", cmd);
        const char *f = strstr(l, "[-f ");
        const char *g = strstr(l, "[--format ");
        if (g && g < eol && (!f || f > eol)) f = g + 6; /* "[--format " and "[-f " alike */
        if (!f || f > eol) continue;
        f += 4;
        while (*f != ']' && f < eol) {
            size_t k = strcspn(f, "|]");
            assert_true(n < cap && k < sizeof out[n].fmt);
            snprintf(out[n].cmd, sizeof out[n].cmd, "%s", cmd);
            snprintf(out[n].fmt, sizeof out[n].fmt, "%.*s", (int)k, f);
            n++;
            f += k + (f[k] == '|');
        }
    }
    return n;
}

/* The options table's `-f, --format FMT` row: scan's formats, the one followed by
 * "(default)" into def. */
static size_t option_formats(const char *doc, pair *out, size_t cap, char *def, size_t def_cap) {
    const char *row = strstr(doc, "| `-f, --format FMT` |");
    assert_non_null(row);
    const char *eol = strchr(row, '\n');
    const char *p = strchr(row + strlen("| `-f, --format FMT` |"), '`');
    size_t n = 0;
    def[0] = 0;
    while (p && p < eol) {
        const char *q = strchr(p + 1, '`');
        assert_true(q && q < eol && n < cap);
        snprintf(out[n].cmd, sizeof out[n].cmd, "scan");
        snprintf(out[n].fmt, sizeof out[n].fmt, "%.*s", (int)(q - p - 1), p + 1);
        if (strncmp(q + 1, " (default)", 10) == 0) snprintf(def, def_cap, "%s", out[n].fmt);
        n++;
        p = strchr(q + 1, '`');
    }
    return n;
}

static void readme_pairs_are_rows(void **state) {
    char *doc;
    readme(&doc);
    pair pairs[64];
    size_t n = usage_pairs(doc, pairs, 64);
    assert_true(n >= 12); /* rules list, rules show, removable, report, history */
    char def[16];
    size_t m = option_formats(doc, pairs + n, 64 - n, def, sizeof def);
    assert_true(m >= 5);
    for (size_t i = 0; i < n + m; i++) {
        unsigned bit = cmd_bit(pairs[i].cmd);
        if (!bit) fail_msg("README names a command '%s' that does not exist", pairs[i].cmd);
        if (!doc_format_find(bit, pairs[i].fmt))
            fail_msg("README lists '%s -f %s', the document table has no such row", pairs[i].cmd, pairs[i].fmt);
    }
    /* scan's default is what the options table calls it; removable's and report's are the
     * first they list, history's too */
    assert_string_equal(doc_format_find(CMD_SCAN, NULL)->name, def);
    assert_string_equal(doc_format_find(CMD_REMOVABLE, NULL)->name, "markdown");
    assert_string_equal(doc_format_find(CMD_REPORT, NULL)->name, "markdown");
    assert_string_equal(doc_format_find(CMD_HISTORY, NULL)->name, "csv");
    /* the aliases of "Format names": `name` (`alias`) */
    const char *names = strstr(doc, "**Format names**");
    assert_non_null(names);
    const char *para_end = strstr(names, "\n\n");
    size_t aliases = 0;
    /* "`name` (`alias`)", the space maybe a line break */
    for (const char *p = strstr(names, "(`"); p && p < para_end; p = strstr(p + 1, "(`")) {
        if (p - names < 3 || p[-2] != '`' || (p[-1] != ' ' && p[-1] != '\n')) continue;
        const char *open = p - 3;
        while (open > names && *open != '`') open--;
        char name[16] = "", alias[16] = "";
        snprintf(name, sizeof name, "%.*s", (int)(p - 2 - open - 1), open + 1);
        sscanf(p + 2, "%15[a-z]", alias);
        bool found = false;
        size_t nf;
        const doc_format *t = doc_formats(&nf);
        for (size_t i = 0; i < nf; i++)
            if (strcmp(t[i].name, name) == 0) {
                found = true;
                assert_ptr_equal(doc_format_find(t[i].cmd, alias), &t[i]);
            }
        if (!found) fail_msg("README's alias '%s' is of '%s', which no command writes", alias, name);
        aliases++;
    }
    assert_int_equal(aliases, 4); /* txt, gh, md, htm */
    sunset_free(doc);
}

static void one_default_and_a_writer_per_row(void **state) {
    size_t n;
    const doc_format *t = doc_formats(&n);
    for (size_t c = 0; c < sunset_n_commands; c++) {
        size_t defaults = 0, rows = 0;
        for (size_t i = 0; i < n; i++) {
            if (t[i].cmd != sunset_commands[c].bit) continue;
            rows++;
            defaults += t[i].is_default;
            if (t[i].doc != DOC_RULES && !t[i].write.findings)
                fail_msg("%s -f %s has no writer", sunset_commands[c].name, t[i].name);
        }
        if (rows) assert_int_equal(defaults, 1);
    }
    assert_null(doc_format_find(CMD_SCAN, "csv"));
    assert_null(doc_format_find(CMD_HISTORY, "text"));
    assert_null(doc_format_find(CMD_BASELINE, NULL)); /* baseline writes no document of the table */
}

/* cli_parse of `sunset CMD -f FMT`: its exit code, stderr's first line into err. */
static int parse_format(const char *cmd, const char *fmt, char *err, size_t n, cli *c) {
    char *argv[] = {"sunset", (char *)cmd, "-f", (char *)fmt, NULL};
    char path[] = "/tmp/sunset-test-documents-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    fflush(stderr);
    int saved = dup(2);
    dup2(fd, 2);
    bool done = false;
    memset(c, 0, sizeof *c);
    int rc = cli_parse(4, argv, c, &done);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    close(fd);
    char *text = NULL;
    size_t len;
    err[0] = 0;
    if (read_file(path, 0, &text, &len) == 0) snprintf(err, n, "%.*s", (int)strcspn(text, "\n"), text);
    sunset_free(text);
    unlink(path);
    return rc;
}

static void unknown_format_is_the_documented_error(void **state) {
    char *doc;
    readme(&doc);
    pair pairs[64];
    size_t np = usage_pairs(doc, pairs, 64);
    static const char *const cmds[] = {"scan", "check", "rules", "history", "report", "removable"};
    for (size_t k = 0; k < sizeof cmds / sizeof cmds[0]; k++) {
        char err[512], want[64];
        cli c;
        assert_int_equal(parse_format(cmds[k], "xml", err, sizeof err, &c), EXIT_USAGE);
        cli_free(&c);
        snprintf(want, sizeof want, "sunset: unknown format 'xml' for '%s' (known: ", cmds[k]);
        if (strncmp(err, want, strlen(want)) != 0) fail_msg("%s -f xml: %s", cmds[k], err);
        for (size_t i = 0; i < np; i++) /* the error names every format README lists for it */
            if (strcmp(pairs[i].cmd, cmds[k]) == 0 && !strstr(err, pairs[i].fmt))
                fail_msg("%s -f xml: the error does not name '%s': %s", cmds[k], pairs[i].fmt, err);
    }
    /* an alias becomes its format's one name; a format of another command is unknown here */
    char err[512];
    cli c;
    assert_int_equal(parse_format("report", "md", err, sizeof err, &c), EXIT_OK);
    assert_string_equal(c.format, "markdown");
    assert_ptr_equal(doc_format_of(&c)->write.tracking, tracking_write_md);
    cli_free(&c);
    assert_int_equal(parse_format("history", "html", err, sizeof err, &c), EXIT_USAGE);
    cli_free(&c);
    assert_non_null(strstr(err, "unknown format 'html' for 'history' (known: json, csv, svg)"));
    sunset_free(doc);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(readme_pairs_are_rows),
        cmocka_unit_test(one_default_and_a_writer_per_row),
        cmocka_unit_test(unknown_format_is_the_documented_error),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
