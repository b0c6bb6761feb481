/*
 * cursors.c — what the C/C++ frontend takes from libclang's AST rather than its tokens.
 * A bounded, iterative walk over the main file's declarations (function bodies never
 * entered) adds function and method declarations the token outline cannot see as such,
 * and in precise mode (a compilation database lists the file) namespaces and classes with
 * exact extents. In precise mode each identifier token is also resolved, through the cursor
 * clang_annotateTokens gave it, to the fully qualified entity it names (the IDENT fact's
 * `qual`). No recursion depends on the input's nesting depth.
 */
#include "lang/clang/clang_int.h"

#include <stdint.h>
#include <string.h>

/* ---------------------------------------------------------------- cursors */

static bool class_like(enum CXCursorKind k) {
    return k == CXCursor_ClassDecl || k == CXCursor_StructDecl || k == CXCursor_UnionDecl ||
           k == CXCursor_ClassTemplate || k == CXCursor_ClassTemplatePartialSpecialization;
}

static bool function_like(enum CXCursorKind k) {
    return k == CXCursor_FunctionDecl || k == CXCursor_CXXMethod || k == CXCursor_Constructor ||
           k == CXCursor_Destructor || k == CXCursor_ConversionFunction ||
           k == CXCursor_FunctionTemplate;
}

static int32_t token_at(const cscan *c, uint32_t off) {
    int32_t lo = 0, hi = c->n;
    while (lo < hi) {
        int32_t mid = lo + (hi - lo) / 2;
        if (c->t[mid].start < off) lo = mid + 1;
        else hi = mid;
    }
    return lo < c->n && c->t[lo].start == off ? lo : -1;
}


/* Appends the class-like semantic parents of cur, outermost first, each followed by "::". */
static void class_prefix(CXCursor cur, sb *out) {
    CXCursor chainv[16];
    int n = 0;
    for (CXCursor p = clang_getCursorSemanticParent(cur);
         n < 16 && !clang_Cursor_isNull(p) && class_like(clang_getCursorKind(p));
         p = clang_getCursorSemanticParent(p))
        chainv[n++] = p;
    while (n-- > 0) {
        CXString s = clang_getCursorSpelling(chainv[n]);
        sb_puts(out, clang_getCString(s));
        sb_puts(out, "::");
        clang_disposeString(s);
    }
}

/* A declaration seen by libclang in the main file: functions always, namespaces and classes
 * in precise mode (in fast mode the token outline is the better witness for those). */
static void cursor_record(cscan *c, CXCursor cur, enum CXCursorKind kind) {
    CXString sp = clang_getCursorSpelling(cur);
    const char *name = clang_getCString(sp);
    size_t nl = name ? strlen(name) : 0;
    int32_t ti = nl ? token_at(c, clang_cursor_offset(clang_getCursorLocation(cur))) : -1;
    int32_t name_tok = -1, bs = -1, be = -1;
    if (ti >= 0) {
        if (is_ident(c, ti) && tlen(c, ti) == nl && memcmp(ttext(c, ti), name, nl) == 0) {
            name_tok = bs = be = ti;
            if (name[0] != '~' && is_p(c, ti - 1, P_TILDE)) name_tok = -1;
        } else if (name[0] == '~' && is_p(c, ti, P_TILDE) && is_ident(c, ti + 1) &&
                   tlen(c, ti + 1) == nl - 1 && memcmp(ttext(c, ti + 1), name + 1, nl - 1) == 0) {
            name_tok = be = ti + 1;
            bs = ti;
        } else if (is_ident(c, ti) && name[0] == '~' && is_p(c, ti - 1, P_TILDE) &&
                   tlen(c, ti) == nl - 1 && memcmp(ttext(c, ti), name + 1, nl - 1) == 0) {
            name_tok = be = ti;
            bs = ti - 1;
        } else if (is_kw(c, ti, "operator") && strncmp(name, "operator", 8) == 0) {
            name_tok = bs = ti;
            int32_t j = ti + 1;
            if (is_p(c, j, P_LPAREN) && is_p(c, j + 1, P_RPAREN)) j += 2;
            else
                while (j < c->n && j < ti + 4 && !is_p(c, j, P_LPAREN)) j++;
            be = j - 1;
        }
    }
    if (name_tok < 0 || c->t[name_tok].rec >= 0) {
        clang_disposeString(sp);
        return;
    }
    int rk;
    if (kind == CXCursor_Namespace) {
        rk = R_NAMESPACE;
    } else if (class_like(kind)) {
        enum CXCursorKind tk = kind == CXCursor_ClassTemplate ? clang_getTemplateCursorKind(cur)
                                                              : kind;
        rk = tk == CXCursor_StructDecl ? R_STRUCT : tk == CXCursor_UnionDecl ? R_UNION : R_CLASS;
    } else if (kind == CXCursor_FunctionDecl) {
        rk = R_FUNCTION;
    } else if (kind == CXCursor_FunctionTemplate) {
        rk = class_like(clang_getCursorKind(clang_getCursorSemanticParent(cur))) ? R_METHOD
                                                                                 : R_FUNCTION;
    } else {
        rk = R_METHOD;
    }
    c->tmp2.len = 0;
    if (c->tmp2.s) c->tmp2.s[0] = 0;
    if (rk != R_NAMESPACE) class_prefix(cur, &c->tmp2);
    sb_putn(&c->tmp2, name, nl);
    clang_disposeString(sp);
    if (c->tmp2.oom) { c->oom = true; return; }
    int32_t r = clang_rec_new(c, rk, c->tmp2.s, c->tmp2.len);
    if (r < 0) return;
    crec *rc = rec_at(c, r);
    if (rk != R_NAMESPACE) {
        rc->def_start = c->t[bs].start;
        rc->def_end = c->t[be].end;
        c->t[name_tok].flags |= TF_DEFINITION;
    }
    c->t[name_tok].rec = r;
    if (c->precise && clang_isCursorDefinition(cur)) {
        CXSourceRange ext = clang_getCursorExtent(cur);
        uint32_t so = clang_cursor_offset(clang_getRangeStart(ext));
        uint32_t eo = clang_cursor_offset(clang_getRangeEnd(ext));
        if (so <= eo && eo <= c->len) {
            rc->start_line = clang_line_of(c, so);
            rc->end_line = clang_line_of(c, eo > so ? eo - 1 : eo);
            rc->has_scope = rc->cursor_scope = 1;
        }
    }
}

static enum CXChildVisitResult collect_child(CXCursor cur, CXCursor parent, CXClientData data) {
    (void)parent;
    return vec_push(data, &cur) ? CXChildVisit_Continue : CXChildVisit_Break;
}

/* Iterative walk over declarations of the main file (namespaces, linkage specs, classes);
 * function bodies are never entered. */
void clang_cursor_walk(cscan *c, CXTranslationUnit tu) {
    vec stack = VEC_INIT(CXCursor), kids = VEC_INIT(CXCursor);
    CXCursor root = clang_getTranslationUnitCursor(tu);
    if (!push(c, &stack, &root)) goto cleanup;
    while (stack.n && !c->oom) {
        CXCursor cur = VEC_AT(&stack, CXCursor, --stack.n);
        kids.n = 0;
        clang_visitChildren(cur, collect_child, &kids);
        for (size_t i = 0; i < kids.n; i++) {
            CXCursor k = VEC_AT(&kids, CXCursor, i);
            if (!clang_Location_isFromMainFile(clang_getCursorLocation(k))) continue;
            enum CXCursorKind kind = clang_getCursorKind(k);
            if (function_like(kind)) {
                cursor_record(c, k, kind);
            } else if (kind == CXCursor_Namespace || class_like(kind) ||
                       kind == CXCursor_LinkageSpec || kind == CXCursor_UnexposedDecl) {
                if (c->precise && (kind == CXCursor_Namespace ||
                                   (class_like(kind) && clang_isCursorDefinition(k))))
                    cursor_record(c, k, kind);
                if (stack.n < 1000000 && !push(c, &stack, &k)) goto cleanup;
            }
        }
    }
cleanup:
    vec_free(&stack);
    vec_free(&kids);
}

/* ---------------------------------------------------------------- precise references */

/* "paddle::framework::ParallelExecutor" for the entity `cur` names; false for locals,
 * parameters, template parameters and anything not reachable through namespaces and
 * classes. */
static bool qual_name(CXCursor ref, sb *out) {
    enum CXCursorKind rk = clang_getCursorKind(ref);
    if (rk == CXCursor_ParmDecl || rk == CXCursor_TemplateTypeParameter ||
        rk == CXCursor_NonTypeTemplateParameter || rk == CXCursor_TemplateTemplateParameter ||
        rk == CXCursor_LabelStmt || !clang_isDeclaration(rk))
        return false;
    CXCursor parts[32];
    int n = 0;
    parts[n++] = ref;
    for (CXCursor p = clang_getCursorSemanticParent(ref);; p = clang_getCursorSemanticParent(p)) {
        if (clang_Cursor_isNull(p)) break;
        enum CXCursorKind k = clang_getCursorKind(p);
        if (k == CXCursor_TranslationUnit || clang_isInvalid(k)) break;
        if (k == CXCursor_LinkageSpec || k == CXCursor_UnexposedDecl) continue;
        if (k == CXCursor_Namespace && clang_Cursor_isInlineNamespace(p)) continue;
        if (!(k == CXCursor_Namespace || class_like(k) || k == CXCursor_EnumDecl)) return false;
        if (n == 32) return false;
        parts[n++] = p;
    }
    out->len = 0;
    while (n-- > 0) {
        CXString s = clang_getCursorSpelling(parts[n]);
        const char *str = clang_getCString(s);
        if (!str || !*str)
            str = clang_getCursorKind(parts[n]) == CXCursor_Namespace ? "(anonymous namespace)"
                                                                      : "(anonymous)";
        sb_puts(out, str);
        if (n) sb_puts(out, "::");
        clang_disposeString(s);
    }
    return !out->oom && out->len > 0;
}

/* Does the entity at `ref` carry the name token i spells (`~Foo` for the `Foo` of a
 * destructor)? */
static bool names_token(const cscan *c, int32_t i, CXCursor ref) {
    CXString sp = clang_getCursorSpelling(ref);
    const char *s = clang_getCString(sp);
    size_t n = tlen(c, i);
    bool same = s && ((strlen(s) == n && memcmp(s, ttext(c, i), n) == 0) ||
                      (s[0] == '~' && strlen(s + 1) == n && memcmp(s + 1, ttext(c, i), n) == 0));
    clang_disposeString(sp);
    return same;
}

/* Searches a type (through pointers, references, sugar and template arguments, boundedly)
 * for a declaration named like token i. */
static bool type_names_token(const cscan *c, int32_t i, CXType ty, int depth, CXCursor *out) {
    for (int guard = 0; guard < 8; guard++) {
        if (ty.kind == CXType_Pointer || ty.kind == CXType_LValueReference ||
            ty.kind == CXType_RValueReference)
            ty = clang_getPointeeType(ty);
        else if (ty.kind == CXType_Elaborated)
            ty = clang_Type_getNamedType(ty);
        else
            break;
    }
    if (ty.kind == CXType_Invalid) return false;
    /* the type as written, then its canonical form (clang 14's using-types are Unexposed) */
    CXType forms[2] = {ty, clang_getCanonicalType(ty)};
    for (int f = 0; f < 2; f++) {
        CXCursor d = clang_getTypeDeclaration(forms[f]);
        if (!clang_Cursor_isNull(d) && !clang_isInvalid(clang_getCursorKind(d)) &&
            names_token(c, i, d)) {
            *out = d;
            return true;
        }
    }
    int na = clang_Type_getNumTemplateArguments(ty);
    for (int a = 0; depth < 2 && a < na && a < 8; a++)
        if (type_names_token(c, i, clang_Type_getTemplateArgumentAsType(ty, (unsigned)a),
                             depth + 1, out))
            return true;
    return false;
}

/* The entity identifier token i refers to, qualified; false when unknown or when libclang's
 * cursor is not about this very name (inactive branches, macro arguments). */
bool clang_token_qual(cscan *c, int32_t i, sb *out) {
    CXCursor cur = c->cursors[i];
    enum CXCursorKind k = clang_getCursorKind(cur);
    if (clang_isInvalid(k) || k == CXCursor_TranslationUnit) return false;
    CXCursor ref = clang_getCursorReferenced(cur);
    if (clang_Cursor_isNull(ref)) return false;
    if (clang_getCursorKind(ref) == CXCursor_OverloadedDeclRef) {
        if (clang_getNumOverloadedDecls(ref) == 0) return false;
        ref = clang_getOverloadedDecl(ref, 0);
    }
    if (names_token(c, i, ref)) return qual_name(ref, out);
    /* libclang 14 exposes no TypeRef for a type named through a using-declaration
     * (`using ns::T; void f(T *p)` annotates T with the ParmDecl): look through the
     * declared type instead. */
    if (!clang_isDeclaration(k)) return false;
    CXType ty = function_like(k) ? clang_getCursorResultType(cur) : clang_getCursorType(cur);
    CXCursor d;
    return type_names_token(c, i, ty, 0, &d) && qual_name(d, out);
}
