/*
 * cmake.c — the index's view of CMake (commands with their arguments and the line of each,
 * read by the one CMake tokenizer, base/cmake.c, that the text frontend uses too) and the
 * word lexer for shell scripts and other text.
 */
#include "analysis/index/ix_int.h"
#include "base/cmake.h"

/* What the tokenizer's command callback fills. */
typedef struct ix_cm {
    ix_file *f;
    ix_arena *ar;
    hset *names;
    sb a; /* the argument being decoded; its buffer serves every argument */
    bool oom;
} ix_cm;

/* The words inside an argument are names (DEPS entries, FLAGS_x=1 in ENVS). */
static void arg_names(hset *names, const char *arg) {
    for (size_t k = 0; arg[k];) {
        if (id_start((unsigned char)arg[k])) {
            size_t e = k;
            while (arg[e] && id_char((unsigned char)arg[e])) e++;
            ix_hset_name(names, arg + k, e - k);
            k = e;
        } else {
            k++;
        }
    }
}

/* The arguments of c (parentheses aside) into cmd: a quoted one with its escapes
 * resolved, the others as written. False on OOM. */
static bool cm_args(ix_cm *s, const cmake_command *c, vec *args, vec *lines) {
    for (size_t i = 0; i < c->n_args; i++) {
        const cmake_arg *x = &c->args[i];
        if (x->kind == CMAKE_LPAREN || x->kind == CMAKE_RPAREN) continue;
        s->a.len = 0;
        if (x->kind == CMAKE_QUOTED) cmake_unescape(&s->a, x->text, x->len);
        else sb_putn(&s->a, x->text, x->len);
        if (s->a.oom) return false;
        char *arg = ix_sb_take(s->ar, &s->a);
        uint32_t at = x->span.line;
        if (!arg || !vec_push(lines, &at) || !vec_push(args, &arg)) {
            if (lines->n > args->n) lines->n = args->n;
            return false;
        }
        arg_names(s->names, arg);
    }
    return true;
}

/* A complete command: its lower-cased name, line range and arguments into f->cmds. */
static void cm_command(void *ctx, const cmake_command *c) {
    ix_cm *s = ctx;
    if (s->oom) return;
    s->f->blank = false;
    ix_cmd cmd = {ix_strndup(s->ar, c->name, c->name_len), c->line, c->end_line, NULL, NULL, 0};
    if (!cmd.name) {
        s->oom = true;
        return;
    }
    for (char *p = cmd.name; *p; p++)
        if (*p >= 'A' && *p <= 'Z') *p = (char)(*p - 'A' + 'a');
    vec args = VEC_INIT(char *), lines = VEC_INIT(uint32_t);
    if (!cm_args(s, c, &args, &lines)) s->oom = true;
    cmd.args = args.v;
    cmd.arg_lines = lines.v;
    cmd.n_args = (uint32_t)args.n;
    if (!vec_push(&s->f->cmds, &cmd)) {
        vec_free(&args);
        vec_free(&lines);
        s->oom = true;
    }
}

int ix_lex_cmake(ix_file *f, ix_arena *ar, const char *d, size_t len, hset *names) {
    ix_cm s = {f, ar, names, {0}, false};
    vec args = VEC_INIT(cmake_arg);
    cmake_lexer x = {0};
    x.args = &args;
    x.command = cm_command;
    x.ctx = &s;
    cmake_lex(&x, d, len);
    vec_free(&args);
    sb_free(&s.a);
    return s.oom || x.oom ? -1 : 0;
}

/* ---- shell and other text: words ---- */

int ix_lex_words(ix_file *f, ix_arena *a, const char *d, size_t len, hset *names, bool list) {
    uint32_t line = 1;
    for (size_t i = 0; i < len;) {
        unsigned char ch = (unsigned char)d[i];
        if (ch == '\n') {
            line++;
            i++;
            continue;
        }
        if (!id_start(ch) || (i > 0 && id_char((unsigned char)d[i - 1]))) {
            if (!(ch == ' ' || ch == '\t' || ch == '\r')) f->blank = false;
            i++;
            continue;
        }
        f->blank = false;
        size_t e = i;
        while (e < len && id_char((unsigned char)d[e])) e++;
        ix_hset_name(names, d + i, e - i);
        if (list && e - i >= 6 && (memmem(d + i, e - i, "test", 4) || memmem(d + i, e - i, "Test", 4)) &&
            !ix_word_push(a, &f->list_words, d + i, e - i, line, line))
            return -1;
        i = e;
    }
    return 0;
}
