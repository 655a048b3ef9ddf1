//! `FloatHistogram`: the floating-point histogram, recording and the state queries read.

use super::cells::Cells;
use super::config::{FloatConfig, FloatShape, Writers};
use super::octaves::CHUNK;
use super::sum::{WideSum, DOWN};
use crate::batch::float::{Gates, Tickets};
use crate::batch::BatchPath;
use crate::concurrent::{
    add_n_atomic, add_n_plain, increment_atomic, increment_plain, settle, AtomicCounter, Cell64,
    Mode, Version,
};
use crate::config::{ConfigError, ValueSelection};
use batch::{Gated, Shared, Side};

mod batch;

/// Indices of the counts kept beside the buckets.
pub(crate) const ZERO: usize = 0;
pub(crate) const NAN: usize = 1;
pub(crate) const POS_INF: usize = 2;
pub(crate) const NEG_INF: usize = 3;
pub(crate) const UNDER: usize = 4;
pub(crate) const OVER: usize = 5;
pub(crate) const SAT: usize = 6;
pub(crate) const SPECIALS: usize = 7;

/// Stripes of the interlocked mode's running sum: each thread adds into the stripe its
/// stack address picks, so writers rarely share one.
pub(crate) const STRIPES: usize = 16;

const SIGN: u64 = 1 << 63;

/// A histogram of doubles, negative and positive: signed values with a zero bucket and the
/// integer layout's relative error mirrored on both sides of it.
///
/// - Buckets: a nonzero finite value whose magnitude lies in the configured range (to
///   bucket resolution) lands in a bucket of its sign; the reported value of a bucket
///   (its midpoint by default) is within the relative error of every value in it, so a
///   reported quantile `Y'` of a true quantile `Y` satisfies `Y(1−E) ≤ Y' ≤ Y(1+E)`
///   (`|Y'|` within `E·|Y|`; `E` the layout's [`FloatLayout::relative_error`], at most the
///   requested one). Subnormals keep that guarantee.
/// - Zero (`+0.0` and `−0.0`) has a bucket of its own, reported as exactly 0.
/// - NaN, `+∞` and `−∞` are counted apart and never enter quantiles; nonzero magnitudes
///   below or above the range count as underflow and overflow, also outside quantiles.
/// - Exact extremes and sum: the smallest and largest values in buckets (zero included)
///   are kept exactly. In the single-writer mode their sum is exact, rounded once when
///   read: per sign and binary exponent an integer sum of significands (see
///   `octaves.rs`), which no cancellation or magnitude spread degrades. In the interlocked
///   mode it is a plain running sum per stripe (a rounding per record; a batch adds each
///   part of its values' own sum once, so it may differ in its last bits from the records'
///   of the same values). Merged sums add as doubles. The sum reads `±∞` only when the true sum is beyond `f64::MAX`: what would
///   overflow moves aside, scaled by `2^-256`. The mean is that sum over the count; the standard deviation is
///   taken over bucket midpoints around that mean (scaled by a power of two, so neither
///   huge nor tiny magnitudes overflow or vanish).
/// - Storage dense or sparse ([`super::Storage`]); mode single writer or interlocked
///   ([`Mode::SingleWriter`], [`Mode::Interlocked`]): every method takes `&self`. In the single-writer mode one thread
///   records at a time; queries run on any thread meanwhile. Queries read the counters in
///   place and never mix counts from before and after a reset (they run again). A
///   thread-local or approximate mode is not offered: the exact sum and extremes this
///   histogram promises would need every shard's to be merged at each read, and the
///   approximate counter's estimates would not agree with an exact sum.
///
/// `f32` values record through [`FloatHistogram::record_f32`] (exact conversion).
///
/// Beside the modes above, what the integer histogram has and this one does not:
/// HdrHistogram V2 blobs, interval logs and `.hgrm` (formats of integers), `collect`,
/// OpenMetrics and OTLP export, and linear and logarithmic steps. Summaries, tables,
/// diffs, snapshots with deltas ([`super::FloatCounts::delta`]), merges
/// ([`FloatHistogram::add`], [`FloatHistogram::add_rebinned`],
/// [`FloatHistogram::downsample`]), queries by value (including
/// [`FloatShape::equivalent_range`]) and both storages match it.
///
/// [`FloatLayout::relative_error`]: super::FloatLayout::relative_error
pub struct FloatHistogram<C: AtomicCounter = u64> {
    pub(crate) shape: FloatShape,
    pub(crate) pos: Cells<C>,
    pub(crate) neg: Cells<C>,
    pub(crate) specials: [Cell64; SPECIALS],
    pub(crate) stats: Stats,
    pub(crate) version: Version,
    /// What the single writer's record reads, per sign (positive, negative).
    hot: [Hot<C>; 2],
    /// The value selection queries use now (index into [`SELECTIONS`]).
    selection: core::sync::atomic::AtomicU8,
}

const SELECTIONS: [ValueSelection; 4] = [
    ValueSelection::Midpoint,
    ValueSelection::Lower,
    ValueSelection::Upper,
    ValueSelection::Interpolated,
];

/// Per sign, what the single writer's record reads: the magnitudes it takes whole, and
/// where their counts and sums are. A cache line each (64-byte aligned and sized), so the
/// record finds its sign's with one shift.
#[repr(align(64))]
struct Hot<C: AtomicCounter> {
    /// Magnitudes (bits) `gate_lo..=gate_hi`: normal, in the range, and not a new extreme,
    /// so the record need not look at the range or the extremes (see
    /// [`FloatHistogram::set_gates`]). None (`u64::MAX`, 0) until a value lands. Each bound
    /// is either within the range's normal magnitudes or that empty one, so a record that
    /// reads one bound before a change and the other after (a merge or reset on another
    /// thread) still takes only magnitudes of the range.
    gate_lo: Cell64,
    gate_hi: Cell64,
    /// Where the sign's counts and sums are.
    side: Side<C>,
}

impl<C: AtomicCounter> Hot<C> {
    fn new(cells: &Cells<C>, shape: FloatShape) -> Self {
        Hot {
            gate_lo: u64::new_cell(u64::MAX),
            gate_hi: u64::new_cell(0),
            side: Side::new(cells, shape),
        }
    }
}

/// The running sums beside the exact ones and the extremes, as bits of doubles in atomic
/// cells.
pub(crate) struct Stats {
    /// The interlocked mode's plain sum per stripe (each on its own cache line), and what
    /// merges add (stripe 0); the single writer's records add to the exact sums of
    /// [`Cells`] instead.
    pub(crate) sum: [Padded; STRIPES],
    /// What the stripes could not hold without overflowing, scaled by `2^-256` (see
    /// [`super::sum`]).
    pub(crate) big: Cell64,
    /// `+∞` and `−∞` until a value lands.
    pub(crate) min: Cell64,
    pub(crate) max: Cell64,
}

#[repr(align(64))]
pub(crate) struct Padded(pub(crate) Cell64);

impl Stats {
    fn new() -> Self {
        Stats {
            sum: core::array::from_fn(|_| Padded(u64::new_cell(0f64.to_bits()))),
            big: u64::new_cell(0f64.to_bits()),
            min: u64::new_cell(f64::INFINITY.to_bits()),
            max: u64::new_cell(f64::NEG_INFINITY.to_bits()),
        }
    }

    fn clear(&self) {
        for c in self.sum.iter().map(|s| &s.0).chain([&self.big]) {
            u64::store(c, 0f64.to_bits());
        }
        u64::store(&self.min, f64::INFINITY.to_bits());
        u64::store(&self.max, f64::NEG_INFINITY.to_bits());
    }
}

impl<C: AtomicCounter> core::fmt::Debug for FloatHistogram<C> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("FloatHistogram")
            .field("config", &self.shape.config())
            .finish_non_exhaustive()
    }
}

impl<C: AtomicCounter> FloatHistogram<C> {
    /// A histogram for `config` (heap storage: dense counters allocated now, sparse ones
    /// as values arrive).
    pub fn new(config: FloatConfig) -> Result<Self, ConfigError> {
        Self::with_shape(config.validate()?)
    }

    /// A histogram of a checked shape.
    pub fn with_shape(shape: FloatShape) -> Result<Self, ConfigError> {
        crate::concurrent::fork_init();
        let selection = SELECTIONS
            .iter()
            .position(|&s| s == shape.config().value_selection())
            .unwrap_or(0) as u8;
        let (pos, neg) = (Cells::new(shape)?, Cells::new(shape)?);
        // The cells' heap storage stays where it is when they move into the histogram.
        let hot = [Hot::new(&pos, shape), Hot::new(&neg, shape)];
        Ok(FloatHistogram {
            shape,
            pos,
            neg,
            specials: core::array::from_fn(|_| u64::new_cell(0)),
            stats: Stats::new(),
            version: Version::new(),
            hot,
            selection: core::sync::atomic::AtomicU8::new(selection),
        })
    }

    /// The checked shape.
    pub fn shape(&self) -> FloatShape {
        self.shape
    }

    /// The mode: [`Mode::SingleWriter`] or [`Mode::Interlocked`].
    pub fn mode(&self) -> Mode {
        self.shape.config().mode()
    }

    /// The value selection queries use.
    pub fn value_selection(&self) -> ValueSelection {
        SELECTIONS[usize::from(self.selection.load(core::sync::atomic::Ordering::Relaxed)) % 4]
    }

    /// Change the value selection (any thread; a query already running keeps its own).
    pub fn set_value_selection(&self, selection: ValueSelection) {
        let index = SELECTIONS.iter().position(|&s| s == selection).unwrap_or(0) as u8;
        self.selection
            .store(index, core::sync::atomic::Ordering::Relaxed);
    }

    /// Bytes of counters allocated now (both signs; sparse: the blocks touched and the
    /// block directory), and of the single writer's exact sums (16 bytes per sign and
    /// exponent: every exponent of the range when dense, chunks of 64 touched when sparse).
    pub fn footprint_in_bytes(&self) -> usize {
        self.pos.footprint() + self.neg.footprint()
    }

    /// Count one occurrence of `x` (see the type's docs for where it lands).
    #[inline]
    pub fn record(&self, x: f64) {
        // The interlocked mode's gates stay empty: its records take the general path.
        self.record_single(x)
    }

    /// The single-writer record: a magnitude inside its sign's gate (normal, in range, not
    /// a new extreme), its cell made and not full: a load and a store of the count, one
    /// add to the exact sum; anything else on the general path (nothing changed before).
    #[inline(always)]
    fn record_single(&self, x: f64) {
        let bits = x.to_bits();
        let magnitude = bits & !SIGN;
        let hot = &self.hot[(bits >> 63) as usize];
        let gated = magnitude >= u64::load(&hot.gate_lo) && magnitude <= u64::load(&hot.gate_hi);
        // SAFETY: `x`'s magnitude is in its sign's gate (just read).
        if !(gated && unsafe { self.record_gated(x) }) {
            self.record_general(x);
        }
    }

    /// The single writer's common path for `x`, whose magnitude lay in its sign's gate
    /// (now or at any earlier moment: a gate only ever holds normal magnitudes of the
    /// range): true when counted, false (nothing changed) for the general path.
    ///
    /// # Safety
    /// `x`'s magnitude was in its sign's gate.
    #[inline(always)]
    unsafe fn record_gated(&self, x: f64) -> bool {
        let bits = x.to_bits();
        let side = &self.hot[(bits >> 63) as usize].side;
        let key = self.shape.shifted_normal(bits & !SIGN);
        let mask = self.shape.normal_mask();
        // SAFETY: the magnitude was in its sign's gate (this function's contract); the
        // mask is the shape's.
        unsafe { side.add::<false>(bits, key, mask, side.dense.is_null()) }
    }

    /// Any record, in either mode: special values, full buckets, unallocatable blocks.
    #[inline(never)]
    fn record_general(&self, x: f64) {
        match self.bucket_cell(x) {
            Some(Some(cell)) => {
                if self.count(cell) {
                    self.track(x, 1);
                }
            }
            Some(None) => self.add_special(SAT, 1),
            None => self.record_special(x, 1),
        }
    }

    /// The cells of a sign: `pos` for a value whose sign bit is clear, `neg` otherwise.
    fn cells_of(&self, bits: u64) -> &Cells<C> {
        if bits & SIGN == 0 {
            &self.pos
        } else {
            &self.neg
        }
    }

    /// The cell of `x`'s bucket, made if need be: `None` when `x` has no bucket (NaN, ±∞,
    /// zero, outside the range), `Some(None)` when the block of its cell could not be made.
    fn bucket_cell(&self, x: f64) -> Option<Option<&C::Atomic>> {
        let bits = x.to_bits();
        let offset = self.shape.offset_of_bits(bits & !SIGN)?;
        // SAFETY: `offset` comes from `offset_of_bits`: below `shape.len()`.
        Some(unsafe { self.cells_of(bits).get_or_make(offset) })
    }

    /// Add `n` to a bucket's cell in the histogram's mode; what did not fit counts as
    /// saturated and is returned.
    fn add_to_cell(&self, cell: &C::Atomic, n: u64) -> u64 {
        let excess = match self.shape.writers() {
            Writers::One => add_n_plain::<C>(cell, n),
            Writers::Many => add_n_atomic::<C>(cell, n, C::INTERLOCKED_MAX),
        };
        if excess != 0 {
            self.add_special(SAT, excess);
        }
        excess
    }

    /// The single writer's exact sum and extremes for `n` times `x` (finite, in buckets).
    #[cold]
    #[inline(never)]
    fn track_single(&self, x: f64, n: u64) {
        let s = &self.stats;
        let bits = x.to_bits();
        let magnitude = bits & !SIGN;
        // Beyond 2^126 units in one exponent: a running sum takes it.
        if magnitude != 0 && !self.cells_of(bits).sums().add(magnitude, n) {
            self.add_sum_shared(0, x, n);
        }
        let (min, max) = (
            f64::from_bits(u64::load(&s.min)),
            f64::from_bits(u64::load(&s.max)),
        );
        if x < min || x > max {
            if x < min {
                u64::store(&s.min, x.to_bits());
            }
            if x > max {
                u64::store(&s.max, x.to_bits());
            }
            self.set_gates();
        }
    }

    /// Set each sign's gate from the extremes: the normal magnitudes in the range whose
    /// values lie within `[min, max]` (for a positive value `min ≤ x ≤ max` bounds its
    /// magnitude by `min` when `min > 0` and by `max`; for a negative one by `|max|` when
    /// `max < 0` and by `|min|`); empty while there are no extremes or no normal range,
    /// and always in the interlocked mode (whose records all take the general path).
    fn set_gates(&self) {
        let s = &self.stats;
        let (min, max) = (
            f64::from_bits(u64::load(&s.min)),
            f64::from_bits(u64::load(&s.max)),
        );
        let mag = |x: f64| x.abs().to_bits();
        let sides = [
            // Positive magnitudes: at least `min`'s when `min > 0`, at most `max`'s.
            (max > 0.0).then(|| (if min > 0.0 { mag(min) } else { 0 }, mag(max))),
            // Negative: at least `|max|` when `max < 0`, at most `|min|`.
            (min < 0.0).then(|| (if max < 0.0 { mag(max) } else { 0 }, mag(min))),
        ];
        for (hot, side) in self.hot.iter().zip(sides) {
            let gate = match (side, self.shape.normal_bits()) {
                _ if self.shape.writers() != Writers::One => None,
                (Some((lo, hi)), Some((low, high))) => {
                    let (lo, hi) = (lo.max(low), hi.min(high));
                    (lo <= hi).then_some((lo, hi))
                }
                _ => None,
            };
            let (lo, hi) = gate.unwrap_or((u64::MAX, 0));
            u64::store(&hot.gate_lo, lo);
            u64::store(&hot.gate_hi, hi);
        }
    }

    /// Count one occurrence of an `f32` (converted exactly).
    #[inline]
    pub fn record_f32(&self, x: f32) {
        self.record(f64::from(x));
    }

    /// Count `n` occurrences of `x` (`n = 0` does nothing). A bucket saturates (never
    /// wraps) and what did not fit counts as saturated.
    pub fn record_n(&self, x: f64, n: u64) {
        if n == 0 {
            return;
        }
        match self.bucket_cell(x) {
            Some(Some(cell)) => {
                let excess = self.add_to_cell(cell, n);
                if excess < n {
                    self.track(x, n - excess);
                }
            }
            Some(None) => self.add_special(SAT, n),
            None => self.record_special(x, n),
        }
    }

    /// Count every value of `values`, as many [`FloatHistogram::record`]s would: which
    /// values the common path takes whole (each sign's gate), and where, decided a vector
    /// at a time on [`BatchPath::chosen`] and pipelined with the counts.
    pub fn record_many(&self, values: &[f64]) {
        self.record_many_on(BatchPath::chosen(), values);
    }

    /// [`FloatHistogram::record_many`] on `path` (the portable one where this CPU lacks
    /// it). The gates are read once per chunk of values: a value the chunk's record widened
    /// the gate for takes the general path, which counts it the same. The interlocked
    /// mode has no gates: its batch counts every normal magnitude of the range with one
    /// atomic add and adds the sum and extremes of each part of values (at most 128) once,
    /// so its sum rounds per part (see the type's docs).
    pub fn record_many_on(&self, path: BatchPath, values: &[f64]) {
        match self.shape.writers() {
            Writers::One => self.record_many_single(path, values),
            Writers::Many => self.record_many_shared(path, values),
        }
    }

    /// The single writer's batch: tickets from the gates, counted by [`Gated`].
    fn record_many_single(&self, path: BatchPath, values: &[f64]) {
        let tickets = Tickets {
            read: || {
                let [pos, neg] = &self.hot;
                let lo = [u64::load(&pos.gate_lo), u64::load(&neg.gate_lo)];
                Gates::new(lo, [u64::load(&pos.gate_hi), u64::load(&neg.gate_hi)])
            },
            shift: self.shape.normal_shift(),
        };
        let (sides, mask) = (
            self.hot.each_ref().map(|h| h.side),
            self.shape.normal_mask(),
        );
        if sides[0].dense.is_null() {
            tickets.pipeline(path, values, &mut Gated::<C, true>::new(self, sides, mask));
        } else {
            tickets.pipeline(path, values, &mut Gated::<C, false>::new(self, sides, mask));
        }
    }

    /// The interlocked batch: tickets from the range's normal magnitudes (a fixed gate: the
    /// sink gathers the extremes itself), counted by [`Shared`].
    fn record_many_shared(&self, path: BatchPath, values: &[f64]) {
        let (lo, hi) = self.shape.normal_bits().unwrap_or((u64::MAX, 0));
        let gates = Gates::new([lo; 2], [hi; 2]);
        let tickets = Tickets {
            read: || gates,
            shift: self.shape.normal_shift(),
        };
        let (sides, mask) = (
            self.hot.each_ref().map(|h| h.side),
            self.shape.normal_mask(),
        );
        let stripe = stripe();
        if sides[0].dense.is_null() {
            let sink = &mut Shared::<C, true>::new(self, sides, mask, stripe);
            tickets.pipeline(path, values, sink);
        } else {
            let sink = &mut Shared::<C, false>::new(self, sides, mask, stripe);
            tickets.pipeline(path, values, sink);
        }
    }

    /// One increment of a bucket; false when it was full (then counted as saturated).
    #[inline(always)]
    fn count(&self, cell: &C::Atomic) -> bool {
        match self.shape.writers() {
            Writers::One => {
                if increment_plain::<C>(cell) == 0 {
                    return true;
                }
                self.add_special(SAT, 1);
                false
            }
            Writers::Many => !increment_atomic::<C>(cell) || self.settle_counted(cell),
        }
    }

    /// An interlocked increment found `cell` at its ceiling: bring it back and count the
    /// surplus as saturated; true when the increment still counts in the bucket.
    #[cold]
    #[inline(never)]
    fn settle_counted(&self, cell: &C::Atomic) -> bool {
        let excess = settle::<C>(cell);
        self.add_special(SAT, excess);
        // The surplus moved out of the bucket is this record or another thread's: either
        // way one record left the bucket, and this one is counted there unless the bucket
        // was full before it.
        excess == 0
    }

    /// Zero, NaN, the infinities, and magnitudes outside the range.
    #[cold]
    fn record_special(&self, x: f64, n: u64) {
        let which = if x == 0.0 {
            ZERO
        } else if x.is_nan() {
            NAN
        } else if x == f64::INFINITY {
            POS_INF
        } else if x == f64::NEG_INFINITY {
            NEG_INF
        } else if x.abs() < self.shape.range().0 {
            UNDER
        } else {
            OVER
        };
        self.add_special(which, n);
        if which == ZERO {
            self.track(0.0, n);
        }
    }

    /// Add to a count beside the buckets, saturating at `u64::MAX`.
    fn add_special(&self, which: usize, n: u64) {
        let c = &self.specials[which];
        match self.shape.writers() {
            Writers::One => u64::store(c, u64::load(c).saturating_add(n)),
            Writers::Many => {
                let mut old = u64::load(c);
                while old != u64::MAX {
                    match u64::compare_exchange(c, old, old.saturating_add(n)) {
                        Ok(_) => return,
                        Err(seen) => old = seen,
                    }
                }
            }
        }
    }

    /// Add `n` occurrences of `x` (finite, in buckets) to the sum and the extremes.
    #[inline(always)]
    fn track(&self, x: f64, n: u64) {
        match self.shape.writers() {
            Writers::One => self.track_single(x, n),
            Writers::Many => self.track_shared(stripe(), x, n, x, x),
        }
    }

    /// The interlocked mode's sum and extremes: `n · x` added to stripe `stripe`, `min` and
    /// `max` (finite, in buckets) to the extremes.
    #[inline(always)]
    fn track_shared(&self, stripe: usize, x: f64, n: u64, min: f64, max: f64) {
        let s = &self.stats;
        self.add_sum_shared(stripe, x, n);
        update(&s.min, |old| (min < old).then_some(min));
        update(&s.max, |old| (max > old).then_some(max));
    }

    /// Add `n · x` to stripe `stripe` of the sum (a compare-exchange loop); what would
    /// overflow the stripe moves aside.
    fn add_sum_shared(&self, stripe: usize, x: f64, n: u64) {
        let cell = &self.stats.sum[stripe].0;
        let amount = if n == 1 { x } else { x * n as f64 };
        let mut old = u64::load(cell);
        loop {
            let t = f64::from_bits(old) + amount;
            if !t.is_finite() {
                return self.spill(stripe, x, n);
            }
            match u64::compare_exchange(cell, old, t.to_bits()) {
                Ok(_) => return,
                Err(seen) => old = seen,
            }
        }
    }

    /// Stripe `stripe` plus `n · x` would overflow a double: move the stripe and the new
    /// amount, scaled, to the part aside. Readers retry around it (it bumps the version as
    /// a reset does), so none counts a part twice or never.
    #[cold]
    #[inline(never)]
    fn spill(&self, stripe: usize, x: f64, n: u64) {
        let s = &self.stats;
        let _section = crate::concurrent::fork_section();
        let odd = self.version.write_begin();
        let moved = f64::from_bits(u64::swap(&s.sum[stripe].0, 0f64.to_bits()));
        let scaled = moved * DOWN + (x * DOWN) * n as f64;
        update(&s.big, |old| Some(old + scaled));
        self.version.write_end(odd);
    }

    /// Clear every count and the sum and extremes. Readers never see it half done (they
    /// run again); in the single-writer mode reset from the writing thread (a record
    /// racing a reset from elsewhere may keep its old count + 1, as for the integer
    /// single-writer mode), in the interlocked mode from any thread.
    pub fn reset(&self) {
        let _section = crate::concurrent::fork_section();
        let odd = self.version.write_begin();
        for cells in [&self.pos, &self.neg] {
            cells.for_each_run(|_, run| {
                for c in run {
                    C::swap(c, C::ZERO);
                }
            });
        }
        for c in &self.specials {
            u64::swap(c, 0);
        }
        self.pos.sums().clear();
        self.neg.sums().clear();
        self.stats.clear();
        self.set_gates();
        self.version.write_end(odd);
    }

    /// Add every count of `other` (same relative error; any range, storage, mode and
    /// counter width): its buckets bucket by bucket (values outside this range land in
    /// underflow/overflow), its zero, NaN, infinity and outside counts, its sum and
    /// extremes. `Err(LayoutMismatch)` for another relative error.
    pub fn add<C2: AtomicCounter>(
        &self,
        other: &FloatHistogram<C2>,
    ) -> Result<(), crate::MergeError> {
        let (a, b) = (self.shape.layout(), other.shape.layout());
        if a != b {
            return Err(crate::MergeError::LayoutMismatch {
                this: a.relative_error(),
                other: b.relative_error(),
            });
        }
        let copy = other.counts()?;
        for b in copy.buckets() {
            if b.count != 0 {
                match b.side {
                    super::Side::Zero => self.add_special(ZERO, b.count),
                    _ => self.record_counts_only(b.lowest, b.count),
                }
            }
        }
        self.add_beside_buckets(&copy);
        Ok(())
    }

    /// Add the counts of `copy` beside its buckets (NaN, infinities, outside, saturated;
    /// not zero, which is a bucket) and its exact sum and extremes, not the midpoints'.
    fn add_beside_buckets(&self, copy: &super::FloatCounts) {
        for (which, n) in [
            (NAN, copy.nan_count()),
            (POS_INF, copy.positive_infinity_count()),
            (NEG_INF, copy.negative_infinity_count()),
            (UNDER, copy.underflow_count()),
            (OVER, copy.overflow_count()),
            (SAT, copy.saturated_count()),
        ] {
            if n != 0 {
                self.add_special(which, n);
            }
        }
        self.merge_stats(
            copy.wide_sum(),
            copy.min().unwrap_or(f64::INFINITY),
            copy.max().unwrap_or(f64::NEG_INFINITY),
        );
    }

    /// Add every count of `other` whatever its relative error, re-binned into this
    /// layout, as [`crate::View::rebinned`] does for integers: into a coarser (or the same)
    /// layout each source bucket lands whole in the bucket that holds all its values
    /// (both layouts split every octave into a power of two of aligned buckets), exactly
    /// as recording the values would have; into a finer one its count is shared equally
    /// among the buckets it covers (remainder to the lowest magnitudes), so values may land
    /// up to a source bucket away: the source's relative error. Counts beside the buckets,
    /// the sum and the extremes carry over as in [`FloatHistogram::add`].
    pub fn add_rebinned<C2: AtomicCounter>(
        &self,
        other: &FloatHistogram<C2>,
    ) -> Result<(), crate::MergeError> {
        if self.shape.layout() == other.shape.layout() {
            return self.add(other);
        }
        let layout = self.shape.layout();
        let copy = other.counts()?;
        for b in copy.buckets() {
            if b.side == super::Side::Zero {
                self.add_special(ZERO, b.count);
                continue;
            }
            let sign = if b.side == super::Side::Negative {
                -1.0
            } else {
                1.0
            };
            let (lo, hi) = (
                b.lowest.abs().min(b.highest.abs()),
                b.lowest.abs().max(b.highest.abs()),
            );
            let (first, last) = (layout.index(lo), layout.index(hi));
            if first == last {
                self.record_counts_only(sign * lo, b.count);
                continue;
            }
            let n = (last - first + 1) as u64;
            let (share, rest) = (b.count / n, b.count % n);
            for (k, index) in (first..=last).enumerate() {
                let count = share + u64::from((k as u64) < rest);
                if count != 0 {
                    self.record_counts_only(sign * layout.bucket(index).lower, count);
                }
            }
        }
        self.add_beside_buckets(&copy);
        Ok(())
    }

    /// A new single-writer histogram of this one's range and storage at the coarser
    /// `relative_error` (clamped as at creation), with `u64` counters: exactly what
    /// recording the same values at that precision would have made (into a coarser layout
    /// every bucket lands whole, see [`FloatHistogram::add_rebinned`]), with the counts
    /// beside the buckets, the sum, the extremes and the value selection. Values this
    /// histogram counted as underflow or overflow stay so, even where the coarser
    /// layout's edge buckets reach a little past the range. `Err(LayoutMismatch)` for a
    /// precision finer than this one's (it could only spread counts over buckets the data
    /// never told apart: `add_rebinned` into a finer histogram does that knowingly);
    /// `Err(InvalidRelativeError)` for one that is NaN, infinite or not positive;
    /// `Err(OutOfMemory)`.
    pub fn downsample(
        &self,
        relative_error: f64,
    ) -> Result<FloatHistogram<u64>, crate::MergeError> {
        ConfigError::check_relative_error(relative_error)
            .map_err(|_| crate::MergeError::InvalidRelativeError(relative_error))?;
        let mine = self.shape.layout();
        let mismatch = |other: f64| crate::MergeError::LayoutMismatch {
            this: mine.relative_error(),
            other,
        };
        let config = self
            .shape
            .config()
            .with_relative_error(relative_error)
            .with_mode(Mode::SingleWriter)
            .with_value_selection(self.value_selection());
        let shape = config.validate().map_err(|_| mismatch(relative_error))?;
        if shape.layout().scale() > mine.scale() {
            return Err(mismatch(shape.layout().relative_error()));
        }
        let coarse = FloatHistogram::<u64>::new(config).map_err(|e| match e {
            ConfigError::OutOfMemory { bytes } => crate::MergeError::OutOfMemory { bytes },
            _ => mismatch(relative_error),
        })?;
        coarse.add_rebinned(self)?;
        Ok(coarse)
    }

    /// Count `n` occurrences of `x` in its bucket (or outside), without the sum and
    /// extremes (a merge adds the source's own).
    fn record_counts_only(&self, x: f64, n: u64) {
        match self.bucket_cell(x) {
            Some(Some(cell)) => {
                self.add_to_cell(cell, n);
            }
            Some(None) => self.add_special(SAT, n),
            None => {
                let which = if x.abs() < self.shape.range().0 {
                    UNDER
                } else {
                    OVER
                };
                self.add_special(which, n);
            }
        }
    }

    fn merge_stats(&self, sum: WideSum, min: f64, max: f64) {
        let s = &self.stats;
        if sum.small != 0.0 {
            self.add_sum_shared(0, sum.small, 1);
        }
        if sum.big != 0.0 {
            let _section = crate::concurrent::fork_section();
            let odd = self.version.write_begin();
            update(&s.big, |old| Some(old + sum.big));
            self.version.write_end(odd);
        }
        update(&s.min, |old| (min < old).then_some(min));
        update(&s.max, |old| (max > old).then_some(max));
        self.set_gates();
    }

    /// The sum of the values in buckets: the exact sums (rounded once), the stripes and the
    /// part moved aside, added compensated.
    pub(crate) fn wide_sum(&self) -> WideSum {
        let s = &self.stats;
        let exact = super::octaves::exact_sum(self.pos.sums(), self.neg.sums());
        // One load of each cell, however many passes the sum takes.
        let parts: [f64; STRIPES + 1] = core::array::from_fn(|k| match s.sum.get(k) {
            Some(p) => f64::from_bits(u64::load(&p.0)),
            None => exact.small,
        });
        WideSum::of(
            || parts.iter().copied(),
            f64::from_bits(u64::load(&s.big)) + exact.big,
        )
    }

    /// Run `attempt` on the live state under the seqlock, again if a reset overlapped it.
    pub(crate) fn read<R>(&self, mut attempt: impl FnMut(&Self) -> Option<R>) -> R {
        crate::concurrent::read_consistently(&self.version, || {
            let v = self.version.read_begin();
            let r = attempt(self)?;
            self.version.read_validate(v).then_some(r)
        })
    }
}

/// The stripe of the interlocked sum this thread adds to: picked by its stack's address.
#[inline(always)]
fn stripe() -> usize {
    let probe = 0u8;
    let address = &probe as *const u8 as usize;
    ((address >> 12) ^ (address >> 20)) % STRIPES
}

/// Replace the double in `cell` with `f(old)` when it gives one (a compare-exchange loop).
fn update(cell: &Cell64, f: impl Fn(f64) -> Option<f64>) {
    let mut old = u64::load(cell);
    while let Some(new) = f(f64::from_bits(old)) {
        match u64::compare_exchange(cell, old, new.to_bits()) {
            Ok(_) => return,
            Err(seen) => old = seen,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::float::Storage;

    /// Small enough for Miri: both storage kinds, both signs, the gates opening and
    /// moving, subnormals, a reset and a merge, against plain reference values.
    #[test]
    fn the_record_path_keeps_counts_extremes_and_the_exact_sum() {
        // Coarse buckets (8 an octave) over few octaves: Miri copies every cell after
        // each record. Subnormals in a range of their own.
        let normal = [3.0, 2.5, -1.0, 7.0, -8.5, -2.0, 3.0, 1e9, 0.0, -0.0, 2.75];
        let tiny = [1e-309, -3e-310, 5e-324, 0.0, 2.5e-308, -5e-324];
        for storage in [Storage::Dense, Storage::Sparse] {
            for (values, low, high) in [(&normal[..], 0.5, 1e11), (&tiny[..], 4e-324, 1e-307)] {
                let config = FloatConfig::new()
                    .with_relative_error(0.2)
                    .with_range(low, high)
                    .with_storage(storage);
                let h = FloatHistogram::<u32>::new(config).unwrap();
                for (k, &x) in values.iter().enumerate() {
                    h.record(x);
                    let seen = &values[..=k];
                    let c = h.counts().unwrap();
                    assert_eq!(c.total_count(), seen.len() as u64, "{storage:?} {x}");
                    let min = seen.iter().copied().fold(f64::INFINITY, f64::min);
                    let max = seen.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                    assert_eq!((c.min(), c.max()), (Some(min), Some(max)), "{storage:?}");
                }
                // Both sets sum exactly in doubles in this order.
                let sum: f64 = values.iter().sum();
                assert_eq!(h.counts().unwrap().sum(), sum, "{storage:?}");
                // The gates follow the extremes: past them, values still count and move
                // them.
                let half = high / 2.0;
                h.record(-half);
                h.record(half);
                let c = h.counts().unwrap();
                assert_eq!((c.min(), c.max(), c.sum()), (Some(-half), Some(half), sum));
                // A merge moves the extremes; a reset closes the gates again.
                let other = FloatHistogram::<u64>::new(config).unwrap();
                other.record(-high);
                h.add(&other).unwrap();
                assert_eq!(h.counts().unwrap().min(), Some(-high));
                h.record(-half);
                assert_eq!(h.counts().unwrap().min(), Some(-high));
                h.reset();
                assert_eq!(u64::load(&h.hot[0].gate_lo), u64::MAX);
                h.record(values[0]);
                let c = h.counts().unwrap();
                assert_eq!(
                    (c.min(), c.max(), c.sum(), c.total_count()),
                    (Some(values[0]), Some(values[0]), values[0], 1)
                );
            }
        }
    }

    #[test]
    fn interlocked_records_never_take_the_single_writer_path() {
        let h = FloatHistogram::<u32>::new(
            FloatConfig::new()
                .with_relative_error(0.2)
                .with_range(0.5, 8.0)
                .with_mode(Mode::Interlocked),
        )
        .unwrap();
        for x in [1.0, 2.0, -3.0, 1.5] {
            h.record(x);
        }
        for hot in &h.hot {
            assert!(
                u64::load(&hot.gate_lo) > u64::load(&hot.gate_hi),
                "gate open"
            );
        }
        let c = h.counts().unwrap();
        assert_eq!((c.total_count(), c.sum()), (4, 1.5));
        assert_eq!((c.min(), c.max()), (Some(-3.0), Some(2.0)));
    }
}
