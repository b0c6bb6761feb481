/*
 * remnant_int.h — what remnant.c and remnant_ranges.c share: the build's context and the
 * helpers the range passes use (internal to src/analysis/).
 */
#ifndef SUNSET_REMNANT_INT_H
#define SUNSET_REMNANT_INT_H

#include "analysis/remnant.h"
#include "base/pcre.h"

typedef struct build_ctx {

    const sunset_result *res;
    const sunset_ruleset *rs;
    const rm_plan *plan;
    rm_chain_writer write;
    pcre2_match_data *md;
    /* the text of the file being built, for the range passes (remnant_ranges.c file_text):
     * read on first need, once for all of them; build_file frees it after the file */
    sb text;
    bool text_tried;
} build_ctx;

/* remnant.c */
bool rem_absorb(sunset_remnant *a, sunset_remnant *b);
bool rem_evidence(sunset_remnant *m, const char *s);
sunset_severity rem_severity(const build_ctx *c, const sunset_remnant *m);
void rem_line_range(sb *b, uint32_t a, uint32_t z);
bool rem_one_edit(const sunset_result *res, const sunset_remnant *a, const sunset_remnant *b);
const rm_item *rem_plan_file(const rm_plan *p, const char *path);
char *rem_callers_text(const rm_item *it);
bool rem_word_in(const char *s, const char *w); /* w a whole word of s */
/* The local name a C++ or Python declaration line declares (`auto *op =`, `x = ...`) into buf. */
bool rem_declares(sunset_lang l, const char *line, char *buf, size_t cap);

/* remnant_ranges.c: each over the file's remnants out->v[first..]; -1 on OOM */
int rem_merge_overlap(build_ctx *c, sunset_remnants *out, size_t first);
int rem_attach_text(build_ctx *c, sunset_remnants *out, size_t first);
int rem_block_ranges(build_ctx *c, sunset_remnants *out, size_t first);
void rem_path_remnants(build_ctx *c, sunset_remnants *out, size_t first, uint32_t last);

#endif
