//! A configuration from arbitrary bytes: `validate` answers with a `Result` that agrees with
//! the documented rules, and every valid configuration builds a histogram of each kind and
//! counter width whose range ends land in the first and last buckets. Nothing may panic.
#![no_main]

mod common;

use arbitrary::Arbitrary;
use common::selection;
use libfuzzer_sys::fuzz_target;
use picollo::concurrent::{
    ApproxPolicy, ConcurrentHistogram, CounterBits, DynHistogram, Mode, Source,
};
use picollo::{Config, ConfigError, Histogram};

/// Storage larger than this is validated but not allocated (the fuzzer's memory limit and
/// speed matter more than the allocation of big arrays, which the unit tests cover).
const MAX_BUILT_LEN: usize = 1 << 16;

#[derive(Arbitrary, Debug)]
enum Error {
    Bits(u64),
    Special(u8),
}

#[derive(Arbitrary, Debug)]
enum End {
    Raw(u64),
    Small(u16),
    PowerOfTwo(u8, i8),
}

#[derive(Arbitrary, Debug)]
struct Input {
    error: Error,
    min: End,
    max: End,
    selection: u8,
    threshold: u32,
    max_shift: u32,
    exact_when_uncontended: bool,
}

const SPECIAL_ERRORS: [f64; 16] = [
    0.0,
    -0.0,
    f64::NAN,
    f64::INFINITY,
    f64::NEG_INFINITY,
    f64::MIN_POSITIVE,
    5e-324,
    1e-12,
    1e-6,
    1e-3,
    0.0078125,
    0.01,
    0.1,
    0.5,
    1.0,
    -0.01,
];

fn end(e: &End) -> u64 {
    match *e {
        End::Raw(v) => v,
        End::Small(v) => u64::from(v),
        End::PowerOfTwo(shift, delta) => {
            (1u64 << (shift % 64)).wrapping_add_signed(i64::from(delta))
        }
    }
}

fuzz_target!(|input: Input| {
    let error = match input.error {
        Error::Bits(b) => f64::from_bits(b),
        Error::Special(k) => SPECIAL_ERRORS[usize::from(k) % SPECIAL_ERRORS.len()],
    };
    let (min, max) = (end(&input.min), end(&input.max));
    let config = Config::new()
        .with_relative_error(error)
        .with_range(min, max)
        .with_value_selection(selection(input.selection));
    let error_ok = error.is_finite() && error > 0.0;
    let shape = match config.validate() {
        Ok(shape) => {
            assert!(error_ok && min <= max, "{config:?} was accepted");
            shape
        }
        Err(ConfigError::InvalidRelativeError(e)) => {
            assert!(!error_ok, "{config:?}: a valid error was refused");
            assert!(e.to_bits() == error.to_bits());
            assert_eq!(config.storage_len(), 0);
            return;
        }
        Err(ConfigError::MinAboveMax { min: m, max: x }) => {
            assert!(error_ok && min > max && (m, x) == (min, max), "{config:?}");
            assert_eq!(config.storage_len(), 0);
            return;
        }
        Err(e) => panic!("{config:?}: unexpected error {e:?}"),
    };
    let len = shape.len();
    assert!(len >= 1);
    assert_eq!(config.storage_len(), len);
    assert_eq!(shape.range(), (min, max));
    let layout = shape.layout();
    let rel = layout.relative_error();
    assert!(
        rel > 0.0 && rel <= 0.1 * (1.0 + 1e-9),
        "relative error {rel} out of range"
    );
    // The range ends are stored, in the first and last buckets, and the buckets between
    // them tile the values without gaps (checked at both ends).
    assert!(
        shape.bucket(0).contains(min),
        "{config:?}: min not in bucket 0"
    );
    assert!(
        shape.bucket(len - 1).contains(max),
        "{config:?}: max not in the last bucket"
    );
    assert!(shape.offset(min) == 0 && shape.offset(max) == len - 1);
    for i in (0..len.saturating_sub(1))
        .take(64)
        .chain((0..len.saturating_sub(1)).rev().take(64))
    {
        let (a, b) = (shape.bucket(i), shape.bucket(i + 1));
        assert!(a.lower <= a.highest && a.highest.checked_add(1) == Some(b.lower));
    }

    // A storage of the wrong length is refused.
    assert!(matches!(
        Histogram::<u32, _>::from_storage(config, vec![0u32; len + 1]),
        Err(ConfigError::StorageLength { .. })
    ));
    let heapless = Histogram::<u64, heapless::Vec<u64, 256>>::new_heapless(config);
    assert_eq!(heapless.is_ok(), len <= 256);
    if len > MAX_BUILT_LEN {
        return;
    }

    let probes = [
        min,
        max,
        min.saturating_sub(1),
        max.saturating_add(1),
        0,
        u64::MAX,
    ];
    let first = shape.bucket(0).lower;
    let last = shape.bucket(len - 1).highest;
    let inside = probes.iter().filter(|&&v| v >= first && v <= last).count() as u64;

    let mut h32 = config.build::<u32>().unwrap();
    let mut h64 = config.build::<u64>().unwrap();
    for &v in &probes {
        h32.record(v);
        h64.record_n(v, 1);
    }
    for view in [h32.view().total_count(), h64.view().total_count()] {
        assert_eq!(view, inside);
    }
    for (total, outside) in [
        (
            h32.total_count(),
            [h32.underflow_count(), h32.overflow_count()],
        ),
        (
            h64.total_count(),
            [h64.underflow_count(), h64.overflow_count()],
        ),
    ] {
        assert_eq!(total + outside[0] + outside[1], probes.len() as u64);
    }
    let p = h32.view().percentile(50.0).unwrap();
    assert!(p.lower <= p.value && p.value <= p.highest);

    let policy = ApproxPolicy::new()
        .with_threshold(input.threshold)
        .with_max_shift(input.max_shift)
        .with_exact_when_uncontended(input.exact_when_uncontended);
    let modes = [
        Mode::SingleWriter,
        Mode::Interlocked,
        Mode::ThreadLocal,
        Mode::Approximate(policy),
    ];
    for mode in modes {
        let c32 = ConcurrentHistogram::<u32>::new(config, mode).unwrap();
        let c64 = ConcurrentHistogram::<u64>::new(config, mode).unwrap();
        // The approximate mode is exact in record_n (single records above its threshold
        // are probabilistic by design).
        let exact = !matches!(mode, Mode::Approximate(_));
        for &v in &probes {
            if exact {
                c32.record(v);
                c64.record(v);
            } else {
                c32.record_n(v, 1);
                c64.record_n(v, 1);
            }
        }
        assert_eq!(c32.total_count(), inside, "{mode:?}");
        assert_eq!(c64.total_count(), inside, "{mode:?}");
        for bits in [CounterBits::U32, CounterBits::U64] {
            let d = DynHistogram::new(config, bits, mode).unwrap();
            if exact {
                d.record_many(&probes);
            } else {
                probes.iter().for_each(|&v| d.record_n(v, 1));
            }
            assert_eq!(d.total_count(), Ok(inside), "{mode:?} {bits:?}");
            assert_eq!(d.storage_len(), len);
        }
    }
});
