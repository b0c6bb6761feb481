/*
 * report.h — the report writers' plug-in interface (src/report/*.c): a writer turns a finished
 * result (core/result.h) and the envelope its command built (what the document says besides
 * the findings: the gate, the remnants, the prefixes, the shard) into one document. Findings
 * are sorted by path, line, column, rule before any writer runs, so every output is
 * independent of the thread count.
 */
#ifndef SUNSET_REPORT_H
#define SUNSET_REPORT_H

#include <stdbool.h>
#include "core/result.h"


typedef struct sunset_output_opts {
    bool color;     /* ANSI colour in text output */
    bool summary;   /* the closing summary in text output */
    bool snippets;  /* source line and caret under each text finding */
    bool findings;  /* every finding, even when the envelope has remnants (scan --findings) */
} sunset_output_opts;

struct sunset_remnants;

/* A document's envelope: what a document says besides the result (core/result.h) it writes,
 * and how. The result is what the scan found; the command (cmd/) builds the envelope from its
 * options and analyses and hands it to the writer with the result. Everything is borrowed. */
typedef struct sunset_envelope {
    sunset_output_opts opts;
    const sunset_gate *gate;       /* the CI gate's verdict (`check` only); the result's
                                    * findings are then the new and the suppressed ones */
    const sunset_rule_info *rules; /* every rule, for SARIF; NULL = those of the findings */
    size_t n_rules;
    const char *uri_prefix;        /* the root's path inside its repository ("" or "a/b/"), for
                                    * SARIF, GitHub annotations and Markdown; NULL = none */
    const char *shown_prefix;      /* what makes a root-relative path the path the user would
                                    * type from the current directory ("", "a/b/", "../x/"), for
                                    * the text report; NULL = none */
    const char *shard;             /* "i/n" of a `--shard` run, for merge; NULL = unsharded */
    char inputs[17];               /* with shard: the run's inputs (scan_inputs_id), hex */
    const struct sunset_remnants *remnants; /* the remnant layer (analysis/remnant.h) over the
                                    * result's findings; NULL = none */
} sunset_envelope;

/* A report writer appends the whole document of r in envelope e to *out. Returns 0, or -1 on
 * OOM. */
typedef int (*sunset_writer_fn)(const sunset_result *r, const sunset_envelope *e, sb *out);

typedef struct sunset_writer {
    const char *name; /* the --format value */
    sunset_writer_fn write;
} sunset_writer;

/* A finding's byte column `col` (1-based, on its start line; the result's unit) as terminal
 * columns (utf16 false: the text report) or UTF-16 code units (SARIF's columnKind), measured
 * on the snippet; bytes past the snippet's 400 count one each (src/report/format.c). */
size_t sunset_finding_column(const sunset_finding *f, uint32_t col, bool utf16);

/* The writers of scan and check (src/report/text.c, json.c, sarif.c, github.c, markdown.c). They
 * are listed once, in the document table (cmd/documents.c), which every command and test takes
 * its writer from. */
extern const sunset_writer sunset_writer_text, sunset_writer_json, sunset_writer_sarif, sunset_writer_github,
    sunset_writer_markdown;

/* What a gate's verdict was judged against, as every document's first line says it
 * (src/report/gate.c): the revision (NULL without a diff mode; staged: the index against it),
 * the baseline's name (NULL: none), the --files-from list (NULL: none). */
void sunset_gate_against(sb *out, const char *rev, bool staged, const char *baseline, const char *files_from);
/* The gate's part of the JSON document (src/report/gate.c): appends `,"gate":{...}`. */
void sunset_gate_json(const sunset_result *r, const sunset_gate *g, sb *out);
/* The gate's closing lines for the text report (src/report/gate.c), its summary under
 * `check`: verdict, fixed per task, new per task, baseline update, unused suppressions. */
void sunset_gate_text(const sunset_result *r, const sunset_gate *g, sb *out);
/* Escape s for a GitHub workflow command (src/report/github.c): % CR LF always, ':' and ','
 * too in a property value. */
void sunset_github_escape(sb *out, const char *s, bool property);
/* The remnant layer (src/report/remnant.c), when e->remnants is set: the text and markdown
 * items in the human order with the per-task summary line, and the JSON "remnants" member
 * (`,"remnants":[...]`). */
void sunset_remnants_text(const sunset_result *r, const sunset_envelope *e, sb *out);
void sunset_remnants_summary_text(const sunset_result *r, const sunset_envelope *e, sb *out);
void sunset_remnants_markdown(const sunset_result *r, const sunset_envelope *e, sb *out);
void sunset_remnants_json(const sunset_result *r, const sunset_envelope *e, sb *out);
/* The shared format helpers (src/report/format.c), below every writer: Markdown table-cell
 * text ('|' escaped, newlines as spaces, control characters shown), as a code span when
 * `span` (backquotes, in_code implied); in_code alone escapes backquotes without the span. */
void sunset_md_text(sb *out, const char *s, bool in_code, bool span);
/* The task numbers of a set (bit t: task t), ascending, sep between them: a tracked file's
 * tasks in every tracking format. */
void sunset_task_set(sb *out, unsigned tasks, const char *sep);
/* How many of r's findings are suppressed. */
size_t sunset_findings_suppressed(const sunset_result *r);

#endif
