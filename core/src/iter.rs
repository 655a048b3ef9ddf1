//! Iteration over buckets: all of them, the non-empty ones, as percentiles, and
//! HdrHistogram-style linear and logarithmic steps.

use core::num::NonZeroU64;

use crate::counter::Counter;
use crate::percentile::{Percentile, QueryError};
use crate::view::{Counts, View};

/// A bucket and its count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BucketCount {
    /// Index in the histogram's storage.
    pub storage_index: usize,
    /// Index in the layout over the whole `u64` range.
    pub logical_index: usize,
    /// Smallest value of the bucket.
    pub lower: u64,
    /// Largest value of the bucket.
    pub highest: u64,
    /// The bucket's midpoint.
    pub value: u64,
    /// The bucket's count.
    pub count: u64,
}

/// Every storage bucket in order, empty ones included.
pub struct Buckets<'a, C, S: ?Sized = [C]> {
    view: View<'a, C, S>,
    next: usize,
}

impl<C, S: ?Sized> Clone for Buckets<'_, C, S> {
    fn clone(&self) -> Self {
        Buckets {
            view: self.view,
            next: self.next,
        }
    }
}

impl<C: Counter, S: Counts<C> + ?Sized> Iterator for Buckets<'_, C, S> {
    type Item = BucketCount;

    fn next(&mut self) -> Option<BucketCount> {
        let count = self.view.count(self.next)?;
        let storage_index = self.next;
        self.next += 1;
        let logical_index = self.view.first_index() + storage_index;
        let b = self.view.shape.bucket(storage_index);
        Some(BucketCount {
            storage_index,
            logical_index,
            lower: b.lower,
            highest: b.highest,
            value: b.midpoint(),
            count,
        })
    }

    fn nth(&mut self, n: usize) -> Option<BucketCount> {
        self.next = self.next.saturating_add(n);
        self.next()
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = self.view.counts.len().saturating_sub(self.next);
        (left, Some(left))
    }
}

/// Each bucket as a percentile whose rank is the middle of the bucket's share of the counts:
/// `(counts below + count / 2) / total × 100`.
pub struct BucketPercentiles<'a, C, S: ?Sized = [C]> {
    buckets: Buckets<'a, C, S>,
    total: u128,
    before: u128,
    with_values_only: bool,
}

impl<C, S: ?Sized> Clone for BucketPercentiles<'_, C, S> {
    fn clone(&self) -> Self {
        BucketPercentiles {
            buckets: self.buckets.clone(),
            ..*self
        }
    }
}

impl<C: Counter, S: Counts<C> + ?Sized> Iterator for BucketPercentiles<'_, C, S> {
    type Item = Percentile;

    fn next(&mut self) -> Option<Percentile> {
        loop {
            let b = self.buckets.next()?;
            let before = self.before;
            self.before += b.count as u128;
            if self.with_values_only && b.count == 0 {
                continue;
            }
            let rank = if self.total == 0 {
                0.0
            } else {
                (before as f64 + b.count as f64 / 2.0) / self.total as f64 * 100.0
            };
            let target = before + (b.count as u128).div_ceil(2).max(1);
            return Some(self.buckets.view.make_percentile(
                rank,
                b.storage_index,
                b.count,
                before,
                target,
            ));
        }
    }
}

/// A range of values and the counts whose bucket midpoint falls in it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StepCount {
    /// First value of the step.
    pub lower: u64,
    /// Exclusive end of the step (2^64 for a step that reaches the top of the range).
    pub upper: u128,
    /// Counts of buckets whose midpoint lies in `[lower, upper)`.
    pub count: u64,
    /// Counts up to the end of this step.
    pub cumulative_count: u64,
    /// `cumulative_count / total` in percent.
    pub percentile: f64,
}

#[derive(Clone, Copy, Debug)]
enum Spacing {
    Linear(u64),
    Logarithmic { first: u64, base: f64 },
}

/// Fixed-width or geometric value steps, up to the step holding the largest value.
pub struct Steps<'a, C, S: ?Sized = [C]> {
    view: View<'a, C, S>,
    spacing: Spacing,
    lower: u128,
    step: u32,
    next_bucket: usize,
    end_bucket: usize,
    cumulative: u128,
    total: u128,
}

impl<C, S: ?Sized> Clone for Steps<'_, C, S> {
    fn clone(&self) -> Self {
        Steps { ..*self }
    }
}

impl<C, S: ?Sized> Steps<'_, C, S> {
    fn upper(&self) -> u128 {
        let end = match self.spacing {
            Spacing::Linear(width) => self.lower + width as u128,
            Spacing::Logarithmic { first, base } => {
                if self.step == 0 {
                    first as u128
                } else {
                    geometric_bound(first, base, self.step).max(self.lower + 1)
                }
            }
        };
        end.min(1u128 << 64)
    }
}

/// `ceil(first · base^step)`, computed from scratch (so rounding does not pile up),
/// `u128::MAX` beyond `u64`.
fn geometric_bound(first: u64, base: f64, step: u32) -> u128 {
    let f = first as f64 * libm_powi(base, step as i32);
    if f >= 1.9e19 {
        u128::MAX
    } else {
        crate::fmath::ceil_nonneg(f)
    }
}

impl<C: Counter, S: Counts<C> + ?Sized> Steps<'_, C, S> {
    /// Move past `n` steps without producing them: linear steps jump straight to their
    /// bound; logarithmic ones walk while a step's bound can still be the previous one's
    /// plus one, then jump (from there on each bound is `ceil(first · base^k)`). The
    /// buckets of the skipped steps are then passed in one sweep, so skipping costs the
    /// buckets it passes, not the steps.
    fn skip_steps(&mut self, mut n: usize) {
        const TOP: u128 = 1 << 64;
        match self.spacing {
            Spacing::Linear(width) => {
                self.lower = (self.lower + n as u128 * width as u128).min(TOP);
            }
            Spacing::Logarithmic { first, base } => {
                while n > 0 && self.lower < TOP {
                    // From a step whose geometric bound is past the previous bound, and
                    // whose next bounds grow by two or more each (`first·base^k·(base − 1)
                    // ≥ 2`: one, with room for rounding), the bounds are the geometric
                    // ones.
                    let geometric = self.step >= 1
                        && first as f64 * libm_powi(base, self.step as i32) * (base - 1.0) >= 2.0
                        && geometric_bound(first, base, self.step) > self.lower;
                    let room = u32::MAX - self.step;
                    if geometric && (n as u64) <= u64::from(room) {
                        // Bounds from here on are ceil(first·base^k), each past the
                        // previous one by at least one: the last skipped step's bound.
                        self.step += n as u32 - 1;
                        self.lower = self.upper();
                        self.step += 1;
                        n = 0;
                    } else {
                        self.lower = self.upper();
                        self.step = self.step.saturating_add(1);
                        n -= 1;
                    }
                }
            }
        }
        while self.next_bucket < self.end_bucket {
            let b = self.view.shape.bucket(self.next_bucket);
            if b.midpoint() as u128 >= self.lower {
                break;
            }
            self.cumulative += self.view.counts.get(self.next_bucket).to_u64() as u128;
            self.next_bucket += 1;
        }
    }
}

fn libm_powi(base: f64, exp: i32) -> f64 {
    // Exponentiation by squaring: `powi` lives in std only.
    let (mut result, mut b, mut e) = (1.0f64, base, exp.unsigned_abs());
    while e > 0 {
        if e & 1 == 1 {
            result *= b;
        }
        b *= b;
        e >>= 1;
    }
    result
}

impl<C: Counter, S: Counts<C> + ?Sized> Iterator for Steps<'_, C, S> {
    type Item = StepCount;

    fn next(&mut self) -> Option<StepCount> {
        if self.next_bucket >= self.end_bucket || self.lower >= 1u128 << 64 {
            return None;
        }
        let upper = self.upper();
        let mut count = 0u128;
        while self.next_bucket < self.end_bucket {
            let b = self.view.shape.bucket(self.next_bucket);
            if b.midpoint() as u128 >= upper {
                break;
            }
            count += self.view.counts.get(self.next_bucket).to_u64() as u128;
            self.next_bucket += 1;
        }
        self.cumulative += count;
        let item = StepCount {
            lower: self.lower as u64,
            upper,
            count: crate::view::saturate(count),
            cumulative_count: crate::view::saturate(self.cumulative),
            percentile: if self.total == 0 {
                0.0
            } else {
                self.cumulative as f64 / self.total as f64 * 100.0
            },
        };
        self.lower = upper;
        self.step = self.step.saturating_add(1);
        Some(item)
    }

    fn nth(&mut self, n: usize) -> Option<StepCount> {
        if n > 0 {
            self.skip_steps(n);
        }
        self.next()
    }
}

impl<'a, C: Counter, S: Counts<C> + ?Sized> View<'a, C, S> {
    /// Every storage bucket, in value order.
    pub fn buckets(&self) -> Buckets<'a, C, S> {
        Buckets {
            view: *self,
            next: 0,
        }
    }

    /// The buckets with a non-zero count.
    pub fn buckets_with_values(&self) -> impl Iterator<Item = BucketCount> + 'a
    where
        C: 'a,
    {
        let mut buckets = self.buckets();
        // Up to the last counted bucket, found eight counts a step.
        let end = self.counts.last_nonzero().map_or(0, |i| i + 1);
        core::iter::from_fn(move || {
            // Past the empty buckets first, so that bounds are found for counted ones only.
            let counts = buckets.view.counts;
            while buckets.next < end && counts.get(buckets.next) == C::ZERO {
                buckets.next += 1;
            }
            (buckets.next < end).then(|| buckets.next()).flatten()
        })
    }

    /// Every bucket as a percentile (rank at the middle of its counts).
    pub fn bucket_percentiles(&self) -> BucketPercentiles<'a, C, S> {
        self.bucket_percentiles_impl(false)
    }

    /// The non-empty buckets as percentiles.
    pub fn bucket_percentiles_with_values(&self) -> BucketPercentiles<'a, C, S> {
        self.bucket_percentiles_impl(true)
    }

    fn bucket_percentiles_impl(&self, with_values_only: bool) -> BucketPercentiles<'a, C, S> {
        BucketPercentiles {
            buckets: self.buckets(),
            total: self.total_wide(),
            before: 0,
            with_values_only,
        }
    }

    /// Steps of `width` values (`[0, w)`, `[w, 2w)`, …), empty ones included, up to the one
    /// holding the midpoint of the highest non-empty bucket; each bucket counts in the
    /// step holding its midpoint (so the last step holds the last count; values of that
    /// bucket above its midpoint lie beyond it).
    pub fn linear_steps(&self, width: NonZeroU64) -> Steps<'a, C, S> {
        self.steps(Spacing::Linear(width.get()))
    }

    /// Geometric steps `[0, first)`, `[first, first·base)`, `[first·base, first·base²)`, …,
    /// empty ones included, up to the one holding the midpoint of the highest non-empty
    /// bucket (as [`View::linear_steps`]). Step `k ≥ 1` ends at `ceil(first · base^k)`, but
    /// at least one value past the previous end: with a base near 1 the first steps are
    /// one value wide until the geometric bounds outgrow them. `base` must be finite and
    /// above 1.
    pub fn logarithmic_steps(
        &self,
        first: NonZeroU64,
        base: f64,
    ) -> Result<Steps<'a, C, S>, QueryError> {
        if !(base > 1.0 && base.is_finite()) {
            return Err(QueryError::InvalidLogBase(base));
        }
        Ok(self.steps(Spacing::Logarithmic {
            first: first.get(),
            base,
        }))
    }

    fn steps(&self, spacing: Spacing) -> Steps<'a, C, S> {
        let end_bucket = self.counts.last_nonzero().map_or(0, |i| i + 1);
        Steps {
            view: *self,
            spacing,
            lower: 0,
            step: 0,
            next_bucket: 0,
            end_bucket,
            cumulative: 0,
            total: self.total_wide(),
        }
    }
}
