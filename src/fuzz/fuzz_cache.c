/*
 * fuzz_cache.c — libFuzzer harness for content-cache reading: the input becomes the cache
 * file of a namespace (its header's namespace field is set to match, so entries are parsed),
 * the cache is opened, the entry named at the input's first key offset is replayed against
 * the bundled rules, and the cache is saved back and freed. A damaged entry must be
 * skipped, never trusted; nothing may leak.
 *
 * The seed is not committed: a cache names rules by id, so a committed one goes stale when a
 * rule is renamed. With FUZZ_CACHE_SEED_OUT=FILE set, the harness scans a few legacy snippets
 * with the current bundled rules, writes the cache they make to FILE and exits;
 * scripts/fuzz.sh does that before every run. Seeds: that file, and testdata/fuzz/fuzz_cache/.
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

/* Legacy code in three frontends' languages: the bundled rules find something in each. */
static const struct { const char *path, *text; } samples[] = {
    {"python/paddle/fluid/tests/unittests/test_pe.py",
     "import paddle.fluid as fluid\n"
     "from paddle.fluid import compiler\n"
     "class TestPE(unittest.TestCase):\n"
     "    def test_run(self):\n"
     "        es = fluid.ExecutionStrategy()  # sunset-ignore[NOPE]: reason\n"
     "        exe = fluid.ParallelExecutor(True, loss_name=loss.name, exec_strategy=es)\n"
     "        prog = compiler.CompiledProgram(main).with_data_parallel(loss_name='x')\n"},
    {"paddle/fluid/framework/CMakeLists.txt",
     "cc_library(parallel_executor SRCS parallel_executor.cc DEPS threaded_ssa_graph_executor)\n"
     "cc_test(test_pe SRCS pe_test.cc DEPS parallel_executor)\n"},
    {"paddle/fluid/framework/parallel_executor.cc",
     "#include \"paddle/fluid/framework/details/op_handle_base.h\"\n"
     "namespace paddle { namespace framework {\n"
     "class ParallelExecutorPrivate { details::ExecutionStrategy es_; };\n"
     "ParallelExecutor::ParallelExecutor() { BuildStrategy bs; bs.enable_sequential_execution_ = true; }\n"
     "}}\n"},
};

/* Write the cache the samples make with the current rules to `out` (see the top). */
static void write_seed(const char *out) {
    fuzz_engine F;
    fuzz_engine_open(&F);
    sunset_cache *c = sunset_cache_open(fuzz_tmp_dir, NS, F.rs, 1 << 20);
    if (!c) abort();
    size_t found = 0;
    for (size_t i = 0; i < sizeof samples / sizeof samples[0]; i++) {
        sunset_result r = {0};
        sunset_stats before = {0};
        size_t len = strlen(samples[i].text);
        sunset_engine_scan_buffer(F.eng, samples[i].path, samples[i].text, len, &r);
        found += r.n_findings;
        sunset_cache_store(c, sunset_cache_key(samples[i].path, samples[i].text, len), len,
                           sunset_cache_digest(samples[i].text, len), &r, 0, 0, &before);
        sunset_result_free(&r);
    }
    if (!found) {
        fprintf(stderr, "fuzz: the bundled rules find nothing in the cache samples: the seed would be empty\n");
        exit(2);
    }
    int e = sunset_cache_save(c);
    sunset_cache_free(c);
    char *text = NULL;
    size_t len = 0;
    if (e || (e = read_file(file, 0, &text, &len))) {
        fprintf(stderr, "fuzz: cannot write the cache seed: %s\n", strerror(e));
        exit(2);
    }
    fuzz_write(out, (const uint8_t *)text, len);
    sunset_free(text);
    sunset_engine_free(F.eng);
    sunset_ruleset_free(F.rs);
    fprintf(stderr, "fuzz: %s: %zu findings of %zu samples\n", out, found, sizeof samples / sizeof samples[0]);
    exit(0);
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv) {
    char name[32];
    snprintf(name, sizeof name, "%016llx.cache", (unsigned long long)NS);
    file = fuzz_tmp_path("cache", name);
    const char *seed_out = getenv("FUZZ_CACHE_SEED_OUT");
    if (seed_out && *seed_out) write_seed(seed_out);
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
    uint64_t ns = NS, key = 0, clen = 0, digest = 0;
    if (len >= 16) memcpy(copy + 8, &ns, 8);
    if (len >= 48) memcpy(copy + 40, &ns, 8); /* the first entry's own namespace */
    if (len >= 40) {
        memcpy(&key, copy + 16, 8);
        memcpy(&clen, copy + 24, 8);
        memcpy(&digest, copy + 32, 8);
    }
    fuzz_write(file, copy, len);
    free(copy);
    long live = sunset_alloc_live();
    sunset_cache *c = sunset_cache_open(fuzz_tmp_dir, NS, rules, 1 << 20);
    if (c) {
        sunset_result r = {0};
        if (sunset_cache_replay(c, key ? key : 1, (size_t)clen, digest, "a.py", &r)) {
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
