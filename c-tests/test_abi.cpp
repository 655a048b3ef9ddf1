// test_abi.cpp: the C header used from C++17 through picollo.hpp's RAII wrappers: handles
// owned by std::unique_ptr with deleters, failures as exceptions carrying the status and the
// library's message, text as std::string via the size query, buckets as a range-for, lambdas
// measured by picollo::Bench. Prints the table; the last line is "N passed, M failed" and the
// exit status is non-zero when anything failed.
#include "picollo.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>


// The ABI types are plain data in C++ too.
static_assert(std::is_same<std::underlying_type<picollo_status>::type, uint32_t>::value,
              "picollo_status is 32 bits");
static_assert(std::is_trivially_copyable<picollo_summary>::value &&
                  std::is_standard_layout<picollo_summary>::value,
              "picollo_summary is blittable");
static_assert(sizeof(picollo_summary) == 16 * 88 + 9 * 8, "summary layout");
static_assert(sizeof(picollo_histogram_config) == 64, "config layout");

namespace {

unsigned long passed = 0, failed = 0;

void expect(bool ok, int line, const char *what) {
    if (ok) {
        ++passed;
    } else {
        ++failed;
        std::fprintf(stderr, "FAIL line %d: %s\n", line, what);
    }
}
#define EXPECT_TRUE(cond) expect((cond), __LINE__, #cond)

// `body` must throw picollo::Error with `status` and a non-empty message.
template <class Body>
void expect_error(picollo_status status, int line, const char *what, Body &&body) {
    try {
        body();
        expect(false, line, what);
        std::fprintf(stderr, "  (no exception)\n");
    } catch (const picollo::Error &e) {
        bool ok = e.status() == status && std::strlen(e.what()) > std::strlen(picollo_status_str(status)) + 2;
        expect(ok, line, what);
        if (!ok) {
            std::fprintf(stderr, "  got %s\n", e.what());
        }
    }
}
#define EXPECT_ERROR(status, ...) expect_error((status), __LINE__, #__VA_ARGS__, [&] { __VA_ARGS__; })

bool contains(const std::string &s, const char *needle) { return s.find(needle) != std::string::npos; }

// The Picollo .NET announcement's getting-started values, deterministic (SplitMix64).
std::vector<uint64_t> seed_values(size_t n, uint64_t state) {
    auto next = [&state] {
        uint64_t z = (state += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return static_cast<double>((z ^ (z >> 31)) >> 11) / 9007199254740992.0;
    };
    std::vector<uint64_t> v;
    v.reserve(n);
    for (size_t k = 0; k < n; ++k) {
        double r = next();
        double dev = (0.5 - next()) * 1000.0 + r * r * 5000.0;
        v.push_back(static_cast<uint64_t>(20000.0 + dev));
    }
    return v;
}

void test_record_summary_table() {
    picollo::Options o;
    o.relative_error = 0.01;
    o.min = 10000;
    o.max = 30000;
    o.counter_bits = 32;
    picollo::Histogram h(o);
    std::vector<uint64_t> values = seed_values(100000, 0);
    h.record(values);
    h.record(40000); // overflow

    picollo_summary s = h.summary();
    EXPECT_TRUE(s.total == 100000 && s.overflow == 1 && s.underflow == 0);
    EXPECT_TRUE(s.precision == 0.0078125);
    EXPECT_TRUE(s.mean > 21000 && s.mean < 22500 && s.stdev > 1000 && s.stdev < 2000);

    picollo_percentile p99 = h.percentile(99.0);
    EXPECT_TRUE(p99.lower <= p99.value && p99.value <= p99.highest && p99.rank_count == 99000);
    std::vector<picollo_percentile> ps = h.percentiles({50.0, 99.0, 100.0});
    EXPECT_TRUE(ps.size() == 3 && std::memcmp(&ps[1], &p99, sizeof p99) == 0);
    EXPECT_TRUE(std::memcmp(&ps[0], &s.percentiles[5], sizeof ps[0]) == 0);

    uint64_t sum = 0;
    size_t n = 0;
    for (const picollo_bucket &b : h.buckets()) {
        sum += b.count;
        ++n;
    }
    EXPECT_TRUE(sum == s.total && n > 10);

    std::string t = h.table("Histogram Before");
    std::printf("%s\n", t.c_str());
    EXPECT_TRUE(t.rfind("##### Histogram Before\n| Percentile | Value ", 0) == 0);
    EXPECT_TRUE(contains(t, "| Overflow ") && contains(t, " 0.7813% ") && contains(t, " 100,000 |"));
    EXPECT_TRUE(t == picollo::table(s, "Histogram Before"));
    EXPECT_TRUE(t.size() == std::strlen(t.c_str())); // no embedded NUL, exact size

    std::string l = picollo::line(s, "before");
    EXPECT_TRUE(l.rfind("before: Total=100,000, Overflow=1, Mean=", 0) == 0);
    std::string j = picollo::json(s);
    EXPECT_TRUE(j.rfind("{\"minTrackableValue\":10000,\"maxTrackableValue\":30000,\"totalCount\":100000,", 0) == 0);

    // The second distribution and the diff table.
    picollo::Histogram after(o);
    for (uint64_t v : seed_values(50000, 99)) {
        after.record(v - 1000);
    }
    std::string d = picollo::diff(s, after.summary(), "Diff", "Before", "After");
    std::printf("%s\n", d.c_str());
    EXPECT_TRUE(contains(d, "| Before ") && contains(d, " | After ") && contains(d, "| D-value: "));
    EXPECT_TRUE(contains(d, "Δ%"));
}

void test_seed_percentile_line() {
    picollo::Options o;
    o.relative_error = 0.01;
    o.min = 10000;
    o.max = 30000;
    picollo::Histogram h(o);
    h.record(24900);
    EXPECT_TRUE(picollo::format(h.percentile(99.0)) == "P99=24,960 [83 / 609]: [24,832, 25,088) 1");
    picollo_histogram_info i = h.info();
    EXPECT_TRUE(i.block_size == 64 && i.counter_bits == 64 && i.total == 1);
}

void test_errors_and_ownership() {
    picollo::Options bad;
    bad.relative_error = std::nan("");
    EXPECT_ERROR(PICOLLO_STATUS_INVALID_ARGUMENT, picollo::Histogram h(bad));
    bad = picollo::Options();
    bad.min = 10;
    bad.max = 9;
    EXPECT_ERROR(PICOLLO_STATUS_INVALID_ARGUMENT, picollo::Histogram h(bad));
    bad = picollo::Options();
    bad.counter_bits = 16;
    EXPECT_ERROR(PICOLLO_STATUS_INVALID_ARGUMENT, picollo::Histogram h(bad));

    picollo::Histogram h;
    EXPECT_ERROR(PICOLLO_STATUS_EMPTY, h.percentile(50.0));
    h.record(5);
    EXPECT_ERROR(PICOLLO_STATUS_INVALID_ARGUMENT, h.percentile(101.0));
    EXPECT_ERROR(PICOLLO_STATUS_INVALID_ARGUMENT, h.percentiles({50.0, 50.0}));

    picollo::Options coarse;
    coarse.relative_error = 0.01;
    picollo::Histogram other(coarse);
    EXPECT_ERROR(PICOLLO_STATUS_LAYOUT_MISMATCH, h += other);
    picollo::Histogram same;
    same.record(5, 3);
    EXPECT_ERROR(PICOLLO_STATUS_WOULD_GO_NEGATIVE, h -= same);
    h += same;
    EXPECT_TRUE(h.info().total == 4);
    h -= same;
    EXPECT_TRUE(h.info().total == 1);

    // Ownership moves; the moved-from wrapper holds nothing and frees nothing.
    picollo::Histogram moved(std::move(h));
    EXPECT_TRUE(moved.get() != nullptr && h.get() == nullptr);
    EXPECT_TRUE(moved.info().total == 1);

    // The plain unique_ptr form, with the C function as the deleter.
    picollo_histogram_config c = picollo_histogram_config_default();
    picollo_histogram *raw = nullptr;
    picollo::check(picollo_histogram_new(&c, &raw));
    std::unique_ptr<picollo_histogram, decltype(&picollo_histogram_free)> owned(raw, &picollo_histogram_free);
    picollo_histogram_record(owned.get(), 42);
    picollo_histogram_info i{};
    picollo::check(picollo_histogram_get_info(owned.get(), &i));
    EXPECT_TRUE(i.total == 1);
}

void test_snapshot() {
    picollo::Histogram h;
    h.record(100);
    picollo::Snapshot snap(h);
    EXPECT_TRUE(snap.summary().total == 1);
    h.record(200, 5);
    snap.update(h, true);
    picollo_summary d = snap.summary();
    EXPECT_TRUE(d.total == 5 && d.percentiles[0].lower <= 200 && 200 <= d.percentiles[0].highest);
    snap.update(h, false);
    EXPECT_TRUE(snap.summary().total == 6);
    picollo::Options narrow;
    narrow.max = 1000;
    picollo::Histogram other(narrow);
    EXPECT_ERROR(PICOLLO_STATUS_LAYOUT_MISMATCH, snap.update(other, false));
}

// A float histogram behind a unique_ptr: signed values, NaN and infinities counted apart,
// the exact extremes and the exact sum (rounded once), percentiles within the stated
// error, in both storages and both modes (the interlocked one from two std::threads).
struct FloatFree {
    void operator()(picollo_float_histogram *h) const noexcept { picollo_float_histogram_free(h); }
};
using FloatPtr = std::unique_ptr<picollo_float_histogram, FloatFree>;

FloatPtr make_float(uint32_t storage, uint32_t mode) {
    picollo_float_config c = picollo_float_config_default();
    c.relative_error = 0.001;
    c.storage = storage;
    c.mode = mode;
    picollo_float_histogram *raw = nullptr;
    picollo::check(picollo_float_histogram_new(&c, &raw));
    return FloatPtr(raw);
}

picollo_float_info float_info(const FloatPtr &h) {
    picollo_float_info i{};
    picollo::check(picollo_float_histogram_get_info(h.get(), &i));
    return i;
}

void test_float_histogram() {
    // Signed values over many octaves, with values whose naive double sum loses everything
    // but the exact sum keeps: 1e16 + 1 - 1e16 is 1, not 0.
    std::vector<double> values;
    uint64_t state = 11;
    for (int k = 0; k < 20000; ++k) {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        double u = static_cast<double>(state >> 11) / 9007199254740992.0;
        double magnitude = std::ldexp(1.0 + u, static_cast<int>(state % 80) - 40);
        values.push_back(k % 3 == 0 ? -magnitude : magnitude);
    }
    for (uint32_t storage : {uint32_t(PICOLLO_FLOAT_STORAGE_DENSE), uint32_t(PICOLLO_FLOAT_STORAGE_SPARSE)}) {
        FloatPtr h = make_float(storage, PICOLLO_FLOAT_MODE_SINGLE_WRITER);
        picollo::check(picollo_float_histogram_record_many(h.get(), values.data(), values.size()));
        picollo_float_histogram_record(h.get(), std::nan(""));
        picollo_float_histogram_record(h.get(), INFINITY);
        picollo_float_histogram_record(h.get(), -INFINITY);
        picollo_float_histogram_record_f32(h.get(), 0.0f);
        picollo_float_info i = float_info(h);
        auto mm = std::minmax_element(values.begin(), values.end());
        EXPECT_TRUE(i.total == values.size() + 1 && i.zero == 1 && i.nan == 1);
        EXPECT_TRUE(i.positive_infinity == 1 && i.negative_infinity == 1);
        EXPECT_TRUE(i.min == *mm.first && i.max == *mm.second);

        // The median within the relative error of the true one (its bucket's rule).
        std::vector<double> sorted = values;
        sorted.push_back(0.0);
        std::sort(sorted.begin(), sorted.end());
        picollo_float_percentile p{};
        picollo::check(picollo_float_histogram_percentile(h.get(), 50.0, &p));
        double truth = sorted[(sorted.size() + 1) / 2 - 1];
        EXPECT_TRUE(std::fabs(p.value - truth) <= std::fabs(truth) * i.relative_error * 1.000001);
        EXPECT_TRUE(p.lowest <= truth && truth <= p.highest);

        // Exact sum, rounded once: cancellation keeps the 1.
        FloatPtr c = make_float(storage, PICOLLO_FLOAT_MODE_SINGLE_WRITER);
        for (double v : {1e16, 1.0, -1e16, 0.1, -0.1}) {
            picollo_float_histogram_record(c.get(), v);
        }
        double naive = 0;
        for (double v : {1e16, 1.0, -1e16, 0.1, -0.1}) {
            naive += v;
        }
        picollo_float_info ci = float_info(c);
        EXPECT_TRUE(ci.sum == 1.0 && naive != 1.0);
        EXPECT_TRUE(ci.min == -1e16 && ci.max == 1e16);
    }

    // Interlocked: two threads, nothing lost, extremes exact.
    FloatPtr shared = make_float(PICOLLO_FLOAT_STORAGE_SPARSE, PICOLLO_FLOAT_MODE_INTERLOCKED);
    auto writer = [&shared](double sign) {
        for (int k = 1; k <= 50000; ++k) {
            picollo_float_histogram_record(shared.get(), sign * k * 0.25);
        }
    };
    std::thread a(writer, 1.0), b(writer, -1.0);
    a.join();
    b.join();
    picollo_float_info si = float_info(shared);
    EXPECT_TRUE(si.total == 100000 && si.min == -12500.0 && si.max == 12500.0);
    EXPECT_TRUE(si.sum == 0.0);
}

// Integer exact extremes: the recorded values themselves, not bucket bounds.
void test_exact_extremes() {
    picollo_histogram_config c = picollo_histogram_config_default();
    c.relative_error = 0.01;
    c.min_trackable = 1000;
    c.max_trackable = 1000000;
    c.exact_extremes = 1;
    picollo_histogram *raw = nullptr;
    picollo::check(picollo_histogram_new(&c, &raw));
    std::unique_ptr<picollo_histogram, picollo::HistogramFree> h(raw);
    uint64_t lo = 0, hi = 0;
    EXPECT_TRUE(picollo_histogram_exact_extremes(h.get(), &lo, &hi) == PICOLLO_STATUS_EMPTY);
    std::vector<uint64_t> values = seed_values(5000, 3);
    for (uint64_t &v : values) {
        v = v * 37 + 1001;
    }
    picollo::check(picollo_histogram_record_many(h.get(), values.data(), values.size()));
    picollo_histogram_record(h.get(), 5);        // underflow: not an extreme
    picollo_histogram_record(h.get(), 99999999); // overflow: not one either
    picollo::check(picollo_histogram_exact_extremes(h.get(), &lo, &hi));
    auto mm = std::minmax_element(values.begin(), values.end());
    EXPECT_TRUE(lo == *mm.first && hi == *mm.second);
    picollo_percentile p0{};
    picollo::check(picollo_histogram_percentile(h.get(), 0.0, &p0));
    EXPECT_TRUE(p0.lower <= lo && lo <= p0.highest && p0.lower != p0.highest);
    picollo::check(picollo_histogram_reset(h.get()));
    EXPECT_TRUE(picollo_histogram_exact_extremes(h.get(), &lo, &hi) == PICOLLO_STATUS_EMPTY);

    picollo::Histogram plain;
    EXPECT_ERROR(PICOLLO_STATUS_UNSUPPORTED,
                 picollo::check(picollo_histogram_exact_extremes(plain.get(), &lo, &hi)));
}

// The header's inline recorder compiles as C++ and counts like picollo_histogram_record.
void test_inline_recorder() {
    picollo::Options o;
    o.min = 10;
    o.max = 100000;
    picollo::Histogram h(o);
    picollo_recorder r{};
    picollo::check(picollo_histogram_get_recorder(h.get(), PICOLLO_RECORDER_VERSION, &r));
    for (uint64_t v = 0; v < 200000; v += 7) {
        picollo_recorder_record(&r, v);
    }
    picollo_histogram_info i = h.info();
    EXPECT_TRUE(i.underflow == 2 && i.total + i.underflow + i.overflow == 200000 / 7 + 1);
}


// The non-empty buckets of `h` (lower, highest, count), for comparing two histograms.
std::vector<picollo_bucket> buckets_of(const picollo::Histogram &h) {
    std::vector<picollo_bucket> out;
    for (const picollo_bucket &b : h.buckets()) {
        out.push_back(b);
    }
    return out;
}

// The recorder returned by value (picollo_recorder_of) counts every value where
// picollo_histogram_record counts it; a NULL handle gives a status and a recorder that
// ignores its records.
void test_recorder_by_value() {
    picollo::Options o;
    o.min = 100;
    o.max = 50000000;
    o.relative_error = 0.01;
    picollo::Histogram h(o), ref(o);
    picollo_status st = PICOLLO_STATUS_UNSUPPORTED;
    const picollo_recorder r = picollo_recorder_of(h.get(), &st);
    EXPECT_TRUE(st == PICOLLO_STATUS_OK && r.kind == PICOLLO_RECORDER_KIND_PLAIN);
    uint64_t x = 0x9E3779B97F4A7C15u;
    for (int i = 0; i < 50000; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        const uint64_t v = x >> (x % 64);
        picollo_recorder_record(&r, v);
        ref.record(v);
    }
    for (uint64_t v : {uint64_t{0}, uint64_t{99}, uint64_t{100}, UINT64_MAX}) {
        picollo_recorder_record(&r, v);
        ref.record(v);
    }
    const picollo_histogram_info a = h.info(), b = ref.info();
    EXPECT_TRUE(a.total == b.total && a.underflow == b.underflow && a.overflow == b.overflow);
    EXPECT_TRUE(a.total + a.underflow + a.overflow == 50004 && a.underflow > 0 && a.overflow > 0);
    const std::vector<picollo_bucket> got = buckets_of(h), want = buckets_of(ref);
    EXPECT_TRUE(got.size() == want.size() && got.size() > 100);
    EXPECT_TRUE(std::equal(got.begin(), got.end(), want.begin(), want.end(),
                           [](const picollo_bucket &p, const picollo_bucket &q) {
                               return p.lower == q.lower && p.highest == q.highest &&
                                      p.count == q.count;
                           }));
    st = PICOLLO_STATUS_OK;
    const picollo_recorder none = picollo_recorder_of(nullptr, &st);
    EXPECT_TRUE(st == PICOLLO_STATUS_NULL_POINTER && none.kind == PICOLLO_RECORDER_KIND_CALL);
    picollo_recorder_record(&none, 5);
}


// The benchmark harness from C++: a lambda measured by picollo::Bench (its exceptions stop
// in the header's trampoline, never unwinding into the library), the result's texts as
// std::string.
void test_bench_lambda() {
    uint64_t operations = 0;
    volatile uint64_t sink = 0;
    auto work = [&](uint64_t k) {
        for (uint64_t i = 0; i < k; i++) {
            for (uint64_t j = 0; j < 500; j++) {
                sink = sink + j;
            }
        }
        operations += k;
    };
    auto quick = [](const char *name) {
        return picollo::Bench(name).counters("").samples(100).batch(2).budget(1.0).warmup(0.01);
    };
    picollo::BenchResult r = quick("lambda").run(work);
    EXPECT_TRUE(operations > 0 && operations % 2 == 0);
    EXPECT_TRUE(r.metrics() == 1);
    std::string line = r.text(PICOLLO_BENCH_FORMAT_LINE);
    EXPECT_TRUE(line.rfind("lambda: time P50=", 0) == 0 && contains(line, "batch 2, "));
    EXPECT_TRUE(r.percentile(50.0) > 0.0);
    const picollo_histogram *h = nullptr;
    picollo::check(picollo_bench_result_histogram(r.get(), 0, &h));
    picollo_histogram_info info{};
    picollo::check(picollo_histogram_get_info(h, &info));
    EXPECT_TRUE(info.total >= 1 && info.total <= 100);
    picollo_bench_verdict verdict = PICOLLO_BENCH_VERDICT_SLOWER;
    std::string diff = r.compared_with(r, &verdict);
    EXPECT_TRUE(verdict == PICOLLO_BENCH_VERDICT_NO_DIFFERENCE);
    EXPECT_TRUE(contains(diff, "verdict: no difference between lambda and lambda"));
    EXPECT_ERROR(PICOLLO_STATUS_OUT_OF_RANGE,
                 picollo::check(picollo_bench_result_histogram(r.get(), 1, &h)));
    // A work's exception comes back to the caller once the run ends; the work is not
    // called again after it threw.
    uint64_t calls = 0;
    try {
        quick("throws").run([&](uint64_t) {
            ++calls;
            throw std::runtime_error("as the test asked");
        });
        EXPECT_TRUE(false);
    } catch (const std::runtime_error &e) {
        EXPECT_TRUE(std::string(e.what()) == "as the test asked" && calls == 1);
    }
}

} // namespace

// record_many from a pointer and a length (and a std::span under C++20), unsigned and
// signed, counts what per-value records count; a negative signed value throws and records
// nothing.
void test_record_many_spans() {
    picollo::Options o;
    o.relative_error = 0.01;
    o.min = 10000;
    o.max = 30000;
    std::vector<uint64_t> values = seed_values(5000, 7);
    values.push_back(5);     // underflow
    values.push_back(90000); // overflow
    std::vector<int64_t> signed_values(values.begin(), values.end());
    picollo::Histogram one(o), many(o), signed_many(o);
    for (uint64_t v : values) {
        one.record(v);
    }
    many.record_many(values.data(), values.size());
    signed_many.record_many(signed_values.data(), signed_values.size());
#ifdef PICOLLO_HPP_SPAN
    many.record_many(std::span<const uint64_t>(values));
    signed_many.record_many(std::span<const int64_t>(signed_values));
    for (uint64_t v : values) {
        one.record(v);
    }
    std::printf("record_many: std::span overloads tested (C++20)\n");
#endif
    for (picollo::Histogram *h : {&many, &signed_many}) {
        EXPECT_TRUE(h->table() == one.table());
        picollo_histogram_info a = h->info(), b = one.info();
        EXPECT_TRUE(a.total == b.total && a.underflow == b.underflow && a.overflow == b.overflow);
    }
    std::vector<int64_t> negative = {12000, -1, 13000};
    bool threw = false;
    try {
        signed_many.record_many(negative.data(), negative.size());
    } catch (const picollo::Error &e) {
        threw = e.status() == PICOLLO_STATUS_INVALID_ARGUMENT;
    }
    EXPECT_TRUE(threw && signed_many.table() == one.table());
    many.record_many(static_cast<const uint64_t *>(nullptr), 0);
    EXPECT_TRUE(many.table() == one.table());
}

int main() {
    try {
        test_record_summary_table();
        test_record_many_spans();
        test_seed_percentile_line();
        test_errors_and_ownership();
        test_snapshot();
        test_inline_recorder();
        test_recorder_by_value();
        test_float_histogram();
        test_exact_extremes();
        test_bench_lambda();
    } catch (const std::exception &e) {
        ++failed;
        std::fprintf(stderr, "FAIL: unexpected exception: %s\n", e.what());
    }
    std::printf("%lu passed, %lu failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
