//! [`Profiler`]: criterion's hook for a profiler around `--profile-time` runs, kept so that
//! benches that install one (`Criterion::with_profiler`) build. Picollo's runner has no
//! profiling mode (`--profile-time` is refused with the replacement: run the bench under
//! the profiler with `--bench --budget SECS FILTER`), so a profiler is never started.

use std::path::Path;

/// A profiler criterion would start and stop around each benchmark of a profiling run:
/// accepted by `Criterion::with_profiler`, never called here.
pub trait Profiler {
    /// Benchmark `benchmark_id`'s profiling starts; its files go under `benchmark_dir`.
    fn start_profiling(&mut self, benchmark_id: &str, benchmark_dir: &Path);
    /// Benchmark `benchmark_id`'s profiling ends.
    fn stop_profiling(&mut self, benchmark_id: &str, benchmark_dir: &Path);
}
