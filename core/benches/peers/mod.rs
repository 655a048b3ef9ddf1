//! The contenders of `benches/ops.rs`, filled with one workload, and the check that each
//! one answers within its stated error before any of them is timed.
//!
//! Resolution, about the same for all: Picollo at relative error 0.0005; `hdrhistogram` at
//! 3 significant digits (buckets at most 1/1024 of their values wide); iop's `histogram` at
//! grouping power 10 (the same); DDSketch at relative accuracy 0.0005 with room for every
//! bin the range needs, so none is ever collapsed.

use picollo::{rank_to_count, Config, Histogram};
use sketches_ddsketch::{Config as DdConfig, DDSketch};

pub type Ours = Histogram<u64, Vec<u64>>;
pub type Hdr = hdrhistogram::Histogram<u64>;
pub type Iop = histogram::Histogram;

/// The largest value of the workload (10 s in ns).
pub const MAX: u64 = 10_000_000_000;
/// Picollo's relative error and DDSketch's relative accuracy.
pub const RELATIVE: f64 = 0.0005;
/// DDSketch's bin limit: above the ≈ 23,000 bins of 1..10^10 at `RELATIVE`.
const DD_BINS: u32 = 1 << 15;

/// The four contenders over the same values.
#[derive(Clone)]
pub struct Set {
    pub ours: Ours,
    pub hdr: Hdr,
    pub iop: Iop,
    pub dd: DDSketch,
}

impl Set {
    /// Four empty histograms of the bench's resolution.
    pub fn empty() -> Set {
        let config = Config::new()
            .with_relative_error(RELATIVE)
            .with_range(1, MAX);
        Set {
            ours: config.build().unwrap(),
            hdr: Hdr::new_with_bounds(1, MAX, 3).unwrap(),
            iop: Iop::new(10, 34).unwrap(),
            // Values from 1 up: a minimum of 0.5 keeps 1 out of the zero bin.
            dd: DDSketch::new(DdConfig::new(RELATIVE, DD_BINS, 0.5)),
        }
    }

    /// The four histograms of `vs`.
    pub fn filled(vs: &[u64]) -> Set {
        let mut set = Set::empty();
        for &v in vs {
            set.ours.record(v);
            set.hdr.record(v).unwrap();
            set.iop.increment(v).unwrap();
            set.dd.add(v as f64);
        }
        set
    }

    /// Panic unless every contender's P50, P99 and P99.9 of `vs` (the values this set
    /// holds) lies within its stated error of the exact order statistic its rule names.
    pub fn check_accuracy(&self, vs: &[u64]) {
        let mut sorted = vs.to_vec();
        sorted.sort_unstable();
        let n = sorted.len();
        // DDSketch stops growing at its bin limit by collapsing its lowest bins.
        assert!(
            self.dd.length() < DD_BINS as usize,
            "DDSketch collapsed bins"
        );
        for rank in [50.0, 99.0, 99.9] {
            // Picollo: the ceil(q·n)-th smallest value, q the decimal as written.
            let exact = sorted[rank_to_count(rank, n as u128) as usize - 1];
            let ours = self.ours.view().percentile(rank).unwrap();
            assert!(
                (ours.lower..=ours.highest).contains(&exact),
                "picollo P{rank}"
            );
            within("picollo", rank, ours.value, exact, RELATIVE);
            // hdrhistogram and iop: the same, with q·n rounded in f64 first.
            let q = rank / 100.0;
            let exact = sorted[((q * n as f64).ceil() as usize).clamp(1, n) - 1];
            let hdr = self.hdr.value_at_quantile(q);
            assert!(self.hdr.equivalent(hdr, exact), "hdrhistogram P{rank}");
            within("hdrhistogram", rank, hdr, exact, 1.0 / 1024.0);
            let iop = self.iop.quantile_bucket(q).unwrap().unwrap();
            assert!(
                (iop.start()..=iop.end()).contains(&exact),
                "histogram P{rank}"
            );
            within("histogram", rank, iop.end(), exact, 1.0 / 1024.0);
            // DDSketch: the floor(q·(n − 1))-th value counted from 0.
            let exact = sorted[(q * (n as f64 - 1.0)) as usize];
            let dd = self.dd.quantile(q).unwrap().unwrap();
            within("ddsketch", rank, dd.round() as u64, exact, RELATIVE);
        }
    }
}

/// Panic unless `got` lies within `relative` of `exact` (plus the rounding to an integer).
fn within(who: &str, rank: f64, got: u64, exact: u64, relative: f64) {
    let error = got.abs_diff(exact) as f64;
    assert!(
        error <= relative * exact as f64 + 1.0,
        "{who} P{rank}: {got} against the exact {exact}"
    );
}
