/*
 * text_protocol.h: drive a text function through the whole snprintf-style protocol and check
 * what comes back (see text_protocol.c).
 */
#ifndef PICOLLO_C_TESTS_TEXT_PROTOCOL_H
#define PICOLLO_C_TESTS_TEXT_PROTOCOL_H

#include <stddef.h>
#include <stdint.h>

#include "check.h"

/* The arguments of any text function, so one driver serves them all. */
typedef struct text_args {
    const picollo_summary *a, *b;
    const picollo_histogram *h;
    const picollo_percentile *p;
    const char *title, *name_a, *name_b;
} text_args;

typedef picollo_status (*text_fn)(const text_args *t, char *buf, size_t len, size_t *needed);

/* Byte the buffers are filled with: what the library must not overwrite. */
#define CANARY 0xA5

/* Adapters from text_args to each text function. */
picollo_status call_table(const text_args *t, char *buf, size_t len, size_t *needed);
picollo_status call_diff(const text_args *t, char *buf, size_t len, size_t *needed);
picollo_status call_line(const text_args *t, char *buf, size_t len, size_t *needed);
picollo_status call_json(const text_args *t, char *buf, size_t len, size_t *needed);
picollo_status call_format(const text_args *t, char *buf, size_t len, size_t *needed);
picollo_status call_htable(const text_args *t, char *buf, size_t len, size_t *needed);

/* Check the whole protocol for `fn` and return its full text (malloc'ed; the caller frees),
 * or NULL when even the size query fails. */
char *render_at(int line, const char *name, text_fn fn, const text_args *t);
#define RENDER(name, fn, t) render_at(__LINE__, (name), (fn), (t))

/* Truncating right after the first byte of the first `ch` in `full` drops the whole
 * character; room for all of it keeps it. */
void check_no_split_at(int line, const char *name, text_fn fn, const text_args *t,
                       const char *full, const char *ch);

int starts_with(const char *s, const char *prefix);
/* Every byte of buf[from, to) is still CANARY. */
int canary_intact(const char *buf, size_t from, size_t to);
/* `v` with thousands separators into `out` (32 bytes are enough); returns `out`. */
const char *grouped(uint64_t v, char *out);
size_t count_of(const char *hay, const char *needle);
/* Lines of a Markdown table (after an optional "#####" heading); *aligned is whether all have
 * the same width in characters and start and end with '|'. */
size_t aligned_lines(const char *text, int *aligned);

#endif /* PICOLLO_C_TESTS_TEXT_PROTOCOL_H */
