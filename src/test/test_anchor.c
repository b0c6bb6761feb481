/*
 * test_anchor.c — settings.anchor: a match of an anchored rule counts only in a file tied to
 * Paddle (by its tree, path, licence header, import, namespace, include, CMake command or
 * prose, and a tree not on disk by its own answer), so
 * look-alike code (mxnet's OpHandle, MegEngine's ExecutionStrategy, a local ParallelExecutor)
 * yields nothing; rules and packs that say "anchored": false match anywhere; a rule's "unless"
 * drops a word used in another sense, "unless" file_without/tree_without a match where the
 * legacy construction it presumes is gone; bad anchors are load errors naming the field.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <limits.h>

#include "core/engine.h"
#include "lang/registry.h"

#define SETTINGS(anchor)                                                                       \
    "{\"schema\":1,\"settings\":{\"families\":[{\"id\":\"pe\",\"title\":\"PE\"}]" anchor "},"  \
    "\"family\":\"pe\",\"rules\":["                                                            \
    "{\"id\":\"PE-IDENT\",\"task\":5,\"languages\":[\"cpp\",\"python\"],\"severity\":\"error\","  \
    " \"message\":\"m\",\"fix\":\"f\",\"match\":{\"kind\":\"identifier\","                    \
    " \"pattern\":\"ParallelExecutor|OpHandle\"},\"literals\":[\"ParallelExecutor\",\"OpHandle\"]}," \
    "{\"id\":\"PE-CMAKE\",\"task\":5,\"languages\":[\"cmake\"],\"severity\":\"error\","          \
    " \"message\":\"m\",\"fix\":\"f\",\"match\":{\"kind\":\"cmake\",\"arg\":\"op_handle\\\\.cc$\"}," \
    " \"literals\":[\"op_handle\"]},"                                                          \
    "{\"id\":\"PE-DOC\",\"task\":5,\"languages\":[\"markdown\"],\"severity\":\"info\","          \
    " \"message\":\"m\",\"fix\":\"f\",\"match\":{\"kind\":\"text\",\"pattern\":\"ParallelExecutor\"}," \
    " \"literals\":[\"ParallelExecutor\"]},"                                                   \
    "{\"id\":\"PE-FLAG\",\"task\":5,\"languages\":[\"shell\"],\"severity\":\"error\","          \
    " \"anchored\":false,\"message\":\"m\",\"fix\":\"f\","                                    \
    " \"match\":{\"kind\":\"gflag\",\"names\":[\"enable_parallel_graph\"]}}]}"

#define ANCHOR_JSON                                                                            \
    ",\"anchor\":{\"tree\":[\"paddle/fluid\"],\"paths\":[\"(^|/)paddle/fluid/\"],"                   \
    "\"header\":[\"(?i)copyright.*paddle\"],\"modules\":[\"^paddle(\\\\.|$)\"],"                    \
    "\"module_literals\":[\"paddle\"],\"namespaces\":[\"^paddle(::|$)\"],\"headers\":[\"^paddle/\"]," \
    "\"commands\":[\"^cc_library$\"],\"words\":[\"(?i)\\\\bpaddle\"]}"

static const char *anchored_pack = SETTINGS(ANCHOR_JSON);

typedef struct fixture {
    sunset_ruleset *rs;
    sunset_engine *e;
    sunset_engine_opts o;
} fixture;

static int setup_pack(void **state, const char *pack) {
    fixture *f = calloc(1, sizeof *f);
    sunset_error err = {{0}};
    f->rs = sunset_ruleset_load_string(pack, "pack.json", "queries", &err);
    if (!f->rs) {
        fprintf(stderr, "%s\n", err.msg);
        return -1;
    }
    f->o = (sunset_engine_opts){SUNSET_ALL_FRONTENDS, .jobs = 1, .queries_dir = "queries"};
    f->e = sunset_engine_new(f->rs, &f->o, &err);
    if (!f->e) {
        fprintf(stderr, "%s\n", err.msg);
        return -1;
    }
    *state = f;
    return 0;
}

static int setup(void **state) { return setup_pack(state, anchored_pack); }

static int teardown(void **state) {
    fixture *f = *state;
    sunset_engine_free(f->e);
    sunset_ruleset_free(f->rs);
    free(f);
    return 0;
}

/* Findings of `rule` when `code` is scanned at `path`. */
static size_t count(fixture *f, const char *path, const char *code, const char *rule) {
    sunset_result r = {0};
    assert_int_equal(sunset_engine_scan_buffer(f->e, path, code, strlen(code), &r), 0);
    size_t n = 0;
    for (size_t i = 0; i < r.n_findings; i++) n += strcmp(r.findings[i].rule_id, rule) == 0;
    sunset_result_free(&r);
    return n;
}

static void python_by_import(void **state) {
    fixture *f = *state;
    /* a project's own class of that name, no Paddle import */
    const char *local = "import concurrent.futures\n\n"
                        "class ParallelExecutor:\n    pass\n\n"
                        "ex = ParallelExecutor()\n";
    assert_int_equal(count(f, "mypkg/parallel.py", local, "PE-IDENT"), 0);
    assert_int_equal(count(f, "train.py", "import paddle.fluid as fluid\n"
                                          "exe = fluid.ParallelExecutor(True)\n", "PE-IDENT"), 1);
    assert_int_equal(count(f, "train.py", "from paddle import fluid\n"
                                          "exe = fluid.ParallelExecutor(True)\n", "PE-IDENT"), 1);
    /* `import paddlex` is another module */
    assert_int_equal(count(f, "train.py", "import paddlex\nexe = ParallelExecutor()\n", "PE-IDENT"), 0);
}

static void python_import_outside_the_part(void **state) {
    fixture *f = *state;
    /* the import is a statement of its own far from the match: the partial parse must keep it */
    char code[8192];
    int n = snprintf(code, sizeof code, "\"\"\"doc\"\"\"\nimport os\nimport paddle\n");
    for (int i = 0; i < 40; i++) n += snprintf(code + n, sizeof code - (size_t)n, "def f%d():\n    return %d\n\n", i, i);
    snprintf(code + n, sizeof code - (size_t)n, "exe = ParallelExecutor()\n");
    assert_int_equal(count(f, "tools/run.py", code, "PE-IDENT"), 1);
    code[strstr(code, "import paddle") - code + 7] = 'P'; /* import Paddle: not the module */
    assert_int_equal(count(f, "tools/run.py", code, "PE-IDENT"), 0);
}

static void cpp_by_namespace_and_include(void **state) {
    fixture *f = *state;
    /* mxnet-style: its own engine's OpHandle and VarHandle */
    const char *mx = "namespace mxnet {\nnamespace engine {\n"
                     "struct OpHandle;\nclass CachedOpHandle {};\n}  // namespace engine\n}\n";
    assert_int_equal(count(f, "src/engine/engine_impl.h", mx, "PE-IDENT"), 0);
    assert_int_equal(count(f, "src/x.cc", "namespace paddle {\nnamespace framework {\n"
                                          "class ParallelExecutor {};\n}\n}\n", "PE-IDENT"), 1);
    assert_int_equal(count(f, "src/x.cc", "#include \"paddle/fluid/framework/scope.h\"\n"
                                          "ParallelExecutor *pe;\n", "PE-IDENT"), 1);
    assert_int_equal(count(f, "src/x.cc", "namespace fw = paddle::framework;\n"
                                          "fw::ParallelExecutor *pe;\n", "PE-IDENT"), 1);
    /* Paddle's own tree by path, and by its licence header */
    assert_int_equal(count(f, "paddle/fluid/x.h", "class ParallelExecutor;\n", "PE-IDENT"), 1);
    assert_int_equal(count(f, "src/x.h", "// Copyright (c) 2024 PaddlePaddle Authors.\n"
                                         "class ParallelExecutor;\n", "PE-IDENT"), 1);
    /* a mention below the head is no licence header */
    char code[4096];
    int n = 0;
    for (int i = 0; i < 30; i++) n += snprintf(code + n, sizeof code - (size_t)n, "int v%d;\n", i);
    snprintf(code + n, sizeof code - (size_t)n, "// copyright: see PaddlePaddle\nclass ParallelExecutor;\n");
    assert_int_equal(count(f, "src/x.h", code, "PE-IDENT"), 0);
}

static void cmake_docs_and_unanchored_rules(void **state) {
    fixture *f = *state;
    assert_int_equal(count(f, "CMakeLists.txt", "add_library(engine src/op_handle.cc)\n", "PE-CMAKE"), 0);
    assert_int_equal(count(f, "CMakeLists.txt", "cc_library(engine SRCS op_handle.cc)\n", "PE-CMAKE"), 1);
    assert_int_equal(count(f, "doc.md", "MegEngine's ParallelExecutor runs kernels.\n", "PE-DOC"), 0);
    assert_int_equal(count(f, "doc.md", "Paddle's ParallelExecutor is gone.\n", "PE-DOC"), 1);
    /* "anchored": false: the flag is Paddle's alone, a shell script need not say so */
    assert_int_equal(count(f, "run.sh", "export FLAGS_enable_parallel_graph=1\n", "PE-FLAG"), 1);
}

static void anchor_all_and_no_anchor(void **state) {
    fixture *f = *state;
    f->o.anchor_all = true; /* the rule examples: every file is Paddle's */
    sunset_error err = {{0}};
    sunset_engine *e = sunset_engine_new(f->rs, &f->o, &err);
    assert_non_null(e);
    sunset_result r = {0};
    const char *code = "class ParallelExecutor:\n    pass\n";
    assert_int_equal(sunset_engine_scan_buffer(e, "p.py", code, strlen(code), &r), 0);
    assert_int_equal(r.n_findings, 1);
    sunset_result_free(&r);
    sunset_engine_free(e);
    f->o.anchor_all = false;
    /* a settings pack without "anchor" ties every file, as before anchors existed */
    fixture *g;
    assert_int_equal(setup_pack((void **)&g, SETTINGS("")), 0);
    assert_int_equal(count(g, "p.py", code, "PE-IDENT"), 1);
    teardown((void **)&g);
}

/* Findings of a file at `rel` under the directory `root`, scanned as a tree. */
static size_t scan_tree(fixture *f, const char *root, const char *rel) {
    sunset_result r = {0};
    char *paths[] = {(char *)rel};
    assert_int_equal(sunset_engine_scan(f->e, root, paths, 1, &r), 0);
    size_t n = r.n_findings;
    sunset_result_free(&r);
    return n;
}

static bool has_fluid(void *ud, const char *path) {
    (void)ud;
    return strcmp(path, "paddle/fluid") == 0;
}

static bool has_nothing(void *ud, const char *path) {
    (void)ud;
    (void)path;
    return false;
}

static void paddle_tree_ties_every_file(void **state) {
    fixture *f = *state;
    char root[] = "/tmp/sunset-anchor-XXXXXX", p[512];
    assert_non_null(mkdtemp(root));
    snprintf(p, sizeof p, "%s/tools", root);
    assert_int_equal(mkdir(p, 0755), 0);
    snprintf(p, sizeof p, "%s/tools/ut_rule.py", root);
    FILE *fp = fopen(p, "w");
    assert_non_null(fp);
    fputs("HIGH_PARALLEL_JOB = ['ParallelExecutor']\nexe = ParallelExecutor()\n", fp);
    fclose(fp);
    assert_int_equal(scan_tree(f, root, "tools/ut_rule.py"), 0);
    snprintf(p, sizeof p, "%s/paddle", root);
    assert_int_equal(mkdir(p, 0755), 0);
    snprintf(p, sizeof p, "%s/paddle/fluid", root);
    assert_int_equal(mkdir(p, 0755), 0);
    assert_int_equal(scan_tree(f, root, "tools/ut_rule.py"), 2); /* Paddle's own tools/ */
    /* a tree not on disk (history): its own answer */
    sunset_error err = {{0}};
    sunset_engine *e = sunset_engine_new(f->rs, &f->o, &err);
    assert_non_null(e);
    const char *code = "exe = ParallelExecutor()\n";
    for (int paddle = 0; paddle < 2; paddle++) {
        assert_int_equal(sunset_engine_set_tree(e, paddle ? has_fluid : has_nothing, NULL), paddle);
        sunset_result r = {0};
        assert_int_equal(sunset_engine_scan_buffer(e, "tools/run.py", code, strlen(code), &r), 0);
        assert_int_equal(r.n_findings, (size_t)paddle);
        sunset_result_free(&r);
    }
    snprintf(p, sizeof p, "%s/paddle/fluid", root);
    rmdir(p);
    snprintf(p, sizeof p, "%s/paddle", root);
    rmdir(p);
    snprintf(p, sizeof p, "%s/tools/ut_rule.py", root);
    remove(p);
    snprintf(p, sizeof p, "%s/tools", root);
    rmdir(p);
    rmdir(root);
    sunset_engine_free(e);
}

/* A command hands the engine its checkout's work-tree top: the root's parents up to it are
 * looked at without any .git probe; without one (a library caller), only what the probe
 * finds (here no .git: the root alone). */
static void the_checkouts_top_bounds_the_tree(void **state) {
    fixture *f = *state;
    char tmp[] = "/tmp/sunset-anchor-XXXXXX", top[PATH_MAX], p[PATH_MAX + 64];
    assert_non_null(mkdtemp(tmp));
    assert_non_null(realpath(tmp, top));
    const char *dirs[] = {"tools", "paddle", "paddle/fluid"};
    for (size_t i = 0; i < 3; i++) {
        snprintf(p, sizeof p, "%s/%s", top, dirs[i]);
        assert_int_equal(mkdir(p, 0755), 0);
    }
    snprintf(p, sizeof p, "%s/tools/ut_rule.py", top);
    FILE *fp = fopen(p, "w");
    assert_non_null(fp);
    fputs("exe = ParallelExecutor()\n", fp);
    fclose(fp);
    snprintf(p, sizeof p, "%s/tools", top);
    assert_int_equal(scan_tree(f, p, "ut_rule.py"), 0); /* no top, no .git: tools/ alone */
    sunset_engine_opts o = f->o;
    o.tree_top = top;
    sunset_error err = {{0}};
    fixture g = {f->rs, sunset_engine_new(f->rs, &o, &err), o};
    assert_non_null(g.e);
    assert_int_equal(scan_tree(&g, p, "ut_rule.py"), 1); /* Paddle's own tools/ */
    sunset_engine_free(g.e);
    char cmd[PATH_MAX + 16];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", top);
    assert_int_equal(system(cmd), 0);
}

static void unless_reads_another_sense(void **state) {
    (void)state;
    fixture *g;
    assert_int_equal(setup_pack((void **)&g, SETTINGS("")), 0);
    sunset_ruleset_free(g->rs);
    sunset_engine_free(g->e);
    sunset_error err = {{0}};
    const char *pack =
        "{\"schema\":1,\"settings\":{\"families\":[{\"id\":\"pe\",\"title\":\"PE\"}]},"
        "\"family\":\"pe\",\"rules\":[{\"id\":\"PE-ABBREV\",\"task\":5,\"languages\":[\"python\"],"
        "\"severity\":\"info\",\"message\":\"m\",\"fix\":\"f\",\"literals\":[\" PE \"],"
        "\"unless\":{\"line\":\"(?i)\\\\blayer\",\"file\":\"position_encoding\"},"
        "\"match\":{\"kind\":\"identifier\",\"pattern\":\"^PE$\"}}]}";
    g->rs = sunset_ruleset_load_string(pack, "pack.json", "queries", &err);
    assert_non_null(g->rs);
    g->e = sunset_engine_new(g->rs, &g->o, &err);
    assert_non_null(g->e);
    assert_int_equal(count(g, "a.py", "# the PE is not run\n# the PE again\nx = 1\n", "PE-ABBREV"), 2);
    assert_int_equal(count(g, "a.py", "# skip the PE on the first layer\n# the PE again\nx = 1\n", "PE-ABBREV"), 1);
    assert_int_equal(count(g, "a.py", "def position_encoding(n):\n    pass\n# add the PE here\n", "PE-ABBREV"), 0);
    teardown((void **)&g);
    const char *bad = "{\"schema\":1,\"settings\":{\"families\":[{\"id\":\"pe\",\"title\":\"PE\"}]},"
        "\"family\":\"pe\",\"rules\":[{\"id\":\"PE-ABBREV\",\"task\":5,\"languages\":[\"python\"],"
        "\"severity\":\"info\",\"message\":\"m\",\"fix\":\"f\",\"literals\":[\" PE \"],"
        "\"unless\":{\"line\":3},\"match\":{\"kind\":\"identifier\",\"pattern\":\"^PE$\"}}]}";
    assert_null(sunset_ruleset_load_string(bad, "pack.json", "queries", &err));
    assert_non_null(strstr(err.msg, "\"unless.line\" must be a regex string"));
}

/* "unless.file_without" and "unless.tree_without": a rule about code that builds a
 * ParallelExecutor counts only where the file still builds one, or the tree still has one.
 * Paddle's tip kept _compile_data_parallel and _share_vars_from around a core.CompiledProgram. */
static bool has_pe(void *ud, const char *path) {
    (void)ud;
    return strcmp(path, "paddle/fluid/framework/parallel_executor.h") == 0;
}

static void unless_without_wants_the_construction(void **state) {
    (void)state;
    fixture *g;
    sunset_error err = {{0}};
    const char *pack =
        "{\"schema\":1,\"settings\":{\"families\":[{\"id\":\"pe\",\"title\":\"PE\"}]},"
        "\"family\":\"pe\",\"rules\":[{\"id\":\"PE-COMPILE\",\"task\":2,\"languages\":[\"python\"],"
        "\"severity\":\"warning\",\"message\":\"m\",\"fix\":\"f\","
        "\"unless\":{\"file_without\":\"\\\\bParallelExecutor\\\\s*\\\\(\"},"
        "\"match\":{\"kind\":\"identifier\",\"names\":[\"_compile_data_parallel\"]}},"
        "{\"id\":\"PE-SHARE\",\"task\":2,\"languages\":[\"python\"],"
        "\"severity\":\"warning\",\"message\":\"m\",\"fix\":\"f\","
        "\"unless\":{\"tree_without\":[\"paddle/fluid/framework/parallel_executor.h\"]},"
        "\"match\":{\"kind\":\"attribute\",\"names\":[\"_share_vars_from\"]}}]}";
    assert_int_equal(setup_pack((void **)&g, pack), 0);
    const char *old = "def _compile_data_parallel(self):\n    return core.ParallelExecutor(self._places)\n";
    const char *tip = "def _compile_data_parallel(self):\n    return core.CompiledProgram(self._places)\n";
    assert_int_equal(count(g, "compiler.py", old, "PE-COMPILE"), 1);
    assert_int_equal(count(g, "compiler.py", tip, "PE-COMPILE"), 0);
    /* no tree looked at (an example, stdin): absence is no evidence */
    const char *share = "program._share_vars_from = cache\n";
    assert_int_equal(count(g, "executor.py", share, "PE-SHARE"), 1);
    /* a tree not on disk (history): its own answer, both ways */
    for (int pe = 1; pe >= 0; pe--) {
        sunset_engine_set_tree(g->e, pe ? has_pe : has_nothing, NULL);
        assert_int_equal(count(g, "executor.py", share, "PE-SHARE"), pe);
    }
    /* a tree on disk, the file scanned from it */
    char root[] = "/tmp/sunset-unless-XXXXXX", p[512];
    assert_non_null(mkdtemp(root));
    snprintf(p, sizeof p, "%s/executor.py", root);
    FILE *fp = fopen(p, "w");
    assert_non_null(fp);
    fputs(share, fp);
    fclose(fp);
    assert_int_equal(scan_tree(g, root, "executor.py"), 0);
    const char *dirs[] = {"paddle", "paddle/fluid", "paddle/fluid/framework"};
    for (size_t i = 0; i < 3; i++) {
        snprintf(p, sizeof p, "%s/%s", root, dirs[i]);
        assert_int_equal(mkdir(p, 0755), 0);
    }
    snprintf(p, sizeof p, "%s/paddle/fluid/framework/parallel_executor.h", root);
    assert_non_null(fp = fopen(p, "w"));
    fclose(fp);
    assert_int_equal(scan_tree(g, root, "executor.py"), 1);
    remove(p);
    for (size_t i = 3; i-- > 0;) {
        snprintf(p, sizeof p, "%s/%s", root, dirs[i]);
        rmdir(p);
    }
    snprintf(p, sizeof p, "%s/executor.py", root);
    remove(p);
    rmdir(root);
    teardown((void **)&g);
    char *bad = strdup(pack);
    char *at = strstr(bad, "[\"paddle/fluid/framework/parallel_executor.h\"]");
    at[2] = '/'; /* "/addle/fluid/...": an absolute path */
    assert_null(sunset_ruleset_load_string(bad, "pack.json", "queries", &err));
    assert_non_null(strstr(err.msg, "\"unless.tree_without\" holds relative paths"));
    free(bad);
}

/* The anchor settings of anchored_pack with a gflag rule anchored in C++ only and an option
 * rule whose shared names count only where Paddle is ("unless.untied"). */
static const char *partly_anchored_pack =
    "{\"schema\":1,\"settings\":{\"families\":[{\"id\":\"pe\",\"title\":\"PE\"}]" ANCHOR_JSON "},"
    "\"family\":\"pe\",\"rules\":["
    "{\"id\":\"PE-FLAG\",\"task\":5,\"languages\":[\"cpp\",\"shell\"],\"severity\":\"error\","
    " \"anchored\":[\"cpp\"],\"message\":\"m\",\"fix\":\"f\","
    " \"match\":{\"kind\":\"gflag\",\"names\":[\"enable_parallel_graph\"]}},"
    "{\"id\":\"PE-OPT\",\"task\":5,\"languages\":[\"shell\"],\"severity\":\"warning\","
    " \"anchored\":false,\"message\":\"m\",\"fix\":\"f\","
    " \"match\":{\"kind\":\"text\",\"pattern\":\"--(use_fast_executor|parallel_exe)\\\\b\"},"
    " \"unless\":{\"untied\":\"\\\\bparallel_exe\\\\b\"},"
    " \"literals\":[\"use_fast_executor\",\"parallel_exe\"]}]}";

static void shared_names_and_languages(void **state) {
    (void)state;
    fixture *f;
    assert_int_equal(setup_pack((void **)&f, partly_anchored_pack), 0);
    /* a launch script sets Paddle's flag; a C++ file not tied to Paddle has a flag of its own */
    assert_int_equal(count(f, "run.sh", "export FLAGS_enable_parallel_graph=1\n", "PE-FLAG"), 1);
    assert_int_equal(count(f, "src/flags.cc", "DEFINE_bool(enable_parallel_graph, false, \"\");\n", "PE-FLAG"), 0);
    assert_int_equal(count(f, "src/pe.cc", "#include \"paddle/fluid/platform/flags.h\"\n"
                                           "bool on() { return FLAGS_enable_parallel_graph; }\n", "PE-FLAG"), 1);
    /* a build script's --parallel_exe is its own, Paddle's only beside Paddle */
    assert_int_equal(count(f, "bench.sh", "python bench.py --parallel_exe ./solver_mpi\n", "PE-OPT"), 0);
    assert_int_equal(count(f, "bench.sh", "python bench.py --use_fast_executor\n", "PE-OPT"), 1);
    assert_int_equal(count(f, "train.sh", "python -m paddle.distributed.launch t.py --parallel_exe 1\n", "PE-OPT"), 1);
    teardown((void **)&f);
}

static void cpp_variable_named_paddle(void **state) {
    fixture *f = *state;
    /* a game's variable is not Paddle's namespace */
    assert_int_equal(count(f, "src/pong.cc", "struct Paddle { int y; };\nParallelExecutor *exec;\n"
                                             "void step(Paddle &paddle) { paddle.y += 1; }\n", "PE-IDENT"), 0);
    assert_int_equal(count(f, "src/run.cc", "using namespace paddle;\nParallelExecutor *pe;\n", "PE-IDENT"), 1);
    assert_int_equal(count(f, "src/run.cc", "namespace fw = paddle::framework;\nParallelExecutor *pe;\n", "PE-IDENT"), 1);
}

static void bad_anchors_are_load_errors(void **state) {
    (void)state;
    struct { const char *pack, *want; } cases[] = {
        {SETTINGS(",\"anchor\":3"), "\"anchor\" must be an object"},
        {SETTINGS(",\"anchor\":{\"module\":[\"x\"]}"), "module"},
        {SETTINGS(",\"anchor\":{\"modules\":[\"(\"]}"), "modules"},
        {SETTINGS(",\"anchor\":{\"module_literals\":[1]}"), "module_literals"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        sunset_error err = {{0}};
        sunset_ruleset *rs = sunset_ruleset_load_string(cases[i].pack, "pack.json", "queries", &err);
        assert_null(rs);
        assert_non_null(strstr(err.msg, "pack.json:"));
        if (!strstr(err.msg, cases[i].want)) fail_msg("case %zu: %s", i, err.msg);
    }
    /* a rule's "anchored": true, false or the languages it is anchored in */
    struct { const char *value, *want; } anc[] = {
        {"\"no\"", "\"anchored\" must be true, false or a list of languages"},
        {"[]", "\"anchored\" must be a non-empty array"},
        {"[\"klingon\"]", "unknown language \"klingon\""},
    };
    for (size_t i = 0; i < sizeof anc / sizeof *anc; i++) {
        sunset_error err = {{0}};
        const char *at = strstr(anchored_pack, "\"anchored\":false") + strlen("\"anchored\":");
        sb bad = {0};
        sb_printf(&bad, "%.*s%s%s", (int)(at - anchored_pack), anchored_pack, anc[i].value, at + strlen("false"));
        assert_false(bad.oom);
        assert_null(sunset_ruleset_load_string(bad.s, "pack.json", "queries", &err));
        if (!strstr(err.msg, anc[i].want)) fail_msg("anchored %s: %s", anc[i].value, err.msg);
        sb_free(&bad);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(python_by_import),
        cmocka_unit_test(the_checkouts_top_bounds_the_tree),
        cmocka_unit_test(python_import_outside_the_part),
        cmocka_unit_test(cpp_by_namespace_and_include),
        cmocka_unit_test(cmake_docs_and_unanchored_rules),
        cmocka_unit_test(anchor_all_and_no_anchor),
        cmocka_unit_test(shared_names_and_languages),
        cmocka_unit_test_setup_teardown(cpp_variable_named_paddle, setup, teardown),
        cmocka_unit_test(paddle_tree_ties_every_file),
        cmocka_unit_test(unless_reads_another_sense),
        cmocka_unit_test(unless_without_wants_the_construction),
        cmocka_unit_test(bad_anchors_are_load_errors),
    };
    return cmocka_run_group_tests_name("anchor", tests, setup, teardown);
}
