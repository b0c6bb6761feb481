/*
 * test_cli.c — end-to-end tests of the built binary ($SUNSET_BIN, default build/sunset),
 * run from the repository root:
 *  - golden: `scan testdata/paddle-mini --format json` at -j1 and -j4 must produce the same
 *    findings, equal (as parsed JSON, missing and extra reported separately) to
 *    testdata/golden/paddle-mini.json, which the tool produced and we reviewed;
 *  - CLI cases: every directory testdata/cli/<case>/ holds `cmd` (a sh command line, $SUNSET
 *    is the binary), and the expected `stdout`, `stderr` and `exit`; compared as exact text.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <cjson/cJSON.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/util.h"

static const char *bin(void) {
    const char *b = getenv("SUNSET_BIN");
    return b && *b ? b : "build/sunset";
}

/* Run a shell command; capture stdout/stderr into files under dir. Returns the exit code. */
static int run_capture(const char *cmd, const char *out, const char *err) {
    sb full = {0};
    /* the command travels in the environment, so it may hold any quotes */
    setenv("SUNSET", bin(), 1);
    setenv("SUNSET_CMD", cmd, 1);
    sb_printf(&full, "sh -c \"$SUNSET_CMD\" >'%s' 2>'%s' </dev/null", out, err);
    int st = system(full.s);
    sb_free(&full);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static char *slurp(const char *path) {
    char *s = NULL;
    size_t n;
    if (read_file(path, 0, &s, &n)) return NULL;
    return s;
}

/* Key of a finding for matching golden and actual: rule, path, line, column. */
static void fkey(const cJSON *f, char *buf, size_t n) {
    snprintf(buf, n, "%s %s:%d:%d", cJSON_GetObjectItem(f, "rule")->valuestring,
             cJSON_GetObjectItem(f, "path")->valuestring, cJSON_GetObjectItem(f, "line")->valueint,
             cJSON_GetObjectItem(f, "column")->valueint);
}

static const cJSON *find_key(const cJSON *arr, const char *key) {
    const cJSON *f;
    char k[1024];
    cJSON_ArrayForEach(f, arr) {
        fkey(f, k, sizeof k);
        if (strcmp(k, key) == 0) return f;
    }
    return NULL;
}

/* Compare findings arrays; prints missing / extra / changed and returns the count. */
static int compare_findings(const cJSON *want, const cJSON *got, const char *what) {
    int bad = 0;
    char k[1024];
    const cJSON *f;
    cJSON_ArrayForEach(f, want) {
        fkey(f, k, sizeof k);
        const cJSON *g = find_key(got, k);
        if (!g) {
            print_error("%s: missing %s\n", what, k);
            bad++;
        } else if (!cJSON_Compare(f, g, 1)) {
            char *a = cJSON_PrintUnformatted(f), *b = cJSON_PrintUnformatted(g);
            print_error("%s: changed %s\n  want %s\n  got  %s\n", what, k, a, b);
            cJSON_free(a);
            cJSON_free(b);
            bad++;
        }
    }
    cJSON_ArrayForEach(f, got) {
        fkey(f, k, sizeof k);
        if (!find_key(want, k)) {
            print_error("%s: extra %s\n", what, k);
            bad++;
        }
    }
    return bad;
}

static cJSON *scan_json(const char *args, const char *tag) {
    char out[256], err[256], cmd[1024];
    snprintf(out, sizeof out, "/tmp/sunset-golden-%d-%s.json", (int)getpid(), tag);
    snprintf(err, sizeof err, "/tmp/sunset-golden-%d-%s.err", (int)getpid(), tag);
    snprintf(cmd, sizeof cmd, "\"$SUNSET\" scan %s --format json --no-config -q", args);
    int rc = run_capture(cmd, out, err);
    char *text = slurp(out);
    char *etext = slurp(err);
    if (rc != 0) print_error("exit %d, stderr: %s\n", rc, etext ? etext : "");
    assert_int_equal(rc, 0);
    cJSON *doc = text ? cJSON_Parse(text) : NULL;
    assert_non_null(doc);
    sunset_free(text);
    sunset_free(etext);
    remove(out);
    remove(err);
    return doc;
}

/* A scan document without what may vary between runs of the same scan: the elapsed time
 * and the job count. */
static cJSON *comparable(const cJSON *doc) {
    cJSON *c = cJSON_Duplicate(doc, 1);
    assert_non_null(c);
    cJSON *st = cJSON_GetObjectItem(c, "stats");
    cJSON_DeleteItemFromObject(st, "elapsed_ms");
    cJSON_DeleteItemFromObject(st, "jobs");
    return c;
}

/* 0 when the documents are equal (as comparable()); else names the first differing member
 * of each top-level array, or the member itself, and returns 1. */
static int compare_documents(const cJSON *want, const cJSON *got, const char *what) {
    cJSON *w = comparable(want), *g = comparable(got);
    int bad = 0;
    if (!cJSON_Compare(w, g, 1)) {
        bad = 1;
        const cJSON *wm;
        cJSON_ArrayForEach(wm, w) {
            const cJSON *gm = cJSON_GetObjectItem(g, wm->string);
            if (gm && cJSON_Compare(wm, gm, 1)) continue;
            int n = cJSON_IsArray(wm) && gm ? cJSON_GetArraySize(wm) : 0, i = 0;
            while (i < n && cJSON_Compare(cJSON_GetArrayItem(wm, i), cJSON_GetArrayItem(gm, i), 1)) i++;
            char *x = cJSON_PrintUnformatted(n ? cJSON_GetArrayItem(wm, i) : wm);
            char *y = gm ? cJSON_PrintUnformatted(n ? cJSON_GetArrayItem(gm, i) : gm) : NULL;
            print_error("%s: \"%s\" differs%s\n--- want\n%s\n--- got\n%s\n", what, wm->string,
                        n ? " (first differing member shown)" : "", x ? x : "", y ? y : "(none)");
            cJSON_free(x);
            cJSON_free(y);
        }
    }
    cJSON_Delete(w);
    cJSON_Delete(g);
    return bad;
}

static void golden_paddle_mini(void **state) {
    (void)state;
    char *want_text = slurp("testdata/golden/paddle-mini.json");
    assert_non_null(want_text);
    cJSON *want = cJSON_Parse(want_text);
    assert_non_null(want);
    cJSON *j1 = scan_json("testdata/paddle-mini -j1", "j1");
    cJSON *j4 = scan_json("testdata/paddle-mini -j4", "j4");
    const cJSON *wf = cJSON_GetObjectItem(want, "findings");
    int bad = compare_findings(wf, cJSON_GetObjectItem(j1, "findings"), "-j1 vs golden");
    bad += compare_findings(cJSON_GetObjectItem(j1, "findings"), cJSON_GetObjectItem(j4, "findings"), "-j4 vs -j1");
    /* same order too: output never depends on the thread count */
    char *a = cJSON_PrintUnformatted(cJSON_GetObjectItem(j1, "findings"));
    char *b = cJSON_PrintUnformatted(cJSON_GetObjectItem(j4, "findings"));
    if (strcmp(a, b) != 0) {
        print_error("-j1 and -j4 findings differ in order\n");
        bad++;
    }
    cJSON_free(a);
    cJSON_free(b);
    /* the whole document is the golden, not only the findings' keys: every field of every
     * finding and remnant (messages, actions, severities, consumers), the time aside; and
     * -j4 writes the same document but for its job count */
    bad += compare_documents(want, j1, "-j1 vs golden");
    bad += compare_documents(j1, j4, "-j4 vs -j1");
    /* the counting stats are part of the golden as well */
    const char *keys[] = {"files_seen", "files_scanned", "files_parsed", "files_prefiltered", "skipped",
                          "findings", "by_family", "by_severity"};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        const cJSON *x = cJSON_GetObjectItem(cJSON_GetObjectItem(want, "stats"), keys[i]);
        const cJSON *y = cJSON_GetObjectItem(cJSON_GetObjectItem(j1, "stats"), keys[i]);
        if (!x || !y || !cJSON_Compare(x, y, 1)) {
            char *p = x ? cJSON_PrintUnformatted(x) : NULL, *q = y ? cJSON_PrintUnformatted(y) : NULL;
            print_error("stats.%s: want %s got %s\n", keys[i], p ? p : "(none)", q ? q : "(none)");
            cJSON_free(p);
            cJSON_free(q);
            bad++;
        }
    }
    cJSON_Delete(want);
    cJSON_Delete(j1);
    cJSON_Delete(j4);
    sunset_free(want_text);
    assert_int_equal(bad, 0);
}

static int cmp_names(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void cli_cases(void **state) {
    (void)state;
    DIR *d = opendir("testdata/cli");
    assert_non_null(d);
    vec names = VEC_INIT(char *);
    struct dirent *de;
    while ((de = readdir(d))) {
        if (de->d_name[0] == '.') continue;
        char *s = sunset_strndup(de->d_name, strlen(de->d_name));
        vec_push(&names, &s);
    }
    closedir(d);
    qsort(names.v, names.n, sizeof(char *), cmp_names);
    int bad = 0;
    for (size_t i = 0; i < names.n; i++) {
        const char *c = VEC_AT(&names, char *, i);
        char p[512], out[256], err[256];
        snprintf(p, sizeof p, "testdata/cli/%s/cmd", c);
        char *cmd = slurp(p);
        if (!cmd) {
            print_error("case %s: no cmd file\n", c);
            bad++;
            continue;
        }
        cmd[strcspn(cmd, "\n")] = 0;
        snprintf(out, sizeof out, "/tmp/sunset-cli-%d.out", (int)getpid());
        snprintf(err, sizeof err, "/tmp/sunset-cli-%d.err", (int)getpid());
        int rc = run_capture(cmd, out, err);
        const char *files[] = {"stdout", "stderr"};
        const char *got_files[] = {out, err};
        for (int k = 0; k < 2; k++) {
            snprintf(p, sizeof p, "testdata/cli/%s/%s", c, files[k]);
            char *want = slurp(p), *got = slurp(got_files[k]);
            if (!want) want = sunset_strndup("", 0);
            if (!got || strcmp(want, got) != 0) {
                print_error("case %s: %s differs\n--- want\n%s--- got\n%s---\n", c, files[k], want,
                            got ? got : "(none)");
                bad++;
            }
            sunset_free(want);
            sunset_free(got);
        }
        snprintf(p, sizeof p, "testdata/cli/%s/exit", c);
        char *ex = slurp(p);
        int want_rc = ex ? atoi(ex) : 0;
        if (rc != want_rc) {
            print_error("case %s: exit %d, want %d\n", c, rc, want_rc);
            bad++;
        }
        sunset_free(ex);
        sunset_free(cmd);
        remove(out);
        remove(err);
    }
    for (size_t i = 0; i < names.n; i++) sunset_free(VEC_AT(&names, char *, i));
    vec_free(&names);
    assert_int_equal(bad, 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(golden_paddle_mini),
        cmocka_unit_test(cli_cases),
    };
    return cmocka_run_group_tests_name("cli", tests, NULL, NULL);
}
