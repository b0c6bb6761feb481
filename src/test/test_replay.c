/*
 * test_replay.c — scan's warm path (cmd/replay.h, issue 28): in a clean git checkout a second
 * run writes the first run's document (elapsed time aside) without reading a scanned file;
 * an edited file, an untracked one, a racily clean index entry, a changed rule pack or a
 * changed option each make the run scan again, and then its document is a cold run's.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shell.h"

static char dir[64];
static char bin[PATH_MAX];

/* A git-initialised copy of the sample tree, committed, every file older than the index (so
 * that no entry is racily clean), and an empty cache. */
static int setup(void **state) {
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/sunset-replay-XXXXXX");
    if (!mkdtemp(dir) || !realpath(test_bin(), bin)) return -1;
    return test_sh("cp -R testdata/paddle-mini %s/tree && cd %s/tree && git init -q && "
                   "find . -path ./.git -prune -o -type f -exec touch -d @$(( $(date +%%s) - 10 )) {} + && "
                   "git add -A && git -c user.name=t -c user.email=t@t commit -qm sample", dir, dir);
}

static int teardown(void **state) {
    (void)state;
    return test_sh("rm -rf %s", dir);
}

/* scan the tree with the cache in dir/c (extra options opts) into dir/out with its elapsed
 * time cut out; the exit code. */
static int scan_to(const char *opts, const char *out) {
    return test_sh("cd %s/tree && %s scan --no-config -q %s --cache ../c . > ../%s.raw; rc=$?; "
                   "sed -e 's/\"elapsed_ms\":[0-9.]*//' -e 's/^time: [0-9]* ms/time:/' ../%s.raw > ../%s; exit $rc",
                   dir, bin, opts, out, out, out);
}

static int cold_to(const char *opts, const char *out) {
    return test_sh("cd %s/tree && %s scan --no-config -q %s --no-cache . | "
                   "sed -e 's/\"elapsed_ms\":[0-9.]*//' -e 's/^time: [0-9]* ms/time:/' > ../%s",
                   dir, bin, opts, out);
}

static int results(void) {
    return test_sh("exit $(ls %s/c/*.result 2>/dev/null | wc -l)", dir);
}

/* LeakSanitizer cannot run under ptrace: a sanitized binary traced by strace stops with "LeakSanitizer
 * has encountered a fatal error" and a non-zero status. Traced runs turn leak detection off (the
 * untraced runs of the same commands still check for leaks); for an unsanitized build it is a no-op. */
#define TRACED "ASAN_OPTIONS=\"${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0\" strace -f -qq -e trace=openat"

static bool same(const char *a, const char *b) { return test_sh("cmp -s %s/%s %s/%s", dir, a, dir, b) == 0; }

/* The warm document is the cold one byte for byte, in JSON and in text; the run was stored. */
static void warm_equals_cold(void **state) {
    (void)state;
    const char *fmts[] = {"-f json", "-f text --color never"};
    for (size_t i = 0; i < 2; i++) {
        assert_int_equal(cold_to(fmts[i], "none"), 0);
        assert_int_equal(scan_to(fmts[i], "cold"), 0);
        assert_int_equal(results(), (int)i + 1);
        assert_int_equal(scan_to(fmts[i], "warm"), 0);
        assert_int_equal(results(), (int)i + 1);
        assert_true(same("none", "cold"));
        assert_true(same("cold", "warm"));
    }
}

/* The warm run of a clean checkout opens no file it scans (strace on the machine; else skip). */
static void clean_checkout_reads_nothing(void **state) {
    (void)state;
    if (test_sh("strace -V >/dev/null 2>&1")) skip();
    assert_int_equal(scan_to("-f json", "r1"), 0);
    assert_int_equal(test_sh("cd %s/tree && " TRACED " -o ../trace %s scan --no-config -q -f json "
                             "--cache ../c . > ../r2.raw && git ls-files > ../tracked", dir, bin), 0);
    assert_int_equal(test_sh("test $(wc -l < %s/tracked) -gt 50", dir), 0);
    /* not one tracked file's path in an openat() call */
    assert_int_equal(test_sh("cd %s && sed 's|^|/tree/|; s|$|\"|' tracked > needles && ! grep -F -f needles trace", dir), 0);
    /* and the same trace of a cold run does show them (the check can see a read) */
    assert_int_equal(test_sh("cd %s/tree && " TRACED " -o ../trace0 %s scan --no-config -q -f json "
                             "--no-cache . > /dev/null && cd .. && grep -q -F -f needles trace0", dir, bin), 0);
}

/* After the shell command change in the tree, the run scans again: its document is a cold
 * run's and not the stored one; undo puts the tree back. */
static void change_is_scanned(const char *change, const char *undo) {
    assert_int_equal(scan_to("-f json", "before"), 0);
    assert_int_equal(test_sh("cd %s/tree && %s", dir, change), 0);
    assert_int_equal(cold_to("-f json", "after-cold"), 0);
    assert_int_equal(scan_to("-f json", "after-warm"), 0);
    assert_true(same("after-cold", "after-warm"));
    assert_false(same("before", "after-warm"));
    assert_int_equal(test_sh("cd %s/tree && %s", dir, undo), 0);
}

/* A legacy line appended to a tracked file. */
static void edited_file_is_scanned(void **state) {
    (void)state;
    change_is_scanned("f=$(git ls-files python | grep compiler.py | head -1) && "
                      "echo 'exe = paddle.static.ParallelExecutor()  # edited' >> $f",
                      "git checkout -q -- .");
}

/* A new file git does not track yet. */
static void untracked_file_is_scanned(void **state) {
    (void)state;
    change_is_scanned("printf 'import paddle\\nexe = paddle.static.ParallelExecutor()\\n' > python/paddle/new_module.py",
                      "rm python/paddle/new_module.py");
}

/* An entry written in the same instant as the index: git would read it, so the warm path
 * does (the run is not replayed: the file is opened) and the document is the cold one. */
static void racy_entry_is_read(void **state) {
    (void)state;
    if (test_sh("strace -V >/dev/null 2>&1")) skip();
    assert_int_equal(scan_to("-f json", "before"), 0);
    assert_int_equal(test_sh("cd %s/tree && f=$(git ls-files '*.py' | head -1) && echo \"/tree/$f\\\"\" > ../racy && "
                             "touch -r $f .git/index", dir), 0);
    assert_int_equal(test_sh("cd %s/tree && " TRACED " -o ../trace-racy %s scan --no-config -q "
                             "-f json --cache ../c . | sed 's/\"elapsed_ms\":[0-9.]*//' > ../racy-warm", dir, bin), 0);
    assert_int_equal(test_sh("grep -q -F -f %s/racy %s/trace-racy", dir, dir), 0);
    assert_int_equal(cold_to("-f json", "racy-cold"), 0);
    assert_true(same("racy-cold", "racy-warm"));
    assert_int_equal(test_sh("cd %s/tree && git update-index -q --really-refresh", dir), 0);
}

/* A changed rule pack and changed options are other runs; the exit code is replayed too. */
static void rules_and_options_invalidate(void **state) {
    (void)state;
    assert_int_equal(test_sh("rm -rf %s/rules && cp -R rules %s/rules && "
                             "sed -i 's/Reference to the legacy AsyncExecutor/Use of AsyncExecutor/' %s/rules/async-executor.json",
                             dir, dir, dir), 0);
    assert_int_equal(scan_to("-f json", "base"), 0);
    char opts[PATH_MAX + 64];
    snprintf(opts, sizeof opts, "-f json --rules %s/rules", dir);
    assert_int_equal(scan_to(opts, "rules1"), 0);
    assert_int_equal(test_sh("grep -q 'Use of AsyncExecutor' %s/rules1 && ! grep -q 'Use of AsyncExecutor' %s/base", dir, dir), 0);
    /* an option: --ignore drops a rule's findings, --error sets the exit code */
    assert_int_equal(scan_to("-f json --ignore 'PE-*'", "ign"), 0);
    assert_int_equal(cold_to("-f json --ignore 'PE-*'", "ign-cold"), 0);
    assert_true(same("ign", "ign-cold"));
    assert_false(same("ign", "base"));
    int first = scan_to("-f json --error", "err1");
    assert_int_equal(first, 1);
    int before = test_sh("exit $(ls %s/c/*.result | wc -l)", dir);
    assert_int_equal(scan_to("-f json --error", "err2"), first);
    assert_int_equal(test_sh("exit $(ls %s/c/*.result | wc -l)", dir), before);
    assert_true(same("err1", "err2"));
    assert_true(same("err1", "base"));
}

/* An edited query file is another run too (and another content-cache namespace): the query
 * decides which facts the Python frontend sees, as a rule decides what matches. */
static void edited_query_is_another_run(void **state) {
    (void)state;
    assert_int_equal(test_sh("rm -rf %s/c %s/q && cp -R queries %s/q", dir, dir, dir), 0);
    char opts[PATH_MAX + 64];
    snprintf(opts, sizeof opts, "-f json --queries %s/q", dir);
    assert_int_equal(scan_to(opts, "q1"), 0);
    assert_int_equal(results(), 1);
    assert_int_equal(scan_to(opts, "q2"), 0);
    assert_int_equal(results(), 1); /* replayed */
    assert_int_equal(test_sh("echo '; an edit' >> %s/q/python/facts.scm", dir), 0);
    assert_int_equal(scan_to(opts, "q3"), 0);
    assert_int_equal(results(), 2);
    assert_true(same("q1", "q3"));
}

/* Queries that compiled before in the cache's namespace are compiled lazily (cmd/session.c):
 * a warm run after an edit that needs a parse gives the cold run's document, and a query
 * file broken after the cache was filled is a new namespace, so the run still stops at
 * start-up with the file, line and column and exit 2. */
static void lazy_queries_and_a_broken_one(void **state) {
    (void)state;
    assert_int_equal(test_sh("rm -rf %s/c %s/q && cp -R queries %s/q", dir, dir, dir), 0);
    char opts[PATH_MAX + 64];
    snprintf(opts, sizeof opts, "-f json --queries %s/q", dir);
    assert_int_equal(scan_to(opts, "l1"), 0);
    assert_int_equal(test_sh("cd %s/tree && printf 'import paddle.fluid as fluid\\nexe = fluid.ParallelExecutor()\\n' "
                             ">> lazy_edit.py", dir), 0);
    assert_int_equal(scan_to(opts, "l2"), 0); /* parses the new file with the lazily compiled queries */
    assert_int_equal(test_sh("cd %s/tree && %s scan --no-config -q %s --no-cache . | sed -e 's/\"elapsed_ms\":[0-9.]*//' > ../l3",
                             dir, bin, opts), 0);
    assert_true(same("l2", "l3"));
    assert_int_equal(test_sh("grep -q lazy_edit.py %s/l2", dir), 0);
    assert_int_equal(test_sh("echo '(broken' >> %s/q/python/facts.scm", dir), 0);
    assert_int_equal(test_sh("cd %s/tree && %s scan --no-config -q %s --cache ../c . >/dev/null 2>../err; exit $?", dir, bin, opts), 2);
    assert_int_equal(test_sh("grep -q '^sunset: .*/q/python/facts.scm:[0-9]*:[0-9]*: invalid query' %s/err", dir), 0);
    assert_int_equal(test_sh("rm -f %s/tree/lazy_edit.py", dir), 0);
}

/* Every new state of the tree stores a document: the newest 8 are kept, the one just used
 * among them. */
static void old_documents_are_evicted(void **state) {
    (void)state;
    assert_int_equal(test_sh("rm -rf %s/c", dir), 0);
    for (int i = 0; i < 11; i++) {
        assert_int_equal(test_sh("echo 'x = %d' > %s/tree/python/paddle/round.py", i, dir), 0);
        assert_int_equal(scan_to("-f json", "round"), 0);
        if (i == 0) assert_int_equal(test_sh("cp %s/c/*.result %s/first.result", dir, dir), 0);
        if (i == 5) { /* the first state again: replayed, so it counts as new */
            assert_int_equal(test_sh("echo 'x = 0' > %s/tree/python/paddle/round.py", dir), 0);
            assert_int_equal(scan_to("-f json", "round"), 0);
        }
    }
    assert_int_equal(results(), 8);
    assert_int_equal(test_sh("for f in %s/c/*.result; do cmp -s $f %s/first.result && exit 0; done; exit 1", dir, dir), 0);
    assert_int_equal(test_sh("rm %s/tree/python/paddle/round.py", dir), 0);
}

/* After a one-file edit the run opens, of the tracked files, only the edited one (the others
 * the index vouches for, and the cache knows what they were read as), and its document is a
 * cold run's. */
static void edit_reads_only_the_edited_file(void **state) {
    (void)state;
    if (test_sh("strace -V >/dev/null 2>&1")) skip();
    const char *f = "python/paddle/base/compiler.py";
    assert_int_equal(test_sh("rm -rf %s/c && cd %s/tree && test -f %s", dir, dir, f), 0);
    assert_int_equal(scan_to("-f json", "e0"), 0);
    assert_int_equal(test_sh("cd %s/tree && echo '# an edit' >> %s && git ls-files | grep -vx '%s' > ../tracked-rest",
                             dir, f, f), 0);
    assert_int_equal(test_sh("cd %s/tree && " TRACED " -o ../trace-edit %s scan --no-config -q -f json "
                             "--cache ../c . | sed 's/\"elapsed_ms\":[0-9.]*//' > ../e1", dir, bin), 0);
    assert_int_equal(cold_to("-f json", "e1-cold"), 0);
    assert_true(same("e1", "e1-cold"));
    assert_int_equal(test_sh("cd %s && grep -q -F '/tree/%s\"' trace-edit && sed 's|^|/tree/|; s|$|\"|' tracked-rest > "
                             "needles-rest && ! grep -F -f needles-rest trace-edit", dir, f), 0);
    assert_int_equal(test_sh("cd %s/tree && git checkout -q -- .", dir), 0);
}

/* What a file was read as is kept with the options that decide whether it is scanned: a
 * generated file skipped unread in one run is scanned with --include-generated, and a file
 * read under a smaller --max-filesize is skipped as too large. */
static void admission_options_are_in_the_key(void **state) {
    (void)state;
    assert_int_equal(test_sh("rm -rf %s/c", dir), 0);
    assert_int_equal(scan_to("-f json", "adm0"), 0);
    assert_int_equal(test_sh("cd %s/tree && echo '# an edit' >> python/paddle/base/compiler.py", dir), 0);
    const char *opts[] = {"-f json --include-generated", "-f json --max-filesize 2000"};
    for (size_t i = 0; i < 2; i++) {
        assert_int_equal(scan_to(opts[i], "adm-warm"), 0);
        assert_int_equal(cold_to(opts[i], "adm-cold"), 0);
        assert_true(same("adm-warm", "adm-cold"));
        assert_false(same("adm-warm", "adm0"));
    }
    assert_int_equal(test_sh("cd %s/tree && git checkout -q -- .", dir), 0);
}

/* ---- the removal plan's cache (<cache>/<namespace>.plan) ---- */

/* The run after the shell command change is a cold run's document; the stored plan was kept
 * (kept: the same bytes as before) or built again and stored anew. */
static void plan_after(const char *change, bool kept, const char *undo) {
    assert_int_equal(test_sh("rm -rf %s/c", dir), 0);
    assert_int_equal(scan_to("-f json", "plan-before"), 0);
    assert_int_equal(test_sh("test $(ls %s/c/*.plan | wc -l) = 1 && cp %s/c/*.plan %s/plan0", dir, dir, dir), 0);
    assert_int_equal(test_sh("cd %s/tree && %s", dir, change), 0);
    assert_int_equal(cold_to("-f json", "plan-cold"), 0);
    assert_int_equal(scan_to("-f json", "plan-warm"), 0);
    assert_true(same("plan-cold", "plan-warm"));
    assert_int_equal(test_sh("cmp -s %s/c/*.plan %s/plan0", dir, dir) == 0, kept);
    assert_int_equal(test_sh("cd %s/tree && %s", dir, undo), 0);
}

/* A comment appended to a whole legacy file changes no fact and no finding: the plan is kept. */
static void comment_keeps_the_plan(void **state) {
    (void)state;
    plan_after("echo '// a comment' >> paddle/fluid/framework/async_executor.cc", true, "git checkout -q -- .");
}

/* A new include, a renamed file, a changed finding and another option each plan again. */
static void facts_and_findings_plan_again(void **state) {
    (void)state;
    plan_after("echo '#include \"paddle/fluid/framework/async_executor.h\"' >> paddle/fluid/framework/executor.cc",
               false, "git checkout -q -- .");
    plan_after("git mv paddle/fluid/framework/async_executor.h paddle/fluid/framework/async_executor2.h", false,
               "git reset -q --hard");
    plan_after("f=$(git ls-files python | grep compiler.py | head -1) && "
               "echo 'exe = paddle.static.ParallelExecutor()  # edited' >> $f",
               false, "git checkout -q -- .");
    assert_int_equal(test_sh("rm -rf %s/c", dir), 0);
    assert_int_equal(scan_to("-f json", "opt-before"), 0);
    assert_int_equal(test_sh("cp %s/c/*.plan %s/plan0", dir, dir), 0);
    assert_int_equal(scan_to("-f json --ignore 'OH-*'", "opt-warm"), 0);
    assert_int_equal(cold_to("-f json --ignore 'OH-*'", "opt-cold"), 0);
    assert_true(same("opt-warm", "opt-cold"));
    /* the option is in the key: the newest plan is another one */
    assert_false(test_sh("cmp -s $(ls -t %s/c/*.plan | head -1) %s/plan0", dir, dir) == 0);
}

/* A damaged plan file is not used: the run builds the plan and stores it again. */
static void damaged_plan_is_rebuilt(void **state) {
    (void)state;
    assert_int_equal(test_sh("rm -rf %s/c", dir), 0);
    assert_int_equal(scan_to("-f json", "dmg-before"), 0);
    assert_int_equal(test_sh("cd %s/c && p=$(ls *.plan) && cp $p ../plan0 && "
                             "printf 'XXXX' | dd of=$p bs=1 seek=200 conv=notrunc 2>/dev/null && "
                             "echo '// edit' >> ../tree/paddle/fluid/framework/async_executor.cc", dir), 0);
    assert_int_equal(cold_to("-f json", "dmg-cold"), 0);
    assert_int_equal(scan_to("-f json", "dmg-warm"), 0);
    assert_true(same("dmg-cold", "dmg-warm"));
    /* stored again: what a run with an empty cache stores (its header names its own key) */
    assert_int_equal(test_sh("cd %s/tree && %s scan --no-config -q -f json --cache ../c2 . > /dev/null && cd .. && "
                             "tail -n +2 c/*.plan > b1 && tail -n +2 c2/*.plan > b2 && cmp -s b1 b2 && rm -rf c2",
                             dir, bin), 0);
    assert_int_equal(test_sh("cd %s/tree && git checkout -q -- .", dir), 0);
}

/* The cross-module flow on the warm path (core/xflow.h): in a commit with an exporter of a
 * legacy object and its importer, a warm run after an unrelated edit (the two vouched for by
 * the git index, replayed unread) and one after the exporter's edit are cold runs' documents. */
static void flow_across_vouched_modules(void **state) {
    (void)state;
    assert_int_equal(test_sh("rm -rf %s/c && cd %s/tree && mkdir -p python/xf && "
                             "printf 'import paddle.fluid as fluid\\n\\ntrain_exe = fluid.ParallelExecutor(True)\\n' "
                             "> python/xf/trainer.py && printf 'from trainer import train_exe\\n\\n\\ndef step(feed):\\n"
                             "    train_exe.run(feed=feed)\\n' > python/xf/main.py && "
                             "touch -d @$(( $(date +%%s) - 10 )) python/xf/*.py && git add -A && "
                             "git -c user.name=t -c user.email=t@t commit -qm xf", dir, dir), 0);
    assert_int_equal(scan_to("-f json", "xf0"), 0);
    assert_int_equal(cold_to("-f json", "xf0-cold"), 0);
    assert_true(same("xf0", "xf0-cold"));
    assert_int_equal(test_sh("grep -q 'python/xf/main.py' %s/xf0", dir), 0);
    const char *edits[] = {"echo '# an edit' >> python/paddle/base/compiler.py",
                           "printf 'import paddle\\ntrain_exe = paddle.static.Executor()\\n' > python/xf/trainer.py"};
    for (int i = 0; i < 2; i++) {
        assert_int_equal(test_sh("cd %s/tree && %s", dir, edits[i]), 0);
        assert_int_equal(scan_to("-f json", "xf-warm"), 0);
        assert_int_equal(cold_to("-f json", "xf-cold"), 0);
        assert_true(same("xf-warm", "xf-cold"));
        assert_int_equal(test_sh("grep -q 'python/xf/main.py' %s/xf-warm", dir), i);
    }
    assert_int_equal(test_sh("cd %s/tree && git reset -q --hard HEAD~1", dir), 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(warm_equals_cold),
        cmocka_unit_test(clean_checkout_reads_nothing),
        cmocka_unit_test(edited_file_is_scanned),
        cmocka_unit_test(untracked_file_is_scanned),
        cmocka_unit_test(rules_and_options_invalidate),
        cmocka_unit_test(edited_query_is_another_run),
        cmocka_unit_test(lazy_queries_and_a_broken_one),
        cmocka_unit_test(old_documents_are_evicted),
        cmocka_unit_test(racy_entry_is_read),
        cmocka_unit_test(edit_reads_only_the_edited_file),
        cmocka_unit_test(admission_options_are_in_the_key),
        cmocka_unit_test(comment_keeps_the_plan),
        cmocka_unit_test(facts_and_findings_plan_again),
        cmocka_unit_test(damaged_plan_is_rebuilt),
        cmocka_unit_test(flow_across_vouched_modules),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
