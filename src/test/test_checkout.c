/*
 * test_checkout.c — one checkout per command, and a gate verdict that does not depend on
 * where or how narrowly `check` runs (issue 30 item 1, issue 25 items 1 and 5).
 * In-process: `check --diff-base` opens the repository exactly once (counted through
 * base/git.c's sunset_git_open), and so does `report`. Through the built binary ($SUNSET_BIN) in scratch git
 * repositories: a new legacy include in a new file fails when check is given its directory,
 * run from it, or narrowed by --select/--ignore; nothing outside the judged scope is fixed or
 * moved; --update-baseline in a scope keeps every other entry byte for byte; `baseline` from
 * a sub-directory writes the repository's baseline; an untracked sunset report and a file
 * ignored through core.excludesFile (HOME a temp dir) do not fail `check --diff-base`; the
 * tracked paths come out in byte order, core.ignorecase or not.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <cjson/cJSON.h>
#include <git2.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/checkout.h"
#include "base/git.h"
#include "base/util.h"
#include "cmd/cli.h"
#include "test/gitrepo.h"

static const char *LEGACY_PY =
    "import os\n"
    "\n"
    "\n"
    "def make_strategy():\n"
    "    es = ExecutionStrategy()\n"
    "    es.num_threads = 4\n"
    "    return es\n";

static const char *PE_CC =
    "#include \"paddle/fluid/framework/parallel_executor.h\"\n"
    "namespace paddle {\n"
    "void RunOld(const Places &places) {\n"
    "  auto *pe = new framework::ParallelExecutor(places);\n"
    "  pe->Run();\n"
    "}\n"
    "}  // namespace paddle\n";

static const char *NEW_INCLUDE = "#include \"paddle/fluid/framework/parallel_executor.h\"\n";

/* A repository with legacy code in python/ and paddle/, a committed baseline, and an empty
 * paddle/fluid/framework/new/ (a tracked README). */
static int setup(void **state) {
    repo *r = calloc(1, sizeof *r);
    if (!r || repo_mkdir(r, "checkout")) return -1;
    put(r, "python/paddle/legacy.py", LEGACY_PY);
    put(r, "paddle/fluid/pe_user.cc", PE_CC);
    put(r, "paddle/fluid/framework/new/README", "new executor\n");
    /* one string two rules match: OH-STR-VMODULE wins over PE-STR-MENTION */
    put(r, "test/legacy_test/test_dist_base.py",
        "import paddle\n\n\ndef envs():\n    return {\"GLOG_vmodule\": \"fast_threaded_ssa_graph_executor=10,executor=10\"}\n");
    put(r, ".gitignore", ".out\n.err\n");
    if (run(r, "git init -q && git config user.email t@example.com && git config user.name t && "
               "$S baseline -q --no-cache && git add -A && git commit -qm base && git tag base") != 0)
        return -1;
    *state = r;
    return 0;
}

/* Back to the committed state: each test starts from it, whatever the last one left. */
static void fresh(repo *r) {
    assert_int_equal(run(r, "git reset -q --hard base 2>/dev/null || git reset -q --hard; git clean -fdq; git config --unset core.excludesFile; true"), 0);
}

static cJSON *gate_json(repo *r) {
    cJSON *doc = cJSON_Parse(r->out);
    if (!doc) fail_msg("not JSON: %s / %s", r->out ? r->out : "(none)", r->err ? r->err : "");
    return doc;
}

static int gnum(const cJSON *doc, const char *key) {
    const cJSON *v = cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "gate"), key);
    if (!cJSON_IsNumber(v)) fail_msg("gate.%s missing", key);
    return v->valueint;
}

/* Run check with args (from sub-directory `in`, "" for the top) expecting rc, and assert
 * the counts: new, fixed, moved. */
static void verdict_is(repo *r, const char *in, const char *args, int rc, int n_new, int fixed, int moved) {
    int got = run(r, "cd './%s' && $S check -q --no-cache -f json %s", in, args);
    if (got != rc) fail_msg("check %s (in '%s'): exit %d, expected %d; %s", args, in, got, rc, r->err ? r->err : "");
    cJSON *doc = gate_json(r);
    if (gnum(doc, "new") != n_new || gnum(doc, "fixed") != fixed || gnum(doc, "moved") != moved)
        fail_msg("check %s (in '%s'): new %d fixed %d moved %d, expected %d %d %d", args, in, gnum(doc, "new"),
                 gnum(doc, "fixed"), gnum(doc, "moved"), n_new, fixed, moved);
    cJSON_Delete(doc);
}

static void new_include_fails_wherever_check_runs(void **state) {
    repo *r = *state;
    fresh(r);
    put(r, "paddle/fluid/framework/new/x.cc", NEW_INCLUDE);
    /* the same change, the same verdict: 1 new, nothing fixed or moved */
    verdict_is(r, "", "", 1, 1, 0, 0);
    verdict_is(r, "", "paddle/fluid/framework/new", 1, 1, 0, 0);
    verdict_is(r, "", "paddle/fluid/framework/new/x.cc", 1, 1, 0, 0);
    verdict_is(r, "paddle/fluid/framework/new", "", 1, 1, 0, 0);
    verdict_is(r, "paddle/fluid/framework/new", ".", 1, 1, 0, 0);
    verdict_is(r, "", "--select 'PE-*'", 1, 1, 0, 0);
    verdict_is(r, "", "--ignore 'OH-*'", 1, 1, 0, 0); /* PE-STR-MENTION does not surface */
    verdict_is(r, "", "--select 'PE-*'", 1, 1, 0, 0);
    /* what a run's view leaves out is neither fixed nor moved; the verdict is the whole
     * change's all the same, and names what fails outside the view */
    verdict_is(r, "python", "", 1, 0, 0, 0);
    assert_non_null(strstr(r->err, "  paddle/fluid/framework/new/x.cc:1:11: PE-CPP-INCLUDE\n"));
    verdict_is(r, "", "python", 1, 0, 0, 0);
    verdict_is(r, "", "--select 'AE-*'", 1, 0, 0, 0);
    assert_non_null(strstr(r->err, "gate: FAILED: 1 new finding outside this run's view"));
    assert_int_equal(run(r, "cd python && $S check -q --no-cache --diff-base HEAD"), 1);
    /* annotations name the repository's path, as GitHub wants it; the text view a path the
     * user can open from where check runs */
    assert_int_equal(run(r, "cd paddle/fluid/framework/new && $S check -q --no-cache -f github"), 1);
    assert_non_null(strstr(r->out, "::error file=paddle/fluid/framework/new/x.cc,line=1"));
    assert_int_equal(run(r, "cd python && $S check -q --no-cache ../paddle"), 1);
    assert_non_null(r->out);
    assert_int_equal(strncmp(r->out, "../paddle/fluid/framework/new/x.cc:1:11: error: new use", 55), 0);
    /* the diff base too */
    assert_int_equal(run(r, "cd paddle/fluid/framework/new && $S check -q --no-cache --diff-base HEAD"), 1);
    assert_int_equal(run(r, "$S check -q --no-cache --diff-base HEAD paddle/fluid/framework/new"), 1);
    assert_int_equal(run(r, "rm paddle/fluid/framework/new/x.cc"), 0);
    /* nothing new anywhere: every view passes */
    verdict_is(r, "python", "", 0, 0, 0, 0);
    verdict_is(r, "", "--select 'AE-*'", 0, 0, 0, 0);
    assert_int_equal(run(r, "cd python && $S check -q --no-cache --diff-base HEAD"), 0);
}

/* The baseline's lines whose path does not start with `scope`, in order, joined. */
static char *lines_outside(repo *r, const char *scope) {
    char p[PATH_MAX + 64];
    snprintf(p, sizeof p, "%s/.sunset-baseline.json", r->dir);
    char *s = slurp(p);
    assert_non_null(s);
    sb out = {0}, key = {0};
    sb_printf(&key, "\"path\": \"%s", scope);
    for (char *line = s; *line;) {
        char *nl = strchr(line, '\n');
        size_t n = nl ? (size_t)(nl - line) + 1 : strlen(line);
        char *one = sunset_strndup(line, n);
        assert_non_null(one);
        /* an entry's bytes, without the comma that separates it from the next */
        size_t m = strlen(one);
        if (m && one[m - 1] == '\n') one[--m] = 0;
        if (m && one[m - 1] == ',') one[--m] = 0;
        if (strstr(one, "\"path\": ") && !strstr(one, key.s)) sb_printf(&out, "%s\n", one);
        sunset_free(one);
        line += n;
    }
    sunset_free(s);
    sb_free(&key);
    return out.s ? sb_take(&out) : sunset_strndup("", 0);
}

static int count_entries(const char *s) {
    int n = 0;
    for (const char *p = s; (p = strstr(p, "\"fingerprint\"")); p++) n++;
    return n;
}

static void update_baseline_in_a_scope_keeps_the_rest_byte_for_byte(void **state) {
    repo *r = *state;
    fresh(r);
    char *all_before = lines_outside(r, "\x01"); /* every entry */
    char *paddle_before = lines_outside(r, "python/");
    assert_int_equal(count_entries(paddle_before), 3);
    assert_true(count_entries(all_before) >= 5);
    /* fix python/ and ratchet from there: only python/'s entries go */
    assert_int_equal(run(r, "git rm -q python/paddle/legacy.py && mkdir -p python && touch python/keep"), 0);
    assert_int_equal(run(r, "cd python && $S check -q --no-cache --baseline ../.sunset-baseline.json --update-baseline"), 0);
    char *paddle_after = lines_outside(r, "python/");
    assert_string_equal(paddle_after, paddle_before);
    char *all_after = lines_outside(r, "\x01");
    assert_string_equal(all_after, paddle_before); /* the python/ entries are gone */
    assert_int_equal(run(r, "git checkout -q HEAD -- . && rm -f python/keep"), 0);
    /* --select: a fix of ES-* in python/ ratchets only ES-*; --select PE-* keeps every ES entry */
    assert_int_equal(run(r, "git rm -q python/paddle/legacy.py"), 0);
    assert_int_equal(run(r, "$S check -q --no-cache --select 'PE-*' --baseline .sunset-baseline.json --update-baseline"), 0);
    char *sel_after = lines_outside(r, "\x01");
    assert_string_equal(sel_after, all_before);
    assert_int_equal(run(r, "$S check -q --no-cache --ignore 'ES-*' --baseline .sunset-baseline.json --update-baseline"), 0);
    char *ign_after = lines_outside(r, "\x01");
    assert_string_equal(ign_after, all_before);
    assert_int_equal(run(r, "git checkout -q HEAD -- ."), 0);
    sunset_free(all_before);
    sunset_free(paddle_before);
    sunset_free(paddle_after);
    sunset_free(all_after);
    sunset_free(sel_after);
    sunset_free(ign_after);
}

static void baseline_from_a_subdirectory_writes_the_repositorys(void **state) {
    repo *r = *state;
    fresh(r);
    char *before = lines_outside(r, "\x01");
    assert_int_equal(run(r, "cd python && $S baseline --no-cache"), 0);
    assert_non_null(strstr(r->err, "baseline ../.sunset-baseline.json"));
    assert_int_equal(run(r, "test -e python/.sunset-baseline.json"), 1);
    char *after = lines_outside(r, "\x01");
    assert_string_equal(after, before); /* python/'s entries rewritten as they were, the rest kept */
    assert_int_equal(run(r, "git status --porcelain"), 0);
    assert_string_equal(r->out, "");
    sunset_free(before);
    sunset_free(after);
}

static void untracked_report_does_not_fail_the_diff(void **state) {
    repo *r = *state;
    fresh(r);
    /* the man page's example writes sunset.sarif into the work tree */
    assert_int_equal(run(r, "$S check -q --no-cache --diff-base HEAD -f sarif -o sunset.sarif"), 0);
    assert_int_equal(run(r, "$S check -q --no-cache --diff-base HEAD"), 0);
    assert_int_equal(run(r, "$S check -q --no-cache --diff-base HEAD -f json -o sunset.json"), 0);
    assert_int_equal(run(r, "$S check -q --no-cache --diff-base HEAD"), 0);
    /* committed, a report is judged like any file */
    assert_int_equal(run(r, "git add sunset.sarif && $S check -q --no-cache --diff-base HEAD"), 1);
    assert_int_equal(run(r, "git rm -q --cached sunset.sarif && rm -f sunset.sarif sunset.json"), 0);
}

static void excluded_file_does_not_fail_the_diff(void **state) {
    repo *r = *state;
    fresh(r);
    /* a file the user's global excludes ignore, in a tree deeper than libgit2's work-tree
     * iterator goes (sunset's own walk of it then lists the untracked files) */
    char deep[512] = "";
    for (int i = 0; i < 105; i++) strcat(deep, "d/");
    char p[600];
    snprintf(p, sizeof p, "%sf.py", deep);
    put(r, p, "x = 1\n");
    assert_int_equal(run(r, "git add -A && git commit -qm deep"), 0);
    put(r, "home/excludes", "secret.py\n");
    put(r, "secret.py", "import paddle\nx = paddle.static.CompiledProgram(p, exec_strategy=es)\n");
    assert_int_equal(run(r, "echo home/ >> .git/info/exclude"), 0);
    /* not ignored: it is part of the change and fails */
    assert_int_equal(run(r, "HOME=\"$PWD/home\" XDG_CONFIG_HOME=\"$PWD/home\" $S check -q --no-cache --diff-base HEAD"), 1);
    assert_int_equal(run(r, "git config core.excludesFile \"$PWD/home/excludes\""), 0);
    assert_int_equal(run(r, "HOME=\"$PWD/home\" XDG_CONFIG_HOME=\"$PWD/home\" $S check -q --no-cache --diff-base HEAD"), 0);
    /* and in a shallow tree (libgit2's own diff) */
    snprintf(p, sizeof p, "git rm -q -r d && git commit -qm flat && HOME=\"$PWD/home\" XDG_CONFIG_HOME=\"$PWD/home\" "
                          "$S check -q --no-cache --diff-base HEAD");
    assert_int_equal(run(r, "%s", p), 0);
    assert_int_equal(run(r, "git config --unset core.excludesFile && rm -rf secret.py home && git reset -q --hard HEAD~2"), 0);
}

/* ---- in-process: how often one command opens the repository ---- */

static char here[PATH_MAX];

static int count_opens_of(repo *r, int (*cmd)(const cli *), const char *const *args, size_t n_args, int *rc) {
    char rules[PATH_MAX + 16], queries[PATH_MAX + 16], out[PATH_MAX + 16];
    snprintf(rules, sizeof rules, "%s/rules", here);
    snprintf(queries, sizeof queries, "%s/queries", here);
    snprintf(out, sizeof out, "%s/.out", r->dir);
    char *argv[32];
    int argc = 0;
    argv[argc++] = "sunset";
    for (size_t i = 0; i < n_args; i++) argv[argc++] = (char *)args[i];
    argv[argc++] = "--rules";
    argv[argc++] = rules;
    argv[argc++] = "--queries";
    argv[argc++] = queries;
    argv[argc++] = "-o";
    argv[argc++] = out;
    argv[argc] = NULL;
    cli c;
    bool done = false;
    assert_int_equal(cli_parse(argc, argv, &c, &done), EXIT_OK);
    assert_false(done);
    if (chdir(r->dir) != 0) fail_msg("chdir %s", r->dir);
    size_t before = sunset_git_open_count();
    *rc = cmd(&c);
    size_t opens = sunset_git_open_count() - before;
    if (chdir(here) != 0) fail_msg("chdir back");
    cli_free(&c);
    return (int)opens;
}

/* A narrowed check judges the whole change once more (whole_change in check.c) with the
 * configuration's globs: the second look must not share, grow and free the first one's glob
 * lists (many globs, so that the second run's copies outgrow the first's). */
static void narrowed_check_with_configured_globs(void **state) {
    repo *r = *state;
    fresh(r);
    sb cfg = {0};
    sb_puts(&cfg, "{\"exclude\": [");
    for (int i = 0; i < 40; i++) sb_printf(&cfg, "%s\"third_party/lib%d/**\"", i ? ", " : "", i);
    sb_puts(&cfg, "]}\n");
    put(r, ".sunset.json", cfg.s);
    sb_free(&cfg);
    assert_int_equal(run(r, "git add .sunset.json && git commit -qm config"), 0);
    put(r, "paddle/fluid/framework/new/x.cc", NEW_INCLUDE);
    put(r, "third_party/lib3/y.cc", NEW_INCLUDE);
    /* the new include fails from python/; the excluded copy is judged by neither look */
    assert_int_equal(run(r, "cd python && $S check -q --no-cache --diff-base HEAD"), 1);
    assert_non_null(strstr(r->err, "paddle/fluid/framework/new/x.cc:1:11: PE-CPP-INCLUDE"));
    assert_null(strstr(r->err, "third_party/"));
    assert_int_equal(run(r, "cd python && $S check -q --no-cache"), 1);
    assert_null(strstr(r->err, "third_party/"));
    assert_int_equal(run(r, "rm -rf paddle/fluid/framework/new/x.cc third_party && git reset -q --hard HEAD~1"), 0);
}

static void check_diff_base_opens_the_repository_once(void **state) {
    repo *r = *state;
    fresh(r);
    put(r, "paddle/fluid/framework/new/x.cc", NEW_INCLUDE);
    put(r, "python/paddle/legacy.py", "import os\n");
    int rc = 0;
    static const char *const diff[] = {"check", "-q", "--no-cache", "--diff-base", "HEAD"};
    assert_int_equal(count_opens_of(r, cmd_check, diff, 5, &rc), 1);
    assert_int_equal(rc, EXIT_FINDINGS);
    /* with the cache at the work tree's top, from a sub-directory, and a full check */
    static const char *const cached[] = {"check", "-q", "--diff-base", "HEAD", "paddle/fluid"};
    assert_int_equal(count_opens_of(r, cmd_check, cached, 5, &rc), 1);
    assert_int_equal(rc, EXIT_FINDINGS);
    static const char *const full[] = {"check", "-q"};
    assert_int_equal(count_opens_of(r, cmd_check, full, 2, &rc), 1);
    assert_int_equal(rc, EXIT_FINDINGS);
    assert_int_equal(run(r, "git checkout -q HEAD -- . && rm -rf paddle/fluid/framework/new/x.cc .sunset-cache"), 0);
}

/* scan, removable and baseline walk the tree, read the index, place the cache and anchor the
 * tree through the checkout: one open each, with the cache in the work tree, from a
 * sub-directory, and without .gitignore (--no-ignore) */
static void scan_removable_baseline_open_the_repository_once(void **state) {
    repo *r = *state;
    fresh(r);
    int rc = 0;
    static const char *const scan[] = {"scan", "-q", "--no-cache", "-f", "json"};
    assert_int_equal(count_opens_of(r, cmd_scan, scan, 5, &rc), 1);
    assert_int_equal(rc, EXIT_OK);
    static const char *const cached[] = {"scan", "-q", "-f", "json", "python"};
    assert_int_equal(count_opens_of(r, cmd_scan, cached, 5, &rc), 1);
    assert_int_equal(rc, EXIT_OK);
    static const char *const noign[] = {"scan", "-q", "--no-cache", "--no-ignore", "-f", "json", "paddle"};
    assert_int_equal(count_opens_of(r, cmd_scan, noign, 7, &rc), 1);
    assert_int_equal(rc, EXIT_OK);
    static const char *const rem[] = {"removable", "-q", "--no-cache", "-f", "json"};
    assert_int_equal(count_opens_of(r, cmd_removable, rem, 5, &rc), 1);
    assert_int_equal(rc, EXIT_OK);
    static const char *const base[] = {"baseline", "-q", "--no-cache"};
    assert_int_equal(count_opens_of(r, cmd_baseline, base, 3, &rc), 1);
    assert_int_equal(rc, EXIT_OK);
    static const char *const sub[] = {"baseline", "-q", "paddle/fluid"};
    assert_int_equal(count_opens_of(r, cmd_baseline, sub, 3, &rc), 1);
    assert_int_equal(rc, EXIT_OK);
    assert_int_equal(run(r, "git checkout -q HEAD -- . && rm -rf .sunset-cache"), 0);
}

/* report reads the measured commit, its remotes and the PRs of its history through the
 * checkout's repository: one open, however much of the history it reads */
static void report_opens_the_repository_once(void **state) {
    repo *r = *state;
    fresh(r);
    int rc = 0;
    static const char *const md[] = {"report", "-q", "--no-cache", "--lang", "en"};
    assert_int_equal(count_opens_of(r, cmd_report, md, 5, &rc), 1);
    assert_int_equal(rc, EXIT_OK);
    static const char *const batches[] = {"report", "-q", "--no-cache", "--batches", "-f", "json"};
    assert_int_equal(count_opens_of(r, cmd_report, batches, 6, &rc), 1);
    assert_int_equal(rc, EXIT_OK);
}

/* libgit2's object cache is bounded for the process: report reads every commit of the history
 * for its PR numbers, and what it read is not kept past a few MB (issue 28: 256 MB by default,
 * ~55 MB of a walk of the 2024-05-09 tree's 48,000 commits) */
static void report_keeps_little_of_the_history_it_read(void **state) {
    repo *r = *state;
    fresh(r);
    assert_int_equal(run(r, "for i in 1 2 3 4 5 6 7 8; do git commit -q --allow-empty -m \"step $i (#$i)\"; done"), 0);
    int rc = 0;
    static const char *const rep[] = {"report", "-q", "--no-cache", "-f", "json"};
    assert_int_equal(count_opens_of(r, cmd_report, rep, 5, &rc), 1);
    assert_int_equal(rc, EXIT_OK);
    ssize_t cached = -1, allowed = -1;
    assert_int_equal(git_libgit2_opts(GIT_OPT_GET_CACHED_MEMORY, &cached, &allowed), 0);
    assert_true(allowed > 0 && allowed <= (ssize_t)4 << 20);
    assert_true(cached >= 0 && cached <= allowed);
}

/* history and report --since-report replay the history through the command's checkout: the
 * replay opens no repository of its own */
static void history_replays_through_the_checkout(void **state) {
    repo *r = *state;
    fresh(r);
    assert_int_equal(run(r, "$S report -q --no-cache -f json -o .prev.json && "
                            "printf 'import os\\n' >python/paddle/legacy.py && git commit -qam 'drop the strategy (#7)'"), 0);
    int rc = 0;
    static const char *const hist[] = {"history", "-q", "--no-config", "base..HEAD"};
    assert_int_equal(count_opens_of(r, cmd_history, hist, 4, &rc), 1);
    assert_int_equal(rc, EXIT_OK);
    char prev[PATH_MAX + 32];
    snprintf(prev, sizeof prev, "%s/.prev.json", r->dir);
    const char *const since[] = {"report", "-q", "--no-cache", "-f", "json", "--since-report", prev};
    assert_int_equal(count_opens_of(r, cmd_report, since, 7, &rc), 1);
    assert_int_equal(rc, EXIT_OK);
    /* the week's change was replayed (not skipped for want of a repository) */
    char out[PATH_MAX + 16], *doc = NULL;
    size_t len = 0;
    snprintf(out, sizeof out, "%s/.out", r->dir);
    assert_int_equal(read_file(out, 0, &doc, &len), 0);
    assert_non_null(strstr(doc, "\"history\":true,\"history_note\":null,\"commits\":1,"));
    sunset_free(doc);
    assert_int_equal(run(r, "rm -f .prev.json"), 0);
}

/* The tracked paths come out in strcmp order: as the index holds them, or sorted when
 * core.ignorecase has the index hold them case-folded ("alpha" before "Zeta"). */
static void tracked_paths_in_byte_order(void **state) {
    (void)state;
    for (int folded = 0; folded < 2; folded++) {
        repo r = {0};
        assert_int_equal(repo_mkdir(&r, "tracked"), 0);
        put(&r, "Zeta.txt", "z\n");
        put(&r, "alpha.txt", "a\n");
        put(&r, "beta.txt", "b\n");
        assert_int_equal(repo_commit_base(&r), 0);
        if (folded) assert_int_equal(run(&r, "git config core.ignorecase true"), 0);
        sunset_checkout co;
        char err[256];
        const char *paths[] = {r.dir};
        sunset_checkout_req req = {.paths = paths, .n_paths = 1};
        if (sunset_checkout_open(&co, &req, err, sizeof err)) fail_msg("%s", err);
        vec v = VEC_INIT(char *);
        assert_int_equal(sunset_checkout_tracked(&co, &v), 0);
        /* the three, and whatever else the scratch repository tracks, in strcmp order */
        int seen = 0;
        for (size_t i = 0; i < v.n; i++) {
            const char *p = VEC_AT(&v, char *, i);
            if (i) assert_true(strcmp(VEC_AT(&v, char *, i - 1), p) < 0);
            seen += !strcmp(p, "Zeta.txt") || !strcmp(p, "alpha.txt") || !strcmp(p, "beta.txt");
        }
        assert_int_equal(seen, 3);
        for (size_t i = 0; i < v.n; i++) sunset_free(VEC_AT(&v, char *, i));
        vec_free(&v);
        sunset_checkout_close(&co);
        assert_int_equal(repo_clear(&r), 0);
    }
}

int main(void) {
    if (!getcwd(here, sizeof here)) return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(check_diff_base_opens_the_repository_once),
        cmocka_unit_test(report_opens_the_repository_once),
        cmocka_unit_test(scan_removable_baseline_open_the_repository_once),
        cmocka_unit_test(report_keeps_little_of_the_history_it_read), /* before history's run */
        cmocka_unit_test(history_replays_through_the_checkout),
        cmocka_unit_test(new_include_fails_wherever_check_runs),
        cmocka_unit_test(narrowed_check_with_configured_globs),
        cmocka_unit_test(update_baseline_in_a_scope_keeps_the_rest_byte_for_byte),
        cmocka_unit_test(baseline_from_a_subdirectory_writes_the_repositorys),
        cmocka_unit_test(untracked_report_does_not_fail_the_diff),
        cmocka_unit_test(excluded_file_does_not_fail_the_diff),
        cmocka_unit_test(tracked_paths_in_byte_order),
    };
    return cmocka_run_group_tests(tests, setup, repo_teardown);
}
