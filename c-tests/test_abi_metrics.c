/*
 * test_abi_metrics.c: metrics pipelines through the C ABI. Interval collection in every mode
 * (into a new histogram and into a snapshot), and exact while writer threads record in the
 * interlocked mode; the OpenMetrics text (one shot, and a writer for several families that
 * ends with # EOF and writes what the one-shot function writes); the cumulative buckets for
 * Prometheus clients against the text's; OTLP as protobuf and JSON; bad options refused.
 */
/* pthreads for the writers that record while intervals are collected. */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text_protocol.h"

#define THREE_DIGITS (0.5 / 1024.0)

/* ---- helpers ---- */

static void *checked(void *p)
{
    if (p == NULL) {
        fprintf(stderr, "FATAL: out of memory\n");
        exit(2);
    }
    return p;
}

static picollo_histogram *with_mode(uint32_t bits, uint32_t mode)
{
    picollo_histogram_config c = picollo_histogram_config_default();
    picollo_histogram *h = NULL;
    c.counter_bits = bits;
    c.relative_error = THREE_DIGITS;
    c.mode = mode;
    if (picollo_histogram_new(&c, &h) != PICOLLO_STATUS_OK) {
        fprintf(stderr, "FATAL: picollo_histogram_new: %s\n", picollo_last_error_message());
        exit(2);
    }
    return h;
}

static uint64_t total_of(const picollo_histogram *h)
{
    picollo_histogram_info i = info_of(h);
    return i.total + i.underflow + i.overflow + i.saturated;
}

/* The one-shot OpenMetrics text of `h` (malloc'ed), through a size query and a short buffer. */
static char *openmetrics(const picollo_histogram *h, const char *name, const char *help,
                         const char *unit, const picollo_label *labels, size_t n,
                         const picollo_openmetrics_options *o)
{
    size_t needed = 0, again = 0;
    char small[8], *text;
    EXPECT(picollo_histogram_openmetrics(h, name, help, unit, labels, n, o, NULL, 0, &needed),
           PICOLLO_STATUS_BUFFER_TOO_SMALL);
    EXPECT(picollo_histogram_openmetrics(h, name, help, unit, labels, n, o, small, sizeof small,
                                         &again),
           PICOLLO_STATUS_BUFFER_TOO_SMALL);
    CHECK(again == needed && small[sizeof small - 1] == '\0');
    text = checked(malloc(needed + 1));
    EXPECT(picollo_histogram_openmetrics(h, name, help, unit, labels, n, o, text, needed + 1,
                                         &again),
           PICOLLO_STATUS_OK);
    CHECK(again == needed && strlen(text) == needed);
    return text;
}

/* Everything pending in the writer (malloc'ed); nothing is pending afterwards. */
static char *take(picollo_openmetrics_writer *w)
{
    size_t needed = 0, again = 0;
    char *text;
    EXPECT(picollo_openmetrics_writer_take(w, NULL, 0, &needed), PICOLLO_STATUS_BUFFER_TOO_SMALL);
    text = checked(malloc(needed + 1));
    EXPECT(picollo_openmetrics_writer_take(w, text, needed + 1, &again), PICOLLO_STATUS_OK);
    CHECK(again == needed && strlen(text) == needed);
    EXPECT(picollo_openmetrics_writer_take(w, NULL, 0, &again), PICOLLO_STATUS_BUFFER_TOO_SMALL);
    CHECK(again == 0);
    return text;
}

/* ---- collect ---- */

static void test_collect_modes(void)
{
    uint32_t bits, mode;
    for (bits = 32; bits <= 64; bits += 32) {
        for (mode = PICOLLO_MODE_SINGLE_WRITER; mode <= PICOLLO_MODE_APPROXIMATE; mode++) {
            picollo_histogram *h = with_mode(bits, mode), *first = NULL, *second = NULL;
            picollo_snapshot *s = NULL;
            picollo_summary sum;
            uint64_t v;
            for (v = 1; v <= 1000; v++) {
                picollo_histogram_record(h, v * 31);
            }
            picollo_histogram_record_n(h, 5, 10);
            EXPECT(picollo_histogram_collect(h, &first), PICOLLO_STATUS_OK);
            CHECKF(total_of(first) == 1010 && total_of(h) == 0, "bits %u mode %u", bits, mode);
            CHECK(info_of(first).counter_bits == 64 && info_of(first).mode == PICOLLO_MODE_SINGLE_WRITER);
            CHECK(info_of(first).relative_error == info_of(h).relative_error);
            /* The interval's percentiles are those of what was recorded. */
            sum = summary_of(first);
            CHECK(sum.total == 1010 && sum.percentiles[0].value == 5);

            picollo_histogram_record(h, 123456);
            EXPECT(picollo_histogram_collect(h, &second), PICOLLO_STATUS_OK);
            CHECK(total_of(second) == 1 &&
                  fabs((double)summary_of(second).percentiles[0].value - 123456.0) <= 123456.0 * THREE_DIGITS);

            /* Into a snapshot: no allocation, same rules. */
            EXPECT(picollo_snapshot_new(h, &s), PICOLLO_STATUS_OK);
            picollo_histogram_record_n(h, 77, 3);
            EXPECT(picollo_snapshot_collect(s, h), PICOLLO_STATUS_OK);
            EXPECT(picollo_snapshot_summary(s, &sum), PICOLLO_STATUS_OK);
            CHECK(sum.total == 3 && total_of(h) == 0);
            picollo_histogram_record(h, 1);
            EXPECT(picollo_snapshot_collect(s, h), PICOLLO_STATUS_OK);
            EXPECT(picollo_snapshot_summary(s, &sum), PICOLLO_STATUS_OK);
            CHECK(sum.total == 1);

            picollo_snapshot_free(s);
            picollo_histogram_free(first);
            picollo_histogram_free(second);
            picollo_histogram_free(h);
        }
    }
    {
        picollo_histogram *h = with_mode(64, 0), *coarse = make_histogram(64, 0.01, 0, UINT64_MAX),
                          *out = NULL;
        picollo_snapshot *s = NULL;
        picollo_histogram_record(coarse, 9);
        EXPECT(picollo_snapshot_new(h, &s), PICOLLO_STATUS_OK);
        EXPECT(picollo_snapshot_collect(s, coarse), PICOLLO_STATUS_LAYOUT_MISMATCH);
        CHECK(total_of(coarse) == 1);
        EXPECT_MSG(picollo_histogram_collect(coarse, NULL), PICOLLO_STATUS_NULL_POINTER, "`out`");
        EXPECT_MSG(picollo_histogram_collect(NULL, &out), PICOLLO_STATUS_NULL_POINTER, "`h`");
        CHECK(out == NULL && total_of(coarse) == 1);
        picollo_snapshot_free(s);
        picollo_histogram_free(coarse);
        picollo_histogram_free(h);
    }
}

#define WRITERS 4
#define PER_WRITER 40000u

typedef struct writer_arg {
    picollo_histogram *h;
    uint64_t seed;
} writer_arg;

static void *writer(void *p)
{
    writer_arg *a = p;
    uint32_t i;
    for (i = 0; i < PER_WRITER; i++) {
        picollo_histogram_record(a->h, (rng_next(&a->seed) % 100000) + 1);
    }
    return NULL;
}

/* Interlocked and thread-local collects are exact: the intervals plus what is left add up
 * to every record, whatever the writers do meanwhile. */
static void test_collect_while_recording(void)
{
    uint32_t mode;
    for (mode = PICOLLO_MODE_INTERLOCKED; mode <= PICOLLO_MODE_THREAD_LOCAL; mode++) {
        picollo_histogram *h = with_mode(64, mode), *interval = NULL;
        pthread_t t[WRITERS];
        writer_arg args[WRITERS];
        uint64_t collected = 0;
        int k, started = 0;
        for (k = 0; k < WRITERS; k++) {
            args[k].h = h;
            args[k].seed = 1000 + (uint64_t)k;
            started += pthread_create(&t[k], NULL, writer, &args[k]) == 0;
        }
        CHECK(started == WRITERS);
        for (k = 0; k < 50; k++) {
            if (picollo_histogram_collect(h, &interval) == PICOLLO_STATUS_OK) {
                collected += total_of(interval);
                picollo_histogram_free(interval);
            }
        }
        for (k = 0; k < started; k++) {
            pthread_join(t[k], NULL);
        }
        EXPECT(picollo_histogram_collect(h, &interval), PICOLLO_STATUS_OK);
        collected += total_of(interval);
        CHECKF(collected == (uint64_t)started * PER_WRITER, "mode %u: %llu", mode,
               (unsigned long long)collected);
        picollo_histogram_free(interval);
        picollo_histogram_free(h);
    }
}

/* ---- OpenMetrics ---- */

static void test_openmetrics_one_shot(void)
{
    picollo_histogram *h = make_histogram(64, THREE_DIGITS, 1, 1000);
    picollo_openmetrics_options o = picollo_openmetrics_options_default();
    const uint64_t bounds[] = {10, 100};
    const picollo_label labels[] = {{"method", "get"}, {"path", "a\"b"}};
    char *text;

    CHECK(o.struct_size == sizeof o && o.summary == 0 && o.bounds == NULL && o.bound_count == 0);
    CHECK(o.coarse_relative_error == 0.05 && o.unit_ratio == 1.0 && o.created_unix_nanos == 0);
    picollo_histogram_record(h, 3);
    picollo_histogram_record(h, 700);
    picollo_histogram_record(h, 5000); /* above the range: only in +Inf */
    o.bounds = bounds;
    o.bound_count = 2;
    o.created_unix_nanos = 1700000000500000000u;
    text = openmetrics(h, "rpc_latency", "RPC latency", NULL, labels, 2, &o);
    CHECKF(strcmp(text,
                  "# TYPE rpc_latency histogram\n"
                  "# HELP rpc_latency RPC latency\n"
                  "rpc_latency_bucket{method=\"get\",path=\"a\\\"b\",le=\"10.0\"} 1\n"
                  "rpc_latency_bucket{method=\"get\",path=\"a\\\"b\",le=\"100.0\"} 1\n"
                  "rpc_latency_bucket{method=\"get\",path=\"a\\\"b\",le=\"+Inf\"} 3\n"
                  "rpc_latency_count{method=\"get\",path=\"a\\\"b\"} 3\n"
                  "rpc_latency_sum{method=\"get\",path=\"a\\\"b\"} 1703.0\n"
                  "rpc_latency_created{method=\"get\",path=\"a\\\"b\"} 1700000000.5\n"
                  "# EOF\n") == 0,
           "%s", text);
    free(text);

    /* Units and a summary family. */
    o = picollo_openmetrics_options_default();
    o.summary = 1;
    o.unit_ratio = 1000.0;
    text = openmetrics(h, "wait_seconds", "", "seconds", NULL, 0, &o);
    CHECKF(starts_with(text, "# TYPE wait_seconds summary\n# UNIT wait_seconds seconds\n"
                             "wait_seconds{quantile=\"0.5\"} 0.003\n") &&
               strstr(text, "\nwait_seconds{quantile=\"1.0\"} 0.7\n") != NULL &&
               strstr(text, "\nwait_seconds_count 3\n") != NULL &&
               strstr(text, "\nwait_seconds_sum 1.703\n") != NULL,
           "%s", text);
    free(text);
    picollo_histogram_free(h);
}

static void test_openmetrics_writer(void)
{
    picollo_histogram *a = make_histogram(64, THREE_DIGITS, 0, UINT64_MAX);
    picollo_histogram *b = make_histogram(32, THREE_DIGITS, 0, UINT64_MAX);
    picollo_histogram *coarse = make_histogram(64, 0.01, 0, UINT64_MAX);
    picollo_openmetrics_options o = picollo_openmetrics_options_default();
    picollo_openmetrics_options s = picollo_openmetrics_options_default();
    picollo_openmetrics_writer *w = NULL;
    const picollo_label users[] = {{"db", "users"}}, orders[] = {{"db", "orders"}};
    const picollo_label le[] = {{"le", "1"}}, null_value[] = {{"a", NULL}};
    char *one_shot, *text;
    uint64_t v;

    for (v = 1; v < 2000; v++) {
        picollo_histogram_record(a, v * 17);
        picollo_histogram_record(b, v * 3);
    }
    s.summary = 1;
    EXPECT(picollo_openmetrics_writer_new(&w), PICOLLO_STATUS_OK);
    /* One family, one point and # EOF: the one-shot text. */
    EXPECT(picollo_openmetrics_writer_family(w, "db_latency", "Latency", NULL, &o), PICOLLO_STATUS_OK);
    EXPECT(picollo_openmetrics_writer_point(w, a, users, 1), PICOLLO_STATUS_OK);
    EXPECT(picollo_openmetrics_writer_finish(w), PICOLLO_STATUS_OK);
    text = take(w);
    one_shot = openmetrics(a, "db_latency", "Latency", "", users, 1, &o);
    CHECKF(strcmp(text, one_shot) == 0, "%s\n---\n%s", text, one_shot);
    free(text);
    free(one_shot);
    EXPECT_MSG(picollo_openmetrics_writer_finish(w), PICOLLO_STATUS_INVALID_ARGUMENT, "finished");
    EXPECT_MSG(picollo_openmetrics_writer_family(w, "late", NULL, NULL, &o), PICOLLO_STATUS_INVALID_ARGUMENT, "finished");
    picollo_openmetrics_writer_free(w);

    /* Two families, points checked, bad calls writing nothing. */
    w = NULL;
    EXPECT(picollo_openmetrics_writer_new(&w), PICOLLO_STATUS_OK);
    EXPECT_MSG(picollo_openmetrics_writer_point(w, a, NULL, 0), PICOLLO_STATUS_INVALID_ARGUMENT, "no family");
    EXPECT(picollo_openmetrics_writer_family(w, "db_latency", NULL, NULL, &o), PICOLLO_STATUS_OK);
    EXPECT(picollo_openmetrics_writer_point(w, a, users, 1), PICOLLO_STATUS_OK);
    EXPECT(picollo_openmetrics_writer_point(w, b, orders, 1), PICOLLO_STATUS_OK);
    EXPECT_MSG(picollo_openmetrics_writer_point(w, coarse, orders, 1), PICOLLO_STATUS_LAYOUT_MISMATCH, "layout");
    EXPECT_MSG(picollo_openmetrics_writer_point(w, a, le, 1), PICOLLO_STATUS_INVALID_ARGUMENT, "label");
    EXPECT_MSG(picollo_openmetrics_writer_point(w, a, null_value, 1), PICOLLO_STATUS_NULL_POINTER, "labels[0].value");
    EXPECT_MSG(picollo_openmetrics_writer_family(w, "db_latency", NULL, NULL, &s), PICOLLO_STATUS_INVALID_ARGUMENT, "already");
    EXPECT_MSG(picollo_openmetrics_writer_family(w, "db_latency_seconds", NULL, "ms", &s), PICOLLO_STATUS_INVALID_ARGUMENT, "unit");
    EXPECT(picollo_openmetrics_writer_family(w, "queue_wait", "Queue wait", NULL, &s), PICOLLO_STATUS_OK);
    EXPECT(picollo_openmetrics_writer_point(w, coarse, NULL, 0), PICOLLO_STATUS_OK);
    EXPECT(picollo_openmetrics_writer_finish(w), PICOLLO_STATUS_OK);
    text = take(w);
    CHECKF(starts_with(text, "# TYPE db_latency histogram\ndb_latency_bucket{db=\"users\",le=\"") &&
               count_of(text, "# TYPE ") == 2 && count_of(text, "# EOF\n") == 1 &&
               count_of(text, "_count{db=\"users\"} 1999\n") == 1 &&
               count_of(text, "_count{db=\"orders\"} 1999\n") == 1 &&
               count_of(text, "\nqueue_wait_count 0\n") == 1 &&
               count_of(text, "\nqueue_wait{quantile=\"0.5\"} NaN\n") == 1 &&
               strstr(text, "# TYPE queue_wait summary\n# HELP queue_wait Queue wait\n") != NULL &&
               strcmp(text + strlen(text) - 6, "# EOF\n") == 0,
           "%s", text);
    free(text);
    picollo_openmetrics_writer_free(w);
    picollo_openmetrics_writer_free(NULL);
    picollo_histogram_free(a);
    picollo_histogram_free(b);
    picollo_histogram_free(coarse);
}

/* ---- Prometheus buckets ---- */

static void test_prometheus_buckets(void)
{
    picollo_histogram *h = make_histogram(64, THREE_DIGITS, 0, UINT64_MAX);
    picollo_openmetrics_options o = picollo_openmetrics_options_default();
    size_t count = 0, again = 0, i;
    double *le, sum = -1.0;
    uint64_t *cum, v;
    char *text, *line;

    for (v = 1; v < 5000; v++) {
        picollo_histogram_record(h, v * v);
    }
    o.unit_ratio = 1e6;
    EXPECT(picollo_histogram_prometheus_buckets(h, &o, NULL, NULL, 0, &count, NULL),
           PICOLLO_STATUS_BUFFER_TOO_SMALL);
    CHECK(count >= 2);
    le = checked(malloc((count + 1) * sizeof *le));
    cum = checked(malloc((count + 1) * sizeof *cum));
    for (i = 0; i <= count; i++) {
        le[i] = -1.0;
        cum[i] = 7;
    }
    /* One short: nothing but the count. */
    EXPECT_MSG(picollo_histogram_prometheus_buckets(h, &o, le, cum, count - 1, &again, &sum),
               PICOLLO_STATUS_BUFFER_TOO_SMALL, "capacity");
    CHECK(again == count && le[0] == -1.0 && cum[0] == 7 && sum == -1.0);
    EXPECT(picollo_histogram_prometheus_buckets(h, &o, le, cum, count + 1, &again, &sum),
           PICOLLO_STATUS_OK);
    CHECK(again == count && isinf(le[count - 1]) && cum[count - 1] == 4999 && le[count] == -1.0);
    /* The text's bucket lines, one for one, and its _sum. */
    text = openmetrics(h, "m", NULL, NULL, NULL, 0, &o);
    line = text;
    for (i = 0; i < count; i++) {
        double text_le;
        unsigned long long text_count;
        char le_text[64];
        line = strstr(line, "m_bucket{le=\"");
        if (!CHECKF(line != NULL, "bucket %zu missing", i)) {
            break;
        }
        CHECK(sscanf(line, "m_bucket{le=\"%63[^\"]\"} %llu", le_text, &text_count) == 2);
        text_le = strcmp(le_text, "+Inf") == 0 ? INFINITY : strtod(le_text, NULL);
        CHECKF(text_le == le[i] && text_count == cum[i], "bucket %zu: %s %llu vs %g %llu", i,
               le_text, text_count, le[i], (unsigned long long)cum[i]);
        CHECK(i == 0 || cum[i] >= cum[i - 1]);
        line++;
    }
    line = strstr(text, "\nm_sum ");
    CHECK(line != NULL && strtod(line + 7, NULL) == sum);
    free(text);

    o.summary = 1;
    EXPECT_MSG(picollo_histogram_prometheus_buckets(h, &o, le, cum, count, &again, &sum),
               PICOLLO_STATUS_INVALID_ARGUMENT, "summary");
    o.summary = 0;
    EXPECT_MSG(picollo_histogram_prometheus_buckets(h, &o, NULL, cum, count, &again, &sum),
               PICOLLO_STATUS_NULL_POINTER, "`le`");
    EXPECT_MSG(picollo_histogram_prometheus_buckets(h, &o, le, cum, count, NULL, &sum),
               PICOLLO_STATUS_NULL_POINTER, "`count`");
    free(le);
    free(cum);
    picollo_histogram_free(h);
}

/* ---- OTLP ---- */

static void test_otlp(void)
{
    picollo_histogram *h = make_histogram(64, THREE_DIGITS, 0, UINT64_MAX);
    picollo_otlp_options o = picollo_otlp_options_default();
    const picollo_label attrs[] = {{"method", "GET"}}, res[] = {{"service.name", "c-tests"}};
    size_t needed = 0, again = 0;
    uint8_t *bytes, small[4] = {0xA5, 0xA5, 0xA5, 0xA5};
    char *json;
    uint64_t v;

    CHECK(o.struct_size == sizeof o && o.temporality == PICOLLO_OTLP_TEMPORALITY_CUMULATIVE);
    CHECK(o.scale == PICOLLO_OTLP_SCALE_AUTO && o.scale == INT32_MIN && o.unit_ratio == 1.0);
    CHECK(o.name == NULL && o.attributes == NULL && o.resource == NULL && o.reserved == 0);
    for (v = 1; v <= 1000; v++) {
        picollo_histogram_record(h, v * 1000);
    }
    EXPECT_MSG(picollo_histogram_otlp(h, &o, PICOLLO_OTLP_FORMAT_JSON, NULL, 0, &needed),
               PICOLLO_STATUS_NULL_POINTER, "name");
    o.name = "rpc.duration";
    o.unit = "s";
    o.unit_ratio = 1e9;
    o.temporality = PICOLLO_OTLP_TEMPORALITY_DELTA;
    o.start_time_unix_nano = 1700000000000000000u;
    o.time_unix_nano = 1700000010000000000u;
    o.attributes = attrs;
    o.attribute_count = 1;
    o.resource = res;
    o.resource_count = 1;
    o.scope_name = "picollo";

    /* Protobuf: written whole or not at all. */
    EXPECT(picollo_histogram_otlp(h, &o, PICOLLO_OTLP_FORMAT_PROTOBUF, NULL, 0, &needed),
           PICOLLO_STATUS_BUFFER_TOO_SMALL);
    CHECK(needed > 50);
    EXPECT(picollo_histogram_otlp(h, &o, PICOLLO_OTLP_FORMAT_PROTOBUF, small, sizeof small, &again),
           PICOLLO_STATUS_BUFFER_TOO_SMALL);
    CHECK(again == needed && small[0] == 0xA5 && small[3] == 0xA5);
    bytes = checked(malloc(needed));
    EXPECT(picollo_histogram_otlp(h, &o, PICOLLO_OTLP_FORMAT_PROTOBUF, bytes, needed, &again),
           PICOLLO_STATUS_OK);
    /* Field 1 (resource_metrics), length-delimited; the strings are in there. */
    CHECK(again == needed && bytes[0] == 0x0A);
    {
        const char *want[] = {"rpc.duration", "service.name", "c-tests", "picollo", "GET"};
        size_t k, at;
        for (k = 0; k < sizeof want / sizeof *want; k++) {
            size_t n = strlen(want[k]);
            int found = 0;
            for (at = 0; at + n <= needed && !found; at++) {
                found = memcmp(bytes + at, want[k], n) == 0;
            }
            CHECKF(found, "%s not in the protobuf bytes", want[k]);
        }
    }
    free(bytes);

    /* JSON: text rules. */
    EXPECT(picollo_histogram_otlp(h, &o, PICOLLO_OTLP_FORMAT_JSON, NULL, 0, &needed),
           PICOLLO_STATUS_BUFFER_TOO_SMALL);
    json = checked(malloc(needed + 1));
    EXPECT(picollo_histogram_otlp(h, &o, PICOLLO_OTLP_FORMAT_JSON, (uint8_t *)json, needed + 1, &again),
           PICOLLO_STATUS_OK);
    CHECKF(again == needed && strlen(json) == needed &&
               starts_with(json, "{\"resourceMetrics\":[{\"resource\":{\"attributes\":[{\"key\":"
                                 "\"service.name\",\"value\":{\"stringValue\":\"c-tests\"}}]}") &&
               strstr(json, "\"name\":\"rpc.duration\",\"unit\":\"s\"") != NULL &&
               strstr(json, "\"count\":\"1000\"") != NULL &&
               strstr(json, "\"startTimeUnixNano\":\"1700000000000000000\"") != NULL &&
               strstr(json, "\"aggregationTemporality\":1") != NULL,
           "%s", json);
    free(json);

    EXPECT_MSG(picollo_histogram_otlp(h, &o, 2, NULL, 0, &needed), PICOLLO_STATUS_INVALID_ARGUMENT, "format");
    o.scale = 21;
    EXPECT_MSG(picollo_histogram_otlp(h, &o, 0, NULL, 0, &needed), PICOLLO_STATUS_INVALID_ARGUMENT, "scale");
    o.scale = 0;
    EXPECT(picollo_histogram_otlp(h, &o, 0, NULL, 0, &needed), PICOLLO_STATUS_BUFFER_TOO_SMALL);
    o.temporality = 0;
    EXPECT_MSG(picollo_histogram_otlp(h, &o, 0, NULL, 0, &needed), PICOLLO_STATUS_INVALID_ARGUMENT, "temporality");
    o.temporality = 2;
    o.struct_size = 8;
    EXPECT_MSG(picollo_histogram_otlp(h, &o, 0, NULL, 0, &needed), PICOLLO_STATUS_STRUCT_SIZE, "picollo_otlp_options");
    picollo_histogram_free(h);
}

void test_metrics(void)
{
    /* Layouts the bindings mirror (64-bit pointers). */
    CHECK(sizeof(picollo_label) == 2 * sizeof(const char *));
    if (sizeof(void *) == 8) {
        CHECK(sizeof(picollo_openmetrics_options) == 48);
        CHECK(offsetof(picollo_openmetrics_options, bounds) == 8);
        CHECK(offsetof(picollo_openmetrics_options, coarse_relative_error) == 24);
        CHECK(offsetof(picollo_openmetrics_options, created_unix_nanos) == 40);
        CHECK(sizeof(picollo_otlp_options) == 112);
        CHECK(offsetof(picollo_otlp_options, name) == 8);
        CHECK(offsetof(picollo_otlp_options, start_time_unix_nano) == 32);
        CHECK(offsetof(picollo_otlp_options, attributes) == 48);
        CHECK(offsetof(picollo_otlp_options, scale) == 96);
        CHECK(offsetof(picollo_otlp_options, unit_ratio) == 104);
    }
    CHECK(PICOLLO_OTLP_FORMAT_PROTOBUF == 0 && PICOLLO_OTLP_FORMAT_JSON == 1);
    CHECK(PICOLLO_OTLP_TEMPORALITY_DELTA == 1 && PICOLLO_OTLP_TEMPORALITY_CUMULATIVE == 2);
    test_collect_modes();
    test_collect_while_recording();
    test_openmetrics_one_shot();
    test_openmetrics_writer();
    test_prometheus_buckets();
    test_otlp();
}
