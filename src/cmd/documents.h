/*
 * documents.h — which document each command writes, in which formats, by which writer: one
 * table (src/cmd/documents.c) that the option parser checks --format against (cli.c) and every
 * command picks its writer from. Adding a format to a command is one row.
 */
#ifndef SUNSET_DOCUMENTS_H
#define SUNSET_DOCUMENTS_H

#include "analysis/history.h"
#include "analysis/tracking.h"
#include "cmd/cli.h"
#include "report/history.h"
#include "report/removable.h"
#include "report/report.h"

/* The documents. */
typedef enum doc_kind {
    DOC_FINDINGS, /* scan's and check's result (report/report.h's writers) */
    DOC_RULES,    /* rules list / show: cmd/selftest.h writes it by the format's name */
    DOC_HISTORY,  /* history's series */
    DOC_TRACKING, /* report's tracking issue */
    DOC_REMOVAL,  /* removable's plan (--patch is a document of its own, not a format) */
} doc_kind;

/* What a history writer is given. */
typedef struct history_doc {
    const history_sample *samples;
    size_t n;
    const sunset_family_title *families;
    size_t n_families;
    const char *range;      /* the revision range, as given */
    uint32_t min_drop;      /* svg: label drops of more than this */
    const long *named;      /* svg: the manifest's PRs */
    size_t n_named;
    int n_tasks;            /* csv, json: a column for each task 1..n_tasks (the rule set's) */
} history_doc;

/* One row: command, format, document, writer. */
typedef struct doc_format {
    unsigned cmd;            /* CMD_* */
    const char *name;        /* the --format value */
    const char *alias;       /* another accepted spelling, or NULL */
    bool is_default;         /* the command's format without --format */
    doc_kind doc;
    union {
        const sunset_writer *findings;
        int (*history)(const history_doc *d, sb *out);
        int (*tracking)(const tracking_report *r, const vec *batches, sb *out);
        int (*removal)(const rm_plan *plan, sb *out);
    } write;                 /* by doc; none for DOC_RULES. 0, or -1 on OOM */
} doc_format;

/* The table, in the order a command's error lists its formats. */
const doc_format *doc_formats(size_t *n);
/* The row of cmd's format `name` (a name or an alias; NULL: the default), or NULL. */
const doc_format *doc_format_find(unsigned cmd, const char *name);
/* The row of the parsed command line's --format (cli_parse accepted it), never NULL for a
 * command that writes a document. */
const doc_format *doc_format_of(const cli *c);

#endif
