//! The one place where the reports of an integer and a floating-point summary differ.

use core::fmt::{self, Write};

use super::table::Table;

/// A summary's value domain: the `u64` values of an integer histogram ([`crate::Summary`])
/// or the `f64` values of a floating-point one (`FloatSummary`).
///
/// The two kinds of summary differ in how a value prints and in which counts and
/// statistics stand beside their 16 percentiles. Everything else a report does (a row per
/// rank, the outside counts, the Δ% of the diff table, Cohen's d) is the same, written
/// once over this trait: the Markdown table in `markdown.rs`, the diff table in `diff.rs`.
/// It exists so that a report's layout changes in one place for both kinds.
pub(crate) trait Domain {
    /// A value: `u64` or `f64`.
    type Value: Copy;
    /// How values print: integers in a unit, doubles to the layout's significant digits.
    type Style: Copy;

    /// The style of a report over `summaries` (one, or the two sides of a diff), with
    /// values divided by `unit_ratio` where the domain scales them (integers; a ratio that
    /// is not finite and above 0 is refused with `fmt::Error`).
    fn style(summaries: &[&Self], unit_ratio: f64) -> Result<Self::Style, fmt::Error>;
    /// A value: a percentile, a bucket bound.
    fn write_value(style: Self::Style, w: &mut dyn Write, v: Self::Value) -> fmt::Result;
    /// The ± of a percentile, after the `±` sign.
    fn write_plus_minus(style: Self::Style, w: &mut dyn Write, v: Self::Value) -> fmt::Result;
    /// A statistic over values (mean, stdev, an extreme).
    fn write_stat(style: Self::Style, w: &mut dyn Write, x: f64) -> fmt::Result;
    /// A value as a double, for the Δ% of the diff table.
    fn as_f64(v: Self::Value) -> f64;

    /// The percentile of the `k`-th standard rank: rank, value, ± and the count the rank
    /// points at.
    fn ranked(&self, k: usize) -> Ranked<Self::Value>;
    /// Values in buckets: what the percentiles cover.
    fn total(&self) -> u64;
    /// The layout's relative error.
    fn precision(&self) -> f64;
    /// Mean and population standard deviation (NaN when empty).
    fn moments(&self) -> (f64, f64);
    /// The counts beside the buckets, zeros included, each with its row label and its JSON
    /// key.
    fn outside(&self) -> impl Iterator<Item = (&'static str, &'static str, u64)>;
    /// The statistics shown in pairs (a table row per pair, a diff row per statistic),
    /// with their labels: Mean and StDev first.
    fn stats(&self) -> impl Iterator<Item = [(&'static str, f64); 2]>;
    /// The Markdown table's last rows, after the statistics.
    fn table_tail(&self, t: &mut Table<'_>, style: Self::Style) -> fmt::Result;

    /// A value as a JSON number: an integer, or a double with a fraction or an exponent.
    fn write_json_value(w: &mut dyn Write, v: Self::Value) -> fmt::Result;
    /// The JSON keys and values of the range, first in the object.
    fn json_range(&self) -> [(&'static str, Self::Value); 2];
    /// The JSON keys and values of the counts in buckets this domain names apart, between
    /// `totalCount` and the counts beside the buckets.
    fn json_counts(&self) -> impl Iterator<Item = (&'static str, u64)>;
    /// The JSON keys and values of the statistics only this domain has, before `mean`.
    fn json_stats(&self) -> impl Iterator<Item = (&'static str, f64)>;
    /// The JSON keys and values of the bounds of the `k`-th percentile's bucket.
    fn json_bounds(&self, k: usize) -> [(&'static str, Self::Value); 2];
}

/// The [`Domain`] methods that read fields both summaries name alike (`percentiles` with
/// `rank`, `value`, `plus_minus`, `count`, `cumulative_count` and `rank_count`; `total`,
/// `precision`, `mean`, `stdev`),
/// for a `Domain` impl block.
macro_rules! common_fields {
    () => {
        fn ranked(&self, k: usize) -> $crate::format::domain::Ranked<Self::Value> {
            let p = &self.percentiles[k];
            $crate::format::domain::Ranked {
                rank: p.rank,
                value: p.value,
                plus_minus: p.plus_minus,
                count: p.count,
                cumulative_count: p.cumulative_count,
                rank_count: p.rank_count,
            }
        }
        fn total(&self) -> u64 {
            self.total
        }
        fn precision(&self) -> f64 {
            self.precision
        }
        fn moments(&self) -> (f64, f64) {
            (self.mean, self.stdev)
        }
    };
}
pub(crate) use common_fields;

/// The methods and the `Display` that [`crate::Summary`] and `FloatSummary` share (the
/// queries, Cohen's d and the diff table at unit ratio 1), for the summary type `$summary`
/// of percentiles `$percentile`.
macro_rules! summary_methods {
    ($summary:ident, $percentile:ty) => {
        impl $summary {
            /// The percentile for one of the standard ranks (`None` for any other rank).
            pub fn get(&self, rank: f64) -> Option<&$percentile> {
                Some(&self.percentiles[$crate::summary::standard_position(rank)?])
            }

            /// The median.
            pub fn p50(&self) -> &$percentile {
                &self.percentiles[$crate::summary::P50]
            }

            /// The 99th percentile.
            pub fn p99(&self) -> &$percentile {
                &self.percentiles[$crate::summary::P99]
            }

            /// Cohen's d of `other` against `self`: `(mean_b − mean_a) / s_pooled`, with
            /// `s_pooled = sqrt(((n_a − 1)·s_a² + (n_b − 1)·s_b²) / (n_a + n_b − 2))` over
            /// *sample* variances. `None` when it is undefined: fewer than 3 values in all,
            /// an empty side, or no spread at all.
            pub fn cohens_d(&self, other: &$summary) -> Option<f64> {
                $crate::format::domain::cohens_d(self, other)
            }

            /// The diff table of `other` (B) against `self` (A): `| Percentile | A | B | Δ% |`
            /// per standard rank, then a row per statistic (Mean, StDev; a `FloatSummary`
            /// adds Min and Max), Precision, Total and the D-value (Cohen's d, `n/a` when
            /// undefined). `name_a` and `name_b` head the value columns.
            pub fn write_diff(
                &self,
                other: &$summary,
                w: &mut dyn core::fmt::Write,
                title: &str,
                name_a: &str,
                name_b: &str,
            ) -> core::fmt::Result {
                $crate::format::diff::write_diff(self, other, w, title, [name_a, name_b], 1.0)
            }

            /// The summary as a JSON object (no trailing newline): its range, `totalCount`,
            /// the counts beside the buckets, the statistics (`null` when not known),
            /// `precision`, and `percentiles`: objects with `rank`, `value`, `plusMinus`, the
            /// bucket's bounds, `count`, `cumulativeCount` and `rankCount`. The fields of
            /// each kind are listed on its summary type.
            pub fn write_json(&self, w: &mut dyn core::fmt::Write) -> core::fmt::Result {
                $crate::format::json::write_json(self, w)
            }
        }

        impl core::fmt::Display for $summary {
            /// The Markdown table under the title "Histogram summary".
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                self.write_table(f, "Histogram summary")
            }
        }
    };
}
pub(crate) use summary_methods;

/// The `Default` of [`crate::Summary`] and `FloatSummary`, the summary of no values: each
/// percentile of `$percentile` at its standard rank and otherwise default, no counts, mean
/// and stdev not known (NaN), precision 0, and the fields of `$summary` alone as
/// given after `with`.
macro_rules! summary_default {
    ($summary:ident, $percentile:ident, with { $($own:ident: $value:expr),+ $(,)? }) => {
        impl Default for $summary {
            fn default() -> Self {
                $summary {
                    percentiles: $crate::summary::ranked(|rank| $percentile {
                        rank,
                        ..$percentile::default()
                    }),
                    total: 0,
                    underflow: 0,
                    overflow: 0,
                    saturated: 0,
                    mean: f64::NAN,
                    stdev: f64::NAN,
                    precision: 0.0,
                    $($own: $value),+
                }
            }
        }
    };
}
pub(crate) use summary_default;

/// What a report shows of one percentile.
#[derive(Clone, Copy)]
pub(crate) struct Ranked<V> {
    /// The rank in percent.
    pub(crate) rank: f64,
    /// The reported value.
    pub(crate) value: V,
    /// The largest distance from `value` to a value of its bucket.
    pub(crate) plus_minus: V,
    /// The bucket's count.
    pub(crate) count: u64,
    /// Values up to and including the bucket.
    pub(crate) cumulative_count: u64,
    /// The count the rank points at.
    pub(crate) rank_count: u64,
}

/// Cohen's d of `b` against `a`: `(mean_b − mean_a) / s_pooled`, with
/// `s_pooled = sqrt(((n_a − 1)·s_a² + (n_b − 1)·s_b²) / (n_a + n_b − 2))` over *sample*
/// variances. `None` when it is undefined: fewer than 3 values in all, an empty side, or
/// no spread at all.
pub(crate) fn cohens_d<S: Domain>(a: &S, b: &S) -> Option<f64> {
    let (na, nb) = (a.total() as f64, b.total() as f64);
    if na < 1.0 || nb < 1.0 || na + nb < 3.0 {
        return None;
    }
    let ((mean_a, sa), (mean_b, sb)) = (a.moments(), b.moments());
    // (n − 1)·s² = n·σ² with the population σ; this also covers n = 1 (σ = 0).
    let pooled = crate::fmath::sqrt((na * sa * sa + nb * sb * sb) / (na + nb - 2.0));
    let d = (mean_b - mean_a) / pooled;
    (pooled > 0.0 && d.is_finite()).then_some(d)
}
