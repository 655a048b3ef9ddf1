/*
 * test_abi_config.c: the default configuration, picollo_histogram_new with every bad
 * configuration (NULLs, struct_size, relative error, range, counter width, value selection,
 * mode, storage), clamping, the unit of lowest_discernible, the layout facts of docs/concepts.md and the Picollo .NET announcement seen through
 * picollo_histogram_get_info and a percentile, and sparse storage against dense.
 */
#include <float.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

/* A pointer value no allocation returns: outputs must keep it when a call fails. */
#define UNTOUCHED_HANDLE ((picollo_histogram *)(uintptr_t)0x5EED)

static void test_config_default(void)
{
    picollo_histogram_config c = picollo_histogram_config_default();
    picollo_histogram *h = NULL;
    picollo_histogram_info i;

    CHECK(c.struct_size == sizeof(picollo_histogram_config));
    CHECK(c.counter_bits == 64);
    CHECK(c.relative_error == 0.001);
    CHECK(c.min_trackable == 0);
    CHECK(c.max_trackable == UINT64_MAX);
    CHECK(c.value_selection == PICOLLO_VALUE_SELECTION_MIDPOINT);
    CHECK(c.mode == PICOLLO_MODE_SINGLE_WRITER);
    CHECK(c.approx_threshold == 0);
    CHECK(c.storage == PICOLLO_STORAGE_DENSE);
    CHECK(c.exact_extremes == 0 && c.reserved == 0);

    /* The default config creates a histogram over the whole u64 range. */
    if (EXPECT(picollo_histogram_new(&c, &h), PICOLLO_STATUS_OK) && CHECK(h != NULL)) {
        i = info_of(h);
        CHECK(i.min_trackable == 0 && i.max_trackable == UINT64_MAX);
        CHECK(i.counter_bits == 64 && i.block_size == 512);
        CHECK(i.storage_len == 28672 && i.footprint_bytes == 28672 * 8);
        CHECK(i.total == 0 && i.underflow == 0 && i.overflow == 0 && i.saturated == 0);
        CHECK(i.mode == PICOLLO_MODE_SINGLE_WRITER && i.approx_threshold == 0);
        CHECK(i.value_selection == PICOLLO_VALUE_SELECTION_MIDPOINT);
        CHECK(i.relative_error == 0.5 / 512);
    }
    picollo_histogram_free(h);
    picollo_histogram_free(NULL); /* accepted and ignored */
    CHECK(1);
}

/* Try a config that must be refused: `want` status, no handle written, a message. */
static void refuse_at(int line, const picollo_histogram_config *c, picollo_status want,
                      const char *needle, const char *what)
{
    picollo_histogram *h = UNTOUCHED_HANDLE;
    prime_error();
    expect_at(line, what, picollo_histogram_new(c, &h), want, needle);
    check_at(line, h == UNTOUCHED_HANDLE, what, "the output handle was written on failure");
    if (h != UNTOUCHED_HANDLE) {
        picollo_histogram_free(h);
    }
}
#define REFUSE(c, want, needle, what) refuse_at(__LINE__, (c), (want), (needle), (what))

static void accept_at(int line, const picollo_histogram_config *c, uint64_t block_size,
                      const char *what)
{
    picollo_histogram *h = NULL;
    if (expect_at(line, what, picollo_histogram_new(c, &h), PICOLLO_STATUS_OK, NULL) &&
        check_at(line, h != NULL, what, "no handle")) {
        picollo_histogram_info i = info_of(h);
        check_at(line, i.block_size == block_size, what, "block size %llu, expected %llu",
                 (unsigned long long)i.block_size, (unsigned long long)block_size);
        check_at(line, i.relative_error == 0.5 / (double)block_size, what,
                 "relative error %g", i.relative_error);
        check_at(line, i.min_trackable == c->min_trackable && i.max_trackable == c->max_trackable &&
                           i.counter_bits == c->counter_bits &&
                           i.value_selection == c->value_selection,
                 what, "info does not echo the config");
    }
    picollo_histogram_free(h);
}
#define ACCEPT(c, block_size, what) accept_at(__LINE__, (c), (block_size), (what))

static void test_bad_configs(void)
{
    const picollo_histogram_config base = picollo_histogram_config_default();
    picollo_histogram_config c;
    picollo_histogram *h = UNTOUCHED_HANDLE;
    size_t k;

    /* NULL config, NULL out. */
    EXPECT_MSG(picollo_histogram_new(NULL, &h), PICOLLO_STATUS_NULL_POINTER, "config");
    CHECK(h == UNTOUCHED_HANDLE);
    EXPECT_MSG(picollo_histogram_new(&base, NULL), PICOLLO_STATUS_NULL_POINTER, "out");
    EXPECT(picollo_histogram_new(NULL, NULL), PICOLLO_STATUS_NULL_POINTER);

    /* struct_size: zero and too small are refused, but for the size older headers gave
     * the struct (ABI 1.0 to 1.6: up to `storage`). */
    {
        const uint32_t older = (uint32_t)offsetof(picollo_histogram_config, exact_extremes);
        const uint32_t sizes[] = {0, 1, 4, older - 8, older - 1, older + 1,
                                  sizeof(picollo_histogram_config) - 1};
        for (k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
            c = base;
            c.struct_size = sizes[k];
            REFUSE(&c, PICOLLO_STATUS_STRUCT_SIZE, "struct_size", "struct_size too small");
        }
        /* An older caller's struct: the fields past it are not read (they read as 0). */
        c = base;
        c.struct_size = older;
        c.exact_extremes = 7;
        c.reserved = 9;
        ACCEPT(&c, 512, "the ABI 1.6 struct");
        c.struct_size = sizeof c;
        REFUSE(&c, PICOLLO_STATUS_INVALID_ARGUMENT, "exact_extremes", "exact_extremes 7");
        c.exact_extremes = 1;
        REFUSE(&c, PICOLLO_STATUS_INVALID_ARGUMENT, "reserved", "reserved 9");
    }
    /* Too large (a caller built against a newer header): accepted only when every byte this
     * library does not know is zero. */
    {
        struct {
            picollo_histogram_config config;
            unsigned char newer[24];
        } big;
        const size_t tails[] = {1, 7, 8, 24};
        for (k = 0; k < sizeof tails / sizeof tails[0]; k++) {
            size_t j;
            memset(&big, 0, sizeof big);
            big.config = base;
            big.config.struct_size = (uint32_t)(sizeof(picollo_histogram_config) + tails[k]);
            ACCEPT(&big.config, 512, "larger struct, zero tail");
            for (j = 0; j < tails[k]; j += tails[k] > 1 ? tails[k] - 1 : 1) {
                memset(big.newer, 0, sizeof big.newer);
                big.newer[j] = 1; /* a field this library does not know, set */
                REFUSE(&big.config, PICOLLO_STATUS_STRUCT_SIZE, "struct_size",
                       "larger struct, non-zero tail");
            }
        }
    }

    /* Relative error: zero, negative, NaN, infinities. */
    {
        const double bad[] = {0.0, -0.0, -1e-9, -0.001, -1.0, -INFINITY, INFINITY, NAN, -NAN};
        for (k = 0; k < sizeof bad / sizeof bad[0]; k++) {
            c = base;
            c.relative_error = bad[k];
            REFUSE(&c, PICOLLO_STATUS_INVALID_ARGUMENT, "relative error", "relative_error");
        }
    }
    /* Finite positive errors outside [1e-6, 0.1] are clamped, not refused. */
    {
        const double tiny[] = {4.9e-324, DBL_MIN, 1e-300, 1e-12, 1e-7, 1e-6};
        const double huge[] = {0.1, 0.11, 0.5, 1.0, 1e300, DBL_MAX};
        for (k = 0; k < sizeof tiny / sizeof tiny[0]; k++) {
            c = base;
            c.relative_error = tiny[k];
            c.min_trackable = c.max_trackable = 1000000; /* one bucket: small storage */
            ACCEPT(&c, 524288, "tiny relative error clamps to 1e-6");
        }
        for (k = 0; k < sizeof huge / sizeof huge[0]; k++) {
            c = base;
            c.relative_error = huge[k];
            ACCEPT(&c, 8, "large relative error clamps to 0.1");
        }
    }

    /* min > max; min == max is one bucket. */
    c = base;
    c.min_trackable = 10;
    c.max_trackable = 9;
    REFUSE(&c, PICOLLO_STATUS_INVALID_ARGUMENT, "min", "min > max");
    c.min_trackable = UINT64_MAX;
    c.max_trackable = 0;
    REFUSE(&c, PICOLLO_STATUS_INVALID_ARGUMENT, "min", "min > max (extremes)");
    c.min_trackable = c.max_trackable = UINT64_MAX;
    ACCEPT(&c, 512, "min == max == UINT64_MAX");
    c.min_trackable = c.max_trackable = 0;
    ACCEPT(&c, 512, "min == max == 0");

    /* Counter widths other than 32 and 64. */
    {
        const uint32_t bits[] = {0, 1, 8, 16, 31, 33, 63, 65, 128, UINT32_MAX};
        for (k = 0; k < sizeof bits / sizeof bits[0]; k++) {
            c = base;
            c.counter_bits = bits[k];
            REFUSE(&c, PICOLLO_STATUS_INVALID_ARGUMENT, "counter_bits", "counter_bits");
        }
        c = base;
        c.counter_bits = 32;
        ACCEPT(&c, 512, "32-bit counters");
    }

    /* Unknown value selection, unknown mode, reserved not zero. */
    {
        const uint32_t bad[] = {4, 5, 100, 0x80000000u, UINT32_MAX};
        uint32_t sel;
        for (k = 0; k < sizeof bad / sizeof bad[0]; k++) {
            c = base;
            c.value_selection = bad[k];
            REFUSE(&c, PICOLLO_STATUS_INVALID_ARGUMENT, "value_selection", "value_selection");
        }
        for (sel = 0; sel <= PICOLLO_VALUE_SELECTION_INTERPOLATED; sel++) {
            c = base;
            c.value_selection = sel;
            ACCEPT(&c, 512, "every known value selection");
        }
        for (sel = 0; sel <= PICOLLO_MODE_APPROXIMATE; sel++) {
            c = base;
            c.mode = sel;
            ACCEPT(&c, 512, "every known mode");
            if (sel != PICOLLO_MODE_APPROXIMATE) {
                c.approx_threshold = 13;
                REFUSE(&c, PICOLLO_STATUS_INVALID_ARGUMENT, "approx_threshold",
                       "approx_threshold outside the approximate mode");
            }
        }
        c = base;
        c.mode = PICOLLO_MODE_APPROXIMATE;
        c.approx_threshold = 62;
        ACCEPT(&c, 512, "approximate mode with T = 62");
        c.approx_threshold = 63;
        REFUSE(&c, PICOLLO_STATUS_INVALID_ARGUMENT, "approx_threshold", "approx_threshold 63");
        for (k = 0; k < sizeof bad / sizeof bad[0]; k++) {
            c = base;
            c.mode = bad[k]; /* 4, 5, 100, ... */
            REFUSE(&c, PICOLLO_STATUS_INVALID_ARGUMENT, "mode", "mode");
            c = base;
            c.storage = bad[k];
            REFUSE(&c, PICOLLO_STATUS_INVALID_ARGUMENT, "storage", "storage");
        }
    }

    /* Several faults at once still fail cleanly. */
    c = base;
    c.struct_size = 4;
    c.counter_bits = 7;
    c.relative_error = NAN;
    c.min_trackable = 5;
    c.max_trackable = 4;
    REFUSE(&c, PICOLLO_STATUS_STRUCT_SIZE, "struct_size", "many faults");
    c.struct_size = base.struct_size;
    REFUSE(&c, PICOLLO_STATUS_INVALID_ARGUMENT, NULL, "many faults, right size");
}

/* Layout facts from docs/concepts.md and the announcement, seen through the ABI. */
static void test_layout_facts(void)
{
    static const struct {
        double e;
        uint64_t min, max;
        uint32_t bits;
        uint64_t block, storage;
    } cases[] = {
        {0.001, 0, UINT64_MAX, 32, 512, 28672},
        {0.0005, 0, INT64_MAX, 32, 1024, 55296},
        {0.0005, 0, 30000, 32, 1024, 5972},
        {0.01, 10000, 30000, 32, 64, 0},
        {0.01, 10000, 30000, 64, 64, 0},
        {0.1, 0, UINT64_MAX, 64, 8, 0},
        {0.0078125, 1, 1000000, 64, 64, 0},
        {0.5 / 65, 1, 1000000, 64, 128, 0},
        {0.5 / 64.5, 1, 1000000, 64, 128, 0}, /* 0.5 / e rounded up: 65 → 128 */
        {1e-6, 0, 5000, 32, 524288, 5001},
        {0.002, 123456789, 987654321987ull, 64, 256, 0},
    };
    size_t k;
    for (k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        picollo_histogram *h =
            make_histogram(cases[k].bits, cases[k].e, cases[k].min, cases[k].max);
        picollo_histogram_info i = info_of(h);
        layout_model m = model_of_block_size(model_block_size(cases[k].e));
        uint64_t storage = model_index(m, cases[k].max) - model_index(m, cases[k].min) + 1;
        CHECKF(i.block_size == cases[k].block && m.block_size == cases[k].block,
               "e=%g: block %llu, model %llu, expected %llu", cases[k].e,
               (unsigned long long)i.block_size, (unsigned long long)m.block_size,
               (unsigned long long)cases[k].block);
        CHECKF(i.storage_len == storage, "e=%g: storage %llu, model %llu", cases[k].e,
               (unsigned long long)i.storage_len, (unsigned long long)storage);
        if (cases[k].storage != 0) {
            CHECKF(i.storage_len == cases[k].storage, "e=%g: storage %llu, the table says %llu",
                   cases[k].e, (unsigned long long)i.storage_len,
                   (unsigned long long)cases[k].storage);
        }
        CHECK(i.footprint_bytes == i.storage_len * (cases[k].bits / 8));
        CHECK(i.relative_error == 0.5 / (double)i.block_size);
        CHECK(i.counter_bits == cases[k].bits);
        picollo_histogram_free(h);
    }

    /* The announcement's figures: e = 0.01 → 0.7813 %; 24,900 in 10,000..30,000 → storage 83,
     * logical 609, bucket [24,832, 25,088), midpoint 24,960. */
    {
        picollo_histogram *h = make_histogram(32, 0.01, 10000, 30000);
        picollo_percentile p;
        picollo_histogram_record(h, 24900);
        memset(&p, 0, sizeof p);
        if (EXPECT(picollo_histogram_percentile(h, 99.0, &p), PICOLLO_STATUS_OK)) {
            CHECK(p.value == 24960 && p.storage_index == 83 && p.logical_index == 609);
            CHECK(p.lower == 24832 && p.upper == 25088 && p.highest == 25087);
            CHECK(p.plus_minus == 128 && p.count == 1 && p.cumulative_count == 1);
            CHECK(p.rank == 99.0 && p.rank_count == 1);
        }
        CHECK(info_of(h).relative_error == 0.0078125);
        picollo_histogram_free(h);
    }
}

/* Sparse storage: the same counts as dense cells in every mode that offers it, through
 * every record path, for memory that follows the data. */
static void test_sparse_storage(void)
{
    static const uint32_t modes[] = {PICOLLO_MODE_SINGLE_WRITER, PICOLLO_MODE_INTERLOCKED,
                                     PICOLLO_MODE_APPROXIMATE};
    static picollo_bucket a[4096], b[4096];
    size_t m, k, bits;
    for (bits = 32; bits <= 64; bits += 32) {
        for (m = 0; m < 3; m++) {
            picollo_histogram_config c = picollo_histogram_config_default();
            picollo_histogram *dense = NULL, *sparse = NULL;
            picollo_histogram_info di, si;
            picollo_recorder r;
            picollo_summary sa, sb;
            picollo_record_fn f;
            uint64_t seed = 77 + m, v;
            size_t ca = 0, cb = 0, na = 0, nb = 0;
            c.relative_error = 0.0001;
            c.counter_bits = (uint32_t)bits;
            c.mode = modes[m];
            c.approx_threshold = modes[m] == PICOLLO_MODE_APPROXIMATE ? 40 : 0;
            EXPECT(picollo_histogram_new(&c, &dense), PICOLLO_STATUS_OK);
            c.storage = PICOLLO_STORAGE_SPARSE;
            EXPECT(picollo_histogram_new(&c, &sparse), PICOLLO_STATUS_OK);
            if (!dense || !sparse) {
                return;
            }
            {
                uint32_t kind = 9;
                EXPECT(picollo_histogram_get_storage(sparse, &kind), PICOLLO_STATUS_OK);
                CHECK(kind == PICOLLO_STORAGE_SPARSE);
                EXPECT(picollo_histogram_get_storage(dense, &kind), PICOLLO_STATUS_OK);
                CHECK(kind == PICOLLO_STORAGE_DENSE);
            }
            si = info_of(sparse);
            CHECKF(si.footprint_bytes < 4096, "empty sparse footprint %llu",
                   (unsigned long long)si.footprint_bytes);
            EXPECT(picollo_histogram_get_recorder(sparse, PICOLLO_RECORDER_VERSION, &r), PICOLLO_STATUS_OK);
            CHECK(r.kind == PICOLLO_RECORDER_KIND_CALL && r.cells == NULL);
            f = picollo_histogram_record_fn(sparse);
            for (k = 0; k < 30000; k++) {
                seed = seed * 6364136223846793005ull + 1442695040888963407ull;
                /* Latency-like: 2^12 .. 2^22 ns, a few far outliers. */
                v = ((uint64_t)1 << (12 + (seed >> 60) % 10)) + ((seed >> 20) & 0xfff) * 997;
                if (k % 1000 == 0) {
                    v = UINT64_MAX - k;
                }
                picollo_histogram_record_n(dense, v, 3);
                picollo_histogram_record(sparse, v);
                f(sparse, v);
                picollo_recorder_record(&r, v);
            }
            di = info_of(dense);
            si = info_of(sparse);
            CHECK(di.total == si.total && di.total == 90000);
            CHECKF(si.footprint_bytes * 4 < di.footprint_bytes, "sparse %llu vs dense %llu bytes",
                   (unsigned long long)si.footprint_bytes, (unsigned long long)di.footprint_bytes);
            CHECK(si.storage_len == di.storage_len);
            EXPECT(picollo_histogram_next_buckets(dense, &ca, a, 4096, &na), PICOLLO_STATUS_OK);
            EXPECT(picollo_histogram_next_buckets(sparse, &cb, b, 4096, &nb), PICOLLO_STATUS_OK);
            CHECKF(na == nb && memcmp(a, b, na * sizeof a[0]) == 0, "buckets (bits %zu, mode %u)",
                   bits, modes[m]);
            EXPECT(picollo_histogram_summary(dense, &sa), PICOLLO_STATUS_OK);
            EXPECT(picollo_histogram_summary(sparse, &sb), PICOLLO_STATUS_OK);
            CHECK(memcmp(&sa, &sb, sizeof sa) == 0);
            /* Reset keeps the blocks and clears them. */
            EXPECT(picollo_histogram_reset(sparse), PICOLLO_STATUS_OK);
            CHECK(info_of(sparse).total == 0);
            CHECK(info_of(sparse).footprint_bytes == si.footprint_bytes);
            picollo_histogram_free(dense);
            picollo_histogram_free(sparse);
        }
    }
    /* Not in the thread-local mode, whose shards are dense. */
    {
        picollo_histogram_config c = picollo_histogram_config_default();
        picollo_histogram *h = NULL;
        c.storage = PICOLLO_STORAGE_SPARSE;
        c.mode = PICOLLO_MODE_THREAD_LOCAL;
        EXPECT_MSG(picollo_histogram_new(&c, &h), PICOLLO_STATUS_INVALID_ARGUMENT, "thread-local");
        CHECK(h == NULL);
    }
}

/* Exact extremes: kept in every mode and storage, through every record function. */
static void test_exact_extremes(void)
{
    static const uint32_t modes[] = {PICOLLO_MODE_SINGLE_WRITER, PICOLLO_MODE_INTERLOCKED,
                                     PICOLLO_MODE_THREAD_LOCAL, PICOLLO_MODE_APPROXIMATE};
    size_t m, s, bits;
    for (bits = 32; bits <= 64; bits += 32) {
        for (m = 0; m < 4; m++) {
            for (s = 0; s < 2; s++) {
                picollo_histogram_config c = picollo_histogram_config_default();
                picollo_histogram *h = NULL, *plain = NULL;
                picollo_recorder r;
                uint64_t lo = 1, hi = 1;
                uint64_t v[] = {900, 70000, 5, 1u << 30};
                c.counter_bits = (uint32_t)bits;
                c.mode = modes[m];
                c.storage = (uint32_t)s;
                c.min_trackable = 100;
                c.max_trackable = 1000000;
                if (s == 1 && modes[m] == PICOLLO_MODE_THREAD_LOCAL) {
                    continue;
                }
                EXPECT(picollo_histogram_new(&c, &plain), PICOLLO_STATUS_OK);
                c.exact_extremes = 1;
                if (!EXPECT(picollo_histogram_new(&c, &h), PICOLLO_STATUS_OK) || !plain) {
                    return;
                }
                EXPECT_MSG(picollo_histogram_exact_extremes(plain, &lo, &hi),
                           PICOLLO_STATUS_UNSUPPORTED, "exact_extremes = 1");
                EXPECT(picollo_histogram_exact_extremes(h, &lo, &hi), PICOLLO_STATUS_EMPTY);
                CHECK(lo == 1 && hi == 1);
                /* The inline recorder calls the library, which notes the value. */
                EXPECT(picollo_histogram_get_recorder(h, PICOLLO_RECORDER_VERSION, &r), PICOLLO_STATUS_OK);
                CHECK(r.kind == PICOLLO_RECORDER_KIND_CALL);
                picollo_recorder_record(&r, 12345);
                picollo_histogram_record(h, 50);      /* underflow: not an extreme */
                picollo_histogram_record(h, 5000000); /* overflow: not either */
                EXPECT(picollo_histogram_exact_extremes(h, &lo, &hi), PICOLLO_STATUS_OK);
                CHECKF(lo == 12345 && hi == 12345, "%llu..%llu", (unsigned long long)lo,
                       (unsigned long long)hi);
                picollo_histogram_record_fn(h)(h, 777);
                picollo_histogram_record_n(h, 999999, 4);
                EXPECT(picollo_histogram_record_many(h, v, 4), PICOLLO_STATUS_OK);
                EXPECT(picollo_histogram_exact_extremes(h, &lo, NULL), PICOLLO_STATUS_OK);
                EXPECT(picollo_histogram_exact_extremes(h, NULL, &hi), PICOLLO_STATUS_OK);
                CHECKF(lo == 777 && hi == 999999, "%llu..%llu", (unsigned long long)lo,
                       (unsigned long long)hi);
                /* A merge from a histogram without them brings its buckets' bounds. */
                picollo_histogram_record(plain, 101);
                EXPECT(picollo_histogram_add(h, plain), PICOLLO_STATUS_OK);
                EXPECT(picollo_histogram_exact_extremes(h, &lo, &hi), PICOLLO_STATUS_OK);
                CHECKF(lo <= 101 && lo >= 100 && hi == 999999, "%llu..%llu",
                       (unsigned long long)lo, (unsigned long long)hi);
                EXPECT(picollo_histogram_reset(h), PICOLLO_STATUS_OK);
                EXPECT(picollo_histogram_exact_extremes(h, &lo, &hi), PICOLLO_STATUS_EMPTY);
                picollo_histogram_free(h);
                picollo_histogram_free(plain);
            }
        }
    }
}

/* lowest_discernible (ABI 1.11): the unit 2^floor(log2 L), its buckets, its V2 round trip, and
 * a 1.10-sized struct (which ends before the field: unit 1). */
static void test_lowest_discernible(void)
{
    picollo_histogram_config c = picollo_histogram_config_default();
    picollo_histogram *h = NULL, *back = NULL;
    picollo_percentile p;
    uint64_t unit = 0, plain_len;
    uint8_t blob[256];
    size_t needed = 0;

    CHECK(c.lowest_discernible == 1);
    c.max_trackable = (uint64_t)1 << 45;
    c.relative_error = 0.0005; /* HdrHistogram's 3 digits */
    plain_len = 0;
    if (EXPECT(picollo_histogram_new(&c, &h), PICOLLO_STATUS_OK)) {
        plain_len = info_of(h).storage_len;
        EXPECT(picollo_histogram_get_unit(h, &unit), PICOLLO_STATUS_OK);
        CHECKF(unit == 1, "unit %llu", (unsigned long long)unit);
        picollo_histogram_free(h);
    }
    c.lowest_discernible = 1000;
    if (!EXPECT(picollo_histogram_new(&c, &h), PICOLLO_STATUS_OK)) {
        return;
    }
    EXPECT(picollo_histogram_get_unit(h, &unit), PICOLLO_STATUS_OK);
    CHECKF(unit == 512, "unit %llu", (unsigned long long)unit);
    CHECK(info_of(h).storage_len < plain_len);
    picollo_histogram_record(h, 3); /* below the unit: the first bucket, not underflow */
    picollo_histogram_record(h, 6683);
    CHECK(info_of(h).underflow == 0 && info_of(h).total == 2);
    EXPECT(picollo_histogram_percentile(h, 100.0, &p), PICOLLO_STATUS_OK);
    CHECKF(p.lower == 6656 && p.upper == 7168 && p.value == 6912 && p.plus_minus == 256,
           "[%llu, %llu) %llu +-%llu", (unsigned long long)p.lower, (unsigned long long)p.upper,
           (unsigned long long)p.value, (unsigned long long)p.plus_minus);
    EXPECT(picollo_histogram_percentile(h, 0.0, &p), PICOLLO_STATUS_OK);
    CHECK(p.lower == 0 && p.upper == 512);
    /* V2 carries the unit as the lowest discernible value; decoding gives it back. */
    if (EXPECT(picollo_histogram_encode_v2(h, PICOLLO_V2_FORM_PLAIN, blob, sizeof blob, &needed),
               PICOLLO_STATUS_OK)) {
        CHECK(blob[16 + 6] == 0x02 && blob[16 + 7] == 0x00); /* big-endian 512 */
        if (EXPECT(picollo_histogram_decode_v2(blob, needed, &back), PICOLLO_STATUS_OK)) {
            EXPECT(picollo_histogram_get_unit(back, &unit), PICOLLO_STATUS_OK);
            CHECKF(unit == 512, "decoded unit %llu", (unsigned long long)unit);
            EXPECT(picollo_histogram_percentile(back, 100.0, &p), PICOLLO_STATUS_OK);
            CHECK(p.lower == 6656 && p.upper == 7168);
            picollo_histogram_free(back);
        }
    }
    picollo_histogram_free(h);
    /* A caller of a 1.10 header: its struct ends at `reserved`; the field reads as 0: unit 1. */
    c.struct_size = (uint32_t)offsetof(picollo_histogram_config, lowest_discernible);
    if (EXPECT(picollo_histogram_new(&c, &h), PICOLLO_STATUS_OK)) {
        EXPECT(picollo_histogram_get_unit(h, &unit), PICOLLO_STATUS_OK);
        CHECKF(unit == 1, "1.10 struct: unit %llu", (unsigned long long)unit);
        picollo_histogram_free(h);
    }
}

void test_configs(void)
{
    test_lowest_discernible();
    test_exact_extremes();
    test_config_default();
    test_bad_configs();
    test_layout_facts();
    test_sparse_storage();
}
