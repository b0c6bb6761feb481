/*
 * fuzz_walk.c — libFuzzer harness for the walker and its glob matcher (src/core/walk.c). A small
 * git work tree is made once in a private temporary directory; each input is up to three
 * sections separated by lines "--": the root .gitignore, the .gitignore of python/, and glob
 * lines ("+GLOB" an include, "-GLOB" an exclude, any other line only matched against the
 * tree's paths). The tree is walked with those rules; every path walked must be one of the
 * tree's files, and sunset_glob_match must agree with fnmatch(FNM_PATHNAME) on the patterns
 * both define the same way (plain characters, '*', '?', no "**", classes or escapes).
 * Patterns with more than MAX_STARS '*' are dropped: sunset's matcher is linear in them
 * (src/core/walk.c), but the reference, glibc's fnmatch, backtracks and is exponential; the
 * limit keeps every input fast.
 * Seeds: testdata/fuzz/fuzz_walk/.
 */
#include <ctype.h>
#include <fnmatch.h>
#include <stdint.h>
#include <sys/stat.h>

#include "fuzz_engine.h"
#include "core/walk.h"

#define MAX_STARS 6
#define MAX_GLOBS 32
#define WALK_MAX_INPUT 4096

static const char *const tree[] = {
    "a.py", "b.cc", "build/x.o", "build/gen/y.py", "doc/design.md",
    "python/paddle/fluid/compiler.py", "python/paddle/fluid/tests/test_pe.py",
    "python/paddle/fluid/tests/data.txt", "python/setup.py.in", "tools/check_api.sh",
};
#define N_TREE (sizeof tree / sizeof tree[0])

static char root[96], ign_root[128], ign_py[128];

static void mkdirs(const char *path) {
    char buf[256];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *p = buf + 1; *p; p++) {
        if (*p != '/') continue;
        *p = 0;
        mkdir(buf, 0700);
        *p = '/';
    }
    mkdir(buf, 0700);
}

static void remove_tree(void) {
    char buf[256];
    for (size_t i = 0; i < N_TREE; i++) {
        snprintf(buf, sizeof buf, "%s/%s", root, tree[i]);
        unlink(buf);
    }
    unlink(ign_root);
    unlink(ign_py);
    const char *dirs[] = {"build/gen", "build", "doc", "python/paddle/fluid/tests", "python/paddle/fluid",
                          "python/paddle", "python", "tools", ".git", ""};
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
        snprintf(buf, sizeof buf, "%s/%s", root, dirs[i]);
        rmdir(buf);
    }
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv) {
    snprintf(root, sizeof root, "/tmp/sunset-fuzz-walk-XXXXXX");
    if (!mkdtemp(root)) {
        perror("fuzz: mkdtemp");
        exit(2);
    }
    char buf[256];
    snprintf(buf, sizeof buf, "%s/.git", root);
    mkdirs(buf);
    for (size_t i = 0; i < N_TREE; i++) {
        snprintf(buf, sizeof buf, "%s/%s", root, tree[i]);
        char *slash = strrchr(buf, '/');
        *slash = 0;
        mkdirs(buf);
        *slash = '/';
        fuzz_write(buf, (const uint8_t *)"x\n", 2);
    }
    snprintf(ign_root, sizeof ign_root, "%s/.gitignore", root);
    snprintf(ign_py, sizeof ign_py, "%s/python/.gitignore", root);
    atexit(remove_tree);
    return 0;
}

static size_t stars(const char *s, size_t n) {
    size_t k = 0;
    for (size_t i = 0; i < n; i++) k += s[i] == '*';
    return k;
}

/* Copy the lines of [p, e) with at most MAX_STARS '*' to `path`. */
static void write_ignore(const char *path, const char *p, const char *e) {
    sb out = {0};
    while (p < e) {
        const char *nl = memchr(p, '\n', (size_t)(e - p));
        if (!nl) nl = e;
        if (stars(p, (size_t)(nl - p)) <= MAX_STARS) {
            sb_putn(&out, p, (size_t)(nl - p));
            sb_putn(&out, "\n", 1);
        }
        p = nl + 1;
    }
    fuzz_write(path, (const uint8_t *)(out.s ? out.s : ""), out.len);
    sb_free(&out);
}

/* fnmatch defines the same thing as the gitignore matcher for these patterns */
static bool plain_pattern(const char *g) {
    if (!*g || *g == '/' || g[strlen(g) - 1] == '/' || strstr(g, "**")) return false;
    for (const char *p = g; *p; p++)
        if (!(isalnum((unsigned char)*p) || strchr("._-*?/", *p))) return false;
    return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len) {
    if (len > WALK_MAX_INPUT) return 0;
    char *text = fuzz_copy(data, len);
    /* sections */
    const char *sec[3] = {text, text + len, text + len}, *sec_end[3] = {text + len, text + len, text + len};
    int ns = 1;
    for (char *p = text; ns < 3 && (p = strstr(p, "\n--\n")); p += 4) {
        sec_end[ns - 1] = p + 1;
        sec[ns++] = p + 4;
    }
    write_ignore(ign_root, sec[0], sec_end[0]);
    write_ignore(ign_py, sec[1], sec_end[1]);
    const char *inc[MAX_GLOBS], *exc[MAX_GLOBS], *all[MAX_GLOBS];
    size_t ni = 0, ne = 0, na = 0;
    for (char *p = (char *)sec[2]; p < sec_end[2] && na < MAX_GLOBS;) {
        char *nl = memchr(p, '\n', (size_t)(sec_end[2] - p));
        if (!nl) nl = (char *)sec_end[2];
        *nl = 0;
        if (stars(p, strlen(p)) <= MAX_STARS) {
            if (*p == '+') inc[ni++] = p + 1;
            else if (*p == '-') exc[ne++] = p + 1;
            all[na++] = *p == '+' || *p == '-' ? p + 1 : p;
        }
        p = nl + 1;
    }

    long live = sunset_alloc_live();
    walk_opts o = {.gitignore = true, .include = inc, .n_include = ni, .exclude = exc, .n_exclude = ne};
    vec out = VEC_INIT(char *);
    walk_stats st = {0};
    if (walk_tree(root, "", &o, &out, &st, NULL, NULL) != 0) abort(); /* the root is ours */
    for (size_t i = 0; i < out.n; i++) {
        const char *rel = VEC_AT(&out, char *, i);
        bool known = false;
        for (size_t t = 0; t < N_TREE && !known; t++) known = strcmp(rel, tree[t]) == 0;
        if (!known && strcmp(rel, ".gitignore") != 0 && strcmp(rel, "python/.gitignore") != 0) {
            fprintf(stderr, "fuzz: the walk returned \"%s\", not a file of the tree\n", rel);
            abort();
        }
        sunset_free(VEC_AT(&out, char *, i));
    }
    vec_free(&out);
    for (size_t g = 0; g < na; g++) {
        for (size_t t = 0; t < N_TREE; t++) {
            bool m = sunset_glob_match(all[g], tree[t]);
            if (!plain_pattern(all[g])) continue;
            const char *subject = tree[t];
            if (!strchr(all[g], '/') && strrchr(subject, '/')) subject = strrchr(subject, '/') + 1;
            bool want = fnmatch(all[g], subject, FNM_PATHNAME) == 0;
            if (m != want) {
                fprintf(stderr, "fuzz: glob \"%s\" on \"%s\": %d, fnmatch says %d\n", all[g], tree[t], m, want);
                abort();
            }
        }
    }
    fuzz_check_live(live, "the walk");
    free(text);
    return 0;
}
