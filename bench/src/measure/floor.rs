//! Figures near 0 that a measurement cannot vouch for. Every figure is what a batch measured
//! less what the batch costs beside its work: the read pair's median, and a baseline's
//! median per operation (a binding's call of an empty function). Where that exceeds what
//! was measured, the figure is recorded as 0 and counted as floored: a median of 0 that the
//! work never had. And a median no larger than the spread of what an empty measurement gives
//! is below the measurement's resolution: it cannot be told from nothing. A metric that is
//! either is flagged, in the report, the JSON, the HTML page, each comparison and every
//! binding's result.

use std::string::String;
use std::vec::Vec;

use super::conditions::Conditions;
use super::meter::{Metric, Unit, SCALE};
use super::result::{BenchResult, MetricResult};

/// Half the distance between the first and the third quartile of `values` (nearest rank;
/// sorted in place; 0 when empty): how far half of them stray from their median, whatever
/// their tails.
pub fn quartile_deviation(values: &mut [u64]) -> u64 {
    values.sort_unstable();
    let n = values.len() as u128;
    let at = |rank: f64| values[picollo::rank_to_count(rank, n) as usize - 1];
    match n {
        0 => 0,
        _ => (at(75.0) - at(25.0)) / 2,
    }
}

/// The resolution of `metric`'s per-operation figures, in thousandths of its unit: the
/// quartile deviation of what an empty measurement gives per operation, the read pairs'
/// (`pairs`, over the batch `k`; for time at least the clock's step, which calibration
/// puts there) or the baseline's own figures (`baseline`), whichever is wider. An exact count has none (0): the same work gives the same count. A time is never
/// resolved below the figures' own step of 1 ps, since no work takes no time; a count of 0
/// where nothing noisy was subtracted is a count, and its resolution 0.
pub fn resolution(metric: &Metric, pairs: u64, k: u64, baseline: u64) -> u64 {
    if metric.is_exact() {
        return 0;
    }
    let widest = pairs.div_ceil(k.max(1)).max(baseline);
    match metric.unit {
        Unit::Nanoseconds => widest.max(1),
        Unit::Events | Unit::Bytes => widest,
    }
}

/// `value` (in the metric's unit) as the notes write it: three decimals and the unit.
fn in_unit(metric: &Metric, value: f64) -> String {
    std::format!("{} {}", picollo::GroupedF64(value, 3), metric.unit)
}

/// Thousandths of a unit in the unit.
fn unit(thousandths: u64) -> f64 {
    thousandths as f64 / SCALE as f64
}

/// `share` (0 to 1) in percent with one decimal, `< 0.1 %` for a share that rounds to 0.
fn percent(share: f64) -> String {
    match share * 100.0 {
        p if p > 0.0 && p < 0.05 => "< 0.1 %".into(),
        p => std::format!("{p:.1} %"),
    }
}

impl MetricResult {
    /// Samples recorded.
    fn sample_count(&self) -> u64 {
        self.histogram.view().total_count()
    }

    /// The share of samples floored at 0, 0 to 1 (0 without samples).
    pub fn floored_share(&self) -> f64 {
        match self.sample_count() {
            0 => 0.0,
            n => self.floored as f64 / n as f64,
        }
    }

    /// The median per operation in thousandths of the unit, as the histogram gives it.
    pub fn median_thousandths(&self) -> Option<u64> {
        self.histogram.view().percentile_value(50.0).ok()
    }

    /// The median is no larger than the resolution (where there is one): it cannot be told
    /// from the spread of what an empty measurement gives.
    pub fn below_resolution(&self) -> bool {
        let median = self.median_thousandths();
        self.resolution > 0 && median.is_some_and(|m| m <= self.resolution)
    }

    /// Some sample was floored at 0, or the median is below the resolution: the figures
    /// near 0 are not the work's.
    pub fn flagged(&self) -> bool {
        self.floored > 0 || self.below_resolution()
    }

    /// The short note of a flagged metric's row: `floored 21.4 %`, `P50 ≤ resolution
    /// 0.812 ns` (the resolution as `show` writes a figure in the unit), or both, joined by
    /// a comma; `None` when it is not flagged.
    pub(crate) fn mark(&self, show: &dyn Fn(f64) -> String) -> Option<String> {
        let mut parts = Vec::new();
        if self.floored > 0 {
            parts.push(std::format!("floored {}", percent(self.floored_share())));
        }
        if self.below_resolution() {
            let r = unit(self.resolution);
            parts.push(std::format!("P50 ≤ resolution {}", show(r)));
        }
        (!parts.is_empty()).then(|| parts.join(", "))
    }

    /// What was subtracted from the metric's figures, as its floor warning names it: the
    /// read pair's median (where it was not 0) and the median of `baseline` (the name of
    /// the result whose medians were, where there was one).
    fn subtracted(&self, baseline: Option<&str>) -> String {
        let pair = (self.overhead > 0).then(|| "the read pair's median".to_string());
        let base = baseline.map(|b| std::format!("the median of {b}"));
        let parts: Vec<String> = pair.into_iter().chain(base).collect();
        parts.join(" and ")
    }

    /// The sentences that say why a flagged metric's figures are not the work's: the
    /// samples floored, with what was subtracted (the medians of `c.baseline`, where the
    /// result had one), and a median below the resolution. A sample is a batch, or a
    /// run where the result's operation is one (a command's).
    pub(crate) fn floor_warnings(&self, c: &Conditions) -> Vec<String> {
        let (m, mut out) = (&self.metric, Vec::new());
        let (samples, sample) = match c.operation.as_str() {
            "run" => ("runs", "run"),
            _ => ("samples", "batch"),
        };
        if self.floored > 0 {
            out.push(std::format!(
                "{}: floored at 0 in {} of {} {samples} ({}): what was subtracted ({}) \
                 exceeded what the {sample} measured, so its figures near 0 are floors, not \
                 the work's",
                m.name,
                picollo::GroupedF64(self.floored as f64, 0),
                picollo::GroupedF64(self.sample_count() as f64, 0),
                percent(self.floored_share()),
                self.subtracted(c.baseline.as_deref())
            ));
        }
        if self.below_resolution() {
            out.push(std::format!(
                "{}: its median, {}, is within the resolution of {} (the quartile deviation \
                 of what an empty measurement gives per operation): it cannot be told from \
                 nothing",
                m.name,
                in_unit(m, unit(self.median_thousandths().unwrap_or(0))),
                in_unit(m, unit(self.resolution))
            ));
        }
        out
    }
}

/// The end of a comparison's verdict line, a note per side whose time is flagged (the
/// verdict is judged on time): ` [A's time: floored 21.4 %]`, or empty.
pub(crate) fn verdict_caveat(sides: &[&BenchResult]) -> String {
    let flagged = sides.iter().filter_map(|r| {
        let t = r.time();
        let mark = t.mark(&|v| in_unit(&t.metric, v))?;
        Some(std::format!(" [{}'s {}: {mark}]", r.name, t.metric.name))
    });
    flagged.collect()
}

/// Per side and flagged metric, its warning sentences prefixed by the side's name, as a
/// comparison lists them.
pub(crate) fn floor_warnings(sides: &[&BenchResult]) -> Vec<String> {
    let each = sides.iter().flat_map(|r| {
        let sentences = r
            .metrics
            .iter()
            .flat_map(move |m| m.floor_warnings(&r.conditions));
        sentences.map(move |s| std::format!("{}: {s}", r.name))
    });
    each.collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::measure::meter::MetricKind;

    #[test]
    fn the_quartile_deviation_is_half_the_distance_between_the_quartiles() {
        // 1..=8: P25 is the 2nd value, P75 the 6th (nearest rank).
        let mut v: Vec<u64> = (1..=8).rev().collect();
        assert_eq!(quartile_deviation(&mut v), 2);
        assert_eq!(quartile_deviation(&mut [5, 5, 5, 9]), 0);
        assert_eq!(quartile_deviation(&mut []), 0);
    }

    #[test]
    fn a_time_is_never_resolved_below_a_picosecond_and_an_exact_count_always_is() {
        let time = Metric::time();
        let misses = Metric::new("misses", Unit::Events, MetricKind::Counter);
        let exact = Metric::new("Emulated:Instructions", Unit::Events, MetricKind::Exact);
        assert_eq!(resolution(&time, 0, 10, 0), 1);
        assert_eq!(resolution(&time, 2_000, 10, 150), 200);
        assert_eq!(resolution(&time, 2_000, 10, 900), 900);
        assert_eq!(resolution(&misses, 0, 10, 0), 0);
        assert_eq!(resolution(&exact, 5_000, 1, 7_000), 0);
    }

    #[test]
    fn a_share_that_rounds_to_nothing_still_says_it_is_there() {
        assert_eq!(percent(0.0001), "< 0.1 %");
        assert_eq!(percent(0.214), "21.4 %");
        assert_eq!(percent(0.0), "0.0 %");
    }
}
