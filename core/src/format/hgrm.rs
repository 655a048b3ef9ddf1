//! HdrHistogram's percentile distribution (`.hgrm`): [`View::write_hgrm`], with the format
//! and its rules documented on [`HgrmOptions`].

use core::fmt::{self, Write};

#[cfg(feature = "alloc")]
use super::export::{About, Export, ExportError, Options, Out, Written};
use super::fixed::JsFixed;
use crate::counter::Counter;
use crate::layout::Layout;
use crate::view::{Counts, View};

/// HdrHistogram's percentile distribution (`.hgrm`), the text its plotters read.
///
/// [`View::write_hgrm`] writes what HdrHistogram's
/// `outputPercentileDistribution(ticksPerHalfDistance, outputValueUnitScalingRatio,
/// useCsvFormat)` writes for the same counts. For a layout with block size `B = 2^g`,
/// g ∈ {4, 7, 10, 14, 17}, our buckets are exactly those of an HdrHistogram with lowest
/// discernible value 1 and 1 to 5 significant digits, and the text is byte for byte that of
/// hdr-histogram-js 3.0.1 (the JavaScript port of the Java original), up to the limits
/// listed at the end.
///
/// # The format
/// 20,000 latency-like values in ns at 3 significant digits, unit ratio 1000 (µs), as
/// both hdr-histogram-js and Picollo print them:
/// ```text
///        Value     Percentile TotalCount 1/(1-Percentile)
///
///        1.720 0.000000000000          1           1.00
///       32.703 0.100000000000       2000           1.11
///       55.391 0.200000000000       4003           1.25
///          …
///   977797.119 0.999945068359      19999       18204.44
///   989855.743 0.999951171875      20000       20480.00
///   989855.743 1.000000000000      20000
/// #[Mean    =     5319.228, StdDeviation   =    57665.305]
/// #[Max     =   989855.743, Total count    =        20000]
/// #[Buckets =           43, SubBuckets     =         2048]
/// ```
/// - Header `%12s %14s %10s %14s`, then an empty line.
/// - One row per percentile tick: `%12.{d}f %2.12f %10d %14.2f` — the value divided by
///   the unit ratio, the tick level as a fraction, the count up to and including the
///   bucket, and `1/(1 − level)`. The last row is the 100 % row, without the last column.
/// - A footer: mean and population standard deviation, max, total count, and the number of
///   buckets and sub-buckets of the equivalent HdrHistogram. Mean, deviation and max are
///   divided by the unit ratio too.
/// - CSV: the header `"Value","Percentile","TotalCount","1/(1-Percentile)"`, the same rows
///   comma-separated without padding, `Infinity` as the 100 % row's last field, no footer.
///
/// # The rules
/// - **Decimals** `d`: the significant digits the layout honours, the largest `d` with
///   `10^d ≤ B` (1 to 5 for the matching layouts, as HdrHistogram's digits; 0 to 5 in all).
/// - **Value of a row**: the highest value of the bucket the tick lands in (HdrHistogram's
///   `highestEquivalentValue`, our [`Bucket::highest`](crate::Bucket)), whatever the view's
///   [`ValueSelection`](crate::ValueSelection).
/// - **Ticks**: levels start at 0 %. After each row the level rises by
///   `100 / (ticks · 2^(⌊log2(100 / (100 − level))⌋ + 1))`: `ticks` equal steps per half of
///   the distance left to 100 % (0–50 %, 50–75 %, 75–87.5 %, …). A bucket gets a row for
///   every level its cumulative share `100 · cumulative / total` reaches; only non-empty
///   buckets get rows. When the last bucket is reached it gets one row, then the 100 % row.
///   The arithmetic is HdrHistogram's, in doubles, including `log2` rounded to a double
///   before the floor (a level a few ulps below a power of two counts as that power).
///   A `ticks` of 0 is read as 1 (HdrHistogram would never end).
/// - **Mean and deviation**: over bucket midpoints (HdrHistogram's `medianEquivalentValue`,
///   our [`Bucket::midpoint`](crate::Bucket)), summed bucket by bucket in doubles as
///   HdrHistogram sums them (not the compensated sums of [`View::moments`]); 0 when empty.
/// - **Max**: the highest value of the highest non-empty bucket, as Java's `getMaxValue()`;
///   0 when empty.
/// - **Buckets / SubBuckets**: sub-buckets `2B = 2^(g+1)`; buckets `max(1, bits(max) − g)`
///   with `bits(max)` the bit length of the view's largest trackable value: the number of
///   buckets HdrHistogram allocates to cover `0..=max` with that many sub-buckets.
/// - **Underflow, overflow and saturated counts** are not part of the distribution: rows,
///   mean and total count cover the buckets only. When one of them is not zero, the plain
///   format adds the line
///   `#[Not in the distribution: underflow = U, overflow = O, saturated = S]` after the
///   footer (HdrHistogram never writes it, so histograms without such counts are unchanged;
///   CSV has no footer and says nothing).
/// - **Numbers** print as hdr-histogram-js prints them: integers in full; floats through
///   `Intl.NumberFormat`, i.e. the shortest decimal that reads back as the double, rounded
///   half away from zero (`0.125` with 2 decimals is `0.13`), `∞` for infinity.
/// - **Empty**: the header, no rows, and a footer of zeros.
///
/// # Where the output cannot match
/// - hdr-histogram-js prints the *largest recorded value* as Max (a raw field); Java and we
///   print the highest value of its bucket. Picollo keeps bucket counts only.
/// - Counts and values are doubles in JavaScript: totals or values from 2^53 on print
///   differently (we print integers exactly). hdr-histogram-js also misplaces the midpoint of
///   a bucket ending just below a power of two from 2^48 on (its `log2` rounds up), which
///   moves its mean and deviation.
/// - From a few 10^15 counts on, the tick level can stop rising within rounding while a
///   bucket still reaches it: hdr-histogram-js then loops forever (4.5·10^15 counts on one
///   value and 1 on another do it); we give each remaining bucket one row at that level.
/// - Views of live cells read each bucket once per pass (rows, mean, deviation); every pass
///   caps the counts at the total read first, so the footer and the rows agree with it.
///
/// # Options
/// HdrHistogram's `outputPercentileDistribution` arguments. The default is HdrHistogram's:
/// 5 ticks per half distance, unit ratio 1, plain text.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HgrmOptions {
    /// Percentile rows per half of the distance left to 100 % (0 is read as 1).
    pub ticks_per_half_distance: u32,
    /// Values, mean, deviation and max are divided by this (1000 turns ns into µs).
    pub unit_ratio: f64,
    /// CSV instead of the padded text with its footer.
    pub csv: bool,
}

impl Default for HgrmOptions {
    fn default() -> Self {
        HgrmOptions {
            ticks_per_half_distance: 5,
            unit_ratio: 1.0,
            csv: false,
        }
    }
}

impl HgrmOptions {
    /// The most rows per half distance [`HgrmOptions::check`] accepts: the text has up to 65
    /// half distances of that many rows (about 40 MB at this limit), more than any plot needs.
    pub const MAX_TICKS: u32 = 10_000;

    /// The options if a caller may ask for them: ticks 1 to [`HgrmOptions::MAX_TICKS`], a
    /// unit ratio finite and above 0.
    pub fn check(self) -> Result<Self, HgrmOptionError> {
        let ticks = self.ticks_per_half_distance;
        if !(1..=Self::MAX_TICKS).contains(&ticks) {
            return Err(HgrmOptionError::Ticks(ticks));
        }
        if !(self.unit_ratio.is_finite() && self.unit_ratio > 0.0) {
            return Err(HgrmOptionError::UnitRatio(self.unit_ratio));
        }
        Ok(self)
    }
}

/// Why [`HgrmOptions::check`] refused the options.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum HgrmOptionError {
    /// Ticks per half distance outside 1 to [`HgrmOptions::MAX_TICKS`].
    Ticks(u32),
    /// A unit ratio that is not a finite number above 0.
    UnitRatio(f64),
}

impl fmt::Display for HgrmOptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            HgrmOptionError::Ticks(t) => write!(
                f,
                "ticks_per_half_distance is {t}: it must be 1 to {} (HdrHistogram's default \
                 is 5)",
                HgrmOptions::MAX_TICKS
            ),
            HgrmOptionError::UnitRatio(r) => write!(
                f,
                "unit_ratio {r:?} is invalid: it must be a finite number above 0"
            ),
        }
    }
}

/// HdrHistogram's percentile distribution as an export format (`hgrm`).
#[cfg(feature = "alloc")]
pub(crate) struct Hgrm;

#[cfg(feature = "alloc")]
impl Export for Hgrm {
    fn about(&self) -> &'static About {
        &About {
            name: "hgrm",
            description:
                "HdrHistogram's percentile distribution (.hgrm), the text its plotters read",
            options: &[
                (
                    "ticks_per_half_distance",
                    "rows per half of the distance to 100 % (default 5)",
                ),
                (
                    "unit_ratio",
                    "values are divided by this (1000: ns as µs; default 1)",
                ),
                ("csv", "true: CSV rows without the footer (default false)"),
            ],
            binary: false,
        }
    }
    fn integer(&self, view: &View<'_, u64>, options: &Options<'_>, out: Out<'_>) -> Written {
        let d = HgrmOptions::default();
        let options = HgrmOptions {
            ticks_per_half_distance: options
                .parse("ticks_per_half_distance", d.ticks_per_half_distance)?,
            unit_ratio: options.parse("unit_ratio", d.unit_ratio)?,
            csv: options.parse("csv", d.csv)?,
        }
        .check()
        .map_err(ExportError::option)?;
        out.extend_from_slice(view.to_hgrm(&options).as_bytes());
        Ok(())
    }
}

impl<C: Counter, S: Counts<C> + ?Sized> View<'_, C, S> {
    /// Write the `.hgrm` percentile distribution: HdrHistogram's
    /// `outputPercentileDistribution` for these counts (format and rules on
    /// [`HgrmOptions`]). Writes through `w` as it goes, allocating nothing.
    ///
    /// ```
    /// use picollo::{Config, HgrmOptions, Histogram};
    /// // Block size 1024: HdrHistogram's buckets for 3 significant digits.
    /// let mut h: Histogram<u64, Vec<u64>> =
    ///     Config::new().with_relative_error(0.5 / 1024.0).build().unwrap();
    /// for v in 1..=1000 {
    ///     h.record(v);
    /// }
    /// let text = h.view().to_hgrm(&HgrmOptions::default());
    /// assert!(text.starts_with("       Value     Percentile TotalCount 1/(1-Percentile)\n\n"));
    /// assert!(text.contains("\n    1000.000 1.000000000000       1000\n"));
    /// assert!(text.ends_with("#[Buckets =           54, SubBuckets     =         2048]\n"));
    /// ```
    pub fn write_hgrm(&self, w: &mut dyn Write, options: &HgrmOptions) -> fmt::Result {
        w.write_str(if options.csv {
            "\"Value\",\"Percentile\",\"TotalCount\",\"1/(1-Percentile)\"\n"
        } else {
            "       Value     Percentile TotalCount 1/(1-Percentile)\n\n"
        })?;
        let total = self.total_wide();
        let last = self.write_hgrm_rows(w, options, total)?;
        if !options.csv {
            self.write_hgrm_footer(w, options, total, last)?;
        }
        Ok(())
    }

    /// The percentile rows; returns the storage index of the last non-empty bucket.
    fn write_hgrm_rows(
        &self,
        w: &mut dyn Write,
        options: &HgrmOptions,
        total: u128,
    ) -> Result<Option<usize>, fmt::Error> {
        let decimals = significant_digits(self.layout());
        let row = |w: &mut dyn Write, at: usize, level: f64, cumulative: u128| {
            let value = self.shape.bucket(at).highest as f64 / options.unit_ratio;
            let value = JsFixed(value, decimals);
            let fraction = JsFixed(level / 100.0, 12);
            let inverse = JsFixed(1.0 / (1.0 - level / 100.0), 2);
            match (options.csv, level < 100.0) {
                (false, true) => writeln!(
                    w,
                    "{value:>12} {fraction:>2} {cumulative:>10} {inverse:>14}"
                ),
                (false, false) => writeln!(w, "{value:>12} {fraction:>2} {cumulative:>10}"),
                (true, true) => writeln!(w, "{value},{fraction},{cumulative},{inverse}"),
                (true, false) => writeln!(w, "{value},{fraction},{cumulative},Infinity"),
            }
        };
        let ticks = options.ticks_per_half_distance.max(1) as f64;
        let mut level = 0.0f64;
        let mut cumulative = 0u128;
        let mut last = None;
        self.for_each_capped(total, |at, count| {
            cumulative += count as u128;
            last = Some(at);
            // A row for every level this bucket's cumulative share reaches; the last
            // bucket gets one (the 100 % row follows).
            let reached = 100.0 * cumulative as f64 / total as f64;
            while reached >= level {
                row(w, at, level, cumulative)?;
                let next = next_level(level, ticks);
                let stuck = next == level;
                level = next;
                if cumulative == total || stuck {
                    break;
                }
            }
            Ok(())
        })?;
        if let Some(at) = last {
            row(w, at, 100.0, total)?;
        }
        Ok(last)
    }

    /// Mean and deviation, max and total, buckets and sub-buckets, and the outside counts
    /// when there are any.
    fn write_hgrm_footer(
        &self,
        w: &mut dyn Write,
        options: &HgrmOptions,
        total: u128,
        last: Option<usize>,
    ) -> fmt::Result {
        let layout = self.layout();
        let scaled = |v: f64| JsFixed(v / options.unit_ratio, significant_digits(layout));
        let (mean, deviation) = self.hdr_moments(total);
        let max = last.map_or(0, |at| self.shape.bucket(at).highest);
        writeln!(
            w,
            "#[Mean    = {:>12}, StdDeviation   = {:>12}]",
            scaled(mean),
            scaled(deviation)
        )?;
        writeln!(
            w,
            "#[Max     = {:>12}, Total count    = {total:>12}]",
            scaled(max as f64)
        )?;
        // HdrHistogram's buckets covering 0..=max: one for the first 2B units, then one
        // per further bit of max.
        let bits = 64 - self.range().1.leading_zeros();
        writeln!(
            w,
            "#[Buckets = {:>12}, SubBuckets     = {:>12}]",
            bits.saturating_sub(layout.block_scale() + layout.unit_scale())
                .max(1),
            2 * layout.block_size()
        )?;
        let [under, over, saturated] = self.outside();
        if under != 0 || over != 0 || saturated != 0 {
            writeln!(
                w,
                "#[Not in the distribution: underflow = {under}, overflow = {over}, \
                 saturated = {saturated}]"
            )?;
        }
        Ok(())
    }

    /// The `.hgrm` text in a `String` (see [`View::write_hgrm`]).
    #[cfg(feature = "alloc")]
    pub fn to_hgrm(&self, options: &HgrmOptions) -> alloc::string::String {
        let mut text = alloc::string::String::new();
        // Writing to a String cannot fail.
        let _ = self.write_hgrm(&mut text, options);
        text
    }

    /// Call `f(storage index, count)` for each non-empty bucket in order, each count capped
    /// at what `total` leaves (counts of live cells may have grown since it was read).
    fn for_each_capped(
        &self,
        total: u128,
        mut f: impl FnMut(usize, u64) -> fmt::Result,
    ) -> fmt::Result {
        let mut left = total;
        for at in 0..self.counts.len() {
            if left == 0 {
                break;
            }
            let count = (self.counts.get(at).to_u64() as u128).min(left);
            if count != 0 {
                left -= count;
                f(at, count as u64)?;
            }
        }
        Ok(())
    }

    /// Mean and population deviation over bucket midpoints, in HdrHistogram's order of
    /// double operations (plain running sums), so the printed digits agree with it.
    fn hdr_moments(&self, total: u128) -> (f64, f64) {
        if total == 0 {
            return (0.0, 0.0);
        }
        let mut sum = 0.0f64;
        let _ = self.for_each_capped(total, |at, count| {
            sum += self.shape.bucket(at).midpoint() as f64 * count as f64;
            Ok(())
        });
        let mean = sum / total as f64;
        let mut squares = 0.0f64;
        let _ = self.for_each_capped(total, |at, count| {
            let deviation = self.shape.bucket(at).midpoint() as f64 - mean;
            squares += deviation * deviation * count as f64;
            Ok(())
        });
        (mean, crate::fmath::sqrt(squares / total as f64))
    }
}

/// The significant decimal digits a layout honours: the largest `d` with `10^d ≤ B`
/// (HdrHistogram's digits for the block sizes 16, 128, 1024, 16384 and 131072).
fn significant_digits(layout: Layout) -> usize {
    let mut digits = 0;
    let mut power = 10;
    while power <= layout.block_size() {
        digits += 1;
        power *= 10;
    }
    digits
}

/// The tick level after `level` (in percent): `ticks` equal steps per half of the distance
/// left to 100 %, computed as HdrHistogram computes it. At 100 the level stays.
fn next_level(level: f64, ticks: f64) -> f64 {
    let x = 100.0 / (100.0 - level);
    if !(x.is_finite() && x >= 1.0) {
        return level; // 100 / 0: HdrHistogram's step is 100 / ∞ = 0
    }
    let reporting_ticks = ticks * pow2(floor_log2_rounded(x) + 1);
    level + 100.0 / reporting_ticks
}

/// `⌊log2(x)⌋` for a finite `x ≥ 1` as `Math.floor(Math.log2(x))` computes it: `log2`
/// correctly rounded to a double first. For `x` a few ulps below `2^k` (`k ≥ 3`), `log2(x)`
/// lies within half an ulp of `k` and rounds to it, so the floor is `k`, not `k − 1`.
fn floor_log2_rounded(x: f64) -> i32 {
    let e = (x.to_bits() >> 52) as i32 - 1023; // x in [2^e, 2^(e+1))
    let k = e + 1;
    // x = 2^k · (1 − t), t in (0, 1/2], exactly (a power-of-two scale, then Sterbenz).
    let t = 1.0 - x * pow2(-k);
    // log2(x) = k + log2(1 − t) ≈ k − t / ln 2. Doubles just below k are 2^(p−52) apart
    // (2^(p−53) when k = 2^p is a power of two itself): within half that, log2 rounds to k.
    let p = k.ilog2() as i32;
    let spacing = if (k as u32).is_power_of_two() {
        pow2(p - 53)
    } else {
        pow2(p - 52)
    };
    if t < spacing / 2.0 * core::f64::consts::LN_2 {
        k
    } else {
        e
    }
}

/// `2^n` for `-1022 ≤ n ≤ 1023`.
fn pow2(n: i32) -> f64 {
    f64::from_bits(((1023 + n.clamp(-1022, 1023)) as u64) << 52)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floor_log2_rounds_like_javascript() {
        // Math.floor(Math.log2(x)) in Node 20 for x = 2^k · (1 − m · 2^-53): the smallest
        // m that still floors to k − 1, and the largest that floors to k.
        let below = |k: i32, m: f64| pow2(k) * (1.0 - m * pow2(-53));
        let cases = [
            (1, 1.0, 0),
            (2, 1.0, 1),
            (3, 1.0, 3),
            (3, 2.0, 2),
            (4, 1.0, 4),
            (5, 2.0, 5),
            (5, 3.0, 4),
            (9, 5.0, 9),
            (9, 6.0, 8),
            (17, 11.0, 17),
            (17, 12.0, 16),
        ];
        for (k, m, want) in cases {
            assert_eq!(floor_log2_rounded(below(k, m)), want, "k={k} m={m}");
        }
        for k in 0..60 {
            assert_eq!(floor_log2_rounded(pow2(k)), k);
            assert_eq!(floor_log2_rounded(pow2(k) * 1.5), k);
        }
    }

    #[test]
    fn levels_halve_their_step_each_half_distance() {
        let mut level = 0.0;
        let mut seen = [0.0; 16];
        for slot in seen.iter_mut() {
            *slot = level;
            level = next_level(level, 5.0);
        }
        let want = [
            0.0, 10.0, 20.0, 30.0, 40.0, 50.0, 55.0, 60.0, 65.0, 70.0, 75.0, 77.5, 80.0, 82.5,
            85.0, 87.5,
        ];
        assert_eq!(seen, want);
        assert_eq!(next_level(100.0, 5.0), 100.0);
        assert_eq!(next_level(0.0, 1.0), 50.0);
        assert_eq!(next_level(50.0, 1.0), 75.0);
    }

    #[test]
    fn digits_follow_the_block_size() {
        let digits = |scale| significant_digits(Layout::from_block_scale(scale).unwrap());
        assert_eq!(
            [4, 7, 10, 14, 17].map(digits),
            [1, 2, 3, 4, 5],
            "HdrHistogram's significant digits for its own layouts"
        );
        assert_eq!([3, 6, 9, 13, 16, 19].map(digits), [0, 1, 2, 3, 4, 5]);
    }
}
