/*
 * util.c — the allocation hook, growable buffers and vectors, whole-file reads, atomic
 * writes, the clock of the time limits and the language table. Everything sunset allocates
 * goes through sunset_malloc so that the test suite can count leaks and fail a chosen
 * allocation.
 */
#include "base/util.h"

#include <errno.h>
#include <link.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <sys/mman.h>
#include <pthread.h>
#include <signal.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static atomic_long fail_countdown;
static atomic_long live_allocs;

void sunset_alloc_fail_after(long n) { atomic_store(&fail_countdown, n); }
long sunset_alloc_live(void) { return atomic_load(&live_allocs); }

static _Atomic(sunset_clock_fn) clock_hook;

void sunset_set_clock(sunset_clock_fn fn) { atomic_store(&clock_hook, fn); }
bool sunset_clock_is_real(void) { return atomic_load(&clock_hook) == NULL; }

double sunset_clock_ms(void) {
    sunset_clock_fn fn = atomic_load(&clock_hook);
    if (fn) return fn();
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static bool alloc_should_fail(void) {
    long c = atomic_load(&fail_countdown);
    while (c > 0) {
        if (atomic_compare_exchange_weak(&fail_countdown, &c, c - 1))
            return c == 1;
    }
    return false;
}

void *sunset_malloc(size_t n) {
    if (alloc_should_fail()) return NULL;
    void *p = malloc(n ? n : 1);
    if (p) atomic_fetch_add(&live_allocs, 1);
    return p;
}

void *sunset_calloc(size_t n, size_t size) {
    if (alloc_should_fail()) return NULL;
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (p) atomic_fetch_add(&live_allocs, 1);
    return p;
}

void *sunset_realloc(void *p, size_t n) {
    if (!p) return sunset_malloc(n);
    if (alloc_should_fail()) return NULL;
    return realloc(p, n ? n : 1);
}

char *sunset_strndup(const char *s, size_t n) {
    char *d = sunset_malloc(n + 1);
    if (!d) return NULL;
    if (n) memcpy(d, s, n); /* s may be NULL when n == 0: memcpy's NULL is undefined even then */
    d[n] = 0;
    return d;
}

void sunset_free(void *p) {
    if (!p) return;
    atomic_fetch_sub(&live_allocs, 1);
    free(p);
}

void sunset_error_set(sunset_error *err, const char *fmt, ...) {
    if (!err) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
}

static _Atomic(sunset_note_fn) note_hook;

void sunset_set_note(sunset_note_fn fn) { atomic_store(&note_hook, fn); }

void sunset_note(const char *fmt, ...) {
    sunset_note_fn fn = atomic_load(&note_hook);
    if (!fn) return;
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    fn(buf);
}

void sb_free(sb *b) {
    sunset_free(b->s);
    b->s = NULL;
    b->len = b->cap = 0;
}

bool sb_grow(sb *b, size_t extra) {
    if (b->oom) return false;
    if (b->len + extra + 1 <= b->cap) return true;
    size_t cap = b->cap ? b->cap : 64;
    while (cap < b->len + extra + 1) cap *= 2;
    char *s = sunset_realloc(b->s, cap);
    if (!s) {
        b->oom = true;
        return false;
    }
    b->s = s;
    b->cap = cap;
    return true;
}

bool sb_putn(sb *b, const char *s, size_t n) {
    if (!sb_grow(b, n)) return false;
    /* an empty payload or slice is often (NULL, 0); memcpy from NULL is undefined even then */
    if (n) memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = 0;
    return true;
}

bool sb_puts(sb *b, const char *s) { return sb_putn(b, s, strlen(s)); }
bool sb_putc(sb *b, char c) { return sb_putn(b, &c, 1); }

/* Formatted straight into the room the buffer has when it fits (one vsnprintf, not a measuring
 * one first: most appends are short); else measured, grown and formatted again. */
bool sb_printf(sb *b, const char *fmt, ...) {
    if (b->oom) return false;
    va_list ap;
    size_t room = b->cap - b->len; /* with the terminating NUL; 0 before the first append */
    va_start(ap, fmt);
    int n = vsnprintf(room ? b->s + b->len : NULL, room, fmt, ap);
    va_end(ap);
    if (n >= 0 && (size_t)n < room) {
        b->len += (size_t)n;
        return true;
    }
    if (room) b->s[b->len] = 0; /* the cut-off attempt is not part of it */
    if (n < 0 || !sb_grow(b, (size_t)n)) return false;
    va_start(ap, fmt);
    vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
    return true;
}

/* Length of the valid UTF-8 sequence at s (1-4), or 0 if invalid. */
static size_t utf8_len(const unsigned char *s, size_t n) {
    if (s[0] < 0x80) return 1;
    size_t len;
    unsigned min;
    if ((s[0] & 0xE0) == 0xC0) len = 2, min = 0x80;
    else if ((s[0] & 0xF0) == 0xE0) len = 3, min = 0x800;
    else if ((s[0] & 0xF8) == 0xF0) len = 4, min = 0x10000;
    else return 0;
    if (len > n) return 0;
    unsigned cp = s[0] & (0x7F >> len);
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xC0) != 0x80) return 0;
        cp = (cp << 6) | (s[i] & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
    return len;
}

static unsigned utf8_cp(const unsigned char *s, size_t len) {
    unsigned cp = s[0] & (len == 1 ? 0x7F : 0x7F >> len);
    for (size_t i = 1; i < len; i++) cp = (cp << 6) | (s[i] & 0x3F);
    return cp;
}

/* Terminal columns of one code point: 0 for combining marks and zero-width characters, 2
 * for the East Asian wide and fullwidth blocks (CJK, Hangul, fullwidth forms, emoji), else 1.
 * The blocks of wcwidth() that Paddle's comments meet; no locale needed. */
static unsigned cp_width(unsigned c) {
    if ((c >= 0x300 && c <= 0x36F) || (c >= 0x200B && c <= 0x200F) || (c >= 0xFE00 && c <= 0xFE0F)) return 0;
    if ((c >= 0x1100 && c <= 0x115F) || (c >= 0x2E80 && c <= 0xA4CF && c != 0x303F) ||
        (c >= 0xAC00 && c <= 0xD7A3) || (c >= 0xF900 && c <= 0xFAFF) || (c >= 0xFE30 && c <= 0xFE4F) ||
        (c >= 0xFF00 && c <= 0xFF60) || (c >= 0xFFE0 && c <= 0xFFE6) || (c >= 0x1F300 && c <= 0x1F64F) ||
        (c >= 0x1F900 && c <= 0x1F9FF) || (c >= 0x20000 && c <= 0x3FFFD))
        return 2;
    return 1;
}

size_t utf8_columns(const char *s, size_t n, bool utf16) {
    const unsigned char *u = (const unsigned char *)s;
    size_t cols = 0;
    for (size_t i = 0; i < n;) {
        size_t l = utf8_len(u + i, n - i);
        if (!l) { /* not UTF-8: one unit per byte, as the escape would show it */
            cols++;
            i++;
            continue;
        }
        unsigned cp = utf8_cp(u + i, l);
        cols += utf16 ? (cp > 0xFFFF ? 2 : 1) : cp_width(cp);
        i += l;
    }
    return cols;
}

bool sb_put_json_escaped(sb *b, const char *s, size_t n) {
    const unsigned char *u = (const unsigned char *)s;
    size_t i = 0;
    while (i < n) {
        unsigned char c = u[i];
        if (c == '"' || c == '\\') {
            char e[2] = {'\\', (char)c};
            if (!sb_putn(b, e, 2)) return false;
            i++;
        } else if (c < 0x20) {
            const char *e = NULL;
            switch (c) {
            case '\n': e = "\\n"; break;
            case '\t': e = "\\t"; break;
            case '\r': e = "\\r"; break;
            case '\b': e = "\\b"; break;
            case '\f': e = "\\f"; break;
            }
            if (e ? !sb_puts(b, e) : !sb_printf(b, "\\u%04x", c)) return false;
            i++;
        } else if (c < 0x80) {
            size_t j = i;
            while (j < n && u[j] >= 0x20 && u[j] < 0x80 && u[j] != '"' && u[j] != '\\') j++;
            if (!sb_putn(b, s + i, j - i)) return false;
            i = j;
        } else {
            size_t l = utf8_len(u + i, n - i);
            if (l) {
                if (!sb_putn(b, s + i, l)) return false;
                i += l;
            } else {
                if (!sb_puts(b, "\xEF\xBF\xBD")) return false;
                i++;
            }
        }
    }
    return true;
}

bool sb_put_json_str(sb *b, const char *s) {
    sb_putc(b, '"');
    if (s) sb_put_json_escaped(b, s, strlen(s));
    return sb_putc(b, '"');
}

bool sb_put_json_str_or_null(sb *b, const char *s) {
    return s ? sb_put_json_str(b, s) : sb_puts(b, "null");
}

char *sb_take(sb *b) {
    char *s = b->s;
    if (!s) s = sunset_strndup("", 0);
    b->s = NULL;
    b->len = b->cap = 0;
    return s;
}

void *vec_push(vec *a, const void *elem) {
    if (a->n == a->cap) {
        size_t cap = a->cap ? a->cap * 2 : 8;
        void *v = sunset_realloc(a->v, cap * a->elem);
        if (!v) return NULL;
        a->v = v;
        a->cap = cap;
    }
    void *slot = (char *)a->v + a->n * a->elem;
    memcpy(slot, elem, a->elem);
    a->n++;
    return slot;
}

void vec_free(vec *a) {
    sunset_free(a->v);
    a->v = NULL;
    a->n = a->cap = 0;
}

int read_file(const char *path, size_t max_size, char **out, size_t *len) {
    return read_file_flags(path, 0, max_size, out, len);
}

int read_file_flags(const char *path, int oflags, size_t max_size, char **out, size_t *len) {
    /* O_NONBLOCK: opening a FIFO with no writer would otherwise wait forever; the fstat
     * below then refuses it (it has no effect on a regular file's reads) */
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | oflags);
    if (fd < 0) return errno;
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int e = errno;
        close(fd);
        return e;
    }
    if (!S_ISREG(st.st_mode)) {
        close(fd);
        return S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
    }
    if (max_size && (size_t)st.st_size > max_size) {
        close(fd);
        return EFBIG;
    }
    /* The size may change under us (a file being written); read until EOF. */
    size_t cap = (size_t)st.st_size + 1, n = 0;
    char *buf = sunset_malloc(cap);
    if (!buf) {
        close(fd);
        return ENOMEM;
    }
    for (;;) {
        if (n + 1 >= cap) {
            if (max_size && n > max_size) {
                sunset_free(buf);
                close(fd);
                return EFBIG;
            }
            char *nb = sunset_realloc(buf, cap * 2);
            if (!nb) {
                sunset_free(buf);
                close(fd);
                return ENOMEM;
            }
            buf = nb;
            cap *= 2;
        }
        ssize_t r = read(fd, buf + n, cap - 1 - n);
        if (r < 0) {
            if (errno == EINTR) continue;
            int e = errno;
            sunset_free(buf);
            close(fd);
            return e;
        }
        if (r == 0) break;
        n += (size_t)r;
    }
    close(fd);
    buf[n] = 0;
    *out = buf;
    *len = n;
    return 0;
}

int read_file_sb(const char *path, size_t max_size, sb *buf) {
    buf->len = 0;
    buf->oom = false;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return errno;
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int e = errno;
        close(fd);
        return e;
    }
    if (S_ISDIR(st.st_mode) || (max_size && (size_t)st.st_size > max_size)) {
        close(fd);
        return S_ISDIR(st.st_mode) ? EISDIR : EFBIG;
    }
    int err = 0;
    if (!sb_grow(buf, (size_t)st.st_size + 1)) err = ENOMEM;
    while (!err) {
        if (buf->len + 1 >= buf->cap && !sb_grow(buf, buf->cap)) {
            err = ENOMEM;
            break;
        }
        size_t want = buf->cap - 1 - buf->len;
        ssize_t r = read(fd, buf->s + buf->len, want);
        if (r < 0) {
            if (errno == EINTR) continue;
            err = errno;
            break;
        }
        if (r == 0) break;
        buf->len += (size_t)r;
        if (max_size && buf->len > max_size) err = EFBIG; /* grew while we read */
        /* A regular file's read is short only at its end: the buffer has room for a byte more
         * than fstat's size, so a whole file comes in one read, and the read that would
         * return 0 is saved (one system call per file of the tree). Only when the bytes read
         * are exactly that size: a file that grew since the fstat fills the request, and
         * /proc's files (size 0) or sysfs's (4096) may come in parts, so those are read on to
         * the read that returns 0. */
        if (S_ISREG(st.st_mode) && (size_t)r < want && buf->len == (size_t)st.st_size) break;
    }
    close(fd);
    if (buf->s) buf->s[buf->len] = 0;
    return err;
}

/* All of data to fd, across short writes and EINTR. 0, or the errno of the failed write. */
static int write_all(int fd, const char *data, size_t len) {
    for (size_t off = 0; off < len;) {
        ssize_t w = write(fd, data + off, len - off);
        if (w < 0) {
            if (errno == EINTR) continue;
            return errno;
        }
        off += (size_t)w;
    }
    return 0;
}

/* Write to something that is not a regular file (a device, a FIFO): never rename over it. */
static int write_special(const char *path, const char *data, size_t len) {
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0) return errno;
    int err = write_all(fd, data, len);
    if (close(fd) != 0 && !err) err = errno;
    return err;
}

int write_file_atomic(const char *path, const char *data, size_t len) {
    char *tmp = NULL;
    int err = write_file_stage(path, data, len, &tmp);
    if (!err) err = write_file_commit(tmp, path);
    return err;
}

uint64_t hash64(const void *data, size_t n, uint64_t seed) {
    const unsigned char *p = data;
    uint64_t h = 1469598103934665603ULL ^ seed;
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 1099511628211ULL;
    }
    return h;
}

static const char *const ctx_names[SUNSET_CTX_COUNT] = {"code", "comment", "string", "docstring",
                                                               "dead_code"};
const char *sunset_context_name(sunset_context ctx) {
    return (unsigned)ctx < SUNSET_CTX_COUNT ? ctx_names[ctx] : "code";
}

static const char *const sev_names[SUNSET_SEV_COUNT] = {"info", "warning", "error"};
const char *sunset_severity_name(sunset_severity sev) {
    return (unsigned)sev < SUNSET_SEV_COUNT ? sev_names[sev] : "info";
}
int sunset_severity_from_name(const char *name) {
    for (int i = 0; i < SUNSET_SEV_COUNT; i++)
        if (strcmp(sev_names[i], name) == 0) return i;
    return -1;
}

/* ---- text for terminals and CI logs --------------------------------------------------- */

bool sb_put_printable(sb *b, const char *s, size_t n) {
    const unsigned char *u = (const unsigned char *)s;
    size_t i = 0;
    while (i < n) {
        size_t j = i;
        while (j < n && u[j] >= 0x20 && u[j] < 0x7F) j++; /* the common case: a printable run */
        if (j > i && !sb_putn(b, s + i, j - i)) return false;
        if (j == n) break;
        i = j;
        unsigned char c = u[i];
        if (c == '\t') {
            if (!sb_putc(b, '\t')) return false;
            i++;
        } else if (c == '\n' || c == '\r') {
            if (!sb_puts(b, c == '\n' ? "\\n" : "\\r")) return false;
            i++;
        } else if (c < 0x80) { /* other C0 controls (ESC among them) and DEL */
            if (!sb_printf(b, "\\x%02x", c)) return false;
            i++;
        } else {
            size_t l = utf8_len(u + i, n - i);
            if (!l) { /* not UTF-8: the byte, so that the name can still be found */
                if (!sb_printf(b, "\\x%02x", c)) return false;
                i++;
            } else if (l == 2 && c == 0xC2 && u[i + 1] < 0xA0) { /* C1: U+0080..U+009F */
                if (!sb_printf(b, "\\u%04x", (unsigned)u[i + 1])) return false;
                i += 2;
            } else {
                if (!sb_putn(b, s + i, l)) return false;
                i += l;
            }
        }
    }
    return !b->oom;
}

bool sb_put_printable_str(sb *b, const char *s) {
    return s ? sb_put_printable(b, s, strlen(s)) : !b->oom;
}

/* ---- staged writes and their cleanup on SIGINT/SIGTERM ------------------------------------ */

/* Temp files being written, for the signal handler: a slot is claimed (FREE -> BUSY), its path
 * written, then published (READY); the handler unlinks READY slots only. Static storage and
 * lock-free atomics, so the handler needs no allocation and no lock. A write that finds no
 * free slot still works, unprotected. */
enum { TMP_SLOTS = 16, TMP_FREE = 0, TMP_BUSY = 1, TMP_READY = 2 };
static atomic_int tmp_state[TMP_SLOTS];
static char tmp_path[TMP_SLOTS][4096];
static pthread_once_t tmp_handlers_once = PTHREAD_ONCE_INIT;
static atomic_uint tmp_counter;

void sunset_tmp_cleanup(void) {
    for (int i = 0; i < TMP_SLOTS; i++)
        if (atomic_load(&tmp_state[i]) == TMP_READY) unlink(tmp_path[i]); /* async-signal-safe */
}

static void on_fatal_signal(int sig) {
    sunset_tmp_cleanup();
    /* then die of the signal, as without the handler: the parent sees the same status */
    signal(sig, SIG_DFL);
    raise(sig);
}

static void install_handlers(void) {
    static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
        struct sigaction old;
        /* a signal the caller ignores (nohup, a shell's background job) stays ignored */
        if (sigaction(sigs[i], NULL, &old) != 0 || old.sa_handler != SIG_DFL) continue;
        struct sigaction sa = {0};
        sa.sa_handler = on_fatal_signal;
        sigemptyset(&sa.sa_mask);
        sigaction(sigs[i], &sa, NULL);
    }
}

/* Publish tmp for cleanup; returns the slot or -1 when there is none (or it is too long). */
static int tmp_register(const char *tmp) {
    size_t n = strlen(tmp);
    if (n >= sizeof tmp_path[0]) return -1;
    pthread_once(&tmp_handlers_once, install_handlers);
    for (int i = 0; i < TMP_SLOTS; i++) {
        int expect = TMP_FREE;
        if (!atomic_compare_exchange_strong(&tmp_state[i], &expect, TMP_BUSY)) continue;
        memcpy(tmp_path[i], tmp, n + 1);
        atomic_store(&tmp_state[i], TMP_READY);
        return i;
    }
    return -1;
}

static void tmp_unregister(const char *tmp) {
    for (int i = 0; i < TMP_SLOTS; i++)
        if (atomic_load(&tmp_state[i]) == TMP_READY && strcmp(tmp_path[i], tmp) == 0) {
            atomic_store(&tmp_state[i], TMP_FREE);
            return;
        }
}

/* An exclusive new temp next to path: "PATH.tmp.PID.N". open(O_EXCL, 0666) rather than mkstemp
 * (always 0600), so that the process umask applies to a new file as it does to any other. */
static int tmp_create(const char *path, sb *tmp) {
    for (int attempt = 0; attempt < 100; attempt++) {
        tmp->len = 0;
        if (!sb_printf(tmp, "%s.tmp.%ld.%u", path, (long)getpid(), atomic_fetch_add(&tmp_counter, 1)))
            return -ENOMEM;
        int fd = open(tmp->s, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd >= 0 || errno != EEXIST) return fd >= 0 ? fd : -errno;
    }
    return -EEXIST;
}

/* Tests: SUNSET_TEST_SIGNAL_IN_WRITE=N sends this process SIGTERM once its Nth temp file
 * exists, so that a test can interrupt a write at a chosen point without timing. */
static void test_signal_hook(void) {
    static atomic_int staged;
    const char *n = getenv("SUNSET_TEST_SIGNAL_IN_WRITE");
    if (n && atomic_fetch_add(&staged, 1) + 1 == atoi(n)) raise(SIGTERM);
}

int write_file_stage(const char *path, const char *data, size_t len, char **tmp_out) {
    *tmp_out = NULL;
    struct stat st;
    bool exists = stat(path, &st) == 0;
    if (exists && !S_ISREG(st.st_mode)) {
        if (S_ISDIR(st.st_mode)) return EISDIR;
        return write_special(path, data, len); /* /dev/null, /dev/stdout, a pipe */
    }
    sb tmp = {0};
    int fd = tmp_create(path, &tmp);
    if (fd < 0) {
        sb_free(&tmp);
        return -fd;
    }
    int slot = tmp_register(tmp.s);
    test_signal_hook();
    int err = write_all(fd, data, len);
    /* replacing a file keeps its permissions (a 0600 target stays 0600) */
    if (!err && exists && fchmod(fd, st.st_mode & 07777) != 0) err = errno;
    if (!err && fsync(fd) != 0) err = errno;
    if (close(fd) != 0 && !err) err = errno;
    if (err) {
        unlink(tmp.s);
        if (slot >= 0) tmp_unregister(tmp.s);
        sb_free(&tmp);
        return err;
    }
    *tmp_out = sb_take(&tmp);
    return 0;
}

int write_file_commit(char *tmp, const char *path) {
    if (!tmp) return 0; /* written in place */
    int err = rename(tmp, path) != 0 ? errno : 0;
    if (err) unlink(tmp);
    tmp_unregister(tmp);
    sunset_free(tmp);
    return err;
}

void write_file_abort(char *tmp) {
    if (!tmp) return;
    unlink(tmp);
    tmp_unregister(tmp);
    sunset_free(tmp);
}

/* ---- resident code (sunset_release_code_pages) ---- */

typedef struct release_ctx {
    const char *const *names;
    size_t released;
} release_ctx;

static int release_object(struct dl_phdr_info *info, size_t size, void *ud) {
    (void)size;
    release_ctx *r = ud;
    const char *name = info->dlpi_name ? strrchr(info->dlpi_name, '/') : NULL;
    name = name ? name + 1 : info->dlpi_name;
    bool wanted = false;
    for (const char *const *n = r->names; name && *n && !wanted; n++) wanted = strstr(name, *n) != NULL;
    if (!wanted) return 0;
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        /* only code: a writable segment holds relocated data that the file does not */
        if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X) || (ph->p_flags & PF_W)) continue;
        uintptr_t start = (uintptr_t)(info->dlpi_addr + ph->p_vaddr);
        uintptr_t end = start + ph->p_memsz;
        start = (start + page - 1) & ~(uintptr_t)(page - 1); /* whole pages of this segment only */
        end &= ~(uintptr_t)(page - 1);
        if (end > start && madvise((void *)start, end - start, MADV_DONTNEED) == 0)
            r->released += end - start;
    }
    return 0;
}

static atomic_size_t code_releases;

size_t sunset_release_code_pages(const char *const *names) {
    release_ctx r = {names, 0};
    atomic_fetch_add(&code_releases, 1);
    dl_iterate_phdr(release_object, &r);
    return r.released;
}

size_t sunset_release_code_count(void) { return atomic_load(&code_releases); }

void sunset_heap_trim(void) {
#ifdef __GLIBC__
    malloc_trim(0);
#endif
}
