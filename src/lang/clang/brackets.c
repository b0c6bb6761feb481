/*
 * brackets.c — bracket matching over the raw token table, which holds every preprocessor
 * branch. Brackets are matched on a persistent stack that follows the first branch of each
 * conditional and re-joins the others at #endif, so an unbalanced brace inside one branch
 * does not derail the rest of the file: at #elif/#else the stack returns to what it was at
 * the #if, and whatever the other branches leave open is linked to what the first branch
 * left open, so one closer after #endif closes them all. Template argument lists, which the
 * lexer cannot tell from less-than, are matched on demand by bounded scans
 * (clang_angle_back, clang_angle_fwd).
 */
#include "lang/clang/clang_int.h"

#include <stdint.h>

/* ---------------------------------------------------------------- bracket stack */

int32_t clang_bm_push(cscan *c, int32_t tok, uint8_t open, int32_t aux, uint8_t bkind) {
    pnode nd = {.parent = c->top, .tok = tok, .aux = aux, .link = -1, .next_link = -1,
                .depth = node_depth(c, c->top) + 1, .open = open, .bkind = bkind};
    if (!push(c, &c->nodes, &nd)) return -1;
    c->top = (int32_t)c->nodes.n - 1;
    return c->top;
}

/* Close node k (and every node of another #if branch linked to it) at token `closer`.
 * Pass 0 records bracket matches, pass 1 closes the records whose body the brace opened. */
static void bm_close(cscan *c, int32_t k, int32_t closer, int pass) {
    c->work.n = 0;
    if (!push(c, &c->work, &k)) return;
    while (c->work.n) {
        int32_t x = VEC_AT(&c->work, int32_t, --c->work.n);
        pnode *nd = node(c, x);
        if (pass == 0 && c->t[closer].match < 0) c->t[closer].match = nd->tok;
        if (nd->closed) continue;
        nd->closed = 1;
        if (pass == 0) {
            c->t[nd->tok].match = closer;
        } else {
            uint32_t line = clang_line_of(c, c->t[closer].start);
            for (int32_t r = c->t[nd->tok].body, guard = 0; r >= 0 && guard < 64;
                 r = rec_at(c, r)->also, guard++) {
                crec *rc = rec_at(c, r);
                if (!rc->cursor_scope && rc->end_line == 0) rc->end_line = line;
            }
        }
        for (int32_t l = nd->link; l >= 0; l = node(c, l)->next_link)
            if (!push(c, &c->work, &l)) return;
    }
}

/* A closing bracket. ')' and ']' close only nearby openers and never across a '{'; '}'
 * closes through unclosed '(' and '['. Nodes at or below the floor (the stack when the
 * current directive began) are out of reach. */
void clang_bm_closer(cscan *c, int32_t i, uint32_t floor_depth, int pass) {
    uint8_t want = c->t[i].punct == P_RPAREN ? '(' : c->t[i].punct == P_RBRACK ? '[' : '{';
    int32_t k = c->top, target = -1;
    for (int steps = 0; k >= 0 && node(c, k)->depth > floor_depth && steps < 256; steps++) {
        pnode *nd = node(c, k);
        if (nd->open == want) { target = k; break; }
        if (want != '{' && (nd->open == '{' || steps >= 8)) break;
        k = nd->parent;
    }
    if (target < 0) return;
    bm_close(c, target, i, pass);
    c->top = node(c, target)->parent;
}

/* At the end of an #elif/#else branch: nodes that branch left open are paired, bottom-up,
 * with those the first branch left open, so one closing bracket after #endif closes both. */
static void bm_link(cscan *c, int32_t base, int32_t alt_top, int32_t first_top) {
    enum { MAXL = 256 };
    int32_t a[MAXL], f[MAXL];
    int na = 0, nf = 0;
    uint32_t bd = node_depth(c, base);
    int32_t k;
    for (k = alt_top; k >= 0 && node(c, k)->depth > bd; k = node(c, k)->parent) {
        if (na == MAXL) return;
        a[na++] = k;
    }
    if (k != base) return;
    for (k = first_top; k >= 0 && node(c, k)->depth > bd; k = node(c, k)->parent) {
        if (nf == MAXL) return;
        f[nf++] = k;
    }
    if (k != base) return;
    for (int m = 0; m < na && m < nf; m++) {
        pnode *an = node(c, a[na - 1 - m]), *fn = node(c, f[nf - 1 - m]);
        if (an->open != fn->open) break;
        an->next_link = fn->link;
        fn->link = a[na - 1 - m];
    }
}

#define COND_UNSET INT32_MIN

void clang_cond_apply(cscan *c, int kind) {
    if (kind == D_IF) {
        cond cd = {c->top, COND_UNSET};
        push(c, &c->conds, &cd);
        return;
    }
    if (c->conds.n == 0) return;
    cond *cd = &VEC_AT(&c->conds, cond, c->conds.n - 1);
    if (kind == D_ELSE) {
        if (cd->first_end == COND_UNSET) cd->first_end = c->top;
        else bm_link(c, cd->base, c->top, cd->first_end);
        c->top = cd->base;
    } else if (kind == D_ENDIF) {
        if (cd->first_end != COND_UNSET) {
            bm_link(c, cd->base, c->top, cd->first_end);
            c->top = cd->first_end;
        }
        c->conds.n--;
    }
}

/* ---------------------------------------------------------------- template angle brackets */

/* From a '>' or '>>' back to the '<' opening that template argument list, or -1. */
int32_t clang_angle_back(const cscan *c, int32_t e, bool in_dir) {
    int depth = 0;
    for (int32_t k = e, steps = 0; k >= 0 && steps < 128; k = pv(c, k, in_dir), steps++) {
        const ctok *t = &c->t[k];
        switch (t->punct) {
        case P_GT: depth++; break;
        case P_SHR: depth += 2; break;
        case P_LT:
            if (--depth == 0) return k;
            if (depth < 0) return -1;
            break;
        case P_RPAREN: case P_RBRACK:
            if (t->match < 0 || t->match >= k) return -1;
            k = t->match;
            break;
        case P_LPAREN: case P_LBRACK: case P_LBRACE: case P_RBRACE: case P_SEMI:
            return -1;
        default: break;
        }
    }
    return -1;
}

/* From a '<' forward to the '>' closing it (or the '>>' holding it), or -1. */
int32_t clang_angle_fwd(const cscan *c, int32_t s, bool in_dir) {
    int depth = 0;
    for (int32_t k = s, steps = 0; k >= 0 && steps < 256; k = nx(c, k, in_dir), steps++) {
        const ctok *t = &c->t[k];
        switch (t->punct) {
        case P_LT: depth++; break;
        case P_GT: if (--depth <= 0) return k; break;
        case P_SHR: depth -= 2; if (depth <= 0) return k; break;
        case P_LPAREN: case P_LBRACK:
            if (t->match <= k) return -1;
            k = t->match;
            break;
        case P_RPAREN: case P_RBRACK: case P_LBRACE: case P_RBRACE: case P_SEMI:
            return -1;
        default: break;
        }
    }
    return -1;
}
