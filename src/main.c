/*
 * main.c — main(): parse, run the command, exit with its code. Library code returns errors;
 * commands print them; only this function exits (codes: `enum exit_code` in cli.h).
 */
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
    return rc;
}
