/*
 * fuzz_cache.c — libFuzzer harness for content-cache reading: the input becomes the cache
 * file of a namespace (its header's namespace field is set to match, so entries are parsed),
 * the cache is opened, the entry named at the input's first key offset is replayed against
 * the bundled rules, and the cache is saved back and freed. A damaged entry must be
 * skipped, never trusted; nothing may leak. Seeds: testdata/fuzz/fuzz_cache/.
 */
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "cache.h"
#include "fuzz_engine.h"
#include "rules_int.h"

#define NS 0x5eedcafe12345678ULL

static char dir[] = "/tmp/sunset-fuzz-cache-XXXXXX";
static char file[sizeof dir + 32];
static sunset_ruleset *rules;

static void cleanup(void) {
    unlink(file);
    rmdir(dir);
    sunset_ruleset_free(rules);
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv) {
    if (!mkdtemp(dir)) {
        perror("fuzz: mkdtemp");
        exit(2);
    }
    snprintf(file, sizeof file, "%s/%016llx.cache", dir, (unsigned long long)NS);
    const char *dirs[] = {"rules"};
    sunset_error err = {{0}};
    if (!(rules = sunset_ruleset_load(dirs, 1, "queries", &err))) {
        fprintf(stderr, "fuzz: %s (run from the repository root)\n", err.msg);
        exit(2);
    }
    atexit(cleanup);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len) {
    uint8_t *copy = malloc(len ? len : 1);
    if (!copy) abort();
    memcpy(copy, data, len);
    uint64_t ns = NS, key = 0, clen = 0;
    if (len >= 16) memcpy(copy + 8, &ns, 8);
    if (len >= 32) {
        memcpy(&key, copy + 16, 8);
        memcpy(&clen, copy + 24, 8);
    }
    FILE *f = fopen(file, "wb");
    if (!f || fwrite(copy, 1, len, f) != len || fclose(f) != 0) abort();
    free(copy);
    long live = sunset_alloc_live();
    sunset_cache *c = sunset_cache_open(dir, NS, rules, 1 << 20);
    if (c) {
        sunset_result r = {0};
        if (sunset_cache_replay(c, key ? key : 1, (size_t)clen, "a.py", &r)) {
            for (size_t i = 0; i < r.n_findings; i++)
                if (!r.findings[i].rule_id || !r.findings[i].path || !r.findings[i].matched) abort();
        }
        sunset_result_free(&r);
        if (sunset_cache_save(c) != 0) abort(); /* the directory is ours and writable */
        sunset_cache_free(c);
    }
    fuzz_check_live(live, "cache reading");
    return 0;
}
