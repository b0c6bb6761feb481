/*
 * gitindex.c — a work tree's tracked paths read straight from its git index file
 * (gitindex.h). A cold scan needs only the paths of the index's entries; libgit2's
 * git_repository_index also checks the file's SHA-1 trailer, builds a git_index_entry per
 * entry and sorts them, and the repository then keeps and frees that index: ~115M
 * instructions of a scan of the real Paddle tree (14,209 entries), ~2% of the whole run.
 *
 * Only what git's documentation (gitformat-index) fixes is read: the "DIRC" header of
 * versions 2, 3 and 4, each entry's mode, flags and path (v4's prefix-compressed paths
 * included), and the extension headers, to see that none of them changes what the entries
 * mean. A file this reader does not fully understand — another version, a split index
 * ("link"), a sparse index ("sdir"), any other mandatory extension, a length that runs past
 * the end — is left to libgit2, so such repositories behave exactly as before. The trailer's
 * checksum is not verified (git's own index.skipHash writes none).
 */
#include "base/gitindex.h"

#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

enum { HEADER = 12, ENTRY_FIXED = 62, OID = 20, MODE_GITLINK = 0160000 };

static uint32_t be32(const unsigned char *p) {
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* v4's offset-encoded number of bytes to drop from the previous path (git's varint
 * encoding: each continuation adds one before the shift). False when it runs past end. */
static bool v4_strip(const unsigned char **pp, const unsigned char *end, size_t *out) {
    const unsigned char *p = *pp;
    if (p >= end) return false;
    unsigned char c = *p++;
    size_t v = c & 127;
    while (c & 128) {
        if (p >= end || v > (SIZE_MAX >> 8)) return false;
        c = *p++;
        v = ((v + 1) << 7) | (c & 127);
    }
    *pp = p;
    *out = v;
    return true;
}

/* Do the extensions between p and the trailer leave the entries as read? Optional ones
 * (an upper-case first letter: TREE, REUC, UNTR, FSMN, EOIE, IEOT ...) do; a mandatory one
 * (link, sdir, or one not known) does not. */
static bool extensions_optional(const unsigned char *p, const unsigned char *end) {
    while (p < end) {
        if (end - p < 8 || p[0] < 'A' || p[0] > 'Z') return false;
        uint32_t n = be32(p + 4);
        if ((size_t)(end - p - 8) < n) return false;
        p += 8 + (size_t)n;
    }
    return true;
}

/* One entry at *pp: its path into path (v4: after dropping bytes of the previous one) and
 * its mode; *pp moves past it. False when the entry is not one this reader knows. */
static bool read_entry(const unsigned char **pp, const unsigned char *end, uint32_t version, sb *path,
                       uint32_t *mode) {
    const unsigned char *p = *pp;
    if (end - p < ENTRY_FIXED) return false;
    *mode = be32(p + 24);
    unsigned flags = (unsigned)p[60] << 8 | p[61];
    const unsigned char *name = p + ENTRY_FIXED;
    if (flags & 0x4000) { /* extended flags: v3 and later only */
        if (version < 3 || end - name < 2) return false;
        name += 2;
    }
    if (version == 4) {
        size_t strip;
        if (!v4_strip(&name, end, &strip) || strip > path->len) return false;
        path->len -= strip;
    } else {
        path->len = 0;
    }
    const unsigned char *nul = memchr(name, 0, (size_t)(end - name));
    if (!nul) return false;
    sb_putn(path, (const char *)name, (size_t)(nul - name));
    if (version == 4) {
        *pp = nul + 1;
    } else { /* 1 to 8 NULs pad the entry to a multiple of 8 bytes */
        size_t len = (size_t)(nul - p);
        size_t padded = (len + 8) & ~(size_t)7;
        if ((size_t)(end - p) < padded) return false;
        *pp = p + padded;
    }
    return true;
}

/* The entries of the index bytes d (n of them) below prefix into out; 0, 1 (not ours), -1. */
static int read_index(const unsigned char *d, size_t n, const char *prefix, vec *out) {
    if (n < HEADER + OID || memcmp(d, "DIRC", 4) != 0) return 1;
    uint32_t version = be32(d + 4), count = be32(d + 8);
    if (version < 2 || version > 4) return 1;
    const unsigned char *p = d + HEADER, *end = d + n - OID;
    size_t pl = strlen(prefix), first = out->n;
    sb path = {0};
    int rc = 0;
    for (uint32_t i = 0; i < count && !rc; i++) {
        uint32_t mode;
        if (!read_entry(&p, end, version, &path, &mode) || !path.len) rc = 1;
        else if (path.oom) rc = -1;
        if (rc || mode == MODE_GITLINK || path.len < pl || (pl && memcmp(path.s, prefix, pl) != 0)) continue;
        const char *rel = path.s + pl;
        /* a conflicted path has one entry per stage, adjacent: keep one */
        if (out->n > first && strcmp(VEC_AT(out, char *, out->n - 1), rel) == 0) continue;
        char *s = sunset_strndup(rel, path.len - pl);
        if (!s || !vec_push(out, &s)) {
            sunset_free(s);
            rc = -1;
        }
    }
    if (!rc && !extensions_optional(p, end)) rc = 1;
    sb_free(&path);
    if (rc) { /* nothing half-read is left for the caller */
        for (size_t i = first; i < out->n; i++) sunset_free(VEC_AT(out, char *, i));
        out->n = first;
    }
    return rc;
}

int sunset_gitindex_paths(const char *index_path, const char *prefix, vec *out) {
    int fd = open(index_path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return 1;
    struct stat st;
    int rc = 1;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 && (uint64_t)st.st_size < ((uint64_t)1 << 32)) {
        void *m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (m != MAP_FAILED) {
            rc = read_index(m, (size_t)st.st_size, prefix, out);
            munmap(m, (size_t)st.st_size);
        }
    }
    close(fd);
    return rc;
}
