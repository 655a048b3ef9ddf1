/*
 * test_abi_lookup.c: queries by value (rank, quantile, count between, equivalent ranges)
 * against counts taken from the recorded values themselves, linear and logarithmic steps
 * against the buckets they gather, and histograms of another
 * precision: downsampling and adding re-binned counts must give exactly what recording the
 * values at the coarser precision gives, for every counter width and mode, integer and
 * float.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

enum { N = 5000 };

static uint64_t next_random(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static picollo_histogram *make(double e, uint32_t bits, uint32_t mode)
{
    picollo_histogram_config c = config_of(mode, bits, e);
    picollo_histogram *h = NULL;
    if (!EXPECT(picollo_histogram_new(&c, &h), PICOLLO_STATUS_OK)) {
        abort();
    }
    return h;
}

/* Log-uniform values over 1..2^40, and a run of small ones (width-1 buckets). */
static void fill(uint64_t *values, uint64_t seed)
{
    size_t i;
    for (i = 0; i < N; i++) {
        uint64_t r = next_random(&seed);
        values[i] = i % 5 == 0 ? 1 + r % 1500 : (r >> 24) >> (r % 40);
    }
}

/* How many of `values` lie in [lo, hi]. */
static uint64_t exact_between(const uint64_t *values, uint64_t lo, uint64_t hi)
{
    uint64_t n = 0;
    size_t i;
    for (i = 0; i < N; i++) {
        n += values[i] >= lo && values[i] <= hi;
    }
    return n;
}

static void test_value_queries(void)
{
    static uint64_t values[N];
    picollo_histogram *h = make(0.001, 64, PICOLLO_MODE_SINGLE_WRITER);
    uint64_t seed = 99, lo, hi, prev_hi = 0, n;
    double rank, q, prev_q = 0.0;
    size_t i;
    fill(values, 7);
    for (i = 0; i < N; i++) {
        picollo_histogram_record(h, values[i]);
    }
    /* Width-1 buckets (below 1024 at 0.1 %): ranks and counts are exact. */
    EXPECT(picollo_histogram_equivalent_range(h, 1023, &lo, &hi), PICOLLO_STATUS_OK);
    CHECK(lo == 1023 && hi == 1023);
    EXPECT(picollo_histogram_equivalent_range(h, 1024, &lo, &hi), PICOLLO_STATUS_OK);
    CHECK(lo == 1024 && hi == 1025);
    for (i = 0; i < 200; i++) {
        uint64_t v = next_random(&seed) % 1021;
        EXPECT(picollo_histogram_rank_of(h, v, &rank), PICOLLO_STATUS_OK);
        CHECKF(rank == (double)exact_between(values, 0, v), "rank_of(%llu) = %g",
               (unsigned long long)v, rank);
        EXPECT(picollo_histogram_count_between(h, v, v + 3, &n), PICOLLO_STATUS_OK);
        CHECK(n == exact_between(values, v, v + 3));
    }
    /* Anywhere: the rank lies between the counts below and through the value's bucket;
     * count_between counts the whole buckets of its bounds. */
    for (i = 0; i < 400; i++) {
        uint64_t v = (next_random(&seed) >> 24) >> (next_random(&seed) % 40);
        uint64_t w = v + (next_random(&seed) >> (24 + next_random(&seed) % 40));
        uint64_t wlo, whi;
        EXPECT(picollo_histogram_equivalent_range(h, v, &lo, &hi), PICOLLO_STATUS_OK);
        CHECK(lo <= v && v <= hi);
        CHECKF((double)(hi - lo) <= 0.002 * (double)lo + 1.0, "bucket %llu..%llu too wide",
               (unsigned long long)lo, (unsigned long long)hi);
        EXPECT(picollo_histogram_rank_of(h, v, &rank), PICOLLO_STATUS_OK);
        CHECK(rank >= (double)(lo == 0 ? 0 : exact_between(values, 0, lo - 1)));
        CHECK(rank <= (double)exact_between(values, 0, hi));
        EXPECT(picollo_histogram_equivalent_range(h, w, &wlo, &whi), PICOLLO_STATUS_OK);
        EXPECT(picollo_histogram_count_between(h, v, w, &n), PICOLLO_STATUS_OK);
        CHECK(n == exact_between(values, lo, whi));
        /* The next bucket starts right after this one. */
        if (hi != UINT64_MAX) {
            uint64_t nlo;
            EXPECT(picollo_histogram_equivalent_range(h, hi + 1, &nlo, NULL), PICOLLO_STATUS_OK);
            CHECK(nlo == hi + 1);
        }
    }
    /* Quantiles of values: non-decreasing, 1 at the top, the inverse of percentiles. */
    for (i = 0; i <= 64; i++) {
        uint64_t v = i == 64 ? UINT64_MAX : (uint64_t)1 << i;
        EXPECT(picollo_histogram_quantile_of(h, v, &q), PICOLLO_STATUS_OK);
        CHECK(q >= prev_q && q <= 1.0);
        prev_q = q;
        EXPECT(picollo_histogram_equivalent_range(h, v, NULL, &hi), PICOLLO_STATUS_OK);
        CHECK(hi >= prev_hi);
        prev_hi = hi;
    }
    CHECK(prev_q == 1.0);
    {
        const double ranks[] = {10.0, 50.0, 90.0, 99.0};
        picollo_percentile p[4];
        EXPECT(picollo_histogram_percentiles(h, ranks, 4, p), PICOLLO_STATUS_OK);
        for (i = 0; i < 4; i++) {
            EXPECT(picollo_histogram_equivalent_range(h, p[i].value, NULL, &hi),
                   PICOLLO_STATUS_OK);
            EXPECT(picollo_histogram_quantile_of(h, hi, &q), PICOLLO_STATUS_OK);
            CHECKF(q >= ranks[i] / 100.0, "quantile_of(P%g) = %g", ranks[i], q);
        }
    }
    picollo_histogram_free(h);
}

/* Whether `a` and `b` hold the same non-empty buckets with the same counts. */
static int same_buckets(const picollo_histogram *a, const picollo_histogram *b)
{
    static picollo_bucket ba[4096], bb[4096];
    size_t ca = 0, cb = 0, na = 0, nb = 0, i;
    int same = 1;
    for (;;) {
        picollo_status sa = picollo_histogram_next_buckets(a, &ca, ba, 4096, &na);
        picollo_status sb = picollo_histogram_next_buckets(b, &cb, bb, 4096, &nb);
        if (sa != sb) {
            return 0;
        }
        if (sa != PICOLLO_STATUS_OK) {
            return sa == PICOLLO_STATUS_OUT_OF_RANGE;
        }
        if (na != nb) {
            return 0;
        }
        for (i = 0; i < na; i++) {
            same &= ba[i].lower == bb[i].lower && ba[i].count == bb[i].count;
        }
        if (!same) {
            return 0;
        }
    }
}

static void test_other_precisions(uint32_t bits, uint32_t mode)
{
    static uint64_t values[N];
    picollo_histogram *fine = make(0.0001, bits, mode);
    picollo_histogram *direct = make(0.01, 64, PICOLLO_MODE_SINGLE_WRITER);
    picollo_histogram *rebinned = make(0.01, 32, PICOLLO_MODE_INTERLOCKED);
    picollo_histogram *finer = make(0.00001, 64, PICOLLO_MODE_SINGLE_WRITER);
    picollo_histogram *down = NULL;
    picollo_histogram_info fi, di;
    picollo_percentile pf, pd;
    size_t i;
    fill(values, 31 + bits + mode);
    for (i = 0; i < N; i++) {
        picollo_histogram_record(fine, values[i]);
        picollo_histogram_record(direct, values[i]);
    }
    /* Into a coarser layout: exactly the coarse histogram of the same values. */
    EXPECT(picollo_histogram_add_rebinned(rebinned, fine), PICOLLO_STATUS_OK);
    CHECKF(same_buckets(rebinned, direct), "add_rebinned (bits %u, mode %u)", bits, mode);
    EXPECT(picollo_histogram_downsample(fine, 0.01, &down), PICOLLO_STATUS_OK);
    CHECK(down != NULL);
    CHECKF(same_buckets(down, direct), "downsample (bits %u, mode %u)", bits, mode);
    CHECK(info_of(down).relative_error == info_of(direct).relative_error);
    /* The same layout: a plain add. */
    EXPECT(picollo_histogram_add_rebinned(down, direct), PICOLLO_STATUS_OK);
    CHECK(info_of(down).total == 2 * N);
    /* A source may be its own destination: its counts double. */
    EXPECT(picollo_histogram_add_rebinned(direct, direct), PICOLLO_STATUS_OK);
    CHECK(same_buckets(down, direct));
    /* Into a finer layout: every count kept, quantiles within the source's error. */
    EXPECT(picollo_histogram_add_rebinned(finer, fine), PICOLLO_STATUS_OK);
    fi = info_of(finer);
    CHECK(fi.total == N);
    for (i = 1; i <= 99; i += 7) {
        EXPECT(picollo_histogram_percentile(finer, (double)i, &pf), PICOLLO_STATUS_OK);
        EXPECT(picollo_histogram_percentile(fine, (double)i, &pd), PICOLLO_STATUS_OK);
        CHECKF(fabs((double)pf.value - (double)pd.value) <= 0.0002 * (double)pd.value + 1.0,
               "P%zu: %llu vs %llu", i, (unsigned long long)pf.value,
               (unsigned long long)pd.value);
    }
    /* Counts outside the range travel as outside counts. */
    {
        picollo_histogram_config cfg = config_of(PICOLLO_MODE_SINGLE_WRITER, 64, 0.01);
        picollo_histogram *narrow = NULL;
        cfg.min_trackable = 1000;
        cfg.max_trackable = 1000000;
        EXPECT(picollo_histogram_new(&cfg, &narrow), PICOLLO_STATUS_OK);
        EXPECT(picollo_histogram_add_rebinned(narrow, fine), PICOLLO_STATUS_OK);
        di = info_of(narrow);
        CHECK(di.total + di.underflow + di.overflow == N);
        CHECK(di.underflow >= exact_between(values, 0, 900));
        CHECK(di.overflow >= exact_between(values, 1100000, UINT64_MAX));
        picollo_histogram_free(narrow);
    }
    /* A finer precision than the source's is refused, and nothing is made. */
    {
        picollo_histogram *bad = NULL;
        EXPECT_MSG(picollo_histogram_downsample(fine, 0.00001, &bad),
                   PICOLLO_STATUS_LAYOUT_MISMATCH, NULL);
        CHECK(bad == NULL);
    }
    picollo_histogram_free(down);
    picollo_histogram_free(fine);
    picollo_histogram_free(direct);
    picollo_histogram_free(rebinned);
    picollo_histogram_free(finer);
}

static picollo_float_histogram *make_float(double e, uint32_t storage)
{
    picollo_float_config cfg = picollo_float_config_default();
    picollo_float_histogram *h = NULL;
    cfg.relative_error = e;
    cfg.storage = storage;
    if (!EXPECT(picollo_float_histogram_new(&cfg, &h), PICOLLO_STATUS_OK)) {
        abort();
    }
    return h;
}

/* `got` holds what `direct` holds: counts beside the buckets, sum, extremes, percentiles. */
static void check_same_float_summary(const char *what, picollo_float_histogram *got,
                                     picollo_float_histogram *direct)
{
    picollo_float_summary a, b;
    size_t i;
    EXPECT(picollo_float_histogram_summary(got, &a), PICOLLO_STATUS_OK);
    EXPECT(picollo_float_histogram_summary(direct, &b), PICOLLO_STATUS_OK);
    CHECKF(a.total == b.total && a.zero == b.zero && a.nan == b.nan, "%s: counts", what);
    CHECKF(fabs(a.sum - b.sum) <= 1e-12 * fabs(b.sum), "%s: sum %g vs %g", what, a.sum, b.sum);
    CHECKF(a.min == b.min && a.max == b.max, "%s: extremes", what);
    for (i = 0; i < PICOLLO_SUMMARY_PERCENTILES; i++) {
        CHECKF(a.percentiles[i].value == b.percentiles[i].value, "%s P%g: %g vs %g", what,
               a.percentiles[i].rank, a.percentiles[i].value, b.percentiles[i].value);
    }
}

static void test_float_rebinned(void)
{
    picollo_float_histogram *fine = make_float(0.0001, PICOLLO_FLOAT_STORAGE_SPARSE);
    picollo_float_histogram *direct = make_float(0.01, PICOLLO_FLOAT_STORAGE_DENSE);
    picollo_float_histogram *rebinned = make_float(0.01, PICOLLO_FLOAT_STORAGE_SPARSE);
    uint64_t seed = 5;
    size_t i;
    for (i = 0; i < N; i++) {
        uint64_t r = next_random(&seed);
        double x = ldexp((double)(r >> 11) / 9007199254740992.0 + 0.5, (int)(r % 200) - 100);
        if (r % 3 == 0) {
            x = -x;
        }
        if (r % 97 == 0) {
            x = r % 2 ? 0.0 : NAN;
        }
        picollo_float_histogram_record(fine, x);
        picollo_float_histogram_record(direct, x);
    }
    EXPECT(picollo_float_histogram_add_rebinned(rebinned, fine), PICOLLO_STATUS_OK);
    check_same_float_summary("add_rebinned", rebinned, direct);
    /* Downsampling the fine histogram is recording at the coarser precision too. */
    {
        picollo_float_histogram *down = NULL;
        picollo_float_info fine_info, down_info, direct_info;
        picollo_float_summary before, after;
        EXPECT(picollo_float_histogram_summary(fine, &before), PICOLLO_STATUS_OK);
        EXPECT(picollo_float_histogram_downsample(fine, 0.01, &down), PICOLLO_STATUS_OK);
        CHECK(down != NULL);
        EXPECT(picollo_float_histogram_summary(fine, &after), PICOLLO_STATUS_OK);
        /* The source is unchanged. */
        CHECK(before.total == after.total && before.nan == after.nan && before.sum == after.sum);
        CHECK(before.min == after.min && before.max == after.max);
        for (i = 0; i < PICOLLO_SUMMARY_PERCENTILES; i++) {
            CHECK(before.percentiles[i].value == after.percentiles[i].value);
        }
        check_same_float_summary("downsample", down, direct);
        EXPECT(picollo_float_histogram_get_info(fine, &fine_info), PICOLLO_STATUS_OK);
        EXPECT(picollo_float_histogram_get_info(down, &down_info), PICOLLO_STATUS_OK);
        EXPECT(picollo_float_histogram_get_info(direct, &direct_info), PICOLLO_STATUS_OK);
        CHECK(down_info.relative_error == direct_info.relative_error);
        CHECK(down_info.buckets_per_octave == direct_info.buckets_per_octave);
        CHECK(down_info.min_magnitude == direct_info.min_magnitude);
        CHECK(down_info.max_magnitude == direct_info.max_magnitude);
        /* The fine histogram is unchanged, and a finer precision is refused. */
        CHECK(fine_info.total == direct_info.total);
        picollo_float_histogram_free(down);
        down = NULL;
        EXPECT(picollo_float_histogram_downsample(fine, 0.00001, &down),
               PICOLLO_STATUS_LAYOUT_MISMATCH);
        CHECK(down == NULL);
    }
    picollo_float_histogram_free(fine);
    picollo_float_histogram_free(direct);
    picollo_float_histogram_free(rebinned);
}

/* Every step of a walk (linear when base is 0), in batches of `cap`, checked against the
 * non-empty buckets: each bucket's count lands in the step holding its midpoint. */
static void check_steps(picollo_histogram *h, uint64_t width_or_first, double base, size_t cap)
{
    static picollo_bucket buckets[8192];
    picollo_step steps[64];
    size_t nb = 0, cursor = 0, got = 0, i, b = 0;
    uint64_t step_cursor = 0, cumulative = 0, next_lower = 0, total;
    picollo_histogram_info info = info_of(h);
    picollo_status st;
    total = info.total;
    EXPECT(picollo_histogram_next_buckets(h, &cursor, buckets, 8192, &nb), PICOLLO_STATUS_OK);
    for (;;) {
        st = base == 0.0
                 ? picollo_histogram_linear_steps(h, width_or_first, &step_cursor, steps, cap, &got)
                 : picollo_histogram_log_steps(h, width_or_first, base, &step_cursor, steps, cap,
                                               &got);
        if (st != PICOLLO_STATUS_OK) {
            break;
        }
        CHECK(got >= 1 && got <= cap);
        for (i = 0; i < got; i++) {
            const picollo_step *s = &steps[i];
            uint64_t want = 0;
            CHECK(s->lower == next_lower && s->highest >= s->lower);
            if (base == 0.0) {
                CHECK(s->highest - s->lower + 1 == width_or_first);
            } else if (s->lower == 0) {
                CHECK(s->highest == width_or_first - 1);
            }
            while (b < nb && buckets[b].value <= s->highest) {
                CHECK(buckets[b].value >= s->lower);
                want += buckets[b].count;
                b++;
            }
            CHECKF(s->count == want, "step %llu..%llu: %llu, want %llu",
                   (unsigned long long)s->lower, (unsigned long long)s->highest,
                   (unsigned long long)s->count, (unsigned long long)want);
            cumulative += want;
            CHECK(s->cumulative_count == cumulative);
            CHECK(fabs(s->percentile - 100.0 * (double)cumulative / (double)total) < 1e-9);
            next_lower = s->highest + 1;
        }
    }
    CHECK(st == PICOLLO_STATUS_OUT_OF_RANGE);
    /* The walk ends with the step holding the largest value: every bucket is in a step. */
    CHECKF(b == nb && cumulative == total, "%zu of %zu buckets", b, nb);
    CHECK(step_cursor > 0);
}

static void test_steps(void)
{
    static uint64_t values[N];
    picollo_histogram *h = make(0.01, 64, PICOLLO_MODE_INTERLOCKED);
    picollo_step s;
    uint64_t cursor = 0;
    size_t i;
    /* No step in an empty histogram. */
    EXPECT(picollo_histogram_linear_steps(h, 10, &cursor, &s, 1, NULL), PICOLLO_STATUS_OUT_OF_RANGE);
    fill(values, 3);
    for (i = 0; i < N; i++) {
        picollo_histogram_record(h, values[i] >> 20);
    }
    check_steps(h, 1000, 0.0, 64);
    check_steps(h, 1000, 0.0, 1);
    check_steps(h, 12345, 0.0, 7);
    check_steps(h, 1, 2.0, 64);
    check_steps(h, 10, 1.5, 3);
    check_steps(h, 3, 1.01, 64);
    /* The top of the range: the last step ends at UINT64_MAX. */
    picollo_histogram_record(h, UINT64_MAX);
    check_steps(h, 1, 10.0, 64);
    check_steps(h, UINT64_MAX / 4, 0.0, 2);
    picollo_histogram_free(h);
}

void test_lookup(void)
{
    test_value_queries();
    test_other_precisions(64, PICOLLO_MODE_SINGLE_WRITER);
    test_other_precisions(32, PICOLLO_MODE_INTERLOCKED);
    test_other_precisions(64, PICOLLO_MODE_THREAD_LOCAL);
    test_float_rebinned();
    test_steps();
}
