// picollo.hpp: RAII wrappers over picollo.h for C++17, header-only: histograms and
// snapshots, perf sessions, a benchmark taking lambdas, and a suite of them whose `main`
// is the library's runner (docs/suites.md). Handles are owned (moved, never copied) and
// freed by the destructors; a failed call throws picollo::Error carrying the status and the
// library's message. Written by hand beside the generated picollo.h.
#ifndef PICOLLO_HPP
#define PICOLLO_HPP

#include <cstdint>
#include <cstdio>
#include <exception>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>
#if __cplusplus >= 202002L && defined(__has_include)
#if __has_include(<span>)
#include <span>
#define PICOLLO_HPP_SPAN 1
#endif
#endif

#include "picollo.h"

namespace picollo {

// A failed call: the status and the message picollo_last_error_message() gave for it.
class Error : public std::runtime_error {
public:
    Error(picollo_status status, const char *message)
        : std::runtime_error(std::string(picollo_status_str(status)) + ": " + message),
          status_(status) {}
    picollo_status status() const noexcept { return status_; }

private:
    picollo_status status_;
};

inline void check(picollo_status s) {
    if (s != PICOLLO_STATUS_OK) {
        throw Error(s, picollo_last_error_message());
    }
}

// snprintf-style text: ask for the size, then fill a string of exactly that size.
template <class Write>
std::string text(Write &&write) {
    size_t needed = 0;
    picollo_status s = write(nullptr, 0, &needed);
    if (s != PICOLLO_STATUS_BUFFER_TOO_SMALL) {
        check(s);
        throw std::logic_error("a size query without a buffer reported success");
    }
    std::string out(needed, '\0');
    size_t again = 0;
    check(write(&out[0], needed + 1, &again)); // writes the NUL onto out's own terminator
    if (again != needed) {
        throw std::logic_error("the text changed size between two calls");
    }
    return out;
}

struct HistogramFree {
    void operator()(picollo_histogram *h) const noexcept { picollo_histogram_free(h); }
};
struct SnapshotFree {
    void operator()(picollo_snapshot *s) const noexcept { picollo_snapshot_free(s); }
};

struct Options {
    double relative_error = 0.001;
    uint64_t min = 0;
    uint64_t max = UINT64_MAX;
    uint32_t counter_bits = 64;
    picollo_value_selection selection = PICOLLO_VALUE_SELECTION_MIDPOINT;
};

class Histogram {
public:
    explicit Histogram(const Options &o = Options()) {
        picollo_histogram_config c = picollo_histogram_config_default();
        c.relative_error = o.relative_error;
        c.min_trackable = o.min;
        c.max_trackable = o.max;
        c.counter_bits = o.counter_bits;
        c.value_selection = o.selection;
        picollo_histogram *raw = nullptr;
        check(picollo_histogram_new(&c, &raw));
        h_.reset(raw);
    }

    void record(uint64_t v) noexcept { picollo_histogram_record(h_.get(), v); }
    void record(uint64_t v, uint64_t n) noexcept { picollo_histogram_record_n(h_.get(), v, n); }
    void record(const std::vector<uint64_t> &vs) { record_many(vs.data(), vs.size()); }
    // The n values at vs in one call (the batch record); int64_t ones throw on a negative
    // value, and then nothing is recorded. Under C++20, a std::span of either too.
    void record_many(const uint64_t *vs, size_t n) {
        check(picollo_histogram_record_many(h_.get(), vs, n));
    }
    void record_many(const int64_t *vs, size_t n) {
        check(picollo_histogram_record_many_i64(h_.get(), vs, n));
    }
#ifdef PICOLLO_HPP_SPAN
    void record_many(std::span<const uint64_t> vs) { record_many(vs.data(), vs.size()); }
    void record_many(std::span<const int64_t> vs) { record_many(vs.data(), vs.size()); }
#endif
    void reset() { check(picollo_histogram_reset(h_.get())); }

    picollo_histogram_info info() const {
        picollo_histogram_info i;
        check(picollo_histogram_get_info(h_.get(), &i));
        return i;
    }
    picollo_percentile percentile(double rank) const {
        picollo_percentile p;
        check(picollo_histogram_percentile(h_.get(), rank, &p));
        return p;
    }
    std::vector<picollo_percentile> percentiles(const std::vector<double> &ranks) const {
        std::vector<picollo_percentile> out(ranks.size());
        check(picollo_histogram_percentiles(h_.get(), ranks.data(), ranks.size(), out.data()));
        return out;
    }
    picollo_summary summary() const {
        picollo_summary s;
        check(picollo_histogram_summary(h_.get(), &s));
        return s;
    }
    std::string table(const char *title = nullptr) const {
        return text([&](char *b, size_t n, size_t *need) {
            return picollo_histogram_table(h_.get(), title, b, n, need);
        });
    }
    Histogram &operator+=(const Histogram &o) {
        check(picollo_histogram_add(h_.get(), o.h_.get()));
        return *this;
    }
    Histogram &operator-=(const Histogram &o) {
        check(picollo_histogram_subtract(h_.get(), o.h_.get()));
        return *this;
    }

    // The non-empty buckets, for a range-for (the ABI's cursor, no callbacks).
    class Buckets {
    public:
        class iterator {
        public:
            iterator(const picollo_histogram *h, bool end) : h_(h), done_(end) {
                if (!done_) {
                    ++*this;
                }
            }
            const picollo_bucket &operator*() const { return b_; }
            iterator &operator++() {
                picollo_status s = picollo_histogram_next_bucket(h_, &cursor_, &b_);
                if (s == PICOLLO_STATUS_OUT_OF_RANGE) {
                    done_ = true;
                } else {
                    check(s);
                }
                return *this;
            }
            bool operator!=(const iterator &o) const { return done_ != o.done_; }

        private:
            const picollo_histogram *h_;
            size_t cursor_ = 0;
            picollo_bucket b_{};
            bool done_;
        };
        explicit Buckets(const picollo_histogram *h) : h_(h) {}
        iterator begin() const { return iterator(h_, false); }
        iterator end() const { return iterator(h_, true); }

    private:
        const picollo_histogram *h_;
    };
    Buckets buckets() const { return Buckets(h_.get()); }

    const picollo_histogram *get() const noexcept { return h_.get(); }

private:
    std::unique_ptr<picollo_histogram, HistogramFree> h_;
};

class Snapshot {
public:
    explicit Snapshot(const Histogram &h) {
        picollo_snapshot *raw = nullptr;
        check(picollo_snapshot_new(h.get(), &raw));
        s_.reset(raw);
    }
    void update(const Histogram &h, bool deltas) {
        check(picollo_snapshot_update(s_.get(), h.get(), deltas ? 1u : 0u));
    }
    picollo_summary summary() const {
        picollo_summary s;
        check(picollo_snapshot_summary(s_.get(), &s));
        return s;
    }

private:
    std::unique_ptr<picollo_snapshot, SnapshotFree> s_;
};

inline std::string table(const picollo_summary &s, const char *title) {
    return text([&](char *b, size_t n, size_t *need) {
        return picollo_summary_table(&s, title, b, n, need);
    });
}
inline std::string diff(const picollo_summary &a, const picollo_summary &b, const char *title,
                        const char *name_a, const char *name_b) {
    return text([&](char *buf, size_t n, size_t *need) {
        return picollo_summary_diff(&a, &b, title, name_a, name_b, buf, n, need);
    });
}
inline std::string line(const picollo_summary &s, const char *name) {
    return text([&](char *b, size_t n, size_t *need) {
        return picollo_summary_line(&s, name, b, n, need);
    });
}
inline std::string json(const picollo_summary &s) {
    return text([&](char *b, size_t n, size_t *need) { return picollo_summary_json(&s, b, n, need); });
}
inline std::string format(const picollo_percentile &p) {
    return text([&](char *b, size_t n, size_t *need) {
        return picollo_percentile_format(&p, b, n, need);
    });
}


// A perf_event session of the calling thread: counters added by name
// (`Software:TaskClock`, `Hardware:Instructions`…), opened, read and recorded into one
// histogram per counter (docs/perf-counters.md). Linux only.
struct PerfSessionFree {
    void operator()(picollo_perf_session *s) const noexcept { picollo_perf_session_free(s); }
};

class PerfSession {
public:
    explicit PerfSession(const picollo_perf_config &config = picollo_perf_config_default()) {
        picollo_perf_session *raw = nullptr;
        check(picollo_perf_session_new(&config, &raw));
        s_.reset(raw);
    }
    PerfSession &add(const char *name) {
        check(picollo_perf_session_add_named(s_.get(), name));
        return *this;
    }
    void open() { check(picollo_perf_session_open(s_.get())); }
    void enable() { check(picollo_perf_session_enable(s_.get())); }
    void disable() { check(picollo_perf_session_disable(s_.get())); }
    void reset() { check(picollo_perf_session_reset(s_.get())); }
    // Read the counters, then record each delta into its counter's histogram.
    void read() { check(picollo_perf_session_read(s_.get(), 0, nullptr)); }
    void record() { check(picollo_perf_session_record(s_.get())); }
    size_t size() const {
        size_t n = 0;
        check(picollo_perf_session_counter_count(s_.get(), &n));
        return n;
    }
    std::string name(size_t index) const {
        return text([&](char *b, size_t n, size_t *need) {
            return picollo_perf_session_counter_name(s_.get(), index, b, n, need);
        });
    }
    picollo_perf_session *get() const noexcept { return s_.get(); }

private:
    std::unique_ptr<picollo_perf_session, PerfSessionFree> s_;
};

// Keeps the compiler from optimizing away `value` or the work that made it.
template <class T>
inline void do_not_optimize(T const &value) {
    __asm__ __volatile__("" : : "g"(value) : "memory");
}

namespace detail {

// `work(k)` for a work that takes the batch size, else `k` calls of `work()`.
template <class Work>
void run_batch(Work &work, uint64_t k) {
    if constexpr (std::is_invocable_v<Work &, uint64_t>) {
        work(k);
    } else {
        for (uint64_t i = 0; i < k; i++) {
            work();
        }
    }
}

// `work(k)` inside a suite's benchmark: an exception stops at this frame (it must not
// unwind into the library) and the suite reports the benchmark FAILED with its message.
template <class Work>
void run_in_suite(Work &work, uint64_t k) noexcept {
    try {
        run_batch(work, k);
    } catch (const std::exception &e) {
        picollo_suite_fail(e.what());
    } catch (...) {
        picollo_suite_fail("threw an exception that is not a std::exception");
    }
}

} // namespace detail

// A benchmark's result: its line, report or JSON (`text`), its figures per metric.
struct BenchResultFree {
    void operator()(picollo_bench_result *r) const noexcept { picollo_bench_result_free(r); }
};

class BenchResult {
public:
    explicit BenchResult(picollo_bench_result *r) : r_(r) {}
    std::string text(picollo_bench_format format = PICOLLO_BENCH_FORMAT_REPORT) const {
        return picollo::text([&](char *b, size_t n, size_t *need) {
            return picollo_bench_result_text(r_.get(), format, b, n, need);
        });
    }
    size_t metrics() const {
        size_t n = 0;
        check(picollo_bench_result_metric_count(r_.get(), &n));
        return n;
    }
    // The `rank` percentile of metric `index` (0: time, in ns) per operation.
    double percentile(double rank, size_t index = 0) const {
        double v = 0;
        check(picollo_bench_result_percentile(r_.get(), index, rank, &v));
        return v;
    }
    // The comparison of `a` (before) with this (after): diff tables, method and verdict.
    std::string compared_with(const BenchResult &a, picollo_bench_verdict *verdict = nullptr) const {
        return picollo::text([&](char *b, size_t n, size_t *need) {
            return picollo_bench_compare(a.get(), r_.get(), b, n, need, verdict, nullptr);
        });
    }
    const picollo_bench_result *get() const noexcept { return r_.get(); }

private:
    std::unique_ptr<picollo_bench_result, BenchResultFree> r_;
};

// The harness on lambdas: `Bench().budget(1.0).run([&](uint64_t k) {...})` measures one
// (`run("name", work)` also prints its row, nanobench's way),
// `compare` two in interleaved rounds. A work takes the batch size `k` and runs k
// operations, or takes nothing and runs one. An exception from the work is rethrown once
// the run ends (the run itself goes on without calling the work again).
class Bench {
public:
    explicit Bench(const char *name = "bench") : config_(picollo_bench_config_default()) {
        config_.name = name;
    }
    Bench &counters(const char *list) { return set(config_.counters, list); }
    Bench &budget(double seconds) { return set(config_.time_budget, seconds, &budget_set_); }
    Bench &warmup(double seconds) { return set(config_.warmup, seconds, &warmup_set_); }
    Bench &samples(uint64_t n) { return set(config_.samples, n); }
    Bench &batch(uint64_t k) { return set(config_.batch, k); }
    Bench &rounds(uint64_t n) { return set(config_.rounds, n); }
    Bench &seed(uint64_t s) { return set(config_.seed, s); }
    picollo_bench_config &config() noexcept { return config_; }

    template <class Work>
    BenchResult run(Work &&work) const {
        Caught<Work> call{work, nullptr};
        picollo_bench_result *raw = nullptr;
        check(picollo_bench_run(&config_, &Caught<Work>::trampoline, &call, &raw));
        BenchResult r(raw);
        call.rethrow();
        return r;
    }

    // nanobench's shape, for interactive use: `Bench().run("name", [&] {...})` measures `work`
    // as `name` with a short run (0.5 s, 0.1 s of warm-up, unless `budget` or `warmup` said
    // otherwise) and prints its row of a Markdown table to stdout, the header before this
    // Bench's first row: the median and P99 time per operation and the operations a second.
    template <class Work>
    BenchResult run(const char *name, Work &&work) {
        Bench quick(*this);
        quick.config_.name = name;
        quick.config_.time_budget = budget_set_ ? config_.time_budget : 0.5;
        quick.config_.warmup = warmup_set_ ? config_.warmup : 0.1;
        BenchResult r = quick.run(std::forward<Work>(work));
        if (!header_printed_) {
            std::printf("| %14s | %14s | %16s | %s\n|%s|%s|%s|:%s\n", "ns/op (P50)", "ns/op (P99)", "op/s (P50)",
                        "benchmark", "---------------:", "---------------:", "-----------------:", "---------");
            header_printed_ = true;
        }
        double p50 = r.percentile(50), p99 = r.percentile(99);
        std::printf("| %14.2f | %14.2f | %16.1f | %s\n", p50, p99, p50 > 0 ? 1e9 / p50 : 0.0, name);
        std::fflush(stdout);
        return r;
    }

    template <class A, class B>
    std::pair<BenchResult, BenchResult> compare(const char *name_a, A &&a, const char *name_b, B &&b) const {
        Caught<A> ca{a, nullptr};
        Caught<B> cb{b, nullptr};
        picollo_bench_result *ra = nullptr, *rb = nullptr;
        check(picollo_bench_compare_run(&config_, name_a, &Caught<A>::trampoline, &ca, name_b,
                                        &Caught<B>::trampoline, &cb, &ra, &rb));
        std::pair<BenchResult, BenchResult> both{BenchResult(ra), BenchResult(rb)};
        ca.rethrow();
        cb.rethrow();
        return both;
    }

private:
    template <class F, class V>
    Bench &set(F &field, V value, bool *was_set = nullptr) {
        field = value;
        if (was_set != nullptr) {
            *was_set = true;
        }
        return *this;
    }

    // A work and the first exception it threw (after which it is not called again).
    template <class Work>
    struct Caught {
        Work &work;
        std::exception_ptr thrown;
        static void trampoline(void *ctx, uint64_t k) noexcept {
            Caught *c = static_cast<Caught *>(ctx);
            if (c->thrown) {
                return;
            }
            try {
                detail::run_batch(c->work, k);
            } catch (...) {
                c->thrown = std::current_exception();
            }
        }
        void rethrow() const {
            if (thrown) {
                std::rethrow_exception(thrown);
            }
        }
    };

    picollo_bench_config config_;
    bool budget_set_ = false, warmup_set_ = false, header_printed_ = false;
};

// A suite of named benchmarks: `Suite s("name"); s.add("sum", [&](uint64_t k) {...});
// return s.main(argc, argv);` runs them as the command line says (picollo_suite_main:
// measured by default, `--test` each once, `--list`, a filter, `--against OTHER`). A
// benchmark that throws is reported FAILED with the exception's message (exit status 6).
// The work of one operation: `per_operation` of `unit`, "elements" or "bytes".
struct Throughput {
    const char *unit = nullptr;
    uint64_t per_operation = 0;
};

struct SuiteFree {
    void operator()(picollo_suite *s) const noexcept { picollo_suite_free(s); }
};

class Suite {
public:
    // The suite `name` (the folder of its outputs), with `picollo_bench_config_default()`'s
    // settings.
    explicit Suite(const char *name) : Suite(name, picollo_bench_config_default()) {}
    Suite(const char *name, const picollo_bench_config &config) {
        picollo_suite *raw = nullptr;
        check(picollo_suite_new(name, &raw));
        s_.reset(raw);
        check(picollo_suite_set_config(s_.get(), &config));
    }

    // Register `work` as benchmark `name`: it takes the batch size `k` and runs k
    // operations, or takes nothing and runs one. The suite keeps it until it is destroyed.
    template <class Work>
    Suite &add(const char *name, Work &&work) {
        using Held = std::decay_t<Work>;
        auto held = std::make_shared<Held>(std::forward<Work>(work));
        auto trampoline = [](void *ctx, uint64_t k) noexcept {
            detail::run_in_suite(*static_cast<Held *>(ctx), k);
        };
        check(picollo_suite_add(s_.get(), name, trampoline, held.get()));
        works_.push_back(std::move(held));
        return *this;
    }

    // Register benchmark `name/p` for each `p` of `params` (written as `std::ostream` writes
    // it; the library forms the name): `work(p, k)` runs k operations of parameter p, or
    // `work(p)` one. With a `throughput(p)` (`picollo::Throughput{"bytes", p}`), one
    // operation of each does that much work, and its results carry the library's rate.
    template <class P, class Work>
    Suite &add_params(const char *name, const std::vector<P> &params, Work &&work) {
        return add_params(name, params, std::forward<Work>(work), [](const P &) { return Throughput{}; });
    }
    template <class P, class Work, class Per>
    Suite &add_params(const char *name, const std::vector<P> &params, Work &&work, Per &&throughput) {
        auto shared = std::make_shared<std::decay_t<Work>>(std::forward<Work>(work));
        works_.push_back(shared);
        for (const P &p : params) {
            std::ostringstream text;
            text << p;
            const std::string param = text.str();
            auto bound = [shared, p](uint64_t k) {
                if constexpr (std::is_invocable_v<std::decay_t<Work> &, const P &, uint64_t>) {
                    (*shared)(p, k);
                } else {
                    for (uint64_t i = 0; i < k; i++) (*shared)(p);
                }
            };
            using Held = decltype(bound);
            auto held = std::make_shared<Held>(std::move(bound));
            auto trampoline = [](void *ctx, uint64_t k) noexcept {
                detail::run_in_suite(*static_cast<Held *>(ctx), k);
            };
            check(picollo_suite_add_param(s_.get(), name, param.c_str(), trampoline, held.get()));
            works_.push_back(std::move(held));
            Throughput t = throughput(p);
            if (t.unit != nullptr) {
                check(picollo_suite_set_throughput(s_.get(), name, param.c_str(), t.unit, t.per_operation));
            }
        }
        return *this;
    }

    // Declare that one operation of benchmark `name` does `t.per_operation` of `t.unit`
    // ("elements" or "bytes"): its results carry the library's rate at their median.
    Suite &throughput(const char *name, Throughput t) {
        check(picollo_suite_set_throughput(s_.get(), name, nullptr, t.unit, t.per_operation));
        return *this;
    }

    // Run as `argv` says; the exit status for `main` to return.
    int main(int argc, char **argv) {
        std::fflush(stdout); // what the program printed goes first
        return picollo_suite_main(s_.get(), argc, argv);
    }

private:
    std::unique_ptr<picollo_suite, SuiteFree> s_;
    std::vector<std::shared_ptr<void>> works_;
};

} // namespace picollo

#endif // PICOLLO_HPP
