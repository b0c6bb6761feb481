/*
 * fuzz_merge.c — libFuzzer harness for `sunset merge` (src/cmd/merge.c): the input's
 * NUL-separated parts (up to four) are the JSON documents of shards, written to files and
 * merged as `sunset merge FILE... -o OUT` does. Whatever they hold (scan or history
 * documents, mixed, malformed), the command exits 0 or 2 after its message, and leaks
 * nothing; a merge that succeeds writes a document that parses back.
 * Seeds: testdata/fuzz/fuzz_merge/, with -dict=testdata/fuzz/json.dict.
 */
#include <stdint.h>

#include <cjson/cJSON.h>

#include "cmd/cli.h"
#include "fuzz_engine.h"

#define MAX_DOCS 4

static char dir[64], files[MAX_DOCS][96], out[96];

static void cleanup(void) {
    for (int i = 0; i < MAX_DOCS; i++) unlink(files[i]);
    unlink(out);
    rmdir(dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv) {
    snprintf(dir, sizeof dir, "/tmp/sunset-fuzz-merge-XXXXXX");
    if (!mkdtemp(dir)) {
        perror("fuzz: mkdtemp");
        exit(2);
    }
    for (int i = 0; i < MAX_DOCS; i++) snprintf(files[i], sizeof files[i], "%s/shard-%d.json", dir, i);
    snprintf(out, sizeof out, "%s/merged.json", dir);
    atexit(cleanup);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len) {
    cli c;
    memset(&c, 0, sizeof c);
    c.paths = VEC_INIT(const char *);
    c.cmd = CMD_MERGE;
    c.command = "merge";
    c.output = out;
    size_t n = 0;
    for (size_t at = 0; at <= len && n < MAX_DOCS; n++) {
        const uint8_t *nul = memchr(data + at, 0, len - at);
        size_t part = nul ? (size_t)(nul - (data + at)) : len - at;
        fuzz_write(files[n], data + at, part);
        const char *f = files[n];
        if (!vec_push(&c.paths, &f)) abort();
        at += part + 1;
    }
    unlink(out);
    long live = sunset_alloc_live();
    int rc = cmd_merge(&c);
    if (rc != EXIT_OK && rc != EXIT_USAGE) abort();
    fuzz_check_live(live, "merging");
    vec_free(&c.paths);
    if (rc == EXIT_OK) {
        char *text = NULL;
        size_t tlen;
        if (read_file(out, 0, &text, &tlen) != 0) abort();
        cJSON *back = cJSON_ParseWithLength(text, tlen);
        if (!back) {
            fprintf(stderr, "fuzz: the merged document does not parse back\n");
            abort();
        }
        cJSON_Delete(back);
        sunset_free(text);
    }
    return 0;
}
