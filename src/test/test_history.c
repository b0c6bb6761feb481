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
    /* a range A..B starts at A, so the change of its first commit is a step of the series */
    assert_int_equal(test_sh("%s history --no-config -q --repo %s/repo HEAD~2..HEAD -f csv -o %s/r.csv", test_bin(), dir, dir), 0);
    assert_int_equal(test_sh("test $(wc -l < %s/r.csv) -eq 4", dir), 0);
    assert_int_equal(test_sh("sed -n 2p %s/r.csv | grep -q \"^$(git -C %s/repo rev-parse HEAD~2),\"", dir, dir), 0);
    assert_int_equal(test_sh("%s history --no-config -q --repo %s/repo HEAD~2..HEAD -f json -o %s/r.json", test_bin(), dir, dir), 0);
    e = test_load_json(dir, "r.json");
    assert_true(cJSON_IsTrue(cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(e, "commits"), 0), "baseline")));
    assert_null(cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(e, "commits"), 1), "baseline"));
    cJSON_Delete(e);
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
    history_svg(p, 5, 6, "A..B", 10, NULL, 0, &b);
    assert_false(b.oom);
    assert_int_equal(count(b.s, "class=\"drop\""), 3); /* -100, -50, -30; not the -5 */
    assert_non_null(strstr(b.s, ">#1 −100<"));
    assert_non_null(strstr(b.s, ">Merge branch x −30<"));
    assert_null(strstr(b.s, "#3 −5"));
    double y1 = label_y(b.s, "#1 −100"), y2 = label_y(b.s, "#2 −50");
    assert_true(y1 > 0 && y2 > 0);
    assert_true(y1 != y2); /* a minute apart: stacked, never on top of each other */
    assert_int_equal(count(b.s, "class=\"panel\""), 7); /* the total and tasks 1-6 */
    assert_non_null(strstr(b.s, "A..B"));
    assert_non_null(strstr(b.s, "2024-04-12 – 2024-05-02"));
    sb_free(&b);

    history_sample v = {.subject = "s", .time = t0 + 3600, .tz_minutes = 480, .pr = -1};
    sunset_family_title fam = {"parallel_executor", "ParallelExecutor"};
    history_write_csv(&v, 1, 6, &fam, 1, &b);
    assert_non_null(strstr(b.s, ",2024-04-12T01:00:00+00:00,")); /* not 09:00+08:00 */
    sb_free(&b);
}

/* The task range is the rule set's (settings.tasks): a pack that declares a seventh task and
 * moves AsyncExecutor's rules to it gets a task7 column holding what task6 held with the
 * shipped rules, and task6 empty; no rebuild. */
static void seventh_task_from_a_pack(void **state) {
    (void)state;
    assert_int_equal(test_sh("rm -rf %s/pack7 && mkdir %s/pack7 && cp rules/*.json %s/pack7/ && "
                             "sed -i '/\"title\": \"AsyncExecutor\"/{n;s/}/}, {\"id\": 7, \"title\": \"Seventh\"}/}' "
                             "%s/pack7/00-settings.json && sed -i 's/\"task\": 6,/\"task\": 7,/' %s/pack7/async-executor.json",
                             dir, dir, dir, dir, dir), 0);
    assert_int_equal(test_sh("%s history --no-config -q --repo %s/repo -f csv -o %s/t6.csv", test_bin(), dir, dir), 0);
    assert_int_equal(test_sh("%s history --no-config -q --rules %s/pack7 --repo %s/repo -f csv -o %s/t7.csv", test_bin(),
                             dir, dir, dir), 0);
    assert_int_equal(test_sh("head -1 %s/t7.csv | grep -q ',task5,task6,task7,parallel_executor,'", dir), 0);
    assert_int_equal(test_sh("head -1 %s/t6.csv | grep -q ',task6,parallel_executor,'", dir), 0);
    /* counted from the end (a subject may hold a comma), past the nine family columns: task7
     * of the pack's run is task6 of the shipped rules', nonzero; the pack's task6 is empty */
    assert_int_equal(test_sh("test \"$(tail -n +2 %s/t7.csv | awk -F, '{print $(NF-9)}')\" = "
                             "\"$(tail -n +2 %s/t6.csv | awk -F, '{print $(NF-9)}')\" && "
                             "sed -n 2p %s/t7.csv | awk -F, '{print $(NF-9)}' | grep -qv '^0$' && "
                             "test \"$(tail -n +2 %s/t7.csv | awk -F, '{print $(NF-10)}' | sort -u)\" = 0", dir, dir, dir, dir), 0);
    /* the chart draws a panel per task of the pack: seven with it, six with the shipped rules */
    assert_int_equal(test_sh("%s history --no-config -q --rules %s/pack7 --repo %s/repo -f svg -o %s/t7.svg && "
                             "%s history --no-config -q --repo %s/repo -f svg -o %s/t6.svg && "
                             "grep -q '>task 7<' %s/t7.svg && grep -q '>task 6<' %s/t6.svg && ! grep -q '>task 7<' %s/t6.svg",
                             test_bin(), dir, dir, dir, test_bin(), dir, dir, dir, dir, dir), 0);
    /* the scan's JSON carries the task, the Markdown counts it */
    assert_int_equal(test_sh("git -C %s/repo archive HEAD~3 | (rm -rf %s/co7 && mkdir %s/co7 && tar x -C %s/co7) && "
                             "%s scan --no-config -q --rules %s/pack7 -f json -o %s/s7.json %s/co7 && "
                             "grep -q '\"task\":7' %s/s7.json && "
                             "%s scan --no-config -q --rules %s/pack7 -f markdown -o %s/s7.md %s/co7 && grep -qi 'task 7' %s/s7.md",
                             dir, dir, dir, dir, test_bin(), dir, dir, dir, dir, test_bin(), dir, dir, dir, dir), 0);
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
 * a range or --since the 100 are said on stderr, and a range is not cut (its first sample is
 * A itself). */
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
        {"--max-count 100", 100, false}, {"main~120..main", 121, false}};
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

/* A merge commit's drop is attributed to the PRs in the subjects of the commits it merges:
 * the label, the CSV's pr column and the JSON name #65894, not "Merge branch ...". */
static void merge_attribution(void **state) {
    (void)state;
    assert_int_equal(test_sh("rm -rf %s/m && git clone -q %s/repo %s/m && cd %s/m && "
                             "git -c user.name=t -c user.email=t@t checkout -q -b side HEAD~1 && "
                             "git rm -q paddle/fluid/framework/details/gather_op_handle.cc && "
                             "git -c user.name=t -c user.email=t@t commit -q -m 'remove gather_op_handle -part (#65894)' && "
                             "git checkout -q develop && git -c user.name=t -c user.email=t@t merge -q --no-ff side "
                             "-m \"Merge branch 'develop' of https://github.com/PaddlePaddle/Paddle into side\"",
                             dir, dir, dir, dir),
                     0);
    assert_int_equal(test_sh("%s history --no-config -q --repo %s/m HEAD~1..HEAD -f json -o %s/mj.json", test_bin(), dir, dir), 0);
    cJSON *h = test_load_json(dir, "mj.json");
    const cJSON *commits = cJSON_GetObjectItem(h, "commits"), *m = cJSON_GetArrayItem(commits, 1);
    assert_int_equal(cJSON_GetArraySize(commits), 2);
    assert_int_equal(cJSON_GetObjectItem(m, "pr")->valueint, 65894);
    assert_int_equal(cJSON_GetArrayItem(cJSON_GetObjectItem(m, "prs"), 0)->valueint, 65894);
    assert_true(cJSON_IsTrue(cJSON_GetObjectItem(m, "tracked")));
    assert_true(cJSON_GetObjectItem(m, "findings")->valueint < cJSON_GetObjectItem(cJSON_GetArrayItem(commits, 0), "findings")->valueint);
    cJSON_Delete(h);
    assert_int_equal(test_sh("%s history --no-config -q --repo %s/m HEAD~1..HEAD -f csv | sed -n 3p | grep -q ',65894,'",
                             test_bin(), dir),
                     0);
    assert_int_equal(test_sh("%s history --no-config -q --repo %s/m HEAD~1..HEAD -f svg -o %s/m.svg && "
                             "grep -q '\">#65894 −' %s/m.svg && ! grep -q '\">Merge branch' %s/m.svg",
                             test_bin(), dir, dir, dir, dir),
                     0);
}

/* One label box from the SVG: the <text> of a drop, measured as the chart measures it. */
typedef struct box {
    double x0, x1, y0, y1, leader_x, leader_y1, leader_y2;
} box;

static size_t parse_boxes(const char *svg, box *out, size_t max) {
    size_t n = 0;
    for (const char *g = svg; (g = strstr(g, "<g class=\"drop\"")) && n < max; g++) {
        box *b = &out[n++];
        const char *ln = strstr(g, "<line class=\"leader\"");
        assert_non_null(ln);
        assert_int_equal(sscanf(ln, "<line class=\"leader\" x1=\"%lf\" x2=\"%*f\" y1=\"%lf\" y2=\"%lf\"", &b->leader_x,
                                &b->leader_y1, &b->leader_y2),
                         3);
        const char *t = strstr(g, "</circle><text ");
        assert_non_null(t);
        double x, y;
        assert_int_equal(sscanf(t, "</circle><text x=\"%lf\" y=\"%lf\"", &x, &y), 2);
        const char *gt = strchr(t + 15, '>'), *end = strstr(gt, "</text>");
        bool anchor_end = strstr(t, "text-anchor=\"end\"") && strstr(t, "text-anchor=\"end\"") < gt;
        char text[256];
        snprintf(text, sizeof text, "%.*s", (int)(end - gt - 1), gt + 1);
        double w = history_label_width(text);
        b->x0 = anchor_end ? x - w : x;
        b->x1 = b->x0 + w;
        b->y0 = y - 10; /* 11px text: ascender above the baseline, descender below */
        b->y1 = y + 3;
    }
    return n;
}

/* No two label boxes overlap; no leader line crosses another label. */
static void no_overlap(const box *bx, size_t n) {
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++) {
            if (i == j) continue;
            bool overlap = bx[i].x0 < bx[j].x1 && bx[j].x0 < bx[i].x1 && bx[i].y0 < bx[j].y1 && bx[j].y0 < bx[i].y1;
            if (overlap) fail_msg("labels %zu and %zu overlap", i, j);
            bool crosses = bx[i].leader_x > bx[j].x0 && bx[i].leader_x < bx[j].x1 && bx[i].leader_y1 < bx[j].y1 &&
                           bx[i].leader_y2 > bx[j].y0;
            if (crosses) fail_msg("the leader of label %zu crosses label %zu", i, j);
        }
}

/* The same measure on burn-downs written elsewhere (the real trees': scripts/check-done-when.sh
 * passes 742e3d0a1d..1eb6d50e49's): SUNSET_BURNDOWN_SVG, skipped when unset. Prints the labels. */
static void given_burndown(void **state) {
    (void)state;
    const char *f = getenv("SUNSET_BURNDOWN_SVG");
    if (!f || !*f) skip();
    char *svg = NULL;
    size_t len;
    assert_int_equal(read_file(f, 0, &svg, &len), 0);
    enum { MAXB = 512 };
    static box bx[MAXB];
    size_t n = parse_boxes(svg, bx, MAXB);
    print_message("%s: %zu labels, none overlapping, no leader crossing a label\n", f, n);
    no_overlap(bx, n);
    sunset_free(svg);
}

/* No two drop labels overlap and no leader line runs through another label, even when many
 * drops fall within a few pixels (the test measures the boxes from the SVG text). */
static void labels_never_overlap(void **state) {
    (void)state;
    enum { N = 60 };
    history_point p[N];
    static long pr[N];
    char dates[N][16];
    const int64_t t0 = 1712880000;
    for (int i = 0; i < N; i++) {
        pr[i] = 60000 + i;
        snprintf(dates[i], sizeof dates[i], "2024-04-%02d", 12 + i / 4);
        /* bursts: 4 drops within an hour, then a day later the next burst */
        p[i] = (history_point){.findings = (uint32_t)(5000 - 40 * i - (i % 3) * 7), .pr = pr[i], .prs = &pr[i], .n_prs = 1,
                               .tracked = i % 2 == 0, .time = t0 + (i / 4) * 86400 + (i % 4) * 600,
                               .label = "x", .date = dates[i]};
    }
    p[30].findings = p[29].findings; /* a named PR that moved nothing: listed, not labelled */
    long named[] = {60002, 60030, 6782};
    sb b = {0};
    history_svg(p, N, 6, "A..B", 10, named, 3, &b);
    assert_false(b.oom);
    box bx[N];
    size_t n = parse_boxes(b.s, bx, N);
    /* every drop is labelled, or listed under the chart when no lane can hold it */
    assert_true(n > 20);
    assert_int_equal(n + count(b.s, ": no room above the chart<"), N - 2);
    no_overlap(bx, n);
    assert_non_null(strstr(b.s, "#6782: no commit of this window names it"));
    assert_non_null(strstr(b.s, "#60030: moved nothing (0)"));
    assert_null(strstr(b.s, ">#60002: ")); /* labelled */
    sb_free(&b);
}

/* The incremental replay (the previous sample plus the change between the trees) against a
 * replay of each commit alone (its tree walked whole), on a history with renames, a
 * directory moved whole, deletes, a mode change, a file that becomes a directory and back, a
 * file deleted next to a directory of its name (git orders a tree's name as if it ended in /), a
 * merge and a file changed back to an earlier content (scripts/history-cases.sh): the same
 * counts, commit by commit. And the change is found without opening unchanged subtrees: the
 * last commit edits one file five directories down, and its replay opens those directories on
 * both sides, nothing else. */
static void incremental_equals_whole(void **state) {
    (void)state;
    assert_int_equal(test_sh("sh scripts/history-cases.sh %s/repo %s/cases >/dev/null 2>&1", dir, dir), 0);
    assert_int_equal(test_sh("%s history --no-config -q --repo %s/cases -f json -o %s/inc.json "
                             "$(git -C %s/cases rev-list --max-parents=0 HEAD)..HEAD", test_bin(), dir, dir, dir), 0);
    cJSON *inc = test_load_json(dir, "inc.json");
    assert_non_null(inc);
    const cJSON *c;
    static const char *const keys[] = {"findings", "files", "by_task", "by_family"};
    int n = 0, changed = 0;
    cJSON_ArrayForEach(c, cJSON_GetObjectItem(inc, "commits")) {
        const char *id = cJSON_GetObjectItem(c, "commit")->valuestring;
        assert_int_equal(test_sh("%s history --no-config -q --repo %s/cases --max-count 1 -f json -o %s/whole.json %s",
                                 test_bin(), dir, dir, id), 0);
        cJSON *whole = test_load_json(dir, "whole.json");
        assert_non_null(whole);
        const cJSON *w = cJSON_GetArrayItem(cJSON_GetObjectItem(whole, "commits"), 0);
        for (size_t k = 0; k < sizeof keys / sizeof *keys; k++)
            if (!cJSON_Compare(cJSON_GetObjectItem(c, keys[k]), cJSON_GetObjectItem(w, keys[k]), true))
                fail_msg("commit %d (%s): %s differs between the incremental replay and the whole tree", n, id, keys[k]);
        const cJSON *prev = n ? cJSON_GetArrayItem(cJSON_GetObjectItem(inc, "commits"), n - 1) : NULL;
        if (prev && !cJSON_Compare(cJSON_GetObjectItem(prev, "by_family"), cJSON_GetObjectItem(c, "by_family"), true))
            changed++;
        cJSON_Delete(whole);
        n++;
    }
    /* the sample's 6 commits and the cases' 12 first-parent ones (the side branch's is not) */
    assert_int_equal(n, 18);
    assert_true(changed >= 10); /* the cases move the counts: the comparison is not of constants */
    cJSON_Delete(inc);
    /* op_handle_base.h is paddle/fluid/framework/details/: 4 subtrees below the root, old and new */
    assert_int_equal(test_sh("%s history --no-config -v --repo %s/cases -o /dev/null HEAD~1..HEAD 2>%s/v.txt",
                             test_bin(), dir, dir), 0);
    char vp[128], *v = NULL;
    size_t vn;
    snprintf(vp, sizeof vp, "%s/v.txt", dir);
    assert_int_equal(read_file(vp, 0, &v, &vn), 0);
    if (!strstr(v, ", 8 trees read by the diffs")) fail_msg("the one-file commit opened other trees: %s", v);
    sunset_free(v);
}

/* The progress line: on a terminal (util-linux script(1) gives the command one) it counts the
 * commits and names the day reached; -q silences it, and so does a stderr that is a file. */
static void progress_on_a_terminal(void **state) {
    (void)state;
    if (test_sh("command -v script >/dev/null 2>&1")) skip();
    assert_int_equal(test_sh("test -d %s/cases || sh scripts/history-cases.sh %s/repo %s/cases >/dev/null 2>&1", dir, dir, dir), 0);
    char p[128], *t = NULL;
    size_t n;
    snprintf(p, sizeof p, "%s/tty.txt", dir);
    static const char *const quiet[] = {"", "-q"};
    for (int q = 0; q < 2; q++) {
        assert_int_equal(test_sh("script -qec \"%s history --no-config %s --repo %s/cases -o %s/p.csv "
                                 "HEAD~17..HEAD\" /dev/null >%s 2>&1", test_bin(), quiet[q], dir, dir, p), 0);
        assert_int_equal(read_file(p, 0, &t, &n), 0);
        bool shown = strstr(t, "\rsunset: history 18/18 commits (2024-05-23)") != NULL;
        if (shown != !q) fail_msg("%s: progress %s: [%s]", q ? "-q" : "a terminal", shown ? "shown" : "missing", t);
        sunset_free(t);
        t = NULL;
    }
    assert_int_equal(test_sh("%s history --no-config --repo %s/cases -o %s/p.csv HEAD~17..HEAD 2>%s", test_bin(), dir, dir, p), 0);
    assert_int_equal(read_file(p, 0, &t, &n), 0);
    assert_int_equal(n, 0);
    sunset_free(t);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(svg_and_dates),
        cmocka_unit_test(replay_equals_scans),
        cmocka_unit_test(sampling_and_errors),
        cmocka_unit_test(seventh_task_from_a_pack),
        cmocka_unit_test(max_filesize_in_history),
        cmocka_unit_test(since_has_no_silent_cap),
        cmocka_unit_test(merge_attribution),
        cmocka_unit_test(labels_never_overlap),
        cmocka_unit_test(given_burndown),
        cmocka_unit_test(incremental_equals_whole),
        cmocka_unit_test(progress_on_a_terminal),
    };
    return cmocka_run_group_tests_name("history", tests, setup, teardown);
}
