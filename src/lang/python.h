/*
 * python.h — test hooks of the Python frontend (src/lang/python/). The frontend itself is
 * reached through `sunset_frontend_python` in lang/registry.h; nothing here is needed by the engine.
 */
#ifndef SUNSET_LANG_PYTHON_H
#define SUNSET_LANG_PYTHON_H

#include <stdint.h>

/* Default limit on a query cursor's in-progress matches (ts_query_cursor_set_match_limit). */
#define SUNSET_PYTHON_MATCH_LIMIT 10000u

/* For tests: the match limit used by frontend states created by later init() calls
 * (0 restores SUNSET_PYTHON_MATCH_LIMIT). Not thread-safe; call before init. */
void sunset_python_set_match_limit(uint32_t limit);

#endif
