/*
 * xflow.h — legacy-object flow across Python modules, for one scan: which module-level names
 * each scanned module leaves bound to a legacy object (its exports, from core/flow.c), which
 * names each module imports from the scanned tree (a text scan of its import statements,
 * resolved to the walked files: relative imports, the importer's own directory, the root and
 * settings.cross_file.import_roots), and, once every file is done, the names each importer
 * binds to another module's legacy object: its premarks, under which the engine scans it
 * again. Engine-private.
 */
#ifndef SUNSET_XFLOW_H
#define SUNSET_XFLOW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/ruleset.h"

typedef struct xflow xflow;

/* The scan's Python files among paths (borrowed: they outlive the xflow). NULL on OOM. */
xflow *xflow_new(const sunset_ruleset *rs, char *const *paths, size_t n);
void xflow_free(xflow *x); /* accepts NULL */

/* Is path one of the scan's Python files? */
bool xflow_has(const xflow *x, const char *path);
/* The imports of path (its bytes) that name a module of the scan. Each file is noted by one
 * thread, once; distinct files may be noted concurrently. */
void xflow_note_imports(xflow *x, const char *path, const char *data, size_t len);
/* path's exports, "FLOW-RULE-ID\tname\n" lines ("" none); copied, once. Returns the text kept
 * ("\n" for none; NULL when path is not one of the scan's), valid until xflow_free: what the
 * content cache keeps as the file's side entry. */
const char *xflow_note_exports(xflow *x, const char *path, const char *text, size_t len);

/* After every file: the importers with premarks, in path order. For each, out(ud, path,
 * premarks) with premarks "FLOW-RULE-ID\tname\n" lines (`train_exe`, `trainer.train_exe`). */
typedef void (*xflow_importer_fn)(void *ud, const char *path, const char *premarks);
void xflow_importers(const xflow *x, xflow_importer_fn out, void *ud);

/* The extra key material of a file scanned under premarks: its content-cache entry is keyed
 * by its path and bytes and by these, so a result cached under other exports (the exporter
 * edited) is not replayed. */
uint64_t xflow_key_material(const char *premarks);

#endif
