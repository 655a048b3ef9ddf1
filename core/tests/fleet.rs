//! The fleet example's merge, with real processes: this test binary (no libtest harness, so
//! its output is only what it prints) re-executes itself with `PICOLLO_FLEET_WORKER=i` to
//! play host `i`, which prints its interval log and exits; the parent aggregates the eight
//! logs and checks the sum against one histogram that recorded everything.

#[path = "../examples/fleet.rs"]
#[allow(dead_code)] // the example's `main` is not this binary's
mod fleet;

use std::process::Command;

use fleet::{compare, reference, run_fleet, worker_log, HOSTS, INTERVALS, RANKS, VALUES};
use picollo::Histogram;

const WORKER: &str = "PICOLLO_FLEET_WORKER";

fn main() {
    if let Some(i) = std::env::var_os(WORKER) {
        let i: usize = i
            .to_str()
            .and_then(|s| s.parse().ok())
            .expect("a host number");
        print!("{}", worker_log(i).expect("the worker writes its log"));
        return;
    }
    let exe = std::env::current_exe().expect("the test binary's path");
    let merged = run_fleet(|i| {
        let mut c = Command::new(&exe);
        c.env(WORKER, i.to_string());
        c
    })
    .expect("every worker ships a readable log");
    print!("test fleet_merge_equals_single_histogram ... ");

    // Every host shipped its share, in INTERVALS intervals.
    assert_eq!(merged.intervals, HOSTS * INTERVALS as usize);
    for (i, &n) in merged.per_host.iter().enumerate() {
        let share = (0..VALUES).filter(|j| j % HOSTS as u64 == i as u64).count() as u64;
        assert_eq!(n, share, "host{i}");
    }

    // Bucket for bucket, and the same percentiles.
    let single = reference();
    let (m, s) = (merged.merged.view(), single.view());
    assert_eq!(m.total_count(), VALUES);
    assert_eq!(compare(&m, &s), Ok(()));
    let (mut a, mut b) = ([0; RANKS.len()], [0; RANKS.len()]);
    m.percentile_values(&RANKS, &mut a).unwrap();
    s.percentile_values(&RANKS, &mut b).unwrap();
    assert_eq!(a, b);
    assert!(a.windows(2).all(|w| w[0] <= w[1]) && a[0] < a[RANKS.len() - 1]);
    let nonzero = m.counts().iter().filter(|&&c| c != 0).count();
    assert!(
        nonzero > 1000,
        "the data set spreads over many buckets ({nonzero})"
    );

    // The comparison does catch a fleet that lost a host's last interval, or one value.
    let last_host = worker_log(HOSTS - 1).unwrap();
    let last_interval = picollo::hdr::LogReader::new(&last_host)
        .last()
        .unwrap()
        .unwrap();
    let mut short: Histogram<u64, Vec<u64>> = Histogram::new(fleet::config()).unwrap();
    short.add(&m).unwrap();
    short.subtract(&last_interval.histogram.view()).unwrap();
    let err = compare(&short.view(), &s).unwrap_err();
    assert!(err.starts_with("bucket "), "{err}");
    let mut one_off = single.clone();
    one_off.record(fleet::value(0) + 1_000_000);
    assert!(compare(&m, &one_off.view()).is_err());
    println!("ok");
}
