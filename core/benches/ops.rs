//! Every operation after the record, next to the peers, in one process taking turns: one
//! percentile, 16 percentiles, a merge, a V2 encode and decode (uncompressed), mean and
//! standard deviation, and a walk over the non-empty buckets (each one's count times a
//! value of it, summed).
//!
//! Workload: 10^6 log-normal latencies (median 50 µs, σ 1.2, in ns, capped at 10 s; the
//! encode bench's) in three histograms of about the same resolution over 1 ns..10 s:
//! Picollo at relative error 0.0005, `hdrhistogram` at 3 significant digits, iop's
//! `histogram` at grouping power 10; u64 counts. The three take turns, a batch of 20 calls
//! each per round for 21 rounds; each figure is the best batch, in µs per call. A merge adds a second histogram of
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
use common::{turns, values, N};

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
    /// Picollo's call and each peer's (where it has one), timed taking turns.
    fn race<'f>(
        name: &'static str,
        ours: &'f mut dyn FnMut(),
        hdr: Option<&'f mut dyn FnMut()>,
        iop: Option<&'f mut dyn FnMut()>,
    ) -> Op {
        let has = (hdr.is_some(), iop.is_some());
        let mut all: Vec<&mut dyn FnMut()> = vec![ours];
        all.extend(hdr);
        all.extend(iop);
        let times = turns(&mut all);
        let mut peers = times[1..].iter().copied();
        Op {
            name,
            ours: times[0],
            hdr: has.0.then(|| peers.next().unwrap()),
            iop: has.1.then(|| peers.next().unwrap()),
        }
    }

    /// The fastest peer's time over Picollo's.
    fn ratio(&self) -> f64 {
        let peers = [self.hdr, self.iop].into_iter().flatten();
        peers.fold(f64::INFINITY, f64::min) / self.ours
    }
}

fn queries(ours: &Ours, hdr: &Hdr, iop: &Iop) -> [Op; 3] {
    let quantiles: Vec<f64> = RANKS.iter().map(|r| r / 100.0).collect();
    let p999 = Op::race(
        "p999",
        &mut || {
            black_box(black_box(ours).view().percentile_value(99.9).unwrap());
        },
        Some(&mut || {
            black_box(black_box(hdr).value_at_quantile(0.999));
        }),
        Some(&mut || {
            black_box(black_box(iop).quantile_bucket(0.999).unwrap());
        }),
    );
    let mut out = [0u64; 16];
    let p16 = Op::race(
        "p16",
        &mut || {
            let view = black_box(ours).view();
            view.percentile_values(&RANKS, &mut out).unwrap();
            black_box(&out);
        },
        Some(&mut || {
            for q in &quantiles {
                black_box(black_box(hdr).value_at_quantile(*q));
            }
        }),
        Some(&mut || {
            black_box(black_box(iop).quantiles(&quantiles).unwrap());
        }),
    );
    let meanstd = Op::race(
        "meanstd",
        &mut || {
            let v = black_box(ours).view();
            black_box((v.mean(), v.stdev()));
        },
        Some(&mut || {
            black_box((black_box(hdr).mean(), hdr.stdev()));
        }),
        None,
    );
    [p999, p16, meanstd]
}

/// A walk over the non-empty buckets that reads each one's count and a value of it (the
/// sum of count × value, what an export or a weighted statistic reads).
fn walks(ours: &Ours, hdr: &Hdr, iop: &Iop) -> Op {
    Op::race(
        "iter",
        &mut || {
            let view = black_box(ours).view();
            let walk = view.buckets_with_values();
            black_box(walk.fold(0u64, |s, b| s.wrapping_add(b.count * b.value)));
        },
        Some(&mut || {
            let walk = black_box(hdr).iter_recorded();
            let weigh = |s: u64, v: hdrhistogram::iterators::IterationValue<u64>| {
                s.wrapping_add(v.count_at_value() * v.value_iterated_to())
            };
            black_box(walk.fold(0u64, weigh));
        }),
        Some(&mut || {
            let walk = black_box(iop).iter().filter(|b| b.count() != 0);
            black_box(walk.fold(0u64, |s, b| s.wrapping_add(b.count() * b.end())));
        }),
    )
}

/// The merges, and Picollo's general path (`merge_general`).
fn merges(a: &(Ours, Hdr, Iop), b: &(Ours, Hdr, Iop)) -> (Op, f64) {
    let (mut ours, mut hdr, mut iop) = (a.0.clone(), a.1.clone(), a.2.clone());
    let wider = Config::new()
        .with_relative_error(0.0005)
        .with_range(0, MAX * 4);
    let mut other: Ours = wider.build().unwrap();
    let merge = Op::race(
        "merge",
        &mut || ours.add(&black_box(&b.0).view()).unwrap(),
        Some(&mut || hdr.add(black_box(&b.1)).unwrap()),
        Some(&mut || iop.checked_add_assign(black_box(&b.2)).unwrap()),
    );
    let general = turns(&mut [&mut || other.add(&black_box(&b.0).view()).unwrap()])[0];
    (merge, general)
}

fn codecs(ours: &Ours, hdr: &Hdr) -> [Op; 2] {
    let mut serializer = V2Serializer::new();
    let (mut our_blob, mut hdr_blob) = (Vec::new(), Vec::new());
    ours.view().encode_v2_into(&mut our_blob).unwrap();
    serializer.serialize(hdr, &mut hdr_blob).unwrap();
    let encode = Op::race(
        "encode",
        &mut || {
            let mut out = Vec::new();
            black_box(ours).view().encode_v2_into(&mut out).unwrap();
            black_box(out);
        },
        Some(&mut || {
            let mut out = Vec::new();
            serializer.serialize(black_box(hdr), &mut out).unwrap();
            black_box(out);
        }),
        None,
    );
    let mut deserializer = Deserializer::new();
    let decode = Op::race(
        "decode",
        &mut || {
            black_box(hdr::decode(black_box(&our_blob)).unwrap());
        },
        Some(&mut || {
            let h: Hdr = deserializer
                .deserialize(&mut std::io::Cursor::new(black_box(&hdr_blob)))
                .unwrap();
            black_box(h);
        }),
        None,
    );
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
