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
//! statistic ([`look_level`]); an interval from Student's t (builds or processes as the
//! unit) is widened to the t quantile of that level, one from the normal (the paired
//! rounds' signed-rank interval) to Pocock's constant itself. A comparison that reaches its
//! last look unanswered is [`Verdict::NotSettled`]: its interval is kept, and its half-width
//! (at least the threshold) is the smallest change it could have found.

use super::apart::t_995;
use super::shift::{rounds_needed, Design};
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

/// Pocock's constant for `looks` looks (1 % two-sided; past 10 looks, 10's).
pub fn pocock(looks: usize) -> f64 {
    POCOCK_1_PERCENT[looks.clamp(1, POCOCK_1_PERCENT.len()) - 1]
}

/// The two-sided level each of `looks` looks is judged at: the probability that a standard
/// normal lies beyond Pocock's constant ([`pocock`]).
pub fn look_level(looks: usize) -> f64 {
    erfc(pocock(looks) / core::f64::consts::SQRT_2)
}

/// The complementary error function, from its Chebyshev fit of fractional error below
/// 1.2·10⁻⁷ (Numerical Recipes' `erfcc`).
pub fn erfc(x: f64) -> f64 {
    const C: [f64; 10] = [
        -1.265_512_23,
        1.000_023_68,
        0.374_091_96,
        0.096_784_18,
        -0.186_288_06,
        0.278_868_07,
        -1.135_203_98,
        1.488_515_87,
        -0.822_152_23,
        0.170_872_77,
    ];
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let poly = C.iter().rev().fold(0.0, |acc, c| c + t * acc);
    let tail = t * (-z * z + poly).exp();
    match x >= 0.0 {
        true => tail,
        false => 2.0 - tail,
    }
}

/// `P(|T| > t)` for Student's t with `df` degrees of freedom (1 or more), from the finite
/// sums of `cos θ` powers that integer degrees of freedom allow (`θ = atan(t/√df)`;
/// Abramowitz & Stegun 26.7.3–4).
pub fn t_tail(t: f64, df: usize) -> f64 {
    let theta = (t.abs() / (df.max(1) as f64).sqrt()).atan();
    let (s, c2) = (theta.sin(), theta.cos().powi(2));
    let within = match df {
        0 | 1 => 2.0 * theta / core::f64::consts::PI,
        d if d % 2 == 1 => {
            let (mut term, mut sum) = (theta.cos(), theta.cos());
            for j in (3..=d - 2).step_by(2) {
                term *= c2 * (j - 1) as f64 / j as f64;
                sum += term;
            }
            2.0 / core::f64::consts::PI * (theta + s * sum)
        }
        d => {
            let (mut term, mut sum) = (1.0, 1.0);
            for j in (2..=d - 2).step_by(2) {
                term *= c2 * (j - 1) as f64 / j as f64;
                sum += term;
            }
            s * sum
        }
    };
    (1.0 - within).max(0.0)
}

/// The `t` with `P(|T| > t) = level` for Student's t with `df` degrees of freedom: by
/// bisection on [`t_tail`].
pub fn t_critical(level: f64, df: usize) -> f64 {
    let mut high = 1.0;
    while t_tail(high, df) > level && high < 1e12 {
        high *= 2.0;
    }
    let mut low = 0.0;
    for _ in 0..200 {
        let mid = 0.5 * (low + high);
        match t_tail(mid, df) > level {
            true => low = mid,
            false => high = mid,
        }
    }
    0.5 * (low + high)
}

/// How many times wider a look's interval is than `c`'s 99 % one under `boundary` with
/// `looks` looks: the look's critical value over the 99 % one, of `c`'s reference
/// distribution (Student's t for builds or processes as the unit, else the normal).
pub fn widening(c: &Comparison, boundary: Boundary, looks: usize) -> f64 {
    if boundary == Boundary::Plain || looks <= 1 {
        return 1.0;
    }
    let level = look_level(looks);
    match &c.builds {
        Some(b) if b.per_side >= 2 => {
            let df = 2 * b.per_side - 2;
            t_critical(level, df) / t_995(df)
        }
        _ => pocock(looks) / Z_995,
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

/// Judge `c` at look `taken` of `of` (`seconds` of rounds so far) under `boundary`: its
/// interval widened to the look's, and, at the last look, a verdict that did not settle
/// becomes [`Verdict::NotSettled`]. Whether the look settled it.
pub fn judge_look(
    c: &mut Comparison,
    boundary: Boundary,
    (taken, of): (usize, usize),
    seconds: f64,
) -> bool {
    widen(c, widening(c, boundary, of));
    let done = settled(c);
    let judged = !matches!(c.verdict, Verdict::NotEnoughRounds);
    if !done && taken >= of && judged {
        c.verdict = Verdict::NotSettled;
    }
    c.looks = Some(Looks {
        taken,
        of,
        seconds,
        settled: done,
    });
    done
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The probability that a standardized Gaussian random walk, `|S_k / √k|`, passes `c`
    /// at any of `looks` looks: the density of the walk not yet stopped, carried from look
    /// to look on a grid by the trapezoid rule (Armitage, McPherson & Rowe's recursion).
    fn crossing(c: f64, looks: usize) -> f64 {
        const N: usize = 241;
        let phi = |x: f64| (-0.5 * x * x).exp() / (2.0 * core::f64::consts::PI).sqrt();
        let grid = |k: usize| {
            let b = c * (k as f64).sqrt();
            let h = 2.0 * b / (N - 1) as f64;
            (
                (0..N)
                    .map(|i| -b + h * i as f64)
                    .collect::<std::vec::Vec<f64>>(),
                h,
            )
        };
        let weight = |i: usize| if i == 0 || i == N - 1 { 0.5 } else { 1.0 };
        let (mut xs, mut h) = grid(1);
        let mut f: std::vec::Vec<f64> = xs.iter().map(|&x| phi(x)).collect();
        for k in 2..=looks {
            let (next, hn) = grid(k);
            let g = next.iter().map(|&x| {
                let each = xs.iter().zip(&f).enumerate();
                h * each
                    .map(|(i, (y, fy))| weight(i) * fy * phi(x - y))
                    .sum::<f64>()
            });
            f = g.collect();
            (xs, h) = (next, hn);
        }
        1.0 - h * f
            .iter()
            .enumerate()
            .map(|(i, v)| weight(i) * v)
            .sum::<f64>()
    }

    #[test]
    fn pococks_constants_hold_the_looks_to_one_percent() {
        for looks in 1..=POCOCK_1_PERCENT.len() {
            let p = crossing(pocock(looks), looks);
            assert!((p - 0.01).abs() < 2e-4, "{looks} looks: {p}");
            // Looked at that often, the single 99 % edge is crossed far more often.
            if looks >= 4 {
                assert!(crossing(Z_995, looks) > 0.025, "{looks} looks");
            }
        }
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
