//! The speed probe on a simulated machine: saved runs that all caught one state of a VM
//! that steps 2× between runs, and a new run in the other, are never called faster, slower
//! or unchanged (without the probe they are: the rule matters); a quiet machine's runs are
//! judged as before; a baseline saved without probes reads and judges as before, and says
//! so. The real probe's cost and spread are printed, never asserted.

use std::path::PathBuf;
use std::time::Instant;

use picollo_bench::baseline::Baseline;
use picollo_bench::export::{Findings, PicolloDocument};
use picollo_bench::model::document::Document;
use picollo_bench::probe::{
    judge_speed, probe, Speed, PROBE_TAKES, PROBE_TOLERANCE, PROBE_WORKLOAD,
};
use picollo_bench::rules::median_round;
use picollo_bench::saved::{judge_saved, runs_apart_members, SavedRounds};
use picollo_bench::{judge_apart, BenchResult, Comparison, Verdict};

mod common;
use common::{time_result, SplitMix64};

/// The probe's time at ×1, in ns (as on a 2-core AMD EPYC VM).
const PROBE_NS: f64 = 162_422.0;

/// A run of 10 rounds around `median` nanoseconds, each 0.1 % apart.
fn run(median: f64) -> BenchResult {
    let rows = (0..10).map(|i| (median * (1.0 + (i as f64 - 4.5) * 0.001) * 1000.0) as u64);
    time_result("bench", rows.collect())
}

/// `1 ± 1 %`: a quiet machine's noise between runs.
fn jitter(rng: &mut SplitMix64) -> f64 {
    1.0 + 0.02 * (rng.next_f64() - 0.5)
}

/// One run apart on a machine whose speed is `step` (its time factor: 2 for half speed):
/// the benchmark's time (1 ms of work, moved by `step^share`: a workload feels a step by
/// its own share of it) and the probe's (moved by all of it), each with its own ±1 %.
fn one_run(rng: &mut SplitMix64, work: f64, step: f64, share: f64) -> (BenchResult, f64) {
    let bench = run(1e6 * work * step.powf(share) * jitter(rng));
    (bench, PROBE_NS * step * jitter(rng))
}

/// A baseline saved from `runs` (each with its probe; NaN: saved without one), through
/// the document a suite's `--save --append` writes and reads back.
fn saved(runs: &[(BenchResult, f64)]) -> Baseline {
    let mut text: Option<String> = None;
    for (r, p) in runs {
        // As `--append` reads it: the runs apart, the result not rebuilt.
        let earlier = text.as_deref().map(|t| read_as(t, None));
        let before = earlier.as_ref().and_then(|b| b.named("bench"));
        let mut written = Findings::of_results(&[r]);
        written.entries[0].members = runs_apart_members(r, before, *p);
        text = Some(written.to_text(&PicolloDocument).unwrap());
    }
    read(&text.unwrap())
}

/// The baseline of a saved document's text, as `--baseline` reads it.
fn read(text: &str) -> Baseline {
    read_as(text, Some(1.0))
}

/// The baseline of a saved document's text, its results rebuilt where `threshold` is given.
fn read_as(text: &str, threshold: Option<f64>) -> Baseline {
    let d = Document::read(text).unwrap();
    Baseline::of(&d, "saved", threshold, SavedRounds::Medians).unwrap()
}

/// `new` (with its probe) judged against `base` as a suite's `--baseline` judges it.
fn judged(base: &Baseline, new: &(BenchResult, f64)) -> Comparison {
    judge_saved(base.named("bench").unwrap(), &new.0, None, new.1).unwrap()
}

/// The same judged on runs apart alone: the gate without the probe's rule.
fn unprobed(base: &Baseline, new: &(BenchResult, f64)) -> Comparison {
    let s = base.named("bench").unwrap();
    let mut c = picollo_bench::compare(s.result.as_ref().unwrap(), &new.0);
    judge_apart(&mut c, &s.runs_apart, median_round(&new.0));
    c
}

/// Saved runs apart as the gate keeps them: each run's median round (ns) and probe (ns).
struct Runs {
    medians: Vec<f64>,
    probes: Vec<f64>,
}

/// `k` runs apart at ×1 on a quiet machine (each ±1 %), as the gate saves them.
fn quiet_runs(rng: &mut SplitMix64, k: usize, share: f64) -> Runs {
    let runs: Vec<_> = (0..k).map(|_| one_run(rng, 1.0, 1.0, share)).collect();
    Runs {
        medians: runs.iter().map(|(r, _)| median_round(r)).collect(),
        probes: runs.iter().map(|(_, p)| *p).collect(),
    }
}

/// `new` judged against `saved` with the probe's rule (`probed`) or on runs apart alone.
fn judged_raw(saved: &Runs, new: &(BenchResult, f64), probed: bool) -> Comparison {
    let mut c = picollo_bench::compare(&run(saved.medians[0]), &new.0);
    judge_apart(&mut c, &saved.medians, median_round(&new.0));
    if probed {
        judge_speed(&mut c, &saved.probes, new.1);
    }
    c
}

#[test]
fn saved_runs_of_one_state_and_a_new_run_in_another_are_not_judged() {
    let mut rng = SplitMix64(74);
    let (mut draws, mut false_without) = (0, 0);
    for trial in 0..60 {
        let k = 3 + trial % 6;
        // How much of the machine's step this benchmark feels: 0.25 to 1.
        let share = 0.25 + 0.75 * rng.next_f64();
        let saved = quiet_runs(&mut rng, k, share);
        for step in [2.0, 0.5] {
            let new = one_run(&mut rng, 1.0, step, share);
            let c = judged_raw(&saved, &new, true);
            assert_eq!(c.verdict, Verdict::NotJudged, "k {k}, ×{step}: {c}");
            assert!(matches!(
                c.apart.as_ref().unwrap().speed,
                Some(Speed::Moved(_))
            ));
            // The mutation: without the probe's rule the same runs give a false verdict.
            let without = judged_raw(&saved, &new, false);
            assert!(
                matches!(without.verdict, Verdict::Slower(_) | Verdict::Faster(_)),
                "k {k}, ×{step}, share {share:.2}: {without}"
            );
            false_without += 1;
            draws += 1;
        }
    }
    println!(
        "stepping machine, one state saved: {draws} of {draws} not judged (without the \
         probe: {false_without} false verdicts)"
    );
}

#[test]
fn a_suite_baseline_of_one_state_says_the_machine_ran_at_another_speed() {
    // Through the document `--save --append` writes and `--baseline` reads: three runs at
    // ×1, a new one at half speed (a benchmark that feels a third of the step: "faster by
    // 21 %" without the probe, as an unchanged C# benchmark was called).
    let mut rng = SplitMix64(18);
    let base = saved(
        &(0..3)
            .map(|_| one_run(&mut rng, 1.0, 1.0, 0.35))
            .collect::<Vec<_>>(),
    );
    let new = one_run(&mut rng, 1.0, 0.5, 0.35);
    assert!(matches!(unprobed(&base, &new).verdict, Verdict::Faster(_)));
    let c = judged(&base, &new);
    assert_eq!(c.verdict, Verdict::NotJudged, "{c}");
    let mut line = String::new();
    c.write_verdict(&mut line).unwrap();
    assert!(
        line.starts_with("verdict: not judged: bench against bench [saved], the machine ran "),
        "{line}"
    );
    assert!(
        line.contains("ran faster than in the saved runs: the speed probe took "),
        "{line}"
    );
    assert!(line.contains(" % less time ("), "{line}");
    assert!(line.contains("or compare with --against"), "{line}");
    assert!(line.ends_with(" (99 %, 3 runs apart)"), "{line}");
    let mut method = String::new();
    c.write_method(&mut method).unwrap();
    assert!(
        method.contains(" µs (beyond 10 % of the saved runs' range)."),
        "{method}"
    );
}

#[test]
fn a_change_far_beyond_the_machines_step_is_still_judged() {
    // A thousand times the work in a run at half speed: slower even if all of it were the
    // machine's; a thousandth of the work at double speed: faster.
    let mut rng = SplitMix64(1000);
    let runs: Vec<_> = (0..4).map(|_| one_run(&mut rng, 1.0, 1.0, 1.0)).collect();
    let base = saved(&runs);
    let slower = judged(&base, &one_run(&mut rng, 1000.0, 2.0, 1.0));
    assert!(matches!(slower.verdict, Verdict::Slower(_)), "{slower}");
    let faster = judged(&base, &one_run(&mut rng, 0.001, 0.5, 1.0));
    assert!(matches!(faster.verdict, Verdict::Faster(_)), "{faster}");
}

#[test]
fn a_quiet_machine_is_judged_as_before_and_finds_ten_percent() {
    let mut rng = SplitMix64(7);
    let (mut unchanged, trials) = (0, 60);
    for trial in 0..trials {
        let saved = quiet_runs(&mut rng, 5 + trial % 4, 1.0);
        let new = one_run(&mut rng, 1.0, 1.0, 1.0);
        let same = judged_raw(&saved, &new, true);
        assert!(matches!(
            same.apart.as_ref().unwrap().speed,
            Some(Speed::Steady(_))
        ));
        assert_eq!(same.verdict, judged_raw(&saved, &new, false).verdict);
        assert!(same.verdict.judged(), "{same}");
        unchanged += usize::from(same.verdict == Verdict::NoDifference);
        let slower = judged_raw(&saved, &one_run(&mut rng, 1.1, 1.0, 1.0), true);
        assert!(matches!(slower.verdict, Verdict::Slower(_)), "{slower}");
    }
    // The 99 % interval's own false verdicts: about 1 in 100.
    println!("quiet machine: A/A no difference {unchanged} of {trials}, +10 % slower {trials} of {trials}");
    assert!(unchanged >= trials - 4, "{unchanged} of {trials}");
}

/// The fixture of the previous release: a suite's baseline of two runs apart, no probe.
fn fixture(name: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden/documents")
        .join(name);
    std::fs::read_to_string(path).unwrap()
}

#[test]
fn a_baseline_saved_without_probes_judges_as_before_and_says_so() {
    let mut rng = SplitMix64(3);
    let runs: Vec<_> = (0..4)
        .map(|_| (one_run(&mut rng, 1.0, 1.0, 1.0).0, f64::NAN))
        .collect();
    let base = saved(&runs);
    assert!(base
        .named("bench")
        .unwrap()
        .probes
        .iter()
        .all(|p| p.is_nan()));
    // At half speed: what the gate said before the probe (a false slower), and a note.
    let new = one_run(&mut rng, 1.0, 2.0, 1.0);
    let c = judged(&base, &new);
    assert_eq!(c.verdict, unprobed(&base, &new).verdict);
    assert!(matches!(c.verdict, Verdict::Slower(_)), "{c}");
    assert_eq!(c.apart.as_ref().unwrap().speed, Some(Speed::Unprobed));
    let mut line = String::new();
    c.write_verdict(&mut line).unwrap();
    assert!(line.ends_with("; no speed probe saved with these runs (an older picollo's file): another speed of the machine is not caught"), "{line}");
    // The previous release's file reads, its runs without probes.
    let old = Document::read(&fixture("suite-saved-2-runs.json")).unwrap();
    let old = Baseline::of(&old, "old", Some(1.0), SavedRounds::Medians).unwrap();
    let sum = old.named("sum 1000").unwrap();
    assert_eq!(sum.probes.len(), 2);
    assert!(sum.probes.iter().all(|p| p.is_nan()));
}

#[test]
fn a_run_appended_to_runs_without_probes_keeps_them_unprobed_until_all_have_one() {
    let mut rng = SplitMix64(5);
    let mut runs: Vec<_> = (0..2)
        .map(|_| (one_run(&mut rng, 1.0, 1.0, 1.0).0, f64::NAN))
        .collect();
    runs.push(one_run(&mut rng, 1.0, 1.0, 1.0));
    let base = saved(&runs);
    let probes = &base.named("bench").unwrap().probes;
    assert_eq!(probes.len(), 3);
    assert!(probes[0].is_nan() && probes[1].is_nan() && probes[2] > 0.0);
    let c = judged(&base, &one_run(&mut rng, 1.0, 2.0, 1.0));
    assert_eq!(c.apart.as_ref().unwrap().speed, Some(Speed::Unprobed));
    // A probe of another workload (a later picollo's) is not compared.
    let text = {
        let mut w = Findings::of_results(&[&runs[2].0]);
        w.entries[0].members = runs_apart_members(&runs[2].0, None, runs[2].1);
        w.to_text(&PicolloDocument).unwrap()
    };
    assert!(text.contains(&format!(
        "\"speedProbe\":{{\"workload\":\"{PROBE_WORKLOAD}\""
    )));
    let other = read(&text.replace(PROBE_WORKLOAD, "another-workload"));
    assert!(other.named("bench").unwrap().probes[0].is_nan());
}

#[test]
fn the_real_probe_is_cheap_and_repeats_its_figure() {
    // Printed, not asserted: a timed figure is the machine's, not the code's.
    let started = Instant::now();
    let probes: Vec<f64> = (0..5).map(|_| probe()).collect();
    let each = started.elapsed().as_secs_f64() * 1e3 / 5.0;
    assert!(
        probes.iter().all(|p| *p > 0.0 && p.is_finite()),
        "{probes:?}"
    );
    let most = probes.iter().copied().fold(0.0, f64::max);
    let least = probes.iter().copied().fold(f64::INFINITY, f64::min);
    println!(
        "speed probe: {:.1} µs a take, {:.2} ms of takes a probe ({PROBE_TAKES} takes; {each:.2} \
         ms a probe by the wall clock, with any preemption), spread {:.2} % over 5 \
         probes (tolerance {PROBE_TOLERANCE} %)",
        least / 1e3,
        least * PROBE_TAKES as f64 / 1e6,
        (most / least - 1.0) * 100.0
    );
}
