//! Every operation after the record, next to the peers, in one process taking turns: one
//! percentile, 16 percentiles, a merge, a V2 encode and decode (uncompressed), mean and
//! standard deviation, and a walk over the non-empty buckets.
//!
//! Workload: 10^6 log-normal latencies (median 50 µs, σ 1.2, in ns, capped at 10 s; the
//! encode bench's) in three histograms of about the same resolution over 1 ns..10 s:
//! Picollo at relative error 0.0005, `hdrhistogram` at 3 significant digits, iop's
//! `histogram` at grouping power 10; u64 counts. Each figure is the best of 7 batches, in µs
//! per call; the three take turns within each operation. A merge adds a second histogram of
//! 10^6 other values into an accumulator; Picollo's also into one of another range
//! (`merge_general`: the bucket-by-bucket path every merge took before the counter-by-counter
//! one for the same buckets).
//!
//! `cargo bench -p picollo --bench ops`; the last line is `bench ops: p999=<r> p16=<r>
//! merge=<r> encode=<r> decode=<r> meanstd=<r> iter=<r>`, each the fastest peer's time over
//! Picollo's (above 1: Picollo is faster); the line before it gives every time.

mod report;

use std::hint::black_box;

use hdrhistogram::serialization::{Deserializer, Serializer, V2Serializer};
use picollo::{hdr, Config, Histogram};

mod common;
use common::{best, values, N};

/// The 16 ranks of the many-percentiles query, in percent.
const RANKS: [f64; 16] = [
    1.0, 5.0, 10.0, 20.0, 25.0, 30.0, 40.0, 50.0, 60.0, 70.0, 75.0, 80.0, 90.0, 95.0, 99.0, 99.9,
];
const MAX: u64 = 10_000_000_000;

type Ours = Histogram<u64, Vec<u64>>;
type Hdr = hdrhistogram::Histogram<u64>;
type Iop = histogram::Histogram;

/// The three histograms of `vs`.
fn filled(vs: &[u64]) -> (Ours, Hdr, Iop) {
    let config = Config::new().with_relative_error(0.0005).with_range(1, MAX);
    let mut ours: Ours = config.build().unwrap();
    let mut hdr = Hdr::new_with_bounds(1, MAX, 3).unwrap();
    let mut iop = Iop::new(10, 34).unwrap();
    for &v in vs {
        ours.record(v);
        hdr.record(v).unwrap();
        iop.increment(v).unwrap();
    }
    (ours, hdr, iop)
}

/// One operation's times: Picollo's and each peer's (`None`: the peer has no such call).
struct Op {
    name: &'static str,
    ours: f64,
    hdr: Option<f64>,
    iop: Option<f64>,
}

impl Op {
    /// The fastest peer's time over Picollo's.
    fn ratio(&self) -> f64 {
        let peers = [self.hdr, self.iop].into_iter().flatten();
        peers.fold(f64::INFINITY, f64::min) / self.ours
    }
}

fn queries(ours: &Ours, hdr: &Hdr, iop: &Iop) -> [Op; 3] {
    let quantiles: Vec<f64> = RANKS.iter().map(|r| r / 100.0).collect();
    let p999 = Op {
        name: "p999",
        ours: best(|| {
            black_box(black_box(ours).view().percentile_value(99.9).unwrap());
        }),
        hdr: Some(best(|| {
            black_box(black_box(hdr).value_at_quantile(0.999));
        })),
        iop: Some(best(|| {
            black_box(black_box(iop).quantile_bucket(0.999).unwrap());
        })),
    };
    let mut out = [0u64; 16];
    let p16 = Op {
        name: "p16",
        ours: best(|| {
            black_box(ours)
                .view()
                .percentile_values(&RANKS, &mut out)
                .unwrap();
            black_box(&out);
        }),
        hdr: Some(best(|| {
            for q in &quantiles {
                black_box(black_box(hdr).value_at_quantile(*q));
            }
        })),
        iop: Some(best(|| {
            black_box(black_box(iop).quantiles(&quantiles).unwrap());
        })),
    };
    let meanstd = Op {
        name: "meanstd",
        ours: best(|| {
            let v = black_box(ours).view();
            black_box((v.mean(), v.stdev()));
        }),
        hdr: Some(best(|| {
            black_box((black_box(hdr).mean(), hdr.stdev()));
        })),
        iop: None,
    };
    [p999, p16, meanstd]
}

fn walks(ours: &Ours, hdr: &Hdr, iop: &Iop) -> Op {
    Op {
        name: "iter",
        ours: best(|| {
            let n: u64 = black_box(ours)
                .view()
                .buckets_with_values()
                .map(|b| b.count)
                .sum();
            black_box(n);
        }),
        hdr: Some(best(|| {
            let n: u64 = black_box(hdr)
                .iter_recorded()
                .map(|v| v.count_at_value())
                .sum();
            black_box(n);
        })),
        iop: Some(best(|| {
            let n: u64 = black_box(iop).iter().map(|b| b.count()).sum();
            black_box(n);
        })),
    }
}

/// The merges, and Picollo's general path (`merge_general`).
fn merges(a: &(Ours, Hdr, Iop), b: &(Ours, Hdr, Iop)) -> (Op, f64) {
    let (mut ours, mut hdr, mut iop) = (a.0.clone(), a.1.clone(), a.2.clone());
    let merge = Op {
        name: "merge",
        ours: best(|| ours.add(&black_box(&b.0).view()).unwrap()),
        hdr: Some(best(|| hdr.add(black_box(&b.1)).unwrap())),
        iop: Some(best(|| iop.checked_add_assign(black_box(&b.2)).unwrap())),
    };
    let wider = Config::new()
        .with_relative_error(0.0005)
        .with_range(0, MAX * 4);
    let mut other: Ours = wider.build().unwrap();
    let general = best(|| other.add(&black_box(&b.0).view()).unwrap());
    (merge, general)
}

fn codecs(ours: &Ours, hdr: &Hdr) -> [Op; 2] {
    let mut serializer = V2Serializer::new();
    let (mut our_blob, mut hdr_blob) = (Vec::new(), Vec::new());
    ours.view().encode_v2_into(&mut our_blob).unwrap();
    serializer.serialize(hdr, &mut hdr_blob).unwrap();
    let encode = Op {
        name: "encode",
        ours: best(|| {
            let mut out = Vec::new();
            black_box(ours).view().encode_v2_into(&mut out).unwrap();
            black_box(out);
        }),
        hdr: Some(best(|| {
            let mut out = Vec::new();
            serializer.serialize(black_box(hdr), &mut out).unwrap();
            black_box(out);
        })),
        iop: None,
    };
    let mut deserializer = Deserializer::new();
    let decode = Op {
        name: "decode",
        ours: best(|| {
            black_box(hdr::decode(black_box(&our_blob)).unwrap());
        }),
        hdr: Some(best(|| {
            let h: Hdr = deserializer
                .deserialize(&mut std::io::Cursor::new(black_box(&hdr_blob)))
                .unwrap();
            black_box(h);
        })),
        iop: None,
    };
    [encode, decode]
}

fn main() {
    let vs = values();
    let a = filled(&vs);
    let mut others = vs.clone();
    others.iter_mut().for_each(|v| *v = (*v / 3 * 2).max(1));
    let b = filled(&others);
    assert_eq!(a.0.total_count(), N as u64);
    assert_eq!(a.1.len(), N as u64);
    let [p999, p16, meanstd] = queries(&a.0, &a.1, &a.2);
    let (merge, general) = merges(&a, &b);
    let [encode, decode] = codecs(&a.0, &a.1);
    let iter = walks(&a.0, &a.1, &a.2);
    let ops = [p999, p16, merge, encode, decode, meanstd, iter];
    let time = |t: Option<f64>| t.map_or("-".to_string(), |t| format!("{t:.2}"));
    let mut detail = format!(
        "µs per call (picollo/hdrhistogram/histogram; {} non-empty buckets; counters {}/{}/{}):",
        a.0.view().buckets_with_values().count(),
        a.0.counts().len(),
        a.1.distinct_values(),
        a.2.as_slice().len()
    );
    for op in &ops {
        detail += &format!(
            " {}={:.2}/{}/{}",
            op.name,
            op.ours,
            time(op.hdr),
            time(op.iop)
        );
    }
    println!("{detail} merge_general={general:.2}");
    let ratios: Vec<String> = ops
        .iter()
        .map(|op| format!("{}={:.2}", op.name, op.ratio()))
        .collect();
    report::report(&format!("bench ops: {}", ratios.join(" ")));
}
