/*
 * test_lang_python.c — CMocka unit tests of the Python frontend (src/lang/python/), linked
 * with the fact recorder instead of the engine: each test scans a snippet and checks the
 * recorded facts, texts, scopes, query-rule matches and warnings, including positions.
 * Run from the repository root (the frontend loads queries/python/facts.scm).
 * PY_TEST_FILTER=glob runs only the matching tests; PY_TEST_DUMP=1 prints every record.
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

#include "lang/python.h"
#include "lang/python/python_int.h"
#include "lang/registry.h"
#include "sunset.h"
#include "test/fakeclock.h"
#include "test/recorder.h"
#include "base/util.h"

#define ANY ((const char *)1) /* rec_get: any aux */

static const sunset_frontend *fe = &sunset_frontend_python;

/* One frontend state + worker + recorder; fx_close frees all of it. */
typedef struct fx {
    void *state, *worker;
    sunset_sink sink;
    sunset_error err;
    long live_at_open;
} fx;

static bool fx_lazy; /* the next fx_open_cfg: sunset_frontend_config.lazy_queries */

static int fx_open_cfg(fx *f, const struct sunset_ruleset *rs, const char *queries_dir,
                       unsigned budget_ms) {
    memset(f, 0, sizeof *f);
    f->live_at_open = sunset_alloc_live();
    sunset_frontend_config cfg = {.rules = rs, .queries_dir = queries_dir, .root = "/",
                                  .parse_budget_ms = budget_ms, .lazy_queries = fx_lazy};
    if (fe->init(&cfg, &f->state, &f->err) != 0) return -1;
    f->worker = fe->worker_new(f->state);
    return f->worker ? 0 : -1;
}

static void fx_open(fx *f, const struct sunset_ruleset *rs) {
    int rc = fx_open_cfg(f, rs, "queries", 0);
    if (rc) fprintf(stderr, "init: %s\n", f->err.msg);
    assert_int_equal(rc, 0);
}

static int fx_scan_n(fx *f, const char *code, size_t len) {
    rec_reset(&f->sink);
    sunset_source src = {"t.py", "t.py", code, len, SUNSET_LANG_PYTHON};
    int rc = fe->scan(f->worker, &src, &f->sink);
    if (getenv("PY_TEST_DUMP")) rec_dump(&f->sink);
    return rc;
}

static int fx_scan(fx *f, const char *code) { return fx_scan_n(f, code, strlen(code)); }

static void fx_close(fx *f) {
    rec_reset(&f->sink);
    fe->worker_free(f->worker);
    fe->fini(f->state);
    f->worker = f->state = NULL;
    assert_int_equal(sunset_alloc_live(), f->live_at_open);
}

static bool str_is(const char *have, const char *want) {
    if (want == ANY) return true;
    if (!want || !have) return want == have;
    return strcmp(have, want) == 0;
}

/* The n-th record of `type` (fact `kind`) with this text (NULL = any) and aux (NULL = none,
 * ANY = any), or NULL. */
static const rec *rec_nth(const sunset_sink *s, rec_type type, sunset_fact_kind kind,
                          const char *text, const char *aux, size_t nth) {
    for (size_t i = 0; i < s->n; i++) {
        const rec *r = &s->recs[i];
        if (r->type != type || (type == REC_FACT && r->kind != kind)) continue;
        if ((text && !str_is(r->text, text)) || !str_is(r->aux, aux)) continue;
        if (nth-- == 0) return r;
    }
    return NULL;
}

static const rec *rec_get(const sunset_sink *s, rec_type type, sunset_fact_kind kind,
                          const char *text, const char *aux) {
    const rec *r = rec_nth(s, type, kind, text, aux, 0);
    if (!r) {
        fprintf(stderr, "missing record type=%d kind=%d text=[%s] aux=[%s]; have:\n", type, kind,
                text ? text : "(null)", aux == ANY ? "(any)" : aux ? aux : "(null)");
        rec_dump(s);
    }
    return r;
}

static size_t rec_cnt(const sunset_sink *s, rec_type type, sunset_fact_kind kind,
                      const char *text, const char *aux) {
    size_t n = 0;
    while (rec_nth(s, type, kind, text, aux, n)) n++;
    return n;
}

static void check_span(const rec *r, uint32_t l, uint32_t c, uint32_t el, uint32_t ec) {
    assert_non_null(r);
    if (r->span.line != l || r->span.col != c || r->span.end_line != el || r->span.end_col != ec)
        fprintf(stderr, "span of [%s]: have %u:%u-%u:%u want %u:%u-%u:%u\n", r->text, r->span.line,
                r->span.col, r->span.end_line, r->span.end_col, l, c, el, ec);
    assert_int_equal(r->span.line, l);
    assert_int_equal(r->span.col, c);
    assert_int_equal(r->span.end_line, el);
    assert_int_equal(r->span.end_col, ec);
}

static void check_start(const rec *r, uint32_t l, uint32_t c) {
    assert_non_null(r);
    assert_int_equal(r->span.line, l);
    assert_int_equal(r->span.col, c);
}

static const rec *warning_with(const sunset_sink *s, const char *needle) {
    for (size_t i = 0; i < s->n; i++)
        if (s->recs[i].type == REC_WARN && strstr(s->recs[i].text, needle)) return &s->recs[i];
    return NULL;
}

/* ---- tests ------------------------------------------------------------------------------ */

static void test_descriptor(void **unused) {
    assert_int_equal(fe->abi, SUNSET_FRONTEND_ABI);
    assert_string_equal(fe->name, "python");
    assert_int_equal(fe->langs[0], SUNSET_LANG_PYTHON);
    assert_int_equal(fe->langs[1], SUNSET_LANG_NONE);
    fe->fini(NULL);
    fe->worker_free(NULL);
}

static void test_imports(void **unused) {
    fx f;
    fx_open(&f, NULL);
    assert_int_equal(fx_scan(&f, "import a.b\n"
                                 "import paddle.fluid as fluid, os\n"
                                 "from ..x.y import (ParallelExecutor as PE,\n"
                                 "    ExecutionStrategy)\n"
                                 "from . import m\n"
                                 "from q import *\n"
                                 "from __future__ import annotations\n"
                                 "from paddle . base import core\n"),
                     0);
    const sunset_sink *s = &f.sink;
    assert_int_equal(rec_cnt(s, REC_FACT, SUNSET_FACT_IMPORT, NULL, ANY), 9);

    const rec *r = rec_get(s, REC_FACT, SUNSET_FACT_IMPORT, "a.b", NULL);
    check_span(r, 1, 8, 1, 11);
    assert_null(r->target);
    r = rec_get(s, REC_FACT, SUNSET_FACT_IMPORT, "paddle.fluid", NULL);
    check_span(r, 2, 8, 2, 20);
    assert_string_equal(r->target, "fluid");
    r = rec_get(s, REC_FACT, SUNSET_FACT_IMPORT, "os", NULL);
    check_span(r, 2, 31, 2, 33);
    assert_null(r->target);

    r = rec_get(s, REC_FACT, SUNSET_FACT_IMPORT, "..x.y", "ParallelExecutor");
    check_span(r, 3, 20, 3, 36);
    assert_string_equal(r->target, "PE");
    r = rec_get(s, REC_FACT, SUNSET_FACT_IMPORT, "..x.y", "ExecutionStrategy");
    check_span(r, 4, 5, 4, 22);
    assert_null(r->target);
    check_span(rec_get(s, REC_FACT, SUNSET_FACT_IMPORT, ".", "m"), 5, 15, 5, 16);
    check_span(rec_get(s, REC_FACT, SUNSET_FACT_IMPORT, "q", "*"), 6, 15, 6, 16);
    assert_non_null(rec_get(s, REC_FACT, SUNSET_FACT_IMPORT, "__future__", "annotations"));
    /* blanks inside a dotted module are dropped */
    check_span(rec_get(s, REC_FACT, SUNSET_FACT_IMPORT, "paddle.base", "core"), 8, 27, 8, 31);

    /* import names are identifiers too */
    check_span(rec_get(s, REC_FACT, SUNSET_FACT_IDENT, "ParallelExecutor", NULL), 3, 20, 3, 36);
    assert_non_null(rec_get(s, REC_FACT, SUNSET_FACT_IDENT, "PE", NULL));
    fx_close(&f);
}

static void test_bases(void **unused) {
    fx f;
    fx_open(&f, NULL);
    assert_int_equal(fx_scan(&f, "class A(B):\n"
                                 "    pass\n"
                                 "class C(mod.D, metaclass=Meta):\n"
                                 "    pass\n"
                                 "class TestPE(unittest.TestCase, TestParallelExecutorBase):\n"
                                 "    pass\n"
                                 "class Plain:\n"
                                 "    pass\n"),
                     0);
    const sunset_sink *s = &f.sink;
    assert_int_equal(rec_cnt(s, REC_FACT, SUNSET_FACT_BASE, NULL, ANY), 4);
    check_span(rec_get(s, REC_FACT, SUNSET_FACT_BASE, "B", "A"), 1, 9, 1, 10);
    check_span(rec_get(s, REC_FACT, SUNSET_FACT_BASE, "mod.D", "C"), 3, 9, 3, 14);
    assert_non_null(rec_get(s, REC_FACT, SUNSET_FACT_BASE, "unittest.TestCase", "TestPE"));
    assert_non_null(rec_get(s, REC_FACT, SUNSET_FACT_BASE, "TestParallelExecutorBase", "TestPE"));
    /* metaclass= is neither a base nor a call keyword */
    assert_int_equal(rec_cnt(s, REC_FACT, SUNSET_FACT_BASE, "Meta", ANY), 0);
    assert_int_equal(rec_cnt(s, REC_FACT, SUNSET_FACT_KWARG, NULL, ANY), 0);
    fx_close(&f);
}

static void test_calls_and_idents(void **unused) {
    fx f;
    fx_open(&f, NULL);
    assert_int_equal(fx_scan(&f, "pe = core.ParallelExecutor(places, fluid.ExecutionStrategy())\n"
                                 "f()\n"
                                 "g(h(x), y)\n"),
                     0);
    const sunset_sink *s = &f.sink;
    check_span(rec_get(s, REC_FACT, SUNSET_FACT_CALL, "core.ParallelExecutor", NULL), 1, 6, 1, 27);
    check_span(rec_get(s, REC_FACT, SUNSET_FACT_CALL, "fluid.ExecutionStrategy", NULL), 1, 36, 1,
               59);
    assert_non_null(rec_get(s, REC_FACT, SUNSET_FACT_CALL, "f", NULL));
    assert_non_null(rec_get(s, REC_FACT, SUNSET_FACT_CALL, "h", NULL));
    assert_int_equal(rec_cnt(s, REC_FACT, SUNSET_FACT_CALL, NULL, ANY), 5);

    /* identifiers carry the innermost call whose argument list holds them */
    check_span(rec_get(s, REC_FACT, SUNSET_FACT_IDENT, "places", "core.ParallelExecutor"), 1, 28,
               1, 34);
    assert_non_null(rec_get(s, REC_FACT, SUNSET_FACT_IDENT, "ExecutionStrategy",
                            "core.ParallelExecutor"));
    assert_non_null(rec_get(s, REC_FACT, SUNSET_FACT_IDENT, "ParallelExecutor", NULL));
    assert_non_null(rec_get(s, REC_FACT, SUNSET_FACT_IDENT, "pe", NULL));
    assert_non_null(rec_get(s, REC_FACT, SUNSET_FACT_IDENT, "f", NULL));
    assert_non_null(rec_get(s, REC_FACT, SUNSET_FACT_IDENT, "x", "h"));
    assert_non_null(rec_get(s, REC_FACT, SUNSET_FACT_IDENT, "h", "g"));
    assert_non_null(rec_get(s, REC_FACT, SUNSET_FACT_IDENT, "y", "g"));
    assert_null(rec_nth(s, REC_FACT, SUNSET_FACT_IDENT, "g", ANY, 0)->aux);
    fx_close(&f);
}

static void test_attributes(void **unused) {
    fx f;
    fx_open(&f, NULL);
    assert_int_equal(fx_scan(&f, "bs.fix_op_run_order = True\n"
                                 "x = es.num_threads\n"
                                 "es.num_iteration_per_drop_scope += 1\n"
                                 "self.a, (self.b, c) = 1, (2, 3)\n"
                                 "self.t: int = 4\n"
                                 "for self.i in r: pass\n"
                                 "with g() as self.w: pass\n"
                                 "print(es.use_cuda)\n"
                                 "a.b.c = 1\n"),
                     0);
    const sunset_sink *s = &f.sink;
    const rec *r = rec_get(s, REC_FACT, SUNSET_FACT_ATTR, "fix_op_run_order", "bs");
    check_span(r, 1, 4, 1, 20);
    assert_int_equal(r->flags, SUNSET_FACT_STORE);
    r = rec_get(s, REC_FACT, SUNSET_FACT_ATTR, "num_threads", "es");
    check_span(r, 2, 8, 2, 19);
    assert_int_equal(r->flags & SUNSET_FACT_STORE, 0);
    assert_int_equal(
        rec_get(s, REC_FACT, SUNSET_FACT_ATTR, "num_iteration_per_drop_scope", "es")->flags,
        SUNSET_FACT_STORE);
    static const char *stored[] = {"a", "b", "t", "i", "w"};
    for (size_t i = 0; i < sizeof stored / sizeof *stored; i++) {
        r = rec_get(s, REC_FACT, SUNSET_FACT_ATTR, stored[i], "self");
        assert_non_null(r);
        assert_int_equal(r->flags, SUNSET_FACT_STORE);
    }
    assert_int_equal(rec_get(s, REC_FACT, SUNSET_FACT_ATTR, "use_cuda", "es")->flags, 0);
    /* a.b.c = 1: only the outer attribute is stored; its receiver is "a.b" */
    assert_int_equal(rec_get(s, REC_FACT, SUNSET_FACT_ATTR, "c", "a.b")->flags, SUNSET_FACT_STORE);
    assert_int_equal(rec_get(s, REC_FACT, SUNSET_FACT_ATTR, "b", "a")->flags, 0);
    /* attribute names are identifiers too */
    check_span(rec_get(s, REC_FACT, SUNSET_FACT_IDENT, "num_threads", NULL), 2, 8, 2, 19);
    fx_close(&f);
}

/* A code fact carries its whole simple statement: a multi-line call with its argument lines,
 * from the assignment's first line to the closing parenthesis. */
static void test_statement_range(void **unused) {
    fx f;
    fx_open(&f, NULL);
    assert_int_equal(fx_scan(&f, "def f():\n"
                                 "    cp = fluid.CompiledProgram(\n"
                                 "        prog\n"
                                 "    ).with_data_parallel(\n"
                                 "        loss_name=loss.name,\n"
                                 "    )\n"
                                 "    if cp:\n"
                                 "        g(x)\n"),
                     0);
    const sunset_sink *s = &f.sink;
    const rec *r = rec_get(s, REC_FACT, SUNSET_FACT_ATTR, "with_data_parallel", ANY);
    check_span(r, 4, 7, 4, 25);
    assert_int_equal(r->stmt.line, 2);
    assert_int_equal(r->stmt.col, 5);
    assert_int_equal(r->stmt.end_line, 6);
    assert_int_equal(r->stmt.end_col, 6);
    assert_int_equal(rec_get(s, REC_FACT, SUNSET_FACT_KWARG, "loss_name", ANY)->stmt.line, 2);
    /* a compound statement's header is no simple statement; the call in its body is */
    assert_int_equal(rec_get(s, REC_FACT, SUNSET_FACT_IDENT, "cp", ANY)->stmt.end_line, 6);
    r = rec_get(s, REC_FACT, SUNSET_FACT_CALL, "g", NULL);
    assert_int_equal(r->stmt.line, 8);
    assert_int_equal(r->stmt.end_line, 8);
    const rec *hdr = NULL;
    for (size_t i = 0; i < s->n; i++)
        if (s->recs[i].type == REC_FACT && s->recs[i].span.line == 7) hdr = &s->recs[i];
    assert_non_null(hdr);
    assert_int_equal(hdr->stmt.line, 0);
    fx_close(&f);
}

/* Bindings for legacy-object flow: the target as written, the value's text, and the value's
 * span (a seed inside it marks the target); tuple targets one by one; returns flagged. */
static void test_bindings(void **unused) {
    fx f;
    fx_open(&f, NULL);
    assert_int_equal(fx_scan(&f, "class T:\n"
                                 "    def setUp(self):\n"
                                 "        self.pe = core.ParallelExecutor(\n"
                                 "            places)\n"
                                 "    def build(self):\n"
                                 "        exe, prog = make()\n"
                                 "        (cp,) = prog\n"
                                 "        cp.x = 1\n"
                                 "        return prog\n"
                                 "    def pair(self):\n"
                                 "        return bs, es\n"),
                     0);
    const sunset_sink *s = &f.sink;
    const rec *r = rec_get(s, REC_FACT, SUNSET_FACT_BIND, "self.pe", ANY);
    assert_string_equal(r->aux, "core.ParallelExecutor(places)"); /* compacted, like dotted names */
    check_span(r, 3, 19, 4, 20);
    assert_int_equal(r->stmt.line, 3);
    assert_int_equal(r->block.line, 3); /* the block of setUp: lines 3-4 */
    assert_int_equal(r->block.end_line, 4);
    assert_int_equal(r->flags, 0);
    /* `exe, prog = make()`: elements 0 and 1 of what make() returns */
    r = rec_get(s, REC_FACT, SUNSET_FACT_BIND, "exe", ANY);
    assert_string_equal(r->aux, "make()");
    assert_int_equal(r->flags, SUNSET_FACT_ELEM);
    assert_string_equal(r->section, "0");
    r = rec_get(s, REC_FACT, SUNSET_FACT_BIND, "prog", ANY);
    assert_string_equal(r->aux, "make()");
    assert_string_equal(r->section, "1");
    assert_string_equal(rec_get(s, REC_FACT, SUNSET_FACT_BIND, "cp", ANY)->aux, "prog");
    assert_int_equal(rec_cnt(s, REC_FACT, SUNSET_FACT_BIND, "cp.x", ANY), 1);
    r = rec_get(s, REC_FACT, SUNSET_FACT_BIND, "", ANY);
    assert_int_equal(r->flags, SUNSET_FACT_RETURN);
    assert_string_equal(r->aux, "prog");
    check_span(r, 9, 16, 9, 20);
    /* `return bs, es`: element by element; the other four are the three `self` parameters
     * and the argument `places` */
    r = rec_get(s, REC_FACT, SUNSET_FACT_BIND, "", "es");
    assert_int_equal(r->flags, SUNSET_FACT_RETURN | SUNSET_FACT_ELEM);
    assert_string_equal(r->section, "1");
    check_span(r, 11, 20, 11, 22);
    assert_int_equal(rec_cnt(s, REC_FACT, SUNSET_FACT_BIND, "", "bs"), 1);
    assert_int_equal(rec_cnt(s, REC_FACT, SUNSET_FACT_BIND, NULL, ANY), 12);
    assert_int_equal(rec_cnt(s, REC_FACT, SUNSET_FACT_BIND, "self", ANY), 3);
    fx_close(&f);
}

/* Tuples and containers: `a, b = x, y` entry by entry; a literal's entries, a dict's values,
 * a comprehension's body and `append`/`add` arguments are elements of the target (ITEM); a
 * loop's variable is an element of its container (ITER), through enumerate() and d.items()
 * for the second name only. */
static void test_container_bindings(void **unused) {
    fx f;
    fx_open(&f, NULL);
    assert_int_equal(fx_scan(&f, "a, b = fluid.ParallelExecutor(p), 1\n"
                                 "exes = [pe, None]\n"
                                 "d = {'t': pe}\n"
                                 "g = [make(p) for p in places]\n"
                                 "exes.append(pe2)\n"
                                 "for e in exes:\n"
                                 "    pass\n"
                                 "for i, e2 in enumerate(self.exes):\n"
                                 "    pass\n"
                                 "for k, v in d.items():\n"
                                 "    pass\n"
                                 "for w in d.values():\n"
                                 "    pass\n"
                                 "for x, y in pairs:\n"
                                 "    pass\n"),
                     0);
    const sunset_sink *s = &f.sink;
    const rec *r = rec_get(s, REC_FACT, SUNSET_FACT_BIND, "a", ANY);
    assert_string_equal(r->aux, "fluid.ParallelExecutor(p)");
    assert_int_equal(r->flags, 0);
    assert_string_equal(rec_get(s, REC_FACT, SUNSET_FACT_BIND, "b", ANY)->aux, "1");
    assert_int_equal(rec_get(s, REC_FACT, SUNSET_FACT_BIND, "exes", "pe")->flags, SUNSET_FACT_ITEM);
    assert_int_equal(rec_get(s, REC_FACT, SUNSET_FACT_BIND, "exes", "None")->flags,
                     SUNSET_FACT_ITEM);
    assert_int_equal(rec_get(s, REC_FACT, SUNSET_FACT_BIND, "exes", "pe2")->flags,
                     SUNSET_FACT_ITEM);
    assert_int_equal(rec_get(s, REC_FACT, SUNSET_FACT_BIND, "d", "pe")->flags, SUNSET_FACT_ITEM);
    assert_int_equal(rec_get(s, REC_FACT, SUNSET_FACT_BIND, "g", "make(p)")->flags,
                     SUNSET_FACT_ITEM);
    r = rec_get(s, REC_FACT, SUNSET_FACT_BIND, "e", ANY);
    assert_string_equal(r->aux, "exes");
    assert_int_equal(r->flags, SUNSET_FACT_ITER);
    check_span(r, 6, 10, 6, 14);
    assert_string_equal(rec_get(s, REC_FACT, SUNSET_FACT_BIND, "e2", ANY)->aux, "self.exes");
    assert_string_equal(rec_get(s, REC_FACT, SUNSET_FACT_BIND, "v", ANY)->aux, "d");
    assert_string_equal(rec_get(s, REC_FACT, SUNSET_FACT_BIND, "w", ANY)->aux, "d");
    assert_int_equal(rec_cnt(s, REC_FACT, SUNSET_FACT_BIND, "i", ANY), 0);
    assert_int_equal(rec_cnt(s, REC_FACT, SUNSET_FACT_BIND, "k", ANY), 0);
    assert_int_equal(rec_cnt(s, REC_FACT, SUNSET_FACT_BIND, "x", ANY), 0);
    assert_int_equal(rec_cnt(s, REC_FACT, SUNSET_FACT_BIND, "y", ANY), 0);
    fx_close(&f);
}

/* Parameters and the call arguments that bind them: positions count positional entries
 * only, a keyword argument carries its keyword, and what follows `*` or `*args` is bound by
 * keyword only; literals are not arguments the flow follows. */
static void test_param_arg_bindings(void **unused) {
    (void)unused;
    fx f;
    fx_open(&f, NULL);
    assert_int_equal(fx_scan(&f, "def train(exe, prog=None, *rest, flag: int = 1):\n"
                                 "    # the body\n"
                                 "    exe.run(prog)\n"
                                 "class C(Base):\n"
                                 "    def go(self, pe: object, /, k=2, *, only):\n"
                                 "        pass\n"
                                 "train(pe, 'x', runner=self.pe, n=3, step=make())\n"),
                     0);
    const sunset_sink *s = &f.sink;
    const rec *r = rec_get(s, REC_FACT, SUNSET_FACT_BIND, "exe", ANY);
    assert_int_equal(r->flags, SUNSET_FACT_PARAM);
    assert_string_equal(r->section, "0");
    assert_string_equal(r->aux, "");
    assert_int_equal(r->stmt.line, 1); /* from its own line, at the body's column */
    assert_int_equal(r->stmt.col, 5);
    assert_int_equal(r->block.line, 3); /* its block: the body (the comment before it is the def's) */
    assert_int_equal(r->block.end_line, 3);
    assert_string_equal(rec_get(s, REC_FACT, SUNSET_FACT_BIND, "prog", ANY)->section, "1");
    assert_null(rec_get(s, REC_FACT, SUNSET_FACT_BIND, "flag", ANY)->section);
    assert_int_equal(rec_cnt(s, REC_FACT, SUNSET_FACT_BIND, "rest", ANY), 0);
    assert_string_equal(rec_get(s, REC_FACT, SUNSET_FACT_BIND, "self", ANY)->section, "0");
    assert_string_equal(rec_get(s, REC_FACT, SUNSET_FACT_BIND, "pe", ANY)->section, "1");
    assert_string_equal(rec_get(s, REC_FACT, SUNSET_FACT_BIND, "k", ANY)->section, "2");
    assert_null(rec_get(s, REC_FACT, SUNSET_FACT_BIND, "only", ANY)->section);
    /* the arguments of train(...): text = the callee; `Base` of the class is none */
    assert_int_equal(rec_cnt(s, REC_FACT, SUNSET_FACT_BIND, "train", ANY), 3);
    assert_int_equal(rec_cnt(s, REC_FACT, SUNSET_FACT_BIND, "C", ANY), 0);
    size_t seen = 0;
    for (size_t i = 0; i < s->n; i++) {
        const rec *a = &s->recs[i];
        if (a->type != REC_FACT || a->kind != SUNSET_FACT_BIND || !a->text ||
            strcmp(a->text, "train"))
            continue;
        assert_int_equal(a->flags, SUNSET_FACT_ARG);
        if (!strcmp(a->aux, "pe")) assert_string_equal(a->section, "0"), seen |= 1;
        if (!strcmp(a->aux, "self.pe")) assert_string_equal(a->section, "runner"), seen |= 2;
        if (!strcmp(a->aux, "make()")) assert_string_equal(a->section, "step"), seen |= 4;
    }
    assert_int_equal(seen, 7);
    fx_close(&f);
}

/* The statement a string's text carries: first and last line (0, 0 = none). */
static void string_stmt(const char *code, const char *text, uint32_t line, uint32_t end_line) {
    fx f;
    fx_open(&f, NULL);
    assert_int_equal(fx_scan(&f, code), 0);
    const rec *r = rec_find(&f.sink, REC_TEXT, 0, text);
    assert_non_null(r);
    assert_int_equal(r->stmt.line, line);
    assert_int_equal(r->stmt.end_line, end_line);
    fx_close(&f);
}

/* A call's string argument carries its statement (a raise's message lines go with it), and so
 * does a list's only entry; a docstring does not, nor one entry of a longer list. */
static void test_string_statement(void **unused) {
    const char *raise = "def f(x):\n"
                        "    \"\"\"Doc.\"\"\"\n"
                        "    raise TypeError(\n"
                        "        \"ParallelExecutor is gone\"\n"
                        "    )\n";
    string_stmt(raise, "ParallelExecutor is gone", 3, 5);
    string_stmt(raise, "Doc.", 0, 0);
    string_stmt("assert ok, (\n    \"use with_data_parallel\"\n)\n", "use with_data_parallel", 1, 3);
    string_stmt("tests = [\n    'test_parallel_executor_mnist',\n]\n", "test_parallel_executor_mnist", 1, 3);
    string_stmt("tests = [\n    'test_parallel_executor_mnist',\n    'b',\n]\n",
                "test_parallel_executor_mnist", 0, 0);
}

/* A second-pass fact: its context, its one-line span and its statement's lines. */
static void check_second_pass(const rec *r, sunset_context ctx, uint32_t line, uint32_t col,
                              uint32_t end_col, uint32_t stmt_end) {
    assert_int_equal(r->ctx, ctx);
    check_span(r, line, col, line, end_col);
    assert_int_equal(r->stmt.line, line);
    assert_int_equal(r->stmt.end_line, stmt_end);
}

/* The masked parse drops the blanks of blank lines (frontend.c squeeze_blank_lines): lines
 * holding only spaces, inside an example's call and after many lines of code, keep every
 * later fact at its line and column. */
static void test_masked_blank_lines(void **unused) {
    fx f;
    fx_open(&f, NULL);
    sb src = {0};
    for (int i = 0; i < 40; i++) sb_puts(&src, "value = compute(value, 1)        \n");
    sb_puts(&src, "def f():\n"
                  "    \"\"\"Build it.\n"             /* line 42 */
                  "      \t \n"
                  "    .. code-block:: python\n"
                  "            \n"
                  "        pe = fluid.ParallelExecutor(\n" /* line 46 */
                  "                  \n"
                  "            places)\n"
                  "    \"\"\"\n");
    assert_int_equal(fx_scan(&f, src.s), 0);
    const rec *r = rec_get(&f.sink, REC_FACT, SUNSET_FACT_ATTR, "ParallelExecutor", "fluid");
    assert_int_equal(r->ctx, SUNSET_CTX_DOCSTRING);
    check_span(r, 46, 20, 46, 36);
    assert_int_equal(r->stmt.line, 46);
    assert_int_equal(r->stmt.end_line, 48);
    sb_free(&src);
    fx_close(&f);
}

/* ---- the part of a file parsed alone (units.c) ---- */

/* The rows (0-based) where the units of `code` start, as py_split makes them. */
static size_t unit_rows(const char *code, uint32_t from, uint32_t to, uint32_t row, int indent,
                        uint32_t *rows, size_t max) {
    vec v = VEC_INIT(py_unit);
    assert_int_equal(py_split(code, from, to, row, indent, &v), 0);
    size_t n = v.n < max ? v.n : max;
    for (size_t i = 0; i < n; i++) {
        const py_unit *u = &VEC_AT(&v, py_unit, i);
        rows[i] = u->row;
        /* a unit starts at the start of its line */
        assert_true(u->start == from || code[u->start - 1] == '\n');
    }
    size_t all = v.n;
    vec_free(&v);
    return all;
}

/* Units: a statement with its decorators and its else / except clauses; what a string, a
 * bracket or a backslash carries to column 0 starts nothing; comments start nothing. A class
 * unit splits into its header and its body's statements. */
static void test_units(void **unused) {
    static const char code[] =
        "#!/usr/bin/env python\n"     /* 0: head */
        "# licence\n"
        "\"\"\"Module doc.\"\"\"\n"   /* 2 */
        "import os\n"                 /* 3 */
        "@decorator(\n"               /* 4 */
        "x)\n"
        "@other\n"
        "def f():\n"
        "    s = '''\n"
        "not a statement\n"
        "'''\n"
        "    return s \\\n"
        "+ 'x'\n"
        "# a comment at column 0\n"
        "try:\n"                      /* 14 */
        "    pass\n"
        "except ValueError:\n"
        "    pass\n"
        "else:\n"
        "    pass\n"
        "x = [\n"                     /* 20 */
        "1,\n"
        "]\n"
        "class C(Base):\n"            /* 23 */
        "    \"\"\"Doc.\"\"\"\n"      /* 24 */
        "    a = {\n"                 /* 25 */
        "    'k': 1}\n"
        "    @property\n"             /* 27 */
        "    def p(self):\n"
        "        return 1\n"
        "# between methods\n"
        "    def q(self):\n"          /* 31 */
        "        pass\n";
    uint32_t rows[16];
    size_t n = unit_rows(code, 0, (uint32_t)strlen(code), 0, 0, rows, 16);
    static const uint32_t want[] = {0, 2, 3, 4, 14, 20, 23};
    assert_int_equal(n, sizeof want / sizeof *want);
    for (size_t i = 0; i < n; i++) assert_int_equal(rows[i], want[i]);
    const char *cls = strstr(code, "class C");
    assert_true(py_unit_is_class(code, (uint32_t)(cls - code), (uint32_t)strlen(code)));
    assert_false(py_unit_is_class(code, 0, (uint32_t)(cls - code)));
    n = unit_rows(code, (uint32_t)(cls - code), (uint32_t)strlen(code), 23, -1, rows, 16);
    static const uint32_t members[] = {23, 24, 25, 27, 31};
    assert_int_equal(n, sizeof members / sizeof *members);
    for (size_t i = 0; i < n; i++) assert_int_equal(rows[i], members[i]);
    /* a file that starts with a statement: the head is empty */
    n = unit_rows("import a\nimport b\n", 0, 18, 0, 0, rows, 16);
    assert_int_equal(n, 3);
    assert_int_equal(rows[1], 0);
    /* a string continued by a backslash and CRLF carries its next line */
    static const char crlf[] = "x = 'a\\\r\nnot a statement'\r\nimport os\r\n";
    n = unit_rows(crlf, 0, (uint32_t)strlen(crlf), 0, 0, rows, 16);
    assert_int_equal(n, 3);
    assert_int_equal(rows[1], 0);
    assert_int_equal(rows[2], 2);
}

static bool same_rec(const rec *a, const rec *b) {
    return a->type == b->type && a->kind == b->kind && a->ctx == b->ctx && a->flags == b->flags &&
           !memcmp(&a->span, &b->span, sizeof a->span) && !memcmp(&a->stmt, &b->stmt, sizeof a->stmt) &&
           str_is(a->text, b->text) && str_is(a->aux, b->aux) && str_is(a->target, b->target) &&
           str_is(a->qual, b->qual);
}

/* Every record of `part` is one of `whole`, and every record of `whole` within lines
 * [lo, hi] is one of `part`: the part's parse reads its statements as the whole file's does. */
static void check_part_of(const sunset_sink *whole, const sunset_sink *part, uint32_t lo, uint32_t hi) {
    size_t inside = 0;
    for (size_t i = 0; i < whole->n; i++) {
        const rec *w = &whole->recs[i];
        if (w->span.line < lo || w->span.line > hi) continue;
        inside++;
        bool found = false;
        for (size_t k = 0; k < part->n && !found; k++) found = same_rec(w, &part->recs[k]);
        if (!found) fprintf(stderr, "not in the part: [%s] at %u\n", w->text, w->span.line);
        assert_true(found);
    }
    for (size_t k = 0; k < part->n; k++) {
        bool found = false;
        for (size_t i = 0; i < whole->n && !found; i++) found = same_rec(&part->recs[k], &whole->recs[i]);
        if (!found) fprintf(stderr, "not in the whole: [%s] at %u\n", part->recs[k].text, part->recs[k].span.line);
        assert_true(found);
    }
    assert_true(inside > 0);
}

/* A rule matches in one function and in one method of a large class: only those, the first
 * statement, and the class's header, first and last statements are parsed, their records
 * exactly the whole file's; when the part does not suffice, the whole file is scanned. */
static void test_part_parse(void **unused) {
    fx f, g;
    fx_open(&f, NULL);
    fx_open(&g, NULL);
    sb src = {0};
    sb_puts(&src, "import os\n"                                   /* 1 */
                  "def first():\n"
                  "    return helper_one(1)\n");
    for (int i = 0; i < 20; i++) sb_printf(&src, "def filler%d(a):\n    return compute_a(a, %d)\n", i, i);
    sb_puts(&src, "def legacy(places):\n"                         /* 44 */
                  "    pe = fluid.ParallelExecutor(places)\n"
                  "    return pe.run()\n"
                  "class Big(object):\n"                          /* 47 */
                  "    \"\"\"Doc.\"\"\"\n");
    for (int i = 0; i < 40; i++) sb_printf(&src, "    def m%d(self):\n        return self.value_b + %d\n", i, i);
    sb_puts(&src, "    def old(self):\n"                          /* 129 */
                  "        return core.ParallelExecutor(self.p)\n"
                  "    def last(self):\n"                         /* 131 */
                  "        return helper_two(2)\n");
    assert_int_equal(fx_scan(&g, src.s), 0); /* the whole file */
    rec_may_match_literal = "ParallelExecutor";
    int restarts = rec_restarts;
    assert_int_equal(fx_scan(&f, src.s), 0);
    assert_int_equal(rec_restarts, restarts);
    /* left out: the functions without a match and the class's other methods */
    assert_null(rec_nth(&f.sink, REC_FACT, SUNSET_FACT_CALL, "helper_one", NULL, 0));
    assert_null(rec_nth(&f.sink, REC_FACT, SUNSET_FACT_CALL, "compute_a", NULL, 0));
    assert_null(rec_nth(&f.sink, REC_FACT, SUNSET_FACT_ATTR, "value_b", ANY, 0));
    assert_non_null(rec_get(&g.sink, REC_FACT, SUNSET_FACT_CALL, "helper_one", NULL));
    check_part_of(&g.sink, &f.sink, 1, 1); /* the first statement, always */
    check_part_of(&g.sink, &f.sink, 44, 46);
    check_part_of(&g.sink, &f.sink, 129, 132);
    /* the class's scope spans the whole class */
    check_span(rec_get(&f.sink, REC_SCOPE, 0, "Big", "class"), 47, 0, 132, 0);
    /* a part that does not suffice: everything again, from the whole file */
    rec_part_suffices = false;
    assert_int_equal(fx_scan(&f, src.s), 0);
    assert_int_equal(rec_restarts, restarts + 1);
    assert_int_equal(f.sink.n, g.sink.n);
    for (size_t i = 0; i < g.sink.n; i++) assert_true(same_rec(&f.sink.recs[i], &g.sink.recs[i]));
    rec_part_suffices = true;
    rec_may_match_literal = NULL;
    sb_free(&src);
    rec_reset(&f.sink); /* made after g opened: g's check counts it */
    fx_close(&g);       /* the last opened first: each checks that it freed what it made */
    fx_close(&f);
}

/* Docstring code examples (doccode.c): a code-block body and doctest lines are parsed at
 * their own positions, in DOCSTRING context; prose, prompts and directive options are not. */
static void test_docstring_code(void **unused) {
    fx f;
    fx_open(&f, NULL);
    assert_int_equal(fx_scan(&f, "def f():\n"
                                 "    \"\"\"Run: call exe.prose_word here.\n"
                                 "\n"
                                 "    .. code-block:: python\n"
                                 "        :name: ex\n"
                                 "\n"
                                 "        pe = fluid.ParallelExecutor(\n"
                                 "            places)\n"
                                 "    Text again, pe.after_block.\n"
                                 "    >>> pe.run(a,\n"
                                 "    ...        b)\n"
                                 "    \"\"\"\n"
                                 "    x.code_attr\n"),
                     0);
    const sunset_sink *s = &f.sink;
    const rec *r = rec_get(s, REC_FACT, SUNSET_FACT_ATTR, "ParallelExecutor", "fluid");
    check_second_pass(r, SUNSET_CTX_DOCSTRING, 7, 20, 36, 8);
    assert_string_equal(rec_get(s, REC_FACT, SUNSET_FACT_BIND, "pe", ANY)->aux,
                        "fluid.ParallelExecutor(places)");
    r = rec_get(s, REC_FACT, SUNSET_FACT_ATTR, "run", "pe");
    check_span(r, 10, 12, 10, 15);
    assert_int_equal(r->ctx, SUNSET_CTX_DOCSTRING);
    assert_int_equal(r->stmt.end_line, 11); /* the `...` continuation */
    assert_int_equal(rec_cnt(s, REC_FACT, SUNSET_FACT_ATTR, "prose_word", ANY), 0);
    assert_int_equal(rec_cnt(s, REC_FACT, SUNSET_FACT_ATTR, "after_block", ANY), 0);
    assert_int_equal(rec_cnt(s, REC_FACT, SUNSET_FACT_IDENT, "name", ANY), 0);
    assert_int_equal(rec_get(s, REC_FACT, SUNSET_FACT_ATTR, "code_attr", "x")->ctx, SUNSET_CTX_CODE);
    /* the example defines no scope of the file */
    assert_int_equal(rec_cnt(s, REC_SCOPE, 0, NULL, ANY), 1);
    fx_close(&f);
}

/* Commented-out code: a comment that parses as a call, assignment or import yields code
 * facts in DEAD_CODE context (a multi-line one with its statement); prose, even with
 * parentheses, and a bare name do not. */
static void test_commented_out_code(void **unused) {
    fx f;
    fx_open(&f, NULL);
    assert_int_equal(fx_scan(&f, "x = 1\n"
                                 "#train_prog = train_prog.with_data_parallel(\n"
                                 "#    loss_name=loss.name)\n"
                                 "# the PE (see prose_call) is gone\n"
                                 "# fluid.bare_name\n"
                                 "y = 2  # pe.run(x)\n"),
                     0);
    const sunset_sink *s = &f.sink;
    const rec *r = rec_get(s, REC_FACT, SUNSET_FACT_ATTR, "with_data_parallel", "train_prog");
    check_second_pass(r, SUNSET_CTX_DEAD_CODE, 2, 26, 44, 3);
    assert_int_equal(rec_get(s, REC_FACT, SUNSET_FACT_KWARG, "loss_name", ANY)->ctx,
                     SUNSET_CTX_DEAD_CODE);
    assert_int_equal(rec_get(s, REC_FACT, SUNSET_FACT_ATTR, "run", "pe")->ctx, SUNSET_CTX_DEAD_CODE);
    assert_int_equal(rec_cnt(s, REC_FACT, SUNSET_FACT_IDENT, "prose_call", ANY), 0);
    assert_int_equal(rec_cnt(s, REC_FACT, SUNSET_FACT_ATTR, "bare_name", ANY), 0);
    /* the comment's words are still comment words */
    assert_non_null(rec_find(s, REC_TEXT, 0, "train_prog = train_prog.with_data_parallel("));
    fx_close(&f);
}

/* Scan text as the embedded Python of the file at path (as the engine hands it over). */
static void scan_as(fx *f, const char *path, const char *text) {
    sunset_source src = {path, path, text, strlen(text), SUNSET_LANG_PYTHON};
    rec_reset(&f->sink);
    assert_int_equal(fe->scan(f->worker, &src, &f->sink), 0);
}

/* A Markdown or reST file handed to the Python frontend: only its Python blocks (fences,
 * code-block bodies, doctest lines) are parsed, at the document's positions; prose and
 * other fences are not. */
static void test_markup_blocks(void **unused) {
    fx f;
    fx_open(&f, NULL);
    const char *md = "# Guide: call x.prose_attr\n"
                     "```python\n"
                     "exe = fluid.ParallelExecutor(\n"
                     "    use_cuda=True)\n"
                     "```\n"
                     "```bash\n"
                     "run.shell_attr(1)\n"
                     "```\n"
                     "    >>> pe.run(a)\n";
    scan_as(&f, "docs/a.md", md);
    const rec *r = rec_get(&f.sink, REC_FACT, SUNSET_FACT_ATTR, "ParallelExecutor", "fluid");
    check_second_pass(r, SUNSET_CTX_DOCSTRING, 3, 13, 29, 4);
    check_second_pass(rec_get(&f.sink, REC_FACT, SUNSET_FACT_ATTR, "run", "pe"),
                      SUNSET_CTX_DOCSTRING, 9, 12, 15, 9);
    assert_int_equal(rec_cnt(&f.sink, REC_FACT, SUNSET_FACT_ATTR, "prose_attr", ANY), 0);
    assert_int_equal(rec_cnt(&f.sink, REC_FACT, SUNSET_FACT_ATTR, "shell_attr", ANY), 0);
    const char *rst = "Title\n=====\n\n.. code-block:: python\n\n    pe.run(x)\n\nText pe.after.\n";
    scan_as(&f, "docs/b.rst", rst);
    check_second_pass(rec_get(&f.sink, REC_FACT, SUNSET_FACT_ATTR, "run", "pe"),
                      SUNSET_CTX_DOCSTRING, 6, 8, 11, 6);
    assert_int_equal(rec_cnt(&f.sink, REC_FACT, SUNSET_FACT_ATTR, "after", ANY), 0);
    fx_close(&f);
}

/* A notebook: its code cells' source lines are parsed, each at its JSON string's line; a
 * markdown cell, outputs and escapes are not code. */
static void test_notebook_cells(void **unused) {
    fx f;
    fx_open(&f, NULL);
    const char *nbk = "{\"cells\": [\n"
                      " {\"cell_type\": \"markdown\", \"source\": [\"md.prose_attr()\\n\"]},\n"
                      " {\"outputs\": [{\"text\": [\"out.output_attr()\\n\"]}],\n"
                      "  \"source\": [\"pe = fluid.ParallelExecutor(\\n\",\n"
                      "             \"    places)\\n\",\n"
                      "             \"pe.run({\\\"x\\\": 1})\\n\"],\n"
                      "  \"cell_type\": \"code\"}\n"
                      "], \"nbformat\": 4}\n";
    scan_as(&f, "nb/a.ipynb", nbk);
    const rec *r = rec_get(&f.sink, REC_FACT, SUNSET_FACT_ATTR, "ParallelExecutor", "fluid");
    check_second_pass(r, SUNSET_CTX_CODE, 4, 26, 42, 5); /* the cell's lines are the file's */
    r = rec_get(&f.sink, REC_FACT, SUNSET_FACT_ATTR, "run", "pe");
    assert_int_equal(r->span.line, 6);
    assert_non_null(rec_find(&f.sink, REC_TEXT, 0, "x")); /* the escaped quotes decoded */
    assert_int_equal(rec_cnt(&f.sink, REC_FACT, SUNSET_FACT_ATTR, "prose_attr", ANY), 0);
    assert_int_equal(rec_cnt(&f.sink, REC_FACT, SUNSET_FACT_ATTR, "output_attr", ANY), 0);
    fx_close(&f);
}

static void test_kwargs(void **unused) {
    fx f;
    fx_open(&f, NULL);
    assert_int_equal(fx_scan(&f, "exe = compiler.compile(exec_strategy=es, build_strategy=bs)\n"
                                 "p = CompiledProgram(m).with_data_parallel(loss_name=l, **kw)\n"
                                 "d = dict(a=1)\n"),
                     0);
    const sunset_sink *s = &f.sink;
    check_span(rec_get(s, REC_FACT, SUNSET_FACT_KWARG, "exec_strategy", "compiler.compile"), 1, 24,
               1, 37);
    assert_non_null(rec_get(s, REC_FACT, SUNSET_FACT_KWARG, "build_strategy", "compiler.compile"));
    assert_non_null(rec_get(s, REC_FACT, SUNSET_FACT_KWARG, "loss_name",
                            "CompiledProgram(m).with_data_parallel"));
    assert_non_null(rec_get(s, REC_FACT, SUNSET_FACT_KWARG, "a", "dict"));
    assert_int_equal(rec_cnt(s, REC_FACT, SUNSET_FACT_KWARG, NULL, ANY), 4);
    /* the keyword and its value are identifiers inside the call */
    assert_non_null(rec_get(s, REC_FACT, SUNSET_FACT_IDENT, "exec_strategy", "compiler.compile"));
    assert_non_null(rec_get(s, REC_FACT, SUNSET_FACT_IDENT, "es", "compiler.compile"));
    fx_close(&f);
}

/* Line and column of `word` inside a recorded text, walked from its start as the engine does. */
static void walk_pos(const rec *r, const char *word, uint32_t *line, uint32_t *col) {
    const char *p = strstr(r->text, word);
    assert_non_null(p);
    uint32_t l = r->span.line, c = r->span.col;
    for (const char *q = r->text; q < p; q++) {
        if (*q == '\n') l++, c = 1;
        else c++;
    }
    *line = l;
    *col = c;
}

static void test_contexts(void **unused) {
    fx f;
    fx_open(&f, NULL);
    assert_int_equal(fx_scan(&f, "# Copyright ParallelExecutor\n"
                                 "\"\"\"Module doc about ParallelExecutor.\"\"\"\n"
                                 "x = \"ExecutionStrategy\"  # trailing note\n"
                                 "def f():\n"
                                 "    \"\"\"First line.\n"
                                 "\n"
                                 "    Second ParallelExecutor line.\n"
                                 "    \"\"\"\n"
                                 "    return run(\"inner\", 'b' \"c\")\n"
                                 "class K:\n"
                                 "    # a comment first\n"
                                 "    r'''K doc'''\n"
                                 "    'not a docstring'\n"
                                 "y = f\"pre{x}post\"\n"
                                 "\"late module string\"\n"),
                     0);
    const sunset_sink *s = &f.sink;
    const rec *r = rec_get(s, REC_TEXT, 0, " Copyright ParallelExecutor", NULL);
    assert_int_equal(r->ctx, SUNSET_CTX_COMMENT);
    check_start(r, 1, 2);
    r = rec_get(s, REC_TEXT, 0, " trailing note", NULL);
    assert_int_equal(r->ctx, SUNSET_CTX_COMMENT);
    check_start(r, 3, 27);

    r = rec_get(s, REC_TEXT, 0, "Module doc about ParallelExecutor.", NULL);
    assert_int_equal(r->ctx, SUNSET_CTX_DOCSTRING);
    check_start(r, 2, 4);
    r = rec_get(s, REC_TEXT, 0, "ExecutionStrategy", NULL);
    assert_int_equal(r->ctx, SUNSET_CTX_STRING);
    check_span(r, 3, 6, 3, 23);

    r = rec_get(s, REC_TEXT, 0, "First line.\n\n    Second ParallelExecutor line.\n    ", NULL);
    assert_int_equal(r->ctx, SUNSET_CTX_DOCSTRING);
    check_start(r, 5, 8);
    uint32_t line, col;
    walk_pos(r, "ParallelExecutor", &line, &col);
    assert_int_equal(line, 7);
    assert_int_equal(col, 12);

    r = rec_get(s, REC_TEXT, 0, "inner", "run");
    assert_int_equal(r->ctx, SUNSET_CTX_STRING);
    check_start(r, 9, 17);
    /* implicit concatenation: each piece with its own position */
    check_start(rec_get(s, REC_TEXT, 0, "b", "run"), 9, 26);
    check_start(rec_get(s, REC_TEXT, 0, "c", "run"), 9, 30);

    r = rec_get(s, REC_TEXT, 0, "K doc", NULL);
    assert_int_equal(r->ctx, SUNSET_CTX_DOCSTRING);
    check_start(r, 12, 9);
    assert_int_equal(rec_get(s, REC_TEXT, 0, "not a docstring", NULL)->ctx, SUNSET_CTX_STRING);
    assert_int_equal(rec_get(s, REC_TEXT, 0, "late module string", NULL)->ctx, SUNSET_CTX_STRING);

    /* f-string: the literal pieces, not the interpolation */
    check_span(rec_get(s, REC_TEXT, 0, "pre", NULL), 14, 7, 14, 10);
    check_span(rec_get(s, REC_TEXT, 0, "post", NULL), 14, 13, 14, 17);
    assert_int_equal(rec_cnt(s, REC_TEXT, 0, "{x}", ANY), 0);
    assert_int_equal(rec_cnt(s, REC_TEXT, 0, NULL, ANY), 14);
    /* strings are reported as texts, never as STRING facts */
    assert_int_equal(rec_cnt(s, REC_FACT, SUNSET_FACT_STRING, NULL, ANY), 0);
    /* no word of a comment or string is an identifier fact */
    assert_int_equal(rec_cnt(s, REC_FACT, SUNSET_FACT_IDENT, "ParallelExecutor", ANY), 0);
    fx_close(&f);
}

static void test_scopes_and_defs(void **unused) {
    fx f;
    fx_open(&f, NULL);
    assert_int_equal(fx_scan(&f, "class TestX(unittest.TestCase):\n"
                                 "    def test_run(self):\n"
                                 "        def helper():\n"
                                 "            pass\n"
                                 "        return helper\n"
                                 "\n"
                                 "    @staticmethod\n"
                                 "    def build():\n"
                                 "        pass\n"
                                 "\n"
                                 "async def top():\n"
                                 "    class Inner:\n"
                                 "        pass\n"),
                     0);
    const sunset_sink *s = &f.sink;
    assert_int_equal(rec_cnt(s, REC_SCOPE, 0, NULL, ANY), 6);
    check_span(rec_get(s, REC_SCOPE, 0, "TestX", "class"), 1, 0, 9, 0);
    check_span(rec_get(s, REC_SCOPE, 0, "TestX.test_run", "method"), 2, 0, 5, 0);
    check_span(rec_get(s, REC_SCOPE, 0, "TestX.test_run.helper", "function"), 3, 0, 4, 0);
    check_span(rec_get(s, REC_SCOPE, 0, "TestX.build", "method"), 8, 0, 9, 0);
    check_span(rec_get(s, REC_SCOPE, 0, "top", "function"), 11, 0, 13, 0);
    check_span(rec_get(s, REC_SCOPE, 0, "top.Inner", "class"), 12, 0, 13, 0);

    check_span(rec_get(s, REC_FACT, SUNSET_FACT_DEF, "TestX", "class"), 1, 7, 1, 12);
    check_span(rec_get(s, REC_FACT, SUNSET_FACT_DEF, "test_run", "method"), 2, 9, 2, 17);
    assert_non_null(rec_get(s, REC_FACT, SUNSET_FACT_DEF, "helper", "function"));
    assert_non_null(rec_get(s, REC_FACT, SUNSET_FACT_DEF, "build", "method"));
    assert_non_null(rec_get(s, REC_FACT, SUNSET_FACT_DEF, "top", "function"));
    assert_int_equal(rec_cnt(s, REC_FACT, SUNSET_FACT_DEF, NULL, ANY), 6);

    const rec *r = rec_get(s, REC_FACT, SUNSET_FACT_IDENT, "test_run", NULL);
    check_span(r, 2, 9, 2, 17);
    assert_int_equal(r->flags, SUNSET_FACT_DEFINITION);
    assert_int_equal(rec_get(s, REC_FACT, SUNSET_FACT_IDENT, "TestX", NULL)->flags,
                     SUNSET_FACT_DEFINITION);
    /* a use of helper is not its definition */
    assert_int_equal(rec_nth(s, REC_FACT, SUNSET_FACT_IDENT, "helper", NULL, 1)->flags, 0);
    assert_int_equal(rec_get(s, REC_FACT, SUNSET_FACT_IDENT, "self", NULL)->flags, 0);
    fx_close(&f);
}

static const struct sunset_rule pred_rules[] = {
    {"PY-PE-CALL",
     "((call function: (attribute object: (_) @obj attribute: (identifier) @name)) @call\n"
     " (#match? @obj \"^(fluid|core)$\")\n"
     " (#eq? @name \"ParallelExecutor\"))",
     "call", SUNSET_LANG_PYTHON},
    {"PY-SAME-KW", "((keyword_argument name: (_) @k value: (_) @v) (#eq? @k @v))", "v",
     SUNSET_LANG_PYTHON},
    {"PY-OUTER", "((call function: (identifier) @fn) @whole (#eq? @fn \"foo\"))", "",
     SUNSET_LANG_PYTHON},
    {"PY-ANY-OF",
     "((identifier) @id (#any-of? @id \"foo\" \"_bar\" \"baz\") (#not-match? @id \"^_\")"
     " (#not-eq? @id \"baz\"))",
     NULL, SUNSET_LANG_PYTHON},
    {"PY-TEXT", "([(string) (comment)] @t (#match? @t \"Parallel\"))", "t", SUNSET_LANG_PYTHON},
    {"CPP-IGNORED", "this is not for python", "", SUNSET_LANG_CPP},
};

static void test_query_rules(void **unused) {
    struct sunset_ruleset rs = {pred_rules, sizeof pred_rules / sizeof *pred_rules};
    fx f;
    fx_open(&f, &rs);
    assert_int_equal(fx_scan(&f, "a = fluid.ParallelExecutor(x)\n"
                                 "b = paddle.ParallelExecutor(y)\n"
                                 "c = core.ParallelExecutor(z)\n"
                                 "d = fluid.Executor(a=a, b=c)\n"
                                 "foo(_bar, baz, foo)\n"
                                 "s = 'ParallelExecutor'  # ParallelExecutor\n"
                                 "def h():\n"
                                 "    \"\"\"ParallelExecutor doc\"\"\"\n"),
                     0);
    const sunset_sink *s = &f.sink;
    assert_int_equal(rec_cnt(s, REC_MATCH, 0, "PY-PE-CALL", ANY), 2);
    const rec *r = rec_nth(s, REC_MATCH, 0, "PY-PE-CALL", ANY, 0);
    check_span(r, 1, 5, 1, 30);
    assert_int_equal(r->ctx, SUNSET_CTX_CODE);
    assert_ptr_equal(r->rule, &pred_rules[0]);
    check_span(rec_nth(s, REC_MATCH, 0, "PY-PE-CALL", ANY, 1), 3, 5, 3, 29);

    /* capture vs capture; the rule's capture is reported */
    assert_int_equal(rec_cnt(s, REC_MATCH, 0, "PY-SAME-KW", ANY), 1);
    check_span(rec_get(s, REC_MATCH, 0, "PY-SAME-KW", ANY), 4, 22, 4, 23);
    /* capture "": the outermost captured node (@whole, not @fn, which comes first) */
    assert_int_equal(rec_cnt(s, REC_MATCH, 0, "PY-OUTER", ANY), 1);
    check_span(rec_get(s, REC_MATCH, 0, "PY-OUTER", ANY), 5, 1, 5, 20);

    /* foo twice; _bar fails #not-match?, baz fails #not-eq? */
    assert_int_equal(rec_cnt(s, REC_MATCH, 0, "PY-ANY-OF", ANY), 2);
    check_span(rec_nth(s, REC_MATCH, 0, "PY-ANY-OF", ANY, 0), 5, 1, 5, 4);
    check_span(rec_nth(s, REC_MATCH, 0, "PY-ANY-OF", ANY, 1), 5, 16, 5, 19);

    /* contexts of matched nodes */
    assert_int_equal(rec_cnt(s, REC_MATCH, 0, "PY-TEXT", ANY), 3);
    r = rec_nth(s, REC_MATCH, 0, "PY-TEXT", ANY, 0);
    assert_int_equal(r->ctx, SUNSET_CTX_STRING);
    check_span(r, 6, 5, 6, 23);
    r = rec_nth(s, REC_MATCH, 0, "PY-TEXT", ANY, 1);
    assert_int_equal(r->ctx, SUNSET_CTX_COMMENT);
    check_span(r, 6, 25, 6, 43);
    r = rec_nth(s, REC_MATCH, 0, "PY-TEXT", ANY, 2);
    assert_int_equal(r->ctx, SUNSET_CTX_DOCSTRING);
    check_span(r, 8, 5, 8, 31);
    assert_int_equal(rec_cnt(s, REC_WARN, 0, NULL, ANY), 0);

    /* a file without any match */
    assert_int_equal(fx_scan(&f, "exe = paddle.static.Executor(place)\n"), 0);
    assert_int_equal(rec_cnt(s, REC_MATCH, 0, NULL, ANY), 0);
    fx_close(&f);
}

/* The rule alone, and after a good one: with two rules all compile as one query, and an
 * error in it is still the bad rule's own. */
static void check_init_error(const char *query, const char *capture, const char *want) {
    struct sunset_rule rules[] = {{"PY-OK", "(identifier) @i", "", SUNSET_LANG_PYTHON},
                                  {"PY-BAD", query, capture, SUNSET_LANG_PYTHON}};
    for (size_t n = 1; n <= 2; n++) {
        struct sunset_ruleset rs = {&rules[2 - n], n};
        fx f;
        long live = sunset_alloc_live();
        assert_int_equal(fx_open_cfg(&f, &rs, "queries", 0), -1);
        assert_null(f.state);
        if (strcmp(f.err.msg, want) != 0) fprintf(stderr, "have: %s\nwant: %s\n", f.err.msg, want);
        assert_string_equal(f.err.msg, want);
        assert_int_equal(sunset_alloc_live(), live);
    }
}

static void test_invalid_rule_queries(void **unused) {
    check_init_error("(call function: (identifer))", "",
                     "test: rule PY-BAD: invalid query at offset 17: invalid node type");
    check_init_error("(call (identifier) @x", "",
                     "test: rule PY-BAD: invalid query at offset 21: syntax error");
    check_init_error("(call fnction: (identifier))", "",
                     "test: rule PY-BAD: invalid query at offset 6: invalid field");
    check_init_error("((identifier) @x (#match? @x \"a(b\"))", "",
                     "test: rule PY-BAD: invalid regex \"a(b\" at offset 3: missing closing "
                     "parenthesis");
    check_init_error("((identifier) @x (#frob? @x \"a\"))", "",
                     "test: rule PY-BAD: unsupported predicate #frob? in pattern 0");
    check_init_error("((identifier) @x (#eq? \"a\" @x))", "",
                     "test: rule PY-BAD: invalid predicate #eq? in pattern 0: expected a capture "
                     "then a string or a capture");
    check_init_error("(identifier) @x", "y", "test: rule PY-BAD: capture @y is not in the query");
    check_init_error("(call) @x\n(identifier) @y", "x",
                     "test: rule PY-BAD: capture @x is not in pattern 1");
    check_init_error("(call) @x\n(identifier)", "",
                     "test: rule PY-BAD: pattern 1 has no capture to report");
    check_init_error("; nothing\n", "", "test: rule PY-BAD: query has no pattern");
}

/* A scratch queries directory holding python/facts.scm with `text`; returns its path. */
static const char *scratch_queries(const char *text) {
    static char dir[64];
    snprintf(dir, sizeof dir, "/tmp/sunset-pyq-%ld", (long)getpid());
    char path[128];
    mkdir(dir, 0700);
    snprintf(path, sizeof path, "%s/python", dir);
    mkdir(path, 0700);
    snprintf(path, sizeof path, "%s/python/facts.scm", dir);
    FILE *fp = fopen(path, "w");
    assert_non_null(fp);
    fputs(text, fp);
    assert_int_equal(fclose(fp), 0);
    return dir;
}

static void scratch_remove(const char *dir) {
    char path[128];
    snprintf(path, sizeof path, "%s/python/facts.scm", dir);
    unlink(path);
    snprintf(path, sizeof path, "%s/python", dir);
    rmdir(path);
    rmdir(dir);
}

/* lazy_queries (the session's record that these queries compiled before): init compiles
 * nothing, so it takes even a query that cannot compile (a changed query file has no record:
 * a real run compiles it at init, test_invalid_facts_file); the first scan compiles them and
 * scans as an eager state does, and one that cannot compile skips the file with its error. */
static void test_lazy_queries(void **unused) {
    fx f;
    const char *dir = scratch_queries("(identifier) @ident\n");
    fx_lazy = true;
    assert_int_equal(fx_open_cfg(&f, NULL, dir, 0), 0);
    const py_state *st = f.state;
    assert_null(st->facts.q); /* nothing compiled yet */
    assert_int_equal(fx_scan(&f, "keep = skip\n"), 0);
    assert_non_null(st->facts.q);
    assert_non_null(rec_get(&f.sink, REC_FACT, SUNSET_FACT_IDENT, "keep", NULL));
    assert_non_null(rec_get(&f.sink, REC_FACT, SUNSET_FACT_IDENT, "skip", NULL));
    fx_close(&f);
    scratch_remove(dir);

    dir = scratch_queries("; facts\n(identifier) @ident\n  (call functon: (_)) @x\n");
    assert_int_equal(fx_open_cfg(&f, NULL, dir, 0), 0);
    assert_int_equal(fx_scan(&f, "x = 1\n"), -1);
    char want[256];
    snprintf(want, sizeof want, "%s/python/facts.scm:3:9: invalid query: invalid field", dir);
    assert_non_null(rec_get(&f.sink, REC_WARN, 0, want, NULL));
    assert_int_equal(fx_scan(&f, "y = 2\n"), -1); /* once failed, the same answer */
    fx_close(&f);
    fx_lazy = false;
    scratch_remove(dir);
}

static void test_invalid_facts_file(void **unused) {
    fx f;
    char want[256];
    const char *dir = scratch_queries("; facts\n(identifier) @ident\n  (call functon: (_)) @x\n");
    assert_int_equal(fx_open_cfg(&f, NULL, dir, 0), -1);
    snprintf(want, sizeof want, "%s/python/facts.scm:3:9: invalid query: invalid field", dir);
    assert_string_equal(f.err.msg, want);

    dir = scratch_queries("(identifier) @ident\n(call) @callee.site\n");
    assert_int_equal(fx_open_cfg(&f, NULL, dir, 0), -1);
    snprintf(want, sizeof want, "%s/python/facts.scm:2:8: unknown capture @callee.site", dir);
    assert_string_equal(f.err.msg, want);

    /* "_" captures are free for predicates; predicates are evaluated on facts too */
    dir = scratch_queries("((identifier) @ident @_i (#not-eq? @_i \"skip\"))\n");
    assert_int_equal(fx_open_cfg(&f, NULL, dir, 0), 0);
    assert_int_equal(fx_scan(&f, "keep = skip\n"), 0);
    assert_non_null(rec_get(&f.sink, REC_FACT, SUNSET_FACT_IDENT, "keep", NULL));
    assert_int_equal(rec_cnt(&f.sink, REC_FACT, SUNSET_FACT_IDENT, NULL, ANY), 1);
    fx_close(&f);

    scratch_remove(dir);
    assert_int_equal(fx_open_cfg(&f, NULL, dir, 0), -1);
    assert_non_null(strstr(f.err.msg, "python/facts.scm: cannot read: "));
}

static void test_match_limit(void **unused) {
    /* Every identifier of the argument list starts a match that waits for a later sibling, so
     * the in-progress matches outgrow a small limit. */
    static const struct sunset_rule lim[] = {
        {"PY-B", "((identifier) @i (#eq? @i \"b\"))", "", SUNSET_LANG_PYTHON},
        {"PY-LIM", "(argument_list (identifier) @a (identifier) @b)", "a", SUNSET_LANG_PYTHON},
    };
    struct sunset_ruleset rs = {&lim[1], 1};
    char code[4096] = "f(";
    for (int i = 0; i < 60; i++) strcat(code, "a, ");
    strcat(code, "b)\n");

    fx f;
    sunset_python_set_match_limit(8);
    fx_open(&f, &rs);
    sunset_python_set_match_limit(0);
    assert_int_equal(fx_scan(&f, code), 0);
    assert_non_null(
        warning_with(&f.sink, "query match limit hit for rule PY-LIM; matches may be missing"));
    fx_close(&f);

    fx_open(&f, &rs);
    assert_int_equal(fx_scan(&f, code), 0);
    assert_null(warning_with(&f.sink, "match limit"));
    assert_true(rec_cnt(&f.sink, REC_MATCH, 0, "PY-LIM", ANY) > 0);
    fx_close(&f);

    /* Two rules run in one walk; when that walk hits the limit, each rule runs alone: the
     * warning names the rule that hit it, and the other's match is reported exactly once. */
    rs = (struct sunset_ruleset){lim, 2};
    sunset_python_set_match_limit(8);
    fx_open(&f, &rs);
    sunset_python_set_match_limit(0);
    assert_int_equal(fx_scan(&f, code), 0);
    assert_non_null(
        warning_with(&f.sink, "query match limit hit for rule PY-LIM; matches may be missing"));
    assert_null(warning_with(&f.sink, "rule PY-B"));
    assert_int_equal(rec_cnt(&f.sink, REC_MATCH, 0, "PY-B", ANY), 1);
    /* a file under the limit takes the single walk */
    assert_int_equal(fx_scan(&f, "f(a, b)\n"), 0);
    assert_int_equal(rec_cnt(&f.sink, REC_WARN, 0, NULL, ANY), 0);
    assert_int_equal(rec_cnt(&f.sink, REC_MATCH, 0, "PY-LIM", ANY), 1);
    assert_int_equal(rec_cnt(&f.sink, REC_MATCH, 0, "PY-B", ANY), 1);
    fx_close(&f);
}

static char *repeat_wrap(const char *head, const char *open, const char *mid, const char *close,
                         int depth) {
    size_t n = strlen(head) + depth * (strlen(open) + strlen(close)) + strlen(mid) + 2;
    char *s = malloc(n), *p = s;
    assert_non_null(s);
    p += sprintf(p, "%s", head);
    for (int i = 0; i < depth; i++) p += sprintf(p, "%s", open);
    p += sprintf(p, "%s", mid);
    for (int i = 0; i < depth; i++) p += sprintf(p, "%s", close);
    sprintf(p, "\n");
    return s;
}

static void test_deep_nesting(void **unused) {
    static const struct {
        const char *open, *mid, *close;
    } shapes[] = {
        {"(", "1", ")"}, {"f(", "y", ")"}, {"[", "", "]"}, {"-", "z", ""}, {"a.", "b", ""},
        {"1 + ", "2", ""},
    };
    struct sunset_rule rule = {"PY-DEEP", "((identifier) @i (#eq? @i \"y\"))", "",
                               SUNSET_LANG_PYTHON};
    struct sunset_ruleset rs = {&rule, 1};
    fx f;
    fx_open(&f, &rs);
    for (size_t i = 0; i < sizeof shapes / sizeof *shapes; i++) {
        char *code = repeat_wrap("x = ", shapes[i].open, shapes[i].mid, shapes[i].close, 10000);
        assert_int_equal(fx_scan(&f, code), 0);
        assert_non_null(rec_get(&f.sink, REC_FACT, SUNSET_FACT_IDENT, "x", NULL));
        if (i == 1) {
            /* the innermost y sits in f's argument list; the match rule still fires */
            const rec *r = rec_get(&f.sink, REC_FACT, SUNSET_FACT_IDENT, "y", "f");
            check_span(r, 1, 5 + 2 * 10000, 1, 6 + 2 * 10000);
            assert_int_equal(rec_cnt(&f.sink, REC_FACT, SUNSET_FACT_CALL, "f", NULL), 10000);
            assert_int_equal(rec_cnt(&f.sink, REC_MATCH, 0, "PY-DEEP", ANY), 1);
        }
        if (i == 4) {
            /* every attribute waits for its name behind a 10,000-deep object: the facts query
             * hits the match limit, which must be reported */
            assert_non_null(
                warning_with(&f.sink, "query match limit hit for queries/python/facts.scm"));
        } else {
            assert_int_equal(rec_cnt(&f.sink, REC_WARN, 0, NULL, ANY), 0);
        }
        free(code);
    }
    fx_close(&f);
}

static void test_invalid_utf8(void **unused) {
    static const char code[] = "x = \"\xff\xfe caf\xc3\"\n"
                               "# \xc3\x28 ParallelExecutor \xf0\x28\x8c\n"
                               "\xff\xfe = 1\n"
                               "y = 'a\0b'\n"
                               "def f\xe9(): pass\n"
                               "def g(): pass\n";
    fx f;
    fx_open(&f, NULL);
    assert_int_equal(fx_scan_n(&f, code, sizeof code - 1), 0);
    const rec *r = rec_get(&f.sink, REC_TEXT, 0, "\xff\xfe caf\xc3", NULL);
    check_span(r, 1, 6, 1, 13);
    r = rec_get(&f.sink, REC_TEXT, 0, " \xc3\x28 ParallelExecutor \xf0\x28\x8c", NULL);
    assert_int_equal(r->ctx, SUNSET_CTX_COMMENT);
    check_span(rec_get(&f.sink, REC_FACT, SUNSET_FACT_DEF, "g", "function"), 6, 5, 6, 6);
    assert_non_null(rec_get(&f.sink, REC_SCOPE, 0, "g", "function"));
    fx_close(&f);
}

static void test_crlf(void **unused) {
    fx f;
    fx_open(&f, NULL);
    assert_int_equal(fx_scan(&f, "x = 1  # note\r\n"
                                 "def g():\r\n"
                                 "    \"\"\"Doc\r\n"
                                 "    more.\"\"\"\r\n"),
                     0);
    /* the comment ends before the CR; the docstring keeps its raw bytes */
    check_span(rec_get(&f.sink, REC_TEXT, 0, " note", NULL), 1, 9, 1, 14);
    const rec *r = rec_get(&f.sink, REC_TEXT, 0, "Doc\r\n    more.", NULL);
    assert_int_equal(r->ctx, SUNSET_CTX_DOCSTRING);
    check_start(r, 3, 8);
    check_span(rec_get(&f.sink, REC_SCOPE, 0, "g", "function"), 2, 0, 4, 0);
    fx_close(&f);
}

/* The time limit is the last guard, driven here by the fake clock (test/fakeclock.h): a
 * parse stopped by it is reported as the time limit, nothing of the file is kept, and the
 * cancelled parse is not resumed by the next file. The parser reads the text in chunks and
 * the clock is read at each, so a long parse looks at it as it advances. */
static void test_parse_budget(void **unused) {
    size_t n = 0, cap = 64u << 10; /* four chunks */
    char *code = malloc(cap);
    assert_non_null(code);
    while (n + 64 < cap)
        n += (size_t)sprintf(code + n, "x%zu = fluid.ParallelExecutor(a, b=c)\n", n);
    fx f;
    assert_int_equal(fx_open_cfg(&f, NULL, "queries", 100), 0);
    fake_clock_start(-1, 0); /* never up: analysed, the clock read once a chunk or more */
    assert_int_equal(fx_scan_n(&f, code, n), 0);
    assert_true(fake_clock_reads() > (long)(n / PARSE_CHUNK));
    assert_int_equal(rec_cnt(&f.sink, REC_WARN, 0, NULL, ANY), 0);
    assert_true(rec_cnt(&f.sink, REC_FACT, SUNSET_FACT_IDENT, NULL, ANY) > 1000);
    fake_clock_start(1, 0); /* up at the parser's first read */
    assert_int_equal(fx_scan_n(&f, code, n), -1);
    const rec *w = warning_with(&f.sink, "stopped by the time limit");
    assert_non_null(w);
    assert_string_equal(w->text, "stopped by the time limit (--parse-budget 100 ms) while parsing; "
                                 "file not analysed");
    assert_int_equal(rec_cnt(&f.sink, REC_WARN, 0, NULL, ANY), 1);
    assert_int_equal(rec_cnt(&f.sink, REC_FACT, SUNSET_FACT_IDENT, NULL, ANY), 0);
    fake_clock_start(-1, 0);
    assert_int_equal(fx_scan(&f, "import os\n"), 0);
    assert_non_null(rec_get(&f.sink, REC_FACT, SUNSET_FACT_IMPORT, "os", NULL));
    assert_int_equal(rec_cnt(&f.sink, REC_WARN, 0, NULL, ANY), 0);
    fake_clock_stop();
    fx_close(&f);
    free(code);
}

/* head, then link n times, then a newline; the caller frees */
static char *chain(const char *head, const char *link, int n) {
    char *s = malloc(strlen(head) + (size_t)n * strlen(link) + 2), *p = s;
    assert_non_null(s);
    p += sprintf(p, "%s", head);
    for (int i = 0; i < n; i++) p += sprintf(p, "%s", link);
    sprintf(p, "\n");
    return s;
}

static void test_chain_limit(void **unused) {
    /* `paddle.a.a...` 40,000 long and 10,000 method calls (20,000 links): the query cursor's
     * cost is quadratic in the chain (7.5 s and 2.9 s before the bound); refused at once with
     * a warning naming the chain's line and column */
    static const struct {
        const char *head, *link;
        int n;
        unsigned line;
    } chains[] = {{"x = paddle", ".a", 40000, 1}, {"x = 1\ny = a", ".b()", 10000, 2}};
    fx f;
    fx_open(&f, NULL);
    for (size_t i = 0; i < sizeof chains / sizeof *chains; i++) {
        char *code = chain(chains[i].head, chains[i].link, chains[i].n);
        assert_int_equal(fx_scan(&f, code), -1);
        const rec *r = warning_with(&f.sink, "skipped: a chain of more than 12000 attributes");
        assert_non_null(r);
        assert_int_equal(r->span.line, chains[i].line);
        assert_int_equal(r->span.col, 5);
        assert_int_equal(rec_cnt(&f.sink, REC_FACT, SUNSET_FACT_IDENT, NULL, ANY), 0);
        free(code);
    }
    /* the next file is analysed */
    assert_int_equal(fx_scan(&f, "import os\n"), 0);
    assert_non_null(rec_get(&f.sink, REC_FACT, SUNSET_FACT_IMPORT, "os", NULL));
    fx_close(&f);
}

/* Chains each under MAX_CHAIN but costly together (ten of 8,000 links took 7 s): refused
 * when their squared lengths sum to more than 12,000 squared, at the chain that crosses it,
 * whether they are in the part of the file a rule may match in or left out of it (the part
 * is held to what the units left out may need, so it is refused where the whole file is). */
static void test_chain_work_limit(void **unused) {
    sb code = {0};
    sb_puts(&code, "x = fluid.ParallelExecutor()\n");
    for (int k = 0; k < 3; k++) { /* 3 x 7,000 squared = 147,000,000 */
        char *c = chain("y = a", ".b", 7000);
        sb_puts(&code, c);
        free(c);
    }
    fx f;
    fx_open(&f, NULL);
    for (int part = 0; part < 2; part++) {
        int restarts = rec_restarts;
        rec_may_match_literal = part ? "ParallelExecutor" : NULL; /* the chains left out */
        assert_int_equal(fx_scan(&f, code.s), -1);
        rec_may_match_literal = NULL;
        const rec *r = warning_with(&f.sink, "skipped: the chains of attributes and calls up "
                                             "to this one have squared lengths summing to more "
                                             "than 12000 squared");
        assert_non_null(r);
        assert_int_equal(r->span.line, 4);
        assert_int_equal(r->span.col, 5);
        assert_int_equal(rec_cnt(&f.sink, REC_WARN, 0, NULL, ANY), 1);
        assert_int_equal(rec_cnt(&f.sink, REC_FACT, SUNSET_FACT_IDENT, NULL, ANY), 0);
        assert_int_equal(rec_restarts, restarts + part); /* the part refused: the whole file */
    }
    fx_close(&f);
    sb_free(&code);
    /* the same file with chains of 2,000 links (12,000,000): analysed */
    sb_puts(&code, "x = fluid.ParallelExecutor()\n");
    for (int k = 0; k < 3; k++) {
        char *c = chain("y = a", ".b", 2000);
        sb_puts(&code, c);
        free(c);
    }
    fx_open(&f, NULL);
    assert_int_equal(fx_scan(&f, code.s), 0);
    assert_int_equal(rec_cnt(&f.sink, REC_WARN, 0, NULL, ANY), 0);
    assert_true(rec_cnt(&f.sink, REC_FACT, SUNSET_FACT_ATTR, "b", ANY) >= 6000);
    fx_close(&f);
    sb_free(&code);
}

/* Which phase is a time-limit warning about: 1 the parse, 2 the queries, 3 the second
 * passes over docstrings' and comments' code; 0 none; -1 something else. */
static int time_phase(const sunset_sink *s) {
    static const char *const where[] = {"while parsing", "in the queries",
                                        "in the code of its docstrings and comments"};
    const rec *w = warning_with(s, "stopped by the time limit (--parse-budget 100 ms) ");
    if (!w) return rec_cnt(s, REC_WARN, 0, NULL, ANY) ? -1 : 0;
    for (int i = 0; i < 3; i++) {
        char want[160];
        snprintf(want, sizeof want, "stopped by the time limit (--parse-budget 100 ms) %s; "
                                    "file not analysed", where[i]);
        if (!strcmp(w->text, want)) return i + 1;
    }
    return -1;
}

/* The time limit wherever it falls: the fake clock is up at its k-th read, for every k of a
 * scan. Each stop is one warning naming the phase (parse, queries, then the docstrings'
 * code), in that order as k grows, and nothing of the file is kept, even when the first
 * pass was already emitted; from the last read on, the file is analysed. */
static void test_query_budget(void **unused) {
    sb code = {0};
    sb_puts(&code, "def f():\n    \"\"\"Example::\n\n        exe = fluid.ParallelExecutor(a)\n"
                   "    \"\"\"\n");
    for (int i = 0; i < 200; i++) sb_printf(&code, "x%d = fluid.ParallelExecutor(a, b=c[%d])\n", i, i);
    fx f;
    assert_int_equal(fx_open_cfg(&f, NULL, "queries", 100), 0);
    fake_clock_start(-1, 0);
    assert_int_equal(fx_scan(&f, code.s), 0);
    long reads = fake_clock_reads();
    size_t idents = rec_cnt(&f.sink, REC_FACT, SUNSET_FACT_IDENT, NULL, ANY);
    bool doc = false; /* the example's identifier: the second pass ran */
    for (size_t i = 0; i < f.sink.n; i++)
        doc = doc || (f.sink.recs[i].type == REC_FACT && f.sink.recs[i].ctx == SUNSET_CTX_DOCSTRING &&
                      str_is(f.sink.recs[i].text, "ParallelExecutor"));
    assert_true(doc);
    assert_int_equal(time_phase(&f.sink), 0);
    int last = 1, seen[4] = {0};
    for (long k = 1; k <= reads; k++) {
        fake_clock_start(k, 0);
        int rc = fx_scan(&f, code.s), phase = time_phase(&f.sink);
        if (k == reads) { /* the last read is the deadline's own: never up in time */
            assert_int_equal(rc, 0);
            assert_int_equal(phase, 0);
            assert_int_equal(rec_cnt(&f.sink, REC_FACT, SUNSET_FACT_IDENT, NULL, ANY), idents);
            continue;
        }
        if (phase < last) fprintf(stderr, "clock up at read %ld of %ld: phase %d after %d\n", k, reads, phase, last);
        assert_int_equal(rc, -1);
        assert_true(phase >= last);
        assert_int_equal(rec_cnt(&f.sink, REC_WARN, 0, NULL, ANY), 1);
        assert_int_equal(rec_cnt(&f.sink, REC_FACT, SUNSET_FACT_IDENT, NULL, ANY), 0);
        last = phase;
        seen[phase] = 1;
    }
    assert_true(seen[1] && seen[2] && seen[3]);
    fake_clock_stop();
    fx_close(&f);
    sb_free(&code);
}

static void test_regex_error(void **unused) {
    /* #match? on a dotted path of 850 components: the JIT's stack runs out, which was taken
     * as "no match"; the interpreter retry matches. A regex that fails in both (the match
     * limit) is a warning naming the rule and the position. */
    struct sunset_rule rules[] = {
        {"PY-DOTTED",
         "((string_content) @s (#match? @s \"^(paddle|fluid)(\\\\.\\\\w+)*\\\\.ExecutionStrategy$\"))", "",
         SUNSET_LANG_PYTHON},
        {"PY-BACKTRACK", "((string_content) @s (#match? @s \"^(a+)+$\"))", "", SUNSET_LANG_PYTHON},
    };
    struct sunset_ruleset rs = {rules, 2};
    char *dotted = chain("x = 'paddle", ".a", 850);
    size_t n = strlen(dotted);
    char *code = malloc(n + 64);
    assert_non_null(code);
    sprintf(code, "%.*s.ExecutionStrategy'\ny = '%s'\n", (int)n - 1, dotted,
            "aaaaaaaaaaaaaaaaaaaaaaaaaaaab");
    fx f;
    fx_open(&f, &rs);
    assert_int_equal(fx_scan(&f, code), 0);
    assert_int_equal(rec_cnt(&f.sink, REC_MATCH, 0, "PY-DOTTED", ANY), 1);
    assert_int_equal(rec_cnt(&f.sink, REC_MATCH, 0, "PY-BACKTRACK", ANY), 0);
    const rec *r = warning_with(&f.sink, "rule PY-BACKTRACK: regex error: match limit exceeded");
    assert_non_null(r);
    assert_int_equal(r->span.line, 2);
    assert_int_equal(r->span.col, 6);
    fx_close(&f);
    free(code);
    free(dotted);
}

/* Whether the failure armed by sunset_alloc_fail_after(k) is still pending, i.e. fewer than
 * k allocations happened since; disarms it either way. */
static bool failure_pending(long k) {
    bool pending = false;
    for (long i = 0; i < k && !pending; i++) {
        void *p = sunset_malloc(1);
        pending = p == NULL;
        sunset_free(p);
    }
    sunset_alloc_fail_after(0);
    return pending;
}

static void test_no_leaks_and_oom(void **unused) {
    struct sunset_ruleset rs = {pred_rules, 5};
    static const char code[] = "import paddle.fluid as fluid\n"
                               "class T(unittest.TestCase):\n"
                               "    \"\"\"Doc.\"\"\"\n"
                               "    def test(self):\n"
                               "        pe = fluid.ParallelExecutor(use_cuda=True)  # old\n"
                               "        pe.x = f\"a{b}c\" 'd'\n";
    long start = sunset_alloc_live();
    fx f;
    fx_open(&f, &rs);
    assert_int_equal(fx_scan(&f, code), 0);
    size_t full = f.sink.n;
    assert_true(full > 30);
    fx_close(&f);
    assert_int_equal(sunset_alloc_live(), start);

    /* Fail each allocation of init + worker_new in turn: an error, no leak. */
    long k;
    for (k = 1; k < 1000; k++) {
        sunset_alloc_fail_after(k);
        int rc = fx_open_cfg(&f, &rs, "queries", 0);
        bool pending = failure_pending(k);
        if (rc != 0) assert_true(f.err.msg[0] != 0 || (f.state && !f.worker));
        fe->worker_free(f.worker);
        fe->fini(f.state);
        assert_int_equal(sunset_alloc_live(), start);
        if (pending) break;
    }
    assert_true(k > 5 && k < 1000);

    /* Fail each allocation of a scan in turn: a warning, the scratch freed. */
    fx_open(&f, &rs);
    bool scan_failed = false;
    for (k = 1; k < 10000; k++) {
        long live = sunset_alloc_live();
        sunset_alloc_fail_after(k);
        int rc = fx_scan(&f, code);
        bool pending = failure_pending(k);
        if (rc != 0) {
            scan_failed = true;
            assert_non_null(warning_with(&f.sink, "out of memory"));
        }
        rec_reset(&f.sink);
        assert_int_equal(sunset_alloc_live(), live);
        if (pending) break;
    }
    assert_true(k > 5 && k < 10000);
    assert_true(scan_failed);
    assert_int_equal(fx_scan(&f, code), 0);
    assert_int_equal(f.sink.n, full);
    fx_close(&f);
}

/* ---- wildcards typed by where they stand ------------------------------------------------ */

/* The matches of query q over tree t, one line per capture: pattern, capture, symbol, bytes. */
static char *match_list(const char *q, TSTree *t) {
    uint32_t eoff;
    TSQueryError etype;
    TSQuery *query = ts_query_new(tree_sitter_python(), q, (uint32_t)strlen(q), &eoff, &etype);
    assert_non_null(query);
    TSQueryCursor *cur = ts_query_cursor_new();
    ts_query_cursor_exec(cur, query, ts_tree_root_node(t));
    sb out = {0};
    TSQueryMatch m;
    while (ts_query_cursor_next_match(cur, &m))
        for (uint16_t i = 0; i < m.capture_count; i++) {
            TSNode n = m.captures[i].node;
            assert_true(sb_printf(&out, "%u %u %s %u-%u\n", m.pattern_index, m.captures[i].index,
                                  ts_node_type(n), ts_node_start_byte(n), ts_node_end_byte(n)));
        }
    ts_query_cursor_delete(cur);
    ts_query_delete(query);
    return out.s ? sb_take(&out) : sunset_strndup("", 0);
}

/* facts.scm and the query rules write `(_ ...)` where the field or the only child type fixes
 * the node type: tree-sitter 0.20 analyses every typed step with children at init (~10-14M
 * instructions each for block, call, attribute, expression_statement), a wildcard not at all.
 * Each pair below matches the same nodes, over code with every form of them the grammar has
 * (one-line suites are aliased blocks, f-strings and concatenations hold strings, a syntax
 * error); and the shipped queries no longer spell the typed forms. */
static void test_wildcards_typed_by_place(void **unused) {
    static const char *const pairs[][2] = {
        {"(class_definition body: (block . (expression_statement) @s))",
         "(class_definition body: (_ . (expression_statement) @s))"},
        {"(function_definition body: (block [(expression_statement) (pass_statement)] @s))",
         "(function_definition body: (_ [(expression_statement) (pass_statement)] @s))"},
        {"(if_statement consequence: (block (expression_statement (assignment) @a) .))",
         "(if_statement consequence: (_ (_ (assignment) @a) .))"},
        {"(elif_clause consequence: (block (expression_statement (assignment) @a)))",
         "(elif_clause consequence: (_ (_ (assignment) @a)))"},
        {"(call function: (attribute attribute: (identifier) @f))",
         "(call function: (_ attribute: (identifier) @f))"},
        {"(assignment right: (call function: (_) @f))", "(assignment right: (_ function: (_) @f))"},
        {"(argument_list (string (string_content) @s))", "(argument_list (_ (string_content) @s))"},
        {"(comparison_operator (string (string_content) @s))",
         "(comparison_operator (_ (string_content) @s))"},
    };
    const char *code = "class A: \"doc\"\n"
                       "class B:\n    'doc'\n    def f(self): pass\n"
                       "def g(): x = a.b.ParallelExecutor(1)\n"
                       "if p: exe = fluid.ParallelExecutor(f'{x}s', 'a' 'b', b\"c\")\n"
                       "elif q:\n    y = 1; z = y.c(\"s\")\nelse: pass\n"
                       "if a == 'ParallelExecutor' or 'x' != f\"{a}\": w = x = z()(1)\n"
                       "while r: v += u.m()\n"
                       "def h(:\n    k = n.o('t')\n";
    TSParser *p = ts_parser_new();
    assert_true(ts_parser_set_language(p, tree_sitter_python()));
    TSTree *t = ts_parser_parse_string(p, NULL, code, (uint32_t)strlen(code));
    for (size_t i = 0; i < sizeof pairs / sizeof *pairs; i++) {
        char *typed = match_list(pairs[i][0], t), *wild = match_list(pairs[i][1], t);
        if (strcmp(typed, wild) != 0) fail_msg("%s\n%s\n!=\n%s\n%s", pairs[i][0], typed, pairs[i][1], wild);
        assert_true(*typed); /* the code has the form */
        sunset_free(typed);
        sunset_free(wild);
    }
    ts_tree_delete(t);
    ts_parser_delete(p);

    const char *typed_forms[] = {"body: (block", "consequence: (block", "(attribute attribute:",
                                 "(string (string_content)"};
    const char *files[] = {"queries/python/facts.scm", "rules/async-executor.json",
                           "rules/execution-strategy.json", "rules/legacy-tests.json",
                           "rules/parallel-executor.json"};
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
        char *text = NULL;
        size_t len = 0;
        assert_int_equal(read_file(files[i], 0, &text, &len), 0);
        for (size_t k = 0; k < sizeof typed_forms / sizeof *typed_forms; k++)
            if (strstr(text, typed_forms[k])) fail_msg("%s spells %s", files[i], typed_forms[k]);
        sunset_free(text);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_descriptor),
        cmocka_unit_test(test_imports),
        cmocka_unit_test(test_bases),
        cmocka_unit_test(test_calls_and_idents),
        cmocka_unit_test(test_attributes),
        cmocka_unit_test(test_kwargs),
        cmocka_unit_test(test_statement_range),
        cmocka_unit_test(test_bindings),
        cmocka_unit_test(test_container_bindings),
        cmocka_unit_test(test_param_arg_bindings),
        cmocka_unit_test(test_string_statement),
        cmocka_unit_test(test_docstring_code),
        cmocka_unit_test(test_masked_blank_lines),
        cmocka_unit_test(test_commented_out_code),
        cmocka_unit_test(test_markup_blocks),
        cmocka_unit_test(test_notebook_cells),
        cmocka_unit_test(test_contexts),
        cmocka_unit_test(test_scopes_and_defs),
        cmocka_unit_test(test_query_rules),
        cmocka_unit_test(test_wildcards_typed_by_place),
        cmocka_unit_test(test_invalid_rule_queries),
        cmocka_unit_test(test_invalid_facts_file),
        cmocka_unit_test(test_lazy_queries),
        cmocka_unit_test(test_match_limit),
        cmocka_unit_test(test_deep_nesting),
        cmocka_unit_test(test_invalid_utf8),
        cmocka_unit_test(test_crlf),
        cmocka_unit_test(test_units),
        cmocka_unit_test(test_part_parse),
        cmocka_unit_test(test_parse_budget),
        cmocka_unit_test(test_chain_limit),
        cmocka_unit_test(test_chain_work_limit),
        cmocka_unit_test(test_query_budget),
        cmocka_unit_test(test_regex_error),
        cmocka_unit_test(test_no_leaks_and_oom),
    };
    if (getenv("PY_TEST_FILTER")) cmocka_set_test_filter(getenv("PY_TEST_FILTER"));
    return cmocka_run_group_tests(tests, NULL, NULL);
}
