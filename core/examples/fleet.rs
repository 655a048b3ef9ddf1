//! A fleet and its aggregator: `HOSTS` processes each record their share of one data set
//! into their own concurrent histogram and ship it as an HdrHistogram interval log on
//! stdout (one interval per collect, tagged with the host's name); the aggregator reads the
//! logs and sums them. The sum equals, bucket for bucket, one histogram that recorded the
//! whole data set itself.
//!
//! ```text
//! cargo run --example fleet              # the aggregator: starts 8 copies of itself
//! cargo run --example fleet -- --worker 3   # one host's log, on stdout
//! ```
//!
//! The logic lives in functions (`worker_log`, `run_fleet`, `reference`, `compare`) that
//! `tests/fleet.rs` calls too, with its own binary playing the workers.

use std::error::Error;
use std::fmt::Write as _;
use std::process::{Command, Stdio};
use std::thread;

use picollo::concurrent::{AtomicHistogram, Collect};
use picollo::hdr::{Accumulator, LogReader, LogWriter};
use picollo::{Config, Histogram, View};

/// Hosts in the fleet (worker processes).
pub const HOSTS: usize = 8;
/// Values in the data set, all hosts together.
pub const VALUES: u64 = 240_000;
/// Intervals (collects) each host ships.
pub const INTERVALS: u64 = 4;
/// Threads recording in each host.
pub const THREADS: u64 = 2;
/// The fleet's `StartTime`, seconds since the epoch.
pub const START_TIME: f64 = 1_700_000_000.0;
/// Seconds per interval.
pub const INTERVAL_SECONDS: f64 = 10.0;

/// Every host and the reference record with this configuration: HdrHistogram's 3
/// significant digits (relative error 2^-11), so the V2 histograms of the logs decode into
/// the same layout and add bucket for bucket; nanoseconds from 1 µs to 100 s.
pub fn config() -> Config {
    Config::new()
        .with_relative_error(1.0 / 2048.0)
        .with_range(1_000, 100_000_000_000)
}

/// Value `i` of the data set (`i < VALUES`): latencies in nanoseconds, mostly 20–200 µs,
/// one in a hundred up to 50 times slower (SplitMix64, so every process computes the same).
pub fn value(i: u64) -> u64 {
    let mut z = i.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^= z >> 31;
    let base = 20_000 + z % 180_000;
    if (z >> 40) % 100 == 0 {
        base * (1 + (z >> 48) % 50)
    } else {
        base
    }
}

/// The tag host `i` writes its intervals with.
pub fn host_name(i: usize) -> String {
    format!("host{i}")
}

/// Host `i`'s share: every `HOSTS`-th value, starting at `i`, recorded in `INTERVALS`
/// slices of the data set by `THREADS` threads into one interlocked histogram; after each
/// slice the host takes the interval's counts (`Collect::collect`, exact in this mode) and
/// writes them as one interval line. Returns the whole log.
pub fn worker_log(i: usize) -> Result<String, Box<dyn Error>> {
    if i >= HOSTS {
        return Err(format!("no host {i} in a fleet of {HOSTS}").into());
    }
    let recorder = AtomicHistogram::<u64>::new(config())?;
    let mut log = LogWriter::new(String::new());
    log.header(Some(START_TIME), Some(START_TIME))?;
    log.comment(&format!("{}: every {HOSTS}th value from {i}", host_name(i)))?;
    let per_interval = VALUES / INTERVALS;
    for k in 0..INTERVALS {
        let slice = k * per_interval..(k + 1) * per_interval;
        thread::scope(|s| {
            for t in 0..THREADS {
                let (recorder, slice) = (&recorder, slice.clone());
                s.spawn(move || {
                    let mine = slice.filter(|j| j % HOSTS as u64 == i as u64);
                    for j in mine.filter(|j| (j / HOSTS as u64) % THREADS == t) {
                        recorder.record(value(j));
                    }
                });
            }
        });
        let interval = recorder.collect();
        let start = START_TIME + k as f64 * INTERVAL_SECONDS;
        log.interval(
            Some(&host_name(i)),
            start,
            INTERVAL_SECONDS,
            &interval.view(),
        )?;
    }
    Ok(log.into_inner())
}

/// What the aggregator made of the fleet's logs.
pub struct Fleet {
    /// The sum of every interval of every host, on [`config`]'s layout and range.
    pub merged: Histogram<u64, Vec<u64>>,
    /// Values each host shipped, by host.
    pub per_host: Vec<u64>,
    /// Intervals read, all hosts together.
    pub intervals: usize,
}

/// Start the `HOSTS` workers (`worker(i)` is the command that prints host `i`'s log), wait
/// for them all, and sum their logs: each line read with [`LogReader`], checked to carry
/// its host's tag, and added to an [`Accumulator`].
pub fn run_fleet(worker: impl Fn(usize) -> Command) -> Result<Fleet, Box<dyn Error>> {
    // Every worker runs at once; their outputs are read as each one is waited for.
    let children = (0..HOSTS)
        .map(|i| {
            worker(i)
                .stdout(Stdio::piped())
                .stderr(Stdio::inherit())
                .spawn()
        })
        .collect::<Result<Vec<_>, _>>()?;
    let mut acc = Accumulator::new();
    let mut per_host = vec![0; HOSTS];
    for (i, child) in children.into_iter().enumerate() {
        let out = child.wait_with_output()?;
        if !out.status.success() {
            return Err(format!("{} failed: {}", host_name(i), out.status).into());
        }
        let text = String::from_utf8(out.stdout)?;
        for interval in LogReader::new(&text) {
            let interval = interval?;
            if interval.tag.as_deref() != Some(host_name(i).as_str()) {
                return Err(format!(
                    "{}: line {} is tagged {:?}",
                    host_name(i),
                    interval.line,
                    interval.tag
                )
                .into());
            }
            per_host[i] += interval.histogram.total_count();
            acc.add_interval(&interval)?;
        }
    }
    let intervals = acc.intervals();
    let sum = acc
        .into_histogram()
        .ok_or("the fleet shipped no interval")?;
    // The decoded histograms cover what their data needs; bring the sum onto the fleet's
    // range (same layout: the counts move bucket for bucket).
    let mut merged = Histogram::new(config())?;
    merged.add(&sum.view())?;
    Ok(Fleet {
        merged,
        per_host,
        intervals,
    })
}

/// One histogram that recorded the whole data set itself.
pub fn reference() -> Histogram<u64, Vec<u64>> {
    let mut h = Histogram::new(config()).expect("a valid configuration");
    for j in 0..VALUES {
        h.record(value(j));
    }
    h
}

/// The percentile ranks [`compare`] checks.
pub const RANKS: [f64; 9] = [0.0, 25.0, 50.0, 90.0, 99.0, 99.9, 99.99, 99.999, 100.0];

/// Whether `merged` and `single` hold the same counts bucket for bucket (same layout and
/// range, same underflow/overflow/saturated counts) and report the same [`RANKS`]
/// percentiles; the first difference otherwise.
pub fn compare(merged: &View<'_, u64>, single: &View<'_, u64>) -> Result<(), String> {
    if !merged.shape().same_buckets(&single.shape()) {
        return Err("the two histograms have different buckets".into());
    }
    for (k, (m, s)) in merged.counts().iter().zip(single.counts()).enumerate() {
        if m != s {
            let b = merged.shape().bucket(k);
            return Err(format!(
                "bucket {k} ([{}, {}]): merged {m}, single {s}",
                b.lower, b.highest
            ));
        }
    }
    if merged.outside() != single.outside() {
        return Err(format!(
            "outside counts: merged {:?}, single {:?}",
            merged.outside(),
            single.outside()
        ));
    }
    let (mut a, mut b) = ([0; RANKS.len()], [0; RANKS.len()]);
    merged
        .percentile_values(&RANKS, &mut a)
        .map_err(|e| format!("merged: {e}"))?;
    single
        .percentile_values(&RANKS, &mut b)
        .map_err(|e| format!("single: {e}"))?;
    if a != b {
        return Err(format!("percentiles {RANKS:?}: merged {a:?}, single {b:?}"));
    }
    Ok(())
}

/// The aggregator's report: values per host, then the merged summary.
pub fn report(fleet: &Fleet) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{HOSTS} hosts, {} intervals, {} values:",
        fleet.intervals,
        fleet.per_host.iter().sum::<u64>()
    );
    for (i, n) in fleet.per_host.iter().enumerate() {
        let _ = writeln!(out, "  {}: {n}", host_name(i));
    }
    let _ =
        fleet
            .merged
            .view()
            .summary()
            .write_table_scaled(&mut out, "Fleet latency (µs)", 1000.0);
    out
}

fn main() -> Result<(), Box<dyn Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let [flag, i] = args.as_slice() {
        if flag == "--worker" {
            print!("{}", worker_log(i.parse()?)?);
            return Ok(());
        }
    }
    if !args.is_empty() {
        return Err("usage: fleet [--worker I]".into());
    }
    let exe = std::env::current_exe()?;
    let fleet = run_fleet(|i| {
        let mut c = Command::new(&exe);
        c.args(["--worker", &i.to_string()]);
        c
    })?;
    print!("{}", report(&fleet));
    let single = reference();
    compare(&fleet.merged.view(), &single.view())?;
    println!(
        "\nThe merged histogram equals one that recorded all {VALUES} values itself: {} \
         buckets, {} percentiles.",
        single.counts().len(),
        RANKS.len()
    );
    Ok(())
}
