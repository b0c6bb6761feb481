/*
 * check.c — `sunset baseline` and `sunset check`, the pull-request gate's commands: options,
 * which files to scan (all, a list, or those a change touched: the work tree or, with --staged,
 * the index against the diff base), the known findings (the baseline, or the files as they
 * were at the diff base), then the judgement (src/analysis/gate.c) and the reports. In a diff
 * mode the configuration and the baseline are read as the diff base has them, and what the
 * scan could not judge, edits to what decides the verdict and added suppressions become the
 * gate's own findings (fail closed). New findings at or above --severity-threshold fail the
 * gate (exit 1); errors exit 2 and win over findings.
 */
#include <cjson/cJSON.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis/gate.h"
#include "analysis/remnant.h"
#include "cmd/documents.h"
#include "cmd/session.h"
#include "core/suppress.h"
#include "report/removable.h"

/* ---- check ---- */

static int cmp_cstr(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool in_sorted(const vec *v, const char *s) {
    return v->n && bsearch(&s, v->v, v->n, sizeof(char *), cmp_cstr) != NULL;
}

/* Keep only the files of s->files that are in `keep` (sorted char *). */

/* Read --files-from: one root-relative path per line ("./" and blank lines and # comments
 * skipped). Absolute paths under the root are made relative. Returns EXIT_OK or EXIT_USAGE. */
static int read_list(const char *file, const char *root, vec *out) {
    char *data = NULL;
    int e;
    /* a stream (stdin, a pipe, a shell's <(...)) has no size to read by */
    FILE *fp = strcmp(file, "-") == 0 ? stdin : fopen(file, "rb");
    if (!fp) {
        e = errno;
    } else {
        sb in = {0};
        char buf[4096];
        size_t n;
        while ((n = fread(buf, 1, sizeof buf, fp)) > 0) sb_putn(&in, buf, n);
        e = ferror(fp) ? EIO : in.oom ? ENOMEM : 0;
        data = in.s ? sb_take(&in) : sunset_strndup("", 0);
        if (fp != stdin) fclose(fp);
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
static bool path_selected(const cli *c, const scan_ctx *s, const char *path) {
    walk_opts o = {!c->no_ignore, (const char *const *)s->include.v, s->include.n,
                   (const char *const *)s->exclude.v, s->exclude.n, true, NULL, NULL};
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

/* ---- the diff base's view: what decides the verdict is read at REV ---- */

/* Where the configuration search starts and the git work tree around it. */
typedef struct base_view {
    const char *rev;       /* NULL: no diff base (the work tree is read) */
    const sunset_checkout *co; /* the repository, opened once for the command */
    char start[PATH_MAX];  /* the first PATH's directory, resolved */
    char top[PATH_MAX];    /* the work tree's top; = start outside git */
    size_t depth;          /* directories from top down to start */
    bool in_git;
} base_view;

/* rc, after printing err's message when rc is an error (the baseline's functions say why). */
static int baseline_said(int rc, const sunset_error *err) {
    if (rc && err->msg[0]) fprintf(stderr, "sunset: %s\n", err->msg);
    return rc;
}

static int base_view_init(const cli *c, const sunset_checkout *co, const char *rev, base_view *b) {
    const char *first = c->paths.n ? VEC_AT(&c->paths, const char *, 0) : ".";
    struct stat st;
    memset(b, 0, sizeof *b);
    b->rev = rev;
    b->co = co;
    /* the first PATH as the checkout resolved it: its root and first start path */
    const char *rel = co->starts.n ? VEC_AT(&co->starts, char *, 0) : "";
    bool at_slash = strcmp(co->root, "/") == 0;
    snprintf(b->start, sizeof b->start, "%s%s%s", at_slash ? "" : co->root, *rel || at_slash ? "/" : "", rel);
    if (stat(b->start, &st) != 0) {
        fprintf(stderr, "sunset: %s: %s\n", first, strerror(errno));
        return EXIT_USAGE;
    }
    if (!S_ISDIR(st.st_mode)) {
        char *sl = strrchr(b->start, '/');
        if (sl && sl != b->start) *sl = 0;
    }
    snprintf(b->top, sizeof b->top, "%s", b->start);
    size_t tl = co->top ? strlen(co->top) : 0;
    if (tl && strncmp(b->start, co->top, tl) == 0 && (b->start[tl] == 0 || b->start[tl] == '/')) {
        b->in_git = true;
        snprintf(b->top, sizeof b->top, "%s", co->top);
        for (const char *p = b->start + tl; *p; p++) b->depth += *p == '/';
    }
    return EXIT_OK;
}

/* path (absolute or relative to the current directory) relative to the directory top, or
 * NULL when it lies outside. Lexical for a path that does not exist (a file the change adds). */
static char *rel_to(const char *top, const char *path) {
    char real[PATH_MAX];
    sb abs = {0};
    if (realpath(path, real)) sb_puts(&abs, real);
    else if (path[0] == '/') sb_puts(&abs, path);
    else if (getcwd(real, sizeof real)) sb_printf(&abs, "%s/%s", real, path);
    size_t tl = strlen(top);
    char *r = NULL;
    if (abs.s && strncmp(abs.s, top, tl) == 0 && abs.s[tl] == '/')
        r = sunset_strndup(abs.s + tl + 1, strlen(abs.s + tl + 1));
    sb_free(&abs);
    return r;
}

/* A top-relative file as the diff base has it: 0 with *data, 1 when absent, EXIT_USAGE. */
static int read_base(const base_view *b, const char *toprel, char **data, size_t *len) {
    char err[512];
    int rc = sunset_checkout_read_at(b->co, b->rev, toprel, data, len, err, sizeof err);
    if (rc < 0) {
        fprintf(stderr, "sunset: %s\n", err);
        return EXIT_USAGE;
    }
    return rc;
}

/* The configuration as the diff base has it (--config FILE inside the work tree, or the
 * nearest .sunset.json from the start up to the top) into s->cfg; *name gets its top-relative
 * path (caller frees; NULL when none). A --config outside the work tree is the CI's own and
 * is read by scan_prepare as usual. */
static int base_config(const cli *c, const base_view *b, scan_ctx *s, char **name) {
    *name = NULL;
    sunset_config_init(&s->cfg);
    s->cfg_ready = true;
    if (c->no_config) return EXIT_OK;
    char *rel = NULL, *data = NULL;
    size_t len = 0;
    int rc = 1;
    if (c->config) {
        if (!(rel = rel_to(b->top, c->config))) {
            s->cfg_ready = false; /* outside the work tree: the change cannot have made it */
            return EXIT_OK;
        }
        rc = read_base(b, rel, &data, &len);
    } else {
        /* start's directory, then each parent up to the top */
        const char *below = b->start + strlen(b->top);
        for (size_t up = 0; rc == 1 && up <= b->depth; up++) {
            sb p = {0};
            size_t n = strlen(below);
            for (size_t k = 0; k < up && n; k++) {
                while (n && below[n - 1] != '/') n--;
                if (n) n--;
            }
            if (n > 1) sb_printf(&p, "%.*s/", (int)(n - 1), below + 1);
            sb_puts(&p, ".sunset.json");
            sunset_free(rel);
            rel = p.oom ? NULL : sb_take(&p);
            rc = rel ? read_base(b, rel, &data, &len) : EXIT_USAGE;
        }
    }
    if (rc == 0) {
        sb file = {0}, dir = {0};
        sunset_error err = {{0}};
        sb_printf(&file, "%s (at %s)", rel, b->rev);
        const char *sl = strrchr(rel, '/');
        if (sl) sb_printf(&dir, "%s/%.*s", b->top, (int)(sl - rel), rel);
        else sb_puts(&dir, b->top);
        rc = file.oom || dir.oom || sunset_config_load_text(file.s, data, len, dir.s, &s->cfg, &err) ? EXIT_USAGE : EXIT_OK;
        if (rc) fprintf(stderr, "sunset: %s\n", err.msg[0] ? err.msg : "out of memory");
        sb_free(&file);
        sb_free(&dir);
    } else if (rc == 1) {
        rc = EXIT_OK;
    }
    sunset_free(data);
    if (rc == EXIT_OK) *name = rel;
    else sunset_free(rel);
    return rc;
}

/* The baseline: --baseline FILE, else .sunset-baseline.json at the work tree's top when there
 * is one. Inside the work tree and with a diff base it is read at REV (a baseline the change
 * writes itself must not excuse the change); *name gets the name to show and *rel its
 * top-relative path (both caller's; NULL when no baseline). */
static int load_baseline(const cli *c, const base_view *b, sunset_known_set *ks, char **name, char **rel) {
    *name = *rel = NULL;
    sb def = {0};
    const char *file = c->baseline;
    if (!file) {
        sb_printf(&def, "%s/%s", b->top, SUNSET_DEFAULT_BASELINE);
        if (def.oom) return EXIT_USAGE;
        file = def.s;
    }
    *rel = rel_to(b->top, file);
    int rc = EXIT_OK;
    sunset_error err = {{0}};
    if (b->rev && *rel) {
        char *data = NULL;
        size_t len = 0;
        rc = read_base(b, *rel, &data, &len);
        if (rc == 0) {
            sb n = {0};
            sb_printf(&n, "%s (at %s)", *rel, b->rev);
            rc = n.oom ? EXIT_USAGE : baseline_said(sunset_baseline_load_text(n.s, data, len, ks, &err), &err);
            *name = n.oom ? NULL : sb_take(&n);
        } else if (rc == 1) {
            rc = EXIT_OK; /* none at REV: the change may add one, which is then a config change */
        }
        sunset_free(data);
    } else {
        struct stat st;
        if (c->baseline || stat(file, &st) == 0) {
            rc = baseline_said(sunset_baseline_load(file, ks, &err), &err);
            const char *shown = c->baseline ? c->baseline : *rel ? *rel : file;
            *name = sunset_strndup(shown, strlen(shown));
        }
    }
    sb_free(&def);
    return rc;
}

/* The options that go together, the threshold and the unused-suppression listing into g.
 * EXIT_OK, or EXIT_USAGE with a message. */
static int check_options(const cli *c, bool full, sunset_gate *g) {
    g->threshold = SUNSET_SEV_WARNING;
    if (c->threshold) {
        int sev = sunset_severity_from_name(c->threshold);
        if (sev < 0)
            return cli_usage_error("--severity-threshold takes info, warning or error, not '%s'", c->threshold);
        g->threshold = (sunset_severity)sev;
    }
    if ((c->diff_base || c->staged) && c->files_from)
        return cli_usage_error("--files-from excludes --diff-base and --staged");
    if (c->update_baseline && !full)
        return cli_usage_error("--update-baseline needs a full scan (no --diff-base, --staged or --files-from)");
    if (c->accept_new && !c->update_baseline)
        return cli_usage_error("--accept-new goes with --update-baseline");
    g->list_unused = c->report_unused; /* in a diff mode, of the change's lines (diff_keep_changed_unused) */
    return EXIT_OK;
}

static bool under_starts(const scan_ctx *s, const char *p) {
    for (size_t i = 0; i < s->starts.n; i++) {
        const char *st = VEC_AT(&s->starts, char *, i);
        size_t n = strlen(st);
        if (!n || (strncmp(p, st, n) == 0 && (p[n] == '/' || p[n] == 0))) return true;
    }
    return false;
}

/* Does this run judge the rule: selected by --select (when given) and not --ignore'd?
 * sunset's own rules (SUNSET-GATE, SUNSET-SUPPRESSION) always. */
static bool rule_judged(const cli *c, const char *rule) {
    if (sunset_builtin_rule_find(rule)) return true;
    for (size_t i = 0; i < c->ignore.n; i++)
        if (sunset_glob_match(VEC_AT(&c->ignore, const char *, i), rule)) return false;
    bool sel = c->select.n == 0;
    for (size_t i = 0; i < c->select.n && !sel; i++) sel = sunset_glob_match(VEC_AT(&c->select, const char *, i), rule);
    return sel;
}

/* Is a known finding (a baseline entry, repository-relative) in the scope this run judges:
 * its rule judged, its file scanned or gone from where the walk would have taken it? A full
 * scan only; --files-from's deleted files are the listed ones. */
static bool judged(const scan_ctx *s, const cli *c, const vec *listed_deleted, const sunset_known *k) {
    if (!rule_judged(c, k->rule)) return false;
    if (in_sorted(&s->files, k->path)) return true;
    if (c->files_from) return in_sorted(listed_deleted, k->path);
    return under_starts(s, k->path) && !exists_under(s->root, k->path) && path_selected(c, s, k->path);
}

/* --select/--ignore: the findings of the rules this run does not judge dropped from r (the
 * scan ran every rule, so what they would have shadowed stays shadowed). 0, or -1 on OOM. */
static int keep_judged(const cli *c, sunset_result *r) {
    if (!c->select.n && !c->ignore.n) return 0;
    bool *keep = sunset_calloc(r->n_findings ? r->n_findings : 1, sizeof *keep);
    if (!keep) return -1;
    for (size_t i = 0; i < r->n_findings; i++) keep[i] = rule_judged(c, r->findings[i].rule_id);
    sunset_result_keep(r, keep);
    sunset_free(keep);
    return 0;
}

/* Does this run judge less than the whole repository (a PATH below its top, --select,
 * --ignore)? Then what it leaves out is kept as the baseline had it. */
static bool narrowed(const cli *c, const scan_ctx *s) {
    if (c->select.n || c->ignore.n) return true;
    for (size_t i = 0; i < s->starts.n; i++)
        if (!*VEC_AT(&s->starts, char *, i)) return false;
    return true;
}

int cmd_baseline(const cli *c) {
    scan_ctx s = {0};
    sunset_result res = {0};
    sunset_known_set k = {0}, had = {0};
    sb def = {0}, shown = {0};
    sunset_error err = {{0}};
    int rc;
    if ((rc = scan_prepare(c, &s)) || (rc = scan_execute(c, &s, &res))) goto cleanup;
    if (keep_judged(c, &res)) goto oom;
    /* the repository's baseline, at the work tree's top, wherever baseline runs from */
    const char *file = c->output, *name = c->output;
    if (!file) {
        sb_printf(&def, "%s%s%s", s.co.top ? s.co.top : "", s.co.top ? "/" : "", SUNSET_DEFAULT_BASELINE);
        sb_printf(&shown, "%s%s", s.co.top ? s.shown : "", SUNSET_DEFAULT_BASELINE);
        if (def.oom || shown.oom) goto oom;
        file = def.s;
        name = shown.s;
    }
    size_t by_task[SUNSET_TASKS] = {0};
    for (size_t i = 0; i < res.n_findings; i++) {
        const sunset_finding *f = &res.findings[i];
        if (f->suppressed) continue;
        if (sunset_known_add_finding(&k, f, true)) goto oom;
        if (f->task >= 0 && f->task < SUNSET_TASKS) by_task[f->task]++;
    }
    /* a narrowed run rewrites only what it judged: the other entries stay as they were */
    struct stat st;
    size_t kept = 0;
    if (narrowed(c, &s) && stat(file, &st) == 0) {
        vec none = VEC_INIT(char *);
        if ((rc = baseline_said(sunset_baseline_load(file, &had, &err), &err))) goto cleanup;
        for (size_t i = 0; i < had.n; i++) {
            if (judged(&s, c, &none, &had.v[i])) continue;
            sunset_known *e = sunset_known_push(&k);
            if (!e) goto oom;
            *e = had.v[i]; /* moved: its strings are k's now */
            memset(&had.v[i], 0, sizeof had.v[i]);
            kept++;
        }
    }
    size_t n = 0;
    if ((rc = baseline_said(sunset_baseline_write(file, k.v, k.n, &n, &err), &err))) goto cleanup;
    if (!c->quiet) {
        fprintf(stderr, "sunset: baseline %s: %zu finding%s", name, n, n == 1 ? "" : "s");
        for (int t = 0; t < SUNSET_TASKS; t++)
            if (by_task[t]) fprintf(stderr, "; task %d: %zu", t, by_task[t]);
        if (kept) fprintf(stderr, "; %zu outside this run's scope kept as they were", kept);
        fprintf(stderr, "\n");
    }
    goto cleanup;
oom:
    fprintf(stderr, "sunset: out of memory\n");
    rc = EXIT_USAGE;
cleanup:
    sb_free(&def);
    sb_free(&shown);
    sunset_known_set_free(&had);
    sunset_known_set_free(&k);
    sunset_result_free(&res);
    scan_ctx_free(&s);
    return rc;
}

/* Is the file at abs one of sunset's own reports (by its first bytes, walk.h)? */
static bool own_report(const char *abs) {
    char *data = NULL;
    size_t len = 0;
    bool own = read_file(abs, 0, &data, &len) == 0 && sunset_own_output(data, len);
    sunset_free(data);
    return own;
}

/* The changed files to judge replace the walk's list: every changed file that exists, is
 * selected by the globs and lies under a start path, whatever .gitignore says (git's ignore
 * rules concern untracked files, and the diff already applied them). A symlink whose target
 * is missing or outside the work tree is a gate finding in gf instead. */
static int changed_files(const cli *c, scan_ctx *s, const diff_set *ds, const base_view *b, sunset_result *gf) {
    for (size_t i = 0; i < s->files.n; i++) sunset_free(VEC_AT(&s->files, char *, i));
    s->files.n = 0;
    for (size_t i = 0; i < ds->n; i++) {
        const diff_file *f = &ds->files[i];
        if (!f->path || !path_selected(c, s, f->path) || !under_starts(s, f->path)) continue;
        /* sunset's own untracked output (the cache); a tracked file there is judged */
        if (f->untracked && (!strncmp(f->path, ".sunset-cache/", 14) || strstr(f->path, "/.sunset-cache/"))) continue;
        sb abs = {0};
        sb_printf(&abs, "%s/%s", s->root, f->path);
        struct stat st;
        bool keep = !abs.oom && (c->staged || (lstat(abs.s, &st) == 0 && (S_ISREG(st.st_mode) || S_ISLNK(st.st_mode))));
        /* a report sunset wrote and git does not track (check -f sarif -o sunset.sarif, as
         * the man page has it) is no part of the change; committed, it is judged */
        if (keep && f->untracked && !c->staged && S_ISREG(st.st_mode) && own_report(abs.s)) keep = false;
        if (keep && f->symlink) {
            char *in = abs.oom ? NULL : rel_to(b->top, abs.s);
            char real[PATH_MAX];
            if (!in || !realpath(abs.s, real) || stat(real, &st) != 0 || !S_ISREG(st.st_mode)) {
                keep = false;
                if (sunset_gate_add_finding(gf, GATE_SYMLINK, f->path, 1, f->path)) {
                    sunset_free(in);
                    sb_free(&abs);
                    return -1;
                }
            }
            sunset_free(in);
        }
        sb_free(&abs);
        char *d = keep ? sunset_strndup(f->path, strlen(f->path)) : NULL;
        if (keep && (!d || !vec_push(&s->files, &d))) {
            sunset_free(d);
            return -1;
        }
    }
    if (s->files.n) qsort(s->files.v, s->files.n, sizeof(char *), cmp_cstr);
    return 0;
}

/* --staged: each changed file as the index has it (a symlink by its target on disk). */
static int scan_staged(scan_ctx *s, const diff_set *ds, sunset_result *cur) {
    for (size_t i = 0; i < ds->n; i++) {
        const diff_file *f = &ds->files[i];
        if (!f->path || !in_sorted(&s->files, f->path)) continue;
        char *data = NULL;
        size_t len = 0;
        if (f->symlink) {
            sb abs = {0};
            sb_printf(&abs, "%s/%s", s->root, f->path);
            int e = abs.oom ? ENOMEM : read_file(abs.s, 0, &data, &len);
            sb_free(&abs);
            if (e) {
                fprintf(stderr, "sunset: %s: %s\n", f->path, strerror(e));
                return EXIT_USAGE;
            }
        }
        int e = sunset_engine_scan_buffer(s->eng, f->path, data ? data : f->new_data, data ? len : f->new_len, cur);
        sunset_free(data);
        if (e) {
            fprintf(stderr, "sunset: out of memory scanning %s\n", f->path);
            return EXIT_USAGE;
        }
    }
    cur->root = s->co.display;
    s->co.display = NULL;
    return EXIT_OK;
}

/* A renamed file's content at REV as REV judged it: scanned under its old path (that path's
 * exclusions, generated names, rules' path exemptions) and under its new one, re-keyed to the
 * new name; only what both find is known. When the new path's judge finds there what the old
 * path's did not, the base never judged it: the whole file counts as added. 0, or -1 (OOM). */
static int scan_renamed(scan_ctx *s, diff_file *f, sunset_result *old) {
    sunset_result now = {0}, then = {0};
    bool *keep = NULL;
    int rc = -1;
    if (sunset_engine_scan_buffer(s->eng, f->path, f->old_data, f->old_len, &now) ||
        sunset_engine_scan_buffer(s->eng, f->old_path, f->old_data, f->old_len, &then))
        goto cleanup;
    for (size_t i = 0; i < then.n_findings; i++) {
        char *p = sunset_strndup(f->path, strlen(f->path));
        if (!p) goto cleanup;
        sunset_free(then.findings[i].path);
        then.findings[i].path = p;
    }
    sunset_result_finish(&then); /* fingerprints under the new name */
    if (!(keep = sunset_calloc(now.n_findings ? now.n_findings : 1, sizeof *keep))) goto cleanup;
    for (size_t i = 0; i < now.n_findings; i++) {
        for (size_t k = 0; k < then.n_findings && !keep[i]; k++)
            keep[i] = !strcmp(now.findings[i].fingerprint, then.findings[k].fingerprint);
        if (!keep[i]) f->all_added = true;
    }
    sunset_result_keep(&now, keep);
    rc = sunset_result_absorb(old, &now) ? -1 : 0;
    sunset_result_finish(old);
cleanup:
    sunset_free(keep);
    sunset_result_free(&now);
    sunset_result_free(&then);
    return rc;
}

/* The changed files as they were at REV, into old under their current name so fingerprints
 * line up: a modified file as it was, a deleted one the walk would have taken. A finding is
 * known only where REV judged it: a file renamed from a path the walk does not take (excluded,
 * outside the start paths) is new in full. 0, or EXIT_USAGE after the message. */
static int scan_base(const cli *c, scan_ctx *s, diff_set *ds, const char *rev, sunset_result *old) {
    for (size_t i = 0; i < ds->n; i++) {
        diff_file *f = &ds->files[i];
        if (!f->old_data) continue;
        if (f->path ? !in_sorted(&s->files, f->path) : !path_selected(c, s, f->old_path)) continue;
        bool moved = f->path && strcmp(f->path, f->old_path) != 0;
        if (moved && (!path_selected(c, s, f->old_path) || !under_starts(s, f->old_path))) {
            f->all_added = true;
            continue;
        }
        const char *as = f->path ? f->path : f->old_path;
        if (moved ? scan_renamed(s, f, old)
                  : sunset_engine_scan_buffer(s->eng, as, f->old_data, f->old_len, old)) {
            fprintf(stderr, "sunset: out of memory scanning %s at %s\n", f->old_path, rev);
            return EXIT_USAGE;
        }
    }
    return EXIT_OK;
}

/* Root-relative directories whose files decide the verdict (rules and queries). */
static void trust_dirs(const cli *c, const scan_ctx *s, vec *out) {
    vec all = VEC_INIT(const char *);
    for (size_t i = 0; i < s->cfg.rule_dirs.n; i++) vec_push(&all, &VEC_AT(&s->cfg.rule_dirs, char *, i));
    for (size_t i = 0; i < c->rules.n; i++) vec_push(&all, &VEC_AT(&c->rules, const char *, i));
    if (s->queries) vec_push(&all, &s->queries);
    for (size_t i = 0; i < all.n; i++) {
        char *r = rel_to(s->root, VEC_AT(&all, const char *, i));
        if (r && !vec_push(out, &r)) sunset_free(r);
    }
    vec_free(&all);
}

/* The gate's own findings for a diff mode (analysis/gate.h): changed files it skipped, changes
 * to what decides the verdict, suppressions on added lines. */
static int gate_findings(const cli *c, const scan_ctx *s, const diff_set *ds, const char *cfg_rel,
                         const char *base_rel, sunset_result *cur, sunset_result *gf, const diff_file **edited) {
    for (size_t i = 0; i < cur->n_skipped; i++)
        if (sunset_gate_add_finding(gf, sunset_gate_skip_kind(cur->skipped[i].what), cur->skipped[i].path, cur->skipped[i].line, cur->skipped[i].what))
            return -1;
    if (!c->allow_config_change) {
        vec dirs = VEC_INIT(char *);
        trust_dirs(c, s, &dirs);
        const char *prefix = s->repo_prefix;
        size_t pl = prefix ? strlen(prefix) : 0;
        /* cfg_rel and base_rel are top-relative; the diff's paths root-relative */
        const char *cfg = cfg_rel && !strncmp(cfg_rel, prefix ? prefix : "", pl) ? cfg_rel + pl : NULL;
        const char *bl = base_rel && !strncmp(base_rel, prefix ? prefix : "", pl) ? base_rel + pl : NULL;
        int rc = 0;
        for (size_t i = 0; i < ds->n && !rc; i++) {
            const diff_file *f = &ds->files[i];
            const char *hit = NULL;
            /* the baseline edited in place is the ratchet's to judge (ratchet_findings) */
            if (bl && f->path && f->old_path && !strcmp(f->path, bl) && !strcmp(f->old_path, bl)) {
                *edited = f;
                continue;
            }
            for (int side = 0; side < 2 && !hit; side++) {
                const char *p = side ? f->old_path : f->path;
                if (p && (sunset_gate_is_trust_file(p, bl, (const char *const *)dirs.v, dirs.n) ||
                          (cfg && !strcmp(p, cfg))))
                    hit = p;
            }
            if (hit) rc = sunset_gate_add_finding(gf, GATE_CONFIG, hit, 1, hit);
        }
        for (size_t i = 0; i < dirs.n; i++) sunset_free(VEC_AT(&dirs, char *, i));
        vec_free(&dirs);
        if (rc) return -1;
    }
    if (c->allow_new_suppressions) return 0;
    const diff_file *df = NULL;
    for (size_t i = 0; i < cur->n_findings; i++) {
        const sunset_finding *f = &cur->findings[i];
        if (!f->suppressed) continue;
        if (!df || strcmp(df->path, f->path)) {
            df = NULL;
            for (size_t k = 0; k < ds->n && !df; k++)
                if (ds->files[k].path && !strcmp(ds->files[k].path, f->path)) df = &ds->files[k];
        }
        if (df && diff_line_added(df, f->span.line) &&
            sunset_gate_add_finding(gf, GATE_SUPPRESSION, f->path, f->span.line, f->rule_id))
            return -1;
    }
    return 0;
}

/* The change's edit of the baseline (df), judged against the judgement in run: each entry it
 * adds or drops beyond the ratchet becomes a SUNSET-GATE finding in gf, at the entry's line of
 * the edited baseline (an added one) or at its first line. 0, or -1 on OOM. */
static int ratchet_findings(const cli *c, const scan_ctx *s, const diff_file *df, const sunset_gate_run *run,
                            sunset_result *gf, vec *msgs) {
    char *data = NULL;
    size_t len = 0;
    sb abs = {0};
    if (c->staged) {
        data = df->new_data ? sunset_strndup(df->new_data, df->new_len) : NULL;
        len = df->new_len;
    } else {
        sb_printf(&abs, "%s/%s", s->root, df->path);
        if (abs.oom || read_file(abs.s, 0, &data, &len)) data = NULL;
    }
    sb_free(&abs);
    sunset_known_set edited = {0};
    vec bad = VEC_INIT(sunset_ratchet_violation);
    int rc = 0;
    sunset_error err = {{0}};
    if (!data || baseline_said(sunset_baseline_load_text(df->path, data, len, &edited, &err), &err)) {
        rc = sunset_gate_add_finding(gf, GATE_BASELINE_BAD, df->path, 1, df->path);
    } else if (!(rc = sunset_ratchet_check(run, &edited, &bad))) {
        for (size_t i = 0; i < bad.n && !rc; i++) {
            const sunset_ratchet_violation *v = &VEC_AT(&bad, sunset_ratchet_violation, i);
            uint32_t line = 1;
            /* an added entry's line in the edited baseline, which holds one entry per line */
            const char *at = v->kind == RATCHET_ADDED ? strstr(data, v->fp) : NULL;
            for (const char *p = data; at && p < at; p++) line += *p == '\n';
            sunset_gate_kind k = v->kind == RATCHET_ADDED ? GATE_BASELINE_ADDS : GATE_BASELINE_DROPS;
            /* the message names the entry; msgs owns it for as long as the result lives */
            sb m = {0};
            sb_printf(&m, "%s %s (fingerprint %s). %s", v->kind == RATCHET_ADDED ? "Adds the entry" : "Drops the entry",
                      v->what, v->fp, sunset_gate_message(k));
            char *ms = m.oom ? NULL : sb_take(&m);
            if (!ms || !vec_push(msgs, &ms)) {
                sunset_free(ms);
                rc = -1;
            } else if (!(rc = sunset_gate_add_finding(gf, k, df->path, line, v->what))) {
                gf->findings[gf->n_findings - 1].message = ms;
            }
        }
    }
    sunset_ratchet_violations_free(&bad);
    sunset_known_set_free(&edited);
    sunset_free(data);
    return rc;
}

/* The baseline edit judged (ratchet_findings): when it is more than the ratchet, its gate
 * findings join run->cur and the run is judged again. 0, or -1 on OOM. */
static int rejudge_ratchet(const cli *c, const scan_ctx *s, const diff_file *edited, sunset_gate_run *run,
                           sunset_gate *g, vec *msgs) {
    sunset_result rf = {0};
    int rc = ratchet_findings(c, s, edited, run, &rf, msgs);
    if (!rc && rf.n_findings) {
        for (size_t i = 0; i < run->known->n; i++) {
            run->known->v[i].seen = false;
            run->known->v[i].now = NULL;
        }
        sunset_gate_run_free(run);
        *g = (sunset_gate){.threshold = g->threshold, .list_unused = g->list_unused};
        rc = sunset_result_absorb(run->cur, &rf) ? -1 : 0;
        if (!rc) {
            sunset_result_finish(run->cur);
            rc = sunset_gate_judge(run, g);
        }
    }
    sunset_result_free(&rf);
    return rc;
}

/* Every rule as SARIF's tool.driver.rules[] describes it, and the gate's own two (malformed
 * suppressions, what it could not judge): *n entries, caller frees; NULL on OOM. */
static sunset_rule_info *rule_infos(const sunset_ruleset *rs, size_t *n) {
    sunset_rule_info *infos = sunset_calloc(rs->rules.n + sunset_builtin_rules_n, sizeof *infos);
    if (!infos) return NULL;
    for (size_t i = 0; i < rs->rules.n; i++) {
        const sunset_rule *r = VEC_AT(&rs->rules, sunset_rule *, i);
        infos[i] = (sunset_rule_info){r->id, r->family, r->message, r->fix, r->task, r->sev[SUNSET_CTX_CODE]};
    }
    for (size_t i = 0; i < sunset_builtin_rules_n; i++) {
        const sunset_builtin_rule *b = &sunset_builtin_rules[i];
        infos[rs->rules.n + i] = (sunset_rule_info){b->id, b->family, b->message, b->fix, 0, SUNSET_SEV_ERROR};
    }
    *n = rs->rules.n + sunset_builtin_rules_n;
    return infos;
}

/* Open the checkout as scan_prepare would (which then moves its root up to the tree's), in
 * repo when the caller holds it open. */
static int check_checkout(const cli *c, scan_ctx *s, struct git_repository *repo) {
    char err[PATH_MAX + 256];
    sunset_checkout_req req = {(const char *const *)c->paths.v, c->paths.n, c->root, repo};
    if (sunset_checkout_open(&s->co, &req, err, sizeof err)) {
        fprintf(stderr, "sunset: %s\n", err);
        return EXIT_USAGE;
    }
    return EXIT_OK;
}

static void free_strs(vec *v) {
    for (size_t i = 0; i < v->n; i++) sunset_free(VEC_AT(v, char *, i));
    vec_free(v);
}

static bool has_str(const vec *v, const char *s) {
    for (size_t i = 0; i < v->n; i++)
        if (!strcmp(VEC_AT(v, char *, i), s)) return true;
    return false;
}

/* The baseline (load_baseline), and the one --update-baseline needs. */
static int check_baseline(const cli *c, const base_view *bv, sunset_known_set *ks, char **name, char **rel) {
    int rc = load_baseline(c, bv, ks, name, rel);
    if (rc || !c->update_baseline || *name) return rc;
    return cli_usage_error("--update-baseline: no %s at the top of the work tree to update; write one with "
                           "'sunset baseline' or name one with --baseline FILE", SUNSET_DEFAULT_BASELINE);
}

/* --files-from: a listed file the scan skipped is a gate finding too; then the gate's own
 * findings (gf) join cur. 0, or -1 on OOM. */
static int absorb_gate_findings(const cli *c, sunset_result *cur, sunset_result *gf) {
    for (size_t i = 0; c->files_from && i < cur->n_skipped; i++)
        if (sunset_gate_add_finding(gf, sunset_gate_skip_kind(cur->skipped[i].what), cur->skipped[i].path,
                                    cur->skipped[i].line, cur->skipped[i].what))
            return -1;
    if (!gf->n_findings) return 0;
    if (sunset_result_absorb(cur, gf)) return -1;
    sunset_result_finish(cur);
    return 0;
}

/* --files-from: the listed files (into listed) judged as changed files are, not as far as the
 * walk takes them (it leaves out cache directories and ignored files, which a change can
 * fill); those gone that the walk would have taken into deleted. EXIT_OK, an exit code with
 * its message printed, or -1 on OOM. */
static int listed_files(const cli *c, scan_ctx *s, const base_view *bv, vec *listed, vec *deleted, sunset_result *gf) {
    int rc = read_list(c->files_from, s->root, listed);
    if (rc) return rc;
    for (size_t i = 0; i < listed->n; i++) {
        char *p = VEC_AT(listed, char *, i);
        if (!exists_under(s->root, p) && path_selected(c, s, p)) vec_push(deleted, &p);
    }
    diff_set lds = {.files = sunset_calloc(listed->n ? listed->n : 1, sizeof(diff_file)),
                    .submodules = VEC_INIT(char *)};
    if (!lds.files) return -1;
    for (size_t i = 0; i < listed->n; i++) {
        const char *p = VEC_AT(listed, char *, i);
        diff_file *f = &lds.files[lds.n];
        sb abs = {0};
        struct stat st;
        sb_printf(&abs, "%s/%s", s->root, p);
        f->symlink = !abs.oom && lstat(abs.s, &st) == 0 && S_ISLNK(st.st_mode);
        sb_free(&abs);
        if ((f->path = sunset_strndup(p, strlen(p)))) lds.n++;
    }
    int lrc = lds.n == listed->n ? changed_files(c, s, &lds, bv, gf) : -1;
    diff_set_free(&lds);
    return lrc ? -1 : EXIT_OK;
}

/* A diff mode: the changed files (into ds) replace the walk's, and REV's findings in them
 * (into old) are what fixes are measured against; baseline entries only filter. EXIT_OK, an
 * exit code with its message printed, or -1 on OOM. */
/* scan_prepare_engine on a thread of its own while the diff is collected (prepare_with_diff) */
typedef struct engine_job {
    const cli *c;
    scan_ctx *s;
    int rc;
} engine_job;

static void *engine_thread(void *arg) {
    engine_job *j = arg;
    j->rc = scan_prepare_engine(j->c, j->s);
    return NULL;
}

/* scan_prepare's engine half and the diff at once: the engine compiles the Python queries
 * (~30 ms of CPU without a cache to say they compiled before, README "Caching"), libgit2 stats
 * the work tree; the two largest parts of a one-file pre-commit check, and independent (the
 * engine reads the rules and query files, the diff the repository; nothing prints until
 * both are done, so the messages and their order are as when one ran after the other: the
 * engine's error first). EXIT_OK, or an exit code with its message printed. */
static int prepare_with_diff(const cli *c, scan_ctx *s, const char *rev, diff_set *ds) {
    engine_job job = {c, s, EXIT_OK};
    pthread_t t;
    bool threaded = pthread_create(&t, NULL, engine_thread, &job) == 0;
    char err[768];
    int de = (c->staged ? diff_collect_staged : diff_collect)(&s->co, rev, ds, err, sizeof err);
    if (threaded) pthread_join(t, NULL);
    else job.rc = scan_prepare_engine(c, s);
    if (job.rc) return job.rc;
    if (de) {
        fprintf(stderr, "sunset: %s\n", err);
        return EXIT_USAGE;
    }
    return EXIT_OK;
}

/* The diff's files (collected by prepare_with_diff) as the files to judge, and the base's
 * findings as the known ones. */
static int changed_diff(const cli *c, scan_ctx *s, const char *rev, const base_view *bv, diff_set *ds,
                        sunset_result *old, sunset_known_set *ks, sunset_result *gf) {
    /* a submodule is another repository's commit, not a file of this one */
    for (size_t i = 0; c->verbose && i < ds->submodules.n; i++)
        fprintf(stderr, "sunset: %s: a submodule (gitlink), not a file: not judged; check it in "
                "its own repository\n", VEC_AT(&ds->submodules, char *, i));
    if (changed_files(c, s, ds, bv, gf)) return -1;
    if (scan_base(c, s, ds, rev, old) || keep_judged(c, old)) return EXIT_USAGE;
    for (size_t i = 0; i < ks->n; i++) ks->v[i].in_scope = false;
    for (size_t i = 0; i < old->n_findings; i++)
        if (!old->findings[i].suppressed && sunset_known_add_finding(ks, &old->findings[i], true)) return -1;
    return EXIT_OK;
}

/* --update-baseline: the next baseline written over the one check used (--baseline FILE,
 * else the default one it found), and g told so. EXIT_OK, or an exit code with its message
 * printed. */
static int update_baseline(const cli *c, const sunset_gate_run *run, const base_view *bv, size_t n_baseline,
                           sunset_gate *g) {
    sunset_known_set nb = {0};
    bool bad = sunset_gate_next_baseline(run, c->accept_new, &nb) != 0;
    size_t n = 0;
    sb file = {0};
    if (c->baseline) sb_puts(&file, c->baseline);
    else sb_printf(&file, "%s/%s", bv->top, SUNSET_DEFAULT_BASELINE);
    bad = bad || file.oom;
    sunset_error err = {{0}};
    int wrc = bad ? EXIT_USAGE : baseline_said(sunset_baseline_write(file.s, nb.v, nb.n, &n, &err), &err);
    sb_free(&file);
    if (bad) fprintf(stderr, "sunset: out of memory updating the baseline\n");
    sunset_known_set_free(&nb);
    if (wrc) return wrc;
    g->updated = true;
    g->baseline_before = n_baseline;
    g->baseline_after = n;
    return EXIT_OK;
}

/* --summary FILE, or $GITHUB_STEP_SUMMARY under -f github (appended: other steps' summaries
 * share the file): the Markdown of out. EXIT_OK, an exit code, or -1 on OOM. */
static int write_summary(const cli *c, const sunset_result *out, const sunset_envelope *e) {
    const char *summary = c->summary, *env = getenv("GITHUB_STEP_SUMMARY");
    bool append = false;
    if (!summary && strcmp(doc_format_of(c)->name, "github") == 0 && env && *env) {
        summary = env;
        append = true;
    }
    if (!summary) return EXIT_OK;
    sb md = {0};
    const sunset_writer *mw = doc_format_find(CMD_CHECK, "markdown")->write.findings;
    int rc = !mw || mw->write(out, e, &md) ? -1 : write_summary_file(summary, &md, append);
    sb_free(&md);
    return rc;
}

/* The gate's documents from the judged run (cur, moved here): SARIF (--sarif, or the format)
 * from the full set with each finding's baselineState, as code scanning expects of an
 * upload; the other formats and the summary with only the new findings and the suppressed
 * ones. EXIT_OK, an exit code with its message printed, or -1 on OOM. */
static int check_write(const cli *c, const scan_ctx *s, sunset_result *cur, const sunset_gate_run *run,
                       sunset_gate *g, const char *rev, const char *base_name) {
    const sunset_writer *writer = doc_format_of(c)->write.findings; /* cli_parse checked -f */
    sunset_result out = *cur;
    memset(cur, 0, sizeof *cur);
    sunset_remnants rem = {0}, srem = {0};
    sb doc = {0}, against = {0};
    int rc = -1;
    sunset_gate_against(&against, rev, c->staged, base_name, c->files_from);
    g->against = against.s ? against.s : "";
    sunset_envelope env = scan_envelope(c, s);
    env.gate = g;
    sunset_rule_info *infos = rule_infos(s->rs, &env.n_rules);
    if (!infos) goto cleanup;
    env.rules = infos;
    g->states = run->state;
    /* SARIF's results have one shape in every command: each carries its remnant, as scan's do */
    bool sarif_fmt = strcmp(writer->name, "sarif") == 0;
    if (c->sarif_out || sarif_fmt) {
        if (sunset_remnants_build(&out, s->rs, NULL, rm_chain_write, &srem)) goto cleanup;
        env.remnants = &srem;
    }
    if (c->sarif_out) {
        sb sarif = {0};
        const sunset_writer *sw = doc_format_find(CMD_CHECK, "sarif")->write.findings;
        int bad = !sw || sw->write(&out, &env, &sarif) || sarif.oom;
        rc = bad ? -1 : output_write(c->sarif_out, &sarif);
        sb_free(&sarif);
        if (rc) goto cleanup;
        rc = -1;
    }
    if (!sarif_fmt) {
        env.remnants = NULL;
        sunset_result_keep(&out, run->is_new);
        g->states = NULL;
    }
    /* the gate decides per finding and reports grouped: the text view lists the new findings
     * as remnants (one item per line or statement) unless --findings asks for each; github
     * annotations and JSON stay per finding */
    bool text = strcmp(writer->name, "text") == 0;
    if (text && !c->findings) {
        if (sunset_remnants_build(&out, s->rs, NULL, rm_chain_write, &rem) || sunset_remnants_as_new(&out, &rem))
            goto cleanup;
        env.remnants = &rem;
    }
    if (writer->write(&out, &env, &doc) || doc.oom) goto cleanup;
    if ((rc = write_summary(c, &out, &env))) goto cleanup;
    rc = output_write(c->output, &doc);
cleanup:
    g->against = NULL;
    g->states = NULL;
    sunset_remnants_free(&rem);
    sunset_remnants_free(&srem);
    sunset_result_free(&out);
    sunset_free(infos);
    sb_free(&doc);
    sb_free(&against);
    return rc;
}

/* A check run inside another (whole_change): it judges only, writes nothing and pushes each
 * failing new finding's "path:line:col: RULE" onto verdict_keys (char *, the caller frees),
 * in the outer run's repository, open. */
typedef struct check_inner {
    vec *verdict_keys;
    struct git_repository *repo;
} check_inner;
static int check_run(const cli *c, const check_inner *in);

/* The whole change judged with every rule from the tree's root, as a run with no PATH,
 * directory or --select/--ignore would judge it (nothing written). Its failing findings that
 * this narrowed run did not show (shown) are named on stderr. EXIT_FINDINGS when there are
 * any, EXIT_OK when none, another exit code when that run failed, -1 on OOM. */
static int whole_change(const cli *c, const scan_ctx *s, const vec *shown) {
    cli w = *c; /* its lists are c's, read only: the run derives its own (scan_ctx) */
    vec keys = VEC_INIT(char *);
    const char *top = s->root;
    w.paths = (vec){(void *)&top, 1, 1, sizeof(char *)};
    w.select = (vec)VEC_INIT(const char *);
    w.ignore = (vec)VEC_INIT(const char *);
    w.update_baseline = w.report_unused = false;
    w.output = w.summary = w.sarif_out = NULL;
    w.format = "json";
    w.quiet = true;
    /* the same checkout: its repository is not opened again */
    check_inner in = {&keys, s->co.repo};
    int rc = check_run(&w, &in);
    size_t outside = 0;
    for (size_t i = 0; rc == EXIT_FINDINGS && i < keys.n; i++) {
        const char *k = VEC_AT(&keys, char *, i);
        if (has_str(shown, k)) continue;
        if (!outside++)
            fprintf(stderr, "sunset: gate: the whole change is judged whatever PATH, directory or "
                    "--select/--ignore narrows the view; it also fails on (paths from %s):\n",
                    s->shown && *s->shown ? s->shown : "the tree's root");
        fprintf(stderr, "  %s\n", k);
    }
    if (outside)
        fprintf(stderr, "gate: FAILED: %zu new finding%s outside this run's view\n", outside, outside == 1 ? "" : "s");
    free_strs(&keys);
    return rc;
}

static int check_run(const cli *c, const check_inner *in) {
    vec *verdict_keys = in ? in->verdict_keys : NULL;
    scan_ctx s = {0};
    sunset_result cur = {0}, old = {0}, gf = {0};
    sunset_known_set ks = {0};
    diff_set ds = {0};
    const diff_file *edited = NULL; /* the baseline, edited by the change */
    vec msgs = VEC_INIT(char *);    /* the ratchet's messages, which name entries */
    vec listed = VEC_INIT(char *), deleted = VEC_INIT(char *);
    sunset_gate_run run = {0};
    char *cfg_rel = NULL, *base_name = NULL, *base_rel = NULL;
    sunset_gate g = {0};
    vec mine = VEC_INIT(char *); /* the failing new findings' keys (sunset_gate_failing_keys) */
    int rc = EXIT_USAGE;
    bool diff = c->diff_base || c->staged;
    const char *rev = c->diff_base ? c->diff_base : c->staged ? "HEAD" : NULL;
    bool full = !diff && !c->files_from;
    base_view bv;

    if ((rc = check_options(c, full, &g))) goto cleanup;
    /* the checkout first, once: the diff base's configuration and baseline are read through
     * its repository, and scan_prepare keeps it */
    if ((rc = check_checkout(c, &s, in ? in->repo : NULL))) goto cleanup;
    if ((rc = base_view_init(c, &s.co, diff && !c->allow_config_change ? rev : NULL, &bv))) goto cleanup;
    /* the baseline first: a malformed one stops everything before any scan or write */
    if ((rc = check_baseline(c, &bv, &ks, &base_name, &base_rel))) goto cleanup;
    size_t n_baseline = ks.n;
    /* in a diff mode the configuration is the diff base's, never the change's */
    if (diff && !c->allow_config_change && bv.in_git && (rc = base_config(c, &bv, &s, &cfg_rel))) goto cleanup;
    /* a diff mode judges the changed files only (changed_files): walking the whole tree first
     * was two thirds of a one-file pre-commit check's wall time on a Paddle-sized tree */
    s.no_walk = diff || c->files_from;
    if ((rc = diff ? scan_prepare_files(c, &s) : scan_prepare(c, &s))) goto cleanup;
    if (diff && (rc = prepare_with_diff(c, &s, rev, &ds))) goto cleanup;
    /* which files: all, the listed ones, or the changed ones */
    if (c->files_from) {
        if ((rc = listed_files(c, &s, &bv, &listed, &deleted, &gf))) goto fail;
    } else if (diff) {
        if ((rc = changed_diff(c, &s, rev, &bv, &ds, &old, &ks, &gf))) goto fail;
    }
    /* in scope: a rule this run judges, in a file we scan or one that is gone (and would have
     * been scanned: selected and under a PATH). The rest is neither fixed nor moved, and
     * --update-baseline keeps it as it was. */
    for (size_t i = 0; !diff && i < ks.n; i++) ks.v[i].in_scope = judged(&s, c, &deleted, &ks.v[i]);
    if ((rc = c->staged ? scan_staged(&s, &ds, &cur) : scan_execute(c, &s, &cur))) goto cleanup;
    rc = EXIT_USAGE;
    if (keep_judged(c, &cur)) goto oom;
    /* fail closed: what the scan could not judge in a change is a finding of the gate's own */
    if (diff && gate_findings(c, &s, &ds, cfg_rel, base_rel, &cur, &gf, &edited)) goto oom;
    if (diff) diff_keep_changed_unused(&cur, &old, &ds);
    if (absorb_gate_findings(c, &cur, &gf)) goto oom;

    run = (sunset_gate_run){.cur = &cur, .known = &ks, .diff = diff ? &ds : NULL, .full = full,
                            .n_baseline = n_baseline, .have_baseline = base_name != NULL};
    if (sunset_gate_judge(&run, &g)) goto oom;
    if (edited && rejudge_ratchet(c, &s, edited, &run, &g, &msgs)) goto oom;
    if (c->update_baseline && (rc = update_baseline(c, &run, &bv, n_baseline, &g))) goto cleanup;

    /* a narrowed run compares its failing findings with the whole change's (whole_change) */
    bool narrow = !c->files_from && !verdict_keys && narrowed(c, &s);
    if ((verdict_keys || narrow) && sunset_gate_failing_keys(&cur, &run, &g, verdict_keys ? verdict_keys : &mine))
        goto oom;
    if (verdict_keys) { /* the whole change's verdict, for a narrowed run (whole_change) */
        rc = g.n_failing ? EXIT_FINDINGS : EXIT_OK;
        goto cleanup;
    }
    if ((rc = check_write(c, &s, &cur, &run, &g, rev, base_name))) goto fail;
    rc = g.n_failing ? EXIT_FINDINGS : EXIT_OK;
    /* a PATH, a sub-directory or --select/--ignore narrows what is shown and updated, never the
     * verdict: the whole change is judged once more, and what fails outside the scope fails */
    if (narrow) {
        int wrc = whole_change(c, &s, &mine);
        if (wrc < 0) goto oom;
        if (wrc) rc = wrc;
    }
    goto cleanup;
fail: /* rc: an exit code, its message printed, or -1 on OOM */
    if (rc > 0) goto cleanup;
oom:
    fprintf(stderr, "sunset: out of memory\n");
    rc = EXIT_USAGE;
cleanup:
    sunset_free(cfg_rel);
    sunset_free(base_name);
    sunset_free(base_rel);
    sunset_gate_run_free(&run);
    free_strs(&listed);
    vec_free(&deleted); /* listed's */
    diff_set_free(&ds);
    free_strs(&msgs);
    free_strs(&mine);
    sunset_known_set_free(&ks);
    sunset_result_free(&cur);
    sunset_result_free(&old);
    sunset_result_free(&gf);
    scan_ctx_free(&s);
    return rc;
}

int cmd_check(const cli *c) { return check_run(c, NULL); }
