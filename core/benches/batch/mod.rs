//! The rows of `bench ops` for the batch calls: `record_many` (one call for the whole
//! workload) against each peer's per-value loop on the same values, and `summary_into` (the
//! standard summary filled in place: 16 percentiles, the counts, mean and standard deviation)
//! against iop's 16 buckets of the same ranks (`quantile_buckets_into`, its allocation-free
//! form of `percentiles`) and `hdrhistogram`'s 16 quantiles with its mean and standard deviation.

use std::hint::black_box;

use picollo::{Summary, STANDARD_RANKS};

use super::common::{BATCH, N};
use super::peers::Set;
use super::Op;

/// Record the workload with one `record_many` call against the peers' fastest per-value
/// loops (ns per value); the histograms keep growing, as `record`'s do.
pub fn records_many(vs: &[u64]) -> Op {
    let mut set = Set::empty();
    let op = Op::race(
        "record_many",
        1,
        &mut || set.ours.record_many(black_box(vs)),
        [
            Some(&mut || vs.iter().for_each(|&v| set.hdr.record(v).unwrap())),
            Some(&mut || vs.iter().for_each(|&v| set.iop.increment(v).unwrap())),
            Some(&mut || vs.iter().for_each(|&v| set.dd.add(v as f64))),
        ],
    );
    op.scaled(1e3 / N as f64)
}

/// The standard summary, filled in place, against the peers' 16 percentiles (µs per call).
pub fn summaries(set: &Set) -> Op {
    let Set { ours, hdr, iop, .. } = set;
    let quantiles: Vec<f64> = STANDARD_RANKS.iter().map(|r| r / 100.0).collect();
    let mut summary = Summary::default();
    let (mut hdr_out, mut buckets) = ([0u64; 16], [const { None }; 16]);
    Op::race(
        "summary_into",
        BATCH,
        &mut || {
            black_box(ours).view().summary_into(&mut summary);
            black_box(&summary);
        },
        [
            Some(&mut || {
                let walk = black_box(hdr).value_at_quantiles(quantiles.iter().copied());
                walk.zip(&mut hdr_out).for_each(|(v, o)| *o = v);
                black_box((&hdr_out, hdr.mean(), hdr.stdev()));
            }),
            Some(&mut || {
                black_box(iop)
                    .quantile_buckets_into(&quantiles, &mut buckets)
                    .unwrap();
                black_box(&buckets);
            }),
            None,
        ],
    )
}
