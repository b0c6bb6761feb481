/*
 * fuzz_compdb.c — libFuzzer harness for compile_commands.json, read by the C/C++ frontend's
 * precise mode (-p DIR). The input is written as DIR/compile_commands.json in a private
 * temporary directory (every "@DIR@" in it replaced by that directory, so inputs can name the
 * sample file DIR/a.cc), the frontend is initialised with it and scans DIR/a.cc. A database it
 * cannot use must be refused with a message or fall back to fast mode, never crash. Linked
 * with the fact recorder (src/test/recorder.c) instead of the engine. Seeds:
 * testdata/fuzz/fuzz_compdb/.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>
#include <unistd.h>

#include "../test/recorder.h"
#include "lang/registry.h"
#include "base/util.h"

/* See fuzz_engine.h: libclang's own leaks are suppressed, sunset's are counted exactly. */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void) {
    return "leak:llvm::MemoryBuffer::getMemBufferCopy\nleak:libclang-14.so\nleak:libLLVM-14.so\n"
           "leak:libstdc++.so\n";
}

static char dir[] = "/tmp/sunset-fuzz-compdb-XXXXXX";
static char cwd[PATH_MAX];
static char db[sizeof dir + 32], src_path[sizeof dir + 16], hdr_path[sizeof dir + 16];

static const char code[] =
    "#include \"a.h\"\n"
    "#ifdef PADDLE_WITH_CUDA\nclass FusedOpHandle : public OpHandleBase {};\n#endif\n"
    "namespace paddle { void f() { ParallelExecutor pe; pe.Run(); } }\n";

static void cleanup(void) {
    unlink(db);
    unlink(src_path);
    unlink(hdr_path);
    rmdir(dir);
}

static void write_or_die(const char *path, const char *data, size_t len) {
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(data, 1, len, f) != len || fclose(f) != 0) {
        perror(path);
        abort();
    }
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv) {
    if (!mkdtemp(dir) || !getcwd(cwd, sizeof cwd)) {
        perror("fuzz: mkdtemp");
        exit(2);
    }
    snprintf(db, sizeof db, "%s/compile_commands.json", dir);
    snprintf(src_path, sizeof src_path, "%s/a.cc", dir);
    snprintf(hdr_path, sizeof hdr_path, "%s/a.h", dir);
    write_or_die(src_path, code, sizeof code - 1);
    write_or_die(hdr_path, "class OpHandleBase {}; class ParallelExecutor { public: void Run(); };\n", 71);
    atexit(cleanup);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len) {
    sb json = {0};
    for (size_t i = 0; i < len; i++) {
        if (i + 5 <= len && memcmp(data + i, "@DIR@", 5) == 0) {
            sb_puts(&json, dir);
            i += 4;
        } else {
            sb_putc(&json, (char)data[i]);
        }
    }
    write_or_die(db, json.s ? json.s : "", json.len);
    sb_free(&json);

    long live = sunset_alloc_live();
    sunset_frontend_config cfg = {.compile_db_dir = dir, .root = dir, .parse_budget_ms = 10000};
    sunset_error err = {{0}};
    void *state = NULL;
    if (sunset_frontend_clang.init(&cfg, &state, &err) != 0) {
        if (!err.msg[0]) {
            fprintf(stderr, "fuzz: the clang frontend refused a database without a message\n");
            abort();
        }
    } else {
        void *w = sunset_frontend_clang.worker_new(state);
        if (w) {
            sunset_sink sink = {0};
            sunset_source src = {"a.cc", src_path, code, sizeof code - 1, SUNSET_LANG_CPP};
            sunset_frontend_clang.scan(w, &src, &sink);
            rec_reset(&sink);
            sunset_frontend_clang.worker_free(w);
        }
        sunset_frontend_clang.fini(state);
    }
    /* libclang must not move the process: every relative path sunset holds would break */
    char cwd_now[PATH_MAX];
    if (!getcwd(cwd_now, sizeof cwd_now) || strcmp(cwd_now, cwd) != 0) {
        fprintf(stderr, "fuzz: the working directory changed to %s\n", cwd_now);
        abort();
    }
    long now = sunset_alloc_live();
    if (now != live) {
        fprintf(stderr, "fuzz: the clang frontend leaked %ld sunset allocations\n", now - live);
        abort();
    }
    return 0;
}
