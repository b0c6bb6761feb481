/*
 * test_lang_clang.c — unit tests of the C/C++ frontend (src/lang/clang/), linked with the
 * fact recorder instead of the engine. Each test scans a snippet or a fixture under
 * testdata/clang/ (paths are relative to the repository root, where `make unit-tests` runs)
 * and checks the recorded facts, texts, scopes and warnings. The precise-mode test copies
 * testdata/clang/precise/ to a temporary directory and writes its compile_commands.json
 * there, so no committed file carries an absolute path.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ftw.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lang/clang/libclang.h"
#include "lang/registry.h"
#include "sunset.h"
#include "test/fakeclock.h"
#include "test/recorder.h"
#include "test/shell.h"
#include "base/util.h"

/* ---------------------------------------------------------------- sanitizers */

/* libclang 14 leaks its copy of a CXUnsavedFile buffer when clang_parseTranslationUnit2
 * fails, which test_unparseable_file does on purpose. These hooks (read only by ASan/LSan
 * builds; user ASAN_OPTIONS/LSAN_OPTIONS still win) suppress exactly that frame, the same
 * entry as testdata/clang/lsan.supp. The frame is inside libLLVM, built without frame
 * pointers, hence the slow unwinder. sunset's own allocations are checked separately, by
 * sunset_alloc_live() in every teardown. */
const char *__asan_default_options(void);
const char *__lsan_default_suppressions(void);
const char *__asan_default_options(void) { return "fast_unwind_on_malloc=0"; }
const char *__lsan_default_suppressions(void) {
    return "leak:llvm::MemoryBuffer::getMemBufferCopy\n";
}

/* ---------------------------------------------------------------- harness */

typedef struct fixture {
    void *state, *worker;
    sunset_sink sink;
    long live_before;
} fixture;

static int setup_cfg(void **ts, const sunset_frontend_config *cfg) {
    fixture *f = calloc(1, sizeof *f);
    if (!f) return -1;
    f->live_before = sunset_alloc_live();
    sunset_error err = {{0}};
    if (sunset_frontend_clang.init(cfg, &f->state, &err) != 0) {
        fprintf(stderr, "init: %s\n", err.msg);
        free(f);
        return -1;
    }
    f->worker = sunset_frontend_clang.worker_new(f->state);
    if (!f->worker) {
        sunset_frontend_clang.fini(f->state);
        free(f);
        return -1;
    }
    *ts = f;
    return 0;
}

static int setup(void **ts) {
    sunset_frontend_config cfg = {0};
    return setup_cfg(ts, &cfg);
}

static int teardown(void **ts) {
    fixture *f = *ts;
    rec_reset(&f->sink);
    sunset_frontend_clang.worker_free(f->worker);
    sunset_frontend_clang.fini(f->state);
    long leaked = sunset_alloc_live() - f->live_before;
    free(f);
    if (leaked) fprintf(stderr, "teardown: %ld allocations leaked\n", leaked);
    return leaked ? -1 : 0;
}

static int scan_src(fixture *f, const char *path, const char *fspath, const char *code,
                    size_t len) {
    rec_reset(&f->sink);
    sunset_source src = {path, fspath, code, len, SUNSET_LANG_CPP};
    int rc = sunset_frontend_clang.scan(f->worker, &src, &f->sink);
    if (getenv("SUNSET_TEST_DUMP")) rec_dump(&f->sink);
    return rc;
}

static int scan_code(fixture *f, const char *code) {
    return scan_src(f, "snippet.cc", NULL, code, strlen(code));
}

static char *slurp(const char *path, size_t *len) {
    char *data = NULL;
    int e = read_file(path, 0, &data, len);
    if (e) fprintf(stderr, "%s: cannot read (run from the repository root)\n", path);
    assert_int_equal(e, 0);
    return data;
}

static int scan_file(fixture *f, const char *path) {
    size_t len;
    char *data = slurp(path, &len);
    int rc = scan_src(f, path, path, data, len);
    sunset_free(data);
    return rc;
}

static bool streq_or_null(const char *a, const char *b) {
    if (!b) return true;
    return a && strcmp(a, b) == 0;
}

/* The first fact of `kind` with this text (and aux / line when given, line 0 = any). */
static const rec *fact(const sunset_sink *s, sunset_fact_kind kind, const char *text,
                       const char *aux, uint32_t line) {
    for (size_t i = 0; i < s->n; i++) {
        const rec *r = &s->recs[i];
        if (r->type != REC_FACT || r->kind != kind) continue;
        if (!streq_or_null(r->text, text) || !streq_or_null(r->aux, aux)) continue;
        if (line && r->span.line != line) continue;
        return r;
    }
    return NULL;
}

static size_t fact_count(const sunset_sink *s, sunset_fact_kind kind, const char *text,
                         const char *aux) {
    size_t n = 0;
    for (size_t i = 0; i < s->n; i++) {
        const rec *r = &s->recs[i];
        n += r->type == REC_FACT && r->kind == kind && streq_or_null(r->text, text) &&
             streq_or_null(r->aux, aux);
    }
    return n;
}

/* The first text (comment/string) of ctx containing `needle`. */
static const rec *text_with(const sunset_sink *s, sunset_context ctx, const char *needle) {
    for (size_t i = 0; i < s->n; i++) {
        const rec *r = &s->recs[i];
        if (r->type == REC_TEXT && r->ctx == ctx && strstr(r->text, needle)) return r;
    }
    return NULL;
}

static const rec *scope(const sunset_sink *s, const char *kind, const char *name,
                        uint32_t start) {
    for (size_t i = 0; i < s->n; i++) {
        const rec *r = &s->recs[i];
        if (r->type == REC_SCOPE && strcmp(r->aux, kind) == 0 && strcmp(r->text, name) == 0 &&
            (!start || r->span.line == start))
            return r;
    }
    return NULL;
}

static void assert_span(const rec *r, uint32_t line, uint32_t col, uint32_t end_line,
                        uint32_t end_col) {
    assert_non_null(r);
    assert_int_equal(r->span.line, line);
    assert_int_equal(r->span.col, col);
    assert_int_equal(r->span.end_line, end_line);
    assert_int_equal(r->span.end_col, end_col);
}

static void assert_scope(const sunset_sink *s, const char *kind, const char *name,
                         uint32_t start, uint32_t end) {
    const rec *r = scope(s, kind, name, start);
    if (!r) {
        fprintf(stderr, "no %s scope %s at line %u\n", kind, name, start);
        rec_dump(s);
    }
    assert_non_null(r);
    assert_int_equal(r->span.end_line, end);
}

/* ---------------------------------------------------------------- contexts */

static void test_code_comment_string(void **ts) {
    fixture *f = *ts;
    const char *code = "// uses ParallelExecutor here\n"
                       "void f() {\n"
                       "  ParallelExecutor *pe = Make(\"ParallelExecutor::Run\");\n"
                       "  /* block: ParallelExecutor */ char c = 'P';\n"
                       "}\n";
    assert_int_equal(scan_code(f, code), 0);

    const rec *id = fact(&f->sink, SUNSET_FACT_IDENT, "ParallelExecutor", NULL, 0);
    assert_span(id, 3, 3, 3, 19);
    assert_int_equal(id->ctx, SUNSET_CTX_CODE);
    assert_null(id->aux);
    assert_null(id->qual);
    assert_int_equal(fact_count(&f->sink, SUNSET_FACT_IDENT, "ParallelExecutor", NULL), 1);

    const rec *cm = text_with(&f->sink, SUNSET_CTX_COMMENT, "uses ParallelExecutor");
    assert_non_null(cm);
    assert_string_equal(cm->text, " uses ParallelExecutor here");
    assert_int_equal(cm->span.line, 1);
    assert_int_equal(cm->span.col, 3); /* just after the // */

    const rec *bc = text_with(&f->sink, SUNSET_CTX_COMMENT, "block:");
    assert_non_null(bc);
    assert_string_equal(bc->text, " block: ParallelExecutor ");
    assert_int_equal(bc->span.line, 4);
    assert_int_equal(bc->span.col, 5);

    const rec *st = text_with(&f->sink, SUNSET_CTX_STRING, "ParallelExecutor");
    assert_non_null(st);
    assert_string_equal(st->text, "ParallelExecutor::Run");
    assert_int_equal(st->span.line, 3);
    assert_int_equal(st->span.col, 32); /* first byte after the quote */
    assert_non_null(st->aux);
    assert_string_equal(st->aux, "Make");

    /* a character literal is not a string; identifiers in comments are not IDENT facts */
    for (size_t i = 0; i < f->sink.n; i++)
        if (f->sink.recs[i].type == REC_TEXT) assert_string_not_equal(f->sink.recs[i].text, "P");
    assert_int_equal(rec_count(&f->sink, REC_TEXT, 0, NULL), 3);
}

static void test_string_literal_forms(void **ts) {
    fixture *f = *ts;
    const char *code = "const char *a = R\"DOC(raw \"ParallelExecutor\" (x))DOC\";\n"
                       "const char *b = u8R\"(SSAGraphExecutor)\";\n"
                       "const wchar_t *c = L\"wide\";\n"
                       "auto d = u\"sixteen\" U\"thirty-two\";\n"
                       "auto e = \"with suffix\"_sv;\n"
                       "char g = u8'x';\n"
                       "auto h = R\"x(multi\nline)x\";\n";
    assert_int_equal(scan_code(f, code), 0);
    const rec *r = text_with(&f->sink, SUNSET_CTX_STRING, "raw");
    assert_non_null(r);
    assert_string_equal(r->text, "raw \"ParallelExecutor\" (x)");
    assert_int_equal(r->span.line, 1);
    assert_int_equal(r->span.col, 23); /* after R"DOC( */
    r = text_with(&f->sink, SUNSET_CTX_STRING, "SSAGraphExecutor");
    assert_non_null(r);
    assert_string_equal(r->text, "SSAGraphExecutor");
    assert_int_equal(r->span.col, 22);
    assert_string_equal(text_with(&f->sink, SUNSET_CTX_STRING, "wide")->text, "wide");
    assert_string_equal(text_with(&f->sink, SUNSET_CTX_STRING, "sixteen")->text, "sixteen");
    assert_string_equal(text_with(&f->sink, SUNSET_CTX_STRING, "thirty")->text, "thirty-two");
    assert_string_equal(text_with(&f->sink, SUNSET_CTX_STRING, "suffix")->text, "with suffix");
    r = text_with(&f->sink, SUNSET_CTX_STRING, "multi");
    assert_non_null(r);
    assert_string_equal(r->text, "multi\nline");
    assert_int_equal(r->span.line, 7);
    assert_int_equal(rec_count(&f->sink, REC_TEXT, 0, NULL), 7);
}

/* ---------------------------------------------------------------- statements */

/* The statement recorded for the fact (or string, kind 0) whose text is `text` on `line`. */
static sunset_span stmt_of(const sunset_sink *s, rec_type type, const char *text, uint32_t line) {
    for (size_t i = 0; i < s->n; i++) {
        const rec *r = &s->recs[i];
        if (r->type == type && (type != REC_FACT || r->kind == SUNSET_FACT_IDENT) && r->span.line == line &&
            r->text && strcmp(r->text, text) == 0)
            return r->stmt;
    }
    fail_msg("no %s on line %u", text, line);
    return (sunset_span){0, 0, 0, 0};
}

static void assert_lines(sunset_span got, uint32_t line, uint32_t end_line) {
    assert_int_equal(got.line, line);
    assert_int_equal(got.end_line, end_line);
}

/* Every identifier's and string's statement is left to the engine to ask (sunset_emit_lazy):
 * asked, it is the statement the frontend computed for every token before (values checked
 * against that code): a condition's short branch, a simple statement over several lines, a
 * stream insertion's, a chained call element's; none for a one-line statement. */
static void test_statements_asked(void **ts) {
    fixture *f = *ts;
    const char *code = "void f(bool on) {\n"                                  /* 1 */
                       "  if (UseParallelExecutor(on)) {\n"                    /* 2 */
                       "    Run();\n"                                          /* 3 */
                       "  }\n"                                                 /* 4 */
                       "  auto pe = std::make_unique<ParallelExecutor>(\n"     /* 5 */
                       "      places,\n"                                       /* 6 */
                       "      scope);\n"                                       /* 7 */
                       "  int one = Plain(x);\n"                               /* 8 */
                       "  os << \"label: \"\n"                                  /* 9 */
                       "     << pe->x_ << std::endl;\n"                        /* 10 */
                       "  auto r = Registry::Get(\n"                            /* 11 */
                       "      \"x_pass\");\n"                                   /* 12 */
                       "  py::class_<X>(m, \"X\")\n"                             /* 13 */
                       "      .def_property(\n"                                 /* 14 */
                       "          \"name\",\n"                                    /* 15 */
                       "          [](const X &self) { return self.y; });\n"    /* 16 */
                       "}\n";
    rec_lazy_stmts = 0;
    assert_int_equal(scan_code(f, code), 0);
    const sunset_sink *s = &f->sink;
    assert_lines(stmt_of(s, REC_FACT, "UseParallelExecutor", 2), 2, 4);
    assert_lines(stmt_of(s, REC_FACT, "ParallelExecutor", 5), 5, 7);
    assert_lines(stmt_of(s, REC_FACT, "places", 6), 0, 0); /* inside the call's parentheses */
    assert_lines(stmt_of(s, REC_FACT, "pe", 10), 9, 10);
    assert_lines(stmt_of(s, REC_FACT, "Plain", 8), 0, 0);
    assert_lines(stmt_of(s, REC_TEXT, "label: ", 9), 9, 10);
    assert_lines(stmt_of(s, REC_TEXT, "x_pass", 12), 11, 12);
    assert_lines(stmt_of(s, REC_FACT, "def_property", 14), 13, 16);
    assert_lines(stmt_of(s, REC_TEXT, "X", 13), 13, 16);
    assert_lines(stmt_of(s, REC_TEXT, "name", 15), 14, 16);
    assert_lines(stmt_of(s, REC_FACT, "self", 16), 14, 16);
    /* asked of every identifier and string literal: the recorder asks them all */
    size_t idents = rec_count(s, REC_FACT, SUNSET_FACT_IDENT, NULL), strings = 0;
    for (size_t i = 0; i < s->n; i++) strings += s->recs[i].type == REC_TEXT && s->recs[i].ctx == SUNSET_CTX_STRING;
    assert_int_equal((size_t)rec_lazy_stmts, idents + strings);
}

/* A token's span: one on one line ends on it, one spliced over two lines (backslash-newline)
 * ends on the second, and the file's last line, with no newline after it, holds its tokens. */
static void test_token_spans(void **ts) {
    fixture *f = *ts;
    const char *code = "int a;\n"
                       "int Parallel\\\nExecutor = 1;\n"
                       "int last";
    assert_int_equal(scan_code(f, code), 0);
    assert_span(fact(&f->sink, SUNSET_FACT_IDENT, "a", NULL, 0), 1, 5, 1, 6);
    assert_span(fact(&f->sink, SUNSET_FACT_IDENT, "ParallelExecutor", NULL, 0), 2, 5, 3, 9);
    assert_span(fact(&f->sink, SUNSET_FACT_IDENT, "last", NULL, 0), 4, 5, 4, 9);
}

/* ---------------------------------------------------------------- classes and bases */

static void test_if_elif_else_bases(void **ts) {
    fixture *f = *ts;
    assert_int_equal(scan_file(f, "testdata/clang/branches_op_handle.h"), 0);
    const sunset_sink *s = &f->sink;

    const rec *b = fact(s, SUNSET_FACT_BASE, "NCCLOpHandleBase", "AllReduceOpHandle", 18);
    assert_span(b, 18, 34, 18, 50);
    assert_non_null(fact(s, SUNSET_FACT_BASE, "BKCLOpHandleBase", "AllReduceOpHandle", 22));
    assert_non_null(fact(s, SUNSET_FACT_BASE, "OpHandleBase", "AllReduceOpHandle", 26));
    assert_int_equal(fact_count(s, SUNSET_FACT_BASE, NULL, NULL), 3);

    /* three class definitions, each name flagged as a definition */
    assert_int_equal(fact_count(s, SUNSET_FACT_DEF, "AllReduceOpHandle", "class"), 3);
    for (uint32_t line = 18; line <= 26; line += 4) {
        const rec *id = fact(s, SUNSET_FACT_IDENT, "AllReduceOpHandle", NULL, line);
        assert_non_null(id);
        assert_true(id->flags & SUNSET_FACT_DEFINITION);
        assert_scope(s, "class", "AllReduceOpHandle", line, 35);
    }
    /* the constructor is declared in every branch, though libclang parses only some */
    assert_int_equal(fact_count(s, SUNSET_FACT_DEF, "AllReduceOpHandle", "method"), 3);
    assert_non_null(fact(s, SUNSET_FACT_DEF, "Name", "method", 30));

    /* the brace balance survives the three openings: later scopes are right */
    assert_scope(s, "struct", "Helper", 37, 39);
    assert_scope(s, "method", "Helper::Count", 38, 38);
    assert_scope(s, "namespace", "paddle", 13, 43);
    assert_scope(s, "namespace", "details", 15, 41);
}

static void test_final_and_qualified_bases(void **ts) {
    fixture *f = *ts;
    const char *code =
        "namespace paddle { namespace framework { namespace details {\n"
        "class FastThreadedSSAGraphExecutor final : public SSAGraphExecutor {\n"
        " public:\n"
        "  FetchResultType Run(const std::vector<std::string> &fetch_tensors) override;\n"
        "};\n"
        "}  // namespace details\n"
        "struct FetchOpHandle : public details::OpHandleBase {\n"
        "  int x;\n"
        "};\n"
        "template <typename T>\n"
        "class PADDLE_API Multi : public A, protected virtual ns::B<T, std::pair<int, int>>,\n"
        "                         private ::C {};\n"
        "enum class Kind : int { kA, kB };\n"
        "struct Fwd;\n"
        "void Use(struct Fwd *p, class Other &o);\n"
        "}}\n";
    assert_int_equal(scan_code(f, code), 0);
    const sunset_sink *s = &f->sink;
    const rec *b = fact(s, SUNSET_FACT_BASE, "SSAGraphExecutor", NULL, 0);
    assert_span(b, 2, 51, 2, 67);
    assert_string_equal(b->aux, "FastThreadedSSAGraphExecutor");
    assert_non_null(fact(s, SUNSET_FACT_DEF, "FastThreadedSSAGraphExecutor", "class", 2));
    assert_true(fact(s, SUNSET_FACT_IDENT, "FastThreadedSSAGraphExecutor", NULL, 2)->flags &
                SUNSET_FACT_DEFINITION);
    assert_non_null(fact(s, SUNSET_FACT_DEF, "Run", "method", 4));
    assert_scope(s, "class", "FastThreadedSSAGraphExecutor", 2, 5);

    b = fact(s, SUNSET_FACT_BASE, "details::OpHandleBase", "FetchOpHandle", 7);
    assert_span(b, 7, 31, 7, 52);
    assert_non_null(fact(s, SUNSET_FACT_DEF, "FetchOpHandle", "struct", 7));
    assert_scope(s, "struct", "FetchOpHandle", 7, 9);

    assert_non_null(fact(s, SUNSET_FACT_BASE, "A", "Multi", 11));
    assert_non_null(fact(s, SUNSET_FACT_BASE, "ns::B<T,std::pair<int,int>>", "Multi", 11));
    assert_non_null(fact(s, SUNSET_FACT_BASE, "::C", "Multi", 12));
    assert_int_equal(fact_count(s, SUNSET_FACT_BASE, NULL, "Multi"), 3);
    assert_scope(s, "class", "Multi", 10, 12); /* starts at its template header */
    assert_null(fact(s, SUNSET_FACT_DEF, "PADDLE_API", NULL, 0));

    /* enums, forward declarations and elaborated types define no class */
    assert_null(fact(s, SUNSET_FACT_DEF, "Kind", NULL, 0));
    assert_null(fact(s, SUNSET_FACT_DEF, "Fwd", NULL, 0));
    assert_null(fact(s, SUNSET_FACT_DEF, "Other", NULL, 0));
    assert_int_equal(fact_count(s, SUNSET_FACT_BASE, NULL, NULL), 5);
}

/* ---------------------------------------------------------------- includes */

static void test_includes(void **ts) {
    fixture *f = *ts;
    const char *code = "#include \"paddle/fluid/framework/parallel_executor.h\"\n"
                       "#include <paddle/fluid/framework/details/op_handle_base.h>\n"
                       "#ifdef PADDLE_WITH_NCCL\n"
                       "#  include \"paddle/fluid/framework/details/nccl_op_handle.h\"  // nccl\n"
                       "#else\n"
                       "#include_next <vector>\n"
                       "#endif\n"
                       "#include MACRO_HEADER\n";
    assert_int_equal(scan_code(f, code), 0);
    const sunset_sink *s = &f->sink;
    assert_span(fact(s, SUNSET_FACT_INCLUDE, "paddle/fluid/framework/parallel_executor.h", NULL,
                     0),
                1, 11, 1, 53);
    assert_span(fact(s, SUNSET_FACT_INCLUDE, "paddle/fluid/framework/details/op_handle_base.h",
                     NULL, 0),
                2, 11, 2, 58);
    assert_span(fact(s, SUNSET_FACT_INCLUDE, "paddle/fluid/framework/details/nccl_op_handle.h",
                     NULL, 0),
                4, 13, 4, 60);
    assert_non_null(fact(s, SUNSET_FACT_INCLUDE, "vector", NULL, 6));
    assert_int_equal(fact_count(s, SUNSET_FACT_INCLUDE, NULL, NULL), 4);
    /* include paths are not identifiers or strings; the trailing comment is a comment */
    assert_null(fact(s, SUNSET_FACT_IDENT, "paddle", NULL, 0));
    assert_null(fact(s, SUNSET_FACT_IDENT, "include", NULL, 0));
    assert_null(text_with(s, SUNSET_CTX_STRING, "parallel_executor"));
    assert_non_null(text_with(s, SUNSET_CTX_COMMENT, "nccl"));
    assert_non_null(fact(s, SUNSET_FACT_IDENT, "PADDLE_WITH_NCCL", NULL, 3));
}

/* ---------------------------------------------------------------- macros and calls */

static void test_macro_argument_aux(void **ts) {
    fixture *f = *ts;
    const char *code =
        "USE_PASS(fix_op_run_order_pass);\n"
        "PHI_DEFINE_EXPORTED_bool(enable_pe_launch_cinn, true, \"launch CINN with PE\");\n"
        "void f(int fetch_tensors) {\n"
        "  PADDLE_ENFORCE_EQ(Check(places_), num_threads_, \"msg\");\n"
        "  if (strategy_) Run(fetch_tensors);\n"
        "}\n"
        "#define USE_PE_PASS(name) USE_PASS(name)\n"
        "void Bind(py::module &m) {\n"
        "  py::class_<BuildStrategy> build_strategy(pe, \"BuildStrategy\");\n"
        "}\n";
    assert_int_equal(scan_code(f, code), 0);
    const sunset_sink *s = &f->sink;
    const rec *r = fact(s, SUNSET_FACT_IDENT, "fix_op_run_order_pass", NULL, 1);
    assert_non_null(r);
    assert_string_equal(r->aux, "USE_PASS");
    assert_span(r, 1, 10, 1, 31);
    r = fact(s, SUNSET_FACT_IDENT, "enable_pe_launch_cinn", NULL, 2);
    assert_non_null(r);
    assert_string_equal(r->aux, "PHI_DEFINE_EXPORTED_bool");
    assert_string_equal(text_with(s, SUNSET_CTX_STRING, "launch CINN")->aux,
                        "PHI_DEFINE_EXPORTED_bool");
    assert_null(fact(s, SUNSET_FACT_IDENT, "USE_PASS", NULL, 1)->aux);
    assert_non_null(fact(s, SUNSET_FACT_CALL, "USE_PASS", NULL, 1));
    assert_non_null(fact(s, SUNSET_FACT_CALL, "PHI_DEFINE_EXPORTED_bool", NULL, 2));

    /* innermost call wins; a parameter list is not a call */
    assert_string_equal(fact(s, SUNSET_FACT_IDENT, "places_", NULL, 4)->aux, "Check");
    assert_string_equal(fact(s, SUNSET_FACT_IDENT, "num_threads_", NULL, 4)->aux,
                        "PADDLE_ENFORCE_EQ");
    assert_null(fact(s, SUNSET_FACT_IDENT, "fetch_tensors", NULL, 3)->aux);
    assert_null(fact(s, SUNSET_FACT_IDENT, "strategy_", NULL, 5)->aux);
    assert_string_equal(fact(s, SUNSET_FACT_IDENT, "fetch_tensors", NULL, 5)->aux, "Run");

    /* a macro definition */
    const rec *d = fact(s, SUNSET_FACT_DEF, "USE_PE_PASS", "macro", 7);
    assert_span(d, 7, 9, 7, 20);
    assert_true(fact(s, SUNSET_FACT_IDENT, "USE_PE_PASS", NULL, 7)->flags &
                SUNSET_FACT_DEFINITION);
    assert_non_null(fact(s, SUNSET_FACT_CALL, "USE_PASS", NULL, 7));
    assert_null(fact(s, SUNSET_FACT_CALL, "USE_PE_PASS", NULL, 0));
    assert_null(fact(s, SUNSET_FACT_IDENT, "define", NULL, 0));

    /* direct initialisation in a body: the variable is the arguments' enclosing call,
     * but no CALL fact (it is not a call) */
    assert_string_equal(fact(s, SUNSET_FACT_IDENT, "pe", NULL, 9)->aux, "build_strategy");
    assert_null(fact(s, SUNSET_FACT_CALL, "build_strategy", NULL, 9));
}

static void test_member_access(void **ts) {
    fixture *f = *ts;
    const char *code =
        "void Apply(BuildStrategy &build_strategy) {\n"
        "  build_strategy.enable_sequential_execution_ = true;\n"
        "  if (strategy_.num_threads_ == 1) {}\n"
        "  this->strategy_.use_device_ += 1;\n"
        "  auto n = member_->places_.size();\n"
        "  ir::PassRegistry::Instance().Get(\"fuse_all_reduce_op_pass\")->Apply(g);\n"
        "  graphs[i]->Set(kStrategy, x).template Get<int>();\n"
        "}\n";
    assert_int_equal(scan_code(f, code), 0);
    const sunset_sink *s = &f->sink;
    const rec *a = fact(s, SUNSET_FACT_ATTR, "enable_sequential_execution_", NULL, 2);
    assert_span(a, 2, 18, 2, 46);
    assert_string_equal(a->aux, "build_strategy");
    assert_true(a->flags & SUNSET_FACT_STORE);
    a = fact(s, SUNSET_FACT_ATTR, "num_threads_", NULL, 3);
    assert_string_equal(a->aux, "strategy_");
    assert_false(a->flags & SUNSET_FACT_STORE); /* == is not a store */
    assert_string_equal(fact(s, SUNSET_FACT_ATTR, "strategy_", NULL, 4)->aux, "this");
    a = fact(s, SUNSET_FACT_ATTR, "use_device_", NULL, 4);
    assert_string_equal(a->aux, "this->strategy_");
    assert_true(a->flags & SUNSET_FACT_STORE);
    assert_string_equal(fact(s, SUNSET_FACT_ATTR, "places_", NULL, 5)->aux, "member_");
    assert_string_equal(fact(s, SUNSET_FACT_ATTR, "size", NULL, 5)->aux, "member_->places_");
    assert_string_equal(fact(s, SUNSET_FACT_ATTR, "Get", NULL, 6)->aux,
                        "ir::PassRegistry::Instance()");
    assert_string_equal(fact(s, SUNSET_FACT_ATTR, "Apply", NULL, 6)->aux,
                        "ir::PassRegistry::Instance().Get(\"fuse_all_reduce_op_pass\")");
    assert_string_equal(fact(s, SUNSET_FACT_ATTR, "Set", NULL, 7)->aux, "graphs[i]");
    assert_string_equal(fact(s, SUNSET_FACT_ATTR, "Get", NULL, 7)->aux,
                        "graphs[i]->Set(kStrategy,x)");
    /* member names are identifiers too */
    assert_non_null(fact(s, SUNSET_FACT_IDENT, "num_threads_", NULL, 3));
    assert_int_equal(fact_count(s, SUNSET_FACT_ATTR, NULL, NULL), 10);
}

static void test_calls(void **ts) {
    fixture *f = *ts;
    const char *code =
        "std::unique_ptr<ParallelExecutor> Make(const std::vector<Place> &places);\n"
        "void Build(Scope *scope) {\n"
        "  auto pe = std::make_shared<ParallelExecutor>(places, scope);\n"
        "  auto *op = new details::FetchOpHandle(node, &fetches);\n"
        "  ParallelExecutor local(places, scope);\n"
        "  framework::details::ExecutionStrategy::Create();\n"
        "  auto *h = dynamic_cast<details::OpHandleBase *>(op);\n"
        "  return ::paddle::Done(Wrapper<details::OpHandleBase>());\n"
        "}\n";
    assert_int_equal(scan_code(f, code), 0);
    const sunset_sink *s = &f->sink;
    const rec *c = fact(s, SUNSET_FACT_CALL, "std::make_shared", NULL, 3);
    assert_span(c, 3, 13, 3, 29);
    assert_string_equal(fact(s, SUNSET_FACT_IDENT, "places", NULL, 3)->aux, "make_shared");
    assert_null(fact(s, SUNSET_FACT_IDENT, "ParallelExecutor", NULL, 3)->aux);
    assert_non_null(fact(s, SUNSET_FACT_CALL, "details::FetchOpHandle", NULL, 4));
    assert_non_null(fact(s, SUNSET_FACT_CALL, "framework::details::ExecutionStrategy::Create",
                         NULL, 6));
    assert_non_null(fact(s, SUNSET_FACT_CALL, "::paddle::Done", NULL, 8));
    assert_non_null(fact(s, SUNSET_FACT_CALL, "Wrapper", NULL, 8));
    /* declarations and casts are not calls */
    assert_null(fact(s, SUNSET_FACT_CALL, "Make", NULL, 0));
    assert_null(fact(s, SUNSET_FACT_CALL, "Build", NULL, 0));
    assert_null(fact(s, SUNSET_FACT_CALL, "local", NULL, 0));
    assert_null(fact(s, SUNSET_FACT_CALL, "dynamic_cast", NULL, 0));
    assert_int_equal(fact_count(s, SUNSET_FACT_CALL, NULL, NULL), 5);
    assert_non_null(fact(s, SUNSET_FACT_DEF, "Make", "function", 1));
    assert_non_null(fact(s, SUNSET_FACT_DEF, "Build", "function", 2));
}

/* ---------------------------------------------------------------- scopes */

static void test_scopes(void **ts) {
    fixture *f = *ts;
    assert_int_equal(scan_file(f, "testdata/clang/scopes.cc"), 0);
    const sunset_sink *s = &f->sink;
    assert_scope(s, "namespace", "paddle", 3, 50);
    assert_scope(s, "namespace", "framework", 4, 49);
    assert_scope(s, "class", "ParallelExecutorPrivate", 6, 23);
    assert_scope(s, "method", "ParallelExecutorPrivate::ParallelExecutorPrivate", 8, 11);
    assert_scope(s, "method", "ParallelExecutorPrivate::~ParallelExecutorPrivate", 12, 12);
    assert_scope(s, "method", "ParallelExecutorPrivate::IsUseCUDA", 13, 13);
    assert_scope(s, "class", "ParallelExecutorPrivate::Guard", 15, 18);
    assert_scope(s, "method", "ParallelExecutorPrivate::Guard::Release", 17, 17);
    assert_scope(s, "method", "ParallelExecutor::Run", 25, 27); /* class not declared here */
    assert_scope(s, "function", "MakeExecutor", 29, 33);
    assert_scope(s, "namespace", "(anonymous)", 35, 37);
    assert_scope(s, "function", "Helper", 36, 36);
    assert_scope(s, "function", "Sync", 40, 45); /* both #ifdef heads share one body */
    assert_scope(s, "function", "Sync", 42, 45);
    assert_scope(s, "function", "After", 47, 47);
    assert_scope(s, "function", "TEST(ParallelExecutor, Run)", 52, 54);
    assert_int_equal(rec_count(s, REC_SCOPE, 0, NULL), 16);

    const rec *d = fact(s, SUNSET_FACT_DEF, "Run", "method", 25);
    assert_span(d, 25, 24, 25, 27);
    assert_true(fact(s, SUNSET_FACT_IDENT, "Run", NULL, 25)->flags & SUNSET_FACT_DEFINITION);
    assert_false(fact(s, SUNSET_FACT_IDENT, "ParallelExecutor", NULL, 25)->flags &
                 SUNSET_FACT_DEFINITION);
    assert_non_null(fact(s, SUNSET_FACT_DEF, "~ParallelExecutorPrivate", "method", 12));
    assert_null(fact(s, SUNSET_FACT_DEF, "TEST", NULL, 0));
    /* constructor initializers are calls, not function definitions */
    assert_non_null(fact(s, SUNSET_FACT_CALL, "places_", NULL, 9));
    assert_null(scope(s, "function", "use_device_", 0));
    assert_non_null(fact(s, SUNSET_FACT_CALL, "RunWithoutFetch", NULL, 26));
}

static void test_scope_shapes(void **ts) {
    fixture *f = *ts;
    const char *code = "extern \"C\" {\n"
                       "void CFunc() {}\n"
                       "}\n"
                       "namespace a::b {\n"
                       "struct S {\n"
                       "  bool operator==(const S &o) const { return true; }\n"
                       "  S &operator=(const S &) = default;\n"
                       "  void Decl() const override;\n"
                       "  operator bool() const { return ok_; }\n"
                       "};\n"
                       "auto Lambda = [](int x) { return x; };\n"
                       "int S::Count() const noexcept { return Lambda(1); }\n"
                       "}\n"
                       "//\n"
                       "const char *empty = \"\";\n";
    assert_int_equal(scan_code(f, code), 0);
    const sunset_sink *s = &f->sink;
    assert_scope(s, "function", "CFunc", 2, 2);
    assert_scope(s, "namespace", "a", 4, 13);
    assert_scope(s, "namespace", "b", 4, 13);
    assert_scope(s, "struct", "S", 5, 10);
    assert_scope(s, "method", "S::operator==", 6, 6);
    assert_scope(s, "method", "S::operator bool", 9, 9);
    assert_scope(s, "method", "S::Count", 12, 12);
    assert_int_equal(rec_count(s, REC_SCOPE, 0, NULL), 7); /* no scope for the lambda */
    assert_span(fact(s, SUNSET_FACT_DEF, "operator==", "method", 0), 6, 8, 6, 18);
    assert_non_null(fact(s, SUNSET_FACT_DEF, "operator=", "method", 7));
    assert_non_null(fact(s, SUNSET_FACT_DEF, "Decl", "method", 8));
    assert_null(fact(s, SUNSET_FACT_DEF, "Lambda", NULL, 0));
    assert_non_null(fact(s, SUNSET_FACT_CALL, "Lambda", NULL, 12));
    /* empty comments and strings carry no text */
    assert_int_equal(rec_count(s, REC_TEXT, 0, NULL), 1); /* the "C" of extern "C" */
}

/* ---------------------------------------------------------------- robustness */

static char *repeat(const char *head, const char *open, size_t n, const char *mid,
                    const char *close, const char *tail) {
    size_t len = strlen(head) + n * (strlen(open) + strlen(close)) + strlen(mid) + strlen(tail);
    char *s = malloc(len + 1), *p = s;
    assert_non_null(s);
    p += sprintf(p, "%s", head);
    for (size_t i = 0; i < n; i++) p += sprintf(p, "%s", open);
    p += sprintf(p, "%s", mid);
    for (size_t i = 0; i < n; i++) p += sprintf(p, "%s", close);
    sprintf(p, "%s", tail);
    return s;
}

static void test_deep_nesting(void **ts) {
    fixture *f = *ts;
    enum { N = 10000 };
    char *a = repeat("int x = ", "(", N, "1", ")", ";\n");
    char *b = repeat("void g() ", "{", N, "Run(pe.member_);", "}", "\n");
    char *c = repeat("int y = ", "f(", N, "ParallelExecutor", ")", ";\n");
    char *d = repeat("", "namespace a {", N, "class X : public OpHandleBase {};", "}", "\n");
    char *e = repeat("int z = g(", "[({", N, "", "", "\n");   /* never closed */
    char *g = repeat("", "}])", N, "int after() { return 0; }", "", "\n"); /* never opened */
    char *all[] = {a, b, c, d, e, g};
    for (size_t i = 0; i < sizeof all / sizeof *all; i++) {
        assert_int_equal(scan_code(f, all[i]), 0);
        assert_true(f->sink.n > 0);
    }
    /* facts still come out of the deep parts */
    assert_int_equal(scan_code(f, c), 0);
    assert_int_equal(fact_count(&f->sink, SUNSET_FACT_CALL, "f", NULL), N);
    assert_string_equal(fact(&f->sink, SUNSET_FACT_IDENT, "ParallelExecutor", NULL, 1)->aux, "f");
    assert_int_equal(scan_code(f, d), 0);
    assert_int_equal(rec_count(&f->sink, REC_SCOPE, 0, NULL), N + 1);
    assert_non_null(fact(&f->sink, SUNSET_FACT_BASE, "OpHandleBase", "X", 1));
    assert_int_equal(scan_code(f, b), 0);
    assert_non_null(fact(&f->sink, SUNSET_FACT_ATTR, "member_", "pe", 1));
    assert_int_equal(scan_code(f, g), 0);
    assert_non_null(scope(&f->sink, "function", "after", 1));
    for (size_t i = 0; i < sizeof all / sizeof *all; i++) free(all[i]);
}

static void test_invalid_utf8_and_nul(void **ts) {
    fixture *f = *ts;
    static const char code[] = "// caf\xc3\xa9 \xff\xfe comment\n"
                               "class \xff Foo : public OpHandleBase { int \xc3\x28 x; };\n"
                               "const char *s = \"\xe2\x82 ParallelExecutor \xf0\x28\x8c\xbc\";\n"
                               "int \xe2\x82\xac = 1; int nul\0after = 2;\n"
                               "\"unterminated\n"
                               "/* unterminated comment \xc0\xaf";
    assert_int_equal(scan_src(f, "bad.cc", NULL, code, sizeof code - 1), 0);
    assert_non_null(text_with(&f->sink, SUNSET_CTX_STRING, "ParallelExecutor"));
    assert_non_null(fact(&f->sink, SUNSET_FACT_IDENT, "OpHandleBase", NULL, 2));
    for (size_t i = 0; i < f->sink.n; i++) {
        const rec *r = &f->sink.recs[i];
        if (r->type == REC_FACT || r->type == REC_TEXT) {
            assert_true(r->span.line >= 1 && r->span.line <= 6);
            assert_true(r->span.col >= 1);
        }
    }
    /* an empty file is fine too */
    assert_int_equal(scan_src(f, "empty.cc", NULL, "", 0), 0);
    assert_int_equal(f->sink.n, 0);
}

/* Every record of the sink as one string, for comparing two scans. Caller frees. */
static char *digest(const sunset_sink *s) {
    sb out = {0};
    for (size_t i = 0; i < s->n; i++) {
        const rec *r = &s->recs[i];
        sb_printf(&out, "%d %d %d %u:%u-%u:%u %x [%s] [%s] [%s] [%s] [%s]\n", (int)r->type,
                  (int)r->kind, (int)r->ctx, r->span.line, r->span.col, r->span.end_line,
                  r->span.end_col, r->flags, r->text ? r->text : "", r->aux ? r->aux : "",
                  r->target ? r->target : "", r->section ? r->section : "",
                  r->qual ? r->qual : "");
    }
    assert_false(out.oom);
    return sb_take(&out);
}

/* A worker parses its first file and reparses that translation unit for every later one
 * (frontend.c): nothing of one file may survive into the next, and a file scanned after
 * others reads exactly as on a fresh worker. The name is virtual, so a nameless source
 * parses too. */
static void test_reused_unit(void **ts) {
    fixture *f = *ts;
    assert_int_equal(scan_file(f, "testdata/clang/scopes.cc"), 0);
    char *fresh = digest(&f->sink);
    assert_non_null(fact(&f->sink, SUNSET_FACT_DEF, "MakeExecutor", NULL, 0));

    assert_int_equal(scan_src(f, "", NULL, "struct Other { void OnlyHere(); };", 34), 0);
    assert_non_null(fact(&f->sink, SUNSET_FACT_DEF, "OnlyHere", NULL, 1));
    assert_null(fact(&f->sink, SUNSET_FACT_DEF, "MakeExecutor", NULL, 0));
    assert_null(fact(&f->sink, SUNSET_FACT_IDENT, "ParallelExecutorPrivate", NULL, 0));
    assert_null(rec_find(&f->sink, REC_WARN, 0, NULL));

    assert_int_equal(scan_file(f, "testdata/clang/scopes.cc"), 0);
    char *again = digest(&f->sink);
    assert_string_equal(again, fresh);
    assert_null(fact(&f->sink, SUNSET_FACT_DEF, "OnlyHere", NULL, 0));
    sunset_free(fresh);
    sunset_free(again);
}

/* libclang cannot be stopped: a parse over the time limit is warned about and the file
 * analysed all the same. The fake clock (test/fakeclock.h) moves `step` ms per read. */
static void test_parse_budget(void **ts) {
    (void)ts;
    sunset_frontend_config cfg = {0};
    cfg.parse_budget_ms = 4;
    void *st = NULL;
    assert_int_equal(setup_cfg(&st, &cfg), 0);
    fixture *f = st;
    static const char code[] = "class C : public Base { void Run(int a, int b) { Go(a, b); } };\n";
    for (int over = 0; over < 2; over++) {
        fake_clock_start(-1, over ? 5.0 : 3.0); /* the parse "takes" one step */
        assert_int_equal(scan_code(f, code), 0);
        assert_int_equal(fake_clock_reads(), 2);
        fake_clock_stop();
        assert_non_null(fact(&f->sink, SUNSET_FACT_CALL, "Go", NULL, 0));
        const rec *w = rec_find(&f->sink, REC_WARN, 0, NULL);
        if (!over) {
            assert_null(w);
            continue;
        }
        assert_non_null(w);
        assert_string_equal(w->text, "libclang's parse took 5 ms, over the time limit "
                                     "(--parse-budget 4 ms); it cannot be stopped, the file is "
                                     "analysed all the same");
    }
    assert_int_equal(teardown(&st), 0);
}

/* Every allocation of a scan failing in turn: a clean 0 or -1, never a crash or a leak. */
static void test_out_of_memory(void **ts) {
    fixture *f = *ts;
    size_t len;
    char *data = slurp("testdata/clang/scopes.cc", &len);
    long base = sunset_alloc_live();
    int failures = 0;
    for (long n = 1; n < 400; n++) {
        rec_reset(&f->sink);
        long before = sunset_alloc_live();
        sunset_alloc_fail_after(n);
        sunset_source src = {"scopes.cc", NULL, data, len, SUNSET_LANG_CPP};
        int rc = sunset_frontend_clang.scan(f->worker, &src, &f->sink);
        sunset_alloc_fail_after(0);
        assert_true(rc == 0 || rc == -1);
        if (rc == -1) {
            failures++;
            assert_non_null(rec_find(&f->sink, REC_WARN, 0, NULL));
        }
        rec_reset(&f->sink);
        assert_int_equal(sunset_alloc_live(), before);
    }
    assert_true(failures > 0);
    assert_int_equal(sunset_alloc_live(), base);
    sunset_free(data);
}

/* libclang's code is given back every few parses, whichever worker ran them: a scan's
 * resident libLLVM is what its last parses ran, not all that the whole scan ever ran. */
static void test_code_given_back(void **ts) {
    fixture *f = *ts;
    void *w2 = sunset_frontend_clang.worker_new(f->state);
    assert_non_null(w2);
    size_t before = sunset_release_code_count();
    for (int i = 0; i < 64; i++) {
        sunset_source src = {"snippet.cc", NULL, "int f(int x) { return x + 1; }\n", 31, SUNSET_LANG_CPP};
        rec_reset(&f->sink);
        assert_int_equal(sunset_frontend_clang.scan(i % 2 ? w2 : f->worker, &src, &f->sink), 0);
    }
    size_t released = sunset_release_code_count() - before;
    assert_true(released >= 3); /* 64 parses: every 16th gives the code back */
    assert_true(released <= 5);
    sunset_frontend_clang.worker_free(w2);
}

static void test_lifecycle_leaks(void **ts) {
    (void)ts;
    long start = sunset_alloc_live();
    sunset_frontend_config cfg = {0};
    void *st = NULL;
    sunset_error err = {{0}};
    assert_int_equal(sunset_frontend_clang.init(&cfg, &st, &err), 0);
    void *w1 = sunset_frontend_clang.worker_new(st);
    void *w2 = sunset_frontend_clang.worker_new(st);
    assert_non_null(w1);
    assert_non_null(w2);
    const char *files[] = {"testdata/clang/scopes.cc", "testdata/clang/branches_op_handle.h"};
    for (int i = 0; i < 2; i++) {
        size_t len;
        char *data = slurp(files[i], &len);
        sunset_source src = {files[i], files[i], data, len, SUNSET_LANG_CPP};
        sunset_sink sink = {0};
        assert_int_equal(sunset_frontend_clang.scan(i ? w2 : w1, &src, &sink), 0);
        assert_true(sink.n > 0);
        rec_reset(&sink);
        sunset_free(data);
    }
    sunset_frontend_clang.worker_free(w1);
    sunset_frontend_clang.worker_free(w2);
    sunset_frontend_clang.worker_free(NULL);
    sunset_frontend_clang.fini(st);
    sunset_frontend_clang.fini(NULL);
    assert_int_equal(sunset_alloc_live(), start);
}

typedef struct thread_job {
    void *state;
    const char *data[2];
    size_t len[2];
    size_t counts[2];
    int failures;
} thread_job;

static void *scan_thread(void *arg) {
    thread_job *job = arg;
    void *w = sunset_frontend_clang.worker_new(job->state);
    if (!w) {
        job->failures++;
        return NULL;
    }
    for (int round = 0; round < 5; round++)
        for (int k = 0; k < 2; k++) {
            sunset_sink sink = {0};
            sunset_source src = {k ? "b.h" : "a.cc", NULL, job->data[k], job->len[k],
                                 SUNSET_LANG_CPP};
            if (sunset_frontend_clang.scan(w, &src, &sink) != 0) job->failures++;
            if (round == 0) job->counts[k] = sink.n;
            else if (sink.n != job->counts[k]) job->failures++;
            rec_reset(&sink);
        }
    sunset_frontend_clang.worker_free(w);
    return NULL;
}

/* One worker per thread over a shared state: same facts as a single thread, no failures. */
static void test_concurrent_workers(void **ts) {
    fixture *f = *ts;
    enum { NT = 4 };
    thread_job jobs[NT];
    pthread_t th[NT];
    size_t len[2];
    char *data[2] = {slurp("testdata/clang/scopes.cc", &len[0]),
                     slurp("testdata/clang/branches_op_handle.h", &len[1])};
    size_t want[2];
    for (int k = 0; k < 2; k++) {
        assert_int_equal(scan_src(f, k ? "b.h" : "a.cc", NULL, data[k], len[k]), 0);
        want[k] = f->sink.n;
    }
    for (int t = 0; t < NT; t++) {
        jobs[t] = (thread_job){.state = f->state};
        for (int k = 0; k < 2; k++) {
            jobs[t].data[k] = data[k];
            jobs[t].len[k] = len[k];
        }
        assert_int_equal(pthread_create(&th[t], NULL, scan_thread, &jobs[t]), 0);
    }
    for (int t = 0; t < NT; t++) {
        assert_int_equal(pthread_join(th[t], NULL), 0);
        assert_int_equal(jobs[t].failures, 0);
        assert_int_equal(jobs[t].counts[0], want[0]);
        assert_int_equal(jobs[t].counts[1], want[1]);
    }
    sunset_free(data[0]);
    sunset_free(data[1]);
}

static void test_descriptor(void **ts) {
    (void)ts;
    assert_int_equal(sunset_frontend_clang.abi, SUNSET_FRONTEND_ABI);
    assert_string_equal(sunset_frontend_clang.name, "clang");
    assert_int_equal(sunset_frontend_clang.langs[0], SUNSET_LANG_CPP);
    assert_int_equal(sunset_frontend_clang.langs[1], SUNSET_LANG_NONE);
}

/* ---------------------------------------------------------------- precise mode */

static void test_bad_compile_db(void **ts) {
    (void)ts;
    char dir[] = "/tmp/sunset-clang-nodb-XXXXXX";
    assert_non_null(mkdtemp(dir));
    sunset_frontend_config cfg = {0};
    cfg.compile_db_dir = dir;
    void *st = NULL;
    sunset_error err = {{0}};
    long start = sunset_alloc_live();
    assert_int_equal(sunset_frontend_clang.init(&cfg, &st, &err), -1);
    char want[512];
    snprintf(want, sizeof want, "%s/compile_commands.json: cannot load compilation database", dir);
    assert_string_equal(err.msg, want);
    assert_int_equal(sunset_alloc_live(), start);
    rmdir(dir);
}

/* A temporary copy of testdata/clang/precise/ with a compile_commands.json written for it
 * (absolute paths exist only there). Removed by teardown_precise even when a test fails. */
static char precise_dir[64];

static int rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw) {
    (void)sb, (void)flag, (void)ftw;
    return remove(path);
}

static int setup_precise(void **ts) {
    snprintf(precise_dir, sizeof precise_dir, "/tmp/sunset-clang-precise-XXXXXX");
    if (!mkdtemp(precise_dir)) return -1;
    char path[600];
    const char *dirs[] = {"include", "src"};
    for (int i = 0; i < 2; i++) {
        snprintf(path, sizeof path, "%s/%s", precise_dir, dirs[i]);
        if (mkdir(path, 0700) != 0) return -1;
    }
    const char *files[] = {"include/pe.h", "src/use_pe.cc"};
    for (int i = 0; i < 2; i++) {
        char from[600];
        snprintf(from, sizeof from, "testdata/clang/precise/%s", files[i]);
        snprintf(path, sizeof path, "%s/%s", precise_dir, files[i]);
        size_t len;
        char *data = NULL;
        if (read_file(from, 0, &data, &len) != 0) return -1;
        FILE *fp = fopen(path, "wb");
        bool ok = fp && fwrite(data, 1, len, fp) == len;
        if (fp && fclose(fp) != 0) ok = false;
        sunset_free(data);
        if (!ok) return -1;
    }
    snprintf(path, sizeof path, "%s/compile_commands.json", precise_dir);
    FILE *fp = fopen(path, "w");
    if (!fp) return -1;
    /* relative -I and file, resolved against "directory" as a build would; a command
     * libclang rejects; an nvcc command */
    const char *d = precise_dir;
    fprintf(fp,
            "[{\"directory\": \"%s\", \"file\": \"src/use_pe.cc\",\n"
            "  \"arguments\": [\"c++\", \"-std=c++17\", \"-Iinclude\", \"-DPADDLE_WITH_TEST\",\n"
            "                \"-MD\", \"-MF\", \"out/use_pe.d\", \"-c\", \"src/use_pe.cc\",\n"
            "                \"-o\", \"out/use_pe.o\"]},\n"
            " {\"directory\": \"%s\", \"file\": \"src/bad.cc\",\n"
            "  \"arguments\": [\"c++\", \"-x\", \"no-such-language\", \"-c\", \"src/bad.cc\"]},\n"
            " {\"directory\": \"%s\", \"file\": \"src/kernel.cu\",\n"
            "  \"arguments\": [\"/usr/local/cuda/bin/nvcc\", \"-Xcompiler\", \"-fPIC\",\n"
            "                \"-c\", \"src/kernel.cu\"]}]\n",
            d, d, d);
    if (fclose(fp) != 0) return -1;
    sunset_frontend_config cfg = {0};
    cfg.compile_db_dir = precise_dir;
    cfg.root = precise_dir;
    return setup_cfg(ts, &cfg);
}

static int teardown_precise(void **ts) {
    int rc = *ts ? teardown(ts) : 0;
    if (precise_dir[0]) nftw(precise_dir, rm_entry, 8, FTW_DEPTH | FTW_PHYS);
    precise_dir[0] = 0;
    return rc;
}

static void test_precise_mode(void **ts) {
    fixture *f = *ts;
    const char *dir = precise_dir;
    char hdr[600], cc[600];
    snprintf(hdr, sizeof hdr, "%s/include/pe.h", dir);
    snprintf(cc, sizeof cc, "%s/src/use_pe.cc", dir);

    size_t len;
    char *data = slurp(cc, &len);
    assert_int_equal(scan_src(f, "src/use_pe.cc", cc, data, len), 0);
    sunset_free(data);
    const sunset_sink *s = &f->sink;
    assert_null(rec_find(s, REC_WARN, 0, NULL));
    /* `using framework::ParallelExecutor;` then `ParallelExecutor *pe` */
    const rec *r = fact(s, SUNSET_FACT_IDENT, "ParallelExecutor", NULL, 8);
    assert_non_null(r);
    assert_non_null(r->qual);
    assert_string_equal(r->qual, "paddle::framework::ParallelExecutor");
    r = fact(s, SUNSET_FACT_IDENT, "ParallelExecutor", NULL, 6);
    assert_non_null(r->qual);
    assert_string_equal(r->qual, "paddle::framework::ParallelExecutor");
    assert_string_equal(fact(s, SUNSET_FACT_IDENT, "framework", NULL, 6)->qual,
                        "paddle::framework");
    r = fact(s, SUNSET_FACT_IDENT, "RunWithoutFetch", NULL, 9);
    assert_non_null(r->qual);
    assert_string_equal(r->qual, "paddle::framework::ParallelExecutor::RunWithoutFetch");
    assert_string_equal(fact(s, SUNSET_FACT_IDENT, "DeviceCount", NULL, 10)->qual,
                        "paddle::framework::ParallelExecutor::DeviceCount");
    assert_string_equal(fact(s, SUNSET_FACT_IDENT, "BindParallelExecutor", NULL, 8)->qual,
                        "paddle::pybind::BindParallelExecutor");
    assert_null(fact(s, SUNSET_FACT_IDENT, "pe", NULL, 9)->qual); /* a parameter */
    assert_scope(s, "function", "BindParallelExecutor", 8, 11);
    assert_scope(s, "namespace", "pybind", 4, 13);
    assert_string_equal(fact(s, SUNSET_FACT_ATTR, "RunWithoutFetch", NULL, 9)->aux, "pe");

    /* the header is not in the database: fast mode, no qualified names */
    data = slurp(hdr, &len);
    assert_int_equal(scan_src(f, "include/pe.h", hdr, data, len), 0);
    sunset_free(data);
    assert_null(rec_find(s, REC_WARN, 0, NULL));
    r = fact(s, SUNSET_FACT_IDENT, "ParallelExecutor", NULL, 6);
    assert_non_null(r);
    assert_null(r->qual);
    assert_non_null(fact(s, SUNSET_FACT_DEF, "RunWithoutFetch", "method", 8));
    assert_scope(s, "class", "ParallelExecutor", 6, 10);

    /* a listed file whose command libclang rejects: a warning, then fast mode */
    const char *code = "framework::ParallelExecutor *pe;\n";
    char bad[600], cu[600];
    snprintf(bad, sizeof bad, "%s/src/bad.cc", dir);
    snprintf(cu, sizeof cu, "%s/src/kernel.cu", dir);
    assert_int_equal(scan_src(f, "src/bad.cc", bad, code, strlen(code)), 0);
    const rec *w = rec_find(s, REC_WARN, 0, NULL);
    assert_non_null(w);
    assert_non_null(strstr(w->text, "falling back to fast mode"));
    r = fact(s, SUNSET_FACT_IDENT, "ParallelExecutor", NULL, 1);
    assert_non_null(r);
    assert_null(r->qual);
    /* an nvcc entry: fast mode without a warning */
    assert_int_equal(scan_src(f, "src/kernel.cu", cu, code, strlen(code)), 0);
    assert_null(rec_find(s, REC_WARN, 0, NULL));
    assert_non_null(fact(s, SUNSET_FACT_IDENT, "ParallelExecutor", NULL, 1));
}

/* How many lines of the dynamic loader's log of a scan of dir (LD_DEBUG=files) name libclang:
 * the libraries it opened, at start or by dlopen. */
static int libclang_opens(const char *dir) {
    char log[600];
    snprintf(log, sizeof log, "%s.ld", dir);
    assert_int_equal(test_sh("LD_DEBUG=files '%s' scan --no-config --no-cache -q '%s' >/dev/null 2>'%s'; "
                             "exit 0", test_bin(), dir, log), 0);
    int n = test_sh("exit $(grep -c 'file=libclang' '%s')", log);
    unlink(log);
    return n;
}

/* libclang (and the libLLVM under it) is opened by the first C/C++ parse (libclang.h), not at
 * start: a scan of Python alone never loads it; one with a C++ file does. */
static void test_libclang_opened_on_first_parse(void **state) {
    (void)state;
    char dir[] = "/tmp/sunset-libclang-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char p[600];
    snprintf(p, sizeof p, "%s/a.py", dir);
    assert_int_equal(write_file_atomic(p, "import os\nprint(os.sep)\n", 24), 0);
    assert_int_equal(libclang_opens(dir), 0);
    snprintf(p, sizeof p, "%s/b.cc", dir);
    const char *cc = "#include \"paddle/fluid/framework/parallel_executor.h\"\n"
                     "void f(ParallelExecutor *pe) {}\n"; /* a keyword: not prefiltered */
    assert_int_equal(write_file_atomic(p, cc, strlen(cc)), 0);
    assert_true(libclang_opens(dir) > 0);
    test_sh("rm -rf '%s'", dir);
}

/* kB resident in this process of libLLVM's code mappings (r-xp), from /proc/self/smaps */
static long llvm_code_rss_kb(void) {
    FILE *f = fopen("/proc/self/smaps", "r");
    assert_non_null(f);
    char line[1024];
    bool in = false;
    long kb = 0, v;
    while (fgets(line, sizeof line, f)) {
        unsigned long lo, hi;
        char perms[8];
        if (sscanf(line, "%lx-%lx %7s", &lo, &hi, perms) == 3) /* a mapping's header line */
            in = strcmp(perms, "r-xp") == 0 && strstr(line, "libLLVM") != NULL;
        else if (in && sscanf(line, "Rss: %ld kB", &v) == 1)
            kb += v;
    }
    fclose(f);
    return kb;
}

/* Loading libclang relocates libLLVM and runs its static initialisers, which touch ~30 MB of its
 * code that no parse runs; opening it gives that back (libclang.c), or a run that parses a
 * little C++ (history: a few files a commit) carries it to its peak. First in main(): this
 * process has not opened libclang yet. */
static void test_open_gives_code_back(void **state) {
    (void)state;
    assert_false(clang_lib_loaded());
    size_t before = sunset_release_code_count();
    char why[256];
    assert_true(clang_lib_load(why, sizeof why));
    assert_int_equal(sunset_release_code_count(), before + 1);
    assert_true(clang_lib_load(why, sizeof why)); /* once a process */
    assert_int_equal(sunset_release_code_count(), before + 1);
    long kb = llvm_code_rss_kb();
    assert_true(kb >= 0);
    assert_true(kb < 4096);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_open_gives_code_back),
        cmocka_unit_test(test_descriptor),
        cmocka_unit_test_setup_teardown(test_code_comment_string, setup, teardown),
        cmocka_unit_test_setup_teardown(test_string_literal_forms, setup, teardown),
        cmocka_unit_test_setup_teardown(test_statements_asked, setup, teardown),
        cmocka_unit_test_setup_teardown(test_token_spans, setup, teardown),
        cmocka_unit_test_setup_teardown(test_if_elif_else_bases, setup, teardown),
        cmocka_unit_test_setup_teardown(test_final_and_qualified_bases, setup, teardown),
        cmocka_unit_test_setup_teardown(test_includes, setup, teardown),
        cmocka_unit_test_setup_teardown(test_macro_argument_aux, setup, teardown),
        cmocka_unit_test_setup_teardown(test_member_access, setup, teardown),
        cmocka_unit_test_setup_teardown(test_calls, setup, teardown),
        cmocka_unit_test_setup_teardown(test_scopes, setup, teardown),
        cmocka_unit_test_setup_teardown(test_scope_shapes, setup, teardown),
        cmocka_unit_test_setup_teardown(test_deep_nesting, setup, teardown),
        cmocka_unit_test_setup_teardown(test_invalid_utf8_and_nul, setup, teardown),
        cmocka_unit_test_setup_teardown(test_reused_unit, setup, teardown),
        cmocka_unit_test(test_parse_budget),
        cmocka_unit_test_setup_teardown(test_out_of_memory, setup, teardown),
        cmocka_unit_test(test_lifecycle_leaks),
        cmocka_unit_test_setup_teardown(test_code_given_back, setup, teardown),
        cmocka_unit_test_setup_teardown(test_concurrent_workers, setup, teardown),
        cmocka_unit_test(test_bad_compile_db),
        cmocka_unit_test(test_libclang_opened_on_first_parse),
        cmocka_unit_test_setup_teardown(test_precise_mode, setup_precise, teardown_precise),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
