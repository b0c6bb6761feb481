/*
 * config.h — the project configuration, `.sunset.json`, found by walking up from the
 * scanned path to the work tree's top (or named with --config). Relative paths in it are resolved against the
 * directory that holds it.
 */
#ifndef SUNSET_CONFIG_H
#define SUNSET_CONFIG_H

#include "core/engine.h"

typedef struct sev_override {
    char *id;
    sunset_severity sev;
} sev_override;

typedef struct sunset_config {
    char *path;         /* the file read, or NULL when none was found */
    vec rule_dirs;      /* char *: extra rule directories (added to the bundled ones) */
    char *queries_dir;  /* or NULL */
    char *compile_db;   /* or NULL */
    vec include, exclude; /* char * globs */
    vec severity;       /* sev_override */
    vec disable;        /* disable_entry, arrays owned */
    int jobs;           /* 0 = unset */
    int min_reason;     /* "suppression_min_reason"; -1 = unset */
} sunset_config;

void sunset_config_init(sunset_config *c);
void sunset_config_free(sunset_config *c);
/* Returns 0, or -1 with err = "FILE:LINE:COL: message". */
int sunset_config_load(const char *file, sunset_config *c, sunset_error *err);
/* The same from text already read (a blob at the diff base): file names it in messages, dir
 * resolves its relative paths. */
int sunset_config_load_text(const char *file, const char *text, size_t len, const char *dir,
                            sunset_config *c, sunset_error *err);
/* The nearest .sunset.json at or above `start` (a file or directory), never above the top of
 * the git work tree holding it; NULL when none. Caller frees. */
char *sunset_config_find(const char *start);

#endif
