/*
 * github.c — GitHub Actions workflow commands, one annotation per (unsuppressed) finding:
 * `::error file=P,line=L,col=C,endLine=EL,endColumn=EC,title=T::MESSAGE`. Highest
 * severities first (error, then warning, then notice for info), and at most GITHUB_CAP of each
 * level, because GitHub displays only that many per step; the rest are counted on a
 * "+N more" line. Data is escaped as the runner expects (% CR LF as %25 %0D %0A), property
 * values also ':' and ',' (%3A %2C). The Markdown step summary is the markdown writer's job.
 */
#include "report/report.h"

#include <string.h>

#define GITHUB_CAP 10

/* Escape s for a workflow command: data always, properties also ':' and ','. */
void sunset_github_escape(sb *b, const char *s, bool property) {
    for (; s && *s; s++) {
        switch (*s) {
        case '%': sb_puts(b, "%25"); break;
        case '\r': sb_puts(b, "%0D"); break;
        case '\n': sb_puts(b, "%0A"); break;
        case ':':
            if (property) sb_puts(b, "%3A");
            else sb_putc(b, ':');
            break;
        case ',':
            if (property) sb_puts(b, "%2C");
            else sb_putc(b, ',');
            break;
        default: sb_putc(b, *s);
        }
    }
}

static const char *command(sunset_severity s) {
    return s == SUNSET_SEV_ERROR ? "error" : s == SUNSET_SEV_WARNING ? "warning" : "notice";
}

static int write_github(const sunset_result *r, const sunset_envelope *e, sb *b) {
    size_t more[SUNSET_SEV_COUNT] = {0};
    for (int sev = SUNSET_SEV_ERROR; sev >= SUNSET_SEV_INFO; sev--) {
        size_t shown = 0;
        for (size_t i = 0; i < r->n_findings; i++) {
            const sunset_finding *f = &r->findings[i];
            if (f->suppressed || f->severity != (sunset_severity)sev) continue;
            if (shown == GITHUB_CAP) {
                more[sev]++;
                continue;
            }
            shown++;
            sb path = {0}, title = {0}, msg = {0};
            sb_printf(&path, "%s%s", e->uri_prefix ? e->uri_prefix : "", f->path);
            uint32_t line = f->span.line ? f->span.line : 1;
            sb_printf(b, "::%s file=", command(f->severity));
            sunset_github_escape(b, path.s, true);
            sb_printf(b, ",line=%u", line);
            if (f->span.col) sb_printf(b, ",col=%u", f->span.col);
            if (f->span.end_line >= line) sb_printf(b, ",endLine=%u", f->span.end_line);
            if (f->span.end_line == line && f->span.end_col > f->span.col)
                sb_printf(b, ",endColumn=%u", f->span.end_col);
            if (f->task) sb_printf(&title, "sunset %s (task %d)", f->rule_id, f->task);
            else sb_printf(&title, "sunset %s", f->rule_id);
            sb_puts(b, ",title=");
            sunset_github_escape(b, title.s, true);
            sb_printf(&msg, "%s", f->message);
            if (f->ctx != SUNSET_CTX_CODE) sb_printf(&msg, " (in a %s)", sunset_context_name(f->ctx));
            if (f->fix && *f->fix) sb_printf(&msg, "\nFix: %s", f->fix);
            sb_puts(b, "::");
            sunset_github_escape(b, msg.s, false);
            sb_putc(b, '\n');
            bool oom = path.oom || title.oom || msg.oom;
            sb_free(&path);
            sb_free(&title);
            sb_free(&msg);
            if (oom) return -1;
        }
    }
    for (int sev = SUNSET_SEV_ERROR; sev >= SUNSET_SEV_INFO; sev--)
        if (more[sev])
            sb_printf(b, "sunset: +%zu more %s%s not shown as annotations (GitHub shows %d per step; "
                         "see the step summary)\n",
                      more[sev], command((sunset_severity)sev), more[sev] == 1 ? "" : "s", GITHUB_CAP);
    const sunset_gate *g = e->gate;
    if (g)
        sb_printf(b, "sunset: %s: %zu new finding%s (%zu at or above %s), %zu fixed, %zu suppressed\n",
                  g->n_failing ? "gate failed" : "gate passed", g->n_new, g->n_new == 1 ? "" : "s",
                  g->n_failing, sunset_severity_name(g->threshold), g->n_fixed, g->n_suppressed);
    return b->oom ? -1 : 0;
}

const sunset_writer sunset_writer_github = {"github", write_github};
