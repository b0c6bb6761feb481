/*
 * test_engine.c — the engine with real frontends on in-memory files and a small rule pack:
 * context severities, overlap resolution, enclosing scopes, test flags, generated and binary
 * files, path rules, the disable list, fingerprints that survive unrelated edits, and output
 * that does not depend on the thread count.
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

#include "core/engine.h"
#include "lang/registry.h"
#include "test/flowpack.h"

static const char *pack =
    "{\"schema\":1,\"settings\":{\"families\":[{\"id\":\"parallel_executor\",\"title\":\"PE\"},"
    "{\"id\":\"execution_strategy\",\"title\":\"ES\"}],\"test_paths\":[\"(^|/)test_[^/]*\\\\.py$\"],"
    "\"generated_markers\":[\"DO NOT EDIT\"],\"generated_paths\":[\"\\\\.pb\\\\.h$\"],"
    "\"cmake\":{\"keywords\":[\"DEPS\"]}},"
    "\"family\":\"parallel_executor\",\"rules\":["
    "{\"id\":\"PE-IDENT\",\"task\":5,\"languages\":[\"cpp\",\"python\"],\"severity\":\"error\",\"message\":\"m\",\"fix\":\"f\","
    " \"literals\":[\"ParallelExecutor\"],\"match\":{\"kind\":\"identifier\",\"pattern\":\"ParallelExecutor\"}},"
    "{\"id\":\"PE-CALL\",\"task\":2,\"languages\":[\"python\"],\"severity\":\"warning\",\"message\":\"m\",\"fix\":\"f\","
    " \"literals\":[\"ParallelExecutor\"],\"match\":{\"kind\":\"call\",\"pattern\":\"^core\\\\.ParallelExecutor$\"}},"
    "{\"id\":\"ES-ATTR\",\"family\":\"execution_strategy\",\"task\":3,\"languages\":[\"python\"],\"severity\":\"warning\","
    " \"message\":\"m\",\"fix\":\"f\",\"match\":{\"kind\":\"attribute\",\"names\":[\"num_threads\"],\"receiver\":\"exec_strategy$\"}},"
    "{\"id\":\"PE-PATH\",\"task\":1,\"languages\":[\"python\"],\"severity\":\"error\",\"message\":\"m\",\"fix\":\"f\","
    " \"match\":{\"kind\":\"path\",\"pattern\":\"(^|/)test_parallel_executor_[^/]*\\\\.py$\"}},"
    "{\"id\":\"PE-CMAKE\",\"task\":5,\"languages\":[\"cmake\"],\"severity\":\"error\",\"message\":\"m\",\"fix\":\"f\","
    " \"match\":{\"kind\":\"cmake\",\"names\":[\"parallel_executor\"],\"section\":\"^DEPS$\"}},"
    "{\"id\":\"PE-SCOPED\",\"task\":5,\"languages\":[\"python\"],\"severity\":\"error\",\"message\":\"m\",\"fix\":\"f\","
    " \"paths\":{\"include\":[\"^pybind/\"]},\"match\":{\"kind\":\"identifier\",\"names\":[\"scoped_name\"]}}"
    "]}";

typedef struct fixture {
    sunset_ruleset *rs;
    sunset_engine *e;
    sunset_engine_opts o;
    disable_entry dis;
} fixture;

static const char *dis_rules[] = {"PE-IDENT"};
static const char *dis_paths[] = {"third_party/**"};

static int setup(void **state) {
    fixture *f = calloc(1, sizeof *f);
    sunset_error err = {{0}};
    f->rs = sunset_ruleset_load_string(pack, "pack.json", "queries", &err);
    if (!f->rs) {
        fprintf(stderr, "%s\n", err.msg);
        return -1;
    }
    f->dis = (disable_entry){dis_rules, 1, dis_paths, 1};
    f->o = (sunset_engine_opts){SUNSET_ALL_FRONTENDS, .jobs = 1, .queries_dir = "queries", .disable = &f->dis, .n_disable = 1};
    f->e = sunset_engine_new(f->rs, &f->o, &err);
    if (!f->e) {
        fprintf(stderr, "%s\n", err.msg);
        return -1;
    }
    *state = f;
    return 0;
}

static int teardown(void **state) {
    fixture *f = *state;
    sunset_engine_free(f->e);
    sunset_ruleset_free(f->rs);
    free(f);
    return 0;
}

static void scan(fixture *f, const char *path, const char *code, sunset_result *r) {
    memset(r, 0, sizeof *r);
    assert_int_equal(sunset_engine_scan_buffer(f->e, path, code, strlen(code), r), 0);
}

static const sunset_finding *find(const sunset_result *r, const char *rule, uint32_t line) {
    for (size_t i = 0; i < r->n_findings; i++)
        if (strcmp(r->findings[i].rule_id, rule) == 0 && r->findings[i].span.line == line)
            return &r->findings[i];
    return NULL;
}

/* A CMake wrapper and keyword the settings pack declares (settings.cmake) take effect without
 * a rebuild: the wrapper defines its first argument's target (a target_def rule matches it),
 * the keyword opens a section (a section rule matches its argument); in a pack that does not
 * declare them the wrapper defines nothing and the keyword is an argument like any other. */
static void cmake_wrapper_from_settings(void **state) {
    (void)state;
    static const char *fmt =
        "{\"schema\":1,\"settings\":{\"families\":[{\"id\":\"pe\",\"title\":\"PE\"}]%s},"
        "\"family\":\"pe\",\"rules\":[{\"id\":\"PE-TARGET\",\"task\":5,\"languages\":[\"cmake\"],"
        "\"severity\":\"error\",\"message\":\"m\",\"fix\":\"f\","
        "\"match\":{\"kind\":\"cmake\",\"names\":[\"pe_target\"],\"target_def\":true}},"
        "{\"id\":\"PE-DEP\",\"task\":5,\"languages\":[\"cmake\"],\"severity\":\"error\",\"message\":\"m\","
        "\"fix\":\"f\",\"match\":{\"kind\":\"cmake\",\"names\":[\"pe_dep\"],\"section\":\"^MY_DEPS$\"}}]}";
    const char *settings[] = {",\"cmake\":{\"target_commands\":[\"legacy_wrapper\"],\"keywords\":[\"MY_DEPS\"]}", ""};
    for (int k = 0; k < 2; k++) {
        char pack[1024];
        snprintf(pack, sizeof pack, fmt, settings[k]);
        sunset_error err = {{0}};
        fixture g = {0};
        g.rs = sunset_ruleset_load_string(pack, "pack.json", "queries", &err);
        assert_non_null(g.rs);
        g.o = (sunset_engine_opts){SUNSET_ALL_FRONTENDS, .jobs = 1, .queries_dir = "queries"};
        g.e = sunset_engine_new(g.rs, &g.o, &err);
        assert_non_null(g.e);
        sunset_result r;
        scan(&g, "CMakeLists.txt", "legacy_wrapper(pe_target SRCS pe.cc)\nother(x pe_target MY_DEPS pe_dep)\n", &r);
        assert_int_equal(r.n_findings, k == 0 ? 2 : 0);
        if (k == 0) {
            assert_non_null(find(&r, "PE-TARGET", 1));
            assert_non_null(find(&r, "PE-DEP", 2));
        }
        sunset_result_free(&r);
        sunset_engine_free(g.e);
        sunset_ruleset_free(g.rs);
    }
}

static void contexts_and_overlap(void **state) {
    fixture *f = *state;
    sunset_result r;
    scan(f, "python/paddle/base/compiler.py",
         "class CompiledProgram:\n"
         "    def _compile(self):\n"
         "        # ParallelExecutor builds the graph\n"
         "        return core.ParallelExecutor(places)\n"
         "    def run(self):\n"
         "        self.exec_strategy.num_threads = 1\n"
         "        config.num_threads = 4\n", &r);
    const sunset_finding *c = find(&r, "PE-IDENT", 3);
    assert_non_null(c);
    assert_int_equal(c->ctx, SUNSET_CTX_COMMENT);
    assert_int_equal(c->severity, SUNSET_SEV_INFO);
    assert_int_equal(c->span.col, 11);
    /* the call rule covers core.ParallelExecutor, so the identifier rule yields to it */
    assert_non_null(find(&r, "PE-CALL", 4));
    assert_null(find(&r, "PE-IDENT", 4));
    const sunset_finding *a = find(&r, "ES-ATTR", 6);
    assert_non_null(a);
    assert_string_equal(a->enc_kind, "method");
    assert_string_equal(a->enc_name, "CompiledProgram.run");
    assert_null(find(&r, "ES-ATTR", 7)); /* receiver constraint */
    assert_false(a->test);
    assert_int_equal(r.n_findings, 3);
    sunset_result_free(&r);
}

/* A string rule reads a comment's whole text only when it asks ("comments": true) and its
 * contexts allow comments: a phrase no single word says ("the parallel executor") is found in
 * a comment by the one that asks, never by the one that does not; in a docstring either may. */
static void string_rules_read_comments_when_asked(void **state) {
    (void)state;
    static const char *p =
        "{\"schema\":1,\"settings\":{\"families\":[{\"id\":\"parallel_executor\",\"title\":\"PE\"}]},"
        "\"family\":\"parallel_executor\",\"rules\":["
        "{\"id\":\"PE-PROSE\",\"task\":5,\"languages\":[\"python\"],\"severity\":\"info\",\"message\":\"m\","
        " \"fix\":\"f\",\"contexts\":[\"comment\",\"docstring\"],\"literals\":[\"arallel executor\"],"
        " \"match\":{\"kind\":\"string\",\"comments\":true,\"pattern\":\"[Pp]arallel executor\"}},"
        "{\"id\":\"PE-PLAIN\",\"task\":5,\"languages\":[\"python\"],\"severity\":\"info\",\"message\":\"m\","
        " \"fix\":\"f\",\"literals\":[\"arallel executor\"],"
        " \"match\":{\"kind\":\"string\",\"pattern\":\"[Pp]arallel executor\"}}]}";
    sunset_error err = {{0}};
    sunset_ruleset *rs = sunset_ruleset_load_string(p, "prose.json", "queries", &err);
    assert_non_null(rs);
    sunset_engine_opts o = {SUNSET_ALL_FRONTENDS, .jobs = 1, .queries_dir = "queries"};
    sunset_engine *e = sunset_engine_new(rs, &o, &err);
    assert_non_null(e);
    const char *code = "import paddle\n\n\ndef f(exe):\n    \"\"\"Run on the parallel executor.\"\"\"\n"
                       "    # use the parallel executor to speed up\n    return exe.run()\n";
    sunset_result r = {0};
    assert_int_equal(sunset_engine_scan_buffer(e, "train.py", code, strlen(code), &r), 0);
    const sunset_finding *c = find(&r, "PE-PROSE", 6);
    assert_non_null(c);
    assert_int_equal(c->ctx, SUNSET_CTX_COMMENT);
    assert_int_equal(c->span.col, 15);
    assert_null(find(&r, "PE-PLAIN", 6));
    assert_non_null(find(&r, "PE-PLAIN", 5)); /* the docstring: one finding per span, the smaller id */
    assert_int_equal(r.n_findings, 2);
    sunset_result_free(&r);
    sunset_engine_free(e);
    sunset_ruleset_free(rs);
    /* "comments" is a boolean */
    static const char *bad =
        "{\"schema\":1,\"settings\":{\"families\":[{\"id\":\"parallel_executor\",\"title\":\"PE\"}]},"
        "\"family\":\"parallel_executor\",\"rules\":["
        "{\"id\":\"PE-PROSE\",\"task\":5,\"languages\":[\"python\"],\"severity\":\"info\",\"message\":\"m\","
        " \"fix\":\"f\",\"literals\":[\"arallel executor\"],"
        " \"match\":{\"kind\":\"string\",\"comments\":1,\"pattern\":\"[Pp]arallel executor\"}}]}";
    assert_null(sunset_ruleset_load_string(bad, "bad.json", "queries", &err));
    assert_non_null(strstr(err.msg, "comments"));
}

static void files_skipped_and_path_rules(void **state) {
    fixture *f = *state;
    sunset_result r;
    scan(f, "test/legacy_test/test_parallel_executor_mnist.py", "import unittest\n", &r);
    assert_int_equal(r.n_findings, 1);
    assert_string_equal(r.findings[0].rule_id, "PE-PATH");
    assert_true(r.findings[0].test);
    sunset_result_free(&r);

    scan(f, "paddle/fluid/framework/framework.pb.h", "class ParallelExecutor;\n", &r);
    assert_int_equal(r.n_findings, 0);
    assert_int_equal(r.stats.skipped_generated, 1);
    sunset_result_free(&r);

    scan(f, "python/gen.py", "# DO NOT EDIT\nx = ParallelExecutor()\n", &r);
    assert_int_equal(r.stats.skipped_generated, 1);
    sunset_result_free(&r);

    const char bin[] = "ParallelExecutor\0\1\2";
    memset(&r, 0, sizeof r);
    assert_int_equal(sunset_engine_scan_buffer(f->e, "a.py", bin, sizeof bin - 1, &r), 0);
    assert_int_equal(r.stats.skipped_binary, 1);
    assert_int_equal(r.n_findings, 0);
    sunset_result_free(&r);

    /* the configuration's disable list */
    scan(f, "third_party/x/y.py", "x = ParallelExecutor()\n", &r);
    assert_int_equal(r.n_findings, 0);
    sunset_result_free(&r);

    /* prefiltered: no literal, no parse */
    scan(f, "python/a.py", "x = StandaloneExecutor()\n", &r);
    assert_int_equal(r.stats.files_prefiltered, 1);
    assert_int_equal(r.stats.files_parsed, 0);
    sunset_result_free(&r);
}

static void scoped_rules_prefilter_by_path(void **state) {
    fixture *f = *state;
    sunset_result r;
    /* the literal of a rule limited to pybind/ does not make other files worth parsing */
    scan(f, "python/a.py", "x = scoped_name\n", &r);
    assert_int_equal(r.stats.files_prefiltered, 1);
    assert_int_equal(r.n_findings, 0);
    sunset_result_free(&r);
    scan(f, "pybind/a.py", "x = scoped_name\n", &r);
    assert_int_equal(r.stats.files_parsed, 1);
    assert_int_equal(r.n_findings, 1);
    assert_string_equal(r.findings[0].rule_id, "PE-SCOPED");
    sunset_result_free(&r);
}

/* The prefilter, on the whole file and on the masked texts of its docstrings and comments
 * (sunset_sink_may_match), must never change what is found: each source gives the same
 * findings as a scan with --no-prefilter. */
static void prefilter_never_changes_findings(void **state) {
    fixture *f = *state;
    static const char *const sources[] = {
        /* the legacy call only in a docstring's example: that pass must run */
        "def f():\n"
        "    \"\"\"Build.\n\n    .. code-block:: python\n\n"
        "        >>> exe = core.ParallelExecutor(places)\n    \"\"\"\n"
        "    return 1\n",
        /* the legacy call in code, a docstring and a comment naming nothing legacy: skipped */
        "def f(places):\n"
        "    \"\"\"Example::\n\n        >>> y = compile(p)\n    \"\"\"\n"
        "    # z = build(p)\n"
        "    return core.ParallelExecutor(places)\n",
        /* commented-out legacy code and an attribute in an example */
        "# pe = core.ParallelExecutor(places)\n"
        "def g():\n"
        "    \"\"\"Example::\n\n        >>> self.exec_strategy.num_threads = 2\n    \"\"\"\n",
    };
    sunset_engine_opts o = f->o;
    o.no_prefilter = true;
    sunset_error err = {{0}};
    sunset_engine *all = sunset_engine_new(f->rs, &o, &err);
    assert_non_null(all);
    for (size_t i = 0; i < sizeof sources / sizeof *sources; i++) {
        sunset_result a, b;
        scan(f, "python/paddle/m.py", sources[i], &a);
        memset(&b, 0, sizeof b);
        assert_int_equal(sunset_engine_scan_buffer(all, "python/paddle/m.py", sources[i], strlen(sources[i]), &b), 0);
        assert_true(a.n_findings > 0);
        assert_int_equal(a.n_findings, b.n_findings);
        for (size_t k = 0; k < a.n_findings; k++) {
            assert_string_equal(a.findings[k].rule_id, b.findings[k].rule_id);
            assert_int_equal(a.findings[k].span.line, b.findings[k].span.line);
            assert_int_equal(a.findings[k].span.col, b.findings[k].span.col);
            assert_int_equal(a.findings[k].ctx, b.findings[k].ctx);
        }
        sunset_result_free(&a);
        sunset_result_free(&b);
    }
    /* and the example's call is found at all, in its docstring */
    sunset_result r;
    scan(f, "python/paddle/m.py", sources[0], &r);
    const sunset_finding *d = find(&r, "PE-CALL", 6);
    assert_non_null(d);
    assert_int_equal(d->ctx, SUNSET_CTX_DOCSTRING);
    sunset_result_free(&r);
    sunset_engine_free(all);
}

/* The same findings, whole: a file parsed in part (the units a rule may match in) against the
 * same file with --no-prefilter (parsed whole), every field of every finding. */
static void same_findings(fixture *f, sunset_engine *all, const char *src) {
    sunset_result a, b;
    scan(f, "python/paddle/m.py", src, &a);
    memset(&b, 0, sizeof b);
    assert_int_equal(sunset_engine_scan_buffer(all, "python/paddle/m.py", src, strlen(src), &b), 0);
    assert_true(a.n_findings > 0);
    for (size_t k = 0; a.n_findings != b.n_findings && k < a.n_findings + b.n_findings; k++) {
        const sunset_finding *x = k < a.n_findings ? &a.findings[k] : &b.findings[k - a.n_findings];
        fprintf(stderr, "%s: %s at %u\n", k < a.n_findings ? "part" : "whole", x->rule_id, x->span.line);
    }
    assert_int_equal(a.n_findings, b.n_findings);
    for (size_t k = 0; k < a.n_findings; k++) {
        const sunset_finding *x = &a.findings[k], *y = &b.findings[k];
        assert_string_equal(x->rule_id, y->rule_id);
        assert_memory_equal(&x->span, &y->span, sizeof x->span);
        assert_memory_equal(&x->stmt, &y->stmt, sizeof x->stmt);
        assert_int_equal(x->ctx, y->ctx);
        assert_string_equal(x->matched, y->matched);
        assert_int_equal(!x->enc_name, !y->enc_name);
        if (x->enc_name) {
            assert_string_equal(x->enc_name, y->enc_name);
            assert_string_equal(x->enc_kind, y->enc_kind);
            assert_int_equal(x->enc_start, y->enc_start);
            assert_int_equal(x->enc_end, y->enc_end);
        }
    }
    sunset_result_free(&a);
    sunset_result_free(&b);
}

/* A Python file is parsed in part (lang/python/units.c); legacy-object flow out of the part
 * (a module-level binding, a function returning the object, self.x of a large class used in
 * methods without a match) makes the whole file parsed, so the uses there are found. */
static void part_parse_never_changes_findings(void **state) {
    (void)state;
    sunset_error err = {{0}};
    fixture fx = {0};
    fx.rs = sunset_ruleset_load_string(flow_pack, "flow.json", "queries", &err);
    if (!fx.rs) fprintf(stderr, "%s\n", err.msg);
    assert_non_null(fx.rs);
    fx.o = (sunset_engine_opts){SUNSET_ALL_FRONTENDS, .jobs = 1, .queries_dir = "queries"};
    fx.e = sunset_engine_new(fx.rs, &fx.o, &err);
    assert_non_null(fx.e);
    sunset_engine_opts o = fx.o;
    o.no_prefilter = true;
    sunset_engine *all = sunset_engine_new(fx.rs, &o, &err);
    assert_non_null(all);
    sb filler = {0};
    for (int i = 0; i < 40; i++) sb_printf(&filler, "    def m%d(self):\n        return self.value + %d\n", i, i);
    const char *tail = "def unrelated(a):\n    return compute(a)\n";
    sb src[4] = {{0}};
    /* a module-level binding used in a function with no match: line 9 */
    sb_printf(&src[0], "import os\n\ndef helper():\n    return os.getcwd()\n\n"
                       "train_exe = fluid.ParallelExecutor(use_cuda=True)\n\ndef step():\n"
                       "    train_exe.run(fetch_list=[])\n\n%s%s", tail, tail);
    /* a function returning it, its caller elsewhere: line 9 */
    sb_printf(&src[1], "import os\n\ndef build(places):\n"
                       "    return core.ParallelExecutor(places)\n\n"
                       "%sdef train(places):\n    pe = build(places)\n    pe.run()\n%s", tail, tail);
    /* self.pe of a large class, used in a method with no match (not its last): line 86 */
    sb_printf(&src[2], "import os\nclass T(object):\n    def setUp(self):\n"
                       "        self.pe = core.ParallelExecutor(places)\n%s"
                       "    def step(self):\n        self.pe.run(fetch)\n%s%s",
              filler.s, filler.s, tail);
    /* no flow: a match in one method of a large class, its enclosing method and class */
    sb_printf(&src[3], "import os\n%sclass T(object):\n    \"\"\"Doc.\"\"\"\n%s"
                       "    def old(self):\n        return core.ParallelExecutor(self.p)\n%s"
                       "    def last(self):\n        return 2\n%s",
              tail, filler.s, filler.s, tail);
    static const struct {
        const char *rule;
        uint32_t line;
    } want[] = {{"PE-USE", 9}, {"PE-USE", 10}, {"PE-USE", 86}, {"PE-IDENT", 87}};
    for (size_t i = 0; i < 4; i++) {
        same_findings(&fx, all, src[i].s);
        sunset_result r;
        scan(&fx, "python/paddle/m.py", src[i].s, &r);
        if (!find(&r, want[i].rule, want[i].line))
            for (size_t k = 0; k < r.n_findings; k++)
                fprintf(stderr, "source %zu: %s at %u\n", i, r.findings[k].rule_id, r.findings[k].span.line);
        assert_non_null(find(&r, want[i].rule, want[i].line));
        sunset_result_free(&r);
        sb_free(&src[i]);
    }
    sb_free(&filler);
    sunset_engine_free(all);
    sunset_engine_free(fx.e);
    sunset_ruleset_free(fx.rs);
}

static void cmake_sections(void **state) {
    fixture *f = *state;
    sunset_result r;
    scan(f, "paddle/fluid/framework/CMakeLists.txt",
         "cc_library(\n  executor_cache\n  SRCS executor_cache.cc\n  DEPS parallel_executor graph)\n"
         "cc_library(parallel_executor SRCS parallel_executor.cc)\n", &r);
    assert_int_equal(r.n_findings, 1); /* only the DEPS entry, not the target definition */
    assert_int_equal(r.findings[0].span.line, 4);
    assert_int_equal(r.findings[0].span.col, 8);
    sunset_result_free(&r);
}

static void fingerprints_survive_edits(void **state) {
    fixture *f = *state;
    sunset_result a, b;
    const char *v1 = "def f():\n    x = ParallelExecutor()\n    y = ParallelExecutor()\n";
    const char *v2 = "import os\n\n\ndef f():\n    x = ParallelExecutor()\n    y = ParallelExecutor()\n";
    scan(f, "m.py", v1, &a);
    scan(f, "m.py", v2, &b);
    assert_int_equal(a.n_findings, 2);
    assert_int_equal(b.n_findings, 2);
    assert_string_equal(a.findings[0].fingerprint, b.findings[0].fingerprint);
    assert_string_equal(a.findings[1].fingerprint, b.findings[1].fingerprint);
    /* two identical uses in one scope differ by their occurrence index */
    assert_string_not_equal(a.findings[0].fingerprint, a.findings[1].fingerprint);
    sunset_result_free(&a);
    sunset_result_free(&b);
}

/* The context kind is part of the fingerprint: code written above a comment that names the same
 * thing does not take the comment's identity, and the comment keeps its own. */
static void fingerprints_know_the_context(void **state) {
    fixture *f = *state;
    sunset_result a, b;
    scan(f, "m.py", "def f():\n    # ParallelExecutor is gone\n    return 1\n", &a);
    scan(f, "m.py", "def f():\n    x = ParallelExecutor()\n    # ParallelExecutor is gone\n    return 1\n", &b);
    assert_int_equal(a.n_findings, 1);
    assert_int_equal(b.n_findings, 2);
    assert_int_equal(a.findings[0].ctx, SUNSET_CTX_COMMENT);
    assert_int_equal(b.findings[0].ctx, SUNSET_CTX_CODE);
    assert_string_equal(a.findings[0].matched, b.findings[0].matched);
    assert_string_not_equal(b.findings[0].fingerprint, a.findings[0].fingerprint);
    assert_string_equal(b.findings[1].fingerprint, a.findings[0].fingerprint);
    sunset_result_free(&a);
    sunset_result_free(&b);
}

static void thread_count_does_not_matter(void **state) {
    fixture *f = *state;
    char root[] = "/tmp/sunset-eng-XXXXXX";
    assert_non_null(mkdtemp(root));
    char *paths[40];
    for (int i = 0; i < 40; i++) {
        char p[128], rel[32];
        snprintf(rel, sizeof rel, "m%02d.py", i);
        snprintf(p, sizeof p, "%s/%s", root, rel);
        FILE *fp = fopen(p, "w");
        fprintf(fp, "def g%d():\n    return core.ParallelExecutor(%d)\n# ParallelExecutor\n", i, i);
        fclose(fp);
        paths[i] = sunset_strndup(rel, strlen(rel));
    }
    sunset_result r1 = {0}, r4 = {0};
    sunset_engine_opts o4 = f->o;
    o4.jobs = 4;
    sunset_error err = {{0}};
    sunset_engine *e4 = sunset_engine_new(f->rs, &o4, &err);
    assert_non_null(e4);
    assert_int_equal(sunset_engine_scan(f->e, root, paths, 40, &r1), 0);
    assert_int_equal(sunset_engine_scan(e4, root, paths, 40, &r4), 0);
    assert_int_equal(r1.n_findings, 80);
    assert_int_equal(r4.n_findings, 80);
    assert_int_equal(r4.stats.jobs, 4);
    for (size_t i = 0; i < r1.n_findings; i++) {
        assert_string_equal(r1.findings[i].path, r4.findings[i].path);
        assert_int_equal(r1.findings[i].span.line, r4.findings[i].span.line);
        assert_string_equal(r1.findings[i].fingerprint, r4.findings[i].fingerprint);
    }
    sunset_result_free(&r1);
    sunset_result_free(&r4);
    sunset_engine_free(e4);
    for (int i = 0; i < 40; i++) {
        char p[128];
        snprintf(p, sizeof p, "%s/%s", root, paths[i]);
        remove(p);
        sunset_free(paths[i]);
    }
    rmdir(root);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(contexts_and_overlap),
        cmocka_unit_test(string_rules_read_comments_when_asked),
        cmocka_unit_test(files_skipped_and_path_rules),
        cmocka_unit_test(scoped_rules_prefilter_by_path),
        cmocka_unit_test(prefilter_never_changes_findings),
        cmocka_unit_test(part_parse_never_changes_findings),
        cmocka_unit_test(cmake_sections),
        cmocka_unit_test(fingerprints_survive_edits),
        cmocka_unit_test(fingerprints_know_the_context),
        cmocka_unit_test(thread_count_does_not_matter),
        cmocka_unit_test(cmake_wrapper_from_settings),
    };
    return cmocka_run_group_tests_name("engine", tests, setup, teardown);
}
