/*
 * test_lang_facts.c — the frontends' facts tested as data, beside the index's (test_facts.c):
 * each input under testdata/facts/<lang>/ is scanned by its frontend (cpp: clang in fast mode,
 * python: tree-sitter, cmake: the text frontend) into the recorder (test/recorder.h), and what
 * the rules would match is written one fact a line and compared with <input>.facts, reviewed
 * line by line. Shown: includes, imports, bases, definitions (and identifiers flagged as
 * declared), attributes, keyword arguments, calls, strings, CMake arguments, the prose of
 * comments, strings and docstrings the word rules read, scopes and warnings; a plain
 * identifier, a text file's lines and a flow binding are left out (every token or line of the
 * file, not facts a reviewer can check). The recorder stands in for the engine's rule set: its
 * CMake target commands and keywords are those of rules/00-settings.json that the tests name.
 * SUNSET_UPDATE_GOLDEN=1 writes the .facts files instead (make golden).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "base/util.h"
#include "lang/registry.h"
#include "test/factcase.h"
#include "test/recorder.h"

#define SUFFIX ".facts"

static const char *const kind_names[SUNSET_FACT_KIND_COUNT] = {
    [SUNSET_FACT_IDENT] = "ident", [SUNSET_FACT_STRING] = "string", [SUNSET_FACT_INCLUDE] = "include",
    [SUNSET_FACT_IMPORT] = "import", [SUNSET_FACT_BASE] = "base",     [SUNSET_FACT_ATTR] = "attr",
    [SUNSET_FACT_KWARG] = "kwarg",   [SUNSET_FACT_CALL] = "call",     [SUNSET_FACT_DEF] = "def",
    [SUNSET_FACT_CMAKE] = "cmake",   [SUNSET_FACT_LINE] = "line",     [SUNSET_FACT_BIND] = "bind"};
/* SUNSET_FACT_STORE, _DEFINITION, _TARGET, _RETURN, _ARG, _PARAM, by bit */
static const char *const flag_names[] = {"store", "definition", "target", "return", "arg", "param"};
static const char *const ctx_names[SUNSET_CTX_COUNT] = {"code", "comment", "string", "docstring", "dead_code"};

typedef struct lang_case {
    const char *dir;
    sunset_lang lang;
    const sunset_frontend *fe;
} lang_case;

typedef struct run {
    const struct lang_case *lc;
    void *worker;
    int cases, failed;
    sunset_sink sink;
} run;

static void str(sb *b, const char *key, const char *s) {
    if (!s) return;
    sb_printf(b, " %s", key);
    sb_put_json_str(b, s);
}

static bool shown(const rec *r) {
    if (r->type == REC_SCOPE || r->type == REC_WARN || r->type == REC_TEXT) return true;
    if (r->type != REC_FACT) return false;
    if (r->kind == SUNSET_FACT_IDENT) return r->flags & SUNSET_FACT_DEFINITION;
    return r->kind != SUNSET_FACT_LINE && r->kind != SUNSET_FACT_BIND;
}

/* One record a line: what, where, the context when not code, flags, then its strings. */
static void dump(const sunset_sink *s, sb *b) {
    for (size_t i = 0; i < s->n; i++) {
        const rec *r = &s->recs[i];
        if (!shown(r)) continue;
        const char *what = r->type == REC_SCOPE  ? "scope"
                           : r->type == REC_WARN ? "warn"
                           : r->type == REC_TEXT ? "text"
                                                 : kind_names[r->kind];
        if (r->type == REC_SCOPE) sb_printf(b, "%s %u-%u", what, r->span.line, r->span.end_line); /* lines only */
        else sb_printf(b, "%s %u:%u-%u:%u", what, r->span.line, r->span.col, r->span.end_line, r->span.end_col);
        if ((r->type == REC_FACT || r->type == REC_TEXT) && r->ctx != SUNSET_CTX_CODE)
            sb_printf(b, " in_%s", ctx_names[r->ctx]);
        for (unsigned f = 0; r->type == REC_FACT && f < sizeof flag_names / sizeof *flag_names; f++)
            if (r->flags & (1u << f)) sb_printf(b, " +%s", flag_names[f]);
        str(b, "", r->text);
        str(b, "aux=", r->aux);
        str(b, "target=", r->target);
        str(b, "section=", r->section);
        str(b, "qual=", r->qual);
        static const char *const uses[SUNSET_USE_COUNT] = {NULL, "arg", "subscript", "key", "compare"};
        if (r->type == REC_TEXT && r->use > SUNSET_USE_NONE && r->use < SUNSET_USE_COUNT) {
            sb_printf(b, " use=%s", uses[r->use]);
            if (r->use == SUNSET_USE_ARG) sb_printf(b, r->arg < 0 ? ":kw" : ":%d", r->arg);
        }
        sb_putc(b, '\n');
    }
}

static void check_case(void *ud, const char *fs, const char *path) {
    run *r = ud;
    char *data = NULL;
    size_t len = 0;
    assert_int_equal(read_file(fs, 0, &data, &len), 0);
    rec_reset(&r->sink);
    sunset_source src = {path, fs, data, len, r->lc->lang};
    sb got = {0}, expected = {0};
    sb_printf(&got, "scan %s\n", r->lc->fe->scan(r->worker, &src, &r->sink) == 0 ? "ok" : "failed");
    dump(&r->sink, &got);
    assert_false(got.oom);
    sb_printf(&expected, "%s%s", fs, SUFFIX);
    r->cases++;
    if (!factcase_compare(expected.s, &got)) r->failed++;
    sunset_free(data);
    sb_free(&got);
    sb_free(&expected);
}

static void facts_match_their_inputs(void **state) {
    (void)state;
    run r = {0};
    const lang_case langs[] = {{"cpp", SUNSET_LANG_CPP, &sunset_frontend_clang},
                               {"python", SUNSET_LANG_PYTHON, &sunset_frontend_python},
                               {"cmake", SUNSET_LANG_CMAKE, &sunset_frontend_text}};
    struct sunset_ruleset none = {NULL, 0};
    for (size_t i = 0; i < sizeof langs / sizeof *langs; i++) {
        sunset_frontend_config cfg = {.rules = &none, .queries_dir = "queries", .root = "/"};
        sunset_error err = {{0}};
        void *st = NULL;
        assert_int_equal(langs[i].fe->init(&cfg, &st, &err), 0);
        void *w = langs[i].fe->worker_new(st);
        assert_non_null(w);
        char dir[64];
        snprintf(dir, sizeof dir, "%s/%s", FACTS_DIR, langs[i].dir);
        r.lc = &langs[i];
        r.worker = w;
        factcase_walk(dir, "", check_case, &r);
        langs[i].fe->worker_free(w);
        langs[i].fe->fini(st);
    }
    rec_reset(&r.sink);
    if (factcase_update()) printf("wrote %d frontend facts files; review: git diff %s\n", r.cases, FACTS_DIR);
    else printf("%d cases, %d failed\n", r.cases, r.failed);
    assert_true(r.cases >= 8);
    assert_int_equal(r.failed, 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(facts_match_their_inputs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
