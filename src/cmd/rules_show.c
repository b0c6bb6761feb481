/*
 * rules_show.c — `sunset rules show [ID...]`: what a rule finds, why it matters and how to fix
 * it, from the rule itself: message, rationale (the rule's "description", else its pack's),
 * fix hint, severities, languages, matcher and the examples `rules test` checks. Text for a
 * terminal, JSON, or Markdown: `rules show -f markdown` with no ID is rules/RULES.md, the page
 * SARIF's helpUri points at (one anchor per rule, the id in lower case).
 */
#include "cmd/selftest.h"

#include <cjson/cJSON.h>
#include <string.h>

#include "analysis/gate.h"
#include "core/lang.h"

typedef enum show_fmt { SHOW_TEXT, SHOW_JSON, SHOW_MD } show_fmt;

static void mask_langs(unsigned mask, sb *b) {
    for (int l = 1; l < SUNSET_LANG_COUNT; l++)
        if (mask & (1u << l)) sb_printf(b, "%s%s", b->len ? ", " : "", sunset_lang_name((sunset_lang)l));
}

static void langs_of(const sunset_rule *r, sb *b) { mask_langs(r->lang_mask, b); }

/* How the rule is anchored, when not everywhere: a sentence (text) or a line (markdown). */
static void anchoring_of(const sunset_rule *r, bool md, sb *b) {
    sb al = {0};
    mask_langs(r->anchored_langs, &al);
    if (r->anchored_langs)
        sb_printf(b, md ? "Matches in any file, tied to Paddle or not, except in %s (`\"anchored\": [...]`).\n\n"
                        : "  anchored   only in %s: elsewhere it matches in any file\n", al.s ? al.s : "");
    else if (!r->anchored)
        sb_puts(b, md ? "Matches in any file, tied to Paddle or not (`\"anchored\": false`).\n\n"
                      : "  anchored   no: matches in any file, tied to Paddle or not\n");
    if (r->unless_untied)
        sb_puts(b, md ? "Names it shares with other projects count only in a file tied to Paddle (`\"unless.untied\"`).\n\n"
                      : "  untied     names it shares with other projects count only in a file tied to Paddle\n");
    sb_free(&al);
}

static void contexts_of(const sunset_rule *r, sb *b) {
    for (int c = 0; c < SUNSET_CTX_COUNT; c++)
        if (r->ctx_mask & (1u << c))
            sb_printf(b, "%s%s %s", b->len ? ", " : "", sunset_context_name((sunset_context)c),
                      sunset_severity_name(r->sev[c]));
}

/* Each line of code, indented by `ind` (text) or as is (markdown fences). */
static void code_lines(sb *b, const char *code, const char *ind) {
    for (const char *p = code; *p;) {
        size_t n = strcspn(p, "\n");
        sb_printf(b, "%s%.*s\n", ind, (int)n, p);
        p += n + (p[n] == '\n');
    }
}

static void show_examples(const sunset_rule *r, show_fmt f, sb *b) {
    cJSON *ex = r->examples_json ? cJSON_Parse(r->examples_json) : NULL;
    const cJSON *it;
    cJSON_ArrayForEach(it, ex) {
        const char *lang = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(it, "lang"));
        const char *code = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(it, "code"));
        const char *path = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(it, "path"));
        double want = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(it, "expect"));
        bool anchor = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(it, "anchor"));
        if (!lang || !code) continue;
        char what[96];
        if (want >= 1 && want < 1e6) snprintf(what, sizeof what, "%.0f finding%s", want, want == 1 ? "" : "s");
        else snprintf(what, sizeof what, "no finding");
        /* the example is not taken for Paddle's code: its own imports or namespace decide */
        if (anchor) snprintf(what + strlen(what), sizeof what - strlen(what), ", tied to Paddle only by itself");
        if (f == SHOW_MD) {
            /* a fence longer than any run of backticks in the code (markdown examples have them) */
            int fence = 3;
            for (const char *p = code; *p; p++) {
                int run = 0;
                while (p[run] == '`') run++;
                if (run >= fence) fence = run < 17 ? run + 1 : 18;
                if (run) p += run - 1;
            }
            sb_printf(b, "%s (%s%s%s):\n\n%.*s%s\n", want >= 1 ? "Flagged" : "Not flagged", what, path ? ", as " : "",
                      path ? path : "", fence, "``````````````````", lang);
            code_lines(b, code, "");
            sb_printf(b, "%.*s\n\n", fence, "``````````````````");
        } else {
            sb_printf(b, "  %s %s%s%s: %s\n", want >= 1 ? "+" : "-", lang, path ? " " : "", path ? path : "", what);
            code_lines(b, code, "      ");
        }
    }
    cJSON_Delete(ex);
}

static void show_text(const sunset_rule *r, sb *b) {
    sb langs = {0}, ctx = {0};
    langs_of(r, &langs);
    contexts_of(r, &ctx);
    sb_printf(b, "%s — %s\n\n", r->id, r->message);
    sb_printf(b, "  family     %s (tracking task %d)\n", r->family, r->task);
    sb_printf(b, "  severity   %s\n", ctx.s ? ctx.s : "");
    sb_printf(b, "  languages  %s\n", langs.s ? langs.s : "");
    sb_printf(b, "  matcher    %s\n", rule_kind_name(r->kind));
    anchoring_of(r, false, b);
    if (r->unless_line || r->unless_file) sb_puts(b, "  unless     its line or file reads the word in another sense\n");
    if (r->description) sb_printf(b, "\nwhy: %s\n", r->description);
    sb_printf(b, "\nfix: %s\n", r->fix);
    if (r->migrate_to) sb_printf(b, "\nmigrate to: %s\n", r->migrate_to);
    if (r->mechanical) sb_printf(b, "mechanical: %s (the patch makes this edit)\n", r->mechanical);
    sb_puts(b, "\nexamples (checked by 'sunset rules test'):\n");
    show_examples(r, SHOW_TEXT, b);
    sb_free(&langs);
    sb_free(&ctx);
}

static void show_md(const sunset_rule *r, sb *b) {
    sb langs = {0}, ctx = {0};
    langs_of(r, &langs);
    contexts_of(r, &ctx);
    /* the heading is the id alone: GitHub's anchor is then the id in lower case */
    sb_printf(b, "## %s\n\n%s\n\n", r->id, r->message);
    sb_printf(b, "- family: `%s` (tracking task %d)\n- severity: %s\n- languages: %s\n- matcher: `%s`\n\n",
              r->family, r->task, ctx.s ? ctx.s : "", langs.s ? langs.s : "", rule_kind_name(r->kind));
    anchoring_of(r, true, b);
    if (r->unless_line || r->unless_file)
        sb_puts(b, "Not where its line or file reads the word in another sense (`\"unless\"`).\n\n");
    if (r->description) sb_printf(b, "**Why.** %s\n\n", r->description);
    sb_printf(b, "**Fix.** %s\n\n", r->fix);
    if (r->migrate_to) sb_printf(b, "**Migrate to.** %s\n\n", r->migrate_to);
    if (r->mechanical) sb_printf(b, "**Mechanical.** `%s`: the patch makes this edit.\n\n", r->mechanical);
    show_examples(r, SHOW_MD, b);
    sb_free(&langs);
    sb_free(&ctx);
}

static void show_json(const sunset_rule *r, bool first, sb *b) {
    sb langs = {0};
    langs_of(r, &langs);
    sb_puts(b, first ? "\n{\"id\":" : ",\n{\"id\":");
    sb_put_json_str(b, r->id);
    sb_puts(b, ",\"family\":");
    sb_put_json_str(b, r->family);
    sb_printf(b, ",\"task\":%d,\"matcher\":\"%s\",\"languages\":", r->task, rule_kind_name(r->kind));
    sb_put_json_str(b, langs.s);
    sb_puts(b, ",\"severity\":{");
    bool f1 = true;
    for (int c = 0; c < SUNSET_CTX_COUNT; c++)
        if (r->ctx_mask & (1u << c)) {
            sb_printf(b, "%s\"%s\":\"%s\"", f1 ? "" : ",", sunset_context_name((sunset_context)c),
                      sunset_severity_name(r->sev[c]));
            f1 = false;
        }
    sb_puts(b, "},\"message\":");
    sb_put_json_str(b, r->message);
    sb_puts(b, ",\"rationale\":");
    sb_put_json_str_or_null(b, r->description);
    sb_puts(b, ",\"fix\":");
    sb_put_json_str(b, r->fix);
    sb_puts(b, ",\"migrate_to\":");
    sb_put_json_str_or_null(b, r->migrate_to);
    sb_puts(b, ",\"mechanical\":");
    sb_put_json_str_or_null(b, r->mechanical);
    sb_printf(b, ",\"examples\":%s}", r->examples_json ? r->examples_json : "[]");
    sb_free(&langs);
}

/* A page of sunset's own rules (analysis/gate.h): no pack, no matcher, always an error. */
static void show_builtin(const sunset_builtin_rule *r, show_fmt f, bool first, sb *b) {
    static const char *const fmt[] = {
        [SHOW_TEXT] = "%s — %s\n\n  family     %s (sunset's own rule, not a pack's)\n  severity   error, "
                      "never suppressible\n\nwhy: %s\n\nfix: %s\n",
        [SHOW_MD] = "## %s\n\n%s\n\n- family: `%s` (sunset's own rule, not a pack's)\n- severity: error, "
                    "never suppressible\n\n**Why.** %s\n\n**Fix.** %s\n\n",
    };
    if (f != SHOW_JSON) {
        sb_printf(b, fmt[f], r->id, r->message, r->family, r->why, r->fix);
        return;
    }
    sb_puts(b, first ? "\n{\"id\":" : ",\n{\"id\":");
    sb_put_json_str(b, r->id);
    sb_puts(b, ",\"family\":");
    sb_put_json_str(b, r->family);
    sb_puts(b, ",\"task\":0,\"matcher\":\"builtin\",\"languages\":\"\",\"severity\":{\"code\":\"error\"},"
               "\"message\":");
    sb_put_json_str(b, r->message);
    sb_puts(b, ",\"rationale\":");
    sb_put_json_str(b, r->why);
    sb_puts(b, ",\"fix\":");
    sb_put_json_str(b, r->fix);
    sb_puts(b, ",\"examples\":[]}");
}

static const sunset_rule *rule_find(const sunset_ruleset *rs, const char *id) {
    for (size_t i = 0; i < rs->rules.n; i++)
        if (strcmp(VEC_AT(&rs->rules, sunset_rule *, i)->id, id) == 0) return VEC_AT(&rs->rules, sunset_rule *, i);
    return NULL;
}

int sunset_rules_show(const sunset_ruleset *rs, const char *const *ids, size_t n_ids, const char *format, sb *out) {
    show_fmt f = !format || strcmp(format, "text") == 0 ? SHOW_TEXT : strcmp(format, "json") == 0 ? SHOW_JSON : SHOW_MD;
    for (size_t k = 0; k < n_ids; k++)
        if (!rule_find(rs, ids[k]) && !sunset_builtin_rule_find(ids[k])) {
            fprintf(stderr, "sunset: no rule '%s' (see 'sunset rules list')\n", ids[k]);
            return -1;
        }
    if (f == SHOW_JSON) sb_puts(out, "[");
    if (f == SHOW_MD && !n_ids)
        sb_puts(out, "# sunset rules\n\nGenerated by `sunset rules show -f markdown` from rules/*.json (the format is "
                     "[SCHEMA.md](SCHEMA.md)); `make rules-doc` rewrites it and `make test` checks it is "
                     "current. Each rule: what it finds, why, the fix, and the examples `sunset rules test` "
                     "checks.\n\n");
    /* in the order asked for; every rule in load order, then sunset's own, without ids */
    size_t shown = 0, n = n_ids ? n_ids : rs->rules.n + sunset_builtin_rules_n;
    for (size_t k = 0; k < n; k++) {
        const sunset_rule *r = n_ids ? rule_find(rs, ids[k])
                               : k < rs->rules.n ? VEC_AT(&rs->rules, sunset_rule *, k) : NULL;
        const sunset_builtin_rule *own = r ? NULL
                                       : n_ids ? sunset_builtin_rule_find(ids[k])
                                               : &sunset_builtin_rules[k - rs->rules.n];
        if (f == SHOW_TEXT && shown) sb_puts(out, "\n");
        if (own) show_builtin(own, f, shown == 0, out);
        else if (f == SHOW_TEXT) show_text(r, out);
        else if (f == SHOW_MD) show_md(r, out);
        else show_json(r, shown == 0, out);
        shown++;
    }
    if (f == SHOW_JSON) sb_puts(out, "\n]\n");
    return out->oom ? -1 : 0;
}
