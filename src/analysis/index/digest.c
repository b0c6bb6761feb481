/*
 * digest.c — one number for every fact a finished index holds but its files' sizes and line
 * counts (sunset_index_facts_digest, index.h): the removal plan's cache key covers the index
 * with it, so an edit that changes no fact (a comment, a line appended) keeps the plan. Every
 * field of every ix_* structure of a file is written in a fixed form (values, never pointers
 * or padding) and hashed when the file is lexed for the content cache (ix_file_facts, kept in
 * the entry, so a file adopted from the content cache brings its digest along), else when the
 * digest is asked; a field added to index.h must be
 * added here, or a plan kept across an edit of that fact would be stale.
 */
#include "analysis/index/ix_int.h"

static void d32(sb *b, uint32_t v) { sb_putn(b, (const char *)&v, 4); }
static void d64(sb *b, uint64_t v) { sb_putn(b, (const char *)&v, 8); }

/* A string with its length (NULL is not ""). */
static void dstr(sb *b, const char *s) {
    d32(b, s ? (uint32_t)strlen(s) : UINT32_MAX);
    if (s) sb_putn(b, s, strlen(s));
}

static void dhashes(sb *b, const uint64_t *v, size_t n) {
    d64(b, n);
    if (n) sb_putn(b, (const char *)v, n * sizeof *v);
}

static void dclasses(sb *b, const ix_file *f) {
    d64(b, f->classes.n);
    for (size_t i = 0; i < f->classes.n; i++) {
        const ix_class *k = &VEC_AT(&f->classes, ix_class, i);
        dstr(b, k->name);
        d32(b, k->line);
        d32(b, k->end);
        d32(b, k->n_bases);
        for (uint32_t j = 0; j < k->n_bases; j++) dstr(b, k->bases[j]);
        d32(b, (uint32_t)k->top | (uint32_t)k->decorated << 1);
        dhashes(b, k->names, k->n_names);
        d32(b, k->used_at);
    }
    d64(b, f->funcs.n);
    for (size_t i = 0; i < f->funcs.n; i++) {
        const ix_func *fn = &VEC_AT(&f->funcs, ix_func, i);
        dstr(b, fn->name);
        d32(b, fn->line);
        d32(b, fn->end);
    }
}

static void ddeps(sb *b, const ix_file *f) {
    d64(b, f->imports.n);
    for (size_t i = 0; i < f->imports.n; i++) {
        const ix_import *m = &VEC_AT(&f->imports, ix_import, i);
        dstr(b, m->module);
        dstr(b, m->name);
        dstr(b, m->alias);
        d32(b, m->line);
        d32(b, m->end);
        d32(b, m->used);
    }
    d64(b, f->aliases.n);
    for (size_t i = 0; i < f->aliases.n; i++) {
        const ix_alias *a = &VEC_AT(&f->aliases, ix_alias, i);
        dstr(b, a->name);
        dstr(b, a->value);
        d32(b, a->line);
    }
    d64(b, f->includes.n);
    for (size_t i = 0; i < f->includes.n; i++) {
        const ix_include *in = &VEC_AT(&f->includes, ix_include, i);
        dstr(b, in->path);
        d32(b, in->line);
    }
}

static void dcmds(sb *b, const ix_file *f) {
    d64(b, f->cmds.n);
    for (size_t i = 0; i < f->cmds.n; i++) {
        const ix_cmd *c = &VEC_AT(&f->cmds, ix_cmd, i);
        dstr(b, c->name);
        d32(b, c->line);
        d32(b, c->end);
        d32(b, c->n_args);
        for (uint32_t j = 0; j < c->n_args; j++) {
            dstr(b, c->args[j]);
            d32(b, c->arg_lines ? c->arg_lines[j] : UINT32_MAX);
        }
    }
}

static void dwords(sb *b, const vec *v) {
    d64(b, v->n);
    for (size_t i = 0; i < v->n; i++) {
        const ix_word *w = &VEC_AT(v, ix_word, i);
        dstr(b, w->text);
        d32(b, w->line);
        d32(b, w->end);
    }
}

/* One file's facts; size and n_lines are left out (the plan's one use of n_lines, a whole
 * file's last line, is taken from the index again when a kept plan is used). */
static void dfile(sb *b, const ix_file *f) {
    dstr(b, f->path);
    d32(b, (uint32_t)f->lang);
    d32(b, f->blank);
    dclasses(b, f);
    ddeps(b, f);
    dcmds(b, f);
    const vec *words[] = {&f->flag_defs, &f->pass_regs, &f->op_regs, &f->reg_uses,
                          &f->list_words, &f->op_runs, &f->macros};
    for (size_t w = 0; w < sizeof words / sizeof words[0]; w++) dwords(b, words[w]);
    dhashes(b, f->names, f->n_names);
    dhashes(b, f->outside, f->n_outside);
    dhashes(b, f->attr, f->n_attr);
}

/* Eight bytes a step (FNV-1a's byte a step was most of the digest's time on a tree's tens of
 * MB of facts); the length goes in last. */
static uint64_t words_hash(const char *p, size_t n, uint64_t h) {
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t v;
        memcpy(&v, p + i, 8);
        h = (h ^ v) * 0x9e3779b97f4a7c15ULL;
        h ^= h >> 29;
    }
    uint64_t tail = 0;
    if (n > i) memcpy(&tail, p + i, n - i);
    h = (h ^ tail ^ ((uint64_t)n << 3)) * 0xc2b2ae3d27d4eb4fULL;
    return h ^ (h >> 31);
}

uint64_t ix_file_facts(const ix_file *f) {
    sb b = {0};
    dfile(&b, f);
    uint64_t h = b.oom ? 0 : words_hash(b.s, b.len, 0x5851f42d4c957f2dULL);
    sb_free(&b);
    return b.oom ? 0 : h ? h : 1;
}

bool sunset_index_facts_digest(const sunset_index *ix, uint64_t seed, uint64_t *out) {
    uint64_t h = hash64("sunset-facts-1", 14, seed ^ ix->files.n);
    bool ok = ix->finished && !ix->oom;
    for (size_t i = 0; ok && i < ix->files.n; i++) {
        const ix_file *f = VEC_AT(&ix->files, const ix_file *, i);
        uint64_t x = f->facts ? f->facts : ix_file_facts(f); /* 0: not taken yet (index.c) */
        ok = x != 0; /* 0: out of memory */
        h = words_hash((const char *)&x, sizeof x, h);
    }
    *out = h;
    return ok;
}
