/*
 * test_action.c — the shipped CI files as a pull request meets them, through
 * scripts/run-action.py: the workflow (scripts/sunset-gate.yml) judging a change that writes
 * where sunset itself might be checked out, the action's args input reaching sunset unexpanded
 * (a glob, a substitution), what code scanning is sent on a push (the full scan, every result
 * with its baselineState) and on a pull request (the change's, its own category), and every
 * `uses:` pinned by commit SHA.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "test/gitrepo.h"
#include "test/sarifcheck.h"
#include "test/shell.h"

typedef struct ci {
    repo r;
    char src[PATH_MAX]; /* sunset's own tree */
    char base[64];
} ci;

static const char *CLEAN = "namespace paddle {\nvoid Run() {}\n}\n";
static const char *LEGACY = "namespace paddle {\nvoid Run() { auto *pe = new ParallelExecutor(p); }\n}\n";

static int setup(void **state) {
    ci *c = calloc(1, sizeof *c);
    if (!getcwd(c->src, sizeof c->src)) return -1;
    if (repo_mkdir(&c->r, "action")) return -1;
    *state = c;
    return 0;
}

static int teardown(void **state) {
    ci *c = *state;
    int rc = repo_clear(&c->r);
    free(c);
    return rc;
}

/* origin.git: develop (clean run.cc, two notes) and pr, which writes `path` (text) on top. */
static void pull_request(ci *c, const char *path, const char *text) {
    repo *r = &c->r;
    put(r, "seed/paddle/fluid/run.cc", CLEAN);
    put(r, "seed/docs/a.md", "# a\n");
    put(r, "seed/docs/b.md", "# b\n");
    assert_int_equal(run(r, "git init -q --bare origin.git && cd seed && git init -q && git config user.email t@example.com && "
                            "git config user.name t && git add -A && git commit -qm base && "
                            "git push -q ../origin.git HEAD:refs/heads/develop && git rev-parse HEAD"), 0);
    snprintf(c->base, sizeof c->base, "%.40s", r->out);
    char p[256];
    snprintf(p, sizeof p, "seed/%s", path);
    put(r, p, text);
    assert_int_equal(run(r, "cd seed && git add -A && git commit -qm pr && git push -q ../origin.git HEAD:refs/heads/pr"), 0);
    char ev[512];
    snprintf(ev, sizeof ev, "{\"event_name\":\"pull_request\",\"repository\":\"paddle/paddle\",\"event\":{\"pull_request\":"
             "{\"base\":{\"sha\":\"%s\"},\"head\":{\"repo\":{\"full_name\":\"paddle/paddle\"}}}}}", c->base);
    put(r, "event.json", ev);
}

/* The shipped workflow's job in ws/ (the workspace): the change from origin.git's pr, sunset
 * from its own tree; sunset found on PATH, as a runner with it installed has it. */
static int workflow(ci *c) {
    return run(&c->r, "mkdir -p ws && cd ws && PATH=\"$(dirname \"$S\"):$PATH\" GITHUB_STEP_SUMMARY=../summary.md "
               "/usr/bin/python3 '%s/scripts/run-action.py' --workflow '%s/scripts/sunset-gate.yml' "
               "--var SUNSET_REPOSITORY=owner/sunset --repo owner/sunset='%s' "
               "--repo \"paddle/paddle=file://$PWD/../origin.git#pr\" ../event.json", c->src, c->src, c->src);
}

static void workflow_judges_every_path_of_the_change(void **state) {
    ci *c = *state;
    if (test_sh("/usr/bin/python3 -c 'import yaml' 2>/dev/null") != 0) skip();
    /* where sunset would sit inside the checkout; the old workflow excluded it */
    pull_request(c, ".sunset/x.cc", LEGACY);
    int rc = workflow(c);
    if (rc != 1) fail_msg("exit %d\n%s\nstderr:\n%s", rc, c->r.out, c->r.err);
    assert_non_null(strstr(c->r.out, "::error file=.sunset/x.cc,line=2,col=29"));
    assert_non_null(strstr(c->r.out, "USES github/codeql-action/upload-sarif@"));
    /* the same layout passes a clean change: sunset's own tree is not judged */
    assert_int_equal(run(&c->r, "rm -rf ws origin.git seed summary.md"), 0);
    pull_request(c, "paddle/fluid/other.cc", CLEAN);
    rc = workflow(c);
    if (rc != 0) fail_msg("exit %d\n%s\nstderr:\n%s", rc, c->r.out, c->r.err);
    assert_non_null(strstr(c->r.out, "gate passed"));
}

/* The action in work/ (a shallow clone of pr) with extra inputs. */
static int action(ci *c, const char *inputs) {
    return run(&c->r, "rm -rf work && git clone -q --depth 1 --branch pr \"file://$PWD/origin.git\" work && cd work && "
               "GITHUB_STEP_SUMMARY=../summary.md /usr/bin/python3 '%s/scripts/run-action.py' '%s' ../event.json "
               "sunset-path=\"$S\" %s", c->src, c->src, inputs);
}

/* args is split into words, never expanded: unquoted, `*.md` became `docs/a.md docs/b.md`
 * (the second a PATH: run.cc unjudged, the gate passed) */
static void args_are_not_expanded(void **state) {
    ci *c = *state;
    if (test_sh("/usr/bin/python3 -c 'import yaml' 2>/dev/null") != 0) skip();
    pull_request(c, "paddle/fluid/run.cc", LEGACY);
    int rc = action(c, "'args=--exclude docs/*.md'");
    if (rc != 1) fail_msg("exit %d\n%s\nstderr:\n%s", rc, c->r.out, c->r.err);
    assert_non_null(strstr(c->r.out, "::error file=paddle/fluid/run.cc,line=2,col=29"));
    /* quotes group words; $(...) and $VAR are text, not commands */
    rc = action(c, "'args=--exclude \"docs/a b/*\" --exclude $(touch ../pwned)x --exclude $HOME'");
    if (rc != 1) fail_msg("exit %d\n%s\nstderr:\n%s", rc, c->r.out, c->r.err);
    assert_int_not_equal(access("pwned", F_OK), 0);
    char p[PATH_MAX + 16];
    snprintf(p, sizeof p, "%s/pwned", c->r.dir);
    assert_int_not_equal(access(p, F_OK), 0);
    /* an unmatched quote: a clear error, exit 2 */
    assert_int_equal(action(c, "'args=--exclude \"docs'"), 2);
    assert_non_null(strstr(c->r.err, "the args input does not split into words"));
}

/* The upload step's line, "USES github/codeql-action/upload-sarif@... with k=v ...": its
 * category into cat, and the SARIF it names, parsed and valid (schema, names not ids). */
static cJSON *uploaded(ci *c, char *cat, size_t n) {
    const char *u = strstr(c->r.out, "USES github/codeql-action/upload-sarif@");
    if (!u) fail_msg("no upload in:\n%s\nstderr:\n%s", c->r.out, c->r.err);
    const char *f = strstr(u, " sarif_file="), *k = strstr(u, " category=");
    assert_non_null(f);
    assert_non_null(k);
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%.*s", (int)strcspn(f + 12, " \n"), f + 12);
    snprintf(cat, n, "%.*s", (int)strcspn(k + 10, " \n"), k + 10);
    cJSON *schema = load_schema();
    cJSON *doc = load_valid(path, schema);
    cJSON_Delete(schema);
    return doc;
}

/* How many results name path, and whether each result has a baselineState. */
static int results_in(const cJSON *doc, const char *path, bool *all_states) {
    int n = 0;
    const cJSON *res;
    *all_states = true;
    cJSON_ArrayForEach(res, cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(doc, "runs"), 0), "results")) {
        const cJSON *pl = cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(res, "locations"), 0), "physicalLocation");
        n += !strcmp(cJSON_GetObjectItem(cJSON_GetObjectItem(pl, "artifactLocation"), "uri")->valuestring, path);
        *all_states &= cJSON_IsString(cJSON_GetObjectItem(res, "baselineState"));
    }
    return n;
}

/* A push uploads the complete results (an untouched file's too) under "sunset"; a pull request
 * its own results under "sunset-pr". Both validate. The old action sent the push's diff-mode
 * results, closing every other file's alerts. */
static void code_scanning_gets_complete_results_on_push(void **state) {
    ci *c = *state;
    if (test_sh("/usr/bin/python3 -c 'import yaml' 2>/dev/null") != 0) skip();
    put(&c->r, "seed/paddle/fluid/old.cc", LEGACY); /* on develop already, untouched */
    pull_request(c, "paddle/fluid/run.cc", LEGACY);
    static const char *const events[] = {"push", "pull_request"};
    for (int i = 0; i < 2; i++) {
        if (i == 0) {
            char ev[256];
            snprintf(ev, sizeof ev, "{\"event_name\":\"push\",\"repository\":\"paddle/paddle\",\"event\":"
                     "{\"before\":\"%s\"}}", c->base);
            put(&c->r, "push.json", ev);
        }
        int rc = run(&c->r, "rm -rf work rt && mkdir rt && git clone -q --depth 1 --branch pr \"file://$PWD/origin.git\" work && "
                     "cd work && RUNNER_TEMP=$PWD/../rt GITHUB_STEP_SUMMARY=../summary.md /usr/bin/python3 "
                     "'%s/scripts/run-action.py' '%s' ../%s sunset-path=\"$S\"", c->src, c->src, i ? "event.json" : "push.json");
        if (rc != 1) fail_msg("%s: exit %d\n%s\nstderr:\n%s", events[i], rc, c->r.out, c->r.err);
        assert_non_null(strstr(c->r.out, "::error file=paddle/fluid/run.cc,line=2,col=29"));
        char cat[64];
        bool states;
        cJSON *doc = uploaded(c, cat, sizeof cat);
        assert_string_equal(cat, i ? "sunset-pr" : "sunset");
        assert_true(results_in(doc, "paddle/fluid/run.cc", &states) > 0);
        assert_true(states);
        /* the untouched file: in the push's complete set, not in the pull request's */
        if (i == 0) assert_true(results_in(doc, "paddle/fluid/old.cc", &states) > 0);
        else assert_int_equal(results_in(doc, "paddle/fluid/old.cc", &states), 0);
        cJSON_Delete(doc);
    }
}

/* Every remote `uses:` names a full commit SHA and its version in a comment; the only local
 * one is sunset's, checked out at a release tag. */
static void actions_are_pinned_by_sha(void **state) {
    ci *c = *state;
    repo *r = &c->r;
    static const char *const files[] = {"action.yml", "scripts/sunset-gate.yml"};
    for (size_t i = 0; i < 2; i++) {
        /* all `uses:` lines, then those pinned */
        assert_int_equal(run(r, "grep -cE '^[[:space:]]*(- )?uses:' '%s/%s'", c->src, files[i]), 0);
        int all = atoi(r->out);
        assert_true(all > 0);
        run(r, "grep -cE '^[[:space:]]*(- )?uses: *([A-Za-z0-9_.-]+/[A-Za-z0-9_./-]+@[0-9a-f]{40} # v[0-9]+\\.[0-9]+\\.[0-9]+$|\\./sunset-action$)' '%s/%s'",
            c->src, files[i]);
        if (atoi(r->out) != all) {
            run(r, "grep -nE '^[[:space:]]*(- )?uses:' '%s/%s'", c->src, files[i]);
            fail_msg("%s: a uses: without a commit SHA and version comment:\n%s", files[i], r->out);
        }
    }
    assert_int_equal(run(r, "grep -c \"ref: \\${{ vars.SUNSET_REF || 'v0.2.0' }}\" '%s/scripts/sunset-gate.yml'", c->src), 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(workflow_judges_every_path_of_the_change, setup, teardown),
        cmocka_unit_test_setup_teardown(args_are_not_expanded, setup, teardown),
        cmocka_unit_test_setup_teardown(code_scanning_gets_complete_results_on_push, setup, teardown),
        cmocka_unit_test_setup_teardown(actions_are_pinned_by_sha, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
