/*
 * test_severity.c — one severity (README "Severity"): in one run, what a line shows is what the
 * gate, --error, GitHub annotations and SARIF levels use. A scratch Paddle-style repository with
 * a dead legacy file (delete: error), live code still on the legacy API (migrate: warning) and a
 * comment (update-doc: info) is judged by `scan` and, after a change adding legacy code, by
 * `check --diff-base`; each run's text, github, SARIF and JSON views are read back into
 * path:line -> level maps that must be equal, and the lines failing --severity-threshold error
 * are exactly those every view calls an error.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <cjson/cJSON.h>

#include "test/gitrepo.h"

enum { INFO, WARNING, ERROR, NLEVELS };

/* path:line -> the most severe level a view gives that line (several findings share one) */
typedef struct view {
    char key[64][160];
    int level[64];
    int n;
} view;

/* The files the text view shows as one file remnant ("path: LEVEL: delete file"): every view's
 * lines of such a file count as one line "path:*". */
static char whole_files[8][128];
static int n_whole;

static void view_add(view *v, const char *path, long line, int level) {
    char k[160];
    bool whole = line < 0;
    for (int i = 0; i < n_whole && !whole; i++) whole = !strcmp(whole_files[i], path);
    if (whole) snprintf(k, sizeof k, "%s:*", path);
    else snprintf(k, sizeof k, "%s:%ld", path, line);
    for (int i = 0; i < v->n; i++)
        if (!strcmp(v->key[i], k)) {
            if (level > v->level[i]) v->level[i] = level;
            return;
        }
    assert_true(v->n < 64);
    snprintf(v->key[v->n], sizeof v->key[0], "%s", k);
    v->level[v->n++] = level;
}

static int level_of(const char *s, size_t n) {
    static const char *const names[][3] = {{"info", "note", "notice"}, {"warning", "warning", "warning"},
                                           {"error", "error", "error"}};
    for (int l = 0; l < NLEVELS; l++)
        for (int k = 0; k < 3; k++)
            if (strlen(names[l][k]) == n && !strncmp(s, names[l][k], n)) return l;
    fail_msg("unknown level %.*s", (int)n, s);
    return -1;
}

/* text: "path:line:col: LEVEL: ..." item heads (the detail lines are indented) */
static void read_text(const char *out, view *v) {
    for (const char *p = out; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
        if (*p == ' ' || *p == '\n') continue;
        char path[128];
        long line, col;
        char lv[16];
        if (sscanf(p, "%127[^:]:%ld:%ld: %15[a-z]:", path, &line, &col, lv) == 4) {
            view_add(v, path, line, level_of(lv, strlen(lv)));
        } else if (sscanf(p, "%127[^:]: %15[a-z]:", path, lv) == 2 && strstr(p, " file (")) {
            assert_true(n_whole < 8);
            snprintf(whole_files[n_whole++], sizeof whole_files[0], "%s", path);
            view_add(v, path, -1, level_of(lv, strlen(lv)));
        }
    }
}

/* github: "::LEVEL file=P,line=L,..." */
static void read_github(const char *out, view *v) {
    for (const char *p = out; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
        char lv[16], path[128];
        long line;
        if (sscanf(p, "::%15[a-z] file=%127[^,],line=%ld", lv, path, &line) == 3)
            view_add(v, path, line, level_of(lv, strlen(lv)));
    }
}

/* SARIF: every result's level and first location (only the new ones under check) */
static void read_sarif(const char *out, view *v, bool new_only) {
    cJSON *d = cJSON_Parse(out);
    assert_non_null(d);
    const cJSON *res = cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(d, "runs"), 0), "results"), *r;
    cJSON_ArrayForEach(r, res) {
        const char *st = cJSON_GetStringValue(cJSON_GetObjectItem(r, "baselineState"));
        if (new_only && st && strcmp(st, "new")) continue;
        const cJSON *pl = cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(r, "locations"), 0),
                                              "physicalLocation");
        const char *uri = cJSON_GetStringValue(cJSON_GetObjectItem(cJSON_GetObjectItem(pl, "artifactLocation"), "uri"));
        long line = (long)cJSON_GetNumberValue(cJSON_GetObjectItem(cJSON_GetObjectItem(pl, "region"), "startLine"));
        const char *lv = cJSON_GetStringValue(cJSON_GetObjectItem(r, "level"));
        view_add(v, uri, line, level_of(lv, strlen(lv)));
    }
    cJSON_Delete(d);
}

static void read_json(const char *out, view *v) {
    cJSON *d = cJSON_Parse(out);
    assert_non_null(d);
    const cJSON *f;
    cJSON_ArrayForEach(f, cJSON_GetObjectItem(d, "findings")) {
        if (cJSON_IsTrue(cJSON_GetObjectItem(f, "suppressed"))) continue;
        const char *lv = cJSON_GetStringValue(cJSON_GetObjectItem(f, "severity"));
        view_add(v, cJSON_GetStringValue(cJSON_GetObjectItem(f, "path")),
                 (long)cJSON_GetNumberValue(cJSON_GetObjectItem(f, "line")), level_of(lv, strlen(lv)));
    }
    cJSON_Delete(d);
}

static void same_views(const view *a, const char *an, const view *b, const char *bn) {
    for (int i = 0; i < a->n; i++) {
        int k = 0;
        while (k < b->n && strcmp(a->key[i], b->key[k])) k++;
        if (k == b->n) fail_msg("%s shows %s, %s does not", an, a->key[i], bn);
        if (a->level[i] != b->level[k])
            fail_msg("%s: level %d in %s, %d in %s", a->key[i], a->level[i], an, b->level[k], bn);
    }
    if (a->n != b->n) fail_msg("%s shows %d lines, %s %d", an, a->n, bn, b->n);
}

static int levels_seen(const view *v) {
    int mask = 0;
    for (int i = 0; i < v->n; i++) mask |= 1 << v->level[i];
    return mask;
}

static int setup(void **state) {
    repo *r = calloc(1, sizeof *r);
    if (repo_mkdir(r, "severity")) return -1;
    /* dead: the legacy executor's own file, which nothing live includes */
    put(r, "paddle/fluid/framework/parallel_executor.cc",
        "#include \"paddle/fluid/framework/parallel_executor.h\"\n"
        "namespace paddle {\nnamespace framework {\n"
        "ParallelExecutor::ParallelExecutor() {}\n}  // namespace framework\n}  // namespace paddle\n");
    /* live: the compiler still builds one; a comment names it (a blank line between: prose) */
    put(r, "python/paddle/base/compiler.py",
        "from paddle.base import core\n\n\nclass CompiledProgram:\n"
        "    def _compile(self, places):\n"
        "        # ParallelExecutor is still the backend here\n\n"
        "        return core.ParallelExecutor(places)\n");
    /* live, and a rule whose severity is error: the line is a warning, awaiting migration */
    put(r, "python/paddle/distributed/launch.py",
        "import paddle.base as fluid\n\n\ndef launch(program, places):\n"
        "    return fluid.ParallelExecutor(use_cuda=True, main_program=program)\n");
    put(r, ".gitignore", ".out\n.err\n.sunset-cache/\n");
    if (repo_commit_base(r)) return -1;
    *state = r;
    return 0;
}

/* The four views of one command line, and the lines they call errors against the exit status
 * of --severity-threshold error. */
static void four_views_agree(repo *r, const char *cmd, bool gate) {
    view t = {0}, g = {0}, s = {0}, j = {0};
    n_whole = 0;
    run(r, "$S %s --no-summary -f text", cmd);
    read_text(r->out, &t);
    run(r, "$S %s --no-summary -f github", cmd);
    read_github(r->out, &g);
    run(r, "$S %s -f sarif", cmd);
    read_sarif(r->out, &s, gate);
    run(r, "$S %s -f json", cmd);
    read_json(r->out, &j);
    same_views(&t, "text", &g, "github");
    same_views(&t, "text", &s, "sarif");
    same_views(&t, "text", &j, "json");
    int errors = 0;
    for (int i = 0; i < t.n; i++) errors += t.level[i] == ERROR;
    int rc = run(r, "$S %s -q --severity-threshold error%s", cmd, gate ? "" : " --error");
    assert_int_equal(rc, errors ? 1 : 0);
}

static void scan_views_agree(void **state) {
    repo *r = *state;
    four_views_agree(r, "scan . --no-config --no-cache", false);
    view t = {0};
    run(r, "$S scan . --no-config --no-cache --no-summary");
    read_text(r->out, &t);
    /* the tree has all three: dead code an error, live code a warning, the comment info */
    assert_int_equal(levels_seen(&t), 1 << ERROR | 1 << WARNING | 1 << INFO);
    /* --findings lists each finding at its settled level, as the remnant view does */
    view f = {0};
    run(r, "$S scan . --no-config --no-cache --no-summary --findings");
    read_text(r->out, &f);
    same_views(&t, "text", &f, "text --findings");
}

static void check_views_agree(void **state) {
    repo *r = *state;
    put(r, "python/paddle/base/runner.py",
        "import paddle\nfrom paddle.base import core\n\n\n"
        "def run(places):\n"
        "    # the PE runs it\n"
        "    return core.ParallelExecutor(places)\n");
    assert_int_equal(run(r, "git add -A && git commit -qm change"), 0);
    four_views_agree(r, "check --diff-base HEAD~1 --no-config --no-cache", true);
    /* a new use is actionable now: an error, where the same code already there is a warning */
    view t = {0};
    run(r, "$S check --diff-base HEAD~1 --no-config --no-cache --no-summary");
    read_text(r->out, &t);
    assert_true(levels_seen(&t) & 1 << ERROR);
    assert_non_null(strstr(r->out, "new use"));
    assert_non_null(strstr(r->out, "why: "));
    /* ... and says why with the rule's own words: its message and its fix, not a generic hint */
    char *out = sunset_strndup(r->out, strlen(r->out));
    assert_int_equal(run(r, "$S rules show PE-PY-IDENT --no-config -f json"), 0);
    cJSON *rules = cJSON_Parse(r->out);
    const cJSON *rule = cJSON_GetArrayItem(rules, 0);
    assert_non_null(rule);
    char want[512];
    snprintf(want, sizeof want, "PE-PY-IDENT)\n        return core.ParallelExecutor(places)\n    why: %s\n    fix: %s\n",
             cJSON_GetObjectItem(rule, "message")->valuestring, cJSON_GetObjectItem(rule, "fix")->valuestring);
    if (!strstr(out, want)) fail_msg("want\n%s\nin\n%s", want, out);
    cJSON_Delete(rules);
    sunset_free(out);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(scan_views_agree),
        cmocka_unit_test(check_views_agree),
    };
    return cmocka_run_group_tests_name("severity", tests, setup, repo_teardown);
}
