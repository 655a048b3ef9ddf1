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
    /// A value to look up is NaN, or a range of values has its bounds out of order.
    InvalidValue(f64),
    /// The histogram's total passes `u64::MAX`: its running totals do not fit `u64`.
    TotalTooLarge,
}

impl core::fmt::Display for QueryError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match *self {
            QueryError::InvalidValue(v) => write!(
                f,
                "value {v} is invalid here: NaN, or a bound above the other bound"
            ),
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
            QueryError::TotalTooLarge => f.write_str(
                "the histogram's total passes 2^64 - 1: its running totals do not fit 64 bits",
            ),
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

/// The percentile at one rank, from the batch query `batch` (a walk for one rank): what
/// every kind of histogram answers for `percentile(rank)`.
pub(crate) fn single<P: Copy + Default>(
    rank: f64,
    batch: impl FnOnce(&[f64], &mut [P]) -> Result<(), QueryError>,
) -> Result<P, QueryError> {
    check_rank(rank)?;
    let mut out = [P::default()];
    batch(&[rank], &mut out)?;
    Ok(out[0])
}

/// A rank (how many of `total` values lie at or below a value) as a fraction in `[0, 1]`:
/// what every kind of histogram answers for `quantile_of`. `Err(Empty)` when `total` is 0,
/// before the rank is asked for.
pub(crate) fn quantile_of_rank(
    total: u128,
    rank: impl FnOnce() -> Result<f64, QueryError>,
) -> Result<f64, QueryError> {
    if total == 0 {
        return Err(QueryError::Empty);
    }
    Ok((rank()? / total as f64).clamp(0.0, 1.0))
}

/// The count a rank points at: `ceil(rank / 100 × total)` clamped to `[1, total]`, computed
/// exactly in integers for the rank as given.
///
/// "As given" means the decimal the caller wrote: an f64 rank that is the nearest double to
/// a decimal with at most 13 fractional digits stands for that decimal
/// (`99.9` is 999/10, not 99.900000000000005684… — so P99.9 of 1,000,000 values is the
/// 999,000th). Any other rank (a computed `200.0 / 3.0`, say) is taken at its exact binary
/// value. No rounding happens before the ceiling either way.
///
/// Every percentile of Picollo's takes its rank through this rule, so a quantile computed
/// elsewhere (of exact samples, say) agrees with a histogram's.
#[inline]
pub fn rank_to_count(rank: f64, total: u128) -> u128 {
    let exact = match decimal_rank(rank) {
        Some((digits, scale)) => ceil_mul_div(total, digits, 100 * scale),
        None => binary_rank_count(rank, total),
    };
    exact.clamp(1, total.max(1))
}

/// The most fractional digits a rank is read with as a decimal (a rank ≤ 100 then has at
/// most 15 significant digits, so the decimal and its double identify each other).
pub(crate) const MAX_RANK_DECIMALS: u32 = 13;

/// `rank` as `digits / scale` with `scale = 10^k`, for the smallest `k ≤ MAX_RANK_DECIMALS`
/// whose decimal rounds to exactly this double; `None` when there is none.
#[inline]
fn decimal_rank(rank: f64) -> Option<(u64, u64)> {
    if let Some(&(_, digits, scale)) = COMMON_RANKS.iter().find(|r| r.0 == rank) {
        return Some((digits, scale));
    }
    decimal_rank_searched(rank)
}

/// The ranks most queries ask for, read ahead of time: `(rank, digits, scale)` as
/// [`decimal_rank_searched`] reads them (a test holds each row to it).
const COMMON_RANKS: [(f64, u64, u64); 8] = [
    (50.0, 50, 1),
    (90.0, 90, 1),
    (95.0, 95, 1),
    (99.0, 99, 1),
    (99.9, 999, 10),
    (99.99, 9999, 100),
    (99.999, 99999, 1000),
    (100.0, 100, 1),
];

/// [`decimal_rank`] from one test at the most decimals: a decimal of `k ≤ 13` decimals that
/// rounds to `rank` is also one of 13 (its digits times `10^(13 − k)`), and `rank × 10^13`
/// lies within 0.14 of those digits (half an ulp of `rank` below 100, times `10^13`, plus
/// the product's own rounding), so rounding it finds them. So a rank with no such decimal
/// (a computed one, most of them) is known after one division, and one that has it is
/// read in its fewest decimals by removing trailing zeros.
fn decimal_rank_searched(rank: f64) -> Option<(u64, u64)> {
    const MOST: f64 = 1e13;
    // rank ≤ 100, so the product is below 2^53: every integer there is a double, and
    // `digits as f64 / MOST` is one correctly rounded division. Signed conversions (one
    // instruction each); `+ 0.5` then truncation rounds a rank ≥ 0 half up, and no
    // negative rank passes the test (truncation moves it toward zero).
    let digits = (rank * MOST + 0.5) as i64;
    if digits as f64 / MOST != rank {
        return None;
    }
    Some(fewest_decimals(digits as u64, MAX_RANK_DECIMALS))
}

/// `digits / 10^decimals` with the trailing zeros of `digits` removed, as
/// `(digits, 10^decimals)` (at most 15 zeros are removed, in steps of 8, 4, 2 and 1).
fn fewest_decimals(mut digits: u64, mut decimals: u32) -> (u64, u64) {
    for (step, power) in [(8, 100_000_000u64), (4, 10_000), (2, 100), (1, 10)] {
        if decimals >= step && digits % power == 0 {
            digits /= power;
            decimals -= step;
        }
    }
    (digits, 10u64.pow(decimals))
}

/// `ceil(total × num / den)` for `num ≤ den < 2^63`, without overflow: split `total` by
/// `den` so each product stays below 2^127.
#[inline]
fn ceil_mul_div(total: u128, num: u64, den: u64) -> u128 {
    // The usual case (the product fits 64 bits) in one 64-bit division, not three of 128.
    if let Ok(product) = u64::try_from(total.saturating_mul(num as u128)) {
        return product.div_ceil(den) as u128;
    }
    let (num, den) = (num as u128, den as u128);
    let (whole, rest) = (total / den, total % den);
    // whole × num ≤ total × num / den ≤ total; rest × num < den² < 2^126.
    whole * num + (rest * num).div_ceil(den)
}

/// `ceil(rank / 100 × total)` for the exact binary value of `rank` (in `[0, 100]`):
/// `rank = m × 2^-shift`, so the target is `ceil(ceil(total × m / 2^shift) / 100)`.
fn binary_rank_count(rank: f64, total: u128) -> u128 {
    let bits = rank.to_bits();
    let biased = ((bits >> 52) & 0x7ff) as i32;
    let fraction = bits & ((1 << 52) - 1);
    let (m, shift) = if biased == 0 {
        (fraction, 1074)
    } else {
        (fraction | (1 << 52), 1075 - biased)
    };
    if m == 0 {
        return 0;
    }
    // total × m as a 256-bit number in two halves (m < 2^53).
    let (lo, hi) = mul_wide(total, m);
    let scaled = shift_right_ceil(lo, hi, shift);
    // The usual case (below 2^64) in one 64-bit division by a constant, not a call to the
    // 128-bit one.
    match u64::try_from(scaled) {
        Ok(small) => small.div_ceil(100) as u128,
        Err(_) => scaled.div_ceil(100),
    }
}

/// `a × b` as `(low 128 bits, high 128 bits)`.
fn mul_wide(a: u128, b: u64) -> (u128, u128) {
    let b = b as u128;
    let (a_lo, a_hi) = (a & u64::MAX as u128, a >> 64);
    let p_lo = a_lo * b; // < 2^117
    let p_hi = a_hi * b; // < 2^117, weighs 2^64
    let (lo, carry) = p_lo.overflowing_add(p_hi << 64);
    (lo, (p_hi >> 64) + carry as u128)
}

/// `ceil((hi × 2^128 + lo) / 2^shift)` for `shift > 0`, saturating at `u128::MAX`.
fn shift_right_ceil(lo: u128, hi: u128, shift: i32) -> u128 {
    let shift = shift as u32;
    let (quotient, lost) = if shift >= 256 {
        (0, lo != 0 || hi != 0)
    } else if shift >= 128 {
        let s = shift - 128;
        let lost_hi = s > 0 && hi & ((1u128 << s) - 1) != 0;
        (hi.checked_shr(s).unwrap_or(0), lo != 0 || lost_hi)
    } else {
        if hi >> shift != 0 {
            return u128::MAX;
        }
        let q = (lo >> shift) | hi.checked_shl(128 - shift).unwrap_or(0);
        (q, lo & ((1u128 << shift) - 1) != 0)
    };
    quotient + lost as u128
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rank_is_not_rounded_before_the_ceiling() {
        // 66.666666666666 / 100 × 9 is 5.99999999999994: the sixth value, not the seventh.
        assert_eq!(rank_to_count(66.666666666666, 9), 6);
        assert_eq!(rank_to_count(66.6666666666667, 9), 7);
        assert_eq!(rank_to_count(0.0000000000001, 10u128.pow(17)), 100);
        assert_eq!(rank_to_count(0.0000000000001, 10u128.pow(17) + 1), 101);
        // 200/3 has no short decimal: its binary value is 66.6666666666666714…, above 200/3.
        assert_eq!(rank_to_count(200.0 / 3.0, 3), 3);
        assert_eq!(rank_to_count(200.0 / 3.0, 300), 201);
        // The smallest positive rank points at the first value of any total.
        assert_eq!(rank_to_count(f64::from_bits(1), u128::MAX), 1);
        assert_eq!(rank_to_count(1e-300, u64::MAX as u128), 1);
    }

    /// `ceil(num / den × total)` by brute force over exact rationals in u128 (small inputs).
    fn reference(num: u128, den: u128, total: u128) -> u128 {
        (num * total).div_ceil(den).clamp(1, total.max(1))
    }

    #[test]
    fn binary_ranks_match_exact_rational_arithmetic() {
        // Ranks k / 2^j are exact in binary; no decimal of ≤ 13 digits equals most of them.
        for j in [10u32, 20, 40, 52] {
            for k in [1u128, 3, 7, 1001, 99_999] {
                let den = 1u128 << j; // k / den ≤ 99,999 / 1,024 < 100
                let rank = k as f64 / den as f64;
                for total in [1u128, 2, 9, 1_000, 123_456_789, 1 << 70] {
                    assert_eq!(
                        binary_rank_count(rank, total).clamp(1, total),
                        reference(k, den * 100, total),
                        "rank {k}/2^{j}, total {total}"
                    );
                }
            }
        }
        assert_eq!(shift_right_ceil(0, 1, 1), 1u128 << 127);
        assert_eq!(shift_right_ceil(1, 1, 128), 2);
        assert_eq!(shift_right_ceil(0, 2, 129), 1);
        assert_eq!(shift_right_ceil(5, 0, 300), 1);
        assert_eq!(mul_wide(u128::MAX, 2), (u128::MAX - 1, 1));
    }

    #[test]
    fn the_64_bit_division_agrees_with_the_wide_one_on_both_sides_of_its_limit() {
        for (num, den) in [
            (999u64, 1_000u64),
            (1, 100),
            (9_999, 10_000),
            (99_999, 100_000),
            (123_457, 1_000_000),
            (99_999_999, 100_000_000),
            (7, 7),
        ] {
            let limit = (u64::MAX / num) as u128; // the largest total whose product fits
            for total in [
                0,
                1,
                1_000_000,
                limit - 1,
                limit,
                limit + 1,
                limit * 3,
                1 << 100,
            ] {
                let exact = if total < 1 << 64 {
                    (total * num as u128).div_ceil(den as u128)
                } else {
                    (total / den as u128) * num as u128
                        + ((total % den as u128) * num as u128).div_ceil(den as u128)
                };
                assert_eq!(
                    ceil_mul_div(total, num, den),
                    exact,
                    "{total} × {num} / {den}"
                );
            }
        }
    }

    #[test]
    fn the_common_ranks_read_ahead_are_those_the_search_reads() {
        for (rank, digits, scale) in COMMON_RANKS {
            assert_eq!(decimal_rank_searched(rank), Some((digits, scale)), "{rank}");
        }
    }

    /// The rule itself, one number of decimals after the other: the fewest whose decimal
    /// rounds to exactly this double.
    fn decimal_by_decimal(rank: f64) -> Option<(u64, u64)> {
        (0..=MAX_RANK_DECIMALS).find_map(|k| {
            let scale = 10u64.pow(k);
            let digits = (rank * scale as f64).round();
            (digits >= 0.0 && digits / scale as f64 == rank).then_some((digits as u64, scale))
        })
    }

    #[test]
    fn one_test_at_thirteen_decimals_reads_every_rank_as_the_rule_does() {
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut decimals_found = 0;
        for i in 0..400_000u64 {
            let r = next();
            let rank = match i % 4 {
                // Any double in [0, 100].
                0 => (r >> 11) as f64 / (1u64 << 53) as f64 * 100.0,
                // A decimal of 0..=13 decimals, written as a literal would be.
                1 | 2 => {
                    let k = (r % 14) as u32;
                    let scale = 10u64.pow(k);
                    ((r >> 8) % (100 * scale + 1)) as f64 / scale as f64
                }
                // Doubles next to a short decimal: one or two ulps off, either way.
                _ => {
                    let base = ((r >> 8) % 100_001) as f64 / 1000.0;
                    f64::from_bits((base.to_bits() + 2).wrapping_sub(r % 5)).clamp(0.0, 100.0)
                }
            };
            let expected = decimal_by_decimal(rank);
            decimals_found += expected.is_some() as u32;
            assert_eq!(decimal_rank_searched(rank), expected, "{rank:e}");
        }
        // Both kinds were met (a model that never finds a decimal would not test much).
        assert!(
            (150_000..390_000).contains(&decimals_found),
            "{decimals_found}"
        );
        for rank in [0.0, -0.0, 100.0, 1e-13, 99.9999999999999, 5e-324, 1e-300] {
            assert_eq!(
                decimal_rank_searched(rank),
                decimal_by_decimal(rank),
                "{rank:e}"
            );
        }
    }

    #[test]
    fn decimal_ranks_are_read_as_written() {
        assert_eq!(decimal_rank(99.9), Some((999, 10)));
        assert_eq!(decimal_rank(50.0), Some((50, 1)));
        assert_eq!(decimal_rank(99.99), Some((9999, 100)));
        assert_eq!(decimal_rank(97.5), Some((975, 10)));
        assert_eq!(decimal_rank(100.0 / 3.0), None);
        assert_eq!(decimal_rank(1e-300), None);
    }

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
