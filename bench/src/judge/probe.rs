//! The speed probe: a fixed workload of the runner's own, timed before each benchmark of a
//! run that saves or is judged against runs apart, so that a gate can tell whether the
//! machine ran at the speed of the saved runs. Saved runs that agree with each other say
//! nothing of a state of the machine none of them caught (a VM that steps 2× between runs,
//! three saved runs all in its fast state): a new run in the slow state would be called
//! slower, and its benchmarks unchanged. The probe sees the step; a comparison whose new
//! probe lies outside the saved probes' range, widened by [`PROBE_TOLERANCE`], is not judged
//! ([`judge_speed`]). Figures are never divided by the probe: a frequency step, a neighbour
//! in the cache and a stolen CPU move each workload by its own factor.

use std::time::Instant;
use std::vec::Vec;

use super::shift::Shift;
use super::verdict::{Comparison, Verdict};
use crate::stats::median;

/// The probe's workload, saved with its figures: a probe of another workload (a later
/// picollo's) is not compared with this one's.
pub const PROBE_WORKLOAD: &str = "mul-xor-chain-100000";
/// How far, in percent, a new probe may lie outside the saved probes' range before the
/// machine is taken to run at another speed. On a 2-core AMD EPYC VM (Zen 4, KVM) the
/// probe repeats within 0.01 % from run to run when quiet, and moved up to 3.9 % under a
/// load of 9 runnable tasks (preemption hitting most takes); 10 % leaves room for that and
/// for a turbo that moves a little, and catches the steps of 1.8–2× a VM takes.
pub const PROBE_TOLERANCE: f64 = 10.0;
/// The dependent steps of one take: about 0.16 ms on that VM.
pub const CHAIN: u64 = 100_000;
/// The takes of one probe, half before the benchmark and half after: their median is the
/// probe's figure (a preemption that lengthens a few takes moves it little; a machine that
/// stepped while the benchmark ran moves it).
pub const PROBE_TAKES: usize = 10;

/// One take: the nanoseconds of [`CHAIN`] dependent multiply, add and xor-shift steps, an
/// integer chain whose every step waits for the last (its time is the core's latency at
/// its clock, not the memory's).
pub fn take() -> f64 {
    let started = Instant::now();
    let mut x = core::hint::black_box(1_u64);
    for _ in 0..core::hint::black_box(CHAIN) {
        x = x
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .wrapping_add(0x2545_F491_4F6C_DD1D);
        x ^= x >> 29;
    }
    core::hint::black_box(x);
    started.elapsed().as_nanos() as f64
}

/// `work` run between the two halves of a probe where `probing`: what it returns, and the
/// probe's figure (the median of [`PROBE_TAKES`] takes, in ns; NaN where not probing).
pub fn around<T>(probing: bool, work: impl FnOnce() -> T) -> (T, f64) {
    if !probing {
        return (work(), f64::NAN);
    }
    let half = PROBE_TAKES / 2;
    let mut takes: Vec<f64> = (0..half).map(|_| take()).collect();
    let done = work();
    takes.extend((half..PROBE_TAKES).map(|_| take()));
    (done, median(&mut takes))
}

/// One probe with nothing between its halves, in ns.
pub fn probe() -> f64 {
    around(true, || ()).1
}

/// What the probe says of the machine in a comparison on runs apart.
#[derive(Clone, Debug, PartialEq)]
pub enum Speed {
    /// The saved runs hold no probe of this workload (saved by an older picollo, or some
    /// runs without one), or this run took none: the rule cannot apply.
    Unprobed,
    /// The new probe lies within the saved probes' range widened by [`PROBE_TOLERANCE`].
    Steady(Probes),
    /// It lies outside: the machine ran at another speed than in every saved run.
    Moved(Probes),
}

/// The probes of a comparison, in ns.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Probes {
    /// This run's.
    pub new: f64,
    /// The least of the saved runs'.
    pub low: f64,
    /// The largest.
    pub high: f64,
}

impl Probes {
    /// The new probe's time over the nearest saved one's, 1 within their range: above 1
    /// the machine ran slower, below faster.
    pub fn ratio(&self) -> f64 {
        match self.new {
            n if n > self.high => n / self.high,
            n if n < self.low => n / self.low,
            _ => 1.0,
        }
    }

    /// The largest factor, in log time, between the new probe and a saved one.
    fn farthest(&self) -> f64 {
        (self.new / self.low)
            .ln()
            .abs()
            .max((self.new / self.high).ln().abs())
    }
}

/// `c` (judged on runs apart: [`crate::judge_apart`]) checked against the machine's speed:
/// `saved` holds the probe of each saved run (NaN for a run without one of this workload,
/// as in a file saved before probes were kept), `new` this run's (NaN: none taken); any
/// missing leaves [`Speed::Unprobed`], and the verdict as it is. Where the new probe lies
/// outside the saved ones' range widened by [`PROBE_TOLERANCE`], the machine ran at a speed
/// no saved run saw, and the verdict is [`Verdict::NotJudged`] unless its interval, widened
/// by the whole factor between the probes, still settles it (B a thousand times slower).
/// A comparison not judged on runs apart (a count judged exactly) is left as it is.
pub fn judge_speed(c: &mut Comparison, saved: &[f64], new: f64) {
    let Some(apart) = c.apart.as_mut() else {
        return;
    };
    let usable = |v: &f64| *v > 0.0 && v.is_finite();
    if saved.is_empty() || !saved.iter().all(usable) || !usable(&new) {
        apart.speed = Some(Speed::Unprobed);
        return;
    }
    let probes = Probes {
        new,
        low: saved.iter().copied().fold(f64::INFINITY, f64::min),
        high: saved.iter().copied().fold(0.0, f64::max),
    };
    let allowed = 1.0 + PROBE_TOLERANCE / 100.0;
    if new >= probes.low / allowed && new <= probes.high * allowed {
        apart.speed = Some(Speed::Steady(probes));
        return;
    }
    apart.speed = Some(Speed::Moved(probes));
    if c.change.estimate.is_finite() && !settled_beyond(&c.change, probes.farthest(), c.threshold) {
        c.verdict = Verdict::NotJudged;
    }
}

/// `change` (an interval symmetric in log time, as runs apart give it) still settles its
/// verdict (slower or faster by `threshold` percent) with its interval widened by `factor`
/// in log time on both sides.
fn settled_beyond(change: &Shift, factor: f64, threshold: f64) -> bool {
    let d = (change.estimate / 100.0).ln_1p();
    let half = (change.high / 100.0).ln_1p() - d + factor;
    let widened = Shift {
        estimate: change.estimate,
        low: (d - half).exp_m1() * 100.0,
        high: (d + half).exp_m1() * 100.0,
    };
    matches!(
        Verdict::of(&widened, threshold),
        Verdict::Slower(_) | Verdict::Faster(_)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::apart::judge_apart;
    use crate::judge::compare::compare;
    use crate::measure::result::BenchResult;

    /// A result of 10 rounds of time around `ns`.
    fn run(ns: f64) -> BenchResult {
        let rows = (0..10).map(|i| (ns * (1.0 + i as f64 * 1e-3) * 1e3) as u64);
        let metric = crate::Metric::named("time", crate::Unit::parse("ns").unwrap());
        let warm_up = crate::WarmUp {
            converged: true,
            ..crate::WarmUp::default()
        };
        let bench = crate::Bench::new("b");
        BenchResult::from_rows(
            &bench,
            std::vec![metric],
            rows.collect(),
            "t".into(),
            warm_up,
        )
        .unwrap()
    }

    /// `new` ns against saved runs of `saved` ns, then the probe `probe` against `probes`.
    fn judged(saved: &[f64], new: f64, probes: &[f64], probe: f64) -> Comparison {
        let median = |ns: f64| crate::rules::median_round(&run(ns));
        let saved: std::vec::Vec<f64> = saved.iter().map(|s| median(*s)).collect();
        let mut c = compare(&run(saved[0]), &run(new));
        judge_apart(&mut c, &saved, median(new));
        judge_speed(&mut c, probes, probe);
        c
    }

    #[test]
    fn the_ratio_is_to_the_nearest_saved_probe_and_1_within_their_range() {
        let p = |new| Probes {
            new,
            low: 100.0,
            high: 110.0,
        };
        assert_eq!(p(220.0).ratio(), 2.0);
        assert_eq!(p(50.0).ratio(), 0.5);
        assert_eq!(p(105.0).ratio(), 1.0);
        assert!((p(50.0).farthest() - (110.0_f64 / 50.0).ln()).abs() < 1e-12);
    }

    #[test]
    fn a_probe_within_the_tolerance_leaves_the_verdict_and_one_beyond_it_does_not() {
        let saved = [1e6, 1.001e6, 0.999e6, 1.0005e6, 0.9995e6, 1e6];
        let probes = [100.0, 101.0, 100.5, 100.0, 100.0, 100.0];
        let steady = judged(&saved, 1.03e6, &probes, 101.0 * 1.099);
        assert!(matches!(steady.verdict, Verdict::Slower(_)), "{steady}");
        assert!(matches!(
            steady.apart.unwrap().speed,
            Some(Speed::Steady(_))
        ));
        // 3 % slower, and the machine 10.1 % slower than in any saved run: not judged; 30 %
        // slower clears the 11 % between the probes, and stands.
        let moved = judged(&saved, 1.03e6, &probes, 101.0 * 1.101);
        assert_eq!(moved.verdict, Verdict::NotJudged, "{moved}");
        let beyond = judged(&saved, 1.3e6, &probes, 101.0 * 1.101);
        assert!(matches!(beyond.verdict, Verdict::Slower(_)), "{beyond}");
        assert!(matches!(moved.apart.unwrap().speed, Some(Speed::Moved(_))));
    }

    #[test]
    fn a_missing_probe_or_too_few_runs_leave_the_verdict_as_it_is() {
        let saved = [1e6, 1.005e6, 0.995e6];
        let c = judged(&saved, 1.2e6, &[100.0, f64::NAN, 100.0], 300.0);
        assert!(matches!(c.verdict, Verdict::Slower(_)), "{c}");
        assert_eq!(c.apart.unwrap().speed, Some(Speed::Unprobed));
        let c = judged(&saved, 1.2e6, &[100.0; 3], f64::NAN);
        assert_eq!(c.apart.unwrap().speed, Some(Speed::Unprobed));
        let one = judged(&[1e6], 1.2e6, &[100.0], 300.0);
        assert_eq!(one.verdict, Verdict::NotEnoughRunsApart);
        assert!(matches!(one.apart.unwrap().speed, Some(Speed::Moved(_))));
    }
}
