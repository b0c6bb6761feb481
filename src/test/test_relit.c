/*
 * test_relit.c — the required literals of a regex (src/core/relit.h): the sets read from
 * patterns the rules use, the constructs that must give up (case-insensitive options, verbs,
 * backreferences), the edges where a too eager reading would lose a match (optional parts,
 * empty branches, anchors, lookarounds, a class, a repeat), and, over every pattern of a
 * table against texts made from them, that PCRE2 never matches a text the literals rule out.
 * Through the engine: regex rules still find a name spliced over two lines, a fullwidth name
 * folded by NFKC and a case-insensitive phrase, and the generated-file test still reports the
 * earliest marker line when markers are tried one by one.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include "core/engine.h"
#include "core/relit.h"
#include "core/ruleset.h"
#include "lang/registry.h"

static bool pcre_matches(const char *pat, const char *s) {
    int ec;
    PCRE2_SIZE eo;
    pcre2_code *re = pcre2_compile((PCRE2_SPTR)pat, PCRE2_ZERO_TERMINATED, 0, &ec, &eo, NULL);
    assert_non_null(re);
    pcre2_match_data *md = pcre2_match_data_create_from_pattern(re, NULL);
    int rc = pcre2_match(re, (PCRE2_SPTR)s, strlen(s), 0, 0, md, NULL);
    pcre2_match_data_free(md);
    pcre2_code_free(re);
    return rc >= 0;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* The literal set of pat, sorted, joined by ',' ("" when NULL). */
static void lits_of(const char *pat, char *out, size_t size) {
    relit *rl = relit_new(pat, strlen(pat), 0);
    const char *v[64];
    size_t n = relit_count(rl);
    for (size_t i = 0; i < n; i++) v[i] = relit_at(rl, i, NULL);
    qsort(v, n, sizeof *v, cmp_str);
    out[0] = 0;
    for (size_t i = 0; i < n; i++) snprintf(out + strlen(out), size - strlen(out), "%s%s", i ? "," : "", v[i]);
    relit_free(rl);
}

#define ASSERT_LITS(pat, want)                  \
    do {                                        \
        char got_[1024];                        \
        lits_of(pat, got_, sizeof got_);        \
        assert_string_equal(got_, want);        \
    } while (0)

static void reads_rule_patterns(void **state) {
    (void)state;
    ASSERT_LITS("ExecutionStrategy|exec(ution|ute)?_strategy|exe_strategy",
                "ExecutionStrategy,exe_strategy,exec_strategy,execute_strategy,execution_strategy");
    ASSERT_LITS("OpHandle(?!r)|[a-z]_op_handle(?!r)", "OpHandle,_op_handle");
    ASSERT_LITS("^k?Graph(Dep)?Vars$", "GraphDepVars,GraphVars,kGraphDepVars,kGraphVars");
    ASSERT_LITS("\\w*(_op_handle|ssa_graph_executor)=\\d", "_op_handle=,ssa_graph_executor=");
    ASSERT_LITS("\\bgrep\\b.*\\w_op_handle\\b", "_op_handle");
    ASSERT_LITS("(?<!^Test)ParallelExecutor(?!Base$)", "ParallelExecutor");
    ASSERT_LITS("^(AsyncExecutor\\w*|ExecutorThreadWorker)$", "AsyncExecutor,ExecutorThreadWorker");
    ASSERT_LITS("(?<name>Pass)(?P<b>Builder)('x')", "PassBuilder'x'");
    ASSERT_LITS("\\$\\{(SSA_DEPS)\\}", "${SSA_DEPS}");
    ASSERT_LITS("a\\.b", "a.b");
    ASSERT_LITS("(?:ab)+c", "ab");
    ASSERT_LITS("x{2,3}yz", "yz");
    ASSERT_LITS("^\\s*(//|#)\\s*@generated\\b", "@generated");
}

/* Patterns the analysis must not read, or that need no literal: NULL, the regex always runs. */
static void gives_up(void **state) {
    (void)state;
    const char *none[] = {
        "(?i)paddle", "(?x) P E", "\\bhttps?://\\S+(*SKIP)(*F)|\\bpaddle", "(a)\\1", "\\Qa.b\\E",
        "\\x41BC", "\\p{Lu}ABC", "ABC\\K", "a|", "|abc", "(abc)?", "(abc)*", "x{0,3}", "^$", ".*",
        "\\w+", "[^abc]", "[a-z]+", "(?|(a)|(b))", "(?#c)abc", "a{", "x{,2}", "abc)", "(abc",
        "[abc", "\\", "(?(1)a|b)", "(?R)", "[\\Q]\\E]abc", "[\\c]]abc",
    };
    for (size_t i = 0; i < sizeof none / sizeof *none; i++) {
        relit *rl = relit_new(none[i], strlen(none[i]), 0);
        if (rl) fail_msg("%s gave %zu literals", none[i], relit_count(rl));
    }
    assert_null(relit_new("abc", 3, PCRE2_CASELESS)); /* any compile option */
    assert_true(relit_may_match(NULL, "", 0));
}

/* Each pair is a pattern and a text it matches that lacks what a careless reading requires. */
static void keeps_edge_matches(void **state) {
    (void)state;
    const char *pairs[][2] = {
        {"exec(ution|ute)?_strategy", "exec_strategy"},          /* an optional group */
        {"exec(ution|ute|)_strategy", "exec_strategy"},          /* an empty branch */
        {"^k?Graph(Dep)?Vars$", "GraphVars"},                    /* optional bytes */
        {"Parallel\\s*Executor", "ParallelExecutor"},            /* a gap that may be empty */
        {"Parallel\\s*Executor", "Parallel \t Executor"},        /* or not */
        {"\\b[Pp]arallel [Ee]xecutors?\\b", "parallel executor"}, /* a class */
        {"(?:ab)+c", "ababc"},                                    /* a repeat */
        {"x{2,3}yz", "xxyz"},
        {"^PE$", "PE"},                                           /* anchors */
        {"a\\b\\.b", "a.b"},
        {"(?=Op)OpHandle", "OpHandle"},                           /* a lookahead's text is not extra */
        {"(?<=_)op_handle", "x_op_handle"},
        {"Op\nHandle", "Op\nHandle"},                             /* a newline in the pattern */
        {"Parallel(?:\\\\\\n)?Executor", "Parallel\\\nExecutor"}, /* a line splice */
        {"caf\xc3\xa9|cafe", "cafe"},                             /* bytes beyond ASCII */
        {"caf\xc3\xa9|cafe", "caf\xc3\xa9"},
        {"[-.]x|y[.-]", "y-"},
        {"[]]x", "]x"},
        {"(?i)parallelexecutor", "ParallelExecutor"},             /* case-insensitive */
        {"(?i:op)Handle", "OPHandle"},
    };
    for (size_t i = 0; i < sizeof pairs / sizeof *pairs; i++) {
        const char *pat = pairs[i][0], *s = pairs[i][1];
        assert_true(pcre_matches(pat, s));
        relit *rl = relit_new(pat, strlen(pat), 0);
        if (!relit_may_match(rl, s, strlen(s))) fail_msg("%s lost its match in \"%s\"", pat, s);
        relit_free(rl);
    }
}

static void rules_out_texts(void **state) {
    (void)state;
    relit *rl = relit_new("ParallelExecutor|SSAGraphExecutor", 33, 0);
    assert_non_null(rl);
    assert_false(relit_may_match(rl, "ParallelExecuto", 15));
    assert_false(relit_may_match(rl, "StandaloneExecutor", 18));
    assert_false(relit_may_match(rl, "", 0));
    assert_true(relit_may_match(rl, "x.SSAGraphExecutor", 18));
    assert_true(relit_may_match(rl, "ParallelExecutor", 16));
    assert_false(relit_may_match(rl, "ParallelExecutor", 15)); /* the length bounds the search */
    relit_free(rl);
    /* long literals in a long text: the strided search, to the text's last byte */
    const char *gen = "^\\s*/\\*\\s*DO NOT EDIT THIS FILE - it is machine generated\\s*\\*/";
    rl = relit_new(gen, strlen(gen), 0);
    assert_int_equal(relit_count(rl), 1);
    char head[400];
    memset(head, ' ', sizeof head);
    const char *lit = "DO NOT EDIT THIS FILE - it is machine generated";
    for (size_t at = 0; at + strlen(lit) <= sizeof head; at += 7) {
        memset(head, 'x', sizeof head);
        memcpy(head + at, lit, strlen(lit));
        assert_true(relit_may_match(rl, head, at + strlen(lit)));
        assert_false(relit_may_match(rl, head, at + strlen(lit) - 1));
    }
    relit_free(rl);
    rl = relit_new("Q|bcd", 5, 0); /* a one-byte literal: no pair test, every byte tried */
    assert_int_equal(relit_count(rl), 2);
    assert_true(relit_may_match(rl, "xxQ", 3));
    assert_true(relit_may_match(rl, "xbcd", 4));
    assert_false(relit_may_match(rl, "xbcdQ", 3));
    relit_free(rl);
    rl = relit_new("[Pp]x", 5, 0); /* one-byte pairs are found by first byte */
    assert_true(relit_may_match(rl, "apx", 3));
    assert_false(relit_may_match(rl, "pPxy", 2));
    relit_free(rl);
}

/* Every pattern against texts spliced from pieces of the patterns and of the edge texts:
 * whenever PCRE2 matches, the literals must allow it. */
static void agrees_with_pcre2(void **state) {
    (void)state;
    const char *pats[] = {
        "ExecutionStrategy|exec(ution|ute)?_strategy|exe_strategy", "OpHandle(?!r)|[a-z]_op_handle(?!r)",
        "^k?Graph(Dep)?Vars$", "\\w*(_op_handle|ssa_graph_executor)=\\d", "(?<!^Test)ParallelExecutor(?!Base$)",
        "^(?![Tt]est|use_pe$)\\w*(ParallelExecutor|parallel_executor)", "\\b[Pp]arallel[ -][Ee]xecutors?\\b",
        "^\\s*(optional|required)?\\s*\\w+\\s+(fix_op_run_order)\\s*=\\s*\\d+", "(^|/)details/(\\w+_)?op_handle\\.h$",
        "--(use_pe|fix_op)\\b", "^\\s*-?\\s*[\"']?(use_pe|fix_op)[\"']?\\s*[:=]", "(^|::)\\w*OpHandle(Base)?$",
        "(a|b)(c|d)(e|f)(g|h)(i|j)k", "x(?:yz){1,2}w", "p??q+?r",
    };
    const char *pieces[] = {
        "", "Execution", "Strategy", "exec", "ution", "ute", "_strategy", "exe", "OpHandle", "r", "x", "_op_handle",
        "k", "Graph", "Dep", "Vars", "=", "1", "ssa_graph_executor", "Test", "ParallelExecutor", "Base", "test",
        "use_pe", "parallel_executor", "P", "arallel", " ", "-", "e", "xecutor", "s", "optional", "fix_op_run_order",
        "a/", "details/", "fused_", "op_handle", ".h", "--", "fix_op", "\"", ":", "::", "a", "c", "f", "g", "j",
        "yz", "w", "p", "q", "\n",
    };
    size_t np = sizeof pieces / sizeof *pieces;
    char s[256];
    uint32_t seed = 12345;
    for (size_t i = 0; i < sizeof pats / sizeof *pats; i++) {
        relit *rl = relit_new(pats[i], strlen(pats[i]), 0);
        assert_non_null(rl);
        for (int t = 0; t < 4000; t++) {
            s[0] = 0;
            for (int k = 0, parts = 1 + t % 6; k < parts; k++) {
                seed = seed * 1103515245u + 12345u;
                strcat(s, pieces[(seed >> 8) % np]);
            }
            if (pcre_matches(pats[i], s) && !relit_may_match(rl, s, strlen(s)))
                fail_msg("%s matches \"%s\", the literals ruled it out", pats[i], s);
        }
        relit_free(rl);
    }
}


static const char *pack =
    "{\"schema\":1,\"settings\":{\"families\":[{\"id\":\"parallel_executor\",\"title\":\"PE\"}],"
    "\"generated_markers\":[\"^// first marker\", \"@generated\\\\b\", \"(?i)auto-GENERATED\"]},"
    "\"family\":\"parallel_executor\",\"rules\":["
    "{\"id\":\"PE-RE\",\"task\":5,\"languages\":[\"cpp\",\"python\"],\"severity\":\"error\",\"message\":\"m\","
    " \"fix\":\"f\",\"literals\":[\"Parallel\"],\"match\":{\"kind\":\"identifier\",\"pattern\":\"^Parallel(Executor)?$\"}},"
    "{\"id\":\"PE-CASE\",\"task\":5,\"languages\":[\"python\"],\"severity\":\"info\",\"message\":\"m\","
    " \"fix\":\"f\",\"literals\":[\"arallel\"],\"match\":{\"kind\":\"string\",\"pattern\":\"(?i)parallel executor\"}}]}";

static size_t count_rule(const sunset_result *r, const char *id, uint32_t line) {
    size_t n = 0;
    for (size_t i = 0; i < r->n_findings; i++)
        n += strcmp(r->findings[i].rule_id, id) == 0 && r->findings[i].span.line == line;
    return n;
}

static void engine_finds_folded_text(void **state) {
    (void)state;
    sunset_error err = {{0}};
    sunset_ruleset *rs = sunset_ruleset_load_string(pack, "relit.json", "queries", &err);
    assert_non_null(rs);
    sunset_engine_opts o = {SUNSET_ALL_FRONTENDS, .jobs = 1, .queries_dir = "queries", .anchor_all = true};
    sunset_engine *e = sunset_engine_new(rs, &o, &err);
    assert_non_null(e);
    sunset_result r = {0};
    const char *cc = "int Parallel\\\nExecutor = 1;\nint ParallelX = 2;\n";
    assert_int_equal(sunset_engine_scan_buffer(e, "a/x.cc", cc, strlen(cc), &r), 0);
    assert_int_equal(count_rule(&r, "PE-RE", 1), 1); /* spliced: the fact's text is joined */
    assert_int_equal(count_rule(&r, "PE-RE", 3), 0);
    sunset_result_free(&r);
    const char *py = "import paddle\n\xef\xbc\xb0" "arallel = 1\nx = 'Parallel EXECUTOR'\n";
    assert_int_equal(sunset_engine_scan_buffer(e, "a/x.py", py, strlen(py), &r), 0);
    assert_int_equal(count_rule(&r, "PE-RE", 2), 1);   /* fullwidth P, NFKC folded */
    assert_int_equal(count_rule(&r, "PE-CASE", 3), 1); /* (?i): no literals, the regex runs */
    sunset_result_free(&r);
    sunset_engine_free(e);
    sunset_ruleset_free(rs);
}

static void generated_marker_lines(void **state) {
    (void)state;
    sunset_error err = {{0}};
    sunset_ruleset *rs = sunset_ruleset_load_string(pack, "relit.json", "queries", &err);
    assert_non_null(rs);
    pcre2_match_data *md = pcre2_match_data_create(4, NULL);
    static const struct {
        const char *head;
        uint32_t line; /* 0: not generated */
    } cases[] = {
        {"x\n// @generated\n// first marker\n", 2}, /* the second marker's line is the earlier */
        {"// first marker\n// @generated\n", 1},
        {"a\nb\nc\nd\ne\n// @generated\n", 0},       /* past the head */
        {"a\nb\nc\nd\n// @generated", 5},            /* the last line, no newline after it */
        {"/* AUTO-generated */\n", 1},               /* case-insensitive: no literals, always run */
        {"x @generatedy\n", 0},
        {"", 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        uint32_t line = 99;
        bool gen = sunset_ruleset_is_generated(rs, "a/x.cc", cases[i].head, strlen(cases[i].head), md, &line);
        if (gen != (cases[i].line != 0) || line != cases[i].line)
            fail_msg("\"%s\": generated %d at line %u, want line %u", cases[i].head, gen, line, cases[i].line);
    }
    pcre2_match_data_free(md);
    sunset_ruleset_free(rs);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(reads_rule_patterns), cmocka_unit_test(gives_up), cmocka_unit_test(keeps_edge_matches),
        cmocka_unit_test(rules_out_texts),     cmocka_unit_test(agrees_with_pcre2),
        cmocka_unit_test(engine_finds_folded_text), cmocka_unit_test(generated_marker_lines),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
