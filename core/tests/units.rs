//! Integer layouts with a unit (HdrHistogram's lowest discernible value): recording, queries,
//! moments, merges and the configuration's refusals.

use picollo::{Config, ConfigError, Histogram, MergeError};

type H64 = Histogram<u64, Vec<u64>>;

fn filled(config: Config, values: &[u64]) -> H64 {
    let mut h: H64 = config.build().unwrap();
    for &v in values {
        h.record(v);
    }
    h
}

/// Log-spread values over 0..2^40, with small ones.
fn values(n: usize) -> Vec<u64> {
    let mut x = 0x2545_F491_4F6C_DD1Du64;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 24) & ((1u64 << (x % 40)) - 1)
        })
        .collect()
}

#[test]
fn the_unit_is_the_lowest_discernible_value_rounded_down_to_a_power_of_two() {
    for (lowest, k) in [(1u64, 0u32), (2, 1), (1000, 9), (1024, 10), (1 << 20, 20)] {
        let config = Config::new().with_lowest_discernible(lowest);
        assert_eq!(config.unit_scale(), k);
        assert_eq!(config.lowest_discernible(), lowest);
        let shape = config.validate().unwrap();
        assert_eq!(shape.layout().unit(), 1 << k);
        assert_eq!(shape.layout(), Config::new().with_unit_scale(k).layout());
    }
    // Unit 1 is the plain layout, storage and all.
    let plain = Config::new().with_relative_error(0.01);
    assert_eq!(
        plain.with_lowest_discernible(1).validate(),
        plain.validate()
    );
    // A unit drops the octaves below it from the storage.
    let full = Config::new().with_range(0, 1 << 40);
    assert_eq!(
        full.storage_len() - full.with_lowest_discernible(1000).storage_len(),
        9 * 512
    );
}

#[test]
fn a_zero_or_too_wide_lowest_discernible_value_is_refused() {
    let zero = Config::new()
        .with_lowest_discernible(0)
        .validate()
        .unwrap_err();
    assert_eq!(
        zero,
        ConfigError::LowestDiscernible {
            lowest: 0,
            max: (1 << 55) - 1
        }
    );
    // 0.1 % has 512 buckets a block: the unit may be at most 2^54.
    assert!(Config::new().with_unit_scale(54).validate().is_ok());
    let wide = Config::new().with_unit_scale(55).validate().unwrap_err();
    assert_eq!(
        wide,
        ConfigError::LowestDiscernible {
            lowest: 1 << 55,
            max: (1 << 55) - 1
        }
    );
    assert!(
        wide.to_string().contains("must be 1..=36028797018963967"),
        "{wide}"
    );
    assert!(Config::new().with_unit_scale(64).validate().is_err());
}

#[test]
fn values_below_the_unit_share_the_first_bucket_and_buckets_are_the_datas() {
    // The example: HdrHistogram(1000, 2^45, 3).
    let config = Config::new()
        .with_relative_error(0.0005)
        .with_lowest_discernible(1000)
        .with_max(1 << 45);
    let h = filled(config, &[0, 1, 511, 1000, 6683, 30040, 161204]);
    assert_eq!(h.view().outside(), [0, 0, 0]);
    let first = h.view().buckets().next().unwrap();
    assert_eq!((first.lower, first.highest, first.count), (0, 511, 3));
    let p = h.view().percentile(60.0).unwrap();
    assert_eq!(
        (p.lower, p.upper, p.value, p.plus_minus),
        (6656, 7168, 6912, 256)
    );
    assert!(p.lower <= 6683 && 6683 < p.upper);
    // Unit-wide buckets reach up to 2 · 1024 · 512 = 2^20; above, those of unit 1.
    let top = h.view().percentile(100.0).unwrap();
    assert_eq!((top.lower, top.upper), (160_768, 161_280));
    let mut h = h;
    h.record(3_000_000);
    let top = h.view().percentile(100.0).unwrap();
    assert_eq!((top.lower, top.highest), (2_998_272, 3_000_319));
}

#[test]
fn mean_and_stdev_use_the_unit_wide_midpoints() {
    let config = Config::new()
        .with_relative_error(0.01)
        .with_lowest_discernible(1 << 12);
    let vs = values(5_000);
    let h = filled(config, &vs);
    let mids: Vec<f64> = vs
        .iter()
        .map(|&v| h.layout().bucket_of(v).midpoint() as f64)
        .collect();
    let mean = mids.iter().sum::<f64>() / mids.len() as f64;
    let var = mids.iter().map(|m| (m - mean) * (m - mean)).sum::<f64>() / mids.len() as f64;
    assert!(
        (h.view().mean() - mean).abs() <= mean * 1e-12,
        "{} {mean}",
        h.view().mean()
    );
    assert!((h.view().stdev() - var.sqrt()).abs() <= var.sqrt() * 1e-9);
}

#[test]
fn merges_across_units_re_bin_as_merges_across_precisions_do() {
    let vs = values(20_000);
    let fine = filled(Config::new(), &vs);
    let coarse_config = Config::new().with_lowest_discernible(1000);
    let mut coarse = filled(coarse_config, &vs);
    // Buckets do not line up: a plain add refuses.
    let refused = coarse.add(&fine.view()).unwrap_err();
    assert_eq!(
        refused,
        MergeError::UnitMismatch {
            this: 512,
            other: 1
        }
    );
    assert!(
        refused.to_string().contains("different units (512 and 1"),
        "{refused}"
    );
    // Re-binned into the wider unit, the finer one gives exactly the coarser histogram.
    let rebinned = fine.view().rebinned(coarse.layout()).unwrap();
    let direct = filled(coarse_config, &vs);
    let buckets = |h: &H64| -> Vec<(u64, u64)> {
        h.view()
            .buckets()
            .filter(|b| b.count != 0)
            .map(|b| (b.lower, b.count))
            .collect()
    };
    assert_eq!(buckets(&rebinned), buckets(&direct));
    coarse.add(&rebinned.view()).unwrap();
    assert_eq!(coarse.total_count(), 2 * vs.len() as u64);
    // Downsampling keeps the unit.
    let down = direct.view().downsample(0.01).unwrap();
    assert_eq!(down.layout().unit(), 512);
    assert_eq!(down.total_count(), vs.len() as u64);
}
