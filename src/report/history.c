/*
 * report/history.c — the writers of a history series: CSV, JSON (the document `merge` joins
 * across shards) and the SVG burn-down, drawn here with no external tool.
 */
#include "report/history.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>


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
        history_iso_date(v[i].time, 0, date, sizeof date); /* UTC: one offset in a column */
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
        history_iso_date(v[i].time, 0, date, sizeof date); /* UTC: one offset in a column */
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

/* A "nice" axis step (1, 2 or 5 times a power of ten) giving at most `ticks` steps to max. */
static uint32_t nice_step(uint32_t max, int ticks) {
    uint64_t raw = ((uint64_t)max + (uint64_t)ticks - 1) / (uint64_t)ticks, p = 1;
    if (raw < 1) raw = 1;
    while (p * 10 <= raw) p *= 10;
    uint64_t step = raw <= p ? p : raw <= 2 * p ? 2 * p : raw <= 5 * p ? 5 * p : 10 * p;
    return step > UINT32_MAX ? UINT32_MAX : (uint32_t)step;
}

/* Map a commit time onto [x0, x1]: the chart's x axis is time, so a busy day is not wider. */
typedef struct xaxis {
    int64_t t0, t1;
    double x0, x1;
} xaxis;

static double xpos(const xaxis *a, int64_t t) {
    if (a->t1 <= a->t0) return (a->x0 + a->x1) / 2;
    return a->x0 + (a->x1 - a->x0) * (double)(t - a->t0) / (double)(a->t1 - a->t0);
}

static uint32_t series_value(const history_point *p, int series) {
    return series ? p->by_task[series] : p->findings;
}

/* One panel: a series on its own y scale, nice ticks, date ticks along the bottom. */
static void panel(sb *b, const history_point *pts, size_t n, int series, const char *title, const char *color,
                  const xaxis *ax, double y0, double h, const vec *drops, int ticks) {
    uint32_t maxv = 0;
    for (size_t i = 0; i < n; i++)
        if (series_value(&pts[i], series) > maxv) maxv = series_value(&pts[i], series);
    uint32_t step = nice_step(maxv ? maxv : 1, ticks), top = maxv ? (maxv + step - 1) / step * step : step;
    double ys = h / (double)top, base = y0 + h;
    uint32_t last = n ? series_value(&pts[n - 1], series) : 0, first = n ? series_value(&pts[0], series) : 0;
    sb_printf(b, "<g class=\"panel\" data-series=\"%d\">\n<text x=\"%.1f\" y=\"%.1f\" font-size=\"13\" font-weight=\"bold\">",
              series, ax->x0, y0 - 8);
    svg_text(b, title);
    sb_printf(b, "</text><text x=\"%.1f\" y=\"%.1f\" font-size=\"12\" text-anchor=\"end\">%u → %u", ax->x1, y0 - 8,
              first, last);
    if (first > last) sb_printf(b, " (−%u)", first - last);
    else if (last > first) sb_printf(b, " (+%u)", last - first);
    sb_puts(b, "</text>\n");
    for (uint32_t v = 0; v <= top; v += step) {
        double y = base - v * ys;
        sb_printf(b, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>"
                     "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" fill=\"#555\">%u</text>\n",
                  ax->x0, ax->x1, y, y, v ? "#e5e5e5" : "#999", ax->x0 - 5, y + 4, v);
        if (top - v < step) break;
    }
    for (size_t k = 0; k < drops->n; k++) {
        double x = xpos(ax, pts[VEC_AT(drops, size_t, k)].time);
        sb_printf(b, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#bbb\" stroke-dasharray=\"2,3\"/>\n",
                  x, x, y0, base);
    }
    if (n) {
        /* a step line: the count holds until the next commit changes it */
        sb_printf(b, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"", color);
        for (size_t i = 0; i < n; i++) {
            double x = xpos(ax, pts[i].time), y = base - series_value(&pts[i], series) * ys;
            if (i) sb_printf(b, " %.1f,%.1f", x, base - series_value(&pts[i - 1], series) * ys);
            sb_printf(b, " %.1f,%.1f", x, y);
        }
        sb_puts(b, "\"/>\n");
    }
    sb_puts(b, "</g>\n");
}

/* Date ticks under a panel: whole days, a step of 1, 2, 7, 14 or 28 days, at most ~7. */
static void date_ticks(sb *b, const xaxis *ax, double y) {
    static const int steps[] = {1, 2, 7, 14, 28, 56, 91, 182, 364};
    int64_t day = 86400, span = ax->t1 - ax->t0, step = steps[sizeof steps / sizeof steps[0] - 1] * day;
    for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++)
        if (span / (steps[i] * day) <= 7) {
            step = steps[i] * day;
            break;
        }
    for (int64_t t = (ax->t0 + day - 1) / day * day; t <= ax->t1; t += step) {
        time_t tt = (time_t)t;
        struct tm tm;
        char d[16];
        gmtime_r(&tt, &tm);
        strftime(d, sizeof d, "%m-%d", &tm);
        double x = xpos(ax, t);
        sb_printf(b, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#999\"/>"
                     "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" fill=\"#555\">%s</text>\n",
                  x, x, y, y + 4, x, y + 15, d);
    }
}

/* A drop's label: the PR, else the commit subject (shortened). */
static void drop_label(const history_point *p, char *out, size_t n) {
    if (p->pr > 0) {
        snprintf(out, n, "#%ld", p->pr);
        return;
    }
    const char *s = p->label ? p->label : "";
    size_t k = 0, chars = 0;
    /* whole UTF-8 characters, at most 28 */
    while (s[k] && chars < 28 && k + 4 < n) {
        k++;
        while (((unsigned char)s[k] & 0xC0) == 0x80) k++;
        chars++;
    }
    snprintf(out, n, "%.*s%s", (int)k, s, s[k] ? "…" : "");
}

void history_svg(const history_point *pts, size_t n, const char *window, uint32_t min_drop, sb *b) {
    static const char *colors[HISTORY_TASKS] = {"#000", "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b"};
    enum { W = 960, L = 56, R = 24, LANE = 14, MAX_LANES = 12, TOTAL_TICKS = 7, TASK_TICKS = 5 };
    vec drops = VEC_INIT(size_t);
    double lane_end[MAX_LANES];
    int lane_of[256];
    size_t nl = 0;
    xaxis ax = {n ? pts[0].time : 0, n ? pts[n - 1].time : 0, L, W - R};
    for (size_t i = 1; i < n; i++)
        if (pts[i].findings + min_drop < pts[i - 1].findings && !vec_push(&drops, &i)) b->oom = true;
    /* labels in lanes above the total: a label goes to the first lane where it does not
     * overlap its left neighbour, so none collide */
    for (size_t k = 0; k < drops.n && k < 256; k++) {
        char l[128];
        const history_point *p = &pts[VEC_AT(&drops, size_t, k)];
        drop_label(p, l, sizeof l);
        double x = xpos(&ax, p->time), w = 6.5 * (double)strlen(l) * 0.8 + 40;
        /* a label that would leave the chart ends at its marker instead */
        double lx0 = x + w > W - R ? x - w : x;
        size_t lane = 0;
        while (lane < nl && lane_end[lane] > lx0 - 2) lane++;
        if (lane == MAX_LANES) lane = MAX_LANES - 1; /* beyond: stack on the top lane */
        if (lane == nl && nl < MAX_LANES) nl++;
        lane_end[lane] = lx0 + w;
        lane_of[k] = (int)lane;
    }
    double top_h = 200, task_h = 90, lanes_h = nl * LANE + 10, y_total = 76 + lanes_h;
    int cols = 2, rows = (HISTORY_TASKS - 1 + cols - 1) / cols;
    double col_w = (double)(W - L - R - 40) / cols, y_tasks = y_total + top_h + 60;
    int H = (int)(y_tasks + rows * (task_h + 60) + 10);
    sb_printf(b, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
                 "font-family=\"sans-serif\" font-size=\"11\" role=\"img\" aria-label=\"legacy findings burn-down\">\n",
              W, H, W, H);
    sb_printf(b, "<rect width=\"%d\" height=\"%d\" fill=\"#fff\"/>\n", W, H);
    sb_printf(b, "<text x=\"%d\" y=\"20\" font-size=\"15\" font-weight=\"bold\">Open legacy findings", L);
    if (n) {
        sb_puts(b, ", ");
        svg_text(b, pts[0].date);
        sb_puts(b, " – ");
        svg_text(b, pts[n - 1].date);
    }
    sb_printf(b, "</text>\n<text x=\"%d\" y=\"38\" fill=\"#555\">", L);
    if (window && *window) {
        svg_text(b, window);
        sb_puts(b, ": ");
    }
    sb_printf(b, "%zu commits (first parent) · labelled: drops of more than %u findings · "
                 "each task on its own scale · UTC</text>\n",
              n, min_drop);
    panel(b, pts, n, 0, "all tasks", colors[0], &ax, y_total, top_h, &drops, TOTAL_TICKS);
    date_ticks(b, &ax, y_total + top_h);
    for (size_t k = 0; k < drops.n && k < 256; k++) {
        const history_point *p = &pts[VEC_AT(&drops, size_t, k)], *q = p - 1;
        char l[128];
        drop_label(p, l, sizeof l);
        double x = xpos(&ax, p->time), ly = 50 + (nl - (size_t)lane_of[k]) * LANE;
        uint32_t maxv = 1;
        for (size_t i = 0; i < n; i++)
            if (pts[i].findings > maxv) maxv = pts[i].findings;
        uint32_t step = nice_step(maxv, TOTAL_TICKS), top = (maxv + step - 1) / step * step;
        double y = y_total + top_h - (double)p->findings * top_h / top;
        sb_printf(b, "<g class=\"drop\"><line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#888\"/>"
                     "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"%s\" stroke=\"#000\"><title>",
                  x, x, ly + 2, y, x, y, p->tracked ? "#000" : "#fff");
        svg_text(b, p->label ? p->label : "");
        double w = 6.5 * (double)strlen(l) * 0.8 + 40;
        bool end = x + w > W - R;
        sb_printf(b, " (−%u)</title></circle><text x=\"%.1f\" y=\"%.1f\"%s>", q->findings - p->findings,
                  end ? x - 2 : x + 2, ly, end ? " text-anchor=\"end\"" : "");
        svg_text(b, l);
        sb_printf(b, " −%u</text></g>\n", q->findings - p->findings);
    }
    for (int t = 1; t < HISTORY_TASKS; t++) {
        int c = (t - 1) % cols, r = (t - 1) / cols;
        xaxis tx = {ax.t0, ax.t1, L + c * (col_w + 40), L + c * (col_w + 40) + col_w};
        char title[32];
        snprintf(title, sizeof title, "task %d", t);
        double y0 = y_tasks + r * (task_h + 60);
        panel(b, pts, n, t, title, colors[t], &tx, y0, task_h, &drops, TASK_TICKS);
        date_ticks(b, &tx, y0 + task_h);
    }
    sb_puts(b, "</svg>\n");
    vec_free(&drops);
}

void history_write_svg(const history_sample *v, size_t n, const char *window, uint32_t min_drop, sb *b) {
    history_point *pts = sunset_calloc(n ? n : 1, sizeof *pts);
    char (*dates)[64] = sunset_calloc(n ? n : 1, sizeof *dates);
    if (!pts || !dates) {
        b->oom = true;
        sunset_free(pts);
        sunset_free(dates);
        return;
    }
    for (size_t i = 0; i < n; i++) {
        history_iso_date(v[i].time, 0, dates[i], sizeof dates[i]);
        dates[i][10] = 0; /* the day is enough on an axis */
        pts[i].findings = v[i].total.findings;
        for (int t = 0; t < HISTORY_TASKS; t++) pts[i].by_task[t] = v[i].total.by_task[t];
        pts[i].pr = v[i].pr;
        pts[i].tracked = v[i].tracked;
        pts[i].time = v[i].time;
        pts[i].label = v[i].subject;
        pts[i].date = dates[i];
    }
    history_svg(pts, n, window, min_drop, b);
    sunset_free(pts);
    sunset_free(dates);
}
