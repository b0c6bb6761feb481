/*
 * test_shard.c — sharded runs joined by `sunset merge` equal the unsharded run: scan shards
 * of testdata/paddle-mini (findings and counting stats), and history shards of the sample
 * repository (every commit in its place). Also: merge refuses mixed and malformed inputs, and
 * documents that are not every shard of one run exactly once.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "shell.h"

static char dir[64];

#define load_(name) test_load_json(dir, name)

static int setup(void **state) {
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/sunset-shard-XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state) {
    (void)state;
    return test_sh("rm -rf %s", dir);
}

static void scan_shards_merge_to_the_whole(void **state) {
    (void)state;
    for (int i = 1; i <= 3; i++)
        assert_int_equal(test_sh("%s scan --no-config -q -f json --shard %d/3 -o %s/s%d.json testdata/paddle-mini", test_bin(), i, dir, i), 0);
    assert_int_equal(test_sh("%s scan --no-config -q -f json -o %s/full.json testdata/paddle-mini", test_bin(), dir), 0);
    assert_int_equal(test_sh("%s merge -o %s/m.json %s/s3.json %s/s1.json %s/s2.json", test_bin(), dir, dir, dir, dir), 0);
    cJSON *m = load_("m.json"), *f = load_("full.json");
    assert_non_null(m);
    assert_non_null(f);
    /* A shard has no liveness (the plan needs the whole tree), so its findings keep their rules'
     * severities, which the whole scan's remnants may only lower (README "Severity"); all else
     * is the same. */
    cJSON *mf = cJSON_GetObjectItem(m, "findings"), *ff = cJSON_GetObjectItem(f, "findings");
    assert_int_equal(cJSON_GetArraySize(mf), cJSON_GetArraySize(ff));
    static const char *const order[] = {"info", "warning", "error"};
    size_t lowered = 0;
    for (int i = 0; i < cJSON_GetArraySize(mf); i++) {
        cJSON *a = cJSON_GetArrayItem(mf, i), *b = cJSON_GetArrayItem(ff, i);
        cJSON *sa = cJSON_DetachItemFromObject(a, "severity"), *sb = cJSON_DetachItemFromObject(b, "severity");
        int ra = -1, rb = -1;
        for (int k = 0; k < 3; k++) {
            if (!strcmp(sa->valuestring, order[k])) ra = k;
            if (!strcmp(sb->valuestring, order[k])) rb = k;
        }
        assert_true(ra >= 0 && rb >= 0 && rb <= ra);
        lowered += rb < ra;
        cJSON_Delete(sa);
        cJSON_Delete(sb);
    }
    assert_true(lowered > 0); /* the whole scan settled some: the comparison above means something */
    assert_true(cJSON_Compare(mf, ff, 1));
    const char *keys[] = {"files_seen", "files_scanned", "files_parsed", "files_prefiltered", "skipped",
                          "findings", "by_family", "bytes_read"};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        if (!cJSON_Compare(cJSON_GetObjectItem(cJSON_GetObjectItem(m, "stats"), keys[i]),
                           cJSON_GetObjectItem(cJSON_GetObjectItem(f, "stats"), keys[i]), 1))
            fail_msg("stats.%s differs after merge", keys[i]);
    /* every shard got some of the work */
    for (int i = 1; i <= 3; i++) {
        char name[16];
        snprintf(name, sizeof name, "s%d.json", i);
        cJSON *s = load_(name);
        assert_true(cJSON_GetArraySize(cJSON_GetObjectItem(s, "findings")) > 0);
        cJSON_Delete(s);
    }
    cJSON_Delete(m);
    cJSON_Delete(f);
}

static void history_shards_merge_to_the_whole(void **state) {
    (void)state;
    assert_int_equal(test_sh("sh scripts/sample-history.sh %s/repo >/dev/null 2>&1", dir), 0);
    for (int i = 1; i <= 2; i++)
        assert_int_equal(test_sh("%s history --no-config -q --repo %s/repo --shard %d/2 -f json -o %s/h%d.json", test_bin(), dir, i, dir, i), 0);
    assert_int_equal(test_sh("%s history --no-config -q --repo %s/repo -f json -o %s/hfull.json", test_bin(), dir, dir), 0);
    assert_int_equal(test_sh("%s merge -o %s/hm.json %s/h2.json %s/h1.json", test_bin(), dir, dir, dir), 0);
    cJSON *m = load_("hm.json"), *f = load_("hfull.json");
    assert_non_null(m);
    assert_true(cJSON_Compare(m, f, 1));
    cJSON_Delete(m);
    cJSON_Delete(f);
}

static void merge_refuses_bad_input(void **state) {
    (void)state;
    assert_int_equal(test_sh("%s merge %s/s1.json %s/h1.json >/dev/null 2>&1", test_bin(), dir, dir), 2);
    assert_int_equal(test_sh("printf '{\"findings\": [' > %s/bad.json", dir), 0);
    assert_int_equal(test_sh("%s merge %s/bad.json 2>%s/err >/dev/null", test_bin(), dir, dir), 2);
    assert_int_equal(test_sh("grep -q 'bad.json:1:.*invalid JSON' %s/err", dir), 0);
    assert_int_equal(test_sh("%s merge 2>/dev/null", test_bin()), 2);
    assert_int_equal(test_sh("%s scan --shard 4/3 testdata/paddle-mini 2>/dev/null", test_bin()), 2);
}

/* merge takes every shard of one run once: each other case is exit 2 naming the file and shard */
static void merge_checks_shard_identity(void **state) {
    (void)state;
    char b[4096]; /* absolute: the merges run in dir so that errors name the files as given */
    assert_non_null(realpath(test_bin(), b));
#define MERGE_FAILS(files, pattern)                                                              \
    do {                                                                                        \
        assert_int_equal(test_sh("cd %s && %s merge " files " 2>err >out", dir, b), 2);         \
        assert_int_equal(test_sh("cd %s && grep -q '" pattern "' err && test ! -s out || { cat err out >&2; exit 1; }", dir), 0); \
    } while (0)
    /* each shard records itself and the run's inputs; all three agree on the inputs */
    assert_int_equal(test_sh("cd %s && grep -Eq '^[{]\"version\":[0-9]+,\"root\":\"[^\"]*\",\"shard\":\"2/3\",\"inputs\":\"[0-9a-f]{16}\"' s2.json", dir), 0);
    assert_int_equal(test_sh("cd %s && test $(grep -ho '\"inputs\":\"[0-9a-f]*\"' s1.json s2.json s3.json | sort -u | wc -l) = 1", dir), 0);
    MERGE_FAILS("s1.json s2.json s1.json", "^sunset: s1.json: shard 1/3 is given twice (also s1.json)$");
    assert_int_equal(test_sh("cp %s/s2.json %s/again.json", dir, dir), 0);
    MERGE_FAILS("s1.json s2.json s3.json again.json", "^sunset: again.json: shard 2/3 is given twice (also s2.json)$");
    MERGE_FAILS("s1.json s3.json", "^sunset: 1 of 3 shards missing: 2/3$");
    /* another run: other options (--no-ignore), other paths, another shard count */
    assert_int_equal(test_sh("%s scan --no-config -q -f json --no-ignore --shard 3/3 -o %s/o3.json testdata/paddle-mini", b, dir), 0);
    MERGE_FAILS("s1.json s2.json o3.json", "^sunset: o3.json: shard 3/3 is foreign: another run.s inputs than s1.json");
    assert_int_equal(test_sh("%s scan --no-config -q -f json --shard 3/3 -o %s/p3.json testdata/paddle-mini/python", b, dir), 0);
    MERGE_FAILS("s1.json s2.json p3.json", "^sunset: p3.json: shard 3/3 is foreign: another run.s inputs");
    assert_int_equal(test_sh("%s scan --no-config -q -f json --shard 3/4 -o %s/q3.json testdata/paddle-mini", b, dir), 0);
    MERGE_FAILS("s1.json s2.json q3.json", "^sunset: q3.json: shard 3/4 is foreign: s1.json is a shard of 3$");
    /* an unsharded document is no shard; nor is a forged "shard" */
    MERGE_FAILS("full.json", "^sunset: full.json: not a shard");
    assert_int_equal(test_sh("cd %s && sed 's|\"shard\":\"1/3\"|\"shard\":\"0/3\"|' s1.json > z.json", dir), 0);
    MERGE_FAILS("z.json s2.json s3.json", "^sunset: z.json: shard \"0/3\" is not I/N");
    /* history: a shard of another range is foreign */
    assert_int_equal(test_sh("%s history --no-config -q --repo %s/repo --shard 2/2 -f json -o %s/hx.json HEAD~2", b, dir, dir), 0);
    MERGE_FAILS("h1.json hx.json", "^sunset: hx.json: shard 2/2 is foreign");
    MERGE_FAILS("h1.json h1.json", "^sunset: h1.json: shard 1/2 is given twice");
    MERGE_FAILS("h2.json", "^sunset: 1 of 2 shards missing: 1/2$");
#undef MERGE_FAILS
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(scan_shards_merge_to_the_whole),
        cmocka_unit_test(history_shards_merge_to_the_whole),
        cmocka_unit_test(merge_refuses_bad_input),
        cmocka_unit_test(merge_checks_shard_identity),
    };
    return cmocka_run_group_tests_name("shard", tests, setup, teardown);
}
