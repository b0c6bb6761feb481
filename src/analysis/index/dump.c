/*
 * dump.c — one indexed file's facts as stable text, one fact a line, for the data-file tests
 * of the lexers (testdata/facts/, src/test/test_facts.c): what a reviewer reads line by line
 * against the input beside it. Sections in a fixed order, each in the order the lexer found
 * its facts (the file's order); strings quoted as JSON, so a space or a quote in one cannot
 * make two facts look like one. The names a file uses are hashes and are not shown.
 */
#include "analysis/index/ix_int.h"

#include "core/lang.h"

static void lines(sb *b, uint32_t line, uint32_t end) {
    if (end > line) sb_printf(b, " %u-%u", line, end);
    else sb_printf(b, " %u", line);
}

static void str(sb *b, const char *s) {
    sb_putc(b, ' ');
    sb_put_json_str_or_null(b, s);
}

static void classes(sb *b, const ix_file *f) {
    for (size_t i = 0; i < f->classes.n; i++) {
        const ix_class *k = &VEC_AT(&f->classes, ix_class, i);
        sb_puts(b, "class");
        lines(b, k->line, k->end);
        str(b, k->name);
        if (k->top) sb_puts(b, " top");
        if (k->decorated) sb_puts(b, " decorated");
        if (k->used_at) sb_printf(b, " used_at=%u", k->used_at);
        for (uint32_t j = 0; j < k->n_bases; j++) {
            sb_puts(b, j ? "," : " bases:");
            str(b, k->bases[j]);
        }
        sb_putc(b, '\n');
    }
    for (size_t i = 0; i < f->funcs.n; i++) {
        const ix_func *fn = &VEC_AT(&f->funcs, ix_func, i);
        sb_puts(b, "func");
        lines(b, fn->line, fn->end);
        str(b, fn->name);
        sb_putc(b, '\n');
    }
}

static void dependencies(sb *b, const ix_file *f) {
    for (size_t i = 0; i < f->includes.n; i++) {
        const ix_include *in = &VEC_AT(&f->includes, ix_include, i);
        sb_printf(b, "include %u", in->line);
        str(b, in->path);
        sb_putc(b, '\n');
    }
    for (size_t i = 0; i < f->imports.n; i++) {
        const ix_import *m = &VEC_AT(&f->imports, ix_import, i);
        sb_puts(b, "import");
        lines(b, m->line, m->end);
        str(b, m->module);
        if (m->name) sb_puts(b, " name"), str(b, m->name);
        if (m->alias) sb_puts(b, " as"), str(b, m->alias);
        if (m->used) sb_puts(b, " used");
        sb_putc(b, '\n');
    }
    for (size_t i = 0; i < f->aliases.n; i++) {
        const ix_alias *a = &VEC_AT(&f->aliases, ix_alias, i);
        sb_printf(b, "alias %u", a->line);
        str(b, a->name);
        if (a->value) sb_puts(b, " ="), str(b, a->value);
        sb_putc(b, '\n');
    }
}

static void commands(sb *b, const ix_file *f) {
    for (size_t i = 0; i < f->cmds.n; i++) {
        const ix_cmd *c = &VEC_AT(&f->cmds, ix_cmd, i);
        sb_puts(b, "cmake");
        lines(b, c->line, c->end);
        str(b, c->name);
        for (uint32_t j = 0; j < c->n_args; j++) {
            str(b, c->args[j]);
            if (c->arg_lines && c->arg_lines[j] != c->line) sb_printf(b, "@%u", c->arg_lines[j]);
        }
        sb_putc(b, '\n');
    }
}

static void words(sb *b, const char *what, const vec *v) {
    for (size_t i = 0; i < v->n; i++) {
        const ix_word *w = &VEC_AT(v, ix_word, i);
        sb_puts(b, what);
        lines(b, w->line, w->end);
        str(b, w->text);
        sb_putc(b, '\n');
    }
}

void sunset_index_dump(const ix_file *f, sb *b) {
    sb_printf(b, "file %s lines %u%s\n", sunset_lang_name(f->lang), f->n_lines, f->blank ? " blank" : "");
    classes(b, f);
    dependencies(b, f);
    commands(b, f);
    words(b, "flag", &f->flag_defs);
    words(b, "pass", &f->pass_regs);
    words(b, "op", &f->op_regs);
    words(b, "use", &f->reg_uses);
    words(b, "op_run", &f->op_runs);
    words(b, "macro", &f->macros);
    words(b, "word", &f->list_words);
}
