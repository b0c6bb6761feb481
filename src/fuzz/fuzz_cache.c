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

#include "core/cache.h"
#include "fuzz_engine.h"
#include "core/rules_int.h"

#define NS 0x5eedcafe12345678ULL

static const char *file;
static sunset_ruleset *rules;

static void cleanup(void) { sunset_ruleset_free(rules); }

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv) {
    char name[32];
    snprintf(name, sizeof name, "%016llx.cache", (unsigned long long)NS);
    file = fuzz_tmp_path("cache", name);
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
    fuzz_write(file, copy, len);
    free(copy);
    long live = sunset_alloc_live();
    sunset_cache *c = sunset_cache_open(fuzz_tmp_dir, NS, rules, 1 << 20);
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
