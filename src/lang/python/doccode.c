/*
 * doccode.c — the code examples inside Python docstrings, for the Python frontend's second
 * pass. A docstring's doctest lines (`>>> `, `... `) and the indented body of a
 * `.. code-block:: python` / `.. code::` directive or of a paragraph ending in `::` are code;
 * py_doc_mask copies exactly those bytes into a buffer as long as the file, every other byte
 * a blank (newlines kept), so that a parse of the buffer reports the examples' facts at their
 * own lines and columns in the file. Prose, prompts and the quotes never reach the parser.
 * Indentation differs between examples; tree-sitter's error recovery parses each statement
 * anyway, and what does not parse yields no facts (its words are still docstring words).
 * py_comment_mask does the same for comments that may be commented-out code; the frontend
 * keeps only the statements that parse cleanly. py_markup_mask does it for a Markdown file's
 * fenced Python blocks and a reStructuredText file's literal blocks (and doctest lines in
 * either).
 */
#include "base/normalize.h"
#include "lang/python/python_int.h"

#include <ctype.h>
#include <string.h>

static bool blank(const char *s, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r') return false;
    return true;
}

static bool starts(const char *s, size_t n, const char *p) {
    size_t k = strlen(p);
    return n >= k && memcmp(s, p, k) == 0;
}

/* Does this (stripped) line open a literal block whose body is Python? */
static bool opens_block(const char *s, size_t n) {
    if (starts(s, n, ".. code-block::") || starts(s, n, ".. code::") ||
        starts(s, n, ".. sourcecode::")) {
        const char *lang = memchr(s, ':', n);
        size_t rest = n - (size_t)(lang - s);
        /* the language after `::`, if any, must be Python */
        const char *p = lang + 2;
        size_t m = rest - 2;
        while (m && (*p == ' ' || *p == '\t')) p++, m--;
        while (m && (p[m - 1] == ' ' || p[m - 1] == '\r')) m--;
        return m == 0 || (m == 6 && memcmp(p, "python", 6) == 0) ||
               (m == 7 && memcmp(p, "python3", 7) == 0) || (m == 5 && memcmp(p, "ipython", 5) == 0);
    }
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\r')) n--;
    return n >= 2 && s[n - 2] == ':' && s[n - 1] == ':' && !starts(s, n, "..");
}

/* A copy of data as long as data (plus a NUL): all blanks, newlines kept. */
static char *blank_copy(const char *data, size_t len) {
    char *out = sunset_malloc(len + 1);
    if (!out) return NULL;
    for (size_t k = 0; k < len; k++) out[k] = data[k] == '\n' ? '\n' : ' ';
    out[len] = 0;
    return out;
}

static bool prompt(const char *t, size_t n) {
    return starts(t, n, ">>> ") || starts(t, n, "... ") ||
           (n == 3 && (starts(t, n, ">>>") || starts(t, n, "...")));
}

/* Copy the code of data[a, b) (one docstring's contents) into out at the same offsets; true
 * if any byte was code. */
static bool mask_one(const char *data, uint32_t a, uint32_t b, char *out) {
    bool any = false, in_block = false, options = false;
    size_t block_indent = 0;
    for (uint32_t ls = a; ls < b;) {
        const char *nl = memchr(data + ls, '\n', b - ls);
        uint32_t le = nl ? (uint32_t)(nl - data) : b;
        const char *s = data + ls;
        size_t n = le - ls, ind = 0;
        while (ind < n && (s[ind] == ' ' || s[ind] == '\t')) ind++;
        const char *t = s + ind;
        size_t tn = n - ind;
        bool empty = blank(s, n);
        if (in_block && !empty && ind <= block_indent) in_block = false;
        if (!empty && prompt(t, tn)) {
            if (tn > 4) memcpy(out + ls + ind + 4, t + 4, tn - 4);
            any = true;
        } else if (in_block) {
            if (!empty && !(options && t[0] == ':')) { /* a directive's :name: options */
                options = false;
                memcpy(out + ls + ind, t, tn);
                any = true;
            }
        } else if (!empty && opens_block(t, tn)) {
            in_block = options = true;
            block_indent = ind;
        }
        ls = le + 1;
    }
    return any;
}

char *py_doc_mask(const char *data, size_t len, const uint32_t (*docs)[2], size_t n) {
    char *out = NULL;
    bool any = false;
    for (size_t i = 0; i < n; i++) {
        uint32_t a = docs[i][0], b = docs[i][1];
        /* the contents: past the prefix and opening quotes, before the closing ones */
        while (a < b && strchr("rRuUbBfF", data[a])) a++;
        size_t q = (b - a >= 6 && (data[a] == '"' || data[a] == '\'') && data[a + 1] == data[a] &&
                    data[a + 2] == data[a]) ? 3 : 1;
        if (b - a < 2 * q) continue;
        a += (uint32_t)q;
        b -= (uint32_t)q;
        if (!out && !(out = blank_copy(data, len))) return NULL;
        if (mask_one(data, a, b, out)) any = true;
    }
    if (!any) {
        sunset_free(out);
        return NULL;
    }
    return out;
}

/* Could the comment text s[0, n) (after the '#') be code? A call, an assignment or an
 * import; everything else is prose and never parsed. */
static bool code_like(const char *s, size_t n) {
    while (n && (*s == ' ' || *s == '\t')) s++, n--;
    if (!n || *s == '!' || *s == '#' || *s == '-' || *s == '*') return false; /* #!, ##, banners */
    if (starts(s, n, "import ") || starts(s, n, "from ")) return true;
    return memchr(s, '(', n) || memchr(s, '=', n);
}

char *py_comment_mask(const char *data, size_t len, const uint32_t (*comments)[2], size_t n) {
    char *out = NULL;
    for (size_t i = 0; i < n; i++) {
        uint32_t a = comments[i][0], b = comments[i][1];
        if (b - a < 2 || data[a] != '#' || !code_like(data + a + 1, b - a - 1)) continue;
        if (!out && !(out = blank_copy(data, len))) return NULL;
        memcpy(out + a + 1, data + a + 1, b - a - 1);
    }
    return out;
}

/* A Markdown fence's info string names Python (or nothing: an untagged block is tried). */
static bool python_info(const char *s, size_t n) {
    while (n && (*s == ' ' || *s == '\t')) s++, n--;
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\r')) n--;
    if (n && *s == '{') s++, n--; /* {python} */
    size_t w = 0;
    while (w < n && s[w] != ' ' && s[w] != '}' && s[w] != ',') w++;
    return w == 0 || (w == 6 && !memcmp(s, "python", 6)) || (w == 7 && !memcmp(s, "python3", 7)) ||
           (w == 2 && !memcmp(s, "py", 2)) || (w == 7 && !memcmp(s, "ipython", 7));
}

char *py_markup_mask(const char *data, size_t len, bool markdown) {
    char *out = blank_copy(data, len);
    if (!out) return NULL;
    bool any = false;
    if (!markdown) {
        any = mask_one(data, 0, (uint32_t)len, out);
    } else {
        /* fences: ``` or ~~~ (three or more), closed by the same run; doctest lines outside */
        bool in = false, py = false;
        char fch = 0;
        size_t flen = 0;
        for (uint32_t ls = 0; ls < len;) {
            const char *nl = memchr(data + ls, '\n', len - ls);
            uint32_t le = nl ? (uint32_t)(nl - data) : (uint32_t)len;
            const char *s = data + ls;
            size_t n = le - ls, ind = 0;
            while (ind < n && ind < 4 && s[ind] == ' ') ind++;
            const char *t = s + ind;
            size_t tn = n - ind, run = 0;
            while (run < tn && (t[run] == '`' || t[run] == '~') && t[run] == t[0]) run++;
            if (!in && run >= 3) {
                in = true;
                fch = t[0];
                flen = run;
                py = python_info(t + run, tn - run);
            } else if (in && run >= flen && t[0] == fch && blank(t + run, tn - run)) {
                in = false;
            } else if (in && py) {
                memcpy(out + ls, s, n);
                any = true;
            } else if (!in && tn > 4 && prompt(t, tn)) {
                memcpy(out + ls + ind + 4, t + 4, tn - 4);
                any = true;
            }
            ls = le + 1;
        }
    }
    if (!any) {
        sunset_free(out);
        return NULL;
    }
    return out;
}

/* ---- notebooks: the code cells' source strings of an .ipynb (nbformat 4 JSON) ---- */

typedef struct nb {
    const char *d, *end;
    py_nb *o;
    bool ok; /* no allocation failed */
} nb;

static const char *nb_ws(const nb *b, const char *p) {
    while (p < b->end && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')) p++;
    return p;
}

/* Past the string starting at p (on its opening quote), or NULL if unterminated. */
static const char *nb_string_end(const nb *b, const char *p) {
    for (p++; p < b->end; p++) {
        if (*p == '\\') p++;
        else if (*p == '"') return p + 1;
    }
    return NULL;
}

/* One decoded byte c, from the file byte at `from`. The code never outgrows the file: every
 * byte of it comes from a byte of a string's contents, a cell's closing newline from its
 * closing quote. */
static void nb_put(nb *b, char c, const char *from) {
    py_nb *o = b->o;
    o->off[o->n] = (uint32_t)(from - b->d);
    o->text[o->n++] = c;
}

static int nb_hex4(const char *p, const char *e) {
    if (e - p < 4) return -1;
    int v = 0;
    for (int i = 0; i < 4; i++) {
        int c = (unsigned char)p[i];
        int d = isdigit(c) ? c - '0' : (c | 32) >= 'a' && (c | 32) <= 'f' ? (c | 32) - 'a' + 10 : -1;
        if (d < 0) return -1;
        v = v * 16 + d;
    }
    return v;
}

/* A \uXXXX escape at p (on the backslash), a surrogate pair's second half included: the code
 * point's UTF-8 bytes, all mapped to the backslash; returns past the escape. */
static const char *nb_unicode(nb *b, const char *p, const char *e) {
    int cp = nb_hex4(p + 2, e);
    if (cp < 0) {
        nb_put(b, '?', p);
        return p + 2;
    }
    const char *q = p + 6;
    if (cp >= 0xD800 && cp < 0xDC00 && e - q >= 6 && q[0] == '\\' && q[1] == 'u') {
        int lo = nb_hex4(q + 2, e);
        if (lo >= 0xDC00 && lo < 0xE000) {
            cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
            q += 6;
        }
    }
    const char *to = cp > 0x7F ? text_nfkc_ascii((uint32_t)cp) : NULL;
    if (to) { /* Python reads the identifier after NFKC: "\uff25" is an "E" to it */
        while (*to) nb_put(b, *to++, p);
    } else if (cp == 0 || (cp >= 0xD800 && cp < 0xE000)) { /* no character Python reads */
        nb_put(b, '?', p);
    } else if (cp < 0x80) {
        nb_put(b, (char)cp, p);
    } else if (cp < 0x800) {
        nb_put(b, (char)(0xC0 | cp >> 6), p);
        nb_put(b, (char)(0x80 | (cp & 0x3F)), p);
    } else if (cp < 0x10000) {
        nb_put(b, (char)(0xE0 | cp >> 12), p);
        nb_put(b, (char)(0x80 | ((cp >> 6) & 0x3F)), p);
        nb_put(b, (char)(0x80 | (cp & 0x3F)), p);
    } else {
        nb_put(b, (char)(0xF0 | cp >> 18), p);
        nb_put(b, (char)(0x80 | ((cp >> 12) & 0x3F)), p);
        nb_put(b, (char)(0x80 | ((cp >> 6) & 0x3F)), p);
        nb_put(b, (char)(0x80 | (cp & 0x3F)), p);
    }
    return q;
}

/* A raw UTF-8 character at *p whose NFKC form is ASCII identifier text, put as that text
 * (as Python reads it; the engine folds a .py file the same way, base/normalize.h), each byte
 * mapped to the character's first. Three such forms are longer than their UTF-8 (U+2167,
 * U+2177, U+3389: 3 bytes, 4 letters); one is folded only while the code stays within the
 * file's length (the unused quotes and escapes before it give the room), else left as it is. */
static bool nb_fold_raw(nb *b, const char **p, const char *end) {
    uint32_t cp;
    size_t len = text_utf8_decode((const unsigned char *)*p, (size_t)(end - *p), &cp);
    const char *to = len ? text_nfkc_ascii(cp) : NULL;
    if (!to) return false;
    size_t k = strlen(to);
    if (b->o->n + k > (size_t)(*p - b->d) + len) return false;
    for (size_t i = 0; i < k; i++) nb_put(b, to[i], *p);
    *p += len;
    return true;
}

/* Decode the JSON string [s, e) (quotes included) onto the end of the code. A lone "\r" is
 * a line break to Python, as "\n" is; "\r\n" is one. */
static void nb_decode(nb *b, const char *s, const char *e) {
    const char *end = e - 1;
    for (const char *p = s + 1; p < end;) {
        if ((unsigned char)*p >= 0x80 && nb_fold_raw(b, &p, end)) continue;
        if (*p != '\\' || p + 1 >= end) {
            nb_put(b, *p, p);
            p++;
            continue;
        }
        char c = p[1];
        if (c == 'u') {
            p = nb_unicode(b, p, end);
            continue;
        }
        if (c == 'r' && end - p >= 4 && p[2] == '\\' && p[3] == 'n') { /* \r\n: the \n says it */
            p += 2;
            continue;
        }
        nb_put(b, c == 'n' || c == 'r' ? '\n' : c == 't' ? '\t' : c == 'b' ? '\b' : c == 'f' ? '\f' : c, p);
        p += 2;
    }
}

/* The code cell's source value [s, e): its strings, joined; the cell ends its last line. */
static void nb_cell(nb *b, const char *s, const char *e) {
    for (const char *q = s; q < e; q++)
        if (*q == '"') {
            const char *qe = nb_string_end(b, q);
            /* in malformed JSON a bare word can hold a quote the parser stepped over: a
             * string that runs past the value is not its own (decoding it would read the
             * next cell's bytes a second time, and the code could outgrow the file) */
            if (!qe || qe > e) break;
            nb_decode(b, q, qe);
            q = qe - 1;
        }
    if (b->o->n && b->o->text[b->o->n - 1] != '\n') nb_put(b, '\n', e - 1);
}

static const char *nb_value(nb *b, const char *p, int depth, int role);

/* roles: 0 any value, 1 the top object, 2 the cells array, 3 a cell, 4 a cell's source */
static const char *nb_container(nb *b, const char *p, int depth, int role) {
    bool obj = *p == '{';
    const char *src[2] = {NULL, NULL}; /* a cell's "source" value span */
    bool code = false;
    p = nb_ws(b, p + 1);
    if (p < b->end && *p == (obj ? '}' : ']')) return p + 1;
    while (p && p < b->end) {
        int sub = role == 2 ? 3 : role == 4 ? 4 : 0;
        if (obj) {
            if (*p != '"') return NULL;
            const char *ke = nb_string_end(b, p);
            if (!ke) return NULL;
            size_t kn = (size_t)(ke - p);
            bool cells = role == 1 && kn == 7 && !memcmp(p, "\"cells\"", 7);
            bool source = role == 3 && kn == 8 && !memcmp(p, "\"source\"", 8);
            bool type = role == 3 && kn == 11 && !memcmp(p, "\"cell_type\"", 11);
            p = nb_ws(b, ke);
            if (p >= b->end || *p != ':') return NULL;
            p = nb_ws(b, p + 1);
            sub = cells ? 2 : source ? 4 : 0;
            if (type && p < b->end && *p == '"') code = b->end - p >= 6 && !memcmp(p, "\"code\"", 6);
            if (source) src[0] = p;
            p = nb_value(b, p, depth + 1, sub);
            if (source) src[1] = p;
        } else {
            p = nb_value(b, p, depth + 1, sub);
        }
        if (!p) return NULL;
        p = nb_ws(b, p);
        if (p < b->end && *p == ',') {
            p = nb_ws(b, p + 1);
            continue;
        }
        if (p < b->end && *p == (obj ? '}' : ']')) {
            if (role == 3 && code && src[0] && src[1]) nb_cell(b, src[0], src[1]);
            return p + 1;
        }
        return NULL;
    }
    return NULL;
}

static const char *nb_value(nb *b, const char *p, int depth, int role) {
    if (p >= b->end || depth > 64) return NULL; /* a notebook is shallow; deeper is not one */
    if (*p == '{' || *p == '[') return nb_container(b, p, depth, role);
    if (*p == '"') return nb_string_end(b, p);
    while (p < b->end && !strchr(",]} \t\r\n", *p)) p++; /* number, true, false, null */
    return p;
}

/* Where each line of s[0, n) starts: *out (caller frees), *count of them. */
static bool line_starts(const char *s, size_t n, uint32_t **out, uint32_t *count) {
    uint32_t k = 1;
    for (size_t i = 0; i < n; i++) k += s[i] == '\n';
    uint32_t *v = sunset_malloc(k * sizeof *v);
    if (!v) return false;
    v[0] = 0;
    for (uint32_t i = 0, j = 1; i < n; i++)
        if (s[i] == '\n') v[j++] = i + 1;
    *out = v;
    *count = k;
    return true;
}

void py_nb_free(py_nb *nb) {
    sunset_free(nb->text);
    sunset_free(nb->off);
    sunset_free(nb->rows);
    sunset_free(nb->lines);
    *nb = (py_nb){0};
}

bool py_notebook_source(const char *data, size_t len, py_nb *o) {
    *o = (py_nb){.data = data};
    if (len >= UINT32_MAX) return false;
    o->text = sunset_malloc(len + 1);
    o->off = sunset_malloc((len + 1) * sizeof *o->off);
    nb b = {data, data + len, o, o->text && o->off};
    if (b.ok) {
        const char *p = nb_ws(&b, data);
        if (p < b.end && *p == '{') nb_container(&b, p, 0, 1);
        o->off[o->n] = (uint32_t)len;
        memset(o->text + o->n, ' ', len - o->n);
        o->text[len] = 0;
    }
    if (!b.ok || !o->n || !line_starts(o->text, o->n, &o->rows, &o->nrows) ||
        !line_starts(data, len, &o->lines, &o->nlines)) {
        py_nb_free(o);
        return false;
    }
    return true;
}

/* The file position (1-based) of file offset at. */
static void nb_file_pos(const py_nb *nb, uint32_t at, uint32_t *line, uint32_t *col) {
    uint32_t lo = 0, hi = nb->nlines; /* the last line start <= at */
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (nb->lines[mid] <= at) lo = mid;
        else hi = mid;
    }
    *line = lo + 1;
    *col = at - nb->lines[lo] + 1;
}

/* The code offset of a 1-based text position, within the code. */
static uint32_t nb_text_at(const py_nb *nb, uint32_t line, uint32_t col) {
    if (!line) return 0;
    uint32_t at = line - 1 < nb->nrows ? nb->rows[line - 1] + (col ? col - 1 : 0) : nb->n;
    return at < nb->n ? at : nb->n;
}

/* How many file bytes the decoded character at file offset at was read from: a \uXXXX
 * escape 6, a surrogate pair's two 12, another escape 2; a raw character's lead byte its
 * UTF-8 length (a folded one maps every letter there), any other byte itself. */
static uint32_t nb_encoded_len(const py_nb *nb, uint32_t at) {
    const char *d = nb->data + at, *end = nb->data + nb->off[nb->n]; /* off[n]: the file's length */
    unsigned char c = (unsigned char)*d;
    if (c >= 0xC0) {
        uint32_t cp;
        size_t n = text_utf8_decode((const unsigned char *)d, (size_t)(end - d), &cp);
        return n ? (uint32_t)n : 1;
    }
    if (c != '\\' || end - d < 2) return 1;
    if (d[1] != 'u') return 2;
    int hi = nb_hex4(d + 2, end);
    if (hi >= 0xD800 && hi < 0xDC00 && end - d >= 12 && d[6] == '\\' && d[7] == 'u') {
        int lo = nb_hex4(d + 8, end);
        if (lo >= 0xDC00 && lo < 0xE000) return 12;
    }
    return 6;
}

sunset_span py_nb_span(const py_nb *nb, sunset_span s) {
    if (!s.line) return s;
    sunset_span o;
    uint32_t a = nb_text_at(nb, s.line, s.col), e = nb_text_at(nb, s.end_line, s.end_col);
    nb_file_pos(nb, nb->off[a], &o.line, &o.col);
    if (e <= a) { /* empty: where it starts */
        o.end_line = o.line;
        o.end_col = o.col;
        return o;
    }
    uint32_t last = nb->off[e - 1];
    nb_file_pos(nb, last + nb_encoded_len(nb, last), &o.end_line, &o.end_col);
    return o;
}

/* Commented-out code is the top-level statements of the comments' parse that parse cleanly
 * and do something (a call, an assignment, an import): prose that happens to parse (`# see
 * ParallelExecutor`) is a bare expression and stays a comment. */
bool py_dead_statements(TSNode root, vec *out) {
    for (uint32_t i = 0; i < ts_node_named_child_count(root); i++) {
        TSNode st = ts_node_named_child(root, i);
        if (ts_node_has_error(st)) continue;
        const char *t = ts_node_type(st);
        bool ok = !strcmp(t, "import_statement") || !strcmp(t, "import_from_statement");
        if (!strcmp(t, "expression_statement") && ts_node_named_child_count(st) == 1) {
            const char *k = ts_node_type(ts_node_named_child(st, 0));
            ok = !strcmp(k, "call") || !strcmp(k, "assignment") || !strcmp(k, "augmented_assignment");
        }
        uint32_t r[2] = {ts_node_start_byte(st), ts_node_end_byte(st)};
        if (ok && !vec_push(out, &r)) return false;
    }
    return true;
}

/* Drop the blanks of the mask's lines that hold nothing but blanks, keeping their newlines;
 * returns the new length. Every line keeps its number and every byte that is not blank its
 * column, which is all a parse reports (node_span is rows and columns; byte offsets are only
 * compared within this buffer), and Python's tokenizer ignores a blank line whatever its
 * blanks. A mask is mostly such lines: the parse then reads the examples, not the file. */
size_t py_squeeze_blank_lines(char *m, size_t len) {
    size_t w = 0;
    for (size_t r = 0; r < len;) {
        const char *nl = memchr(m + r, '\n', len - r);
        size_t end = nl ? (size_t)(nl - m) : len, k = r;
        while (k < end && (m[k] == ' ' || m[k] == '\t' || m[k] == '\r')) k++;
        if (k < end) { /* a line with code: as it was */
            memmove(m + w, m + r, end - r);
            w += end - r;
        }
        if (nl) m[w++] = '\n';
        r = nl ? end + 1 : len;
    }
    return w;
}
