/*
 * test_badinput.c — hardening: what a pull request may contain must never crash, hang or
 * write into the scanned tree. Each test builds its input in a temporary directory at run
 * time (nothing large is committed) and runs the built binary ($SUNSET_BIN) on it, checking
 * the exit code, the one-line warning naming the file and that the rest of the scan
 * completed (a known finding in a sibling file is still reported). The engine-level case
 * (a file deleted between the walk and the read) calls the engine directly.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/engine.h"
#include "lang/registry.h"

static char bin_abs[PATH_MAX];

static void put(const char *dir, const char *rel, const char *data, size_t len) {
    char p[PATH_MAX];
    snprintf(p, sizeof p, "%s/%s", dir, rel);
    for (char *s = strchr(p + strlen(dir) + 1, '/'); s; s = strchr(s + 1, '/')) {
        *s = 0;
        mkdir(p, 0755);
        *s = '/';
    }
    FILE *f = fopen(p, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, len, f), len);
    assert_int_equal(fclose(f), 0);
}

static void puts_file(const char *dir, const char *rel, const char *text) { put(dir, rel, text, strlen(text)); }

/* A temp tree with one file every case expects to be reported: the scan went on. */
static void make_tree(char *dir) {
    strcpy(dir, "/tmp/sunset-badinput-XXXXXX");
    assert_non_null(mkdtemp(dir));
    puts_file(dir, "paddle/fluid/framework/good.cc", "class ParallelExecutor {};\n");
}

static void rm_tree(const char *dir) {
    char cmd[PATH_MAX + 32];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

typedef struct run {
    int rc;
    char *out, *err;
} run;

/* Run `sunset ARGS` (ARGS is shell text; $T is the tree) with cwd `cwd`. */
static run sunset(const char *cwd, const char *tree, const char *args) {
    char out[64], err[64];
    snprintf(out, sizeof out, "/tmp/sunset-bi-%d.out", (int)getpid());
    snprintf(err, sizeof err, "/tmp/sunset-bi-%d.err", (int)getpid());
    setenv("T", tree, 1);
    setenv("SUNSET", bin_abs, 1);
    setenv("SUNSET_ARGS", args, 1);
    char cmd[512];
    snprintf(cmd, sizeof cmd, "cd '%s' && eval \"\\\"\\$SUNSET\\\" $SUNSET_ARGS\" >'%s' 2>'%s' </dev/null",
             cwd, out, err);
    int st = system(cmd);
    run r = {WIFEXITED(st) ? WEXITSTATUS(st) : -1, NULL, NULL};
    size_t n;
    if (read_file(out, 0, &r.out, &n)) r.out = sunset_strndup("", 0);
    if (read_file(err, 0, &r.err, &n)) r.err = sunset_strndup("", 0);
    remove(out);
    remove(err);
    return r;
}

static void run_free(run *r) {
    sunset_free(r->out);
    sunset_free(r->err);
}

static void expect(const run *r, int rc, const char *in_out, const char *in_err) {
    if (r->rc != rc || (in_out && !strstr(r->out, in_out)) || (in_err && !strstr(r->err, in_err)))
        fail_msg("exit %d (want %d)\n--- stdout\n%s--- stderr\n%s--- wanted stdout to hold: %s\n"
                 "--- wanted stderr to hold: %s", r->rc, rc, r->out, r->err, in_out ? in_out : "-",
                 in_err ? in_err : "-");
}

/* --parse-budget 0: no time limit, so that the machine's load never decides (a 2 MB file of
 * matches took over the default 10 s under ASan on a loaded machine) */
#define SCAN "scan --no-config --no-cache --color=never --no-snippets --findings " \
             "--parse-budget 0 \"$T\" "
#define GOOD "paddle/fluid/framework/good.cc:1:7: error: [PE-CPP-DEF]"

/* ---------------------------------------------------------------- the matrix */

static void binary_file(void **st) {
    (void)st;
    char t[64];
    make_tree(t);
    put(t, "paddle/fluid/framework/blob.cc", "ParallelExecutor\0\1\2\3", 20);
    run r = sunset("/tmp", t, SCAN);
    expect(&r, 0, GOOD, NULL);
    assert_non_null(strstr(r.out, "1 skipped (1 binary"));
    assert_null(strstr(r.out, "blob.cc"));
    run_free(&r);
    rm_tree(t);
}

static void non_utf8_source(void **st) {
    (void)st;
    char t[64];
    make_tree(t);
    puts_file(t, "python/paddle/latin1.py", "# caf\xe9 \xff\xfe\nexe = fluid.ParallelExecutor(x)  # \xe9\n");
    run r = sunset("/tmp", t, SCAN "-f json");
    expect(&r, 0, "\"path\":\"python/paddle/latin1.py\"", NULL);
    /* invalid bytes become U+FFFD in the JSON document, which stays valid UTF-8 */
    assert_null(strchr(r.out, '\xe9'));
    assert_non_null(strstr(r.out, "\xEF\xBF\xBD"));
    run_free(&r);
    rm_tree(t);
}

static void fifty_megabyte_file(void **st) {
    (void)st;
    char t[64];
    make_tree(t);
    size_t n = 50u << 20;
    char *big = malloc(n);
    assert_non_null(big);
    const char *line = "ParallelExecutor pe;\n";
    for (size_t i = 0; i < n; i++) big[i] = line[i % strlen(line)];
    put(t, "paddle/fluid/framework/huge.cc", big, n);
    free(big);
    run r = sunset("/tmp", t, SCAN);
    expect(&r, 0, GOOD, "paddle/fluid/framework/huge.cc: warning: skipped: larger than the 16777216-byte limit (--max-filesize)");
    assert_non_null(strstr(r.out, "1 too large"));
    run_free(&r);
    rm_tree(t);
}

/* Per-file match cap: memory per worker stays bounded on a file made of matches. */
static void file_of_matches(void **st) {
    (void)st;
    char t[64];
    make_tree(t);
    size_t n = 2u << 20;
    char *big = malloc(n);
    assert_non_null(big);
    const char *line = "x = core.ParallelExecutor  # ParallelExecutor\n";
    for (size_t i = 0; i < n; i++) big[i] = line[i % strlen(line)];
    put(t, "python/paddle/many.py", big, n);
    free(big);
    run r = sunset("/tmp", t, SCAN "--no-summary");
    expect(&r, 0, GOOD, "python/paddle/many.py: warning: more than 10000 matches; the rest of this file is not reported");
    run_free(&r);
    rm_tree(t);
}

static void deep_nesting(void **st) {
    (void)st;
    char t[64];
    make_tree(t);
    enum { D = 10000 };
    sb b = {0};
    /* unary minus 10,000 deep overflowed libclang's 8 MB parse thread (SIGSEGV) before */
    sb_puts(&b, "int x = ");
    for (int i = 0; i < D; i++) sb_puts(&b, "- ");
    sb_puts(&b, "1;\nint y = ");
    for (int i = 0; i < D; i++) sb_putc(&b, '(');
    sb_putc(&b, '1');
    for (int i = 0; i < D; i++) sb_putc(&b, ')');
    sb_puts(&b, ";\nParallelExecutor *pe;\n");
    put(t, "paddle/fluid/framework/deep.cc", b.s, b.len);
    b.len = 0;
    sb_puts(&b, "x = ");
    for (int i = 0; i < D; i++) sb_putc(&b, '[');
    for (int i = 0; i < D; i++) sb_putc(&b, ']');
    sb_puts(&b, "\ny = ");
    for (int i = 0; i < D; i++) sb_puts(&b, "not ");
    sb_puts(&b, "1\nfluid.ParallelExecutor()\n");
    put(t, "python/paddle/deep.py", b.s, b.len);
    b.len = 0;
    sb_puts(&b, "cc_library(a DEPS ");
    for (int i = 0; i < D; i++) sb_putc(&b, '(');
    sb_puts(&b, "parallel_executor");
    for (int i = 0; i < D; i++) sb_putc(&b, ')');
    sb_puts(&b, ")\n");
    put(t, "paddle/CMakeLists.txt", b.s, b.len);
    sb_free(&b);
    run r = sunset("/tmp", t, SCAN "--no-summary");
    expect(&r, 0, GOOD, NULL);
    assert_non_null(strstr(r.out, "paddle/fluid/framework/deep.cc:3:"));
    assert_non_null(strstr(r.out, "python/paddle/deep.py:3:"));
    run_free(&r);
    rm_tree(t);
}

/* Longer operator chains than libclang's stack can hold are refused with a warning. */
static void operator_chain_refused(void **st) {
    (void)st;
    char t[64];
    make_tree(t);
    sb b = {0};
    sb_puts(&b, "int x = 1");
    for (int i = 0; i < 30000; i++) sb_puts(&b, "+1");
    sb_puts(&b, ";\nParallelExecutor *pe;\n");
    put(t, "paddle/fluid/framework/chain.cc", b.s, b.len);
    sb_free(&b);
    run r = sunset("/tmp", t, SCAN);
    expect(&r, 0, GOOD, "paddle/fluid/framework/chain.cc:1:0: warning: skipped: an expression of more than 20000 operators");
    run_free(&r);
    rm_tree(t);
}

static void symlink_loop(void **st) {
    (void)st;
    char t[64], a[PATH_MAX], b2[PATH_MAX], d[PATH_MAX];
    make_tree(t);
    snprintf(a, sizeof a, "%s/paddle/a.cc", t);
    snprintf(b2, sizeof b2, "%s/paddle/b.cc", t);
    snprintf(d, sizeof d, "%s/paddle/loop", t);
    assert_int_equal(symlink("b.cc", a), 0);
    assert_int_equal(symlink("a.cc", b2), 0);
    assert_int_equal(symlink("..", d), 0); /* a directory loop */
    run r = sunset("/tmp", t, SCAN "-f json");
    expect(&r, 0, "\"rule\":\"PE-CPP-DEF\"", NULL);
    assert_non_null(strstr(r.out, "\"symlinks\":3"));
    run_free(&r);
    rm_tree(t);
}

/* Tests run as root, which reads a chmod 000 file anyway: the scan runs as nobody. */
static void unreadable_file(void **st) {
    (void)st;
    char t[64];
    make_tree(t);
    puts_file(t, "paddle/fluid/framework/secret.cc", "class ParallelExecutor;\n");
    char p[PATH_MAX];
    snprintf(p, sizeof p, "%s/paddle/fluid/framework/secret.cc", t);
    assert_int_equal(chmod(p, 0), 0);
    assert_int_equal(chmod(t, 0755), 0);
    run r;
    if (geteuid() == 0) {
        if (system("command -v setpriv >/dev/null 2>&1") != 0) {
            rm_tree(t);
            skip(); /* root reads everything; no setpriv to drop privileges */
        }
        /* nobody may not reach the checkout (a clone under a private directory): scan with a
         * copy of the binary, rules and queries laid out as installed, in a world-readable
         * directory. `sunset --version` first (the harness prefixes the binary). */
        char inst[64];
        snprintf(inst, sizeof inst, "/tmp/sunset-bi-inst-XXXXXX");
        assert_non_null(mkdtemp(inst));
        char cmd[2 * PATH_MAX + 512];
        snprintf(cmd, sizeof cmd, "chmod 755 '%s' && mkdir -p '%s/bin' '%s/share/sunset' && cp '%s' '%s/bin/' && "
                 "cp -R rules queries '%s/share/sunset/' && chmod -R a+rX '%s'",
                 inst, inst, inst, bin_abs, inst, inst, inst);
        assert_int_equal(system(cmd), 0);
        setenv("SUNSET_STAGED", inst, 1);
        r = sunset("/tmp", t, "--version >/dev/null; setpriv --reuid=65534 --regid=65534 "
                              "--clear-groups \"$SUNSET_STAGED/bin/sunset\" " SCAN);
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", inst);
        assert_int_equal(system(cmd), 0);
    } else {
        r = sunset("/tmp", t, SCAN);
    }
    expect(&r, 0, GOOD, "paddle/fluid/framework/secret.cc: warning: skipped: Permission denied");
    assert_non_null(strstr(r.out, "1 unreadable"));
    run_free(&r);
    rm_tree(t);
}

static void not_a_paddle_tree(void **st) {
    (void)st;
    char t[64];
    strcpy(t, "/tmp/sunset-badinput-XXXXXX");
    assert_non_null(mkdtemp(t));
    puts_file(t, "main.go", "package main\nfunc main() { println(\"hi\") }\n");
    puts_file(t, "web/package.json", "{\"name\": \"x\"}\n");
    puts_file(t, "src/lib.c", "int add(int a, int b) { return a + b; }\n");
    puts_file(t, "tools/build.py", "import os\nprint(os.getcwd())\n");
    run r = sunset("/tmp", t, SCAN);
    expect(&r, 0, "0 findings", NULL);
    assert_string_equal(r.err, "");
    run_free(&r);
    rm_tree(t);
}

static void output_dir_missing(void **st) {
    (void)st;
    char t[64];
    make_tree(t);
    run r = sunset("/tmp", t, SCAN "-o \"$T/no/such/dir/out.txt\"");
    expect(&r, 2, NULL, "/no/such/dir/out.txt: cannot write: No such file or directory");
    run_free(&r);
    rm_tree(t);
}

/* A file listed by the walk and gone before a worker reads it. */
static void file_deleted_during_scan(void **st) {
    (void)st;
    char t[64];
    make_tree(t);
    const char *dirs[] = {"rules"};
    sunset_error err = {{0}};
    sunset_ruleset *rs = sunset_ruleset_load(dirs, 1, "queries", &err);
    assert_non_null(rs);
    sunset_engine_opts o = {SUNSET_ALL_FRONTENDS, .jobs = 2, .queries_dir = "queries"};
    sunset_engine *e = sunset_engine_new(rs, &o, &err);
    assert_non_null(e);
    char *paths[] = {"paddle/fluid/framework/gone.cc", "paddle/fluid/framework/good.cc"};
    sunset_result res = {0};
    assert_int_equal(sunset_engine_scan(e, t, paths, 2, &res), 0);
    assert_int_equal(res.n_findings, 1);
    assert_int_equal(res.stats.skipped_unreadable, 1);
    assert_int_equal(res.n_warnings, 1);
    assert_string_equal(res.warnings[0], "paddle/fluid/framework/gone.cc: warning: skipped: No such file or directory");
    sunset_result_free(&res);
    sunset_engine_free(e);
    sunset_ruleset_free(rs);
    rm_tree(t);
}

/* ---------------------------------------------------------------- the tree is never written */

typedef struct snap {
    char path[PATH_MAX];
    uint64_t hash;
    struct timespec mtime;
} snap;

static void snap_dir(const char *dir, vec *out) {
    DIR *d = opendir(dir);
    assert_non_null(d);
    struct dirent *de;
    while ((de = readdir(d))) {
        if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..")) continue;
        snap s = {{0}, 0, {0, 0}};
        snprintf(s.path, sizeof s.path, "%s/%s", dir, de->d_name);
        struct stat stt;
        assert_int_equal(lstat(s.path, &stt), 0);
        s.mtime = stt.st_mtim;
        if (S_ISDIR(stt.st_mode)) snap_dir(s.path, out);
        else if (S_ISREG(stt.st_mode)) {
            char *data = NULL;
            size_t n = 0;
            assert_int_equal(read_file(s.path, 0, &data, &n), 0);
            s.hash = hash64(data, n, 0);
            sunset_free(data);
        }
        vec_push(out, &s);
    }
    closedir(d);
}

static int cmp_snap(const void *a, const void *b) { return strcmp(((const snap *)a)->path, ((const snap *)b)->path); }

static vec snapshot(const char *dir) {
    vec v = VEC_INIT(snap);
    snap_dir(dir, &v);
    qsort(v.v, v.n, sizeof(snap), cmp_snap);
    return v;
}

static void same_snapshot(vec *a, vec *b, const char *what) {
    int bad = 0;
    if (a->n != b->n) {
        print_error("%s: %zu entries before, %zu after\n", what, a->n, b->n);
        bad++;
    }
    for (size_t i = 0; i < a->n && i < b->n; i++) {
        snap *x = &VEC_AT(a, snap, i), *y = &VEC_AT(b, snap, i);
        if (strcmp(x->path, y->path) || x->hash != y->hash || x->mtime.tv_sec != y->mtime.tv_sec ||
            x->mtime.tv_nsec != y->mtime.tv_nsec) {
            print_error("%s: %s changed\n", what, x->path);
            bad++;
        }
    }
    assert_int_equal(bad, 0);
}

static void tree_never_written(void **st) {
    (void)st;
    char t[64], out[64], cmd[512];
    strcpy(t, "/tmp/sunset-readonly-XXXXXX");
    strcpy(out, "/tmp/sunset-readonly-out-XXXXXX");
    assert_non_null(mkdtemp(t));
    assert_non_null(mkdtemp(out));
    snprintf(cmd, sizeof cmd, "cp -a testdata/paddle-mini/. '%s/' && cp -a testdata/clang/precise '%s/precise'", t, t);
    assert_int_equal(system(cmd), 0);
    /* precise mode: the compile command's directory is inside the tree */
    char db[1024];
    snprintf(db, sizeof db, "[{\"directory\": \"%s/precise/src\", \"file\": \"use_pe.cc\", "
             "\"arguments\": [\"c++\", \"-I../include\", \"-c\", \"use_pe.cc\", \"-o\", \"use_pe.o\", \"-MD\"]}]\n", t);
    puts_file(t, "precise/compile_commands.json", db);
    vec before = snapshot(t);
    const char *runs[] = {
        "scan --no-config \"$T\" -q -f json -o out.json",          /* relative -o, cwd outside */
        "scan --no-config \"$T\" -q -p \"$T/precise\" -o out2.txt", /* libclang used to chdir */
        "scan --no-config --cache cache \"$T\" -q -j4 -f json",
    };
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
        run r = sunset(out, t, runs[i]);
        expect(&r, 0, NULL, NULL);
        run_free(&r);
    }
    vec after = snapshot(t);
    same_snapshot(&before, &after, "scanned tree");
    /* the reports landed where they were asked to */
    char p[PATH_MAX];
    struct stat sst;
    snprintf(p, sizeof p, "%s/out.json", out);
    assert_int_equal(stat(p, &sst), 0);
    snprintf(p, sizeof p, "%s/out2.txt", out);
    assert_int_equal(stat(p, &sst), 0);
    vec_free(&before);
    vec_free(&after);
    rm_tree(t);
    rm_tree(out);
}

int main(void) {
    const char *b = getenv("SUNSET_BIN");
    if (!realpath(b && *b ? b : "build/sunset", bin_abs)) {
        fprintf(stderr, "test_badinput: no sunset binary (set SUNSET_BIN)\n");
        return 1;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(binary_file),
        cmocka_unit_test(non_utf8_source),
        cmocka_unit_test(fifty_megabyte_file),
        cmocka_unit_test(file_of_matches),
        cmocka_unit_test(deep_nesting),
        cmocka_unit_test(operator_chain_refused),
        cmocka_unit_test(symlink_loop),
        cmocka_unit_test(unreadable_file),
        cmocka_unit_test(not_a_paddle_tree),
        cmocka_unit_test(output_dir_missing),
        cmocka_unit_test(file_deleted_during_scan),
        cmocka_unit_test(tree_never_written),
    };
    return cmocka_run_group_tests_name("badinput", tests, NULL, NULL);
}
