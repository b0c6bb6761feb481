/*
 * index.c — the cross-file index (index.h). One small lexer per language (python.c, cpp.c,
 * cmake.c) turns a file's bytes, already in memory in the engine's worker, into the facts the
 * propagation needs: C/C++ includes, class definitions with their bases and brace-matched
 * extent, gflag definitions, pass registrations; Python imports (which names they bind and
 * whether the module uses them), classes with bases and indentation extent, top-level
 * functions; CMake commands with their arguments and lines; words of tool lists and scripts;
 * and for every file the set of names its code uses (comments and import lines excluded), kept
 * as sorted 64-bit hashes. The lexers never parse: they know strings, comments, brackets and a
 * handful of keywords, which is what the facts need, and they cost a few percent of the scan.
 * This file is the index itself: adding a file (built with the lexers' allocations, then
 * packed into one block of the index's memory), sorting, lookups.
 */
#include "analysis/index/ix_int.h"

#include <stdlib.h>

uint64_t sunset_index_name_hash(const char *s, size_t n) { return ix_name_hash(s, n); }

/* A file as the lexers leave it: its strings in the build's arena (ix_int.h), each array and
 * vector its own allocation. Once indexed, a file is packed (pack_add) and this copy freed. */
static void file_free(ix_file *f) {
    if (!f) return;
    for (size_t i = 0; i < f->classes.n; i++) {
        sunset_free(VEC_AT(&f->classes, ix_class, i).bases);
        sunset_free(VEC_AT(&f->classes, ix_class, i).names);
    }
    for (size_t i = 0; i < f->cmds.n; i++) {
        sunset_free(VEC_AT(&f->cmds, ix_cmd, i).args);
        sunset_free(VEC_AT(&f->cmds, ix_cmd, i).arg_lines);
    }
    vec *vs[] = {&f->classes, &f->funcs, &f->imports, &f->aliases, &f->includes, &f->cmds,
                 &f->flag_defs, &f->pass_regs, &f->op_regs, &f->reg_uses, &f->list_words, &f->macros,
                 &f->op_runs};
    for (size_t i = 0; i < sizeof vs / sizeof vs[0]; i++) vec_free(vs[i]);
    sunset_free(f->names);
    sunset_free(f->outside);
    sunset_free(f->attr);
    sunset_free(f);
}

/* ---- packing: an indexed file in one block ----
 *
 * The lexers build a file's facts with an allocation per array and vector (and an arena for
 * the strings); the index keeps them to the end of the run, for every file of the tree
 * (hundreds of thousands of short strings). Packing copies them, at their exact sizes, into
 * one block that starts with the ix_file, carved from the index's chunks: no allocator
 * overhead or spare capacity per string or array, and sunset_index_free is a free per chunk.
 * The walk runs twice, first counting (no block: the copies go to scratch records), then
 * copying. */

typedef struct packer {
    char *arr, *str;     /* where the next array (8-aligned) / string goes; NULL when counting */
    size_t n_arr, n_str; /* bytes of arrays / strings */
} packer;

static void *pk_array(packer *k, const void *src, size_t n) {
    if (!n) return NULL;
    size_t size = (n + 7) & ~(size_t)7;
    k->n_arr += size;
    if (!k->arr) return NULL;
    void *p = memcpy(k->arr, src, n);
    k->arr += size;
    return p;
}

static char *pk_str(packer *k, const char *s) {
    if (!s) return NULL;
    size_t n = strlen(s) + 1;
    k->n_str += n;
    if (!k->str) return NULL;
    char *p = memcpy(k->str, s, n);
    k->str += n;
    return p;
}

/* A vector's elements; when counting, the vector is left empty. */
static void pk_vec(packer *k, vec *dst, const vec *src) {
    *dst = *src;
    dst->v = pk_array(k, src->v, src->n * src->elem);
    if (!dst->v) dst->n = 0;
    dst->cap = dst->n;
}

/* Into g, f's facts with every pointer into the packer's block (g: a scratch record when
 * counting). */
static void pack_file(packer *k, const ix_file *f, ix_file *g) {
    *g = *f;
    g->path = pk_str(k, f->path);
    pk_vec(k, &g->classes, &f->classes);
    for (size_t i = 0; i < f->classes.n; i++) {
        const ix_class *s = &VEC_AT(&f->classes, ix_class, i);
        ix_class scratch, *d = g->classes.n ? &VEC_AT(&g->classes, ix_class, i) : &scratch;
        d->name = pk_str(k, s->name);
        d->bases = pk_array(k, s->bases, s->n_bases * sizeof *s->bases);
        for (uint32_t b = 0; b < s->n_bases; b++) {
            char *base = pk_str(k, s->bases[b]);
            if (d->bases) d->bases[b] = base;
        }
        d->names = pk_array(k, s->names, s->n_names * sizeof *s->names);
    }
    pk_vec(k, &g->funcs, &f->funcs);
    for (size_t i = 0; i < f->funcs.n; i++) {
        char *name = pk_str(k, VEC_AT(&f->funcs, ix_func, i).name);
        if (g->funcs.n) VEC_AT(&g->funcs, ix_func, i).name = name;
    }
    pk_vec(k, &g->imports, &f->imports);
    const char *module = NULL; /* a from-import's names share their module's string */
    char *module_to = NULL;
    for (size_t i = 0; i < f->imports.n; i++) {
        const ix_import *s = &VEC_AT(&f->imports, ix_import, i);
        ix_import scratch, *d = g->imports.n ? &VEC_AT(&g->imports, ix_import, i) : &scratch;
        if (s->module != module) {
            module = s->module;
            module_to = pk_str(k, module);
        }
        d->module = module_to;
        d->name = pk_str(k, s->name);
        d->alias = pk_str(k, s->alias);
    }
    pk_vec(k, &g->aliases, &f->aliases);
    for (size_t i = 0; i < f->aliases.n; i++) {
        const ix_alias *s = &VEC_AT(&f->aliases, ix_alias, i);
        ix_alias scratch, *d = g->aliases.n ? &VEC_AT(&g->aliases, ix_alias, i) : &scratch;
        d->name = pk_str(k, s->name);
        d->value = pk_str(k, s->value);
    }
    pk_vec(k, &g->includes, &f->includes);
    for (size_t i = 0; i < f->includes.n; i++) {
        char *path = pk_str(k, VEC_AT(&f->includes, ix_include, i).path);
        if (g->includes.n) VEC_AT(&g->includes, ix_include, i).path = path;
    }
    pk_vec(k, &g->cmds, &f->cmds);
    for (size_t i = 0; i < f->cmds.n; i++) {
        const ix_cmd *s = &VEC_AT(&f->cmds, ix_cmd, i);
        ix_cmd scratch, *d = g->cmds.n ? &VEC_AT(&g->cmds, ix_cmd, i) : &scratch;
        d->name = pk_str(k, s->name);
        d->args = pk_array(k, s->args, s->n_args * sizeof *s->args);
        d->arg_lines = pk_array(k, s->arg_lines, s->n_args * sizeof *s->arg_lines);
        for (uint32_t a = 0; a < s->n_args; a++) {
            char *arg = pk_str(k, s->args[a]);
            if (d->args) d->args[a] = arg;
        }
    }
    const vec *from[] = {&f->flag_defs, &f->pass_regs, &f->op_regs, &f->reg_uses,
                         &f->list_words, &f->macros, &f->op_runs};
    vec *to[] = {&g->flag_defs, &g->pass_regs, &g->op_regs, &g->reg_uses, &g->list_words, &g->macros, &g->op_runs};
    for (size_t w = 0; w < sizeof from / sizeof from[0]; w++) {
        pk_vec(k, to[w], from[w]);
        for (size_t i = 0; i < from[w]->n; i++) {
            char *text = pk_str(k, VEC_AT(from[w], ix_word, i).text);
            if (to[w]->n) VEC_AT(to[w], ix_word, i).text = text;
        }
    }
    g->names = pk_array(k, f->names, f->n_names * sizeof *f->names);
    g->outside = pk_array(k, f->outside, f->n_outside * sizeof *f->outside);
    g->attr = pk_array(k, f->attr, f->n_attr * sizeof *f->attr);
}

/* The index's chunks: 1 MB (a file's block rarely comes near), a larger block its own. The
 * blocks live to the end of the run, so they are kept together rather than scattered among
 * the workers' short-lived allocations, which they would keep from being given back. */
#define CHUNK_SIZE ((size_t)1 << 20)

/* Room for n bytes (8-aligned) in ix's chunks, or NULL on OOM. Called under ix->mu. */
static char *chunk_take(sunset_index *ix, size_t n) {
    if ((size_t)(ix->chunk_end - ix->chunk_cur) < n) {
        size_t head = sizeof(void *), size = n + head > CHUNK_SIZE / 4 ? n + head : CHUNK_SIZE;
        void **c = sunset_malloc(size);
        if (!c) return NULL;
        *c = ix->chunks;
        ix->chunks = c;
        char *start = (char *)c + head;
        if (size != CHUNK_SIZE) return start; /* its own chunk: the current one goes on */
        ix->chunk_cur = start;
        ix->chunk_end = (char *)c + size;
    }
    char *p = ix->chunk_cur;
    ix->chunk_cur += n;
    return p;
}

#define BLOCK_HEAD ((sizeof(ix_file) + 7) & ~(size_t)7)

/* Room for an n-byte block in ix's chunks, appended to ix->files (filled before anyone reads
 * it: after finish); NULL on OOM (a block taken stays in its chunk, freed with the index). */
static char *block_add(sunset_index *ix, size_t n) {
    pthread_mutex_lock(&ix->mu);
    char *block = chunk_take(ix, (n + 7) & ~(size_t)7);
    bool ok = block && vec_push(&ix->files, &block) != NULL;
    pthread_mutex_unlock(&ix->mu);
    return ok ? block : NULL;
}

/* f packed into a block of ix's and appended to ix->files; NULL on OOM (f itself is left as
 * it was). *used: the bytes of the block that hold something (its strings end it). */
static char *pack_add(sunset_index *ix, const ix_file *f, size_t *used) {
    packer k = {0};
    ix_file scratch;
    pack_file(&k, f, &scratch);
    *used = BLOCK_HEAD + k.n_arr + k.n_str;
    char *block = block_add(ix, *used);
    if (!block) return NULL;
    packer c = {block + BLOCK_HEAD, block + BLOCK_HEAD + k.n_arr, 0, 0};
    pack_file(&c, f, (ix_file *)(void *)block);
    return block;
}

/* ---- a packed file as bytes: the content cache keeps it (index.h) ----
 *
 * A block holds only its own pointers, so its bytes with every pointer turned into an offset
 * from the block's start are the file's entry; replayed, they are copied into a block of the
 * index and every offset turned back into a pointer. The walk rebases the pointers of a
 * buffer that refer to the address `from` onto `to`, and on the way back checks each one:
 * inside the buffer, aligned, its array whole, its count plausible. Strings need no length:
 * the buffer ends with the last one's NUL. */

typedef struct reloc {
    char *buf;           /* the bytes being rebased */
    size_t n;
    uintptr_t from, to;  /* the pointers refer to from + offset; they will to to + offset */
    bool dry;            /* only check (buf is not written) */
    bool bad;
} reloc;

/* The offset of *p's target of count elements of elem bytes; 0 for NULL or when out of
 * range (then bad, unless count is 0 and p NULL). */
static uintptr_t rl_off(reloc *r, const void *p, size_t count, size_t elem) {
    if (!p) {
        if (count) r->bad = true;
        return 0;
    }
    uintptr_t off = (uintptr_t)p - r->from;
    size_t align = elem >= 8 ? 8 : 1;
    if (off < BLOCK_HEAD || off >= r->n || off % align || count > (r->n - off) / elem) {
        r->bad = true;
        return 0;
    }
    return off;
}

/* Rebase the pointer lvalue P (to count elements of elem bytes); L = its target in the buffer. */
#define RL(r, P, count, elem, L)                                       \
    do {                                                               \
        uintptr_t o_ = rl_off((r), (P), (count), (elem));              \
        if (!(r)->dry) (P) = o_ ? (void *)((r)->to + o_) : NULL;       \
        (L) = o_ ? (void *)((r)->buf + o_) : NULL;                     \
    } while (0)

/* A vector's elements (of elem bytes), rebased; NULL when empty or bad. */
static void *rl_vec(reloc *r, vec *v, size_t elem) {
    void *l = NULL;
    if (v->elem != elem) {
        r->bad = true;
        return NULL;
    }
    RL(r, v->v, v->n, elem, l);
    if (!r->dry) v->cap = v->n = l ? v->n : 0;
    return l;
}

static void rl_str(reloc *r, char **s) { /* NULL stays NULL */
    void *l;
    RL(r, *s, *s ? 1 : 0, 1, l);
    (void)l;
}

static void rl_strs(reloc *r, char ***arr, uint32_t n) {
    char **l;
    RL(r, *arr, n, sizeof(char *), l);
    for (uint32_t i = 0; l && i < n; i++) rl_str(r, &l[i]);
}

static void relocate(reloc *r) {
    ix_file *f = (ix_file *)(void *)r->buf;
    void *l;
    rl_str(r, &f->path);
    if (!f->path) r->bad = true;
    ix_class *cl = rl_vec(r, &f->classes, sizeof(ix_class));
    for (size_t i = 0; cl && i < f->classes.n; i++) {
        rl_str(r, &cl[i].name);
        rl_strs(r, &cl[i].bases, cl[i].n_bases);
        RL(r, cl[i].names, cl[i].n_names, sizeof(uint64_t), l);
    }
    ix_func *fn = rl_vec(r, &f->funcs, sizeof(ix_func));
    for (size_t i = 0; fn && i < f->funcs.n; i++) rl_str(r, &fn[i].name);
    ix_import *im = rl_vec(r, &f->imports, sizeof(ix_import));
    for (size_t i = 0; im && i < f->imports.n; i++) {
        rl_str(r, &im[i].module);
        rl_str(r, &im[i].name);
        rl_str(r, &im[i].alias);
        if (!im[i].module) r->bad = true;
    }
    ix_alias *al = rl_vec(r, &f->aliases, sizeof(ix_alias));
    for (size_t i = 0; al && i < f->aliases.n; i++) {
        rl_str(r, &al[i].name);
        rl_str(r, &al[i].value);
    }
    ix_include *in = rl_vec(r, &f->includes, sizeof(ix_include));
    for (size_t i = 0; in && i < f->includes.n; i++) rl_str(r, &in[i].path);
    ix_cmd *cm = rl_vec(r, &f->cmds, sizeof(ix_cmd));
    for (size_t i = 0; cm && i < f->cmds.n; i++) {
        rl_str(r, &cm[i].name);
        rl_strs(r, &cm[i].args, cm[i].n_args);
        RL(r, cm[i].arg_lines, cm[i].n_args, sizeof(uint32_t), l);
    }
    vec *words[] = {&f->flag_defs, &f->pass_regs, &f->op_regs, &f->reg_uses, &f->list_words, &f->macros, &f->op_runs};
    for (size_t w = 0; w < sizeof words / sizeof words[0]; w++) {
        ix_word *wd = rl_vec(r, words[w], sizeof(ix_word));
        for (size_t i = 0; wd && i < words[w]->n; i++) rl_str(r, &wd[i].text);
    }
    RL(r, f->names, f->n_names, sizeof(uint64_t), l);
    RL(r, f->outside, f->n_outside, sizeof(uint64_t), l);
    RL(r, f->attr, f->n_attr, sizeof(uint64_t), l);
    (void)l;
}

void sunset_index_export(char *dst, const void *live, size_t n) {
    reloc r = {dst, n, (uintptr_t)live, 0, false, false};
    relocate(&r);
}

/* An adopted entry not yet rebased: the cache's bytes, read only. */
typedef struct ix_raw {
    const char *b;
    size_t n;
} ix_raw;

bool sunset_index_adopt(sunset_index *ix, const sunset_source *src, const void *bytes, size_t n) {
    const char *b = bytes;
    const ix_file *head = bytes;
    if (n <= BLOCK_HEAD || (uintptr_t)b % 8 || b[n - 1] || head->lang != src->lang || head->size != src->len)
        return false;
    reloc r = {(char *)(uintptr_t)b, n, 0, 0, true, false}; /* dry: checks, never writes */
    relocate(&r);
    if (r.bad || strcmp(b + (uintptr_t)head->path, src->path) != 0) return false;
    ix_raw raw = {b, n};
    pthread_mutex_lock(&ix->mu);
    bool ok = vec_push(&ix->pending, &raw) != NULL;
    if (ok) ix->replayed++;
    pthread_mutex_unlock(&ix->mu);
    return ok;
}

/* A copy of checked bytes rebased in a block of the index's (not in files); NULL on OOM. */
static ix_file *rebase_copy(sunset_index *ix, const ix_raw *raw) {
    pthread_mutex_lock(&ix->mu);
    char *block = chunk_take(ix, (raw->n + 7) & ~(size_t)7);
    pthread_mutex_unlock(&ix->mu);
    if (!block) return NULL;
    memcpy(block, raw->b, raw->n);
    reloc s = {block, raw->n, 0, (uintptr_t)block, false, false};
    relocate(&s); /* checked at adopt: cannot fail */
    return (ix_file *)(void *)block;
}

void sunset_index_set_lazy(sunset_index *ix) { ix->lazy = true; }

sunset_index *sunset_index_new(void) {
    sunset_index *ix = sunset_calloc(1, sizeof *ix);
    if (!ix) return NULL;
    if (pthread_mutex_init(&ix->mu, NULL) != 0) {
        sunset_free(ix);
        return NULL;
    }
    ix->files = VEC_INIT(ix_file *); /* the chunks: none yet (calloc) */
    ix->pending = VEC_INIT(ix_raw);
    return ix;
}

void sunset_index_set_roles(sunset_index *ix, const struct sunset_macro_roles *roles) { ix->roles = roles; }

void sunset_index_free(sunset_index *ix) {
    if (!ix) return;
    for (void *c = ix->chunks, *next; c; c = next) { /* the files, packed */
        next = *(void **)c;
        sunset_free(c);
    }
    vec_free(&ix->files);
    vec_free(&ix->pending);
    sunset_free(ix->raw);
    sunset_free(ix->path_hash);
    sunset_free(ix->path_pos);
    pthread_mutex_destroy(&ix->mu);
    sunset_free(ix);
}

bool ix_hashes_have(const uint64_t *v, size_t n, const char *name) {
    if (!n) return false;
    uint64_t h = ix_name_hash(name, strlen(name));
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (v[mid] < h) lo = mid + 1;
        else hi = mid;
    }
    return lo < n && v[lo] == h;
}

bool ix_file_uses(const ix_file *f, const char *name) { return ix_hashes_have(f->names, f->n_names, name); }

bool ix_attr_only(const ix_file *f, long cls, const char *name) {
    if (!f->n_attr) return false;
    uint64_t h = ix_name_hash(name, strlen(name));
    uint64_t key = ix_attr_key(h ? h : 1, cls);
    size_t lo = 0, hi = f->n_attr;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (f->attr[mid] < key) lo = mid + 1;
        else hi = mid;
    }
    return lo < f->n_attr && f->attr[lo] == key;
}

/* An import is used when the name it binds occurs in the module's code. */
const char *ix_import_bound(const ix_import *m, char *buf, size_t n) {
    if (m->alias || m->name) return m->alias ? m->alias : m->name;
    size_t k = 0;
    while (m->module[k] && m->module[k] != '.' && k < n - 1) {
        buf[k] = m->module[k];
        k++;
    }
    buf[k] = 0;
    return buf;
}

static void mark_used_imports(ix_file *f) {
    for (size_t i = 0; i < f->imports.n; i++) {
        ix_import *m = &VEC_AT(&f->imports, ix_import, i);
        if (m->name && strcmp(m->name, "*") == 0) continue;
        char first[256];
        const char *bound = ix_import_bound(m, first, sizeof first);
        m->used = strlen(bound) < 3 ? true : ix_file_uses(f, bound) && !ix_attr_only(f, -2, bound);
    }
}

int sunset_index_add(sunset_index *ix, const sunset_source *src) { return sunset_index_add_keep(ix, src, NULL, NULL); }

int sunset_index_add_keep(sunset_index *ix, const sunset_source *src, const void **block_out, size_t *n) {
    if (block_out) *block_out = NULL;
    ix_file *f = sunset_calloc(1, sizeof *f);
    if (!f) return -1;
    /* the file's strings while it is built: most files' fit the first chunk, on the stack */
    char first[2048];
    ix_arena a = {first, first + sizeof first, NULL, 0};
    hset names = {0};
    int rc = -1;
    f->path = ix_strndup(&a, src->path, strlen(src->path));
    if (!f->path) goto cleanup;
    f->lang = src->lang;
    f->size = src->len;
    f->blank = true;
    f->classes = VEC_INIT(ix_class);
    f->funcs = VEC_INIT(ix_func);
    f->imports = VEC_INIT(ix_import);
    f->aliases = VEC_INIT(ix_alias);
    f->includes = VEC_INIT(ix_include);
    f->cmds = VEC_INIT(ix_cmd);
    f->flag_defs = VEC_INIT(ix_word);
    f->pass_regs = VEC_INIT(ix_word);
    f->op_regs = VEC_INIT(ix_word);
    f->reg_uses = VEC_INIT(ix_word);
    f->list_words = VEC_INIT(ix_word);
    f->macros = VEC_INIT(ix_word);
    f->op_runs = VEC_INIT(ix_word);
    uint32_t nl = (uint32_t)ix_count_nl(src->data, src->data + src->len);
    f->n_lines = nl + (src->len && src->data[src->len - 1] != '\n');
    int r = 0;
    switch (src->lang) {
    case SUNSET_LANG_CPP: r = ix_lex_cpp(f, &a, src->data, src->len, &names, ix->roles); break;
    case SUNSET_LANG_PYTHON: r = ix_lex_python(f, &a, src->data, src->len, &names); break;
    case SUNSET_LANG_CMAKE: r = ix_lex_cmake(f, &a, src->data, src->len, &names); break;
    case SUNSET_LANG_SHELL: r = ix_lex_words(f, &a, src->data, src->len, &names, true); break;
    default: f->blank = src->len == 0; break;
    }
    if (r || names.oom) goto cleanup;
    if (!f->names && !ix_hset_sorted(&names, &f->names, &f->n_names)) goto cleanup; /* unless the lexer made them */
    mark_used_imports(f);
    /* the digest goes with an entry the content cache keeps; without the cache it is taken
     * only if asked (sunset_index_facts_digest: the plan's cache key), which an uncached run
     * never does (2% of a cold scan's CPU) */
    if (block_out) f->facts = ix_file_facts(f);
    size_t used = 0;
    char *block = pack_add(ix, f, &used); /* every file's entry lives to the end of the run: exact sizes */
    if (!block) goto cleanup;
    if (block_out) {
        *block_out = block;
        *n = used;
    }
    rc = 0;
cleanup:
    sunset_free(names.slots);
    file_free(f);
    ix_arena_free(&a);
    return rc;
}

bool sunset_index_adopt_hook(void *ud, const sunset_source *src, const void *bytes, size_t n) {
    return sunset_index_adopt(ud, src, bytes, n);
}

void sunset_index_hook(void *ud, const sunset_source *src, const void **block, size_t *n) {
    sunset_index *ix = ud;
    if (sunset_index_add_keep(ix, src, block, n) == 0) return;
    pthread_mutex_lock(&ix->mu);
    ix->oom = true;
    pthread_mutex_unlock(&ix->mu);
}

static int cmp_file(const void *a, const void *b) {
    return strcmp((*(ix_file *const *)a)->path, (*(ix_file *const *)b)->path);
}

/* The path of the file at position i: an entry still in bytes holds its offset. */
static const char *file_path(const sunset_index *ix, size_t i) {
    const ix_file *f = VEC_AT(&ix->files, const ix_file *, i);
    return ix->raw && ix->raw[i] ? (const char *)f + (uintptr_t)f->path : f->path;
}

static uint64_t path_hash(const char *path) { return ix_name_hash(path, strlen(path)); }

/* The path table; without it (out of memory) lookups fall back to the binary search. */
static void build_path_table(sunset_index *ix) {
    sunset_free(ix->path_hash);
    sunset_free(ix->path_pos);
    ix->path_hash = NULL;
    ix->path_pos = NULL;
    ix->path_cap = 0;
    if (!ix->files.n || ix->files.n > UINT32_MAX / 4) return;
    size_t cap = 16;
    while (cap < ix->files.n * 2) cap *= 2;
    uint64_t *h = sunset_calloc(cap, sizeof *h);
    uint32_t *p = sunset_malloc(cap * sizeof *p);
    if (!h || !p) {
        sunset_free(h);
        sunset_free(p);
        return;
    }
    for (size_t i = 0; i < ix->files.n; i++) {
        uint64_t v = path_hash(file_path(ix, i));
        size_t k = v & (cap - 1);
        while (h[k]) k = (k + 1) & (cap - 1);
        h[k] = v;
        p[k] = (uint32_t)i;
    }
    ix->path_hash = h;
    ix->path_pos = p;
    ix->path_cap = cap;
}

/* A file of a lazy finish's sort: its path (read where it lies) and whether it is bytes. */
typedef struct lazy_pos {
    const char *path;
    ix_file *f;
    size_t raw; /* the bytes' length, 0 = rebased */
} lazy_pos;

static int cmp_lazy(const void *a, const void *b) {
    return strcmp(((const lazy_pos *)a)->path, ((const lazy_pos *)b)->path);
}

/* The lexed files and the pending bytes in one sorted list, the bytes marked in ix->raw. */
static bool merge_lazy(sunset_index *ix) {
    size_t n = ix->files.n + ix->pending.n;
    lazy_pos *all = sunset_malloc(n * sizeof *all);
    size_t *raw = sunset_calloc(n, sizeof *raw);
    ix_file **files = sunset_malloc(n * sizeof *files);
    if (!all || !raw || !files) {
        sunset_free(all);
        sunset_free(raw);
        sunset_free(files);
        return false;
    }
    size_t k = 0;
    for (size_t i = 0; i < ix->files.n; i++, k++) {
        all[k].f = VEC_AT(&ix->files, ix_file *, i);
        all[k].path = all[k].f->path;
        all[k].raw = 0;
    }
    for (size_t i = 0; i < ix->pending.n; i++, k++) {
        const ix_raw *r = &VEC_AT(&ix->pending, ix_raw, i);
        all[k].f = (ix_file *)(uintptr_t)r->b;
        all[k].path = r->b + (uintptr_t)all[k].f->path;
        all[k].raw = r->n;
    }
    qsort(all, n, sizeof *all, cmp_lazy);
    for (size_t i = 0; i < n; i++) {
        files[i] = all[i].f;
        raw[i] = all[i].raw;
    }
    sunset_free(all);
    vec_free(&ix->files);
    ix->files.v = files;
    ix->files.n = ix->files.cap = n;
    ix->raw = raw;
    ix->pending.n = 0;
    return true;
}

void sunset_index_finish(sunset_index *ix) {
    if (ix->lazy && ix->pending.n && merge_lazy(ix)) {
        build_path_table(ix);
        ix->finished = true;
        return;
    }
    for (size_t i = 0; i < ix->pending.n; i++) { /* the adopted entries, rebased into copies */
        ix_file *f = rebase_copy(ix, &VEC_AT(&ix->pending, ix_raw, i));
        if (!f || !vec_push(&ix->files, &f)) ix->oom = true;
    }
    ix->pending.n = 0;
    if (ix->files.n) qsort(ix->files.v, ix->files.n, sizeof(ix_file *), cmp_file);
    build_path_table(ix);
    ix->finished = true;
}

bool sunset_index_realize(sunset_index *ix) {
    for (size_t i = 0; ix->raw && i < ix->files.n; i++) {
        if (!ix->raw[i]) continue;
        ix_raw r = {(const char *)VEC_AT(&ix->files, ix_file *, i), ix->raw[i]};
        ix_file *f = rebase_copy(ix, &r);
        if (!f) return !(ix->oom = true);
        VEC_AT(&ix->files, ix_file *, i) = f;
        ix->raw[i] = 0;
    }
    sunset_free(ix->raw);
    ix->raw = NULL;
    return true;
}

long sunset_index_file_pos(const sunset_index *ix, const char *path) {
    if (ix->path_cap) {
        uint64_t v = path_hash(path);
        for (size_t k = v & (ix->path_cap - 1); ix->path_hash[k]; k = (k + 1) & (ix->path_cap - 1))
            if (ix->path_hash[k] == v && strcmp(file_path(ix, ix->path_pos[k]), path) == 0)
                return (long)ix->path_pos[k];
        return -1;
    }
    size_t lo = 0, hi = ix->files.n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        int c = strcmp(file_path(ix, mid), path);
        if (c == 0) return (long)mid;
        if (c < 0) lo = mid + 1;
        else hi = mid;
    }
    return -1;
}

bool sunset_index_file_lines(const sunset_index *ix, const char *path, uint32_t *lines) {
    long p = sunset_index_file_pos(ix, path);
    if (p < 0) return false;
    *lines = VEC_AT(&ix->files, const ix_file *, p)->n_lines;
    return true;
}

const ix_file *sunset_index_file(const sunset_index *ix, const char *path) {
    long p = sunset_index_file_pos(ix, path);
    return p < 0 || (ix->raw && ix->raw[p]) ? NULL : VEC_AT(&ix->files, ix_file *, p);
}

