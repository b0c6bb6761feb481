/* lint-stderr fixture: a library function that prints its own error (what scripts/lint-stderr.sh
 * must reject); the comment's fprintf(stderr, ...) and the string below are not calls. */
#include <stdio.h>

int load_list(const char *file) {
    const char *said = "fprintf(stderr, \"quoted\")";
    (void)said;
    fprintf(stderr, "sunset: %s: cannot read the list\n", file);
    return 2;
}
