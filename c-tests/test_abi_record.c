/*
 * test_abi_record.c: record, record_n (n = 0, saturation of u32 and u64 counters, huge
 * counts outside the range), record_many, reset, record_corrected against HdrHistogram's
 * one-by-one definition and at the extremes, the full u64 range and the range edges kept to
 * bucket resolution.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static void test_record_basics(void)
{
    picollo_histogram *h = make_histogram(64, 0.01, 1000, 100000);
    picollo_histogram_info before, after;
    const uint64_t values[] = {1000, 5000, 5001, 99999, 0, 999, 100000, 200000, UINT64_MAX};
    picollo_summary s1, s2;

    /* NULL handles are ignored by the void record functions (nothing to check but survival). */
    picollo_histogram_record(NULL, 1);
    picollo_histogram_record_n(NULL, 1, 5);
    picollo_histogram_record_corrected(NULL, 1000, 10);
    EXPECT_MSG(picollo_histogram_record_many(NULL, values, 3), PICOLLO_STATUS_NULL_POINTER, "h");

    picollo_histogram_record(h, 5000);
    picollo_histogram_record(h, 0);         /* below: underflow */
    picollo_histogram_record(h, 500);       /* below */
    picollo_histogram_record(h, 10000000);  /* above: overflow */
    picollo_histogram_record(h, UINT64_MAX); /* above */
    picollo_histogram_record(h, 1000);      /* the smallest trackable value */
    picollo_histogram_record(h, 100000);    /* the largest */
    before = info_of(h);
    CHECK(before.total == 3 && before.underflow == 2 && before.overflow == 2 &&
          before.saturated == 0);

    /* record_n with n = 0 changes nothing. */
    picollo_histogram_record_n(h, 5000, 0);
    picollo_histogram_record_n(h, 0, 0);
    picollo_histogram_record_n(h, UINT64_MAX, 0);
    after = info_of(h);
    CHECK(memcmp(&before, &after, sizeof before) == 0);

    picollo_histogram_record_n(h, 5000, 7);
    picollo_histogram_record_n(h, 1, 4);
    picollo_histogram_record_n(h, 1u << 30, 5);
    after = info_of(h);
    CHECK(after.total == 10 && after.underflow == 6 && after.overflow == 7);

    /* record_many: NULL with n = 0 is fine; NULL with n > 0 is refused and records nothing. */
    before = info_of(h);
    EXPECT(picollo_histogram_record_many(h, NULL, 0), PICOLLO_STATUS_OK);
    EXPECT(picollo_histogram_record_many(h, values, 0), PICOLLO_STATUS_OK);
    EXPECT_MSG(picollo_histogram_record_many(h, NULL, 5), PICOLLO_STATUS_NULL_POINTER, "values");
    after = info_of(h);
    CHECK(memcmp(&before, &after, sizeof before) == 0);

    /* record_many equals a loop of record. */
    {
        picollo_histogram *a = make_histogram(32, 0.01, 1000, 100000);
        picollo_histogram *b = make_histogram(32, 0.01, 1000, 100000);
        uint64_t many[5000];
        uint64_t seed = 42;
        size_t k;
        for (k = 0; k < 5000; k++) {
            many[k] = rng_next(&seed) % 150000;
            picollo_histogram_record(b, many[k]);
        }
        EXPECT(picollo_histogram_record_many(a, many, 5000), PICOLLO_STATUS_OK);
        s1 = summary_of(a);
        s2 = summary_of(b);
        CHECK(same_summary(&s1, &s2));
        CHECK(s1.total + s1.underflow + s1.overflow == 5000);
        picollo_histogram_free(a);
        picollo_histogram_free(b);
    }

    /* reset clears everything; NULL is refused. */
    picollo_histogram_record_n(h, 5000, 1u << 20);
    EXPECT(picollo_histogram_reset(h), PICOLLO_STATUS_OK);
    after = info_of(h);
    CHECK(after.total == 0 && after.underflow == 0 && after.overflow == 0 &&
          after.saturated == 0);
    CHECK(after.storage_len == before.storage_len && after.block_size == before.block_size);
    {
        size_t cursor = 0;
        picollo_bucket b;
        EXPECT(picollo_histogram_next_bucket(h, &cursor, &b), PICOLLO_STATUS_OUT_OF_RANGE);
    }
    EXPECT_MSG(picollo_histogram_reset(NULL), PICOLLO_STATUS_NULL_POINTER, "h");
    /* Recording works again after a reset. */
    picollo_histogram_record(h, 2000);
    CHECK(info_of(h).total == 1);
    picollo_histogram_free(h);
}

/* Sum of the counts of the non-empty buckets, saturating. */
static uint64_t bucket_sum(const picollo_histogram *h, uint64_t *buckets)
{
    size_t cursor = 0;
    picollo_bucket b;
    uint64_t sum = 0;
    *buckets = 0;
    while (picollo_histogram_next_bucket(h, &cursor, &b) == PICOLLO_STATUS_OK) {
        sum = b.count > UINT64_MAX - sum ? UINT64_MAX : sum + b.count;
        ++*buckets;
    }
    return sum;
}

/* record_n with huge counts: a bucket saturates at its counter's maximum, the rest is
 * counted as saturated, so bucket + saturated = what was recorded (no count lost). */
static void test_record_n_saturation(void)
{
    picollo_histogram *h32 = make_histogram(32, 0.01, 0, 1000000);
    picollo_histogram *h64 = make_histogram(64, 0.01, 0, 1000000);
    picollo_histogram_info i;
    picollo_bucket b;
    uint64_t nb;
    size_t cursor;
    picollo_summary s;

    picollo_histogram_record_n(h32, 5000, UINT64_MAX);
    i = info_of(h32);
    cursor = 0;
    if (EXPECT(picollo_histogram_next_bucket(h32, &cursor, &b), PICOLLO_STATUS_OK)) {
        CHECK(b.lower <= 5000 && 5000 <= b.highest);
        CHECKF(b.count == UINT32_MAX, "bucket count %llu", (unsigned long long)b.count);
    }
    CHECK(i.total == UINT32_MAX);
    CHECKF(i.saturated == UINT64_MAX - UINT32_MAX, "saturated %llu",
           (unsigned long long)i.saturated);
    CHECK(i.total + i.saturated == UINT64_MAX); /* no count lost */
    CHECK(i.underflow == 0 && i.overflow == 0);
    s = summary_of(h32);
    CHECK(s.saturated == i.saturated && s.total == i.total);
    CHECK(s.percentiles[15].count == UINT32_MAX && s.percentiles[0].lower == b.lower);
    /* A u32 bucket that is full takes nothing more from record_n: it all goes to saturated. */
    picollo_histogram_record_n(h32, 5000, 10);
    CHECK(info_of(h32).saturated == UINT64_MAX - UINT32_MAX + 10);
    /* Partially full: what fits is kept. */
    picollo_histogram_record_n(h32, 70000, UINT32_MAX - 5);
    picollo_histogram_record_n(h32, 70000, 9);
    CHECK(bucket_sum(h32, &nb) == 2 * (uint64_t)UINT32_MAX && nb == 2);
    CHECK(info_of(h32).saturated == UINT64_MAX - UINT32_MAX + 10 + 4);

    picollo_histogram_record_n(h64, 5000, UINT64_MAX);
    i = info_of(h64);
    CHECK(i.total == UINT64_MAX && i.saturated == 0);
    cursor = 0;
    if (EXPECT(picollo_histogram_next_bucket(h64, &cursor, &b), PICOLLO_STATUS_OK)) {
        CHECK(b.count == UINT64_MAX);
    }
    picollo_histogram_record_n(h64, 5000, 7);
    CHECK(info_of(h64).saturated == 7);
    /* Another bucket: the total saturates at UINT64_MAX, queries still work. */
    picollo_histogram_record(h64, 900000);
    i = info_of(h64);
    CHECK(i.total == UINT64_MAX);
    CHECK(bucket_sum(h64, &nb) == UINT64_MAX && nb == 2);
    {
        picollo_percentile p;
        if (EXPECT(picollo_histogram_percentile(h64, 100.0, &p), PICOLLO_STATUS_OK)) {
            CHECK(p.lower <= 900000 && 900000 <= p.highest && p.count == 1);
            CHECK(p.rank_count == UINT64_MAX && p.cumulative_count == UINT64_MAX);
        }
        if (EXPECT(picollo_histogram_percentile(h64, 99.999, &p), PICOLLO_STATUS_OK)) {
            CHECK(p.lower <= 5000 && 5000 <= p.highest);
        }
    }
    s = summary_of(h64);
    CHECK(s.total == UINT64_MAX && s.saturated == 7);
    CHECK(s.mean > 4900 && s.mean < 5100); /* one far value in 2^64 barely moves it */

    /* Outside the range, huge counts saturate the underflow/overflow counters. */
    picollo_histogram_record_n(h64, 2000000, UINT64_MAX);
    picollo_histogram_record(h64, 3000000);
    picollo_histogram_record_n(h64, 3000000, 12345);
    CHECK(info_of(h64).overflow == UINT64_MAX);
    {
        picollo_histogram *u = make_histogram(32, 0.01, 100, 1000);
        picollo_histogram_record_n(u, 5, UINT64_MAX - 1);
        picollo_histogram_record_n(u, 6, 1);
        CHECK(info_of(u).underflow == UINT64_MAX);
        picollo_histogram_free(u);
    }
    picollo_histogram_free(h32);
    picollo_histogram_free(h64);
}

/* max_trackable = UINT64_MAX: the topmost bucket reaches 2^64 - 1. */
static void test_full_range(void)
{
    picollo_histogram *h = make_histogram(64, 0.001, 0, UINT64_MAX);
    picollo_histogram_info i;
    picollo_percentile p;
    picollo_bucket b;

    picollo_histogram_record(h, UINT64_MAX);
    picollo_histogram_record(h, UINT64_MAX - 1);
    picollo_histogram_record(h, 0);
    i = info_of(h);
    CHECK(i.total == 3 && i.overflow == 0 && i.underflow == 0);
    if (EXPECT(picollo_histogram_bucket(h, (size_t)i.storage_len - 1, &b), PICOLLO_STATUS_OK)) {
        CHECK(b.highest == UINT64_MAX && b.count == 2);
        CHECK(b.logical_index == b.storage_index && b.storage_index == i.storage_len - 1);
    }
    if (EXPECT(picollo_histogram_percentile(h, 100.0, &p), PICOLLO_STATUS_OK)) {
        CHECK(p.highest == UINT64_MAX);
        CHECK(p.upper == UINT64_MAX); /* documented: 2^64 does not fit */
        CHECK(p.lower < p.value && p.value < p.highest && p.count == 2);
    }
    if (EXPECT(picollo_histogram_percentile(h, 0.0, &p), PICOLLO_STATUS_OK)) {
        CHECK(p.value == 0 && p.lower == 0 && p.highest == 0 && p.upper == 1);
    }
    picollo_histogram_free(h);
}

/* HdrHistogram's definition of the correction, one record per value. */
static void corrected_by_loop(picollo_histogram *h, uint64_t v, uint64_t interval)
{
    uint64_t missing;
    picollo_histogram_record(h, v);
    if (interval == 0 || v <= interval) {
        return;
    }
    for (missing = v - interval; missing >= interval; missing -= interval) {
        picollo_histogram_record(h, missing);
    }
}

static void test_record_corrected(void)
{
    /* Exact buckets (values below 2·block_size = 2^20) make the values visible. */
    picollo_histogram *h = make_histogram(64, 1e-6, 0, 10000);
    picollo_bucket b;
    size_t cursor = 0;
    uint64_t expect = 100;
    int in_order = 1;

    picollo_histogram_record_corrected(h, 1000, 100);
    while (picollo_histogram_next_bucket(h, &cursor, &b) == PICOLLO_STATUS_OK) {
        in_order &= b.lower == expect && b.highest == expect && b.count == 1;
        expect += 100;
    }
    CHECK(in_order && expect == 1100);
    EXPECT(picollo_histogram_reset(h), PICOLLO_STATUS_OK);
    picollo_histogram_record_corrected(h, 1000, 0);   /* no correction */
    picollo_histogram_record_corrected(h, 150, 100);  /* below 2·interval: none */
    picollo_histogram_record_corrected(h, 250, 100);  /* adds 150 */
    CHECK(info_of(h).total == 4);
    picollo_histogram_free(h);

    /* Against the one-by-one definition, with values missing below and above the range. */
    {
        picollo_histogram *a = make_histogram(64, 0.01, 1000, 1000000);
        picollo_histogram *l = make_histogram(64, 0.01, 1000, 1000000);
        picollo_histogram *a32 = make_histogram(32, 0.01, 1000, 1000000);
        uint64_t seed = 7;
        int k;
        picollo_summary sa, sl, s32;
        picollo_histogram_info ia, il;
        for (k = 0; k < 200; k++) {
            uint64_t v = rng_next(&seed) % 3000000;
            uint64_t interval = 100 + rng_next(&seed) % 20000;
            if (k % 10 == 0) {
                interval = 0;
            } else if (k % 7 == 1) {
                interval = 100 + rng_next(&seed) % 900; /* missing values below the range */
            }
            picollo_histogram_record_corrected(a, v, interval);
            picollo_histogram_record_corrected(a32, v, interval);
            corrected_by_loop(l, v, interval);
        }
        sa = summary_of(a);
        sl = summary_of(l);
        s32 = summary_of(a32);
        ia = info_of(a);
        il = info_of(l);
        CHECK(same_summary(&sa, &sl));
        CHECK(same_summary(&sa, &s32));
        CHECKF(ia.total == il.total && ia.underflow == il.underflow && ia.overflow == il.overflow,
               "total %llu/%llu underflow %llu/%llu overflow %llu/%llu",
               (unsigned long long)ia.total, (unsigned long long)il.total,
               (unsigned long long)ia.underflow, (unsigned long long)il.underflow,
               (unsigned long long)ia.overflow, (unsigned long long)il.overflow);
        CHECK(ia.underflow > 0 && ia.overflow > 0);
        picollo_histogram_free(a);
        picollo_histogram_free(l);
        picollo_histogram_free(a32);
    }

    /* The extremes: UINT64_MAX with interval 1 adds 2^64 - 2 values in bounded time. */
    {
        picollo_histogram *h64 = make_histogram(64, 0.001, 0, UINT64_MAX);
        picollo_histogram *h32 = make_histogram(32, 0.001, 0, UINT64_MAX);
        picollo_histogram_info i;
        uint64_t nb;
        picollo_histogram_record_corrected(h64, UINT64_MAX, 1);
        i = info_of(h64);
        CHECK(i.total == UINT64_MAX && i.saturated == 0 && i.underflow == 0 && i.overflow == 0);
        CHECK(bucket_sum(h64, &nb) == UINT64_MAX && nb == i.storage_len - 1); /* all but 0 */
        picollo_histogram_record_corrected(h32, UINT64_MAX, 1);
        i = info_of(h32);
        CHECKF(i.saturated > 0 && i.total + i.saturated == UINT64_MAX,
               "total %llu + saturated %llu", (unsigned long long)i.total,
               (unsigned long long)i.saturated);
        CHECK(bucket_sum(h32, &nb) == i.total);
        EXPECT(picollo_histogram_reset(h64), PICOLLO_STATUS_OK);
        picollo_histogram_record_corrected(h64, UINT64_MAX, UINT64_MAX);
        picollo_histogram_record_corrected(h64, UINT64_MAX, UINT64_MAX / 2); /* adds 2^63 */
        picollo_histogram_record_corrected(h64, 0, 0);
        picollo_histogram_record_corrected(h64, 0, UINT64_MAX);
        CHECK(info_of(h64).total == 5);
        picollo_histogram_free(h64);
        picollo_histogram_free(h32);
    }
}

/* Values below min_trackable that share min's bucket are counted in that bucket: the range
 * is kept to bucket resolution (one compare on the hot path). */
static void test_range_edges(void)
{
    picollo_histogram *h = make_histogram(64, 0.01, 1001, 2001);
    layout_model m = model_of_block_size(64);
    uint64_t first = model_lower(m, model_index(m, 1001));
    uint64_t last = model_highest(m, model_index(m, 2001));
    picollo_histogram_info i;
    picollo_bucket b;

    CHECK(first == 1000 && last == 2015);
    picollo_histogram_record(h, first - 1); /* underflow */
    picollo_histogram_record(h, first);     /* min's bucket */
    picollo_histogram_record(h, last);      /* max's bucket */
    picollo_histogram_record(h, last + 1);  /* overflow */
    i = info_of(h);
    CHECKF(i.underflow == 1 && i.overflow == 1 && i.total == 2,
           "underflow %llu overflow %llu total %llu", (unsigned long long)i.underflow,
           (unsigned long long)i.overflow, (unsigned long long)i.total);
    if (EXPECT(picollo_histogram_bucket(h, 0, &b), PICOLLO_STATUS_OK)) {
        CHECK(b.lower == first && b.count == 1 && b.storage_index == 0);
    }
    picollo_histogram_free(h);
}

/* Whether `a` and `b` (same layout and range) hold the same non-empty buckets and the same
 * total, underflow and overflow. */
static int same_buckets(const picollo_histogram *a, const picollo_histogram *b)
{
    picollo_histogram_info ia = info_of(a), ib = info_of(b);
    size_t ca = 0, cb = 0;
    picollo_bucket ba, bb;
    if (ia.total != ib.total || ia.underflow != ib.underflow || ia.overflow != ib.overflow) {
        fprintf(stderr, "  totals %llu/%llu/%llu vs %llu/%llu/%llu\n",
                (unsigned long long)ia.total, (unsigned long long)ia.underflow,
                (unsigned long long)ia.overflow, (unsigned long long)ib.total,
                (unsigned long long)ib.underflow, (unsigned long long)ib.overflow);
        return 0;
    }
    for (;;) {
        picollo_status sa = picollo_histogram_next_bucket(a, &ca, &ba);
        picollo_status sb = picollo_histogram_next_bucket(b, &cb, &bb);
        if (sa != sb) {
            return 0;
        }
        if (sa != PICOLLO_STATUS_OK) {
            return sa == PICOLLO_STATUS_OUT_OF_RANGE;
        }
        if (ba.storage_index != bb.storage_index || ba.count != bb.count) {
            return 0;
        }
    }
}

/* A histogram of `mode` and `bits`, range 10..1,000,000, relative error 1 %. */
static picollo_histogram *make_of_mode(uint32_t mode, uint32_t bits)
{
    picollo_histogram_config cfg = picollo_histogram_config_default();
    picollo_histogram *h = NULL;
    cfg.counter_bits = bits;
    cfg.relative_error = 0.01;
    cfg.min_trackable = 10;
    cfg.max_trackable = 1000000;
    cfg.mode = mode;
    CHECK(picollo_histogram_new(&cfg, &h) == PICOLLO_STATUS_OK);
    return h;
}

/* The inline recorder and the function picollo_histogram_record_fn gives: in every width
 * and mode they count like picollo_histogram_record (values outside the range included),
 * the recorder's fields describe the histogram, and full buckets go through the library
 * (saturated, never wrapped). */
/* picollo_recorder_of: the recorder get_recorder fills, by value; counts as the library
 * does through it, in every mode; a NULL handle gets its status and a recorder that only
 * calls (a record through it is ignored, as by picollo_histogram_record). */
static void recorder_by_value(void)
{
    static const uint32_t modes[] = {PICOLLO_MODE_SINGLE_WRITER, PICOLLO_MODE_INTERLOCKED,
                                     PICOLLO_MODE_THREAD_LOCAL, PICOLLO_MODE_APPROXIMATE};
    picollo_status st = PICOLLO_STATUS_OK;
    const picollo_recorder none = picollo_recorder_of(NULL, &st);
    CHECK(st == PICOLLO_STATUS_NULL_POINTER);
    CHECK(none.kind == PICOLLO_RECORDER_KIND_CALL && none.cells == NULL && none.histogram == NULL);
    picollo_recorder_record(&none, 5);
    (void)picollo_recorder_of(NULL, NULL);
    for (size_t m = 0; m < sizeof modes / sizeof modes[0]; m++) {
        picollo_histogram *h = make_of_mode(modes[m], 32);
        picollo_histogram *ref = make_of_mode(PICOLLO_MODE_SINGLE_WRITER, 64);
        picollo_recorder filled;
        uint64_t seed = 91;
        st = PICOLLO_STATUS_UNSUPPORTED;
        const picollo_recorder r = picollo_recorder_of(h, &st);
        CHECK(st == PICOLLO_STATUS_OK);
        if (EXPECT(picollo_histogram_get_recorder(h, PICOLLO_RECORDER_VERSION, &filled), PICOLLO_STATUS_OK)) {
            CHECKF(r.kind == filled.kind && r.cells == filled.cells && r.len == filled.len &&
                       r.first_index == filled.first_index && r.limit == filled.limit &&
                       r.block_scale == filled.block_scale && r.fine_scale == filled.fine_scale &&
                       r.counter_bits == filled.counter_bits && r.record == filled.record &&
                       r.histogram == filled.histogram,
                   "mode %u: the by-value recorder differs from the filled one", (unsigned)modes[m]);
        }
        for (int i = 0; i < 20000; i++) {
            uint64_t v = rng_next(&seed) % 1200000;
            picollo_recorder_record(&r, v);
            picollo_histogram_record(ref, v);
        }
        picollo_recorder_record(&r, UINT64_MAX);
        picollo_histogram_record(ref, UINT64_MAX);
        CHECKF(same_buckets(h, ref), "picollo_recorder_of, mode %u", (unsigned)modes[m]);
        picollo_histogram_free(h);
        picollo_histogram_free(ref);
    }
}

static void test_recorder(void)
{
    static const uint32_t modes[] = {PICOLLO_MODE_SINGLE_WRITER, PICOLLO_MODE_INTERLOCKED,
                                     PICOLLO_MODE_THREAD_LOCAL, PICOLLO_MODE_APPROXIMATE};
    static const uint32_t kinds[] = {PICOLLO_RECORDER_KIND_PLAIN, PICOLLO_RECORDER_KIND_ATOMIC,
                                     PICOLLO_RECORDER_KIND_PLAIN, PICOLLO_RECORDER_KIND_CALL};
    uint32_t bits;
    size_t m;
    EXPECT_MSG(picollo_histogram_get_recorder(NULL, PICOLLO_RECORDER_VERSION, NULL), PICOLLO_STATUS_NULL_POINTER, "h");
    for (bits = 32; bits <= 64; bits += 32) {
        for (m = 0; m < sizeof modes / sizeof modes[0]; m++) {
            picollo_histogram *inline_h = make_of_mode(modes[m], bits);
            picollo_histogram *fn_h = make_of_mode(modes[m], bits);
            picollo_histogram *ref = make_of_mode(PICOLLO_MODE_SINGLE_WRITER, 64);
            picollo_histogram_info info;
            picollo_recorder r;
            picollo_record_fn f = picollo_histogram_record_fn(fn_h);
            uint64_t seed = 77;
            size_t i;
            EXPECT_MSG(picollo_histogram_get_recorder(inline_h, PICOLLO_RECORDER_VERSION, NULL), PICOLLO_STATUS_NULL_POINTER,
                       "out");
            if (!EXPECT(picollo_histogram_get_recorder(inline_h, PICOLLO_RECORDER_VERSION, &r), PICOLLO_STATUS_OK)) {
                continue;
            }
            info = info_of(inline_h);
            CHECKF(r.kind == kinds[m], "mode %u: kind %u", (unsigned)modes[m], (unsigned)r.kind);
            CHECK(r.histogram == inline_h && r.record != NULL && r.fine_scale >= r.block_scale);
            CHECK(r.counter_bits == bits && r.len == info.storage_len);
            CHECK(((uint64_t)1 << r.block_scale) == info.block_size);
            CHECK((r.cells == NULL) == (r.kind == PICOLLO_RECORDER_KIND_CALL));
            for (i = 0; i < 20000; i++) {
                uint64_t v = rng_next(&seed) % 1200000;
                picollo_recorder_record(&r, v);
                f(fn_h, v);
                picollo_histogram_record(ref, v);
            }
            picollo_recorder_record(&r, 0);
            picollo_recorder_record(&r, UINT64_MAX);
            f(fn_h, 0);
            f(fn_h, UINT64_MAX);
            picollo_histogram_record(ref, 0);
            picollo_histogram_record(ref, UINT64_MAX);
            CHECKF(same_buckets(inline_h, ref), "recorder, mode %u, u%u", (unsigned)modes[m],
                   (unsigned)bits);
            CHECKF(same_buckets(fn_h, ref), "record_fn, mode %u, u%u", (unsigned)modes[m],
                   (unsigned)bits);
            picollo_histogram_free(inline_h);
            picollo_histogram_free(fn_h);
            picollo_histogram_free(ref);
        }
    }
    /* Full buckets: the inline path stops at `limit` and the library saturates. */
    {
        picollo_histogram *h = make_of_mode(PICOLLO_MODE_SINGLE_WRITER, 32);
        picollo_histogram *a = make_of_mode(PICOLLO_MODE_INTERLOCKED, 32);
        picollo_recorder rh, ra;
        picollo_histogram_info i;
        picollo_histogram_record_n(h, 5000, UINT32_MAX - 1);
        picollo_histogram_record_n(a, 5000, 4290772991u - 1);
        if (EXPECT(picollo_histogram_get_recorder(h, PICOLLO_RECORDER_VERSION, &rh), PICOLLO_STATUS_OK) &&
            EXPECT(picollo_histogram_get_recorder(a, PICOLLO_RECORDER_VERSION, &ra), PICOLLO_STATUS_OK)) {
            CHECK(rh.limit == UINT32_MAX && ra.limit == 4290772991u - (1u << 22));
            picollo_recorder_record(&rh, 5000);
            picollo_recorder_record(&rh, 5000);
            picollo_recorder_record(&ra, 5000);
            picollo_recorder_record(&ra, 5000);
            i = info_of(h);
            CHECKF(i.total == UINT32_MAX && i.saturated == 1, "single: %llu + %llu saturated",
                   (unsigned long long)i.total, (unsigned long long)i.saturated);
            i = info_of(a);
            CHECKF(i.total == 4290772991u && i.saturated == 1,
                   "interlocked: %llu + %llu saturated", (unsigned long long)i.total,
                   (unsigned long long)i.saturated);
        }
        picollo_histogram_free(h);
        picollo_histogram_free(a);
    }
    recorder_by_value();
}

/* record_many_i64 counts what record counts for values from 0; a negative value anywhere is
 * refused, naming it, and nothing of the call is recorded. */
static void test_record_many_i64(void)
{
    picollo_histogram *a = make_histogram(64, 0.01, 1000, 100000);
    picollo_histogram *b = make_histogram(64, 0.01, 1000, 100000);
    int64_t many[3000];
    uint64_t seed = 7;
    size_t k;
    picollo_summary s1, s2;
    picollo_histogram_info before;
    for (k = 0; k < 3000; k++) {
        many[k] = (int64_t)(rng_next(&seed) % 150000);
    }
    many[10] = INT64_MAX; /* the largest: overflow */
    for (k = 0; k < 3000; k++) {
        picollo_histogram_record(b, (uint64_t)many[k]);
    }
    EXPECT(picollo_histogram_record_many_i64(a, many, 3000), PICOLLO_STATUS_OK);
    EXPECT(picollo_histogram_record_many_i64(a, NULL, 0), PICOLLO_STATUS_OK);
    s1 = summary_of(a);
    s2 = summary_of(b);
    CHECK(same_summary(&s1, &s2));
    CHECK(s1.total + s1.underflow + s1.overflow == 3000 && s1.overflow >= 1);
    before = info_of(a);
    many[2999] = -1;
    EXPECT_MSG(picollo_histogram_record_many_i64(a, many, 3000), PICOLLO_STATUS_INVALID_ARGUMENT,
               "values[2999] is negative (-1)");
    CHECK(info_of(a).total == before.total && info_of(a).overflow == before.overflow);
    picollo_histogram_free(a);
    picollo_histogram_free(b);
}

void test_recording(void)
{
    test_record_many_i64();
    test_recorder();
    test_record_basics();
    test_record_n_saturation();
    test_full_range();
    test_record_corrected();
    test_range_edges();
}
