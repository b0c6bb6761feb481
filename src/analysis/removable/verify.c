/*
 * verify.c — a removal patch checked against the index (rm_patch_check): the patch is applied
 * in memory (files it deletes, the old lines it removes and what its hunks put in their place)
 * and every reference the closure knows (refs.c: CMake names of files and targets, includes,
 * imports) is re-checked. A reference on a line the patch keeps, or whose replacement still
 * holds the name, to a file the patch deletes or a target whose definition it removes, is
 * dangling; so is a C++ include the patch removes along with the header while the file still
 * uses what the header declares, and a USE_PASS / USE_OP / DECLARE_FILE_SYMBOLS left linking a
 * symbol only deleted files define (refs.c link_refs). `removable --patch` runs it on its own
 * output and refuses a patch that fails; `removable --check-patch FILE` runs it on any patch. Added lines are not indexed: a patch
 * that adds a new reference to a deleted file is not caught.
 */
#include "analysis/removable/rm_int.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct pfile {
    bool deleted;
    char *renamed_to; /* a rename's new path; owned */
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

/* Did the patch put an #include where it removed the line of file f? */
static bool replaced_by_include(const verify *V, size_t f, uint32_t line) {
    const pfile *P = &V->pf[f];
    if (!P->run || !line || P->run[line] < 0) return false;
    const sb *t = &VEC_AT(&V->runs, sb, P->run[line]);
    return t->s && strstr(t->s, "#include");
}

static void on_ref(ctx *c, const rm_ref *r, void *ud) {
    verify *V = ud;
    uint32_t line = r->cmd ? r->cmd->arg_lines[r->arg] : r->line;
    if (gone(V, r->from, line, r->cmd ? r->token : NULL)) {
        /* a C++ include that counts (the file uses a class, function or constant the header
         * declares) cannot just go with the header: the uses stay and no longer compile. A
         * rename, or an include put in its place (a migration), may provide them. */
        if (r->cmd || r->link || r->to < 0 || r->how != RM_REF_KEEP || c->files[r->from]->lang != SUNSET_LANG_CPP ||
            V->pf[r->to].renamed_to || replaced_by_include(V, r->from, line))
            return;
        sb_printf(V->report, "%s:%u: the patch removes the include of deleted file %s, whose declarations the file still uses\n",
                  c->files[r->from]->path, line, c->files[r->to]->path);
        V->n++;
        return;
    }
    const char *what = r->to >= 0 ? c->files[r->to]->path : VEC_AT(&c->targets, tgt, r->target).name;
    const char *moved = r->to >= 0 ? V->pf[r->to].renamed_to : NULL;
    if (moved)
        sb_printf(V->report, "%s:%u: names %s, which the patch renames to %s\n", c->files[r->from]->path, line,
                  what, moved);
    else
        sb_printf(V->report, "%s:%u: names %s %s, which the patch removes\n", c->files[r->from]->path, line,
                  r->to >= 0 ? "deleted file" : "target", what);
    V->n++;
}

/* ---- the patch, parsed: a section per file, each with its hunks ---- */

typedef struct phunk {
    uint32_t old_start, old_n, new_start, new_n;
    size_t body, body_end; /* byte offsets of its lines in the patch */
    long lineno;           /* its @@ line, 1-based */
} phunk;

typedef struct psec {
    char *a, *b;           /* the old and the new path (owned); NULL: /dev/null */
    bool deleted, created, renamed, copied;
    long lineno;           /* its diff --git line */
    vec hunks;             /* phunk */
} psec;

static void secs_free(vec *secs) {
    for (size_t i = 0; i < secs->n; i++) {
        psec *S = &VEC_AT(secs, psec, i);
        sunset_free(S->a);
        sunset_free(S->b);
        vec_free(&S->hunks);
    }
    vec_free(secs);
}

/* One path as git writes it at s (n bytes): C-quoted ("a/\346\226\207.cc", core.quotePath) or
 * bare. *used: the bytes it took (a bare one: up to `stop`, or all). NULL when malformed;
 * owned. */
static char *git_path(const char *s, size_t n, const char *stop, size_t *used) {
    sb o = {0};
    if (n && s[0] == '"') {
        size_t i = 1;
        for (; i < n && s[i] != '"'; i++) {
            unsigned char ch = (unsigned char)s[i];
            if (ch != '\\') {
                sb_putc(&o, (char)ch);
                continue;
            }
            if (++i >= n) break;
            const char *esc = "abtnvfr\"\\", *val = "\a\b\t\n\v\f\r\"\\";
            const char *e = strchr(esc, s[i]);
            if (e && s[i]) sb_putc(&o, val[e - esc]);
            else if (s[i] >= '0' && s[i] <= '3' && i + 2 < n && s[i + 1] >= '0' && s[i + 1] <= '7' &&
                     s[i + 2] >= '0' && s[i + 2] <= '7') {
                sb_putc(&o, (char)((s[i] - '0') * 64 + (s[i + 1] - '0') * 8 + (s[i + 2] - '0')));
                i += 2;
            } else break;
        }
        if (i >= n || s[i] != '"' || !o.len) {
            sb_free(&o);
            return NULL;
        }
        *used = i + 1;
    } else {
        const char *e = stop ? stop : s + n;
        while (e > s && (e[-1] == '\t' || e[-1] == '\r')) e--; /* `--- a/x y\t`: git's tab */
        sb_putn(&o, s, (size_t)(e - s));
        *used = (size_t)((stop ? stop : s + n) - s);
        if (!o.len) return NULL;
    }
    if (o.oom) return NULL;
    sb_putc(&o, 0); /* an empty sb has no string: make one, then drop the NUL */
    o.len--;
    return sb_take(&o);
}

/* The path without its "a/" / "b/" prefix, in place; NULL for /dev/null. */
static char *strip_prefix(char *p) {
    if (p && !strcmp(p, "/dev/null")) {
        sunset_free(p);
        return NULL;
    }
    if (p && (p[0] == 'a' || p[0] == 'b') && p[1] == '/') memmove(p, p + 2, strlen(p + 2) + 1);
    return p;
}

/* "diff --git A B" (from s + 11): both paths, quoted or bare. A bare pair is split at its last
 * " b/" (git writes the same path twice; a rename's paths come again in rename from/to). */
static bool header_paths(psec *S, const char *s, size_t n) {
    size_t used = 0;
    const char *sp = NULL;
    if (n && s[0] != '"') {
        for (const char *q = s; q + 3 <= s + n; q++)
            if (q[0] == ' ' && (q[1] == 'b' || q[1] == '"') && (q[1] == '"' || q[2] == '/')) sp = q;
        if (!sp) return false;
    }
    if (!(S->a = strip_prefix(git_path(s, n, sp, &used)))) return false;
    if (used >= n || s[used] != ' ') return false;
    used++;
    size_t u2 = 0;
    return (S->b = strip_prefix(git_path(s + used, n - used, NULL, &u2))) && used + u2 == n;
}

/* "@@ -a[,b] +c[,d] @@". */
static bool hunk_header(phunk *h, const char *s, size_t n) {
    char buf[128];
    if (n >= sizeof buf) n = sizeof buf - 1;
    memcpy(buf, s, n);
    buf[n] = 0;
    char *e;
    if (strncmp(buf, "@@ -", 4) != 0) return false;
    h->old_start = (uint32_t)strtoul(buf + 4, &e, 10);
    if (e == buf + 4) return false;
    h->old_n = *e == ',' ? (uint32_t)strtoul(e + 1, &e, 10) : 1;
    if (strncmp(e, " +", 2) != 0) return false;
    char *f = e + 2;
    h->new_start = (uint32_t)strtoul(f, &e, 10);
    if (e == f) return false;
    h->new_n = *e == ',' ? (uint32_t)strtoul(e + 1, &e, 10) : 1;
    return strncmp(e, " @@", 3) == 0;
}

/* An extended header line of section S ("rename from X" ...): true when it was one. Sets *bad
 * on a malformed path. */
static bool ext_header(psec *S, const char *s, size_t n, bool *bad) {
    static const struct {
        const char *w;
        int what; /* 1 rename from, 2 rename to, 3 copy from, 4 copy to, 5 deleted, 6 new, 0 other */
    } ext[] = {{"rename from ", 1}, {"rename to ", 2}, {"copy from ", 3}, {"copy to ", 4},
               {"deleted file mode ", 5}, {"new file mode ", 6}, {"old mode ", 0}, {"new mode ", 0},
               {"similarity index ", 0}, {"dissimilarity index ", 0}, {"index ", 0}, {"Binary files ", 0},
               {"GIT binary patch", 0}};
    for (size_t k = 0; k < sizeof ext / sizeof ext[0]; k++) {
        size_t wn = strlen(ext[k].w);
        if (n < wn || memcmp(s, ext[k].w, wn) != 0) continue;
        int w = ext[k].what;
        if (w == 5) S->deleted = true;
        if (w == 6) S->created = true;
        if (w >= 1 && w <= 4) {
            size_t used;
            char *p = git_path(s + wn, n - wn, NULL, &used);
            if (!p) {
                *bad = true;
                return true;
            }
            char **into = w == 1 || w == 3 ? &S->a : &S->b;
            sunset_free(*into);
            *into = p;
            if (w <= 2) S->renamed = true;
            else S->copied = true;
        }
        return true;
    }
    return false;
}

/* Split the patch into sections. Returns 0, -1 on OOM, or the 1-based line of what is
 * malformed. */
static long parse_secs(const char *d, size_t len, vec *secs) {
    long lineno = 0;
    psec *S = NULL;
    phunk *H = NULL;
    uint32_t left_old = 0, left_new = 0; /* lines the open hunk still holds */
    for (size_t i = 0; i < len;) {
        const char *s = d + i, *nl = memchr(s, '\n', len - i);
        size_t n = nl ? (size_t)(nl - s) : len - i;
        i += n + 1;
        lineno++;
        if (H && (left_old || left_new)) {
            char k = n ? s[0] : ' '; /* an empty context line: its blank stripped */
            if (k == '\\') continue;  /* "\ No newline at end of file" */
            if (k == ' ' && left_old && left_new) left_old--, left_new--;
            else if (k == '-' && left_old) left_old--;
            else if (k == '+' && left_new) left_new--;
            else return lineno;
            H->body_end = i > len ? len : i;
            continue;
        }
        if (n && s[0] == '\\' && H) continue;
        if (n >= 11 && !memcmp(s, "diff --git ", 11)) {
            psec z = {0};
            z.lineno = lineno;
            z.hunks = VEC_INIT(phunk);
            if (!vec_push(secs, &z)) return -1;
            S = &VEC_AT(secs, psec, secs->n - 1);
            H = NULL;
            if (!header_paths(S, s + 11, n - 11)) return lineno;
            continue;
        }
        if (!S) continue; /* the preamble (a mail's text, a commit message) */
        bool bad = false;
        if (!H && ext_header(S, s, n, &bad)) {
            if (bad) return lineno;
            continue;
        }
        if (!H && n >= 4 && (!memcmp(s, "--- ", 4) || !memcmp(s, "+++ ", 4))) {
            size_t used;
            char *p = strip_prefix(git_path(s + 4, n - 4, NULL, &used));
            bool dev_null = n - 4 >= 9 && !memcmp(s + 4, "/dev/null", 9);
            if (!p && !dev_null) return lineno;
            char **into = s[0] == '-' ? &S->a : &S->b;
            if (!S->renamed && !S->copied) {
                sunset_free(*into);
                *into = p;
            } else sunset_free(p);
            continue;
        }
        if (n >= 3 && !memcmp(s, "@@ ", 3)) {
            phunk h = {0};
            if (!hunk_header(&h, s, n)) return lineno;
            h.lineno = lineno;
            h.body = h.body_end = i > len ? len : i;
            if (!vec_push(&S->hunks, &h)) return -1;
            H = &VEC_AT(&S->hunks, phunk, S->hunks.n - 1);
            left_old = h.old_n;
            left_new = h.new_n;
            continue;
        }
        if (H) H = NULL; /* text after a section's last hunk: the mail's signature */
    }
    if (H && (left_old || left_new)) return lineno; /* a hunk cut short */
    return secs->n || !lineno ? 0 : 1;              /* text without a single diff header is no patch */
}

/* The patch applied to the index: deleted and renamed files, and per kept line the run of
 * removed lines it is in. Returns 0, -1 on OOM, or the line of a malformed part. */
static long parse(ctx *c, verify *V, const char *d, size_t len) {
    vec secs = VEC_INIT(psec);
    long bad = parse_secs(d, len, &secs);
    for (size_t k = 0; !bad && k < secs.n; k++) {
        const psec *S = &VEC_AT(&secs, psec, k);
        long cur = S->a ? sunset_index_file_pos(c->ix, S->a) : -1;
        if (cur < 0) continue; /* a new file, or one the index does not hold */
        pfile *P = &V->pf[cur];
        if (S->deleted || (S->renamed && S->b && strcmp(S->a, S->b) != 0)) {
            P->deleted = true;
            if (S->renamed && !S->deleted && !(P->renamed_to = rm_dupz(S->b))) bad = -1;
        }
        for (size_t h = 0; !bad && h < S->hunks.n; h++) {
            const phunk *H = &VEC_AT(&S->hunks, phunk, h);
            uint32_t max = c->files[cur]->n_lines, old = H->old_start ? H->old_start : 1;
            int32_t run = -1;
            if (!P->run) {
                if (!(P->run = sunset_malloc((max + 2) * sizeof(int32_t)))) bad = -1;
                for (uint32_t l = 0; P->run && l < max + 2; l++) P->run[l] = -1;
            }
            for (size_t i = H->body; !bad && i < H->body_end;) {
                const char *s = d + i, *nl = memchr(s, '\n', H->body_end - i);
                size_t n = nl ? (size_t)(nl - s) : H->body_end - i;
                i += n + 1;
                char kind = n ? s[0] : ' ';
                if (kind == ' ') {
                    old++;
                    run = -1;
                } else if (kind == '-') {
                    if (run < 0) {
                        sb empty = {0};
                        if (!vec_push(&V->runs, &empty)) bad = -1;
                        run = (int32_t)(V->runs.n - 1);
                    }
                    if (old >= 1 && old <= max) P->run[old] = run;
                    old++;
                } else if (kind == '+' && run >= 0) {
                    sb *t = &VEC_AT(&V->runs, sb, run);
                    sb_putn(t, s + 1, n - 1);
                    sb_putc(t, '\n');
                    if (t->oom) bad = -1;
                }
            }
        }
    }
    secs_free(&secs);
    return bad;
}

/* ---- does the patch apply to the tree on disk? ---- */

typedef struct flines {
    char *text;
    const char **at;
    size_t *len;
    size_t n;
    bool exists;
} flines;

static int flines_read(const char *root, const char *path, flines *L) {
    memset(L, 0, sizeof *L);
    char *full = rm_fmt("%s/%s", root, path);
    if (!full) return -1;
    size_t len = 0;
    struct stat st;
    int e = 0;
    if (!lstat(full, &st) && S_ISLNK(st.st_mode)) {
        /* a symlink's content, as git diffs it: its target, one line without a newline */
        size_t cap = (size_t)st.st_size + 1 > 4096 ? (size_t)st.st_size + 1 : 4096;
        ssize_t k = (L->text = sunset_malloc(cap + 1)) ? readlink(full, L->text, cap) : -1;
        if (!L->text) e = ENOMEM;
        else if (k < 0) e = errno;
        else L->text[len = (size_t)k] = 0;
    } else e = read_file_flags(full, O_NOFOLLOW, 0, &L->text, &len);
    sunset_free(full);
    if (e == ENOENT || e == ENOTDIR || e == ELOOP || e == EINVAL) return 0; /* none, or no regular file */
    if (e) return e == ENOMEM ? -1 : 0;
    L->exists = true;
    size_t n = 0;
    for (size_t i = 0; i < len; i++) n += L->text[i] == '\n';
    n += len && L->text[len - 1] != '\n';
    L->at = sunset_malloc((n ? n : 1) * sizeof *L->at);
    L->len = sunset_malloc((n ? n : 1) * sizeof *L->len);
    if (!L->at || !L->len) return -1;
    for (size_t i = 0; i < len && L->n < n;) {
        const char *nl = memchr(L->text + i, '\n', len - i);
        size_t k = nl ? (size_t)(nl - (L->text + i)) : len - i;
        L->at[L->n] = L->text + i;
        L->len[L->n++] = k;
        i += k + 1;
    }
    return 0;
}

static void flines_free(flines *L) {
    sunset_free(L->text);
    sunset_free(L->at);
    sunset_free(L->len);
}

/* Do the hunk's lines of one side (old: ' ' and '-'; new: ' ' and '+') stand in L from line
 * `from` (0-based)? */
static bool side_at(const char *d, const phunk *H, bool old, const flines *L, size_t from) {
    size_t l = from;
    for (size_t i = H->body; i < H->body_end;) {
        const char *s = d + i, *nl = memchr(s, '\n', H->body_end - i);
        size_t n = nl ? (size_t)(nl - s) : H->body_end - i;
        i += n + 1;
        char kind = n ? s[0] : ' ';
        if (kind == '\\' || kind == (old ? '+' : '-')) continue;
        const char *t = n ? s + 1 : s;
        size_t tn = n ? n - 1 : 0;
        if (l >= L->n || L->len[l] != tn || memcmp(L->at[l], t, tn) != 0) return false;
        l++;
    }
    return true;
}

/* Where one side of the hunk stands in L: at its line, or anywhere (git apply's offset). */
static bool side_found(const char *d, const phunk *H, bool old, const flines *L) {
    uint32_t start = old ? H->old_start : H->new_start, cnt = old ? H->old_n : H->new_n;
    size_t at = start ? start - 1 : 0;
    if (!cnt) return at <= L->n;
    if (side_at(d, H, old, L, at)) return true;
    for (size_t l = 0; l + cnt <= L->n; l++)
        if (l != at && side_at(d, H, old, L, l)) return true;
    return false;
}

enum { AP_APPLIES, AP_APPLIED, AP_NOT };

/* One section against the tree: applies, is applied already, or neither (*line: where). */
static int sec_state(const char *root, const char *d, const psec *S, long *line) {
    flines A = {0}, B = {0};
    int st = AP_NOT;
    *line = S->lineno;
    if ((S->a && flines_read(root, S->a, &A)) || (S->b && flines_read(root, S->b, &B))) {
        st = -1;
        goto done;
    }
    bool moved = (S->renamed || S->copied) && S->a && S->b && strcmp(S->a, S->b) != 0;
    if (S->created || !S->a) {
        /* a new file: applied when it is there with the patch's lines */
        st = !B.exists ? AP_APPLIES : AP_NOT;
        for (size_t h = 0; B.exists && h < S->hunks.n; h++)
            if (!side_found(d, &VEC_AT(&S->hunks, phunk, h), false, &B)) goto done;
        if (B.exists) st = AP_APPLIED;
        goto done;
    }
    if (!A.exists) {
        /* gone already: deleted, or renamed to a file that is there */
        st = S->deleted || (S->renamed && B.exists) ? AP_APPLIED : AP_NOT;
        goto done;
    }
    if (moved && B.exists && !S->copied) goto done; /* both sides there: a rename cannot apply */
    /* every hunk's old lines in the file: it applies; every hunk's new lines: applied already */
    bool all_old = true, all_new = !S->deleted && !moved && S->hunks.n > 0;
    for (size_t h = 0; h < S->hunks.n; h++) {
        const phunk *H = &VEC_AT(&S->hunks, phunk, h);
        bool o = side_found(d, H, true, &A);
        if (!o && all_old) *line = H->lineno;
        all_old &= o;
        all_new &= side_found(d, H, false, &A);
    }
    if (S->deleted && all_old) {
        size_t total = 0; /* a deletion's one hunk holds the whole file */
        for (size_t h = 0; h < S->hunks.n; h++) total += VEC_AT(&S->hunks, phunk, h).old_n;
        if (S->hunks.n && total != A.n) all_old = false, *line = VEC_AT(&S->hunks, phunk, 0).lineno;
    }
    st = all_old ? AP_APPLIES : all_new ? AP_APPLIED : AP_NOT;
done:
    flines_free(&A);
    flines_free(&B);
    return st;
}

int rm_patch_applies(const char *root, const char *patch, size_t len, sb *why) {
    vec secs = VEC_INIT(psec);
    long bad = parse_secs(patch, len, &secs);
    int rc = 0;
    if (bad) {
        if (bad > 0) sb_printf(why, "%ld: malformed patch (expected a git diff: diff --git, @@ -N,M +N,M @@)\n", bad);
        rc = bad < 0 ? -1 : RM_PATCH_MALFORMED;
        goto done;
    }
    size_t applied = 0, applies = 0;
    const psec *first_applied = NULL;
    for (size_t k = 0; k < secs.n; k++) {
        const psec *S = &VEC_AT(&secs, psec, k);
        long line;
        int st = sec_state(root, patch, S, &line);
        if (st < 0) {
            rc = -1;
            goto done;
        }
        if (st == AP_NOT) {
            sb_printf(why, "%ld: does not apply to %s\n", line, S->a ? S->a : S->b);
            rc = RM_PATCH_NOT_APPLYING;
            goto done;
        }
        if (st == AP_APPLIED && !first_applied) first_applied = S;
        applied += st == AP_APPLIED;
        applies += st == AP_APPLIES;
    }
    if (applied && !applies) {
        sb_printf(why, "%ld: already applied (%s%s)\n", first_applied->lineno,
                  first_applied->a ? first_applied->a : first_applied->b,
                  applied > 1 ? " and the rest" : "");
        rc = RM_PATCH_APPLIED;
    } else if (applied) {
        sb_printf(why, "%ld: does not apply: partly applied already (%s)\n", first_applied->lineno,
                  first_applied->a ? first_applied->a : first_applied->b);
        rc = RM_PATCH_NOT_APPLYING;
    }
done:
    secs_free(&secs);
    return rc;
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
    if (!(c.md = sunset_re_match_data(1))) return -1;
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
    for (size_t f = 0; V.pf && f < c.nf; f++) {
        sunset_free(V.pf[f].run);
        sunset_free(V.pf[f].renamed_to);
    }
    sunset_free(V.pf);
    for (size_t i = 0; i < V.runs.n; i++) sb_free(&VEC_AT(&V.runs, sb, i));
    vec_free(&V.runs);
    sunset_free(dead);
    sunset_free(dropped);
    rm_graph_free(&c);
    pcre2_match_data_free(c.md);
    return rc;
}
