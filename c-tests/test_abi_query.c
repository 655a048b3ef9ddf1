/*
 * test_abi_query.c: queries through the C ABI beyond the model test (test_abi_model.c):
 * exact moments, value selections, bad ranks, empty histograms, bucket access and the
 * cursor at its edges, NULL arguments, and the cumulative copy against the live answers.
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

/* Exact small values: mean and stdev are known. */
static void test_moments_exact(void)
{
    picollo_histogram *h = make_histogram(32, 0.01, 0, 100);
    const uint64_t v[] = {1, 2, 3, 4, 5};
    double mean = 0, stdev = 0;
    EXPECT(picollo_histogram_record_many(h, v, 5), PICOLLO_STATUS_OK);
    EXPECT(picollo_histogram_mean_stdev(h, &mean, &stdev), PICOLLO_STATUS_OK);
    CHECKF(mean == 3.0, "%.17g", mean);
    CHECKF(fabs(stdev - sqrt(2.0)) <= 4 * DBL_EPSILON, "%.17g", stdev); /* population σ */
    picollo_histogram_free(h);
}

static void test_value_selection(void)
{
    picollo_histogram *h = make_histogram(64, 0.01, 0, 1000000);
    double ranks[201];
    picollo_percentile mid[201], got[201];
    uint64_t seed = 99;
    uint32_t sel;
    int k;

    for (k = 0; k < 5000; k++) {
        picollo_histogram_record(h, 10000 + rng_next(&seed) % 190000);
    }
    for (k = 0; k <= 200; k++) {
        ranks[k] = k * 0.5;
    }
    EXPECT(picollo_histogram_percentiles(h, ranks, 201, mid), PICOLLO_STATUS_OK);
    for (sel = 0; sel <= PICOLLO_VALUE_SELECTION_INTERPOLATED; sel++) {
        int shape = 1, same_buckets = 1, monotone = 1;
        picollo_summary s;
        EXPECT(picollo_histogram_set_value_selection(h, sel), PICOLLO_STATUS_OK);
        CHECK(info_of(h).value_selection == sel);
        memset(got, 0, sizeof got);
        EXPECT(picollo_histogram_percentiles(h, ranks, 201, got), PICOLLO_STATUS_OK);
        for (k = 0; k <= 200; k++) {
            const picollo_percentile *p = &got[k];
            uint64_t w = p->highest - p->lower + 1;
            switch (sel) {
            case PICOLLO_VALUE_SELECTION_MIDPOINT:
                shape &= p->value == p->lower + w / 2 && p->plus_minus == w / 2;
                break;
            case PICOLLO_VALUE_SELECTION_LOWER:
                shape &= p->value == p->lower && p->plus_minus == w - 1;
                break;
            case PICOLLO_VALUE_SELECTION_UPPER:
                shape &= p->value == p->highest && p->plus_minus == w - 1;
                break;
            default:
                shape &= p->lower <= p->value && p->value <= p->highest &&
                         p->plus_minus == (p->value - p->lower > p->highest - p->value
                                               ? p->value - p->lower
                                               : p->highest - p->value);
            }
            same_buckets &= p->lower == mid[k].lower && p->count == mid[k].count &&
                            p->cumulative_count == mid[k].cumulative_count &&
                            p->rank_count == mid[k].rank_count;
            monotone &= k == 0 || got[k - 1].value <= p->value;
        }
        CHECKF(shape, "selection %u", (unsigned)sel);
        CHECKF(same_buckets, "selection %u changes only value and ±", (unsigned)sel);
        CHECKF(monotone, "selection %u: values rise with the rank", (unsigned)sel);
        s = summary_of(h);
        CHECKF(s.percentiles[5].value == got[100].value && s.percentiles[15].value == got[200].value,
               "the summary uses selection %u", (unsigned)sel);
    }
    /* Unknown selections are refused and leave the selection as it was. */
    EXPECT_MSG(picollo_histogram_set_value_selection(h, 4), PICOLLO_STATUS_INVALID_ARGUMENT, "4");
    EXPECT(picollo_histogram_set_value_selection(h, UINT32_MAX), PICOLLO_STATUS_INVALID_ARGUMENT);
    CHECK(info_of(h).value_selection == PICOLLO_VALUE_SELECTION_INTERPOLATED);
    EXPECT_MSG(picollo_histogram_set_value_selection(NULL, 0), PICOLLO_STATUS_NULL_POINTER, "h");
    picollo_histogram_free(h);

    /* Interpolation spreads one bucket's values over the bucket by rank. */
    {
        picollo_histogram_config c = picollo_histogram_config_default();
        picollo_histogram *hi = NULL;
        picollo_percentile p0, p50, p100;
        c.relative_error = 0.01;
        c.value_selection = PICOLLO_VALUE_SELECTION_INTERPOLATED;
        EXPECT(picollo_histogram_new(&c, &hi), PICOLLO_STATUS_OK);
        picollo_histogram_record_n(hi, 150000, 1000); /* bucket [149504, 151552) */
        EXPECT(picollo_histogram_percentile(hi, 0.0, &p0), PICOLLO_STATUS_OK);
        EXPECT(picollo_histogram_percentile(hi, 50.0, &p50), PICOLLO_STATUS_OK);
        EXPECT(picollo_histogram_percentile(hi, 100.0, &p100), PICOLLO_STATUS_OK);
        CHECK(p0.lower == 149504 && p0.highest == 151551);
        CHECKF(p0.value < p50.value && p50.value < p100.value, "%llu %llu %llu",
               (unsigned long long)p0.value, (unsigned long long)p50.value,
               (unsigned long long)p100.value);
        CHECK(p0.value - p0.lower <= 2 && p100.highest - p100.value <= 2);
        CHECK(p50.value + 2 >= 150528 && p50.value <= 150528 + 2);
        picollo_histogram_free(hi);
    }
    /* Upper as chosen at creation. */
    {
        picollo_histogram_config c = picollo_histogram_config_default();
        picollo_histogram *hu = NULL;
        picollo_percentile p;
        c.value_selection = PICOLLO_VALUE_SELECTION_UPPER;
        EXPECT(picollo_histogram_new(&c, &hu), PICOLLO_STATUS_OK);
        picollo_histogram_record(hu, 1000000);
        EXPECT(picollo_histogram_percentile(hu, 50.0, &p), PICOLLO_STATUS_OK);
        CHECK(p.value == p.highest && p.value >= 1000000);
        picollo_histogram_free(hu);
    }
}

/* A rank or a batch of ranks that must be refused, with the outputs untouched. */
static void refuse_ranks_at(int line, const picollo_histogram *h, const double *ranks, size_t n,
                            const char *what)
{
    picollo_percentile out[8], canary[8];
    uint64_t values[8], value_canary[8];
    memset(out, 0xAB, sizeof out);
    memset(canary, 0xAB, sizeof canary);
    memset(values, 0xCD, sizeof values);
    memset(value_canary, 0xCD, sizeof value_canary);
    prime_error();
    expect_at(line, what, picollo_histogram_percentiles(h, ranks, n, out),
              PICOLLO_STATUS_INVALID_ARGUMENT, "rank");
    prime_error();
    expect_at(line, what, picollo_histogram_percentile_values(h, ranks, n, values),
              PICOLLO_STATUS_INVALID_ARGUMENT, "rank");
    if (n == 1) {
        prime_error();
        expect_at(line, what, picollo_histogram_percentile(h, ranks[0], out),
                  PICOLLO_STATUS_INVALID_ARGUMENT, "rank");
    }
    check_at(line, memcmp(out, canary, sizeof out) == 0 &&
                       memcmp(values, value_canary, sizeof values) == 0,
             what, "outputs were written on failure");
}
#define REFUSE_RANKS(h, ranks, what) \
    refuse_ranks_at(__LINE__, (h), (ranks), sizeof(ranks) / sizeof(ranks)[0], (what))

static void test_bad_ranks(void)
{
    picollo_histogram *h = make_histogram(64, 0.01, 0, 100000);
    picollo_histogram *empty = make_histogram(64, 0.01, 0, 100000);
    static const double singles[] = {-1.0, -1e-9, -4.9e-324, 100.0000001, 101.0, 1e300,
                                     INFINITY, -INFINITY};
    size_t k;
    picollo_percentile p;

    picollo_histogram_record(h, 500);
    picollo_histogram_record(h, 50000);
    for (k = 0; k < sizeof singles / sizeof singles[0]; k++) {
        refuse_ranks_at(__LINE__, h, &singles[k], 1, "rank outside [0, 100]");
    }
    {
        const double nan1[] = {NAN};
        const double nan_in_batch[] = {1.0, 50.0, NAN, 99.0};
        const double bad_last[] = {1.0, 50.0, 99.0, 100.5};
        const double equal[] = {10.0, 10.0};
        const double decreasing[] = {50.0, 40.0};
        const double zeros[] = {0.0, 0.0};
        const double tail_equal[] = {1.0, 2.0, 3.0, 3.0};
        const double hundreds[] = {100.0, 100.0};
        REFUSE_RANKS(h, nan1, "NaN rank");
        REFUSE_RANKS(h, nan_in_batch, "NaN inside a batch");
        REFUSE_RANKS(h, bad_last, "last rank above 100");
        REFUSE_RANKS(h, equal, "equal ranks");
        REFUSE_RANKS(h, decreasing, "decreasing ranks");
        REFUSE_RANKS(h, zeros, "equal zero ranks");
        REFUSE_RANKS(h, tail_equal, "equal ranks at the end");
        REFUSE_RANKS(h, hundreds, "equal ranks at 100");
        /* A bad rank is an argument error even on an empty histogram. */
        REFUSE_RANKS(empty, nan1, "NaN rank, empty histogram");
    }
    {
        /* The edges themselves are fine; -0.0 is rank 0. */
        const double edges[] = {0.0, 100.0};
        picollo_percentile two[2];
        EXPECT(picollo_histogram_percentiles(h, edges, 2, two), PICOLLO_STATUS_OK);
        CHECK(two[0].lower == 500 && two[1].lower <= 50000 && 50000 <= two[1].highest);
        EXPECT(picollo_histogram_percentile(h, -0.0, &p), PICOLLO_STATUS_OK);
        CHECK(p.lower == 500);
    }
    /* NULL arguments. */
    {
        const double r[3] = {1, 2, 3};
        picollo_percentile out[3];
        uint64_t values[3];
        EXPECT_MSG(picollo_histogram_percentile(NULL, 50.0, &p), PICOLLO_STATUS_NULL_POINTER, "h");
        EXPECT_MSG(picollo_histogram_percentile(h, 50.0, NULL), PICOLLO_STATUS_NULL_POINTER, "out");
        EXPECT_MSG(picollo_histogram_percentiles(NULL, r, 3, out), PICOLLO_STATUS_NULL_POINTER, "h");
        EXPECT_MSG(picollo_histogram_percentiles(h, NULL, 3, out), PICOLLO_STATUS_NULL_POINTER,
                   "ranks");
        EXPECT_MSG(picollo_histogram_percentiles(h, r, 3, NULL), PICOLLO_STATUS_NULL_POINTER, "out");
        EXPECT_MSG(picollo_histogram_percentile_values(NULL, r, 3, values),
                   PICOLLO_STATUS_NULL_POINTER, "h");
        EXPECT_MSG(picollo_histogram_percentile_values(h, NULL, 3, values),
                   PICOLLO_STATUS_NULL_POINTER, "ranks");
        EXPECT_MSG(picollo_histogram_percentile_values(h, r, 3, NULL), PICOLLO_STATUS_NULL_POINTER,
                   "out");
        EXPECT(picollo_histogram_percentiles(NULL, NULL, 0, NULL), PICOLLO_STATUS_NULL_POINTER);
    }
    picollo_histogram_free(h);
    picollo_histogram_free(empty);
}

/* Nothing in range: percentile queries say EMPTY; the summary is still defined. */
static void test_empty(void)
{
    picollo_histogram *h = make_histogram(32, 0.01, 100, 1000);
    picollo_percentile p, canary;
    picollo_percentile out[2];
    uint64_t values[2];
    const double r[2] = {50.0, 99.0};
    picollo_summary s;
    double mean = 0, stdev = 0;
    size_t cursor = 0;
    picollo_bucket b;
    int k, zero = 1;

    memset(&p, 0x5A, sizeof p);
    canary = p;
    EXPECT_MSG(picollo_histogram_percentile(h, 50.0, &p), PICOLLO_STATUS_EMPTY, "no value");
    CHECK(memcmp(&p, &canary, sizeof p) == 0);
    EXPECT(picollo_histogram_percentiles(h, r, 2, out), PICOLLO_STATUS_EMPTY);
    EXPECT(picollo_histogram_percentile_values(h, r, 2, values), PICOLLO_STATUS_EMPTY);
    EXPECT(picollo_histogram_next_bucket(h, &cursor, &b), PICOLLO_STATUS_OUT_OF_RANGE);
    CHECK(cursor == 0);
    EXPECT(picollo_histogram_bucket(h, 0, &b), PICOLLO_STATUS_OK);
    CHECK(b.count == 0 && b.lower <= 100 && 100 <= b.highest);
    EXPECT(picollo_histogram_mean_stdev(h, &mean, &stdev), PICOLLO_STATUS_OK);
    CHECK(isnan(mean) && isnan(stdev));
    s = summary_of(h);
    CHECK(s.total == 0 && isnan(s.mean) && isnan(s.stdev));
    for (k = 0; k < PICOLLO_SUMMARY_PERCENTILES; k++) {
        zero &= s.percentiles[k].rank == standard_ranks[k] && s.percentiles[k].value == 0 &&
                s.percentiles[k].count == 0;
    }
    CHECK(zero);
    CHECK(s.precision == 0.0078125 && s.min_trackable == 100 && s.max_trackable == 1000);

    /* Values only outside the range: still empty, but counted. */
    picollo_histogram_record(h, 1);
    picollo_histogram_record(h, 5000);
    EXPECT(picollo_histogram_percentile(h, 0.0, &p), PICOLLO_STATUS_EMPTY);
    s = summary_of(h);
    CHECK(s.total == 0 && s.underflow == 1 && s.overflow == 1);
    picollo_histogram_free(h);
}

static void test_buckets_and_info_args(void)
{
    picollo_histogram *h = make_histogram(64, 0.1, 0, 100); /* block 8: 37 buckets */
    picollo_histogram_info info = info_of(h);
    picollo_bucket b, prev, canary;
    size_t i, cursor;
    int contiguous = 1;
    uint64_t sum = 0;

    CHECK(info.storage_len == 37);
    memset(&prev, 0, sizeof prev);
    for (i = 0; i < (size_t)info.storage_len; i++) {
        if (!EXPECT(picollo_histogram_bucket(h, i, &b), PICOLLO_STATUS_OK)) {
            break;
        }
        contiguous &= b.storage_index == i && b.logical_index == i && b.count == 0 &&
                      (i == 0 ? b.lower == 0 : b.lower == prev.highest + 1);
        prev = b;
    }
    CHECK(contiguous && prev.lower <= 100 && 100 <= prev.highest);
    memset(&b, 0x77, sizeof b);
    canary = b;
    EXPECT_MSG(picollo_histogram_bucket(h, (size_t)info.storage_len, &b),
               PICOLLO_STATUS_OUT_OF_RANGE, "past");
    EXPECT(picollo_histogram_bucket(h, SIZE_MAX, &b), PICOLLO_STATUS_OUT_OF_RANGE);
    CHECK(memcmp(&b, &canary, sizeof b) == 0);

    /* The cursor: from 0, from the middle, at and past the end. */
    picollo_histogram_record(h, 3);
    picollo_histogram_record_n(h, 40, 5);
    picollo_histogram_record(h, 100);
    picollo_histogram_record(h, 1000); /* overflow: no bucket */
    cursor = 0;
    i = 0;
    while (picollo_histogram_next_bucket(h, &cursor, &b) == PICOLLO_STATUS_OK) {
        sum += b.count;
        i++;
    }
    CHECK(i == 3 && sum == 7 && sum == info_of(h).total);
    CHECK(cursor == (size_t)info.storage_len);
    cursor = 4; /* after the bucket of 3 */
    if (EXPECT(picollo_histogram_next_bucket(h, &cursor, &b), PICOLLO_STATUS_OK)) {
        CHECK(b.lower <= 40 && 40 <= b.highest && b.count == 5 && cursor == b.storage_index + 1);
    }
    cursor = SIZE_MAX;
    memset(&b, 0x77, sizeof b);
    EXPECT_MSG(picollo_histogram_next_bucket(h, &cursor, &b), PICOLLO_STATUS_OUT_OF_RANGE,
               "no more");
    CHECK(cursor == SIZE_MAX && memcmp(&b, &canary, sizeof b) == 0);

    /* NULL arguments. */
    cursor = 0;
    EXPECT_MSG(picollo_histogram_bucket(NULL, 0, &b), PICOLLO_STATUS_NULL_POINTER, "h");
    EXPECT_MSG(picollo_histogram_bucket(h, 0, NULL), PICOLLO_STATUS_NULL_POINTER, "out");
    EXPECT_MSG(picollo_histogram_next_bucket(NULL, &cursor, &b), PICOLLO_STATUS_NULL_POINTER, "h");
    EXPECT_MSG(picollo_histogram_next_bucket(h, NULL, &b), PICOLLO_STATUS_NULL_POINTER, "cursor");
    EXPECT_MSG(picollo_histogram_next_bucket(h, &cursor, NULL), PICOLLO_STATUS_NULL_POINTER, "out");
    CHECK(cursor == 0);
    {
        picollo_histogram_info i2;
        picollo_summary s, s_canary;
        double m = 0;
        memset(&s, 0x11, sizeof s);
        s_canary = s;
        EXPECT_MSG(picollo_histogram_get_info(NULL, &i2), PICOLLO_STATUS_NULL_POINTER, "h");
        EXPECT_MSG(picollo_histogram_get_info(h, NULL), PICOLLO_STATUS_NULL_POINTER, "out");
        EXPECT_MSG(picollo_histogram_summary(NULL, &s), PICOLLO_STATUS_NULL_POINTER, "h");
        EXPECT_MSG(picollo_histogram_summary(h, NULL), PICOLLO_STATUS_NULL_POINTER, "out");
        CHECK(memcmp(&s, &s_canary, sizeof s) == 0);
        EXPECT_MSG(picollo_histogram_mean_stdev(NULL, &m, NULL), PICOLLO_STATUS_NULL_POINTER, "h");
    }
    picollo_histogram_free(h);
}

/* A histogram of a random mode, counter width, relative error, range and value selection,
 * holding random values of every magnitude (some outside its range). */
static picollo_histogram *random_histogram(uint64_t *rng)
{
    static const double errors[] = {0.05, 0.01, 0.001, 0.0005};
    uint32_t bits = rng_next(rng) % 2 ? 64 : 32;
    picollo_histogram_config c = config_of((uint32_t)(rng_next(rng) % 4), bits, errors[rng_next(rng) % 4]);
    c.min_trackable = rng_next(rng) % 1000;
    c.max_trackable = c.min_trackable + 1 + (rng_next(rng) >> (1 + rng_next(rng) % 40));
    c.value_selection = (uint32_t)(rng_next(rng) % 4);
    picollo_histogram *h = new_or_exit(&c);
    uint64_t n = 1 + rng_next(rng) % 3000, past = c.max_trackable > UINT64_MAX / 2 ? UINT64_MAX : 2 * c.max_trackable;
    for (uint64_t i = 0; i < n; i++) {
        uint64_t v = (rng_next(rng) >> (rng_next(rng) % 64)) % past;
        picollo_histogram_record_n(h, v, 1 + rng_next(rng) % 100);
    }
    return h;
}

/* The cumulative copy's answers are the live histogram's: percentiles at random ranks (whole
 * structs), ranks, quantiles and counts between random values, the total; 50 histograms. */
static void test_cumulative_agrees(void)
{
    enum { RANKS = 1000 };
    static double ranks[RANKS];
    static picollo_percentile live[RANKS], copy[RANKS];
    uint64_t rng = 20;
    for (int k = 0; k < 50; k++) {
        picollo_histogram *h = random_histogram(&rng);
        picollo_cumulative *c = NULL;
        EXPECT(picollo_cumulative_new(h, &c), PICOLLO_STATUS_OK);
        for (int i = 0; i < RANKS; i++) {
            ranks[i] = 100.0 * i / RANKS + rng_unit(&rng) * (100.0 / RANKS);
        }
        EXPECT(picollo_histogram_percentiles(h, ranks, RANKS, live), PICOLLO_STATUS_OK);
        EXPECT(picollo_cumulative_percentiles(c, ranks, RANKS, copy), PICOLLO_STATUS_OK);
        CHECKF(memcmp(live, copy, sizeof live) == 0, "histogram %d", k);
        EXPECT(picollo_cumulative_percentile(c, 99.9, &copy[0]), PICOLLO_STATUS_OK);
        EXPECT(picollo_histogram_percentile(h, 99.9, &live[0]), PICOLLO_STATUS_OK);
        CHECKF(memcmp(&live[0], &copy[0], sizeof live[0]) == 0, "histogram %d", k);
        uint64_t total = 0;
        EXPECT(picollo_cumulative_total_count(c, &total), PICOLLO_STATUS_OK);
        CHECKF(total == summary_of(h).total, "histogram %d", k);
        for (int i = 0; i < 200; i++) {
            uint64_t a = rng_next(&rng) >> (rng_next(&rng) % 64), b = rng_next(&rng) >> (rng_next(&rng) % 64);
            uint64_t lo = a < b ? a : b, hi = a < b ? b : a, n_live = 0, n_copy = 1;
            double r_live = 0, r_copy = 1, q_live = 0, q_copy = 1;
            EXPECT(picollo_histogram_rank_of(h, a, &r_live), PICOLLO_STATUS_OK);
            EXPECT(picollo_cumulative_rank_of(c, a, &r_copy), PICOLLO_STATUS_OK);
            EXPECT(picollo_histogram_quantile_of(h, a, &q_live), PICOLLO_STATUS_OK);
            EXPECT(picollo_cumulative_quantile_of(c, a, &q_copy), PICOLLO_STATUS_OK);
            EXPECT(picollo_histogram_count_between(h, lo, hi, &n_live), PICOLLO_STATUS_OK);
            EXPECT(picollo_cumulative_count_between(c, lo, hi, &n_copy), PICOLLO_STATUS_OK);
            CHECKF(r_live == r_copy && q_live == q_copy && n_live == n_copy, "histogram %d, %llu..%llu", k,
                   (unsigned long long)lo, (unsigned long long)hi);
        }
        picollo_cumulative_free(c);
        picollo_histogram_free(h);
    }
}

void test_queries(void)
{
    test_cumulative_agrees();
    test_moments_exact();
    test_value_selection();
    test_bad_ranks();
    test_empty();
    test_buckets_and_info_args();
}
