/*
 * tracking_update.c — `report --update`: the markers that delimit the report in an issue body
 * (recognised only as a line of their own), the region between them replaced, and any marker
 * line inside the report defused so that text sunset writes never reads as one
 * (tracking_update_body and tracking_defuse_markers in tracking.h).
 */
#include <stdlib.h>
#include <string.h>

#include "analysis/tracking.h"

/* Is the line s[0, n) exactly the marker (a CR before its newline allowed)? */
static bool is_mark(const char *s, size_t n, const char *mark) {
    if (n && s[n - 1] == '\r') n--;
    return n == strlen(mark) && memcmp(s, mark, n) == 0;
}

/* The first line at or after p (a line start) that is the marker, or NULL; *next = the line
 * after it. */
static const char *find_mark(const char *p, const char *mark, const char **next) {
    while (*p) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        if (is_mark(p, n, mark)) {
            *next = nl ? nl + 1 : p + n;
            return p;
        }
        if (!nl) break;
        p = nl + 1;
    }
    return NULL;
}

void tracking_defuse_markers(sb *md, size_t from) {
    if (!md->s || md->oom) return;
    sb out = {0};
    const char *p = md->s + from, *end = md->s + md->len;
    bool first = true;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t n = nl ? (size_t)(nl + 1 - p) : (size_t)(end - p), ln = nl ? n - 1 : n;
        bool last = !nl || nl + 1 == end;
        bool mark = is_mark(p, ln, TRACKING_MARK_BEGIN) || is_mark(p, ln, TRACKING_MARK_END);
        if (mark && !(first && is_mark(p, ln, TRACKING_MARK_BEGIN)) && !(last && is_mark(p, ln, TRACKING_MARK_END))) {
            sb_puts(&out, "&lt;"); /* shown as written, never read as a marker */
            sb_putn(&out, p + 1, n - 1);
        } else {
            sb_putn(&out, p, n);
        }
        first = false;
        p += n;
    }
    if (out.oom) {
        md->oom = true;
    } else {
        md->len = from;
        sb_putn(md, out.s ? out.s : "", out.len);
    }
    sb_free(&out);
}

char *tracking_update_body(const char *body, const char *region, bool *missing) {
    *missing = false;
    const char *after_b, *after_e;
    const char *b = find_mark(body, TRACKING_MARK_BEGIN, &after_b);
    const char *e = b ? find_mark(after_b, TRACKING_MARK_END, &after_e) : NULL;
    if (!b || !e) {
        *missing = true;
        return NULL;
    }
    /* the region carries its own markers and no other (tracking_defuse_markers); the body
     * keeps what follows the end marker's line, its own line break included */
    sb reg = {0};
    sb_puts(&reg, region);
    tracking_defuse_markers(&reg, 0);
    size_t rl = reg.len;
    while (rl && (reg.s[rl - 1] == '\n' || reg.s[rl - 1] == '\r')) rl--;
    e += strcspn(e, "\r\n"); /* the end marker's line break stays the body's */
    sb out = {0};
    sb_putn(&out, body, (size_t)(b - body));
    sb_putn(&out, reg.s ? reg.s : "", rl);
    sb_puts(&out, e);
    bool oom = reg.oom || out.oom;
    sb_free(&reg);
    if (oom) {
        sb_free(&out);
        return NULL;
    }
    return trk_take(&out);
}
