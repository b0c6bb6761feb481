/*
 * test_index.c — the cross-file index's lexers: Python imports (plain, aliased, parenthesised,
 * star, relative; used or not), classes with bases and indentation extent, names inside class
 * bodies kept apart; C++ includes, classes with qualified/template/multiple bases and brace
 * extent (forward declarations, template parameters and enum classes are not classes), gflag
 * definitions and pass registrations (through a file's own wrapper macro too), braces of the
 * first #if branch alone, a header's namespace-level functions and constants, comments and strings; CMake commands with arguments and
 * lines; shell words. Also: files sort by path whatever the insertion order, a Python file's
 * names are the union of its per-class and outside sets (merged or gathered), long strings and
 * identifiers survive the arena and packing, and an allocation failure at any point leaks
 * nothing.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "analysis/index.h"
#include "test/bundled.h"

static const ix_file *add(sunset_index *ix, const char *path, sunset_lang lang, const char *text) {
    sunset_source src = {path, path, text, strlen(text), lang};
    assert_int_equal(sunset_index_add(ix, &src), 0);
    sunset_index_finish(ix);
    const ix_file *f = sunset_index_file(ix, path);
    assert_non_null(f);
    return f;
}

static const ix_class *find_class(const ix_file *f, const char *name) {
    for (size_t i = 0; i < f->classes.n; i++)
        if (!strcmp(VEC_AT(&f->classes, ix_class, i).name, name)) return &VEC_AT(&f->classes, ix_class, i);
    return NULL;
}

static const ix_import *find_import(const ix_file *f, const char *module, const char *name) {
    for (size_t i = 0; i < f->imports.n; i++) {
        const ix_import *m = &VEC_AT(&f->imports, ix_import, i);
        if (strcmp(m->module, module) != 0) continue;
        if ((!name && !m->name) || (name && m->name && !strcmp(m->name, name))) return m;
    }
    return NULL;
}

static const char *PY =
    "# a comment naming CommentOnly\n"
    "import os\n"
    "import numpy as np\n"
    "from parallel_executor_test_base import DeviceType, TestParallelExecutorBase\n"
    "from helpers import (\n"
    "    fc_net,\n"
    "    unused_thing as renamed,\n"
    ")\n"
    "from .sibling import *\n"
    "\n"
    "\n"
    "def top_function():\n"
    "    return np.zeros(3)\n"
    "\n"
    "\n"
    "class TestA(TestParallelExecutorBase):\n"
    "    \"\"\"Docstring naming DocOnly.\"\"\"\n"
    "\n"
    "    class Inner(object):\n"
    "        pass\n"
    "\n"
    "    def test_x(self):\n"
    "        self.check(fc_net, DeviceType.CPU, 'fuse_all_reduce_op_pass')\n"
    "\n"
    "\n"
    "class Plain:\n"
    "    x = 1\n"
    "\n"
    "\n"
    "class TestB(base.TestCase, metaclass=Meta):\n"
    "    pass\n"
    "print(os.sep)\n";

static void python_facts(void **state) {
    sunset_index *ix = new_index();
    const ix_file *f = add(ix, "test/legacy_test/test_a.py", SUNSET_LANG_PYTHON, PY);
    assert_false(f->blank);
    assert_int_equal(f->n_lines, 32);
    /* imports */
    const ix_import *m = find_import(f, "os", NULL);
    assert_non_null(m);
    assert_true(m->used);
    m = find_import(f, "numpy", NULL);
    assert_non_null(m);
    assert_string_equal(m->alias, "np");
    assert_true(m->used);
    m = find_import(f, "parallel_executor_test_base", "TestParallelExecutorBase");
    assert_non_null(m);
    assert_int_equal(m->line, 4);
    assert_true(m->used);
    m = find_import(f, "helpers", "fc_net");
    assert_non_null(m);
    assert_int_equal(m->line, 5);
    assert_int_equal(m->end, 8);
    assert_true(m->used);
    m = find_import(f, "helpers", "unused_thing");
    assert_non_null(m);
    assert_string_equal(m->alias, "renamed");
    assert_false(m->used);
    assert_non_null(find_import(f, ".sibling", "*"));
    /* classes */
    const ix_class *a = find_class(f, "TestA");
    assert_non_null(a);
    assert_true(a->top);
    assert_int_equal(a->line, 16);
    assert_int_equal(a->end, 23);
    assert_int_equal(a->n_bases, 1);
    assert_string_equal(a->bases[0], "TestParallelExecutorBase");
    const ix_class *inner = find_class(f, "Inner");
    assert_non_null(inner);
    assert_false(inner->top);
    const ix_class *plain = find_class(f, "Plain");
    assert_int_equal(plain->n_bases, 0);
    const ix_class *b = find_class(f, "TestB");
    assert_int_equal(b->n_bases, 1); /* metaclass= is not a base */
    assert_string_equal(b->bases[0], "base.TestCase");
    assert_int_equal(b->end, 31);
    assert_int_equal(f->funcs.n, 1);
    assert_string_equal(VEC_AT(&f->funcs, ix_func, 0).name, "top_function");
    /* names: code yes; comments, docstrings and import-only names no; name-like strings yes */
    assert_true(ix_file_uses(f, "fc_net"));
    assert_true(ix_file_uses(f, "fuse_all_reduce_op_pass"));
    assert_false(ix_file_uses(f, "CommentOnly"));
    assert_false(ix_file_uses(f, "DocOnly"));
    assert_false(ix_file_uses(f, "unused_thing"));
    /* the body of TestA holds fc_net; outside class bodies only os/np/top_function remain */
    assert_true(ix_hashes_have(a->names, a->n_names, "fc_net"));
    assert_true(ix_hashes_have(a->names, a->n_names, "TestParallelExecutorBase"));
    assert_false(ix_hashes_have(f->outside, f->n_outside, "fc_net"));
    assert_false(ix_hashes_have(f->outside, f->n_outside, "TestParallelExecutorBase"));
    assert_true(ix_hashes_have(f->outside, f->n_outside, "zeros"));
    sunset_index_free(ix);
}

/* Module-level assignments: a dotted value at column 1 is kept (a re-export), any other value
 * only as a binding; assignments in functions and classes, comparisons and chains are none. */
static void python_aliases(void **state) {
    sunset_index *ix = new_index();
    const ix_file *f = add(ix, "t/a.py", SUNSET_LANG_PYTHON,
                           "from paddle.base import core\nDeviceType = core.DeviceType\nN = 4\n"
                           "if N:\n    M = core.M\nX = Y = core.Z\nN == core.N\nP = core.\n"
                           "def f():\n    Q = core.Q\nclass K:\n    R = core.R\n");
    assert_int_equal(f->aliases.n, 5);
    const ix_alias *a = &VEC_AT(&f->aliases, ix_alias, 0);
    assert_string_equal(a->name, "DeviceType");
    assert_string_equal(a->value, "core.DeviceType");
    assert_int_equal(a->line, 2);
    a = &VEC_AT(&f->aliases, ix_alias, 1);
    assert_string_equal(a->name, "N");
    assert_null(a->value);
    a = &VEC_AT(&f->aliases, ix_alias, 2);
    assert_string_equal(a->name, "M");
    assert_null(a->value); /* indented: conditional */
    assert_string_equal(VEC_AT(&f->aliases, ix_alias, 3).name, "X");
    assert_null(VEC_AT(&f->aliases, ix_alias, 3).value);
    assert_string_equal(VEC_AT(&f->aliases, ix_alias, 4).name, "P");
    assert_null(VEC_AT(&f->aliases, ix_alias, 4).value);
    sunset_index_free(ix);
}

static void python_blank_and_tools(void **state) {
    sunset_index *ix = new_index();
    const ix_file *e = add(ix, "test/legacy_test/test_empty.py", SUNSET_LANG_PYTHON, "");
    assert_true(e->blank);
    e = add(ix, "test/legacy_test/test_comment.py", SUNSET_LANG_PYTHON, "# only a comment\n\n");
    assert_true(e->blank);
    const ix_file *t = add(ix, "tools/list.py", SUNSET_LANG_PYTHON,
                           "LIST = [\n    'test_a',\n    \"test_b\",  # c\n    'not a name',\n]\n");
    assert_int_equal(t->list_words.n, 2);
    assert_string_equal(VEC_AT(&t->list_words, ix_word, 0).text, "test_a");
    assert_int_equal(VEC_AT(&t->list_words, ix_word, 0).line, 2);
    assert_string_equal(VEC_AT(&t->list_words, ix_word, 1).text, "test_b");
    assert_int_equal(VEC_AT(&t->list_words, ix_word, 1).line, 3);
    /* outside tools/ strings are names but not list entries */
    const ix_file *o = add(ix, "python/x.py", SUNSET_LANG_PYTHON, "x = 'test_a'\n");
    assert_int_equal(o->list_words.n, 0);
    assert_true(ix_file_uses(o, "test_a"));
    /* a string is a name of 3 to 100 identifier bytes, never hashed otherwise */
    char longname[128];
    memset(longname, 'n', 101);
    longname[101] = 0;
    char code[512];
    snprintf(code, sizeof code, "y = ['ab', 'abc', 'a b c', '%s', '%.100s', '9abc']\n", longname, longname);
    o = add(ix, "python/y.py", SUNSET_LANG_PYTHON, code);
    assert_false(ix_file_uses(o, "ab"));
    assert_true(ix_file_uses(o, "abc"));
    assert_false(ix_file_uses(o, "a b c"));
    assert_false(ix_file_uses(o, longname));
    longname[100] = 0;
    assert_true(ix_file_uses(o, longname));
    assert_false(ix_file_uses(o, "9abc"));
    sunset_index_free(ix);
}

static const char *CC =
    "// OpHandleBase in a comment\n"
    "#include \"paddle/fluid/framework/details/op_handle_base.h\"\n"
    "#  include <vector>\n"
    "namespace paddle {\n"
    "namespace details {\n"
    "class Fwd;\n"
    "struct Plain {\n"
    "  int x;\n"
    "};\n"
    "template <class T, typename U = int>\n"
    "class FetchOpHandle final : public details::OpHandleBase,\n"
    "                            private Holder<std::vector<T>> {\n"
    "  struct Nested { int y; };\n"
    "  const char *s = \"GatherOpHandle\";\n"
    "  const char *r = R\"x(ReduceOpHandle)x\";\n"
    "};\n"
    "enum class Kind { kA };\n"
    "}  // namespace details\n"
    "}  // namespace paddle\n"
    "PHI_DEFINE_EXPORTED_bool(pe_flag,\n"
    "                         false,\n"
    "                         \"help\");\n"
    "DEFINE_int32(plain_flag, 1, \"h\");\n"
    "COMMON_DECLARE_bool(other_flag);\n"
    "REGISTER_PASS(my_pass, paddle::MyPass)\n"
    "    .RequirePassAttr(\"x\");\n"
    "USE_PASS(used_pass);\n";

/* A flag's extent starts at the comment block directly above it, its doc: a block comment or
 * a run of // lines on lines of their own, no blank line between. */
static const char *FLAG_DOCS =
    "#include \"paddle/common/flags.h\"\n"
    "\n"
    "/**\n"
    " * Name: FLAGS_block_doc\n"
    " */\n"
    "PHI_DEFINE_EXPORTED_bool(block_doc,\n"
    "                         false,\n"
    "                         \"help\");\n"
    "// Name: FLAGS_line_doc\n"
    "// Value Range: int32\n"
    "PHI_DEFINE_EXPORTED_int32(line_doc, 1, \"h\");\n"
    "// a section title, not a doc\n"
    "\n"
    "PHI_DEFINE_EXPORTED_int32(spaced, 1, \"h\");\n"
    "int x = 0; /* trailing */\n"
    "PHI_DEFINE_EXPORTED_int32(after_code, 1, \"h\");\n";

static void flag_doc_comments(void **state) {
    (void)state;
    sunset_index *ix = new_index();
    const ix_file *f = add(ix, "paddle/common/flags.cc", SUNSET_LANG_CPP, FLAG_DOCS);
    assert_int_equal(f->flag_defs.n, 4);
    static const struct { const char *name; uint32_t line, end; } want[] = {
        {"block_doc", 3, 8}, {"line_doc", 9, 11}, {"spaced", 14, 14}, {"after_code", 16, 16}};
    for (size_t i = 0; i < 4; i++) {
        const ix_word *w = &VEC_AT(&f->flag_defs, ix_word, i);
        assert_string_equal(w->text, want[i].name);
        assert_int_equal(w->line, want[i].line);
        assert_int_equal(w->end, want[i].end);
    }
    sunset_index_free(ix);
}

static void cpp_facts(void **state) {
    sunset_index *ix = new_index();
    const ix_file *f = add(ix, "paddle/fluid/framework/details/fetch_op_handle.h", SUNSET_LANG_CPP, CC);
    assert_int_equal(f->includes.n, 2);
    assert_string_equal(VEC_AT(&f->includes, ix_include, 0).path,
                        "paddle/fluid/framework/details/op_handle_base.h");
    assert_int_equal(VEC_AT(&f->includes, ix_include, 0).line, 2);
    assert_string_equal(VEC_AT(&f->includes, ix_include, 1).path, "vector");
    assert_null(find_class(f, "Fwd"));
    assert_null(find_class(f, "T"));
    assert_null(find_class(f, "Kind"));
    const ix_class *p = find_class(f, "Plain");
    assert_non_null(p);
    assert_true(p->top);
    assert_int_equal(p->line, 7);
    assert_int_equal(p->end, 9);
    const ix_class *h = find_class(f, "FetchOpHandle");
    assert_non_null(h);
    assert_true(h->top);
    assert_int_equal(h->line, 11);
    assert_int_equal(h->end, 16);
    assert_int_equal(h->n_bases, 2);
    assert_string_equal(h->bases[0], "details::OpHandleBase");
    assert_string_equal(h->bases[1], "Holder");
    const ix_class *n = find_class(f, "Nested");
    assert_non_null(n);
    assert_false(n->top);
    /* flags: definitions only, with their extent */
    assert_int_equal(f->flag_defs.n, 2);
    assert_string_equal(VEC_AT(&f->flag_defs, ix_word, 0).text, "pe_flag");
    assert_int_equal(VEC_AT(&f->flag_defs, ix_word, 0).line, 20);
    assert_int_equal(VEC_AT(&f->flag_defs, ix_word, 0).end, 22);
    assert_string_equal(VEC_AT(&f->flag_defs, ix_word, 1).text, "plain_flag");
    assert_int_equal(f->pass_regs.n, 1);
    assert_string_equal(VEC_AT(&f->pass_regs, ix_word, 0).text, "my_pass");
    /* names: code and name-like strings; not comments; raw strings skipped */
    assert_true(ix_file_uses(f, "GatherOpHandle"));
    assert_true(ix_file_uses(f, "used_pass"));
    assert_true(ix_file_uses(f, "FLAGS_other_flag") == false);
    assert_true(ix_file_uses(f, "other_flag"));
    assert_false(ix_file_uses(f, "ReduceOpHandle"));
    sunset_index_free(ix);
    /* a file using the flag */
    ix = new_index();
    f = add(ix, "a.cc", SUNSET_LANG_CPP, "int f() { return FLAGS_pe_flag ? 1 : 0; } /* FLAGS_x */\n");
    assert_true(ix_file_uses(f, "FLAGS_pe_flag"));
    assert_false(ix_file_uses(f, "FLAGS_x"));
    sunset_index_free(ix);
}

/* The C++ lexer's byte classes, each handled in one dispatch: a directive after a line's
 * indentation (tabs, a CR of a CRLF, a comment) still starts its line, a '/' or '#' inside a line is
 * punctuation, a continuation joins lines that still count, comments and raw strings hide
 * names and keep the line count, and an unterminated comment ends the file. */
static void cpp_lexer_byte_classes(void **state) {
    sunset_index *ix = new_index();
    const char *code = "int a = b / c; // HiddenLineComment\r\n"                 /* 1 */
                       " \t #include \"first.h\"\r\n"                             /* 2 */
                       "#define STR(xname) #xname \\\n"                                   /* 3 */
                       "   ContinuedName\n"                                       /* 4 */
                       "const char *r = R\"doc(HiddenRaw\n\n)doc\";\n"             /* 5-7 */
                       "/* HiddenBlock\n */ \f\v  #include <second.h>\n"          /* 8-9: a comment is a blank */
                       "\t\t#include <third.h>\n"                                  /* 10 */
                       "namespace n { struct Shown : public x::Base {\n"         /* 11 */
                       "  int v = 0x1F'u + 'q';\n"                                /* 12 */
                       "}; auto s = {\"str_name\", \"no name\", \"ab\"}; }  /* HiddenTail";
    const ix_file *f = add(ix, "a.cc", SUNSET_LANG_CPP, code);
    assert_int_equal(f->includes.n, 3);
    assert_string_equal(VEC_AT(&f->includes, ix_include, 0).path, "first.h");
    assert_int_equal(VEC_AT(&f->includes, ix_include, 0).line, 2);
    assert_string_equal(VEC_AT(&f->includes, ix_include, 1).path, "second.h");
    assert_int_equal(VEC_AT(&f->includes, ix_include, 1).line, 9);
    assert_string_equal(VEC_AT(&f->includes, ix_include, 2).path, "third.h");
    assert_int_equal(VEC_AT(&f->includes, ix_include, 2).line, 10);
    const ix_class *k = find_class(f, "Shown");
    assert_non_null(k);
    assert_int_equal(k->line, 11);
    assert_int_equal(k->end, 13);
    assert_int_equal(k->n_bases, 1);
    assert_string_equal(k->bases[0], "x::Base");
    assert_true(ix_file_uses(f, "ContinuedName"));
    assert_true(ix_file_uses(f, "STR"));
    assert_true(ix_file_uses(f, "xname")); /* after a '#' inside a line: code */
    assert_false(ix_file_uses(f, "HiddenLineComment"));
    assert_false(ix_file_uses(f, "HiddenRaw"));
    assert_false(ix_file_uses(f, "HiddenBlock"));
    assert_false(ix_file_uses(f, "HiddenTail"));
    assert_true(ix_file_uses(f, "str_name")); /* a name-like string */
    assert_false(ix_file_uses(f, "no name"));
    assert_false(ix_file_uses(f, "ab"));
    assert_false(f->blank);
    sunset_index_free(ix);
}

/* A NUL byte inside a CMake argument list (after the engine's 8000-byte binary probe, so
 * the file is indexed) once looped forever pushing empty arguments (found by fuzz_index,
 * testdata/fuzz/fuzz_index/regress-cmake-nul-arg). The alarm turns that hang into a failure. */
static bool has_word(const vec *v, const char *text) {
    for (size_t i = 0; i < v->n; i++)
        if (!strcmp(VEC_AT(v, ix_word, i).text, text)) return true;
    return false;
}

static bool has_func(const ix_file *f, const char *name) {
    for (size_t i = 0; i < f->funcs.n; i++)
        if (!strcmp(VEC_AT(&f->funcs, ix_func, i).name, name)) return true;
    return false;
}

/* A pass registered through the file's own wrapper of REGISTER_PASS is a registration by its
 * name (and the "REGISTER_PASS x" call the link pairs read); only the first branch of an
 * #if / #else counts for braces, so a USE_PASS after a signature written once per branch is
 * still at namespace level; a header's namespace-level functions and constants are declared
 * names, a function's calls and a macro's parameters are not. */
/* The macros the index reads are the rule set's (settings.macros.roles): a pack naming its own
 * registration, link and flag macros has them read, and the bundled ones are then not. */
static void macro_roles_from_settings(void **state) {
    (void)state;
    sunset_error err = {{0}};
    sunset_ruleset *rs = sunset_ruleset_load_string(
        "{\"schema\":1,\"settings\":{\"families\":[{\"id\":\"pe\",\"title\":\"PE\"}],"
        "\"macros\":{\"roles\":{\"op\":[\"MY_OP_REGISTRY\"],\"pass\":[\"MY_PASS_REGISTRY\"],"
        "\"use\":[\"MY_OP_LINK\"],\"flag\":{\"stem\":\"MY_FLAG_\",\"prefixes\":[\"XX_\"],"
        "\"types\":[\"bool\"]}}}}}",
        "p.json", NULL, &err);
    assert_non_null(rs);
    sunset_index *ix = sunset_index_new();
    sunset_index_set_roles(ix, &rs->macro_roles);
    const ix_file *f = add(ix, "fw/my_ops.cc", SUNSET_LANG_CPP,
                           "#define MY_MD_PASS(name, cls) MY_PASS_REGISTRY(name, cls)\n"
                           "MY_OP_REGISTRY(fused_legacy, FusedOp);\n"
                           "MY_PASS_REGISTRY(legacy_pass, LegacyPass);\n"
                           "MY_MD_PASS(wrapped_pass, WrappedPass);\n"
                           "MY_OP_LINK(fused_legacy);\n"
                           "XX_MY_FLAG_EXPORTED_bool(legacy_flag, false, \"h\");\n"
                           "MY_FLAG_int32(untyped_flag, 1, \"h\");\n"
                           "REGISTER_OPERATOR(bundled_op, BundledOp);\n"
                           "USE_PASS(bundled_pass);\n"
                           "PHI_DEFINE_EXPORTED_bool(bundled_flag, false, \"h\");\n");
    assert_true(has_word(&f->op_regs, "fused_legacy"));
    assert_int_equal(f->op_regs.n, 1);
    assert_true(has_word(&f->pass_regs, "legacy_pass"));
    assert_true(has_word(&f->pass_regs, "wrapped_pass"));
    assert_int_equal(f->pass_regs.n, 2);
    /* a wrapper's call reads as its registrar's, for the link pairs */
    assert_true(has_word(&f->macros, "MY_PASS_REGISTRY wrapped_pass"));
    assert_true(has_word(&f->reg_uses, "fused_legacy"));
    assert_int_equal(f->reg_uses.n, 1);
    assert_true(has_word(&f->flag_defs, "legacy_flag"));
    assert_int_equal(f->flag_defs.n, 1);
    sunset_index_free(ix);
    sunset_ruleset_free(rs);
}

static void cpp_wrappers_branches_and_decls(void **state) {
    (void)state;
    sunset_index *ix = new_index();
    const ix_file *f = add(ix, "ir/md_pass.cc", SUNSET_LANG_CPP,
                           "#define REGISTER_MD_PASS(pass_name, pass_class) \\\n"
                           "  int _md_##pass_name = Register(#pass_name);   \\\n"
                           "  REGISTER_PASS(pass_name, pass_class).RequirePassAttr(\"places\")\n"
                           "\n"
                           "REGISTER_MD_PASS(all_reduce_md_pass, ir::MdBuilder);\n"
                           "REGISTER_MD_PASS(reduce_md_pass,\n"
                           "                 ir::MdBuilder);\n");
    assert_true(has_word(&f->pass_regs, "all_reduce_md_pass"));
    assert_true(has_word(&f->pass_regs, "reduce_md_pass"));
    assert_false(has_word(&f->pass_regs, "pass_name"));
    assert_true(has_word(&f->macros, "REGISTER_PASS all_reduce_md_pass"));
    const ix_file *g = add(ix, "details/bs.cc", SUNSET_LANG_CPP,
                           "namespace paddle {\n"
                           "Graph *Apply(Graph *graph,\n"
                           "#if defined(WITH_NCCL)\n"
                           "             void *ctx) const {\n"
                           "#elif defined(WITH_BKCL)\n"
                           "             int *ctx) const {\n"
                           "#else\n"
                           "             int n) const {\n"
                           "#endif\n"
                           "  return graph;\n"
                           "}\n"
                           "}  // namespace paddle\n"
                           "USE_PASS(all_reduce_md_pass);\n");
    assert_true(has_word(&g->reg_uses, "all_reduce_md_pass"));
    assert_true(has_word(&g->macros, "USE_PASS all_reduce_md_pass"));
    const ix_file *h = add(ix, "ir/md_pass.h", SUNSET_LANG_CPP,
                           "#pragma once\n"
                           "#define MD_NAME(x) Lookup(x)\n"
                           "#if defined(WITH_NCCL)\n"
                           "#include \"nccl.h\"\n"
                           "#endif\n"
                           "COMMON_DECLARE_bool(md_flag);\n"
                           "namespace paddle {\n"
                           "constexpr char kLossVarName[] = \"loss_var_name\";\n"
                           "extern const char *const kPlaces;\n"
                           "std::unordered_set<std::string> &MultiDevBuilders();\n"
                           "PADDLE_API void SetDeviceCount(Graph *g, int n);\n"
                           "DECLARE_bool(md_flag);\n"
                           "class MdBuilder {\n"
                           " public:\n"
                           "  void Apply(const Graph &g) const;\n"
                           "};\n"
                           "inline int Twice(int n) { return Helper(n) * 2; }\n"
                           "}  // namespace paddle\n");
    assert_true(has_func(h, "kLossVarName"));
    assert_true(has_func(h, "kPlaces"));
    assert_true(has_func(h, "MultiDevBuilders"));
    assert_true(has_func(h, "SetDeviceCount"));
    assert_true(has_func(h, "Twice"));
    assert_false(has_func(h, "Apply"));   /* a member */
    assert_false(has_func(h, "Helper"));  /* a call */
    assert_false(has_func(h, "Lookup"));  /* a macro's body */
    assert_false(has_func(h, "DECLARE_bool"));
    assert_false(has_func(h, "defined")); /* a directive's */
    assert_false(has_func(h, "COMMON_DECLARE_bool"));
    assert_true(has_func(g, "Apply")); /* a source's definition, its branches' parameters aside */
    const ix_file *k = add(ix, "details/helper.cc", SUNSET_LANG_CPP,
                           "namespace paddle {\n"
                           "static int Local(int x) { return x; }\n"
                           "static constexpr size_t kIdx = -1UL;\n"
                           "namespace {\nint Hidden(int x) { return x; }\n}  // namespace\n"
                           "int Declared(int x);\n"
                           "void Foo::Bar() { Called(1); }\n"
                           "std::vector<std::unique_ptr<Graph>> Split(\n    std::shared_ptr<Graph> g) {\n"
                           "  return Local(1);\n}\n"
                           "bool HasOp(const Graph &g) noexcept { return Local(0); }\n"
                           "}  // namespace paddle\n");
    assert_true(has_func(k, "Split"));
    assert_true(has_func(k, "HasOp"));
    assert_false(has_func(k, "Local"));    /* static: the file's own */
    assert_false(has_func(k, "Hidden"));   /* in an anonymous namespace */
    assert_false(has_func(k, "Declared")); /* no body */
    assert_false(has_func(k, "Bar"));      /* an out-of-line member */
    assert_false(has_func(k, "Called"));   /* a call */
    assert_false(has_func(k, "kIdx"));
    assert_int_equal(k->funcs.n, 2);
    /* a source with classes: the names outside their bodies, and each body's strings */
    const ix_file *b = add(ix, "details/builder.cc", SUNSET_LANG_CPP,
                           "class Builder {\n  void A() { AppendPass(\"in_pass\"); Helper(); }\n};\n"
                           "void Run() { Apply(\"out_pass\"); }\nUSE_PASS(in_pass);\n");
    assert_true(ix_hashes_have(b->outside, b->n_outside, "out_pass"));
    assert_true(ix_hashes_have(b->outside, b->n_outside, "Apply"));
    assert_false(ix_hashes_have(b->outside, b->n_outside, "in_pass")); /* a USE_PASS argument */
    assert_false(ix_hashes_have(b->outside, b->n_outside, "Helper"));  /* in the class */
    const ix_class *bc = &VEC_AT(&b->classes, ix_class, 0);
    assert_true(ix_hashes_have(bc->names, bc->n_names, "in_pass"));
    assert_false(ix_hashes_have(bc->names, bc->n_names, "out_pass"));
    assert_true(ix_file_uses(b, "in_pass"));
    sunset_index_free(ix);
}

static void cmake_nul_byte(void **state) {
    static const char text[] = "cc_library(a\0b DEPS c)\nSc(\0";
    alarm(10);
    sunset_index *ix = new_index();
    sunset_source src = {"CMakeLists.txt", "CMakeLists.txt", text, sizeof text - 1, SUNSET_LANG_CMAKE};
    assert_int_equal(sunset_index_add(ix, &src), 0);
    sunset_index_finish(ix);
    const ix_file *f = sunset_index_file(ix, "CMakeLists.txt");
    assert_non_null(f);
    /* Sc( is never closed: the one tokenizer (base/cmake.c) forgets it, as the frontend does */
    assert_int_equal(f->cmds.n, 1);
    const ix_cmd *c = &VEC_AT(&f->cmds, ix_cmd, 0);
    assert_string_equal(c->name, "cc_library");
    assert_int_equal(c->n_args, 4); /* a, b, DEPS, c: the NUL separates */
    assert_string_equal(c->args[1], "b");
    sunset_index_free(ix);
    alarm(0);
}

/* The index reads CMake with the frontend's tokenizer (base/cmake.c): a bracket argument is
 * one argument without its brackets, a bracket comment inside an argument list is skipped to
 * its end (not to the end of its line), a quoted argument's escapes are resolved, and a
 * continuation inside quotes still counts its line. */
static void cmake_brackets_and_escapes(void **state) {
    (void)state;
    sunset_index *ix = sunset_index_new();
    const ix_file *f = add(ix, "CMakeLists.txt", SUNSET_LANG_CMAKE,
                           "cc_library(x SRCS [[a b.cc]] #[[ DEPS gone\n ]] DEPS y\n"
                           "  \"q\\\"r\\\n s\" [=[z]]w]=])\n"
                           "cc_test(t)\n");
    assert_int_equal(f->cmds.n, 2);
    const ix_cmd *c = &VEC_AT(&f->cmds, ix_cmd, 0);
    assert_int_equal(c->n_args, 7);
    assert_string_equal(c->args[2], "a b.cc");
    assert_string_equal(c->args[3], "DEPS");
    assert_string_equal(c->args[4], "y");
    assert_int_equal(c->arg_lines[4], 2);
    assert_string_equal(c->args[5], "q\"r\n s");
    assert_int_equal(c->arg_lines[5], 3);
    assert_string_equal(c->args[6], "z]]w");
    assert_int_equal(c->end, 4);
    const ix_cmd *t = &VEC_AT(&f->cmds, ix_cmd, 1);
    assert_string_equal(t->name, "cc_test");
    assert_int_equal(t->line, 5);
    sunset_index_free(ix);
}

static void cmake_and_shell(void **state) {
    sunset_index *ix = new_index();
    const ix_file *f = add(ix, "d/CMakeLists.txt", SUNSET_LANG_CMAKE,
                           "# cc_library(commented SRCS x.cc)\n"
                           "set(srcs a.cc\n    b.cc)\n"
                           "cc_library(\n  lib\n  SRCS ${srcs} \"c d.cc\" # tail\n  DEPS dep1 dep2)\n"
                           "py_test_modules(test_x MODULES test_x ENVS FLAGS_f=1)\n");
    assert_int_equal(f->cmds.n, 3);
    const ix_cmd *s = &VEC_AT(&f->cmds, ix_cmd, 0);
    assert_string_equal(s->name, "set");
    assert_int_equal(s->n_args, 3);
    assert_int_equal(s->line, 2);
    assert_int_equal(s->end, 3);
    const ix_cmd *c = &VEC_AT(&f->cmds, ix_cmd, 1);
    assert_string_equal(c->name, "cc_library");
    assert_int_equal(c->n_args, 7);
    assert_string_equal(c->args[0], "lib");
    assert_int_equal(c->arg_lines[0], 5);
    assert_string_equal(c->args[2], "${srcs}");
    assert_string_equal(c->args[3], "c d.cc");
    assert_string_equal(c->args[6], "dep2");
    assert_int_equal(c->arg_lines[6], 7);
    assert_int_equal(c->line, 4);
    assert_int_equal(c->end, 7);
    assert_true(ix_file_uses(f, "FLAGS_f"));
    const ix_file *sh = add(ix, "tools/run.sh", SUNSET_LANG_SHELL,
                            "disable=\"^test_one$|\\\n^test_two$\"\necho done\n");
    assert_int_equal(sh->list_words.n, 2);
    assert_string_equal(VEC_AT(&sh->list_words, ix_word, 1).text, "test_two");
    assert_int_equal(VEC_AT(&sh->list_words, ix_word, 1).line, 2);
    sunset_index_free(ix);
}

static void order_independent(void **state) {
    const char *paths[] = {"c.py", "a.py", "b/x.py", "b.py"};
    sunset_index *one = new_index(), *two = new_index();
    for (int i = 0; i < 4; i++) {
        sunset_source s1 = {paths[i], paths[i], "x = 1\n", 6, SUNSET_LANG_PYTHON};
        sunset_source s2 = {paths[3 - i], paths[3 - i], "x = 1\n", 6, SUNSET_LANG_PYTHON};
        assert_int_equal(sunset_index_add(one, &s1), 0);
        assert_int_equal(sunset_index_add(two, &s2), 0);
    }
    sunset_index_finish(one);
    sunset_index_finish(two);
    for (int i = 0; i < 4; i++)
        assert_string_equal(VEC_AT(&one->files, ix_file *, i)->path, VEC_AT(&two->files, ix_file *, i)->path);
    assert_string_equal(VEC_AT(&one->files, ix_file *, 0)->path, "a.py");
    assert_int_equal(sunset_index_file_pos(one, "b/x.py"), 2);
    assert_int_equal(sunset_index_file_pos(one, "zz.py"), -1);
    sunset_index_free(one);
    sunset_index_free(two);
}

/* A Python file's names are the union of those outside top-level class bodies and each such
 * class's: merged from the sorted sets for a few classes, gathered in a set for many; either
 * way each name is there once, in ascending order. A from-import's names share their module.
 * Strings past the first chunk of the lexers' arena, and an identifier that ends the file
 * after more than a 16-byte scan block, come through packing whole. */
static void names_union_and_packing(void **state) {
    for (int classes = 2; classes <= 12; classes += 10) {
        char text[4096];
        size_t len = (size_t)snprintf(text, sizeof text, "from pkg.sub import a_name, b_name, c_name\n");
        for (int k = 0; k < classes; k++)
            len += (size_t)snprintf(text + len, sizeof text - len, "class Klass%d:\n    attr_%d = shared_name + only_%d\n",
                                    k, k, k);
        snprintf(text + len, sizeof text - len, "outside_name = 1\n");
        sunset_index *ix = new_index();
        const ix_file *f = add(ix, "m.py", SUNSET_LANG_PYTHON, text);
        assert_int_equal(f->n_names, 2 * classes + 2);
        for (size_t i = 1; i < f->n_names; i++) assert_true(f->names[i - 1] < f->names[i]);
        char name[32];
        for (int k = 0; k < classes; k++) {
            snprintf(name, sizeof name, "only_%d", k);
            assert_true(ix_file_uses(f, name));
            const ix_class *c = &VEC_AT(&f->classes, ix_class, k);
            assert_true(ix_hashes_have(c->names, c->n_names, name));
            assert_false(ix_hashes_have(f->outside, f->n_outside, name));
        }
        assert_true(ix_file_uses(f, "shared_name"));
        assert_true(ix_file_uses(f, "outside_name"));
        assert_false(ix_file_uses(f, "a_name")); /* import lines are not uses */
        assert_int_equal(f->imports.n, 3);
        for (size_t i = 0; i < 3; i++) assert_string_equal(VEC_AT(&f->imports, ix_import, i).module, "pkg.sub");
        assert_string_equal(VEC_AT(&f->imports, ix_import, 2).name, "c_name");
        sunset_index_free(ix);
    }
    char cm[8192];
    size_t len = (size_t)snprintf(cm, sizeof cm, "set(v");
    for (int k = 0; k < 300; k++) len += (size_t)snprintf(cm + len, sizeof cm - len, " \"argument_number_%03d\"", k);
    snprintf(cm + len, sizeof cm - len, ")\n");
    sunset_index *ix = new_index();
    const ix_file *f = add(ix, "CMakeLists.txt", SUNSET_LANG_CMAKE, cm);
    assert_int_equal(f->cmds.n, 1);
    const ix_cmd *c = &VEC_AT(&f->cmds, ix_cmd, 0);
    assert_int_equal(c->n_args, 301);
    assert_string_equal(c->args[1], "argument_number_000");
    assert_string_equal(c->args[300], "argument_number_299");
    const ix_file *cc = add(ix, "e.cc", SUNSET_LANG_CPP, "#include \"a/b.h\"\nint x = call(an_identifier_longer_than_a_block)");
    assert_true(ix_file_uses(cc, "an_identifier_longer_than_a_block"));
    assert_false(ix_file_uses(cc, "an_identifier_longer_than_a_bloc"));
    assert_string_equal(VEC_AT(&cc->includes, ix_include, 0).path, "a/b.h");
    sunset_index_free(ix);
}

/* Thousands of names of every length (the hash's word loop and tail, the sort's partitions
 * and its insertion pass): the name set is strictly ascending and finds each name and no other. */
static void many_names_sorted(void **state) {
    size_t cap = 4000 * 40;
    char *text = malloc(cap), *absent = malloc(64);
    assert_non_null(text);
    assert_non_null(absent);
    size_t len = 0;
    for (int i = 0; i < 4000; i++)
        len += (size_t)snprintf(text + len, cap - len, "%.*s%d = 1\n", i % 17 + 3, "name_of_some_length", i);
    sunset_index *ix = new_index();
    const ix_file *f = add(ix, "many.py", SUNSET_LANG_PYTHON, text);
    assert_int_equal(f->n_names, 4000);
    for (size_t i = 1; i < f->n_names; i++) assert_true(f->names[i - 1] < f->names[i]);
    for (int i = 0; i < 4000; i++) {
        snprintf(absent, 64, "%.*s%d", i % 17 + 3, "name_of_some_length", i);
        assert_true(ix_file_uses(f, absent));
        snprintf(absent, 64, "%.*s%d", i % 17 + 3, "other_of_some_length", i);
        assert_false(ix_file_uses(f, absent));
    }
    sunset_index_free(ix);
    free(text);
    free(absent);
}

static void oom_never_leaks(void **state) {
    const struct {
        const char *path;
        sunset_lang lang;
        const char *text;
    } files[] = {{"a.py", SUNSET_LANG_PYTHON, NULL}, {"b.h", SUNSET_LANG_CPP, NULL},
                 {"CMakeLists.txt", SUNSET_LANG_CMAKE, "cc_library(x SRCS a.cc DEPS y)\n"}};
    for (size_t k = 0; k < 3; k++) {
        const char *text = k == 0 ? PY : k == 1 ? CC : files[k].text;
        bool succeeded = false;
        for (long n = 1; n < 2000 && !succeeded; n++) {
            long before = sunset_alloc_live();
            sunset_index *ix = new_index();
            sunset_alloc_fail_after(n);
            int rc = -1;
            if (ix) {
                sunset_source s = {files[k].path, files[k].path, text, strlen(text), files[k].lang};
                rc = sunset_index_add(ix, &s);
            }
            sunset_alloc_fail_after(0);
            succeeded = ix && rc == 0;
            sunset_index_free(ix);
            assert_int_equal(sunset_alloc_live(), before);
        }
        assert_true(succeeded);
    }
}

/* ---- the content cache's form of an entry (sunset_index_export / sunset_index_adopt) ---- */

/* Every fact of f, as text: two files with the same dump answer every question alike. */
static void dump_words(FILE *o, const char *what, const vec *v) {
    for (size_t i = 0; i < v->n; i++) {
        const ix_word *w = &VEC_AT(v, ix_word, i);
        fprintf(o, "%s %s %u-%u\n", what, w->text, w->line, w->end);
    }
}

static void dump_hashes(FILE *o, const char *what, const uint64_t *h, size_t n) {
    fprintf(o, "%s", what);
    for (size_t i = 0; i < n; i++) fprintf(o, " %llx", (unsigned long long)h[i]);
    fprintf(o, "\n");
}

static char *dump(const ix_file *f) {
    char *buf = NULL;
    size_t len = 0;
    FILE *o = open_memstream(&buf, &len);
    fprintf(o, "%s lang %d size %zu lines %u blank %d\n", f->path, f->lang, f->size, f->n_lines, f->blank);
    for (size_t i = 0; i < f->classes.n; i++) {
        const ix_class *c = &VEC_AT(&f->classes, ix_class, i);
        fprintf(o, "class %s %u-%u top %d dec %d used %u:", c->name, c->line, c->end, c->top, c->decorated, c->used_at);
        for (uint32_t b = 0; b < c->n_bases; b++) fprintf(o, " %s", c->bases[b]);
        dump_hashes(o, " names", c->names, c->n_names);
    }
    for (size_t i = 0; i < f->funcs.n; i++)
        fprintf(o, "def %s %u-%u\n", VEC_AT(&f->funcs, ix_func, i).name, VEC_AT(&f->funcs, ix_func, i).line,
                VEC_AT(&f->funcs, ix_func, i).end);
    for (size_t i = 0; i < f->imports.n; i++) {
        const ix_import *m = &VEC_AT(&f->imports, ix_import, i);
        fprintf(o, "import %s %s %s %u-%u %d\n", m->module, m->name ? m->name : "-", m->alias ? m->alias : "-",
                m->line, m->end, m->used);
    }
    for (size_t i = 0; i < f->aliases.n; i++) {
        const ix_alias *a = &VEC_AT(&f->aliases, ix_alias, i);
        fprintf(o, "alias %s %s %u\n", a->name, a->value ? a->value : "-", a->line);
    }
    for (size_t i = 0; i < f->includes.n; i++)
        fprintf(o, "include %s %u\n", VEC_AT(&f->includes, ix_include, i).path, VEC_AT(&f->includes, ix_include, i).line);
    for (size_t i = 0; i < f->cmds.n; i++) {
        const ix_cmd *c = &VEC_AT(&f->cmds, ix_cmd, i);
        fprintf(o, "cmd %s %u-%u:", c->name, c->line, c->end);
        for (uint32_t a = 0; a < c->n_args; a++) fprintf(o, " %s@%u", c->args[a], c->arg_lines[a]);
        fprintf(o, "\n");
    }
    dump_words(o, "flag", &f->flag_defs);
    dump_words(o, "pass", &f->pass_regs);
    dump_words(o, "op", &f->op_regs);
    dump_words(o, "use", &f->reg_uses);
    dump_words(o, "word", &f->list_words);
    dump_words(o, "macro", &f->macros);
    dump_words(o, "run", &f->op_runs);
    dump_hashes(o, "names", f->names, f->n_names);
    dump_hashes(o, "outside", f->outside, f->n_outside);
    fclose(o);
    return buf;
}

/* An entry exported to bytes and adopted by another index is the entry: every fact of every
 * language's file; the bytes hold no pointer (a copy moved elsewhere adopts alike). Bytes
 * that do not fit the file (another path, size or language) or do not decode (an offset past
 * the end, a misaligned array, a count past the end) are refused and leave nothing behind. */
/* The facts digest (the removal plan's cache key, index/digest.c) covers the attribute-only
 * uses of imported names: two files alike in every other fact, `core` used only as an
 * attribute inside class K in one and also bare in the other, digest differently (a plan kept
 * across that edit would read the old one's ix_attr_only). */
static void digest_covers_attribute_uses(void **state) {
    (void)state;
    const char *texts[] = {"import core\ncore.x\n\n\nclass K:\n    def f(self):\n        return base.core\n",
                           "import core\ncore.x\n\n\nclass K:\n    def f(self):\n        return base.core, core\n"};
    uint64_t d[2];
    size_t n_attr[2];
    for (int i = 0; i < 2; i++) {
        sunset_index *ix = new_index();
        const ix_file *f = add(ix, "m.py", SUNSET_LANG_PYTHON, texts[i]);
        n_attr[i] = f->n_attr;
        assert_true(sunset_index_facts_digest(ix, 7, &d[i]));
        sunset_index_free(ix);
    }
    assert_int_equal(n_attr[0], n_attr[1] + 1); /* the class scope's attribute-only `core` */
    assert_true(d[0] != d[1]);
}

/* The digest is taken when an entry is kept for the content cache, else when asked: both give
 * one number, and so does an entry exported and adopted by another index. */
static void digest_taken_late_is_the_same(void **state) {
    (void)state;
    const char *text = "import core\n\n\nclass K(core.Base):\n    def f(self):\n        return core.x\n";
    sunset_source src = {"m.py", "m.py", text, strlen(text), SUNSET_LANG_PYTHON};
    sunset_index *ixs[3] = {new_index(), new_index(), new_index()}; /* late, kept, adopted */
    const void *live = NULL;
    size_t n = 0;
    assert_int_equal(sunset_index_add(ixs[0], &src), 0);
    assert_int_equal(sunset_index_add_keep(ixs[1], &src, &live, &n), 0);
    assert_non_null(live);
    uint64_t *bytes = calloc(1, n + 8); /* 8-aligned, as the cache keeps them */
    assert_non_null(bytes);
    memcpy(bytes, live, n);
    sunset_index_export((char *)bytes, live, n);
    assert_true(sunset_index_adopt(ixs[2], &src, bytes, n));
    uint64_t d[3];
    for (int i = 0; i < 3; i++) {
        sunset_index_finish(ixs[i]);
        assert_true(sunset_index_facts_digest(ixs[i], 7, &d[i]));
    }
    assert_true(sunset_index_file(ixs[0], "m.py")->facts == 0); /* not taken: nobody kept it */
    assert_true(sunset_index_file(ixs[1], "m.py")->facts != 0);
    assert_true(d[0] == d[1]);
    assert_true(d[1] == d[2]);
    for (int i = 0; i < 3; i++) sunset_index_free(ixs[i]);
    free(bytes);
}

static void export_adopt_round_trip(void **state) {
    (void)state;
    struct { const char *path; sunset_lang lang; const char *text; } in[] = {
        {"m.py", SUNSET_LANG_PYTHON, PY},
        {"a.cc", SUNSET_LANG_CPP, CC},
        {"CMakeLists.txt", SUNSET_LANG_CMAKE, "set(srcs a.cc\n    b.cc)\ncc_library(lib SRCS ${srcs} DEPS d)\n"},
        {"run.sh", SUNSET_LANG_SHELL, "disable=\"^test_one$|\\\n^test_two$\"\n"},
        {"empty.py", SUNSET_LANG_PYTHON, ""},
    };
    enum { N = sizeof in / sizeof in[0] };
    sunset_index *one = new_index(), *two = new_index();
    uint64_t *bytes[N]; /* 8-aligned, as the cache keeps them */
    size_t n[N];
    for (int i = 0; i < N; i++) {
        sunset_source src = {in[i].path, in[i].path, in[i].text, strlen(in[i].text), in[i].lang};
        const void *live = NULL;
        assert_int_equal(sunset_index_add_keep(one, &src, &live, &n[i]), 0);
        assert_non_null(live);
        bytes[i] = calloc(1, n[i] + 8);
        memcpy(bytes[i], live, n[i]);
        sunset_index_export((char *)bytes[i], live, n[i]);
        uint64_t *moved = calloc(1, n[i] + 8); /* offsets, not addresses: any copy adopts */
        memcpy(moved, bytes[i], n[i]);
        free(bytes[i]);
        bytes[i] = moved;
    }
    const char *wrong_path = "m2.py";
    sunset_source py = {in[0].path, in[0].path, in[0].text, strlen(in[0].text), in[0].lang};
    sunset_source other = py;
    other.path = wrong_path;
    assert_false(sunset_index_adopt(two, &other, bytes[0], n[0]));
    other = py;
    other.len--;
    assert_false(sunset_index_adopt(two, &other, bytes[0], n[0]));
    other = py;
    other.lang = SUNSET_LANG_CPP;
    assert_false(sunset_index_adopt(two, &other, bytes[0], n[0]));
    /* damaged: the imports' array moved past the end, then misaligned, then overlong */
    ix_file *h = (ix_file *)(void *)bytes[0];
    void *good = h->imports.v;
    size_t good_n = h->imports.n;
    char *before = malloc(n[0]);
    memcpy(before, bytes[0], n[0]);
    h->imports.v = (void *)(uintptr_t)(n[0] + 8);
    assert_false(sunset_index_adopt(two, &py, bytes[0], n[0]));
    h->imports.v = (void *)((uintptr_t)good + 4);
    assert_false(sunset_index_adopt(two, &py, bytes[0], n[0]));
    h->imports.v = good;
    h->imports.n = n[0];
    assert_false(sunset_index_adopt(two, &py, bytes[0], n[0]));
    h->imports.n = good_n;
    assert_memory_equal(before, bytes[0], n[0]); /* refused bytes are left as they were */
    free(before);
    assert_int_equal(two->files.n, 0);
    for (int i = N - 1; i >= 0; i--) {
        sunset_source src = {in[i].path, in[i].path, in[i].text, strlen(in[i].text), in[i].lang};
        assert_true(sunset_index_adopt(two, &src, bytes[i], n[i]));
    }
    assert_int_equal(two->replayed, N);
    sunset_index_finish(one);
    sunset_index_finish(two);
    for (int i = 0; i < N; i++) {
        char *a = dump(sunset_index_file(one, in[i].path)), *b = dump(sunset_index_file(two, in[i].path));
        assert_string_equal(a, b);
        free(a);
        free(b);
    }
    assert_true(ix_file_uses(sunset_index_file(two, "m.py"), "TestParallelExecutorBase"));
    sunset_index_free(one);
    sunset_index_free(two);
    for (int i = 0; i < N; i++) free(bytes[i]);
}

/* The content cache's bytes (read-only pages here, as the cache maps its file) are adopted
 * where they lie and never written: rebasing them in place copied every page of the cache's
 * mapping. Finish rebases a copy, with every fact of the file. */
static void adopt_never_writes_bytes(void **state) {
    (void)state;
    sunset_index *one = new_index(), *two = new_index();
    sunset_source src = {"m.py", "m.py", PY, strlen(PY), SUNSET_LANG_PYTHON};
    const void *live = NULL;
    size_t n = 0;
    assert_int_equal(sunset_index_add_keep(one, &src, &live, &n), 0);
    size_t page = (size_t)sysconf(_SC_PAGESIZE), len = (n + page - 1) / page * page;
    char *ro = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    assert_true(ro != MAP_FAILED);
    memcpy(ro, live, n);
    sunset_index_export(ro, live, n);
    assert_int_equal(mprotect(ro, len, PROT_READ), 0);
    assert_true(sunset_index_adopt(two, &src, ro, n)); /* a write here faults */
    sunset_index_finish(one);
    sunset_index_finish(two);
    char *a = dump(sunset_index_file(one, "m.py")), *b = dump(sunset_index_file(two, "m.py"));
    assert_string_equal(a, b);
    free(a);
    free(b);
    sunset_index_free(one);
    sunset_index_free(two);
    munmap(ro, len);
}

/* The content cache's bytes are adopted where they lie and never written (the cache maps its
 * file read-only: rebasing there copied every page of it), in a lazy index too, which answers
 * the kept plan's questions (digest, positions, line counts) from the bytes and equals the
 * eager index once realized. The bytes sit in read-only pages: a write faults. */
static void adopt_reads_only_lazily(void **state) {
    (void)state;
    struct { const char *path; sunset_lang lang; const char *text; } in[] = {
        {"m.py", SUNSET_LANG_PYTHON, PY},
        {"a.cc", SUNSET_LANG_CPP, CC},
        {"lexed.py", SUNSET_LANG_PYTHON, "import os\nx = 1\n"},
    };
    enum { N = sizeof in / sizeof in[0], ADOPTED = 2 };
    sunset_index *one = new_index(), *eager = new_index(), *lazy = new_index();
    sunset_index_set_lazy(lazy);
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    char *ro[ADOPTED];
    size_t n[ADOPTED], len[ADOPTED];
    for (int i = 0; i < N; i++) {
        sunset_source src = {in[i].path, in[i].path, in[i].text, strlen(in[i].text), in[i].lang};
        if (i >= ADOPTED) { /* lexed in both: a lazy index mixes lexed and adopted files */
            assert_int_equal(sunset_index_add(eager, &src), 0);
            assert_int_equal(sunset_index_add(lazy, &src), 0);
            continue;
        }
        const void *live = NULL;
        assert_int_equal(sunset_index_add_keep(one, &src, &live, &n[i]), 0);
        len[i] = (n[i] + page - 1) / page * page;
        ro[i] = mmap(NULL, len[i], PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        assert_true(ro[i] != MAP_FAILED);
        memcpy(ro[i], live, n[i]);
        sunset_index_export(ro[i], live, n[i]);
        assert_int_equal(mprotect(ro[i], len[i], PROT_READ), 0);
        assert_true(sunset_index_adopt(eager, &src, ro[i], n[i]));
        assert_true(sunset_index_adopt(lazy, &src, ro[i], n[i]));
    }
    sunset_index_finish(eager);
    sunset_index_finish(lazy);
    uint64_t de, dl;
    assert_true(sunset_index_facts_digest(eager, 3, &de));
    assert_true(sunset_index_facts_digest(lazy, 3, &dl));
    assert_true(de == dl);
    for (int i = 0; i < N; i++) {
        uint32_t le = 0, ll = 0;
        assert_int_equal(sunset_index_file_pos(eager, in[i].path), sunset_index_file_pos(lazy, in[i].path));
        assert_true(sunset_index_file_lines(eager, in[i].path, &le));
        assert_true(sunset_index_file_lines(lazy, in[i].path, &ll));
        assert_int_equal(le, ll);
        assert_true(le > 0);
    }
    assert_null(sunset_index_file(lazy, "m.py")); /* still bytes: no facts to read yet */
    assert_non_null(sunset_index_file(lazy, "lexed.py"));
    assert_false(sunset_index_file_lines(lazy, "none.py", &(uint32_t){0}));
    assert_true(sunset_index_realize(lazy));
    for (int i = 0; i < N; i++) {
        char *a = dump(sunset_index_file(eager, in[i].path)), *b = dump(sunset_index_file(lazy, in[i].path));
        assert_string_equal(a, b);
        free(a);
        free(b);
    }
    assert_true(ix_file_uses(sunset_index_file(lazy, "m.py"), "TestParallelExecutorBase"));
    sunset_index_free(one);
    sunset_index_free(eager);
    sunset_index_free(lazy);
    for (int i = 0; i < ADOPTED; i++) munmap(ro[i], len[i]);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(python_facts),
        cmocka_unit_test(python_blank_and_tools),
        cmocka_unit_test(python_aliases),
        cmocka_unit_test(cpp_facts),
        cmocka_unit_test(cpp_lexer_byte_classes),
        cmocka_unit_test(flag_doc_comments),
        cmocka_unit_test(cpp_wrappers_branches_and_decls),
        cmocka_unit_test(macro_roles_from_settings),
        cmocka_unit_test(cmake_and_shell),
        cmocka_unit_test(cmake_nul_byte),
        cmocka_unit_test(cmake_brackets_and_escapes),
        cmocka_unit_test(order_independent),
        cmocka_unit_test(many_names_sorted),
        cmocka_unit_test(names_union_and_packing),
        cmocka_unit_test(oom_never_leaks),
        cmocka_unit_test(export_adopt_round_trip),
        cmocka_unit_test(adopt_never_writes_bytes),
        cmocka_unit_test(adopt_reads_only_lazily),
        cmocka_unit_test(digest_covers_attribute_uses),
        cmocka_unit_test(digest_taken_late_is_the_same),
    };
    return cmocka_run_group_tests(tests, load_rules, free_rules);
}
