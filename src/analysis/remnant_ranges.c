/*
 * remnant_ranges.c — what a remnant takes once the file's remnants are built (remnant.c's
 * build_file calls these last, with the removal plan only: they read the file from disk):
 * overlapping code remnants are one edit, migrate winning (merge_overlap); a comment attached
 * to a code remnant, a message string in its statement or in the check of a name it declares
 * just after it, goes with it (attach_text); a block's whole body takes its header, a chained
 * C++ call's tail its head (block_ranges); a path rule's remnant is about the file
 * (path_remnants). README "Remnants".
 */
#include "analysis/remnant_int.h"

#include "core/lang.h"
#include "core/ruleset.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define OVERLAP_WHY "overlaps another remnant's lines: one edit, migrate when anything in it stays live"
#define ATTACHED_WHY "annotates the code remnant it is attached to: it goes with that code's edit"

static bool ident_char(char ch) {
    return isalnum((unsigned char)ch) || ch == '_';
}

static int cmp_index(const void *x, const void *y) {
    size_t a = *(const size_t *)x, b = *(const size_t *)y;
    return a < b ? -1 : a > b;
}

/* b merged into a (absorb), a's range taken down to b's first line, its findings ascending
 * again and its severity that of its action; b is removed from out. false on OOM. */
static bool merge_into(build_ctx *c, sunset_remnants *out, sunset_remnant *a, sunset_remnant *b, const char *why) {
    if (b->line < a->line) a->line = b->line; /* first: a deletion's hint names the range */
    if (!rem_absorb(a, b) || (why && !rem_evidence(a, why))) return false;
    qsort(a->findings, a->n_findings, sizeof *a->findings, cmp_index);
    a->severity = rem_severity(c, a);
    size_t i = (size_t)(b - out->v);
    memmove(b, b + 1, (out->n - i - 1) * sizeof *b);
    out->n--;
    return true;
}

/* b merged into a, or a into b when a is a delete and b a migrate (the live one absorbs the
 * other: the unit goes only with its consumer); the survivor at a's place. why when the
 * actions differed (or always_why). false on OOM. */
static bool merge_live_first(build_ctx *c, sunset_remnants *out, sunset_remnant *a, sunset_remnant *b,
                             bool always_why) {
    bool flip = a->action == SUNSET_ACT_DELETE && b->action == SUNSET_ACT_MIGRATE;
    bool differ = a->action != b->action;
    if (flip) {
        sunset_remnant t = *a;
        *a = *b, *b = t;
    }
    return merge_into(c, out, a, b, (always_why && differ) || flip ? OVERLAP_WHY : NULL);
}

/* Two code remnants whose lines overlap (a CMake list taken whole, lines 18-39, and one of its
 * entries' own remnant, line 38) are one edit: remnants never ask contradictory actions of one
 * line. The unit is migrate when either is (something in it stays live: it goes only with its
 * consumer), else delete. The last remnant of out against the one before it. */
int rem_merge_overlap(build_ctx *c, sunset_remnants *out, size_t first) {
    while (out->n - 1 > first) {
        sunset_remnant *b = &out->v[out->n - 1], *a = b - 1;
        if (a->file || b->file || b->line > a->end_line || a->action == SUNSET_ACT_DOC || b->action == SUNSET_ACT_DOC)
            return 0;
        if (!merge_live_first(c, out, a, b, true)) return -1;
    }
    return 0;
}

/* Is every line [a, z] of text (lines 1-based) a comment line of lang: `//`, `/*`, ` *` in
 * C/C++, `#` elsewhere? A blank line is not (a blank line ends a comment's attachment). */
static bool comment_lines(const char *text, sunset_lang lang, uint32_t a, uint32_t z) {
    const char *p = text;
    for (uint32_t l = 1; l < a && p; l++) p = (p = strchr(p, '\n')) ? p + 1 : NULL;
    for (uint32_t l = a; l <= z; l++) {
        if (!p || !*p) return false;
        while (*p == ' ' || *p == '\t') p++;
        bool ok = lang == SUNSET_LANG_CPP ? (p[0] == '/' && (p[1] == '/' || p[1] == '*')) || p[0] == '*' : p[0] == '#';
        if (!ok) return false;
        p = strchr(p, '\n');
        p = p ? p + 1 : NULL;
    }
    return true;
}

/* The text of the file being built (path), under the result's root: read once for all the
 * range passes (c->text, freed by build_file); NULL when unreadable. */
static const char *file_text(build_ctx *c, const char *path) {
    if (!c->text_tried) {
        c->text_tried = true;
        sb full = {0};
        if (c->res->root && strcmp(c->res->root, "-")) sb_printf(&full, "%s/", c->res->root);
        sb_puts(&full, path);
        if (full.oom || read_file_sb(full.s, 0, &c->text)) sb_free(&c->text);
        sb_free(&full);
    }
    return c->text.s;
}

/* A deletion's hint over its lines, "delete lines A-B", after its range grew (a remnant whose
 * hint is another's, or that is no deletion, keeps its own); -1 on OOM. */
static int refix(sunset_remnant *m) {
    if (m->action != SUNSET_ACT_DELETE || strncmp(m->fix, "delete line", 11) != 0) return 0;
    sb fix = {0};
    sb_puts(&fix, "delete ");
    rem_line_range(&fix, m->line, m->end_line);
    if (fix.oom) return sb_free(&fix), -1;
    sunset_free(m->fix);
    m->fix = sb_take(&fix);
    return 0;
}

static void drop_evidence(sunset_remnant *m) {
    for (size_t i = 0; i < m->n_evidence; i++) sunset_free(m->evidence[i]);
    m->n_evidence = 0;
}

/* Is every finding of m of context ctx? */
static bool all_ctx(const sunset_result *res, const sunset_remnant *m, sunset_context ctx) {
    for (size_t i = 0; i < m->n_findings; i++)
        if (res->findings[m->findings[i]].ctx != ctx) return false;
    return true;
}

/* Line l (1-based) of text, its indentation in *ind; NULL past the end. */
static const char *line_at(const char *text, uint32_t l, size_t *ind) {
    const char *p = text;
    for (uint32_t k = 1; k < l && p; k++) p = (p = strchr(p, '\n')) ? p + 1 : NULL;
    if (!p || !*p) return NULL;
    const char *q = p;
    while (*q == ' ' || *q == '\t') q++;
    *ind = (size_t)(q - p);
    return q;
}

/* Does the (indentation-stripped) line start with keyword w, followed by one of the chars in
 * next (or the end of the line when next holds '\n')? CMake's commands are case-insensitive. */
static bool starts_kw(const char *p, const char *w, const char *next) {
    size_t n = strlen(w);
    if (strncasecmp(p, w, n)) return false;
    p += n;
    if (*p && strchr(next, *p)) return true;
    while (*p == ' ' || *p == '\t') p++;
    return strchr(next, *p ? *p : '\n') != NULL;
}

typedef enum { HDR_NONE, HDR_IF, HDR_BRANCH, HDR_END, HDR_BLOCK } hdr_kind;

/* A CMake line's part in an if() block: `if(`, a branch (`elseif(`, `else(`), `endif(`. */
static hdr_kind cmake_hdr(const char *p) {
    if (!p) return HDR_NONE;
    if (starts_kw(p, "if", "(")) return HDR_IF;
    if (starts_kw(p, "elseif", "(") || starts_kw(p, "else", "(")) return HDR_BRANCH;
    return starts_kw(p, "endif", "(") ? HDR_END : HDR_NONE;
}

/* A Python block header on one line: `if ...:`, a branch (`elif ...:`, `else:`), a loop or
 * `with` (HDR_BLOCK); a definition, `try` and its handlers are not taken. */
static hdr_kind py_hdr(const char *p) {
    if (!p) return HDR_NONE;
    const char *e = p + strcspn(p, "\n");
    while (e > p && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r')) e--;
    if (e == p || e[-1] != ':') return HDR_NONE;
    if (starts_kw(p, "if", " (")) return HDR_IF;
    if (starts_kw(p, "elif", " (") || starts_kw(p, "else", ":")) return HDR_BRANCH;
    return starts_kw(p, "for", " (") || starts_kw(p, "while", " (") || starts_kw(p, "with", " (") ? HDR_BLOCK : HDR_NONE;
}

/* The first line after z that is neither blank nor a comment, or 0 at the end of text. */
static uint32_t next_code(const char *text, sunset_lang lang, uint32_t z, size_t *ind) {
    for (uint32_t l = z + 1;; l++) {
        const char *p = line_at(text, l, ind);
        if (!p) return 0;
        if (*p && *p != '\n' && *p != '\r' && !comment_lines(text, lang, l, l)) return l;
    }
}

/* Does the text remnant d (strings only) sit in the statement of the code remnant u before it
 * (`PADDLE_ENFORCE_NOT_NULL(\n dynamic_cast<XOpHandle *>(op),\n errors::X(\n "... XOpHandle")`):
 * each string's statement holds a line of u? Its message goes with the statement's edit. */
static bool in_statement(const sunset_result *res, const sunset_remnant *u, const sunset_remnant *d) {
    if (!all_ctx(res, d, SUNSET_CTX_STRING)) return false;
    for (size_t i = 0; i < d->n_findings; i++) {
        const sunset_finding *f = &res->findings[d->findings[i]];
        if (!f->stmt.line || f->stmt.line > u->end_line || f->stmt.end_line < d->end_line) return false;
    }
    return true;
}

/* Line l of text, whole, into buf (false when it does not fit or is past the end). */
static bool copy_line(const char *text, uint32_t l, char *buf, size_t cap) {
    size_t ind = 0;
    const char *p = line_at(text, l, &ind);
    size_t n = p ? strcspn(p, "\n") : 0;
    if (!p || n >= cap) return false;
    memcpy(buf, p, n), buf[n] = 0;
    return true;
}

/* The condition of the check statement that starts at line l of text, its string literals
 * blanked, into buf: in C++ a call's first argument (`PADDLE_ENFORCE_NOT_NULL(\n op,`) or an
 * `if (...)`'s condition; in Python an `assert`'s test (to its top-level `,`) or a one-line
 * `if ...:` header's. False when line l starts no such statement. */
static bool check_cond(const char *text, sunset_lang lang, uint32_t l, char *buf, size_t cap) {
    size_t ind = 0, n = 0;
    const char *p = line_at(text, l, &ind);
    bool py = lang == SUNSET_LANG_PYTHON, hdr = false;
    if (!p) return false;
    if (py && starts_kw(p, "assert", " (")) p += 6;
    else if (py && py_hdr(p) == HDR_IF) p += 2, hdr = true;
    else if (py) return false;
    else if (starts_kw(p, "if", " (")) p = strchr(p, '(') + 1;
    else {
        if (!ident_char(*p) || isdigit((unsigned char)*p)) return false;
        while (ident_char(*p) || (p[0] == ':' && p[1] == ':')) p++;
        while (*p == ' ' || *p == '\t') p++;
        if (*p++ != '(') return false;
    }
    for (int depth = 0; *p && n + 1 < cap; p++) {
        if (*p == '"' || *p == '\'') { /* a literal: its words are no condition's */
            char q = *p;
            while (p[1] && p[1] != q && p[1] != '\n') p += p[1] == '\\' && p[2] ? 2 : 1;
            if (!p[1] || p[1] == '\n') return false;
            p++;
            buf[n++] = ' ';
            continue;
        }
        if (strchr("([{", *p)) depth++;
        else if (strchr(")]}", *p) && depth-- == 0) break;
        else if (depth == 0 && (*p == ',' || *p == ';' || (py && (*p == '\n' || *p == '#' || (hdr && *p == ':')))))
            break;
        buf[n++] = *p;
    }
    buf[n] = 0;
    return n > 0;
}

/* The check statement that holds the strings of the text remnant d (each in one statement): its
 * first line in *n and last in *z. In C++ and for a Python `assert`, the strings' statement; for
 * a Python `raise` the `if ...:` header directly above it whose whole body it is. */
static bool check_stmt(const sunset_result *res, const char *text, sunset_lang lang, const sunset_remnant *d,
                       uint32_t *n, uint32_t *z) {
    const sunset_finding *f0 = &res->findings[d->findings[0]];
    size_t ind = 0, hind = 0, nind = 0;
    if (!all_ctx(res, d, SUNSET_CTX_STRING) || !f0->stmt.line) return false;
    for (size_t i = 0; i < d->n_findings; i++)
        if (res->findings[d->findings[i]].stmt.line != f0->stmt.line) return false;
    *n = f0->stmt.line, *z = f0->stmt.end_line;
    const char *p = line_at(text, *n, &ind);
    if (lang != SUNSET_LANG_PYTHON || !p || starts_kw(p, "assert", " (")) return p != NULL;
    uint32_t h = *n - 1; /* the code line above: blank and comment lines skipped */
    for (const char *q; h > 1 && (!(q = line_at(text, h, &hind)) || strchr("\r\n", *q) || comment_lines(text, lang, h, h));)
        h--;
    if (py_hdr(line_at(text, h, &hind)) != HDR_IF || hind >= ind) return false;
    uint32_t nl = next_code(text, lang, *z, &nind);
    if (nl && (nind > hind || (nind == hind && py_hdr(line_at(text, nl, &nind)) == HDR_BRANCH)))
        return false; /* the body goes on, or an `else` would dangle */
    *n = h;
    return true;
}

/* Is the text remnant d after the code remnant u the message of a check of a name u declares:
 * its check statement (check_stmt) directly follows a statement of u that declares the name
 * (only blank and comment lines between; for a Python `if` header that is u's last line, the
 * statement before it), and the check's condition (check_cond) names it (`auto *op =
 * dynamic_cast<XOpHandle *>(v);` then `PADDLE_ENFORCE_NOT_NULL(op, errors::X("... XOpHandle"))`;
 * `x = legacy()` then `assert x is not None, "..."`)? The check goes with the declaration's
 * edit: its end in *z, the why in *why. A check of another name, or one after other code,
 * stays a text edit. */
static bool checks_decl(const sunset_result *res, const char *text, const sunset_remnant *u, const sunset_remnant *d,
                        uint32_t *z, sb *why) {
    sunset_lang lang = sunset_lang_for_path(u->path);
    uint32_t n = 0;
    size_t ind = 0;
    char cond[512], line[512], name[128];
    if ((lang != SUNSET_LANG_CPP && lang != SUNSET_LANG_PYTHON) || !check_stmt(res, text, lang, d, &n, z) ||
        *z < d->end_line || !check_cond(text, lang, n, cond, sizeof cond))
        return false;
    if (n != next_code(text, lang, u->end_line, &ind) && !(lang == SUNSET_LANG_PYTHON && n == u->end_line && *z > n))
        return false;
    for (size_t k = 0; k < u->n_findings; k++) {
        const sunset_finding *g = &res->findings[u->findings[k]];
        sunset_span s = g->stmt.line ? g->stmt : g->span;
        if (g->ctx != SUNSET_CTX_CODE || s.end_line >= n || next_code(text, lang, s.end_line, &ind) != n ||
            !copy_line(text, s.line, line, sizeof line) || !rem_declares(lang, line, name, sizeof name) ||
            !rem_word_in(cond, name))
            continue;
        sb_printf(why, "checks %s, which line %u declares: its message goes with that code's edit", name, s.line);
        return true;
    }
    return false;
}

/* Text remnants that annotate a code remnant next to them take its action and range (with the
 * removal plan only: a full scan of files on disk): a comment block directly attached to the
 * code below it (no blank line between; its lines from the block's first), a message string
 * inside a code remnant's statement, and one in the check of a name the code remnant declares
 * (checks_decl, the check whole). A comment with a blank line before the code (a
 * file header, a section comment) stays a text edit, as does one above code that names no
 * mechanism (it has no remnant). */
int rem_attach_text(build_ctx *c, sunset_remnants *out, size_t first) {
    int rc = 0;
    for (size_t i = out->n; c->plan && rc == 0 && i-- > first + 1;) {
        sunset_remnant *u = &out->v[i - 1], *d = &out->v[i];
        uint32_t e = d->end_line;
        const char *t;
        sb why = {0};
        if (u->file || d->file || u->action == SUNSET_ACT_DOC || d->action != SUNSET_ACT_DOC) continue;
        if (in_statement(c->res, u, d)) {
            for (size_t k = 0; k < d->n_findings; k++)
                if (c->res->findings[d->findings[k]].stmt.end_line > e) e = c->res->findings[d->findings[k]].stmt.end_line;
        } else if (!(t = file_text(c, u->path)) || !checks_decl(c->res, t, u, d, &e, &why)) {
            if (why.oom) rc = -1;
            continue;
        }
        drop_evidence(d);
        if (why.oom || !merge_into(c, out, u, d, why.s ? why.s : ATTACHED_WHY)) rc = -1;
        sb_free(&why);
        if (e > u->end_line) u->end_line = e; /* the statement whole */
        u->attached = true;
        if (rc == 0) rc = refix(u);
    }
    for (size_t i = out->n; c->plan && rc == 0 && i-- > first + 1;) {
        sunset_remnant *d = &out->v[i - 1], *u = &out->v[i];
        sunset_lang lang = sunset_lang_for_path(u->path);
        const char *t;
        if (d->file || u->file || d->action != SUNSET_ACT_DOC || u->action == SUNSET_ACT_DOC || u->line <= d->end_line ||
            !all_ctx(c->res, d, SUNSET_CTX_COMMENT) || !(t = file_text(c, u->path)) ||
            !comment_lines(t, lang, d->line, u->line - 1))
            continue;
        uint32_t floor = i - 1 > first ? out->v[i - 2].end_line : 0;
        drop_evidence(d); /* "only in comments" no longer holds of the unit */
        if (!merge_into(c, out, u, d, ATTACHED_WHY)) rc = -1;
        sunset_remnant *m = &out->v[i - 1]; /* u, now where d was */
        m->attached = true;
        while (rc == 0 && m->line > floor + 1 && m->line > 1 && comment_lines(t, lang, m->line - 1, m->line - 1))
            m->line--; /* the comment block from its first line */
        if (rc == 0) rc = refix(m);
        /* the unit may now touch the code remnant before it: one edit (one_edit) */
        if (rc == 0 && i - 1 > first && rem_one_edit(c->res, m - 1, m) && !merge_into(c, out, m - 1, m, NULL)) rc = -1;
    }
    return rc;
}

/* Does the code remnant m, the whole body of a block, take its header (and a CMake if()'s
 * endif()) so that no header is left dangling: a CMake `elseif()`/`else()` branch, an
 * `if()` whose only content m is (to its `endif()`); a Python `elif`/`else` branch, an `if`
 * with no branch after it, a loop without `else`, a `with`. The new range in *a, *z. */
static bool takes_header(const char *text, sunset_lang lang, const sunset_remnant *m, uint32_t *a, uint32_t *z) {
    size_t ind = 0, hind = 0, nind = 0;
    if (m->line < 2) return false;
    if (lang == SUNSET_LANG_CMAKE) {
        hdr_kind h = cmake_hdr(line_at(text, m->line - 1, &hind)), n = cmake_hdr(line_at(text, m->end_line + 1, &nind));
        if (h == HDR_BRANCH && (n == HDR_BRANCH || n == HDR_END)) return *a = m->line - 1, *z = m->end_line, true;
        if (h == HDR_IF && n == HDR_END) return *a = m->line - 1, *z = m->end_line + 1, true;
        return false;
    }
    if (lang != SUNSET_LANG_PYTHON || !line_at(text, m->line, &ind)) return false;
    uint32_t hl = m->line - 1; /* the header, above comment lines */
    while (hl > 1 && comment_lines(text, lang, hl, hl)) hl--;
    hdr_kind h = py_hdr(line_at(text, hl, &hind));
    if (h == HDR_NONE || hind >= ind) return false;
    uint32_t nl = next_code(text, lang, m->end_line, &nind);
    if (nl && nind > hind) return false; /* the body goes on below m */
    const char *np = nl ? line_at(text, nl, &nind) : NULL;
    bool more = np && nind == hind && (py_hdr(np) == HDR_BRANCH || (starts_kw(np, "else", ":")));
    if ((h == HDR_IF || h == HDR_BLOCK) && more) return false; /* its `else` would dangle */
    return *a = hl, *z = m->end_line, true;
}

/* Does line l of text end a C++ statement or open or close a block (its last character
 * before a trailing `//` comment is `;`, `{` or `}`), or is it blank? */
static bool cpp_boundary(const char *text, uint32_t l) {
    size_t ind = 0;
    const char *p = line_at(text, l, &ind);
    if (!p) return true;
    const char *e = p + strcspn(p, "\n"), *cm = strstr(p, "//");
    if (cm && cm < e) e = cm;
    while (e > p && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r')) e--;
    return e == p || e[-1] == ';' || e[-1] == '{' || e[-1] == '}';
}

/* A C++ code remnant whose first line continues a chained call (`.def(`, `->Run(`) is the tail
 * of a statement that starts above it (`pe.def(py::init<...>())` and its comment lines): its
 * range starts at the statement's first line, found going up to the line after a statement's
 * end or a blank line; that line must be the chain's head, `name.method(` or `name->method(`
 * (else the walk ended inside a lambda's body or a raw string, and nothing is taken). At most
 * 64 lines up. */
static bool takes_statement(const char *text, const sunset_remnant *m, uint32_t *a) {
    size_t ind = 0;
    const char *p = line_at(text, m->line, &ind);
    if (!p || !((p[0] == '.' && ident_char(p[1])) || (p[0] == '-' && p[1] == '>'))) return false;
    uint32_t s = m->line;
    for (uint32_t l = m->line - 1; l >= 1 && m->line - l <= 64; l--) {
        if (comment_lines(text, SUNSET_LANG_CPP, l, l)) continue;
        if (cpp_boundary(text, l)) break;
        s = l;
    }
    p = s < m->line ? line_at(text, s, &ind) : NULL;
    if (!p || !ident_char(*p) || isdigit((unsigned char)*p)) return false;
    while (ident_char(*p)) p++; /* the chain's head: `pe.def(`, `obj->Set(` */
    if (*p == '.') p++;
    else if (p[0] == '-' && p[1] == '>') p += 2;
    else return false;
    if (!ident_char(*p)) return false;
    while (ident_char(*p)) p++;
    if (*p != '(') return false;
    *a = s;
    return true;
}

/* Code remnants that are a block's whole body take its header (takes_header), repeatedly, each
 * then one edit with the code remnant it touches or overlaps (migrate winning): a CMake `if()`
 * whose every branch is a remnant becomes one remnant to its `endif()`, a Python `if`/`elif`/
 * `else` chain likewise. With the removal plan only (files on disk). */
int rem_block_ranges(build_ctx *c, sunset_remnants *out, size_t first) {
    sunset_lang lang = out->n > first ? sunset_lang_for_path(out->v[first].path) : SUNSET_LANG_NONE;
    if (!c->plan || (lang != SUNSET_LANG_CMAKE && lang != SUNSET_LANG_PYTHON && lang != SUNSET_LANG_CPP)) return 0;
    bool changed = true;
    int rc = 0;
    const char *t = file_text(c, out->v[first].path);
    while (t && changed && rc == 0) {
        changed = false;
        for (size_t i = first; i < out->n && rc == 0; i++) {
            sunset_remnant *m = &out->v[i];
            uint32_t a, z;
            z = m->end_line;
            if (m->file || m->action == SUNSET_ACT_DOC ||
                !(lang == SUNSET_LANG_CPP ? takes_statement(t, m, &a) : takes_header(t, lang, m, &a, &z)))
                continue;
            m->line = a, m->end_line = z, changed = true;
            rc = refix(m);
            while (rc == 0 && i > first && !out->v[i - 1].file && out->v[i - 1].action != SUNSET_ACT_DOC &&
                   out->v[i - 1].end_line + 1 >= m->line) {
                if (!merge_live_first(c, out, &out->v[i - 1], m, false)) rc = -1;
                m = &out->v[--i];
                if (rc == 0) rc = refix(m);
            }
        }
    }
    return rc;
}

/* A line remnant whose every finding is a path rule's (a rule of the file's path that is not
 * of settings.remnants.file_rules: the file stays, e.g. renamed, with its other remnants) is
 * about the file: a file remnant over the file's findings (line 1 to the last), not line 1. */
void rem_path_remnants(build_ctx *c, sunset_remnants *out, size_t first, uint32_t last) {
    for (size_t i = first; i < out->n; i++) {
        sunset_remnant *m = &out->v[i];
        bool path = !m->file && m->n_findings;
        for (size_t k = 0; k < m->n_findings && path; k++) {
            const sunset_rule *r = sunset_ruleset_find(c->rs, c->res->findings[m->findings[k]].rule_id);
            path = r && r->kind == RK_PATH;
        }
        if (!path) continue;
        m->file = true, m->line = 1, m->end_line = last > m->end_line ? last : m->end_line;
        const rm_item *it = rem_plan_file(c->plan, m->path);
        char *who = it && it->live && m->action == SUNSET_ACT_MIGRATE ? rem_callers_text(it) : NULL;
        if (who) sunset_free(m->consumer), m->consumer = who; /* what keeps the file live */
    }
}

