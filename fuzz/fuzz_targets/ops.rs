//! Operation sequences (record, record_n, reset, add, snapshot, percentiles, summary) on a
//! few histograms of every kind (plain, and concurrent in each mode) and both counter
//! widths, checked after every step against a shadow model that counts exactly (`u128`).
//!
//! The invariants hold whatever a bucket's saturation ceiling is:
//! - underflow and overflow equal the model's (saturating at `u64::MAX`);
//! - no bucket holds more than the model put there, and between resets no count goes down
//!   (a snapshot's deltas are exact differences);
//! - buckets + underflow + overflow + saturated equals the number of recorded occurrences
//!   (both saturating at `u64::MAX`): what a full bucket refused is counted as saturated;
//! - percentiles are monotone in the rank, lie in the bucket they report (within its
//!   error), between the lowest and highest non-empty buckets, and agree with the summary.
//!
//! A single `record` adds one with wrap-around by design (the hot path is one plain add), so
//! it is used only where the model says the bucket cannot be full; elsewhere the step
//! becomes `record_n(v, 1)`. The approximate mode is exact below its threshold and in
//! `record_n`, so it is driven only there.
#![no_main]

mod common;

use arbitrary::Arbitrary;
use common::selection;
use libfuzzer_sys::fuzz_target;
use picollo::concurrent::{
    ApproxPolicy, ConcurrentHistogram, ConcurrentSnapshot, Mode, Source, XorShift64,
};
use picollo::{Config, Counter, Histogram, MergeError, QueryError, Snapshot, View, STANDARD_RANKS};

const MAX_OPS: usize = 96;
const PRECISIONS: [f64; 3] = [0.1, 0.05, 0.01];

#[derive(Arbitrary, Debug, Clone, Copy)]
enum Kind {
    Plain,
    SingleWriter,
    Interlocked,
    ThreadLocal,
    Approximate { threshold: u8 },
}

#[derive(Arbitrary, Debug)]
struct Spec {
    kind: Kind,
    wide: bool,
    precision: u8,
    min: u64,
    span: Span,
}

#[derive(Arbitrary, Debug)]
enum Span {
    Small(u16),
    Raw(u64),
    Full,
}

#[derive(Arbitrary, Debug, Clone, Copy)]
enum Value {
    /// A position inside the slot's range, in 1/65536ths.
    Inside(u16),
    Raw(u64),
    Edge(u8),
}

#[derive(Arbitrary, Debug, Clone, Copy)]
enum Count {
    Small(u8),
    Raw(u64),
    /// `u32::MAX` or `u64::MAX` minus a little.
    NearMax {
        wide: bool,
        minus: u8,
    },
}

#[derive(Arbitrary, Debug)]
enum Op {
    Record(u8, Value),
    RecordN(u8, Value, Count),
    Reset(u8),
    Add {
        dst: u8,
        src: u8,
    },
    Snapshot {
        slot: u8,
        deltas: bool,
    },
    Percentiles {
        slot: u8,
        selection: u8,
        ranks: Vec<u32>,
    },
    BadRanks {
        slot: u8,
        rank: f64,
    },
    Summary {
        slot: u8,
        selection: u8,
    },
}

#[derive(Arbitrary, Debug)]
struct Input {
    specs: [Spec; 3],
    ops: Vec<Op>,
}

/// One histogram under test.
enum H {
    P32(Histogram<u32, Vec<u32>>),
    P64(Histogram<u64, Vec<u64>>),
    C32(ConcurrentHistogram<u32>),
    C64(ConcurrentHistogram<u64>),
}

enum Snap {
    P32(Snapshot<u32, Vec<u32>>),
    P64(Snapshot<u64, Vec<u64>>),
    C32(ConcurrentSnapshot<u32>),
    C64(ConcurrentSnapshot<u64>),
}

/// Run `$e` with `$v` bound to a consistent `View` of the histogram.
macro_rules! with_view {
    ($h:expr, $v:ident => $e:expr) => {
        match $h {
            H::P32(h) => {
                let $v = h.view();
                $e
            }
            H::P64(h) => {
                let $v = h.view();
                $e
            }
            H::C32(h) => h.with_copy(|$v| $e),
            H::C64(h) => h.with_copy(|$v| $e),
        }
    };
}

/// What a view shows, widened.
#[derive(Clone, Debug, PartialEq)]
struct Obs {
    counts: Vec<u64>,
    outside: [u64; 3],
    resets: u64,
}

fn observe<C: Counter>(v: &View<'_, C>) -> Obs {
    Obs {
        counts: v.counts().iter().map(|c| c.to_u64()).collect(),
        outside: v.outside(),
        resets: v.reset_count(),
    }
}

fn clamp(v: u128) -> u64 {
    u64::try_from(v).unwrap_or(u64::MAX)
}

/// The exact shadow of one histogram.
struct Model {
    /// `(lower, highest)` of each storage bucket, read once at creation.
    bounds: Vec<(u64, u64)>,
    counts: Vec<u128>,
    under: u128,
    over: u128,
    /// Saturated counts that came in with merged histograms.
    saturated_in: u128,
    /// What the histogram showed after the previous step (counts only grow between resets).
    last: Option<Obs>,
}

enum Loc {
    Bucket(usize),
    Under,
    Over,
}

impl Model {
    fn locate(&self, v: u64) -> Loc {
        let i = self.bounds.partition_point(|&(_, hi)| hi < v);
        match self.bounds.get(i) {
            Some(&(lo, _)) if lo <= v => Loc::Bucket(i),
            Some(_) if i == 0 => Loc::Under,
            Some(_) => panic!("gap in the buckets before {v}"),
            None => Loc::Over,
        }
    }

    fn add(&mut self, v: u64, n: u128) {
        match self.locate(v) {
            Loc::Bucket(i) => self.counts[i] = self.counts[i].saturating_add(n),
            Loc::Under => self.under = self.under.saturating_add(n),
            Loc::Over => self.over = self.over.saturating_add(n),
        }
    }

    fn clear(&mut self) {
        self.counts.iter_mut().for_each(|c| *c = 0);
        (self.under, self.over, self.saturated_in) = (0, 0, 0);
    }

    fn recorded(&self) -> u128 {
        self.counts
            .iter()
            .fold(self.under, |a, &c| a.saturating_add(c))
            .saturating_add(self.over)
            .saturating_add(self.saturated_in)
    }

    fn nonempty(&self) -> Option<(usize, usize)> {
        let first = self.counts.iter().position(|&c| c > 0)?;
        let last = self.counts.iter().rposition(|&c| c > 0)?;
        Some((first, last))
    }
}

struct Slot {
    h: H,
    kind: Kind,
    /// Largest count a bucket of this counter width can hold.
    counter_max: u64,
    model: Model,
    /// The snapshot, the counts it was last taken from and the source's reset count then.
    snap: Option<(Snap, Obs, u64)>,
    rng: XorShift64,
}

impl Slot {
    fn new(spec: &Spec, seed: u64) -> Slot {
        let precision = PRECISIONS[usize::from(spec.precision) % PRECISIONS.len()];
        let min = spec.min;
        let max = match spec.span {
            Span::Small(s) => min.saturating_add(u64::from(s)),
            Span::Raw(s) => min.saturating_add(s),
            Span::Full => u64::MAX,
        };
        let config = Config::new()
            .with_relative_error(precision)
            .with_range(min, max);
        let mode = match spec.kind {
            Kind::Plain => None,
            Kind::SingleWriter => Some(Mode::SingleWriter),
            Kind::Interlocked => Some(Mode::Interlocked),
            Kind::ThreadLocal => Some(Mode::ThreadLocal),
            Kind::Approximate { threshold } => Some(Mode::Approximate(
                ApproxPolicy::new().with_threshold(u32::from(threshold % 20)),
            )),
        };
        let h = match (mode, spec.wide) {
            (None, false) => H::P32(config.build().unwrap()),
            (None, true) => H::P64(config.build().unwrap()),
            (Some(m), false) => H::C32(ConcurrentHistogram::new(config, m).unwrap()),
            (Some(m), true) => H::C64(ConcurrentHistogram::new(config, m).unwrap()),
        };
        let bounds: Vec<(u64, u64)> = with_view!(&h, v => (0..v.counts().len())
            .map(|i| {
                let b = v.bucket(i).unwrap();
                (b.lower, b.highest)
            })
            .collect());
        assert!(bounds[0].0 <= min && min <= bounds[0].1);
        assert!(bounds.last().unwrap().0 <= max && max <= bounds.last().unwrap().1);
        for w in bounds.windows(2) {
            assert!(w[0].0 <= w[0].1 && w[0].1.checked_add(1) == Some(w[1].0));
        }
        let len = bounds.len();
        Slot {
            h,
            kind: spec.kind,
            counter_max: if spec.wide {
                u64::MAX
            } else {
                u64::from(u32::MAX)
            },
            model: Model {
                bounds,
                counts: vec![0; len],
                under: 0,
                over: 0,
                saturated_in: 0,
                last: None,
            },
            snap: None,
            rng: XorShift64::new(seed),
        }
    }

    fn value(&self, v: Value) -> u64 {
        let (lo, hi) = (self.model.bounds[0].0, self.model.bounds.last().unwrap().1);
        match v {
            Value::Inside(x) => lo + ((u128::from(hi - lo) * u128::from(x)) >> 16) as u64,
            Value::Raw(x) => x,
            Value::Edge(k) => match k % 6 {
                0 => lo,
                1 => hi,
                2 => lo.wrapping_sub(1),
                3 => hi.wrapping_add(1),
                4 => 0,
                _ => u64::MAX,
            },
        }
    }

    fn record(&mut self, v: u64) {
        // A single record is exact while the bucket cannot be full (it wraps by design),
        // and in the approximate mode only below the threshold.
        let limit = match self.kind {
            Kind::Approximate { threshold } => {
                let t = u32::from(threshold % 20).max(1);
                (1u128 << t) - 1
            }
            _ => u128::from(self.counter_max),
        };
        let exact = match self.model.locate(v) {
            Loc::Bucket(i) => self.model.counts[i] < limit,
            // Out-of-range counts are 64-bit and saturate; one more never wraps them.
            _ => true,
        };
        if exact {
            match &mut self.h {
                H::P32(h) => h.record(v),
                H::P64(h) => h.record(v),
                H::C32(h) => h.record_with(v, &mut self.rng),
                H::C64(h) => h.record_with(v, &mut self.rng),
            }
        } else {
            self.record_n(v, 1);
            return;
        }
        self.model.add(v, 1);
    }

    fn record_n(&mut self, v: u64, n: u64) {
        match &mut self.h {
            H::P32(h) => h.record_n(v, n),
            H::P64(h) => h.record_n(v, n),
            H::C32(h) => h.record_n(v, n),
            H::C64(h) => h.record_n(v, n),
        }
        self.model.add(v, u128::from(n));
    }

    fn reset(&mut self) {
        match &mut self.h {
            H::P32(h) => h.reset(),
            H::P64(h) => h.reset(),
            H::C32(h) => h.reset(),
            H::C64(h) => h.reset(),
        }
        self.model.clear();
        self.model.last = None;
    }

    fn obs(&self) -> Obs {
        with_view!(&self.h, v => observe(&v))
    }

    /// Every invariant of the histogram's counts against the model.
    fn check(&mut self, what: &str) {
        let obs = self.obs();
        let m = &self.model;
        assert_eq!(obs.counts.len(), m.counts.len());
        assert_eq!(obs.outside[0], clamp(m.under), "{what}: underflow");
        assert_eq!(obs.outside[1], clamp(m.over), "{what}: overflow");
        let mut refused = m.saturated_in;
        for (i, (&o, &e)) in obs.counts.iter().zip(&m.counts).enumerate() {
            assert!(
                o <= self.counter_max,
                "{what}: bucket {i} above the counter's max"
            );
            assert!(
                u128::from(o) <= e,
                "{what}: bucket {i} holds {o} but only {e} were recorded there"
            );
            assert!(
                e == 0 || o > 0,
                "{what}: bucket {i} lost all of its {e} counts"
            );
            refused = refused.saturating_add(e - u128::from(o));
        }
        assert_eq!(obs.outside[2], clamp(refused), "{what}: saturated count");
        let shown = obs
            .counts
            .iter()
            .fold(0u128, |a, &c| a + u128::from(c))
            .saturating_add(obs.outside.iter().map(|&c| u128::from(c)).sum());
        assert_eq!(
            clamp(shown),
            clamp(m.recorded()),
            "{what}: buckets + outside counts differ from what was recorded"
        );
        if let Some(last) = &m.last {
            if last.resets == obs.resets {
                for (i, (&a, &b)) in last.counts.iter().zip(&obs.counts).enumerate() {
                    assert!(b >= a, "{what}: bucket {i} went down from {a} to {b}");
                }
                for k in 0..3 {
                    assert!(
                        obs.outside[k] >= last.outside[k],
                        "{what}: outside[{k}] went down"
                    );
                }
            }
        }
        self.model.last = Some(obs);
    }

    fn snapshot(&mut self, deltas: bool) {
        // A snapshot keeps its own reset count; compare the counts only.
        let now = Obs {
            resets: 0,
            ..self.obs()
        };
        let source_resets = self.obs().resets;
        match self.snap.take() {
            None => {
                let snap = match &self.h {
                    H::P32(h) => Snap::P32(Snapshot::new(&h.view())),
                    H::P64(h) => Snap::P64(Snapshot::new(&h.view())),
                    H::C32(h) => Snap::C32(ConcurrentSnapshot::new(h).unwrap()),
                    H::C64(h) => Snap::C64(ConcurrentSnapshot::new(h).unwrap()),
                };
                assert_eq!(
                    snap_obs(&snap),
                    now,
                    "a new snapshot differs from its source"
                );
                self.snap = Some((snap, now, source_resets));
            }
            Some((mut snap, prev, prev_resets)) => {
                match (&mut snap, &self.h) {
                    (Snap::P32(s), H::P32(h)) => s.update(&h.view(), deltas).unwrap(),
                    (Snap::P64(s), H::P64(h)) => s.update(&h.view(), deltas).unwrap(),
                    (Snap::C32(s), H::C32(h)) => s.update(h, deltas).unwrap(),
                    (Snap::C64(s), H::C64(h)) => s.update(h, deltas).unwrap(),
                    _ => unreachable!(),
                }
                let mut expected = now.clone();
                if deltas && prev_resets == source_resets {
                    for (e, p) in expected.counts.iter_mut().zip(&prev.counts) {
                        *e = e
                            .checked_sub(*p)
                            .expect("a count went down between snapshots");
                    }
                    for (e, p) in expected.outside.iter_mut().zip(&prev.outside) {
                        *e = e.checked_sub(*p).expect("an outside count went down");
                    }
                }
                assert_eq!(snap_obs(&snap), expected, "snapshot (deltas: {deltas})");
                self.snap = Some((snap, now, source_resets));
            }
        }
    }
}

fn snap_obs(s: &Snap) -> Obs {
    let mut o = match s {
        Snap::P32(s) => observe(&s.view()),
        Snap::P64(s) => observe(&s.view()),
        Snap::C32(s) => observe(&s.view()),
        Snap::C64(s) => observe(&s.view()),
    };
    o.resets = 0;
    o
}

/// Percentiles at `ranks` (valid, strictly increasing) against the model's bounds.
fn check_percentiles<C: Counter>(view: &View<'_, C>, model: &Model, ranks: &[f64]) {
    let mut out = vec![picollo::Percentile::default(); ranks.len()];
    let result = view.percentiles(ranks, &mut out);
    let total = view.total_count();
    let Some((first, last)) = model.nonempty() else {
        assert_eq!(total, 0);
        if !ranks.is_empty() {
            assert_eq!(result, Err(QueryError::Empty));
            assert_eq!(view.percentile(ranks[0]), Err(QueryError::Empty));
        }
        return;
    };
    result.unwrap();
    let (lo, hi) = (model.bounds[first].0, model.bounds[last].1);
    let mut prev: Option<picollo::Percentile> = None;
    for (p, &rank) in out.iter().zip(ranks) {
        assert_eq!(p.rank, rank);
        assert!(
            p.lower <= p.value && p.value <= p.highest,
            "{p:?} outside its bucket"
        );
        assert!(p.value - p.lower <= p.plus_minus && p.highest - p.value <= p.plus_minus);
        assert!(
            lo <= p.lower && p.highest <= hi,
            "{p:?} outside [{lo}, {hi}]"
        );
        let i = p.storage_index as usize;
        assert_eq!((p.lower, p.highest), model.bounds[i]);
        assert!(p.count > 0 && p.count == view.counts()[i].to_u64());
        assert!(p.rank_count >= 1 && p.rank_count <= p.cumulative_count);
        assert!(
            p.cumulative_count - p.count < p.rank_count,
            "{p:?}: not the first bucket"
        );
        assert!(p.cumulative_count <= total);
        if let Some(q) = prev {
            assert!(
                q.value <= p.value,
                "percentiles not monotone: {q:?} then {p:?}"
            );
            assert!(q.rank_count <= p.rank_count && q.cumulative_count <= p.cumulative_count);
        }
        assert_eq!(view.percentile(rank).unwrap(), *p);
        prev = Some(*p);
    }
}

fn check_summary<C: Counter>(view: &View<'_, C>, model: &Model) {
    let s = view.summary();
    assert_eq!(s.total, view.total_count());
    assert_eq!([s.underflow, s.overflow, s.saturated], view.outside());
    assert_eq!((s.min_trackable, s.max_trackable), view.range());
    match model.nonempty() {
        None => {
            assert!(s.mean.is_nan() && s.stdev.is_nan());
            assert!(s.percentiles.iter().all(|p| p.count == 0 && p.value == 0));
        }
        Some((first, last)) => {
            let mut expected = [picollo::Percentile::default(); 16];
            view.percentiles(&STANDARD_RANKS, &mut expected).unwrap();
            assert_eq!(s.percentiles, expected);
            let (lo, hi) = (model.bounds[first].0 as f64, model.bounds[last].1 as f64);
            let slack = 1e-9 * hi.max(1.0);
            assert!(
                s.mean >= lo - slack && s.mean <= hi + slack,
                "mean {} not in [{lo}, {hi}]",
                s.mean
            );
            assert!(
                s.stdev >= 0.0 && s.stdev <= (hi - lo) + slack,
                "stdev {}",
                s.stdev
            );
        }
    }
}

fuzz_target!(|input: Input| {
    let mut slots: Vec<Slot> = input
        .specs
        .iter()
        .enumerate()
        .map(|(k, s)| Slot::new(s, k as u64 + 1))
        .collect();
    let n = slots.len();
    for (step, op) in input.ops.iter().take(MAX_OPS).enumerate() {
        let what = format!("step {step}: {op:?}");
        match *op {
            Op::Record(s, v) => {
                let slot = &mut slots[usize::from(s) % n];
                let v = slot.value(v);
                slot.record(v);
                slot.check(&what);
            }
            Op::RecordN(s, v, c) => {
                let slot = &mut slots[usize::from(s) % n];
                let v = slot.value(v);
                let count = match c {
                    Count::Small(k) => u64::from(k),
                    Count::Raw(k) => k,
                    Count::NearMax { wide: false, minus } => u64::from(u32::MAX - u32::from(minus)),
                    Count::NearMax { wide: true, minus } => u64::MAX - u64::from(minus),
                };
                slot.record_n(v, count);
                slot.check(&what);
            }
            Op::Reset(s) => {
                let slot = &mut slots[usize::from(s) % n];
                slot.reset();
                slot.check(&what);
            }
            Op::Add { dst, src } => {
                let (d, s) = (usize::from(dst) % n, usize::from(src) % n);
                // The source as the destination's model will see it: its counts at its
                // buckets' lower bounds, and its outside counts.
                let src_obs = slots[s].obs();
                let src_bounds = slots[s].model.bounds.clone();
                let before = slots[d].obs();
                let same_layout = with_view!(&slots[s].h, sv => {
                    with_view!(&slots[d].h, dv => sv.layout() == dv.layout())
                });
                let result = if d == s {
                    match &mut slots[d].h {
                        H::P32(h) => {
                            let copy = h.clone();
                            h.add(&copy.view())
                        }
                        H::P64(h) => {
                            let copy = h.clone();
                            h.add(&copy.view())
                        }
                        H::C32(h) => h.with_copy(|v| h.add(&v)),
                        H::C64(h) => h.with_copy(|v| h.add(&v)),
                    }
                } else {
                    let (a, b) = if d < s {
                        let (x, y) = slots.split_at_mut(s);
                        (&mut x[d], &y[0])
                    } else {
                        let (x, y) = slots.split_at_mut(d);
                        (&mut y[0], &x[s])
                    };
                    with_view!(&b.h, v => match &mut a.h {
                        H::P32(h) => h.add(&v),
                        H::P64(h) => h.add(&v),
                        H::C32(h) => h.add(&v),
                        H::C64(h) => h.add(&v),
                    })
                };
                let slot = &mut slots[d];
                if same_layout {
                    result.unwrap();
                    for (&c, &(lower, _)) in src_obs.counts.iter().zip(&src_bounds) {
                        if c != 0 {
                            slot.model.add(lower, u128::from(c));
                        }
                    }
                    let m = &mut slot.model;
                    m.under = m.under.saturating_add(u128::from(src_obs.outside[0]));
                    m.over = m.over.saturating_add(u128::from(src_obs.outside[1]));
                    m.saturated_in = m
                        .saturated_in
                        .saturating_add(u128::from(src_obs.outside[2]));
                } else {
                    assert!(matches!(result, Err(MergeError::LayoutMismatch { .. })));
                    assert_eq!(slot.obs(), before, "a refused merge changed the histogram");
                }
                slot.check(&what);
            }
            Op::Snapshot { slot, deltas } => {
                let slot = &mut slots[usize::from(slot) % n];
                slot.snapshot(deltas);
            }
            Op::Percentiles {
                slot,
                selection: sel,
                ref ranks,
            } => {
                let slot = &slots[usize::from(slot) % n];
                let mut ranks: Vec<f64> = ranks
                    .iter()
                    .take(32)
                    .map(|&r| f64::from(r % 100_000_001) / 1e6)
                    .collect();
                ranks.sort_by(f64::total_cmp);
                ranks.dedup();
                with_view!(&slot.h, v => check_percentiles(
                    &v.with_value_selection(selection(sel)),
                    &slot.model,
                    &ranks
                ));
            }
            Op::BadRanks { slot, rank } => {
                let slot = &slots[usize::from(slot) % n];
                with_view!(&slot.h, v => {
                    if !(0.0..=100.0).contains(&rank) {
                        assert!(matches!(v.percentile(rank), Err(QueryError::RankOutOfRange(_))));
                    }
                    let mut out = [picollo::Percentile::default(); 2];
                    let r = v.percentiles(&[50.0, 50.0], &mut out);
                    assert!(matches!(r, Err(QueryError::RanksNotIncreasing { position: 1 })));
                    let r = v.percentiles(&[50.0], &mut out);
                    assert!(matches!(r, Err(QueryError::OutputLength { .. })));
                });
            }
            Op::Summary {
                slot,
                selection: sel,
            } => {
                let slot = &slots[usize::from(slot) % n];
                with_view!(&slot.h, v => check_summary(
                    &v.with_value_selection(selection(sel)),
                    &slot.model
                ));
            }
        }
    }
});
