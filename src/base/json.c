/*
 * json.c — the checked reading of every JSON document (rule packs, configuration, baselines,
 * tracking manifests, merge inputs, compile databases). cJSON parses; this module adds what
 * it lacks: the error's offset without its global (thread-unsafe) error pointer, line:col
 * of an offset, the source position of a parsed item — found by walking the text in step
 * with the parsed tree, so duplicate keys and repeated values are told apart — and an
 * integer reader that range-checks the double before any conversion.
 */
#include "base/json.h"

#include <math.h>
#include <stdbool.h>

#include "base/util.h"

/* cJSON allocates through the allocation hook, so a test can fail an allocation inside it and
 * count what it leaves live. A failed one is remembered (per thread) to tell json_parse's
 * out of memory from a syntax error: cJSON answers both with NULL. */
static _Thread_local bool json_oom;

static void *json_malloc(size_t n) {
    void *p = sunset_malloc(n);
    if (!p) json_oom = true;
    return p;
}

/* before main(): every program that links this file, tests and fuzzers too, before cJSON
 * allocates anything (memory cJSON took from malloc must never reach sunset_free) */
__attribute__((constructor)) static void json_hooks(void) {
    cJSON_Hooks h = {json_malloc, sunset_free};
    cJSON_InitHooks(&h);
}

cJSON *json_parse(const char *text, size_t len, size_t *err_off) {
    const char *end = NULL;
    json_oom = false;
    /* len + 1: the terminating NUL is part of the buffer, so a NUL inside is an error */
    cJSON *doc = cJSON_ParseWithLengthOpts(text, len + 1, &end, 1);
    if (!doc && err_off)
        *err_off = json_oom ? JSON_OOM : end && end >= text && end <= text + len ? (size_t)(end - text) : 0;
    return doc;
}

void json_parse_error(const char *text, size_t err_off, const char *origin, const char *what, sunset_error *err) {
    if (err_off == JSON_OOM) {
        sunset_error_set(err, "out of memory reading %s", origin);
        return;
    }
    unsigned line, col;
    json_line_col(text, err_off, &line, &col);
    sunset_error_set(err, "%s:%u:%u: %s", origin, line, col, what);
}

void json_line_col(const char *text, size_t off, unsigned *line, unsigned *col) {
    *line = 1;
    *col = 1;
    for (size_t i = 0; i < off && text[i]; i++) {
        if (text[i] == '\n') {
            (*line)++;
            *col = 1;
        } else {
            (*col)++;
        }
    }
}

/* ---- walking the source text of a parsed document ---- */

/* cJSON's whitespace: every byte up to and including ' '. */
static size_t skip_ws(const char *t, size_t len, size_t i) {
    while (i < len && (unsigned char)t[i] <= ' ') i++;
    return i;
}

/* t[i] is '"': the offset after the closing quote. */
static size_t skip_string(const char *t, size_t len, size_t i) {
    for (i++; i < len && t[i] != '"'; i++)
        if (t[i] == '\\') i++;
    return i < len ? i + 1 : len;
}

/* The offset after the value at t[i]; nesting is counted, not recursed into. */
static size_t skip_value(const char *t, size_t len, size_t i) {
    if (i >= len) return len;
    if (t[i] == '"') return skip_string(t, len, i);
    if (t[i] == '{' || t[i] == '[') {
        size_t depth = 0;
        while (i < len) {
            char c = t[i];
            if (c == '"') {
                i = skip_string(t, len, i);
                continue;
            }
            if (c == '{' || c == '[') depth++;
            else if ((c == '}' || c == ']') && --depth == 0) return i + 1;
            i++;
        }
        return len;
    }
    while (i < len && t[i] != ',' && t[i] != ']' && t[i] != '}' && (unsigned char)t[i] > ' ') i++;
    return i;
}

/* node's value starts at t[*at]. True when item is node or below it; then *at is item's
 * offset. The text was accepted by cJSON, so its structure matches the tree; the bounds
 * checks only keep a mismatch (a caller's bug) from reading past the end. Depth is bounded
 * by cJSON's nesting limit. */
static int find(const char *t, size_t len, size_t *at, const cJSON *node, const cJSON *item) {
    if (node == item) return 1;
    if (!cJSON_IsObject(node) && !cJSON_IsArray(node)) return 0;
    int obj = cJSON_IsObject(node);
    size_t i = skip_ws(t, len, *at + 1); /* past '{' or '[' */
    for (const cJSON *c = node->child; c && i < len; c = c->next) {
        if (obj) {
            i = skip_ws(t, len, skip_string(t, len, i)); /* the key */
            if (i < len && t[i] == ':') i++;
            i = skip_ws(t, len, i);
        }
        size_t v = i;
        if (find(t, len, &v, c, item)) {
            *at = v;
            return 1;
        }
        i = skip_ws(t, len, skip_value(t, len, i));
        if (i < len && t[i] == ',') i = skip_ws(t, len, i + 1);
    }
    return 0;
}

size_t json_offset_of(const char *text, size_t len, const cJSON *root, const cJSON *item) {
    size_t i = 0;
    if (len >= 3 && (unsigned char)text[0] == 0xEF && (unsigned char)text[1] == 0xBB &&
        (unsigned char)text[2] == 0xBF)
        i = 3; /* cJSON skips a UTF-8 byte order mark */
    i = skip_ws(text, len, i);
    return root && item && find(text, len, &i, root, item) ? i : 0;
}

void json_item_pos(const char *text, size_t len, const cJSON *root, const cJSON *item,
                   unsigned *line, unsigned *col) {
    json_line_col(text, json_offset_of(text, len, root, item), line, col);
}

/* ---- numbers ---- */

json_int_rc json_get_int(const cJSON *item, long min, long max, long *out) {
    if (!cJSON_IsNumber(item)) return JSON_INT_NOT_NUMBER;
    double d = item->valuedouble;
    /* Compare as doubles before converting. (double)max may round up (LONG_MAX becomes
     * 2^63, which no long holds), hence also the exact bounds of a 64-bit long. */
    if (isnan(d) || d < (double)min || d > (double)max || d < -0x1p63 || d >= 0x1p63)
        return JSON_INT_RANGE;
    if (d != floor(d)) return JSON_INT_NOT_WHOLE;
    long v = (long)d;
    if (v < min || v > max) return JSON_INT_RANGE;
    *out = v;
    return JSON_INT_OK;
}

const char *json_int_error(json_int_rc rc) {
    switch (rc) {
    case JSON_INT_OK: return "ok";
    case JSON_INT_NOT_NUMBER: return "not a number";
    case JSON_INT_NOT_WHOLE: return "not a whole number";
    case JSON_INT_RANGE: break;
    }
    return "number out of range";
}
