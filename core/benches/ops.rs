//! Every operation of a histogram next to the peers, in one process taking turns: record,
//! reset, one percentile, 16 percentiles, a merge, a V2 encode and decode (uncompressed),
//! mean and standard deviation, and a walk over the non-empty buckets (each one's count
//! times a value of it, summed).
//!
//! Workload: 10^6 log-normal latencies (median 50 µs, σ 1.2, in ns, capped at 10 s; the
//! encode bench's) in four histograms of about the same resolution over 1 ns..10 s
//! (`peers/mod.rs`): Picollo, `hdrhistogram` 7.6, iop's `histogram` 1.6 and DDSketch 0.4,
//! u64 counts. Before anything is timed, each one's P50, P99 and P99.9 are checked against
//! the exact order statistic within its stated error.
//!
//! The contenders take turns, a batch of 20 calls each per round (one call of 10^6 values
//! for `record`) for 21 rounds. Each operation's ratio is the fastest peer's time over
//! Picollo's within a round (above 1: Picollo is faster), the median over the rounds; the
//! times are each contender's median batch. `record` adds the workload to a histogram
//! that keeps growing; `reset` empties one that holds the workload, refilled (untimed)
//! before each call. A merge adds a second histogram of 10^6 other values into an
//! accumulator; Picollo's also into one of another range (`merge_general`: the
//! bucket-by-bucket path every merge took before the counter-by-counter one for the same
//! buckets).
//!
//! A cumulative copy (running totals, for many queries of one moment) is timed as it is
//! built (`cumulative_build`) and as it answers P99.9 (`cumulative_p999`), both next to
//! iop's `CumulativeROHistogram`, and as it answers 1,024 ranks drawn at random
//! (`cumulative_ranks`: each call the next 1,024 of 65,536, so that neither side's branches
//! learn them; µs per 1,024); `live_p999_over_cumulative` is the live P99.9's time over the
//! copy's (the median of the rounds' ratios).
//!
//! `cargo bench -p picollo --bench ops`; the last line is `bench ops: record=<r>
//! reset=<r> p999=<r> p16=<r> merge=<r> encode=<r> decode=<r> meanstd=<r> iter=<r>
//! cumulative_build=<r> cumulative_p999=<r> cumulative_ranks=<r> record_many=<r>
//! summary_into=<r>`; the line before it gives every time (ns per value for `record` and
//! `record_many`, µs per call otherwise). The batch calls' rows are in `batch/mod.rs`.

mod batch;
mod report;

use std::hint::black_box;
use std::time::Instant;

use hdrhistogram::serialization::{Deserializer, Serializer, V2Serializer};
use picollo::{hdr, Config};

mod common;
mod peers;
use common::{median, random_ranks, rounds, values, BATCH, N, ROUNDS};
use peers::{Hdr, Ours, Set, MAX, RELATIVE};

/// The 16 ranks of the many-percentiles query, in percent.
const RANKS: [f64; 16] = [
    1.0, 5.0, 10.0, 20.0, 25.0, 30.0, 40.0, 50.0, 60.0, 70.0, 75.0, 80.0, 90.0, 95.0, 99.0, 99.9,
];

/// A peer's call, where it has one.
type Call<'f> = Option<&'f mut dyn FnMut()>;

/// One operation's times (Picollo's, then each peer's: `hdrhistogram`, `histogram`,
/// DDSketch; `None` where the peer has no such call) and its ratio.
struct Op {
    name: &'static str,
    times: [Option<f64>; 4],
    ratio: f64,
}

impl Op {
    /// Picollo's call and each peer's (where it has one), timed taking turns in batches
    /// of `batch` calls.
    fn race<'f>(
        name: &'static str,
        batch: usize,
        ours: &'f mut dyn FnMut(),
        peers: [Call<'f>; 3],
    ) -> Op {
        let has = peers.each_ref().map(Option::is_some);
        let mut all: Vec<&mut dyn FnMut()> = vec![ours];
        all.extend(peers.into_iter().flatten());
        Op::from_rounds(name, &rounds(&mut all, batch), has)
    }

    /// The operation from every round's times (Picollo's first, then the peers of `has`).
    fn from_rounds(name: &'static str, rounds: &[Vec<f64>], has: [bool; 3]) -> Op {
        let column = |k: usize| median(rounds.iter().map(|r| r[k]).collect());
        let mut times = [Some(column(0)), None, None, None];
        let present = times[1..].iter_mut().zip(has).filter(|(_, h)| *h);
        for (k, (slot, _)) in (1..).zip(present) {
            *slot = Some(column(k));
        }
        let fastest = |r: &Vec<f64>| r[1..].iter().copied().fold(f64::INFINITY, f64::min);
        let ratio = median(rounds.iter().map(|r| fastest(r) / r[0]).collect());
        Op { name, times, ratio }
    }

    /// The times scaled by `factor` (µs per call to ns per value).
    fn scaled(mut self, factor: f64) -> Op {
        self.times.iter_mut().flatten().for_each(|t| *t *= factor);
        self
    }
}

/// Record the workload: one call adds all `N` values (ns per value).
fn records(vs: &[u64]) -> Op {
    let mut set = Set::empty();
    let op = Op::race(
        "record",
        1,
        &mut || black_box(&vs).iter().for_each(|&v| set.ours.record(v)),
        [
            Some(&mut || vs.iter().for_each(|&v| set.hdr.record(v).unwrap())),
            Some(&mut || vs.iter().for_each(|&v| set.iop.increment(v).unwrap())),
            Some(&mut || vs.iter().for_each(|&v| set.dd.add(v as f64))),
        ],
    );
    op.scaled(1e3 / N as f64)
}

/// Empty a histogram that holds the workload, refilled from `full` before each call (not
/// timed); the contenders take turns call by call. DDSketch has no reset.
fn resets(full: &Set) -> Op {
    let mut set = full.clone();
    let timed = |f: &mut dyn FnMut()| {
        let t = Instant::now();
        f();
        t.elapsed().as_secs_f64() * 1e6
    };
    let rounds: Vec<Vec<f64>> = (0..ROUNDS)
        .map(|_| {
            let mut round = [0.0; 3];
            for _ in 0..BATCH {
                set.ours.clone_from(&full.ours);
                round[0] += timed(&mut || black_box(&mut set.ours).reset());
                set.hdr.clone_from(&full.hdr);
                round[1] += timed(&mut || black_box(&mut set.hdr).reset());
                set.iop.clone_from(&full.iop);
                round[2] += timed(&mut || black_box(&mut set.iop).reset());
            }
            round.iter().map(|t| t / BATCH as f64).collect()
        })
        .collect();
    Op::from_rounds("reset", &rounds, [true, true, false])
}

fn queries(set: &Set) -> [Op; 3] {
    let Set { ours, hdr, iop, dd } = set;
    let quantiles: Vec<f64> = RANKS.iter().map(|r| r / 100.0).collect();
    let p999 = Op::race(
        "p999",
        BATCH,
        &mut || {
            black_box(black_box(ours).view().percentile_value(99.9).unwrap());
        },
        [
            Some(&mut || {
                black_box(black_box(hdr).value_at_quantile(0.999));
            }),
            Some(&mut || {
                black_box(black_box(iop).quantile_bucket(0.999).unwrap());
            }),
            Some(&mut || {
                black_box(black_box(dd).quantile(0.999).unwrap());
            }),
        ],
    );
    let (mut out, mut hdr_out, mut buckets) = ([0u64; 16], [0u64; 16], [const { None }; 16]);
    let p16 = Op::race(
        "p16",
        BATCH,
        &mut || {
            let view = black_box(ours).view();
            view.percentile_values(&RANKS, &mut out).unwrap();
            black_box(&out);
        },
        [
            Some(&mut || {
                let walk = black_box(hdr).value_at_quantiles(quantiles.iter().copied());
                walk.zip(&mut hdr_out).for_each(|(v, o)| *o = v);
                black_box(&hdr_out);
            }),
            Some(&mut || {
                black_box(iop)
                    .quantile_buckets_into(&quantiles, &mut buckets)
                    .unwrap();
                black_box(&buckets);
            }),
            Some(&mut || {
                for q in &quantiles {
                    black_box(black_box(dd).quantile(*q).unwrap());
                }
            }),
        ],
    );
    let meanstd = Op::race(
        "meanstd",
        BATCH,
        &mut || {
            let v = black_box(ours).view();
            black_box((v.mean(), v.stdev()));
        },
        [
            Some(&mut || {
                black_box((black_box(hdr).mean(), hdr.stdev()));
            }),
            None,
            None,
        ],
    );
    [p999, p16, meanstd]
}

/// A walk over the non-empty buckets that reads each one's count and a value of it (the
/// sum of count × value, what an export or a weighted statistic reads).
fn walks(set: &Set) -> Op {
    let Set { ours, hdr, iop, .. } = set;
    Op::race(
        "iter",
        BATCH,
        &mut || {
            let view = black_box(ours).view();
            let walk = view.buckets_with_values();
            black_box(walk.fold(0u64, |s, b| s.wrapping_add(b.count * b.value)));
        },
        [
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
            None,
        ],
    )
}

/// The merges, and Picollo's general path (`merge_general`, µs per call).
fn merges(a: &Set, b: &Set) -> (Op, f64) {
    let mut acc = a.clone();
    let wider = Config::new()
        .with_relative_error(RELATIVE)
        .with_range(0, MAX * 4);
    let mut other: Ours = wider.build().unwrap();
    let merge = Op::race(
        "merge",
        BATCH,
        &mut || acc.ours.add(&black_box(&b.ours).view()).unwrap(),
        [
            Some(&mut || acc.hdr.add(black_box(&b.hdr)).unwrap()),
            Some(&mut || acc.iop.checked_add_assign(black_box(&b.iop)).unwrap()),
            Some(&mut || acc.dd.merge(black_box(&b.dd)).unwrap()),
        ],
    );
    let general = &mut || other.add(&black_box(&b.ours).view()).unwrap();
    let general = median(rounds(&mut [general], BATCH).concat());
    (merge, general)
}

fn codecs(ours: &Ours, hdr: &Hdr) -> [Op; 2] {
    let mut serializer = V2Serializer::new();
    let (mut our_blob, mut hdr_blob) = (Vec::new(), Vec::new());
    ours.view().encode_v2_into(&mut our_blob).unwrap();
    serializer.serialize(hdr, &mut hdr_blob).unwrap();
    let encode = Op::race(
        "encode",
        BATCH,
        &mut || {
            let mut out = Vec::new();
            black_box(ours).view().encode_v2_into(&mut out).unwrap();
            black_box(out);
        },
        [
            Some(&mut || {
                let mut out = Vec::new();
                serializer.serialize(black_box(hdr), &mut out).unwrap();
                black_box(out);
            }),
            None,
            None,
        ],
    );
    let mut deserializer = Deserializer::new();
    let decode = Op::race(
        "decode",
        BATCH,
        &mut || {
            black_box(hdr::decode(black_box(&our_blob)).unwrap());
        },
        [
            Some(&mut || {
                let h: Hdr = deserializer
                    .deserialize(&mut std::io::Cursor::new(black_box(&hdr_blob)))
                    .unwrap();
                black_box(h);
            }),
            None,
            None,
        ],
    );
    [encode, decode]
}

/// The cumulative copies, for a reader asking many questions of one moment: building one
/// (`cumulative_build`, next to iop's `CumulativeROHistogram`) and its P99.9
/// (`cumulative_p999`, next to iop's), and the copy's P99.9 against the live scan's
/// (`live_p999`), in µs per call: `(build, p999, live over copy)`.
fn cumulatives(set: &Set) -> (Op, Op, f64) {
    let Set { ours, iop, .. } = set;
    let build = Op::race(
        "cumulative_build",
        BATCH,
        &mut || {
            black_box(black_box(ours).view().cumulative().unwrap());
        },
        [
            None,
            Some(&mut || {
                black_box(histogram::CumulativeROHistogram::from(black_box(iop)));
            }),
            None,
        ],
    );
    let (copy, iop_copy) = (
        ours.view().cumulative().unwrap(),
        histogram::CumulativeROHistogram::from(iop),
    );
    assert_eq!(copy.percentile(99.9), ours.view().percentile(99.9));
    let p999 = Op::race(
        "cumulative_p999",
        BATCH,
        &mut || {
            black_box(black_box(&copy).percentile_value(99.9).unwrap());
        },
        [
            None,
            Some(&mut || {
                black_box(black_box(&iop_copy).quantile_bucket(0.999).unwrap());
            }),
            None,
        ],
    );
    let live = &mut || {
        black_box(black_box(ours).view().percentile_value(99.9).unwrap());
    };
    let one = &mut || {
        black_box(black_box(&copy).percentile_value(99.9).unwrap());
    };
    let rounds = rounds(&mut [live, one], BATCH);
    let speedup = median(rounds.iter().map(|r| r[0] / r[1]).collect());
    (build, p999, speedup)
}

/// Ranks a call of `cumulative_ranks` asks, and how many it draws from.
const RANKS_A_CALL: usize = 1024;
const RANKS_DRAWN: usize = 1 << 16;

/// The cumulative copies answering many ranks drawn at random, next to iop's: each call
/// the next `RANKS_A_CALL` of `RANKS_DRAWN`, the same ones for both (µs per call).
fn cumulative_ranks(set: &Set) -> Op {
    let Set { ours, iop, .. } = set;
    let (copy, iop_copy) = (
        ours.view().cumulative().unwrap(),
        histogram::CumulativeROHistogram::from(iop),
    );
    let ranks = random_ranks(RANKS_DRAWN);
    let mut ours_next = ranks.chunks(RANKS_A_CALL).cycle();
    let mut iop_next = ranks.chunks(RANKS_A_CALL).cycle();
    Op::race(
        "cumulative_ranks",
        BATCH,
        &mut || {
            for &r in ours_next.next().unwrap() {
                black_box(black_box(&copy).percentile_value(r).unwrap());
            }
        },
        [
            None,
            Some(&mut || {
                for &r in iop_next.next().unwrap() {
                    black_box(black_box(&iop_copy).quantile_bucket(r / 100.0).unwrap());
                }
            }),
            None,
        ],
    )
}

/// Every time, per operation: `name=picollo/hdrhistogram/histogram/ddsketch`.
fn detail(set: &Set, ops: &[Op]) -> String {
    // Two decimals, four below 1 (a cumulative copy's query takes hundredths of a µs).
    let digits = |t: f64| if t < 1.0 { 4 } else { 2 };
    let time = |t: Option<f64>| t.map_or("-".to_string(), |t| format!("{t:.*}", digits(t)));
    let mut detail = format!(
        "medians, ns per value for record and record_many, µs per call otherwise \
         (picollo/hdrhistogram/histogram/ddsketch; {} non-empty buckets; counters \
         {}/{}/{}/{}):",
        set.ours.view().buckets_with_values().count(),
        set.ours.counts().len(),
        set.hdr.distinct_values(),
        set.iop.as_slice().len(),
        set.dd.length(),
    );
    for op in ops {
        let times: Vec<String> = op.times.iter().map(|&t| time(t)).collect();
        detail += &format!(" {}={}", op.name, times.join("/"));
    }
    detail
}

fn main() {
    let vs = values();
    let a = Set::filled(&vs);
    a.check_accuracy(&vs);
    let mut others = vs.clone();
    others.iter_mut().for_each(|v| *v = (*v / 3 * 2).max(1));
    let b = Set::filled(&others);
    b.check_accuracy(&others);
    assert_eq!(a.ours.total_count(), N as u64);
    let record = records(&vs);
    let reset = resets(&a);
    let [p999, p16, meanstd] = queries(&a);
    let (merge, general) = merges(&a, &b);
    let [encode, decode] = codecs(&a.ours, &a.hdr);
    let iter = walks(&a);
    let (cumulative_build, cumulative_p999, live_over_copy) = cumulatives(&a);
    let cumulative_ranks = cumulative_ranks(&a);
    let record_many = batch::records_many(&vs);
    let summary_into = batch::summaries(&a);
    let ops = [
        record,
        reset,
        p999,
        p16,
        merge,
        encode,
        decode,
        meanstd,
        iter,
        cumulative_build,
        cumulative_p999,
        cumulative_ranks,
        record_many,
        summary_into,
    ];
    println!(
        "{} merge_general={general:.2} live_p999_over_cumulative={live_over_copy:.1}",
        detail(&a, &ops)
    );
    let ratios: Vec<String> = ops
        .iter()
        .map(|op| format!("{}={:.2}", op.name, op.ratio))
        .collect();
    report::report(&format!("bench ops: {}", ratios.join(" ")));
}
