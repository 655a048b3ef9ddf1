//! Verdicts with builds as the unit. Simulated builds of one source whose layouts move the
//! time by a few percent, far above the rounds' noise: one build a side calls identical
//! code slower or faster most of the time; builds as the unit do so about once in a
//! hundred, and still find a change a few layout spreads wide; bad groupings are refused.

use picollo_bench::rules::{judge_build_times, BUILDS_NEEDED};
use picollo_bench::{compare, judge_builds, BenchResult, Builds, Comparison, Verdict};

use std::sync::OnceLock;

mod common;
use common::{normal, time_result, SplitMix64};

/// A one-metric result of `rows` (ns × 1000), paired with the other side.
fn result(name: &str, rows: Vec<u64>) -> BenchResult {
    let mut r = time_result(name, rows);
    r.pairing = Some(7);
    r
}

/// Round times (ns) of both sides of one interleaved run: `k` builds a side, `rounds`
/// rounds, layouts spread by `layout` (a standard deviation, as a fraction), noise `noise`,
/// side B `change` slower; every round shares one drift.
type Sides = (Vec<Vec<f64>>, Vec<Vec<f64>>);
fn times(k: usize, rounds: usize, (layout, noise, change): (f64, f64, f64), seed: u64) -> Sides {
    let mut rng = SplitMix64(seed);
    let drift: Vec<f64> = (0..rounds).map(|_| 1.0 + 0.02 * normal(&mut rng)).collect();
    let side = |factor: f64, rng: &mut SplitMix64| {
        let build = |rng: &mut SplitMix64| {
            let layout = factor * (layout * normal(rng)).exp();
            let round = |d: &f64| 1e6 * layout * d * (noise * normal(rng)).exp();
            drift.iter().map(round).collect()
        };
        (0..k).map(|_| build(rng)).collect()
    };
    let a = side(1.0, &mut rng);
    (a, side(1.0 + change, &mut rng))
}

/// A side's builds as one result, build after build, in thousandths of a nanosecond.
fn as_result(name: &str, builds: &[Vec<f64>]) -> BenchResult {
    let rows = builds.iter().flatten().map(|t| (t * 1000.0) as u64);
    result(name, rows.collect())
}

/// Both sides as results.
fn sides(
    k: usize,
    rounds: usize,
    spread: (f64, f64, f64),
    seed: u64,
) -> (BenchResult, BenchResult) {
    let (a, b) = times(k, rounds, spread, seed);
    (as_result("A", &a), as_result("B", &b))
}

/// The grouped verdict of one simulated run. (The round-against-round comparison the
/// grouped verdict replaces is made once, on a tiny run: only its threshold is used.)
fn grouped(k: usize, rounds: usize, spread: (f64, f64, f64), seed: u64) -> (Verdict, Builds) {
    static TEMPLATE: OnceLock<Comparison> = OnceLock::new();
    let mut c = TEMPLATE
        .get_or_init(|| {
            let (ta, tb) = sides(2, 1, (0.0, 0.01, 0.0), 0);
            compare(&ta, &tb)
        })
        .clone();
    let (a, b) = times(k, rounds, spread, seed);
    judge_build_times(&mut c, &a, &b).unwrap();
    (c.verdict, c.builds.unwrap())
}

/// The verdict of one build a side, round against round.
fn single(rounds: usize, spread: (f64, f64, f64), seed: u64) -> Verdict {
    let (a, b) = sides(1, rounds, spread, seed);
    compare(&a, &b).verdict
}

#[test]
fn identical_source_is_judged_no_different_about_99_times_in_100() {
    // Layouts 3 % apart, rounds' noise 1 %: as a hot loop relinked in shuffled layouts.
    let spread = (0.03, 0.01, 0.0);
    let trials = 2000;
    let false_alarms = (0..trials)
        .filter(|&s| grouped(6, 12, spread, s).0 != Verdict::NoDifference)
        .count();
    let singles = (0..100)
        .filter(|&s| single(12, spread, 10_000 + s) != Verdict::NoDifference)
        .count();
    println!(
        "grouped A/A: {false_alarms}/{trials} not `no difference`; single build: {singles}/100"
    );
    // 1 % expected: 20 of 2000, binomial spread ±4.5; 40 is 4.5 spreads above.
    assert!(false_alarms <= 40, "{false_alarms} of {trials}");
    // One build a side measures its layout: most A/A comparisons find a difference.
    assert!(singles >= 50, "{singles} of 100");
}

#[test]
fn a_change_of_a_few_layout_spreads_is_found_the_right_way() {
    let (mut found, mut wrong) = (0, 0);
    for s in 0..200 {
        match grouped(8, 12, (0.01, 0.01, 0.05), s).0 {
            Verdict::Slower(_) => found += 1,
            Verdict::Faster(_) => wrong += 1,
            _ => {}
        }
    }
    println!("grouped +5 % (layout spread 1 %): {found}/200 slower, {wrong} faster");
    assert_eq!(wrong, 0);
    assert!(found >= 190, "{found} of 200");
}

#[test]
fn the_layout_spread_and_the_noise_floor_are_told_apart() {
    // Many builds and rounds: the estimates come close to what was drawn.
    let (_, b) = grouped(40, 40, (0.03, 0.01, 0.0), 1);
    assert!((2.0..4.0).contains(&b.layout_spread), "{b:?}");
    // The noise of one build's median: 1.2533 · 1 % / √40 ≈ 0.2 %; its floor over 40 builds
    // a side: 2.576 · 0.2 % · √(2/40) ≈ 0.11 %.
    assert!((0.07..0.16).contains(&b.noise_floor), "{b:?}");
    // No layout effect: the spread is about 0 and the floor unchanged.
    let (_, b) = grouped(40, 40, (0.0, 0.01, 0.0), 2);
    assert!(b.layout_spread < 0.15, "{b:?}");
}

#[test]
fn the_verdict_line_states_the_layout_spread_and_the_builds() {
    let (a, b) = sides(6, 10, (0.02, 0.005, 0.2), 3);
    let mut c = compare(&a, &b);
    judge_builds(&mut c, &a, &b, 6).unwrap();
    let text = c.to_string();
    assert!(
        text.contains("Method: builds as the unit: 6 builds of A"),
        "{text}"
    );
    let line = text.lines().last().unwrap();
    assert!(
        line.starts_with("verdict: B is slower than A by "),
        "{line}"
    );
    assert!(line.contains("; layout spread ±"), "{line}");
    assert!(line.ends_with("(99 %, 6 builds a side)"), "{line}");
}

#[test]
fn groupings_that_do_not_split_evenly_are_refused() {
    assert_eq!(BUILDS_NEEDED, 2);
    let (a, b) = sides(3, 5, (0.01, 0.01, 0.0), 4);
    let mut c = compare(&a, &b);
    for k in [0, 1, 2, 4] {
        let e = judge_builds(&mut c, &a, &b, k).unwrap_err();
        assert!(
            e.message().contains("must split 15 and 15 rounds"),
            "{k}: {e}"
        );
    }
    let (short, _) = sides(3, 4, (0.01, 0.01, 0.0), 5);
    let e = judge_builds(&mut c, &a, &short, 3).unwrap_err();
    assert!(e.message().contains("15 and 12"), "{e}");
    assert!(judge_builds(&mut c, &a, &b, 3).is_ok());
    let (x, y) = times(3, 5, (0.01, 0.01, 0.0), 6);
    let e = judge_build_times(&mut c, &x, &y[..2]).unwrap_err();
    assert!(e.message().contains("sides of 3 and 2 builds"), "{e}");
    let mut ragged = y.clone();
    ragged[1].pop();
    assert!(judge_build_times(&mut c, &x, &ragged).is_err());
    // A round with a time floored at 0 leaves every build, and the verdict says so; too
    // few rounds left is an error.
    ragged[1] = vec![1.0, 2.0, 0.0, 4.0, 5.0];
    c.warnings.clear();
    judge_build_times(&mut c, &x, &ragged).unwrap();
    assert!(c.builds.is_some());
    assert!(
        c.warnings
            .iter()
            .any(|w| w.contains("1 of 5 rounds left out")),
        "{:?}",
        c.warnings
    );
    ragged[1] = vec![0.0, 0.0, 0.0, 4.0, 0.0];
    let e = judge_build_times(&mut c, &x, &ragged).unwrap_err();
    assert!(
        e.message()
            .contains("4 of 5 rounds have a time that is not positive"),
        "{e}"
    );
}
