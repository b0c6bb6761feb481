/*
 * walk.c — the file walker. Directories are read in name order so the file list is
 * deterministic. In a git work tree the .gitignore files of the root's ancestors (up to the
 * work tree's top), .git/info/exclude and every .gitignore met on the way down apply, with
 * git's precedence: deeper files win, the last matching line wins, '!' re-includes.
 * Files git tracks are never dropped by .gitignore (git's own semantics: ignore rules only
 * apply to untracked files): the index, read with libgit2, says which are tracked, and an
 * ignored directory is still entered when tracked files live below it (its untracked files
 * stay ignored). Without a readable index the ignore rules alone decide.
 * Symlinks to directories are never followed (so no loop is possible); a symlink to a file is
 * scanned only when its target resolves inside the root.
 */
#include "base/git.h"
#include "core/walk.h"

#include "core/cache.h"

#include <dirent.h>
#include <git2.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- glob matching ---- */

static bool class_match(const char **pp, char c) {
    const char *p = *pp + 1;
    bool neg = false, ok = false;
    if (*p == '!' || *p == '^') {
        neg = true;
        p++;
    }
    bool first = true;
    while (*p && (first || *p != ']')) {
        first = false;
        char lo = *p, hi = *p;
        if (p[1] == '-' && p[2] && p[2] != ']') {
            hi = p[2];
            p += 2;
        }
        if (c >= lo && c <= hi) ok = true;
        p++;
    }
    if (*p != ']') return false; /* malformed: treat '[' as never matching */
    *pp = p + 1;
    return ok != neg;
}

/* Where the class at p ('[') ends (past its ']'), or NULL when it is malformed; the same
 * reading as class_match. */
static const char *class_end(const char *p) {
    p++;
    if (*p == '!' || *p == '^') p++;
    bool first = true;
    while (*p && (first || *p != ']')) {
        first = false;
        if (p[1] == '-' && p[2] && p[2] != ']') p += 2;
        p++;
    }
    return *p == ']' ? p + 1 : NULL;
}

/* One element of a compiled pattern. */
typedef enum {
    G_LIT,
    G_ANY,
    G_CLASS,
    G_STAR,
    G_DSTAR,
    G_FORK, /* before the G_DSTAR of "**" + "/": consumes nothing; may skip that "**" + "/" */
} gtok_kind;
typedef struct gtok {
    gtok_kind kind;
    char c;          /* G_LIT */
    const char *cls; /* G_CLASS: its '[' in the pattern */
} gtok;

/* Compile p into t (room for strlen(p) tokens: none takes fewer characters than tokens);
 * -1 when a class is malformed (such a pattern never matches). */
static long glob_compile(const char *p, gtok *t) {
    long n = 0;
    while (*p) {
        gtok g = {G_LIT, 0, NULL};
        if (p[0] == '*' && p[1] == '*') {
            g.kind = G_DSTAR;
            p += 2;
            /* "**" + "/" is three tokens: fork, "**", then the '/' as a literal */
            if (*p == '/') t[n++] = (gtok){G_FORK, 0, NULL};
        } else if (*p == '*') {
            g.kind = G_STAR;
            p++;
        } else if (*p == '?') {
            g.kind = G_ANY;
            p++;
        } else if (*p == '[') {
            g.kind = G_CLASS;
            g.cls = p;
            if (!(p = class_end(p))) return -1;
        } else {
            if (*p == '\\' && p[1]) p++;
            g.c = *p++;
        }
        t[n++] = g;
    }
    return n;
}

/* Follow the moves that consume nothing: a star may match the empty run, and "**" + "/"
 * may match nothing at all — only where it starts, hence the fork token, which is never
 * left active by a consuming move. Moves go forward only: one pass in order closes the set. */
static void glob_close(const gtok *t, long n, bool *on) {
    for (long i = 0; i < n; i++) {
        if (!on[i]) continue;
        if (t[i].kind == G_STAR || t[i].kind == G_DSTAR || t[i].kind == G_FORK) on[i + 1] = true;
        if (t[i].kind == G_FORK) on[i + 3] = true; /* past "**" and '/' */
    }
}

/* Simulate the pattern as an automaton over the set of tokens reached so far: O(|p|·|s|)
 * whatever the pattern. The recursive backtracking matcher this replaces was exponential in
 * the number of stars (one 14-character line of a committed .gitignore held a scan for a
 * minute). */
static bool glob_run(const gtok *t, long n, bool *cur, bool *next, const char *s) {
    memset(cur, 0, (size_t)n + 1);
    cur[0] = true;
    glob_close(t, n, cur);
    for (; *s; s++) {
        char c = *s;
        bool any = false;
        memset(next, 0, (size_t)n + 1);
        for (long i = 0; i < n; i++) {
            if (!cur[i]) continue;
            const gtok *g = &t[i];
            switch (g->kind) {
            case G_FORK:
                break;
            case G_STAR:
                if (c != '/') next[i] = any = true;
                break;
            case G_DSTAR:
                next[i] = any = true;
                break;
            case G_ANY:
                if (c != '/') next[i + 1] = any = true;
                break;
            case G_CLASS: {
                const char *q = g->cls;
                if (c != '/' && class_match(&q, c)) next[i + 1] = any = true;
                break;
            }
            case G_LIT:
                if (c == g->c) next[i + 1] = any = true;
                break;
            }
        }
        if (!any) return false;
        glob_close(t, n, next);
        bool *tmp = cur;
        cur = next;
        next = tmp;
    }
    return cur[n];
}

/* The shapes most .gitignore lines have, answered without the automaton: a literal path, a
 * literal prefix (which must match before anything else can), and `*` + literal. Every path
 * of the walk meets every rule, and compiling and running the automaton for each pair was 76%
 * of `check --diff-base`'s CPU on a Paddle checkout (perf). 1 or 0 is the answer; -1 leaves
 * it to the automaton, for the pattern and the text past *skip bytes of literal prefix. */
static int glob_quick(const char *p, const char *s, size_t *skip) {
    static const char meta[] = "*?[\\";
    size_t lit = strcspn(p, meta);
    *skip = 0;
    if (strncmp(p, s, lit) != 0) return 0;
    if (!p[lit]) return s[lit] == 0;
    if (lit == 0 && p[0] == '*' && p[1] != '*' && !p[1 + strcspn(p + 1, meta)]) {
        size_t sl = strlen(s), fl = strlen(p + 1);
        if (sl < fl || strcmp(s + sl - fl, p + 1) != 0) return 0;
        return memchr(s, '/', sl - fl) == NULL; /* the star never crosses a '/' */
    }
    *skip = lit;
    return -1;
}

/* Gitignore-flavour match of the whole of s: `*`, `?` and classes stop at '/', `**`
 * crosses it, `**` + `/` also matches no directory at all, `\\x` is x. */
static bool glob_rec(const char *p, const char *s) {
    size_t skip;
    int quick = glob_quick(p, s, &skip);
    if (quick >= 0) return quick;
    p += skip;
    s += skip;
    size_t pl = strlen(p);
    gtok tbuf[128];
    bool sbuf[2 * 129];
    gtok *t = tbuf;
    bool *sets = sbuf;
    if (pl > 128) { /* long patterns are rare: the heap, and no match if it fails */
        t = sunset_malloc(pl * sizeof *t);
        sets = sunset_malloc(2 * (pl + 1));
        if (!t || !sets) {
            sunset_free(t);
            sunset_free(sets);
            return false;
        }
    }
    long n = glob_compile(p, t);
    bool m = n >= 0 && glob_run(t, n, sets, sets + n + 1, s);
    if (t != tbuf) {
        sunset_free(t);
        sunset_free(sets);
    }
    return m;
}

bool sunset_glob_match(const char *pat, const char *path) {
    if (!strchr(pat, '/')) {
        const char *base = strrchr(path, '/');
        return glob_rec(pat, base ? base + 1 : path);
    }
    if (*pat == '/') pat++;
    return glob_rec(pat, path);
}

/* ---- .gitignore ---- */

typedef struct ign_rule {
    char *pat;     /* relative to base; anchored when it had a '/' */
    char *base;    /* directory of the .gitignore, root-relative ("" = root) */
    bool neg, dir_only, anchored;
    /* taken on the rule's first use (the walk's setup may still rebase pat): every path of
     * the walk meets every rule, and a strlen of base and a strcspn of pat per pair were
     * most of the walk's matching */
    bool shaped;
    int shape;     /* IGN_LITERAL, IGN_STAR_SUFFIX (glob_quick's shapes) or IGN_GLOB */
    size_t bl, pl; /* strlen(base); strlen(pat), or of the suffix after '*' */
} ign_rule;

enum { IGN_GLOB, IGN_LITERAL, IGN_STAR_SUFFIX };

typedef struct walker {
    const char *root;
    const walk_opts *o;
    vec *out;
    walk_stats *st;
    walk_warn_fn warn;
    void *warn_ctx;
    vec ign;        /* ign_rule, a stack: deeper files push, leaving pops */
    vec tracked;    /* char *: root-relative paths of the index's entries, sorted; owned */
    char root_real[PATH_MAX];
    bool in_git;
    sb rel, abs;    /* the walk's current path, root-relative and whole */
} walker;

static void warnf(walker *w, const char *fmt, const char *a, const char *b) {
    if (!w->warn) return;
    char buf[1024];
    snprintf(buf, sizeof buf, fmt, a, b);
    w->warn(w->warn_ctx, buf);
}

static void ign_load(walker *w, const char *file, const char *base) {
    char *text;
    size_t len;
    /* never through a symlink (git does not follow a symlinked .gitignore either), and
     * only a regular file (read_file refuses a FIFO or device without blocking) */
    if (read_file_flags(file, O_NOFOLLOW, 1 << 20, &text, &len)) return;
    char *line = text;
    while (line && *line) {
        char *nl = strchr(line, '\n');
        if (nl) *nl = 0;
        size_t n = strlen(line);
        if (n && line[n - 1] == '\r') line[--n] = 0;
        while (n && line[n - 1] == ' ' && (n < 2 || line[n - 2] != '\\')) line[--n] = 0;
        char *p = line;
        if (*p && *p != '#') {
            ign_rule r = {0};
            if (*p == '!') {
                r.neg = true;
                p++;
            } else if (*p == '\\' && (p[1] == '#' || p[1] == '!')) {
                p++;
            }
            n = strlen(p);
            if (n && p[n - 1] == '/') {
                r.dir_only = true;
                p[--n] = 0;
            }
            if (n) {
                r.anchored = strchr(p, '/') != NULL;
                if (*p == '/') p++;
                r.pat = sunset_strndup(p, strlen(p));
                r.base = sunset_strndup(base, strlen(base));
                if (!r.pat || !r.base || !vec_push(&w->ign, &r)) {
                    sunset_free(r.pat);
                    sunset_free(r.base);
                }
            }
        }
        line = nl ? nl + 1 : NULL;
    }
    sunset_free(text);
}

static void ign_pop_to(walker *w, size_t n) {
    while (w->ign.n > n) {
        ign_rule *r = &VEC_AT(&w->ign, ign_rule, w->ign.n - 1);
        sunset_free(r->pat);
        sunset_free(r->base);
        w->ign.n--;
    }
}

static void ign_shape(ign_rule *r) {
    static const char meta[] = "*?[\\";
    const char *p = r->pat;
    size_t lit = strcspn(p, meta);
    r->bl = strlen(r->base);
    r->shape = IGN_GLOB;
    if (!p[lit]) {
        r->shape = IGN_LITERAL;
        r->pl = lit;
    } else if (lit == 0 && p[0] == '*' && p[1] != '*' && !p[1 + strcspn(p + 1, meta)]) {
        r->shape = IGN_STAR_SUFFIX;
        r->pl = strlen(p + 1);
    }
    r->shaped = true;
}

/* Rule r's pattern against t (tl bytes), as glob_rec would answer. */
static bool ign_match(const ign_rule *r, const char *t, size_t tl) {
    switch (r->shape) {
    case IGN_LITERAL: return tl == r->pl && memcmp(t, r->pat, tl) == 0;
    case IGN_STAR_SUFFIX: /* the star never crosses a '/' */
        return tl >= r->pl && memcmp(t + tl - r->pl, r->pat + 1, r->pl) == 0 && !memchr(t, '/', tl - r->pl);
    default: return glob_rec(r->pat, t);
    }
}

/* Is root-relative `rel` ignored? Rules are consulted last to first: the last match decides.
 * A pattern without a '/' meets the path's last component (sunset_glob_match), the same one
 * below any rule's base. */
static bool ignored(walker *w, const char *rel, bool is_dir) {
    size_t rl = strlen(rel);
    const char *slash = strrchr(rel, '/'), *name = slash ? slash + 1 : rel;
    size_t nl = rl - (size_t)(name - rel);
    for (size_t i = w->ign.n; i-- > 0;) {
        ign_rule *r = &VEC_AT(&w->ign, ign_rule, i);
        if (r->dir_only && !is_dir) continue;
        if (!r->shaped) ign_shape(r);
        const char *sub = rel;
        size_t sl = rl;
        if (r->bl) {
            if (rl <= r->bl || rel[r->bl] != '/' || memcmp(rel, r->base, r->bl) != 0) continue;
            sub = rel + r->bl + 1;
            sl = rl - r->bl - 1;
        }
        bool m = r->anchored ? ign_match(r, sub, sl) : ign_match(r, name, nl);
        if (m) return !r->neg;
    }
    return false;
}

/* ---- the index: files git tracks ---- */

static int cmp_names(const void *a, const void *b);

/* Load the root-relative paths of the index's entries under the root (gitlinks left out:
 * a submodule is another repository). Silent when there is no readable repository. Only
 * for a walk without a checkout (walk_find_git's fallback): a command hands o->tracked. */
static void tracked_load(walker *w) {
    sunset_git_init();
    git_repository *repo = NULL;
    git_index *idx = NULL;
    char wd[PATH_MAX];
    if (sunset_git_open(&repo, w->root_real, 0) || git_repository_is_bare(repo) ||
        !git_repository_workdir(repo) || !realpath(git_repository_workdir(repo), wd) ||
        git_repository_index(&idx, repo))
        goto cleanup;
    /* the root's offset in the work tree: "" at the top, "sub/dir/" below it */
    size_t wl = strlen(wd);
    if (strncmp(w->root_real, wd, wl) != 0 || (w->root_real[wl] && w->root_real[wl] != '/')) goto cleanup;
    const char *off = w->root_real + wl + (w->root_real[wl] == '/');
    size_t ol = strlen(off);
    size_t n = git_index_entrycount(idx);
    for (size_t i = 0; i < n; i++) {
        const git_index_entry *e = git_index_get_byindex(idx, i);
        if (!e || e->mode == GIT_FILEMODE_COMMIT) continue;
        const char *p = e->path;
        if (ol) {
            if (strncmp(p, off, ol) != 0 || p[ol] != '/') continue;
            p += ol + 1;
        }
        /* a conflicted path has one entry per stage, adjacent: keep one */
        if (w->tracked.n && strcmp(VEC_AT(&w->tracked, char *, w->tracked.n - 1), p) == 0) continue;
        char *d = sunset_strndup(p, strlen(p));
        if (d && !vec_push(&w->tracked, &d)) sunset_free(d);
    }
    /* the index is sorted already; sorting again costs little and is what bsearch relies on */
    if (w->tracked.n) qsort(w->tracked.v, w->tracked.n, sizeof(char *), cmp_names);
cleanup:
    git_index_free(idx);
    git_repository_free(repo);
}

/* The first tracked path not below key in sort order. */
static size_t tracked_lower(const walker *w, const char *key) {
    size_t lo = 0, hi = w->tracked.n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (strcmp(VEC_AT(&w->tracked, char *, mid), key) < 0) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

/* Is rel tracked (a file) or does a tracked file live below it (a directory)? */
static bool tracked(const walker *w, const char *rel, bool is_dir) {
    if (!w->tracked.n) return false;
    if (!is_dir) {
        size_t i = tracked_lower(w, rel);
        return i < w->tracked.n && strcmp(VEC_AT(&w->tracked, char *, i), rel) == 0;
    }
    sb k = {0};
    sb_printf(&k, "%s/", rel);
    bool found = false;
    if (!k.oom) {
        size_t i = tracked_lower(w, k.s);
        found = i < w->tracked.n && strncmp(VEC_AT(&w->tracked, char *, i), k.s, k.len) == 0;
    }
    sb_free(&k);
    return found;
}

static bool globs_match(const char *const *g, size_t n, const char *rel) {
    for (size_t i = 0; i < n; i++) {
        if (sunset_glob_match(g[i], rel)) return true;
        /* "dir/" or "dir/**" style: a glob naming a directory covers what is below it */
        size_t gl = strlen(g[i]);
        if (gl && g[i][gl - 1] == '/' && strncmp(rel, g[i], gl) == 0) return true;
    }
    return false;
}

bool walk_selected(const walk_opts *o, const char *rel) {
    if (o->n_exclude && globs_match(o->exclude, o->n_exclude, rel)) return false;
    return !o->n_include || globs_match(o->include, o->n_include, rel);
}

static void add_file(walker *w, const char *rel) {
    if (!walk_selected(w->o, rel)) {
        w->st->excluded++;
        return;
    }
    char *s = sunset_strndup(rel, strlen(rel));
    if (s && vec_push(w->out, &s)) w->st->files++;
    else sunset_free(s);
}

static int cmp_names(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Is the resolved path of abs inside the root? */
static bool inside_root(walker *w, const char *abs) {
    char real[PATH_MAX];
    if (!realpath(abs, real)) return false;
    size_t n = strlen(w->root_real);
    return strncmp(real, w->root_real, n) == 0 && (real[n] == '/' || real[n] == 0 ||
                                                   (n == 1 && w->root_real[0] == '/'));
}

/* An entry whose path the system cannot take (more than PATH_MAX): said and counted, not
 * silently lost. */
static void too_long(walker *w, const char *rel) {
    w->st->too_long++;
    if (!w->warn) return;
    sb m = {0}; /* not warnf: its buffer is shorter than such a path */
    sb_printf(&m, "%s: warning: path too long, skipped", rel);
    if (!m.oom) w->warn(w->warn_ctx, m.s);
    sb_free(&m);
}

/* Does the directory hold a CACHEDIR.TAG (ours or any tool's)? Such a directory is a cache,
 * recognised by content wherever --cache or SUNSET_CACHE_DIR put it. */
bool walk_cachedir_tag(const char *data, size_t len) {
    return len >= sizeof SUNSET_CACHEDIR_SIGNATURE - 1 &&
           memcmp(data, SUNSET_CACHEDIR_SIGNATURE, sizeof SUNSET_CACHEDIR_SIGNATURE - 1) == 0;
}

bool walk_name_skipped(const char *name, bool gate) {
    return strcmp(name, ".git") == 0 || (!gate && strcmp(name, ".sunset-cache") == 0);
}

static bool cachedir_tagged(const char *abs) {
    sb p = {0};
    char *text = NULL;
    size_t len = 0;
    sb_printf(&p, "%s/CACHEDIR.TAG", abs);
    bool tag = !p.oom && read_file_flags(p.s, O_NOFOLLOW, 4096, &text, &len) == 0 && walk_cachedir_tag(text, len);
    sunset_free(text);
    sb_free(&p);
    return tag;
}

static bool starts(const char *data, size_t len, const char *head) {
    size_t n = strlen(head);
    return len >= n && memcmp(data, head, n) == 0;
}

static size_t digits(const char *p, const char *end) {
    size_t n = 0;
    while (p + n < end && p[n] >= '0' && p[n] <= '9') n++;
    return n;
}

/* The text report's first line: "PATH:LINE:COL: SEVERITY: [RULE-ID] ", the rule id right
 * after the severity (compilers and linters put their [check] at the end), or its summary
 * alone ("N files scanned, " when nothing was found). */
static bool text_report(const char *data, size_t len) {
    const char *end = memchr(data, '\n', len < 4096 ? len : 4096);
    if (!end) end = data + (len < 4096 ? len : 4096);
    size_t d = digits(data, end);
    if (d && starts(data + d, (size_t)(end - data - d), " files scanned, ")) return true;
    for (const char *p = data; p < end; p++) {
        if (*p != ':') continue;
        size_t l = digits(p + 1, end);
        if (!l || p + 1 + l >= end || p[1 + l] != ':') continue;
        size_t c = digits(p + 2 + l, end);
        const char *q = p + 2 + l + c;
        if (!c) continue;
        static const char *const sev[] = {": error: [", ": warning: [", ": info: ["};
        for (size_t i = 0; i < 3; i++)
            if (starts(q, (size_t)(end - q), sev[i]) && q + strlen(sev[i]) < end && q[strlen(sev[i])] >= 'A' &&
                q[strlen(sev[i])] <= 'Z')
                return true;
    }
    return false;
}

bool sunset_own_output(const char *data, size_t len) {
    static const char *const heads[] = {
        "{\"version\":1,\"root\":",              /* scan --format json, schema 1 */
        "{\"version\":2,\"root\":",              /* scan --format json, schema 2 (remnants) */
        "{\"version\":1,\"range\":",             /* history --format json */
        "{\"version\":1,\"shard\":",             /* history --shard --format json */
        "{\n  \"version\": 1,\n  \"tool\": \"sunset ", /* a baseline */
        "## sunset: ",                             /* the markdown summary */
        "{\"version\":1,\"manifest\":",          /* report --format json */
        "<!-- sunset:tracking:begin -->",          /* report (markdown), an --update body */
        "# Removal plan: ",                        /* removable (markdown) */
        "commit,date,subject,pr,findings,files,",  /* history (csv) */
    };
    for (size_t i = 0; i < sizeof heads / sizeof *heads; i++)
        if (starts(data, len, heads[i])) return true;
    size_t head = len < 1024 ? len : 1024;
    /* removable --format json; `::error file=...,title=sunset RULE` annotations (github) */
    static const char plan[] = "\"summary\": {\"files_indexed\"", annot[] = ",title=sunset ";
    if (starts(data, len, "{\"version\": 1, \"root\": ") && memmem(data, head, plan, sizeof plan - 1)) return true;
    if ((starts(data, len, "::error file=") || starts(data, len, "::warning file=") ||
         starts(data, len, "::notice file=")) &&
        memmem(data, head, annot, sizeof annot - 1))
        return true;
    if (text_report(data, len)) return true;
    /* SARIF: the driver's name, near the top whatever the layout */
    static const char sarif[] = "\"driver\":{\"name\":\"sunset\"";
    return len > 9 && memcmp(data, "{\"$schema\"", 10) == 0 && memmem(data, head, sarif, sizeof sarif - 1);
}

/* One directory being walked. The walk is iterative, a stack of these: a recursive walker
 * ran out of stack at ~1,800 nested directories (SIGSEGV). The paths live in the walker's two
 * shared buffers, so the stack costs one frame per level plus its directory's names. */
typedef struct wframe {
    vec names;          /* char *: the entries, sorted, each with its d_type after the NUL */
    size_t next;        /* the next entry to take */
    size_t rel_len;     /* this directory's path lengths in w->rel and w->abs */
    size_t abs_len;
    size_t ign_mark;    /* w->ign.n before its .gitignore was loaded */
    bool under_ignored; /* an ignored directory entered for the tracked files below it; nothing
                         * untracked below it is taken (git cannot re-include there either) */
    bool tracked_only;  /* a cache directory entered by the gate for the tracked files below */
} wframe;

static void path_cut(sb *b, size_t n) {
    b->len = n;
    if (b->s) b->s[n] = 0;
}

static void dir_close(walker *w, wframe *f) {
    for (size_t i = 0; i < f->names.n; i++) sunset_free(VEC_AT(&f->names, char *, i));
    vec_free(&f->names);
    ign_pop_to(w, f->ign_mark);
}

/* A directory entered whose listing names a CACHEDIR.TAG: is it a cache (the tag's
 * signature), and then one left out (ignored, counted) rather than entered for its tracked
 * files only? The tag is read only when the listing has one: a probe per directory was
 * ~1,650 failed opens a scan of the Paddle tree. */
static bool cache_left_out(walker *w, wframe *f) {
    if (!cachedir_tagged(w->abs.s)) return false;
    if (!(w->o->gate && tracked(w, w->rel.s, true))) {
        w->st->ignored++;
        return true;
    }
    f->tracked_only = true;
    return false;
}

/* Open the directory at w->rel / w->abs: load its .gitignore, read and sort its entries.
 * One below the walk's start (`below`) is first asked whether it is a cache (cache_left_out).
 * False (warned and counted) when it cannot be read or is left out. */
static bool dir_open(walker *w, bool below, bool under_ignored, bool tracked_only, wframe *f) {
    const char *rel = w->rel.len ? w->rel.s : "";
    DIR *d = w->abs.oom || w->rel.oom ? NULL : opendir(w->abs.s);
    if (!d && errno == ENAMETOOLONG) {
        too_long(w, rel);
        return false;
    }
    if (!d) {
        w->st->unreadable_dirs++;
        warnf(w, "skipping %s: %s", *rel ? rel : ".", strerror(errno));
        return false;
    }
    *f = (wframe){VEC_INIT(char *), 0, w->rel.len, w->abs.len, w->ign.n, under_ignored, tracked_only};
    bool has_gi = false; /* the directory lists a .gitignore: only then is one opened */
    bool has_tag = false; /* likewise a CACHEDIR.TAG */
    struct dirent *de;
    while ((de = readdir(d))) {
        has_gi |= strcmp(de->d_name, ".gitignore") == 0;
        has_tag |= strcmp(de->d_name, "CACHEDIR.TAG") == 0;
        if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0 || walk_name_skipped(de->d_name, w->o->gate))
            continue;
        /* the entry's d_type rides in the byte after the name's NUL: a regular file or a
         * directory needs no lstat (one per entry was 4.3% of a cold scan's CPU, perf) */
        size_t nl = strlen(de->d_name);
        char *s = sunset_malloc(nl + 2);
        if (!s) continue;
        memcpy(s, de->d_name, nl + 1);
        s[nl + 1] = (char)de->d_type;
        if (!vec_push(&f->names, &s)) sunset_free(s);
    }
    closedir(d);
    if (has_tag && below && cache_left_out(w, f)) {
        dir_close(w, f);
        return false;
    }
    w->st->dirs++;
    if (has_gi && w->in_git && w->o->gitignore) {
        sb gi = {0};
        sb_printf(&gi, "%s/.gitignore", w->abs.s);
        if (!gi.oom) ign_load(w, gi.s, rel);
        sb_free(&gi);
    }
    if (f->names.n) qsort(f->names.v, f->names.n, sizeof(char *), cmp_names);
    return true;
}

/* Take one entry of the directory f, whose path is in w->rel / w->abs; the entry's path is
 * appended to both. True when it is a directory to enter, *enter_ignored and *enter_tracked
 * saying whether it is entered only for the tracked files below it. */
static bool take_entry(walker *w, const wframe *f, const char *name, bool *enter_ignored, bool *enter_tracked) {
    if (f->rel_len) sb_putc(&w->rel, '/');
    sb_puts(&w->rel, name);
    sb_putc(&w->abs, '/');
    sb_puts(&w->abs, name);
    if (w->rel.oom || w->abs.oom) return false;
    struct stat st;
    unsigned char type = (unsigned char)name[strlen(name) + 1];
    if (type == DT_REG || type == DT_DIR) {
        memset(&st, 0, sizeof st);
        st.st_mode = type == DT_REG ? S_IFREG : S_IFDIR;
    } else if (lstat(w->abs.s, &st) != 0) {
        if (errno == ENAMETOOLONG) too_long(w, w->rel.s);
        return false;
    }
    bool is_dir = S_ISDIR(st.st_mode);
    if (S_ISLNK(st.st_mode)) {
        struct stat tst;
        if (stat(w->abs.s, &tst) != 0 || S_ISDIR(tst.st_mode) || !inside_root(w, w->abs.s)) {
            w->st->symlinks_skipped++;
            return false;
        }
        st = tst;
    }
    /* a file git tracks is taken whatever the ignore rules say (git ignores only untracked
     * paths), so its index entry answers first: one binary search, where the rules were ~110
     * pattern tests per file of the real Paddle tree. A directory's answer is needed below it. */
    bool known = !is_dir && w->tracked.n && tracked(w, w->rel.s, false);
    bool ign = !known && w->in_git && w->o->gitignore && (f->under_ignored || ignored(w, w->rel.s, is_dir));
    if (!known && (ign || f->tracked_only) && !tracked(w, w->rel.s, is_dir)) {
        w->st->ignored++;
    } else if (is_dir) {
        bool cache = strcmp(name, ".sunset-cache") == 0; /* a tagged one: dir_open */
        if (w->o->n_exclude && globs_match(w->o->exclude, w->o->n_exclude, w->rel.s)) w->st->excluded++;
        else if (cache && !(w->o->gate && tracked(w, w->rel.s, true))) w->st->ignored++;
        else return *enter_ignored = ign, *enter_tracked = f->tracked_only || cache, true;
    } else if (S_ISREG(st.st_mode)) {
        add_file(w, w->rel.s);
    }
    return false;
}

/* Walk the directory rel, depth first in name order. */
static void walk_dir(walker *w, const char *rel, bool under_ignored) {
    path_cut(&w->rel, 0);
    path_cut(&w->abs, 0);
    sb_puts(&w->rel, rel);
    sb_printf(&w->abs, "%s%s%s", w->root, *rel ? "/" : "", rel);
    vec stack = VEC_INIT(wframe);
    wframe f;
    if (dir_open(w, false, under_ignored, false, &f) && !vec_push(&stack, &f)) dir_close(w, &f);
    while (stack.n) {
        wframe *top = &VEC_AT(&stack, wframe, stack.n - 1);
        if (top->next == top->names.n) {
            dir_close(w, top);
            stack.n--;
            continue;
        }
        const char *name = VEC_AT(&top->names, char *, top->next++);
        path_cut(&w->rel, top->rel_len); /* back to this directory's path */
        path_cut(&w->abs, top->abs_len);
        bool ign = false, tracked_only = false;
        if (take_entry(w, top, name, &ign, &tracked_only) && dir_open(w, true, ign, tracked_only, &f) &&
            !vec_push(&stack, &f))
            dir_close(w, &f);
    }
    vec_free(&stack);
}

/* The fallback for a walk without a checkout (o->tracked NULL: library and test callers):
 * is dir the top of a git work tree (it holds .git)? git_setup asks it for the root and
 * each parent, nearest first; walk_tree then reads that work tree's index (tracked_load).
 * The only place the walk finds a work tree itself: a command's walk is handed the top and
 * the tracked paths by its checkout (base/checkout.h). */
static bool walk_find_git(const char *dir) {
    char probe[PATH_MAX + 8];
    struct stat st;
    snprintf(probe, sizeof probe, "%s/.git", dir);
    return stat(probe, &st) == 0;
}

/* Where the work tree holding root is (the caller's top, or walk_find_git); load the ignore
 * files above root. */
static void git_setup(walker *w) {
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", w->root_real);
    vec chain = VEC_INIT(char *); /* ancestor dirs from root up to the top */
    bool given = w->o->tracked != NULL;
    for (;;) {
        if (given && !w->o->top) break; /* the caller knows: in no work tree */
        char *s = sunset_strndup(dir, strlen(dir));
        if (s && !vec_push(&chain, &s)) sunset_free(s);
        if (given ? strcmp(dir, w->o->top) == 0 : walk_find_git(dir)) {
            w->in_git = true;
            break;
        }
        char *slash = strrchr(dir, '/');
        if (!slash || slash == dir) break;
        *slash = 0;
    }
    if (w->in_git && w->o->gitignore) {
        char path[PATH_MAX + 32];
        snprintf(path, sizeof path, "%s/.git/info/exclude", dir);
        /* Ancestor .gitignore files apply to root's contents as if written at root, as long
         * as their patterns are not anchored below a path we cannot express; we rebase
         * anchored patterns by stripping the root's offset from the ancestor. */
        ign_load(w, path, "");
        for (size_t i = chain.n; i-- > 1;) {
            const char *anc = VEC_AT(&chain, char *, i);
            snprintf(path, sizeof path, "%s/.gitignore", anc);
            size_t mark = w->ign.n;
            ign_load(w, path, "");
            /* anchored patterns relative to the ancestor: keep those under root's offset */
            const char *off = w->root_real + strlen(anc);
            if (*off == '/') off++;
            size_t ol = strlen(off);
            for (size_t k = mark; k < w->ign.n; k++) {
                ign_rule *r = &VEC_AT(&w->ign, ign_rule, k);
                if (!r->anchored) continue;
                if (strncmp(r->pat, off, ol) == 0 && r->pat[ol] == '/') {
                    memmove(r->pat, r->pat + ol + 1, strlen(r->pat + ol + 1) + 1);
                } else {
                    /* anchored outside root: make it unmatchable (no path holds \x01) */
                    r->pat[0] = '\x01';
                    r->pat[1] = 0;
                }
            }
        }
        /* the root's own .gitignore is loaded by walk_dir */
    }
    for (size_t i = 0; i < chain.n; i++) sunset_free(VEC_AT(&chain, char *, i));
    vec_free(&chain);
}

int walk_tree(const char *root, const char *start, const walk_opts *o, vec *out, walk_stats *st,
              walk_warn_fn warn, void *warn_ctx) {
    walker w = {root, o, out, st, warn, warn_ctx, VEC_INIT(ign_rule), VEC_INIT(char *), {0}, false, {0}, {0}};
    if (!realpath(root, w.root_real)) return errno;
    git_setup(&w);
    bool borrowed = w.in_git && (o->gitignore || o->gate) && o->tracked;
    if (borrowed) w.tracked = *o->tracked; /* the checkout read the index once */
    else if (w.in_git && (o->gitignore || o->gate)) tracked_load(&w);
    int rc = 0;
    if (!start || !*start || strcmp(start, ".") == 0) {
        walk_dir(&w, "", false);
    } else {
        sb abs = {0};
        sb_printf(&abs, "%s/%s", root, start);
        struct stat s;
        if (abs.oom) rc = ENOMEM;
        else if (stat(abs.s, &s) != 0) rc = errno;
        else if (S_ISDIR(s.st_mode)) {
            /* load .gitignore files between root and start */
            if (w.in_git && o->gitignore) {
                sb rgi = {0};
                sb_printf(&rgi, "%s/.gitignore", root);
                if (!rgi.oom) ign_load(&w, rgi.s, "");
                sb_free(&rgi);
                char *tmp = sunset_strndup(start, strlen(start));
                for (char *p = tmp; p && *p; p++) {
                    if (*p != '/') continue;
                    *p = 0;
                    sb gi = {0};
                    sb_printf(&gi, "%s/%s/.gitignore", root, tmp);
                    if (!gi.oom) ign_load(&w, gi.s, tmp);
                    sb_free(&gi);
                    *p = '/';
                }
                sunset_free(tmp);
            }
            walk_dir(&w, start, false);
        } else if (S_ISREG(s.st_mode)) {
            add_file(&w, start); /* named explicitly: not subject to .gitignore */
        } else {
            rc = EINVAL;
        }
        sb_free(&abs);
    }
    ign_pop_to(&w, 0);
    vec_free(&w.ign);
    sb_free(&w.rel);
    sb_free(&w.abs);
    if (!borrowed) {
        for (size_t i = 0; i < w.tracked.n; i++) sunset_free(VEC_AT(&w.tracked, char *, i));
        vec_free(&w.tracked);
    }
    return rc;
}
