//! Iteration by value steps: fixed-width (linear) and geometric (logarithmic), as
//! HdrHistogram's linear and logarithmic iterations, in batches like
//! `picollo_histogram_next_buckets`.

use std::num::NonZeroU64;

use picollo_core::iter::StepCount;
use picollo_core::view::Counts;
use picollo_core::{Counter, View};

use crate::boundary::boundary;
use crate::error::Failure;
use crate::handle::caller_owned;
use crate::histogram::picollo_histogram;
use crate::histogram::query::{next_batch, query_error, BatchWords};
use crate::status::picollo_status;

/// One step of values and the counts of the buckets whose midpoint lies in it.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct picollo_step {
    /// First value of the step.
    pub lower: u64,
    /// Last value of the step (inclusive: the next step starts at `highest + 1`).
    pub highest: u64,
    /// Counts of the buckets whose midpoint lies in `[lower, highest]`.
    pub count: u64,
    /// Counts up to the end of this step.
    pub cumulative_count: u64,
    /// `cumulative_count` over the count in range, in percent.
    pub percentile: f64,
}

caller_owned!(picollo_step);

impl From<StepCount> for picollo_step {
    fn from(s: StepCount) -> Self {
        picollo_step {
            lower: s.lower,
            // `upper` is exclusive and at most 2^64; a step is never empty.
            highest: (s.upper - 1).min(u64::MAX as u128) as u64,
            count: s.count,
            cumulative_count: s.cumulative_count,
            percentile: s.percentile,
        }
    }
}

/// Which steps.
#[derive(Clone, Copy)]
enum Spacing {
    Linear(NonZeroU64),
    Logarithmic(NonZeroU64, f64),
}

/// Fill `out` with the steps of `v` after the first `skip`; how many were written.
fn fill_steps<C: Counter, S: Counts<C> + ?Sized>(
    v: &View<'_, C, S>,
    spacing: Spacing,
    skip: u64,
    out: &mut [picollo_step],
) -> Result<usize, Failure> {
    let steps = match spacing {
        Spacing::Linear(width) => v.linear_steps(width),
        Spacing::Logarithmic(first, base) => {
            v.logarithmic_steps(first, base).map_err(query_error)?
        }
    };
    let mut n = 0;
    let steps = steps.skip(usize::try_from(skip).unwrap_or(usize::MAX));
    for (slot, step) in out.iter_mut().zip(steps) {
        *slot = step.into();
        n += 1;
    }
    Ok(n)
}

/// The body of both step functions: `spacing` or why the arguments give none.
///
/// # Safety
/// As `picollo_histogram_linear_steps`.
unsafe fn steps(
    h: *const picollo_histogram,
    spacing: Result<Spacing, &str>,
    cursor: *mut u64,
    out: *mut picollo_step,
    cap: usize,
    written: *mut usize,
) -> picollo_status {
    let spacing = match spacing {
        Ok(spacing) => spacing,
        Err(why) => return boundary!({ Err(Failure::invalid(why)) }),
    };
    let words = BatchWords {
        zero_cap: "cap is 0: the batch must hold at least one step",
        end: "no more steps",
        written_required: false,
    };
    // SAFETY: forwarded contract.
    unsafe {
        next_batch(h, cursor, (out, cap), written, words, |h, skip, out| {
            let n = h.with_view(|view| {
                let v = view.as_view();
                fill_steps(&v, spacing, skip, out)
            })??;
            Ok((n, skip + n as u64))
        })
    }
}

/// Writes up to `cap` next steps of `width` values (HdrHistogram's linear iteration, empty steps
/// included) to `out`, in batches as `picollo_histogram_next_buckets`. Errors: NULL `h`, `cursor`
/// or `out`; `INVALID_ARGUMENT` for `width` or `cap` 0; `OUT_OF_RANGE` after the last step.
#[no_mangle]
pub unsafe extern "C" fn picollo_histogram_linear_steps(
    h: *const picollo_histogram,
    width: u64,
    cursor: *mut u64,
    out: *mut picollo_step,
    cap: usize,
    written: *mut usize,
) -> picollo_status {
    let spacing = NonZeroU64::new(width).map(Spacing::Linear);
    let spacing = spacing.ok_or("width is 0: a step holds at least one value");
    // SAFETY: forwarded contract.
    unsafe { steps(h, spacing, cursor, out, cap, written) }
}

/// Writes up to `cap` next steps `[0, first)`, `[first, first·base)`, … (HdrHistogram's
/// logarithmic iteration) to `out`, as `picollo_histogram_linear_steps`. Errors: as that, and
/// `INVALID_ARGUMENT` for `first` 0 or a `base` that is not finite and above 1.
#[no_mangle]
pub unsafe extern "C" fn picollo_histogram_log_steps(
    h: *const picollo_histogram,
    first: u64,
    base: f64,
    cursor: *mut u64,
    out: *mut picollo_step,
    cap: usize,
    written: *mut usize,
) -> picollo_status {
    let spacing = NonZeroU64::new(first).map(|first| Spacing::Logarithmic(first, base));
    let spacing = spacing.ok_or("first is 0: the first step holds at least one value");
    // SAFETY: forwarded contract.
    unsafe { steps(h, spacing, cursor, out, cap, written) }
}
