//! The enums of the C ABI's Linux-only calls: perf sessions (`picollo_perf_*`,
//! `picollo_cpu_vendor`), scopes (`picollo_time_unit`) and benchmarks (`picollo_bench_*`).
#![cfg(target_os = "linux")]

use crate::choice::c_enum;

/// `PERF_COUNT_HW_*`: a generic hardware event (`picollo_perf_session_add_hardware`).
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum picollo_perf_hardware_event {
    /// Core cycles (`Hardware:CpuCycles`; a fixed counter on Intel).
    CpuCycles = 0,
    /// Retired instructions (a fixed counter on Intel).
    Instructions = 1,
    /// Last-level cache references.
    CacheReferences = 2,
    /// Last-level cache misses.
    CacheMisses = 3,
    /// Retired branch instructions.
    BranchInstructions = 4,
    /// Mispredicted branches.
    BranchMisses = 5,
    /// Bus cycles.
    BusCycles = 6,
    /// Cycles stalled in the front end.
    StalledCyclesFrontend = 7,
    /// Cycles stalled in the back end.
    StalledCyclesBackend = 8,
    /// Reference cycles at the nominal frequency (a fixed counter on Intel).
    RefCpuCycles = 9,
}

/// `PERF_COUNT_HW_CACHE_*`: which cache (`picollo_perf_session_add_cache`).
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum picollo_perf_cache_level {
    /// Level-1 data cache.
    L1d = 0,
    /// Level-1 instruction cache.
    L1i = 1,
    /// Last-level cache.
    Ll = 2,
    /// Data TLB.
    Dtlb = 3,
    /// Instruction TLB.
    Itlb = 4,
    /// Branch prediction unit.
    Bpu = 5,
    /// Local memory (NUMA node).
    Node = 6,
}

/// `PERF_COUNT_HW_CACHE_OP_*`.
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum picollo_perf_cache_op {
    /// Loads.
    Read = 0,
    /// Stores.
    Write = 1,
    /// Prefetches.
    Prefetch = 2,
}

/// `PERF_COUNT_HW_CACHE_RESULT_*`.
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum picollo_perf_cache_result {
    /// All accesses.
    Access = 0,
    /// Misses only.
    Miss = 1,
}

/// `PERF_COUNT_SW_*`: counted by the kernel, available without a hardware PMU.
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum picollo_perf_software_event {
    /// Wall-clock nanoseconds on a CPU timer.
    CpuClock = 0,
    /// Nanoseconds this task ran (`Software:TaskClock`).
    TaskClock = 1,
    /// All page faults.
    PageFaults = 2,
    /// Context switches.
    ContextSwitches = 3,
    /// Migrations to another CPU.
    CpuMigrations = 4,
    /// Minor page faults (no I/O).
    MinorPageFaults = 5,
    /// Major page faults (I/O).
    MajorPageFaults = 6,
    /// Unaligned accesses fixed up by the kernel.
    AlignmentFaults = 7,
    /// Instructions emulated by the kernel.
    EmulationFaults = 8,
}

/// How `picollo_perf_session_read` read the counters.
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum picollo_perf_read_path {
    /// Not read yet.
    None = 0,
    /// One `read(2)` of the whole group.
    Syscall = 1,
    /// `rdpmc` through each counter's mmapped page.
    Rdpmc = 2,
}

c_enum!(picollo_perf_read_path: None = "none", Syscall = "syscall", Rdpmc = "rdpmc");

/// How a session picks its read path (`picollo_perf_config.rdpmc`).
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum picollo_perf_read_policy {
    /// Always `read(2)`; no page is mapped.
    Syscall = 0,
    /// The cheaper path, both timed at open (the default).
    Auto = 1,
    /// The user-space read wherever a counter's page allows it, whatever it costs.
    UserSpace = 2,
}

c_enum!(picollo_perf_read_policy: Syscall = "syscall", Auto = "auto", UserSpace = "user space");

/// Why a session reads the way it does (`picollo_perf_path_choice.reason`).
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum picollo_perf_path_reason {
    /// No counter can be read in user space (software counters, an inherited group, no page).
    NoPage = 0,
    /// The read policy said which.
    Forced = 1,
    /// `AUTO`: this path cost less at open (both costs are given).
    Cheaper = 2,
    /// The process runs under valgrind, which cannot run `rdpmc`: `read(2)`.
    Instrumented = 3,
    /// Opened disabled under `AUTO`: both paths are timed at the first enable.
    Pending = 4,
}

/// Which value `picollo_perf_session_record` puts into each counter's histogram
/// (`picollo_perf_config.record_kind`).
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum picollo_perf_record_kind {
    /// The delta, scaled when multiplexed (`picollo_perf_delta.scaled`). The default.
    Delta = 0,
    /// The delta less the calibrated read overhead, floored at 0 (`corrected`).
    Corrected = 1,
    /// The unscaled delta (`raw`).
    RawDelta = 2,
    /// The current scaled count itself, not a delta.
    Value = 3,
}

c_enum!(picollo_perf_record_kind:
    Delta = "delta", Corrected = "corrected", RawDelta = "raw delta", Value = "value");

/// The CPU's vendor (`picollo_perf_info.vendor`).
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum picollo_cpu_vendor {
    /// GenuineIntel.
    Intel = 0,
    /// AuthenticAMD or HygonGenuine.
    Amd = 1,
    /// Anything else, or not x86-64.
    Other = 2,
}

/// The unit a scope records in (`picollo_scope_begin`).
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum picollo_time_unit {
    /// Raw ticks (TSC on x86-64 Linux, else monotonic nanoseconds).
    Ticks = 0,
    /// Nanoseconds.
    Nanos = 1,
    /// Microseconds.
    Micros = 2,
    /// Milliseconds.
    Millis = 3,
}

c_enum!(picollo_time_unit:
    Ticks = "ticks", Nanos = "nanos", Micros = "micros", Millis = "millis");

/// A text form of a benchmark result (`picollo_bench_result_text`): each value stands for a
/// result format by name (`REPORT` `report`, `SUMMARIES` `summaries`, `JSON` `json`, `LOG`
/// `log`, `LINE` `line`, `HTML` `html`, `BENCHER` `bmf`, `GITHUB_ACTION` `github`,
/// `GOOGLE_BENCHMARK` `gbench`, `DOCUMENT` `picollo`). The values are fixed; formats added
/// later have a name only (`picollo_bench_format_names`, `picollo_bench_result_format`).
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum picollo_bench_format {
    /// The report: conditions and warnings, a Markdown row per metric, tail attribution.
    Report = 0,
    /// Every metric's full Markdown summary.
    Summaries = 1,
    /// A JSON object (values in thousandths of each unit, `"scale": 1000`).
    Json = 2,
    /// An HdrHistogram interval log, one interval per metric tagged with its name.
    Log = 3,
    /// One line: the time's P50, P99 and mean with its 95 % interval, batch, samples.
    Line = 4,
    /// One self-contained HTML page (inline SVG and CSS, nothing fetched): conditions, a
    /// table of every metric, per metric its percentile spectrum and its rounds, the tail
    /// attribution as bars (ABI 1.17).
    Html = 5,
    /// Bencher Metric Format: `{name: {measure: {value, lower_value, upper_value}}}`, each
    /// metric at its median with the 99 % interval of the median; time as `latency` (ABI
    /// 1.19).
    Bencher = 6,
    /// github-action-benchmark's custom JSON, smaller is better: `[{name, unit, value,
    /// range, extra}]` of the median time and each exact metric (ABI 1.19).
    GithubAction = 7,
    /// Google Benchmark's JSON: `context`, and per benchmark a repetition per round with the
    /// aggregates over them (ABI 1.19).
    GoogleBenchmark = 8,
    /// Picollo's JSON document: `{"schema": "picollo-bench", "version": 1, "commands": [...],
    /// "comparisons": [...]}` (docs/schema/picollo-bench.schema.json; ABI 1.19).
    Document = 9,
}

c_enum!(picollo_bench_format:
    Report = "report", Summaries = "summaries", Json = "JSON", Log = "log", Line = "line",
    Html = "HTML", Bencher = "BMF", GithubAction = "github-action-benchmark",
    GoogleBenchmark = "Google Benchmark JSON", Document = "document");

/// The overall answer of `picollo_bench_compare` about time per operation (99 % confidence);
/// of `picollo_bench_compare_metric` about its metric, `FASTER` and `SLOWER` then meaning
/// fewer and more of it.
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum picollo_bench_verdict {
    /// The interval of the change holds 0.
    NoDifference = 0,
    /// B takes less time than A, by at least the threshold.
    Faster = 1,
    /// B takes more time than A, by at least the threshold.
    Slower = 2,
    /// B differs from A by less than the threshold (ABI 1.13).
    WithinNoise = 3,
    /// Too few rounds for a 99 % verdict: 8 interleaved, 5 a side measured apart (ABI 1.13).
    NotEnoughRounds = 4,
    /// Measured apart (not interleaved) without at least 2 runs apart to give the spread
    /// between runs: no verdict at 99 % (`picollo_bench_judge_apart`; ABI 1.15).
    NotEnoughRunsApart = 5,
    /// Measured apart, on runs apart that spread so far that the noise floor reaches 100 %
    /// (a machine that steps between speeds): neither a difference nor none is claimed;
    /// the change and its interval are still given (ABI 1.26).
    NotJudged = 6,
    /// A comparison that stopped at its budget before its interval answered the gate's
    /// question (slower by the threshold, or surely not): the change and its interval are
    /// given, the half-width the smallest change it could have found (ABI 1.27).
    NotSettled = 7,
}
