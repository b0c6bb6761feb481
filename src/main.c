/*
 * main.c — main(): parse, run the command, exit with its code. Library code returns errors;
 * commands print them; only this function exits (codes: `enum exit_code` in cli.h).
 */
#include "base/util.h"
#include "cmd/cli.h"

#include <stdlib.h>

int main(int argc, char **argv) {
    /* libclang's parses run on the C++ frontend's own thread (lang/clang/frontend.c): set
     * here, before any thread, since check starts the engine on one (cmd/check.c) */
    setenv("LIBCLANG_NOTHREADS", "1", 1);
    cli c;
    bool done;
    int rc = cli_parse(argc, argv, &c, &done);
    if (rc == EXIT_OK && !done) {
        for (size_t i = 0; i < sunset_n_commands; i++)
            if (sunset_commands[i].bit == c.cmd) rc = sunset_commands[i].run(&c);
    }
    cli_free(&c);
    /* exit() runs libclang's and libLLVM's static destructors, which fault ~9 MB of their code
     * back in (fault-around maps up to 16 pages a fault), long after the scan gave it back
     * (base/util.h sunset_release_code_pages). What the run freed and the allocator still held
     * counted under it: a scan of the 2024-05-09 tree peaked there, at 97.8 MB in a run of five,
     * not at its 89.5 MB during the removal plan (removable: 101.3 instead of 92.5 MB). */
    sunset_heap_trim();
    return rc;
}
