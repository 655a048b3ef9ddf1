//! Distribution-free statistics read from histograms: confidence intervals of a quantile
//! (binomial ranks), of the difference of two quantiles, of a mean, and the Mann–Whitney
//! rank test with ties at bucket resolution. A leaf: it reads histograms through the
//! histogram crate and nothing of the harness; the harness's own rules and figures are in
//! [`crate::rules`].

use picollo::iter::BucketCount;
use picollo::View;

/// Two-sided 95 %: the normal quantile 0.975.
pub const Z_95: f64 = 1.959_963_984_540_054;
/// Two-sided 99 %: the normal quantile 0.995.
pub const Z_99: f64 = 2.575_829_303_548_900_4;
/// Two-sided 99.5 %: the normal quantile 0.9975. Two intervals at 99.5 % hold together
/// with at least 99 % (Bonferroni), which is how the difference of two quantiles gets its
/// 99 % interval.
pub const Z_99_5: f64 = 2.807_033_768_343_811;

/// The median of figures: the mean of the two middle ones (NaN when there are none). The
/// values are sorted in place.
pub fn median(values: &mut [f64]) -> f64 {
    values.sort_unstable_by(f64::total_cmp);
    match values.len() {
        0 => f64::NAN,
        n => (values[(n - 1) / 2] + values[n / 2]) / 2.0,
    }
}

/// The middle of whole figures, the higher of the two middle ones for an even count (0 when
/// there are none): a figure that was measured, as a read pair's overhead or a warm-up
/// window's time. The values are sorted in place.
pub fn upper_median(values: &mut [u64]) -> u64 {
    values.sort_unstable();
    values.get(values.len() / 2).copied().unwrap_or(0)
}

/// The 1-based ranks `(lo, hi)` between which the `q` quantile of `n` values lies with the
/// confidence of `z`: the order statistics around `n·q` at ±z binomial standard deviations
/// (normal approximation), clamped to `[1, n]`. `n` must be at least 1.
pub fn quantile_rank_bounds(n: u64, q: f64, z: f64) -> (u64, u64) {
    let nf = n as f64;
    let half = z * (nf * q * (1.0 - q)).sqrt();
    let lo = (nf * q - half).floor().max(1.0) as u64;
    let hi = (nf * q + half + 1.0).ceil().min(nf) as u64;
    (lo.min(n), hi.max(lo.min(n)))
}

/// The bucket holding the `rank`-th smallest value (1-based), if the histogram has that many.
fn bucket_at_rank<'a>(
    mut buckets: impl Iterator<Item = BucketCount> + 'a,
    rank: u64,
) -> Option<BucketCount> {
    let mut seen = 0u64;
    buckets.find(|b| {
        seen += b.count;
        seen >= rank
    })
}

/// The least `n·q·(1−q)` a quantile interval is given for: below it the order statistics
/// around the quantile are too few for the binomial's normal approximation (P99 needs about
/// 200 values, P99.9 about 2,000).
pub const MIN_SPREAD: f64 = 2.0;

/// A confidence interval `[lower, upper]` of the `q` quantile (`0..=1`), in recorded units:
/// from the lowest value of the bucket at the low rank to the highest of the bucket at the
/// high rank, so the bucket error widens it rather than hides in it. `None` when the
/// histogram holds too few values for one (`n·q·(1−q)` below [`MIN_SPREAD`]).
pub fn quantile_interval(view: &View<'_, u64>, q: f64, z: f64) -> Option<(u64, u64)> {
    let n = view.total_count();
    if (n as f64) * q * (1.0 - q) < MIN_SPREAD {
        return None;
    }
    let (lo, hi) = quantile_rank_bounds(n, q, z);
    let low = bucket_at_rank(view.buckets_with_values(), lo)?;
    let high = bucket_at_rank(view.buckets_with_values(), hi)?;
    Some((low.lower, high.highest))
}

/// A 99 % interval of `quantile(b) − quantile(a)`: each quantile's interval at 99.5 %, the
/// difference taken from their far ends. `None` when either is empty.
pub fn difference_interval(a: &View<'_, u64>, b: &View<'_, u64>, q: f64) -> Option<(f64, f64)> {
    let (a_lo, a_hi) = quantile_interval(a, q, Z_99_5)?;
    let (b_lo, b_hi) = quantile_interval(b, q, Z_99_5)?;
    Some((b_lo as f64 - a_hi as f64, b_hi as f64 - a_lo as f64))
}

/// The mean and its 95 % interval's half-width (`Z_95 · stdev / √n`), over bucket
/// midpoints. `None` when empty.
pub fn mean_interval(view: &View<'_, u64>) -> Option<(f64, f64)> {
    let n = view.total_count();
    if n == 0 {
        return None;
    }
    let (mean, stdev) = view.moments();
    Some((mean, Z_95 * stdev / (n as f64).sqrt()))
}

/// The Mann–Whitney test of two samples held in histograms of one layout.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RankTest {
    /// `U` of `b`: pairs `(a, b)` with `b > a`, plus half the pairs in one bucket.
    pub u: f64,
    /// The normal score of `u` (tie-corrected); above 0 when `b` tends to be larger.
    pub z: f64,
    /// The probability that a value of `b` exceeds one of `a` (`u / (n_a·n_b)`).
    pub superiority: f64,
}

/// The rank test of `b` against `a`: values in one bucket count as ties. Both views must
/// share one layout (the harness records every result with one configuration); `None`
/// when either is empty or the layouts differ.
pub fn mann_whitney(a: &View<'_, u64>, b: &View<'_, u64>) -> Option<RankTest> {
    let (na, nb) = (a.total_count() as f64, b.total_count() as f64);
    if na == 0.0 || nb == 0.0 || a.layout() != b.layout() || a.first_index() != b.first_index() {
        return None;
    }
    let (mut u, mut ties, mut a_below) = (0.0f64, 0.0f64, 0.0f64);
    for (ca, cb) in a.counts().iter().zip(b.counts()) {
        let (ca, cb) = (*ca as f64, *cb as f64);
        u += cb * (a_below + 0.5 * ca);
        let t = ca + cb;
        ties += t * t * t - t;
        a_below += ca;
    }
    let n = na + nb;
    let variance = na * nb / 12.0 * ((n + 1.0) - ties / (n * (n - 1.0)).max(1.0));
    let mean = na * nb / 2.0;
    let z = match variance > 0.0 {
        true => (u - mean) / variance.sqrt(),
        false => 0.0,
    };
    Some(RankTest {
        u,
        z,
        superiority: u / (na * nb),
    })
}
