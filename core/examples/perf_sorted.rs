//! Sorted vs unsorted: a branchy loop over 1,000,000 random bytes, measured before and
//! after sorting them, as diff tables of cycles and branch misses (the famous Stack
//! Overflow question). Without a hardware PMU it shows Software:TaskClock instead.
//!
//! `cargo run --release -p picollo --features perf --example perf_sorted [iterations]`

use picollo::perf::{discover, Event, HardwareEvent, PerfError, SessionBuilder, SoftwareEvent};
use picollo::Summary;

/// xorshift64*: enough randomness for branch prediction to fail half the time.
fn random_bytes(n: usize, mut seed: u64) -> Vec<u8> {
    (0..n)
        .map(|_| {
            seed ^= seed >> 12;
            seed ^= seed << 25;
            seed ^= seed >> 27;
            (seed.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 56) as u8
        })
        .collect()
}

/// The branch: taken for half of the random bytes, unpredictable until they are sorted.
/// black_box in one arm keeps the compiler from turning the branch into a select.
fn branchy(values: &[u8], mut acc: f64) -> f64 {
    for &v in values {
        if v >= 128 {
            acc += 100.0;
        } else {
            acc = std::hint::black_box(acc * 0.9999);
        }
    }
    acc
}

fn main() -> Result<(), PerfError> {
    let iterations: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(1_000);
    let info = discover();
    match info.number_of_counters() {
        Some((f, p)) => println!("CPU PMU: fixedCounters={f}, programmableCounters={p}"),
        None => println!("CPU PMU: unavailable: {}", info.describe()),
    }

    let hardware: [Event; 2] = [
        HardwareEvent::CpuCycles.into(),
        HardwareEvent::BranchMisses.into(),
    ];
    let mut b = SessionBuilder::new().with_kernel(false).with_enabled(true);
    for e in hardware {
        b = b.with_counter(e);
    }
    let mut session = match b.open() {
        Ok(s) => s,
        Err(e) if e.is_unavailable() => {
            println!("Hardware counters unavailable: {e}");
            println!("Showing Software:TaskClock (nanoseconds on CPU) instead.\n");
            SessionBuilder::new()
                .with_software(SoftwareEvent::TaskClock)
                .open()?
        }
        Err(e) => return Err(e),
    };

    let mut values = random_bytes(1_000_000, 0x9e37_79b9_7f4a_7c15);
    let mut unsorted: Vec<Summary> = Vec::new();
    let mut acc = 0.0;
    for round in 0..2 {
        for _ in 0..iterations {
            session.read(true)?;
            acc = branchy(&values, acc);
            session.read(true)?;
            session.record();
        }
        if round == 0 {
            unsorted = session
                .counters()
                .iter()
                .map(|c| c.histogram().view().summary())
                .collect();
            session.reset()?;
            values.sort_unstable();
            acc = 0.0;
        }
    }
    assert!(acc >= 0.0, "keep the work observable");

    for (c, before) in session.counters().iter().zip(&unsorted) {
        let after = c.histogram().view().summary();
        let mut table = String::new();
        let _ = before.write_diff(&after, &mut table, c.name(), "Unsorted", "Sorted");
        println!("{table}");
    }
    Ok(())
}
