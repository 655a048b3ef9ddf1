/*
 * test_abi_model.c: a generated data set recorded three ways (record, record_many, record_n)
 * and every query checked against a brute-force model: underflow/overflow/total, each
 * non-empty bucket (bounds from an independent layout model, count), percentiles against
 * exact order statistics (scalar, batch and values-only agreeing), the summary, and mean and
 * stdev over bucket midpoints.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

/* The count a rank points at: ceil(rank / 100 × n) at a resolution of 1e-9 percent,
 * clamped to [1, n] (the definition the header gives for rank_count). */
static uint64_t rank_target(double rank, uint64_t n)
{
    const uint64_t denominator = UINT64_C(100000000000); /* 100 × 1e9 */
    uint64_t scaled = (uint64_t)llround(rank * 1e9);
    uint64_t t = (scaled * n + denominator - 1) / denominator; /* n < 2^20: no overflow */
    return t < 1 ? 1 : (t > n ? n : t);
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static uint64_t midpoint(uint64_t lower, uint64_t highest)
{
    return lower + (highest - lower + 1) / 2;
}

static int close_rel(double a, double b, double tol)
{
    return fabs(a - b) <= tol * fabs(b) || a == b;
}

/* One percentile against the sorted model: the exact order statistic lies in its bucket,
 * and every field is consistent with the bucket and the layout model. */
static void check_percentile_at(int line, const picollo_histogram *h, layout_model m,
                                uint64_t first_index, const uint64_t *sorted, uint64_t n,
                                double rank, const picollo_percentile *p)
{
    uint64_t target = rank_target(rank, n);
    uint64_t exact = sorted[target - 1];
    picollo_bucket b;
    check_at(line, p->rank == rank, "rank", "%g vs %g", p->rank, rank);
    check_at(line, p->lower <= exact && exact <= p->highest, "exact value in its bucket",
             "P%g: exact %llu not in [%llu, %llu]", rank, (unsigned long long)exact,
             (unsigned long long)p->lower, (unsigned long long)p->highest);
    check_at(line, p->rank_count == target, "rank_count", "P%g: %llu, expected %llu", rank,
             (unsigned long long)p->rank_count, (unsigned long long)target);
    check_at(line, p->cumulative_count >= target && p->cumulative_count - p->count < target,
             "cumulative count brackets the target", "P%g: cumulative %llu count %llu", rank,
             (unsigned long long)p->cumulative_count, (unsigned long long)p->count);
    check_at(line,
             p->logical_index == model_index(m, p->lower) &&
                 p->lower == model_lower(m, p->logical_index) &&
                 p->highest == model_highest(m, p->logical_index) &&
                 p->storage_index == p->logical_index - first_index,
             "bucket matches the layout model", "P%g: [%llu, %llu] logical %llu storage %llu",
             rank, (unsigned long long)p->lower, (unsigned long long)p->highest,
             (unsigned long long)p->logical_index, (unsigned long long)p->storage_index);
    check_at(line, p->upper == p->highest + 1, "upper = highest + 1", NULL);
    check_at(line, picollo_histogram_bucket(h, (size_t)p->storage_index, &b) == PICOLLO_STATUS_OK &&
                       b.count == p->count && b.lower == p->lower,
             "percentile's bucket agrees with picollo_histogram_bucket", NULL);
}

/* Record a generated data set three ways (record, record_many, record_n) and compare every
 * query with a brute-force model of the values. */
static void test_against_model(uint32_t bits)
{
    const uint64_t min = 1001, max = 1000000; /* min not on a bucket edge */
    picollo_histogram *h = make_histogram(bits, 0.01, min, max);
    layout_model m = model_of_block_size(64);
    const uint64_t first = model_index(m, min), last = model_index(m, max);
    enum { N = 20000 };
    uint64_t *vals = malloc(sizeof(uint64_t) * 2 * N);
    uint64_t batch[256];
    size_t nbatch = 0;
    uint64_t n = 0, under = 0, over = 0, seed = 1234 + bits;
    int k;
    picollo_histogram_info info;
    picollo_summary s;

    if (vals == NULL) {
        fprintf(stderr, "FATAL: out of memory\n");
        exit(2);
    }
    for (k = 0; k < N; k++) {
        /* Log-uniform over 100 .. 3e6: some below, most inside, some above the range. */
        uint64_t v = (uint64_t)exp(log(100.0) + rng_unit(&seed) * (log(3e6) - log(100.0)));
        uint64_t times = k % 3 == 2 ? 2 : 1;
        uint64_t idx = model_index(m, v);
        if (k % 3 == 0) {
            picollo_histogram_record(h, v);
        } else if (k % 3 == 1) {
            batch[nbatch++] = v;
            if (nbatch == sizeof batch / sizeof batch[0]) {
                EXPECT(picollo_histogram_record_many(h, batch, nbatch), PICOLLO_STATUS_OK);
                nbatch = 0;
            }
        } else {
            picollo_histogram_record_n(h, v, times);
        }
        if (idx < first) {
            under += times;
        } else if (idx > last) {
            over += times;
        } else {
            vals[n++] = v;
            if (times == 2) {
                vals[n++] = v;
            }
        }
    }
    EXPECT(picollo_histogram_record_many(h, batch, nbatch), PICOLLO_STATUS_OK);
    qsort(vals, (size_t)n, sizeof vals[0], cmp_u64);

    info = info_of(h);
    CHECKF(info.total == n && info.underflow == under && info.overflow == over,
           "%u bits: total %llu/%llu underflow %llu/%llu overflow %llu/%llu", (unsigned)bits,
           (unsigned long long)info.total, (unsigned long long)n,
           (unsigned long long)info.underflow, (unsigned long long)under,
           (unsigned long long)info.overflow, (unsigned long long)over);
    CHECK(under > 0 && over > 0 && info.saturated == 0);

    /* Buckets: the cursor walks the non-empty ones in order, each as the model says. */
    {
        size_t cursor = 0, i = 0;
        picollo_bucket b, again;
        uint64_t sum = 0, buckets = 0;
        int shape_ok = 1, counts_ok = 1, same_ok = 1, cursor_ok = 1;
        long double msum = 0, msq = 0, raw = 0, mean;
        while (picollo_histogram_next_bucket(h, &cursor, &b) == PICOLLO_STATUS_OK) {
            uint64_t c = 0;
            buckets++;
            sum += b.count;
            shape_ok &= b.logical_index == model_index(m, b.lower) &&
                        b.lower == model_lower(m, b.logical_index) &&
                        b.highest == model_highest(m, b.logical_index) &&
                        b.storage_index == b.logical_index - first &&
                        b.value == midpoint(b.lower, b.highest) && b.count > 0;
            cursor_ok &= cursor == b.storage_index + 1;
            /* Model values skipped before this bucket would be values the library lost. */
            while (i < n && vals[i] < b.lower) {
                counts_ok = 0;
                i++;
            }
            while (i < n && vals[i] <= b.highest) {
                c++;
                i++;
            }
            counts_ok &= c == b.count;
            same_ok &= picollo_histogram_bucket(h, (size_t)b.storage_index, &again) ==
                           PICOLLO_STATUS_OK &&
                       memcmp(&b, &again, sizeof b) == 0;
        }
        CHECK(shape_ok);
        CHECK(cursor_ok);
        CHECKF(counts_ok && i == n, "every model value in a bucket of the right count (%llu/%llu)",
               (unsigned long long)i, (unsigned long long)n);
        CHECK(same_ok);
        CHECK(sum == info.total && buckets > 100);

        /* Moments over bucket midpoints, brute force. */
        for (i = 0; i < n; i++) {
            uint64_t idx = model_index(m, vals[i]);
            msum += (long double)midpoint(model_lower(m, idx), model_highest(m, idx));
            raw += (long double)vals[i];
        }
        mean = msum / (long double)n;
        for (i = 0; i < n; i++) {
            uint64_t idx = model_index(m, vals[i]);
            long double d =
                (long double)midpoint(model_lower(m, idx), model_highest(m, idx)) - mean;
            msq += d * d;
        }
        s = summary_of(h);
        CHECKF(close_rel(s.mean, (double)mean, 1e-12), "mean %.17g, model %.17g", s.mean,
               (double)mean);
        CHECKF(close_rel(s.stdev, (double)sqrtl(msq / (long double)n), 1e-12),
               "stdev %.17g, model %.17g", s.stdev, (double)sqrtl(msq / (long double)n));
        /* Midpoints are within the precision of each value, so the mean is too. */
        CHECK(fabs(s.mean - (double)(raw / (long double)n)) <=
              info.relative_error * (double)(raw / (long double)n));
    }

    /* The summary: totals, layout facts, and the 16 percentiles against order statistics. */
    CHECK(s.total == n && s.underflow == under && s.overflow == over && s.saturated == 0);
    CHECK(s.precision == info.relative_error && s.precision == 0.0078125);
    CHECK(s.min_trackable == min && s.max_trackable == max);
    for (k = 0; k < PICOLLO_SUMMARY_PERCENTILES; k++) {
        const picollo_percentile *p = &s.percentiles[k];
        check_percentile_at(__LINE__, h, m, first, vals, n, standard_ranks[k], p);
        CHECK(p->value == midpoint(p->lower, p->highest));
        CHECK(p->plus_minus == (p->highest - p->lower + 1) / 2);
    }
    CHECK(s.percentiles[0].lower <= vals[0] && vals[0] <= s.percentiles[0].highest);
    CHECK(s.percentiles[15].lower <= vals[n - 1] && vals[n - 1] <= s.percentiles[15].highest);

    /* Batch agrees with the summary, with the scalar query and with the values-only query. */
    {
        static const double extra[] = {0.0, 1e-9, 0.001, 12.5, 33.333, 50.0, 66.6, 99.0, 99.9999, 100.0};
        picollo_percentile batch16[PICOLLO_SUMMARY_PERCENTILES], one, more[10];
        uint64_t values[PICOLLO_SUMMARY_PERCENTILES], extra_values[10];
        int agree = 1, values_agree = 1;
        size_t j;
        memset(batch16, 0, sizeof batch16);
        EXPECT(picollo_histogram_percentiles(h, standard_ranks, PICOLLO_SUMMARY_PERCENTILES, batch16),
               PICOLLO_STATUS_OK);
        CHECK(memcmp(batch16, s.percentiles, sizeof batch16) == 0);
        EXPECT(picollo_histogram_percentile_values(h, standard_ranks, PICOLLO_SUMMARY_PERCENTILES,
                                                   values),
               PICOLLO_STATUS_OK);
        for (j = 0; j < PICOLLO_SUMMARY_PERCENTILES; j++) {
            memset(&one, 0, sizeof one);
            agree &= picollo_histogram_percentile(h, standard_ranks[j], &one) == PICOLLO_STATUS_OK &&
                     memcmp(&one, &batch16[j], sizeof one) == 0;
            values_agree &= values[j] == batch16[j].value;
        }
        CHECK(agree);
        CHECK(values_agree);
        memset(more, 0, sizeof more);
        EXPECT(picollo_histogram_percentiles(h, extra, 10, more), PICOLLO_STATUS_OK);
        EXPECT(picollo_histogram_percentile_values(h, extra, 10, extra_values), PICOLLO_STATUS_OK);
        agree = 1;
        for (j = 0; j < 10; j++) {
            check_percentile_at(__LINE__, h, m, first, vals, n, extra[j], &more[j]);
            agree &= picollo_histogram_percentile(h, extra[j], &one) == PICOLLO_STATUS_OK &&
                     memcmp(&one, &more[j], sizeof one) == 0 && extra_values[j] == more[j].value;
        }
        CHECK(agree);
        /* n = 0 asks for nothing: fine, even with NULL arrays. */
        EXPECT(picollo_histogram_percentiles(h, NULL, 0, NULL), PICOLLO_STATUS_OK);
        EXPECT(picollo_histogram_percentile_values(h, NULL, 0, NULL), PICOLLO_STATUS_OK);
    }

    /* mean_stdev: the summary's figures; either output may be NULL. */
    {
        double mean = -1, stdev = -1;
        EXPECT(picollo_histogram_mean_stdev(h, &mean, &stdev), PICOLLO_STATUS_OK);
        CHECK(mean == s.mean && stdev == s.stdev);
        mean = -1;
        EXPECT(picollo_histogram_mean_stdev(h, &mean, NULL), PICOLLO_STATUS_OK);
        CHECK(mean == s.mean);
        stdev = -1;
        EXPECT(picollo_histogram_mean_stdev(h, NULL, &stdev), PICOLLO_STATUS_OK);
        CHECK(stdev == s.stdev);
        EXPECT(picollo_histogram_mean_stdev(h, NULL, NULL), PICOLLO_STATUS_OK);
    }
    free(vals);
    picollo_histogram_free(h);
}

void test_model(void)
{
    test_against_model(32);
    test_against_model(64);
}
