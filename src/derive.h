/*
 * derive.h — the scan with the cross-file index attached (src/cmd_removable.c), for the
 * commands that want derived facts: `removable`, and `scan --derive`, which adds one finding
 * (marked derived, with its evidence chain) per item that is legacy only by propagation.
 */
#ifndef SUNSET_DERIVE_H
#define SUNSET_DERIVE_H

#include "index.h"
#include "cmd/session.h"

/* scan_execute with an index attached: on success *ix (caller frees with sunset_index_free)
 * is finished and res filled. Returns an exit code, having printed any error. */
int removable_scan(cli *c, scan_ctx *s, sunset_result *res, sunset_index **ix);

/* scan_execute, then the derived findings appended and the result re-sorted. */
int scan_derive(cli *c, scan_ctx *s, sunset_result *res);

#endif
