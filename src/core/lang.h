/*
 * lang.h — the language table (src/core/lang.c): which language a file is, how its toolchain
 * reads it and what it embeds. It names no frontend: the session hands the engine those
 * (src/lang/registry.h). Every tier from core up may use it.
 */
#ifndef SUNSET_CORE_LANG_H
#define SUNSET_CORE_LANG_H

#include <stddef.h>

#include "sunset.h"

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
