//! HdrHistogram's `.hgrm` percentile distribution of the values in a file, as Picollo
//! writes it: the Rust side of the `.hgrm` interop check (scripts/interop.sh compares it
//! byte for byte with interop/js/hgrm.js).
//!
//! ```text
//! cargo run --example hgrm -- FILE SF TICKS RATIO [csv]   one distribution
//! cargo run --example hgrm -- FILE --all                  every variant the check compares
//! ```
//!
//! FILE holds one value per line, or "value count". SF (1..5) picks the layout matching
//! HdrHistogram's significant digits: block size 2^g with g = 4, 7, 10, 14, 17; the range
//! is `0..=2^53 - 1`, as the JavaScript side's highest trackable value.

use std::process::ExitCode;

use picollo::{Config, HgrmOptions, Histogram};

/// The variants the check compares; interop/js/hgrm.js lists the same ones.
const SIGNIFICANT_DIGITS: [u32; 5] = [1, 2, 3, 4, 5];
const TICKS: [u32; 3] = [5, 2, 1];
const RATIOS: [&str; 2] = ["1", "1000"];
const CSV: [bool; 2] = [false, true];

/// `log2` of the block size matching HdrHistogram's `sf` significant digits.
fn block_scale(sf: u32) -> Option<u32> {
    [4, 7, 10, 14, 17].get(sf.checked_sub(1)? as usize).copied()
}

fn read_pairs(file: &str) -> Result<Vec<(u64, u64)>, String> {
    let text = std::fs::read_to_string(file).map_err(|e| format!("{file}: {e}"))?;
    let mut pairs = Vec::new();
    for line in text.lines() {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let parse = |s: &str| s.parse::<u64>().map_err(|e| format!("{line:?}: {e}"));
        match fields[..] {
            [] => {}
            [v] => pairs.push((parse(v)?, 1)),
            [v, n] => pairs.push((parse(v)?, parse(n)?)),
            _ => return Err(format!("{line:?}: expected \"value\" or \"value count\"")),
        }
    }
    Ok(pairs)
}

fn histogram(pairs: &[(u64, u64)], sf: u32) -> Result<Histogram<u64, Vec<u64>>, String> {
    let g = block_scale(sf).ok_or(format!("significant digits {sf}: expected 1..5"))?;
    let mut h: Histogram<u64, Vec<u64>> = Config::new()
        .with_relative_error(0.5 / (1u64 << g) as f64)
        .with_range(0, (1 << 53) - 1)
        .build()
        .map_err(|e| e.to_string())?;
    for &(v, n) in pairs {
        h.record_n(v, n);
    }
    Ok(h)
}

fn run(args: &[String]) -> Result<String, String> {
    let usage = "usage: hgrm FILE SF TICKS RATIO [csv] | hgrm FILE --all";
    let file = args.first().ok_or(usage)?;
    let pairs = read_pairs(file)?;
    if args.get(1).map(String::as_str) == Some("--all") {
        let mut out = String::new();
        for sf in SIGNIFICANT_DIGITS {
            let h = histogram(&pairs, sf)?;
            for ticks in TICKS {
                for ratio in RATIOS {
                    for csv in CSV {
                        out += &format!(
                            "#### sf={sf} ticks={ticks} ratio={ratio} csv={}\n",
                            csv as u8
                        );
                        let options = HgrmOptions {
                            ticks_per_half_distance: ticks,
                            unit_ratio: ratio.parse().map_err(|_| usage)?,
                            csv,
                        };
                        out += &h.view().to_hgrm(&options);
                    }
                }
            }
        }
        return Ok(out);
    }
    let [_, sf, ticks, ratio, rest @ ..] = args else {
        return Err(usage.into());
    };
    let number = |s: &String| s.parse::<f64>().map_err(|_| format!("{s}: not a number"));
    let h = histogram(&pairs, sf.parse().map_err(|_| usage)?)?;
    let options = HgrmOptions {
        ticks_per_half_distance: ticks.parse().map_err(|_| usage)?,
        unit_ratio: number(ratio)?,
        csv: rest.first().map(String::as_str) == Some("csv"),
    };
    Ok(h.view().to_hgrm(&options))
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(text) => {
            print!("{text}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("hgrm: {e}");
            ExitCode::FAILURE
        }
    }
}
