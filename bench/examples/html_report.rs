//! Writes HTML reports of a comparison and of one result:
//! `cargo run --release -p picollo-bench --example html_report -- DIR` writes
//! `DIR/comparison.html` (a loop over 4,096 bytes against the same loop over 10 % more),
//! `DIR/result.html` (the longer loop alone) and `DIR/sixteen.html` (a comparison of 16
//! metrics × 100 rounds a side, figures drawn from a log-normal: the size the reports are held
//! to, under 1 MB). It prints each page's verdict line, `NAME.html: verdict: …`.
//! scripts/html.sh opens them in Chromium.

fn branchy(data: &[u8]) -> u64 {
    let mut sum = 0u64;
    for &b in data {
        if b >= 128 {
            sum += u64::from(b);
        }
    }
    sum
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    use picollo_bench::{black_box, Bench};

    let dir = std::env::args().nth(1).unwrap_or_else(|| ".".into());
    let mut x = 0x2545_f491_4f6c_dd1du64;
    let bytes: Vec<u8> = (0..4506)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u8
        })
        .collect();
    let pair = Bench::new("byte loop").compare_fns(
        ("4096 bytes", || {
            black_box(branchy(black_box(&bytes[..4096])));
        }),
        ("4506 bytes", || {
            black_box(branchy(black_box(&bytes)));
        }),
    )?;
    let mut page = String::new();
    pair.write_html(&mut page)?;
    std::fs::write(format!("{dir}/comparison.html"), &page)?;
    page.clear();
    pair.b.write_html(&mut page)?;
    std::fs::write(format!("{dir}/result.html"), &page)?;
    let mut verdict = String::new();
    pair.comparison.write_verdict(&mut verdict)?;
    println!("comparison.html: {verdict}");
    let (a, b) = (sixteen("A", 3e6, &mut x)?, sixteen("B", 3.1e6, &mut x)?);
    let c = picollo_bench::compare(&a, &b);
    page.clear();
    c.write_html(&a, &b, &mut page)?;
    std::fs::write(format!("{dir}/sixteen.html"), &page)?;
    verdict.clear();
    c.write_verdict(&mut verdict)?;
    println!("sixteen.html: {verdict}");
    println!("sixteen.html: {} bytes", page.len());
    Ok(())
}

/// A result of 16 metrics (time, then counts) of 20,000 samples around `scale` (thousandths
/// of the unit; log-normal, σ 0.3), cut into 100 rounds of 200 samples.
fn sixteen(
    name: &str,
    scale: f64,
    x: &mut u64,
) -> Result<picollo_bench::BenchResult, Box<dyn std::error::Error>> {
    use picollo_bench::rules::ROUND_RANKS;
    use picollo_bench::{Bench, BenchResult, Metric, MetricKind, Round, Unit, WarmUp};
    let mut next = || {
        *x ^= *x << 13;
        *x ^= *x >> 7;
        *x ^= *x << 17;
        (*x >> 11) as f64 / (1u64 << 53) as f64
    };
    let mut normal = || {
        let (u, v) = (1.0 - next(), next());
        (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
    };
    let unit = |u: &str| Unit::parse(u).ok_or("a unit");
    let mut metrics = vec![Metric::new("time", unit("ns")?, MetricKind::Time)];
    for i in 1..16 {
        metrics.push(Metric::new(
            &format!("Counter{i}"),
            unit("events")?,
            MetricKind::Counter,
        ));
    }
    let rows: Vec<u64> = (0..20_000 * 16)
        .map(|_| (scale * (0.3 * normal()).exp()) as u64)
        .collect();
    // Figures made up, not measured: no warm-up to speak of.
    let settled = WarmUp {
        converged: true,
        ..WarmUp::default()
    };
    let mut r =
        BenchResult::from_rows(&Bench::new(name), metrics, rows, "example".into(), settled)?;
    let medians: Vec<u64> = (0..100)
        .map(|_| (scale * (0.05 * normal()).exp()) as u64)
        .collect();
    r.rounds = (0..100)
        .map(|k| Round {
            start: k as f64 * 0.01,
            length: 0.01,
            samples: 200,
            first: k % 2 == 0,
            quantiles: vec![ROUND_RANKS.map(|q| medians[k] + (q * scale / 1e3) as u64); 16],
        })
        .collect();
    Ok(r)
}
