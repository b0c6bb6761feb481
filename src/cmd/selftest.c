/*
 * selftest.c — every rule carries examples; `sunset rules test` scans each one as a file (at
 * the example's path, or example.<ext>) with the whole rule set loaded, so an example also
 * proves that no more specific rule steals its span, and that a trap stays quiet.
 */
#include "cmd/selftest.h"

#include "analysis/gate.h"
#include "core/lang.h"
#include "cmd/session.h"

#include <cjson/cJSON.h>
#include <limits.h>
#include <string.h>

#include "base/json.h"

static const char *default_path(sunset_lang l) {
    switch (l) {
    case SUNSET_LANG_CPP: return "example.cc";
    case SUNSET_LANG_PYTHON: return "example.py";
    case SUNSET_LANG_CMAKE: return "CMakeLists.txt";
    case SUNSET_LANG_PROTO: return "example.proto";
    case SUNSET_LANG_SHELL: return "example.sh";
    case SUNSET_LANG_MARKDOWN: return "example.md";
    case SUNSET_LANG_RST: return "example.rst";
    default: return "example.txt";
    }
}

int sunset_rules_test(const sunset_ruleset *rs, const sunset_engine_opts *o, bool verbose, FILE *out) {
    sunset_error err = {{0}};
    /* an example is Paddle's code unless it says "anchor": true: then it is scanned as any
     * file is, tied to Paddle only by its own path, imports, includes or words */
    sunset_engine_opts paddle_opts = *o;
    paddle_opts.anchor_all = true;
    sunset_engine *e = sunset_engine_new(rs, &paddle_opts, &err), *anchoring = NULL;
    if (e) anchoring = sunset_engine_new(rs, o, &err);
    if (!e || !anchoring) {
        fprintf(out, "sunset: %s\n", err.msg);
        sunset_engine_free(e);
        return -1;
    }
    size_t passed = 0, failed = 0;
    for (size_t i = 0; i < rs->rules.n; i++) {
        const sunset_rule *r = VEC_AT(&rs->rules, sunset_rule *, i);
        cJSON *ex = r->examples_json ? cJSON_Parse(r->examples_json) : NULL;
        size_t pos = 0, neg = 0, k = 0;
        const cJSON *it;
        cJSON_ArrayForEach(it, ex) {
            k++;
            const cJSON *lang = cJSON_GetObjectItemCaseSensitive(it, "lang");
            const cJSON *code = cJSON_GetObjectItemCaseSensitive(it, "code");
            const cJSON *path = cJSON_GetObjectItemCaseSensitive(it, "path");
            const cJSON *expect = cJSON_GetObjectItemCaseSensitive(it, "expect");
            const cJSON *anchor = cJSON_GetObjectItemCaseSensitive(it, "anchor");
            /* "string": "code" | "text": how each of the rule's string findings reads
             * (settings.remnants.code_strings: a name code registers, looks up or compares, or prose) */
            const cJSON *as = cJSON_GetObjectItemCaseSensitive(it, "string");
            sunset_lang l = cJSON_IsString(lang) ? sunset_lang_from_name(lang->valuestring) : SUNSET_LANG_NONE;
            if (l == SUNSET_LANG_NONE || !cJSON_IsString(code) || !cJSON_IsNumber(expect) ||
                (path && !cJSON_IsString(path)) || (anchor && !cJSON_IsBool(anchor)) ||
                (as && !(cJSON_IsString(as) && (!strcmp(as->valuestring, "code") || !strcmp(as->valuestring, "text"))))) {
                fprintf(out, "FAIL %s example %zu (%s): needs \"lang\" (a known language), \"code\" and \"expect\""
                        " (\"anchor\": a boolean; \"string\": \"code\" or \"text\")\n",
                        r->id, k, r->origin);
                failed++;
                continue;
            }
            const char *p = path ? path->valuestring : default_path(l);
            if (sunset_lang_for_path(p) != l && !path) p = default_path(l);
            sunset_result res = {0};
            size_t got = 0;
            if (sunset_engine_scan_buffer(cJSON_IsTrue(anchor) ? anchoring : e, p, code->valuestring, strlen(code->valuestring), &res)) {
                fprintf(out, "FAIL %s example %zu: out of memory\n", r->id, k);
                failed++;
                sunset_result_free(&res);
                continue;
            }
            size_t misread = 0;
            for (size_t f = 0; f < res.n_findings; f++) {
                const sunset_finding *x = &res.findings[f];
                if (strcmp(x->rule_id, r->id)) continue;
                got++;
                misread += as && x->ctx == SUNSET_CTX_STRING && x->code_string != !strcmp(as->valuestring, "code");
            }
            long wantl = 0;
            json_get_int(expect, INT_MIN, INT_MAX, &wantl); /* a count; 1e300 counts as 0 */
            int want = (int)wantl;
            if (want > 0) pos++;
            else neg++;
            if (misread) {
                failed++;
                fprintf(out, "FAIL %s example %zu (%s, as %s): %zu string finding%s of this rule not read as %s\n", r->id,
                        k, r->origin, p, misread, misread == 1 ? "" : "s", as->valuestring);
            } else if ((int)got == want) {
                passed++;
                if (verbose) fprintf(out, "ok   %s example %zu: %zu finding%s\n", r->id, k, got, got == 1 ? "" : "s");
            } else {
                failed++;
                fprintf(out, "FAIL %s example %zu (%s, as %s): expected %d finding%s of this rule, got %zu\n",
                        r->id, k, r->origin, p, want, want == 1 ? "" : "s", got);
                for (size_t f = 0; f < res.n_findings; f++)
                    fprintf(out, "       %u:%u-%u:%u %s [%s] %s\n", res.findings[f].span.line,
                            res.findings[f].span.col, res.findings[f].span.end_line,
                            res.findings[f].span.end_col, res.findings[f].rule_id,
                            sunset_context_name(res.findings[f].ctx), res.findings[f].matched);
                for (size_t w = 0; w < res.n_warnings; w++) fprintf(out, "       %s\n", res.warnings[w]);
            }
            sunset_result_free(&res);
        }
        if (!pos || !neg) {
            failed++;
            fprintf(out, "FAIL %s (%s): needs at least one positive and one negative example (has %zu and %zu)\n",
                    r->id, r->origin, pos, neg);
        }
        cJSON_Delete(ex);
    }
    sunset_engine_free(e);
    sunset_engine_free(anchoring);
    fprintf(out, "rules: %zu passed, %zu failed\n", passed, failed);
    return (int)failed;
}

int sunset_rules_list(const sunset_ruleset *rs, bool json, sb *out) {
    if (json) sb_puts(out, "[");
    for (size_t i = 0; i < rs->rules.n; i++) {
        const sunset_rule *r = VEC_AT(&rs->rules, sunset_rule *, i);
        sb langs = {0};
        for (int l = 1; l < SUNSET_LANG_COUNT; l++)
            if (r->lang_mask & (1u << l)) sb_printf(&langs, "%s%s", langs.len ? "," : "", sunset_lang_name((sunset_lang)l));
        if (json) {
            sb_printf(out, "%s\n{\"id\":\"%s\",\"family\":\"%s\",\"task\":%d,\"severity\":\"%s\",\"languages\":\"%s\",\"message\":\"",
                      i ? "," : "", r->id, r->family, r->task, sunset_severity_name(r->sev[SUNSET_CTX_CODE]),
                      langs.s ? langs.s : "");
            sb_put_json_escaped(out, r->message, strlen(r->message));
            sb_puts(out, "\",\"fix\":\"");
            sb_put_json_escaped(out, r->fix, strlen(r->fix));
            sb_puts(out, "\"}");
        } else {
            sb_printf(out, "%-28s %-20s task %d  %-7s %-22s %s\n", r->id, r->family, r->task,
                      sunset_severity_name(r->sev[SUNSET_CTX_CODE]), langs.s ? langs.s : "", r->message);
        }
        sb_free(&langs);
    }
    for (size_t i = 0; i < sunset_builtin_rules_n; i++) {
        const sunset_builtin_rule *r = &sunset_builtin_rules[i];
        if (json) {
            sb_printf(out, ",\n{\"id\":\"%s\",\"family\":\"%s\",\"task\":0,\"severity\":\"error\",\"languages\":\"\","
                      "\"message\":", r->id, r->family);
            sb_put_json_str(out, r->message);
            sb_puts(out, ",\"fix\":");
            sb_put_json_str(out, r->fix);
            sb_puts(out, "}");
        } else {
            sb_printf(out, "%-28s %-20s task -  %-7s %-22s %s\n", r->id, r->family, "error", "(sunset's own)",
                      r->message);
        }
    }
    if (json) sb_puts(out, "\n]\n");
    return out->oom ? -1 : 0;
}

int cmd_rules(const cli *c) {
    const char *sub = c->paths.n ? VEC_AT(&c->paths, const char *, 0) : NULL;
    bool show = sub && strcmp(sub, "show") == 0;
    if (!sub || (c->paths.n > 1 && !show) || (strcmp(sub, "test") && strcmp(sub, "list") && !show))
        return cli_usage_error("'rules' takes test, list or show [ID...]");
    /* the words are not paths to look for a configuration from */
    const char *const *ids = (const char *const *)c->paths.v + 1;
    size_t n_ids = c->paths.n - 1;
    scan_ctx s = {.config_from = "."};
    sb doc = {0};
    int rc = scan_load_rules(c, &s);
    if (rc) goto cleanup;
    if (show) {
        rc = sunset_rules_show(s.rs, ids, n_ids, c->format, &doc) ? EXIT_USAGE : output_write(c->output, &doc);
    } else if (strcmp(sub, "list") == 0) {
        bool json = c->format && strcmp(c->format, "json") == 0;
        if (c->format && !json && strcmp(c->format, "text")) {
            fprintf(stderr, "sunset: unknown format '%s' (known: text, json)\n", c->format);
            rc = EXIT_USAGE;
            goto cleanup;
        }
        rc = sunset_rules_list(s.rs, json, &doc) ? EXIT_USAGE : output_write(c->output, &doc);
    } else {
        s.eo.jobs = 1;
        int failed = sunset_rules_test(s.rs, &s.eo, c->verbose, stdout);
        rc = failed == 0 ? EXIT_OK : failed > 0 ? EXIT_FINDINGS : EXIT_USAGE;
    }
cleanup:
    sb_free(&doc);
    scan_ctx_free(&s);
    return rc;
}
