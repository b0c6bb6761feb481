/*
 * scan_int.h — the Python frontend's per-file scratch (frontend.c), shared with the flow
 * facts it emits (binding.c). Private to src/lang/python.
 */
#ifndef SUNSET_PY_SCAN_INT_H
#define SUNSET_PY_SCAN_INT_H

#include "lang/python/python_int.h"

/* ---- per-file scratch ------------------------------------------------------------------- */

typedef struct pool_chunk {
    struct pool_chunk *next;
    size_t used, cap;
    char data[];
} pool_chunk;

typedef struct slice {
    const char *s;
    size_t n;
} slice;

typedef struct fact_cap {
    TSNode node;
    uint32_t role;
} fact_cap;

typedef struct item {
    uint32_t start, end, seq; /* the primary capture's byte range; creation order */
    uint32_t cap;             /* index of the primary capture in scan_ctx.caps */
    uint32_t first, n;        /* the match's captures in scan_ctx.caps */
} item;

typedef struct mark {
    uint32_t role, start, end;
} mark;

typedef struct ctx_range {
    uint32_t start, end;
    sunset_context ctx;
} ctx_range;

typedef struct call_frame {
    uint32_t end;
    slice callee;
    char *cstr; /* NUL-terminated callee, made on first need; in the pool */
} call_frame;

typedef struct scope_frame {
    uint32_t end;
    const char *qual; /* in the pool */
    size_t qlen;
} scope_frame;

typedef struct rule_hit {
    const sunset_rule *rule;
    sunset_context ctx;
    sunset_span span;
} rule_hit;

/* The path from the root to the node last asked about, and a cursor on it (parent.c). */
typedef struct py_path {
    TSTreeCursor cur;
    vec nodes; /* TSNode, the root first */
    bool live; /* cur was made */
    TSTreeCursor kids; /* py_kids_*'s, made on first use */
    bool kids_live;
    bool on;   /* the path is usable: else parents are ts_node_parent's */
} py_path;

typedef struct scan_ctx {
    py_worker *w;
    const sunset_source *src;
    sunset_sink *sink;
    vec caps, items, marks, ranges, calls, scopes, found;
    uint32_t stmt_end;   /* end byte of the simple statement being emitted, 0 = none */
    sunset_span stmt;    /* its span: every code fact inside carries it */
    bool stmt_message;   /* it is a raise or assert: its strings are its message */
    pool_chunk *pool;
    double deadline_ms;  /* sunset_clock_ms() after which the file is given up; 0 = none */
    unsigned ticks;      /* matches since the last clock read */
    bool oom;
    bool doc;            /* a second pass over docstring examples, commented-out code or a
                            document's / notebook's code (doccode.c): facts in context
                            `code_ctx`; unless that is CODE (notebook cells), no definitions,
                            strings or comments of their own */
    sunset_context code_ctx;
    const vec *accept;   /* second pass: the byte ranges (uint32_t[2], sorted) whose facts are
                            emitted; NULL = all */
    bool over_budget;    /* the time limit passed (a parse or a query was stopped): nothing of
                            the file is kept */
    const py_nb *nb;     /* a notebook's code pass: its positions are mapped to the file's */
    py_path path;        /* while the facts are emitted (parent.c) */
} scan_ctx;

/* frontend.c */
slice py_node_text(const scan_ctx *sc, TSNode n);
sunset_span py_node_span(TSNode n);
/* A span of the parsed text as the file's (they differ only for a notebook's decoded code). */
sunset_span py_file_span(const scan_ctx *sc, sunset_span s);
/* A dotted name without the blanks and comments between its parts; may be in the pool. */
slice py_compact_dotted(scan_ctx *sc, slice s);
/* The capture of role r in the match of item it, or NULL; its text. */
const fact_cap *py_companion(const scan_ctx *sc, const item *it, role r);
slice py_companion_text(const scan_ctx *sc, const item *it, role r);
/* A fact of the file at node `at` (its context, span and statement). */
sunset_fact py_fact_at(scan_ctx *sc, sunset_fact_kind kind, TSNode at, unsigned flags, slice text,
                       slice aux, slice target);
/* The innermost call whose arguments are being emitted, or NULL. */
call_frame *py_top_call(scan_ctx *sc);

/* parent.c: n's parent (as ts_node_parent's), quick for nodes asked about in document order
 * between py_path_start (with the tree's root) and py_path_end; ts_node_parent's outside. */
void py_path_start(scan_ctx *sc, TSNode root);
void py_path_end(scan_ctx *sc);
TSNode py_parent(scan_ctx *sc, TSNode n);
/* n's first named child (false: none), then the next one after it: ts_node_named_child's
 * order, in one pass; one list at a time (nothing in the loop may list another node's). */
bool py_kids_first(scan_ctx *sc, TSNode n, TSNode *c);
bool py_kids_next(scan_ctx *sc, TSNode *c);

/* binding.c: the object flow's facts of a bind.* capture (core/flow.c) */
void py_emit_binding(scan_ctx *sc, const item *it, const fact_cap *pc, TSNode node);

#endif
