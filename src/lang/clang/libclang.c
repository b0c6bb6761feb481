/*
 * libclang.c — libclang opened on first use (libclang.h).
 */
#define CLANG_LIB_NO_MACROS
#include "lang/clang/libclang.h"

#include "base/util.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

/* The Makefile passes the soname of the libclang it built against (readelf on its lib/). */
#ifndef SUNSET_LIBCLANG_SONAME
#define SUNSET_LIBCLANG_SONAME "libclang.so"
#endif

clang_lib clang_lib_fns;

static pthread_once_t lib_once = PTHREAD_ONCE_INIT;
static atomic_bool lib_ok;
static char lib_why[256];

static void lib_open(void) {
    /* RTLD_NOW: a missing symbol is found here, once, not mid-parse */
    void *h = dlopen(SUNSET_LIBCLANG_SONAME, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        const char *e = dlerror();
        snprintf(lib_why, sizeof lib_why, "cannot open libclang (%s): %s", SUNSET_LIBCLANG_SONAME,
                 e ? e : "unknown error");
        return;
    }
    clang_lib fns;
    memset(&fns, 0, sizeof fns);
#define CLANG_LIB_LOOKUP(name)                                                                   \
    if (!(*(void **)&fns.name = dlsym(h, #name))) {                                               \
        snprintf(lib_why, sizeof lib_why, "libclang (%s) has no %s", SUNSET_LIBCLANG_SONAME, #name); \
        return; /* the handle stays open: libLLVM does not unload cleanly */                      \
    }
    CLANG_LIB_FUNCS(CLANG_LIB_LOOKUP)
#undef CLANG_LIB_LOOKUP
    clang_lib_fns = fns;
    /* what the loader's relocations and libLLVM's static initialisers touched: ~30 MB of code
     * that no parse runs. Not given back here, it stayed resident until the 16th parse, and a
     * history run, which parses a few C++ files per commit, peaked 30 MB higher (85.7 -> 117.5 MB
     * over the 345 commits 742e3d0a1d..f027356e75). */
    clang_lib_release_code();
    atomic_store(&lib_ok, true);
}

bool clang_lib_load(char *msg, size_t n) {
    pthread_once(&lib_once, lib_open);
    bool ok = atomic_load(&lib_ok);
    if (!ok && msg && n) snprintf(msg, n, "%s", lib_why);
    return ok;
}

void clang_lib_release_code(void) {
    static const char *const heavy[] = {"libLLVM", "libclang", NULL};
    sunset_release_code_pages(heavy);
}

bool clang_lib_loaded(void) { return atomic_load(&lib_ok); }
