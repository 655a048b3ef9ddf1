/*
 * test_record_paths.c: every record path of the C ABI counts every value in the bucket
 * picollo_histogram_record puts it in.
 *
 * Usage: test_record_paths [CONFIGS [VALUES [SEED [TABLE]]]]
 *
 * Per random configuration (relative error log-uniform in 1e-6..0.1, lowest discernible 1 or
 * up to 2^23, a trackable range, mode, counter width, storage, exact extremes) one histogram
 * per path receives the same values (0, UINT64_MAX, every power of two and its neighbours,
 * the range's and the unit's edges, random ones), each 1 to 3 times: picollo_histogram_record
 * (the reference, the exported function), picollo_histogram_record as the header compiles
 * it (an inline call of the handle's first word), the function of
 * picollo_histogram_record_fn, picollo_histogram_record_n,
 * picollo_histogram_record_many, picollo_histogram_record_corrected (interval 0) and the
 * header's inline recorder. Their full bucket lists, totals, underflow, overflow, saturated
 * counts and exact extremes must be equal. Float histograms: record, record_n, record_many,
 * record_f32 and record_many_f32 the same way.
 *
 * TABLE: the layout's own answers (`cargo run -p picollo --example layout_table`): for every
 * row the header's picollo_recorder_index must give the row's logical index, and
 * picollo_histogram_equivalent_range its bucket's bounds.
 *
 * Built twice: against include/picollo.h, and with -DPICOLLO_OLD_HEADER against the header
 * of ABI 1.13 (c-tests/fixtures), whose inline recorder knows no unit: a program compiled
 * then must count right with this library too.
 *
 * Prints "N passed, M failed" last (c-tests/run.sh reads it).
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <cpuid.h>
#endif

#ifdef PICOLLO_OLD_HEADER
#include "fixtures/picollo-abi-1.13.h"
#else
#include "picollo.h"
#endif

static unsigned long passed, failed;
/* Room for every non-empty bucket of one histogram: the values recorded, and a few more. */
static size_t bucket_capacity = 1024;

#define FAILF(...)                                                                        \
    do {                                                                                  \
        failed++;                                                                         \
        if (failed <= 40) {                                                               \
            fprintf(stderr, "line %d: ", __LINE__);                                       \
            fprintf(stderr, __VA_ARGS__);                                                 \
            fputc('\n', stderr);                                                          \
        }                                                                                 \
    } while (0)
#define CHECKF(ok, ...)                                                                   \
    do {                                                                                  \
        if (ok) {                                                                         \
            passed++;                                                                     \
        } else {                                                                          \
            FAILF(__VA_ARGS__);                                                           \
        }                                                                                 \
    } while (0)

/* SplitMix64. */
static uint64_t rng_state;
static uint64_t next(void)
{
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
static double unit_random(void) { return (double)(next() >> 11) / 9007199254740992.0; }
static double log_uniform(double lo, double hi)
{
    return exp(log(lo) + unit_random() * (log(hi) - log(lo)));
}

/* ---- integer histograms ---- */

enum { REF, HEADER, FN, N, MANY, CORRECTED, INLINE, INLINE_V1, INLINE_OF, PATHS };
static const char *const path_name[PATHS] = {
    "record", "record as the header compiles it", "record_fn", "record_n", "record_many",
    "record_corrected(0)", "inline recorder", "inline recorder (ABI 1.13 entry point)",
    "inline recorder by value (picollo_recorder_of)"};

typedef struct {
    picollo_histogram_config cfg;
    uint64_t unit;       /* largest power of two <= lowest_discernible */
    uint64_t block_size; /* buckets per block */
    uint64_t prefill;    /* a value filled near the counter's ceiling first (0: none) */
} case_t;

static uint64_t pow2_floor(uint64_t x) { return x == 0 ? 0 : (uint64_t)1 << (63 - __builtin_clzll(x)); }

/* Uniform-ish in [lo, hi] (the whole u64 included). */
static uint64_t between(uint64_t lo, uint64_t hi)
{
    uint64_t span = hi - lo + 1;
    return span == 0 ? next() : lo + next() % span;
}

/* A random configuration whose dense storage stays small. */
static int draw_config(case_t *c)
{
    picollo_histogram_config cfg = picollo_histogram_config_default();
    picollo_histogram_info info;
    picollo_histogram *h = NULL;
    uint64_t r = next();
    cfg.relative_error = log_uniform(1e-6, 0.1);
    cfg.lowest_discernible = (r & 3) == 0 ? 1 : (uint64_t)log_uniform(1.0, 8388608.0);
    cfg.counter_bits = (r >> 2 & 1) ? 64 : 32;
    cfg.mode = (uint32_t)(r >> 3 & 3);
    cfg.approx_threshold = cfg.mode == PICOLLO_MODE_APPROXIMATE ? 14 + (uint32_t)(next() % 49) : 0;
    cfg.storage = (r >> 5 & 3) == 0 && cfg.mode != PICOLLO_MODE_THREAD_LOCAL ? PICOLLO_STORAGE_SPARSE
                                                                               : PICOLLO_STORAGE_DENSE;
    cfg.exact_extremes = (r >> 7 & 3) == 0 && cfg.mode != PICOLLO_MODE_APPROXIMATE;
    /* A range from the whole u64 down: halve its span until the dense storage is small. */
    cfg.min_trackable = (r >> 9 & 1) ? 0 : next() >> (next() % 64);
    cfg.max_trackable = UINT64_MAX;
    for (;;) {
        /* The probe counts nothing: sparse storage in one writer's mode has the same buckets
           and makes none, where dense storage of the finest precision is hundreds of MiB. */
        picollo_histogram_config probe = cfg;
        probe.mode = PICOLLO_MODE_SINGLE_WRITER;
        probe.storage = PICOLLO_STORAGE_SPARSE;
        probe.approx_threshold = 0;
        if (picollo_histogram_new(&probe, &h) != PICOLLO_STATUS_OK) {
            fprintf(stderr, "config refused: %s\n", picollo_last_error_message());
            return 0;
        }
        picollo_histogram_get_info(h, &info);
        picollo_histogram_free(h);
        if (info.storage_len <= (1u << 15)) {
            break;
        }
        cfg.max_trackable = cfg.min_trackable + (cfg.max_trackable - cfg.min_trackable) / 4;
    }
    c->cfg = cfg;
    c->unit = pow2_floor(cfg.lowest_discernible);
    c->block_size = info.block_size;
    c->prefill = 0;
    if (cfg.counter_bits == 32 && cfg.mode != PICOLLO_MODE_APPROXIMATE && (next() & 3) == 0) {
        c->prefill = between(cfg.min_trackable, cfg.max_trackable);
    }
    return 1;
}

/* The values of one case: edges first, then random ones, `n` in all. */
static size_t draw_values(const case_t *c, uint64_t *v, size_t n)
{
    size_t k = 0;
    uint64_t edges[] = {c->unit, c->block_size * c->unit, 2 * c->block_size * c->unit,
                        c->cfg.min_trackable, c->cfg.max_trackable, c->prefill};
#define PUT(x)                                                                            \
    do {                                                                                  \
        if (k < n) {                                                                      \
            v[k++] = (x);                                                                 \
        }                                                                                 \
    } while (0)
    PUT(0);
    PUT(UINT64_MAX);
    for (int bit = 0; bit < 64; bit++) {
        uint64_t p = (uint64_t)1 << bit;
        PUT(p - 1);
        PUT(p);
        PUT(p + 1);
    }
    for (size_t e = 0; e < sizeof edges / sizeof edges[0]; e++) {
        PUT(edges[e] - 1);
        PUT(edges[e]);
        PUT(edges[e] + 1);
    }
    while (k < n) {
        uint64_t x = next();
        switch (x & 3) {
        case 0: /* anywhere, any magnitude */
            PUT(next() >> (next() % 64));
            break;
        case 1: /* inside the range */
            PUT(between(c->cfg.min_trackable, c->cfg.max_trackable));
            break;
        default: /* near the unit-wide buckets */
            PUT(next() % (4 * c->block_size * c->unit + 1));
            break;
        }
    }
#undef PUT
    return k;
}

/* Records values[i] (count[i] times) into `h` through path `p`. */
static void record_path(int p, picollo_histogram *h, const uint64_t *values, const uint8_t *count,
                        size_t n)
{
    picollo_record_fn f = picollo_histogram_record_fn(h);
    picollo_recorder r;
    uint64_t batch[256];
    size_t used = 0;
    memset(&r, 0, sizeof r);
#ifdef PICOLLO_OLD_HEADER
    if (p == INLINE && picollo_histogram_recorder(h, &r) != PICOLLO_STATUS_OK) {
        FAILF("picollo_histogram_recorder: %s", picollo_last_error_message());
    }
#else
    if (p == INLINE &&
        picollo_histogram_get_recorder(h, PICOLLO_RECORDER_VERSION, &r) != PICOLLO_STATUS_OK) {
        FAILF("picollo_histogram_get_recorder: %s", picollo_last_error_message());
    }
    if (p == INLINE_V1 && picollo_histogram_recorder(h, &r) != PICOLLO_STATUS_OK) {
        FAILF("picollo_histogram_recorder: %s", picollo_last_error_message());
    }
    if (p == INLINE_OF) {
        /* Kept in a local whose address goes nowhere but the inline function. */
        picollo_status status = PICOLLO_STATUS_UNSUPPORTED;
        const picollo_recorder local = picollo_recorder_of(h, &status);
        if (status != PICOLLO_STATUS_OK) {
            FAILF("picollo_recorder_of: %s", picollo_last_error_message());
        }
        for (size_t i = 0; i < n; i++) {
            for (unsigned c = 0; c < count[i]; c++) {
                picollo_recorder_record(&local, values[i]);
            }
        }
        return;
    }
#endif
    for (size_t i = 0; i < n; i++) {
        for (unsigned c = 0; c < count[i]; c++) {
            switch (p) {
            /* The exported function, and the call as this header compiles it (ABI 1.18: the
             * handle's record function, loaded from its first word). */
            case REF: (picollo_histogram_record)(h, values[i]); break;
            case HEADER: picollo_histogram_record(h, values[i]); break;
            case FN: f(h, values[i]); break;
            case N: break;
            case CORRECTED: picollo_histogram_record_corrected(h, values[i], 0); break;
            case MANY:
                batch[used++] = values[i];
                if (used == sizeof batch / sizeof batch[0]) {
                    picollo_histogram_record_many(h, batch, used);
                    used = 0;
                }
                break;
            default: picollo_recorder_record(&r, values[i]); break;
            }
        }
        if (p == N) {
            picollo_histogram_record_n(h, values[i], count[i]);
        }
    }
    if (used > 0) {
        picollo_histogram_record_many(h, batch, used);
    }
}

/* One batch of buckets, up to `cap` at `out` from `*cursor` on: of `fh` where it is not
 * NULL, of `h` otherwise. */
static picollo_status next_batch(const picollo_histogram *h, const picollo_float_histogram *fh,
                                 uint64_t *cursor, void *out, size_t cap, size_t *written)
{
    size_t at = (size_t)*cursor;
    picollo_status st;
    if (fh != NULL) {
        return picollo_float_histogram_next_buckets(fh, cursor, out, cap, written);
    }
    st = picollo_histogram_next_buckets(h, &at, out, cap, written);
    *cursor = at;
    return st;
}

/* Every bucket of `fh`, or of `h` where `fh` is NULL, each `size` bytes (malloc'd, *n of
 * them). One batch for all where it fits: each call copies the histogram. */
static void *all_buckets(const picollo_histogram *h, const picollo_float_histogram *fh,
                         size_t size, size_t *n)
{
    size_t cap = bucket_capacity, len = 0, written = 0;
    uint64_t cursor = 0;
    unsigned char *b = malloc(cap * size);
    while (b != NULL &&
           next_batch(h, fh, &cursor, b + len * size, cap - len, &written) == PICOLLO_STATUS_OK) {
        len += written;
        if (len < cap) {
            break; /* the last batch */
        }
        if (len == cap) {
            unsigned char *grown = realloc(b, 2 * cap * size);
            if (grown == NULL) {
                break;
            }
            b = grown;
            cap *= 2;
        }
    }
    *n = len;
    return b;
}

/* All non-empty buckets of `h` (malloc'd, *n of them). */
static picollo_bucket *buckets_of(const picollo_histogram *h, size_t *n)
{
    return all_buckets(h, NULL, sizeof(picollo_bucket), n);
}

static void describe(const case_t *c, char *out, size_t size)
{
    snprintf(out, size,
             "relative_error %.17g lowest_discernible %" PRIu64 " range %" PRIu64 "..%" PRIu64
             " u%u mode %u threshold %u storage %u extremes %u prefill %" PRIu64,
             c->cfg.relative_error, c->cfg.lowest_discernible, c->cfg.min_trackable,
             c->cfg.max_trackable, (unsigned)c->cfg.counter_bits, (unsigned)c->cfg.mode,
             (unsigned)c->cfg.approx_threshold, (unsigned)c->cfg.storage,
             (unsigned)c->cfg.exact_extremes, c->prefill);
}

/* Path `p`'s histogram against the reference: counts, bucket lists, extremes. */
static void compare(const case_t *c, int p, const picollo_histogram *h, const picollo_histogram *ref,
                    const picollo_bucket *bb, size_t nb)
{
    picollo_histogram_info a, b;
    size_t na = 0, first_diff = 0;
    picollo_bucket *ba = buckets_of(h, &na);
    char what[400];
    describe(c, what, sizeof what);
    picollo_histogram_get_info(h, &a);
    picollo_histogram_get_info(ref, &b);
    CHECKF(a.total == b.total && a.underflow == b.underflow && a.overflow == b.overflow &&
               a.saturated == b.saturated,
           "%s: total/underflow/overflow/saturated %" PRIu64 "/%" PRIu64 "/%" PRIu64 "/%" PRIu64
           " against %" PRIu64 "/%" PRIu64 "/%" PRIu64 "/%" PRIu64 " (%s)",
           path_name[p], a.total, a.underflow, a.overflow, a.saturated, b.total, b.underflow,
           b.overflow, b.saturated, what);
    while (first_diff < na && first_diff < nb &&
           ba[first_diff].logical_index == bb[first_diff].logical_index &&
           ba[first_diff].count == bb[first_diff].count) {
        first_diff++;
    }
    CHECKF(ba != NULL && bb != NULL && na == nb && first_diff == na,
           "%s: %zu buckets against %zu, first difference at %zu: [%" PRIu64 "] %" PRIu64
           " against [%" PRIu64 "] %" PRIu64 " (%s)",
           path_name[p], na, nb, first_diff, first_diff < na ? ba[first_diff].lower : 0,
           first_diff < na ? ba[first_diff].count : 0, first_diff < nb ? bb[first_diff].lower : 0,
           first_diff < nb ? bb[first_diff].count : 0, what);
    if (c->cfg.exact_extremes) {
        uint64_t min_a = 0, max_a = 0, min_b = 0, max_b = 0;
        picollo_status sa = picollo_histogram_exact_extremes(h, &min_a, &max_a);
        picollo_status sb = picollo_histogram_exact_extremes(ref, &min_b, &max_b);
        CHECKF(sa == sb && min_a == min_b && max_a == max_b, "%s: extremes (%s)", path_name[p],
               what);
    }
    free(ba);
}

#ifndef PICOLLO_OLD_HEADER
/* The recorder's kind: direct wherever the mode and storage allow, for every unit; the
 * ABI 1.13 entry point gives the call kind for layouts with a unit. */
static void check_kinds(const case_t *c, picollo_histogram *h)
{
    picollo_recorder r2, r1;
    int dense = c->cfg.storage == PICOLLO_STORAGE_DENSE;
    uint32_t want = !dense || c->cfg.mode == PICOLLO_MODE_APPROXIMATE ? PICOLLO_RECORDER_KIND_CALL
                    : c->cfg.mode == PICOLLO_MODE_INTERLOCKED        ? PICOLLO_RECORDER_KIND_ATOMIC
                                                                      : PICOLLO_RECORDER_KIND_PLAIN;
    if (c->cfg.exact_extremes) {
        return; /* the extremes need the library's record */
    }
    picollo_histogram_get_recorder(h, PICOLLO_RECORDER_VERSION, &r2);
    picollo_histogram_recorder(h, &r1);
    CHECKF(r2.kind == want, "kind %u, expected %u (mode %u storage %u)", (unsigned)r2.kind,
           (unsigned)want, (unsigned)c->cfg.mode, (unsigned)c->cfg.storage);
    CHECKF(r1.kind == (c->unit > 1 ? PICOLLO_RECORDER_KIND_CALL : want) &&
               (r1.kind == PICOLLO_RECORDER_KIND_CALL) == (r1.cells == NULL),
           "ABI 1.13 entry point: kind %u for unit %" PRIu64, (unsigned)r1.kind, c->unit);
    CHECKF(r2.fine_scale == r2.block_scale + (uint32_t)__builtin_ctzll(c->unit),
           "fine_scale %u, block_scale %u, unit %" PRIu64, (unsigned)r2.fine_scale,
           (unsigned)r2.block_scale, c->unit);
}
#endif

static void run_case(const case_t *c, const uint64_t *values, const uint8_t *count, size_t n)
{
    picollo_histogram *h[PATHS] = {0};
    int paths = PATHS;
#ifdef PICOLLO_OLD_HEADER
    paths = INLINE_V1;
#endif
    for (int p = 0; p < paths; p++) {
        if (picollo_histogram_new(&c->cfg, &h[p]) != PICOLLO_STATUS_OK) {
            FAILF("picollo_histogram_new: %s", picollo_last_error_message());
            return;
        }
        if (c->prefill != 0) {
            /* Near the ceiling: later records of this bucket saturate on every path. */
            picollo_histogram_record_n(h[p], c->prefill, UINT32_MAX - 4);
        }
        record_path(p, h[p], values, count, n);
    }
#ifndef PICOLLO_OLD_HEADER
    check_kinds(c, h[REF]);
#endif
    size_t nref = 0;
    picollo_bucket *ref = buckets_of(h[REF], &nref);
    for (int p = 1; p < paths; p++) {
        compare(c, p, h[p], h[REF], ref, nref);
    }
    free(ref);
    for (int p = 0; p < paths; p++) {
        picollo_histogram_free(h[p]);
    }
}

static void integer_paths(unsigned configs, size_t n)
{
    uint64_t *values = malloc(n * sizeof *values);
    uint8_t *count = malloc(n);
    unsigned units = 0;
    for (unsigned k = 0; k < configs && values && count; k++) {
        case_t c;
        if (!draw_config(&c)) {
            failed++;
            continue;
        }
        units += c.unit > 1;
        n = draw_values(&c, values, n);
        for (size_t i = 0; i < n; i++) {
            count[i] = (uint8_t)(1 + next() % 3);
        }
        run_case(&c, values, count, n);
    }
    printf("integer paths: %u configurations (%u with a unit) x %zu values\n", configs, units, n);
    free(values);
    free(count);
}

/* ---- float histograms ---- */

enum { FREF, FN_N, FMANY, F32, FMANY32, FPATHS };
static const char *const fpath_name[FPATHS] = {"record", "record_n", "record_many",
                                               "record_f32", "record_many_f32"};

static picollo_float_bucket *fbuckets_of(const picollo_float_histogram *h, size_t *n)
{
    return all_buckets(NULL, h, sizeof(picollo_float_bucket), n);
}

/* A float value: signed, of any binary exponent, special values sometimes; exact in f32. */
static float draw_float(void)
{
    static const float special[] = {0.0f, -0.0f, INFINITY, -INFINITY, NAN, 1e-45f, -3.4e38f};
    uint64_t r = next();
    if ((r & 15) == 0) {
        return special[next() % (sizeof special / sizeof special[0])];
    }
    return (float)((r & 16 ? -1.0 : 1.0) * (1.0 + unit_random()) * ldexp(1.0, (int)(next() % 120) - 60));
}

static void float_case(size_t n)
{
    picollo_float_config cfg = picollo_float_config_default();
    picollo_float_histogram *h[FPATHS] = {0};
    float *v32 = malloc(n * sizeof *v32);
    double *v64 = malloc(n * sizeof *v64);
    cfg.relative_error = log_uniform(1e-6, 0.1);
    cfg.min_magnitude = ldexp(1.0, -(int)(next() % 40));
    cfg.max_magnitude = ldexp(1.0, (int)(next() % 40));
    cfg.counter_bits = next() & 1 ? 64 : 32;
    cfg.mode = (uint32_t)(next() & 1);
    /* Dense storage only where it stays small (an octave holds about 0.7 / relative error
     * buckets). */
    cfg.storage = (next() & 1) || cfg.relative_error < 1e-3 ? PICOLLO_FLOAT_STORAGE_SPARSE
                                                            : PICOLLO_FLOAT_STORAGE_DENSE;
    for (size_t i = 0; v32 && v64 && i < n; i++) {
        v32[i] = draw_float();
        v64[i] = v32[i];
    }
    for (int p = 0; v32 && v64 && p < FPATHS; p++) {
        if (picollo_float_histogram_new(&cfg, &h[p]) != PICOLLO_STATUS_OK) {
            FAILF("picollo_float_histogram_new: %s", picollo_last_error_message());
            break;
        }
        switch (p) {
        case FREF: for (size_t i = 0; i < n; i++) picollo_float_histogram_record(h[p], v64[i]); break;
        case FN_N: for (size_t i = 0; i < n; i++) picollo_float_histogram_record_n(h[p], v64[i], 1); break;
        case FMANY: picollo_float_histogram_record_many(h[p], v64, n); break;
        case F32: for (size_t i = 0; i < n; i++) picollo_float_histogram_record_f32(h[p], v32[i]); break;
        default: picollo_float_histogram_record_many_f32(h[p], v32, n); break;
        }
    }
    for (int p = 1; p < FPATHS && h[p] != NULL; p++) {
        picollo_float_info a, b;
        size_t na = 0, nb = 0, same = 0;
        picollo_float_bucket *ba = fbuckets_of(h[p], &na), *bb = fbuckets_of(h[FREF], &nb);
        picollo_float_histogram_get_info(h[p], &a);
        picollo_float_histogram_get_info(h[FREF], &b);
        while (same < na && same < nb && ba[same].lowest == bb[same].lowest &&
               ba[same].count == bb[same].count) {
            same++;
        }
        CHECKF(a.total == b.total && a.zero == b.zero && a.nan == b.nan &&
                   a.positive_infinity == b.positive_infinity &&
                   a.negative_infinity == b.negative_infinity && a.underflow == b.underflow &&
                   a.overflow == b.overflow && a.saturated == b.saturated && na == nb && same == na,
               "float %s: counts or buckets differ (relative_error %.17g, magnitudes %g..%g)",
               fpath_name[p], cfg.relative_error, cfg.min_magnitude, cfg.max_magnitude);
        free(ba);
        free(bb);
    }
    for (int p = 0; p < FPATHS; p++) {
        picollo_float_histogram_free(h[p]);
    }
    free(v32);
    free(v64);
}

#ifndef PICOLLO_OLD_HEADER
/* ---- the layout's table ---- */

/* Which instruction the header's index runs here: `lzcnt`'s encoding, run as `bsr` by a CPU
 * without `lzcnt` (scripts/emulated-paths.sh runs this program under `qemu-x86_64 -cpu
 * qemu64`, such a CPU). The index itself is checked against the table in both cases. */
static void say_which_log2(void)
{
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && !defined(__LZCNT__)
    unsigned a, b, c, d;
    unsigned lzcnt = __get_cpuid(0x80000001u, &a, &b, &c, &d) ? (c >> 5) & 1 : 0;
    uint64_t one = 1;
    __asm__("lzcnt %0, %0" : "+r"(one));
    printf("layout table: lzcnt's encoding on 1 gives %u here (CPUID: lzcnt %s)\n",
           (unsigned)one, lzcnt ? "present" : "absent");
    CHECKF(one == (lzcnt ? 63u : 0u), "lzcnt's encoding on 1 gives %u, CPUID says lzcnt %u",
           (unsigned)one, lzcnt);
#endif
}

static void table_rows(const char *path)
{
    FILE *f = fopen(path, "r");
    char line[512];
    double e, last_e = -1;
    uint64_t lowest, last_lowest = 0, block, unit, value, index, lower, highest;
    picollo_histogram *h = NULL;
    picollo_recorder r;
    unsigned long rows = 0, configs = 0;
    if (f == NULL) {
        FAILF("cannot open the table %s", path);
        return;
    }
    while (fgets(line, sizeof line, f) != NULL) {
        if (line[0] == '#') {
            continue;
        }
        if (sscanf(line, "%lf %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64
                         " %" SCNu64,
                   &e, &lowest, &block, &unit, &value, &index, &lower, &highest) != 8) {
            FAILF("a table row that does not parse: %s", line);
            break;
        }
        if (h == NULL || e != last_e || lowest != last_lowest) {
            picollo_histogram_config cfg = picollo_histogram_config_default();
            picollo_histogram_info info;
            picollo_histogram_free(h);
            h = NULL;
            cfg.relative_error = e;
            cfg.lowest_discernible = lowest;
            cfg.storage = PICOLLO_STORAGE_SPARSE;
            if (picollo_histogram_new(&cfg, &h) != PICOLLO_STATUS_OK ||
                picollo_histogram_get_recorder(h, PICOLLO_RECORDER_VERSION, &r) !=
                    PICOLLO_STATUS_OK) {
                FAILF("table config %g/%" PRIu64 ": %s", e, lowest, picollo_last_error_message());
                break;
            }
            picollo_histogram_get_info(h, &info);
            CHECKF(info.block_size == block && ((uint64_t)1 << r.block_scale) == block &&
                       ((uint64_t)1 << (r.fine_scale - r.block_scale)) == unit,
                   "table config %g/%" PRIu64 ": block %" PRIu64 " unit %" PRIu64
                   ", the library says %" PRIu64 ", fine_scale %u",
                   e, lowest, block, unit, info.block_size, (unsigned)r.fine_scale);
            last_e = e;
            last_lowest = lowest;
            configs++;
        }
        uint64_t lo = 0, hi = 0;
        picollo_status st = picollo_histogram_equivalent_range(h, value, &lo, &hi);
        CHECKF(picollo_recorder_index(&r, value) == index,
               "picollo_recorder_index(%" PRIu64 ") = %" PRIu64 ", the layout says %" PRIu64
               " (relative_error %g, unit %" PRIu64 ")",
               value, picollo_recorder_index(&r, value), index, e, unit);
        CHECKF(st == PICOLLO_STATUS_OK && lo == lower && hi == highest,
               "equivalent_range(%" PRIu64 ") = %" PRIu64 "..%" PRIu64 ", the layout says %" PRIu64
               "..%" PRIu64,
               value, lo, hi, lower, highest);
        rows++;
    }
    picollo_histogram_free(h);
    fclose(f);
    say_which_log2();
    printf("layout table: %lu rows of %lu configurations\n", rows, configs);
    CHECKF(rows > 0, "the table %s has no rows", path);
}
#endif

int main(int argc, char **argv)
{
    unsigned configs = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 10) : 100;
    size_t values = argc > 2 ? (size_t)strtoull(argv[2], NULL, 10) : 4000;
    rng_state = argc > 3 ? strtoull(argv[3], NULL, 10) : 1;
    bucket_capacity = values + 16;
#ifdef __GLIBC__
    /* Histograms come and go by the thousand: keep their memory in the heap rather than
     * mapping (and faulting in) fresh pages for each. */
    mallopt(M_MMAP_THRESHOLD, 64 << 20);
    mallopt(M_TRIM_THRESHOLD, 256 << 20);
#endif
    integer_paths(configs, values);
    for (unsigned k = 0; k < configs / 10 + 1; k++) {
        float_case(values);
    }
    printf("float paths: %u configurations x %zu values\n", configs / 10 + 1, values);
#ifndef PICOLLO_OLD_HEADER
    if (argc > 4) {
        table_rows(argv[4]);
    }
#endif
    printf("%lu passed, %lu failed\n", passed, failed);
    return failed != 0;
}
