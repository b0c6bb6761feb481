/*
 * tracking_md.c — the tracking report as GitHub Markdown, shaped like the tracking issue it
 * measures: the overview table (序号 / 任务描述 / 认领人/状态/PR号), per-task details
 * (整体进展：N/M and the checklist with remaining findings as path#Lline links), the 看板信息
 * dashboard, the removal handling of every file with findings, and the optional work
 * batches. The whole document sits between the marker comments so `--update` can replace
 * it inside an issue body. Every number comes from the tracking_report; nothing is copied.
 *
 * The document fits an issue body by design: the task table, the progress lines and the
 * open items always; the per-task file lists and the removal-handling table are ranked (most
 * findings first) and cut to what the character budget leaves, with a "+N more" line naming
 * the HTML/JSON report that has them all.
 */
#include <stdlib.h>
#include <string.h>

#include "analysis/tracking.h"
#include "report/report.h"

enum { MAX_LINKS = 5, MAX_RANGES = 3 };

/* The prose in the report's language. */
static const char *T(const tracking_report *r, const char *zh, const char *en) {
    return r->lang == TRK_EN ? en : zh;
}

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
        if (shown++) sb_puts(out, T(r, "、", ", "));
        link(out, r->m, f->path, f->span.line, 0, short_labels ? l : NULL);
    }
    if (more) sb_printf(out, " +%zu", more);
}

/* The task's state; the fraction is the progress line's (items done / items). */
static void task_state(sb *out, const tracking_report *r, const trk_task *t) {
    if (t->done) {
        sb_puts(out, "✅");
        return;
    }
    sb_puts(out, "🚧 ");
    if (r->lang == TRK_EN) {
        if (t->items_total) sb_printf(out, "%zu/%zu done, ", t->items_done, t->items_total);
        sb_printf(out, "%zu finding%s left in %zu file%s", t->findings.n, t->findings.n == 1 ? "" : "s", t->n_files,
                  t->n_files == 1 ? "" : "s");
        return;
    }
    if (t->items_total) sb_printf(out, "进展 %zu/%zu，", t->items_done, t->items_total);
    sb_printf(out, "剩余 %zu 处（%zu 个文件）", t->findings.n, t->n_files);
}

/* A PR the manifest names: as text GitHub links, unless the measured history has no such PR
 * (a typo like #6782): then in a code span, which GitHub does not link. */
static void pr_cell(sb *out, const tracking_report *r, const char *pr) {
    int st = trk_pr_state(r, pr);
    if (st != 0 && st != 2) {
        cell(out, pr);
        return;
    }
    sb_putc(out, '`');
    cell(out, pr);
    sb_puts(out, "`⚠️");
}

static void overview(sb *out, const tracking_report *r) {
    sb_puts(out, "### 二、Task\n\n| 序号 | 任务描述 | 认领人/状态/PR号 |\n|---|---|---|\n");
    for (size_t i = 0; i < r->m->tasks.n; i++) {
        const trk_task *t = &VEC_AT(&r->m->tasks, trk_task, i);
        sb_printf(out, "| %d | ", t->number);
        cell(out, t->title);
        sb_putc(out, ' ');
        task_state(out, r, t);
        sb_puts(out, " |");
        if (t->claimant) {
            sb_putc(out, ' ');
            cell(out, t->claimant);
        }
        for (size_t k = 0; k < t->prs.n; k++) {
            sb_putc(out, ' ');
            pr_cell(out, r, VEC_AT(&t->prs, char *, k));
        }
        sb_puts(out, " |\n");
    }
    sb_putc(out, '\n');
}

static void open_count(sb *out, const tracking_report *r, size_t n, size_t comments) {
    if (n && comments == n) {
        /* a distinct state: what is left is prose about the legacy code, not the code */
        if (r->lang == TRK_EN) sb_printf(out, "💬 only comments left: %zu", n);
        else sb_printf(out, "💬 仅剩注释 %zu 处", n);
    } else if (r->lang == TRK_EN) {
        sb_printf(out, "⬜ %zu finding%s", n, n == 1 ? "" : "s");
    } else {
        sb_printf(out, "⬜ 剩余 %zu 处", n);
    }
}

/* An item's status cell. */
static void item_status(sb *out, const tracking_report *r, const trk_item *it) {
    if (it->outside) {
        sb_puts(out, T(r, "➖ 不在本仓库（", "➖ not in this repository ("));
        cell(out, it->outside);
        sb_puts(out, T(r, "）", ")"));
    } else if (it->done) {
        sb_puts(out, it->file && it->where == TRK_GONE ? T(r, "✅ 已删除", "✅ deleted") : "✅");
    } else if (it->open.n) {
        open_count(out, r, it->open.n, it->comments);
    } else {
        sb_puts(out, T(r, "⬜ 文件仍存在", "⬜ file still exists"));
    }
}

/* The 其他 row: the task's findings no item selects, so the rows add up to the task. */
static void other_row(sb *out, const tracking_report *r, const trk_task *t, bool file_table) {
    sb_puts(out, file_table ? "| — | " : "| ");
    sb_puts(out, T(r, "其他（不属于任何子项）", "other (in no item)"));
    sb_puts(out, " | ");
    open_count(out, r, t->other.n, t->other_comments);
    sb_puts(out, " |  | ");
    finding_links(out, r, &t->other, false);
    sb_puts(out, " |\n");
}

static void item_row(sb *out, const tracking_report *r, const trk_item *it) {
    if (it->file) {
        sb_puts(out, "| ");
        sb_puts(out, trk_handling_zh(it->handling));
        sb_puts(out, " | ");
        if (it->found) link(out, r->m, it->found, 0, 0, trk_item_name(it, r->lang));
        else cell(out, trk_item_name(it, r->lang));
        sb_puts(out, " | ");
        item_status(out, r, it);
        sb_puts(out, " | ");
        pr_cell(out, r, it->pr);
        sb_puts(out, " | ");
        finding_links(out, r, &it->open, true);
        sb_puts(out, " |\n");
        return;
    }
    sb_puts(out, "| ");
    cell(out, trk_item_name(it, r->lang));
    if (it->name_en && r->lang == TRK_EN) {
        sb_puts(out, " (");
        cell(out, it->name_en);
        sb_putc(out, ')');
    }
    sb_puts(out, " | ");
    item_status(out, r, it);
    sb_puts(out, " | ");
    pr_cell(out, r, it->pr);
    sb_puts(out, " | ");
    finding_links(out, r, &it->open, false);
    sb_puts(out, " |\n");
}

/* "+N more": what a cut left out. The reader cannot open a file of the machine that
 * wrote the report, so no file is named; the JSON and HTML views list everything. */
static void more_line(sb *out, const tracking_report *r, size_t n, const char *what) {
    if (r->lang == TRK_EN) sb_printf(out, "- +%zu more %s, not listed here\n", n, what);
    else sb_printf(out, "- 另有 %zu %s未在此列出\n", n, what);
}

static int details(sb *out, const tracking_report *r, size_t max_files) {
    sb_puts(out, "### 三、Details\n\n");
    for (size_t i = 0; i < r->m->tasks.n; i++) {
        const trk_task *t = &VEC_AT(&r->m->tasks, trk_task, i);
        char num[16];
        sb_printf(out, "#### 任务%s：", trk_cn_number(t->number, num));
        cell(out, t->title);
        if (t->done) sb_puts(out, " ✅");
        sb_printf(out, "（整体进展：%zu/%zu）\n\n", t->items_done, t->items_total);
        if (r->lang == TRK_EN && t->title_en) {
            cell(out, t->title_en);
            sb_puts(out, ". ");
        }
        if (r->lang == TRK_EN)
            sb_printf(out, "Findings left: %zu in %zu file%s (the sum of the rows below).\n\n", t->findings.n,
                      t->n_files, t->n_files == 1 ? "" : "s");
        else sb_printf(out, "剩余问题：%zu 处，%zu 个文件（即下表各行之和）。\n\n", t->findings.n, t->n_files);
        bool files = false, checks = false;
        for (size_t k = 0; k < t->items.n; k++) {
            if (VEC_AT(&t->items, trk_item, k).file) files = true;
            else checks = true;
        }
        if (files) {
            sb_puts(out, T(r, "| 处理方式 | ", "| handling | "));
            cell(out, t->items_header ? t->items_header : T(r, "文件", "file"));
            sb_puts(out, T(r, " | 状态 | PR链接 | 剩余 |\n|---|---|---|---|---|\n",
                           " | status | PR | left |\n|---|---|---|---|---|\n"));
            for (size_t k = 0; k < t->items.n; k++)
                if (VEC_AT(&t->items, trk_item, k).file) item_row(out, r, &VEC_AT(&t->items, trk_item, k));
            if (t->other.n && !checks) other_row(out, r, t, true);
            sb_putc(out, '\n');
        }
        if (!files && !checks && t->other.n) checks = true; /* a task with no items: 其他 alone */
        if (checks) {
            sb_puts(out, T(r, "| 子项 | 状态 | PR链接 | 剩余 |\n|---|---|---|---|\n",
                           "| item | status | PR | left |\n|---|---|---|---|\n"));
            for (size_t k = 0; k < t->items.n; k++)
                if (!VEC_AT(&t->items, trk_item, k).file) item_row(out, r, &VEC_AT(&t->items, trk_item, k));
            if (t->other.n) other_row(out, r, t, false);
            sb_putc(out, '\n');
        }
        bool notes = false;
        for (size_t k = 0; k < t->items.n; k++) {
            const trk_item *it = &VEC_AT(&t->items, trk_item, k);
            if (!it->remark && !trk_item_note(it, r->lang)) continue;
            if (!notes) sb_puts(out, T(r, "说明：\n", "Notes:\n"));
            notes = true;
            const char *note = trk_item_note(it, r->lang);
            sb_puts(out, "- `");
            cell(out, trk_item_name(it, r->lang));
            sb_puts(out, T(r, "`：", "`: "));
            if (it->remark) cell(out, it->remark);
            if (it->remark && note) sb_puts(out, T(r, "；", "; "));
            if (note) cell(out, note);
            sb_putc(out, '\n');
        }
        if (notes) sb_putc(out, '\n');
        if (t->findings.n) {
            vec idx;
            size_t n_groups;
            if (trk_task_groups(t, r->res, max_files, &idx, &n_groups)) return -1;
            if (r->lang == TRK_EN) {
                sb_printf(out, "Remaining findings of task %d, by file (%zu file%s", t->number, n_groups,
                          n_groups == 1 ? "" : "s");
                if (n_groups > idx.n) sb_printf(out, "; the %zu with the most", idx.n);
                sb_puts(out, idx.n ? "):\n" : ").");
            } else {
                sb_printf(out, "任务%s的剩余问题，按文件（共 %zu 个文件", num, n_groups);
                if (n_groups > idx.n) sb_printf(out, "，列出最多的 %zu 个", idx.n);
                sb_puts(out, idx.n ? "）：\n" : "）。");
            }
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
                sb_printf(out, T(r, "（%zu 处）：", " (%zu): "), n);
                finding_links(out, r, &sub, true);
                vec_free(&sub);
                sb_putc(out, '\n');
            }
            if (n_groups > idx.n) more_line(out, r, n_groups - idx.n, T(r, "个文件", "files"));
            sb_putc(out, '\n');
            vec_free(&idx);
        }
    }
    return 0;
}

/* The PRs the manifest names that the measured history does not have, with their tasks: a
 * typo in the issue, or work not merged; they are not linked. */
static void pr_check_state(sb *out, const tracking_report *r, int want) {
    size_t shown = 0;
    for (size_t i = 0; i < r->m->tasks.n; i++) {
        const trk_task *t = &VEC_AT(&r->m->tasks, trk_task, i);
        for (size_t k = 0; k < t->prs.n; k++) {
            const char *pr = VEC_AT(&t->prs, char *, k);
            if (trk_pr_state(r, pr) != want) continue;
            bool earlier = false; /* once per PR, with every task naming it */
            for (size_t j = 0; j < i && !earlier; j++)
                for (size_t q = 0; q < VEC_AT(&r->m->tasks, trk_task, j).prs.n && !earlier; q++)
                    earlier = strcmp(VEC_AT(&VEC_AT(&r->m->tasks, trk_task, j).prs, char *, q), pr) == 0;
            for (size_t q = 0; q < k && !earlier; q++) earlier = strcmp(VEC_AT(&t->prs, char *, q), pr) == 0;
            if (earlier) continue;
            sb_puts(out, shown++ ? T(r, "、`", ", `") : T(r, "PR 核对：`", "PR check: `"));
            cell(out, pr);
            sb_puts(out, T(r, "`（任务", "` (task"));
            size_t nt = 0;
            for (size_t j = i; j < r->m->tasks.n; j++) {
                const trk_task *u = &VEC_AT(&r->m->tasks, trk_task, j);
                bool names = false;
                for (size_t q = 0; q < u->prs.n && !names; q++) names = strcmp(VEC_AT(&u->prs, char *, q), pr) == 0;
                char num[16];
                if (names) sb_printf(out, "%s%s", nt++ ? T(r, "、", ", ") : r->lang == TRK_EN ? " " : "",
                                     r->lang == TRK_EN ? (snprintf(num, sizeof num, "%d", u->number), num)
                                                       : trk_cn_number(u->number, num));
            }
            sb_puts(out, T(r, "）", ")"));
        }
    }
    if (shown && want == 0)
        sb_puts(out, T(r, "不在所测提交的历史中（可能是议题中的笔误，或尚未合入），未作链接。\n\n",
                       " not in the history of the measured commit (a typo in the issue, or not merged): not linked.\n\n"));
    else if (shown)
        sb_puts(out, T(r, "在历史中是比本议题其余 PR 早半年以上的提交（可能是议题中的笔误），未作链接。\n\n",
                       " name commits over half a year older than the issue's other PRs (a typo in the issue?): not "
                       "linked.\n\n"));
}

/* The PRs the manifest names that do not check out against the history: missing, or old. */
static void pr_check(sb *out, const tracking_report *r) {
    pr_check_state(out, r, 0);
    pr_check_state(out, r, 2);
}

static void dashboard(sb *out, const tracking_report *r) {
    size_t n = r->m->tasks.n;
    sb_puts(out, "### 看板信息\n\n| 任务方向 | 任务数量 | 提交作品 / 任务认领 | 提交率 | 完成 | 完成率 |\n"
                 "|---|---|---|---|---|---|\n| ");
    cell(out, r->m->board ? r->m->board : r->m->title);
    if (r->submitted_known)
        sb_printf(out, " | %zu | %zu / %zu | %.1f%% |", n, r->tasks_submitted, r->tasks_claimed,
                  trk_rate(r->tasks_submitted, n));
    else sb_printf(out, T(r, " | %zu | 未知 / %zu | — |", " | %zu | unknown / %zu | — |"), n, r->tasks_claimed);
    sb_printf(out, " %zu | %.1f%% |\n\n", r->tasks_done, trk_rate(r->tasks_done, n));
    /* both figures are measured: say how, so nobody reads them as copied from the issue */
    sb_puts(out, r->submitted_known
                     ? T(r, "提交作品：所列 PR 已合入所测提交的任务数；完成：所有子项完成且无剩余问题的任务数。\n\n",
                         "Submitted: tasks with a PR of theirs merged in the measured history; done: tasks with "
                         "every item done and nothing left.\n\n")
                     : T(r, "提交作品：无 git 历史，未测量；完成：所有子项完成且无剩余问题的任务数。\n\n",
                         "Submitted: not measured (no git history); done: tasks with every item done and "
                         "nothing left.\n\n"));
    pr_check(out, r);
}

static void file_row(sb *out, const tracking_report *r, const trk_file *tf) {
    sb_printf(out, "| %s | ", trk_handling_zh(tf->handling));
    link(out, r->m, tf->path, 0, 0, NULL);
    sb_puts(out, " | ");
    sunset_task_set(out, tf->tasks, ", ");
    sb_printf(out, " | %zu | %u | ", tf->n, tf->lines);
    if (tf->handling == TRK_DIRECT) {
        cell(out, tf->reason);
    } else {
        for (size_t k = 0; k < tf->ranges.n; k++) {
            const trk_range *g = &VEC_AT(&tf->ranges, trk_range, k);
            char l[32];
            if (g->end > g->start) snprintf(l, sizeof l, "L%u-L%u", g->start, g->end);
            else snprintf(l, sizeof l, "L%u", g->start);
            if (k) sb_puts(out, T(r, "；", "; "));
            link(out, r->m, tf->path, g->start, g->end, l); /* the row names the file */
            sb_putc(out, ' ');
            cell(out, g->reason);
            if (k + 1 == MAX_RANGES && tf->ranges.n > MAX_RANGES) {
                sb_printf(out, T(r, "；另有 %zu 处", "; +%zu more"), tf->ranges.n - MAX_RANGES);
                break;
            }
        }
    }
    sb_puts(out, " |\n");
}

/* qsort has no context argument; the writers run on one thread. */
static const trk_file *rank_base;

/* Most findings first, then by path: the files a reader acts on first. */
static int cmp_rank(const void *a, const void *b) {
    const trk_file *x = &rank_base[*(const size_t *)a], *y = &rank_base[*(const size_t *)b];
    if (x->n != y->n) return x->n > y->n ? -1 : 1;
    return strcmp(x->path, y->path);
}

/* The removal handling of the files with findings, ranked, rows added while the document
 * stays under `limit` characters (`used` so far; `reserve` kept for what follows). */
static int handling(sb *out, const tracking_report *r, size_t used, size_t limit, size_t reserve) {
    size_t direct = 0, n = r->files.n;
    for (size_t i = 0; i < n; i++) direct += VEC_AT(&r->files, trk_file, i).handling == TRK_DIRECT;
    size_t *order = sunset_calloc(n ? n : 1, sizeof *order);
    if (!order) return -1;
    for (size_t i = 0; i < n; i++) order[i] = i;
    rank_base = (const trk_file *)r->files.v;
    if (n > 1) qsort(order, n, sizeof *order, cmp_rank);
    sb head = {0}, rows = {0}, row = {0};
    if (r->lang == TRK_EN)
        sb_printf(&head, "<details><summary>Removal handling of every file with findings: %zu files, %zu 直接删除, "
                         "%zu 部分删除</summary>\n\n| 处理方式 | file | tasks | findings | lines | reason / ranges to "
                         "remove |\n|---|---|---|---|---|---|\n",
                  n, direct, n - direct);
    else
        sb_printf(&head, "<details><summary>有问题文件的处理方式：共 %zu 个文件，直接删除 %zu 个，部分删除 %zu 个"
                         "</summary>\n\n| 处理方式 | 文件 | 任务 | 问题数 | 行数 | 原因 / 删除范围 |\n"
                         "|---|---|---|---|---|---|\n",
                  n, direct, n - direct);
    size_t total = used + trk_chars(head.s, head.len) + reserve + 200, shown = 0;
    for (; shown < n; shown++) {
        row.len = 0;
        file_row(&row, r, &VEC_AT(&r->files, trk_file, order[shown]));
        if (row.oom) break;
        size_t c = trk_chars(row.s, row.len);
        if (total + c > limit) break;
        total += c;
        sb_putn(&rows, row.s, row.len);
    }
    sb_putn(out, head.s, head.len);
    sb_putn(out, rows.s ? rows.s : "", rows.len);
    if (shown < n) {
        sb_putc(out, '\n');
        more_line(out, r, n - shown, T(r, "个文件（问题较少）", "files (fewer findings)"));
    }
    sb_puts(out, "\n</details>\n\n");
    int rc = head.oom || rows.oom || row.oom ? -1 : 0;
    sb_free(&head);
    sb_free(&rows);
    sb_free(&row);
    sunset_free(order);
    return rc;
}

static void batches_md(sb *out, const tracking_report *r, const vec *batches) {
    sb_printf(out, T(r, "### 认领批次\n\n剩余工作分为 %zu 批。\n\n"
                        "| 批次 | 分组 | 文件 | 行数 | 问题数 | 规则族 |\n|---|---|---|---|---|---|\n",
                     "### Contributor batches\n\n%zu batches of the remaining work.\n\n"
                        "| batch | group | files | lines | findings | families |\n|---|---|---|---|---|---|\n"),
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
            if (k) sb_puts(out, T(r, "、", ", "));
            cell(out, trk_family_name(r->m, VEC_AT(&b->families, const char *, k), r->lang));
        }
        sb_puts(out, " |\n");
    }
    sb_putc(out, '\n');
}

/* What was measured: the revision and the date, so a pasted report says what it describes. */
static void measured(sb *out, const tracking_report *r) {
    if (r->lang == TRK_EN) {
        sb_puts(out, "Measured by sunset at ");
        if (r->revision) sb_printf(out, "commit `%s`", r->revision);
        else sb_puts(out, "a tree that is not a git checkout (revision unknown)");
        if (r->date) sb_printf(out, ", %s", r->date);
        sb_puts(out, !r->revision ? ".\n\n" : r->links_pinned ? "; links point at that commit.\n\n"
                                                             : "; no remote holds that commit, so links point at the "
                                                               "branch.\n\n");
    } else {
        sb_puts(out, "由 sunset 测量：");
        if (r->revision) sb_printf(out, "提交 `%s`", r->revision);
        else sb_puts(out, "非 git 检出的源码树（版本未知）");
        if (r->date) sb_printf(out, "，%s", r->date);
        sb_puts(out, !r->revision ? "。\n\n" : r->links_pinned ? "；链接均指向该提交。\n\n"
                                                             : "；该提交不在任何远程仓库中，链接指向分支。\n\n");
    }
}

/* ---- 本周变化: since the previous report ---- */

enum { MAX_SINCE_COMMITS = 15 };

static const char *state_word(const tracking_report *r, const char *key) {
    if (!key || !*key) return T(r, "（上次没有此项）", "(not in the last report)");
    if (!strcmp(key, "done")) return T(r, "✅ 完成", "✅ done");
    if (!strcmp(key, "comments_only")) return T(r, "💬 仅剩注释", "💬 only comments");
    if (!strcmp(key, "outside")) return T(r, "不在本仓库", "not in this repository");
    return T(r, "未完成", "open");
}

static void task_name(sb *out, const tracking_report *r, int number) {
    char num[16];
    if (r->lang == TRK_EN) sb_printf(out, "task %d", number);
    else sb_printf(out, "任务%s", trk_cn_number(number, num));
}

/* Text in a code span: a backtick would end it, a line break would end the row. */
static void code_text(sb *out, const char *s, size_t max) {
    size_t n = strlen(s);
    if (n > max) {
        n = max;
        while (n && ((unsigned char)s[n] & 0xC0) == 0x80) n--; /* a whole UTF-8 sequence */
    }
    sb_putc(out, '`');
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '`' || s[i] == '|' || s[i] == '\n' || s[i] == '\r') sb_putc(out, '\'');
        else sb_putc(out, s[i]);
    }
    sb_puts(out, n < strlen(s) ? "…`" : "`");
}

static void since_tasks(sb *out, const tracking_report *r, const trk_since *s) {
    size_t shown = 0;
    for (size_t i = 0; i < s->tasks.n; i++) {
        const trk_since_task *t = &VEC_AT(&s->tasks, trk_since_task, i);
        if (t->known && t->before == t->after && t->was_done == t->now_done && !t->added.n) continue;
        if (!shown++)
            sb_puts(out, T(r, "| 任务 | 上次剩余 | 本次剩余 | 变化 | 新增 | 状态 |\n|---|---|---|---|---|---|\n",
                           "| task | last | now | change | new | state |\n|---|---|---|---|---|---|\n"));
        sb_puts(out, "| ");
        task_name(out, r, t->number);
        if (t->known) sb_printf(out, " | %ld | %ld | %+ld | %zu | ", t->before, t->after, t->after - t->before,
                                t->added.n);
        else sb_printf(out, T(r, " | — | %ld | — | — | ", " | — | %ld | — | — | "), t->after);
        if (t->was_done != t->now_done)
            sb_printf(out, "%s → %s", state_word(r, t->was_done ? "done" : "open"),
                      state_word(r, t->now_done ? "done" : "open"));
        else sb_puts(out, state_word(r, t->now_done ? "done" : "open"));
        sb_puts(out, " |\n");
    }
    if (!shown) sb_puts(out, T(r, "各任务的剩余问题数与状态均无变化。\n", "No task's count or state changed.\n"));
    sb_putc(out, '\n');
    /* the new legacy code itself, linked: what a reviewer of the week wants to look at */
    for (size_t i = 0; i < s->tasks.n; i++) {
        const trk_since_task *t = &VEC_AT(&s->tasks, trk_since_task, i);
        if (!t->added.n) continue;
        sb_puts(out, "- ");
        task_name(out, r, t->number);
        sb_printf(out, T(r, "新增 %zu 处：", " new, %zu: "), t->added.n);
        finding_links(out, r, &t->added, false);
        sb_putc(out, '\n');
    }
    if (s->added) sb_putc(out, '\n');
}

static void since_items(sb *out, const tracking_report *r, const trk_since *s) {
    if (!s->items.n) {
        sb_puts(out, T(r, "没有子项改变状态。\n\n", "No item changed state.\n\n"));
        return;
    }
    sb_printf(out, T(r, "改变状态的子项（%zu 项）：\n\n", "Items that changed state (%zu):\n\n"), s->items.n);
    for (size_t i = 0; i < s->items.n; i++) {
        const trk_since_item *it = &VEC_AT(&s->items, trk_since_item, i);
        sb_puts(out, "- ");
        task_name(out, r, it->task);
        /* a file in a code span; a check item's name as the issue writes it (with its own spans) */
        sb_puts(out, it->it->file ? T(r, "：`", ": `") : T(r, "：", ": "));
        cell(out, trk_item_name(it->it, r->lang));
        sb_printf(out, it->it->file ? "` %s → %s" : T(r, "：%s → %s", ": %s → %s"), state_word(r, it->before), state_word(r, trk_state_key(trk_item_state(it->it))));
        if (it->before[0] && (size_t)it->open_before != it->it->open.n)
            sb_printf(out, T(r, "（剩余 %ld → %zu 处）", " (%ld → %zu left)"), it->open_before, it->it->open.n);
        sb_putc(out, '\n');
    }
    sb_putc(out, '\n');
}

static void since_commit(sb *out, const tracking_report *r, const trk_since_pr *p) {
    sb_puts(out, "| ");
    for (size_t k = 0; k < p->n_prs && k < 3; k++) sb_printf(out, "%s#%ld", k ? T(r, "、", ", ") : "", p->prs[k]);
    if (p->n_prs > 3) sb_printf(out, T(r, " 等 %zu 个", " and %zu more"), r->lang == TRK_EN ? p->n_prs - 3 : p->n_prs);
    if (!p->n_prs) sb_puts(out, "—");
    sb_puts(out, " | ");
    /* linked only into the repository the blob links pin (the remote that has the commits) */
    const char *web = r->m->source_url, *blob = web && r->links_pinned ? strstr(web, "/blob/") : NULL;
    if (blob && trk_is_web_url(web)) sb_printf(out, "[`%s`](%.*s/commit/%s)", p->sha, (int)(blob - web), web, p->sha);
    else sb_printf(out, "`%s`", p->sha);
    if (!p->n_prs) {
        sb_putc(out, ' ');
        code_text(out, p->subject ? p->subject : "", 60);
    }
    sb_printf(out, " | %+ld | ", p->delta);
    size_t nt = 0;
    for (int t = 1; t < TRK_SINCE_TASKS; t++) {
        if (!p->by_task[t]) continue;
        if (nt++) sb_puts(out, T(r, "、", ", "));
        task_name(out, r, t);
        sb_printf(out, " %+d", (int)p->by_task[t]);
    }
    sb_puts(out, " |\n");
}

static void since_commits(sb *out, const tracking_report *r, const trk_since *s) {
    if (!s->history) {
        sb_puts(out, T(r, "期间合入的 PR：未测量", "PRs merged in between: not measured"));
        if (s->history_note) sb_printf(out, r->lang == TRK_EN ? " (%s)" : "（%s）", s->history_note);
        sb_puts(out, T(r, "。\n\n", ".\n\n"));
        return;
    }
    if (s->history_note) sb_printf(out, T(r, "注：%s。\n\n", "Note: %s.\n\n"), s->history_note);
    sb_printf(out, T(r, "期间 %zu 个提交，按历史重放剩余问题变化 %+ld 处；改变计数的提交 %zu 个（减少最多的在前）",
                     "%zu commits in between; replayed, the count changed by %+ld; %zu commits changed it (largest "
                     "drop first)"),
              s->commits, s->delta, s->prs.n);
    if (s->quiet_prs)
        sb_printf(out, T(r, "，另有 %zu 个 PR 提交未改变计数", "; %zu more PR commits changed nothing"), s->quiet_prs);
    sb_puts(out, T(r, "：\n\n", ":\n\n"));
    if (!s->prs.n) return;
    sb_puts(out, T(r, "| PR | 提交 | 变化 | 涉及任务 |\n|---|---|---|---|\n", "| PR | commit | change | tasks |\n|---|---|---|---|\n"));
    size_t n = s->prs.n < MAX_SINCE_COMMITS ? s->prs.n : MAX_SINCE_COMMITS;
    for (size_t i = 0; i < n; i++) since_commit(out, r, &VEC_AT(&s->prs, trk_since_pr, i));
    sb_putc(out, '\n');
    if (s->prs.n > n) {
        long rest = 0;
        for (size_t i = n; i < s->prs.n; i++) rest += VEC_AT(&s->prs, trk_since_pr, i).delta;
        sb_printf(out, T(r, "另有 %zu 个提交改变了计数（合计 %+ld 处），未在此列出。\n\n",
                         "%zu more commits changed the count (%+ld in all), not listed here.\n\n"),
                  s->prs.n - n, rest);
    }
}

static void since_md(sb *out, const tracking_report *r) {
    const trk_since *s = r->since;
    sb_puts(out, T(r, "### 本周变化\n\n自上次报告（", "### Since the last report\n\nSince the last report ("));
    if (s->revision) sb_printf(out, T(r, "提交 `%.12s`", "commit `%.12s`"), s->revision);
    else sb_puts(out, T(r, "版本未知", "revision unknown"));
    if (s->date) sb_printf(out, T(r, "，%s", ", %s"), s->date);
    long before = 0, after = 0;
    size_t done_before = 0, done_after = 0;
    for (size_t i = 0; i < s->tasks.n; i++) {
        const trk_since_task *t = &VEC_AT(&s->tasks, trk_since_task, i);
        before += t->before, after += t->after;
        done_before += t->was_done, done_after += t->now_done;
    }
    sb_printf(out, T(r, "）以来：各任务剩余问题 %ld → %ld 处（%+ld），完成的任务 %zu → %zu 个，新出现的遗留代码 %zu 处（新写的，或移动、改名而来）。\n\n",
                     "): findings left in the tasks %ld → %ld (%+ld), tasks done %zu → %zu, legacy code not there "
                     "before %zu (new, or moved or renamed).\n\n"),
              before, after, after - before, done_before, done_after, s->added);
    since_tasks(out, r, s);
    since_items(out, r, s);
    since_commits(out, r, s);
}

int tracking_write_md(const tracking_report *r, const vec *batches, sb *out) {
    size_t limit = r->md_budget ? r->md_budget : TRACKING_MD_BUDGET, start = out->len;
    /* the batches come last but count from the start: the budget is for the whole body */
    sb tail = {0};
    if (batches) batches_md(&tail, r, batches);
    sb_puts(&tail, TRACKING_MARK_END "\n");
    size_t reserve = trk_chars(tail.s, tail.len);
    /* The fixed part first; the per-task file lists shrink (15, 5, none) until the removal
     * table has room for its larger files. */
    static const size_t caps[] = {15, 5, 0};
    for (size_t ci = 0; ci < sizeof caps / sizeof caps[0]; ci++) {
        out->len = start;
        if (out->s) out->s[start] = 0;
        sb_puts(out, TRACKING_MARK_BEGIN "\n");
        sb_puts(out, T(r, "<!-- 由 sunset report 生成；标记之间的修改会被覆盖 -->\n\n",
                       "<!-- generated by sunset report; edits between the markers are overwritten -->\n\n"));
        measured(out, r);
        if (r->since) since_md(out, r);
        overview(out, r);
        if (details(out, r, caps[ci])) {
            sb_free(&tail);
            return -1;
        }
        dashboard(out, r);
        if (out->oom) break;
        size_t used = trk_chars(out->s + start, out->len - start) + reserve;
        if (used * 10 < limit * 8 || ci + 1 == sizeof caps / sizeof caps[0]) break;
    }
    /* out of memory, out->s may be NULL: no offset on it (UBSan) */
    size_t used = out->s ? trk_chars(out->s + start, out->len - start) : 0;
    int rc = handling(out, r, used, limit, reserve);
    sb_putn(out, tail.s ? tail.s : "", tail.len);
    tracking_defuse_markers(out, start); /* a path spelling a marker on its own line */
    rc = rc || tail.oom ? -1 : 0;
    sb_free(&tail);
    return out->oom ? -1 : rc;
}
