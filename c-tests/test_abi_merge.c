/*
 * test_abi_merge.c: add/subtract (ranges, counter widths, layout mismatch, would-go-negative,
 * aliasing, NULLs) and snapshots (full and delta refreshes, resets in between, foreign
 * histograms, bad ranks, NULLs) through the C ABI.
 */
#include <math.h>
#include <string.h>

#include "check.h"

static void record_random(picollo_histogram *h, picollo_histogram *also, uint64_t *seed, int n,
                          uint64_t lo, uint64_t hi)
{
    int k;
    for (k = 0; k < n; k++) {
        uint64_t v = lo + rng_next(seed) % (hi - lo + 1);
        picollo_histogram_record(h, v);
        if (also != NULL) {
            picollo_histogram_record(also, v);
        }
    }
}

static void test_add_subtract(void)
{
    /* a: u64 over 1000..1e6; b: u32 over 0..5000 (same relative error, another range). */
    picollo_histogram *a = make_histogram(64, 0.01, 1000, 1000000);
    picollo_histogram *b = make_histogram(32, 0.01, 0, 5000);
    picollo_histogram *both = make_histogram(64, 0.01, 1000, 1000000);
    picollo_summary orig, s, ref;
    picollo_histogram_info ia, iref;
    uint64_t seed = 5;

    record_random(a, both, &seed, 3000, 1000, 1000000);
    record_random(b, both, &seed, 2000, 0, 5000); /* the part below 1000 is a's underflow */
    orig = summary_of(a);

    EXPECT(picollo_histogram_add(a, b), PICOLLO_STATUS_OK);
    s = summary_of(a);
    ref = summary_of(both);
    ia = info_of(a);
    iref = info_of(both);
    CHECK(same_summary(&s, &ref));
    CHECK(ia.total == iref.total && ia.underflow == iref.underflow && ia.underflow > 0);
    CHECK(info_of(b).total == 2000); /* the source is left alone */

    EXPECT(picollo_histogram_subtract(a, b), PICOLLO_STATUS_OK);
    s = summary_of(a);
    CHECK(same_summary(&s, &orig));

    /* Subtracting what is not there fails and changes nothing. */
    EXPECT_MSG(picollo_histogram_subtract(a, b), PICOLLO_STATUS_WOULD_GO_NEGATIVE, "negative");
    s = summary_of(a);
    CHECK(same_summary(&s, &orig));

    /* The source's underflow/overflow counts travel too. */
    {
        picollo_histogram *o = make_histogram(32, 0.01, 0, 5000);
        picollo_histogram_record(o, 9999);  /* o's overflow */
        picollo_histogram_record(o, 4000);
        EXPECT(picollo_histogram_add(a, o), PICOLLO_STATUS_OK);
        ia = info_of(a);
        CHECK(ia.overflow == orig.overflow + 1 && ia.total == orig.total + 1);
        EXPECT(picollo_histogram_subtract(a, o), PICOLLO_STATUS_OK);
        s = summary_of(a);
        CHECK(same_summary(&s, &orig));
        /* Only overflow to take away, and a has none: refused. */
        EXPECT(picollo_histogram_reset(o), PICOLLO_STATUS_OK);
        picollo_histogram_record(o, 9999);
        EXPECT(picollo_histogram_subtract(a, o), PICOLLO_STATUS_WOULD_GO_NEGATIVE);
        s = summary_of(a);
        CHECK(same_summary(&s, &orig));
        picollo_histogram_free(o);
    }

    /* Different relative errors: LAYOUT_MISMATCH, nothing changed. A different request that
     * gives the same layout (0.008 → block 64, like 0.01) merges fine. */
    {
        picollo_histogram *d = make_histogram(64, 0.001, 1000, 1000000);
        picollo_histogram *same_layout = make_histogram(64, 0.008, 0, 2000000);
        picollo_histogram_record(d, 5000);
        EXPECT_MSG(picollo_histogram_add(a, d), PICOLLO_STATUS_LAYOUT_MISMATCH, "precision");
        EXPECT(picollo_histogram_subtract(a, d), PICOLLO_STATUS_LAYOUT_MISMATCH);
        EXPECT(picollo_histogram_add(d, a), PICOLLO_STATUS_LAYOUT_MISMATCH);
        s = summary_of(a);
        CHECK(same_summary(&s, &orig));
        picollo_histogram_record(same_layout, 5000);
        EXPECT(picollo_histogram_add(a, same_layout), PICOLLO_STATUS_OK);
        CHECK(info_of(a).total == orig.total + 1);
        EXPECT(picollo_histogram_subtract(a, same_layout), PICOLLO_STATUS_OK);
        picollo_histogram_free(d);
        picollo_histogram_free(same_layout);
    }

    /* Aliasing and NULLs. */
    EXPECT_MSG(picollo_histogram_add(a, a), PICOLLO_STATUS_INVALID_ARGUMENT, "same");
    EXPECT_MSG(picollo_histogram_subtract(a, a), PICOLLO_STATUS_INVALID_ARGUMENT, "same");
    EXPECT_MSG(picollo_histogram_add(NULL, b), PICOLLO_STATUS_NULL_POINTER, "dst");
    EXPECT_MSG(picollo_histogram_add(a, NULL), PICOLLO_STATUS_NULL_POINTER, "src");
    EXPECT_MSG(picollo_histogram_subtract(NULL, b), PICOLLO_STATUS_NULL_POINTER, "dst");
    EXPECT_MSG(picollo_histogram_subtract(a, NULL), PICOLLO_STATUS_NULL_POINTER, "src");
    EXPECT(picollo_histogram_add(NULL, NULL), PICOLLO_STATUS_NULL_POINTER);
    EXPECT(picollo_histogram_subtract(NULL, NULL), PICOLLO_STATUS_NULL_POINTER);
    s = summary_of(a);
    CHECK(same_summary(&s, &orig));

    /* A u64 count into a u32 histogram: the bucket saturates, nothing is lost. */
    {
        picollo_histogram *big = make_histogram(64, 0.01, 0, 100000);
        picollo_histogram *small = make_histogram(32, 0.01, 0, 100000);
        const uint64_t n = UINT64_C(5000000000);
        picollo_histogram_info i;
        picollo_histogram_record_n(big, 5000, n);
        EXPECT(picollo_histogram_add(small, big), PICOLLO_STATUS_OK);
        i = info_of(small);
        CHECK(i.total == UINT32_MAX && i.saturated == n - UINT32_MAX && i.total + i.saturated == n);
        picollo_histogram_free(big);
        picollo_histogram_free(small);
    }
    picollo_histogram_free(a);
    picollo_histogram_free(b);
    picollo_histogram_free(both);
}

static picollo_summary snapshot_summary_of(const picollo_snapshot *s)
{
    picollo_summary out;
    memset(&out, 0, sizeof out);
    EXPECT(picollo_snapshot_summary(s, &out), PICOLLO_STATUS_OK);
    return out;
}

static void test_snapshot_flow(uint32_t bits)
{
    picollo_histogram *h = make_histogram(bits, 0.01, 1000, 1000000);
    picollo_histogram *ref = make_histogram(bits, 0.01, 1000, 1000000);
    picollo_snapshot *s = NULL;
    picollo_summary ss, hs, rs, kept;
    picollo_percentile p16[PICOLLO_SUMMARY_PERCENTILES];
    uint64_t seed = 77 + bits;

    record_random(h, NULL, &seed, 1000, 500, 2000000);
    if (!EXPECT(picollo_snapshot_new(h, &s), PICOLLO_STATUS_OK) || !CHECK(s != NULL)) {
        picollo_histogram_free(h);
        picollo_histogram_free(ref);
        return;
    }
    ss = snapshot_summary_of(s);
    hs = summary_of(h);
    CHECK(same_summary(&ss, &hs));
    memset(p16, 0, sizeof p16);
    EXPECT(picollo_snapshot_percentiles(s, standard_ranks, PICOLLO_SUMMARY_PERCENTILES, p16),
           PICOLLO_STATUS_OK);
    CHECK(memcmp(p16, ss.percentiles, sizeof p16) == 0);

    /* The snapshot is a copy: recording into h does not change it. */
    kept = ss;
    record_random(h, ref, &seed, 500, 500, 2000000);
    ss = snapshot_summary_of(s);
    CHECK(same_summary(&ss, &kept));

    /* Deltas: what was recorded since the previous update (bucket and outside counts). */
    EXPECT(picollo_snapshot_update(s, h, 1), PICOLLO_STATUS_OK);
    ss = snapshot_summary_of(s);
    rs = summary_of(ref);
    CHECK(same_summary(&ss, &rs));
    CHECK(ss.total + ss.underflow + ss.overflow == 500 && ss.overflow > 0);

    /* Nothing new: an empty delta. */
    EXPECT(picollo_snapshot_update(s, h, 2), PICOLLO_STATUS_OK); /* any non-zero means deltas */
    ss = snapshot_summary_of(s);
    CHECK(ss.total == 0 && ss.underflow == 0 && ss.overflow == 0 && isnan(ss.mean));
    EXPECT(picollo_snapshot_percentiles(s, standard_ranks, PICOLLO_SUMMARY_PERCENTILES, p16),
           PICOLLO_STATUS_EMPTY);

    /* Full counts again. */
    record_random(h, NULL, &seed, 100, 500, 2000000);
    EXPECT(picollo_snapshot_update(s, h, 0), PICOLLO_STATUS_OK);
    ss = snapshot_summary_of(s);
    hs = summary_of(h);
    CHECK(same_summary(&ss, &hs) && ss.total + ss.underflow + ss.overflow == 1600);

    /* A reset in between: the delta is what came after the reset. */
    record_random(h, NULL, &seed, 50, 500, 2000000);
    EXPECT(picollo_histogram_reset(h), PICOLLO_STATUS_OK);
    EXPECT(picollo_histogram_reset(ref), PICOLLO_STATUS_OK);
    record_random(h, ref, &seed, 70, 500, 2000000);
    EXPECT(picollo_snapshot_update(s, h, UINT32_MAX), PICOLLO_STATUS_OK);
    ss = snapshot_summary_of(s);
    rs = summary_of(ref);
    CHECK(same_summary(&ss, &rs));

    /* Another histogram of the same configuration may refresh it. */
    EXPECT(picollo_snapshot_update(s, ref, 0), PICOLLO_STATUS_OK);
    ss = snapshot_summary_of(s);
    CHECK(same_summary(&ss, &rs));

    /* Histograms of another configuration are refused and change nothing. */
    {
        picollo_histogram *range = make_histogram(bits, 0.01, 0, 1000000);
        picollo_histogram *prec = make_histogram(bits, 0.001, 1000, 1000000);
        picollo_histogram *width = make_histogram(bits == 32 ? 64 : 32, 0.01, 1000, 1000000);
        EXPECT_MSG(picollo_snapshot_update(s, range, 0), PICOLLO_STATUS_LAYOUT_MISMATCH,
                   "configuration");
        EXPECT(picollo_snapshot_update(s, prec, 1), PICOLLO_STATUS_LAYOUT_MISMATCH);
        EXPECT(picollo_snapshot_update(s, width, 0), PICOLLO_STATUS_LAYOUT_MISMATCH);
        ss = snapshot_summary_of(s);
        CHECK(same_summary(&ss, &rs));
        picollo_histogram_free(range);
        picollo_histogram_free(prec);
        picollo_histogram_free(width);
    }

    /* Bad ranks and NULLs. */
    {
        const double nan_rank[2] = {10.0, NAN};
        const double down[2] = {10.0, 5.0};
        const double over[1] = {100.5};
        picollo_percentile two[2];
        picollo_snapshot *untouched = (picollo_snapshot *)(uintptr_t)0x5EED;
        picollo_summary canary;
        EXPECT_MSG(picollo_snapshot_percentiles(s, nan_rank, 2, two),
                   PICOLLO_STATUS_INVALID_ARGUMENT, "rank");
        EXPECT_MSG(picollo_snapshot_percentiles(s, down, 2, two), PICOLLO_STATUS_INVALID_ARGUMENT,
                   "increasing");
        EXPECT(picollo_snapshot_percentiles(s, over, 1, two), PICOLLO_STATUS_INVALID_ARGUMENT);
        EXPECT_MSG(picollo_snapshot_percentiles(NULL, down, 2, two), PICOLLO_STATUS_NULL_POINTER,
                   "s");
        EXPECT_MSG(picollo_snapshot_percentiles(s, NULL, 2, two), PICOLLO_STATUS_NULL_POINTER,
                   "ranks");
        EXPECT_MSG(picollo_snapshot_percentiles(s, down, 2, NULL), PICOLLO_STATUS_NULL_POINTER,
                   "out");
        EXPECT(picollo_snapshot_percentiles(s, NULL, 0, NULL), PICOLLO_STATUS_OK);
        memset(&canary, 0x3C, sizeof canary);
        ss = canary;
        EXPECT_MSG(picollo_snapshot_summary(NULL, &ss), PICOLLO_STATUS_NULL_POINTER, "s");
        EXPECT_MSG(picollo_snapshot_summary(s, NULL), PICOLLO_STATUS_NULL_POINTER, "out");
        CHECK(same_summary(&ss, &canary));
        EXPECT_MSG(picollo_snapshot_update(NULL, h, 0), PICOLLO_STATUS_NULL_POINTER, "s");
        EXPECT_MSG(picollo_snapshot_update(s, NULL, 0), PICOLLO_STATUS_NULL_POINTER, "h");
        EXPECT_MSG(picollo_snapshot_new(NULL, &untouched), PICOLLO_STATUS_NULL_POINTER, "h");
        CHECK(untouched == (picollo_snapshot *)(uintptr_t)0x5EED);
        EXPECT_MSG(picollo_snapshot_new(h, NULL), PICOLLO_STATUS_NULL_POINTER, "out");
    }
    picollo_snapshot_free(s);
    picollo_snapshot_free(NULL);

    /* A snapshot of an empty histogram. */
    EXPECT(picollo_histogram_reset(h), PICOLLO_STATUS_OK);
    s = NULL;
    if (EXPECT(picollo_snapshot_new(h, &s), PICOLLO_STATUS_OK)) {
        const double r[1] = {50.0};
        picollo_percentile one;
        ss = snapshot_summary_of(s);
        CHECK(ss.total == 0 && ss.min_trackable == 1000 && ss.max_trackable == 1000000);
        EXPECT(picollo_snapshot_percentiles(s, r, 1, &one), PICOLLO_STATUS_EMPTY);
    }
    picollo_snapshot_free(s);
    picollo_histogram_free(h);
    picollo_histogram_free(ref);
}

void test_merge_snapshots(void)
{
    test_add_subtract();
    test_snapshot_flow(32);
    test_snapshot_flow(64);
}
