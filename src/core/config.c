/*
 * config.c — reads `.sunset.json`:
 *   {"rules": ["dir", ...], "queries": "dir", "compile_commands": "dir",
 *    "include": ["glob", ...], "exclude": ["glob", ...],
 *    "severity": {"RULE-ID": "info", ...},
 *    "disable": [{"rules": ["PE-*"], "paths": ["third_party/**"]}, ...],
 *    "jobs": 4, "suppression_min_reason": 10}
 * Every key is optional; an unknown key is an error (a typo must not pass silently).
 */
#include "core/config.h"

#include "base/json.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

void sunset_config_init(sunset_config *c) {
    memset(c, 0, sizeof *c);
    c->rule_dirs = c->include = c->exclude = VEC_INIT(char *);
    c->severity = VEC_INIT(sev_override);
    c->disable = VEC_INIT(disable_entry);
    c->min_reason = -1;
}

static void free_strs(vec *v) {
    for (size_t i = 0; i < v->n; i++) sunset_free(VEC_AT(v, char *, i));
    vec_free(v);
}

void sunset_config_free(sunset_config *c) {
    sunset_free(c->path);
    free_strs(&c->rule_dirs);
    free_strs(&c->include);
    free_strs(&c->exclude);
    sunset_free(c->queries_dir);
    sunset_free(c->compile_db);
    for (size_t i = 0; i < c->severity.n; i++) sunset_free(VEC_AT(&c->severity, sev_override, i).id);
    vec_free(&c->severity);
    for (size_t i = 0; i < c->disable.n; i++) {
        disable_entry *d = &VEC_AT(&c->disable, disable_entry, i);
        for (size_t k = 0; k < d->n_rules; k++) sunset_free((char *)d->rules[k]);
        for (size_t k = 0; k < d->n_paths; k++) sunset_free((char *)d->paths[k]);
        sunset_free((void *)d->rules);
        sunset_free((void *)d->paths);
    }
    vec_free(&c->disable);
    memset(c, 0, sizeof *c);
}

typedef struct cfgload {
    const char *file, *text, *dir;
    sunset_error *err;
} cfgload;

static int fail(cfgload *L, const char *key, const char *msg) {
    unsigned line = 1, col = 1;
    const char *at = L->text;
    if (key) {
        char pat[128];
        snprintf(pat, sizeof pat, "\"%s\"", key);
        const char *p = strstr(L->text, pat);
        if (p) at = p;
    }
    for (const char *p = L->text; p < at; p++) {
        if (*p == '\n') line++, col = 1;
        else col++;
    }
    snprintf(L->err->msg, sizeof L->err->msg, "%s:%u:%u: %s", L->file, line, col, msg);
    return -1;
}

static char *resolve(cfgload *L, const char *p) {
    sb b = {0};
    if (p[0] == '/') sb_puts(&b, p);
    else sb_printf(&b, "%s/%s", L->dir, p);
    return b.oom ? NULL : sb_take(&b);
}

static int str_array(cfgload *L, const cJSON *v, const char *key, vec *out, bool as_path) {
    if (!cJSON_IsArray(v)) return fail(L, key, "must be an array of strings");
    const cJSON *it;
    cJSON_ArrayForEach(it, v) {
        if (!cJSON_IsString(it)) return fail(L, key, "must be an array of strings");
        char *s = as_path ? resolve(L, it->valuestring)
                          : sunset_strndup(it->valuestring, strlen(it->valuestring));
        if (!s || !vec_push(out, &s)) {
            sunset_free(s);
            return fail(L, key, "out of memory");
        }
    }
    return 0;
}

static int glob_list(cfgload *L, const cJSON *v, const char *key, const char *const **out, size_t *n) {
    vec tmp = VEC_INIT(char *);
    if (str_array(L, v, key, &tmp, false)) {
        free_strs(&tmp);
        return -1;
    }
    *out = (const char *const *)tmp.v;
    *n = tmp.n;
    return 0;
}

int sunset_config_load(const char *file, sunset_config *c, sunset_error *err) {
    char *text = NULL;
    size_t len;
    int e = read_file(file, 4 << 20, &text, &len);
    if (e) {
        snprintf(err->msg, sizeof err->msg, "%s: cannot read: %s", file, strerror(e));
        return -1;
    }
    char *dir = sunset_strndup(file, strlen(file));
    char *slash = dir ? strrchr(dir, '/') : NULL;
    if (slash) *slash = 0;
    else if (dir) strcpy(dir, ".");
    int rc = sunset_config_load_text(file, text, len, dir ? dir : ".", c, err);
    sunset_free(text);
    sunset_free(dir);
    return rc;
}

int sunset_config_load_text(const char *file, const char *text, size_t len, const char *dir,
                            sunset_config *c, sunset_error *err) {
    int rc = -1;
    size_t err_off = 0;
    cJSON *root = json_parse(text, len, &err_off);
    cfgload L = {file, text, dir, err};
    if (!root) {
        json_parse_error(text, err_off, file, "invalid JSON", err);
        goto cleanup;
    }
    if (!cJSON_IsObject(root)) {
        fail(&L, NULL, "the configuration must be a JSON object");
        goto cleanup;
    }
    c->path = sunset_strndup(file, strlen(file));
    const cJSON *it;
    cJSON_ArrayForEach(it, root) {
        const char *k = it->string;
        if (strcmp(k, "rules") == 0) {
            if (str_array(&L, it, k, &c->rule_dirs, true)) goto cleanup;
        } else if (strcmp(k, "include") == 0) {
            if (str_array(&L, it, k, &c->include, false)) goto cleanup;
        } else if (strcmp(k, "exclude") == 0) {
            if (str_array(&L, it, k, &c->exclude, false)) goto cleanup;
        } else if (strcmp(k, "queries") == 0 || strcmp(k, "compile_commands") == 0) {
            if (!cJSON_IsString(it)) { fail(&L, k, "must be a string (a directory)"); goto cleanup; }
            char **dst = k[0] == 'q' ? &c->queries_dir : &c->compile_db;
            sunset_free(*dst);
            if (!(*dst = resolve(&L, it->valuestring))) { fail(&L, k, "out of memory"); goto cleanup; }
        } else if (strcmp(k, "jobs") == 0 || strcmp(k, "suppression_min_reason") == 0) {
            bool jobs_key = k[0] == 'j';
            long v = 0, lo = jobs_key ? 1 : 0, hi = jobs_key ? 1024 : 200;
            json_int_rc jrc = json_get_int(it, INT_MIN, INT_MAX, &v);
            if (jrc == JSON_INT_RANGE) {
                unsigned line, col;
                json_item_pos(text, len, root, it, &line, &col);
                snprintf(err->msg, sizeof err->msg, "%s:%u:%u: \"%s\": %s", file, line, col, k,
                         json_int_error(jrc));
                goto cleanup;
            }
            if (jrc != JSON_INT_OK || v < lo || v > hi) {
                char msg[96];
                snprintf(msg, sizeof msg, "\"%s\" must be a whole number from %ld to %ld", k, lo, hi);
                fail(&L, k, msg);
                goto cleanup;
            }
            if (jobs_key) c->jobs = (int)v;
            else c->min_reason = (int)v;
        } else if (strcmp(k, "severity") == 0) {
            if (!cJSON_IsObject(it)) { fail(&L, k, "\"severity\" must map rule ids to severities"); goto cleanup; }
            const cJSON *s;
            cJSON_ArrayForEach(s, it) {
                int sev = cJSON_IsString(s) ? sunset_severity_from_name(s->valuestring) : -1;
                if (sev < 0) { fail(&L, s->string, "severity must be \"error\", \"warning\" or \"info\""); goto cleanup; }
                sev_override o = {sunset_strndup(s->string, strlen(s->string)), (sunset_severity)sev};
                if (!o.id || !vec_push(&c->severity, &o)) { sunset_free(o.id); fail(&L, k, "out of memory"); goto cleanup; }
            }
        } else if (strcmp(k, "disable") == 0) {
            if (!cJSON_IsArray(it)) { fail(&L, k, "\"disable\" must be an array of {\"rules\": [...], \"paths\": [...]}"); goto cleanup; }
            const cJSON *d;
            cJSON_ArrayForEach(d, it) {
                disable_entry de = {0};
                const cJSON *r = cJSON_GetObjectItemCaseSensitive(d, "rules");
                const cJSON *p = cJSON_GetObjectItemCaseSensitive(d, "paths");
                if (!cJSON_IsObject(d) || !r) { fail(&L, k, "each \"disable\" entry needs \"rules\""); goto cleanup; }
                if (glob_list(&L, r, "rules", &de.rules, &de.n_rules)) goto cleanup;
                if (p && glob_list(&L, p, "paths", &de.paths, &de.n_paths)) {
                    for (size_t i = 0; i < de.n_rules; i++) sunset_free((char *)de.rules[i]);
                    sunset_free((void *)de.rules);
                    goto cleanup;
                }
                if (!vec_push(&c->disable, &de)) { fail(&L, k, "out of memory"); goto cleanup; }
            }
        } else {
            char msg[200];
            snprintf(msg, sizeof msg, "unknown key \"%s\" (known: rules queries compile_commands "
                     "include exclude severity disable jobs suppression_min_reason)", k);
            fail(&L, k, msg);
            goto cleanup;
        }
    }
    rc = 0;
cleanup:
    cJSON_Delete(root);
    return rc;
}

char *sunset_config_find(const char *start) {
    char dir[PATH_MAX];
    if (!realpath(start, dir)) return NULL;
    struct stat st;
    if (stat(dir, &st) == 0 && !S_ISDIR(st.st_mode)) {
        char *s = strrchr(dir, '/');
        if (s && s != dir) *s = 0;
    }
    for (;;) {
        char probe[PATH_MAX + 16];
        snprintf(probe, sizeof probe, "%s/.sunset.json", dir);
        if (stat(probe, &st) == 0 && S_ISREG(st.st_mode)) return sunset_strndup(probe, strlen(probe));
        /* the work tree's top (.git, a directory or a worktree's file) ends the search, as a
         * repository boundary ends git's: a file above the checkout is not the project's */
        snprintf(probe, sizeof probe, "%s/.git", dir);
        if (lstat(probe, &st) == 0) break;
        char *s = strrchr(dir, '/');
        if (!s || s == dir) break;
        *s = 0;
    }
    return NULL;
}
