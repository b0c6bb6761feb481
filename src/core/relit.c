/*
 * relit.c — the literals every match of a regex contains (src/core/relit.h).
 *
 * Most facts a scan emits match no rule regex, yet each cost a PCRE2 call (the combined regex
 * of a fact kind alone was ~1,400 instructions a token). A regex's source is read once, at
 * load, into a set of strings one of which is in every match; a text holding none of them is
 * ruled out by a scan of its bytes (a bit test per byte pair).
 *
 * The analysis gives each node of the pattern one of three answers:
 *   exact  the node matches exactly one of the strings of its set (which may hold "");
 *   known  every match of the node contains one of the strings of its set;
 *   any    nothing is known.
 * A literal byte is exact; a concatenation of exact nodes is the product of their sets while
 * that stays small, otherwise the better of its parts' sets (the one whose shortest string is
 * longest); an alternation is the union of its branches' sets, `any` if a branch is; `?` adds
 * "" to an exact set; `*` and `{0,n}` give `any`; `+` and `{n,}` keep the set as `known`. An
 * assertion (^ $ \b, a lookaround) consumes nothing: exact "". A class of a few plain bytes
 * ([Pp]) is exact; any other class, `.`, \w and the like are `any`.
 *
 * Every step only forgets: it never claims a string the node's matches can lack. Whatever the
 * analysis does not read in full gives up on the whole regex (NULL: it always runs): options
 * (?i), (?x) and the rest, verbs (*SKIP), backreferences, \Q..\E, \x.., \p.., \K, a brace
 * that is not a plain quantifier, any compile option but 0.
 */
#include "core/relit.h"

#include <stdlib.h>
#include <string.h>

#include "core/prefilter.h"
#include "sunset.h"

#define MAX_EXACT 16 /* strings an exact product may hold */
#define MAX_SET 64   /* strings a set may hold */
#define MAX_CLASS 4  /* bytes a class may hold and still be exact */
#define MAX_DEPTH 64 /* group nesting read */
/* Texts this long are searched by the strided prefilter (src/core/prefilter.c) when every
 * literal is at least LONG_LIT bytes: the pair test of every byte cost ~9 instructions a byte,
 * twice what PCRE2 took for the generated markers on a file's head. */
#define LONG_TEXT 32
#define LONG_LIT 8

typedef struct str {
    char *p;
    size_t n;
} str;

typedef enum { ANY, KNOWN, EXACT } kind;

typedef struct info {
    kind k;
    str *v;
    size_t n;
} info;

struct relit {
    str *v;             /* sorted by first byte */
    size_t n, min_len;  /* min_len >= 1 */
    uint32_t first[257]; /* v[first[c] .. first[c + 1]) start with byte c */
    uint64_t pair[64];   /* a 4096-bit table of the literals' first two bytes (min_len >= 2) */
    prefilter *pf;       /* for LONG_TEXT texts, when min_len >= LONG_LIT; NULL: none */
};

typedef struct parser {
    const char *p, *end;
    bool fail; /* unread construct or OOM: no literals */
    int depth;
} parser;

static void info_free(info *x) {
    for (size_t i = 0; i < x->n; i++) sunset_free(x->v[i].p);
    sunset_free(x->v);
    *x = (info){ANY, NULL, 0};
}

/* x with one string of n bytes: false on OOM. */
static bool info_push(info *x, const char *s, size_t n) {
    for (size_t i = 0; i < x->n; i++)
        if (x->v[i].n == n && memcmp(x->v[i].p, s, n) == 0) return true; /* already there */
    str *v = sunset_realloc(x->v, (x->n + 1) * sizeof *v);
    if (!v) return false;
    x->v = v;
    char *p = sunset_malloc(n + 1);
    if (!p) return false;
    memcpy(p, s, n);
    p[n] = 0;
    x->v[x->n++] = (str){p, n};
    return true;
}

static info exact1(parser *ps, const char *s, size_t n) {
    info x = {EXACT, NULL, 0};
    if (!info_push(&x, s, n)) ps->fail = true;
    return x;
}

/* x as a `known` answer: an exact set holding "" says nothing. */
static void to_known(info *x) {
    if (x->k != EXACT) return;
    for (size_t i = 0; i < x->n; i++)
        if (x->v[i].n == 0) {
            info_free(x);
            return;
        }
    x->k = x->n ? KNOWN : ANY;
    if (x->k == ANY) info_free(x);
}

static size_t min_len(const info *x) {
    size_t m = SIZE_MAX;
    for (size_t i = 0; i < x->n; i++)
        if (x->v[i].n < m) m = x->v[i].n;
    return m;
}

/* Is a (known) a better filter than b (known)? Longer shortest strings, then fewer strings. */
static bool better(const info *a, const info *b) {
    if (b->k == ANY) return a->k != ANY;
    if (a->k == ANY) return false;
    size_t ma = min_len(a), mb = min_len(b);
    return ma != mb ? ma > mb : a->n < b->n;
}

/* The better of a and b as `known` answers; both are taken. */
static info pick(info a, info b) {
    to_known(&a);
    to_known(&b);
    if (better(&b, &a)) {
        info_free(&a);
        return b;
    }
    info_free(&b);
    return a;
}

/* The product of two exact sets (taken): a string of a followed by one of b. */
static info product(parser *ps, info a, info b) {
    info x = {EXACT, NULL, 0};
    for (size_t i = 0; i < a.n && !ps->fail; i++)
        for (size_t j = 0; j < b.n && !ps->fail; j++) {
            char *s = sunset_malloc(a.v[i].n + b.v[j].n + 1);
            if (!s) {
                ps->fail = true;
                break;
            }
            memcpy(s, a.v[i].p, a.v[i].n);
            memcpy(s + a.v[i].n, b.v[j].p, b.v[j].n);
            if (!info_push(&x, s, a.v[i].n + b.v[j].n)) ps->fail = true;
            sunset_free(s);
        }
    info_free(&a);
    info_free(&b);
    return x;
}

/* A concatenation read atom by atom: the run of exact atoms since the last inexact one (their
 * product) and the best set of the atoms before it. */
typedef struct seq {
    info run, best;
    bool exact; /* every atom so far exact and in the run */
} seq;

static void seq_add(parser *ps, seq *q, info a) {
    if (a.k == EXACT && q->run.n * a.n <= MAX_EXACT) {
        q->run = product(ps, q->run, a);
        return;
    }
    /* the run ends here: it and (when inexact) the atom are each in every match */
    q->exact = false;
    q->best = pick(q->best, q->run);
    if (a.k == EXACT) {
        q->run = a;
    } else {
        q->best = pick(q->best, a);
        q->run = exact1(ps, "", 0);
    }
}

static info seq_end(seq *q) {
    if (q->exact) {
        info_free(&q->best);
        return q->run;
    }
    return pick(q->best, q->run);
}

/* a or b: the union of their sets, exact if both are; `any` if either is. */
static info alternate(parser *ps, info a, info b) {
    if (a.k != EXACT || b.k != EXACT) {
        to_known(&a);
        to_known(&b);
    }
    if (a.k == ANY || b.k == ANY || a.n + b.n > MAX_SET) {
        info_free(&a);
        info_free(&b);
        return (info){ANY, NULL, 0};
    }
    for (size_t i = 0; i < b.n; i++)
        if (!info_push(&a, b.v[i].p, b.v[i].n)) ps->fail = true;
    info_free(&b);
    return a;
}

static info parse_alt(parser *ps);

/* A class after its '[': exact when it is a few plain bytes, else `any`. */
static info parse_class(parser *ps) {
    const char *p = ps->p, *end = ps->end;
    bool plain = true;
    char bytes[MAX_CLASS];
    size_t nb = 0;
    if (p < end && *p == '^') plain = false, p++;
    for (bool first = true;; first = false) {
        if (p >= end) {
            ps->fail = true;
            return (info){ANY, NULL, 0};
        }
        char c = *p;
        if (c == ']' && !first) break;
        if (c == '[' && p + 1 < end && (p[1] == ':' || p[1] == '.' || p[1] == '=')) {
            const char *q = p + 2; /* a POSIX class [:alpha:] */
            while (q + 1 < end && !(q[0] == p[1] && q[1] == ']')) q++;
            if (q + 1 >= end) {
                ps->fail = true;
                return (info){ANY, NULL, 0};
            }
            plain = false;
            p = q + 2;
            continue;
        }
        if (c == '\\') {
            if (p + 1 >= end) {
                ps->fail = true;
                return (info){ANY, NULL, 0};
            }
            c = p[1];
            if (c == 'Q' || c == 'E' || c == 'c') { /* \Q..\E, \c]: not read, nor is the class's end */
                ps->fail = true;
                return (info){ANY, NULL, 0};
            }
            if ((c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z')) plain = false;
            p += 2;
        } else {
            p++;
        }
        if (p < end && *p == '-' && p + 1 < end && p[1] != ']') plain = false; /* a range */
        if (plain && nb < MAX_CLASS) bytes[nb++] = c;
        else plain = false;
    }
    ps->p = p + 1;
    if (!plain || nb == 0) return (info){ANY, NULL, 0};
    info x = {EXACT, NULL, 0};
    for (size_t i = 0; i < nb; i++)
        if (!info_push(&x, &bytes[i], 1)) ps->fail = true;
    return x;
}

/* An escape after its '\'. */
static info parse_escape(parser *ps) {
    if (ps->p >= ps->end) {
        ps->fail = true;
        return (info){ANY, NULL, 0};
    }
    char c = *ps->p++;
    static const char any_esc[] = "wWdDsShHvV", empty_esc[] = "bBAzZG";
    static const char ctl_esc[] = "ntrfea", ctl_val[] = "\n\t\r\f\x1b\x07";
    bool alnum = (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
    if (!alnum) return exact1(ps, &c, 1);
    if (strchr(any_esc, c)) return (info){ANY, NULL, 0};
    if (strchr(empty_esc, c)) return exact1(ps, "", 0);
    const char *ctl = strchr(ctl_esc, c);
    if (ctl) return exact1(ps, &ctl_val[ctl - ctl_esc], 1);
    ps->fail = true; /* \x, \p, \Q, \K, a backreference ...: not read */
    return (info){ANY, NULL, 0};
}

/* A group after its '(': the group's answer, or exact "" for a lookaround. */
static info parse_group(parser *ps) {
    bool look = false;
    const char *p = ps->p, *end = ps->end;
    if (p < end && *p == '*') ps->fail = true; /* a verb */
    if (p < end && *p == '?') {
        p++;
        if (p < end && (*p == ':' || *p == '>')) p++;
        else if (p < end && (*p == '=' || *p == '!')) p++, look = true;
        else if (p + 1 < end && *p == '<' && (p[1] == '=' || p[1] == '!')) p += 2, look = true;
        else if (p < end && (*p == '<' || *p == '\'' || (*p == 'P' && p + 1 < end && p[1] == '<'))) {
            if (*p == 'P') p++;
            char close = *p == '\'' ? '\'' : '>'; /* a named group */
            for (p++; p < end && *p != close;) p++;
            if (p >= end) ps->fail = true;
            p++;
        } else {
            ps->fail = true; /* options, a comment, a branch reset, a condition ... */
        }
    }
    if (ps->fail || ++ps->depth > MAX_DEPTH) {
        ps->fail = true;
        return (info){ANY, NULL, 0};
    }
    ps->p = p;
    info x = parse_alt(ps);
    ps->depth--;
    if (ps->p >= ps->end || *ps->p != ')') ps->fail = true;
    else ps->p++;
    if (look) {
        info_free(&x);
        return exact1(ps, "", 0);
    }
    return x;
}

/* A quantifier's bounds at ps->p, if one is there ({n}, {n,}, {n,m}, *, +, ?); max -1 = none. */
static bool parse_quant(parser *ps, long *min, long *max) {
    const char *p = ps->p, *end = ps->end;
    if (p >= end) return false;
    if (*p == '*' || *p == '+' || *p == '?') {
        *min = *p == '+';
        *max = *p == '?' ? 1 : -1;
        p++;
    } else if (*p == '{') {
        char *e;
        p++;
        if (p >= end || *p < '0' || *p > '9') return ps->fail = true, false;
        *min = strtol(p, &e, 10);
        p = e;
        *max = *min;
        if (p < end && *p == ',') {
            p++;
            *max = -1;
            if (p < end && *p >= '0' && *p <= '9') *max = strtol(p, &e, 10), p = e;
        }
        if (p >= end || *p != '}') return ps->fail = true, false;
        p++;
    } else {
        return false;
    }
    if (p < end && (*p == '?' || *p == '+')) p++; /* lazy, possessive: the same strings */
    ps->p = p;
    return true;
}

/* An atom and its quantifier. */
static info parse_atom(parser *ps) {
    char c = *ps->p++;
    info x;
    if (c == '(') x = parse_group(ps);
    else if (c == '[') x = parse_class(ps);
    else if (c == '\\') x = parse_escape(ps);
    else if (c == '.') x = (info){ANY, NULL, 0};
    else if (c == '^' || c == '$') x = exact1(ps, "", 0);
    else if (c == '*' || c == '+' || c == '?' || c == '{' || c == ')') {
        ps->fail = true; /* a quantifier with nothing to repeat */
        x = (info){ANY, NULL, 0};
    } else x = exact1(ps, &c, 1);
    long min, max;
    while (!ps->fail && parse_quant(ps, &min, &max)) {
        if (min == 0 && max == 1 && x.k == EXACT) {
            if (!info_push(&x, "", 0)) ps->fail = true;
        } else if (min == 0) {
            info_free(&x);
        } else if (!(min == 1 && max == 1)) {
            to_known(&x);
        }
    }
    return x;
}

static info parse_alt(parser *ps) {
    info alt = {ANY, NULL, 0};
    for (bool first = true; !ps->fail; first = false) {
        seq q = {exact1(ps, "", 0), {ANY, NULL, 0}, true};
        while (!ps->fail && ps->p < ps->end && *ps->p != '|' && *ps->p != ')') seq_add(ps, &q, parse_atom(ps));
        info x = seq_end(&q);
        alt = first ? x : alternate(ps, alt, x);
        if (ps->p >= ps->end || *ps->p != '|') break;
        ps->p++;
    }
    return alt;
}

static int cmp_first(const void *a, const void *b) {
    const str *x = a, *y = b;
    return (unsigned char)x->p[0] - (unsigned char)y->p[0];
}

static inline unsigned pair_slot(unsigned char a, unsigned char b) { return (a & 63u) << 6 | (b & 63u); }

/* The matcher over a known set (taken). */
static relit *relit_build(info x) {
    relit *rl = sunset_calloc(1, sizeof *rl);
    if (!rl) {
        info_free(&x);
        return NULL;
    }
    rl->v = x.v;
    rl->n = x.n;
    rl->min_len = min_len(&x);
    qsort(rl->v, rl->n, sizeof *rl->v, cmp_first);
    for (size_t i = 0; i < rl->n; i++) {
        rl->first[(unsigned char)rl->v[i].p[0] + 1]++;
        if (rl->min_len >= 2) {
            unsigned h = pair_slot((unsigned char)rl->v[i].p[0], (unsigned char)rl->v[i].p[1]);
            rl->pair[h / 64] |= 1ull << (h % 64);
        }
    }
    for (int c = 0; c < 256; c++) rl->first[c + 1] += rl->first[c];
    if (rl->min_len >= LONG_LIT) {
        const char **lits = sunset_calloc(rl->n, sizeof *lits);
        bool nul = false; /* the prefilter takes C strings */
        for (size_t i = 0; lits && i < rl->n; i++) lits[i] = rl->v[i].p, nul |= strlen(rl->v[i].p) != rl->v[i].n;
        rl->pf = lits && !nul ? prefilter_new(lits, rl->n) : NULL; /* NULL (OOM): the pair test */
        sunset_free(lits);
    }
    return rl;
}

relit *relit_new(const char *pattern, size_t len, uint32_t options) {
    if (!pattern || options) return NULL;
    parser ps = {pattern, pattern + len, false, 0};
    info x = parse_alt(&ps);
    if (ps.p != ps.end) ps.fail = true; /* an unopened ')' */
    to_known(&x);
    if (ps.fail || x.k == ANY) {
        info_free(&x);
        return NULL;
    }
    return relit_build(x);
}

void relit_free(relit *rl) {
    if (!rl) return;
    prefilter_free(rl->pf);
    for (size_t i = 0; i < rl->n; i++) sunset_free(rl->v[i].p);
    sunset_free(rl->v);
    sunset_free(rl);
}

/* Does a literal starting with byte s[i] start at i? */
static bool starts_at(const relit *rl, const char *s, size_t n, size_t i) {
    unsigned char c = (unsigned char)s[i];
    for (uint32_t k = rl->first[c]; k < rl->first[c + 1]; k++)
        if (rl->v[k].n <= n - i && memcmp(rl->v[k].p, s + i, rl->v[k].n) == 0) return true;
    return false;
}

bool relit_may_match(const relit *rl, const char *s, size_t n) {
    if (!rl) return true;
    if (n < rl->min_len) return false;
    if (rl->pf && n >= LONG_TEXT) return prefilter_match(rl->pf, s, n);
    const unsigned char *u = (const unsigned char *)s;
    const size_t last = n - rl->min_len;
    if (rl->min_len < 2) {
        for (size_t i = 0; i <= last; i++)
            if (starts_at(rl, s, n, i)) return true;
        return false;
    }
    /* the pair test in a loop of its own: asked inside it, min_len was read back from the stack
     * at every byte (16 instructions a byte) */
    const uint64_t *pair = rl->pair;
    for (size_t i = 0; i <= last; i++) {
        unsigned h = pair_slot(u[i], u[i + 1]);
        if (((pair[h / 64] >> (h % 64)) & 1) && starts_at(rl, s, n, i)) return true;
    }
    return false;
}

size_t relit_count(const relit *rl) { return rl ? rl->n : 0; }

const char *relit_at(const relit *rl, size_t i, size_t *n) {
    if (!rl || i >= rl->n) return NULL;
    if (n) *n = rl->v[i].n;
    return rl->v[i].p;
}
