//! Live monitoring: writer threads record into a thread-local histogram while a monitor
//! prints the one-line summary of the last second, every second, from a snapshot taken
//! with deltas (no allocation in steady state). The data drift with time, so the
//! percentiles climb and, after a while, values overflow the range.
//!
//! `cargo run -p picollo --release --example monitoring [seconds]` (default 3).

use picollo::concurrent::Source;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use picollo::concurrent::{ConcurrentHistogram, ConcurrentSnapshot, Mode, XorShift64};
use picollo::{Config, Summary};

const WRITERS: u64 = 2;

fn main() {
    let seconds: u64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(3);
    let config = Config::new()
        .with_relative_error(0.01)
        .with_range(10_000, 30_000);
    let h =
        ConcurrentHistogram::<u64>::new(config, Mode::ThreadLocal).expect("valid configuration");
    let stop = AtomicBool::new(false);
    let start = Instant::now();

    std::thread::scope(|s| {
        for w in 0..WRITERS {
            let (h, stop) = (&h, &stop);
            s.spawn(move || {
                let mut rng = XorShift64::new(w);
                let mut unit = move || (rng.next() >> 11) as f64 / (1u64 << 53) as f64;
                while !stop.load(Ordering::Relaxed) {
                    // A noisy value around 20,000 plus a tail that grows with time.
                    let drift = (start.elapsed().as_millis() as u64 * 4) & 16_383;
                    let tail = unit() * unit() * drift as f64;
                    h.record((20_000.0 + (0.5 - unit()) * 1_000.0 + tail) as u64);
                }
            });
        }

        let mut snapshot = ConcurrentSnapshot::new(&h).expect("same configuration");
        let mut summary = Summary::default();
        let mut line = String::with_capacity(256);
        for _ in 0..seconds {
            std::thread::sleep(Duration::from_secs(1));
            // The counts recorded since the previous update, copied consistently.
            snapshot.update(&h, true).expect("same configuration");
            snapshot.view().summary_into(&mut summary);
            line.clear();
            summary
                .write_line(&mut line, "monitoring")
                .expect("writing to a String");
            println!("{} | {line}", clock());
        }
        stop.store(true, Ordering::Relaxed);
    });

    let mut table = String::new();
    h.summary()
        .write_table(&mut table, "Aggregate")
        .expect("writing to a String");
    println!("{table}");
}

/// `HH:MM:SS.mmm` (UTC) without a date crate.
fn clock() -> String {
    let ms = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis());
    let day_ms = ms % 86_400_000;
    format!(
        "{:02}:{:02}:{:02}.{:03}",
        day_ms / 3_600_000,
        day_ms / 60_000 % 60,
        day_ms / 1_000 % 60,
        day_ms % 1_000
    )
}
