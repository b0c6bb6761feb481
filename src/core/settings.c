/*
 * settings.c — loads the settings pack (rules/00-settings.json, rules/SCHEMA.md): families,
 * test and generated paths, the tree's conventions for cross-file analysis (cross_file), how
 * findings group into remnants, what ties a file to Paddle (anchor), the tasks of the tracking
 * issue and the CMake commands that define targets. What sunset knows of Paddle is data read
 * here, not code.
 */
#include "core/loader_int.h"

#include "base/json.h"

#include <stdlib.h>
#include <string.h>

#include "core/anchor.h"
#include "core/result.h"

int ld_string_list(loader *L, const cJSON *arr, const char *field, vec *out) {
    if (!cJSON_IsArray(arr)) return ld_fail(L, field, "\"%s\" must be an array of strings", field);
    const cJSON *it;
    cJSON_ArrayForEach(it, arr) {
        if (!cJSON_IsString(it)) return ld_fail(L, field, "\"%s\" must hold strings", field);
        char *v = sunset_strndup(it->valuestring, strlen(it->valuestring));
        if (!v || !vec_push(out, &v)) {
            sunset_free(v);
            return ld_oom(L);
        }
    }
    return 0;
}

/* The string lists x holds under names[0 .. n) (each optional) into lists[0 .. n). */
static int string_lists(loader *L, const cJSON *x, const char *const *names, vec *const *lists, int n) {
    for (int k = 0; k < n; k++) {
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(x, names[k]);
        if (v && ld_string_list(L, v, names[k], lists[k])) return -1;
    }
    return 0;
}

static void cross_file_init(sunset_cross_file *x) {
    x->test_modules = x->test_trees = VEC_INIT(pcre2_code *);
    x->import_roots = x->module_commands = x->cmake_sources = x->cmake_modules = x->cmake_deps = VEC_INIT(char *);
    x->links = VEC_INIT(sunset_link);
}

static void cross_file_free(sunset_cross_file *x) {
    vec *res[] = {&x->test_modules, &x->test_trees};
    vec *strs[] = {&x->import_roots, &x->module_commands, &x->cmake_sources, &x->cmake_modules, &x->cmake_deps};
    for (size_t k = 0; k < 2; k++) {
        for (size_t i = 0; i < res[k]->n; i++) pcre2_code_free(VEC_AT(res[k], pcre2_code *, i));
        vec_free(res[k]);
    }
    for (size_t k = 0; k < sizeof strs / sizeof *strs; k++) {
        for (size_t i = 0; i < strs[k]->n; i++) sunset_free(VEC_AT(strs[k], char *, i));
        vec_free(strs[k]);
    }
    for (size_t i = 0; i < x->links.n; i++) {
        sunset_link *l = &VEC_AT(&x->links, sunset_link, i);
        sunset_free(l->name);
        vec *lists[] = {&l->define, &l->declare};
        for (size_t k = 0; k < 2; k++) {
            for (size_t j = 0; j < lists[k]->n; j++) sunset_free(VEC_AT(lists[k], char *, j));
            vec_free(lists[k]);
        }
    }
    vec_free(&x->links);
}

/* cross_file.links: [{"name": "...", "define": [MACRO...], "declare": [MACRO...]}] */
static int load_links(loader *L, const cJSON *arr, vec *out) {
    static const char *const allowed[] = {"name", "define", "declare", NULL};
    if (!cJSON_IsArray(arr)) return ld_fail(L, "links", "\"links\" must be an array of objects");
    const cJSON *it;
    cJSON_ArrayForEach(it, arr) {
        if (!cJSON_IsObject(it)) return ld_fail(L, "links", "\"links\" must hold objects");
        if (ld_check_fields(L, it, "a \"links\" entry", allowed)) return -1;
        const cJSON *name = cJSON_GetObjectItemCaseSensitive(it, "name");
        const cJSON *def = cJSON_GetObjectItemCaseSensitive(it, "define");
        const cJSON *dec = cJSON_GetObjectItemCaseSensitive(it, "declare");
        if (!cJSON_IsString(name) || !def || !dec)
            return ld_fail(L, "links", "a \"links\" entry needs \"name\", \"define\" and \"declare\"");
        sunset_link l = {sunset_strndup(name->valuestring, strlen(name->valuestring)), VEC_INIT(char *),
                         VEC_INIT(char *)};
        if (!l.name || !vec_push(out, &l)) {
            sunset_free(l.name);
            return ld_oom(L);
        }
        sunset_link *in = &VEC_AT(out, sunset_link, out->n - 1);
        if (ld_string_list(L, def, "define", &in->define) || ld_string_list(L, dec, "declare", &in->declare)) return -1;
        if (!in->define.n || !in->declare.n)
            return ld_fail(L, "links", "\"define\" and \"declare\" of a \"links\" entry must not be empty");
    }
    return 0;
}

static int add_test_path(loader *L, const char *pat, vec *list) {
    pcre2_code *re;
    if (ld_compile_re(L, "test_paths", pat, &re)) return -1;
    if (!vec_push(list, &re)) {
        pcre2_code_free(re);
        return ld_oom(L);
    }
    return 0;
}

/* One test_paths pattern into the list of each role it names. */
static int test_path_roles(loader *L, const cJSON *it) {
    static const char *const fields[] = {"pattern", "roles", NULL};
    static const char *const roles[] = {"test", "module", "tree"};
    vec *lists[] = {&L->rs->test_paths, &L->rs->cross_file.test_modules, &L->rs->cross_file.test_trees};
    const cJSON *pat = cJSON_GetObjectItemCaseSensitive(it, "pattern");
    const cJSON *rl = cJSON_GetObjectItemCaseSensitive(it, "roles");
    if (ld_check_fields(L, it, "a \"test_paths\" entry", fields)) return -1;
    if (!cJSON_IsString(pat) || !cJSON_IsArray(rl) || !cJSON_GetArraySize(rl))
        return ld_fail_item(L, it, "a \"test_paths\" entry needs \"pattern\" (a regex) and \"roles\" (a non-empty array)");
    const cJSON *r;
    cJSON_ArrayForEach(r, rl) {
        size_t k = 0;
        while (k < 3 && !(cJSON_IsString(r) && !strcmp(r->valuestring, roles[k]))) k++;
        if (k == 3) return ld_fail_item(L, r, "a \"test_paths\" role must be \"test\", \"module\" or \"tree\"");
        if (add_test_path(L, pat->valuestring, lists[k])) return -1;
    }
    return 0;
}

/* settings.test_paths (rules/SCHEMA.md): the one list of test-path patterns, each with its roles;
 * a bare string is a pattern with the role "test" alone. */
static int load_test_paths(loader *L, const cJSON *arr) {
    if (!cJSON_IsArray(arr)) return ld_fail(L, "test_paths", "\"test_paths\" must be an array");
    const cJSON *it;
    cJSON_ArrayForEach(it, arr) {
        if (cJSON_IsString(it)) {
            if (add_test_path(L, it->valuestring, &L->rs->test_paths)) return -1;
        } else if (!cJSON_IsObject(it)) {
            return ld_fail_item(L, it, "\"test_paths\" must hold regexes or {\"pattern\", \"roles\"} objects");
        } else if (test_path_roles(L, it)) {
            return -1;
        }
    }
    return 0;
}

/* settings.cross_file (rules/SCHEMA.md): the conventions of the tree for removable.h. */
static int load_cross_file(loader *L, const cJSON *x) {
    static const char *const allowed[] = {"import_roots", "module_commands", "links", NULL};
    if (!cJSON_IsObject(x)) return ld_fail(L, "cross_file", "\"cross_file\" must be an object");
    static const char *const moved[] = {"test_modules", "test_trees"};
    for (int k = 0; k < 2; k++)
        if (cJSON_GetObjectItemCaseSensitive(x, moved[k]))
            return ld_fail_item(L, cJSON_GetObjectItemCaseSensitive(x, moved[k]),
                                "\"cross_file.%s\" moved: give its patterns the role \"%s\" in \"test_paths\"", moved[k],
                                k ? "tree" : "module");
    if (ld_check_fields(L, x, "\"cross_file\"", allowed)) return -1;
    sunset_cross_file *cf = &L->rs->cross_file;
    const cJSON *v;
    if ((v = cJSON_GetObjectItemCaseSensitive(x, "import_roots")) && ld_string_list(L, v, "import_roots", &cf->import_roots))
        return -1;
    if ((v = cJSON_GetObjectItemCaseSensitive(x, "module_commands")) &&
        ld_string_list(L, v, "module_commands", &cf->module_commands))
        return -1;
    if ((v = cJSON_GetObjectItemCaseSensitive(x, "links")) && load_links(L, v, &cf->links)) return -1;
    return 0;
}

static void remnant_settings_free(sunset_remnant_settings *x) {
    vec *all[] = {&x->doc_paths, &x->consumer_paths, &x->file_rules, &x->delete_rules, &x->consumers, &x->code_rules,
                  &x->code_callees, &x->successor_rules};
    vec_free(&x->code_args);
    for (size_t k = 0; k < sizeof all / sizeof *all; k++) {
        for (size_t i = 0; i < all[k]->n; i++)
            k < 2 ? pcre2_code_free(VEC_AT(all[k], pcre2_code *, i)) : sunset_free(VEC_AT(all[k], char *, i));
        vec_free(all[k]);
    }
}

/* settings.remnants.code_strings (rules/SCHEMA.md): which strings code puts where are code:
 * {"uses": ["subscript", "key", "compare"], "calls": [{"callee": GLOB, "arg": N}, ...]}. */
static int load_code_strings(loader *L, const cJSON *x, sunset_remnant_settings *rm) {
    static const char *const allowed[] = {"uses", "calls", NULL};
    static const char *const uses[SUNSET_USE_COUNT] = {[SUNSET_USE_SUBSCRIPT] = "subscript", [SUNSET_USE_KEY] = "key",
                                                       [SUNSET_USE_COMPARE] = "compare"};
    if (!cJSON_IsObject(x)) return ld_fail(L, "code_strings", "\"code_strings\" must be an object");
    if (ld_check_fields(L, x, "\"code_strings\"", allowed)) return -1;
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(x, "uses"), *it;
    if (v && !cJSON_IsArray(v)) return ld_fail(L, "uses", "\"uses\" must be an array of use names");
    cJSON_ArrayForEach(it, v) {
        int u = SUNSET_USE_COUNT;
        while (--u > 0 && !(uses[u] && cJSON_IsString(it) && strcmp(uses[u], it->valuestring) == 0)) {}
        if (u <= 0) return ld_fail_item(L, it, "a use is one of \"subscript\", \"key\", \"compare\"");
        rm->code_uses |= 1u << u;
    }
    if ((v = cJSON_GetObjectItemCaseSensitive(x, "calls")) && !cJSON_IsArray(v))
        return ld_fail(L, "calls", "\"calls\" must be an array of objects");
    cJSON_ArrayForEach(it, v) {
        static const char *const fields[] = {"callee", "arg", NULL};
        const cJSON *callee = cJSON_GetObjectItemCaseSensitive(it, "callee");
        const cJSON *arg = cJSON_GetObjectItemCaseSensitive(it, "arg");
        long at = -1;
        if (!cJSON_IsObject(it) || !cJSON_IsString(callee) || !*callee->valuestring ||
            (arg && (!cJSON_IsNumber(arg) || json_get_int(arg, 0, 64, &at))))
            return ld_fail_item(L, it, "each call needs \"callee\" (a glob) and may say \"arg\" (a position, 0-64)");
        if (ld_check_fields(L, it, "a code_strings call", fields)) return -1;
        char *g = sunset_strndup(callee->valuestring, strlen(callee->valuestring));
        int a = (int)at;
        if (!g || !vec_push(&rm->code_callees, &g)) return sunset_free(g), ld_oom(L);
        if (!vec_push(&rm->code_args, &a)) return ld_oom(L);
    }
    return 0;
}

/* settings.remnants (rules/SCHEMA.md): grouping and actions for analysis/remnant.c. */
static int load_remnants(loader *L, const cJSON *x) {
    static const char *const allowed[] = {"file_rules", "delete_rules", "successor_rules", "code_rules",
                                          "code_strings", "doc_paths", "consumers", "severity", NULL};
    static const char *const actions[SUNSET_REMNANT_ACTIONS + 1] = {"delete", "migrate", "update-doc", NULL};
    if (!cJSON_IsObject(x)) return ld_fail(L, "remnants", "\"remnants\" must be an object");
    if (ld_check_fields(L, x, "\"remnants\"", allowed)) return -1;
    sunset_remnant_settings *rm = &L->rs->remnants;
    const cJSON *v, *it;
    if (((v = cJSON_GetObjectItemCaseSensitive(x, "file_rules")) && ld_string_list(L, v, "file_rules", &rm->file_rules)) ||
        ((v = cJSON_GetObjectItemCaseSensitive(x, "delete_rules")) && ld_string_list(L, v, "delete_rules", &rm->delete_rules)) ||
        ((v = cJSON_GetObjectItemCaseSensitive(x, "successor_rules")) &&
         ld_string_list(L, v, "successor_rules", &rm->successor_rules)) ||
        ((v = cJSON_GetObjectItemCaseSensitive(x, "code_rules")) && ld_string_list(L, v, "code_rules", &rm->code_rules)) ||
        ((v = cJSON_GetObjectItemCaseSensitive(x, "doc_paths")) && ld_regex_list(L, v, "doc_paths", &rm->doc_paths)) ||
        ((v = cJSON_GetObjectItemCaseSensitive(x, "code_strings")) && load_code_strings(L, v, rm)))
        return -1;
    if ((v = cJSON_GetObjectItemCaseSensitive(x, "consumers"))) {
        if (!cJSON_IsArray(v)) return ld_fail(L, "consumers", "\"consumers\" must be an array of objects");
        cJSON_ArrayForEach(it, v) {
            static const char *const fields[] = {"path", "consumer", NULL};
            const cJSON *path = cJSON_GetObjectItemCaseSensitive(it, "path");
            const cJSON *who = cJSON_GetObjectItemCaseSensitive(it, "consumer");
            if (!cJSON_IsObject(it) || !cJSON_IsString(path) || !cJSON_IsString(who) || !*who->valuestring)
                return ld_fail_item(L, it, "each consumer needs \"path\" (a regex) and \"consumer\" (a name)");
            if (ld_check_fields(L, it, "a consumer", fields)) return -1;
            pcre2_code *re;
            if (ld_compile_re(L, "consumers", path->valuestring, &re)) return -1;
            if (!vec_push(&rm->consumer_paths, &re)) return pcre2_code_free(re), ld_oom(L);
            char *name = sunset_strndup(who->valuestring, strlen(who->valuestring));
            if (!name || !vec_push(&rm->consumers, &name)) return sunset_free(name), ld_oom(L);
        }
    }
    if ((v = cJSON_GetObjectItemCaseSensitive(x, "severity"))) {
        if (!cJSON_IsObject(v)) return ld_fail(L, "severity", "\"severity\" must map actions to severities");
        if (ld_check_fields(L, v, "\"remnants.severity\"", actions)) return -1;
        for (int a = 0; a < SUNSET_REMNANT_ACTIONS; a++)
            if ((it = cJSON_GetObjectItemCaseSensitive(v, actions[a])) && ld_severity_of(L, it, actions[a], &rm->severity[a]))
                return -1;
    }
    return 0;
}

/* settings.anchor (rules/SCHEMA.md): what ties a file to Paddle (core/anchor.c). */
static int load_anchor(loader *L, const cJSON *x) {
    static const char *const allowed[] = {"paths", "header", "modules", "namespaces", "headers",
                                          "commands", "words", "module_literals", "tree", NULL};
    if (!cJSON_IsObject(x)) return ld_fail(L, "anchor", "\"anchor\" must be an object");
    if (ld_check_fields(L, x, "\"anchor\"", allowed)) return -1;
    sunset_anchor *a = &L->rs->anchor;
    vec *lists[] = {&a->paths, &a->header, &a->modules, &a->namespaces, &a->headers, &a->commands,
                    &a->words};
    for (size_t k = 0; k < sizeof lists / sizeof *lists; k++) {
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(x, allowed[k]);
        if (v && ld_regex_list(L, v, allowed[k], lists[k])) return -1;
    }
    const cJSON *lit = cJSON_GetObjectItemCaseSensitive(x, "module_literals");
    if (lit && ld_string_list(L, lit, "module_literals", &a->module_literals)) return -1;
    const cJSON *tree = cJSON_GetObjectItemCaseSensitive(x, "tree");
    if (tree && ld_string_list(L, tree, "tree", &a->tree)) return -1;
    a->on = true;
    return 0;
}

/* settings.tasks: [{"id": 1, "title": "..."}, ...], numbered 1, 2, ... in order; no more than
 * the results hold (SUNSET_TASKS - 1). */
static int load_tasks(loader *L, const cJSON *arr) {
    static const char *const fields[] = {"id", "title", NULL};
    if (!cJSON_IsArray(arr) || cJSON_GetArraySize(arr) == 0)
        return ld_fail(L, "tasks", "\"tasks\" must be a non-empty array of objects");
    if (cJSON_GetArraySize(arr) > SUNSET_TASKS - 1)
        return ld_fail(L, "tasks", "\"tasks\": at most %d tasks", SUNSET_TASKS - 1);
    const cJSON *it;
    cJSON_ArrayForEach(it, arr) {
        const cJSON *id = cJSON_GetObjectItemCaseSensitive(it, "id");
        const cJSON *title = cJSON_GetObjectItemCaseSensitive(it, "title");
        if (!cJSON_IsObject(it) || !cJSON_IsNumber(id) || !cJSON_IsString(title) || !*title->valuestring)
            return ld_fail_item(L, it, "each task needs \"id\" (a number) and \"title\" (a string)");
        if (ld_check_fields(L, it, "a task", fields)) return -1;
        if (id->valuedouble != (double)(L->rs->tasks.n + 1))
            return ld_fail_item(L, id, "tasks are numbered 1, 2, ... in order: want %zu", L->rs->tasks.n + 1);
        char *t = sunset_strndup(title->valuestring, strlen(title->valuestring));
        if (!t || !vec_push(&L->rs->tasks, &t)) return sunset_free(t), ld_oom(L);
    }
    return 0;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* settings.cmake.sections: {"sources": [...], "modules": [...], "deps": [...]}, the keywords
 * that open a target's sections for the removal plan (sunset_cross_file). */
static int load_sections(loader *L, const cJSON *x) {
    static const char *const allowed[] = {"sources", "modules", "deps", NULL};
    if (!cJSON_IsObject(x)) return ld_fail(L, "sections", "\"sections\" must be an object");
    if (ld_check_fields(L, x, "\"cmake.sections\"", allowed)) return -1;
    sunset_cross_file *cf = &L->rs->cross_file;
    vec *lists[] = {&cf->cmake_sources, &cf->cmake_modules, &cf->cmake_deps};
    return string_lists(L, x, allowed, lists, 3);
}

/* settings.cmake: {"target_commands": [...], "keywords": [...], "sections": {...}}: the tree's
 * CMake wrappers (cc_library, py_test ...) whose first argument is the target they define,
 * compared in lower case as CMake does, their keyword arguments that open a section (SRCS,
 * DEPS ...), and which of those list a target's sources and dependencies (load_sections). */
static int load_cmake(loader *L, const cJSON *x) {
    static const char *const allowed[] = {"target_commands", "keywords", "sections", NULL};
    if (!cJSON_IsObject(x)) return ld_fail(L, "cmake", "\"cmake\" must be an object");
    if (ld_check_fields(L, x, "\"cmake\"", allowed)) return -1;
    const cJSON *tc = cJSON_GetObjectItemCaseSensitive(x, "target_commands");
    vec *out = &L->rs->cmake_targets;
    if (tc && ld_string_list(L, tc, "target_commands", out)) return -1;
    for (size_t i = 0; i < out->n; i++)
        for (char *c = VEC_AT(out, char *, i); *c; c++)
            if (*c >= 'A' && *c <= 'Z') *c = (char)(*c - 'A' + 'a');
    if (out->n) qsort(out->v, out->n, sizeof(char *), cmp_str);
    const cJSON *kw = cJSON_GetObjectItemCaseSensitive(x, "keywords");
    vec *kws = &L->rs->cmake_keywords;
    if (kw && ld_string_list(L, kw, "keywords", kws)) return -1;
    if (kws->n) qsort(kws->v, kws->n, sizeof(char *), cmp_str);
    const cJSON *sec = cJSON_GetObjectItemCaseSensitive(x, "sections");
    return sec ? load_sections(L, sec) : 0;
}

/* settings.macros.roles.flag: {"stem": "DEFINE_", "prefixes": [...], "types": [...]}. */
static int load_flag_role(loader *L, const cJSON *x, sunset_macro_roles *m) {
    static const char *const allowed[] = {"stem", "prefixes", "types", NULL};
    if (!cJSON_IsObject(x)) return ld_fail(L, "flag", "\"flag\" must be an object");
    if (ld_check_fields(L, x, "\"roles.flag\"", allowed)) return -1;
    const cJSON *stem = cJSON_GetObjectItemCaseSensitive(x, "stem");
    const cJSON *pre = cJSON_GetObjectItemCaseSensitive(x, "prefixes");
    const cJSON *ty = cJSON_GetObjectItemCaseSensitive(x, "types");
    if (!cJSON_IsString(stem) || !*stem->valuestring || !ty)
        return ld_fail_item(L, x, "\"flag\" needs \"stem\" (a non-empty string) and \"types\"");
    if ((pre && ld_string_list(L, pre, "prefixes", &m->flag_prefixes)) || ld_string_list(L, ty, "types", &m->flag_types))
        return -1;
    if (!(m->flag_stem = sunset_strndup(stem->valuestring, strlen(stem->valuestring)))) return ld_oom(L);
    return 0;
}

/* settings.macros.roles: {"op": [...], "pass": [...], "use": [...], "kernel": [...], "flag": {...}}: the
 * registration and link macros the cross-file index reads (sunset_macro_roles). */
static int load_roles(loader *L, const cJSON *x) {
    static const char *const allowed[] = {"op", "pass", "use", "kernel", "flag", NULL};
    if (!cJSON_IsObject(x)) return ld_fail(L, "roles", "\"roles\" must be an object");
    if (ld_check_fields(L, x, "\"macros.roles\"", allowed)) return -1;
    sunset_macro_roles *m = &L->rs->macro_roles;
    vec *lists[] = {&m->op, &m->pass, &m->use, &m->kernel};
    if (string_lists(L, x, allowed, lists, 4)) return -1;
    const cJSON *fl = cJSON_GetObjectItemCaseSensitive(x, "flag");
    return fl ? load_flag_role(L, fl, m) : 0;
}

/* settings.macros: {"flag_definers": REGEX, "pass_registrars": REGEX, "roles": {...}}: the C++
 * macros whose argument names a gflag or a pass (gflag and pass rules, core/rules.c; checked
 * here), and the macros' roles for the index (load_roles). */
static int load_macros(loader *L, const cJSON *x) {
    static const char *const allowed[] = {"flag_definers", "pass_registrars", "roles", NULL};
    if (!cJSON_IsObject(x)) return ld_fail(L, "macros", "\"macros\" must be an object");
    if (ld_check_fields(L, x, "\"macros\"", allowed)) return -1;
    char **out[] = {&L->rs->flag_definers, &L->rs->pass_registrars};
    for (int k = 0; k < 2; k++) {
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(x, allowed[k]);
        if (!v) continue;
        pcre2_code *re;
        if (!cJSON_IsString(v)) return ld_fail(L, allowed[k], "\"%s\" must be a string (a PCRE2 regex)", allowed[k]);
        if (ld_compile_re(L, allowed[k], v->valuestring, &re)) return -1;
        pcre2_code_free(re);
        if (!(*out[k] = sunset_strndup(v->valuestring, strlen(v->valuestring)))) return ld_oom(L);
    }
    const cJSON *roles = cJSON_GetObjectItemCaseSensitive(x, "roles");
    return roles ? load_roles(L, roles) : 0;
}

int ld_settings(loader *L, const cJSON *s) {
    static const char *const allowed[] = {"families", "test_paths", "generated_markers",
                                          "generated_paths", "cross_file", "remnants", "anchor",
                                          "tasks", "cmake", "macros", NULL};
    if (!cJSON_IsObject(s)) return ld_fail(L, "settings", "\"settings\" must be an object");
    if (L->rs->families.n) return ld_fail(L, "settings", "a second settings pack");
    if (ld_check_fields(L, s, "\"settings\"", allowed)) return -1;
    const cJSON *fam = cJSON_GetObjectItemCaseSensitive(s, "families");
    if (!cJSON_IsArray(fam) || cJSON_GetArraySize(fam) == 0)
        return ld_fail(L, "families", "\"families\" must be a non-empty array");
    const cJSON *it;
    cJSON_ArrayForEach(it, fam) {
        const cJSON *id = cJSON_GetObjectItemCaseSensitive(it, "id");
        const cJSON *title = cJSON_GetObjectItemCaseSensitive(it, "title");
        if (!cJSON_IsString(id) || !cJSON_IsString(title))
            return ld_fail(L, "families", "each family needs \"id\" and \"title\" strings");
        family_info f = {sunset_strndup(id->valuestring, strlen(id->valuestring)),
                         sunset_strndup(title->valuestring, strlen(title->valuestring))};
        if (!f.id || !f.title || !vec_push(&L->rs->families, &f)) {
            sunset_free(f.id);
            sunset_free(f.title);
            return ld_oom(L);
        }
    }
    const cJSON *tp = cJSON_GetObjectItemCaseSensitive(s, "test_paths");
    if (tp && load_test_paths(L, tp)) return -1;
    const cJSON *gp = cJSON_GetObjectItemCaseSensitive(s, "generated_paths");
    if (gp && ld_regex_list(L, gp, "generated_paths", &L->rs->generated_paths)) return -1;
    const cJSON *cf = cJSON_GetObjectItemCaseSensitive(s, "cross_file");
    if (cf && load_cross_file(L, cf)) return -1;
    const cJSON *rem = cJSON_GetObjectItemCaseSensitive(s, "remnants");
    if (rem && load_remnants(L, rem)) return -1;
    const cJSON *anc = cJSON_GetObjectItemCaseSensitive(s, "anchor");
    if (anc && load_anchor(L, anc)) return -1;
    const cJSON *tasks = cJSON_GetObjectItemCaseSensitive(s, "tasks");
    if (tasks && load_tasks(L, tasks)) return -1;
    const cJSON *cm = cJSON_GetObjectItemCaseSensitive(s, "cmake");
    if (cm && load_cmake(L, cm)) return -1;
    const cJSON *mac = cJSON_GetObjectItemCaseSensitive(s, "macros");
    if (mac && load_macros(L, mac)) return -1;
    /* regexes matched against each of the first lines (engine.c): a generator writes its
     * marker as a header comment, so a mention further down or inside prose is not one */
    const cJSON *gm = cJSON_GetObjectItemCaseSensitive(s, "generated_markers");
    if (gm && (ld_regex_list(L, gm, "generated_markers", &L->rs->generated_markers) ||
               ld_regex_lits(L, gm, &L->rs->generated_lits)))
        return -1;
    return 0;
}


void settings_init(sunset_ruleset *rs) {
    cross_file_init(&rs->cross_file);
    rs->tasks = rs->cmake_targets = rs->cmake_keywords = VEC_INIT(char *);
    sunset_macro_roles *m = &rs->macro_roles;
    m->op = m->pass = m->use = m->kernel = m->flag_prefixes = m->flag_types = VEC_INIT(char *);
}

int sunset_ruleset_task_max(const sunset_ruleset *rs) {
    return rs->tasks.n ? (int)rs->tasks.n : SUNSET_TASKS - 1;
}

void settings_free(sunset_ruleset *rs) {
    cross_file_free(&rs->cross_file);
    remnant_settings_free(&rs->remnants);
    sunset_anchor_free(&rs->anchor);
    sunset_macro_roles *m = &rs->macro_roles;
    vec *strs[] = {&rs->tasks, &rs->cmake_targets, &rs->cmake_keywords, &m->op, &m->pass, &m->use,
                   &m->kernel, &m->flag_prefixes, &m->flag_types};
    for (size_t k = 0; k < sizeof strs / sizeof *strs; k++) {
        for (size_t i = 0; i < strs[k]->n; i++) sunset_free(VEC_AT(strs[k], char *, i));
        vec_free(strs[k]);
    }
    sunset_free(rs->flag_definers);
    sunset_free(rs->pass_registrars);
    sunset_free(m->flag_stem);
}
