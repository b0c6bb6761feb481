/*
 * tracking.h — tracking-issue reports: a manifest (rules/tracking/*.json) describes a tracking
 * issue as data — its tasks, their claimants and PRs, which findings belong to each task, and
 * per-task checklists of files (直接删除 / 部分删除) or rule selections — and
 * tracking_compute() measures every status against one scan. Nothing here knows Paddle: the
 * manifest carries all of it.
 *
 * Public tier: the writers in src/report/tracking_*.c include this header, report.h and util.h.
 *
 * Ownership: a tracking_manifest owns every string in it (tracking_manifest_free); a
 * tracking_report borrows the manifest and the scan result it was computed from (both must
 * outlive it) and owns its computed fields (tracking_report_free). Both _free accept NULL.
 */
#ifndef SUNSET_TRACKING_H
#define SUNSET_TRACKING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/result.h"
#include "base/util.h"

#define TRACKING_MANIFEST_SCHEMA 1

/* Markers around the generated region of an issue body (--update). */
#define TRACKING_MARK_BEGIN "<!-- sunset:tracking:begin -->"
#define TRACKING_MARK_END "<!-- sunset:tracking:end -->"

/* The default size the Markdown keeps under (GitHub's issue body limit is 65,536). */
#define TRACKING_MD_BUDGET 60000
#define TRACKING_ISSUE_LIMIT 65536

/* The language of a report's prose (titles come from the manifest as they are). */
typedef enum trk_lang { TRK_ZH = 0, TRK_EN } trk_lang;
/* "zh" / "en" → *out; false for anything else. */
bool trk_lang_parse(const char *s, trk_lang *out);
/* Characters (UTF-8 code points, what GitHub counts) in s[0..n). */
size_t trk_chars(const char *s, size_t n);

typedef enum trk_handling {
    TRK_NONE = 0, /* not a file item / no finding */
    TRK_DIRECT,   /* 直接删除: the file exists only for legacy */
    TRK_PARTIAL,  /* 部分删除: line ranges of a live file */
} trk_handling;

/* "直接删除", "部分删除" or "" */
const char *trk_handling_zh(trk_handling h);
/* "delete", "partial" or "" (JSON values) */
const char *trk_handling_key(trk_handling h);

/* Which findings a task or a check item counts. A finding matches when it matches any of
 * tasks/families/rules/names/files (all empty: every finding), and, when paths is not empty,
 * its path matches one of the globs. */
typedef struct trk_selector {
    vec tasks;    /* int: the rule's task number */
    vec families; /* char *: rule families */
    vec rules;    /* char *: globs over rule ids ("PE-PYBIND-*") */
    vec names;    /* char *: globs over the matched text ("cinn_instruction_run*") */
    vec files;    /* char *: globs over paths selecting every finding in the files they match */
    vec paths;    /* char *: globs over root-relative paths (walk.h flavour) */
} trk_selector;

/* How specific a selector is: a finding several check items select belongs to the most
 * specific (names > files, paths > rules > families > tasks), the first in the manifest on a tie. */
int trk_selector_rank(const trk_selector *s);

bool trk_selector_match(const trk_selector *s, const sunset_finding *f);

typedef enum trk_where {
    TRK_AT_PATH = 0, /* the file is where the manifest says */
    TRK_MOVED,       /* found elsewhere by basename */
    TRK_GONE,        /* nowhere in the tree */
    TRK_RENAMED,     /* under a new name: the manifest's renamed_to, or its stem with one of
                      * the manifest's rename_suffixes ("x.py" → "x_deprecated.py") */
} trk_where;

typedef struct trk_item {
    /* from the manifest */
    char *name;    /* as displayed (the issue's text) */
    char *name_en; /* may be NULL */
    char *name_zh; /* shown under zh instead of name (an issue's English subtitle); may be NULL */
    char *file;    /* file item: repo-relative path; NULL for a check item */
    char *note;    /* the manifest's remark on the item; may be NULL */
    char *note_zh; /* the remark under zh; may be NULL */
    char *pr;      /* "#63470"; may be NULL */
    char *renamed_to; /* file items: the path the file was renamed to; may be NULL */
    char *outside; /* the item's work is in another repository ("PaddlePaddle/docs"): never
                    * measured here, never done, not in the task's fraction; may be NULL */
    trk_handling handling; /* file items: the handling the manifest states */
    trk_selector sel;      /* check items: findings that keep it open */
    /* computed */
    trk_where where;
    char *found;      /* where the file is now (file items, not gone); owned */
    trk_handling computed; /* the file's measured handling (TRK_NONE: no finding of any task) */
    bool done;
    vec open;         /* size_t: indices into the result's findings that keep the item open,
                       * each in exactly one item of its task: for a file item every legacy
                       * finding left in its file, whatever its task or family; for a check
                       * item the task's findings it is the most specific selector of */
    size_t open_other;/* file items: how many of them are not of the task's own rules */
    size_t comments;  /* how many of open are in comments, docstrings or commented-out code */
    char *remark;     /* measured disagreement with the manifest ("moved to ..."); may be NULL */
} trk_item;

typedef struct trk_task {
    int number;
    char *title, *title_en, *claimant; /* title_en, claimant may be NULL */
    vec prs;           /* char * */
    trk_selector sel;  /* the task's rules */
    char *items_header;/* column title of the checklist ("单测文件统计"); may be NULL */
    vec items;         /* trk_item */
    /* computed */
    size_t items_done;
    size_t items_total;/* items measured here (not "outside"): the fraction's denominator */
    vec findings;      /* size_t, sorted: what keeps the task open, the union of its items'
                        * open findings and `other`; its size is the sum of theirs */
    vec other;         /* size_t: findings of the task's rules that no item selects (其他) */
    size_t other_comments;
    size_t n_files;    /* distinct files among findings */
    bool merged;       /* a PR the task names is in the measured history (submitted) */
    bool done;
} trk_task;

/* An item's state as the writers show it. */
typedef enum trk_state {
    TRK_S_DONE = 0,
    TRK_S_OPEN,
    TRK_S_COMMENTS, /* open, but only comments are left (仅剩注释 N 处) */
    TRK_S_OUTSIDE,  /* in another repository (不在本仓库) */
} trk_state;
trk_state trk_item_state(const trk_item *it);
/* "done", "open", "comments_only", "outside" (JSON values) */
const char *trk_state_key(trk_state s);
/* Whether a finding's context is a comment, a docstring or commented-out code. */
bool trk_is_comment(const sunset_finding *f);

typedef struct tracking_manifest {
    char *origin;      /* the file it was read from */
    char *id, *title, *url, *board; /* url, board may be NULL */
    char *source_url;  /* prefix for path#Lline links; may be NULL (relative links) */
    char *repository;  /* web URL of the repository ("https://github.com/o/r"): links pin the
                        * measured commit as repository/blob/<sha>/path; may be NULL */
    char *lang;        /* default prose language, "zh" or "en"; may be NULL (zh) */
    vec known_paths;   /* char *: root-relative paths (a trailing '/' = a directory) that the
                        * tracked tree has; with the file items they recognise the tree */
    vec family_zh;     /* char *: pairs (family id, its name in Chinese), from "families_zh" */
    vec rename_suffixes; /* char *: a checklist file not found may live on as stem+suffix+ext */
    vec tasks;         /* trk_task */
} tracking_manifest;

/* The item's name and note in the report's language. */
const char *trk_item_name(const trk_item *it, trk_lang lang);
const char *trk_item_note(const trk_item *it, trk_lang lang);
/* A rule family as prose: under zh its Chinese name from the manifest, else the id. */
const char *trk_family_name(const tracking_manifest *m, const char *family, trk_lang lang);

/* Load a manifest. NULL with err filled ("FILE:LINE:COL: message" for JSON syntax,
 * "FILE: tasks[2].items[4]: message" for content). */
tracking_manifest *tracking_manifest_load(const char *file, sunset_error *err);
tracking_manifest *tracking_manifest_parse(const char *json, const char *origin, sunset_error *err);
void tracking_manifest_free(tracking_manifest *m);

/* One removal range of a 部分删除 file. */
typedef struct trk_range {
    uint32_t start, end;
    char *reason; /* one phrase; owned */
} trk_range;

/* The measured handling of one file with findings (any task). */
typedef struct trk_file {
    const char *path;  /* borrowed from the result */
    size_t first, n;   /* its findings: res->findings[first .. first+n) */
    trk_handling handling;
    char *reason;      /* 直接删除: why the whole file goes; owned */
    vec ranges;        /* trk_range, 部分删除 only */
    unsigned tasks;    /* bit t set: a finding of task t (t < SUNSET_TASKS, which fits) */
    uint32_t lines;    /* 部分删除: lines in the ranges; 直接删除: the file's length (0 unknown) */
} trk_file;

/* Derived facts from outside the per-file findings (the cross-file layer): return true and
 * set *reason (static or owned by ctx, copied) when `path` exists only for legacy. */
typedef bool (*trk_legacy_file_fn)(void *ctx, const char *path, const char **reason);
/* True when the finding's rule is file-level (a "path" rule). NULL: a finding at 1:1 whose
 * matched text is the path itself. */
typedef bool (*trk_file_level_fn)(void *ctx, const sunset_finding *f);

typedef struct tracking_opts {
    const char *root;          /* file-system root, to read files (Python test classes); may be NULL */
    char *const *tree;         /* root-relative paths of every file in the tree (sorted) */
    size_t n_tree;
    trk_file_level_fn file_level;
    trk_legacy_file_fn legacy_file;
    void *ctx;
    trk_lang lang;             /* of the remarks and reasons computed here */
    /* Whether PR `pr` (a number) is in the measured revision's history: 1 yes, 0 no, 2 yes
     * but far older than the manifest's other PRs, -1 unknown (no history). NULL: unknown. */
    int (*pr_merged)(void *ctx, long pr);
    void *pr_ctx;
} tracking_opts;

typedef struct tracking_report {
    const tracking_manifest *m; /* borrowed */
    const sunset_result *res;   /* borrowed */
    vec files;                  /* trk_file, by path */
    size_t tasks_done, tasks_submitted, tasks_claimed;
    bool submitted_known;       /* tasks_submitted was measured in the history (else unknown) */
    int (*pr_merged)(void *ctx, long pr); /* from the opts: PRs checked against the history */
    void *pr_ctx;
    const char *burndown;       /* an SVG chart to embed in the HTML (sunset history); borrowed, may be NULL */
    /* what was measured, set by the caller; borrowed, may be NULL */
    const char *revision;       /* the commit id measured (PATH in git, or --revision) */
    const char *date;           /* YYYY-MM-DD: the commit's date, else the day of the run */
    bool links_pinned;          /* links point at `revision` in a repository that has it */
    trk_lang lang;              /* the prose of every writer */
    size_t md_budget;           /* Markdown: characters the document stays under (0: TRACKING_MD_BUDGET) */
    const struct trk_since *since; /* 本周变化, with --since-report; borrowed, may be NULL */
} tracking_report;

/* ---- 本周变化: what changed since a previous report (src/analysis/tracking_since.c) ---- */

enum { TRK_SINCE_TASKS = SUNSET_TASKS }; /* per-task deltas of a commit: tasks 1 .. SUNSET_TASKS - 1 */

/* A task's state then and now. */
typedef struct trk_since_task {
    int number;
    bool known;          /* the previous report had this task */
    bool was_done, now_done;
    long before, after;  /* findings that kept it open */
    vec added;           /* size_t: indices into the result's findings of the task's findings
                          * the previous report did not have (new legacy code, or moved) */
} trk_since_task;

/* An item whose state changed. */
typedef struct trk_since_item {
    int task;
    const trk_item *it;  /* borrowed from the manifest */
    char before[24];     /* the previous state key ("open", ...; "" when the item is new) */
    long open_before;
} trk_since_item;

/* A commit between the two revisions that changed the count, with the PRs it is attributed
 * to (a merge commit: the PRs of the commits it merges). */
typedef struct trk_since_pr {
    char sha[13];
    char *subject;       /* owned */
    long *prs;           /* owned; NULL when the subject names none */
    size_t n_prs;
    long delta;          /* findings after it minus before it */
    int32_t by_task[TRK_SINCE_TASKS];
} trk_since_pr;

typedef struct trk_since {
    char *revision, *date;   /* of the previous report; owned, may be NULL */
    vec tasks;               /* trk_since_task, one per task of the manifest */
    vec items;               /* trk_since_item: items whose state changed */
    size_t added;            /* findings new since then, over all tasks */
    bool by_fingerprint;     /* new findings matched by fingerprint (else by path and rule) */
    /* the commits in between, replayed (set by the caller) */
    bool history;            /* measured: the previous revision is an ancestor of this one */
    char *history_note;      /* why the commits were not measured; owned, may be NULL */
    size_t commits;          /* commits after the previous revision up to this one */
    size_t quiet_prs;        /* commits naming a PR that changed no count */
    long delta;              /* findings now minus then, by the history */
    vec prs;                 /* trk_since_pr, largest drop first */
} trk_since;

/* Compare the report r with the previous report's JSON (text[0..len), read from `origin`):
 * fills *out (zeroed first). 0; -1 on OOM; 1 on bad input with err ("FILE:LINE:COL: ..."). */
int trk_since_compute(const char *text, size_t len, const char *origin, const tracking_report *r,
                      trk_since *out, sunset_error *err);
/* Record a commit in between; only one that changed the count is kept. 0, -1 on OOM. */
int trk_since_add_commit(trk_since *s, const char *sha, const char *subject, const long *prs, size_t n_prs,
                         long delta, const int32_t by_task[TRK_SINCE_TASKS]);
/* Order the commits: largest drop first, then growth, by sha on a tie. */
void trk_since_sort(trk_since *s);
void trk_since_free(trk_since *s);
/* The since-task record of task `number`, or NULL. */
const trk_since_task *trk_since_task_of(const trk_since *s, int number);

/* Compute every status. Writes into m's computed fields (so a manifest serves one report at
 * a time). Returns 0, -1 on OOM. */
int tracking_compute(tracking_manifest *m, const sunset_result *res, const tracking_opts *o,
                     tracking_report *out);
void tracking_report_free(tracking_report *r);

/* Whether the scanned tree is the manifest's: a file item found (at its path or moved) or a
 * known path present. When not, *expected names a few of what was looked for. -1 on OOM. */
int tracking_tree_known(const tracking_manifest *m, const tracking_opts *o, bool *known, sb *expected);

/* The file record of `path`, or NULL when it has no finding. */
const trk_file *tracking_file(const tracking_report *r, const char *path);

/* A source link for path#Lline (end > line: #Lline-Lend): the manifest's source_url joined
 * with the path, or the path as a relative link when it has none. Only an http(s) source_url
 * is used (anything else, javascript: among them, gives the relative link); the path is
 * percent-encoded where a URL needs it, and a relative link whose first segment holds ':'
 * (it would read as a scheme) or that starts with '/' gets "./" in front. */
bool trk_url(sb *out, const tracking_manifest *m, const char *path, uint32_t line, uint32_t end);
/* Whether u is an http:// or https:// URL (case-insensitive scheme). */
bool trk_is_web_url(const char *u);

/* Whether the manifest's PR text ("#63543") is in the measured history: 1 yes, 0 no (a typo,
 * or not merged), 2 yes but far older than the manifest's other PRs (a typo naming an old PR),
 * -1 unknown (no history, or not a "#N"). */
int trk_pr_state(const tracking_report *r, const char *pr);

/* 100 * a / b, 0 when b is 0. */
double trk_rate(size_t a, size_t b);
/* Findings of the task that keep it open, grouped by file: up to `max_files` files, most
 * findings first (then by path). Fills idx with indices into t->findings of each group's
 * first finding; *n_groups is how many files there are in all. Caller frees idx. */
int trk_task_groups(const trk_task *t, const sunset_result *res, size_t max_files, vec *idx,
                    size_t *n_groups);

/* Task number as the issue writes it in Chinese: 1 → "一" ... 10 → "十" (1..99). */
const char *trk_cn_number(int n, char buf[16]);

/* Work batches (contributor hand-out): the remaining files grouped by directory, or by owner
 * when `owners` (CODEOWNERS text) is given, split into batches of at most `max_files`. */
typedef struct trk_batch {
    char *key;         /* directory or owner; owned */
    vec files;         /* size_t: indices into report->files */
    uint32_t lines;    /* lines to remove: ranges of 部分删除 files, whole 直接删除 files */
    size_t findings;
    vec families;      /* const char *, borrowed, sorted unique */
} trk_batch;

int tracking_batches(const tracking_report *r, const char *owners, size_t max_files, vec *out);
void tracking_batches_free(vec *batches);

/* The three documents; each appends to *out. 0, or -1 on OOM. */
int tracking_write_md(const tracking_report *r, const vec *batches, sb *out);
int tracking_write_json(const tracking_report *r, const vec *batches, sb *out);
int tracking_write_html(const tracking_report *r, const vec *batches, sb *out);

/* Replace the region between the markers in `body` with `region` (which carries its own
 * markers). Returns a new string (caller frees with sunset_free), or NULL when a marker is
 * missing (*missing set) or on OOM. */
char *tracking_update_body(const char *body, const char *region, bool *missing);
/* Rewrite md from byte `from` (a generated region) so that no line in it but its first (the
 * begin marker) and its last (the end marker) reads as a marker: such a line, which a path
 * or snippet can spell, gets its '<' as "&lt;" (rendered the same). Markers are recognised
 * only as a line of their exact text (a CR before the newline allowed). */
void tracking_defuse_markers(sb *md, size_t from);

/* The buffer's text, or NULL (and the buffer freed) when an append ran out of memory. */
char *trk_take(sb *b);

#endif
