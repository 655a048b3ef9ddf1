/*
 * test_abi_native.c: Prometheus native histograms through the C ABI, read back with a small
 * protobuf reader written here: the delimited MetricFamily of an integer and of a float
 * histogram (name, type, labels, count, schema, zero bucket, spans and deltas adding up to
 * the count), an empty histogram's no-op span, the buffer rules and bad options refused.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

/* ---- a protobuf reader: enough for MetricFamily ---- */

typedef struct reader {
    const uint8_t *at, *end;
} reader;

static uint64_t varint(reader *r)
{
    uint64_t v = 0;
    unsigned shift = 0;
    while (r->at < r->end && shift < 64) {
        uint8_t b = *r->at++;
        v |= (uint64_t)(b & 0x7F) << shift;
        if (b < 0x80) {
            break;
        }
        shift += 7;
    }
    return v;
}

static int64_t unzigzag(uint64_t v) { return (int64_t)(v >> 1) ^ -(int64_t)(v & 1); }

/* The next field: its number and wire type; a length-delimited payload in `*sub`, a varint
 * or fixed64 in `*value`. 0 at the end. */
static int next_field(reader *r, uint32_t *field, reader *sub, uint64_t *value)
{
    uint64_t key;
    if (r->at >= r->end) {
        return 0;
    }
    key = varint(r);
    *field = (uint32_t)(key >> 3);
    switch (key & 7) {
    case 0:
        *value = varint(r);
        break;
    case 1:
        memcpy(value, r->at, 8); /* little-endian hosts (the tests run on x86-64 and arm64) */
        r->at += 8;
        break;
    case 2:
        *value = varint(r);
        sub->at = r->at;
        sub->end = r->at + *value;
        r->at = sub->end;
        break;
    default:
        return 0;
    }
    return 1;
}

/* What the checks need of one native histogram. */
typedef struct native {
    char name[64], label[32];
    uint64_t type, count, zero_count, buckets[2]; /* [0] negative, [1] positive */
    int64_t schema;
    double sum, zero_threshold;
    unsigned spans[2], noop_spans;
} native;

/* Adds up one sign's spans and deltas. */
static void read_histogram(reader h, native *n)
{
    uint32_t f;
    reader sub;
    uint64_t v;
    int64_t count[2] = {0, 0};
    while (next_field(&h, &f, &sub, &v)) {
        int side = f >= 12;
        if (f == 1) {
            n->count = v;
        } else if (f == 2) {
            memcpy(&n->sum, &v, 8);
        } else if (f == 5) {
            n->schema = unzigzag(v);
        } else if (f == 6) {
            memcpy(&n->zero_threshold, &v, 8);
        } else if (f == 7) {
            n->zero_count = v;
        } else if (f == 9 || f == 12) {
            uint32_t sf;
            uint64_t sv, length = 0;
            reader ss;
            while (next_field(&sub, &sf, &ss, &sv)) {
                if (sf == 2) {
                    length = sv;
                }
            }
            n->spans[side]++;
            n->noop_spans += length == 0;
        } else if (f == 10 || f == 13) {
            count[side] += unzigzag(v);
            n->buckets[side] += (uint64_t)count[side];
        }
    }
}

/* Reads the first MetricFamily of a delimited body. */
static native read_family(const uint8_t *bytes, size_t len)
{
    native n;
    reader stream = {bytes, bytes + len}, family, sub;
    uint32_t f;
    uint64_t v, size = varint(&stream);
    memset(&n, 0, sizeof n);
    family.at = stream.at;
    family.end = stream.at + size;
    CHECKF(family.end == bytes + len, "one family: %zu of %zu bytes",
           (size_t)(family.end - bytes), len);
    while (next_field(&family, &f, &sub, &v)) {
        if (f == 1 && v < sizeof n.name) {
            memcpy(n.name, sub.at, v);
        } else if (f == 3) {
            n.type = v;
        } else if (f == 4) {
            reader m = sub, inner;
            while (next_field(&m, &f, &inner, &v)) {
                if (f == 7) {
                    read_histogram(inner, &n);
                } else if (f == 1) {
                    reader pair = inner, s;
                    while (next_field(&pair, &f, &s, &v)) {
                        if (f == 2 && v < sizeof n.label) {
                            memcpy(n.label, s.at, v);
                        }
                    }
                }
            }
        }
    }
    return n;
}

/* The body of `call` (a size query, then the call into a buffer of that size). */
#define BODY(call_with)                                                                     \
    do {                                                                                    \
        size_t again = 0;                                                                   \
        EXPECT(call_with(NULL, 0, &needed), PICOLLO_STATUS_BUFFER_TOO_SMALL);               \
        bytes = malloc(needed);                                                             \
        CHECK(bytes != NULL);                                                               \
        EXPECT(call_with(bytes, needed, &again), PICOLLO_STATUS_OK);                        \
        CHECK(again == needed);                                                             \
    } while (0)

static void integer_histograms(void)
{
    picollo_histogram *h = make_histogram(64, 0.01, 0, UINT64_MAX);
    picollo_prometheus_native_options o = picollo_prometheus_native_options_default();
    const picollo_label labels[] = {{"method", "GET"}};
    size_t needed = 0;
    uint8_t *bytes, small[4] = {0xA5, 0xA5, 0xA5, 0xA5};
    native n;
    uint64_t v;

    CHECK(o.struct_size == sizeof o && o.schema == PICOLLO_PROMETHEUS_SCHEMA_AUTO);
    CHECK(o.unit_ratio == 1.0 && o.classic_coarse_relative_error == 0.0 && o.name == NULL);
    EXPECT_MSG(picollo_histogram_prometheus_native(h, &o, NULL, 0, &needed),
               PICOLLO_STATUS_NULL_POINTER, "name");
    o.name = "rpc_latency_seconds";
    o.help = "RPC latency";
    o.labels = labels;
    o.label_count = 1;
    o.unit_ratio = 1e9;

    /* Empty: a native histogram all the same (positive threshold, a no-op span). */
#define CALL(b, l, nd) picollo_histogram_prometheus_native(h, &o, b, l, nd)
    BODY(CALL);
    n = read_family(bytes, needed);
    CHECK(strcmp(n.name, "rpc_latency_seconds") == 0 && n.type == 4);
    CHECK(strcmp(n.label, "GET") == 0);
    CHECK(n.count == 0 && n.zero_threshold > 0.0 && n.noop_spans == 1);
    free(bytes);

    picollo_histogram_record(h, 0);
    for (v = 1; v <= 1000; v++) {
        picollo_histogram_record(h, v * 1000);
    }
    BODY(CALL);
    n = read_family(bytes, needed);
    /* 1 % gives schema 6 (2^(1/64): 0.54 %). */
    CHECKF(n.count == 1001 && n.zero_count == 1 && n.schema == 6, "%llu %llu %lld",
           (unsigned long long)n.count, (unsigned long long)n.zero_count, (long long)n.schema);
    CHECKF(n.buckets[1] == 1000 && n.buckets[0] == 0 && n.noop_spans == 0, "%llu",
           (unsigned long long)n.buckets[1]);
    CHECKF(fabs(n.sum - 0.5005) < 1e-3, "sum %g", n.sum);
    free(bytes);

    /* Written whole or not at all. */
    EXPECT(CALL(small, sizeof small, NULL), PICOLLO_STATUS_BUFFER_TOO_SMALL);
    CHECK(small[0] == 0xA5 && small[3] == 0xA5);
    o.schema = 0;
    BODY(CALL);
    CHECK(read_family(bytes, needed).schema == 0);
    free(bytes);
#undef CALL

    o.schema = 9;
    EXPECT_MSG(picollo_histogram_prometheus_native(h, &o, NULL, 0, &needed),
               PICOLLO_STATUS_INVALID_ARGUMENT, "schema is 9");
    o.schema = PICOLLO_PROMETHEUS_SCHEMA_AUTO;
    o.name = "rpc_bucket";
    EXPECT_MSG(picollo_histogram_prometheus_native(h, &o, NULL, 0, &needed),
               PICOLLO_STATUS_INVALID_ARGUMENT, "name must match");
    o.name = "rpc";
    o.struct_size = 8;
    EXPECT_MSG(picollo_histogram_prometheus_native(h, &o, NULL, 0, &needed),
               PICOLLO_STATUS_STRUCT_SIZE, "picollo_prometheus_native_options");
    picollo_histogram_free(h);
}

static void float_histograms(void)
{
    picollo_float_config cfg = picollo_float_config_default();
    picollo_float_histogram *f = NULL;
    picollo_prometheus_native_options o = picollo_prometheus_native_options_default();
    const double values[] = {-250.0, -3.5, -0.002, 0.0, 0.0, 1e-3, 2.0, 7e6, NAN};
    size_t k, needed = 0;
    uint8_t *bytes;
    native n;

    cfg.relative_error = 0.01;
    if (!EXPECT(picollo_float_histogram_new(&cfg, &f), PICOLLO_STATUS_OK)) {
        return;
    }
    for (k = 0; k < sizeof values / sizeof *values; k++) {
        picollo_float_histogram_record(f, values[k]);
    }
    o.name = "temperature_delta";
#define CALL(b, l, nd) picollo_float_histogram_prometheus_native(f, &o, b, l, nd)
    BODY(CALL);
#undef CALL
    n = read_family(bytes, needed);
    /* NaN left out; both signs and the zero bucket. */
    CHECKF(n.count == 8 && n.zero_count == 2, "%llu %llu", (unsigned long long)n.count,
           (unsigned long long)n.zero_count);
    CHECKF(n.buckets[0] == 3 && n.buckets[1] == 3 && n.spans[0] >= 1, "%llu %llu",
           (unsigned long long)n.buckets[0], (unsigned long long)n.buckets[1]);
    CHECKF(fabs(n.sum - (-250.0 - 3.5 - 0.002 + 1e-3 + 2.0 + 7e6)) < 1e-6, "sum %.17g", n.sum);
    CHECK(n.zero_threshold > 0.0);
    free(bytes);
    o.classic_coarse_relative_error = 0.1;
    EXPECT_MSG(picollo_float_histogram_prometheus_native(f, &o, NULL, 0, &needed),
               PICOLLO_STATUS_INVALID_ARGUMENT, "integer histograms only");
    picollo_float_histogram_free(f);
}

void test_prometheus_native(void)
{
    integer_histograms();
    float_histograms();
}
