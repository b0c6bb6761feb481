/* lint-clock fixture: scripts/lint-clock.sh must reject this file (make lint-clock checks it
 * does). A mention in a comment, clock_gettime(CLOCK_MONOTONIC, &ts), is fine, and so is a
 * string: */
static const char *msg = "took time(NULL) ms";
static double mtime(void) { return 0; } /* not a clock */

static int slow_enough(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    long t0 = (long)time (NULL);
    usleep(1000);
    return (long)time(NULL) - t0 > 1 && mtime() == 0 && msg;
}

/* and a time limit without the fake clock: the real one would decide */
static unsigned budget(void) { return cfg.parse_budget_ms = 100; }
