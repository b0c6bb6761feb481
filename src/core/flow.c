/*
 * flow.c — legacy-object flow within one Python file. A name bound to an expression that a
 * bound_to rule matched (`exe = fluid.ParallelExecutor(...)`, `self._pe = ...`, `a, b = ...`)
 * marks the object; so do re-bindings of a marked name (`prog2 = prog`) and functions of the
 * module that return a marked value, whose calls then mark what they are assigned to. The
 * uses of a marked object (attribute reads, method calls, stores, passes as call arguments)
 * are what a migration rewrites, and are reported under the flow rule.
 *
 * Scoping is lexical and approximate by design: a plain name is looked up in its innermost
 * function (then the module), and the binding that holds at a use is the last one of that
 * name in the scope on an earlier line, so a re-binding to something else ends the mark;
 * `self.x` is marked for the whole class, whichever method binds it. Not followed: aliasing
 * through containers, globals rebound in functions, objects passed into other functions,
 * other modules. The frontend emits BIND facts; the engine feeds every fact and candidate
 * here while the file is scanned and calls flow_finish before candidates are reduced.
 */
#include "core/flow.h"

#include <stdio.h>
#include <string.h>

/* A bound value's text is kept up to this many bytes: enough for a name, a callee and the
 * start of its arguments, which is all the re-binding and return tests look at. */
#define VALUE_MAX 240

typedef struct fbind {
    char *target;        /* owned; "" for a return */
    char *value;         /* owned; at most VALUE_MAX bytes of the bound expression */
    sunset_span vspan;   /* the bound expression */
    uint32_t col;        /* the statement's column: its block depth, for the kill test */
    size_t scope;        /* index + 1 into ff->scopes of the function (class for self.x); 0 = module */
    bool ret;            /* a return statement of scope `scope` */
    bool doc;            /* in a docstring's code example: its names are the example's */
} fbind;

typedef struct fuse {
    char *obj;           /* owned; the receiver text (ATTR) or the identifier (argument) */
    char *name;          /* owned; the attribute name; NULL for an argument */
    size_t name_len;
    unsigned flags;
    bool doc;
    sunset_span span, stmt;
} fuse;

typedef struct fscope {
    char *kind, *name;   /* owned */
    uint32_t start, end;
} fscope;

typedef struct fseed {
    const sunset_rule *rule;
    sunset_span span;
} fseed;

struct flow_file {
    vec binds, uses, scopes, seeds;
    /* built by flow_finish: the binds of each target name as a chain in file order, so that
     * the reach of a name walks its own binds and not all of them (a module with thousands
     * of assignments made reaching() quadratic: 3% of a cold scan of Paddle, perf) */
    long *next;          /* per bind: the next bind of the same target, or -1 */
    long *head;          /* open addressing over target hashes: first bind, or -1 = empty */
    uint64_t *head_hash;
    size_t head_cap;     /* a power of two; 0 = not built (then every bind is walked) */
};

/* ---- rules ---- */

void flow_rule_free(flow_rule *f) {
    if (!f) return;
    for (size_t i = 0; i < f->n_bound; i++) sunset_free(f->bound_ids[i]);
    sunset_free(f->bound_ids);
    sunset_free(f->bound);
    sunset_free(f);
}

int flow_rule_parse(sunset_rule *r, const cJSON *rv, char *msg, size_t msg_size) {
    const cJSON *b = cJSON_GetObjectItemCaseSensitive(rv, "bound_to");
    const cJSON *args = cJSON_GetObjectItemCaseSensitive(rv, "arguments");
    const cJSON *it;
    cJSON_ArrayForEach(it, rv) {
        if (strcmp(it->string, "bound_to") && strcmp(it->string, "arguments")) {
            snprintf(msg, msg_size, "unknown field \"%s\" in \"receiver\" (bound_to, arguments)",
                     it->string);
            return -1;
        }
    }
    if (args && !cJSON_IsBool(args)) {
        snprintf(msg, msg_size, "\"receiver.arguments\" must be true or false");
        return -1;
    }
    size_t n = cJSON_IsString(b) ? 1 : cJSON_IsArray(b) ? (size_t)cJSON_GetArraySize(b) : 0;
    if (!n) {
        snprintf(msg, msg_size, "\"receiver.bound_to\" must be a rule id or a non-empty array of ids");
        return -1;
    }
    flow_rule *f = sunset_calloc(1, sizeof *f);
    if (!f || !(f->bound_ids = sunset_calloc(n, sizeof(char *))) ||
        !(f->bound = sunset_calloc(n, sizeof(sunset_rule *))))
        goto oom;
    f->arguments = cJSON_IsTrue(args);
    for (size_t i = 0; i < n; i++) {
        const cJSON *s = cJSON_IsString(b) ? b : cJSON_GetArrayItem(b, (int)i);
        if (!cJSON_IsString(s)) {
            snprintf(msg, msg_size, "\"receiver.bound_to\" must hold rule ids (strings)");
            flow_rule_free(f);
            return -1;
        }
        if (!(f->bound_ids[i] = sunset_strndup(s->valuestring, strlen(s->valuestring)))) goto oom;
        f->n_bound++;
    }
    r->flow = f;
    return 0;
oom:
    flow_rule_free(f);
    snprintf(msg, msg_size, "out of memory");
    return -1;
}

int flow_link(sunset_ruleset *rs, char *msg, size_t msg_size) {
    for (size_t i = 0; i < rs->rules.n; i++) {
        sunset_rule *r = VEC_AT(&rs->rules, sunset_rule *, i);
        if (!r->flow) continue;
        for (size_t j = 0; j < r->flow->n_bound; j++) {
            const char *id = r->flow->bound_ids[j];
            const sunset_rule *b = sunset_ruleset_find(rs, id);
            if (!b || b->flow) {
                snprintf(msg, msg_size, "%s: rule %s: \"receiver.bound_to\": %s \"%s\"", r->origin,
                         r->id, b ? "a flow rule cannot be bound to a flow rule, as in" : "no rule has the id",
                         id);
                return -1;
            }
            r->flow->bound[j] = b;
        }
        for (int l = 1; l < SUNSET_LANG_COUNT; l++)
            if ((r->lang_mask & (1u << l)) && !vec_push(&rs->flow_rules[l], &r)) {
                snprintf(msg, msg_size, "out of memory");
                return -1;
            }
    }
    return 0;
}

/* ---- per file ---- */

flow_file *flow_file_new(void) {
    flow_file *ff = sunset_calloc(1, sizeof *ff);
    if (!ff) return NULL;
    ff->binds = VEC_INIT(fbind);
    ff->uses = VEC_INIT(fuse);
    ff->scopes = VEC_INIT(fscope);
    ff->seeds = VEC_INIT(fseed);
    return ff;
}

void flow_file_free(flow_file *ff) {
    if (!ff) return;
    for (size_t i = 0; i < ff->binds.n; i++) {
        sunset_free(VEC_AT(&ff->binds, fbind, i).target);
        sunset_free(VEC_AT(&ff->binds, fbind, i).value);
    }
    for (size_t i = 0; i < ff->uses.n; i++) {
        sunset_free(VEC_AT(&ff->uses, fuse, i).obj);
        sunset_free(VEC_AT(&ff->uses, fuse, i).name);
    }
    for (size_t i = 0; i < ff->scopes.n; i++) {
        sunset_free(VEC_AT(&ff->scopes, fscope, i).kind);
        sunset_free(VEC_AT(&ff->scopes, fscope, i).name);
    }
    vec_free(&ff->binds);
    vec_free(&ff->uses);
    vec_free(&ff->scopes);
    vec_free(&ff->seeds);
    sunset_free(ff->next);
    sunset_free(ff->head);
    sunset_free(ff->head_hash);
    sunset_free(ff);
}

static bool is_self(const char *s) {
    return strncmp(s, "self.", 5) == 0 || strncmp(s, "cls.", 4) == 0;
}

/* Index + 1 of the innermost scope holding `line` whose kind is a function (class = false)
 * or a class (class = true); 0 = the module. Scopes are recorded in document order, so the
 * innermost is the last one holding the line. */
static size_t scope_at(const flow_file *ff, uint32_t line, bool class) {
    size_t best = 0;
    for (size_t i = 0; i < ff->scopes.n; i++) {
        const fscope *s = &VEC_AT(&ff->scopes, fscope, i);
        if (s->start > line || s->end < line) continue;
        if ((strcmp(s->kind, "class") == 0) == class) best = i + 1;
    }
    return best;
}

void flow_scope(flow_file *ff, const char *kind, const char *name, uint32_t start, uint32_t end) {
    fscope s = {sunset_strndup(kind, strlen(kind)), sunset_strndup(name, strlen(name)), start, end};
    if (!s.kind || !s.name || !vec_push(&ff->scopes, &s)) {
        sunset_free(s.kind);
        sunset_free(s.name);
    }
}

void flow_seed(flow_file *ff, const sunset_rule *r, sunset_context ctx, sunset_span span) {
    if (ctx != SUNSET_CTX_CODE && ctx != SUNSET_CTX_DOCSTRING) return;
    fseed s = {r, span};
    vec_push(&ff->seeds, &s); /* OOM: one seed fewer */
}

void flow_fact(flow_file *ff, const sunset_fact *f) {
    if (f->kind == SUNSET_FACT_BIND) {
        size_t vn = f->aux_len < VALUE_MAX ? f->aux_len : VALUE_MAX;
        bool ret = (f->flags & SUNSET_FACT_RETURN) != 0;
        const char *t = f->text ? f->text : "";
        fbind b = {sunset_strndup(t, f->text ? f->text_len : 0),
                   sunset_strndup(f->aux ? f->aux : "", f->aux ? vn : 0), f->span,
                   f->stmt.line ? f->stmt.col : f->span.col, 0, ret,
                   f->ctx == SUNSET_CTX_DOCSTRING};
        if (b.target) b.scope = scope_at(ff, f->span.line, !ret && is_self(b.target));
        if (!b.target || !b.value || !vec_push(&ff->binds, &b)) {
            sunset_free(b.target);
            sunset_free(b.value);
        }
        return;
    }
    bool attr = f->kind == SUNSET_FACT_ATTR;
    if (!(attr && f->aux) && !(f->kind == SUNSET_FACT_IDENT && f->aux)) return;
    if (f->ctx != SUNSET_CTX_CODE && f->ctx != SUNSET_CTX_DOCSTRING) return;
    fuse u = {attr ? sunset_strndup(f->aux, f->aux_len) : sunset_strndup(f->text, f->text_len),
              attr ? sunset_strndup(f->text, f->text_len) : NULL, attr ? f->text_len : 0,
              f->flags, f->ctx == SUNSET_CTX_DOCSTRING, f->span, f->stmt};
    if (!u.obj || (attr && !u.name) || !vec_push(&ff->uses, &u)) {
        sunset_free(u.obj);
        sunset_free(u.name);
    }
}

static bool span_within(sunset_span in, sunset_span out) {
    uint64_t is = (uint64_t)in.line << 32 | in.col, ie = (uint64_t)in.end_line << 32 | in.end_col;
    uint64_t os = (uint64_t)out.line << 32 | out.col, oe = (uint64_t)out.end_line << 32 | out.end_col;
    return is >= os && ie <= oe;
}

static bool bound_rule(const flow_rule *f, const sunset_rule *r) {
    for (size_t i = 0; i < f->n_bound; i++)
        if (f->bound[i] == r) return true;
    return false;
}

/* The last component of a scope's qualified name ("Cls.build" -> "build"). */
static const char *short_name(const char *q) {
    const char *dot = strrchr(q, '.');
    return dot ? dot + 1 : q;
}

/* Is `value` a call of function `fn` (`fn(`, `self.fn(`, `cls.fn(`)? */
static bool calls_fn(const char *value, const char *fn) {
    if (is_self(value)) value = strchr(value, '.') + 1;
    size_t n = strlen(fn);
    return n && strncmp(value, fn, n) == 0 && value[n] == '(';
}

/* The first bind of target `name`, or -1 (chains built); without chains, 0 (walk them all). */
static long first_bind(const flow_file *ff, const char *name) {
    if (!ff->head_cap) return ff->binds.n ? 0 : -1;
    uint64_t h = hash64(name, strlen(name), 0);
    for (size_t k = h & (ff->head_cap - 1);; k = (k + 1) & (ff->head_cap - 1)) {
        if (ff->head[k] < 0) return -1;
        if (ff->head_hash[k] == h && !strcmp(VEC_AT(&ff->binds, fbind, ff->head[k]).target, name))
            return ff->head[k];
    }
}

static long next_bind(const flow_file *ff, long i) {
    if (ff->head_cap) return ff->next[i];
    return (size_t)(i + 1) < ff->binds.n ? i + 1 : -1;
}

/* The chains of flow_file.next; on OOM none (reaching() then walks every bind). */
static void build_chains(flow_file *ff) {
    size_t n = ff->binds.n, cap = 16;
    while (cap < n * 2) cap *= 2;
    ff->next = sunset_malloc(n * sizeof *ff->next);
    ff->head = sunset_malloc(cap * sizeof *ff->head);
    ff->head_hash = sunset_malloc(cap * sizeof *ff->head_hash);
    long *tail = sunset_malloc(cap * sizeof *tail);
    if (!ff->next || !ff->head || !ff->head_hash || !tail) goto fail;
    for (size_t k = 0; k < cap; k++) ff->head[k] = -1;
    for (size_t i = 0; i < n; i++) {
        const char *t = VEC_AT(&ff->binds, fbind, i).target; /* never NULL (flow_fact) */
        uint64_t h = hash64(t, strlen(t), 0);
        size_t k = h & (cap - 1);
        while (ff->head[k] >= 0 &&
               (ff->head_hash[k] != h || strcmp(VEC_AT(&ff->binds, fbind, ff->head[k]).target, t)))
            k = (k + 1) & (cap - 1);
        ff->next[i] = -1;
        if (ff->head[k] < 0) {
            ff->head[k] = (long)i;
            ff->head_hash[k] = h;
        } else {
            ff->next[tail[k]] = (long)i;
        }
        tail[k] = (long)i;
    }
    sunset_free(tail);
    ff->head_cap = cap;
    return;
fail:
    sunset_free(tail);
    sunset_free(ff->next);
    sunset_free(ff->head);
    sunset_free(ff->head_hash);
    ff->next = ff->head = NULL;
    ff->head_hash = NULL;
}

/* The marked binding of `name` that may reach `line` in `scope`, or -1; *last is set to the
 * last binding of the name before or on the line (any), or -1. Bindings are walked in order:
 * a marked one starts a reach, an unmarked one ends it only at the marked one's block depth
 * or shallower: `x = other` inside an `if` below `x = legacy` leaves the legacy value
 * possible after the `if`. A plain name not bound in its function is looked up in the
 * module; `self.x` holds for the whole class. */
static long reaching(const flow_file *ff, const bool *marked, const char *name, size_t scope,
                     uint32_t line, bool self, bool doc, long *last) {
    long reach = -1;
    *last = -1;
    long first = first_bind(ff, name);
    for (int pass = 0; pass < 2 && *last < 0; pass++) {
        size_t sc = pass ? 0 : scope;
        for (long j = first; j >= 0; j = next_bind(ff, j)) {
            size_t i = (size_t)j;
            const fbind *b = &VEC_AT(&ff->binds, fbind, i);
            if (b->ret || b->doc != doc || b->scope != sc || strcmp(b->target, name)) continue;
            if (!self && b->vspan.line > line) continue;
            *last = (long)i;
            if (marked[i]) {
                if (reach < 0 || !self) reach = (long)i;
            } else if (!self && reach >= 0 && b->col <= VEC_AT(&ff->binds, fbind, reach).col) {
                reach = -1;
            }
        }
        if (self || !scope) break;
    }
    return reach;
}

/* The bindings (marked[], one per bind) and functions (fn_marked[], per scope + 1) that hold
 * a legacy object of flow rule f: seeds, then re-bindings and returns to a fixed point. False
 * when nothing is bound to a legacy value (most files with seeds). */
static bool mark_binds(const flow_file *ff, const flow_rule *f, bool *marked, bool *fn_marked) {
    size_t nb = ff->binds.n;
    bool any = false;
    for (size_t i = 0; i < nb; i++) {
        const fbind *b = &VEC_AT(&ff->binds, fbind, i);
        for (size_t k = 0; k < ff->seeds.n && !marked[i]; k++) {
            const fseed *s = &VEC_AT(&ff->seeds, fseed, k);
            marked[i] = bound_rule(f, s->rule) && span_within(s->span, b->vspan);
        }
        any = any || marked[i];
    }
    if (!any) return false;
    /* re-bindings and returns until nothing changes; each round marks at least one more
     * binding or function, so this ends */
    for (bool changed = true; changed;) {
        changed = false;
        for (size_t i = 0; i < nb; i++) {
            const fbind *b = &VEC_AT(&ff->binds, fbind, i);
            if (b->ret && marked[i] && b->scope && !fn_marked[b->scope]) {
                fn_marked[b->scope] = changed = true;
            }
            if (marked[i]) continue;
            bool self = is_self(b->value);
            long last, at = reaching(ff, marked, b->value, scope_at(ff, b->vspan.line, self),
                                     b->vspan.line, self, b->doc, &last);
            if (at >= 0 && (size_t)at != i) marked[i] = changed = true;
            for (size_t s = 1; !marked[i] && s <= ff->scopes.n; s++) {
                const fscope *sc = &VEC_AT(&ff->scopes, fscope, s - 1);
                if (fn_marked[s] && strcmp(sc->kind, "class") && calls_fn(b->value, short_name(sc->name)))
                    marked[i] = changed = true;
            }
        }
    }
    return true;
}

static void run_rule(flow_file *ff, const sunset_rule *r, pcre2_match_data *md,
                     flow_report_fn report, void *ud) {
    const flow_rule *f = r->flow;
    size_t nb = ff->binds.n;
    bool *marked = sunset_calloc(nb ? nb : 1, sizeof(bool));
    bool *fn_marked = sunset_calloc(ff->scopes.n + 1, sizeof(bool));
    if (!marked || !fn_marked || !mark_binds(ff, f, marked, fn_marked)) goto cleanup;
    const clause *c = r->clauses.n ? &VEC_AT(&r->clauses, clause, 0) : NULL;
    uint32_t last_stmt = 0;
    for (size_t i = 0; i < ff->uses.n; i++) {
        const fuse *u = &VEC_AT(&ff->uses, fuse, i);
        if (!u->name && !f->arguments) continue;
        if (u->name && c) {
            if ((u->flags & c->flags) != c->flags) continue;
            if ((c->main.n_names || c->main.re) && !strtest_match(&c->main, u->name, u->name_len, md))
                continue;
        }
        bool self = is_self(u->obj);
        long last, at = reaching(ff, marked, u->obj, scope_at(ff, u->span.line, self), u->span.line,
                                 self, u->doc, &last);
        if (at < 0) continue;
        /* a binding's own line: `x = x.with_data_parallel()` is reported by its seed */
        if (!self && VEC_AT(&ff->binds, fbind, last).vspan.line == u->span.line) continue;
        /* one finding per statement: a migration rewrites the statement */
        uint32_t key = u->stmt.line ? u->stmt.line : u->span.line;
        if (key == last_stmt) continue;
        last_stmt = key;
        sb t = {0};
        sb_puts(&t, u->obj);
        if (u->name) sb_printf(&t, ".%s", u->name);
        if (!t.oom)
            report(ud, r, u->doc ? SUNSET_CTX_DOCSTRING : SUNSET_CTX_CODE, u->span, u->stmt, t.s,
                   t.len);
        sb_free(&t);
    }
    /* `return prog`: the function hands the legacy object on (its callers are marked above) */
    for (size_t i = 0; f->arguments && i < nb; i++) {
        const fbind *b = &VEC_AT(&ff->binds, fbind, i);
        if (!b->ret || is_self(b->value)) continue;
        long last;
        if (reaching(ff, marked, b->value, b->scope, b->vspan.line, false, b->doc, &last) >= 0)
            report(ud, r, b->doc ? SUNSET_CTX_DOCSTRING : SUNSET_CTX_CODE, b->vspan, b->vspan,
                   b->value, strlen(b->value));
    }
cleanup:
    sunset_free(marked);
    sunset_free(fn_marked);
}

bool flow_escapes(const flow_file *ff, const vec *rules, flow_name_fn seen, void *ud) {
    if (!ff || !ff->binds.n || !ff->seeds.n) return false;
    size_t nb = ff->binds.n;
    bool *marked = sunset_malloc(nb * sizeof(bool));
    bool *fn_marked = sunset_malloc((ff->scopes.n + 1) * sizeof(bool));
    bool out = !marked || !fn_marked; /* OOM: anything may escape */
    for (size_t i = 0; i < rules->n && !out; i++) {
        const flow_rule *f = VEC_AT(rules, sunset_rule *, i)->flow;
        memset(marked, 0, nb * sizeof(bool));
        memset(fn_marked, 0, (ff->scopes.n + 1) * sizeof(bool));
        if (!f || !mark_binds(ff, f, marked, fn_marked)) continue;
        for (size_t k = 0; k < nb && !out; k++) {
            const fbind *b = &VEC_AT(&ff->binds, fbind, k);
            if (!marked[k] || b->ret) continue;
            /* a function's own binding is seen only in that function; a class's (self.x) in
             * all of the class's methods, a module's everywhere */
            if (b->scope && strcmp(VEC_AT(&ff->scopes, fscope, b->scope - 1).kind, "class")) continue;
            const char *name = short_name(b->target);
            out = seen(ud, name, strlen(name));
        }
        for (size_t s = 1; s <= ff->scopes.n && !out; s++) {
            if (!fn_marked[s]) continue;
            const char *name = short_name(VEC_AT(&ff->scopes, fscope, s - 1).name);
            out = seen(ud, name, strlen(name));
        }
    }
    sunset_free(marked);
    sunset_free(fn_marked);
    return out;
}

bool flow_file_has_bound_seed(const flow_file *ff, const vec *rules) {
    if (!ff) return false;
    for (size_t i = 0; i < rules->n; i++) {
        const flow_rule *f = VEC_AT(rules, sunset_rule *, i)->flow;
        for (size_t k = 0; f && k < ff->seeds.n; k++)
            if (bound_rule(f, VEC_AT(&ff->seeds, fseed, k).rule)) return true;
    }
    return false;
}

void flow_finish(flow_file *ff, const vec *rules, pcre2_match_data *md, flow_report_fn report,
                 void *ud) {
    if (!ff || !ff->binds.n || !ff->seeds.n) return;
    if (!ff->head_cap) build_chains(ff);
    for (size_t i = 0; i < rules->n; i++)
        run_rule(ff, VEC_AT(rules, sunset_rule *, i), md, report, ud);
}
