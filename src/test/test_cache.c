/*
 * test_cache.c — the content cache: a warm scan equals a cold one; a corrupt or truncated
 * cache is ignored where damaged and rewritten whole; a changed rule set uses another
 * namespace; the size bound evicts the least recently used; concurrent runs leave a valid
 * cache; a replayed finding follows today's severity overrides.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <cjson/cJSON.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/cache.h"
#include "shell.h"
#include "core/rules_int.h"

static char dir[64];

/* Same findings and counting stats in two scan documents. */
#define load_(name) test_load_json(dir, name)

static void assert_same_scan(const char *a, const char *b) {
    cJSON *x = load_(a), *y = load_(b);
    assert_non_null(x);
    assert_non_null(y);
    assert_true(cJSON_Compare(cJSON_GetObjectItem(x, "findings"), cJSON_GetObjectItem(y, "findings"), 1));
    const char *keys[] = {"files_scanned", "files_parsed", "files_prefiltered", "skipped", "findings", "warnings"};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        if (!cJSON_Compare(cJSON_GetObjectItem(cJSON_GetObjectItem(x, "stats"), keys[i]),
                           cJSON_GetObjectItem(cJSON_GetObjectItem(y, "stats"), keys[i]), 1))
            fail_msg("stats.%s differs between %s and %s", keys[i], a, b);
    cJSON_Delete(x);
    cJSON_Delete(y);
}

static int scan(const char *out) {
    return test_sh("%s scan --no-config -q -f json --cache %s/cache -o %s/%s testdata/paddle-mini", test_bin(), dir, dir, out);
}

static int setup(void **state) {
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/sunset-cache-XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state) {
    (void)state;
    return test_sh("rm -rf %s", dir);
}

static void warm_equals_cold(void **state) {
    (void)state;
    assert_int_equal(test_sh("%s scan --no-config -q -f json --no-cache -o %s/none.json testdata/paddle-mini", test_bin(), dir), 0);
    assert_int_equal(scan("cold.json"), 0);
    assert_int_equal(test_sh("test $(ls %s/cache/*.cache | wc -l) -eq 1", dir), 0);
    assert_int_equal(scan("warm.json"), 0);
    assert_same_scan("none.json", "cold.json");
    assert_same_scan("cold.json", "warm.json");
    /* -j does not matter with a warm cache either */
    assert_int_equal(test_sh("%s scan --no-config -q -f json -j1 --cache %s/cache -o %s/j1.json testdata/paddle-mini", test_bin(), dir, dir), 0);
    assert_same_scan("cold.json", "j1.json");
}

/* The index's entries come from the cache on a warm run (issue 28): removable, report and
 * scan write byte for byte what a run without a cache writes (elapsed times aside), cold and
 * warm, and a warm run that replays every file leaves the cache file as it was (the same
 * inode: not rewritten), while a changed file is stored and the file rewritten. */
static void warm_index_equals_cold(void **state) {
    (void)state;
    const char *cmds[][2] = {{"removable", "-f json"}, {"report", "-f json"}, {"scan", "-f json"}};
    for (size_t i = 0; i < 3; i++) {
        const char *c = cmds[i][0], *f = cmds[i][1];
        assert_int_equal(test_sh("rm -rf %s/ic && %s %s --no-config -q %s --no-cache testdata/paddle-mini"
                                 " | sed 's/\"elapsed_ms\":[0-9.]*//' > %s/%s-none", dir, test_bin(), c, f, dir, c), 0);
        for (int run = 0; run < 2; run++)
            assert_int_equal(test_sh("%s %s --no-config -q %s --cache %s/ic testdata/paddle-mini"
                                     " | sed 's/\"elapsed_ms\":[0-9.]*//' > %s/%s-%d", test_bin(), c, f, dir, dir, c, run), 0);
        assert_int_equal(test_sh("cmp %s/%s-none %s/%s-0 && cmp %s/%s-none %s/%s-1", dir, c, dir, c, dir, c, dir, c), 0);
    }
    /* untouched by a run that stored nothing */
    assert_int_equal(test_sh("stat -c '%%i %%s' %s/ic/*.cache > %s/inode1 && %s scan --no-config -q -f json --cache %s/ic "
                             "testdata/paddle-mini >/dev/null && stat -c '%%i %%s' %s/ic/*.cache | cmp -s - %s/inode1",
                             dir, dir, test_bin(), dir, dir, dir), 0);
    /* a changed file: stored (appended to the file), and the warm result is the cold one */
    assert_int_equal(test_sh("rm -rf %s/tree && cp -r testdata/paddle-mini %s/tree && "
                             "f=$(cd %s/tree && grep -rl ParallelExecutor --include=*.py . | head -1) && "
                             "echo 'import paddle.fluid as fluid; fluid.ParallelExecutor()' >> %s/tree/$f && "
                             "%s removable --no-config -q -f json --cache %s/ic %s/tree | sed 's/\"elapsed_ms\":[0-9.]*//' > %s/e1 && "
                             "%s removable --no-config -q -f json --no-cache %s/tree | sed 's/\"elapsed_ms\":[0-9.]*//' > %s/e0 && "
                             "cmp %s/e0 %s/e1 && ! stat -c '%%i %%s' %s/ic/*.cache | cmp -s - %s/inode1",
                             dir, dir, dir, dir, test_bin(), dir, dir, dir, test_bin(), dir, dir, dir, dir, dir, dir), 0);
}

/* The index's cached entries follow the settings' macros (settings.macros.roles): a pack that
 * no longer names REGISTER_OPERATOR as an operator's registration, run on the cache the shipped
 * rules filled, gives what it gives without a cache: the legacy file's operator is no longer
 * one a live file uses, so the file goes. A cache keyed without the settings would replay the
 * entry with the registration. */
static void index_follows_macro_roles(void **state) {
    (void)state;
    char bin[PATH_MAX];
    assert_non_null(realpath(test_bin(), bin));
    assert_int_equal(test_sh("cd %s && rm -rf mr && mkdir -p mr/tree/paddle/fluid/framework && cd mr && "
                             "printf 'namespace paddle {\nclass ParallelExecutor {};\n}\nREGISTER_OPERATOR(pe_run, PeRunOp);\n' "
                             "> tree/paddle/fluid/framework/parallel_executor.cc && "
                             "printf 'USE_OP_ITSELF(pe_run);\nint main() { return 0; }\n' > tree/paddle/fluid/framework/runner.cc",
                             dir), 0);
    assert_int_equal(test_sh("mkdir %s/mr/pack && cp rules/*.json %s/mr/pack/ && "
                             "sed -i 's/\"op\": \\[\"REGISTER_OPERATOR\", /\"op\": [/' %s/mr/pack/00-settings.json && "
                             "! grep -q '\"op\": \\[\"REGISTER_OPERATOR' %s/mr/pack/00-settings.json", dir, dir, dir, dir), 0);
    const char *runs[][2] = {{"", "--cache mr/c"}, {"--rules mr/pack", "--cache mr/c"}, {"--rules mr/pack", "--no-cache"}};
    for (int i = 0; i < 3; i++)
        assert_int_equal(test_sh("cd %s && %s removable --no-config %s %s -f json mr/tree | sed 's/\"elapsed_ms\":[0-9.]*//' "
                                 "> mr/r%d", dir, bin, runs[i][0], runs[i][1], i), 0);
    assert_int_equal(test_sh("grep -q 'runner.cc uses op pe_run defined here' %s/mr/r0", dir), 0);
    assert_int_equal(test_sh("cmp %s/mr/r1 %s/mr/r2 && ! grep -q 'uses op pe_run' %s/mr/r1 && "
                             "grep -q '\"status\": \"dead\"' %s/mr/r1", dir, dir, dir, dir), 0);
}

static void corrupt_and_truncated_caches(void **state) {
    (void)state;
    char cmd[512];
    /* flip a byte in the middle of the file: at least one entry's checksum fails */
    snprintf(cmd, sizeof cmd,
             "f=$(ls %s/cache/*.cache) && size=$(stat -c %%s $f) && "
             "printf '\\377\\377\\377\\377' | dd of=$f bs=1 seek=$((size / 2)) conv=notrunc status=none", dir);
    assert_int_equal(system(cmd), 0);
    assert_int_equal(scan("after-corrupt.json"), 0);
    assert_same_scan("cold.json", "after-corrupt.json");
    /* the run rewrote the cache whole: a further run loads it cleanly and hits everything */
    assert_int_equal(scan("again.json"), 0);
    assert_same_scan("cold.json", "again.json");
    /* truncated in the middle of an entry */
    snprintf(cmd, sizeof cmd, "f=$(ls %s/cache/*.cache) && truncate -s $(( $(stat -c %%s $f) / 3 )) $f", dir);
    assert_int_equal(system(cmd), 0);
    assert_int_equal(scan("after-trunc.json"), 0);
    assert_same_scan("cold.json", "after-trunc.json");
    /* not a cache at all */
    snprintf(cmd, sizeof cmd, "f=$(ls %s/cache/*.cache) && echo garbage > $f", dir);
    assert_int_equal(system(cmd), 0);
    assert_int_equal(scan("after-garbage.json"), 0);
    assert_same_scan("cold.json", "after-garbage.json");
}

static void rules_change_the_namespace(void **state) {
    (void)state;
    assert_int_equal(test_sh("rm -rf %s/rules && cp -R rules %s/rules && sed -i 's/Reference to the legacy AsyncExecutor/Use of AsyncExecutor/' %s/rules/async-executor.json", dir, dir, dir), 0);
    assert_int_equal(test_sh("%s scan --no-config -q -f json --rules %s/rules --cache %s/cache -o %s/changed.json testdata/paddle-mini", test_bin(), dir, dir, dir), 0);
    assert_int_equal(test_sh("test $(ls %s/cache/*.cache | wc -l) -eq 2", dir), 0);
    /* the new message shows: nothing was replayed from the old namespace */
    assert_int_equal(test_sh("grep -q 'Use of AsyncExecutor' %s/changed.json", dir), 0);
}

static void concurrent_runs(void **state) {
    (void)state;
    assert_int_equal(test_sh("rm -rf %s/cache", dir), 0);
    assert_int_equal(test_sh("(%s scan --no-config -q -f json --cache %s/cache -o %s/p1.json testdata/paddle-mini & "
                        " %s scan --no-config -q -f json --cache %s/cache -o %s/p2.json testdata/paddle-mini & wait)",
                        test_bin(), dir, dir, test_bin(), dir, dir), 0);
    assert_same_scan("cold.json", "p1.json");
    assert_same_scan("cold.json", "p2.json");
    assert_int_equal(scan("p3.json"), 0);
    assert_same_scan("cold.json", "p3.json");
    /* one cache file, the two marks, no temp file left (besides the stored documents of the
     * warm path and the kept plan, cmd/replay.h) */
    assert_int_equal(test_sh("test $(ls -A %s/cache | grep -vc '[.]\\(result\\|plan\\)$') -eq 3 && test $(ls %s/cache/*.cache | wc -l) -eq 1 && "
                             "grep -qx '[*]' %s/cache/.gitignore && "
                             "head -1 %s/cache/CACHEDIR.TAG | grep -qx 'Signature: 8a477f597d28d172789f06886806bc55'",
                             dir, dir, dir, dir), 0);
}

static const char *pack =
    "{\"schema\":1,\"settings\":{\"families\":[{\"id\":\"parallel_executor\",\"title\":\"PE\"}]},"
    "\"family\":\"parallel_executor\",\"rules\":["
    "{\"id\":\"PE-IDENT\",\"task\":5,\"languages\":[\"python\"],\"severity\":\"error\",\"message\":\"m\",\"fix\":\"f\","
    " \"match\":{\"kind\":\"identifier\",\"names\":[\"ParallelExecutor\"]}}]}";

static void bound_and_severity(void **state) {
    (void)state;
    sunset_error err = {{0}};
    sunset_ruleset *rs = sunset_ruleset_load_string(pack, "p.json", NULL, &err);
    assert_non_null(rs);
    char cdir[128];
    snprintf(cdir, sizeof cdir, "%s/unit", dir);
    /* store 200 one-finding entries; a 4 KiB bound keeps only some of them */
    sunset_cache *c = sunset_cache_open(cdir, 42, rs, 4096);
    assert_non_null(c);
    for (int i = 0; i < 200; i++) {
        sunset_result r = {0};
        sunset_finding f = {0};
        const sunset_rule *rule = sunset_ruleset_find(rs, "PE-IDENT");
        f.rule_id = rule->id;
        f.path = "a.py";
        f.matched = "ParallelExecutor";
        f.snippet = "x = ParallelExecutor()";
        f.span = (sunset_span){(uint32_t)i + 1, 5, (uint32_t)i + 1, 21};
        r.findings = &f;
        r.n_findings = 1;
        sunset_stats before = {0};
        r.stats.files_scanned = 1;
        sunset_cache_store(c, (uint64_t)i + 1, 10, 5, &r, 0, 0, &before);
    }
    assert_int_equal(sunset_cache_save(c), 0);
    sunset_cache_free(c);
    c = sunset_cache_open(cdir, 42, rs, 4096);
    sunset_cache_stats st = sunset_cache_get_stats(c);
    assert_true(st.loaded > 10);
    assert_true(st.loaded < 200);
    assert_int_equal(st.corrupt, 0);
    /* replay recomputes severity from the rule: an override applies to cached findings */
    uint64_t some = 0;
    for (uint64_t k = 200; k >= 1 && !some; k--) {
        sunset_result r = {0};
        if (sunset_cache_replay(c, k, 10, 5, "a.py", &r)) some = k;
        sunset_result_free(&r);
    }
    assert_true(some > 0);
    sunset_ruleset_set_severity(rs, "PE-IDENT", SUNSET_SEV_INFO);
    sunset_result r = {0};
    assert_true(sunset_cache_replay(c, some, 10, 5, "a.py", &r));
    assert_int_equal(r.n_findings, 1);
    assert_int_equal(r.findings[0].severity, SUNSET_SEV_INFO);
    assert_int_equal(r.stats.files_scanned, 1);
    assert_string_equal(r.findings[0].path, "a.py");
    sunset_result_free(&r);
    /* another length or digest for the same key is a miss (both check the content) */
    assert_false(sunset_cache_replay(c, some, 11, 5, "a.py", &r));
    assert_false(sunset_cache_replay(c, some, 10, 6, "a.py", &r));
    assert_int_equal(r.n_findings, 0);
    assert_true(sunset_cache_replay(c, some, 10, 5, "a.py", &r));
    sunset_result_free(&r);
    sunset_cache_free(c);
    /* another namespace sees nothing */
    c = sunset_cache_open(cdir, 43, rs, 4096);
    assert_int_equal(sunset_cache_get_stats(c).loaded, 0);
    sunset_cache_free(c);
    sunset_ruleset_free(rs);
}

/* One stored entry of key k whose finding sits at line k. */
static void store_one(sunset_cache *c, const sunset_ruleset *rs, uint64_t k) {
    sunset_result r = {0};
    sunset_finding f = {0};
    f.rule_id = sunset_ruleset_find(rs, "PE-IDENT")->id;
    f.path = "a.py";
    f.matched = "ParallelExecutor";
    f.snippet = "x = ParallelExecutor()";
    f.span = (sunset_span){(uint32_t)k, 5, (uint32_t)k, 21};
    r.findings = &f;
    r.n_findings = 1;
    sunset_stats before = {0};
    sunset_cache_store(c, k, 10, 5, &r, 0, 0, &before);
}

/* Does the cache replay key k (its finding at line k)? */
static bool replays(sunset_cache *c, uint64_t k) {
    sunset_result r = {0};
    bool ok = sunset_cache_replay(c, k, 10, 5, "a.py", &r) && r.n_findings == 1 && r.findings[0].span.line == k;
    sunset_result_free(&r);
    return ok;
}

static void file_id(const char *path, struct stat *st) { assert_int_equal(stat(path, st), 0); }

/* A run that only stores appends its entries to the file (same inode, longer); the next load
 * has both; a damaged payload is found when the entry is first used, and that run rewrites
 * the file without it (a rewrite never gives damaged bytes a new, agreeing checksum). */
static void appended_and_checked_when_used(void **state) {
    (void)state;
    sunset_error err = {{0}};
    sunset_ruleset *rs = sunset_ruleset_load_string(pack, "p.json", NULL, &err);
    assert_non_null(rs);
    char cdir[128], path[160];
    snprintf(cdir, sizeof cdir, "%s/append", dir);
    snprintf(path, sizeof path, "%s/%016llx.cache", cdir, 45ull);
    sunset_cache *c = sunset_cache_open(cdir, 45, rs, 1 << 20);
    for (uint64_t k = 1; k <= 3; k++) store_one(c, rs, k);
    assert_int_equal(sunset_cache_save(c), 0);
    sunset_cache_free(c);
    struct stat a, b;
    file_id(path, &a);
    c = sunset_cache_open(cdir, 45, rs, 1 << 20);
    assert_true(replays(c, 2));
    store_one(c, rs, 4);
    assert_int_equal(sunset_cache_save(c), 0);
    sunset_cache_free(c);
    file_id(path, &b);
    assert_int_equal(a.st_ino, b.st_ino);
    assert_true(b.st_size > a.st_size);
    c = sunset_cache_open(cdir, 45, rs, 1 << 20);
    for (uint64_t k = 1; k <= 4; k++) assert_true(replays(c, k));
    sunset_cache_free(c);
    /* damage entry 1's matched text ("ParallelExecutor" is in every payload: the first one) */
    assert_int_equal(test_sh("f=%s && off=$(grep -abo ParallelExecutor $f | head -1 | cut -d: -f1) && "
                             "printf Q | dd of=$f bs=1 seek=$off conv=notrunc status=none", path), 0);
    c = sunset_cache_open(cdir, 45, rs, 1 << 20);
    assert_int_equal(sunset_cache_get_stats(c).corrupt, 0); /* not checked at load */
    store_one(c, rs, 5);
    assert_true(replays(c, 3));
    assert_false(replays(c, 1));
    assert_int_equal(sunset_cache_get_stats(c).corrupt, 1);
    assert_int_equal(sunset_cache_save(c), 0);
    sunset_cache_free(c);
    file_id(path, &a);
    assert_true(a.st_ino != b.st_ino); /* rewritten */
    c = sunset_cache_open(cdir, 45, rs, 1 << 20);
    assert_false(replays(c, 1));
    for (uint64_t k = 2; k <= 5; k++) assert_true(replays(c, k));
    assert_int_equal(sunset_cache_get_stats(c).corrupt, 0);
    sunset_cache_free(c);
    /* damaged again and never used: a rewrite (another run wrote the file since) leaves it out */
    assert_int_equal(test_sh("f=%s && off=$(grep -abo ParallelExecutor $f | head -1 | cut -d: -f1) && "
                             "printf Q | dd of=$f bs=1 seek=$off conv=notrunc status=none", path), 0);
    c = sunset_cache_open(cdir, 45, rs, 1 << 20);
    store_one(c, rs, 6);
    assert_int_equal(test_sh("printf x >> %s", path), 0); /* another run's write: no append */
    assert_int_equal(sunset_cache_save(c), 0);
    sunset_cache_free(c);
    c = sunset_cache_open(cdir, 45, rs, 1 << 20);
    int live = 0;
    for (uint64_t k = 2; k <= 6; k++) live += replays(c, k);
    assert_int_equal(live, 4); /* the damaged one is gone, the rest and 6 are there */
    assert_true(replays(c, 6));
    assert_int_equal(sunset_cache_get_stats(c).corrupt, 0);
    sunset_cache_free(c);
    sunset_ruleset_free(rs);
}

/* A prefetch is a hint: it answers nothing, marks nothing used, checks no checksum and leaves
 * the file as it was; the lookups after it find what they would have (a damaged entry is still
 * caught when used), on an empty cache too, and past the eight keys it looks at. */
static void prefetch_changes_nothing(void **state) {
    (void)state;
    sunset_error err = {{0}};
    sunset_ruleset *rs = sunset_ruleset_load_string(pack, "p.json", NULL, &err);
    assert_non_null(rs);
    char cdir[128], path[160];
    snprintf(cdir, sizeof cdir, "%s/prefetch", dir);
    snprintf(path, sizeof path, "%s/%016llx.cache", cdir, 46ull);
    uint32_t tags[10] = {0, 0, 0, SUNSET_CACHE_TAG_VOUCH, SUNSET_CACHE_TAG_INDEX, 0, 0, 0, 0, 0};
    uint64_t keys[10] = {1, 2, 99, 7, 1, 3, 4, 5, 6, 8};
    sunset_cache *c = sunset_cache_open(cdir, 46, rs, 1 << 20);
    sunset_cache_prefetch(c, tags, keys, 10); /* nothing loaded: no table yet */
    for (uint64_t k = 1; k <= 3; k++) store_one(c, rs, k);
    uint64_t rec = 0x1234, out = 0;
    sunset_cache_put_rec(c, SUNSET_CACHE_TAG_VOUCH, 7, 70, &rec, sizeof rec);
    sunset_cache_prefetch(c, tags, keys, 10); /* entries stored by this run */
    assert_int_equal(sunset_cache_save(c), 0);
    sunset_cache_free(c);
    assert_int_equal(test_sh("f=%s && off=$(grep -abo ParallelExecutor $f | head -1 | cut -d: -f1) && "
                             "printf Q | dd of=$f bs=1 seek=$off conv=notrunc status=none", path), 0);
    struct stat a, b;
    file_id(path, &a);
    c = sunset_cache_open(cdir, 46, rs, 1 << 20);
    sunset_cache_prefetch(c, tags, keys, 10);
    sunset_cache_stats st = sunset_cache_get_stats(c);
    assert_int_equal(st.corrupt + st.hits + st.misses + st.stored, 0);
    assert_int_equal(sunset_cache_save(c), 0); /* nothing changed: the file stays as it was */
    file_id(path, &b);
    assert_int_equal(a.st_ino, b.st_ino);
    assert_int_equal(a.st_size, b.st_size);
    assert_int_equal(a.st_mtim.tv_nsec, b.st_mtim.tv_nsec);
    assert_false(replays(c, 1)); /* the damaged one */
    assert_int_equal(sunset_cache_get_stats(c).corrupt, 1);
    assert_true(replays(c, 2) && replays(c, 3));
    assert_false(replays(c, 99));
    assert_true(sunset_cache_get_rec(c, SUNSET_CACHE_TAG_VOUCH, 7, 70, &out, sizeof out));
    assert_true(out == rec);
    sunset_cache_free(c);
    sunset_ruleset_free(rs);
}

/* A replay that finds a rule gone drops the entry's payload (NULL, size 0); saving the cache
 * afterwards appends that empty payload. Regression: sb_putn passed the NULL source to
 * memcpy (undefined even for 0 bytes; UBSan stops `make sanitize` here). */
static void dropped_entry_saves(void **state) {
    (void)state;
    sunset_error err = {{0}};
    sunset_ruleset *rs = sunset_ruleset_load_string(pack, "p.json", NULL, &err);
    assert_non_null(rs);
    char cdir[128];
    snprintf(cdir, sizeof cdir, "%s/dropped", dir);
    sunset_cache *c = sunset_cache_open(cdir, 44, rs, 1 << 20);
    assert_non_null(c);
    sunset_result r = {0};
    sunset_finding f = {0};
    f.rule_id = "PE-GONE"; /* not in the rule set: the replay rejects the entry */
    f.path = "a.py";
    f.matched = "x";
    f.snippet = "x";
    f.span = (sunset_span){1, 1, 1, 2};
    r.findings = &f;
    r.n_findings = 1;
    sunset_stats before = {0};
    sunset_cache_store(c, 7, 10, 5, &r, 0, 0, &before);
    sunset_result got = {0};
    assert_false(sunset_cache_replay(c, 7, 10, 5, "a.py", &got));
    sunset_result_free(&got);
    assert_int_equal(sunset_cache_save(c), 0);
    sunset_cache_free(c);
    /* the key of an empty file: no bytes to hash, possibly no buffer */
    assert_int_equal(sunset_cache_key("a.py", NULL, 0), sunset_cache_key("a.py", "", 0));
    sb b = {0};
    assert_true(sb_putn(&b, NULL, 0));
    assert_int_equal(b.len, 0);
    sb_free(&b);
    sunset_ruleset_free(rs);
}

/* The warning for a cache directory that cannot be written names the real reason. It said
 * "No such file or directory" whenever the directory could not be made (the write that
 * followed failed so), whatever mkdir's reason was. Tests run as root, so permission bits
 * do not stop them: a path under a regular file (ENOTDIR), and a directory in sysfs, which
 * no one may create (EPERM or EROFS, whatever mkdir(2) says here). */
static void unwritable_dir_reason(void **state) {
    (void)state;
    assert_int_equal(test_sh("touch %s/somefile", dir), 0);
    assert_int_equal(test_sh("%s scan --no-config -f json -o /dev/null --cache %s/somefile/sub testdata/trees/small "
                             "2>%s/err; grep -qx 'sunset: warning: cannot write the cache in %s/somefile/sub: Not a "
                             "directory (use --cache DIR or --no-cache)' %s/err",
                             test_bin(), dir, dir, dir, dir), 0);
    const char *sys = "/sys/sunset-cache-test";
    if (mkdir(sys, 0755) == 0) {
        rmdir(sys);
        return; /* a writable /sys: nothing to test here */
    }
    int e = errno;
    if (e == ENOENT) return; /* no sysfs: the reason is ENOENT indeed */
    assert_int_equal(test_sh("%s scan --no-config -f json -o /dev/null --cache %s testdata/trees/small 2>%s/err; "
                             "grep -qx 'sunset: warning: cannot write the cache in %s: %s (use --cache DIR or "
                             "--no-cache)' %s/err",
                             test_bin(), sys, dir, sys, strerror(e), dir), 0);
}

/* Every allocation of opening, replaying from and saving a real cache may fail: each run
 * must end cleanly (a smaller cache, a miss, an unsaved file) and leak nothing. */
static void allocation_failures(void **state) {
    (void)state;
    assert_int_equal(scan("fill.json"), 0);
    char pattern[256], name[256] = {0};
    snprintf(pattern, sizeof pattern, "ls %s/cache/*.cache | head -1 > %s/name", dir, dir);
    assert_int_equal(system(pattern), 0);
    snprintf(pattern, sizeof pattern, "%s/name", dir);
    FILE *nf = fopen(pattern, "r");
    assert_non_null(nf);
    assert_non_null(fgets(name, sizeof name, nf));
    fclose(nf);
    const char *base = strrchr(name, '/') + 1;
    unsigned long long ns = strtoull(base, NULL, 16);
    char *text = NULL;
    size_t len = 0;
    name[strcspn(name, "\n")] = 0;
    assert_int_equal(read_file(name, 0, &text, &len), 0);
    assert_true(len > 32);
    uint64_t key, clen, digest;
    memcpy(&key, text + 16, 8);
    memcpy(&clen, text + 24, 8);
    memcpy(&digest, text + 32, 8);
    sunset_free(text);
    const char *dirs[] = {"rules"};
    sunset_error err = {{0}};
    sunset_ruleset *rs = sunset_ruleset_load(dirs, 1, "queries", &err);
    assert_non_null(rs);
    char cdir[128];
    snprintf(cdir, sizeof cdir, "%s/cache", dir);
    long live = sunset_alloc_live();
    int failed_runs = 0;
    for (long n = 1; n < 200; n++) {
        sunset_alloc_fail_after(n);
        sunset_cache *c = sunset_cache_open(cdir, ns, rs, 0);
        sunset_result r = {0};
        if (c) {
            sunset_cache_replay(c, key, (size_t)clen, digest, "python/paddle/base/compiler.py", &r);
            sunset_cache_save(c);
        } else {
            failed_runs++;
        }
        sunset_alloc_fail_after(0);
        sunset_result_free(&r);
        sunset_cache_free(c);
        assert_int_equal(sunset_alloc_live(), live);
    }
    assert_true(failed_runs > 0);
    /* after all that, the cache on disk is still whole: a scan replays it to the same result */
    assert_int_equal(scan("after-oom.json"), 0);
    assert_same_scan("cold.json", "after-oom.json");
    sunset_ruleset_free(rs);
}

static const char LEGACY[] = "import paddle.fluid as fluid\npe = fluid.ParallelExecutor(None)\n";

/* The binary, absolute: these commands run inside the repositories. */
static const char *abs_bin(void) {
    static char b[PATH_MAX];
    if (!realpath(test_bin(), b)) fail_msg("no sunset binary at %s", test_bin());
    return b;
}

/* A fresh repository r/ under dir holding legacy.py (with `clean` content when asked). */
static void make_repo(const char *name, const char *content) {
    assert_int_equal(test_sh("rm -rf %s/%s && mkdir -p %s/%s && cd %s/%s && git init -q && "
                             "printf '%%s' '%s' > legacy.py", dir, name, dir, name, dir, name, content), 0);
}

/* The number of findings of a scan of dir/name with the default cache (stderr to name.err). */
static int findings_of(const char *name) {
    assert_int_equal(test_sh("cd %s/%s && %s scan --no-config -f json -o ../%s.json . 2>../%s.err", dir, name, abs_bin(),
                             name, name), 0);
    char f[64];
    snprintf(f, sizeof f, "%s.json", name);
    cJSON *doc = load_(f);
    assert_non_null(doc);
    int n = cJSON_GetArraySize(cJSON_GetObjectItem(doc, "findings"));
    cJSON_Delete(doc);
    return n;
}

/* A committed .sunset-cache holding an entry forged for the legacy file (a clean file's entry
 * with the legacy content's key, length and digest) replayed "no findings" in a fresh clone.
 * A tracked cache directory is now neither read nor written. */
static void committed_cache_is_not_replayed(void **state) {
    (void)state;
    make_repo("forge", "x = 1\n");
    assert_int_equal(findings_of("forge"), 0);
    char path[128], *text = NULL;
    size_t len = 0;
    assert_int_equal(test_sh("ls %s/forge/.sunset-cache/*.cache > %s/forge.name", dir, dir), 0);
    snprintf(path, sizeof path, "%s/forge.name", dir);
    assert_int_equal(read_file(path, 0, &text, &len), 0);
    snprintf(path, sizeof path, "%.*s", (int)strcspn(text, "\n"), text);
    sunset_free(text);
    assert_int_equal(read_file(path, 0, &text, &len), 0);
    assert_true(len > 64);
    uint64_t head[3] = {sunset_cache_key("legacy.py", LEGACY, strlen(LEGACY)), strlen(LEGACY),
                        sunset_cache_digest(LEGACY, strlen(LEGACY))};
    memcpy(text + 16, head, sizeof head);
    assert_int_equal(write_file_atomic(path, text, len), 0);
    sunset_free(text);
    assert_int_equal(test_sh("cd %s/forge && printf '%%s' '%s' > legacy.py && git add -f .sunset-cache legacy.py && "
                             "git -c user.name=t -c user.email=t@t commit -qm forged && "
                             "git clone -q . ../forge2 && cd ../forge2 && sha1sum .sunset-cache/* > ../forge2.sum",
                             dir, LEGACY), 0);
    /* the forged entry is what the work tree's cache holds: the clone must not replay it */
    assert_int_equal(findings_of("forge2"), 1);
    assert_int_equal(test_sh("cd %s/forge2 && sha1sum -c --quiet ../forge2.sum && test $(ls -A .sunset-cache | grep -vc '[.]\\(result\\|plan\\)$') -eq 3", dir), 0);
    assert_int_equal(test_sh("grep -q '^sunset: warning: not using the cache in .*/forge2/.sunset-cache: git tracks it' %s/forge2.err", dir), 0);
    /* the same without git's help: untracked, it is the user's own cache again (and reads: no
     * warning); the forged findings entry alone still does not replay, since a Python module's
     * entry goes with the side entry of its exports (core/xflow.c), which the forgery lacks */
    assert_int_equal(test_sh("cd %s/forge2 && git rm -rq --cached .sunset-cache", dir), 0);
    assert_int_equal(findings_of("forge2"), 1);
    assert_int_equal(test_sh("! grep -q 'not using the cache' %s/forge2.err", dir), 0);
}

/* A committed .sunset-cache symlink pointed sunset's writes outside the work tree. */
static void symlinked_cache_is_not_written(void **state) {
    (void)state;
    make_repo("link", LEGACY);
    assert_int_equal(test_sh("mkdir -p %s/outside %s/outside2 && cd %s/link && ln -s ../outside .sunset-cache && "
                             "mkdir sub && ln -s ../../outside2 sub/c && git add -A && "
                             "git -c user.name=t -c user.email=t@t commit -qm link", dir, dir, dir), 0);
    assert_int_equal(findings_of("link"), 1);
    assert_int_equal(test_sh("test -z \"$(ls -A %s/outside)\"", dir), 0);
    assert_int_equal(test_sh("grep -q 'not using the cache in .*: a symbolic link on its path lies in the work tree' %s/link.err", dir), 0);
    /* --cache through a link inside the tree: refused too, whatever the link's name */
    assert_int_equal(test_sh("cd %s/link && %s scan --no-config -q --cache sub/c/x . >/dev/null && test -z \"$(ls -A ../outside2)\"",
                             dir, abs_bin()), 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(warm_equals_cold),
        cmocka_unit_test(warm_index_equals_cold),
        cmocka_unit_test(index_follows_macro_roles),
        cmocka_unit_test(corrupt_and_truncated_caches),
        cmocka_unit_test(rules_change_the_namespace),
        cmocka_unit_test(concurrent_runs),
        cmocka_unit_test(bound_and_severity),
        cmocka_unit_test(dropped_entry_saves),
        cmocka_unit_test(appended_and_checked_when_used),
        cmocka_unit_test(prefetch_changes_nothing),
        cmocka_unit_test(unwritable_dir_reason),
        cmocka_unit_test(allocation_failures),
        cmocka_unit_test(committed_cache_is_not_replayed),
        cmocka_unit_test(symlinked_cache_is_not_written),
    };
    return cmocka_run_group_tests_name("cache", tests, setup, teardown);
}
