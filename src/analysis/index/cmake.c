/*
 * cmake.c — the index's CMake lexer (commands with their unquoted arguments and the line of
 * each, bracket comments skipped, ${VAR} kept whole) and the word lexer for shell scripts and
 * other text.
 */
#include "analysis/index/ix_int.h"

/* The bytes that end an unquoted argument (a NUL too: it separates like a blank). */
static const bool arg_stop[256] = {
    [' '] = true, ['\t'] = true, ['\r'] = true, ['\n'] = true, ['('] = true, [')'] = true, ['#'] = true, ['"'] = true,
    [0] = true,
};

/* A comment from i: where its line ends. */
static size_t skip_line(const char *d, size_t i, size_t len) {
    const char *nl = memchr(d + i, '\n', len - i);
    return nl ? (size_t)(nl - d) : len;
}

int ix_lex_cmake(ix_file *f, ix_arena *ar, const char *d, size_t len, hset *names) {
    uint32_t line = 1;
    size_t i = 0;
    bool oom = false;
    sb a = {0}; /* the argument being read; its buffer serves every argument */
    while (i < len && !oom) {
        unsigned char ch = (unsigned char)d[i];
        if (ch == '\n') {
            line++;
            i++;
            continue;
        }
        if (ch == '#') {
            if (i + 2 < len && d[i + 1] == '[' && d[i + 2] == '[') {
                const char *e = memmem(d + i, len - i, "]]", 2);
                size_t stop = e ? (size_t)(e - d) + 2 : len;
                for (size_t k = i; k < stop; k++)
                    if (d[k] == '\n') line++;
                i = stop;
                continue;
            }
            i = skip_line(d, i, len);
            continue;
        }
        if (!id_start(ch)) {
            i++;
            continue;
        }
        size_t s = i;
        i = (size_t)(ix_id_end(d + i, d + len) - d);
        size_t nl = i - s;
        size_t p = i;
        while (p < len && (d[p] == ' ' || d[p] == '\t')) p++;
        if (p >= len || d[p] != '(') continue;
        f->blank = false;
        ix_cmd cmd = {ix_strndup(ar, d + s, nl), line, line, NULL, NULL, 0};
        if (!cmd.name) {
            oom = true;
            break;
        }
        for (char *c = cmd.name; *c; c++)
            if (*c >= 'A' && *c <= 'Z') *c = (char)(*c - 'A' + 'a');
        vec args = VEC_INIT(char *), lines = VEC_INIT(uint32_t);
        i = p + 1;
        int depth = 1;
        while (i < len && depth > 0) {
            ch = (unsigned char)d[i];
            if (ch == '\n') {
                line++;
                i++;
                continue;
            }
            /* a NUL byte separates like a blank: the unquoted-argument loop below stops at
             * it (strchr finds the terminator) without consuming it, which never advanced */
            if (ch == ' ' || ch == '\t' || ch == '\r' || ch == 0) {
                i++;
                continue;
            }
            if (ch == '#') {
                i = skip_line(d, i, len);
                continue;
            }
            if (ch == '(') {
                depth++;
                i++;
                continue;
            }
            if (ch == ')') {
                depth--;
                i++;
                continue;
            }
            uint32_t at = line;
            a.len = 0;
            if (ch == '"') {
                i++;
                while (i < len && d[i] != '"') {
                    /* a run of plain bytes at once */
                    size_t run = (size_t)(ix_find3(d + i, d + len, '"', '\\', '\n') - (d + i));
                    if (run) {
                        sb_putn(&a, d + i, run);
                        i += run;
                        continue;
                    }
                    if (d[i] == '\\' && i + 1 < len) {
                        sb_putc(&a, d[i + 1]);
                        i += 2;
                        continue;
                    }
                    if (d[i] == '\n') line++;
                    sb_putc(&a, d[i++]);
                }
                i++;
            } else { /* the argument is the bytes up to a stop (${...} whole), copied at once */
                size_t start = i;
                while (i < len && !arg_stop[(unsigned char)d[i]]) {
                    if (d[i] == '$' && i + 1 < len && d[i + 1] == '{') {
                        while (i < len && d[i] != '}' && d[i] != '\n') i++;
                        if (i < len && d[i] == '}') i++;
                        continue;
                    }
                    i++;
                }
                sb_putn(&a, d + start, i - start);
            }
            if (a.oom) oom = true;
            char *arg = ix_sb_take(ar, &a);
            if (!arg || !vec_push(&lines, &at) || !vec_push(&args, &arg)) {
                if (lines.n > args.n) lines.n = args.n;
                arg = NULL;
                oom = true;
            }
            /* words inside the argument are names (DEPS entries, FLAGS_x=1 in ENVS) */
            for (size_t k = 0; arg && arg[k];) {
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
        cmd.end = line;
        cmd.args = args.v;
        cmd.arg_lines = lines.v;
        cmd.n_args = (uint32_t)args.n;
        if (!vec_push(&f->cmds, &cmd)) {
            vec_free(&args);
            vec_free(&lines);
            oom = true;
        }
    }
    sb_free(&a);
    return oom ? -1 : 0;
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
