/*
 * test_since.c — 本周变化 (`report --since-report FILE`) on the sample history
 * (scripts/sample-history.sh): the report of an early commit, then the report of the tip with
 * two more commits on top (one adds legacy code, one finishes a checklist item), compared.
 * Checks the tasks and items that changed state, the new legacy code, and the commits in
 * between with their PRs and drops (the drops add up to the change of the total), in JSON,
 * Markdown (zh and en) and HTML; and the refusals (not a report, another issue's report, a
 * revision that is not an ancestor).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <cjson/cJSON.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/util.h"
#include "test/shell.h"

#define sh test_sh

static char tmpdir[PATH_MAX], binpath[PATH_MAX], top[PATH_MAX];

static char *slurp(const char *path) {
    char *s = NULL;
    size_t n;
    return read_file(path, 0, &s, &n) ? NULL : s;
}

/* sunset report in the sample repository, stdout to FILE (under tmpdir), stderr to tmpdir/err. */
static int report(const char *out, const char *args) {
    return sh("cd '%s/repo' && '%s' report . --no-config -q --no-cache %s >'%s/%s' 2>'%s/err'", tmpdir, binpath, args,
              tmpdir, out, tmpdir);
}

static char *file_of(const char *name) {
    char p[PATH_MAX + 64];
    snprintf(p, sizeof p, "%s/%s", tmpdir, name);
    char *s = slurp(p);
    assert_non_null(s);
    return s;
}

static cJSON *json_of(const char *name) {
    char *s = file_of(name);
    cJSON *j = cJSON_Parse(s);
    sunset_free(s);
    assert_non_null(j);
    return j;
}

static const char *git_env = "GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.invalid GIT_COMMITTER_NAME=t "
                             "GIT_COMMITTER_EMAIL=t@example.invalid GIT_AUTHOR_DATE=2024-04-20T12:00:00+00:00 "
                             "GIT_COMMITTER_DATE=2024-04-20T12:00:00+00:00";

static int setup_all(void **state) {
    (void)state;
    const char *b = getenv("SUNSET_BIN");
    if (!realpath(b && *b ? b : "build/sunset", binpath) || !getcwd(top, sizeof top)) return -1;
    snprintf(tmpdir, sizeof tmpdir, "%s/sunset-since-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(tmpdir)) return -1;
    if (sh("sh scripts/sample-history.sh '%s/repo' >/dev/null 2>&1", tmpdir)) return -1;
    /* the previous report: after the unit tests went (#63543), before CINN's and ES's PRs */
    if (sh("cd '%s/repo' && git checkout -q HEAD~3", tmpdir) || report("prev.json", "-f json")) return -1;
    /* back to the tip, then a commit adding legacy code and one finishing an item */
    return sh("cd '%s/repo' && git checkout -q develop && mkdir -p python/paddle/extra && "
              "printf 'import paddle.fluid as fluid\\n\\nexe = fluid.ParallelExecutor(use_cuda=False)\\n' "
              ">python/paddle/extra/pe_again.py && git add -A && %s git commit -q -m 'Use the PE again (#70001)' && "
              "git rm -q test/legacy_test/test_fuse_elewise_add_act_pass.py && "
              "%s git commit -q -m 'Drop a fused test (#70002)'",
              tmpdir, git_env, git_env);
}

static int teardown_all(void **state) {
    (void)state;
    if (tmpdir[0]) sh("rm -rf '%s'", tmpdir);
    return 0;
}

static const cJSON *change_of(const cJSON *since, long pr) {
    const cJSON *c, *p;
    cJSON_ArrayForEach(c, cJSON_GetObjectItem(since, "changes")) cJSON_ArrayForEach(p, cJSON_GetObjectItem(c, "prs"))
        if ((long)p->valuedouble == pr) return c;
    return NULL;
}

static void since_json(void **state) {
    (void)state;
    char args[PATH_MAX + 64];
    snprintf(args, sizeof args, "-f json --since-report '%s/prev.json'", tmpdir);
    assert_int_equal(report("now.json", args), 0);
    cJSON *prev = json_of("prev.json"), *now = json_of("now.json");
    const cJSON *since = cJSON_GetObjectItem(now, "since");
    assert_non_null(since);
    assert_string_equal(cJSON_GetObjectItem(since, "revision")->valuestring,
                        cJSON_GetObjectItem(prev, "revision")->valuestring);
    assert_true(cJSON_IsTrue(cJSON_GetObjectItem(since, "history")));
    assert_int_equal(cJSON_GetObjectItem(since, "commits")->valueint, 5);
    /* the PRs in between with their drops; the README commit changed nothing and is not listed */
    const cJSON *cinn = change_of(since, 63473), *es = change_of(since, 65077), *again = change_of(since, 70001),
                *drop = change_of(since, 70002);
    assert_non_null(cinn);
    assert_non_null(es);
    assert_non_null(again);
    assert_non_null(drop);
    assert_null(change_of(since, 63543)); /* before the previous report */
    assert_true(cJSON_GetObjectItem(cinn, "delta")->valueint < 0);
    assert_true(cJSON_GetObjectItem(es, "delta")->valueint < 0);
    assert_true(cJSON_GetObjectItem(again, "delta")->valueint > 0);
    assert_true(cJSON_GetObjectItem(drop, "delta")->valueint < 0);
    /* the largest drop first; the drops add up to the change of the total */
    long sum = 0, last = LONG_MIN;
    const cJSON *c;
    cJSON_ArrayForEach(c, cJSON_GetObjectItem(since, "changes")) {
        long d = cJSON_GetObjectItem(c, "delta")->valueint;
        assert_true(d >= last);
        last = d;
        sum += d;
    }
    assert_int_equal(sum, cJSON_GetObjectItem(since, "delta")->valueint);
    /* tasks: before is the previous report's count, after this one's */
    const cJSON *t, *pt;
    size_t added = 0;
    cJSON_ArrayForEach(t, cJSON_GetObjectItem(since, "tasks")) {
        int n = cJSON_GetObjectItem(t, "number")->valueint;
        cJSON_ArrayForEach(pt, cJSON_GetObjectItem(prev, "tasks")) if (cJSON_GetObjectItem(pt, "number")->valueint == n)
            assert_int_equal(cJSON_GetObjectItem(t, "before")->valueint, cJSON_GetObjectItem(pt, "findings")->valueint);
        cJSON_ArrayForEach(pt, cJSON_GetObjectItem(now, "tasks")) if (cJSON_GetObjectItem(pt, "number")->valueint == n)
            assert_int_equal(cJSON_GetObjectItem(t, "after")->valueint, cJSON_GetObjectItem(pt, "findings")->valueint);
        const cJSON *f;
        cJSON_ArrayForEach(f, cJSON_GetObjectItem(t, "added")) {
            /* the new legacy code is the added file's, and only that */
            assert_string_equal(cJSON_GetObjectItem(f, "path")->valuestring, "python/paddle/extra/pe_again.py");
            added++;
        }
    }
    assert_true(added > 0);
    assert_int_equal(cJSON_GetObjectItem(since, "added")->valueint, (int)added);
    assert_string_equal(cJSON_GetObjectItem(since, "matched_by")->valuestring, "fingerprint");
    /* the deleted test is an item that changed state */
    bool found = false;
    cJSON_ArrayForEach(c, cJSON_GetObjectItem(since, "items")) {
        const cJSON *file = cJSON_GetObjectItem(c, "file");
        if (!cJSON_IsString(file) || strcmp(file->valuestring, "test/legacy_test/test_fuse_elewise_add_act_pass.py")) continue;
        assert_string_equal(cJSON_GetObjectItem(c, "before")->valuestring, "open");
        assert_string_equal(cJSON_GetObjectItem(c, "after")->valuestring, "done");
        found = true;
    }
    assert_true(found);
    cJSON_Delete(prev);
    cJSON_Delete(now);
}

static void since_markdown_html(void **state) {
    (void)state;
    char args[PATH_MAX + 64];
    snprintf(args, sizeof args, "--since-report '%s/prev.json'", tmpdir);
    assert_int_equal(report("now.md", args), 0);
    char *md = file_of("now.md");
    const char *sec = strstr(md, "### 本周变化"), *tasks = strstr(md, "### 二、Task");
    assert_non_null(sec);
    assert_true(tasks && sec < tasks); /* on top, where a weekly post puts it */
    static const char *const prs[] = {"| #63473 |", "| #65077 |", "| #70001 |", "| #70002 |"};
    for (size_t i = 0; i < 4; i++) {
        const char *p = strstr(sec, prs[i]);
        assert_true(p && p < tasks);
    }
    assert_non_null(strstr(sec, "新增 "));
    assert_non_null(strstr(sec, "python/paddle/extra/pe_again.py#L3"));
    assert_non_null(strstr(sec, "`test_fuse_elewise_add_act_pass.py` 未完成 → ✅ 完成"));
    sunset_free(md);
    snprintf(args, sizeof args, "--lang en --since-report '%s/prev.json'", tmpdir);
    assert_int_equal(report("now-en.md", args), 0);
    md = file_of("now-en.md");
    assert_non_null(strstr(md, "### Since the last report"));
    assert_non_null(strstr(md, "| #70001 |"));
    sunset_free(md);
    snprintf(args, sizeof args, "-f html --since-report '%s/prev.json'", tmpdir);
    assert_int_equal(report("now.html", args), 0);
    char *html = file_of("now.html");
    assert_non_null(strstr(html, "<h2 id=\"since\">本周变化</h2>"));
    assert_non_null(strstr(html, "pull/70001\">#70001</a>"));
    sunset_free(html);
    /* without --since-report, no such section */
    assert_int_equal(report("plain.md", ""), 0);
    md = file_of("plain.md");
    assert_null(strstr(md, "本周变化"));
    sunset_free(md);
}

static void since_refusals(void **state) {
    (void)state;
    char args[PATH_MAX + 64], *err;
    /* not a report: exit 2 naming the file */
    sh("printf '{\"version\":1}\\n' >'%s/other.json'", tmpdir);
    snprintf(args, sizeof args, "--since-report '%s/other.json'", tmpdir);
    assert_int_equal(report("x.md", args), 2);
    err = file_of("err");
    assert_non_null(strstr(err, "other.json:1:1: not a tracking report"));
    sunset_free(err);
    sh("printf '{\\n  \"tasks\": [\\n' >'%s/broken.json'", tmpdir);
    snprintf(args, sizeof args, "--since-report '%s/broken.json'", tmpdir);
    assert_int_equal(report("x.md", args), 2);
    err = file_of("err");
    assert_non_null(strstr(err, "broken.json:3:1: not valid JSON"));
    sunset_free(err);
    /* another issue's report */
    assert_int_equal(sh("sed 's/\"id\":\"[^\"]*\"/\"id\":\"99999\"/' '%s/prev.json' >'%s/other-issue.json'", tmpdir, tmpdir), 0);
    snprintf(args, sizeof args, "--since-report '%s/other-issue.json'", tmpdir);
    assert_int_equal(report("x.md", args), 2);
    err = file_of("err");
    assert_non_null(strstr(err, "the report is of tracking issue 99999"));
    sunset_free(err);
    /* a previous revision that is not an ancestor: the report says the PRs were not measured */
    assert_int_equal(sh("sed 's/\"revision\":\"[0-9a-f]*\"/\"revision\":\"%040d\"/' '%s/prev.json' >'%s/lost.json'", 0,
                        tmpdir, tmpdir),
                     0);
    snprintf(args, sizeof args, "-f json --since-report '%s/lost.json'", tmpdir);
    assert_int_equal(report("lost-now.json", args), 0);
    cJSON *j = json_of("lost-now.json");
    const cJSON *since = cJSON_GetObjectItem(j, "since");
    assert_false(cJSON_IsTrue(cJSON_GetObjectItem(since, "history")));
    assert_string_equal(cJSON_GetObjectItem(since, "history_note")->valuestring, "上次报告的提交不在本仓库中");
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(since, "changes")), 0);
    cJSON_Delete(j);
    /* a missing file */
    snprintf(args, sizeof args, "--since-report '%s/none.json'", tmpdir);
    assert_int_equal(report("x.md", args), 2);
}

/* The previous report measured a commit on a side branch (f027356e75 against the tip of
 * abstract_pass is such a pair): the commits in between are counted from the merge base, and
 * the report says so. */
static void since_side_branch(void **state) {
    (void)state;
    cJSON *prev = json_of("prev.json");
    char rev[64], args[PATH_MAX + 64];
    snprintf(rev, sizeof rev, "%s", cJSON_GetObjectItem(prev, "revision")->valuestring);
    cJSON_Delete(prev);
    assert_int_equal(sh("cd '%s/repo' && git checkout -q -b side %s && echo '# side' >>README.md && git add -A && "
                        "%s git commit -q -m 'A side commit' && '%s' report . --no-config -q --no-cache -f json "
                        ">'%s/side.json' && git checkout -q develop",
                        tmpdir, rev, git_env, binpath, tmpdir),
                     0);
    snprintf(args, sizeof args, "-f json --since-report '%s/side.json'", tmpdir);
    assert_int_equal(report("from-side.json", args), 0);
    cJSON *j = json_of("from-side.json");
    const cJSON *since = cJSON_GetObjectItem(j, "since");
    assert_true(cJSON_IsTrue(cJSON_GetObjectItem(since, "history")));
    char want[64];
    snprintf(want, sizeof want, "共同祖先 %.12s", rev);
    assert_non_null(strstr(cJSON_GetObjectItem(since, "history_note")->valuestring, want));
    assert_int_equal(cJSON_GetObjectItem(since, "commits")->valueint, 5);
    assert_non_null(change_of(since, 63473));
    cJSON_Delete(j);
}

/* scripts/check-rows.py, the check the closing note runs on the real trees' JSON:
 * passes on the sample's reports, fails when one row is off by one. */
static void rows_add_up_script(void **state) {
    (void)state;
    if (sh("command -v python3 >/dev/null 2>&1")) skip();
    assert_int_equal(sh("python3 scripts/check-rows.py '%s/prev.json' '%s/now.json' >/dev/null", tmpdir, tmpdir), 0);
    assert_int_equal(sh("python3 -c \"import json,sys; d=json.load(open(sys.argv[1])); "
                        "[t for t in d['tasks'] if t['items']][0]['items'][0]['open'] += 1; "
                        "json.dump(d, open(sys.argv[2], 'w'))\" '%s/now.json' '%s/off.json'",
                        tmpdir, tmpdir),
                     0);
    assert_int_equal(sh("python3 scripts/check-rows.py '%s/off.json' >/dev/null", tmpdir), 1);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(since_json),
        cmocka_unit_test(since_markdown_html),
        cmocka_unit_test(since_refusals),
        cmocka_unit_test(since_side_branch),
        cmocka_unit_test(rows_add_up_script),
    };
    return cmocka_run_group_tests(tests, setup_all, teardown_all);
}
