//! `--builds K`: the commands are sides of `K` builds each (the builds of one commit, in
//! different code layouts): the first `K` are side 1, the next `K` side 2, and so on. Every
//! build of every side runs in each interleaved round. A side's report pools its builds
//! (round `i` of each build, build after build), the table under it gives each build's
//! median, and each side after the first is compared with side 1 with builds as the unit.

use std::fmt::Write;

use picollo_bench::rules::{median_round, median_round_at};
use picollo_bench::{
    compare_on, judge_apart_builds, judge_builds, Bench, BenchResult, Comparison, Metric,
};

use super::saved::{Baseline, Saved};
use super::{metric, unjudgeable, Against, BenchArgs, Measurement};
use crate::error::Failure;

/// One side: its name, and its builds' pooled result (`None` when a build failed).
pub struct Side {
    pub name: String,
    pub result: Option<BenchResult>,
}

/// Refuse `--builds` that does not split the commands into whole sides.
pub fn check(args: &BenchArgs) -> Result<(), Failure> {
    let (n, k) = (args.commands.len(), args.builds as usize);
    if k > 1 && n % k != 0 {
        return Err(Failure::usage(format!(
            "--builds {k}: {n} commands do not split into sides of {k} builds each (give \
             each side the same number of builds)"
        )));
    }
    Ok(())
}

/// `saved` (read from `path`), when it was saved with this run's `--builds`.
pub fn same_builds(saved: Baseline, path: &str, args: &BenchArgs) -> Result<Baseline, Failure> {
    match saved.builds == args.builds as usize {
        true => Ok(saved),
        false => Err(Failure::usage(format!(
            "{path} was saved with --builds {} and this run has --builds {}: sides of other \
             builds do not compare (save again, or give the same --builds)",
            saved.builds, args.builds
        ))),
    }
}

/// Each measured side against its saved side (the same position), where every build of
/// both was measured: the rounds pooled for the table, the verdict judged on `--metric`, on
/// runs apart with builds as the unit (or exactly, where its runs agree within their read
/// jitter).
pub fn against_saved(
    measured: &[Measurement],
    saved: &[Saved],
    args: &BenchArgs,
) -> Result<Vec<(Against, Comparison)>, Failure> {
    let k = args.builds as usize;
    let new_sides = sides(measured, args);
    let pairs = new_sides.iter().zip(saved.chunks(k)).enumerate();
    let compared = pairs.filter_map(|(s, (new, old))| {
        let b = new.result.as_ref()?;
        let old_results: Option<Vec<&BenchResult>> =
            old.iter().map(|x| x.result.as_ref()).collect();
        let a = pooled(&format!("saved {}", args.side_name(s)), &old_results?);
        let builds = &measured[s * k..(s + 1) * k];
        let judged = compare_on(&a, b, metric::judged(args)).map(|mut c| {
            let runs: Vec<Vec<f64>> = old.iter().map(|x| x.runs_of(&c.metric)).collect();
            let medians: Vec<f64> = builds
                .iter()
                .filter_map(|m| Some(median_of(m.result()?, &c.metric)))
                .collect();
            judge_apart_builds(&mut c, &runs, &medians);
            (Against::SavedSide(s), c)
        });
        Some(judged)
    });
    compared.collect::<Result<_, _>>().map_err(unjudgeable)
}

/// `r`'s median round figure of `metric` ([`median_round_at`]; NaN where it has none).
fn median_of(r: &BenchResult, metric: &Metric) -> f64 {
    let at = r.metrics.iter().position(|m| m.metric == *metric);
    at.map_or(f64::NAN, |i| median_round_at(r, i))
}

/// The sides of `measured`, `k` builds each.
pub fn sides(measured: &[Measurement], args: &BenchArgs) -> Vec<Side> {
    let k = args.builds as usize;
    let each = measured.chunks(k).enumerate().map(|(s, builds)| {
        let name = args.side_name(s);
        let results: Option<Vec<&BenchResult>> = builds.iter().map(|m| m.result()).collect();
        let result = results.map(|r| pooled(&name, &r));
        Side { name, result }
    });
    each.collect()
}

/// The builds' results pooled into one, build after build, with each round's time and the
/// first build's conditions (and every build's warnings, once each).
fn pooled(name: &str, builds: &[&BenchResult]) -> BenchResult {
    let first = builds[0];
    let rows = builds.iter().flat_map(|r| r.rows().flatten().copied());
    let metrics = first.metrics.iter().map(|m| m.metric.clone()).collect();
    let bench = Bench::new(name).with_threshold(first.threshold);
    let clock = first.conditions.clock.clone();
    let warm_up = first.conditions.warm_up;
    let mut r = BenchResult::from_rows(&bench, metrics, rows.collect(), clock, warm_up)
        .expect("every build holds whole rows of the same metrics");
    let rounds = builds.iter().flat_map(|b| b.rounds.iter());
    for (pooled, round) in r.rounds.iter_mut().zip(rounds) {
        (pooled.start, pooled.length, pooled.first) = (round.start, round.length, round.first);
    }
    r.conditions = first.conditions.clone();
    carry_flags(&mut r, builds);
    for warning in builds.iter().flat_map(|b| &b.conditions.warnings) {
        if !r.conditions.warnings.contains(warning) {
            r.conditions.warnings.push(warning.clone());
        }
    }
    r.pairing = first.pairing;
    r
}

/// What the builds' metrics say of their figures, in the pooled result's: the runs floored
/// at 0 by the subtracted baseline (summed), the widest resolution and baseline, and
/// whether any build was multiplexed, with their times enabled and running (summed).
fn carry_flags(pooled: &mut BenchResult, builds: &[&BenchResult]) {
    for (i, m) in pooled.metrics.iter_mut().enumerate() {
        for b in builds.iter().filter_map(|b| b.metrics.get(i)) {
            m.floored += b.floored;
            m.resolution = m.resolution.max(b.resolution);
            m.baseline = m.baseline.max(b.baseline);
            m.multiplexed |= b.multiplexed;
            let (enabled, running) = b.times;
            m.times = (
                m.times.0.saturating_add(enabled),
                m.times.1.saturating_add(running),
            );
        }
    }
}

/// Each side after the first against side 1 on `metric`, with builds as the unit (none
/// where a side was not measured); where the builds cannot be judged, the pooled rounds'
/// verdict with a warning saying why.
pub fn comparisons(
    sides: &[Side],
    k: usize,
    metric: &str,
) -> Result<Vec<(usize, Comparison)>, Failure> {
    let Some(first) = sides.first().and_then(|s| s.result.as_ref()) else {
        return Ok(Vec::new());
    };
    let others = sides.iter().enumerate().skip(1);
    let compared = others.filter_map(|(s, side)| {
        let b = side.result.as_ref()?;
        let judged = compare_on(first, b, metric).map(|mut c| {
            if let Err(e) = judge_builds(&mut c, first, b, k) {
                c.warnings.push(format!(
                    "not judged with builds as the unit ({e}): the verdict is the pooled \
                     rounds'"
                ));
            }
            (s, c)
        });
        Some(judged)
    });
    compared.collect::<Result<_, _>>().map_err(unjudgeable)
}

/// Per side, its builds' median run times (the medians of their rounds, in milliseconds) and each one's difference from the side's mean
/// (what layout alone moves, and the rounds' noise).
pub fn write_builds(out: &mut String, measured: &[Measurement], k: usize) {
    for (s, builds) in measured.chunks(k).enumerate() {
        let _ = writeln!(out, "\n##### Builds of side {}\n", s + 1);
        let _ = writeln!(out, "| build | median run | against the side's mean |");
        let _ = writeln!(out, "|---|---:|---:|");
        let medians: Vec<f64> = builds
            .iter()
            .map(|m| m.result().map_or(f64::NAN, median_round))
            .collect();
        let logs = medians.iter().filter(|m| m.is_finite()).map(|m| m.ln());
        let mean = (logs.clone().sum::<f64>() / logs.count() as f64).exp();
        for (m, median) in builds.iter().zip(&medians) {
            let _ = match median.is_finite() {
                true => writeln!(
                    out,
                    "| `{}` | {:.3} ms | {:+.2} % |",
                    m.command,
                    median / 1e9,
                    (median / mean - 1.0) * 100.0
                ),
                false => writeln!(out, "| `{}` | not measured | |", m.command),
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::saved::tests::less_the_shell;
    use picollo_bench::compare;

    #[test]
    fn a_side_carries_the_floors_of_its_builds() {
        let one = less_the_shell("build 1", &[900, 5_000, 6_000]);
        let two = less_the_shell("build 2", &[800, 700, 7_000]);
        let side = pooled("side 1", &[&one, &two]);
        let t = side.time();
        assert_eq!((t.floored, t.baseline), (3, one.time().baseline));
        assert!(t.flagged());
        let other = less_the_shell("side 2", &[5_000, 6_000, 7_000, 5_500, 6_500, 6_100]);
        let mut line = String::new();
        compare(&side, &other).write_verdict(&mut line).unwrap();
        assert!(line.contains("[side 1's time: floored 50.0 %"), "{line}");
    }
}
