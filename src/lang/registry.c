/*
 * registry.c — which frontends exist and which language a file is. The engine asks
 * sunset_frontends() for the list it initialises and sunset_lang_for_path() for each file it
 * scans; rules and reports spell languages through sunset_lang_name / sunset_lang_from_name.
 * Only this file lists frontends, extensions and special basenames. (Shebangs: SHELL is
 * documented as also covering them, but no code looks at a file's first line today; a file
 * without a known name or extension is SUNSET_LANG_NONE and skipped.)
 */
#include "lang/registry.h"

#include "base/util.h"

#include <ctype.h>
#include <stdbool.h>
#include <string.h>

static const sunset_frontend *const frontends[] = {
    &sunset_frontend_clang,
    &sunset_frontend_python,
    &sunset_frontend_text,
};
_Static_assert(sizeof frontends / sizeof frontends[0] == SUNSET_N_FRONTENDS,
               "SUNSET_N_FRONTENDS must count the registry's frontends");

const sunset_frontend *const *sunset_frontends(size_t *n) {
    if (n) *n = SUNSET_N_FRONTENDS;
    return frontends;
}

/* ---- languages: names, then the file-name table ---- */

static const char *const lang_names[SUNSET_LANG_COUNT] = {
    [SUNSET_LANG_NONE] = "none",         [SUNSET_LANG_CPP] = "cpp",
    [SUNSET_LANG_PYTHON] = "python",     [SUNSET_LANG_CMAKE] = "cmake",
    [SUNSET_LANG_PROTO] = "proto",       [SUNSET_LANG_SHELL] = "shell",
    [SUNSET_LANG_MARKDOWN] = "markdown", [SUNSET_LANG_RST] = "rst",
    [SUNSET_LANG_TEXT] = "text",
};

const char *sunset_lang_name(sunset_lang lang) {
    return (unsigned)lang < SUNSET_LANG_COUNT ? lang_names[lang] : "none";
}

sunset_lang sunset_lang_from_name(const char *name) {
    for (int i = 1; i < SUNSET_LANG_COUNT; i++)
        if (strcmp(lang_names[i], name) == 0) return (sunset_lang)i;
    return SUNSET_LANG_NONE;
}

static const struct {
    const char *suffix;
    sunset_lang lang;
} lang_table[] = {
    {".cc", SUNSET_LANG_CPP},     {".cpp", SUNSET_LANG_CPP},    {".cxx", SUNSET_LANG_CPP},
    {".c", SUNSET_LANG_CPP},      {".cu", SUNSET_LANG_CPP},     {".h", SUNSET_LANG_CPP},
    {".hh", SUNSET_LANG_CPP},     {".hpp", SUNSET_LANG_CPP},    {".cuh", SUNSET_LANG_CPP},
    {".inl", SUNSET_LANG_CPP},    {".hxx", SUNSET_LANG_CPP},    {".ipp", SUNSET_LANG_CPP},
    {".ixx", SUNSET_LANG_CPP},    {".pyx", SUNSET_LANG_PYTHON}, {".pxd", SUNSET_LANG_PYTHON},
    {".py", SUNSET_LANG_PYTHON},  {".pyi", SUNSET_LANG_PYTHON}, {".cmake", SUNSET_LANG_CMAKE},
    {".proto", SUNSET_LANG_PROTO}, {".sh", SUNSET_LANG_SHELL},  {".bash", SUNSET_LANG_SHELL},
    {".md", SUNSET_LANG_MARKDOWN}, {".rst", SUNSET_LANG_RST},   {".txt", SUNSET_LANG_TEXT},
    {".cfg", SUNSET_LANG_TEXT},   {".ini", SUNSET_LANG_TEXT},   {".yml", SUNSET_LANG_TEXT},
    {".yaml", SUNSET_LANG_TEXT},  {".toml", SUNSET_LANG_TEXT},  {".in", SUNSET_LANG_TEXT},
    {".spec", SUNSET_LANG_TEXT}, /* API.spec: the API checker's signature list */
    {".ipynb", SUNSET_LANG_TEXT}, /* its JSON lines as text; its code cells: embedded Python */
};

sunset_lang sunset_lang_embedded(const char *path, sunset_lang lang) {
    if (lang == SUNSET_LANG_MARKDOWN || lang == SUNSET_LANG_RST) return SUNSET_LANG_PYTHON;
    const char *dot = strrchr(path, '.');
    return lang == SUNSET_LANG_TEXT && dot && !strcmp(dot, ".ipynb") ? SUNSET_LANG_PYTHON
                                                                    : SUNSET_LANG_NONE;
}

sunset_lang sunset_lang_for_path(const char *path) {
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    if (strcmp(base, "CMakeLists.txt") == 0) return SUNSET_LANG_CMAKE;
    if (strcmp(base, "CODEOWNERS") == 0) return SUNSET_LANG_TEXT;
    const char *dot = strrchr(base, '.');
    if (!dot) return SUNSET_LANG_NONE;
    for (size_t i = 0; i < sizeof lang_table / sizeof lang_table[0]; i++)
        if (strcmp(dot, lang_table[i].suffix) == 0) return lang_table[i].lang;
    return SUNSET_LANG_NONE;
}

unsigned sunset_lang_reads(sunset_lang lang) {
    switch (lang) {
    case SUNSET_LANG_CPP: return SUNSET_READS_SPLICES;
    case SUNSET_LANG_PYTHON: return SUNSET_READS_NFKC;
    default: return 0;
    }
}

/* PEP 263: a comment on line 1 or 2 matching coding[:=]\\s*([-\\w.]+). */
static bool pep263(const char *line, size_t n, char *buf, size_t cap) {
    size_t i = 0;
    while (i < n && (line[i] == ' ' || line[i] == '\t' || line[i] == '\f')) i++;
    if (i >= n || line[i] != '#') return false;
    for (; i + 7 < n; i++) {
        if (memcmp(line + i, "coding", 6) != 0 || (line[i + 6] != ':' && line[i + 6] != '=')) continue;
        size_t k = i + 7, o = 0;
        while (k < n && (line[k] == ' ' || line[k] == '\t')) k++;
        for (; k < n && o + 1 < cap && (isalnum((unsigned char)line[k]) || strchr("-_.", line[k])); k++)
            buf[o++] = line[k] == '_' ? '-' : (char)tolower((unsigned char)line[k]);
        buf[o] = 0;
        return o > 0;
    }
    return false;
}

const char *sunset_lang_foreign_encoding(sunset_lang lang, const char *data, size_t len, char *buf, size_t n) {
    /* a Latin-1 byte such as 0xAA (ª) folds to ASCII under NFKC, so no 8-bit encoding is safe
     * to read as bytes: only the UTF-8 family and ASCII are read */
    static const char *const read_as_utf8[] = {"utf-8", "utf8", "utf-8-sig", "ascii", "us-ascii", NULL};
    if (lang != SUNSET_LANG_PYTHON || n < 2) return NULL;
    const char *p = data, *end = data + len;
    for (int ln = 0; ln < 2 && p < end; ln++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t ll = nl ? (size_t)(nl - p) : (size_t)(end - p);
        if (pep263(p, ll, buf, n)) {
            for (const char *const *ok = read_as_utf8; *ok; ok++)
                if (strcmp(buf, *ok) == 0) return NULL;
            return buf;
        }
        p = nl ? nl + 1 : end;
    }
    return NULL;
}

void sunset_lang_release_code(void) {
    static const char *const heavy[] = {"libLLVM", "libclang", NULL};
    sunset_release_code_pages(heavy);
}
