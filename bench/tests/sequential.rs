//! The sequential rule's accounting, on simulated grouped comparisons: six processes a side,
//! each round's times drawn from a machine whose speed steps (shared by every process of the
//! round, as interleaving makes it) with each turn's own noise and each process's placement,
//! judged with the processes as the unit after each eighth of the rounds and stopped at the
//! first look that settles. Pocock's widening holds identical builds' false verdicts to a
//! 99 % interval's rate over all eight looks; the same looks judged on the plain 99 %
//! interval (repeated looks without accounting) call identical builds different several
//! times as often, and this test fails on them. Seeded: every count is exact.

mod common;

use common::{normal, time_result, SplitMix64};
use picollo_bench::rules::judge_build_times;
use picollo_bench::sequential::{judge_look, Boundary, Looking, LOOKS};
use picollo_bench::{compare, Comparison, Verdict};

/// Processes a side, as `--against` runs them by default.
const K: usize = 6;
/// Rounds of a comparison: six between two looks.
const ROUNDS: usize = 48;

/// One simulated comparison's log round times, `2K` rows (A's processes, then B's) of
/// `ROUNDS` rounds: B's processes `change` (a ratio) slower, each process placed within
/// ±`placement`, each turn with `noise` (relative, normal), the machine stepping 1.8× at
/// random between rounds.
fn grid(rng: &mut SplitMix64, change: f64, (placement, noise): (f64, f64)) -> Vec<Vec<f64>> {
    let levels: Vec<f64> = (0..ROUNDS)
        .map(|_| if rng.below(2) == 0 { 1.0 } else { 1.8 })
        .collect();
    (0..2 * K)
        .map(|p| {
            let placed = 1.0 + placement * (2.0 * rng.next_f64() - 1.0);
            let side = if p < K { 1.0 } else { change };
            let each = levels.iter().map(|l| 100.0 * l * placed * side);
            each.map(|t| t * (1.0 + noise * normal(rng))).collect()
        })
        .collect()
}

/// The verdict of one comparison under `boundary`, at `threshold` percent: looked at after
/// each eighth of its rounds, stopped at the first that settles. With the look it stopped at.
fn sequential(rows: &[Vec<f64>], design: &Looking, threshold: f64) -> (Verdict, usize) {
    static BLANK: std::sync::OnceLock<Comparison> = std::sync::OnceLock::new();
    let blank = BLANK.get_or_init(|| {
        let seed = time_result("A", vec![100_000; 8]);
        compare(&seed, &seed)
    });
    for look in 1..=LOOKS {
        let upto = ROUNDS * look / LOOKS;
        let cut =
            |r: &[Vec<f64>]| -> Vec<Vec<f64>> { r.iter().map(|x| x[..upto].to_vec()).collect() };
        let (a, b) = (cut(&rows[..K]), cut(&rows[K..]));
        let mut c = blank.clone();
        c.threshold = threshold;
        judge_build_times(&mut c, &a, &b).unwrap();
        let seconds = look as f64;
        if judge_look(&mut c, design, look, seconds) || look == LOOKS {
            return (c.verdict, look);
        }
    }
    unreachable!("the last look returns")
}

fn different(v: &Verdict) -> bool {
    matches!(v, Verdict::Slower(_) | Verdict::Faster(_))
}

/// `n` identical comparisons' false verdicts under `boundary` at `threshold`.
fn false_of(n: u64, boundary: Boundary, threshold: f64, spread: (f64, f64)) -> usize {
    let design = Looking::new(boundary, LOOKS, 1);
    (0..n)
        .filter(|&s| {
            let rows = grid(&mut SplitMix64(s), 1.0, spread);
            different(&sequential(&rows, &design, threshold).0)
        })
        .count()
}

#[test]
fn pococks_looks_hold_a_a_to_one_percent_and_plain_repeated_looks_do_not() {
    // Threshold 0: identical builds never settle "not slower" (every difference counts),
    // so each runs all eight looks: the worst case for repeated looks. Rounds' noise 2 %,
    // placement ±0.3 %: the looks are nearly independent, as in a long comparison.
    let spread = (0.003, 0.02);
    let pocock = false_of(2_000, Boundary::Pocock, 0.0, spread);
    let plain = false_of(2_000, Boundary::Plain, 0.0, spread);
    println!(
        "sequential (simulated, 8 looks, 6 processes a side): identical builds called \
         different in {pocock} of 2000 with Pocock's widening, {plain} of 2000 on the plain \
         99 % interval at every look"
    );
    // A 99 % rate over 2,000 is 20 (binomial sd 4.4): at most 40 leaves correct code a
    // failure chance below 10⁻⁴; plain repeated looks land near 3 % (60 or more).
    assert!(pocock <= 40, "{pocock} of 2000");
    assert!(plain > 40, "plain repeated looks: {plain} of 2000");
}

#[test]
fn the_looks_settle_big_changes_early_and_five_percent_by_the_last() {
    // At `--against`'s default threshold of 3 %: +50 % settles at the first look every
    // time; +5 % is found in at least 19 of 20, never the wrong way; identical builds are
    // never called slower, and settle "not slower" or end not settled.
    let spread = (0.015, 0.02);
    let design = Looking::new(Boundary::Pocock, LOOKS, 1);
    let run = |change: f64, s: u64| {
        let rows = grid(&mut SplitMix64(1_000 + s), change, spread);
        sequential(&rows, &design, 3.0)
    };
    let fifty: Vec<(Verdict, usize)> = (0..20).map(|s| run(1.5, s)).collect();
    assert!(fifty
        .iter()
        .all(|(v, look)| matches!(v, Verdict::Slower(_)) && *look == 1));
    let five: Vec<(Verdict, usize)> = (0..20).map(|s| run(1.05, s)).collect();
    let found = five
        .iter()
        .filter(|(v, _)| matches!(v, Verdict::Slower(_)))
        .count();
    assert!(found >= 19, "{five:?}");
    assert!(!five.iter().any(|(v, _)| matches!(v, Verdict::Faster(_))));
    // One of a suite of 4 (the 1 % shared): still found; one of 200, printed.
    let found_in = |family: usize| {
        let design = Looking::new(Boundary::Pocock, LOOKS, family);
        let slower = (0..20).filter(|&s| {
            let rows = grid(&mut SplitMix64(1_000 + s), 1.05, spread);
            matches!(sequential(&rows, &design, 3.0).0, Verdict::Slower(_))
        });
        slower.count()
    };
    let (four, two_hundred) = (found_in(4), found_in(200));
    println!("sequential (simulated, threshold 3 %): +5 % found {four} of 20 as one of 4 benchmarks, {two_hundred} of 20 as one of 200");
    assert!(four >= 19, "{four} of 20");
    let same: Vec<(Verdict, usize)> = (0..200).map(|s| run(1.0, s)).collect();
    let slower = same.iter().filter(|(v, _)| different(v)).count();
    let settled = same.iter().filter(|(v, _)| v.judged()).count();
    let mut looks: Vec<usize> = same.iter().map(|(_, l)| *l).collect();
    looks.sort_unstable();
    println!(
        "sequential (simulated, threshold 3 %): +50 % at look 1 in 20 of 20, +5 % found {found} \
         of 20; identical builds: {slower} of 200 different, {settled} settled, median look {}",
        looks[looks.len() / 2]
    );
    assert!(slower <= 8, "{slower} of 200");
    assert!(same
        .iter()
        .all(|(v, _)| v.judged() || *v == Verdict::NotSettled));
}

#[test]
fn a_suites_benchmarks_share_the_one_percent() {
    // Suites of 50 identical benchmarks, threshold 0 (every look taken): judged each as one
    // of a family of 50, a run calls any of its 50 different at most as often as 1 in 100
    // (at most 9 runs of 400: correct code fails with P below 10⁻⁴); each judged alone,
    // about 40 % of runs call one different (1 − 0.99⁵⁰), and this test fails on it.
    let spread = (0.003, 0.02);
    let runs = |family: usize, n: u64| {
        let design = Looking::new(Boundary::Pocock, LOOKS, family);
        let any = |run: u64| {
            (0..50).any(|b| {
                let rows = grid(&mut SplitMix64(run * 1_000 + b), 1.0, spread);
                different(&sequential(&rows, &design, 0.0).0)
            })
        };
        (0..n).filter(|&run| any(run)).count()
    };
    let shared = runs(50, 400);
    let alone = runs(1, 100);
    println!(
        "sequential (simulated suites of 50 identical benchmarks): a benchmark called different \
         in {shared} of 400 runs with the 1 % shared, {alone} of 100 with each benchmark's own"
    );
    assert!(shared <= 9, "{shared} of 400");
    assert!(alone >= 20, "{alone} of 100");
}

#[test]
fn a_comparison_not_settled_is_spelled_alike_in_every_format() {
    use picollo_bench::export::{format_named, Findings};
    // Threshold 0: identical builds never settle "not slower"; seed 3 ends unsettled.
    let design = Looking::new(Boundary::Pocock, LOOKS, 1);
    let rows = grid(&mut SplitMix64(3), 1.0, (0.003, 0.02));
    let blank = time_result("base", vec![100_000; 8]);
    let mut c = compare(&blank, &time_result("head", vec![100_000; 8]));
    c.threshold = 0.0;
    judge_build_times(&mut c, &rows[..K], &rows[K..]).unwrap();
    judge_look(&mut c, &design, LOOKS, 4.25);
    assert_eq!(c.verdict, Verdict::NotSettled, "{c}");
    let mut line = String::new();
    c.write_verdict(&mut line).unwrap();
    assert!(
        line.starts_with(
            "verdict: not settled in 4.2 s: head against base, this run could see changes of "
        ),
        "{line}"
    );
    let (a, b) = (
        time_result("base", vec![100_000; 8]),
        time_result("head", vec![100_000; 8]),
    );
    let mut found = Findings::of_pairs(&[(&a, &b)]).unwrap();
    found.comparisons[0].comparison = c.clone();
    let written = |name: &str| {
        let mut out = String::new();
        match name {
            "summary" => found.write_summary(&mut out).unwrap(),
            _ => format_named(name).unwrap().write(&found, &mut out).unwrap(),
        }
        out
    };
    let md = written("summary");
    assert!(
        md.contains("⚪ 0 unchanged, 🟡 1 not settled, 🟡 0 not judged\n"),
        "{md}"
    );
    assert!(md.contains("| 🟡 ? not settled |"), "{md}");
    let doc: serde_json::Value = serde_json::from_str(&written("picollo")).unwrap();
    let record = &doc["comparisons"][0];
    assert_eq!(record["verdict"], "not settled", "{doc}");
    assert_eq!(record["looks"]["taken"], LOOKS, "{doc}");
    assert_eq!(record["looks"]["settled"], false, "{doc}");
    let xml = written("junit");
    assert!(
        xml.contains("<skipped message=\"verdict: not settled in "),
        "{xml}"
    );
}
