/*
 * verify.c — a removal patch checked against the index (rm_patch_check): the patch is applied
 * in memory (files it deletes, the old lines it removes and what its hunks put in their place)
 * and every reference the closure knows (refs.c: CMake names of files and targets, includes,
 * imports) is re-checked. A reference on a line the patch keeps, or whose replacement still
 * holds the name, to a file the patch deletes or a target whose definition it removes, is
 * dangling. `removable --patch` runs it on its own output and refuses a patch that fails;
 * `removable --check-patch FILE` runs it on any patch. Added lines are not indexed: a patch
 * that adds a new reference to a deleted file is not caught.
 */
#include "analysis/removable/rm_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct pfile {
    bool deleted;
    int32_t *run; /* per old line (1-based): -1 kept, else the replacement run it belongs to */
} pfile;

typedef struct verify {
    pfile *pf;   /* per index file */
    vec runs;    /* sb: the text each run of removed lines was replaced by */
    sb *report;
    size_t n;
} verify;

static bool word_char(unsigned char ch) {
    return (ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '_';
}

static bool has_word(const char *text, const char *w) {
    size_t k = strlen(w);
    for (const char *p = text; k && (p = strstr(p, w)); p++) {
        bool l = p == text || !(word_char((unsigned char)p[-1]) || p[-1] == '.' || p[-1] == '/');
        bool r = !(word_char((unsigned char)p[k]) || p[k] == '.');
        if (l && r) return true;
    }
    return false;
}

/* Is the reference at line of file f, naming tok, gone after the patch? */
static bool gone(const verify *V, size_t f, uint32_t line, const char *tok) {
    const pfile *P = &V->pf[f];
    if (!P->run || !line) return false;
    int32_t r = P->run[line];
    if (r < 0) return false;
    const sb *t = &VEC_AT(&V->runs, sb, r);
    return !t->s || !tok || !has_word(t->s, tok);
}

static void on_ref(ctx *c, const rm_ref *r, void *ud) {
    verify *V = ud;
    uint32_t line = r->cmd ? r->cmd->arg_lines[r->arg] : r->line;
    if (gone(V, r->from, line, r->cmd ? r->token : NULL)) return;
    const char *what = r->to >= 0 ? c->files[r->to]->path : VEC_AT(&c->targets, tgt, r->target).name;
    sb_printf(V->report, "%s:%u: names %s %s, which the patch removes\n", c->files[r->from]->path, line,
              r->to >= 0 ? "deleted file" : "target", what);
    V->n++;
}

/* The file a "diff --git a/X b/X" names, by its a/ path. */
static long header_file(const ctx *c, const char *s, size_t n) {
    if (n < 13 || memcmp(s, "diff --git a/", 13) != 0) return -2;
    const char *p = s + 13, *e = s + n;
    const char *sp = NULL;
    for (const char *q = p; q + 3 <= e; q++)
        if (q[0] == ' ' && q[1] == 'b' && q[2] == '/') sp = q;
    if (!sp) return -2;
    char path[4096];
    size_t pn = (size_t)(sp - p);
    if (pn >= sizeof path) return -1;
    memcpy(path, p, pn);
    path[pn] = 0;
    return sunset_index_file_pos(c->ix, path);
}

/* Read the patch into V. Returns 0, -1 on OOM, or the 1-based line of a malformed hunk. */
static long parse(ctx *c, verify *V, const char *d, size_t len) {
    long cur = -1, lineno = 0;
    bool any = false;
    uint32_t old = 0;
    int32_t run = -1;
    for (size_t i = 0; i < len;) {
        const char *s = d + i, *nl = memchr(s, '\n', len - i);
        size_t n = nl ? (size_t)(nl - s) : len - i;
        i += n + 1;
        lineno++;
        if (n >= 11 && !memcmp(s, "diff --git ", 11)) {
            cur = header_file(c, s, n);
            if (cur == -2) return lineno;
            any = true;
            run = -1;
            continue;
        }
        if (cur < 0) continue; /* a file the index does not hold, or the preamble */
        pfile *P = &V->pf[cur];
        if (n >= 17 && !memcmp(s, "deleted file mode", 17)) {
            P->deleted = true;
            continue;
        }
        if (n >= 4 && (!memcmp(s, "--- ", 4) || !memcmp(s, "+++ ", 4)) && old == 0) continue;
        if (n >= 3 && !memcmp(s, "@@ ", 3)) {
            char *e;
            if (n < 5 || s[3] != '-') return lineno;
            unsigned long a = strtoul(s + 4, &e, 10);
            if (e == s + 4) return lineno;
            old = (uint32_t)a ? (uint32_t)a : 1;
            run = -1;
            if (!P->run) {
                uint32_t nl_ = c->files[cur]->n_lines + 2;
                if (!(P->run = sunset_malloc(nl_ * sizeof(int32_t)))) return -1;
                for (uint32_t k = 0; k < nl_; k++) P->run[k] = -1;
            }
            continue;
        }
        if (!P->run || !n) continue;
        uint32_t max = c->files[cur]->n_lines;
        if (s[0] == ' ') {
            old++;
            run = -1;
        } else if (s[0] == '-') {
            if (run < 0) {
                sb empty = {0};
                if (!vec_push(&V->runs, &empty)) return -1;
                run = (int32_t)(V->runs.n - 1);
            }
            if (old >= 1 && old <= max) P->run[old] = run;
            old++;
        } else if (s[0] == '+') {
            if (run >= 0) {
                sb *t = &VEC_AT(&V->runs, sb, run);
                sb_putn(t, s + 1, n - 1);
                sb_putc(t, '\n');
                if (t->oom) return -1;
            }
        }
    }
    return any || !lineno ? 0 : 1; /* text without a single diff header is no patch */
}

int rm_patch_check(const sunset_index *ix, const sunset_ruleset *rs, const char *patch, size_t len, sb *report,
                   size_t *n_dangling) {
    static const sunset_cross_file none;
    ctx c = {0};
    c.ix = ix;
    c.conv = rs ? &rs->cross_file : &none;
    verify V = {0};
    V.runs = VEC_INIT(sb);
    V.report = report;
    bool *dead = NULL, *dropped = NULL;
    int rc = -1;
    *n_dangling = 0;
    if (!(c.md = pcre2_match_data_create(1, NULL))) return -1;
    if (rm_graph_build(&c)) goto cleanup;
    size_t nf = c.nf ? c.nf : 1;
    V.pf = sunset_calloc(nf, sizeof(pfile));
    dead = sunset_calloc(nf, 1);
    dropped = sunset_calloc(c.targets.n ? c.targets.n : 1, 1);
    if (!V.pf || !dead || !dropped) goto cleanup;
    long bad = parse(&c, &V, patch, len);
    if (bad) {
        if (bad > 0) {
            sb_printf(report, "%ld: malformed patch (expected a git diff: diff --git, @@ -N,M +N,M @@)\n", bad);
            rc = 1;
        }
        goto cleanup;
    }
    for (size_t f = 0; f < c.nf; f++) dead[f] = V.pf[f].deleted;
    /* a target goes when the line of every command defining it goes */
    for (size_t t = 0; t < c.targets.n; t++) {
        const tgt *T = &VEC_AT(&c.targets, tgt, t);
        bool all = T->defs.n > 0;
        for (size_t k = 0; k < T->defs.n && all; k++) {
            const cmdref *r = &VEC_AT(&c.cmds, cmdref, VEC_AT(&T->defs, size_t, k));
            all = dead[r->file] || gone(&V, r->file, r->cmd->line, T->name);
        }
        dropped[t] = all;
    }
    rm_refs_each(&c, dead, dropped, on_ref, &V);
    *n_dangling = V.n;
    rc = report->oom || c.oom ? -1 : 0;
cleanup:
    for (size_t f = 0; V.pf && f < c.nf; f++) sunset_free(V.pf[f].run);
    sunset_free(V.pf);
    for (size_t i = 0; i < V.runs.n; i++) sb_free(&VEC_AT(&V.runs, sb, i));
    vec_free(&V.runs);
    sunset_free(dead);
    sunset_free(dropped);
    rm_graph_free(&c);
    pcre2_match_data_free(c.md);
    return rc;
}
