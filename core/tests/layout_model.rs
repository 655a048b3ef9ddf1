//! The bucket layout against a brute-force model built from the layout's definition rather than
//! its bit tricks: blocks of `B` buckets, blocks 0 and 1 one value wide, each later block
//! twice as wide as the one before, laid end to end from 0 up to 2^64.

mod common;

use common::SplitMix64;
use picollo::{Bucket, Config, Layout};

/// The model: where each block starts and how wide its buckets are, found by walking.
struct Model {
    block_size: u64,
    starts: Vec<u128>,
    widths: Vec<u128>,
}

impl Model {
    fn new(block_scale: u32) -> Model {
        let block_size = 1u64 << block_scale;
        let (mut starts, mut widths) = (Vec::new(), Vec::new());
        let mut start = 0u128;
        let mut width = 1u128;
        let mut block = 0;
        while start < 1u128 << 64 {
            starts.push(start);
            widths.push(width);
            start += block_size as u128 * width;
            if block >= 1 {
                width *= 2;
            }
            block += 1;
        }
        assert_eq!(start, 1u128 << 64, "blocks must end exactly at 2^64");
        Model {
            block_size,
            starts,
            widths,
        }
    }

    fn logical_len(&self) -> usize {
        self.starts.len() * self.block_size as usize
    }

    fn index(&self, v: u64) -> usize {
        let v = v as u128;
        let k = self.starts.iter().rposition(|&s| s <= v).unwrap();
        k * self.block_size as usize + ((v - self.starts[k]) / self.widths[k]) as usize
    }

    fn bucket(&self, i: usize) -> Bucket {
        let (k, j) = (i / self.block_size as usize, i % self.block_size as usize);
        let lower = self.starts[k] + j as u128 * self.widths[k];
        Bucket {
            lower: lower as u64,
            highest: (lower + self.widths[k] - 1) as u64,
        }
    }
}

fn every_layout() -> impl Iterator<Item = (Layout, Model)> {
    (3..=19).map(|s| (Layout::from_block_scale(s).unwrap(), Model::new(s)))
}

/// Interesting values: around every power of two, around every block start, the ends.
fn edge_values(model: &Model) -> Vec<u64> {
    let mut out = vec![
        0,
        1,
        2,
        u64::MAX,
        u64::MAX - 1,
        u64::MAX / 2,
        i64::MAX as u64 + 1,
    ];
    for bit in 0..64 {
        let p = 1u64 << bit;
        out.extend([p - 1, p, p + 1, p | (p >> 1), p.wrapping_add(p - 1)]);
    }
    for &s in &model.starts {
        let s = s as u64;
        out.extend([s.wrapping_sub(1), s, s.wrapping_add(1)]);
    }
    out
}

#[test]
fn index_and_bucket_agree_with_the_block_walk_model_at_every_magnitude() {
    let mut rng = SplitMix64(1);
    for (layout, model) in every_layout() {
        assert_eq!(layout.logical_len(), model.logical_len());
        assert_eq!(layout.block_count() as usize, model.starts.len());
        let mut values = edge_values(&model);
        values.extend((0..20_000).map(|_| rng.any_magnitude()));
        for v in values {
            let i = layout.index(v);
            assert_eq!(i, model.index(v), "scale {} v={v}", layout.block_scale());
            let b = layout.bucket(i).unwrap();
            assert_eq!(
                b,
                model.bucket(i),
                "scale {} index {i}",
                layout.block_scale()
            );
            assert_eq!(layout.bucket_of(v), b);
            assert!(b.lower <= v && v <= b.highest, "v={v} outside {b:?}");
            assert!((b.lower as u128) <= v as u128 && (v as u128) < b.upper());
        }
    }
}

#[test]
fn every_bucket_of_the_small_layouts_matches_the_model() {
    for scale in 3..=9 {
        let layout = Layout::from_block_scale(scale).unwrap();
        let model = Model::new(scale);
        for i in 0..model.logical_len() {
            let b = model.bucket(i);
            assert_eq!(layout.bucket(i), Some(b), "scale {scale} index {i}");
            assert_eq!(layout.index(b.lower), i);
            assert_eq!(layout.index(b.highest), i);
            if i > 0 {
                assert_eq!(layout.index(b.lower - 1), i - 1);
            }
            assert_eq!(b.midpoint(), b.lower + b.width() / 2);
        }
        assert_eq!(layout.bucket(model.logical_len()), None);
    }
}

#[test]
fn values_below_two_block_sizes_are_exact() {
    for (layout, _) in every_layout() {
        let b = layout.block_size();
        for v in 0..2 * b {
            assert_eq!(layout.index(v), v as usize);
            let bucket = layout.bucket_of(v);
            assert_eq!((bucket.lower, bucket.highest, bucket.midpoint()), (v, v, v));
        }
        // The first inexact bucket starts right at 2B and is two values wide.
        let first = layout.bucket_of(2 * b);
        assert_eq!((first.lower, first.width()), (2 * b, 2));
    }
}

#[test]
fn index_is_monotone_and_never_skips_a_bucket() {
    let mut rng = SplitMix64(2);
    for (layout, model) in every_layout() {
        let mut values: Vec<u64> = (0..5_000).map(|_| rng.any_magnitude()).collect();
        values.extend(edge_values(&model));
        values.sort_unstable();
        let indices: Vec<usize> = values.iter().map(|&v| layout.index(v)).collect();
        assert!(indices.windows(2).all(|w| w[0] <= w[1]));
        for &v in &values {
            if v < u64::MAX {
                let step = layout.index(v + 1) - layout.index(v);
                assert!(step <= 1, "v={v} step={step}");
            }
        }
    }
}

#[test]
fn block_edges_and_the_top_of_the_range() {
    for (layout, model) in every_layout() {
        let b = layout.block_size();
        // Each block from 2 on starts at B·2^(k−1) with buckets 2^(k−1) wide.
        for k in 2..layout.block_count() {
            let start = b << (k - 1);
            let i = layout.index(start);
            assert_eq!(i, (k as usize) << layout.block_scale());
            assert_eq!(layout.bucket_of(start).width(), 1 << (k - 1));
            assert_eq!(layout.index(start - 1), i - 1);
            assert_eq!(start as u128, model.starts[k as usize]);
        }
        let last = layout.logical_len() - 1;
        assert_eq!(layout.index(u64::MAX), last);
        let top = layout.bucket(last).unwrap();
        assert_eq!(top.highest, u64::MAX);
        assert_eq!(top.upper(), 1u128 << 64);
        assert!(top.contains(u64::MAX) && top.contains(top.lower));
        assert_eq!(top.width(), 1 << (63 - layout.block_scale()));
        assert_eq!(top.midpoint(), top.lower + top.width() / 2);
        assert_eq!(layout.bucket(last + 1), None);
        assert_eq!(layout.storage_len(0, u64::MAX), layout.logical_len());
        assert_eq!(layout.storage_len(u64::MAX, u64::MAX), 1);
    }
}

/// The smallest power of two not below `n` (`n >= 1`), by counting up.
fn next_pow2_by_walking(n: u64) -> u64 {
    let mut p = 1;
    while p < n {
        p *= 2;
    }
    p
}

/// Relative errors from 1e-6 to 0.1, log-spaced, plus the round figures users type.
fn supported_relative_errors() -> Vec<f64> {
    let mut out: Vec<f64> = (0..=250)
        .map(|k| 1e-6 * 10f64.powf(5.0 * k as f64 / 250.0))
        .collect();
    out.extend([
        1e-6, 2e-6, 5e-6, 1e-5, 1e-4, 5e-4, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.0078125,
        0.0625,
    ]);
    out.retain(|&e| (1e-6..=0.1).contains(&e));
    out
}

#[test]
fn every_supported_relative_error_keeps_midpoints_within_the_stated_precision() {
    let mut rng = SplitMix64(3);
    for e in supported_relative_errors() {
        let layout = Config::new()
            .with_relative_error(e)
            .validate()
            .unwrap()
            .layout();
        assert_eq!(layout, Layout::clamped(e));
        let b = layout.block_size();
        assert_eq!(b, next_pow2_by_walking((0.5 / e).ceil() as u64), "e={e}");
        assert!((8..=524_288).contains(&b));
        let precision = layout.relative_error();
        assert_eq!(precision, 0.5 / b as f64);
        // Never worse than asked: 0.5 / e is rounded up before the power of two.
        assert!(precision <= e, "e={e} precision={precision}");
        let mut worst = 0.0f64;
        for _ in 0..2_000 {
            let v = rng.any_magnitude();
            let bucket = layout.bucket_of(v);
            assert!(bucket.contains(v));
            if v < 2 * b {
                assert_eq!(bucket.midpoint(), v, "e={e} v={v}");
                continue;
            }
            let err = (bucket.midpoint() as f64 - v as f64).abs() / v as f64;
            assert!(err <= precision, "e={e} v={v} err={err}");
            worst = worst.max(err);
        }
        // The bound is tight: the first value of an inexact block is half a bucket away
        // from its midpoint.
        for k in 1..(64 - layout.block_scale()) {
            let v = b << k;
            let m = layout.bucket_of(v).midpoint();
            assert_eq!((m - v) as f64 / v as f64, precision, "e={e} v={v}");
        }
        assert!(worst <= precision);
    }
}

#[test]
fn common_relative_errors_are_honoured() {
    for (e, b) in [
        (0.1, 8),
        (0.05, 16),
        (0.01, 64),
        (0.005, 128),
        (0.001, 512),
        (0.0005, 1024),
        (1e-4, 8192),
        (1e-5, 65_536),
        (1e-6, 524_288),
    ] {
        let layout = Layout::clamped(e);
        assert_eq!(layout.block_size(), b, "e={e}");
        assert!(layout.relative_error() <= e);
    }
}

#[test]
fn out_of_range_relative_errors_are_clamped() {
    let finest = Layout::clamped(1e-6);
    let coarsest = Layout::clamped(0.1);
    // Below the finest and above the coarsest: the nearest of the two.
    let below: &[f64] = &[1e-9, 1e-7, 1e-300, f64::MIN_POSITIVE];
    let above: &[f64] = &[0.5, 0.11, 1.0, 1e300];
    for (errors, nearest) in [(below, finest), (above, coarsest)] {
        for &e in errors {
            assert_eq!(Layout::clamped(e), nearest, "e={e}");
            assert_eq!(
                Config::new()
                    .with_relative_error(e)
                    .validate()
                    .map(|s| s.layout()),
                Ok(nearest)
            );
        }
    }
    // The lenient const form maps what the strict one refuses to the default.
    for e in [0.0, -0.0, -1.0, f64::NAN, f64::NEG_INFINITY] {
        assert_eq!(Layout::clamped(e), Layout::default(), "e={e}");
    }
    assert_eq!(Layout::clamped(f64::INFINITY), coarsest);
    assert_eq!(Layout::from_block_scale(2), None);
    assert_eq!(Layout::from_block_scale(20), None);
    assert_eq!(Layout::from_block_scale(3), Some(coarsest));
    assert_eq!(Layout::from_block_scale(19), Some(finest));
}

#[test]
fn storage_len_counts_the_buckets_from_min_to_max() {
    let mut rng = SplitMix64(4);
    for (layout, model) in every_layout() {
        for _ in 0..500 {
            let (a, b) = (rng.any_magnitude(), rng.any_magnitude());
            let (min, max) = (a.min(b), a.max(b));
            assert_eq!(
                layout.storage_len(min, max),
                model.index(max) - model.index(min) + 1
            );
            if min < max {
                assert_eq!(layout.storage_len(max, min), 0);
            }
        }
    }
}

/// A `const` layout, index and storage length: usable to size a `static`.
#[test]
fn layout_math_is_usable_in_const_context() {
    const LAYOUT: Layout = Layout::clamped(0.01);
    const INDEX: usize = LAYOUT.index(24_900);
    const LEN: usize = LAYOUT.storage_len(10_000, 30_000);
    const BUCKET: Bucket = LAYOUT.bucket_of_index(INDEX);
    assert_eq!(INDEX, 609);
    assert_eq!(LEN, 1 + LAYOUT.index(30_000) - LAYOUT.index(10_000));
    assert_eq!(BUCKET.midpoint(), 24_960);
}
