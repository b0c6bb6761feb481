/*
 * test_flow.c — legacy-object flow (src/core/flow.c): its cost, counted in steps of work
 * (flow_file_work), stays near-linear on generated files where it used to be cubic; the
 * deterministic work limit and the time limit (through the fake clock, test/fakeclock.h)
 * cut a file short with a warning that says which; a result cut by the clock is not cached;
 * re-bindings end a mark only where they end every marked binding; a container's elements
 * only add until the container is re-bound; a tuple's elements go by position; a legacy
 * object a module binds is followed into the modules importing it (core/xflow.c), and a warm
 * run follows an edit of the exporter into its importers' findings; an uncached scan skips only
 * the second scans that could not change a finding.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/checkout.h"
#include "core/cache.h"
#include "core/engine.h"
#include "lang/registry.h"
#include "core/flow.h"
#include "core/xflow.h"
#include "test/fakeclock.h"
#include "test/flowpack.h"

typedef struct fixture {
    sunset_ruleset *rs;
    vec flow_rules; /* of sunset_rule *: PE-USE */
} fixture;

static int setup(void **state) {
    fixture *f = calloc(1, sizeof *f);
    sunset_error err = {{0}};
    f->rs = sunset_ruleset_load_string(flow_pack, "flow.json", "queries", &err);
    if (!f->rs) {
        fprintf(stderr, "%s\n", err.msg);
        return -1;
    }
    f->flow_rules = f->rs->flow_rules[SUNSET_LANG_PYTHON];
    *state = f;
    return 0;
}

static int teardown(void **state) {
    fixture *f = *state;
    sunset_ruleset_free(f->rs);
    free(f);
    fake_clock_stop();
    flow_set_work_limit(0);
    return 0;
}

/* ---- facts made by hand, as the Python frontend emits them ---- */

static void bind(flow_file *ff, const char *target, const char *value, uint32_t line,
                 uint32_t col, bool ret) {
    uint32_t vcol = col + (ret ? 7 : (uint32_t)strlen(target) + 3);
    sunset_fact f = {.kind = SUNSET_FACT_BIND, .ctx = SUNSET_CTX_CODE,
                     .span = {line, vcol, line, vcol + (uint32_t)strlen(value)},
                     .flags = ret ? SUNSET_FACT_RETURN : 0u,
                     .text = target, .text_len = strlen(target),
                     .aux = value, .aux_len = strlen(value),
                     .stmt = {line, col, line, vcol + (uint32_t)strlen(value)}};
    flow_fact(ff, &f);
}

static void use(flow_file *ff, const char *obj, const char *name, uint32_t line, uint32_t col) {
    uint32_t at = col + (uint32_t)strlen(obj) + 1;
    sunset_fact f = {.kind = SUNSET_FACT_ATTR, .ctx = SUNSET_CTX_CODE,
                     .span = {line, at, line, at + (uint32_t)strlen(name)},
                     .text = name, .text_len = strlen(name), .aux = obj, .aux_len = strlen(obj),
                     .stmt = {line, col, line, at + 8}};
    flow_fact(ff, &f);
}

/* A BIND fact with flags (ELEM: element `elem` of a tuple). */
static void bindf(flow_file *ff, const char *target, const char *value, uint32_t line,
                  unsigned flags, int elem) {
    char sec[8];
    uint32_t vcol = 5 + (uint32_t)strlen(target) + 3;
    sunset_fact f = {.kind = SUNSET_FACT_BIND, .ctx = SUNSET_CTX_CODE,
                     .span = {line, vcol, line, vcol + (uint32_t)strlen(value)}, .flags = flags,
                     .text = target, .text_len = strlen(target),
                     .aux = value, .aux_len = strlen(value),
                     .stmt = {line, 5, line, vcol + (uint32_t)strlen(value)}};
    if (elem >= 0) f.section = sec, f.section_len = (size_t)snprintf(sec, sizeof sec, "%d", elem);
    flow_fact(ff, &f);
}

static void pe_seed(flow_file *ff, const fixture *f, uint32_t line, uint32_t col) {
    flow_seed(ff, sunset_ruleset_find(f->rs, "PE-IDENT"), SUNSET_CTX_CODE,
              (sunset_span){line, col, line, col + 16}, "ParallelExecutor", 16);
}

static size_t n_reports;
static void count_report(void *ud, const sunset_rule *r, sunset_context ctx, sunset_span span,
                         sunset_span stmt, const char *text, size_t len) {
    (void)ud, (void)r, (void)ctx, (void)span, (void)stmt, (void)text, (void)len;
    n_reports++;
}

/* A chain of n functions, each returning the next one's result (`prog_i = build_{i+1}(p)`,
 * `return prog_i`), the last building the executor, and a caller using it: the mark has to
 * travel back through every function. Returns the facts fed (binds, uses and scopes). */
static size_t return_chain(flow_file *ff, const fixture *f, int n) {
    const sunset_rule *seed = sunset_ruleset_find(f->rs, "PE-IDENT");
    char name[32], value[48], target[32];
    uint32_t line = 3;
    size_t facts = 0;
    for (int i = 0; i <= n; i++, line += 4, facts += 3) {
        snprintf(name, sizeof name, "build_%d", i);
        flow_scope(ff, "function", name, line, line + 2);
        if (i == n) {
            bind(ff, "", "fluid.ParallelExecutor(use_cuda=True)", line + 1, 5, true);
            flow_seed(ff, seed, SUNSET_CTX_CODE,
                      (sunset_span){line + 1, 18, line + 1, 34}, "ParallelExecutor", 16);
            continue;
        }
        snprintf(target, sizeof target, "prog_%d", i);
        snprintf(value, sizeof value, "build_%d(places)", i + 1);
        bind(ff, target, value, line + 1, 5, false);
        bind(ff, "", target, line + 2, 5, true);
    }
    flow_scope(ff, "function", "train", line, line + 2);
    bind(ff, "exe", "build_0(places)", line + 1, 5, false);
    use(ff, "exe", "run", line + 2, 5);
    return facts + 3;
}

/* The 204 KB form of this chain (2,700 functions) took 84 s, cubic in the functions: a
 * round over every binding and scope per function marked. Now each binding is marked once
 * and spreads once; the steps stay a small multiple of the facts, whatever n. */
static void return_chain_is_near_linear(void **state) {
    fixture *f = *state;
    const int sizes[] = {100, 3000};
    double per_fact[2];
    for (int k = 0; k < 2; k++) {
        flow_file *ff = flow_file_new();
        assert_non_null(ff);
        size_t facts = return_chain(ff, f, sizes[k]);
        n_reports = 0;
        assert_int_equal(flow_finish(ff, &f->flow_rules, NULL, NULL, count_report, NULL), FLOW_DONE);
        /* every `return prog_i` hands the object on, and `exe.run` uses it */
        assert_int_equal(n_reports, (size_t)sizes[k] + 1);
        per_fact[k] = (double)flow_file_work(ff) / (double)facts;
        flow_file_free(ff);
    }
    assert_true(per_fact[1] < 32);
    assert_true(per_fact[1] < 2 * per_fact[0]); /* 30 times the facts, not 900 times the steps */
}

/* `x = PE()`, then n re-bindings `x = x`, then `x.run()`: each re-binding is looked up in
 * those before it, quadratic; the work limit cuts it at the same step on every run. */
static flow_file *rebinds(const fixture *f, int n) {
    flow_file *ff = flow_file_new();
    assert_non_null(ff);
    flow_scope(ff, "function", "f", 1, (uint32_t)n + 3);
    bind(ff, "x", "fluid.ParallelExecutor()", 2, 5, false);
    flow_seed(ff, sunset_ruleset_find(f->rs, "PE-IDENT"), SUNSET_CTX_CODE,
              (sunset_span){2, 15, 2, 31}, "ParallelExecutor", 16);
    for (int i = 0; i < n; i++) bind(ff, "x", "x", (uint32_t)i + 3, 5, false);
    use(ff, "x", "run", (uint32_t)n + 3, 5);
    return ff;
}

static void work_limit_is_deterministic(void **state) {
    fixture *f = *state;
    flow_file *ff = rebinds(f, 400);
    n_reports = 0;
    assert_int_equal(flow_finish(ff, &f->flow_rules, NULL, NULL, count_report, NULL), FLOW_DONE);
    assert_int_equal(n_reports, 1); /* x is still the executor: `x = x` keeps the mark */
    uint64_t all = flow_file_work(ff);
    assert_true(all > 400 * 400 / 2);
    flow_file_free(ff);
    flow_limits lim = {all / 2, 0};
    for (int run = 0; run < 2; run++) {
        ff = rebinds(f, 400);
        n_reports = 0;
        assert_int_equal(flow_finish(ff, &f->flow_rules, NULL, &lim, count_report, NULL),
                         FLOW_WORK_LIMIT);
        assert_int_equal(flow_file_work(ff), all / 2 + 1);
        assert_int_equal(n_reports, 0);
        flow_file_free(ff);
    }
}

/* The time limit, last guard: read at the start and every few thousand steps; with no
 * budget the clock is never read. */
static void time_limit_is_the_last_guard(void **state) {
    fixture *f = *state;
    flow_limits lim = {0, 1000};
    fake_clock_start(1, 0); /* up at the first check */
    flow_file *ff = rebinds(f, 400);
    assert_int_equal(flow_finish(ff, &f->flow_rules, NULL, &lim, count_report, NULL),
                     FLOW_TIME_LIMIT);
    assert_int_equal(fake_clock_reads(), 2);
    flow_file_free(ff);
    fake_clock_start(-1, 0);
    ff = rebinds(f, 400);
    assert_int_equal(flow_finish(ff, &f->flow_rules, NULL, &lim, count_report, NULL), FLOW_DONE);
    assert_true(fake_clock_reads() > 1 + (long)(flow_file_work(ff) / 8192));
    flow_file_free(ff);
    fake_clock_start(1, 0);
    lim.budget_ms = 0;
    ff = rebinds(f, 400);
    assert_int_equal(flow_finish(ff, &f->flow_rules, NULL, &lim, count_report, NULL), FLOW_DONE);
    assert_int_equal(fake_clock_reads(), 0);
    flow_file_free(ff);
    fake_clock_stop();
}

/* ---- through the engine and the Python frontend ---- */

static sunset_engine *engine(fixture *f, sunset_engine_opts *o) {
    sunset_error err = {{0}};
    sunset_engine *e = sunset_engine_new(f->rs, o, &err);
    if (!e) fprintf(stderr, "%s\n", err.msg);
    assert_non_null(e);
    return e;
}

static size_t count_rule(const sunset_result *r, const char *rule) {
    size_t n = 0;
    for (size_t i = 0; i < r->n_findings; i++) n += !strcmp(r->findings[i].rule_id, rule);
    return n;
}

static const char *warning_with(const sunset_result *r, const char *needle) {
    for (size_t i = 0; i < r->n_warnings; i++)
        if (strstr(r->warnings[i], needle)) return r->warnings[i];
    return NULL;
}

/* A marked binding at a shallower depth outlives a re-binding that ends a deeper one: after
 * the `if`, x may still be the first executor (this was missed). A re-binding at the first
 * one's depth ends them all; `x = x` ends nothing (it ended the mark). */
static void rebinding_ends_only_what_it_can(void **state) {
    fixture *f = *state;
    sunset_engine_opts o = {SUNSET_ALL_FRONTENDS, .jobs = 1, .queries_dir = "queries"};
    sunset_engine *e = engine(f, &o);
    static const char *code[] = {
        "def f(a):\n    x = fluid.ParallelExecutor(a)\n    if a:\n"
        "        x = fluid.ParallelExecutor(a)\n        x = other\n    x.run()\n",
        "def f(a):\n    x = fluid.ParallelExecutor(a)\n    if a:\n"
        "        x = fluid.ParallelExecutor(a)\n    x = other\n    x.run()\n",
        /* the re-binding's value is read before its target is bound: still the executor */
        "def f(a):\n    x = fluid.ParallelExecutor(a)\n    x = x\n    x.run()\n",
    };
    for (int k = 0; k < 3; k++) {
        sunset_result r = {0};
        assert_int_equal(sunset_engine_scan_buffer(e, "t.py", code[k], strlen(code[k]), &r), 0);
        assert_int_equal(count_rule(&r, "PE-IDENT"), k == 2 ? 1 : 2);
        assert_int_equal(count_rule(&r, "PE-USE"), k == 1 ? 0 : 1);
        sunset_result_free(&r);
    }
    sunset_engine_free(e);
}

/* A parameter is bound by the calls of its function in the module: by position (a method's
 * `self` takes none from `obj.m(x)`), by keyword, and a class's `__init__` by the class's
 * call, so `self.exe = exe` there reaches the other methods. A function defined in a part of
 * the file the frontend left out (no rule matches there) is scanned after all: the call
 * passes the object to it (flow_escapes). */
static void parameters_take_what_calls_pass(void **state) {
    fixture *f = *state;
    sunset_engine_opts o = {SUNSET_ALL_FRONTENDS, .jobs = 1, .queries_dir = "queries"};
    sunset_engine *e = engine(f, &o);
    sb code = {0};
    sb_puts(&code, "def train(prog, exe):\n    exe.run(prog)\n\n"
                   "class T(object):\n    def __init__(self, pe):\n        self.exe = pe\n\n"
                   "    def step(self, x, runner=None):\n        runner.run(x)\n"
                   "        self.exe.run(x)\n\n");
    for (int i = 0; i < 60; i++) sb_printf(&code, "def filler%d(a, b):\n    return a + b * %d\n\n", i, i);
    sb_puts(&code, "def main(p):\n    pe = fluid.ParallelExecutor(p)\n    train(p, pe)\n"
                   "    train(pe, p)\n    t = T(pe)\n    t.step(p, runner=pe)\n");
    sunset_result r = {0};
    assert_int_equal(sunset_engine_scan_buffer(e, "t.py", code.s, code.len, &r), 0);
    /* the four calls passing pe; exe.run, runner.run and self.exe.run; `train(pe, p)` binds
     * prog, which exe.run(prog) passes on: one finding for that statement */
    assert_int_equal(count_rule(&r, "PE-USE"), 7);
    uint32_t lines[] = {2, 9, 10};
    for (size_t k = 0; k < 3; k++) {
        bool found = false;
        for (size_t i = 0; i < r.n_findings; i++)
            found |= !strcmp(r.findings[i].rule_id, "PE-USE") && r.findings[i].span.line == lines[k];
        assert_true(found);
    }
    sunset_result_free(&r);
    sunset_engine_free(e);
    sb_free(&code);
}

/* A chain of n functions each passing the executor on to the next (`def f_i(x): f_{i+1}(x)`):
 * each parameter is found by its function's name, not by a round over all of them. */
static void pass_chain_is_near_linear(void **state) {
    fixture *f = *state;
    const int sizes[] = {100, 3000};
    double per_fact[2];
    const sunset_rule *seed = sunset_ruleset_find(f->rs, "PE-IDENT");
    for (int k = 0; k < 2; k++) {
        flow_file *ff = flow_file_new();
        assert_non_null(ff);
        int n = sizes[k];
        char name[32], callee[32];
        uint32_t line = 1;
        for (int i = 0; i < n; i++, line += 3) {
            snprintf(name, sizeof name, "f_%d", i);
            snprintf(callee, sizeof callee, "f_%d", i + 1);
            flow_scope(ff, "function", name, line, line + 1);
            sunset_fact p = {.kind = SUNSET_FACT_BIND, .ctx = SUNSET_CTX_CODE,
                             .span = {line, 10, line, 11}, .flags = SUNSET_FACT_PARAM,
                             .text = "x", .text_len = 1, .aux = "", .section = "0", .section_len = 1,
                             .stmt = {line, 5, line + 1, 12}};
            flow_fact(ff, &p);
            sunset_fact a = {.kind = SUNSET_FACT_BIND, .ctx = SUNSET_CTX_CODE,
                             .span = {line + 1, 10, line + 1, 11}, .flags = SUNSET_FACT_ARG,
                             .text = callee, .text_len = strlen(callee), .aux = "x", .aux_len = 1,
                             .section = "0", .section_len = 1, .stmt = {line + 1, 5, line + 1, 12}};
            flow_fact(ff, &a);
            use(ff, "x", "run", line + 1, 5);
        }
        bind(ff, "pe", "fluid.ParallelExecutor(p)", line, 1, false);
        flow_seed(ff, seed, SUNSET_CTX_CODE, (sunset_span){line, 12, line, 28}, "ParallelExecutor", 16);
        sunset_fact a = {.kind = SUNSET_FACT_BIND, .ctx = SUNSET_CTX_CODE,
                         .span = {line + 1, 5, line + 1, 7}, .flags = SUNSET_FACT_ARG,
                         .text = "f_0", .text_len = 3, .aux = "pe", .aux_len = 2,
                         .section = "0", .section_len = 1, .stmt = {line + 1, 1, line + 1, 8}};
        flow_fact(ff, &a);
        n_reports = 0;
        assert_int_equal(flow_finish(ff, &f->flow_rules, NULL, NULL, count_report, NULL), FLOW_DONE);
        assert_int_equal(n_reports, (size_t)n); /* x.run in every function */
        per_fact[k] = (double)flow_file_work(ff) / (double)(4 * n + 2);
        flow_file_free(ff);
    }
    assert_true(per_fact[1] < 32);
    assert_true(per_fact[1] < 2 * per_fact[0]);
}

/* The Python form of rebinds(): n re-bindings `x = x` between the executor and its use. */
static void rebinds_code(sb *code, int n) {
    sb_puts(code, "def f(a):\n    x = fluid.ParallelExecutor(a)\n");
    for (int i = 0; i < n; i++) sb_puts(code, "    x = x\n");
    sb_puts(code, "    x.run()\n");
}

/* A file the flow's work limit cuts says so in a warning, with the steps; its findings are
 * the same on every run. A generated file: `x = x` re-bindings. */
static void work_limit_warning(void **state) {
    fixture *f = *state;
    sb code = {0};
    rebinds_code(&code, 300);
    sunset_engine_opts o = {SUNSET_ALL_FRONTENDS, .jobs = 1, .queries_dir = "queries"};
    sunset_engine *e = engine(f, &o);
    sunset_result r = {0};
    assert_int_equal(sunset_engine_scan_buffer(e, "t.py", code.s, code.len, &r), 0);
    assert_int_equal(count_rule(&r, "PE-USE"), 1);
    assert_null(warning_with(&r, "legacy-object flow"));
    sunset_result_free(&r);
    flow_set_work_limit(5000);
    memset(&r, 0, sizeof r);
    assert_int_equal(sunset_engine_scan_buffer(e, "t.py", code.s, code.len, &r), 0);
    flow_set_work_limit(0);
    assert_int_equal(count_rule(&r, "PE-IDENT"), 1);
    assert_int_equal(count_rule(&r, "PE-USE"), 0);
    const char *w = warning_with(&r, "legacy-object flow");
    assert_non_null(w);
    assert_string_equal(w, "t.py: warning: legacy-object flow stopped at its work limit (5001 "
                           "steps); uses of legacy objects may be missing");
    sunset_result_free(&r);
    sunset_engine_free(e);
    sb_free(&code);
}

/* The time limit wherever it falls in a scan (the fake clock up at its k-th read, every k):
 * the frontend's stop or the flow's, each one warning (or none, when that read starts the
 * window of one of them); a file cut by the flow's keeps the frontend's findings, and a cut
 * file is not cached, since on a faster machine it would not be cut. */
static void time_limit_in_a_scan(void **state) {
    fixture *f = *state;
    sb code = {0};
    rebinds_code(&code, 300);
    char dir[] = "/tmp/sunset-flow-cache-XXXXXX";
    assert_non_null(mkdtemp(dir));
    sunset_cache *c = sunset_cache_open(dir, 7, f->rs, 1 << 20);
    assert_non_null(c);
    sunset_engine_opts o = {SUNSET_ALL_FRONTENDS, .jobs = 1, .queries_dir = "queries", .parse_budget_ms = 1000, .cache = c};
    sunset_engine *e = engine(f, &o);
    fake_clock_start(-1, 0);
    sunset_result r = {0};
    assert_int_equal(sunset_engine_scan_buffer(e, "t.py", code.s, code.len, &r), 0);
    long reads = fake_clock_reads();
    assert_int_equal(count_rule(&r, "PE-USE"), 1);
    assert_int_equal(r.n_warnings, 0);
    sunset_result_free(&r);
    assert_int_equal(sunset_cache_get_stats(c).stored, 1);
    bool flow_cut = false, fe_cut = false;
    for (long k = 1; k < reads; k++) {
        sunset_cache_free(c);
        assert_non_null(c = sunset_cache_open(dir, 7 + (uint64_t)k, f->rs, 1 << 20));
        o.cache = c;
        sunset_engine_free(e);
        e = engine(f, &o);
        fake_clock_start(k, 0);
        memset(&r, 0, sizeof r);
        assert_int_equal(sunset_engine_scan_buffer(e, "t.py", code.s, code.len, &r), 0);
        if (!r.n_warnings) { /* the read that starts a window: the time is up before it */
            assert_int_equal(count_rule(&r, "PE-USE"), 1);
            assert_int_equal(sunset_cache_get_stats(c).stored, 1);
            sunset_result_free(&r);
            continue;
        }
        assert_int_equal(r.n_warnings, 1);
        bool fe = strstr(r.warnings[0], "t.py:0:0: warning: stopped by the time limit "
                                        "(--parse-budget 1000 ms) ") != NULL;
        const char *fw = warning_with(&r, "legacy-object flow stopped by the time limit "
                                          "(--parse-budget 1000 ms); uses of legacy objects may be missing");
        assert_true(fe != (fw != NULL));
        fe_cut = fe_cut || fe;
        if (fw) {
            flow_cut = true;
            assert_int_equal(count_rule(&r, "PE-IDENT"), 1);
            assert_int_equal(count_rule(&r, "PE-USE"), 0);
        }
        assert_int_equal(sunset_cache_get_stats(c).stored, 0);
        sunset_result_free(&r);
    }
    fake_clock_stop();
    assert_true(flow_cut && fe_cut);
    sunset_engine_free(e);
    sunset_cache_free(c);
    char cmd[96];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
    sb_free(&code);
}

/* `exes = []`, `exes.append(PE())`, `exes.append(None)`, `for e in exes: e.run()`: the
 * element reaches the loop through the second append (elements only add); `exes = []` again
 * ends it, for the loop and for `exes[0].run()` alike. */
static void elements_add_until_rebound(void **state) {
    fixture *f = *state;
    flow_file *ff = flow_file_new();
    assert_non_null(ff);
    bindf(ff, "exes", "[]", 1, 0, -1);
    bindf(ff, "exes", "fluid.ParallelExecutor()", 2, SUNSET_FACT_ITEM, -1);
    pe_seed(ff, f, 2, 19);
    bindf(ff, "exes", "None", 3, SUNSET_FACT_ITEM, -1);
    bindf(ff, "e", "exes", 4, SUNSET_FACT_ITER, -1);
    use(ff, "e", "run", 5, 5);
    use(ff, "exes[0]", "run", 6, 5);
    bindf(ff, "exes", "[]", 7, 0, -1);
    bindf(ff, "e2", "exes", 8, SUNSET_FACT_ITER, -1);
    use(ff, "e2", "run", 9, 5);
    use(ff, "exes[0]", "run", 10, 5);
    n_reports = 0;
    assert_int_equal(flow_finish(ff, &f->flow_rules, NULL, NULL, count_report, NULL), FLOW_DONE);
    assert_int_equal(n_reports, 2); /* lines 5 and 6 */
    flow_file_free(ff);
}

/* `return PE(), prog` then `exe, prog = build()`: exe holds element 0, prog element 1. */
static void tuple_elements_by_position(void **state) {
    fixture *f = *state;
    flow_file *ff = flow_file_new();
    assert_non_null(ff);
    flow_scope(ff, "function", "build", 1, 2);
    bindf(ff, "", "fluid.ParallelExecutor()", 2, SUNSET_FACT_RETURN | SUNSET_FACT_ELEM, 0);
    pe_seed(ff, f, 2, 14);
    bindf(ff, "", "prog", 2, SUNSET_FACT_RETURN | SUNSET_FACT_ELEM, 1);
    bindf(ff, "exe", "build()", 4, SUNSET_FACT_ELEM, 0);
    bindf(ff, "prog", "build()", 4, SUNSET_FACT_ELEM, 1);
    use(ff, "prog", "global_block", 5, 5);
    use(ff, "exe", "run", 6, 5);
    n_reports = 0;
    assert_int_equal(flow_finish(ff, &f->flow_rules, NULL, NULL, count_report, NULL), FLOW_DONE);
    assert_int_equal(n_reports, 1);
    flow_file_free(ff);
}

/* ---- across modules (core/xflow.c) ---- */

static void put_file(const char *dir, const char *rel, const char *text) {
    char p[512];
    snprintf(p, sizeof p, "%s/%s", dir, rel);
    FILE *fp = fopen(p, "w");
    assert_non_null(fp);
    fputs(text, fp);
    fclose(fp);
}

static size_t uses_in(const sunset_result *r, const char *path) {
    size_t n = 0;
    for (size_t i = 0; i < r->n_findings; i++)
        n += !strcmp(r->findings[i].rule_id, "PE-USE") && !strcmp(r->findings[i].path, path);
    return n;
}

/* One scan of the tree with the cache of dir/c (opened and saved around it); vouched: as if the
 * git index vouched for every file (base/checkout.h), its blob id a hash of its bytes and its
 * stamp its lstat's, so that a file the cache knows by that id is replayed unread. */
static void scan_tree_as(fixture *f, const char *dir, bool vouched, sunset_result *r, sunset_cache_stats *st) {
    char cd[512];
    snprintf(cd, sizeof cd, "%s/c", dir);
    sunset_cache *c = sunset_cache_open(cd, 11, f->rs, 1 << 20);
    assert_non_null(c);
    char *paths[] = {"main.py", "pkg/__init__.py", "pkg/eval.py", "trainer.py"};
    uint64_t ids[4], stamps[4];
    for (int i = 0; i < 4; i++) {
        char p[600], text[4096] = "";
        snprintf(p, sizeof p, "%s/%s", dir, paths[i]);
        FILE *fp = fopen(p, "r");
        assert_non_null(fp);
        size_t n = fread(text, 1, sizeof text, fp);
        fclose(fp);
        struct stat sb_;
        assert_int_equal(lstat(p, &sb_), 0);
        ids[i] = sunset_cache_digest(text, n) | 1;
        stamps[i] = sunset_stat_stamp(&sb_);
    }
    sunset_engine_opts o = {SUNSET_ALL_FRONTENDS, .jobs = 2, .queries_dir = "queries", .cache = c};
    if (vouched) {
        o.blob_ids = ids;
        o.blob_stamps = stamps;
    }
    sunset_engine *e = engine(f, &o);
    memset(r, 0, sizeof *r);
    assert_int_equal(sunset_engine_scan(e, dir, paths, 4, r), 0);
    *st = sunset_cache_get_stats(c);
    assert_int_equal(sunset_cache_save(c), 0);
    sunset_cache_free(c);
    sunset_engine_free(e);
}

static void scan_tree(fixture *f, const char *dir, sunset_result *r, sunset_cache_stats *st) {
    scan_tree_as(f, dir, false, r, st);
}

static const char *const legacy_trainer = "import paddle.fluid as fluid\n\ntrain_exe = fluid.ParallelExecutor(True)\n";

/* A temporary tree for the cross-module flow: trainer.py exports a ParallelExecutor, main.py
 * (main_py) and pkg/eval.py import it; c/ is its cache directory. */
static void flow_tree(char *dir, const char *main_py) {
    assert_non_null(mkdtemp(dir));
    char sub[600];
    snprintf(sub, sizeof sub, "%s/pkg", dir);
    assert_int_equal(mkdir(sub, 0755), 0);
    snprintf(sub, sizeof sub, "%s/c", dir);
    assert_int_equal(mkdir(sub, 0755), 0);
    put_file(dir, "trainer.py", legacy_trainer);
    put_file(dir, "main.py", main_py);
    put_file(dir, "pkg/__init__.py", "");
    put_file(dir, "pkg/eval.py", "from ..trainer import train_exe as exe\n\n\ndef evaluate():\n    exe.run()\n");
}

static void across_modules(void **state) {
    fixture *f = *state;
    char dir[] = "/tmp/sunset-xflow-XXXXXX";
    flow_tree(dir, "from trainer import train_exe\nimport trainer\n\n\ndef step(feed):\n"
                   "    train_exe.run(feed=feed)\n    return trainer.train_exe.run()\n");
    sunset_result r;
    sunset_cache_stats st;
    scan_tree(f, dir, &r, &st); /* cold */
    assert_int_equal(uses_in(&r, "main.py"), 2);
    assert_int_equal(uses_in(&r, "pkg/eval.py"), 1);
    assert_int_equal(st.hits, 0);
    sunset_result_free(&r);
    scan_tree(f, dir, &r, &st); /* warm: every result replayed, the importers' under the exports */
    assert_int_equal(uses_in(&r, "main.py"), 2);
    assert_int_equal(uses_in(&r, "pkg/eval.py"), 1);
    assert_int_equal(st.misses, 0);
    assert_int_equal(st.hits, 6); /* four files, and the two importers again under the exports */
    sunset_result_free(&r);
    /* the exporter edited: its importers' entries stand, but not under the old exports */
    put_file(dir, "trainer.py", "import paddle\n\ntrain_exe = paddle.static.Executor()\n");
    scan_tree(f, dir, &r, &st);
    assert_int_equal(uses_in(&r, "main.py"), 0);
    assert_int_equal(uses_in(&r, "pkg/eval.py"), 0);
    assert_int_equal(st.hits, 3); /* all but the exporter, whose importers now import nothing legacy */
    sunset_result_free(&r);
    put_file(dir, "trainer.py", legacy_trainer);
    scan_tree(f, dir, &r, &st);
    assert_int_equal(uses_in(&r, "main.py"), 2);
    assert_int_equal(st.misses, 0);
    assert_int_equal(st.hits, 6);
    sunset_result_free(&r);
    char cmd[700];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

/* Scans the tree cold, then warm: path has n uses both times (other has none), and the warm
 * scan replays every file; then the tree is removed. */
static void cold_warm_uses(fixture *f, char *dir, const char *path, size_t n, const char *other) {
    sunset_result r;
    sunset_cache_stats st;
    scan_tree(f, dir, &r, &st);
    assert_int_equal(uses_in(&r, path), n);
    assert_int_equal(uses_in(&r, other), 0);
    sunset_result_free(&r);
    scan_tree(f, dir, &r, &st);
    assert_int_equal(uses_in(&r, path), n);
    assert_int_equal(st.misses, 0);
    sunset_result_free(&r);
    char cmd[700];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

/* A legacy object passed to a function another module defines is followed into that function
 * (core/xflow.c argument_premarks): `evaluate(exe, prog)` after `from pkg.eval import evaluate`
 * binds evaluate's first parameter, `ev.check(prog, runner=exe)` after `from pkg import eval as
 * ev` check's `runner`; a function of the same name the caller does not import is not reached,
 * and a value that is not legacy binds nothing. */
static void across_modules_arguments(void **state) {
    fixture *f = *state;
    char dir[] = "/tmp/sunset-xflow-XXXXXX";
    flow_tree(dir, "import paddle.fluid as fluid\nfrom pkg.eval import evaluate\nfrom pkg import eval as ev\n\n\n"
                   "def step(prog, plain):\n    exe = fluid.ParallelExecutor(True)\n    evaluate(exe, prog)\n"
                   "    ev.check(prog, runner=exe)\n    ev.other(plain)\n");
    put_file(dir, "pkg/eval.py", "def evaluate(runner, prog):\n    out = runner.run(fetch_list=[])\n    return prog.x\n\n\n"
                                 "def check(prog, runner=None):\n    runner.run()\n\n\n"
                                 "def other(runner):\n    runner.run()\n");
    put_file(dir, "trainer.py", "def evaluate(runner):\n    runner.run()\n");
    cold_warm_uses(f, dir, "pkg/eval.py", 2, "trainer.py");
}

/* A module-level function that returns a legacy object is exported as "build()": an importer's
 * call of it (`from trainer import build`, or `trainer.build()` after `import trainer`) holds
 * the object; a function of the same module returning something else does not. */
static void across_modules_returned(void **state) {
    fixture *f = *state;
    char dir[] = "/tmp/sunset-xflow-XXXXXX";
    flow_tree(dir, "from trainer import build, plain\nimport trainer\n\n\ndef step(prog):\n    exe = build(prog)\n"
                   "    exe.run(fetch_list=[])\n    other = plain()\n    other.run(prog)\n    pe = trainer.build(prog)\n"
                   "    return pe.run()\n");
    put_file(dir, "trainer.py", "import paddle.fluid as fluid\n\n\ndef build(prog):\n"
                                "    return fluid.ParallelExecutor(True, main_program=prog)\n\n\n"
                                "def plain():\n    return fluid.Executor()\n");
    put_file(dir, "pkg/eval.py", "def evaluate():\n    pass\n");
    cold_warm_uses(f, dir, "main.py", 2, "trainer.py");
}

/* across_modules with every file vouched for by the git index: a file the cache knows by its
 * blob id is replayed unread, and still takes part in the flow (its import statements and
 * exports are kept beside its entry), so a warm run, an edited exporter and its revert give
 * the cold results. */
static void across_modules_vouched(void **state) {
    fixture *f = *state;
    char dir[] = "/tmp/sunset-xflow-XXXXXX";
    flow_tree(dir, "from trainer import (train_exe,\n    other)  # two lines\nimport trainer\n\n\n"
                   "def step(feed):\n    train_exe.run(feed=feed)\n    return trainer.train_exe.run()\n");
    sunset_result r;
    sunset_cache_stats st;
    const char *trainers[] = {legacy_trainer, "import paddle\n\ntrain_exe = paddle.static.Executor()\n",
                              legacy_trainer};
    size_t want[] = {2, 0, 2};
    scan_tree_as(f, dir, true, &r, &st); /* cold: the vouch records written */
    assert_int_equal(uses_in(&r, "main.py"), 2);
    assert_int_equal(uses_in(&r, "pkg/eval.py"), 1);
    sunset_result_free(&r);
    for (int i = 0; i < 3; i++) {
        put_file(dir, "trainer.py", trainers[i]); /* the same, edited, reverted */
        scan_tree_as(f, dir, true, &r, &st);
        assert_int_equal(uses_in(&r, "main.py"), want[i]);
        assert_int_equal(uses_in(&r, "pkg/eval.py"), want[i] / 2);
        /* four replays, the importers' again under the exports; edited, the exporter alone is
         * scanned (its exports were not kept) and its importers import nothing legacy */
        assert_int_equal(st.hits, i == 1 ? 3 : 6);
        assert_int_equal(st.misses, 0);
        sunset_result_free(&r);
    }
    char cmd[700];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

/* flow_pack with an anchor: a file is tied to Paddle by importing it. */
static const char *anchored_flow_pack =
    "{\"schema\":1,\"family\":\"parallel_executor\",\"settings\":{\"families\":[{\"id\":\"parallel_executor\","
    "\"title\":\"PE\"}],\"anchor\":{\"modules\":[\"^paddle(\\\\.|$)\"],\"module_literals\":[\"paddle\"]}},\"rules\":["
    "{\"id\":\"PE-IDENT\",\"task\":5,\"languages\":[\"python\"],\"severity\":\"error\",\"message\":\"m\",\"fix\":\"f\","
    " \"match\":{\"kind\":\"identifier\",\"names\":[\"ParallelExecutor\"]}},"
    "{\"id\":\"PE-USE\",\"task\":5,\"languages\":[\"python\"],\"severity\":\"error\",\"message\":\"m\",\"fix\":\"f\","
    " \"match\":{\"kind\":\"attribute\",\"receiver\":{\"bound_to\":[\"PE-IDENT\"],\"arguments\":true}}}"
    "]}";

static size_t rule_in(const sunset_result *r, const char *rule, const char *path) {
    size_t n = 0;
    for (size_t i = 0; i < r->n_findings; i++)
        n += !strcmp(r->findings[i].rule_id, rule) && !strcmp(r->findings[i].path, path);
    return n;
}

/* Without the cache an importer is scanned again only when that can change its findings
 * (xflow_rescan_moot): tied.py, tied to Paddle by itself and naming no export, keeps its first
 * findings; plain.py names none either, but only the exports tie it to Paddle, so its second
 * scan keeps the ParallelExecutor its first dropped; user.py, tied, names trainer.train_exe. */
static void rescan_only_where_it_can_matter(void **state) {
    (void)state;
    sunset_error err = {{0}};
    sunset_ruleset *rs = sunset_ruleset_load_string(anchored_flow_pack, "flow.json", "queries", &err);
    if (!rs) fprintf(stderr, "%s\n", err.msg);
    assert_non_null(rs);
    char dir[] = "/tmp/sunset-xflow-XXXXXX";
    assert_non_null(mkdtemp(dir));
    put_file(dir, "trainer.py", legacy_trainer);
    put_file(dir, "plain.py", "import trainer\n\nx = ParallelExecutor\n");
    put_file(dir, "tied.py", "import paddle\nimport trainer\n\nx = ParallelExecutor\n");
    put_file(dir, "user.py", "import paddle\nimport trainer\n\nx = ParallelExecutor\n\n\ndef f():\n    trainer.train_exe.run()\n");
    put_file(dir, "alone.py", "x = ParallelExecutor\n"); /* imports nothing: never tied */
    char *paths[] = {"alone.py", "plain.py", "tied.py", "trainer.py", "user.py"};
    for (int jobs = 1; jobs <= 2; jobs++) {
        sunset_engine_opts o = {SUNSET_ALL_FRONTENDS, .jobs = jobs, .queries_dir = "queries"};
        sunset_engine *e = sunset_engine_new(rs, &o, &err);
        assert_non_null(e);
        sunset_result r = {0};
        assert_int_equal(sunset_engine_scan(e, dir, paths, 5, &r), 0);
        assert_int_equal(rule_in(&r, "PE-IDENT", "alone.py"), 0);
        assert_int_equal(rule_in(&r, "PE-IDENT", "plain.py"), 1);
        assert_int_equal(rule_in(&r, "PE-IDENT", "tied.py"), 1);
        assert_int_equal(rule_in(&r, "PE-USE", "user.py"), 1);
        assert_int_equal(rule_in(&r, "PE-IDENT", "user.py"), 1);
        assert_int_equal(rule_in(&r, "PE-USE", "trainer.py"), 0);
        sunset_result_free(&r);
        sunset_engine_free(e);
    }
    sunset_ruleset_free(rs);
    char cmd[700];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

/* The import statements resolved once every module's exports are known (core/xflow.c):
 * only a statement one of whose words can name a module with exports is resolved (`import
 * os, sys` in a tree where only trainer.py and util.py export is not), and the premarks are
 * those resolving every statement gives: relative, dotted, aliased, star and package
 * imports; exports a module gets while the importers are handed out (a rescan's) count for
 * the importers after it. */
typedef struct importers_seen {
    xflow *x;
    sb got; /* "path: premarks" */
} importers_seen;

static void importer_seen(void *ud, const char *path, size_t at, const char *premarks) {
    importers_seen *s = ud;
    (void)at;
    sb_printf(&s->got, "%s: %s", path, premarks);
    if (!strcmp(path, "a/pkg/__init__.py")) xflow_note_exports(s->x, "util.py", "PE-USE\tlate\n", 12);
}

static void imports_resolved_when_they_can_matter(void **state) {
    fixture *f = *state;
    char *paths[] = {"a/pkg/__init__.py", "a/pkg/mod.py", "a/trainer.py", "b/user.py", "b/z_late.py", "util.py"};
    const char *text[] = {
        "from .. import trainer\n",
        "from ..trainer import train_exe as exe\nfrom . import helper\nimport os, sys\n",
        "import paddle\n",
        "import a.trainer as t\nfrom a import trainer\nfrom a.trainer import *\nimport json\nfrom util import f\n",
        "from util import late\n",
        "import collections\n",
    };
    xflow *x = xflow_new(f->rs, paths, 6);
    assert_non_null(x);
    for (int i = 0; i < 6; i++) xflow_note_imports(x, paths[i], text[i], strlen(text[i]), false);
    xflow_note_exports(x, "a/trainer.py", "PE-USE\ttrain_exe\n", 17);
    importers_seen seen = {x, {0}};
    xflow_importers(x, importer_seen, &seen);
    assert_string_equal(seen.got.s, "a/pkg/__init__.py: PE-USE\ttrainer.train_exe\n"
                                    "a/pkg/mod.py: PE-USE\texe\n"
                                    "b/user.py: PE-USE\tt.train_exe\nPE-USE\ttrainer.train_exe\nPE-USE\ttrain_exe\n"
                                    "b/z_late.py: PE-USE\tlate\n");
    /* 12 statements; not `import os, sys`, `import json`, `import collections` (nor the
     * exporter's own `import paddle`) */
    assert_int_equal(xflow_resolved(x), 8);
    sb_free(&seen.got);
    xflow_free(x);
}

/* The statements a module's text holds, as kept for the cache: each `import` or `from ...
 * import` that starts a line past its blanks (spaces, tabs), brackets and backslashes joining
 * lines (a line inside one starts none), up to a ';' or '#'; not a word that merely begins
 * like one (`format`, `if`), nor one inside a line, nor "from " in the file's last 5 bytes. */
static void import_statements_as_read(void **state) {
    fixture *f = *state;
    char *paths[] = {"m.py"};
    xflow *x = xflow_new(f->rs, paths, 1);
    assert_non_null(x);
    const char *text = "import os\n"
                       "    from a.b import (c,\n"
                       "import_not_a_statement,\n"
                       "  d)\n"
                       "for i in x: import_x = 1\n"
                       "\t\timport \\\n  sys; import json\n"
                       "x = 1  # import hidden\n"
                       "\n"
                       "   \n"
                       "if True:\n"
                       "  from e import f # comment\n"
                       "fromage = 2\n"
                       "padding padding padding padding padding\n"
                       "from ";
    const char *kept = xflow_note_imports(x, "m.py", text, strlen(text), true);
    assert_non_null(kept);
    assert_string_equal(kept, "import os \n"
                              "from a.b import  c  import_not_a_statement    d  \n"
                              "import   sys \n"
                              "from e import f  \n");
    xflow_free(x);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(return_chain_is_near_linear),
        cmocka_unit_test(work_limit_is_deterministic),
        cmocka_unit_test(time_limit_is_the_last_guard),
        cmocka_unit_test(rebinding_ends_only_what_it_can),
        cmocka_unit_test(parameters_take_what_calls_pass),
        cmocka_unit_test(pass_chain_is_near_linear),
        cmocka_unit_test(work_limit_warning),
        cmocka_unit_test(time_limit_in_a_scan),
        cmocka_unit_test(elements_add_until_rebound),
        cmocka_unit_test(tuple_elements_by_position),
        cmocka_unit_test(across_modules),
        cmocka_unit_test(across_modules_arguments),
        cmocka_unit_test(across_modules_returned),
        cmocka_unit_test(across_modules_vouched),
        cmocka_unit_test(rescan_only_where_it_can_matter),
        cmocka_unit_test(imports_resolved_when_they_can_matter),
        cmocka_unit_test(import_statements_as_read),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
