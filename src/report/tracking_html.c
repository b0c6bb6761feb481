/*
 * tracking_html.c — the tracking report as one self-contained HTML page (inline CSS, inline
 * SVG, a few lines of inline script, no external asset): the task table with progress bars,
 * the remaining findings per directory as a horizontal bar chart, each task's checklist, and
 * the removal handling of every file with findings as a sortable table. The numbers are the
 * tracking_report's, the same as in the Markdown and JSON views; data-* attributes carry
 * them so a test can compare the views.
 *
 * Status is text in a coloured badge (完成 / 进行中), never an emoji a font may lack; PR
 * numbers and @claimants are links when the manifest names a GitHub repository.
 */
#include <stdlib.h>
#include <string.h>

#include "analysis/tracking.h"
#include "report/report.h"

enum { MAX_DIRS = 20, MAX_RANGES_SHOWN = 6 };

static void esc(sb *out, const char *s) {
    for (; s && *s; s++) {
        switch (*s) {
        case '&': sb_puts(out, "&amp;"); break;
        case '<': sb_puts(out, "&lt;"); break;
        case '>': sb_puts(out, "&gt;"); break;
        case '"': sb_puts(out, "&quot;"); break;
        case '\'': sb_puts(out, "&#39;"); break;
        default: sb_putc(out, *s);
        }
    }
}

static const char *T(const tracking_report *r, const char *zh, const char *en) {
    return r->lang == TRK_EN ? en : zh;
}

/* A status badge: text and colour. */
static void badge(sb *out, const tracking_report *r, bool done) {
    sb_printf(out, "<span class=\"badge %s\">%s</span>", done ? "done" : "open",
              done ? T(r, "完成", "done") : T(r, "进行中", "open"));
}

/* An item's badge: its four states. */
static void state_badge(sb *out, const tracking_report *r, trk_state st, size_t n) {
    if (st == TRK_S_DONE || st == TRK_S_OPEN) {
        badge(out, r, st == TRK_S_DONE);
        return;
    }
    if (st == TRK_S_OUTSIDE) {
        sb_printf(out, "<span class=\"badge outside\">%s</span>", T(r, "不在本仓库", "not in this repository"));
        return;
    }
    sb_printf(out, "<span class=\"badge comments\">");
    sb_printf(out, T(r, "仅剩注释 %zu 处", "only comments: %zu"), n);
    sb_puts(out, "</span>");
}

/* "#123" and "@user" words of `text` as links into the manifest's GitHub repository (the
 * rest escaped as text); plain text when the manifest names none. */
static void gh_links(sb *out, const tracking_manifest *m, const char *text) {
    static const char gh[] = "https://github.com/";
    const char *repo = m->repository && strncmp(m->repository, gh, sizeof gh - 1) == 0 ? m->repository : NULL;
    size_t rl = repo ? strlen(repo) : 0;
    if (rl && repo[rl - 1] == '/') rl--;
    for (const char *s = text; s && *s;) {
        size_t n = 0;
        if (repo && s[0] == '#') n = strspn(s + 1, "0123456789");
        else if (repo && s[0] == '@') n = strspn(s + 1, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-");
        if (!n) {
            char c[2] = {*s++, 0};
            esc(out, c);
            continue;
        }
        if (s[0] == '#') sb_printf(out, "<a href=\"%.*s/pull/%.*s\">", (int)rl, repo, (int)n, s + 1);
        else sb_printf(out, "<a href=\"%s%.*s\">", gh, (int)n, s + 1);
        sb_putn(out, s, n + 1);
        sb_puts(out, "</a>");
        s += n + 1;
    }
}

static void href(sb *out, const tracking_manifest *m, const char *path, uint32_t line, uint32_t end) {
    sb u = {0};
    if (!trk_url(&u, m, path, line, end)) out->oom = true;
    sb_puts(out, "<a href=\"");
    esc(out, u.s);
    sb_puts(out, "\">");
    sb_free(&u);
}

static const char style[] =
    "<style>\n"
    "body{font:14px/1.45 system-ui,-apple-system,'Segoe UI',sans-serif;margin:24px;color:#1f2328;max-width:1200px}\n"
    "h1{font-size:22px}h2{font-size:18px;margin-top:28px;border-bottom:1px solid #d0d7de}\n"
    "table{border-collapse:collapse;margin:8px 0 16px;width:100%}\n"
    "th,td{border:1px solid #d0d7de;padding:4px 8px;text-align:left;vertical-align:top}\n"
    /* paths and code break anywhere, so no column pushes the table past the page and no
     * narrow column grows a row to hundreds of pixels (scripts/check-html.sh measures both) */
    "td{overflow-wrap:break-word}td:nth-last-child(-n+2){overflow-wrap:anywhere}\n"
    "td:first-child{white-space:nowrap}td:last-child{min-width:16em}\n"
    "#files td{overflow-wrap:anywhere}#files td:nth-child(2){width:30%}#files td:last-child{width:45%}\n"
    "details.more>summary{cursor:pointer;color:#0969da}\n"
    "th{background:#f6f8fa;white-space:nowrap}th.sort{cursor:pointer}th.sort:after{content:' \\2195';color:#8c959f}\n"
    ".badge{display:inline-block;padding:0 8px;border-radius:10px;font-size:12px;font-weight:600;white-space:nowrap}\n"
    ".badge.done{background:#dafbe1;color:#116329;border:1px solid #4ac26b}\n"
    ".badge.open{background:#fff8c5;color:#7d4e00;border:1px solid #d4a72c}\n"
    ".badge.comments{background:#ddf4ff;color:#0550ae;border:1px solid #54aeff}\n"
    ".badge.outside{background:#f6f8fa;color:#57606a;border:1px solid #d0d7de}\n"
    ".bar.open>span{background:#d4a72c}\n"
    ".bar{background:#eaeef2;border-radius:4px;width:160px;height:12px;display:inline-block;vertical-align:middle}\n"
    ".bar>span{background:#2da44e;display:block;height:12px;border-radius:4px}\n"
    ".done{color:#1a7f37}.open{color:#9a6700}.num{text-align:right}\n"
    "code{background:#f6f8fa;padding:1px 4px;border-radius:4px}\n"
    "a{color:#0969da;text-decoration:none}\n"
    "</style>\n";

static const char script[] =
    "<script>\n"
    "document.querySelectorAll('table.sortable').forEach(function(t){\n"
    "  t.querySelectorAll('th').forEach(function(th,i){th.classList.add('sort');\n"
    "    th.addEventListener('click',function(){var b=t.tBodies[0],rows=[].slice.call(b.rows);\n"
    "      var asc=th.dataset.dir!=='asc';th.dataset.dir=asc?'asc':'desc';\n"
    "      rows.sort(function(x,y){var a=x.cells[i].dataset.v||x.cells[i].textContent,\n"
    "        c=y.cells[i].dataset.v||y.cells[i].textContent,na=parseFloat(a),nc=parseFloat(c);\n"
    "        var r=(!isNaN(na)&&!isNaN(nc))?na-nc:a.localeCompare(c);return asc?r:-r;});\n"
    "      rows.forEach(function(r){b.appendChild(r);});});});});\n"
    "</script>\n";

/* A progress bar; amber while the thing it measures is open, whatever the fraction. */
static void bar(sb *out, size_t a, size_t b, bool done) {
    sb_printf(out, "<span class=\"bar%s\"><span style=\"width:%.1f%%\"></span></span>", done ? "" : " open",
              trk_rate(a, b));
}

static void task_table(sb *out, const tracking_report *r) {
    sb_puts(out, T(r, "<h2>任务</h2>\n<table id=\"tasks\" class=\"sortable\"><thead><tr><th>序号</th><th>任务描述</th>"
                      "<th>状态</th><th>整体进展</th><th>剩余问题</th><th>文件</th><th>认领人/PR号</th></tr></thead><tbody>\n",
                   "<h2>Tasks</h2>\n<table id=\"tasks\" class=\"sortable\"><thead><tr><th>#</th><th>task</th>"
                      "<th>status</th><th>progress</th><th>findings</th><th>files</th><th>claimant/PR</th></tr></thead><tbody>\n"));
    for (size_t i = 0; i < r->m->tasks.n; i++) {
        const trk_task *t = &VEC_AT(&r->m->tasks, trk_task, i);
        sb_printf(out, "<tr data-task=\"%d\" data-done=\"%s\" data-items-done=\"%zu\" data-items-total=\"%zu\" "
                       "data-findings=\"%zu\" data-files=\"%zu\"><td>%d</td><td>",
                  t->number, t->done ? "true" : "false", t->items_done, t->items_total, t->findings.n, t->n_files,
                  t->number);
        esc(out, r->lang == TRK_EN && t->title_en ? t->title_en : t->title);
        sb_printf(out, "</td><td data-v=\"%d\">", t->done);
        badge(out, r, t->done);
        sb_printf(out, "</td><td data-v=\"%.3f\" style=\"white-space:nowrap\">", trk_rate(t->items_done, t->items_total));
        bar(out, t->items_done, t->items_total, t->done);
        sb_printf(out, " %zu/%zu</td><td class=\"num\">%zu</td><td class=\"num\">%zu</td><td>", t->items_done,
                  t->items_total, t->findings.n, t->n_files);
        gh_links(out, r->m, t->claimant);
        for (size_t k = 0; k < t->prs.n; k++) {
            const char *pr = VEC_AT(&t->prs, char *, k);
            sb_putc(out, ' ');
            /* a PR the measured history lacks (a typo) is not linked */
            if (trk_pr_state(r, pr) == 0 || trk_pr_state(r, pr) == 2) {
                sb_puts(out, "<s title=\"not in the measured history\">");
                esc(out, pr);
                sb_puts(out, "</s>");
            } else {
                gh_links(out, r->m, pr);
            }
        }
        sb_puts(out, "</td></tr>\n");
    }
    sb_puts(out, "</tbody></table>\n");
}

typedef struct dir_count {
    char *dir;
    size_t n;
} dir_count;

static int cmp_dir(const void *a, const void *b) {
    const dir_count *x = a, *y = b;
    if (x->n != y->n) return x->n > y->n ? -1 : 1;
    return strcmp(x->dir, y->dir);
}

/* Remaining findings per directory, the directories with the most first. */
static int dir_chart(sb *out, const tracking_report *r) {
    vec dirs = VEC_INIT(dir_count);
    int rc = -1;
    for (size_t i = 0; i < r->files.n; i++) {
        const trk_file *tf = &VEC_AT(&r->files, trk_file, i);
        const char *sl = strrchr(tf->path, '/');
        size_t dl = sl ? (size_t)(sl - tf->path) : 1;
        const char *d = sl ? tf->path : ".";
        dir_count *same = NULL;
        for (size_t k = 0; k < dirs.n && !same; k++) {
            dir_count *x = &VEC_AT(&dirs, dir_count, k);
            if (strlen(x->dir) == dl && strncmp(x->dir, d, dl) == 0) same = x;
        }
        if (same) {
            same->n += tf->n;
            continue;
        }
        dir_count dc = {sunset_strndup(d, dl), tf->n};
        if (!dc.dir || !vec_push(&dirs, &dc)) {
            sunset_free(dc.dir);
            goto cleanup;
        }
    }
    if (dirs.n > 1) qsort(dirs.v, dirs.n, sizeof(dir_count), cmp_dir);
    size_t shown = dirs.n < MAX_DIRS ? dirs.n : MAX_DIRS;
    size_t max = shown ? VEC_AT(&dirs, dir_count, 0).n : 1;
    if (r->lang == TRK_EN) {
        sb_printf(out, "<h2>Remaining findings per directory</h2>\n<p>%zu director%s with findings", dirs.n,
                  dirs.n == 1 ? "y" : "ies");
        if (dirs.n > shown) sb_printf(out, "; the %zu with the most", shown);
        sb_puts(out, ".</p>\n");
    } else {
        sb_printf(out, "<h2>各目录剩余问题</h2>\n<p>共 %zu 个目录有问题", dirs.n);
        if (dirs.n > shown) sb_printf(out, "，列出最多的 %zu 个", shown);
        sb_puts(out, "。</p>\n");
    }
    unsigned h = (unsigned)(shown * 22 + 10);
    sb_printf(out, "<svg id=\"dirs\" xmlns=\"http://www.w3.org/2000/svg\" width=\"1000\" height=\"%u\" "
                   "role=\"img\" aria-label=\"remaining findings per directory\">\n", h);
    for (size_t i = 0; i < shown; i++) {
        const dir_count *dc = &VEC_AT(&dirs, dir_count, i);
        double w = 560.0 * (double)dc->n / (double)max;
        unsigned y = (unsigned)(i * 22 + 4);
        sb_printf(out, "<text x=\"380\" y=\"%u\" text-anchor=\"end\" font-size=\"12\"><title>", y + 13);
        esc(out, dc->dir);
        sb_puts(out, "</title>");
        /* a long directory keeps its tail, which tells directories apart */
        size_t dl = strlen(dc->dir);
        if (dl > 58) {
            const char *tail = dc->dir + dl - 56;
            while (*tail && (*tail & 0xC0) == 0x80) tail++;
            sb_puts(out, "…");
            esc(out, tail);
        } else {
            esc(out, dc->dir);
        }
        sb_printf(out, "</text><rect x=\"388\" y=\"%u\" width=\"%.1f\" height=\"16\" fill=\"#d4a72c\"/>"
                       "<text x=\"%.1f\" y=\"%u\" font-size=\"12\">%zu</text>\n",
                  y, w < 1 ? 1 : w, 394 + (w < 1 ? 1 : w), y + 13, dc->n);
    }
    sb_puts(out, "</svg>\n");
    rc = 0;
cleanup:
    for (size_t i = 0; i < dirs.n; i++) sunset_free(VEC_AT(&dirs, dir_count, i).dir);
    vec_free(&dirs);
    return rc;
}

/* Links to the distinct lines of the findings `idx`, at most 5: with the path unless the row
 * is a file of its own. */
static void open_links(sb *out, const tracking_report *r, const vec *idx, bool file_row) {
    const sunset_finding *prev = NULL;
    size_t shown = 0, more = 0;
    for (size_t f = 0; f < idx->n; f++) {
        const sunset_finding *x = &r->res->findings[VEC_AT(idx, size_t, f)];
        if (prev && prev->span.line == x->span.line && strcmp(prev->path, x->path) == 0) continue;
        prev = x;
        if (shown == 5) {
            more++;
            continue;
        }
        if (shown++) sb_puts(out, ", ");
        href(out, r->m, x->path, x->span.line, 0);
        if (!file_row) {
            esc(out, x->path);
            sb_putc(out, '#');
        }
        sb_printf(out, "L%u</a>", x->span.line);
    }
    if (more) sb_printf(out, " +%zu", more);
}

static void checklists(sb *out, const tracking_report *r) {
    for (size_t i = 0; i < r->m->tasks.n; i++) {
        const trk_task *t = &VEC_AT(&r->m->tasks, trk_task, i);
        char num[16];
        sb_printf(out, "<h2 id=\"task-%d\">任务%s：", t->number, trk_cn_number(t->number, num));
        esc(out, t->title);
        sb_printf(out, "（整体进展：%zu/%zu） ", t->items_done, t->items_total);
        badge(out, r, t->done);
        sb_puts(out, "</h2>\n");
        if (!t->items.n && !t->other.n) continue;
        sb_printf(out, "<table class=\"sortable items\" data-task=\"%d\"><thead><tr>%s</tr></thead><tbody>\n",
                  t->number,
                  T(r, "<th>处理方式</th><th>子项</th><th>状态</th><th>PR</th><th>剩余</th><th>说明</th>",
                    "<th>handling</th><th>item</th><th>status</th><th>PR</th><th>left</th><th>note</th>"));
        for (size_t k = 0; k < t->items.n; k++) {
            const trk_item *it = &VEC_AT(&t->items, trk_item, k);
            sb_printf(out, "<tr data-done=\"%s\" data-state=\"%s\"><td>%s</td><td>", it->done ? "true" : "false",
                      trk_state_key(trk_item_state(it)), it->file ? trk_handling_zh(it->handling) : "");
            if (it->found) href(out, r->m, it->found, 0, 0);
            esc(out, trk_item_name(it, r->lang));
            if (it->found) sb_puts(out, "</a>");
            if (it->name_en && r->lang == TRK_EN) {
                sb_puts(out, "<br><small>");
                esc(out, it->name_en);
                sb_puts(out, "</small>");
            }
            sb_printf(out, "</td><td data-v=\"%d\">", it->done);
            state_badge(out, r, trk_item_state(it), it->open.n);
            sb_puts(out, "</td><td>");
            gh_links(out, r->m, it->pr);
            sb_printf(out, "</td><td data-v=\"%zu\">", it->open.n);
            open_links(out, r, &it->open, it->file != NULL);
            sb_puts(out, "</td><td>");
            esc(out, it->remark);
            if (it->remark && trk_item_note(it, r->lang)) sb_puts(out, T(r, "；", "; "));
            esc(out, trk_item_note(it, r->lang));
            sb_puts(out, "</td></tr>\n");
        }
        if (t->other.n) {
            /* 其他: the task's findings no item selects, so the rows add up to the task */
            trk_state st = t->other_comments == t->other.n ? TRK_S_COMMENTS : TRK_S_OPEN;
            sb_printf(out, "<tr data-done=\"false\" data-state=\"%s\" data-other=\"true\"><td></td><td>%s</td>"
                           "<td data-v=\"0\">",
                      trk_state_key(st), T(r, "其他（不属于任何子项）", "other (in no item)"));
            state_badge(out, r, st, t->other.n);
            sb_printf(out, "</td><td></td><td data-v=\"%zu\">", t->other.n);
            open_links(out, r, &t->other, false);
            sb_puts(out, "</td><td></td></tr>\n");
        }
        sb_puts(out, "</tbody></table>\n");
    }
}

static void file_table(sb *out, const tracking_report *r) {
    sb_printf(out, T(r, "<h2>有问题文件的处理方式（%zu）</h2>\n<table id=\"files\" class=\"sortable\"><thead><tr>"
                        "<th>处理方式</th><th>文件</th><th>任务</th><th>问题数</th><th>行数</th><th>原因 / 删除范围</th>"
                        "</tr></thead><tbody>\n",
                     "<h2>Removal handling of every file with findings (%zu)</h2>\n<table id=\"files\" class=\"sortable\">"
                        "<thead><tr><th>处理方式</th><th>file</th><th>tasks</th><th>findings</th><th>lines</th>"
                        "<th>reason / ranges</th></tr></thead><tbody>\n"),
              r->files.n);
    for (size_t i = 0; i < r->files.n; i++) {
        const trk_file *tf = &VEC_AT(&r->files, trk_file, i);
        sb_printf(out, "<tr><td>%s</td><td>", trk_handling_zh(tf->handling));
        href(out, r->m, tf->path, 0, 0);
        esc(out, tf->path);
        sb_puts(out, "</a></td><td>");
        sunset_task_set(out, tf->tasks, ", ");
        sb_printf(out, "</td><td class=\"num\">%zu</td><td class=\"num\">%u</td><td>", tf->n, tf->lines);
        if (tf->handling == TRK_DIRECT) esc(out, tf->reason);
        for (size_t k = 0; k < tf->ranges.n; k++) {
            const trk_range *g = &VEC_AT(&tf->ranges, trk_range, k);
            /* every range is listed, the ones past the first few folded: a row stays short */
            if (k == MAX_RANGES_SHOWN)
                sb_printf(out, T(r, "<details class=\"more\"><summary>另有 %zu 处</summary>",
                                 "<details class=\"more\"><summary>%zu more</summary>"),
                          tf->ranges.n - k);
            else if (k) sb_puts(out, "<br>");
            href(out, r->m, tf->path, g->start, g->end);
            if (g->end > g->start) sb_printf(out, "L%u-L%u</a> ", g->start, g->end);
            else sb_printf(out, "L%u</a> ", g->start);
            esc(out, g->reason);
        }
        if (tf->ranges.n > MAX_RANGES_SHOWN) sb_puts(out, "</details>");
        sb_puts(out, "</td></tr>\n");
    }
    sb_puts(out, "</tbody></table>\n");
}

static void batch_table(sb *out, const tracking_report *r, const vec *batches) {
    sb_puts(out, T(r, "<h2>认领批次</h2>\n<table id=\"batches\" class=\"sortable\"><thead><tr><th>批次</th>"
                      "<th>分组</th><th>文件</th><th>行数</th><th>问题数</th><th>规则族</th></tr></thead><tbody>\n",
                   "<h2>Contributor batches</h2>\n<table id=\"batches\" class=\"sortable\"><thead><tr><th>batch</th>"
                      "<th>group</th><th>files</th><th>lines</th><th>findings</th><th>families</th></tr></thead><tbody>\n"));
    for (size_t i = 0; i < batches->n; i++) {
        const trk_batch *b = &VEC_AT(batches, trk_batch, i);
        sb_printf(out, "<tr><td class=\"num\">%zu</td><td>", i + 1);
        esc(out, b->key);
        sb_puts(out, "</td><td>");
        for (size_t k = 0; k < b->files.n; k++) {
            if (k) sb_puts(out, "<br>");
            esc(out, VEC_AT(&r->files, trk_file, VEC_AT(&b->files, size_t, k)).path);
        }
        sb_printf(out, "</td><td class=\"num\">%u</td><td class=\"num\">%zu</td><td>", b->lines, b->findings);
        for (size_t k = 0; k < b->families.n; k++) {
            if (k) sb_puts(out, T(r, "、", ", "));
            esc(out, trk_family_name(r->m, VEC_AT(&b->families, const char *, k), r->lang));
        }
        sb_puts(out, "</td></tr>\n");
    }
    sb_puts(out, "</tbody></table>\n");
}

/* ---- 本周变化: since the previous report (every commit listed: no budget here) ---- */

static void since_state(sb *out, const tracking_report *r, const char *key) {
    if (!key || !*key) sb_puts(out, T(r, "（上次没有此项）", "(not in the last report)"));
    else if (!strcmp(key, "done")) badge(out, r, true);
    else if (!strcmp(key, "comments_only")) sb_puts(out, T(r, "仅剩注释", "only comments"));
    else if (!strcmp(key, "outside")) sb_puts(out, T(r, "不在本仓库", "not in this repository"));
    else badge(out, r, false);
}

static void since_task_name(sb *out, const tracking_report *r, int number) {
    char num[16];
    if (r->lang == TRK_EN) sb_printf(out, "task %d", number);
    else sb_printf(out, "任务%s", trk_cn_number(number, num));
}

static void since_html(sb *out, const tracking_report *r) {
    const trk_since *s = r->since;
    sb_puts(out, T(r, "<h2 id=\"since\">本周变化</h2>\n<p>自上次报告（", "<h2 id=\"since\">Since the last report</h2>\n<p>Since ("));
    if (s->revision) {
        sb_puts(out, "<code>");
        esc(out, s->revision);
        sb_puts(out, "</code>");
    } else sb_puts(out, T(r, "版本未知", "revision unknown"));
    if (s->date) {
        sb_puts(out, T(r, "，", ", "));
        esc(out, s->date);
    }
    sb_printf(out, T(r, "）以来新出现的遗留代码 %zu 处（新写的，或移动、改名而来）。</p>\n",
                     "): legacy code not there before %zu (new, or moved or renamed).</p>\n"),
              s->added);
    sb_puts(out, T(r, "<table id=\"since-tasks\"><thead><tr><th>任务</th><th>上次剩余</th><th>本次剩余</th><th>新增</th>"
                      "<th>状态</th></tr></thead><tbody>\n",
                   "<table id=\"since-tasks\"><thead><tr><th>task</th><th>last</th><th>now</th><th>new</th>"
                   "<th>state</th></tr></thead><tbody>\n"));
    for (size_t i = 0; i < s->tasks.n; i++) {
        const trk_since_task *t = &VEC_AT(&s->tasks, trk_since_task, i);
        sb_puts(out, "<tr><td>");
        since_task_name(out, r, t->number);
        sb_printf(out, "</td><td>%ld</td><td>%ld</td><td>%zu ", t->before, t->after, t->added.n);
        open_links(out, r, &t->added, false);
        sb_puts(out, "</td><td>");
        since_state(out, r, t->was_done ? "done" : "open");
        sb_puts(out, " → ");
        since_state(out, r, t->now_done ? "done" : "open");
        sb_puts(out, "</td></tr>\n");
    }
    sb_puts(out, "</tbody></table>\n<ul id=\"since-items\">\n");
    for (size_t i = 0; i < s->items.n; i++) {
        const trk_since_item *it = &VEC_AT(&s->items, trk_since_item, i);
        sb_puts(out, "<li>");
        since_task_name(out, r, it->task);
        sb_puts(out, T(r, "：", ": "));
        if (it->it->file) sb_puts(out, "<code>");
        esc(out, trk_item_name(it->it, r->lang));
        sb_puts(out, it->it->file ? "</code> " : " ");
        since_state(out, r, it->before);
        sb_puts(out, " → ");
        since_state(out, r, trk_state_key(trk_item_state(it->it)));
        sb_puts(out, "</li>\n");
    }
    sb_puts(out, "</ul>\n");
    if (!s->history) {
        sb_puts(out, T(r, "<p>期间合入的 PR：未测量", "<p>PRs merged in between: not measured"));
        if (s->history_note) {
            sb_puts(out, T(r, "（", " ("));
            esc(out, s->history_note);
            sb_puts(out, T(r, "）", ")"));
        }
        sb_puts(out, "</p>\n");
        return;
    }
    sb_printf(out, T(r, "<p>期间 %zu 个提交，剩余问题变化 %+ld 处。</p>\n", "<p>%zu commits in between, the count changed by %+ld.</p>\n"),
              s->commits, s->delta);
    if (s->history_note) {
        sb_puts(out, T(r, "<p>注：", "<p>Note: "));
        esc(out, s->history_note);
        sb_puts(out, T(r, "。</p>\n", ".</p>\n"));
    }
    sb_puts(out, T(r, "<table id=\"since-prs\" class=\"sortable\"><thead><tr><th>PR</th><th>提交</th><th>变化</th>"
                      "</tr></thead><tbody>\n",
                   "<table id=\"since-prs\" class=\"sortable\"><thead><tr><th>PR</th><th>commit</th><th>change</th>"
                   "</tr></thead><tbody>\n"));
    for (size_t i = 0; i < s->prs.n; i++) {
        const trk_since_pr *p = &VEC_AT(&s->prs, trk_since_pr, i);
        sb_puts(out, "<tr><td>");
        for (size_t k = 0; k < p->n_prs; k++) {
            char pr[32];
            snprintf(pr, sizeof pr, "%s#%ld", k ? ", " : "", p->prs[k]);
            gh_links(out, r->m, pr);
        }
        sb_printf(out, "</td><td><code>%s</code> ", p->sha);
        esc(out, p->subject);
        sb_printf(out, "</td><td>%+ld</td></tr>\n", p->delta);
    }
    sb_puts(out, "</tbody></table>\n");
}

int tracking_write_html(const tracking_report *r, const vec *batches, sb *out) {
    const tracking_manifest *m = r->m;
    size_t n = m->tasks.n;
    sb_printf(out, "<!DOCTYPE html>\n<html lang=\"%s\">\n<head>\n<meta charset=\"utf-8\">\n<title>",
              r->lang == TRK_EN ? "en" : "zh");
    esc(out, m->title);
    sb_puts(out, "</title>\n");
    sb_puts(out, style);
    sb_puts(out, "</head>\n<body>\n<h1>");
    esc(out, m->title);
    /* what was measured, never where: no local path in the page */
    sb_puts(out, T(r, "</h1>\n<p>由 sunset 测量：", "</h1>\n<p>Measured by sunset at "));
    if (r->revision) {
        sb_puts(out, T(r, "提交 <code>", "commit <code>"));
        esc(out, r->revision);
        sb_puts(out, "</code>");
    } else {
        sb_puts(out, T(r, "非 git 检出的源码树（版本未知）", "a tree that is not a git checkout (revision unknown)"));
    }
    if (r->date) {
        sb_puts(out, T(r, "，", ", "));
        esc(out, r->date);
    }
    if (trk_is_web_url(m->url)) { /* a javascript: or data: URL is not a link */
        sb_puts(out, T(r, "；", "; "));
        sb_puts(out, "<a href=\"");
        esc(out, m->url);
        sb_puts(out, "\">");
        esc(out, m->url);
        sb_puts(out, "</a>");
    }
    sb_printf(out, ".</p>\n<table id=\"board\" data-tasks=\"%zu\" data-done=\"%zu\"><thead><tr><th>任务方向</th>"
                   "<th>任务数量</th><th>提交作品 / 任务认领</th><th>提交率</th><th>完成</th><th>完成率</th></tr></thead>"
                   "<tbody><tr><td>",
              n, r->tasks_done);
    esc(out, m->board ? m->board : m->title);
    if (r->submitted_known)
        sb_printf(out, "</td><td>%zu</td><td>%zu / %zu</td><td>%.1f%%</td><td>%zu</td><td>", n, r->tasks_submitted,
                  r->tasks_claimed, trk_rate(r->tasks_submitted, n), r->tasks_done);
    else
        sb_printf(out, T(r, "</td><td>%zu</td><td>未知 / %zu</td><td>—</td><td>%zu</td><td>",
                         "</td><td>%zu</td><td>unknown / %zu</td><td>—</td><td>%zu</td><td>"),
                  n, r->tasks_claimed, r->tasks_done);
    bar(out, r->tasks_done, n, r->tasks_done == n);
    sb_printf(out, " %.1f%%</td></tr></tbody></table>\n", trk_rate(r->tasks_done, n));
    if (r->since) since_html(out, r);
    task_table(out, r);
    if (r->burndown) {
        /* the burn-down sunset history drew; an SVG document is valid inline HTML */
        sb_puts(out, T(r, "<h2>燃尽图</h2>\n<div id=\"burndown\">\n", "<h2>Burn-down</h2>\n<div id=\"burndown\">\n"));
        sb_puts(out, r->burndown);
        sb_puts(out, "</div>\n");
    }
    if (dir_chart(out, r)) return -1;
    checklists(out, r);
    file_table(out, r);
    if (batches) batch_table(out, r, batches);
    sb_puts(out, script);
    sb_puts(out, "</body>\n</html>\n");
    return out->oom ? -1 : 0;
}
