/*
 * stale.c — a fixture for scripts/lint-headers.sh (make lint-headers): this comment names
 * scan.c and core/nothere.h, which do not exist, so the lint must reject the file.
 */
