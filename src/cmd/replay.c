/*
 * replay.c — the warm path of `scan` (see replay.h). A stored document is one header line,
 * "sunset-replay 1 <key> <exit code> <decimals> <offset> <length>\n", then the document
 * with the elapsed time cut out at offset (decimals -1: the document shows none).
 */
#include "cmd/replay.h"

#include "core/suppress.h"

#include <dirent.h>
#include <fcntl.h>
#include <git2.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static uint64_t hash_str(const char *x, uint64_t h) {
    return x ? hash64(x, strlen(x) + 1, h) : hash64("\1", 1, h ^ 0x5bd1e995u);
}

/* What of the process's environment reaches the document or the exit code. */
static uint64_t env_hash(uint64_t h) {
    static const char *const vars[] = {"NO_COLOR", "FORCE_COLOR", "CLICOLOR_FORCE", "CLICOLOR", "TERM",
                                       "SUNSET_PARSE_BUDGET", "SUNSET_CACHE_DIR", "XDG_CACHE_HOME", "HOME"};
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) h = hash_str(getenv(vars[i]), h);
    char cwd[PATH_MAX];
    h = hash_str(getcwd(cwd, sizeof cwd), h);
    long nums[] = {isatty(1), isatty(2), sysconf(_SC_NPROCESSORS_ONLN), sunset_suppress_today()};
    return hash64(nums, sizeof nums, h);
}

/* The files: each path with its index blob id, else a digest of its bytes. */
static bool files_hash(const scan_ctx *s, uint64_t *h) {
    size_t n = s->files.n;
    bool own = !s->blob_ids || s->n_blob != n; /* scan_vouch's, when it ran */
    uint64_t *ids = own ? sunset_calloc(n ? n : 1, sizeof *ids) : s->blob_ids;
    if (!ids) return false;
    if (own) sunset_checkout_blob_ids(&s->co, (char *const *)s->files.v, n, ids, NULL);
    sb path = {0}, buf = {0};
    bool ok = true;
    for (size_t i = 0; ok && i < n; i++) {
        const char *f = VEC_AT(&s->files, char *, i);
        uint64_t rec[2] = {1, ids[i]};
        if (!ids[i]) {
            path.len = 0;
            sb_printf(&path, "%s/%s", s->root, f);
            /* unreadable or too big: the scan itself decides what it says, so no key */
            ok = !path.oom && read_file_sb(path.s, 0, &buf) == 0;
            rec[0] = 2;
            rec[1] = ok ? hash64(buf.s ? buf.s : "", buf.len, 0x243f6a8885a308d3ull) : 0;
        }
        *h = hash64(rec, sizeof rec, hash_str(f, *h));
    }
    sb_free(&path);
    sb_free(&buf);
    if (own) sunset_free(ids);
    return ok;
}

/* The configuration file's bytes and HEAD's commit: inputs that no walked file carries. */
static bool side_inputs_hash(const scan_ctx *s, uint64_t *h) {
    if (s->cfg.path) {
        char *text = NULL;
        size_t len = 0;
        if (read_file(s->cfg.path, 0, &text, &len)) return false;
        *h = hash64(text, len, hash_str(s->cfg.path, *h));
        sunset_free(text);
    }
    git_oid head;
    if (s->co.repo && git_reference_name_to_id(&head, s->co.repo, "HEAD") == 0) *h = hash64(head.id, sizeof head.id, *h);
    return true;
}

/* Is argv[i] the -o FILE's value (-o FILE, -oFILE, --output=FILE)? Where the document goes is
 * no part of it. */
static bool names_output(const cli *c, int i) {
    const char *a = c->argv[i], *o = c->output;
    return o && o >= a && o < a + strlen(a) + 1;
}

bool replay_key(const cli *c, const scan_ctx *s, uint64_t ns, uint64_t *key) {
    if (!s->cache_dir || s->shard.n || c->shard || c->compdb || s->eo.compile_db_dir || c->no_cache) return false;
    uint64_t h = hash64("sunset-replay-1", 15, ns);
    for (int i = 0; i < c->argc; i++)
        if (!names_output(c, i) && !(i + 1 < c->argc && c->output == c->argv[i + 1])) h = hash_str(c->argv[i], h);
    h = env_hash(h);
    const char *strs[] = {s->root, s->shown, s->repo_prefix, s->co.display, s->queries};
    for (size_t i = 0; i < sizeof strs / sizeof strs[0]; i++) h = hash_str(strs[i], h);
    h = hash64(&s->ws, sizeof s->ws, h);
    long nums[] = {s->eo.jobs, (long)s->files.n};
    h = hash64(nums, sizeof nums, h);
    if (!side_inputs_hash(s, &h) || !files_hash(s, &h)) return false;
    *key = h;
    return true;
}

static void result_path(sb *p, const char *cache_dir, uint64_t key) {
    sb_printf(p, "%s/%016llx.result", cache_dir, (unsigned long long)key);
}

bool replay_try(const cli *c, const char *cache_dir, uint64_t key, double elapsed_ms, int *rc) {
    sb p = {0}, doc = {0};
    result_path(&p, cache_dir, key);
    char *text = NULL;
    size_t len = 0;
    bool ok = !p.oom && read_file(p.s, 0, &text, &len) == 0;
    if (ok) (void)utimensat(AT_FDCWD, p.s, NULL, 0); /* used now: the last to be evicted */
    sb_free(&p);
    if (!ok) return false;
    unsigned long long k;
    int code, dec, used = 0;
    size_t off, n;
    char *nl = memchr(text, '\n', len);
    ok = nl && sscanf(text, "sunset-replay 1 %llx %d %d %zu %zu%n", &k, &code, &dec, &off, &n, &used) == 5 &&
         text + used == nl && k == key && dec >= -1 && dec <= 3 && (size_t)(text + len - nl - 1) == n && off <= n;
    if (ok) {
        const char *body = nl + 1;
        sb_putn(&doc, body, off);
        if (dec >= 0) sb_printf(&doc, "%.*f", dec, elapsed_ms);
        sb_putn(&doc, body + off, n - off);
        ok = !doc.oom;
    }
    if (ok) {
        int w = output_write(c->output, &doc);
        *rc = w ? w : code;
    }
    sb_free(&doc);
    sunset_free(text);
    return ok;
}

/* Where the sentinel stands in sdoc and how many decimals it shows: the offset, or -1 when
 * it is not there once. */
static long sentinel_at(const sb *sdoc, int *dec) {
    static const char digits[] = "987654321";
    const size_t nd = sizeof digits - 1;
    /* by length: a buffer grown for a writer that wrote nothing has no terminator */
    const char *s = sdoc->s ? sdoc->s : "", *end = s + (sdoc->s ? sdoc->len : 0);
    const char *hit = memmem(s, (size_t)(end - s), digits, nd);
    *dec = -1;
    if (!hit) return -2; /* not shown at all */
    if (memmem(hit + 1, (size_t)(end - hit - 1), digits, nd)) return -1;
    const char *e = hit + nd;
    *dec = 0;
    if (e < end && e[0] == '.') {
        while (e + 1 + *dec < end && e[1 + *dec] == '0') (*dec)++;
    }
    return (long)(hit - s);
}

/* Keep the newest REPLAY_KEEP stored documents (each about the size of a scan's JSON: 2 MB on
 * Paddle): every edit of a tree is a new key, and the old ones are rarely wanted again. */
#define REPLAY_KEEP 8
static void evict_old(const char *cache_dir) {
    DIR *d = opendir(cache_dir);
    if (!d) return;
    for (;;) {
        rewinddir(d);
        struct dirent *e;
        size_t n = 0;
        struct timespec oldest = {0, 0};
        char name[NAME_MAX + 1] = "";
        while ((e = readdir(d))) {
            size_t l = strlen(e->d_name);
            struct stat st;
            if (l != 23 || strcmp(e->d_name + 16, ".result") || fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW)) continue;
            n++;
            if (!*name || st.st_mtim.tv_sec < oldest.tv_sec ||
                (st.st_mtim.tv_sec == oldest.tv_sec && st.st_mtim.tv_nsec < oldest.tv_nsec)) {
                oldest = st.st_mtim;
                memcpy(name, e->d_name, l + 1);
            }
        }
        if (n <= REPLAY_KEEP || unlinkat(dirfd(d), name, 0)) break;
    }
    closedir(d);
}

void replay_store(const char *cache_dir, uint64_t key, const sb *doc, const sb *sentinel_doc, double elapsed_ms,
                  int rc) {
    int dec;
    long at = sentinel_at(sentinel_doc, &dec);
    if (at == -1 || !sentinel_doc->s) return;
    size_t off = at < 0 ? 0 : (size_t)at;
    size_t cut = at < 0 ? 0 : strlen("987654321") + (dec > 0 ? 1 + (size_t)dec : 0);
    sb file = {0}, p = {0};
    /* the document this run wrote must be the stored form with this run's time put back (the
     * sentinel doc with its sentinel replaced), else no store; compared in place, not rebuilt
     * (three copies of a 2 MB document were a tenth of a warm run after an edit) */
    const char *sd = sentinel_doc->s, *d = doc->s ? doc->s : "";
    char ms[64] = "";
    if (at >= 0) snprintf(ms, sizeof ms, "%.*f", dec, elapsed_ms);
    size_t ml = strlen(ms), tail = sentinel_doc->len - off - cut;
    bool same = doc->len == off + ml + tail && memcmp(d, sd, off) == 0 && memcmp(d + off, ms, ml) == 0 &&
                memcmp(d + off + ml, sd + off + cut, tail) == 0;
    if (same && sb_grow(&file, off + tail + 128)) {
        sb_printf(&file, "sunset-replay 1 %016llx %d %d %zu %zu\n", (unsigned long long)key, rc, at < 0 ? -1 : dec, off,
                  off + tail);
        sb_putn(&file, sd, off);
        sb_putn(&file, sd + off + cut, tail);
        result_path(&p, cache_dir, key);
        if (!file.oom && !p.oom && write_file_atomic(p.s, file.s, file.len) == 0) evict_old(cache_dir);
    }
    sb_free(&file);
    sb_free(&p);
}

/* ---- the removal plan's cache: <cache>/<namespace>.plan ----
 *
 * The plan is a function of the index's facts, the scan's findings and the rule set: its key
 * is the content cache's namespace (rules, settings, version, binary), the options, the
 * configuration file's bytes, the displayed root, every fact of the index but the files' sizes
 * and line counts (sunset_index_facts_digest) and every field of every finding. An edit that
 * changes neither a fact nor a finding (a comment, a line appended) keeps the plan; the
 * whole files' last lines are then read from this run's index. One plan per namespace is
 * kept: "sunset-plan 1 <key> <length> <checksum>\n" and rm_plan_encode's bytes. */

static uint64_t span_hash(const sunset_span *s, uint64_t h) {
    uint32_t v[4] = {s->line, s->col, s->end_line, s->end_col};
    return hash64(v, sizeof v, h);
}

static uint64_t findings_hash(const sunset_result *res, uint64_t h) {
    h = hash_str(res->root, hash64(&res->n_findings, sizeof res->n_findings, h));
    for (size_t i = 0; i < res->n_findings; i++) {
        const sunset_finding *f = &res->findings[i];
        const char *strs[] = {f->rule_id, f->family, f->message, f->fix, f->path, f->matched, f->snippet,
                              f->enc_kind, f->enc_name, f->justification, f->chain};
        for (size_t k = 0; k < sizeof strs / sizeof strs[0]; k++) h = hash_str(strs[k], h);
        long nums[] = {f->task,       f->severity, f->ctx,       f->test, f->code_string,
                       f->suppressed, f->derived,  f->enc_start, f->enc_end};
        h = span_hash(&f->stmt, span_hash(&f->span, hash64(nums, sizeof nums, h)));
        h = hash64(f->fingerprint, sizeof f->fingerprint, h);
    }
    return h;
}

bool replay_plan_key(const cli *c, const scan_ctx *s, uint64_t ns, const sunset_index *ix, const sunset_result *res,
                     uint64_t *key) {
    if (!s->cache || !s->cache_dir || c->no_cache || s->shard.n || c->shard) return false;
    uint64_t h = hash64("sunset-plan-lean-1", 18, ns); /* scan_plan keeps only the lean plan */
    for (int i = 0; i < c->argc; i++)
        if (!names_output(c, i) && !(i + 1 < c->argc && c->output == c->argv[i + 1])) h = hash_str(c->argv[i], h);
    const char *strs[] = {s->root, s->shown, s->repo_prefix, s->co.display, s->queries};
    for (size_t i = 0; i < sizeof strs / sizeof strs[0]; i++) h = hash_str(strs[i], h);
    if (s->cfg.path) {
        char *text = NULL;
        size_t len = 0;
        if (read_file(s->cfg.path, 0, &text, &len)) return false;
        h = hash64(text, len, hash_str(s->cfg.path, h));
        sunset_free(text);
    }
    if (!sunset_index_facts_digest(ix, h, &h)) return false;
    *key = findings_hash(res, h);
    return true;
}

static void plan_path(sb *p, const char *cache_dir, uint64_t ns) {
    sb_printf(p, "%s/%016llx.plan", cache_dir, (unsigned long long)ns);
}

bool replay_plan_load(const char *cache_dir, uint64_t ns, uint64_t key, const sunset_ruleset *rs,
                      const sunset_index *ix, rm_plan *plan) {
    sb p = {0};
    plan_path(&p, cache_dir, ns);
    char *text = NULL;
    size_t len = 0;
    bool ok = !p.oom && read_file(p.s, 0, &text, &len) == 0;
    sb_free(&p);
    if (!ok) return false;
    unsigned long long k, sum;
    size_t n;
    int used = 0;
    char *nl = memchr(text, '\n', len);
    ok = nl && sscanf(text, "sunset-plan 1 %llx %zu %llx%n", &k, &n, &sum, &used) == 3 && text + used == nl &&
         k == key && (size_t)(text + len - nl - 1) == n && hash64(nl + 1, n, key) == sum &&
         rm_plan_decode(nl + 1, n, rs, plan) == 0;
    if (ok) rm_plan_refresh_lines(plan, ix);
    sunset_free(text);
    return ok;
}

void replay_plan_store(const char *cache_dir, uint64_t ns, uint64_t key, const rm_plan *plan) {
    sb file = {0}, p = {0};
    sb_printf(&file, "sunset-plan 1 %016llx ", (unsigned long long)key);
    size_t head = file.len;
    sb_printf(&file, "%020zu %016llx\n", (size_t)0, 0ull); /* the length and checksum, filled in below */
    size_t body = file.len;
    if (rm_plan_encode(plan, &file) == 0 && !file.oom) {
        char num[40];
        snprintf(num, sizeof num, "%020zu %016llx", file.len - body,
                 (unsigned long long)hash64(file.s + body, file.len - body, key));
        memcpy(file.s + head, num, 37);
        plan_path(&p, cache_dir, ns);
        if (!p.oom) (void)write_file_atomic(p.s, file.s, file.len);
    }
    sb_free(&file);
    sb_free(&p);
}
