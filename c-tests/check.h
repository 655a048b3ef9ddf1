/*
 * check.h: the tiny check framework shared by the C tests (test_abi.c and its parts).
 *
 * Every CHECK counts as one check; a failed one prints where and why. EXPECT runs a call
 * that returns a picollo_status and, when a failure is expected, also checks that this very
 * call left a fresh, non-empty message for picollo_last_error_message(): before the call a
 * known "marker" failure is provoked, so a message left over from an earlier call cannot
 * pass for this one.
 */
#ifndef PICOLLO_C_TESTS_CHECK_H
#define PICOLLO_C_TESTS_CHECK_H

#include <stddef.h>
#include <stdint.h>

#include "picollo.h"

#if defined(__GNUC__)
#define CHECK_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define CHECK_PRINTF(f, a)
#endif

/* Record one check: `ok` is its outcome; on failure print the line, the expression and, if
 * `fmt` is not NULL, a printf-style explanation. Returns `ok`. */
int check_at(int line, int ok, const char *expr, const char *fmt, ...) CHECK_PRINTF(4, 5);

/* One check that `got == want`; for an expected failure a second check that the call left
 * a fresh message, and a third that the message contains `needle` (when not NULL). */
int expect_at(int line, const char *call, picollo_status got, picollo_status want,
              const char *needle);

/* Leave the marker message as this thread's last error (see the file comment). */
void prime_error(void);

/* Create the marker histogram; call once before any EXPECT. */
void check_init(void);

/* Free the marker, print "N passed, M failed" and return the exit status. */
int check_finish(void);

/* ---- helpers shared by the test parts ---- */

/* SplitMix64: a small deterministic generator. */
uint64_t rng_next(uint64_t *state);
/* Uniform in [0, 1). */
double rng_unit(uint64_t *state);

/* An independent model of the bucket layout (docs/concepts.md), to check the library against. */
typedef struct layout_model {
    unsigned scale;      /* log2(block_size) */
    uint64_t block_size; /* buckets per block */
} layout_model;

/* Block size for a relative error: next_power_of_two(ceil(0.5 / e)), e clamped to
 * [1e-6, 0.1]. */
uint64_t model_block_size(double relative_error);
layout_model model_of_block_size(uint64_t block_size);
uint64_t model_index(layout_model m, uint64_t v);
uint64_t model_lower(layout_model m, uint64_t index);
uint64_t model_highest(layout_model m, uint64_t index);

/* The default configuration with this concurrency mode, counter width and relative error. */
picollo_histogram_config config_of(uint32_t mode, uint32_t counter_bits, double relative_error);
/* picollo_histogram_new(c); a message naming the configuration and exit(2) if it fails. */
picollo_histogram *new_or_exit(const picollo_histogram_config *c);
/* A histogram with the default config but these fields; aborts the run if creation fails. */
picollo_histogram *make_histogram(uint32_t counter_bits, double relative_error, uint64_t min,
                                  uint64_t max);
picollo_histogram_info info_of(const picollo_histogram *h);
picollo_summary summary_of(const picollo_histogram *h);
/* memcmp of two summaries (every field is 8 bytes: no padding). */
int same_summary(const picollo_summary *a, const picollo_summary *b);

/* The 16 ranks of a summary, in order. */
extern const double standard_ranks[PICOLLO_SUMMARY_PERCENTILES];

/* The parts of test_abi (one file each). */
void test_configs(void);        /* test_abi_config.c */
void test_recording(void);      /* test_abi_record.c */
void test_model(void);          /* test_abi_model.c */
void test_queries(void);        /* test_abi_query.c */
void test_merge_snapshots(void); /* test_abi_merge.c */
void test_text(void);           /* test_abi_text.c */
void test_hdr(void);            /* test_abi_hdr.c */
void test_metrics(void);        /* test_abi_metrics.c */
void test_float(void);          /* test_abi_float.c */
void test_lookup(void);         /* test_abi_lookup.c */
void test_bench(void);          /* test_abi_bench.c */
void test_prometheus_native(void); /* test_abi_native.c */
void test_read_path_under_valgrind(void); /* test_abi_read_path.c */

#define CHECK(cond) check_at(__LINE__, !!(cond), #cond, NULL)
#define CHECKF(cond, ...) check_at(__LINE__, !!(cond), #cond, __VA_ARGS__)
#define EXPECT(call, want) (prime_error(), expect_at(__LINE__, #call, (call), (want), NULL))
#define EXPECT_MSG(call, want, needle) \
    (prime_error(), expect_at(__LINE__, #call, (call), (want), (needle)))

#endif /* PICOLLO_C_TESTS_CHECK_H */
