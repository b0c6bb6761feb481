/*
 * registry.c — the one list of report writers. Adding a format = one file in src/report/
 * exporting a sunset_writer, and one line here.
 */
#include "report/report.h"

#include <string.h>

extern const sunset_writer sunset_writer_text;
extern const sunset_writer sunset_writer_json;
extern const sunset_writer sunset_writer_sarif;
extern const sunset_writer sunset_writer_github;
extern const sunset_writer sunset_writer_markdown;

static const sunset_writer *const writers[] = {
    &sunset_writer_text,
    &sunset_writer_json,
    &sunset_writer_sarif,
    &sunset_writer_github,
    &sunset_writer_markdown,
};

const sunset_writer *sunset_writer_find(const char *name) {
    for (size_t i = 0; i < sizeof writers / sizeof writers[0]; i++)
        if (strcmp(writers[i]->name, name) == 0) return writers[i];
    return NULL;
}

const char *sunset_writer_names(void) { return "text, json, sarif, github, markdown"; }
