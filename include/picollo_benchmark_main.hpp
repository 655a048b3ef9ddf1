// picollo_benchmark_main.hpp: the running half of picollo_benchmark.hpp (which includes it):
// Google Benchmark's `--benchmark_*` flags read into the runner's, the registered benchmarks
// expanded into a Picollo suite (one benchmark per argument tuple, named as Google Benchmark
// names it), and `BENCHMARK_MAIN()` / `benchmark::Initialize` / `RunSpecifiedBenchmarks`.
#ifndef PICOLLO_BENCHMARK_MAIN_HPP
#define PICOLLO_BENCHMARK_MAIN_HPP

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <regex>
#include <stdexcept>

#include <unistd.h>

namespace benchmark {
namespace internal {

// What the last batch of an instance run here left for the report: its counters, label and
// N, and its iterations (k 0: no batch ran here).
struct Kept {
    UserCounters counters;
    std::string label;
    int64_t complexity_n = 0;
    IterationCount k = 0;
};

// One benchmark of the suite: a registration and one of its argument tuples.
struct Instance {
    Benchmark *family;
    std::vector<int64_t> args;
    std::string name;
    Kept kept;
};
inline std::vector<Instance> &Instances();

} // namespace internal
} // namespace benchmark

#include "picollo_benchmark_report.hpp"

namespace benchmark {
namespace internal {

// What the command line said: the runner's flags, and what this header does around the run.
struct Flags {
    std::vector<std::string> argv; // the program, the runner's flags, the rest as given
    std::string filter;            // --benchmark_filter's regex ("" for all)
    std::string out_file;          // --benchmark_out's file ("" for none)
    bool json_stdout = false;      // --benchmark_format=json: the JSON alone on stdout
    bool initialized = false;
};
inline Flags &Parsed() {
    static Flags flags;
    return flags;
}

[[noreturn]] inline void Usage(const std::string &message) {
    std::fprintf(stderr, "error: %s\n", message.c_str());
    std::exit(2);
}

// `--benchmark_NAME=VALUE` (or `--benchmark_NAME` for a boolean): true for a Google Benchmark
// flag, with `name` and `value` set.
inline bool SplitFlag(const std::string &arg, std::string &name, std::string &value, bool &has_value) {
    if (arg.compare(0, 12, "--benchmark_") != 0) {
        return false;
    }
    std::size_t eq = arg.find('=');
    name = arg.substr(2, eq == std::string::npos ? std::string::npos : eq - 2);
    has_value = eq != std::string::npos;
    value = has_value ? arg.substr(eq + 1) : "";
    return true;
}

inline bool IsTrue(const std::string &name, const std::string &value, bool has_value) {
    if (!has_value || value == "true" || value == "1" || value == "yes") {
        return true;
    }
    if (value == "false" || value == "0" || value == "no") {
        return false;
    }
    Usage("--" + name + "=" + value + ": not true or false");
}

// The flags accepted and ignored: the runner chooses batches, time, rounds and units itself,
// and interleaves its rounds anyway.
inline bool Ignored(const std::string &name) {
    static const char *const names[] = {"benchmark_min_time",
                                        "benchmark_min_warmup_time",
                                        "benchmark_repetitions",
                                        "benchmark_enable_random_interleaving",
                                        "benchmark_report_aggregates_only",
                                        "benchmark_display_aggregates_only",
                                        "benchmark_time_unit",
                                        "benchmark_color",
                                        "benchmark_counters_tabular"};
    for (const char *n : names) {
        if (name == n) {
            return true;
        }
    }
    return false;
}

// --benchmark_filter's regex as the runner's --regex reads it ("" for every benchmark).
inline std::string Filter(const std::string &value) {
    if (value[0] == '-') {
        Usage("--benchmark_filter=" + value + ": a negative filter is not supported; Picollo's filter is "
              "--benchmark_filter=REGEX (or --regex RE)");
    }
    return value == "all" ? "" : value;
}

// Reads one Google Benchmark flag into `f` (the runner's flags go to `out`); exits 2 on a
// flag Picollo does not take.
inline void Translate(const std::string &name, const std::string &value, bool has_value, Flags &f,
                      std::vector<std::string> &out) {
    auto need = [&](const char *what) {
        if (!has_value || value.empty()) {
            Usage("--" + name + " needs a value: --" + name + "=" + what);
        }
    };
    if (name == "benchmark_filter") {
        need("REGEX");
        f.filter = Filter(value);
    } else if (name == "benchmark_format") {
        need("json|console");
        if (value != "json" && value != "console") {
            Usage("--benchmark_format=" + value + ": Picollo writes console or json");
        }
        f.json_stdout = value == "json";
    } else if (name == "benchmark_out") {
        need("FILE");
        f.out_file = value;
    } else if (name == "benchmark_out_format") {
        need("json");
        if (value != "json") {
            Usage("--benchmark_out_format=" + value + ": Picollo writes --benchmark_out as json only");
        }
    } else if (name == "benchmark_list_tests" || name == "benchmark_dry_run") {
        if (IsTrue(name, value, has_value)) {
            out.push_back(name == "benchmark_list_tests" ? "--list" : "--test");
        }
    } else if (!Ignored(name)) {
        Usage("unknown flag --" + name + ": Picollo takes --benchmark_filter, --benchmark_format, "
              "--benchmark_out, --benchmark_out_format, --benchmark_list_tests, --benchmark_dry_run, "
              "and ignores --benchmark_min_time and --benchmark_repetitions; the runner's own flags "
              "(--help) do the rest" +
              std::string(name == "benchmark_perf_counters" ? " (its counters: --counters LIST)" : ""));
    }
}

// Reads the command line: the Google Benchmark flags are taken out of `argv` (as Google
// Benchmark's Initialize does) and kept, translated, for the run; the rest stays.
inline void Parse(int *argc, char **argv) {
    Flags &f = Parsed();
    f.argv.assign(1, *argc > 0 ? argv[0] : "benchmark");
    std::vector<std::string> rest;
    int kept = 1;
    for (int i = 1; i < *argc; i++) {
        std::string name, value;
        bool has_value = false;
        if (SplitFlag(argv[i], name, value, has_value)) {
            Translate(name, value, has_value, f, f.argv);
        } else {
            rest.push_back(argv[i]);
            argv[kept++] = argv[i];
        }
    }
    if (!f.filter.empty()) {
        f.argv.push_back("--regex");
        f.argv.push_back(f.filter);
    }
    f.argv.insert(f.argv.end(), rest.begin(), rest.end());
    *argc = kept;
    f.initialized = true;
}

inline bool Has(const std::vector<std::string> &argv, const char *flag) {
    for (const auto &a : argv) {
        if (a == flag) {
            return true;
        }
    }
    return false;
}

// Adds the instance of `b` of `args` on `threads` threads to `all`, unless Picollo cannot run
// it: then a note on the standard error says why it is left out.
inline void Add(std::vector<Instance> &all, Benchmark *b, const std::vector<int64_t> &args, int threads) {
    std::string name = b->InstanceName(args, threads), why = b->LeftOut(threads);
    for (const Instance &in : all) {
        if (why.empty() && in.name == name) {
            why = "a benchmark of this name comes before it (Picollo names each benchmark once)";
        }
    }
    if (why.empty()) {
        all.push_back(Instance{b, args, name, Kept()});
    } else {
        std::fprintf(stderr, "note: %s is left out: %s\n", name.c_str(), why.c_str());
    }
}

// Every registration expanded into its instances; a refused registration ends the program
// here (exit status 2), naming the benchmark and the call.
inline std::vector<Instance> &Instances() {
    static std::vector<Instance> all;
    static bool built = false;
    if (built) {
        return all;
    }
    built = true;
    for (const auto &b : Registry()) {
        if (!b->Refused().empty()) {
            Usage(b->Refused());
        }
        std::vector<std::vector<int64_t>> lists = b->ArgLists();
        if (lists.empty()) {
            lists.emplace_back();
        }
        std::vector<int> threads = b->ThreadCounts();
        if (threads.empty()) {
            threads.push_back(0);
        }
        for (const auto &args : lists) {
            for (int n : threads) {
                Add(all, b.get(), args, n);
            }
        }
    }
    return all;
}

// What a batch did: the failure it reports ("" for none), the work it declared, and what
// it left for the report.
struct Outcome {
    std::string failure;
    int64_t items = 0, bytes = 0;
    IterationCount iterations = 0;
    Kept kept;
};

// Runs `in`'s function on a batch of `k` iterations.
inline Outcome RunBatch(Instance &in, IterationCount k) noexcept {
    Outcome out;
    try {
        State state(k, in.args, in.name);
        in.family->RunWithCallbacks(state);
        out.failure = state.Failure();
        out.items = state.items_processed();
        out.bytes = state.bytes_processed();
        out.iterations = state.iterations();
        // Moved, not copied: this runs inside the batch's time.
        out.kept.counters.swap(state.counters);
        out.kept.label = state.Label();
        out.kept.complexity_n = state.complexity_length_n();
        out.kept.k = k;
    } catch (const std::exception &e) {
        out.failure = e.what();
    } catch (...) {
        out.failure = "threw an exception that is not a std::exception";
    }
    return out;
}

// The runner's work: a batch of `iterations`; a failure goes to the runner's failure path.
inline void Work(void *ctx, uint64_t iterations) noexcept {
    Instance &in = *static_cast<Instance *>(ctx);
    Outcome out = RunBatch(in, IterationCount(iterations));
    if (!out.failure.empty()) {
        picollo_suite_fail(out.failure.c_str());
    } else {
        std::swap(in.kept, out.kept);
    }
}

// Whether the runner will measure (a throughput is then worth learning): not a list, a
// test run, the help or a worker of another suite's comparison.
inline bool Measures(const std::vector<std::string> &argv) {
    for (const char *flag : {"--list", "--test", "--help", "-h", "--picollo-worker"}) {
        if (Has(argv, flag)) {
            return false;
        }
    }
    return true;
}

// The throughput of each benchmark that --benchmark_filter selects and that declares one
// (SetBytesProcessed, else SetItemsProcessed): its work in one batch of one iteration (of
// its Iterations(n) where it fixes them), run here once before the runner starts, as the
// rate per iteration.
inline void LearnThroughputs(picollo_suite *suite, std::vector<Instance> &all) {
    std::unique_ptr<std::regex> filter;
    try {
        if (!Parsed().filter.empty()) {
            filter.reset(new std::regex(Parsed().filter));
        }
    } catch (const std::regex_error &) {
        // A regex only the runner reads: every benchmark is asked.
    }
    for (Instance &in : all) {
        if (filter && !std::regex_search(in.name, *filter)) {
            continue;
        }
        IterationCount fixed = in.family->FixedIterations();
        Outcome out = RunBatch(in, fixed > 0 ? fixed : 1);
        int64_t n = out.bytes > 0 ? out.bytes : out.items;
        IterationCount k = out.iterations > 0 ? out.iterations : 1;
        if (!out.failure.empty() || n <= 0 || n / k == 0) {
            continue;
        }
        picollo_suite_set_throughput(suite, in.name.c_str(), nullptr, out.bytes > 0 ? "bytes" : "elements",
                                     uint64_t((n + k / 2) / k));
    }
}

// The whole of the file open as `fd`, from its start.
inline std::string ReadAll(int fd) {
    std::string text;
    char buf[4096];
    lseek(fd, 0, SEEK_SET);
    for (ssize_t n; (n = read(fd, buf, sizeof buf)) > 0;) {
        text.append(buf, std::size_t(n));
    }
    return text;
}

// After a measurement whose Google Benchmark JSON is `json` ("" where the runner wrote none):
// prints the counters, labels and fits of the instances, writes `json` with them to
// --benchmark_out's file and returns it; `status` is the exit status, 3 where that file
// cannot be written.
inline std::string Report(const std::string &json, int &status) {
    if (json.empty()) {
        return json;
    }
    std::vector<Record> records = Records(json);
    std::map<std::string, Measured> measured = MeasuredIn(records, Instances());
    PrintReport(measured);
    std::string full = WithReport(json, records, measured);
    const std::string &file = Parsed().out_file;
    if (!file.empty()) {
        std::FILE *out = std::fopen(file.c_str(), "w");
        bool ok = out != nullptr && std::fwrite(full.data(), 1, full.size(), out) == full.size();
        ok = out != nullptr && std::fclose(out) == 0 && ok;
        if (!ok) {
            std::fprintf(stderr, "error: --benchmark_out=%s: %s\n", file.c_str(), std::strerror(errno));
            status = status == 0 ? 3 : status;
        }
    }
    return full;
}

// Runs the suite's main with `argv`. A measurement exports Google Benchmark's JSON to a
// temporary file, which Report completes; with --benchmark_format=json, the runner's lines
// and the report's go to the standard error and the JSON alone to the standard output.
inline int SuiteMain(picollo_suite *suite, std::vector<std::string> argv) {
    char path[] = "/tmp/picollo-gbench-XXXXXX";
    int fd = -1, saved = -1;
    bool measures = Measures(argv);
    if (measures && (fd = mkstemp(path)) < 0) {
        Usage("no temporary file in /tmp for Google Benchmark's JSON");
    }
    if (measures || !Parsed().out_file.empty()) {
        argv.push_back("--export");
        argv.push_back("gbench=" + (measures ? std::string(path) : Parsed().out_file));
    }
    std::fflush(stdout); // what the program printed goes first
    if (measures && Parsed().json_stdout) {
        saved = dup(1);
        dup2(2, 1);
    }
    std::vector<const char *> raw;
    for (const auto &a : argv) {
        raw.push_back(a.c_str());
    }
    int status = picollo_suite_main(suite, int(raw.size()), raw.data());
    std::string json = measures ? Report(ReadAll(fd), status) : "";
    std::fflush(stdout);
    if (fd >= 0) {
        close(fd);
        unlink(path);
    }
    if (saved >= 0) {
        dup2(saved, 1);
        close(saved);
        std::fwrite(json.data(), 1, json.size(), stdout);
        std::fflush(stdout);
    }
    return status;
}

// Adds `in` to `suite`: its work, its batch where Iterations fixed one, its manual time.
inline picollo_status AddTo(picollo_suite *suite, Instance &in) {
    picollo_status st = picollo_suite_add(suite, in.name.c_str(), &Work, &in);
    IterationCount fixed = in.family->FixedIterations();
    if (st == PICOLLO_STATUS_OK && fixed > 0) {
        st = picollo_suite_set_batch(suite, in.name.c_str(), nullptr, uint64_t(fixed));
    }
    if (st == PICOLLO_STATUS_OK && in.family->ManualTime()) {
        st = picollo_suite_set_manual_time(suite, in.name.c_str(), nullptr);
    }
    return st;
}

// Builds the suite of every registered benchmark (named after the program, its outputs under
// `.picollo/PROGRAM/`) and runs it as the command line said; the exit status.
inline int RunAll() {
    Flags &f = Parsed();
    std::vector<Instance> &all = Instances();
    const std::string &program = f.argv[0];
    std::size_t slash = program.rfind('/');
    std::string name = slash == std::string::npos ? program : program.substr(slash + 1);
    picollo_bench_config config = picollo_bench_config_default();
    picollo_suite *suite = nullptr;
    picollo_status st = picollo_suite_new(name.c_str(), &suite);
    if (st == PICOLLO_STATUS_OK) {
        st = picollo_suite_set_config(suite, &config);
    }
    for (std::size_t i = 0; i < all.size() && st == PICOLLO_STATUS_OK; i++) {
        st = AddTo(suite, all[i]);
    }
    if (st != PICOLLO_STATUS_OK) {
        std::fprintf(stderr, "error: %s\n", picollo_last_error_message());
        picollo_suite_free(suite);
        return 2;
    }
    if (Measures(f.argv)) {
        LearnThroughputs(suite, all);
    }
    int status = SuiteMain(suite, f.argv);
    picollo_suite_free(suite);
    return status;
}

inline int Main(int argc, char **argv) {
    Parse(&argc, argv);
    return RunAll();
}

} // namespace internal

// Reads and removes the `--benchmark_*` flags from `argv`; an unknown one, or a value Picollo
// does not take, exits with status 2.
inline void Initialize(int *argc, char **argv, void (*)() = nullptr) { internal::Parse(argc, argv); }
// The rest of the command line is the runner's, which checks it: nothing to report here.
inline bool ReportUnrecognizedArguments(int, char **) { return false; }
// Runs the benchmarks as the command line said; returns their number when the runner's exit
// status is 0, and otherwise exits with that status (a custom main would lose it).
inline std::size_t RunSpecifiedBenchmarks() {
    if (!internal::Parsed().initialized) {
        char program[] = "benchmark";
        char *argv[] = {program, nullptr};
        int argc = 1;
        internal::Parse(&argc, argv);
    }
    int status = internal::RunAll();
    if (status != 0) {
        std::fflush(stdout);
        std::exit(status);
    }
    return internal::Instances().size();
}
inline void Shutdown() {}
// Accepted and ignored: Picollo's reports carry their own context and units.
inline void AddCustomContext(const std::string &, const std::string &) {}
inline void SetDefaultTimeUnit(TimeUnit) {}

} // namespace benchmark

// The program's `main`: every registered benchmark, run as the command line says. The trailing
// declaration takes the `;` that usually follows.
#define BENCHMARK_MAIN()                                                                       \
    int main(int argc, char **argv) { return ::benchmark::internal::Main(argc, argv); }        \
    int main(int, char **)

#endif // PICOLLO_BENCHMARK_MAIN_HPP
