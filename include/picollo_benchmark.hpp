// picollo_benchmark.hpp: Google Benchmark's registration and State API (`BENCHMARK(f)->Arg(8)`,
// `for (auto _ : state)`, `BENCHMARK_MAIN()`) over Picollo's suite runner, so that a Google
// Benchmark program builds against Picollo by changing its include and its link line
// (`-lbenchmark` → `-lpicollo`); docs/bring-your-suite.md says what is mapped, what is
// accepted and ignored, and what is refused. C++14, GCC or Clang, header-only beside the
// generated picollo.h. The flags and the runner are picollo_benchmark_main.hpp's.
#ifndef PICOLLO_BENCHMARK_HPP
#define PICOLLO_BENCHMARK_HPP

#include <cassert> // a Google Benchmark program may use assert without including it
#include <cstdint>
#include <cstdio>
#include <algorithm>
#include <cstring>
#include <cstddef>
#include <functional>
#include <iterator>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <unistd.h>

#include "picollo.h"

namespace benchmark {

typedef int64_t IterationCount;

// Accepted for the registration calls that take them; Picollo prints its own units. A
// BigO names the curve `->Complexity` fits to a family's times (picollo_benchmark_report.hpp).
enum TimeUnit { kNanosecond, kMicrosecond, kMillisecond, kSecond };
enum BigO { oNone, o1, oN, oNSquared, oNCubed, oLogN, oNLogN, oAuto, oLambda };
typedef double(BigOFunc)(IterationCount);
typedef double(StatisticsFunc)(const std::vector<double> &);

// A user counter (`state.counters["x"] = n`): the value the last batch left, reported with
// the benchmark as its flags say, against Picollo's time (picollo_benchmark_report.hpp).
class Counter {
public:
    enum Flags {
        kDefaults = 0,
        kIsRate = 1,
        kAvgThreads = 2,
        kAvgThreadsRate = 3,
        kIsIterationInvariant = 4,
        kIsIterationInvariantRate = 5,
        kAvgIterations = 8,
        kAvgIterationsRate = 9,
        kInvert = 16
    };
    enum OneK { kIs1000 = 1000, kIs1024 = 1024 };
    Counter(double v = 0.0, Flags f = kDefaults, OneK k = kIs1000) : value(v), flags(f), oneK(k) {}
    operator double const &() const { return value; }
    operator double &() { return value; }
    double value;
    Flags flags;
    OneK oneK;
};
// Flags combine as in Google Benchmark: `Counter::kIsRate | Counter::kInvert`.
constexpr Counter::Flags operator|(const Counter::Flags &a, const Counter::Flags &b) {
    return Counter::Flags(int(a) | int(b));
}
typedef std::map<std::string, Counter> UserCounters;

// Keeps the compiler from dropping `value` or the work that made it: the empty asm claims to
// read it (and, for a non-const one, to change it in memory).
template <class T>
inline void DoNotOptimize(T const &value) {
    __asm__ __volatile__("" : : "g"(value) : "memory");
}
template <class T>
inline void DoNotOptimize(T &value) {
    __asm__ __volatile__("" : "+m"(value) : : "memory");
}
// Makes every pending write to memory happen here (the compiler may assume any was read).
inline void ClobberMemory() { __asm__ __volatile__("" : : : "memory"); }

namespace internal {
class Benchmark;
struct Instance;
} // namespace internal

// What a benchmark's function gets: the batch of iterations Picollo's runner chose (the loop
// `for (auto _ : state)` runs that many), the arguments, and the calls that mark it.
class State {
public:
    // The value the range-for hands out: nothing (its name is `_` by convention).
    struct __attribute__((unused)) Value {};
    // Counts the batch down; the comparison with end() that ends the loop closes the batch.
    class StateIterator {
    public:
        typedef std::forward_iterator_tag iterator_category;
        typedef Value value_type;
        typedef Value reference;
        typedef Value pointer;
        typedef std::ptrdiff_t difference_type;
        StateIterator() : left_(0), state_(nullptr) {}
        explicit StateIterator(State *s) : left_(s->StartBatch()), state_(s) {}
        Value operator*() const { return Value(); }
        StateIterator &operator++() {
            --left_;
            return *this;
        }
        bool operator!=(const StateIterator &) {
            if (__builtin_expect(left_ != 0, 1)) {
                return true;
            }
            state_->FinishBatch();
            return false;
        }

    private:
        IterationCount left_;
        State *state_;
    };

    State(IterationCount batch, const std::vector<int64_t> &args, const std::string &name)
        : max_iterations(batch), args_(args), name_(name) {}

    StateIterator begin() { return StateIterator(this); }
    StateIterator end() { return StateIterator(); }
    bool KeepRunning() { return KeepRunningBatch(1); }
    // Runs `n` more iterations while the batch is not done (the last may overshoot it).
    bool KeepRunningBatch(IterationCount n) {
        if (!started_) {
            StartBatch();
        }
        if (!skipped_ && done_ < max_iterations) {
            done_ += n;
            return true;
        }
        FinishBatch();
        return false;
    }
    // The iterations run: 0 inside the range-for, the batch once it ends.
    IterationCount iterations() const { return finished_ ? done_ : 0; }

    // What runs between these two is left out of the batch's time (picollo_suite_pause; perf
    // counters still count it). A pair leaves about 20 ns in the figure (docs/suites.md).
    void PauseTiming() { picollo_suite_pause(); }
    void ResumeTiming() { picollo_suite_resume(); }

    // The benchmark stops and is reported FAILED with `message` (the runner's failure path).
    void SkipWithError(const std::string &message) { Skip("", message); }
    // Picollo has no skipped state: reported FAILED too, the message saying it was skipped.
    void SkipWithMessage(const std::string &message) { Skip("skipped: ", message); }
    bool error_occurred() const { return skipped_; }
    bool skipped() const { return skipped_; }

    // The work of the batch, whose rate per iteration becomes the benchmark's throughput.
    void SetItemsProcessed(int64_t n) { items_ = n; }
    void SetBytesProcessed(int64_t n) { bytes_ = n; }
    int64_t items_processed() const { return items_; }
    int64_t bytes_processed() const { return bytes_; }
    // The N of this instance for `->Complexity`'s fit.
    void SetComplexityN(int64_t n) { complexity_n_ = n; }
    int64_t complexity_length_n() const { return complexity_n_; }
    // Shown with the benchmark's figures and in the JSON's `label`.
    void SetLabel(const std::string &label) { label_ = label; }
    const std::string &Label() const { return label_; }
    // For a benchmark of UseManualTime: adds `seconds` to the batch's time, which is then the
    // sum of these (picollo_suite_set_iteration_time); a negative or non-finite one fails it.
    void SetIterationTime(double seconds) {
        if (picollo_suite_set_iteration_time(seconds) != PICOLLO_STATUS_OK) {
            Skip("", "SetIterationTime(" + std::to_string(seconds) + "): not a finite time of 0 or more");
        }
    }

    // Argument `pos` of this instance (`->Arg(8)`: range(0) is 8); one it lacks fails it.
    int64_t range(std::size_t pos = 0) const {
        if (pos < args_.size()) {
            return args_[pos];
        }
        Skip("", "state.range(" + std::to_string(pos) + "): " + name_ + " has " + std::to_string(args_.size()) +
                     " argument(s)");
        return 0;
    }
    int64_t range_x() const { return range(0); }
    int64_t range_y() const { return range(1); }
    int threads() const { return 1; }
    int thread_index() const { return 0; }
    std::string name() const { return name_; }

    const IterationCount max_iterations;
    UserCounters counters;

    // Why the run failed ("" where it did not): a skip, or a loop left before its end.
    std::string Failure() const {
        if (skipped_) {
            return failure_;
        }
        if (!finished_) {
            return "the benchmark returned before its loop (for (auto _ : state) or while "
                   "(state.KeepRunning())) ran to its end";
        }
        return "";
    }

private:
    IterationCount StartBatch() {
        started_ = true;
        return skipped_ ? 0 : max_iterations;
    }
    void FinishBatch() {
        if (!finished_) {
            finished_ = true;
            done_ = skipped_ || done_ > max_iterations ? done_ : max_iterations;
        }
    }
    void Skip(const char *prefix, const std::string &message) const {
        if (!skipped_) {
            skipped_ = true;
            failure_ = prefix + message;
        }
    }

    const std::vector<int64_t> &args_;
    const std::string &name_;
    IterationCount done_ = 0;
    bool started_ = false, finished_ = false;
    mutable bool skipped_ = false; // range() of a const State may skip it
    int64_t items_ = 0, bytes_ = 0, complexity_n_ = 0;
    mutable std::string failure_;
    std::string label_;
};

namespace internal {

// A registered benchmark: its function and everything its registration calls said, expanded
// into one benchmark per argument tuple when the program runs (picollo_benchmark_main.hpp).
class Benchmark {
public:
    Benchmark(const std::string &name, std::function<void(State &)> fn) : name_(name), fn_(std::move(fn)) {}
    virtual ~Benchmark() {}

    Benchmark *Name(const std::string &name) { return Set(name_, name); }
    Benchmark *Arg(int64_t x) { return Args({x}); }
    Benchmark *Args(const std::vector<int64_t> &args) {
        if (!args_.empty() && args_.front().size() != args.size()) {
            return Refuse("Args: a tuple of " + std::to_string(args.size()) + " after tuples of " +
                          std::to_string(args_.front().size()));
        }
        args_.push_back(args);
        return this;
    }
    Benchmark *ArgPair(int64_t x, int64_t y) { return Args({x, y}); }
    Benchmark *Range(int64_t lo, int64_t hi) { return Ranges({{lo, hi}}); }
    Benchmark *RangePair(int64_t lo1, int64_t hi1, int64_t lo2, int64_t hi2) {
        return Ranges({{lo1, hi1}, {lo2, hi2}});
    }
    Benchmark *DenseRange(int64_t start, int64_t limit, int step = 1) {
        if (start > limit || step <= 0) {
            return Refuse("DenseRange(" + std::to_string(start) + ", " + std::to_string(limit) + ", " +
                          std::to_string(step) + "): needs start <= limit and a step above 0");
        }
        for (int64_t x = start; x <= limit; x += step) {
            Arg(x);
        }
        return this;
    }
    Benchmark *Ranges(const std::vector<std::pair<int64_t, int64_t>> &ranges) {
        std::vector<std::vector<int64_t>> lists;
        for (const auto &r : ranges) {
            std::string call = "Range(" + std::to_string(r.first) + ", " + std::to_string(r.second) + "): ";
            if (r.first > r.second) {
                return Refuse(call + "its start is above its limit");
            }
            lists.push_back(Powers(r.first, r.second, multiplier_));
        }
        return ArgsProduct(lists);
    }
    Benchmark *ArgsProduct(const std::vector<std::vector<int64_t>> &lists);
    Benchmark *ArgName(const std::string &name) { return ArgNames({name}); }
    Benchmark *ArgNames(const std::vector<std::string> &names) { return Set(arg_names_, names); }
    Benchmark *RangeMultiplier(int multiplier) {
        if (multiplier < 2) {
            return Refuse("RangeMultiplier(" + std::to_string(multiplier) + "): needs 2 or more");
        }
        return Set(multiplier_, multiplier);
    }
    Benchmark *Apply(void (*custom)(Benchmark *)) {
        custom(this);
        return this;
    }
    // Accepted and ignored: Picollo's runner chooses batches, time and rounds itself.
    Benchmark *Unit(TimeUnit) { return this; }
    // Each batch runs n iterations (picollo_suite_set_batch), whatever --batch says; n is
    // 1 to 2^24.
    Benchmark *Iterations(IterationCount n) {
        if (n < 1 || n > (IterationCount(1) << 24)) {
            return Refuse("Iterations(" + std::to_string(n) + "): needs 1 to 2^24 (16777216)");
        }
        iterations_ = n;
        return Suffix("iterations:" + std::to_string(n));
    }
    Benchmark *Repetitions(int n) { return Suffix("repeats:" + std::to_string(n)); }
    Benchmark *MinTime(double seconds) { return Suffix("min_time:" + Fixed(seconds)); }
    Benchmark *MinWarmUpTime(double seconds) { return Suffix("min_warmup_time:" + Fixed(seconds)); }
    Benchmark *ReportAggregatesOnly(bool = true) { return this; }
    Benchmark *DisplayAggregatesOnly(bool = true) { return this; }
    // The curve to fit to the family's median times over each instance's SetComplexityN:
    // the `_BigO` and `_RMS` rows (picollo_benchmark_report.hpp).
    Benchmark *Complexity(BigO curve = oAuto) { return Set(complexity_, curve); }
    Benchmark *Complexity(BigOFunc *f) {
        complexity_lambda_ = f;
        return Set(complexity_, oLambda);
    }
    // Run paused before and after each batch (each call of the function), with its State.
    Benchmark *Setup(std::function<void(const State &)> f) { return Set(setup_, std::move(f)); }
    Benchmark *Teardown(std::function<void(const State &)> f) { return Set(teardown_, std::move(f)); }
    Benchmark *ComputeStatistics(const std::string &, StatisticsFunc *, ...) { return this; }
    // Picollo measures the wall clock: the name says which clock Google Benchmark would read.
    Benchmark *UseRealTime() { return Set(time_type_, std::string("real_time")); }
    Benchmark *MeasureProcessCPUTime() { return Set(process_time_, true); }
    // The time is what the function tells with state.SetIterationTime, summed over each
    // batch (picollo_suite_set_manual_time).
    Benchmark *UseManualTime() { return Set(time_type_, std::string("manual_time")); }
    bool ManualTime() const { return time_type_ == "manual_time"; }
    // Left out of the suite, with a note (picollo_benchmark_main.hpp's Instances): Picollo
    // runs a benchmark on one thread.
    Benchmark *Threads(int n) {
        if (n < 1) {
            return Refuse("Threads(" + std::to_string(n) + "): needs 1 or more");
        }
        threads_.push_back(n);
        return this;
    }
    // lo, the powers of 2 between, hi: as Google Benchmark counts them.
    Benchmark *ThreadRange(int lo, int hi) {
        if (lo < 1 || lo > hi) {
            return Refuse("ThreadRange(" + std::to_string(lo) + ", " + std::to_string(hi) +
                          "): needs 1 <= min <= max");
        }
        for (int64_t n : Powers(lo, hi, 2)) {
            threads_.push_back(int(n));
        }
        return this;
    }
    Benchmark *DenseThreadRange(int lo, int hi, int stride = 1) {
        if (lo < 1 || lo > hi || stride < 1) {
            return Refuse("DenseThreadRange(" + std::to_string(lo) + ", " + std::to_string(hi) + ", " +
                          std::to_string(stride) + "): needs 1 <= min <= max and a stride above 0");
        }
        for (int n = lo; n <= hi; n += stride) {
            threads_.push_back(n);
        }
        return threads_.back() == hi ? this : Threads(hi);
    }
    Benchmark *ThreadPerCpu() { return Threads(int(sysconf(_SC_NPROCESSORS_ONLN))); }

    // Why Picollo leaves out this registration's instance of `threads` threads (0: no Threads
    // call), "" where it runs it.
    std::string LeftOut(int threads) const {
        if (threads > 1) {
            return "Threads(" + std::to_string(threads) + "): Picollo runs a benchmark on one thread";
        }
        return "";
    }
    // The thread counts the registration asked for (empty: none).
    const std::vector<int> &ThreadCounts() const { return threads_; }

    // What the registration calls refused ("" where none was).
    const std::string &Refused() const { return refused_; }
    const std::string &BaseName() const { return name_; }
    const std::vector<std::vector<int64_t>> &ArgLists() const { return args_; }
    // The instance's name as Google Benchmark writes it: `BM_x/8/64/real_time`.
    std::string InstanceName(const std::vector<int64_t> &args, int threads) const;
    // The batch Iterations fixed (0: the runner chooses).
    IterationCount FixedIterations() const { return iterations_; }
    BigO ComplexityCurve() const { return complexity_; }
    BigOFunc *ComplexityLambda() const { return complexity_lambda_; }
    virtual void Run(State &state) { fn_(state); }
    // Run with the Setup and Teardown callbacks around it, paused.
    void RunWithCallbacks(State &state) {
        if (setup_) {
            Paused([&] { setup_(state); });
        }
        Run(state);
        if (teardown_) {
            Paused([&] { teardown_(state); });
        }
    }

private:
    template <class F, class V>
    Benchmark *Set(F &field, const V &value) {
        field = value;
        return this;
    }
    Benchmark *Refuse(const std::string &why) {
        if (refused_.empty()) {
            refused_ = name_ + ": " + why;
        }
        return this;
    }
    Benchmark *Suffix(const std::string &part) {
        suffixes_.push_back(part);
        return this;
    }
    static std::string Fixed(double x) {
        char text[32];
        std::snprintf(text, sizeof text, "%0.3f", x);
        return text;
    }
    static std::vector<int64_t> Powers(int64_t lo, int64_t hi, int multiplier);
    static void AddPowers(std::vector<int64_t> &out, int64_t lo, int64_t hi, int multiplier);

    std::string name_;
    std::function<void(State &)> fn_;
    std::vector<std::vector<int64_t>> args_;
    std::vector<std::string> arg_names_, suffixes_;
    std::vector<int> threads_;
    std::string time_type_, refused_;
    bool process_time_ = false;
    int multiplier_ = 8;
    IterationCount iterations_ = 0;
    BigO complexity_ = oNone;
    BigOFunc *complexity_lambda_ = nullptr;
    std::function<void(const State &)> setup_, teardown_;

    template <class F>
    static void Paused(F f) {
        picollo_suite_pause();
        f();
        picollo_suite_resume();
    }
};

// The powers of `multiplier` from `lo` (at least 1) to `hi`, ascending, appended to `out`.
inline void Benchmark::AddPowers(std::vector<int64_t> &out, int64_t lo, int64_t hi, int multiplier) {
    for (int64_t p = 1; p <= hi; p *= multiplier) {
        if (p >= lo) {
            out.push_back(p);
        }
        if (p > INT64_MAX / multiplier) {
            break;
        }
    }
}

// `lo`, then the values strictly between: the negated powers of the multiplier, 0 where the
// range holds it, the powers; then `hi`.
inline std::vector<int64_t> Benchmark::Powers(int64_t lo, int64_t hi, int multiplier) {
    std::vector<int64_t> out{lo};
    if (lo < hi && lo + 1 < hi) {
        int64_t inner_lo = lo + 1, inner_hi = hi - 1;
        if (inner_lo < 0) {
            std::vector<int64_t> negated;
            AddPowers(negated, -std::min<int64_t>(inner_hi, -1), -inner_lo, multiplier);
            for (auto p = negated.rbegin(); p != negated.rend(); ++p) {
                out.push_back(-*p);
            }
        }
        if (lo < 0 && hi >= 0) {
            out.push_back(0);
        }
        if (inner_hi > 0) {
            AddPowers(out, std::max<int64_t>(inner_lo, 1), inner_hi, multiplier);
        }
    }
    if (out.back() != hi) {
        out.push_back(hi);
    }
    return out;
}

// Every tuple of one value from each list, the first list's value changing fastest.
inline Benchmark *Benchmark::ArgsProduct(const std::vector<std::vector<int64_t>> &lists) {
    std::vector<std::size_t> at(lists.size(), 0);
    std::size_t total = lists.empty() ? 0 : 1;
    for (const auto &l : lists) {
        total *= l.size();
    }
    for (std::size_t n = 0; n < total; n++) {
        std::vector<int64_t> tuple;
        for (std::size_t i = 0; i < lists.size(); i++) {
            tuple.push_back(lists[i][at[i]]);
        }
        Args(tuple);
        for (std::size_t i = 0; i < lists.size() && ++at[i] == lists[i].size(); i++) {
            at[i] = 0;
        }
    }
    return this;
}

inline std::string Benchmark::InstanceName(const std::vector<int64_t> &args, int threads) const {
    std::string name = name_;
    for (std::size_t i = 0; i < args.size(); i++) {
        name += "/";
        if (i < arg_names_.size() && !arg_names_[i].empty()) {
            name += arg_names_[i] + ":";
        }
        name += std::to_string(args[i]);
    }
    // Google Benchmark's order: min_time, min_warmup_time, iterations, repeats, clock, threads.
    const char *order[] = {"min_time:", "min_warmup_time:", "iterations:", "repeats:"};
    for (const char *key : order) {
        for (const auto &s : suffixes_) {
            name += s.compare(0, std::strlen(key), key) == 0 ? "/" + s : "";
        }
    }
    name += process_time_ ? "/process_time" : "";
    name += time_type_.empty() ? "" : "/" + time_type_;
    name += threads > 0 ? "/threads:" + std::to_string(threads) : "";
    return name;
}

// The program's benchmarks, in the order they were registered.
inline std::vector<std::unique_ptr<Benchmark>> &Registry() {
    static std::vector<std::unique_ptr<Benchmark>> all;
    return all;
}
inline Benchmark *RegisterBenchmarkInternal(Benchmark *b) {
    Registry().emplace_back(b);
    return b;
}

} // namespace internal

typedef internal::Benchmark Benchmark;

// Registers `fn(state, args...)` as benchmark `name` (a custom main's registration).
template <class Fn, class... Extra>
Benchmark *RegisterBenchmark(const std::string &name, Fn &&fn, Extra &&...extra) {
    auto bound = std::bind(std::forward<Fn>(fn), std::placeholders::_1, std::forward<Extra>(extra)...);
    return internal::RegisterBenchmarkInternal(
        new internal::Benchmark(name, [bound](State &st) mutable { bound(st); }));
}

// A fixture (`BENCHMARK_F`): SetUp and TearDown run around each batch, paused (outside its
// time, as Google Benchmark times a fixture's case alone).
class Fixture : public internal::Benchmark {
public:
    Fixture() : internal::Benchmark("", nullptr) {}
    virtual void SetUp(const State &) {}
    virtual void TearDown(const State &) {}
    virtual void SetUp(State &st) { SetUp(const_cast<const State &>(st)); }
    virtual void TearDown(State &st) { TearDown(const_cast<const State &>(st)); }
    void Run(State &st) override {
        picollo_suite_pause();
        SetUp(st);
        picollo_suite_resume();
        BenchmarkCase(st);
        picollo_suite_pause();
        TearDown(st);
        picollo_suite_resume();
    }

protected:
    virtual void BenchmarkCase(State &) = 0;
};

} // namespace benchmark

#define PICOLLO_BENCHMARK_CONCAT2(a, b) a##b
#define PICOLLO_BENCHMARK_CONCAT(a, b) PICOLLO_BENCHMARK_CONCAT2(a, b)
// A file-scope variable of its own for each registration (the chain `->Arg(8)` initializes it).
#define PICOLLO_BENCHMARK_REGISTER                                                             \
    static ::benchmark::internal::Benchmark *PICOLLO_BENCHMARK_CONCAT(picollo_benchmark_, __COUNTER__)  \
        __attribute__((unused)) = ::benchmark::internal::RegisterBenchmarkInternal

#define BENCHMARK(...)                                                                         \
    PICOLLO_BENCHMARK_REGISTER(new ::benchmark::internal::Benchmark(#__VA_ARGS__, __VA_ARGS__))
#define BENCHMARK_CAPTURE(func, case_name, ...)                                                \
    PICOLLO_BENCHMARK_REGISTER(new ::benchmark::internal::Benchmark(                           \
        #func "/" #case_name, [](::benchmark::State &st) { func(st, __VA_ARGS__); }))
#define BENCHMARK_TEMPLATE1(n, a) BENCHMARK_TEMPLATE(n, a)
#define BENCHMARK_TEMPLATE2(n, a, b)                                                           \
    PICOLLO_BENCHMARK_REGISTER(new ::benchmark::internal::Benchmark(#n "<" #a "," #b ">", n<a, b>))
#define BENCHMARK_TEMPLATE(n, ...)                                                             \
    PICOLLO_BENCHMARK_REGISTER(new ::benchmark::internal::Benchmark(#n "<" #__VA_ARGS__ ">", n<__VA_ARGS__>))

// Google Benchmark's shorthands.
#define BENCHMARK_WITH_ARG(n, a) BENCHMARK(n)->Arg((a))
#define BENCHMARK_WITH_ARG2(n, a1, a2) BENCHMARK(n)->Args({(a1), (a2)})
#define BENCHMARK_RANGE(n, lo, hi) BENCHMARK(n)->Range((lo), (hi))
#define BENCHMARK_RANGE2(n, l1, h1, l2, h2) BENCHMARK(n)->RangePair((l1), (h1), (l2), (h2))
#define BENCHMARK_HAS_CXX11
#define BENCHMARK_UNUSED __attribute__((unused))
#define BENCHMARK_ALWAYS_INLINE __attribute__((always_inline))

// Fixtures: a class `Base_Method_Benchmark` derived from `Base` (or `Base<T...>`) whose
// BenchmarkCase is the block that follows, named `Base/Method` (`Base<T>/Method`);
// BENCHMARK_F registers it, BENCHMARK_DEFINE_F leaves that to BENCHMARK_REGISTER_F. The
// names go through a second macro so that a macro given as `Base` is expanded first.
#define PICOLLO_BENCHMARK_PASTE(Base, Method) Base##_##Method##_Benchmark
#define PICOLLO_BENCHMARK_CLASS(Base, Method) PICOLLO_BENCHMARK_PASTE(Base, Method)
#define PICOLLO_BENCHMARK_FIXTURE(Class, Parent, name)                                        \
    class Class : public Parent {                                                              \
    public:                                                                                    \
        Class() { this->Name(name); }                                                          \
                                                                                               \
    protected:                                                                                 \
        void BenchmarkCase(::benchmark::State &) override;                                     \
    }
#define BENCHMARK_DEFINE_F(Base, Method) PICOLLO_BENCHMARK_DEFINE_F(Base, Method)
#define PICOLLO_BENCHMARK_DEFINE_F(Base, Method)                                               \
    PICOLLO_BENCHMARK_FIXTURE(PICOLLO_BENCHMARK_CLASS(Base, Method), Base, #Base "/" #Method); \
    void PICOLLO_BENCHMARK_CLASS(Base, Method)::BenchmarkCase
#define BENCHMARK_TEMPLATE_DEFINE_F(Base, Method, ...)                                         \
    PICOLLO_BENCHMARK_TEMPLATE_DEFINE_F(Base, Method, __VA_ARGS__)
#define PICOLLO_BENCHMARK_TEMPLATE_DEFINE_F(Base, Method, ...)                                 \
    PICOLLO_BENCHMARK_FIXTURE(PICOLLO_BENCHMARK_CLASS(Base, Method), Base<__VA_ARGS__>,        \
                              #Base "<" #__VA_ARGS__ ">/" #Method);                            \
    void PICOLLO_BENCHMARK_CLASS(Base, Method)::BenchmarkCase
#define BENCHMARK_TEMPLATE1_DEFINE_F(Base, Method, a) BENCHMARK_TEMPLATE_DEFINE_F(Base, Method, a)
#define BENCHMARK_TEMPLATE2_DEFINE_F(Base, Method, a, b)                                       \
    PICOLLO_BENCHMARK_TEMPLATE2_DEFINE_F(Base, Method, a, b)
#define PICOLLO_BENCHMARK_TEMPLATE2_DEFINE_F(Base, Method, a, b)                               \
    PICOLLO_BENCHMARK_FIXTURE(PICOLLO_BENCHMARK_CLASS(Base, Method), Base<a, b>,               \
                              #Base "<" #a "," #b ">/" #Method);                               \
    void PICOLLO_BENCHMARK_CLASS(Base, Method)::BenchmarkCase
#define BENCHMARK_REGISTER_F(Base, Method)                                                     \
    PICOLLO_BENCHMARK_REGISTER(new PICOLLO_BENCHMARK_CLASS(Base, Method)())
#define BENCHMARK_F(Base, Method) PICOLLO_BENCHMARK_F(Base, Method)
#define PICOLLO_BENCHMARK_F(Base, Method)                                                      \
    PICOLLO_BENCHMARK_FIXTURE(PICOLLO_BENCHMARK_CLASS(Base, Method), Base, #Base "/" #Method); \
    BENCHMARK_REGISTER_F(Base, Method);                                                        \
    void PICOLLO_BENCHMARK_CLASS(Base, Method)::BenchmarkCase
#define BENCHMARK_TEMPLATE_F(Base, Method, ...) PICOLLO_BENCHMARK_TEMPLATE_F(Base, Method, __VA_ARGS__)
#define PICOLLO_BENCHMARK_TEMPLATE_F(Base, Method, ...)                                        \
    PICOLLO_BENCHMARK_FIXTURE(PICOLLO_BENCHMARK_CLASS(Base, Method), Base<__VA_ARGS__>,        \
                              #Base "<" #__VA_ARGS__ ">/" #Method);                            \
    BENCHMARK_REGISTER_F(Base, Method);                                                        \
    void PICOLLO_BENCHMARK_CLASS(Base, Method)::BenchmarkCase
#define BENCHMARK_TEMPLATE1_F(Base, Method, a) BENCHMARK_TEMPLATE_F(Base, Method, a)
#define BENCHMARK_TEMPLATE2_F(Base, Method, a, b) PICOLLO_BENCHMARK_TEMPLATE2_F(Base, Method, a, b)
#define PICOLLO_BENCHMARK_TEMPLATE2_F(Base, Method, a, b)                                      \
    PICOLLO_BENCHMARK_FIXTURE(PICOLLO_BENCHMARK_CLASS(Base, Method), Base<a, b>,               \
                              #Base "<" #a "," #b ">/" #Method);                               \
    BENCHMARK_REGISTER_F(Base, Method);                                                        \
    void PICOLLO_BENCHMARK_CLASS(Base, Method)::BenchmarkCase

#include "picollo_benchmark_main.hpp"

#endif // PICOLLO_BENCHMARK_HPP
