/*
 * tokens.c — the token table of the C/C++ frontend. libclang lexes the whole file raw
 * (clang_tokenize), so code in every #if/#elif/#else branch is seen, active or not; this
 * file turns those tokens into the compact `ctok` table the passes share: a punctuation code
 * per token, the line-start offsets, which tokens start a logical line (a newline not
 * escaped by a backslash), which belong to a preprocessor directive and which carry no facts
 * (directive names, include paths). It also answers the positional questions every pass
 * asks: byte offset to line and column, a token range as written, a directive's kind.
 */
#include "lang/clang/clang_int.h"

#include <stdint.h>
#include <string.h>

/* ---------------------------------------------------------------- positions */

uint32_t clang_line_of(const cscan *c, uint32_t off) {
    const uint32_t *ls = c->lines.v;
    size_t lo = 0, hi = c->lines.n; /* ls[0] == 0 <= off */
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (ls[mid] <= off) lo = mid;
        else hi = mid;
    }
    return (uint32_t)lo + 1;
}

static void pos_of(const cscan *c, uint32_t off, uint32_t *line, uint32_t *col) {
    uint32_t l = clang_line_of(c, off);
    *line = l;
    *col = off - ((const uint32_t *)c->lines.v)[l - 1] + 1;
}

/* Most spans are one token on one line: its end is placed without a second search when it
 * comes before the next line's start (a span per identifier of every parsed file). */
sunset_span clang_span_of(const cscan *c, uint32_t s, uint32_t e) {
    sunset_span sp;
    pos_of(c, s, &sp.line, &sp.col);
    const uint32_t *ls = c->lines.v;
    if (e >= s && (sp.line >= c->lines.n || e < ls[sp.line])) {
        sp.end_line = sp.line;
        sp.end_col = e - ls[sp.line - 1] + 1;
    } else {
        pos_of(c, e, &sp.end_line, &sp.end_col);
    }
    return sp;
}

static bool word_byte(char ch) {
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
           ch == '_' || (unsigned char)ch >= 0x80;
}

/* Appends the tokens a..b (inclusive) as written but without whitespace, keeping one space
 * between two word tokens; template argument lists are left out when skip_angles is set.
 * Output is capped at 512 bytes. */
void clang_join_tokens(cscan *c, int32_t a, int32_t b, bool in_dir, bool skip_angles, sb *out) {
    int angle = 0;
    for (int32_t k = a; k >= 0 && k <= b && k < c->n; k++) {
        const ctok *t = &c->t[k];
        if (t->kind == TK_COMMENT || (!in_dir && (t->flags & TF_DIRECTIVE))) continue;
        if (skip_angles) {
            if (t->punct == P_LT) { angle++; continue; }
            if (angle > 0) {
                if (t->punct == P_GT) angle--;
                else if (t->punct == P_SHR) angle = angle > 2 ? angle - 2 : 0;
                continue;
            }
        }
        if (out->len + tlen(c, k) + 1 > 512) break;
        if (out->len && word_byte(out->s[out->len - 1]) && word_byte(*ttext(c, k)))
            sb_putc(out, ' ');
        sb_putn(out, ttext(c, k), tlen(c, k));
    }
}

int clang_directive_kind(const cscan *c, int32_t hash) {
    int32_t d = nx(c, hash, true);
    if (d < 0) return D_OTHER;
    if (teq(c, d, "if") || teq(c, d, "ifdef") || teq(c, d, "ifndef")) return D_IF;
    if (teq(c, d, "elif") || teq(c, d, "else") || teq(c, d, "elifdef") ||
        teq(c, d, "elifndef"))
        return D_ELSE;
    if (teq(c, d, "endif")) return D_ENDIF;
    if (teq(c, d, "define")) return D_DEFINE;
    if (teq(c, d, "include") || teq(c, d, "include_next") || teq(c, d, "import"))
        return D_INCLUDE;
    return D_OTHER;
}

uint32_t clang_cursor_offset(CXSourceLocation loc) {
    unsigned off = 0;
    clang_getFileLocation(loc, NULL, NULL, NULL, &off);
    return off;
}

/* ---------------------------------------------------------------- token table */

static int punct_code(const char *s, uint32_t n) {
    if (n == 1) {
        switch (s[0]) {
        case '(': return P_LPAREN;
        case ')': return P_RPAREN;
        case '[': return P_LBRACK;
        case ']': return P_RBRACK;
        case '{': return P_LBRACE;
        case '}': return P_RBRACE;
        case ';': return P_SEMI;
        case ',': return P_COMMA;
        case ':': return P_COLON;
        case '.': return P_DOT;
        case '<': return P_LT;
        case '>': return P_GT;
        case '#': return P_HASH;
        case '~': return P_TILDE;
        case '*': return P_STAR;
        case '&': return P_AMP;
        case '=': return P_ASSIGN;
        case '?': return P_QUESTION;
        default: return P_OTHER;
        }
    }
    if (n == 2) {
        if (!memcmp(s, "::", 2)) return P_SCOPE;
        if (!memcmp(s, "->", 2)) return P_ARROW;
        if (!memcmp(s, ">>", 2)) return P_SHR;
        if (!memcmp(s, "&&", 2)) return P_ANDAND;
        if (!memcmp(s, "%:", 2)) return P_HASH;
        if (!memcmp(s, "<%", 2)) return P_LBRACE;
        if (!memcmp(s, "%>", 2)) return P_RBRACE;
        if (!memcmp(s, "<:", 2)) return P_LBRACK;
        if (!memcmp(s, ":>", 2)) return P_RBRACK;
        if (s[1] == '=' && strchr("+-*/%&|^", s[0])) return P_OPASSIGN;
        return P_OTHER;
    }
    if (n == 3) {
        if (!memcmp(s, "...", 3)) return P_ELLIPSIS;
        if (!memcmp(s, "<<=", 3) || !memcmp(s, ">>=", 3)) return P_OPASSIGN;
    }
    return P_OTHER;
}

/* A token's byte range through libclang's API: an extent and two file-location lookups, a
 * third of the frontend's own time on Paddle (perf). */
static void extent_api(CXTranslationUnit tu, CXToken t, uint32_t *s, uint32_t *e) {
    CXSourceRange ext = clang_getTokenExtent(tu, t);
    *s = clang_cursor_offset(clang_getRangeStart(ext));
    *e = clang_cursor_offset(clang_getRangeEnd(ext));
}

/* The same from the token itself: libclang's raw lexer stores the raw encoding of the
 * token's location in int_data[1] and its length in int_data[2], and a file location's
 * encoding is the file's base plus the offset, so offset = raw - base. That layout is
 * libclang's, not its API's: it is trusted only when it reproduces extent_api on the first
 * and last token and on every 64th between; else the API serves the whole file. */
static bool raw_extents_hold(CXTranslationUnit tu, const CXToken *toks, unsigned nt, uint32_t *base) {
    if (!nt) return false;
    uint32_t s, e;
    extent_api(tu, toks[0], &s, &e);
    *base = toks[0].int_data[1] - s;
    for (unsigned k = 0;; k += 64) {
        if (k >= nt) k = nt - 1;
        extent_api(tu, toks[k], &s, &e);
        if (toks[k].int_data[1] - *base != s || s + toks[k].int_data[2] != e) return false;
        if (k == nt - 1) return true;
    }
}

/* Converts libclang's tokens into the table (and annotates them in precise mode). */
bool clang_load_tokens(cscan *c, CXTranslationUnit tu, CXToken *toks, unsigned nt) {
    if (nt > INT32_MAX / 2) return false;
    c->t = sunset_calloc(nt ? nt : 1, sizeof *c->t);
    if (!c->t) return false;
    if (c->precise && nt) {
        c->cursors = sunset_malloc(nt * sizeof *c->cursors);
        if (!c->cursors) return false;
        clang_annotateTokens(tu, toks, nt, c->cursors);
    }
    int32_t n = 0;
    uint32_t prev_end = 0, base = 0;
    bool raw = raw_extents_hold(tu, toks, nt, &base);
    for (unsigned k = 0; k < nt; k++) {
        uint32_t s, e;
        if (raw) {
            s = toks[k].int_data[1] - base;
            e = s + toks[k].int_data[2];
        } else {
            extent_api(tu, toks[k], &s, &e);
        }
        if (e < s || e > c->len || s < prev_end) continue; /* never seen; be safe */
        ctok *t = &c->t[n];
        t->start = s;
        t->end = e;
        t->match = t->aux = t->rec = t->body = -1;
        switch (clang_getTokenKind(toks[k])) {
        case CXToken_Punctuation:
            t->kind = TK_PUNCT;
            t->punct = (uint8_t)punct_code(c->d + s, e - s);
            break;
        case CXToken_Keyword: t->kind = TK_KEYWORD; break;
        case CXToken_Identifier: t->kind = TK_IDENT; break;
        case CXToken_Literal: t->kind = TK_LITERAL; break;
        default: t->kind = TK_COMMENT; break;
        }
        if (c->cursors && (int32_t)k != n) c->cursors[n] = c->cursors[k];
        prev_end = e;
        n++;
    }
    c->n = n;
    return true;
}

/* Line starts; logical line starts (a newline not escaped by a backslash); directives. */
bool clang_mark_lines(cscan *c) {
    uint32_t zero = 0;
    if (!push(c, &c->lines, &zero)) return false;
    for (uint32_t k = 0; k < c->len; k++)
        if (c->d[k] == '\n') {
            uint32_t next = k + 1;
            if (!push(c, &c->lines, &next)) return false;
        }
    for (int32_t i = 0; i < c->n; i++) {
        bool ls = i == 0;
        if (!ls) {
            for (uint32_t k = c->t[i - 1].end; k < c->t[i].start; k++) {
                if (c->d[k] != '\n') continue;
                uint32_t m = k;
                if (m > c->t[i - 1].end && c->d[m - 1] == '\r') m--;
                if (m > c->t[i - 1].end && c->d[m - 1] == '\\') continue;
                ls = true;
                break;
            }
        }
        if (ls) c->t[i].flags |= TF_LINE_START;
    }
    for (int32_t i = 0; i < c->n; i++) {
        if (!((c->t[i].flags & TF_LINE_START) && c->t[i].punct == P_HASH)) continue;
        c->t[i].flags |= TF_DIR_HEAD | TF_DIRECTIVE;
        int32_t j = i + 1;
        for (; j < c->n && !(c->t[j].flags & TF_LINE_START); j++) c->t[j].flags |= TF_DIRECTIVE;
        int kind = clang_directive_kind(c, i);
        int32_t d = nx(c, i, true);
        if (d >= 0) c->t[d].flags |= TF_SKIP;
        if (kind == D_INCLUDE)
            for (int32_t k = i; k < j; k++)
                if (c->t[k].kind != TK_COMMENT) c->t[k].flags |= TF_SKIP;
        i = j - 1;
    }
    return true;
}
