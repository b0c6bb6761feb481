/*
 * compdb.c — precise mode's compile_commands.json. The database is checked for shape before
 * libclang reads it (so a malformed file costs the user one line, not libclang's several),
 * the files it really lists are collected once (libclang would interpolate a command for
 * any other file), and per file the command is turned into arguments libclang can parse
 * with: output and dependency options dropped, path options resolved against the entry's
 * directory, headers parsed as sources, nvcc commands refused.
 */
#include "lang/clang/clang_int.h"

#include <cjson/cJSON.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/json.h"

/* ---------------------------------------------------------------- compile commands */

void clang_precise_cmd_free(precise_cmd *pc) {
    for (int i = 0; i < pc->argc; i++) sunset_free(pc->argv[i]);
    sunset_free(pc->argv);
    sunset_free(pc->file);
    memset(pc, 0, sizeof *pc);
}

/* dir + "/" + p, or p alone when absolute. Caller frees; NULL when out of memory. */
char *clang_path_join(const char *dir, const char *p) {
    sb b = {0};
    if (p[0] == '/' || !dir || !*dir) {
        sb_puts(&b, p);
    } else {
        sb_puts(&b, dir);
        if (b.len && b.s[b.len - 1] != '/') sb_putc(&b, '/');
        sb_puts(&b, p);
    }
    if (b.oom) { sb_free(&b); return NULL; }
    return sb_take(&b);
}

/* Appends s, taking ownership (freed here on failure). False when s is NULL or out of memory. */
static bool argv_add(precise_cmd *pc, char *s, int *cap) {
    if (!s) return false;
    if (pc->argc == *cap) {
        int nc = *cap ? *cap * 2 : 32;
        char **nv = sunset_realloc(pc->argv, (size_t)nc * sizeof *nv);
        if (!nv) { sunset_free(s); return false; }
        pc->argv = nv;
        *cap = nc;
    }
    pc->argv[pc->argc++] = s;
    return true;
}

/* Caller frees. */
char *clang_dup_cstr(const char *s) { return sunset_strndup(s, strlen(s)); }

/* Options whose argument is a path to resolve against the entry's directory. */
static const char *const path_opts[] = {"-I", "-isystem", "-iquote", "-idirafter", "-include",
                                        "-imacros", "-F", NULL};
/* Options to drop together with their argument. */
static const char *const drop_with_arg[] = {"-o", "-MF", "-MT", "-MQ", NULL};
static const char *const drop_alone[] = {"-c", "-M", "-MM", "-MD", "-MMD", "-MP", "-MG",
                                         "-fsyntax-only", "-E", "-S", NULL};

static bool in_list(const char *const *list, const char *s) {
    for (int i = 0; list[i]; i++)
        if (strcmp(list[i], s) == 0) return true;
    return false;
}

/* Normalised absolute path for comparing files: realpath when the file exists. Caller frees. */
static char *normal_path(const char *abs) {
    char buf[PATH_MAX];
    return clang_dup_cstr(realpath(abs, buf) ? buf : abs);
}

static int cmp_str(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The files the database really lists. libclang answers a query for any other file with a
 * command interpolated from a neighbour; those files stay in fast mode. */
bool clang_collect_db_files(clang_state *st) {
    bool ok = false;
    size_t cap = 0;
    CXCompileCommands all = clang_CompilationDatabase_getAllCompileCommands(st->db);
    unsigned n = all ? clang_CompileCommands_getSize(all) : 0;
    for (unsigned i = 0; i < n; i++) {
        CXCompileCommand cmd = clang_CompileCommands_getCommand(all, i);
        CXString dirs = clang_CompileCommand_getDirectory(cmd);
        CXString files = clang_CompileCommand_getFilename(cmd);
        const char *file = clang_getCString(files);
        char *joined = file ? clang_path_join(clang_getCString(dirs), file) : NULL;
        char *norm = joined ? normal_path(joined) : NULL;
        sunset_free(joined);
        clang_disposeString(dirs);
        clang_disposeString(files);
        if (!file) continue;
        if (!norm) goto cleanup;
        if (st->n_db_files == cap) {
            size_t nc = cap ? cap * 2 : 64;
            char **nv = sunset_realloc(st->db_files, nc * sizeof *nv);
            if (!nv) {
                sunset_free(norm);
                goto cleanup;
            }
            st->db_files = nv;
            cap = nc;
        }
        st->db_files[st->n_db_files++] = norm;
    }
    if (st->n_db_files) qsort(st->db_files, st->n_db_files, sizeof *st->db_files, cmp_str);
    ok = true;
cleanup:
    if (all) clang_CompileCommands_dispose(all);
    return ok;
}

bool clang_db_lists(const clang_state *st, const char *abs) {
    char *norm = normal_path(abs);
    if (!norm) return false;
    bool found = st->n_db_files &&
                 bsearch(&norm, st->db_files, st->n_db_files, sizeof *st->db_files, cmp_str);
    sunset_free(norm);
    return found;
}

/* Looks `abs` up in the database; on success fills pc with the arguments to parse with. */
bool clang_precise_lookup(clang_state *st, const char *abs, precise_cmd *pc, bool *oom) {
    bool ok = false;
    int cap = 0;
    pthread_mutex_lock(&st->db_lock);
    CXCompileCommands cmds = clang_CompilationDatabase_getCompileCommands(st->db, abs);
    unsigned ncmd = cmds ? clang_CompileCommands_getSize(cmds) : 0;
    if (ncmd == 0) goto cleanup;
    CXCompileCommand cmd = clang_CompileCommands_getCommand(cmds, 0);
    /* nvcc command lines mean nothing to libclang: such files stay in fast mode */
    CXString cc = clang_CompileCommand_getArg(cmd, 0);
    const char *ccs = clang_getCString(cc);
    const char *base = ccs ? strrchr(ccs, '/') : NULL;
    bool nvcc = ccs && strstr(base ? base + 1 : ccs, "nvcc") != NULL;
    clang_disposeString(cc);
    if (nvcc) goto cleanup;
    CXString dirs = clang_CompileCommand_getDirectory(cmd);
    CXString files = clang_CompileCommand_getFilename(cmd);
    const char *dir = clang_getCString(dirs);
    const char *given = clang_getCString(files);
    pc->file = clang_path_join(dir, given ? given : abs);
    bool good = pc->file != NULL;
    unsigned na = clang_CompileCommand_getNumArgs(cmd);
    for (unsigned i = 1; good && i < na; i++) {
        CXString as = clang_CompileCommand_getArg(cmd, i);
        const char *a = clang_getCString(as);
        CXString nexts = {0};
        const char *next = NULL;
        if (i + 1 < na) {
            nexts = clang_CompileCommand_getArg(cmd, i + 1);
            next = clang_getCString(nexts);
        }
        bool took_next = false;
        if (!a) {
        } else if (strcmp(a, "-x") == 0 && next && strstr(next, "-header")) {
            /* a header listed as such: parse it as a source, not as a PCH */
            good = argv_add(pc, clang_dup_cstr("-x"), &cap) &&
                   argv_add(pc, sunset_strndup(next, (size_t)(strstr(next, "-header") - next)),
                            &cap);
            took_next = true;
        } else if (in_list(drop_with_arg, a)) {
            took_next = true;
        } else if (in_list(drop_alone, a) || (strncmp(a, "-o", 2) == 0 && a[2]) ||
                   ((strncmp(a, "-MF", 3) == 0 || strncmp(a, "-MT", 3) == 0 ||
                     strncmp(a, "-MQ", 3) == 0) && a[3])) {
        } else if ((given && strcmp(a, given) == 0) || strcmp(a, abs) == 0 ||
                   strcmp(a, pc->file) == 0) {
        } else {
            const char *opt = NULL;
            for (int k = 0; path_opts[k]; k++) {
                size_t ol = strlen(path_opts[k]);
                if (strncmp(a, path_opts[k], ol) == 0 && (a[ol] == 0 || ol <= 2)) {
                    opt = path_opts[k];
                    break;
                }
            }
            if (opt && a[strlen(opt)] == 0 && next) { /* -I dir */
                good = argv_add(pc, clang_dup_cstr(opt), &cap) &&
                       argv_add(pc, clang_path_join(dir, next), &cap);
                took_next = true;
            } else if (opt && a[strlen(opt)]) { /* -Idir */
                char *p = clang_path_join(dir, a + strlen(opt));
                sb b = {0};
                sb_puts(&b, opt);
                if (p) sb_puts(&b, p);
                sunset_free(p);
                good = p && !b.oom && argv_add(pc, sb_take(&b), &cap);
                if (!good) sb_free(&b);
            } else {
                good = argv_add(pc, clang_dup_cstr(a), &cap);
            }
        }
        clang_disposeString(as);
        if (next) clang_disposeString(nexts);
        if (took_next) i++;
    }
    /* No -working-directory=DIR: libclang 14 applies it to the real file system, which
     * chdir()s the whole process (every relative path sunset holds, --output included, then
     * resolves inside the compile command's directory). Path options are joined with DIR
     * above instead. */
    good = good && argv_add(pc, clang_dup_cstr("-Wno-everything"), &cap) &&
           argv_add(pc, clang_dup_cstr("-ferror-limit=0"), &cap);
    clang_disposeString(dirs);
    clang_disposeString(files);
    if (!good) {
        *oom = true;
        clang_precise_cmd_free(pc);
        goto cleanup;
    }
    ok = true;
cleanup:
    if (cmds) clang_CompileCommands_dispose(cmds);
    pthread_mutex_unlock(&st->db_lock);
    return ok;
}

/* libclang answers a malformed compile_commands.json with several lines of its own on stderr
 * (YAML errors, "LIBCLANG TOOLING ERROR"); check the shape first so that the user gets one
 * line: "FILE:LINE:COL: invalid JSON" or "FILE: entry N: ...". Keys as libclang 14 knows them.
 * Returns true when libclang may read it. */
bool clang_compdb_check(const char *file, sunset_error *err) {
    char *text = NULL;
    size_t len = 0;
    int e = read_file(file, 0, &text, &len);
    if (e) {
        snprintf(err->msg, sizeof err->msg, "%s: cannot read: %s", file, strerror(e));
        return false;
    }
    size_t err_off = 0;
    cJSON *doc = json_parse(text, len, &err_off);
    bool ok = false;
    if (!doc) {
        json_parse_error(text, err_off, file, "invalid JSON", err);
        goto cleanup;
    }
    if (!cJSON_IsArray(doc)) {
        snprintf(err->msg, sizeof err->msg, "%s: not a JSON array of compile commands", file);
        goto cleanup;
    }
    int i = 0;
    const cJSON *ent;
    cJSON_ArrayForEach(ent, doc) {
        i++;
        const char *bad = NULL;
        if (!cJSON_IsObject(ent)) bad = "not an object";
        for (const cJSON *k = bad ? NULL : ent->child; k && !bad; k = k->next) {
            if (strcmp(k->string, "arguments") == 0) {
                if (!cJSON_IsArray(k)) bad = "\"arguments\" is not an array";
                for (const cJSON *a = bad ? NULL : k->child; a; a = a->next)
                    if (!cJSON_IsString(a)) bad = "\"arguments\" holds a non-string";
            } else if (strcmp(k->string, "directory") && strcmp(k->string, "file") &&
                       strcmp(k->string, "command") && strcmp(k->string, "output")) {
                bad = "unknown key";
            } else if (!cJSON_IsString(k)) {
                bad = "a value is not a string";
            }
        }
        if (!bad && (!cJSON_IsString(cJSON_GetObjectItemCaseSensitive(ent, "directory")) ||
                     !cJSON_IsString(cJSON_GetObjectItemCaseSensitive(ent, "file"))))
            bad = "\"directory\" or \"file\" missing";
        if (!bad && !cJSON_GetObjectItemCaseSensitive(ent, "command") &&
            !cJSON_GetObjectItemCaseSensitive(ent, "arguments"))
            bad = "neither \"command\" nor \"arguments\"";
        if (bad) {
            snprintf(err->msg, sizeof err->msg, "%s: entry %d: %s", file, i, bad);
            goto cleanup;
        }
    }
    ok = true;
cleanup:
    cJSON_Delete(doc);
    sunset_free(text);
    return ok;
}
