/*
 * util.h — small containers and helpers shared by the engine, frontends and writers:
 * a growable byte buffer, a growable pointer/struct vector, file reading, the allocation
 * hook's test controls, and hashing. Part of the public tier: frontends may use it.
 */
#ifndef SUNSET_UTIL_H
#define SUNSET_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "sunset.h"

/* Growable NUL-terminated byte buffer. Zero-initialise ({0}) to start; sb_free releases. */
typedef struct sb {
    char *s;
    size_t len, cap;
    bool oom; /* set when an append failed; the buffer keeps what it had */
} sb;

void sb_free(sb *b);
bool sb_grow(sb *b, size_t extra);
bool sb_putn(sb *b, const char *s, size_t n);
bool sb_puts(sb *b, const char *s);
bool sb_putc(sb *b, char c);
bool sb_printf(sb *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* JSON string contents (no quotes) with escapes; invalid UTF-8 bytes become U+FFFD. */
bool sb_put_json_escaped(sb *b, const char *s, size_t n);
/* A JSON string literal, quotes included, escaped as sb_put_json_escaped does. NULL is
 * written as "" by sb_put_json_str and as null by sb_put_json_str_or_null. */
bool sb_put_json_str(sb *b, const char *s);
bool sb_put_json_str_or_null(sb *b, const char *s);
/* Takes the buffer's memory (caller frees with sunset_free); leaves b empty. */
char *sb_take(sb *b);

/* Growable array of fixed-size elements. */
typedef struct vec {
    void *v;
    size_t n, cap, elem;
} vec;

#define VEC_INIT(type) ((vec){NULL, 0, 0, sizeof(type)})
#define VEC_AT(vp, type, i) (((type *)(vp)->v)[i])
/* Appends a copy of *elem; returns a pointer to the new slot or NULL on OOM. */
void *vec_push(vec *a, const void *elem);
void vec_free(vec *a);

/* Read a whole regular file into memory (NUL-terminated). Returns 0, or an errno value:
 * EISDIR for a directory, EINVAL for anything else that is not a regular file (a FIFO, a
 * device: opened without blocking and never read, so `.gitignore -> /dev/stdin` cannot
 * hang a run). The caller frees *out with sunset_free. max_size 0 = unlimited; larger
 * files return EFBIG. Every configuration input (rules, .sunset.json, baselines ...) is
 * read with it. */
int read_file(const char *path, size_t max_size, char **out, size_t *len);
/* read_file, with extra open(2) flags: O_NOFOLLOW for files git itself does not follow
 * through a symlink (.gitignore: a symlink then gives ELOOP). */
int read_file_flags(const char *path, int oflags, size_t max_size, char **out, size_t *len);

/* Like read_file, into a caller-owned buffer that is reused across calls (its memory is
 * kept, so a worker reading thousands of files does not map and unmap a fresh block for
 * each). On success buf->s holds the contents, NUL-terminated, and buf->len their length. */
int read_file_sb(const char *path, size_t max_size, sb *buf);

/* Write `len` bytes to `path` atomically: a temp file in the same directory, fsync, rename.
 * Returns 0 or an errno value; on failure the old file is untouched and no temp remains.
 * A new file gets 0666 less the umask, a replaced one keeps its mode (see write_file_stage).
 * A path that exists and is not a regular file (/dev/null, a FIFO) is opened and written
 * in place: renaming over a device would replace it. A directory is EISDIR. */
int write_file_atomic(const char *path, const char *data, size_t len);

/* Text for a human-readable report (a terminal, a CI log, Markdown): printable ASCII and valid
 * UTF-8 as they are, tab kept; LF and CR as \n and \r, the other C0 controls (ESC) and DEL as
 * \xHH, C1 controls as \u00HH, bytes that are not UTF-8 as \xHH. So a file name cannot start
 * a new line (a `::error` workflow command in a CI log) or a terminal escape sequence. A
 * backslash stays as it is: the output is for people, not for parsing back. The _str form
 * writes nothing for NULL. Both return false on OOM. */
bool sb_put_printable(sb *b, const char *s, size_t n);
/* The first n bytes of s measured as UTF-16 code units (utf16) or as terminal columns (wide
 * CJK characters 2, combining marks 0); a byte that is not UTF-8 counts 1. */
size_t utf8_columns(const char *s, size_t n, bool utf16);
bool sb_put_printable_str(sb *b, const char *s);

/* write_file_atomic in two steps, for a set of files that must be replaced together: stage
 * writes and fsyncs the temp next to `path` (*tmp, caller-owned, NULL when `path` is not a
 * regular file and was written in place); commit renames it over `path`, abort removes it;
 * both free *tmp. New files get 0666 less the umask; a replaced file keeps its mode. Until
 * commit or abort, SIGINT/SIGTERM/SIGHUP unlink the temp before the process dies of the
 * signal (handlers installed on first use where the signal's action is the default). */
int write_file_stage(const char *path, const char *data, size_t len, char **tmp);
int write_file_commit(char *tmp, const char *path);
void write_file_abort(char *tmp);
/* Unlinks every temp staged and not yet committed or aborted; async-signal-safe (the signal
 * handler's work, callable by tests). */
void sunset_tmp_cleanup(void);

/* 64-bit FNV-1a, for fingerprints and hash tables. */
uint64_t hash64(const void *data, size_t n, uint64_t seed);

/* Give back the resident pages of the executable segments of the loaded shared objects whose
 * file name contains one of `names` (NULL-terminated). Those pages are clean copies of the
 * file: a later call into them reads them back from the page cache. libLLVM's static
 * initialisers touch ~40 MB of its code before main() runs, code no scan runs again, and
 * that resident memory would otherwise count in every process's peak. Returns the bytes
 * released (0 where madvise is refused). */
size_t sunset_release_code_pages(const char *const *names);
/* Give back to the kernel what the allocator holds freed (glibc's malloc_trim; nothing
 * elsewhere): the pages of the holes that later allocations do not fill, in every arena. */
void sunset_heap_trim(void);
/* How many times sunset_release_code_pages ran in this process (the tests see that a phase
 * gives its code back). */
size_t sunset_release_code_count(void);

/* Allocation-hook controls, for tests: fail the nth allocation from now (1 = the next one),
 * 0 disables. sunset_alloc_count() counts live allocations made through the hook. */
void sunset_alloc_fail_after(long n);
long sunset_alloc_live(void);

/* The one error type below cmd/ is sunset_error (sunset.h): a one-line message, "FILE:LINE:COL:
 * text" when a position is known, without the "sunset: " the command layer prints before it.
 * Library code fills it and returns; only cmd/ prints it, with the documented exit code.
 * sunset_error_set formats into err (NULL: nothing); the message is cut at its size. */
void sunset_error_set(sunset_error *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* What must reach the user while a command runs and is no error (a note that a default cut a
 * walk, a progress line): written as given, through the one function the session installs
 * (sunset_set_note; NULL, the default, drops them). Nothing below cmd/ writes to stderr. */
typedef void (*sunset_note_fn)(const char *text);
void sunset_set_note(sunset_note_fn fn);
void sunset_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The clock of every per-file time limit (--parse-budget), in milliseconds: CLOCK_MONOTONIC,
 * or the function a test installed with sunset_set_clock (NULL puts the real clock back).
 * The time limits are the last guard behind deterministic work limits; tests drive them
 * with a fake clock and never read the real one. Install it before a scan, never during. */
typedef double (*sunset_clock_fn)(void);
void sunset_set_clock(sunset_clock_fn fn);
double sunset_clock_ms(void);
/* Is the clock CLOCK_MONOTONIC (no fake installed)? Libraries with a timer of their own
 * (tree-sitter's parse timeout) may use theirs only then. */
bool sunset_clock_is_real(void);

const char *sunset_context_name(sunset_context ctx);
const char *sunset_severity_name(sunset_severity sev);
/* Returns -1 for an unknown name. */
int sunset_severity_from_name(const char *name);

/* Exit codes of every command; documented in the README and the man page. */
enum exit_code {
    EXIT_OK = 0,       /* the command ran (findings or not) */
    EXIT_FINDINGS = 1, /* check: new findings; rules test: a failing example */
    EXIT_USAGE = 2,    /* usage, configuration, rule or I/O error */
};

#endif
