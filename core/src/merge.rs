//! Combining histograms: why a merge can fail, and the rules every kind shares for adding
//! and subtracting another histogram's counts.

use crate::counter::{Counter, Counts};
use crate::layout::Layout;
use crate::shape::{Shape, Slot, OVER, SAT, UNDER};
use crate::view::View;

/// Why two histograms could not be combined.
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub enum MergeError {
    /// The two layouts differ (different relative errors): buckets would not line up.
    LayoutMismatch {
        /// Relative error of the receiving histogram.
        this: f64,
        /// Relative error of the other histogram.
        other: f64,
    },
    /// The two layouts have the same precision but different units (lowest discernible
    /// values): buckets would not line up.
    UnitMismatch {
        /// Unit of the receiving histogram.
        this: u64,
        /// Unit of the other histogram.
        other: u64,
    },
    /// A subtraction would take a count below zero (at this logical index, or `None` for
    /// the underflow/overflow/saturated counts). Nothing was changed.
    WouldGoNegative {
        /// The logical bucket index whose count is too small.
        logical_index: Option<u64>,
    },
    /// The histogram's mode cannot do this (subtracting from a histogram other threads
    /// record into); nothing was changed.
    Unsupported,
    /// The precision asked for (a downsample's relative error) is NaN, infinite, zero or
    /// negative: the rule of [`crate::ConfigError::InvalidRelativeError`].
    InvalidRelativeError(f64),
    /// The copy of the other histogram could not be allocated; nothing was changed.
    OutOfMemory {
        /// The size asked for, in bytes.
        bytes: usize,
    },
}

impl From<crate::OutOfMemory> for MergeError {
    fn from(e: crate::OutOfMemory) -> Self {
        MergeError::OutOfMemory { bytes: e.bytes }
    }
}

impl core::fmt::Display for MergeError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match *self {
            MergeError::LayoutMismatch { this, other } => write!(
                f,
                "cannot combine histograms of different precision ({:.4}% and {:.4}%)",
                percent_half_up(this),
                percent_half_up(other)
            ),
            MergeError::UnitMismatch { this, other } => write!(
                f,
                "cannot combine histograms of different units ({this} and {other}, the widths \
                 of their lowest buckets): re-bin one into the other's layout"
            ),
            MergeError::WouldGoNegative {
                logical_index: Some(i),
            } => write!(
                f,
                "subtraction would make bucket {i} negative: the other histogram is not an \
                 earlier state of this one"
            ),
            MergeError::WouldGoNegative {
                logical_index: None,
            } => f.write_str(
                "subtraction would make the underflow, overflow or saturated count negative",
            ),
            MergeError::Unsupported => f.write_str(
                "only a single-writer histogram can subtract: the other modes cannot take \
                 counts back while writers run (use a snapshot with deltas instead)",
            ),
            MergeError::InvalidRelativeError(e) => {
                write!(f, "{}", crate::ConfigError::InvalidRelativeError(e))
            }
            MergeError::OutOfMemory { bytes } => {
                write!(f, "{}", crate::OutOfMemory { bytes })
            }
        }
    }
}

/// A relative error in percent, rounded half up to 4 decimals as the reports print it
/// (0.78125 % → 0.7813 %; `{:.4}` alone rounds that tie to even, 0.7812 %).
fn percent_half_up(relative_error: f64) -> f64 {
    crate::fmath::round(relative_error * 1e6) / 1e4
}

#[cfg(feature = "std")]
impl std::error::Error for MergeError {}

/// Both histograms must have the same layout (relative error) for their buckets to line up.
pub(crate) fn check_layout<C2: Counter>(
    layout: Layout,
    other: &View<'_, C2>,
) -> Result<(), MergeError> {
    if other.layout() == layout {
        Ok(())
    } else if other.layout().block_scale() == layout.block_scale() {
        Err(MergeError::UnitMismatch {
            this: layout.unit(),
            other: other.layout().unit(),
        })
    } else {
        Err(MergeError::LayoutMismatch {
            this: layout.relative_error(),
            other: other.layout().relative_error(),
        })
    }
}

/// Add `other` into a histogram of the same layout whose buckets are `shape`'s, counter by
/// counter: each non-empty bucket's count goes to `add_at` (the receiver's slot for that
/// bucket; `false` when it could not take it), or, where the receiver has no cell for it
/// or `add_at` declined, to `record_n(bucket lower bound, count)` (underflow or overflow
/// like any record); then `add_outside` with `other`'s outside counts.
pub(crate) fn add_view<C2: Counter>(
    shape: &Shape,
    other: &View<'_, C2>,
    mut add_at: impl FnMut(Slot, u64) -> bool,
    mut record_n: impl FnMut(u64, u64),
    add_outside: impl FnOnce([u64; 3]),
) -> Result<(), MergeError> {
    check_layout(shape.layout(), other)?;
    let (from, counts) = (other.shape(), other.counts());
    let end = counts.last_nonzero().map_or(0, |i| i + 1);
    for (i, &c) in counts[..end].iter().enumerate() {
        if c == C2::ZERO {
            continue;
        }
        let (index, n) = (from.first_index() + i, c.to_u64());
        let offset = index.wrapping_sub(shape.first_index());
        if offset >= shape.len() || !add_at(Slot { index, offset }, n) {
            record_n(from.bucket(i).lower, n);
        }
    }
    add_outside(other.outside());
    Ok(())
}

/// Check that subtracting `other` from a histogram of `shape` (whose bucket at offset `o`
/// holds `load(o)`, and whose outside counts are `outside`) takes no count below zero.
/// Returns the outside counts after the subtraction; nothing is changed here, so a failure
/// leaves the receiver untouched. Counts of `other` outside the receiver's range are taken
/// from its underflow/overflow. Apply the buckets with [`stored_counts`].
pub(crate) fn plan_subtract<C2: Counter>(
    shape: &Shape,
    outside: [u64; 3],
    other: &View<'_, C2>,
    load: impl Fn(usize) -> u64,
) -> Result<[u64; 3], MergeError> {
    check_layout(shape.layout(), other)?;
    let mut taken = other.outside();
    for (i, &c) in other.counts().iter().enumerate() {
        let (logical, n) = (other.shape().first_index() + i, c.to_u64());
        if n == 0 {
            continue;
        }
        match shape.offset_of_logical(logical) {
            Some(o) if load(o) >= n => {}
            Some(_) => {
                return Err(MergeError::WouldGoNegative {
                    logical_index: Some(logical as u64),
                })
            }
            None if logical < shape.first_index() => taken[UNDER] = taken[UNDER].saturating_add(n),
            None => taken[OVER] = taken[OVER].saturating_add(n),
        }
    }
    let mut left = outside;
    for which in [UNDER, OVER, SAT] {
        left[which] =
            outside[which]
                .checked_sub(taken[which])
                .ok_or(MergeError::WouldGoNegative {
                    logical_index: None,
                })?;
    }
    Ok(left)
}

/// `other`'s non-empty buckets that a histogram of `shape` stores: (offset there, count).
pub(crate) fn stored_counts<'a, C2: Counter>(
    shape: &'a Shape,
    other: &'a View<'a, C2>,
) -> impl Iterator<Item = (usize, u64)> + 'a {
    let first = other.shape().first_index();
    other
        .counts()
        .iter()
        .enumerate()
        .filter(|(_, c)| **c != C2::ZERO)
        .filter_map(move |(i, c)| Some((shape.offset_of_logical(first + i)?, c.to_u64())))
}

/// Adds `src` to `dst` counter by counter (equal lengths), each sum capped at `C::MAX`;
/// returns what the caps held back (the caller counts it as saturated) and the OR of
/// every count added to or added (at least the largest of them).
///
/// Each run of 4,096 is added wrapping while the same pass ORs the counts it adds: when
/// the OR stays at or below half of `C::MAX`, no sum of the run can have passed `C::MAX`
/// (a loop of plain adds, which the compiler vectorizes). Otherwise the run's adds are
/// taken back (wrapping subtraction undoes wrapping addition) and done capped, one by one.
pub(crate) fn add_counts<C: Counter, C2: Counter>(dst: &mut [C], src: &[C2]) -> (u64, u64) {
    debug_assert_eq!(dst.len(), src.len());
    let half = C::MAX.to_u64() >> 1;
    let (mut excess, mut all) = (0u64, 0u64);
    for (mine, theirs) in dst
        .chunks_mut(crate::sum::CHECKED_RUN)
        .zip(src.chunks(crate::sum::CHECKED_RUN))
    {
        let mut any = 0u64;
        for (m, n) in mine.iter_mut().zip(theirs) {
            any |= m.to_u64() | n.to_u64();
            *m = C::from_u64_wrapping(m.to_u64().wrapping_add(n.to_u64()));
        }
        all |= any;
        if any > half {
            for (m, n) in mine.iter_mut().zip(theirs) {
                *m = C::from_u64_wrapping(m.to_u64().wrapping_sub(n.to_u64()));
            }
            excess = excess.saturating_add(add_capped(mine, theirs));
        }
    }
    (excess, all)
}

/// `dst += src` counter by counter, each sum capped at `C::MAX`; what the caps held back.
fn add_capped<C: Counter, C2: Counter>(dst: &mut [C], src: &[C2]) -> u64 {
    let max = C::MAX.to_u64();
    let mut excess = 0u64;
    for (mine, theirs) in dst.iter_mut().zip(src) {
        let (m, n) = (mine.to_u64(), theirs.to_u64());
        let sum = m.saturating_add(n).min(max);
        *mine = C::from_u64_wrapping(sum);
        excess = excess.saturating_add(n - (sum - m));
    }
    excess
}
