// gbench_sample.cpp: a program written in Google Benchmark's idioms, every call that
// picollo_benchmark.hpp maps used at least once, built against Picollo by its include alone
// (the Google Benchmark original reads `#include <benchmark/benchmark.h>`) and run by
// c-tests/gbench.sh (c-tests/check_gbench_report.py reads what BM_counters, BM_linear,
// BM_linear_auto, BM_setup, BM_fixed and BM_manual_time report). GBENCH_SAMPLE_SKIP=1 makes BM_skip call
// SkipWithError; GBENCH_SAMPLE_BAD_RANGE=1 registers a Range whose start is above its end,
// GBENCH_SAMPLE_BAD_ITERATIONS=1 an Iterations(0),
// GBENCH_SAMPLE_LEFT_OUT=1 benchmarks of 1 to 4 threads and one of UseManualTime,
// GBENCH_SAMPLE_PAUSED=1 BM_spin/paused:1 and BM_spin/paused:0 (a 1 ms spin, paused or not) and
// SlowSetUp/Case (a fixture whose SetUp spins 1 ms). Built with
// -DGBENCH_SAMPLE_OWN_MAIN, its main calls Initialize and RunSpecifiedBenchmarks itself.
#include <picollo_benchmark.hpp>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <string>
#include <vector>

static bool asked(const char *var) {
    const char *v = std::getenv(var);
    return v != nullptr && std::strcmp(v, "1") == 0;
}

// Arg, RangeMultiplier, Range, Unit; items processed.
static void BM_sum(benchmark::State &state) {
    std::vector<int> values(std::size_t(state.range(0)), 1);
    for (auto _ : state) {
        benchmark::DoNotOptimize(std::accumulate(values.begin(), values.end(), 0));
    }
    state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_sum)->Arg(8)->RangeMultiplier(4)->Range(16, 256)->Unit(benchmark::kMicrosecond);

// Args, Ranges; bytes processed; ClobberMemory.
static void BM_copy(benchmark::State &state) {
    std::vector<char> from(std::size_t(state.range(0) * state.range(1)), 'x');
    std::vector<char> to(from.size());
    for (auto _ : state) {
        std::memcpy(to.data(), from.data(), from.size());
        benchmark::ClobberMemory();
    }
    state.SetBytesProcessed(int64_t(state.iterations()) * state.range(0) * state.range(1));
}
BENCHMARK(BM_copy)->Args({8, 64})->Ranges({{1, 2}, {128, 128}});

// DenseRange and Name; while (state.KeepRunning()), PauseTiming, ResumeTiming, counters, a label.
static void BM_dense(benchmark::State &state) {
    std::vector<int> values;
    while (state.KeepRunning()) {
        state.PauseTiming();
        values.assign(std::size_t(state.range(0)) + 1, 3);
        state.ResumeTiming();
        benchmark::DoNotOptimize(values.data());
    }
    state.counters["values"] = double(values.size());
    state.SetLabel("dense");
}
BENCHMARK(BM_dense)->DenseRange(0, 4, 2)->Name("BM_dense_named");

// The settings the runner chooses itself, accepted: named as Google Benchmark names them.
static void BM_settings(benchmark::State &state) {
    for (auto _ : state) {
        int x = 1;
        benchmark::DoNotOptimize(x);
    }
}
BENCHMARK(BM_settings)->Iterations(100)->Repetitions(3)->UseRealTime()->Threads(1);
BENCHMARK(BM_settings)->MinTime(0.5);

// Negative arguments, ArgNames: Range(-8, 8) is -8, -1, 0, 1, 8.
static void BM_signed(benchmark::State &state) {
    int64_t delta = state.range(0);
    for (auto _ : state) {
        int64_t x = delta * 3;
        benchmark::DoNotOptimize(x);
    }
}
BENCHMARK(BM_signed)->ArgNames({"delta"})->Range(-8, 8);

// BENCHMARK_CAPTURE: extra arguments.
static void BM_capture(benchmark::State &state, const std::string &text) {
    for (auto _ : state) {
        benchmark::DoNotOptimize(text.find('z'));
    }
}
BENCHMARK_CAPTURE(BM_capture, small, std::string("abcdefgh"));

// BENCHMARK_TEMPLATE, BENCHMARK_TEMPLATE1, BENCHMARK_TEMPLATE2.
template <class T>
static void BM_t(benchmark::State &state) {
    T x = T(1);
    for (auto _ : state) {
        x = x * T(3) + T(1);
        benchmark::DoNotOptimize(x);
    }
}
BENCHMARK_TEMPLATE(BM_t, int);
BENCHMARK_TEMPLATE1(BM_t, double);
template <class A, class B>
static void BM_t2(benchmark::State &state) {
    for (auto _ : state) {
        benchmark::DoNotOptimize(A(2) * B(3));
    }
}
BENCHMARK_TEMPLATE2(BM_t2, int, long);

// SkipWithError: the runner's failure path, the message its own.
static void BM_skip(benchmark::State &state) {
    if (asked("GBENCH_SAMPLE_SKIP")) {
        state.SkipWithError("the input was empty, as the test asked");
    }
    for (auto _ : state) {
        if (state.error_occurred()) {
            break;
        }
        benchmark::DoNotOptimize(state.iterations());
    }
}
BENCHMARK(BM_skip);

// A fixture.
class Filled : public benchmark::Fixture {
public:
    void SetUp(const benchmark::State &) override { values.assign(64, 5); }
    void TearDown(const benchmark::State &) override { values.clear(); }
    std::vector<int> values;
};
BENCHMARK_F(Filled, Sum)(benchmark::State &state) {
    for (auto _ : state) {
        benchmark::DoNotOptimize(std::accumulate(values.begin(), values.end(), 0));
    }
}

// User counters of each flag (per batch of k: 8k items, 3k over k, 2 per iteration, 4096
// bytes counted in 1024s) and a label.
static void BM_counters(benchmark::State &state) {
    using benchmark::Counter;
    int64_t n = 0;
    for (auto _ : state) {
        benchmark::DoNotOptimize(++n);
    }
    double k = double(state.iterations());
    state.counters["items"] = Counter(8 * k, Counter::kIsRate);
    state.counters["per_iteration"] = Counter(3 * k, Counter::kAvgIterations);
    state.counters["invariant"] = Counter(2, Counter::kIsIterationInvariant);
    state.counters["seconds_per_item"] = Counter(8 * k, Counter::kIsRate | Counter::kInvert);
    state.counters["bytes"] = Counter(4096, Counter::kDefaults, Counter::kIs1024);
    state.counters["plain"] = 5;
    state.SetLabel("eight items an iteration");
}
BENCHMARK(BM_counters);

// Complexity: a sum over N values (linear), fit to N and to the best curve; SetComplexityN.
static void BM_linear(benchmark::State &state) {
    std::vector<int> values(std::size_t(state.range(0)), 1);
    for (auto _ : state) {
        benchmark::DoNotOptimize(std::accumulate(values.begin(), values.end(), 0));
    }
    state.SetComplexityN(state.range(0));
}
BENCHMARK(BM_linear)->RangeMultiplier(4)->Range(64, 4096)->Complexity(benchmark::oN);
BENCHMARK(BM_linear)->Name("BM_linear_auto")->RangeMultiplier(4)->Range(64, 4096)->Complexity();

// Setup and Teardown around each call, paused: Setup spins 1 ms (left out of the time) and
// fills the input the body needs; Teardown empties it. A body without its input, or a Setup
// whose previous Teardown did not run, fails the benchmark.
static std::vector<int> prepared;
static int setups = 0, teardowns = 0;
static void Prepare(const benchmark::State &) {
    auto start = std::chrono::steady_clock::now();
    while (std::chrono::steady_clock::now() - start < std::chrono::milliseconds(1)) {
    }
    setups += setups == teardowns ? 1 : 1000;
    prepared.assign(16, 1);
}
static void Clear(const benchmark::State &) {
    teardowns++;
    prepared.clear();
}
static void BM_setup(benchmark::State &state) {
    if (prepared.empty() || setups != teardowns + 1) {
        state.SkipWithError("Setup did not run before the body, or Teardown not after the last");
    }
    for (auto _ : state) {
        benchmark::DoNotOptimize(std::accumulate(prepared.begin(), prepared.end(), 0));
    }
}
BENCHMARK(BM_setup)->Setup(Prepare)->Teardown(Clear);

// Iterations(7): each batch runs 7 iterations (the counter says what the body was given).
static void BM_fixed(benchmark::State &state) {
    for (auto _ : state) {
        benchmark::DoNotOptimize(state.max_iterations);
    }
    state.counters["max_iterations"] = double(state.max_iterations);
}
BENCHMARK(BM_fixed)->Iterations(7);

// UseManualTime: each iteration tells 1 us (SetIterationTime), which is then its time.
static void BM_manual_time(benchmark::State &state) {
    for (auto _ : state) {
        benchmark::DoNotOptimize(state.iterations());
        state.SetIterationTime(1e-6);
    }
}
BENCHMARK(BM_manual_time)->UseManualTime();

// A registration made in code, and (when asked) one the program refuses at startup.
static int registered = (benchmark::RegisterBenchmark("BM_registered", BM_sum)->Arg(32), 0);
static int bad_range =
    asked("GBENCH_SAMPLE_BAD_RANGE") ? (benchmark::RegisterBenchmark("BM_bad", BM_sum)->Range(64, 8), 1) : 0;
static int bad_iterations =
    asked("GBENCH_SAMPLE_BAD_ITERATIONS") ? (benchmark::RegisterBenchmark("BM_bad", BM_sum)->Iterations(0), 1) : 0;
static int left_out = asked("GBENCH_SAMPLE_LEFT_OUT")
                          ? (benchmark::RegisterBenchmark("BM_threads", BM_sum)->Arg(8)->ThreadRange(1, 4),
                             benchmark::RegisterBenchmark("BM_manual", BM_sum)->Arg(8)->UseManualTime(), 1)
                          : 0;

// A 1 ms spin per iteration between PauseTiming and ResumeTiming (paused:1), or timed (paused:0).
static void BM_spin(benchmark::State &state) {
    using clock = std::chrono::steady_clock;
    for (auto _ : state) {
        if (state.range(0) != 0) {
            state.PauseTiming();
        }
        auto start = clock::now();
        while (clock::now() - start < std::chrono::milliseconds(1)) {
        }
        if (state.range(0) != 0) {
            state.ResumeTiming();
        }
    }
}
static int spin = asked("GBENCH_SAMPLE_PAUSED")
                      ? (benchmark::RegisterBenchmark("BM_spin", BM_spin)->ArgName("paused")->Arg(1)->Arg(0), 1)
                      : 0;

// A fixture whose SetUp spins 1 ms: SetUp runs paused, as Google Benchmark leaves it out.
class SlowSetUp : public benchmark::Fixture {
public:
    void SetUp(const benchmark::State &) override {
        auto start = std::chrono::steady_clock::now();
        while (std::chrono::steady_clock::now() - start < std::chrono::milliseconds(1)) {
        }
    }

protected:
    void BenchmarkCase(benchmark::State &state) override {
        for (auto _ : state) {
            benchmark::DoNotOptimize(state.iterations());
        }
    }
};
static int slow_setup =
    asked("GBENCH_SAMPLE_PAUSED")
        ? (benchmark::internal::RegisterBenchmarkInternal(new SlowSetUp)->Name("SlowSetUp/Case"), 1)
        : 0;

#ifdef GBENCH_SAMPLE_OWN_MAIN
// A main of its own, as Google Benchmark's docs write one.
int main(int argc, char **argv) {
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) {
        return 1;
    }
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
#else
BENCHMARK_MAIN();
#endif
