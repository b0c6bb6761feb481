/*
 * session.c — the shared scan pipeline and the `scan` command. The bundled rules and queries
 * are found next to the binary (../rules in the build tree, ../share/sunset/rules installed).
 */
#include "cmd/session.h"

#include "cmd/documents.h"
#include "cmd/replay.h"

#include "core/anchor.h"
#include "core/cache.h"
#include "lang/registry.h"
#include "analysis/diffmode.h"
#include "analysis/index.h"
#include "analysis/remnant.h"
#include "report/removable.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The directory of the running binary. */
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

int output_write(const char *file, const sb *doc) {
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

static bool env_set(const char *name) { /* set, non-empty and not "0" */
    const char *v = getenv(name);
    return v && *v && strcmp(v, "0") != 0;
}

/* The per-file time limit, the last guard behind the deterministic ones (README "Limits"):
 * --parse-budget, else SUNSET_PARSE_BUDGET (ms, 0 = none: what the test suite sets, so that
 * no machine's load can decide a test), else 10 s. */
static int parse_budget(const cli *c, unsigned *out) {
    *out = 10000;
    if (c->budget >= 0) {
        *out = (unsigned)c->budget;
        return EXIT_OK;
    }
    const char *v = getenv("SUNSET_PARSE_BUDGET");
    if (!v || !*v) return EXIT_OK;
    char *end;
    errno = 0;
    long n = strtol(v, &end, 10);
    if (errno || *end || end == v || n < 0 || n > 86400000) {
        fprintf(stderr, "sunset: SUNSET_PARSE_BUDGET='%s': want milliseconds from 0 (none) to 86400000\n", v);
        return EXIT_USAGE;
    }
    *out = (unsigned)n;
    return EXIT_OK;
}

/* --color always/never first; then, in this order, NO_COLOR (no-color.org: any non-empty
 * value; an empty one counts as unset), FORCE_COLOR and CLICOLOR_FORCE (non-empty and not
 * "0": colour even into a pipe, as CI logs want), CLICOLOR=0 and TERM=dumb; else colour on a
 * terminal only. */
sunset_output_opts output_opts(const cli *c) {
    bool color;
    const char *nc = getenv("NO_COLOR"), *cl = getenv("CLICOLOR"), *term = getenv("TERM");
    if (c->color && strcmp(c->color, "auto") != 0) color = strcmp(c->color, "always") == 0;
    else if (nc && *nc) color = false;
    else if (env_set("FORCE_COLOR") || env_set("CLICOLOR_FORCE")) color = true;
    else if ((cl && strcmp(cl, "0") == 0) || (term && strcmp(term, "dumb") == 0)) color = false;
    else color = (!c->output || strcmp(c->output, "-") == 0) && isatty(1);
    return (sunset_output_opts){color, !c->no_summary, !c->no_snippets, c->findings};
}

sunset_envelope scan_envelope(const cli *c, const scan_ctx *s) {
    return (sunset_envelope){.opts = output_opts(c), .uri_prefix = s->repo_prefix, .shown_prefix = s->shown};
}

void scan_ctx_free(scan_ctx *s) {
    sunset_engine_free(s->eng);
    sunset_cache_free(s->cache);
    sunset_ruleset_free(s->rs);
    sunset_config_free(&s->cfg);
    for (size_t i = 0; i < s->files.n; i++) sunset_free(VEC_AT(&s->files, char *, i));
    vec_free(&s->files);
    vec_free(&s->dirs);
    vec_free(&s->include);
    vec_free(&s->exclude);
    sunset_free(s->bundled_rules);
    sunset_free(s->bundled_queries);
    sunset_checkout_close(&s->co); /* root, shown, repo_prefix and starts are its */
    sunset_free(s->cache_dir);
    sunset_free(s->blob_ids);
    sunset_free(s->blob_stamps);
    memset(s, 0, sizeof *s);
}

/* Does any rule's id match glob? */
static bool names_a_rule(const sunset_ruleset *rs, const char *glob) {
    for (size_t i = 0; i < rs->rules.n; i++)
        if (sunset_glob_match(glob, VEC_AT(&rs->rules, sunset_rule *, i)->id)) return true;
    return false;
}

/* A disable entry of the rule globs (copied) for every path, appended to the configuration's,
 * so the engine and the cache namespace see it as they see .sunset.json's. */
static int push_disable(scan_ctx *s, const char *const *globs, size_t n) {
    const char **rules = sunset_calloc(n ? n : 1, sizeof *rules);
    disable_entry d = {rules, n, NULL, 0};
    bool ok = rules != NULL;
    for (size_t i = 0; ok && i < n; i++) ok = (rules[i] = sunset_strndup(globs[i], strlen(globs[i]))) != NULL;
    if (ok && vec_push(&s->cfg.disable, &d)) return 0;
    for (size_t i = 0; rules && i < n; i++) sunset_free((char *)rules[i]);
    sunset_free(rules);
    fprintf(stderr, "sunset: out of memory\n");
    return EXIT_USAGE;
}

/* --select GLOB (only these rules) and --ignore GLOB (not these), as ruff and semgrep take
 * them: a glob that names no rule is a usage error, like a typo in .sunset.json. */
static int cli_rule_filters(const cli *c, scan_ctx *s) {
    const vec *lists[2] = {&c->select, &c->ignore};
    for (int l = 0; l < 2; l++)
        for (size_t i = 0; i < lists[l]->n; i++) {
            const char *g = VEC_AT(lists[l], const char *, i);
            if (!names_a_rule(s->rs, g))
                return cli_usage_error("--%s %s matches no rule (sunset rules list shows them)", l ? "ignore" : "select", g);
        }
    /* the gate finds with every rule and judges only the selected ones (cmd/check.c): a rule
     * left out must not let another rule's finding surface where it would have won */
    if (c->cmd & (CMD_CHECK | CMD_BASELINE)) return EXIT_OK;
    if (c->ignore.n && push_disable(s, (const char *const *)c->ignore.v, c->ignore.n)) return EXIT_USAGE;
    if (!c->select.n) return EXIT_OK;
    vec off = VEC_INIT(const char *);
    for (size_t i = 0; i < s->rs->rules.n; i++) {
        const char *id = VEC_AT(&s->rs->rules, sunset_rule *, i)->id;
        bool selected = false;
        for (size_t k = 0; k < c->select.n && !selected; k++)
            selected = sunset_glob_match(VEC_AT(&c->select, const char *, k), id);
        if (!selected && !vec_push(&off, &id)) {
            vec_free(&off);
            fprintf(stderr, "sunset: out of memory\n");
            return EXIT_USAGE;
        }
    }
    int rc = off.n ? push_disable(s, (const char *const *)off.v, off.n) : EXIT_OK;
    vec_free(&off);
    return rc;
}

/* The one way what runs below cmd/ reaches the user's terminal besides its errors: its notes
 * and progress lines (sunset_note), written as they come. */
static bool noted; /* a note was written: a replay would not write it again */
static void note_stderr(const char *text) {
    noted = true;
    fputs(text, stderr);
}

bool scan_noted(void) { return noted; }

int scan_load_rules(const cli *c, scan_ctx *s) {
    sunset_error err = {{0}};
    sunset_set_note(note_stderr);
    if (!s->cfg_ready) sunset_config_init(&s->cfg);
    s->dirs = VEC_INIT(const char *);
    s->files = VEC_INIT(char *);
    if (!c->no_config && !s->cfg_ready) {
        char *found = NULL;
        const char *from = s->config_from ? s->config_from : c->paths.n ? VEC_AT(&c->paths, const char *, 0) : ".";
        if (!c->config) found = sunset_config_find(from);
        const char *file = c->config ? c->config : found;
        int bad = file && sunset_config_load(file, &s->cfg, &err);
        sunset_free(found);
        if (bad) {
            fprintf(stderr, "sunset: %s\n", err.msg);
            return EXIT_USAGE;
        }
    }
    /* --rules replaces the bundled set; the configuration's directories add to it */
    if (c->rules.n) {
        for (size_t i = 0; i < c->rules.n; i++) vec_push(&s->dirs, &VEC_AT(&c->rules, const char *, i));
    } else {
        s->bundled_rules = bundled("rules");
        if (!s->bundled_rules) {
            fprintf(stderr, "sunset: cannot find the bundled rules (looked in ../rules and "
                            "../share/sunset/rules next to the binary); use --rules DIR\n");
            return EXIT_USAGE;
        }
        vec_push(&s->dirs, &s->bundled_rules);
    }
    for (size_t i = 0; i < s->cfg.rule_dirs.n; i++) vec_push(&s->dirs, &VEC_AT(&s->cfg.rule_dirs, char *, i));
    s->queries = c->queries ? c->queries : s->cfg.queries_dir;
    if (!s->queries) s->queries = s->bundled_queries = bundled("queries");
    s->rs = sunset_ruleset_load((const char *const *)s->dirs.v, s->dirs.n, s->queries, &err);
    if (!s->rs) {
        fprintf(stderr, "sunset: %s\n", err.msg);
        return EXIT_USAGE;
    }
    if (s->cfg.min_reason >= 0) s->rs->suppress_min_reason = (size_t)s->cfg.min_reason;
    for (size_t i = 0; i < s->cfg.severity.n; i++) {
        sev_override *o = &VEC_AT(&s->cfg.severity, sev_override, i);
        if (sunset_ruleset_set_severity(s->rs, o->id, o->sev)) {
            fprintf(stderr, "sunset: %s: \"severity\" names unknown rule %s\n", s->cfg.path, o->id);
            return EXIT_USAGE;
        }
    }
    int frc = cli_rule_filters(c, s);
    if (frc) return frc;
    unsigned budget;
    if ((frc = parse_budget(c, &budget))) return frc;
    size_t n_frontends;
    const sunset_frontend *const *frontends = sunset_frontends(&n_frontends);
    s->eo = (sunset_engine_opts){
        .frontends = frontends, /* the engine names no frontend: the session hands it the registry's */
        .n_frontends = n_frontends,
        .jobs = c->jobs ? (int)c->jobs : s->cfg.jobs,
        .include_generated = c->generated,
        .judge_own_output = (c->cmd & (CMD_CHECK | CMD_BASELINE)) != 0,
        .max_file_size = c->max_size,
        .parse_budget_ms = budget,
        .compile_db_dir = c->compdb ? c->compdb : s->cfg.compile_db,
        .queries_dir = s->queries,
        .no_prefilter = c->no_prefilter,
        .progress = !c->quiet && isatty(2),
        .disable = (const disable_entry *)s->cfg.disable.v,
        .n_disable = s->cfg.disable.n,
    };
    return EXIT_OK;
}

/* Does dir hold one of the settings' anchor trees (paddle/fluid, python/paddle)? */
static bool exists_below(void *ud, const char *path) {
    sb p = {0};
    sb_printf(&p, "%s/%s", (const char *)ud, path);
    struct stat st;
    bool yes = !p.oom && stat(p.s, &st) == 0;
    sb_free(&p);
    return yes;
}

static bool paddle_root(void *ud, const char *dir) {
    const sunset_anchor *a = ud;
    return a->on && anchor_tree_by(a, exists_below, (void *)dir);
}

/* The checkout: root, start paths, shown prefix, work tree and repository, resolved once
 * (base/checkout.c). check and baseline judge a whole tree (Paddle's, by the anchor, else the
 * work tree's top): the PATHs only narrow what is judged. A caller that opened it first
 * (check, to read the diff base's configuration) keeps its own. */
static int open_checkout(const cli *c, scan_ctx *s) {
    char err[PATH_MAX + 256];
    sunset_checkout_req req = {(const char *const *)c->paths.v, c->paths.n, c->root, NULL};
    if (!s->co.open && sunset_checkout_open(&s->co, &req, err, sizeof err)) {
        fprintf(stderr, "sunset: %s\n", err);
        return EXIT_USAGE;
    }
    if ((c->cmd & (CMD_CHECK | CMD_BASELINE)) &&
        sunset_checkout_reroot(&s->co, &req, paddle_root, &s->rs->anchor, err, sizeof err)) {
        fprintf(stderr, "sunset: %s\n", err);
        return EXIT_USAGE;
    }
    s->root = s->co.root;
    s->shown = s->co.shown;
    s->repo_prefix = s->co.prefix;
    s->starts = s->co.starts;
    return EXIT_OK;
}

/* The warnings on stderr, one line each, control characters escaped as the writers escape
 * them: a file name holding a newline must not inject a line (a `::error` command) into a CI
 * log. */
static void print_warnings(const sunset_result *res) {
    for (size_t i = 0; i < res->n_warnings; i++) {
        sb line = {0};
        sb_put_printable_str(&line, res->warnings[i]);
        fprintf(stderr, "%s\n", line.s ? line.s : "");
        sb_free(&line);
    }
}

/* Where the content cache lives: --cache DIR, $SUNSET_CACHE_DIR, .sunset-cache at the top of
 * the git work tree holding the root (never in a sub-directory, whichever one was scanned or
 * run from), else $XDG_CACHE_HOME/sunset (~/.cache/sunset). NULL: no place (no HOME). */
static char *cache_location(const cli *c, const scan_ctx *s) {
    const char *env = getenv("SUNSET_CACHE_DIR");
    sb p = {0};
    if (c->cache_dir) sb_puts(&p, c->cache_dir);
    else if (env && *env) sb_puts(&p, env);
    else if (s->repo_prefix) {
        size_t rl = strlen(s->root), pl = strlen(s->repo_prefix);
        size_t top = pl && rl >= pl ? rl - pl : rl; /* the root minus "a/b/" (with its slash) */
        sb_putn(&p, s->root, top);
        sb_puts(&p, strcmp(s->root, "/") && top ? "/.sunset-cache" : ".sunset-cache");
    } else {
        const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
        if (xdg && xdg[0] == '/') sb_printf(&p, "%s/sunset", xdg);
        else if (home && *home) sb_printf(&p, "%s/.cache/sunset", home);
        else return NULL;
    }
    return p.oom ? NULL : sb_take(&p);
}

typedef struct walk_warn_ctx {
    bool quiet;
    bool *warned;
} walk_warn_ctx;

static void walk_warn(void *ctx, const char *msg) {
    walk_warn_ctx *w = ctx;
    *w->warned = true;
    if (!w->quiet) fprintf(stderr, "sunset: %s\n", msg);
}

static void strs_free(vec *v) {
    for (size_t i = 0; i < v->n; i++) sunset_free(VEC_AT(v, char *, i));
    vec_free(v);
}

static int cmp_str(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int scan_add_config_globs(const cli *c, scan_ctx *s) {
    const vec *from[2][2] = {{&c->include, &s->cfg.include}, {&c->exclude, &s->cfg.exclude}};
    vec *to[2] = {&s->include, &s->exclude};
    bool ok = true;
    for (int k = 0; k < 2; k++) {
        vec_free(to[k]);
        *to[k] = (vec)VEC_INIT(const char *);
        for (int f = 0; f < 2; f++)
            for (size_t i = 0; ok && i < from[k][f]->n; i++) ok = vec_push(to[k], &VEC_AT(from[k][f], const char *, i)) != NULL;
    }
    if (ok) return EXIT_OK;
    fprintf(stderr, "sunset: out of memory\n");
    return EXIT_USAGE;
}

/* What changes a file's findings whatever the machine: the tool's version, the rules and the
 * configuration's severity overrides and disables. The cache namespace and a shard's inputs
 * both start from it. */
static uint64_t results_hash(const scan_ctx *s) {
    uint64_t h = hash64(SUNSET_VERSION, strlen(SUNSET_VERSION), s->rs->hash);
    for (size_t i = 0; i < s->cfg.severity.n; i++) {
        const sev_override *o = &VEC_AT(&s->cfg.severity, sev_override, i);
        h = hash64(o->id, strlen(o->id) + 1, h ^ o->sev);
    }
    for (size_t i = 0; i < s->cfg.disable.n; i++) {
        const disable_entry *d = &VEC_AT(&s->cfg.disable, disable_entry, i);
        for (size_t k = 0; k < d->n_rules; k++) h = hash64(d->rules[k], strlen(d->rules[k]) + 1, h);
        h = hash64("|", 1, h);
        for (size_t k = 0; k < d->n_paths; k++) h = hash64(d->paths[k], strlen(d->paths[k]) + 1, h);
    }
    return h;
}

static uint64_t hash_strs(const vec *v, uint64_t h) {
    for (size_t i = 0; i < v->n; i++) {
        const char *x = VEC_AT(v, const char *, i);
        h = hash64(x, strlen(x) + 1, h);
    }
    return hash64("|", 1, h);
}

void scan_inputs_id(const cli *c, const scan_ctx *s, const vec *paths, const char *what, char out[17]) {
    /* not the binary or the machine's paths: shards of one CI job run on different hosts */
    uint64_t h = results_hash(s);
    h = hash_strs(&s->include, h);
    h = hash_strs(&s->exclude, h);
    h = hash_strs(&c->select, h);
    h = hash_strs(&c->ignore, h);
    static const char *const dot[] = {"."};
    vec none = {(void *)dot, 1, 1, sizeof(char *)}; /* no PATH is "." */
    h = hash_strs(paths->n ? paths : &none, h);
    const long nums[] = {c->no_ignore, c->derive, c->generated, (long)c->max_size, c->budget,
                         c->every, c->max_count, (long)s->shard.n};
    h = hash64(nums, sizeof nums, h);
    const char *strs[] = {what, c->since, c->root, c->compdb};
    for (size_t i = 0; i < sizeof strs / sizeof strs[0]; i++)
        h = strs[i] ? hash64(strs[i], strlen(strs[i]) + 1, h) : hash64("", 1, h ^ 0x9e37);
    snprintf(out, 17, "%016llx", (unsigned long long)h);
}

int scan_prepare_files(const cli *c, scan_ctx *s) {
    int rc = scan_load_rules(c, s);
    if (rc) return rc;
    if ((rc = open_checkout(c, s)) || (rc = scan_add_config_globs(c, s))) return rc;
    /* the work tree and the index's paths, found once by the checkout for every PATH's walk
     * (none outside a work tree: the walk then looks for no .git of its own) */
    vec tracked = VEC_INIT(char *);
    if (!s->no_walk && sunset_checkout_tracked(&s->co, &tracked)) {
        strs_free(&tracked);
        fprintf(stderr, "sunset: out of memory\n");
        return EXIT_USAGE;
    }
    walk_opts wo = {!c->no_ignore, (const char *const *)s->include.v, s->include.n,
                    (const char *const *)s->exclude.v, s->exclude.n, (c->cmd & (CMD_CHECK | CMD_BASELINE)) != 0,
                    &tracked, s->co.top};
    walk_warn_ctx quiet = {c->quiet, &s->warned};
    for (size_t i = 0; i < s->starts.n && !s->no_walk; i++) {
        int e = walk_tree(s->root, VEC_AT(&s->starts, char *, i), &wo, &s->files, &s->ws, walk_warn, &quiet);
        if (e) {
            fprintf(stderr, "sunset: %s: %s\n", c->paths.n ? VEC_AT(&c->paths, const char *, i) : ".", strerror(e));
            strs_free(&tracked);
            return EXIT_USAGE;
        }
    }
    strs_free(&tracked);
    /* overlapping PATHs must not scan a file twice */
    if (s->files.n) qsort(s->files.v, s->files.n, sizeof(char *), cmp_str);
    size_t u = 0;
    for (size_t i = 0; i < s->files.n; i++) {
        char *f = VEC_AT(&s->files, char *, i);
        if (u && strcmp(VEC_AT(&s->files, char *, u - 1), f) == 0) sunset_free(f);
        else VEC_AT(&s->files, char *, u++) = f;
    }
    s->files.n = u;
    /* --shard i/n: keep this run's part, by a stable hash of the path */
    if ((rc = cli_shard(c, &s->shard))) return rc;
    if (s->shard.n) {
        u = 0;
        for (size_t i = 0; i < s->files.n; i++) {
            char *f = VEC_AT(&s->files, char *, i);
            if (cli_in_shard(&s->shard, f)) VEC_AT(&s->files, char *, u++) = f;
            else sunset_free(f);
        }
        s->files.n = u;
    }
    /* where the content cache lives; opened by scan_prepare_engine, so a replay never loads it */
    if (!c->no_cache && c->cmd != CMD_RULES) {
        s->cache_dir = cache_location(c, s);
        char why[PATH_MAX + 128];
        if (s->cache_dir && sunset_cache_dir_refused_in(s->cache_dir, sunset_checkout_repo_for(&s->co, s->cache_dir), why, sizeof why)) {
            s->warned = true;
            if (!c->quiet) fprintf(stderr, "sunset: warning: not using the cache in %s: %s\n", s->cache_dir, why);
            sunset_free(s->cache_dir);
            s->cache_dir = NULL;
        }
    }
    return EXIT_OK;
}

/* The bytes of every file under dir (its sub-directories to depth levels, in name order): the
 * query files a run reads, so an edited query is another namespace, as an edited rule is. */
static uint64_t hash_tree_files(const char *dir, int depth, uint64_t h) {
    DIR *d = opendir(dir);
    if (!d) return hash64("-", 1, h);
    vec names = VEC_INIT(char *);
    for (struct dirent *e; (e = readdir(d));) {
        char *n = e->d_name[0] == '.' ? NULL : sunset_strndup(e->d_name, strlen(e->d_name));
        if (n && !vec_push(&names, &n)) sunset_free(n);
    }
    closedir(d);
    if (names.n) qsort(names.v, names.n, sizeof(char *), cmp_str);
    for (size_t i = 0; i < names.n; i++) {
        char *n = VEC_AT(&names, char *, i), *text = NULL;
        sb p = {0};
        sb_printf(&p, "%s/%s", dir, n);
        struct stat st;
        size_t len = 0;
        h = hash64(n, strlen(n) + 1, h);
        if (!p.oom && stat(p.s, &st) == 0 && S_ISDIR(st.st_mode) && depth > 0) h = hash_tree_files(p.s, depth - 1, h);
        else if (!p.oom && S_ISREG(st.st_mode) && read_file(p.s, 16 << 20, &text, &len) == 0) h = hash64(text, len, h);
        sunset_free(text);
        sb_free(&p);
        sunset_free(n);
    }
    vec_free(&names);
    return h;
}

uint64_t scan_cache_namespace(const scan_ctx *s) {
    uint64_t ns = results_hash(s);
    if (s->queries) ns = hash_tree_files(s->queries, 2, ns);
    /* the binary itself: a rebuilt sunset may compute other results under one version */
    struct stat self;
    if (stat("/proc/self/exe", &self) == 0) {
        uint64_t id[3] = {(uint64_t)self.st_size, (uint64_t)self.st_mtim.tv_sec, (uint64_t)self.st_mtim.tv_nsec};
        ns = hash64(id, sizeof id, ns);
    }
    ns = hash64(&s->eo.parse_budget_ms, sizeof s->eo.parse_budget_ms, ns);
    const char *compdb = s->eo.compile_db_dir ? s->eo.compile_db_dir : "";
    return hash64(compdb, strlen(compdb) + 1, ns);
}

int scan_prepare_engine(const cli *c, scan_ctx *s) {
    /* the content cache, in a namespace of everything that changes a file's result */
    if (s->cache_dir) {
        s->cache = sunset_cache_open(s->cache_dir, scan_cache_namespace(s), s->rs, 0);
        s->eo.cache = s->cache;
    }
    sunset_error err = {{0}};
    s->eo.tree_root = s->root;
    s->eo.tree_top = s->co.top;
    /* queries that compiled before in this namespace (it covers the query files' and rules'
     * bytes and the binary) are compiled by the first file that needs them: a warm run often
     * parses no Python at all, and compiling them was a tenth of its CPU. A broken query never
     * has the record, so it fails here, at start-up, with its position, as it always did. */
    unsigned char ok = 0;
    s->eo.lazy_queries = s->cache && sunset_cache_get_rec(s->cache, SUNSET_CACHE_TAG_QUERIES, 1, 1, &ok, 1) && ok == 1;
    s->eng = sunset_engine_new(s->rs, &s->eo, &err);
    if (!s->eng) {
        fprintf(stderr, "sunset: %s\n", err.msg);
        return EXIT_USAGE;
    }
    if (s->cache && !s->eo.lazy_queries) sunset_cache_put_rec(s->cache, SUNSET_CACHE_TAG_QUERIES, 1, 1, &(unsigned char){1}, 1);
    return EXIT_OK;
}

int scan_prepare(const cli *c, scan_ctx *s) {
    int rc = scan_prepare_files(c, s);
    return rc ? rc : scan_prepare_engine(c, s);
}

void scan_vouch(const cli *c, scan_ctx *s) {
    if (s->blob_ids || !s->cache_dir || c->no_cache || !s->co.repo) return;
    size_t n = s->files.n ? s->files.n : 1;
    s->blob_ids = sunset_calloc(n, sizeof *s->blob_ids);
    s->blob_stamps = sunset_calloc(n, sizeof *s->blob_stamps);
    if (!s->blob_ids || !s->blob_stamps) {
        sunset_free(s->blob_ids);
        sunset_free(s->blob_stamps);
        s->blob_ids = s->blob_stamps = NULL;
        return;
    }
    s->n_blob = s->files.n;
    sunset_checkout_blob_ids(&s->co, (char *const *)s->files.v, s->files.n, s->blob_ids, s->blob_stamps);
}

int scan_execute(const cli *c, scan_ctx *s, sunset_result *res) {
    /* unchanged files by their blob ids: the engine finds what they were read as in the cache */
    bool vouched = s->cache && s->blob_ids && s->n_blob == s->files.n;
    s->eo.blob_ids = vouched ? s->blob_ids : NULL;
    s->eo.blob_stamps = vouched ? s->blob_stamps : NULL;
    int err = sunset_engine_scan(s->eng, s->root, (char *const *)s->files.v, s->files.n, res);
    s->eo.blob_ids = s->eo.blob_stamps = NULL;
    if (err) {
        fprintf(stderr, "sunset: out of memory during the scan\n");
        return EXIT_USAGE;
    }
    /* the workers' arenas still hold what their translation units and file buffers freed;
     * what follows (the plan, report's walk of the history, the writers) allocates
     * elsewhere, so give it back now (-8 MB peak RSS of a default scan of the 2024-05-09 tree) */
    sunset_heap_trim();
    sunset_lang_release_code(); /* the parses are over: libclang's code too */
    res->root = s->co.display;
    s->co.display = NULL;
    if (s->cache) {
        int e = sunset_cache_save(s->cache);
        s->warned |= e != 0;
        if (e && !c->quiet)
            fprintf(stderr, "sunset: warning: cannot write the cache in %s: %s (use --cache DIR or --no-cache)\n",
                    s->cache_dir, strerror(e));
    }
    res->stats.ignored = s->ws.ignored;
    res->stats.excluded = s->ws.excluded;
    res->stats.symlinks_skipped = s->ws.symlinks_skipped;
    res->stats.skipped_unreadable += s->ws.too_long; /* a path too long cannot be read */
    if (!c->quiet)
        print_warnings(res);
    return EXIT_OK;
}

/* ---- the scan with the cross-file index: removable, scan --derive ---- */

static int scan_index(const cli *c, scan_ctx *s, sunset_result *res, sunset_index **ix, bool lazy) {
    *ix = sunset_index_new();
    if (!*ix) {
        fprintf(stderr, "sunset: out of memory\n");
        return EXIT_USAGE;
    }
    sunset_index_set_roles(*ix, &s->rs->macro_roles);
    if (lazy) sunset_index_set_lazy(*ix);
    /* the cache's copies of the index's entries are adopted by the index, and the index's
     * entries are the cache's side entries until it is saved: the cache outlives the index */
    sunset_indexer hook = {*ix, sunset_index_hook, sunset_index_adopt_hook, sunset_index_export};
    s->eo.indexer = &hook;
    int rc = scan_execute(c, s, res);
    s->eo.indexer = NULL;
    if (rc) return rc;
    if ((*ix)->oom) {
        fprintf(stderr, "sunset: out of memory building the index\n");
        return EXIT_USAGE;
    }
    sunset_index_finish(*ix);
    return EXIT_OK;
}

int scan_with_index(const cli *c, scan_ctx *s, sunset_result *res, sunset_index **ix) {
    return scan_index(c, s, res, ix, false);
}

int scan_plan(const cli *c, scan_ctx *s, sunset_result *res, bool derive, rm_plan *plan) {
    sunset_index *ix = NULL;
    /* lazy: a kept plan needs only the facts' digest and line counts, so the cache's entries of
     * the files are rebased (copied out of the cache's mapping) only when the plan is built */
    int rc = scan_index(c, s, res, &ix, true);
    if (rc) goto cleanup;
    /* a plan kept from a run with the same facts and findings (cmd/replay.c), else built;
     * only this lean plan (no migrate table) is ever kept */
    uint64_t ns = scan_cache_namespace(s), key = 0;
    bool keyed = replay_plan_key(c, s, ns, ix, res, &key);
    bool kept = keyed && replay_plan_load(s->cache_dir, ns, key, s->rs, ix, plan);
    if (!kept && (!sunset_index_realize(ix) || rm_plan_build_lean(ix, s->rs, res, plan))) {
        fprintf(stderr, "sunset: out of memory building the removal plan\n");
        rc = EXIT_USAGE;
        goto cleanup;
    }
    if (keyed && !kept) replay_plan_store(s->cache_dir, ns, key, plan);
    if (derive && rm_plan_derived_findings(plan, s->rs, rm_chain_write, res)) {
        fprintf(stderr, "sunset: out of memory building the removal plan\n");
        rc = EXIT_USAGE;
        goto cleanup;
    }
    if (derive) sunset_result_finish(res);
cleanup:
    sunset_index_free(ix);
    return rc;
}

int scan_derive(const cli *c, scan_ctx *s, sunset_result *res) {
    rm_plan plan = {0};
    int rc = scan_plan(c, s, res, true, &plan);
    rm_plan_free(&plan);
    return rc;
}

/* `scan -`: stdin's content as the file --stdin-filename names (editors and pipelines, as
 * ruff and semgrep take it); no walk, the configuration found from that file's directory. */
static int scan_stdin(const cli *c, scan_ctx *s, sunset_result *res) {
    if (!c->stdin_filename || !*c->stdin_filename)
        return cli_usage_error("scan -: name the content with --stdin-filename PATH (its extension picks the language)");
    if (c->paths.n != 1) return cli_usage_error("scan -: '-' must be the only PATH");
    sb in = {0}, dir = {0};
    char buf[65536];
    size_t n, cap = c->max_size ? c->max_size : SUNSET_DEFAULT_MAX_FILE;
    /* past --max-filesize nothing more is kept (the engine skips the file), the rest drained */
    while ((n = fread(buf, 1, sizeof buf, stdin)) > 0)
        if (in.len <= cap) sb_putn(&in, buf, n);
    int rc = EXIT_USAGE;
    if (ferror(stdin) || in.oom) {
        fprintf(stderr, "sunset: cannot read stdin: %s\n", in.oom ? strerror(ENOMEM) : strerror(errno));
        goto cleanup;
    }
    /* the configuration is the one that file would have */
    const char *sl = strrchr(c->stdin_filename, '/');
    if (sl) sb_putn(&dir, c->stdin_filename, (size_t)(sl - c->stdin_filename));
    struct stat st;
    const char *start = dir.s && stat(dir.s, &st) == 0 && S_ISDIR(st.st_mode) ? dir.s : ".";
    s->config_from = start;
    rc = scan_load_rules(c, s);
    s->config_from = NULL; /* start is dir's */
    if (rc) goto cleanup;
    sunset_error err = {{0}};
    if (!(s->eng = sunset_engine_new(s->rs, &s->eo, &err))) {
        fprintf(stderr, "sunset: %s\n", err.msg);
        rc = EXIT_USAGE;
        goto cleanup;
    }
    const char *name = c->stdin_filename;
    while (name[0] == '.' && name[1] == '/') name += 2;
    if (sunset_engine_scan_buffer(s->eng, name, in.s ? in.s : "", in.len, res)) {
        fprintf(stderr, "sunset: out of memory during the scan\n");
        rc = EXIT_USAGE;
        goto cleanup;
    }
    res->root = sunset_strndup("-", 1);
    if (!c->quiet)
        print_warnings(res);
    rc = EXIT_OK;
cleanup:
    sb_free(&in);
    sb_free(&dir);
    return rc;
}

/* The warm path's two ends (cmd/replay.h): before the engine starts, a stored run with this
 * run's key is written again; after a run, one with nothing on stderr that a replay would
 * miss (a warning, a note) is stored with its exit code. */
static bool scan_replayed(const cli *c, scan_ctx *s, double t0, uint64_t *key, bool *keyed, int *rc) {
    scan_vouch(c, s);
    *keyed = replay_key(c, s, scan_cache_namespace(s), key);
    return *keyed && replay_try(c, s->cache_dir, *key, sunset_clock_ms() - t0, rc);
}

static void scan_store(const scan_ctx *s, uint64_t key, const sunset_writer *writer, sunset_result *res,
                       const sunset_envelope *env, const sb *doc, int rc) {
    if (s->warned || scan_noted() || res->n_warnings || s->shard.n || (rc != EXIT_OK && rc != EXIT_FINDINGS)) return;
    double real = res->stats.elapsed_ms;
    sb sdoc = {0};
    res->stats.elapsed_ms = REPLAY_SENTINEL_MS;
    bool ok = sb_grow(&sdoc, doc->len + 64) && writer->write(res, env, &sdoc) == 0 && !sdoc.oom; /* about doc's size */
    res->stats.elapsed_ms = real;
    if (ok) replay_store(s->cache_dir, key, doc, &sdoc, real, rc);
    sb_free(&sdoc);
}

int cmd_scan(const cli *c) {
    scan_ctx s = {0};
    sunset_result res = {0};
    rm_plan plan = {0};
    sunset_remnants rem = {0};
    sb doc = {0};
    const sunset_writer *writer = doc_format_of(c)->write.findings; /* cli_parse checked -f */
    int rc = EXIT_USAGE;
    double t0 = sunset_clock_ms();
    uint64_t key = 0;
    bool keyed = false;
    sunset_severity threshold = SUNSET_SEV_WARNING;
    /* the remnant layer: in JSON always, elsewhere unless --findings asks for every finding.
     * Its cross-file evidence needs every file: a shard (or stdin) groups without it. */
    if (c->threshold) {
        int sev = sunset_severity_from_name(c->threshold);
        if (sev < 0) {
            rc = cli_usage_error("--severity-threshold takes info, warning or error, not '%s'", c->threshold);
            goto cleanup;
        }
        threshold = (sunset_severity)sev;
    }
    bool from_stdin = c->paths.n && strcmp(VEC_AT(&c->paths, const char *, 0), "-") == 0;
    /* the remnants always: they settle every finding's severity (README "Severity"), which
     * needs the plan's liveness; a shard or stdin cannot see the whole tree and keeps the
     * rules' severities */
    bool cross = !from_stdin && (c->derive || !c->shard);
    if (from_stdin ? (rc = scan_stdin(c, &s, &res)) != 0
                   : (rc = scan_prepare_files(c, &s)) || scan_replayed(c, &s, t0, &key, &keyed, &rc) ||
                         (rc = scan_prepare_engine(c, &s)) ||
                         (rc = cross ? scan_plan(c, &s, &res, c->derive, &plan) : scan_execute(c, &s, &res)))
        goto cleanup;
    sunset_envelope env = scan_envelope(c, &s);
    if (s.shard.n) { /* the JSON names its shard and inputs, for merge */
        env.shard = c->shard;
        scan_inputs_id(c, &s, &c->paths, "scan", env.inputs);
    }
    if (sunset_remnants_build(&res, s.rs, cross ? &plan : NULL, rm_chain_write, &rem)) {
        fprintf(stderr, "sunset: out of memory grouping the remnants\n");
        rc = EXIT_USAGE;
        goto cleanup;
    }
    if (cross) sunset_remnants_settle(&res, &rem);
    env.remnants = &rem;
    if (writer->write(&res, &env, &doc)) {
        fprintf(stderr, "sunset: out of memory writing the report\n");
        rc = EXIT_USAGE;
        goto cleanup;
    }
    rc = output_write(c->output, &doc);
    /* --error: a lint gate's exit status (an error writing the report wins) */
    for (size_t i = 0; !rc && c->error_exit && i < res.n_findings; i++)
        if (!res.findings[i].suppressed && res.findings[i].severity >= threshold) rc = EXIT_FINDINGS;
    if (keyed) scan_store(&s, key, writer, &res, &env, &doc, rc);
cleanup:
    sb_free(&doc);
    sunset_remnants_free(&rem);
    rm_plan_free(&plan);
    sunset_result_free(&res);
    scan_ctx_free(&s);
    return rc;
}
