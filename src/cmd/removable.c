/*
 * removable.c — `sunset removable [PATH]`: one scan with the cross-file index attached
 * (scan_with_index, src/cmd/session.c: the index sees every file the engine reads, in the same
 * read), then propagation and the removal plan as Markdown (default) or JSON, or with --patch a unified diff that deletes the
 * provably safe part of it. The patch is verified before it is written (rm_patch_check): one
 * that leaves a reference dangling is a bug, refused with exit 2. --check-patch FILE runs the
 * same check on any patch and exits 1 when a reference dangles; a patch already applied to the
 * tree, or not applying to it, is refused with exit 2 (rm_patch_applies).
 */
#include <errno.h>
#include <string.h>

#include "report/removable.h"
#include "cmd/documents.h"
#include "cmd/session.h"

int cmd_removable(const cli *c) {
    scan_ctx s = {0};
    sunset_result res = {0};
    sunset_index *ix = NULL;
    rm_plan plan = {0};
    sb doc = {0}, msg = {0};
    char *given = NULL; /* the --check-patch file; owned */
    size_t given_len = 0;
    int rc = EXIT_USAGE;
    const doc_format *format = doc_format_of(c); /* cli_parse checked -f */
    if (c->patch && c->check_patch) {
        rc = cli_usage_error("--patch and --check-patch exclude each other");
        goto cleanup;
    }
    if (c->paths.n > 1) {
        rc = cli_usage_error("removable takes one PATH");
        goto cleanup;
    }
    if (c->check_patch) {
        int e = read_file(c->check_patch, 0, &given, &given_len);
        if (e) {
            fprintf(stderr, "sunset: removable: %s: %s\n", c->check_patch, strerror(e));
            goto cleanup;
        }
    }
    if ((rc = scan_prepare(c, &s))) goto cleanup;
    if (c->check_patch) {
        /* a patch already applied, or not applying, checked against this tree says nothing */
        int a = rm_patch_applies(s.root, given ? given : "", given_len, &msg);
        rc = EXIT_USAGE;
        if (a < 0) fprintf(stderr, "sunset: out of memory checking the patch\n");
        if (a > 0) fprintf(stderr, "sunset: removable: %s:%s", c->check_patch, msg.s);
        if (a) goto cleanup;
    }
    if ((rc = scan_with_index(c, &s, &res, &ix))) goto cleanup;
    rc = EXIT_USAGE;
    if (rm_plan_build(ix, s.rs, &res, &plan)) {
        fprintf(stderr, "sunset: out of memory building the removal plan\n");
        goto cleanup;
    }
    int err = 0;
    if (c->check_patch || c->patch) {
        if (c->patch && (err = rm_write_patch(&plan, s.root, &doc))) {
            fprintf(stderr, "sunset: writing the patch: %s\n", strerror(err));
            goto cleanup;
        }
        size_t n = 0;
        int v = c->patch ? rm_patch_check(ix, s.rs, doc.s ? doc.s : "", doc.len, &msg, &n)
                         : rm_patch_check(ix, s.rs, given ? given : "", given_len, &msg, &n);
        if (v < 0) {
            fprintf(stderr, "sunset: out of memory checking the patch\n");
            goto cleanup;
        }
        if (v > 0) {
            fprintf(stderr, "sunset: removable: %s:%s", c->patch ? "(own patch)" : c->check_patch, msg.s);
            goto cleanup;
        }
        if (c->patch && n) {
            /* a patch of ours that fails the check is a bug: never write it */
            fprintf(stderr, "%ssunset: internal error: the patch leaves %zu reference%s dangling; not written\n",
                    msg.s, n, n == 1 ? "" : "s");
            goto cleanup;
        }
        if (c->check_patch) {
            if (msg.len) fputs(msg.s, stdout);
            if (!c->quiet) fprintf(stderr, "sunset: %zu dangling reference%s\n", n, n == 1 ? "" : "s");
            rc = n ? EXIT_FINDINGS : EXIT_OK;
            goto cleanup;
        }
    } else if (format->write.removal(&plan, &doc)) {
        fprintf(stderr, "sunset: out of memory writing the plan\n");
        goto cleanup;
    }
    rc = output_write(c->output, &doc);
cleanup:
    sunset_free(given);
    sb_free(&msg);
    sb_free(&doc);
    rm_plan_free(&plan);
    sunset_index_free(ix);
    sunset_result_free(&res);
    scan_ctx_free(&s);
    return rc;
}
