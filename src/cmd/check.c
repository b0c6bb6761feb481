/*
 * cmd_check.c — `sunset baseline` and `sunset check`, the pull-request gate's commands: options,
 * which files to scan (all, a list, or those a change touched), the known findings (the
 * baseline, or the files as they were at the diff base), then the judgement (src/analysis/gate.c) and
 * the reports. New findings at or above --severity-threshold fail the gate (exit 1); errors
 * exit 2 and win over findings.
 */
#include <cjson/cJSON.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analysis/gate.h"
#include "cmd/session.h"
#include "core/suppress.h"

int cmd_baseline(cli *c) {
    scan_ctx s = {0};
    sunset_result res = {0};
    sunset_known_set k = {0};
    const char *file = c->output ? c->output : SUNSET_DEFAULT_BASELINE;
    int rc;
    if ((rc = scan_prepare(c, &s)) || (rc = scan_execute(c, &s, &res))) goto cleanup;
    size_t by_task[SUNSET_TASKS] = {0};
    for (size_t i = 0; i < res.n_findings; i++) {
        const sunset_finding *f = &res.findings[i];
        if (f->suppressed) continue;
        if (sunset_known_add_finding(&k, f, true)) {
            fprintf(stderr, "sunset: out of memory\n");
            rc = EXIT_USAGE;
            goto cleanup;
        }
        if (f->task >= 0 && f->task < SUNSET_TASKS) by_task[f->task]++;
    }
    size_t n = 0;
    if ((rc = sunset_baseline_write(file, k.v, k.n, &n))) goto cleanup;
    if (!c->quiet) {
        fprintf(stderr, "sunset: baseline %s: %zu finding%s", file, n, n == 1 ? "" : "s");
        for (int t = 0; t < SUNSET_TASKS; t++)
            if (by_task[t]) fprintf(stderr, "; task %d: %zu", t, by_task[t]);
        fprintf(stderr, "\n");
    }
cleanup:
    sunset_known_set_free(&k);
    sunset_result_free(&res);
    scan_ctx_free(&s);
    return rc;
}

/* ---- check ---- */

static int cmp_cstr(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool in_sorted(const vec *v, const char *s) {
    return v->n && bsearch(&s, v->v, v->n, sizeof(char *), cmp_cstr) != NULL;
}

/* Keep only the files of s->files that are in `keep` (sorted char *). */
static void restrict_files(scan_ctx *s, const vec *keep) {
    size_t u = 0;
    for (size_t i = 0; i < s->files.n; i++) {
        char *f = VEC_AT(&s->files, char *, i);
        if (in_sorted(keep, f)) VEC_AT(&s->files, char *, u++) = f;
        else sunset_free(f);
    }
    s->files.n = u;
}

/* Read --files-from: one root-relative path per line ("./" and blank lines and # comments
 * skipped). Absolute paths under the root are made relative. Returns EXIT_OK or EXIT_USAGE. */
static int read_list(const char *file, const char *root, vec *out) {
    char *data = NULL;
    size_t len = 0;
    int e;
    if (strcmp(file, "-") == 0) {
        sb in = {0};
        char buf[4096];
        size_t n;
        while ((n = fread(buf, 1, sizeof buf, stdin)) > 0) sb_putn(&in, buf, n);
        e = ferror(stdin) ? EIO : in.oom ? ENOMEM : 0;
        len = in.len;
        data = in.s ? sb_take(&in) : sunset_strndup("", 0);
    } else {
        e = read_file(file, 0, &data, &len);
    }
    if (e || !data) {
        fprintf(stderr, "sunset: %s: cannot read the file list: %s\n", file, strerror(e ? e : ENOMEM));
        sunset_free(data);
        return EXIT_USAGE;
    }
    size_t rl = strlen(root);
    for (char *line = data; line && *line;) {
        char *nl = strchr(line, '\n');
        if (nl) *nl = 0;
        size_t n = strlen(line);
        while (n && (line[n - 1] == '\r' || line[n - 1] == ' ' || line[n - 1] == '\t')) line[--n] = 0;
        char *p = line;
        while (*p == ' ' || *p == '\t') p++;
        if (*p == '/' && strncmp(p, root, rl) == 0 && p[rl] == '/') p += rl + 1;
        while (p[0] == '.' && p[1] == '/') p += 2;
        if (*p && *p != '#') {
            char *d = sunset_strndup(p, strlen(p));
            if (!d || !vec_push(out, &d)) {
                sunset_free(d);
                sunset_free(data);
                fprintf(stderr, "sunset: out of memory\n");
                return EXIT_USAGE;
            }
        }
        line = nl ? nl + 1 : NULL;
    }
    sunset_free(data);
    if (out->n) qsort(out->v, out->n, sizeof(char *), cmp_cstr);
    return EXIT_OK;
}

static bool exists_under(const char *root, const char *path) {
    sb p = {0};
    sb_printf(&p, "%s/%s", root, path);
    struct stat st;
    bool ok = p.s && lstat(p.s, &st) == 0;
    sb_free(&p);
    return ok;
}

/* Would the walk have taken this (now deleted) path? The walk's own rule says. */
static bool path_selected(const cli *c, const char *path) {
    walk_opts o = {!c->no_ignore, (const char *const *)c->include.v, c->include.n,
                   (const char *const *)c->exclude.v, c->exclude.n};
    return walk_selected(&o, path);
}

static int write_summary_file(const char *file, const sb *md, bool append) {
    sb all = {0};
    if (append) {
        char *old = NULL;
        size_t n = 0;
        if (read_file(file, 0, &old, &n) == 0) sb_putn(&all, old, n);
        sunset_free(old);
        if (all.len) sb_putc(&all, '\n');
    }
    sb_putn(&all, md->s ? md->s : "", md->len);
    int e = all.oom ? ENOMEM : write_file_atomic(file, all.s ? all.s : "", all.len);
    sb_free(&all);
    if (e) {
        fprintf(stderr, "sunset: %s: cannot write the summary: %s\n", file, strerror(e));
        return EXIT_USAGE;
    }
    return EXIT_OK;
}

/* The options that go together, the threshold and the unused-suppression listing into g.
 * EXIT_OK, or EXIT_USAGE with a message. */
static int check_options(const cli *c, const sunset_writer *writer, const char *fmt, bool full,
                         sunset_gate *g) {
    if (!writer) {
        fprintf(stderr, "sunset: unknown format '%s' (known: %s)\n", fmt, sunset_writer_names());
        return EXIT_USAGE;
    }
    g->threshold = SUNSET_SEV_WARNING;
    if (c->threshold) {
        int sev = sunset_severity_from_name(c->threshold);
        if (sev < 0)
            return cli_usage_error("--severity-threshold takes info, warning or error, not '%s'", c->threshold);
        g->threshold = (sunset_severity)sev;
    }
    if (c->diff_base && c->files_from)
        return cli_usage_error("--diff-base and --files-from exclude each other");
    if (c->update_baseline && !c->baseline)
        return cli_usage_error("--update-baseline needs --baseline FILE");
    if (c->update_baseline && !full)
        return cli_usage_error("--update-baseline needs a full scan (no --diff-base or --files-from)");
    if (c->accept_new && !c->update_baseline)
        return cli_usage_error("--accept-new goes with --update-baseline");
    if (c->report_unused && !full && !c->quiet)
        fprintf(stderr, "sunset: --report-unused-suppressions needs a full scan; ignored\n");
    g->list_unused = c->report_unused && full;
    return EXIT_OK;
}

int cmd_check(cli *c) {
    scan_ctx s = {0};
    sunset_result cur = {0}, old = {0}, out = {0};
    sunset_known_set ks = {0};
    diff_set ds = {0};
    vec listed = VEC_INIT(char *), keep = VEC_INIT(char *), deleted = VEC_INIT(char *);
    sunset_gate_run run = {0};
    sunset_rule_info *infos = NULL;
    char *prefix = NULL;
    sb doc = {0}, md = {0}, against = {0};
    sunset_gate g = {0};
    int rc = EXIT_USAGE;
    const char *fmt = c->format ? c->format : "text";
    const sunset_writer *writer = sunset_writer_find(fmt);
    bool full = !c->diff_base && !c->files_from;

    if ((rc = check_options(c, writer, fmt, full, &g))) goto cleanup;
    rc = EXIT_USAGE;

    /* the baseline first: a malformed one stops everything before any scan or write */
    if (c->baseline && (rc = sunset_baseline_load(c->baseline, &ks))) goto cleanup;
    size_t n_baseline = ks.n;
    if ((rc = scan_prepare(c, &s))) goto cleanup;
    rc = EXIT_USAGE;

    /* which files: all, the listed ones, or the changed ones */
    if (c->files_from) {
        if ((rc = read_list(c->files_from, s.root, &listed))) goto cleanup;
        rc = EXIT_USAGE;
        for (size_t i = 0; i < listed.n; i++) {
            char *p = VEC_AT(&listed, char *, i);
            if (!exists_under(s.root, p) && path_selected(c, p)) vec_push(&deleted, &p);
        }
        restrict_files(&s, &listed);
    } else if (c->diff_base) {
        char err[512];
        if (diff_collect(s.root, c->diff_base, &ds, err, sizeof err)) {
            fprintf(stderr, "sunset: %s\n", err);
            goto cleanup;
        }
        for (size_t i = 0; i < ds.n; i++)
            if (ds.files[i].path) vec_push(&keep, &ds.files[i].path);
        if (keep.n) qsort(keep.v, keep.n, sizeof(char *), cmp_cstr);
        restrict_files(&s, &keep);
        /* the files as they were at REV, under their current name so fingerprints line up */
        for (size_t i = 0; i < ds.n; i++) {
            const diff_file *f = &ds.files[i];
            if (!f->old_data) continue;
            if (f->path ? !in_sorted(&s.files, f->path) : !path_selected(c, f->old_path)) continue;
            if (sunset_engine_scan_buffer(s.eng, f->path ? f->path : f->old_path, f->old_data, f->old_len, &old)) {
                fprintf(stderr, "sunset: out of memory scanning %s at %s\n", f->old_path, c->diff_base);
                goto cleanup;
            }
        }
        /* baseline entries only filter; fixes are measured against REV */
        for (size_t i = 0; i < ks.n; i++) ks.v[i].in_scope = false;
        for (size_t i = 0; i < old.n_findings; i++)
            if (!old.findings[i].suppressed && sunset_known_add_finding(&ks, &old.findings[i], true)) goto oom;
    }
    if (!c->diff_base)
        for (size_t i = 0; i < ks.n; i++) {
            sunset_known *k = &ks.v[i];
            /* in scope: a file we scan, or one that is gone (and would have been scanned) */
            k->in_scope = in_sorted(&s.files, k->path) ||
                          (c->files_from ? in_sorted(&deleted, k->path)
                                         : !exists_under(s.root, k->path) && path_selected(c, k->path));
        }
    if ((rc = scan_execute(c, &s, &cur))) goto cleanup;
    rc = EXIT_USAGE;

    run = (sunset_gate_run){.cur = &cur, .known = &ks, .diff = c->diff_base ? &ds : NULL, .full = full,
                            .n_baseline = n_baseline, .have_baseline = c->baseline != NULL};
    if (sunset_gate_judge(&run, &g)) goto oom;
    if (c->update_baseline) {
        sunset_known_set nb = {0};
        bool bad = sunset_gate_next_baseline(&run, c->accept_new, &nb) != 0;
        size_t n = 0;
        int wrc = bad ? EXIT_USAGE : sunset_baseline_write(c->baseline, nb.v, nb.n, &n);
        if (bad) fprintf(stderr, "sunset: out of memory updating the baseline\n");
        sunset_known_set_free(&nb);
        if (wrc) {
            rc = wrc;
            goto cleanup;
        }
        g.updated = true;
        g.baseline_before = n_baseline;
        g.baseline_after = n;
    }

    /* the reported result: cur with only the new findings and the suppressed ones */
    sunset_result_keep(&cur, run.is_new);
    out = cur;
    memset(&cur, 0, sizeof cur);
    if (c->baseline && c->diff_base) sb_printf(&against, "%s and baseline %s", c->diff_base, c->baseline);
    else if (c->diff_base) sb_printf(&against, "%s", c->diff_base);
    else if (c->baseline) sb_printf(&against, "baseline %s", c->baseline);
    else sb_puts(&against, "an empty baseline");
    if (c->files_from) sb_printf(&against, " (files listed in %s)", c->files_from);
    g.against = against.s ? against.s : "";
    out.gate = &g;
    prefix = diff_repo_prefix(s.root);
    out.uri_prefix = prefix;
    infos = sunset_calloc(s.rs->rules.n + 1, sizeof *infos);
    if (!infos) goto oom;
    for (size_t i = 0; i < s.rs->rules.n; i++) {
        const sunset_rule *r = VEC_AT(&s.rs->rules, sunset_rule *, i);
        infos[i] = (sunset_rule_info){r->id, r->family, r->message, r->fix, r->task, r->sev[SUNSET_CTX_CODE]};
    }
    infos[s.rs->rules.n] = (sunset_rule_info){SUNSET_SUPPRESSION_RULE, SUNSET_SUPPRESSION_FAMILY,
                                              "Malformed sunset-ignore suppression comment.",
                                              SUNSET_SUPPRESSION_FIX, 0, SUNSET_SEV_ERROR};
    out.rules = infos;
    out.n_rules = s.rs->rules.n + 1;

    /* write */
    sunset_output_opts oo = output_opts(c);
    if (strcmp(writer->name, "text") == 0) {
        sunset_output_opts to = oo;
        to.summary = false;
        if (writer->write(&out, &to, &doc)) goto oom;
        if (oo.summary) sunset_gate_text(&out, &doc);
    } else if (writer->write(&out, &oo, &doc)) {
        goto oom;
    }
    if (doc.oom) goto oom;
    const char *summary = c->summary;
    bool append = false;
    if (!summary && strcmp(writer->name, "github") == 0 && getenv("GITHUB_STEP_SUMMARY") &&
        *getenv("GITHUB_STEP_SUMMARY")) {
        summary = getenv("GITHUB_STEP_SUMMARY");
        append = true; /* other steps' summaries share the file */
    }
    if (summary) {
        const sunset_writer *mw = sunset_writer_find("markdown");
        if (!mw || mw->write(&out, &oo, &md)) goto oom;
        if ((rc = write_summary_file(summary, &md, append))) goto cleanup;
    }
    if ((rc = output_write(c->output, &doc))) goto cleanup;
    rc = g.n_failing ? EXIT_FINDINGS : EXIT_OK;
    goto cleanup;
oom:
    fprintf(stderr, "sunset: out of memory\n");
    rc = EXIT_USAGE;
cleanup:
    sb_free(&doc);
    sb_free(&md);
    sb_free(&against);
    sunset_free(prefix);
    sunset_free(infos);
    sunset_gate_run_free(&run);
    for (size_t i = 0; i < listed.n; i++) sunset_free(VEC_AT(&listed, char *, i));
    vec_free(&listed);
    vec_free(&keep);
    vec_free(&deleted);
    diff_set_free(&ds);
    sunset_known_set_free(&ks);
    sunset_result_free(&out);
    sunset_result_free(&cur);
    sunset_result_free(&old);
    scan_ctx_free(&s);
    return rc;
}
