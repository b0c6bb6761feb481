/*
 * removable_write.c — the removal plan as JSON, as Markdown, and as a `git apply`-able unified
 * diff. The diff holds only what is provably safe: dead whole files, and lines that register
 * nothing but removed things (a CMake command naming only removed tests or targets, a tool-list
 * line holding only a removed test's name), include and import lines of deleted files (or the
 * import rewritten), dead Python classes the analysis marked removable. Everything else stays in
 * the listing, unpatched.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report/removable.h"
#include "report/report.h"

static bool whole(const rm_item *it) { return it->kind == RM_FILE && !it->live; }

/* The item's evidence chain as a JSON string, null when it has none. */
static void chain_json(sb *out, const rm_item *it) {
    sb t = {0};
    if (it->n_steps && rm_chain_write(&t, it->steps, it->n_steps)) out->oom = true;
    sb_put_json_str_or_null(out, it->n_steps ? (t.s ? t.s : "") : NULL);
    sb_free(&t);
}

static void json_strs(sb *out, char *const *v, size_t n) {
    sb_putc(out, '[');
    for (size_t k = 0; k < n; k++) {
        if (k) sb_puts(out, ", ");
        sb_put_json_str_or_null(out, v[k]);
    }
    sb_putc(out, ']');
}

static const rm_wstep *unblocked_step(const rm_plan *p, int step) {
    for (size_t i = 0; i < p->n_unblocked; i++)
        if (p->unblocked[i].step == step) return &p->unblocked[i];
    return NULL;
}

/* The steps a migration unblocks: [{"step": 7, "deletes": [...], "joins": [2]}, ...]. */
static void json_wsteps(sb *out, const rm_plan *p, const int *steps, size_t n) {
    sb_putc(out, '[');
    for (size_t k = 0; k < n; k++) {
        const rm_wstep *w = unblocked_step(p, steps[k]);
        if (!w) continue;
        sb_printf(out, "%s{\"step\": %d, \"deletes\": ", k ? ", " : "", w->step);
        json_strs(out, w->deletes, w->n_deletes);
        sb_puts(out, ", \"joins\": [");
        for (size_t j = 0; j < w->n_joins; j++) sb_printf(out, "%s%d", j ? ", " : "", w->joins[j]);
        sb_puts(out, "]}");
    }
    sb_putc(out, ']');
}

int rm_write_json(const rm_plan *p, sb *out) {
    size_t n_whole = 0, n_live = 0, n_partial = 0, n_patch = 0;
    for (size_t i = 0; i < p->n_items; i++) {
        const rm_item *it = &p->items[i];
        if (it->live) n_live++;
        else if (whole(it)) n_whole++;
        else n_partial++;
        n_patch += it->patchable && !it->live;
    }
    sb_puts(out, "{\"version\": 1, \"root\": ");
    sb_put_json_str_or_null(out, p->root);
    sb_printf(out, ",\n \"summary\": {\"files_indexed\": %zu, \"legacy_files\": %zu, \"derived_files\": %zu, "
                   "\"dead_files\": %zu, \"live_files\": %zu, \"whole_file_items\": %zu, "
                   "\"partial_items\": %zu, \"live_items\": %zu, \"patchable_items\": %zu},\n \"items\": [",
              p->n_files_indexed, p->n_legacy_files, p->n_derived_files, p->n_dead_files, p->n_live_files,
              n_whole, n_partial, n_live, n_patch);
    for (size_t i = 0; i < p->n_items; i++) {
        const rm_item *it = &p->items[i];
        sb_puts(out, i ? ",\n  {" : "\n  {");
        sb_printf(out, "\"kind\": \"%s\", \"action\": \"%s\", \"path\": ", rm_kind_name(it->kind),
                  it->live ? "migrate" : whole(it) ? "delete-file" : "remove-lines");
        sb_put_json_str_or_null(out, it->path);
        sb_puts(out, ", \"name\": ");
        sb_put_json_str_or_null(out, it->name);
        sb_printf(out, ", \"line\": %u, \"end_line\": %u, \"enclosing\": ", it->line, it->end);
        sb_put_json_str_or_null(out, it->enclosing);
        sb_printf(out, ", \"derived\": %s, \"status\": \"%s\", \"patchable\": %s, \"step\": %d, \"chain\": ",
                  it->derived ? "true" : "false", it->live ? "live" : "dead",
                  it->patchable && !it->live ? "true" : "false", it->step);
        chain_json(out, it);
        sb_puts(out, ", \"after\": ");
        sb_put_json_str_or_null(out, it->after);
        sb_puts(out, ", \"replace\": ");
        sb_put_json_str_or_null(out, it->replace);
        sb_puts(out, ", \"live_callers\": ");
        json_strs(out, it->callers, it->n_callers);
        sb_puts(out, ", \"migrate_to\": ");
        sb_put_json_str_or_null(out, it->migrate_to);
        sb_puts(out, ", \"mechanical\": ");
        sb_put_json_str_or_null(out, it->mechanical);
        sb_puts(out, ", \"unblocks\": ");
        json_strs(out, it->unblocks, it->n_unblocks);
        sb_puts(out, ", \"unblocks_steps\": ");
        json_wsteps(out, p, it->unblocks_steps, it->n_unblocks_steps);
        sb_putc(out, '}');
    }
    sb_puts(out, p->n_items ? "\n ],\n \"consumers\": [" : "],\n \"consumers\": [");
    for (size_t i = 0; i < p->n_consumers; i++) {
        const rm_consumer *k = &p->consumers[i];
        sb_puts(out, i ? ",\n  {\"path\": " : "\n  {\"path\": ");
        sb_put_json_str_or_null(out, k->path);
        sb_puts(out, ", \"migrate_to\": ");
        json_strs(out, k->migrate_to, k->n_migrate_to);
        sb_printf(out, ", \"keeps_live\": %zu, \"unblocks\": ", k->n_keeps);
        json_strs(out, k->unblocks, k->n_unblocks);
        sb_puts(out, ", \"unblocks_steps\": ");
        json_wsteps(out, p, k->unblocks_steps, k->n_unblocks_steps);
        sb_putc(out, '}');
    }
    sb_puts(out, p->n_consumers ? "\n ]}\n" : "]}\n");
    return out->oom ? -1 : 0;
}

static void md_cell(sb *b, const char *s) { sunset_md_text(b, s, false, false); }

static void md_code(sb *b, const char *s) {
    sb_putc(b, '`');
    sunset_md_text(b, s, true, false);
    sb_putc(b, '`');
}

/* The item's evidence chain in a table cell. */
static void md_chain(sb *b, const rm_item *it) {
    sb t = {0};
    if (rm_chain_write(&t, it->steps, it->n_steps)) b->oom = true;
    md_cell(b, t.s);
    sb_free(&t);
}

/* The item's place: `path` for a file, `path:line-end` (in its enclosing declaration) else. */
static void md_where(sb *out, const rm_item *it) {
    if (it->kind == RM_FILE) {
        md_code(out, it->path);
        return;
    }
    sb_puts(out, "`");
    sunset_md_text(out, it->path, true, false);
    if (it->end > it->line) sb_printf(out, ":%u-%u`", it->line, it->end);
    else sb_printf(out, ":%u`", it->line);
    if (it->enclosing) {
        sb_puts(out, " in ");
        md_cell(out, it->enclosing);
    }
}

/* One row of a step's table or of a listing: what, where, why (the whole chain). */
static void md_row(sb *out, const rm_item *it) {
    sb_printf(out, "| %s", it->kind == RM_FILE ? (it->patchable ? "delete" : "keep") : rm_kind_name(it->kind));
    if (it->kind != RM_FILE && it->name) sb_putc(out, ' '), md_code(out, it->name);
    sb_puts(out, " | ");
    md_where(out, it);
    sb_puts(out, " | ");
    if (it->derived) sb_puts(out, "(derived) ");
    md_chain(out, it);
    if (it->after) {
        sb_puts(out, "; ");
        md_cell(out, it->after);
    }
    sb_puts(out, " |\n");
}

/* What the listing calls an item that the patch does not make (0 .. 5), or -1 when patched. */
enum { MD_KEPT, MD_REG, MD_PARTIAL, MD_TARGET, MD_FLAG, MD_LIVE, MD_N };
static int md_section(const rm_item *it) {
    if (it->live) return MD_LIVE;
    if (it->patchable) return -1;
    switch (it->kind) {
    case RM_FILE: return MD_KEPT;
    case RM_REGISTRATION: return MD_REG;
    case RM_TARGET: return MD_TARGET;
    case RM_FLAG:
    case RM_OP:
    case RM_PASS: return MD_FLAG;
    default: return MD_PARTIAL;
    }
}

/* The first three of v, then how many more. */
static void md_first(sb *out, char *const *v, size_t n) {
    for (size_t u = 0; u < n && u < 3; u++) {
        if (u) sb_puts(out, ", ");
        md_cell(out, v[u]);
    }
    if (n > 3) sb_printf(out, " (+%zu more)", n - 3);
}

/* Files the steps a migration unblocks delete anew. */
static size_t wsteps_deletes(const rm_plan *p, const int *steps, size_t n) {
    size_t d = 0;
    for (size_t k = 0; k < n; k++) {
        const rm_wstep *w = unblocked_step(p, steps[k]);
        d += w ? w->n_deletes : 0;
    }
    return d;
}

/* "step 9 (delete `a.cc`, `b.h`; with step 3); step 10 (...)", the first three of each; the
 * migrated file itself (self, NULL for a consumer) is "it". */
static void md_wsteps(sb *out, const rm_plan *p, const int *steps, size_t n, const char *self) {
    for (size_t k = 0; k < n && k < 3; k++) {
        const rm_wstep *w = unblocked_step(p, steps[k]);
        if (!w) continue;
        sb_printf(out, "%sstep %d (delete ", k ? "; " : "", w->step);
        for (size_t i = 0; i < w->n_deletes && i < 3; i++) {
            if (i) sb_puts(out, ", ");
            if (self && !strcmp(self, w->deletes[i])) sb_puts(out, "it");
            else md_code(out, w->deletes[i]);
        }
        if (w->n_deletes > 3) sb_printf(out, " (+%zu more)", w->n_deletes - 3);
        for (size_t j = 0; j < w->n_joins; j++) sb_printf(out, "%s%d", j ? ", " : "; with step ", w->joins[j]);
        sb_putc(out, ')');
    }
    if (n > 3) sb_printf(out, " (+%zu more steps)", n - 3);
}

/* Most files deleted by the steps it unblocks first, then most items unblocked, then by path
 * (a file's item and a consumer are each one per path). */
static int cmp_unblocking(size_t da, size_t na, const char *pa, size_t db, size_t nb, const char *pb) {
    if (da != db) return da > db ? -1 : 1;
    if (na != nb) return na > nb ? -1 : 1;
    return strcmp(pa, pb);
}

static const rm_plan *SORT_PLAN; /* the plan the rows sorted below are of, for qsort's comparators */

static int cmp_unblocking_item(const void *a, const void *b) {
    const rm_item *x = *(const rm_item *const *)a, *y = *(const rm_item *const *)b;
    return cmp_unblocking(wsteps_deletes(SORT_PLAN, x->unblocks_steps, x->n_unblocks_steps), x->n_unblocks, x->path,
                          wsteps_deletes(SORT_PLAN, y->unblocks_steps, y->n_unblocks_steps), y->n_unblocks, y->path);
}

static int cmp_unblocking_consumer(const void *a, const void *b) {
    const rm_consumer *x = *(const rm_consumer *const *)a, *y = *(const rm_consumer *const *)b;
    return cmp_unblocking(wsteps_deletes(SORT_PLAN, x->unblocks_steps, x->n_unblocks_steps), x->n_unblocks, x->path,
                          wsteps_deletes(SORT_PLAN, y->unblocks_steps, y->n_unblocks_steps), y->n_unblocks, y->path);
}

static bool has_step(const int *v, size_t n, int step) {
    for (size_t i = 0; i < n; i++)
        if (v[i] == step) return true;
    return false;
}

/* The migrate entries (live files, then consumers) unblocking step `step`, the first three. */
static void md_unblockers(const rm_plan *p, sb *out, int step) {
    size_t shown = 0, more = 0;
    for (size_t k = 0; k < p->n_items + p->n_consumers; k++) {
        bool item = k < p->n_items;
        const rm_item *it = item ? &p->items[k] : NULL;
        const rm_consumer *c = item ? NULL : &p->consumers[k - p->n_items];
        if (!has_step(item ? it->unblocks_steps : c->unblocks_steps, item ? it->n_unblocks_steps : c->n_unblocks_steps,
                      step))
            continue;
        if (shown == 3) {
            more++;
            continue;
        }
        if (shown++) sb_puts(out, ", ");
        md_code(out, item ? it->path : c->path);
    }
    if (more) sb_printf(out, " (+%zu more)", more);
}

/* The steps migrations unblock, each with the migrate entries unblocking it. */
static void md_unblocked(const rm_plan *p, sb *out) {
    if (!p->n_unblocked) return;
    sb_printf(out, "\n<details><summary>Steps migrations unblock: %zu</summary>\n\nNot in the patch: each is an "
                   "independently landable step (numbered after the patch's) once one of the migrations beside it is "
                   "done (the patch's closure run on that migration's what-if).\n\n"
                   "| step | deletes | with the patch's steps | unblocked by migrating |\n|---|---|---|---|\n",
              p->n_unblocked);
    for (size_t i = 0; i < p->n_unblocked; i++) {
        const rm_wstep *w = &p->unblocked[i];
        sb_printf(out, "| %d | ", w->step);
        for (size_t k = 0; k < w->n_deletes; k++) {
            if (k) sb_puts(out, ", ");
            md_code(out, w->deletes[k]);
        }
        sb_puts(out, " | ");
        for (size_t j = 0; j < w->n_joins; j++) sb_printf(out, "%s%d", j ? ", " : "", w->joins[j]);
        sb_puts(out, " | ");
        md_unblockers(p, out, w->step);
        sb_puts(out, " |\n");
    }
    sb_puts(out, "\n</details>\n");
}

static void md_consumers(const rm_plan *p, sb *out);

/* The migrate table: each live legacy file, what to move its callers to (its seed rule's
 * migrate_to) and what that unblocks (the what-if run of the liveness), most unblocking first. */
static void md_migrate(const rm_plan *p, sb *out) {
    size_t n = 0;
    for (size_t i = 0; i < p->n_items; i++) n += p->items[i].kind == RM_FILE && p->items[i].live;
    if (!n) return;
    const rm_item **rows = sunset_calloc(n, sizeof *rows);
    if (!rows) {
        out->oom = true;
        return;
    }
    size_t k = 0;
    for (size_t i = 0; i < p->n_items; i++)
        if (p->items[i].kind == RM_FILE && p->items[i].live) rows[k++] = &p->items[i];
    SORT_PLAN = p;
    qsort(rows, n, sizeof *rows, cmp_unblocking_item);
    sb_printf(out, "\n## Migrate first: %zu live file%s\n\nMoving a file's live callers to the target API "
                   "lets it go, and with it what only it keeps live (\"unblocks\", computed by re-running "
                   "the liveness without it), and makes the steps beside it possible (the patch's closure run "
                   "on what is then dead). Most files deleted by those steps first.\n\n"
                   "<details><summary>Live files: %zu</summary>\n\n"
                   "| live file | migrate to | unblocks steps | unblocks | first unblocked |\n|---|---|---|---|---|\n",
              n, n == 1 ? "" : "s", n);
    for (size_t i = 0; i < n; i++) {
        const rm_item *it = rows[i];
        sb_puts(out, "| ");
        md_code(out, it->path);
        sb_puts(out, " | ");
        md_cell(out, it->migrate_to ? it->migrate_to : "(no migrate_to in its rule)");
        sb_puts(out, " | ");
        md_wsteps(out, p, it->unblocks_steps, it->n_unblocks_steps, it->path);
        sb_printf(out, " | %zu | ", it->n_unblocks);
        md_first(out, it->unblocks, it->n_unblocks);
        sb_puts(out, " |\n");
    }
    sunset_free(rows);
    sb_puts(out, "\n</details>\n");
    md_consumers(p, out);
    md_unblocked(p, out);
}

/* The consumers' table, most files deleted by the steps they unblock first. */
static void md_consumers(const rm_plan *p, sb *out) {
    if (!p->n_consumers) return;
    sb_printf(out, "\n<details><summary>Live consumers, code that is not legacy but keeps the files above live: "
                   "%zu</summary>\n\nMigrating one unblocks what it alone keeps live.\n\n| live consumer | keeps live | migrate to | "
                   "unblocks steps | unblocks | first unblocked |\n|---|---|---|---|---|---|\n", p->n_consumers);
    const rm_consumer **cs = sunset_calloc(p->n_consumers, sizeof *cs);
    if (!cs) {
        out->oom = true;
        return;
    }
    for (size_t i = 0; i < p->n_consumers; i++) cs[i] = &p->consumers[i];
    SORT_PLAN = p;
    qsort(cs, p->n_consumers, sizeof *cs, cmp_unblocking_consumer);
    for (size_t i = 0; i < p->n_consumers; i++) {
        const rm_consumer *c = cs[i];
        sb_puts(out, "| ");
        md_code(out, c->path);
        sb_printf(out, " | %zu | ", c->n_keeps);
        for (size_t u = 0; u < c->n_migrate_to; u++) {
            if (u) sb_puts(out, "; ");
            md_cell(out, c->migrate_to[u]);
        }
        if (!c->n_migrate_to) md_cell(out, "(no migrate_to in the rules)");
        sb_puts(out, " | ");
        md_wsteps(out, p, c->unblocks_steps, c->n_unblocks_steps, NULL);
        sb_printf(out, " | %zu | ", c->n_unblocks);
        md_first(out, c->unblocks, c->n_unblocks);
        sb_puts(out, " |\n");
    }
    sunset_free(cs);
    sb_puts(out, "\n</details>\n");
}

/* The plan for a person: the summary and the per-step counts open, every table collapsed in a
 * <details> block, live items shortened to their seed rule and first caller. The full data,
 * every chain and caller, is the JSON plan. */
int rm_write_markdown(const rm_plan *p, sb *out) {
    sb_puts(out, "# Removal plan: ");
    md_cell(out, p->root ? p->root : ".");
    sb_puts(out, "\n\n");
    sb_printf(out, "%zu files indexed; %zu legacy files (%zu derived across files), %zu dead "
                   "(delete), %zu live (migrate first).\n",
              p->n_files_indexed, p->n_legacy_files, p->n_derived_files, p->n_dead_files, p->n_live_files);
    if (!p->n_items) {
        sb_puts(out, "\nNothing to remove.\n");
        return out->oom ? -1 : 0;
    }
    size_t n_steps = 0, n_del = 0, n_edit = 0, count[MD_N] = {0};
    for (size_t i = 0; i < p->n_items; i++) {
        const rm_item *it = &p->items[i];
        int sec = md_section(it);
        if (sec >= 0) {
            count[sec]++;
            continue;
        }
        if (it->kind == RM_FILE) n_del++;
        else n_edit++;
        if (it->step > 0 && (size_t)it->step > n_steps) n_steps = (size_t)it->step;
    }
    sb_printf(out, "\n`--patch` deletes %zu file%s and makes %zu edit%s in %zu step%s; each step keeps the build "
                   "whole and can land as its own change. Tables are collapsed; `-f json` holds every item "
                   "with its whole evidence chain and all its callers.\n",
              n_del, n_del == 1 ? "" : "s", n_edit, n_edit == 1 ? "" : "s", n_steps, n_steps == 1 ? "" : "s");
    if (n_steps) {
        sb_puts(out, "\n## Steps\n\n| step | deletes | edits | files |\n|---|---|---|---|\n");
        for (size_t st = 1; st <= n_steps; st++) {
            size_t d = 0, e = 0;
            for (size_t i = 0; i < p->n_items; i++) {
                const rm_item *it = &p->items[i];
                if (md_section(it) < 0 && it->step == (int)st) it->kind == RM_FILE ? d++ : e++;
            }
            sb_printf(out, "| %zu | %zu | %zu | ", st, d, e);
            size_t shown = 0;
            for (size_t i = 0; i < p->n_items && shown < 3; i++) {
                const rm_item *it = &p->items[i];
                if (md_section(it) >= 0 || it->step != (int)st || it->kind != RM_FILE) continue;
                sb_puts(out, shown++ ? ", " : "");
                md_code(out, it->path);
            }
            if (d > shown) sb_printf(out, " (+%zu more)", d - shown);
            sb_puts(out, " |\n");
        }
        for (size_t st = 1; st <= n_steps; st++) {
            sb_printf(out, "\n<details><summary>Step %zu</summary>\n\n| what | where | why |\n|---|---|---|\n", st);
            for (size_t i = 0; i < p->n_items; i++)
                if (md_section(&p->items[i]) < 0 && p->items[i].step == (int)st) md_row(out, &p->items[i]);
            sb_puts(out, "\n</details>\n");
        }
    }
    static const char *const titles[MD_N] = {
        "Dead files the patch keeps (a reference to them no safe edit removes)",
        "Registrations not patched",
        "Partial removals not patched",
        "CMake targets not patched",
        "Flags, passes and operators to retire",
        "Live legacy code (migrate first; never deleted by this plan)",
    };
    md_migrate(p, out);
    size_t listed = 0;
    for (int sec = 0; sec < MD_N; sec++) listed += count[sec];
    if (listed) {
        sb_puts(out, "\n## Not in the patch\n\n| what | items |\n|---|---|\n");
        for (int sec = 0; sec < MD_N; sec++)
            if (count[sec]) sb_printf(out, "| %s | %zu |\n", titles[sec], count[sec]);
    }
    for (int sec = 0; sec < MD_N; sec++) {
        if (!count[sec]) continue;
        sb_printf(out, "\n<details><summary>%s: %zu</summary>\n\n", titles[sec], count[sec]);
        if (sec == MD_LIVE) sb_puts(out, "| what | where | seed rule | live callers |\n|---|---|---|---|\n");
        else sb_puts(out, "| what | where | why |\n|---|---|---|\n");
        for (size_t i = 0; i < p->n_items; i++) {
            const rm_item *it = &p->items[i];
            if (md_section(it) != sec) continue;
            if (sec != MD_LIVE) {
                md_row(out, it);
                continue;
            }
            /* live: the seed rule and the first caller; the chain and the rest are in JSON */
            sb_puts(out, "| ");
            sb_puts(out, rm_kind_name(it->kind));
            if (it->name) sb_putc(out, ' '), md_code(out, it->name);
            sb_puts(out, " | `");
            sunset_md_text(out, it->path, true, false);
            if (it->kind == RM_FILE) sb_puts(out, "` | ");
            else sb_printf(out, ":%u` | ", it->line);
            const char *seed = rm_chain_seed(it->steps, it->n_steps);
            sb_printf(out, "%s%s | ", it->derived ? "derived from " : "", seed ? seed : "");
            if (it->n_callers) md_cell(out, it->callers[0]);
            if (it->n_callers > 1) sb_printf(out, " (+%zu more)", it->n_callers - 1);
            sb_puts(out, " |\n");
        }
        sb_puts(out, "\n</details>\n");
    }
    return out->oom ? -1 : 0;
}

/* ---- the patch ---- */

typedef struct lines {
    char *data;
    const char **at; /* line starts */
    size_t *len;     /* without the newline */
    size_t n;
    bool final_nl;
} lines;

/* The file's lines and its mode as git records it: 100644, 100755, or 120000 for a symlink,
 * whose content is its target (one line, no newline), never the file it points to. */
static int lines_read(const char *root, const char *path, lines *L, unsigned *mode) {
    sb fs = {0};
    sb_printf(&fs, "%s/%s", root, path);
    size_t len = 0;
    struct stat st;
    int err = fs.oom ? ENOMEM : lstat(fs.s, &st) ? errno : 0;
    if (!err && S_ISLNK(st.st_mode)) {
        *mode = 0120000;
        size_t cap = (size_t)st.st_size + 1 > 4096 ? (size_t)st.st_size + 1 : 4096;
        ssize_t k = (L->data = sunset_malloc(cap + 1)) ? readlink(fs.s, L->data, cap) : -1;
        err = !L->data ? ENOMEM : k < 0 ? errno : 0;
        if (!err) L->data[len = (size_t)k] = 0;
    } else if (!err) {
        err = read_file(fs.s, 0, &L->data, &len);
        *mode = st.st_mode & 0111 ? 0100755 : 0100644;
    }
    sb_free(&fs);
    if (err) return err;
    size_t cap = 1;
    for (size_t i = 0; i < len; i++) cap += L->data[i] == '\n';
    L->at = sunset_calloc(cap, sizeof(char *));
    L->len = sunset_calloc(cap, sizeof(size_t));
    if (!L->at || !L->len) return ENOMEM;
    const char *p = L->data, *end = L->data + len;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        L->at[L->n] = p;
        L->len[L->n] = nl ? (size_t)(nl - p) : (size_t)(end - p);
        L->n++;
        if (!nl) break;
        p = nl + 1;
    }
    L->final_nl = len == 0 || L->data[len - 1] == '\n';
    return 0;
}

/* A path as git writes it: C-quoted ("a/\346\226\207.cc") when it holds a byte git quotes
 * (core.quotePath: control characters, '"', '\\', bytes of 0x80 and above), else bare. */
static void put_path(sb *out, const char *head, const char *prefix, const char *path) {
    bool quote = false;
    for (const unsigned char *p = (const unsigned char *)path; *p && !quote; p++)
        quote = *p < 0x20 || *p >= 0x7f || *p == '"' || *p == '\\';
    sb_puts(out, head);
    if (!quote) {
        sb_printf(out, "%s%s\n", prefix, path);
        return;
    }
    sb_printf(out, "\"%s", prefix);
    for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
        const char *esc = strchr("\a\b\t\n\v\f\r\"\\", *p);
        if (esc && *p) sb_printf(out, "\\%c", "abtnvfr\"\\"[esc - "\a\b\t\n\v\f\r\"\\"]);
        else if (*p < 0x20 || *p >= 0x7f) sb_printf(out, "\\%03o", *p);
        else sb_putc(out, (char)*p);
    }
    sb_puts(out, "\"\n");
}

/* "diff --git a/P b/P", each side quoted as git would. */
static void put_header(sb *out, const char *path) {
    put_path(out, "diff --git ", "a/", path);
    if (!out->oom && out->len) out->len--; /* the newline: the b/ side follows on the same line */
    put_path(out, " ", "b/", path);
}

static void lines_free(lines *L) {
    sunset_free(L->data);
    sunset_free(L->at);
    sunset_free(L->len);
    memset(L, 0, sizeof *L);
}

static void put_line(sb *out, char sign, const lines *L, size_t i) {
    sb_putc(out, sign);
    sb_putn(out, L->at[i], L->len[i]);
    sb_putc(out, '\n');
    if (i == L->n - 1 && !L->final_nl) sb_puts(out, "\\ No newline at end of file\n");
}

static void trim(const char **s, size_t *n) {
    while (*n && (**s == ' ' || **s == '\t')) (*s)++, (*n)--;
    while (*n && ((*s)[*n - 1] == ' ' || (*s)[*n - 1] == '\t' || (*s)[*n - 1] == '\r')) (*n)--;
}

/* Does line i hold nothing but the list entry `name`? */
static bool entry_only(const lines *L, size_t i, const char *name) {
    const char *s = L->at[i];
    size_t n = L->len[i], k = strlen(name);
    trim(&s, &n);
    char buf[512];
    const char *forms[] = {"'%s',", "\"%s\",", "'%s'", "\"%s\"", "^%s$|\\", "%s"};
    for (size_t f = 0; f < sizeof forms / sizeof forms[0]; f++) {
        int w = snprintf(buf, sizeof buf, forms[f], name);
        if (w > 0 && (size_t)w == n && memcmp(buf, s, n) == 0 && k) return true;
    }
    return false;
}

/* Lines [line, end] hold exactly one CMake command starting with `cmd(`. */
static bool command_only(const lines *L, uint32_t line, uint32_t end, const char *cmd) {
    if (!line || end > L->n) return false;
    const char *s = L->at[line - 1];
    size_t n = L->len[line - 1], k = strlen(cmd);
    trim(&s, &n);
    if (n < k + 1 || strncasecmp(s, cmd, k) != 0) return false;
    const char *e = L->at[end - 1];
    size_t en = L->len[end - 1];
    trim(&e, &en);
    return en && e[en - 1] == ')';
}

/* Line i without the CMake argument `tok` (delimited by blanks, parentheses or quotes), the
 * blank before it going too; NULL when the argument is not on the line or on OOM. */
static char *drop_token(const char *s, size_t n, const char *tok) {
    size_t k = strlen(tok);
    for (size_t i = 0; k && i + k <= n; i++) {
        if (memcmp(s + i, tok, k) != 0) continue;
        size_t a = i, b = i + k;
        if (a > 0 && s[a - 1] == '"' && b < n && s[b] == '"') a--, b++;
        bool left = a == 0 || strchr(" \t(", s[a - 1]), right = b == n || strchr(" \t)\r", s[b]);
        if (!left || !right) continue;
        while (a > 0 && (s[a - 1] == ' ' || s[a - 1] == '\t')) a--;
        if (a == 0 || s[a - 1] == '(') /* first on its line or after '(': keep the indentation */
            while (b < n && (s[b] == ' ' || s[b] == '\t')) b++;
        if (a == 0) /* keep the line's indentation */
            while (a < i && (s[a] == ' ' || s[a] == '\t')) a++;
        sb r = {0};
        sb_putn(&r, s, a); /* the blanks after the argument separate what is left */
        sb_putn(&r, s + b, n - b);
        if (!r.s) sb_puts(&r, "");
        return sb_take(&r);
    }
    return NULL;
}

static bool blank_line(const char *s) {
    for (; *s; s++)
        if (!strchr(" \t\r", *s)) return false;
    return true;
}

/* A CMake file after its deletions as cmake-format leaves one: no blank line where a deletion
 * made the file start or end with it, or put it after another blank line. Blank lines the
 * deletions did not touch stay. */
static bool is_cmake(const char *path) {
    const char *b = strrchr(path, '/');
    b = b ? b + 1 : path;
    size_t n = strlen(b);
    return !strcmp(b, "CMakeLists.txt") || (n > 6 && !strcmp(b + n - 6, ".cmake"));
}

static void tidy_blank_lines(const lines *L, bool *del, char *const *repl) {
    long prev = -1;   /* the last kept line */
    bool gap = false; /* deleted lines since it */
    for (size_t l = 0; l < L->n; l++) {
        if (del[l]) {
            gap = true;
            continue;
        }
        bool blank = !repl[l] && strspn(L->at[l], " \t\r") >= L->len[l];
        bool prev_blank = prev >= 0 && !repl[prev] && strspn(L->at[prev], " \t\r") >= L->len[prev];
        if (blank && gap && (prev < 0 || prev_blank)) {
            del[l] = true; /* the gap stays open: a run of blank lines goes whole */
            continue;
        }
        prev = (long)l;
        gap = false;
    }
    /* the end: a kept blank line the deletions left last */
    if (gap && prev >= 0 && !repl[prev] && strspn(L->at[prev], " \t\r") >= L->len[prev]) del[prev] = true;
}

/* ---- if() blocks a deletion emptied: cmake-format would put a blank line in each empty
 * branch (`if(X)\n\nendif()`), Paddle's own cleanups drop the block ---- */

typedef enum { CM_BLANK, CM_IF, CM_ELSE, CM_ENDIF, CM_OTHER } cm_kind;

static cm_kind cm_line_kind(const char *s, size_t n) {
    size_t i = 0;
    while (i < n && strchr(" \t\r", s[i])) i++;
    if (i == n) return CM_BLANK;
    size_t w = i;
    while (w < n && (isalnum((unsigned char)s[w]) || s[w] == '_')) w++;
    size_t k = w;
    while (k < n && (s[k] == ' ' || s[k] == '\t')) k++;
    if (k == n || s[k] != '(') return CM_OTHER;
    size_t len = w - i;
    if (len == 2 && !strncasecmp(s + i, "if", 2)) return CM_IF;
    if ((len == 4 && !strncasecmp(s + i, "else", 4)) || (len == 6 && !strncasecmp(s + i, "elseif", 6))) return CM_ELSE;
    if (len == 5 && !strncasecmp(s + i, "endif", 5)) return CM_ENDIF;
    return CM_OTHER;
}

static int paren_balance(const char *s, size_t n) {
    int b = 0;
    for (size_t i = 0; i < n && s[i] != '#'; i++) b += s[i] == '(' ? 1 : s[i] == ')' ? -1 : 0;
    return b;
}

/* One sweep: the innermost if() blocks whose branches hold only blank lines now, and held a
 * deleted line, go whole. Returns whether one went. */
static bool drop_empty_ifs_once(const lines *L, bool *del, char *const *repl) {
    enum { DEPTH = 64 };
    size_t start[DEPTH];
    bool full[DEPTH];
    int top = -1;
    bool dropped = false;
    for (size_t l = 0; l < L->n; l++) {
        if (del[l]) continue;
        const char *t = repl[l] ? repl[l] : L->at[l];
        size_t n = repl[l] ? strlen(repl[l]) : L->len[l];
        cm_kind k = cm_line_kind(t, n);
        size_t first = l;
        /* a command over several lines: to its closing parenthesis */
        for (int b = k == CM_BLANK ? 0 : paren_balance(t, n); b > 0 && l + 1 < L->n;) {
            l++;
            if (del[l]) continue;
            b += paren_balance(repl[l] ? repl[l] : L->at[l], repl[l] ? strlen(repl[l]) : L->len[l]);
        }
        if (k == CM_IF) {
            if (++top >= DEPTH) return dropped;
            start[top] = first;
            full[top] = false;
        } else if (k == CM_ENDIF && top >= 0) {
            bool touched = false;
            for (size_t j = start[top]; j <= l && !touched; j++) touched = del[j];
            if (!full[top] && touched) {
                for (size_t j = start[top]; j <= l; j++) del[j] = true;
                dropped = true;
                top--;
                continue;
            }
            top--;
            if (top >= 0) full[top] = true;
        } else if (k == CM_OTHER && top >= 0) {
            full[top] = true;
        } else if (k == CM_ENDIF || (k == CM_ELSE && top < 0)) {
            return dropped; /* not balanced as read: leave the file alone */
        }
    }
    return dropped;
}

static void drop_empty_ifs(const lines *L, bool *del, char *const *repl) {
    while (drop_empty_ifs_once(L, del, repl)) {}
}

/* ---- an edited command laid out again as cmake-format (Paddle's configuration: line_width
 * 80, the default max_pargs_hwrap 6) would: on one line when it fits there, else its leading
 * positional arguments, when no more than 6 are left, packed onto as few lines as fit ---- */

#define CM_WIDTH 80
#define CM_PARGS_HWRAP 6

typedef struct cm_tok {
    const char *s;
    size_t n;
    size_t line; /* the line it is on */
} cm_tok;

static const char *cm_text(const lines *L, char *const *repl, size_t l, size_t *n) {
    *n = repl[l] ? strlen(repl[l]) : L->len[l];
    return repl[l] ? repl[l] : L->at[l];
}

/* The arguments of lines [f, e] (kept ones) after the command's '('; false when the command
 * holds what this layout does not handle (comments, nested parentheses, a bracket argument). */
static bool cm_tokens(const lines *L, const bool *del, char *const *repl, size_t f, size_t e, cm_tok *t,
                      size_t cap, size_t *nt) {
    *nt = 0;
    bool open = false;
    for (size_t l = f; l <= e; l++) {
        if (del[l]) continue;
        size_t n;
        const char *s = cm_text(L, repl, l, &n);
        size_t i = 0;
        if (!open) {
            const char *p = memchr(s, '(', n);
            if (!p) return false;
            i = (size_t)(p - s) + 1;
            open = true;
        }
        while (i < n) {
            while (i < n && strchr(" \t\r", s[i])) i++;
            if (i == n) break;
            if (s[i] == '#' || s[i] == '[' || s[i] == '(') return false;
            if (s[i] == ')') return i + 1 >= n || strspn(s + i + 1, " \t\r") == n - i - 1 ? l == e : false;
            size_t a = i;
            if (s[i] == '"') {
                for (i++; i < n && s[i] != '"'; i++)
                    if (s[i] == '\\') i++;
                if (i >= n) return false;
                i++;
            } else {
                while (i < n && !strchr(" \t\r()\"#", s[i])) i++;
            }
            if (*nt == cap) return false;
            t[(*nt)++] = (cm_tok){s + a, i - a, l};
        }
    }
    return false; /* no closing parenthesis */
}

static bool cm_keyword(const cm_tok *t) {
    if (!t->n || !isupper((unsigned char)t->s[0])) return false;
    for (size_t i = 0; i < t->n; i++)
        if (!isupper((unsigned char)t->s[i]) && !isdigit((unsigned char)t->s[i]) && t->s[i] != '_') return false;
    return true;
}

/* Lines [first, ...) of the kept lines of run r take the packed text (one line each, at
 * indentation ind), the rest of them go. */
static int cm_put(const lines *L, bool *del, char **repl, const size_t *kept, size_t nk, sb *packed) {
    size_t k = 0;
    const char *p = packed->s ? packed->s : "";
    while (*p && k < nk) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        size_t l = kept[k++];
        size_t on;
        const char *old = cm_text(L, repl, l, &on);
        if (on != n || memcmp(old, p, n) != 0) {
            char *r = sunset_malloc(n + 1);
            if (!r) return ENOMEM;
            memcpy(r, p, n);
            r[n] = 0;
            sunset_free(repl[l]);
            repl[l] = r;
        }
        p += n + (nl ? 1 : 0);
    }
    for (; k < nk; k++) {
        sunset_free(repl[kept[k]]);
        repl[kept[k]] = NULL;
        del[kept[k]] = true;
    }
    return 0;
}

/* Command lines [f, e], touched by the patch, laid out again. */
static int cm_relayout(const lines *L, bool *del, char **repl, size_t f, size_t e) {
    enum { CAP = 512 };
    cm_tok t[CAP];
    size_t nt, kept[CAP], nk = 0;
    if (!cm_tokens(L, del, repl, f, e, t, CAP, &nt)) return 0;
    for (size_t l = f; l <= e && nk < CAP; l++)
        if (!del[l]) kept[nk++] = l;
    if (nk < 2) return 0;
    size_t n0;
    const char *s0 = cm_text(L, repl, kept[0], &n0);
    const char *paren = memchr(s0, '(', n0);
    size_t head = (size_t)(paren - s0) + 1, ind = strspn(s0, " \t");
    sb b = {0};
    sb_putn(&b, s0, head);
    for (size_t i = 0; i < nt; i++) {
        if (i) sb_putc(&b, ' ');
        sb_putn(&b, t[i].s, t[i].n);
    }
    sb_putc(&b, ')');
    if (b.oom) return ENOMEM;
    if (b.len <= CM_WIDTH) {
        int rc = cm_put(L, del, repl, kept, nk, &b);
        sb_free(&b);
        return rc;
    }
    sb_free(&b);
    /* `name(` alone on its line, then the positional arguments up to the first keyword */
    if (!nt || t[0].line == kept[0]) return 0;
    size_t np = 0;
    while (np < nt && !cm_keyword(&t[np])) np++;
    if (np < 2 || np > CM_PARGS_HWRAP || np == nt || t[np].line == t[np - 1].line) return 0;
    size_t from = 1, to = 1; /* the kept lines holding them */
    while (to < nk && kept[to] != t[np].line) to++;
    for (size_t q = from; q < to; q++) {
        size_t n;
        const char *s = cm_text(L, repl, kept[q], &n);
        if (strspn(s, " \t") != ind + 2) return 0;
    }
    size_t col = 0;
    for (size_t i = 0; i < np; i++) {
        if (col && col + 1 + t[i].n <= CM_WIDTH) {
            sb_putc(&b, ' ');
            col += 1;
        } else {
            if (col) sb_putc(&b, '\n');
            for (size_t k = 0; k < ind + 2; k++) sb_putc(&b, ' ');
            col = ind + 2;
        }
        sb_putn(&b, t[i].s, t[i].n);
        col += t[i].n;
    }
    if (to == nk - 1) {
        /* the keyword group, on the command's last line, joins the last packed line if it fits */
        size_t n;
        const char *s = cm_text(L, repl, kept[to], &n);
        size_t w = strspn(s, " \t");
        if (col + 1 + (n - w) <= CM_WIDTH) {
            sb_putc(&b, ' ');
            sb_putn(&b, s + w, n - w);
            to++;
        }
    }
    if (b.oom) return ENOMEM;
    int rc = cm_put(L, del, repl, kept + from, to - from, &b);
    sb_free(&b);
    return rc;
}

/* Every command the patch edited inside (a line of it deleted or rewritten, not all of it). */
static int relayout_edited(const lines *L, bool *del, char **repl) {
    for (size_t l = 0; l < L->n; l++) {
        if (del[l]) continue;
        size_t n;
        const char *s = cm_text(L, repl, l, &n);
        cm_kind k = cm_line_kind(s, n);
        if (k == CM_BLANK) continue;
        size_t first = l;
        int b = paren_balance(s, n);
        bool touched = repl[l] != NULL;
        while (b > 0 && l + 1 < L->n) {
            l++;
            touched |= del[l] || repl[l];
            if (del[l]) continue;
            s = cm_text(L, repl, l, &n);
            b += paren_balance(s, n);
        }
        if (k != CM_OTHER || !touched || l == first) continue;
        int rc = cm_relayout(L, del, repl, first, l);
        if (rc) return rc;
    }
    return 0;
}

static int patch_modify(sb *out, const char *path, const lines *L, const bool *del, char *const *repl) {
    size_t n = L->n, i = 0;
    bool header = false;
    long delta = 0;
    while (i < n) {
        if (!del[i] && !repl[i]) {
            i++;
            continue;
        }
        /* a hunk: from 3 lines before the first change to 3 after the last one within reach */
        size_t start = i >= 3 ? i - 3 : 0, last = i;
        for (size_t j = i; j < n && j <= last + 6; j++)
            if (del[j] || repl[j]) last = j;
        size_t stop = last + 4 < n ? last + 4 : n;
        size_t old_n = stop - start, removed = 0;
        for (size_t j = start; j < stop; j++) removed += del[j];
        if (!header) {
            put_header(out, path);
            put_path(out, "--- ", "a/", path);
            put_path(out, "+++ ", "b/", path);
            header = true;
        }
        size_t new_n = old_n - removed;
        sb_printf(out, "@@ -%zu,%zu +%ld,%zu @@\n", start + 1, old_n,
                  new_n ? (long)start + 1 + delta : (long)start + delta, new_n);
        for (size_t j = start; j < stop; j++) {
            put_line(out, del[j] || repl[j] ? '-' : ' ', L, j);
            if (!del[j] && repl[j]) {
                sb_printf(out, "+%s\n", repl[j]);
                if (j == L->n - 1 && !L->final_nl) sb_puts(out, "\\ No newline at end of file\n");
            }
        }
        delta -= (long)removed;
        i = stop;
    }
    return 0;
}

/* When root/path is a symlink: the root-relative path of the file it resolves to (owned), the
 * walker having scanned it only because that lies inside the root; else NULL. */
static char *link_target(const char *root, const char *path) {
    sb fs = {0};
    sb_printf(&fs, "%s/%s", root, path);
    struct stat st;
    char *full = NULL, *top = NULL, *rel = NULL;
    if (!fs.oom && !lstat(fs.s, &st) && S_ISLNK(st.st_mode) && (full = realpath(fs.s, NULL)) &&
        (top = realpath(root, NULL))) {
        size_t n = strlen(top);
        if (!strncmp(full, top, n) && full[n] == '/') rel = sunset_strndup(full + n + 1, strlen(full + n + 1));
    }
    free(full); /* realpath's, from malloc */
    free(top);
    sb_free(&fs);
    return rel;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* The deleted files' diffs. 0, or an errno value. */
static int patch_deleted_files(const rm_plan *p, const char *root, sb *out) {
    int err = 0;
    for (size_t i = 0; i < p->n_items && !err; i++) {
        const rm_item *it = &p->items[i];
        if (it->kind != RM_FILE || it->live || !it->patchable) continue;
        lines L = {0};
        unsigned mode;
        if ((err = lines_read(root, it->path, &L, &mode))) {
            lines_free(&L);
            break;
        }
        put_header(out, it->path);
        sb_printf(out, "deleted file mode %06o\n", mode);
        if (L.n) {
            put_path(out, "--- ", "a/", it->path);
            sb_printf(out, "+++ /dev/null\n@@ -1,%zu +0,0 @@\n", L.n);
            for (size_t k = 0; k < L.n; k++) put_line(out, '-', &L, k);
        }
        lines_free(&L);
    }
    return err;
}

/* Line l (0-based) is `name=value,` alone and the line before it ends in ',' or '('. */
static bool keyword_line(const lines *L, size_t l, const char *name) {
    size_t n = L->len[l], i = 0, nn = strlen(name);
    const char *s = L->at[l];
    while (i < n && (s[i] == ' ' || s[i] == '\t')) i++;
    if (n - i <= nn || memcmp(s + i, name, nn) != 0) return false;
    for (i += nn; i < n && s[i] == ' '; i++) {}
    if (i >= n || s[i] != '=') return false;
    size_t e = n;
    while (e > i && (s[e - 1] == ' ' || s[e - 1] == '\r')) e--;
    if (e <= i + 1 || s[e - 1] != ',' || memchr(s + i + 1, '(', e - i - 1) || memchr(s + i + 1, '#', e - i - 1)) return false;
    size_t pe = L->len[l - 1];
    while (pe > 0 && (L->at[l - 1][pe - 1] == ' ' || L->at[l - 1][pe - 1] == '\r')) pe--;
    return pe > 0 && (L->at[l - 1][pe - 1] == ',' || L->at[l - 1][pe - 1] == '(');
}

/* The whole lines the path's dead items take (classes and the blank lines before them,
 * tool-list entries, whole CMake commands), marked in del; how many items. */
static size_t mark_whole_lines(const rm_plan *p, const char *path, const lines *L, bool *del) {
    size_t any = 0;
    for (size_t i = 0; i < p->n_items; i++) {
        const rm_item *it = &p->items[i];
        if (it->kind == RM_FILE || it->live || !it->patchable || strcmp(it->path, path) != 0) continue;
        if (it->token || it->kind == RM_IMPORT) continue; /* after whole commands, below */
        if (it->kind == RM_ARGUMENT) {
            /* a mechanical drop: the line, when it still holds only the keyword and follows a
             * ',' or '(' (what is left stays a valid parameter or argument list) */
            if (it->line < 2 || it->line > L->n || !keyword_line(L, it->line - 1, it->name)) continue;
            del[it->line - 1] = true;
            any++;
            continue;
        }
        if (it->kind == RM_CLASS) {
            /* a dead Python class: its lines and the blank lines that set it off before */
            if (!it->line || it->end > L->n) continue;
            for (uint32_t l = it->line; l <= it->end; l++) del[l - 1] = true;
            for (size_t l = it->line - 1; l > 0 && L->len[l - 1] == 0; l--) del[l - 1] = true;
            any++;
            continue;
        }
        if (it->kind == RM_REGISTRATION && it->line == it->end && it->enclosing &&
            (!strcmp(it->enclosing, "tool list") || !strcmp(it->enclosing, "script"))) {
            if (it->line <= L->n && entry_only(L, it->line - 1, it->name)) {
                del[it->line - 1] = true;
                any++;
            }
            continue;
        }
        /* a whole CMake command: its name is the enclosing "cmd(arg)" up to '(' */
        char cmd[128] = "";
        if (it->enclosing) {
            const char *par = strchr(it->enclosing, '(');
            size_t cn = par ? (size_t)(par - it->enclosing) : 0;
            if (cn && cn < sizeof cmd) {
                memcpy(cmd, it->enclosing, cn);
                cmd[cn] = 0;
            }
        }
        if (cmd[0] && command_only(L, it->line, it->end, cmd)) {
            for (uint32_t l = it->line; l <= it->end; l++) del[l - 1] = true;
            any++;
        }
    }
    return any;
}

/* Include and import lines (a replaced statement's new text in repl), then single arguments
 * dropped from lines that stay; how many items, *err set on OOM. */
static size_t mark_imports_and_tokens(const rm_plan *p, const char *path, const lines *L, bool *del, char **repl,
                                      int *err) {
    size_t any = 0;
    for (size_t i = 0; i < p->n_items; i++) {
        const rm_item *it = &p->items[i];
        if (it->live || !it->patchable || strcmp(it->path, path) != 0) continue;
        if (it->kind == RM_IMPORT && !it->token && it->line && it->end <= L->n) {
            for (uint32_t l = it->line; l <= it->end; l++) del[l - 1] = true;
            if (it->replace) {
                /* the statement becomes one line, at the indentation of its first */
                size_t l = it->line - 1, ind = 0;
                while (ind < L->len[l] && (L->at[l][ind] == ' ' || L->at[l][ind] == '\t')) ind++;
                sb r = {0};
                sb_putn(&r, L->at[l], ind);
                sb_puts(&r, it->replace);
                sunset_free(repl[l]);
                if (!(repl[l] = sb_take(&r))) *err = ENOMEM;
                del[l] = false;
            }
            any++;
        }
        if (!it->token || !it->line || it->line > L->n || del[it->line - 1]) continue;
        size_t l = it->line - 1;
        const char *cur = repl[l] ? repl[l] : L->at[l];
        char *now = drop_token(cur, repl[l] ? strlen(repl[l]) : L->len[l], it->name);
        if (!now) continue;
        sunset_free(repl[l]);
        repl[l] = now;
        if (blank_line(now)) {
            sunset_free(repl[l]);
            repl[l] = NULL;
            del[l] = true;
        }
        any++;
    }
    return any;
}

int rm_write_patch(const rm_plan *p, const char *root, sb *out) {
    int err = patch_deleted_files(p, root, out);
    /* registration lines, file by file (paths sorted) */
    vec paths = VEC_INIT(char *);
    for (size_t i = 0; i < p->n_items; i++) {
        const rm_item *it = &p->items[i];
        if (it->kind == RM_FILE || it->live || !it->patchable) continue;
        bool dup = false;
        for (size_t k = 0; k < paths.n && !dup; k++) dup = !strcmp(VEC_AT(&paths, char *, k), it->path);
        if (!dup) vec_push(&paths, &it->path);
    }
    if (paths.n) qsort(paths.v, paths.n, sizeof(char *), cmp_str);
    for (size_t k = 0; k < paths.n && !err; k++) {
        const char *path = VEC_AT(&paths, char *, k);
        /* an edit of a symlinked file is an edit of the file it points to, under that path */
        char *real = link_target(root, path);
        const char *at = real ? real : path;
        lines L = {0};
        unsigned mode;
        if ((err = lines_read(root, at, &L, &mode))) {
            sunset_free(real);
            lines_free(&L);
            break;
        }
        bool *del = sunset_calloc(L.n ? L.n : 1, 1);
        char **repl = sunset_calloc(L.n ? L.n : 1, sizeof(char *)); /* a line's new text; owned */
        if (!del || !repl) {
            sunset_free(del);
            sunset_free(repl);
            sunset_free(real);
            lines_free(&L);
            err = ENOMEM;
            break;
        }
        size_t any = mark_whole_lines(p, path, &L, del);
        any += mark_imports_and_tokens(p, path, &L, del, repl, &err);
        if (any && is_cmake(at)) {
            drop_empty_ifs(&L, del, repl);
            if (!err) err = relayout_edited(&L, del, repl);
            tidy_blank_lines(&L, del, repl);
        }
        if (any) patch_modify(out, at, &L, del, repl);
        sunset_free(real);
        for (size_t l = 0; l < L.n; l++) sunset_free(repl[l]);
        sunset_free(repl);
        sunset_free(del);
        lines_free(&L);
    }
    vec_free(&paths);
    if (!err && out->oom) err = ENOMEM;
    return err;
}
