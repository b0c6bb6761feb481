/*
 * documents.c — the (command, format, document, writer) table of cmd/documents.h.
 */
#include "cmd/documents.h"

#include <string.h>

/* history's writers append and cannot fail but for memory */
static int history_csv(const history_doc *d, sb *out) {
    history_write_csv(d->samples, d->n, d->n_tasks, d->families, d->n_families, out);
    return out->oom ? -1 : 0;
}

static int history_json(const history_doc *d, sb *out) {
    history_write_json(d->samples, d->n, d->n_tasks, d->families, d->n_families, d->range, out);
    return out->oom ? -1 : 0;
}

static int history_svg_doc(const history_doc *d, sb *out) {
    history_write_svg(d->samples, d->n, d->n_tasks, d->range, d->min_drop, d->named, d->n_named, out);
    return out->oom ? -1 : 0;
}

#define FINDINGS(cmd)                                                                     \
    {cmd, "text", "txt", true, DOC_FINDINGS, {.findings = &sunset_writer_text}},          \
    {cmd, "json", NULL, false, DOC_FINDINGS, {.findings = &sunset_writer_json}},          \
    {cmd, "sarif", NULL, false, DOC_FINDINGS, {.findings = &sunset_writer_sarif}},        \
    {cmd, "github", "gh", false, DOC_FINDINGS, {.findings = &sunset_writer_github}},      \
    {cmd, "markdown", "md", false, DOC_FINDINGS, {.findings = &sunset_writer_markdown}}

static const doc_format table[] = {
    FINDINGS(CMD_SCAN),
    FINDINGS(CMD_CHECK),
    {CMD_RULES, "text", "txt", true, DOC_RULES, {.findings = NULL}},
    {CMD_RULES, "json", NULL, false, DOC_RULES, {.findings = NULL}},
    {CMD_RULES, "markdown", "md", false, DOC_RULES, {.findings = NULL}},
    {CMD_HISTORY, "json", NULL, false, DOC_HISTORY, {.history = history_json}},
    {CMD_HISTORY, "csv", NULL, true, DOC_HISTORY, {.history = history_csv}},
    {CMD_HISTORY, "svg", NULL, false, DOC_HISTORY, {.history = history_svg_doc}},
    {CMD_REPORT, "json", NULL, false, DOC_TRACKING, {.tracking = tracking_write_json}},
    {CMD_REPORT, "markdown", "md", true, DOC_TRACKING, {.tracking = tracking_write_md}},
    {CMD_REPORT, "html", "htm", false, DOC_TRACKING, {.tracking = tracking_write_html}},
    {CMD_REMOVABLE, "json", NULL, false, DOC_REMOVAL, {.removal = rm_write_json}},
    {CMD_REMOVABLE, "markdown", "md", true, DOC_REMOVAL, {.removal = rm_write_markdown}},
};

const doc_format *doc_formats(size_t *n) {
    *n = sizeof table / sizeof table[0];
    return table;
}

const doc_format *doc_format_find(unsigned cmd, const char *name) {
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
        const doc_format *f = &table[i];
        if (f->cmd != cmd) continue;
        if (name ? strcmp(name, f->name) == 0 || (f->alias && strcmp(name, f->alias) == 0) : f->is_default) return f;
    }
    return NULL;
}

const doc_format *doc_format_of(const cli *c) { return doc_format_find(c->cmd, c->format); }
