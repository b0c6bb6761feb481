/*
 * libclang.h — libclang opened on the first C/C++ parse, not at the program's start.
 *
 * libclang and the libLLVM under it are ~90 MB of shared objects with ~580,000 relative
 * relocations: linked in, the dynamic loader spent ~15-20 ms of CPU on them at every start,
 * a large share of a warm scan or of `check` on a Python change, neither of which parses
 * any C++. They are now opened with dlopen by their soname (the Makefile's
 * SUNSET_LIBCLANG_SONAME) when a C/C++ file is first parsed or a compilation database
 * loaded, and the entry points the frontend calls are looked up then.
 *
 * Only the frontend's files (src/lang/clang/*.c, through clang_int.h) include this, after
 * libclang's headers: each libclang name below is then a macro for the pointer looked up,
 * so a call reads as libclang's own. Calling one before clang_lib_load succeeded is a
 * programming error (a NULL pointer).
 */
#ifndef SUNSET_LANG_CLANG_LIBCLANG_H
#define SUNSET_LANG_CLANG_LIBCLANG_H

#include <clang-c/CXCompilationDatabase.h>
#include <clang-c/Index.h>
#include <stdbool.h>
#include <stddef.h>

/* Every libclang function the frontend calls. */
#define CLANG_LIB_FUNCS(X) \
    X(clang_CompilationDatabase_dispose) X(clang_CompilationDatabase_fromDirectory) \
    X(clang_CompilationDatabase_getAllCompileCommands) X(clang_CompilationDatabase_getCompileCommands) \
    X(clang_CompileCommand_getArg) X(clang_CompileCommand_getDirectory) X(clang_CompileCommand_getFilename) \
    X(clang_CompileCommand_getNumArgs) X(clang_CompileCommands_dispose) X(clang_CompileCommands_getCommand) \
    X(clang_CompileCommands_getSize) X(clang_Cursor_isInlineNamespace) X(clang_Cursor_isNull) \
    X(clang_Location_isFromMainFile) X(clang_Type_getNamedType) X(clang_Type_getNumTemplateArguments) \
    X(clang_Type_getTemplateArgumentAsType) X(clang_annotateTokens) X(clang_createIndex) \
    X(clang_defaultReparseOptions) X(clang_disposeIndex) X(clang_disposeString) X(clang_disposeTokens) \
    X(clang_disposeTranslationUnit) X(clang_getCString) X(clang_getCanonicalType) X(clang_getCursorExtent) \
    X(clang_getCursorKind) X(clang_getCursorLocation) X(clang_getCursorReferenced) \
    X(clang_getCursorResultType) X(clang_getCursorSemanticParent) X(clang_getCursorSpelling) \
    X(clang_getCursorType) X(clang_getFile) X(clang_getFileLocation) X(clang_getLocationForOffset) \
    X(clang_getNumOverloadedDecls) X(clang_getOverloadedDecl) X(clang_getPointeeType) X(clang_getRange) \
    X(clang_getRangeEnd) X(clang_getRangeStart) X(clang_getTemplateCursorKind) X(clang_getTokenExtent) \
    X(clang_getTokenKind) X(clang_getTranslationUnitCursor) X(clang_getTypeDeclaration) \
    X(clang_isCursorDefinition) X(clang_isDeclaration) X(clang_isInvalid) X(clang_parseTranslationUnit2) \
    X(clang_reparseTranslationUnit) X(clang_tokenize) X(clang_visitChildren)

#define CLANG_LIB_FIELD(name) __typeof__(name) *name;
typedef struct clang_lib {
    CLANG_LIB_FUNCS(CLANG_LIB_FIELD)
} clang_lib;
#undef CLANG_LIB_FIELD

/* The looked-up entry points; all NULL until clang_lib_load succeeded. */
extern clang_lib clang_lib_fns;

/* Opens libclang and looks up every function above, once for the process (thread-safe;
 * cheap after the first call). false when it cannot: why, into msg. */
bool clang_lib_load(char *msg, size_t n);
/* Gives back the resident code pages of libclang and the libLLVM under it (base/util.h
 * sunset_release_code_pages); a later parse reads back from the page cache what it runs.
 * clang_lib_load does it once libclang is open; a no-op before. */
void clang_lib_release_code(void);
/* Whether this process opened libclang (the tests see a run that parses no C++ not open it). */
bool clang_lib_loaded(void);

#ifndef CLANG_LIB_NO_MACROS
#define clang_CompilationDatabase_dispose (clang_lib_fns.clang_CompilationDatabase_dispose)
#define clang_CompilationDatabase_fromDirectory (clang_lib_fns.clang_CompilationDatabase_fromDirectory)
#define clang_CompilationDatabase_getAllCompileCommands (clang_lib_fns.clang_CompilationDatabase_getAllCompileCommands)
#define clang_CompilationDatabase_getCompileCommands (clang_lib_fns.clang_CompilationDatabase_getCompileCommands)
#define clang_CompileCommand_getArg (clang_lib_fns.clang_CompileCommand_getArg)
#define clang_CompileCommand_getDirectory (clang_lib_fns.clang_CompileCommand_getDirectory)
#define clang_CompileCommand_getFilename (clang_lib_fns.clang_CompileCommand_getFilename)
#define clang_CompileCommand_getNumArgs (clang_lib_fns.clang_CompileCommand_getNumArgs)
#define clang_CompileCommands_dispose (clang_lib_fns.clang_CompileCommands_dispose)
#define clang_CompileCommands_getCommand (clang_lib_fns.clang_CompileCommands_getCommand)
#define clang_CompileCommands_getSize (clang_lib_fns.clang_CompileCommands_getSize)
#define clang_Cursor_isInlineNamespace (clang_lib_fns.clang_Cursor_isInlineNamespace)
#define clang_Cursor_isNull (clang_lib_fns.clang_Cursor_isNull)
#define clang_Location_isFromMainFile (clang_lib_fns.clang_Location_isFromMainFile)
#define clang_Type_getNamedType (clang_lib_fns.clang_Type_getNamedType)
#define clang_Type_getNumTemplateArguments (clang_lib_fns.clang_Type_getNumTemplateArguments)
#define clang_Type_getTemplateArgumentAsType (clang_lib_fns.clang_Type_getTemplateArgumentAsType)
#define clang_annotateTokens (clang_lib_fns.clang_annotateTokens)
#define clang_createIndex (clang_lib_fns.clang_createIndex)
#define clang_defaultReparseOptions (clang_lib_fns.clang_defaultReparseOptions)
#define clang_disposeIndex (clang_lib_fns.clang_disposeIndex)
#define clang_disposeString (clang_lib_fns.clang_disposeString)
#define clang_disposeTokens (clang_lib_fns.clang_disposeTokens)
#define clang_disposeTranslationUnit (clang_lib_fns.clang_disposeTranslationUnit)
#define clang_getCString (clang_lib_fns.clang_getCString)
#define clang_getCanonicalType (clang_lib_fns.clang_getCanonicalType)
#define clang_getCursorExtent (clang_lib_fns.clang_getCursorExtent)
#define clang_getCursorKind (clang_lib_fns.clang_getCursorKind)
#define clang_getCursorLocation (clang_lib_fns.clang_getCursorLocation)
#define clang_getCursorReferenced (clang_lib_fns.clang_getCursorReferenced)
#define clang_getCursorResultType (clang_lib_fns.clang_getCursorResultType)
#define clang_getCursorSemanticParent (clang_lib_fns.clang_getCursorSemanticParent)
#define clang_getCursorSpelling (clang_lib_fns.clang_getCursorSpelling)
#define clang_getCursorType (clang_lib_fns.clang_getCursorType)
#define clang_getFile (clang_lib_fns.clang_getFile)
#define clang_getFileLocation (clang_lib_fns.clang_getFileLocation)
#define clang_getLocationForOffset (clang_lib_fns.clang_getLocationForOffset)
#define clang_getNumOverloadedDecls (clang_lib_fns.clang_getNumOverloadedDecls)
#define clang_getOverloadedDecl (clang_lib_fns.clang_getOverloadedDecl)
#define clang_getPointeeType (clang_lib_fns.clang_getPointeeType)
#define clang_getRange (clang_lib_fns.clang_getRange)
#define clang_getRangeEnd (clang_lib_fns.clang_getRangeEnd)
#define clang_getRangeStart (clang_lib_fns.clang_getRangeStart)
#define clang_getTemplateCursorKind (clang_lib_fns.clang_getTemplateCursorKind)
#define clang_getTokenExtent (clang_lib_fns.clang_getTokenExtent)
#define clang_getTokenKind (clang_lib_fns.clang_getTokenKind)
#define clang_getTranslationUnitCursor (clang_lib_fns.clang_getTranslationUnitCursor)
#define clang_getTypeDeclaration (clang_lib_fns.clang_getTypeDeclaration)
#define clang_isCursorDefinition (clang_lib_fns.clang_isCursorDefinition)
#define clang_isDeclaration (clang_lib_fns.clang_isDeclaration)
#define clang_isInvalid (clang_lib_fns.clang_isInvalid)
#define clang_parseTranslationUnit2 (clang_lib_fns.clang_parseTranslationUnit2)
#define clang_reparseTranslationUnit (clang_lib_fns.clang_reparseTranslationUnit)
#define clang_tokenize (clang_lib_fns.clang_tokenize)
#define clang_visitChildren (clang_lib_fns.clang_visitChildren)
#endif

#endif
