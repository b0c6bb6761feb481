/*
 * tracking.c — the tracking manifest (rules/tracking/*.json) and the measurement of a
 * tracking issue against one scan: where each checklist file is now (at its path, moved —
 * found by basename — or gone), whether each item and task is done, and how every file with
 * findings should be removed (直接删除 / 部分删除 with line ranges and reasons). Status is
 * always computed from the findings and the tree, never copied from the issue text.
 *
 * Classification of a file with findings, first rule that applies:
 *   1. a derived fact says the file exists only for legacy (opts->legacy_file, the
 *      cross-file layer's hook);
 *   2. a file-level ("path") finding;
 *   3. its main declaration is legacy: a code finding whose matched name is the file's
 *      stem in CamelCase (paddle/fluid/framework/parallel_executor.h → ParallelExecutor);
 *   4. a Python test whose every top-level test class has a finding on its header line
 *      (it derives from a legacy base);
 * otherwise 部分删除: each finding contributes its enclosing scope when the scope itself is
 * legacy (the finding sits on the scope's first line, or the scope's name contains the
 * matched name), else its own lines; overlapping and adjacent ranges merge.
 */
#include "analysis/tracking.h"

#include <cjson/cJSON.h>
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/json.h"
#include "core/walk.h"

_Static_assert(SUNSET_TASKS <= 32, "trk_file.tasks holds a bit per task");

const char *trk_handling_zh(trk_handling h) {
    return h == TRK_DIRECT ? "直接删除" : h == TRK_PARTIAL ? "部分删除" : "";
}

const char *trk_handling_key(trk_handling h) {
    return h == TRK_DIRECT ? "delete" : h == TRK_PARTIAL ? "partial" : "";
}

const char *trk_cn_number(int n, char buf[16]) {
    static const char *const d[] = {"", "一", "二", "三", "四", "五", "六", "七", "八", "九"};
    buf[0] = 0;
    if (n <= 0 || n > 99) {
        snprintf(buf, 16, "%d", n);
        return buf;
    }
    if (n >= 10) {
        if (n / 10 > 1) strcat(buf, d[n / 10]);
        strcat(buf, "十");
    }
    strcat(buf, d[n % 10]);
    return buf;
}

static char *dup(const char *s) {
    return s ? sunset_strndup(s, strlen(s)) : NULL;
}

/* The buffer's text, or NULL (and the buffer freed) when an append ran out of memory. */
char *trk_take(sb *b) {
    if (b->oom) {
        sb_free(b);
        return NULL;
    }
    return sb_take(b);
}

static void free_strs(vec *v) {
    for (size_t i = 0; i < v->n; i++) sunset_free(VEC_AT(v, char *, i));
    vec_free(v);
}

static void selector_init(trk_selector *s) {
    s->tasks = VEC_INIT(int);
    s->families = s->rules = s->names = s->files = s->paths = VEC_INIT(char *);
}

static void selector_free(trk_selector *s) {
    vec_free(&s->tasks);
    free_strs(&s->families);
    free_strs(&s->rules);
    free_strs(&s->names);
    free_strs(&s->files);
    free_strs(&s->paths);
}

bool trk_selector_match(const trk_selector *s, const sunset_finding *f) {
    bool any = s->tasks.n || s->families.n || s->rules.n || s->names.n || s->files.n, hit = !any;
    for (size_t i = 0; !hit && i < s->tasks.n; i++) hit = VEC_AT(&s->tasks, int, i) == f->task;
    for (size_t i = 0; !hit && i < s->families.n; i++)
        hit = f->family && strcmp(VEC_AT(&s->families, char *, i), f->family) == 0;
    for (size_t i = 0; !hit && i < s->rules.n; i++)
        hit = f->rule_id && sunset_glob_match(VEC_AT(&s->rules, char *, i), f->rule_id);
    for (size_t i = 0; !hit && i < s->names.n; i++)
        hit = f->matched && sunset_glob_match(VEC_AT(&s->names, char *, i), f->matched);
    for (size_t i = 0; !hit && i < s->files.n; i++) hit = sunset_glob_match(VEC_AT(&s->files, char *, i), f->path);
    if (!hit || !s->paths.n) return hit;
    for (size_t i = 0; i < s->paths.n; i++)
        if (sunset_glob_match(VEC_AT(&s->paths, char *, i), f->path)) return true;
    return false;
}

int trk_selector_rank(const trk_selector *s) {
    return (s->names.n ? 16 : 0) + (s->paths.n || s->files.n ? 8 : 0) + (s->rules.n ? 4 : 0) + (s->families.n ? 2 : 0) +
           (s->tasks.n ? 1 : 0);
}

bool trk_is_comment(const sunset_finding *f) {
    return f->ctx == SUNSET_CTX_COMMENT || f->ctx == SUNSET_CTX_DOCSTRING || f->ctx == SUNSET_CTX_DEAD_CODE;
}

trk_state trk_item_state(const trk_item *it) {
    if (it->outside) return TRK_S_OUTSIDE;
    if (it->done) return TRK_S_DONE;
    return it->open.n && it->comments == it->open.n ? TRK_S_COMMENTS : TRK_S_OPEN;
}

const char *trk_state_key(trk_state s) {
    static const char *const k[] = {"done", "open", "comments_only", "outside"};
    return k[s];
}

const char *trk_item_name(const trk_item *it, trk_lang lang) {
    return lang == TRK_ZH && it->name_zh ? it->name_zh : it->name;
}

const char *trk_item_note(const trk_item *it, trk_lang lang) {
    return lang == TRK_ZH && it->note_zh ? it->note_zh : it->note;
}

const char *trk_family_name(const tracking_manifest *m, const char *family, trk_lang lang) {
    if (!family) return "";
    for (size_t i = 0; lang == TRK_ZH && i + 1 < m->family_zh.n; i += 2)
        if (strcmp(VEC_AT(&m->family_zh, char *, i), family) == 0) return VEC_AT(&m->family_zh, char *, i + 1);
    return family;
}

static void item_free(trk_item *it) {
    sunset_free(it->name);
    sunset_free(it->name_zh);
    sunset_free(it->note_zh);
    sunset_free(it->renamed_to);
    sunset_free(it->outside);
    sunset_free(it->name_en);
    sunset_free(it->file);
    sunset_free(it->note);
    sunset_free(it->pr);
    selector_free(&it->sel);
    sunset_free(it->found);
    sunset_free(it->remark);
    vec_free(&it->open);
}

static void task_free(trk_task *t) {
    sunset_free(t->title);
    sunset_free(t->title_en);
    sunset_free(t->claimant);
    sunset_free(t->items_header);
    free_strs(&t->prs);
    selector_free(&t->sel);
    for (size_t i = 0; i < t->items.n; i++) item_free(&VEC_AT(&t->items, trk_item, i));
    vec_free(&t->items);
    vec_free(&t->findings);
    vec_free(&t->other);
}

void tracking_manifest_free(tracking_manifest *m) {
    if (!m) return;
    sunset_free(m->origin);
    sunset_free(m->id);
    sunset_free(m->title);
    sunset_free(m->url);
    sunset_free(m->board);
    sunset_free(m->source_url);
    sunset_free(m->repository);
    sunset_free(m->lang);
    free_strs(&m->known_paths);
    free_strs(&m->family_zh);
    free_strs(&m->rename_suffixes);
    for (size_t i = 0; i < m->tasks.n; i++) task_free(&VEC_AT(&m->tasks, trk_task, i));
    vec_free(&m->tasks);
    sunset_free(m);
}

/* --- loading --- */

typedef struct mload {
    const char *origin;
    sunset_error *err;
    char where[96];
} mload;

static int mfail(mload *L, const char *fmt, const char *key) {
    char msg[256];
    snprintf(msg, sizeof msg, fmt, key);
    snprintf(L->err->msg, sizeof L->err->msg, "%s: %s%s%s", L->origin, L->where, L->where[0] ? ": " : "", msg);
    return -1;
}

/* Optional string member: absent → NULL; present and not a string → error. */
static int opt_str(mload *L, const cJSON *o, const char *key, char **out) {
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    *out = NULL;
    if (!v) return 0;
    if (!cJSON_IsString(v)) return mfail(L, "\"%s\" must be a string", key);
    *out = dup(v->valuestring);
    return *out ? 0 : mfail(L, "out of memory reading \"%s\"", key);
}

static int req_str(mload *L, const cJSON *o, const char *key, char **out) {
    if (opt_str(L, o, key, out)) return -1;
    return *out ? 0 : mfail(L, "missing \"%s\"", key);
}

static int str_list(mload *L, const cJSON *v, const char *key, vec *out) {
    if (!v) return 0;
    if (!cJSON_IsArray(v)) return mfail(L, "\"%s\" must be an array of strings", key);
    const cJSON *e;
    cJSON_ArrayForEach(e, v) {
        if (!cJSON_IsString(e)) return mfail(L, "\"%s\" must be an array of strings", key);
        char *s = dup(e->valuestring);
        if (!s || !vec_push(out, &s)) {
            sunset_free(s);
            return mfail(L, "out of memory reading \"%s\"", key);
        }
    }
    return 0;
}

static int check_keys(mload *L, const cJSON *o, const char *const *keys) {
    const cJSON *e;
    cJSON_ArrayForEach(e, o) {
        bool ok = false;
        for (size_t i = 0; keys[i] && !ok; i++) ok = strcmp(keys[i], e->string) == 0;
        if (!ok) return mfail(L, "unknown key \"%s\"", e->string);
    }
    return 0;
}

static int load_selector(mload *L, const cJSON *o, trk_selector *s) {
    static const char *const keys[] = {"tasks", "families", "rules", "names", "files", "paths", NULL};
    if (!cJSON_IsObject(o)) return mfail(L, "\"%s\" must be an object", "match");
    if (check_keys(L, o, keys)) return -1;
    const cJSON *t = cJSON_GetObjectItemCaseSensitive(o, "tasks"), *e;
    if (t) {
        if (!cJSON_IsArray(t)) return mfail(L, "\"%s\" must be an array of task numbers", "tasks");
        cJSON_ArrayForEach(e, t) {
            long tv;
            if (json_get_int(e, 1, 99, &tv) != JSON_INT_OK)
                return mfail(L, "\"%s\" must be an array of task numbers (1-99)", "tasks");
            int n = (int)tv;
            if (!vec_push(&s->tasks, &n)) return mfail(L, "out of memory reading \"%s\"", "tasks");
        }
    }
    if (str_list(L, cJSON_GetObjectItemCaseSensitive(o, "families"), "families", &s->families) ||
        str_list(L, cJSON_GetObjectItemCaseSensitive(o, "rules"), "rules", &s->rules) ||
        str_list(L, cJSON_GetObjectItemCaseSensitive(o, "names"), "names", &s->names) ||
        str_list(L, cJSON_GetObjectItemCaseSensitive(o, "files"), "files", &s->files) ||
        str_list(L, cJSON_GetObjectItemCaseSensitive(o, "paths"), "paths", &s->paths))
        return -1;
    return 0;
}

static int load_item(mload *L, const cJSON *o, trk_item *it) {
    static const char *const keys[] = {"name", "name_en", "name_zh", "file", "handling", "pr", "note",
                                       "note_zh", "match", "outside", "renamed_to", NULL};
    if (!cJSON_IsObject(o)) return mfail(L, "an item must be an %s", "object");
    if (check_keys(L, o, keys)) return -1;
    char *h = NULL;
    if (req_str(L, o, "name", &it->name) || opt_str(L, o, "name_en", &it->name_en) ||
        opt_str(L, o, "name_zh", &it->name_zh) || opt_str(L, o, "note_zh", &it->note_zh) ||
        opt_str(L, o, "file", &it->file) || opt_str(L, o, "pr", &it->pr) ||
        opt_str(L, o, "note", &it->note) || opt_str(L, o, "handling", &h) ||
        opt_str(L, o, "outside", &it->outside) || opt_str(L, o, "renamed_to", &it->renamed_to))
        return -1;
    const cJSON *m = cJSON_GetObjectItemCaseSensitive(o, "match");
    int rc = 0;
    if (it->outside) {
        /* the work is in another repository: nothing here selects or measures it */
        if (!*it->outside) rc = mfail(L, "\"%s\" must name the repository the item's work is in", "outside");
        else if (it->file || m || h) rc = mfail(L, "an \"%s\" item takes no \"file\", \"handling\" or \"match\"", "outside");
    } else if (it->file) {
        if (!h) rc = mfail(L, "a file item needs \"%s\" (直接删除 or 部分删除)", "handling");
        else if (strcmp(h, "直接删除") == 0 || strcmp(h, "delete") == 0) it->handling = TRK_DIRECT;
        else if (strcmp(h, "部分删除") == 0 || strcmp(h, "partial") == 0) it->handling = TRK_PARTIAL;
        else rc = mfail(L, "\"handling\" must be 直接删除 or 部分删除, not \"%s\"", h);
        if (!rc && m) rc = mfail(L, "a file item takes no \"%s\" (it uses the task's rules)", "match");
    } else if (!m) {
        rc = mfail(L, "an item needs \"file\" or \"%s\"", "match");
    } else {
        rc = load_selector(L, m, &it->sel);
    }
    sunset_free(h);
    return rc;
}

static int load_task(mload *L, const cJSON *o, trk_task *t) {
    static const char *const keys[] = {"number", "title", "title_en", "claimant", "prs", "match",
                                       "items_header", "items", NULL};
    if (!cJSON_IsObject(o)) return mfail(L, "a task must be an %s", "object");
    if (check_keys(L, o, keys)) return -1;
    const cJSON *n = cJSON_GetObjectItemCaseSensitive(o, "number");
    long num;
    if (json_get_int(n, 1, 99, &num) != JSON_INT_OK)
        return mfail(L, "\"%s\" must be a task number (1-99)", "number");
    t->number = (int)num;
    if (req_str(L, o, "title", &t->title) || opt_str(L, o, "title_en", &t->title_en) ||
        opt_str(L, o, "claimant", &t->claimant) || opt_str(L, o, "items_header", &t->items_header) ||
        str_list(L, cJSON_GetObjectItemCaseSensitive(o, "prs"), "prs", &t->prs))
        return -1;
    const cJSON *m = cJSON_GetObjectItemCaseSensitive(o, "match");
    if (!m) return mfail(L, "missing \"%s\" (which findings belong to the task)", "match");
    if (load_selector(L, m, &t->sel)) return -1;
    const cJSON *items = cJSON_GetObjectItemCaseSensitive(o, "items"), *e;
    if (items && !cJSON_IsArray(items)) return mfail(L, "\"%s\" must be an array", "items");
    size_t at = strlen(L->where), k = 0;
    cJSON_ArrayForEach(e, items) {
        trk_item it = {0};
        selector_init(&it.sel);
        it.open = VEC_INIT(size_t);
        snprintf(L->where + at, sizeof L->where - at, ".items[%zu]", k++);
        int rc = load_item(L, e, &it);
        if (rc || !vec_push(&t->items, &it)) {
            item_free(&it);
            return rc ? rc : mfail(L, "out of %s", "memory");
        }
    }
    L->where[at] = 0;
    return 0;
}

/* "families_zh": family id → its name in Chinese, kept as pairs in m->family_zh. */
static int load_families_zh(mload *L, const cJSON *fz, tracking_manifest *m) {
    const cJSON *e;
    if (fz && !cJSON_IsObject(fz))
        return mfail(L, "\"%s\" must be an object: family id → its name in Chinese", "families_zh");
    cJSON_ArrayForEach(e, fz) {
        if (!cJSON_IsString(e)) return mfail(L, "\"%s\" values must be strings", "families_zh");
        char *k = dup(e->string), *v = dup(e->valuestring);
        bool ok = k && v && vec_push(&m->family_zh, &k);
        if (ok && !vec_push(&m->family_zh, &v)) m->family_zh.n--, ok = false; /* pairs only */
        if (!ok) {
            sunset_free(k);
            sunset_free(v);
            return mfail(L, "out of memory reading \"%s\"", "families_zh");
        }
    }
    return 0;
}

/* "tasks": a non-empty array of tasks, no number given twice. */
static int load_tasks(mload *L, const cJSON *tasks, tracking_manifest *m) {
    if (!cJSON_IsArray(tasks) || cJSON_GetArraySize(tasks) == 0)
        return mfail(L, "\"%s\" must be a non-empty array", "tasks");
    size_t k = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, tasks) {
        trk_task t = {0};
        t.prs = VEC_INIT(char *);
        t.items = VEC_INIT(trk_item);
        t.findings = VEC_INIT(size_t);
        t.other = VEC_INIT(size_t);
        selector_init(&t.sel);
        snprintf(L->where, sizeof L->where, "tasks[%zu]", k++);
        if (load_task(L, e, &t) || !vec_push(&m->tasks, &t)) {
            if (!L->err->msg[0]) mfail(L, "out of %s", "memory");
            task_free(&t);
            return -1;
        }
        for (size_t i = 0; i + 1 < m->tasks.n; i++)
            if (VEC_AT(&m->tasks, trk_task, i).number == t.number)
                return mfail(L, "task number %s repeats an earlier task", "");
    }
    return 0;
}

/* The manifest's document, an object: its schema, its own members, then its tasks. */
static int load_manifest(mload *L, const cJSON *doc, tracking_manifest *m) {
    static const char *const keys[] = {"schema", "id", "title", "url", "board", "source_url", "repository",
                                       "lang", "known_paths", "families_zh", "rename_suffixes", "tasks", NULL};
    if (!cJSON_IsObject(doc)) return mfail(L, "the manifest must be a JSON %s", "object");
    if (check_keys(L, doc, keys)) return -1;
    const cJSON *sc = cJSON_GetObjectItemCaseSensitive(doc, "schema");
    long schema = 0;
    if (json_get_int(sc, INT_MIN, INT_MAX, &schema) != JSON_INT_OK || schema != TRACKING_MANIFEST_SCHEMA) {
        snprintf(L->err->msg, sizeof L->err->msg, "%s: \"schema\" must be %d", L->origin, TRACKING_MANIFEST_SCHEMA);
        return -1;
    }
    if (req_str(L, doc, "id", &m->id) || req_str(L, doc, "title", &m->title) ||
        opt_str(L, doc, "url", &m->url) || opt_str(L, doc, "board", &m->board) ||
        opt_str(L, doc, "source_url", &m->source_url) || opt_str(L, doc, "repository", &m->repository) ||
        opt_str(L, doc, "lang", &m->lang) ||
        str_list(L, cJSON_GetObjectItemCaseSensitive(doc, "known_paths"), "known_paths", &m->known_paths) ||
        str_list(L, cJSON_GetObjectItemCaseSensitive(doc, "rename_suffixes"), "rename_suffixes", &m->rename_suffixes) ||
        load_families_zh(L, cJSON_GetObjectItemCaseSensitive(doc, "families_zh"), m))
        return -1;
    trk_lang lang;
    if (m->lang && !trk_lang_parse(m->lang, &lang))
        return mfail(L, "\"lang\" must be \"zh\" or \"en\", not \"%s\"", m->lang);
    if (m->repository && !trk_is_web_url(m->repository))
        return mfail(L, "\"repository\" must be an http(s) URL, not \"%s\"", m->repository);
    return load_tasks(L, cJSON_GetObjectItemCaseSensitive(doc, "tasks"), m);
}

tracking_manifest *tracking_manifest_parse(const char *json, const char *origin, sunset_error *err) {
    mload L = {origin, err, ""};
    tracking_manifest *m = sunset_calloc(1, sizeof *m);
    if (!m) {
        snprintf(err->msg, sizeof err->msg, "%s: out of memory", origin);
        return NULL;
    }
    m->tasks = VEC_INIT(trk_task);
    m->known_paths = VEC_INIT(char *);
    m->family_zh = VEC_INIT(char *);
    m->rename_suffixes = VEC_INIT(char *);
    m->origin = dup(origin);
    if (!m->origin) {
        snprintf(err->msg, sizeof err->msg, "%s: out of memory", origin);
        tracking_manifest_free(m);
        return NULL;
    }
    size_t err_off = 0;
    cJSON *doc = json_parse(json, strlen(json), &err_off);
    if (!doc) {
        json_parse_error(json, err_off, origin, "invalid JSON", err);
    }
    if (!doc || load_manifest(&L, doc, m)) {
        cJSON_Delete(doc);
        tracking_manifest_free(m);
        return NULL;
    }
    cJSON_Delete(doc);
    return m;
}

tracking_manifest *tracking_manifest_load(const char *file, sunset_error *err) {
    char *text = NULL;
    size_t len;
    int e = read_file(file, 0, &text, &len);
    if (e) {
        snprintf(err->msg, sizeof err->msg, "%s: %s", file, strerror(e));
        return NULL;
    }
    err->msg[0] = 0;
    tracking_manifest *m = tracking_manifest_parse(text, file, err);
    sunset_free(text);
    return m;
}

/* --- classification --- */

static bool default_file_level(void *ctx, const sunset_finding *f) {
    (void)ctx;
    return f->span.line == 1 && f->span.col == 1 && f->span.end_line == 1 && f->span.end_col == 1 &&
           f->matched && strcmp(f->matched, f->path) == 0;
}

/* The stem's letters lower-cased without '_' (paddle/.../parallel_executor.h → "parallelexecutor"). */
static void stem_key(const char *path, char *out, size_t n) {
    const char *b = strrchr(path, '/');
    b = b ? b + 1 : path;
    size_t k = 0;
    for (; *b && *b != '.' && k + 1 < n; b++)
        if (*b != '_') out[k++] = (char)tolower((unsigned char)*b);
    out[k] = 0;
}

static bool same_key(const char *name, const char *key) {
    size_t k = 0;
    for (; *name; name++) {
        if (*name == '_') continue;
        if (!key[k] || tolower((unsigned char)*name) != key[k]) return false;
        k++;
    }
    return k > 0 && key[k] == 0;
}

static bool icontains(const char *hay, const char *needle) {
    size_t n = strlen(needle);
    if (!n) return false;
    for (; *hay; hay++)
        if (strncasecmp(hay, needle, n) == 0) return true;
    return false;
}

/* Python test file: every top-level class has a finding on its header line. */
static bool py_all_classes_legacy(const tracking_opts *o, const sunset_result *res, const trk_file *tf,
                                  char **reason, bool *oom) {
    const char *p = tf->path;
    size_t pl = strlen(p);
    if (!o->root || pl < 3 || strcmp(p + pl - 3, ".py") != 0) return false;
    bool test = false;
    for (size_t i = 0; i < tf->n; i++) test |= res->findings[tf->first + i].test;
    if (!test) return false;
    sb full = {0};
    char *text = NULL;
    size_t len;
    bool ok = false;
    size_t classes = 0, legacy = 0;
    if (!sb_printf(&full, "%s/%s", o->root, p)) {
        *oom = true;
        goto cleanup;
    }
    int e = read_file(full.s, 0, &text, &len);
    if (e) {
        *oom = e == ENOMEM;
        goto cleanup;
    }
    uint32_t line = 1;
    for (char *s = text; *s; line++) {
        char *nl = strchr(s, '\n');
        if (strncmp(s, "class ", 6) == 0) {
            classes++;
            for (size_t i = 0; i < tf->n; i++) {
                const sunset_finding *f = &res->findings[tf->first + i];
                if (f->span.line == line && f->ctx == SUNSET_CTX_CODE) {
                    legacy++;
                    break;
                }
            }
        }
        if (!nl) break;
        s = nl + 1;
    }
    if (classes && classes == legacy) {
        sb r = {0};
        if (o->lang == TRK_ZH) sb_printf(&r, "旧执行器单测：其 %zu 个测试类均派生自旧基类", classes);
        else
            sb_printf(&r, "a legacy test: its %zu test class%s derive%s from a legacy base", classes,
                      classes == 1 ? "" : "es", classes == 1 ? "s" : "");
        *reason = trk_take(&r);
        ok = *reason != NULL;
        *oom = !ok;
    }
cleanup:
    sb_free(&full);
    sunset_free(text);
    return ok;
}

static bool is_block_scope(const char *kind) {
    return kind && strcmp(kind, "namespace") != 0 && strcmp(kind, "module") != 0 && strcmp(kind, "file") != 0;
}

static int cmp_range(const void *a, const void *b) {
    const trk_range *x = a, *y = b;
    return x->start != y->start ? (x->start < y->start ? -1 : 1) : (x->end < y->end ? -1 : x->end > y->end);
}

/* `s` as a Markdown code span (a backtick inside becomes a quote, so the span holds). */
static void put_code(sb *b, const char *s) {
    sb_putc(b, '`');
    for (; s && *s; s++) sb_putc(b, *s == '`' ? '\'' : *s);
    sb_putc(b, '`');
}

/* A 部分删除 range's reason in Chinese: names and code in code spans, the prose Chinese. */
static void reason_zh(sb *why, const sunset_finding *f, const char *what, bool scope_legacy) {
    static const char *const ctx_zh[SUNSET_CTX_COUNT] = {"代码", "注释", "字符串", "文档字符串", "注释掉的代码"};
    bool in_scope = f->enc_name && is_block_scope(f->enc_kind);
    if (scope_legacy) {
        sb_puts(why, "整个 ");
        put_code(why, f->enc_name ? f->enc_name : f->enc_kind);
        sb_puts(why, " 属于旧执行器（");
        put_code(why, what);
        sb_puts(why, "）");
    } else if (f->ctx != SUNSET_CTX_CODE) {
        sb_printf(why, "%s中的 ", f->ctx < SUNSET_CTX_COUNT ? ctx_zh[f->ctx] : "代码");
        put_code(why, what);
    } else if (in_scope) {
        put_code(why, f->enc_name);
        sb_puts(why, " 中的 ");
        put_code(why, what);
    } else {
        sb_puts(why, "引用 ");
        put_code(why, what);
    }
}

static int partial_ranges(const tracking_opts *o, const sunset_result *res, trk_file *tf) {
    for (size_t i = 0; i < tf->n; i++) {
        const sunset_finding *f = &res->findings[tf->first + i];
        trk_range r = {f->span.line, f->span.end_line > f->span.line ? f->span.end_line : f->span.line, NULL};
        sb why = {0};
        const char *what = f->matched && *f->matched ? f->matched : f->rule_id;
        bool scope_legacy =
            f->enc_kind && is_block_scope(f->enc_kind) && f->enc_end >= f->enc_start &&
            (f->span.line == f->enc_start || (f->enc_name && f->matched && icontains(f->enc_name, f->matched)));
        if (scope_legacy) {
            r.start = f->enc_start;
            r.end = f->enc_end;
        }
        if (o->lang == TRK_ZH) {
            reason_zh(&why, f, what, scope_legacy);
        } else if (scope_legacy) {
            sb_printf(&why, "%s %s is legacy (%s)", f->enc_kind, f->enc_name ? f->enc_name : "", what);
        } else {
            sb_printf(&why, "%s %s", what,
                      f->ctx == SUNSET_CTX_CODE ? (f->enc_name && is_block_scope(f->enc_kind) ? "in" : "reference")
                                                : sunset_context_name(f->ctx));
            if (f->ctx == SUNSET_CTX_CODE && f->enc_name && is_block_scope(f->enc_kind))
                sb_printf(&why, " %s %s", f->enc_kind, f->enc_name);
        }
        r.reason = trk_take(&why);
        if (!r.reason || !vec_push(&tf->ranges, &r)) {
            sunset_free(r.reason);
            return -1;
        }
    }
    if (tf->ranges.n > 1) qsort(tf->ranges.v, tf->ranges.n, sizeof(trk_range), cmp_range);
    /* merge overlapping and adjacent ranges; the first reason stays, the others are counted */
    size_t u = 0, merged = 0;
    for (size_t i = 0; i < tf->ranges.n; i++) {
        trk_range *r = &VEC_AT(&tf->ranges, trk_range, i);
        if (u && r->start <= VEC_AT(&tf->ranges, trk_range, u - 1).end + 1) {
            trk_range *last = &VEC_AT(&tf->ranges, trk_range, u - 1);
            if (r->end > last->end) last->end = r->end;
            sunset_free(r->reason);
            merged++;
            continue;
        }
        VEC_AT(&tf->ranges, trk_range, u++) = *r;
    }
    tf->ranges.n = u;
    tf->lines = 0;
    for (size_t i = 0; i < u; i++) {
        trk_range *r = &VEC_AT(&tf->ranges, trk_range, i);
        tf->lines += r->end - r->start + 1;
    }
    return 0;
}

/* Lines of a file (a last line without '\n' counts) into *n, 0 when it cannot be read.
 * Returns -1 on OOM. */
static int count_lines(const tracking_opts *o, const char *path, uint32_t *n) {
    *n = 0;
    if (!o->root) return 0;
    sb full = {0};
    char *text = NULL;
    size_t len = 0;
    if (!sb_printf(&full, "%s/%s", o->root, path)) {
        sb_free(&full);
        return -1;
    }
    int e = read_file(full.s, 0, &text, &len);
    sb_free(&full);
    if (e == ENOMEM) return -1;
    if (!e) {
        for (size_t i = 0; i < len; i++) *n += text[i] == '\n';
        if (len && text[len - 1] != '\n') ++*n;
    }
    sunset_free(text);
    return 0;
}

static int classify_file(const tracking_manifest *m, const tracking_opts *o, const sunset_result *res,
                         trk_file *tf);

/* The handling of one file; a 直接删除 file's `lines` is its length. */
static int classify(const tracking_manifest *m, const tracking_opts *o, const sunset_result *res, trk_file *tf) {
    if (classify_file(m, o, res, tf)) return -1;
    return tf->handling == TRK_DIRECT ? count_lines(o, tf->path, &tf->lines) : 0;
}

/* Why a whole file goes because of a file-level finding: the rule's message up to its first
 * period under en; under zh the family and the rule (rule messages are English). */
static char *file_level_reason(const tracking_manifest *m, const tracking_opts *o, const sunset_finding *f) {
    sb r = {0};
    if (o->lang == TRK_ZH) {
        sb_printf(&r, "整个文件属于旧执行器（%s，规则 ", trk_family_name(m, f->family, TRK_ZH));
        put_code(&r, f->rule_id ? f->rule_id : "?");
        sb_puts(&r, "）");
        return trk_take(&r);
    }
    sb_printf(&r, "%s", f->message ? f->message : "file-level legacy rule");
    char *s = r.s ? strstr(r.s, ". ") : NULL;
    if (s) *s = 0, r.len = (size_t)(s - r.s);
    else if (r.len && r.s[r.len - 1] == '.') r.s[--r.len] = 0;
    return trk_take(&r);
}

static int classify_file(const tracking_manifest *m, const tracking_opts *o, const sunset_result *res,
                         trk_file *tf) {
    const char *why = NULL;
    bool zh = o->lang == TRK_ZH;
    if (o->legacy_file && o->legacy_file(o->ctx, tf->path, &why)) {
        tf->handling = TRK_DIRECT;
        tf->reason = dup(why ? why : zh ? "仅为旧执行器而存在（跨文件推导）" : "exists only for legacy (derived)");
        return tf->reason ? 0 : -1;
    }
    char key[256];
    stem_key(tf->path, key, sizeof key);
    const sunset_finding *main_decl = NULL;
    for (size_t i = 0; i < tf->n; i++) {
        const sunset_finding *f = &res->findings[tf->first + i];
        bool fl = o->file_level ? o->file_level(o->ctx, f) : default_file_level(NULL, f);
        if (fl) {
            tf->handling = TRK_DIRECT;
            tf->reason = file_level_reason(m, o, f);
            return tf->reason ? 0 : -1;
        }
        if (!main_decl && f->ctx == SUNSET_CTX_CODE && f->matched && same_key(f->matched, key)) main_decl = f;
    }
    if (main_decl) {
        sb r = {0};
        if (zh) {
            sb_puts(&r, "主声明 ");
            put_code(&r, main_decl->matched);
            sb_puts(&r, " 属于旧执行器");
        } else {
            sb_printf(&r, "its main declaration %s is legacy", main_decl->matched);
        }
        tf->handling = TRK_DIRECT;
        tf->reason = trk_take(&r);
        return tf->reason ? 0 : -1;
    }
    char *reason = NULL;
    bool oom = false;
    if (py_all_classes_legacy(o, res, tf, &reason, &oom)) {
        tf->handling = TRK_DIRECT;
        tf->reason = reason;
        return 0;
    }
    if (oom) return -1;
    tf->handling = TRK_PARTIAL;
    return partial_ranges(o, res, tf);
}

/* --- compute --- */

static void file_free(trk_file *tf) {
    sunset_free(tf->reason);
    for (size_t i = 0; i < tf->ranges.n; i++) sunset_free(VEC_AT(&tf->ranges, trk_range, i).reason);
    vec_free(&tf->ranges);
}

void tracking_report_free(tracking_report *r) {
    if (!r) return;
    for (size_t i = 0; i < r->files.n; i++) file_free(&VEC_AT(&r->files, trk_file, i));
    vec_free(&r->files);
    memset(r, 0, sizeof *r);
}

const trk_file *tracking_file(const tracking_report *r, const char *path) {
    size_t lo = 0, hi = r->files.n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        int c = strcmp(VEC_AT(&r->files, trk_file, mid).path, path);
        if (c == 0) return &VEC_AT(&r->files, trk_file, mid);
        if (c < 0) lo = mid + 1;
        else hi = mid;
    }
    return NULL;
}

static const char *base_of(const char *p) {
    const char *b = strrchr(p, '/');
    return b ? b + 1 : p;
}

static bool in_tree(const tracking_opts *o, const char *path) {
    size_t lo = 0, hi = o->n_tree;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        int c = strcmp(o->tree[mid], path);
        if (c == 0) return true;
        if (c < 0) lo = mid + 1;
        else hi = mid;
    }
    return false;
}

/* The tree's file named `base` sharing the longest directory suffix with `file`, or NULL. */
static const char *by_basename(const tracking_opts *o, const char *file, const char *base) {
    const char *best = NULL;
    size_t best_score = 0;
    for (size_t i = 0; i < o->n_tree; i++) {
        const char *t = o->tree[i];
        if (strcmp(base_of(t), base) != 0) continue;
        /* common trailing directory components (the basenames may differ) */
        size_t score = 1;
        const char *x = file + strlen(file) - strlen(base_of(file)), *y = t + strlen(t) - strlen(base);
        while (x > file && y > t && x[-1] == y[-1]) {
            if (x[-1] == '/') score++;
            x--, y--;
        }
        if (!best || score > best_score) best = t, best_score = score;
    }
    return best;
}

/* Where a checklist file is now. The manifest may name a file by a display name only (the
 * issue's typo), so its "file" is authoritative; then the manifest's renamed_to; a moved
 * file is the one with the same basename, preferring the longest common directory suffix;
 * last, a rename by one of the manifest's suffixes (x.py → x_deprecated.py, anywhere). */
static int locate(const tracking_manifest *m, const tracking_opts *o, trk_item *it) {
    const char *found = NULL;
    it->where = TRK_GONE;
    if (in_tree(o, it->file)) found = it->file, it->where = TRK_AT_PATH;
    else if (it->renamed_to && in_tree(o, it->renamed_to)) found = it->renamed_to, it->where = TRK_RENAMED;
    else if ((found = by_basename(o, it->file, base_of(it->file)))) it->where = TRK_MOVED;
    for (size_t k = 0; !found && m && k < m->rename_suffixes.n; k++) {
        const char *b = base_of(it->file), *dot = strrchr(b, '.');
        size_t stem = dot ? (size_t)(dot - b) : strlen(b);
        sb nb = {0};
        sb_printf(&nb, "%.*s%s%s", (int)stem, b, VEC_AT(&m->rename_suffixes, char *, k), dot ? dot : "");
        if (nb.oom) return -1;
        if ((found = by_basename(o, it->file, nb.s))) it->where = TRK_RENAMED;
        sb_free(&nb);
    }
    if (!found) return 0;
    it->found = dup(found);
    return it->found ? 0 : -1;
}

/* Appends what keeps a file item open beyond its task's rules: the other tasks and families
 * with findings in the file ("also legacy code of task 3 (execution_strategy: 2), ..."). */
typedef struct task_family {
    int task;
    const char *family;
    size_t n;
} task_family;

static int cmp_task_family(const void *a, const void *b) {
    const task_family *x = a, *y = b;
    return x->task != y->task ? (x->task < y->task ? -1 : 1) : strcmp(x->family, y->family);
}

static int other_tasks(sb *rem, const tracking_manifest *m, const sunset_result *res, const trk_task *t,
                       const trk_item *it, bool en) {
    enum { MAXK = 8 };
    task_family k[MAXK];
    size_t nk = 0, extra = 0;
    for (size_t i = 0; i < it->open.n; i++) {
        const sunset_finding *f = &res->findings[VEC_AT(&it->open, size_t, i)];
        if (trk_selector_match(&t->sel, f)) continue;
        size_t j = 0;
        while (j < nk && !(k[j].task == f->task && strcmp(k[j].family, f->family ? f->family : "") == 0)) j++;
        if (j == nk && nk == MAXK) {
            extra++;
            continue;
        }
        if (j == nk) k[nk++] = (task_family){f->task, f->family ? f->family : "", 0};
        k[j].n++;
    }
    qsort(k, nk, sizeof k[0], cmp_task_family);
    sb_puts(rem, rem->len ? (en ? "; " : "；") : "");
    sb_puts(rem, en ? "still holds legacy code of " : "仍有");
    for (size_t j = 0; j < nk; j++) {
        char num[16];
        if (en) sb_printf(rem, "%stask %d (%s: %zu)", j ? ", " : "", k[j].task, k[j].family, k[j].n);
        else
            sb_printf(rem, "%s任务%s（%s：%zu 处）", j ? "、" : "", trk_cn_number(k[j].task, num),
                      trk_family_name(m, k[j].family, TRK_ZH), k[j].n);
    }
    if (extra) sb_printf(rem, en ? " and %zu more" : "等 %zu 处", extra);
    if (!en) sb_puts(rem, "的旧执行器代码");
    return rem->oom ? -1 : 0;
}

/* owner[k]: the item (index) finding k belongs to, OWN_OTHER, or OWN_NONE. */
enum { OWN_NONE = -1, OWN_OTHER = INT_MAX };

/* A file item: where its file is, and every finding left in it (each finding of the tree in
 * one file item of the task at most: `owner`). */
static int measure_item(const tracking_opts *o, const sunset_result *res, const tracking_report *r,
                        const trk_task *t, trk_item *it, int self, int *owner) {
    sb rem = {0};
    int rc = -1;
    if (locate(r->m, o, it)) goto cleanup;
    const trk_file *tf = it->found ? tracking_file(r, it->found) : NULL;
    it->computed = tf ? tf->handling : TRK_NONE;
    /* Every legacy finding left in the file keeps its item open, not only the task's own: a
     * 部分删除 test that still constructs a ParallelExecutor is not done because the
     * test-removal rules no longer match it. */
    it->open_other = 0;
    if (tf)
        for (size_t i = 0; i < tf->n; i++) {
            size_t k = tf->first + i;
            if (owner[k] != OWN_NONE) continue; /* another item names the same file */
            if (!vec_push(&it->open, &k)) goto cleanup;
            owner[k] = self;
            it->open_other += !trk_selector_match(&t->sel, &res->findings[k]);
        }
    bool en = o->lang == TRK_EN;
    const char *sep = en ? "; " : "；";
    if (it->where == TRK_MOVED && en) sb_printf(&rem, "moved to %s", it->found);
    else if (it->where == TRK_MOVED) sb_puts(&rem, "已移至 "), put_code(&rem, it->found);
    if (it->where == TRK_RENAMED && en) sb_printf(&rem, "renamed to %s", it->found);
    else if (it->where == TRK_RENAMED) sb_puts(&rem, "已重命名为 "), put_code(&rem, it->found);
    if (it->handling == TRK_DIRECT) {
        it->done = it->where == TRK_GONE;
        if (!it->done && it->computed == TRK_PARTIAL)
            sb_printf(&rem, en ? "%s直接删除 in the manifest, but only parts are legacy now (%zu range%s)"
                               : "%s清单为直接删除，但现在只有部分代码属于旧执行器（%zu 处%.0s）",
                      rem.len ? sep : "", tf->ranges.n, tf->ranges.n == 1 ? "" : "s");
        else if (!it->done && it->computed == TRK_NONE)
            sb_printf(&rem, en ? "%sno legacy finding left, but the file still exists"
                               : "%s已无旧执行器代码，但文件仍存在",
                      rem.len ? sep : "");
    } else {
        it->done = it->open.n == 0;
        if (it->where == TRK_GONE) sb_puts(&rem, en ? "file deleted (the manifest says 部分删除)" : "文件已删除（清单为部分删除）");
        else if (it->computed == TRK_DIRECT && it->open.n)
            sb_printf(&rem, en ? "%s部分删除 in the manifest, but the file is now entirely legacy: %s"
                               : "%s清单为部分删除，但现在应整个删除：%s",
                      rem.len ? sep : "", tf->reason);
    }
    if (!it->done && it->open_other && other_tasks(&rem, r->m, res, t, it, en)) goto cleanup;
    if (rem.oom) goto cleanup;
    it->remark = rem.len ? trk_take(&rem) : NULL;
    rc = 0;
cleanup:
    sb_free(&rem);
    return rc;
}

/* The check item that finding f belongs to (the most specific selector, the first on a tie),
 * or -1. */
static int best_item(const trk_task *t, const sunset_finding *f) {
    int best = -1, rank = -1;
    for (size_t k = 0; k < t->items.n; k++) {
        const trk_item *it = &VEC_AT(&t->items, trk_item, k);
        if (it->file || it->outside || !trk_selector_match(&it->sel, f)) continue;
        int rk = trk_selector_rank(&it->sel);
        if (rk > rank) best = (int)k, rank = rk;
    }
    return best;
}

/* One task: every finding that keeps it open belongs to exactly one item or to `other`, so
 * the task's count is the sum of its rows. File items take every finding of their file; the
 * task's other findings go to their most specific check item, else to 其他. */
static int measure_task(const tracking_opts *o, const sunset_result *res, const tracking_report *r,
                        trk_task *t, int *owner) {
    t->findings.n = t->other.n = 0;
    t->n_files = t->items_done = t->items_total = t->other_comments = 0;
    for (size_t i = 0; i < res->n_findings; i++) owner[i] = OWN_NONE;
    for (size_t k = 0; k < t->items.n; k++) {
        trk_item *it = &VEC_AT(&t->items, trk_item, k);
        sunset_free(it->found);
        sunset_free(it->remark);
        it->found = it->remark = NULL;
        it->open.n = it->comments = it->open_other = 0;
        it->done = false;
        if (it->file && measure_item(o, res, r, t, it, (int)k, owner)) return -1;
    }
    for (size_t i = 0; i < res->n_findings; i++) {
        if (owner[i] != OWN_NONE || !trk_selector_match(&t->sel, &res->findings[i])) continue;
        int k = best_item(t, &res->findings[i]);
        if (!vec_push(k < 0 ? &t->other : &VEC_AT(&t->items, trk_item, k).open, &i)) return -1;
        owner[i] = k < 0 ? OWN_OTHER : k;
        if (k < 0) t->other_comments += trk_is_comment(&res->findings[i]);
    }
    for (size_t k = 0; k < t->items.n; k++) {
        trk_item *it = &VEC_AT(&t->items, trk_item, k);
        for (size_t j = 0; j < it->open.n; j++) it->comments += trk_is_comment(&res->findings[VEC_AT(&it->open, size_t, j)]);
        if (it->outside) continue;
        if (!it->file) it->done = it->open.n == 0;
        t->items_total++;
        t->items_done += it->done;
    }
    const char *last = NULL;
    for (size_t i = 0; i < res->n_findings; i++) {
        if (owner[i] == OWN_NONE) continue;
        if (!vec_push(&t->findings, &i)) return -1;
        if (!last || strcmp(last, res->findings[i].path) != 0) t->n_files++;
        last = res->findings[i].path;
    }
    t->done = t->items_done == t->items_total && t->findings.n == 0;
    return 0;
}

int trk_pr_state(const tracking_report *r, const char *pr) {
    if (!r->pr_merged || !pr || pr[0] != '#' || pr[1] < '0' || pr[1] > '9') return -1;
    char *end;
    long n = strtol(pr + 1, &end, 10);
    return *end ? -1 : r->pr_merged(r->pr_ctx, n);
}

/* Whether a PR the task names is in the measured history: 1, 0, or -1 when unknown. */
static int task_merged(const tracking_report *r, const trk_task *t) {
    int known = -1;
    for (size_t k = 0; k < t->prs.n; k++) {
        int v = trk_pr_state(r, VEC_AT(&t->prs, char *, k));
        if (v == 1) return 1;
        if (v == 0) known = 0;
    }
    return known;
}

int tracking_compute(tracking_manifest *m, const sunset_result *res, const tracking_opts *o,
                     tracking_report *out) {
    memset(out, 0, sizeof *out);
    int *owner = NULL;
    out->m = m;
    out->res = res;
    out->files = VEC_INIT(trk_file);
    /* findings are sorted by path: one record per run of equal paths */
    for (size_t i = 0; i < res->n_findings;) {
        size_t j = i;
        while (j < res->n_findings && strcmp(res->findings[j].path, res->findings[i].path) == 0) j++;
        trk_file tf = {res->findings[i].path, i, j - i, TRK_NONE, NULL, VEC_INIT(trk_range), 0, 0};
        for (size_t k = i; k < j; k++)
            if (res->findings[k].task > 0 && res->findings[k].task < SUNSET_TASKS) tf.tasks |= 1u << res->findings[k].task;
        if (classify(m, o, res, &tf) || !vec_push(&out->files, &tf)) {
            file_free(&tf);
            goto oom;
        }
        i = j;
    }
    owner = sunset_calloc(res->n_findings ? res->n_findings : 1, sizeof *owner);
    if (!owner) goto oom;
    out->submitted_known = true;
    out->pr_merged = o->pr_merged;
    out->pr_ctx = o->pr_ctx;
    for (size_t ti = 0; ti < m->tasks.n; ti++) {
        trk_task *t = &VEC_AT(&m->tasks, trk_task, ti);
        if (measure_task(o, res, out, t, owner)) goto oom;
        int merged = task_merged(out, t);
        t->merged = merged == 1;
        /* measured in the history, never copied: a task "submitted" has a PR merged */
        if (merged < 0 && t->prs.n) out->submitted_known = false;
        out->tasks_done += t->done;
        out->tasks_claimed += t->claimant != NULL;
        out->tasks_submitted += t->merged;
    }
    sunset_free(owner);
    return 0;
oom:
    sunset_free(owner);
    tracking_report_free(out);
    return -1;
}

/* --- the tree --- */

/* Whether some path in the sorted tree starts with `prefix`. */
static bool tree_has_prefix(const tracking_opts *o, const char *prefix) {
    size_t lo = 0, hi = o->n_tree, n = strlen(prefix);
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (strcmp(o->tree[mid], prefix) < 0) lo = mid + 1;
        else hi = mid;
    }
    return lo < o->n_tree && strncmp(o->tree[lo], prefix, n) == 0;
}

int tracking_tree_known(const tracking_manifest *m, const tracking_opts *o, bool *known, sb *expected) {
    size_t named = 0;
    *known = false;
    for (size_t i = 0; i < m->known_paths.n && !*known; i++) {
        const char *p = VEC_AT(&m->known_paths, char *, i);
        size_t n = strlen(p);
        *known = n && p[n - 1] == '/' ? tree_has_prefix(o, p) : in_tree(o, p);
        if (named++ < 3) sb_printf(expected, "%s%s", named > 1 ? ", " : "", p);
    }
    for (size_t ti = 0; ti < m->tasks.n && !*known; ti++) {
        const trk_task *t = &VEC_AT(&m->tasks, trk_task, ti);
        for (size_t k = 0; k < t->items.n && !*known; k++) {
            const trk_item *it = &VEC_AT(&t->items, trk_item, k);
            if (!it->file) continue;
            trk_item probe = {.file = it->file};
            if (locate(m, o, &probe)) return -1;
            *known = probe.where != TRK_GONE;
            sunset_free(probe.found);
            if (named++ < 3) sb_printf(expected, "%s%s", named > 1 ? ", " : "", it->file);
        }
    }
    return expected->oom ? -1 : 0;
}

/* --- helpers for the writers --- */

bool trk_lang_parse(const char *s, trk_lang *out) {
    if (s && strcmp(s, "zh") == 0) *out = TRK_ZH;
    else if (s && strcmp(s, "en") == 0) *out = TRK_EN;
    else return false;
    return true;
}

size_t trk_chars(const char *s, size_t n) {
    size_t c = 0;
    for (size_t i = 0; i < n; i++) c += ((unsigned char)s[i] & 0xC0) != 0x80;
    return c;
}


bool trk_is_web_url(const char *u) {
    return u && (strncasecmp(u, "https://", 8) == 0 || strncasecmp(u, "http://", 7) == 0);
}

/* A path as a URL path: bytes outside the unreserved and path-safe set percent-encoded, so
 * a name cannot end the URL, the attribute or the Markdown link ('"', ')', '#', '?', blanks,
 * controls, non-ASCII). */
static void put_url_path(sb *out, const char *p) {
    for (const unsigned char *u = (const unsigned char *)p; *u; u++) {
        if (isalnum(*u) || strchr("-._~/!$&'*+,;=:@", *u)) sb_putc(out, (char)*u);
        else sb_printf(out, "%%%02X", *u);
    }
}

bool trk_url(sb *out, const tracking_manifest *m, const char *path, uint32_t line, uint32_t end) {
    if (trk_is_web_url(m->source_url)) {
        size_t n = strlen(m->source_url);
        sb_putn(out, m->source_url, n);
        if (m->source_url[n - 1] != '/') sb_putc(out, '/');
    } else {
        /* A relative link. A first segment with ':' would read as a scheme (a directory named
         * "javascript:alert(1)"), a leading '/' or "//" as another host or root: "./" first. */
        size_t seg = strcspn(path, "/");
        if (memchr(path, ':', seg) || path[0] == '/') sb_puts(out, "./");
    }
    put_url_path(out, path);
    if (line) sb_printf(out, "#L%u", line);
    if (line && end > line) sb_printf(out, "-L%u", end);
    return !out->oom;
}

double trk_rate(size_t a, size_t b) {
    return b ? 100.0 * (double)a / (double)b : 0.0;
}

typedef struct group {
    size_t first, n; /* into t->findings */
} group;


static int cmp_group(const void *a, const void *b) {
    const group *x = a, *y = b;
    if (x->n != y->n) return x->n > y->n ? -1 : 1;
    return x->first < y->first ? -1 : x->first > y->first;
}

int trk_task_groups(const trk_task *t, const sunset_result *res, size_t max_files, vec *idx,
                    size_t *n_groups) {
    vec g = VEC_INIT(group);
    *idx = VEC_INIT(size_t);
    *n_groups = 0;
    for (size_t i = 0; i < t->findings.n;) {
        const char *p = res->findings[VEC_AT(&t->findings, size_t, i)].path;
        size_t j = i;
        while (j < t->findings.n && strcmp(res->findings[VEC_AT(&t->findings, size_t, j)].path, p) == 0) j++;
        group x = {i, j - i};
        if (!vec_push(&g, &x)) goto oom;
        i = j;
    }
    if (g.n > 1) qsort(g.v, g.n, sizeof(group), cmp_group);
    *n_groups = g.n;
    for (size_t i = 0; i < g.n && i < max_files; i++)
        if (!vec_push(idx, &VEC_AT(&g, group, i).first)) goto oom;
    vec_free(&g);
    return 0;
oom:
    vec_free(&g);
    vec_free(idx);
    return -1;
}
