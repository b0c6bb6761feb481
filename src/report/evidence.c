/*
 * evidence.c — the one renderer of an evidence chain (removable.h rm_step) as text, for the
 * removal plan's JSON and Markdown and for the `chain` of a derived finding. A chain is a
 * list of steps in preorder; each step's sentence embeds the rendering of its causes, which
 * follow it. The sentences are those sunset has always printed, byte for byte: the goldens,
 * the CLI cases and users' scripts read them.
 */
#include "report/removable.h"

/* Render the chain starting at steps[*i]; leaves *i after its last step. */
static void chain(sb *o, const rm_step *s, size_t n, size_t *i);

/* The cause chain at *i, or "?" when the list ends early (never, unless it was cut). */
static void cause(sb *o, const rm_step *s, size_t n, size_t *i) {
    if (*i < n) chain(o, s, n, i);
    else sb_putc(o, '?');
}

static const char *str(const char *s) { return s ? s : ""; }

static void users(sb *o, const rm_step *s, size_t n, size_t *i, const rm_step *st) {
    sb_printf(o, "%s only by legacy files: ", st->kind == RM_EV_IMPORTED_ONLY ? "imported" : "included");
    for (uint32_t k = 0; k < st->n_causes; k++) {
        const rm_step *u = *i < n ? &s[*i] : NULL;
        if (u) (*i)++;
        sb_printf(o, "%s%s (", k ? "; " : "", u ? str(u->path) : "?");
        cause(o, s, n, i);
        sb_putc(o, ')');
    }
    if (st->n_more) sb_printf(o, "; and %zu more", st->n_more);
}

static void chain(sb *o, const rm_step *s, size_t n, size_t *i) {
    const rm_step *st = &s[(*i)++];
    const char *p = str(st->path), *d = str(st->detail);
    switch (st->kind) {
    case RM_EV_RULE_PATH: sb_printf(o, "rule %s (path)", str(st->rule_id)); return;
    case RM_EV_RULE_AT: sb_printf(o, "rule %s at %s:%u", str(st->rule_id), p, st->line); return;
    case RM_EV_CLASS_IN_LEGACY: sb_printf(o, "%s is defined in %s, which is legacy: ", d, p); break;
    case RM_EV_DERIVES:
        sb_printf(o, "%s:%u: %s derives %s (%s:%u), ", p, st->line, d, str(st->other), str(st->other_path),
                  st->other_line);
        break;
    case RM_EV_ALL_CLASSES: sb_puts(o, "every class in it is legacy: "); break;
    case RM_EV_IMPORTED_ONLY:
    case RM_EV_INCLUDED_ONLY: users(o, s, n, i, st); return;
    case RM_EV_USER: sb_printf(o, "%s (", p); cause(o, s, n, i); sb_putc(o, ')'); return;
    case RM_EV_EMPTY_TEST:
        sb_printf(o, "empty, and registered as the legacy test target %s (", d);
        cause(o, s, n, i);
        sb_putc(o, ')');
        return;
    case RM_EV_IMPLEMENTS: sb_printf(o, "implements %s, which is legacy: ", p); break;
    case RM_EV_ORPHAN: sb_printf(o, "no CMake target compiles it, and it includes legacy %s (", p); goto paren;
    case RM_EV_ONLY_TARGET: sb_printf(o, "compiled only by legacy target %s (", d); goto paren;
    case RM_EV_ALL_SOURCES: sb_printf(o, "every source is legacy: %s (", p); goto paren;
    case RM_EV_ONLY_DEPENDENTS: sb_printf(o, "only legacy targets depend on it: %s (", d); goto paren;
    case RM_EV_DEFINED_IN: sb_printf(o, "defined in legacy %s (", p); goto paren;
    case RM_EV_READ_ONLY: sb_printf(o, "read only in legacy code: %s (", p); goto paren;
    case RM_EV_USED_ONLY: sb_printf(o, "used only in legacy code: %s (", p); goto paren;
    case RM_EV_IMPORTS: sb_printf(o, "imports %s, which is legacy: ", p); break;
    case RM_EV_IMPORTS_UNUSED: sb_printf(o, "imports %s, which is legacy and unused here: ", p); break;
    case RM_EV_INCLUDES: sb_printf(o, "includes %s, which is legacy: ", p); break;
    case RM_EV_INCLUDES_UNUSED: sb_printf(o, "includes %s, which is legacy and unused here: ", p); break;
    case RM_EV_SOURCE_REMOVED: sb_printf(o, "source %s is removed", d); return;
    case RM_EV_TARGET_REMOVED: sb_printf(o, "target %s is removed", d); return;
    case RM_EV_REGISTERS: sb_printf(o, "registers %s, which is removed", d); return;
    case RM_EV_NAMES: sb_printf(o, "names %s, which is removed", d); return;
    case RM_EV_NAMES_MIXED: sb_printf(o, "names %s, which is removed (the command also names live tests)", d); return;
    case RM_EV_INCLUDES_REMOVED: sb_printf(o, "includes %s, which is removed", d); return;
    case RM_EV_IMPORTS_REMOVED: sb_printf(o, "imports %s, which is removed", d); return;
    case RM_EV_IMPORTS_REEXPORT:
        sb_printf(o, "imports %s, which is removed, for names defined elsewhere: becomes `%s`", p, d);
        return;
    case RM_EV_LINKS_REMOVED:
        sb_printf(o, "declares and links %s, defined only in %s, which is removed", st->detail ? st->detail : "?", p);
        return;
    case RM_EV_IMPORT_CUT: sb_printf(o, "binds %s, used only by class %s, which is cut", d, p); return;
    case RM_EV_REGISTERS_LEGACY: sb_printf(o, "registers only legacy operators or passes: %s (", d); goto paren;
    case RM_EV_DECLARES_FOR: sb_printf(o, "the header of %s, which is legacy: ", p); break;
    case RM_EV_TEST_ONLY:
        sb_printf(o, "only tests include it (%s), in the directory of legacy %s (", d, p);
        goto paren;
    case RM_EV_TESTS: sb_printf(o, "the test of %s, which is legacy: ", p); break;
    case RM_EV_NAMED_IN_CLASS:
        sb_printf(o, "named only inside legacy class %s (%s:%u): ", d, p, st->line);
        break;
    case RM_EV_CALLED_ONLY:
        sb_printf(o, "its functions are called only by legacy code: %s by %s (", d, p);
        goto paren;
    case RM_EV_KIND_COUNT: return;
    }
    cause(o, s, n, i);
    return;
paren:
    cause(o, s, n, i);
    sb_putc(o, ')');
}

int rm_chain_write(sb *out, const rm_step *steps, size_t n) {
    size_t i = 0;
    if (n) chain(out, steps, n, &i);
    return out->oom ? -1 : 0;
}
