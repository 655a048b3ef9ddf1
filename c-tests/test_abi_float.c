/*
 * test_abi_float.c: the float histogram from C: quantiles against exact order statistics
 * (within the relative error, both signs, subnormals, zero, NaN and infinities apart),
 * exact extremes and sum, ranks of values, counts between values, equivalent ranges,
 * bucket iteration, merges, snapshots with deltas, text, dense and sparse storage, both
 * modes and both counter widths, and bad configurations.
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static picollo_float_histogram *make_float(double e, uint32_t bits, uint32_t storage,
                                           uint32_t mode)
{
    picollo_float_config cfg = picollo_float_config_default();
    picollo_float_histogram *h = NULL;
    cfg.relative_error = e;
    cfg.counter_bits = bits;
    cfg.storage = storage;
    cfg.mode = mode;
    if (!EXPECT(picollo_float_histogram_new(&cfg, &h), PICOLLO_STATUS_OK)) {
        abort();
    }
    return h;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* k = max(1, ceil(rank/100 · n)) for the standard ranks (at most three decimals). */
static uint64_t rank_count(double rank, uint64_t n)
{
    uint64_t milli = (uint64_t)(rank * 1000.0 + 0.5);
    uint64_t k = (milli * n + 99999) / 100000; /* n is far below 2^40 here */
    return k < 1 ? 1 : (uint64_t)k;
}

static picollo_float_info float_info(const picollo_float_histogram *h)
{
    picollo_float_info i;
    memset(&i, 0, sizeof i);
    EXPECT(picollo_float_histogram_get_info(h, &i), PICOLLO_STATUS_OK);
    return i;
}

static void test_quantiles_against_order_statistics(void)
{
    enum { N = 20000 };
    static double values[N + 8];
    static double finite[N + 8];
    uint64_t seed = 4242;
    size_t n = 0, nf = 0, i;
    for (i = 0; i < N; i++) {
        /* Log-uniform magnitudes 1e-310..1e300 (subnormals included), both signs. */
        double u = rng_unit(&seed);
        double m = pow(10.0, u * 610.0 - 310.0);
        values[n++] = (i % 3 == 0) ? -m : m;
    }
    values[n++] = 0.0;
    values[n++] = -0.0;
    values[n++] = NAN;
    values[n++] = INFINITY;
    values[n++] = -INFINITY;
    values[n++] = DBL_MAX;
    values[n++] = -DBL_MAX;
    values[n++] = 5e-324;
    for (i = 0; i < n; i++) {
        if (isfinite(values[i])) {
            finite[nf++] = values[i] == 0.0 ? 0.0 : values[i];
        }
    }
    qsort(finite, nf, sizeof finite[0], by_value);
    for (uint32_t storage = 0; storage <= 1; storage++) {
        for (uint32_t mode = 0; mode <= 1; mode++) {
            for (uint32_t bits = 32; bits <= 64; bits += 32) {
                const double errors[] = {0.1, 0.01, 0.001};
                for (size_t k = 0; k < 3; k++) {
                    /* Dense storage over every finite magnitude is big: only at 10 %. */
                    if (storage == 0 && errors[k] < 0.1) {
                        continue;
                    }
                    picollo_float_histogram *h = make_float(errors[k], bits, storage, mode);
                    picollo_float_summary s;
                    picollo_float_info info;
                    EXPECT(picollo_float_histogram_record_many(h, values, n), PICOLLO_STATUS_OK);
                    info = float_info(h);
                    CHECK(info.total == nf && info.nan == 1);
                    CHECK(info.positive_infinity == 1 && info.negative_infinity == 1);
                    CHECK(info.zero == 2 && info.counter_bits == bits);
                    CHECK(info.min == -DBL_MAX && info.max == DBL_MAX);
                    if (!EXPECT(picollo_float_histogram_summary(h, &s), PICOLLO_STATUS_OK)) {
                        continue;
                    }
                    for (size_t r = 0; r < PICOLLO_SUMMARY_PERCENTILES; r++) {
                        const picollo_float_percentile *p = &s.percentiles[r];
                        uint64_t want = rank_count(standard_ranks[r], nf);
                        double y = finite[want - 1];
                        CHECKF(fabs(p->value - y) <= info.relative_error * fabs(y) * (1 + 1e-12),
                               "e=%g storage %u mode %u P%g: true %g, reported %g", errors[k],
                               storage, mode, standard_ranks[r], y, p->value);
                        CHECKF(p->lowest <= y && y <= p->highest, "P%g: %g not in [%g, %g]",
                               standard_ranks[r], y, p->lowest, p->highest);
                        CHECK(p->rank_count == want);
                    }
                    picollo_float_histogram_free(h);
                }
            }
        }
    }
}

static void test_queries_and_text(void)
{
    picollo_float_histogram *h = make_float(0.01, 64, 1, 0);
    picollo_float_histogram *other = NULL;
    double v, lo, hi;
    uint64_t n;
    for (int i = -1000; i <= 1000; i++) {
        picollo_float_histogram_record(h, (double)i * 0.5);
    }
    picollo_float_histogram_record_f32(h, 1.5f);
    picollo_float_histogram_record_n(h, 7.25, 3);
    picollo_float_histogram_record_n(h, 7.25, 0);
    {
        const float fs[] = {2.0f, -2.0f};
        EXPECT(picollo_float_histogram_record_many_f32(h, fs, 2), PICOLLO_STATUS_OK);
    }
    /* rank_of: all values at or below 0 are the 1,000 negatives and the zero. */
    EXPECT(picollo_float_histogram_rank_of(h, 0.0, &v), PICOLLO_STATUS_OK);
    CHECKF(v == 1002.0, "rank of 0: %g", v); /* -2.0 from the float array too */
    EXPECT(picollo_float_histogram_rank_of(h, -INFINITY, &v), PICOLLO_STATUS_OK);
    CHECK(v == 0.0);
    EXPECT_MSG(picollo_float_histogram_rank_of(h, NAN, &v), PICOLLO_STATUS_INVALID_ARGUMENT,
               "NaN");
    EXPECT(picollo_float_histogram_quantile_of(h, INFINITY, &v), PICOLLO_STATUS_OK);
    CHECK(v == 1.0);
    EXPECT(picollo_float_histogram_count_between(h, 0.0, 0.0, &n), PICOLLO_STATUS_OK);
    CHECK(n == 1);
    EXPECT(picollo_float_histogram_count_between(h, -1000.0, 1000.0, &n), PICOLLO_STATUS_OK);
    CHECK(n == float_info(h).total);
    EXPECT(picollo_float_histogram_count_between(h, 1.0, -1.0, &n),
           PICOLLO_STATUS_INVALID_ARGUMENT);
    EXPECT(picollo_float_histogram_equivalent_range(h, 100.0, &lo, &hi), PICOLLO_STATUS_OK);
    CHECK(lo <= 100.0 && 100.0 <= hi && (hi - lo) <= 100.0 * 0.02);
    EXPECT(picollo_float_histogram_equivalent_range(h, -100.0, &lo, &hi), PICOLLO_STATUS_OK);
    CHECK(lo <= -100.0 && -100.0 <= hi);
    EXPECT(picollo_float_histogram_equivalent_range(h, 0.0, &lo, &hi), PICOLLO_STATUS_OK);
    CHECK(lo == 0.0 && hi == 0.0);
    EXPECT(picollo_float_histogram_equivalent_range(h, NAN, &lo, &hi),
           PICOLLO_STATUS_INVALID_ARGUMENT);
    /* Buckets in ascending value order, in batches of 7, add up to the total. */
    {
        uint64_t cursor = 0, sum = 0;
        double last = -INFINITY;
        picollo_float_bucket batch[7];
        size_t written = 0;
        picollo_status st;
        while ((st = picollo_float_histogram_next_buckets(h, &cursor, batch, 7, &written)) ==
               PICOLLO_STATUS_OK) {
            for (size_t k = 0; k < written; k++) {
                CHECK(batch[k].lowest > last || (last == -INFINITY));
                CHECK(batch[k].lowest <= batch[k].value && batch[k].value <= batch[k].highest);
                last = batch[k].highest;
                sum += batch[k].count;
            }
        }
        CHECK(st == PICOLLO_STATUS_OUT_OF_RANGE);
        CHECK(sum == float_info(h).total);
    }
    /* Text: the table and the line; the diff of two summaries. */
    {
        char buf[8192];
        size_t needed = 0;
        picollo_float_summary a, b;
        EXPECT(picollo_float_histogram_text(h, 0, "Floats", buf, sizeof buf, &needed),
               PICOLLO_STATUS_OK);
        CHECK(strncmp(buf, "##### Floats\n| Percentile |", 27) == 0);
        CHECK(strstr(buf, "| Min:") != NULL && strstr(buf, "| Zero:") != NULL);
        EXPECT(picollo_float_histogram_text(h, 1, "f", buf, sizeof buf, &needed),
               PICOLLO_STATUS_OK);
        CHECKF(strncmp(buf, "f: Total=2,007,", 15) == 0, "%s", buf);
        EXPECT(picollo_float_histogram_text(h, 2, "f", buf, sizeof buf, &needed),
               PICOLLO_STATUS_OK);
        CHECKF(strncmp(buf, "{\"minMagnitude\":", 15) == 0, "%s", buf);
        CHECK(strstr(buf, "\"nanCount\":") != NULL && strstr(buf, "\"lowest\":") != NULL);
        CHECK(buf[strlen(buf) - 1] == '}' && strlen(buf) == needed);
        EXPECT(picollo_float_histogram_text(h, 3, "f", buf, sizeof buf, &needed),
               PICOLLO_STATUS_INVALID_ARGUMENT);
        CHECKF(strstr(picollo_last_error_message(), "format 3 is unknown") != NULL, "%s",
               picollo_last_error_message());
        EXPECT(picollo_float_histogram_text(h, 0, "f", buf, 10, &needed),
               PICOLLO_STATUS_BUFFER_TOO_SMALL);
        CHECK(needed > 10 && strlen(buf) == 9);
        EXPECT(picollo_float_histogram_summary(h, &a), PICOLLO_STATUS_OK);
        b = a;
        b.percentiles[5].value *= 2;
        EXPECT(picollo_float_summary_table(&a, NULL, buf, sizeof buf, &needed), PICOLLO_STATUS_OK);
        CHECK(strncmp(buf, "| Percentile |", 14) == 0);
        EXPECT(picollo_float_summary_diff(&a, &b, "d", NULL, NULL, buf, sizeof buf, &needed),
               PICOLLO_STATUS_OK);
        CHECK(strstr(buf, "| Percentile | A ") != NULL && strstr(buf, "D-value") != NULL);
        /* An empty column name heads its column as NULL does, as for integer summaries. */
        EXPECT(picollo_float_summary_diff(&a, &b, "d", "", "", buf, sizeof buf, &needed),
               PICOLLO_STATUS_OK);
        CHECKF(strstr(buf, "| Percentile | A ") != NULL && strstr(buf, "| B ") != NULL, "%s", buf);
        EXPECT(picollo_float_summary_diff(&a, &b, "d", "old", "", buf, sizeof buf, &needed),
               PICOLLO_STATUS_OK);
        CHECKF(strstr(buf, "| Percentile | old ") != NULL && strstr(buf, "| B ") != NULL, "%s", buf);
        /* A summary's line is the histogram's. */
        {
            char line[512];
            EXPECT(picollo_float_histogram_text(h, 1, "f", line, sizeof line, NULL),
                   PICOLLO_STATUS_OK);
            EXPECT(picollo_float_summary_line(&a, "f", buf, sizeof buf, &needed),
                   PICOLLO_STATUS_OK);
            CHECKF(strcmp(buf, line) == 0 && needed == strlen(line), "%s | %s", buf, line);
            EXPECT(picollo_float_summary_line(&a, NULL, buf, sizeof buf, NULL), PICOLLO_STATUS_OK);
            CHECKF(strcmp(buf, line + 3) == 0, "%s", buf);
            EXPECT(picollo_float_summary_line(&a, "f", buf, 8, &needed),
                   PICOLLO_STATUS_BUFFER_TOO_SMALL);
            CHECK(needed == strlen(line) && strlen(buf) == 7);
        }
        /* A summary's JSON is the histogram's. */
        {
            char json[8192];
            EXPECT(picollo_float_histogram_text(h, 2, NULL, json, sizeof json, NULL),
                   PICOLLO_STATUS_OK);
            EXPECT(picollo_float_summary_json(&a, buf, sizeof buf, &needed), PICOLLO_STATUS_OK);
            CHECKF(strcmp(buf, json) == 0 && needed == strlen(json), "%s | %s", buf, json);
            EXPECT(picollo_float_summary_json(&a, buf, 8, &needed),
                   PICOLLO_STATUS_BUFFER_TOO_SMALL);
            EXPECT(picollo_float_summary_json(NULL, buf, sizeof buf, &needed),
                   PICOLLO_STATUS_NULL_POINTER);
        }
    }
    /* Merges: same relative error, another range; another relative error is refused. */
    {
        picollo_float_config cfg = picollo_float_config_default();
        picollo_float_info i;
        cfg.relative_error = 0.01;
        cfg.min_magnitude = 1.0;
        cfg.max_magnitude = 100.0;
        cfg.storage = 0;
        EXPECT(picollo_float_histogram_new(&cfg, &other), PICOLLO_STATUS_OK);
        EXPECT(picollo_float_histogram_add(other, h), PICOLLO_STATUS_OK);
        i = float_info(other);
        CHECK(i.total + i.underflow + i.overflow == float_info(h).total);
        CHECK(i.min == -500.0 && i.max == 500.0);
        EXPECT(picollo_float_histogram_add(h, h), PICOLLO_STATUS_INVALID_ARGUMENT);
        picollo_float_histogram_free(other);
        other = make_float(0.1, 64, 1, 0);
        EXPECT(picollo_float_histogram_add(other, h), PICOLLO_STATUS_LAYOUT_MISMATCH);
        picollo_float_histogram_free(other);
    }
    /* Snapshots with deltas, and resets. */
    {
        picollo_float_snapshot *snap = NULL;
        picollo_float_summary s;
        EXPECT(picollo_float_snapshot_new(h, &snap), PICOLLO_STATUS_OK);
        picollo_float_histogram_record(h, 3.0);
        picollo_float_histogram_record(h, -4.0);
        EXPECT(picollo_float_snapshot_update(snap, h, 1), PICOLLO_STATUS_OK);
        EXPECT(picollo_float_snapshot_summary(snap, &s), PICOLLO_STATUS_OK);
        CHECK(s.total == 2 && s.sum == -1.0 && isnan(s.min));
        EXPECT(picollo_float_snapshot_update(snap, h, 0), PICOLLO_STATUS_OK);
        EXPECT(picollo_float_snapshot_summary(snap, &s), PICOLLO_STATUS_OK);
        CHECK(s.total == float_info(h).total && s.min == -500.0);
        EXPECT(picollo_float_histogram_reset(h), PICOLLO_STATUS_OK);
        CHECK(float_info(h).total == 0 && isnan(float_info(h).min));
        picollo_float_histogram_record(h, 1.0);
        EXPECT(picollo_float_snapshot_update(snap, h, 1), PICOLLO_STATUS_OK);
        EXPECT(picollo_float_snapshot_summary(snap, &s), PICOLLO_STATUS_OK);
        CHECK(s.total == 1);
        picollo_float_snapshot_free(snap);
        picollo_float_snapshot_free(NULL);
    }
    /* An empty histogram. */
    {
        picollo_float_percentile p;
        EXPECT(picollo_float_histogram_reset(h), PICOLLO_STATUS_OK);
        EXPECT(picollo_float_histogram_percentile(h, 50.0, &p), PICOLLO_STATUS_EMPTY);
        EXPECT(picollo_float_histogram_quantile_of(h, 1.0, &v), PICOLLO_STATUS_EMPTY);
        EXPECT(picollo_float_histogram_percentile(h, 101.0, &p), PICOLLO_STATUS_INVALID_ARGUMENT);
    }
    picollo_float_histogram_free(h);
}

static void test_configs_and_storage(void)
{
    picollo_float_config cfg = picollo_float_config_default();
    picollo_float_histogram *h = NULL;
    CHECK(cfg.struct_size == sizeof cfg && cfg.counter_bits == 64 && cfg.storage == 1);
    CHECK(cfg.min_magnitude == 5e-324 && cfg.max_magnitude == DBL_MAX);
    cfg.min_magnitude = 0.0;
    EXPECT_MSG(picollo_float_histogram_new(&cfg, &h), PICOLLO_STATUS_INVALID_ARGUMENT,
               "magnitude");
    cfg = picollo_float_config_default();
    cfg.max_magnitude = INFINITY;
    EXPECT(picollo_float_histogram_new(&cfg, &h), PICOLLO_STATUS_INVALID_ARGUMENT);
    cfg = picollo_float_config_default();
    cfg.relative_error = NAN;
    EXPECT(picollo_float_histogram_new(&cfg, &h), PICOLLO_STATUS_INVALID_ARGUMENT);
    cfg = picollo_float_config_default();
    cfg.storage = 2;
    EXPECT_MSG(picollo_float_histogram_new(&cfg, &h), PICOLLO_STATUS_INVALID_ARGUMENT, "storage");
    cfg = picollo_float_config_default();
    cfg.struct_size = 8;
    EXPECT(picollo_float_histogram_new(&cfg, &h), PICOLLO_STATUS_STRUCT_SIZE);
    CHECK(h == NULL);
    /* Sparse memory follows the data: narrow data costs a few blocks. */
    {
        picollo_float_histogram *sparse = make_float(0.0001, 32, 1, 0);
        picollo_float_info i;
        for (int k = 0; k < 10000; k++) {
            picollo_float_histogram_record(sparse, 1000.0 + k);
        }
        i = float_info(sparse);
        CHECK(i.storage == 1 && i.buckets_per_octave == 8192);
        CHECKF(i.footprint_bytes < 200000, "footprint %llu",
               (unsigned long long)i.footprint_bytes);
        CHECKF(i.storage_len * 2 * 4 > 100 * i.footprint_bytes, "dense would be %llu B",
               (unsigned long long)(i.storage_len * 2 * 4));
        picollo_float_histogram_free(sparse);
    }
}

void test_float(void)
{
    test_configs_and_storage();
    test_quantiles_against_order_statistics();
    test_queries_and_text();
}
