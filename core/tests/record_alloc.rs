//! Recording allocates nothing: not into dense counters in any mode or width (integer and
//! float), and not into sparse ones once the blocks the values land in exist. Counted by a
//! global allocator that counts this thread's allocations only while asked to.
#![cfg(feature = "std")]

mod common;

use common::counting::{allocations_of, Counting};
use picollo::concurrent::{ApproxPolicy, CounterBits, DynHistogram, Mode, Storage};
use picollo::float::{FloatConfig, FloatHistogram};
use picollo::{Config, Histogram};

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Latency-like values over the whole range, a few outside it, and the range's ends.
fn values() -> Vec<u64> {
    let mut state = 0x0A11_0C47u64;
    let mut values: Vec<u64> = (0..20_000)
        .map(|_| {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (state >> 11) % 20_000_000_000
        })
        .collect();
    values.extend([0, 1, 999, 1_000, 10_000_000_000, u64::MAX]);
    values
}

#[test]
fn recording_into_dense_counters_allocates_nothing() {
    let values = values();
    let config = Config::new()
        .with_relative_error(0.001)
        .with_range(1_000, 10_000_000_000);
    let mut plain = Histogram::<u32, Vec<u32>>::new(config).unwrap();
    assert_eq!(
        allocations_of(|| values.iter().for_each(|&v| plain.record(v))),
        0,
        "plain"
    );
    for bits in [CounterBits::U32, CounterBits::U64] {
        for &mode in Mode::ALL {
            for extremes in [false, true] {
                let mut h = DynHistogram::new(config, bits, mode).unwrap();
                if extremes {
                    h = h.with_exact_extremes();
                }
                // A thread's first record in the range of a thread-local histogram makes
                // its shard.
                h.record(5_000);
                let n = allocations_of(|| {
                    for &v in &values {
                        h.record(v);
                        h.record_n(v, 3);
                    }
                });
                assert_eq!(n, 0, "{bits:?} {mode:?} extremes {extremes}");
                let seen = h
                    .with_view(|view| {
                        let v = view.as_view();
                        v.total_count() + v.underflow_count() + v.overflow_count()
                    })
                    .unwrap();
                assert_eq!(seen, 1 + 4 * values.len() as u64, "{bits:?} {mode:?}");
            }
        }
    }
    for mode in [Mode::SingleWriter, Mode::Interlocked] {
        let f = FloatHistogram::<u32>::new(
            FloatConfig::new()
                .with_range(1e-6, 1e12)
                .with_storage(picollo::float::Storage::Dense)
                .with_mode(mode),
        )
        .unwrap();
        let n = allocations_of(|| {
            for &v in &values {
                f.record(v as f64);
                f.record(-(v as f64) * 1e-3);
                f.record_n(v as f64 + 0.5, 2);
            }
            for x in [f64::NAN, f64::INFINITY, 0.0, 1e-300, 1e300] {
                f.record(x);
            }
        });
        assert_eq!(n, 0, "float {mode:?}");
    }
}

#[test]
fn sparse_counters_allocate_only_on_a_blocks_first_touch() {
    let values = values();
    let shape = Config::new()
        .with_relative_error(0.0001)
        .validate()
        .unwrap();
    for mode in [
        Mode::SingleWriter,
        Mode::Interlocked,
        Mode::Approximate(ApproxPolicy::new()),
    ] {
        let h = DynHistogram::with_storage(shape, CounterBits::U32, mode, Storage::Sparse).unwrap();
        let first = allocations_of(|| values.iter().for_each(|&v| h.record(v)));
        assert!(first > 0, "{mode:?}: the first records make blocks");
        let again = allocations_of(|| values.iter().for_each(|&v| h.record(v)));
        assert_eq!(again, 0, "{mode:?}: the blocks exist");
    }
    let f = FloatHistogram::<u64>::new(FloatConfig::new()).unwrap();
    let doubles: Vec<f64> = values.iter().map(|&v| v as f64 * 1.5 - 3e9).collect();
    let first = allocations_of(|| doubles.iter().for_each(|&x| f.record(x)));
    assert!(first > 0, "float: the first records make blocks");
    let again = allocations_of(|| doubles.iter().for_each(|&x| f.record(x)));
    assert_eq!(again, 0, "float: the blocks exist");
}
