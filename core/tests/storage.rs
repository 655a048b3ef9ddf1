//! Storage variants and configuration errors: a histogram over `[C; N]` (sized by a `const`),
//! a borrowed `&mut [C]`, a `Vec<C>` or a `Box<[C]>` behaves the same; a storage of the wrong
//! length and a bad configuration are typed errors.

mod common;

use common::SplitMix64;
use picollo::{Config, ConfigError, Histogram, Layout};

const CFG: Config = Config::new()
    .with_relative_error(0.01)
    .with_range(10_000, 30_000);
const LEN: usize = CFG.storage_len();
const FULL: Config = Config::new();
const FULL_LEN: usize = FULL.storage_len();

fn data() -> Vec<u64> {
    let mut rng = SplitMix64(41);
    (0..10_000).map(|_| 5_000 + rng.below(30_000)).collect()
}

fn fill<C: picollo::Counter, S: AsRef<[C]> + AsMut<[C]>>(h: &mut Histogram<C, S>) {
    for v in data() {
        h.record(v);
    }
}

#[test]
fn storage_len_is_a_const() {
    assert_eq!(
        LEN,
        1 + Layout::clamped(0.01).index(30_000) - Layout::clamped(0.01).index(10_000)
    );
    assert_eq!(
        FULL_LEN,
        56 * 512,
        "e = 0.001 over all of u64: 28,672 buckets"
    );
    assert_eq!(FULL_LEN, Layout::clamped(0.001).logical_len());
    let arr = [0u32; LEN];
    assert_eq!(arr.len(), CFG.storage_len());
}

#[test]
fn every_storage_kind_counts_the_same() {
    let mut reference = CFG.build::<u32>().unwrap();
    fill(&mut reference);
    assert!(reference.underflow_count() > 0 && reference.overflow_count() > 0);

    let mut array = Histogram::<u32, [u32; LEN]>::from_storage(CFG, [0; LEN]).unwrap();
    fill(&mut array);
    let mut backing = [0u32; LEN];
    {
        let mut borrowed = Histogram::<u32, &mut [u32]>::from_storage(CFG, &mut backing).unwrap();
        fill(&mut borrowed);
        assert_eq!(borrowed.counts(), reference.counts());
        assert_eq!(borrowed.view().summary(), reference.view().summary());
    }
    // The borrowed storage keeps the counts after the histogram is gone.
    assert_eq!(&backing[..], reference.counts());
    let mut boxed =
        Histogram::<u32, Box<[u32]>>::from_storage(CFG, vec![0; LEN].into_boxed_slice()).unwrap();
    fill(&mut boxed);
    let mut vec = Histogram::<u32, Vec<u32>>::from_storage(CFG, vec![0; LEN]).unwrap();
    fill(&mut vec);
    let mut wide = Histogram::<u64, [u64; LEN]>::from_storage(CFG, [0; LEN]).unwrap();
    fill(&mut wide);

    let expected = reference.view().summary();
    for (name, s) in [
        ("array", array.view().summary()),
        ("boxed", boxed.view().summary()),
        ("vec", vec.view().summary()),
        ("u64 array", wide.view().summary()),
    ] {
        assert_eq!(s, expected, "{name}");
    }
    assert_eq!(array.counts(), reference.counts());
    assert_eq!(boxed.counts(), reference.counts());
    assert_eq!(vec.counts(), reference.counts());
    assert!(wide
        .counts()
        .iter()
        .zip(reference.counts())
        .all(|(&a, &b)| a == b as u64));
    assert_eq!(array.footprint_in_bytes(), LEN * 4);
    assert_eq!(boxed.footprint_in_bytes(), LEN * 4);
    assert_eq!(wide.footprint_in_bytes(), LEN * 8);
    // Storage comes back out.
    let storage: [u32; LEN] = array.into_storage();
    assert_eq!(&storage[..], reference.counts());
}

#[test]
fn a_histogram_on_the_stack_needs_no_allocator() {
    // Everything a no_std user would touch: const sizing, record, query, report into a
    // fixed buffer.
    let mut h = Histogram::<u32, [u32; LEN]>::from_storage(CFG, [0; LEN]).unwrap();
    h.record(24_900);
    h.record_n(20_000, 3);
    let v = h.view();
    assert_eq!(v.percentile_value(100.0), Ok(24_960));
    let mut summary = picollo::Summary::default();
    v.summary_into(&mut summary);
    assert_eq!(summary.total, 4);
}

#[test]
fn from_storage_clears_what_the_storage_held() {
    let h = Histogram::<u32, [u32; LEN]>::from_storage(CFG, [7; LEN]).unwrap();
    assert!(h.counts().iter().all(|&c| c == 0));
    assert_eq!(h.total_count(), 0);
    let mut backing = vec![u64::MAX; LEN];
    let h = Histogram::<u64, &mut [u64]>::from_storage(CFG, &mut backing[..]).unwrap();
    assert_eq!(h.total_count(), 0);
}

#[test]
fn a_storage_of_the_wrong_length_is_refused() {
    let wrong_length = |actual| ConfigError::StorageLength {
        expected: LEN,
        actual,
    };
    for actual in [0, 1, LEN - 1, LEN + 1, 2 * LEN] {
        let err = Histogram::<u32, Vec<u32>>::from_storage(CFG, vec![0; actual]).err();
        assert_eq!(err.unwrap(), wrong_length(actual));
        let mut backing = vec![0u64; actual];
        let err = Histogram::<u64, &mut [u64]>::from_storage(CFG, &mut backing).err();
        assert_eq!(err.unwrap(), wrong_length(actual));
    }
    let err = Histogram::<u32, [u32; 3]>::from_storage(CFG, [0; 3])
        .err()
        .unwrap();
    assert_eq!(err, wrong_length(3));
    let text = err.to_string();
    assert!(
        text.contains(&LEN.to_string()) && text.contains('3'),
        "{text}"
    );
}

#[test]
fn bad_relative_errors_are_typed_errors() {
    for bad in [
        0.0,
        -0.0,
        -0.01,
        -1.0,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
    ] {
        let config = Config::new().with_relative_error(bad);
        let errors = [
            config.validate().unwrap_err(),
            config.build::<u32>().err().unwrap(),
            Histogram::<u64, Vec<u64>>::new(config).err().unwrap(),
            Histogram::<u32, [u32; 1]>::from_storage(config, [0])
                .err()
                .unwrap(),
        ];
        for err in errors {
            match err {
                ConfigError::InvalidRelativeError(e) => {
                    assert!(e.to_bits() == bad.to_bits(), "{bad} reported as {e}")
                }
                other => panic!("{bad}: {other:?}"),
            }
            assert!(err.to_string().contains("relative error"));
        }
        assert_eq!(config.storage_len(), 0);
    }
}

#[test]
fn min_above_max_is_a_typed_error() {
    let config = Config::new().with_range(30_000, 10_000);
    let expected = ConfigError::MinAboveMax {
        min: 30_000,
        max: 10_000,
    };
    assert_eq!(config.validate(), Err(expected));
    assert_eq!(config.build::<u32>().err(), Some(expected));
    // Reported before the storage length is even looked at.
    assert_eq!(
        Histogram::<u32, [u32; 5]>::from_storage(config, [0; 5]).err(),
        Some(expected)
    );
    assert_eq!(config.storage_len(), 0);
    let text = expected.to_string();
    assert!(text.contains("30000") && text.contains("10000"), "{text}");
    let as_error: &dyn std::error::Error = &expected;
    assert!(!as_error.to_string().is_empty());
    // min == max is a valid one-bucket range.
    let one = Config::new().with_range(7, 7);
    assert_eq!(one.storage_len(), 1);
    let mut h = one.build::<u32>().unwrap();
    h.record(6);
    h.record(7);
    h.record(8);
    assert_eq!(
        (h.underflow_count(), h.total_count(), h.overflow_count()),
        (1, 1, 1)
    );
}

#[test]
fn out_of_range_relative_errors_are_clamped_not_refused() {
    let fine = Config::new()
        .with_relative_error(1e-9)
        .with_range(0, 1 << 30)
        .build::<u32>()
        .unwrap();
    assert_eq!(fine.layout().block_size(), 524_288);
    assert_eq!(fine.layout(), Layout::clamped(1e-6));
    let coarse = Config::new()
        .with_relative_error(0.5)
        .build::<u32>()
        .unwrap();
    assert_eq!(coarse.layout().block_size(), 8);
    assert_eq!(coarse.view().summary().precision, 0.0625);
    assert_eq!(coarse.counts().len(), Layout::clamped(0.1).logical_len());
}

#[test]
fn config_defaults_and_accessors() {
    let c = Config::default();
    assert_eq!(c, Config::new());
    assert_eq!(c.relative_error(), 0.001);
    assert_eq!((c.min_trackable(), c.max_trackable()), (0, u64::MAX));
    assert_eq!(c.value_selection(), picollo::ValueSelection::Midpoint);
    let c = Config::new().with_min(5).with_max(500);
    assert_eq!(c, Config::new().with_range(5, 500));
    assert_eq!(c.layout(), Layout::clamped(0.001));
    let h = c.build::<u64>().unwrap();
    assert_eq!(h.view().range(), (5, 500));
    assert_eq!(h.view().first_index(), 5);
    assert_eq!(h.counts().len(), 496);
}

#[test]
fn a_cloned_histogram_is_independent() {
    let mut a = CFG.build::<u32>().unwrap();
    a.record(20_000);
    let mut b = a.clone();
    b.record(20_000);
    b.record(0);
    assert_eq!((a.total_count(), a.underflow_count()), (1, 0));
    assert_eq!((b.total_count(), b.underflow_count()), (2, 1));
}
