/*
 * sarif.c — SARIF 2.1.0 as GitHub code scanning accepts it: one run whose tool.driver lists
 * the rules (id, short and full description, help, default level, task and family), and one
 * result per finding with its rule, level, message, a physical location (a URI relative to
 * %SRCROOT%, the repository's top, whatever sub-directory was scanned, and a region with the snippet) and a partial fingerprint (sunset's own, which ignores
 * line numbers). Suppressed findings carry suppressions[] with the comment's justification;
 * under `check` each result carries its baselineState: "new", or with the full set (check -f
 * sarif) "unchanged" and "updated" (moved) too, so code scanning computes its alerts itself.
 */
#include "report/report.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/remnant.h"

#define SARIF_SCHEMA \
    "https://raw.githubusercontent.com/oasis-tcs/sarif-spec/master/Schemata/sarif-schema-2.1.0.json"

static const char *level(sunset_severity s) {
    return s == SUNSET_SEV_ERROR ? "error" : s == SUNSET_SEV_WARNING ? "warning" : "note";
}

/* A relative URI reference: unreserved characters and '/' stay, everything else is %XX. */
static void uri(sb *b, const char *prefix, const char *path) {
    sb_putc(b, '"');
    for (int part = 0; part < 2; part++) {
        const unsigned char *p = (const unsigned char *)(part ? path : prefix);
        for (; p && *p; p++) {
            unsigned c = *p;
            if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                c == '-' || c == '.' || c == '_' || c == '~' || c == '/')
                sb_putc(b, (char)c);
            else
                sb_printf(b, "%%%02X", c);
        }
    }
    sb_putc(b, '"');
}

static int cmp_info(const void *x, const void *y) {
    return strcmp(((const sunset_rule_info *)x)->id, ((const sunset_rule_info *)y)->id);
}

/* ,"helpUri": the rule's section of rules/RULES.md where sunset is published, at the commit
 * built from (else the version's tag); nothing when the build knows no SUNSET_URL. GitHub's
 * anchor of "## PE-PATH" is "pe-path". */
static void help_uri(sb *b, const char *id) {
    /* at run time SUNSET_URL (and SUNSET_REF) name where this sunset came from, as the action
     * knows it (github.action_repository and action_ref): a build without an origin still
     * links its rules */
    const char *url = getenv("SUNSET_URL"), *ref = getenv("SUNSET_REF");
    if (!url || strncmp(url, "https://", 8)) url = SUNSET_URL, ref = NULL;
    if (!*url) return;
    size_t n = strcspn(SUNSET_GIT_COMMIT, "-"); /* a -dirty build still names its commit */
    sb u = {0};
    if (ref && *ref) sb_printf(&u, "%s/blob/%s/rules/RULES.md#", url, ref);
    else if (n) sb_printf(&u, "%s/blob/%.*s/rules/RULES.md#", url, (int)n, SUNSET_GIT_COMMIT);
    else sb_printf(&u, "%s/blob/v%s/rules/RULES.md#", url, SUNSET_VERSION);
    for (const char *p = id; *p; p++) sb_putc(&u, (char)(*p >= 'A' && *p <= 'Z' ? *p + 32 : *p));
    sb_puts(b, ",\"helpUri\":");
    sb_put_json_str(b, u.s);
    sb_free(&u);
}

/* Each '-' or '_' separated word of s (n bytes) capitalised, the rest lower case:
 * "parallel_executor" -> "ParallelExecutor", "CPP-INCLUDE" -> "CppInclude". */
static void pascal(sb *b, const char *s, size_t n) {
    bool up = true;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (c == '-' || c == '_' || c == ' ') {
            up = true;
            continue;
        }
        sb_putc(b, up && c >= 'a' && c <= 'z' ? (char)(c - 32) : !up && c >= 'A' && c <= 'Z' ? (char)(c + 32) : c);
        up = false;
    }
}

/* SARIF's rule name: a PascalCase name distinct from the id, from the family and the id's
 * words after its prefix (PE-CPP-INCLUDE of parallel_executor: ParallelExecutorCppInclude);
 * sunset's own rules spell their id (SUNSET-GATE: SunsetGate). */
static void rule_name(sb *b, const char *id, const char *family) {
    const char *tail = strchr(id, '-');
    if (strncmp(id, "SUNSET-", 7) == 0 || !tail || !family || !*family) {
        pascal(b, id, strlen(id));
        return;
    }
    pascal(b, family, strlen(family));
    pascal(b, tail + 1, strlen(tail + 1));
}

static void rule_obj(sb *b, const sunset_rule_info *ri) {
    sb_puts(b, "{\"id\":");
    sb_put_json_str(b, ri->id);
    sb_puts(b, ",\"name\":");
    sb name = {0};
    rule_name(&name, ri->id, ri->family);
    if (name.oom) b->oom = true;
    sb_put_json_str(b, name.s ? name.s : "");
    sb_free(&name);
    sb_puts(b, ",\"shortDescription\":{\"text\":");
    sb_put_json_str(b, ri->message);
    sb_puts(b, "},\"fullDescription\":{\"text\":");
    sb full = {0};
    sb_printf(&full, "%s Family: %s; task %d of the legacy-executor retirement.", ri->message,
              ri->family, ri->task);
    sb_put_json_str(b, full.s);
    sb_free(&full);
    sb_puts(b, "},\"help\":{\"text\":");
    sb help = {0};
    sb_printf(&help, "Fix: %s", ri->fix ? ri->fix : "");
    sb_put_json_str(b, help.s);
    sb_free(&help);
    sb_puts(b, ",\"markdown\":");
    sb_printf(&help, "**Fix:** %s\n\nSuppress with `// sunset-ignore[%s]: reason` (`#` in Python, "
                     "CMake and shell).", ri->fix ? ri->fix : "", ri->id);
    sb_put_json_str(b, help.s);
    sb_free(&help);
    sb_putc(b, '}');
    help_uri(b, ri->id);
    sb_puts(b, ",\"defaultConfiguration\":{\"level\":\"");
    sb_puts(b, level(ri->severity));
    sb_puts(b, "\"},\"properties\":{\"tags\":[\"legacy-executor\",");
    sb_put_json_str(b, ri->family);
    sb_printf(b, "],\"task\":%d}}", ri->task);
}

/* The rules the findings name (a caller that gives no rule list), each at its findings'
 * highest severity, sorted; *n of them. NULL on OOM. */
static sunset_rule_info *named_rules(const sunset_result *r, size_t *n) {
    sunset_rule_info *derived = sunset_calloc(r->n_findings ? r->n_findings : 1, sizeof *derived);
    if (!derived) return NULL;
    size_t n_rules = 0;
    for (size_t i = 0; i < r->n_findings; i++) {
        const sunset_finding *f = &r->findings[i];
        size_t k = 0;
        while (k < n_rules && strcmp(derived[k].id, f->rule_id)) k++;
        if (k == n_rules)
            derived[n_rules++] = (sunset_rule_info){f->rule_id, f->family, f->message, f->fix,
                                                    f->task, f->severity};
        else if (f->severity > derived[k].severity)
            derived[k].severity = f->severity;
    }
    qsort(derived, n_rules, sizeof *derived, cmp_info);
    *n = n_rules;
    return derived;
}

/* A result's message text: the finding's, its context, and its remnant's action, fix,
 * consumer and evidence (m, or NULL: the finding's fix). */
static void result_message(sb *b, const sunset_finding *f, const sunset_remnant *m) {
    sb msg = {0};
    sb_puts(&msg, f->message);
    if (f->ctx != SUNSET_CTX_CODE) sb_printf(&msg, " (in a %s)", sunset_context_name(f->ctx));
    if (m) {
        size_t fl = strlen(m->fix);
        sb_printf(&msg, " Action: %s%s. Fix: %s%s", sunset_action_name(m->action), m->file ? " the file" : "",
                  m->fix, fl && m->fix[fl - 1] == '.' ? "" : ".");
        if (m->consumer) sb_printf(&msg, " Consumer: %s.", m->consumer);
        for (size_t k = 0; k < m->n_evidence; k++) sb_printf(&msg, " Evidence: %s.", m->evidence[k]);
    } else if (f->fix && *f->fix) {
        sb_printf(&msg, " Fix: %s", f->fix);
    }
    if (msg.oom) b->oom = true;
    sb_put_json_str(b, msg.s);
    sb_free(&msg);
}

/* A result's locations member, closing the message before it: the URI below %SRCROOT% and
 * the region, in UTF-16 columns (the caller closes the physical location). */
static void result_location(sb *b, const sunset_envelope *e, const sunset_finding *f) {
    sb_puts(b, "},\"locations\":[{\"physicalLocation\":{\"artifactLocation\":{\"uri\":");
    uri(b, e->uri_prefix, f->path);
    sb_puts(b, ",\"uriBaseId\":\"%SRCROOT%\"");
    uint32_t line = f->span.line ? f->span.line : 1, col = f->span.col ? f->span.col : 1;
    uint32_t eline = f->span.end_line >= line ? f->span.end_line : line;
    uint32_t ecol = f->span.end_col ? f->span.end_col : col;
    if (eline == line && ecol < col) ecol = col;
    /* columnKind utf16CodeUnits: the result's byte columns converted on the snippet (an
     * end on another line has no text here and stays a byte column) */
    size_t ucol = sunset_finding_column(f, col, true);
    size_t uecol = eline == line ? sunset_finding_column(f, ecol, true) : ecol;
    sb_printf(b, "},\"region\":{\"startLine\":%u,\"startColumn\":%zu,\"endLine\":%u,\"endColumn\":%zu",
              line, ucol, eline, uecol);
    if (f->snippet) {
        sb_puts(b, ",\"snippet\":{\"text\":");
        sb_put_json_str(b, f->snippet);
        sb_putc(b, '}');
    }
}

static int write_sarif(const sunset_result *r, const sunset_envelope *e, sb *b) {
    /* the rules: every rule when the caller gave them, else those the findings name */
    sunset_rule_info *derived = NULL;
    const sunset_rule_info *rules = e->rules;
    size_t n_rules = e->n_rules;
    if (!rules && !(rules = derived = named_rules(r, &n_rules))) return -1;
    sb_puts(b, "{\"$schema\":\"" SARIF_SCHEMA "\",\"version\":\"2.1.0\",\"runs\":[{\"tool\":{\"driver\":"
               "{\"name\":\"sunset\",\"version\":\"" SUNSET_VERSION "\",\"semanticVersion\":\"" SUNSET_VERSION "\",");
    if (*SUNSET_URL) sb_puts(b, "\"informationUri\":\"" SUNSET_URL "\",");
    sb_puts(b, "\"rules\":[");
    for (size_t i = 0; i < n_rules; i++) {
        if (i) sb_puts(b, ",\n");
        rule_obj(b, &rules[i]);
    }
    /* %SRCROOT% is the repository's top (the scan root outside git): every URI is relative to
     * it whatever sub-directory was scanned, so code scanning resolves it in the checkout.
     * No absolute uri: a report must not carry the machine's paths. */
    sb_printf(b, "]}},\"originalUriBaseIds\":{\"%%SRCROOT%%\":{\"description\":{\"text\":\"%s\"}}}"
                 ",\"results\":[",
              e->uri_prefix ? "The top of the git work tree." : "The scanned root.");
    /* one result per finding, one fingerprint scheme (sunset/v1), in every command: code
     * scanning keys alerts by them, and scan and check upload to one category. A finding's
     * remnant (its action, fix and consumer) rides along in the message and properties. */
    const sunset_remnant **of = NULL;
    const sunset_remnants *rm = e->remnants;
    if (rm) {
        of = sunset_calloc(r->n_findings ? r->n_findings : 1, sizeof *of);
        if (!of) return sunset_free(derived), -1;
        for (size_t i = 0; i < rm->n; i++)
            for (size_t k = 0; k < rm->v[i].n_findings; k++) of[rm->v[i].findings[k]] = &rm->v[i];
    }
    for (size_t i = 0; i < r->n_findings; i++) {
        const sunset_remnant *m = of ? of[i] : NULL;
        const sunset_finding *f = &r->findings[i];
        size_t idx = 0;
        while (idx < n_rules && strcmp(rules[idx].id, f->rule_id)) idx++;
        sb_puts(b, i ? ",\n{\"ruleId\":" : "\n{\"ruleId\":");
        sb_put_json_str(b, f->rule_id);
        if (idx < n_rules) sb_printf(b, ",\"ruleIndex\":%zu", idx);
        sb_printf(b, ",\"level\":\"%s\",\"message\":{\"text\":", level(f->severity));
        result_message(b, f, m);
        result_location(b, e, f);
        sb_puts(b, "}}}],\"partialFingerprints\":{\"sunset/v1\":");
        sb_put_json_str(b, f->fingerprint);
        sb_putc(b, '}');
        if (e->gate) {
            static const char *const state[] = {"new", "unchanged", "updated"};
            unsigned st = e->gate->states ? e->gate->states[i] : SUNSET_STATE_NEW;
            sb_printf(b, ",\"baselineState\":\"%s\"", state[st <= SUNSET_STATE_UPDATED ? st : 0]);
        }
        if (f->suppressed) {
            sb_puts(b, ",\"suppressions\":[{\"kind\":\"inSource\",\"status\":\"accepted\",\"justification\":");
            sb_put_json_str(b, f->justification ? f->justification : "");
            sb_puts(b, "}]");
        }
        sb_printf(b, ",\"properties\":{\"task\":%d,\"family\":", f->task);
        sb_put_json_str(b, f->family);
        sb_puts(b, ",\"context\":");
        sb_put_json_str(b, sunset_context_name(f->ctx));
        if (m)
            sb_printf(b, ",\"action\":\"%s\",\"remnant\":{\"kind\":\"%s\",\"line\":%u,\"end_line\":%u}",
                      sunset_action_name(m->action), m->file ? "file" : "line", m->line, m->end_line);
        sb_puts(b, "}}");
    }
    sunset_free(of);
    sb_puts(b, r->n_findings ? "\n]" : "]");
    sb_puts(b, ",\"columnKind\":\"utf16CodeUnits\"}]}\n");
    sunset_free(derived);
    return b->oom ? -1 : 0;
}

const sunset_writer sunset_writer_sarif = {"sarif", write_sarif};
