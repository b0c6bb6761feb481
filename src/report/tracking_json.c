/*
 * tracking_json.c — the tracking report as one JSON document with the same numbers as the
 * Markdown and HTML views: summary (the 看板信息 figures), tasks with their items and
 * remaining findings, the removal handling of every file with findings, and the batches
 * when asked for.
 */
#include <string.h>

#include "analysis/tracking.h"
#include "report/report.h"

static void findings(sb *out, const tracking_report *r, const vec *idx, const vec *through) {
    sb_putc(out, '[');
    for (size_t i = 0; i < idx->n; i++) {
        size_t k = VEC_AT(idx, size_t, i);
        if (through) k = VEC_AT(through, size_t, k);
        const sunset_finding *f = &r->res->findings[k];
        if (i) sb_putc(out, ',');
        sb_puts(out, "{\"path\":");
        sb_put_json_str_or_null(out, f->path);
        sb_printf(out, ",\"line\":%u,\"rule\":", f->span.line);
        sb_put_json_str_or_null(out, f->rule_id);
        sb_puts(out, ",\"family\":");
        sb_put_json_str_or_null(out, f->family);
        sb_printf(out, ",\"comment\":%s,\"fingerprint\":\"%s\"}", trk_is_comment(f) ? "true" : "false",
                  f->fingerprint);
    }
    sb_putc(out, ']');
}

static const char *where_name(trk_where w) {
    return w == TRK_AT_PATH ? "at_path" : w == TRK_MOVED ? "moved" : w == TRK_RENAMED ? "renamed" : "gone";
}

static void item(sb *out, const tracking_report *r, const trk_item *it) {
    sb_puts(out, "{\"name\":");
    sb_put_json_str_or_null(out, it->name);
    sb_puts(out, ",\"name_en\":");
    sb_put_json_str_or_null(out, it->name_en);
    sb_puts(out, ",\"name_zh\":");
    sb_put_json_str_or_null(out, it->name_zh);
    sb_puts(out, ",\"file\":");
    sb_put_json_str_or_null(out, it->file);
    sb_puts(out, ",\"pr\":");
    sb_put_json_str_or_null(out, it->pr);
    sb_puts(out, ",\"note\":");
    sb_put_json_str_or_null(out, it->note);
    sb_puts(out, ",\"note_zh\":");
    sb_put_json_str_or_null(out, it->note_zh);
    sb_puts(out, ",\"outside\":");
    sb_put_json_str_or_null(out, it->outside);
    sb_puts(out, ",\"state\":");
    sb_put_json_str_or_null(out, trk_state_key(trk_item_state(it)));
    if (it->file) {
        sb_puts(out, ",\"handling\":");
        sb_put_json_str_or_null(out, trk_handling_key(it->handling));
        sb_puts(out, ",\"where\":");
        sb_put_json_str_or_null(out, where_name(it->where));
        sb_puts(out, ",\"found\":");
        sb_put_json_str_or_null(out, it->found);
        sb_puts(out, ",\"computed\":");
        sb_put_json_str_or_null(out, it->computed ? trk_handling_key(it->computed) : NULL);
    }
    sb_printf(out, ",\"done\":%s,\"open\":%zu,\"comments\":%zu,", it->done ? "true" : "false", it->open.n,
              it->comments);
    if (it->file) sb_printf(out, "\"open_other_tasks\":%zu,", it->open_other);
    sb_puts(out, "\"remark\":");
    sb_put_json_str_or_null(out, it->remark);
    sb_puts(out, ",\"findings\":");
    findings(out, r, &it->open, NULL);
    sb_putc(out, '}');
}

/* 本周变化: the previous report, the tasks and items that changed, the new findings, and the
 * commits in between with their drops. */
static void since_json(sb *out, const tracking_report *r) {
    const trk_since *s = r->since;
    sb_puts(out, ",\n\"since\":{\"revision\":");
    sb_put_json_str_or_null(out, s->revision);
    sb_puts(out, ",\"date\":");
    sb_put_json_str_or_null(out, s->date);
    sb_printf(out, ",\"added\":%zu,\"matched_by\":\"%s\",\"tasks\":[", s->added,
              s->by_fingerprint ? "fingerprint" : "path_rule");
    for (size_t i = 0; i < s->tasks.n; i++) {
        const trk_since_task *t = &VEC_AT(&s->tasks, trk_since_task, i);
        sb_printf(out, "%s{\"number\":%d,\"known\":%s,\"was_done\":%s,\"done\":%s,\"before\":%ld,\"after\":%ld,"
                       "\"added\":",
                  i ? ",\n" : "\n", t->number, t->known ? "true" : "false", t->was_done ? "true" : "false",
                  t->now_done ? "true" : "false", t->before, t->after);
        findings(out, r, &t->added, NULL);
        sb_putc(out, '}');
    }
    sb_puts(out, "],\n\"items\":[");
    for (size_t i = 0; i < s->items.n; i++) {
        const trk_since_item *it = &VEC_AT(&s->items, trk_since_item, i);
        sb_printf(out, "%s{\"task\":%d,\"name\":", i ? ",\n" : "\n", it->task);
        sb_put_json_str_or_null(out, it->it->name);
        sb_puts(out, ",\"file\":");
        sb_put_json_str_or_null(out, it->it->file);
        sb_puts(out, ",\"before\":");
        sb_put_json_str_or_null(out, it->before[0] ? it->before : NULL);
        sb_puts(out, ",\"after\":");
        sb_put_json_str_or_null(out, trk_state_key(trk_item_state(it->it)));
        sb_printf(out, ",\"open_before\":%ld,\"open_after\":%zu}", it->open_before, it->it->open.n);
    }
    sb_printf(out, "],\n\"history\":%s,\"history_note\":", s->history ? "true" : "false");
    sb_put_json_str_or_null(out, s->history_note);
    sb_printf(out, ",\"commits\":%zu,\"quiet_prs\":%zu,\"delta\":%ld,\"changes\":[", s->commits, s->quiet_prs,
              s->delta);
    for (size_t i = 0; i < s->prs.n; i++) {
        const trk_since_pr *p = &VEC_AT(&s->prs, trk_since_pr, i);
        sb_printf(out, "%s{\"commit\":\"%s\",\"subject\":", i ? ",\n" : "\n", p->sha);
        sb_put_json_str_or_null(out, p->subject);
        sb_puts(out, ",\"prs\":[");
        for (size_t k = 0; k < p->n_prs; k++) sb_printf(out, "%s%ld", k ? "," : "", p->prs[k]);
        sb_printf(out, "],\"delta\":%ld,\"by_task\":{", p->delta);
        bool first = true;
        for (int t = 1; t < TRK_SINCE_TASKS; t++)
            if (p->by_task[t]) {
                sb_printf(out, "%s\"%d\":%d", first ? "" : ",", t, (int)p->by_task[t]);
                first = false;
            }
        sb_puts(out, "}}");
    }
    sb_puts(out, "]}");
}

/* One task's object (after a comma unless first): its claim, items, other and remaining
 * findings. 0, or -1 on OOM. */
static int task_json(sb *out, const tracking_report *r, const trk_task *t, bool first) {
    sb_puts(out, first ? "\n{" : ",\n{");
    sb_printf(out, "\"number\":%d,\"title\":", t->number);
    sb_put_json_str_or_null(out, t->title);
    sb_puts(out, ",\"title_en\":");
    sb_put_json_str_or_null(out, t->title_en);
    sb_puts(out, ",\"claimant\":");
    sb_put_json_str_or_null(out, t->claimant);
    sb_puts(out, ",\"prs\":[");
    for (size_t k = 0; k < t->prs.n; k++) {
        if (k) sb_putc(out, ',');
        sb_put_json_str_or_null(out, VEC_AT(&t->prs, char *, k));
    }
    sb_printf(out, "],\"merged\":%s,\"done\":%s,\"items_done\":%zu,\"items_total\":%zu,\"findings\":%zu,"
                   "\"files\":%zu,\"items\":[",
              r->submitted_known ? (t->merged ? "true" : "false") : "null", t->done ? "true" : "false",
              t->items_done, t->items_total, t->findings.n, t->n_files);
    for (size_t k = 0; k < t->items.n; k++) {
        if (k) sb_putc(out, ',');
        sb_putc(out, '\n');
        item(out, r, &VEC_AT(&t->items, trk_item, k));
    }
    /* the task's findings no item selects: with the items' open, they sum to findings */
    sb_printf(out, "],\n\"other\":{\"open\":%zu,\"comments\":%zu,\"findings\":", t->other.n,
              t->other_comments);
    findings(out, r, &t->other, NULL);
    sb_puts(out, "},\n\"remaining\":");
    vec all = VEC_INIT(size_t);
    for (size_t k = 0; k < t->findings.n; k++)
        if (!vec_push(&all, &k)) {
            vec_free(&all);
            return -1;
        }
    findings(out, r, &all, &t->findings);
    vec_free(&all);
    sb_putc(out, '}');
    return 0;
}

/* One file's object (after a comma unless first_file): its handling, tasks and ranges. */
static void file_json(sb *out, const trk_file *tf, bool first_file) {
    sb_puts(out, first_file ? "\n{\"path\":" : ",\n{\"path\":");
    sb_put_json_str_or_null(out, tf->path);
    sb_puts(out, ",\"handling\":");
    sb_put_json_str_or_null(out, trk_handling_key(tf->handling));
    sb_puts(out, ",\"reason\":");
    sb_put_json_str_or_null(out, tf->reason);
    sb_puts(out, ",\"tasks\":[");
    sunset_task_set(out, tf->tasks, ",");
    sb_printf(out, "],\"findings\":%zu,\"lines\":%u,\"ranges\":[", tf->n, tf->lines);
    for (size_t k = 0; k < tf->ranges.n; k++) {
        const trk_range *g = &VEC_AT(&tf->ranges, trk_range, k);
        sb_printf(out, "%s{\"start\":%u,\"end\":%u,\"reason\":", k ? "," : "", g->start, g->end);
        sb_put_json_str_or_null(out, g->reason);
        sb_putc(out, '}');
    }
    sb_puts(out, "]}");
}

int tracking_write_json(const tracking_report *r, const vec *batches, sb *out) {
    const tracking_manifest *m = r->m;
    size_t n = m->tasks.n;
    sb_puts(out, "{\"version\":1,\"manifest\":{\"id\":");
    sb_put_json_str_or_null(out, m->id);
    sb_puts(out, ",\"title\":");
    sb_put_json_str_or_null(out, m->title);
    sb_puts(out, ",\"url\":");
    sb_put_json_str_or_null(out, m->url);
    sb_puts(out, ",\"board\":");
    sb_put_json_str_or_null(out, m->board);
    /* what was measured, never where: paths are relative to the tree, no local path leaks */
    sb_puts(out, "},\"revision\":");
    sb_put_json_str_or_null(out, r->revision);
    sb_puts(out, ",\"date\":");
    sb_put_json_str_or_null(out, r->date);
    sb_puts(out, ",\"lang\":");
    sb_put_json_str_or_null(out, r->lang == TRK_EN ? "en" : "zh");
    sb_printf(out, ",\n\"summary\":{\"tasks\":%zu,\"claimed\":%zu,", n, r->tasks_claimed);
    /* submitted is measured in the history: null when there is none to measure */
    if (r->submitted_known)
        sb_printf(out, "\"submitted\":%zu,\"submission_rate\":%.1f,", r->tasks_submitted,
                  trk_rate(r->tasks_submitted, n));
    else sb_puts(out, "\"submitted\":null,\"submission_rate\":null,");
    sb_printf(out, "\"done\":%zu,\"completion_rate\":%.1f,\"findings\":%zu,\"files\":%zu},\n\"tasks\":[",
              r->tasks_done, trk_rate(r->tasks_done, n), r->res->n_findings, r->files.n);
    for (size_t i = 0; i < n; i++) {
        if (task_json(out, r, &VEC_AT(&m->tasks, trk_task, i), i == 0)) return -1;
    }
    sb_puts(out, "],\n\"files\":[");
    for (size_t i = 0; i < r->files.n; i++) {
        file_json(out, &VEC_AT(&r->files, trk_file, i), i == 0);
    }
    sb_putc(out, ']');
    if (batches) {
        sb_puts(out, ",\n\"batches\":[");
        for (size_t i = 0; i < batches->n; i++) {
            const trk_batch *b = &VEC_AT(batches, trk_batch, i);
            sb_puts(out, i ? ",\n{\"group\":" : "\n{\"group\":");
            sb_put_json_str_or_null(out, b->key);
            sb_puts(out, ",\"files\":[");
            for (size_t k = 0; k < b->files.n; k++) {
                if (k) sb_putc(out, ',');
                sb_put_json_str_or_null(out, VEC_AT(&r->files, trk_file, VEC_AT(&b->files, size_t, k)).path);
            }
            sb_printf(out, "],\"lines\":%u,\"findings\":%zu,\"families\":[", b->lines, b->findings);
            for (size_t k = 0; k < b->families.n; k++) {
                if (k) sb_putc(out, ',');
                sb_put_json_str_or_null(out, VEC_AT(&b->families, const char *, k));
            }
            sb_puts(out, "]}");
        }
        sb_putc(out, ']');
    }
    if (r->since) since_json(out, r);
    sb_puts(out, "}\n");
    return out->oom ? -1 : 0;
}
