/*
 * binding.c — the Python frontend's facts for legacy-object flow (core/flow.c): a binding's
 * target and value, tuples entry by entry, the elements of containers and loops, returns,
 * parameters and the call arguments that bind them.
 */
#include "lang/python/scan_int.h"

#include <stdio.h>
#include <string.h>

/* The lines of the block (or module) holding node n: the region a re-binding holds. */
static sunset_span block_of(scan_ctx *sc, TSNode n) {
    for (TSNode p = py_parent(sc, n); !ts_node_is_null(p); p = py_parent(sc, p)) {
        const char *t = ts_node_type(p);
        if (!strcmp(t, "block") || !strcmp(t, "module")) return py_file_span(sc, py_node_span(p));
    }
    return (sunset_span){0, 0, 0, 0};
}

/* elem >= 0: the bound target (or returned value) is that element of a tuple whose value is
 * not split here (flag SUNSET_FACT_ELEM, section = elem); -1: the whole value. */
static void emit_bind_at(scan_ctx *sc, TSNode value, unsigned flags, slice target, long elem) {
    slice v = py_node_text(sc, value);
    if (v.n > 240) v.n = 240;
    sunset_fact f = py_fact_at(sc, SUNSET_FACT_BIND, value, flags, target, py_compact_dotted(sc, v),
                            (slice){NULL, 0});
    f.block = block_of(sc, value);
    char num[24];
    if (elem >= 0) {
        f.flags |= SUNSET_FACT_ELEM;
        f.section = num, f.section_len = (size_t)snprintf(num, sizeof num, "%ld", elem);
    }
    sunset_emit(sc->sink, &f);
}

static void emit_bind(scan_ctx *sc, TSNode value, unsigned flags, slice target) {
    emit_bind_at(sc, value, flags, target, -1);
}

static bool is_tuple_node(TSNode n) {
    const char *t = ts_node_type(n);
    return !strcmp(t, "expression_list") || !strcmp(t, "tuple") || !strcmp(t, "pattern_list") ||
           !strcmp(t, "tuple_pattern");
}

/* The entries of tuple `list` (comments take none); *pos = the position of `n` among them
 * (-1 if not there, or after a starred entry: then its position is unknown). */
static uint32_t tuple_entries(TSNode list, TSNode n, long *pos, bool *starred) {
    uint32_t k = 0;
    *pos = -1, *starred = false;
    for (uint32_t i = 0, m = ts_node_named_child_count(list); i < m; i++) {
        TSNode c = ts_node_named_child(list, i);
        const char *t = ts_node_type(c);
        if (!strcmp(t, "comment")) continue;
        if (!ts_node_is_null(n) && ts_node_eq(c, n) && !*starred) *pos = k;
        if (!strcmp(t, "list_splat_pattern") || !strcmp(t, "list_splat")) *starred = true;
        k++;
    }
    return k;
}

/* The `idx`-th entry of tuple `list` (tuple_entries' counting). */
static TSNode tuple_entry(TSNode list, long idx) {
    long k = 0;
    for (uint32_t i = 0, m = ts_node_named_child_count(list); i < m; i++) {
        TSNode c = ts_node_named_child(list, i);
        if (strcmp(ts_node_type(c), "comment") && k++ == idx) return c;
    }
    return (TSNode){0};
}

/* `exes = [PE(...), ...]`, `{"train": pe}`, `[PE(p) for p in places]`: each entry (a dict's
 * values) is an element of the target (flag SUNSET_FACT_ITEM), which iterating it yields. */
static void emit_items(scan_ctx *sc, TSNode value, slice target) {
    const char *t = ts_node_type(value);
    bool dict = !strcmp(t, "dictionary");
    if (!strcmp(t, "list_comprehension") || !strcmp(t, "generator_expression")) {
        TSNode body = ts_node_child_by_field_name(value, "body", 4);
        if (!ts_node_is_null(body)) emit_bind(sc, body, SUNSET_FACT_ITEM, target);
        return;
    }
    if (!dict && strcmp(t, "list") && strcmp(t, "tuple") && strcmp(t, "set")) return;
    TSNode e;
    for (bool more = py_kids_first(sc, value, &e); more; more = py_kids_next(sc, &e)) {
        TSNode c = dict ? ts_node_child_by_field_name(e, "value", 5) : e;
        if (ts_node_is_null(c)) continue;
        const char *ct = ts_node_type(c);
        if (strcmp(ct, "comment") && strcmp(ct, "list_splat") && strcmp(ct, "dictionary_splat"))
            emit_bind(sc, c, SUNSET_FACT_ITEM, target);
    }
}

/* `a, b = v`: target `node` is entry k of the pattern. A tuple value of as many entries
 * (`a, b = PE(...), 1`) binds each target to its own entry; another value (`exe, prog =
 * build()`) binds the target to element k of what it is, which only a function's `return
 * exe, prog` can say (core/flow.c). A target after a starred one binds nothing known. */
static void emit_bind_target(scan_ctx *sc, TSNode node, TSNode value, slice target) {
    TSNode pat = py_parent(sc, node);
    if (ts_node_is_null(pat) || !is_tuple_node(pat)) {
        emit_bind(sc, value, 0, target);
        emit_items(sc, value, target);
        return;
    }
    long k, vk;
    bool star, vstar;
    uint32_t n = tuple_entries(pat, node, &k, &star);
    if (k < 0) return;
    if (is_tuple_node(value) && tuple_entries(value, (TSNode){0}, &vk, &vstar) == n && !star &&
        !vstar) {
        emit_bind(sc, tuple_entry(value, k), 0, target);
        return;
    }
    emit_bind_at(sc, value, 0, target, k);
}

/* `return exe, prog`: each entry is element k of what the function returns. */
static void emit_return(scan_ctx *sc, TSNode node) {
    if (!is_tuple_node(node)) {
        emit_bind(sc, node, SUNSET_FACT_RETURN, (slice){"", 0});
        return;
    }
    long k;
    bool star;
    uint32_t n = tuple_entries(node, (TSNode){0}, &k, &star);
    if (star) return;
    for (uint32_t i = 0; i < n; i++)
        emit_bind_at(sc, tuple_entry(node, i), SUNSET_FACT_RETURN, (slice){"", 0}, i);
}

/* The 0-based position of node `n` among the positional entries of `list` (a parameters or
 * argument_list node: comments and the `/` marker take none), or -1 when an entry before it
 * is variadic or keyword-only (`*args`, `*`, `**kw`, `k=v`): then only a keyword binds it. */
static long entry_position(scan_ctx *sc, TSNode list, TSNode n) {
    long pos = 0;
    TSNode c;
    for (bool more = py_kids_first(sc, list, &c); more; more = py_kids_next(sc, &c)) {
        if (ts_node_eq(c, n)) return pos;
        const char *t = ts_node_type(c);
        if (!strcmp(t, "comment") || !strcmp(t, "positional_separator")) continue;
        TSNode first = ts_node_named_child(c, 0);
        if (!strcmp(t, "list_splat_pattern") || !strcmp(t, "dictionary_splat_pattern") ||
            !strcmp(t, "keyword_separator") || !strcmp(t, "list_splat") ||
            !strcmp(t, "dictionary_splat") || !strcmp(t, "keyword_argument") ||
            (!strcmp(t, "typed_parameter") && !ts_node_is_null(first) &&
             strcmp(ts_node_type(first), "identifier")))
            return -1;
        pos++;
    }
    return -1;
}

/* A BIND fact of a parameter or a call's argument (flags SUNSET_FACT_PARAM / _ARG): section
 * is the keyword or the decimal position; stmt, for a parameter, the function's body from
 * the parameter's line on (its column is the depth of the re-bindings that end the mark). */
static void emit_binding_entry(scan_ctx *sc, TSNode at, unsigned flags, slice text, slice value,
                               slice kw, long pos, TSNode body) {
    char num[24];
    if (!kw.s && pos >= 0) kw = (slice){num, (size_t)snprintf(num, sizeof num, "%ld", pos)};
    sunset_fact f = py_fact_at(sc, SUNSET_FACT_BIND, at, flags, text, value, (slice){NULL, 0});
    f.section = kw.s, f.section_len = kw.n;
    if (!ts_node_is_null(body)) { /* from the parameter's line, so that it holds the fact */
        f.stmt = f.block = py_file_span(sc, py_node_span(body));
        f.stmt.line = f.span.line;
    }
    sunset_emit(sc->sink, &f);
}

/* @bind.param: the identifier, or the default/typed parameter holding it, is an entry of the
 * function's parameters. */
static void emit_param(scan_ctx *sc, TSNode id) {
    TSNode entry = py_parent(sc, id);
    if (ts_node_is_null(entry)) return;
    if (!strcmp(ts_node_type(entry), "parameters")) entry = id;
    TSNode params = py_parent(sc, entry), fn = py_parent(sc, params);
    if (ts_node_is_null(fn)) return;
    TSNode body = ts_node_child_by_field_name(fn, "body", 4);
    emit_binding_entry(sc, id, SUNSET_FACT_PARAM, py_node_text(sc, id), (slice){"", 0},
                       (slice){NULL, 0}, entry_position(sc, params, entry), body);
}

static bool text_is(scan_ctx *sc, TSNode n, const char *w);
static bool is_name_node(TSNode n);

/* Does the callee (as written) start a thread or process, `threading.Thread`, `th.Thread`,
 * `multiprocessing.Process`? */
static bool starts_worker(slice callee) {
    const char *dot = memrchr(callee.s, '.', callee.n);
    const char *last = dot ? dot + 1 : callee.s;
    size_t n = callee.n - (size_t)(last - callee.s);
    return (n == 6 && !memcmp(last, "Thread", 6)) || (n == 7 && !memcmp(last, "Process", 7));
}

/* `Thread(target=fn, args=(i, exe))`: entry k of the args tuple is fn's argument k, as if the
 * call were `fn(i, exe)` (a worker's body is where a ParallelExecutor passed to it runs). */
static void emit_worker_args(scan_ctx *sc, slice callee, slice kw, TSNode value) {
    if (kw.n != 4 || memcmp(kw.s, "args", 4) || !starts_worker(callee) || !is_tuple_node(value)) return;
    TSNode list = py_parent(sc, py_parent(sc, value)), fn = {0};
    for (uint32_t i = 0, n = ts_node_is_null(list) ? 0 : ts_node_named_child_count(list); i < n; i++) {
        TSNode c = ts_node_named_child(list, i);
        TSNode name = ts_node_child_by_field_name(c, "name", 4);
        if (!strcmp(ts_node_type(c), "keyword_argument") && !ts_node_is_null(name) && text_is(sc, name, "target"))
            fn = ts_node_child_by_field_name(c, "value", 5);
    }
    if (ts_node_is_null(fn) || !is_name_node(fn)) return;
    long k;
    bool star;
    uint32_t n = tuple_entries(value, (TSNode){0}, &k, &star);
    if (star) return;
    slice target = py_compact_dotted(sc, py_node_text(sc, fn));
    for (uint32_t i = 0; i < n; i++) {
        TSNode e = tuple_entry(value, i);
        slice v = py_node_text(sc, e);
        if (v.n > 240) v.n = 240;
        emit_binding_entry(sc, e, SUNSET_FACT_ARG, target, py_compact_dotted(sc, v), (slice){NULL, 0}, (long)i,
                           (TSNode){0});
    }
}

/* @bind.arg: a positional argument (its position) or a keyword argument's value (the
 * keyword) of the innermost call, whose callee the flow matches to a function here. */
static void emit_arg(scan_ctx *sc, const item *it, TSNode value) {
    const call_frame *f = py_top_call(sc);
    if (!f || !f->callee.n) return; /* a class statement's bases */
    slice kw = py_companion_text(sc, it, ROLE_BIND_KW);
    if (is_tuple_node(value)) { /* only `args=(...)` of a thread or process */
        if (kw.s) emit_worker_args(sc, f->callee, kw, value);
        return;
    }
    long pos = kw.s ? -1 : entry_position(sc, py_parent(sc, value), value);
    if (!kw.s && pos < 0) return;
    slice v = py_node_text(sc, value);
    if (v.n > 240) v.n = 240;
    emit_binding_entry(sc, value, SUNSET_FACT_ARG, f->callee, py_compact_dotted(sc, v), kw, pos,
                       (TSNode){0});
    /* `exes.append(pe)`, `s.add(pe)`: the argument becomes an element of the object */
    const char *dot = memrchr(f->callee.s, '.', f->callee.n);
    size_t mn = dot ? f->callee.n - (size_t)(dot + 1 - f->callee.s) : 0;
    if (!kw.s && pos == 0 && mn &&
        ((mn == 6 && !memcmp(dot + 1, "append", 6)) || (mn == 3 && !memcmp(dot + 1, "add", 3)) ||
         (mn == 10 && !memcmp(dot + 1, "appendleft", 10))))
        emit_bind(sc, value, SUNSET_FACT_ITEM,
                  py_compact_dotted(sc, (slice){f->callee.s, (size_t)(dot - f->callee.s)}));
}

static bool text_is(scan_ctx *sc, TSNode n, const char *w) {
    slice t = py_node_text(sc, n);
    return t.n == strlen(w) && !memcmp(t.s, w, t.n);
}

static bool is_name_node(TSNode n) {
    const char *t = ts_node_type(n);
    return !strcmp(t, "identifier") || !strcmp(t, "attribute");
}

/* The container a loop over `iter` takes its elements from, for loop target entry `pos` (-1:
 * the whole target): `exes`, `self.exes`, `d.values()`; `enumerate(exes)` and `d.items()`
 * for entry 1 of `i, e` / `k, v`. Null for anything else. */
static TSNode loop_container(scan_ctx *sc, TSNode iter, long pos) {
    if (is_name_node(iter)) return pos < 0 ? iter : (TSNode){0};
    if (strcmp(ts_node_type(iter), "call")) return (TSNode){0};
    TSNode fn = ts_node_child_by_field_name(iter, "function", 8);
    TSNode args = ts_node_child_by_field_name(iter, "arguments", 9);
    if (ts_node_is_null(fn) || ts_node_is_null(args)) return (TSNode){0};
    uint32_t na = ts_node_named_child_count(args);
    if (text_is(sc, fn, "enumerate")) {
        TSNode a = na == 1 ? ts_node_named_child(args, 0) : (TSNode){0};
        return pos == 1 && !ts_node_is_null(a) && is_name_node(a) ? a : (TSNode){0};
    }
    if (strcmp(ts_node_type(fn), "attribute") || na) return (TSNode){0};
    TSNode obj = ts_node_child_by_field_name(fn, "object", 6);
    TSNode m = ts_node_child_by_field_name(fn, "attribute", 9);
    if (ts_node_is_null(obj) || ts_node_is_null(m) || !is_name_node(obj)) return (TSNode){0};
    bool ok = pos < 0 ? text_is(sc, m, "values") : pos == 1 && text_is(sc, m, "items");
    return ok ? obj : (TSNode){0};
}

/* @bind.for: `for e in exes:` (or a comprehension's `for`) binds e to an element of exes
 * (flag SUNSET_FACT_ITER, value = the container). */
static void emit_loop(scan_ctx *sc, const item *it, TSNode left) {
    const fact_cap *v = py_companion(sc, it, ROLE_BIND_VALUE);
    if (!v) return;
    if (is_name_node(left)) {
        TSNode c = loop_container(sc, v->node, -1);
        if (!ts_node_is_null(c))
            emit_bind(sc, c, SUNSET_FACT_ITER, py_compact_dotted(sc, py_node_text(sc, left)));
        return;
    }
    if (!is_tuple_node(left)) return;
    long k;
    bool star;
    if (tuple_entries(left, (TSNode){0}, &k, &star) != 2 || star) return;
    TSNode e = tuple_entry(left, 1), c = loop_container(sc, v->node, 1);
    if (!ts_node_is_null(c) && !ts_node_is_null(e) && is_name_node(e))
        emit_bind(sc, c, SUNSET_FACT_ITER, py_compact_dotted(sc, py_node_text(sc, e)));
}

/* The object flow's facts: bindings, returns, parameters and arguments (core/flow.c). */
void py_emit_binding(scan_ctx *sc, const item *it, const fact_cap *pc, TSNode node) {
    switch ((role)pc->role) {
    case ROLE_BIND_TARGET: {
        /* the binding's span is its value: a seed inside it marks the target (core/flow.c) */
        const fact_cap *v = py_companion(sc, it, ROLE_BIND_VALUE);
        if (v)
            emit_bind_target(sc, node, v->node, py_compact_dotted(sc, py_node_text(sc, node)));
        break;
    }
    case ROLE_BIND_RETURN:
        emit_return(sc, node); /* `return bs, es`: each element by its position */
        break;
    case ROLE_BIND_PARAM:
        emit_param(sc, node);
        break;
    case ROLE_BIND_ARG:
        emit_arg(sc, it, node);
        break;
    case ROLE_BIND_FOR:
        emit_loop(sc, it, node);
        break;
    default:
        break;
    }
}
