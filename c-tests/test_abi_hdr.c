/*
 * test_abi_hdr.c: HdrHistogram interoperability through the C ABI. V2 encoding in its three
 * forms (size queries, binary outputs written whole or not at all, base64 through the text
 * protocol), decoding back bucket for bucket, bad and truncated input, adding a V2 blob into
 * another layout; the .hgrm percentile distribution; the interval log writer (header,
 * comments, intervals, taking the text) and reader (times, tags, histograms, a bad line
 * named and skipped, the end), and log sums by tag and window.
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text_protocol.h"

/* HdrHistogram's 3 significant digits: block size 1024. */
#define THREE_DIGITS (0.5 / 1024.0)
/* 2023-11-14T22:13:20Z. */
#define T0 1700000000.0

/* ---- helpers ---- */

static picollo_histogram *sample(uint32_t bits, double relative_error)
{
    picollo_histogram *h = make_histogram(bits, relative_error, 0, UINT64_MAX);
    uint64_t i;
    for (i = 1; i < 3000; i++) {
        picollo_histogram_record(h, i * i * 7 + i);
    }
    return h;
}

/* The non-empty buckets of `h` (malloc'ed, `*n` of them), from one consistent copy. */
static picollo_bucket *buckets_of(const picollo_histogram *h, size_t *n)
{
    size_t cap = (size_t)info_of(h).storage_len, cursor = 0;
    picollo_bucket *b = malloc(cap * sizeof *b);
    *n = 0;
    if (b == NULL) {
        fprintf(stderr, "FATAL: out of memory\n");
        exit(2);
    }
    CHECK(picollo_histogram_next_buckets(h, &cursor, b, cap, n) == PICOLLO_STATUS_OK);
    return b;
}

/* Same non-empty buckets (values and counts), same underflow and overflow. */
static int same_buckets(const picollo_histogram *a, const picollo_histogram *b)
{
    size_t na, nb, i;
    picollo_bucket *ba = buckets_of(a, &na), *bb = buckets_of(b, &nb);
    picollo_histogram_info ia = info_of(a), ib = info_of(b);
    int same = na == nb && ia.underflow == ib.underflow && ia.overflow == ib.overflow;
    for (i = 0; same && i < na; i++) {
        same = ba[i].lower == bb[i].lower && ba[i].highest == bb[i].highest &&
               ba[i].count == bb[i].count;
    }
    free(ba);
    free(bb);
    return same;
}

/* The whole output of encode_v2 in `form` (malloc'ed, `*n` bytes, base64 NUL-terminated),
 * after checking the size query. */
static uint8_t *encoded(const picollo_histogram *h, uint32_t form, size_t *n)
{
    size_t needed = 0, again = 0, extra = form == PICOLLO_V2_FORM_BASE64;
    uint8_t *buf;
    EXPECT(picollo_histogram_encode_v2(h, form, NULL, 0, &needed), PICOLLO_STATUS_BUFFER_TOO_SMALL);
    buf = malloc(needed + extra + 1);
    if (buf == NULL) {
        fprintf(stderr, "FATAL: out of memory\n");
        exit(2);
    }
    EXPECT(picollo_histogram_encode_v2(h, form, buf, needed + extra, &again), PICOLLO_STATUS_OK);
    CHECK(again == needed);
    *n = needed;
    return buf;
}

static picollo_histogram *decoded(const void *data, size_t len, picollo_status want)
{
    picollo_histogram *out = NULL;
    EXPECT(picollo_histogram_decode_v2(data, len, &out), want);
    CHECK((out != NULL) == (want == PICOLLO_STATUS_OK));
    return out;
}

/* ---- V2 ---- */

static picollo_status call_base64(const text_args *t, char *buf, size_t len, size_t *needed)
{
    return picollo_histogram_encode_v2(t->h, PICOLLO_V2_FORM_BASE64, (uint8_t *)buf, len, needed);
}

static void test_v2_round_trips(void)
{
    picollo_histogram *h = sample(64, THREE_DIGITS), *back;
    uint32_t form;
    text_args t;
    char *text;

    for (form = PICOLLO_V2_FORM_PLAIN; form <= PICOLLO_V2_FORM_BASE64; form++) {
        size_t n = 0;
        uint8_t *bytes = encoded(h, form, &n);
        picollo_histogram_info info;
        if (form == PICOLLO_V2_FORM_BASE64) {
            CHECK(memcmp(bytes, "HISTFAAA", 8) == 0 && bytes[n] == 0 && strlen((char *)bytes) == n);
        } else {
            CHECKF(bytes[0] == 0x1c && bytes[1] == 0x84 && bytes[2] == 0x93 &&
                       bytes[3] == (form == PICOLLO_V2_FORM_PLAIN ? 0x13 : 0x14),
                   "form %u: cookie %02x%02x%02x%02x", (unsigned)form, bytes[0], bytes[1],
                   bytes[2], bytes[3]);
        }
        back = decoded(bytes, n, PICOLLO_STATUS_OK);
        if (back != NULL) {
            CHECKF(same_buckets(h, back), "form %u", (unsigned)form);
            info = info_of(back);
            CHECK(info.counter_bits == 64 && info.mode == PICOLLO_MODE_SINGLE_WRITER);
            CHECK(info.relative_error == THREE_DIGITS && info.total == info_of(h).total);
        }
        picollo_histogram_free(back);
        free(bytes);
    }

    /* Base64 follows the text protocol; surrounding whitespace is ignored when decoding. */
    memset(&t, 0, sizeof t);
    t.h = h;
    text = RENDER("picollo_histogram_encode_v2 (base64)", call_base64, &t);
    if (text != NULL) {
        size_t n = strlen(text);
        char *padded = malloc(n + 5);
        CHECK(padded != NULL);
        if (padded != NULL) {
            sprintf(padded, " \n%s\r\n", text);
            back = decoded(padded, n + 4, PICOLLO_STATUS_OK);
            CHECK(back != NULL && same_buckets(h, back));
            picollo_histogram_free(back);
            free(padded);
        }
    }
    free(text);
    picollo_histogram_free(h);
}

static void test_v2_binary_buffers(void)
{
    picollo_histogram *h = sample(32, THREE_DIGITS);
    uint32_t form;
    for (form = PICOLLO_V2_FORM_PLAIN; form <= PICOLLO_V2_FORM_COMPRESSED; form++) {
        size_t n = 0, needed = 0, i;
        uint8_t *full = encoded(h, form, &n);
        uint8_t *buf = malloc(n + 16);
        const size_t lens[3] = {1, n / 2, n - 1};
        int intact = 1;
        CHECK(buf != NULL);
        if (buf == NULL) {
            free(full);
            continue;
        }
        /* Too small: BUFFER_TOO_SMALL, the size reported, not one byte written. */
        for (i = 0; i < 3; i++) {
            memset(buf, CANARY, n + 16);
            needed = 0;
            EXPECT_MSG(picollo_histogram_encode_v2(h, form, buf, lens[i], &needed),
                       PICOLLO_STATUS_BUFFER_TOO_SMALL, "too small");
            CHECK(needed == n);
            intact &= canary_intact((char *)buf, 0, n + 16);
        }
        CHECKF(intact, "form %u wrote into a buffer too small", (unsigned)form);
        /* Large enough: the bytes and nothing past them; `needed` may be NULL. */
        memset(buf, CANARY, n + 16);
        EXPECT(picollo_histogram_encode_v2(h, form, buf, n + 16, NULL), PICOLLO_STATUS_OK);
        CHECK(memcmp(buf, full, n) == 0 && canary_intact((char *)buf, n, n + 16));
        /* A NULL buffer with a length is refused; `needed` is untouched. */
        needed = 7;
        EXPECT_MSG(picollo_histogram_encode_v2(h, form, NULL, 100, &needed),
                   PICOLLO_STATUS_NULL_POINTER, "`buf`");
        CHECK(needed == 7);
        free(buf);
        free(full);
    }
    EXPECT_MSG(picollo_histogram_encode_v2(h, 3, NULL, 0, NULL), PICOLLO_STATUS_INVALID_ARGUMENT,
               "form 3");
    EXPECT_MSG(picollo_histogram_encode_v2(NULL, 0, NULL, 0, NULL), PICOLLO_STATUS_NULL_POINTER, "`h`");
    picollo_histogram_free(h);

    /* Saturated counts have no place in V2: UNENCODABLE, nothing written. */
    h = make_histogram(32, THREE_DIGITS, 0, UINT64_MAX);
    picollo_histogram_record_n(h, 5, UINT64_MAX);
    for (form = PICOLLO_V2_FORM_PLAIN; form <= PICOLLO_V2_FORM_BASE64; form++) {
        size_t needed = 7;
        EXPECT_MSG(picollo_histogram_encode_v2(h, form, NULL, 0, &needed), PICOLLO_STATUS_UNENCODABLE,
                   "saturated");
        CHECK(needed == 7);
    }
    picollo_histogram_free(h);
}

/* The deflate level is the caller's: every level from 0 (stored) to 10 decodes to the same
 * buckets, level 1 is what encode_v2 writes, the plain form ignores the level, and a level
 * above 10 is refused with the value named. */
static void test_v2_levels(void)
{
    picollo_histogram *h = sample(64, THREE_DIGITS), *back;
    size_t n1 = 0, plain_n = 0, sizes[11] = {0};
    uint8_t *one = encoded(h, PICOLLO_V2_FORM_COMPRESSED, &n1);
    uint8_t *plain = encoded(h, PICOLLO_V2_FORM_PLAIN, &plain_n);
    uint8_t *buf = malloc(plain_n * 2 + 1024);
    uint32_t level;

    CHECK(buf != NULL);
    for (level = 0; buf != NULL && level <= 10; level++) {
        EXPECT(picollo_histogram_encode_v2_level(h, PICOLLO_V2_FORM_COMPRESSED, level, buf,
                                                 plain_n * 2 + 1024, &sizes[level]),
               PICOLLO_STATUS_OK);
        back = decoded(buf, sizes[level], PICOLLO_STATUS_OK);
        CHECKF(back != NULL && same_buckets(h, back), "level %u", (unsigned)level);
        picollo_histogram_free(back);
        if (level == 1) {
            CHECK(sizes[1] == n1 && memcmp(buf, one, n1) == 0);
        }
    }
    CHECKF(sizes[0] > sizes[1] && sizes[1] > sizes[9], "sizes at levels 0, 1, 9: %zu %zu %zu",
           sizes[0], sizes[1], sizes[9]);
    if (buf != NULL) {
        size_t n = 0;
        EXPECT(picollo_histogram_encode_v2_level(h, PICOLLO_V2_FORM_PLAIN, 9, buf, plain_n, &n),
               PICOLLO_STATUS_OK);
        CHECK(n == plain_n && memcmp(buf, plain, n) == 0);
    }
    EXPECT_MSG(picollo_histogram_encode_v2_level(h, PICOLLO_V2_FORM_BASE64, 11, NULL, 0, NULL),
               PICOLLO_STATUS_INVALID_ARGUMENT, "level is 11");
    free(buf);
    free(plain);
    free(one);
    picollo_histogram_free(h);
}

static void test_v2_bad_input(void)
{
    picollo_histogram *h = sample(64, THREE_DIGITS), *target = make_histogram(64, 0.01, 0, UINT64_MAX);
    size_t np = 0, nc = 0, nt = 0;
    uint8_t *plain = encoded(h, PICOLLO_V2_FORM_PLAIN, &np);
    uint8_t *compressed = encoded(h, PICOLLO_V2_FORM_COMPRESSED, &nc);
    uint8_t *text = encoded(h, PICOLLO_V2_FORM_BASE64, &nt);
    static const uint8_t v1[8] = {0x1c, 0x84, 0x93, 0x09, 0, 0, 0, 0};
    static const uint8_t dbl[8] = {0x0c, 0x72, 0x12, 0x49, 0, 0, 0, 0};
    struct {
        const void *data;
        size_t len;
        const char *why;
    } cases[9];
    size_t i;
    uint8_t *corrupt = malloc(nc);
    picollo_histogram *out = NULL;

    CHECK(corrupt != NULL);
    if (corrupt == NULL) {
        return;
    }
    memcpy(corrupt, compressed, nc);
    corrupt[20] ^= 0xff;
    cases[0].data = ""; cases[0].len = 0; cases[0].why = "truncated";
    cases[1].data = "hello, world"; cases[1].len = 12; cases[1].why = "base64";
    cases[2].data = text; cases[2].len = nt - 3; cases[2].why = "base64";
    cases[3].data = plain; cases[3].len = np - 1; cases[3].why = "length";
    cases[4].data = plain; cases[4].len = 20; cases[4].why = "truncated";
    cases[5].data = compressed; cases[5].len = nc - 5; cases[5].why = "length";
    cases[6].data = corrupt; cases[6].len = nc; cases[6].why = "zlib";
    cases[7].data = v1; cases[7].len = sizeof v1; cases[7].why = "V1";
    cases[8].data = dbl; cases[8].len = sizeof dbl; cases[8].why = "DoubleHistogram";
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        out = NULL;
        EXPECT_MSG(picollo_histogram_decode_v2(cases[i].data, cases[i].len, &out),
                   PICOLLO_STATUS_FORMAT_ERROR, cases[i].why);
        CHECKF(out == NULL, "case %zu", i);
        /* add_v2 checks the whole input first: nothing is added. */
        EXPECT_MSG(picollo_histogram_add_v2(target, cases[i].data, cases[i].len),
                   PICOLLO_STATUS_FORMAT_ERROR, cases[i].why);
        CHECKF(info_of(target).total == 0, "case %zu added counts", i);
    }
    EXPECT_MSG(picollo_histogram_decode_v2(NULL, 1, &out), PICOLLO_STATUS_NULL_POINTER, "`data`");
    EXPECT_MSG(picollo_histogram_decode_v2(plain, np, NULL), PICOLLO_STATUS_NULL_POINTER, "`out`");
    EXPECT_MSG(picollo_histogram_add_v2(NULL, plain, np), PICOLLO_STATUS_NULL_POINTER, "`h`");
    EXPECT_MSG(picollo_histogram_add_v2(target, NULL, 1), PICOLLO_STATUS_NULL_POINTER, "`data`");
    free(corrupt);
    free(plain);
    free(compressed);
    free(text);
    picollo_histogram_free(target);
    picollo_histogram_free(h);
}

/* Adding a V2 blob into another layout records each bucket's count at its midpoint. */
static void test_add_v2(void)
{
    picollo_histogram *src = sample(64, THREE_DIGITS);
    picollo_histogram_config c = picollo_histogram_config_default();
    picollo_histogram *dst = NULL, *want = make_histogram(32, 0.01, 0, UINT64_MAX);
    size_t nc = 0, nt = 0, n = 0, i;
    uint8_t *compressed = encoded(src, PICOLLO_V2_FORM_COMPRESSED, &nc);
    uint8_t *text = encoded(src, PICOLLO_V2_FORM_BASE64, &nt);
    picollo_bucket *b = buckets_of(src, &n);

    for (i = 0; i < n; i++) {
        picollo_histogram_record_n(want, b[i].value, 2 * b[i].count);
    }
    c.counter_bits = 32;
    c.relative_error = 0.01;
    c.mode = PICOLLO_MODE_INTERLOCKED;
    CHECK(picollo_histogram_new(&c, &dst) == PICOLLO_STATUS_OK);
    EXPECT(picollo_histogram_add_v2(dst, compressed, nc), PICOLLO_STATUS_OK);
    EXPECT(picollo_histogram_add_v2(dst, text, nt), PICOLLO_STATUS_OK);
    CHECK(same_buckets(dst, want));
    CHECK(info_of(dst).total == 2 * info_of(src).total);
    /* Same layout: exact. */
    EXPECT(picollo_histogram_add_v2(src, compressed, nc), PICOLLO_STATUS_OK);
    for (i = 0; i < n; i++) {
        picollo_bucket after;
        CHECK(picollo_histogram_bucket(src, (size_t)b[i].storage_index, &after) == PICOLLO_STATUS_OK &&
              after.count == 2 * b[i].count);
    }
    free(b);
    free(compressed);
    free(text);
    picollo_histogram_free(dst);
    picollo_histogram_free(want);
    picollo_histogram_free(src);
}

/* ---- .hgrm ---- */

static uint32_t hgrm_ticks = 5, hgrm_csv;
static double hgrm_ratio = 1.0;

static picollo_status call_hgrm(const text_args *t, char *buf, size_t len, size_t *needed)
{
    return picollo_histogram_hgrm(t->h, hgrm_ticks, hgrm_ratio, hgrm_csv, buf, len, needed);
}

static void test_hgrm(void)
{
    picollo_histogram *h = make_histogram(64, THREE_DIGITS, 0, UINT64_MAX);
    text_args t;
    char *text;
    uint64_t v;
    size_t needed;

    for (v = 1; v <= 1000; v++) {
        picollo_histogram_record(h, v);
    }
    memset(&t, 0, sizeof t);
    t.h = h;
    text = RENDER("picollo_histogram_hgrm", call_hgrm, &t);
    if (text != NULL) {
        /* HdrHistogram's outputPercentileDistribution(5, 1.0) for 1..=1000 at 3 digits. */
        CHECK(starts_with(text, "       Value     Percentile TotalCount 1/(1-Percentile)\n\n"));
        CHECK(strstr(text, "\n       1.000 0.000000000000          1           1.00\n") != NULL);
        CHECK(strstr(text, "\n    1000.000 1.000000000000       1000\n") != NULL);
        CHECK(strstr(text, "#[Mean    =      500.500, StdDeviation   =      288.675]\n") != NULL);
        CHECK(strstr(text, "#[Buckets =           54, SubBuckets     =         2048]\n") != NULL);
    }
    free(text);
    hgrm_ticks = 1;
    hgrm_ratio = 1000.0;
    hgrm_csv = 1;
    text = RENDER("picollo_histogram_hgrm (csv)", call_hgrm, &t);
    if (text != NULL) {
        CHECK(starts_with(text, "\"Value\",\"Percentile\",\"TotalCount\",\"1/(1-Percentile)\"\n"));
        CHECK(strstr(text, "\n1.000,1.000000000000,1000,Infinity\n") != NULL);
        CHECK(strstr(text, "#[") == NULL);
    }
    free(text);
    hgrm_ticks = 5;
    hgrm_ratio = 1.0;
    hgrm_csv = 0;
    EXPECT_MSG(picollo_histogram_hgrm(h, 0, 1.0, 0, NULL, 0, &needed), PICOLLO_STATUS_INVALID_ARGUMENT,
               "ticks_per_half_distance");
    EXPECT_MSG(picollo_histogram_hgrm(h, 5, 0.0, 0, NULL, 0, &needed), PICOLLO_STATUS_INVALID_ARGUMENT,
               "unit_ratio");
    EXPECT_MSG(picollo_histogram_hgrm(h, 5, NAN, 0, NULL, 0, &needed), PICOLLO_STATUS_INVALID_ARGUMENT,
               "NaN");
    EXPECT_MSG(picollo_histogram_hgrm(h, 5, -INFINITY, 0, NULL, 0, &needed),
               PICOLLO_STATUS_INVALID_ARGUMENT, "unit_ratio");
    EXPECT_MSG(picollo_histogram_hgrm(NULL, 5, 1.0, 0, NULL, 0, &needed), PICOLLO_STATUS_NULL_POINTER, "`h`");
    picollo_histogram_free(h);
}

/* ---- interval logs ---- */

/* The pending text of `w`, taken (malloc'ed), after checking that a buffer too small takes
 * nothing. */
static char *take(picollo_log_writer *w)
{
    size_t needed = 0, again = 0;
    char small[4], *text;
    EXPECT(picollo_log_writer_take(w, NULL, 0, &needed), PICOLLO_STATUS_BUFFER_TOO_SMALL);
    if (needed >= sizeof small) {
        EXPECT(picollo_log_writer_take(w, small, sizeof small, &again), PICOLLO_STATUS_BUFFER_TOO_SMALL);
        CHECK(again == needed && small[sizeof small - 1] == '\0');
    }
    text = malloc(needed + 1);
    if (text == NULL) {
        fprintf(stderr, "FATAL: out of memory\n");
        exit(2);
    }
    again = 0;
    EXPECT(picollo_log_writer_take(w, text, needed + 1, &again), PICOLLO_STATUS_OK);
    CHECK(again == needed && strlen(text) == needed);
    /* Taken: nothing pending. */
    EXPECT(picollo_log_writer_take(w, NULL, 0, &again), PICOLLO_STATUS_BUFFER_TOO_SMALL);
    CHECK(again == 0);
    return text;
}

/* Header at T0 (start and base), a comment, then intervals untagged at T0, `api` at T0 + 1
 * and untagged at T0 + 3 (lines 6, 7, 8). */
static char *sample_log(const picollo_histogram *a, const picollo_histogram *b)
{
    picollo_log_writer *w = NULL;
    char *text;
    EXPECT(picollo_log_writer_new(&w), PICOLLO_STATUS_OK);
    EXPECT(picollo_log_writer_header(w, T0, T0), PICOLLO_STATUS_OK);
    EXPECT(picollo_log_writer_comment(w, "written by test_abi_hdr"), PICOLLO_STATUS_OK);
    EXPECT(picollo_log_writer_set_max_unit_ratio(w, 1.0), PICOLLO_STATUS_OK);
    EXPECT(picollo_log_writer_interval(w, a, NULL, T0, 1.0), PICOLLO_STATUS_OK);
    EXPECT(picollo_log_writer_interval(w, b, "api", T0 + 1.0, 2.5), PICOLLO_STATUS_OK);
    EXPECT(picollo_log_writer_interval(w, a, "", T0 + 3.0, 1.0), PICOLLO_STATUS_OK);
    text = take(w);
    picollo_log_writer_free(w);
    return text;
}

static picollo_log_interval interval_init(void)
{
    picollo_log_interval i;
    memset(&i, 0, sizeof i);
    i.struct_size = sizeof i;
    return i;
}

static picollo_log_reader *current_reader;

static picollo_status call_tag(const text_args *t, char *buf, size_t len, size_t *needed)
{
    (void)t;
    return picollo_log_reader_tag(current_reader, buf, len, needed);
}

static void test_log_writer(void)
{
    picollo_log_writer *w = NULL;
    picollo_histogram *h = make_histogram(64, THREE_DIGITS, 0, UINT64_MAX);
    picollo_histogram *sat = make_histogram(32, THREE_DIGITS, 0, UINT64_MAX);
    char *text;

    picollo_histogram_record(h, 1500000);
    picollo_histogram_record_n(sat, 1, UINT64_MAX);
    EXPECT(picollo_log_writer_new(&w), PICOLLO_STATUS_OK);
    EXPECT(picollo_log_writer_header(w, T0, NAN), PICOLLO_STATUS_OK);
    EXPECT(picollo_log_writer_comment(w, "two\nlines"), PICOLLO_STATUS_OK);
    EXPECT(picollo_log_writer_interval(w, h, "db", 0.5, 1.0), PICOLLO_STATUS_OK);
    text = take(w);
    CHECKF(starts_with(text, "#[Histogram log format version 1.3]\n"
                             "#[StartTime: 1700000000.000 (seconds since epoch), 2023-11-14T22:13:20Z]\n"
                             "\"StartTimestamp\",\"Interval_Length\",\"Interval_Max\","
                             "\"Interval_Compressed_Histogram\"\n"
                             "#two\n#lines\nTag=db,0.500,1.000,1.500,HISTFAAA") &&
               count_of(text, "\n") == 6,
           "%s", text);
    free(text);

    /* Bad arguments write nothing. */
    EXPECT_MSG(picollo_log_writer_header(w, -1.0, NAN), PICOLLO_STATUS_INVALID_ARGUMENT, "time");
    EXPECT_MSG(picollo_log_writer_header(w, NAN, INFINITY), PICOLLO_STATUS_INVALID_ARGUMENT, "time");
    EXPECT_MSG(picollo_log_writer_set_max_unit_ratio(w, 0.0), PICOLLO_STATUS_INVALID_ARGUMENT, "ratio");
    EXPECT_MSG(picollo_log_writer_interval(w, h, "a b", 0.0, 1.0), PICOLLO_STATUS_INVALID_ARGUMENT, "tag");
    EXPECT_MSG(picollo_log_writer_interval(w, h, NULL, -1.0, 1.0), PICOLLO_STATUS_INVALID_ARGUMENT, "start");
    EXPECT_MSG(picollo_log_writer_interval(w, h, NULL, 0.0, -1.0), PICOLLO_STATUS_INVALID_ARGUMENT, "length");
    EXPECT_MSG(picollo_log_writer_interval(w, sat, NULL, 0.0, 1.0), PICOLLO_STATUS_UNENCODABLE, "saturated");
    EXPECT_MSG(picollo_log_writer_interval(w, NULL, NULL, 0.0, 1.0), PICOLLO_STATUS_NULL_POINTER, "`h`");
    EXPECT_MSG(picollo_log_writer_comment(w, NULL), PICOLLO_STATUS_NULL_POINTER, "`text`");
    {
        size_t needed = 9;
        EXPECT(picollo_log_writer_take(w, NULL, 0, &needed), PICOLLO_STATUS_BUFFER_TOO_SMALL);
        CHECK(needed == 0);
    }
    picollo_log_writer_free(w);
    picollo_histogram_free(h);
    picollo_histogram_free(sat);
}

static void test_log_reader(void)
{
    picollo_histogram *a = sample(64, THREE_DIGITS), *b = make_histogram(64, THREE_DIGITS, 0, UINT64_MAX);
    picollo_histogram *out = NULL;
    picollo_log_reader *r = NULL;
    picollo_log_interval info = interval_init();
    double start = 0, base = 0;
    char *text, *tag;
    text_args t;

    picollo_histogram_record(b, 5);
    picollo_histogram_record(b, 70000);
    text = sample_log(a, b);
    EXPECT(picollo_log_reader_new(text, strlen(text), &r), PICOLLO_STATUS_OK);
    /* The reader owns a copy: the caller's text may go. */
    memset(text, 'x', strlen(text));
    /* The header is read at creation. */
    EXPECT(picollo_log_reader_times(r, &start, &base), PICOLLO_STATUS_OK);
    CHECK(start == T0 && base == T0);

    EXPECT(picollo_log_reader_next(r, &info, &out), PICOLLO_STATUS_OK);
    CHECK(info.struct_size == sizeof info && info.line == 6 && info.start == T0 && info.length == 1.0);
    CHECK(info.significant_digits == 3 && info.has_tag == 0 && info.reserved == 0);
    CHECK(out != NULL && same_buckets(out, a));
    picollo_histogram_free(out);
    out = NULL;

    EXPECT(picollo_log_reader_next(r, &info, &out), PICOLLO_STATUS_OK);
    CHECK(info.line == 7 && info.start == T0 + 1.0 && info.length == 2.5 && info.has_tag == 1);
    CHECKF(info.max >= 70000.0 && info.max < 70100.0, "max %f", info.max);
    CHECK(out != NULL && same_buckets(out, b));
    picollo_histogram_free(out);
    out = NULL;
    current_reader = r;
    memset(&t, 0, sizeof t);
    tag = RENDER("picollo_log_reader_tag", call_tag, &t);
    CHECK(tag != NULL && strcmp(tag, "api") == 0);
    free(tag);

    /* `out` NULL: the interval without its histogram. */
    EXPECT(picollo_log_reader_next(r, &info, NULL), PICOLLO_STATUS_OK);
    CHECK(info.line == 8 && info.start == T0 + 3.0 && info.has_tag == 0);
    {
        char buf[8];
        size_t needed = 9;
        EXPECT(picollo_log_reader_tag(r, buf, sizeof buf, &needed), PICOLLO_STATUS_OK);
        CHECK(buf[0] == '\0' && needed == 0);
    }
    /* The end, as often as asked; nothing written. */
    info.line = 12345;
    EXPECT_MSG(picollo_log_reader_next(r, &info, &out), PICOLLO_STATUS_OUT_OF_RANGE, "no more");
    EXPECT(picollo_log_reader_next(r, &info, &out), PICOLLO_STATUS_OUT_OF_RANGE);
    CHECK(info.line == 12345 && out == NULL);
    picollo_log_reader_free(r);
    free(text);

    /* A log without headers has no times; either output may be NULL. */
    r = NULL;
    EXPECT(picollo_log_reader_new(NULL, 0, &r), PICOLLO_STATUS_OK);
    EXPECT(picollo_log_reader_times(r, &start, NULL), PICOLLO_STATUS_OK);
    EXPECT(picollo_log_reader_times(r, NULL, &base), PICOLLO_STATUS_OK);
    CHECK(isnan(start) && isnan(base));
    EXPECT(picollo_log_reader_next(r, &info, NULL), PICOLLO_STATUS_OUT_OF_RANGE);
    picollo_log_reader_free(r);
    picollo_histogram_free(a);
    picollo_histogram_free(b);
}

/* A bad line is a FORMAT_ERROR naming it, and the reader goes on with the next line. */
static void test_log_bad_lines(void)
{
    picollo_histogram *a = make_histogram(64, THREE_DIGITS, 0, UINT64_MAX), *out = NULL;
    picollo_log_reader *r = NULL;
    picollo_log_interval info = interval_init();
    char *good, *bad, *api;
    size_t n;

    picollo_histogram_record(a, 42);
    good = sample_log(a, a);
    n = strlen(good);
    bad = malloc(n + 64);
    CHECK(bad != NULL);
    if (bad == NULL) {
        free(good);
        return;
    }
    /* Line 7 (`Tag=api,...`) loses the end of its histogram; a line of garbage follows it. */
    api = strstr(good, "\nTag=api,");
    CHECK(api != NULL);
    if (api != NULL) {
        char *eol = strchr(api + 1, '\n');
        size_t head = (size_t)(eol - good) - 4;
        memcpy(bad, good, head);
        strcpy(bad + head, "\n1.0,2.0,x,HISTFAAA");
        strcat(bad, eol);
    }
    EXPECT(picollo_log_reader_new(bad, strlen(bad), &r), PICOLLO_STATUS_OK);
    EXPECT(picollo_log_reader_next(r, &info, &out), PICOLLO_STATUS_OK);
    CHECK(info.line == 6);
    picollo_histogram_free(out);
    out = NULL;
    info.line = 0;
    EXPECT_MSG(picollo_log_reader_next(r, &info, &out), PICOLLO_STATUS_FORMAT_ERROR, "line 7: ");
    CHECK(info.line == 0 && out == NULL);
    EXPECT_MSG(picollo_log_reader_next(r, &info, &out), PICOLLO_STATUS_FORMAT_ERROR,
               "line 8: the interval max field");
    EXPECT(picollo_log_reader_next(r, &info, &out), PICOLLO_STATUS_OK);
    CHECK(info.line == 9 && out != NULL && info_of(out).total == 1);
    picollo_histogram_free(out);
    out = NULL;
    EXPECT(picollo_log_reader_next(r, &info, &out), PICOLLO_STATUS_OUT_OF_RANGE);

    /* Arguments are checked before any line is read. */
    info.struct_size = sizeof info - 1;
    EXPECT_MSG(picollo_log_reader_next(r, &info, &out), PICOLLO_STATUS_STRUCT_SIZE,
               "sizeof(picollo_log_interval)");
    EXPECT_MSG(picollo_log_reader_next(r, NULL, &out), PICOLLO_STATUS_NULL_POINTER, "`info`");
    EXPECT_MSG(picollo_log_reader_next(NULL, &info, &out), PICOLLO_STATUS_NULL_POINTER, "`r`");
    picollo_log_reader_free(r);

    /* A sum stops at the first bad line. */
    EXPECT_MSG(picollo_log_sum(bad, strlen(bad), NULL, NAN, NAN, &out), PICOLLO_STATUS_FORMAT_ERROR,
               "line 7: ");
    CHECK(out == NULL);
    free(bad);
    free(good);
    picollo_histogram_free(a);
}

static uint64_t sum_total(const char *text, const char *tag, double from, double to)
{
    picollo_histogram *out = NULL;
    uint64_t total;
    EXPECT(picollo_log_sum(text, strlen(text), tag, from, to, &out), PICOLLO_STATUS_OK);
    if (out == NULL) {
        return 0;
    }
    total = info_of(out).total;
    picollo_histogram_free(out);
    return total;
}

static void test_log_sum(void)
{
    picollo_histogram *a = make_histogram(64, THREE_DIGITS, 0, UINT64_MAX);
    picollo_histogram *b = make_histogram(64, 0.01, 0, UINT64_MAX);
    picollo_histogram *out = NULL;
    char *text;
    uint64_t v;

    for (v = 1000; v < 1100; v++) {
        picollo_histogram_record(a, v);
    }
    picollo_histogram_record(b, 7);
    text = sample_log(a, b);
    /* Untagged (NULL or ""), the whole log: both untagged intervals. */
    CHECK(sum_total(text, NULL, NAN, NAN) == 200);
    CHECK(sum_total(text, "", NAN, NAN) == 200);
    EXPECT(picollo_log_sum(text, strlen(text), NULL, NAN, NAN, &out), PICOLLO_STATUS_OK);
    if (out != NULL) {
        size_t n = 0;
        picollo_bucket *bs = buckets_of(out, &n);
        CHECK(n == 100 && bs[0].lower == 1000 && bs[0].count == 2 && bs[99].lower == 1099);
        CHECK(info_of(out).relative_error == THREE_DIGITS && info_of(out).mode == PICOLLO_MODE_SINGLE_WRITER);
        free(bs);
    }
    picollo_histogram_free(out);
    /* By tag, and by window over the starts: [from, to). */
    CHECK(sum_total(text, "api", NAN, NAN) == 1);
    CHECK(sum_total(text, NULL, T0 + 0.5, NAN) == 100);
    CHECK(sum_total(text, NULL, NAN, T0 + 3.0) == 100);
    CHECK(sum_total(text, NULL, T0, T0 + 3.5) == 200);
    /* Nothing matches: EMPTY, nothing written. */
    out = NULL;
    EXPECT_MSG(picollo_log_sum(text, strlen(text), "db", NAN, NAN, &out), PICOLLO_STATUS_EMPTY, "no interval");
    EXPECT_MSG(picollo_log_sum(text, strlen(text), NULL, T0 + 4.0, NAN, &out), PICOLLO_STATUS_EMPTY,
               "no interval");
    EXPECT_MSG(picollo_log_sum(text, strlen(text), "api", T0 + 2.0, T0 + 1.0, &out), PICOLLO_STATUS_EMPTY,
               "no interval");
    EXPECT(picollo_log_sum(NULL, 0, NULL, NAN, NAN, &out), PICOLLO_STATUS_EMPTY);
    CHECK(out == NULL);
    EXPECT_MSG(picollo_log_sum(NULL, 5, NULL, NAN, NAN, &out), PICOLLO_STATUS_NULL_POINTER, "`text`");
    EXPECT_MSG(picollo_log_sum(text, strlen(text), NULL, NAN, NAN, NULL), PICOLLO_STATUS_NULL_POINTER, "`out`");
    EXPECT_MSG(picollo_log_sum(text, strlen(text), "\xff", NAN, NAN, &out), PICOLLO_STATUS_INVALID_UTF8, "`tag`");
    free(text);
    picollo_histogram_free(a);
    picollo_histogram_free(b);
}

void test_hdr(void)
{
    /* Blittable: .NET and ctypes mirror these offsets. */
    CHECK(sizeof(picollo_log_interval) == 48);
    CHECK(offsetof(picollo_log_interval, significant_digits) == 4);
    CHECK(offsetof(picollo_log_interval, start) == 8);
    CHECK(offsetof(picollo_log_interval, line) == 32);
    CHECK(offsetof(picollo_log_interval, has_tag) == 40);
    CHECK(PICOLLO_V2_FORM_PLAIN == 0 && PICOLLO_V2_FORM_COMPRESSED == 1 && PICOLLO_V2_FORM_BASE64 == 2);
    test_v2_round_trips();
    test_v2_binary_buffers();
    test_v2_levels();
    test_v2_bad_input();
    test_add_v2();
    test_hgrm();
    test_log_writer();
    test_log_reader();
    test_log_bad_lines();
    test_log_sum();
}
