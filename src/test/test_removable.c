/*
 * test_removable.c — propagation and the removal plan on a small in-memory tree whose seeds
 * are hand-made findings (so the rules play no part): a three-level class chain across files,
 * a same-named class in an unrelated module, a module that only imports a legacy helper, an
 * empty test registered under a legacy target, a header only legacy files include, a header
 * live code also includes, a target only a legacy target depends on, flags and passes used only
 * by legacy code and by both, a legacy header live code still uses (live, with its callers).
 * Then: the order of the steps, independence from insertion order, the patch, no leak on any
 * allocation failure, and end to end on a copy of testdata/paddle-mini: the patch applies with
 * `git apply`, and a re-scan finds no whole-file item left and no change outside the plan.
 */
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis/index.h"
#include "report/removable.h"
#include "core/rules_int.h"
#include "test/shell.h"

typedef struct tfile {
    const char *path;
    sunset_lang lang;
    const char *text;
} tfile;

static const tfile TREE[] = {
    {"t/base.py", SUNSET_LANG_PYTHON, "import unittest\nclass LegacyBase(unittest.TestCase):\n    pass\n"},
    {"t/mid.py", SUNSET_LANG_PYTHON, "from base import LegacyBase\nclass Mid(LegacyBase):\n    pass\n"},
    {"t/test_leaf.py", SUNSET_LANG_PYTHON,
     "import unittest\nfrom mid import Mid\nclass TestLeaf(Mid):\n    def test_a(self):\n        pass\n"},
    {"t/other/base2.py", SUNSET_LANG_PYTHON, "import unittest\nclass Mid(unittest.TestCase):\n    pass\n"},
    {"t/other/test_other.py", SUNSET_LANG_PYTHON, "from base2 import Mid\nclass TestOther(Mid):\n    pass\n"},
    {"t/test_only_imports.py", SUNSET_LANG_PYTHON,
     "import unittest\nfrom base import LegacyBase\nclass TestLive(unittest.TestCase):\n    pass\n"},
    {"t/test_empty_pe.py", SUNSET_LANG_PYTHON, ""},
    {"t/CMakeLists.txt", SUNSET_LANG_CMAKE,
     "py_test_modules(test_empty_pe MODULES test_empty_pe)\npy_test_modules(test_other MODULES other/test_other)\n"},
    {"c/legacy.h", SUNSET_LANG_CPP, "#include \"c/helper.h\"\n#include \"c/shared.h\"\nclass Legacy {\n  Helper h;\n  Shared s;\n};\n"},
    {"c/legacy.cc", SUNSET_LANG_CPP,
     "#include \"c/legacy.h\"\nUSE_PASS(old_pass);\nUSE_PASS(both_pass);\nint g() { return FLAGS_old_flag + FLAGS_both_flag; }\n"},
    {"c/helper.h", SUNSET_LANG_CPP, "struct Helper {\n  int x;\n};\n"},
    {"c/helper.cc", SUNSET_LANG_CPP, "#include \"c/helper.h\"\nint Helper_x() { Helper h; return h.x; }\n"},
    {"c/shared.h", SUNSET_LANG_CPP, "class Shared {\n};\n"},
    {"c/shared.cc", SUNSET_LANG_CPP, "#include \"c/shared.h\"\n"},
    {"c/live.cc", SUNSET_LANG_CPP,
     "#include \"c/shared.h\"\n#include \"c/live_legacy.h\"\nUSE_PASS(both_pass);\n"
     "int h() { Shared s; LiveLegacy l; return FLAGS_both_flag; }\n"},
    {"c/live_legacy.h", SUNSET_LANG_CPP, "class LiveLegacy {\n};\n"},
    {"c/flags.cc", SUNSET_LANG_CPP,
     "PHI_DEFINE_EXPORTED_bool(old_flag, false, \"x\");\nPHI_DEFINE_EXPORTED_bool(both_flag, false, \"y\");\n"},
    {"c/passes.cc", SUNSET_LANG_CPP, "REGISTER_PASS(old_pass, OldPass);\nREGISTER_PASS(both_pass, BothPass);\n"},
    {"c/CMakeLists.txt", SUNSET_LANG_CMAKE,
     "cc_library(helper_lib SRCS helper.cc)\ncc_library(legacy_lib SRCS legacy.cc DEPS helper_lib shared_lib)\n"
     "cc_library(shared_lib SRCS shared.cc)\ncc_library(live_lib SRCS live.cc flags.cc passes.cc DEPS shared_lib)\n"},
    {"tools/list.py", SUNSET_LANG_PYTHON, "L = [\n    'test_leaf',\n    'test_other',\n]\n"},
};
#define N_TREE (sizeof TREE / sizeof TREE[0])

static sunset_finding F[4];

/* The bundled rule set: its settings.cross_file holds the tree's conventions (test modules,
 * import roots ...) the plan needs; the seeds are hand-made, so its rules play no part. */
static sunset_ruleset *RS;

static int load_rules(void **state) {
    const char *dirs[] = {"rules"};
    sunset_error err = {0};
    RS = sunset_ruleset_load(dirs, 1, "queries", &err);
    if (!RS) fprintf(stderr, "%s\n", err.msg);
    return RS ? 0 : -1;
}

static int free_rules(void **state) {
    sunset_ruleset_free(RS);
    return 0;
}

/* The seeds: a rule on LegacyBase's header, path rules on two headers and a source, a rule on
 * the CMake registration of test_empty_pe. */
static void seed_result(sunset_result *r) {
    memset(r, 0, sizeof *r);
    memset(F, 0, sizeof F);
    F[0] = (sunset_finding){.rule_id = "R-PY", .ctx = SUNSET_CTX_CODE, .path = "t/base.py",
                            .span = {2, 7, 2, 17}, .matched = "LegacyBase"};
    F[1] = (sunset_finding){.rule_id = "R-PATH", .path = "c/legacy.h", .span = {1, 1, 1, 1}, .matched = "c/legacy.h"};
    F[2] = (sunset_finding){.rule_id = "R-PATH", .path = "c/legacy.cc", .span = {1, 1, 1, 1}, .matched = "c/legacy.cc"};
    F[3] = (sunset_finding){.rule_id = "R-CMAKE", .ctx = SUNSET_CTX_CODE, .path = "t/CMakeLists.txt",
                            .span = {1, 17, 1, 30}, .matched = "test_empty_pe"};
    r->findings = F;
    r->n_findings = 4;
}

static sunset_index *tree_index(bool reverse) {
    sunset_index *ix = sunset_index_new();
    if (ix) sunset_index_set_roles(ix, &RS->macro_roles);
    assert_non_null(ix);
    for (size_t i = 0; i < N_TREE; i++) {
        const tfile *t = &TREE[reverse ? N_TREE - 1 - i : i];
        sunset_source s = {t->path, t->path, t->text, strlen(t->text), t->lang};
        assert_int_equal(sunset_index_add(ix, &s), 0);
    }
    sunset_index_finish(ix);
    return ix;
}

static const rm_item *item(const rm_plan *p, rm_kind k, const char *path, const char *name) {
    for (size_t i = 0; i < p->n_items; i++) {
        const rm_item *it = &p->items[i];
        if (it->kind != k || strcmp(it->path, path) != 0) continue;
        if (name && (!it->name || strcmp(it->name, name) != 0)) continue;
        return it;
    }
    return NULL;
}

/* The item's evidence chain as the writers render it (valid until the next call; main frees
 * the last, so the leak check finds nothing live). */
static sb chain_text;

static const char *chain(const rm_item *it) {
    sb_free(&chain_text);
    assert_int_equal(rm_chain_write(&chain_text, it->steps, it->n_steps), 0);
    return chain_text.s ? chain_text.s : "";
}

static void build(rm_plan *p, bool reverse) {
    sunset_index *ix = tree_index(reverse);
    sunset_result r;
    seed_result(&r);
    assert_int_equal(rm_plan_build(ix, RS, &r, p), 0);
    sunset_index_free(ix);
}

static void chain_across_files(void **state) {
    rm_plan p;
    build(&p, false);
    const rm_item *leaf = item(&p, RM_FILE, "t/test_leaf.py", NULL);
    assert_non_null(leaf);
    assert_true(leaf->derived);
    assert_false(leaf->live);
    assert_true(leaf->patchable);
    assert_non_null(strstr(chain(leaf), "TestLeaf derives Mid (t/mid.py:2)"));
    assert_non_null(strstr(chain(leaf), "Mid derives LegacyBase (t/base.py:2)"));
    assert_non_null(strstr(chain(leaf), "rule R-PY at t/base.py:2"));
    /* the chain is data: steps, the seed rule a field of the last seed step */
    assert_int_equal(leaf->steps[0].kind, RM_EV_ALL_CLASSES);
    assert_int_equal(leaf->steps[1].kind, RM_EV_DERIVES);
    assert_string_equal(leaf->steps[1].detail, "TestLeaf");
    assert_string_equal(leaf->steps[1].other, "Mid");
    assert_string_equal(rm_chain_seed(leaf->steps, leaf->n_steps), "R-PY");
    assert_int_equal(leaf->steps[leaf->n_steps - 1].kind, RM_EV_RULE_AT);
    const rm_item *mid = item(&p, RM_FILE, "t/mid.py", NULL);
    const rm_item *base = item(&p, RM_FILE, "t/base.py", NULL);
    assert_non_null(mid);
    assert_non_null(base);
    assert_true(mid->derived);
    /* files that reference each other land in one step */
    assert_true(leaf->step > 0);
    assert_int_equal(leaf->step, mid->step);
    assert_int_equal(mid->step, base->step);
    /* base.py is dead; the file that stays imports it unused: that import line goes too */
    assert_false(base->live);
    assert_true(base->patchable);
    assert_null(base->after);
    /* the same-named class in an unrelated module is not legacy */
    assert_null(item(&p, RM_FILE, "t/other/test_other.py", NULL));
    assert_null(item(&p, RM_FILE, "t/other/base2.py", NULL));
    assert_null(item(&p, RM_CLASS, "t/other/test_other.py", "TestOther"));
    /* the module that only imports the helper keeps its file; the import goes */
    assert_null(item(&p, RM_FILE, "t/test_only_imports.py", NULL));
    const rm_item *imp = item(&p, RM_IMPORT, "t/test_only_imports.py", "t/base.py");
    assert_non_null(imp);
    assert_int_equal(imp->line, 2);
    assert_false(imp->live);
    assert_true(imp->patchable);
    /* the tool-list entry of the removed test; the live one stays */
    const rm_item *reg = item(&p, RM_REGISTRATION, "tools/list.py", "test_leaf");
    assert_non_null(reg);
    assert_int_equal(reg->line, 2);
    assert_null(item(&p, RM_REGISTRATION, "tools/list.py", "test_other"));
    rm_plan_free(&p);
}

static void empty_test_headers_targets(void **state) {
    rm_plan p;
    build(&p, false);
    const rm_item *e = item(&p, RM_FILE, "t/test_empty_pe.py", NULL);
    assert_non_null(e);
    assert_true(e->derived);
    assert_non_null(strstr(chain(e), "empty"));
    assert_non_null(strstr(chain(e), "rule R-CMAKE"));
    const rm_item *t = item(&p, RM_TARGET, "t/CMakeLists.txt", "test_empty_pe");
    assert_non_null(t);
    assert_true(t->patchable);
    assert_int_equal(t->line, 1);
    assert_null(item(&p, RM_TARGET, "t/CMakeLists.txt", "test_other"));
    /* a header only legacy files include */
    const rm_item *h = item(&p, RM_FILE, "c/helper.h", NULL);
    assert_non_null(h);
    assert_true(h->derived);
    assert_false(h->live);
    assert_non_null(strstr(chain(h), "included only by legacy files: "));
    assert_non_null(strstr(chain(h), "c/legacy.h (rule R-PATH (path))"));
    assert_non_null(strstr(chain(h), "c/helper.cc (compiled only by legacy target helper_lib"));
    const rm_item *l = item(&p, RM_FILE, "c/legacy.h", NULL);
    const rm_item *lc = item(&p, RM_FILE, "c/legacy.cc", NULL);
    /* legacy.cc includes legacy.h, which includes helper.h: one landable step */
    assert_true(lc->step > 0);
    assert_int_equal(lc->step, l->step);
    assert_int_equal(l->step, h->step);
    /* its target: only a legacy target depends on it; and its source goes with it */
    const rm_item *ht = item(&p, RM_TARGET, "c/CMakeLists.txt", "helper_lib");
    assert_non_null(ht);
    assert_true(ht->derived);
    assert_non_null(strstr(chain(ht), "only legacy targets depend on it: legacy_lib"));
    assert_non_null(item(&p, RM_FILE, "c/helper.cc", NULL));
    /* shared by legacy and live code: nothing */
    assert_null(item(&p, RM_FILE, "c/shared.h", NULL));
    assert_null(item(&p, RM_CLASS, "c/shared.h", "Shared"));
    assert_null(item(&p, RM_TARGET, "c/CMakeLists.txt", "shared_lib"));
    /* legacy but used by live code: live, with the caller, never deleted */
    const rm_item *ll = item(&p, RM_FILE, "c/live_legacy.h", NULL);
    assert_null(ll); /* not legacy at all: no seed */
    rm_plan_free(&p);
}

static void live_legacy_has_callers(void **state) {
    sunset_index *ix = tree_index(false);
    sunset_result r;
    seed_result(&r);
    sunset_finding f[5];
    memcpy(f, F, sizeof F);
    f[4] = (sunset_finding){.rule_id = "R-PATH", .path = "c/live_legacy.h", .span = {1, 1, 1, 1},
                            .matched = "c/live_legacy.h"};
    r.findings = f;
    r.n_findings = 5;
    rm_plan p;
    assert_int_equal(rm_plan_build(ix, RS, &r, &p), 0);
    const rm_item *ll = item(&p, RM_FILE, "c/live_legacy.h", NULL);
    assert_non_null(ll);
    assert_true(ll->live);
    assert_false(ll->patchable);
    assert_true(ll->n_callers >= 1);
    bool found = false;
    for (size_t i = 0; i < ll->n_callers; i++) found |= strstr(ll->callers[i], "c/live.cc") != NULL;
    assert_true(found);
    sb doc = {0};
    assert_int_equal(rm_write_markdown(&p, &doc), 0);
    /* compact: counts per step open, every table collapsed, live items by seed rule and first caller */
    assert_non_null(strstr(doc.s, "## Steps\n\n| step | deletes | edits | files |\n|---|---|---|---|\n| 1 | "));
    char row[128];
    for (size_t st = 1; st <= p.n_steps; st++) {
        size_t d = 0, e = 0;
        for (size_t i = 0; i < p.n_items; i++) {
            const rm_item *it = &p.items[i];
            if (it->patchable && !it->live && it->step == (int)st) it->kind == RM_FILE ? d++ : e++;
        }
        snprintf(row, sizeof row, "\n| %zu | %zu | %zu | ", st, d, e);
        assert_non_null(strstr(doc.s, row));
        snprintf(row, sizeof row, "\n<details><summary>Step %zu</summary>\n", st);
        assert_non_null(strstr(doc.s, row));
    }
    assert_non_null(strstr(doc.s, "\n| Live legacy code (migrate first; never deleted by this plan) | "));
    assert_non_null(strstr(doc.s, "| file | `c/live_legacy.h` | R-PATH | "));
    size_t open = 0, close = 0;
    for (const char *q = doc.s; (q = strstr(q, "<details>")); q++) open++;
    for (const char *q = doc.s; (q = strstr(q, "</details>")); q++) close++;
    assert_int_equal(open, close);
    assert_true(open > p.n_steps);
    /* no table outside a <details> block but the two summaries */
    size_t tables = 0;
    for (const char *q = doc.s; (q = strstr(q, "\n|---|")); q++) tables++;
    assert_int_equal(tables, open + 2);
    sb_free(&doc);
    rm_plan_free(&p);
    sunset_index_free(ix);
}

static void flags_and_passes(void **state) {
    rm_plan p;
    build(&p, false);
    const rm_item *fl = item(&p, RM_FLAG, "c/flags.cc", "old_flag");
    assert_non_null(fl);
    assert_true(fl->derived);
    assert_false(fl->live);
    assert_int_equal(fl->line, 1);
    assert_non_null(strstr(chain(fl), "read only in legacy code: c/legacy.cc"));
    assert_null(item(&p, RM_FLAG, "c/flags.cc", "both_flag"));
    const rm_item *ps = item(&p, RM_PASS, "c/passes.cc", "old_pass");
    assert_non_null(ps);
    assert_true(ps->derived);
    assert_non_null(strstr(chain(ps), "used only in legacy code: c/legacy.cc"));
    assert_null(item(&p, RM_PASS, "c/passes.cc", "both_pass"));
    rm_plan_free(&p);
}

/* Paddle's conventions are data (settings.cross_file, settings.cmake.sections): without them,
 * the empty test module is no test module, so it is not legacy, no tool-list entry names a
 * removed test, and no CMake command defines a target (SRCS, DEPS are settings), so helper.cc
 * is in no target that goes with legacy_lib and keeps helper.h; the legacy files still go. */
static void conventions_from_settings(void **state) {
    sunset_index *ix = tree_index(false);
    sunset_result r;
    seed_result(&r);
    rm_plan p;
    assert_int_equal(rm_plan_build(ix, NULL, &r, &p), 0);
    assert_null(item(&p, RM_FILE, "t/test_empty_pe.py", NULL));
    assert_null(item(&p, RM_REGISTRATION, "tools/list.py", "test_leaf"));
    assert_null(item(&p, RM_FILE, "c/helper.h", NULL));
    assert_non_null(item(&p, RM_FILE, "c/legacy.h", NULL));
    assert_null(item(&p, RM_TARGET, "c/CMakeLists.txt", "helper_lib"));
    rm_plan_free(&p);
    sunset_index_free(ix);
}

static void independent_of_order(void **state) {
    rm_plan a, b;
    build(&a, false);
    build(&b, true);
    sb ja = {0}, jb = {0};
    assert_int_equal(rm_write_json(&a, &ja), 0);
    assert_int_equal(rm_write_json(&b, &jb), 0);
    assert_string_equal(ja.s, jb.s);
    cJSON *j = cJSON_Parse(ja.s);
    assert_non_null(j);
    cJSON *items = cJSON_GetObjectItem(j, "items");
    assert_int_equal(cJSON_GetArraySize(items), (int)a.n_items);
    cJSON_Delete(j);
    sb_free(&ja);
    sb_free(&jb);
    rm_plan_free(&a);
    rm_plan_free(&b);
}

static void no_leak_on_oom(void **state) {
    sunset_index *ix = tree_index(false);
    sunset_result r;
    seed_result(&r);
    bool ok = false;
    for (long n = 1; n < 100000 && !ok; n++) {
        long before = sunset_alloc_live();
        rm_plan p;
        sunset_alloc_fail_after(n);
        int rc = rm_plan_build(ix, RS, &r, &p);
        sunset_alloc_fail_after(0);
        ok = rc == 0;
        if (ok) rm_plan_free(&p);
        assert_int_equal(sunset_alloc_live(), before);
    }
    assert_true(ok);
    sunset_index_free(ix);
}

static void write_files(const char *dir, const tfile *tree, size_t n) {
    for (size_t i = 0; i < n; i++) {
        char p[512];
        snprintf(p, sizeof p, "%s/%s", dir, tree[i].path);
        for (char *s = p + strlen(dir) + 1; (s = strchr(s, '/')); s++) {
            *s = 0;
            mkdir(p, 0755);
            *s = '/';
        }
        FILE *f = fopen(p, "w");
        assert_non_null(f);
        fputs(tree[i].text, f);
        fclose(f);
    }
}

static void write_tree(const char *dir) { write_files(dir, TREE, N_TREE); }

/* A rule pack's own CMake wrapper (settings.cmake: target_commands, keywords, sections) is read
 * without a rebuild: its MY_DEPS section holds the dependency the frontend's section rule
 * matches, and its MY_SRCS section compiles the legacy source, so the removal plan drops the
 * target with it. The shipped rules know neither keyword. */
static void cmake_wrapper_from_a_pack(void **state) {
    (void)state;
    char dir[] = "/tmp/sunset-rmpack-XXXXXX", bin[PATH_MAX];
    assert_non_null(mkdtemp(dir));
    assert_non_null(realpath(test_bin(), bin));
    static const tfile files[] = {
        {"paddle/fluid/framework/parallel_executor.cc", SUNSET_LANG_CPP,
         "#include \"paddle/fluid/framework/parallel_executor.h\"\nnamespace paddle {\nParallelExecutor::ParallelExecutor() {}\n}\n"},
        {"paddle/fluid/framework/CMakeLists.txt", SUNSET_LANG_CMAKE,
         "my_cc_library(pe_lib MY_SRCS parallel_executor.cc MY_DEPS ssa_graph_executor)\n"},
    };
    char tree[64];
    snprintf(tree, sizeof tree, "%s/tree", dir);
    assert_int_equal(mkdir(tree, 0755), 0);
    write_files(tree, files, sizeof files / sizeof files[0]);
    assert_int_equal(test_sh("mkdir %s/pack && cp rules/*.json %s/pack/ && sed -i "
                             "-e 's/\"target_commands\": \\[/\"target_commands\": [\"my_cc_library\",/' "
                             "-e 's/\"keywords\": \\[/\"keywords\": [\"MY_DEPS\", \"MY_SRCS\",/' "
                             "-e 's/\"sources\": \\[\"SRCS\"/\"sources\": [\"SRCS\", \"MY_SRCS\"/' "
                             "-e 's/\"deps\": \\[\"DEPS\"/\"deps\": [\"DEPS\", \"MY_DEPS\"/' %s/pack/00-settings.json",
                             dir, dir, dir), 0);
    const char *packs[] = {"--rules pack", ""};
    for (int k = 0; k < 2; k++) {
        assert_int_equal(test_sh("cd %s && %s scan --no-config --no-cache -q %s -f json -o s.json tree; test $? -le 1",
                                 dir, bin, packs[k]), 0);
        assert_int_equal(test_sh("cd %s && %s removable --no-config --no-cache %s -f json -o r.json tree",
                                 dir, bin, packs[k]), 0);
        int sees = k == 0 ? 0 : 1; /* grep's exit code: 0 found */
        assert_int_equal(test_sh("grep -q '\"rule\":\"PE-CMAKE-REF\",[^}]*\"path\":\"paddle/fluid/framework/CMakeLists.txt\"' %s/s.json", dir), sees);
        assert_int_equal(test_sh("grep -q '\"kind\": \"target\", [^}]*\"name\": \"pe_lib\", [^}]*"
                                 "\"chain\": \"every source is legacy: paddle/fluid/framework/parallel_executor.cc' %s/r.json",
                                 dir), sees);
    }
    assert_int_equal(test_sh("rm -rf %s", dir), 0);
}

static void patch_contents(void **state) {
    char dir[] = "/tmp/sunset-rm-XXXXXX";
    assert_non_null(mkdtemp(dir));
    write_tree(dir);
    rm_plan p;
    build(&p, false);
    sb d = {0};
    assert_int_equal(rm_write_patch(&p, dir, &d), 0);
    assert_non_null(strstr(d.s, "diff --git a/t/test_leaf.py b/t/test_leaf.py\ndeleted file mode 100644\n"));
    assert_non_null(strstr(d.s, "diff --git a/t/test_empty_pe.py b/t/test_empty_pe.py\ndeleted file mode 100644\n"));
    assert_non_null(strstr(d.s, "diff --git a/c/helper.h b/c/helper.h\ndeleted file mode"));
    /* base.py goes with the unused import of it in a file that stays */
    assert_non_null(strstr(d.s, "diff --git a/t/base.py b/t/base.py\ndeleted file mode"));
    assert_non_null(strstr(d.s, "--- a/t/test_only_imports.py\n+++ b/t/test_only_imports.py\n@@ -1,4 +1,3 @@\n import unittest\n-from base import LegacyBase\n"));
    assert_non_null(strstr(d.s, "--- a/tools/list.py\n+++ b/tools/list.py\n@@ -1,4 +1,3 @@\n L = [\n-    'test_leaf',\n"));
    assert_non_null(strstr(d.s, "-py_test_modules(test_empty_pe MODULES test_empty_pe)\n"));
    assert_null(strstr(d.s, "-py_test_modules(test_other"));
    /* git apply takes it, when git is there */
    if (system("git --version >/dev/null 2>&1") == 0) {
        char pf[600], cmd[1400];
        snprintf(pf, sizeof pf, "%s.patch", dir);
        FILE *f = fopen(pf, "w");
        assert_non_null(f);
        fwrite(d.s, 1, d.len, f);
        fclose(f);
        snprintf(cmd, sizeof cmd, "cd %s && git init -q . && git apply %s", dir, pf);
        assert_int_equal(system(cmd), 0);
        char gone[600];
        snprintf(gone, sizeof gone, "%s/t/test_leaf.py", dir);
        assert_int_not_equal(access(gone, F_OK), 0);
        snprintf(gone, sizeof gone, "%s/t/base.py", dir);
        assert_int_not_equal(access(gone, F_OK), 0);
        unlink(pf);
    }
    char rm[600];
    snprintf(rm, sizeof rm, "rm -rf %s", dir);
    assert_int_equal(system(rm), 0);
    sb_free(&d);
    rm_plan_free(&p);
}

/* ---- end to end on the sample tree ---- */

static char *run(const char *cmd) {
    FILE *f = popen(cmd, "r");
    if (!f) return NULL;
    sb b = {0};
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) sb_putn(&b, buf, n);
    pclose(f);
    if (!b.s) sb_puts(&b, "");
    return sb_take(&b);
}

/* The item of that kind, path and (optional) name in a JSON plan, or NULL. */
static cJSON *jitem(cJSON *plan, const char *kind, const char *path, const char *name) {
    cJSON *it;
    cJSON_ArrayForEach(it, cJSON_GetObjectItem(plan, "items")) {
        if (strcmp(cJSON_GetObjectItem(it, "kind")->valuestring, kind) != 0) continue;
        if (strcmp(cJSON_GetObjectItem(it, "path")->valuestring, path) != 0) continue;
        cJSON *n = cJSON_GetObjectItem(it, "name");
        if (name && (!cJSON_IsString(n) || strcmp(n->valuestring, name) != 0)) continue;
        return it;
    }
    return NULL;
}

static bool jis(cJSON *it, const char *key, const char *value) {
    cJSON *v = cJSON_GetObjectItem(it, key);
    return v && cJSON_IsString(v) && !strcmp(v->valuestring, value);
}

/* The rows of paddle-mini.EXPECTED.md "Additions for the cross-file layer". */
static void sample_tree_expectations(cJSON *jb) {
    cJSON *it = jitem(jb, "file", "test/legacy_test/test_compiled_mnist_cpu.py", NULL);
    assert_non_null(it);
    assert_true(cJSON_IsTrue(cJSON_GetObjectItem(it, "derived")));
    assert_true(jis(it, "status", "dead"));
    assert_non_null(strstr(cJSON_GetObjectItem(it, "chain")->valuestring,
                           "TestCompiledMnistCPU derives TestCompiledMnistBase (test/legacy_test/compiled_mnist_base.py:14)"));
    assert_non_null(jitem(jb, "file", "test/legacy_test/compiled_mnist_base.py", NULL));
    assert_null(jitem(jb, "file", "test/collective/test_collective_mnist.py", NULL));
    assert_null(jitem(jb, "class", "test/collective/test_collective_mnist.py", NULL));
    assert_null(jitem(jb, "file", "test/collective/collective_test_base.py", NULL));
    it = jitem(jb, "file", "paddle/fluid/framework/details/graph_run_stats.h", NULL);
    assert_non_null(it);
    assert_true(jis(it, "status", "dead"));
    assert_true(cJSON_IsTrue(cJSON_GetObjectItem(it, "derived")));
    assert_null(jitem(jb, "file", "paddle/fluid/framework/details/op_run_timer.h", NULL));
    assert_null(jitem(jb, "file", "paddle/fluid/framework/details/op_run_timer.cc", NULL));
    it = jitem(jb, "target", "paddle/fluid/framework/details/ssa_extras.cmake", "graph_run_stats");
    assert_non_null(it);
    assert_true(cJSON_IsTrue(cJSON_GetObjectItem(it, "derived")));
    assert_null(jitem(jb, "target", "paddle/fluid/framework/details/ssa_extras.cmake", "op_run_timer"));
    it = jitem(jb, "flag", "paddle/fluid/platform/flags_executor.cc", "graph_run_stats_interval");
    assert_non_null(it);
    assert_true(jis(it, "status", "dead"));
    assert_null(jitem(jb, "flag", "paddle/fluid/platform/flags_executor.cc", "op_run_timer_enabled"));
    assert_non_null(jitem(jb, "pass", "paddle/fluid/framework/ir/graph_stats_pass.cc", "graph_stats_pass"));
    assert_null(jitem(jb, "pass", "paddle/fluid/framework/ir/graph_stats_pass.cc", "graph_viz_check_pass"));
    assert_null(jitem(jb, "file", "test/legacy_test/test_fuse_elewise_add_act_pass.py", NULL));
    it = jitem(jb, "import", "test/legacy_test/test_fuse_elewise_add_act_pass.py", NULL);
    assert_non_null(it);
    assert_int_equal(cJSON_GetObjectItem(it, "line")->valueint, 5);
    it = jitem(jb, "file", "test/legacy_test/test_parallel_executor_transformer.py", NULL);
    assert_non_null(it);
    assert_true(jis(it, "status", "live"));
    assert_true(cJSON_GetArraySize(cJSON_GetObjectItem(it, "live_callers")) >= 1);
    it = jitem(jb, "file", "test/legacy_test/seresnext_net.py", NULL);
    assert_non_null(it);
    assert_true(jis(it, "status", "dead"));
    assert_true(cJSON_IsTrue(cJSON_GetObjectItem(it, "derived")));
    assert_true(jis(jitem(jb, "file", "test/legacy_test/test_parallel_executor_profiler.py", NULL), "status", "dead"));
    assert_true(jis(jitem(jb, "file", "test/cpp/fluid/framework/details/reduce_op_handle_test.cc", NULL), "status", "dead"));
    /* ParallelExecutor itself: legacy, but CompiledProgram's binding still uses it */
    assert_true(jis(jitem(jb, "file", "paddle/fluid/framework/parallel_executor.h", NULL), "status", "live"));
    /* issue 16: files listed in a CMake variable go with their entries and their target */
    const char *fused[] = {"fused_all_reduce_op_handle.cc", "fused_broadcast_op_handle.cc"};
    for (size_t i = 0; i < 2; i++) {
        char path[128];
        snprintf(path, sizeof path, "paddle/fluid/framework/details/%s", fused[i]);
        it = jitem(jb, "file", path, NULL);
        assert_non_null(it);
        assert_true(jis(it, "status", "dead") && cJSON_IsTrue(cJSON_GetObjectItem(it, "patchable")));
        it = jitem(jb, "registration", "paddle/fluid/framework/details/CMakeLists.txt", fused[i]);
        assert_non_null(it);
        assert_true(cJSON_IsTrue(cJSON_GetObjectItem(it, "patchable")));
    }
    it = jitem(jb, "target", "paddle/fluid/framework/details/CMakeLists.txt", "fused_op_handle");
    assert_true(it && cJSON_IsTrue(cJSON_GetObjectItem(it, "patchable")));
    /* the header only the fused sources include goes with them */
    assert_non_null(jitem(jb, "file", "paddle/fluid/framework/details/fused_broadcast_op_handle.h", NULL));
    /* passes the standalone executor applies by name are not legacy, nor is what they build on,
     * though only the legacy async executor's target links them */
    const char *inplace[] = {"buffer_shared_inplace_op_pass.cc", "inplace_addto_op_pass.cc", "memory_reuse_pass.cc",
                             "memory_reuse_pass.h"};
    for (size_t i = 0; i < 4; i++) {
        char path[128];
        snprintf(path, sizeof path, "paddle/fluid/framework/ir/memory_optimize_pass/%s", inplace[i]);
        assert_null(jitem(jb, "file", path, NULL));
        assert_null(jitem(jb, "class", path, NULL));
    }
    assert_null(jitem(jb, "pass", "paddle/fluid/framework/ir/memory_optimize_pass/buffer_shared_inplace_op_pass.cc", NULL));
    assert_null(jitem(jb, "target", "paddle/fluid/framework/ir/memory_optimize_pass/CMakeLists.txt", NULL));
}

/* The file's contents in the patched copy contain `want` (or, with absent, do not). */
static void file_has(const char *dir, const char *path, const char *want, bool absent) {
    char p[600];
    snprintf(p, sizeof p, "%s/%s", dir, path);
    FILE *f = fopen(p, "r");
    assert_non_null(f);
    char buf[16384];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    if ((strstr(buf, want) != NULL) == absent) fprintf(stderr, "%s: %s `%s`\n", path, absent ? "still has" : "lacks", want);
    assert_true((strstr(buf, want) != NULL) != absent);
}

/* The Done-when cases of issue 16 in the patched copy of paddle-mini. */
static void sample_tree_patched(const char *dir) {
    const char *cm = "paddle/fluid/framework/details/CMakeLists.txt";
    file_has(dir, cm, "fused_all_reduce_op_handle.cc", true); /* the variable's entries */
    file_has(dir, cm, "fused_broadcast_op_handle.cc", true);
    file_has(dir, cm, "fused_op_handle\n", true);                    /* its target */
    file_has(dir, cm, "    gather_op_handle.cc)", false);            /* live entries stay */
    /* a test among others in set_tests_properties: only its name goes, and the command, which
     * now fits there, is on one line as cmake-format lays it out */
    file_has(dir, "test/legacy_test/CMakeLists.txt",
             "\nset_tests_properties(test_py_func_op PROPERTIES LABELS \"RUN_TYPE=EXCLUSIVE\")\n", false);
    file_has(dir, "test/legacy_test/CMakeLists.txt", "test_ir_inplace_pass", true);
    /* a kept header's include of a deleted one */
    file_has(dir, "paddle/fluid/framework/details/ssa_graph_executor.h", "fetch_op_handle.h", true);
    /* the passes applied by name, and their targets, stay */
    file_has(dir, "paddle/fluid/framework/ir/memory_optimize_pass/CMakeLists.txt", "buffer_shared_inplace_op_pass", false);
    file_has(dir, "python/paddle/base/executor.py", "\"buffer_shared_inplace_pass\"", false);
}

static void sample_tree_patch(void **state) {
    const char *bin = getenv("SUNSET_BIN");
    if (!bin || access(bin, X_OK) != 0 || system("git --version >/dev/null 2>&1") != 0) {
        skip();
        return;
    }
    char dir[] = "/tmp/sunset-mini-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char cmd[2048];
    snprintf(cmd, sizeof cmd,
             "cp -r testdata/paddle-mini/. %s/ && cd %s && git init -q . && git add -A && "
             "git -c user.name=t -c user.email=t@t commit -qm base",
             dir, dir);
    assert_int_equal(system(cmd), 0);
    /* the plan before */
    snprintf(cmd, sizeof cmd, "%s removable %s -f json -q", bin, dir);
    char *before = run(cmd);
    cJSON *jb = cJSON_Parse(before);
    assert_non_null(jb);
    cJSON *sum = cJSON_GetObjectItem(jb, "summary");
    assert_true(cJSON_GetObjectItem(sum, "dead_files")->valueint > 10);
    sample_tree_expectations(jb);
    /* the patch applies */
    snprintf(cmd, sizeof cmd, "%s removable %s --patch -q -o %s.patch && cd %s && git apply %s.patch", bin, dir,
             dir, dir, dir);
    assert_int_equal(system(cmd), 0);
    /* every changed path is a patchable item of the plan */
    snprintf(cmd, sizeof cmd, "cd %s && git status --porcelain", dir);
    char *st = run(cmd);
    size_t changed = 0;
    for (char *line = strtok(st, "\n"); line; line = strtok(NULL, "\n")) {
        const char *path = line + 3;
        bool planned = false;
        cJSON *it;
        cJSON_ArrayForEach(it, cJSON_GetObjectItem(jb, "items")) {
            if (strcmp(cJSON_GetObjectItem(it, "path")->valuestring, path) == 0 &&
                cJSON_IsTrue(cJSON_GetObjectItem(it, "patchable")))
                planned = true;
        }
        if (!planned) fprintf(stderr, "changed outside the plan: %s\n", path);
        assert_true(planned);
        changed++;
    }
    assert_true(changed > 10);
    sample_tree_patched(dir);
    /* the patched copy passes the independent reference check */
    snprintf(cmd, sizeof cmd, "sh scripts/check-refs.sh %s %s.patch 2>/dev/null", dir, dir);
    assert_int_equal(system(cmd), 0);
    /* re-scan: the patched whole files are gone, only unpatched ones can remain */
    snprintf(cmd, sizeof cmd, "%s removable %s -f json -q", bin, dir);
    char *after = run(cmd);
    cJSON *ja = cJSON_Parse(after);
    assert_non_null(ja);
    cJSON *it;
    cJSON_ArrayForEach(it, cJSON_GetObjectItem(ja, "items")) {
        if (strcmp(cJSON_GetObjectItem(it, "action")->valuestring, "delete-file") != 0) continue;
        const char *path = cJSON_GetObjectItem(it, "path")->valuestring;
        /* still there: it must have been listed as not patchable before */
        cJSON *prev;
        bool was_unpatched = false;
        cJSON_ArrayForEach(prev, cJSON_GetObjectItem(jb, "items")) {
            if (!strcmp(cJSON_GetObjectItem(prev, "path")->valuestring, path) &&
                !strcmp(cJSON_GetObjectItem(prev, "kind")->valuestring, "file"))
                was_unpatched = !cJSON_IsTrue(cJSON_GetObjectItem(prev, "patchable"));
        }
        assert_true(was_unpatched);
    }
    cJSON_Delete(ja);
    cJSON_Delete(jb);
    sunset_free(before);
    sunset_free(after);
    sunset_free(st);
    snprintf(cmd, sizeof cmd, "rm -rf %s %s.patch", dir, dir);
    assert_int_equal(system(cmd), 0);
}

/* ---- re-exported names (reexport.c) ---- */

/* pe_base.py (legacy by a path finding) defines DeviceType as an alias of paddle.base.core's;
 * mid_base.py passes it on; net.py, live, takes it from mid_base. */
static const char RE_PE_BASE[] = "import unittest\nfrom paddle.base import core\nDeviceType = core.DeviceType\n"
                                 "class PEBase(unittest.TestCase):\n    pass\n";
static const char RE_PE_BASE_LOCAL[] = "import unittest\nclass _Dev:\n    CPU = 0\nDeviceType = _Dev.CPU\n"
                                       "class PEBase(unittest.TestCase):\n    pass\n";

/* The index of tree[n]. */
static sunset_index *index_of(const tfile *tree, size_t n) {
    sunset_index *ix = sunset_index_new();
    if (ix) sunset_index_set_roles(ix, &RS->macro_roles);
    assert_non_null(ix);
    for (size_t i = 0; i < n; i++) {
        sunset_source s = {tree[i].path, tree[i].path, tree[i].text, strlen(tree[i].text), tree[i].lang};
        assert_int_equal(sunset_index_add(ix, &s), 0);
    }
    sunset_index_finish(ix);
    return ix;
}

/* The plan of tree[n] seeded by findings seeds[ns], and its patch. */
static void plan_of(const tfile *tree, size_t n, sunset_finding *seeds, size_t ns, rm_plan *p, sb *patch) {
    sunset_index *ix = index_of(tree, n);
    sunset_result r = {0};
    r.findings = seeds;
    r.n_findings = ns;
    assert_int_equal(rm_plan_build(ix, RS, &r, p), 0);
    sunset_index_free(ix);
    char dir[] = "/tmp/sunset-rex-XXXXXX";
    assert_non_null(mkdtemp(dir));
    write_files(dir, tree, n);
    assert_int_equal(rm_write_patch(p, dir, patch), 0);
    char rm[600];
    snprintf(rm, sizeof rm, "rm -rf %s", dir);
    assert_int_equal(system(rm), 0);
}

/* The plan of tree[n] seeded by a path finding on `seed`, and its patch. */
static void seeded_plan(const tfile *tree, size_t n, const char *seed_path, rm_plan *p, sb *patch) {
    /* the finding only borrows the path here */
    sunset_finding seed = {.rule_id = "R-PATH", .path = (char *)seed_path, .span = {1, 1, 1, 1}, .matched = (char *)seed_path};
    plan_of(tree, n, &seed, 1, p, patch);
}

static void pe_plan(const tfile *tree, size_t n, rm_plan *p, sb *patch) { seeded_plan(tree, n, "t/pe_base.py", p, patch); }

static void reexport_plan(const char *pe_base, rm_plan *p, sb *patch) {
    const tfile tree[] = {
        {"python/paddle/base/core.py", SUNSET_LANG_PYTHON, "from .libpaddle import *\n"},
        {"t/pe_base.py", SUNSET_LANG_PYTHON, pe_base},
        {"t/mid_base.py", SUNSET_LANG_PYTHON, "from pe_base import DeviceType, PEBase\nclass MidBase(PEBase):\n    pass\n"},
        {"t/net.py", SUNSET_LANG_PYTHON,
         "import os\ntry:\n    from mid_base import (\n        DeviceType,\n    )\nexcept ImportError:\n    raise\n"
         "def net(d=DeviceType.CPU):\n    return os.sep, d\n"},
        {"t/test_net.py", SUNSET_LANG_PYTHON,
         "import unittest\nfrom net import net\nfrom paddle.base import core\nclass TestNet(unittest.TestCase):\n"
         "    def test_a(self):\n        net(core.DeviceType.CPU)\n"},
    };
    pe_plan(tree, sizeof tree / sizeof tree[0], p, patch);
}

/* A dead legacy class in a file that stays is cut out with the import only it needed; one
 * with a decorator, or whose name the file uses elsewhere, or another file imports, is not. */
static void dead_class_cut(void **state) {
    const char *pe = "import unittest\nclass PEBase(unittest.TestCase):\n    pass\n";
    const char *mixed = "import unittest\n\nfrom pe_base import PEBase\n\n\nclass TestPE(PEBase):\n"
                        "    def test_a(self):\n        pass\n\n\nclass TestLive(unittest.TestCase):\n"
                        "    def test_b(self):\n        pass\n";
    const tfile tree[] = {{"t/pe_base.py", SUNSET_LANG_PYTHON, pe}, {"t/test_mixed.py", SUNSET_LANG_PYTHON, mixed}};
    rm_plan p;
    sb d = {0};
    pe_plan(tree, 2, &p, &d);
    const rm_item *k = item(&p, RM_CLASS, "t/test_mixed.py", "TestPE");
    assert_non_null(k);
    assert_true(k->patchable);
    assert_true(k->step > 0);
    assert_non_null(strstr(d.s, "diff --git a/t/pe_base.py b/t/pe_base.py\ndeleted file mode"));
    /* the class, the blank lines before it, and the import only it used */
    assert_non_null(strstr(d.s, "@@ -1,11 +1,5 @@\n import unittest\n \n-from pe_base import PEBase\n-\n-\n"
                                "-class TestPE(PEBase):\n-    def test_a(self):\n-        pass\n \n \n"
                                " class TestLive(unittest.TestCase):\n"));
    sb_free(&d);
    rm_plan_free(&p);
    /* kept: decorated; named outside the class; imported from the module by another file */
    const char *keep[] = {
        "import unittest\nfrom pe_base import PEBase\n@unittest.skip('x')\nclass TestPE(PEBase):\n    pass\n"
        "class TestLive(unittest.TestCase):\n    pass\n",
        "import unittest\nfrom pe_base import PEBase\nclass TestPE(PEBase):\n    pass\nALL = [TestPE]\n"
        "class TestLive(unittest.TestCase):\n    pass\n",
        "import unittest\nfrom pe_base import PEBase\nclass TestPE(PEBase):\n    pass\n"
        "class TestLive(unittest.TestCase):\n    pass\n",
    };
    for (size_t i = 0; i < 3; i++) {
        const tfile t2[] = {{"t/pe_base.py", SUNSET_LANG_PYTHON, pe},
                            {"t/test_mixed.py", SUNSET_LANG_PYTHON, keep[i]},
                            {"t/user.py", SUNSET_LANG_PYTHON, i == 2 ? "from test_mixed import TestPE\nX = TestPE\n" : "X = 1\n"}};
        pe_plan(t2, 3, &p, &d);
        k = item(&p, RM_CLASS, "t/test_mixed.py", "TestPE");
        assert_true(!k || !k->patchable);
        assert_null(strstr(d.s ? d.s : "", "-class TestPE"));
        assert_null(strstr(d.s ? d.s : "", "-from pe_base import PEBase"));
        assert_null(strstr(d.s ? d.s : "", "a/t/pe_base.py"));
        sb_free(&d);
        rm_plan_free(&p);
    }
}

static void reexport_rewrite(void **state) {
    rm_plan p;
    sb d = {0};
    reexport_plan(RE_PE_BASE, &p, &d);
    /* both legacy modules go: the one name net.py needs comes from where it is defined */
    const rm_item *pe = item(&p, RM_FILE, "t/pe_base.py", NULL), *mid = item(&p, RM_FILE, "t/mid_base.py", NULL);
    assert_non_null(pe);
    assert_non_null(mid);
    assert_false(pe->live);
    assert_false(mid->live);
    assert_true(pe->patchable && mid->patchable);
    const rm_item *imp = item(&p, RM_IMPORT, "t/net.py", "t/mid_base.py");
    assert_non_null(imp);
    assert_string_equal(imp->replace, "from paddle.base.core import DeviceType");
    assert_int_equal(imp->line, 3);
    assert_int_equal(imp->end, 5);
    assert_non_null(strstr(chain(imp), "becomes `from paddle.base.core import DeviceType`"));
    /* the statement becomes one line at its own indentation */
    assert_non_null(strstr(d.s, "-    from mid_base import (\n+    from paddle.base.core import DeviceType\n"
                                "-        DeviceType,\n-    )\n"));
    assert_non_null(strstr(d.s, "diff --git a/t/pe_base.py b/t/pe_base.py\ndeleted file mode"));
    assert_null(item(&p, RM_FILE, "python/paddle/base/core.py", NULL));
    sb_free(&d);
    rm_plan_free(&p);
    /* an alias of something pe_base defines itself has nowhere else to come from */
    reexport_plan(RE_PE_BASE_LOCAL, &p, &d);
    mid = item(&p, RM_FILE, "t/mid_base.py", NULL);
    assert_non_null(mid);
    assert_true(mid->live);
    pe = item(&p, RM_FILE, "t/pe_base.py", NULL);
    assert_non_null(pe);
    assert_true(pe->live || (pe->after && !pe->patchable));
    assert_null(strstr(d.s ? d.s : "", "t/pe_base.py"));
    assert_null(strstr(d.s ? d.s : "", "+    from"));
    sb_free(&d);
    rm_plan_free(&p);
}

/* An operator is run by its type name: a live file naming it (a type string, USE_OP_ITSELF)
 * keeps the legacy file registering it; one only legacy code names goes. Likewise a flag that
 * live code sets through the environment. */
static void ops_by_type_name(void **state) {
    const tfile tree[] = {
        {"op/launch_op.cc", SUNSET_LANG_CPP,
         "#include \"op/launch_op.h\"\nREGISTER_OPERATOR(\n    legacy_launch,\n    LaunchOp);\n"
         "PD_REGISTER_STRUCT_KERNEL(legacy_launch, CPU, ALL_LAYOUT, LaunchKernel, float) {}\n"
         "REGISTER_OP_WITHOUT_GRADIENT(legacy_only, OnlyOp);\n"
         "PHI_DEFINE_EXPORTED_bool(legacy_env_flag, false, \"x\");\n"
         "PHI_DEFINE_EXPORTED_bool(legacy_unread_flag, false, \"y\");\n"},
        {"python/run.py", SUNSET_LANG_PYTHON, "import os\nos.environ['FLAGS_legacy_env_flag'] = '1'\n"},
        {"op/launch_op.h", SUNSET_LANG_CPP, "class LaunchOp {};\n"},
        {"exe/interpreter.cc", SUNSET_LANG_CPP, "bool IsLaunch(const Op &op) { return op.Type() == \"legacy_launch\"; }\n"},
        {"op/CMakeLists.txt", SUNSET_LANG_CMAKE,
         "cc_library(launch_op SRCS launch_op.cc)\ncc_library(interpreter SRCS ../exe/interpreter.cc)\n"},
    };
    rm_plan p;
    sb d = {0};
    seeded_plan(tree, sizeof tree / sizeof tree[0], "op/launch_op.cc", &p, &d);
    const rm_item *f = item(&p, RM_FILE, "op/launch_op.cc", NULL);
    assert_non_null(f);
    assert_true(f->live);
    const rm_item *op = item(&p, RM_OP, "op/launch_op.cc", "legacy_launch");
    assert_non_null(op);
    assert_int_equal(op->line, 2);
    assert_true(op->live);
    bool found = false;
    for (size_t i = 0; i < op->n_callers; i++) found |= strstr(op->callers[i], "exe/interpreter.cc uses legacy_launch") != NULL;
    assert_true(found);
    op = item(&p, RM_OP, "op/launch_op.cc", "legacy_only");
    assert_non_null(op);
    assert_false(op->live);
    assert_null(strstr(d.s ? d.s : "", "a/op/launch_op.cc"));
    /* a flag set through the environment by live code is read by it */
    const rm_item *fl = item(&p, RM_FLAG, "op/launch_op.cc", "legacy_env_flag");
    assert_true(fl && fl->live);
    fl = item(&p, RM_FLAG, "op/launch_op.cc", "legacy_unread_flag");
    assert_true(fl && !fl->live);
    sb_free(&d);
    rm_plan_free(&p);
    /* a patch deleting the only registration that a kept file links with USE_OP_ITSELF dangles */
    const tfile linked[] = {
        {"op/launch_op.cc", SUNSET_LANG_CPP, "REGISTER_OPERATOR(legacy_launch, LaunchOp);\n"},
        {"t/launch_test.cc", SUNSET_LANG_CPP, "#include \"gtest/gtest.h\"\nUSE_OP_ITSELF(legacy_launch);\n"},
    };
    sunset_index *ix = sunset_index_new();
    if (ix) sunset_index_set_roles(ix, &RS->macro_roles);
    assert_non_null(ix);
    for (size_t i = 0; i < 2; i++) {
        sunset_source src = {linked[i].path, linked[i].path, linked[i].text, strlen(linked[i].text), linked[i].lang};
        assert_int_equal(sunset_index_add(ix, &src), 0);
    }
    sunset_index_finish(ix);
    const char *patch = "diff --git a/op/launch_op.cc b/op/launch_op.cc\ndeleted file mode 100644\n"
                        "--- a/op/launch_op.cc\n+++ /dev/null\n@@ -1,1 +0,0 @@\n"
                        "-REGISTER_OPERATOR(legacy_launch, LaunchOp);\n";
    size_t n_dangling = 0;
    assert_int_equal(rm_patch_check(ix, RS, patch, strlen(patch), &d, &n_dangling), 0);
    assert_int_equal(n_dangling, 1);
    assert_non_null(strstr(d.s, "t/launch_test.cc:2: names deleted file op/launch_op.cc"));
    sb_free(&d);
    sunset_index_free(ix);
}

/* The check of a patch against tree[n]: its dangling references' report (owned by d). */
static size_t check_patch(const tfile *tree, size_t n, const char *patch, sb *d) {
    sunset_index *ix = index_of(tree, n);
    size_t n_dangling = 0;
    assert_int_equal(rm_patch_check(ix, RS, patch, strlen(patch), d, &n_dangling), 0);
    sunset_index_free(ix);
    return n_dangling;
}

#define GATHER_CC "paddle/fluid/framework/details/gather_op_handle.cc"

/* Link-time references (settings.cross_file.links): deleting the only REGISTER_FILE_SYMBOLS(x)
 * or PD_REGISTER_KERNEL(x ...) takes the DECLARE_FILE_SYMBOLS(x),
 * and PD_DECLARE_KERNEL(x ...) lines of files that stay with it (pybind.cc:240 of the 2024-05-09
 * tree), and a declaration sharing its line with another keeps the file. */
static void link_time_references(void **state) {
    tfile tree[] = {
        {GATHER_CC, SUNSET_LANG_CPP,
         "#include \"paddle/fluid/framework/details/gather_op_handle.h\"\n"
         "REGISTER_FILE_SYMBOLS(gather_op_handle);\nnamespace paddle {\nvoid Gather() {}\n}  // namespace paddle\n"
         "PD_REGISTER_KERNEL(legacy_gather,\n                   CPU,\n                   ALL_LAYOUT,\n"
         "                   phi::GatherKernel,\n                   float) {}\n"
},
        {"paddle/fluid/framework/details/gather_op_handle.h", SUNSET_LANG_CPP, "class GatherOpHandle {\n};\n"},
        {"paddle/fluid/framework/op_compatible_info.cc", SUNSET_LANG_CPP,
         "REGISTER_FILE_SYMBOLS(op_compatible_info);\n"},
        {"paddle/fluid/pybind/pybind.cc", SUNSET_LANG_CPP,
         "DECLARE_FILE_SYMBOLS(op_compatible_info);\nDECLARE_FILE_SYMBOLS(gather_op_handle);\n\n"
         "namespace paddle {\nnamespace pybind {\nint x;\n}  // namespace pybind\n}  // namespace paddle\n"},
        {"test/cpp/gather_kernel_test.cc", SUNSET_LANG_CPP,
         "#include \"gtest/gtest.h\"\nPD_DECLARE_KERNEL(legacy_gather, CPU, ALL_LAYOUT);\n"
         "TEST(Gather, Run) {}\n"},
    };
    size_t n = sizeof tree / sizeof tree[0];
    rm_plan p;
    sb d = {0};
    seeded_plan(tree, n, GATHER_CC, &p, &d);
    const rm_item *f = item(&p, RM_FILE, GATHER_CC, NULL);
    assert_non_null(f);
    assert_true(f->patchable);
    assert_null(f->after);
    const rm_item *decl = item(&p, RM_IMPORT, "paddle/fluid/pybind/pybind.cc", GATHER_CC);
    assert_non_null(decl);
    assert_int_equal(decl->line, 2);
    assert_true(decl->patchable);
    assert_non_null(strstr(chain(decl), "declares and links gather_op_handle, defined only in " GATHER_CC));
    assert_non_null(d.s);
    assert_non_null(strstr(d.s, "\n-DECLARE_FILE_SYMBOLS(gather_op_handle);\n"));
    assert_non_null(strstr(d.s, "\n DECLARE_FILE_SYMBOLS(op_compatible_info);\n"));
    assert_non_null(strstr(d.s, "\n-PD_DECLARE_KERNEL(legacy_gather, CPU, ALL_LAYOUT);\n"));
    /* the patch written checks clean; the same deletion without its edits dangles, each named */
    sb r = {0};
    assert_int_equal(check_patch(tree, n, d.s, &r), 0);
    sb_free(&r);
    const char *bare = "diff --git a/" GATHER_CC " b/" GATHER_CC "\ndeleted file mode 100644\n"
                       "--- a/" GATHER_CC "\n+++ /dev/null\n@@ -1,2 +0,0 @@\n"
                       "-#include \"paddle/fluid/framework/details/gather_op_handle.h\"\n"
                       "-REGISTER_FILE_SYMBOLS(gather_op_handle);\n";
    assert_int_equal(check_patch(tree, n, bare, &r), 2);
    assert_non_null(strstr(r.s, "paddle/fluid/pybind/pybind.cc:2: names deleted file " GATHER_CC));
    assert_non_null(strstr(r.s, "test/cpp/gather_kernel_test.cc:2: names deleted file " GATHER_CC));
    sb_free(&r);
    sb_free(&d);
    rm_plan_free(&p);
    /* two declarations on one line: no line edit removes one alone, so the definition stays */
    tree[3].text = "DECLARE_FILE_SYMBOLS(op_compatible_info); DECLARE_FILE_SYMBOLS(gather_op_handle);\n";
    seeded_plan(tree, n, GATHER_CC, &p, &d);
    f = item(&p, RM_FILE, GATHER_CC, NULL);
    assert_non_null(f);
    assert_false(f->patchable);
    assert_non_null(f->after);
    assert_non_null(strstr(f->after, "paddle/fluid/pybind/pybind.cc:1 still names it"));
    assert_null(strstr(d.s ? d.s : "", "a/" GATHER_CC));
    sb_free(&d);
    rm_plan_free(&p);
}

/* --check-patch reads renames, copies and mode changes (a `git mv` of a header leaves its
 * includes dangling), and rm_patch_applies refuses a patch already applied or not applying. */
static const tfile MOVED[] = {
    {"fw/details/gather_op_handle.h", SUNSET_LANG_CPP, "class GatherOpHandle {\n};\n"},
    {"fw/details/gather_op_handle.cc", SUNSET_LANG_CPP,
     "#include \"fw/details/gather_op_handle.h\"\nint g() { GatherOpHandle h; return 0; }\n"},
    {"test/gather_test.cc", SUNSET_LANG_CPP,
     "#include \"fw/details/gather_op_handle.h\"\nTEST(G, R) { GatherOpHandle h; }\n"},
    {"fw/run.sh", SUNSET_LANG_SHELL, "echo run\n"},
};
#define N_MOVED (sizeof MOVED / sizeof MOVED[0])

static void renames_copies_modes(void **state) {
    const char *rename = "diff --git a/fw/details/gather_op_handle.h b/fw/details/op_handle.h\n"
                         "similarity index 100%\nrename from fw/details/gather_op_handle.h\n"
                         "rename to fw/details/op_handle.h\n";
    sb r = {0};
    assert_int_equal(check_patch(MOVED, N_MOVED, rename, &r), 2);
    assert_non_null(strstr(r.s, "fw/details/gather_op_handle.cc:1: names fw/details/gather_op_handle.h, which the "
                                "patch renames to fw/details/op_handle.h\n"));
    assert_non_null(strstr(r.s, "test/gather_test.cc:1: names fw/details/gather_op_handle.h"));
    sb_free(&r);
    /* the rename with its includes updated (a hunk after the rename's headers) checks clean */
    const char *whole = "diff --git a/fw/details/gather_op_handle.h b/fw/details/op_handle.h\n"
                        "similarity index 100%\nrename from fw/details/gather_op_handle.h\n"
                        "rename to fw/details/op_handle.h\n"
                        "diff --git a/fw/details/gather_op_handle.cc b/fw/details/gather_op_handle.cc\n"
                        "--- a/fw/details/gather_op_handle.cc\n+++ b/fw/details/gather_op_handle.cc\n"
                        "@@ -1,2 +1,2 @@\n-#include \"fw/details/gather_op_handle.h\"\n"
                        "+#include \"fw/details/op_handle.h\"\n int g() { GatherOpHandle h; return 0; }\n"
                        "diff --git a/test/gather_test.cc b/test/gather_test.cc\n"
                        "--- a/test/gather_test.cc\n+++ b/test/gather_test.cc\n@@ -1 +1 @@\n"
                        "-#include \"fw/details/gather_op_handle.h\"\n+#include \"fw/details/op_handle.h\"\n";
    assert_int_equal(check_patch(MOVED, N_MOVED, whole, &r), 0);
    sb_free(&r);
    /* a copy deletes nothing; a mode change is no hunk and no deletion */
    const char *copy = "diff --git a/fw/details/gather_op_handle.h b/fw/details/copy.h\n"
                       "similarity index 100%\ncopy from fw/details/gather_op_handle.h\ncopy to fw/details/copy.h\n"
                       "diff --git a/fw/run.sh b/fw/run.sh\nold mode 100644\nnew mode 100755\n";
    assert_int_equal(check_patch(MOVED, N_MOVED, copy, &r), 0);
    assert_int_equal(r.len, 0);
    sb_free(&r);
    /* on disk: the rename and the edits apply; once applied they are refused as such; a hunk
     * whose lines are not in the file does not apply */
    char dir[] = "/tmp/sunset-apply-XXXXXX";
    assert_non_null(mkdtemp(dir));
    write_files(dir, MOVED, N_MOVED);
    assert_int_equal(rm_patch_applies(dir, whole, strlen(whole), &r), 0);
    assert_int_equal(rm_patch_applies(dir, copy, strlen(copy), &r), 0);
    assert_int_equal(r.len, 0);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "cd %s && mv fw/details/gather_op_handle.h fw/details/op_handle.h && "
                              "sed -i 's/gather_op_handle.h/op_handle.h/' fw/details/gather_op_handle.cc test/gather_test.cc",
             dir);
    assert_int_equal(system(cmd), 0);
    assert_int_equal(rm_patch_applies(dir, whole, strlen(whole), &r), RM_PATCH_APPLIED);
    assert_non_null(strstr(r.s, "1: already applied (fw/details/gather_op_handle.h and the rest)"));
    sb_free(&r);
    const char *bin = getenv("SUNSET_BIN");
    if (bin && access(bin, X_OK) == 0) {
        /* the command refuses it: exit 2, saying so, and no dangling count */
        snprintf(cmd, sizeof cmd, "%s/whole.patch", dir);
        FILE *pf = fopen(cmd, "w");
        assert_non_null(pf);
        fputs(whole, pf);
        fclose(pf);
        snprintf(cmd, sizeof cmd, "%s removable %s --no-cache --check-patch %s/whole.patch 2>&1; echo rc=$?", bin,
                 dir, dir);
        char *out = run(cmd);
        assert_non_null(strstr(out, "whole.patch:1: already applied (fw/details/gather_op_handle.h and the rest)\n"));
        assert_non_null(strstr(out, "rc=2\n"));
        assert_null(strstr(out, "dangling"));
        sunset_free(out);
        snprintf(cmd, sizeof cmd, "rm %s/whole.patch", dir);
        assert_int_equal(system(cmd), 0);
    }
    /* half applied: the rename done, one include not */
    snprintf(cmd, sizeof cmd, "cd %s && sed -i 's/op_handle.h/gather_op_handle.h/' test/gather_test.cc", dir);
    assert_int_equal(system(cmd), 0);
    assert_int_equal(rm_patch_applies(dir, whole, strlen(whole), &r), RM_PATCH_NOT_APPLYING);
    assert_non_null(strstr(r.s, "does not apply: partly applied already"));
    sb_free(&r);
    const char *stale = "diff --git a/fw/run.sh b/fw/run.sh\n--- a/fw/run.sh\n+++ b/fw/run.sh\n"
                        "@@ -1 +1 @@\n-echo walk\n+echo stop\n";
    assert_int_equal(rm_patch_applies(dir, stale, strlen(stale), &r), RM_PATCH_NOT_APPLYING);
    assert_string_equal(r.s, "4: does not apply to fw/run.sh\n");
    sb_free(&r);
    /* a hunk cut short is malformed, at the line where the next file starts */
    const char *cut = "diff --git a/fw/run.sh b/fw/run.sh\n--- a/fw/run.sh\n+++ b/fw/run.sh\n"
                      "@@ -1,2 +1,2 @@\n-echo run\ndiff --git a/x b/x\n";
    assert_int_equal(rm_patch_applies(dir, cut, strlen(cut), &r), RM_PATCH_MALFORMED);
    assert_non_null(strstr(r.s, "6: malformed patch"));
    sb_free(&r);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
}

/* scripts/check-refs.sh: a relative PATCH is read from where it was named, not from inside the
 * tree (three of its checks read nothing before); C-quoted paths and renames are read; a check
 * that cannot run fails it (exit 2) instead of reporting 0. */
static void check_refs_script(void **state) {
    if (system("git --version >/dev/null 2>&1") != 0) {
        skip();
        return;
    }
    char cwd[400], dir[] = "/tmp/sunset-refs-XXXXXX", cmd[2048];
    assert_non_null(getcwd(cwd, sizeof cwd));
    assert_non_null(mkdtemp(dir));
    const tfile tree[] = {
        {"tree/fw/gather.cc", SUNSET_LANG_CPP, "REGISTER_FILE_SYMBOLS(gather_op_handle);\n"},
        {"tree/fw/pybind.cc", SUNSET_LANG_CPP, "DECLARE_FILE_SYMBOLS(gather_op_handle);\n#include \"fw/\xe6\x96\x87.h\"\n"},
        {"tree/fw/\xe6\x96\x87.h", SUNSET_LANG_CPP, "struct W {};\n"},
        {"tree/fw/moved.h", SUNSET_LANG_CPP, "struct M {};\n"},
        {"tree/fw/user.cc", SUNSET_LANG_CPP, "#include \"fw/moved.h\"\n"},
    };
    write_files(dir, tree, sizeof tree / sizeof tree[0]);
    snprintf(cmd, sizeof cmd,
             "cd %s/tree && git init -q . && git add -A && git -c user.name=t -c user.email=t@t commit -qm base && "
             "git rm -q fw/gather.cc fw/\xe6\x96\x87.h && git mv fw/moved.h fw/renamed.h && "
             "git diff --cached -M >../p.patch && grep -q '^deleted file mode' ../p.patch && "
             "grep -qF 'a/fw/\\346\\226\\207.h' ../p.patch",
             dir);
    assert_int_equal(system(cmd), 0);
    /* run from the patch's directory, both arguments relative */
    snprintf(cmd, sizeof cmd, "cd %s && sh %s/scripts/check-refs.sh tree p.patch 2>&1; echo rc=$?", dir, cwd);
    char *out = run(cmd);
    assert_non_null(strstr(out, "fw/pybind.cc:1: links removed registration gather_op_handle\n"));
    assert_non_null(strstr(out, "fw/pybind.cc:2: names deleted fw/\xe6\x96\x87.h\n"));
    assert_non_null(strstr(out, "fw/user.cc:1: names deleted fw/moved.h\n"));
    assert_non_null(strstr(out, "check-refs: 3 deleted files, 3 dangling references\nrc=1\n"));
    sunset_free(out);
    /* a check that cannot run: no git work tree */
    snprintf(cmd, sizeof cmd, "cd %s && rm -rf tree/.git && sh %s/scripts/check-refs.sh tree p.patch 2>&1; echo rc=$?",
             dir, cwd);
    out = run(cmd);
    assert_non_null(strstr(out, "is not a git work tree\nrc=2\n"));
    sunset_free(out);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
}

/* --patch deletes a symlink as git records it (mode 120000, its target as the content), and
 * writes and reads non-ASCII paths C-quoted as git does; git apply takes both. */
static void symlinks_and_quoted_paths(void **state) {
    if (system("git --version >/dev/null 2>&1") != 0) {
        skip();
        return;
    }
    const char *link = "t/pe_link_test.py", *wen = "t/pe_\xe6\x96\x87_test.py";
    const tfile tree[] = {
        {"t/pe_real.py", SUNSET_LANG_PYTHON, "x = 1\n"},
        {link, SUNSET_LANG_PYTHON, "x = 1\n"},
        {wen, SUNSET_LANG_PYTHON, "y = 2\n"},
    };
    size_t n = sizeof tree / sizeof tree[0];
    sunset_index *ix = index_of(tree, n);
    sunset_finding seeds[2] = {
        {.rule_id = "R-PATH", .path = (char *)link, .span = {1, 1, 1, 1}, .matched = (char *)link},
        {.rule_id = "R-PATH", .path = (char *)wen, .span = {1, 1, 1, 1}, .matched = (char *)wen},
    };
    sunset_result r = {0};
    r.findings = seeds;
    r.n_findings = 2;
    rm_plan p;
    assert_int_equal(rm_plan_build(ix, RS, &r, &p), 0);
    char dir[] = "/tmp/sunset-link-XXXXXX", cmd[1024];
    assert_non_null(mkdtemp(dir));
    write_files(dir, tree, n);
    snprintf(cmd, sizeof cmd,
             "cd %s && rm t/pe_link_test.py && ln -s pe_real.py t/pe_link_test.py && git init -q . && git add -A && "
             "git -c user.name=t -c user.email=t@t commit -qm base",
             dir);
    assert_int_equal(system(cmd), 0);
    sb d = {0};
    assert_int_equal(rm_write_patch(&p, dir, &d), 0);
    assert_non_null(d.s);
    assert_non_null(strstr(d.s, "diff --git a/t/pe_link_test.py b/t/pe_link_test.py\ndeleted file mode 120000\n"
                                "--- a/t/pe_link_test.py\n+++ /dev/null\n@@ -1,1 +0,0 @@\n-pe_real.py\n"
                                "\\ No newline at end of file\n"));
    assert_non_null(strstr(d.s, "diff --git \"a/t/pe_\\346\\226\\207_test.py\" \"b/t/pe_\\346\\226\\207_test.py\"\n"
                                "deleted file mode 100644\n--- \"a/t/pe_\\346\\226\\207_test.py\"\n"));
    /* our own check reads the quoted paths (it called them malformed) and finds nothing left */
    sb msg = {0};
    size_t dangling = 9;
    assert_int_equal(rm_patch_check(ix, RS, d.s, d.len, &msg, &dangling), 0);
    assert_int_equal(dangling, 0);
    assert_int_equal(rm_patch_applies(dir, d.s, d.len, &msg), 0);
    sb_free(&msg);
    /* git applies it: the link goes, the file it pointed to stays */
    char pf[300];
    snprintf(pf, sizeof pf, "%s.patch", dir);
    FILE *f = fopen(pf, "w");
    assert_non_null(f);
    fputs(d.s, f);
    fclose(f);
    snprintf(cmd, sizeof cmd,
             "cd %s && git apply --check %s && git apply %s && test ! -e t/pe_link_test.py && test -f t/pe_real.py && "
             "test -z \"$(ls t | grep -v pe_real.py)\"",
             dir, pf, pf);
    assert_int_equal(system(cmd), 0);
    snprintf(cmd, sizeof cmd, "rm -rf %s %s", dir, pf);
    assert_int_equal(system(cmd), 0);
    sb_free(&d);
    rm_plan_free(&p);
    sunset_index_free(ix);
}

/* Liveness by name: a class its live file names outside its body (a live builder making it),
 * a flag its live definer reads, an operator its live registering file runs by type stay live;
 * a #define's parameter (REGISTER_PASS(pass_name, ...) in a macro's body) is never a pass. */
static void liveness_by_name(void **state) {
    const tfile tree[] = {
        {"fw/details/build_strategy.cc", SUNSET_LANG_CPP,
         "namespace paddle {\nclass ParallelExecutorPassBuilder : public ir::PassBuilder {\n public:\n"
         "  explicit ParallelExecutorPassBuilder(int s);\n};\n"
         "ParallelExecutorPassBuilder::ParallelExecutorPassBuilder(int s) {}\n"
         "class LegacyOnlyBuilder : public ir::PassBuilder {\n};\n"
         "LegacyOnlyBuilder::~LegacyOnlyBuilder() {}\n"
         "void BuildStrategy::Apply() {\n  pass_builder_.reset(new ParallelExecutorPassBuilder(1));\n}\n"
         "}  // namespace paddle\n"},
        {"fw/parallel_executor.h", SUNSET_LANG_CPP, "class ParallelExecutor {\n};\n"},
        {"fw/parallel_executor.cc", SUNSET_LANG_CPP,
         "#include \"fw/parallel_executor.h\"\nPHI_DEFINE_EXPORTED_string(pe_profile_fname, \"\", \"x\");\n"
         "PHI_DEFINE_EXPORTED_bool(pe_unread_flag, false, \"y\");\n"
         "void Run() {\n  if (!FLAGS_pe_profile_fname.empty()) Start();\n}\n"},
        {"fw/compiler.cc", SUNSET_LANG_CPP,
         "#include \"fw/parallel_executor.h\"\nvoid Compile() { ParallelExecutor pe; }\n"},
        {"ops/run_program_op.cc", SUNSET_LANG_CPP,
         "void Maker::Apply(GradOp *grad_op) const {\n  grad_op->SetType(\"run_program_grad\");\n}\n"
         "REGISTER_OPERATOR(run_program_grad, ops::RunProgramGradOp);\n"
         "REGISTER_OPERATOR(legacy_unrun, ops::UnrunOp);\n"
         /* an operator not legacy keeps the file from registering only legacy ones */
         "REGISTER_OPERATOR(other_op, ops::OtherOp);\n"},
        {"ir/multi_devices_graph_pass.cc", SUNSET_LANG_CPP,
         "#define REGISTER_MULTI_DEVICES_PASS(pass_name, pass_class) \\\n"
         "  int x_##pass_name = Register(#pass_name);                \\\n"
         "  REGISTER_PASS(pass_name, pass_class)                     \\\n      .RequirePassAttr(kPlaces)\n"
         "REGISTER_PASS(multi_devices_check_pass, CheckPass);\n"},
        {"cinn/macros.h", SUNSET_LANG_CPP, "#define CINN_PASS(pass_name) Register(pass_name)\n"
                                           "int F(int pass_name) { return pass_name; }\n"
                                           "USE_PASS(multi_devices_check_pass);\n"},
    };
    size_t n = sizeof tree / sizeof tree[0];
    sunset_index *ix = index_of(tree, n);
    sunset_finding seeds[] = {
        {.rule_id = "R-CLS", .ctx = SUNSET_CTX_CODE, .path = "fw/details/build_strategy.cc", .span = {2, 7, 2, 34},
         .matched = "ParallelExecutorPassBuilder"},
        {.rule_id = "R-CLS", .ctx = SUNSET_CTX_CODE, .path = "fw/details/build_strategy.cc", .span = {7, 7, 7, 24},
         .matched = "LegacyOnlyBuilder"},
        {.rule_id = "R-PATH", .path = "fw/parallel_executor.cc", .span = {1, 1, 1, 1}, .matched = "fw/parallel_executor.cc"},
        {.rule_id = "R-OP", .ctx = SUNSET_CTX_CODE, .path = "ops/run_program_op.cc", .span = {4, 19, 4, 35},
         .matched = "run_program_grad"},
        {.rule_id = "R-OP", .ctx = SUNSET_CTX_CODE, .path = "ops/run_program_op.cc", .span = {5, 19, 5, 30},
         .matched = "legacy_unrun"},
        {.rule_id = "R-PATH", .path = "ir/multi_devices_graph_pass.cc", .span = {1, 1, 1, 1},
         .matched = "ir/multi_devices_graph_pass.cc"},
    };
    sunset_result r = {0};
    r.findings = seeds;
    r.n_findings = sizeof seeds / sizeof seeds[0];
    rm_plan p;
    assert_int_equal(rm_plan_build(ix, RS, &r, &p), 0);
    const rm_item *k = item(&p, RM_CLASS, "fw/details/build_strategy.cc", "ParallelExecutorPassBuilder");
    assert_non_null(k);
    assert_true(k->live);
    assert_true(k->n_callers >= 1);
    assert_string_equal(k->callers[0], "fw/details/build_strategy.cc:11 names ParallelExecutorPassBuilder outside it");
    /* its own constructor's definition, a destructor's and the declaration are no uses */
    k = item(&p, RM_CLASS, "fw/details/build_strategy.cc", "LegacyOnlyBuilder");
    assert_non_null(k);
    assert_false(k->live);
    const rm_item *fl = item(&p, RM_FLAG, "fw/parallel_executor.cc", "pe_profile_fname");
    assert_non_null(fl);
    assert_true(fl->live);
    assert_string_equal(fl->callers[0], "fw/parallel_executor.cc uses FLAGS_pe_profile_fname");
    fl = item(&p, RM_FLAG, "fw/parallel_executor.cc", "pe_unread_flag");
    assert_true(fl && !fl->live);
    const rm_item *op = item(&p, RM_OP, "ops/run_program_op.cc", "run_program_grad");
    assert_non_null(op);
    assert_true(op->live);
    assert_string_equal(op->callers[0], "ops/run_program_op.cc:2 runs op run_program_grad by type");
    op = item(&p, RM_OP, "ops/run_program_op.cc", "legacy_unrun");
    assert_true(op && !op->live);
    /* the macro's parameter is no pass (live code names an identifier pass_name); the pass
     * registered outside a macro is one, live code linking it */
    assert_null(item(&p, RM_PASS, "ir/multi_devices_graph_pass.cc", "pass_name"));
    assert_non_null(item(&p, RM_PASS, "ir/multi_devices_graph_pass.cc", "multi_devices_check_pass"));
    rm_plan_free(&p);
    sunset_index_free(ix);
}

/* Edits as cmake-format leaves a file: deleting commands leaves no blank line at the top, none
 * at the end, and no two in a row; blank lines no deletion touched stay. */
static void cmake_blank_lines(void **state) {
    const tfile tree[] = {
        {"t/a_test.cc", SUNSET_LANG_CPP, "int main() { return 0; }\n"},
        {"t/keep_test.cc", SUNSET_LANG_CPP, "int main() { return 1; }\n"},
        {"t/CMakeLists.txt", SUNSET_LANG_CMAKE,
         "paddle_test(a_test SRCS a_test.cc)\n\npaddle_test(keep_test SRCS keep_test.cc)\n\n\n"
         "set(X 1)\n\nadd_dependencies(a_test x)\n\nset(Y 2)\n\nset_tests_properties(a_test PROPERTIES TIMEOUT 9)\n"},
    };
    rm_plan p;
    sb d = {0};
    seeded_plan(tree, sizeof tree / sizeof tree[0], "t/a_test.cc", &p, &d);
    assert_non_null(d.s);
    const char *want = "--- a/t/CMakeLists.txt\n+++ b/t/CMakeLists.txt\n@@ -1,12 +1,6 @@\n"
                       "-paddle_test(a_test SRCS a_test.cc)\n-\n paddle_test(keep_test SRCS keep_test.cc)\n \n \n"
                       " set(X 1)\n \n-add_dependencies(a_test x)\n-\n set(Y 2)\n-\n-set_tests_properties(a_test PROPERTIES "
                       "TIMEOUT 9)\n";
    if (!strstr(d.s, want)) fprintf(stderr, "%s", d.s);
    assert_non_null(strstr(d.s, want));
    sb_free(&d);
    rm_plan_free(&p);
}

/* A class cut takes the imports only it used (7 were left unused on the 2024-04-11 tree); an
 * import a kept class uses, in its body or as its base, stays. */
/* The plan of a one-file tree seeded by one legacy Python class named at LINE, column 7. */
static void plan_one_class(const tfile *tree, char *path, uint32_t line, char *name, rm_plan *p) {
    sunset_index *ix = index_of(tree, 1);
    sunset_finding seed = {.rule_id = "R-PY", .ctx = SUNSET_CTX_CODE, .path = path,
                           .span = {line, 7, line, 7 + (uint32_t)strlen(name)}, .matched = name};
    sunset_result r = {0};
    r.findings = &seed;
    r.n_findings = 1;
    assert_int_equal(rm_plan_build(ix, RS, &r, p), 0);
    sunset_index_free(ix);
}

static void class_cut_imports(void **state) {
    const tfile tree[] = {
        {"t/test_mixed.py", SUNSET_LANG_PYTHON,
         "import os\nimport unittest\n\nimport numpy as np\nfrom paddle.base import compiler\n"
         "from simple_nets import fc_with_batchnorm, init_data\n\n"
         "class TestPE(unittest.TestCase):\n    def test_a(self):\n"
         "        compiler.CompiledProgram(np.zeros(1), fc_with_batchnorm)\n\n\n"
         "class TestLive(unittest.TestCase):\n    def test_b(self):\n        np.ones(init_data)\n\n\n"
         "if __name__ == '__main__':\n    os.exit(unittest.main())\n"},
    };
    rm_plan p;
    plan_one_class(tree, "t/test_mixed.py", 8, "TestPE", &p);
    const rm_item *k = item(&p, RM_CLASS, "t/test_mixed.py", "TestPE");
    assert_true(k && k->patchable);
    const rm_item *imp = item(&p, RM_IMPORT, "t/test_mixed.py", "compiler");
    assert_non_null(imp);
    assert_int_equal(imp->line, 5);
    assert_true(imp->patchable);
    assert_int_equal(imp->step, k->step);
    assert_string_equal(chain(imp), "binds compiler, used only by class TestPE, which is cut");
    /* a from-import keeps the names a kept class uses */
    imp = item(&p, RM_IMPORT, "t/test_mixed.py", "fc_with_batchnorm");
    assert_non_null(imp);
    assert_string_equal(imp->replace, "from simple_nets import init_data");
    assert_null(item(&p, RM_IMPORT, "t/test_mixed.py", "np"));
    assert_null(item(&p, RM_IMPORT, "t/test_mixed.py", "unittest"));
    char dir[] = "/tmp/sunset-cut-XXXXXX";
    assert_non_null(mkdtemp(dir));
    write_files(dir, tree, 1);
    sb d = {0};
    assert_int_equal(rm_write_patch(&p, dir, &d), 0);
    assert_non_null(d.s);
    assert_non_null(strstr(d.s, "\n-from paddle.base import compiler\n"
                                "-from simple_nets import fc_with_batchnorm, init_data\n"
                                "+from simple_nets import init_data\n"));
    assert_null(strstr(d.s, "-import numpy as np"));
    assert_non_null(strstr(d.s, "\n-class TestPE(unittest.TestCase):\n"));
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
    sb_free(&d);
    rm_plan_free(&p);
}

/* A two-byte name is a name: `import os` used only by the class the patch cuts goes with it
 * (742e3d0a1d's TestMNIST left test_fuse_elewise_add_act_pass.py's `import os` unused), while
 * `import re` the kept code still reads stays. */
static void class_cut_two_byte_import(void **state) {
    const tfile tree[] = {
        {"t/test_short.py", SUNSET_LANG_PYTHON,
         "import os\nimport re\nimport unittest\n\n"
         "class TestPE(unittest.TestCase):\n    def test_a(self):\n"
         "        os.environ['CPU_NUM'] = str(4)\n\n\n"
         "class TestLive(unittest.TestCase):\n    def test_b(self):\n        re.compile('x')\n\n\n"
         "if __name__ == '__main__':\n    unittest.main()\n"},
    };
    rm_plan p;
    plan_one_class(tree, "t/test_short.py", 5, "TestPE", &p);
    const rm_item *k = item(&p, RM_CLASS, "t/test_short.py", "TestPE");
    assert_true(k && k->patchable);
    const rm_item *imp = item(&p, RM_IMPORT, "t/test_short.py", "os");
    assert_non_null(imp);
    assert_int_equal(imp->line, 1);
    assert_true(imp->patchable);
    assert_string_equal(chain(imp), "binds os, used only by class TestPE, which is cut");
    assert_null(item(&p, RM_IMPORT, "t/test_short.py", "re"));
    rm_plan_free(&p);
}

/* An attribute is not a use of the name an import binds: `from paddle.base import core` used
 * bare only by the class the patch cuts goes with it though kept code reads `base.core`
 * (742e3d0a1d's test_fuse_elewise_add_act_pass.py); a bare use in a decorator, an annotation,
 * __all__ or a kept class keeps its import. */
static void class_cut_attribute_uses(void **state) {
    const tfile tree[] = {
        {"t/test_attr.py", SUNSET_LANG_PYTHON,
         "import unittest\n\nfrom paddle import base\nfrom paddle.base import core\n"
         "from paddle.base import framework\nfrom paddle.base import dygraph\nfrom paddle.base import typing\n"
         "from paddle.base import exported\nfrom paddle.base import kept\n\n"
         "__all__ = ['exported']\n\n"
         "class TestPE(unittest.TestCase):\n    def test_a(self):\n"
         "        core.is_compiled_with_cuda(framework, dygraph, typing, exported, kept)\n\n\n"
         "@dygraph.guard\ndef run(x: typing.Any):\n    return base.core.framework\n\n\n"
         "class TestLive(unittest.TestCase):\n    def test_b(self):\n        kept.x(self.core)\n\n\n"
         "if __name__ == '__main__':\n    unittest.main()\n"},
    };
    rm_plan p;
    plan_one_class(tree, "t/test_attr.py", 13, "TestPE", &p);
    const rm_item *k = item(&p, RM_CLASS, "t/test_attr.py", "TestPE");
    assert_true(k && k->patchable);
    const rm_item *imp = item(&p, RM_IMPORT, "t/test_attr.py", "core");
    assert_non_null(imp);
    assert_int_equal(imp->line, 4);
    assert_string_equal(chain(imp), "binds core, used only by class TestPE, which is cut");
    imp = item(&p, RM_IMPORT, "t/test_attr.py", "framework");
    assert_true(imp && imp->line == 5);
    assert_null(item(&p, RM_IMPORT, "t/test_attr.py", "dygraph"));  /* a decorator */
    assert_null(item(&p, RM_IMPORT, "t/test_attr.py", "typing"));   /* an annotation */
    assert_null(item(&p, RM_IMPORT, "t/test_attr.py", "exported")); /* __all__ */
    assert_null(item(&p, RM_IMPORT, "t/test_attr.py", "kept"));     /* a kept class */
    assert_null(item(&p, RM_IMPORT, "t/test_attr.py", "base"));
    rm_plan_free(&p);
}

/* A derived finding's test flag is its own path's (settings.test_paths), and its family and
 * task are its own seed rule's: a legacy header under a test directory elsewhere in the tree
 * (whose findings are tests) must not turn the derived findings under paddle/ into tests. */
static void derived_test_flag_from_own_path(void **state) {
    const char *bin = getenv("SUNSET_BIN");
    if (!bin || access(bin, X_OK) != 0) {
        skip();
        return;
    }
    char dir[] = "/tmp/sunset-derive-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char cmd[2048];
    snprintf(cmd, sizeof cmd,
             "cp -r testdata/paddle-mini/. %s/ && mkdir -p %s/a/test/framework && "
             "printf 'class ParallelExecutor {};\\n' > %s/a/test/framework/parallel_executor.h",
             dir, dir, dir);
    assert_int_equal(system(cmd), 0);
    snprintf(cmd, sizeof cmd, "%s scan %s --no-config --no-cache -q -j1 --derive -f json", bin, dir);
    char *out = run(cmd);
    assert_non_null(out);
    cJSON *j = cJSON_Parse(out);
    assert_non_null(j);
    size_t derived = 0, wrong = 0;
    cJSON *f;
    cJSON_ArrayForEach(f, cJSON_GetObjectItem(j, "findings")) {
        if (!cJSON_IsTrue(cJSON_GetObjectItem(f, "derived"))) continue;
        derived++;
        const char *path = cJSON_GetObjectItem(f, "path")->valuestring;
        bool test = cJSON_IsTrue(cJSON_GetObjectItem(f, "test"));
        bool want = strstr(path, "test/") == path || strstr(path, "/test/") || strstr(path, "/tests/") ||
                    strstr(path, "unittests/") || strstr(path, "/test_") || strstr(path, "_test.");
        if (test != want) {
            fprintf(stderr, "derived finding %s: \"test\": %s\n", path, test ? "true" : "false");
            wrong++;
        }
        /* the family is the seed rule's: the rule named at the end of its chain */
        cJSON *fam = cJSON_GetObjectItem(f, "family");
        assert_true(cJSON_IsString(fam) && fam->valuestring[0]);
    }
    assert_true(derived > 10);
    assert_int_equal(wrong, 0);
    cJSON_Delete(j);
    sunset_free(out);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
}

/* The whole plan: a header of a legacy directory nothing but tests include (or nothing at all)
 * goes with its test and the test's target; a source registering only legacy operators is
 * legacy, and so is its header, live while live code uses its kernels. Headers live code
 * includes, that CMake names, or outside a legacy directory stay out of the plan. */
static void test_only_headers_and_legacy_registrations(void **state) {
    const tfile tree[] = {
        {"d/legacy_op_handle.h", SUNSET_LANG_CPP, "class LegacyOpHandle {};\n"},
        {"d/graph_test_base.h", SUNSET_LANG_CPP, "#include \"gtest/gtest.h\"\nclass DummyOp {};\n"},
        {"d/cow_ptr.h", SUNSET_LANG_CPP, "template <typename T> class CowPtr {};\n"},
        {"d/used.h", SUNSET_LANG_CPP, "class Used {};\n"},
        {"d/named.h", SUNSET_LANG_CPP, "class Named {};\n"},
        {"d/live.cc", SUNSET_LANG_CPP, "#include \"d/used.h\"\nint f() { Used u; return 0; }\n"},
        {"d/CMakeLists.txt", SUNSET_LANG_CMAKE, "cc_library(live SRCS live.cc)\ninstall(FILES named.h DESTINATION x)\n"},
        {"other/orphan.h", SUNSET_LANG_CPP, "class Orphan {};\n"},
        {"test/d/cow_ptr_test.cc", SUNSET_LANG_CPP,
         "#include \"d/cow_ptr.h\"\n#include \"gtest/gtest.h\"\nTEST(CowPtr, all) { CowPtr<int> p; }\n"},
        {"test/CMakeLists.txt", SUNSET_LANG_CMAKE, "cc_test(cow_ptr_tests SRCS d/cow_ptr_test.cc)\n"},
        {"op/run_op.h", SUNSET_LANG_CPP, "template <typename T> class RunKernel {};\n"},
        {"op/run_op.cc", SUNSET_LANG_CPP,
         "#include \"op/run_op.h\"\nREGISTER_OPERATOR(run_prog, RunOp);\n"
         "PD_REGISTER_STRUCT_KERNEL(run_prog, CPU, ALL_LAYOUT, RunKernel, float) {}\n"},
        {"op/custom.cc", SUNSET_LANG_CPP, "#include \"op/run_op.h\"\nint g() { RunKernel<float> k; return 0; }\n"},
        {"op/CMakeLists.txt", SUNSET_LANG_CMAKE, "cc_library(run_op SRCS run_op.cc)\ncc_library(custom SRCS custom.cc)\n"},
    };
    sunset_finding seeds[] = {
        {.rule_id = "R-PATH", .path = "d/legacy_op_handle.h", .span = {1, 1, 1, 1}, .matched = "d/legacy_op_handle.h"},
        {.rule_id = "R-REG", .ctx = SUNSET_CTX_CODE, .path = "op/run_op.cc", .span = {3, 1, 3, 26},
         .matched = "PD_REGISTER_STRUCT_KERNEL(run_prog"},
    };
    rm_plan p;
    sb d = {0};
    plan_of(tree, sizeof tree / sizeof tree[0], seeds, 2, &p, &d);
    const rm_item *it = item(&p, RM_FILE, "d/graph_test_base.h", NULL);
    assert_true(it && !it->live && it->patchable);
    assert_non_null(strstr(chain(it), "only tests include it (no file), in the directory of legacy d/legacy_op_handle.h"));
    it = item(&p, RM_FILE, "d/cow_ptr.h", NULL);
    assert_true(it && !it->live && it->patchable);
    it = item(&p, RM_FILE, "test/d/cow_ptr_test.cc", NULL);
    assert_true(it && !it->live && it->patchable);
    assert_non_null(strstr(chain(it), "the test of d/cow_ptr.h, which is legacy"));
    assert_non_null(strstr(d.s, "diff --git a/d/cow_ptr.h b/d/cow_ptr.h\ndeleted file mode"));
    assert_non_null(strstr(d.s, "-cc_test(cow_ptr_tests SRCS d/cow_ptr_test.cc)\n"));
    assert_null(item(&p, RM_FILE, "d/used.h", NULL));
    assert_null(item(&p, RM_FILE, "d/named.h", NULL));
    assert_null(item(&p, RM_FILE, "other/orphan.h", NULL));
    it = item(&p, RM_FILE, "op/run_op.cc", NULL);
    assert_true(it && it->live);
    assert_non_null(strstr(chain(it), "registers only legacy operators or passes: run_prog"));
    it = item(&p, RM_FILE, "op/run_op.h", NULL);
    assert_true(it && it->live);
    assert_non_null(strstr(chain(it), "the header of op/run_op.cc, which is legacy"));
    bool named = false;
    for (size_t i = 0; i < it->n_callers; i++) named |= strstr(it->callers[i], "op/custom.cc") != NULL;
    assert_true(named);
    assert_null(strstr(d.s, "a/op/run_op"));
    sb_free(&d);
    rm_plan_free(&p);
}

/* The whole plan: a C++ source whose functions only legacy code calls, through its own header,
 * is legacy (multi_devices_helper.cc, called only by parallel_executor.cc), live while a live
 * legacy file calls it and deleted with its callers once they are dead; its header, holding
 * inline helpers live code uses, is not made legacy by it. A source a live file calls too, one
 * with main(), and static or anonymous-namespace functions (the file's own) stay out. */
static void functions_called_only_by_legacy(void **state) {
    const tfile tree[] = {
        {"pe/parallel_executor.h", SUNSET_LANG_CPP, "class ParallelExecutor {};\n"},
        {"pe/parallel_executor.cc", SUNSET_LANG_CPP,
         "#include \"pe/parallel_executor.h\"\n#include \"d/helper.h\"\n#include \"d/shared.h\"\n"
         "#include \"d/tool.h\"\n#include \"d/hidden.h\"\n"
         "void Run() { SplitGraphs(1); SharedFn(2); ToolFn(3); HiddenFn(4); }\n"},
        {"live/user.cc", SUNSET_LANG_CPP, "#include \"pe/parallel_executor.h\"\nint u() { ParallelExecutor pe; return 0; }\n"},
        {"d/helper.h", SUNSET_LANG_CPP,
         "namespace d {\nbool SplitGraphs(int g);\ninline bool IsRole(int r) { return r > 0; }\n}  // namespace d\n"},
        {"d/helper.cc", SUNSET_LANG_CPP,
         "#include \"d/helper.h\"\nnamespace d {\nstatic int Local(int x) { return x; }\n"
         "bool SplitGraphs(int g) {\n  return Local(g) > 0;\n}\n}  // namespace d\n"},
        {"live/pass.cc", SUNSET_LANG_CPP, "#include \"d/helper.h\"\n#include \"d/shared.h\"\nint p() { return IsRole(1) + SharedFn(0); }\n"},
        {"d/shared.h", SUNSET_LANG_CPP, "int SharedFn(int x);\n"},
        {"d/shared.cc", SUNSET_LANG_CPP, "#include \"d/shared.h\"\nint SharedFn(int x) { return x; }\n"},
        {"d/tool.h", SUNSET_LANG_CPP, "int ToolFn(int x);\n"},
        {"d/tool.cc", SUNSET_LANG_CPP, "#include \"d/tool.h\"\nint ToolFn(int x) { return x; }\nint main() { return ToolFn(0); }\n"},
        {"d/hidden.h", SUNSET_LANG_CPP, "class Hidden {};\n"},
        {"d/hidden.cc", SUNSET_LANG_CPP,
         "#include \"d/hidden.h\"\nnamespace {\nint HiddenFn(int x) { return x; }\n}  // namespace\n"
         "static int Other(int x) { return x; }\n"},
        {"t/legacy_test.cc", SUNSET_LANG_CPP, "#include \"d/only.h\"\nTEST(Only, all) { OnlyFn(1); }\n"},
        {"d/only.h", SUNSET_LANG_CPP, "int OnlyFn(int x);\n"},
        {"d/only.cc", SUNSET_LANG_CPP, "#include \"d/only.h\"\nint OnlyFn(int x) const noexcept { return x; }\n"},
    };
    sunset_finding seeds[] = {
        {.rule_id = "R-PATH", .path = "pe/parallel_executor.cc", .span = {1, 1, 1, 1}, .matched = "pe/parallel_executor.cc"},
        {.rule_id = "R-PATH", .path = "pe/parallel_executor.h", .span = {1, 1, 1, 1}, .matched = "pe/parallel_executor.h"},
        {.rule_id = "R-TEST", .path = "t/legacy_test.cc", .span = {1, 1, 1, 1}, .matched = "t/legacy_test.cc"},
    };
    rm_plan p;
    sb d = {0};
    plan_of(tree, sizeof tree / sizeof tree[0], seeds, 3, &p, &d);
    const rm_item *it = item(&p, RM_FILE, "pe/parallel_executor.cc", NULL);
    assert_true(it && it->live);
    it = item(&p, RM_FILE, "d/helper.cc", NULL);
    assert_true(it && it->live);
    assert_string_equal(chain(it), "its functions are called only by legacy code: SplitGraphs by "
                                   "pe/parallel_executor.cc (rule R-PATH (path))");
    bool named = false;
    for (size_t i = 0; i < it->n_callers; i++) named |= !strcmp(it->callers[i], "pe/parallel_executor.cc calls SplitGraphs");
    assert_true(named);
    assert_null(item(&p, RM_FILE, "d/helper.h", NULL));
    assert_null(item(&p, RM_FILE, "d/shared.cc", NULL));
    assert_null(item(&p, RM_FILE, "d/tool.cc", NULL));
    assert_null(item(&p, RM_FILE, "d/hidden.cc", NULL));
    it = item(&p, RM_FILE, "d/only.cc", NULL);
    assert_true(it && !it->live && it->patchable);
    assert_string_equal(chain(it), "its functions are called only by legacy code: OnlyFn by t/legacy_test.cc "
                                   "(rule R-TEST (path))");
    it = item(&p, RM_FILE, "d/only.h", NULL);
    assert_true(it && !it->live && it->patchable);
    assert_non_null(strstr(d.s, "diff --git a/d/only.cc b/d/only.cc\ndeleted file mode"));
    assert_null(strstr(d.s, "a/d/helper"));
    sb_free(&d);
    rm_plan_free(&p);
}

/* A caller counts when it reaches the source's own header within three includes: the legacy
 * x.cc through two headers does, the live y.cc through three does not, so fn.cc's functions
 * are called only by legacy code (rm_func_callers, whose last hop is a look-up of the header's
 * includers). And `import util` means the util.py beside the importer: a/util.py only the
 * legacy a/pe.py imports is legacy though b/live.py imports b/util.py by the same name
 * (rm_resolve_module's memo is keyed by the importer's directory too), and `from pkgx import
 * subp` the package a/pkgx/subp/ (its stems hold directory names as well as x of x.py). */
static void callers_three_deep_modules_by_directory(void **state) {
    const tfile tree[] = {
        {"a/pe.py", SUNSET_LANG_PYTHON, "import util\nfrom pkgx import subp\n\nutil.f(subp)\n"},
        {"a/pkgx/subp/__init__.py", SUNSET_LANG_PYTHON, "def h():\n    return 3\n"},
        {"a/util.py", SUNSET_LANG_PYTHON, "def f():\n    return 1\n"},
        {"b/live.py", SUNSET_LANG_PYTHON, "import util\n\nutil.g()\n"},
        {"b/util.py", SUNSET_LANG_PYTHON, "def g():\n    return 2\n"},
        {"c/fn.h", SUNSET_LANG_CPP, "int SplitFn(int x);\n"},
        {"c/fn.cc", SUNSET_LANG_CPP, "#include \"c/fn.h\"\nint SplitFn(int x) { return x; }\n"},
        {"c/m1.h", SUNSET_LANG_CPP, "#include \"c/m2.h\"\n"},
        {"c/m2.h", SUNSET_LANG_CPP, "#include \"c/fn.h\"\n"},
        {"c/n1.h", SUNSET_LANG_CPP, "#include \"c/n2.h\"\n"},
        {"c/n2.h", SUNSET_LANG_CPP, "#include \"c/n3.h\"\n"},
        {"c/n3.h", SUNSET_LANG_CPP, "#include \"c/fn.h\"\n"},
        {"c/x.cc", SUNSET_LANG_CPP, "#include \"c/m1.h\"\nint x() { return SplitFn(1); }\n"},
        {"c/y.cc", SUNSET_LANG_CPP, "#include \"c/n1.h\"\nint y() { return SplitFn(2); }\n"},
    };
    sunset_finding seeds[] = {
        {.rule_id = "R-PATH", .path = "a/pe.py", .span = {1, 1, 1, 1}, .matched = "a/pe.py"},
        {.rule_id = "R-PATH", .path = "c/x.cc", .span = {1, 1, 1, 1}, .matched = "c/x.cc"},
    };
    rm_plan p;
    sb d = {0};
    plan_of(tree, sizeof tree / sizeof tree[0], seeds, 2, &p, &d);
    const rm_item *it = item(&p, RM_FILE, "a/util.py", NULL);
    assert_non_null(it);
    assert_string_equal(chain(it), "imported only by legacy files: a/pe.py (rule R-PATH (path))");
    assert_null(item(&p, RM_FILE, "b/util.py", NULL));
    /* a package's last part is its directory's name: no look-up is skipped for it */
    assert_non_null(item(&p, RM_FILE, "a/pkgx/subp/__init__.py", NULL));
    it = item(&p, RM_FILE, "c/fn.cc", NULL);
    assert_non_null(it);
    assert_string_equal(chain(it), "its functions are called only by legacy code: SplitFn by c/x.cc (rule R-PATH (path))");
    sb_free(&d);
    rm_plan_free(&p);
}

/* The whole plan: a pass that code not legacy names only in a string inside a legacy class's
 * body (AppendPass("add_reader_dependency_pass") in ParallelExecutorPassBuilder, whose
 * USE_PASS at file level goes with the registration) is legacy, and so is the source
 * registering it, live while the class is. A pass the same file applies outside the class, or
 * a class that is not legacy applies, stays out. */
static void pass_named_only_in_legacy_class(void **state) {
    const tfile tree[] = {
        {"d/build_strategy.cc", SUNSET_LANG_CPP,
         "namespace d {\nclass PEPassBuilder : public PassBuilder {\n public:\n"
         "  void AppendReader() { AppendPass(\"reader_dep_pass\"); AppendPass(\"both_pass\"); }\n};\n"
         "class LiveBuilder {\n  void Add() { AppendPass(\"live_class_pass\"); }\n};\n"
         "void Build() {\n  new PEPassBuilder();\n  Apply(\"outside_pass\");\n  Apply(\"both_pass\");\n}\n"
         "}  // namespace d\nUSE_PASS(reader_dep_pass);\nUSE_PASS(outside_pass);\n"},
        {"ir/reader_dep_pass.cc", SUNSET_LANG_CPP, "REGISTER_PASS(reader_dep_pass, ReaderDepPass);\n"},
        {"ir/outside_pass.cc", SUNSET_LANG_CPP, "REGISTER_PASS(outside_pass, OutsidePass);\n"},
        {"ir/both_pass.cc", SUNSET_LANG_CPP, "REGISTER_PASS(both_pass, BothPass);\n"},
        {"ir/live_class_pass.cc", SUNSET_LANG_CPP, "REGISTER_PASS(live_class_pass, LiveClassPass);\n"},
    };
    sunset_finding seeds[] = {
        {.rule_id = "R-BUILDER", .ctx = SUNSET_CTX_CODE, .path = "d/build_strategy.cc", .span = {2, 7, 2, 19},
         .matched = "PEPassBuilder"},
    };
    rm_plan p;
    sb d = {0};
    plan_of(tree, sizeof tree / sizeof tree[0], seeds, 1, &p, &d);
    const rm_item *it = item(&p, RM_PASS, "ir/reader_dep_pass.cc", "reader_dep_pass");
    assert_true(it && it->live);
    assert_string_equal(chain(it), "named only inside legacy class PEPassBuilder (d/build_strategy.cc:2): "
                                   "rule R-BUILDER at d/build_strategy.cc:2");
    it = item(&p, RM_FILE, "ir/reader_dep_pass.cc", NULL);
    assert_true(it && it->live);
    assert_non_null(strstr(chain(it), "registers only legacy operators or passes: reader_dep_pass"));
    bool named = false;
    for (size_t i = 0; i < it->n_callers; i++) named |= strstr(it->callers[i], "d/build_strategy.cc uses") != NULL;
    assert_true(named);
    assert_null(item(&p, RM_FILE, "ir/outside_pass.cc", NULL));
    assert_null(item(&p, RM_FILE, "ir/both_pass.cc", NULL));
    assert_null(item(&p, RM_FILE, "ir/live_class_pass.cc", NULL));
    assert_null(item(&p, RM_PASS, "ir/outside_pass.cc", "outside_pass"));
    sb_free(&d);
    rm_plan_free(&p);
}

/* When cmake-format is installed: t/CMakeLists.txt of tree passes its --check (line_width 80,
 * as Paddle's .cmake-format.py sets) before `patch` and after it. */
static void cmake_format_clean(const tfile *tree, size_t n, const char *patch) {
    if (system("cmake-format --version >/dev/null 2>&1") != 0) return;
    char dir[] = "/tmp/sunset-cmf-XXXXXX";
    assert_non_null(mkdtemp(dir));
    write_files(dir, tree, n);
    char cmd[1200], pf[700];
    snprintf(pf, sizeof pf, "%s/p.diff", dir);
    FILE *fp = fopen(pf, "w");
    assert_non_null(fp);
    fputs(patch, fp);
    fclose(fp);
    snprintf(cmd, sizeof cmd,
             "cd %s && git init -q && printf 'with section(\"format\"):\\n  line_width = 80\\n' > f.py"
             " && cmake-format -c f.py --check t/CMakeLists.txt && git apply p.diff"
             " && cmake-format -c f.py --check t/CMakeLists.txt && cd / && rm -rf %s", dir, dir);
    assert_int_equal(system(cmd), 0);
}

/* An if() block the patch empties goes whole (cmake-format would leave `if(X)\n\nendif()`),
 * nested ones too; a block still holding a command, or empty before the patch, stays. When
 * cmake-format is installed, the file passes its --check before the patch and after. */
static void cmake_empty_blocks(void **state) {
    const tfile tree[] = {
        {"t/a_test.cc", SUNSET_LANG_CPP, "int main() { return 0; }\n"},
        {"t/keep_test.cc", SUNSET_LANG_CPP, "int main() { return 1; }\n"},
        {"t/CMakeLists.txt", SUNSET_LANG_CMAKE,
         "set(X 1)\nif(WITH_PYTHON)\n  paddle_test(a_test SRCS a_test.cc)\nendif()\n\n"
         "if(WITH_GPU_AND_A_RATHER_LONG_NAME\n   OR WITH_ROCM_AND_ANOTHER_LONG_NAME\n   OR WITH_XPU_TOO)\n"
         "  if(WIN32)\n    set_tests_properties(a_test PROPERTIES TIMEOUT 9)\n"
         "  else()\n\n  endif()\nendif()\nif(APPLE)\n  set_tests_properties(a_test PROPERTIES TIMEOUT 9)\n"
         "  paddle_test(keep_test SRCS keep_test.cc)\nendif()\nif(EMPTY_BEFORE)\n\nendif()\n"},
    };
    rm_plan p;
    sb d = {0};
    seeded_plan(tree, sizeof tree / sizeof tree[0], "t/a_test.cc", &p, &d);
    assert_non_null(d.s);
    const char *want = "@@ -1,19 +1,6 @@\n set(X 1)\n-if(WITH_PYTHON)\n-  paddle_test(a_test SRCS a_test.cc)\n-endif()\n \n"
                       "-if(WITH_GPU_AND_A_RATHER_LONG_NAME\n-   OR WITH_ROCM_AND_ANOTHER_LONG_NAME\n-   OR WITH_XPU_TOO)\n-  if(WIN32)\n-    set_tests_properties(a_test PROPERTIES TIMEOUT 9)\n"
                       "-  else()\n-\n-  endif()\n-endif()\n if(APPLE)\n-  set_tests_properties(a_test PROPERTIES TIMEOUT 9)\n"
                       "   paddle_test(keep_test SRCS keep_test.cc)\n endif()\n if(EMPTY_BEFORE)\n";
    if (!strstr(d.s, want)) fprintf(stderr, "%s", d.s);
    assert_non_null(strstr(d.s, want));
    cmake_format_clean(tree, sizeof tree / sizeof tree[0], d.s);
    sb_free(&d);
    rm_plan_free(&p);
}

/* An argument list the patch shortens is laid out again as cmake-format would: 6 positional
 * arguments left of 7 are packed (max_pargs_hwrap), the keyword group joining the last line
 * when it fits; a command that now fits on one line goes there.
 * When cmake-format is installed, the file passes its --check before the patch and after. */
static void cmake_relayout(void **state) {
    const tfile tree[] = {
        {"t/a_test.cc", SUNSET_LANG_CPP, "int main() { return 0; }\n"},
        {"t/keep_test.cc", SUNSET_LANG_CPP, "int main() { return 1; }\n"},
        {"t/CMakeLists.txt", SUNSET_LANG_CMAKE,
         "paddle_test(a_test SRCS a_test.cc)\npaddle_test(keep_test SRCS keep_test.cc)\nset_tests_properties(\n"
         "  keep_test\n  a_test\n  keep_test_number_two_is_longer\n  keep_test_number_three_is_longer_still\n"
         "  keep_test_number_four\n  keep_test_five\n  keep_test_six\n  PROPERTIES LABELS \"RUN_TYPE=DIST\")\n"
         "set_tests_properties(keep_test a_test keep_test_number_two PROPERTIES TIMEOUT\n"
         "                                                                      120)\n"},
    };
    rm_plan p;
    sb d = {0};
    seeded_plan(tree, sizeof tree / sizeof tree[0], "t/a_test.cc", &p, &d);
    assert_non_null(d.s);
    const char *want = "-  keep_test\n+  keep_test keep_test_number_two_is_longer\n-  a_test\n"
                       "-  keep_test_number_two_is_longer\n"
                       "+  keep_test_number_three_is_longer_still keep_test_number_four keep_test_five\n"
                       "-  keep_test_number_three_is_longer_still\n"
                       "+  keep_test_six PROPERTIES LABELS \"RUN_TYPE=DIST\")\n-  keep_test_number_four\n"
                       "-  keep_test_five\n-  keep_test_six\n-  PROPERTIES LABELS \"RUN_TYPE=DIST\")\n"
                       "-set_tests_properties(keep_test a_test keep_test_number_two PROPERTIES TIMEOUT\n"
                       "+set_tests_properties(keep_test keep_test_number_two PROPERTIES TIMEOUT 120)\n"
                       "-                                                                      120)\n";
    if (!strstr(d.s, want)) fprintf(stderr, "%s", d.s);
    assert_non_null(strstr(d.s, want));
    cmake_format_clean(tree, sizeof tree / sizeof tree[0], d.s);
    sb_free(&d);
    rm_plan_free(&p);
}

/* Two legacy headers, one including the other, and live code using the outer one's class:
 * both stay live, and exe/user.cc is their consumer (the migrate table's what-ifs). */
static const tfile OH_TREE[] = {
    {"details/op_handle_base.h", SUNSET_LANG_CPP, "class OpHandleBase {\n};\n"},
    {"details/fetch_op_handle.h", SUNSET_LANG_CPP,
     "#include \"details/op_handle_base.h\"\nclass FetchOpHandle : public OpHandleBase {\n};\n"},
    {"exe/user.cc", SUNSET_LANG_CPP, "#include \"details/fetch_op_handle.h\"\nint f() { FetchOpHandle h; return 0; }\n"},
};
static sunset_finding OH_SEEDS[2] = {
    {.rule_id = "OH-PATH", .path = "details/op_handle_base.h", .span = {1, 1, 1, 1}, .matched = "details/op_handle_base.h"},
    {.rule_id = "OH-PATH", .path = "details/fetch_op_handle.h", .span = {1, 1, 1, 1}, .matched = "details/fetch_op_handle.h"},
};

/* Issue 27 item 6: each live legacy file names its target API (its seed rule's migrate_to) and
 * what migrating it unblocks, computed by re-running the liveness without it; the code that is
 * not legacy but keeps it live is a consumer with its own what-if. */
static void migrate_table_unblocks(void **state) {
    rm_plan p;
    sb d = {0};
    plan_of(OH_TREE, 3, OH_SEEDS, 2, &p, &d);
    const char *api = sunset_ruleset_find(RS, "OH-PATH")->migrate_to;
    assert_non_null(api);
    const rm_item *fetch = item(&p, RM_FILE, "details/fetch_op_handle.h", NULL);
    const rm_item *base = item(&p, RM_FILE, "details/op_handle_base.h", NULL);
    assert_true(fetch && fetch->live && base && base->live);
    assert_string_equal(fetch->migrate_to, api);
    /* only fetch_op_handle.h keeps op_handle_base.h (and its class) live */
    assert_int_equal(fetch->n_unblocks, 2);
    assert_string_equal(fetch->unblocks[0], "file details/op_handle_base.h");
    assert_string_equal(fetch->unblocks[1], "class OpHandleBase (details/op_handle_base.h)");
    assert_int_equal(base->n_unblocks, 0);
    /* the real run's live marks and callers are untouched by the what-ifs */
    assert_true(base->n_callers >= 1);
    assert_int_equal(p.n_consumers, 1);
    assert_string_equal(p.consumers[0].path, "exe/user.cc");
    assert_int_equal(p.consumers[0].n_migrate_to, 1);
    assert_string_equal(p.consumers[0].migrate_to[0], api);
    assert_int_equal(p.consumers[0].n_unblocks, 4);
    sb j = {0}, m = {0};
    assert_int_equal(rm_write_json(&p, &j), 0);
    assert_non_null(strstr(j.s, "\"unblocks\": [\"file details/op_handle_base.h\", \"class OpHandleBase"));
    assert_non_null(strstr(j.s, "\"consumers\": [\n  {\"path\": \"exe/user.cc\""));
    assert_int_equal(rm_write_markdown(&p, &m), 0);
    assert_non_null(strstr(m.s, "## Migrate first: 2 live files"));
    assert_non_null(strstr(m.s, "| `details/fetch_op_handle.h` | "));
    assert_non_null(strstr(m.s, " | 2 | file details/op_handle_base.h, class OpHandleBase"));
    sb_free(&j);
    sb_free(&m);
    sb_free(&d);
    rm_plan_free(&p);
}

/* The migrate table's steps: fetch_op_handle.h keeps op_handle_base.h live and is included by
 * old_handle.h, dead (the patch's step 1); exe/user.cc is the consumer keeping fetch live.
 * kept_handle.h only exe/other.cc keeps live, and details/CMakeLists.txt names it in string(),
 * a reference no edit removes. */
static const tfile STEP_TREE[] = {
    {"details/op_handle_base.h", SUNSET_LANG_CPP, "class OpHandleBase {\n};\n"},
    {"details/fetch_op_handle.h", SUNSET_LANG_CPP,
     "#include \"details/op_handle_base.h\"\nclass FetchOpHandle : public OpHandleBase {\n};\n"},
    {"details/old_handle.h", SUNSET_LANG_CPP,
     "#include \"details/fetch_op_handle.h\"\nclass OldHandle : public FetchOpHandle {\n};\n"},
    {"details/kept_handle.h", SUNSET_LANG_CPP, "class KeptHandle {\n};\n"},
    {"details/CMakeLists.txt", SUNSET_LANG_CMAKE, "string(APPEND HANDLE_HEADERS kept_handle.h)\n"},
    {"exe/user.cc", SUNSET_LANG_CPP, "#include \"details/fetch_op_handle.h\"\nint f() { FetchOpHandle h; return 0; }\n"},
    {"exe/other.cc", SUNSET_LANG_CPP, "#include \"details/kept_handle.h\"\nint g() { KeptHandle h; return 0; }\n"},
};
static sunset_finding STEP_SEEDS[4] = {
    {.rule_id = "OH-PATH", .path = "details/op_handle_base.h", .span = {1, 1, 1, 1}, .matched = "details/op_handle_base.h"},
    {.rule_id = "OH-PATH", .path = "details/fetch_op_handle.h", .span = {1, 1, 1, 1}, .matched = "details/fetch_op_handle.h"},
    {.rule_id = "OH-PATH", .path = "details/old_handle.h", .span = {1, 1, 1, 1}, .matched = "details/old_handle.h"},
    {.rule_id = "OH-PATH", .path = "details/kept_handle.h", .span = {1, 1, 1, 1}, .matched = "details/kept_handle.h"},
};

static const rm_wstep *wstep(const rm_plan *p, int step) {
    for (size_t i = 0; i < p->n_unblocked; i++)
        if (p->unblocked[i].step == step) return &p->unblocked[i];
    return NULL;
}

static const rm_consumer *consumer(const rm_plan *p, const char *path) {
    for (size_t i = 0; i < p->n_consumers; i++)
        if (!strcmp(p->consumers[i].path, path)) return &p->consumers[i];
    return NULL;
}

/* Issue 27 item 6: a migrate entry says which steps it unblocks, the patch's closure run on its
 * what-if's dead set: the files then deleted that the patch does not, grouped as the patch
 * groups its steps (joining the patch's step when a reference ties them), numbered after the
 * patch's steps, one number for the same step whoever unblocks it; a file the what-if leaves
 * dead but a reference keeps is in no step. */
static void migrate_entries_name_their_steps(void **state) {
    rm_plan p;
    sb d = {0};
    plan_of(STEP_TREE, sizeof STEP_TREE / sizeof STEP_TREE[0], STEP_SEEDS, 4, &p, &d);
    const rm_item *old = item(&p, RM_FILE, "details/old_handle.h", NULL);
    assert_true(old && !old->live && old->patchable && old->step == 1);
    assert_int_equal(p.n_steps, 1);
    /* migrating fetch_op_handle.h: it and op_handle_base.h go, in one step with old_handle.h's */
    const rm_item *fetch = item(&p, RM_FILE, "details/fetch_op_handle.h", NULL);
    assert_true(fetch && fetch->live);
    assert_int_equal(fetch->n_unblocks_steps, 1);
    const rm_wstep *w = wstep(&p, fetch->unblocks_steps[0]);
    assert_non_null(w);
    assert_int_equal(w->step, 2);
    assert_int_equal(w->n_deletes, 2);
    assert_string_equal(w->deletes[0], "details/fetch_op_handle.h");
    assert_string_equal(w->deletes[1], "details/op_handle_base.h");
    assert_int_equal(w->n_joins, 1);
    assert_int_equal(w->joins[0], 1);
    /* migrating op_handle_base.h (its callers, fetch's include among them, moved): it alone */
    const rm_item *base = item(&p, RM_FILE, "details/op_handle_base.h", NULL);
    assert_true(base && base->live);
    assert_int_equal(base->n_unblocks_steps, 1);
    const rm_wstep *wb = wstep(&p, base->unblocks_steps[0]);
    assert_true(wb && wb->step != w->step && wb->n_deletes == 1 && wb->n_joins == 0);
    assert_string_equal(wb->deletes[0], "details/op_handle_base.h");
    /* the consumer unblocks the same step as fetch: the same number */
    const rm_consumer *user = consumer(&p, "exe/user.cc");
    assert_non_null(user);
    assert_int_equal(user->n_unblocks_steps, 1);
    assert_int_equal(user->unblocks_steps[0], w->step);
    /* exe/other.cc's what-if leaves kept_handle.h dead, but string() still names it: no step */
    const rm_consumer *other = consumer(&p, "exe/other.cc");
    assert_non_null(other);
    assert_int_equal(other->n_unblocks, 2); /* the file and its class */
    assert_int_equal(other->n_unblocks_steps, 0);
    /* migrating kept_handle.h itself takes every reference naming it, string()'s too */
    const rm_item *kept = item(&p, RM_FILE, "details/kept_handle.h", NULL);
    assert_true(kept && kept->live && kept->n_unblocks_steps == 1);
    assert_string_equal(wstep(&p, kept->unblocks_steps[0])->deletes[0], "details/kept_handle.h");
    assert_int_equal(p.n_unblocked, 3);
    sb j = {0}, m = {0};
    assert_int_equal(rm_write_json(&p, &j), 0);
    assert_non_null(strstr(j.s, "\"unblocks_steps\": [{\"step\": 2, \"deletes\": [\"details/fetch_op_handle.h\", "
                                "\"details/op_handle_base.h\"], \"joins\": [1]}]}"));
    assert_int_equal(rm_write_markdown(&p, &m), 0);
    assert_non_null(strstr(m.s, "| step 2 (delete it, `details/op_handle_base.h`; with step 1) | 2 | "));
    assert_non_null(strstr(m.s, "| `exe/other.cc` | 2 | "));
    assert_non_null(strstr(m.s, " |  | 2 | file details/kept_handle.h, class KeptHandle"));
    assert_non_null(strstr(m.s, "| 2 | `details/fetch_op_handle.h`, `details/op_handle_base.h` | 1 | "
                                "`details/fetch_op_handle.h`, `exe/user.cc` |\n"));
    sb_free(&j);
    sb_free(&m);
    sb_free(&d);
    rm_plan_free(&p);
}

/* Issue 28: the scan's plan (rm_plan_build_lean) is the full plan without its migrate table:
 * the same items, live marks, callers and chains, but no migrate_to, unblocks or consumers
 * (the what-if runs of the liveness that cost most of a cold scan's plan are not run). */
static void lean_plan_is_full_plan_without_migrate_table(void **state) {
    sunset_index *ix = index_of(OH_TREE, 3);
    sunset_result r = {0};
    r.findings = OH_SEEDS;
    r.n_findings = 2;
    rm_plan full, lean;
    assert_int_equal(rm_plan_build(ix, RS, &r, &full), 0);
    assert_int_equal(rm_plan_build_lean(ix, RS, &r, &lean), 0);
    sunset_index_free(ix);
    assert_int_equal(full.n_consumers, 1);
    assert_int_equal(lean.n_consumers, 0);
    assert_int_equal(lean.n_items, full.n_items);
    size_t unblocking = 0;
    for (size_t i = 0; i < full.n_items; i++) {
        const rm_item *a = &full.items[i], *b = &lean.items[i];
        assert_int_equal(a->kind, b->kind);
        assert_string_equal(a->path, b->path);
        assert_true(a->name ? b->name && !strcmp(a->name, b->name) : !b->name);
        assert_int_equal(a->live, b->live);
        assert_int_equal(a->derived, b->derived);
        assert_int_equal(a->line, b->line);
        assert_int_equal(a->n_callers, b->n_callers);
        for (size_t k = 0; k < a->n_callers; k++) assert_string_equal(a->callers[k], b->callers[k]);
        const char *ta = chain(a); /* one call: the next one frees what it returned */
        char *ca = sunset_strndup(ta, strlen(ta));
        assert_string_equal(ca, chain(b));
        sunset_free(ca);
        assert_null(b->migrate_to);
        assert_int_equal(b->n_unblocks, 0);
        unblocking += a->n_unblocks;
    }
    assert_true(unblocking > 0); /* the full plan did run its what-ifs */
    rm_plan_free(&full);
    rm_plan_free(&lean);
}

#define WD_PY "import unittest\n\n\nclass TestWD(unittest.TestCase):\n    def run_exe(\n        self,\n" \
              "        place,\n        use_reduce=False,\n        use_fast_executor=False,\n        use_mem=False,\n" \
              "    ):\n        return place, use_reduce, use_mem\n"

/* A mechanical migration: a keyword parameter nothing reads, on a line of its own, is dropped by
 * the patch (the rule says "mechanical": "drop-argument"); once the name is read anywhere, or
 * the line holds more than the keyword, it is not. */
static void mechanical_drop_argument(void **state) {
    const tfile tree[] = {{"test/legacy_test/test_wd.py", SUNSET_LANG_PYTHON, WD_PY}};
    sunset_finding fd = {.rule_id = "ES-PY-FAST-EXECUTOR", .ctx = SUNSET_CTX_CODE, .path = "test/legacy_test/test_wd.py",
                         .span = {9, 9, 9, 26}, .matched = "use_fast_executor",
                         .snippet = "        use_fast_executor=False,"};
    rm_plan p;
    sb d = {0};
    plan_of(tree, 1, &fd, 1, &p, &d);
    const rm_item *a = item(&p, RM_ARGUMENT, "test/legacy_test/test_wd.py", "use_fast_executor");
    assert_non_null(a);
    assert_true(a->patchable && !a->live);
    assert_string_equal(a->mechanical, "drop-argument");
    assert_int_equal(a->step, 1);
    assert_non_null(strstr(d.s, "@@ -6,7 +6,6 @@\n         self,\n         place,\n         use_reduce=False,\n"
                                "-        use_fast_executor=False,\n         use_mem=False,\n"));
    /* the patch applies to the tree and the check finds nothing left dangling */
    char dir[] = "/tmp/sunset-mech-XXXXXX";
    assert_non_null(mkdtemp(dir));
    write_files(dir, tree, 1);
    sb why = {0};
    assert_int_equal(rm_patch_applies(dir, d.s, d.len, &why), 0);
    sb_free(&why);
    char cmd[700];
    snprintf(cmd, sizeof cmd, "cd %s && git init -q . && git apply --check - <<'EOF'\n%sEOF\n", dir, d.s);
    assert_int_equal(system(cmd), 0);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
    sb j = {0};
    assert_int_equal(rm_write_json(&p, &j), 0);
    assert_non_null(strstr(j.s, "\"kind\": \"argument\""));
    assert_non_null(strstr(j.s, "\"mechanical\": \"drop-argument\""));
    sb_free(&j);
    sb_free(&d);
    rm_plan_free(&p);
    /* a second mention of the name (a body reading it) keeps the parameter */
    sunset_finding two[2] = {fd, fd};
    two[1].span.line = 12;
    two[1].snippet = "        return use_fast_executor";
    plan_of(tree, 1, two, 2, &p, &d);
    assert_null(item(&p, RM_ARGUMENT, "test/legacy_test/test_wd.py", NULL));
    assert_null(d.s ? strstr(d.s, "test_wd.py") : NULL);
    sb_free(&d);
    rm_plan_free(&p);
    /* a line holding more than the keyword stays */
    fd.snippet = "        use_fast_executor=False, use_mem=False,";
    plan_of(tree, 1, &fd, 1, &p, &d);
    assert_null(item(&p, RM_ARGUMENT, "test/legacy_test/test_wd.py", NULL));
    sb_free(&d);
    rm_plan_free(&p);
}

/* The plan's stored form (removable/store.c) keeps the steps migrations unblock: an item's
 * and a consumer's unblocks_steps and the plan's unblocked steps come back as they were. */
static void stored_plan_keeps_unblocked_steps(void **state) {
    (void)state;
    int item_steps[] = {3, 4}, cons_steps[] = {4}, joins[] = {1};
    char *deletes[] = {"a.cc"};
    rm_item it = {.kind = RM_FILE, .path = "live.cc", .unblocks_steps = item_steps, .n_unblocks_steps = 2};
    rm_consumer k = {.path = "user.py", .unblocks_steps = cons_steps, .n_unblocks_steps = 1};
    rm_wstep w = {.step = 4, .deletes = deletes, .n_deletes = 1, .joins = joins, .n_joins = 1};
    rm_plan p = {.items = &it, .n_items = 1, .consumers = &k, .n_consumers = 1, .unblocked = &w, .n_unblocked = 1,
                 .n_steps = 3};
    sb b = {0};
    assert_int_equal(rm_plan_encode(&p, &b), 0);
    rm_plan q;
    assert_int_equal(rm_plan_decode(b.s, b.len, NULL, &q), 0);
    assert_int_equal(q.items[0].n_unblocks_steps, 2);
    assert_int_equal(q.items[0].unblocks_steps[1], 4);
    assert_int_equal(q.consumers[0].n_unblocks_steps, 1);
    assert_int_equal(q.consumers[0].unblocks_steps[0], 4);
    assert_int_equal(q.n_unblocked, 1);
    assert_int_equal(q.unblocked[0].step, 4);
    assert_string_equal(q.unblocked[0].deletes[0], "a.cc");
    assert_int_equal(q.unblocked[0].joins[0], 1);
    rm_plan_free(&q);
    sb_free(&b);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(chain_across_files),
        cmocka_unit_test(empty_test_headers_targets),
        cmocka_unit_test(live_legacy_has_callers),
        cmocka_unit_test(flags_and_passes),
        cmocka_unit_test(conventions_from_settings),
        cmocka_unit_test(cmake_wrapper_from_a_pack),
        cmocka_unit_test(independent_of_order),
        cmocka_unit_test(no_leak_on_oom),
        cmocka_unit_test(patch_contents),
        cmocka_unit_test(sample_tree_patch),
        cmocka_unit_test(reexport_rewrite),
        cmocka_unit_test(dead_class_cut),
        cmocka_unit_test(ops_by_type_name),
        cmocka_unit_test(derived_test_flag_from_own_path),
        cmocka_unit_test(link_time_references),
        cmocka_unit_test(renames_copies_modes),
        cmocka_unit_test(check_refs_script),
        cmocka_unit_test(symlinks_and_quoted_paths),
        cmocka_unit_test(liveness_by_name),
        cmocka_unit_test(cmake_blank_lines),
        cmocka_unit_test(class_cut_imports),
        cmocka_unit_test(class_cut_two_byte_import),
        cmocka_unit_test(class_cut_attribute_uses),
        cmocka_unit_test(test_only_headers_and_legacy_registrations),
        cmocka_unit_test(functions_called_only_by_legacy),
        cmocka_unit_test(callers_three_deep_modules_by_directory),
        cmocka_unit_test(pass_named_only_in_legacy_class),
        cmocka_unit_test(cmake_empty_blocks),
        cmocka_unit_test(cmake_relayout),
        cmocka_unit_test(migrate_table_unblocks),
        cmocka_unit_test(migrate_entries_name_their_steps),
        cmocka_unit_test(lean_plan_is_full_plan_without_migrate_table),
        cmocka_unit_test(mechanical_drop_argument),
        cmocka_unit_test(stored_plan_keeps_unblocked_steps),
    };
    int failed = cmocka_run_group_tests(tests, load_rules, free_rules);
    sb_free(&chain_text);
    return failed;
}
