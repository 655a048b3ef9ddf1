//! The fast paths after the record against plain reference computations, over random
//! histograms (both counter widths, relative errors from 10 % to 0.01 %, units, ranges,
//! counts from 1 to beyond 2^32 and near each width's maximum): totals and percentiles
//! (vector sums, block and run skipping), ranks and counts between values, the first and
//! last counted buckets, the walk over counted buckets, V2 encoding (read back by Picollo
//! and by the `hdrhistogram` crate), and the counter-by-counter merge against the
//! bucket-by-bucket one. Then percentiles of live cells while writers record.

mod common;

use common::{first_reaching, SplitMix64};
use picollo::concurrent::{CounterBits, DynHistogram, Mode};
use picollo::{hdr, rank_to_count, Config, Counter, Histogram};

/// Relative errors, some with HdrHistogram's own buckets (which V2 carries exactly).
const ERRORS: [f64; 6] = [0.1, 0.01, 0.001, 0.0005, 0.0001, 0.00005];

/// A random configuration: relative error, unit (1 to 8) and range.
fn random_config(rng: &mut SplitMix64) -> Config {
    let error = ERRORS[rng.below(ERRORS.len() as u64) as usize];
    let config = Config::new()
        .with_relative_error(error)
        .with_unit_scale(rng.below(4) as u32);
    let min = match rng.below(3) {
        0 => 0,
        _ => rng.any_magnitude() >> rng.below(40),
    };
    let max = match rng.below(3) {
        0 => u64::MAX,
        _ => min.saturating_add(rng.any_magnitude() >> rng.below(30)),
    };
    let candidate = config.with_range(min, max.max(min));
    // Ranges too fine for memory fall back to the whole range at a coarser error.
    if candidate.storage_len() <= 1 << 20 {
        candidate
    } else {
        Config::new().with_relative_error(0.01)
    }
}

/// A count: mostly small, sometimes large enough to need the wide sums (2^32 and up),
/// sometimes zero-padding-free huge.
fn random_count(rng: &mut SplitMix64) -> u64 {
    match rng.below(20) {
        0 => 1 + rng.below(1 << 40),
        1 => u64::MAX / 4 + rng.below(1 << 20),
        2..=5 => 1 + rng.below(5_000),
        _ => 1 + rng.below(100),
    }
}

/// A histogram of `config` holding random values in random counts, dense or sparse.
fn random_histogram<C: Counter>(rng: &mut SplitMix64, config: Config) -> Histogram<C, Vec<C>> {
    let mut h: Histogram<C, Vec<C>> = config.build().unwrap();
    let (min, max) = (config.min_trackable(), config.max_trackable());
    let span = max - min;
    let records = [0, 1, 3, 50, 2_000, 20_000][rng.below(6) as usize];
    let spread = rng.below(64) as u32;
    for _ in 0..records {
        // Values clustered near the bottom of the range, or anywhere in it.
        let offset = (rng.next_u64() >> spread).min(span);
        h.record_n(min + offset, random_count(rng));
    }
    if rng.below(2) == 0 {
        dense_run(rng, &mut h);
    }
    h
}

/// Counts about the lengths of varints (1, 2, 3 bytes and more) and of `u32`.
const EDGES: [u64; 14] = [
    1,
    63,
    64,
    127,
    4_095,
    4_096,
    8_191,
    8_192,
    16_383,
    16_384,
    1 << 20,
    u32::MAX as u64 - 1,
    u32::MAX as u64,
    1 << 33,
];

/// Up to 200 consecutive buckets filled with counts about the varint lengths.
fn dense_run<C: Counter>(rng: &mut SplitMix64, h: &mut Histogram<C, Vec<C>>) {
    let len = h.counts().len() as u64;
    let start = rng.below(len);
    for i in start..(start + 1 + rng.below(200)).min(len) {
        let lower = h.view().bucket(i as usize).unwrap().lower;
        h.record_n(lower, EDGES[rng.below(EDGES.len() as u64) as usize]);
    }
}

fn counts_of<C: Counter>(h: &Histogram<C, Vec<C>>) -> Vec<u64> {
    h.counts().iter().map(|c| c.to_u64()).collect()
}

fn saturate(v: u128) -> u64 {
    u64::try_from(v).unwrap_or(u64::MAX)
}

/// Strictly increasing ranks in [0, 100], the ends included sometimes.
fn random_ranks(rng: &mut SplitMix64) -> Vec<f64> {
    let n = 1 + rng.below(20);
    let mut ranks: Vec<f64> = (0..n)
        .map(|_| (rng.below(1_000_001) as f64) / 10_000.0)
        .collect();
    for end in [0.0, 100.0] {
        if rng.below(2) == 0 {
            ranks.push(end);
        }
    }
    ranks.sort_by(f64::total_cmp);
    ranks.dedup();
    ranks
}

fn check_queries<C: Counter>(rng: &mut SplitMix64, h: &Histogram<C, Vec<C>>, what: &str) {
    let counts = counts_of(h);
    let view = h.view();
    let total: u128 = counts.iter().map(|&c| c as u128).sum();
    assert_eq!(view.total_count(), saturate(total), "{what}: total");
    let first = counts.iter().position(|&c| c != 0);
    let last = counts.iter().rposition(|&c| c != 0);
    let bucket = |i: usize| view.bucket(i).unwrap();
    assert_eq!(
        view.min_recorded(),
        first.map(|i| bucket(i).lower),
        "{what}"
    );
    assert_eq!(
        view.max_recorded(),
        last.map(|i| bucket(i).highest),
        "{what}"
    );
    let walked: Vec<_> = view.buckets_with_values().collect();
    let filtered: Vec<_> = view.buckets().filter(|b| b.count != 0).collect();
    assert_eq!(walked, filtered, "{what}: the walk over counted buckets");
    if total == 0 {
        return;
    }
    let ranks = random_ranks(rng);
    let mut out = vec![Default::default(); ranks.len()];
    view.percentiles(&ranks, &mut out).unwrap();
    for (&rank, p) in ranks.iter().zip(&out) {
        let (at, cumulative) = first_reaching(&counts, rank_to_count(rank, total));
        let got = (p.storage_index, p.count, p.cumulative_count);
        let want = (at as u64, counts[at], saturate(cumulative));
        assert_eq!(got, want, "{what}: P{rank}");
    }
    // Ranks and counts between bucket bounds, against sums of the counts.
    for _ in 0..8 {
        let (a, b) = (
            rng.below(counts.len() as u64),
            rng.below(counts.len() as u64),
        );
        let (a, b) = (a.min(b) as usize, a.max(b) as usize);
        let below: u128 = counts[..=b].iter().map(|&c| c as u128).sum();
        let rank = view.rank_of(bucket(b).highest);
        let near = (rank - below as f64).abs() <= below as f64 * 1e-12;
        assert!(near, "{what}: rank_of {rank} against {below}");
        let between: u128 = counts[a..=b].iter().map(|&c| c as u128).sum();
        let got = view.count_between(bucket(a).lower, bucket(b).highest);
        assert_eq!(got, Ok(saturate(between)), "{what}: count_between");
    }
}

#[test]
fn queries_and_walks_agree_with_sums_of_the_counts() {
    let mut rng = SplitMix64(47);
    for case in 0..300 {
        let config = random_config(&mut rng);
        let what = format!("case {case} {config:?}");
        if case % 2 == 0 {
            let h = random_histogram::<u32>(&mut rng, config);
            check_queries(&mut rng, &h, &what);
        } else {
            let h = random_histogram::<u64>(&mut rng, config);
            check_queries(&mut rng, &h, &what);
        }
    }
}

#[test]
fn v2_blobs_of_the_fast_encoder_read_back_the_same_counts() {
    let mut rng = SplitMix64(4747);
    let mut encoded = 0;
    for case in 0..300 {
        let config = random_config(&mut rng);
        let h = random_histogram::<u64>(&mut rng, config);
        let what = format!("case {case} {config:?}");
        let counts = counts_of(&h);
        let blob = match h.view().encode_v2() {
            Ok(blob) => blob,
            Err(hdr::V2Error::CountTooLarge { value, count }) => {
                // The first count V2 cannot carry, named by its bucket.
                let at = counts.iter().position(|&c| c > i64::MAX as u64).unwrap();
                let b = h.view().bucket(at).unwrap();
                assert_eq!((value, count), (b.lower, counts[at]), "{what}");
                continue;
            }
            Err(e) => {
                let unencodable = matches!(
                    e,
                    hdr::V2Error::ValueTooLarge(_)
                        | hdr::V2Error::UnitTooLarge(_)
                        | hdr::V2Error::Saturated(_)
                );
                assert!(unencodable, "{what}: {e}");
                continue;
            }
        };
        let back = hdr::decode(&blob).unwrap().histogram;
        if back.view().layout() == config.layout() {
            // HdrHistogram's own buckets: written counter by counter, read back exactly.
            encoded += 1;
            let mut again: Histogram<u64, Vec<u64>> = config.build().unwrap();
            again.add(&back.view()).unwrap();
            assert_eq!(counts_of(&again), counts, "{what}: Picollo reads it back");
        }
        let peer: hdrhistogram::Histogram<u64> = hdrhistogram::serialization::Deserializer::new()
            .deserialize(&mut std::io::Cursor::new(&blob))
            .unwrap();
        let wide = |c: u64| c as u128;
        let peer_total: u128 = peer.iter_recorded().map(|v| wide(v.count_at_value())).sum();
        let total: u128 = back.counts().iter().copied().map(wide).sum();
        assert_eq!(peer_total, total, "{what}: the peer reads it");
    }
    assert!(
        encoded > 30,
        "{encoded} of 300 cases in HdrHistogram's own buckets"
    );
}

/// Adds `source` to a receiver of the same buckets (counter by counter) and to one of the
/// whole range (bucket by bucket), both first filled with `before`: the same buckets end
/// with the same counts, and the same is counted as saturated.
fn merge_both_ways<D: Counter, S: Counter>(
    config: Config,
    before: &Histogram<D, Vec<D>>,
    source: &Histogram<S, Vec<S>>,
    what: &str,
) {
    let wide = Config::new().with_layout(config.layout());
    let mut same = before.clone();
    let mut general: Histogram<D, Vec<D>> = wide.build().unwrap();
    general.add(&before.view()).unwrap();
    same.add(&source.view()).unwrap();
    general.add(&source.view()).unwrap();
    let listed = |h: &Histogram<D, Vec<D>>| {
        let view = h.view();
        let walk = view.buckets_with_values();
        walk.map(|b| (b.lower, b.count)).collect::<Vec<_>>()
    };
    assert_eq!(listed(&same), listed(&general), "{what}");
    let saturated = |h: &Histogram<D, Vec<D>>| h.saturated_count();
    assert_eq!(saturated(&same), saturated(&general), "{what}: saturated");
}

#[test]
fn the_counter_by_counter_merge_lands_as_the_bucket_by_bucket_one() {
    let mut rng = SplitMix64(447);
    for case in 0..200 {
        let config = random_config(&mut rng).with_range(0, 1 << 40);
        let what = format!("case {case} {config:?}");
        let (a32, b32) = (
            random_histogram::<u32>(&mut rng, config),
            random_histogram::<u32>(&mut rng, config),
        );
        let (a64, b64) = (
            random_histogram::<u64>(&mut rng, config),
            random_histogram::<u64>(&mut rng, config),
        );
        merge_both_ways(config, &a32, &b32, &format!("{what} u32 + u32"));
        merge_both_ways(config, &a32, &b64, &format!("{what} u32 + u64"));
        merge_both_ways(config, &a64, &b32, &format!("{what} u64 + u32"));
        merge_both_ways(config, &a64, &b64, &format!("{what} u64 + u64"));
    }
}

/// Percentiles of live cells while writers record: whatever the writers add between the
/// scan and the walk, the results agree with each other and with one total.
fn live_percentiles_stay_consistent(mode: Mode, bits: CounterBits) {
    let config = Config::new()
        .with_relative_error(0.0005)
        .with_range(1, 1 << 30);
    let h = DynHistogram::new(config, bits, mode).unwrap();
    let ranks = [
        0.0, 1.0, 10.0, 25.0, 50.0, 75.0, 90.0, 99.0, 99.9, 99.99, 100.0,
    ];
    // The writer's values spread evenly over 0..2^30. The reader returns what it found
    // wrong (a panic here would leave the writer running).
    let found = common::while_recording(&h, 34, || {
        let mut checked = 0;
        let mut out = [picollo::Percentile::default(); 11];
        while checked < 300 {
            let ok = h.with_view(|view| view.as_view().percentiles(&ranks, &mut out).is_ok());
            if !ok.unwrap() {
                continue; // nothing recorded yet
            }
            if let Some(wrong) = disagreement(&out) {
                return Some(wrong);
            }
            checked += 1;
        }
        None
    });
    assert_eq!(found, None, "{mode:?} {bits:?}");
}

/// What is wrong with percentiles of increasing ranks read at once, if anything: indices
/// or cumulative counts going down, a bucket short of its rank's count, or P100 not
/// ending at the total.
fn disagreement(out: &[picollo::Percentile]) -> Option<String> {
    for pair in out.windows(2) {
        if pair[0].storage_index > pair[1].storage_index
            || pair[0].cumulative_count > pair[1].cumulative_count
        {
            return Some(format!("out of order: {} then {}", pair[0], pair[1]));
        }
    }
    if let Some(p) = out.iter().find(|p| p.cumulative_count < p.rank_count) {
        return Some(format!("short of its rank: {p}"));
    }
    let last = out.last()?;
    (last.cumulative_count != last.rank_count).then(|| format!("P100 past the total: {last}"))
}

#[test]
fn live_percentiles_agree_with_one_total_while_writers_record() {
    let modes = common::seqlock_modes();
    for mode in modes {
        for bits in [CounterBits::U32, CounterBits::U64] {
            live_percentiles_stay_consistent(mode, bits);
        }
    }
}

/// What a view answers: its total, its extremes, its counted buckets (lower bound and
/// count) and its percentile values at the ranks asked.
type Answers = (u64, Option<(u64, u64)>, Vec<(u64, u64)>, Vec<u64>);

/// What a view answers, for comparing two of them.
fn answers<C: Counter, S: picollo::view::Counts<C> + ?Sized>(
    v: &picollo::View<'_, C, S>,
    ranks: &[f64],
) -> Answers {
    let mut out = vec![0u64; ranks.len()];
    let _ = v.percentile_values(ranks, &mut out);
    let extremes = v.min_recorded().zip(v.max_recorded());
    let walked = v
        .buckets_with_values()
        .map(|b| (b.lower, b.count))
        .collect();
    (v.total_count(), extremes, walked, out)
}

/// A value of `min..=max`, mostly near `min` (each magnitude about as likely).
fn random_value(rng: &mut SplitMix64, min: u64, max: u64) -> u64 {
    min + (rng.next_u64() >> rng.below(64)).min(max - min)
}

/// Up to `most` records `(value, count)` in the range of `config`, counts 1 to `counts`.
fn random_records(rng: &mut SplitMix64, config: Config, most: u64, counts: u64) -> Vec<(u64, u64)> {
    let (min, max) = (config.min_trackable(), config.max_trackable());
    (0..rng.below(most))
        .map(|_| (random_value(rng, min, max), 1 + rng.below(counts)))
        .collect()
}

/// Every mode × storage × counter width of `DynHistogram` for `config`: a description for
/// messages and a maker of empty histograms of that kind. Sparse thread-local histograms do
/// not exist (their constructor refuses them) and are left out.
fn every_kind(config: Config) -> Vec<(String, impl Fn() -> DynHistogram)> {
    use picollo::concurrent::Storage;
    let modes = Mode::ALL;
    let storages = [Storage::Dense, Storage::Sparse];
    let widths = [CounterBits::U32, CounterBits::U64];
    let kinds = modes.iter().flat_map(|&m| storages.map(|s| (m, s)));
    let shape = config.validate().unwrap();
    let kinds = kinds.flat_map(|(m, s)| widths.map(|b| (m, s, b)));
    kinds
        .filter_map(|(mode, storage, bits)| {
            let make = move || DynHistogram::with_storage(shape, bits, mode, storage);
            match make() {
                Err(picollo::ConfigError::SparseThreadLocal) => None,
                made => {
                    made.unwrap();
                    let what = format!("{config:?} {mode:?} {storage:?} {bits:?}");
                    Some((what, move || make().unwrap()))
                }
            }
        })
        .collect()
}

#[test]
fn every_mode_storage_and_width_answers_as_a_plain_histogram() {
    let mut rng = SplitMix64(4477);
    for case in 0..40 {
        let config = random_config(&mut rng);
        let records = random_records(&mut rng, config, 3_000, 1_000);
        let mut plain: Histogram<u64, Vec<u64>> = config.build().unwrap();
        records.iter().for_each(|&(v, n)| plain.record_n(v, n));
        let ranks = random_ranks(&mut rng);
        let want = answers(&plain.view(), &ranks);
        for (what, make) in every_kind(config) {
            let h = make();
            records.iter().for_each(|&(v, n)| h.record_n(v, n));
            let got = h.with_view(|v| {
                let v = v.as_view();
                answers(&v, &ranks)
            });
            assert_eq!(got.unwrap(), want, "case {case} {what}");
        }
    }
}

/// A histogram of `layout` over a random range (that of `near`, the whole range, or one
/// shifted from it), holding random counts: mostly small, some beyond 2^32.
fn random_source(rng: &mut SplitMix64, near: Config) -> Histogram<u64, Vec<u64>> {
    let wide = Config::new().with_layout(near.layout());
    let config = match rng.below(3) {
        0 => near,
        1 if wide.storage_len() <= 1 << 20 => wide,
        _ => {
            let min = near.min_trackable() >> rng.below(8);
            let max = near.max_trackable().saturating_mul(1 + rng.below(4));
            let shifted = wide.with_range(min, max);
            if shifted.storage_len() <= 1 << 20 {
                shifted
            } else {
                near
            }
        }
    };
    let mut h: Histogram<u64, Vec<u64>> = config.build().unwrap();
    let (min, max) = (config.min_trackable(), config.max_trackable());
    for _ in 0..rng.below(2_000) {
        let n = if rng.below(50) == 0 {
            1 << 40
        } else {
            1 + rng.below(1_000)
        };
        h.record_n(random_value(rng, min, max), n);
    }
    h
}

#[test]
fn every_mode_adds_a_view_counter_by_counter_as_it_records_each_bucket() {
    let mut rng = SplitMix64(4478);
    for case in 0..40 {
        let config = random_config(&mut rng);
        let before = random_records(&mut rng, config, 500, 9);
        let source = random_source(&mut rng, config);
        let ranks = random_ranks(&mut rng);
        for (what, make) in every_kind(config) {
            let (merged, reference) = (make(), make());
            for h in [&merged, &reference] {
                before.iter().for_each(|&(v, n)| h.record_n(v, n));
            }
            merged.add_view(&source.view()).unwrap();
            for b in source.view().buckets_with_values() {
                reference.record_n(b.lower, b.count);
            }
            let look = |h: &DynHistogram| {
                h.with_view(|v| {
                    let v = v.as_view();
                    (answers(&v, &ranks), v.outside())
                })
            };
            let (merged, reference) = (look(&merged).unwrap(), look(&reference).unwrap());
            assert_eq!(merged, reference, "case {case} {what}");
        }
    }
}

/// `(mean, population stdev)` of the bucket midpoints, two passes in `f64`.
fn midpoint_moments<C: Counter>(h: &Histogram<C, Vec<C>>) -> (f64, f64) {
    let view = h.view();
    let buckets = || {
        view.buckets_with_values().map(|b| {
            let bucket = picollo::Bucket {
                lower: b.lower,
                highest: b.highest,
            };
            (bucket.midpoint() as f64, b.count as f64)
        })
    };
    let n: f64 = buckets().map(|(_, c)| c).sum();
    let mean = buckets().map(|(m, c)| m * c).sum::<f64>() / n;
    let m2: f64 = buckets().map(|(m, c)| c * (m - mean) * (m - mean)).sum();
    (mean, (m2 / n).sqrt())
}

fn check_summary<C: Counter>(h: &Histogram<C, Vec<C>>, what: &str) {
    let view = h.view();
    let mut s = picollo::Summary::default();
    view.summary_into(&mut s);
    for (p, &rank) in s.percentiles.iter().zip(&picollo::STANDARD_RANKS) {
        let empty = picollo::Percentile {
            rank,
            ..Default::default()
        };
        let alone = view.percentile(rank).unwrap_or(empty);
        assert_eq!(*p, alone, "{what}: P{rank}");
    }
    assert_eq!(s.total, view.total_count(), "{what}");
    let (mean, stdev) = midpoint_moments(h);
    if s.total == 0 {
        assert!(s.mean.is_nan() && s.stdev.is_nan(), "{what}");
        return;
    }
    let close = |a: f64, b: f64| (a - b).abs() <= 1e-9 * (mean.abs() + stdev);
    assert!(close(s.mean, mean), "{what}: mean {} vs {mean}", s.mean);
    assert!(
        close(s.stdev, stdev),
        "{what}: stdev {} vs {stdev}",
        s.stdev
    );
    assert_eq!((s.mean, s.stdev), view.moments(), "{what}");
}

#[test]
fn the_summary_has_each_ranks_own_percentile_and_the_midpoints_moments() {
    let mut rng = SplitMix64(0x5EED_0005);
    for round in 0..300 {
        let config = random_config(&mut rng);
        check_summary(
            &random_histogram::<u64>(&mut rng, config),
            &format!("u64 {round}"),
        );
        check_summary(
            &random_histogram::<u32>(&mut rng, config),
            &format!("u32 {round}"),
        );
        // One value, and one bucket holding everything (past 2^32 with u64 counters).
        let mut one: Histogram<u64, Vec<u64>> = config.build().unwrap();
        let v = random_value(&mut rng, config.min_trackable(), config.max_trackable());
        one.record(v);
        check_summary(&one, &format!("one value {round}"));
        one.record_n(v, random_count(&mut rng));
        check_summary(&one, &format!("one bucket {round}"));
    }
}
