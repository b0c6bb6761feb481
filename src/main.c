/*
 * main.c — the command line. One option table serves the parser and --help. Library code
 * returns errors; only this file prints them and exits, with the codes of `enum exit_code`
 * (documented in the README and the man page).
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config.h"
#include "engine_int.h"
#include "selftest.h"

enum exit_code {
    EXIT_OK = 0,       /* the command ran (findings or not) */
    EXIT_FINDINGS = 1, /* reserved for gates: new findings */
    EXIT_USAGE = 2,    /* usage, configuration, rule or I/O error */
};

enum cmd { CMD_SCAN = 1, CMD_RULES = 2 };

enum opt_id {
    O_HELP, O_VERSION, O_FORMAT, O_OUTPUT, O_JOBS, O_RULES, O_QUERIES, O_CONFIG, O_NO_CONFIG,
    O_COMPDB, O_ROOT, O_INCLUDE, O_EXCLUDE, O_NO_IGNORE, O_GENERATED, O_MAX_SIZE, O_BUDGET,
    O_COLOR, O_NO_COLOR, O_NO_SUMMARY, O_NO_SNIPPETS, O_NO_PREFILTER, O_QUIET, O_VERBOSE,
};

typedef struct opt_def {
    int id;
    char short_name;
    const char *long_name;
    const char *arg; /* NULL = flag */
    unsigned cmds;
    const char *help;
} opt_def;

static const opt_def options[] = {
    {O_HELP, 'h', "help", NULL, CMD_SCAN | CMD_RULES, "show this help"},
    {O_FORMAT, 'f', "format", "FMT", CMD_SCAN | CMD_RULES, "output format: text (default) or json"},
    {O_OUTPUT, 'o', "output", "FILE", CMD_SCAN | CMD_RULES, "write the report to FILE (atomically) instead of stdout"},
    {O_JOBS, 'j', "jobs", "N", CMD_SCAN, "worker threads (default: all cores)"},
    {O_RULES, 0, "rules", "DIR", CMD_SCAN | CMD_RULES, "rule directory, repeatable (default: the bundled rules)"},
    {O_QUERIES, 0, "queries", "DIR", CMD_SCAN | CMD_RULES, "query directory (default: the bundled queries)"},
    {O_CONFIG, 0, "config", "FILE", CMD_SCAN | CMD_RULES, "project configuration (default: nearest .sunset.json)"},
    {O_NO_CONFIG, 0, "no-config", NULL, CMD_SCAN | CMD_RULES, "do not read any .sunset.json"},
    {O_COMPDB, 'p', "compile-commands", "DIR", CMD_SCAN, "precise C/C++ mode: DIR holds compile_commands.json"},
    {O_ROOT, 0, "root", "DIR", CMD_SCAN, "report paths relative to DIR (default: the scanned directory)"},
    {O_INCLUDE, 0, "include", "GLOB", CMD_SCAN, "scan only files matching GLOB, repeatable"},
    {O_EXCLUDE, 0, "exclude", "GLOB", CMD_SCAN, "skip files and directories matching GLOB, repeatable"},
    {O_NO_IGNORE, 0, "no-ignore", NULL, CMD_SCAN, "do not honour .gitignore files"},
    {O_GENERATED, 0, "include-generated", NULL, CMD_SCAN, "scan generated files (*.pb.h, @generated ...) too"},
    {O_MAX_SIZE, 0, "max-filesize", "SIZE", CMD_SCAN, "skip larger files, e.g. 16M (default 16M)"},
    {O_BUDGET, 0, "parse-budget", "MS", CMD_SCAN, "per-file parse time budget in ms (default 10000, 0 = none)"},
    {O_COLOR, 0, "color", "WHEN", CMD_SCAN, "auto (default), always or never"},
    {O_NO_COLOR, 0, "no-color", NULL, CMD_SCAN, "same as --color=never"},
    {O_NO_SUMMARY, 0, "no-summary", NULL, CMD_SCAN, "text output without the closing summary"},
    {O_NO_SNIPPETS, 0, "no-snippets", NULL, CMD_SCAN, "text output without source lines and carets"},
    {O_NO_PREFILTER, 0, "no-prefilter", NULL, CMD_SCAN, "parse every file, even those no rule can match"},
    {O_QUIET, 'q', "quiet", NULL, CMD_SCAN, "no progress line and no warnings on stderr"},
    {O_VERBOSE, 'v', "verbose", NULL, CMD_RULES, "rules test: list every example, not only failures"},
};
#define N_OPTIONS (sizeof options / sizeof options[0])

typedef struct cli {
    unsigned cmd;
    const char *sub; /* rules: test | list */
    const char *format, *output, *config, *compdb, *root, *queries, *color;
    vec rules, include, exclude, paths; /* const char * (argv) */
    int jobs;
    bool no_config, no_ignore, generated, no_summary, no_snippets, no_prefilter, quiet, verbose;
    size_t max_size;
    long budget;
} cli;

static void usage_line(FILE *f) {
    fprintf(f, "usage: sunset scan [OPTIONS] [PATH...]\n"
               "       sunset rules test|list [OPTIONS]\n"
               "       sunset --help | --version | COMMAND --help\n");
}

static void help(unsigned cmd) {
    usage_line(stdout);
    if (!cmd) {
        printf("\nAudits a Paddle-style source tree for remnants of the legacy executors "
               "(ParallelExecutor,\nSSAGraphExecutor, ExecutionStrategy, OpHandles, AsyncExecutor ...).\n\n"
               "commands:\n"
               "  scan      scan PATHs (default .) and report every remnant\n"
               "  rules     'rules test' checks every rule's examples; 'rules list' lists the rules\n\n"
               "exit status: 0 the command ran; 2 usage, configuration, rule or I/O error.\n"
               "See 'sunset COMMAND --help' and man sunset.\n");
        return;
    }
    printf("\noptions:\n");
    for (size_t i = 0; i < N_OPTIONS; i++) {
        const opt_def *o = &options[i];
        if (!(o->cmds & cmd)) continue;
        char left[64];
        if (o->short_name)
            snprintf(left, sizeof left, "-%c, --%s%s%s", o->short_name, o->long_name,
                     o->arg ? " " : "", o->arg ? o->arg : "");
        else
            snprintf(left, sizeof left, "    --%s%s%s", o->long_name, o->arg ? " " : "",
                     o->arg ? o->arg : "");
        printf("  %-32s %s\n", left, o->help);
    }
}

static int usage_error(const char *fmt, const char *a) {
    fprintf(stderr, "sunset: ");
    fprintf(stderr, fmt, a);
    fprintf(stderr, "\n");
    usage_line(stderr);
    return EXIT_USAGE;
}

static bool parse_size(const char *s, size_t *out) {
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || end == s) return false;
    if (*end == 'K' || *end == 'k') v <<= 10, end++;
    else if (*end == 'M' || *end == 'm') v <<= 20, end++;
    else if (*end == 'G' || *end == 'g') v <<= 30, end++;
    if (*end || v == 0) return false;
    *out = (size_t)v;
    return true;
}

static int parse_args(int argc, char **argv, cli *c) {
    int i = 1;
    if (i < argc && strcmp(argv[i], "scan") == 0) {
        c->cmd = CMD_SCAN;
        i++;
    } else if (i < argc && strcmp(argv[i], "rules") == 0) {
        c->cmd = CMD_RULES;
        i++;
        if (i < argc && argv[i][0] != '-') c->sub = argv[i++];
    } else if (i < argc && (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0)) {
        help(0);
        exit(EXIT_OK);
    } else if (i < argc && strcmp(argv[i], "--version") == 0) {
        printf("sunset %s (rule schema %d, frontend ABI %d)\n", SUNSET_VERSION, SUNSET_RULE_SCHEMA,
               SUNSET_FRONTEND_ABI);
        exit(EXIT_OK);
    } else if (i < argc) {
        return usage_error("unknown command '%s'", argv[i]);
    } else {
        usage_line(stderr);
        return EXIT_USAGE;
    }
    bool only_paths = false;
    for (; i < argc; i++) {
        const char *a = argv[i];
        if (only_paths || a[0] != '-' || a[1] == 0) {
            if (c->cmd != CMD_SCAN) return usage_error("unexpected argument '%s'", a);
            vec_push(&c->paths, &a);
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
                if (strlen(options[k].long_name) == n && strncmp(options[k].long_name, name, n) == 0)
                    o = &options[k];
            if (o && eq) {
                if (!o->arg) return usage_error("option '%s' takes no value", a);
                val = eq + 1;
            }
        } else {
            for (size_t k = 0; k < N_OPTIONS; k++)
                if (options[k].short_name == a[1]) o = &options[k];
            if (o && a[2]) {
                if (!o->arg) return usage_error("option '%s' takes no value", a);
                val = a + 2;
            }
        }
        if (!o || !(o->cmds & c->cmd)) return usage_error("unknown option '%s'", a);
        if (o->arg && !val) {
            if (i + 1 >= argc) return usage_error("option '%s' needs a value", a);
            val = argv[++i];
        }
        switch (o->id) {
        case O_HELP: help(c->cmd); exit(EXIT_OK);
        case O_FORMAT: c->format = val; break;
        case O_OUTPUT: c->output = val; break;
        case O_JOBS: {
            char *end;
            long j = strtol(val, &end, 10);
            if (*end || j < 1 || j > 1024) return usage_error("--jobs takes a whole number from 1 to 1024, not '%s'", val);
            c->jobs = (int)j;
            break;
        }
        case O_RULES: vec_push(&c->rules, &val); break;
        case O_QUERIES: c->queries = val; break;
        case O_CONFIG: c->config = val; break;
        case O_NO_CONFIG: c->no_config = true; break;
        case O_COMPDB: c->compdb = val; break;
        case O_ROOT: c->root = val; break;
        case O_INCLUDE: vec_push(&c->include, &val); break;
        case O_EXCLUDE: vec_push(&c->exclude, &val); break;
        case O_NO_IGNORE: c->no_ignore = true; break;
        case O_GENERATED: c->generated = true; break;
        case O_MAX_SIZE:
            if (!parse_size(val, &c->max_size)) return usage_error("--max-filesize takes a size like 512K or 16M, not '%s'", val);
            break;
        case O_BUDGET: {
            char *end;
            long b = strtol(val, &end, 10);
            if (*end || b < 0) return usage_error("--parse-budget takes milliseconds, not '%s'", val);
            c->budget = b;
            break;
        }
        case O_COLOR:
            if (strcmp(val, "auto") && strcmp(val, "always") && strcmp(val, "never"))
                return usage_error("--color takes auto, always or never, not '%s'", val);
            c->color = val;
            break;
        case O_NO_COLOR: c->color = "never"; break;
        case O_NO_SUMMARY: c->no_summary = true; break;
        case O_NO_SNIPPETS: c->no_snippets = true; break;
        case O_NO_PREFILTER: c->no_prefilter = true; break;
        case O_QUIET: c->quiet = true; break;
        case O_VERBOSE: c->verbose = true; break;
        }
    }
    if (c->cmd == CMD_RULES && (!c->sub || (strcmp(c->sub, "test") && strcmp(c->sub, "list"))))
        return usage_error("'rules' needs 'test' or 'list'%s", "");
    return EXIT_OK;
}

/* The directory of the running binary, for finding the bundled rules and queries. */
static bool exe_dir(char *buf, size_t n) {
    ssize_t len = readlink("/proc/self/exe", buf, n - 1);
    if (len <= 0) return false;
    buf[len] = 0;
    char *s = strrchr(buf, '/');
    if (!s) return false;
    *s = 0;
    return true;
}

static char *bundled(const char *what) {
    char dir[PATH_MAX];
    if (!exe_dir(dir, sizeof dir)) return NULL;
    const char *cands[] = {"%s/../%s", "%s/../share/sunset/%s"};
    for (size_t i = 0; i < 2; i++) {
        char p[PATH_MAX + 64];
        snprintf(p, sizeof p, cands[i], dir, what);
        struct stat st;
        if (stat(p, &st) == 0 && S_ISDIR(st.st_mode)) {
            char real[PATH_MAX];
            if (realpath(p, real)) return sunset_strndup(real, strlen(real));
        }
    }
    return NULL;
}

static int emit_output(const char *file, const sb *doc) {
    const char *data = doc->s ? doc->s : "";
    if (file && strcmp(file, "-") != 0) {
        int e = write_file_atomic(file, data, doc->len);
        if (e) {
            fprintf(stderr, "sunset: %s: cannot write: %s\n", file, strerror(e));
            return EXIT_USAGE;
        }
        return EXIT_OK;
    }
    fwrite(data, 1, doc->len, stdout);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "sunset: error writing to stdout: %s\n", strerror(errno));
        return EXIT_USAGE;
    }
    return EXIT_OK;
}

/* Root and root-relative start paths for the scan. */
static int resolve_paths(cli *c, char **root_out, char **display, vec *starts) {
    char real[PATH_MAX];
    if (c->paths.n == 0) {
        static const char *dot = ".";
        vec_push(&c->paths, &dot);
    }
    char root[PATH_MAX];
    if (c->root) {
        if (!realpath(c->root, root)) {
            fprintf(stderr, "sunset: %s: %s\n", c->root, strerror(errno));
            return EXIT_USAGE;
        }
        *display = sunset_strndup(c->root, strlen(c->root));
    } else {
        /* the common ancestor directory of every PATH */
        root[0] = 0;
        for (size_t i = 0; i < c->paths.n; i++) {
            const char *p = VEC_AT(&c->paths, const char *, i);
            struct stat st;
            if (!realpath(p, real) || stat(real, &st) != 0) {
                fprintf(stderr, "sunset: %s: %s\n", p, strerror(errno));
                return EXIT_USAGE;
            }
            if (!S_ISDIR(st.st_mode)) {
                char *s = strrchr(real, '/');
                if (s && s != real) *s = 0;
                else strcpy(real, "/");
            }
            if (!root[0]) {
                strcpy(root, real);
                continue;
            }
            size_t k = 0;
            while (root[k] && root[k] == real[k]) k++;
            if (!(root[k] == 0 && (real[k] == '/' || real[k] == 0))) {
                while (k > 0 && root[k] != '/') k--;
                root[k ? k : 1] = 0;
            }
        }
        const char *first = VEC_AT(&c->paths, const char *, 0);
        struct stat st;
        bool single_dir = c->paths.n == 1 && stat(first, &st) == 0 && S_ISDIR(st.st_mode);
        *display = single_dir ? sunset_strndup(first, strlen(first)) : sunset_strndup(root, strlen(root));
    }
    *root_out = sunset_strndup(root, strlen(root));
    size_t rl = strlen(root);
    for (size_t i = 0; i < c->paths.n; i++) {
        const char *p = VEC_AT(&c->paths, const char *, i);
        if (!realpath(p, real)) {
            fprintf(stderr, "sunset: %s: %s\n", p, strerror(errno));
            return EXIT_USAGE;
        }
        const char *rel;
        if (strcmp(real, root) == 0) rel = "";
        else if (strncmp(real, root, rl) == 0 && (real[rl] == '/' || rl == 1)) rel = real + rl + (rl > 1);
        else {
            fprintf(stderr, "sunset: %s: not under the root %s\n", p, c->root ? c->root : root);
            return EXIT_USAGE;
        }
        char *s = sunset_strndup(rel, strlen(rel));
        if (!s || !vec_push(starts, &s)) return EXIT_USAGE;
    }
    return EXIT_OK;
}

static void walk_warn(void *ctx, const char *msg) {
    if (!*(bool *)ctx) fprintf(stderr, "sunset: %s\n", msg);
}

static int cmp_str(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int run(cli *c) {
    int rc = EXIT_USAGE;
    sunset_config cfg;
    sunset_config_init(&cfg);
    sunset_error err = {{0}};
    sunset_ruleset *rs = NULL;
    sunset_engine *eng = NULL;
    sunset_result res = {0};
    char *bundled_rules = NULL, *bundled_queries = NULL, *root = NULL, *display = NULL;
    vec starts = VEC_INIT(char *), files = VEC_INIT(char *), dirs = VEC_INIT(const char *);
    sb doc = {0};

    const sunset_writer *writer = sunset_writer_find(c->format ? c->format : "text");
    if (c->cmd == CMD_SCAN && !writer) {
        fprintf(stderr, "sunset: unknown format '%s' (known: %s)\n", c->format, sunset_writer_names());
        goto cleanup;
    }
    /* configuration */
    if (!c->no_config) {
        char *found = NULL;
        if (!c->config) {
            const char *start = c->paths.n ? VEC_AT(&c->paths, const char *, 0) : ".";
            found = sunset_config_find(start);
        }
        const char *file = c->config ? c->config : found;
        if (file && sunset_config_load(file, &cfg, &err)) {
            fprintf(stderr, "sunset: %s\n", err.msg);
            sunset_free(found);
            goto cleanup;
        }
        sunset_free(found);
    }
    /* rules: --rules replaces the bundled set; the configuration's directories add to it */
    if (c->rules.n) {
        for (size_t i = 0; i < c->rules.n; i++) vec_push(&dirs, &VEC_AT(&c->rules, const char *, i));
    } else {
        bundled_rules = bundled("rules");
        if (!bundled_rules) {
            fprintf(stderr, "sunset: cannot find the bundled rules (looked in ../rules and "
                            "../share/sunset/rules next to the binary); use --rules DIR\n");
            goto cleanup;
        }
        vec_push(&dirs, &bundled_rules);
    }
    for (size_t i = 0; i < cfg.rule_dirs.n; i++) vec_push(&dirs, &VEC_AT(&cfg.rule_dirs, char *, i));
    const char *queries = c->queries ? c->queries : cfg.queries_dir;
    if (!queries) queries = bundled_queries = bundled("queries");
    rs = sunset_ruleset_load((const char *const *)dirs.v, dirs.n, queries, &err);
    if (!rs) {
        fprintf(stderr, "sunset: %s\n", err.msg);
        goto cleanup;
    }
    for (size_t i = 0; i < cfg.severity.n; i++) {
        sev_override *o = &VEC_AT(&cfg.severity, sev_override, i);
        if (sunset_ruleset_set_severity(rs, o->id, o->sev)) {
            fprintf(stderr, "sunset: %s: \"severity\" names unknown rule %s\n", cfg.path, o->id);
            goto cleanup;
        }
    }
    sunset_engine_opts eo = {
        .jobs = c->jobs ? c->jobs : cfg.jobs,
        .include_generated = c->generated,
        .max_file_size = c->max_size,
        .parse_budget_ms = c->budget >= 0 ? (unsigned)c->budget : 10000,
        .compile_db_dir = c->compdb ? c->compdb : cfg.compile_db,
        .queries_dir = queries,
        .no_prefilter = c->no_prefilter,
        .progress = !c->quiet && isatty(2),
        .disable = (const disable_entry *)cfg.disable.v,
        .n_disable = cfg.disable.n,
    };

    if (c->cmd == CMD_RULES) {
        if (strcmp(c->sub, "list") == 0) {
            bool json = c->format && strcmp(c->format, "json") == 0;
            if (c->format && !json && strcmp(c->format, "text")) {
                fprintf(stderr, "sunset: unknown format '%s' (known: text, json)\n", c->format);
                goto cleanup;
            }
            if (sunset_rules_list(rs, json, &doc)) goto cleanup;
            rc = emit_output(c->output, &doc);
        } else {
            eo.jobs = 1;
            int failed = sunset_rules_test(rs, &eo, c->verbose, stdout);
            rc = failed == 0 ? EXIT_OK : EXIT_FINDINGS;
        }
        goto cleanup;
    }

    if (resolve_paths(c, &root, &display, &starts)) goto cleanup;
    for (size_t i = 0; i < cfg.include.n; i++) vec_push(&c->include, &VEC_AT(&cfg.include, char *, i));
    for (size_t i = 0; i < cfg.exclude.n; i++) vec_push(&c->exclude, &VEC_AT(&cfg.exclude, char *, i));
    walk_opts wo = {!c->no_ignore, (const char *const *)c->include.v, c->include.n,
                    (const char *const *)c->exclude.v, c->exclude.n};
    walk_stats ws = {0};
    for (size_t i = 0; i < starts.n; i++) {
        const char *s = VEC_AT(&starts, char *, i);
        int e = walk_tree(root, s, &wo, &files, &ws, walk_warn, &c->quiet);
        if (e) {
            fprintf(stderr, "sunset: %s: %s\n", VEC_AT(&c->paths, const char *, i), strerror(e));
            goto cleanup;
        }
    }
    /* overlapping PATHs must not scan a file twice */
    if (files.n) qsort(files.v, files.n, sizeof(char *), cmp_str);
    size_t u = 0;
    for (size_t i = 0; i < files.n; i++) {
        char *f = VEC_AT(&files, char *, i);
        if (u && strcmp(VEC_AT(&files, char *, u - 1), f) == 0) sunset_free(f);
        else VEC_AT(&files, char *, u++) = f;
    }
    files.n = u;

    eng = sunset_engine_new(rs, &eo, &err);
    if (!eng) {
        fprintf(stderr, "sunset: %s\n", err.msg);
        goto cleanup;
    }
    if (sunset_engine_scan(eng, root, (char *const *)files.v, files.n, &res)) {
        fprintf(stderr, "sunset: out of memory during the scan\n");
        goto cleanup;
    }
    res.root = display;
    display = NULL;
    res.stats.ignored = ws.ignored;
    res.stats.excluded = ws.excluded;
    res.stats.symlinks_skipped = ws.symlinks_skipped;
    if (!c->quiet)
        for (size_t i = 0; i < res.n_warnings; i++) fprintf(stderr, "%s\n", res.warnings[i]);
    bool color;
    if (!c->color || strcmp(c->color, "auto") == 0)
        color = !c->output && isatty(1) && !getenv("NO_COLOR");
    else
        color = strcmp(c->color, "always") == 0;
    sunset_output_opts oo = {color, !c->no_summary, !c->no_snippets};
    if (writer->write(&res, &oo, &doc)) {
        fprintf(stderr, "sunset: out of memory writing the report\n");
        goto cleanup;
    }
    rc = emit_output(c->output, &doc);
cleanup:
    sb_free(&doc);
    sunset_result_free(&res);
    sunset_engine_free(eng);
    sunset_ruleset_free(rs);
    sunset_config_free(&cfg);
    for (size_t i = 0; i < starts.n; i++) sunset_free(VEC_AT(&starts, char *, i));
    for (size_t i = 0; i < files.n; i++) sunset_free(VEC_AT(&files, char *, i));
    vec_free(&starts);
    vec_free(&files);
    vec_free(&dirs);
    sunset_free(bundled_rules);
    sunset_free(bundled_queries);
    sunset_free(root);
    sunset_free(display);
    return rc;
}

int main(int argc, char **argv) {
    cli c = {0};
    c.rules = c.include = c.exclude = c.paths = VEC_INIT(const char *);
    c.budget = -1;
    int rc = parse_args(argc, argv, &c);
    if (rc == EXIT_OK) rc = run(&c);
    vec_free(&c.rules);
    vec_free(&c.include);
    vec_free(&c.exclude);
    vec_free(&c.paths);
    return rc;
}
