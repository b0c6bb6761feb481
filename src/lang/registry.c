/*
 * registry.c — which frontends exist. The session asks sunset_frontends() for the list it
 * hands the engine (sunset_engine_opts.frontends); which language a file is, is the
 * language table's question (core/lang.c). Only this file lists frontends.
 */
#include "lang/registry.h"

#include "lang/clang/libclang.h"


static const sunset_frontend *const frontends[] = {
    &sunset_frontend_clang,
    &sunset_frontend_python,
    &sunset_frontend_text,
};
_Static_assert(sizeof frontends / sizeof frontends[0] == SUNSET_N_FRONTENDS,
               "SUNSET_N_FRONTENDS must count the registry's frontends");

const sunset_frontend *const *sunset_frontends(size_t *n) {
    if (n) *n = SUNSET_N_FRONTENDS;
    return frontends;
}

void sunset_lang_release_code(void) { clang_lib_release_code(); }
