/*
 * pyclass.c — dead legacy Python classes the patch can cut out of a file that stays, and which
 * names such a file still needs once they are gone. #63543 did both by hand: TestMNIST left
 * test_fuse_elewise_add_act_pass.py and with it the import of parallel_executor_test_base;
 * TestPyFuncOpUseParallelExecutor left test_py_func_op.py.
 *
 * A class goes when it is a top-level Python class, legacy and not live, with no decorator
 * (cutting the class would hand the decorator to the next statement), whose name the file does
 * not use outside the class (module code, a function, another class's body or bases), and
 * that no file that stays imports from this module. A name the file binds by import is still
 * needed when code outside the classes that go uses it, or another file that stays imports it
 * from this module (the import re-exports it).
 */
#include "analysis/removable/rm_int.h"

#include <string.h>

/* Does file g, which stays, import `name` from file f (by name or by star)? */
static bool imports_from(const ctx *c, size_t g, size_t f, const char *name) {
    const ix_file *G = c->files[g];
    for (size_t i = 0; i < G->imports.n; i++) {
        const ix_import *m = &VEC_AT(&G->imports, ix_import, i);
        if (!m->name || (strcmp(m->name, "*") != 0 && strcmp(m->name, name) != 0)) continue;
        if (rm_resolve_module(c, g, m->module) == (long)f) return true;
    }
    return false;
}

static bool reimported(const ctx *c, size_t f, const char *name, const bool *dead) {
    for (size_t u = 0; u < c->users[f].n; u++) {
        size_t g = VEC_AT(&c->users[f], size_t, u);
        if (g != f && !dead[g] && imports_from(c, g, f, name)) return true;
    }
    return false;
}

bool rm_class_removable(const ctx *c, size_t k, const bool *dead) {
    const cls *x = &VEC_AT(&c->classes, cls, k);
    const ix_file *F = c->files[x->file];
    if (F->lang != SUNSET_LANG_PYTHON || !x->c->top || x->c->decorated || !c->cn[k].legacy || c->cn[k].live ||
        strlen(x->c->name) < 2) /* the index keeps no hashes of one-byte names */
        return false;
    if (ix_hashes_have(F->outside, F->n_outside, x->c->name)) return false;
    for (size_t q = 0; q < c->file_classes[x->file].n; q++) {
        size_t o = VEC_AT(&c->file_classes[x->file], size_t, q);
        const ix_class *y = VEC_AT(&c->classes, cls, o).c;
        if (o != k && y->top && ix_hashes_have(y->names, y->n_names, x->c->name)) return false;
    }
    return !reimported(c, x->file, x->c->name, dead);
}

bool rm_py_bound_used(const ctx *c, size_t f, const char *name, long q) {
    const ix_file *F = c->files[f];
    if (q < 0) return ix_hashes_have(F->outside, F->n_outside, name) && !ix_attr_only(F, -1, name);
    const ix_class *y = VEC_AT(&c->classes, cls, VEC_AT(&c->file_classes[f], size_t, (size_t)q)).c;
    long at = (long)(y - (const ix_class *)F->classes.v);
    return ix_hashes_have(y->names, y->n_names, name) && !ix_attr_only(F, at, name);
}

bool rm_py_needed(const ctx *c, size_t f, const char *name, const bool *dead) {
    if (strlen(name) < 2) return true; /* the index keeps no hashes of one-byte names */
    /* a use as an attribute (`base.core`) is not a use of the name an import binds */
    if (rm_py_bound_used(c, f, name, -1)) return true;
    for (size_t q = 0; q < c->file_classes[f].n; q++) {
        size_t k = VEC_AT(&c->file_classes[f], size_t, q);
        const ix_class *y = VEC_AT(&c->classes, cls, k).c;
        if (y->top && rm_py_bound_used(c, f, name, (long)q) && !rm_class_removable(c, k, dead)) return true;
    }
    return reimported(c, f, name, dead);
}
