/*
 * plan.c — the removal plan (removable.h): after propagation and liveness, the dead remainder.
 * Whole dead files first, in an order where a file comes before the files it depends on; then
 * the registrations naming removed things (CMake commands, tool lists, scripts), dead classes
 * in files that stay, imports and includes of legacy modules in files that stay, and flags and
 * passes to retire. Live legacy items are listed with their callers and never patched.
 */
#include "analysis/removable/rm_int.h"

#include <stdlib.h>
#include <string.h>

const char *rm_kind_name(rm_kind k) {
    static const char *const names[] = {"file", "class", "target", "flag", "pass", "import", "registration", "op",
                                        "argument"};
    return (unsigned)k < RM_KIND_COUNT ? names[k] : "?";
}

static rm_item *plan_add(ctx *c, rm_plan *p, rm_kind kind, const char *path, const char *name,
                         uint32_t line, uint32_t end) {
    if (p->n_items == p->cap) {
        size_t cap = p->cap ? p->cap * 2 : 64;
        rm_item *v = sunset_realloc(p->items, cap * sizeof *v);
        if (!v) {
            c->oom = true;
            return NULL;
        }
        p->items = v;
        p->cap = cap;
    }
    rm_item *it = &p->items[p->n_items];
    memset(it, 0, sizeof *it);
    it->kind = kind;
    it->path = rm_dupz(path);
    it->name = name ? rm_dupz(name) : NULL;
    it->line = line;
    it->end = end < line ? line : end;
    if (!it->path || (name && !it->name)) {
        sunset_free(it->path);
        sunset_free(it->name);
        c->oom = true;
        return NULL;
    }
    p->n_items++;
    return it;
}

static void item_from_node(ctx *c, rm_item *it, const node *n) {
    if (!it) return;
    it->derived = n->derived;
    it->live = n->live;
    if (n->legacy) rm_ev_flatten(c, n->ev, &it->steps, &it->n_steps);
    if (n->callers.n) {
        it->callers = sunset_calloc(n->callers.n, sizeof(char *));
        if (!it->callers) {
            c->oom = true;
            return;
        }
        for (size_t i = 0; i < n->callers.n; i++) {
            it->callers[i] = rm_dupz(VEC_AT(&n->callers, char *, i));
            if (it->callers[i]) it->n_callers++;
        }
    }
}

/* A one-step chain naming `detail` (plan steps that no node carries). */
static void item_step(ctx *c, rm_item *it, rm_step_kind kind, const char *detail) {
    rm_ev ev = {0};
    ev.step = rm_step_of(kind, NULL, 0, detail);
    rm_ev_flatten(c, &ev, &it->steps, &it->n_steps);
}

/* Names of removed things that registrations mention: test module stems, dead targets. */
typedef struct rmname {
    const char *name;
    int step;
    const char *why; /* the test module's path / the target's name */
} rmname;

static const rmname *find_rmname(const vec *v, const char *s) {
    for (size_t i = 0; i < v->n; i++)
        if (!strcmp(VEC_AT(v, rmname, i).name, s)) return &VEC_AT(v, rmname, i);
    return NULL;
}

static int cmp_item(const void *a, const void *b) {
    const rm_item *x = a, *y = b;
    bool xf = x->kind == RM_FILE, yf = y->kind == RM_FILE;
    if (xf != yf) return xf ? -1 : 1;
    if (x->step != y->step) return x->step < y->step ? -1 : 1;
    int r = strcmp(x->path, y->path);
    if (r) return r;
    if (x->line != y->line) return x->line < y->line ? -1 : 1;
    if (x->kind != y->kind) return x->kind < y->kind ? -1 : 1;
    return strcmp(x->name ? x->name : "", y->name ? y->name : "");
}

/* The plan's working state: which files and targets go, in which step, and their names. */
typedef struct planner {
    ctx *c;
    rm_plan *p;
    bool *dead;        /* per file */
    int *step;         /* per dead file, 1-based */
    bool *dead_target; /* per target: dropped with the dead files */
    char **why;        /* per file: why a dead legacy file stays (owned until an item takes it) */
    vec names;         /* rmname */
} planner;

/* ---- registrations ---- */

/* The closure's edits as items: the CMake commands and list entries, include and import lines
 * that name what the patch deletes. */
static void edit_items(planner *P, const vec *edits) {
    ctx *c = P->c;
    for (size_t i = 0; i < edits->n; i++) {
        const rm_edit *e = &VEC_AT(edits, rm_edit, i);
        bool dup = false;
        for (size_t j = 0; j < i && !dup; j++) {
            const rm_edit *o = &VEC_AT(edits, rm_edit, j);
            dup = o->file == e->file && o->line == e->line && o->how == e->how &&
                  (o->token == e->token || (o->token && e->token && !strcmp(o->token, e->token)));
        }
        if (dup) continue;
        const ix_file *F = c->files[e->file];
        const char *named = e->to >= 0 ? c->files[e->to]->path : VEC_AT(&c->targets, tgt, e->target).name;
        bool cmake = e->how != RM_REF_LINE && e->how != RM_REF_REWRITE;
        const ix_cmd *k = NULL;
        for (size_t j = 0; cmake && j < F->cmds.n && !k; j++) {
            const ix_cmd *x = &VEC_AT(&F->cmds, ix_cmd, j);
            if (x->line <= e->line && x->end >= e->line) k = x;
        }
        long dt = k && k->n_args ? rm_target_pos(c, k->args[0]) : -1;
        bool defines = k && e->how == RM_REF_COMMAND && rm_target_command(c->conv, k) && dt >= 0 && P->dead_target[dt];
        rm_kind kind = !cmake ? RM_IMPORT : defines ? RM_TARGET : RM_REGISTRATION;
        rm_item *it = plan_add(c, P->p, kind, F->path, e->token ? e->token : defines ? k->args[0] : named,
                               e->line, e->end);
        if (!it) continue;
        if (k) it->enclosing = rm_fmt("%s(%s)", k->name, k->n_args ? k->args[0] : "");
        /* an edit's reason is what the patch deletes; the deleted file's own chain is its item's */
        rm_step_kind why = !cmake ? (F->lang == SUNSET_LANG_PYTHON ? RM_EV_IMPORTS_REMOVED : RM_EV_INCLUDES_REMOVED)
                           : e->how == RM_REF_COMMAND ? RM_EV_REGISTERS
                           : e->to >= 0                ? RM_EV_SOURCE_REMOVED
                                                       : RM_EV_TARGET_REMOVED;
        uint32_t end = e->end;
        if (e->how == RM_REF_REWRITE && !(it->replace = rm_import_rewrite(c, e->file, e->line, &end, P->dead)))
            c->oom = true;
        if (it->replace) {
            rm_ev ev = {0};
            ev.step = rm_step_of(RM_EV_IMPORTS_REEXPORT, named, 0, it->replace);
            rm_ev_flatten(c, &ev, &it->steps, &it->n_steps);
        } else if (e->symbol) {
            rm_ev ev = {0};
            ev.step = rm_step_of(RM_EV_LINKS_REMOVED, named, 0, e->symbol);
            rm_ev_flatten(c, &ev, &it->steps, &it->n_steps);
        } else if (defines) item_from_node(c, it, &c->tn[dt]);
        else item_step(c, it, why, named);
        it->token = e->token != NULL;
        it->patchable = true;
        it->step = e->step;
    }
}

static void registrations(planner *P) {
    ctx *c = P->c;
    /* tool lists and scripts (CMake, includes and imports: the closure's edits) */
    for (size_t f = 0; f < c->nf; f++) {
        const ix_file *F = c->files[f];
        if (P->dead[f]) continue;
        for (size_t i = 0; i < F->list_words.n; i++) {
            const ix_word *w = &VEC_AT(&F->list_words, ix_word, i);
            const rmname *rn = find_rmname(&P->names, w->text);
            if (!rn) continue;
            rm_item *it = plan_add(c, P->p, RM_REGISTRATION, F->path, w->text, w->line, w->end);
            if (!it) continue;
            it->enclosing = rm_dupz(F->lang == SUNSET_LANG_SHELL ? "script" : "tool list");
            item_step(c, it, RM_EV_NAMES, rn->why);
            it->patchable = true; /* the patch writer keeps only lines holding just this entry */
            it->step = rn->step;
        }
    }
}

/* ---- whole files ---- */

/* Which legacy files are dead, and the summary counts. */
static void classify_files(planner *P) {
    ctx *c = P->c;
    for (size_t f = 0; f < c->nf; f++) {
        if (!c->fn[f].legacy) continue;
        P->p->n_legacy_files++;
        P->p->n_derived_files += c->fn[f].derived;
        if (c->fn[f].live) P->p->n_live_files++;
        else {
            P->dead[f] = true;
            P->p->n_dead_files++;
        }
    }
}

static void take_step(planner *P, size_t *indeg, size_t f, int *s) {
    P->step[f] = ++*s;
    for (size_t e = 0; e < P->c->out[f].n; e++) {
        size_t to = VEC_AT(&P->c->out[f], edge, e).to;
        if (P->dead[to] && to != f && indeg[to]) indeg[to]--;
    }
}

/* Order: a file before the files it depends on (Kahn over edges among dead files). */
static int order_files(planner *P) {
    ctx *c = P->c;
    size_t *indeg = sunset_calloc(c->nf ? c->nf : 1, sizeof(size_t));
    if (!indeg) return -1;
    for (size_t f = 0; f < c->nf; f++)
        if (P->dead[f])
            for (size_t e = 0; e < c->out[f].n; e++) {
                size_t to = VEC_AT(&c->out[f], edge, e).to;
                if (P->dead[to] && to != f) indeg[to]++;
            }
    int s = 0;
    for (size_t left = P->p->n_dead_files; left; left--) {
        /* always the first ready file by path; in a cycle, the first remaining one */
        size_t pick = c->nf;
        for (size_t f = 0; f < c->nf && pick == c->nf; f++)
            if (P->dead[f] && !P->step[f] && !indeg[f]) pick = f;
        for (size_t f = 0; f < c->nf && pick == c->nf; f++)
            if (P->dead[f] && !P->step[f]) pick = f;
        take_step(P, indeg, pick, &s);
    }
    sunset_free(indeg);
    return 0;
}

/* One item per legacy file; a dead test module's stem names it in registrations. */
static int file_items(planner *P) {
    ctx *c = P->c;
    for (size_t f = 0; f < c->nf; f++) {
        const ix_file *F = c->files[f];
        if (!c->fn[f].legacy) continue;
        rm_item *it = plan_add(c, P->p, RM_FILE, F->path, NULL, 1, F->n_lines ? F->n_lines : 1);
        item_from_node(c, it, &c->fn[f]);
        if (it) {
            it->step = P->dead[f] ? P->step[f] : 0;
            it->patchable = P->dead[f];
            it->after = P->why[f]; /* the item takes the reason */
            P->why[f] = NULL;
        }
        if (P->dead[f] && F->lang == SUNSET_LANG_PYTHON && rm_is_test_module(c, F->path)) {
            if (!it) return -1;
            char *stem = rm_dupz(rm_base_name(F->path));
            if (!stem) return -1;
            char *dot = strrchr(stem, '.');
            if (dot) *dot = 0;
            it->name = stem; /* owned by the item; the name list borrows it */
            rmname rn = {stem, P->step[f], F->path};
            vec_push(&P->names, &rn);
        }
    }
    return 0;
}

/* Dead targets, named in registrations at the earliest step of their dead sources. */
static void dead_targets(planner *P) {
    ctx *c = P->c;
    for (size_t t = 0; t < c->targets.n; t++) {
        if (!P->dead_target[t]) continue;
        tgt *T = &VEC_AT(&c->targets, tgt, t);
        if (find_rmname(&P->names, T->name)) continue;
        int st = 0;
        for (size_t k = 0; k < T->srcs.n; k++) {
            size_t sf = VEC_AT(&T->srcs, size_t, k);
            if (P->dead[sf] && (!st || P->step[sf] < st)) st = P->step[sf];
        }
        rmname rn = {T->name, st, T->name};
        vec_push(&P->names, &rn);
    }
}

/* ---- partial removals in files that stay ---- */

/* Does a class of file f that stays name `bound` (or `bound.x`) among its bases? */
static bool base_of_kept(const ctx *c, size_t f, const char *bound, const bool *dead) {
    size_t n = strlen(bound);
    for (size_t q = 0; q < c->file_classes[f].n; q++) {
        size_t k = VEC_AT(&c->file_classes[f], size_t, q);
        const ix_class *y = VEC_AT(&c->classes, cls, k).c;
        if (rm_class_removable(c, k, dead)) continue;
        for (uint32_t b = 0; b < y->n_bases; b++)
            if (!strncmp(y->bases[b], bound, n) && (!y->bases[b][n] || y->bases[b][n] == '.')) return true;
    }
    return false;
}

/* Did cutting class x make import m of file f unneeded (used before, needed no more)? */
static bool cut_unneeded(const planner *P, size_t f, const ix_class *x, const ix_import *m) {
    char first[256];
    const char *bound = ix_import_bound(m, first, sizeof first);
    return m->used && (!m->name || strcmp(m->name, "*") != 0) && strcmp(m->module, "__future__") != 0 &&
           ix_hashes_have(x->names, x->n_names, bound) && !rm_py_needed(P->c, f, bound, P->dead) &&
           !base_of_kept(P->c, f, bound, P->dead);
}

/* The imports of class k's file that only the cut classes used land with the cut: a statement
 * whose every name goes is deleted, a from-import keeping some names becomes one line with
 * the rest (the plan's `replace`). */
static void cut_imports(planner *P, size_t k, int step) {
    ctx *c = P->c;
    const cls *x = &VEC_AT(&c->classes, cls, k);
    const ix_file *F = c->files[x->file];
    for (size_t i = 0; i < F->imports.n; i++) {
        const ix_import *m = &VEC_AT(&F->imports, ix_import, i);
        if (i > 0 && VEC_AT(&F->imports, ix_import, i - 1).line == m->line) continue; /* its statement is done */
        size_t n = 0, gone = 0;
        bool one_module = true;
        sb keep = {0};
        for (size_t j = i; j < F->imports.n && VEC_AT(&F->imports, ix_import, j).line == m->line; j++) {
            const ix_import *o = &VEC_AT(&F->imports, ix_import, j);
            n++;
            one_module &= o->name && strcmp(o->module, m->module) == 0;
            if (cut_unneeded(P, x->file, x->c, o)) {
                gone++;
                continue;
            }
            sb_printf(&keep, "%s%s%s%s", keep.len ? ", " : "", o->name ? o->name : "", o->alias ? " as " : "",
                      o->alias ? o->alias : "");
        }
        bool listed = false;
        for (size_t j = 0; j < P->p->n_items && !listed; j++) {
            const rm_item *o = &P->p->items[j];
            listed = o->kind == RM_IMPORT && o->line == m->line && !strcmp(o->path, F->path);
        }
        if (!gone || listed || (gone < n && !one_module)) {
            sb_free(&keep);
            continue;
        }
        char first[256];
        rm_item *it = plan_add(c, P->p, RM_IMPORT, F->path, ix_import_bound(m, first, sizeof first), m->line, m->end);
        if (it && gone < n && !(it->replace = rm_fmt("from %s import %s", m->module, keep.s))) c->oom = true;
        sb_free(&keep);
        if (!it) continue;
        rm_ev ev = {0};
        ev.step = rm_step_of(RM_EV_IMPORT_CUT, x->c->name, 0, it->name);
        rm_ev_flatten(c, &ev, &it->steps, &it->n_steps);
        it->patchable = true;
        it->step = step;
    }
}

/* Dead legacy classes. */
static void class_items(planner *P) {
    ctx *c = P->c;
    for (size_t k = 0; k < c->classes.n; k++) {
        const cls *x = &VEC_AT(&c->classes, cls, k);
        if (!c->cn[k].legacy || P->dead[x->file]) continue;
        rm_item *it = plan_add(c, P->p, RM_CLASS, c->files[x->file]->path, x->c->name, x->c->line, x->c->end);
        item_from_node(c, it, &c->cn[k]);
        if (!it) continue;
        it->enclosing = rm_fmt("class %s", x->c->name);
        if (!rm_class_removable(c, k, P->dead)) continue;
        /* it lands with the edit of its file's imports it made unneeded, else as a step of its own */
        it->patchable = true;
        for (size_t i = 0; i < P->p->n_items && !it->step; i++) {
            const rm_item *o = &P->p->items[i];
            if (o->kind == RM_IMPORT && o->patchable && o->step > 0 && !strcmp(o->path, it->path)) it->step = o->step;
        }
        if (!it->step) it->step = (int)++P->p->n_steps;
        cut_imports(P, k, it->step);
    }
}

/* The import or include line of edge e of file f, when it is to go. */
static void import_item(planner *P, size_t f, size_t e) {
    ctx *c = P->c;
    const ix_file *F = c->files[f];
    const edge *ed = &VEC_AT(&c->out[f], edge, e);
    /* references to deleted files are the closure's edits */
    if (!c->fn[ed->to].legacy || P->dead[ed->to] || ed->counts) return;
    for (size_t e2 = 0; e2 < c->out[f].n; e2++) {
        const edge *o = &VEC_AT(&c->out[f], edge, e2);
        if (o->to != ed->to) continue;
        if (o->counts && !P->dead[ed->to]) return; /* another line still needs it */
        if (e2 < e && o->line == ed->line) return; /* listed already */
    }
    uint32_t end = ed->line;
    for (size_t i = 0; i < F->imports.n; i++)
        if (VEC_AT(&F->imports, ix_import, i).line == ed->line) end = VEC_AT(&F->imports, ix_import, i).end;
    rm_item *it = plan_add(c, P->p, RM_IMPORT, F->path, c->files[ed->to]->path, ed->line, end);
    if (!it) return;
    bool py = F->lang == SUNSET_LANG_PYTHON;
    rm_ev ev = {0};
    ev.step = rm_step_of(py ? (ed->counts ? RM_EV_IMPORTS : RM_EV_IMPORTS_UNUSED)
                            : (ed->counts ? RM_EV_INCLUDES : RM_EV_INCLUDES_UNUSED),
                         c->files[ed->to]->path, 0, NULL);
    ev.step.n_causes = 1;
    ev.cause[0] = &c->fn[ed->to];
    rm_ev_flatten(c, &ev, &it->steps, &it->n_steps);
    it->derived = true;
    it->live = true;
}

/* Flags and passes defined in files that stay. */
static void word_items(planner *P) {
    ctx *c = P->c;
    for (int kind = 0; kind < 2; kind++) {
        vec *v = kind ? &c->passes : &c->flags;
        node *nodes = kind ? c->pn : c->gn;
        for (size_t i = 0; i < v->n; i++) {
            const wordref *w = &VEC_AT(v, wordref, i);
            if (!nodes[i].legacy || P->dead[w->file]) continue;
            rm_item *it = plan_add(c, P->p, kind ? (w->op ? RM_OP : RM_PASS) : RM_FLAG, c->files[w->file]->path, w->w->text,
                                   w->w->line, w->w->end);
            item_from_node(c, it, &nodes[i]);
        }
    }
}

/* A line that is only `name=value,` (value one plain token or literal): a keyword parameter or
 * argument the line holds alone, so the line can go. */
static bool lone_keyword(const char *line, const char *name) {
    while (*line == ' ' || *line == '\t') line++;
    size_t n = strlen(name);
    if (!n || strncmp(line, name, n) != 0) return false;
    const char *q = line + n;
    while (*q == ' ') q++;
    if (*q++ != '=' || *q == '=') return false;
    while (*q == ' ') q++;
    const char *v = q;
    while (*q && !strchr(",()[]{}#=;\\", *q)) q++;
    if (q == v || *q != ',') return false;
    for (q++; *q == ' ' || *q == '\t' || *q == '\r'; q++) {}
    return !*q;
}

/* How many findings of rule `id` matched `text`, in any context. */
static size_t n_matching(const sunset_result *res, const char *id, const char *text) {
    size_t n = 0;
    for (size_t i = 0; i < res->n_findings; i++)
        n += !strcmp(res->findings[i].rule_id, id) && res->findings[i].matched &&
             !strcmp(res->findings[i].matched, text);
    return n;
}

/* Mechanical migrations (a rule's "mechanical": "drop-argument"): a Python keyword the line
 * holds alone, whose name nothing else in the tree mentions (no body reads it, no caller passes
 * it), goes with its line, all of them in one step. */
static void mechanical_items(planner *P) {
    ctx *c = P->c;
    int step = 0;
    for (size_t i = 0; c->rs && i < c->res->n_findings; i++) {
        const sunset_finding *fd = &c->res->findings[i];
        const sunset_rule *r = sunset_ruleset_find(c->rs, fd->rule_id);
        if (!r || !r->mechanical || fd->ctx != SUNSET_CTX_CODE || fd->suppressed || !fd->matched || !fd->snippet)
            continue;
        long f = rm_lookup_rel(c, "", 0, fd->path);
        if (f < 0 || c->files[f]->lang != SUNSET_LANG_PYTHON || P->dead[f] || c->fn[f].legacy) continue;
        if (!lone_keyword(fd->snippet, fd->matched) || n_matching(c->res, fd->rule_id, fd->matched) != 1) continue;
        rm_item *it = plan_add(c, P->p, RM_ARGUMENT, fd->path, fd->matched, fd->span.line, fd->span.line);
        if (!it) return;
        rm_ev ev = {0};
        ev.step = rm_step_of(RM_EV_RULE_AT, fd->path, fd->span.line, NULL);
        ev.step.rule_id = fd->rule_id;
        rm_ev_flatten(c, &ev, &it->steps, &it->n_steps);
        if (fd->enc_kind && fd->enc_name) it->enclosing = rm_fmt("%s %s", fd->enc_kind, fd->enc_name);
        it->mechanical = rm_dupz(r->mechanical);
        if (r->migrate_to) it->migrate_to = rm_dupz(r->migrate_to);
        it->patchable = true;
        it->step = step ? step : (step = (int)++P->p->n_steps);
    }
}

static int plan(ctx *c, rm_plan *p) {
    size_t nf = c->nf ? c->nf : 1;
    planner P = {c, p, sunset_calloc(nf, 1), sunset_calloc(nf, sizeof(int)),
                 sunset_calloc(c->targets.n ? c->targets.n : 1, 1), sunset_calloc(nf, sizeof(char *)),
                 VEC_INIT(rmname)};
    vec edits = VEC_INIT(rm_edit);
    int rc = -1;
    if (!P.dead || !P.step || !P.dead_target || !P.why) goto cleanup;
    classify_files(&P);
    if (order_files(&P)) goto cleanup;
    int n_steps = rm_closure(c, P.dead, P.dead_target, P.why, P.step, &edits);
    if (n_steps < 0) goto cleanup;
    p->n_steps = (size_t)n_steps;
    for (size_t f = 0; f < c->nf; f++)
        if (c->fn[f].legacy && !c->fn[f].live && !P.dead[f]) {
            p->n_dead_files--;
            p->n_kept_files++;
        }
    if (file_items(&P)) goto cleanup;
    dead_targets(&P);
    edit_items(&P, &edits);
    registrations(&P);
    class_items(&P);
    /* imports and includes of removed or legacy modules in files that stay */
    for (size_t f = 0; f < c->nf; f++)
        for (size_t e = 0; !P.dead[f] && e < c->out[f].n; e++) import_item(&P, f, e);
    word_items(&P);
    mechanical_items(&P);
    if (!c->oom && p->n_items) qsort(p->items, p->n_items, sizeof *p->items, cmp_item);
    rc = c->oom ? -1 : 0;
cleanup:
    for (size_t f = 0; P.why && f < c->nf; f++) sunset_free(P.why[f]);
    sunset_free(P.why);
    vec_free(&edits);
    vec_free(&P.names);
    sunset_free(P.dead);
    sunset_free(P.step);
    sunset_free(P.dead_target);
    return rc;
}

/* The plan, and when `migrate` the migrate table too (rm_migrate_fill). */
static int plan_build(const sunset_index *ix, const sunset_ruleset *rs, const sunset_result *res, bool migrate,
                      rm_plan *p) {
    static const sunset_cross_file none; /* no settings: no conventions */
    ctx c = {0};
    c.ix = ix;
    c.res = res;
    c.conv = rs ? &rs->cross_file : &none;
    c.rs = rs;
    int rc = -1;
    memset(p, 0, sizeof *p);
    if (!(c.md = sunset_re_match_data(1))) return -1;
    p->n_files_indexed = ix->files.n;
    if (res->root && !(p->root = rm_dupz(res->root))) goto cleanup;
    if (rm_graph_build(&c)) goto cleanup;
    rm_seeds(&c);
    rm_propagate(&c);
    rm_liveness(&c);
    if (c.oom) goto cleanup;
    rc = plan(&c, p);
    if (!rc && rs && migrate) rc = rm_migrate_fill(&c, rs, p);
cleanup:
    rm_graph_free(&c);
    pcre2_match_data_free(c.md);
    if (rc) rm_plan_free(p);
    return rc;
}

int rm_plan_build(const sunset_index *ix, const sunset_ruleset *rs, const sunset_result *res, rm_plan *p) {
    return plan_build(ix, rs, res, true, p);
}

int rm_plan_build_lean(const sunset_index *ix, const sunset_ruleset *rs, const sunset_result *res, rm_plan *p) {
    return plan_build(ix, rs, res, false, p);
}

void rm_plan_free(rm_plan *p) {
    if (!p) return;
    for (size_t i = 0; i < p->n_items; i++) {
        rm_item *it = &p->items[i];
        sunset_free(it->path);
        sunset_free(it->name);
        sunset_free(it->enclosing);
        rm_steps_free(it->steps, it->n_steps);
        sunset_free(it->after);
        sunset_free(it->replace);
        for (size_t k = 0; k < it->n_callers; k++) sunset_free(it->callers[k]);
        sunset_free(it->callers);
        sunset_free(it->migrate_to);
        sunset_free(it->mechanical);
        for (size_t k = 0; k < it->n_unblocks; k++) sunset_free(it->unblocks[k]);
        sunset_free(it->unblocks);
        sunset_free(it->unblocks_steps);
    }
    sunset_free(p->items);
    for (size_t i = 0; i < p->n_consumers; i++) {
        rm_consumer *k = &p->consumers[i];
        sunset_free(k->path);
        for (size_t u = 0; u < k->n_migrate_to; u++) sunset_free(k->migrate_to[u]);
        sunset_free(k->migrate_to);
        for (size_t u = 0; u < k->n_unblocks; u++) sunset_free(k->unblocks[u]);
        sunset_free(k->unblocks);
        sunset_free(k->unblocks_steps);
    }
    sunset_free(p->consumers);
    for (size_t i = 0; i < p->n_unblocked; i++) rm_wstep_free(&p->unblocked[i]);
    sunset_free(p->unblocked);
    sunset_free(p->root);
    memset(p, 0, sizeof *p);
}
