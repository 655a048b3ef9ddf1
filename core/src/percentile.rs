//! A percentile with everything known about the bucket it was found in.

use crate::format::numbers::{Compact, Grouped, Rank};

/// Why a percentile query was refused.
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub enum QueryError {
    /// A rank is NaN, below 0 or above 100.
    RankOutOfRange(f64),
    /// Ranks of a batch query must be strictly increasing; this one is not.
    RanksNotIncreasing {
        /// Position of the offending rank in the batch.
        position: usize,
    },
    /// The output slice length differs from the number of ranks.
    OutputLength {
        /// Number of ranks.
        ranks: usize,
        /// Length of the output slice.
        output: usize,
    },
    /// The histogram holds no value inside its range.
    Empty,
    /// A logarithmic iteration base must be finite and above 1.
    InvalidLogBase(f64),
}

impl core::fmt::Display for QueryError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match *self {
            QueryError::RankOutOfRange(r) => write!(
                f,
                "rank {} is invalid: ranks must be numbers in [0, 100]",
                Compact(r)
            ),
            QueryError::RanksNotIncreasing { position } => write!(
                f,
                "rank at position {position} is not above the previous one: ranks must be \
                 strictly increasing"
            ),
            QueryError::OutputLength { ranks, output } => write!(
                f,
                "{ranks} ranks but room for {output} results: lengths must match"
            ),
            QueryError::Empty => f.write_str("the histogram holds no value in its range"),
            QueryError::InvalidLogBase(b) => {
                write!(
                    f,
                    "logarithmic base {} is invalid: it must be finite and above 1",
                    Compact(b)
                )
            }
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for QueryError {}

/// A percentile: the rank asked for, the value reported, and the bucket behind it.
///
/// Displays as `P99=24,960 [83 / 609]: [24,832, 25,088) 14,190`: rank, value, storage index
/// / logical index, bucket bounds, and the bucket's count.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Percentile {
    /// The rank in percent, `0..=100`.
    pub rank: f64,
    /// The value reported for the bucket (per the histogram's [`crate::ValueSelection`]).
    pub value: u64,
    /// The largest distance from `value` to a value of the bucket.
    pub plus_minus: u64,
    /// Index of the bucket in the histogram's storage.
    pub storage_index: u64,
    /// Index of the bucket in the layout over the whole `u64` range.
    pub logical_index: u64,
    /// Smallest value of the bucket.
    pub lower: u64,
    /// Exclusive upper bound of the bucket; `u64::MAX` for the topmost bucket, whose true
    /// bound is 2^64 (use `highest` for an exact figure).
    pub upper: u64,
    /// Largest value of the bucket.
    pub highest: u64,
    /// Count of the bucket.
    pub count: u64,
    /// Cumulative count up to and including the bucket.
    pub cumulative_count: u64,
    /// The count the rank points at: `ceil(rank / 100 × total)`, at least 1.
    pub rank_count: u64,
}

impl core::fmt::Display for Percentile {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "P{}={} [{} / {}]: [{}, {}) {}",
            Rank(self.rank),
            Grouped(self.value),
            self.storage_index,
            self.logical_index,
            Grouped(self.lower),
            Grouped(self.highest as u128 + 1),
            Grouped(self.count)
        )
    }
}

/// Validate a rank: a number in `[0, 100]`.
pub(crate) fn check_rank(rank: f64) -> Result<(), QueryError> {
    if (0.0..=100.0).contains(&rank) {
        Ok(())
    } else {
        Err(QueryError::RankOutOfRange(rank))
    }
}

/// Validate a batch of ranks: each in `[0, 100]`, strictly increasing.
pub(crate) fn check_ranks(ranks: &[f64], output: usize) -> Result<(), QueryError> {
    if ranks.len() != output {
        return Err(QueryError::OutputLength {
            ranks: ranks.len(),
            output,
        });
    }
    let mut prev = f64::NEG_INFINITY;
    for (position, &r) in ranks.iter().enumerate() {
        check_rank(r)?;
        if r <= prev {
            return Err(QueryError::RanksNotIncreasing { position });
        }
        prev = r;
    }
    Ok(())
}

/// Ranks are taken to a resolution of 1e-9 percent so the target count is exact integer
/// math: P99.9 of 1,000 values is the 999th, not the 1,000th.
const RANK_SCALE: u128 = 1_000_000_000;

/// The count a rank points at: `ceil(rank / 100 × total)` clamped to `[1, total]`.
pub(crate) fn rank_to_count(rank: f64, total: u128) -> u128 {
    // rank is checked to be in [0, 100], so this fits easily.
    let scaled = crate::fmath::round(rank * RANK_SCALE as f64) as u128;
    let denominator = 100 * RANK_SCALE;
    let target = (scaled * total).div_ceil(denominator);
    target.clamp(1, total.max(1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rank_count_is_exact_where_floats_are_off_by_one() {
        // 99.9 / 100 × 1,000,000 is 999,000.000...1 in f64; ceil would say 999,001.
        assert_eq!(rank_to_count(99.9, 1_000_000), 999_000);
        assert_eq!(rank_to_count(99.9, 1_000), 999);
        assert_eq!(rank_to_count(0.0, 1_000), 1);
        assert_eq!(rank_to_count(100.0, 1_000), 1_000);
        assert_eq!(rank_to_count(1.0, 98_997_302), 989_974);
        assert_eq!(rank_to_count(50.0, 1), 1);
        assert_eq!(rank_to_count(100.0, u64::MAX as u128), u64::MAX as u128);
    }

    #[test]
    fn bad_ranks_are_refused() {
        assert!(check_rank(f64::NAN).is_err());
        assert!(check_rank(-0.001).is_err());
        assert!(check_rank(100.0001).is_err());
        assert!(check_rank(100.0).is_ok());
        assert_eq!(
            check_ranks(&[1.0, 1.0], 2),
            Err(QueryError::RanksNotIncreasing { position: 1 })
        );
        assert_eq!(
            check_ranks(&[1.0], 2),
            Err(QueryError::OutputLength {
                ranks: 1,
                output: 2
            })
        );
        assert!(check_ranks(&[], 0).is_ok());
    }

    #[cfg(feature = "alloc")]
    #[test]
    fn numbers_in_query_errors_are_compact() {
        use alloc::string::ToString;
        for (err, want) in [
            (QueryError::RankOutOfRange(1e300), "rank 1e300 is invalid"),
            (
                QueryError::RankOutOfRange(-5e-324),
                "rank -5e-324 is invalid",
            ),
            (
                QueryError::RankOutOfRange(100.0001),
                "rank 100.0001 is invalid",
            ),
            (QueryError::RankOutOfRange(f64::NAN), "rank NaN is invalid"),
            (
                QueryError::InvalidLogBase(1e-300),
                "logarithmic base 1e-300 is",
            ),
        ] {
            let text = err.to_string();
            assert!(text.starts_with(want), "{text}");
        }
    }
}
