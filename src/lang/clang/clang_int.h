/*
 * clang_int.h — private to the C/C++ frontend (src/lang/clang/*.c); nothing outside that
 * directory includes it. It holds what the frontend's files share: the frontend state, the
 * per-file scan (`cscan`: the token table, records, the bracket stack) and its element
 * types, the token accessors every pass uses (static inline, so they stay as cheap as when
 * the frontend was one file), and the functions one file provides to another, named
 * clang_snake_case (libclang's own API is clang_camelCase) and grouped by the file that
 * defines them. Ownership: everything reachable from a cscan is owned by it and freed by
 * clang_scan (frontend.c); pointers into it passed to these functions are borrowed.
 */
#ifndef SUNSET_LANG_CLANG_INT_H
#define SUNSET_LANG_CLANG_INT_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "sunset.h"
#include "base/util.h"
#include "lang/clang/libclang.h" /* libclang's headers; its calls through the pointers looked up */

/* ---------------------------------------------------------------- state and worker */

typedef struct clang_state {
    CXCompilationDatabase db;   /* owned; NULL in fast mode */
    pthread_mutex_t db_lock;    /* libclang does not promise a thread-safe database */
    char **db_files;            /* owned, sorted: normalised paths the database lists */
    size_t n_db_files;
    char *root;                 /* owned copy of cfg->root, or NULL */
    unsigned budget_ms;
} clang_state;

/* ---------------------------------------------------------------- per-file data */

enum { TK_PUNCT, TK_KEYWORD, TK_IDENT, TK_LITERAL, TK_COMMENT };

enum {
    P_NONE, P_LPAREN, P_RPAREN, P_LBRACK, P_RBRACK, P_LBRACE, P_RBRACE, P_SEMI, P_COMMA,
    P_COLON, P_SCOPE, P_DOT, P_ARROW, P_LT, P_GT, P_SHR, P_HASH, P_TILDE, P_STAR, P_AMP,
    P_ANDAND, P_ASSIGN, P_OPASSIGN, P_QUESTION, P_ELLIPSIS, P_OTHER
};

enum {
    TF_LINE_START = 1u << 0, /* first token of a logical line */
    TF_DIRECTIVE = 1u << 1,  /* part of a preprocessor directive */
    TF_DIR_HEAD = 1u << 2,   /* the '#' starting a directive */
    TF_SKIP = 1u << 3,       /* no facts: directive name, include path tokens */
    TF_DEFINITION = 1u << 4, /* the name a definition declares */
};

/* What a '{' opens. */
enum { B_OTHER, B_NS, B_CLASS, B_FUNC, B_EXTERN };

/* Directive kinds. */
enum { D_OTHER, D_IF, D_ELSE, D_ENDIF, D_DEFINE, D_INCLUDE };

typedef struct ctok {
    uint32_t start, end; /* byte offsets into the file */
    int32_t match;       /* matching bracket token, -1 */
    int32_t aux;         /* token naming the innermost enclosing call, -1 */
    int32_t rec;         /* record this token names, -1 */
    int32_t body;        /* '{': record whose body it opens, -1 */
    uint8_t kind, punct, flags, bkind;
} ctok;

enum { R_NAMESPACE, R_CLASS, R_STRUCT, R_UNION, R_FUNCTION, R_METHOD, R_MACRO };

typedef struct crec {
    uint32_t name_off;           /* NUL-terminated scope name in cscan.names */
    uint32_t def_start, def_end; /* byte span of the bare name; def_end == 0: no DEF fact */
    uint32_t start_line, end_line;
    int32_t also; /* another record closed by the same brace, -1 */
    uint8_t kind, has_scope, cursor_scope;
} crec;

/* A node of the persistent bracket stack: pushing never overwrites, so the stack as it was
 * at an #if can be restored at #else by remembering one index. */
typedef struct pnode {
    int32_t parent, tok, aux, link, next_link;
    uint32_t depth;
    uint8_t open, bkind, closed;
} pnode;

typedef struct cond {
    int32_t base, first_end;
} cond;

typedef struct cscan {
    const sunset_source *src;
    sunset_sink *sink;
    const char *d;
    uint32_t len;
    bool precise;
    ctok *t;
    int32_t n;
    CXCursor *cursors; /* precise mode: the cursor annotating each token */
    vec lines;         /* uint32_t offsets of line starts */
    vec recs;          /* crec */
    vec nodes;         /* pnode */
    vec conds;         /* cond */
    vec work;          /* int32_t scratch for closing linked nodes */
    sb names;          /* record names, NUL-separated */
    sb tmp, tmp2;
    int32_t top;
    bool oom;
} cscan;

/* ---------------------------------------------------------------- token accessors */

static inline bool push(cscan *c, vec *v, const void *elem) {
    if (vec_push(v, elem)) return true;
    c->oom = true;
    return false;
}

static inline uint32_t tlen(const cscan *c, int32_t i) { return c->t[i].end - c->t[i].start; }
static inline const char *ttext(const cscan *c, int32_t i) { return c->d + c->t[i].start; }

static inline bool teq(const cscan *c, int32_t i, const char *s) {
    size_t n = strlen(s);
    return i >= 0 && i < c->n && tlen(c, i) == n && memcmp(ttext(c, i), s, n) == 0;
}

static inline bool is_ident(const cscan *c, int32_t i) {
    return i >= 0 && c->t[i].kind == TK_IDENT;
}
static inline bool is_kw(const cscan *c, int32_t i, const char *s) {
    return i >= 0 && c->t[i].kind == TK_KEYWORD && teq(c, i, s);
}
static inline bool is_p(const cscan *c, int32_t i, int p) { return i >= 0 && c->t[i].punct == p; }

/* Next/previous token that is not a comment. In code, directive lines are skipped too;
 * inside a directive the walk stays on that directive's logical line. */
static inline int32_t nx(const cscan *c, int32_t i, bool in_dir) {
    for (int32_t j = i + 1; j < c->n; j++) {
        const ctok *t = &c->t[j];
        if (in_dir && (t->flags & TF_LINE_START)) return -1;
        if (t->kind == TK_COMMENT) continue;
        if (!in_dir && (t->flags & TF_DIRECTIVE)) continue;
        return j;
    }
    return -1;
}

static inline int32_t pv(const cscan *c, int32_t i, bool in_dir) {
    if (in_dir && i >= 0 && i < c->n && (c->t[i].flags & TF_DIR_HEAD)) return -1;
    for (int32_t j = i - 1; j >= 0; j--) {
        const ctok *t = &c->t[j];
        if (t->kind == TK_COMMENT) continue;
        if (!in_dir && (t->flags & TF_DIRECTIVE)) continue;
        if (in_dir && !(t->flags & TF_DIRECTIVE)) return -1;
        if (in_dir && (t->flags & TF_DIR_HEAD)) return -1;
        return j;
    }
    return -1;
}

static inline crec *rec_at(cscan *c, int32_t r) { return &VEC_AT(&c->recs, crec, r); }
static inline pnode *node(cscan *c, int32_t k) { return &VEC_AT(&c->nodes, pnode, k); }
static inline uint32_t node_depth(cscan *c, int32_t k) { return k < 0 ? 0 : node(c, k)->depth; }

/* ---------------------------------------------------------------- tokens.c */

/* 1-based line of byte offset off (binary search over the line starts). */
uint32_t clang_line_of(const cscan *c, uint32_t off);
/* The span from byte offset s to e. */
sunset_span clang_span_of(const cscan *c, uint32_t s, uint32_t e);
/* Appends the tokens a..b (inclusive) as written but without whitespace, keeping one space
 * between two word tokens; template argument lists are left out when skip_angles is set.
 * Output is capped at 512 bytes. */
void clang_join_tokens(cscan *c, int32_t a, int32_t b, bool in_dir, bool skip_angles, sb *out);
/* D_* kind of the directive whose '#' is token hash. */
int clang_directive_kind(const cscan *c, int32_t hash);
/* Byte offset of a libclang location in its file. */
uint32_t clang_cursor_offset(CXSourceLocation loc);
/* Converts libclang's tokens into the table (and annotates them in precise mode). */
bool clang_load_tokens(cscan *c, CXTranslationUnit tu, CXToken *toks, unsigned nt);
/* Line starts; logical line starts (a newline not escaped by a backslash); directives. */
bool clang_mark_lines(cscan *c);

/* ---------------------------------------------------------------- brackets.c */

/* Pushes an opener ('(' '[' '{') for token tok; returns the node or -1 (out of memory). */
int32_t clang_bm_push(cscan *c, int32_t tok, uint8_t open, int32_t aux, uint8_t bkind);
/* The closing bracket at token i closes its opener if one is in reach (see brackets.c). */
void clang_bm_closer(cscan *c, int32_t i, uint32_t floor_depth, int pass);
/* Applies a conditional directive (D_IF, D_ELSE, D_ENDIF) to the bracket stack. */
void clang_cond_apply(cscan *c, int kind);
/* From a '>' or '>>' back to the '<' opening that template argument list, or -1. */
int32_t clang_angle_back(const cscan *c, int32_t e, bool in_dir);
/* From a '<' forward to the '>' closing it (or the '>>' holding it), or -1. */
int32_t clang_angle_fwd(const cscan *c, int32_t s, bool in_dir);

/* ---------------------------------------------------------------- outline.c */

/* A new record of kind R_* named name (copied); its index, or -1 (out of memory). */
int32_t clang_rec_new(cscan *c, int kind, const char *name, size_t name_len);
/* One walk over the tokens with the bracket stack. Pass 0 matches brackets; pass 1 builds
 * the outline, records the innermost call of each token and emits calls, bases, includes. */
void clang_walk(cscan *c, int pass);

/* ---------------------------------------------------------------- cursors.c */

/* Iterative walk over declarations of the main file (namespaces, linkage specs, classes);
 * function bodies are never entered. */
void clang_cursor_walk(cscan *c, CXTranslationUnit tu);
/* The entity identifier token i refers to, qualified; false when unknown or when libclang's
 * cursor is not about this very name (inactive branches, macro arguments). */
bool clang_token_qual(cscan *c, int32_t i, sb *out);

/* ---------------------------------------------------------------- facts.c */

/* A code fact of kind from byte s to e (text and aux borrowed; the engine copies them). */
void clang_emit_fact(cscan *c, sunset_fact_kind kind, uint32_t s, uint32_t e, unsigned flags,
                     const char *text, size_t text_len, const char *aux, size_t aux_len);
/* Pass 2: comments, strings, identifiers and member accesses of every token. */
void clang_emit_tokens(cscan *c);
/* DEF facts and scopes of the records, once both passes are done. */
void clang_emit_records(cscan *c);

/* ---------------------------------------------------------------- compdb.c */

typedef struct precise_cmd {
    char *file;  /* absolute path of the source, owned */
    char **argv; /* owned strings */
    int argc;
} precise_cmd;

/* Frees what pc owns and zeroes it (a zeroed pc is fine). */
void clang_precise_cmd_free(precise_cmd *pc);
/* dir + "/" + p, or p alone when absolute. Caller frees; NULL when out of memory. */
char *clang_path_join(const char *dir, const char *p);
/* A sunset_malloc'd copy of s; NULL when out of memory. Caller frees. */
char *clang_dup_cstr(const char *s);
/* Fills st->db_files with the files the database really lists; false when out of memory. */
bool clang_collect_db_files(clang_state *st);
/* Does the database list the file at absolute path abs (normalised as
 * clang_collect_db_files does)? */
bool clang_db_lists(const clang_state *st, const char *abs);
/* Looks `abs` up in the database; on success fills pc with the arguments to parse with. */
bool clang_precise_lookup(clang_state *st, const char *abs, precise_cmd *pc, bool *oom);
/* Checks the shape of compile_commands.json file before libclang reads it (why: compdb.c).
 * True when libclang may read it; otherwise false with one line in err. */
bool clang_compdb_check(const char *file, sunset_error *err);

#endif
