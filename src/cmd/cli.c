/*
 * cli.c — the option table and the parser built on it. Every option names the commands it
 * belongs to, where its value goes in `struct cli` and how to read it; --help is printed from
 * the same rows, so the two cannot disagree.
 */
#include "cmd/cli.h"
#include "cmd/documents.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "sunset.h"

typedef enum opt_kind { K_FLAG, K_STR, K_LIST, K_LONG, K_SIZE, K_HELP, K_NEVER_COLOR } opt_kind;

typedef struct opt_def {
    char short_name;
    const char *long_name;
    const char *arg; /* NULL: a flag */
    unsigned cmds;
    opt_kind kind;
    size_t off;      /* where in struct cli */
    long min, max;   /* K_LONG range */
    const char *help;
} opt_def;

#define F(field) offsetof(cli, field)
#define ALL (~0u)
#define SC CMD_SCANNING
#define SR (CMD_SCANNING | CMD_RULES)
#define RH (CMD_SCANNING | CMD_RULES | CMD_HISTORY) /* commands that load rules */
#define H CMD_HISTORY

static const opt_def options[] = {
    {'h', "help", NULL, ALL, K_HELP, 0, 0, 0, "show this help"},
    {'f', "format", "FMT", CMD_SCAN | CMD_CHECK, K_STR, F(format), 0, 0, "output format: text (default), json, sarif, github or markdown"},
    {'f', "format", "FMT", CMD_RULES, K_STR, F(format), 0, 0, "rules list: text (default) or json; rules show: also markdown"},
    {'o', "output", "FILE", RH, K_STR, F(output), 0, 0, "write the report to FILE (atomically) instead of stdout"},
    {'j', "jobs", "N", SC, K_LONG, F(jobs), 1, 1024, "worker threads (default: all cores)"},
    {0, "rules", "DIR", RH, K_LIST, F(rules), 0, 0, "rule directory, repeatable (default: the bundled rules)"},
    {0, "queries", "DIR", RH, K_STR, F(queries), 0, 0, "query directory (default: the bundled queries)"},
    {0, "config", "FILE", RH, K_STR, F(config), 0, 0, "project configuration (default: nearest .sunset.json)"},
    {0, "no-config", NULL, RH, K_FLAG, F(no_config), 0, 0, "do not read any .sunset.json"},
    {'p', "compile-commands", "DIR", SC, K_STR, F(compdb), 0, 0, "precise C/C++ mode: DIR holds compile_commands.json"},
    {0, "root", "DIR", SC, K_STR, F(root), 0, 0, "report paths relative to DIR (default: the scanned directory)"},
    {0, "include", "GLOB", SC | H, K_LIST, F(include), 0, 0, "scan only files matching GLOB, repeatable"},
    {0, "exclude", "GLOB", SC | H, K_LIST, F(exclude), 0, 0, "skip files and directories matching GLOB, repeatable"},
    {0, "no-ignore", NULL, SC, K_FLAG, F(no_ignore), 0, 0, "do not honour .gitignore files"},
    {0, "include-generated", NULL, SC, K_FLAG, F(generated), 0, 0, "scan generated files (*.pb.h, @generated ...) too"},
    {0, "max-filesize", "SIZE", SC | H, K_SIZE, F(max_size), 0, 0, "skip larger files, e.g. 16M (default 16M)"},
    {0, "parse-budget", "MS", SC, K_LONG, F(budget), 0, 86400000, "per-file parse time budget in ms (default 10000, 0 = none)"},
    {0, "color", "WHEN", SC, K_STR, F(color), 0, 0, "auto (default), always or never"},
    {0, "no-color", NULL, SC, K_NEVER_COLOR, F(color), 0, 0, "same as --color=never"},
    {0, "no-summary", NULL, SC, K_FLAG, F(no_summary), 0, 0, "text output without the closing summary"},
    {0, "no-snippets", NULL, SC, K_FLAG, F(no_snippets), 0, 0, "text output without source lines and carets"},
    {0, "cache", "DIR", SC, K_STR, F(cache_dir), 0, 0, "content cache directory (default: $SUNSET_CACHE_DIR, else .sunset-cache at the git work tree's top, else $XDG_CACHE_HOME/sunset)"},
    {0, "no-cache", NULL, SC, K_FLAG, F(no_cache), 0, 0, "neither read nor write the content cache"},
    {0, "no-prefilter", NULL, SC, K_FLAG, F(no_prefilter), 0, 0, "parse every file, even those no rule can match"},
    {'q', "quiet", NULL, SC | H, K_FLAG, F(quiet), 0, 0, "no progress line and no warnings on stderr"},
    {'v', "verbose", NULL, CMD_RULES, K_FLAG, F(verbose), 0, 0, "rules test: list every example, not only failures"},
    {'v', "verbose", NULL, CMD_CHECK, K_FLAG, F(verbose), 0, 0, "diff modes: name what the change touches that is not a file (submodules)"},
    {0, "baseline", "FILE", CMD_CHECK, K_STR, F(baseline), 0, 0, "report only findings not recorded in FILE (see 'sunset baseline')"},
    {0, "update-baseline", NULL, CMD_CHECK, K_FLAG, F(update_baseline), 0, 0, "drop fixed findings from the baseline used (it never grows)"},
    {0, "accept-new", NULL, CMD_CHECK, K_FLAG, F(accept_new), 0, 0, "with --update-baseline: also record the new findings"},
    {0, "diff-base", "REV", CMD_CHECK, K_STR, F(diff_base), 0, 0, "only findings on lines added or edited since REV (git)"},
    {0, "files-from", "FILE", CMD_CHECK, K_STR, F(files_from), 0, 0, "only the files listed in FILE (one per line, - = stdin)"},
    {0, "severity-threshold", "SEV", CMD_CHECK, K_STR, F(threshold), 0, 0, "new findings at or above SEV fail: info, warning (default), error"},
    {0, "severity-threshold", "SEV", CMD_SCAN, K_STR, F(threshold), 0, 0, "with --error: findings at or above SEV fail (default warning)"},
    {0, "error", NULL, CMD_SCAN, K_FLAG, F(error_exit), 0, 0, "exit 1 when there are unsuppressed findings at or above --severity-threshold"},
    {0, "select", "GLOB", SC, K_LIST, F(select), 0, 0, "run only the rules whose id matches GLOB, repeatable (e.g. 'PE-*')"},
    {0, "ignore", "GLOB", SC, K_LIST, F(ignore), 0, 0, "do not run the rules whose id matches GLOB, repeatable"},
    {0, "stdin-filename", "PATH", CMD_SCAN, K_STR, F(stdin_filename), 0, 0, "scan -: the path stdin's content stands for (picks language and configuration)"},
    {0, "summary", "FILE", CMD_CHECK, K_STR, F(summary), 0, 0, "also write a Markdown summary to FILE (default with -f github: $GITHUB_STEP_SUMMARY)"},
    {0, "report-unused-suppressions", NULL, CMD_CHECK, K_FLAG, F(report_unused), 0, 0, "list sunset-ignore comments that suppress nothing"},
    {0, "sarif", "FILE", CMD_CHECK, K_STR, F(sarif_out), 0, 0, "also write SARIF (every result with its baselineState) to FILE, from the same run"},
    {0, "staged", NULL, CMD_CHECK, K_FLAG, F(staged), 0, 0, "judge the index (what a commit records) against HEAD; for pre-commit hooks"},
    {0, "allow-config-change", NULL, CMD_CHECK, K_FLAG, F(allow_config_change), 0, 0, "accept a change to .sunset.json, the baseline, .gitignore, rules or queries (then read from the change)"},
    {0, "allow-new-suppressions", NULL, CMD_CHECK, K_FLAG, F(allow_new_suppressions), 0, 0, "diff modes: do not fail on sunset-ignore comments the change adds"},
    {'v', "verbose", NULL, H, K_FLAG, F(verbose), 0, 0, "print how many blobs were scanned and reused"},
    {'f', "format", "FMT", H, K_STR, F(format), 0, 0, "csv (default), json or svg (a burn-down chart)"},
    {0, "repo", "DIR", H, K_STR, F(repo), 0, 0, "the git repository (default: the current directory)"},
    {0, "shard", "I/N", CMD_SCAN | H, K_STR, F(shard), 0, 0, "do part I of N (files by path, commits by position); join with 'sunset merge'"},
    {'o', "output", "FILE", CMD_MERGE, K_STR, F(output), 0, 0, "write the merged document to FILE (atomically)"},
    {0, "since", "DATE", H, K_STR, F(since), 0, 0, "only commits from DATE (YYYY-MM-DD) on"},
    {0, "every", "N", H, K_LONG, F(every), 1, 1000000, "sample every Nth commit (the newest is always kept)"},
    {0, "max-count", "N", H, K_LONG, F(max_count), 1, 10000000, "at most N commits (default 100 without a range or --since)"},
    {0, "min-drop", "N", H, K_LONG, F(min_drop), 1, 1000000, "svg: label every drop of more than N findings (default 10)"},
    {'f', "format", "FMT", CMD_REPORT, K_STR, F(format), 0, 0, "markdown (md; default), json or html"},
    {0, "manifest", "FILE", CMD_REPORT, K_STR, F(manifest), 0, 0, "tracking manifest (default: the one in rules/tracking/)"},
    {0, "out-dir", "DIR", CMD_REPORT, K_STR, F(out_dir), 0, 0, "write DIR/tracking.md, .json and .html from one run"},
    {0, "update", "FILE", CMD_REPORT, K_STR, F(update), 0, 0, "rewrite the marked region of the issue body in FILE"},
    {0, "batches", NULL, CMD_REPORT, K_FLAG, F(batches), 0, 0, "add the remaining work as contributor batches per directory"},
    {0, "owners", "FILE", CMD_REPORT, K_STR, F(owners), 0, 0, "batches per owner, by the CODEOWNERS file FILE"},
    {0, "burndown", "SVG", CMD_REPORT, K_STR, F(burndown), 0, 0, "embed this burn-down chart (sunset history -f svg) in the HTML"},
    {0, "source-url", "URL", CMD_REPORT, K_STR, F(source_url), 0, 0, "prefix of path#Lline links (default: the manifest's; \"\" = relative)"},
    {0, "lang", "LANG", CMD_REPORT, K_STR, F(lang), 0, 0, "language of the prose: zh or en (default: the manifest's, else zh)"},
    {0, "since-report", "FILE", CMD_REPORT, K_STR, F(since_report), 0, 0, "add what changed since the report whose JSON is FILE (本周变化)"},
    {0, "revision", "SHA", CMD_REPORT, K_STR, F(revision), 0, 0, "the commit PATH holds when it is not a git checkout (pins the links)"},
    {0, "md-budget", "N", CMD_REPORT, K_LONG, F(md_budget), 1000, 65536, "Markdown stays under N characters (default 60000)"},
    {'f', "format", "FMT", CMD_REMOVABLE, K_STR, F(format), 0, 0, "markdown (default) or json"},
    {0, "patch", NULL, CMD_REMOVABLE, K_FLAG, F(patch), 0, 0, "write a git-apply-able diff deleting the provably safe items"},
    {0, "check-patch", "FILE", CMD_REMOVABLE, K_STR, F(check_patch), 0, 0, "check a removal patch: list references it leaves dangling (exit 1)"},
    {0, "derive", NULL, CMD_SCAN, K_FLAG, F(derive), 0, 0, "add findings derived across files (legacy by inheritance, import, include ...)"},
    {0, "findings", NULL, CMD_SCAN | CMD_CHECK, K_FLAG, F(findings), 0, 0, "text, markdown: every finding instead of one item per remnant"},
    {0, "expand", NULL, CMD_SCAN | CMD_CHECK | H, K_FLAG, F(findings), 0, 0, "same as --findings"},
};
#define N_OPTIONS (sizeof options / sizeof options[0])

static void usage_lines(FILE *f) {
    for (size_t i = 0; i < sunset_n_commands; i++)
        fprintf(f, "%s sunset %s\n", i ? "      " : "usage:", sunset_commands[i].synopsis);
    fprintf(f, "       sunset --help | --version | COMMAND --help\n");
}

/* the command being parsed, for the hint under a usage error */
static const char *usage_command;

int cli_usage_error(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "sunset: ");
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
    /* one line, as git and clap print: the whole usage would bury the error */
    if (usage_command) fprintf(stderr, "Try 'sunset %s --help' for its options.\n", usage_command);
    else fprintf(stderr, "Try 'sunset --help' for the commands.\n");
    return EXIT_USAGE;
}

/* Edit distance with transpositions (optimal string alignment), case-insensitive, capped:
 * enough to tell "scna" from "scan" and "frmat" from "format". */
static size_t distance(const char *a, size_t la, const char *b, size_t lb) {
    enum { MAXL = 64 };
    if (la >= MAXL || lb >= MAXL) return MAXL;
    size_t d[MAXL + 1][MAXL + 1];
    for (size_t i = 0; i <= la; i++) d[i][0] = i;
    for (size_t j = 0; j <= lb; j++) d[0][j] = j;
    for (size_t i = 1; i <= la; i++)
        for (size_t j = 1; j <= lb; j++) {
            size_t cost = (a[i - 1] | 0x20) != (b[j - 1] | 0x20);
            size_t v = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < v) v = d[i][j - 1] + 1;
            if (d[i - 1][j - 1] + cost < v) v = d[i - 1][j - 1] + cost;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < v)
                v = d[i - 2][j - 2] + 1;
            d[i][j] = v;
        }
    return d[la][lb];
}

/* Keeps the closest candidate: one the typed word is a prefix of (--form), or one edit away
 * (two for names of 6 letters or more): "xml" suggests no "html", "x" nothing. */
typedef struct suggest {
    const char *typed;
    size_t n;
    const char *best;
    size_t dist;
} suggest;

static void suggest_try(suggest *s, const char *cand) {
    size_t lc = strlen(cand);
    size_t d = s->n < lc && strncmp(cand, s->typed, s->n) == 0 && s->n >= 2 ? 1 : distance(s->typed, s->n, cand, lc);
    if (d <= (lc >= 6 ? 2u : 1u) && d < lc && (!s->best || d < s->dist)) s->best = cand, s->dist = d;
}

static int unknown_option(const char *a, const cli *c) {
    bool lng = a[1] == '-';
    const char *name = a + (lng ? 2 : 1), *eq = strchr(name, '=');
    suggest s = {name, eq ? (size_t)(eq - name) : strlen(name), NULL, 0};
    const opt_def *elsewhere = NULL;
    for (size_t k = 0; k < N_OPTIONS; k++) {
        const opt_def *o = &options[k];
        if (lng && strlen(o->long_name) == s.n && strncmp(o->long_name, name, s.n) == 0) elsewhere = o;
        if (lng && (o->cmds & c->cmd)) suggest_try(&s, o->long_name);
    }
    if (elsewhere) {
        char cmds[128] = "";
        for (size_t i = 0; i < sunset_n_commands; i++)
            for (size_t k = 0; k < N_OPTIONS; k++)
                if ((options[k].cmds & sunset_commands[i].bit) && strcmp(options[k].long_name, elsewhere->long_name) == 0) {
                    if (strlen(cmds) + strlen(sunset_commands[i].name) + 3 < sizeof cmds)
                        strcat(strcat(cmds, *cmds ? ", " : ""), sunset_commands[i].name);
                    break;
                }
        return cli_usage_error("'--%s' is not an option of '%s' (it is one of: %s)", elsewhere->long_name,
                               c->command, cmds);
    }
    if (s.best) return cli_usage_error("unknown option '%.*s' for '%s'; did you mean '--%s'?", (int)(s.n + 2), a,
                                       c->command, s.best);
    return cli_usage_error("unknown option '%s' for '%s'", a, c->command);
}

/* ---- formats: one set of names for every command ---- */


/* c->format to its one name (md -> markdown), or an error listing the command's formats
 * (the document table, cmd/documents.c). */
static int check_format(cli *c) {
    if (!c->format) return EXIT_OK;
    suggest s = {c->format, strlen(c->format), NULL, 0};
    char known[160] = "";
    size_t n_formats;
    const doc_format *formats = doc_formats(&n_formats);
    for (size_t i = 0; i < n_formats; i++) {
        if (formats[i].cmd != c->cmd) continue;
        if (strcmp(c->format, formats[i].name) == 0) return EXIT_OK;
        if (formats[i].alias && strcmp(c->format, formats[i].alias) == 0) {
            c->format = formats[i].name; /* static, as --no-color's "never" */
            return EXIT_OK;
        }
        suggest_try(&s, formats[i].name);
        if (formats[i].alias) suggest_try(&s, formats[i].alias);
        size_t n = strlen(known);
        snprintf(known + n, sizeof known - n, "%s%s%s%s%s", n ? ", " : "", formats[i].name,
                 formats[i].alias ? " (" : "", formats[i].alias ? formats[i].alias : "", formats[i].alias ? ")" : "");
    }
    if (s.best)
        return cli_usage_error("unknown format '%s' for '%s'; did you mean '%s'? (known: %s)", c->format, c->command,
                               s.best, known);
    return cli_usage_error("unknown format '%s' for '%s' (known: %s)", c->format, c->command, known);
}

/* The terminal's width for --help: $COLUMNS, else the tty's, else 80; 60 at least. */
static int help_width(void) {
    const char *e = getenv("COLUMNS");
    long w = e ? strtol(e, NULL, 10) : 0;
    struct winsize ws;
    if (w <= 0 && isatty(1) && ioctl(1, TIOCGWINSZ, &ws) == 0) w = ws.ws_col;
    if (w <= 0) w = 80;
    return w < 60 ? 60 : w > 200 ? 200 : (int)w;
}

/* text from column `col` (the cursor is there), its words re-flowed to `width`, every
 * continuation line indented to `col`: wrapped help stays under its column */
static void print_wrapped(const char *text, int col, int width) {
    int x = col;
    for (const char *p = text; *p;) {
        while (*p == ' ' || *p == '\n') p++;
        size_t n = strcspn(p, " \n");
        if (!n) break;
        if (x > col && x + 1 + (int)n > width) {
            printf("\n%*s", col, "");
            x = col;
        } else if (x > col) {
            putchar(' ');
            x++;
        }
        printf("%.*s", (int)n, p);
        x += (int)utf8_columns(p, n, false);
        p += n;
    }
    putchar('\n');
}

static void help(const command *cmd) {
    if (!cmd) {
        usage_lines(stdout);
        putchar('\n');
        print_wrapped("Audits a Paddle-style source tree for remnants of the legacy executors (ParallelExecutor, "
                      "SSAGraphExecutor, ExecutionStrategy, OpHandles, AsyncExecutor ...).",
                      0, help_width());
        printf("\ncommands:\n");
        for (size_t i = 0; i < sunset_n_commands; i++) {
            printf("  %-10s ", sunset_commands[i].name);
            print_wrapped(sunset_commands[i].summary, 13, help_width());
        }
        printf("\nexit status: 0 the command ran; 1 check found new findings / rules test failed;\n"
               "2 usage, configuration, rule or I/O error. See 'sunset COMMAND --help' and man sunset.\n");
        return;
    }
    printf("usage: sunset %s\n\n", cmd->synopsis);
    print_wrapped(cmd->summary, 0, help_width());
    printf("\noptions:\n");
    for (size_t i = 0; i < N_OPTIONS; i++) {
        const opt_def *o = &options[i];
        if (!(o->cmds & cmd->bit)) continue;
        char left[64];
        if (o->short_name)
            snprintf(left, sizeof left, "-%c, --%s%s%s", o->short_name, o->long_name,
                     o->arg ? " " : "", o->arg ? o->arg : "");
        else
            snprintf(left, sizeof left, "    --%s%s%s", o->long_name, o->arg ? " " : "",
                     o->arg ? o->arg : "");
        /* a long option name puts its help on the next line, as GNU tools do */
        if (strlen(left) > 32) printf("  %s\n%35s", left, "");
        else printf("  %-32s ", left);
        print_wrapped(o->help, 35, help_width());
    }
}

static bool parse_size(const char *s, size_t *out) {
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || end == s || *s == '-') return false;
    if (*end == 'K' || *end == 'k') v <<= 10, end++;
    else if (*end == 'M' || *end == 'm') v <<= 20, end++;
    else if (*end == 'G' || *end == 'g') v <<= 30, end++;
    if (*end || v == 0) return false;
    *out = (size_t)v;
    return true;
}

static int set_option(const opt_def *o, const char *name, const char *val, cli *c, bool *done) {
    char *base = (char *)c;
    switch (o->kind) {
    case K_HELP:
        for (size_t i = 0; i < sunset_n_commands; i++)
            if (sunset_commands[i].bit == c->cmd) help(&sunset_commands[i]);
        *done = true;
        return EXIT_OK;
    case K_FLAG: *(bool *)(base + o->off) = true; return EXIT_OK;
    case K_STR: *(const char **)(base + o->off) = val; return EXIT_OK;
    case K_NEVER_COLOR: *(const char **)(base + o->off) = "never"; return EXIT_OK;
    case K_LIST:
        if (!vec_push((vec *)(base + o->off), &val)) return cli_usage_error("out of memory");
        return EXIT_OK;
    case K_LONG: {
        char *end;
        errno = 0;
        long v = strtol(val, &end, 10);
        if (errno || end == val || *end || v < o->min || v > o->max)
            return cli_usage_error("%s takes a whole number from %ld to %ld, not '%s'", name, o->min, o->max, val);
        *(long *)(base + o->off) = v;
        return EXIT_OK;
    }
    case K_SIZE:
        if (!parse_size(val, (size_t *)(base + o->off)))
            return cli_usage_error("%s takes a size like 512K or 16M, not '%s'", name, val);
        return EXIT_OK;
    }
    return EXIT_USAGE;
}

int cli_parse(int argc, char **argv, cli *c, bool *done) {
    memset(c, 0, sizeof *c);
    c->paths = c->rules = c->include = c->exclude = c->select = c->ignore = VEC_INIT(const char *);
    c->budget = -1;
    c->argc = argc;
    c->argv = argv;
    *done = false;
    if (argc < 2) {
        usage_lines(stderr);
        return EXIT_USAGE;
    }
    const char *first = argv[1];
    if (strcmp(first, "--help") == 0 || strcmp(first, "-h") == 0 || strcmp(first, "help") == 0) {
        help(NULL);
        *done = true;
        return EXIT_OK;
    }
    if (strcmp(first, "--version") == 0) {
        printf("sunset %s (%s%s%srule schema %d, frontend ABI %d)\n", SUNSET_VERSION, *SUNSET_GIT_COMMIT ? "commit " : "",
               SUNSET_GIT_COMMIT, *SUNSET_GIT_COMMIT ? ", " : "", SUNSET_RULE_SCHEMA, SUNSET_FRONTEND_ABI);
        *done = true;
        return EXIT_OK;
    }
    for (size_t i = 0; i < sunset_n_commands; i++)
        if (strcmp(sunset_commands[i].name, first) == 0) {
            c->cmd = sunset_commands[i].bit;
            c->command = sunset_commands[i].name;
        }
    if (!c->cmd) {
        suggest sg = {first, strlen(first), NULL, 0};
        for (size_t i = 0; i < sunset_n_commands; i++) suggest_try(&sg, sunset_commands[i].name);
        if (sg.best) return cli_usage_error("unknown command '%s'; did you mean '%s'?", first, sg.best);
        return cli_usage_error("unknown command '%s'", first);
    }
    usage_command = c->command;
    bool only_paths = false;
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        if (only_paths || a[0] != '-' || a[1] == 0) {
            if (!vec_push(&c->paths, &a)) return cli_usage_error("out of memory");
            continue;
        }
        if (strcmp(a, "--") == 0) {
            only_paths = true;
            continue;
        }
        const opt_def *o = NULL;
        const char *val = NULL;
        if (a[1] == '-') {
            const char *name = a + 2, *eq = strchr(name, '=');
            size_t n = eq ? (size_t)(eq - name) : strlen(name);
            for (size_t k = 0; k < N_OPTIONS; k++)
                if (strlen(options[k].long_name) == n && strncmp(options[k].long_name, name, n) == 0 &&
                    (options[k].cmds & c->cmd))
                    o = &options[k];
            if (o && eq) {
                if (!o->arg) return cli_usage_error("option '--%s' takes no value", o->long_name);
                val = eq + 1;
            }
        } else {
            for (size_t k = 0; k < N_OPTIONS; k++)
                if (options[k].short_name == a[1] && (options[k].cmds & c->cmd)) o = &options[k];
            if (o && a[2]) {
                if (!o->arg) return cli_usage_error("option '%s' takes no value", a);
                val = a + 2;
            }
        }
        if (!o) return unknown_option(a, c);
        if (o->arg && !val) {
            if (i + 1 >= argc) return cli_usage_error("option '%s' needs a value", a);
            val = argv[++i];
        }
        char name[64];
        snprintf(name, sizeof name, "--%s", o->long_name);
        int rc = set_option(o, name, val, c, done);
        if (rc != EXIT_OK || *done) return rc;
    }
    if (c->color && strcmp(c->color, "auto") && strcmp(c->color, "always") && strcmp(c->color, "never"))
        return cli_usage_error("--color takes auto, always or never, not '%s'", c->color);
    return check_format(c);
}

bool cli_shard_parse(const char *s, unsigned *i, unsigned *n) {
    char extra;
    /* digits only: sscanf's %u would take "-1" and " 2" */
    if (!s || s[0] < '0' || s[0] > '9' || !strchr(s, '/') || strchr(s, '/')[1] < '0' || strchr(s, '/')[1] > '9')
        return false;
    return sscanf(s, "%u/%u%c", i, n, &extra) == 2 && *n > 0 && *i > 0 && *i <= *n && *n <= 100000;
}

int cli_shard(const cli *c, cli_shard_spec *out) {
    *out = (cli_shard_spec){0, 0};
    if (!c->shard) return EXIT_OK;
    unsigned i, n;
    if (!cli_shard_parse(c->shard, &i, &n))
        return cli_usage_error("--shard takes I/N with 1 <= I <= N, not '%s'", c->shard);
    *out = (cli_shard_spec){i, n};
    return EXIT_OK;
}

bool cli_in_shard(const cli_shard_spec *sh, const char *key) {
    if (!sh->n) return true;
    /* a stable split: the same key always lands in the same shard, whatever the machine */
    return hash64(key, strlen(key), 0x5eed) % sh->n == sh->i - 1;
}

void cli_free(cli *c) {
    vec_free(&c->paths);
    vec_free(&c->rules);
    vec_free(&c->include);
    vec_free(&c->exclude);
    vec_free(&c->select);
    vec_free(&c->ignore);
}
