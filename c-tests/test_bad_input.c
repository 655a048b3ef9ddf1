/*
 * test_bad_input.c: a table of hostile calls over every function of include/picollo.h.
 *
 * Each row names an exported function, a case, a callback making one call with a bad
 * argument (NULL handles and outputs, NULL buffers with a length, zero and SIZE_MAX
 * lengths, garbage struct_size, unknown enum values, NaN/infinite/huge numbers, values at
 * 0 and UINT64_MAX, mismatched histograms) and the statuses that call may return. For a
 * row that expects a failure the runner also checks the message
 * picollo_last_error_message() leaves: fresh (not left over from an earlier call),
 * NUL-terminated within 4096 bytes, containing the row's needle (usually the argument's
 * name), and with numbers written compactly (no run of more than 24 digits: 1e300, not
 * 301 digits). Functions that return no status (record, free, clocks) report OK when they
 * behaved (their callbacks CHECK what they return).
 *
 * scripts/check_matrix.py fails when a function of the header has no row here. Perf rows
 * hold with or without a hardware PMU: a bad argument is INVALID_ARGUMENT either way, and
 * rows whose outcome depends on the machine accept each status it may give.
 *
 * The last line is "N passed, M failed"; the exit status is non-zero when anything failed.
 */
/* strnlen (POSIX on top of C99). */
#define _POSIX_C_SOURCE 200809L

#include <float.h>
#include <stddef.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

/* A set of statuses a row accepts. */
#define ST(s) (1u << PICOLLO_STATUS_##s)
/* Outcomes of a trial open that depend on the machine (PMU, paranoid setting). */
#define MACHINE (ST(OK) | ST(UNSUPPORTED) | ST(PERMISSION_DENIED))

typedef struct bad_row {
    const char *function; /* the exported function the row calls */
    void (*address)(void); /* that function: a misspelt name fails to compile */
    const char *name;     /* the case */
    picollo_status (*run)(void);
    uint32_t want;       /* ST() set of the statuses the call may return */
    const char *needle;  /* a failure's message must contain it (NULL: any message) */
} bad_row;

#define ROW(fn, run, want, needle) {#fn, (void (*)(void))fn, #run, run, want, needle}

/* A row's callback `name`: makes a `type` named `c` by `base`, runs `change` (one or more
 * statements on it), returns `call` (which uses it). */
#define CONFIG_CASE(name, type, base, change, call)                                          \
    static picollo_status name(void)                                                         \
    {                                                                                        \
        type c = base;                                                                       \
        change;                                                                              \
        return call;                                                                         \
    }

static const char bad_utf8[] = "\xff\xfe title";

/* ---- fixtures, made once in main ---- */

static picollo_histogram *h;         /* values 1, 2, 3, 1000 (default config) */
static picollo_float_histogram *fh;  /* values -2.5, 0, 1.5, 1e6 (default float config) */
static picollo_float_histogram *fempty; /* default float config, nothing recorded */
static picollo_float_histogram *fcoarse; /* relative error 0.01, magnitudes 1..1000 */
static picollo_float_snapshot *fsnap; /* of fh */
static picollo_histogram *empty;     /* default config, nothing recorded */
static picollo_histogram *coarse;    /* relative error 0.01: another layout */
static picollo_histogram *shared;    /* interlocked mode */
static picollo_snapshot *snap;       /* of h */
static picollo_cumulative *cum;      /* of h */
static picollo_cumulative *cum_empty; /* of empty */
static picollo_approx_counter *approx;
static picollo_perf_session *ps;     /* Software:TaskClock, never opened */
static picollo_perf_session *ps_none; /* no counters */
static picollo_perf_session *ps_open; /* Software:TaskClock, opened (NULL if it cannot be) */
static picollo_bench_result *br;    /* a short time-only run of an empty callback */
static picollo_summary sum;          /* of h */
static picollo_percentile pct;       /* P50 of h */

static picollo_histogram_config config_with(double relative_error)
{
    picollo_histogram_config c = picollo_histogram_config_default();
    c.relative_error = relative_error;
    return c;
}

/* picollo_histogram_new on `c`; a histogram made by mistake is freed. */
static picollo_status new_with(picollo_histogram_config c)
{
    picollo_histogram *out = NULL;
    picollo_status st = picollo_histogram_new(&c, &out);
    CHECK((st == PICOLLO_STATUS_OK) == (out != NULL));
    picollo_histogram_free(out);
    return st;
}
/* picollo_histogram_new on the default config after `change`. */
#define NEW_CASE(name, change)                                                              \
    CONFIG_CASE(name, picollo_histogram_config, picollo_histogram_config_default(), change, \
                new_with(c))

static picollo_status perf_new_with(picollo_perf_config c)
{
    picollo_perf_session *out = NULL;
    picollo_status st = picollo_perf_session_new(&c, &out);
    CHECK((st == PICOLLO_STATUS_OK) == (out != NULL));
    picollo_perf_session_free(out);
    return st;
}

/* A config followed by bytes up to 4096, the largest struct_size the library reads. */
static union {
    picollo_histogram_config config;
    unsigned char bytes[4096];
} big;

/* ---- picollo_abi_version, picollo_status_str, picollo_last_error_message ---- */

static picollo_status abi_version(void)
{
    CHECK(picollo_abi_version() == PICOLLO_ABI_VERSION);
    return PICOLLO_STATUS_OK;
}
static picollo_status status_str_unknown(void)
{
    CHECK(strcmp(picollo_status_str(UINT32_MAX), "unknown status") == 0);
    CHECK(strcmp(picollo_status_str(PICOLLO_STATUS_UNENCODABLE + 1), "unknown status") == 0);
    return PICOLLO_STATUS_OK;
}
static picollo_status last_error_after_failure(void)
{
    const char *msg;
    CHECK(picollo_histogram_reset(NULL) == PICOLLO_STATUS_NULL_POINTER);
    msg = picollo_last_error_message();
    CHECK(msg != NULL && strnlen(msg, 4096) < 4096 && strstr(msg, "`h`") != NULL);
    return PICOLLO_STATUS_OK;
}

/* ---- approximate counters ---- */

static picollo_status approx_new(uint32_t t, uint32_t k, uint32_t e)
{
    picollo_approx_counter *out = NULL;
    picollo_status st = picollo_approx_counter_new(t, k, e, &out);
    CHECK((st == PICOLLO_STATUS_OK) == (out != NULL));
    picollo_approx_counter_free(out);
    return st;
}
static picollo_status approx_new_null_out(void) { return picollo_approx_counter_new(0, 0, 0, NULL); }
static picollo_status approx_new_threshold_63(void) { return approx_new(63, 0, 0); }
static picollo_status approx_new_threshold_max(void) { return approx_new(UINT32_MAX, 0, 0); }
static picollo_status approx_new_shift_63(void) { return approx_new(0, 63, 0); }
static picollo_status approx_new_exact_2(void) { return approx_new(0, 0, 2); }
static picollo_status approx_new_limits(void) { return approx_new(62, 62, 1); }
static picollo_status approx_free_null(void)
{
    picollo_approx_counter_free(NULL);
    return PICOLLO_STATUS_OK;
}
static picollo_status approx_increment_null(void)
{
    picollo_approx_counter_increment(NULL);
    return PICOLLO_STATUS_OK;
}
static picollo_status approx_add_null(void)
{
    picollo_approx_counter_add(NULL, UINT64_MAX);
    return PICOLLO_STATUS_OK;
}
static picollo_status approx_add_saturates(void)
{
    uint64_t v = 1;
    picollo_approx_counter *c = NULL;
    CHECK(picollo_approx_counter_new(0, 0, 0, &c) == PICOLLO_STATUS_OK);
    picollo_approx_counter_add(c, 2);
    picollo_approx_counter_add(c, UINT64_MAX);
    /* Saturates at the interlocked ceiling, 2^64 - 1 - 2^22, instead of wrapping. */
    CHECK(picollo_approx_counter_get(c, &v) == PICOLLO_STATUS_OK &&
          v == UINT64_MAX - (UINT64_C(1) << 22));
    picollo_approx_counter_free(c);
    return PICOLLO_STATUS_OK;
}
static picollo_status approx_get_null_counter(void)
{
    uint64_t v = 7;
    picollo_status st = picollo_approx_counter_get(NULL, &v);
    CHECK(v == 7);
    return st;
}
static picollo_status approx_get_null_out(void) { return picollo_approx_counter_get(approx, NULL); }
static picollo_status approx_reset_null_counter(void) { return picollo_approx_counter_reset(NULL, NULL); }
static picollo_status approx_reset_null_taken(void) { return picollo_approx_counter_reset(approx, NULL); }
static picollo_status approx_policy_null_counter(void)
{
    uint32_t t;
    return picollo_approx_counter_policy(NULL, &t, NULL, NULL);
}
static picollo_status approx_policy_null_outputs(void)
{
    return picollo_approx_counter_policy(approx, NULL, NULL, NULL);
}

/* ---- creating histograms ---- */

static picollo_status hist_new_null_config(void)
{
    picollo_histogram *out = NULL;
    return picollo_histogram_new(NULL, &out);
}
static picollo_status hist_new_null_out(void)
{
    picollo_histogram_config c = picollo_histogram_config_default();
    return picollo_histogram_new(&c, NULL);
}
static picollo_status hist_new_size(uint32_t size)
{
    picollo_histogram_config c = picollo_histogram_config_default();
    c.struct_size = size;
    return new_with(c);
}
static picollo_status hist_new_size_0(void) { return hist_new_size(0); }
static picollo_status hist_new_size_1(void) { return hist_new_size(1); }
static picollo_status hist_new_size_short(void) { return hist_new_size((uint32_t)sizeof(picollo_histogram_config) - 1); }
/* Larger than the 4096-byte cap: refused without reading past the struct (valgrind). */
static picollo_status hist_new_size_4097(void) { return hist_new_size(4097); }
static picollo_status hist_new_size_max(void) { return hist_new_size(UINT32_MAX); }
static picollo_status hist_new_size_4096_garbage(void)
{
    picollo_histogram *out = NULL;
    picollo_status st;
    memset(big.bytes, 0, sizeof big.bytes);
    big.config = picollo_histogram_config_default();
    big.config.struct_size = 4096;
    big.bytes[4095] = 1;
    st = picollo_histogram_new(&big.config, &out);
    picollo_histogram_free(out);
    return st;
}
static picollo_status hist_new_size_4096_zeros(void)
{
    picollo_histogram *out = NULL;
    picollo_status st;
    memset(big.bytes, 0, sizeof big.bytes);
    big.config = picollo_histogram_config_default();
    big.config.struct_size = 4096;
    st = picollo_histogram_new(&big.config, &out);
    picollo_histogram_free(out);
    return st;
}
/* A unit past what the layout holds: at 0.1 % (512 buckets a block) at most 2^55 - 1. */
NEW_CASE(hist_new_lowest_too_wide, c.lowest_discernible = (uint64_t)1 << 55)
NEW_CASE(hist_new_lowest_max, c.lowest_discernible = UINT64_MAX)
/* 0 is what a struct of an older header reads as: unit 1. */
NEW_CASE(hist_new_lowest_0, c.lowest_discernible = 0)
static picollo_status hist_new_error_nan(void) { return new_with(config_with(NAN)); }
static picollo_status hist_new_error_inf(void) { return new_with(config_with(INFINITY)); }
static picollo_status hist_new_error_minus_inf(void) { return new_with(config_with(-INFINITY)); }
static picollo_status hist_new_error_zero(void) { return new_with(config_with(0.0)); }
static picollo_status hist_new_error_negative(void) { return new_with(config_with(-0.001)); }
static picollo_status hist_new_error_minus_1e300(void) { return new_with(config_with(-1e300)); }
static picollo_status hist_new_error_1e300(void) { return new_with(config_with(1e300)); }
static picollo_status hist_new_error_tiny(void) { return new_with(config_with(5e-324)); }
NEW_CASE(hist_new_min_above_max, c.min_trackable = UINT64_MAX; c.max_trackable = 0)
NEW_CASE(hist_new_range_0_0, c.min_trackable = 0; c.max_trackable = 0)
NEW_CASE(hist_new_range_max_max, c.min_trackable = UINT64_MAX; c.max_trackable = UINT64_MAX)
static picollo_status hist_new_bits(uint32_t bits)
{
    picollo_histogram_config c = picollo_histogram_config_default();
    c.counter_bits = bits;
    return new_with(c);
}
static picollo_status hist_new_bits_0(void) { return hist_new_bits(0); }
static picollo_status hist_new_bits_16(void) { return hist_new_bits(16); }
static picollo_status hist_new_bits_max(void) { return hist_new_bits(UINT32_MAX); }
static picollo_status hist_new_selection(uint32_t s)
{
    picollo_histogram_config c = picollo_histogram_config_default();
    c.value_selection = s;
    return new_with(c);
}
static picollo_status hist_new_selection_4(void) { return hist_new_selection(4); }
static picollo_status hist_new_selection_max(void) { return hist_new_selection(UINT32_MAX); }
static picollo_status hist_new_mode(uint32_t m, uint32_t threshold)
{
    picollo_histogram_config c = picollo_histogram_config_default();
    c.mode = m;
    c.approx_threshold = threshold;
    return new_with(c);
}
static picollo_status hist_new_mode_4(void) { return hist_new_mode(4, 0); }
static picollo_status hist_new_mode_max(void) { return hist_new_mode(UINT32_MAX, 0); }
static picollo_status hist_new_threshold_63(void) { return hist_new_mode(PICOLLO_MODE_APPROXIMATE, 63); }
static picollo_status hist_new_threshold_max(void) { return hist_new_mode(PICOLLO_MODE_APPROXIMATE, UINT32_MAX); }
static picollo_status hist_new_threshold_wrong_mode(void) { return hist_new_mode(PICOLLO_MODE_SINGLE_WRITER, 5); }
NEW_CASE(hist_new_storage_2, c.storage = 2)
NEW_CASE(hist_new_sparse_thread_local,
         c.storage = PICOLLO_STORAGE_SPARSE; c.mode = PICOLLO_MODE_THREAD_LOCAL)
static picollo_status hist_config_default(void)
{
    picollo_histogram_config c = picollo_histogram_config_default();
    CHECK(c.struct_size == sizeof c && c.storage == PICOLLO_STORAGE_DENSE);
    return PICOLLO_STATUS_OK;
}
static picollo_status hist_free_null(void)
{
    picollo_histogram_free(NULL);
    return PICOLLO_STATUS_OK;
}

/* ---- recording ---- */

static picollo_histogram *scratch(void)
{
    return make_histogram(64, 0.001, 0, UINT64_MAX);
}
/* `(picollo_histogram_record)`: the exported function, not the header's inline call. */
static picollo_status record_null(void)
{
    (picollo_histogram_record)(NULL, UINT64_MAX);
    return PICOLLO_STATUS_OK;
}
static picollo_status record_extremes(void)
{
    picollo_histogram *s = make_histogram(64, 0.001, 10, 1000);
    picollo_histogram_info i;
    (picollo_histogram_record)(s, 0);
    (picollo_histogram_record)(s, UINT64_MAX);
    i = info_of(s);
    CHECK(i.underflow == 1 && i.overflow == 1 && i.total == 0);
    picollo_histogram_free(s);
    return PICOLLO_STATUS_OK;
}
/* The header's inline call (what `picollo_histogram_record(h, v)` compiles to). */
static picollo_status record_inline_null(void)
{
    picollo_histogram_record(NULL, UINT64_MAX);
    picollo_histogram_record_inline(NULL, 0);
    return PICOLLO_STATUS_OK;
}
static picollo_status record_inline_extremes(void)
{
    picollo_histogram *s = make_histogram(32, 0.001, 10, 1000);
    picollo_histogram_info i;
    picollo_histogram_record_inline(s, 0);
    picollo_histogram_record_inline(s, UINT64_MAX);
    picollo_histogram_record_inline(s, 500);
    i = info_of(s);
    CHECK(i.underflow == 1 && i.overflow == 1 && i.total == 1);
    picollo_histogram_free(s);
    return PICOLLO_STATUS_OK;
}
static picollo_status record_fn_null(void)
{
    /* NULL gets a function that records nothing (never NULL itself). */
    picollo_record_fn f = picollo_histogram_record_fn(NULL);
    CHECK(f != NULL);
    if (f != NULL) {
        f(NULL, 5);
    }
    return PICOLLO_STATUS_OK;
}
/* Runs `test` on a fresh histogram of the range 10..1000 for every counter width and
 * every mode (what the record paths specialise on), then frees it. */
static void for_every_width_and_mode(void (*test)(picollo_histogram *s))
{
    static const uint32_t modes[] = {PICOLLO_MODE_SINGLE_WRITER, PICOLLO_MODE_INTERLOCKED,
                                     PICOLLO_MODE_THREAD_LOCAL, PICOLLO_MODE_APPROXIMATE};
    for (unsigned bits = 32; bits <= 64; bits += 32) {
        for (size_t m = 0; m < sizeof modes / sizeof modes[0]; m++) {
            picollo_histogram_config cfg = picollo_histogram_config_default();
            picollo_histogram *s = NULL;
            cfg.counter_bits = bits;
            cfg.min_trackable = 10;
            cfg.max_trackable = 1000;
            cfg.mode = modes[m];
            CHECK(picollo_histogram_new(&cfg, &s) == PICOLLO_STATUS_OK);
            test(s);
            picollo_histogram_free(s);
        }
    }
}
static void record_fn_counts(picollo_histogram *s)
{
    picollo_record_fn f = picollo_histogram_record_fn(s);
    CHECK(f != NULL);
    f(s, 0);
    f(s, 500);
    f(s, 500);
    f(s, UINT64_MAX);
    picollo_histogram_info i = info_of(s);
    CHECK(i.underflow == 1 && i.overflow == 1 && i.total == 2);
}
static picollo_status record_fn_extremes(void)
{
    /* Every width and mode: the specialised function counts like picollo_histogram_record,
     * out-of-range values included. */
    for_every_width_and_mode(record_fn_counts);
    return PICOLLO_STATUS_OK;
}
static picollo_status recorder_null_h(void)
{
    picollo_recorder r;
    return picollo_histogram_get_recorder(NULL, PICOLLO_RECORDER_VERSION, &r);
}
static picollo_status recorder_null_out(void) { return picollo_histogram_get_recorder(h, PICOLLO_RECORDER_VERSION, NULL); }
static picollo_status recorder_version_0(void)
{
    picollo_recorder r;
    return picollo_histogram_get_recorder(h, 0, &r);
}
static picollo_status recorder_version_next(void)
{
    picollo_recorder r;
    return picollo_histogram_get_recorder(h, PICOLLO_RECORDER_VERSION + 1, &r);
}
static picollo_status recorder_version_max(void)
{
    picollo_recorder r;
    return picollo_histogram_get_recorder(h, UINT32_MAX, &r);
}
static picollo_status recorder_v1_null_h(void)
{
    picollo_recorder r;
    return picollo_histogram_recorder(NULL, &r);
}
/* The entry point of headers without the unit: a layout with a unit gets the call kind. */
static picollo_status recorder_v1_unit(void)
{
    picollo_histogram_config cfg = picollo_histogram_config_default();
    picollo_histogram *u = NULL;
    picollo_recorder r;
    cfg.lowest_discernible = 1000;
    CHECK(picollo_histogram_new(&cfg, &u) == PICOLLO_STATUS_OK);
    picollo_status st = picollo_histogram_recorder(u, &r);
    CHECK(st != PICOLLO_STATUS_OK ||
          (r.kind == PICOLLO_RECORDER_KIND_CALL && r.cells == NULL && r.record != NULL));
    picollo_histogram_free(u);
    return st;
}
/* The header's bucket arithmetic at the ends of the u64 range: 0 is bucket 0, values below
 * twice the block are their own buckets (unit 1), and UINT64_MAX is the last bucket. */
static picollo_status recorder_index_extremes(void)
{
    picollo_recorder r;
    picollo_histogram_info i = info_of(h);
    CHECK(picollo_histogram_get_recorder(h, PICOLLO_RECORDER_VERSION, &r) == PICOLLO_STATUS_OK);
    CHECK(picollo_recorder_index(&r, 0) == 0);
    CHECK(picollo_recorder_index(&r, 2 * i.block_size - 1) == 2 * i.block_size - 1);
    CHECK(picollo_recorder_index(&r, UINT64_MAX) == (65 - r.block_scale) * i.block_size - 1);
    return PICOLLO_STATUS_OK;
}
/* Records 0, 9, 10, 1000 and UINT64_MAX through `r` into `s` (range 10..1000): two
 * underflows, one overflow, two counted. */
static void records_through(const picollo_recorder *r, picollo_histogram *s)
{
    picollo_recorder_record(r, 0);
    picollo_recorder_record(r, 9);
    picollo_recorder_record(r, 10);
    picollo_recorder_record(r, 1000);
    picollo_recorder_record(r, UINT64_MAX);
    picollo_histogram_info i = info_of(s);
    CHECK(i.underflow == 2 && i.overflow == 1 && i.total == 2);
}
static void recorder_counts(picollo_histogram *s)
{
    picollo_recorder r;
    CHECK(picollo_histogram_get_recorder(s, PICOLLO_RECORDER_VERSION, &r) == PICOLLO_STATUS_OK);
    records_through(&r, s);
}
static picollo_status recorder_record_extremes(void)
{
    /* Every width and mode: the inline recorder counts values outside the range as
     * underflow/overflow, through the library. */
    for_every_width_and_mode(recorder_counts);
    return PICOLLO_STATUS_OK;
}
/* The by-value recorder: a NULL handle's status, a recorder that only calls (ignored). */
static picollo_status recorder_of_null_h(void)
{
    picollo_status st = PICOLLO_STATUS_OK;
    const picollo_recorder r = picollo_recorder_of(NULL, &st);
    CHECK(r.kind == PICOLLO_RECORDER_KIND_CALL && r.cells == NULL && r.record != NULL);
    return st;
}
/* No status wanted: NULL is allowed for it. */
static picollo_status recorder_of_null_status(void)
{
    const picollo_recorder r = picollo_recorder_of(h, NULL);
    CHECK(r.kind != PICOLLO_RECORDER_KIND_CALL || r.cells == NULL);
    return PICOLLO_STATUS_OK;
}
static void recorder_of_counts(picollo_histogram *s)
{
    picollo_status st = PICOLLO_STATUS_UNSUPPORTED;
    const picollo_recorder r = picollo_recorder_of(s, &st);
    CHECK(st == PICOLLO_STATUS_OK);
    records_through(&r, s);
}
static picollo_status recorder_of_extremes(void)
{
    for_every_width_and_mode(recorder_of_counts);
    return PICOLLO_STATUS_OK;
}
static picollo_status record_n_null(void)
{
    picollo_histogram_record_n(NULL, 1, UINT64_MAX);
    return PICOLLO_STATUS_OK;
}
static picollo_status record_n_saturates(void)
{
    picollo_histogram *s = make_histogram(32, 0.001, 0, UINT64_MAX);
    picollo_histogram_info i;
    picollo_histogram_record_n(s, UINT64_MAX, UINT64_MAX);
    picollo_histogram_record_n(s, 0, 0);
    i = info_of(s);
    CHECK(i.total == UINT32_MAX && i.saturated == UINT64_MAX - UINT32_MAX);
    picollo_histogram_free(s);
    return PICOLLO_STATUS_OK;
}
static picollo_status record_corrected_null(void)
{
    picollo_histogram_record_corrected(NULL, UINT64_MAX, 1);
    return PICOLLO_STATUS_OK;
}
static picollo_status record_corrected_extremes(void)
{
    picollo_histogram *s = scratch();
    picollo_histogram_record_corrected(s, UINT64_MAX, 1); /* bounded by the bucket count */
    picollo_histogram_record_corrected(s, UINT64_MAX, 0);
    picollo_histogram_record_corrected(s, 0, UINT64_MAX);
    CHECK(info_of(s).total > 2);
    picollo_histogram_free(s);
    return PICOLLO_STATUS_OK;
}
static picollo_status record_many_null_h(void)
{
    const uint64_t v[1] = {5};
    return picollo_histogram_record_many(NULL, v, 1);
}
static picollo_status record_many_null_values(void) { return picollo_histogram_record_many(h, NULL, 1); }
static picollo_status record_many_null_values_max(void) { return picollo_histogram_record_many(h, NULL, SIZE_MAX); }
static picollo_status record_many_null_values_0(void) { return picollo_histogram_record_many(h, NULL, 0); }
/* A length no memory can hold is refused before any value is read. */
static picollo_status record_many_huge_n(void)
{
    const uint64_t v[1] = {5};
    return picollo_histogram_record_many(h, v, SIZE_MAX);
}
static picollo_status record_many_i64_null_h(void)
{
    const int64_t v[1] = {5};
    return picollo_histogram_record_many_i64(NULL, v, 1);
}
static picollo_status record_many_i64_null_values(void) { return picollo_histogram_record_many_i64(h, NULL, 1); }
static picollo_status record_many_i64_huge_n(void)
{
    const int64_t v[1] = {5};
    return picollo_histogram_record_many_i64(h, v, SIZE_MAX);
}
/* The lowest int64 is refused, by its position and value, and nothing is recorded. */
static picollo_status record_many_i64_min(void)
{
    const int64_t v[3] = {5, 6, INT64_MIN};
    uint64_t before = info_of(h).total;
    picollo_status st = picollo_histogram_record_many_i64(h, v, 3);
    CHECK(info_of(h).total == before);
    return st;
}
static picollo_status reset_null(void) { return picollo_histogram_reset(NULL); }
static picollo_status selection_null(void) { return picollo_histogram_set_value_selection(NULL, 0); }
static picollo_status selection_4(void) { return picollo_histogram_set_value_selection(h, 4); }
static picollo_status selection_max(void) { return picollo_histogram_set_value_selection(h, UINT32_MAX); }
static picollo_status info_null_h(void)
{
    picollo_histogram_info i;
    return picollo_histogram_get_info(NULL, &i);
}
static picollo_status info_null_out(void) { return picollo_histogram_get_info(h, NULL); }

/* ---- merging ---- */

static picollo_status rank_null_h(void)
{
    double v;
    return picollo_histogram_rank_of(NULL, 1, &v);
}
static picollo_status rank_null_out(void) { return picollo_histogram_rank_of(h, 1, NULL); }
static picollo_status quantile_of_empty(void)
{
    double v;
    return picollo_histogram_quantile_of(empty, 1, &v);
}
static picollo_status quantile_of_null_out(void) { return picollo_histogram_quantile_of(h, 1, NULL); }
static picollo_status between_reversed(void)
{
    uint64_t n;
    return picollo_histogram_count_between(h, 10, 9, &n);
}
static picollo_status between_null_out(void) { return picollo_histogram_count_between(h, 1, 2, NULL); }
static picollo_status equivalent_null_h(void)
{
    uint64_t lo, hi;
    return picollo_histogram_equivalent_range(NULL, 1, &lo, &hi);
}
static picollo_status equivalent_extremes(void)
{
    uint64_t lo = 1, hi = 0;
    CHECK(picollo_histogram_equivalent_range(h, UINT64_MAX, &lo, &hi) == PICOLLO_STATUS_OK);
    CHECK(hi == UINT64_MAX && lo <= hi);
    return picollo_histogram_equivalent_range(h, 0, NULL, NULL);
}
static picollo_status rebinned_null_dst(void) { return picollo_histogram_add_rebinned(NULL, h); }
static picollo_status rebinned_null_src(void) { return picollo_histogram_add_rebinned(empty, NULL); }
static picollo_status downsample_nan(void)
{
    picollo_histogram *out = NULL;
    picollo_status st = picollo_histogram_downsample(h, NAN, &out);
    CHECK(out == NULL);
    return st;
}
static picollo_status downsample_zero(void)
{
    picollo_histogram *out = NULL;
    picollo_status st = picollo_histogram_downsample(h, 0.0, &out);
    CHECK(out == NULL);
    return st;
}
static picollo_status downsample_finer(void)
{
    picollo_histogram *out = NULL;
    picollo_status st = picollo_histogram_downsample(h, 1e-5, &out);
    CHECK(out == NULL);
    return st;
}
static picollo_status downsample_inf(void)
{
    picollo_histogram *out = NULL;
    picollo_status st = picollo_histogram_downsample(h, INFINITY, &out);
    CHECK(out == NULL);
    return st;
}
static picollo_status downsample_null_h(void)
{
    picollo_histogram *out = NULL;
    return picollo_histogram_downsample(NULL, 0.01, &out);
}
static picollo_status downsample_null_out(void) { return picollo_histogram_downsample(h, 0.01, NULL); }
static picollo_status steps_null_h(void)
{
    uint64_t c = 0;
    picollo_step s;
    return picollo_histogram_linear_steps(NULL, 10, &c, &s, 1, NULL);
}
static picollo_status steps_zero_width(void)
{
    uint64_t c = 0;
    picollo_step s;
    return picollo_histogram_linear_steps(h, 0, &c, &s, 1, NULL);
}
static picollo_status steps_zero_cap(void)
{
    uint64_t c = 0;
    picollo_step s;
    return picollo_histogram_linear_steps(h, 10, &c, &s, 0, NULL);
}
static picollo_status steps_null_cursor(void)
{
    picollo_step s;
    return picollo_histogram_linear_steps(h, 10, NULL, &s, 1, NULL);
}
static picollo_status steps_null_out(void)
{
    uint64_t c = 0;
    return picollo_histogram_linear_steps(h, 10, &c, NULL, 1, NULL);
}
static picollo_status steps_done(void)
{
    uint64_t c = UINT64_MAX;
    picollo_step s;
    return picollo_histogram_linear_steps(h, 10, &c, &s, 1, NULL);
}
static picollo_status log_steps_base_1(void)
{
    uint64_t c = 0;
    picollo_step s;
    return picollo_histogram_log_steps(h, 10, 1.0, &c, &s, 1, NULL);
}
static picollo_status log_steps_base_nan(void)
{
    uint64_t c = 0;
    picollo_step s;
    return picollo_histogram_log_steps(h, 10, NAN, &c, &s, 1, NULL);
}
static picollo_status log_steps_zero_first(void)
{
    uint64_t c = 0;
    picollo_step s;
    return picollo_histogram_log_steps(h, 0, 2.0, &c, &s, 1, NULL);
}
static picollo_status log_steps_null_out(void)
{
    uint64_t c = 0;
    return picollo_histogram_log_steps(h, 1, 2.0, &c, NULL, 1, NULL);
}
static picollo_status storage_null_h(void)
{
    uint32_t k;
    return picollo_histogram_get_storage(NULL, &k);
}
static picollo_status storage_null_out(void) { return picollo_histogram_get_storage(h, NULL); }
static picollo_status unit_null_h(void)
{
    uint64_t u;
    return picollo_histogram_get_unit(NULL, &u);
}
static picollo_status unit_null_out(void) { return picollo_histogram_get_unit(h, NULL); }
static picollo_status extremes_null_h(void)
{
    uint64_t a, b;
    return picollo_histogram_exact_extremes(NULL, &a, &b);
}
/* `h` keeps no exact extremes. */
static picollo_status extremes_untracked(void)
{
    uint64_t a, b;
    return picollo_histogram_exact_extremes(h, &a, &b);
}
static picollo_status extremes_empty(void)
{
    picollo_histogram_config c = picollo_histogram_config_default();
    picollo_histogram *t = NULL;
    picollo_status st;
    uint64_t a = 0, b = 0;
    c.exact_extremes = 1;
    c.min_trackable = 10;
    if (picollo_histogram_new(&c, &t) != PICOLLO_STATUS_OK) {
        return PICOLLO_STATUS_PANIC;
    }
    picollo_histogram_record(t, 3); /* underflow only */
    st = picollo_histogram_exact_extremes(t, &a, &b);
    picollo_histogram_free(t);
    return st;
}
static picollo_status extremes_null_outs(void)
{
    picollo_histogram_config c = picollo_histogram_config_default();
    picollo_histogram *t = NULL;
    picollo_status st;
    c.exact_extremes = 1;
    if (picollo_histogram_new(&c, &t) != PICOLLO_STATUS_OK) {
        return PICOLLO_STATUS_PANIC;
    }
    picollo_histogram_record(t, 3);
    st = picollo_histogram_exact_extremes(t, NULL, NULL);
    picollo_histogram_free(t);
    return st;
}
static picollo_status add_null_dst(void) { return picollo_histogram_add(NULL, h); }
static picollo_status add_null_src(void) { return picollo_histogram_add(empty, NULL); }
static picollo_status add_same(void) { return picollo_histogram_add(h, h); }
static picollo_status add_mismatch(void) { return picollo_histogram_add(coarse, h); }
static picollo_status subtract_null_dst(void) { return picollo_histogram_subtract(NULL, h); }
static picollo_status subtract_null_src(void) { return picollo_histogram_subtract(h, NULL); }
static picollo_status subtract_same(void) { return picollo_histogram_subtract(h, h); }
static picollo_status subtract_mismatch(void) { return picollo_histogram_subtract(coarse, h); }
static picollo_status subtract_negative(void) { return picollo_histogram_subtract(empty, h); }
static picollo_status subtract_shared(void) { return picollo_histogram_subtract(shared, empty); }

/* ---- queries ---- */

static picollo_status percentile_at(const picollo_histogram *of, double rank)
{
    picollo_percentile p;
    memset(&p, 0xAB, sizeof p);
    {
        picollo_status st = picollo_histogram_percentile(of, rank, &p);
        if (st != PICOLLO_STATUS_OK) {
            /* Outputs are written only on success. */
            CHECK(p.count == UINT64_C(0xABABABABABABABAB));
        }
        return st;
    }
}
static picollo_status percentile_null_h(void) { return percentile_at(NULL, 50.0); }
static picollo_status percentile_null_out(void) { return picollo_histogram_percentile(h, 50.0, NULL); }
static picollo_status percentile_nan(void) { return percentile_at(h, NAN); }
static picollo_status percentile_inf(void) { return percentile_at(h, INFINITY); }
static picollo_status percentile_minus_inf(void) { return percentile_at(h, -INFINITY); }
static picollo_status percentile_below_0(void) { return percentile_at(h, -0.001); }
static picollo_status percentile_above_100(void) { return percentile_at(h, 100.0001); }
static picollo_status percentile_1e300(void) { return percentile_at(h, 1e300); }
static picollo_status percentile_minus_1e300(void) { return percentile_at(h, -1e300); }
static picollo_status percentile_tiny_negative(void) { return percentile_at(h, -5e-324); }
static picollo_status percentile_empty(void) { return percentile_at(empty, 50.0); }
static picollo_status percentile_0_and_100(void)
{
    picollo_status a = percentile_at(h, 0.0);
    picollo_status b = percentile_at(h, 100.0);
    return a != PICOLLO_STATUS_OK ? a : b;
}

static const double ranks2[2] = {10.0, 90.0};
static picollo_percentile out2[2];
static uint64_t values2[2];

static picollo_status percentiles_null_h(void) { return picollo_histogram_percentiles(NULL, ranks2, 2, out2); }
static picollo_status percentiles_null_ranks(void) { return picollo_histogram_percentiles(h, NULL, 2, out2); }
static picollo_status percentiles_null_out(void) { return picollo_histogram_percentiles(h, ranks2, 2, NULL); }
/* n = SIZE_MAX with a NULL output: refused before a slice of either array is made. */
static picollo_status percentiles_null_out_max(void) { return picollo_histogram_percentiles(h, ranks2, SIZE_MAX, NULL); }
static picollo_status percentiles_null_ranks_max(void) { return picollo_histogram_percentiles(h, NULL, SIZE_MAX, out2); }
static picollo_status percentiles_none(void) { return picollo_histogram_percentiles(h, NULL, 0, NULL); }
static picollo_status percentiles_not_increasing(void)
{
    const double r[2] = {90.0, 10.0};
    return picollo_histogram_percentiles(h, r, 2, out2);
}
static picollo_status percentiles_repeated(void)
{
    const double r[2] = {50.0, 50.0};
    return picollo_histogram_percentiles(h, r, 2, out2);
}
static picollo_status percentiles_nan(void)
{
    const double r[2] = {10.0, NAN};
    return picollo_histogram_percentiles(h, r, 2, out2);
}
static picollo_status percentiles_1e300(void)
{
    const double r[2] = {10.0, 1e300};
    return picollo_histogram_percentiles(h, r, 2, out2);
}
static picollo_status percentiles_empty(void) { return picollo_histogram_percentiles(empty, ranks2, 2, out2); }
static picollo_status values_null_h(void) { return picollo_histogram_percentile_values(NULL, ranks2, 2, values2); }
static picollo_status values_null_ranks(void) { return picollo_histogram_percentile_values(h, NULL, 2, values2); }
static picollo_status values_null_out(void) { return picollo_histogram_percentile_values(h, ranks2, 2, NULL); }
static picollo_status values_null_out_max(void) { return picollo_histogram_percentile_values(h, ranks2, SIZE_MAX, NULL); }
static picollo_status values_minus_1e300(void)
{
    const double r[1] = {-1e300};
    return picollo_histogram_percentile_values(h, r, 1, values2);
}
static picollo_status values_empty(void) { return picollo_histogram_percentile_values(empty, ranks2, 2, values2); }

static picollo_status summary_null_h(void)
{
    picollo_summary s;
    return picollo_histogram_summary(NULL, &s);
}
static picollo_status summary_null_out(void) { return picollo_histogram_summary(h, NULL); }
static picollo_status summary_empty(void)
{
    picollo_summary s;
    picollo_status st = picollo_histogram_summary(empty, &s);
    CHECK(s.total == 0 && isnan(s.mean) && s.percentiles[15].value == 0);
    return st;
}
static picollo_status mean_stdev_null_h(void)
{
    double m;
    return picollo_histogram_mean_stdev(NULL, &m, NULL);
}
static picollo_status mean_stdev_null_outputs(void) { return picollo_histogram_mean_stdev(h, NULL, NULL); }
static picollo_status bucket_null_h(void)
{
    picollo_bucket b;
    return picollo_histogram_bucket(NULL, 0, &b);
}
static picollo_status bucket_null_out(void) { return picollo_histogram_bucket(h, 0, NULL); }
static picollo_status bucket_past_end(void)
{
    picollo_bucket b;
    return picollo_histogram_bucket(h, (size_t)info_of(h).storage_len, &b);
}
static picollo_status bucket_max(void)
{
    picollo_bucket b;
    return picollo_histogram_bucket(h, SIZE_MAX, &b);
}
static picollo_status next_bucket_null_h(void)
{
    size_t cursor = 0;
    picollo_bucket b;
    return picollo_histogram_next_bucket(NULL, &cursor, &b);
}
static picollo_status next_bucket_null_cursor(void)
{
    picollo_bucket b;
    return picollo_histogram_next_bucket(h, NULL, &b);
}
static picollo_status next_bucket_null_out(void)
{
    size_t cursor = 0;
    return picollo_histogram_next_bucket(h, &cursor, NULL);
}
static picollo_status next_bucket_cursor_max(void)
{
    size_t cursor = SIZE_MAX;
    picollo_bucket b;
    picollo_status st = picollo_histogram_next_bucket(h, &cursor, &b);
    CHECK(cursor == SIZE_MAX);
    return st;
}
static picollo_status next_bucket_empty(void)
{
    size_t cursor = 0;
    picollo_bucket b;
    return picollo_histogram_next_bucket(empty, &cursor, &b);
}
static picollo_status next_buckets_null_h(void)
{
    size_t cursor = 0;
    picollo_bucket b[1];
    return picollo_histogram_next_buckets(NULL, &cursor, b, 1, NULL);
}
static picollo_status next_buckets_null_cursor(void)
{
    picollo_bucket b[1];
    return picollo_histogram_next_buckets(h, NULL, b, 1, NULL);
}
static picollo_status next_buckets_null_out(void)
{
    size_t cursor = 0;
    return picollo_histogram_next_buckets(h, &cursor, NULL, 1, NULL);
}
static picollo_status next_buckets_null_out_max(void)
{
    size_t cursor = 0;
    return picollo_histogram_next_buckets(h, &cursor, NULL, SIZE_MAX, NULL);
}
static picollo_status next_buckets_cap_0(void)
{
    size_t cursor = 0;
    picollo_bucket b[1];
    return picollo_histogram_next_buckets(h, &cursor, b, 0, NULL);
}
static picollo_status next_buckets_cursor_max(void)
{
    size_t cursor = SIZE_MAX, written = 7;
    picollo_bucket b[1];
    picollo_status st = picollo_histogram_next_buckets(h, &cursor, b, 1, &written);
    CHECK(written == 7);
    return st;
}

/* ---- snapshots ---- */

static picollo_status snapshot_new_null_h(void)
{
    picollo_snapshot *s = NULL;
    return picollo_snapshot_new(NULL, &s);
}
static picollo_status snapshot_new_null_out(void) { return picollo_snapshot_new(h, NULL); }
static picollo_status snapshot_update_null_s(void) { return picollo_snapshot_update(NULL, h, 0); }
static picollo_status snapshot_update_null_h(void) { return picollo_snapshot_update(snap, NULL, 0); }
static picollo_status snapshot_update_deltas_2(void) { return picollo_snapshot_update(snap, h, 2); }
static picollo_status snapshot_update_mismatch(void) { return picollo_snapshot_update(snap, coarse, 0); }
static picollo_status snapshot_summary_null_s(void)
{
    picollo_summary s;
    return picollo_snapshot_summary(NULL, &s);
}
static picollo_status snapshot_summary_null_out(void) { return picollo_snapshot_summary(snap, NULL); }
static picollo_status snapshot_percentiles_null_s(void) { return picollo_snapshot_percentiles(NULL, ranks2, 2, out2); }
static picollo_status snapshot_percentiles_null_ranks(void) { return picollo_snapshot_percentiles(snap, NULL, 2, out2); }
static picollo_status snapshot_percentiles_null_out_max(void) { return picollo_snapshot_percentiles(snap, ranks2, SIZE_MAX, NULL); }
static picollo_status snapshot_percentiles_1e300(void)
{
    const double r[1] = {1e300};
    return picollo_snapshot_percentiles(snap, r, 1, out2);
}
static picollo_status snapshot_free_null(void)
{
    picollo_snapshot_free(NULL);
    return PICOLLO_STATUS_OK;
}

/* ---- cumulative copies ---- */

static picollo_status cumulative_new_null_h(void)
{
    picollo_cumulative *c = NULL;
    return picollo_cumulative_new(NULL, &c);
}
static picollo_status cumulative_new_null_out(void) { return picollo_cumulative_new(h, NULL); }
static picollo_status cumulative_free_null(void)
{
    picollo_cumulative_free(NULL);
    return PICOLLO_STATUS_OK;
}
static picollo_status cumulative_percentile_null_c(void)
{
    picollo_percentile p;
    return picollo_cumulative_percentile(NULL, 50.0, &p);
}
static picollo_status cumulative_percentile_null_out(void) { return picollo_cumulative_percentile(cum, 50.0, NULL); }
static picollo_status cumulative_percentile_nan(void)
{
    picollo_percentile p;
    return picollo_cumulative_percentile(cum, NAN, &p);
}
static picollo_status cumulative_percentile_empty(void)
{
    picollo_percentile p;
    return picollo_cumulative_percentile(cum_empty, 50.0, &p);
}
static picollo_status cumulative_percentiles_null_c(void) { return picollo_cumulative_percentiles(NULL, ranks2, 2, out2); }
static picollo_status cumulative_percentiles_null_ranks(void) { return picollo_cumulative_percentiles(cum, NULL, 2, out2); }
static picollo_status cumulative_percentiles_null_out_max(void) { return picollo_cumulative_percentiles(cum, ranks2, SIZE_MAX, NULL); }
static picollo_status cumulative_percentiles_decreasing(void)
{
    const double r[2] = {90.0, 10.0};
    return picollo_cumulative_percentiles(cum, r, 2, out2);
}
static picollo_status cumulative_rank_null_c(void)
{
    double v;
    return picollo_cumulative_rank_of(NULL, 1, &v);
}
static picollo_status cumulative_rank_null_out(void) { return picollo_cumulative_rank_of(cum, 1, NULL); }
static picollo_status cumulative_quantile_null_c(void)
{
    double v;
    return picollo_cumulative_quantile_of(NULL, 1, &v);
}
static picollo_status cumulative_quantile_null_out(void) { return picollo_cumulative_quantile_of(cum, 1, NULL); }
static picollo_status cumulative_quantile_empty(void)
{
    double v;
    return picollo_cumulative_quantile_of(cum_empty, 1, &v);
}
static picollo_status cumulative_between_null_c(void)
{
    uint64_t n;
    return picollo_cumulative_count_between(NULL, 1, 2, &n);
}
static picollo_status cumulative_between_null_out(void) { return picollo_cumulative_count_between(cum, 1, 2, NULL); }
static picollo_status cumulative_between_reversed(void)
{
    uint64_t n;
    return picollo_cumulative_count_between(cum, 10, 9, &n);
}
static picollo_status cumulative_total_null_c(void)
{
    uint64_t n;
    return picollo_cumulative_total_count(NULL, &n);
}
static picollo_status cumulative_total_null_out(void) { return picollo_cumulative_total_count(cum, NULL); }

/* ---- text ---- */

static char text[64];
static size_t needed;

static picollo_status table_null_h(void) { return picollo_histogram_table(NULL, "t", text, sizeof text, NULL); }
static picollo_status table_null_buf(void) { return picollo_histogram_table(h, "t", NULL, 100, NULL); }
static picollo_status table_size_query(void)
{
    needed = 0;
    {
        picollo_status st = picollo_histogram_table(h, "t", NULL, 0, &needed);
        CHECK(needed > 100);
        return st;
    }
}
static picollo_status table_len_1(void)
{
    picollo_status st;
    text[0] = 'x';
    st = picollo_histogram_table(h, "t", text, 1, NULL);
    CHECK(text[0] == '\0');
    return st;
}
static picollo_status table_bad_title(void) { return picollo_histogram_table(h, bad_utf8, text, sizeof text, NULL); }
static picollo_status text_null_h(void) { return picollo_histogram_text(NULL, PICOLLO_TEXT_FORMAT_JSON, NULL, text, sizeof text, NULL); }
static picollo_status text_format_3(void) { return picollo_histogram_text(h, 3, NULL, text, sizeof text, NULL); }
static picollo_status text_format_max(void) { return picollo_histogram_text(h, UINT32_MAX, NULL, text, sizeof text, NULL); }
static picollo_status text_null_buf(void) { return picollo_histogram_text(h, PICOLLO_TEXT_FORMAT_ONE_LINE, "t", NULL, 100, NULL); }
static picollo_status text_bad_title(void) { return picollo_histogram_text(h, PICOLLO_TEXT_FORMAT_ONE_LINE, bad_utf8, text, sizeof text, NULL); }
static picollo_status summary_table_null(void) { return picollo_summary_table(NULL, NULL, text, sizeof text, NULL); }
static picollo_status summary_table_null_buf(void) { return picollo_summary_table(&sum, NULL, NULL, 100, NULL); }
static picollo_status summary_table_bad_title(void) { return picollo_summary_table(&sum, bad_utf8, text, sizeof text, NULL); }
static picollo_status diff_null_a(void) { return picollo_summary_diff(NULL, &sum, NULL, NULL, NULL, text, sizeof text, NULL); }
static picollo_status diff_null_b(void) { return picollo_summary_diff(&sum, NULL, NULL, NULL, NULL, text, sizeof text, NULL); }
static picollo_status diff_bad_name(void) { return picollo_summary_diff(&sum, &sum, NULL, bad_utf8, NULL, text, sizeof text, NULL); }
static picollo_status diff_null_buf(void) { return picollo_summary_diff(&sum, &sum, NULL, NULL, NULL, NULL, 100, NULL); }
static picollo_status line_null(void) { return picollo_summary_line(NULL, "n", text, sizeof text, NULL); }
static picollo_status line_null_buf(void) { return picollo_summary_line(&sum, "n", NULL, 100, NULL); }
static picollo_status line_bad_name(void) { return picollo_summary_line(&sum, bad_utf8, text, sizeof text, NULL); }
static picollo_status json_null(void) { return picollo_summary_json(NULL, text, sizeof text, NULL); }
static picollo_status json_null_buf(void) { return picollo_summary_json(&sum, NULL, 100, NULL); }
/* A garbage summary (NaN, infinities, UINT64_MAX) formats without failing. */
static picollo_status json_garbage(void)
{
    picollo_summary s;
    static char big_text[16384];
    memset(&s, 0xFF, sizeof s);
    s.mean = NAN;
    s.stdev = INFINITY;
    s.precision = -1e300;
    return picollo_summary_json(&s, big_text, sizeof big_text, NULL);
}
static picollo_status pct_format_null(void) { return picollo_percentile_format(NULL, text, sizeof text, NULL); }
static picollo_status pct_format_null_buf(void) { return picollo_percentile_format(&pct, NULL, 100, NULL); }
static picollo_status pct_format_garbage(void)
{
    picollo_percentile p;
    static char big_text[4096];
    memset(&p, 0xFF, sizeof p);
    p.rank = NAN;
    return picollo_percentile_format(&p, big_text, sizeof big_text, NULL);
}

/* ---- HdrHistogram formats: V2, .hgrm, interval logs ---- */

static picollo_log_writer *lw; /* a writer (rows may write into it) */

/* A 32-bit histogram with saturated counts, which V2 cannot hold (freed by the caller). */
static picollo_histogram *saturated(void)
{
    picollo_histogram *s = make_histogram(32, 0.001, 0, UINT64_MAX);
    picollo_histogram_record_n(s, 5, UINT64_MAX);
    return s;
}

static picollo_status encode_null_h(void) { return picollo_histogram_encode_v2(NULL, PICOLLO_V2_FORM_PLAIN, NULL, 0, NULL); }
static picollo_status encode_form_3(void) { return picollo_histogram_encode_v2(h, 3, NULL, 0, NULL); }
static picollo_status encode_form_max(void) { return picollo_histogram_encode_v2(h, UINT32_MAX, NULL, 0, NULL); }
static picollo_status encode_null_buf(void) { return picollo_histogram_encode_v2(h, PICOLLO_V2_FORM_COMPRESSED, NULL, 100, NULL); }
static picollo_status encode_null_buf_max(void) { return picollo_histogram_encode_v2(h, PICOLLO_V2_FORM_PLAIN, NULL, SIZE_MAX, NULL); }
static picollo_status encode_size_query(void)
{
    picollo_status st;
    needed = 0;
    st = picollo_histogram_encode_v2(h, PICOLLO_V2_FORM_PLAIN, NULL, 0, &needed);
    CHECK(needed > 40);
    return st;
}
/* Binary output too small: nothing written. */
static picollo_status encode_plain_short(void)
{
    uint8_t buf[8];
    size_t i;
    picollo_status st;
    memset(buf, 0xA5, sizeof buf);
    st = picollo_histogram_encode_v2(h, PICOLLO_V2_FORM_PLAIN, buf, sizeof buf, NULL);
    for (i = 0; i < sizeof buf; i++) {
        CHECK(buf[i] == 0xA5);
    }
    return st;
}
static picollo_status encode_base64_len_1(void)
{
    uint8_t buf[1] = {'x'};
    picollo_status st = picollo_histogram_encode_v2(h, PICOLLO_V2_FORM_BASE64, buf, 1, NULL);
    CHECK(buf[0] == 0);
    return st;
}
static picollo_status encode_saturated(void)
{
    picollo_histogram *s = saturated();
    picollo_status st = picollo_histogram_encode_v2(s, PICOLLO_V2_FORM_BASE64, NULL, 0, NULL);
    picollo_histogram_free(s);
    return st;
}

static picollo_status level_null_h(void) { return picollo_histogram_encode_v2_level(NULL, PICOLLO_V2_FORM_PLAIN, 1, NULL, 0, NULL); }
static picollo_status level_11(void) { return picollo_histogram_encode_v2_level(h, PICOLLO_V2_FORM_COMPRESSED, 11, NULL, 0, NULL); }
static picollo_status level_max(void) { return picollo_histogram_encode_v2_level(h, PICOLLO_V2_FORM_PLAIN, UINT32_MAX, NULL, 0, NULL); }
static picollo_status level_form_3(void) { return picollo_histogram_encode_v2_level(h, 3, 1, NULL, 0, NULL); }
static picollo_status level_null_buf(void) { return picollo_histogram_encode_v2_level(h, PICOLLO_V2_FORM_COMPRESSED, 9, NULL, 100, NULL); }
static picollo_status level_size_query(void)
{
    picollo_status st;
    needed = 0;
    st = picollo_histogram_encode_v2_level(h, PICOLLO_V2_FORM_COMPRESSED, 0, NULL, 0, &needed);
    CHECK(needed > 40);
    return st;
}
static picollo_status level_saturated(void)
{
    picollo_histogram *s = saturated();
    picollo_status st = picollo_histogram_encode_v2_level(s, PICOLLO_V2_FORM_COMPRESSED, 6, NULL, 0, NULL);
    picollo_histogram_free(s);
    return st;
}

static picollo_status decode_with(const void *data, size_t len)
{
    picollo_histogram *out = NULL;
    picollo_status st = picollo_histogram_decode_v2(data, len, &out);
    CHECK((st == PICOLLO_STATUS_OK) == (out != NULL));
    picollo_histogram_free(out);
    return st;
}
static const uint8_t v1_cookie[8] = {0x1c, 0x84, 0x93, 0x09, 0, 0, 0, 0};
static const uint8_t plain_header_only[8] = {0x1c, 0x84, 0x93, 0x13, 0, 0, 0, 0};
static picollo_status decode_null_data(void) { return decode_with(NULL, 1); }
static picollo_status decode_null_data_max(void) { return decode_with(NULL, SIZE_MAX); }
static picollo_status decode_huge_len(void) { return decode_with("HISTFAAA", SIZE_MAX); }
static picollo_status decode_null_out(void) { return picollo_histogram_decode_v2((const uint8_t *)"HISTFAAA", 8, NULL); }
static picollo_status decode_empty(void) { return decode_with(NULL, 0); }
static picollo_status decode_garbage(void) { return decode_with("\xff\xfe not base64", 13); }
static picollo_status decode_v1(void) { return decode_with(v1_cookie, sizeof v1_cookie); }
static picollo_status decode_truncated(void) { return decode_with(plain_header_only, sizeof plain_header_only); }
static picollo_status decode_round_trip(void)
{
    uint8_t buf[4096];
    size_t n = 0;
    CHECK(picollo_histogram_encode_v2(h, PICOLLO_V2_FORM_COMPRESSED, buf, sizeof buf, &n) == PICOLLO_STATUS_OK);
    return decode_with(buf, n);
}

static picollo_status add_v2_null_h(void) { return picollo_histogram_add_v2(NULL, v1_cookie, sizeof v1_cookie); }
static picollo_status add_v2_null_data(void) { return picollo_histogram_add_v2(empty, NULL, 1); }
static picollo_status add_v2_huge_len(void) { return picollo_histogram_add_v2(empty, v1_cookie, SIZE_MAX); }
/* Refused whole: `h` is unchanged (main checks it after the table). */
static picollo_status add_v2_garbage(void) { return picollo_histogram_add_v2(h, (const uint8_t *)"HIST????", 8); }
static picollo_status add_v2_truncated(void) { return picollo_histogram_add_v2(h, plain_header_only, sizeof plain_header_only); }
static picollo_status add_v2_empty(void) { return picollo_histogram_add_v2(h, NULL, 0); }
static picollo_status add_v2_other_layout(void)
{
    uint8_t buf[4096];
    size_t n = 0;
    picollo_histogram *s = make_histogram(32, 0.05, 10, 20);
    picollo_status st;
    CHECK(picollo_histogram_encode_v2(h, PICOLLO_V2_FORM_PLAIN, buf, sizeof buf, &n) == PICOLLO_STATUS_OK);
    st = picollo_histogram_add_v2(s, buf, n);
    CHECK(info_of(s).underflow == 3 && info_of(s).overflow == 1);
    picollo_histogram_free(s);
    return st;
}

static picollo_status hgrm_with(uint32_t ticks, double ratio)
{
    return picollo_histogram_hgrm(h, ticks, ratio, 0, text, sizeof text, NULL);
}
static picollo_status hgrm_null_h(void) { return picollo_histogram_hgrm(NULL, 5, 1.0, 0, text, sizeof text, NULL); }
static picollo_status hgrm_null_buf(void) { return picollo_histogram_hgrm(h, 5, 1.0, 0, NULL, 100, NULL); }
static picollo_status hgrm_ticks_0(void) { return hgrm_with(0, 1.0); }
/* HdrHistogram would write billions of rows: refused. */
static picollo_status hgrm_ticks_max(void) { return hgrm_with(UINT32_MAX, 1.0); }
static picollo_status hgrm_ratio_0(void) { return hgrm_with(5, 0.0); }
static picollo_status hgrm_ratio_nan(void) { return hgrm_with(5, NAN); }
static picollo_status hgrm_ratio_inf(void) { return hgrm_with(5, INFINITY); }
static picollo_status hgrm_ratio_minus_1e300(void) { return hgrm_with(5, -1e300); }
static picollo_status hgrm_ratio_tiny(void) { return hgrm_with(5, 5e-324); }
static picollo_status hgrm_csv_max(void) { return picollo_histogram_hgrm(h, 5, 1.0, UINT32_MAX, text, sizeof text, NULL); }

/* ---- formats by name ---- */

static picollo_status fmt_with(const char *name, const picollo_label *o, size_t n)
{
    return picollo_histogram_format(h, name, o, n, (uint8_t *)text, sizeof text, NULL);
}
static picollo_status fmt_null_h(void) { return picollo_histogram_format(NULL, "csv", NULL, 0, NULL, 0, NULL); }
static picollo_status fmt_null_name(void) { return fmt_with(NULL, NULL, 0); }
static picollo_status fmt_bad_name(void) { return fmt_with(bad_utf8, NULL, 0); }
static picollo_status fmt_unknown(void) { return fmt_with("yaml", NULL, 0); }
static picollo_status fmt_null_options(void) { return fmt_with("csv", NULL, 1); }
static picollo_status fmt_null_option_name(void)
{
    picollo_label o = {NULL, "x"};
    return fmt_with("table", &o, 1);
}
static picollo_status fmt_foreign_option(void)
{
    picollo_label o = {"title", "x"};
    return fmt_with("csv", &o, 1);
}
static picollo_status fmt_twice(void)
{
    picollo_label o[2] = {{"title", "a"}, {"title", "b"}};
    return fmt_with("table", o, 2);
}
static picollo_status fmt_bad_value(void)
{
    picollo_label o = {"ticks_per_half_distance", "many"};
    return fmt_with("hgrm", &o, 1);
}
static picollo_status fmt_null_buf(void) { return picollo_histogram_format(h, "csv", NULL, 0, NULL, 100, NULL); }
static picollo_status fmt_size_query(void) { return picollo_histogram_format(h, "csv", NULL, 0, NULL, 0, NULL); }
static picollo_status ffmt_null_h(void) { return picollo_float_histogram_format(NULL, "csv", NULL, 0, NULL, 0, NULL); }
static picollo_status ffmt_no_float_form(void)
{
    return picollo_float_histogram_format(fh, "hgrm", NULL, 0, (uint8_t *)text, sizeof text, NULL);
}
static picollo_status ffmt_small(void)
{
    return picollo_float_histogram_format(fh, "csv", NULL, 0, (uint8_t *)text, sizeof text, NULL);
}
static picollo_status fnames_small(void) { return picollo_format_names(text, 3, NULL); }
static picollo_status fnames_null_buf(void) { return picollo_format_names(NULL, 10, NULL); }
static picollo_status fbinary_null_name(void)
{
    uint32_t b;
    return picollo_format_binary(NULL, &b);
}
static picollo_status fbinary_null_out(void) { return picollo_format_binary("csv", NULL); }
static picollo_status fbinary_unknown(void)
{
    uint32_t b;
    return picollo_format_binary("yaml", &b);
}

static picollo_status lw_new_null_out(void) { return picollo_log_writer_new(NULL); }
static picollo_status lw_new_free(void)
{
    picollo_log_writer *w = NULL;
    picollo_status st = picollo_log_writer_new(&w);
    CHECK(w != NULL);
    picollo_log_writer_free(w);
    return st;
}
static picollo_status lw_free_null(void)
{
    picollo_log_writer_free(NULL);
    return PICOLLO_STATUS_OK;
}
static picollo_status lw_header_null(void) { return picollo_log_writer_header(NULL, NAN, NAN); }
static picollo_status lw_header_minus_1e300(void) { return picollo_log_writer_header(lw, -1e300, NAN); }
static picollo_status lw_header_inf(void) { return picollo_log_writer_header(lw, NAN, INFINITY); }
static picollo_status lw_header_none(void) { return picollo_log_writer_header(lw, NAN, NAN); }
static picollo_status lw_comment_null(void) { return picollo_log_writer_comment(NULL, "c"); }
static picollo_status lw_comment_null_text(void) { return picollo_log_writer_comment(lw, NULL); }
static picollo_status lw_comment_bad_utf8(void) { return picollo_log_writer_comment(lw, bad_utf8); }
static picollo_status lw_ratio_null(void) { return picollo_log_writer_set_max_unit_ratio(NULL, 1.0); }
static picollo_status lw_ratio_0(void) { return picollo_log_writer_set_max_unit_ratio(lw, 0.0); }
static picollo_status lw_ratio_nan(void) { return picollo_log_writer_set_max_unit_ratio(lw, NAN); }
static picollo_status lw_ratio_minus_1e300(void) { return picollo_log_writer_set_max_unit_ratio(lw, -1e300); }
static picollo_status lw_ratio_1e300(void) { return picollo_log_writer_set_max_unit_ratio(lw, 1e300); }
static picollo_status lw_interval_null(void) { return picollo_log_writer_interval(NULL, h, NULL, 0.0, 1.0); }
static picollo_status lw_interval_null_h(void) { return picollo_log_writer_interval(lw, NULL, NULL, 0.0, 1.0); }
static picollo_status lw_interval_comma_tag(void) { return picollo_log_writer_interval(lw, h, "a,b", 0.0, 1.0); }
static picollo_status lw_interval_bad_utf8_tag(void) { return picollo_log_writer_interval(lw, h, bad_utf8, 0.0, 1.0); }
static picollo_status lw_interval_start_nan(void) { return picollo_log_writer_interval(lw, h, NULL, NAN, 1.0); }
static picollo_status lw_interval_start_minus_1e300(void) { return picollo_log_writer_interval(lw, h, NULL, -1e300, 1.0); }
static picollo_status lw_interval_length_inf(void) { return picollo_log_writer_interval(lw, h, NULL, 0.0, INFINITY); }
static picollo_status lw_interval_saturated(void)
{
    picollo_histogram *s = saturated();
    picollo_status st = picollo_log_writer_interval(lw, s, "t", 0.0, 1.0);
    picollo_histogram_free(s);
    return st;
}
static picollo_status lw_interval_shared(void) { return picollo_log_writer_interval(lw, shared, "", 0.0, 0.0); }
static picollo_status lw_take_null(void) { return picollo_log_writer_take(NULL, text, sizeof text, NULL); }
static picollo_status lw_take_null_buf(void) { return picollo_log_writer_take(lw, NULL, 100, NULL); }
static picollo_status lw_take_size_query(void)
{
    picollo_status st;
    needed = 0;
    st = picollo_log_writer_take(lw, NULL, 0, &needed);
    CHECK(needed > 0);
    return st;
}
static picollo_status lw_take_len_1(void)
{
    picollo_status st;
    size_t before = 0, after = 0;
    (void)picollo_log_writer_take(lw, NULL, 0, &before);
    (void)picollo_log_writer_take(lw, text, 1, NULL);
    /* Nothing was taken. */
    (void)picollo_log_writer_take(lw, NULL, 0, &after);
    CHECK(before > 0 && after == before);
    text[0] = 'x';
    st = picollo_log_writer_take(lw, text, 1, NULL);
    CHECK(text[0] == '\0');
    return st;
}

static const char bad_log[] = "#[StartTime: 100.0]\nTag=a b,1,2,3,HISTFAAA\n";

static picollo_status lr_new_with(const char *t, size_t len)
{
    picollo_log_reader *r = NULL;
    picollo_status st = picollo_log_reader_new(t, len, &r);
    CHECK((st == PICOLLO_STATUS_OK) == (r != NULL));
    picollo_log_reader_free(r);
    return st;
}
static picollo_status lr_new_null_out(void) { return picollo_log_reader_new(bad_log, sizeof bad_log - 1, NULL); }
static picollo_status lr_new_null_text(void) { return lr_new_with(NULL, 1); }
static picollo_status lr_new_null_text_max(void) { return lr_new_with(NULL, SIZE_MAX); }
static picollo_status lr_new_huge_len(void) { return lr_new_with(bad_log, SIZE_MAX); }
static picollo_status lr_new_empty(void) { return lr_new_with(NULL, 0); }
static picollo_status lr_new_garbage(void) { return lr_new_with("\xff\x00\xfe", 3); }
static picollo_status lr_free_null(void)
{
    picollo_log_reader_free(NULL);
    return PICOLLO_STATUS_OK;
}
/* picollo_log_reader_next on a fresh reader over `t` with `info.struct_size` = `size`. */
static picollo_status lr_next_with(const char *t, uint32_t size, int with_info)
{
    picollo_log_reader *r = NULL;
    picollo_log_interval info;
    picollo_histogram *out = NULL;
    picollo_status st;
    memset(&info, 0xAB, sizeof info);
    info.struct_size = size;
    CHECK(picollo_log_reader_new(t, strlen(t), &r) == PICOLLO_STATUS_OK);
    st = picollo_log_reader_next(r, with_info ? &info : NULL, &out);
    CHECK((st == PICOLLO_STATUS_OK) == (out != NULL));
    if (st != PICOLLO_STATUS_OK) {
        CHECK(info.line == UINT64_C(0xABABABABABABABAB));
    }
    picollo_histogram_free(out);
    picollo_log_reader_free(r);
    return st;
}
static picollo_status lr_next_null(void)
{
    picollo_log_interval info;
    info.struct_size = sizeof info;
    return picollo_log_reader_next(NULL, &info, NULL);
}
static picollo_status lr_next_null_info(void) { return lr_next_with(bad_log, sizeof(picollo_log_interval), 0); }
static picollo_status lr_next_size_0(void) { return lr_next_with(bad_log, 0, 1); }
static picollo_status lr_next_size_short(void) { return lr_next_with(bad_log, sizeof(picollo_log_interval) - 1, 1); }
static picollo_status lr_next_bad_line(void) { return lr_next_with(bad_log, sizeof(picollo_log_interval), 1); }
static picollo_status lr_next_end(void) { return lr_next_with("#only a comment\n", sizeof(picollo_log_interval), 1); }
static picollo_status lr_tag_null(void) { return picollo_log_reader_tag(NULL, text, sizeof text, NULL); }
static picollo_status lr_tag_with(char *buf, size_t len)
{
    picollo_log_reader *r = NULL;
    picollo_status st;
    CHECK(picollo_log_reader_new(NULL, 0, &r) == PICOLLO_STATUS_OK);
    st = picollo_log_reader_tag(r, buf, len, NULL);
    picollo_log_reader_free(r);
    return st;
}
static picollo_status lr_tag_null_buf(void) { return lr_tag_with(NULL, 100); }
static picollo_status lr_tag_size_query(void) { return lr_tag_with(NULL, 0); }
static picollo_status lr_times_null(void)
{
    double t;
    return picollo_log_reader_times(NULL, &t, &t);
}
static picollo_status lr_times_null_outputs(void)
{
    picollo_log_reader *r = NULL;
    picollo_status st;
    double start = 0.0;
    CHECK(picollo_log_reader_new(bad_log, sizeof bad_log - 1, &r) == PICOLLO_STATUS_OK);
    st = picollo_log_reader_times(r, NULL, NULL);
    CHECK(picollo_log_reader_times(r, &start, NULL) == PICOLLO_STATUS_OK && start == 100.0);
    picollo_log_reader_free(r);
    return st;
}

static picollo_status sum_with(const char *t, size_t len, const char *tag, double from, double to)
{
    picollo_histogram *out = NULL;
    picollo_status st = picollo_log_sum(t, len, tag, from, to, &out);
    CHECK((st == PICOLLO_STATUS_OK) == (out != NULL));
    picollo_histogram_free(out);
    return st;
}
static picollo_status sum_null_out(void) { return picollo_log_sum(NULL, 0, NULL, NAN, NAN, NULL); }
static picollo_status sum_null_text(void) { return sum_with(NULL, 1, NULL, NAN, NAN); }
static picollo_status sum_null_text_max(void) { return sum_with(NULL, SIZE_MAX, NULL, NAN, NAN); }
static picollo_status sum_huge_len(void) { return sum_with(bad_log, SIZE_MAX, NULL, NAN, NAN); }
static picollo_status sum_bad_utf8_tag(void) { return sum_with(bad_log, sizeof bad_log - 1, bad_utf8, NAN, NAN); }
static picollo_status sum_bad_line(void) { return sum_with(bad_log, sizeof bad_log - 1, "a", NAN, NAN); }
static picollo_status sum_empty(void) { return sum_with(NULL, 0, NULL, NAN, NAN); }
static picollo_status sum_window_1e300(void) { return sum_with("#c\n", 3, "t", 1e300, -1e300); }

/* ---- metrics: collect, OpenMetrics, Prometheus buckets, OTLP ---- */

static picollo_openmetrics_writer *ow; /* a writer with a family started (rows may write) */
static const picollo_label one_label[] = {{"db", "users"}};

static picollo_openmetrics_options om(void) { return picollo_openmetrics_options_default(); }

/* A histogram of a few values, freed by the caller (rows that drain one use their own). */
static picollo_histogram *few(void)
{
    picollo_histogram *f = make_histogram(64, 0.001, 0, UINT64_MAX);
    picollo_histogram_record(f, 5);
    picollo_histogram_record(f, 500);
    return f;
}

static picollo_status collect_null_h(void)
{
    picollo_histogram *out = NULL;
    picollo_status st = picollo_histogram_collect(NULL, &out);
    CHECK(out == NULL);
    return st;
}
static picollo_status collect_null_out(void) { return picollo_histogram_collect(h, NULL); }
static picollo_status collect_empty(void)
{
    picollo_histogram *f = make_histogram(64, 0.001, 0, UINT64_MAX), *out = NULL;
    picollo_status st = picollo_histogram_collect(f, &out);
    CHECK(out != NULL && info_of(out).total == 0);
    picollo_histogram_free(out);
    picollo_histogram_free(f);
    return st;
}
static picollo_status collect_drains(void)
{
    picollo_histogram *f = few(), *out = NULL;
    picollo_status st = picollo_histogram_collect(f, &out);
    CHECK(out != NULL && info_of(out).total == 2 && info_of(f).total == 0);
    picollo_histogram_free(out);
    picollo_histogram_free(f);
    return st;
}
static picollo_status snapshot_collect_null_s(void) { return picollo_snapshot_collect(NULL, h); }
static picollo_status snapshot_collect_null_h(void) { return picollo_snapshot_collect(snap, NULL); }
static picollo_status snapshot_collect_mismatch(void) { return picollo_snapshot_collect(snap, coarse); }
static picollo_status snapshot_collect_shared(void)
{
    picollo_snapshot *s = NULL;
    picollo_status st;
    CHECK(picollo_snapshot_new(shared, &s) == PICOLLO_STATUS_OK);
    picollo_histogram_record(shared, 9);
    st = picollo_snapshot_collect(s, shared);
    CHECK(info_of(shared).total == 0);
    picollo_snapshot_free(s);
    return st;
}

static picollo_status om_default(void)
{
    picollo_openmetrics_options o = picollo_openmetrics_options_default();
    CHECK(o.struct_size == sizeof o && o.coarse_relative_error == 0.05 && o.unit_ratio == 1.0);
    return PICOLLO_STATUS_OK;
}

/* picollo_histogram_openmetrics of `h` named "m" with these labels and options. */
static picollo_status om_call(const picollo_label *labels, size_t n, picollo_openmetrics_options o)
{
    return picollo_histogram_openmetrics(h, "m", NULL, NULL, labels, n, &o, text, sizeof text, NULL);
}
/* om_call(NULL, 0, ...) on om() after `change`. */
#define OM_CASE(name, change) \
    CONFIG_CASE(name, picollo_openmetrics_options, om(), change, om_call(NULL, 0, c))
static picollo_status om_null_h(void)
{
    picollo_openmetrics_options o = om();
    return picollo_histogram_openmetrics(NULL, "m", NULL, NULL, NULL, 0, &o, text, sizeof text, NULL);
}
static picollo_status om_null_name(void)
{
    picollo_openmetrics_options o = om();
    return picollo_histogram_openmetrics(h, NULL, NULL, NULL, NULL, 0, &o, text, sizeof text, NULL);
}
static picollo_status om_null_opts(void)
{
    return picollo_histogram_openmetrics(h, "m", NULL, NULL, NULL, 0, NULL, text, sizeof text, NULL);
}
static picollo_status om_bad_name(void)
{
    picollo_openmetrics_options o = om();
    return picollo_histogram_openmetrics(h, "1m", NULL, NULL, NULL, 0, &o, text, sizeof text, NULL);
}
static picollo_status om_suffix_name(void)
{
    picollo_openmetrics_options o = om();
    return picollo_histogram_openmetrics(h, "m_bucket", NULL, NULL, NULL, 0, &o, text, sizeof text, NULL);
}
static picollo_status om_unit_not_suffix(void)
{
    picollo_openmetrics_options o = om();
    return picollo_histogram_openmetrics(h, "m", NULL, "seconds", NULL, 0, &o, text, sizeof text, NULL);
}
static picollo_status om_bad_utf8_help(void)
{
    picollo_openmetrics_options o = om();
    return picollo_histogram_openmetrics(h, "m", bad_utf8, NULL, NULL, 0, &o, text, sizeof text, NULL);
}
static picollo_status om_null_labels(void) { return om_call(NULL, 1, om()); }
static picollo_status om_labels_max(void) { return om_call(one_label, SIZE_MAX, om()); }
static picollo_status om_null_label_name(void)
{
    const picollo_label l[] = {{"a", "1"}, {NULL, "2"}};
    return om_call(l, 2, om());
}
static picollo_status om_label_le(void)
{
    const picollo_label l[] = {{"le", "1"}};
    return om_call(l, 1, om());
}
static picollo_status om_label_twice(void)
{
    const picollo_label l[] = {{"a", "1"}, {"a", "2"}};
    return om_call(l, 2, om());
}
static picollo_status om_label_bad_utf8(void)
{
    const picollo_label l[] = {{"a", bad_utf8}};
    return om_call(l, 1, om());
}
OM_CASE(om_size_0, c.struct_size = 0)
OM_CASE(om_size_max, c.struct_size = UINT32_MAX)
OM_CASE(om_summary_2, c.summary = 2)
OM_CASE(om_ratio_nan, c.unit_ratio = NAN)
OM_CASE(om_ratio_minus_1e300, c.unit_ratio = -1e300)
OM_CASE(om_coarse_0, c.coarse_relative_error = 0.0)
OM_CASE(om_coarse_inf, c.coarse_relative_error = INFINITY)
OM_CASE(om_null_bounds, c.bound_count = 3)
static picollo_status om_bounds_max(void)
{
    static const uint64_t b[] = {1, 2};
    picollo_openmetrics_options o = om();
    o.bounds = b;
    o.bound_count = SIZE_MAX;
    return om_call(NULL, 0, o);
}
static picollo_status om_bounds_repeat(void)
{
    static const uint64_t b[] = {1, UINT64_MAX, UINT64_MAX};
    picollo_openmetrics_options o = om();
    o.bounds = b;
    o.bound_count = 3;
    return om_call(NULL, 0, o);
}
static picollo_status om_bounds_extremes(void)
{
    static const uint64_t b[] = {0, UINT64_MAX};
    picollo_openmetrics_options o = om();
    o.bounds = b;
    o.bound_count = 2;
    o.created_unix_nanos = UINT64_MAX;
    o.unit_ratio = 1e300;
    return picollo_histogram_openmetrics(h, "m", NULL, NULL, NULL, 0, &o, NULL, 0, NULL);
}
static picollo_status om_null_buf(void)
{
    picollo_openmetrics_options o = om();
    return picollo_histogram_openmetrics(h, "m", NULL, NULL, NULL, 0, &o, NULL, 100, NULL);
}
static picollo_status om_size_query(void)
{
    picollo_openmetrics_options o = om();
    needed = 0;
    {
        picollo_status st = picollo_histogram_openmetrics(h, "m", NULL, NULL, NULL, 0, &o, NULL, 0, &needed);
        CHECK(needed > 0);
        return st;
    }
}

static picollo_status ow_new_null_out(void) { return picollo_openmetrics_writer_new(NULL); }
static picollo_status ow_new_free(void)
{
    picollo_openmetrics_writer *w = NULL;
    picollo_status st = picollo_openmetrics_writer_new(&w);
    CHECK(w != NULL);
    picollo_openmetrics_writer_free(w);
    return st;
}
static picollo_status ow_free_null(void)
{
    picollo_openmetrics_writer_free(NULL);
    return PICOLLO_STATUS_OK;
}
static picollo_status ow_family_null(void)
{
    picollo_openmetrics_options o = om();
    return picollo_openmetrics_writer_family(NULL, "f", NULL, NULL, &o);
}
static picollo_status ow_family_null_name(void)
{
    picollo_openmetrics_options o = om();
    return picollo_openmetrics_writer_family(ow, NULL, NULL, NULL, &o);
}
static picollo_status ow_family_null_opts(void)
{
    return picollo_openmetrics_writer_family(ow, "f", NULL, NULL, NULL);
}
static picollo_status ow_family_size_0(void)
{
    picollo_openmetrics_options o = om();
    o.struct_size = 0;
    return picollo_openmetrics_writer_family(ow, "f", NULL, NULL, &o);
}
static picollo_status ow_family_bad_name(void)
{
    picollo_openmetrics_options o = om();
    return picollo_openmetrics_writer_family(ow, "a-b", NULL, NULL, &o);
}
static picollo_status ow_family_bad_unit(void)
{
    picollo_openmetrics_options o = om();
    return picollo_openmetrics_writer_family(ow, "f_m", NULL, "m.s", &o);
}
static picollo_status ow_family_bad_utf8_unit(void)
{
    picollo_openmetrics_options o = om();
    return picollo_openmetrics_writer_family(ow, "f", NULL, bad_utf8, &o);
}
static picollo_status ow_family_twice(void)
{
    /* The fixture's family is named "fixture". */
    picollo_openmetrics_options o = om();
    return picollo_openmetrics_writer_family(ow, "fixture", NULL, NULL, &o);
}
static picollo_status ow_point_null(void) { return picollo_openmetrics_writer_point(NULL, h, NULL, 0); }
static picollo_status ow_point_null_h(void) { return picollo_openmetrics_writer_point(ow, NULL, NULL, 0); }
static picollo_status ow_point_null_labels(void) { return picollo_openmetrics_writer_point(ow, h, NULL, 2); }
static picollo_status ow_point_labels_max(void)
{
    return picollo_openmetrics_writer_point(ow, h, one_label, SIZE_MAX);
}
static picollo_status ow_point_reserved_label(void)
{
    const picollo_label l[] = {{"__name__", "x"}};
    return picollo_openmetrics_writer_point(ow, h, l, 1);
}
static picollo_status ow_point_mismatch(void) { return picollo_openmetrics_writer_point(ow, coarse, NULL, 0); }
static picollo_status ow_point_shared(void) { return picollo_openmetrics_writer_point(ow, shared, one_label, 1); }
static picollo_status ow_point_no_family(void)
{
    picollo_openmetrics_writer *w = NULL;
    picollo_status st;
    CHECK(picollo_openmetrics_writer_new(&w) == PICOLLO_STATUS_OK);
    st = picollo_openmetrics_writer_point(w, h, NULL, 0);
    picollo_openmetrics_writer_free(w);
    return st;
}
static picollo_status ow_finish_null(void) { return picollo_openmetrics_writer_finish(NULL); }
static picollo_status ow_finish_twice(void)
{
    picollo_openmetrics_writer *w = NULL;
    picollo_openmetrics_options o = om();
    picollo_status st;
    CHECK(picollo_openmetrics_writer_new(&w) == PICOLLO_STATUS_OK);
    CHECK(picollo_openmetrics_writer_finish(w) == PICOLLO_STATUS_OK);
    CHECK(picollo_openmetrics_writer_family(w, "f", NULL, NULL, &o) == PICOLLO_STATUS_INVALID_ARGUMENT);
    CHECK(picollo_openmetrics_writer_point(w, h, NULL, 0) == PICOLLO_STATUS_INVALID_ARGUMENT);
    st = picollo_openmetrics_writer_finish(w);
    picollo_openmetrics_writer_free(w);
    return st;
}
static picollo_status ow_take_null(void) { return picollo_openmetrics_writer_take(NULL, text, sizeof text, NULL); }
static picollo_status ow_take_null_buf(void) { return picollo_openmetrics_writer_take(ow, NULL, 100, NULL); }
static picollo_status ow_take_size_query(void)
{
    picollo_status st;
    needed = 0;
    st = picollo_openmetrics_writer_take(ow, NULL, 0, &needed);
    CHECK(needed > 0);
    return st;
}

static picollo_status pb_call(picollo_openmetrics_options o, double *le, uint64_t *cum, size_t cap)
{
    size_t count = 0;
    double s = -1.0;
    picollo_status st = picollo_histogram_prometheus_buckets(h, &o, le, cum, cap, &count, &s);
    if (st != PICOLLO_STATUS_OK) {
        CHECK(s == -1.0);
    }
    return st;
}
static picollo_status pb_null_h(void)
{
    picollo_openmetrics_options o = om();
    size_t count = 0;
    return picollo_histogram_prometheus_buckets(NULL, &o, NULL, NULL, 0, &count, NULL);
}
static picollo_status pb_null_opts(void)
{
    size_t count = 0;
    return picollo_histogram_prometheus_buckets(h, NULL, NULL, NULL, 0, &count, NULL);
}
static picollo_status pb_null_count(void)
{
    picollo_openmetrics_options o = om();
    return picollo_histogram_prometheus_buckets(h, &o, NULL, NULL, 0, NULL, NULL);
}
static picollo_status pb_null_le(void)
{
    uint64_t cum[4];
    return pb_call(om(), NULL, cum, 4);
}
static picollo_status pb_null_cumulative(void)
{
    double le[4];
    return pb_call(om(), le, NULL, 4);
}
static picollo_status pb_null_arrays_max(void) { return pb_call(om(), NULL, NULL, SIZE_MAX); }
static picollo_status pb_size_query(void)
{
    size_t count = 0;
    picollo_openmetrics_options o = om();
    picollo_status st = picollo_histogram_prometheus_buckets(h, &o, NULL, NULL, 0, &count, NULL);
    CHECK(count >= 2);
    return st;
}
static picollo_status pb_capacity_1(void)
{
    double le[1] = {-1.0};
    uint64_t cum[1] = {7};
    picollo_status st = pb_call(om(), le, cum, 1);
    CHECK(le[0] == -1.0 && cum[0] == 7);
    return st;
}
static picollo_status pb_summary(void)
{
    picollo_openmetrics_options o = om();
    o.summary = 1;
    return pb_call(o, NULL, NULL, 0);
}
static picollo_status pb_ratio_0(void)
{
    picollo_openmetrics_options o = om();
    o.unit_ratio = 0.0;
    return pb_call(o, NULL, NULL, 0);
}
static picollo_status pb_size_small(void)
{
    picollo_openmetrics_options o = om();
    o.struct_size = 4;
    return pb_call(o, NULL, NULL, 0);
}

static picollo_otlp_options otlp(void)
{
    picollo_otlp_options o = picollo_otlp_options_default();
    o.name = "m";
    return o;
}
static picollo_status otlp_default(void)
{
    picollo_otlp_options o = picollo_otlp_options_default();
    CHECK(o.struct_size == sizeof o && o.scale == PICOLLO_OTLP_SCALE_AUTO && o.temporality == 2);
    return PICOLLO_STATUS_OK;
}
static picollo_status otlp_call(picollo_otlp_options o, uint32_t format)
{
    return picollo_histogram_otlp(h, &o, format, (uint8_t *)text, sizeof text, NULL);
}
/* otlp_call(..., 0) on otlp() after `change`. */
#define OTLP_CASE(name, change) \
    CONFIG_CASE(name, picollo_otlp_options, otlp(), change, otlp_call(c, 0))
static picollo_status otlp_null_h(void)
{
    picollo_otlp_options o = otlp();
    return picollo_histogram_otlp(NULL, &o, 0, NULL, 0, NULL);
}
static picollo_status otlp_null_o(void) { return picollo_histogram_otlp(h, NULL, 0, NULL, 0, NULL); }
OTLP_CASE(otlp_null_name, c.name = NULL)
static picollo_status otlp_empty_name(void)
{
    picollo_otlp_options o = otlp();
    o.name = "";
    return otlp_call(o, 1);
}
static picollo_status otlp_bad_utf8_scope(void)
{
    picollo_otlp_options o = otlp();
    o.scope_version = bad_utf8;
    return otlp_call(o, 1);
}
static picollo_status otlp_format_2(void) { return otlp_call(otlp(), 2); }
static picollo_status otlp_format_max(void) { return otlp_call(otlp(), UINT32_MAX); }
OTLP_CASE(otlp_temporality_0, c.temporality = 0)
OTLP_CASE(otlp_scale_max, c.scale = INT32_MAX)
OTLP_CASE(otlp_scale_minus_11, c.scale = -11)
OTLP_CASE(otlp_ratio_inf, c.unit_ratio = INFINITY)
OTLP_CASE(otlp_reserved, c.reserved = 1)
OTLP_CASE(otlp_size_0, c.struct_size = 0)
OTLP_CASE(otlp_null_attributes, c.attribute_count = 1)
static picollo_status otlp_resource_twice(void)
{
    const picollo_label r[] = {{"service.name", "a"}, {"service.name", "b"}};
    picollo_otlp_options o = otlp();
    o.resource = r;
    o.resource_count = 2;
    return otlp_call(o, 0);
}
OTLP_CASE(otlp_start_after_time, c.start_time_unix_nano = UINT64_MAX; c.time_unix_nano = 1)
static picollo_status otlp_times_max(void)
{
    picollo_otlp_options o = otlp();
    o.start_time_unix_nano = UINT64_MAX;
    o.time_unix_nano = UINT64_MAX;
    o.unit_ratio = 1e-300;
    return picollo_histogram_otlp(h, &o, 1, NULL, 0, NULL);
}
static picollo_status otlp_null_buf(void)
{
    picollo_otlp_options o = otlp();
    return picollo_histogram_otlp(h, &o, 0, NULL, 10, NULL);
}
static picollo_status otlp_null_buf_json(void)
{
    picollo_otlp_options o = otlp();
    return picollo_histogram_otlp(h, &o, 1, NULL, SIZE_MAX, NULL);
}
static picollo_status otlp_protobuf_short(void)
{
    uint8_t b[8];
    picollo_otlp_options o = otlp();
    picollo_status st;
    memset(b, 0xA5, sizeof b);
    st = picollo_histogram_otlp(h, &o, 0, b, sizeof b, NULL);
    CHECK(b[0] == 0xA5 && b[7] == 0xA5);
    return st;
}

/* ---- Prometheus native histograms ---- */

static picollo_prometheus_native_options native(void)
{
    picollo_prometheus_native_options o = picollo_prometheus_native_options_default();
    o.name = "rpc_latency_seconds";
    return o;
}
static picollo_status native_default(void)
{
    picollo_prometheus_native_options o = picollo_prometheus_native_options_default();
    return o.struct_size == sizeof o && o.schema == PICOLLO_PROMETHEUS_SCHEMA_AUTO
               ? PICOLLO_STATUS_OK
               : PICOLLO_STATUS_PANIC;
}
static picollo_status native_call(picollo_prometheus_native_options o)
{
    return picollo_histogram_prometheus_native(h, &o, (uint8_t *)text, sizeof text, NULL);
}
/* native_call on native() after `change`. */
#define NATIVE_CASE(name, change) \
    CONFIG_CASE(name, picollo_prometheus_native_options, native(), change, native_call(c))
static picollo_status native_float_call(picollo_prometheus_native_options o)
{
    return picollo_float_histogram_prometheus_native(fh, &o, (uint8_t *)text, sizeof text, NULL);
}
static picollo_status native_null_h(void)
{
    picollo_prometheus_native_options o = native();
    return picollo_histogram_prometheus_native(NULL, &o, NULL, 0, NULL);
}
static picollo_status native_null_o(void)
{
    return picollo_histogram_prometheus_native(h, NULL, NULL, 0, NULL);
}
NATIVE_CASE(native_null_name, c.name = NULL)
NATIVE_CASE(native_bad_name, c.name = "9lives")
NATIVE_CASE(native_bad_utf8_help, c.help = "\xff")
NATIVE_CASE(native_schema_9, c.schema = 9)
NATIVE_CASE(native_schema_max, c.schema = INT32_MAX)
NATIVE_CASE(native_ratio_nan, c.unit_ratio = NAN)
NATIVE_CASE(native_classic_1, c.classic_coarse_relative_error = 1.0)
NATIVE_CASE(native_size_0, c.struct_size = 0)
NATIVE_CASE(native_null_labels, c.label_count = 1)
static picollo_status native_label_le(void)
{
    const picollo_label l[] = {{"le", "1"}};
    picollo_prometheus_native_options o = native();
    o.labels = l;
    o.label_count = 1;
    return native_call(o);
}
static picollo_status native_label_twice(void)
{
    const picollo_label l[] = {{"a", "1"}, {"a", "2"}};
    picollo_prometheus_native_options o = native();
    o.labels = l;
    o.label_count = 2;
    return native_call(o);
}
static picollo_status native_null_label_value(void)
{
    const picollo_label l[] = {{"a", NULL}};
    picollo_prometheus_native_options o = native();
    o.labels = l;
    o.label_count = 1;
    return native_call(o);
}
static picollo_status native_null_buf(void)
{
    picollo_prometheus_native_options o = native();
    return picollo_histogram_prometheus_native(h, &o, NULL, SIZE_MAX, NULL);
}
static picollo_status native_short(void)
{
    uint8_t b[8];
    picollo_prometheus_native_options o = native();
    picollo_status st;
    memset(b, 0xA5, sizeof b);
    st = picollo_histogram_prometheus_native(h, &o, b, sizeof b, NULL);
    CHECK(b[0] == 0xA5 && b[7] == 0xA5);
    return st;
}
static picollo_status native_float_null_h(void)
{
    picollo_prometheus_native_options o = native();
    return picollo_float_histogram_prometheus_native(NULL, &o, NULL, 0, NULL);
}
static picollo_status native_float_null_o(void)
{
    return picollo_float_histogram_prometheus_native(fh, NULL, NULL, 0, NULL);
}
static picollo_status native_float_classic(void)
{
    picollo_prometheus_native_options o = native();
    o.classic_coarse_relative_error = 0.1;
    return native_float_call(o);
}
static picollo_status native_float_schema_minus_5(void)
{
    picollo_prometheus_native_options o = native();
    o.schema = -5;
    return native_float_call(o);
}
static picollo_status native_float_label_reserved(void)
{
    const picollo_label l[] = {{"__name__", "x"}};
    picollo_prometheus_native_options o = native();
    o.labels = l;
    o.label_count = 1;
    return native_float_call(o);
}
static picollo_status native_float_short(void)
{
    picollo_prometheus_native_options o = native();
    return picollo_float_histogram_prometheus_native(fh, &o, (uint8_t *)text, 4, NULL);
}

/* ---- time ---- */

static picollo_status ticks(void)
{
    uint64_t a = picollo_ticks(), b = picollo_ticks();
    CHECK(b >= a);
    return PICOLLO_STATUS_OK;
}
static picollo_status ticks_begin_end(void)
{
    uint64_t a = picollo_ticks_begin(), b = picollo_ticks_end();
    CHECK(b >= a);
    return PICOLLO_STATUS_OK;
}
static picollo_status ticks_end_alone(void)
{
    CHECK(picollo_ticks_end() > 0);
    return PICOLLO_STATUS_OK;
}
static picollo_status monotonic(void)
{
    uint64_t a = picollo_monotonic_nanos(), b = picollo_monotonic_nanos();
    CHECK(b >= a);
    return PICOLLO_STATUS_OK;
}
static picollo_status frequency(void)
{
    CHECK(picollo_tick_frequency() > 0);
    return PICOLLO_STATUS_OK;
}
static picollo_status ticks_to_nanos_extremes(void)
{
    CHECK(picollo_ticks_to_nanos(0) == 0);
    (void)picollo_ticks_to_nanos(UINT64_MAX); /* saturates; must not trap */
    return PICOLLO_STATUS_OK;
}
static picollo_status convert_zero_frequency(void)
{
    CHECK(picollo_convert_ticks(UINT64_MAX, 0, UINT64_MAX) == 0);
    CHECK(picollo_convert_ticks(UINT64_MAX, 1, UINT64_MAX) == UINT64_MAX);
    CHECK(picollo_convert_ticks(0, UINT64_MAX, UINT64_MAX) == 0);
    return PICOLLO_STATUS_OK;
}
static picollo_status scope_null_histogram(void)
{
    picollo_scope s = picollo_scope_begin(NULL, PICOLLO_TIME_UNIT_NANOS);
    return picollo_scope_end(&s, NULL);
}
static picollo_status scope_bad_unit(void)
{
    picollo_histogram *s = scratch();
    picollo_scope sc = picollo_scope_begin(s, UINT32_MAX);
    picollo_status st = picollo_scope_end(&sc, NULL);
    CHECK(info_of(s).total == 0);
    picollo_histogram_free(s);
    return st;
}
static picollo_status scope_end_null(void)
{
    uint64_t e;
    return picollo_scope_end(NULL, &e);
}
static picollo_status scope_end_twice(void)
{
    picollo_histogram *s = scratch();
    picollo_scope sc = picollo_scope_begin(s, PICOLLO_TIME_UNIT_TICKS);
    picollo_status st;
    CHECK(picollo_scope_end(&sc, NULL) == PICOLLO_STATUS_OK);
    st = picollo_scope_end(&sc, NULL);
    CHECK(info_of(s).total == 1);
    picollo_histogram_free(s);
    return st;
}
static picollo_status add_chain_zero(void)
{
    CHECK(picollo_add_chain(0) == 0);
    return PICOLLO_STATUS_OK;
}
static picollo_status pin_cpu_max(void) { return picollo_pin_thread(UINT32_MAX); }
static picollo_status pin_cpu_huge(void) { return picollo_pin_thread(1u << 20); }
static picollo_status nice_20(void) { return picollo_set_thread_nice(20); }
static picollo_status nice_minus_21(void) { return picollo_set_thread_nice(-21); }
static picollo_status nice_min(void) { return picollo_set_thread_nice(INT32_MIN); }

/* ---- perf ---- */

static picollo_status perf_config_default(void)
{
    picollo_perf_config c = picollo_perf_config_default();
    CHECK(c.struct_size == sizeof c && c.reserved == 0 && c.cpu == -1);
    return PICOLLO_STATUS_OK;
}
static picollo_status perf_new_null_config(void)
{
    picollo_perf_session *s = NULL;
    return picollo_perf_session_new(NULL, &s);
}
static picollo_status perf_new_null_out(void)
{
    picollo_perf_config c = picollo_perf_config_default();
    return picollo_perf_session_new(&c, NULL);
}
static picollo_perf_config perf_config(void) { return picollo_perf_config_default(); }
#define PERF_NEW_WITH(fn, field, value)         \
    static picollo_status fn(void)              \
    {                                           \
        picollo_perf_config c = perf_config();  \
        c.field = value;                        \
        return perf_new_with(c);                \
    }
PERF_NEW_WITH(perf_new_size_0, struct_size, 0)
PERF_NEW_WITH(perf_new_size_4097, struct_size, 4097)
PERF_NEW_WITH(perf_new_size_max, struct_size, UINT32_MAX)
PERF_NEW_WITH(perf_new_pinned_2, pinned, 2)
PERF_NEW_WITH(perf_new_kernel_2, include_kernel, 2)
PERF_NEW_WITH(perf_new_enabled_max, enabled, UINT32_MAX)
PERF_NEW_WITH(perf_new_calibrate_2, calibrate, 2)
PERF_NEW_WITH(perf_new_rdpmc_3, rdpmc, 3)
PERF_NEW_WITH(perf_new_pid_minus_2, pid, -2)
PERF_NEW_WITH(perf_new_cpu_min, cpu, INT32_MIN)
PERF_NEW_WITH(perf_new_error_nan, relative_error, NAN)
PERF_NEW_WITH(perf_new_error_zero, relative_error, 0.0)
PERF_NEW_WITH(perf_new_error_minus_1e300, relative_error, -1e300)
PERF_NEW_WITH(perf_new_kind_4, record_kind, 4)
PERF_NEW_WITH(perf_new_reserved, reserved, 1)
static picollo_status perf_free_null(void)
{
    picollo_perf_session_free(NULL);
    return PICOLLO_STATUS_OK;
}

/* A fresh session from the default config; the caller frees it. */
static picollo_perf_session *fresh_session(void)
{
    picollo_perf_config c = picollo_perf_config_default();
    picollo_perf_session *s = NULL;
    if (picollo_perf_session_new(&c, &s) != PICOLLO_STATUS_OK) {
        fprintf(stderr, "FATAL: cannot create a perf session: %s\n", picollo_last_error_message());
        exit(2);
    }
    return s;
}

static picollo_status hw_null(void) { return picollo_perf_session_add_hardware(NULL, 0); }
static picollo_status hw_id_10(void) { return picollo_perf_session_add_hardware(ps, 10); }
static picollo_status hw_id_max(void) { return picollo_perf_session_add_hardware(ps, UINT32_MAX); }
static picollo_status hw_when_open(void)
{
    return ps_open ? picollo_perf_session_add_hardware(ps_open, 0)
                   : picollo_perf_session_add_hardware(ps, UINT32_MAX);
}
static picollo_status cache_null(void) { return picollo_perf_session_add_cache(NULL, 0, 0, 0); }
static picollo_status cache_level_7(void) { return picollo_perf_session_add_cache(ps, 7, 0, 0); }
static picollo_status cache_op_3(void) { return picollo_perf_session_add_cache(ps, 0, 3, 0); }
static picollo_status cache_result_max(void) { return picollo_perf_session_add_cache(ps, 0, 0, UINT32_MAX); }
static picollo_status sw_null(void) { return picollo_perf_session_add_software(NULL, 0); }
static picollo_status sw_id_9(void) { return picollo_perf_session_add_software(ps, 9); }
static picollo_status sw_id_max(void) { return picollo_perf_session_add_software(ps, UINT32_MAX); }
static picollo_status sw_duplicate(void)
{
    return picollo_perf_session_add_software(ps, PICOLLO_PERF_SOFTWARE_EVENT_TASK_CLOCK);
}
static picollo_status raw_null(void) { return picollo_perf_session_add_raw(NULL, 4, 0, 0, 0); }
/* Where perf_event_open is forbidden outright (perf_event_paranoid 3, seccomp) the open
 * is refused before the kernel looks at the type; anywhere else an unknown type must be
 * reported as such. */
static void check_unknown_type(picollo_status st)
{
    const char *msg = picollo_last_error_message();
    if (st == PICOLLO_STATUS_INVALID_ARGUMENT) {
        CHECKF(strstr(msg, "unknown perf event type 3735928559") != NULL, "\"%s\"", msg);
    }
}
/* The kernel judges a raw type at open: a type it has never heard of is a bad argument,
 * not a missing PMU. */
static picollo_status raw_bogus_type_open(void)
{
    picollo_perf_session *s = fresh_session();
    picollo_status st = picollo_perf_session_add_raw(s, 0xDEADBEEFu, 0, 0, 0);
    if (CHECK(st == PICOLLO_STATUS_OK)) {
        st = picollo_perf_session_open(s);
        check_unknown_type(st);
    }
    picollo_perf_session_free(s);
    return st;
}
/* The group cap: 64 counters fit, the 65th is refused naming the cap and the count. */
static picollo_status raw_group_over_cap(void)
{
    picollo_perf_session *s = fresh_session();
    picollo_status st = PICOLLO_STATUS_OK;
    size_t count = 0;
    uint64_t i;
    for (i = 0; i < 64; i++) {
        /* Type 1 (software) with distinct configs: distinct counters. */
        CHECK(picollo_perf_session_add_raw(s, 1, 1000 + i, 0, 0) == PICOLLO_STATUS_OK);
    }
    st = picollo_perf_session_add_raw(s, 1, 2000, 0, 0);
    CHECK(picollo_perf_session_counter_count(s, &count) == PICOLLO_STATUS_OK && count == 64);
    /* Successful calls leave the last error alone: the runner checks the 65th add's. */
    picollo_perf_session_free(s);
    return st;
}
static picollo_status fixed_null(void) { return picollo_perf_session_add_fixed(NULL); }
static picollo_status fixed_overlap(void)
{
    picollo_perf_session *s = fresh_session();
    picollo_status st;
    size_t count = 9;
    CHECK(picollo_perf_session_add_hardware(s, PICOLLO_PERF_HARDWARE_EVENT_INSTRUCTIONS) ==
          PICOLLO_STATUS_OK);
    st = picollo_perf_session_add_fixed(s);
    CHECK(picollo_perf_session_counter_count(s, &count) == PICOLLO_STATUS_OK && count == 1);
    picollo_perf_session_free(s);
    return st;
}
static picollo_status named_null_s(void) { return picollo_perf_session_add_named(NULL, "Software:TaskClock"); }
static picollo_status named_null_name(void) { return picollo_perf_session_add_named(ps, NULL); }
static picollo_status named_bad_utf8(void) { return picollo_perf_session_add_named(ps, bad_utf8); }
static picollo_status named_unknown(void) { return picollo_perf_session_add_named(ps, "Software:NoSuchThing"); }
static picollo_status named_empty(void) { return picollo_perf_session_add_named(ps, ""); }
static picollo_status named_raw_partial(void) { return picollo_perf_session_add_named(ps, "Raw:"); }
static picollo_status named_raw_overflow(void) { return picollo_perf_session_add_named(ps, "Raw:99999999999:0x1"); }
static picollo_status open_null(void) { return picollo_perf_session_open(NULL); }
static picollo_status open_empty(void) { return picollo_perf_session_open(ps_none); }
static picollo_status open_twice(void)
{
    return ps_open ? picollo_perf_session_open(ps_open) : picollo_perf_session_open(ps_none);
}
static picollo_status open_hardware(void)
{
    picollo_perf_session *s = fresh_session();
    picollo_status st = picollo_perf_session_add_hardware(s, PICOLLO_PERF_HARDWARE_EVENT_CPU_CYCLES);
    if (CHECK(st == PICOLLO_STATUS_OK)) {
        st = picollo_perf_session_open(s);
    }
    picollo_perf_session_free(s);
    return st;
}
static picollo_status discover_null(void) { return picollo_perf_discover(NULL); }
static picollo_status describe_null_buf(void) { return picollo_perf_describe(NULL, 100, NULL); }
static picollo_status describe_size_query(void)
{
    size_t n = 0;
    picollo_status st = picollo_perf_describe(NULL, 0, &n);
    CHECK(n > 0);
    return st;
}
static picollo_status supported_null(void) { return picollo_perf_counter_supported(NULL); }
static picollo_status supported_bad_utf8(void) { return picollo_perf_counter_supported(bad_utf8); }
static picollo_status supported_unknown(void) { return picollo_perf_counter_supported("Hardware:Nope"); }
static picollo_status supported_bogus_raw(void)
{
    picollo_status st = picollo_perf_counter_supported("Raw:3735928559:0x0");
    check_unknown_type(st);
    return st;
}
static picollo_status supported_cycles(void) { return picollo_perf_counter_supported("Hardware:CpuCycles"); }
static picollo_status read_null(void) { return picollo_perf_session_read(NULL, 0, NULL); }
static picollo_status read_not_open(void) { return picollo_perf_session_read(ps, 0, NULL); }
static picollo_status read_force_2(void) { return picollo_perf_session_read(ps_open ? ps_open : ps, 2, NULL); }
static picollo_status deltas_null(void)
{
    picollo_perf_delta d[1];
    return picollo_perf_session_deltas(NULL, d, 1, NULL);
}
static picollo_status deltas_null_out(void) { return picollo_perf_session_deltas(ps_open ? ps_open : ps, NULL, 1, NULL); }
static picollo_status deltas_null_out_max(void) { return picollo_perf_session_deltas(ps_open ? ps_open : ps, NULL, SIZE_MAX, NULL); }
static picollo_status deltas_too_small(void)
{
    size_t count = 0;
    picollo_status st = picollo_perf_session_deltas(ps_open ? ps_open : ps, NULL, 0, &count);
    CHECK(count == 1);
    return st;
}
static picollo_status record_null_s(void) { return picollo_perf_session_record(NULL); }
static picollo_status record_not_open(void) { return picollo_perf_session_record(ps); }
static picollo_status record_kind_null(void) { return picollo_perf_session_record_kind(NULL, 0); }
static picollo_status record_kind_4(void) { return picollo_perf_session_record_kind(ps_open ? ps_open : ps, 4); }
static picollo_status record_kind_not_open(void) { return picollo_perf_session_record_kind(ps, 0); }
static picollo_status enable_null(void) { return picollo_perf_session_enable(NULL); }
static picollo_status enable_not_open(void) { return picollo_perf_session_enable(ps); }
static picollo_status disable_null(void) { return picollo_perf_session_disable(NULL); }
static picollo_status disable_not_open(void) { return picollo_perf_session_disable(ps); }
static picollo_status perf_reset_null(void) { return picollo_perf_session_reset(NULL); }
static picollo_status perf_reset_not_open(void) { return picollo_perf_session_reset(ps); }
static picollo_status is_open_null(void)
{
    uint32_t o;
    return picollo_perf_session_is_open(NULL, &o);
}
static picollo_status is_open_null_out(void) { return picollo_perf_session_is_open(ps, NULL); }
static picollo_status count_null(void)
{
    size_t n;
    return picollo_perf_session_counter_count(NULL, &n);
}
static picollo_status count_null_out(void) { return picollo_perf_session_counter_count(ps, NULL); }
static picollo_status name_null(void) { return picollo_perf_session_counter_name(NULL, 0, text, sizeof text, NULL); }
static picollo_status name_index_max(void) { return picollo_perf_session_counter_name(ps, SIZE_MAX, text, sizeof text, NULL); }
static picollo_status name_null_buf(void) { return picollo_perf_session_counter_name(ps, 0, NULL, 100, NULL); }
static picollo_status name_size_query(void)
{
    size_t n = 0;
    picollo_status st = picollo_perf_session_counter_name(ps, 0, NULL, 0, &n);
    CHECK(n == strlen("Software:TaskClock"));
    return st;
}
static picollo_status choice_null_s(void)
{
    picollo_perf_path_choice c;
    return picollo_perf_session_path_choice(NULL, &c);
}
static picollo_status choice_null_out(void) { return picollo_perf_session_path_choice(ps_open ? ps_open : ps, NULL); }
static picollo_status choice_not_open(void)
{
    picollo_perf_path_choice c;
    return picollo_perf_session_path_choice(ps, &c);
}
static picollo_status path_text_null_s(void) { return picollo_perf_session_path_describe(NULL, text, sizeof text, NULL); }
static picollo_status path_text_not_open(void) { return picollo_perf_session_path_describe(ps, text, sizeof text, NULL); }
static picollo_status path_text_null_buf(void)
{
    return picollo_perf_session_path_describe(ps_open ? ps_open : ps, NULL, 100, NULL);
}
static picollo_status path_text_size_query(void)
{
    size_t n = 0;
    picollo_status st = picollo_perf_session_path_describe(ps_open ? ps_open : ps, NULL, 0, &n);
    CHECK(!ps_open || n > strlen("read(2): "));
    return st;
}
static picollo_status values_null_s(void)
{
    picollo_perf_counter_values v;
    return picollo_perf_session_counter_values(NULL, 0, &v);
}
static picollo_status values_null_out_s(void) { return picollo_perf_session_counter_values(ps_open ? ps_open : ps, 0, NULL); }
static picollo_status values_not_open(void)
{
    picollo_perf_counter_values v;
    return picollo_perf_session_counter_values(ps, 0, &v);
}
static picollo_status values_index_max(void)
{
    picollo_perf_counter_values v;
    return picollo_perf_session_counter_values(ps_open ? ps_open : ps, SIZE_MAX, &v);
}
static picollo_status histogram_null_s(void)
{
    picollo_histogram *o = NULL;
    return picollo_perf_session_counter_histogram(NULL, 0, &o);
}
static picollo_status histogram_null_out(void) { return picollo_perf_session_counter_histogram(ps, 0, NULL); }
static picollo_status histogram_index_max(void)
{
    picollo_histogram *o = NULL;
    return picollo_perf_session_counter_histogram(ps, SIZE_MAX, &o);
}
static picollo_status derived_null(void)
{
    picollo_perf_derived d;
    return picollo_perf_session_derived(NULL, &d);
}
static picollo_status derived_null_out(void) { return picollo_perf_session_derived(ps_open ? ps_open : ps, NULL); }
static picollo_status derived_not_open(void)
{
    picollo_perf_derived d;
    return picollo_perf_session_derived(ps, &d);
}
static picollo_status means_null(void)
{
    picollo_perf_derived d;
    return picollo_perf_session_derived_means(NULL, &d);
}
static picollo_status means_null_out(void) { return picollo_perf_session_derived_means(ps, NULL); }
static picollo_status means_before_open(void)
{
    picollo_perf_derived d;
    picollo_status st = picollo_perf_session_derived_means(ps, &d);
    CHECK(isnan(d.ipc));
    return st;
}

/* ---- picollo_bench_* ---- */

/* The measured work of the bench rows: counts the operations it is asked for. */
static void bench_work(void *ctx, uint64_t iterations)
{
    if (ctx != NULL) {
        *(uint64_t *)ctx += iterations;
    }
}

/* A short run (time only, at most 20 samples of 1 op, no warm-up budget). */
static picollo_bench_config bench_config(void)
{
    picollo_bench_config c = picollo_bench_config_default();
    c.counters = "";
    c.samples = 20;
    c.batch = 1;
    c.time_budget = 0.05;
    c.warmup = 0.0;
    return c;
}

/* picollo_bench_run on `c`: the callback must not have run when the call fails early, and
 * a result made by mistake is freed. */
static picollo_status bench_with(picollo_bench_config c)
{
    picollo_bench_result *out = NULL;
    uint64_t ops = 0;
    picollo_status st = picollo_bench_run(&c, bench_work, &ops, &out);
    CHECK((st == PICOLLO_STATUS_OK) == (out != NULL));
    CHECK(st == PICOLLO_STATUS_OK || st == PICOLLO_STATUS_UNSUPPORTED ||
          st == PICOLLO_STATUS_PERMISSION_DENIED || ops == 0);
    picollo_bench_result_free(out);
    return st;
}
/* picollo_bench_run on bench_config() after `change`. */
#define BENCH_CASE(name, change) \
    CONFIG_CASE(name, picollo_bench_config, bench_config(), change, bench_with(c))

static picollo_status bench_default_ok(void)
{
    picollo_bench_config c = picollo_bench_config_default();
    CHECK(c.struct_size == sizeof c && c.pinned_cpu == -1 && c.batch == 0);
    return PICOLLO_STATUS_OK;
}
static picollo_status bench_here_notes_the_build(void)
{
    picollo_bench_config c = picollo_bench_config_here();
#ifdef __OPTIMIZE__
    CHECK(c.unoptimized == NULL);
#else
    CHECK(c.unoptimized != NULL);
#endif
    CHECK(c.struct_size == sizeof c && c.pinned_cpu == -1 && c.batch == 0);
    return PICOLLO_STATUS_OK;
}
static picollo_status bench_null_config(void)
{
    picollo_bench_result *out = NULL;
    return picollo_bench_run(NULL, bench_work, NULL, &out);
}
static picollo_status bench_null_work(void)
{
    picollo_bench_config c = bench_config();
    picollo_bench_result *out = NULL;
    return picollo_bench_run(&c, NULL, NULL, &out);
}
static picollo_status bench_null_out(void)
{
    picollo_bench_config c = bench_config();
    return picollo_bench_run(&c, bench_work, NULL, NULL);
}
BENCH_CASE(bench_size_0, c.struct_size = 0)
BENCH_CASE(bench_size_max, c.struct_size = UINT32_MAX)
BENCH_CASE(bench_bad_utf8_name, c.name = bad_utf8)
BENCH_CASE(bench_bad_utf8_counters, c.counters = bad_utf8)
BENCH_CASE(bench_bad_utf8_unoptimized, c.unoptimized = bad_utf8)
BENCH_CASE(bench_unknown_counter, c.counters = "Software:TaskClock,Software:NoSuchThing")
BENCH_CASE(bench_near_counter, c.counters = "software:taskclock,Software:PageFault")
BENCH_CASE(bench_empty_counter, c.counters = "Software:TaskClock,,Software:PageFaults")
BENCH_CASE(bench_duplicate_counter, c.counters = "Software:TaskClock,Software:TaskClock")
BENCH_CASE(bench_hardware_counter, c.counters = "Hardware:CpuCycles")
BENCH_CASE(bench_samples_0, c.samples = 0)
BENCH_CASE(bench_batch_max, c.batch = UINT64_MAX)
BENCH_CASE(bench_budget_nan, c.time_budget = NAN)
BENCH_CASE(bench_budget_inf, c.time_budget = INFINITY)
BENCH_CASE(bench_warmup_negative, c.warmup = -1e300)
BENCH_CASE(bench_error_nan, c.relative_error = NAN)
BENCH_CASE(bench_pinned_min, c.pinned_cpu = INT32_MIN)
BENCH_CASE(bench_pinned_beyond, c.pinned_cpu = INT32_MAX)
BENCH_CASE(bench_nice_flag_2, c.set_nice = 2)
BENCH_CASE(bench_nice_20, c.set_nice = 1; c.nice = 20)
static picollo_status bench_free_null(void)
{
    picollo_bench_result_free(NULL);
    return PICOLLO_STATUS_OK;
}
static picollo_status bench_count_null(void)
{
    size_t n;
    return picollo_bench_result_metric_count(NULL, &n);
}
static picollo_status bench_count_null_out(void) { return picollo_bench_result_metric_count(br, NULL); }
static picollo_status bench_name_null(void)
{
    char buf[16];
    return picollo_bench_result_metric_name(NULL, 0, buf, sizeof buf, NULL);
}
static picollo_status bench_name_index_max(void)
{
    char buf[16];
    return picollo_bench_result_metric_name(br, SIZE_MAX, buf, sizeof buf, NULL);
}
static picollo_status bench_name_null_buf(void)
{
    return picollo_bench_result_metric_name(br, 0, NULL, 16, NULL);
}
static picollo_status bench_name_size_query(void)
{
    size_t needed = 0;
    picollo_status st = picollo_bench_result_metric_name(br, 0, NULL, 0, &needed);
    CHECK(needed == 4); /* "time" */
    return st;
}
static picollo_status bench_unit_null(void)
{
    char buf[16];
    return picollo_bench_result_metric_unit(NULL, 0, buf, sizeof buf, NULL);
}
static picollo_status bench_unit_index_max(void)
{
    char buf[16];
    return picollo_bench_result_metric_unit(br, SIZE_MAX, buf, sizeof buf, NULL);
}
static picollo_status bench_unit_tiny(void)
{
    char buf[2];
    picollo_status st = picollo_bench_result_metric_unit(br, 0, buf, sizeof buf, NULL);
    CHECK(strcmp(buf, "n") == 0);
    return st;
}
static picollo_status bench_histogram_null(void)
{
    const picollo_histogram *out = NULL;
    return picollo_bench_result_histogram(NULL, 0, &out);
}
static picollo_status bench_histogram_null_out(void)
{
    return picollo_bench_result_histogram(br, 0, NULL);
}
static picollo_status bench_histogram_index_max(void)
{
    const picollo_histogram *out = NULL;
    picollo_status st = picollo_bench_result_histogram(br, SIZE_MAX, &out);
    CHECK(out == NULL);
    return st;
}
/* The histograms the library lends: a bench result's first metric (read-only: each mutator
 * is refused or ignored) and a perf session's first counter (it takes records and resets).
 * Neither is freed by picollo_histogram_free, and each stays live (under ASan a freed one
 * would fail the read after the call). */
static picollo_histogram *lent_of(int which)
{
    picollo_histogram *o = NULL;
    if (which == 0) {
        const picollo_histogram *b = NULL;
        CHECK(picollo_bench_result_histogram(br, 0, &b) == PICOLLO_STATUS_OK);
        o = (picollo_histogram *)b;
    } else {
        CHECK(picollo_perf_session_counter_histogram(ps, 0, &o) == PICOLLO_STATUS_OK);
    }
    CHECK(o != NULL);
    return o;
}
static uint64_t total_of(const picollo_histogram *x)
{
    picollo_histogram_info i;
    CHECK(picollo_histogram_get_info(x, &i) == PICOLLO_STATUS_OK);
    return i.total + i.underflow + i.overflow + i.saturated;
}
/* Runs `call` on the first `handles` lent handles: the same status from each, no count
 * changed. */
static picollo_status on_lent_handles(picollo_status (*call)(picollo_histogram *), int handles)
{
    picollo_status st = PICOLLO_STATUS_OK;
    for (int which = 0; which < handles; which++) {
        picollo_histogram *l = lent_of(which);
        uint64_t before = total_of(l);
        picollo_status s = call(l);
        CHECK(which == 0 || s == st);
        st = s;
        CHECK(total_of(l) == before);
    }
    return st;
}
/* The read-only one: a bench result's. */
static picollo_status on_lent(picollo_status (*call)(picollo_histogram *))
{
    return on_lent_handles(call, 1);
}
static picollo_status lent_free_call(picollo_histogram *l)
{
    picollo_histogram_free(l);
    CHECK(strstr(picollo_last_error_message(), "lent by") != NULL);
    return PICOLLO_STATUS_OK;
}
static picollo_status lent_record_call(picollo_histogram *l)
{
    (picollo_histogram_record)(l, 5);
    picollo_histogram_record_fn(l)(l, 5);
    return PICOLLO_STATUS_OK;
}
/* The header's inline call reaches the read-only handle's own record function. */
static picollo_status lent_record_inline_call(picollo_histogram *l)
{
    picollo_histogram_record_inline(l, 5);
    picollo_histogram_record(l, 7);
    return PICOLLO_STATUS_OK;
}
static picollo_status lent_record_n_call(picollo_histogram *l)
{
    picollo_histogram_record_n(l, 5, 3);
    picollo_histogram_record_corrected(l, 5, 1);
    return PICOLLO_STATUS_OK;
}
static picollo_status lent_record_many_call(picollo_histogram *l)
{
    static const uint64_t values[] = {1, 2, 3};
    return picollo_histogram_record_many(l, values, 3);
}
static picollo_status lent_reset_call(picollo_histogram *l) { return picollo_histogram_reset(l); }
static picollo_status lent_add_call(picollo_histogram *l) { return picollo_histogram_add(l, h); }
static picollo_status lent_recorder_call(picollo_histogram *l)
{
    picollo_recorder r;
    return picollo_histogram_get_recorder(l, PICOLLO_RECORDER_VERSION, &r);
}
static picollo_status lent_collect_call(picollo_histogram *l)
{
    picollo_histogram *s = NULL;
    picollo_status st = picollo_histogram_collect(l, &s);
    CHECK(s == NULL);
    return st;
}
static picollo_status lent_free(void) { return on_lent_handles(lent_free_call, 2); }
static picollo_status lent_record(void) { return on_lent(lent_record_call); }
static picollo_status lent_record_inline(void) { return on_lent(lent_record_inline_call); }
static picollo_status lent_record_n(void) { return on_lent(lent_record_n_call); }
static picollo_status lent_record_many(void) { return on_lent(lent_record_many_call); }
static picollo_status lent_reset(void) { return on_lent(lent_reset_call); }
static picollo_status lent_add(void) { return on_lent(lent_add_call); }
static picollo_status lent_recorder(void) { return on_lent(lent_recorder_call); }
static picollo_status lent_recorder_of_call(picollo_histogram *l)
{
    picollo_status st = PICOLLO_STATUS_OK;
    const picollo_recorder r = picollo_recorder_of(l, &st);
    CHECK(r.kind == PICOLLO_RECORDER_KIND_CALL && r.cells == NULL);
    picollo_recorder_record(&r, 5);
    return st;
}
static picollo_status lent_recorder_of(void) { return on_lent(lent_recorder_of_call); }
static picollo_status lent_collect(void) { return on_lent(lent_collect_call); }
static picollo_status bench_text_null(void)
{
    char buf[16];
    return picollo_bench_result_text(NULL, PICOLLO_BENCH_FORMAT_LINE, buf, sizeof buf, NULL);
}
static picollo_status bench_text_format_max(void)
{
    char buf[16];
    return picollo_bench_result_text(br, UINT32_MAX, buf, sizeof buf, NULL);
}
static picollo_status bench_text_null_buf(void)
{
    return picollo_bench_result_text(br, PICOLLO_BENCH_FORMAT_JSON, NULL, 16, NULL);
}
static picollo_status bench_text_size_query(void)
{
    size_t needed = 0;
    picollo_status st = picollo_bench_result_text(br, PICOLLO_BENCH_FORMAT_LOG, NULL, 0, &needed);
    CHECK(needed > 0);
    return st;
}
static picollo_status bench_compare_null_a(void)
{
    char buf[16];
    return picollo_bench_compare(NULL, br, buf, sizeof buf, NULL, NULL, NULL);
}
static picollo_status bench_compare_null_b(void)
{
    char buf[16];
    return picollo_bench_compare(br, NULL, buf, sizeof buf, NULL, NULL, NULL);
}
static picollo_status bench_compare_null_buf(void)
{
    return picollo_bench_compare(br, br, NULL, 16, NULL, NULL, NULL);
}
static picollo_status bench_compare_size_query(void)
{
    picollo_bench_verdict v = 77;
    double ratio = -1.0;
    picollo_status st = picollo_bench_compare(br, br, NULL, 0, NULL, &v, &ratio);
    CHECK(v == 77 && ratio == -1.0); /* outputs are written only on success */
    return st;
}
/* picollo_bench_compare_metric with every output given, each set to a mark the call must
 * leave where it fails. */
static picollo_status bench_metric_with(const picollo_bench_result *a,
                                        const picollo_bench_result *b, const char *metric,
                                        char *buf, size_t len, size_t struct_size)
{
    picollo_bench_comparison info;
    memset(&info, 0, sizeof info);
    info.struct_size = (uint32_t)struct_size;
    info.verdict = 77;
    size_t index = 77;
    uint32_t exact = 77;
    picollo_status st = picollo_bench_compare_metric(a, b, metric, buf, len, NULL, &info,
                                                     &index, &exact);
    if (st != PICOLLO_STATUS_OK)
        CHECK(info.verdict == 77 && index == 77 && exact == 77); /* written only on success */
    return st;
}
static picollo_status bench_metric_null_a(void)
{
    char buf[16];
    return bench_metric_with(NULL, br, "time", buf, sizeof buf, sizeof(picollo_bench_comparison));
}
static picollo_status bench_metric_null_b(void)
{
    char buf[16];
    return bench_metric_with(br, NULL, "time", buf, sizeof buf, sizeof(picollo_bench_comparison));
}
static picollo_status bench_metric_null_metric(void)
{
    char buf[16];
    return bench_metric_with(br, br, NULL, buf, sizeof buf, sizeof(picollo_bench_comparison));
}
static picollo_status bench_metric_bad_utf8(void)
{
    char buf[16];
    return bench_metric_with(br, br, "\xff", buf, sizeof buf, sizeof(picollo_bench_comparison));
}
static picollo_status bench_metric_unknown(void)
{
    char buf[16];
    return bench_metric_with(br, br, "Hardware:Bogus", buf, sizeof buf,
                             sizeof(picollo_bench_comparison));
}
static picollo_status bench_metric_small_out(void)
{
    char buf[16];
    return bench_metric_with(br, br, "time", buf, sizeof buf, sizeof(picollo_bench_comparison) - 8);
}
static picollo_status bench_metric_size_query(void)
{
    return bench_metric_with(br, br, "time", NULL, 0, sizeof(picollo_bench_comparison));
}
static picollo_status bench_metric_null_outputs(void)
{
    size_t needed = 0;
    picollo_status st = picollo_bench_compare_metric(br, br, "time", NULL, 0, &needed, NULL,
                                                     NULL, NULL);
    CHECK(needed > 0);
    char *buf = malloc(needed + 1); /* the text and its NUL */
    CHECK(buf != NULL);
    st = picollo_bench_compare_metric(br, br, "TIME", buf, needed + 1, NULL, NULL, NULL, NULL);
    CHECK(st != PICOLLO_STATUS_OK || strstr(buf, "verdict: no difference") != NULL);
    free(buf);
    return st;
}
static picollo_status bench_html_null_a(void)
{
    char buf[16];
    return picollo_bench_compare_html(NULL, br, buf, sizeof buf, NULL);
}
static picollo_status bench_html_null_b(void)
{
    char buf[16];
    return picollo_bench_compare_html(br, NULL, buf, sizeof buf, NULL);
}
static picollo_status bench_html_null_buf(void)
{
    return picollo_bench_compare_html(br, br, NULL, 16, NULL);
}
static picollo_status bench_html_small(void)
{
    char buf[16];
    size_t needed = 0;
    picollo_status st = picollo_bench_compare_html(br, br, buf, sizeof buf, &needed);
    /* Truncated like every text: the page's first 15 bytes, the whole length in `needed`. */
    CHECK(strcmp(buf, "<!DOCTYPE html>") == 0 && needed > 1000);
    return st;
}

static picollo_status bench_results_ok(void)
{
    const picollo_bench_result *rs[2] = {br, br};
    char buf[4096];
    picollo_status st =
        picollo_bench_results_text(rs, 2, PICOLLO_BENCH_FORMAT_BENCHER, buf, sizeof buf, NULL);
    /* One name given twice: the second is told apart. */
    CHECK(st != PICOLLO_STATUS_OK || strstr(buf, " (2)\":{\"latency\":{\"value\":") != NULL);
    return st;
}
static picollo_status bench_results_null(void)
{
    char buf[16];
    return picollo_bench_results_text(NULL, 1, PICOLLO_BENCH_FORMAT_BENCHER, buf, sizeof buf, NULL);
}
static picollo_status bench_results_null_element(void)
{
    const picollo_bench_result *rs[2] = {br, NULL};
    char buf[16];
    return picollo_bench_results_text(rs, 2, PICOLLO_BENCH_FORMAT_DOCUMENT, buf, sizeof buf, NULL);
}
static picollo_status bench_results_none(void)
{
    const picollo_bench_result *rs[1] = {br};
    char buf[16];
    return picollo_bench_results_text(rs, 0, PICOLLO_BENCH_FORMAT_GITHUB_ACTION, buf, sizeof buf, NULL);
}
static picollo_status bench_results_one_result_format(void)
{
    const picollo_bench_result *rs[1] = {br};
    char buf[16];
    return picollo_bench_results_text(rs, 1, PICOLLO_BENCH_FORMAT_HTML, buf, sizeof buf, NULL);
}
static picollo_status bench_results_format_max(void)
{
    const picollo_bench_result *rs[1] = {br};
    char buf[16];
    return picollo_bench_results_text(rs, 1, UINT32_MAX, buf, sizeof buf, NULL);
}
static picollo_status bench_results_size_query(void)
{
    const picollo_bench_result *rs[1] = {br};
    size_t needed = 0;
    picollo_status st = picollo_bench_results_text(rs, 1, PICOLLO_BENCH_FORMAT_GOOGLE_BENCHMARK,
                                                   NULL, 0, &needed);
    CHECK(needed > 100);
    return st;
}
static picollo_status bench_summary_ok(void)
{
    const picollo_bench_result *a[1] = {br}, *b[1] = {br};
    static char buf[1 << 16];
    picollo_status st = picollo_bench_summary(a, b, 1, buf, sizeof buf, NULL);
    CHECK(st != PICOLLO_STATUS_OK || strncmp(buf, "### Picollo: 1 comparisons: ", 28) == 0);
    return st;
}
static picollo_status bench_summary_null_a(void)
{
    const picollo_bench_result *b[1] = {br};
    char buf[16];
    return picollo_bench_summary(NULL, b, 1, buf, sizeof buf, NULL);
}
static picollo_status bench_summary_null_b_element(void)
{
    const picollo_bench_result *a[1] = {br}, *b[1] = {NULL};
    char buf[16];
    return picollo_bench_summary(a, b, 1, buf, sizeof buf, NULL);
}
static picollo_status bench_summary_none(void)
{
    const picollo_bench_result *a[1] = {br}, *b[1] = {br};
    char buf[16];
    return picollo_bench_summary(a, b, 0, buf, sizeof buf, NULL);
}
static picollo_status bench_summary_small(void)
{
    const picollo_bench_result *a[1] = {br}, *b[1] = {br};
    char buf[16];
    size_t needed = 0;
    picollo_status st = picollo_bench_summary(a, b, 1, buf, sizeof buf, &needed);
    CHECK(needed > 500);
    return st;
}

static picollo_status bench_format_ok(void)
{
    char buf[4096];
    picollo_status st = picollo_bench_result_format(br, "bmf", buf, sizeof buf, NULL);
    CHECK(st != PICOLLO_STATUS_OK || strstr(buf, "\"latency\":{\"value\":") != NULL);
    return st;
}
static picollo_status bench_format_null_r(void)
{
    char buf[16];
    return picollo_bench_result_format(NULL, "line", buf, sizeof buf, NULL);
}
static picollo_status bench_format_null_name(void)
{
    char buf[16];
    return picollo_bench_result_format(br, NULL, buf, sizeof buf, NULL);
}
static picollo_status bench_format_bad_name(void)
{
    char buf[16];
    return picollo_bench_result_format(br, "\xff", buf, sizeof buf, NULL);
}
static picollo_status bench_format_unknown(void)
{
    char buf[16];
    return picollo_bench_result_format(br, "csv", buf, sizeof buf, NULL);
}
static picollo_status bench_format_null_buf(void)
{
    return picollo_bench_result_format(br, "json", NULL, 16, NULL);
}
static picollo_status bench_format_size_query(void)
{
    size_t needed = 0;
    picollo_status st = picollo_bench_result_format(br, "report", NULL, 0, &needed);
    CHECK(needed > 100);
    return st;
}
static picollo_status bench_formats_ok(void)
{
    const picollo_bench_result *rs[2] = {br, br};
    char buf[4096];
    picollo_status st = picollo_bench_results_format(rs, 2, "bmf", buf, sizeof buf, NULL);
    CHECK(st != PICOLLO_STATUS_OK || strstr(buf, " (2)\":{\"latency\":{\"value\":") != NULL);
    return st;
}
static picollo_status bench_formats_null(void)
{
    char buf[16];
    return picollo_bench_results_format(NULL, 1, "bmf", buf, sizeof buf, NULL);
}
static picollo_status bench_formats_null_element(void)
{
    const picollo_bench_result *rs[2] = {br, NULL};
    char buf[16];
    return picollo_bench_results_format(rs, 2, "picollo", buf, sizeof buf, NULL);
}
static picollo_status bench_formats_null_name(void)
{
    const picollo_bench_result *rs[1] = {br};
    char buf[16];
    return picollo_bench_results_format(rs, 1, NULL, buf, sizeof buf, NULL);
}
static picollo_status bench_formats_unknown(void)
{
    const picollo_bench_result *rs[1] = {br};
    char buf[16];
    return picollo_bench_results_format(rs, 1, "yaml", buf, sizeof buf, NULL);
}
static picollo_status bench_formats_none(void)
{
    const picollo_bench_result *rs[1] = {br};
    char buf[16];
    return picollo_bench_results_format(rs, 0, "github", buf, sizeof buf, NULL);
}
static picollo_status bench_formats_one_result_form(void)
{
    const picollo_bench_result *rs[2] = {br, br};
    char buf[16];
    return picollo_bench_results_format(rs, 2, "line", buf, sizeof buf, NULL);
}
static picollo_status bench_formats_size_query(void)
{
    const picollo_bench_result *rs[1] = {br};
    size_t needed = 0;
    picollo_status st = picollo_bench_results_format(rs, 1, "gbench", NULL, 0, &needed);
    CHECK(needed > 100);
    return st;
}
static picollo_status bench_fnames_ok(void)
{
    char buf[256];
    picollo_status st = picollo_bench_format_names(buf, sizeof buf, NULL);
    CHECK(st != PICOLLO_STATUS_OK || strncmp(buf, "report\nsummaries\n", 17) == 0);
    return st;
}
static picollo_status bench_fnames_small(void) { return picollo_bench_format_names(text, 3, NULL); }
static picollo_status bench_fnames_null_buf(void) { return picollo_bench_format_names(NULL, 10, NULL); }

/* picollo_bench_compare_run of `bench_work` against itself on `c`, names `name_a` and
 * "B": the callbacks must not have run when the call fails early, both results or none. */
static picollo_status bench_pair_with(picollo_bench_config c, const char *name_a)
{
    picollo_bench_result *a = NULL, *b = NULL;
    uint64_t ops = 0;
    picollo_status st = picollo_bench_compare_run(&c, name_a, bench_work, &ops, "B", bench_work,
                                                  &ops, &a, &b);
    CHECK((st == PICOLLO_STATUS_OK) == (a != NULL) && (a != NULL) == (b != NULL));
    CHECK(st == PICOLLO_STATUS_OK || ops == 0);
    picollo_bench_result_free(a);
    picollo_bench_result_free(b);
    return st;
}
/* bench_pair_with(..., NULL) on bench_config() after `change`. */
#define PAIR_CASE(name, change) \
    CONFIG_CASE(name, picollo_bench_config, bench_config(), change, bench_pair_with(c, NULL))
static picollo_status bench_pair_ok(void) { return bench_pair_with(bench_config(), NULL); }
static picollo_status bench_pair_null_config(void)
{
    picollo_bench_result *a = NULL, *b = NULL;
    return picollo_bench_compare_run(NULL, "A", bench_work, NULL, "B", bench_work, NULL, &a, &b);
}
static picollo_status bench_pair_null_work_a(void)
{
    picollo_bench_config c = bench_config();
    picollo_bench_result *a = NULL, *b = NULL;
    return picollo_bench_compare_run(&c, "A", NULL, NULL, "B", bench_work, NULL, &a, &b);
}
static picollo_status bench_pair_null_work_b(void)
{
    picollo_bench_config c = bench_config();
    picollo_bench_result *a = NULL, *b = NULL;
    return picollo_bench_compare_run(&c, "A", bench_work, NULL, "B", NULL, NULL, &a, &b);
}
static picollo_status bench_pair_null_out_b(void)
{
    picollo_bench_config c = bench_config();
    picollo_bench_result *a = NULL;
    picollo_status st =
        picollo_bench_compare_run(&c, "A", bench_work, NULL, "B", bench_work, NULL, &a, NULL);
    CHECK(a == NULL);
    return st;
}
static picollo_status bench_pair_bad_utf8_name(void)
{
    return bench_pair_with(bench_config(), "\xff");
}
PAIR_CASE(bench_pair_rounds_max, c.rounds = UINT64_MAX)
PAIR_CASE(bench_pair_threshold_nan, c.threshold = NAN)
PAIR_CASE(bench_pair_threshold_minus_inf, c.threshold = -INFINITY)
static picollo_status bench_pair_size_1_10(void)
{
    picollo_bench_config c = bench_config();
    c.struct_size = (uint32_t)offsetof(picollo_bench_config, threshold);
    c.threshold = NAN; /* past the caller's struct_size: never read */
    return bench_pair_with(c, NULL);
}
PAIR_CASE(bench_pair_size_between,
          c.struct_size = (uint32_t)offsetof(picollo_bench_config, rounds))
PAIR_CASE(bench_pair_size_1_14,
          c.struct_size = (uint32_t)offsetof(picollo_bench_config, fixed_offsets))
PAIR_CASE(bench_pair_fixed_offsets_2, c.fixed_offsets = 2)
static picollo_status bench_median_round_ok(void)
{
    double m = 0.0;
    picollo_status st = picollo_bench_result_median_round(br, &m);
    CHECK(m >= 0.0); /* an empty callback's rounds may read 0 ns; never NaN */
    return st;
}
static picollo_status bench_median_round_null_r(void)
{
    double m;
    return picollo_bench_result_median_round(NULL, &m);
}
static picollo_status bench_median_round_null_out(void)
{
    return picollo_bench_result_median_round(br, NULL);
}
static picollo_status bench_exact_ok(void)
{
    uint32_t exact = 7;
    picollo_status st = picollo_bench_result_metric_exact(br, 0, &exact);
    CHECK(exact == 0); /* time is never exact */
    return st;
}
static picollo_status bench_exact_null_r(void)
{
    uint32_t exact;
    return picollo_bench_result_metric_exact(NULL, 0, &exact);
}
static picollo_status bench_exact_null_out(void) { return picollo_bench_result_metric_exact(br, 0, NULL); }
static picollo_status bench_exact_index_max(void)
{
    uint32_t exact;
    return picollo_bench_result_metric_exact(br, SIZE_MAX, &exact);
}
static picollo_bench_floor floor_of_size(size_t struct_size)
{
    picollo_bench_floor f;
    memset(&f, 0, sizeof f);
    f.struct_size = (uint32_t)struct_size;
    f.floored = 77;
    return f;
}
static picollo_status bench_floor_ok(void)
{
    picollo_bench_floor f = floor_of_size(sizeof f);
    picollo_status st = picollo_bench_result_metric_floor(br, 0, &f);
    /* The empty callback's time: flagged exactly when floored or below its resolution, which
     * for time is never below a picosecond. */
    CHECK(f.struct_size == sizeof f && f.samples > 0 && f.floored <= f.samples);
    CHECK(f.resolution >= 0.001 && f.below_resolution <= 1);
    CHECK(f.flagged == (f.floored > 0 || f.below_resolution == 1));
    return st;
}
static picollo_status bench_floor_null_r(void)
{
    picollo_bench_floor f = floor_of_size(sizeof f);
    return picollo_bench_result_metric_floor(NULL, 0, &f);
}
static picollo_status bench_floor_null_out(void) { return picollo_bench_result_metric_floor(br, 0, NULL); }
static picollo_status bench_floor_small(void)
{
    picollo_bench_floor f = floor_of_size(offsetof(picollo_bench_floor, resolution));
    picollo_status st = picollo_bench_result_metric_floor(br, 0, &f);
    CHECK(f.floored == 77); /* written only on success */
    return st;
}
static picollo_status bench_floor_index_max(void)
{
    picollo_bench_floor f = floor_of_size(sizeof f);
    picollo_status st = picollo_bench_result_metric_floor(br, SIZE_MAX, &f);
    CHECK(f.floored == 77);
    return st;
}
static picollo_status bench_percentile_ok(void)
{
    double v = -1.0;
    picollo_status st = picollo_bench_result_percentile(br, 0, 50.0, &v);
    CHECK(v >= 0.0);
    return st;
}
static picollo_status bench_percentile_null_r(void)
{
    double v;
    return picollo_bench_result_percentile(NULL, 0, 50.0, &v);
}
static picollo_status bench_percentile_null_out(void) { return picollo_bench_result_percentile(br, 0, 50.0, NULL); }
static picollo_status bench_percentile_index_max(void)
{
    double v;
    return picollo_bench_result_percentile(br, SIZE_MAX, 50.0, &v);
}
static picollo_status bench_percentile_rank_101(void)
{
    double v = 42.0;
    picollo_status st = picollo_bench_result_percentile(br, 0, 101.0, &v);
    CHECK(v == 42.0); /* written only on success */
    return st;
}
static picollo_status bench_percentile_rank_nan(void)
{
    double v;
    return picollo_bench_result_percentile(br, 0, NAN, &v);
}
static picollo_status bench_constant_not_exact(void)
{
    double v = 42.0;
    picollo_status st = picollo_bench_result_constant(br, 0, &v);
    CHECK(v == 42.0);
    return st;
}
static picollo_status bench_constant_null_r(void)
{
    double v;
    return picollo_bench_result_constant(NULL, 0, &v);
}
static picollo_status bench_constant_null_out(void) { return picollo_bench_result_constant(br, 0, NULL); }
static picollo_status bench_constant_index_max(void)
{
    double v;
    return picollo_bench_result_constant(br, SIZE_MAX, &v);
}
static picollo_status emulation_null_buf(void) { return picollo_perf_emulation_describe(NULL, 100, NULL); }
static picollo_status emulation_size_query(void)
{
    size_t n = 0;
    picollo_status st = picollo_perf_emulation_describe(NULL, 0, &n);
    CHECK(n > 0);
    return st;
}
static picollo_status supported_emulated(void) { return picollo_perf_counter_supported("Emulated:Instructions"); }
static picollo_status supported_emulated_unknown(void) { return picollo_perf_counter_supported("Emulated:Cycles"); }
static picollo_status open_emulated_kernel(void)
{
    picollo_perf_session *s = NULL;
    picollo_perf_config c = picollo_perf_config_default();
    picollo_status st;
    c.include_kernel = 1;
    st = picollo_perf_session_new(&c, &s);
    if (CHECK(st == PICOLLO_STATUS_OK)) {
        CHECK(picollo_perf_session_add_named(s, "Emulated:Instructions") == PICOLLO_STATUS_OK);
        st = picollo_perf_session_open(s);
    }
    picollo_perf_session_free(s);
    return st;
}
static picollo_status bench_judge_apart_ok(void)
{
    const double runs[3] = {1000.0, 1010.0, 990.0};
    char buf[4096];
    return picollo_bench_judge_apart(br, runs, 3, buf, sizeof buf, NULL, NULL);
}
static picollo_status bench_judge_apart_null_b(void)
{
    const double runs[2] = {1000.0, 1010.0};
    char buf[4096];
    return picollo_bench_judge_apart(NULL, runs, 2, buf, sizeof buf, NULL, NULL);
}
static picollo_status bench_judge_apart_null_runs(void)
{
    char buf[4096];
    return picollo_bench_judge_apart(br, NULL, 2, buf, sizeof buf, NULL, NULL);
}
static picollo_status bench_judge_apart_zero_run(void)
{
    const double runs[2] = {1000.0, 0.0};
    char buf[4096];
    return picollo_bench_judge_apart(br, runs, 2, buf, sizeof buf, NULL, NULL);
}
static picollo_status bench_judge_apart_nan_run(void)
{
    const double runs[2] = {NAN, 1000.0};
    char buf[4096];
    return picollo_bench_judge_apart(br, runs, 2, buf, sizeof buf, NULL, NULL);
}
static picollo_status bench_judge_apart_small_buf(void)
{
    const double runs[2] = {1000.0, 1010.0};
    char buf[8];
    return picollo_bench_judge_apart(br, runs, 2, buf, sizeof buf, NULL, NULL);
}
static picollo_status bench_judge_apart_small_struct(void)
{
    const double runs[2] = {1000.0, 1010.0};
    char buf[4096];
    picollo_bench_comparison info;
    memset(&info, 0, sizeof info);
    info.struct_size = 8;
    return picollo_bench_judge_apart(br, runs, 2, buf, sizeof buf, NULL, &info);
}
/* A comparison struct of `struct_size` with a verdict of 77 (any output overwrites it). */
static picollo_bench_comparison comparison_of_size(size_t struct_size)
{
    picollo_bench_comparison info;
    memset(&info, 0, sizeof info);
    info.struct_size = (uint32_t)struct_size;
    info.verdict = 77;
    return info;
}
static picollo_status bench_info_null_a(void)
{
    picollo_bench_comparison info = comparison_of_size(sizeof info);
    return picollo_bench_compare_info(NULL, br, &info);
}
static picollo_status bench_info_null_b(void)
{
    picollo_bench_comparison info = comparison_of_size(sizeof info);
    return picollo_bench_compare_info(br, NULL, &info);
}
static picollo_status bench_info_null_out(void) { return picollo_bench_compare_info(br, br, NULL); }
static picollo_status bench_info_small(void)
{
    picollo_bench_comparison info = comparison_of_size(sizeof info - 8);
    picollo_status st = picollo_bench_compare_info(br, br, &info);
    CHECK(info.verdict == 77); /* written only on success */
    return st;
}
static picollo_status bench_info_ok(void)
{
    picollo_bench_comparison info = comparison_of_size(sizeof info);
    picollo_status st = picollo_bench_compare_info(br, br, &info);
    /* A result against itself is one measurement, paired with itself. */
    CHECK(info.struct_size == sizeof info && info.paired == 1 && info.ratio == 1.0);
    CHECK(info.verdict == PICOLLO_BENCH_VERDICT_NO_DIFFERENCE);
    return st;
}

/* ---- suites ---- */

/* A suite with one benchmark (bench_work), or NULL. */
static picollo_suite *suite_of_one(const char *name)
{
    picollo_suite *s = NULL;
    static uint64_t ops;
    CHECK(picollo_suite_new("bad-input", &s) == PICOLLO_STATUS_OK);
    CHECK(picollo_suite_add(s, name, bench_work, &ops) == PICOLLO_STATUS_OK);
    return s;
}
static picollo_status suite_new_null_name(void)
{
    picollo_suite *s = NULL;
    picollo_status st = picollo_suite_new(NULL, &s);
    CHECK(s == NULL);
    return st;
}
static picollo_status suite_new_null_out(void)
{
    return picollo_suite_new("x", NULL);
}
static picollo_status suite_new_bad_utf8(void)
{
    picollo_suite *s = NULL;
    picollo_status st = picollo_suite_new(bad_utf8, &s);
    CHECK(s == NULL);
    return st;
}
static picollo_status suite_free_null(void)
{
    picollo_suite_free(NULL);
    return PICOLLO_STATUS_OK;
}
static picollo_status suite_config_null_suite(void)
{
    picollo_bench_config c = bench_config();
    return picollo_suite_set_config(NULL, &c);
}
/* picollo_suite_set_config of a one-benchmark suite with bench_config() after `change`. */
#define SUITE_CONFIG_CASE(name, change)                                                      \
    static picollo_status name(void)                                                         \
    {                                                                                        \
        picollo_bench_config c = bench_config();                                             \
        picollo_suite *s = suite_of_one("a");                                                \
        change;                                                                              \
        picollo_status st = picollo_suite_set_config(s, &c);                                 \
        picollo_suite_free(s);                                                               \
        return st;                                                                           \
    }
SUITE_CONFIG_CASE(suite_config_size_0, c.struct_size = 0)
SUITE_CONFIG_CASE(suite_config_counter, c.counters = "Software:NoSuchThing")
SUITE_CONFIG_CASE(suite_config_ok, (void)0)
static picollo_status suite_config_null_config(void)
{
    picollo_suite *s = suite_of_one("a");
    picollo_status st = picollo_suite_set_config(s, NULL);
    picollo_suite_free(s);
    return st;
}
static picollo_status suite_add_null_suite(void)
{
    return picollo_suite_add(NULL, "a", bench_work, NULL);
}
/* picollo_suite_add of `name` and `work` to a new suite. */
static picollo_status suite_add(const char *name, picollo_bench_work work)
{
    picollo_suite *s = NULL;
    CHECK(picollo_suite_new("bad-input", &s) == PICOLLO_STATUS_OK);
    picollo_status st = picollo_suite_add(s, name, work, NULL);
    picollo_suite_free(s);
    return st;
}
static picollo_status suite_add_null_name(void) { return suite_add(NULL, bench_work); }
static picollo_status suite_add_null_work(void) { return suite_add("a", NULL); }
static picollo_status suite_add_bad_utf8(void) { return suite_add(bad_utf8, bench_work); }
static picollo_status suite_param_null_suite(void)
{
    return picollo_suite_add_param(NULL, "a", "1", bench_work, NULL);
}
/* picollo_suite_add_param of `name`, `param` and `work` to a new suite. */
static picollo_status suite_param(const char *name, const char *param, picollo_bench_work work)
{
    picollo_suite *s = NULL;
    CHECK(picollo_suite_new("bad-input", &s) == PICOLLO_STATUS_OK);
    picollo_status st = picollo_suite_add_param(s, name, param, work, NULL);
    picollo_suite_free(s);
    return st;
}
static picollo_status suite_param_null_name(void) { return suite_param(NULL, "1", bench_work); }
static picollo_status suite_param_null_param(void) { return suite_param("a", NULL, bench_work); }
static picollo_status suite_param_null_work(void) { return suite_param("a", "1", NULL); }
static picollo_status suite_param_bad_utf8(void) { return suite_param("a", bad_utf8, bench_work); }
static picollo_status suite_param_ok(void) { return suite_param("a", "1", bench_work); }
/* picollo_suite_set_throughput of benchmark `name` of a suite of one, "a". */
static picollo_status suite_throughput(const char *name, const char *unit, uint64_t n)
{
    picollo_suite *s = suite_of_one("a");
    picollo_status st = picollo_suite_set_throughput(s, name, NULL, unit, n);
    picollo_suite_free(s);
    return st;
}
static picollo_status suite_throughput_null_suite(void)
{
    return picollo_suite_set_throughput(NULL, "a", NULL, "bytes", 8);
}
static picollo_status suite_throughput_null_name(void) { return suite_throughput(NULL, "bytes", 8); }
static picollo_status suite_throughput_null_unit(void) { return suite_throughput("a", NULL, 8); }
static picollo_status suite_throughput_bad_utf8(void) { return suite_throughput("a", bad_utf8, 8); }
static picollo_status suite_throughput_unit(void) { return suite_throughput("a", "bits", 8); }
static picollo_status suite_throughput_zero(void) { return suite_throughput("a", "elements", 0); }
static picollo_status suite_throughput_unknown(void) { return suite_throughput("b", "bytes", 8); }
static picollo_status suite_throughput_ok(void) { return suite_throughput("a", "bytes", 8); }
/* picollo_suite_set_throughput of `name`/`param` of a suite of `a/1`. */
static picollo_status suite_throughput_param(const char *name, const char *param)
{
    picollo_suite *s = NULL;
    CHECK(picollo_suite_new("bad-input", &s) == PICOLLO_STATUS_OK);
    CHECK(picollo_suite_add_param(s, "a", "1", bench_work, NULL) == PICOLLO_STATUS_OK);
    picollo_status st = picollo_suite_set_throughput(s, name, param, "bytes", 8);
    picollo_suite_free(s);
    return st;
}
static picollo_status suite_throughput_param_ok(void) { return suite_throughput_param("a", "1"); }
static picollo_status suite_throughput_no_param(void) { return suite_throughput_param("a", "2"); }
static picollo_status suite_throughput_bad_param(void) { return suite_throughput_param("a", bad_utf8); }
/* picollo_suite_set_batch of benchmark `name` (`name`/`param`) of a suite of `a` and `a/1`. */
static picollo_status suite_batch(const char *name, const char *param, uint64_t batch)
{
    picollo_suite *s = suite_of_one("a");
    CHECK(picollo_suite_add_param(s, "a", "1", bench_work, NULL) == PICOLLO_STATUS_OK);
    picollo_status st = picollo_suite_set_batch(s, name, param, batch);
    picollo_suite_free(s);
    return st;
}
static picollo_status suite_batch_null_suite(void) { return picollo_suite_set_batch(NULL, "a", NULL, 7); }
static picollo_status suite_batch_null_name(void) { return suite_batch(NULL, NULL, 7); }
static picollo_status suite_batch_bad_utf8(void) { return suite_batch(bad_utf8, NULL, 7); }
static picollo_status suite_batch_bad_param(void) { return suite_batch("a", bad_utf8, 7); }
static picollo_status suite_batch_zero(void) { return suite_batch("a", NULL, 0); }
static picollo_status suite_batch_too_big(void) { return suite_batch("a", NULL, ((uint64_t)1 << 24) + 1); }
static picollo_status suite_batch_unknown(void) { return suite_batch("b", NULL, 7); }
static picollo_status suite_batch_no_param(void) { return suite_batch("a", "2", 7); }
static picollo_status suite_batch_ok(void) { return suite_batch("a", NULL, 7); }
static picollo_status suite_batch_param_ok(void) { return suite_batch("a", "1", (uint64_t)1 << 24); }
/* picollo_suite_set_manual_time of benchmark `name` (`name`/`param`) of a suite of `a` and `a/1`. */
static picollo_status suite_manual(const char *name, const char *param)
{
    picollo_suite *s = suite_of_one("a");
    CHECK(picollo_suite_add_param(s, "a", "1", bench_work, NULL) == PICOLLO_STATUS_OK);
    picollo_status st = picollo_suite_set_manual_time(s, name, param);
    picollo_suite_free(s);
    return st;
}
static picollo_status suite_manual_null_suite(void) { return picollo_suite_set_manual_time(NULL, "a", NULL); }
static picollo_status suite_manual_null_name(void) { return suite_manual(NULL, NULL); }
static picollo_status suite_manual_bad_utf8(void) { return suite_manual(bad_utf8, NULL); }
static picollo_status suite_manual_bad_param(void) { return suite_manual("a", bad_utf8); }
static picollo_status suite_manual_unknown(void) { return suite_manual("b", NULL); }
static picollo_status suite_manual_no_param(void) { return suite_manual("a", "2"); }
static picollo_status suite_manual_ok(void) { return suite_manual("a", NULL); }
static picollo_status suite_manual_param_ok(void) { return suite_manual("a", "1"); }
/* Outside a batch, a time told is dropped when the next batch starts; a bad one is refused. */
static picollo_status suite_iteration_time_negative(void) { return picollo_suite_set_iteration_time(-1e-9); }
static picollo_status suite_iteration_time_nan(void) { return picollo_suite_set_iteration_time(NAN); }
static picollo_status suite_iteration_time_inf(void) { return picollo_suite_set_iteration_time(INFINITY); }
static picollo_status suite_iteration_time_ok(void) { return picollo_suite_set_iteration_time(1e-6); }
/* picollo_suite_set_worker of a new suite with `argc` strings `argv`. */
static picollo_status suite_worker(const char *const *argv, size_t argc)
{
    picollo_suite *s = suite_of_one("a");
    picollo_status st = picollo_suite_set_worker(s, argv, argc);
    picollo_suite_free(s);
    return st;
}
static const char *const worker_argv[] = {"/usr/bin/python3", "-m", "picollo.suite_worker"};
static picollo_status suite_worker_null_suite(void)
{
    return picollo_suite_set_worker(NULL, worker_argv, 3);
}
static picollo_status suite_worker_null_argv(void) { return suite_worker(NULL, 3); }
static picollo_status suite_worker_no_program(void) { return suite_worker(worker_argv, 0); }
static picollo_status suite_worker_bad_utf8(void)
{
    const char *const argv[] = {"/bin/sh", bad_utf8};
    return suite_worker(argv, 2);
}
static picollo_status suite_worker_ok(void) { return suite_worker(worker_argv, 3); }
static picollo_status suite_fail_outside(void)
{
    return picollo_suite_fail("not inside a benchmark");
}
/* Outside a batch, in any order, pause and resume change nothing and cannot fail; one left
 * paused is dropped as the next batch starts. */
static picollo_status suite_pause_outside(void)
{
    picollo_suite_pause();
    picollo_suite_pause();
    picollo_suite_resume();
    return PICOLLO_STATUS_OK;
}
static picollo_status suite_resume_outside(void)
{
    picollo_suite_resume();
    picollo_suite_resume();
    picollo_suite_pause();
    return PICOLLO_STATUS_OK;
}
/* picollo_suite_main of `s` (freed) with `argc` arguments `argv`: its exit status must be
 * `want` (it prints what went wrong). */
static picollo_status suite_main_is(picollo_suite *s, int argc, const char *const *argv, int want)
{
    int status = picollo_suite_main(s, argc, argv);
    picollo_suite_free(s);
    CHECK(status == want);
    return PICOLLO_STATUS_OK;
}
static const char *const list_args[] = {"bad-input", "--list"};
static picollo_status suite_main_null_suite(void)
{
    return suite_main_is(NULL, 2, list_args, 2);
}
static picollo_status suite_main_negative_argc(void)
{
    return suite_main_is(suite_of_one("a"), -1, list_args, 2);
}
static picollo_status suite_main_null_argv(void)
{
    return suite_main_is(suite_of_one("a"), 2, NULL, 2);
}
static picollo_status suite_main_bad_utf8_arg(void)
{
    const char *const args[] = {"bad-input", bad_utf8};
    return suite_main_is(suite_of_one("a"), 2, args, 2);
}
static picollo_status suite_main_unknown_flag(void)
{
    const char *const args[] = {"bad-input", "--budgte", "1"};
    return suite_main_is(suite_of_one("a"), 3, args, 2);
}
static picollo_status suite_main_bad_budget(void)
{
    const char *const args[] = {"bad-input", "--budget", "-1"};
    return suite_main_is(suite_of_one("a"), 3, args, 2);
}
static picollo_status suite_main_empty_name(void)
{
    return suite_main_is(suite_of_one(""), 2, list_args, 2);
}
static picollo_status suite_main_no_match(void)
{
    const char *const args[] = {"bad-input", "--list", "nothing"};
    return suite_main_is(suite_of_one("a"), 3, args, 5);
}
static picollo_status suite_main_list(void)
{
    return suite_main_is(suite_of_one("a"), 2, list_args, 0);
}
/* ---- the table ---- */

#define NULLP ST(NULL_POINTER)
#define INVAL ST(INVALID_ARGUMENT)
#define OK ST(OK)
#define SIZE ST(STRUCT_SIZE)
#define SMALL ST(BUFFER_TOO_SMALL)
#define FORMAT ST(FORMAT_ERROR)
#define UNENC ST(UNENCODABLE)

/* ---- the float histogram ---- */

static picollo_status fnew_with(picollo_float_config c)
{
    picollo_float_histogram *x = NULL;
    picollo_status st = picollo_float_histogram_new(&c, &x);
    picollo_float_histogram_free(x);
    return st;
}
/* picollo_float_histogram_new on the default config after `change`. */
#define FNEW_CASE(name, change) \
    CONFIG_CASE(name, picollo_float_config, picollo_float_config_default(), change, fnew_with(c))
static picollo_status fnew_null_config(void)
{
    picollo_float_histogram *x = NULL;
    return picollo_float_histogram_new(NULL, &x);
}
static picollo_status fnew_null_out(void)
{
    picollo_float_config c = picollo_float_config_default();
    return picollo_float_histogram_new(&c, NULL);
}
FNEW_CASE(fnew_small_struct, c.struct_size = 4)
FNEW_CASE(fnew_error_nan, c.relative_error = NAN)
FNEW_CASE(fnew_min_zero, c.min_magnitude = 0.0)
FNEW_CASE(fnew_min_above_max, c.min_magnitude = 2.0; c.max_magnitude = 1.0)
FNEW_CASE(fnew_max_inf, c.max_magnitude = INFINITY)
FNEW_CASE(fnew_min_nan, c.min_magnitude = NAN)
FNEW_CASE(fnew_bits, c.counter_bits = 16)
FNEW_CASE(fnew_storage, c.storage = UINT32_MAX)
FNEW_CASE(fnew_mode, c.mode = 2)
FNEW_CASE(fnew_selection, c.value_selection = 9)
FNEW_CASE(fnew_reserved, c.reserved = 1)
static picollo_status fconfig_default(void)
{
    picollo_float_config c = picollo_float_config_default();
    CHECK(c.struct_size == sizeof c && c.relative_error == 0.001);
    return PICOLLO_STATUS_OK;
}
static picollo_status ffree_null(void)
{
    picollo_float_histogram_free(NULL);
    return PICOLLO_STATUS_OK;
}
static picollo_status frecord_null(void)
{
    picollo_float_histogram_record(NULL, 1.0);
    picollo_float_histogram_record(NULL, NAN);
    return PICOLLO_STATUS_OK;
}
static picollo_status frecord_extremes(void)
{
    /* Every special double lands somewhere, nothing is lost. */
    picollo_float_config c = picollo_float_config_default();
    picollo_float_histogram *x = NULL;
    picollo_float_info i;
    const double odd[] = {NAN, -NAN, INFINITY, -INFINITY, 0.0, -0.0, 5e-324, -5e-324,
                          DBL_MAX, -DBL_MAX, DBL_MIN, -DBL_MIN};
    c.min_magnitude = 1e-300;
    c.max_magnitude = 1e300;
    CHECK(picollo_float_histogram_new(&c, &x) == PICOLLO_STATUS_OK);
    for (size_t k = 0; k < sizeof odd / sizeof odd[0]; k++) {
        picollo_float_histogram_record(x, odd[k]);
    }
    CHECK(picollo_float_histogram_get_info(x, &i) == PICOLLO_STATUS_OK);
    CHECK(i.nan == 2 && i.positive_infinity == 1 && i.negative_infinity == 1);
    CHECK(i.zero == 2 && i.total == 2 && i.underflow == 4 && i.overflow == 2);
    picollo_float_histogram_free(x);
    return PICOLLO_STATUS_OK;
}
static picollo_status frecord_f32_null(void)
{
    picollo_float_histogram_record_f32(NULL, 1.0f);
    return PICOLLO_STATUS_OK;
}
static picollo_status frecord_f32_nan(void)
{
    picollo_float_histogram_record_f32(fempty, NAN);
    return PICOLLO_STATUS_OK;
}
static picollo_status frecord_n_null(void)
{
    picollo_float_histogram_record_n(NULL, 1.0, UINT64_MAX);
    return PICOLLO_STATUS_OK;
}
static picollo_status frecord_n_saturates(void)
{
    picollo_float_config c = picollo_float_config_default();
    picollo_float_histogram *x = NULL;
    picollo_float_info i;
    c.counter_bits = 32;
    CHECK(picollo_float_histogram_new(&c, &x) == PICOLLO_STATUS_OK);
    picollo_float_histogram_record_n(x, 3.0, UINT64_MAX);
    CHECK(picollo_float_histogram_get_info(x, &i) == PICOLLO_STATUS_OK);
    CHECK(i.total == UINT32_MAX && i.saturated == UINT64_MAX - UINT32_MAX);
    picollo_float_histogram_free(x);
    return PICOLLO_STATUS_OK;
}
static picollo_status frecord_many_null_h(void)
{
    const double v[] = {1.0};
    return picollo_float_histogram_record_many(NULL, v, 1);
}
static picollo_status frecord_many_null_values(void)
{
    return picollo_float_histogram_record_many(fempty, NULL, 3);
}
static picollo_status frecord_many_f32_null_values(void)
{
    return picollo_float_histogram_record_many_f32(fempty, NULL, 3);
}
static picollo_status frecord_many_f32_null_h(void)
{
    const float v[] = {1.0f};
    return picollo_float_histogram_record_many_f32(NULL, v, 1);
}
static picollo_status freset_null(void) { return picollo_float_histogram_reset(NULL); }
static picollo_status fselection_null(void) { return picollo_float_histogram_set_value_selection(NULL, 0); }
static picollo_status fselection_bad(void) { return picollo_float_histogram_set_value_selection(fempty, 7); }
static picollo_status fadd_null_dst(void) { return picollo_float_histogram_add(NULL, fh); }
static picollo_status fadd_null_src(void) { return picollo_float_histogram_add(fempty, NULL); }
static picollo_status fadd_same(void) { return picollo_float_histogram_add(fh, fh); }
static picollo_status fadd_mismatch(void) { return picollo_float_histogram_add(fempty, fcoarse); }
static picollo_status finfo_null_h(void)
{
    picollo_float_info i;
    return picollo_float_histogram_get_info(NULL, &i);
}
static picollo_status finfo_null_out(void) { return picollo_float_histogram_get_info(fh, NULL); }
static picollo_status fpercentile_nan(void)
{
    picollo_float_percentile p;
    return picollo_float_histogram_percentile(fh, NAN, &p);
}
static picollo_status fpercentile_above(void)
{
    picollo_float_percentile p;
    return picollo_float_histogram_percentile(fh, 100.5, &p);
}
static picollo_status fpercentile_empty(void)
{
    picollo_float_percentile p;
    return picollo_float_histogram_percentile(fempty, 50.0, &p);
}
static picollo_status fpercentile_null_out(void) { return picollo_float_histogram_percentile(fh, 50.0, NULL); }
static picollo_status fpercentiles_unordered(void)
{
    const double r[] = {50.0, 10.0};
    picollo_float_percentile p[2];
    return picollo_float_histogram_percentiles(fh, r, 2, p);
}
static picollo_status fpercentiles_null_ranks(void)
{
    picollo_float_percentile p[2];
    return picollo_float_histogram_percentiles(fh, NULL, 2, p);
}
static picollo_status fsummary_null(void)
{
    picollo_float_summary s;
    return picollo_float_histogram_summary(NULL, &s);
}
static picollo_status fsummary_null_out(void) { return picollo_float_histogram_summary(fh, NULL); }
static picollo_status frebinned_null_dst(void) { return picollo_float_histogram_add_rebinned(NULL, fh); }
static picollo_status frebinned_null_src(void) { return picollo_float_histogram_add_rebinned(fempty, NULL); }
static picollo_status frebinned_same(void) { return picollo_float_histogram_add_rebinned(fh, fh); }
static picollo_status fdownsample_with(picollo_float_histogram *of, double relative_error)
{
    picollo_float_histogram *out = NULL;
    picollo_status st = picollo_float_histogram_downsample(of, relative_error, &out);
    CHECK(out == NULL);
    return st;
}
static picollo_status fdownsample_nan(void) { return fdownsample_with(fh, NAN); }
static picollo_status fdownsample_zero(void) { return fdownsample_with(fh, 0.0); }
static picollo_status fdownsample_finer(void) { return fdownsample_with(fh, 1e-5); }
static picollo_status fdownsample_inf(void) { return fdownsample_with(fh, INFINITY); }
static picollo_status fdownsample_null_h(void) { return fdownsample_with(NULL, 0.01); }
static picollo_status fdownsample_null_out(void) { return picollo_float_histogram_downsample(fh, 0.01, NULL); }
static picollo_status frank_nan(void)
{
    double v;
    return picollo_float_histogram_rank_of(fh, NAN, &v);
}
static picollo_status frank_null_out(void) { return picollo_float_histogram_rank_of(fh, 1.0, NULL); }
static picollo_status fquantile_empty(void)
{
    double v;
    return picollo_float_histogram_quantile_of(fempty, 1.0, &v);
}
static picollo_status fquantile_nan(void)
{
    double v;
    return picollo_float_histogram_quantile_of(fh, NAN, &v);
}
static picollo_status fbetween_reversed(void)
{
    uint64_t n;
    return picollo_float_histogram_count_between(fh, 2.0, 1.0, &n);
}
static picollo_status fbetween_nan(void)
{
    uint64_t n;
    return picollo_float_histogram_count_between(fh, NAN, 1.0, &n);
}
static picollo_status fbetween_null_out(void) { return picollo_float_histogram_count_between(fh, 0.0, 1.0, NULL); }
static picollo_status fequivalent_nan(void)
{
    double lo, hi;
    return picollo_float_histogram_equivalent_range(fh, NAN, &lo, &hi);
}
static picollo_status fequivalent_inf(void)
{
    double lo, hi;
    return picollo_float_histogram_equivalent_range(fh, -INFINITY, &lo, &hi);
}
static picollo_status fequivalent_outside(void)
{
    double lo, hi;
    return picollo_float_histogram_equivalent_range(fcoarse, 1e9, &lo, &hi);
}
static picollo_status fequivalent_null_outs(void)
{
    return picollo_float_histogram_equivalent_range(fh, 3.0, NULL, NULL);
}
static picollo_status fbuckets_null_cursor(void)
{
    picollo_float_bucket b[2];
    size_t w;
    return picollo_float_histogram_next_buckets(fh, NULL, b, 2, &w);
}
static picollo_status fbuckets_zero_capacity(void)
{
    picollo_float_bucket b[2];
    uint64_t cursor = 0;
    size_t w;
    return picollo_float_histogram_next_buckets(fh, &cursor, b, 0, &w);
}
static picollo_status fbuckets_null_out(void)
{
    uint64_t cursor = 0;
    size_t w;
    return picollo_float_histogram_next_buckets(fh, &cursor, NULL, 4, &w);
}
static picollo_status fbuckets_done(void)
{
    picollo_float_bucket b[2];
    uint64_t cursor = 0;
    size_t w;
    return picollo_float_histogram_next_buckets(fempty, &cursor, b, 2, &w);
}
static picollo_status ftext_format(void)
{
    char buf[64];
    return picollo_float_histogram_text(fh, 9, NULL, buf, sizeof buf, NULL);
}
static picollo_status ftext_utf8(void)
{
    char buf[64];
    return picollo_float_histogram_text(fh, 0, bad_utf8, buf, sizeof buf, NULL);
}
static picollo_status ftext_null_buf(void) { return picollo_float_histogram_text(fh, 0, NULL, NULL, 10, NULL); }
static picollo_status ftext_small(void)
{
    char buf[8];
    return picollo_float_histogram_text(fh, 0, NULL, buf, sizeof buf, NULL);
}
static picollo_status fsummary_table_null(void)
{
    char buf[64];
    return picollo_float_summary_table(NULL, NULL, buf, sizeof buf, NULL);
}
static picollo_status fsummary_table_utf8(void)
{
    picollo_float_summary s;
    char buf[64];
    memset(&s, 0, sizeof s);
    return picollo_float_summary_table(&s, bad_utf8, buf, sizeof buf, NULL);
}
static picollo_status fsummary_line_null(void)
{
    char buf[64];
    return picollo_float_summary_line(NULL, NULL, buf, sizeof buf, NULL);
}
static picollo_status fsummary_line_utf8(void)
{
    picollo_float_summary s;
    char buf[64];
    memset(&s, 0, sizeof s);
    return picollo_float_summary_line(&s, bad_utf8, buf, sizeof buf, NULL);
}
static picollo_status fsummary_line_null_buf(void)
{
    picollo_float_summary s;
    memset(&s, 0, sizeof s);
    return picollo_float_summary_line(&s, "x", NULL, 64, NULL);
}
static picollo_status fsummary_json_null(void)
{
    char buf[64];
    return picollo_float_summary_json(NULL, buf, sizeof buf, NULL);
}
static picollo_status fsummary_json_null_buf(void)
{
    picollo_float_summary s;
    memset(&s, 0, sizeof s);
    return picollo_float_summary_json(&s, NULL, 64, NULL);
}
/* A garbage float summary (NaN, infinities, all-ones counts) writes JSON without failing. */
static picollo_status fsummary_json_garbage(void)
{
    picollo_float_summary s;
    static char big_text[16384];
    memset(&s, 0xFF, sizeof s);
    s.sum = INFINITY;
    s.min = -INFINITY;
    s.precision = -1e300;
    return picollo_float_summary_json(&s, big_text, sizeof big_text, NULL);
}
static picollo_status fsummary_diff_null(void)
{
    picollo_float_summary s;
    char buf[64];
    memset(&s, 0, sizeof s);
    return picollo_float_summary_diff(&s, NULL, NULL, NULL, NULL, buf, sizeof buf, NULL);
}
static picollo_status fsummary_diff_utf8(void)
{
    picollo_float_summary s;
    char buf[64];
    memset(&s, 0, sizeof s);
    return picollo_float_summary_diff(&s, &s, NULL, bad_utf8, NULL, buf, sizeof buf, NULL);
}
static picollo_status fsnap_new_null(void)
{
    picollo_float_snapshot *x = NULL;
    return picollo_float_snapshot_new(NULL, &x);
}
static picollo_status fsnap_new_null_out(void) { return picollo_float_snapshot_new(fh, NULL); }
static picollo_status fsnap_free_null(void)
{
    picollo_float_snapshot_free(NULL);
    return PICOLLO_STATUS_OK;
}
static picollo_status fsnap_update_null(void) { return picollo_float_snapshot_update(NULL, fh, 1); }
static picollo_status fsnap_update_mismatch(void) { return picollo_float_snapshot_update(fsnap, fcoarse, 0); }
static picollo_status fsnap_update_shrinking(void)
{
    /* Deltas against a histogram with fewer counts than the snapshot's last copy. */
    return picollo_float_snapshot_update(fsnap, fempty, 1);
}
static picollo_status fsnap_summary_null(void)
{
    picollo_float_summary s;
    return picollo_float_snapshot_summary(NULL, &s);
}
static picollo_status fsnap_summary_null_out(void) { return picollo_float_snapshot_summary(fsnap, NULL); }

static const bad_row rows[] = {
    ROW(picollo_float_config_default, fconfig_default, OK, NULL),
    ROW(picollo_float_histogram_new, fnew_null_config, NULLP, "`config`"),
    ROW(picollo_float_histogram_new, fnew_null_out, NULLP, "`out`"),
    ROW(picollo_float_histogram_new, fnew_small_struct, ST(STRUCT_SIZE), "struct_size"),
    ROW(picollo_float_histogram_new, fnew_error_nan, INVAL, "relative error"),
    ROW(picollo_float_histogram_new, fnew_min_zero, INVAL, "magnitude"),
    ROW(picollo_float_histogram_new, fnew_min_above_max, INVAL, "magnitude"),
    ROW(picollo_float_histogram_new, fnew_max_inf, INVAL, "magnitude"),
    ROW(picollo_float_histogram_new, fnew_min_nan, INVAL, "magnitude"),
    ROW(picollo_float_histogram_new, fnew_bits, INVAL, "counter_bits"),
    ROW(picollo_float_histogram_new, fnew_storage, INVAL, "storage 4294967295 is unknown: it must be a picollo_float_storage"),
    ROW(picollo_float_histogram_new, fnew_mode, INVAL, "mode"),
    ROW(picollo_float_histogram_new, fnew_selection, INVAL, "value_selection"),
    ROW(picollo_float_histogram_new, fnew_reserved, INVAL, "reserved"),
    ROW(picollo_float_histogram_free, ffree_null, OK, NULL),
    ROW(picollo_float_histogram_record, frecord_null, OK, NULL),
    ROW(picollo_float_histogram_record, frecord_extremes, OK, NULL),
    ROW(picollo_float_histogram_record_f32, frecord_f32_null, OK, NULL),
    ROW(picollo_float_histogram_record_f32, frecord_f32_nan, OK, NULL),
    ROW(picollo_float_histogram_record_n, frecord_n_null, OK, NULL),
    ROW(picollo_float_histogram_record_n, frecord_n_saturates, OK, NULL),
    ROW(picollo_float_histogram_record_many, frecord_many_null_h, NULLP, "`h`"),
    ROW(picollo_float_histogram_record_many, frecord_many_null_values, NULLP, "`values`"),
    ROW(picollo_float_histogram_record_many_f32, frecord_many_f32_null_h, NULLP, "`h`"),
    ROW(picollo_float_histogram_record_many_f32, frecord_many_f32_null_values, NULLP, "`values`"),
    ROW(picollo_float_histogram_reset, freset_null, NULLP, "`h`"),
    ROW(picollo_float_histogram_set_value_selection, fselection_null, NULLP, "`h`"),
    ROW(picollo_float_histogram_set_value_selection, fselection_bad, INVAL, "7"),
    ROW(picollo_float_histogram_add, fadd_null_dst, NULLP, "`dst`"),
    ROW(picollo_float_histogram_add, fadd_null_src, NULLP, "`src`"),
    ROW(picollo_float_histogram_add, fadd_same, INVAL, "same"),
    ROW(picollo_float_histogram_add, fadd_mismatch, ST(LAYOUT_MISMATCH), NULL),
    ROW(picollo_float_histogram_add_rebinned, frebinned_null_dst, NULLP, "`dst`"),
    ROW(picollo_float_histogram_add_rebinned, frebinned_null_src, NULLP, "`src`"),
    ROW(picollo_float_histogram_add_rebinned, frebinned_same, INVAL, "same"),
    ROW(picollo_float_histogram_downsample, fdownsample_nan, INVAL, "NaN"),
    ROW(picollo_float_histogram_downsample, fdownsample_zero, INVAL, NULL),
    ROW(picollo_float_histogram_downsample, fdownsample_finer, ST(LAYOUT_MISMATCH), "coarse"),
    ROW(picollo_float_histogram_downsample, fdownsample_inf, INVAL, "inf"),
    ROW(picollo_float_histogram_downsample, fdownsample_null_h, NULLP, "`h`"),
    ROW(picollo_float_histogram_downsample, fdownsample_null_out, NULLP, "`out`"),
    ROW(picollo_float_histogram_get_info, finfo_null_h, NULLP, "`h`"),
    ROW(picollo_float_histogram_get_info, finfo_null_out, NULLP, "`out`"),
    ROW(picollo_float_histogram_percentile, fpercentile_nan, INVAL, "NaN"),
    ROW(picollo_float_histogram_percentile, fpercentile_above, INVAL, "100.5"),
    ROW(picollo_float_histogram_percentile, fpercentile_empty, ST(EMPTY), NULL),
    ROW(picollo_float_histogram_percentile, fpercentile_null_out, NULLP, "`out`"),
    ROW(picollo_float_histogram_percentiles, fpercentiles_unordered, INVAL, "increasing"),
    ROW(picollo_float_histogram_percentiles, fpercentiles_null_ranks, NULLP, "`ranks`"),
    ROW(picollo_float_histogram_summary, fsummary_null, NULLP, "`h`"),
    ROW(picollo_float_histogram_summary, fsummary_null_out, NULLP, "`out`"),
    ROW(picollo_float_histogram_rank_of, frank_nan, INVAL, "NaN"),
    ROW(picollo_float_histogram_rank_of, frank_null_out, NULLP, "`out`"),
    ROW(picollo_float_histogram_quantile_of, fquantile_empty, ST(EMPTY), NULL),
    ROW(picollo_float_histogram_quantile_of, fquantile_nan, INVAL, "NaN"),
    ROW(picollo_float_histogram_count_between, fbetween_reversed, INVAL, NULL),
    ROW(picollo_float_histogram_count_between, fbetween_nan, INVAL, "NaN"),
    ROW(picollo_float_histogram_count_between, fbetween_null_out, NULLP, "`out`"),
    ROW(picollo_float_histogram_equivalent_range, fequivalent_nan, INVAL, "finite"),
    ROW(picollo_float_histogram_equivalent_range, fequivalent_inf, INVAL, "finite"),
    ROW(picollo_float_histogram_equivalent_range, fequivalent_outside, ST(OUT_OF_RANGE), "outside"),
    ROW(picollo_float_histogram_equivalent_range, fequivalent_null_outs, OK, NULL),
    ROW(picollo_float_histogram_next_buckets, fbuckets_null_cursor, NULLP, "`cursor`"),
    ROW(picollo_float_histogram_next_buckets, fbuckets_zero_capacity, INVAL, "capacity"),
    ROW(picollo_float_histogram_next_buckets, fbuckets_null_out, NULLP, "`out`"),
    ROW(picollo_float_histogram_next_buckets, fbuckets_done, ST(OUT_OF_RANGE), NULL),
    ROW(picollo_float_histogram_text, ftext_format, INVAL, "format"),
    ROW(picollo_float_histogram_text, ftext_utf8, ST(INVALID_UTF8), NULL),
    ROW(picollo_float_histogram_text, ftext_null_buf, NULLP, "`buf`"),
    ROW(picollo_float_histogram_text, ftext_small, ST(BUFFER_TOO_SMALL), NULL),
    ROW(picollo_float_summary_table, fsummary_table_null, NULLP, "`summary`"),
    ROW(picollo_float_summary_table, fsummary_table_utf8, ST(INVALID_UTF8), NULL),
    ROW(picollo_float_summary_line, fsummary_line_null, NULLP, "`summary`"),
    ROW(picollo_float_summary_line, fsummary_line_utf8, ST(INVALID_UTF8), NULL),
    ROW(picollo_float_summary_line, fsummary_line_null_buf, NULLP, "`buf`"),
    ROW(picollo_float_summary_json, fsummary_json_null, NULLP, "`summary`"),
    ROW(picollo_float_summary_json, fsummary_json_null_buf, NULLP, "`buf`"),
    ROW(picollo_float_summary_json, fsummary_json_garbage, OK, NULL),
    ROW(picollo_float_summary_diff, fsummary_diff_null, NULLP, "`b`"),
    ROW(picollo_float_summary_diff, fsummary_diff_utf8, ST(INVALID_UTF8), NULL),
    ROW(picollo_float_snapshot_new, fsnap_new_null, NULLP, "`h`"),
    ROW(picollo_float_snapshot_new, fsnap_new_null_out, NULLP, "`out`"),
    ROW(picollo_float_snapshot_free, fsnap_free_null, OK, NULL),
    ROW(picollo_float_snapshot_update, fsnap_update_null, NULLP, "`s`"),
    ROW(picollo_float_snapshot_update, fsnap_update_mismatch, ST(LAYOUT_MISMATCH), NULL),
    ROW(picollo_float_snapshot_update, fsnap_update_shrinking, ST(WOULD_GO_NEGATIVE), NULL),
    ROW(picollo_float_snapshot_summary, fsnap_summary_null, NULLP, "`s`"),
    ROW(picollo_float_snapshot_summary, fsnap_summary_null_out, NULLP, "`out`"),
    ROW(picollo_abi_version, abi_version, OK, NULL),
    ROW(picollo_status_str, status_str_unknown, OK, NULL),
    ROW(picollo_last_error_message, last_error_after_failure, OK, NULL),

    ROW(picollo_approx_counter_new, approx_new_null_out, NULLP, "`out`"),
    ROW(picollo_approx_counter_new, approx_new_threshold_63, INVAL, "threshold"),
    ROW(picollo_approx_counter_new, approx_new_threshold_max, INVAL, "4294967295"),
    ROW(picollo_approx_counter_new, approx_new_shift_63, INVAL, "max_shift"),
    ROW(picollo_approx_counter_new, approx_new_exact_2, INVAL, "exact_when_uncontended"),
    ROW(picollo_approx_counter_new, approx_new_limits, OK, NULL),
    ROW(picollo_approx_counter_free, approx_free_null, OK, NULL),
    ROW(picollo_approx_counter_increment, approx_increment_null, OK, NULL),
    ROW(picollo_approx_counter_add, approx_add_null, OK, NULL),
    ROW(picollo_approx_counter_add, approx_add_saturates, OK, NULL),
    ROW(picollo_approx_counter_get, approx_get_null_counter, NULLP, "`c`"),
    ROW(picollo_approx_counter_get, approx_get_null_out, NULLP, "`out`"),
    ROW(picollo_approx_counter_reset, approx_reset_null_counter, NULLP, "`c`"),
    ROW(picollo_approx_counter_reset, approx_reset_null_taken, OK, NULL),
    ROW(picollo_approx_counter_policy, approx_policy_null_counter, NULLP, "`c`"),
    ROW(picollo_approx_counter_policy, approx_policy_null_outputs, OK, NULL),

    ROW(picollo_histogram_new, hist_new_null_config, NULLP, "`config`"),
    ROW(picollo_histogram_new, hist_new_null_out, NULLP, "`out`"),
    ROW(picollo_histogram_new, hist_new_size_0, SIZE, "struct_size is 0"),
    ROW(picollo_histogram_new, hist_new_size_1, SIZE, "struct_size is 1 "),
    ROW(picollo_histogram_new, hist_new_size_short, SIZE, "struct_size"),
    ROW(picollo_histogram_new, hist_new_size_4097, SIZE, "4096"),
    ROW(picollo_histogram_new, hist_new_size_max, SIZE, "4294967295"),
    ROW(picollo_histogram_new, hist_new_size_4096_garbage, SIZE, "zero"),
    ROW(picollo_histogram_new, hist_new_size_4096_zeros, OK, NULL),
    ROW(picollo_histogram_new, hist_new_lowest_too_wide, INVAL, "must be 1..=36028797018963967"),
    ROW(picollo_histogram_new, hist_new_lowest_max, INVAL, "lowest discernible value 18446744073709551615"),
    ROW(picollo_histogram_new, hist_new_lowest_0, OK, NULL),
    ROW(picollo_histogram_new, hist_new_error_nan, INVAL, "relative error NaN"),
    ROW(picollo_histogram_new, hist_new_error_inf, INVAL, "relative error inf"),
    ROW(picollo_histogram_new, hist_new_error_minus_inf, INVAL, "relative error -inf"),
    ROW(picollo_histogram_new, hist_new_error_zero, INVAL, "relative error 0 "),
    ROW(picollo_histogram_new, hist_new_error_negative, INVAL, "relative error -0.001 "),
    ROW(picollo_histogram_new, hist_new_error_minus_1e300, INVAL, "relative error -1e300 "),
    ROW(picollo_histogram_new, hist_new_error_1e300, OK, NULL), /* clamped to 0.1 */
    ROW(picollo_histogram_new, hist_new_error_tiny, OK, NULL),  /* clamped to 1e-6 */
    ROW(picollo_histogram_new, hist_new_min_above_max, INVAL, "18446744073709551615 is above"),
    ROW(picollo_histogram_new, hist_new_range_0_0, OK, NULL),
    ROW(picollo_histogram_new, hist_new_range_max_max, OK, NULL),
    ROW(picollo_histogram_new, hist_new_bits_0, INVAL, "counter_bits"),
    ROW(picollo_histogram_new, hist_new_bits_16, INVAL, "16"),
    ROW(picollo_histogram_new, hist_new_bits_max, INVAL, "4294967295"),
    ROW(picollo_histogram_new, hist_new_selection_4, INVAL, "value_selection"),
    ROW(picollo_histogram_new, hist_new_selection_max, INVAL, "4294967295"),
    ROW(picollo_histogram_new, hist_new_mode_4, INVAL, "mode"),
    ROW(picollo_histogram_new, hist_new_mode_max, INVAL, "4294967295"),
    ROW(picollo_histogram_new, hist_new_threshold_63, INVAL, "approx_threshold"),
    ROW(picollo_histogram_new, hist_new_threshold_max, INVAL, "4294967295"),
    ROW(picollo_histogram_new, hist_new_threshold_wrong_mode, INVAL, "approx_threshold"),
    ROW(picollo_histogram_new, hist_new_storage_2, INVAL, "storage 2 is unknown: it must be a picollo_storage"),
    ROW(picollo_histogram_new, hist_new_sparse_thread_local, INVAL, "thread-local"),
    ROW(picollo_histogram_config_default, hist_config_default, OK, NULL),
    ROW(picollo_histogram_free, hist_free_null, OK, NULL),

    ROW(picollo_histogram_record, record_null, OK, NULL),
    ROW(picollo_histogram_record, record_extremes, OK, NULL),
    ROW(picollo_histogram_record_inline, record_inline_null, OK, NULL),
    ROW(picollo_histogram_record_inline, record_inline_extremes, OK, NULL),
    ROW(picollo_histogram_record_fn, record_fn_null, OK, NULL),
    ROW(picollo_histogram_record_fn, record_fn_extremes, OK, NULL),
    ROW(picollo_histogram_get_recorder, recorder_null_h, NULLP, "`h`"),
    ROW(picollo_histogram_get_recorder, recorder_null_out, NULLP, "`out`"),
    ROW(picollo_histogram_get_recorder, recorder_version_0, INVAL, "PICOLLO_RECORDER_VERSION"),
    ROW(picollo_histogram_get_recorder, recorder_version_next, ST(UNSUPPORTED), "newer"),
    ROW(picollo_histogram_get_recorder, recorder_version_max, ST(UNSUPPORTED), "4294967295"),
    ROW(picollo_histogram_recorder, recorder_v1_null_h, NULLP, "`h`"),
    ROW(picollo_histogram_recorder, recorder_v1_unit, OK, NULL),
    ROW(picollo_recorder_record, recorder_record_extremes, OK, NULL),
    ROW(picollo_recorder_index, recorder_index_extremes, OK, NULL),
    ROW(picollo_recorder_of, recorder_of_null_h, NULLP, "`h`"),
    ROW(picollo_recorder_of, recorder_of_null_status, OK, NULL),
    ROW(picollo_recorder_of, recorder_of_extremes, OK, NULL),
    ROW(picollo_histogram_record_n, record_n_null, OK, NULL),
    ROW(picollo_histogram_record_n, record_n_saturates, OK, NULL),
    ROW(picollo_histogram_record_corrected, record_corrected_null, OK, NULL),
    ROW(picollo_histogram_record_corrected, record_corrected_extremes, OK, NULL),
    ROW(picollo_histogram_record_many, record_many_null_h, NULLP, "`h`"),
    ROW(picollo_histogram_record_many, record_many_null_values, NULLP, "`values`"),
    ROW(picollo_histogram_record_many, record_many_null_values_max, NULLP, "`values`"),
    ROW(picollo_histogram_record_many, record_many_null_values_0, OK, NULL),
    ROW(picollo_histogram_record_many, record_many_huge_n, INVAL, "`values`"),
    ROW(picollo_histogram_record_many_i64, record_many_i64_null_h, NULLP, "`h`"),
    ROW(picollo_histogram_record_many_i64, record_many_i64_null_values, NULLP, "`values`"),
    ROW(picollo_histogram_record_many_i64, record_many_i64_huge_n, INVAL, "`values`"),
    ROW(picollo_histogram_record_many_i64, record_many_i64_min, INVAL, "values[2] is negative (-9223372036854775808)"),
    ROW(picollo_histogram_reset, reset_null, NULLP, "`h`"),
    ROW(picollo_histogram_set_value_selection, selection_null, NULLP, "`h`"),
    ROW(picollo_histogram_set_value_selection, selection_4, INVAL, "selection"),
    ROW(picollo_histogram_set_value_selection, selection_max, INVAL, "4294967295"),
    ROW(picollo_histogram_get_info, info_null_h, NULLP, "`h`"),
    ROW(picollo_histogram_get_info, info_null_out, NULLP, "`out`"),

    ROW(picollo_histogram_get_storage, storage_null_h, NULLP, "`h`"),
    ROW(picollo_histogram_get_storage, storage_null_out, NULLP, "`out`"),
    ROW(picollo_histogram_get_unit, unit_null_h, NULLP, "`h`"),
    ROW(picollo_histogram_get_unit, unit_null_out, NULLP, "`out`"),
    ROW(picollo_histogram_exact_extremes, extremes_null_h, NULLP, "`h`"),
    ROW(picollo_histogram_exact_extremes, extremes_untracked, ST(UNSUPPORTED), "exact_extremes = 1"),
    ROW(picollo_histogram_exact_extremes, extremes_empty, ST(EMPTY), "range"),
    ROW(picollo_histogram_exact_extremes, extremes_null_outs, OK, NULL),
    ROW(picollo_histogram_add, add_null_dst, NULLP, "`dst`"),
    ROW(picollo_histogram_add, add_null_src, NULLP, "`src`"),
    ROW(picollo_histogram_add, add_same, INVAL, "same"),
    ROW(picollo_histogram_add, add_mismatch, ST(LAYOUT_MISMATCH), "precision"),
    ROW(picollo_histogram_subtract, subtract_null_dst, NULLP, "`dst`"),
    ROW(picollo_histogram_subtract, subtract_null_src, NULLP, "`src`"),
    ROW(picollo_histogram_subtract, subtract_same, INVAL, "same"),
    ROW(picollo_histogram_subtract, subtract_mismatch, ST(LAYOUT_MISMATCH), "precision"),
    ROW(picollo_histogram_subtract, subtract_negative, ST(WOULD_GO_NEGATIVE), "negative"),
    ROW(picollo_histogram_subtract, subtract_shared, ST(UNSUPPORTED), "single-writer"),

    ROW(picollo_histogram_rank_of, rank_null_h, NULLP, "`h`"),
    ROW(picollo_histogram_rank_of, rank_null_out, NULLP, "`out`"),
    ROW(picollo_histogram_quantile_of, quantile_of_empty, ST(EMPTY), NULL),
    ROW(picollo_histogram_quantile_of, quantile_of_null_out, NULLP, "`out`"),
    ROW(picollo_histogram_count_between, between_reversed, INVAL, NULL),
    ROW(picollo_histogram_count_between, between_null_out, NULLP, "`out`"),
    ROW(picollo_histogram_equivalent_range, equivalent_null_h, NULLP, "`h`"),
    ROW(picollo_histogram_equivalent_range, equivalent_extremes, OK, NULL),
    ROW(picollo_histogram_add_rebinned, rebinned_null_dst, NULLP, "`dst`"),
    ROW(picollo_histogram_add_rebinned, rebinned_null_src, NULLP, "`src`"),
    ROW(picollo_histogram_downsample, downsample_nan, INVAL, "NaN"),
    ROW(picollo_histogram_downsample, downsample_zero, INVAL, NULL),
    ROW(picollo_histogram_downsample, downsample_finer, ST(LAYOUT_MISMATCH), "coarse"),
    ROW(picollo_histogram_downsample, downsample_inf, INVAL, "inf"),
    ROW(picollo_histogram_downsample, downsample_null_h, NULLP, "`h`"),
    ROW(picollo_histogram_downsample, downsample_null_out, NULLP, "`out`"),

    ROW(picollo_histogram_linear_steps, steps_null_h, NULLP, "`h`"),
    ROW(picollo_histogram_linear_steps, steps_zero_width, INVAL, "width"),
    ROW(picollo_histogram_linear_steps, steps_zero_cap, INVAL, "cap"),
    ROW(picollo_histogram_linear_steps, steps_null_cursor, NULLP, "`cursor`"),
    ROW(picollo_histogram_linear_steps, steps_null_out, NULLP, "`out`"),
    ROW(picollo_histogram_linear_steps, steps_done, ST(OUT_OF_RANGE), NULL),
    ROW(picollo_histogram_log_steps, log_steps_base_1, INVAL, "base"),
    ROW(picollo_histogram_log_steps, log_steps_base_nan, INVAL, "NaN"),
    ROW(picollo_histogram_log_steps, log_steps_zero_first, INVAL, "first"),
    ROW(picollo_histogram_log_steps, log_steps_null_out, NULLP, "`out`"),
    ROW(picollo_histogram_percentile, percentile_null_h, NULLP, "`h`"),
    ROW(picollo_histogram_percentile, percentile_null_out, NULLP, "`out`"),
    ROW(picollo_histogram_percentile, percentile_nan, INVAL, "rank NaN"),
    ROW(picollo_histogram_percentile, percentile_inf, INVAL, "rank inf"),
    ROW(picollo_histogram_percentile, percentile_minus_inf, INVAL, "rank -inf"),
    ROW(picollo_histogram_percentile, percentile_below_0, INVAL, "rank -0.001 "),
    ROW(picollo_histogram_percentile, percentile_above_100, INVAL, "rank 100.0001 "),
    ROW(picollo_histogram_percentile, percentile_1e300, INVAL, "rank 1e300 "),
    ROW(picollo_histogram_percentile, percentile_minus_1e300, INVAL, "rank -1e300 "),
    ROW(picollo_histogram_percentile, percentile_tiny_negative, INVAL, "rank -5e-324 "),
    ROW(picollo_histogram_percentile, percentile_empty, ST(EMPTY), "no value"),
    ROW(picollo_histogram_percentile, percentile_0_and_100, OK, NULL),
    ROW(picollo_histogram_percentiles, percentiles_null_h, NULLP, "`h`"),
    ROW(picollo_histogram_percentiles, percentiles_null_ranks, NULLP, "`ranks`"),
    ROW(picollo_histogram_percentiles, percentiles_null_out, NULLP, "`out`"),
    ROW(picollo_histogram_percentiles, percentiles_null_out_max, NULLP, "`out`"),
    ROW(picollo_histogram_percentiles, percentiles_null_ranks_max, NULLP, "`ranks`"),
    ROW(picollo_histogram_percentiles, percentiles_none, OK, NULL),
    ROW(picollo_histogram_percentiles, percentiles_not_increasing, INVAL, "position 1"),
    ROW(picollo_histogram_percentiles, percentiles_repeated, INVAL, "increasing"),
    ROW(picollo_histogram_percentiles, percentiles_nan, INVAL, "NaN"),
    ROW(picollo_histogram_percentiles, percentiles_1e300, INVAL, "rank 1e300 "),
    ROW(picollo_histogram_percentiles, percentiles_empty, ST(EMPTY), "no value"),
    ROW(picollo_histogram_percentile_values, values_null_h, NULLP, "`h`"),
    ROW(picollo_histogram_percentile_values, values_null_ranks, NULLP, "`ranks`"),
    ROW(picollo_histogram_percentile_values, values_null_out, NULLP, "`out`"),
    ROW(picollo_histogram_percentile_values, values_null_out_max, NULLP, "`out`"),
    ROW(picollo_histogram_percentile_values, values_minus_1e300, INVAL, "rank -1e300 "),
    ROW(picollo_histogram_percentile_values, values_empty, ST(EMPTY), "no value"),
    ROW(picollo_histogram_summary, summary_null_h, NULLP, "`h`"),
    ROW(picollo_histogram_summary, summary_null_out, NULLP, "`out`"),
    ROW(picollo_histogram_summary, summary_empty, OK, NULL),
    ROW(picollo_histogram_mean_stdev, mean_stdev_null_h, NULLP, "`h`"),
    ROW(picollo_histogram_mean_stdev, mean_stdev_null_outputs, OK, NULL),
    ROW(picollo_histogram_bucket, bucket_null_h, NULLP, "`h`"),
    ROW(picollo_histogram_bucket, bucket_null_out, NULLP, "`out`"),
    ROW(picollo_histogram_bucket, bucket_past_end, ST(OUT_OF_RANGE), "storage"),
    ROW(picollo_histogram_bucket, bucket_max, ST(OUT_OF_RANGE), "storage"),
    ROW(picollo_histogram_next_bucket, next_bucket_null_h, NULLP, "`h`"),
    ROW(picollo_histogram_next_bucket, next_bucket_null_cursor, NULLP, "`cursor`"),
    ROW(picollo_histogram_next_bucket, next_bucket_null_out, NULLP, "`out`"),
    ROW(picollo_histogram_next_bucket, next_bucket_cursor_max, ST(OUT_OF_RANGE), NULL),
    ROW(picollo_histogram_next_bucket, next_bucket_empty, ST(OUT_OF_RANGE), NULL),
    ROW(picollo_histogram_next_buckets, next_buckets_null_h, NULLP, "`h`"),
    ROW(picollo_histogram_next_buckets, next_buckets_null_cursor, NULLP, "`cursor`"),
    ROW(picollo_histogram_next_buckets, next_buckets_null_out, NULLP, "`out`"),
    ROW(picollo_histogram_next_buckets, next_buckets_null_out_max, NULLP, "`out`"),
    ROW(picollo_histogram_next_buckets, next_buckets_cap_0, INVAL, "cap"),
    ROW(picollo_histogram_next_buckets, next_buckets_cursor_max, ST(OUT_OF_RANGE), NULL),

    ROW(picollo_snapshot_new, snapshot_new_null_h, NULLP, "`h`"),
    ROW(picollo_snapshot_new, snapshot_new_null_out, NULLP, "`out`"),
    ROW(picollo_snapshot_update, snapshot_update_null_s, NULLP, "`s`"),
    ROW(picollo_snapshot_update, snapshot_update_null_h, NULLP, "`h`"),
    ROW(picollo_snapshot_update, snapshot_update_deltas_2, OK, NULL), /* non-zero: deltas */
    ROW(picollo_snapshot_update, snapshot_update_mismatch, ST(LAYOUT_MISMATCH), "configuration"),
    ROW(picollo_snapshot_summary, snapshot_summary_null_s, NULLP, "`s`"),
    ROW(picollo_snapshot_summary, snapshot_summary_null_out, NULLP, "`out`"),
    ROW(picollo_snapshot_percentiles, snapshot_percentiles_null_s, NULLP, "`s`"),
    ROW(picollo_snapshot_percentiles, snapshot_percentiles_null_ranks, NULLP, "`ranks`"),
    ROW(picollo_snapshot_percentiles, snapshot_percentiles_null_out_max, NULLP, "`out`"),
    ROW(picollo_snapshot_percentiles, snapshot_percentiles_1e300, INVAL, "rank 1e300 "),
    ROW(picollo_snapshot_free, snapshot_free_null, OK, NULL),
    ROW(picollo_cumulative_new, cumulative_new_null_h, NULLP, "`h`"),
    ROW(picollo_cumulative_new, cumulative_new_null_out, NULLP, "`out`"),
    ROW(picollo_cumulative_free, cumulative_free_null, OK, NULL),
    ROW(picollo_cumulative_percentile, cumulative_percentile_null_c, NULLP, "`c`"),
    ROW(picollo_cumulative_percentile, cumulative_percentile_null_out, NULLP, "`out`"),
    ROW(picollo_cumulative_percentile, cumulative_percentile_nan, INVAL, "rank"),
    ROW(picollo_cumulative_percentile, cumulative_percentile_empty, ST(EMPTY), NULL),
    ROW(picollo_cumulative_percentiles, cumulative_percentiles_null_c, NULLP, "`c`"),
    ROW(picollo_cumulative_percentiles, cumulative_percentiles_null_ranks, NULLP, "`ranks`"),
    ROW(picollo_cumulative_percentiles, cumulative_percentiles_null_out_max, NULLP, "`out`"),
    ROW(picollo_cumulative_percentiles, cumulative_percentiles_decreasing, INVAL, "increasing"),
    ROW(picollo_cumulative_rank_of, cumulative_rank_null_c, NULLP, "`c`"),
    ROW(picollo_cumulative_rank_of, cumulative_rank_null_out, NULLP, "`out`"),
    ROW(picollo_cumulative_quantile_of, cumulative_quantile_null_c, NULLP, "`c`"),
    ROW(picollo_cumulative_quantile_of, cumulative_quantile_null_out, NULLP, "`out`"),
    ROW(picollo_cumulative_quantile_of, cumulative_quantile_empty, ST(EMPTY), NULL),
    ROW(picollo_cumulative_count_between, cumulative_between_null_c, NULLP, "`c`"),
    ROW(picollo_cumulative_count_between, cumulative_between_null_out, NULLP, "`out`"),
    ROW(picollo_cumulative_count_between, cumulative_between_reversed, INVAL, NULL),
    ROW(picollo_cumulative_total_count, cumulative_total_null_c, NULLP, "`c`"),
    ROW(picollo_cumulative_total_count, cumulative_total_null_out, NULLP, "`out`"),

    ROW(picollo_histogram_table, table_null_h, NULLP, "`h`"),
    ROW(picollo_histogram_table, table_null_buf, NULLP, "`buf`"),
    ROW(picollo_histogram_table, table_size_query, SMALL, "0 bytes"),
    ROW(picollo_histogram_table, table_len_1, SMALL, "1 bytes"),
    ROW(picollo_histogram_table, table_bad_title, ST(INVALID_UTF8), "`title`"),
    ROW(picollo_histogram_text, text_null_h, NULLP, "`h`"),
    ROW(picollo_histogram_text, text_format_3, INVAL, "format 3"),
    ROW(picollo_histogram_text, text_format_max, INVAL, "4294967295"),
    ROW(picollo_histogram_text, text_null_buf, NULLP, "`buf`"),
    ROW(picollo_histogram_text, text_bad_title, ST(INVALID_UTF8), "`title`"),
    ROW(picollo_summary_table, summary_table_null, NULLP, "`summary`"),
    ROW(picollo_summary_table, summary_table_null_buf, NULLP, "`buf`"),
    ROW(picollo_summary_table, summary_table_bad_title, ST(INVALID_UTF8), "`title`"),
    ROW(picollo_summary_diff, diff_null_a, NULLP, "`a`"),
    ROW(picollo_summary_diff, diff_null_b, NULLP, "`b`"),
    ROW(picollo_summary_diff, diff_bad_name, ST(INVALID_UTF8), "`name_a`"),
    ROW(picollo_summary_diff, diff_null_buf, NULLP, "`buf`"),
    ROW(picollo_summary_line, line_null, NULLP, "`summary`"),
    ROW(picollo_summary_line, line_null_buf, NULLP, "`buf`"),
    ROW(picollo_summary_line, line_bad_name, ST(INVALID_UTF8), "`name`"),
    ROW(picollo_summary_json, json_null, NULLP, "`summary`"),
    ROW(picollo_summary_json, json_null_buf, NULLP, "`buf`"),
    ROW(picollo_summary_json, json_garbage, OK, NULL),
    ROW(picollo_percentile_format, pct_format_null, NULLP, "`p`"),
    ROW(picollo_percentile_format, pct_format_null_buf, NULLP, "`buf`"),
    ROW(picollo_percentile_format, pct_format_garbage, OK, NULL),

    ROW(picollo_histogram_encode_v2, encode_null_h, NULLP, "`h`"),
    ROW(picollo_histogram_encode_v2, encode_form_3, INVAL, "form 3"),
    ROW(picollo_histogram_encode_v2, encode_form_max, INVAL, "4294967295"),
    ROW(picollo_histogram_encode_v2, encode_null_buf, NULLP, "`buf`"),
    ROW(picollo_histogram_encode_v2, encode_null_buf_max, NULLP, "`buf`"),
    ROW(picollo_histogram_encode_v2, encode_size_query, SMALL, "0 bytes"),
    ROW(picollo_histogram_encode_v2, encode_plain_short, SMALL, "8 bytes"),
    ROW(picollo_histogram_encode_v2, encode_base64_len_1, SMALL, "1 bytes"),
    ROW(picollo_histogram_encode_v2, encode_saturated, UNENC, "saturated"),
    ROW(picollo_histogram_encode_v2_level, level_null_h, NULLP, "`h`"),
    ROW(picollo_histogram_encode_v2_level, level_11, INVAL, "level is 11"),
    ROW(picollo_histogram_encode_v2_level, level_max, INVAL, "level is 4294967295"),
    ROW(picollo_histogram_encode_v2_level, level_form_3, INVAL, "form 3"),
    ROW(picollo_histogram_encode_v2_level, level_null_buf, NULLP, "`buf`"),
    ROW(picollo_histogram_encode_v2_level, level_size_query, SMALL, "0 bytes"),
    ROW(picollo_histogram_encode_v2_level, level_saturated, UNENC, "saturated"),
    ROW(picollo_histogram_decode_v2, decode_null_data, NULLP, "`data`"),
    ROW(picollo_histogram_decode_v2, decode_null_data_max, NULLP, "`data`"),
    ROW(picollo_histogram_decode_v2, decode_huge_len, INVAL, "`data`"),
    ROW(picollo_histogram_decode_v2, decode_null_out, NULLP, "`out`"),
    ROW(picollo_histogram_decode_v2, decode_empty, FORMAT, "truncated"),
    ROW(picollo_histogram_decode_v2, decode_garbage, FORMAT, "base64"),
    ROW(picollo_histogram_decode_v2, decode_v1, FORMAT, "V1"),
    ROW(picollo_histogram_decode_v2, decode_truncated, FORMAT, "truncated"),
    ROW(picollo_histogram_decode_v2, decode_round_trip, OK, NULL),
    ROW(picollo_histogram_add_v2, add_v2_null_h, NULLP, "`h`"),
    ROW(picollo_histogram_add_v2, add_v2_null_data, NULLP, "`data`"),
    ROW(picollo_histogram_add_v2, add_v2_huge_len, INVAL, "`data`"),
    ROW(picollo_histogram_add_v2, add_v2_garbage, FORMAT, "base64"),
    ROW(picollo_histogram_add_v2, add_v2_truncated, FORMAT, "truncated"),
    ROW(picollo_histogram_add_v2, add_v2_empty, FORMAT, "truncated"),
    ROW(picollo_histogram_add_v2, add_v2_other_layout, OK, NULL),
    ROW(picollo_histogram_hgrm, hgrm_null_h, NULLP, "`h`"),
    ROW(picollo_histogram_hgrm, hgrm_null_buf, NULLP, "`buf`"),
    ROW(picollo_histogram_hgrm, hgrm_ticks_0, INVAL, "ticks_per_half_distance is 0"),
    ROW(picollo_histogram_hgrm, hgrm_ticks_max, INVAL, "4294967295"),
    ROW(picollo_histogram_hgrm, hgrm_ratio_0, INVAL, "unit_ratio"),
    ROW(picollo_histogram_hgrm, hgrm_ratio_nan, INVAL, "NaN"),
    ROW(picollo_histogram_hgrm, hgrm_ratio_inf, INVAL, "inf"),
    ROW(picollo_histogram_hgrm, hgrm_ratio_minus_1e300, INVAL, "-1e300"),
    ROW(picollo_histogram_hgrm, hgrm_ratio_tiny, SMALL, "64 bytes"),
    ROW(picollo_histogram_hgrm, hgrm_csv_max, SMALL, "64 bytes"),
    ROW(picollo_histogram_format, fmt_null_h, NULLP, "`h`"),
    ROW(picollo_histogram_format, fmt_null_name, NULLP, "`name`"),
    ROW(picollo_histogram_format, fmt_bad_name, ST(INVALID_UTF8), "`name`"),
    ROW(picollo_histogram_format, fmt_unknown, INVAL, "no format is called \"yaml\""),
    ROW(picollo_histogram_format, fmt_null_options, NULLP, "`options`"),
    ROW(picollo_histogram_format, fmt_null_option_name, NULLP, "options[0].name"),
    ROW(picollo_histogram_format, fmt_foreign_option, INVAL, "takes no option \"title\""),
    ROW(picollo_histogram_format, fmt_twice, INVAL, "given twice"),
    ROW(picollo_histogram_format, fmt_bad_value, INVAL, "\"many\" is not a u32"),
    ROW(picollo_histogram_format, fmt_null_buf, NULLP, "`buf`"),
    ROW(picollo_histogram_format, fmt_size_query, SMALL, "0 bytes"),
    ROW(picollo_float_histogram_format, ffmt_null_h, NULLP, "`h`"),
    ROW(picollo_float_histogram_format, ffmt_no_float_form, INVAL, "integer histograms only"),
    ROW(picollo_float_histogram_format, ffmt_small, SMALL, "105 needed"),
    ROW(picollo_format_names, fnames_small, SMALL, "3 bytes"),
    ROW(picollo_format_names, fnames_null_buf, NULLP, "`buf`"),
    ROW(picollo_format_binary, fbinary_null_name, NULLP, "`name`"),
    ROW(picollo_format_binary, fbinary_null_out, NULLP, "`binary`"),
    ROW(picollo_format_binary, fbinary_unknown, INVAL, "yaml"),
    ROW(picollo_log_writer_new, lw_new_null_out, NULLP, "`out`"),
    ROW(picollo_log_writer_new, lw_new_free, OK, NULL),
    ROW(picollo_log_writer_free, lw_free_null, OK, NULL),
    ROW(picollo_log_writer_header, lw_header_null, NULLP, "`w`"),
    ROW(picollo_log_writer_header, lw_header_minus_1e300, INVAL, "time"),
    ROW(picollo_log_writer_header, lw_header_inf, INVAL, "time"),
    ROW(picollo_log_writer_header, lw_header_none, OK, NULL),
    ROW(picollo_log_writer_comment, lw_comment_null, NULLP, "`w`"),
    ROW(picollo_log_writer_comment, lw_comment_null_text, NULLP, "`text`"),
    ROW(picollo_log_writer_comment, lw_comment_bad_utf8, ST(INVALID_UTF8), "`text`"),
    ROW(picollo_log_writer_set_max_unit_ratio, lw_ratio_null, NULLP, "`w`"),
    ROW(picollo_log_writer_set_max_unit_ratio, lw_ratio_0, INVAL, "ratio"),
    ROW(picollo_log_writer_set_max_unit_ratio, lw_ratio_nan, INVAL, "ratio"),
    ROW(picollo_log_writer_set_max_unit_ratio, lw_ratio_minus_1e300, INVAL, "ratio"),
    ROW(picollo_log_writer_set_max_unit_ratio, lw_ratio_1e300, OK, NULL),
    ROW(picollo_log_writer_interval, lw_interval_null, NULLP, "`w`"),
    ROW(picollo_log_writer_interval, lw_interval_null_h, NULLP, "`h`"),
    ROW(picollo_log_writer_interval, lw_interval_comma_tag, INVAL, "tag"),
    ROW(picollo_log_writer_interval, lw_interval_bad_utf8_tag, ST(INVALID_UTF8), "`tag`"),
    ROW(picollo_log_writer_interval, lw_interval_start_nan, INVAL, "start"),
    ROW(picollo_log_writer_interval, lw_interval_start_minus_1e300, INVAL, "start"),
    ROW(picollo_log_writer_interval, lw_interval_length_inf, INVAL, "length"),
    ROW(picollo_log_writer_interval, lw_interval_saturated, UNENC, "saturated"),
    ROW(picollo_log_writer_interval, lw_interval_shared, OK, NULL),
    ROW(picollo_log_writer_take, lw_take_null, NULLP, "`w`"),
    ROW(picollo_log_writer_take, lw_take_null_buf, NULLP, "`buf`"),
    ROW(picollo_log_writer_take, lw_take_size_query, SMALL, "0 bytes"),
    ROW(picollo_log_writer_take, lw_take_len_1, SMALL, "1 bytes"),
    ROW(picollo_log_reader_new, lr_new_null_out, NULLP, "`out`"),
    ROW(picollo_log_reader_new, lr_new_null_text, NULLP, "`text`"),
    ROW(picollo_log_reader_new, lr_new_null_text_max, NULLP, "`text`"),
    ROW(picollo_log_reader_new, lr_new_huge_len, INVAL, "`text`"),
    ROW(picollo_log_reader_new, lr_new_empty, OK, NULL),
    ROW(picollo_log_reader_new, lr_new_garbage, OK, NULL),
    ROW(picollo_log_reader_free, lr_free_null, OK, NULL),
    ROW(picollo_log_reader_next, lr_next_null, NULLP, "`r`"),
    ROW(picollo_log_reader_next, lr_next_null_info, NULLP, "`info`"),
    ROW(picollo_log_reader_next, lr_next_size_0, SIZE, "struct_size is 0"),
    ROW(picollo_log_reader_next, lr_next_size_short, SIZE, "sizeof(picollo_log_interval)"),
    ROW(picollo_log_reader_next, lr_next_bad_line, FORMAT, "line 2: "),
    ROW(picollo_log_reader_next, lr_next_end, ST(OUT_OF_RANGE), "no more"),
    ROW(picollo_log_reader_tag, lr_tag_null, NULLP, "`r`"),
    ROW(picollo_log_reader_tag, lr_tag_null_buf, NULLP, "`buf`"),
    ROW(picollo_log_reader_tag, lr_tag_size_query, SMALL, "0 bytes"),
    ROW(picollo_log_reader_times, lr_times_null, NULLP, "`r`"),
    ROW(picollo_log_reader_times, lr_times_null_outputs, OK, NULL),
    ROW(picollo_log_sum, sum_null_out, NULLP, "`out`"),
    ROW(picollo_log_sum, sum_null_text, NULLP, "`text`"),
    ROW(picollo_log_sum, sum_null_text_max, NULLP, "`text`"),
    ROW(picollo_log_sum, sum_huge_len, INVAL, "`text`"),
    ROW(picollo_log_sum, sum_bad_utf8_tag, ST(INVALID_UTF8), "`tag`"),
    ROW(picollo_log_sum, sum_bad_line, FORMAT, "line 2: "),
    ROW(picollo_log_sum, sum_empty, ST(EMPTY), "no interval"),
    ROW(picollo_log_sum, sum_window_1e300, ST(EMPTY), "1e300"),

    ROW(picollo_histogram_collect, collect_null_h, NULLP, "`h`"),
    ROW(picollo_histogram_collect, collect_null_out, NULLP, "`out`"),
    ROW(picollo_histogram_collect, collect_empty, OK, NULL),
    ROW(picollo_histogram_collect, collect_drains, OK, NULL),
    ROW(picollo_snapshot_collect, snapshot_collect_null_s, NULLP, "`s`"),
    ROW(picollo_snapshot_collect, snapshot_collect_null_h, NULLP, "`h`"),
    ROW(picollo_snapshot_collect, snapshot_collect_mismatch, ST(LAYOUT_MISMATCH), "configuration"),
    ROW(picollo_snapshot_collect, snapshot_collect_shared, OK, NULL),
    ROW(picollo_openmetrics_options_default, om_default, OK, NULL),
    ROW(picollo_histogram_openmetrics, om_null_h, NULLP, "`h`"),
    ROW(picollo_histogram_openmetrics, om_null_name, NULLP, "`name`"),
    ROW(picollo_histogram_openmetrics, om_null_opts, NULLP, "`opts`"),
    ROW(picollo_histogram_openmetrics, om_bad_name, INVAL, "\"1m\""),
    ROW(picollo_histogram_openmetrics, om_suffix_name, INVAL, "m_bucket"),
    ROW(picollo_histogram_openmetrics, om_unit_not_suffix, INVAL, "unit"),
    ROW(picollo_histogram_openmetrics, om_bad_utf8_help, ST(INVALID_UTF8), "`help`"),
    ROW(picollo_histogram_openmetrics, om_null_labels, NULLP, "`labels`"),
    ROW(picollo_histogram_openmetrics, om_labels_max, INVAL, "`labels`"),
    ROW(picollo_histogram_openmetrics, om_null_label_name, NULLP, "labels[1].name"),
    ROW(picollo_histogram_openmetrics, om_label_le, INVAL, "label"),
    ROW(picollo_histogram_openmetrics, om_label_twice, INVAL, "duplicate"),
    ROW(picollo_histogram_openmetrics, om_label_bad_utf8, ST(INVALID_UTF8), "labels[0].value"),
    ROW(picollo_histogram_openmetrics, om_size_0, SIZE, "struct_size is 0"),
    ROW(picollo_histogram_openmetrics, om_size_max, SIZE, "4294967295"),
    ROW(picollo_histogram_openmetrics, om_summary_2, INVAL, "summary is 2"),
    ROW(picollo_histogram_openmetrics, om_ratio_nan, INVAL, "unit_ratio"),
    ROW(picollo_histogram_openmetrics, om_ratio_minus_1e300, INVAL, "unit_ratio"),
    ROW(picollo_histogram_openmetrics, om_coarse_0, INVAL, "coarse_relative_error"),
    ROW(picollo_histogram_openmetrics, om_coarse_inf, INVAL, "coarse_relative_error"),
    ROW(picollo_histogram_openmetrics, om_null_bounds, NULLP, "`bounds`"),
    ROW(picollo_histogram_openmetrics, om_bounds_max, INVAL, "`bounds`"),
    ROW(picollo_histogram_openmetrics, om_bounds_repeat, INVAL, "strictly increasing"),
    ROW(picollo_histogram_openmetrics, om_bounds_extremes, SMALL, "0 bytes"),
    ROW(picollo_histogram_openmetrics, om_null_buf, NULLP, "`buf`"),
    ROW(picollo_histogram_openmetrics, om_size_query, SMALL, "0 bytes"),
    ROW(picollo_openmetrics_writer_new, ow_new_null_out, NULLP, "`out`"),
    ROW(picollo_openmetrics_writer_new, ow_new_free, OK, NULL),
    ROW(picollo_openmetrics_writer_free, ow_free_null, OK, NULL),
    ROW(picollo_openmetrics_writer_family, ow_family_null, NULLP, "`w`"),
    ROW(picollo_openmetrics_writer_family, ow_family_null_name, NULLP, "`name`"),
    ROW(picollo_openmetrics_writer_family, ow_family_null_opts, NULLP, "`opts`"),
    ROW(picollo_openmetrics_writer_family, ow_family_size_0, SIZE, "struct_size is 0"),
    ROW(picollo_openmetrics_writer_family, ow_family_bad_name, INVAL, "a-b"),
    ROW(picollo_openmetrics_writer_family, ow_family_bad_unit, INVAL, "unit"),
    ROW(picollo_openmetrics_writer_family, ow_family_bad_utf8_unit, ST(INVALID_UTF8), "`unit`"),
    ROW(picollo_openmetrics_writer_family, ow_family_twice, INVAL, "already"),
    ROW(picollo_openmetrics_writer_point, ow_point_null, NULLP, "`w`"),
    ROW(picollo_openmetrics_writer_point, ow_point_null_h, NULLP, "`h`"),
    ROW(picollo_openmetrics_writer_point, ow_point_null_labels, NULLP, "`labels`"),
    ROW(picollo_openmetrics_writer_point, ow_point_labels_max, INVAL, "`labels`"),
    ROW(picollo_openmetrics_writer_point, ow_point_reserved_label, INVAL, "label"),
    ROW(picollo_openmetrics_writer_point, ow_point_no_family, INVAL, "no family"),
    ROW(picollo_openmetrics_writer_point, ow_point_shared, OK, NULL),
    ROW(picollo_openmetrics_writer_point, ow_point_mismatch, ST(LAYOUT_MISMATCH), "layout"),
    ROW(picollo_openmetrics_writer_finish, ow_finish_null, NULLP, "`w`"),
    ROW(picollo_openmetrics_writer_finish, ow_finish_twice, INVAL, "finished"),
    ROW(picollo_openmetrics_writer_take, ow_take_null, NULLP, "`w`"),
    ROW(picollo_openmetrics_writer_take, ow_take_null_buf, NULLP, "`buf`"),
    ROW(picollo_openmetrics_writer_take, ow_take_size_query, SMALL, "0 bytes"),
    ROW(picollo_histogram_prometheus_buckets, pb_null_h, NULLP, "`h`"),
    ROW(picollo_histogram_prometheus_buckets, pb_null_opts, NULLP, "`opts`"),
    ROW(picollo_histogram_prometheus_buckets, pb_null_count, NULLP, "`count`"),
    ROW(picollo_histogram_prometheus_buckets, pb_null_le, NULLP, "`le`"),
    ROW(picollo_histogram_prometheus_buckets, pb_null_cumulative, NULLP, "`cumulative`"),
    ROW(picollo_histogram_prometheus_buckets, pb_null_arrays_max, NULLP, "`le`"),
    ROW(picollo_histogram_prometheus_buckets, pb_size_query, SMALL, "capacity 0"),
    ROW(picollo_histogram_prometheus_buckets, pb_capacity_1, SMALL, "capacity 1"),
    ROW(picollo_histogram_prometheus_buckets, pb_summary, INVAL, "summary"),
    ROW(picollo_histogram_prometheus_buckets, pb_ratio_0, INVAL, "unit_ratio"),
    ROW(picollo_histogram_prometheus_buckets, pb_size_small, SIZE, "struct_size is 4"),
    ROW(picollo_otlp_options_default, otlp_default, OK, NULL),
    ROW(picollo_histogram_otlp, otlp_null_h, NULLP, "`h`"),
    ROW(picollo_histogram_otlp, otlp_null_o, NULLP, "`o`"),
    ROW(picollo_histogram_otlp, otlp_null_name, NULLP, "`name`"),
    ROW(picollo_histogram_otlp, otlp_empty_name, INVAL, "name"),
    ROW(picollo_histogram_otlp, otlp_bad_utf8_scope, ST(INVALID_UTF8), "`scope_version`"),
    ROW(picollo_histogram_otlp, otlp_format_2, INVAL, "format 2"),
    ROW(picollo_histogram_otlp, otlp_format_max, INVAL, "4294967295"),
    ROW(picollo_histogram_otlp, otlp_temporality_0, INVAL, "temporality"),
    ROW(picollo_histogram_otlp, otlp_scale_max, INVAL, "2147483647"),
    ROW(picollo_histogram_otlp, otlp_scale_minus_11, INVAL, "scale"),
    ROW(picollo_histogram_otlp, otlp_ratio_inf, INVAL, "unit_ratio"),
    ROW(picollo_histogram_otlp, otlp_reserved, INVAL, "reserved"),
    ROW(picollo_histogram_otlp, otlp_size_0, SIZE, "struct_size is 0"),
    ROW(picollo_histogram_otlp, otlp_null_attributes, NULLP, "`attributes`"),
    ROW(picollo_histogram_otlp, otlp_resource_twice, INVAL, "twice"),
    ROW(picollo_histogram_otlp, otlp_start_after_time, INVAL, "start_time_unix_nano"),
    ROW(picollo_histogram_otlp, otlp_times_max, SMALL, "0 bytes"),
    ROW(picollo_histogram_otlp, otlp_null_buf, NULLP, "`buf`"),
    ROW(picollo_histogram_otlp, otlp_null_buf_json, NULLP, "`buf`"),
    ROW(picollo_histogram_otlp, otlp_protobuf_short, SMALL, "8 bytes"),
    ROW(picollo_prometheus_native_options_default, native_default, OK, NULL),
    ROW(picollo_histogram_prometheus_native, native_null_h, NULLP, "`h`"),
    ROW(picollo_histogram_prometheus_native, native_null_o, NULLP, "`o`"),
    ROW(picollo_histogram_prometheus_native, native_null_name, NULLP, "`name`"),
    ROW(picollo_histogram_prometheus_native, native_bad_name, INVAL, "name must match"),
    ROW(picollo_histogram_prometheus_native, native_bad_utf8_help, ST(INVALID_UTF8), "`help`"),
    ROW(picollo_histogram_prometheus_native, native_schema_9, INVAL, "schema is 9"),
    ROW(picollo_histogram_prometheus_native, native_schema_max, INVAL, "2147483647"),
    ROW(picollo_histogram_prometheus_native, native_ratio_nan, INVAL, "unit_ratio"),
    ROW(picollo_histogram_prometheus_native, native_classic_1, INVAL, "coarse_relative_error"),
    ROW(picollo_histogram_prometheus_native, native_size_0, SIZE, "struct_size is 0"),
    ROW(picollo_histogram_prometheus_native, native_null_labels, NULLP, "`labels`"),
    ROW(picollo_histogram_prometheus_native, native_label_le, INVAL, "labels[0].name"),
    ROW(picollo_histogram_prometheus_native, native_label_twice, INVAL, "twice"),
    ROW(picollo_histogram_prometheus_native, native_null_label_value, NULLP, "labels[0].value"),
    ROW(picollo_histogram_prometheus_native, native_null_buf, NULLP, "`buf`"),
    ROW(picollo_histogram_prometheus_native, native_short, SMALL, "8 bytes"),
    ROW(picollo_float_histogram_prometheus_native, native_float_null_h, NULLP, "`h`"),
    ROW(picollo_float_histogram_prometheus_native, native_float_null_o, NULLP, "`o`"),
    ROW(picollo_float_histogram_prometheus_native, native_float_classic, INVAL, "integer histograms only"),
    ROW(picollo_float_histogram_prometheus_native, native_float_schema_minus_5, INVAL, "schema is -5"),
    ROW(picollo_float_histogram_prometheus_native, native_float_label_reserved, INVAL, "labels[0].name"),
    ROW(picollo_float_histogram_prometheus_native, native_float_short, SMALL, "4 bytes"),

    ROW(picollo_ticks, ticks, OK, NULL),
    ROW(picollo_ticks_begin, ticks_begin_end, OK, NULL),
    ROW(picollo_ticks_end, ticks_end_alone, OK, NULL),
    ROW(picollo_monotonic_nanos, monotonic, OK, NULL),
    ROW(picollo_tick_frequency, frequency, OK, NULL),
    ROW(picollo_ticks_to_nanos, ticks_to_nanos_extremes, OK, NULL),
    ROW(picollo_convert_ticks, convert_zero_frequency, OK, NULL),
    ROW(picollo_scope_begin, scope_null_histogram, NULLP, "no histogram"),
    ROW(picollo_scope_begin, scope_bad_unit, INVAL, "unit 4294967295"),
    ROW(picollo_scope_end, scope_end_null, NULLP, "`scope`"),
    ROW(picollo_scope_end, scope_end_twice, NULLP, "already ended"),
    ROW(picollo_add_chain, add_chain_zero, OK, NULL),
    ROW(picollo_pin_thread, pin_cpu_max, INVAL, "CPU 4294967295"),
    ROW(picollo_pin_thread, pin_cpu_huge, INVAL, "CPU 1048576"),
    ROW(picollo_set_thread_nice, nice_20, INVAL, "nice value 20"),
    ROW(picollo_set_thread_nice, nice_minus_21, INVAL, "nice value -21"),
    ROW(picollo_set_thread_nice, nice_min, INVAL, "-2147483648"),

    ROW(picollo_perf_config_default, perf_config_default, OK, NULL),
    ROW(picollo_perf_session_new, perf_new_null_config, NULLP, "`config`"),
    ROW(picollo_perf_session_new, perf_new_null_out, NULLP, "`out`"),
    ROW(picollo_perf_session_new, perf_new_size_0, SIZE, "struct_size is 0"),
    ROW(picollo_perf_session_new, perf_new_size_4097, SIZE, "4096"),
    ROW(picollo_perf_session_new, perf_new_size_max, SIZE, "4294967295"),
    ROW(picollo_perf_session_new, perf_new_pinned_2, INVAL, "pinned"),
    ROW(picollo_perf_session_new, perf_new_kernel_2, INVAL, "include_kernel"),
    ROW(picollo_perf_session_new, perf_new_enabled_max, INVAL, "enabled"),
    ROW(picollo_perf_session_new, perf_new_calibrate_2, INVAL, "calibrate"),
    ROW(picollo_perf_session_new, perf_new_rdpmc_3, INVAL, "read policy"),
    ROW(picollo_perf_session_new, perf_new_pid_minus_2, INVAL, "pid"),
    ROW(picollo_perf_session_new, perf_new_cpu_min, INVAL, "cpu"),
    ROW(picollo_perf_session_new, perf_new_error_nan, INVAL, "relative error NaN"),
    ROW(picollo_perf_session_new, perf_new_error_zero, INVAL, "relative error 0 "),
    ROW(picollo_perf_session_new, perf_new_error_minus_1e300, INVAL, "relative error -1e300 "),
    ROW(picollo_perf_session_new, perf_new_kind_4, INVAL, "record kind 4"),
    ROW(picollo_perf_session_new, perf_new_reserved, INVAL, "reserved"),
    ROW(picollo_perf_session_free, perf_free_null, OK, NULL),
    ROW(picollo_perf_session_add_hardware, hw_null, NULLP, "`session`"),
    ROW(picollo_perf_session_add_hardware, hw_id_10, INVAL, "hardware event id 10"),
    ROW(picollo_perf_session_add_hardware, hw_id_max, INVAL, "4294967295"),
    ROW(picollo_perf_session_add_hardware, hw_when_open, INVAL, NULL),
    ROW(picollo_perf_session_add_cache, cache_null, NULLP, "`session`"),
    ROW(picollo_perf_session_add_cache, cache_level_7, INVAL, "cache level 7"),
    ROW(picollo_perf_session_add_cache, cache_op_3, INVAL, "cache operation 3"),
    ROW(picollo_perf_session_add_cache, cache_result_max, INVAL, "cache result 4294967295"),
    ROW(picollo_perf_session_add_software, sw_null, NULLP, "`session`"),
    ROW(picollo_perf_session_add_software, sw_id_9, INVAL, "software event id 9"),
    ROW(picollo_perf_session_add_software, sw_id_max, INVAL, "4294967295"),
    ROW(picollo_perf_session_add_software, sw_duplicate, INVAL, "twice"),
    ROW(picollo_perf_session_add_raw, raw_null, NULLP, "`session`"),
    ROW(picollo_perf_session_add_raw, raw_bogus_type_open, INVAL | ST(PERMISSION_DENIED), "Raw:3735928559:0x0: "),
    ROW(picollo_perf_session_add_raw, raw_group_over_cap, INVAL, "65"),
    ROW(picollo_perf_session_add_fixed, fixed_null, NULLP, "`session`"),
    ROW(picollo_perf_session_add_fixed, fixed_overlap, INVAL, "Hardware:Instructions"),
    ROW(picollo_perf_session_add_named, named_null_s, NULLP, "`session`"),
    ROW(picollo_perf_session_add_named, named_null_name, NULLP, "`name`"),
    ROW(picollo_perf_session_add_named, named_bad_utf8, ST(INVALID_UTF8), "`name`"),
    ROW(picollo_perf_session_add_named, named_unknown, INVAL, "Software:NoSuchThing"),
    ROW(picollo_perf_session_add_named, named_empty, INVAL, NULL),
    ROW(picollo_perf_session_add_named, named_raw_partial, INVAL, "Raw:"),
    ROW(picollo_perf_session_add_named, named_raw_overflow, INVAL, "Raw:99999999999:0x1"),
    ROW(picollo_perf_session_open, open_null, NULLP, "`session`"),
    ROW(picollo_perf_session_open, open_empty, INVAL, "at least one counter"),
    ROW(picollo_perf_session_open, open_twice, INVAL, NULL),
    ROW(picollo_perf_session_open, open_hardware, MACHINE, "Hardware:CpuCycles"),
    ROW(picollo_perf_discover, discover_null, NULLP, "`out`"),
    ROW(picollo_perf_describe, describe_null_buf, NULLP, "`buf`"),
    ROW(picollo_perf_describe, describe_size_query, SMALL, NULL),
    ROW(picollo_perf_emulation_describe, emulation_null_buf, NULLP, "`buf`"),
    ROW(picollo_perf_emulation_describe, emulation_size_query, SMALL, NULL),
    ROW(picollo_perf_counter_supported, supported_emulated, ST(UNSUPPORTED), "picollo emulate -- PROG"),
    ROW(picollo_perf_counter_supported, supported_emulated_unknown, INVAL, "Emulated:Cycles"),
    ROW(picollo_perf_session_open, open_emulated_kernel, INVAL, "not kernel work"),
    ROW(picollo_perf_counter_supported, supported_null, NULLP, "`name`"),
    ROW(picollo_perf_counter_supported, supported_bad_utf8, ST(INVALID_UTF8), "`name`"),
    ROW(picollo_perf_counter_supported, supported_unknown, INVAL, "Hardware:Nope"),
    ROW(picollo_perf_counter_supported, supported_bogus_raw, INVAL | ST(PERMISSION_DENIED), "Raw:3735928559:0x0: "),
    ROW(picollo_perf_counter_supported, supported_cycles, MACHINE, "Hardware:CpuCycles"),
    ROW(picollo_perf_session_read, read_null, NULLP, "`session`"),
    ROW(picollo_perf_session_read, read_not_open, INVAL, "not open"),
    ROW(picollo_perf_session_read, read_force_2, INVAL, NULL),
    ROW(picollo_perf_session_deltas, deltas_null, NULLP, "`session`"),
    ROW(picollo_perf_session_deltas, deltas_null_out, NULLP, "`out`"),
    ROW(picollo_perf_session_deltas, deltas_null_out_max, NULLP, "`out`"),
    ROW(picollo_perf_session_deltas, deltas_too_small, SMALL, NULL),
    ROW(picollo_perf_session_record, record_null_s, NULLP, "`session`"),
    ROW(picollo_perf_session_record, record_not_open, INVAL, "not open"),
    ROW(picollo_perf_session_record_kind, record_kind_null, NULLP, "`session`"),
    ROW(picollo_perf_session_record_kind, record_kind_4, INVAL, NULL),
    ROW(picollo_perf_session_record_kind, record_kind_not_open, INVAL, "not open"),
    ROW(picollo_perf_session_enable, enable_null, NULLP, "`session`"),
    ROW(picollo_perf_session_enable, enable_not_open, INVAL, "not open"),
    ROW(picollo_perf_session_disable, disable_null, NULLP, "`session`"),
    ROW(picollo_perf_session_disable, disable_not_open, INVAL, "not open"),
    ROW(picollo_perf_session_reset, perf_reset_null, NULLP, "`session`"),
    ROW(picollo_perf_session_reset, perf_reset_not_open, INVAL, "not open"),
    ROW(picollo_perf_session_is_open, is_open_null, NULLP, "`session`"),
    ROW(picollo_perf_session_is_open, is_open_null_out, NULLP, "`out`"),
    ROW(picollo_perf_session_counter_count, count_null, NULLP, "`session`"),
    ROW(picollo_perf_session_counter_count, count_null_out, NULLP, "`out`"),
    ROW(picollo_perf_session_counter_name, name_null, NULLP, "`session`"),
    ROW(picollo_perf_session_counter_name, name_index_max, ST(OUT_OF_RANGE), "18446744073709551615"),
    ROW(picollo_perf_session_counter_name, name_null_buf, NULLP, "`buf`"),
    ROW(picollo_perf_session_counter_name, name_size_query, SMALL, NULL),
    ROW(picollo_perf_session_path_choice, choice_null_s, NULLP, "`session`"),
    ROW(picollo_perf_session_path_choice, choice_null_out, NULLP, "`out`"),
    ROW(picollo_perf_session_path_choice, choice_not_open, INVAL, "not open"),
    ROW(picollo_perf_session_path_describe, path_text_null_s, NULLP, "`session`"),
    ROW(picollo_perf_session_path_describe, path_text_not_open, INVAL, "not open"),
    ROW(picollo_perf_session_path_describe, path_text_null_buf, NULLP | INVAL, NULL),
    ROW(picollo_perf_session_path_describe, path_text_size_query, SMALL | INVAL, NULL),
    ROW(picollo_perf_session_counter_values, values_null_s, NULLP, "`session`"),
    ROW(picollo_perf_session_counter_values, values_null_out_s, NULLP, "`out`"),
    ROW(picollo_perf_session_counter_values, values_not_open, INVAL, "not open"),
    ROW(picollo_perf_session_counter_values, values_index_max, ST(OUT_OF_RANGE) | INVAL, NULL),
    ROW(picollo_perf_session_counter_histogram, histogram_null_s, NULLP, "`session`"),
    ROW(picollo_perf_session_counter_histogram, histogram_null_out, NULLP, "`out`"),
    ROW(picollo_perf_session_counter_histogram, histogram_index_max, ST(OUT_OF_RANGE), "18446744073709551615"),
    ROW(picollo_perf_session_derived, derived_null, NULLP, "`session`"),
    ROW(picollo_perf_session_derived, derived_null_out, NULLP, "`out`"),
    ROW(picollo_perf_session_derived, derived_not_open, INVAL, "not open"),
    ROW(picollo_perf_session_derived_means, means_null, NULLP, "`session`"),
    ROW(picollo_perf_session_derived_means, means_null_out, NULLP, "`out`"),
    ROW(picollo_perf_session_derived_means, means_before_open, OK, NULL),
    ROW(picollo_bench_config_default, bench_default_ok, OK, NULL),
    ROW(picollo_bench_config_here, bench_here_notes_the_build, OK, NULL),
    ROW(picollo_bench_run, bench_null_config, NULLP, "`config`"),
    ROW(picollo_bench_run, bench_null_work, NULLP, "`work`"),
    ROW(picollo_bench_run, bench_null_out, NULLP, "`out`"),
    ROW(picollo_bench_run, bench_size_0, SIZE, "picollo_bench_config_default"),
    ROW(picollo_bench_run, bench_size_max, SIZE, "4096"),
    ROW(picollo_bench_run, bench_bad_utf8_name, ST(INVALID_UTF8), "config->name"),
    ROW(picollo_bench_run, bench_bad_utf8_counters, ST(INVALID_UTF8), "config->counters"),
    ROW(picollo_bench_run, bench_bad_utf8_unoptimized, ST(INVALID_UTF8), "config->unoptimized"),
    ROW(picollo_bench_run, bench_unknown_counter, INVAL, "Software:NoSuchThing"),
    ROW(picollo_bench_run, bench_near_counter, INVAL, "did you mean `Software:PageFaults`?"),
    ROW(picollo_bench_run, bench_empty_counter, INVAL, "an empty counter name"),
    ROW(picollo_bench_run, bench_duplicate_counter, INVAL | ST(PERMISSION_DENIED) | ST(UNSUPPORTED), "Software:TaskClock"),
    ROW(picollo_bench_run, bench_hardware_counter, MACHINE, "Hardware:CpuCycles"),
    ROW(picollo_bench_run, bench_samples_0, INVAL, "samples"),
    ROW(picollo_bench_run, bench_batch_max, INVAL, "batch"),
    ROW(picollo_bench_run, bench_budget_nan, INVAL, "time_budget"),
    ROW(picollo_bench_run, bench_budget_inf, INVAL, "time_budget"),
    ROW(picollo_bench_run, bench_warmup_negative, INVAL, "warmup"),
    ROW(picollo_bench_run, bench_error_nan, INVAL, "relative error NaN"),
    ROW(picollo_bench_run, bench_pinned_min, INVAL, "pinned_cpu"),
    ROW(picollo_bench_run, bench_pinned_beyond, INVAL, "pin"),
    ROW(picollo_bench_run, bench_nice_flag_2, INVAL, "set_nice"),
    ROW(picollo_bench_run, bench_nice_20, INVAL, "nice must be -20 to 19"),
    ROW(picollo_bench_result_free, bench_free_null, OK, NULL),
    ROW(picollo_bench_result_metric_count, bench_count_null, NULLP, "`r`"),
    ROW(picollo_bench_result_metric_count, bench_count_null_out, NULLP, "`out`"),
    ROW(picollo_bench_result_metric_name, bench_name_null, NULLP, "`r`"),
    ROW(picollo_bench_result_metric_name, bench_name_index_max, ST(OUT_OF_RANGE), "18446744073709551615"),
    ROW(picollo_bench_result_metric_name, bench_name_null_buf, NULLP, "`buf`"),
    ROW(picollo_bench_result_metric_name, bench_name_size_query, SMALL, NULL),
    ROW(picollo_bench_result_metric_unit, bench_unit_null, NULLP, "`r`"),
    ROW(picollo_bench_result_metric_unit, bench_unit_index_max, ST(OUT_OF_RANGE), "18446744073709551615"),
    ROW(picollo_bench_result_metric_unit, bench_unit_tiny, SMALL, NULL),
    ROW(picollo_bench_result_histogram, bench_histogram_null, NULLP, "`r`"),
    ROW(picollo_histogram_free, lent_free, OK, NULL),
    ROW(picollo_histogram_record, lent_record, OK, NULL),
    ROW(picollo_histogram_record_inline, lent_record_inline, OK, NULL),
    ROW(picollo_histogram_record_n, lent_record_n, OK, NULL),
    ROW(picollo_histogram_record_many, lent_record_many, INVAL, "read-only"),
    ROW(picollo_histogram_reset, lent_reset, INVAL, "lent by a bench result"),
    ROW(picollo_histogram_add, lent_add, INVAL, "read-only"),
    ROW(picollo_histogram_get_recorder, lent_recorder, INVAL, "read-only"),
    ROW(picollo_recorder_of, lent_recorder_of, INVAL, "read-only"),
    ROW(picollo_histogram_collect, lent_collect, INVAL, "read-only"),
    ROW(picollo_bench_result_histogram, bench_histogram_null_out, NULLP, "`out`"),
    ROW(picollo_bench_result_histogram, bench_histogram_index_max, ST(OUT_OF_RANGE), "18446744073709551615"),
    ROW(picollo_bench_result_text, bench_text_null, NULLP, "`r`"),
    ROW(picollo_bench_result_text, bench_text_format_max, INVAL, "4294967295"),
    ROW(picollo_bench_result_text, bench_text_null_buf, NULLP, "`buf`"),
    ROW(picollo_bench_result_text, bench_text_size_query, SMALL, NULL),
    ROW(picollo_bench_compare, bench_compare_null_a, NULLP, "`a`"),
    ROW(picollo_bench_compare, bench_compare_null_b, NULLP, "`b`"),
    ROW(picollo_bench_compare, bench_compare_null_buf, NULLP, "`buf`"),
    ROW(picollo_bench_compare, bench_compare_size_query, SMALL, NULL),
    ROW(picollo_bench_compare_metric, bench_metric_null_a, NULLP, "`a`"),
    ROW(picollo_bench_compare_metric, bench_metric_null_b, NULLP, "`b`"),
    ROW(picollo_bench_compare_metric, bench_metric_null_metric, NULLP, "`metric`"),
    ROW(picollo_bench_compare_metric, bench_metric_bad_utf8, ST(INVALID_UTF8), "metric"),
    ROW(picollo_bench_compare_metric, bench_metric_unknown, INVAL, "no metric \"Hardware:Bogus\" among time"),
    ROW(picollo_bench_compare_metric, bench_metric_small_out, SIZE, "sizeof(picollo_bench_comparison)"),
    ROW(picollo_bench_compare_metric, bench_metric_size_query, SMALL, NULL),
    ROW(picollo_bench_compare_metric, bench_metric_null_outputs, OK, NULL),
    ROW(picollo_bench_compare_html, bench_html_null_a, NULLP, "`a`"),
    ROW(picollo_bench_compare_html, bench_html_null_b, NULLP, "`b`"),
    ROW(picollo_bench_compare_html, bench_html_null_buf, NULLP, "`buf`"),
    ROW(picollo_bench_compare_html, bench_html_small, SMALL, NULL),
    ROW(picollo_bench_results_text, bench_results_ok, OK, NULL),
    ROW(picollo_bench_results_text, bench_results_null, NULLP, "`results`"),
    ROW(picollo_bench_results_text, bench_results_null_element, NULLP, "`results[1]`"),
    ROW(picollo_bench_results_text, bench_results_none, INVAL, "no result (n is 0)"),
    ROW(picollo_bench_results_text, bench_results_one_result_format, INVAL, "format 5 writes one result"),
    ROW(picollo_bench_results_text, bench_results_format_max, INVAL, "4294967295"),
    ROW(picollo_bench_results_text, bench_results_size_query, SMALL, NULL),
    ROW(picollo_bench_summary, bench_summary_ok, OK, NULL),
    ROW(picollo_bench_summary, bench_summary_null_a, NULLP, "`a`"),
    ROW(picollo_bench_summary, bench_summary_null_b_element, NULLP, "`b[0]`"),
    ROW(picollo_bench_summary, bench_summary_none, INVAL, "a: no result (n is 0)"),
    ROW(picollo_bench_summary, bench_summary_small, SMALL, NULL),
    ROW(picollo_bench_result_format, bench_format_ok, OK, NULL),
    ROW(picollo_bench_result_format, bench_format_null_r, NULLP, "`r`"),
    ROW(picollo_bench_result_format, bench_format_null_name, NULLP, "`name`"),
    ROW(picollo_bench_result_format, bench_format_bad_name, ST(INVALID_UTF8), "`name`"),
    ROW(picollo_bench_result_format, bench_format_unknown, INVAL, "unknown format \"csv\": the formats are report, "),
    ROW(picollo_bench_result_format, bench_format_null_buf, NULLP, "`buf`"),
    ROW(picollo_bench_result_format, bench_format_size_query, SMALL, NULL),
    ROW(picollo_bench_results_format, bench_formats_ok, OK, NULL),
    ROW(picollo_bench_results_format, bench_formats_null, NULLP, "`results`"),
    ROW(picollo_bench_results_format, bench_formats_null_element, NULLP, "`results[1]`"),
    ROW(picollo_bench_results_format, bench_formats_null_name, NULLP, "`name`"),
    ROW(picollo_bench_results_format, bench_formats_unknown, INVAL, "unknown format \"yaml\""),
    ROW(picollo_bench_results_format, bench_formats_none, INVAL, "no result (n is 0)"),
    ROW(picollo_bench_results_format, bench_formats_one_result_form, INVAL, "format \"line\" writes one result"),
    ROW(picollo_bench_results_format, bench_formats_size_query, SMALL, NULL),
    ROW(picollo_bench_format_names, bench_fnames_ok, OK, NULL),
    ROW(picollo_bench_format_names, bench_fnames_small, SMALL, "3 bytes"),
    ROW(picollo_bench_format_names, bench_fnames_null_buf, NULLP, "`buf`"),
    ROW(picollo_bench_compare_run, bench_pair_ok, OK, NULL),
    ROW(picollo_bench_compare_run, bench_pair_null_config, NULLP, "`config`"),
    ROW(picollo_bench_compare_run, bench_pair_null_work_a, NULLP, "`work_a`"),
    ROW(picollo_bench_compare_run, bench_pair_null_work_b, NULLP, "`work_b`"),
    ROW(picollo_bench_compare_run, bench_pair_null_out_b, NULLP, "`out_b`"),
    ROW(picollo_bench_compare_run, bench_pair_bad_utf8_name, ST(INVALID_UTF8), "name_a"),
    ROW(picollo_bench_compare_run, bench_pair_rounds_max, INVAL, "rounds"),
    ROW(picollo_bench_compare_run, bench_pair_threshold_nan, INVAL, "threshold"),
    ROW(picollo_bench_compare_run, bench_pair_threshold_minus_inf, INVAL, "threshold"),
    ROW(picollo_bench_compare_run, bench_pair_size_1_10, OK, NULL),
    ROW(picollo_bench_compare_run, bench_pair_size_between, SIZE, "picollo_bench_config_default"),
    ROW(picollo_bench_compare_run, bench_pair_size_1_14, OK, NULL),
    ROW(picollo_bench_compare_run, bench_pair_fixed_offsets_2, INVAL, "fixed_offsets"),
    ROW(picollo_bench_result_metric_exact, bench_exact_ok, OK, NULL),
    ROW(picollo_bench_result_metric_exact, bench_exact_null_r, NULLP, "`r`"),
    ROW(picollo_bench_result_metric_exact, bench_exact_null_out, NULLP, "`out`"),
    ROW(picollo_bench_result_metric_exact, bench_exact_index_max, ST(OUT_OF_RANGE), "18446744073709551615"),
    ROW(picollo_bench_result_metric_floor, bench_floor_ok, OK, NULL),
    ROW(picollo_bench_result_metric_floor, bench_floor_null_r, NULLP, "`r`"),
    ROW(picollo_bench_result_metric_floor, bench_floor_null_out, NULLP, "`out`"),
    ROW(picollo_bench_result_metric_floor, bench_floor_small, SIZE, "sizeof(picollo_bench_floor)"),
    ROW(picollo_bench_result_metric_floor, bench_floor_index_max, ST(OUT_OF_RANGE), "18446744073709551615"),
    ROW(picollo_bench_result_percentile, bench_percentile_ok, OK, NULL),
    ROW(picollo_bench_result_percentile, bench_percentile_null_r, NULLP, "`r`"),
    ROW(picollo_bench_result_percentile, bench_percentile_null_out, NULLP, "`out`"),
    ROW(picollo_bench_result_percentile, bench_percentile_index_max, ST(OUT_OF_RANGE), "18446744073709551615"),
    ROW(picollo_bench_result_percentile, bench_percentile_rank_101, INVAL, "rank 101"),
    ROW(picollo_bench_result_percentile, bench_percentile_rank_nan, INVAL, "rank NaN"),
    ROW(picollo_bench_result_constant, bench_constant_not_exact, INVAL, "not exact"),
    ROW(picollo_bench_result_constant, bench_constant_null_r, NULLP, "`r`"),
    ROW(picollo_bench_result_constant, bench_constant_null_out, NULLP, "`out`"),
    ROW(picollo_bench_result_constant, bench_constant_index_max, ST(OUT_OF_RANGE), "18446744073709551615"),
    ROW(picollo_bench_result_median_round, bench_median_round_ok, OK, NULL),
    ROW(picollo_bench_result_median_round, bench_median_round_null_r, NULLP, "`r`"),
    ROW(picollo_bench_result_median_round, bench_median_round_null_out, NULLP, "`out`"),
    ROW(picollo_bench_judge_apart, bench_judge_apart_ok, OK, NULL),
    ROW(picollo_bench_judge_apart, bench_judge_apart_null_b, NULLP, "`b`"),
    ROW(picollo_bench_judge_apart, bench_judge_apart_null_runs, NULLP, "runs_apart"),
    ROW(picollo_bench_judge_apart, bench_judge_apart_zero_run, INVAL, "runs_apart holds 0"),
    ROW(picollo_bench_judge_apart, bench_judge_apart_nan_run, INVAL, "runs_apart holds NaN"),
    ROW(picollo_bench_judge_apart, bench_judge_apart_small_buf, SMALL, NULL),
    ROW(picollo_bench_judge_apart, bench_judge_apart_small_struct, SIZE, "picollo_bench_comparison"),
    ROW(picollo_bench_compare_info, bench_info_null_a, NULLP, "`a`"),
    ROW(picollo_bench_compare_info, bench_info_null_b, NULLP, "`b`"),
    ROW(picollo_bench_compare_info, bench_info_null_out, NULLP, "`out`"),
    ROW(picollo_bench_compare_info, bench_info_small, SIZE, "sizeof(picollo_bench_comparison)"),
    ROW(picollo_bench_compare_info, bench_info_ok, OK, NULL),
    ROW(picollo_suite_new, suite_new_null_name, NULLP, "`name`"),
    ROW(picollo_suite_new, suite_new_null_out, NULLP, "`out`"),
    ROW(picollo_suite_new, suite_new_bad_utf8, ST(INVALID_UTF8), "`name`"),
    ROW(picollo_suite_free, suite_free_null, OK, NULL),
    ROW(picollo_suite_set_config, suite_config_null_suite, NULLP, "`suite`"),
    ROW(picollo_suite_set_config, suite_config_null_config, NULLP, "`config`"),
    ROW(picollo_suite_set_config, suite_config_size_0, SIZE, "picollo_bench_config_default"),
    ROW(picollo_suite_set_config, suite_config_counter, INVAL, "Software:NoSuchThing"),
    ROW(picollo_suite_set_config, suite_config_ok, OK, NULL),
    ROW(picollo_suite_add, suite_add_null_suite, NULLP, "`suite`"),
    ROW(picollo_suite_add, suite_add_null_name, NULLP, "`name`"),
    ROW(picollo_suite_add, suite_add_null_work, NULLP, "`work`"),
    ROW(picollo_suite_add, suite_add_bad_utf8, ST(INVALID_UTF8), "`name`"),
    ROW(picollo_suite_add_param, suite_param_null_suite, NULLP, "`suite`"),
    ROW(picollo_suite_add_param, suite_param_null_name, NULLP, "`name`"),
    ROW(picollo_suite_add_param, suite_param_null_param, NULLP, "`param`"),
    ROW(picollo_suite_add_param, suite_param_null_work, NULLP, "`work`"),
    ROW(picollo_suite_add_param, suite_param_bad_utf8, ST(INVALID_UTF8), "`param`"),
    ROW(picollo_suite_add_param, suite_param_ok, OK, NULL),
    ROW(picollo_suite_set_throughput, suite_throughput_null_suite, NULLP, "`suite`"),
    ROW(picollo_suite_set_throughput, suite_throughput_null_name, NULLP, "`name`"),
    ROW(picollo_suite_set_throughput, suite_throughput_null_unit, NULLP, "`unit`"),
    ROW(picollo_suite_set_throughput, suite_throughput_bad_utf8, ST(INVALID_UTF8), "`unit`"),
    ROW(picollo_suite_set_throughput, suite_throughput_unit, INVAL, "the units are elements, bytes"),
    ROW(picollo_suite_set_throughput, suite_throughput_zero, INVAL, "a throughput of 0 elements"),
    ROW(picollo_suite_set_throughput, suite_throughput_unknown, INVAL, "no benchmark of that name"),
    ROW(picollo_suite_set_throughput, suite_throughput_ok, OK, NULL),
    ROW(picollo_suite_set_throughput, suite_throughput_param_ok, OK, NULL),
    ROW(picollo_suite_set_throughput, suite_throughput_no_param, INVAL, "\"a/2\": no benchmark"),
    ROW(picollo_suite_set_throughput, suite_throughput_bad_param, ST(INVALID_UTF8), "`param`"),
    ROW(picollo_suite_set_batch, suite_batch_null_suite, NULLP, "`suite`"),
    ROW(picollo_suite_set_batch, suite_batch_null_name, NULLP, "`name`"),
    ROW(picollo_suite_set_batch, suite_batch_bad_utf8, ST(INVALID_UTF8), "`name`"),
    ROW(picollo_suite_set_batch, suite_batch_bad_param, ST(INVALID_UTF8), "`param`"),
    ROW(picollo_suite_set_batch, suite_batch_zero, INVAL, "0 is not 1 to 2^24"),
    ROW(picollo_suite_set_batch, suite_batch_too_big, INVAL, "16777217 is not 1 to 2^24"),
    ROW(picollo_suite_set_batch, suite_batch_unknown, INVAL, "no benchmark of that name"),
    ROW(picollo_suite_set_batch, suite_batch_no_param, INVAL, "\"a/2\": no benchmark"),
    ROW(picollo_suite_set_batch, suite_batch_ok, OK, NULL),
    ROW(picollo_suite_set_batch, suite_batch_param_ok, OK, NULL),
    ROW(picollo_suite_set_manual_time, suite_manual_null_suite, NULLP, "`suite`"),
    ROW(picollo_suite_set_manual_time, suite_manual_null_name, NULLP, "`name`"),
    ROW(picollo_suite_set_manual_time, suite_manual_bad_utf8, ST(INVALID_UTF8), "`name`"),
    ROW(picollo_suite_set_manual_time, suite_manual_bad_param, ST(INVALID_UTF8), "`param`"),
    ROW(picollo_suite_set_manual_time, suite_manual_unknown, INVAL, "no benchmark of that name"),
    ROW(picollo_suite_set_manual_time, suite_manual_no_param, INVAL, "\"a/2\": no benchmark"),
    ROW(picollo_suite_set_manual_time, suite_manual_ok, OK, NULL),
    ROW(picollo_suite_set_manual_time, suite_manual_param_ok, OK, NULL),
    ROW(picollo_suite_set_iteration_time, suite_iteration_time_negative, INVAL, "not a finite time"),
    ROW(picollo_suite_set_iteration_time, suite_iteration_time_nan, INVAL, "not a finite time"),
    ROW(picollo_suite_set_iteration_time, suite_iteration_time_inf, INVAL, "not a finite time"),
    ROW(picollo_suite_set_iteration_time, suite_iteration_time_ok, OK, NULL),
    ROW(picollo_suite_set_worker, suite_worker_null_suite, NULLP, "`suite`"),
    ROW(picollo_suite_set_worker, suite_worker_null_argv, NULLP, "`argv`"),
    ROW(picollo_suite_set_worker, suite_worker_no_program, INVAL, "argc is 0"),
    ROW(picollo_suite_set_worker, suite_worker_bad_utf8, ST(INVALID_UTF8), "argv[i]"),
    ROW(picollo_suite_set_worker, suite_worker_ok, OK, NULL),
    ROW(picollo_suite_fail, suite_fail_outside, INVAL, "no benchmark of picollo_suite_main"),
    ROW(picollo_suite_pause, suite_pause_outside, OK, NULL),
    ROW(picollo_suite_resume, suite_resume_outside, OK, NULL),
    ROW(picollo_suite_main, suite_main_null_suite, OK, NULL),
    ROW(picollo_suite_main, suite_main_negative_argc, OK, NULL),
    ROW(picollo_suite_main, suite_main_null_argv, OK, NULL),
    ROW(picollo_suite_main, suite_main_bad_utf8_arg, OK, NULL),
    ROW(picollo_suite_main, suite_main_unknown_flag, OK, NULL),
    ROW(picollo_suite_main, suite_main_bad_budget, OK, NULL),
    ROW(picollo_suite_main, suite_main_empty_name, OK, NULL),
    ROW(picollo_suite_main, suite_main_no_match, OK, NULL),
    ROW(picollo_suite_main, suite_main_list, OK, NULL),
};

/* ---- the runner ---- */

/* The longest run of digits in `s` (a 300-digit 1e300 is what this catches). */
static size_t longest_digit_run(const char *s)
{
    size_t best = 0, run = 0;
    for (; *s; s++) {
        run = (*s >= '0' && *s <= '9') ? run + 1 : 0;
        best = run > best ? run : best;
    }
    return best;
}

/* Run one row: its status must be in its set; a failure's message must be fresh,
 * NUL-terminated, contain the needle and write numbers compactly. */
static void run_row(const bad_row *r, int index)
{
    static char marker[512], msg[4096];
    const char *m;
    picollo_status st;
    prime_error();
    strncpy(marker, picollo_last_error_message(), sizeof marker - 1);
    st = r->run();
    /* Copy the message before any other call can replace it. */
    m = picollo_last_error_message();
    if (!check_at(index, m != NULL && strnlen(m, sizeof msg) < sizeof msg, r->name,
                  "%s: the message is NULL or not NUL-terminated within %lu bytes",
                  r->function, (unsigned long)sizeof msg)) {
        return;
    }
    strcpy(msg, m);
    if (!check_at(index, st < 32 && (r->want & (1u << st)) != 0, r->name,
                  "%s: returned %u (%s); last error \"%s\"", r->function, (unsigned)st,
                  picollo_status_str(st), msg) ||
        st == PICOLLO_STATUS_OK) {
        return;
    }
    check_at(index, msg[0] != '\0' && strcmp(msg, marker) != 0, r->name,
             "%s: the failure left no fresh message (\"%s\")", r->function, msg);
    if (r->needle != NULL) {
        check_at(index, strstr(msg, r->needle) != NULL, r->name,
                 "%s: message \"%s\" does not contain \"%s\"", r->function, msg, r->needle);
    }
    check_at(index, longest_digit_run(msg) <= 24, r->name,
             "%s: a number of %lu digits in \"%.160s...\"", r->function,
             (unsigned long)longest_digit_run(msg), msg);
}

static void make_fixtures(void)
{
    picollo_histogram_config c = picollo_histogram_config_default();
    picollo_perf_config pc = picollo_perf_config_default();
    h = make_histogram(64, 0.001, 0, UINT64_MAX);
    picollo_histogram_record(h, 1);
    picollo_histogram_record(h, 2);
    picollo_histogram_record(h, 3);
    picollo_histogram_record(h, 1000);
    empty = make_histogram(64, 0.001, 0, UINT64_MAX);
    coarse = make_histogram(64, 0.01, 0, UINT64_MAX);
    c.mode = PICOLLO_MODE_INTERLOCKED;
    if (picollo_histogram_new(&c, &shared) != PICOLLO_STATUS_OK ||
        picollo_snapshot_new(h, &snap) != PICOLLO_STATUS_OK ||
        picollo_cumulative_new(h, &cum) != PICOLLO_STATUS_OK ||
        picollo_cumulative_new(empty, &cum_empty) != PICOLLO_STATUS_OK ||
        picollo_approx_counter_new(0, 0, 0, &approx) != PICOLLO_STATUS_OK ||
        picollo_log_writer_new(&lw) != PICOLLO_STATUS_OK ||
        picollo_openmetrics_writer_new(&ow) != PICOLLO_STATUS_OK ||
        picollo_perf_session_new(&pc, &ps) != PICOLLO_STATUS_OK ||
        picollo_perf_session_add_software(ps, PICOLLO_PERF_SOFTWARE_EVENT_TASK_CLOCK) !=
            PICOLLO_STATUS_OK ||
        picollo_perf_session_new(&pc, &ps_none) != PICOLLO_STATUS_OK ||
        picollo_perf_session_new(&pc, &ps_open) != PICOLLO_STATUS_OK ||
        picollo_perf_session_add_software(ps_open, PICOLLO_PERF_SOFTWARE_EVENT_TASK_CLOCK) !=
            PICOLLO_STATUS_OK) {
        fprintf(stderr, "FATAL: cannot create the fixtures: %s\n", picollo_last_error_message());
        exit(2);
    }
    if (picollo_perf_session_open(ps_open) != PICOLLO_STATUS_OK) {
        /* perf_event_open forbidden here (paranoid 3, seccomp): the open-session rows fall
         * back to the unopened session, where the same bad arguments fail the same way. */
        printf("note: a software counter cannot be opened here (%s)\n", picollo_last_error_message());
        picollo_perf_session_free(ps_open);
        ps_open = NULL;
    }
    {
        picollo_bench_config bc = bench_config();
        if (picollo_bench_run(&bc, bench_work, NULL, &br) != PICOLLO_STATUS_OK) {
            fprintf(stderr, "FATAL: cannot run the bench fixture: %s\n", picollo_last_error_message());
            exit(2);
        }
    }
    {
        picollo_openmetrics_options o = picollo_openmetrics_options_default();
        CHECK(picollo_openmetrics_writer_family(ow, "fixture", NULL, NULL, &o) == PICOLLO_STATUS_OK);
    }
    sum = summary_of(h);
    CHECK(picollo_histogram_percentile(h, 50.0, &pct) == PICOLLO_STATUS_OK);
}

static void make_float_fixtures(void)
{
    picollo_float_config c = picollo_float_config_default();
    if (picollo_float_histogram_new(&c, &fh) != PICOLLO_STATUS_OK ||
        picollo_float_histogram_new(&c, &fempty) != PICOLLO_STATUS_OK) {
        fprintf(stderr, "FATAL: cannot create the float fixtures: %s\n",
                picollo_last_error_message());
        exit(2);
    }
    c.relative_error = 0.01;
    c.min_magnitude = 1.0;
    c.max_magnitude = 1000.0;
    if (picollo_float_histogram_new(&c, &fcoarse) != PICOLLO_STATUS_OK) {
        exit(2);
    }
    picollo_float_histogram_record(fh, -2.5);
    picollo_float_histogram_record(fh, 0.0);
    picollo_float_histogram_record(fh, 1.5);
    picollo_float_histogram_record(fh, 1e6);
    if (picollo_float_snapshot_new(fh, &fsnap) != PICOLLO_STATUS_OK) {
        exit(2);
    }
}

static void free_fixtures(void)
{
    picollo_float_histogram_free(fh);
    picollo_float_histogram_free(fempty);
    picollo_float_histogram_free(fcoarse);
    picollo_float_snapshot_free(fsnap);
    picollo_histogram_free(h);
    picollo_histogram_free(empty);
    picollo_histogram_free(coarse);
    picollo_histogram_free(shared);
    picollo_snapshot_free(snap);
    picollo_cumulative_free(cum);
    picollo_cumulative_free(cum_empty);
    picollo_approx_counter_free(approx);
    picollo_log_writer_free(lw);
    picollo_openmetrics_writer_free(ow);
    picollo_perf_session_free(ps);
    picollo_perf_session_free(ps_none);
    picollo_perf_session_free(ps_open);
    picollo_bench_result_free(br);
}

int main(int argc, char **argv)
{
    size_t i, n = sizeof rows / sizeof rows[0];
    size_t functions = 0;
    picollo_summary after;
    check_init();
    make_fixtures();
    make_float_fixtures();
    for (i = 0; i < n; i++) {
        if (argc > 1 && strcmp(argv[1], "-v") == 0) {
            printf("%s / %s\n", rows[i].function, rows[i].name);
        }
        run_row(&rows[i], (int)i);
        if (i == 0 || strcmp(rows[i].function, rows[i - 1].function) != 0) {
            functions++;
        }
    }
    /* No failed call changed a fixture: outputs are written only on success. */
    after = summary_of(h);
    CHECK(same_summary(&sum, &after));
    CHECK(info_of(empty).total == 0 && info_of(coarse).total == 0);
    printf("bad-input matrix: %lu rows over %lu functions\n", (unsigned long)n,
           (unsigned long)functions);
    free_fixtures();
    return check_finish();
}
