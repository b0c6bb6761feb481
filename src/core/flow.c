/*
 * flow.c — legacy-object flow within one Python file. A name bound to an expression that a
 * bound_to rule matched (`exe = fluid.ParallelExecutor(...)`, `self._pe = ...`, `a, b = ...`)
 * marks the object; so do re-bindings of a marked name (`prog2 = prog`) and functions of the
 * module that return a marked value, whose calls then mark what they are assigned to. The
 * uses of a marked object (attribute reads, method calls, stores, passes as call arguments)
 * are what a migration rewrites, and are reported under the flow rule.
 *
 * Scoping is lexical and approximate by design: a plain name is looked up in its innermost
 * function (then the module), and a marked binding of that name in the scope on an earlier
 * line reaches a use unless a re-binding to something else in a block holding the marked
 * binding's block comes between, so a re-binding ends the mark in its block (not one made in
 * another branch of an `if`: `if p: x = PE() else: x = exe` leaves the PE possible); `self.x` is marked for the
 * whole class, whichever method binds it. A call of a function of the module binds its
 * parameters (ARG and PARAM binds: by position, a method's `self` taking none, or keyword; a
 * class's call binds its __init__'s), so an object passed in is followed into the body. A tuple
 * is followed by position: `return exe, prog` marks element 0 of the function's result
 * (fn_marked is a mask of elements) and `exe, prog = build()` binds exe to element 0 of
 * build's (an unpacked call result is marked by nothing else); the frontend splits `a, b =
 * PE(), 1` into one binding per entry. A container's elements are the name `exes[]`: bound by
 * a literal's entries and `exes.append(pe)` (ITEM binds, which add and end no mark), read by
 * `for e in exes` (ITER binds) and `exes[i]`; a plain re-binding of exes re-binds exes[] to
 * nothing (rebind_elements). Another module's legacy objects come in as premarks
 * (flow_premark, core/xflow.c), and this module's go out as its exports (flow_exports): the
 * names it binds, and the arguments it passes to functions it does not define ("@f#0"), which
 * come back to f's module as premarks of f's parameters, and its module-level functions
 * that return one ("build()": an importer's `exe = build()` holds it). Not followed: globals
 * rebound in functions. The frontend
 * emits BIND facts; the engine feeds every fact and candidate here while the file is scanned
 * and calls flow_finish before candidates are reduced.
 *
 * Cost: the file's facts are indexed once (flow_prepare: bindings sorted by name and scope,
 * by value and by callee; scopes as a tree), the marks spread from binding to dependent
 * binding through a work list, and a use is looked up in the prefix state of its name's
 * bindings: about n log n in the facts. What can still grow faster (many re-bindings of one
 * name) is bounded by a work counter, and the time limit is the last guard behind it.
 */
#include "core/flow.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A bound value's text is kept up to this many bytes: enough for a name, a callee and the
 * start of its arguments, which is all the re-binding and return tests look at. */
#define VALUE_MAX 240

/* The time limit is checked every CLOCK_STEPS steps of work. */
#define CLOCK_STEPS 4096u

typedef struct fbind {
    char *target;        /* owned; "" for a return */
    char *value;         /* owned; at most VALUE_MAX bytes of the bound expression */
    sunset_span vspan;   /* the bound expression */
    uint32_t col;        /* the statement's column: its block depth, for the kill test */
    size_t scope;        /* index + 1 into ff->scopes of the function (class for self.x); 0 =
                            module (flow_prepare) */
    size_t vscope;       /* the scope the value's name is looked up in (flow_prepare) */
    const char *callee;  /* into value: the function it calls (`f(`, `self.f(`), or NULL */
    size_t callee_len;
    bool ret;            /* a return statement of scope `scope` */
    bool doc;            /* in a docstring's code example: its names are the example's */
    bool arg;            /* a call's argument: target is the callee, not a name */
    bool param;          /* a parameter of function `scope`: value is "" */
    long pos;            /* arg/param: the 0-based position, -1 = by keyword only */
    long elem;           /* element of a tuple (`a, b = f()`, `return a, b`), -1 = whole */
    char *kw;            /* owned; an argument's keyword, or NULL */
    uint32_t bstart, bend; /* the lines of the block holding it (0 = unknown: col decides) */
    bool item;           /* the value becomes an element of the target (`exes.append(pe)`),
                            whose name is then `exes[]`: it adds to the elements, ends none */
    bool iter;           /* the target is an element of the value (`for e in exes:`) */
} fbind;

typedef struct fuse {
    char *obj;           /* owned; the receiver text (ATTR) or the identifier (argument); an
                            element `exes[i]` is `exes[]` (elements_key) */
    char *shown;         /* owned; the receiver as written when obj differs, else NULL */
    char *name;          /* owned; the attribute name; NULL for an argument */
    size_t name_len;
    unsigned flags;
    bool doc;
    sunset_span span, stmt;
} fuse;

typedef struct fscope {
    char *kind, *name;   /* owned */
    uint32_t start, end;
    size_t parent;       /* index + 1 of the innermost scope holding it, 0 = module (prepare) */
    bool has_inner;      /* a function is defined inside it (prepare) */
} fscope;

typedef struct fseed {
    const sunset_rule *rule;
    sunset_span span;
    char *name;          /* owned; the last dotted component of the matched text */
    bool returned;       /* a premark "f()": name is a callee as written (`build`,
                            `trainer.build`) whose calls return the legacy object */
} fseed;

struct flow_file {
    vec binds, uses, scopes, seeds;
    size_t n_returned;       /* seeds that are returned-object premarks (fseed.returned) */
    /* flow_prepare's indexes, dropped when a fact arrives after them */
    bool prepared, nested;   /* nested: the scopes nest and come in document order */
    bool sorted;             /* the bindings of a name and scope come in line order */
    size_t *by_target;       /* non-return binds by (target, scope, doc, index) */
    size_t n_target;
    size_t *by_value;        /* every bind by (value, index) */
    size_t *by_callee;       /* the binds with a callee, by (callee, index) */
    size_t n_callee;
    size_t *params;          /* the parameter binds, by (their function's short name, index) */
    size_t n_params;
    /* work done, its limit, and the time limit (sunset_clock_ms; 0 = none) */
    uint64_t work, max_work, next_clock;
    double deadline_ms;
    flow_status stop;        /* FLOW_DONE while it goes on */
};

static uint64_t work_limit_override;

void flow_set_work_limit(uint64_t steps) { work_limit_override = steps; }

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

static void unprepare(flow_file *ff) {
    sunset_free(ff->by_target);
    sunset_free(ff->by_value);
    sunset_free(ff->by_callee);
    sunset_free(ff->params);
    ff->by_target = ff->by_value = ff->by_callee = ff->params = NULL;
    ff->prepared = false;
}

void flow_file_free(flow_file *ff) {
    if (!ff) return;
    for (size_t i = 0; i < ff->binds.n; i++) {
        sunset_free(VEC_AT(&ff->binds, fbind, i).target);
        sunset_free(VEC_AT(&ff->binds, fbind, i).value);
        sunset_free(VEC_AT(&ff->binds, fbind, i).kw);
    }
    for (size_t i = 0; i < ff->uses.n; i++) {
        sunset_free(VEC_AT(&ff->uses, fuse, i).obj);
        sunset_free(VEC_AT(&ff->uses, fuse, i).shown);
        sunset_free(VEC_AT(&ff->uses, fuse, i).name);
    }
    for (size_t i = 0; i < ff->scopes.n; i++) {
        sunset_free(VEC_AT(&ff->scopes, fscope, i).kind);
        sunset_free(VEC_AT(&ff->scopes, fscope, i).name);
    }
    for (size_t i = 0; i < ff->seeds.n; i++) sunset_free(VEC_AT(&ff->seeds, fseed, i).name);
    vec_free(&ff->binds);
    vec_free(&ff->uses);
    vec_free(&ff->scopes);
    vec_free(&ff->seeds);
    unprepare(ff);
    sunset_free(ff);
}

uint64_t flow_file_work(const flow_file *ff) { return ff ? ff->work : 0; }

/* Count n steps of work; false once the work limit or the time limit stops the file. */
static bool spend(flow_file *ff, uint64_t n) {
    if (ff->stop != FLOW_DONE) return false;
    ff->work += n;
    if (ff->work > ff->max_work) {
        ff->stop = FLOW_WORK_LIMIT;
        return false;
    }
    if (ff->deadline_ms && ff->work >= ff->next_clock) {
        ff->next_clock = ff->work + CLOCK_STEPS;
        if (sunset_clock_ms() > ff->deadline_ms) {
            ff->stop = FLOW_TIME_LIMIT;
            return false;
        }
    }
    return true;
}

static bool is_self(const char *s) {
    return strncmp(s, "self.", 5) == 0 || strncmp(s, "cls.", 4) == 0;
}

static bool is_class(const fscope *s) { return strcmp(s->kind, "class") == 0; }

/* Index + 1 of the innermost scope holding `line` whose kind is a function (class = false)
 * or a class (class = true); 0 = the module. Scopes are recorded in document order, so the
 * innermost is the last one holding the line: with nested scopes, the last one starting at
 * or before the line, or the first of its ancestors that holds it. */
static size_t scope_at(const flow_file *ff, uint32_t line, bool class) {
    size_t n = ff->scopes.n;
    if (!ff->nested) {
        size_t best = 0;
        for (size_t i = 0; i < n; i++) {
            const fscope *s = &VEC_AT(&ff->scopes, fscope, i);
            if (s->start > line || s->end < line) continue;
            if (is_class(s) == class) best = i + 1;
        }
        return best;
    }
    size_t lo = 0, hi = n; /* the first scope starting after the line */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (VEC_AT(&ff->scopes, fscope, mid).start <= line) lo = mid + 1;
        else hi = mid;
    }
    for (size_t k = lo; k > 0;) {
        const fscope *s = &VEC_AT(&ff->scopes, fscope, k - 1);
        if (s->end >= line && is_class(s) == class) return k;
        k = s->parent;
    }
    return 0;
}

void flow_scope(flow_file *ff, const char *kind, const char *name, uint32_t start, uint32_t end) {
    if (ff->prepared) unprepare(ff);
    fscope s = {sunset_strndup(kind, strlen(kind)), sunset_strndup(name, strlen(name)), start,
                end, 0, false};
    if (!s.kind || !s.name || !vec_push(&ff->scopes, &s)) {
        sunset_free(s.kind);
        sunset_free(s.name);
    }
}

void flow_seed(flow_file *ff, const sunset_rule *r, sunset_context ctx, sunset_span span,
               const char *text, size_t len) {
    if (ctx != SUNSET_CTX_CODE && ctx != SUNSET_CTX_DOCSTRING) return;
    if (ff->prepared) unprepare(ff);
    if (!text) text = "", len = 0;
    const char *dot = len ? memrchr(text, '.', len) : NULL;
    if (dot) len -= (size_t)(dot + 1 - text), text = dot + 1;
    fseed s = {r, span, sunset_strndup(text, len), false};
    if (!s.name || !vec_push(&ff->seeds, &s)) sunset_free(s.name); /* OOM: one seed fewer */
}

/* The function a value calls: `f(...)`, `self.f(...)`, `cls.f(...)` give f; NULL for none. */
static const char *callee_of(const char *value, size_t *len) {
    if (is_self(value)) value = strchr(value, '.') + 1;
    size_t n = strcspn(value, "(");
    *len = n;
    return n && value[n] == '(' ? value : NULL;
}

static bool ident_byte(unsigned char c) {
    return c == '_' || c >= 0x80 || (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z');
}

/* What a bound value is: the last identifier outside every bracket and string, so the
 * callee of a trailing call (`fluid.ParallelExecutor(...)` -> ParallelExecutor,
 * `CompiledProgram(m).with_data_parallel(...)` -> with_data_parallel) or the last attribute
 * read (`bs.exec_strategy` -> exec_strategy). A legacy name inside the arguments
 * (`pe.run(prog.with_data_parallel())`, `f(es)`) or before an attribute of the object
 * (`es.num_threads`) is not what the value is. A value cut at its length limit inside an
 * argument list keeps the callee before it. */
static void value_head(const char *v, const char **head, size_t *len) {
    int depth = 0;
    *head = NULL, *len = 0;
    for (const char *p = v; *p;) {
        unsigned char c = (unsigned char)*p;
        if (c == '\'' || c == '"') {
            const char *q = p + 1;
            while (*q && *q != (char)c) q += q[0] == '\\' && q[1] ? 2 : 1;
            p = *q ? q + 1 : q;
        } else if (c == '(' || c == '[' || c == '{') {
            depth++, p++;
        } else if (c == ')' || c == ']' || c == '}') {
            depth -= depth > 0, p++;
        } else if (ident_byte(c)) {
            const char *q = p;
            while (*q && ident_byte((unsigned char)*q)) q++;
            if (!depth && !(c >= '0' && c <= '9')) *head = p, *len = (size_t)(q - p);
            p = q;
        } else {
            p++;
        }
    }
}

/* A parameter's or argument's part of a BIND fact: its position or keyword (section). A
 * parameter's column is its function body's (stmt), the depth of the re-bindings that end it.
 * False on OOM. */
static bool entry_of(fbind *b, const sunset_fact *f) {
    b->arg = (f->flags & SUNSET_FACT_ARG) != 0;
    b->param = !b->arg && (f->flags & SUNSET_FACT_PARAM) != 0;
    b->pos = -1;
    if (!b->arg && !b->param) return true;
    b->ret = false;
    const char *sec = f->section ? f->section : "";
    size_t n = f->section ? f->section_len : 0;
    if (n && sec[0] >= '0' && sec[0] <= '9') {
        b->pos = 0;
        for (size_t i = 0; i < n && sec[i] >= '0' && sec[i] <= '9' && b->pos < 100000; i++)
            b->pos = b->pos * 10 + (sec[i] - '0');
    } else if (n && b->arg) {
        if (!(b->kw = sunset_strndup(sec, n))) return false;
    }
    return true;
}

/* An ELEM bind's element: its section in decimal (capped, a position no tuple reaches). */
static long elem_of(const sunset_fact *f) {
    long e = 0;
    for (size_t i = 0; f->section && i < f->section_len; i++) {
        if (f->section[i] < '0' || f->section[i] > '9') return 100000;
        if (e < 100000) e = e * 10 + (f->section[i] - '0');
    }
    return e;
}

/* The bit of a function's return mask for element e (-1: the whole value; 0 = none known). */
static uint64_t elem_bit(long e) { return e < 0 ? 1u : e < 63 ? (uint64_t)1 << (e + 1) : 0; }

/* The length of the container a subscript `exes[i]` / `self.d["k"]` reads an element of (a
 * dotted name then one bracket pair), or 0. */
static size_t subscript_base(const char *s, size_t n) {
    if (!n || s[n - 1] != ']') return 0;
    const char *open = memchr(s, '[', n);
    size_t p = open ? (size_t)(open - s) : 0;
    if (!p || (s[0] >= '0' && s[0] <= '9')) return 0;
    for (size_t i = 0; i < p; i++)
        if (s[i] != '.' && !ident_byte((unsigned char)s[i])) return 0;
    int depth = 0;
    for (size_t i = p; i < n; i++) {
        depth += s[i] == '[' ? 1 : s[i] == ']' ? -1 : 0;
        if (!depth && i + 1 < n) return 0; /* `a[0][1]`, `a[0].b` */
    }
    return depth ? 0 : p;
}

/* A name as the flow keys it: `exes[]` for the elements of container `exes` (elems, or a
 * subscript `exes[0]`), else the text itself. NULL on OOM. */
static char *elements_key(const char *s, size_t n, bool elems) {
    size_t base = elems ? n : subscript_base(s, n);
    if (!base) return sunset_strndup(s, n);
    char *k = sunset_malloc(base + 3);
    if (!k) return NULL;
    memcpy(k, s, base);
    memcpy(k + base, "[]", 3);
    return k;
}

/* `exes = ...` (a list literal too) starts a new container: a binding of `exes[]` to nothing,
 * after which the elements appended before no longer reach (b: the binding just pushed). */
static void rebind_elements(flow_file *ff, const fbind *b) {
    fbind k = *b;
    k.target = elements_key(b->target, strlen(b->target), true);
    k.value = sunset_strndup("", 0);
    k.callee = NULL, k.elem = -1, k.iter = false;
    if (!k.target || !k.value || !vec_push(&ff->binds, &k)) {
        sunset_free(k.target);
        sunset_free(k.value);
    }
}

/* `exe, prog = build()`: an element of a call's result, marked only by the function's own
 * `return exe, prog` (never by a seed or a name in its value) */
static bool unpacked(const fbind *b) { return b->elem >= 0 && !b->ret; }

void flow_fact(flow_file *ff, const sunset_fact *f) {
    if (ff->prepared) unprepare(ff);
    if (f->kind == SUNSET_FACT_BIND) {
        size_t vn = f->aux_len < VALUE_MAX ? f->aux_len : VALUE_MAX;
        bool ret = (f->flags & SUNSET_FACT_RETURN) != 0;
        const char *t = f->text ? f->text : "";
        bool item = (f->flags & SUNSET_FACT_ITEM) != 0, iter = (f->flags & SUNSET_FACT_ITER) != 0;
        fbind b = {elements_key(t, f->text ? f->text_len : 0, item),
                   elements_key(f->aux ? f->aux : "", f->aux ? vn : 0, iter), f->span,
                   f->stmt.line ? f->stmt.col : f->span.col, 0, 0, NULL, 0, ret,
                   f->ctx == SUNSET_CTX_DOCSTRING, false, false, -1, -1, NULL, f->block.line,
                   f->block.end_line, item, iter};
        if (f->flags & SUNSET_FACT_ELEM) b.elem = elem_of(f);
        if (b.value) b.callee = callee_of(b.value, &b.callee_len);
        if (!entry_of(&b, f) || !b.target || !b.value || !vec_push(&ff->binds, &b)) {
            sunset_free(b.target);
            sunset_free(b.value);
            sunset_free(b.kw);
            return;
        }
        if (!b.ret && !b.arg && !b.param && !b.item) rebind_elements(ff, &b);
        return;
    }
    bool attr = f->kind == SUNSET_FACT_ATTR;
    if (!(attr && f->aux) && !(f->kind == SUNSET_FACT_IDENT && f->aux)) return;
    if (f->ctx != SUNSET_CTX_CODE && f->ctx != SUNSET_CTX_DOCSTRING) return;
    bool sub = attr && subscript_base(f->aux, f->aux_len);
    fuse u = {attr ? elements_key(f->aux, f->aux_len, false) : sunset_strndup(f->text, f->text_len),
              sub ? sunset_strndup(f->aux, f->aux_len) : NULL,
              attr ? sunset_strndup(f->text, f->text_len) : NULL, attr ? f->text_len : 0,
              f->flags, f->ctx == SUNSET_CTX_DOCSTRING, f->span, f->stmt};
    if (!u.obj || (sub && !u.shown) || (attr && !u.name) || !vec_push(&ff->uses, &u)) {
        sunset_free(u.obj);
        sunset_free(u.shown);
        sunset_free(u.name);
    }
}

/* ---- the indexes ---- */

/* qsort has no context argument: the sorts run under the engine's worker threads */
static _Thread_local const flow_file *sort_ff;

static const fbind *bind_at(const flow_file *ff, size_t i) { return &VEC_AT(&ff->binds, fbind, i); }

static int cmp_index(size_t a, size_t b) { return a < b ? -1 : a > b; }

static int cmp_target(const void *pa, const void *pb) {
    size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
    const fbind *x = bind_at(sort_ff, a), *y = bind_at(sort_ff, b);
    int c = strcmp(x->target, y->target);
    if (c) return c;
    if (x->scope != y->scope) return x->scope < y->scope ? -1 : 1;
    if (x->doc != y->doc) return x->doc ? 1 : -1;
    return cmp_index(a, b);
}

static int cmp_value(const void *pa, const void *pb) {
    size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
    const fbind *x = bind_at(sort_ff, a), *y = bind_at(sort_ff, b);
    int c = strcmp(x->value, y->value);
    if (c) return c;
    if (x->vscope != y->vscope) return x->vscope < y->vscope ? -1 : 1;
    return cmp_index(a, b);
}

static int cmp_slice(const char *a, size_t an, const char *b, size_t bn) {
    int c = memcmp(a, b, an < bn ? an : bn);
    return c ? c : an < bn ? -1 : an > bn;
}

static int cmp_callee(const void *pa, const void *pb) {
    size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
    const fbind *x = bind_at(sort_ff, a), *y = bind_at(sort_ff, b);
    int c = cmp_slice(x->callee, x->callee_len, y->callee, y->callee_len);
    return c ? c : cmp_index(a, b);
}

static const char *short_name(const char *q);

/* The short name of a parameter bind's function ("" at module level: a frontend's slip). */
static const char *param_fn(const flow_file *ff, const fbind *b) {
    return b->scope ? short_name(VEC_AT(&ff->scopes, fscope, b->scope - 1).name) : "";
}

static int cmp_param(const void *pa, const void *pb) {
    size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
    int c = strcmp(param_fn(sort_ff, bind_at(sort_ff, a)), param_fn(sort_ff, bind_at(sort_ff, b)));
    return c ? c : cmp_index(a, b);
}

static int cmp_seed(const void *pa, const void *pb) {
    const fseed *a = pa, *b = pb;
    if (a->span.line != b->span.line) return a->span.line < b->span.line ? -1 : 1;
    return a->span.col < b->span.col ? -1 : a->span.col > b->span.col;
}

/* The scopes' tree (fscope.parent) when they nest and come in document order (a frontend's
 * definitions do); else ff->nested stays false and scope_at walks them all. */
static void link_scopes(flow_file *ff) {
    size_t n = ff->scopes.n, *stack = sunset_malloc((n ? n : 1) * sizeof *stack), depth = 0;
    ff->nested = stack != NULL;
    for (size_t i = 0; i < n && ff->nested; i++) {
        fscope *s = &VEC_AT(&ff->scopes, fscope, i);
        while (depth && VEC_AT(&ff->scopes, fscope, stack[depth - 1]).end < s->start) depth--;
        const fscope *up = depth ? &VEC_AT(&ff->scopes, fscope, stack[depth - 1]) : NULL;
        const fscope *prev = i ? &VEC_AT(&ff->scopes, fscope, i - 1) : NULL;
        if ((prev && prev->start > s->start) || (up && (up->start > s->start || up->end < s->end)))
            ff->nested = false; /* out of order, or overlapping without nesting */
        s->parent = depth ? stack[depth - 1] + 1 : 0;
        s->has_inner = false;
        if (depth && !is_class(s)) VEC_AT(&ff->scopes, fscope, stack[depth - 1]).has_inner = true;
        stack[depth++] = i;
    }
    sunset_free(stack);
}

/* Build the indexes once, after the last fact. False on OOM. */
static bool flow_prepare(flow_file *ff) {
    if (ff->prepared) return true;
    size_t nb = ff->binds.n;
    link_scopes(ff);
    for (size_t i = 0; i < nb; i++) {
        fbind *b = &VEC_AT(&ff->binds, fbind, i);
        b->scope = scope_at(ff, b->vspan.line, !b->ret && !b->arg && is_self(b->target));
        b->vscope = scope_at(ff, b->vspan.line, is_self(b->value));
    }
    ff->by_target = sunset_malloc((nb ? nb : 1) * sizeof(size_t));
    ff->by_value = sunset_malloc((nb ? nb : 1) * sizeof(size_t));
    ff->by_callee = sunset_malloc((nb ? nb : 1) * sizeof(size_t));
    ff->params = sunset_malloc((nb ? nb : 1) * sizeof(size_t));
    if (!ff->by_target || !ff->by_value || !ff->by_callee || !ff->params) {
        unprepare(ff);
        return false;
    }
    ff->n_target = ff->n_callee = ff->n_params = 0;
    for (size_t i = 0; i < nb; i++) {
        const fbind *b = bind_at(ff, i);
        if (!b->ret && !b->arg) ff->by_target[ff->n_target++] = i;
        if (b->param) ff->params[ff->n_params++] = i;
        if (b->callee) ff->by_callee[ff->n_callee++] = i;
        ff->by_value[i] = i;
    }
    sort_ff = ff;
    qsort(ff->by_target, ff->n_target, sizeof(size_t), cmp_target);
    qsort(ff->by_value, nb, sizeof(size_t), cmp_value); /* after the scopes: by vscope too */
    qsort(ff->by_callee, ff->n_callee, sizeof(size_t), cmp_callee);
    qsort(ff->params, ff->n_params, sizeof(size_t), cmp_param);
    if (ff->seeds.n) qsort(ff->seeds.v, ff->seeds.n, sizeof(fseed), cmp_seed);
    sort_ff = NULL;
    ff->sorted = true;
    for (size_t p = 1; p < ff->n_target; p++) {
        const fbind *a = bind_at(ff, ff->by_target[p - 1]), *b = bind_at(ff, ff->by_target[p]);
        if (!strcmp(a->target, b->target) && a->scope == b->scope && a->doc == b->doc &&
            a->vspan.line > b->vspan.line)
            ff->sorted = false;
    }
    ff->prepared = true;
    return true;
}

/* A key of one of the indexes: a target with its scope and doc flag, a value, a callee. */
typedef enum key_kind { BY_TARGET, BY_VALUE, BY_CALLEE } key_kind;
typedef struct bkey {
    key_kind kind;
    const char *s;
    size_t n;            /* BY_CALLEE: the name's length; BY_VALUE: 1 = in scope `scope` only */
    size_t scope;        /* BY_TARGET; BY_VALUE: the value's scope (vscope) */
    bool doc;            /* BY_TARGET */
} bkey;

static int key_cmp(const fbind *x, const bkey *k) {
    if (k->kind == BY_VALUE) {
        int c = strcmp(x->value, k->s);
        if (c || !k->n) return c;
        return x->vscope == k->scope ? 0 : x->vscope < k->scope ? -1 : 1;
    }
    if (k->kind == BY_CALLEE) return cmp_slice(x->callee, x->callee_len, k->s, k->n);
    int c = strcmp(x->target, k->s);
    if (c) return c;
    if (x->scope != k->scope) return x->scope < k->scope ? -1 : 1;
    return x->doc == k->doc ? 0 : x->doc ? 1 : -1;
}

/* The run [*lo, *hi) of arr (n bind indices sorted by k's index) whose binds have key k. */
static void run_of(flow_file *ff, const size_t *arr, size_t n, const bkey *k, size_t *lo,
                   size_t *hi) {
    size_t a = 0, b = n;
    while (a < b) {
        size_t mid = a + (b - a) / 2;
        if (key_cmp(bind_at(ff, arr[mid]), k) < 0) a = mid + 1;
        else b = mid;
    }
    *lo = a;
    for (b = n; a < b;) {
        size_t mid = a + (b - a) / 2;
        if (key_cmp(bind_at(ff, arr[mid]), k) <= 0) a = mid + 1;
        else b = mid;
    }
    *hi = a;
    spend(ff, 1);
}

static void target_run(flow_file *ff, const char *name, size_t scope, bool doc, size_t *lo,
                       size_t *hi) {
    bkey k = {BY_TARGET, name, 0, scope, doc};
    run_of(ff, ff->by_target, ff->n_target, &k, lo, hi);
}

/* Does binding b hold wherever binding r does, so that b, later, ends r's value (or, marked,
 * outlives it)? When its block holds r's block: `x = other` after an `if` ends what the
 * `if` bound, not what its `else` branch or an enclosing block's other branch did, nor what
 * the enclosing block bound when b is inside the `if`. Without block lines, the shallower
 * or equal column stands for it. */
static bool holds(const fbind *b, const fbind *r) {
    if (b->bstart && r->bstart) return b->bstart <= r->bstart && b->bend >= r->bend;
    return b->col <= r->col;
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

/* ---- reaching bindings ---- */

/* Where a plain name not bound in function scope s is looked up next: the nearest enclosing
 * function (a closure reads its enclosing function's names; a class body's names are not
 * seen from its methods), else the module (0). */
static size_t outer_fn(const flow_file *ff, size_t s) {
    if (!s || !ff->nested) return 0;
    for (size_t p = VEC_AT(&ff->scopes, fscope, s - 1).parent; p;
         p = VEC_AT(&ff->scopes, fscope, p - 1).parent)
        if (!is_class(&VEC_AT(&ff->scopes, fscope, p - 1))) return p;
    return 0;
}

/* The marked binding of `name` that may reach `line` in `scope` (bind `skip` left out: the
 * binding whose value is being looked up), or -1; *last is set to the last binding of the
 * name before or on the line (any), or -1. A marked binding reaches unless an unmarked one
 * after it, in a block holding its block (holds()), ends it: `x = other` inside an `if` below
 * `x = legacy`, or in the `else` of the `if` that bound it, leaves the legacy value possible
 * after the `if`. Several marked bindings may reach at once; the one whose block holds the
 * other's outlives it, so it is the one kept.
 * A plain name not bound in its function is looked up in the module; `self.x` holds for the
 * whole class. */
static long reaching(flow_file *ff, const bool *marked, const char *name, size_t scope,
                     uint32_t line, bool self, bool doc, long skip, long *last) {
    long reach = -1;
    *last = -1;
    for (size_t at = scope;; at = outer_fn(ff, at)) {
        size_t lo, hi;
        target_run(ff, name, at, doc, &lo, &hi);
        for (size_t p = lo; p < hi && spend(ff, 1); p++) {
            size_t i = ff->by_target[p];
            const fbind *b = bind_at(ff, i);
            if ((long)i == skip) continue;
            if (!self && b->vspan.line > line) {
                if (ff->sorted) break;
                continue;
            }
            *last = (long)i;
            if (marked[i]) {
                if (self) return (long)i;
                if (reach < 0 || holds(b, bind_at(ff, (size_t)reach))) reach = (long)i;
            } else if (!self && !b->item && reach >= 0 && holds(b, bind_at(ff, (size_t)reach))) {
                reach = -1;
            }
        }
        if (self || !at || *last >= 0) break;
    }
    return reach;
}

/* ---- marks ---- */

typedef struct marks {
    bool *marked;        /* per bind */
    uint64_t *fn_marked; /* per scope + 1: which of what the function returns is a legacy
                            object (elem_bit: the whole value, or elements of a tuple) */
    size_t *queue, nq;   /* binds marked, their dependents still to visit */
} marks;

static void mark(marks *m, size_t i) {
    if (m->marked[i]) return;
    m->marked[i] = true;
    m->queue[m->nq++] = i;
}

/* Bind i, unmarked, looked at again: marked when a marked binding reaches its value. */
static void revisit(flow_file *ff, marks *m, size_t i) {
    const fbind *b = bind_at(ff, i);
    if (m->marked[i] || unpacked(b) || !spend(ff, 1)) return;
    long last;
    if (reaching(ff, m->marked, b->value, b->vscope, b->vspan.line, is_self(b->value), b->doc,
                 (long)i, &last) >= 0)
        mark(m, i);
}

/* Does the argument bind `a` (its callee) reach the parameters of function scope `fs`, and
 * with what shift of its position? `f(x)` a function f, `self.f(x)` / `obj.f(x)` a method f
 * (self takes position 0), `C(x)` the `__init__` of class C. */
static bool callee_reaches(const flow_file *ff, const fbind *a, const fscope *fs, long *shift) {
    const char *c = a->target, *dot = strrchr(c, '.'), *want = dot ? dot + 1 : c;
    bool method = strcmp(fs->kind, "method") == 0;
    const char *name = short_name(fs->name);
    *shift = method ? 1 : 0;
    if (!strcmp(name, want)) return method == (dot != NULL);
    if (dot || !method || strcmp(name, "__init__") || !ff->nested || !fs->parent) return false;
    const fscope *cls = &VEC_AT(&ff->scopes, fscope, fs->parent - 1);
    return is_class(cls) && !strcmp(short_name(cls->name), want);
}

/* The parameters of the functions named `fn` bound by argument a. */
static void bind_params_of(flow_file *ff, marks *m, const fbind *a, const char *fn) {
    size_t lo = 0, hi = ff->n_params;
    while (lo < hi) { /* the first parameter of a function named fn */
        size_t mid = lo + (hi - lo) / 2;
        if (strcmp(param_fn(ff, bind_at(ff, ff->params[mid])), fn) < 0) lo = mid + 1;
        else hi = mid;
    }
    spend(ff, 1);
    for (size_t p = lo; p < ff->n_params && spend(ff, 1); p++) {
        size_t i = ff->params[p];
        const fbind *b = bind_at(ff, i);
        long shift;
        if (strcmp(param_fn(ff, b), fn)) break;
        if (m->marked[i] || b->doc != a->doc || !b->scope ||
            !callee_reaches(ff, a, &VEC_AT(&ff->scopes, fscope, b->scope - 1), &shift))
            continue;
        if (a->kw ? !strcmp(a->kw, b->target) : a->pos >= 0 && b->pos == a->pos + shift)
            mark(m, i);
    }
}

/* Argument bind j is marked: the parameters it binds in the module's functions are (a class
 * called binds its __init__'s). */
static void bind_params(flow_file *ff, marks *m, size_t j) {
    const fbind *a = bind_at(ff, j);
    const char *dot = strrchr(a->target, '.');
    bind_params_of(ff, m, a, dot ? dot + 1 : a->target);
    if (!dot) bind_params_of(ff, m, a, "__init__");
}

/* Bind j is marked: what depends on it may be too. A binding whose value is j's target is
 * looked at again; a return marks its function, and the function's calls are marked. */
static void spread(flow_file *ff, marks *m, size_t j) {
    const fbind *b = bind_at(ff, j);
    size_t lo, hi;
    uint64_t bit = elem_bit(b->elem);
    if (b->ret && b->scope && bit && !(m->fn_marked[b->scope] & bit) &&
        !is_class(&VEC_AT(&ff->scopes, fscope, b->scope - 1))) {
        m->fn_marked[b->scope] |= bit;
        const char *fn = short_name(VEC_AT(&ff->scopes, fscope, b->scope - 1).name);
        bkey k = {BY_CALLEE, fn, strlen(fn), 0, false};
        if (k.n) run_of(ff, ff->by_callee, ff->n_callee, &k, &lo, &hi);
        else lo = hi = 0;
        /* the calls take the element returned: `exe, prog = build()` marks exe only */
        for (size_t p = lo; p < hi && spend(ff, 1); p++)
            if (bind_at(ff, ff->by_callee[p])->elem == b->elem) mark(m, ff->by_callee[p]);
    }
    if (b->arg) bind_params(ff, m, j);
    if (b->ret || b->arg) return; /* a return or an argument binds no name */
    /* a function's (or class's) name is read in that scope only, or in the functions defined
     * inside it; a module's anywhere */
    bool narrow = b->scope && ff->nested && !VEC_AT(&ff->scopes, fscope, b->scope - 1).has_inner;
    bkey k = {BY_VALUE, b->target, narrow ? 1 : 0, b->scope, false};
    run_of(ff, ff->by_value, ff->binds.n, &k, &lo, &hi);
    for (size_t p = lo; p < hi && ff->stop == FLOW_DONE; p++) revisit(ff, m, ff->by_value[p]);
}

/* The bindings (m->marked) and functions (m->fn_marked) that hold a legacy object of flow
 * rule f: seeds, then what they spread to. False when nothing is bound to a legacy value
 * (most files with seeds), or when the work or time limit stopped it. */
/* Does bind b's value call a function another module defines that returns a legacy object of
 * flow rule f (a premark "f()": `exe = build(...)` after `from trainer import build`)? */
static bool calls_returned(flow_file *ff, const flow_rule *f, const fbind *b) {
    for (size_t k = 0; k < ff->seeds.n && spend(ff, 1); k++) {
        const fseed *s = &VEC_AT(&ff->seeds, fseed, k);
        if (s->returned && bound_rule(f, s->rule) && strlen(s->name) == b->callee_len &&
            !memcmp(s->name, b->callee, b->callee_len))
            return true;
    }
    return false;
}

static bool mark_binds(flow_file *ff, const flow_rule *f, marks *m) {
    size_t nb = ff->binds.n, ns = ff->seeds.n;
    m->nq = 0;
    for (size_t i = 0; i < nb && spend(ff, 1); i++) {
        const fbind *b = bind_at(ff, i);
        const char *head;
        size_t hn;
        if (unpacked(b)) continue;
        if (ff->n_returned && b->callee && calls_returned(ff, f, b)) {
            mark(m, i);
            continue;
        }
        value_head(b->value, &head, &hn);
        if (!hn) continue;
        /* the seeds inside the value: from the first starting at or after it, sorted */
        size_t lo = 0, hi = ns;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            const fseed *s = &VEC_AT(&ff->seeds, fseed, mid);
            if (s->span.line < b->vspan.line ||
                (s->span.line == b->vspan.line && s->span.col < b->vspan.col))
                lo = mid + 1;
            else
                hi = mid;
        }
        for (size_t k = lo; k < ns && spend(ff, 1); k++) {
            const fseed *s = &VEC_AT(&ff->seeds, fseed, k);
            if (s->span.line > b->vspan.end_line) break;
            /* the seed is what the value is, not a name in its arguments */
            if (bound_rule(f, s->rule) && span_within(s->span, b->vspan) &&
                cmp_slice(head, hn, s->name, strlen(s->name)) == 0) {
                mark(m, i);
                break;
            }
        }
    }
    if (!m->nq) return false;
    /* each bind is marked once and spreads once */
    for (size_t q = 0; q < m->nq && ff->stop == FLOW_DONE; q++) spread(ff, m, m->queue[q]);
    return ff->stop == FLOW_DONE;
}

static bool marks_new(marks *m, const flow_file *ff) {
    m->marked = sunset_calloc(ff->binds.n ? ff->binds.n : 1, sizeof(bool));
    m->fn_marked = sunset_calloc(ff->scopes.n + 1, sizeof *m->fn_marked);
    m->queue = sunset_malloc((ff->binds.n ? ff->binds.n : 1) * sizeof(size_t));
    m->nq = 0;
    return m->marked && m->fn_marked && m->queue;
}

static void marks_clear(marks *m, const flow_file *ff) {
    memset(m->marked, 0, (ff->binds.n ? ff->binds.n : 1) * sizeof(bool));
    memset(m->fn_marked, 0, (ff->scopes.n + 1) * sizeof *m->fn_marked);
    m->nq = 0;
}

static void marks_free(marks *m) {
    sunset_free(m->marked);
    sunset_free(m->fn_marked);
    sunset_free(m->queue);
}

/* ---- uses ---- */

/* Once the marks are final, the reach of each prefix of each run of ff->by_target, so that
 * a use is looked up in log time: reach[p] as reaching() leaves it after position p, and
 * reach[n_target + p] the first marked bind of the run up to p (self.x: any marked one). */
static void prefix_reach(flow_file *ff, const bool *marked, long *reach) {
    for (size_t p = 0; p < ff->n_target && spend(ff, 1); p++) {
        size_t i = ff->by_target[p];
        const fbind *b = bind_at(ff, i);
        bool first = !p || key_cmp(bind_at(ff, ff->by_target[p - 1]),
                                   &(bkey){BY_TARGET, b->target, 0, b->scope, b->doc}) != 0;
        long r = first ? -1 : reach[p - 1], *any = &reach[ff->n_target + p];
        *any = first || any[-1] < 0 ? (marked[i] ? (long)i : -1) : any[-1];
        if (marked[i]) {
            if (r < 0 || holds(b, bind_at(ff, (size_t)r))) r = (long)i;
        } else if (!b->item && r >= 0 && holds(b, bind_at(ff, (size_t)r))) {
            r = -1;
        }
        reach[p] = r;
    }
}

/* reaching() for a use, from the prefix reaches (when the binds of a name come in line
 * order; else reaching() itself). */
static long use_reach(flow_file *ff, const bool *marked, const long *reach, const char *name,
                      size_t scope, uint32_t line, bool self, bool doc, long *last) {
    *last = -1;
    if (self) { /* any marked binding of the class */
        size_t lo, hi;
        target_run(ff, name, scope, doc, &lo, &hi);
        if (lo == hi) return -1;
        *last = (long)ff->by_target[hi - 1];
        return reach[ff->n_target + hi - 1];
    }
    if (!ff->sorted) return reaching(ff, marked, name, scope, line, self, doc, -1, last);
    for (size_t at = scope;; at = outer_fn(ff, at)) {
        size_t first, lo, hi;
        target_run(ff, name, at, doc, &first, &hi);
        for (lo = first; lo < hi;) { /* the first bind after the line */
            size_t mid = lo + (hi - lo) / 2;
            if (bind_at(ff, ff->by_target[mid])->vspan.line <= line) lo = mid + 1;
            else hi = mid;
        }
        if (lo > first) {
            *last = (long)ff->by_target[lo - 1];
            return reach[lo - 1];
        }
        if (!at) break;
    }
    return -1;
}

static void run_rule(flow_file *ff, const sunset_rule *r, marks *m, long *reach,
                     pcre2_match_data *md, flow_report_fn report, void *ud) {
    const flow_rule *f = r->flow;
    size_t nb = ff->binds.n;
    marks_clear(m, ff);
    if (!mark_binds(ff, f, m)) return;
    prefix_reach(ff, m->marked, reach);
    const clause *c = r->clauses.n ? &VEC_AT(&r->clauses, clause, 0) : NULL;
    uint32_t last_stmt = 0;
    for (size_t i = 0; i < ff->uses.n && spend(ff, 1); i++) {
        const fuse *u = &VEC_AT(&ff->uses, fuse, i);
        if (!u->name && !f->arguments) continue;
        if (u->name && c) {
            if ((u->flags & c->flags) != c->flags) continue;
            if ((c->main.n_names || c->main.re) && !strtest_match(&c->main, u->name, u->name_len, md))
                continue;
        }
        bool self = is_self(u->obj);
        long last, at = use_reach(ff, m->marked, reach, u->obj, scope_at(ff, u->span.line, self),
                                  u->span.line, self, u->doc, &last);
        if (at < 0) continue;
        /* a binding's own line: `x = x.with_data_parallel()` is reported by its seed */
        if (!self && !bind_at(ff, (size_t)last)->iter &&
            bind_at(ff, (size_t)last)->vspan.line == u->span.line)
            continue;
        /* one finding per statement: a migration rewrites the statement */
        uint32_t key = u->stmt.line ? u->stmt.line : u->span.line;
        if (key == last_stmt) continue;
        last_stmt = key;
        sb t = {0};
        sb_puts(&t, u->shown ? u->shown : u->obj);
        if (u->name) sb_printf(&t, ".%s", u->name);
        if (!t.oom)
            report(ud, r, u->doc ? SUNSET_CTX_DOCSTRING : SUNSET_CTX_CODE, u->span, u->stmt, t.s,
                   t.len);
        sb_free(&t);
    }
    /* `return prog`: the function hands the legacy object on (its callers are marked above) */
    for (size_t i = 0, ret_line = 0; f->arguments && i < nb && spend(ff, 1); i++) {
        const fbind *b = bind_at(ff, i);
        if (!b->ret || is_self(b->value) || (b->elem >= 0 && b->vspan.line == ret_line)) continue;
        long last;
        if (use_reach(ff, m->marked, reach, b->value, b->scope, b->vspan.line, false, b->doc,
                      &last) < 0)
            continue;
        ret_line = b->vspan.line; /* `return pe, pe2`: one finding for the statement */
        report(ud, r, b->doc ? SUNSET_CTX_DOCSTRING : SUNSET_CTX_CODE, b->vspan, b->vspan,
               b->value, strlen(b->value));
    }
}

static void start(flow_file *ff, const flow_limits *lim) {
    uint64_t max = lim && lim->max_work ? lim->max_work : FLOW_MAX_WORK;
    ff->max_work = work_limit_override ? work_limit_override : max;
    ff->work = 0;
    ff->next_clock = 0;
    ff->stop = FLOW_DONE;
    ff->deadline_ms = lim && lim->budget_ms ? sunset_clock_ms() + lim->budget_ms : 0;
}

bool flow_escapes(flow_file *ff, const vec *rules, flow_name_fn seen, void *ud) {
    if (!ff || !ff->binds.n || !ff->seeds.n) return false;
    start(ff, NULL);
    marks m = {0};
    bool out = !flow_prepare(ff) || !marks_new(&m, ff); /* OOM: anything may escape */
    for (size_t i = 0; i < rules->n && !out; i++) {
        const flow_rule *f = VEC_AT(rules, sunset_rule *, i)->flow;
        if (!f) continue;
        marks_clear(&m, ff);
        if (!mark_binds(ff, f, &m)) {
            out = ff->stop != FLOW_DONE; /* cut short: it may */
            continue;
        }
        for (size_t k = 0; k < ff->binds.n && !out; k++) {
            const fbind *b = bind_at(ff, k);
            if (!m.marked[k] || b->ret) continue;
            /* a function's own binding is seen only in that function; a class's (self.x) in
             * all of the class's methods, a module's everywhere; an argument in the function
             * it is passed to, wherever that is */
            if (!b->arg && b->scope && !is_class(&VEC_AT(&ff->scopes, fscope, b->scope - 1)))
                continue;
            const char *name = short_name(b->target);
            size_t n = strlen(name);
            out = seen(ud, name, b->item ? n - 2 : n); /* `exes[]`: the name exes */
        }
        for (size_t s = 1; s <= ff->scopes.n && !out; s++) {
            if (!m.fn_marked[s]) continue;
            const char *name = short_name(VEC_AT(&ff->scopes, fscope, s - 1).name);
            out = seen(ud, name, strlen(name));
        }
    }
    marks_free(&m);
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

flow_status flow_finish(flow_file *ff, const vec *rules, pcre2_match_data *md,
                        const flow_limits *lim, flow_report_fn report, void *ud) {
    if (!ff || !ff->binds.n || !ff->seeds.n) return FLOW_DONE;
    start(ff, lim);
    marks m = {0};
    long *reach = NULL;
    if (!flow_prepare(ff) || !marks_new(&m, ff) ||
        !(reach = sunset_malloc((ff->n_target ? 2 * ff->n_target : 1) * sizeof *reach))) {
        marks_free(&m);
        return FLOW_OOM;
    }
    for (size_t i = 0; i < rules->n && ff->stop == FLOW_DONE; i++)
        run_rule(ff, VEC_AT(rules, sunset_rule *, i), &m, reach, md, report, ud);
    marks_free(&m);
    sunset_free(reach);
    return ff->stop;
}

/* ---- across modules (core/xflow.c) ---- */

/* A premark "@fn#N" ("@fn#=kw"), another module's call of fn with a legacy object as argument N
 * (keyword kw): a seeded argument bind before the first line, binding fn's parameters. */
static void premark_argument(flow_file *ff, const sunset_rule *bound, const char *name, size_t n) {
    const char *hash = memchr(name, '#', n);
    if (!hash || hash == name + 1 || hash + 1 == name + n) return;
    bool kw = hash[1] == '=';
    long pos = kw ? -1 : strtol(hash + 1, NULL, 10);
    fbind b = {sunset_strndup(name + 1, (size_t)(hash - name - 1)), sunset_strndup("premark", 7), {0, 0, 0, 0}, 1, 0,
               0, NULL, 0, false, false, true, false, pos, -1,
               kw ? sunset_strndup(hash + 2, (size_t)(name + n - hash - 2)) : NULL, 0, 0, false, false};
    fseed sd = {bound, {0, 0, 0, 0}, sunset_strndup("premark", 7), false};
    if (!b.target || !b.value || (kw && !b.kw) || !sd.name || !vec_push(&ff->binds, &b)) {
        sunset_free(b.target);
        sunset_free(b.value);
        sunset_free(b.kw);
        sunset_free(sd.name);
        return;
    }
    if (!vec_push(&ff->seeds, &sd)) sunset_free(sd.name);
}

void flow_premark(flow_file *ff, const sunset_rule *bound, const char *name, size_t n) {
    if (ff->prepared) unprepare(ff);
    if (n && name[0] == '@') {
        premark_argument(ff, bound, name, n);
        return;
    }
    if (n > 2 && !memcmp(name + n - 2, "()", 2)) { /* a function returning the object */
        fseed sd = {bound, {0, 0, 0, 0}, sunset_strndup(name, n - 2), true};
        if (sd.name && vec_push(&ff->seeds, &sd)) ff->n_returned++;
        else sunset_free(sd.name);
        return;
    }
    const char *dot = memrchr(name, '.', n);
    const char *last = dot ? dot + 1 : name;
    size_t ln = n - (size_t)(last - name);
    /* a module-level binding before the file's first line, of a value the seed says it is */
    fbind b = {sunset_strndup(name, n), sunset_strndup(last, ln), {0, 0, 0, 0}, 1, 0, 0, NULL, 0, false,
               false, false, false, -1, -1, NULL, 0, 0, false, false};
    fseed sd = {bound, {0, 0, 0, 0}, sunset_strndup(last, ln), false};
    if (!b.target || !b.value || !sd.name || !vec_push(&ff->binds, &b)) {
        sunset_free(b.target);
        sunset_free(b.value);
        sunset_free(sd.name);
        return;
    }
    if (!vec_push(&ff->seeds, &sd)) sunset_free(sd.name);
}

/* Is fn (a callee as written, no dot) a function or class this file defines? */
static bool defined_here(const flow_file *ff, const char *fn) {
    for (size_t i = 0; i < ff->scopes.n; i++)
        if (!strcmp(short_name(VEC_AT(&ff->scopes, fscope, i).name), fn)) return true;
    return false;
}

/* A marked argument of a call the file cannot follow (a function it does not define, `f(pe)`,
 * or a module's, `mod.f(pe)`): "@callee#N" or "@callee#=kw", for core/xflow.c to hand the
 * callee's module as a premark when callee is what the file imports. */
static void export_argument(const flow_file *ff, const fbind *b, const sunset_rule *r, flow_export_fn out,
                            void *ud) {
    const char *dot = strchr(b->target, '.');
    if (b->doc || !b->vspan.line || !*b->target || (dot && strchr(dot + 1, '.')) ||
        strpbrk(b->target, "[( ") || is_self(b->target) || (!dot && defined_here(ff, b->target)) ||
        (!b->kw && b->pos < 0))
        return;
    char name[200];
    int k = b->kw ? snprintf(name, sizeof name, "@%s#=%s", b->target, b->kw)
                  : snprintf(name, sizeof name, "@%s#%ld", b->target, b->pos);
    if (k > 0 && (size_t)k < sizeof name) out(ud, r, name);
}

/* The module-level functions whose return is the legacy object (the whole of it): "f()", for
 * the modules importing f (`train_exe = get_parallel_exe(prog)`). */
static void export_functions(const flow_file *ff, const marks *m, const sunset_rule *r, flow_export_fn out,
                             void *ud) {
    for (size_t j = 0; ff->nested && j < ff->scopes.n; j++) {
        const fscope *sc = &VEC_AT(&ff->scopes, fscope, j);
        char name[200];
        if (sc->parent || strcmp(sc->kind, "function") || !(m->fn_marked[j + 1] & elem_bit(-1))) continue;
        int k = snprintf(name, sizeof name, "%s()", short_name(sc->name));
        if (k > 2 && (size_t)k < sizeof name) out(ud, r, name);
    }
}

void flow_exports(flow_file *ff, const vec *rules, flow_export_fn out, void *ud) {
    if (!ff || !ff->binds.n || !ff->seeds.n) return;
    start(ff, NULL);
    marks m = {0};
    if (!flow_prepare(ff) || !marks_new(&m, ff)) {
        marks_free(&m);
        return;
    }
    for (size_t i = 0; i < rules->n; i++) {
        const sunset_rule *r = VEC_AT(rules, sunset_rule *, i);
        if (!r->flow) continue;
        marks_clear(&m, ff);
        if (!mark_binds(ff, r->flow, &m)) continue;
        export_functions(ff, &m, r, out, ud);
        for (size_t k = 0; k < ff->binds.n; k++) {
            const fbind *b = bind_at(ff, k);
            if (m.marked[k] && b->arg) export_argument(ff, b, r, out, ud);
            if (!m.marked[k] || b->ret || b->arg || b->param || b->item || b->doc || b->scope || !b->vspan.line ||
                strchr(b->target, '.') || strchr(b->target, '['))
                continue;
            /* the module's last word on the name: no later module-level binding of it to
             * something else */
            bool last = true;
            for (size_t j = k + 1; j < ff->binds.n && last; j++) {
                const fbind *o = bind_at(ff, j);
                last = o->scope || o->ret || o->arg || o->param || o->item || o->doc || strcmp(o->target, b->target) ||
                       m.marked[j];
            }
            if (last) out(ud, r, b->target);
        }
    }
    marks_free(&m);
}
