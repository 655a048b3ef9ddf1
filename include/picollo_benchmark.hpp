// picollo_benchmark.hpp: Google Benchmark's registration and State API (`BENCHMARK(f)->Arg(8)`,
// `for (auto _ : state)`, `BENCHMARK_MAIN()`) over Picollo's suite runner, so that a Google
// Benchmark program builds against Picollo by changing its include and its link line
// (`-lbenchmark` → `-lpicollo`); docs/bring-your-suite.md says what is mapped, what is
// accepted and ignored, and what is refused. C++14, GCC or Clang, header-only beside the
// generated picollo.h. The flags and the runner are picollo_benchmark_main.hpp's.
#ifndef PICOLLO_BENCHMARK_HPP
#define PICOLLO_BENCHMARK_HPP

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "picollo.h"

namespace benchmark {

typedef int64_t IterationCount;

// Accepted for the registration calls that take them; Picollo prints its own units and
// computes no complexity.
enum TimeUnit { kNanosecond, kMicrosecond, kMillisecond, kSecond };
enum BigO { oNone, o1, oN, oNSquared, oNCubed, oLogN, oNLogN, oAuto, oLambda };
typedef double(BigOFunc)(IterationCount);
typedef double(StatisticsFunc)(const std::vector<double> &);

// A user counter (`state.counters["x"] = n`): kept in the State, reported nowhere.
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
    class Iterator {
    public:
        Iterator() : left_(0), state_(nullptr) {}
        explicit Iterator(State *s) : left_(s->StartBatch()), state_(s) {}
        Value operator*() const { return Value(); }
        Iterator &operator++() {
            --left_;
            return *this;
        }
        bool operator!=(const Iterator &) {
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

    Iterator begin() { return Iterator(this); }
    Iterator end() { return Iterator(); }
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

    // Picollo times the whole batch: the time between these two counts (docs).
    void PauseTiming() {}
    void ResumeTiming() {}

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
    void SetComplexityN(int64_t n) { complexity_n_ = n; }
    int64_t complexity_length_n() const { return complexity_n_; }
    void SetLabel(const std::string &label) { label_ = label; }
    void SetIterationTime(double) {}

    // Argument `pos` of this instance (`->Arg(8)`: range(0) is 8); one it lacks fails it.
    int64_t range(std::size_t pos = 0) {
        if (pos < args_.size()) {
            return args_[pos];
        }
        SkipWithError("state.range(" + std::to_string(pos) + "): " + name_ + " has " +
                      std::to_string(args_.size()) + " argument(s)");
        return 0;
    }
    int64_t range_x() { return range(0); }
    int64_t range_y() { return range(1); }
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
    void Skip(const char *prefix, const std::string &message) {
        if (!skipped_) {
            skipped_ = true;
            failure_ = prefix + message;
        }
    }

    const std::vector<int64_t> &args_;
    const std::string &name_;
    IterationCount done_ = 0;
    bool started_ = false, finished_ = false, skipped_ = false;
    int64_t items_ = 0, bytes_ = 0, complexity_n_ = 0;
    std::string failure_, label_;
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
            if (r.first < 0) {
                return Refuse(call + "a negative start: give the values with Args or DenseRange");
            }
            lists.push_back(Powers(r.first, r.second));
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
    Benchmark *Iterations(IterationCount n) { return Suffix("iterations:" + std::to_string(n)); }
    Benchmark *Repetitions(int n) { return Suffix("repeats:" + std::to_string(n)); }
    Benchmark *MinTime(double seconds) { return Suffix("min_time:" + Fixed(seconds)); }
    Benchmark *MinWarmUpTime(double seconds) { return Suffix("min_warmup_time:" + Fixed(seconds)); }
    Benchmark *ReportAggregatesOnly(bool = true) { return this; }
    Benchmark *DisplayAggregatesOnly(bool = true) { return this; }
    Benchmark *Complexity(BigO = oAuto) { return this; }
    Benchmark *Complexity(BigOFunc *) { return this; }
    Benchmark *ComputeStatistics(const std::string &, StatisticsFunc *, ...) { return this; }
    // Picollo measures the wall clock: the name says which clock Google Benchmark would read.
    Benchmark *UseRealTime() { return Set(time_type_, std::string("real_time")); }
    Benchmark *MeasureProcessCPUTime() { return Set(process_time_, true); }
    // Refused when the program starts (exit status 2): Picollo times each batch itself.
    Benchmark *UseManualTime() {
        return Refuse("UseManualTime: Picollo times each batch itself and takes no SetIterationTime");
    }
    // One thread: Threads(1) names the benchmark as Google Benchmark does; more are refused.
    Benchmark *Threads(int n) {
        if (n != 1) {
            return Refuse("Threads(" + std::to_string(n) + "): Picollo runs a benchmark on one thread");
        }
        return Suffix("threads:1");
    }
    Benchmark *ThreadRange(int lo, int hi) { return lo == 1 && hi == 1 ? Threads(1) : Threads(hi); }
    Benchmark *DenseThreadRange(int lo, int hi, int = 1) { return ThreadRange(lo, hi); }
    Benchmark *ThreadPerCpu() { return Refuse("ThreadPerCpu: Picollo runs a benchmark on one thread"); }

    // What the registration calls refused ("" where none was).
    const std::string &Refused() const { return refused_; }
    const std::string &BaseName() const { return name_; }
    const std::vector<std::vector<int64_t>> &ArgLists() const { return args_; }
    // The instance's name as Google Benchmark writes it: `BM_x/8/64/real_time`.
    std::string InstanceName(const std::vector<int64_t> &args) const;
    virtual void Run(State &state) { fn_(state); }

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
    std::vector<int64_t> Powers(int64_t lo, int64_t hi) const;

    std::string name_;
    std::function<void(State &)> fn_;
    std::vector<std::vector<int64_t>> args_;
    std::vector<std::string> arg_names_, suffixes_;
    std::string time_type_, refused_;
    bool process_time_ = false;
    int multiplier_ = 8;
};

// `lo`, every power of the multiplier strictly between `lo` and `hi`, then `hi`.
inline std::vector<int64_t> Benchmark::Powers(int64_t lo, int64_t hi) const {
    std::vector<int64_t> out{lo};
    for (int64_t p = 1; p < hi; p *= multiplier_) {
        if (p > lo) {
            out.push_back(p);
        }
        if (p > INT64_MAX / multiplier_) {
            break;
        }
    }
    if (hi != lo) {
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

inline std::string Benchmark::InstanceName(const std::vector<int64_t> &args) const {
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
    for (const auto &s : suffixes_) {
        name += s.compare(0, 8, "threads:") == 0 ? "/" + s : "";
    }
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

// A fixture (`BENCHMARK_F`): SetUp and TearDown run around each batch, inside its time.
class Fixture : public internal::Benchmark {
public:
    Fixture() : internal::Benchmark("", nullptr) {}
    virtual void SetUp(const State &) {}
    virtual void TearDown(const State &) {}
    virtual void SetUp(State &st) { SetUp(const_cast<const State &>(st)); }
    virtual void TearDown(State &st) { TearDown(const_cast<const State &>(st)); }
    void Run(State &st) override {
        SetUp(st);
        BenchmarkCase(st);
        TearDown(st);
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

#define BENCHMARK(...) PICOLLO_BENCHMARK_REGISTER(new ::benchmark::internal::Benchmark(#__VA_ARGS__, __VA_ARGS__))
#define BENCHMARK_CAPTURE(func, case_name, ...)                                                \
    PICOLLO_BENCHMARK_REGISTER(new ::benchmark::internal::Benchmark(                           \
        #func "/" #case_name, [](::benchmark::State &st) { func(st, __VA_ARGS__); }))
#define BENCHMARK_TEMPLATE1(n, a) BENCHMARK_TEMPLATE(n, a)
#define BENCHMARK_TEMPLATE2(n, a, b)                                                           \
    PICOLLO_BENCHMARK_REGISTER(new ::benchmark::internal::Benchmark(#n "<" #a "," #b ">", n<a, b>))
#define BENCHMARK_TEMPLATE(n, ...)                                                             \
    PICOLLO_BENCHMARK_REGISTER(new ::benchmark::internal::Benchmark(#n "<" #__VA_ARGS__ ">", n<__VA_ARGS__>))

// Fixtures: a class `Base_Method` derived from `Base` whose BenchmarkCase is the block that
// follows; BENCHMARK_F registers it as `Base/Method`, BENCHMARK_DEFINE_F leaves that to
// BENCHMARK_REGISTER_F.
#define PICOLLO_BENCHMARK_FIXTURE(Base, Method)                                                \
    class Base##_##Method##_Benchmark : public Base {                                           \
    public:                                                                                    \
        Base##_##Method##_Benchmark() { this->Name(#Base "/" #Method); }                       \
                                                                                               \
    protected:                                                                                 \
        void BenchmarkCase(::benchmark::State &) override;                                     \
    }
#define BENCHMARK_DEFINE_F(Base, Method)                                                       \
    PICOLLO_BENCHMARK_FIXTURE(Base, Method);                                                   \
    void Base##_##Method##_Benchmark::BenchmarkCase
#define BENCHMARK_REGISTER_F(Base, Method) PICOLLO_BENCHMARK_REGISTER(new Base##_##Method##_Benchmark())
#define BENCHMARK_F(Base, Method)                                                              \
    PICOLLO_BENCHMARK_FIXTURE(Base, Method);                                                   \
    BENCHMARK_REGISTER_F(Base, Method);                                                        \
    void Base##_##Method##_Benchmark::BenchmarkCase

#include "picollo_benchmark_main.hpp"

#endif // PICOLLO_BENCHMARK_HPP
