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

void history_write_csv(const history_sample *v, size_t n, int n_tasks, const sunset_family_title *fam, size_t nf,
                       sb *b) {
    sb_puts(b, "commit,date,subject,pr,findings,files");
    for (int t = 1; t <= n_tasks && t < SUNSET_TASKS; t++) sb_printf(b, ",task%d", t);
    for (size_t f = 0; f < nf; f++) sb_printf(b, ",%s", fam[f].id);
    sb_putc(b, '\n');
    for (size_t i = 0; i < n; i++) {
        char hex[GIT_OID_HEXSZ + 1], date[64];
        git_oid_tostr(hex, sizeof hex, &v[i].id);
        history_iso_date(v[i].time, 0, date, sizeof date); /* UTC: one offset in a column */
        sb_printf(b, "%s,%s,", hex, date);
        csv_field(b, v[i].subject);
        /* the PRs the change is attributed to: a merge commit's are those it brings in */
        sb_putc(b, ',');
        if (v[i].n_prs)
            for (size_t k = 0; k < v[i].n_prs; k++) sb_printf(b, k ? " %ld" : "%ld", v[i].prs[k]);
        else if (v[i].pr > 0) sb_printf(b, "%ld", v[i].pr);
        sb_printf(b, ",%u,%u", v[i].total.findings, v[i].files);
        for (int t = 1; t <= n_tasks && t < SUNSET_TASKS; t++) sb_printf(b, ",%u", v[i].total.by_task[t]);
        for (size_t f = 0; f < nf; f++) sb_printf(b, ",%u", v[i].total.by_family[f]);
        sb_putc(b, '\n');
    }
}

void history_write_json(const history_sample *v, size_t n, int n_tasks, const sunset_family_title *fam, size_t nf,
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
        sb_puts(b, ",\"prs\":[");
        for (size_t k = 0; k < v[i].n_prs; k++) sb_printf(b, k ? ",%ld" : "%ld", v[i].prs[k]);
        sb_putc(b, ']');
        if (v[i].baseline) sb_puts(b, ",\"baseline\":true");
        sb_printf(b, ",\"tracked\":%s,\"findings\":%u,\"files\":%u,\"by_task\":{",
                  v[i].tracked ? "true" : "false", v[i].total.findings, v[i].files);
        for (int t = 1; t <= n_tasks && t < SUNSET_TASKS; t++) sb_printf(b, "%s\"%d\":%u", t > 1 ? "," : "", t, v[i].total.by_task[t]);
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

/* A drop's label: the PRs it is attributed to (three, then +N), else the commit subject
 * (shortened). */
static void drop_label(const history_point *p, char *out, size_t n) {
    if (p->n_prs) {
        size_t k = 0, at = 0;
        for (; k < p->n_prs && k < 3 && at + 24 < n; k++)
            at += (size_t)snprintf(out + at, n - at, "%s#%ld", k ? " " : "", p->prs[k]);
        if (k < p->n_prs && at + 24 < n) snprintf(out + at, n - at, " +%zu", p->n_prs - k);
        return;
    }
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

double history_label_width(const char *text) {
    double w = 0;
    for (const unsigned char *u = (const unsigned char *)text; *u; u++)
        if (*u < 0x80) w += 6.5;
        else if ((*u & 0xC0) == 0xC0) w += *u >= 0xE2 && *u < 0xE3 ? 7.0 : 11.0; /* − and … ; CJK */
    return w;
}

/* A placed drop label: its box [x0, x1] in its lane, its leader line at x. */
typedef struct label_box {
    size_t point;
    double x, x0, x1;
    int lane;
    bool end; /* text-anchor end: the box ends at the marker */
    char text[160];
} label_box;

/* Whether label k fits lane L among the labels placed so far (lane >= 0): no overlap with a
 * label of that lane, its leader crosses no label of a lower lane, and no leader of a higher
 * label crosses it. */
static bool lane_free(const label_box *l, size_t nl, size_t k, int lane) {
    for (size_t j = 0; j < nl; j++) {
        if (j == k || l[j].lane < 0) continue; /* not placed (yet) */
        if (l[j].lane == lane && l[k].x0 < l[j].x1 + 4 && l[j].x0 < l[k].x1 + 4) return false;
        if (l[j].lane < lane && l[k].x >= l[j].x0 - 1 && l[k].x <= l[j].x1 + 1) return false;
        if (l[j].lane > lane && l[j].x >= l[k].x0 - 1 && l[j].x <= l[k].x1 + 1) return false;
    }
    return true;
}

enum { CHART_W = 960, CHART_L = 56, CHART_R = 24, LANE = 14, MAX_LANES = 24 };

/* A label no lane could hold without an overlap: listed under the chart. */
enum { LANE_NONE = -2 };

/* Labels in lanes above the total, from the right: each starts just right of its marker (or,
 * at the chart's right edge, ends just left of it) in the lowest lane where it overlaps no
 * label and no leader line crosses a label. Placed right to left, a label's leader is left of
 * every label placed before it, so a lane always exists for it above those it would cover.
 * Returns the lanes used. */
static int place_labels(label_box *l, size_t nl) {
    int lanes = 0;
    for (size_t k = 0; k < nl; k++) l[k].lane = -1;
    for (size_t k = nl; k-- > 0;) {
        double w = history_label_width(l[k].text);
        l[k].end = l[k].x + 2 + w > CHART_W - CHART_R;
        l[k].x0 = l[k].end ? l[k].x - 2 - w : l[k].x + 2;
        l[k].x1 = l[k].x0 + w;
        int lane = 0;
        while (lane < MAX_LANES && !lane_free(l, nl, k, lane)) lane++;
        if (lane == MAX_LANES) lane = LANE_NONE; /* listed under the chart instead */
        l[k].lane = lane;
        if (lane + 1 > lanes) lanes = lane + 1;
    }
    return lanes;
}

/* One entry of the list under the chart, wrapped to its width. */
static void list_entry(sb *b, const char *t, double y, bool draw, size_t *shown, double *x, double *lines) {
    double w = history_label_width(t) + 16;
    if (!(*shown)++) {
        if (draw)
            sb_printf(b, "<text x=\"%d\" y=\"%.1f\" fill=\"#555\">Not labelled on the chart:</text>\n", CHART_L, y);
        *lines = 1;
        *x = CHART_L;
    }
    if (*x + w > CHART_W - CHART_R || *x == CHART_L) *x = CHART_L, ++*lines;
    if (draw) {
        sb_printf(b, "<text class=\"unlabelled\" x=\"%.1f\" y=\"%.1f\" fill=\"#555\">", *x, y + (*lines - 1) * LANE);
        svg_text(b, t);
        sb_puts(b, "</text>\n");
    }
    *x += w;
}

/* What got no label, each with why: drops no lane could hold, and the named PRs (the
 * manifest's) that are not in the window or moved nothing. Returns the height it takes. */
static double unlabelled(sb *b, const history_point *pts, size_t n, const label_box *l, size_t nl, const long *named,
                         size_t n_named, double y, bool draw) {
    size_t shown = 0;
    double x = CHART_L, lines = 0;
    for (size_t k = 0; k < nl; k++) {
        if (l[k].lane != LANE_NONE) continue;
        char t[200];
        snprintf(t, sizeof t, "%s: no room above the chart", l[k].text);
        list_entry(b, t, y, draw, &shown, &x, &lines);
    }
    for (size_t i = 0; i < n_named; i++) {
        bool labelled = false, dup = false;
        for (size_t k = 0; k < i && !dup; k++) dup = named[k] == named[i];
        for (size_t k = 0; k < nl && !labelled; k++)
            for (size_t j = 0; j < pts[l[k].point].n_prs && !labelled; j++) labelled = pts[l[k].point].prs[j] == named[i];
        /* a drop listed for want of room is in the list already */
        if (dup || labelled) continue;
        const history_point *hit = NULL;
        for (size_t p = 0; p < n && !hit; p++)
            for (size_t j = 0; j < pts[p].n_prs && !hit; j++)
                if (pts[p].prs[j] == named[i]) hit = &pts[p];
        char t[160];
        if (!hit) snprintf(t, sizeof t, "#%ld: no commit of this window names it", named[i]);
        else if (hit->baseline || hit == pts) snprintf(t, sizeof t, "#%ld: the window's starting state", named[i]);
        else {
            long d = (long)hit[-1].findings - (long)hit->findings;
            snprintf(t, sizeof t, d > 0 ? "#%ld: −%ld, at or under --min-drop" : d < 0 ? "#%ld: moved nothing (+%ld)"
                                                                               : "#%ld: moved nothing (%ld)",
                     named[i], d < 0 ? -d : d);
        }
        list_entry(b, t, y, draw, &shown, &x, &lines);
    }
    return lines * LANE;
}

/* The panels' colours: the total's, then the tasks' in turn (a pack with more tasks than colours
 * cycles them; each panel is titled with its task). */
static const char *const panel_colors[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
                                           "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};
#define N_PANEL_COLORS (sizeof panel_colors / sizeof *panel_colors)

void history_svg(const history_point *pts, size_t n, int n_tasks, const char *window, uint32_t min_drop,
                 const long *named, size_t n_named, sb *b) {
    if (n_tasks >= SUNSET_TASKS) n_tasks = SUNSET_TASKS - 1; /* what a point holds (the loader refuses more) */
    enum { W = CHART_W, L = CHART_L, R = CHART_R, TOTAL_TICKS = 7, TASK_TICKS = 5 };
    vec drops = VEC_INIT(size_t);
    xaxis ax = {n ? pts[0].time : 0, n ? pts[n - 1].time : 0, L, W - R};
    /* a drop over the threshold, and any drop of a PR the manifest names, is labelled */
    for (size_t i = 1; i < n; i++)
        if ((pts[i].findings + min_drop < pts[i - 1].findings || (pts[i].tracked && pts[i].findings < pts[i - 1].findings)) &&
            !vec_push(&drops, &i))
            b->oom = true;
    size_t nlab = drops.n < 256 ? drops.n : 256;
    label_box *lab = sunset_calloc(nlab ? nlab : 1, sizeof *lab);
    if (!lab) {
        b->oom = true;
        vec_free(&drops);
        return;
    }
    for (size_t k = 0; k < nlab; k++) {
        const history_point *p = &pts[VEC_AT(&drops, size_t, k)];
        char l[128];
        drop_label(p, l, sizeof l);
        lab[k].point = VEC_AT(&drops, size_t, k);
        lab[k].x = xpos(&ax, p->time);
        snprintf(lab[k].text, sizeof lab[k].text, "%s −%u", l, p[-1].findings - p->findings);
    }
    int nl = place_labels(lab, nlab);
    double legend_h = unlabelled(b, pts, n, lab, nlab, named, n_named, 0, false);
    double top_h = 200, task_h = 90, lanes_h = nl * LANE + 10, y_total = 76 + lanes_h;
    int cols = 2, rows = (n_tasks + cols - 1) / cols;
    double col_w = (double)(W - L - R - 40) / cols, y_tasks = y_total + top_h + 60 + legend_h;
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
    sb_printf(b, "%zu commits (first parent", n);
    if (n && pts[0].baseline) sb_printf(b, "; the first is the range's start, %u findings", pts[0].findings);
    sb_printf(b, ") · labelled: drops of more than %u findings and every drop of a tracked PR · "
                 "each task on its own scale · UTC</text>\n",
              min_drop);
    panel(b, pts, n, 0, "all tasks", "#000", &ax, y_total, top_h, &drops, TOTAL_TICKS);
    date_ticks(b, &ax, y_total + top_h);
    uint32_t maxv = 1;
    for (size_t i = 0; i < n; i++)
        if (pts[i].findings > maxv) maxv = pts[i].findings;
    uint32_t step = nice_step(maxv, TOTAL_TICKS), top = (maxv + step - 1) / step * step;
    for (size_t k = 0; k < nlab; k++) {
        const label_box *lb = &lab[k];
        const history_point *p = &pts[lb->point];
        if (lb->lane == LANE_NONE) continue;
        double ly = 50 + (nl - lb->lane) * LANE;
        double y = y_total + top_h - (double)p->findings * top_h / top;
        sb_printf(b, "<g class=\"drop\" data-box=\"%.1f %.1f %.1f %.1f\"><line class=\"leader\" x1=\"%.1f\" x2=\"%.1f\" "
                     "y1=\"%.1f\" y2=\"%.1f\" stroke=\"#888\"/><circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"%s\" "
                     "stroke=\"#000\"><title>",
                  lb->x0, ly - 10, lb->x1, ly + 3, lb->x, lb->x, ly + 3, y, lb->x, y, p->tracked ? "#000" : "#fff");
        svg_text(b, p->label ? p->label : "");
        sb_printf(b, " (−%u)</title></circle><text x=\"%.1f\" y=\"%.1f\"%s>", p[-1].findings - p->findings,
                  lb->end ? lb->x1 : lb->x0, ly, lb->end ? " text-anchor=\"end\"" : "");
        svg_text(b, lb->text);
        sb_puts(b, "</text></g>\n");
    }
    if (legend_h > 0) unlabelled(b, pts, n, lab, nlab, named, n_named, y_total + top_h + 40, true);
    for (int t = 1; t <= n_tasks; t++) {
        int c = (t - 1) % cols, r = (t - 1) / cols;
        xaxis tx = {ax.t0, ax.t1, L + c * (col_w + 40), L + c * (col_w + 40) + col_w};
        char title[32];
        snprintf(title, sizeof title, "task %d", t);
        double y0 = y_tasks + r * (task_h + 60);
        panel(b, pts, n, t, title, panel_colors[(size_t)(t - 1) % N_PANEL_COLORS], &tx, y0, task_h, &drops, TASK_TICKS);
        date_ticks(b, &tx, y0 + task_h);
    }
    sb_puts(b, "</svg>\n");
    sunset_free(lab);
    vec_free(&drops);
}

void history_write_svg(const history_sample *v, size_t n, int n_tasks, const char *window, uint32_t min_drop,
                       const long *named, size_t n_named, sb *b) {
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
        for (int t = 0; t < SUNSET_TASKS; t++) pts[i].by_task[t] = v[i].total.by_task[t];
        pts[i].pr = v[i].pr;
        pts[i].prs = v[i].prs;
        pts[i].n_prs = v[i].n_prs;
        pts[i].baseline = v[i].baseline;
        pts[i].tracked = v[i].tracked;
        pts[i].time = v[i].time;
        pts[i].label = v[i].subject;
        pts[i].date = dates[i];
    }
    history_svg(pts, n, n_tasks, window, min_drop, named, n_named, b);
    sunset_free(pts);
    sunset_free(dates);
}
