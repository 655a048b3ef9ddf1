//! Writes HTML reports of a comparison and of one result:
//! `cargo run --release -p picollo-bench --example html_report -- DIR` writes
//! `DIR/comparison.html` (a loop over 4,096 bytes against the same loop over 10 % more) and
//! `DIR/result.html` (the longer loop alone). scripts/html.sh opens them in Chromium.

use std::fmt::Write as _;

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
    writeln!(verdict)?;
    print!("{verdict}");
    Ok(())
}
