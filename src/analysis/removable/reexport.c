/*
 * reexport.c — names a Python module only passes on. `DeviceType` in parallel_executor_test_base.py
 * is `DeviceType = core.DeviceType` under `from paddle.base import core`; seresnext_test_base.py
 * re-imports it from there; seresnext_net.py takes it from seresnext_test_base. Such a use does
 * not need the legacy module: the importer can take the same object from where it is defined,
 * `from paddle.base.core import DeviceType`, a one-line edit. The real cleanup (#63543) made
 * exactly this edit.
 *
 * A name is re-exported by module M when M binds it once, at module level, either by
 * `from P import X [as name]` or by `name = head.a.b` where head is bound by an import of M; the
 * chain is followed (at most 4 modules) while the module it leads to is legacy. It resolves only
 * when the module it ends in is indexed, not legacy, a real module (`paddle.base.core` is
 * python/paddle/base/core.py, not an attribute), and the importer resolves the same dotted name
 * to the same file (a sibling module of M is importable from the importer only if it is a
 * sibling there too). Star imports, relative imports, and names M also defines (class, def,
 * another assignment) never resolve.
 */
#include "analysis/removable/rm_int.h"

#include <stdio.h>
#include <string.h>

/* How many times module-level code of F binds `name`; *as_import / *as_alias: the one binding. */
static size_t bindings(const ix_file *F, const char *name, const ix_import **as_import, const ix_alias **as_alias) {
    size_t n = 0;
    *as_import = NULL;
    *as_alias = NULL;
    for (size_t i = 0; i < F->imports.n; i++) {
        const ix_import *m = &VEC_AT(&F->imports, ix_import, i);
        const char *bound = m->alias ? m->alias : m->name;
        if (m->name && !strcmp(m->name, "*")) return SIZE_MAX; /* anything could come from there */
        if (bound && !strcmp(bound, name)) n++, *as_import = m;
        if (!m->name && !m->alias) { /* `import a.b` binds a */
            size_t k = strcspn(m->module, ".");
            if (strlen(name) == k && !strncmp(m->module, name, k)) n++, *as_import = m;
        }
    }
    for (size_t i = 0; i < F->aliases.n; i++)
        if (!strcmp(VEC_AT(&F->aliases, ix_alias, i).name, name)) n++, *as_alias = &VEC_AT(&F->aliases, ix_alias, i);
    for (size_t i = 0; i < F->classes.n; i++)
        if (!strcmp(VEC_AT(&F->classes, ix_class, i).name, name)) n++;
    for (size_t i = 0; i < F->funcs.n; i++)
        if (!strcmp(VEC_AT(&F->funcs, ix_func, i).name, name)) n++;
    return n;
}

/* The dotted module an import of F binds `head` to ("paddle.base.core" for `from paddle.base
 * import core`); false when it binds something else or nothing. */
static bool head_module(const ix_file *F, const char *head, char *out, size_t on) {
    const ix_import *m;
    const ix_alias *a;
    if (bindings(F, head, &m, &a) != 1 || !m || m->module[0] == '.') return false;
    int w;
    if (m->name) w = snprintf(out, on, "%s.%s", m->module, m->name); /* from P import head */
    else if (m->alias) w = snprintf(out, on, "%s", m->module);       /* import P as head */
    else w = snprintf(out, on, "%s", head);                          /* import head[.x] */
    return w > 0 && (size_t)w < on;
}

long rm_reexport(const ctx *c, size_t importer, size_t mod_file, const char *name, char *mod, size_t mn,
                 char *attr, size_t an) {
    size_t f = mod_file;
    char want[300];
    if (snprintf(want, sizeof want, "%s", name) >= (int)sizeof want) return -1;
    for (int depth = 0; depth < 4; depth++) {
        const ix_file *F = c->files[f];
        if (F->lang != SUNSET_LANG_PYTHON) return -1;
        const ix_import *m;
        const ix_alias *a;
        if (bindings(F, want, &m, &a) != 1) return -1;
        char dotted[600], last[300];
        if (m) {
            if (!m->name || m->module[0] == '.') return -1; /* a plain import binds a module, not a name */
            if (snprintf(dotted, sizeof dotted, "%s", m->module) >= (int)sizeof dotted) return -1;
            if (snprintf(last, sizeof last, "%s", m->name) >= (int)sizeof last) return -1;
        } else {
            if (!a || !a->value) return -1;
            const char *dot = strrchr(a->value, '.');
            if (!dot) return -1;
            char head[300];
            size_t hn = strcspn(a->value, ".");
            if (hn >= sizeof head) return -1;
            memcpy(head, a->value, hn);
            head[hn] = 0;
            char base[300];
            if (!head_module(F, head, base, sizeof base)) return -1;
            /* base + the middle of the value: "paddle.base.core" + "" for core.DeviceType */
            int w = snprintf(dotted, sizeof dotted, "%s%.*s", base, (int)(dot - a->value - hn), a->value + hn);
            if (w <= 0 || (size_t)w >= sizeof dotted) return -1;
            if (snprintf(last, sizeof last, "%s", dot + 1) >= (int)sizeof last) return -1;
        }
        long t = rm_resolve_module(c, f, dotted);
        if (t < 0 || (size_t)t == f || rm_resolve_module(c, importer, dotted) != t) return -1;
        if (!c->fn[t].legacy) {
            if (snprintf(mod, mn, "%s", dotted) >= (int)mn || snprintf(attr, an, "%s", last) >= (int)an) return -1;
            return t;
        }
        /* the chain goes on through another legacy module */
        f = (size_t)t;
        memcpy(want, last, strlen(last) + 1);
    }
    return -1;
}

char *rm_import_rewrite(const ctx *c, size_t f, uint32_t line, uint32_t *end, const bool *dead) {
    const ix_file *F = c->files[f];
    sb out = {0};
    size_t n = 0, kept = 0;
    const char *module = NULL;
    for (size_t i = 0; i < F->imports.n; i++) {
        const ix_import *m = &VEC_AT(&F->imports, ix_import, i);
        if (m->line > line || m->end < line) continue;
        n++;
        *end = m->end;
        if (!m->name || !strcmp(m->name, "*") || (module && strcmp(module, m->module) != 0)) goto fail;
        module = m->module;
        const char *bound = m->alias ? m->alias : m->name;
        /* not needed, here or by a file importing it from here: it just goes */
        if (!rm_py_needed(c, f, bound, dead)) continue;
        long g = rm_resolve_module(c, f, m->module);
        char mod[600], attr[300];
        if (g < 0 || rm_reexport(c, f, (size_t)g, m->name, mod, sizeof mod, attr, sizeof attr) < 0) goto fail;
        sb_printf(&out, "%sfrom %s import %s", kept++ ? "; " : "", mod, attr);
        if (strcmp(attr, bound) != 0) sb_printf(&out, " as %s", bound);
    }
    if (!n || out.oom) goto fail;
    if (!kept) return rm_dupz("");
    return sb_take(&out);
fail:
    sb_free(&out);
    return NULL;
}
