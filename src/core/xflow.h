/*
 * xflow.h — legacy-object flow across Python modules, for one scan: which module-level names
 * each scanned module leaves bound to a legacy object (its exports, from core/flow.c), which
 * names each module imports from the scanned tree (a text scan of its import statements,
 * resolved to the walked files: relative imports, the importer's own directory, the root and
 * settings.cross_file.import_roots; noted as each file is scanned, resolved once all are), and,
 * once every file is done, the names each importer binds to another module's legacy object:
 * its premarks, under which the engine scans it again. Engine-private.
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
 * thread, once; distinct files may be noted concurrently. With keep, returns the import
 * statements read, one a line ("\n" for none; NULL when path is not one of the scan's, or
 * out of memory), valid until xflow_free: what the content cache keeps as a side entry of the
 * file, since noted in place of its bytes they note the same imports (a file the git index
 * vouches for is replayed unread). Without keep, NULL. */
const char *xflow_note_imports(xflow *x, const char *path, const char *data, size_t len, bool keep);
/* path's exports, "FLOW-RULE-ID\tname\n" lines ("" none); copied, once. Returns the text kept
 * ("\n" for none; NULL when path is not one of the scan's), valid until xflow_free: what the
 * content cache keeps as the file's side entry. */
const char *xflow_note_exports(xflow *x, const char *path, const char *text, size_t len);

/* path's first scan ran (it was not replayed) and tied it to Paddle (core/anchor.c). */
void xflow_note_anchored(xflow *x, const char *path);
/* Would scanning path (its bytes as the frontend reads them) again under premarks give its first
 * findings? Yes when its first scan tied it to Paddle already (xflow_note_anchored: the premarks
 * anchor nothing more) and no premark's last name ("ExecutionStrategy" of
 * `compiler.ExecutionStrategy`) occurs in its text: a premark marks a binding of that name, which
 * only a use naming it reaches, and without a flow use the second scan matches what the first
 * did (the prefilter's contract: a rule matches nowhere its literals are absent). */
bool xflow_rescan_moot(const xflow *x, const char *path, const char *premarks, const char *data, size_t len);

/* After every file: the modules with premarks, in path order: importers of exports, and the
 * modules whose functions an importer passes a legacy object to. For each, out(ud, path, at,
 * premarks): at its index among xflow_new's paths, premarks "FLOW-RULE-ID\tname\n" lines
 * (`train_exe`, `trainer.train_exe`; `@evaluate#0`, `@check#=runner`: a parameter of a
 * function of the module). */
typedef void (*xflow_importer_fn)(void *ud, const char *path, size_t at, const char *premarks);
void xflow_importers(xflow *x, xflow_importer_fn out, void *ud);
/* How many import statements xflow_importers resolved: a statement is resolved only when one
 * of its words can name a module with exports at that point (a rescan from out may give a
 * module exports), since only those make premarks. For the tests. */
size_t xflow_resolved(const xflow *x);

/* The extra key material of a file scanned under premarks: its content-cache entry is keyed
 * by its path and bytes and by these, so a result cached under other exports (the exporter
 * edited) is not replayed. */
uint64_t xflow_key_material(const char *premarks);

#endif
