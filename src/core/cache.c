/*
 * cache.c — the content cache. One file per namespace, DIR/<namespace>.cache:
 *
 *   "SUNSETC4" | u64 namespace | then entries until EOF:
 *   u64 key | u64 content length | u64 content digest | u64 namespace | u64 last used (unix
 *   time) | u32 payload length | u32 checksum of the payload (sum32) | u32 kind | u32 0 | payload,
 *   zero-padded to a multiple of 8 bytes
 *
 * Kind 0 is a file's findings, any other a side entry (sunset_cache_get_blob): findings are
 * written first and so evicted last. Every payload starts 8-aligned in the file, so a side
 * entry can be used where it was read (the index's packed files hold 64-bit arrays).
 *
 * A replay needs the key (path and bytes), the length, a second digest of the bytes by another
 * function and the entry's own namespace (rule set, version, configuration) to agree.
 *
 * A payload is one file's result: counter deltas, findings (rule id, span, context, test
 * flag, matched text, snippet, enclosing scope) and warnings. Severity is not stored: it is
 * recomputed from the rule and context at replay, so it follows severity overrides. An entry
 * whose structure is wrong is skipped at load, one whose checksum is wrong when it is first
 * used (entry_verified), and counted as corrupt; a truncated file keeps the entries before the
 * cut, and of two entries with one key the later wins. A save appends this run's entries when
 * that is all that changed (save_append), else rewrites the file whole (temp + rename).
 */
#include "core/cache.h"

#include <errno.h>
#include <fcntl.h>
#include <git2.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/git.h"
#include "core/rules_int.h"

#define MAGIC "SUNSETC6" /* C3: entries carry their content digest and namespace; C4: a kind, aligned payloads;
                            C5: the checksum eight bytes a step; C6: its sums in four lanes */
#define ENTRY_HEAD 56
/* the per-file counters an entry carries: those of kind SUNSET_STAT_CACHE, in report.h's order.
 * Adding one changes the binary, and the namespace covers the binary (cmd/session.c), so an older
 * cache file is never misread. */
#define CACHE_COUNT(field, kind, group, key) +((kind) == SUNSET_STAT_CACHE)
#define N_COUNTERS (0 SUNSET_STATS_COUNTERS(CACHE_COUNT))

typedef struct centry {
    uint64_t key, len, digest, ns, last_used;
    bool used;          /* hit or stored during this run */
    bool borrowed;      /* payload is not the cache's to free: a part of the cache's file as
                           loaded (file_text), or a live side entry's memory */
    uint32_t kind;      /* 0 findings, else a side entry's tag */
    sunset_blob_export export_fn; /* a live side entry (payload rebased by its user): writes it
                                     back as bytes; NULL = payload is the bytes */
    bool fresh;         /* stored during this run: not in the file yet */
    bool verified;      /* the payload agrees with sum (checked when first used, not at load) */
    uint32_t sum;       /* a loaded entry's checksum, as the file holds it */
    uint32_t size;
    unsigned char *payload;
} centry;

struct sunset_cache {
    char *path;
    uint64_t ns;
    const sunset_ruleset *rs;
    size_t max_bytes;
    pthread_mutex_t mu;
    centry *ents;       /* the entries, in the order they came (keys are never 0) */
    size_t n, ents_cap;
    struct cslot *slots; /* open addressing on key: 1 + an entry's position, 0 = empty; a
                           table of 80-byte entries twice their number (21 MB zeroed for a
                           Paddle tree's cache) was most of opening it */
    size_t cap;
    sunset_cache_stats st;
    uint64_t now;
    char *file_text;    /* the cache file as loaded: the loaded entries' payloads, uncopied */
    bool mapped;        /* file_text is a private mapping of the file (load_file), not a copy */
    size_t file_len;    /* its length */
    bool changed;       /* an entry stored, dropped or found corrupt: save writes the file */
    bool rewrite;       /* save rewrites the file whole (else it may append the fresh entries):
                           an entry dropped or found corrupt, last-use times to write */
};

static void drop_payload(centry *e) {
    if (!e->borrowed) sunset_free(e->payload);
    e->payload = NULL;
    e->borrowed = false;
}

/* ---- keys ---- */

static inline uint64_t mix(uint64_t h) {
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ULL;
    h ^= h >> 33;
    return h;
}

/* Eight bytes a step: fast enough that hashing costs less than the prefilter it replaces. */
uint64_t sunset_cache_key(const char *path, const char *data, size_t len) {
    uint64_t h = hash64(path, strlen(path), 0x9e3779b97f4a7c15ULL) ^ (len * 0x100000001b3ULL);
    size_t i = 0;
    for (; i + 8 <= len; i += 8) {
        uint64_t v;
        memcpy(&v, data + i, 8);
        h = (h ^ v) * 0x9e3779b97f4a7c15ULL;
        h = (h << 31) | (h >> 33);
    }
    uint64_t tail = 0;
    if (len > i) memcpy(&tail, data + i, len - i); /* an empty file's data may be NULL */
    h = mix(h ^ tail ^ len);
    return h ? h : 1;
}

/* Another function of the bytes than the key's (other constants, another mix per word): an
 * entry replays only when both agree with the file. */
uint64_t sunset_cache_digest(const char *data, size_t len) {
    uint64_t h = 0x2545f4914f6cdd1dULL ^ len;
    size_t i = 0;
    for (; i + 8 <= len; i += 8) {
        uint64_t v;
        memcpy(&v, data + i, 8);
        h = (h + v) * 0xc2b2ae3d27d4eb4fULL;
        h ^= h >> 29;
    }
    uint64_t tail = 0;
    if (len > i) memcpy(&tail, data + i, len - i);
    return mix(h ^ (tail * 0x165667b19e3779f9ULL));
}

/* ---- the table ---- */

/* A slot: the entry's position and its key's high half, which a probe compares before it
 * reads the entry (a lookup's other cache miss: the table lookups of a warm run's 14,000
 * files were a tenth of its CPU, perf). */
typedef struct cslot {
    uint32_t at;  /* 1 + the entry's position; 0 = empty */
    uint32_t khi; /* key >> 32 */
} cslot;

/* The slot holding key, or the empty one where it goes (the caller filling it sets both
 * fields). c->cap > 0. */
static cslot *slot_of(sunset_cache *c, uint64_t key) {
    size_t h = (size_t)mix(key) & (c->cap - 1);
    uint32_t khi = (uint32_t)(key >> 32);
    while (c->slots[h].at && (c->slots[h].khi != khi || c->ents[c->slots[h].at - 1].key != key))
        h = (h + 1) & (c->cap - 1);
    return &c->slots[h];
}

/* The entry of key, or NULL. */
static centry *find_entry(sunset_cache *c, uint64_t key) {
    if (!c->cap) return NULL;
    uint32_t at = slot_of(c, key)->at;
    return at ? &c->ents[at - 1] : NULL;
}

/* Room for `want` more entries (the table at most half full): at least doubled. */
static bool reserve(sunset_cache *c, size_t want) {
    if (c->n + want > UINT32_MAX / 2) return false;
    if (c->n + want > c->ents_cap) {
        size_t ec = c->ents_cap ? c->ents_cap * 2 : 2048;
        while (ec < c->n + want) ec *= 2;
        centry *ents = sunset_realloc(c->ents, ec * sizeof *ents);
        if (!ents) return false;
        c->ents = ents;
        c->ents_cap = ec;
    }
    if ((c->n + want) * 2 <= c->cap) return true;
    size_t cap = c->cap ? c->cap * 2 : 4096;
    while ((c->n + want) * 2 > cap) cap *= 2;
    cslot *s = sunset_calloc(cap, sizeof *s);
    if (!s) return false;
    sunset_free(c->slots);
    c->slots = s;
    c->cap = cap;
    for (size_t i = 0; i < c->n; i++)
        *slot_of(c, c->ents[i].key) = (cslot){(uint32_t)i + 1, (uint32_t)(c->ents[i].key >> 32)};
    return true;
}

static bool grow(sunset_cache *c) { return reserve(c, 1); }

/* How many entries the bytes after the file's header hold, by their lengths alone: the table
 * is made that big once (rehashing it on the way up was a tenth of opening a tree's cache). */
static size_t count_entries(const unsigned char *p, const unsigned char *end) {
    size_t n = 0;
    while ((size_t)(end - p) >= ENTRY_HEAD) {
        uint32_t size;
        memcpy(&size, p + 40, 4);
        size_t padded = ((size_t)size + 7) & ~(size_t)7;
        if ((size_t)(end - p - ENTRY_HEAD) < padded) break;
        p += ENTRY_HEAD + padded;
        n++;
    }
    return n;
}

/* Takes ownership of payload, unless borrowed (a part of c->file_text). */
static void put_entry(sunset_cache *c, const centry *head, bool used, unsigned char *payload, uint32_t size,
                      bool borrowed) {
    if (!grow(c)) {
        if (!borrowed) sunset_free(payload);
        return;
    }
    cslot *slot = slot_of(c, head->key);
    centry *e;
    if (slot->at) {
        e = &c->ents[slot->at - 1];
        drop_payload(e);
    } else {
        e = &c->ents[c->n++];
        *slot = (cslot){(uint32_t)c->n, (uint32_t)(head->key >> 32)};
    }
    *e = *head;
    e->used = used;
    e->fresh = e->verified = used; /* stored now, or loaded (checked when first used) */
    e->borrowed = borrowed;
    e->size = size;
    e->payload = payload;
}

/* ---- payload encoding ---- */

typedef struct rd {
    const unsigned char *p, *end;
    bool bad;
} rd;

static uint32_t get32(rd *r) {
    if (r->end - r->p < 4) {
        r->bad = true;
        return 0;
    }
    uint32_t v;
    memcpy(&v, r->p, 4);
    r->p += 4;
    return v;
}

static uint64_t get64(rd *r) {
    if (r->end - r->p < 8) {
        r->bad = true;
        return 0;
    }
    uint64_t v;
    memcpy(&v, r->p, 8);
    r->p += 8;
    return v;
}

/* A string: length and bytes; returned NUL-terminated in an owned copy. */
static char *getstr(rd *r) {
    uint32_t n = get32(r);
    if (r->bad || (size_t)(r->end - r->p) < n) {
        r->bad = true;
        return NULL;
    }
    char *s = sunset_strndup((const char *)r->p, n);
    r->p += n;
    if (!s) r->bad = true;
    return s;
}

static void put32(sb *b, uint32_t v) { sb_putn(b, (const char *)&v, 4); }
static void put64(sb *b, uint64_t v) { sb_putn(b, (const char *)&v, 8); }
static void putstr(sb *b, const char *s) {
    size_t n = s ? strlen(s) : 0;
    put32(b, (uint32_t)n);
    if (n) sb_putn(b, s, n);
}

static size_t *counter(sunset_stats *s, int i) {
#define CACHE_FIELD(field, kind, group, key) if ((kind) == SUNSET_STAT_CACHE && i-- == 0) return &s->field;
    SUNSET_STATS_COUNTERS(CACHE_FIELD)
#undef CACHE_FIELD
    return NULL; /* not reached: i < N_COUNTERS */
}

/* A payload's checksum: two running sums of 64-bit words in four lanes (Fletcher's form:
 * every word counts, and by its position; additions the compiler vectorizes, where a multiply
 * chain per word was a twentieth of a warm run's CPU), folded to 32 bits. */
static uint32_t sum32(const unsigned char *p, size_t n) {
    uint64_t a[4] = {n, 1, 2, 3}, b[4] = {0, 0, 0, 0};
    size_t i = 0;
    for (; i + 32 <= n; i += 32) {
        uint64_t v[4];
        memcpy(v, p + i, 32);
        for (int k = 0; k < 4; k++) {
            a[k] += v[k];
            b[k] += a[k];
        }
    }
    uint64_t tail[4] = {0, 0, 0, 0};
    if (n > i) memcpy(tail, p + i, n - i);
    for (int k = 0; k < 4; k++) {
        a[k] += tail[k];
        b[k] += a[k];
    }
    uint64_t x = mix(a[0] ^ mix(b[0] + 0x9e3779b97f4a7c15ULL)) ^ mix(a[1] + mix(b[1] + 1)) ^
                 mix(a[2] + mix(b[2] + 2)) ^ mix(a[3] + mix(b[3] + 3));
    return (uint32_t)(x ^ (x >> 32));
}

/* Is a loaded entry's payload what its checksum says? Checked once, when the entry is first
 * used: a warm run uses a fraction of a tree's entries, and checking all at load was most of
 * opening the cache. A bad one is dropped, and the file rewritten. Under c->mu. */
static bool entry_verified(sunset_cache *c, centry *e) {
    if (e->verified) return true;
    if (e->payload && sum32(e->payload, e->size) == e->sum) return e->verified = true;
    c->st.corrupt++;
    drop_payload(e);
    e->size = 0;
    e->len = (uint64_t)-1; /* never matches; overwritten by the next store */
    c->changed = c->rewrite = true;
    return false;
}

/* ---- where a cache may live ---- */

/* dir made absolute with its symlinks resolved, as far as it exists (the rest lexical) into
 * out; *link_in gets the first directory, inside `top` (when given), that holds a symlink on
 * the way. False when the path cannot be resolved. */
static bool resolve_dir(const char *dir, const char *top, char *out, size_t n, bool *link_in) {
    char cur[PATH_MAX] = "", cwd[PATH_MAX];
    sb abs = {0};
    if (dir[0] != '/' && !getcwd(cwd, sizeof cwd)) return false;
    sb_printf(&abs, "%s%s%s", dir[0] == '/' ? "" : cwd, dir[0] == '/' ? "" : "/", dir);
    bool ok = !abs.oom, exists = true;
    size_t tl = top ? strlen(top) : 0;
    *link_in = false;
    for (char *c = abs.s, *e; ok && c && *c; c = e) {
        while (*c == '/') c++;
        e = strchr(c, '/');
        size_t cl = e ? (size_t)(e - c) : strlen(c);
        if (!cl || (cl == 1 && *c == '.')) continue;
        char next[PATH_MAX];
        if (snprintf(next, sizeof next, "%s/%.*s", cur, (int)cl, c) >= (int)sizeof next) ok = false;
        struct stat st;
        if (ok && cl == 2 && c[0] == '.' && c[1] == '.') {
            char *sl = strrchr(cur, '/');
            if (sl) *sl = 0;
        } else if (ok && exists && lstat(next, &st) == 0 && S_ISLNK(st.st_mode)) {
            /* a dangling link too: what sunset would create would land at its target */
            if (top && strncmp(cur, top, tl) == 0 && (cur[tl] == 0 || cur[tl] == '/')) *link_in = true;
            if (!realpath(next, cur)) {
                memcpy(cur, next, strlen(next) + 1);
                exists = false;
            }
        } else if (ok) {
            exists = exists && lstat(next, &st) == 0;
            memcpy(cur, next, strlen(next) + 1);
        }
    }
    sb_free(&abs);
    if (ok) snprintf(out, n, "%s", *cur ? cur : "/");
    return ok;
}

bool sunset_cache_dir_refused_in(const char *dir, git_repository *given, char *why, size_t n) {
    char real[PATH_MAX], probe[PATH_MAX], top[PATH_MAX];
    bool link_in;
    /* the work tree around it, from its deepest existing directory that is no link (a link's
     * target may be in no work tree: the link is what must be found) */
    snprintf(probe, sizeof probe, "%s", dir);
    char *up = strstr(probe, "/..");
    if (up) *up = 0; /* a ".." after a link climbs from its target: start below it */
    struct stat st;
    while ((lstat(probe, &st) != 0 || !S_ISDIR(st.st_mode)) && strrchr(probe, '/') && strrchr(probe, '/') != probe)
        *strrchr(probe, '/') = 0;
    if (lstat(probe, &st) != 0 || !S_ISDIR(st.st_mode)) snprintf(probe, sizeof probe, "%s", dir[0] == '/' ? "/" : ".");
    sunset_git_init();
    git_repository *repo = given;
    git_index *idx = NULL;
    bool refused = false;
    if ((!repo && sunset_git_open(&repo, probe, 0)) || git_repository_is_bare(repo) ||
        !git_repository_workdir(repo) || !realpath(git_repository_workdir(repo), top))
        goto done;
    size_t tl = strlen(top);
    if (!resolve_dir(dir, top, real, sizeof real, &link_in)) goto done;
    if (link_in) {
        snprintf(why, n, "a symbolic link on its path lies in the work tree %s", top);
        refused = true;
        goto done;
    }
    if (strncmp(real, top, tl) != 0 || (real[tl] && real[tl] != '/') || git_repository_index(&idx, repo)) goto done;
    const char *rel = real + tl + (real[tl] == '/');
    size_t rl = strlen(rel);
    for (size_t i = 0, ne = git_index_entrycount(idx); i < ne && !refused; i++) {
        const git_index_entry *e = git_index_get_byindex(idx, i);
        refused = e && (!rl || (strncmp(e->path, rel, rl) == 0 && (e->path[rl] == '/' || e->path[rl] == 0)));
    }
    if (refused) snprintf(why, n, "git tracks it (a commit could plant its entries)");
done:
    git_index_free(idx);
    if (repo != given) git_repository_free(repo);
    return refused;
}

/* ---- load / save ---- */

/* The cache file's bytes: a read-only mapping, populated at once (the entries' payloads are
 * used where they lie, and nothing writes them: the index adopts its entries as bytes and
 * copies them when it needs them rebased; page by page, the faults of a Paddle tree's 40 MB
 * were a tenth of a warm run), else a copy read. The file is never truncated in place (a
 * save appends, or replaces it by a rename), so the mapping stays whole. */
static bool load_file(sunset_cache *c, char **text, size_t *len) {
    int fd = open(c->path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size >= 16 && st.st_size <= (1 << 30)) {
        void *m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
        if (m != MAP_FAILED) {
            close(fd);
            *text = m;
            *len = (size_t)st.st_size;
            return c->mapped = true;
        }
    }
    if (fd >= 0) close(fd);
    return read_file(c->path, 1u << 30, text, len) == 0;
}

sunset_cache *sunset_cache_open(const char *dir, uint64_t ns, const sunset_ruleset *rs, size_t max_bytes) {
    sunset_cache *c = sunset_calloc(1, sizeof *c);
    if (!c) return NULL;
    sb p = {0};
    sb_printf(&p, "%s/%016llx.cache", dir, (unsigned long long)ns);
    if (p.oom) {
        sunset_free(c);
        return NULL;
    }
    c->path = sb_take(&p);
    c->ns = ns;
    c->rs = rs;
    c->max_bytes = max_bytes ? max_bytes : (64u << 20);
    c->now = (uint64_t)time(NULL);
    /* adaptive: every file of a warm run takes the lock a few times for a few hundred
     * nanoseconds, and sleeping on it (a futex call to wait, another to wake) cost more than
     * the work it guards */
    pthread_mutexattr_t ma;
    pthread_mutexattr_init(&ma);
    pthread_mutexattr_settype(&ma, PTHREAD_MUTEX_ADAPTIVE_NP);
    pthread_mutex_init(&c->mu, &ma);
    pthread_mutexattr_destroy(&ma);
    char *text = NULL;
    size_t len = 0;
    if (!load_file(c, &text, &len)) return c; /* no cache yet */
    rd r = {(const unsigned char *)text, (const unsigned char *)text + len, false};
    if (len < 16 || memcmp(text, MAGIC, 8) != 0) {
        c->st.corrupt++;
    } else {
        r.p += 8;
        if (get64(&r) != ns) c->st.corrupt++;
        else if (reserve(c, count_entries(r.p, r.end) + 1))
            while (r.p < r.end) {
                centry h = {0};
                h.key = get64(&r);
                h.len = get64(&r);
                h.digest = get64(&r);
                h.ns = get64(&r);
                h.last_used = get64(&r);
                uint32_t size = get32(&r), sum = get32(&r);
                h.kind = get32(&r);
                (void)get32(&r);
                size_t padded = ((size_t)size + 7) & ~(size_t)7;
                if (r.bad || (size_t)(r.end - r.p) < padded) { /* truncated: keep what came before */
                    c->st.corrupt++;
                    break;
                }
                if (!h.key || h.ns != ns) {
                    c->st.corrupt++;
                    r.p += padded;
                    continue;
                }
                /* the payload stays where it was read: no copy of a cache that holds the
                 * index's entries of every file (tens of MB) */
                h.sum = sum; /* checked when first used (entry_verified) */
                put_entry(c, &h, false, (unsigned char *)r.p, size, true);
                c->st.loaded++;
                r.p += padded;
            }
    }
    c->file_text = text;
    c->file_len = len;
    if (c->mapped && c->st.loaded == 0) { /* nothing in it is used: give the mapping back now */
        munmap(text, len);
        c->file_text = NULL;
        c->mapped = false;
    }
    c->changed = c->rewrite = c->st.corrupt > 0;
    return c;
}

static int cmp_recent(const void *x, const void *y) {
    const centry *a = *(const centry *const *)x, *b = *(const centry *const *)y;
    if (a->used != b->used) return a->used ? -1 : 1;
    if (!a->kind != !b->kind) return a->kind ? 1 : -1; /* findings before side entries */
    if (a->last_used != b->last_used) return a->last_used > b->last_used ? -1 : 1;
    return a->key < b->key ? -1 : a->key > b->key;
}

/* One entry in the file's form appended to out: the header's room, then the payload (a live
 * side entry is written back as bytes in place), and the checksum of what the file holds. A
 * loaded entry never used is checked on the way (its bytes against the checksum it came
 * with): a damaged one is left out rather than written with a new, agreeing checksum. */
static bool write_entry(sunset_cache *c, sb *out, const centry *e) {
    static const char zeros[ENTRY_HEAD];
    size_t start = out->len, at = out->len + ENTRY_HEAD;
    sb_putn(out, zeros, ENTRY_HEAD);
    sb_putn(out, (const char *)e->payload, e->size);
    sb_putn(out, zeros, (8 - e->size % 8) % 8);
    if (out->oom) return false;
    if (e->export_fn) e->export_fn(out->s + at, e->payload, e->size);
    uint32_t sum = sum32((const unsigned char *)out->s + at, e->size);
    if (!e->verified && !e->export_fn && sum != e->sum) {
        c->st.corrupt++;
        out->len = start;
        return true;
    }
    uint64_t h64[5] = {e->key, e->len, e->digest, e->ns, e->used ? c->now : e->last_used};
    uint32_t h32[4] = {e->size, sum, e->kind, 0};
    memcpy(out->s + at - ENTRY_HEAD, h64, sizeof h64);
    memcpy(out->s + at - sizeof h32, h32, sizeof h32);
    return true;
}

/* The fresh entries appended to the file as loaded, in one write: a run after a one-file
 * edit stores a few entries, and rewriting tens of MB for them was a tenth of its CPU. Only
 * when nothing else changed, the file is still the length it was loaded at (no other run
 * wrote it since) and it stays within max_bytes; else false, and the file is rewritten. */
static bool save_append(sunset_cache *c) {
    if (c->rewrite || !c->file_text) return false;
    sb out = {0};
    for (size_t i = 0; i < c->n; i++)
        if (c->ents[i].fresh && !write_entry(c, &out, &c->ents[i])) break;
    bool ok = false;
    int fd = out.oom || c->file_len + out.len > c->max_bytes ? -1 : open(c->path, O_WRONLY | O_APPEND | O_NOFOLLOW | O_CLOEXEC);
    struct stat st;
    if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (size_t)st.st_size == c->file_len) {
        ok = out.len == 0 || write(fd, out.s, out.len) == (ssize_t)out.len;
        /* a short write leaves a truncated last entry, which a load skips (and rewrites) */
    }
    if (fd >= 0) close(fd);
    sb_free(&out);
    return ok;
}

int sunset_cache_save(sunset_cache *c) {
    if (!c) return 0;
    /* a run that replayed every file leaves the file as it was (but for the entries' last-use
     * times, which only order the eviction): rewriting tens of MB would cost more than the
     * replay */
    if (!c->changed) return 0;
    if (save_append(c)) return 0;
    centry **order = sunset_calloc(c->n ? c->n : 1, sizeof *order);
    if (!order) return ENOMEM;
    size_t k = 0;
    for (size_t i = 0; i < c->n; i++) order[k++] = &c->ents[i];
    if (k) qsort(order, k, sizeof *order, cmp_recent);
    sb out = {0};
    sb_putn(&out, MAGIC, 8);
    put64(&out, c->ns);
    size_t kept = 0;
    for (size_t i = 0; i < k; i++) {
        centry *e = order[i];
        if (out.len + ENTRY_HEAD + e->size > c->max_bytes && !(e->used && kept == 0)) {
            c->st.evicted += k - i;
            break;
        }
        if (!write_entry(c, &out, e)) break;
        kept++;
    }
    sunset_free(order);
    if (out.oom) {
        sb_free(&out);
        return ENOMEM;
    }
    /* the directory: create it and its parents ($XDG_CACHE_HOME may not exist yet), then
     * mark it as a cache: CACHEDIR.TAG for backup tools, a .gitignore of "*" so that
     * `git add -A` never commits it (as ruff and pytest do) */
    char *dir = sunset_strndup(c->path, strlen(c->path));
    char *slash = dir ? strrchr(dir, '/') : NULL;
    int mkdir_err = 0;
    if (slash && slash != dir) {
        *slash = 0;
        for (char *q = dir + 1; *q; q++) {
            if (*q != '/') continue;
            *q = 0;
            mkdir(dir, 0755); /* a parent that exists or cannot be made: the last mkdir says */
            *q = '/';
        }
        if (mkdir(dir, 0755) != 0 && errno != EEXIST) mkdir_err = errno;
        static const char *const marks[][2] = {
            {"CACHEDIR.TAG", SUNSET_CACHEDIR_SIGNATURE "\n# This file is a cache directory tag created by sunset.\n"
                             "# For information about cache directory tags see https://bford.info/cachedir/\n"},
            {".gitignore", "# Automatically created by sunset.\n*\n"},
        };
        for (size_t i = 0; !mkdir_err && i < 2; i++) {
            sb m = {0};
            struct stat st;
            sb_printf(&m, "%s/%s", dir, marks[i][0]);
            if (!m.oom && lstat(m.s, &st) != 0) write_file_atomic(m.s, marks[i][1], strlen(marks[i][1]));
            sb_free(&m);
        }
    }
    sunset_free(dir);
    int err = write_file_atomic(c->path, out.s, out.len);
    /* a directory that could not be made fails the write with ENOENT ("No such file or
     * directory"); the reason mkdir gave (EPERM, EROFS, EACCES ...) is the real one */
    if (err && mkdir_err) err = mkdir_err;
    sb_free(&out);
    return err;
}

void sunset_cache_free(sunset_cache *c) {
    if (!c) return;
    for (size_t i = 0; i < c->n; i++) drop_payload(&c->ents[i]);
    sunset_free(c->ents);
    if (c->mapped) munmap(c->file_text, c->file_len);
    else sunset_free(c->file_text);
    sunset_free(c->slots);
    sunset_free(c->path);
    pthread_mutex_destroy(&c->mu);
    sunset_free(c);
}

sunset_cache_stats sunset_cache_get_stats(const sunset_cache *c) {
    sunset_cache_stats s = {0};
    if (c) s = c->st;
    return s;
}

/* ---- replay / store ---- */

/* A run that only replays does not rewrite the cache, so the last-use times it would write
 * wait; once one is a day old the run saves, so the eviction order stays within a day of
 * the truth. Under c->mu. */
static void note_use(sunset_cache *c, const centry *e) {
    if (c->now > e->last_used + 86400) c->changed = c->rewrite = true;
}

bool sunset_cache_replay(sunset_cache *c, uint64_t key, size_t len, uint64_t digest, const char *path,
                         sunset_result *res) {
    pthread_mutex_lock(&c->mu);
    centry *e = find_entry(c, key);
    if (!e || !e->key || e->len != len || e->digest != digest || e->ns != c->ns || !entry_verified(c, e)) {
        c->st.misses++;
        pthread_mutex_unlock(&c->mu);
        return false;
    }
    e->used = true;
    /* decode under the lock: the payload may be replaced by a concurrent store */
    rd r = {e->payload, e->payload + e->size, false};
    size_t f0 = res->n_findings, w0 = res->n_warnings;
    sunset_stats delta = {0};
    for (int i = 0; i < N_COUNTERS; i++) *counter(&delta, i) = get32(&r);
    uint32_t nf = get32(&r), nw = get32(&r);
    for (uint32_t i = 0; i < nf && !r.bad; i++) {
        sunset_finding f = {0};
        char *id = getstr(&r);
        const sunset_rule *rule = id ? sunset_ruleset_find(c->rs, id) : NULL;
        sunset_free(id);
        f.span.line = get32(&r);
        f.span.col = get32(&r);
        f.span.end_line = get32(&r);
        f.span.end_col = get32(&r);
        f.stmt.line = get32(&r);
        f.stmt.col = get32(&r);
        f.stmt.end_line = get32(&r);
        f.stmt.end_col = get32(&r);
        uint32_t flags = get32(&r);
        f.matched = getstr(&r);
        f.snippet = getstr(&r);
        char *ek = getstr(&r), *en = getstr(&r);
        f.enc_start = get32(&r);
        f.enc_end = get32(&r);
        f.ctx = (sunset_context)(flags & 0xff);
        f.test = (flags >> 8) & 1;
        f.code_string = (flags >> 9) & 1;
        if (ek && *ek) {
            f.enc_kind = ek;
            f.enc_name = en;
        }
        f.path = (char *)path;
        if (r.bad || !rule || (unsigned)f.ctx >= SUNSET_CTX_COUNT || !f.matched) {
            r.bad = true;
        } else {
            f.rule_id = rule->id;
            f.family = rule->family;
            f.message = rule->message;
            f.fix = rule->fix;
            f.task = rule->task;
            f.severity = rule_severity(rule, f.ctx);
            if (!sunset_result_add(res, &f)) r.bad = true;
        }
        sunset_free(f.matched);
        sunset_free(f.snippet);
        sunset_free(ek);
        sunset_free(en);
    }
    for (uint32_t i = 0; i < nw && !r.bad; i++) {
        char *w = getstr(&r);
        /* replayed warnings are counted by the replayed counters, not again here */
        if (!w || sunset_result_add_warning(res, w)) r.bad = true;
        else res->stats.warnings--;
        sunset_free(w);
    }
    if (r.bad) {
        /* a rule that no longer exists or a damaged entry: undo, drop it, scan the file */
        sunset_result_truncate(res, f0);
        while (res->n_warnings > w0) sunset_free(res->warnings[--res->n_warnings]);
        c->st.corrupt++;
        c->st.misses++;
        drop_payload(e);
        e->size = 0;
        c->changed = c->rewrite = true;
        e->len = (uint64_t)-1; /* never matches; overwritten by the next store */
        pthread_mutex_unlock(&c->mu);
        return false;
    }
    for (int i = 0; i < N_COUNTERS; i++) *counter(&res->stats, i) += *counter(&delta, i);
    c->st.hits++;
    note_use(c, e);
    pthread_mutex_unlock(&c->mu);
    return true;
}

void sunset_cache_store(sunset_cache *c, uint64_t key, size_t len, uint64_t digest, const sunset_result *res,
                        size_t first_finding, size_t first_warning, const sunset_stats *before) {
    sb b = {0};
    sunset_stats after = res->stats;
    for (int i = 0; i < N_COUNTERS; i++)
        put32(&b, (uint32_t)(*counter(&after, i) - *counter((sunset_stats *)before, i)));
    put32(&b, (uint32_t)(res->n_findings - first_finding));
    put32(&b, (uint32_t)(res->n_warnings - first_warning));
    for (size_t i = first_finding; i < res->n_findings; i++) {
        const sunset_finding *f = &res->findings[i];
        putstr(&b, f->rule_id);
        put32(&b, f->span.line);
        put32(&b, f->span.col);
        put32(&b, f->span.end_line);
        put32(&b, f->span.end_col);
        put32(&b, f->stmt.line);
        put32(&b, f->stmt.col);
        put32(&b, f->stmt.end_line);
        put32(&b, f->stmt.end_col);
        put32(&b, (uint32_t)f->ctx | (f->test ? 1u << 8 : 0) | (f->code_string ? 1u << 9 : 0));
        putstr(&b, f->matched);
        putstr(&b, f->snippet);
        putstr(&b, f->enc_kind);
        putstr(&b, f->enc_name);
        put32(&b, f->enc_start);
        put32(&b, f->enc_end);
    }
    for (size_t i = first_warning; i < res->n_warnings; i++) putstr(&b, res->warnings[i]);
    if (b.oom || b.len > UINT32_MAX) {
        sb_free(&b);
        return;
    }
    uint32_t size = (uint32_t)b.len;
    unsigned char *payload = (unsigned char *)sb_take(&b);
    if (!payload) return;
    pthread_mutex_lock(&c->mu);
    centry h = {.key = key, .len = len, .digest = digest, .ns = c->ns, .last_used = c->now};
    put_entry(c, &h, true, payload, size, false);
    c->st.stored++;
    c->changed = true;
    pthread_mutex_unlock(&c->mu);
}

/* ---- side entries ---- */

/* A side entry's key: the content's key moved by the tag, so it never meets a findings entry
 * of the same content (a collision of 64-bit keys aside, and the length and digest checks
 * stand behind that). */
static uint64_t blob_key(uint32_t tag, uint64_t key) {
    uint64_t h = mix(key ^ ((uint64_t)tag * 0x9e3779b97f4a7c15ULL + 0x632be59bd9b4e019ULL));
    return h ? h : 1;
}

void sunset_cache_prefetch(sunset_cache *c, const uint32_t *tags, const uint64_t *keys, size_t n) {
    enum { MAX = 8 };
    size_t home[MAX];
    const centry *e[MAX];
    n = n < MAX ? n : MAX;
    pthread_mutex_lock(&c->mu);
    for (size_t i = 0; c->cap && i < n; i++) { /* the keys' home slots, all in flight at once */
        home[i] = (size_t)mix(tags[i] ? blob_key(tags[i], keys[i]) : keys[i]) & (c->cap - 1);
        __builtin_prefetch(&c->slots[home[i]]);
    }
    for (size_t i = 0; c->cap && i < n; i++) { /* then their entries (an entry spans two lines) */
        uint32_t at = c->slots[home[i]].at;
        e[i] = at ? &c->ents[at - 1] : NULL;
        if (e[i]) {
            __builtin_prefetch(e[i]);
            __builtin_prefetch((const char *)(e[i] + 1) - 1);
        }
    }
    for (size_t i = 0; c->cap && i < n; i++) /* then the payloads' first bytes */
        if (e[i] && e[i]->payload) __builtin_prefetch(e[i]->payload);
    pthread_mutex_unlock(&c->mu);
}

/* A side entry's checks but its checksum, under c->mu. */
static bool blob_fits(const centry *e, uint32_t tag, size_t len, uint64_t digest, uint64_t ns) {
    return e && e->key && e->len == len && e->digest == digest && e->ns == ns && e->payload && e->kind == tag &&
           !e->export_fn;
}

/* A loaded entry's bytes lie in the cache's file as loaded, which nothing moves or frees
 * before sunset_cache_free, and no one writes them: its checksum and the taker run outside the
 * lock (with every file of a warm run taking its index entry, holding the lock through them
 * was most of the workers' waiting). An entry stored by this run is taken under the lock (its
 * memory may be replaced). */
bool sunset_cache_take_blob(sunset_cache *c, uint32_t tag, uint64_t key, size_t len, uint64_t digest,
                            bool (*take)(void *ud, const void *bytes, size_t n), void *ud) {
    uint64_t k = blob_key(tag, key);
    pthread_mutex_lock(&c->mu);
    centry *e = find_entry(c, k);
    bool ok = blob_fits(e, tag, len, digest, c->ns);
    if (ok && !(e->borrowed && e->payload >= (unsigned char *)c->file_text &&
                e->payload < (unsigned char *)c->file_text + c->file_len)) {
        ok = entry_verified(c, e);
        if (ok) {
            e->used = true;
            note_use(c, e);
            ok = take(ud, e->payload, e->size);
        }
        pthread_mutex_unlock(&c->mu);
        return ok;
    }
    const unsigned char *payload = ok ? e->payload : NULL;
    uint32_t size = ok ? e->size : 0, sum = ok ? e->sum : 0;
    bool verified = ok && e->verified;
    pthread_mutex_unlock(&c->mu);
    if (!ok) return false;
    bool intact = verified || sum32(payload, size) == sum;
    ok = intact && take(ud, payload, size);
    pthread_mutex_lock(&c->mu);
    e = find_entry(c, k); /* the table may have grown meanwhile */
    if (e && e->payload == payload) {
        if (!intact) (void)entry_verified(c, e); /* counted corrupt and dropped */
        e->verified = intact;
        if (intact) {
            e->used = true;
            note_use(c, e);
        }
    }
    pthread_mutex_unlock(&c->mu);
    return ok;
}

void sunset_cache_put_blob(sunset_cache *c, uint32_t tag, uint64_t key, size_t len, uint64_t digest,
                           const void *live, size_t n, sunset_blob_export export_fn) {
    if (n > UINT32_MAX) return;
    pthread_mutex_lock(&c->mu);
    centry h = {.key = blob_key(tag, key), .len = len, .digest = digest, .ns = c->ns, .last_used = c->now,
                .kind = tag, .export_fn = export_fn};
    put_entry(c, &h, true, (unsigned char *)(uintptr_t)live, (uint32_t)n, true);
    c->changed = true;
    pthread_mutex_unlock(&c->mu);
}

bool sunset_cache_get_rec(sunset_cache *c, uint32_t tag, uint64_t key, uint64_t check, void *out, size_t n) {
    uint64_t k = blob_key(tag, key);
    pthread_mutex_lock(&c->mu);
    centry *e = find_entry(c, k);
    bool ok = e && e->key && e->kind == tag && e->len == n && e->digest == check && e->ns == c->ns && e->payload &&
              e->size == n && !e->export_fn && entry_verified(c, e);
    if (ok) {
        memcpy(out, e->payload, n);
        e->used = true;
        note_use(c, e);
    }
    pthread_mutex_unlock(&c->mu);
    return ok;
}

void sunset_cache_put_rec(sunset_cache *c, uint32_t tag, uint64_t key, uint64_t check, const void *data, size_t n) {
    unsigned char *copy = n <= UINT32_MAX ? sunset_malloc(n ? n : 1) : NULL;
    if (!copy) return;
    memcpy(copy, data, n);
    pthread_mutex_lock(&c->mu);
    centry h = {.key = blob_key(tag, key), .len = n, .digest = check, .ns = c->ns, .last_used = c->now, .kind = tag};
    put_entry(c, &h, true, copy, (uint32_t)n, false);
    c->changed = true;
    pthread_mutex_unlock(&c->mu);
}
