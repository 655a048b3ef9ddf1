//! Verdicts that stop once they are settled. A comparison of two builds looks at its rounds
//! after each of up to [`LOOKS`] equal shares of its rounds, and stops at the first look
//! whose interval answers the gate's question: B slower (or faster) by the threshold or more,
//! or B not slower by it. Looking often and stopping at the first answer would call
//! identical builds different more often than 1 in 100, since each look is another chance
//! for noise to cross a 99 % interval's edge; so each look's interval is a *repeated
//! confidence interval* (Jennison & Turnbull, "Interim analyses: the repeated confidence
//! interval approach", JRSS B 51, 1989): widened from the 99 % interval by Pocock's
//! constant for the count of looks (Pocock, "Group sequential methods in the design and
//! analysis of clinical trials", Biometrika 64, 1977), the edge a standardized Gaussian
//! random walk crosses at any of `K` equally spaced looks with probability 1 %. Every
//! look's interval then holds the true change at once with 99 % probability, whichever look
//! the comparison stops at: the verdict is as true as a single 99 % interval's.
//!
//! Each look's two-sided level is the one Pocock's constant leaves a standard normal
//! statistic ([`Looking`]); an interval from Student's t (builds or processes as the unit)
//! is widened to the t quantile of that level, one from the normal (the paired rounds'
//! signed-rank interval) to Pocock's constant itself. A suite's benchmarks share the 1 %:
//! with `N` of them, each comparison's looks are judged at Pocock's constant for `1 % / N`
//! (Bonferroni over the benchmarks), so that identical builds fail the gate on any one
//! benchmark no more often than 1 in 100 runs, however many the suite holds. A comparison that reaches its
//! last look unanswered is [`Verdict::NotSettled`]: its interval is kept, and its half-width
//! (at least the threshold) is the smallest change it could have found.

use super::apart::t_995;
use super::shift::{rounds_needed, Design};
use super::tails::{erfc, normal_critical, pocock_for, t_critical};
use super::verdict::{Comparison, Looks, Verdict};

/// The most looks a comparison takes: after each eighth of its rounds.
pub const LOOKS: usize = 8;

/// The fewest rounds between two looks where builds (or processes) are the unit: fewer looks
/// where the rounds are few (a count of looks is fixed before the first, as Pocock's
/// constants assume).
pub const ROUNDS_A_LOOK: usize = 4;

/// How many looks `rounds` rounds take, `k` builds a side: every look's rounds enough for a
/// verdict (a side of one build is judged on its paired rounds, which need
/// [`rounds_needed`] of them), at most [`LOOKS`], at least one.
pub fn looks_of(rounds: usize, k: usize) -> usize {
    let a_look = match k {
        0 | 1 => rounds_needed(Design::Paired),
        _ => ROUNDS_A_LOOK,
    };
    LOOKS.min(rounds / a_look.max(1)).max(1)
}

/// Pocock's constants for a two-sided 1 % over `K` = 1 to 10 equally spaced looks (the
/// tests recompute them by numerical integration).
pub const POCOCK_1_PERCENT: [f64; 10] = [
    2.576, 2.772, 2.873, 2.939, 2.986, 3.023, 3.053, 3.078, 3.099, 3.117,
];

/// The two-sided 99 % quantile of the standard normal.
const Z_995: f64 = 2.575_829_303_549;

/// How a comparison's looks are judged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Boundary {
    /// Each look's interval widened to Pocock's level for the count of looks: the looks
    /// together hold 99 %.
    Pocock,
    /// Each look's interval the plain 99 % one: repeated looks without accounting, whose
    /// false verdicts grow with the looks (kept to show what the accounting buys).
    Plain,
}

/// The family-wise error a suite's comparisons share: 1 % for all its benchmarks together.
pub const ALPHA: f64 = 0.01;

/// A comparison's sequential design: how its looks are judged, how many it takes, and the
/// two-sided level of each look.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Looking {
    /// How the looks are judged.
    pub boundary: Boundary,
    /// The most looks.
    pub looks: usize,
    /// Each look's two-sided level.
    pub level: f64,
}

impl Looking {
    /// `looks` looks under `boundary` for one of `family` comparisons that share [`ALPHA`]
    /// (a suite's benchmarks: the chance that any of identical builds' benchmarks is
    /// called different stays 1 %): each look at the level Pocock's constant for
    /// `ALPHA / family` over `looks` looks leaves a standard normal (the table for one; else
    /// computed, [`pocock_for`]). [`Boundary::Plain`]: every look at `ALPHA / family`.
    pub fn new(boundary: Boundary, looks: usize, family: usize) -> Looking {
        let looks = looks.max(1);
        let alpha = ALPHA / family.max(1) as f64;
        let edge = match (boundary, family) {
            (Boundary::Plain, _) => normal_critical(alpha),
            (_, 0 | 1) if looks <= POCOCK_1_PERCENT.len() => POCOCK_1_PERCENT[looks - 1],
            _ => pocock_for(alpha, looks),
        };
        let level = erfc(edge / core::f64::consts::SQRT_2);
        Looking {
            boundary,
            looks,
            level,
        }
    }

    /// How many times wider a look's interval is than `c`'s 99 % one: the look's critical
    /// value over the 99 % one, of `c`'s reference distribution (Student's t for builds or
    /// processes as the unit, else the normal).
    pub fn widening(&self, c: &Comparison) -> f64 {
        match &c.builds {
            Some(b) if b.per_side >= 2 => {
                let df = 2 * b.per_side - 2;
                t_critical(self.level, df) / t_995(df)
            }
            _ => normal_critical(self.level) / Z_995,
        }
    }
}

/// `c`'s interval widened `factor` times about its estimate on the log scale (a ratio's
/// interval stays a ratio's), its noise floor and verdict with it. An exact count
/// ([`Comparison::steady`]) and an interval without bounds are left as they are.
pub fn widen(c: &mut Comparison, factor: f64) {
    let ch = &mut c.change;
    if c.steady.is_some() || !ch.half_width().is_finite() || factor == 1.0 {
        return;
    }
    let log = |p: f64| (p / 100.0).ln_1p();
    let (e, low, high) = (log(ch.estimate), log(ch.low), log(ch.high));
    if !(low.is_finite() && high.is_finite()) {
        return;
    }
    let percent = |x: f64| x.exp_m1() * 100.0;
    ch.low = percent(e - (e - low) * factor);
    ch.high = percent(e + (high - e) * factor);
    c.noise_floor = ch.half_width();
    c.verdict = Verdict::of(ch, c.threshold);
}

/// `c`'s interval answers the gate's question: slower or faster by the threshold or more,
/// or not slower by it (its upper end below the threshold); an exact count always does.
pub fn settled(c: &Comparison) -> bool {
    if c.steady.is_some() {
        return true;
    }
    match c.verdict {
        Verdict::Slower(_) | Verdict::Faster(_) => true,
        Verdict::NoDifference | Verdict::WithinNoise(_) => c.change.high < c.threshold,
        _ => false,
    }
}

/// The smallest change `c` could have found: its interval's half-width, at least the
/// threshold (a change below it is never called slower).
pub fn could_see(c: &Comparison) -> f64 {
    c.noise_floor.max(c.threshold)
}

/// Judge `c` at look `taken` of `design`'s (`seconds` of rounds so far): its interval
/// widened to the look's, and, at the last look, a verdict that did not settle becomes
/// [`Verdict::NotSettled`]. Whether the look settled it.
pub fn judge_look(c: &mut Comparison, design: &Looking, taken: usize, seconds: f64) -> bool {
    widen(c, design.widening(c));
    let done = settled(c);
    let judged = !matches!(c.verdict, Verdict::NotEnoughRounds);
    if !done && taken >= design.looks && judged {
        c.verdict = Verdict::NotSettled;
    }
    c.looks = Some(Looks {
        taken,
        of: design.looks,
        seconds,
        settled: done,
    });
    done
}

#[cfg(test)]
mod tests {
    use super::super::tails::{crossing, t_tail};
    use super::*;

    #[test]
    fn pococks_constants_hold_the_looks_to_one_percent() {
        for looks in 1..=POCOCK_1_PERCENT.len() {
            let p = crossing(POCOCK_1_PERCENT[looks - 1], looks);
            assert!((p - 0.01).abs() < 2e-4, "{looks} looks: {p}");
            // Looked at that often, the single 99 % edge is crossed far more often.
            if looks >= 4 {
                assert!(crossing(Z_995, looks) > 0.025, "{looks} looks");
            }
        }
    }

    #[test]
    fn the_constant_computed_for_one_percent_is_the_tables_and_a_family_widens_it() {
        for looks in [2, 8] {
            let c = pocock_for(ALPHA, looks);
            assert!(
                (c - POCOCK_1_PERCENT[looks - 1]).abs() < 0.005,
                "{looks}: {c}"
            );
        }
        let one = Looking::new(Boundary::Pocock, 8, 1);
        let many = Looking::new(Boundary::Pocock, 8, 100);
        assert!((one.level - 0.002_084).abs() < 2e-5, "{}", one.level);
        // A hundredth of the error for each of 100 benchmarks: each look's level between
        // a hundredth of the eighth (the looks' crossings apart, Bonferroni's) and a
        // hundredth (all one crossing), and below a hundredth of one benchmark's: the
        // rarer a crossing, the less the looks' crossings overlap.
        let share = ALPHA / 100.0;
        assert!((share / 8.0..share).contains(&many.level), "{}", many.level);
        assert!(many.level < one.level / 100.0, "{}", many.level);
        let plain = Looking::new(Boundary::Plain, 8, 1);
        assert!((plain.level - ALPHA).abs() < 1e-7);
    }

    #[test]
    fn every_look_holds_rounds_enough_for_a_verdict() {
        assert_eq!(looks_of(50, 6), 8);
        assert_eq!(looks_of(10, 6), 2);
        assert_eq!(looks_of(3, 6), 1);
        // Paired rounds need 8 for a 99 % interval: 10 rounds are one look, 50 six.
        assert_eq!(looks_of(10, 1), 1);
        assert_eq!(looks_of(50, 1), 6);
        assert_eq!(looks_of(100, 1), 8);
    }

    #[test]
    fn the_error_function_and_students_tail_agree_with_their_tables() {
        assert!((erfc(Z_995 / core::f64::consts::SQRT_2) - 0.01).abs() < 1e-8);
        assert!((erfc(0.0) - 1.0).abs() < 1e-7);
        assert!((erfc(-1.0) - 1.842_700_79).abs() < 1e-6);
        for df in 1..=40 {
            let t = t_995(df);
            // The table holds 3 decimals; beyond 30, an expansion within 0.001.
            let tol = if df == 1 { 1e-4 } else { 2e-4 };
            assert!(
                (t_tail(t, df) - 0.01).abs() < tol,
                "df {df}: {}",
                t_tail(t, df)
            );
            let back = t_critical(0.01, df);
            assert!((back - t).abs() / t < 2e-3, "df {df}: {back} vs {t}");
        }
        assert!((t_tail(2.0, 1_000) - erfc(2.0 / core::f64::consts::SQRT_2)).abs() < 1e-3);
    }
}
