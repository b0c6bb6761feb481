/*
 * fuzz_rules.c — libFuzzer harness for the rule loader: the input is one rule pack (JSON, the
 * format of rules/SCHEMA.md). A pack that loads is compiled into an engine (the Python frontend
 * compiles its query rules) and run over a small C++, Python and CMake file, so whatever the
 * loader accepts must also be safe to scan with. Seeds: testdata/fuzz/fuzz_rules/.
 */
#include <stdint.h>

#include "fuzz_engine.h"

static const char cpp_sample[] =
    "#include \"paddle/fluid/framework/parallel_executor.h\"\n"
    "class FuseOpHandle : public details::OpHandleBase {};\n"
    "// ParallelExecutor is gone\n"
    "DEFINE_bool(enable_pe_launch_cinn, true, \"\");\n"
    "void f() { ParallelExecutor pe(places, \"loss\"); pe.Run(); FLAGS_pe_profile_fname = \"x\"; }\n";
static const char py_sample[] =
    "import paddle.fluid.core as core\n"
    "from paddle.fluid.compiler import ExecutionStrategy\n"
    "class T(unittest.TestCase):\n"
    "    def f(self, enable_sequential_execution=False):\n"
    "        \"\"\"Uses ParallelExecutor.\"\"\"\n"
    "        bs = BuildStrategy(); bs.fuse_all_reduce_ops = True\n"
    "        core.ParallelExecutor(places, exec_strategy=es, build_strategy=bs)\n";
static const char cmake_sample[] =
    "cc_library(parallel_executor SRCS parallel_executor.cc DEPS op_handle_base graph)\n"
    "py_test_modules(test_parallel_executor_mnist MODULES test_parallel_executor_mnist)\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len) {
    char *json = fuzz_copy(data, len);
    long live = sunset_alloc_live();
    sunset_error err = {{0}};
    sunset_ruleset *rs = sunset_ruleset_load_string(json, "fuzz.json", "queries", &err);
    if (rs) {
        sunset_engine_opts eo = {SUNSET_ALL_FRONTENDS, .jobs = 1, .queries_dir = "queries", .no_prefilter = true,
                                 .parse_budget_ms = 10000};
        sunset_engine *e = sunset_engine_new(rs, &eo, &err);
        if (e) {
            fuzz_scan(e, "paddle/fluid/framework/pe.cc", cpp_sample, sizeof cpp_sample - 1);
            fuzz_scan(e, "python/paddle/fluid/tests/test_pe.py", py_sample, sizeof py_sample - 1);
            fuzz_scan(e, "paddle/fluid/framework/CMakeLists.txt", cmake_sample, sizeof cmake_sample - 1);
            sunset_engine_free(e);
        }
        sunset_ruleset_free(rs);
    } else if (!err.msg[0]) {
        fprintf(stderr, "fuzz: the loader refused a pack without a message\n");
        abort();
    }
    fuzz_check_live(live, "rule loading");
    free(json);
    return 0;
}
