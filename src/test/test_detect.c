/*
 * test_detect.c — which files are source, and as what (src/core/lang.c): suffixes in any
 * case, what C and C++ include, Cython includes, shebangs by interpreter family (env, env -S,
 * versions), and a Jupyter notebook's code cells decoded from their JSON strings. Each
 * spelling carries a legacy line that `check --diff-base` must fail, in a real repository.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "core/lang.h"
#include "test/gitrepo.h"

static void names_and_suffixes(void **state) {
    (void)state;
    static const struct {
        const char *path;
        sunset_lang lang;
    } cases[] = {
        {"a/x.C", SUNSET_LANG_CPP},        {"a/x.CPP", SUNSET_LANG_CPP},     {"a/x.c++", SUNSET_LANG_CPP},
        {"a/x.Cc", SUNSET_LANG_CPP},       {"a/x.H", SUNSET_LANG_CPP},       {"a/x.h++", SUNSET_LANG_CPP},
        {"a/ops.inc", SUNSET_LANG_CPP},    {"a/x.tcc", SUNSET_LANG_CPP},     {"a/ops.def", SUNSET_LANG_CPP},
        {"a/k.xpu", SUNSET_LANG_CPP},      {"a/k.kps", SUNSET_LANG_CPP},     {"a/x.tpp", SUNSET_LANG_CPP},
        {"a/x.pxi", SUNSET_LANG_PYTHON},   {"a/x.pyw", SUNSET_LANG_PYTHON},  {"a/X.PY", SUNSET_LANG_PYTHON},
        {"a/SConstruct", SUNSET_LANG_PYTHON}, {"a/x.IPYNB", SUNSET_LANG_TEXT},
        {"bench/README", SUNSET_LANG_TEXT}, {"a/README.old", SUNSET_LANG_NONE},
        {"a/CMakeLists.txt", SUNSET_LANG_CMAKE}, {"a/x.Cmake", SUNSET_LANG_CMAKE},
        /* a name that is all suffix is still that language (gcc compiles ".cc"); others none */
        {"a/.cc", SUNSET_LANG_CPP},        {"a/x.pyc", SUNSET_LANG_NONE},    {"a/x.o", SUNSET_LANG_NONE},
        {"a/.bashrc", SUNSET_LANG_NONE},
        {"a.py/tool", SUNSET_LANG_NONE},
        /* the suffix folded once, entries compared from their first letter: a longer suffix
         * that starts like one, a bare dot, and a name the name table only nearly holds */
        {"a/x.PyI", SUNSET_LANG_PYTHON},   {"a/x.pyyyyyyyyyy", SUNSET_LANG_NONE}, {"a/x.cmakeX", SUNSET_LANG_NONE},
        {"a/x.", SUNSET_LANG_NONE},        {"a/.", SUNSET_LANG_NONE},        {"a/x.Proto", SUNSET_LANG_PROTO},
        {"a/README.md", SUNSET_LANG_MARKDOWN}, {"a/CMakeLists.TXT", SUNSET_LANG_TEXT}, {"a/", SUNSET_LANG_NONE},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        if (sunset_lang_for_path(cases[i].path) != cases[i].lang)
            fail_msg("%s: %s, want %s", cases[i].path, sunset_lang_name(sunset_lang_for_path(cases[i].path)),
                     sunset_lang_name(cases[i].lang));
    assert_int_equal(sunset_lang_embedded("a/x.IPYNB", SUNSET_LANG_TEXT), SUNSET_LANG_PYTHON);
}

static void shebangs_by_family(void **state) {
    (void)state;
    static const struct {
        const char *head;
        sunset_lang lang;
    } cases[] = {
        {"#!/usr/bin/env pypy3\n", SUNSET_LANG_PYTHON},
        {"#!/usr/bin/pypy\n", SUNSET_LANG_PYTHON},
        {"#!/usr/bin/env python3.11\n", SUNSET_LANG_PYTHON},
        {"#!/usr/local/bin/python3.13t -u\n", SUNSET_LANG_PYTHON},
        {"#!/usr/bin/python3-dbg\n", SUNSET_LANG_PYTHON},
        {"#! /usr/bin/python2.7\r\n", SUNSET_LANG_PYTHON},
        {"#!/usr/bin/env -S python3 -u\n", SUNSET_LANG_PYTHON},
        {"#!/usr/bin/env -Spypy3\n", SUNSET_LANG_PYTHON},
        {"#!/usr/bin/env -S PYTHONPATH=. python3\n", SUNSET_LANG_PYTHON},
        {"#!/usr/bin/env -i -u LANG ipython\n", SUNSET_LANG_PYTHON},
        {"#!/usr/bin/env -S uv run --script\n", SUNSET_LANG_PYTHON},
        {"#!/bin/bash -e\n", SUNSET_LANG_SHELL},
        {"#!/usr/bin/env zsh\n", SUNSET_LANG_SHELL},
        {"#!/bin/sh\n", SUNSET_LANG_SHELL},
        /* other interpreters, a name that only starts like one, no shebang */
        {"#!/usr/bin/perl -w\n", SUNSET_LANG_NONE},
        {"#!/usr/bin/env node\n", SUNSET_LANG_NONE},
        {"#!/usr/bin/pythonic\n", SUNSET_LANG_NONE},
        {"#!/usr/bin/shellcheck\n", SUNSET_LANG_NONE},
        {"# python3\n", SUNSET_LANG_NONE},
        {"#!\n", SUNSET_LANG_NONE},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        sunset_lang l = sunset_lang_for_file("tools/tool", cases[i].head, strlen(cases[i].head));
        if (l != cases[i].lang)
            fail_msg("%s: %s, want %s", cases[i].head, sunset_lang_name(l), sunset_lang_name(cases[i].lang));
    }
    /* the name wins over the first line */
    assert_int_equal(sunset_lang_for_file("x.md", "#!/usr/bin/python\n", 18), SUNSET_LANG_MARKDOWN);
}

static const char *CPP_LEGACY = "namespace paddle {\nvoid Run() {\n  auto *pe = new framework::ParallelExecutor(places);\n}\n}\n";
static const char *PY_LEGACY = "import paddle\n\npe = paddle.static.ParallelExecutor(places)\n";

static int setup(void **state) {
    repo *r = calloc(1, sizeof *r);
    if (repo_mkdir(r, "detect")) return -1;
    put(r, "README.md", "# base\n");
    put(r, ".gitignore", ".out\n.err\n.sunset-cache/\n");
    if (repo_commit_base(r)) return -1;
    *state = r;
    return 0;
}

static void judge(repo *r, const char *path, const char *want) {
    assert_int_equal(run(r, "git add -A && git commit -qm change"), 0);
    int rc = run(r, "$S check -q --no-cache --diff-base HEAD~1 -f github");
    if (rc != 1 || !strstr(r->out, want))
        fail_msg("%s: exit %d, want 1 and '%s' in:\n%s\nstderr:\n%s", path, rc, want, r->out, r->err);
    assert_int_equal(run(r, "git reset -q --hard HEAD~1"), 0);
}

/* Each spelling, committed with a legacy line, fails the gate at that line. */
static void every_spelling_fails_the_gate(void **state) {
    repo *r = *state;
    static const char *const cpp[] = {"x.C", "x.CPP", "x.c++", "ops.inc", "x.tcc", "ops.def", "x.Hpp", "k.xpu"};
    static const char *const py[] = {"x.pxi", "x.pyw", "x.PY"};
    static const char *const heads[] = {"#!/usr/bin/env pypy3\n", "#!/usr/bin/pypy\n",
                                        "#!/usr/bin/env -S python3.11 -u\n"};
    char path[128], want[192];
    for (size_t i = 0; i < sizeof cpp / sizeof cpp[0]; i++) {
        snprintf(path, sizeof path, "paddle/fluid/%s", cpp[i]);
        put(r, path, CPP_LEGACY);
        snprintf(want, sizeof want, "file=%s,line=3,col=29,", path);
        judge(r, path, want);
    }
    for (size_t i = 0; i < sizeof py / sizeof py[0]; i++) {
        snprintf(path, sizeof path, "python/paddle/%s", py[i]);
        put(r, path, PY_LEGACY);
        snprintf(want, sizeof want, "file=%s,line=3,col=20,", path);
        judge(r, path, want);
    }
    for (size_t i = 0; i < sizeof heads / sizeof heads[0]; i++) {
        sb s = {0};
        sb_printf(&s, "%s%s", heads[i], PY_LEGACY);
        put(r, "tools/run_dist", s.s);
        sb_free(&s);
        judge(r, heads[i], "file=tools/run_dist,line=4,col=20,");
    }
}

/* A legacy class or module reached by its name as a string (getattr, importlib,
 * __import__) is a use like any other: each alone fails the gate as an error, not a mention. */
static void dynamic_references_fail_the_gate(void **state) {
    repo *r = *state;
    static const char *const lines[] = {
        "PE = getattr(paddle.static, \"ParallelExecutor\")\n",
        "m = importlib.import_module('paddle.base.parallel_executor')\n",
        "m = __import__(\"paddle.fluid.parallel_executor\")\n",
        "AE = getattr(fluid, 'AsyncExecutor')\n",
    };
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
        sb s = {0};
        sb_printf(&s, "import importlib\nimport paddle\nimport paddle.base as fluid\n%s", lines[i]);
        put(r, "python/paddle/dyn.py", s.s);
        sb_free(&s);
        judge(r, lines[i], "::error file=python/paddle/dyn.py,line=4,");
    }
}

/* A notebook's code cells as Jupyter runs them: JSON escapes decoded, a line split between
 * strings joined, lines joined by "\n" in one string split; each finding at its place in the
 * file (the first byte of the name's encoding, one past its last). */
static void notebook_strings_are_decoded(void **state) {
    repo *r = *state;
    put(r, "notebooks/demo.ipynb",
        "{\"cells\": [\n"
        " {\"cell_type\": \"code\", \"metadata\": {}, \"source\": [\"import paddle\\n\", \"pe = paddle.static.Parallel\\u0045xecutor(p)\\n\"]},\n"
        " {\"cell_type\": \"code\", \"metadata\": {}, \"source\": \"x = 1\\npe = paddle.static.ParallelExecutor(p)\\n\"},\n"
        " {\"cell_type\": \"code\", \"metadata\": {}, \"source\": [\"pe = paddle.static.Parallel\",\n"
        "   \"Executor(p)\"]},\n"
        " {\"cell_type\": \"code\", \"metadata\": {}, \"source\": [\"s = \\\"a\\\"; es = paddle.static.\\u0045xecution\\u0053trategy()\\n\"]},\n"
        " {\"cell_type\": \"markdown\", \"metadata\": {}, \"source\": [\"pe = paddle.static.ParallelExecutor(p)\\n\"]}\n"
        "], \"metadata\": {}, \"nbformat\": 4, \"nbformat_minor\": 5}\n");
    assert_int_equal(run(r, "git add -A && git commit -qm change"), 0);
    assert_int_equal(run(r, "$S check -q --no-cache --diff-base HEAD~1 -f github"), 1);
    static const char *const want[] = {
        "file=notebooks/demo.ipynb,line=2,col=90,endLine=2,endColumn=111,", /* \u0045 is 6 bytes */
        "file=notebooks/demo.ipynb,line=3,col=77,endLine=3,endColumn=93,",
        "file=notebooks/demo.ipynb,line=4,col=71,endLine=5,title=", /* GitHub: no column across lines */
        "file=notebooks/demo.ipynb,line=6,col=82,endLine=6,endColumn=109,",
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        if (!strstr(r->out, want[i])) fail_msg("want '%s' in:\n%s\nstderr:\n%s", want[i], r->out, r->err);
    /* the markdown cell is not code */
    assert_int_equal(count_lines_starting(r->out, "::warning file=notebooks/demo.ipynb,line=7") +
                     count_lines_starting(r->out, "::error file=notebooks/demo.ipynb,line=7"), 0);
}

/* Python reads identifiers after NFKC, in a notebook's cells too: a fullwidth letter spelled
 * as a JSON escape (\uff25 is "Ｅ", an "E" to Python) or written raw is the ASCII letter. The
 * finding spans the escape / the raw character in the file. */
static void notebook_escapes_fold_nfkc(void **state) {
    repo *r = *state;
    put(r, "notebooks/wide.ipynb",
        "{\"cells\": [\n"
        " {\"cell_type\": \"code\", \"metadata\": {}, \"source\": [\"import paddle\\n\", \"pe = paddle.static.Parallel\\uff25xecutor(p)\\n\"]},\n"
        " {\"cell_type\": \"code\", \"metadata\": {}, \"source\": [\"es = paddle.static.\xef\xbc\xa5xecutionStrategy()\\n\"]},\n"
        " {\"cell_type\": \"code\", \"metadata\": {}, \"source\": [\"pe = paddle.static.ParallelExecuto\xef\xbd\x92(p)\\n\"]},\n"
        " {\"cell_type\": \"code\", \"metadata\": {}, \"source\": [\"pe = paddle.static.ParallelExecuto\\ud835\\udc2b(p)\\n\"]}\n"
        "], \"metadata\": {}, \"nbformat\": 4, \"nbformat_minor\": 5}\n");
    assert_int_equal(run(r, "git add -A && git commit -qm change"), 0);
    assert_int_equal(run(r, "$S check -q --no-cache --diff-base HEAD~1 -f github"), 1);
    static const char *const want[] = {
        "file=notebooks/wide.ipynb,line=2,col=90,endLine=2,endColumn=111,", /* \uff25 is 6 bytes */
        "file=notebooks/wide.ipynb,line=3,col=71,endLine=3,endColumn=90,",  /* U+FF25 is 3 bytes */
        "file=notebooks/wide.ipynb,line=4,col=71,endLine=4,endColumn=89,",  /* ends on a wide "r" */
        "file=notebooks/wide.ipynb,line=5,col=71,endLine=5,endColumn=98,",  /* a surrogate pair: 12 */
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        if (!strstr(r->out, want[i])) fail_msg("want '%s' in:\n%s\nstderr:\n%s", want[i], r->out, r->err);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(names_and_suffixes),
        cmocka_unit_test(shebangs_by_family),
        cmocka_unit_test_setup_teardown(every_spelling_fails_the_gate, setup, repo_teardown),
        cmocka_unit_test_setup_teardown(dynamic_references_fail_the_gate, setup, repo_teardown),
        cmocka_unit_test_setup_teardown(notebook_strings_are_decoded, setup, repo_teardown),
        cmocka_unit_test_setup_teardown(notebook_escapes_fold_nfkc, setup, repo_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
