/*
 * test_gate_trust.c — the gate a pull request cannot switch off, tried as an attacker would, in
 * real git repositories: a base commit, then a change committed on top that adds legacy usage
 * together with each bypass, judged by `check --diff-base HEAD~1` (exit 1, naming the reason).
 * Config attacks (.sunset.json, a self-made baseline, .gitignore, a config above the work
 * tree), files the scan skips (generated, binary, too large, build/ and .sunset-cache/
 * directories, C++ and Cython extensions), suppressions (blanket, too short, quoted), symlinks,
 * spellings (line splice, fullwidth, UTF-7); then adoption: baseline-then-check with no
 * options, SARIF's full set, --staged as pre-commit uses it, renames. Then identity: code that
 * was a comment, renames out of paths the base did not judge; .gitattributes (binary, -diff,
 * diff=, filter=, ident, eol); submodules added and bumped.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <cjson/cJSON.h>

#include "test/gitrepo.h"
#include "test/shell.h"

static const char *PE_LINE = "  auto *pe = new framework::ParallelExecutor(places);\n";

static int setup(void **state) {
    repo *r = calloc(1, sizeof *r);
    if (repo_mkdir(r, "trust")) return -1;
    put(r, "paddle/fluid/run.cc", "namespace paddle {\nvoid Run() {\n}\n}  // namespace paddle\n");
    put(r, "python/paddle/run.py", "import paddle\n\n\ndef main():\n    return paddle.static.Program()\n");
    put(r, ".gitignore", ".out\n.err\n.sunset-cache/\nout.*\n");
    if (repo_commit_base(r)) return -1;
    *state = r;
    return 0;
}

static int teardown(void **state) {
    repo *r = *state;
    int rc = repo_clear(r);
    free(r);
    return rc;
}

/* run.cc with a legacy line added, under another name when path is given */
static void add_legacy_cc(repo *r, const char *path, const char *head) {
    sb s = {0};
    sb_printf(&s, "%snamespace paddle {\nvoid Run() {\n%s}\n}  // namespace paddle\n", head ? head : "", PE_LINE);
    put(r, path ? path : "paddle/fluid/run.cc", s.s);
    sb_free(&s);
}

/* Commit everything (ignored files too when `force` names them) and judge the commit. */
static int judge(repo *r, const char *force, const char *opts) {
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "git add -A %s%s && git commit -qm change && $S check -q --diff-base HEAD~1 -f github %s",
             force ? "&& git add -f " : "", force ? force : "", opts ? opts : "");
    return run(r, "%s", cmd);
}

static void expect_gate(repo *r, const char *needle) {
    if (!r->out || !strstr(r->out, needle)) fail_msg("want '%s' in:\n%s\nstderr:\n%s", needle, r->out ? r->out : "", r->err ? r->err : "");
}

/* A count of the "gate" member of the last run's JSON output. */
static int gate_num(repo *r, const char *key) {
    cJSON *doc = cJSON_Parse(r->out ? r->out : "");
    const cJSON *v = cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "gate"), key);
    if (!cJSON_IsNumber(v)) fail_msg("no gate.%s in:\n%s", key, r->out ? r->out : "");
    int n = v->valueint;
    cJSON_Delete(doc);
    return n;
}

/* The change writes its own judge: each is read from HEAD~1 and the edit itself fails. */
static void config_in_the_change_is_not_trusted(void **state) {
    repo *r = *state;
    static const char *const attacks[] = {
        "{\"disable\": [{\"rules\": [\"*\"]}]}",
        "{\"exclude\": [\"paddle/\"]}",
        "{\"severity\": {\"PE-CPP-IDENT\": \"info\"}}",
        "{\"queries\": \"q\"}",
    };
    put(r, "q/python/facts.scm", "");
    assert_int_equal(run(r, "git add -A && git commit -qm queries"), 0);
    for (size_t i = 0; i < sizeof attacks / sizeof attacks[0]; i++) {
        add_legacy_cc(r, NULL, NULL);
        put(r, ".sunset.json", attacks[i]);
        assert_int_equal(judge(r, NULL, NULL), 1);
        expect_gate(r, "file=.sunset.json,line=1,col=1,endLine=1,title=sunset SUNSET-GATE::The change edits what decides");
        expect_gate(r, "file=paddle/fluid/run.cc,line=3,");
        assert_int_equal(run(r, "git reset -q --hard HEAD~1"), 0);
    }
    /* a maintainer's approval: the change's configuration applies */
    add_legacy_cc(r, NULL, NULL);
    put(r, ".sunset.json", attacks[0]);
    assert_int_equal(judge(r, NULL, "--allow-config-change"), 0);
}

static void self_made_baseline_and_gitignore(void **state) {
    repo *r = *state;
    add_legacy_cc(r, NULL, NULL);
    assert_int_equal(run(r, "$S baseline -q"), 0);
    assert_int_equal(judge(r, NULL, NULL), 1);
    expect_gate(r, "file=.sunset-baseline.json,line=1,col=1,endLine=1,title=sunset SUNSET-GATE::");
    expect_gate(r, "file=paddle/fluid/run.cc,line=3,");
    assert_int_equal(run(r, "git reset -q --hard HEAD~1"), 0);
    /* root and nested .gitignore listing the tracked file */
    const char *ignores[] = {".gitignore", "paddle/fluid/.gitignore"};
    for (int i = 0; i < 2; i++) {
        add_legacy_cc(r, NULL, NULL);
        put(r, ignores[i], i ? "run.cc\n" : ".out\n.err\n.sunset-cache/\nout.*\nrun.cc\n");
        assert_int_equal(judge(r, NULL, NULL), 1);
        expect_gate(r, "file=paddle/fluid/run.cc,line=3,");
        expect_gate(r, "title=sunset SUNSET-GATE::The change edits what decides");
        assert_int_equal(run(r, "git reset -q --hard HEAD~1"), 0);
    }
}

/* A .sunset.json above the work tree is not the project's. */
static void config_above_the_work_tree_is_not_read(void **state) {
    repo *r = *state;
    put(r, "outer/.sunset.json", "{\"disable\": [{\"rules\": [\"*\"]}]}");
    /* live code on the legacy API: a warning (README "Severity"); the disable did not apply */
    assert_int_equal(run(r, "mkdir -p outer/repo && cd outer/repo && git init -q && printf 'import paddle\\nx = ExecutionStrategy()\\n' > a.py && "
                            "$S scan --no-cache --findings -q ."), 0);
    assert_non_null(strstr(r->out, "a.py:2:5: warning: [ES-PY-IDENT]"));
}

static void skipped_changed_files_fail_closed(void **state) {
    repo *r = *state;
    static const struct {
        const char *path, *head, *want;
    } cases[] = {
        {"paddle/fluid/run.cc", "// @generated by tools/gen.py\n", "line=1,col=1,endLine=1,title=sunset SUNSET-GATE::Changed file not analysed: generated"},
        {"paddle/fluid/x.pb.h", "", "file=paddle/fluid/x.pb.h,line=1,col=1,endLine=1,title=sunset SUNSET-GATE::Changed file not analysed: generated"},
        {"paddle/fluid/run.cc", "// a comment with a \\000 byte\n", "title=sunset SUNSET-GATE::Changed file not analysed: binary"},
        /* a marker not in a generator's form, anywhere: the file is scanned */
        {"paddle/fluid/run.cc", "// this is not @generated; DO NOT EDIT by hand\n", "file=paddle/fluid/run.cc,line=4,"},
        {"paddle/build/x.cc", "", "file=paddle/build/x.cc,line=3,"},
        {"paddle/.sunset-cache/x.cc", "", "file=paddle/.sunset-cache/x.cc,line=3,"},
        {"paddle/fluid/x.inl", "", "file=paddle/fluid/x.inl,line=3,"},
        {"paddle/fluid/x.hxx", "", "file=paddle/fluid/x.hxx,line=3,"},
        {"paddle/fluid/x.ipp", "", "file=paddle/fluid/x.ipp,line=3,"},
        {"paddle/fluid/x.ixx", "", "file=paddle/fluid/x.ixx,line=3,"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        if (strchr(cases[i].head, '\\')) {
            /* a NUL byte needs printf */
            add_legacy_cc(r, cases[i].path, NULL);
            assert_int_equal(run(r, "printf '%s' | cat - %s > t && mv t %s", cases[i].head, cases[i].path, cases[i].path), 0);
        } else {
            add_legacy_cc(r, cases[i].path, cases[i].head);
        }
        /* forced: a tracked file in an ignored directory (.sunset-cache/) is still the change's */
        assert_int_equal(judge(r, cases[i].path, NULL), 1);
        expect_gate(r, cases[i].want);
        assert_int_equal(run(r, "git reset -q --hard HEAD~1"), 0);
    }
    /* too large (the default limit is 16M; the mechanism is the same at 2K) */
    add_legacy_cc(r, NULL, NULL);
    assert_int_equal(run(r, "head -c 3000 /dev/zero | tr '\\0' ' ' >> paddle/fluid/run.cc"), 0);
    assert_int_equal(judge(r, NULL, "--max-filesize 2K"), 1);
    expect_gate(r, "title=sunset SUNSET-GATE::Changed file not analysed: larger than --max-filesize");
    assert_int_equal(run(r, "git reset -q --hard HEAD~1"), 0);
    /* Cython */
    put(r, "python/paddle/x.pyx", "cdef class A:\n    def f(self):\n        return paddle.static.ExecutionStrategy()\n");
    assert_int_equal(judge(r, NULL, NULL), 1);
    expect_gate(r, "file=python/paddle/x.pyx,line=3,");
}

static void suppressions_cannot_blanket_or_hide_in_strings(void **state) {
    repo *r = *state;
    add_legacy_cc(r, NULL, "// sunset-ignore-file[*]: .\n");
    assert_int_equal(judge(r, NULL, "--allow-new-suppressions"), 1);
    expect_gate(r, "title=sunset SUNSET-SUPPRESSION::a file-level suppression must name its rules");
    expect_gate(r, "file=paddle/fluid/run.cc,line=4,");
    assert_int_equal(run(r, "git reset -q --hard HEAD~1"), 0);
    put(r, "paddle/fluid/run.cc",
        "namespace paddle {\nvoid Run() {\n"
        "  const char *s = \"// sunset-ignore[*]: the marker is inside a string\"; auto *pe = new ParallelExecutor(p);\n"
        "}\n}  // namespace paddle\n");
    assert_int_equal(judge(r, NULL, "--allow-new-suppressions"), 1);
    expect_gate(r, "file=paddle/fluid/run.cc,line=3,");
    assert_int_equal(run(r, "git reset -q --hard HEAD~1"), 0);
    /* a well-formed suppression the change adds: the maintainer's call */
    put(r, "paddle/fluid/run.cc",
        "namespace paddle {\nvoid Run() {\n"
        "  auto *pe = new ParallelExecutor(p);  // sunset-ignore[PE-CPP-IDENT]: removed with the converter in #64000\n"
        "}\n}  // namespace paddle\n");
    assert_int_equal(judge(r, NULL, NULL), 1);
    expect_gate(r, "title=sunset SUNSET-GATE::The change adds a sunset-ignore suppression");
    assert_int_equal(run(r, "$S check -q --diff-base HEAD~1 --allow-new-suppressions"), 0);
}

static void symlinks_are_judged_by_their_target(void **state) {
    repo *r = *state;
    /* the target is already in the tree (as text nobody scans); the link makes it C++ */
    put(r, "docs/other.txt", "namespace paddle {\nvoid Run() {\n  auto *pe = new ParallelExecutor(p);\n}\n}\n");
    assert_int_equal(run(r, "git add -A && git commit -qm doc"), 0);
    assert_int_equal(run(r, "ln -s ../../docs/other.txt paddle/fluid/x.cc"), 0);
    assert_int_equal(judge(r, NULL, NULL), 1);
    expect_gate(r, "file=paddle/fluid/x.cc,line=3,");
    assert_int_equal(run(r, "git reset -q --hard HEAD~1 && ln -s /etc/hostname paddle/fluid/y.cc"), 0);
    assert_int_equal(judge(r, NULL, NULL), 1);
    expect_gate(r, "file=paddle/fluid/y.cc,line=1,col=1,endLine=1,title=sunset SUNSET-GATE::A changed symbolic link");
}

static void spellings_the_toolchain_accepts(void **state) {
    repo *r = *state;
    put(r, "paddle/fluid/run.cc", "namespace paddle {\nvoid Run() {\n  auto *pe = new Parallel\\\nExecutor(p);\n}\n}\n");
    assert_int_equal(judge(r, NULL, NULL), 1);
    expect_gate(r, "file=paddle/fluid/run.cc,line=3,");
    put(r, "python/paddle/run.py", "import paddle\nes = paddle.static.Execution\xef\xbc\xb3trategy()\n");
    assert_int_equal(judge(r, NULL, NULL), 1);
    expect_gate(r, "file=python/paddle/run.py,line=2,");
    put(r, "python/paddle/run.py", "# coding: utf-7\nimport paddle\n# +AAo-es = paddle.static.ExecutionStrategy()\n");
    assert_int_equal(judge(r, NULL, NULL), 1);
    expect_gate(r, "file=python/paddle/run.py,line=1,col=1,endLine=1,title=sunset SUNSET-GATE::Changed file not analysed: its parser failed");
}

/* baseline, then check with no options, as a maintainer adopts it; SARIF's full set */
static void baseline_then_check_and_sarif(void **state) {
    repo *r = *state;
    add_legacy_cc(r, NULL, NULL);
    assert_int_equal(run(r, "git add -A && git commit -qm legacy && $S baseline -q"), 0);
    assert_int_equal(run(r, "$S check -q"), 0);
    assert_non_null(strstr(r->out, "against baseline .sunset-baseline.json: 0 new"));
    put(r, "python/paddle/run.py", "import paddle\nes = paddle.static.ExecutionStrategy()\n");
    assert_int_equal(run(r, "$S check -q -f sarif -o out.sarif"), 1);
    cJSON *doc = test_load_json(r->dir, "out.sarif");
    assert_non_null(doc);
    const cJSON *results = cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(doc, "runs"), 0), "results");
    int n_new = 0, n_unchanged = 0;
    const cJSON *it;
    cJSON_ArrayForEach(it, results) {
        const char *st = cJSON_GetObjectItem(it, "baselineState")->valuestring;
        n_new += strcmp(st, "new") == 0;
        n_unchanged += strcmp(st, "unchanged") == 0;
    }
    assert_int_equal(n_new, 1);
    assert_int_equal(n_unchanged, 1);
    cJSON_Delete(doc);
}

/* pre-commit: the commit is the index, not the work tree */
static void staged_judges_the_index(void **state) {
    repo *r = *state;
    /* a staged legacy line passes no longer when the file on disk is reverted */
    add_legacy_cc(r, NULL, NULL);
    assert_int_equal(run(r, "git add paddle/fluid/run.cc && git show HEAD:paddle/fluid/run.cc > paddle/fluid/run.cc"), 0);
    assert_int_equal(run(r, "$S check -q --staged -f github"), 1);
    expect_gate(r, "file=paddle/fluid/run.cc,line=3,");
    /* an unstaged legacy line does not block an unrelated commit */
    assert_int_equal(run(r, "git reset -q --hard HEAD"), 0);
    add_legacy_cc(r, NULL, NULL);
    put(r, "python/paddle/run.py", "import paddle\n\n\ndef main():\n    return paddle.static.Program(None)\n");
    assert_int_equal(run(r, "git add python/paddle/run.py && $S check -q --staged"), 0);
    assert_non_null(strstr(r->out, "against HEAD (the staged change): 0 new"));
}

static void renames_are_not_fixes(void **state) {
    repo *r = *state;
    add_legacy_cc(r, NULL, NULL);
    assert_int_equal(run(r, "git add -A && git commit -qm legacy && mkdir -p paddle/new && "
                            "git mv paddle/fluid/run.cc paddle/new/run2.cc && $S check -q --diff-base HEAD -f json"), 0);
    assert_int_equal(gate_num(r, "fixed"), 0);
    assert_int_equal(gate_num(r, "new"), 0);
}

/* Code never takes the identity of a comment or docstring: uncommenting a legacy line, writing
 * a call above a comment that names it, deleting a block comment's or a docstring's delimiters
 * around an untouched line. */
static void context_is_part_of_the_identity(void **state) {
    repo *r = *state;
    static const struct {
        const char *path, *base, *change, *want;
    } cases[] = {
        {"paddle/fluid/run.cc", "namespace paddle {\nvoid Run() {\n  // auto *pe = new ParallelExecutor(places);\n}\n}\n",
         "namespace paddle {\nvoid Run() {\n  auto *pe = new ParallelExecutor(places);\n}\n}\n", "line=3,"},
        {"paddle/fluid/run.cc", "namespace paddle {\nvoid Run() {\n  // ParallelExecutor was removed in #1234\n}\n}\n",
         "namespace paddle {\nvoid Run() {\n  auto *pe = new ParallelExecutor(places);\n  // ParallelExecutor was removed in #1234\n}\n}\n",
         "line=3,"},
        {"paddle/fluid/run.cc", "namespace paddle {\n/*\nvoid Run() {\n  auto *pe = new ParallelExecutor(places);\n}\n*/\n}\n",
         "namespace paddle {\nvoid Run() {\n  auto *pe = new ParallelExecutor(places);\n}\n}\n", "line=3,"},
        {"python/paddle/run.py", "import paddle\n\n\ndef main():\n    \"\"\"\n    es = paddle.static.ExecutionStrategy()\n    \"\"\"\n    return 1\n",
         "import paddle\n\n\ndef main():\n    es = paddle.static.ExecutionStrategy()\n    return 1\n", "line=5,"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        put(r, cases[i].path, cases[i].base);
        assert_int_equal(run(r, "git add -A && git commit -qm base2"), 0);
        put(r, cases[i].path, cases[i].change);
        assert_int_equal(judge(r, NULL, NULL), 1);
        char want[256];
        snprintf(want, sizeof want, "file=%s,%s", cases[i].path, cases[i].want);
        expect_gate(r, want);
        expect_gate(r, ", 0 fixed,"); /* the mention is not fixed: it became code */
        assert_int_equal(run(r, "git reset -q --hard HEAD~2"), 0);
    }
}

/* A finding is unchanged only where the base judged it: legacy code renamed out of an excluded
 * directory, a rule-exempt file or a generated name is new at its new path. */
static void renames_from_unjudged_paths_are_new(void **state) {
    repo *r = *state;
    put(r, ".sunset.json", "{\"exclude\": [\"third_party/\"]}");
    add_legacy_cc(r, "third_party/old/run.cc", NULL);
    add_legacy_cc(r, "paddle/fluid/framework/executor_cache.cc", NULL);
    add_legacy_cc(r, "paddle/fluid/framework/run.pb.cc", NULL);
    assert_int_equal(run(r, "git add -A && git commit -qm 'unjudged at the base'"), 0);
    static const struct {
        const char *from, *to;
    } cases[] = {
        {"third_party/old/run.cc", "paddle/fluid/moved.cc"},
        {"paddle/fluid/framework/executor_cache.cc", "paddle/fluid/framework/pe_cache.cc"},
        {"paddle/fluid/framework/run.pb.cc", "paddle/fluid/framework/run_impl.cc"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        assert_int_equal(run(r, "git mv %s %s", cases[i].from, cases[i].to), 0);
        assert_int_equal(judge(r, NULL, NULL), 1);
        char want[256];
        snprintf(want, sizeof want, "file=%s,line=3,", cases[i].to);
        expect_gate(r, want);
        assert_int_equal(run(r, "git reset -q --hard HEAD~1"), 0);
    }
    /* into an exempt file: PE-CPP-IDENT is not judged there, so it is not fixed; the rule that
     * judges only that path (a live use by the run_program op) was not judged at the base */
    add_legacy_cc(r, NULL, NULL);
    assert_int_equal(run(r, "git add -A && git commit -qm legacy && mkdir -p paddle/fluid/operators && "
                            "git mv paddle/fluid/run.cc paddle/fluid/operators/run_program_op.cc && "
                            "$S check -q --diff-base HEAD -f json"), 1);
    assert_int_equal(gate_num(r, "fixed"), 0);
    assert_int_equal(gate_num(r, "new"), 1);
    cJSON *doc = cJSON_Parse(r->out);
    const cJSON *f = cJSON_GetArrayItem(cJSON_GetObjectItem(doc, "findings"), 0);
    assert_string_equal(cJSON_GetObjectItem(f, "rule")->valuestring, "PE-CPP-LIVE");
    assert_string_equal(cJSON_GetObjectItem(f, "path")->valuestring, "paddle/fluid/operators/run_program_op.cc");
    cJSON_Delete(doc);
}

/* The change does not choose how git shows it: attributes that make a file binary, pick a diff
 * driver or a filter are not read; the lines are diffed as the bytes the scan reads. */
static void gitattributes_do_not_choose_how_the_change_reads(void **state) {
    repo *r = *state;
    /* drivers the CI's own config defines, which the change's attributes would select */
    assert_int_equal(run(r, "git config diff.hide.binary true && git config diff.hide.textconv true && "
                            "git config filter.hide.clean cat && git config filter.hide.smudge cat"), 0);
    static const char *const attrs[] = {"*.cc -diff\n", "*.cc binary\n", "*.cc diff=hide\n",
                                        "*.cc filter=hide\n", "* -text\n*.cc -diff\n"};
    for (size_t i = 0; i < sizeof attrs / sizeof attrs[0]; i++) {
        add_legacy_cc(r, NULL, NULL);
        put(r, ".gitattributes", attrs[i]);
        assert_int_equal(run(r, "git add -A && $S check -q --staged -f github"), 1);
        expect_gate(r, "file=paddle/fluid/run.cc,line=3,");
        assert_int_equal(judge(r, NULL, NULL), 1);
        expect_gate(r, "file=paddle/fluid/run.cc,line=3,");
        assert_int_equal(run(r, "git reset -q --hard HEAD~1"), 0);
    }
    /* the same attributes already at the base */
    put(r, ".gitattributes", "*.cc binary\n");
    assert_int_equal(run(r, "git add -A && git commit -qm attributes"), 0);
    add_legacy_cc(r, NULL, NULL);
    assert_int_equal(judge(r, NULL, NULL), 1);
    expect_gate(r, "file=paddle/fluid/run.cc,line=3,");
    assert_int_equal(run(r, "git reset -q --hard HEAD~2"), 0);
    /* ident collapses "$Id: ... $" when git hashes the work tree: an edit inside it is a change */
    put(r, ".gitattributes", "*.cc ident\n");
    put(r, "paddle/fluid/run.cc", "namespace paddle {\nvoid Run() {\n  /* $Id$ */\n}\n}\n");
    assert_int_equal(run(r, "git add -A && git commit -qm ident"), 0);
    put(r, "paddle/fluid/run.cc",
        "namespace paddle {\nvoid Run() {\n  /* $Id: */ auto *pe = new ParallelExecutor(p); /* $ */\n}\n}\n");
    assert_int_equal(run(r, "$S check -q --diff-base HEAD -f github"), 1);
    expect_gate(r, "file=paddle/fluid/run.cc,line=3,");
}

/* A checkout's eol conversion (CRLF on disk, LF in the blob) edits no line: renaming the
 * function above a legacy line (its fingerprint changes) leaves that line unchanged. */
static void eol_conversion_is_not_an_edit(void **state) {
    repo *r = *state;
    add_legacy_cc(r, NULL, NULL);
    assert_int_equal(run(r, "git add -A && git commit -qm legacy"), 0);
    put(r, ".gitattributes", "*.cc text eol=crlf\n");
    assert_int_equal(run(r, "git add -A && git commit -qm eol && rm paddle/fluid/run.cc && "
                            "git checkout -- paddle/fluid/run.cc && grep -c \"$(printf '\\r')\" paddle/fluid/run.cc && "
                            "sed 's/Run()/RunAll()/' paddle/fluid/run.cc > t && mv t paddle/fluid/run.cc"), 0);
    assert_int_equal(run(r, "$S check -q --diff-base HEAD~1 -f json"), 0);
    assert_int_equal(gate_num(r, "new"), 0);
    assert_int_equal(gate_num(r, "moved"), 1);
}

/* A submodule (a gitlink: another repository's commit) is no file to read: adding or bumping
 * one is judged by the rest of the change, and -v says it was not read. */
static void submodules_are_not_files(void **state) {
    repo *r = *state;
    assert_int_equal(run(r, "echo subsrc/ >> .git/info/exclude && git init -q subsrc && cd subsrc && "
                            "git config user.email t@example.com && git config user.name t && "
                            "echo one > f && git add f && git commit -qm one"), 0);
    const char *add = "git -c protocol.file.allow=always submodule add -q \"$PWD/subsrc\" third_party/sub";
    assert_int_equal(run(r, "%s && $S check --staged -v", add), 0);
    assert_non_null(strstr(r->err, "third_party/sub: a submodule (gitlink), not a file: not judged"));
    assert_int_equal(run(r, "$S check -q --diff-base HEAD"), 0);
    add_legacy_cc(r, NULL, NULL);
    assert_int_equal(run(r, "git add -A && $S check -q --staged -f github"), 1);
    expect_gate(r, "file=paddle/fluid/run.cc,line=3,");
    /* a bump: a new commit in the submodule, staged in the superproject */
    assert_int_equal(run(r, "git reset -q paddle/fluid/run.cc && git checkout -- paddle/fluid/run.cc && "
                            "git commit -qm sub && cd third_party/sub && git config user.email t@example.com && "
                            "git config user.name t && echo two > f && git commit -qam two && cd ../.. && "
                            "git add third_party/sub && git diff --cached --name-only"), 0);
    assert_string_equal(r->out, "third_party/sub\n");
    assert_int_equal(run(r, "$S check --staged -v"), 0);
    assert_non_null(strstr(r->err, "third_party/sub: a submodule (gitlink), not a file: not judged"));
    assert_int_equal(run(r, "git commit -qm bump && $S check -q --diff-base HEAD~1"), 0);
    add_legacy_cc(r, NULL, NULL);
    assert_int_equal(run(r, "git add -A && $S check -q --staged -f github"), 1);
    expect_gate(r, "file=paddle/fluid/run.cc,line=3,");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(config_in_the_change_is_not_trusted, setup, teardown),
        cmocka_unit_test_setup_teardown(self_made_baseline_and_gitignore, setup, teardown),
        cmocka_unit_test_setup_teardown(config_above_the_work_tree_is_not_read, setup, teardown),
        cmocka_unit_test_setup_teardown(skipped_changed_files_fail_closed, setup, teardown),
        cmocka_unit_test_setup_teardown(suppressions_cannot_blanket_or_hide_in_strings, setup, teardown),
        cmocka_unit_test_setup_teardown(symlinks_are_judged_by_their_target, setup, teardown),
        cmocka_unit_test_setup_teardown(spellings_the_toolchain_accepts, setup, teardown),
        cmocka_unit_test_setup_teardown(baseline_then_check_and_sarif, setup, teardown),
        cmocka_unit_test_setup_teardown(staged_judges_the_index, setup, teardown),
        cmocka_unit_test_setup_teardown(renames_are_not_fixes, setup, teardown),
        cmocka_unit_test_setup_teardown(context_is_part_of_the_identity, setup, teardown),
        cmocka_unit_test_setup_teardown(renames_from_unjudged_paths_are_new, setup, teardown),
        cmocka_unit_test_setup_teardown(gitattributes_do_not_choose_how_the_change_reads, setup, teardown),
        cmocka_unit_test_setup_teardown(eol_conversion_is_not_an_edit, setup, teardown),
        cmocka_unit_test_setup_teardown(submodules_are_not_files, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
