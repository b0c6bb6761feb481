/*
 * json.h — reading JSON documents with cJSON, checked: parsing with the error's offset,
 * offset -> line:col, the position of any item of a parsed document in its source text
 * (cJSON keeps none), and one integer reader that rejects what a C integer cannot hold.
 * Free of sunset semantics: callers word their own messages (json_parse_error fills the one
 * error type with the position, or with out of memory).
 */
#ifndef SUNSET_JSON_H
#define SUNSET_JSON_H

#include <cjson/cJSON.h>
#include <stddef.h>

#include "sunset.h"

/* Parse text[0, len) as one JSON value; text[len] must be 0 (read_file's buffers are), and
 * a NUL inside the text is an error, not the end of the document. Returns the document
 * (caller frees with cJSON_Delete) or NULL with *err_off set to the offset of the error, or
 * to JSON_OOM when an allocation failed. Thread-safe (does not use cJSON's global error
 * pointer). cJSON allocates through the allocation hook (base/util.h), installed before
 * main(): what it returns (cJSON_Print's text) is freed with cJSON_free or sunset_free. */
#define JSON_OOM ((size_t)-1)
cJSON *json_parse(const char *text, size_t len, size_t *err_off);

/* The message of a json_parse that failed with err_off, into err: "out of memory reading
 * ORIGIN" for JSON_OOM, else "ORIGIN:LINE:COL: WHAT" ("invalid JSON"). */
void json_parse_error(const char *text, size_t err_off, const char *origin, const char *what, sunset_error *err);

/* 1-based line and column of byte offset `off` of text; counting stops at a NUL. */
void json_line_col(const char *text, size_t off, unsigned *line, unsigned *col);

/* Byte offset in text[0, len) of the value of `item`, which belongs to `root`, parsed from
 * that text by json_parse. 0 (the document's start) when item is not in root. */
size_t json_offset_of(const char *text, size_t len, const cJSON *root, const cJSON *item);

/* json_line_col of json_offset_of. */
void json_item_pos(const char *text, size_t len, const cJSON *root, const cJSON *item,
                   unsigned *line, unsigned *col);

typedef enum json_int_rc {
    JSON_INT_OK = 0,
    JSON_INT_NOT_NUMBER, /* missing, or not a number */
    JSON_INT_NOT_WHOLE,  /* a number with a fraction */
    JSON_INT_RANGE,      /* a whole number outside [min, max] (1e300, -1e10 ...) */
} json_int_rc;

/* Read item as a whole number in [min, max] into *out (untouched unless JSON_INT_OK).
 * Never converts a double a long cannot hold: cJSON's valueint and a plain cast are
 * undefined or wrong for 1e300. */
json_int_rc json_get_int(const cJSON *item, long min, long max, long *out);

/* "not a number", "not a whole number", "number out of range" (static strings). */
const char *json_int_error(json_int_rc rc);

#endif
