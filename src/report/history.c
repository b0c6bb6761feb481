/*
 * report/history.c — the writers of a history series: CSV, JSON (the document `merge` joins
 * across shards) and the SVG burn-down, drawn here with no external tool.
 */
#include "report/history.h"

#include <stdlib.h>
#include <string.h>


static void csv_field(sb *b, const char *s) {
    sb_putc(b, '"');
    for (; *s; s++) {
        if (*s == '"') sb_putc(b, '"');
        sb_putc(b, *s == '\n' ? ' ' : *s);
    }
    sb_putc(b, '"');
}

void history_write_csv(const history_sample *v, size_t n, const sunset_family_title *fam, size_t nf, sb *b) {
    sb_puts(b, "commit,date,subject,pr,findings,files");
    for (int t = 1; t < HISTORY_TASKS; t++) sb_printf(b, ",task%d", t);
    for (size_t f = 0; f < nf; f++) sb_printf(b, ",%s", fam[f].id);
    sb_putc(b, '\n');
    for (size_t i = 0; i < n; i++) {
        char hex[GIT_OID_HEXSZ + 1], date[64];
        git_oid_tostr(hex, sizeof hex, &v[i].id);
        history_iso_date(v[i].time, v[i].tz_minutes, date, sizeof date);
        sb_printf(b, "%s,%s,", hex, date);
        csv_field(b, v[i].subject);
        if (v[i].pr > 0) sb_printf(b, ",%ld", v[i].pr);
        else sb_puts(b, ",");
        sb_printf(b, ",%u,%u", v[i].total.findings, v[i].files);
        for (int t = 1; t < HISTORY_TASKS; t++) sb_printf(b, ",%u", v[i].total.by_task[t]);
        for (size_t f = 0; f < nf; f++) sb_printf(b, ",%u", v[i].total.by_family[f]);
        sb_putc(b, '\n');
    }
}

void history_write_json(const history_sample *v, size_t n, const sunset_family_title *fam, size_t nf,
                       const char *range, sb *b) {
    sb_puts(b, "{\"version\":1,\"range\":\"");
    sb_put_json_escaped(b, range, strlen(range));
    sb_puts(b, "\",\"families\":[");
    for (size_t f = 0; f < nf; f++) sb_printf(b, "%s\"%s\"", f ? "," : "", fam[f].id);
    sb_puts(b, "],\"commits\":[");
    for (size_t i = 0; i < n; i++) {
        char hex[GIT_OID_HEXSZ + 1], date[64];
        git_oid_tostr(hex, sizeof hex, &v[i].id);
        history_iso_date(v[i].time, v[i].tz_minutes, date, sizeof date);
        sb_printf(b, "%s\n{\"index\":%zu,\"commit\":\"%s\",\"date\":\"%s\",\"subject\":\"", i ? "," : "", v[i].index, hex, date);
        sb_put_json_escaped(b, v[i].subject, strlen(v[i].subject));
        sb_puts(b, "\",\"pr\":");
        if (v[i].pr > 0) sb_printf(b, "%ld", v[i].pr);
        else sb_puts(b, "null");
        sb_printf(b, ",\"tracked\":%s,\"findings\":%u,\"files\":%u,\"by_task\":{",
                  v[i].tracked ? "true" : "false", v[i].total.findings, v[i].files);
        for (int t = 1; t < HISTORY_TASKS; t++) sb_printf(b, "%s\"%d\":%u", t > 1 ? "," : "", t, v[i].total.by_task[t]);
        sb_puts(b, "},\"by_family\":{");
        for (size_t f = 0; f < nf; f++) sb_printf(b, "%s\"%s\":%u", f ? "," : "", fam[f].id, v[i].total.by_family[f]);
        sb_puts(b, "}}");
    }
    sb_puts(b, n ? "\n]}\n" : "]}\n");
}

static void svg_text(sb *b, const char *s) {
    for (; *s; s++) {
        switch (*s) {
        case '<': sb_puts(b, "&lt;"); break;
        case '>': sb_puts(b, "&gt;"); break;
        case '&': sb_puts(b, "&amp;"); break;
        case '"': sb_puts(b, "&quot;"); break;
        default: sb_putc(b, *s);
        }
    }
}

/* A burn-down: open findings per task over the sampled commits, the total on top, and a
 * marker on each commit whose subject names a PR and that removed findings. */
void history_svg(const history_point *pts, size_t n, sb *b) {
    static const char *colors[HISTORY_TASKS] = {"#000", "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b"};
    const int W = 960, H = 420, L = 60, R = 20, T = 30, B = 60;
    uint32_t maxv = 1;
    for (size_t i = 0; i < n; i++)
        if (pts[i].findings > maxv) maxv = pts[i].findings;
    double xs = n > 1 ? (double)(W - L - R) / (double)(n - 1) : 0;
    double ys = (double)(H - T - B) / maxv;
    sb_printf(b, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
                 "font-family=\"sans-serif\" font-size=\"11\" role=\"img\" aria-label=\"legacy findings burn-down\">\n",
              W, H, W, H);
    sb_printf(b, "<rect width=\"%d\" height=\"%d\" fill=\"#fff\"/>\n", W, H);
    sb_printf(b, "<text x=\"%d\" y=\"18\" font-size=\"14\">Open legacy findings per task (%zu commits)</text>\n", L, n);
    /* y grid: 5 steps */
    for (int k = 0; k <= 5; k++) {
        uint32_t v = (uint32_t)((uint64_t)maxv * (uint64_t)k / 5);
        double y = H - B - v * ys;
        sb_printf(b, "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>"
                     "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%u</text>\n",
                  L, W - R, y, y, L - 6, y + 4, v);
    }
    for (int series = 0; series < HISTORY_TASKS; series++) {
        bool any = false;
        for (size_t i = 0; i < n; i++) any |= (series ? pts[i].by_task[series] : pts[i].findings) > 0;
        if (!any) continue;
        sb_printf(b, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"%s\" points=\"", colors[series],
                  series ? "1.5" : "2.5");
        for (size_t i = 0; i < n; i++) {
            uint32_t v = series ? pts[i].by_task[series] : pts[i].findings;
            sb_printf(b, "%s%.1f,%.1f", i ? " " : "", L + i * xs, H - B - v * ys);
        }
        sb_puts(b, "\"/>\n");
    }
    for (size_t i = 1; i < n; i++) {
        if (pts[i].pr <= 0 || pts[i].findings >= pts[i - 1].findings) continue;
        double x = L + i * xs, y = H - B - pts[i].findings * ys;
        sb_printf(b, "<g class=\"pr\"><line x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\" stroke=\"#bbb\" "
                     "stroke-dasharray=\"3,3\"/><circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"#000\"><title>#%ld ",
                  x, x, T, H - B, x, y, pts[i].pr);
        svg_text(b, pts[i].label ? pts[i].label : "");
        sb_printf(b, " (-%u)</title></circle><text x=\"%.1f\" y=\"%d\" font-size=\"9\" text-anchor=\"middle\">#%ld</text></g>\n",
                  pts[i - 1].findings - pts[i].findings, x, T + 10 + (int)(i % 3) * 10, pts[i].pr);
    }
    /* x labels: first and last date */
    if (n) {
        sb_printf(b, "<text x=\"%d\" y=\"%d\">", L, H - B + 18);
        svg_text(b, pts[0].date);
        sb_printf(b, "</text><text x=\"%d\" y=\"%d\" text-anchor=\"end\">", W - R, H - B + 18);
        svg_text(b, pts[n - 1].date);
        sb_puts(b, "</text>\n");
    }
    /* legend */
    int lx = L;
    for (int series = 0; series < HISTORY_TASKS; series++) {
        char label[16];
        if (series) snprintf(label, sizeof label, "task %d", series);
        else snprintf(label, sizeof label, "all");
        sb_printf(b, "<rect x=\"%d\" y=\"%d\" width=\"10\" height=\"10\" fill=\"%s\"/><text x=\"%d\" y=\"%d\">%s</text>\n",
                  lx, H - 22, colors[series], lx + 14, H - 13, label);
        lx += 70;
    }
    sb_puts(b, "</svg>\n");
}

void history_write_svg(const history_sample *v, size_t n, sb *b) {
    history_point *pts = sunset_calloc(n ? n : 1, sizeof *pts);
    char (*dates)[64] = sunset_calloc(n ? n : 1, sizeof *dates);
    if (!pts || !dates) {
        b->oom = true;
        sunset_free(pts);
        sunset_free(dates);
        return;
    }
    for (size_t i = 0; i < n; i++) {
        history_iso_date(v[i].time, v[i].tz_minutes, dates[i], sizeof dates[i]);
        dates[i][10] = 0; /* the day is enough on an axis */
        pts[i].findings = v[i].total.findings;
        for (int t = 0; t < HISTORY_TASKS; t++) pts[i].by_task[t] = v[i].total.by_task[t];
        pts[i].pr = v[i].tracked ? v[i].pr : -1;
        pts[i].label = v[i].subject;
        pts[i].date = dates[i];
    }
    history_svg(pts, n, b);
    sunset_free(pts);
    sunset_free(dates);
}

