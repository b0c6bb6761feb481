/*
 * cmd/history.c — `sunset history [REV_RANGE]`: the burn-down of legacy findings over git
 * history. Options, the rules and a one-job engine here; the replay in
 * src/analysis/history.c; the CSV, JSON and SVG writers in src/report/history.c. PRs the
 * tracking manifest names are marked on the chart.
 */
#include <cjson/cJSON.h>
#include <dirent.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/documents.h"
#include "cmd/session.h"
#include "report/history.h"

/* ---- the tracking manifest's PRs (rules DIR/tracking/*.json) ---- */

static void collect_prs(const cJSON *j, vec *out) {
    if (cJSON_IsString(j)) {
        const char *s = j->valuestring;
        if (s[0] == '#') {
            char *end;
            long v = strtol(s + 1, &end, 10);
            if (end > s + 1 && !*end && v > 0) vec_push(out, &v);
        }
        return;
    }
    const cJSON *it;
    cJSON_ArrayForEach(it, j) {
        if (cJSON_IsArray(j) || (it->string && (strcmp(it->string, "pr") == 0 || strcmp(it->string, "prs") == 0)))
            collect_prs(it, out);
        else if (cJSON_IsObject(it) || cJSON_IsArray(it))
            collect_prs(it, out);
    }
}

/* Every "#NNN" under a "pr"/"prs" key of the manifests next to the rule directories. */
static void manifest_prs(const scan_ctx *s, vec *out) {
    for (size_t d = 0; d < s->dirs.n; d++) {
        sb dir = {0};
        sb_printf(&dir, "%s/tracking", VEC_AT(&s->dirs, const char *, d));
        DIR *dp = dir.oom ? NULL : opendir(dir.s);
        struct dirent *de;
        while (dp && (de = readdir(dp))) {
            size_t n = strlen(de->d_name);
            if (n < 6 || strcmp(de->d_name + n - 5, ".json")) continue;
            sb p = {0};
            sb_printf(&p, "%s/%s", dir.s, de->d_name);
            char *text = NULL;
            size_t len;
            if (!p.oom && read_file(p.s, 4 << 20, &text, &len) == 0) {
                cJSON *j = cJSON_Parse(text);
                if (j) collect_prs(j, out);
                cJSON_Delete(j);
            }
            sunset_free(text);
            sb_free(&p);
        }
        if (dp) closedir(dp);
        sb_free(&dir);
    }
}

/* A history shard's JSON names its shard and inputs for merge: the two members go right after
 * the '{"version":1,' history_write_json starts with (sunset_own_output knows that head). */
static void shard_stamp(const cli *c, const scan_ctx *s, const vec *paths, const char *range, sb *doc) {
    static const char head0[] = "{\"version\":1,";
    char id[17];
    scan_inputs_id(c, s, paths, range, id);
    sb head = {0};
    sb_puts(&head, head0);
    sb_puts(&head, "\"shard\":");
    sb_put_json_str(&head, c->shard);
    sb_printf(&head, ",\"inputs\":\"%s\",", id);
    if (doc->len >= sizeof head0 - 1) sb_putn(&head, doc->s + sizeof head0 - 1, doc->len - (sizeof head0 - 1));
    head.oom |= doc->oom;
    sb_free(doc);
    *doc = head;
}

/* The repository the history is read from, opened once (base/checkout.c): 0, or EXIT_USAGE
 * after the message (the git library's reason when it is no repository). */
static int history_checkout(const char *repo_dir, sunset_checkout *co) {
    char why[PATH_MAX + 256];
    sunset_checkout_req req = {&repo_dir, 1, NULL, NULL};
    if (sunset_checkout_open(co, &req, why, sizeof why)) {
        fprintf(stderr, "sunset: %s: not a git repository: %s\n", repo_dir, why);
        return EXIT_USAGE;
    }
    if (!co->repo) {
        const git_error *ge = git_error_last();
        fprintf(stderr, "sunset: %s: not a git repository: %s\n", repo_dir, ge && ge->message ? ge->message : "?");
        return EXIT_USAGE;
    }
    return EXIT_OK;
}

int cmd_history(const cli *c) {
    const char *range = c->paths.n ? VEC_AT(&c->paths, const char *, 0) : "HEAD";
    if (c->paths.n > 1) return cli_usage_error("history takes one revision range, e.g. A..B");
    const doc_format *fmt = doc_format_of(c); /* cli_parse checked -f */
    scan_ctx s = {0};
    vec samples = VEC_INIT(history_sample);
    sb doc = {0};
    int rc = EXIT_USAGE;
    const char *repo_dir = c->repo ? c->repo : ".";
    /* the range is not a path: the configuration is the repository's, and a shard's inputs
     * name the repository */
    vec paths = {(void *)&repo_dir, 1, 1, sizeof(char *)};
    s.config_from = repo_dir;
    if ((rc = scan_load_rules(c, &s)) || (rc = scan_add_config_globs(c, &s))) goto cleanup;
    rc = EXIT_USAGE;
    sunset_error err = {{0}};
    s.eo.jobs = 1;
    if (!(s.eng = sunset_engine_new(s.rs, &s.eo, &err))) {
        fprintf(stderr, "sunset: %s\n", err.msg);
        goto cleanup;
    }
    if (cli_shard(c, &s.shard)) goto cleanup;
    history_opts ho = {.include = &s.include, .exclude = &s.exclude, .since = c->since,
                       .max_count = c->max_count, .every = c->every, .shard_i = s.shard.i,
                       .shard_n = s.shard.n, .progress = !c->quiet && isatty(2), .quiet = c->quiet};
    history_stats hs = {0};
    if (history_checkout(repo_dir, &s.co)) goto cleanup;
    if (history_replay(s.eng, &s.co, range, &ho, &samples, &hs, &err)) {
        if (err.msg[0]) fprintf(stderr, "sunset: %s\n", err.msg);
        goto cleanup;
    }
    /* annotate the PRs of the tracking manifest; without a manifest, every PR a subject names */
    vec prs = VEC_INIT(long);
    manifest_prs(&s, &prs);
    for (size_t i = 0; i < samples.n; i++) {
        history_sample *sp = &VEC_AT(&samples, history_sample, i);
        /* a merge brings in many PRs: the manifest's among them are what it is attributed to */
        size_t kept = 0;
        for (size_t j = 0; j < sp->n_prs; j++) {
            bool named = false;
            for (size_t k = 0; k < prs.n && !named; k++) named = VEC_AT(&prs, long, k) == sp->prs[j];
            if (named) sp->prs[kept++] = sp->prs[j];
        }
        sp->tracked = kept > 0 || (sp->n_prs > 0 && !prs.n);
        if (kept) sp->n_prs = kept, sp->pr = sp->prs[0];
    }
    sunset_family_title *fams = sunset_calloc(s.rs->families.n ? s.rs->families.n : 1, sizeof *fams);
    if (!fams) vec_free(&prs);
    size_t nf = s.rs->families.n < HISTORY_MAX_FAMILIES ? s.rs->families.n : HISTORY_MAX_FAMILIES;
    for (size_t f = 0; fams && f < nf; f++) {
        fams[f].id = VEC_AT(&s.rs->families, family_info, f).id;
        fams[f].title = VEC_AT(&s.rs->families, family_info, f).title;
    }
    if (!fams) goto cleanup;
    history_doc hd = {(const history_sample *)samples.v, samples.n, fams, nf, range,
                      c->min_drop > 0 ? (uint32_t)c->min_drop : 10, (const long *)prs.v, prs.n,
                      sunset_ruleset_task_max(s.rs)};
    fmt->write.history(&hd, &doc);
    if (s.shard.n && strcmp(fmt->name, "json") == 0) shard_stamp(c, &s, &paths, range, &doc);
    vec_free(&prs);
    sunset_free(fams);
    if (doc.oom) goto cleanup;
    if (c->verbose)
        fprintf(stderr, "sunset: history: %zu commits, %zu blobs scanned, %zu reused, %zu trees read by the diffs\n",
                samples.n, hs.blobs_scanned, hs.blobs_cached, hs.trees_read);
    rc = output_write(c->output, &doc);
cleanup:
    sb_free(&doc);
    history_samples_free(&samples);
    scan_ctx_free(&s);
    return rc;
}
