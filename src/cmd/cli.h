/*
 * cli.h — the command line, shared by every command: one option table (src/cmd/cli.c) drives
 * both the parser and --help. A command is a function in its own file taking the parsed
 * `cli`; adding an option is one table row and one field here.
 */
#ifndef SUNSET_CLI_H
#define SUNSET_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include "base/util.h"

/* Command bits, for options that belong to several commands. */
enum {
    CMD_SCAN = 1u << 0,
    CMD_RULES = 1u << 1,
    CMD_BASELINE = 1u << 2,
    CMD_CHECK = 1u << 3,
    CMD_REPORT = 1u << 4,
    CMD_REMOVABLE = 1u << 5,
    CMD_HISTORY = 1u << 6,
    CMD_MERGE = 1u << 7,
};
/* Commands that run a scan and so take the scan options. */
#define CMD_SCANNING (CMD_SCAN | CMD_BASELINE | CMD_CHECK | CMD_REPORT | CMD_REMOVABLE)

/* The parsed command line. Only cli_parse writes it: every command takes it `const`, and what
 * a command derives from it (the configuration's globs, the shard, the start of the
 * configuration search) lives in the command's own state (cmd/session.h's scan_ctx). */
typedef struct cli {
    unsigned cmd;          /* CMD_* bit of the command */
    const char *command;   /* its name */
    const char *sub;       /* a sub-command word (rules test|list) */
    vec paths;             /* const char *: positional arguments */
    /* scan options */
    const char *format, *output, *config, *compdb, *root, *queries, *color;
    vec rules, include, exclude; /* const char * */
    long jobs;
    bool no_config, no_ignore, generated, no_summary, no_snippets, no_prefilter, quiet, verbose;
    bool patch, derive;    /* removable --patch; scan --derive */
    const char *check_patch; /* removable --check-patch FILE */
    bool findings;         /* scan --findings (--expand): every finding, not the remnants */
    size_t max_size;
    long budget;           /* -1 = default */
    /* baseline / check (src/cmd/check.c) */
    const char *baseline, *diff_base, *files_from, *threshold, *summary;
    bool update_baseline, accept_new, report_unused;
    bool staged, allow_config_change, allow_new_suppressions; /* check: the gate's trust model */
    const char *sarif_out; /* check --sarif FILE */
    vec select, ignore;    /* --select/--ignore RULE-GLOB (scanning commands); const char * */
    bool error_exit;       /* scan --error: exit 1 on findings at or above --severity-threshold */
    const char *stdin_filename; /* scan -: the name (and so the language) of stdin's content */
    /* history */
    const char *repo, *since;
    long every, max_count;
    long min_drop;         /* history -f svg: label drops of more than N findings (0: 10) */
    /* the content cache (scanning commands) */
    const char *cache_dir;
    bool no_cache;
    /* --shard i/n (scan, history): this run does part i of n (cli_shard parses it) */
    const char *shard;
    /* report (src/cmd/report.c) */
    const char *manifest, *out_dir, *update, *owners, *source_url, *burndown;
    const char *lang, *revision; /* --lang zh|en; --revision SHA (a tree not in git) */
    const char *since_report;    /* --since-report FILE: the previous report's JSON (本周变化) */
    long md_budget;              /* --md-budget N characters; 0 = the default */
    bool batches;
    /* the command line as given (scan's warm path keys a run by it) */
    int argc;
    char *const *argv;
} cli;

/* Parse argv. Returns EXIT_OK, or an exit code after printing the error (or the help, with
 * *done set: then the caller exits with the returned code). */
int cli_parse(int argc, char **argv, cli *c, bool *done);
void cli_free(cli *c);
/* "sunset: MESSAGE" and the usage lines on stderr; returns EXIT_USAGE. */
int cli_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The command registry (main.c). */
typedef struct command {
    const char *name;
    unsigned bit;
    int (*run)(const cli *c);
    const char *synopsis; /* "scan [OPTIONS] [PATH...]" */
    const char *summary;  /* one line for --help */
} command;
extern const command sunset_commands[];
extern const size_t sunset_n_commands;

/* Commands, one file each. */
int cmd_scan(const cli *c);   /* src/cmd/session.c */
int cmd_rules(const cli *c);  /* src/cmd/selftest.c */
int cmd_removable(const cli *c); /* src/cmd/removable.c */
int cmd_baseline(const cli *c); /* src/cmd/check.c */
int cmd_check(const cli *c);    /* src/cmd/check.c */
int cmd_history(const cli *c); /* src/cmd/history.c */
int cmd_merge(const cli *c);   /* src/cmd/merge.c */
/* A run's part of the work: part i of n; n == 0: everything. */
typedef struct cli_shard_spec {
    unsigned i, n;
} cli_shard_spec;
/* Parse c->shard ("i/n", 1 <= i <= n) into *out ({0, 0} without --shard); prints an error,
 * returns EXIT_USAGE. */
int cli_shard(const cli *c, cli_shard_spec *out);
/* "i/n" with 1 <= i <= n <= 100000, digits only, into *i and *n. */
bool cli_shard_parse(const char *s, unsigned *i, unsigned *n);
/* Is the item with this key in this run's shard? (true without --shard) */
bool cli_in_shard(const cli_shard_spec *sh, const char *key);
int cmd_report(const cli *c);  /* src/cmd/report.c */

#endif
