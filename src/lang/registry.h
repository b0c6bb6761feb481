/*
 * registry.h — the one list of frontends (src/lang/registry.c). The session (cmd/session.c)
 * hands it to the engine (sunset_engine_opts.frontends); core never includes this file.
 *
 * Adding a frontend: its descriptor below, one entry in registry.c's list, SUNSET_N_FRONTENDS
 * bumped (registry.c checks the count at compile time). Adding a file type: one row of the
 * language table in core/lang.c. Nothing else names a frontend or an extension.
 */
#ifndef SUNSET_LANG_REGISTRY_H
#define SUNSET_LANG_REGISTRY_H

#include <stddef.h>

#include "sunset.h"

/* Each frontend's descriptor, defined in its own file under src/lang/. Tests of one frontend
 * link that frontend alone and call its descriptor directly. */
extern const sunset_frontend sunset_frontend_clang;
extern const sunset_frontend sunset_frontend_python;
extern const sunset_frontend sunset_frontend_text;

/* How many frontends the registry lists: a constant, so that the engine can keep one slot
 * per frontend in fixed-size arrays. */
#define SUNSET_N_FRONTENDS 3

/* The frontends, in the order the engine initialises them (a later one claiming a language
 * wins). Static storage, never freed; *n (when n is not NULL) = SUNSET_N_FRONTENDS. */
const sunset_frontend *const *sunset_frontends(size_t *n);
/* The registry's frontends as engine options (core/engine.h) spell them, for an initialiser:
 * (sunset_engine_opts){SUNSET_ALL_FRONTENDS, .jobs = 1}. */
#define SUNSET_ALL_FRONTENDS .frontends = sunset_frontends(NULL), .n_frontends = SUNSET_N_FRONTENDS

/* Give back the resident code of the frontends' heavy libraries (libclang and the libLLVM
 * under it; base/util.h sunset_release_code_pages): after a scan, what the parses ran, before the cross-file
 * work allocates (what loading them touched is given back when they are opened, on the
 * first parse: lang/clang/libclang.c). A later parse reads back what it runs. */
void sunset_lang_release_code(void);

#endif
