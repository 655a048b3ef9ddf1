//! `picollo merge`: a suite of 200 benchmarks on a simulated machine, compared with another
//! build's in 8 shards (`--shard 1/8`..`8/8`), each shard writing its document; the merged
//! run names every benchmark once, keeps each shard's verdict and ends with the worst
//! shard's status. Then the refusals: a file that is not a suite's document, a benchmark in
//! two documents.

mod common;

use std::cell::Cell;
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::time::{Duration, Instant};

use common::{picollo, temp};
use picollo_bench::suite::{Exit, Suite};
use picollo_bench::{Bench, BenchError, Measured, Meter, Metric, MetricKind, Unit, SCALE};

/// The benchmarks of each side.
const BENCHMARKS: usize = 200;
/// The benchmark whose head does 5 % more work than its base.
const SLOWER: usize = 137;

/// A simulated clock: it reads the time the simulated work has advanced.
struct Clock {
    now: Rc<Cell<f64>>,
    started: f64,
}

impl Meter for Clock {
    fn metrics(&self) -> Vec<Metric> {
        vec![Metric::new("time", Unit::Nanoseconds, MetricKind::Time)]
    }

    fn start(&mut self) -> Result<(), BenchError> {
        self.started = self.now.get();
        Ok(())
    }

    fn stop(&mut self, out: &mut [Measured]) -> Result<(), BenchError> {
        let ns = self.now.get() - self.started;
        out[0] = Measured {
            value: (ns * SCALE as f64) as u64,
            ..Measured::default()
        };
        Ok(())
    }

    fn clock(&self) -> String {
        "simulated".into()
    }
}

/// Work of `k` operations of `base` ns each on the clock `now`, each ±1 % (a seeded
/// generator).
fn work(now: &Rc<Cell<f64>>, base: f64, seed: u64) -> impl FnMut(u64) {
    let (now, mut state) = (Rc::clone(now), seed);
    move |k| {
        for _ in 0..k {
            state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            let jitter = 1.0 + 0.01 * ((z ^ (z >> 31)) % 2_001) as f64 / 1_000.0 - 0.01;
            now.set(now.get() + base * jitter);
        }
    }
}

/// The name of benchmark `i`.
fn name(i: usize) -> String {
    format!("sum/{i:03}")
}

/// A side's suite on the clock `now`: benchmark `i` of 100 + i ns an operation, times
/// `slower` for benchmark [`SLOWER`].
fn suite<'a>(side: &str, now: &'a Rc<Cell<f64>>, slower: f64) -> Suite<'a> {
    let settings = Bench::new("sim")
        .with_batch(10)
        .with_samples(200)
        .with_rounds(20)
        .with_warmup(Duration::ZERO)
        .with_relative_error(0.001)
        .with_time_budget(Duration::from_secs(3_600));
    let mut s = Suite::new("shards")
        .with_settings(settings)
        .with_meter(move || {
            Box::new(Clock {
                now: Rc::clone(now),
                started: 0.0,
            })
        });
    for i in 0..BENCHMARKS {
        let factor = if i == SLOWER { slower } else { 1.0 };
        let seed = i as u64 * 2 + u64::from(side == "head");
        s.bench_batched(&name(i), work(now, (100 + i) as f64 * factor, seed));
    }
    s
}

/// The head (`slower` for benchmark [`SLOWER`]) against the base in the first `run` of 8
/// shards, each writing its document under `dir`: the documents' paths and each shard's exit status.
fn shards(dir: &Path, slower: f64, run: usize) -> (Vec<PathBuf>, Vec<Exit>) {
    let now = Rc::new(Cell::new(0.0));
    let (mut base, mut head) = (suite("base", &now, 1.0), suite("head", &now, slower));
    let (mut docs, mut exits) = (Vec::new(), Vec::new());
    for i in 1..=run {
        let out = dir.join(format!("shard{i}"));
        let args: Vec<String> = [
            "--shard",
            &format!("{i}/8"),
            "--seed",
            "7",
            "--out",
            out.to_str().unwrap(),
        ]
        .iter()
        .map(|a| a.to_string())
        .collect();
        let started = Instant::now();
        let outcome = head
            .compare_against_written(&mut base, &args, &mut Vec::new())
            .unwrap();
        println!(
            "shard {i}/8: {} benchmarks compared in {:.2} s (exit {})",
            outcome.compared.len(),
            started.elapsed().as_secs_f64(),
            outcome.exit as u8
        );
        docs.push(out.join("shards").join("results.json"));
        exits.push(outcome.exit);
    }
    (docs, exits)
}

/// `picollo merge` of `docs` with the summary, a bmf export and the page under `dir`: its
/// exit status, the summary and the bmf export's text.
fn merged(dir: &Path, docs: &[PathBuf]) -> (Option<i32>, String, String) {
    let (summary, bmf) = (dir.join("summary.md"), dir.join("bmf.json"));
    let (out, html) = (dir.join("merged.json"), dir.join("merged.html"));
    let mut args: Vec<String> = vec!["merge".into()];
    args.extend(docs.iter().map(|d| d.to_str().unwrap().to_string()));
    for (flag, path) in [
        ("--summary", summary.clone()),
        ("--out", out),
        ("--html", html.clone()),
    ] {
        args.extend([flag.to_string(), path.to_str().unwrap().into()]);
    }
    args.push(format!("--export=bmf={}", bmf.display()));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let run = picollo(&args, None);
    println!("picollo merge: {}", run.stderr);
    let page = std::fs::read_to_string(html).unwrap();
    assert!(page.contains("sum/000 (head) against sum/000 (base)"));
    let read = |p: &Path| std::fs::read_to_string(p).unwrap();
    (run.code, read(&summary), read(&bmf))
}

#[test]
fn eight_shards_merged_name_every_benchmark_once_and_exit_as_the_worst_shard() {
    let dir = temp("merge-shards");
    let (docs, exits) = shards(&dir, 1.05, 8);
    let per_shard: Vec<usize> = docs
        .iter()
        .map(|d| {
            let text = std::fs::read_to_string(d).unwrap();
            text.matches("\"verdict\":").count()
        })
        .collect();
    println!("comparisons a shard: {per_shard:?}");
    assert_eq!(per_shard.iter().sum::<usize>(), BENCHMARKS);
    let worst = exits.iter().map(|e| *e as i32).max().unwrap();
    assert_eq!(exits.iter().filter(|e| **e == Exit::Slower).count(), 1);
    let started = Instant::now();
    let (code, summary, bmf) = merged(&dir, &docs);
    println!("merged in {:.2} s", started.elapsed().as_secs_f64());
    assert_eq!(code, Some(worst));
    assert_eq!(code, Some(7));
    for i in 0..BENCHMARKS {
        let key = format!("\"{}\":", name(i));
        assert_eq!(bmf.matches(&key).count(), 1, "{key} in {bmf}");
        let row = format!("| {} (head) vs {} (base) |", name(i), name(i));
        assert_eq!(summary.matches(&row).count(), 1, "{row} in\n{summary}");
    }
    let slower: Vec<&str> = summary
        .lines()
        .filter(|l| l.starts_with("| ") && l.contains(" slower"))
        .collect();
    assert_eq!(slower.len(), 1, "{slower:?}");
    assert!(slower[0].contains(&name(SLOWER)), "{slower:?}");
    assert!(
        summary.starts_with("### Picollo: 200 comparisons: 🔴 1 slower"),
        "{summary}"
    );
}

#[test]
fn shards_that_all_pass_merge_into_a_run_that_passes() {
    let dir = temp("merge-pass");
    let (docs, exits) = shards(&dir, 1.0, 8);
    assert!(exits.iter().all(|e| *e == Exit::Ok), "{exits:?}");
    let (code, summary, _) = merged(&dir, &docs);
    assert_eq!(code, Some(0));
    assert!(
        summary.starts_with("### Picollo: 200 comparisons: 🔴 0 slower"),
        "{summary}"
    );
}

#[test]
fn a_file_that_is_not_a_suites_document_and_a_benchmark_in_two_are_refused() {
    let not_ours = temp("merge-not-a-document.json");
    std::fs::write(&not_ours, "{\"benchmarks\": []}").unwrap();
    let run = picollo(&["merge", not_ours.to_str().unwrap()], None);
    run.assert_exit(4, "not a document a suite writes (results.json)");
    let dir = temp("merge-twice");
    let (docs, _) = shards(&dir, 1.0, 1);
    let first = docs[0].to_str().unwrap();
    let run = picollo(&["merge", first, first], None);
    run.assert_exit(4, "benchmark \"sum/");
    common::assert_has(&run.stderr, "is in both");
}
