/*
 * frontend.c — the C/C++/CUDA frontend. Each file is parsed on its own by libclang and then
 * read three ways:
 *
 *   1. Tokens. clang_tokenize lexes the whole file raw, so code in inactive #if/#elif/#else
 *      branches is seen too (Paddle defines AllReduceOpHandle three times that way). Most
 *      facts come from the tokens: identifiers, comments, string literals, member accesses,
 *      calls, includes, class bases, and an outline of namespaces, classes and function
 *      bodies built by brace matching. Brackets are matched on a persistent stack that
 *      follows the first branch of each conditional and re-joins the others at #endif, so
 *      an unbalanced brace inside one branch does not derail the rest of the file.
 *   2. Cursors. A bounded, iterative walk over the main file's declarations adds function
 *      and method declarations without bodies, and in precise mode exact scopes.
 *   3. References (precise mode only). With a compilation database, files it lists are
 *      parsed with their real arguments and each identifier is resolved to the fully
 *      qualified entity it names.
 *
 * Fast mode (the default) parses with SingleFileParse + SkipFunctionBodies and never opens
 * an include, so it needs no build; in that mode libclang's AST loses out-of-line method
 * definitions of classes declared elsewhere, which is why scopes come from the token
 * outline and the cursors only refine it.
 *
 * Fast mode reuses one translation unit per worker: the first file is parsed under a fixed
 * virtual name and every later one is handed to clang_reparseTranslationUnit as that name's
 * new contents. A fresh parse runs the clang driver (argument parsing, toolchain discovery
 * that stats the file system) for every file, about 0.7 ms of the 1.1 ms a small file costs;
 * a reparse keeps the compiler invocation and skips all of it. The virtual name lies in no
 * directory, so a quoted #include never finds a neighbour (SingleFileParse would not enter it
 * anyway). Precise mode parses each file with its own compile command.
 *
 * Ownership: everything allocated for one file lives in a `cscan` and is freed before
 * scan() returns; the worker owns its CXIndex and the fast-mode translation unit of the last
 * file it parsed; the state owns the compilation database.
 * All memory goes through sunset_malloc; libclang's own objects are disposed with their
 * clang_dispose* functions. No recursion depends on the input's nesting depth.
 *
 * This file is the frontend's seam: the descriptor, init/fini (the compilation database),
 * the workers, the parse on a thread with a large stack, and scan(), which runs the passes
 * that live beside it: tokens.c (the token table), brackets.c (bracket matching across
 * preprocessor branches), outline.c (pass 1), cursors.c (the AST and precise references),
 * facts.c (pass 2) and compdb.c (compile commands). clang_int.h is shared by those files only.
 */
#include "lang/clang/clang_int.h"

#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct parse_job;

/* The worker's parse thread (parse_deep): started by its first parse, it waits for the next
 * job and runs it until the worker is freed. */
typedef struct parser {
    pthread_t th;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    struct parse_job *job; /* posted by the worker, NULL once run */
    bool started, quit;
} parser;

typedef struct clang_worker {
    clang_state *st;            /* borrowed */
    CXIndex index;              /* owned, used by this worker's thread only */
    CXTranslationUnit fast_tu;  /* owned: the last fast-mode parse, reparsed for the next file */
    bool target_checked;        /* whether libclang knows fast_args' --target, once a parse failed */
    bool no_target;             /* it does not: fast mode without fast_args' last */
    parser ps;
} clang_worker;

static void parser_stop(parser *ps);

/* The fast-mode main file's name (see the top of this file). Not a path of any machine. */
static const char FAST_NAME[] = "<sunset>/input.cc";

/* ---------------------------------------------------------------- frontend entry points */

/* Fast mode: no build, so no include paths and no target. -undef drops the host's predefined
 * macros (__linux__, __GNUC__, __x86_64__ ...; the standard ones stay): which #if branches
 * libclang parses then no longer depends on the machine that runs sunset, and each reparse
 * skips their ~400 #defines. A generic 64-bit target (WebAssembly; last, so that it can be
 * dropped where libclang lacks it) has almost no builtins of its own, where x86-64 enters
 * thousands of intrinsics into every reparse's identifier table. On the 170 C/C++ files of
 * the real tree that reach the parser, libclang 142 -> 100 ms (a harness reparsing as this
 * frontend does). Tokens, and so most facts, come from every branch anyway. Errors (a file
 * alone, without its headers, has hundreds) are dropped after the first: nothing reads
 * them, and each was formatted and stored; under KeepGoing the limit's "too many errors" is
 * an error, not a fatal one, so the parse goes on as before (847 vs 867M instructions of
 * libclang on the real tree, the same cursors). Warnings are off by -w, one flag the
 * diagnostics engine tests, not -Wno-everything, which every reparse applied by setting the
 * severity of each of clang's thousands of warnings (~1.4M instructions a reparse, half of
 * what an empty file costs); -fno-builtin leaves the C library's names (printf, malloc ...)
 * out of the identifier table (~0.16M more). Neither changes what is parsed: the three real
 * trees' outputs are byte-identical. */
static const char *const fast_args[] = {"-x", "c++", "-std=c++17", "-fsyntax-only", "-nostdinc",
                                        "-nostdinc++", "-w", "-fno-builtin", "-ferror-limit=1", "-undef",
                                        "--target=wasm64-unknown-unknown"};
static const unsigned fast_opts = CXTranslationUnit_SingleFileParse | CXTranslationUnit_KeepGoing |
                                  CXTranslationUnit_SkipFunctionBodies;
static const unsigned precise_opts = CXTranslationUnit_KeepGoing;

static void clang_fini(void *state);

/* Loads the compilation database once (precise mode). On success *state owns it. */
static int clang_init(const sunset_frontend_config *cfg, void **state, sunset_error *err) {
    int rc = -1;
    clang_state *st = sunset_calloc(1, sizeof *st);
    if (!st) {
        snprintf(err->msg, sizeof err->msg, "clang: out of memory");
        return -1;
    }
    pthread_mutex_init(&st->db_lock, NULL);
    /* parses run on our own big-stack thread (parse_deep); once per run, before any worker
     * (main() sets it before any thread at all: check initialises the engine on one while
     * libgit2 runs, cmd/check.c; then it is not written again here) */
    const char *nothreads = getenv("LIBCLANG_NOTHREADS");
    if (!nothreads || strcmp(nothreads, "1") != 0) setenv("LIBCLANG_NOTHREADS", "1", 1);
    st->budget_ms = cfg ? cfg->parse_budget_ms : 0;
    if (cfg && cfg->root) {
        st->root = clang_dup_cstr(cfg->root);
        if (!st->root) {
            snprintf(err->msg, sizeof err->msg, "clang: out of memory");
            goto cleanup;
        }
    }
    if (cfg && cfg->compile_db_dir && !clang_lib_load(err->msg, sizeof err->msg)) goto cleanup;
    if (cfg && cfg->compile_db_dir) {
        CXCompilationDatabase_Error dberr = CXCompilationDatabase_NoError;
        char *json = clang_path_join(cfg->compile_db_dir, "compile_commands.json");
        /* libclang prints to stderr when the file is missing; check first */
        bool readable = json && access(json, R_OK) == 0;
        if (readable && !clang_compdb_check(json, err)) {
            sunset_free(json);
            goto cleanup;
        }
        sunset_free(json);
        if (readable) {
            /* what libclang would still print, it prints to stderr: keep it off the user's
             * terminal (init runs once, before any worker thread) */
            fflush(stderr);
            int saved = dup(2), null = open("/dev/null", O_WRONLY | O_CLOEXEC);
            if (saved >= 0 && null >= 0) dup2(null, 2);
            st->db = clang_CompilationDatabase_fromDirectory(cfg->compile_db_dir, &dberr);
            if (saved >= 0 && null >= 0) dup2(saved, 2);
            if (saved >= 0) close(saved);
            if (null >= 0) close(null);
        }
        if (!st->db || dberr != CXCompilationDatabase_NoError) {
            const char *d = cfg->compile_db_dir;
            size_t dl = strlen(d);
            snprintf(err->msg, sizeof err->msg,
                     "%s%scompile_commands.json: cannot load compilation database", d,
                     dl && d[dl - 1] == '/' ? "" : "/");
            goto cleanup;
        }
        if (!clang_collect_db_files(st)) {
            snprintf(err->msg, sizeof err->msg, "clang: out of memory");
            goto cleanup;
        }
    }
    *state = st;
    st = NULL;
    rc = 0;
cleanup:
    clang_fini(st); /* NULL on success */
    return rc;
}

static void clang_fini(void *state) {
    clang_state *st = state;
    if (!st) return;
    for (size_t i = 0; i < st->n_db_files; i++) sunset_free(st->db_files[i]);
    sunset_free(st->db_files);
    if (st->db) clang_CompilationDatabase_dispose(st->db);
    pthread_mutex_destroy(&st->db_lock);
    sunset_free(st->root);
    sunset_free(st);
}

static void *clang_worker_new(void *state) {
    clang_worker *w = sunset_calloc(1, sizeof *w);
    if (!w) return NULL;
    w->st = state; /* the index comes with the worker's first parse (worker_index) */
    pthread_mutex_init(&w->ps.mu, NULL);
    pthread_cond_init(&w->ps.cv, NULL);
    return w;
}

static void clang_worker_free(void *worker) {
    clang_worker *w = worker;
    if (!w) return;
    parser_stop(&w->ps);
    if (w->fast_tu) clang_disposeTranslationUnit(w->fast_tu);
    if (w->index) clang_disposeIndex(w->index);
    pthread_mutex_destroy(&w->ps.mu);
    pthread_cond_destroy(&w->ps.cv);
    sunset_free(w);
}

/* Absolute path of the file, for the compilation database. Caller frees. */
static char *absolute_path(const clang_state *st, const sunset_source *src) {
    if (src->fspath && src->fspath[0] == '/') return clang_dup_cstr(src->fspath);
    if (st->root && src->path) return clang_path_join(st->root, src->path);
    if (src->fspath) {
        char buf[PATH_MAX];
        if (realpath(src->fspath, buf)) return clang_dup_cstr(buf);
    }
    return NULL;
}

/* Deeply nested input. libclang parses on a thread of its own with an 8 MB stack, and its
 * recursive-descent parser spends about 2.7 KB of it per nested unary operator: a file
 * holding `int x = - - - ... 1;` 4,000 deep (or `1+1+...` 50,000 long) overflowed it and
 * killed the whole scan, which crash recovery cannot catch. So clang_init sets
 * LIBCLANG_NOTHREADS, every parse runs on a thread of ours with PARSE_STACK bytes of stack
 * (address space; only what a parse touches is ever committed; one thread per worker, which
 * runs its parses one after the other), and a file with an operator
 * chain longer than MAX_CHAIN is refused before libclang sees it (20,000 unary operators take
 * ~55 MB of stack; a chain of 99,000 casts took 48 s to parse). */
#define PARSE_STACK ((size_t)512 << 20)
#define MAX_CHAIN 20000u

typedef struct parse_job {
    CXIndex index;
    CXTranslationUnit reparse; /* non-NULL: reparse this unit with uf instead of parsing */
    const char *file;
    const char *const *argv;
    int argc;
    struct CXUnsavedFile *uf;
    unsigned opts;
    CXTranslationUnit tu;
    enum CXErrorCode e;
} parse_job;

static void *parse_thread(void *arg) {
    parse_job *j = arg;
    if (j->reparse) {
        int e = clang_reparseTranslationUnit(j->reparse, 1, j->uf,
                                             clang_defaultReparseOptions(j->reparse));
        j->e = e == 0 ? CXError_Success : e == CXError_Crashed ? CXError_Crashed : CXError_Failure;
        j->tu = j->reparse;
        return NULL;
    }
    j->e = clang_parseTranslationUnit2(j->index, j->file, j->argv, j->argc, j->uf, 1, j->opts,
                                       &j->tu);
    return NULL;
}

/* The parse thread's loop: each job posted, run, then handed back (job NULL). */
static void *parser_run(void *arg) {
    parser *ps = arg;
    pthread_mutex_lock(&ps->mu);
    for (;;) {
        while (!ps->job && !ps->quit) pthread_cond_wait(&ps->cv, &ps->mu);
        if (ps->quit) break;
        pthread_mutex_unlock(&ps->mu);
        parse_thread(ps->job);
        pthread_mutex_lock(&ps->mu);
        ps->job = NULL;
        pthread_cond_broadcast(&ps->cv);
    }
    pthread_mutex_unlock(&ps->mu);
    return NULL;
}

/* The thread started once per worker, not per parse: a thread per parse was a 512 MB stack
 * mapped, faulted in as libclang ran and unmapped again, ~170 times a scan. */
static bool parser_start(parser *ps) {
    if (ps->started) return true;
    pthread_attr_t attr;
    if (pthread_attr_init(&attr) != 0) return false;
    ps->started = pthread_attr_setstacksize(&attr, PARSE_STACK) == 0 &&
                  pthread_create(&ps->th, &attr, parser_run, ps) == 0;
    pthread_attr_destroy(&attr);
    return ps->started;
}

static void parser_stop(parser *ps) {
    if (!ps->started) return;
    pthread_mutex_lock(&ps->mu);
    ps->quit = true;
    pthread_cond_broadcast(&ps->cv);
    pthread_mutex_unlock(&ps->mu);
    pthread_join(ps->th, NULL);
    ps->started = false;
}

static enum CXErrorCode parse_deep(clang_worker *w, CXTranslationUnit reparse, const char *file,
                                   const char *const *argv, int argc, struct CXUnsavedFile *uf,
                                   unsigned opts, CXTranslationUnit *tu) {
    parse_job j = {w->index, reparse, file, argv, argc, uf, opts, NULL, CXError_Failure};
    parser *ps = &w->ps;
    /* no thread (address space exhausted): the file is reported unparsable */
    if (!parser_start(ps)) {
        *tu = NULL;
        return CXError_Failure;
    }
    pthread_mutex_lock(&ps->mu);
    ps->job = &j;
    pthread_cond_broadcast(&ps->cv);
    while (ps->job) pthread_cond_wait(&ps->cv, &ps->mu);
    pthread_mutex_unlock(&ps->mu);
    *tu = j.tu;
    return j.e;
}

static uint32_t line_at(const char *d, uint32_t off) {
    uint32_t line = 1;
    for (uint32_t i = 0; i < off; i++) line += d[i] == '\n';
    return line;
}

/* Is there an expression with more than MAX_CHAIN operators? Counts operator characters and
 * opening parentheses between separators (; , { }), outside comments and string/character literals; *at = the
 * offset where the count ran over. Linear, no allocation. */
static bool operator_chain(const char *d, size_t len, uint32_t *at) {
    /* the operator characters, by table: strchr per byte was most of this pass */
    static const bool op[256] = {['+'] = 1, ['-'] = 1, ['*'] = 1, ['/'] = 1, ['%'] = 1, ['&'] = 1,
                                 ['|'] = 1, ['^'] = 1, ['!'] = 1, ['~'] = 1, ['<'] = 1, ['>'] = 1,
                                 ['='] = 1, ['?'] = 1, [':'] = 1, ['('] = 1};
    if (len <= MAX_CHAIN) return false; /* each operator is a byte of its own */
    uint32_t n = 0;
    for (size_t i = 0; i < len; i++) {
        char ch = d[i];
        if (ch == '/' && i + 1 < len && d[i + 1] == '/') {
            while (i < len && d[i] != '\n') i++;
        } else if (ch == '/' && i + 1 < len && d[i + 1] == '*') {
            for (i += 2; i + 1 < len && !(d[i] == '*' && d[i + 1] == '/'); i++) {}
            i++;
        } else if (ch == '"' || ch == '\'') {
            for (i++; i < len && d[i] != ch && d[i] != '\n'; i++)
                if (d[i] == '\\') i++;
        } else if (ch == ';' || ch == ',' || ch == '{' || ch == '}') {
            n = 0;
        } else if (op[(unsigned char)ch]) {
            if (++n > MAX_CHAIN) {
                *at = (uint32_t)i;
                return true;
            }
        }
    }
    return false;
}

/* A file's translation unit and how it was parsed. */
typedef struct unit {
    CXTranslationUnit tu;
    const char *name; /* the file's name in tu */
    bool precise;     /* parsed by its compile command */
    bool fast;        /* tu is the worker's fast_tu, kept for the next file (never disposed here) */
    precise_cmd pc;   /* the compile command, when there is one */
    char *abs;        /* the file's absolute path, for the compile database */
} unit;

/* With a compile database that lists the file: parse it by its own compile command. A parse
 * that fails leaves u->tu NULL with a warning (fast mode follows). false = out of memory. */
static bool parse_precise(clang_worker *w, const sunset_source *src, sunset_sink *sink, unit *u) {
    clang_state *st = w->st;
    bool oom = false;
    u->abs = absolute_path(st, src);
    if (u->abs && clang_db_lists(st, u->abs) && clang_precise_lookup(st, u->abs, &u->pc, &oom)) {
        struct CXUnsavedFile uf = {u->pc.file, src->data, src->len};
        enum CXErrorCode e = parse_deep(w, NULL, u->pc.file, (const char *const *)u->pc.argv, u->pc.argc,
                                        &uf, precise_opts, &u->tu);
        if (e == CXError_Success && u->tu) {
            u->precise = true;
            u->name = u->pc.file;
        } else {
            u->tu = NULL;
            sunset_warn(sink, 0, 0,
                        "libclang could not parse this file with its compile command "
                        "(error %d); falling back to fast mode",
                        (int)e);
        }
        return true;
    }
    if (oom) sunset_warn(sink, 0, 0, "out of memory");
    return !oom;
}

/* Fast mode: the file alone, under FAST_NAME, reparsed in the worker's unit in place. false =
 * libclang could not parse it (warned). */
static bool parse_fast(clang_worker *w, const sunset_source *src, sunset_sink *sink, unit *u) {
    struct CXUnsavedFile uf = {FAST_NAME, src->data, src->len};
    CXTranslationUnit prev = w->fast_tu, tu = NULL;
    w->fast_tu = NULL;
    int nargs = (int)(sizeof fast_args / sizeof *fast_args) - (w->no_target ? 1 : 0);
    enum CXErrorCode e = parse_deep(w, prev, FAST_NAME, fast_args, nargs, &uf, fast_opts, &tu);
    if (prev && (e != CXError_Success || !tu)) {
        /* a failed reparse leaves the unit unusable: start afresh once */
        clang_disposeTranslationUnit(prev);
        tu = NULL;
        e = parse_deep(w, NULL, FAST_NAME, fast_args, nargs, &uf, fast_opts, &tu);
    }
    if ((e != CXError_Success || !tu) && !w->target_checked) {
        /* an empty file that does not parse either: a libclang built without the
         * WebAssembly target, so the host's from now on (the file alone decides nothing,
         * or the outcome would depend on which worker met which file first) */
        w->target_checked = true;
        CXTranslationUnit probe = NULL;
        struct CXUnsavedFile empty = {FAST_NAME, "", 0};
        if (parse_deep(w, NULL, FAST_NAME, fast_args, nargs, &empty, fast_opts, &probe) != CXError_Success ||
            !probe) {
            if (tu) clang_disposeTranslationUnit(tu);
            tu = NULL;
            w->no_target = true;
            e = parse_deep(w, NULL, FAST_NAME, fast_args, nargs - 1, &uf, fast_opts, &tu);
        }
        if (probe) clang_disposeTranslationUnit(probe);
    }
    if (e != CXError_Success || !tu) {
        if (tu) clang_disposeTranslationUnit(tu);
        sunset_warn(sink, 0, 0, "libclang could not parse this file (error %d)", (int)e);
        return false;
    }
    w->fast_tu = u->tu = tu;
    u->fast = true;
    u->name = FAST_NAME;
    return true;
}

/* Parse the file: by its compile command when the database has one, else in fast mode.
 * libclang cannot be interrupted: the time limit is measured (sunset_clock_ms, so that a
 * test's fake clock drives it) and warned about, and the file is analysed all the same. */
static bool parse_unit(clang_worker *w, const sunset_source *src, sunset_sink *sink, unit *u) {
    clang_state *st = w->st;
    double t0 = sunset_clock_ms();
    if (st->db && !parse_precise(w, src, sink, u)) return false;
    if (!u->tu && !parse_fast(w, src, sink, u)) return false;
    double parse_ms = sunset_clock_ms() - t0;
    if (st->budget_ms && parse_ms > st->budget_ms)
        sunset_warn(sink, 0, 0,
                    "libclang's parse took %.0f ms, over the time limit (--parse-budget %u ms); "
                    "it cannot be stopped, the file is analysed all the same",
                    parse_ms, st->budget_ms);
    return true;
}

/* The parsed file's facts: its tokens and lines, then the cursor walk, the two passes over the
 * tokens, and what they emit. false = failed (warned). */
static bool analyse_unit(cscan *c, const unit *u, sunset_sink *sink) {
    CXFile file = clang_getFile(u->tu, u->name);
    if (!file) {
        sunset_warn(sink, 0, 0, "libclang lost track of this file");
        return false;
    }
    CXSourceRange whole = clang_getRange(clang_getLocationForOffset(u->tu, file, 0),
                                         clang_getLocationForOffset(u->tu, file, c->len));
    CXToken *toks = NULL;
    unsigned ntoks = 0;
    clang_tokenize(u->tu, whole, &toks, &ntoks);
    bool ok = clang_load_tokens(c, u->tu, toks, ntoks) && clang_mark_lines(c);
    if (toks) clang_disposeTokens(u->tu, toks, ntoks);
    if (!ok) {
        sunset_warn(sink, 0, 0, "out of memory");
        return false;
    }
    clang_cursor_walk(c, u->tu);
    clang_walk(c, 0);
    clang_walk(c, 1);
    clang_emit_tokens(c);
    clang_emit_records(c);
    if (c->oom || c->names.oom) {
        sunset_warn(sink, 0, 0, "out of memory");
        return false;
    }
    return true;
}

static void cscan_free(cscan *c) {
    sunset_free(c->t);
    sunset_free(c->cursors);
    vec_free(&c->lines);
    vec_free(&c->recs);
    vec_free(&c->nodes);
    vec_free(&c->conds);
    vec_free(&c->work);
    sb_free(&c->names);
    sb_free(&c->tmp);
    sb_free(&c->tmp2);
}

/* Can libclang be given the file at all? Not one of 4 GiB, nor an operator chain deep enough
 * to overflow its parser's stack. false = refused (warned). */
static bool clang_admits(const sunset_source *src, sunset_sink *sink) {
    if (src->len > UINT32_MAX - 1) {
        sunset_warn(sink, 0, 0, "file too large for the C++ frontend");
        return false;
    }
    uint32_t chain_at = 0;
    if (operator_chain(src->data, src->len, &chain_at)) {
        sunset_warn(sink, line_at(src->data, chain_at), 0,
                    "skipped: an expression of more than %u operators (libclang's parser "
                    "would overflow its stack)", MAX_CHAIN);
        return false;
    }
    return true;
}

/* libclang's code stays resident once run, and a scan runs more of it than any one parse
 * does: over the ~170 parses of a scan of the 2024-05-09 tree, ~39 MB of libLLVM's and
 * libclang's code pages, most of them there at the end of the scan, when its memory peaks.
 * Every RELEASE_EVERY parses (the workers' together) they are given back (base/util.h
 * sunset_release_code_pages; libclang.c gives the same back once opened, registry.c after the scan), and
 * the next parse reads back the few MB it runs from the page cache: 109 -> ~89 MB peak RSS
 * of `scan --no-cache` of that tree. Every 4th parse was more than the peak needs: each
 * release zaps ~130 MB of mappings and the next parse faults its code back in (31.5k page
 * faults a cold scan); every 16th keeps the same peak (88-96 MB scan, ~90 MB removable, both
 * as before) with 25.7k faults, ~4% less CPU (medians of 10 interleaved cold scans). */
#define RELEASE_EVERY 16u

static atomic_uint parses_done;

static void release_code_now_and_then(void) {
    if ((atomic_fetch_add(&parses_done, 1) + 1) % RELEASE_EVERY == 0) clang_lib_release_code();
}

/* The worker's libclang index, made on its first parse: libclang is opened then
 * (libclang.h), so a run that parses no C/C++ never loads it. false = cannot (warned). */
static bool worker_index(clang_worker *w, sunset_sink *sink) {
    if (w->index) return true;
    char why[256];
    if (!clang_lib_load(why, sizeof why)) {
        sunset_warn(sink, 0, 0, "%s", why);
        return false;
    }
    w->index = clang_createIndex(0, 0); /* 0: never print diagnostics */
    if (!w->index) sunset_warn(sink, 0, 0, "clang: cannot create an index");
    return w->index != NULL;
}

static int clang_scan(void *worker, const sunset_source *src, sunset_sink *sink) {
    clang_worker *w = worker;
    if (!clang_admits(src, sink) || !worker_index(w, sink)) return -1;
    cscan c = {0};
    c.src = src;
    c.sink = sink;
    c.d = src->data;
    c.len = (uint32_t)src->len;
    c.lines = VEC_INIT(uint32_t);
    c.recs = VEC_INIT(crec);
    c.nodes = VEC_INIT(pnode);
    c.conds = VEC_INIT(cond);
    c.work = VEC_INIT(int32_t);
    unit u = {0};
    int rc = -1;
    if (parse_unit(w, src, sink, &u)) {
        c.precise = u.precise;
        if (analyse_unit(&c, &u, sink)) rc = 0;
    }
    if (u.tu && !u.fast) clang_disposeTranslationUnit(u.tu);
    release_code_now_and_then();
    clang_precise_cmd_free(&u.pc);
    sunset_free(u.abs);
    cscan_free(&c);
    return rc;
}

static const sunset_lang clang_langs[] = {SUNSET_LANG_CPP, SUNSET_LANG_NONE};

const sunset_frontend sunset_frontend_clang = {
    .abi = SUNSET_FRONTEND_ABI,
    .name = "clang",
    .langs = clang_langs,
    .init = clang_init,
    .fini = clang_fini,
    .worker_new = clang_worker_new,
    .worker_free = clang_worker_free,
    .scan = clang_scan,
};
