/*
 * leakcheck.c — linked into every test program (Makefile): when the program exits, every
 * allocation made through the hook (base/util.h, sunset_alloc_live) must have been freed,
 * cJSON's and PCRE2's included; otherwise it says how many are live and exits 1, whatever the
 * tests said. A child that ends with _exit (after fork) is not checked.
 */
#include <stdio.h>
#include <unistd.h>

#include "base/util.h"

__attribute__((destructor)) static void leakcheck(void) {
    long live = sunset_alloc_live();
    if (live == 0) return;
    fflush(stdout);
    fprintf(stderr, "leakcheck: %ld allocation%s still live at exit (sunset_alloc_live)\n", live,
            live == 1 ? "" : "s");
    _exit(1);
}
