//! Writes the Markdown summary for CI of 500 comparisons, constructed from simulated rounds
//! (a quarter 10 % slower, a quarter 10 % faster, a quarter unchanged, a quarter 0.3 %
//! slower): `cargo run --release -p picollo-bench --example ci_summary -- FILE` writes FILE
//! and prints its size against GitHub's 1 MiB limit of a step's summary. scripts/ci_check.py
//! renders it and scripts/html.sh opens it in Chromium.

use picollo_bench::export::{Findings, SUMMARY_LIMIT};
use picollo_bench::{Bench, BenchResult, Metric, WarmUp};

/// A uniform draw in [0, 1) from a xorshift state.
fn uniform(x: &mut u64) -> f64 {
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    (*x >> 11) as f64 / (1u64 << 53) as f64
}

/// A standard normal draw (Box–Muller).
fn normal(x: &mut u64) -> f64 {
    let (u, v) = (1.0 - uniform(x), uniform(x));
    (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
}

/// Interleaved results of 16 rounds, B `shift` slower than A around `ns` nanoseconds.
fn pair(
    i: usize,
    ns: f64,
    shift: f64,
    x: &mut u64,
) -> Result<(BenchResult, BenchResult), Box<dyn std::error::Error>> {
    let (mut a, mut b) = (Vec::new(), Vec::new());
    for _ in 0..16 {
        let round = ns * 1000.0 * (1.0 + 0.02 * normal(x));
        a.push((round * (1.0 + 0.002 * normal(x))) as u64);
        b.push((round * (1.0 + shift) * (1.0 + 0.002 * normal(x))) as u64);
    }
    let warm = WarmUp {
        converged: true,
        ..WarmUp::default()
    };
    let side = |name: String, rows| {
        BenchResult::from_rows(
            &Bench::new(&name),
            vec![Metric::time()],
            rows,
            "simulated".into(),
            warm,
        )
    };
    let (mut ra, mut rb) = (
        side(format!("bench_{i:03} (base)"), a)?,
        side(format!("bench_{i:03}"), b)?,
    );
    (ra.pairing, rb.pairing) = (Some(1), Some(1));
    Ok((ra, rb))
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args().nth(1).ok_or("usage: ci_summary FILE")?;
    let mut x = 0x2545_f491_4f6c_dd1du64;
    let shifts = [0.1, -0.1, 0.0, 0.003];
    let pairs: Vec<(BenchResult, BenchResult)> = (0..500)
        .map(|i| pair(i, 100.0 + i as f64, shifts[i % 4], &mut x))
        .collect::<Result<_, _>>()?;
    let refs: Vec<(&BenchResult, &BenchResult)> = pairs.iter().map(|(a, b)| (a, b)).collect();
    let mut text = String::new();
    Findings::of_pairs(&refs)?.write_summary(&mut text)?;
    std::fs::write(&path, &text)?;
    let share = text.len() as f64 / SUMMARY_LIMIT as f64 * 100.0;
    println!(
        "{path}: 500 comparisons, {} bytes ({share:.1} % of GitHub's 1 MiB)",
        text.len()
    );
    Ok(())
}
