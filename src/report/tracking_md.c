/*
 * tracking_md.c — the tracking report as GitHub Markdown, shaped like the tracking issue it
 * measures: the overview table (序号 / 任务描述 / 认领人/状态/PR号), per-task details
 * (整体进展：N/M and the checklist with remaining findings as path#Lline links), the 看板信息
 * dashboard, the removal handling of every file with findings, and the optional work
 * batches. The whole document sits between the marker comments so `--update` can replace
 * it inside an issue body. Every number comes from the tracking_report; nothing is copied.
 */
#include <string.h>

#include "analysis/tracking.h"

enum { MAX_LINKS = 5, MAX_FILES = 15 };

/* A table cell: '|' escaped, line breaks flattened, other control characters as
 * sb_put_printable shows them. */
static void cell(sb *out, const char *s) {
    while (s && *s) {
        size_t n = strcspn(s, "|\n\r");
        sb_put_printable(out, s, n);
        s += n;
        if (!*s) break;
        sb_puts(out, *s == '|' ? "\\|" : " ");
        s++;
    }
}

static void link(sb *out, const tracking_manifest *m, const char *path, uint32_t line, uint32_t end,
                 const char *text) {
    sb_putc(out, '[');
    if (text) {
        cell(out, text);
    } else {
        cell(out, path);
        if (line) sb_printf(out, "#L%u", line);
        if (line && end > line) sb_printf(out, "-L%u", end);
    }
    sb_puts(out, "](");
    trk_url(out, m, path, line, end);
    sb_putc(out, ')');
}

/* Up to MAX_LINKS links to the distinct lines of the findings in `idx` (indices into
 * res->findings), then "+N" more lines. `short_labels`: "L12" (the row names the file). */
static void finding_links(sb *out, const tracking_report *r, const vec *idx, bool short_labels) {
    const sunset_finding *prev = NULL;
    size_t shown = 0, more = 0;
    for (size_t i = 0; i < idx->n; i++) {
        const sunset_finding *f = &r->res->findings[VEC_AT(idx, size_t, i)];
        if (prev && prev->span.line == f->span.line && strcmp(prev->path, f->path) == 0) continue;
        prev = f;
        if (shown == MAX_LINKS) {
            more++;
            continue;
        }
        char l[24];
        snprintf(l, sizeof l, "L%u", f->span.line);
        if (shown++) sb_puts(out, ", ");
        link(out, r->m, f->path, f->span.line, 0, short_labels ? l : NULL);
    }
    if (more) sb_printf(out, " +%zu", more);
}

static void task_state(sb *out, const trk_task *t) {
    if (t->done) {
        sb_puts(out, "✅");
        return;
    }
    sb_puts(out, "🚧 open:");
    if (t->items.n) sb_printf(out, " %zu/%zu items,", t->items.n - t->items_done, t->items.n);
    sb_printf(out, " %zu finding%s in %zu file%s", t->findings.n, t->findings.n == 1 ? "" : "s", t->n_files,
              t->n_files == 1 ? "" : "s");
}

static void overview(sb *out, const tracking_report *r) {
    sb_puts(out, "### 二、Task\n\n| 序号 | 任务描述 | 认领人/状态/PR号 |\n|---|---|---|\n");
    for (size_t i = 0; i < r->m->tasks.n; i++) {
        const trk_task *t = &VEC_AT(&r->m->tasks, trk_task, i);
        sb_printf(out, "| %d | ", t->number);
        cell(out, t->title);
        sb_putc(out, ' ');
        task_state(out, t);
        sb_puts(out, " |");
        if (t->claimant) {
            sb_putc(out, ' ');
            cell(out, t->claimant);
        }
        for (size_t k = 0; k < t->prs.n; k++) {
            sb_putc(out, ' ');
            cell(out, VEC_AT(&t->prs, char *, k));
        }
        sb_puts(out, " |\n");
    }
    sb_putc(out, '\n');
}

static void item_row(sb *out, const tracking_report *r, const trk_item *it) {
    if (it->file) {
        sb_puts(out, "| ");
        sb_puts(out, trk_handling_zh(it->handling));
        sb_puts(out, " | ");
        if (it->found) link(out, r->m, it->found, 0, 0, it->name);
        else cell(out, it->name);
        sb_puts(out, " | ");
        if (it->done) sb_puts(out, it->where == TRK_GONE ? "✅ deleted" : "✅");
        else if (it->open.n) sb_printf(out, "⬜ %zu finding%s", it->open.n, it->open.n == 1 ? "" : "s");
        else sb_puts(out, "⬜ file still exists");
        sb_puts(out, " | ");
        cell(out, it->pr);
        sb_puts(out, " | ");
        finding_links(out, r, &it->open, true);
        sb_puts(out, " |\n");
        return;
    }
    sb_puts(out, "| ");
    cell(out, it->name);
    if (it->name_en) {
        sb_puts(out, " (");
        cell(out, it->name_en);
        sb_putc(out, ')');
    }
    sb_puts(out, " | ");
    if (it->done) sb_puts(out, "✅");
    else sb_printf(out, "⬜ %zu finding%s", it->open.n, it->open.n == 1 ? "" : "s");
    sb_puts(out, " | ");
    cell(out, it->pr);
    sb_puts(out, " | ");
    finding_links(out, r, &it->open, false);
    sb_puts(out, " |\n");
}

static int details(sb *out, const tracking_report *r) {
    sb_puts(out, "### 三、Details\n\n");
    for (size_t i = 0; i < r->m->tasks.n; i++) {
        const trk_task *t = &VEC_AT(&r->m->tasks, trk_task, i);
        char num[16];
        sb_printf(out, "#### 任务%s：", trk_cn_number(t->number, num));
        cell(out, t->title);
        if (t->done) sb_puts(out, " ✅");
        sb_printf(out, "（整体进展：%zu/%zu）\n\n", t->items_done, t->items.n);
        if (t->title_en) {
            cell(out, t->title_en);
            sb_puts(out, ". ");
        }
        sb_printf(out, "Findings of the task's rules left: %zu in %zu file%s.\n\n", t->findings.n, t->n_files,
                  t->n_files == 1 ? "" : "s");
        bool files = false, checks = false;
        for (size_t k = 0; k < t->items.n; k++) {
            if (VEC_AT(&t->items, trk_item, k).file) files = true;
            else checks = true;
        }
        if (files) {
            sb_puts(out, "| 处理方式 | ");
            cell(out, t->items_header ? t->items_header : "文件");
            sb_puts(out, " | 状态 | PR链接 | 剩余 |\n|---|---|---|---|---|\n");
            for (size_t k = 0; k < t->items.n; k++)
                if (VEC_AT(&t->items, trk_item, k).file) item_row(out, r, &VEC_AT(&t->items, trk_item, k));
            sb_putc(out, '\n');
        }
        if (checks) {
            sb_puts(out, "| 子项 | 状态 | PR链接 | 剩余 |\n|---|---|---|---|\n");
            for (size_t k = 0; k < t->items.n; k++)
                if (!VEC_AT(&t->items, trk_item, k).file) item_row(out, r, &VEC_AT(&t->items, trk_item, k));
            sb_putc(out, '\n');
        }
        bool notes = false;
        for (size_t k = 0; k < t->items.n; k++) {
            const trk_item *it = &VEC_AT(&t->items, trk_item, k);
            if (!it->remark && !it->note) continue;
            if (!notes) sb_puts(out, "Notes:\n");
            notes = true;
            sb_puts(out, "- `");
            cell(out, it->name);
            sb_puts(out, "`: ");
            if (it->remark) cell(out, it->remark);
            if (it->remark && it->note) sb_puts(out, "; ");
            if (it->note) cell(out, it->note);
            sb_putc(out, '\n');
        }
        if (notes) sb_putc(out, '\n');
        if (t->findings.n) {
            vec idx;
            size_t n_groups;
            if (trk_task_groups(t, r->res, MAX_FILES, &idx, &n_groups)) return -1;
            sb_printf(out, "Remaining findings of task %d, by file (%zu file%s", t->number, n_groups,
                      n_groups == 1 ? "" : "s");
            if (n_groups > MAX_FILES) sb_printf(out, "; the %d with the most", MAX_FILES);
            sb_puts(out, "):\n");
            for (size_t g = 0; g < idx.n; g++) {
                size_t first = VEC_AT(&idx, size_t, g);
                const char *p = r->res->findings[VEC_AT(&t->findings, size_t, first)].path;
                size_t n = 0;
                while (first + n < t->findings.n &&
                       strcmp(r->res->findings[VEC_AT(&t->findings, size_t, first + n)].path, p) == 0)
                    n++;
                vec sub = VEC_INIT(size_t);
                for (size_t k = 0; k < n; k++)
                    if (!vec_push(&sub, &VEC_AT(&t->findings, size_t, first + k))) {
                        vec_free(&sub);
                        vec_free(&idx);
                        return -1;
                    }
                sb_puts(out, "- ");
                link(out, r->m, p, 0, 0, NULL);
                sb_printf(out, " (%zu): ", n);
                finding_links(out, r, &sub, true);
                vec_free(&sub);
                sb_putc(out, '\n');
            }
            sb_putc(out, '\n');
            vec_free(&idx);
        }
    }
    return 0;
}

static void dashboard(sb *out, const tracking_report *r) {
    size_t n = r->m->tasks.n;
    sb_puts(out, "### 看板信息\n\n| 任务方向 | 任务数量 | 提交作品 / 任务认领 | 提交率 | 完成 | 完成率 |\n"
                 "|---|---|---|---|---|---|\n| ");
    cell(out, r->m->board ? r->m->board : r->m->title);
    sb_printf(out, " | %zu | %zu / %zu | %.1f%% | %zu | %.1f%% |\n\n", n, r->tasks_submitted, r->tasks_claimed,
              trk_rate(r->tasks_submitted, n), r->tasks_done, trk_rate(r->tasks_done, n));
}

static void handling(sb *out, const tracking_report *r) {
    size_t direct = 0;
    for (size_t i = 0; i < r->files.n; i++) direct += VEC_AT(&r->files, trk_file, i).handling == TRK_DIRECT;
    sb_printf(out, "<details><summary>Removal handling of every file with findings: %zu files, %zu 直接删除, "
                   "%zu 部分删除</summary>\n\n",
              r->files.n, direct, r->files.n - direct);
    sb_puts(out, "| 处理方式 | file | tasks | lines | reason / ranges to remove |\n|---|---|---|---|---|\n");
    for (size_t i = 0; i < r->files.n; i++) {
        const trk_file *tf = &VEC_AT(&r->files, trk_file, i);
        sb_printf(out, "| %s | ", trk_handling_zh(tf->handling));
        link(out, r->m, tf->path, 0, 0, NULL);
        sb_puts(out, " | ");
        bool first = true;
        for (int t = 1; t < 32; t++)
            if (tf->tasks & (1u << t)) {
                sb_printf(out, first ? "%d" : ", %d", t);
                first = false;
            }
        sb_printf(out, " | %u | ", tf->lines);
        if (tf->handling == TRK_DIRECT) {
            cell(out, tf->reason);
        } else {
            for (size_t k = 0; k < tf->ranges.n; k++) {
                const trk_range *g = &VEC_AT(&tf->ranges, trk_range, k);
                char l[32];
                if (g->end > g->start) snprintf(l, sizeof l, "L%u-L%u", g->start, g->end);
                else snprintf(l, sizeof l, "L%u", g->start);
                if (k) sb_puts(out, "; ");
                sb_puts(out, l);
                sb_putc(out, ' ');
                cell(out, g->reason);
            }
        }
        sb_puts(out, " |\n");
    }
    sb_puts(out, "\n</details>\n\n");
}

static void batches_md(sb *out, const tracking_report *r, const vec *batches) {
    sb_printf(out, "### Contributor batches\n\n%zu batches of the remaining work.\n\n"
                   "| batch | group | files | lines | findings | families |\n|---|---|---|---|---|---|\n",
              batches->n);
    for (size_t i = 0; i < batches->n; i++) {
        const trk_batch *b = &VEC_AT(batches, trk_batch, i);
        sb_printf(out, "| %zu | ", i + 1);
        cell(out, b->key);
        sb_puts(out, " | ");
        for (size_t k = 0; k < b->files.n; k++) {
            const trk_file *tf = &VEC_AT(&r->files, trk_file, VEC_AT(&b->files, size_t, k));
            const char *base = strrchr(tf->path, '/');
            if (k) sb_puts(out, ", ");
            link(out, r->m, tf->path, 0, 0, base ? base + 1 : tf->path);
            if (tf->handling == TRK_DIRECT) sb_puts(out, " (直接删除)");
        }
        sb_printf(out, " | %u | %zu | ", b->lines, b->findings);
        for (size_t k = 0; k < b->families.n; k++) {
            if (k) sb_puts(out, ", ");
            cell(out, VEC_AT(&b->families, const char *, k));
        }
        sb_puts(out, " |\n");
    }
    sb_putc(out, '\n');
}

int tracking_write_md(const tracking_report *r, const vec *batches, sb *out) {
    sb_puts(out, TRACKING_MARK_BEGIN "\n");
    sb_puts(out, "<!-- generated by sunset report; edits between the markers are overwritten -->\n\n");
    overview(out, r);
    if (details(out, r)) return -1;
    dashboard(out, r);
    handling(out, r);
    if (batches) batches_md(out, r, batches);
    sb_puts(out, TRACKING_MARK_END "\n");
    return out->oom ? -1 : 0;
}
