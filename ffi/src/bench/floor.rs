//! `picollo_bench_floor`: a metric's figures near 0 that the measurement cannot vouch for
//! (`picollo_bench_result_metric_floor`): the samples the subtraction floored at 0, the
//! resolution, and the flag the report, the JSON and the comparisons show.
#![cfg(target_os = "linux")]

use picollo_bench::{MetricResult, SCALE};

use crate::args::{out, sized_out};
use crate::bench::args::picollo_bench_result;
use crate::boundary::boundary;
use crate::handle::try_ref;
use crate::status::picollo_status;

/// A metric's figures near 0 (`picollo_bench_result_metric_floor`); set `struct_size` to
/// `sizeof(picollo_bench_floor)` before the call. ABI 1.19.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct picollo_bench_floor {
    /// `sizeof(picollo_bench_floor)`, set by the caller.
    pub struct_size: u32,
    /// 1 when some sample was floored or the median is below the resolution: the figures
    /// near 0 are not the work's (the report marks the metric's row); else 0.
    pub flagged: u32,
    /// The samples whose figure was floored at 0: what was subtracted (the read pair's
    /// median, the baseline's) exceeded what the batch measured.
    pub floored: u64,
    /// The samples recorded.
    pub samples: u64,
    /// The smallest figure per operation the measurement tells from nothing, in the metric's
    /// unit: the quartile deviation of what an empty measurement gives per operation (at
    /// least 0.001 ns for time); 0 where what was subtracted had no spread, or for an exact
    /// metric.
    pub resolution: f64,
    /// 1 when the resolution is above 0 and the median no larger than it; else 0.
    pub below_resolution: u32,
}

// SAFETY: `#[repr(C)]`, `struct_size: u32` first, then integers and floats only.
crate::args::struct_sized!(picollo_bench_floor);

/// Metric `m`'s floor in the C struct (with the caller's `struct_size`).
fn floor_info(m: &MetricResult, struct_size: u32) -> picollo_bench_floor {
    picollo_bench_floor {
        struct_size,
        flagged: u32::from(m.flagged()),
        floored: m.floored,
        samples: m.histogram.view().total_count(),
        resolution: m.resolution as f64 / SCALE as f64,
        below_resolution: u32::from(m.below_resolution()),
    }
}

/// Writes to `*out` how near 0 the figures of metric `index` came (docs/benchmarks.md, "No
/// silent zero"). Errors: NULL `r` or `out`; `OUT_OF_RANGE`; `STRUCT_SIZE` when
/// `out->struct_size` is smaller than this library's struct. Safety: `out->struct_size` is
/// set by the caller. ABI 1.19.
#[no_mangle]
pub unsafe extern "C" fn picollo_bench_result_metric_floor(
    r: *const picollo_bench_result,
    index: usize,
    out: *mut picollo_bench_floor,
) -> picollo_status {
    boundary!({
        let r = try_ref!(r)?;
        let (out, struct_size) = sized_out!(out)?;
        let m = &r.result.metrics[r.metric(index)?];
        out!(out, floor_info(m, struct_size))
    })
}
