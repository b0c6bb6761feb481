/*
 * parent.c — node parents for the Python frontend's fact emission (frontend.c, binding.c).
 *
 * tree-sitter 0.20's ts_node_parent walks down from the root, scanning each level's children
 * from the first: a string or binding deep in a long module cost thousands of instructions
 * per parent, and the emission asks for several per fact (17% of a cold Python scan's
 * frontend). The facts are emitted in document order, so one TSTreeCursor moves forward
 * through the tree instead and keeps the path of nodes from the root to the node it was last
 * asked about: a parent of a node on that path is a look-up, and the next node is reached
 * from where the last one was found. Where the cursor cannot find a node (only zero-width
 * nodes, which error recovery may make, can mislead the byte ranges it follows) the parent
 * is ts_node_parent's.
 *
 * A second cursor lists a node's named children in order (py_kids_*): ts_node_named_child(n,
 * i) too starts from the first child at every call, so an index loop over a long list literal
 * or argument list was quadratic.
 */
#include "lang/python/scan_int.h"

static TSNode *path_at(py_path *p, size_t i) { return &VEC_AT(&p->nodes, TSNode, i); }

static bool same_node(TSNode a, TSNode b) { return a.id == b.id && a.tree == b.tree; }

static bool holds(TSNode a, uint32_t s, uint32_t e) {
    return ts_node_start_byte(a) <= s && e <= ts_node_end_byte(a);
}

void py_path_start(scan_ctx *sc, TSNode root) {
    py_path *p = &sc->path;
    p->nodes = VEC_INIT(TSNode);
    p->cur = ts_tree_cursor_new(root);
    p->live = true;
    p->on = vec_push(&p->nodes, &root) != NULL;
}

void py_path_end(scan_ctx *sc) {
    py_path *p = &sc->path;
    if (p->live) ts_tree_cursor_delete(&p->cur);
    if (p->kids_live) ts_tree_cursor_delete(&p->kids);
    vec_free(&p->nodes);
    p->on = p->live = p->kids_live = false;
}

static void path_up(py_path *p) {
    ts_tree_cursor_goto_parent(&p->cur);
    p->nodes.n--;
}

/* The cursor's current node as the path's last (a sibling replaces it, a child is added). */
static bool path_set(py_path *p, bool child) {
    TSNode c = ts_tree_cursor_current_node(&p->cur);
    if (!child) *path_at(p, p->nodes.n - 1) = c;
    else if (!vec_push(&p->nodes, &c)) return p->on = false; /* the path is not the cursor's */
    return true;
}

/* Move the cursor (and the path) to n: true when it is there. The path is always one from
 * the root, so a failure leaves it usable for the next node. */
static bool seek(py_path *p, TSNode n) {
    uint32_t s = ts_node_start_byte(n), e = ts_node_end_byte(n);
    while (p->nodes.n > 1 && !holds(*path_at(p, p->nodes.n - 2), s, e)) path_up(p);
    /* the last node's parent holds n: n is in the last node or a later sibling's, unless it
     * starts before the last node (a node asked about out of order) */
    bool scan = p->nodes.n > 1;
    if (scan && ts_node_start_byte(*path_at(p, p->nodes.n - 1)) > s) path_up(p), scan = false;
    for (;;) {
        if (!scan) { /* the last node holds n: into its children */
            if (same_node(*path_at(p, p->nodes.n - 1), n)) return true;
            if (!ts_tree_cursor_goto_first_child(&p->cur) || !path_set(p, true)) return false;
        }
        for (;;) {
            TSNode c = *path_at(p, p->nodes.n - 1);
            if (same_node(c, n)) return true;
            if (ts_node_start_byte(c) > s) return false;
            if (holds(c, s, e)) break;
            if (!ts_tree_cursor_goto_next_sibling(&p->cur)) return false;
            path_set(p, false);
        }
        scan = false;
    }
}

TSNode py_parent(scan_ctx *sc, TSNode n) {
    py_path *p = &sc->path;
    if (!p->on) return ts_node_parent(n);
    for (size_t i = p->nodes.n; i-- > 0;)
        if (same_node(*path_at(p, i), n)) return i ? *path_at(p, i - 1) : (TSNode){0};
    if (!seek(p, n) || p->nodes.n < 2) return ts_node_parent(n);
    return *path_at(p, p->nodes.n - 2);
}

/* The kids cursor on a named node (true, *c that node) or past the last (false). */
static bool kids_named(py_path *p, TSNode *c) {
    do {
        TSNode k = ts_tree_cursor_current_node(&p->kids);
        if (ts_node_is_named(k)) return *c = k, true;
    } while (ts_tree_cursor_goto_next_sibling(&p->kids));
    return false;
}

bool py_kids_first(scan_ctx *sc, TSNode n, TSNode *c) {
    py_path *p = &sc->path;
    if (ts_node_is_null(n)) return false;
    if (p->kids_live) ts_tree_cursor_reset(&p->kids, n);
    else p->kids = ts_tree_cursor_new(n), p->kids_live = true;
    return ts_tree_cursor_goto_first_child(&p->kids) && kids_named(p, c);
}

bool py_kids_next(scan_ctx *sc, TSNode *c) {
    py_path *p = &sc->path;
    return ts_tree_cursor_goto_next_sibling(&p->kids) && kids_named(p, c);
}
