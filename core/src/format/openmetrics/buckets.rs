//! The numbers behind a histogram family: the derived bounds, the cumulative count at each
//! bound, every record and `_sum`.

use alloc::vec::Vec;
use core::fmt;

use super::{Bounds, HistogramOptions, OpenMetricsError};
use crate::counter::Counter;
use crate::shape::Shape;
use crate::view::View;

/// The bounds of [`Bounds::Coarse`]: walking the buckets up, each bound is the highest
/// value of the last bucket that keeps `b - a <= e·(a + b)` from the previous bound `a`
/// (or of the very next bucket when none does); the range's last bucket ends the list.
pub(super) fn coarse_bounds(shape: &Shape, e: f64) -> Vec<u64> {
    let mut bounds = Vec::new();
    let fits = |a: u64, b: u64| (b - a) as f64 <= e * (a as f64 + b as f64);
    let mut candidate: Option<u64> = None;
    for i in 0..shape.len() {
        let h = shape.bucket(i).highest;
        match bounds.last().copied() {
            None => bounds.push(h),
            Some(a) if fits(a, h) => candidate = Some(h),
            Some(_) => match candidate.take() {
                Some(c) => {
                    bounds.push(c);
                    if fits(c, h) {
                        candidate = Some(h);
                    } else {
                        bounds.push(h);
                    }
                }
                None => bounds.push(h),
            },
        }
    }
    if let Some(c) = candidate {
        bounds.push(c);
    }
    bounds
}

/// The `_bucket` samples of a histogram family without the text: `(le, cumulative)` in
/// exported units, the last `le` being `+∞`, and `_sum` in exported units. What a client
/// library that builds its own families (Python's `prometheus_client`) needs.
#[derive(Clone, Debug, PartialEq)]
pub struct CumulativeBuckets {
    /// `(le, cumulative count)`, `le` strictly increasing and ending with `f64::INFINITY`.
    pub buckets: Vec<(f64, u64)>,
    /// The family's `_sum` (buckets at their midpoints), divided by the unit ratio.
    pub sum: f64,
}

/// The buckets and sum [`FamilyWriter::point`](super::FamilyWriter::point) writes for `view` in a histogram family with
/// these options, as numbers: the same bounds, counts and sum as the text.
pub fn cumulative_buckets<C: Counter>(
    view: &View<'_, C>,
    options: &HistogramOptions<'_>,
) -> Result<CumulativeBuckets, OpenMetricsError> {
    options.check()?;
    Ok(cumulative_buckets_checked(view, options))
}

/// [`cumulative_buckets`] for options already checked.
pub(crate) fn cumulative_buckets_checked<C: Counter>(
    view: &View<'_, C>,
    options: &HistogramOptions<'_>,
) -> CumulativeBuckets {
    let bounds = match options.bounds {
        Bounds::Explicit(b) => b.to_vec(),
        Bounds::Coarse(e) => coarse_bounds(&view.shape(), e),
    };
    let mut buckets = Vec::with_capacity(bounds.len() + 1);
    // The closure never fails: the walk's `fmt::Result` is always `Ok`.
    let _ = for_each_cumulative(view, &bounds, |bound, cumulative| {
        buckets.push((scaled(bound, options), cumulative));
        Ok(())
    });
    buckets.push((f64::INFINITY, every_count(view)));
    CumulativeBuckets {
        buckets,
        sum: sum(view) / options.unit_ratio,
    }
}

/// Calls `each(bound, cumulative)` for every bound: the count of the values at or below it
/// (underflow included; a bucket counts once its highest value is at or below the bound).
pub(super) fn for_each_cumulative<C: Counter>(
    view: &View<'_, C>,
    bounds: &[u64],
    mut each: impl FnMut(u64, u64) -> fmt::Result,
) -> fmt::Result {
    let shape = view.shape();
    let counts = view.counts();
    let mut cumulative = u128::from(view.underflow_count());
    let mut i = 0;
    for &bound in bounds {
        while i < counts.len() && shape.bucket(i).highest <= bound {
            cumulative += u128::from(counts[i].to_u64());
            i += 1;
        }
        each(bound, crate::view::saturate(cumulative))?;
    }
    Ok(())
}

/// Every record: in range, underflow, overflow and saturated (`+Inf` and `_count`).
pub(super) fn every_count<C: Counter>(view: &View<'_, C>) -> u64 {
    let [under, over, sat] = view.outside();
    crate::view::saturate(
        u128::from(under) + view.total_wide() + u128::from(over) + u128::from(sat),
    )
}

/// `_sum`: buckets at their midpoints, underflow at the range's low end, overflow at its
/// high end; saturated counts left out.
pub(super) fn sum<C: Counter>(view: &View<'_, C>) -> f64 {
    let shape = view.shape();
    let (lo, hi) = shape.range();
    let mut s =
        view.underflow_count() as f64 * lo as f64 + view.overflow_count() as f64 * hi as f64;
    for (i, &c) in view.counts().iter().enumerate() {
        if c != C::ZERO {
            s += c.to_u64() as f64 * shape.bucket(i).midpoint() as f64;
        }
    }
    s
}

pub(super) fn scaled(v: u64, o: &HistogramOptions<'_>) -> f64 {
    v as f64 / o.unit_ratio
}
