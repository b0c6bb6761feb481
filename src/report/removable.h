/*
 * report/removable.h — the removal plan's writers (src/report/removable_write.c) and the one
 * renderer of an evidence chain (src/report/evidence.c).
 */
#ifndef SUNSET_REPORT_REMOVABLE_H
#define SUNSET_REPORT_REMOVABLE_H

#include "analysis/removable.h"

/* Render a chain as text. Returns 0, -1 on OOM. Matches rm_chain_writer. */
int rm_chain_write(sb *out, const rm_step *steps, size_t n);

/* Writers (src/report/removable_write.c). Return 0, -1 on OOM. */
int rm_write_json(const rm_plan *plan, sb *out);
int rm_write_markdown(const rm_plan *plan, sb *out);
/* A `git apply`-able unified diff deleting the patchable items; root is the tree on disk.
 * Returns 0, or an errno value when a file could not be read. */
int rm_write_patch(const rm_plan *plan, const char *root, sb *out);

#endif
