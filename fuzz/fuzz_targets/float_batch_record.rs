//! The float histogram's batch record on every path this CPU runs against its per-value
//! record: a drawn configuration (relative error, range, counter width, dense or sparse,
//! single writer or interlocked), values drawn among NaN, ±∞, ±0, subnormals, powers of two
//! and their neighbours, the range's ends and their neighbours, magnitudes inside the range
//! and any bits at all (some repeated, some into buckets brought near full so that adds
//! saturate), and where the batch is cut in two `record_many_on` calls. The batch must leave
//! the same buckets, bucket for bucket, the same zero, NaN, infinity, underflow, overflow
//! and saturated counts, the same total and the same exact extremes as `record` of each
//! value in turn; and the same sum: its bits in the single-writer mode (exact), within the
//! rounding of a regrouped running sum in the interlocked one (see `sums_agree`).
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use picollo::concurrent::AtomicCounter;
use picollo::float::{FloatConfig, FloatHistogram, Mode, Side, Storage};
use picollo::BatchPath;

#[derive(Arbitrary, Debug)]
struct Input {
    /// Relative error 10^(−1 − 3.5 · error / 65535): 0.1 down to about 3e-5.
    error: u16,
    /// The range's ends (either order).
    min: Value,
    max: Value,
    wide: bool,
    sparse: bool,
    interlocked: bool,
    /// Values whose buckets are brought within `k & 3` of full (by `record_n`) first.
    full: Vec<(Value, u8)>,
    /// Each value and how many times more it comes (masked to 0..4).
    values: Vec<(Value, u8)>,
    /// Where the batch is cut in two `record_many_on` calls.
    cut: u16,
}

/// A double drawn from the classes the record treats apart.
#[derive(Arbitrary, Debug, Clone, Copy)]
enum Value {
    /// Any bits: NaNs with payloads, subnormals, anything.
    Bits(u64),
    /// One of [`SPECIALS`], by index.
    Special(u8),
    /// `±2^k` moved by `ulps` (−2..=2) units in the last place, `k` in −1074..=1023.
    PowerOfTwo { k: u16, ulps: i8, negative: bool },
    /// The low (`top` false) or high end of the range moved by `ulps` units in the last
    /// place (−4..=4): values at and beside the underflow and overflow edges.
    Edge { top: bool, ulps: i8, negative: bool },
    /// `min · (max / min)^(t / 65535)`: inside the range, log-uniform.
    Inside { t: u16, negative: bool },
}

const SPECIALS: [f64; 14] = [
    0.0,
    -0.0,
    f64::NAN,
    -f64::NAN,
    f64::INFINITY,
    f64::NEG_INFINITY,
    f64::MAX,
    -f64::MAX,
    f64::MIN_POSITIVE,
    -f64::MIN_POSITIVE,
    5e-324,
    -5e-324,
    2.225073858507201e-308,
    1.0,
];

/// `x` moved by `ulps` units in the last place away from zero (toward it for negative
/// `ulps`), through the bits of its magnitude (saturating at 0 and the infinity).
fn step(x: f64, ulps: i8) -> f64 {
    let bits = x.abs().to_bits();
    let moved = if ulps >= 0 {
        bits.saturating_add(ulps as u64)
            .min(f64::INFINITY.to_bits())
    } else {
        bits.saturating_sub(u64::from(ulps.unsigned_abs()))
    };
    f64::from_bits(moved).copysign(x)
}

impl Value {
    /// The double, given the range's ends to bucket resolution (`lo ≤ hi`, both finite and
    /// above 0).
    fn get(self, lo: f64, hi: f64) -> f64 {
        let sign = |negative: bool| if negative { -1.0 } else { 1.0 };
        match self {
            Value::Bits(b) => f64::from_bits(b),
            Value::Special(i) => SPECIALS[usize::from(i) % SPECIALS.len()],
            Value::PowerOfTwo { k, ulps, negative } => {
                let k = i32::from(k % 2098) - 1074;
                // 2^k exactly, subnormals included: 2^(k + 64) · 2^-64 when k is low.
                let p = if k < -1000 {
                    2f64.powi(k + 64) * 2f64.powi(-64)
                } else {
                    2f64.powi(k)
                };
                step(p * sign(negative), ulps % 3)
            }
            Value::Edge {
                top,
                ulps,
                negative,
            } => step(if top { hi } else { lo } * sign(negative), ulps % 5),
            Value::Inside { t, negative } => {
                let f = f64::from(t) / 65535.0;
                let x = (lo.ln() + f * (hi.ln() - lo.ln())).exp();
                x.clamp(lo, hi) * sign(negative)
            }
        }
    }
}

/// The configuration, or `None` for one the histogram refuses or one too large to fuzz
/// quickly (dense storage over more than 2^16 buckets a sign, sparse blocks of more than
/// 2^12).
fn config(input: &Input) -> Option<FloatConfig> {
    let e = 10f64.powf(-1.0 - 3.5 * f64::from(input.error) / 65535.0);
    // The ends as magnitudes from any drawn value (1 where none is finite and above 0).
    let end = |v: Value| {
        let x = v.get(1.0, 2.0).abs();
        if x > 0.0 && x.is_finite() {
            x
        } else {
            1.0
        }
    };
    let (a, b) = (end(input.min), end(input.max));
    let config = FloatConfig::new()
        .with_relative_error(e)
        .with_range(a.min(b), a.max(b))
        .with_storage(if input.sparse {
            Storage::Sparse
        } else {
            Storage::Dense
        })
        .with_mode(if input.interlocked {
            Mode::Interlocked
        } else {
            Mode::SingleWriter
        });
    let shape = config.validate().ok()?;
    let small = match shape.config().storage() {
        Storage::Dense => shape.len() <= 1 << 16,
        _ => shape.layout().buckets_per_octave() <= 1 << 12,
    };
    small.then_some(config)
}

/// What the batch and the records must agree on: each bucket's count; the zero, NaN,
/// `+∞`, `−∞`, underflow, overflow and saturated counts and the total; the extremes' bits;
/// and the sum (compared apart).
type Seen = (Vec<(bool, usize, u64)>, [u64; 8], Option<(u64, u64)>, f64);

fn seen<C: AtomicCounter>(h: &FloatHistogram<C>) -> Seen {
    let c = h.counts().expect("the counts fit in memory");
    let buckets = c.buckets();
    let buckets = buckets.map(|b| (b.side == Side::Negative, b.index, b.count));
    let specials = [
        c.zero_count(),
        c.nan_count(),
        c.positive_infinity_count(),
        c.negative_infinity_count(),
        c.underflow_count(),
        c.overflow_count(),
        c.saturated_count(),
        c.total_count(),
    ];
    let extremes = c
        .min()
        .zip(c.max())
        .map(|(a, b)| (a.to_bits(), b.to_bits()));
    (buckets.collect(), specials, extremes, c.sum())
}

/// Whether the interlocked mode's sums `a` (the batch's) and `b` (the records') agree: both
/// are running sums per stripe of the same terms (`terms`, their magnitudes), which the
/// batch groups per part of values, so each lies within `k·ε/2·Σ|term|` of the true sum
/// (`k` the additions a term goes through: at most the terms, the stripes and the final
/// compensated reading, bounded by `terms.len() + 32`), and so within twice that of the
/// other. Where `Σ|term|` overflows, the comparison is made scaled by 2^-600; an infinite
/// sum (the true one beyond `f64::MAX`) stands at `f64::MAX` there.
fn sums_agree(a: f64, b: f64, terms: &[f64]) -> bool {
    if a.to_bits() == b.to_bits() {
        return true;
    }
    let k = (terms.len() + 32) as f64;
    let scale: f64 = terms.iter().sum();
    let down = if scale.is_finite() {
        1.0
    } else {
        2f64.powi(-600)
    };
    let scale: f64 = terms.iter().map(|t| t * down).sum();
    let at = |x: f64| {
        if x.is_infinite() {
            (f64::MAX * down).copysign(x)
        } else {
            x * down
        }
    };
    (at(a) - at(b)).abs() <= k * f64::EPSILON * scale
}

/// Every available path against the per-value record, from `start()`'s histogram;
/// `terms` are the magnitudes `start()` added to the sum.
fn check<C: AtomicCounter>(
    start: impl Fn() -> FloatHistogram<C>,
    interlocked: bool,
    vs: &[f64],
    cut: usize,
    mut terms: Vec<f64>,
) {
    let want = start();
    vs.iter().for_each(|&x| want.record(x));
    let shape = want.shape();
    let want = seen(&want);
    terms.extend(
        vs.iter()
            .filter(|&&x| x != 0.0 && shape.equivalent_range(x).is_some())
            .map(|x| x.abs()),
    );
    let cut = cut.min(vs.len());
    for path in BatchPath::ALL.into_iter().filter(|p| p.available()) {
        let got = start();
        got.record_many_on(path, &vs[..cut]);
        got.record_many_on(path, &vs[cut..]);
        let got = seen(&got);
        let (sum, want_sum) = (got.3, want.3);
        let same = (&got.0, got.1, got.2) == (&want.0, want.1, want.2);
        assert!(
            same,
            "{path:?}: the counts or extremes differ from record's"
        );
        let agree = if interlocked {
            sums_agree(sum, want_sum, &terms)
        } else {
            sum.to_bits() == want_sum.to_bits()
        };
        assert!(agree, "{path:?}: sum {sum:e} against record's {want_sum:e}");
    }
}

fn run<C: AtomicCounter>(config: FloatConfig, input: &Input, vs: &[f64]) {
    let shape = config.validate().expect("checked in `config`");
    let (lo, hi) = shape.range();
    let ceiling = if input.interlocked {
        C::INTERLOCKED_MAX.to_u64()
    } else {
        C::MAX.to_u64()
    };
    let full: Vec<(f64, u64)> = input
        .full
        .iter()
        .take(8)
        .map(|&(v, k)| (v.get(lo, hi), ceiling - u64::from(k & 3)))
        .collect();
    // The near-full buckets' terms: `n·|x|` for each `record_n` into a bucket.
    let terms = full
        .iter()
        .filter(|&&(x, _)| x != 0.0 && shape.equivalent_range(x).is_some())
        .map(|&(x, n)| x.abs() * n as f64)
        .collect();
    let start = || {
        let h = FloatHistogram::<C>::new(config).expect("a validated configuration builds");
        full.iter().for_each(|&(x, n)| h.record_n(x, n));
        h
    };
    check(start, input.interlocked, vs, usize::from(input.cut), terms);
}

fuzz_target!(|input: Input| {
    let Some(config) = config(&input) else {
        return;
    };
    let (lo, hi) = config.validate().expect("checked in `config`").range();
    let vs: Vec<f64> = input
        .values
        .iter()
        .flat_map(|&(v, n)| core::iter::repeat(v.get(lo, hi)).take(1 + usize::from(n & 3)))
        .collect();
    if input.wide {
        run::<u64>(config, &input, &vs);
    } else {
        run::<u32>(config, &input, &vs);
    }
});
