/*
 * format.c — what every writer shares about writing text, below all of them (no writer calls
 * another's helpers): Markdown cell and code-span escaping, a finding's column in terminal
 * columns or UTF-16 code units, the suppressed count.
 */
#include "report/report.h"

#include <limits.h>
#include <string.h>

/* Table-cell text: '|' escaped, newlines as spaces, other control characters as
 * sb_put_printable shows them. In a code span (code) backquotes also become quotes, so the
 * span cannot end early. */
static void md_text(sb *b, const char *s, bool in_code) {
    while (s && *s) {
        size_t n = strcspn(s, in_code ? "|\n\r`" : "|\n\r");
        sb_put_printable(b, s, n);
        s += n;
        if (!*s) break;
        if (*s == '|') sb_puts(b, "\\|");
        else if (*s == '`') sb_putc(b, '\'');
        else sb_putc(b, ' ');
        s++;
    }
}

void sunset_md_text(sb *b, const char *s, bool in_code, bool span) {
    if (span) sb_putc(b, '`');
    md_text(b, s, in_code || span);
    if (span) sb_putc(b, '`');
}

size_t sunset_finding_column(const sunset_finding *f, uint32_t col, bool utf16) {
    if (!col || !f->snippet) return col;
    size_t len = strlen(f->snippet), before = col - 1;
    size_t in = before < len ? before : len;
    return 1 + utf8_columns(f->snippet, in, utf16) + (before - in);
}

size_t sunset_findings_suppressed(const sunset_result *r) {
    size_t n = 0;
    for (size_t i = 0; i < r->n_findings; i++) n += r->findings[i].suppressed;
    return n;
}

void sunset_task_set(sb *out, unsigned tasks, const char *sep) {
    bool first = true;
    for (unsigned t = 1; t < sizeof tasks * CHAR_BIT; t++)
        if (tasks & (1u << t)) {
            if (!first) sb_puts(out, sep);
            sb_printf(out, "%u", t);
            first = false;
        }
}
