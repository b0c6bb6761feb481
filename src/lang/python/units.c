/*
 * units.c — a Python module cut into its top-level units, without a parse: each unit is one
 * top-level statement with what belongs to it (the decorators before a def or class; the
 * else / elif / except / finally clauses of a compound statement; the comment and blank lines
 * up to the next unit). The units partition the file, each from the start of a line to the
 * start of the next unit's line, so any subset of them, in order, is a module of its own and
 * its parse (tree-sitter's included ranges) is, node for node, the parse of those statements
 * in the whole file: a statement never depends on a sibling outside it.
 *
 * The scanner follows what decides where a statement may start: strings (single, triple, with
 * any prefix; a backslash always takes the next byte, as in raw strings too), comments,
 * bracket depth and backslash continuations. It does not check anything else; a file it
 * misreads (a Python 3.12 f-string that nests its own quote) gives a parse with an error,
 * which the frontend answers with a parse of the whole file.
 *
 * py_choose_part picks the units a rule may match in: the part of the file the frontend
 * parses (frontend.c, with tree-sitter's included ranges).
 */
#include "lang/python/python_int.h"

#include <string.h>

static bool id_byte(unsigned char c) {
    return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c >= 0x80;
}

/* A line that carries on the compound statement before it: `else`, `elif`, `except`, `finally`. */
static bool clause_line(const char *p, const char *end) {
    static const char *const kw[] = {"else", "elif", "except", "finally"};
    for (size_t i = 0; i < sizeof kw / sizeof kw[0]; i++) {
        size_t n = strlen(kw[i]);
        if ((size_t)(end - p) >= n && memcmp(p, kw[i], n) == 0 &&
            ((size_t)(end - p) == n || !id_byte((unsigned char)p[n])))
            return true;
    }
    return false;
}

/* The end of the string whose quote (one of q quotes, 1 or 3) starts at p, or end when it
 * does not end; *line counts the newlines inside. A single-quoted string ends at an
 * unescaped newline (Python's error, where the parser also ends it). */
static const char *string_end(const char *p, const char *end, int q, uint32_t *line) {
    char c = *p;
    p += q;
    while (p < end) {
        char b = *p;
        if (b == '\\') { /* an escape, or a continuation (LF or CRLF) */
            if (p + 2 < end && p[1] == '\r' && p[2] == '\n') p++;
            if (p + 1 < end && p[1] == '\n') (*line)++;
            p += 2;
            continue;
        }
        if (b == '\n') {
            if (q == 1) return p; /* the newline is the caller's */
            (*line)++;
        } else if (b == c && (q == 1 || (end - p >= 3 && p[1] == c && p[2] == c))) {
            return p + q;
        }
        p++;
    }
    return end;
}

int py_split(const char *d, uint32_t from, uint32_t to, uint32_t row, int indent, vec *out) {
    const char *p = d + from, *end = d + to;
    uint32_t line = row;        /* 0-based row of p */
    int depth = 0;              /* open brackets */
    bool cont = false;          /* the previous line ended in a backslash */
    bool deco = false;          /* the last unit so far is decorators waiting for their def */
    out->n = 0;
    py_unit head = {from, row};
    if (!vec_push(out, &head)) return -1; /* the lines before the first statement, maybe none */
    while (p < end) {
        /* at the start of a line */
        if (!depth && !cont) {
            const char *q = p;
            while (q < end && (*q == ' ' || *q == '\t')) q++;
            unsigned char c = q < end ? (unsigned char)*q : '\n';
            bool code = c != '\f' && c != '\r' && c != '\n' && c != '#' && c != '\\';
            int ws = (int)(q - p);
            if (code && indent < 0 && ws > 0) indent = ws; /* a block's first statement */
            if (code && ws == indent) {
                if (deco) {
                    deco = c == '@'; /* the def or class line ends a decorated unit's header */
                } else if (!clause_line(q, end)) {
                    py_unit u = {(uint32_t)(p - d), line};
                    if (!vec_push(out, &u)) return -1;
                    deco = c == '@';
                }
            }
        }
        cont = false;
        /* the rest of the line, and of any string or bracket it opens */
        while (p < end) {
            char c = *p;
            if (c == '\n') {
                p++;
                line++;
                break;
            }
            if (c == '#') {
                const char *nl = memchr(p, '\n', (size_t)(end - p));
                p = nl ? nl : end;
                continue;
            }
            if (c == '"' || c == '\'') {
                int q = end - p >= 3 && p[1] == c && p[2] == c ? 3 : 1;
                p = string_end(p, end, q, &line);
                continue;
            }
            if (c == '\\') {
                if (p + 1 < end && p[1] == '\n') {
                    cont = true;
                    p += 2;
                    line++;
                    break;
                }
                if (p + 2 < end && p[1] == '\r' && p[2] == '\n') {
                    cont = true;
                    p += 3;
                    line++;
                    break;
                }
                p++;
                continue;
            }
            if (c == '(' || c == '[' || c == '{') depth++;
            else if ((c == ')' || c == ']' || c == '}') && depth > 0) depth--;
            p++;
        }
    }
    return 0;
}

int py_units(const char *d, size_t len, vec *out) { return py_split(d, 0, (uint32_t)len, 0, 0, out); }

bool py_unit_is_class(const char *d, uint32_t from, uint32_t to) {
    const char *p = d + from, *end = d + to;
    while (p < end) {
        if (*p != '@' && *p != ' ' && *p != '\t' && *p != '#' && *p != '\n' && *p != '\r')
            return end - p > 6 && memcmp(p, "class", 5) == 0 && (p[5] == ' ' || p[5] == '\t');
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        if (!nl) break;
        p = nl + 1;
    }
    return false;
}

uint32_t py_chain_marks(const char *d, size_t len) {
    uint32_t n = 0;
    for (size_t i = 0; i < len; i++)
        if ((d[i] == '.' || d[i] == '(') && ++n > MAX_CHAIN) break;
    return n;
}

/* ---- the part to parse ---- */

/* A part holding more than this share of the file's bytes is not worth a parse of its own. */
#define PART_MAX_SHARE 0.75

static void range_add(vec *v, uint32_t a, uint32_t b, TSPoint pa, TSPoint pb, bool *oom) {
    TSRange *last = v->n ? &VEC_AT(v, TSRange, v->n - 1) : NULL;
    if (last && last->end_byte == a) {
        last->end_byte = b;
        last->end_point = pb;
        return;
    }
    TSRange r = {pa, pb, a, b};
    if (!vec_push(v, &r)) *oom = true;
}

static void skip_add(vec *v, uint32_t a, uint32_t b, bool *oom) {
    uint32_t *last = v->n ? (uint32_t *)v->v + 2 * (v->n - 1) : NULL;
    if (last && last[1] == a) {
        last[1] = b;
        return;
    }
    uint32_t r[2] = {a, b};
    if (!vec_push(v, &r)) *oom = true;
}

/* A unit left out: its chains could have the file refused (MAX_CHAIN, MAX_CHAIN_WORK), and
 * then the part must not be analysed where the whole file would not be. */
static void skip_unit(py_part *pt, const char *d, uint32_t a, uint32_t b, bool *oom,
                      bool *whole) {
    uint64_t n = py_chain_marks(d + a, b - a);
    if (n > MAX_CHAIN) *whole = true;
    pt->skipped_work += n * n;
    skip_add(&pt->skipped, a, b, oom);
}

/* A class unit at least this large is cut into its body's statements. */
#define PART_CLASS_MIN 2048u

/* Add the class unit [a, b) (ra the row at a, pb the point at b) to the part, its body's
 * statements as units: the header, the first statement (a docstring's place) and the last
 * (the class's extent, which its scope reports, ends with it) always, the others when a rule
 * may match in them. */
static void take_class(const sunset_source *src, sunset_sink *sink, py_part *pt, uint32_t a,
                       uint32_t b, uint32_t ra, TSPoint pb, bool *oom, bool *whole) {
    const char *d = src->data;
    vec m = VEC_INIT(py_unit);
    if (py_split(d, a, b, ra, -1, &m) != 0) {
        *oom = true;
        return;
    }
    const py_unit *u = m.v;
    for (size_t i = 0; i < m.n && !*oom; i++) {
        uint32_t x = u[i].start, y = i + 1 < m.n ? u[i + 1].start : b;
        if (x == y) continue;
        TSPoint px = {u[i].row, 0}, py = i + 1 < m.n ? (TSPoint){u[i + 1].row, 0} : pb;
        if (i < 2 || i + 1 == m.n || sunset_sink_may_match(sink, d + x, y - x)) {
            range_add(&pt->ranges, x, y, px, py, oom);
        } else {
            skip_unit(pt, d, x, y, oom, whole);
        }
    }
    vec_free(&m);
}

/* Units are kept whole or left out whole; a unit left out whose '.' and '(' could make a chain
 * over MAX_CHAIN makes the whole file parsed, since that chain would have it refused; the
 * part's own chains are held to what MAX_CHAIN_WORK leaves of the units left out. */
bool py_choose_part(const sunset_source *src, sunset_sink *sink, py_part *pt) {
    const char *d = src->data;
    uint32_t len = (uint32_t)src->len;
    vec units = VEC_INIT(py_unit);
    bool oom = false, whole = false, ok = false;
    if (py_units(d, len, &units) != 0 || units.n < 2) goto done;
    const py_unit *u = units.v;
    /* the end of the file as a point */
    const char *tail = d + u[units.n - 1].start, *nl = NULL;
    uint32_t rows = u[units.n - 1].row;
    for (const char *q = tail; (q = memchr(q, '\n', (size_t)(d + len - q))); q++, rows++) nl = q;
    TSPoint eof = {rows, (uint32_t)(d + len - (nl ? nl + 1 : tail))};
    for (size_t i = 0; i < units.n && !oom && !whole; i++) {
        uint32_t a = u[i].start, b = i + 1 < units.n ? u[i + 1].start : len;
        if (a == b) continue;
        TSPoint pa = {u[i].row, 0}, pb = i + 1 < units.n ? (TSPoint){u[i + 1].row, 0} : eof;
        if (i == 1 || sunset_sink_may_match(sink, d + a, b - a)) {
            if (i > 1 && b - a >= PART_CLASS_MIN && py_unit_is_class(d, a, b))
                take_class(src, sink, pt, a, b, u[i].row, pb, &oom, &whole);
            else
                range_add(&pt->ranges, a, b, pa, pb, &oom);
        } else {
            skip_unit(pt, d, a, b, &oom, &whole);
        }
    }
    size_t taken = 0;
    for (size_t i = 0; i < pt->ranges.n; i++)
        taken += VEC_AT(&pt->ranges, TSRange, i).end_byte - VEC_AT(&pt->ranges, TSRange, i).start_byte;
    ok = !oom && !whole && pt->skipped.n && taken <= PART_MAX_SHARE * len;
done:
    vec_free(&units);
    return ok;
}
