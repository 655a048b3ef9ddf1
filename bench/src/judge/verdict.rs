//! What a comparison says: the verdict, each metric's differences, and how results
//! measured apart or over several builds were judged. The types alone: `compare.rs`,
//! `apart.rs` and `builds.rs` fill them in.

use std::string::String;
use std::vec::Vec;

use super::probe::Speed;
use super::shift::{Design, Shift};
use crate::measure::meter::{Metric, Unit};
use crate::measure::result::BenchResult;
use crate::measure::throughput::{Rate, Throughput};

/// The ranks a comparison shows.
pub const COMPARED_RANKS: [f64; 6] = [0.0, 50.0, 90.0, 99.0, 99.9, 100.0];
/// The change in percent below which a significant difference is `within noise`.
pub const DEFAULT_THRESHOLD: f64 = 1.0;

/// The overall answer about the judged metric per operation (time unless another was
/// named: [`crate::compare_on`]), at 99 % confidence.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Verdict {
    /// B takes less time than A (or counts less of the metric), by this many percent (at
    /// least the threshold).
    Faster(f64),
    /// B takes more time than A (or counts more of the metric), by this many percent (at
    /// least the threshold).
    Slower(f64),
    /// B differs from A, by this signed percentage, less than the threshold.
    WithinNoise(f64),
    /// The interval of the change holds 0.
    NoDifference,
    /// The rounds are too few for a 99 % interval (8 paired, 5 a side measured apart).
    NotEnoughRounds,
    /// Results measured apart (not interleaved) without at least two runs apart to give
    /// the spread between runs ([`crate::judge_apart`]): the rounds of two runs do not
    /// hold what changes between them, so no verdict at 99 %.
    NotEnoughRunsApart,
    /// Results measured apart whose noise floor passes [`crate::rules::NOISE_FLOOR_BOUND`]:
    /// the runs apart spread so far (a machine stepping between speeds) that the comparison
    /// could not tell B taking twice A's time from no change, so it says nothing, neither
    /// a difference nor none. Its change and interval are kept for the record.
    NotJudged,
    /// A comparison that stopped at its budget before its interval answered the gate's
    /// question ([`crate::sequential`]): neither slower by the threshold nor surely not.
    /// Its change and interval are kept, and its half-width is the smallest change it
    /// could have found.
    NotSettled,
}

impl Verdict {
    /// `faster`, `slower`, `within noise`, `no difference`, `not enough rounds`, `not
    /// enough runs apart`, `not judged` or `not settled`.
    pub fn word(&self) -> &'static str {
        match self {
            Verdict::Faster(_) => "faster",
            Verdict::Slower(_) => "slower",
            Verdict::WithinNoise(_) => "within noise",
            Verdict::NoDifference => "no difference",
            Verdict::NotEnoughRounds => "not enough rounds",
            Verdict::NotEnoughRunsApart => "not enough runs apart",
            Verdict::NotJudged => "not judged",
            Verdict::NotSettled => "not settled",
        }
    }

    /// The verdict whose [`Verdict::word`] is `word`, with a change of `p` percent where it
    /// carries one; `None` for a word no verdict has.
    pub fn from_word(word: &str, p: f64) -> Option<Verdict> {
        let every = [
            Verdict::Faster(p),
            Verdict::Slower(p),
            Verdict::WithinNoise(p),
            Verdict::NoDifference,
            Verdict::NotEnoughRounds,
            Verdict::NotEnoughRunsApart,
            Verdict::NotJudged,
            Verdict::NotSettled,
        ];
        every.into_iter().find(|v| v.word() == word)
    }

    /// A verdict was reached: faster, slower, within noise or no difference; not where
    /// the rounds or the runs apart were too few, nor where the noise floor passed its
    /// bound ([`Verdict::NotJudged`]), nor where the budget ended before the interval
    /// answered ([`Verdict::NotSettled`]). An unjudged comparison passes a gate (an
    /// unsettled one unless the gate is told otherwise), and is counted apart from the
    /// unchanged.
    pub fn judged(&self) -> bool {
        !matches!(
            self,
            Verdict::NotEnoughRounds
                | Verdict::NotEnoughRunsApart
                | Verdict::NotJudged
                | Verdict::NotSettled
        )
    }

    /// The verdict of a `change` in percent (its interval unbounded when the rounds were
    /// too few) against `threshold` percent.
    pub(crate) fn of(change: &Shift, threshold: f64) -> Self {
        let p = change.estimate;
        match change {
            c if !c.half_width().is_finite() => Verdict::NotEnoughRounds,
            c if !c.excludes_zero() => Verdict::NoDifference,
            _ if p.abs() < threshold => Verdict::WithinNoise(p),
            _ if p > 0.0 => Verdict::Slower(p),
            _ => Verdict::Faster(-p),
        }
    }
}

/// One percentile of one metric in both results.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DiffRow {
    /// The rank, in percent.
    pub rank: f64,
    /// A's value, in the metric's unit.
    pub a: f64,
    /// B's value.
    pub b: f64,
    /// `(b − a) / a` in percent (NaN where `a` is 0).
    pub change: f64,
    /// A 99 % interval of `b − a` (ranks strictly between 0 and 100 only).
    pub interval: Option<(f64, f64)>,
}

impl DiffRow {
    /// The interval lies wholly on one side of 0.
    pub fn excludes_zero(&self) -> bool {
        self.interval.is_some_and(|(lo, hi)| lo > 0.0 || hi < 0.0)
    }
}

/// One metric in both results.
#[derive(Clone, Debug, PartialEq)]
pub struct MetricDiff {
    /// The metric's name.
    pub name: String,
    /// Its unit.
    pub unit: Unit,
    /// One row per rank of [`COMPARED_RANKS`].
    pub rows: Vec<DiffRow>,
    /// Means in the unit, A then B.
    pub means: (f64, f64),
    /// Cohen's d of B against A: the means' difference over the pooled standard
    /// deviation, which a few outliers inflate (a 2x slowdown with a long tail can read 0.07).
    pub cohens_d: Option<f64>,
    /// Cliff's delta of B against A: P(b > a) − P(b < a) over every pair of samples (values
    /// in one bucket tie), −1 to 1; ranks only, so outliers move it no more than any other
    /// sample (±0.147, ±0.33 and ±0.474 are the usual small, medium and large thresholds).
    pub cliffs_delta: Option<f64>,
    /// For an exact metric (emulated counts), the difference without statistics.
    pub exact: Option<ExactDiff>,
    /// Both sides' figures are whole counts ([`MetricResult::whole`]).
    pub whole: bool,
}

/// An exact metric in both results: each side's figure per operation where every one of its
/// samples gave the same, and what follows from the two without statistics.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ExactDiff {
    /// A's figure per operation when all its samples agree, in the metric's unit.
    pub a: Option<f64>,
    /// B's, likewise.
    pub b: Option<f64>,
}

impl ExactDiff {
    /// `b − a` per operation, exactly, when both sides are constant.
    pub fn difference(&self) -> Option<f64> {
        Some(self.b? - self.a?)
    }

    /// `no difference`, `more` or `fewer` (B against A, every operation), or `varies` when
    /// a side's operations counted differently (their percentiles are compared instead).
    pub fn word(&self) -> &'static str {
        match self.difference() {
            None => "varies",
            Some(d) if d > 0.0 => "more",
            Some(d) if d < 0.0 => "fewer",
            Some(_) => "no difference",
        }
    }
}

/// Result B against result A.
#[derive(Clone, Debug, PartialEq)]
pub struct Comparison {
    /// A's name.
    pub a: String,
    /// B's name.
    pub b: String,
    /// What one operation is called (A's: `op` or `run`).
    pub operation: String,
    /// The metrics both results have, in A's order.
    pub metrics: Vec<MetricDiff>,
    /// Paired rounds (the two were interleaved) or rounds measured apart.
    pub design: Design,
    /// The rounds of A and of B.
    pub rounds: (usize, usize),
    /// The metric the verdict judges: time unless [`crate::compare_on`] named another.
    pub metric: Metric,
    /// B's figure of [`Comparison::metric`] per operation against A's, in percent of A's
    /// median round: the estimate of the shift of the rounds' medians and its 99 % interval
    /// (unbounded when the rounds are too few); where the metric was judged exactly
    /// ([`Comparison::steady`]), the difference of the medians and its bounds.
    pub change: Shift,
    /// B's figure over A's: `1 + change.estimate / 100`.
    pub ratio: f64,
    /// The smallest change in percent this comparison could tell from noise: half its
    /// interval's width.
    pub noise_floor: f64,
    /// The change in percent below which a difference is `within noise` (A's setting).
    pub threshold: f64,
    /// The verdict at 99 % confidence.
    pub verdict: Verdict,
    /// What the rounds say about the machine (drift), and each side's metrics whose
    /// figures are floored or below their resolution, each a sentence.
    pub warnings: Vec<String>,
    /// The end of the verdict line where a side's time is floored or below its resolution
    /// (` [A: time floored 21.4 %]`); empty where neither is.
    pub caveat: String,
    /// Set when the verdict was judged on runs apart ([`crate::judge_apart`]).
    pub apart: Option<Apart>,
    /// Set when the verdict was judged with builds as the unit ([`crate::judge_builds`]).
    pub builds: Option<Builds>,
    /// Set when the metric was judged exactly: a count whose figures agree within their
    /// read jitter on both sides ([`crate::rules::jitter`]); runs apart and builds then add nothing
    /// to judge, and [`crate::judge_apart`] and the others leave the verdict as it is.
    pub steady: Option<Steady>,
    /// The rates of A and of B at their median times ([`crate::BenchResult::rate`]), where
    /// both declare the same throughput ([`Comparison::set_rates`]).
    pub rates: Option<(Rate, Rate)>,
    /// Where A and B declare different work per operation (another amount, another unit,
    /// or one declares none): what each declares. No rate is compared then.
    pub throughput_differs: Option<(Option<Throughput>, Option<Throughput>)>,
    /// Set when the comparison stopped at a look of a sequential design
    /// ([`crate::sequential`]): which look, after how long, and whether it settled.
    pub looks: Option<Looks>,
}

/// Where a comparison stopped: at look `taken` of `of`, after `seconds`, and whether that
/// look's interval answered the gate's question.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Looks {
    /// The look the verdict is from, from 1.
    pub taken: usize,
    /// The most looks the comparison had.
    pub of: usize,
    /// The comparison's rounds' time until then, in seconds.
    pub seconds: f64,
    /// The look's interval answered: slower or faster by the threshold, or not slower by it.
    pub settled: bool,
}

/// A count judged without statistics: each side's figures lie within the count's read
/// jitter ([`crate::rules::jitter`]), so B − A is the difference of the medians, bounded by the
/// least and the largest difference of a figure of B and one of A.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Steady {
    /// The spread of A's figures and of B's (largest less least), in the unit per operation.
    pub spread: (f64, f64),
    /// A's median, in the unit per operation (the change's 100 %).
    pub median: f64,
    /// The figures of A and of B.
    pub figures: (usize, usize),
    /// B − A in the unit per operation: the difference of the medians, and its bounds
    /// `[min B − max A, max B − min A]`.
    pub difference: Shift,
    /// The bounds hold at 99 %: the metric is exact, or each side has enough figures that
    /// chance alone puts all of B's beyond all of A's less than once in a hundred (5 a
    /// side, as [`super::shift::rank_sum_critical`] counts them).
    pub enough: bool,
}

/// The two results of an interleaved comparison and their comparison.
#[derive(Clone, Debug)]
pub struct Interleaved {
    /// The first side.
    pub a: BenchResult,
    /// The second side.
    pub b: BenchResult,
    /// B against A, round against round.
    pub comparison: Comparison,
}

/// How a comparison of results measured apart was judged.
#[derive(Clone, Debug, PartialEq)]
pub struct Apart {
    /// The runs apart the baseline holds.
    pub runs: usize,
    /// Their spread: the standard deviation of their log median times, in percent (NaN with
    /// fewer than 2).
    pub spread: f64,
    /// A saved run's median or the new run's was floored at 0 (what was subtracted, the
    /// shell's start, exceeded what it measured): nothing to judge, whatever the runs.
    pub floored: bool,
    /// The largest saved run's median over the least (NaN with fewer than 2): how far the
    /// machine moved between the saved runs, `2.1` for a step of 2.1×. With builds, the
    /// widest of each build's own.
    pub range: f64,
    /// The noise floor the runs apart leave at no change, in percent: the least slowdown
    /// the comparison could tell from none (NaN where not judged on runs apart). From
    /// [`crate::rules::NOISE_FLOOR_BOUND`] on, the verdict is [`Verdict::NotJudged`].
    pub floor: f64,
    /// What the speed probe says of the machine ([`crate::probe::judge_speed`]);
    /// `None` where the probe was not asked (a comparison judged on runs apart alone).
    pub speed: Option<Speed>,
}

/// How a comparison of sides of several builds was judged.
#[derive(Clone, Debug, PartialEq)]
pub struct Builds {
    /// The units of each side: its builds, each as many times as it ran as a process of its
    /// own ([`Builds::processes`]).
    pub per_side: usize,
    /// The worker processes of each build (1 unless a suite started several of each:
    /// `--processes`): each keeps one placement of its code and data in memory, and the
    /// processes of one build differ by it as builds of different layouts do.
    pub processes: usize,
    /// The standard deviation, in percent, between builds of one side that the rounds'
    /// noise does not explain: what layout alone moves (0 when the noise explains it all).
    pub layout_spread: f64,
    /// Half the 99 % interval the rounds' noise alone would leave, in percent (NaN with
    /// fewer than 2 rounds a build).
    pub noise_floor: f64,
}

impl Builds {
    /// The layout spread was estimated: two builds a side or more (the processes of one
    /// build share its layout), and a figure came of them. Else it is not shown.
    pub fn layout_sampled(&self) -> bool {
        self.per_side / self.processes.max(1) >= 2 && self.layout_spread.is_finite()
    }

    /// `layout spread ±3.2 %` where it was estimated ([`Builds::layout_sampled`]), else
    /// `layout not sampled` (the line's units then say what a side held).
    pub fn layout_words(&self) -> String {
        match self.layout_sampled() {
            true => std::format!(
                "layout spread ±{}",
                crate::tell::verdict_line::pct(self.layout_spread)
            ),
            false => "layout not sampled".into(),
        }
    }

    /// What a side's units are, counted: `6 builds`, `3 processes` (of one build), or
    /// `2 builds × 3 processes`.
    pub fn units(&self) -> String {
        let builds = self.per_side / self.processes.max(1);
        match (builds, self.processes) {
            (_, 0 | 1) => std::format!("{} builds", self.per_side),
            (1, p) => std::format!("{p} processes"),
            (b, p) => std::format!("{b} builds × {p} processes"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_verdicts_word_reads_back_as_that_verdict_and_no_other_word_does() {
        let every = [
            Verdict::Faster(2.5),
            Verdict::Slower(2.5),
            Verdict::WithinNoise(2.5),
            Verdict::NoDifference,
            Verdict::NotEnoughRounds,
            Verdict::NotEnoughRunsApart,
            Verdict::NotJudged,
            Verdict::NotSettled,
        ];
        for v in every {
            assert_eq!(Verdict::from_word(v.word(), 2.5), Some(v));
        }
        let words: std::collections::BTreeSet<&str> = every.iter().map(Verdict::word).collect();
        assert_eq!(words.len(), every.len());
        assert_eq!(Verdict::from_word("unsettled", 0.0), None);
        assert!(!Verdict::NotSettled.judged());
    }
}
