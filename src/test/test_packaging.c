/*
 * test_packaging.c — the gate as Paddle's CI and contributors would adopt it, end to end:
 * action.yml's steps run by scripts/run-action.py in a shallow clone of a pull request (the
 * base commit fetched alone; the SARIF upload done for a same-repository pull request and
 * skipped for a fork's; the job failing on new findings and passing without), and the
 * pre-commit hook both as a plain git hook and through `pre-commit try-repo` (skipped when the
 * pre-commit framework is not installed: SUNSET_WITH_PRECOMMIT=1 scripts/install-deps.sh).
 * Installing without building: the action given a Debian package (a path or file:// URL)
 * runs it without make; the `system` hook forwards `args:`; the `docker_image` hook and the
 * image's labels and user where docker or podman answers ("skipped: no docker or podman"
 * elsewhere); one version in every file that repeats it, and the bump script that keeps it so.
 * The package on a fresh Debian machine is scripts/test-deb.sh (make deb-test), not here.
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

/* action.yml run in work/ on the pull request's event, input INPUT=VALUE (shell words), with
 * a make first on PATH that says it ran: no test here may build. */
static int action_with(pack *p, const char *head_repo, const char *input) {
    put(&p->r, "event.json", "");
    char ev[512];
    snprintf(ev, sizeof ev, "{\"event_name\":\"pull_request\",\"repository\":\"paddle/paddle\",\"event\":{\"pull_request\":"
             "{\"base\":{\"sha\":\"%s\"},\"head\":{\"repo\":{\"full_name\":\"%s\"}}}}}", p->base, head_repo);
    put(&p->r, "event.json", ev);
    return run(&p->r, "mkdir -p nomake && printf '#!/bin/sh\\necho MAKE RAN \"$*\"\\nexit 3\\n' >nomake/make && chmod +x nomake/make && "
               "cd work && PATH=\"$PWD/../nomake:$PATH\" GITHUB_STEP_SUMMARY=../summary.md /usr/bin/python3 '%s/scripts/run-action.py' "
               "'%s' ../event.json %s", p->src, p->src, input);
}

static int action(pack *p, const char *head_repo) { return action_with(p, head_repo, "sunset-path=\"$S\""); }

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
    /* the script forwards its arguments to sunset check */
    assert_int_equal(run(r, "cd w && git reset -q && git checkout -q paddle/fluid/run.cc && git add NOTES.md"), 0);
    put(r, "w/paddle/fluid/run.cc", LEGACY);
    assert_int_equal(run(r, "cd w && git add -A && SUNSET=\"$S\" sh '%s/scripts/pre-commit'", p->src), 1);
    assert_int_equal(run(r, "cd w && SUNSET=\"$S\" sh '%s/scripts/pre-commit' --exclude 'paddle/fluid/run.cc'", p->src), 0);
}

/* A Debian package of the tested binary, with the layout of the real one (make install
 * PREFIX=/usr: the rules and queries in usr/share/sunset/), as pkg.deb; $SUNSET_DEB (make
 * deb's) is used instead when set. */
static void local_package(pack *p) {
    const char *real = getenv("SUNSET_DEB");
    if (real && *real) {
        assert_int_equal(run(&p->r, "cp '%s' pkg.deb", real), 0);
        return;
    }
    assert_int_equal(run(&p->r, "d=pkgroot && mkdir -p $d/DEBIAN $d/usr/bin $d/usr/share/sunset && cp \"$S\" $d/usr/bin/sunset && "
                                "cp -R '%s/rules' '%s/queries' $d/usr/share/sunset/ && "
                                "printf 'Package: sunset\\nVersion: %%s\\nArchitecture: %%s\\nMaintainer: t <t@example.com>\\n"
                                "Description: sunset, as tested\\n' \"$(cat '%s/VERSION')\" \"$(dpkg --print-architecture)\" "
                                ">$d/DEBIAN/control && dpkg-deb --root-owner-group -b $d pkg.deb >/dev/null",
                         p->src, p->src, p->src), 0);
}

static void action_installs_a_local_package(void **state) {
    pack *p = *state;
    if (test_sh("/usr/bin/python3 -c 'import yaml' 2>/dev/null") != 0) skip();
    if (test_sh("command -v dpkg-deb >/dev/null 2>&1") != 0) skip();
    pull_request(p, LEGACY);
    local_package(p);
    /* a path, relative to the workspace: the legacy change fails the job as with a build */
    assert_int_equal(action_with(p, "paddle/paddle", "version=../pkg.deb"), 1);
    assert_null(strstr(p->r.out, "MAKE RAN"));
    assert_non_null(strstr(p->r.out, "SKIP Restore the source build"));
    assert_non_null(strstr(p->r.out, "::error file=paddle/fluid/run.cc,line=2,col=29"));
    assert_non_null(strstr(p->r.out, "USES github/codeql-action/upload-sarif@"));
    /* the binary run is the package's, unpacked in the runner's temp */
    assert_non_null(strstr(p->r.out, "sunset: installed ../pkg.deb: "));
    assert_non_null(strstr(p->r.out, "/sunset-pkg/usr/bin/sunset"));
}

static void action_package_by_url_and_errors(void **state) {
    pack *p = *state;
    if (test_sh("/usr/bin/python3 -c 'import yaml' 2>/dev/null") != 0) skip();
    if (test_sh("command -v dpkg-deb >/dev/null 2>&1") != 0) skip();
    pull_request(p, "namespace paddle {\nvoid Run() { int x = 0; }\n}\n");
    local_package(p);
    assert_int_equal(action_with(p, "paddle/paddle", "version=\"file://$PWD/../pkg.deb\""), 0);
    assert_null(strstr(p->r.out, "MAKE RAN"));
    assert_non_null(strstr(p->r.out, "gate passed"));
    /* what cannot be installed is exit 2 with the reason, never a silent build */
    assert_int_equal(action_with(p, "paddle/paddle", "version=../missing.deb"), 2);
    assert_non_null(strstr(p->r.err, "sunset: ../missing.deb: no such package file"));
    assert_null(strstr(p->r.out, "MAKE RAN"));
    assert_int_equal(run(&p->r, "echo 'not a package' >bogus.deb"), 0);
    assert_int_equal(action_with(p, "paddle/paddle", "version=../bogus.deb"), 2);
    assert_non_null(strstr(p->r.err, "sunset: ../bogus.deb is not sunset's Debian package"));
    assert_int_equal(action_with(p, "paddle/paddle", "version=latest"), 2);
    assert_non_null(strstr(p->r.err, "version 'latest': neither X.Y.Z"));
    /* a release number outside a published action: no release to fetch */
    assert_int_equal(action_with(p, "paddle/paddle", "version=0.2.0"), 2);
    assert_non_null(strstr(p->r.err, "not run as a published action"));
}

/* The pre-commit framework with the shipped hooks (a repository of .pre-commit-hooks.yaml and
 * scripts/pre-commit as this tree has them), `sunset` on PATH: try-repo fails a staged legacy
 * line and passes a clean commit; the config's args: reach sunset check. */
static void precommit_system_hook(void **state) {
    pack *p = *state;
    repo *r = &p->r;
    if (test_sh("command -v pre-commit >/dev/null 2>&1") != 0) skip();
    assert_int_equal(run(r, "mkdir -p hooks/scripts bin && cp '%s/.pre-commit-hooks.yaml' hooks/ && cp '%s/scripts/pre-commit' hooks/scripts/ && "
                            "ln -s \"$S\" bin/sunset && cd hooks && git init -q && git add -A && "
                            "git -c user.email=t@example.com -c user.name=t commit -qm hooks && git rev-parse HEAD", p->src, p->src), 0);
    char rev[64];
    snprintf(rev, sizeof rev, "%.40s", r->out);
    put(r, "w/paddle/fluid/run.cc", CLEAN);
    assert_int_equal(run(r, "cd w && git init -q && git config user.email t@example.com && git config user.name t && "
                            "git add -A && git commit -qm base"), 0);
    /* PATH finds sunset; SUNSET too (so that a script hook would find it: only args differ) */
#define PC "PATH=\"$PWD/../bin:$PATH\" SUNSET=\"$S\" PRE_COMMIT_HOME=\"$PWD/../pc-home\" "
    put(r, "w/paddle/fluid/run.cc", LEGACY);
    assert_int_equal(run(r, "cd w && git add -A && " PC "pre-commit try-repo ../hooks sunset"), 1);
    /* grouped as check's text view prints it: the remnant at the finding's position, its rule */
    assert_non_null(strstr(r->out, "paddle/fluid/run.cc:2:29: "));
    assert_non_null(strstr(r->out, "PE-CPP-IDENT"));
    /* args: from .pre-commit-config.yaml reach sunset check: the file excluded (--ignore
     * would not do: it narrows the view, never the verdict) */
    char cfg[512];
    snprintf(cfg, sizeof cfg, "repos:\n- repo: ../hooks\n  rev: %s\n  hooks:\n  - id: sunset\n"
             "    args: [--exclude, paddle/fluid/run.cc]\n", rev);
    put(r, "w/.pre-commit-config.yaml", cfg);
    assert_int_equal(run(r, "cd w && git add .pre-commit-config.yaml && " PC "pre-commit run sunset"), 0);
    assert_int_equal(run(r, "cd w && sed -i 's|paddle/fluid/run.cc]|paddle/fluid/other.cc]|' .pre-commit-config.yaml && git add .pre-commit-config.yaml && "
                            PC "pre-commit run sunset"), 1);
    /* a clean commit passes */
    assert_int_equal(run(r, "cd w && git reset -q --hard && echo '# notes' >NOTES.md && git add NOTES.md && "
                            PC "pre-commit try-repo ../hooks sunset"), 0);
#undef PC
}

/* Docker or podman that answers, else NULL (a client without its daemon does not count). */
static const char *container_engine(void) {
    if (test_sh("docker info >/dev/null 2>&1") == 0) return "docker";
    if (test_sh("podman info >/dev/null 2>&1") == 0) return "podman";
    return NULL;
}

/* The image (make image when it is not built): labelled, not root, entry point sunset; the
 * docker_image hook fails a legacy commit and passes a clean one. */
static void image_and_docker_hook(void **state) {
    pack *p = *state;
    repo *r = &p->r;
    const char *eng = container_engine();
    if (!eng) {
        print_message("skipped: no docker or podman\n");
        skip();
    }
    char *version = slurp("VERSION");
    assert_non_null(version);
    version[strcspn(version, "\n")] = 0;
    if (run(r, "%s image inspect sunset:%s >/dev/null 2>&1", eng, version) != 0)
        assert_int_equal(run(r, "cd '%s' && env -u MAKEFLAGS -u MAKELEVEL make image", p->src), 0);
    assert_int_equal(run(r, "%s image inspect -f '{{index .Config.Labels \"org.opencontainers.image.version\"}} "
                            "{{.Config.User}} {{json .Config.Entrypoint}}' sunset:%s", eng, version), 0);
    char want[128];
    snprintf(want, sizeof want, "%s sunset [\"sunset\"]", version);
    assert_non_null(strstr(r->out, want));
    assert_int_equal(run(r, "%s run --rm sunset:%s --version", eng, version), 0);
    if (strcmp(eng, "docker") == 0 && test_sh("command -v pre-commit >/dev/null 2>&1") == 0) {
        put(r, "w/paddle/fluid/run.cc", CLEAN);
        assert_int_equal(run(r, "cd w && git init -q && git config user.email t@example.com && git config user.name t && "
                                "git add -A && git commit -qm base && mkdir ../hooks && cp '%s/.pre-commit-hooks.yaml' ../hooks/ && "
                                "cd ../hooks && git init -q && git add -A && git -c user.email=t@example.com -c user.name=t commit -qm h",
                             p->src), 0);
        put(r, "w/paddle/fluid/run.cc", LEGACY);
        assert_int_equal(run(r, "cd w && git add -A && PRE_COMMIT_HOME=\"$PWD/../pc-home\" pre-commit try-repo ../hooks sunset-docker"), 1);
        assert_non_null(strstr(r->out, "PE-CPP-IDENT"));
        assert_int_equal(run(r, "cd w && git reset -q --hard && echo n >NOTES.md && git add NOTES.md && "
                                "PRE_COMMIT_HOME=\"$PWD/../pc-home\" pre-commit try-repo ../hooks sunset-docker"), 0);
    }
    sunset_free(version);
}

/* The files of DIR that repeat VERSION and disagree with version v, one name a line ("" when
 * all agree). */
static const char *disagree(repo *r, const char *dir, const char *v) {
    assert_int_equal(run(r, "cd '%s' && v='%s' && { [ \"$(cat VERSION)\" = \"$v\" ] || echo VERSION; "
                            "head -1 debian/changelog | grep -qF \"sunset ($v) \" || echo debian/changelog; "
                            "grep -q \"^\\.TH SUNSET 1 \\\"[^\\\"]*\\\" \\\"sunset $v\\\"\" src/sunset.1 || echo src/sunset.1; "
                            "grep -m1 '^## ' CHANGELOG.md | grep -qF \"## $v \" || echo CHANGELOG.md; "
                            "grep -qF \"entry: sunset:$v \" .pre-commit-hooks.yaml || echo .pre-commit-hooks.yaml; }",
                         dir, v), 0);
    return r->out ? r->out : "";
}

/* The version's one place is VERSION: --version and every file that repeats it agree. */
static void one_version(void **state) {
    pack *p = *state;
    char *v = slurp("VERSION");
    assert_non_null(v);
    v[strcspn(v, "\n")] = 0;
    assert_string_equal(disagree(&p->r, p->src, v), "");
    char want[64];
    snprintf(want, sizeof want, "sunset %s (", v);
    assert_int_equal(run(&p->r, "\"$S\" --version"), 0);
    assert_ptr_equal(strstr(p->r.out, want), p->r.out);
    sunset_free(v);
}

/* scripts/bump-version.sh on a copy of those files: all of them follow, the tag is printed,
 * and what it must refuse it refuses. */
static void bump_version(void **state) {
    pack *p = *state;
    repo *r = &p->r;
    assert_int_equal(run(r, "mkdir -p t/debian t/src t/scripts && cd '%s' && cp VERSION CHANGELOG.md .pre-commit-hooks.yaml '%s/t/' && "
                            "cp debian/changelog '%s/t/debian/' && cp src/sunset.1 '%s/t/src/' && cp scripts/bump-version.sh '%s/t/scripts/'",
                         p->src, r->dir, r->dir, r->dir, r->dir), 0);
    assert_int_equal(run(r, "cd t && sh scripts/bump-version.sh 1.2"), 2);
    assert_non_null(strstr(r->err, "bump-version.sh: 1.2: not a version X.Y.Z"));
    /* the CHANGELOG's top section must be the unreleased one */
    assert_int_equal(run(r, "cd t && cp CHANGELOG.md c.bak && sed -i '0,/^## /s/ — unreleased$/ — 2026-01-01/' CHANGELOG.md && "
                            "sh scripts/bump-version.sh 9.8.7"), 2);
    assert_non_null(strstr(r->err, "is released already: write the changes of 9.8.7 under '## 9.8.7 — unreleased' first"));
    assert_int_equal(run(r, "cd t && mv c.bak CHANGELOG.md && sh scripts/bump-version.sh 9.8.7 --date 2030-01-02"), 0);
    assert_non_null(strstr(r->out, "git tag -a v9.8.7 -m 'sunset 9.8.7'"));
    char t[PATH_MAX + 8];
    snprintf(t, sizeof t, "%s/t", r->dir);
    assert_string_equal(disagree(r, t, "9.8.7"), "");
    assert_int_equal(run(r, "cd t && grep -m1 '^## ' CHANGELOG.md && head -5 debian/changelog | tail -1"), 0);
    assert_non_null(strstr(r->out, "## 9.8.7 — 2030-01-02\n"));
    assert_non_null(strstr(r->out, " -- "));
    assert_non_null(strstr(r->out, "  Wed, 02 Jan 2030 00:00:00 +0000\n"));
    /* dpkg reads the new entry */
    if (test_sh("command -v dpkg-parsechangelog >/dev/null 2>&1") == 0) {
        assert_int_equal(run(r, "cd t && dpkg-parsechangelog -S Version && dpkg-parsechangelog -S Distribution"), 0);
        assert_string_equal(r->out, "9.8.7\nunstable\n");
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(action_fails_a_legacy_pull_request, setup, teardown),
        cmocka_unit_test_setup_teardown(action_passes_a_clean_pull_request, setup, teardown),
        cmocka_unit_test_setup_teardown(hook_judges_the_commit, setup, teardown),
        cmocka_unit_test_setup_teardown(precommit_system_hook, setup, teardown),
        cmocka_unit_test_setup_teardown(action_installs_a_local_package, setup, teardown),
        cmocka_unit_test_setup_teardown(action_package_by_url_and_errors, setup, teardown),
        cmocka_unit_test_setup_teardown(image_and_docker_hook, setup, teardown),
        cmocka_unit_test_setup_teardown(one_version, setup, teardown),
        cmocka_unit_test_setup_teardown(bump_version, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
