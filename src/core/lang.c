/*
 * lang.c — the language table: which language a file is (sunset_lang_for_path,
 * sunset_lang_for_file), its name as rules and reports spell it, how its toolchain reads it and
 * what it embeds. Only this file lists extensions, special basenames and the interpreters a
 * shebang may name; a file none of them places is SUNSET_LANG_NONE and skipped. Suffixes
 * compare as compilers and Windows do: `.C` and `.CPP` are C++, `.PY` Python. No frontend is
 * named here (the session hands the engine its frontends, lang/registry.h).
 */
#include "core/lang.h"

#include <ctype.h>
#include <stdbool.h>
#include <string.h>
#include <strings.h>

/* ---- languages: names, then the file-name table ---- */

/* One row per language: its name as rules and reports spell it, how its toolchain reads source
 * before it sees names (SUNSET_READS_*), and the language of the code its documents embed. */
static const struct {
    const char *name;
    unsigned reads;
    sunset_lang embeds;
} langs[SUNSET_LANG_COUNT] = {
    [SUNSET_LANG_NONE] = {"none", 0, SUNSET_LANG_NONE},
    [SUNSET_LANG_CPP] = {"cpp", SUNSET_READS_SPLICES, SUNSET_LANG_NONE},
    [SUNSET_LANG_PYTHON] = {"python", SUNSET_READS_NFKC, SUNSET_LANG_NONE},
    [SUNSET_LANG_CMAKE] = {"cmake", 0, SUNSET_LANG_NONE},
    [SUNSET_LANG_PROTO] = {"proto", 0, SUNSET_LANG_NONE},
    [SUNSET_LANG_SHELL] = {"shell", 0, SUNSET_LANG_NONE},
    [SUNSET_LANG_MARKDOWN] = {"markdown", 0, SUNSET_LANG_PYTHON},
    [SUNSET_LANG_RST] = {"rst", 0, SUNSET_LANG_PYTHON},
    [SUNSET_LANG_TEXT] = {"text", 0, SUNSET_LANG_NONE},
};

const char *sunset_lang_name(sunset_lang lang) {
    return (unsigned)lang < SUNSET_LANG_COUNT ? langs[lang].name : "none";
}

sunset_lang sunset_lang_from_name(const char *name) {
    for (int i = 1; i < SUNSET_LANG_COUNT; i++)
        if (strcmp(langs[i].name, name) == 0) return (sunset_lang)i;
    return SUNSET_LANG_NONE;
}

unsigned sunset_lang_reads(sunset_lang lang) {
    return (unsigned)lang < SUNSET_LANG_COUNT ? langs[lang].reads : 0;
}

static const struct {
    const char *suffix;
    sunset_lang lang;
} lang_table[] = {
    {".cc", SUNSET_LANG_CPP},     {".cpp", SUNSET_LANG_CPP},    {".cxx", SUNSET_LANG_CPP},
    {".c++", SUNSET_LANG_CPP},    {".cp", SUNSET_LANG_CPP},     {".c", SUNSET_LANG_CPP},
    {".cu", SUNSET_LANG_CPP},     {".h", SUNSET_LANG_CPP},      {".hh", SUNSET_LANG_CPP},
    {".hpp", SUNSET_LANG_CPP},    {".h++", SUNSET_LANG_CPP},    {".cuh", SUNSET_LANG_CPP},
    {".inl", SUNSET_LANG_CPP},    {".hxx", SUNSET_LANG_CPP},    {".ipp", SUNSET_LANG_CPP},
    {".ixx", SUNSET_LANG_CPP},    {".cppm", SUNSET_LANG_CPP},   {".tpp", SUNSET_LANG_CPP},
    {".txx", SUNSET_LANG_CPP},
    /* what C and C++ include besides headers: X-macro lists, template bodies */
    {".inc", SUNSET_LANG_CPP},    {".tcc", SUNSET_LANG_CPP},    {".def", SUNSET_LANG_CPP},
    /* Paddle's XPU and kernel-primitive sources, C++ compiled by the XPU toolchain */
    {".xpu", SUNSET_LANG_CPP},    {".kps", SUNSET_LANG_CPP},
    {".pyx", SUNSET_LANG_PYTHON}, {".pxd", SUNSET_LANG_PYTHON}, {".pxi", SUNSET_LANG_PYTHON},
    {".py", SUNSET_LANG_PYTHON},  {".pyi", SUNSET_LANG_PYTHON}, {".pyw", SUNSET_LANG_PYTHON},
    {".py3", SUNSET_LANG_PYTHON}, {".cmake", SUNSET_LANG_CMAKE},
    {".proto", SUNSET_LANG_PROTO}, {".sh", SUNSET_LANG_SHELL},  {".bash", SUNSET_LANG_SHELL},
    {".zsh", SUNSET_LANG_SHELL},  {".ksh", SUNSET_LANG_SHELL},
    {".md", SUNSET_LANG_MARKDOWN}, {".rst", SUNSET_LANG_RST},   {".txt", SUNSET_LANG_TEXT},
    {".cfg", SUNSET_LANG_TEXT},   {".ini", SUNSET_LANG_TEXT},   {".yml", SUNSET_LANG_TEXT},
    {".yaml", SUNSET_LANG_TEXT},  {".toml", SUNSET_LANG_TEXT},  {".in", SUNSET_LANG_TEXT},
    {".spec", SUNSET_LANG_TEXT}, /* API.spec: the API checker's signature list */
    {".ipynb", SUNSET_LANG_TEXT}, /* its JSON lines as text; its code cells: embedded Python */
};

/* Files of one language whose code is another's: a notebook's code cells are Python. */
static const struct {
    const char *suffix;
    sunset_lang lang, embeds;
} embed_table[] = {
    {".ipynb", SUNSET_LANG_TEXT, SUNSET_LANG_PYTHON},
};

/* Files known by their whole name (compared exactly: these names are case-sensitive). */
static const struct {
    const char *name;
    sunset_lang lang;
} name_table[] = {
    {"CMakeLists.txt", SUNSET_LANG_CMAKE}, {"CODEOWNERS", SUNSET_LANG_TEXT},
    {"README", SUNSET_LANG_TEXT}, /* a plain README: a model's launch steps (`export FLAGS_x=1`) */
    {"SConstruct", SUNSET_LANG_PYTHON},    {"SConscript", SUNSET_LANG_PYTHON},
};

/* The interpreters a shebang may name, by family: the name as installed, before any version
 * (python3.11, pypy3, bash5) or build tag (python3.13t, python3-dbg, python.exe). */
static const struct {
    const char *name;
    sunset_lang lang;
} interp_table[] = {
    {"python", SUNSET_LANG_PYTHON}, {"pypy", SUNSET_LANG_PYTHON},   {"ipython", SUNSET_LANG_PYTHON},
    {"jython", SUNSET_LANG_PYTHON}, {"graalpy", SUNSET_LANG_PYTHON}, {"pythonw", SUNSET_LANG_PYTHON},
    {"micropython", SUNSET_LANG_PYTHON},
    {"sh", SUNSET_LANG_SHELL},      {"bash", SUNSET_LANG_SHELL},    {"dash", SUNSET_LANG_SHELL},
    {"ash", SUNSET_LANG_SHELL},     {"ksh", SUNSET_LANG_SHELL},     {"mksh", SUNSET_LANG_SHELL},
    {"zsh", SUNSET_LANG_SHELL},     {"yash", SUNSET_LANG_SHELL},
};

/* The suffix of the basename, from its last dot: a file named ".cc" is C++ to a compiler. */
static const char *suffix_of(const char *base) { return strrchr(base, '.'); }

sunset_lang sunset_lang_embedded(const char *path, sunset_lang lang) {
    if ((unsigned)lang >= SUNSET_LANG_COUNT) return SUNSET_LANG_NONE;
    if (langs[lang].embeds != SUNSET_LANG_NONE) return langs[lang].embeds;
    const char *base = strrchr(path, '/');
    const char *dot = suffix_of(base ? base + 1 : path);
    for (size_t i = 0; dot && i < sizeof embed_table / sizeof embed_table[0]; i++)
        if (embed_table[i].lang == lang && !strcasecmp(dot, embed_table[i].suffix)) return embed_table[i].embeds;
    return SUNSET_LANG_NONE;
}

/* Every walked file is placed here (twice a scan): the suffix is folded to lower case once and
 * an entry compared only when its first letter agrees, not a strcasecmp per entry (the table
 * is ASCII and sunset keeps the C locale, so strcasecmp folded ASCII only). */
#define MAX_SUFFIX 8 /* bytes of the longest suffix the table holds, and more */

sunset_lang sunset_lang_for_path(const char *path) {
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    for (size_t i = 0; i < sizeof name_table / sizeof name_table[0]; i++)
        if (base[0] == name_table[i].name[0] && strcmp(base, name_table[i].name) == 0) return name_table[i].lang;
    const char *dot = suffix_of(base);
    if (!dot) return SUNSET_LANG_NONE;
    char low[MAX_SUFFIX + 1];
    size_t n = 0;
    for (; dot[n] && n <= MAX_SUFFIX; n++)
        low[n] = (char)(dot[n] >= 'A' && dot[n] <= 'Z' ? dot[n] - 'A' + 'a' : dot[n]);
    if (n > MAX_SUFFIX) return SUNSET_LANG_NONE; /* longer than any suffix of the table */
    low[n] = 0;
    for (size_t i = 0; i < sizeof lang_table / sizeof lang_table[0]; i++)
        if (lang_table[i].suffix[1] == low[1] && strcmp(low, lang_table[i].suffix) == 0) return lang_table[i].lang;
    return SUNSET_LANG_NONE;
}

/* The family of an interpreter's basename w[0, n): "python3.11", "pypy3", "python3.13t",
 * "python3-dbg", "python.exe" are Python. */
static sunset_lang interp_lang(const char *w, size_t n) {
    if (n > 4 && !strncasecmp(w + n - 4, ".exe", 4)) n -= 4;
    if (n > 4 && !memcmp(w + n - 4, "-dbg", 4)) n -= 4;
    for (size_t i = 0; i < sizeof interp_table / sizeof interp_table[0]; i++) {
        size_t k = strlen(interp_table[i].name);
        if (n < k || memcmp(w, interp_table[i].name, k)) continue;
        size_t j = k;
        while (j < n && (isdigit((unsigned char)w[j]) || w[j] == '.')) j++;
        /* ABI tags after a version: m (pymalloc), d (debug), t (free-threaded) */
        if (j > k && j < n && strchr("mdt", w[j])) j++;
        if (j == n) return interp_table[i].lang;
    }
    return SUNSET_LANG_NONE;
}

/* env's options before the command: -S/--split-string (the rest is split as here), -i, -0,
 * -v, NAME=VALUE; -u NAME and -C DIR take the next word. */
static bool env_skip(const char *w, size_t n, bool *takes_arg) {
    *takes_arg = false;
    if (n == 0 || w[0] != '-') return memchr(w, '=', n) != NULL;
    if ((n == 2 && (w[1] == 'u' || w[1] == 'C' || w[1] == 'P')) ||
        (n == 7 && !memcmp(w, "--unset", 7)) || (n == 7 && !memcmp(w, "--chdir", 7)))
        *takes_arg = true;
    return true;
}

/* The language a `#!` line names: its interpreter, or the command `env` runs. */
static sunset_lang shebang_lang(const char *s, size_t n) {
    bool env = false, arg = false, first = true, uv = false;
    for (size_t i = 2; i < n;) {
        while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r')) i++;
        size_t a = i;
        while (i < n && s[i] != ' ' && s[i] != '\t' && s[i] != '\r') i++;
        if (a == i) break;
        const char *w = s + a;
        size_t wn = i - a;
        if (uv) /* `uv run [--script] FILE` runs a Python script */
            return wn == 3 && !memcmp(w, "run", 3) ? SUNSET_LANG_PYTHON : SUNSET_LANG_NONE;
        if (env && arg) {
            arg = false;
            continue;
        }
        if (env && wn > 2 && w[0] == '-' && w[1] == 'S') { /* -Spython3: the command glued on */
            w += 2;
            wn -= 2;
        } else if (env && env_skip(w, wn, &arg)) {
            continue;
        }
        const char *slash = memrchr(w, '/', wn);
        if (slash) {
            wn -= (size_t)(slash + 1 - w);
            w = slash + 1;
        }
        if (first && wn == 3 && !memcmp(w, "env", 3)) {
            env = true;
            first = false;
            continue;
        }
        if (wn == 2 && !memcmp(w, "uv", 2)) {
            uv = true;
            continue;
        }
        return interp_lang(w, wn);
    }
    return SUNSET_LANG_NONE;
}

sunset_lang sunset_lang_for_file(const char *path, const char *data, size_t len) {
    sunset_lang l = sunset_lang_for_path(path);
    if (l != SUNSET_LANG_NONE || len < 3 || data[0] != '#' || data[1] != '!') return l;
    const char *nl = memchr(data, '\n', len);
    return shebang_lang(data, nl ? (size_t)(nl - data) : len);
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

