/*
 * remnant.c — builds the remnant layer (remnant.h) over a finished result. One pass per file
 * over the sorted findings: a file that is legacy as a whole becomes one file remnant;
 * otherwise consecutive findings on one line (or on a short statement spanning lines, or on
 * one definition: a CMake target command, a class) become one line remnant. The action comes
 * from evidence, liveness first and then the rule's intent: a document or a line whose
 * findings are all in comments, docstrings or strings (other than those of
 * settings.remnants.code_rules, binding names and the like, and strings code uses by
 * settings.remnants.code_strings: a registered name, a key, an operand) is update-doc; a file the plan
 * keeps live is migrate (its live callers named), one the plan proves dead delete; a plan
 * item covering the line decides by its classification (live: migrate, naming its live
 * callers; dead or an unused include: delete); a named consumer of settings.remnants.consumers
 * makes it migrate; a delete rule's CMake line outside tests that the plan does not prove
 * dead is migrate (a build line is deleted only on the plan's proof); a line that would be
 * deleted is migrate when it names a flag, pass or op the plan keeps live from another file,
 * when its legacy names are parts of longer strings (a vmodule list: the string is rewritten),
 * or, in a test, when it uses a legacy object a successor replaces
 * (settings.remnants.successor_rules); otherwise a test file's line, or a line whose every
 * code finding is a delete rule, is deleted; any other line of live code is migrate, its
 * consumer the enclosing scope. A line to delete that declares a local name a migrate line
 * of its scope still uses goes with that user (migrate). Without a plan the rules' intent
 * stands. Ranges: a deleted function definition whose header the finding names goes whole; an
 * entry of a multi-line Python import list is its own line when other entries stay. With the
 * plan (the file read from disk), a comment attached to a code remnant and a message string in
 * its statement, or in the check just after it of a name it declares, go with it (attach_text); a block's whole body takes its header (block_ranges:
 * CMake if()/elseif()/else()/endif(), Python branches, a C++ chained call's head); overlapping
 * code remnants are one, migrate winning (merge_overlap); a path rule's remnant is about the
 * file (path_remnants).
 */
#include "analysis/remnant.h"
#include "analysis/remnant_int.h"

#include "core/lang.h"
#include "core/ruleset.h"
#include "core/walk.h"

#include "base/pcre.h"
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* A statement spanning more lines than this is not one remnant: a finding whose span is a
 * whole class or function would otherwise swallow every line below it. */
#define STATEMENT_LINES 8
#define MAX_CALLERS 3
#define PARTIAL_WHY "a legacy name inside a longer string: the edit rewrites the string, its other entries stay"
#define SCOPE_WHY                                                                                      \
    "a test file's include or declaration of what its legacy code uses, none of which stays in a body: " \
    "it goes with it"
#define SUCCESSOR_WHY                                                                                     \
    "a test that stays uses a legacy object its successor replaces (settings.remnants.successor_rules): " \
    "the test moves to the successor"

static const char *const action_names[SUNSET_ACT_COUNT] = {"delete", "migrate", "update-doc"};

const char *sunset_action_name(sunset_action a) {
    return (unsigned)a < SUNSET_ACT_COUNT ? action_names[a] : "?";
}

static void remnant_free(sunset_remnant *m) {
    sunset_free(m->findings);
    sunset_free(m->rules);
    for (size_t i = 0; i < m->n_evidence; i++) sunset_free(m->evidence[i]);
    sunset_free(m->evidence);
    sunset_free(m->consumer);
    sunset_free(m->fix);
}

void sunset_remnants_free(sunset_remnants *r) {
    if (!r) return;
    for (size_t i = 0; i < r->n; i++) remnant_free(&r->v[i]);
    sunset_free(r->v);
    memset(r, 0, sizeof *r);
}

/* "line 7" or "lines 7-9". */
static void line_range(sb *b, uint32_t a, uint32_t z) {
    if (z > a) sb_printf(b, "lines %u-%u", a, z);
    else sb_printf(b, "line %u", a);
}

static bool glob_any(const vec *globs, const char *id) {
    for (size_t i = 0; i < globs->n; i++)
        if (sunset_glob_match(VEC_AT(globs, char *, i), id)) return true;
    return false;
}

/* Appends a copy of s as one evidence line; false on OOM. */
static bool evidence(sunset_remnant *m, const char *s) {
    char **v = sunset_realloc(m->evidence, (m->n_evidence + 1) * sizeof *v);
    if (!v) return false;
    m->evidence = v;
    if (!(v[m->n_evidence] = sunset_strndup(s, strlen(s)))) return false;
    m->n_evidence++;
    return true;
}

static bool evidence_chain(sunset_remnant *m, const rm_item *it, rm_chain_writer write) {
    if (!write || !it->n_steps) return true;
    sb b = {0};
    bool ok = write(&b, it->steps, it->n_steps) == 0 && !b.oom && evidence(m, b.s ? b.s : "");
    sb_free(&b);
    return ok;
}

/* "a; b; c (+N more)" of an item's live callers, or NULL when it has none. */
static char *callers_text(const rm_item *it) {
    if (!it->n_callers) return NULL;
    sb b = {0};
    for (size_t i = 0; i < it->n_callers && i < MAX_CALLERS; i++)
        sb_printf(&b, "%s%s", i ? "; " : "", it->callers[i]);
    if (it->n_callers > MAX_CALLERS) sb_printf(&b, " (+%zu more)", it->n_callers - MAX_CALLERS);
    return b.oom ? (sb_free(&b), NULL) : sb_take(&b);
}

/* The plan's items for one file, and the smallest non-file item covering a line. */
static const rm_item *plan_file(const rm_plan *p, const char *path) {
    for (size_t i = 0; p && i < p->n_items; i++)
        if (p->items[i].kind == RM_FILE && strcmp(p->items[i].path, path) == 0) return &p->items[i];
    return NULL;
}

static const rm_item *plan_line(const rm_plan *p, const char *path, uint32_t line, uint32_t end) {
    const rm_item *best = NULL;
    for (size_t i = 0; p && i < p->n_items; i++) {
        const rm_item *it = &p->items[i];
        if (it->kind == RM_FILE || strcmp(it->path, path) || it->line > line || it->end < end) continue;
        if (!best || it->end - it->line < best->end - best->line) best = it;
    }
    return best;
}

/* The action's severity (settings.remnants.severity), never above the most severe of the
 * remnant's findings: a severity lowered in .sunset.json stays lowered. */
static sunset_severity remnant_severity(const sunset_result *res, const sunset_remnant_settings *st,
                                        const sunset_remnant *m) {
    sunset_severity top = SUNSET_SEV_INFO;
    for (size_t i = 0; i < m->n_findings; i++)
        if (res->findings[m->findings[i]].severity > top) top = res->findings[m->findings[i]].severity;
    return st->severity[m->action] < top ? st->severity[m->action] : top;
}

static bool set_str(char **dst, const char *s) {
    sunset_free(*dst);
    *dst = s ? sunset_strndup(s, strlen(s)) : NULL;
    return !s || *dst;
}

/* Does the finding name what its enclosing definition defines: a class or struct on its
 * header line, the target of a CMake target command, a test file's function whose header names
 * it as a word (a test case)? Its remnant is then the whole
 * definition (the command from its first line, the class to its closing brace), so that a
 * deletion never leaves a dangling `nv_library(` or half a class. */
static bool ident_char(char ch) {
    return isalnum((unsigned char)ch) || ch == '_';
}

static bool word_in(const char *s, const char *w) {
    size_t n = strlen(w);
    for (const char *p = strstr(s, w); n && p; p = strstr(p + 1, w)) {
        bool l = p == s || !(isalnum((unsigned char)p[-1]) || p[-1] == '_');
        bool r = !(isalnum((unsigned char)p[n]) || p[n] == '_');
        if (l && r) return true;
    }
    return false;
}

static bool defines(const sunset_finding *f) {
    if (!f->enc_kind || !f->enc_name || !f->matched || f->enc_start > f->span.line || f->enc_end < f->span.line)
        return false;
    /* a test's function whose header names it (`TEST_F(Suite, LegacyCase) {`): the test case */
    if (f->test && strcmp(f->enc_kind, "function") == 0 && f->span.line == f->enc_start &&
        strcmp(f->matched, f->enc_name) && word_in(f->enc_name, f->matched))
        return true;
    if (strcmp(f->matched, f->enc_name)) return false;
    if (strcmp(f->enc_kind, "cmake_target") == 0) return true;
    return (strcmp(f->enc_kind, "class") == 0 || strcmp(f->enc_kind, "struct") == 0) &&
           f->span.line == f->enc_start;
}

/* Is the finding the name of the C++ function or method whose definition's header it is on
 * (`bool HasX(...) {`, `void Legacy::Run() {`)? Deleting it deletes the definition to its
 * closing brace (a header without its body would not compile); migrating it edits the
 * header's statement only (a live function is moved off statement by statement). */
static bool fn_header(const sunset_finding *f) {
    if (!f->enc_kind || !f->enc_name || !f->matched || f->span.line != f->enc_start || f->enc_end <= f->enc_start ||
        sunset_lang_for_path(f->path) != SUNSET_LANG_CPP ||
        (strcmp(f->enc_kind, "function") && strcmp(f->enc_kind, "method")))
        return false;
    size_t n = strlen(f->matched), e = strlen(f->enc_name);
    return e >= n && strcmp(f->enc_name + e - n, f->matched) == 0 &&
           (e == n || (e > n + 1 && f->enc_name[e - n - 1] == ':' && f->enc_name[e - n - 2] == ':'));
}

/* The first line a finding's removal spans: its definition's, a CMake command's when the
 * finding is its target or on its first line (set(), list(), add_dependencies() ...: from
 * the command's line, not the matched argument's; the frontend gives those the command as
 * their statement), else its own. */
static uint32_t stmt_start(const sunset_finding *f) {
    if (defines(f)) return f->enc_start;
    if (f->stmt.line && f->stmt.line < f->span.line && f->stmt.end_line >= f->span.line &&
        sunset_lang_for_path(f->path) == SUNSET_LANG_CMAKE)
        return f->stmt.line;
    return f->span.line;
}

/* The last line a finding's removal spans: its definition's, its statement's (issue 15's
 * range: a call's argument lines belong to it), else its own. */
static uint32_t stmt_end(const sunset_finding *f) {
    uint32_t e = f->span.end_line > f->span.line ? f->span.end_line : f->span.line;
    if (defines(f) && f->enc_end > e) return f->enc_end;
    return f->stmt.end_line > e && f->stmt.line <= f->span.line ? f->stmt.end_line : e;
}

/* The findings [a, b) of res as a new remnant's members and rules. */

static sunset_remnant *remnant_push(sunset_remnants *out, const sunset_result *res, size_t a, size_t b) {
    if (out->n == out->cap) {
        size_t cap = out->cap ? out->cap * 2 : 64;
        sunset_remnant *v = sunset_realloc(out->v, cap * sizeof *v);
        if (!v) return NULL;
        out->v = v, out->cap = cap;
    }
    sunset_remnant *m = &out->v[out->n];
    memset(m, 0, sizeof *m);
    m->findings = sunset_malloc((b - a) * sizeof *m->findings);
    m->rules = sunset_malloc((b - a) * sizeof *m->rules);
    if (!m->findings || !m->rules) {
        remnant_free(m);
        return NULL;
    }
    out->n++;
    /* the leading finding: the most severe, the first of those */
    const sunset_finding *lead = &res->findings[a];
    for (size_t i = a; i < b; i++) {
        const sunset_finding *f = &res->findings[i];
        m->findings[m->n_findings++] = i;
        if (f->severity > lead->severity) lead = f;
        bool seen = false;
        for (size_t k = 0; k < m->n_rules && !seen; k++) seen = strcmp(m->rules[k], f->rule_id) == 0;
        if (!seen) m->rules[m->n_rules++] = f->rule_id;
    }
    m->path = lead->path;
    m->family = lead->family;
    m->task = lead->task;
    m->line = res->findings[a].span.line;
    m->end_line = m->line;
    for (size_t i = a; i < b; i++) {
        uint32_t s = stmt_start(&res->findings[i]), e = stmt_end(&res->findings[i]);
        if (s < m->line) m->line = s;
        if (e > m->end_line) m->end_line = e;
    }
    return m;
}


static bool path_in(build_ctx *c, const vec *regexes, const char *path, size_t *which) {
    for (size_t i = 0; i < regexes->n; i++)
        if (re_search(VEC_AT(regexes, pcre2_code *, i), path, strlen(path), 0, c->md, NULL, NULL)) {
            if (which) *which = i;
            return true;
        }
    return false;
}

/* Is the caller text only build plumbing that says file `path` stays with another unit (`implements
 * H, which stays`, `P:L target T compiles it`, `defined in F, which stays live`)? The header
 * H of the first, in *hdr (NULL otherwise). */
static bool plumbing(const char *w, char *hdr, size_t cap) {
    const char *e;
    *hdr = 0;
    if (!strncmp(w, "implements ", 11) && (e = strstr(w, ", which stays")) && (size_t)(e - w - 11) < cap) {
        memcpy(hdr, w + 11, (size_t)(e - w - 11)), hdr[e - w - 11] = 0;
        return true;
    }
    size_t n = strlen(w);
    return (n > 12 && !strcmp(w + n - 12, " compiles it")) || !strncmp(w, "defined in ", 11);
}

static bool caller_in(const char *caller, const char *path);

/* Appends w to b unless listed or in file `self`; counts it in *n. */
static void add_user(sb *b, const char *w, const char *self, size_t *n) {
    if (caller_in(w, self) || (b->s && strstr(b->s, w))) return;
    if (++*n <= MAX_CALLERS) sb_printf(b, "%s%s", *n > 1 ? "; " : "", w);
}

/* The real users of a live file whose plan callers are build plumbing (plumbing()): the
 * outside callers of the live units the plan has in it (a pass, an op, a flag, a class) and,
 * for a source that implements a header, the header's and its units' outside callers. NULL
 * when the callers name real users already, or none is found. */
static char *real_users(const rm_plan *p, const rm_item *it) {
    char hdr[512] = {0}, h[512];
    for (size_t i = 0; i < it->n_callers; i++) {
        if (!plumbing(it->callers[i], h, sizeof h)) return NULL;
        if (*h && !*hdr) memcpy(hdr, h, sizeof hdr);
    }
    sb b = {0};
    size_t n = 0;
    for (size_t k = 0; p && k < p->n_items; k++) {
        const rm_item *u = &p->items[k];
        bool here = !strcmp(u->path, it->path) && u->kind != RM_FILE;
        if (!u->live || u->kind == RM_IMPORT || !(here || (*hdr && !strcmp(u->path, hdr)))) continue;
        for (size_t j = 0; j < u->n_callers; j++)
            if (!plumbing(u->callers[j], h, sizeof h)) add_user(&b, u->callers[j], it->path, &n);
    }
    if (n > MAX_CALLERS) sb_printf(&b, " (+%zu more)", n - MAX_CALLERS);
    if (!n || b.oom) return sb_free(&b), NULL;
    return sb_take(&b);
}

/* A whole-legacy file: one remnant for [a, b). Liveness first: a file the plan keeps live
 * is migrated (its consumers named), whatever the path rule intends; only a file the plan
 * proves dead, or one seen without the plan (a shard, stdin), is deleted. */
static int file_remnant(build_ctx *c, sunset_remnants *out, size_t a, size_t b, const sunset_finding *seed,
                        const rm_item *it) {
    sunset_remnant *m = remnant_push(out, c->res, a, b);
    if (!m) return -1;
    m->file = true;
    m->line = 1;
    m->action = it && it->live ? SUNSET_ACT_MIGRATE : SUNSET_ACT_DELETE;
    if (seed) {
        m->family = seed->family, m->task = seed->task;
        sb e = {0};
        sb_printf(&e, "rule %s matched the path: %s", seed->rule_id, seed->message);
        bool ok = !e.oom && evidence(m, e.s);
        sb_free(&e);
        if (!ok) return -1;
    }
    /* the plan's chain adds nothing when it is the same path rule */
    bool same = seed && it && it->n_steps == 1 && it->steps[0].kind == RM_EV_RULE_PATH;
    if (it && !same && !evidence_chain(m, it, c->write)) return -1;
    sb fix = {0};
    if (m->action == SUNSET_ACT_MIGRATE) {
        char *who = callers_text(it);
        sb e = {0};
        sb_printf(&e, "the removal plan keeps it live: %s", who ? who : "live code depends on it");
        bool ok = !e.oom && evidence(m, e.s);
        sb_free(&e);
        char *real = real_users(c->plan, it); /* who, not the build plumbing, uses it */
        if (real) sunset_free(who), who = real;
        m->consumer = who ? who : sunset_strndup("the live code that depends on it", 32);
        if (!ok || !m->consumer) return -1;
        sb_puts(&fix, "move its live consumers off it first (see evidence), then delete the file");
    } else {
        sb_puts(&fix, "delete the file");
    }
    if (fix.oom) return sb_free(&fix), -1;
    m->fix = sb_take(&fix);
    m->severity = remnant_severity(c->res, &c->rs->remnants, m);
    return 0;
}

/* A CMake file's line: deleting it (a target, a source entry, a dependency) needs the plan's
 * proof that nothing live depends on it. */
static bool cmake_path(const char *path) {
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t n = strlen(base);
    return strcmp(base, "CMakeLists.txt") == 0 || (n > 6 && strcmp(base + n - 6, ".cmake") == 0);
}

/* What keeps a CMake line live: the targets depending on the target it defines, or the
 * command's own target (its sources or dependencies), else the file's live build. */
static char *cmake_consumer(const sunset_result *res, const sunset_remnant *m) {
    sb b = {0};
    for (size_t i = 0; i < m->n_findings && !b.len; i++) {
        const sunset_finding *f = &res->findings[m->findings[i]];
        if (!f->enc_kind || strcmp(f->enc_kind, "cmake_target") || !f->enc_name || !*f->enc_name) continue;
        if (f->matched && strcmp(f->matched, f->enc_name) == 0)
            sb_printf(&b, "the live targets that depend on %s", f->enc_name);
        else
            sb_printf(&b, "cmake_target %s (%s)", f->enc_name, f->path);
    }
    if (!b.len) sb_printf(&b, "the live build of %s", m->path);
    return b.oom ? (sb_free(&b), NULL) : sb_take(&b);
}

/* The enclosing scope of the first finding that has one, else the file, as a consumer name. */
static char *scope_consumer(const sunset_result *res, const sunset_remnant *m) {
    sb b = {0};
    for (size_t i = 0; i < m->n_findings; i++) {
        const sunset_finding *f = &res->findings[m->findings[i]];
        if (f->enc_kind && f->enc_name && *f->enc_name) {
            sb_printf(&b, "%s %s (%s)", f->enc_kind, f->enc_name, f->path);
            break;
        }
    }
    if (!b.len) sb_printf(&b, "the live code of %s", m->path);
    return b.oom ? (sb_free(&b), NULL) : sb_take(&b);
}

/* why as evidence and the enclosing scope as the consumer; false on OOM. */
static bool scoped(const sunset_result *res, sunset_remnant *m, const char *why, char **consumer) {
    return evidence(m, why) && (*consumer = scope_consumer(res, m)) != NULL;
}

/* The plan's step says an import/include is unused where it stands, or names a file the patch
 * deletes: deleting the line is safe. */
static bool unused_import(const rm_item *it) {
    if (it->kind != RM_IMPORT || !it->n_steps) return false;
    rm_step_kind k = it->steps[0].kind;
    return k == RM_EV_INCLUDES_UNUSED || k == RM_EV_IMPORTS_UNUSED || k == RM_EV_INCLUDES_REMOVED ||
           k == RM_EV_IMPORTS_REMOVED || k == RM_EV_LINKS_REMOVED ||
           k == RM_EV_IMPORT_CUT;
}

/* A remnant over several lines that no one plan item covers (a CMake command taken whole:
 * `set(v a_op_handle.cc` + `b_op_handle.cc)`): the dead item of its first code finding's own
 * line when every code finding's line has a dead one (then the command goes), else NULL. */
static const rm_item *dead_parts(build_ctx *c, const sunset_remnant *m, size_t a, size_t b) {
    const rm_item *first = NULL;
    for (size_t i = a; i < b && m->end_line > m->line; i++) {
        const sunset_finding *f = &c->res->findings[i];
        if (f->ctx != SUNSET_CTX_CODE) continue;
        const rm_item *it = plan_line(c->plan, m->path, f->span.line, f->span.line);
        if (!it || it->live) return NULL;
        if (!first) first = it;
    }
    return first;
}

/* Does the line p (a finding's snippet) name another entry of the list the argument (a plan
 * item's token, it->name) is in: a word of the line before its first keyword (an upper-case
 * word: PROPERTIES), neither the name nor the command, when the command is one whose leading
 * arguments are names (set_tests_properties, set_target_properties; not set(), whose first
 * argument is the variable)? Then the edit takes the name, not the line
 * (`set_tests_properties(a b PROPERTIES ...)`); a command left with no entry goes whole. */
static bool token_among_others(const char *p, const rm_item *it) {
    if (!it->token || !it->name || it->line != it->end) return false;
    const char *name = it->name;
    size_t n = strlen(name);
    while (p && *p) {
        while (*p == ' ' || *p == '\t' || *p == '(' || *p == ')') p++;
        const char *w = p;
        bool upper = true;
        while (*p && *p != ' ' && *p != '\t' && *p != '(' && *p != ')') upper &= !(*p >= 'a' && *p <= 'z'), p++;
        if (p == w) break;
        if (*p == '(') { /* the command: CMake's own whose leading arguments are a list of names */
            size_t cn = (size_t)(p - w);
            if (!(cn == 20 && !memcmp(w, "set_tests_properties", cn)) && !(cn == 21 && !memcmp(w, "set_target_properties", cn)))
                return false;
            continue;
        }
        if (upper) break;        /* the list ends at its first keyword */
        if ((size_t)(p - w) != n || memcmp(w, name, n)) return true;
    }
    return false;
}

/* The fix of dead_parts' lines: "delete lines 3-4", or, when a line's item is one name among
 * others on it, the edit of each line ("remove a_test from line 3; delete line 4"). */
static void dead_parts_fix(build_ctx *c, const sunset_remnant *m, size_t a, size_t b, sb *fix) {
    bool token = false;
    for (size_t i = a; i < b && !token; i++) {
        const sunset_finding *f = &c->res->findings[i];
        const rm_item *it = f->ctx == SUNSET_CTX_CODE ? plan_line(c->plan, m->path, f->span.line, f->span.line) : NULL;
        token = it && token_among_others(f->snippet, it);
    }
    if (!token) {
        sb_puts(fix, "delete ");
        line_range(fix, m->line, m->end_line);
        return;
    }
    uint32_t last = 0;
    for (size_t i = a; i < b; i++) {
        const sunset_finding *f = &c->res->findings[i];
        const rm_item *it = f->ctx == SUNSET_CTX_CODE ? plan_line(c->plan, m->path, f->span.line, f->span.line) : NULL;
        if (!it || f->span.line == last) continue;
        last = f->span.line;
        if (token_among_others(f->snippet, it)) sb_printf(fix, "%sremove %s from line %u", fix->len ? "; " : "", it->name, last);
        else sb_printf(fix, "%sdelete line %u", fix->len ? "; " : "", last);
    }
}

/* The evidence of every dead item of dead_parts' lines. */
static bool dead_parts_evidence(build_ctx *c, sunset_remnant *m, size_t a, size_t b) {
    const rm_item *prev = NULL;
    for (size_t i = a; i < b; i++) {
        const sunset_finding *f = &c->res->findings[i];
        if (f->ctx != SUNSET_CTX_CODE) continue;
        const rm_item *it = plan_line(c->plan, m->path, f->span.line, f->span.line);
        if (it == prev) continue;
        prev = it;
        if (!evidence_chain(m, it, c->write)) return false;
    }
    return true;
}

/* A remnant that edits code spans what the edit takes: a definition the plan has an item for
 * (a flag with its doc comment, a registration macro) whole, and a string's statement from its
 * first line (`env[\n "K"\n] = "..."`: the value's line alone cannot go), as a C++ finding's
 * (a branch from its `} else if (` line) and a Python code finding's (its short simple
 * statement: `assert (\n x._exec_strategy.y\n ), "..."` from the `assert (` line). A text edit
 * (update-doc) stays on the text's lines. */
static void code_range(const sunset_result *res, size_t a, size_t b, const rm_item *def, sunset_remnant *m) {
    if (def && def->line < m->line) m->line = def->line;
    if (def && def->end > m->end_line) m->end_line = def->end;
    for (size_t i = a; i < b; i++) {
        const sunset_finding *f = &res->findings[i];
        sunset_lang lang = sunset_lang_for_path(f->path);
        bool cpp = lang == SUNSET_LANG_CPP; /* its statements: a branch, a stream */
        /* a short one (a long import list's entry is edited where it stands) */
        bool py = lang == SUNSET_LANG_PYTHON && f->ctx == SUNSET_CTX_CODE &&
                  f->stmt.end_line - f->stmt.line < STATEMENT_LINES;
        if ((f->ctx == SUNSET_CTX_STRING || cpp || py) && f->stmt.line && f->stmt.line < m->line &&
            f->stmt.end_line >= f->span.line)
            m->line = f->stmt.line;
    }
}

/* Is the Python finding f, of an import rule, on a line of its own inside the bracketed name
 * list of its import statement (`from .compiler import (`), the line being one entry
 * (`    ExecutionStrategy,`, `    b as c,  # noqa`), neither the statement's first line nor
 * its last? */
static bool py_entry(const sunset_ruleset *rs, const sunset_finding *f) {
    const char *p = f->snippet;
    const sunset_rule *r = sunset_ruleset_find(rs, f->rule_id);
    if (!p || !r || r->kind != RK_IMPORT || f->ctx != SUNSET_CTX_CODE ||
        sunset_lang_for_path(f->path) != SUNSET_LANG_PYTHON || !f->stmt.line || f->stmt.line >= f->span.line ||
        f->stmt.end_line <= f->span.end_line)
        return false;
    while (*p == ' ' || *p == '\t') p++;
    size_t words = 0;
    for (bool as = false;; as = true) {
        const char *w = p;
        while (ident_char(*p)) p++;
        if (p == w || isdigit((unsigned char)*w)) return false;
        words++;
        while (*p == ' ') p++;
        if (as || strncmp(p, "as ", 3)) break;
        p += 3;
    }
    if (*p == ',') p++;
    while (*p == ' ' || *p == '\t') p++;
    return words && (!*p || *p == '#');
}

/* An entry of a multi-line list (py_entry) is edited on its own lines when other entries of
 * the list stay (`from .compiler import (` with one legacy name of five: that name's line); the
 * findings' entry lines, when they are one run shorter than the list, else the statement. */
static void entry_range(const sunset_ruleset *rs, const sunset_result *res, size_t a, size_t b, sunset_remnant *m) {
    uint32_t lo = UINT32_MAX, hi = 0, n = 0, last = 0;
    const sunset_finding *first = NULL;
    for (size_t i = a; i < b; i++) {
        const sunset_finding *f = &res->findings[i];
        if (f->ctx != SUNSET_CTX_CODE) continue;
        if (!py_entry(rs, f) || (first && (f->stmt.line != first->stmt.line || f->stmt.end_line != first->stmt.end_line)))
            return;
        if (!first) first = f;
        if (f->span.line != last) n++, last = f->span.line;
        if (f->span.line < lo) lo = f->span.line;
        if (f->span.end_line > hi) hi = f->span.end_line;
    }
    if (!first || hi - lo + 1 != n || n >= first->stmt.end_line - first->stmt.line - 1) return;
    m->line = lo, m->end_line = hi;
}

/* A text edit (update-doc) rewords a string where it stands: its lines, not the statement it
 * sits in (`usage = """...\n Diff: ParallelExecutor\n """` is the text's line, not the closing
 * quotes; a multi-line call's message is its own line). A docstring example keeps its code
 * statement (the example call is rewritten whole). */
static void text_range(const sunset_result *res, size_t a, size_t b, sunset_remnant *m) {
    m->line = UINT32_MAX;
    m->end_line = 0;
    for (size_t i = a; i < b; i++) {
        const sunset_finding *f = &res->findings[i];
        bool str = f->ctx == SUNSET_CTX_STRING;
        uint32_t s = str ? f->span.line : stmt_start(f), e = str ? f->span.line : stmt_end(f);
        if (str && f->span.end_line > e) e = f->span.end_line;
        if (s < m->line) m->line = s;
        if (e > m->end_line) m->end_line = e;
    }
}

/* Is the plan caller text ("path uses X", "path:line name") in the file path? */
static bool caller_in(const char *caller, const char *path) {
    size_t n = strlen(path);
    return strncmp(caller, path, n) == 0 && (caller[n] == ' ' || caller[n] == ':' || !caller[n]);
}

/* A live flag, pass or op the plan has an item for, named by a finding of [a, b) outside its
 * definition (`need_envs={'FLAGS_x': '1'}`, `PassRegistry::Instance().Get("x_pass")`), that code
 * outside this file keeps live: a line that would be deleted (a test's, a delete rule's) uses a
 * live unit and goes only when the unit does (liveness first, even in a test). Only uses in a
 * body count: a file-scope declaration (`PD_DECLARE_bool(x);`) goes with the file's uses. NULL
 * when none. */
static const rm_item *live_named(build_ctx *c, const char *path, size_t a, size_t b) {
    for (size_t i = a; i < b && c->plan; i++) {
        const char *n = c->res->findings[i].matched;
        if (!n || !c->res->findings[i].enc_kind) continue; /* a use in a body, not a declaration */
        if (strncmp(n, "FLAGS_", 6) == 0) n += 6;
        for (size_t k = 0; k < c->plan->n_items; k++) {
            const rm_item *it = &c->plan->items[k];
            if (!it->live || !it->name || strcmp(it->name, n) ||
                (it->kind != RM_FLAG && it->kind != RM_PASS && it->kind != RM_OP))
                continue;
            for (size_t j = 0; j < it->n_callers; j++)
                if (!caller_in(it->callers[j], path)) return it;
        }
    }
    return NULL;
}

/* live_named's item as evidence and its live callers outside path as the consumer. */
static bool live_named_evidence(sunset_remnant *m, const rm_item *it, char **consumer) {
    sb b = {0}, e = {0};
    size_t shown = 0, more = 0;
    for (size_t j = 0; j < it->n_callers; j++) {
        if (caller_in(it->callers[j], m->path)) continue;
        if (shown < MAX_CALLERS) sb_printf(&b, "%s%s", shown++ ? "; " : "", it->callers[j]);
        else more++;
    }
    if (more) sb_printf(&b, " (+%zu more)", more);
    sb_printf(&e, "names %s %s, which the removal plan keeps live (%s:%u): the line goes with it", rm_kind_name(it->kind),
              it->name, it->path, it->line);
    bool ok = !b.oom && !e.oom && evidence(m, e.s);
    sb_free(&e);
    if (!ok) return sb_free(&b), false;
    *consumer = sb_take(&b);
    return true;
}

/* Is the string finding f's match only part of its literal (`"a_op_handle=10,b=10"`, `'grep
 * a_op_handle '`), not the whole literal (a name: `"x_pass"`)? Then the edit rewrites the string,
 * whose other entries stay: deleting its line or statement would drop them. */
static bool part_of_string(const sunset_finding *f) {
    const char *p = f->snippet;
    if (f->ctx != SUNSET_CTX_STRING || !p || f->span.line != f->span.end_line || f->span.col < 2) return false;
    size_t n = strlen(p), s = f->span.col - 1, e = f->span.end_col - 1;
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)p[i] >= 0x80) return false; /* columns may not be bytes */
    if (e > n || e <= s) return false;
    bool open = p[s - 1] == '"' || p[s - 1] == '\'', close = e < n && (p[e] == '"' || p[e] == '\'');
    return !(open && close);
}

/* What the findings [a, b) of one line remnant are; its leading code finding, NULL when none. */
typedef struct line_kind {
    bool code, text, test, all_delete, succ;
    bool partial; /* every code finding is part of a longer string (part_of_string) */
    bool legacy_case; /* a delete rule names the test case the remnant is (defines) */
} line_kind;

static const sunset_finding *classify(build_ctx *c, size_t a, size_t b, line_kind *k) {
    const sunset_remnant_settings *st = &c->rs->remnants;
    const sunset_finding *lead = NULL;
    *k = (line_kind){.all_delete = true, .partial = true};
    for (size_t i = a; i < b; i++) {
        const sunset_finding *f = &c->res->findings[i];
        k->test |= f->test;
        k->succ |= f->ctx == SUNSET_CTX_CODE && glob_any(&st->successor_rules, f->rule_id);
        /* a binding name or an op type in a string is code: deleting it is an edit of code */
        bool as_code = f->ctx == SUNSET_CTX_STRING && (f->code_string || glob_any(&st->code_rules, f->rule_id));
        k->text |= f->ctx == SUNSET_CTX_STRING;
        if (f->ctx != SUNSET_CTX_CODE && !as_code) continue;
        k->code = true;
        if (!lead || f->severity > lead->severity) lead = f;
        k->all_delete &= glob_any(&st->delete_rules, f->rule_id);
        k->partial &= part_of_string(f);
        k->legacy_case |= f->test && defines(f) && glob_any(&st->delete_rules, f->rule_id);
    }
    k->partial &= k->code;
    return lead;
}

static int line_remnant(build_ctx *c, sunset_remnants *out, size_t a, size_t b, bool doc_file) {
    const sunset_remnant_settings *st = &c->rs->remnants;
    sunset_remnant *m = remnant_push(out, c->res, a, b);
    if (!m) return -1;
    line_kind k;
    const sunset_finding *lead = classify(c, a, b, &k);
    bool code = k.code, text = k.text, test = k.test, all_delete = k.all_delete, succ = k.succ;
    bool keep = (test || all_delete) && !k.legacy_case; /* a dead test case goes whole */
    const rm_item *it = plan_line(c->plan, m->path, m->line, m->end_line), *parts = NULL, *named = NULL;
    if (!it && code && c->plan) parts = dead_parts(c, m, a, b);
    size_t who = 0;
    char *consumer = NULL;
    sb fix = {0};
    int rc = -1;
    /* a string the plan reads as a registration or an import is code to it: the plan decides;
     * a comment inside a dead definition goes with the definition, and one inside a flag's or
     * a registration's extent (a flag's doc comment) takes the definition's action, live or not */
    bool in_dead = it && !it->live && it->kind != RM_IMPORT && it->kind != RM_REGISTRATION;
    bool unit = it && (it->kind == RM_FLAG || it->kind == RM_PASS || it->kind == RM_OP);
    if (doc_file || (!code && !(text && it) && !in_dead && !unit)) {
        m->action = SUNSET_ACT_DOC;
        if (!doc_file) text_range(c->res, a, b, m);
        if (!evidence(m, doc_file ? "a document" : "only in comments, docstrings or strings")) goto cleanup;
        sb_puts(&fix, "reword or drop the text that names the retired mechanism");
    } else if (parts) {
        m->action = SUNSET_ACT_DELETE;
        if (!dead_parts_evidence(c, m, a, b)) goto cleanup;
        dead_parts_fix(c, m, a, b, &fix);
    } else if (it && (!it->live || unused_import(it))) {
        m->action = SUNSET_ACT_DELETE;
        if (!evidence_chain(m, it, c->write)) goto cleanup;
        if (token_among_others(c->res->findings[a].snippet, it))
            /* one name of several on the line (`set_tests_properties(a b PROPERTIES ...)`) */
            sb_printf(&fix, "remove %s from line %u (the command's other arguments stay)", it->name, it->line);
        else {
            sb_puts(&fix, it->kind == RM_IMPORT ? "delete the unused " : "delete ");
            line_range(&fix, it->line, it->end);
        }
    } else if (it) {
        m->action = SUNSET_ACT_MIGRATE;
        if (!evidence_chain(m, it, c->write)) goto cleanup;
        consumer = callers_text(it);
        if (!consumer && !(consumer = scope_consumer(c->res, m))) goto cleanup;
    } else if (path_in(c, &st->consumer_paths, m->path, &who)) {
        m->action = SUNSET_ACT_MIGRATE;
        if (!evidence(m, "the file is live code; settings.remnants.consumers names its consumer")) goto cleanup;
        if (!set_str(&consumer, VEC_AT(&st->consumers, char *, who))) goto cleanup;
    } else if (!test && all_delete && c->plan && cmake_path(m->path)) {
        /* rule intent says delete, but nothing proves the build line dead (a test's own
         * registration lines, REMOVE_ITEM and properties, have no dependents) */
        m->action = SUNSET_ACT_MIGRATE;
        if (!evidence(m, "a CMake line the removal plan does not prove dead: live code may depend on it"))
            goto cleanup;
        if (!(consumer = cmake_consumer(c->res, m))) goto cleanup;
    } else if (keep && (named = live_named(c, m->path, a, b))) {
        m->action = SUNSET_ACT_MIGRATE;
        if (!live_named_evidence(m, named, &consumer)) goto cleanup;
    } else if (keep && k.partial) {
        m->action = SUNSET_ACT_MIGRATE;
        if (!scoped(c->res, m, PARTIAL_WHY, &consumer)) goto cleanup;
    } else if (keep && test && succ && !all_delete) {
        m->action = SUNSET_ACT_MIGRATE;
        if (!scoped(c->res, m, SUCCESSOR_WHY, &consumer)) goto cleanup;
    } else if (test || all_delete) {
        m->action = SUNSET_ACT_DELETE;
        if (!evidence(m, test ? "a test file: the legacy test code goes with its mechanism"
                              : "every rule here is a delete rule (settings.remnants.delete_rules)"))
            goto cleanup;
        sb_printf(&fix, "delete the legacy use (%s)", lead->fix);
    } else {
        m->action = SUNSET_ACT_MIGRATE;
        if (!scoped(c->res, m, "live code uses the legacy mechanism", &consumer)) goto cleanup;
    }
    /* a rule's "delete ..." hint is wrong here: deleting breaks the live consumer */
    if (!lead) lead = &c->res->findings[a]; /* strings only, decided by the plan */
    if (m->action != SUNSET_ACT_DOC) m->basis = it;
    if (m->action != SUNSET_ACT_DOC) code_range(c->res, a, b, unit ? it : NULL, m);
    /* a plan's or dead_parts' deletion names its lines in the fix: it keeps them */
    if (m->action == SUNSET_ACT_MIGRATE && !unit) entry_range(c->rs, c->res, a, b, m);
    for (size_t i = a; i < b && m->action == SUNSET_ACT_DELETE && !m->basis; i++)
        if (fn_header(&c->res->findings[i]) && c->res->findings[i].enc_end > m->end_line)
            m->end_line = c->res->findings[i].enc_end; /* the definition goes whole (fn_header) */
    if (m->action == SUNSET_ACT_MIGRATE && strncmp(lead->fix, "delete", 6) == 0)
        sb_puts(&fix, "move the consumer off it first, then delete the legacy use");
    else if (m->action == SUNSET_ACT_MIGRATE)
        sb_printf(&fix, "move the consumer off it first: %s", lead->fix);
    if (fix.oom) goto cleanup;
    m->consumer = consumer;
    consumer = NULL;
    m->fix = sb_take(&fix);
    m->severity = remnant_severity(c->res, st, m);
    rc = 0;
cleanup:
    sunset_free(consumer);
    sb_free(&fix);
    return rc;
}

static bool same_str(const char *a, const char *b) {
    return a == b || (a && b && strcmp(a, b) == 0);
}

/* Is the finding a path rule's (its match is the file's path)? */
static bool path_finding(const sunset_finding *f) {
    return f->matched && strcmp(f->matched, f->path) == 0;
}

/* Is the finding on a C/C++ #include line? */
static bool include_line(const sunset_finding *f) {
    const char *p = f->snippet;
    if (!p || f->ctx != SUNSET_CTX_CODE) return false;
    while (*p == ' ' || *p == '\t') p++;
    if (*p++ != '#') return false;
    while (*p == ' ' || *p == '\t') p++;
    return strncmp(p, "include", 7) == 0;
}

/* Two line remnants are one edit when the same plan item decided both, or when they touch (no line between), ask the same action of
 * the same consumer and their leading findings share the enclosing scope: a statement over
 * several lines, a run of CMake list entries, a block of one function. */
static bool one_edit(const sunset_result *res, const sunset_remnant *a, const sunset_remnant *b) {
    const sunset_finding *fa = &res->findings[a->findings[0]], *fb = &res->findings[b->findings[0]];
    if (a->basis && a->basis == b->basis) return true; /* one plan item: one removal */
    /* each include is its own edit: one goes, the next is replaced, as what it brings is used */
    if (include_line(fa) && include_line(fb)) return false;
    /* a path rule's finding is about the file (path_remnants), not its first line */
    if (path_finding(fa) || path_finding(fb)) return false;
    return b->line <= a->end_line + 1 && a->action == b->action && same_str(a->consumer, b->consumer) &&
           same_str(fa->enc_kind, fb->enc_kind) && same_str(fa->enc_name, fb->enc_name) &&
           fa->enc_start == fb->enc_start;
}

/* Moves b's findings, rules and new evidence into a; b is freed. false on OOM (b kept). */
static bool absorb(sunset_remnant *a, sunset_remnant *b) {
    size_t *fs = sunset_realloc(a->findings, (a->n_findings + b->n_findings) * sizeof *fs);
    if (!fs) return false;
    a->findings = fs;
    const char **rs = sunset_realloc(a->rules, (a->n_rules + b->n_rules) * sizeof *rs);
    if (!rs) return false;
    a->rules = rs;
    for (size_t i = 0; i < b->n_evidence; i++) {
        bool seen = false;
        for (size_t k = 0; k < a->n_evidence && !seen; k++) seen = strcmp(a->evidence[k], b->evidence[i]) == 0;
        if (!seen && !evidence(a, b->evidence[i])) return false;
    }
    memcpy(a->findings + a->n_findings, b->findings, b->n_findings * sizeof *fs);
    a->n_findings += b->n_findings;
    for (size_t i = 0; i < b->n_rules; i++) {
        bool seen = false;
        for (size_t k = 0; k < a->n_rules && !seen; k++) seen = strcmp(a->rules[k], b->rules[i]) == 0;
        if (!seen) a->rules[a->n_rules++] = b->rules[i];
    }
    if (b->end_line > a->end_line) a->end_line = b->end_line;
    if (b->severity > a->severity) a->severity = b->severity; /* both capped by one action */
    a->attached |= b->attached;
    if (a->action == SUNSET_ACT_DELETE && strcmp(a->fix, b->fix)) {
        /* two deletions with their own hints: the hint is now the whole range, unless one
         * takes a name out of a line that stays (then each line's edit) */
        sb fix = {0};
        if (!strncmp(a->fix, "remove ", 7) || !strncmp(b->fix, "remove ", 7) || strstr(a->fix, "; remove ")) {
            sb_printf(&fix, "%s; %s", a->fix, b->fix);
        } else {
            sb_puts(&fix, "delete ");
            line_range(&fix, a->line, a->end_line);
        }
        if (fix.oom) return sb_free(&fix), false;
        sunset_free(a->fix);
        a->fix = sb_take(&fix);
    }
    remnant_free(b);
    return true;
}

/* A C++ code finding's statement, which the frontend bounds itself (a short branch, a first
 * `if` with its `else if` branches): the findings inside it are one remnant with it. A string
 * of prose (a registration's `R"DOC(...)"` argument) is its own text edit. */
static bool cpp_stmt(build_ctx *c, const sunset_finding *f) {
    if (!f->stmt.line || f->stmt.line > f->span.line || sunset_lang_for_path(f->path) != SUNSET_LANG_CPP) return false;
    return f->ctx == SUNSET_CTX_CODE ||
           (f->ctx == SUNSET_CTX_STRING && (f->code_string || glob_any(&c->rs->remnants.code_rules, f->rule_id)));
}

/* Is the finding at file scope (an include, a `using` in a namespace), outside any body? */
static bool file_scope(const sunset_finding *f) {
    return !f->enc_kind || strcmp(f->enc_kind, "namespace") == 0;
}

/* A test's file-scope line (an include, a `using`) kept for a successor (SUCCESSOR_WHY) when no
 * remnant of the file keeps a use of its family in a body (all of them go): it goes too. */
static int scope_follows(build_ctx *c, sunset_remnants *out, size_t first) {
    for (size_t i = first; i < out->n; i++) {
        sunset_remnant *m = &out->v[i];
        const sunset_finding *f = &c->res->findings[m->findings[0]];
        if (m->action != SUNSET_ACT_MIGRATE || !m->n_evidence || strcmp(m->evidence[0], SUCCESSOR_WHY) ||
            !file_scope(f))
            continue;
        bool kept = false;
        for (size_t k = first; k < out->n && !kept; k++)
            kept = out->v[k].action == SUNSET_ACT_MIGRATE && same_str(out->v[k].family, m->family) &&
                   !file_scope(&c->res->findings[out->v[k].findings[0]]);
        if (kept) continue;
        sb fix = {0};
        sb_printf(&fix, "delete the legacy use (%s)", f->fix);
        if (fix.oom) return -1;
        sunset_free(m->fix), sunset_free(m->consumer), sunset_free(m->evidence[0]);
        m->fix = sb_take(&fix), m->consumer = NULL;
        m->evidence[0] = sunset_strndup(SCOPE_WHY, strlen(SCOPE_WHY));
        if (!m->evidence[0]) return -1;
        m->action = SUNSET_ACT_DELETE;
        m->severity = remnant_severity(c->res, &c->rs->remnants, m);
    }
    return 0;
}

/* The local name a C++ or Python declaration line declares (`details::ExecutionStrategy es;`,
 * `auto p = ...`, `std::unique_ptr<X> x_;`, Python `es = fluid.ExecutionStrategy()`), copied
 * into buf; false when the line declares none (a call, an assignment to a member, `return x;`). */
static const char *const not_types[] = {"return", "delete", "throw", "case", "goto", "using", "typedef",
                                        "namespace", "else", "new", "co_return", "friend", NULL};

static bool cpp_declared(const char *p, char *buf, size_t cap) {
    size_t words = 0, n = 0;
    const char *last = NULL;
    while (*p) {
        while (*p == ' ' || *p == '\t' || *p == '*' || *p == '&') p++;
        if (*p == '<') { /* a template's arguments belong to the type */
            int depth = 0;
            do depth += *p == '<' ? 1 : *p == '>' ? -1 : 0; while (*++p && depth);
            continue;
        }
        if (!ident_char(*p) || isdigit((unsigned char)*p)) break;
        const char *w = p;
        while (ident_char(*p) || (p[0] == ':' && p[1] == ':' && ident_char(p[2]) && (p += 1))) p++;
        for (size_t i = 0; !words && not_types[i]; i++)
            if ((size_t)(p - w) == strlen(not_types[i]) && !memcmp(w, not_types[i], (size_t)(p - w))) return false;
        words++, last = w, n = (size_t)(p - w);
    }
    if (words < 2 || !last || memchr(last, ':', n) || n >= cap || !strchr(";=({,[", *p ? *p : '?')) return false;
    memcpy(buf, last, n), buf[n] = 0;
    return true;
}

static bool py_declared(const char *p, char *buf, size_t cap) {
    while (*p == ' ' || *p == '\t') p++;
    const char *w = p;
    while (ident_char(*p)) p++;
    size_t n = (size_t)(p - w);
    while (*p == ' ') p++;
    if (!n || isdigit((unsigned char)*w) || n >= cap || p[0] != '=' || p[1] == '=') return false;
    memcpy(buf, w, n), buf[n] = 0;
    return true;
}

static bool line_declares(sunset_lang l, const char *line, char *buf, size_t cap) {
    return l == SUNSET_LANG_CPP ? cpp_declared(line, buf, cap)
           : l == SUNSET_LANG_PYTHON ? py_declared(line, buf, cap) : false;
}

static bool declared(const sunset_finding *f, char *buf, size_t cap) {
    if (f->ctx != SUNSET_CTX_CODE || !f->snippet) return false;
    return line_declares(sunset_lang_for_path(f->path), f->snippet, buf, cap);
}

/* A migrate remnant of [first, n) other than d with a finding outside d's lines, inside the
 * scope the declaring finding f declares name in (its enclosing definition, else the file),
 * whose line names it: a user that stays. NULL when none. */
static const sunset_remnant *kept_user(build_ctx *c, sunset_remnants *out, size_t first, const sunset_remnant *d,
                                       const sunset_finding *f, const char *name, uint32_t *at) {
    for (size_t i = first; i < out->n; i++) {
        const sunset_remnant *u = &out->v[i];
        if (u == d || u->file || u->action != SUNSET_ACT_MIGRATE) continue;
        for (size_t k = 0; k < u->n_findings; k++) {
            const sunset_finding *g = &c->res->findings[u->findings[k]];
            if (g->span.line >= d->line && g->span.line <= d->end_line) continue;
            if (f->enc_kind && (g->span.line < f->enc_start || g->span.line > f->enc_end)) continue;
            if (g->snippet && word_in(g->snippet, name)) return *at = g->span.line, u;
        }
    }
    return NULL;
}

/* A delete remnant that declares a local name (a variable, a member) which a migrate remnant's
 * line in its scope still uses cannot go alone (deleting `ExecutionStrategy es;` leaves `es`
 * dangling in the call that stays): it goes with its user, migrate, naming the user's consumer.
 * Repeated until nothing changes: a declaration can feed the line that declares the next. */
static int users_keep(build_ctx *c, sunset_remnants *out, size_t first) {
    for (bool changed = true; changed;) {
        changed = false;
        for (size_t i = first; i < out->n; i++) {
            sunset_remnant *m = &out->v[i];
            if (m->file || m->action != SUNSET_ACT_DELETE || m->basis) continue;
            const sunset_remnant *u = NULL;
            const sunset_finding *f = NULL;
            char name[128];
            uint32_t at = 0;
            for (size_t k = 0; k < m->n_findings && !u; k++) {
                f = &c->res->findings[m->findings[k]];
                if (declared(f, name, sizeof name)) u = kept_user(c, out, first, m, f, name, &at);
            }
            if (!u) continue;
            sb e = {0}, fix = {0};
            sb_printf(&e, "declares %s, which line %u still uses (migrate): it goes with its user", name, at);
            if (strncmp(f->fix, "delete", 6) == 0) sb_puts(&fix, "move the consumer off it first, then delete the legacy use");
            else sb_printf(&fix, "move the consumer off it first: %s", f->fix);
            char *who = u->consumer ? sunset_strndup(u->consumer, strlen(u->consumer)) : NULL;
            if (e.oom || fix.oom || (u->consumer && !who)) return sb_free(&e), sb_free(&fix), sunset_free(who), -1;
            for (size_t k = 0; k < m->n_evidence; k++) sunset_free(m->evidence[k]);
            m->n_evidence = 0;
            bool ok = evidence(m, e.s);
            sb_free(&e);
            sunset_free(m->fix), sunset_free(m->consumer);
            m->fix = sb_take(&fix), m->consumer = who;
            if (!ok) return -1;
            m->action = SUNSET_ACT_MIGRATE;
            m->severity = remnant_severity(c->res, &c->rs->remnants, m);
            changed = true;
        }
    }
    return 0;
}

/* ---- for remnant_ranges.c (remnant_int.h) ---- */
bool rem_absorb(sunset_remnant *a, sunset_remnant *b) { return absorb(a, b); }
bool rem_evidence(sunset_remnant *m, const char *s) { return evidence(m, s); }
sunset_severity rem_severity(const build_ctx *c, const sunset_remnant *m) {
    return remnant_severity(c->res, &c->rs->remnants, m);
}
void rem_line_range(sb *b, uint32_t a, uint32_t z) { line_range(b, a, z); }
bool rem_one_edit(const sunset_result *res, const sunset_remnant *a, const sunset_remnant *b) { return one_edit(res, a, b); }
const rm_item *rem_plan_file(const rm_plan *p, const char *path) { return plan_file(p, path); }
char *rem_callers_text(const rm_item *it) { return callers_text(it); }
bool rem_word_in(const char *s, const char *w) { return word_in(s, w); }
bool rem_declares(sunset_lang l, const char *line, char *buf, size_t cap) { return line_declares(l, line, buf, cap); }

/* One file's findings [a, b). */
static int build_file(build_ctx *c, sunset_remnants *out, size_t a, size_t b) {
    const sunset_finding *F = c->res->findings;
    const sunset_finding *seed = NULL;
    for (size_t i = a; i < b && !seed; i++)
        if (glob_any(&c->rs->remnants.file_rules, F[i].rule_id)) seed = &F[i];
    const rm_item *it = plan_file(c->plan, F[a].path);
    if (seed || (it && !it->live)) return file_remnant(c, out, a, b, seed, it);
    bool doc = path_in(c, &c->rs->remnants.doc_paths, F[a].path, NULL);
    size_t first = out->n;
    for (size_t i = a; i < b;) {
        uint32_t end = F[i].span.line;
        size_t k = i;
        while (k < b && F[k].span.line <= end) {
            uint32_t e = stmt_end(&F[k]);
            if (e > end && (e - F[k].span.line < STATEMENT_LINES || defines(&F[k]) || cpp_stmt(c, &F[k]))) end = e;
            k++;
        }
        if (line_remnant(c, out, i, k, doc)) return -1;
        size_t k2 = k; /* a deleted definition (fn_header) takes the findings of its body */
        bool fn = false;
        for (size_t j = i; j < k && !fn; j++) fn = fn_header(&F[j]);
        while (fn && out->v[out->n - 1].action == SUNSET_ACT_DELETE && k2 < b &&
               F[k2].span.line <= out->v[out->n - 1].end_line)
            k2++;
        if (k2 > k) {
            remnant_free(&out->v[--out->n]);
            if (line_remnant(c, out, i, k2, doc)) return -1;
            k = k2;
        }
        i = k;
        sunset_remnant *last = &out->v[out->n - 1];
        if (out->n - 1 > first && one_edit(c->res, last - 1, last)) {
            if (!absorb(last - 1, last)) return -1;
            out->n--;
        }
        if (rem_merge_overlap(c, out, first)) return -1;
    }
    bool failed = users_keep(c, out, first) || scope_follows(c, out, first) || rem_attach_text(c, out, first) ||
                  rem_block_ranges(c, out, first);
    sb_free(&c->text); /* the file's text, read by the range passes */
    c->text_tried = false;
    if (failed) return -1;
    uint32_t last = 0;
    for (size_t i = a; i < b; i++) last = F[i].span.end_line > last ? F[i].span.end_line : last;
    rem_path_remnants(c, out, first, last);
    return 0;
}

int sunset_remnants_build(const sunset_result *res, const sunset_ruleset *rs, const rm_plan *plan,
                          rm_chain_writer write, sunset_remnants *out) {
    memset(out, 0, sizeof *out);
    build_ctx c = {.res = res, .rs = rs, .plan = plan, .write = write, .md = sunset_re_match_data(1)};
    if (!c.md) return -1;
    int rc = 0;
    for (size_t a = 0; a < res->n_findings && !rc;) {
        size_t b = a + 1;
        while (b < res->n_findings && strcmp(res->findings[b].path, res->findings[a].path) == 0) b++;
        rc = build_file(&c, out, a, b);
        a = b;
    }
    pcre2_match_data_free(c.md);
    if (rc) sunset_remnants_free(out);
    return rc;
}

void sunset_remnants_settle(sunset_result *res, const sunset_remnants *rem) {
    for (size_t i = 0; i < rem->n; i++) {
        const sunset_remnant *m = &rem->v[i];
        for (size_t k = 0; k < m->n_findings; k++) {
            sunset_finding *f = &res->findings[m->findings[k]];
            if (f->severity > m->severity) f->severity = m->severity;
        }
    }
}

int sunset_remnants_as_new(const sunset_result *res, sunset_remnants *rem) {
    for (size_t i = 0; i < rem->n; i++) {
        sunset_remnant *m = &rem->v[i];
        const sunset_finding *lead = &res->findings[m->findings[0]];
        for (size_t k = 1; k < m->n_findings; k++)
            if (res->findings[m->findings[k]].severity > lead->severity) lead = &res->findings[m->findings[k]];
        m->severity = lead->severity;
        m->why = lead->message;
        if (lead->fix && *lead->fix && !set_str(&m->fix, lead->fix)) return -1;
        /* the live consumer and the plan's evidence speak of code already there */
        sunset_free(m->consumer);
        m->consumer = NULL;
        for (size_t k = 0; k < m->n_evidence; k++) sunset_free(m->evidence[k]);
        m->n_evidence = 0;
        if (!evidence(m, "added by this change")) return -1;
    }
    return 0;
}

/* migrate before delete before update-doc: what blocks a deletion comes first */
static const int action_rank[SUNSET_ACT_COUNT] = {1, 0, 2};

static int cmp_rank(const void *x, const void *y) {
    const sunset_remnant *a = *(const sunset_remnant *const *)x, *b = *(const sunset_remnant *const *)y;
    if (a->task != b->task) return a->task < b->task ? -1 : 1;
    if (a->action != b->action) return action_rank[a->action] < action_rank[b->action] ? -1 : 1;
    int p = strcmp(a->path, b->path);
    if (p) return p;
    if (a->line != b->line) return a->line < b->line ? -1 : 1;
    return a < b ? -1 : a > b; /* one array: its own order */
}

void sunset_remnants_rank(const sunset_remnants *r, const sunset_remnant **order) {
    for (size_t i = 0; i < r->n; i++) order[i] = &r->v[i];
    if (r->n) qsort(order, r->n, sizeof *order, cmp_rank);
}
