//! Runs apart from a machine that steps between two speeds leave a noise floor past its
//! bound: such a comparison is not judged (never faster, slower or no difference), and every
//! format says so with one word; runs apart from a quiet machine are still judged. A layout
//! spread is shown only where builds sampled it.

use picollo_bench::export::{format_named, Findings};
use picollo_bench::rules::{median_round, NOISE_FLOOR_BOUND};
use picollo_bench::{compare, judge_apart, BenchResult, Builds, Comparison, Verdict};

mod common;
use common::{time_result, SplitMix64};

/// A run of 10 rounds around `median` nanoseconds, each 0.1 % apart.
fn run(name: &str, median: f64) -> BenchResult {
    let rows = (0..10).map(|i| (median * (1.0 + (i as f64 - 4.5) * 0.001) * 1000.0) as u64);
    time_result(name, rows.collect())
}

/// A machine's speed in one run: ×1 or ×2 (`steps`) or ×1 only, times up to ±1 % of noise.
fn speed(rng: &mut SplitMix64, steps: bool) -> f64 {
    let step = match steps && rng.next_f64() < 0.5 {
        true => 2.0,
        false => 1.0,
    };
    step * (1.0 + 0.02 * (rng.next_f64() - 0.5))
}

/// `k` saved runs apart of 1 ms of work on the machine; where it `steps`, drawn again until
/// they hold both speeds (a machine that was seen to step).
fn saved_runs(rng: &mut SplitMix64, k: usize, steps: bool) -> Vec<f64> {
    loop {
        let speeds: Vec<f64> = (0..k).map(|_| speed(rng, steps)).collect();
        let fast = speeds.iter().filter(|s| **s < 1.5).count();
        if !steps || (fast > 0 && fast < k) {
            // Each run's median round, as the gate saves it (the new run's unit).
            let each = speeds.iter().map(|s| median_round(&run("saved", 1e6 * s)));
            return each.collect();
        }
    }
}

/// A new run of `work` ms (1.0 unchanged, 1.1 ten percent slower) judged against `saved`.
fn judged(saved: &[f64], work: f64, rng: &mut SplitMix64, steps: bool) -> Comparison {
    let new = run("head", 1e6 * work * speed(rng, steps));
    let mut c = compare(&run("base", saved[0]), &new);
    judge_apart(&mut c, saved, median_round(&new));
    c
}

#[test]
fn a_machine_that_steps_twofold_between_runs_is_not_judged() {
    let mut rng = SplitMix64(2024);
    let (mut unjudged, mut settled) = (0, 0);
    for trial in 0..120 {
        let k = 3 + trial % 6;
        let saved = saved_runs(&mut rng, k, true);
        for work in [1.0, 1.1] {
            let c = judged(&saved, work, &mut rng, true);
            // Never "no difference" or "within noise" from runs this far apart.
            assert!(
                matches!(
                    c.verdict,
                    Verdict::NotJudged | Verdict::Slower(_) | Verdict::Faster(_)
                ),
                "{saved:?}: {c}"
            );
            let apart = c.apart.as_ref().unwrap();
            assert!(apart.range > 1.9 && apart.range < 2.1, "{apart:?}");
            match c.verdict {
                Verdict::NotJudged => {
                    assert!(apart.floor >= NOISE_FLOOR_BOUND, "{apart:?}");
                    assert!(!c.verdict.judged());
                    unjudged += 1;
                }
                _ => settled += 1,
            }
        }
    }
    // Seeded: the figures are this draw's; a settled verdict needs an interval that clears
    // the threshold, which a twofold step seldom leaves.
    println!("stepping machine: {unjudged} of 240 not judged, {settled} settled");
    assert!(unjudged >= 216, "{unjudged} of 240 not judged");
}

#[test]
fn a_change_beyond_everything_the_runs_spread_is_still_judged() {
    // A thousand times the work against runs that step twofold: the whole interval lies
    // beyond the interval of no change, and the verdict is settled (slower), as a tenth of
    // the work is faster.
    let mut rng = SplitMix64(99);
    for trial in 0..40 {
        let saved = saved_runs(&mut rng, 3 + trial % 6, true);
        let slower = judged(&saved, 1000.0, &mut rng, true);
        assert!(slower.apart.as_ref().unwrap().floor >= NOISE_FLOOR_BOUND);
        assert!(
            matches!(slower.verdict, Verdict::Slower(_)),
            "{saved:?}: {slower}"
        );
        let faster = judged(&saved, 0.001, &mut rng, true);
        assert!(
            matches!(faster.verdict, Verdict::Faster(_)),
            "{saved:?}: {faster}"
        );
    }
}

#[test]
fn a_quiet_machine_is_still_judged_and_ten_percent_is_found_slower() {
    let mut rng = SplitMix64(7);
    for trial in 0..120 {
        // From 5 runs apart: 3 runs' t(2) = 9.9 leaves a ±1 % machine an interval of ±11 %.
        let k = 5 + trial % 4;
        let saved = saved_runs(&mut rng, k, false);
        let same = judged(&saved, 1.0, &mut rng, false);
        assert!(same.verdict.judged(), "{saved:?}: {same}");
        let slower = judged(&saved, 1.1, &mut rng, false);
        assert!(
            matches!(slower.verdict, Verdict::Slower(_)),
            "{saved:?}: {slower}"
        );
        assert!(slower.apart.as_ref().unwrap().floor < NOISE_FLOOR_BOUND);
    }
}

/// A comparison of a stepping machine's runs apart, not judged.
fn not_judged() -> Comparison {
    let saved = [1e6, 2e6, 1e6].map(|t| median_round(&run("saved", t)));
    let c = judged(&saved, 1.0, &mut SplitMix64(1), false);
    assert_eq!(c.verdict, Verdict::NotJudged, "{c}");
    c
}

/// `format`'s text of findings holding the one comparison `c`.
fn written(c: &Comparison, format: &str) -> String {
    let (a, b) = (run("base", 1e6), run("head", 1e6));
    let mut suite = Findings::of_pairs(&[(&a, &b)]).unwrap();
    suite.comparisons[0].comparison = c.clone();
    let mut out = String::new();
    match format {
        "summary" => suite.write_summary(&mut out).unwrap(),
        name => format_named(name).unwrap().write(&suite, &mut out).unwrap(),
    }
    out
}

#[test]
fn a_comparison_not_judged_is_spelled_alike_in_every_format() {
    let c = not_judged();
    assert_eq!(c.verdict.word(), "not judged");
    let mut line = String::new();
    c.write_verdict(&mut line).unwrap();
    assert!(
        line.starts_with("verdict: not judged: head against base, "),
        "{line}"
    );
    assert!(
        line.contains("the saved runs spread 2.0× (noise floor "),
        "{line}"
    );
    assert!(line.contains("or compare with --against"), "{line}");
    assert!(line.ends_with(" (99 %, 3 runs apart)"), "{line}");
    for word in ["no difference", "faster", "slower"] {
        assert!(!line.contains(word), "{line}");
    }
    let md = written(&c, "summary");
    assert!(
        md.starts_with("### Picollo: 1 comparisons: 🔴 0 slower, 🟢 0 faster, ⚪ 0 unchanged, 🟡 1 not judged\n"),
        "{md}"
    );
    assert!(md.contains("| 🟡 ? not judged |"), "{md}");
    let doc: serde_json::Value = serde_json::from_str(&written(&c, "picollo")).unwrap();
    assert_eq!(doc["comparisons"][0]["verdict"], "not judged", "{doc}");
    let xml = written(&c, "junit");
    assert!(
        xml.contains("failures=\"0\" errors=\"0\" skipped=\"1\""),
        "{xml}"
    );
    assert!(
        xml.contains("<skipped message=\"verdict: not judged: "),
        "{xml}"
    );
}

/// The verdict line of `c` judged with builds as the unit: `per_side` units of `processes`
/// processes each.
fn with_builds(c: &Comparison, per_side: usize, processes: usize) -> String {
    let mut c = c.clone();
    c.apart = None;
    c.verdict = Verdict::NoDifference;
    c.builds = Some(Builds {
        per_side,
        processes,
        layout_spread: 0.0,
        noise_floor: 0.4,
    });
    let mut line = String::new();
    c.write_verdict(&mut line).unwrap();
    line
}

#[test]
fn the_layout_spread_is_shown_only_where_two_builds_a_side_sampled_it() {
    let c = compare(&run("A", 1e6), &run("B", 1e6));
    let one_build = with_builds(&c, 3, 3);
    assert_eq!(
        one_build.matches("layout not sampled").count(),
        1,
        "{one_build}"
    );
    assert!(!one_build.contains("layout spread"), "{one_build}");
    assert!(
        one_build.contains("(99 %, 3 processes a side)"),
        "{one_build}"
    );
    let six_builds = with_builds(&c, 6, 1);
    assert!(
        six_builds.contains("; layout spread ±0.00 %, noise floor 0.40 %"),
        "{six_builds}"
    );
    assert!(!six_builds.contains("not sampled"), "{six_builds}");
}
