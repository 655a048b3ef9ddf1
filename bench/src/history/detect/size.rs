//! How large a change is: the Hodges–Lehmann shift between the runs before and after it
//! (the median of every after − before difference of the runs' log figures) and its
//! distribution-free interval (the order statistics of those differences that the
//! Mann–Whitney test's quantile picks), written in percent.

use std::vec::Vec;

use serde::{Deserialize, Serialize};

/// A change's size at one rank (or of the width between two ranks), in percent.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Size {
    /// The rank it is at (for the width: the upper rank, against the lowest).
    pub rank: f64,
    /// The estimate: after against before, in percent.
    pub percent: f64,
    /// Its interval's low end.
    pub low: f64,
    /// Its high end.
    pub high: f64,
}

impl Size {
    /// The interval holds no change.
    pub fn holds(&self) -> bool {
        self.low <= 0.0 && self.high >= 0.0
    }
}

/// The shift from `before` to `after` (log figures, each at least one) at rank `rank`, with
/// the interval of the normal quantile `z`.
pub fn shift(rank: f64, before: &[f64], after: &[f64], z: f64) -> Size {
    let mut d: Vec<f64> = after
        .iter()
        .flat_map(|a| before.iter().map(move |b| a - b))
        .collect();
    d.sort_unstable_by(f64::total_cmp);
    let (m, n) = (before.len() as f64, after.len() as f64);
    // The count of differences below the interval: the Mann–Whitney statistic's lower
    // critical value, normal approximation, at least 0.
    let c = (m * n / 2.0 - z * (m * n * (m + n + 1.0) / 12.0).sqrt()).floor();
    let c = c.max(0.0) as usize;
    let last = d.len() - 1;
    let percent = |x: f64| (x.exp() - 1.0) * 100.0;
    Size {
        rank,
        percent: percent((d[last / 2] + d[d.len() / 2]) / 2.0),
        low: percent(d[c.min(last)]),
        high: percent(d[last.saturating_sub(c)]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shift_of_every_run_is_its_estimate() {
        let before: Vec<f64> = (0..20).map(|i| (i as f64 * 0.37).sin() * 0.01).collect();
        let after: Vec<f64> = before.iter().map(|x| x + 0.1f64.ln_1p()).collect();
        let s = shift(50.0, &before, &after, 2.0);
        assert!((s.percent - 10.0).abs() < 1e-9, "{s:?}");
        assert!(s.low < 10.0 && s.high > 10.0 && !s.holds());
    }

    #[test]
    fn no_shift_holds_zero() {
        let before: Vec<f64> = (0..20).map(|i| (i as f64 * 0.37).sin() * 0.01).collect();
        let s = shift(50.0, &before, &before, 2.0);
        assert!(s.holds(), "{s:?}");
    }
}
