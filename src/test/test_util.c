/*
 * test_util.c — the atomic file writes: the umask decides a new file's mode, a replaced file
 * keeps its own, a write interrupted by SIGTERM leaves no temp behind (in a forked child,
 * and through the binary: `report --out-dir` keeps the previous set whole), and the cleanup
 * the signal handler runs; reading a file into a reused buffer (read_file_sb) whatever its
 * size and the buffer's, and a /proc file, whose size fstat gives as 0, to its end; sb_printf
 * appends that fill the buffer's room or overflow it by a byte.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/json.h"
#include "base/pcre.h"
#include "base/util.h"
#include "shell.h"

static void make_dir(char *dir) {
    strcpy(dir, "/tmp/sunset-util-XXXXXX");
    assert_non_null(mkdtemp(dir));
}

static void rm_dir(const char *dir) { assert_int_equal(test_sh("rm -rf '%s'", dir), 0); }

static unsigned mode_of(const char *path) {
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    return st.st_mode & 07777;
}

/* Entries of dir whose name holds ".tmp." */
static int temps_in(const char *dir) {
    DIR *d = opendir(dir);
    assert_non_null(d);
    int n = 0;
    for (struct dirent *e; (e = readdir(d));) n += strstr(e->d_name, ".tmp.") != NULL;
    closedir(d);
    return n;
}

static void umask_decides_new_mode(void **st) {
    (void)st;
    char dir[64], p[128];
    make_dir(dir);
    snprintf(p, sizeof p, "%s/new.json", dir);
    mode_t old = umask(077);
    assert_int_equal(write_file_atomic(p, "x\n", 2), 0);
    assert_int_equal(mode_of(p), 0600);
    umask(022);
    snprintf(p, sizeof p, "%s/pub.json", dir);
    assert_int_equal(write_file_atomic(p, "x\n", 2), 0);
    assert_int_equal(mode_of(p), 0644);
    umask(old);
    assert_int_equal(temps_in(dir), 0);
    rm_dir(dir);
}

static void replace_keeps_mode(void **st) {
    (void)st;
    char dir[64], p[128];
    make_dir(dir);
    snprintf(p, sizeof p, "%s/secret.json", dir);
    assert_int_equal(write_file_atomic(p, "a\n", 2), 0);
    assert_int_equal(chmod(p, 0600), 0);
    mode_t old = umask(022);
    assert_int_equal(write_file_atomic(p, "bb\n", 3), 0);
    assert_int_equal(mode_of(p), 0600);
    assert_int_equal(chmod(p, 0640), 0);
    assert_int_equal(write_file_atomic(p, "ccc\n", 4), 0);
    assert_int_equal(mode_of(p), 0640);
    umask(old);
    rm_dir(dir);
}

static void cleanup_unlinks_staged(void **st) {
    (void)st;
    char dir[64], p[128];
    make_dir(dir);
    snprintf(p, sizeof p, "%s/out.json", dir);
    char *tmp = NULL;
    assert_int_equal(write_file_stage(p, "x\n", 2, &tmp), 0);
    assert_non_null(tmp);
    assert_int_equal(temps_in(dir), 1);
    sunset_tmp_cleanup(); /* what the signal handler does */
    assert_int_equal(temps_in(dir), 0);
    write_file_abort(tmp); /* the temp is gone already: no error, no leak */
    assert_int_equal(access(p, F_OK), -1);
    /* staged then committed: the file, no temp */
    assert_int_equal(write_file_stage(p, "y\n", 2, &tmp), 0);
    assert_int_equal(write_file_commit(tmp, p), 0);
    assert_int_equal(temps_in(dir), 0);
    assert_int_equal(mode_of(p) & 0400, 0400);
    rm_dir(dir);
}

static void sigterm_mid_write(void **st) {
    (void)st;
    char dir[64], p[128];
    make_dir(dir);
    snprintf(p, sizeof p, "%s/out.json", dir);
    assert_int_equal(write_file_atomic(p, "old\n", 4), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        /* the hook sends SIGTERM once the temp exists; the handler must unlink it and the
         * process die of the signal */
        setenv("SUNSET_TEST_SIGNAL_IN_WRITE", "1", 1);
        write_file_atomic(p, "new\n", 4);
        _exit(0);
    }
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFSIGNALED(status));
    assert_int_equal(WTERMSIG(status), SIGTERM);
    assert_int_equal(temps_in(dir), 0);
    char *data = NULL;
    size_t len;
    assert_int_equal(read_file(p, 0, &data, &len), 0);
    assert_string_equal(data, "old\n");
    sunset_free(data);
    rm_dir(dir);
}

/* read_file_sb with one buffer, reused from a large file to small ones and back: every read
 * returns the file's bytes exactly (a whole file is one read, which must not stop early),
 * including sizes at the buffer's growth boundaries. */
static void read_into_reused_buffer(void **st) {
    (void)st;
    char dir[64];
    make_dir(dir);
    static const size_t sizes[] = {100000, 0, 1, 63, 64, 65, 127, 4095, 4096, 4097, 5, 200000, 100001};
    sb buf = {0};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        char p[128];
        snprintf(p, sizeof p, "%s/f%zu", dir, i);
        char *want = malloc(sizes[i] + 1);
        assert_non_null(want);
        for (size_t k = 0; k < sizes[i]; k++) want[k] = (char)('a' + (k * 7 + i) % 26);
        FILE *f = fopen(p, "wb");
        assert_non_null(f);
        assert_int_equal(fwrite(want, 1, sizes[i], f), sizes[i]);
        assert_int_equal(fclose(f), 0);
        assert_int_equal(read_file_sb(p, 0, &buf), 0);
        assert_int_equal(buf.len, sizes[i]);
        assert_memory_equal(buf.s, want, sizes[i]);
        assert_int_equal(buf.s[buf.len], 0);
        free(want);
    }
    assert_int_equal(read_file_sb(dir, 0, &buf), EISDIR);
    sb_free(&buf);
    rm_dir(dir);
}

/* A /proc file is regular with a size of 0, and its contents come a page or so per read:
 * read_file_sb reads it to the end, as read_file does. */
static void read_proc_file_to_end(void **st) {
    (void)st;
    const char *p = "/proc/self/smaps";
    char *whole = NULL;
    size_t n = 0;
    if (read_file(p, 0, &whole, &n) != 0) skip();
    sunset_free(whole);
    sb buf = {0};
    assert_int_equal(read_file_sb(p, 0, &buf), 0);
    assert_true(n > 8192);      /* more than a read or two: the case this is about */
    assert_true(buf.len > 8192);
    assert_non_null(strstr(buf.s, "[stack]")); /* the stack's mapping is listed after the binary's */
    sb_free(&buf);
}

/* `report --out-dir` killed while writing its third file: the three old files are intact and
 * no temp remains (before, tracking.md and tracking.json were already replaced). */
static void report_out_dir_interrupted(void **st) {
    (void)st;
    char dir[64];
    make_dir(dir);
    const char *bin = test_bin();
    assert_int_equal(test_sh("%s report --no-config --no-cache -q --out-dir %s/r "
                             "testdata/trees/small", bin, dir), 0);
    assert_int_equal(test_sh("printf 'old' > %s/r/tracking.md && cd %s/r && "
                             "cksum tracking.md tracking.json tracking.html > ../sum", dir, dir), 0);
    assert_int_equal(test_sh("SUNSET_TEST_SIGNAL_IN_WRITE=3 %s report --no-config --no-cache -q "
                             "--out-dir %s/r testdata/trees/small 2>/dev/null; [ $? -eq 143 ]", bin, dir), 0);
    char r[128];
    snprintf(r, sizeof r, "%s/r", dir);
    assert_int_equal(temps_in(r), 0);
    assert_int_equal(test_sh("cd %s/r && cksum tracking.md tracking.json tracking.html | "
                             "cmp -s - ../sum", dir), 0);
    /* uninterrupted, the set is replaced */
    assert_int_equal(test_sh("%s report --no-config --no-cache -q --out-dir %s/r "
                             "testdata/trees/small && ! grep -qx old %s/r/tracking.md", bin, dir, dir), 0);
    rm_dir(dir);
}

/* ---- cJSON and PCRE2 allocate through the hook ---- */

/* A failure injected into every allocation cJSON makes in turn: each parse either succeeds or
 * says out of memory (JSON_OOM, not a syntax error at some offset), and leaves nothing live. */
static void json_parse_fails_cleanly_inside_cjson(void **state) {
    (void)state;
    static const char doc[] = "{\"version\": 2, \"findings\": [{\"rule\": \"PE-X\", \"line\": 3}]}";
    long base = sunset_alloc_live();
    cJSON *whole = json_parse(doc, sizeof doc - 1, NULL);
    assert_non_null(whole);
    assert_true(sunset_alloc_live() > base); /* the document is the hook's */
    cJSON_Delete(whole);
    assert_int_equal(sunset_alloc_live(), base);
    int failures = 0;
    for (long n = 1; n < 100; n++) {
        size_t off = 0;
        sunset_alloc_fail_after(n);
        cJSON *d = json_parse(doc, sizeof doc - 1, &off);
        sunset_alloc_fail_after(0);
        if (d) {
            cJSON_Delete(d);
        } else {
            failures++;
            assert_true(off == JSON_OOM);
        }
        assert_int_equal(sunset_alloc_live(), base);
    }
    assert_true(failures >= 5); /* an object, an array, an object, keys and a string */
    /* a syntax error is still one, at its offset */
    size_t off = 0;
    assert_null(json_parse("{\"a\": }", 7, &off));
    assert_int_equal(off, 6);
}

/* The same inside PCRE2: a compile and a match data that run out of memory return NULL
 * (PCRE2_ERROR_HEAP_FAILED for the compile) and leave nothing live; what succeeds is freed
 * through the hook by PCRE2's own free functions. */
static void pcre2_fails_cleanly_inside_pcre2(void **state) {
    (void)state;
    static const char pat[] = "(?:ParallelExecutor|ExecutionStrategy)\\s*\\(([a-z_]+)\\)";
    long base = sunset_alloc_live();
    int ec;
    PCRE2_SIZE eo;
    int failures = 0, heap = 0;
    for (long n = 1; n < 20; n++) {
        sunset_alloc_fail_after(n);
        pcre2_code *re = sunset_re_compile(pat, PCRE2_ZERO_TERMINATED, 0, &ec, &eo);
        sunset_alloc_fail_after(0);
        if (!re) {
            failures++;
            heap += ec == PCRE2_ERROR_HEAP_FAILED;
            assert_int_equal(ec, PCRE2_ERROR_HEAP_FAILED);
        } else {
            assert_true(sunset_alloc_live() > base); /* the compiled pattern is the hook's */
            pcre2_match_data *md = sunset_re_match_data(4);
            assert_non_null(md);
            int rc = pcre2_match(re, (PCRE2_SPTR) "  ParallelExecutor (places)", PCRE2_ZERO_TERMINATED, 0, 0, md, NULL);
            assert_int_equal(rc, 2);
            pcre2_match_data_free(md);
            pcre2_code_free(re);
        }
        assert_int_equal(sunset_alloc_live(), base);
    }
    assert_true(failures >= 2 && heap == failures); /* the context, the compile's own memory */
    for (long n = 1; n < 4; n++) {
        sunset_alloc_fail_after(n);
        pcre2_match_data *md = sunset_re_match_data(4);
        sunset_alloc_fail_after(0);
        if (n == 1) assert_null(md); /* the first allocation is PCRE2's, and it failed */
        pcre2_match_data_free(md);
        assert_int_equal(sunset_alloc_live(), base);
    }
}

/* The leak check linked into every test program (leakcheck.c) fails a program that exits with
 * an allocation still live, whatever its tests said: a child that leaks one and exits 0 ends 1,
 * saying so on stderr; one that frees it ends 0. */
static int leaky_child(bool leak) {
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        dup2(fds[1], 2);
        void *p = sunset_malloc(16);
        if (!leak) sunset_free(p);
        exit(0); /* exit, not _exit: the leak check runs */
    }
    close(fds[1]);
    char buf[256] = "";
    ssize_t n = read(fds[0], buf, sizeof buf - 1);
    close(fds[0]);
    buf[n > 0 ? n : 0] = 0;
    int st = 0;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    assert_true(WIFEXITED(st));
    if (leak) assert_non_null(strstr(buf, "leakcheck: 1 allocation still live at exit"));
    else assert_string_equal(buf, "");
    return WEXITSTATUS(st);
}

static void leak_check_fails_a_leaking_program(void **state) {
    (void)state;
    assert_int_equal(sunset_alloc_live(), 0);
    assert_int_equal(leaky_child(true), 1);
    assert_int_equal(leaky_child(false), 0);
}

/* sb_printf formats into the room the buffer has and only then grows: an append that fills the
 * room to its last byte, one a byte too long for it, and one far too long come out whole, the
 * text before them kept and the buffer NUL-terminated. */
static void printf_at_the_room_edge(void **state) {
    (void)state;
    for (size_t fill = 1; fill < 70; fill++) {
        for (size_t extra = 0; extra < 3; extra++) {
            sb b = {0};
            assert_true(sb_puts(&b, "head:")); /* 64 bytes of room: 58 free with the NUL's */
            size_t n = b.cap - b.len - 2 + extra + fill - 1;
            char want[300];
            memset(want, 'x', n);
            want[n] = 0;
            assert_true(sb_printf(&b, "%s", want));
            assert_int_equal(b.len, 5 + n);
            assert_memory_equal(b.s, "head:", 5);
            assert_string_equal(b.s + 5, want);
            assert_true(sb_printf(&b, "%d|%s", 42, "t"));
            assert_int_equal(b.len, 5 + n + 4);
            assert_string_equal(b.s + 5 + n, "42|t");
            sb_free(&b);
        }
    }
    sb e = {0}; /* a first append, to a buffer with no room at all */
    assert_true(sb_printf(&e, "%s", ""));
    assert_non_null(e.s);
    assert_int_equal(e.len, 0);
    assert_string_equal(e.s, "");
    sb_free(&e);
}

static long rss_anon_kb(void) {
    FILE *f = fopen("/proc/self/status", "r");
    if (!f) return -1;
    char line[256];
    long kb = -1;
    while (kb < 0 && fgets(line, sizeof line, f)) sscanf(line, "RssAnon: %ld", &kb);
    fclose(f);
    return kb;
}

/* What a run freed but the allocator kept (holes below a live block) is handed back: main()
 * does this before exit(), where libLLVM's destructors fault its code back in on top. */
static void heap_trim_gives_freed_holes_back(void **state) {
    (void)state;
#if defined(__SANITIZE_ADDRESS__)
    skip(); /* ASan's allocator serves malloc: glibc's malloc_trim has nothing of it to give back */
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
    skip(); /* the same under clang's spelling */
#endif
#endif
    enum { N = 8192, SZ = 4000 }; /* 32 MB in blocks the heap serves, not mmap */
    char **v = malloc(N * sizeof *v);
    assert_non_null(v);
    for (size_t i = 0; i < N; i++) {
        v[i] = malloc(SZ);
        assert_non_null(v[i]);
        memset(v[i], 1, SZ);
    }
    for (size_t i = 0; i + 1 < N; i++) free(v[i]); /* the last one pins the heap's top */
    long held = rss_anon_kb();
    sunset_heap_trim();
    long after = rss_anon_kb();
    free(v[N - 1]);
    free(v);
    assert_true(held > 0 && after > 0);
    assert_true(held - after > 16 * 1024);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(leak_check_fails_a_leaking_program),
        cmocka_unit_test(json_parse_fails_cleanly_inside_cjson),
        cmocka_unit_test(pcre2_fails_cleanly_inside_pcre2),
        cmocka_unit_test(umask_decides_new_mode),
        cmocka_unit_test(replace_keeps_mode),
        cmocka_unit_test(cleanup_unlinks_staged),
        cmocka_unit_test(sigterm_mid_write),
        cmocka_unit_test(report_out_dir_interrupted),
        cmocka_unit_test(read_into_reused_buffer),
        cmocka_unit_test(read_proc_file_to_end),
        cmocka_unit_test(printf_at_the_room_edge),
        cmocka_unit_test(heap_trim_gives_freed_holes_back),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
