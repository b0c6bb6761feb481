/*
 * test_walk.c — the walker on real temporary trees: .gitignore (nested, negation, dir-only,
 * anchored), include/exclude globs, symlinks out of the tree and symlink loops, and the glob
 * matcher itself; the walks of a git work tree share one libgit2 initialisation.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <git2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <limits.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/cache.h"
#include "core/walk.h"

static char root[256];

static void put(const char *rel, const char *text) {
    char p[512];
    snprintf(p, sizeof p, "%s/%s", root, rel);
    for (char *s = p + strlen(root) + 1; (s = strchr(s, '/')); s++) {
        *s = 0;
        mkdir(p, 0755);
        *s = '/';
    }
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static int setup(void **state) {
    (void)state;
    snprintf(root, sizeof root, "/tmp/sunset-walk-XXXXXX");
    if (!mkdtemp(root)) return -1;
    char p[512];
    snprintf(p, sizeof p, "%s/.git", root);
    mkdir(p, 0755); /* makes it a work tree for the walker */
    put(".gitignore", "build/\n*.log\n/top_only.py\n!keep.log\n/*.tmp\n");
    put("a.py", "x");
    put("top_only.py", "x");
    put("sub/top_only.py", "x");
    put("debug.log", "x");
    put("keep.log", "x");
    put("build/gen.cc", "x");
    put("sub/.gitignore", "secret.txt\n*.bak\n");
    put("top.tmp", "x");
    put("sub/low.tmp", "x");
    put("sub/deeper/x.bak", "x");
    put("other/y.bak", "x");
    put("sub/secret.txt", "x");
    put("other/secret.txt", "x");
    put("third_party/lib.cc", "x");
    put("deep/x/y/z.cc", "x");
    char t[512];
    snprintf(p, sizeof p, "%s/loop", root);
    symlink(".", p);          /* a directory symlink: never followed */
    snprintf(p, sizeof p, "%s/outside.py", root);
    symlink("/etc/hostname", p); /* resolves outside the root: skipped */
    snprintf(p, sizeof p, "%s/inside.py", root);
    snprintf(t, sizeof t, "%s/a.py", root);
    symlink(t, p);            /* resolves inside: scanned */
    return 0;
}

static int teardown(void **state) {
    (void)state;
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    return system(cmd) == 0 ? 0 : -1;
}

static bool has(const vec *v, const char *s) {
    for (size_t i = 0; i < v->n; i++)
        if (strcmp(VEC_AT(v, char *, i), s) == 0) return true;
    return false;
}

static void free_list(vec *v) {
    for (size_t i = 0; i < v->n; i++) sunset_free(VEC_AT(v, char *, i));
    vec_free(v);
}

static void honours_gitignore(void **state) {
    (void)state;
    walk_opts o = {true, NULL, 0, NULL, 0, false, NULL, NULL};
    vec out = VEC_INIT(char *);
    walk_stats st = {0};
    assert_int_equal(walk_tree(root, "", &o, &out, &st, NULL, NULL), 0);
    assert_true(has(&out, "a.py"));
    assert_false(has(&out, "top_only.py"));    /* anchored */
    assert_true(has(&out, "sub/top_only.py")); /* anchored pattern does not apply below */
    assert_false(has(&out, "debug.log"));
    assert_true(has(&out, "keep.log"));        /* negation */
    assert_false(has(&out, "build/gen.cc"));   /* dir-only */
    assert_false(has(&out, "sub/secret.txt")); /* nested .gitignore */
    assert_true(has(&out, "other/secret.txt"));
    /* the quick shapes (a literal, `*` + literal) answer as the glob does */
    assert_false(has(&out, "top.tmp"));        /* anchored `/*.tmp` */
    assert_true(has(&out, "sub/low.tmp"));     /* ... whose star never crosses a '/' */
    assert_false(has(&out, "sub/deeper/x.bak")); /* a nested rule meets the last component */
    assert_true(has(&out, "other/y.bak"));     /* ... only below its own directory */
    assert_true(has(&out, "deep/x/y/z.cc"));
    assert_true(has(&out, "inside.py"));
    assert_false(has(&out, "outside.py"));
    for (size_t i = 0; i < out.n; i++) assert_null(strstr(VEC_AT(&out, char *, i), "loop/"));
    assert_true(st.symlinks_skipped >= 2);
    /* sorted order makes the list deterministic */
    for (size_t i = 1; i < out.n; i++)
        assert_true(strcmp(VEC_AT(&out, char *, i - 1), VEC_AT(&out, char *, i)) < 0 ||
                    strchr(VEC_AT(&out, char *, i - 1), '/'));
    free_list(&out);

    o.gitignore = false;
    out = VEC_INIT(char *);
    assert_int_equal(walk_tree(root, "", &o, &out, &st, NULL, NULL), 0);
    assert_true(has(&out, "debug.log"));
    assert_true(has(&out, "build/gen.cc"));
    free_list(&out);
}

static void include_exclude(void **state) {
    (void)state;
    const char *exc[] = {"third_party/", "*.log"};
    const char *inc[] = {"*.cc", "*.log"};
    walk_opts o = {true, inc, 2, exc, 2, false, NULL, NULL};
    vec out = VEC_INIT(char *);
    walk_stats st = {0};
    assert_int_equal(walk_tree(root, "", &o, &out, &st, NULL, NULL), 0);
    assert_true(has(&out, "deep/x/y/z.cc"));
    assert_false(has(&out, "third_party/lib.cc"));
    assert_false(has(&out, "keep.log"));
    assert_false(has(&out, "a.py"));
    free_list(&out);
}

static void start_below_root(void **state) {
    (void)state;
    walk_opts o = {true, NULL, 0, NULL, 0, false, NULL, NULL};
    vec out = VEC_INIT(char *);
    walk_stats st = {0};
    assert_int_equal(walk_tree(root, "sub", &o, &out, &st, NULL, NULL), 0);
    assert_true(has(&out, "sub/top_only.py"));
    assert_false(has(&out, "sub/secret.txt"));
    assert_false(has(&out, "a.py"));
    free_list(&out);
    assert_int_not_equal(walk_tree(root, "missing", &o, &out, &st, NULL, NULL), 0);
}

/* A directory whose CACHEDIR.TAG carries the signature is a cache, left out and counted as
 * ignored; a CACHEDIR.TAG with other content, or a directory named like one, is walked; the
 * walk's own start is walked whatever it holds. The tag is read only when a listing names
 * it (dir_open), so each case is decided by the listing and then the tag's content. */
static void cache_dirs_left_out(void **state) {
    (void)state;
    put("caches/tagged/CACHEDIR.TAG", SUNSET_CACHEDIR_SIGNATURE "\n");
    put("caches/tagged/t.py", "x");
    put("caches/tagged/deeper/u.py", "x");
    put("caches/fake/CACHEDIR.TAG", "not a cache\n");
    put("caches/fake/f.py", "x");
    put("caches/CACHEDIR.TAG.d/g.py", "x");
    put("caches/plain/h.py", "x");
    walk_opts o = {true, NULL, 0, NULL, 0, false, NULL, NULL};
    vec out = VEC_INIT(char *);
    walk_stats st = {0};
    assert_int_equal(walk_tree(root, "caches", &o, &out, &st, NULL, NULL), 0);
    assert_false(has(&out, "caches/tagged/t.py"));
    assert_false(has(&out, "caches/tagged/deeper/u.py"));
    assert_false(has(&out, "caches/tagged/CACHEDIR.TAG"));
    assert_true(has(&out, "caches/fake/f.py"));
    assert_true(has(&out, "caches/fake/CACHEDIR.TAG"));
    assert_true(has(&out, "caches/CACHEDIR.TAG.d/g.py"));
    assert_true(has(&out, "caches/plain/h.py"));
    assert_int_equal(st.ignored, 1);
    assert_int_equal(st.dirs, 4); /* caches, fake, CACHEDIR.TAG.d, plain: not the cache */
    free_list(&out);
    out = VEC_INIT(char *);
    walk_stats st2 = {0};
    assert_int_equal(walk_tree(root, "caches/tagged", &o, &out, &st2, NULL, NULL), 0);
    assert_true(has(&out, "caches/tagged/t.py"));
    assert_true(has(&out, "caches/tagged/deeper/u.py"));
    free_list(&out);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s/caches'", root);
    assert_int_equal(system(cmd), 0);
}

static void glob_cases(void **state) {
    (void)state;
    assert_true(sunset_glob_match("*.py", "a/b/c.py"));
    assert_false(sunset_glob_match("a/*.py", "a/b/c.py"));
    assert_true(sunset_glob_match("a/**/c.py", "a/b/c.py"));
    assert_true(sunset_glob_match("a/**/c.py", "a/c.py"));
    assert_true(sunset_glob_match("**/legacy_test/*", "test/legacy_test/x.py"));
    assert_true(sunset_glob_match("test_[a-c]*.py", "x/test_b1.py"));
    assert_false(sunset_glob_match("test_[!a-c]*.py", "x/test_b1.py"));
    assert_true(sunset_glob_match("/top.py", "top.py"));
    assert_false(sunset_glob_match("?.py", "ab.py"));
    assert_true(sunset_glob_match("PE-*", "PE-CPP-CLASS"));
    /* "**" + "/" matches no directory only where it starts */
    assert_true(sunset_glob_match("**/", "a/"));
    assert_false(sunset_glob_match("**/", "ab"));
    assert_true(sunset_glob_match("a/**/b/**", "a/b/c"));
    assert_false(sunset_glob_match("[a-", "[a-"));  /* malformed class: never matches */
    assert_true(sunset_glob_match("\\*x", "*x"));
    assert_false(sunset_glob_match("\\*x", "ax"));
}

/* The shapes answered without the automaton (walk.c glob_quick): a literal path, `*` +
 * literal, and a literal prefix before the first wildcard; each at its boundaries. */
static void glob_shortcuts(void **state) {
    (void)state;
    assert_true(sunset_glob_match("paddle/fluid/API.spec", "paddle/fluid/API.spec"));
    assert_false(sunset_glob_match("paddle/fluid/API.spec", "paddle/fluid/API.spec.bak"));
    assert_false(sunset_glob_match("paddle/fluid/API.spec", "paddle/fluid/API.spe"));
    assert_false(sunset_glob_match("paddle/fluid/API.spec", "x/paddle/fluid/API.spec"));
    assert_true(sunset_glob_match("*.pyc", "a/b.pyc"));
    assert_true(sunset_glob_match("*.pyc", ".pyc"));
    assert_false(sunset_glob_match("*.pyc", "a/b.pyc.txt"));
    assert_false(sunset_glob_match("*.pyc", "pyc"));
    assert_true(sunset_glob_match("*/x.h", "a/x.h"));
    assert_false(sunset_glob_match("*/x.h", "a/b/x.h")); /* the star stops at '/' */
    assert_false(sunset_glob_match("*/x.h", "x.h"));
    assert_true(sunset_glob_match("*", "abc"));
    assert_false(sunset_glob_match("a/*", "a/b/c"));
    assert_true(sunset_glob_match("paddle/phi/include/*", "paddle/phi/include/x.h"));
    assert_false(sunset_glob_match("paddle/phi/include/*", "paddle/phi/include/d/x.h"));
    assert_false(sunset_glob_match("paddle/phi/include/*", "paddle/phi/includes/x.h"));
    assert_true(sunset_glob_match("build_*", "build_doc"));
    assert_false(sunset_glob_match("build_*", "rebuild_doc"));
    assert_true(sunset_glob_match("paddle/fluid/operators/generated_op*.cc",
                                  "paddle/fluid/operators/generated_op1.cc"));
    assert_false(sunset_glob_match("paddle/fluid/operators/generated_op*.cc",
                                   "paddle/fluid/operators/generated_op1.h"));
    assert_true(sunset_glob_match("a/**/b", "a/b"));
    assert_true(sunset_glob_match("ab\\*", "ab*"));
    assert_false(sunset_glob_match("ab\\*", "abc"));
}

/* Stars against a long name: the recursive matcher took 51 s on this 14-character pattern
 * and a 100-character name (each further "*a" about 15 times longer); now it is one pass
 * over the name per pattern token. Correctness only here: timing is measured by hand. */
static void glob_many_stars(void **state) {
    (void)state;
    char name[101], longpat[401];
    memset(name, 'a', 100);
    name[100] = 0;
    assert_false(sunset_glob_match("*a*a*a*a*a*a*b", name));
    assert_false(sunset_glob_match("*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b", name));
    assert_true(sunset_glob_match("*a*a*a*a*a*a*a", name));
    name[99] = 'b';
    assert_true(sunset_glob_match("*a*a*a*a*a*a*b", name));
    assert_false(sunset_glob_match("**a**a**a**a**a**a**c", name));
    /* a pattern longer than the matcher's stack buffers */
    for (int i = 0; i < 200; i++) longpat[2 * i] = '*', longpat[2 * i + 1] = 'a';
    longpat[400] = 0;
    name[99] = 'a';
    assert_false(sunset_glob_match(longpat, name)); /* 200 a's wanted, 100 there */
    longpat[200] = 0;
    assert_true(sunset_glob_match(longpat, name));  /* 100 a's */
}

/* A committed `.gitignore -> /dev/stdin` (here: a symlink to a FIFO nobody writes) made
 * the walk block in open(2); so did a .gitignore that is itself a FIFO. The walk runs in a
 * child with an alarm, so a regression fails the test instead of hanging it. */
static void ignore_files_never_block(void **state) {
    (void)state;
    char dir[64], p[128], t[128];
    snprintf(dir, sizeof dir, "/tmp/sunset-walk-fifo-XXXXXX");
    assert_non_null(mkdtemp(dir));
    snprintf(p, sizeof p, "%s/.git", dir);
    assert_int_equal(mkdir(p, 0755), 0);
    snprintf(p, sizeof p, "%s/pipe", dir);
    assert_int_equal(mkfifo(p, 0644), 0);
    snprintf(p, sizeof p, "%s/.gitignore", dir);
    assert_int_equal(symlink("pipe", p), 0);
    snprintf(p, sizeof p, "%s/sub", dir);
    assert_int_equal(mkdir(p, 0755), 0);
    snprintf(p, sizeof p, "%s/sub/.gitignore", dir);
    assert_int_equal(mkfifo(p, 0644), 0);
    snprintf(p, sizeof p, "%s/sub/a.py", dir);
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    fclose(f);
    /* a symlinked .gitignore to a regular file is not followed either */
    snprintf(p, sizeof p, "%s/other", dir);
    assert_int_equal(mkdir(p, 0755), 0);
    snprintf(p, sizeof p, "%s/other/rules", dir);
    f = fopen(p, "w");
    assert_non_null(f);
    fputs("*.py\n", f);
    fclose(f);
    snprintf(p, sizeof p, "%s/other/.gitignore", dir);
    assert_int_equal(symlink("rules", p), 0);
    snprintf(p, sizeof p, "%s/other/b.py", dir);
    f = fopen(p, "w");
    assert_non_null(f);
    fclose(f);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        alarm(20);
        walk_opts o = {true, NULL, 0, NULL, 0, false, NULL, NULL};
        vec out = VEC_INIT(char *);
        walk_stats st = {0};
        int ok = walk_tree(dir, "", &o, &out, &st, NULL, NULL) == 0 && has(&out, "sub/a.py") &&
                 has(&out, "other/b.py");
        /* a configuration file that is a FIFO: refused at once, not read */
        char *text = NULL;
        size_t len = 0;
        snprintf(t, sizeof t, "%s/pipe", dir);
        ok = ok && read_file(t, 0, &text, &len) == EINVAL;
        _exit(ok ? 0 : 1);
    }
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
    assert_true(WIFEXITED(status)); /* not killed by the alarm */
    assert_int_equal(WEXITSTATUS(status), 0);
}

static size_t n_long_warnings;
static void count_long(void *ctx, const char *msg) {
    (void)ctx;
    size_t n = strlen(msg);
    const char *tail = ": warning: path too long, skipped";
    if (n > strlen(tail) && strcmp(msg + n - strlen(tail), tail) == 0 && strncmp(msg, "d/", 2) == 0)
        n_long_warnings++;
}

/* A subtree deeper than PATH_MAX was skipped without a word: now a warning names it and
 * the skip is counted (walk stats; the scan's "unreadable" count). The tree is built with
 * *at() calls relative to each level, as no absolute path can reach its bottom. */
static void too_deep_is_warned(void **state) {
    (void)state;
    char dir[64], name[201];
    snprintf(dir, sizeof dir, "/tmp/sunset-walk-deep-XXXXXX");
    assert_non_null(mkdtemp(dir));
    memset(name, 'd', 200);
    name[200] = 0;
    int fd = open(dir, O_RDONLY | O_DIRECTORY);
    assert_true(fd >= 0);
    assert_int_equal(mkdirat(fd, "d", 0755), 0);
    int next = openat(fd, "d", O_RDONLY | O_DIRECTORY);
    close(fd);
    fd = next;
    for (int i = 0; i < PATH_MAX / 200 + 2; i++) {
        assert_int_equal(mkdirat(fd, name, 0755), 0);
        next = openat(fd, name, O_RDONLY | O_DIRECTORY);
        assert_true(next >= 0);
        close(fd);
        fd = next;
    }
    int ffd = openat(fd, "deep.py", O_CREAT | O_WRONLY, 0644);
    assert_true(ffd >= 0);
    close(ffd);
    close(fd);
    char p[128];
    snprintf(p, sizeof p, "%s/top.py", dir);
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    fclose(f);

    walk_opts o = {true, NULL, 0, NULL, 0, false, NULL, NULL};
    vec out = VEC_INIT(char *);
    walk_stats st = {0};
    n_long_warnings = 0;
    assert_int_equal(walk_tree(dir, "", &o, &out, &st, count_long, NULL), 0);
    assert_true(has(&out, "top.py"));
    assert_int_equal(out.n, 1);
    assert_int_equal(st.too_long, 1); /* the first entry past PATH_MAX: its subtree with it */
    assert_int_equal(n_long_warnings, 1);
    free_list(&out);
    /* the binary prints the warning and counts the skip as unreadable */
    const char *bin = getenv("SUNSET_BIN");
    char cmd[512];
    snprintf(cmd, sizeof cmd,
             "%s scan --no-config --no-cache -f json %s 2>%s.err | grep -q '\"unreadable\":1,' && "
             "grep -q '^sunset: d/d*/.*: warning: path too long, skipped$' %s.err",
             bin ? bin : "build/sunset", dir, dir, dir);
    int rc = system(cmd);
    snprintf(cmd, sizeof cmd, "rm -rf '%s' '%s.err'", dir, dir);
    assert_int_equal(system(cmd), 0);
    assert_int_equal(rc, 0);
}

/* 5,000 nested directories, past PATH_MAX (one-letter names): the walk takes the files down to
 * where the path fits and reports the first directory past it, on a 256 KB stack, so it holds
 * no frame per level (the recursive walker died of SIGSEGV at ~1,800 levels). */
typedef struct deep_walk {
    const char *dir;
    vec out;
    walk_stats st;
    int rc;
} deep_walk;

static void *deep_walk_run(void *arg) {
    deep_walk *d = arg;
    walk_opts o = {true, NULL, 0, NULL, 0, false, NULL, NULL};
    d->rc = walk_tree(d->dir, "", &o, &d->out, &d->st, count_long, NULL);
    return NULL;
}

static void thousands_of_levels(void **state) {
    (void)state;
    char dir[64];
    snprintf(dir, sizeof dir, "/tmp/sunset-walk-levels-XXXXXX");
    assert_non_null(mkdtemp(dir));
    int fd = open(dir, O_RDONLY | O_DIRECTORY);
    assert_true(fd >= 0);
    for (int i = 0; i < 5000; i++) {
        if (i == 1000) {
            int ffd = openat(fd, "mid.py", O_CREAT | O_WRONLY, 0644);
            assert_true(ffd >= 0);
            close(ffd);
        }
        assert_int_equal(mkdirat(fd, "d", 0755), 0);
        int next = openat(fd, "d", O_RDONLY | O_DIRECTORY);
        assert_true(next >= 0);
        close(fd);
        fd = next;
    }
    close(fd);
    deep_walk d = {dir, VEC_INIT(char *), {0}, -1};
    pthread_attr_t at;
    pthread_t th;
    pthread_attr_init(&at);
    pthread_attr_setstacksize(&at, 256 << 10);
    n_long_warnings = 0;
    assert_int_equal(pthread_create(&th, &at, deep_walk_run, &d), 0);
    pthread_join(th, NULL);
    pthread_attr_destroy(&at);
    assert_int_equal(d.rc, 0);
    assert_int_equal(d.out.n, 1);
    char want[2100];
    size_t k = 0;
    for (int i = 0; i < 1000; i++) want[k++] = 'd', want[k++] = '/';
    snprintf(want + k, sizeof want - k, "mid.py");
    assert_true(has(&d.out, want));
    assert_int_equal(d.st.too_long, 1);
    assert_int_equal(n_long_warnings, 1);
    assert_true(d.st.dirs > 2000 - strlen(dir) / 2 - 2);
    free_list(&d.out);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

/* A real git work tree (the git CLI makes the index): tracked files matching .gitignore are
 * walked, as git and `git archive` see them; untracked ones stay ignored, also inside an
 * ignored directory entered for its tracked files; the same from a sub-directory root. */
static void tracked_files_beat_gitignore(void **state) {
    (void)state;
    char saved[256], cmd[1024];
    snprintf(saved, sizeof saved, "%s", root);
    snprintf(root, sizeof root, "/tmp/sunset-walkgit-XXXXXX");
    assert_non_null(mkdtemp(root));
    put(".gitignore", "build_*\n");
    put("details/build_strategy.cc", "x");
    put("details/build_tmp.cc", "x");
    put("build_dir/kept.cc", "x");
    put("build_dir/scratch.cc", "x");
    put("plain.cc", "x");
    snprintf(cmd, sizeof cmd,
             "cd '%s' && git init -q . && git add .gitignore plain.cc && "
             "git add -f details/build_strategy.cc build_dir/kept.cc",
             root);
    int rc = system(cmd);
    walk_opts o = {true, NULL, 0, NULL, 0, false, NULL, NULL};
    vec out = VEC_INIT(char *);
    walk_stats st = {0};
    int wrc = rc ? -1 : walk_tree(root, "", &o, &out, &st, NULL, NULL);
    bool top_ok = has(&out, "details/build_strategy.cc") && has(&out, "build_dir/kept.cc") &&
                  has(&out, "plain.cc") && !has(&out, "details/build_tmp.cc") &&
                  !has(&out, "build_dir/scratch.cc") && st.ignored == 2;
    free_list(&out);
    char sub[300];
    snprintf(sub, sizeof sub, "%s/details", root);
    out = VEC_INIT(char *);
    int src = rc ? -1 : walk_tree(sub, "", &o, &out, &st, NULL, NULL);
    bool sub_ok = has(&out, "build_strategy.cc") && !has(&out, "build_tmp.cc");
    free_list(&out);
    /* the walks read git's index through libgit2, initialised once for the process and kept
     * until exit (base/git.h): its count is then 1, 2 with this call. Each walk initialising
     * and shutting down again re-read the CA bundle every time. */
    int inits = git_libgit2_init();
    git_libgit2_shutdown();
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    assert_int_equal(system(cmd), 0);
    snprintf(root, sizeof root, "%s", saved);
    assert_int_equal(rc, 0);
    assert_int_equal(wrc, 0);
    assert_int_equal(src, 0);
    assert_true(top_ok);
    assert_true(sub_ok);
    assert_int_equal(inits, 2);
}

/* A command's walk is told where the work tree is (the checkout's top and tracked paths) and
 * finds none itself: the top's ignore files apply to a root below it, and a caller that
 * found no work tree (top NULL) gets no ignore rules, whatever .git the walk could probe. */
static void the_callers_work_tree_decides(void **state) {
    (void)state;
    put("sub/extra.log", "x");
    char sub[512];
    snprintf(sub, sizeof sub, "%s/sub", root);
    char real[PATH_MAX];
    assert_non_null(realpath(root, real));
    vec tracked = VEC_INIT(char *);
    walk_opts o = {true, NULL, 0, NULL, 0, false, &tracked, real};
    vec out = VEC_INIT(char *);
    walk_stats st = {0};
    assert_int_equal(walk_tree(sub, "", &o, &out, &st, NULL, NULL), 0);
    assert_false(has(&out, "extra.log"));  /* the top's *.log */
    assert_false(has(&out, "secret.txt")); /* sub's own .gitignore */
    assert_true(has(&out, "top_only.py")); /* /top_only.py is anchored at the top */
    free_list(&out);
    o.top = NULL;
    assert_int_equal(walk_tree(sub, "", &o, &out, &st, NULL, NULL), 0);
    assert_true(has(&out, "extra.log"));
    assert_true(has(&out, "secret.txt"));
    free_list(&out);
    snprintf(sub, sizeof sub, "%s/sub/extra.log", root);
    assert_int_equal(unlink(sub), 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(honours_gitignore),
        cmocka_unit_test(include_exclude),
        cmocka_unit_test(start_below_root),
        cmocka_unit_test(cache_dirs_left_out),
        cmocka_unit_test(glob_cases),
        cmocka_unit_test(glob_shortcuts),
        cmocka_unit_test(glob_many_stars),
        cmocka_unit_test(ignore_files_never_block),
        cmocka_unit_test(too_deep_is_warned),
        cmocka_unit_test(thousands_of_levels),
        cmocka_unit_test(tracked_files_beat_gitignore),
        cmocka_unit_test(the_callers_work_tree_decides),
    };
    return cmocka_run_group_tests_name("walk", tests, setup, teardown);
}
