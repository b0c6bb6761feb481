/* known.c — fixture for scripts/lint-paddle.sh: Paddle knowledge written as code, one line of
 * each kind the lint must reject. A comment naming REGISTER_PASS, "cc_library" or "SRCS" is
 * prose, not knowledge, and is not counted: */
// nor "USE_OP" after two slashes
#include <string.h>

enum { LANE_TASKS = 7 };

int is_registrar(const char *s) { return strcmp(s, "REGISTER_OPERATOR") == 0; }

int is_wrapper(const char *s) { return strcmp(s, "nv_library") == 0 || strcmp(s, "DEPS") == 0; }

int task_ok(int task) { return task < 7; }
