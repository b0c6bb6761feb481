/*
 * fuzz_query.c — libFuzzer harness for tree-sitter queries as rules carry them: the input is
 * the text of a query (the "query" of a `kind: query` rule, same language as
 * queries/python/*.scm). It is wrapped into a one-rule pack, compiled by the Python frontend
 * (invalid queries must give a message, never a crash) and, when it compiles, evaluated with
 * sunset's own predicates over a Python file. An input whose first line is "@NAME" names the
 * capture to report. Seeds: testdata/fuzz/fuzz_query/.
 *
 * Speed: the Python frontend compiles the bundled facts query (queries/python/facts.scm, the
 * expensive part: ~6 KB of patterns) every time an engine is made, and an engine has to be
 * made per input because the rule pack is. The facts play no part in a `query` rule's
 * matches, so the harness points the engine at a queries directory of its own, made once,
 * whose facts.scm is empty: per input only the pack and the fuzzed query are compiled.
 */
#include <stdint.h>
#include <sys/stat.h>

#include <cjson/cJSON.h>

#include "fuzz_engine.h"

static const char py_sample[] =
    "import paddle.fluid as fluid\n"
    "from paddle.fluid import compiler\n"
    "class TestPE(unittest.TestCase):\n"
    "    def check(self, use_cuda, enable_sequential_execution=False, *args, **kw):\n"
    "        '''ParallelExecutor docstring'''\n"
    "        es = fluid.ExecutionStrategy()\n"
    "        es.num_threads = 4  # a comment\n"
    "        exe = fluid.ParallelExecutor(use_cuda, loss_name=loss.name, exec_strategy=es)\n"
    "        return [x for x in exe.run(fetch_list=[loss]) if x], lambda: f'{es!r}'\n";

#define PACK_HEAD "{\"schema\":1,\"settings\":{\"families\":[{\"id\":\"fz\",\"title\":\"fuzz\"}]},\"family\":\"fz\",\"rules\":[]}"

/* <queries_dir>/python/facts.scm, empty (see the top); removed at exit */
static char queries_dir[64], python_dir[96], facts_file[128];
static void cleanup(void) {
    unlink(facts_file);
    rmdir(python_dir);
    rmdir(queries_dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv) {
    snprintf(queries_dir, sizeof queries_dir, "/tmp/sunset-fuzz-query-XXXXXX");
    if (!mkdtemp(queries_dir)) {
        perror("fuzz: mkdtemp");
        exit(2);
    }
    snprintf(python_dir, sizeof python_dir, "%s/python", queries_dir);
    snprintf(facts_file, sizeof facts_file, "%s/facts.scm", python_dir);
    atexit(cleanup);
    if (mkdir(python_dir, 0700) != 0) {
        perror("fuzz: mkdir");
        exit(2);
    }
    fuzz_write(facts_file, (const uint8_t *)"", 0);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len) {
    char *text = fuzz_copy(data, len);
    char *query = text, *capture = NULL;
    if (text[0] == '@') {
        char *nl = strchr(text, '\n');
        if (nl) {
            *nl = 0;
            capture = text + 1;
            query = nl + 1;
        }
    }
    /* the pack is built with cJSON so that any query text is escaped correctly */
    cJSON *pack = cJSON_Parse(PACK_HEAD);
    cJSON *rule = cJSON_CreateObject(), *match = cJSON_CreateObject();
    cJSON *langs = cJSON_CreateArray(), *lits = cJSON_CreateArray();
    cJSON_AddItemToArray(langs, cJSON_CreateString("python"));
    cJSON_AddItemToArray(lits, cJSON_CreateString("ParallelExecutor"));
    cJSON_AddStringToObject(rule, "id", "FZ-QUERY");
    cJSON_AddNumberToObject(rule, "task", 1);
    cJSON_AddItemToObject(rule, "languages", langs);
    cJSON_AddStringToObject(rule, "severity", "error");
    cJSON_AddStringToObject(rule, "message", "m");
    cJSON_AddStringToObject(rule, "fix", "f");
    cJSON_AddItemToObject(rule, "literals", lits);
    cJSON_AddStringToObject(match, "kind", "query");
    cJSON_AddStringToObject(match, "query", query);
    if (capture) cJSON_AddStringToObject(match, "capture", capture);
    cJSON_AddItemToObject(rule, "match", match);
    cJSON_AddItemToArray(cJSON_GetObjectItem(pack, "rules"), rule);
    char *json = cJSON_PrintUnformatted(pack);
    cJSON_Delete(pack);
    if (!json) abort();

    long live = sunset_alloc_live();
    sunset_error err = {{0}};
    sunset_ruleset *rs = sunset_ruleset_load_string(json, "fuzz.json", queries_dir, &err);
    if (rs) {
        sunset_engine_opts eo = {SUNSET_ALL_FRONTENDS, .jobs = 1, .queries_dir = queries_dir, .no_prefilter = true,
                                 .parse_budget_ms = 10000};
        sunset_engine *e = sunset_engine_new(rs, &eo, &err);
        if (e) {
            fuzz_scan(e, "python/paddle/fluid/tests/unittests/test_pe.py", py_sample, sizeof py_sample - 1);
            sunset_engine_free(e);
        } else if (!err.msg[0]) {
            fprintf(stderr, "fuzz: the Python frontend refused a query without a message\n");
            abort();
        }
        sunset_ruleset_free(rs);
    }
    fuzz_check_live(live, "query compilation");
    cJSON_free(json);
    free(text);
    return 0;
}
