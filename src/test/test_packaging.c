/*
 * test_packaging.c — the gate as Paddle's CI and contributors would adopt it, end to end:
 * action.yml's steps run by scripts/run-action.py in a shallow clone of a pull request (the
 * base commit fetched alone; the SARIF upload done for a same-repository pull request and
 * skipped for a fork's; the job failing on new findings and passing without), and the
 * pre-commit hook both as a plain git hook and through `pre-commit try-repo` (skipped when the
 * pre-commit framework is not installed: SUNSET_WITH_PRECOMMIT=1 scripts/install-deps.sh).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <unistd.h>

#include "test/gitrepo.h"
#include "test/shell.h"

typedef struct pack {
    repo r;
    char src[PATH_MAX]; /* sunset's own tree (the action and the hook live there) */
    char base[64];      /* the pull request's base commit */
} pack;

static const char *CLEAN = "namespace paddle {\nvoid Run() {}\n}\n";
static const char *LEGACY = "namespace paddle {\nvoid Run() { auto *pe = new ParallelExecutor(p); }\n}\n";

static int setup(void **state) {
    pack *p = calloc(1, sizeof *p);
    if (!getcwd(p->src, sizeof p->src)) return -1;
    if (repo_mkdir(&p->r, "pack")) return -1;
    *state = p;
    return 0;
}

static int teardown(void **state) {
    pack *p = *state;
    int rc = repo_clear(&p->r);
    free(p);
    return rc;
}

/* origin.git with develop (clean) and pr (pr_text); work/ = a depth-1 clone of pr. */
static void pull_request(pack *p, const char *pr_text) {
    repo *r = &p->r;
    put(r, "seed/paddle/fluid/run.cc", CLEAN);
    assert_int_equal(run(r, "git init -q --bare origin.git && cd seed && git init -q && git config user.email t@example.com && "
                            "git config user.name t && git add -A && git commit -qm base && "
                            "git push -q ../origin.git HEAD:refs/heads/develop && git rev-parse HEAD"), 0);
    snprintf(p->base, sizeof p->base, "%.40s", r->out);
    put(r, "seed/paddle/fluid/run.cc", pr_text);
    assert_int_equal(run(r, "cd seed && git commit -qam pr && git push -q ../origin.git HEAD:refs/heads/pr && cd .. && "
                            "git clone -q --depth 1 --branch pr \"file://$PWD/origin.git\" work"), 0);
    /* the clone is shallow: the base is not in it, the action must fetch it */
    assert_int_not_equal(run(r, "cd work && git cat-file -e %s^{commit}", p->base), 0);
}

static int action(pack *p, const char *head_repo) {
    put(&p->r, "event.json", "");
    char ev[512];
    snprintf(ev, sizeof ev, "{\"event_name\":\"pull_request\",\"repository\":\"paddle/paddle\",\"event\":{\"pull_request\":"
             "{\"base\":{\"sha\":\"%s\"},\"head\":{\"repo\":{\"full_name\":\"%s\"}}}}}", p->base, head_repo);
    put(&p->r, "event.json", ev);
    return run(&p->r, "cd work && GITHUB_STEP_SUMMARY=../summary.md /usr/bin/python3 '%s/scripts/run-action.py' '%s' ../event.json "
               "sunset-path=\"$S\"", p->src, p->src);
}

static void action_fails_a_legacy_pull_request(void **state) {
    pack *p = *state;
    if (test_sh("/usr/bin/python3 -c 'import yaml' 2>/dev/null") != 0) skip();
    pull_request(p, LEGACY);
    assert_int_equal(action(p, "paddle/paddle"), 1);
    assert_non_null(strstr(p->r.out, "::error file=paddle/fluid/run.cc,line=2,col=29"));
    assert_non_null(strstr(p->r.out, "USES github/codeql-action/upload-sarif@8aad20d150bbac5944a9f9d289da16a4b0d87c1e with sarif_file="));
    char path[PATH_MAX + 16];
    snprintf(path, sizeof path, "%s/summary.md", p->r.dir);
    char *summary = slurp(path);
    assert_non_null(summary);
    assert_non_null(strstr(summary, "ParallelExecutor"));
    sunset_free(summary);
    /* a fork's pull request: no upload (read-only token), the same verdict */
    assert_int_equal(run(&p->r, "rm -rf work summary.md && git clone -q --depth 1 --branch pr \"file://$PWD/origin.git\" work"), 0);
    assert_int_equal(action(p, "someone/paddle"), 1);
    assert_non_null(strstr(p->r.out, "SKIP Upload SARIF to code scanning"));
}

static void action_passes_a_clean_pull_request(void **state) {
    pack *p = *state;
    if (test_sh("/usr/bin/python3 -c 'import yaml' 2>/dev/null") != 0) skip();
    pull_request(p, "namespace paddle {\nvoid Run() { int x = 0; }\n}\n");
    assert_int_equal(action(p, "paddle/paddle"), 0);
    assert_non_null(strstr(p->r.out, "gate passed"));
}

/* The two cases pre-commit users expect: the commit is the index. */
static void hook_judges_the_commit(void **state) {
    pack *p = *state;
    repo *r = &p->r;
    put(r, "w/paddle/fluid/run.cc", CLEAN);
    assert_int_equal(run(r, "cd w && git init -q && git config user.email t@example.com && git config user.name t && "
                            "git add -A && git commit -qm base && cp '%s/scripts/pre-commit' .git/hooks/pre-commit", p->src), 0);
    /* a staged legacy line, the file on disk reverted: refused */
    put(r, "w/paddle/fluid/run.cc", LEGACY);
    assert_int_equal(run(r, "cd w && git add -A && git show HEAD:paddle/fluid/run.cc > paddle/fluid/run.cc && "
                            "SUNSET=\"$S\" git commit -qm legacy"), 1);
    assert_non_null(strstr(r->err, "this commit adds legacy-executor usage"));
    /* an unstaged legacy line does not block an unrelated commit */
    assert_int_equal(run(r, "cd w && git reset -q --hard && echo '# notes' > NOTES.md && git add NOTES.md"), 0);
    put(r, "w/paddle/fluid/run.cc", LEGACY);
    assert_int_equal(run(r, "cd w && SUNSET=\"$S\" git commit -qm notes"), 0);
    /* the same through the pre-commit framework, when it is installed */
    if (test_sh("command -v pre-commit >/dev/null 2>&1") != 0) skip();
    assert_int_equal(run(r, "cd w && rm .git/hooks/pre-commit && git add paddle/fluid/run.cc && "
                            "git show HEAD:paddle/fluid/run.cc > paddle/fluid/run.cc && "
                            "SUNSET=\"$S\" PRE_COMMIT_HOME=\"$PWD/../pc-home\" pre-commit try-repo '%s' sunset", p->src), 1);
    /* grouped as check's text view prints it: the remnant at the finding's position, its rule */
    assert_non_null(strstr(r->out, "paddle/fluid/run.cc:2:29: "));
    assert_non_null(strstr(r->out, "PE-CPP-IDENT"));
    assert_int_equal(run(r, "cd w && git reset -q && git checkout -q paddle/fluid/run.cc && echo '# more' >> NOTES.md && "
                            "git add NOTES.md"), 0);
    put(r, "w/paddle/fluid/run.cc", LEGACY);
    assert_int_equal(run(r, "cd w && SUNSET=\"$S\" PRE_COMMIT_HOME=\"$PWD/../pc-home\" pre-commit try-repo '%s' sunset", p->src), 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(action_fails_a_legacy_pull_request, setup, teardown),
        cmocka_unit_test_setup_teardown(action_passes_a_clean_pull_request, setup, teardown),
        cmocka_unit_test_setup_teardown(hook_judges_the_commit, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
