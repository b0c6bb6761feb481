/*
 * fakeclock.h — the clock of the tests that exercise a time limit (--parse-budget). No test
 * reads the real clock for its verdict (README "Tests and benchmarks"; scripts/lint-clock.sh
 * enforces it): a test installs this one with fake_clock_start, which the time limits of
 * the frontends and the flow then read through sunset_clock_ms, and the outcome depends
 * only on how many times the code under test looks at the clock.
 */
#ifndef SUNSET_TEST_FAKECLOCK_H
#define SUNSET_TEST_FAKECLOCK_H

#include "base/util.h"

static long fake_clock_n, fake_clock_expire;
static double fake_clock_step;

static double fake_clock_read(void) {
    long i = fake_clock_n++;
    if (fake_clock_expire >= 0 && i >= fake_clock_expire) return 3.6e6; /* an hour later */
    return (double)i * fake_clock_step;
}

/* From now on the time reads 0, step, 2 step, ... ms, and an hour from the read numbered
 * `expire` (0 = the first) on; expire < 0: never. */
static inline void fake_clock_start(long expire, double step) {
    fake_clock_n = 0;
    fake_clock_expire = expire;
    fake_clock_step = step;
    sunset_set_clock(fake_clock_read);
}

/* How many times the clock was read since fake_clock_start. */
static inline long fake_clock_reads(void) { return fake_clock_n; }

/* The real clock again. */
static inline void fake_clock_stop(void) { sunset_set_clock(NULL); }

#endif
