/*
 * test_abi.c: the whole C ABI of Picollo (include/picollo.h) driven from C99, bad inputs
 * included. This file holds main, the ABI's fixed facts (versions, status texts, struct
 * layouts) and the per-thread last error; the other parts are test_abi_config.c (creation
 * and bad configurations), test_abi_record.c, test_abi_model.c (queries against a brute-force
 * model), test_abi_query.c, test_abi_merge.c (merges and snapshots), test_abi_text.c
 * (with text_protocol.c), test_abi_hdr.c (V2, .hgrm, interval logs), test_abi_metrics.c
 * (collect, OpenMetrics, Prometheus buckets, OTLP), test_abi_float.c (the float
 * histogram), test_abi_lookup.c (queries by value, other precisions) and test_abi_bench.c
 * (the benchmark harness), and check.c for the checks and shared helpers.
 *
 * Every check prints what failed; the last line is "N passed, M failed" and the exit status
 * is non-zero when anything failed.
 */
/* pthreads for the per-thread error check (POSIX on top of C99). */
#define _POSIX_C_SOURCE 200809L

#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

/* ---- fixed facts of the ABI ---- */

static void test_versions_and_status_texts(void)
{
    uint32_t v = picollo_abi_version();
    uint32_t s;
    const char *texts[PICOLLO_STATUS_UNENCODABLE + 1];
    int distinct = 1;
    unsigned i, j;

    CHECKF(v == PICOLLO_ABI_VERSION, "library 0x%08x, header 0x%08x", (unsigned)v,
           (unsigned)PICOLLO_ABI_VERSION);
    CHECK(v >> 16 == PICOLLO_ABI_VERSION_MAJOR);
    CHECK((v & 0xFFFFu) == PICOLLO_ABI_VERSION_MINOR);

    /* The codes are ABI: bindings hard-code them. */
    CHECK(PICOLLO_STATUS_OK == 0 && PICOLLO_STATUS_NULL_POINTER == 1 &&
          PICOLLO_STATUS_INVALID_ARGUMENT == 2 && PICOLLO_STATUS_STRUCT_SIZE == 3 &&
          PICOLLO_STATUS_BUFFER_TOO_SMALL == 4 && PICOLLO_STATUS_EMPTY == 5 &&
          PICOLLO_STATUS_LAYOUT_MISMATCH == 6 && PICOLLO_STATUS_WOULD_GO_NEGATIVE == 7 &&
          PICOLLO_STATUS_OUT_OF_RANGE == 8 && PICOLLO_STATUS_INVALID_UTF8 == 9 &&
          PICOLLO_STATUS_UNSUPPORTED == 10 && PICOLLO_STATUS_PERMISSION_DENIED == 11 &&
          PICOLLO_STATUS_OS_ERROR == 12 && PICOLLO_STATUS_PANIC == 13 &&
          PICOLLO_STATUS_OUT_OF_MEMORY == 14 && PICOLLO_STATUS_FORMAT_ERROR == 15 &&
          PICOLLO_STATUS_UNENCODABLE == 16);
    CHECK(PICOLLO_VALUE_SELECTION_MIDPOINT == 0 && PICOLLO_VALUE_SELECTION_LOWER == 1 &&
          PICOLLO_VALUE_SELECTION_UPPER == 2 && PICOLLO_VALUE_SELECTION_INTERPOLATED == 3);
    CHECK(PICOLLO_MODE_SINGLE_WRITER == 0 && PICOLLO_MODE_INTERLOCKED == 1);
    CHECK(PICOLLO_MODE_THREAD_LOCAL == 2 && PICOLLO_MODE_APPROXIMATE == 3);

    for (s = 0; s <= PICOLLO_STATUS_UNENCODABLE; s++) {
        const char *t = picollo_status_str(s);
        texts[s] = t;
        CHECKF(t != NULL && t[0] != '\0' && strcmp(t, "unknown status") != 0,
               "status %u has text \"%s\"", (unsigned)s, t ? t : "(NULL)");
        if (t == NULL) {
            texts[s] = "";
        }
    }
    for (i = 0; i <= PICOLLO_STATUS_UNENCODABLE; i++) {
        for (j = i + 1; j <= PICOLLO_STATUS_UNENCODABLE; j++) {
            if (strcmp(texts[i], texts[j]) == 0) {
                distinct = 0;
                fprintf(stderr, "  statuses %u and %u share the text \"%s\"\n", i, j, texts[i]);
            }
        }
    }
    CHECK(distinct);
    CHECK(strcmp(picollo_status_str(PICOLLO_STATUS_OK), "ok") == 0);
    {
        const uint32_t unknown[] = {PICOLLO_STATUS_UNENCODABLE + 1, 100, 0x7FFFFFFFu, UINT32_MAX};
        for (i = 0; i < sizeof unknown / sizeof unknown[0]; i++) {
            const char *t = picollo_status_str(unknown[i]);
            CHECKF(t != NULL && strcmp(t, "unknown status") == 0, "status %u gives \"%s\"",
                   (unsigned)unknown[i], t ? t : "(NULL)");
        }
    }
    CHECK(picollo_last_error_message() != NULL);
}

/* The structs are blittable and fixed: .NET and ctypes mirror these offsets. */
static void test_struct_layouts(void)
{
    CHECK(sizeof(picollo_status) == 4);
    CHECK(sizeof(picollo_histogram_config) == 64);
    CHECK(offsetof(picollo_histogram_config, relative_error) == 8);
    CHECK(offsetof(picollo_histogram_config, max_trackable) == 24);
    CHECK(offsetof(picollo_histogram_config, storage) == 44);
    CHECK(offsetof(picollo_histogram_config, exact_extremes) == 48); /* ABI 1.7 */
    CHECK(offsetof(picollo_histogram_config, lowest_discernible) == 56); /* ABI 1.11 */
    CHECK(sizeof(picollo_percentile) == 88);
    CHECK(offsetof(picollo_percentile, rank_count) == 80);
    CHECK(sizeof(picollo_summary) == 16 * 88 + 9 * 8);
    CHECK(offsetof(picollo_summary, total) == 16 * 88);
    CHECK(offsetof(picollo_summary, max_trackable) == 16 * 88 + 8 * 8);
    CHECK(sizeof(picollo_bucket) == 48);
    CHECK(sizeof(picollo_histogram_info) == 96);
    CHECK(offsetof(picollo_histogram_info, relative_error) == 72);
    CHECK(offsetof(picollo_histogram_info, approx_threshold) == 92);
}

/* ---- the last error is per thread ---- */

static void *fail_on_another_thread(void *arg)
{
    int *ok = arg;
    const char *before = picollo_last_error_message();
    /* Nothing failed on this thread yet: "". */
    ok[0] = before != NULL && before[0] == '\0';
    ok[1] = picollo_histogram_reset(NULL) == PICOLLO_STATUS_NULL_POINTER &&
            strstr(picollo_last_error_message(), "`h`") != NULL;
    return NULL;
}

static void test_thread_local_error(void)
{
    picollo_histogram_config c = picollo_histogram_config_default();
    picollo_histogram *h = NULL;
    char mine[512];
    int ok[2] = {0, 0};
    pthread_t t;

    c.counter_bits = 7;
    EXPECT_MSG(picollo_histogram_new(&c, &h), PICOLLO_STATUS_INVALID_ARGUMENT, "counter_bits");
    strncpy(mine, picollo_last_error_message(), sizeof mine - 1);
    mine[sizeof mine - 1] = '\0';
    if (CHECK(pthread_create(&t, NULL, fail_on_another_thread, ok) == 0)) {
        CHECK(pthread_join(t, NULL) == 0);
        CHECK(ok[0]);
        CHECK(ok[1]);
    }
    /* The other thread's failure did not replace this thread's message. */
    CHECKF(strcmp(picollo_last_error_message(), mine) == 0, "now \"%s\"",
           picollo_last_error_message());
}

int main(void)
{
    check_init();
    test_versions_and_status_texts();
    test_struct_layouts();
    test_thread_local_error();
    test_configs();
    test_recording();
    test_model();
    test_queries();
    test_merge_snapshots();
    test_text();
    test_hdr();
    test_metrics();
    test_prometheus_native();
    test_float();
    test_lookup();
    test_bench();
    test_read_path_under_valgrind();
    return check_finish();
}
