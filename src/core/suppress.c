/*
 * suppress.c — in-source suppressions, read from a file's raw text after its findings are
 * made. A marker counts only behind a comment leader (//, /*, #, <!--, .., or a block
 * comment's leading *), so a string or a backquoted mention in documentation is not one.
 * Forms: `sunset-ignore[IDS]: reason` covers its own line and, when it stands alone on its
 * line, the line below (stacked markers all reach the first line that is not a marker);
 * `sunset-ignore-begin[IDS]: reason` ... `sunset-ignore-end[IDS]` covers the lines between;
 * `sunset-ignore-file[IDS]: reason` the whole file. IDS is a comma list of rule ids or globs
 * (fnmatch). `until=YYYY-MM-DD` before the colon ends it after that day. A marker without a
 * reason or with one shorter than the ruleset's minimum, naming no known rule, a file-level one
 * naming `*`, one with a bad date or an unbalanced begin/end suppresses nothing and becomes a
 * SUNSET-SUPPRESSION finding of its own. A leader inside a string literal is not a comment.
 */
#include "core/suppress.h"

#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MARKER SUNSET_SUPPRESS_MARKER
#define MARKER_LEN (sizeof MARKER - 1)

typedef enum skind { SK_LINE, SK_BEGIN, SK_END, SK_FILE } skind;

typedef struct supp {
    skind kind;
    uint32_t line, col, end_col; /* the marker's position (end_col exclusive) */
    bool alone;                  /* nothing but the comment leader before it on its line */
    uint32_t target;             /* SK_LINE alone: the line below it reaches; 0 = none */
    uint32_t last;               /* SK_BEGIN: last line covered */
    char *ids;                   /* as written between [ and ]; owned */
    char *reason;                /* trimmed; NULL = none; owned */
    char *what;                  /* "sunset-ignore[...]" as written; owned */
    long until;                  /* days since 1970, -1 = none */
    const char *bad;             /* static message when malformed */
    bool used, closed;
} supp;

long sunset_suppress_parse_date(const char *s, size_t n) {
    if (n != 10 || s[4] != '-' || s[7] != '-') return -1;
    for (size_t i = 0; i < 10; i++)
        if (i != 4 && i != 7 && (s[i] < '0' || s[i] > '9')) return -1;
    long y = atol(s), m = (s[5] - '0') * 10 + (s[6] - '0'), d = (s[8] - '0') * 10 + (s[9] - '0');
    static const int mdays[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    if (m < 1 || m > 12 || d < 1 || d > mdays[m - 1]) return -1;
    bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    if (m == 2 && d == 29 && !leap) return -1;
    /* days from civil (Howard Hinnant's algorithm) */
    y -= m <= 2;
    long era = (y >= 0 ? y : y - 399) / 400;
    long yoe = y - era * 400;
    long doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

long sunset_suppress_today(void) { return (long)(time(NULL) / 86400); }

static bool is_space(char c) { return c == ' ' || c == '\t'; }

/* The comment leaders a marker may follow in a language; NULL-terminated. */
static const char *const *leaders_for(sunset_lang lang) {
    static const char *const c[] = {"//", "/*", "*", NULL};
    static const char *const hash[] = {"#", NULL};
    static const char *const md[] = {"<!--", NULL};
    static const char *const rst[] = {"..", NULL};
    static const char *const any[] = {"//", "/*", "<!--", "..", "#", "*", NULL};
    switch (lang) {
    case SUNSET_LANG_CPP:
    case SUNSET_LANG_PROTO: return c;
    case SUNSET_LANG_PYTHON:
    case SUNSET_LANG_CMAKE:
    case SUNSET_LANG_SHELL:
    case SUNSET_LANG_TEXT: return hash;
    case SUNSET_LANG_MARKDOWN: return md;
    case SUNSET_LANG_RST: return rst;
    default: return any;
    }
}

/* Is `at` inside a string literal of its line? A quote opens one unless a comment has begun
 * before it. One line only: a marker in a multi-line string (Python triple quotes, a C++ raw
 * string) is not seen as quoted. Languages without string literals never quote. */
static bool in_string(const char *line, const char *at, sunset_lang lang) {
    bool c_like = lang == SUNSET_LANG_CPP || lang == SUNSET_LANG_PROTO;
    bool hash = lang == SUNSET_LANG_PYTHON || lang == SUNSET_LANG_SHELL || lang == SUNSET_LANG_CMAKE;
    if (!c_like && !hash) return false;
    char q = 0;
    for (const char *p = line; p < at; p++) {
        if (q) {
            if (*p == '\\' && p + 1 < at) p++;
            else if (*p == q) q = 0;
        } else if (*p == '"' || *p == '\'') {
            q = *p;
        } else if (hash ? *p == '#' : (*p == '/' && p + 1 < at && (p[1] == '/' || p[1] == '*'))) {
            return false; /* a comment: what follows is not code */
        }
    }
    return q != 0;
}

/* Does [line, at) end with a comment leader that is not inside a string literal? Sets *alone
 * when only blanks precede it. */
static bool leader_before(const char *line, const char *at, sunset_lang lang, bool *alone) {
    const char *p = at;
    while (p > line && is_space(p[-1])) p--;
    for (const char *const *l = leaders_for(lang); *l; l++) {
        size_t n = strlen(*l);
        if ((size_t)(p - line) < n || memcmp(p - n, *l, n) != 0) continue;
        const char *q = p - n;
        if (in_string(line, q, lang)) return false;
        while (q > line && is_space(q[-1])) q--;
        *alone = q == line;
        return true;
    }
    return false;
}

/* Does the comma list name "*" alone (every rule)? */
static bool names_every_rule(const char *ids) {
    for (const char *p = ids; *p;) {
        while (*p == ',' || is_space(*p)) p++;
        const char *e = p;
        while (*e && *e != ',') e++;
        size_t n = (size_t)(e - p);
        while (n && is_space(p[n - 1])) n--;
        if (n == 1 && *p == '*') return true;
        p = e;
    }
    return false;
}

static char *trimmed_dup(const char *s, size_t n) {
    /* a block comment or an HTML comment ends the reason */
    const char *close = memmem(s, n, "*/", 2);
    if (close) n = (size_t)(close - s);
    if ((close = memmem(s, n, "-->", 3))) n = (size_t)(close - s);
    while (n && (is_space(*s))) s++, n--;
    while (n && (is_space(s[n - 1]) || s[n - 1] == '\r')) n--;
    return sunset_strndup(s, n);
}

/* The next id (or glob) of the comma list at *p into buf (trimmed, cut to cap - 1 bytes);
 * false at the end of the list. */
static bool next_id(const char **p, char *buf, size_t cap) {
    for (;;) {
        while (**p == ',' || is_space(**p)) (*p)++;
        if (!**p) return false;
        const char *s = *p, *e = s;
        while (*e && *e != ',') e++;
        *p = e;
        size_t n = (size_t)(e - s);
        while (n && is_space(s[n - 1])) n--;
        if (!n) continue;
        if (n >= cap) n = cap - 1;
        memcpy(buf, s, n);
        buf[n] = 0;
        return true;
    }
}

/* Does the comma list `ids` name rule `id`? */
static bool ids_match(const char *ids, const char *id) {
    char pat[256];
    for (const char *p = ids; next_id(&p, pat, sizeof pat);)
        if (fnmatch(pat, id, 0) == 0) return true;
    return false;
}

bool sunset_rule_id_token(const sunset_ruleset *rs, const char *s, size_t n) {
    char buf[128];
    if (n < 3 || n >= sizeof buf || !(s[0] >= 'A' && s[0] <= 'Z')) return false;
    bool dash = false;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (c == '-') dash = true;
        else if (!((c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '*' || c == '_'))
            return false;
    }
    if (!dash) return false;
    memcpy(buf, s, n);
    buf[n] = 0;
    for (size_t i = 0; i < rs->rules.n; i++)
        if (fnmatch(buf, VEC_AT(&rs->rules, sunset_rule *, i)->id, 0) == 0) return true;
    return strcmp(buf, SUNSET_SUPPRESSION_RULE) == 0;
}

/* The first id (or glob) in `ids` that matches no rule of rs; NULL when all are known. */
static const char *unknown_id(const char *ids, const sunset_ruleset *rs, char *buf, size_t cap) {
    bool any = false;
    for (const char *p = ids; next_id(&p, buf, cap);) {
        any = true;
        bool known = false;
        for (size_t i = 0; !known && i < rs->rules.n; i++)
            known = fnmatch(buf, VEC_AT(&rs->rules, sunset_rule *, i)->id, 0) == 0;
        if (!known) return buf;
    }
    if (!any) {
        snprintf(buf, cap, "(none)");
        return buf;
    }
    return NULL;
}

/* Parse the marker at `at` (pointing at "sunset-ignore") on line `ln` of [line, eol).
 * Returns false when it is not a marker at all (e.g. "sunset-ignored"). */
static bool parse_marker(const char *line, const char *eol, const char *at, uint32_t ln, bool alone,
                         const sunset_ruleset *rs, supp *s) {
    memset(s, 0, sizeof *s);
    s->until = -1;
    s->line = ln;
    s->col = (uint32_t)(at - line) + 1;
    s->alone = alone;
    const char *p = at + MARKER_LEN;
    s->kind = SK_LINE;
    if ((size_t)(eol - p) >= 6 && memcmp(p, "-begin", 6) == 0) s->kind = SK_BEGIN, p += 6;
    else if ((size_t)(eol - p) >= 4 && memcmp(p, "-end", 4) == 0) s->kind = SK_END, p += 4;
    else if ((size_t)(eol - p) >= 5 && memcmp(p, "-file", 5) == 0) s->kind = SK_FILE, p += 5;
    if (p < eol && (*p == '-' || *p == '_' || (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
                    (*p >= '0' && *p <= '9')))
        return false;
    const char *ids = NULL, *ids_end = NULL;
    if (p < eol && *p == '[') {
        ids = p + 1;
        ids_end = memchr(ids, ']', (size_t)(eol - ids));
        if (!ids_end) {
            s->bad = "malformed suppression: missing ']' after the rule list";
            s->end_col = (uint32_t)(eol - line) + 1;
            s->what = sunset_strndup(at, (size_t)(eol - at));
            return true;
        }
        p = ids_end + 1;
    } else if (s->kind != SK_END) {
        s->bad = "malformed suppression: expected sunset-ignore[RULE-ID]: reason";
    }
    s->end_col = (uint32_t)(p - line) + 1;
    s->what = sunset_strndup(at, (size_t)(p - at));
    s->ids = ids ? sunset_strndup(ids, (size_t)(ids_end - ids)) : NULL;
    if (s->bad) return true;
    while (p < eol && is_space(*p)) p++;
    if ((size_t)(eol - p) >= 6 && memcmp(p, "until=", 6) == 0) {
        p += 6;
        const char *d = p;
        while (p < eol && !is_space(*p) && *p != ':') p++;
        s->until = sunset_suppress_parse_date(d, (size_t)(p - d));
        if (s->until < 0) {
            s->bad = "malformed suppression: until= takes a date YYYY-MM-DD";
            return true;
        }
        while (p < eol && is_space(*p)) p++;
    }
    if (p < eol && *p == ':') s->reason = trimmed_dup(p + 1, (size_t)(eol - p - 1));
    if (s->reason && !*s->reason) {
        sunset_free(s->reason);
        s->reason = NULL;
    }
    char buf[256];
    if (s->ids && unknown_id(s->ids, rs, buf, sizeof buf))
        s->bad = "suppression names an unknown rule";
    else if (s->kind == SK_FILE && s->ids && names_every_rule(s->ids))
        s->bad = "a file-level suppression must name its rules: sunset-ignore-file[*] is not accepted";
    else if (s->kind != SK_END && !s->reason)
        s->bad = "suppression without a reason: write ': why' after the rule list";
    else if (s->kind != SK_END && strlen(s->reason) < rs->suppress_min_reason)
        s->bad = "suppression reason too short: write a sentence saying why (suppression_min_reason in .sunset.json)";
    return true;
}

static void supp_free(supp *s) {
    sunset_free(s->ids);
    sunset_free(s->reason);
    sunset_free(s->what);
}

static int add_unused(sunset_result *r, const char *path, const supp *s, bool expired) {
    sb what = {0};
    sb_puts(&what, s->what ? s->what : MARKER);
    if (expired) {
        /* back from days to a date for the message */
        time_t t = (time_t)s->until * 86400;
        struct tm tm;
        gmtime_r(&t, &tm);
        sb_printf(&what, " (expired %04d-%02d-%02d)", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday);
    }
    int rc = what.oom ? -1 : sunset_result_add_unused(r, path, s->line, what.s);
    sb_free(&what);
    return rc;
}

/* A SUNSET-SUPPRESSION finding for a malformed marker. */
static int add_bad(sunset_result *r, const sunset_source *src, const supp *s, const char *line,
                   size_t line_len) {
    if (line_len > 400) line_len = 400;
    if (line_len && line[line_len - 1] == '\r') line_len--;
    char *snippet = sunset_strndup(line, line_len);
    sunset_finding f = {
        .rule_id = SUNSET_SUPPRESSION_RULE, .family = SUNSET_SUPPRESSION_FAMILY, .message = s->bad,
        .fix = SUNSET_SUPPRESSION_FIX, .severity = SUNSET_SEV_ERROR, .ctx = SUNSET_CTX_COMMENT,
        .span = {s->line, s->col, s->line, s->end_col}, .path = (char *)src->path,
        .matched = (char *)(s->what ? s->what : MARKER), .snippet = snippet,
    };
    int rc = snippet && sunset_result_add(r, &f) ? 0 : -1;
    sunset_free(snippet);
    return rc;
}

static bool covers(const supp *s, uint32_t line) {
    switch (s->kind) {
    case SK_LINE: return line == s->line || (s->target && line == s->target);
    case SK_BEGIN: return line >= s->line && line <= s->last;
    case SK_FILE: return true;
    case SK_END: return false;
    }
    return false;
}

int sunset_suppress_file(sunset_result *res, size_t first, const sunset_source *src,
                         const sunset_ruleset *rs, long today) {
    if (!src->data || !memmem(src->data, src->len, MARKER, MARKER_LEN)) return 0;
    vec ss = VEC_INIT(supp);
    vec lines = VEC_INIT(const char *); /* start of each marker's line, parallel to ss */
    int rc = 0;
    const char *d = src->data, *end = d + src->len;
    uint32_t ln = 1;
    for (const char *line = d; line < end; ln++) {
        const char *nl = memchr(line, '\n', (size_t)(end - line));
        const char *eol = nl ? nl : end;
        const char *p = line;
        while (p < eol && (p = memmem(p, (size_t)(eol - p), MARKER, MARKER_LEN))) {
            bool alone = false;
            supp s;
            if (leader_before(line, p, src->lang, &alone) && parse_marker(line, eol, p, ln, alone, rs, &s)) {
                if (!vec_push(&ss, &s) || !vec_push(&lines, &line)) {
                    supp_free(&s);
                    rc = -1;
                    goto cleanup;
                }
            }
            p += MARKER_LEN;
        }
        if (!nl) break;
        line = nl + 1;
    }
    supp *v = ss.v;
    /* alone markers reach the first line below that is not itself an alone marker */
    for (size_t i = 0; i < ss.n; i++) {
        if (v[i].kind != SK_LINE || !v[i].alone) continue;
        uint32_t t = v[i].line + 1;
        for (size_t j = i + 1; j < ss.n && v[j].line <= t; j++)
            if (v[j].line == t && v[j].alone) t++;
        v[i].target = t;
    }
    /* pair begin/end: an end closes the innermost open begin (with the same ids if it names any) */
    for (size_t i = 0; i < ss.n; i++) {
        if (v[i].kind != SK_END || v[i].bad) continue;
        size_t k = i;
        while (k-- > 0) {
            if (v[k].kind != SK_BEGIN || v[k].closed || v[k].bad) continue;
            if (v[i].ids && (!v[k].ids || strcmp(v[i].ids, v[k].ids) != 0)) continue;
            break;
        }
        if (k == (size_t)-1) {
            v[i].bad = "sunset-ignore-end without a matching sunset-ignore-begin";
            continue;
        }
        v[k].closed = true;
        v[k].last = v[i].line;
    }
    for (size_t i = 0; i < ss.n; i++)
        if (v[i].kind == SK_BEGIN && !v[i].bad && !v[i].closed)
            v[i].bad = "sunset-ignore-begin without a matching sunset-ignore-end";
    /* apply: the most specific form gives the justification; every covering marker is used */
    size_t n_file_findings = res->n_findings;
    for (size_t fi = first; fi < n_file_findings; fi++) {
        sunset_finding *f = &res->findings[fi];
        if (strcmp(f->rule_id, SUNSET_SUPPRESSION_RULE) == 0) continue;
        const supp *best = NULL;
        for (size_t i = 0; i < ss.n; i++) {
            supp *s = &v[i];
            if (s->bad || s->kind == SK_END || (s->until >= 0 && today > s->until)) continue;
            if (!covers(s, f->span.line) || !s->ids || !ids_match(s->ids, f->rule_id)) continue;
            s->used = true;
            if (!best || s->kind < best->kind) best = s; /* SK_LINE < SK_BEGIN < SK_FILE */
        }
        if (best && !f->suppressed) {
            f->justification = sunset_strndup(best->reason, strlen(best->reason));
            if (!f->justification) {
                rc = -1;
                goto cleanup;
            }
            f->suppressed = true;
        }
    }
    for (size_t i = 0; i < ss.n; i++) {
        const supp *s = &v[i];
        const char *line = VEC_AT(&lines, const char *, i);
        const char *nl = memchr(line, '\n', (size_t)(end - line));
        if (s->bad) {
            if (add_bad(res, src, s, line, nl ? (size_t)(nl - line) : (size_t)(end - line))) rc = -1;
        } else if (s->kind != SK_END) {
            bool expired = s->until >= 0 && today > s->until;
            if ((expired || !s->used) && add_unused(res, src->path, s, expired)) rc = -1;
        }
    }
cleanup:
    for (size_t i = 0; i < ss.n; i++) supp_free(&VEC_AT(&ss, supp, i));
    vec_free(&ss);
    vec_free(&lines);
    return rc;
}
