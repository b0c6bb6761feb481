/*
 * test_history.c — `sunset history` against the truth: a sample repository whose history
 * removes legacy usage step by step (scripts/sample-history.sh) is replayed, and every
 * commit's counts must equal a plain `sunset scan` of that commit's files (git archive): in
 * total, per family, in files, and per file for a shebang script, a symlink and the files of
 * cache directories.
 * Also --every, --max-count, --since, the SVG, and the errors for a bad range or no repo.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "shell.h"
#include "report/history.h"

static char dir[64];

static int setup(void **state) {
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/sunset-hist-XXXXXX");
    if (!mkdtemp(dir)) return -1;
    return test_sh("sh scripts/sample-history.sh %s/repo >/dev/null 2>&1", dir);
}

static int teardown(void **state) {
    (void)state;
    return test_sh("rm -rf %s", dir);
}

static void replay_equals_scans(void **state) {
    (void)state;
    assert_int_equal(test_sh("%s history --no-config -q --repo %s/repo -f json -o %s/h.json", test_bin(), dir, dir), 0);
    cJSON *h = test_load_json(dir, "h.json");
    assert_non_null(h);
    const cJSON *commits = cJSON_GetObjectItem(h, "commits");
    assert_int_equal(cJSON_GetArraySize(commits), 6);
    static const char *const special[] = {"tools/run_pe", "paddle/fluid/framework/link.cc",
                                          "tools/cache_from_start/pe.py", "legacy_cache/es.py"};
    cJSON *one[4];
    int seen[4] = {0};
    for (size_t i = 0; i < 4; i++) {
        assert_int_equal(test_sh("%s history --no-config -q --repo %s/repo --include '%s' -f json -o %s/one.json",
                                 test_bin(), dir, special[i], dir), 0);
        assert_non_null(one[i] = test_load_json(dir, "one.json"));
    }
    const cJSON *c;
    int prev = -1, k = 0;
    cJSON_ArrayForEach(c, commits) {
        const char *id = cJSON_GetObjectItem(c, "commit")->valuestring;
        assert_int_equal(test_sh("rm -rf %s/co && mkdir %s/co && git -C %s/repo archive %s | tar x -C %s/co", dir, dir, dir, id, dir), 0);
        assert_int_equal(test_sh("%s scan --no-config -q -f json -o %s/s.json %s/co", test_bin(), dir, dir), 0);
        cJSON *s = test_load_json(dir, "s.json");
        assert_non_null(s);
        const cJSON *st = cJSON_GetObjectItem(s, "stats");
        int want = cJSON_GetObjectItem(st, "findings")->valueint;
        int got = cJSON_GetObjectItem(c, "findings")->valueint;
        if (want != got) fail_msg("commit %d (%s): history says %d findings, a scan of its tree %d", k, id, got, want);
        const cJSON *fam = cJSON_GetObjectItem(c, "by_family"), *it;
        cJSON_ArrayForEach(it, fam) {
            const cJSON *w = cJSON_GetObjectItem(cJSON_GetObjectItem(st, "by_family"), it->string);
            assert_non_null(w);
            assert_int_equal(it->valueint, w->valueint);
        }
        /* files with findings, and the findings of each file the walk decides beyond its name
         * (issue 32): history replayed on that file alone says what the scan found in it */
        int files = 0;
        const cJSON *f, *fs = cJSON_GetObjectItem(s, "findings");
        const char *prev_path = "";
        cJSON_ArrayForEach(f, fs) {
            const char *p = cJSON_GetObjectItem(f, "path")->valuestring;
            if (strcmp(p, prev_path)) files++;
            prev_path = p;
        }
        assert_int_equal(cJSON_GetObjectItem(c, "files")->valueint, files);
        for (size_t i = 0; i < sizeof special / sizeof *special; i++) {
            int in_scan = 0;
            cJSON_ArrayForEach(f, fs) in_scan += !strcmp(cJSON_GetObjectItem(f, "path")->valuestring, special[i]);
            int in_history = cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(one[i], "commits"), k),
                                                 "findings")->valueint;
            if (in_scan != in_history)
                fail_msg("commit %d: %s: history says %d findings, a scan %d", k, special[i], in_history, in_scan);
            seen[i] += in_scan;
        }
        /* the sample history only removes legacy code: the series never rises */
        if (prev >= 0) assert_true(got <= prev);
        prev = got;
        k++;
        cJSON_Delete(s);
    }
    /* the sample has each case: found by shebang and through the link, none in the caches
     * (the second is one only from the CINN commit on) */
    assert_true(seen[0] > 0 && seen[1] > 0 && seen[3] > 0);
    assert_int_equal(seen[2], 0);
    for (size_t i = 0; i < 4; i++) cJSON_Delete(one[i]);
    /* the PR named in a subject is parsed; the untouched-README commit has none */
    assert_int_equal(cJSON_GetObjectItem(cJSON_GetArrayItem(commits, 1), "pr")->valueint, 63923);
    assert_true(cJSON_IsNull(cJSON_GetObjectItem(cJSON_GetArrayItem(commits, 3), "pr")));
    cJSON_Delete(h);
}

static void sampling_and_errors(void **state) {
    (void)state;
    /* --every 2 keeps every second commit counting from the newest, which is always kept */
    assert_int_equal(test_sh("%s history --no-config -q --repo %s/repo --every 2 -f json -o %s/e.json", test_bin(), dir, dir), 0);
    cJSON *e = test_load_json(dir, "e.json");
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(e, "commits")), 3);
    const cJSON *last = cJSON_GetArrayItem(cJSON_GetObjectItem(e, "commits"), 2);
    assert_string_equal(cJSON_GetObjectItem(last, "subject")->valuestring, "Remove ExecutionStrategy (#65077)");
    cJSON_Delete(e);
    assert_int_equal(test_sh("%s history --no-config -q --repo %s/repo --max-count 2 -f json -o %s/m.json", test_bin(), dir, dir), 0);
    e = test_load_json(dir, "m.json");
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(e, "commits")), 2);
    cJSON_Delete(e);
    assert_int_equal(test_sh("%s history --no-config -q --repo %s/repo --since 2024-04-15 -f json -o %s/d.json", test_bin(), dir, dir), 0);
    e = test_load_json(dir, "d.json");
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(e, "commits")), 2);
    cJSON_Delete(e);
    /* a range A..B */
    assert_int_equal(test_sh("%s history --no-config -q --repo %s/repo HEAD~2..HEAD -f csv -o %s/r.csv", test_bin(), dir, dir), 0);
    assert_int_equal(test_sh("test $(wc -l < %s/r.csv) -eq 3", dir), 0);
    /* the SVG is a document with one polyline per series that has findings */
    assert_int_equal(test_sh("%s history --no-config -q --repo %s/repo -f svg -o %s/h.svg", test_bin(), dir, dir), 0);
    assert_int_equal(test_sh("grep -q '<svg' %s/h.svg && grep -q '</svg>' %s/h.svg && grep -q '#63543' %s/h.svg", dir, dir, dir), 0);
    /* errors: exit 2 with a message */
    assert_int_equal(test_sh("%s history --no-config -q --repo %s/repo no-such-rev 2>/dev/null", test_bin(), dir), 2);
    assert_int_equal(test_sh("%s history --no-config -q --repo %s 2>/dev/null", test_bin(), "/proc"), 2);
    assert_int_equal(test_sh("%s history --no-config --since yesterday --repo %s/repo 2>/dev/null", test_bin(), dir), 2);
}

/* The y of the <text> holding `label` in the SVG, or -1. */
static double label_y(const char *svg, const char *label) {
    const char *l = strstr(svg, label);
    if (!l) return -1;
    const char *t = l;
    while (t > svg && strncmp(t, "<text ", 6) != 0) t--;
    const char *y = strstr(t, " y=\"");
    return y && y < l ? atof(y + 4) : -1;
}

static size_t count(const char *s, const char *w) {
    size_t n = 0;
    for (const char *p = s; (p = strstr(p, w)); p++) n++;
    return n;
}

/* The burn-down: every drop over the threshold labelled (the PR, else the subject), labels of
 * near-simultaneous drops in different lanes, one panel per task plus the total, the window
 * named; the CSV's dates in UTC. */
static void svg_and_dates(void **state) {
    (void)state;
    const int64_t day = 86400, t0 = 1712880000; /* 2024-04-12 */
    history_point p[5] = {
        {.findings = 300, .by_task = {0, 200, 100}, .pr = -1, .time = t0, .label = "start", .date = "2024-04-12"},
        {.findings = 200, .by_task = {0, 100, 100}, .pr = 1, .tracked = true, .time = t0 + 3 * day, .label = "a (#1)", .date = "2024-04-15"},
        {.findings = 150, .by_task = {0, 100, 50}, .pr = 2, .time = t0 + 3 * day + 60, .label = "b (#2)", .date = "2024-04-15"},
        {.findings = 145, .by_task = {0, 95, 50}, .pr = 3, .time = t0 + 5 * day, .label = "c (#3)", .date = "2024-04-17"},
        {.findings = 115, .by_task = {0, 65, 50}, .pr = -1, .time = t0 + 20 * day, .label = "Merge branch x", .date = "2024-05-02"},
    };
    sb b = {0};
    history_svg(p, 5, "A..B", 10, &b);
    assert_false(b.oom);
    assert_int_equal(count(b.s, "class=\"drop\""), 3); /* -100, -50, -30; not the -5 */
    assert_non_null(strstr(b.s, ">#1 −100<"));
    assert_non_null(strstr(b.s, ">Merge branch x −30<"));
    assert_null(strstr(b.s, "#3 −5"));
    double y1 = label_y(b.s, "#1 −100"), y2 = label_y(b.s, "#2 −50");
    assert_true(y1 > 0 && y2 > 0);
    assert_true(y1 != y2); /* a minute apart: stacked, never on top of each other */
    assert_int_equal(count(b.s, "class=\"panel\""), HISTORY_TASKS); /* the total and tasks 1-6 */
    assert_non_null(strstr(b.s, "A..B"));
    assert_non_null(strstr(b.s, "2024-04-12 – 2024-05-02"));
    sb_free(&b);

    history_sample v = {.subject = "s", .time = t0 + 3600, .tz_minutes = 480, .pr = -1};
    sunset_family_title fam = {"parallel_executor", "ParallelExecutor"};
    history_write_csv(&v, 1, &fam, 1, &b);
    assert_non_null(strstr(b.s, ",2024-04-12T01:00:00+00:00,")); /* not 09:00+08:00 */
    sb_free(&b);
}

/* --max-filesize holds for history's blobs as for scan's files: the same counts as a scan of
 * the last commit with the same limit, fewer than without it. */
static void max_filesize_in_history(void **state) {
    (void)state;
    assert_int_equal(test_sh("%s history --no-config -q --repo %s/repo --max-count 1 --max-filesize 600 -f json -o %s/hm.json",
                             test_bin(), dir, dir), 0);
    assert_int_equal(test_sh("rm -rf %s/co && mkdir %s/co && git -C %s/repo archive HEAD | tar x -C %s/co && "
                             "%s scan --no-config -q -f json --max-filesize 600 -o %s/sm.json %s/co && "
                             "%s scan --no-config -q -f json -o %s/sa.json %s/co",
                             dir, dir, dir, dir, test_bin(), dir, dir, test_bin(), dir, dir), 0);
    cJSON *h = test_load_json(dir, "hm.json"), *sm = test_load_json(dir, "sm.json"), *sa = test_load_json(dir, "sa.json");
    assert_non_null(h);
    assert_non_null(sm);
    assert_non_null(sa);
    int got = cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(h, "commits"), 0), "findings")->valueint;
    int want = cJSON_GetObjectItem(cJSON_GetObjectItem(sm, "stats"), "findings")->valueint;
    int all = cJSON_GetObjectItem(cJSON_GetObjectItem(sa, "stats"), "findings")->valueint;
    assert_int_equal(got, want);
    assert_true(want < all);
    cJSON_Delete(h);
    cJSON_Delete(sm);
    cJSON_Delete(sa);
}

/* 130 daily commits from 2024-01-02 (git fast-import): --since takes all of them, not the default 100; without
 * a range or --since the 100 are said on stderr, and a range is not cut. */
static void since_has_no_silent_cap(void **state) {
    (void)state;
    assert_int_equal(test_sh("mkdir -p %s/long && cd %s/long && git init -q && "
                             "{ for i in $(seq 1 130); do t=$((1704067200 + i * 86400)); "
                             "printf 'commit refs/heads/main\\ncommitter t <t@example.com> %%d +0000\\ndata 4\\nc%%03d\\n' $t $i; "
                             "[ $i -gt 1 ] || printf 'M 644 inline a.py\\ndata 12\\nimport os\\nx\\n\\n'; "
                             "echo; done; } | git fast-import --quiet && git checkout -q main",
                             dir, dir), 0);
    static const struct { const char *args; int commits; bool note; } cases[] = {
        {"--since 2024-01-01", 130, false}, {"--since 2024-03-01", 71, false}, {"", 100, true},
        {"--max-count 100", 100, false}, {"main~120..main", 120, false}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        assert_int_equal(test_sh("%s history --no-config --repo %s/long %s -f json -o %s/long.json 2>%s/long.err",
                                 test_bin(), dir, cases[i].args, dir, dir), 0);
        cJSON *h = test_load_json(dir, "long.json");
        assert_non_null(h);
        if (cJSON_GetArraySize(cJSON_GetObjectItem(h, "commits")) != cases[i].commits)
            fail_msg("history %s: %d commits, want %d", cases[i].args,
                     cJSON_GetArraySize(cJSON_GetObjectItem(h, "commits")), cases[i].commits);
        cJSON_Delete(h);
        assert_int_equal(test_sh("grep -q 'the last 100 commits' %s/long.err", dir), cases[i].note ? 0 : 1);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(svg_and_dates),
        cmocka_unit_test(replay_equals_scans),
        cmocka_unit_test(sampling_and_errors),
        cmocka_unit_test(max_filesize_in_history),
        cmocka_unit_test(since_has_no_silent_cap),
    };
    return cmocka_run_group_tests_name("history", tests, setup, teardown);
}
