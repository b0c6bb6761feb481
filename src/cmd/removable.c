/*
 * cmd_removable.c — `sunset removable [PATH]`: one scan with the cross-file index attached
 * (scan_with_index, src/cmd/session.c: the index sees every file the engine reads, in the same
 * read), then propagation and the removal plan as Markdown (default) or JSON, or with --patch a unified diff that deletes the
 * provably safe part of it.
 */
#include <errno.h>
#include <string.h>

#include "report/removable.h"
#include "cmd/session.h"

int cmd_removable(cli *c) {
    scan_ctx s = {0};
    sunset_result res = {0};
    sunset_index *ix = NULL;
    rm_plan plan = {0};
    sb doc = {0};
    int rc = EXIT_USAGE;
    const char *format = c->format ? c->format : "markdown";
    if (!c->patch && strcmp(format, "json") != 0 && strcmp(format, "markdown") != 0) {
        fprintf(stderr, "sunset: removable: unknown format '%s' (known: markdown, json)\n", format);
        goto cleanup;
    }
    if (c->paths.n > 1) {
        rc = cli_usage_error("removable takes one PATH");
        goto cleanup;
    }
    if ((rc = scan_prepare(c, &s))) goto cleanup;
    if ((rc = scan_with_index(c, &s, &res, &ix))) goto cleanup;
    rc = EXIT_USAGE;
    if (rm_plan_build(ix, s.rs, &res, &plan)) {
        fprintf(stderr, "sunset: out of memory building the removal plan\n");
        goto cleanup;
    }
    int err = 0;
    if (c->patch) {
        err = rm_write_patch(&plan, s.root, &doc);
        if (err) {
            fprintf(stderr, "sunset: writing the patch: %s\n", strerror(err));
            goto cleanup;
        }
    } else if (!strcmp(format, "json") ? rm_write_json(&plan, &doc) : rm_write_markdown(&plan, &doc)) {
        fprintf(stderr, "sunset: out of memory writing the plan\n");
        goto cleanup;
    }
    rc = output_write(c->output, &doc);
cleanup:
    sb_free(&doc);
    rm_plan_free(&plan);
    sunset_index_free(ix);
    sunset_result_free(&res);
    scan_ctx_free(&s);
    return rc;
}
