/*
 * report.c — `sunset report [PATH]`: scans PATH and measures a tracking issue against the
 * findings (src/analysis/tracking.c), writing the progress report as Markdown (default), JSON or
 * self-contained HTML — or all three from one run with --out-dir, so the numbers cannot
 * disagree. --update FILE rewrites only the marked region of an issue body (alone, or with
 * --out-dir / --output); --source-url overrides the manifest's link prefix; --batches and
 * --owners CODEOWNERS add the remaining work grouped into contributor-sized batches.
 *
 * The manifest is --manifest FILE, else the single *.json under tracking/ in the rule
 * directories (the bundled rules/tracking/).
 *
 * Every report names what it measured: the commit when PATH is the top of a git work tree
 * (or --revision SHA for an exported tree) and a date (the commit's; else SOURCE_DATE_EPOCH or
 * today, UTC); the manifest's "repository" then pins every link to that commit. A PATH that is
 * not the tracked tree (none of the manifest's files or known paths) is refused: a report of
 * the wrong directory would read "all done".
 */
#include <dirent.h>
#include <errno.h>
#include <git2.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cmd/documents.h"
#include "cmd/session.h"
#include "analysis/history.h"
#include "analysis/tracking.h"
#include "analysis/tracking_links.h"

enum { BATCH_FILES = 8 };

/* The manifest: --manifest, else the one tracking/*.json in the rule directories. */
static char *find_manifest(const cli *c, const scan_ctx *s) {
    if (c->manifest) return sunset_strndup(c->manifest, strlen(c->manifest));
    char *found = NULL;
    size_t n = 0;
    for (size_t i = 0; i < s->dirs.n; i++) {
        sb dir = {0};
        sb_printf(&dir, "%s/tracking", VEC_AT(&s->dirs, const char *, i));
        DIR *d = dir.s ? opendir(dir.s) : NULL;
        struct dirent *e;
        while (d && (e = readdir(d))) {
            size_t l = strlen(e->d_name);
            if (l < 6 || strcmp(e->d_name + l - 5, ".json") != 0 || e->d_name[0] == '.') continue;
            n++;
            sunset_free(found);
            sb p = {0};
            sb_printf(&p, "%s/%s", dir.s, e->d_name);
            found = sb_take(&p);
        }
        if (d) closedir(d);
        sb_free(&dir);
    }
    if (n == 1) return found;
    sunset_free(found);
    fprintf(stderr, n ? "sunset: several tracking manifests in the rule directories; name one with --manifest FILE\n"
                      : "sunset: no tracking manifest (rules/tracking/*.json); name one with --manifest FILE\n");
    return NULL;
}

/* The measured tree's repository: the checkout's when the root is the top of its work tree.
 * A subdirectory of some repository (testdata/ inside sunset's own) is not the tracked
 * repository: NULL, and no revision. Borrowed from the checkout, opened once. */
static git_repository *tree_repo(const scan_ctx *s) {
    return s->co.repo && s->co.prefix && !*s->co.prefix ? s->co.repo : NULL;
}

/* The day of the run, UTC; SOURCE_DATE_EPOCH (reproducible builds) when set. */
static void run_date(char date[16]) {
    const char *e = getenv("SOURCE_DATE_EPOCH");
    char *end = NULL;
    long long v = e && *e ? strtoll(e, &end, 10) : -1;
    time_t t = v >= 0 && end && !*end ? (time_t)v : time(NULL);
    struct tm tm;
    date[0] = 0;
    if (gmtime_r(&t, &tm)) strftime(date, 16, "%Y-%m-%d", &tm);
}

static bool is_hex_rev(const char *s) {
    size_t n = strlen(s);
    return n >= 7 && n <= GIT_OID_HEXSZ && strspn(s, "0123456789abcdefABCDEF") == n;
}

static bool is_path_rule(void *ctx, const sunset_finding *f) {
    const sunset_rule *r = sunset_ruleset_find(ctx, f->rule_id);
    return r && r->kind == RK_PATH;
}

static int write_one(const char *file, const tracking_report *r, const vec *batches,
                     int (*fn)(const tracking_report *, const vec *, sb *)) {
    sb doc = {0};
    int rc = EXIT_USAGE;
    if (fn(r, batches, &doc)) fprintf(stderr, "sunset: out of memory writing the report\n");
    else rc = output_write(file, &doc);
    sb_free(&doc);
    return rc;
}

static void no_region(const char *file, bool missing) {
    if (missing)
        fprintf(stderr, "sunset: %s: no region to update: the body needs a line %s and, below it, %s\n", file,
                TRACKING_MARK_BEGIN, TRACKING_MARK_END);
    else fprintf(stderr, "sunset: out of memory updating %s\n", file);
}

/* The characters of an issue body outside its marked region (what --update keeps), into
 * *around. EXIT_OK, or EXIT_USAGE with the message printed. */
static int body_around(const char *file, size_t *around) {
    char *body = NULL, *outside = NULL;
    size_t len;
    int e = read_file(file, 0, &body, &len);
    if (e) {
        fprintf(stderr, "sunset: %s: %s\n", file, strerror(e));
        return EXIT_USAGE;
    }
    bool missing;
    outside = tracking_update_body(body, "", &missing);
    sunset_free(body);
    if (!outside) {
        no_region(file, missing);
        return EXIT_USAGE;
    }
    *around = trk_chars(outside, strlen(outside));
    sunset_free(outside);
    return EXIT_OK;
}

static int update_issue(const char *file, const tracking_report *r, const vec *batches, size_t around) {
    char *body = NULL, *next = NULL;
    size_t len;
    sb region = {0};
    int rc = EXIT_USAGE, e = read_file(file, 0, &body, &len);
    if (e) {
        fprintf(stderr, "sunset: %s: %s\n", file, strerror(e));
        goto cleanup;
    }
    bool missing;
    if (tracking_write_md(r, batches, &region)) {
        fprintf(stderr, "sunset: out of memory writing the report\n");
        goto cleanup;
    }
    next = tracking_update_body(body, region.s, &missing);
    if (!next) {
        no_region(file, missing);
        goto cleanup;
    }
    /* GitHub rejects a longer issue body; the file is left as it was */
    size_t chars = trk_chars(next, strlen(next));
    if (chars > TRACKING_ISSUE_LIMIT) {
        fprintf(stderr, "sunset: %s: the updated body would be %zu characters, over GitHub's limit of %d: "
                        "the text outside the markers is %zu, the report's fixed part %zu (shorten the text "
                        "outside the markers, or drop --batches); not written\n",
                file, chars, TRACKING_ISSUE_LIMIT, around, trk_chars(region.s, region.len));
        goto cleanup;
    }
    if (strcmp(next, body) == 0) {
        rc = EXIT_OK; /* idempotent: an unchanged body is not rewritten */
        goto cleanup;
    }
    if ((e = write_file_atomic(file, next, strlen(next)))) {
        fprintf(stderr, "sunset: %s: cannot write: %s\n", file, strerror(e));
        goto cleanup;
    }
    rc = EXIT_OK;
cleanup:
    sunset_free(body);
    sunset_free(next);
    sb_free(&region);
    return rc;
}

/* The commits between the previous report's revision and the measured one, replayed with the
 * history (one job), each commit's change recorded with the PRs it is attributed to. Where
 * they cannot be measured, since->history_note says why, in the report's language. */
static bool pr_named(const tracking_manifest *m, long pr) {
    for (size_t i = 0; i < m->tasks.n; i++) {
        const trk_task *t = &VEC_AT(&m->tasks, trk_task, i);
        for (size_t k = 0; k < t->prs.n + t->items.n; k++) {
            const char *p = k < t->prs.n ? VEC_AT(&t->prs, char *, k) : VEC_AT(&t->items, trk_item, k - t->prs.n).pr;
            if (p && p[0] == '#' && strtol(p + 1, NULL, 10) == pr) return true;
        }
    }
    return false;
}

static int since_history(const cli *c, scan_ctx *s, const tracking_manifest *m, const char *rev, trk_lang lang,
                         trk_since *since) {
    const char *prev = since->revision, *why = NULL;
    git_repository *repo = tree_repo(s);
    git_object *from = NULL;
    git_oid to;
    vec samples = VEC_INIT(history_sample);
    sunset_engine *eng = NULL;
    int rc = 0;
    bool en = lang == TRK_EN;
    if (!rev || c->revision) why = en ? "the measured tree is not a git checkout" : "所测的树不是 git 检出";
    else if (!prev) why = en ? "the previous report names no revision" : "上次报告未记录提交";
    if (why) goto note;
    if (!repo || git_oid_fromstr(&to, rev) != 0)
        why = en ? "the measured tree is not a git checkout" : "所测的树不是 git 检出";
    else if (git_revparse_single(&from, repo, prev) != 0 || git_object_type(from) != GIT_OBJECT_COMMIT)
        why = en ? "the previous report's commit is not in this repository" : "上次报告的提交不在本仓库中";
    if (why) goto note;
    /* The previous commit on a side branch (not an ancestor): the commits in between are
     * those since the two's merge base, replayed from there, and the report says so. */
    git_oid base;
    git_oid_cpy(&base, git_object_id(from));
    if (!git_oid_equal(&base, &to) && git_graph_descendant_of(repo, &to, &base) != 1) {
        if (git_merge_base(&base, repo, git_object_id(from), &to) != 0) {
            why = en ? "the previous report's commit shares no history with the measured one"
                     : "上次报告的提交与所测提交没有共同的历史";
            goto note;
        }
        sb n = {0};
        char b12[13], p12[13];
        git_oid_tostr(b12, sizeof b12, &base);
        git_oid_tostr(p12, sizeof p12, git_object_id(from));
        sb_printf(&n, en ? "commit %s is not in the measured history (a side branch): counted from the merge base %s"
                         : "上次报告的提交 %s 不在所测提交的历史中（在旁支上），从两者的共同祖先 %s 起计算",
                  p12, b12);
        if (n.oom) return -1;
        since->history_note = sb_take(&n);
    }
    since->history = true;
    if (git_oid_equal(&base, &to)) goto cleanup;
    char range[2 * GIT_OID_HEXSZ + 8];
    snprintf(range, sizeof range, "%s..%s", git_oid_tostr_s(&base), rev);
    sunset_error err = {{0}};
    sunset_engine_opts eo = s->eo;
    eo.jobs = 1;
    if (!(eng = sunset_engine_new(s->rs, &eo, &err))) {
        fprintf(stderr, "sunset: %s\n", err.msg);
        rc = 1;
        goto cleanup;
    }
    history_opts ho = {.include = &s->include, .exclude = &s->exclude, .progress = !c->quiet && isatty(2),
                       .quiet = true};
    history_stats hs = {0};
    if (history_replay(eng, &s->co, range, &ho, &samples, &hs, &err)) {
        if (err.msg[0]) fprintf(stderr, "sunset: %s\n", err.msg);
        rc = 1;
        goto cleanup;
    }
    for (size_t i = 1; i < samples.n; i++) {
        const history_sample *a = &VEC_AT(&samples, history_sample, i - 1);
        history_sample *b = &VEC_AT(&samples, history_sample, i);
        int32_t by_task[TRK_SINCE_TASKS] = {0};
        for (int t = 1; t < SUNSET_TASKS && t < TRK_SINCE_TASKS; t++)
            by_task[t] = (int32_t)b->total.by_task[t] - (int32_t)a->total.by_task[t];
        char sha[GIT_OID_HEXSZ + 1];
        git_oid_tostr(sha, sizeof sha, &b->id);
        /* a merge brings in many PRs: the manifest's among them are what it is attributed to */
        size_t kept = 0;
        for (size_t j = 0; j < b->n_prs; j++)
            if (b->n_prs > 1 && pr_named(m, b->prs[j])) b->prs[kept++] = b->prs[j];
        size_t n_prs = kept ? kept : b->n_prs;
        if (trk_since_add_commit(since, sha, b->subject, b->prs, n_prs,
                                 (long)b->total.findings - (long)a->total.findings, by_task)) {
            rc = -1;
            goto cleanup;
        }
    }
    since->commits = samples.n ? samples.n - 1 : 0;
    trk_since_sort(since);
    goto cleanup;
note:
    if (!(since->history_note = sunset_strndup(why, strlen(why)))) rc = -1;
cleanup:
    history_samples_free(&samples);
    sunset_engine_free(eng);
    git_object_free(from);
    return rc;
}

/* One report run's state, freed by report_run_free. */
typedef struct report_run {
    scan_ctx s;
    sunset_result res, view; /* view: res without the suppressed findings (kept); the
                              * report points at it */
    tracking_manifest *m;
    tracking_report rep;
    vec batches, prs; /* trk_batch; trk_pr_seen */
    char *manifest, *owners, *burndown, *prev;
    size_t prev_len;
    trk_since since;
    sunset_finding *kept;
    trk_lang lang;
    char revision[GIT_OID_HEXSZ + 1], date[16];
    bool pinned;
} report_run;

static void report_run_free(report_run *r) {
    trk_since_free(&r->since);
    sunset_free(r->prev);
    tracking_batches_free(&r->batches);
    vec_free(&r->prs);
    tracking_report_free(&r->rep);
    tracking_manifest_free(r->m);
    sunset_free(r->kept);
    sunset_free(r->manifest);
    sunset_free(r->owners);
    sunset_free(r->burndown);
    sunset_result_free(&r->res);
    scan_ctx_free(&r->s);
}

static int report_oom(void) {
    fprintf(stderr, "sunset: out of memory computing the tracking report\n");
    return EXIT_USAGE;
}

/* file (up to max bytes; 0: no limit) into *data, or EXIT_USAGE with the message printed. */
static int read_input(const char *file, size_t max, char **data, size_t *len) {
    int e = read_file(file, max, data, len);
    if (!e) return EXIT_OK;
    fprintf(stderr, "sunset: %s: %s\n", file, strerror(e));
    return EXIT_USAGE;
}

/* The options and the files they name, before any scan: a mistake stops the run here. */
static int report_inputs(const cli *c, report_run *r) {
    if (c->paths.n > 1) return cli_usage_error("report takes one PATH");
    if (c->lang && !trk_lang_parse(c->lang, &r->lang)) {
        fprintf(stderr, "sunset: --lang: want zh or en, not '%s'\n", c->lang);
        return EXIT_USAGE;
    }
    if (c->revision && !is_hex_rev(c->revision)) {
        fprintf(stderr, "sunset: --revision: want a commit id (7 to 40 hex digits), not '%s'\n", c->revision);
        return EXIT_USAGE;
    }
    if (c->paths.n == 1) {
        /* the tracked tree is a directory; a file is a mistake, not a tree with one file */
        const char *p = VEC_AT(&c->paths, const char *, 0);
        struct stat st;
        if (stat(p, &st) != 0) {
            fprintf(stderr, "sunset: %s: %s\n", p, strerror(errno));
            return EXIT_USAGE;
        }
        if (!S_ISDIR(st.st_mode)) {
            fprintf(stderr, "sunset: %s: not a directory: report measures a source tree (the repository's top)\n", p);
            return EXIT_USAGE;
        }
    }
    size_t len;
    if (c->owners && read_input(c->owners, 0, &r->owners, &len)) return EXIT_USAGE;
    if (c->burndown) {
        if (read_input(c->burndown, 16u << 20, &r->burndown, &len)) return EXIT_USAGE;
        const char *p = r->burndown;
        while (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r') p++;
        if (strncmp(p, "<svg", 4) != 0) {
            fprintf(stderr, "sunset: %s:1:1: not an SVG document (write one with 'sunset history -f svg')\n", c->burndown);
            return EXIT_USAGE;
        }
    }
    if (c->since_report && read_input(c->since_report, 256u << 20, &r->prev, &r->prev_len)) return EXIT_USAGE;
    return EXIT_OK;
}

/* The manifest, with --source-url applied, and the check that the scanned tree is the one
 * it tracks (s.files is ready). */
static int report_manifest(const cli *c, report_run *r) {
    if (!(r->manifest = find_manifest(c, &r->s))) return EXIT_USAGE;
    sunset_error err = {{0}};
    if (!(r->m = tracking_manifest_load(r->manifest, &err))) {
        fprintf(stderr, "sunset: %s\n", err.msg);
        return EXIT_USAGE;
    }
    if (c->source_url && *c->source_url && !trk_is_web_url(c->source_url)) {
        /* links are http(s) or relative: a javascript: prefix would run in a reader's page */
        fprintf(stderr, "sunset: --source-url: want an http:// or https:// URL, or \"\" for "
                        "relative links: %s\n", c->source_url);
        return EXIT_USAGE;
    }
    if (c->source_url) {
        /* the snapshot measured may not be the manifest's branch: links follow the user */
        sunset_free(r->m->source_url);
        r->m->source_url = *c->source_url ? sunset_strndup(c->source_url, strlen(c->source_url)) : NULL;
        if (*c->source_url && !r->m->source_url) return report_oom();
    }
    bool known;
    sb expected = {0};
    const scan_ctx *s = &r->s;
    int rc = EXIT_OK;
    if (tracking_tree_known(r->m, &(tracking_opts){.tree = (char *const *)s->files.v, .n_tree = s->files.n}, &known,
                            &expected))
        rc = report_oom();
    else if (!known) {
        fprintf(stderr, "sunset: %s: not the tree tracking issue %s measures: none of its files or known "
                        "paths is here (expected e.g. %s)\n",
                s->co.display, r->m->id, expected.s ? expected.s : "?");
        rc = EXIT_USAGE;
    }
    sb_free(&expected);
    return rc;
}

/* The commit a tree in git is linked at: the remote whose branches contain it (a fork's
 * commit is not in the upstream); a commit no remote holds (local, or fetched from a path)
 * keeps the manifest's branch links, with a warning. --revision of an exported tree is taken
 * at its word. */
static int pin_links(const cli *c, report_run *r) {
    tracking_manifest *m = r->m;
    sb web = {0};
    if (c->revision) sb_puts(&web, m->repository);
    else trk_revision_remote(tree_repo(&r->s), r->revision, m->repository, &web);
    if (web.oom) {
        sb_free(&web);
        return report_oom();
    }
    if (!web.len) {
        sb_free(&web);
        if (!c->quiet) /* -q: no warnings on stderr; the report's first line says it too */
            fprintf(stderr, "sunset: warning: commit %.12s is in no remote branch with a web URL (a local commit, "
                        "or a clone of a path): links point at %s, not at the commit, and line anchors may "
                        "drift\n",
                r->revision, m->source_url ? m->source_url : "relative paths");
        return EXIT_OK;
    }
    sunset_free(m->source_url);
    sb u = {0};
    size_t rl = web.len;
    sb_printf(&u, "%.*s/blob/%s", (int)(rl && web.s[rl - 1] == '/' ? rl - 1 : rl), web.s, r->revision);
    if (!c->revision && !trk_same_web(web.s, m->repository) && !c->quiet)
        fprintf(stderr, "sunset: note: commit %.12s is not in %s's branches; links point at %s, the remote "
                        "that has it\n", r->revision, m->repository, web.s);
    sb_free(&web);
    m->source_url = u.oom ? NULL : sb_take(&u);
    sb_free(&u);
    if (!m->source_url) return report_oom();
    r->pinned = true;
    return EXIT_OK;
}

/* The scan measured against the manifest into r->rep: suppressed findings (sunset-ignore) do
 * not keep anything open, a task's PR in the history of what was measured is "submitted",
 * and --since-report adds 本周变化. */
static int report_measure(const cli *c, report_run *r) {
    int rc = scan_execute(c, &r->s, &r->res);
    if (rc) return rc;
    sunset_result *view = &r->view;
    *view = r->res;
    if (!(r->kept = sunset_calloc(r->res.n_findings ? r->res.n_findings : 1, sizeof *r->kept))) return report_oom();
    view->n_findings = 0;
    for (size_t i = 0; i < r->res.n_findings; i++)
        if (!r->res.findings[i].suppressed) r->kept[view->n_findings++] = r->res.findings[i];
    view->findings = r->kept;
    if (!c->lang && r->m->lang) trk_lang_parse(r->m->lang, &r->lang);
    bool have_history = false;
    if (r->revision[0] && !c->revision && trk_history_prs(tree_repo(&r->s), &r->prs, &have_history)) return report_oom();
    if (have_history) trk_mark_old_prs(r->m, &r->prs);
    tracking_opts o = {r->s.root, (char *const *)r->s.files.v, r->s.files.n, is_path_rule, NULL, r->s.rs, r->lang,
                       have_history ? trk_pr_in_history : NULL, &r->prs};
    tracking_report *rep = &r->rep;
    if (tracking_compute(r->m, view, &o, rep)) return report_oom();
    rep->burndown = r->burndown;
    rep->revision = r->revision[0] ? r->revision : NULL;
    rep->links_pinned = r->pinned;
    rep->date = r->date[0] ? r->date : NULL;
    rep->lang = r->lang;
    rep->md_budget = c->md_budget > 0 ? (size_t)c->md_budget : 0; /* 0: the default, or --update's room */
    if (!r->prev) return EXIT_OK;
    /* 本周变化: against the previous report's JSON, and the commits in between */
    sunset_error err = {{0}};
    int e = trk_since_compute(r->prev, r->prev_len, c->since_report, rep, &r->since, &err);
    if (e < 0) return report_oom();
    if (e > 0) {
        fprintf(stderr, "sunset: %s\n", err.msg);
        return EXIT_USAGE;
    }
    if ((e = since_history(c, &r->s, r->m, rep->revision, r->lang, &r->since)) < 0) return report_oom();
    if (e > 0) return EXIT_USAGE;
    rep->since = &r->since;
    return EXIT_OK;
}

/* --out-dir: tracking.{md,json,html}. All three temps are written before any is renamed: an
 * error or a signal on the way leaves the previous set whole (only the renames at the end can
 * split it). */
static int write_out_dir(const char *out_dir, const tracking_report *rep, const vec *b) {
    if (mkdir(out_dir, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "sunset: %s: cannot create: %s\n", out_dir, strerror(errno));
        return EXIT_USAGE;
    }
    static const struct {
        const char *name, *format; /* the file, and its format in the document table */
    } outs[] = {{"tracking.md", "markdown"}, {"tracking.json", "json"}, {"tracking.html", "html"}};
    char *tmp[3] = {NULL, NULL, NULL};
    sb path[3] = {{0}, {0}, {0}};
    size_t staged = 0;
    for (; staged < 3; staged++) {
        sb doc = {0};
        sb_printf(&path[staged], "%s/%s", out_dir, outs[staged].name);
        int e = path[staged].oom || doc_format_find(CMD_REPORT, outs[staged].format)->write.tracking(rep, b, &doc)
                    ? ENOMEM
                    : write_file_stage(path[staged].s, doc.s ? doc.s : "", doc.len, &tmp[staged]);
        sb_free(&doc);
        if (e) {
            fprintf(stderr, "sunset: %s: cannot write: %s\n", path[staged].s ? path[staged].s : out_dir, strerror(e));
            break;
        }
    }
    int rc = EXIT_OK;
    for (size_t i = 0; i < 3; i++) {
        if (staged < 3) {
            if (i < staged) write_file_abort(tmp[i]);
        } else {
            int e = write_file_commit(tmp[i], path[i].s);
            if (e && rc == EXIT_OK) {
                fprintf(stderr, "sunset: %s: cannot write: %s\n", path[i].s, strerror(e));
                rc = EXIT_USAGE;
            }
        }
        sb_free(&path[i]);
    }
    return staged < 3 ? EXIT_USAGE : rc;
}

/* The views: --update's issue body, --out-dir's three files, else the one format. */
static int report_write(const cli *c, report_run *r) {
    bool want_batches = c->batches || c->owners;
    if (want_batches && tracking_batches(&r->rep, r->owners, BATCH_FILES, &r->batches)) return report_oom();
    const vec *b = want_batches ? &r->batches : NULL;
    /* --update: the Markdown's budget is what the body's text outside the markers leaves of
     * the issue limit (--md-budget when smaller), for every Markdown view of this run */
    size_t around = 0;
    int rc;
    if (c->update) {
        if ((rc = body_around(c->update, &around))) return rc;
        size_t room = around < TRACKING_ISSUE_LIMIT ? TRACKING_ISSUE_LIMIT - around : 0;
        if (!r->rep.md_budget || r->rep.md_budget > room) r->rep.md_budget = room ? room : 1; /* 0 is the default */
        if ((rc = update_issue(c->update, &r->rep, b, around))) return rc;
    }
    if (c->out_dir) return write_out_dir(c->out_dir, &r->rep, b);
    if (!c->update || c->output) return write_one(c->output, &r->rep, b, doc_format_of(c)->write.tracking);
    return EXIT_OK;
}

int cmd_report(const cli *c) {
    report_run r = {.batches = VEC_INIT(trk_batch), .prs = VEC_INIT(trk_pr_seen), .lang = TRK_ZH};
    int rc = report_inputs(c, &r);
    if (!rc) rc = scan_prepare(c, &r.s);
    if (!rc) rc = report_manifest(c, &r);
    if (!rc) {
        /* what was measured: the commit pins every link when the manifest names the repository */
        trk_tree_revision(tree_repo(&r.s), r.revision, r.date);
        if (c->revision) snprintf(r.revision, sizeof r.revision, "%s", c->revision);
        if (!r.date[0]) run_date(r.date);
        if (r.revision[0] && r.m->repository && !c->source_url) rc = pin_links(c, &r);
    }
    if (!rc) rc = report_measure(c, &r);
    if (!rc) rc = report_write(c, &r);
    report_run_free(&r);
    return rc;
}
