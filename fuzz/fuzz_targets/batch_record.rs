//! The plain histogram's batch record on every path this CPU runs against its per-value
//! record: a drawn layout (relative error, unit, both ends of the range), counter width,
//! exact extremes or not, values (some repeated, some into buckets brought near full so
//! that adds saturate), and where the batch is cut; `record_many_on` must leave the same
//! buckets, bucket for bucket, the same underflow, overflow and saturated counts, the same
//! total and the same exact extremes as `record` of each value in turn.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use picollo::{BatchPath, Config, Counter, Histogram};

#[derive(Arbitrary, Debug)]
struct Input {
    /// Relative error 1e-5 · 10^(4 · error / 65535).
    error: u16,
    /// The unit's scale, masked to 0..16.
    unit_scale: u8,
    min: u64,
    max: u64,
    wide: bool,
    exact: bool,
    /// Values brought near full (by `record_n`) before either record.
    full: Vec<u64>,
    /// Each value and how many times more it comes (masked to 0..4).
    values: Vec<(u64, u8)>,
    /// Where the batch is cut in two `record_many_on` calls.
    cut: u16,
}

fn config(input: &Input) -> Option<Config> {
    let e = 1e-5 * 10f64.powf(4.0 * f64::from(input.error) / 65535.0);
    let (lo, hi) = (input.min.min(input.max), input.min.max(input.max));
    let c = Config::new()
        .with_relative_error(e)
        .with_unit_scale(u32::from(input.unit_scale & 15))
        .with_range(lo, hi);
    // A layout the configuration refuses, or one too large to fuzz quickly, is skipped.
    (c.validate().is_ok() && c.storage_len() <= 1 << 16).then_some(c)
}

/// What the two histograms must agree on.
type Seen<C> = (Vec<C>, [u64; 4], Option<(u64, u64)>);

fn seen<C: Counter, const E: bool>(h: &Histogram<C, Vec<C>, E>) -> Seen<C> {
    let outside = [
        h.underflow_count(),
        h.overflow_count(),
        h.saturated_count(),
        h.total_count(),
    ];
    (h.counts().to_vec(), outside, h.exact_extremes())
}

/// Every available path against the per-value record, from `start`.
fn check<C: Counter, const E: bool>(start: Histogram<C, Vec<C>, E>, input: &Input, vs: &[u64]) {
    let mut want = start.clone();
    vs.iter().for_each(|&v| want.record(v));
    let want = seen(&want);
    let cut = usize::from(input.cut).min(vs.len());
    for path in BatchPath::ALL.into_iter().filter(|p| p.available()) {
        let mut got = start.clone();
        got.record_many_on(path, &vs[..cut]);
        got.record_many_on(path, &vs[cut..]);
        assert!(seen(&got) == want, "{path:?} differs from record");
    }
}

fn run<C: Counter>(config: Config, input: &Input, vs: &[u64]) {
    let mut start = config
        .build::<C>()
        .expect("a validated configuration builds");
    for &v in input.full.iter().take(8) {
        start.record_n(v, C::MAX.to_u64() - 2);
    }
    if input.exact {
        check(start.with_exact_extremes(), input, vs);
    } else {
        check(start, input, vs);
    }
}

fuzz_target!(|input: Input| {
    let Some(config) = config(&input) else {
        return;
    };
    let vs: Vec<u64> = input
        .values
        .iter()
        .flat_map(|&(v, n)| core::iter::repeat(v).take(1 + usize::from(n & 3)))
        .collect();
    if input.wide {
        run::<u64>(config, &input, &vs);
    } else {
        run::<u32>(config, &input, &vs);
    }
});
