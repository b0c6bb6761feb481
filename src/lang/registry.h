/*
 * registry.h — the one list of frontends and the language table (src/lang/registry.c).
 *
 * Adding a frontend: its descriptor below, one entry in registry.c's list, SUNSET_N_FRONTENDS
 * bumped (registry.c checks the count at compile time). Adding a file type: one row of the
 * language table in registry.c. Nothing else in the engine names a frontend or an extension.
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

/* Give back the resident code of the frontends' heavy libraries (libclang and the libLLVM
 * under it; base/util.h sunset_release_code_pages): at start, what their static
 * initialisers touched; after a scan, what the parses ran, before the cross-file work
 * allocates. A later parse reads back what it runs. */
void sunset_lang_release_code(void);

/* Language by file name (basename rules: CMakeLists.txt ...; then the extension, compared
 * case-insensitively). */
sunset_lang sunset_lang_for_path(const char *path);
/* Language of a file: by its name, else by the interpreter its shebang (`#!` on the first
 * line of data[0, len)) names, directly or through env (-S, NAME=VALUE and options skipped),
 * by family and any version: python3.11, pypy3, bash ... NONE when neither says. */
sunset_lang sunset_lang_for_file(const char *path, const char *data, size_t len);

/* How a language's toolchain reads source before it sees names (base/normalize.h): C and
 * C++ join line splices first; Python compares identifiers after NFKC. */
#define SUNSET_READS_SPLICES 1u
#define SUNSET_READS_NFKC 2u
unsigned sunset_lang_reads(sunset_lang lang);

/* The source encoding the file declares when it is one sunset does not read (anything but
 * UTF-8 and ASCII, e.g. a Python `# coding: utf-7` on line 1 or 2, PEP 263), copied into buf;
 * NULL when the file is read as UTF-8. The engine skips such a file as unparsable. */
const char *sunset_lang_foreign_encoding(sunset_lang lang, const char *data, size_t len, char *buf, size_t n);
/* The language whose code a file at `path` of `lang` embeds (Markdown, reST, Jupyter notebook
 * code cells: Python), or NONE. */
sunset_lang sunset_lang_embedded(const char *path, sunset_lang lang);
/* "cpp", "python" ... as rules and reports spell them; "none" for an unknown value. */
const char *sunset_lang_name(sunset_lang lang);
/* The inverse of sunset_lang_name; SUNSET_LANG_NONE for an unknown name. */
sunset_lang sunset_lang_from_name(const char *name);

#endif
