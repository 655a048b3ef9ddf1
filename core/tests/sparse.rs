//! Sparse storage of the integer histogram: blocks made on first touch hold exactly what
//! dense cells hold, in every mode that offers it (single writer, interlocked,
//! approximate), through records, reads in place and by copy, resets, collects, merges and
//! subtraction; threads racing to make a block lose nothing; memory follows the data.
#![cfg(not(loom))]

mod common;

use common::SplitMix64;
use picollo::concurrent::{
    ApproxPolicy, Collect, ConcurrentHistogram, CounterBits, DirectKind, DynHistogram, Mode,
    Shaped, Source, Storage,
};
use picollo::{Config, ConfigError, Histogram, Slot};

/// Latency-like values: a log-normal-ish body around 50 µs in ns, a tail to seconds, some
/// values outside a narrow range's bounds.
fn latencies(n: usize, seed: u64) -> Vec<u64> {
    let mut rng = SplitMix64(seed);
    (0..n)
        .map(|_| {
            let octave = 12 + rng.below(8) + rng.below(4) * rng.below(2) * 3;
            (1u64 << octave) + rng.below(1 << octave)
        })
        .collect()
}

fn modes() -> [Mode; 3] {
    [
        Mode::SingleWriter,
        Mode::Interlocked,
        // Exact below 2^40 per bucket: the comparison with dense cells is exact.
        Mode::Approximate(ApproxPolicy::new().with_threshold(40)),
    ]
}

fn copy<S: Source<u64>>(h: &S) -> Histogram<u64, Vec<u64>> {
    h.try_with_copy(|v| {
        let mut out: Histogram<u64, Vec<u64>> = v.shape().config().build().unwrap();
        out.add(&v).unwrap();
        out
    })
    .unwrap()
}

/// A dense histogram of `config` holding `values`: what sparse cells must hold.
fn dense_of<'a>(
    config: Config,
    values: impl IntoIterator<Item = &'a u64>,
) -> Histogram<u64, Vec<u64>> {
    let mut h: Histogram<u64, Vec<u64>> = config.build().unwrap();
    for &v in values {
        h.record(v);
    }
    h
}

#[test]
fn sparse_cells_hold_what_dense_cells_hold_in_every_mode() {
    let config = Config::new().with_relative_error(0.0001);
    let values = latencies(50_000, 3);
    for mode in modes() {
        let shape = config.validate().unwrap();
        let dense = ConcurrentHistogram::<u64>::with_storage(shape, mode, Storage::Dense).unwrap();
        let sparse =
            ConcurrentHistogram::<u64>::with_storage(shape, mode, Storage::Sparse).unwrap();
        assert_eq!(
            (dense.storage(), sparse.storage()),
            (Storage::Dense, Storage::Sparse)
        );
        assert_eq!(sparse.mode(), mode);
        let before = sparse.footprint_in_bytes();
        for &v in &values {
            dense.record(v);
            sparse.record(v);
        }
        dense.record_n(u64::MAX, 3);
        sparse.record_n(u64::MAX, 3);
        let (d, s) = (copy(&dense), copy(&sparse));
        assert_eq!(d.view().counts(), s.view().counts(), "{mode:?}");
        assert_eq!(d.view().summary(), s.view().summary());
        assert_eq!(sparse.total_count(), values.len() as u64 + 3);
        // Reads in place agree with the copy.
        let in_place = sparse.query_in_place(|v| v.summary()).unwrap();
        assert_eq!(in_place, s.view().summary());
        // Memory: the blocks the data touched (about 12 octaves of 64 KiB at 0.01 %,
        // 32 KiB blocks) and the small directory; dense is the whole range.
        let footprint = sparse.footprint_in_bytes();
        assert!(before < 4096, "directory {before}");
        assert!(
            footprint * 3 < dense.footprint_in_bytes(),
            "{footprint} vs {}",
            dense.footprint_in_bytes()
        );
        // Reset keeps the blocks and clears them; collect takes exactly what was there.
        sparse.reset();
        assert_eq!(sparse.total_count(), 0);
        assert_eq!(sparse.footprint_in_bytes(), footprint);
        for &v in &values[..1000] {
            sparse.record(v);
        }
        let interval = sparse.try_collect().unwrap();
        assert_eq!(interval.view().total_count(), 1000);
        assert_eq!(sparse.total_count(), 0);
    }
}

#[test]
fn merges_subtraction_and_outside_counts() {
    let values = latencies(20_000, 9);
    let config = Config::new()
        .with_relative_error(0.001)
        .with_range(1_000, 1_000_000_000);
    let expected = dense_of(config, &values);
    let shape = config.validate().unwrap();
    let sparse =
        ConcurrentHistogram::<u32>::with_storage(shape, Mode::SingleWriter, Storage::Sparse)
            .unwrap();
    sparse.add(&expected.view()).unwrap();
    sparse.record(5); // underflow
    sparse.record(u64::MAX); // overflow
    let got = sparse
        .try_with_copy(|v| (v.outside(), v.total_count()))
        .unwrap();
    assert_eq!(got.0[..2], [1, 1]);
    assert_eq!(got.1, expected.view().total_count());
    // Subtracting everything leaves zeros; subtracting more is refused, changing nothing.
    sparse.subtract(&expected.view()).unwrap();
    assert_eq!(sparse.total_count(), 0);
    assert!(sparse.subtract(&expected.view()).is_err());
    assert_eq!(sparse.total_count(), 0);
}

#[test]
fn threads_racing_for_blocks_lose_nothing() {
    let config = Config::new().with_relative_error(0.001);
    let shape = config.validate().unwrap();
    for mode in [
        Mode::Interlocked,
        Mode::Approximate(ApproxPolicy::new().with_threshold(40)),
    ] {
        let sparse =
            ConcurrentHistogram::<u64>::with_storage(shape, mode, Storage::Sparse).unwrap();
        let per_thread: Vec<Vec<u64>> = (0..4).map(|t| latencies(20_000, 100 + t)).collect();
        let expected = dense_of(config, per_thread.iter().flatten());
        std::thread::scope(|s| {
            for values in &per_thread {
                let sparse = &sparse;
                s.spawn(move || values.iter().for_each(|&v| sparse.record(v)));
            }
        });
        assert_eq!(
            copy(&sparse).view().counts(),
            expected.view().counts(),
            "{mode:?}"
        );
    }
}

#[test]
fn the_thread_local_mode_refuses_sparse_storage() {
    let shape = Config::new().validate().unwrap();
    let err = ConcurrentHistogram::<u64>::with_storage(shape, Mode::ThreadLocal, Storage::Sparse)
        .unwrap_err();
    assert_eq!(err, ConfigError::SparseThreadLocal);
    assert!(err.to_string().contains("thread-local"));
}

#[test]
fn a_dyn_histogram_over_sparse_cells_records_through_every_path() {
    let shape = Config::new().with_relative_error(0.01).validate().unwrap();
    let values = latencies(10_000, 5);
    for bits in [CounterBits::U32, CounterBits::U64] {
        for mode in modes() {
            let h = DynHistogram::with_storage(shape, bits, mode, Storage::Sparse).unwrap();
            assert_eq!(h.storage(), Storage::Sparse);
            // No cell array for code outside Rust: every inline record calls.
            assert_eq!(h.direct_path().kind, DirectKind::Call);
            let f = h.record_fn();
            for &v in &values {
                h.record(v);
                // SAFETY: `f` came from `h`.
                unsafe { f(&h, v) };
                h.record_n(v, 1);
            }
            let total = h.with_view(|v| v.as_view().total_count()).unwrap();
            assert_eq!(total, 3 * values.len() as u64, "{bits:?} {mode:?}");
            let dense = DynHistogram::with_storage(shape, bits, mode, Storage::Dense).unwrap();
            for &v in &values {
                dense.record_n(v, 3);
            }
            let summary = |h: &DynHistogram| h.with_view(|v| v.as_view().summary()).unwrap();
            assert_eq!(summary(&h), summary(&dense));
        }
    }
}

#[test]
fn sparse_cells_made_for_another_range_are_refused_and_never_reach_outside_themselves() {
    use picollo::concurrent::{AtomicHistogram, CellStore, SharedHistogram, SparseCells};
    // Two ranges with as many buckets, starting at different buckets.
    let a = Config::new().with_relative_error(0.1).with_range(1, 100);
    let b = Config::new()
        .with_relative_error(0.1)
        .with_range(2_048, 45_056);
    let (sa, sb) = (a.validate().unwrap(), b.validate().unwrap());
    assert_eq!(sa.len(), sb.len());
    assert_ne!(sa.first_index(), sb.first_index());
    let refused = SharedHistogram::<u64, _>::from_shape(sb, SparseCells::new(sa).unwrap());
    assert!(matches!(
        refused.err(),
        Some(ConfigError::StorageFirstIndex { expected, actual })
            if expected == sb.first_index() && actual == sa.first_index()
    ));
    let refused = AtomicHistogram::<u32, _>::from_shape(sb, SparseCells::new(sa).unwrap());
    assert!(refused.is_err());
    assert!(SharedHistogram::<u64, _>::from_shape(sa, SparseCells::new(sa).unwrap()).is_ok());

    // Called directly with an index outside the cells and a lying offset: nothing.
    let cells = SparseCells::<u64>::new(sa).unwrap();
    let lying = |index, offset| Slot { index, offset };
    for index in [0, sa.first_index() + sa.len(), 1 << 40, usize::MAX] {
        assert!(CellStore::<u64>::existing_slot(&cells, lying(index, 0)).is_none());
        assert!(CellStore::<u64>::get_or_make_slot(&cells, lying(index, 0)).is_none());
    }
    let inside = sa.first_index() + 3;
    assert!(CellStore::<u64>::get_or_make_slot(&cells, lying(inside, usize::MAX)).is_some());
    assert!(CellStore::<u64>::existing_slot(&cells, lying(inside, usize::MAX)).is_some());
}

/// Per bound `(lo, hi)`: the count between them, the rank of `hi` and the total.
fn sums_at<K: picollo::counter::Counts<u64> + ?Sized>(
    v: &picollo::View<'_, u64, K>,
    bounds: &[(u64, u64)],
) -> Vec<(u64, u64, u64)> {
    let at = |&(lo, hi): &(u64, u64)| {
        let rank = v.rank_of(hi) as u64;
        (v.count_between(lo, hi).unwrap(), rank, v.total_count())
    };
    bounds.iter().map(at).collect()
}

/// The sums a query takes in place (totals, ranks, counts between two values) read only the
/// blocks made so far, and agree with the dense copy at random bounds, inside and across
/// blocks, in the blocks never touched and past the range's ends.
#[test]
fn sums_in_place_agree_with_the_dense_copy_at_random_bounds() {
    let config = Config::new()
        .with_relative_error(0.001)
        .with_range(1_000, 1 << 40);
    let values = latencies(20_000, 17);
    let expected = dense_of(config, &values);
    let shape = config.validate().unwrap();
    let mut rng = SplitMix64(23);
    let bounds: Vec<(u64, u64)> = (0..2_000)
        .map(|_| {
            let octave = 10 + rng.below(32);
            let (a, b) = (rng.below(1 << octave), rng.below(1 << 42));
            (a.min(b), a.max(b))
        })
        .collect();
    let dense = sums_at(&expected.view(), &bounds);
    assert!(dense.iter().any(|a| a.0 != 0) && dense.iter().any(|a| a.0 == 0));
    for mode in modes() {
        let sparse =
            ConcurrentHistogram::<u64>::with_storage(shape, mode, Storage::Sparse).unwrap();
        values.iter().for_each(|&v| sparse.record(v));
        let in_place = sparse.query_in_place(|v| sums_at(&v, &bounds));
        assert_eq!(in_place.as_ref(), Some(&dense), "{mode:?}");
    }
}
