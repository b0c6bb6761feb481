/*
 * fuzz_engine.h — shared set-up for the libFuzzer harnesses that go through the scan engine
 * (src/fuzz/fuzz_*.c): the bundled rules and queries loaded once, an engine that parses every
 * file (no prefilter, so a fuzzed input always reaches its frontend), and a per-input check
 * that sunset's own allocations (counted by the allocation hook) return to where they were.
 * Harnesses run from the repository root (`make fuzz` does that); header-only on purpose, each
 * harness is one translation unit.
 */
#ifndef SUNSET_FUZZ_ENGINE_H
#define SUNSET_FUZZ_ENGINE_H

#include <limits.h>
#include <stdio.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

#include "core/engine.h"
#include "lang/registry.h"
#include "report/report.h"
#include "cmd/documents.h"

/* libclang leaks its copy of the unsaved buffer when a parse fails (see testdata/clang/lsan.supp);
 * libLLVM has no frame pointers, so with the fast unwinder the leak's stack shows only the
 * library (or libstdc++'s operator new, which only libclang calls: sunset is C): suppress leaks
 * allocated there, nothing of sunset's own. tree-sitter 0.20.7's ts_query_new leaks a few bytes
 * on some invalid queries (found by fuzz_query; inside the library, nothing sunset could free):
 * leaks allocated inside libtree-sitter are suppressed too. sunset's own allocations are
 * checked exactly by fuzz_check_live() instead. */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void) {
    return "leak:llvm::MemoryBuffer::getMemBufferCopy\nleak:libclang-14.so\nleak:libLLVM-14.so\n"
           "leak:libstdc++.so\nleak:libtree-sitter.so\n";
}

typedef struct fuzz_engine {
    sunset_ruleset *rs;
    sunset_engine_opts eo;
    sunset_engine *eng;
} fuzz_engine;

/* Bundled rules, every frontend, no prefilter. Exits with a message when run elsewhere. */
static inline void fuzz_engine_open(fuzz_engine *f) {
    const char *dirs[] = {"rules"};
    sunset_error err = {{0}};
    f->rs = sunset_ruleset_load(dirs, 1, "queries", &err);
    if (!f->rs) {
        fprintf(stderr, "fuzz: %s (run from the repository root)\n", err.msg);
        exit(2);
    }
    f->eo = (sunset_engine_opts){SUNSET_ALL_FRONTENDS, .jobs = 1, .queries_dir = "queries", .no_prefilter = true,
                                 .parse_budget_ms = 10000};
    f->eng = sunset_engine_new(f->rs, &f->eo, &err);
    if (!f->eng) {
        fprintf(stderr, "fuzz: %s\n", err.msg);
        exit(2);
    }
}

/* A NUL-terminated copy of the input (frontends rely on data[len] == 0). */
static inline char *fuzz_copy(const uint8_t *data, size_t len) {
    char *s = malloc(len + 1);
    if (!s) abort();
    memcpy(s, data, len);
    s[len] = 0;
    return s;
}

/* Scan one in-memory file at `path` and drop the result. */
static inline void fuzz_scan(sunset_engine *e, const char *path, const char *data, size_t len) {
    sunset_result res = {0};
    sunset_engine_scan_buffer(e, path, data, len, &res);
    /* the report writers run on what the engine produced, as `sunset scan` would */
    const char *formats[] = {"json", "text"};
    for (size_t i = 0; i < 2; i++) {
        const sunset_writer *w = doc_format_find(CMD_SCAN, formats[i])->write.findings;
        sunset_envelope env = {.opts = {.color = i == 1, .summary = true, .snippets = true}};
        sb doc = {0};
        if (w) w->write(&res, &env, &doc);
        sb_free(&doc);
    }
    sunset_result_free(&res);
}

/* Abort (a libFuzzer crash) when sunset's live allocation count moved during one input. */
/* A private temporary directory (created once, removed at exit with the file named `name`
 * in it) and the path of that file, for harnesses whose input must be a file on disk. */
static char fuzz_tmp_dir[64], fuzz_tmp_file[128];
static void fuzz_tmp_cleanup(void) {
    unlink(fuzz_tmp_file);
    rmdir(fuzz_tmp_dir);
}
static inline const char *fuzz_tmp_path(const char *tag, const char *name) {
    snprintf(fuzz_tmp_dir, sizeof fuzz_tmp_dir, "/tmp/sunset-fuzz-%s-XXXXXX", tag);
    if (!mkdtemp(fuzz_tmp_dir)) {
        perror("fuzz: mkdtemp");
        exit(2);
    }
    snprintf(fuzz_tmp_file, sizeof fuzz_tmp_file, "%s/%s", fuzz_tmp_dir, name);
    atexit(fuzz_tmp_cleanup);
    return fuzz_tmp_file;
}
/* Write the input to `path` (aborts on failure: the harness's own directory). */
static inline void fuzz_write(const char *path, const uint8_t *data, size_t len) {
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(data, 1, len, f) != len || fclose(f) != 0) abort();
}

static inline void fuzz_check_live(long before, const char *what) {
    long now = sunset_alloc_live();
    if (now != before) {
        fprintf(stderr, "fuzz: %s leaked %ld sunset allocations\n", what, now - before);
        abort();
    }
}

/* The time limit fuzzed without the real clock, so that a replay is deterministic: after
 * fuzz_use_fake_clock(), fuzz_scan_with_stops scans the input twice, first with the clock
 * never up, counting how often the scan looks at it, then up at a read chosen from the
 * input's hash, so that the stops of the parse, the queries, the second passes and the flow
 * all run; each scan must free everything (what names it in the message). */
static long fuzz_clock_reads, fuzz_clock_up_at;
static double fuzz_fake_clock(void) { return fuzz_clock_reads++ >= fuzz_clock_up_at ? 3.6e6 : 0.0; }
static inline void fuzz_use_fake_clock(void) { sunset_set_clock(fuzz_fake_clock); }
static inline void fuzz_scan_with_stops(sunset_engine *e, const char *path, const char *src, size_t len,
                                        const char *what) {
    char msg[160];
    long live = sunset_alloc_live();
    fuzz_clock_reads = 0;
    fuzz_clock_up_at = LONG_MAX; /* never */
    fuzz_scan(e, path, src, len);
    fuzz_check_live(live, what);
    fuzz_clock_up_at = fuzz_clock_reads ? (long)(hash64(src, len, 0) % (uint64_t)fuzz_clock_reads) : 0;
    fuzz_clock_reads = 0;
    fuzz_scan(e, path, src, len);
    snprintf(msg, sizeof msg, "%s stopped by the time limit", what);
    fuzz_check_live(live, msg);
}

#endif
