/*
 * text_protocol.c: the snprintf-style buffer protocol of the text functions, checked for
 * any of them (size query, exact fit, every truncated length, len 0, NULL buffer), and small
 * string helpers for checking the texts themselves.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text_protocol.h"

#define SLACK 16

picollo_status call_table(const text_args *t, char *buf, size_t len, size_t *needed)
{
    return picollo_summary_table(t->a, t->title, buf, len, needed);
}
picollo_status call_diff(const text_args *t, char *buf, size_t len, size_t *needed)
{
    return picollo_summary_diff(t->a, t->b, t->title, t->name_a, t->name_b, buf, len, needed);
}
picollo_status call_line(const text_args *t, char *buf, size_t len, size_t *needed)
{
    return picollo_summary_line(t->a, t->title, buf, len, needed);
}
picollo_status call_json(const text_args *t, char *buf, size_t len, size_t *needed)
{
    return picollo_summary_json(t->a, buf, len, needed);
}
picollo_status call_format(const text_args *t, char *buf, size_t len, size_t *needed)
{
    return picollo_percentile_format(t->p, buf, len, needed);
}
picollo_status call_htable(const text_args *t, char *buf, size_t len, size_t *needed)
{
    return picollo_histogram_table(t->h, t->title, buf, len, needed);
}

static int is_continuation(unsigned char c)
{
    return (c & 0xC0) == 0x80;
}

/* Well-formed UTF-8 (structure only: lead byte, then its continuation bytes). */
static int valid_utf8(const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        int extra = *p < 0x80 ? 0 : (*p & 0xE0) == 0xC0 ? 1 : (*p & 0xF0) == 0xE0 ? 2
                                : (*p & 0xF8) == 0xF0   ? 3 : -1;
        int k;
        if (extra < 0) {
            return 0;
        }
        for (k = 1; k <= extra; k++) {
            if (!is_continuation(p[k])) {
                return 0;
            }
        }
        p += extra + 1;
    }
    return 1;
}

int starts_with(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

static size_t bounded_len(const char *s, size_t max)
{
    size_t n = 0;
    while (n < max && s[n] != '\0') {
        n++;
    }
    return n;
}

int canary_intact(const char *buf, size_t from, size_t to)
{
    size_t k;
    for (k = from; k < to; k++) {
        if ((unsigned char)buf[k] != CANARY) {
            return 0;
        }
    }
    return 1;
}

/* One truncated call with capacity `len` (< full length + 1): returns the bytes kept, or
 * (size_t)-1 after printing why the result breaks the protocol. */
static size_t truncated(const char *name, text_fn fn, const text_args *t, const char *full,
                        size_t needed, char *buf, size_t len)
{
    size_t nd = 0, k, j;
    picollo_status st;
    memset(buf, CANARY, needed + 1 + SLACK);
    st = fn(t, buf, len, &nd);
    k = bounded_len(buf, len);
    if (st != PICOLLO_STATUS_BUFFER_TOO_SMALL || nd != needed || k == len ||
        !canary_intact(buf, len, needed + 1 + SLACK) || memcmp(buf, full, k) != 0 ||
        k + 4 <= len || is_continuation((unsigned char)full[k])) {
        fprintf(stderr, "  %s, len %zu: status %u, needed %zu/%zu, kept %zu\n", name, len,
                (unsigned)st, nd, needed, k);
        return (size_t)-1;
    }
    /* The largest character boundary that fits: everything dropped belongs to full[k]'s
     * character. */
    for (j = k + 1; j < len; j++) {
        if (!is_continuation((unsigned char)full[j])) {
            fprintf(stderr, "  %s, len %zu: kept %zu bytes, %zu would fit\n", name, len, k, j);
            return (size_t)-1;
        }
    }
    return k;
}

/* Drive `fn` through the whole buffer protocol and return its full text (malloc'ed), or
 * NULL when the size query already fails. */
char *render_at(int line, const char *name, text_fn fn, const text_args *t)
{
    size_t needed = 12345, n2 = 0, len;
    char *full, *buf;
    int all_ok = 1;
    picollo_status st;

    prime_error();
    st = fn(t, NULL, 0, &needed);
    expect_at(line, name, st, PICOLLO_STATUS_BUFFER_TOO_SMALL, "too small");
    if (st != PICOLLO_STATUS_BUFFER_TOO_SMALL || needed == 12345 || needed == 0) {
        check_at(line, 0, name, "size query gave needed = %zu", needed);
        return NULL;
    }
    full = malloc(needed + 1 + SLACK);
    buf = malloc(needed + 1 + SLACK);
    if (full == NULL || buf == NULL) {
        fprintf(stderr, "FATAL: out of memory\n");
        exit(2);
    }

    /* Exact fit. */
    memset(full, CANARY, needed + 1 + SLACK);
    prime_error();
    expect_at(line, name, fn(t, full, needed + 1, &n2), PICOLLO_STATUS_OK, NULL);
    check_at(line, n2 == needed && strlen(full) == needed, name, "exact fit: needed %zu/%zu, strlen %zu",
             n2, needed, strlen(full));
    check_at(line, canary_intact(full, needed + 1, needed + 1 + SLACK), name,
             "exact fit wrote past the buffer");
    check_at(line, valid_utf8(full), name, "output is not valid UTF-8");

    /* `needed` may be NULL; the text is the same every time. */
    memset(buf, CANARY, needed + 1 + SLACK);
    check_at(line, fn(t, buf, needed + 1 + SLACK, NULL) == PICOLLO_STATUS_OK && strcmp(buf, full) == 0,
             name, "a larger buffer without `needed` gives another text");

    /* One byte short: truncated, NUL-terminated, BUFFER_TOO_SMALL, `needed` right. */
    prime_error();
    n2 = 0;
    memset(buf, CANARY, needed + 1 + SLACK);
    expect_at(line, name, fn(t, buf, needed, &n2), PICOLLO_STATUS_BUFFER_TOO_SMALL, NULL);
    check_at(line, n2 == needed && bounded_len(buf, needed) < needed &&
                       memcmp(buf, full, strlen(buf)) == 0 && strlen(buf) + 4 > needed &&
                       canary_intact(buf, needed, needed + 1 + SLACK),
             name, "one byte short: needed %zu/%zu, kept %zu", n2, needed,
             bounded_len(buf, needed));

    /* Every shorter capacity. */
    for (len = 1; len <= needed; len++) {
        if (truncated(name, fn, t, full, needed, buf, len) == (size_t)-1) {
            all_ok = 0;
            break;
        }
    }
    check_at(line, all_ok, name, "some truncated length broke the protocol (see above)");

    /* A real buffer of length 0 is not touched; a NULL buffer with a length is refused as
     * NULL (naming `buf`) and nothing is written, not even `needed`. */
    memset(buf, CANARY, needed + 1 + SLACK);
    n2 = 0;
    prime_error();
    expect_at(line, name, fn(t, buf, 0, &n2), PICOLLO_STATUS_BUFFER_TOO_SMALL, NULL);
    check_at(line, n2 == needed && canary_intact(buf, 0, needed + 1 + SLACK), name,
             "len 0 wrote into the buffer");
    n2 = 0;
    prime_error();
    expect_at(line, name, fn(t, NULL, 100, &n2), PICOLLO_STATUS_NULL_POINTER, "`buf`");
    check_at(line, n2 == 0, name, "(NULL, 100) wrote needed %zu", n2);
    prime_error();
    expect_at(line, name, fn(t, NULL, 0, NULL), PICOLLO_STATUS_BUFFER_TOO_SMALL, NULL);
    free(buf);
    return full;
}

/* Truncating right after the first byte of the first `ch` must drop the whole character. */
void check_no_split_at(int line, const char *name, text_fn fn, const text_args *t,
                              const char *full, const char *ch)
{
    const char *at = strstr(full, ch);
    size_t pos, n = 0;
    char buf[4096];
    if (!check_at(line, at != NULL, name, "no \"%s\" in the text", ch)) {
        return;
    }
    pos = (size_t)(at - full);
    if (!check_at(line, pos + 4 < sizeof buf, name, "\"%s\" too far into the text", ch)) {
        return;
    }
    prime_error();
    expect_at(line, name, fn(t, buf, pos + 2, &n), PICOLLO_STATUS_BUFFER_TOO_SMALL, NULL);
    check_at(line, strlen(buf) == pos && n == strlen(full), name,
             "room for %zu bytes kept %zu (\"%s\" starts at %zu)", pos + 1, strlen(buf), ch, pos);
    expect_at(line, name, fn(t, buf, pos + strlen(ch) + 1, &n), PICOLLO_STATUS_BUFFER_TOO_SMALL, NULL);
    check_at(line, strlen(buf) == pos + strlen(ch) && strcmp(buf + pos, ch) == 0, name,
             "the whole character fits but was not kept");
}

/* Thousands separators, as the tables print integers. */
const char *grouped(uint64_t v, char *out)
{
    char digits[32];
    size_t n, i, o = 0;
    sprintf(digits, "%llu", (unsigned long long)v);
    n = strlen(digits);
    for (i = 0; i < n; i++) {
        if (i > 0 && (n - i) % 3 == 0) {
            out[o++] = ',';
        }
        out[o++] = digits[i];
    }
    out[o] = '\0';
    return out;
}

size_t count_of(const char *hay, const char *needle)
{
    size_t n = 0;
    const char *p = hay;
    while ((p = strstr(p, needle)) != NULL) {
        n++;
        p += strlen(needle);
    }
    return n;
}

static size_t code_points(const char *s, size_t bytes)
{
    size_t n = 0, k;
    for (k = 0; k < bytes; k++) {
        n += !is_continuation((unsigned char)s[k]);
    }
    return n;
}

/* Every line of a Markdown table (after an optional "#####" title) has the same width in
 * characters: the columns are aligned. Returns the number of table lines. */
size_t aligned_lines(const char *text, int *aligned)
{
    const char *p = text;
    size_t width = 0, lines = 0;
    *aligned = 1;
    if (starts_with(p, "##### ")) {
        p = strchr(p, '\n') + 1;
    }
    while (*p) {
        const char *end = strchr(p, '\n');
        size_t w;
        if (end == NULL) {
            *aligned = 0; /* every line ends with a newline */
            break;
        }
        w = code_points(p, (size_t)(end - p));
        if (lines == 0) {
            width = w;
        }
        *aligned &= w == width && p[0] == '|' && end[-1] == '|';
        lines++;
        p = end + 1;
    }
    return lines;
}
