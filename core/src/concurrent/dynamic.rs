//! A concurrent histogram whose counter width and mode are chosen at run time: the value
//! behind a handle that other languages hold (the C ABI's `picollo_histogram`).

use core::sync::atomic::{AtomicU8, Ordering};

use super::cell::{AtomicCounter, Cell64};
use super::{Collect, ConcurrentHistogram, ConcurrentSnapshot, LiveView, Mode, Source, Storage};
use crate::config::{Config, ConfigError, ValueSelection};
use crate::counter::Counter;
use crate::layout::Log2;
use crate::merge::MergeError;
use crate::oom::OutOfMemory;
use crate::shape::Shape;
use crate::view::View;

/// Counter width of a [`DynHistogram`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CounterBits {
    /// `u32` counters: half the memory; a bucket saturates at 4,294,967,295
    /// (4,290,772,991 in the interlocked and approximate modes, see
    /// [`super::AtomicCounter::INTERLOCKED_MAX`]).
    U32,
    /// `u64` counters.
    U64,
}

/// A [`ConcurrentHistogram`] of either counter width, with a value selection that may change
/// while other threads query it. Every method takes `&self`; the threading rules are the
/// mode's (see the [module docs](super)).
///
/// `repr(C)` with the record function first: the address of a `DynHistogram` holds its
/// [`RecordFn`] ([`DynHistogram::record_fn`]), which the C header's `picollo_histogram_record`
/// loads and calls itself (docs/c-api.md, "The record paths").
#[repr(C)]
pub struct DynHistogram {
    /// The record function of `inner`'s width and mode for this CPU ([`RecordFn`]), chosen
    /// once at construction: a record pays one indirect call instead of a match over
    /// width × mode. Invariant: it is the `RecordFn` of `inner`'s variant (only
    /// `with_storage` and `with_exact_extremes` set it, and `ignoring_records` replaces it
    /// before the histogram is shared), the one that notes the extremes first when
    /// `extremes` is set, the one built for `lzcnt` and BMI2 only where the CPU has them.
    /// It stays the first field, never changed once the histogram is shared.
    fast: RecordFn,
    inner: Inner,
    /// Index into [`SELECTIONS`] of the value selection queries use.
    selection: AtomicU8,
    /// The exact extremes, when asked for ([`DynHistogram::with_exact_extremes`]).
    extremes: Option<Extremes>,
}

// The C header loads the record function from a handle's first word (see the type's docs).
const _: () = assert!(core::mem::offset_of!(DynHistogram, fast) == 0);

/// The smallest and largest value recorded in the range, exact: two cells lowered and
/// raised with a compare-exchange only when a value passes them (after the first records,
/// a load and a compare each, the cells' line shared by every writer and rarely written).
#[derive(Debug)]
struct Extremes {
    /// The smallest value seen (`u64::MAX` while none).
    lo: Cell64,
    /// The largest value seen (0 while none).
    hi: Cell64,
    /// The smallest value of the range (its first bucket's lowest).
    first: u64,
    /// The largest value of the range less `first`.
    span: u64,
}

impl Extremes {
    fn new(shape: Shape) -> Self {
        let first = shape.bucket(0).lower;
        let last = shape.bucket(shape.len().saturating_sub(1)).highest;
        Extremes {
            lo: u64::new_cell(u64::MAX),
            hi: u64::new_cell(0),
            first,
            span: last - first,
        }
    }

    /// Take `v` into the extremes when it is in the range.
    #[inline(always)]
    fn note(&self, v: u64) {
        if v.wrapping_sub(self.first) > self.span {
            return;
        }
        if v < u64::load(&self.lo) {
            Self::move_to(&self.lo, v, |v, old| v < old);
        }
        if v > u64::load(&self.hi) {
            Self::move_to(&self.hi, v, |v, old| v > old);
        }
    }

    /// Take the smallest and largest in-range values a corrected record of `v` adds.
    fn note_corrected(&self, v: u64, interval: u64) {
        let last = self.first + self.span;
        if let Some((lo, hi)) = crate::histogram::corrected_extremes(v, interval, self.first, last)
        {
            self.note(lo);
            self.note(hi);
        }
    }

    /// Store `v` in `cell` while `passes(v, what the cell holds)` (a compare-exchange
    /// loop: racing writers leave the extreme of them all).
    #[cold]
    #[inline(never)]
    fn move_to(cell: &Cell64, v: u64, passes: fn(u64, u64) -> bool) {
        let mut old = u64::load(cell);
        while passes(v, old) {
            match u64::compare_exchange(cell, old, v) {
                Ok(_) => return,
                Err(seen) => old = seen,
            }
        }
    }

    fn get(&self) -> Option<(u64, u64)> {
        let (lo, hi) = (u64::load(&self.lo), u64::load(&self.hi));
        (lo <= hi).then_some((lo, hi))
    }

    fn clear(&self) {
        u64::store(&self.lo, u64::MAX);
        u64::store(&self.hi, 0);
    }
}

impl core::fmt::Debug for DynHistogram {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("DynHistogram")
            .field("inner", &self.inner)
            .field("selection", &self.value_selection())
            .finish_non_exhaustive()
    }
}

/// Run the same expression on whichever counter width `$inner` has.
macro_rules! each_width {
    ($inner:expr, $h:ident => $e:expr) => {
        match $inner {
            Inner::U32($h) => $e,
            Inner::U64($h) => $e,
        }
    };
}

/// A record entry point of one counter width and mode ([`DynHistogram::record_fn`]):
/// `f(h, v)` counts `v` on the mode's common path, inline, and hands what that declines
/// (outside the range, a full bucket, a first touch) to the mode's own slow path, in core.
/// `extern "C"` and never unwinding (see `declined`), so C can call it and the C ABI's
/// record can jump to it with its own arguments in place.
///
/// # Safety
/// Call it only with the histogram it came from (or another of the same counter width
/// and mode).
pub type RecordFn = unsafe extern "C" fn(h: &DynHistogram, v: u64);

/// The record function of [`DynHistogram::ignoring_records`].
unsafe extern "C" fn ignore_record(_: &DynHistogram, _: u64) {}

/// The records a fast path declines, counted by `slow` (the mode's slow path) out of
/// line. A panic there would be a bug; with `std` it stops here, so that nothing unwinds
/// out of an `extern "C"` record (which would abort the process), and the record counts
/// as saturated: no count is lost.
/// `extern "C"` and never unwinding, and its arguments in registers: a record function's
/// call of it is its last step, a jump, and the record function keeps no frame.
#[cold]
#[inline(never)]
// Only Rust calls it: `slow` is a Rust function, whose panic `catch_unwind` can stop.
#[allow(improper_ctypes_definitions)]
extern "C" fn declined(h: &DynHistogram, v: u64, slow: fn(&DynHistogram, u64)) {
    #[cfg(test)]
    tests::note_declined();
    #[cfg(feature = "std")]
    if std::panic::catch_unwind(core::panic::AssertUnwindSafe(|| slow(h, v))).is_err() {
        each_width!(&h.inner, i => i.add_saturated(1));
    }
    #[cfg(not(feature = "std"))]
    slow(h, v);
}

/// The record functions of one width and mode, in a module named `$name`: `any::<TRACK>`
/// takes the logarithm with `bsr` (right on every CPU), and on x86-64 `v3::<TRACK>` is
/// built for CPUs with `lzcnt` and BMI2 (`shlx`, `shrx`) and takes it with `lzcnt`
/// ([`DynHistogram::record_fn`] chooses once per histogram). `TRACK`: note the exact
/// extremes first. `$variant` binds the inner histogram; `|$h, $v, $log2| $fast` counts
/// `$v` on its common path with `$log2` and yields whether it did; `$slow` counts it
/// otherwise.
macro_rules! record_fns {
    ($name:ident, $variant:pat, |$h:ident, $v:ident, $log2:ident| $fast:expr, $slow:expr) => {
        mod $name {
            use super::*;

            /// A [`RecordFn`]: see its contract. `LZCNT`: only where the CPU has it.
            #[inline(always)]
            unsafe fn record<const TRACK: bool, const LZCNT: bool>($h: &DynHistogram, $v: u64) {
                if TRACK {
                    $h.note($v);
                }
                let $log2 = Log2::with_lzcnt(LZCNT);
                match &$h.inner {
                    $variant => {
                        if !$fast {
                            declined($h, $v, slow)
                        }
                    }
                    // SAFETY: the caller guarantees the variant (the `RecordFn` contract).
                    _ => unsafe { core::hint::unreachable_unchecked() },
                }
            }

            /// The slow path of a record of `$v`, out of line.
            fn slow($h: &DynHistogram, $v: u64) {
                match &$h.inner {
                    $variant => $slow,
                    // Only `record` calls it, after matching the same variant.
                    _ => unreachable!(),
                }
            }

            /// A [`RecordFn`] for any CPU: see its contract.
            pub(super) unsafe extern "C" fn any<const TRACK: bool>($h: &DynHistogram, $v: u64) {
                // SAFETY: the caller keeps the `RecordFn` contract; `bsr` runs anywhere.
                unsafe { record::<TRACK, false>($h, $v) }
            }

            /// A [`RecordFn`] for a CPU with `lzcnt` and BMI2: see its contract.
            #[cfg(all(target_arch = "x86_64", not(miri)))]
            #[target_feature(enable = "lzcnt,bmi1,bmi2")]
            pub(super) unsafe extern "C" fn v3<const TRACK: bool>($h: &DynHistogram, $v: u64) {
                // SAFETY: the caller keeps the `RecordFn` contract, and calls this only
                // where the CPU has `lzcnt` and BMI2 (`Log2::cpu_has_lzcnt_and_bmi2`).
                unsafe { record::<TRACK, true>($h, $v) }
            }
        }
    };
}

/// The function of module `$m` ([`record_fns!`]) for `$v3` (built for `lzcnt` and BMI2)
/// and `$track`, returned from the function it stands in when `$v3`.
macro_rules! pick {
    ($m:ident, $v3:ident, $track:ident) => {{
        #[cfg(all(target_arch = "x86_64", not(miri)))]
        if $v3 {
            return $m::v3::<$track>;
        }
        $m::any::<$track>
    }};
}

/// [`record_fns!`] for both counter widths of each mode: a row names the mode and the
/// modules of its 32-bit and 64-bit functions. Also `Inner::record_fn`, which picks the
/// function of a width and mode.
macro_rules! all_record_fns {
    ($($(#[$m:meta])* $mode:ident: $n32:ident $n64:ident;)*) => {
        $(
            $(#[$m])*
            record_fns!($n32, Inner::U32(ConcurrentHistogram::$mode(s)), |h, v, log2|
                s.record_fast_in(v, log2), s.record_declined(v));
            $(#[$m])*
            record_fns!($n64, Inner::U64(ConcurrentHistogram::$mode(s)), |h, v, log2|
                s.record_fast_in(v, log2), s.record_declined(v));
        )*

        impl Inner {
            /// The [`RecordFn`] of this width and mode (`TRACK`: noting exact extremes;
            /// `v3`: built for `lzcnt` and BMI2, which the CPU must have).
            fn record_fn<const TRACK: bool>(&self, v3: bool) -> RecordFn {
                let _ = v3;
                match self {
                    $(
                        $(#[$m])*
                        Inner::U32(ConcurrentHistogram::$mode(_)) => pick!($n32, v3, TRACK),
                        $(#[$m])*
                        Inner::U64(ConcurrentHistogram::$mode(_)) => pick!($n64, v3, TRACK),
                    )*
                }
            }
        }
    };
}

// Without `std` the approximate modes have no thread generator: their common path takes
// nothing, and the slow path adds exactly.
all_record_fns! {
    SingleWriter: single_u32 single_u64;
    Interlocked: interlocked_u32 interlocked_u64;
    #[cfg(feature = "std")]
    ThreadLocal: local_u32 local_u64;
    Approximate: approx_u32 approx_u64;
    SparseSingleWriter: sparse_single_u32 sparse_single_u64;
    SparseInterlocked: sparse_interlocked_u32 sparse_interlocked_u64;
    SparseApproximate: sparse_approx_u32 sparse_approx_u64;
}

#[derive(Debug)]
enum Inner {
    U32(ConcurrentHistogram<u32>),
    U64(ConcurrentHistogram<u64>),
}

/// A view of a [`DynHistogram`]'s counts, of either counter width: a consistent copy, or
/// (single-writer, interlocked and approximate modes) the live cells read in place.
#[derive(Clone, Copy, Debug)]
pub enum DynView<'a> {
    /// A copy of `u32` counters.
    U32(View<'a, u32>),
    /// A copy of `u64` counters.
    U64(View<'a, u64>),
    /// Live `u32` cells, read in place.
    LiveU32(LiveView<'a, u32>),
    /// Live `u64` cells, read in place.
    LiveU64(LiveView<'a, u64>),
}

const SELECTIONS: [ValueSelection; 4] = [
    ValueSelection::Midpoint,
    ValueSelection::Lower,
    ValueSelection::Upper,
    ValueSelection::Interpolated,
];

fn selection_index(s: ValueSelection) -> u8 {
    SELECTIONS.iter().position(|&x| x == s).unwrap_or(0) as u8
}

/// How the calling thread can record into a [`DynHistogram`] without a call, for code
/// outside Rust that inlines the record (the C header's `picollo_recorder_record`): find
/// the storage offset of `v` with the layout, then, in range, count in `cells` as `kind`
/// says while the cell holds less than `limit`; anything else goes through
/// [`DynHistogram::record`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DirectPath {
    /// How a cell is counted.
    pub kind: DirectKind,
    /// The first of `storage_len()` cells of the histogram's counter width; null with
    /// [`DirectKind::Call`].
    pub cells: *const (),
    /// Cells holding this count or more go through [`DynHistogram::record`] (the
    /// counter's maximum for plain adds; the interlocked ceiling less the in-flight margin
    /// for atomic ones).
    pub limit: u64,
}

/// How a [`DirectPath`] counts a cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DirectKind {
    /// A relaxed atomic load, then a relaxed atomic store of one more: the single-writer
    /// mode (the writer's thread, one at a time) and the thread-local mode (the thread's
    /// own shard, on that thread only).
    Plain,
    /// A relaxed `fetch_add` of 1, nothing read before it: the interlocked mode, any
    /// thread. When the count it returns is `limit` or more, a relaxed `fetch_sub` of 1
    /// takes the add back and the record goes through [`DynHistogram::record`] (which
    /// settles a bucket at its ceiling): every step adds or moves counts, none is lost.
    Atomic,
    /// No direct path: every record goes through [`DynHistogram::record`] (the
    /// approximate mode; the thread-local mode at its shard cap).
    Call,
}

/// Run the same expression on whichever counter width a [`DynView`] has, binding the
/// [`View`] to `$v`.
#[macro_export]
macro_rules! dyn_view {
    ($view:expr, $v:ident => $e:expr) => {
        match $view {
            $crate::concurrent::DynView::U32($v) => $e,
            $crate::concurrent::DynView::U64($v) => $e,
            $crate::concurrent::DynView::LiveU32($v) => $e,
            $crate::concurrent::DynView::LiveU64($v) => $e,
        }
    };
}

impl DirectPath {
    /// No direct path: record through a call.
    const CALL: DirectPath = DirectPath {
        kind: DirectKind::Call,
        cells: core::ptr::null(),
        limit: 0,
    };

    /// The path over `cells` of counter width `C`, counted as `kind` says.
    fn over<C: AtomicCounter>(kind: DirectKind, cells: *const C::Atomic) -> DirectPath {
        let limit = match kind {
            DirectKind::Plain => C::MAX.to_u64(),
            _ => C::INTERLOCKED_MAX.to_u64() - super::cell::IN_FLIGHT_MAX,
        };
        DirectPath {
            kind,
            cells: cells as *const (),
            limit,
        }
    }
}

impl DynHistogram {
    /// A heap-allocated histogram for `config` with `bits`-wide counters counting in `mode`.
    pub fn new(config: Config, bits: CounterBits, mode: Mode) -> Result<Self, ConfigError> {
        Self::with_shape(config.validate()?, bits, mode)
    }

    /// A heap-allocated histogram of a checked `shape` (dense storage).
    pub fn with_shape(shape: Shape, bits: CounterBits, mode: Mode) -> Result<Self, ConfigError> {
        Self::with_storage(shape, bits, mode, Storage::Dense)
    }

    /// A heap-allocated histogram of a checked `shape` over `storage` (see
    /// [`ConcurrentHistogram::with_storage`]).
    pub fn with_storage(
        shape: Shape,
        bits: CounterBits,
        mode: Mode,
        storage: Storage,
    ) -> Result<Self, ConfigError> {
        let inner = match bits {
            CounterBits::U32 => {
                Inner::U32(ConcurrentHistogram::with_storage(shape, mode, storage)?)
            }
            CounterBits::U64 => {
                Inner::U64(ConcurrentHistogram::with_storage(shape, mode, storage)?)
            }
        };
        Ok(DynHistogram {
            fast: inner.record_fn::<false>(Log2::cpu_has_lzcnt_and_bmi2()),
            extremes: None,
            inner,
            selection: AtomicU8::new(selection_index(shape.value_selection())),
        })
    }

    /// The same histogram keeping the exact smallest and largest value recorded in its
    /// range ([`DynHistogram::exact_extremes`]), from its next record on (make it so
    /// before recording). A record then also loads and compares two words (and writes one
    /// only when a value passes it); the header's inline recorder calls the library.
    ///
    /// What the extremes cover: every value recorded in the range (a saturated record
    /// too; underflow and overflow values are not in the range) since creation or the
    /// last [`DynHistogram::reset`], through any record call. Merges take the source's
    /// exact extremes when it keeps them, else the bounds of its lowest and highest
    /// non-empty buckets; V2 blobs added contribute their bucket midpoints (what they
    /// record). [`DynHistogram::subtract`] and [`DynHistogram::collect`] leave them.
    pub fn with_exact_extremes(mut self) -> Self {
        self.extremes = Some(Extremes::new(self.shape()));
        self.fast = self.inner.record_fn::<true>(Log2::cpu_has_lzcnt_and_bmi2());
        self
    }

    /// The same histogram with [`DynHistogram::record`] (and the function
    /// [`DynHistogram::record_fn`] gives) doing nothing, for a histogram lent out read-only:
    /// its records are dropped by the record function itself, so the records of every other
    /// histogram pay no test for it. The other calls still change it.
    pub fn ignoring_records(mut self) -> Self {
        self.fast = ignore_record;
        self
    }

    /// Whether the histogram keeps exact extremes ([`DynHistogram::with_exact_extremes`]).
    pub fn tracks_extremes(&self) -> bool {
        self.extremes.is_some()
    }

    /// The exact smallest and largest value recorded in the range (see
    /// [`DynHistogram::with_exact_extremes`]); `None` when none was or the histogram does
    /// not keep them.
    pub fn exact_extremes(&self) -> Option<(u64, u64)> {
        self.extremes.as_ref()?.get()
    }

    #[inline(always)]
    fn note(&self, v: u64) {
        if let Some(e) = &self.extremes {
            e.note(v);
        }
    }

    /// Add every count of `view`, and take its extremes: `exact` when given, else its
    /// lowest and highest non-empty buckets' bounds.
    fn add_counts<C: Counter>(
        &self,
        view: &View<'_, C>,
        exact: Option<(u64, u64)>,
    ) -> Result<(), MergeError> {
        each_width!(&self.inner, d => d.add(view))?;
        if let Some(e) = &self.extremes {
            let bounds = exact.or_else(|| Some((view.min_recorded()?, view.max_recorded()?)));
            if let Some((lo, hi)) = bounds {
                e.note(lo);
                e.note(hi);
            }
        }
        Ok(())
    }

    /// Count one occurrence of `v`: on the common path of its mode, which cannot panic or
    /// allocate and makes no call (integer operations and one plain or atomic add), when
    /// `v` is in the range, its bucket is not full (or near the interlocked ceiling) and,
    /// in the thread-local mode, this thread's shard is the one it used last (without
    /// `std`, the approximate mode has no common path); anything else goes to the mode's
    /// slow path, out of line.
    ///
    /// The path is a function chosen for the width, the mode and the CPU when the
    /// histogram was made ([`DynHistogram::record_fn`]): one indirect call, no match.
    /// (Inlining the single-writer and thread-local records here behind bit tests
    /// measured the same on a Zen 5 EPYC once code alignment was held fixed, and cannot
    /// inline the functions built for `lzcnt` and BMI2.)
    #[inline(always)]
    pub fn record(&self, v: u64) {
        // SAFETY: `fast` is the function of `inner`'s variant and this CPU (the field's
        // invariant).
        unsafe { (self.fast)(self, v) }
    }

    /// The record function of this histogram's counter width and mode, chosen for this
    /// CPU ([`RecordFn`]): a caller that records many values can call it directly, saving
    /// the dispatch [`DynHistogram::record`] makes on each call. The C ABI gives it to C
    /// callers as `picollo_histogram_record_fn`.
    pub fn record_fn(&self) -> RecordFn {
        self.fast
    }

    /// The portable record function of this histogram's width and mode (the one
    /// [`DynHistogram::record_fn`] gives on a CPU without `lzcnt` and BMI2), for
    /// benchmarks that measure it beside the one chosen for this CPU.
    #[doc(hidden)]
    pub fn portable_record_fn(&self) -> RecordFn {
        if self.extremes.is_some() {
            return self.inner.record_fn::<true>(false);
        }
        self.inner.record_fn::<false>(false)
    }

    /// How the calling thread can record without a call ([`DirectPath`]). In the
    /// thread-local mode this attaches the thread (as its first record does), and the
    /// cells are its shard: valid on this thread only, until it exits or the histogram is
    /// dropped. Elsewhere the cells live as long as the histogram.
    pub fn direct_path(&self) -> DirectPath {
        macro_rules! by_mode {
            ($h:expr, $c:ty) => {
                match $h {
                    ConcurrentHistogram::SingleWriter(h) => {
                        DirectPath::over::<$c>(DirectKind::Plain, h.cells_ptr())
                    }
                    ConcurrentHistogram::Interlocked(h) => {
                        DirectPath::over::<$c>(DirectKind::Atomic, h.cells_ptr())
                    }
                    #[cfg(feature = "std")]
                    ConcurrentHistogram::ThreadLocal(h) => match h.this_thread_cells() {
                        Some(cells) => DirectPath::over::<$c>(DirectKind::Plain, cells),
                        None => DirectPath::CALL,
                    },
                    // Sparse cells are not one array.
                    ConcurrentHistogram::Approximate(_)
                    | ConcurrentHistogram::SparseSingleWriter(_)
                    | ConcurrentHistogram::SparseInterlocked(_)
                    | ConcurrentHistogram::SparseApproximate(_) => DirectPath::CALL,
                }
            };
        }
        // Exact extremes are kept by the library's record.
        if self.extremes.is_some() {
            return DirectPath::CALL;
        }
        match &self.inner {
            Inner::U32(h) => by_mode!(h, u32),
            Inner::U64(h) => by_mode!(h, u64),
        }
    }

    /// Count `n` occurrences of `v` (exact in every mode; saturating).
    pub fn record_n(&self, v: u64, n: u64) {
        if n != 0 {
            self.note(v);
        }
        each_width!(&self.inner, h => h.record_n(v, n));
    }

    /// Record `v` with coordinated-omission correction (see
    /// [`crate::Histogram::record_corrected`]).
    pub fn record_corrected(&self, v: u64, expected_interval: u64) {
        if let Some(e) = &self.extremes {
            e.note(v);
            e.note_corrected(v, expected_interval);
        }
        each_width!(&self.inner, h => h.record_corrected(v, expected_interval));
    }

    /// Count every value of `values`.
    pub fn record_many(&self, values: &[u64]) {
        each_width!(&self.inner, h => values.iter().for_each(|&v| {
            self.note(v);
            h.record(v)
        }));
    }

    /// Reset (see the module docs for each mode's semantics); the exact extremes too.
    pub fn reset(&self) {
        if let Some(e) = &self.extremes {
            e.clear();
        }
        each_width!(&self.inner, h => h.reset());
    }

    /// Take the counts since the previous collect or reset, leaving the histogram counting
    /// from zero (see the [module docs](super#collect-take-the-counts-and-start-over) for
    /// each mode's guarantee): an owned histogram of the same layout and range, `u32`
    /// counters widened to `u64`, underflow, overflow and saturated counts included, with
    /// the current value selection. [`OutOfMemory`] when the copy cannot be allocated
    /// (nothing is taken then). [`DynSnapshot::collect`] does the same without allocating.
    pub fn collect(&self) -> Result<crate::Histogram<u64, alloc::vec::Vec<u64>>, OutOfMemory> {
        let mut h = match &self.inner {
            Inner::U64(h) => h.try_collect()?,
            Inner::U32(h) => {
                let mut wide = crate::oom::try_vec(h.storage_len(), || 0u64)?;
                let narrow = h.try_collect()?;
                let view = narrow.view();
                for (w, &n) in wide.iter_mut().zip(view.counts()) {
                    *w = u64::from(n);
                }
                crate::Histogram::from_parts(view.shape(), wide, view.outside())
            }
        };
        h.set_value_selection(self.value_selection());
        Ok(h)
    }

    /// The value selection queries use.
    pub fn value_selection(&self) -> ValueSelection {
        SELECTIONS[usize::from(self.selection.load(Ordering::Relaxed)) % SELECTIONS.len()]
    }

    /// Change the value selection; a query already running keeps the one it started with.
    pub fn set_value_selection(&self, selection: ValueSelection) {
        self.selection
            .store(selection_index(selection), Ordering::Relaxed);
    }

    /// The checked shape (with the value selection it was created with).
    pub fn shape(&self) -> Shape {
        each_width!(&self.inner, h => h.shape())
    }

    /// Counters in storage.
    pub fn storage_len(&self) -> usize {
        self.shape().len()
    }

    /// The counter width.
    pub fn counter_bits(&self) -> CounterBits {
        match self.inner {
            Inner::U32(_) => CounterBits::U32,
            Inner::U64(_) => CounterBits::U64,
        }
    }

    /// The mode.
    pub fn mode(&self) -> Mode {
        each_width!(&self.inner, h => h.mode())
    }

    /// The storage kind.
    pub fn storage(&self) -> Storage {
        each_width!(&self.inner, h => h.storage())
    }

    /// Bytes of counters now (thread-local: every shard included; sparse: the blocks
    /// made so far and the block directory).
    pub fn footprint_in_bytes(&self) -> usize {
        each_width!(&self.inner, h => h.footprint_in_bytes())
    }

    /// Completed resets (wrapping).
    pub fn reset_count(&self) -> u64 {
        each_width!(&self.inner, h => h.reset_count())
    }

    /// Mean over bucket midpoints (NaN when empty); see [`DynHistogram::with_view`].
    pub fn mean(&self) -> Result<f64, OutOfMemory> {
        self.with_view(|view| dyn_view!(view, v => v.mean()))
    }

    /// Sum of the bucket counts; see [`DynHistogram::with_view`].
    pub fn total_count(&self) -> Result<u64, OutOfMemory> {
        self.with_view(|view| dyn_view!(view, v => v.total_count()))
    }

    /// Add every count of `src` (same relative error, any range, width and mode), read
    /// as one consistent copy; the counts land like records.
    pub fn add(&self, src: &DynHistogram) -> Result<(), MergeError> {
        let exact = src.exact_extremes();
        each_width!(&src.inner, s => s.try_with_copy(|view| self.add_counts(&view, exact)))?
    }

    /// Add every count of `view` (same relative error, any range and counter width), as
    /// [`DynHistogram::add`] does for another handle: e.g. to put a decoded V2 histogram or
    /// the sum of a log behind a handle.
    pub fn add_view<C: Counter>(&self, view: &View<'_, C>) -> Result<(), MergeError> {
        self.add_counts(view, None)
    }

    /// Add every count of `src` whatever its relative error (and range, width and mode),
    /// re-binned into this histogram's layout (see [`View::rebinned`] for the error each
    /// way: exact into a coarser layout, spread within each source bucket into a finer
    /// one), read as one consistent copy; the counts land like records.
    pub fn add_rebinned(&self, src: &DynHistogram) -> Result<(), MergeError> {
        let layout = self.shape().layout();
        let copy = src.with_view(|v| dyn_view!(v, v => v.rebinned(layout)))??;
        self.add_counts(&copy.view(), src.exact_extremes())
    }

    /// Add the counts of a V2 blob (plain or compressed) whatever this histogram's layout,
    /// as [`crate::Histogram::add_v2`] does: each HdrHistogram bucket's count lands at the
    /// bucket's midpoint, like records. The blob is checked whole first: on error nothing
    /// was added.
    pub fn add_v2(&self, bytes: &[u8]) -> Result<(), crate::hdr::V2Error> {
        crate::format::v2::for_each_count(bytes, |value, count| self.record_n(value, count))
    }

    /// Remove every count of `src` (single-writer mode only, from the writer thread; the
    /// other modes answer [`MergeError::Unsupported`]).
    pub fn subtract(&self, src: &DynHistogram) -> Result<(), MergeError> {
        each_width!(&src.inner, s => s.try_with_copy(|view| {
            each_width!(&self.inner, d => d.subtract(&view))
        }))?
    }

    /// Run `query` on the counts, reporting values with the current value selection.
    ///
    /// The single-writer, interlocked and approximate modes read their cells in place:
    /// nothing is copied or allocated, and a query that a reset overlapped runs again (so
    /// `query` may run more than once; see [`LiveView`] for what concurrent records do to
    /// it). The thread-local mode sums its shards into a copy allocated for the call, and
    /// answers [`OutOfMemory`] when that fails.
    pub fn with_view<R>(&self, mut query: impl FnMut(DynView<'_>) -> R) -> Result<R, OutOfMemory> {
        let selection = self.value_selection();
        macro_rules! by_mode {
            ($h:expr, $live:ident, $copy:ident) => {
                match $h
                    .query_in_place(|v| query(DynView::$live(v.with_value_selection(selection))))
                {
                    Some(r) => Ok(r),
                    None => $h.try_with_copy(|v| {
                        query(DynView::$copy(v.with_value_selection(selection)))
                    }),
                }
            };
        }
        match &self.inner {
            Inner::U32(h) => by_mode!(h, LiveU32, U32),
            Inner::U64(h) => by_mode!(h, LiveU64, U64),
        }
    }
}

/// A [`ConcurrentSnapshot`] of a [`DynHistogram`]: a copy refreshed in place, optionally
/// as the deltas since the previous refresh, allocating nothing after creation.
pub struct DynSnapshot {
    inner: SnapInner,
    /// The source's value selection at the last refresh.
    selection: ValueSelection,
}

enum SnapInner {
    U32(ConcurrentSnapshot<u32>),
    U64(ConcurrentSnapshot<u64>),
}

impl core::fmt::Debug for DynSnapshot {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("DynSnapshot")
            .field("selection", &self.selection)
            .finish_non_exhaustive()
    }
}

/// `|s, c| op` on a snapshot's and `h`'s inner histograms of the same counter width, then
/// the snapshot takes `h`'s value selection; another width is an error and no change.
macro_rules! from_source {
    ($snap:expr, $h:expr, |$s:ident, $c:ident| $op:expr) => {{
        match (&mut $snap.inner, &$h.inner) {
            (SnapInner::U32($s), Inner::U32($c)) => $op?,
            (SnapInner::U64($s), Inner::U64($c)) => $op?,
            _ => {
                return Err(ConfigError::StorageLength {
                    expected: $snap.view_len(),
                    actual: $h.storage_len(),
                })
            }
        }
        $snap.selection = $h.value_selection();
        Ok(())
    }};
}
impl DynSnapshot {
    /// A snapshot of `h`, taken now with full counts.
    pub fn new(h: &DynHistogram) -> Result<Self, ConfigError> {
        let inner = match &h.inner {
            Inner::U32(c) => SnapInner::U32(ConcurrentSnapshot::new(c)?),
            Inner::U64(c) => SnapInner::U64(ConcurrentSnapshot::new(c)?),
        };
        Ok(DynSnapshot {
            inner,
            selection: h.value_selection(),
        })
    }

    /// Copy `h` again (same configuration and counter width; otherwise an error and no
    /// change). With `deltas`, the snapshot then holds what was recorded since the previous
    /// refresh.
    pub fn update(&mut self, h: &DynHistogram, deltas: bool) -> Result<(), ConfigError> {
        from_source!(self, h, |s, c| s.update(c, deltas))
    }

    /// Take the counts of `h` since its previous collect or reset into this snapshot,
    /// allocating nothing (see [`DynHistogram::collect`]); `h` counts from zero. Same
    /// configuration and counter width as the snapshot, otherwise an error and no change.
    pub fn collect(&mut self, h: &DynHistogram) -> Result<(), ConfigError> {
        from_source!(self, h, |s, c| s.collect(c))
    }

    fn view_len(&self) -> usize {
        dyn_view!(self.view(), v => v.shape().len())
    }

    /// The snapshot's counts, reporting values with the source's selection at the last
    /// refresh.
    pub fn view(&self) -> DynView<'_> {
        match &self.inner {
            SnapInner::U32(s) => DynView::U32(s.view().with_value_selection(self.selection)),
            SnapInner::U64(s) => DynView::U64(s.view().with_value_selection(self.selection)),
        }
    }
}

#[cfg(all(test, feature = "std"))]
mod tests {
    use super::*;

    /// 5 %, 0..=1,000: about 100 buckets, so that the tests over every width and mode run
    /// in seconds under Miri too (the default 0.1 % is ten times the storage to zero and walk).
    fn small() -> Config {
        Config::new().with_relative_error(0.05).with_range(0, 1_000)
    }

    #[test]
    fn every_width_and_mode_records_merges_and_reports() {
        let config = small();
        for_each_width_and_mode(config, |h, bits, mode| {
            h.record(10);
            h.record_n(20, 3);
            h.record_many(&[30, 2_000]);
            assert_eq!((h.counter_bits(), h.mode()), (bits, mode));
            assert_eq!(h.total_count(), Ok(5));
            let other = DynHistogram::new(config, CounterBits::U64, Mode::Interlocked).unwrap();
            other.add(&h).unwrap();
            assert_eq!(other.total_count(), Ok(5));
            h.set_value_selection(ValueSelection::Upper);
            assert_eq!(h.value_selection(), ValueSelection::Upper);
            h.with_view(|v| {
                dyn_view!(v, v => {
                    assert_eq!(v.value_selection(), ValueSelection::Upper);
                    assert_eq!(v.overflow_count(), 1);
                })
            })
            .unwrap();
            let mut snap = DynSnapshot::new(&h).unwrap();
            h.record(10);
            snap.update(&h, true).unwrap();
            assert_eq!(dyn_view!(snap.view(), v => v.total_count()), 1);
            let wrong = DynHistogram::new(config, other_width(bits), mode).unwrap();
            assert!(snap.update(&wrong, true).is_err());
            h.reset();
            assert_eq!(h.total_count(), Ok(0));
        });
    }

    #[test]
    fn collect_takes_the_interval_in_every_width_and_mode() {
        let config = small();
        for_each_width_and_mode(config, |h, bits, mode| {
            h.record_many(&[10, 10, 20, 2_000]);
            let first = h.collect().unwrap();
            let v = first.view();
            assert_eq!((v.total_count(), v.overflow_count()), (3, 1));
            assert_eq!(v.count(h.shape().offset(10)), Some(2));
            assert_eq!(h.total_count(), Ok(0));
            h.record(30);
            let mut snap = DynSnapshot::new(&h).unwrap();
            h.record(40);
            snap.collect(&h).unwrap();
            assert_eq!(dyn_view!(snap.view(), v => v.total_count()), 2);
            h.record(50);
            // Deltas after a collect: what was recorded since it.
            snap.update(&h, true).unwrap();
            assert_eq!(dyn_view!(snap.view(), v => v.total_count()), 1);
            let wrong = DynHistogram::new(config, other_width(bits), mode).unwrap();
            assert!(snap.collect(&wrong).is_err());
            assert_eq!(h.total_count(), Ok(1));
        });
    }

    /// `check` on a new histogram of `config` in each counter width and exact mode.
    fn for_each_width_and_mode(
        config: Config,
        mut check: impl FnMut(DynHistogram, CounterBits, Mode),
    ) {
        for bits in [CounterBits::U32, CounterBits::U64] {
            for mode in [Mode::SingleWriter, Mode::Interlocked, Mode::ThreadLocal] {
                check(DynHistogram::new(config, bits, mode).unwrap(), bits, mode);
            }
        }
    }

    fn other_width(bits: CounterBits) -> CounterBits {
        match bits {
            CounterBits::U32 => CounterBits::U64,
            CounterBits::U64 => CounterBits::U32,
        }
    }

    std::thread_local! {
        /// Records handed to `declined` on this thread.
        static DECLINED: core::cell::Cell<u32> = const { core::cell::Cell::new(0) };
    }

    /// Called by `declined`: one more record declined on this thread.
    pub(super) fn note_declined() {
        DECLINED.with(|d| d.set(d.get() + 1));
    }

    /// `h.record(v)`: whether the fast path took the record (none was declined).
    fn fast(h: &DynHistogram, v: u64) -> bool {
        let before = DECLINED.with(|d| d.get());
        h.record(v);
        DECLINED.with(|d| d.get()) == before
    }

    #[test]
    fn only_the_paths_that_cannot_panic_skip_the_slow_one() {
        let config = small();
        let counts = |h: &DynHistogram| {
            h.with_view(|view| dyn_view!(view, v => (v.total_count(), v.overflow_count())))
                .unwrap()
        };
        for bits in [CounterBits::U32, CounterBits::U64] {
            // Approximate: its coins come from thread-local words that cannot fail.
            for mode in [
                Mode::SingleWriter,
                Mode::Interlocked,
                Mode::Approximate(Default::default()),
            ] {
                let h = DynHistogram::new(config, bits, mode).unwrap();
                assert_eq!((h.counter_bits(), h.mode()), (bits, mode));
                assert!(fast(&h, 5), "{mode:?} records in range");
                assert!(!fast(&h, 5_000), "{mode:?}: overflow takes the slow path");
                assert_eq!(counts(&h), (1, 1), "{mode:?}: the slow path counted it");
            }
            // Thread-local: only once this thread's shard is attached and current, and only
            // in range; the slow path attaches it.
            let local = DynHistogram::new(config, bits, Mode::ThreadLocal).unwrap();
            std::thread::scope(|s| {
                s.spawn(|| {
                    assert!(!fast(&local, 7), "no shard on a fresh thread");
                    assert_eq!(counts(&local), (1, 0));
                    assert!(fast(&local, 7), "the shard is current now");
                    assert!(!fast(&local, 5_000), "overflow takes the slow path");
                    assert_eq!(counts(&local), (2, 1));
                });
            });
        }
    }

    #[test]
    fn a_full_bucket_is_declined_by_the_inline_paths() {
        let config = small();
        // A full bucket: the single-writer and thread-local paths (inline in `record`, or a
        // leaf through `fast`) decline the record, and the slow path counts it saturated.
        for mode in [Mode::SingleWriter, Mode::ThreadLocal] {
            let h = DynHistogram::new(config, CounterBits::U32, mode).unwrap();
            std::thread::scope(|s| {
                s.spawn(|| {
                    h.record_n(9, u64::from(u32::MAX));
                    assert!(!fast(&h, 9), "{mode:?}: a full bucket is declined");
                    let saturated = h.with_view(|view| dyn_view!(view, v => v.saturated_count()));
                    assert_eq!(saturated.unwrap(), 1, "{mode:?}");
                    assert!(fast(&h, 10), "{mode:?}: the bucket beside it is not full");
                });
            });
        }
    }

    #[test]
    fn a_panic_in_a_slow_path_stops_there_and_the_record_counts_saturated() {
        let config = small();
        for_each_width_and_mode(config, |h, bits, mode| {
            declined(&h, 7, |_, _| panic!("a slow path's bug"));
            let counts =
                h.with_view(|view| dyn_view!(view, v => (v.total_count(), v.saturated_count())));
            assert_eq!(counts.unwrap(), (0, 1), "{bits:?} {mode:?}");
        });
    }

    #[test]
    fn the_record_functions_for_lzcnt_and_bmi2_count_as_the_portable_ones() {
        // Where the CPU has them, every width, mode and storage records through the
        // functions built for them: the same buckets as the portable functions.
        let shape = Config::new().with_relative_error(0.01).validate().unwrap();
        let values: alloc::vec::Vec<u64> = (0..64)
            .flat_map(|k| [1u64 << k, (1u64 << k) + 7, !0 >> k])
            .collect();
        let v3 = Log2::cpu_has_lzcnt_and_bmi2();
        std::println!("this CPU records through the lzcnt and BMI2 functions: {v3}");
        let modes = [
            (Mode::SingleWriter, Storage::Dense),
            (Mode::Interlocked, Storage::Dense),
            (Mode::ThreadLocal, Storage::Dense),
            (Mode::Approximate(Default::default()), Storage::Dense),
            (Mode::SingleWriter, Storage::Sparse),
            (Mode::Interlocked, Storage::Sparse),
            (Mode::Approximate(Default::default()), Storage::Sparse),
        ];
        for bits in [CounterBits::U32, CounterBits::U64] {
            for (mode, storage) in modes {
                let make = || DynHistogram::with_storage(shape, bits, mode, storage).unwrap();
                let (mine, portable) = (make(), make());
                let (f, g) = (
                    mine.inner.record_fn::<false>(v3),
                    portable.inner.record_fn::<false>(false),
                );
                for &v in &values {
                    // SAFETY: each histogram's own width and mode; `f` is built for
                    // `lzcnt` and BMI2 only where the CPU has them.
                    unsafe {
                        f(&mine, v);
                        g(&portable, v);
                    }
                }
                let summary = |h: &DynHistogram| h.with_view(|v| dyn_view!(v, v => v.summary()));
                let what = alloc::format!("{bits:?} {mode:?} {storage:?}");
                assert_eq!(
                    summary(&mine).unwrap(),
                    summary(&portable).unwrap(),
                    "{what}"
                );
            }
        }
    }

    /// The exact extremes of `h` (made from `config` with counters of `bits`, tracking
    /// extremes) through every record path, a merge and a reset.
    fn extremes_follow_every_record_path(h: DynHistogram, config: Config, bits: CounterBits) {
        let what = alloc::format!("{bits:?} {:?} {:?}", h.mode(), h.storage());
        assert!(h.tracks_extremes());
        assert_eq!(h.exact_extremes(), None, "{what}");
        assert_eq!(h.direct_path().kind, DirectKind::Call, "{what}");
        // Outside the range: counted as underflow/overflow, not an extreme.
        h.record(5);
        h.record(5_000_000);
        assert_eq!(h.exact_extremes(), None, "{what}");
        h.record(12_345);
        assert_eq!(h.exact_extremes(), Some((12_345, 12_345)), "{what}");
        // SAFETY: `h`'s own record function.
        unsafe { (h.record_fn())(&h, 12_301) };
        h.record_n(99_999, 0); // nothing recorded, no extreme
        h.record_n(77_777, 2);
        h.record_many(&[150, 3, 20_000]);
        assert_eq!(h.exact_extremes(), Some((150, 77_777)), "{what}");
        // The correction's smallest value: 880_000 − 87·10_000 = 10_000 + 0.
        h.record_corrected(880_000, 10_000);
        assert_eq!(h.exact_extremes(), Some((150, 880_000)), "{what}");
        // Merged: the source's exact extremes, or its buckets' bounds.
        let exact = DynHistogram::new(config, bits, Mode::Interlocked)
            .unwrap()
            .with_exact_extremes();
        exact.record(101);
        h.add(&exact).unwrap();
        assert_eq!(h.exact_extremes(), Some((101, 880_000)), "{what}");
        let plain = DynHistogram::new(config, bits, Mode::Interlocked).unwrap();
        plain.record(999_000);
        h.add(&plain).unwrap();
        let top = config
            .validate()
            .unwrap()
            .layout()
            .bucket_of(999_000)
            .highest;
        assert_eq!(h.exact_extremes(), Some((101, top)), "{what}");
        h.reset();
        assert_eq!(h.exact_extremes(), None, "{what}");
        h.record(4_242);
        assert_eq!(h.exact_extremes(), Some((4_242, 4_242)), "{what}");
    }

    #[test]
    fn exact_extremes_follow_every_record_path_in_every_width_mode_and_storage() {
        // 5 %: small storage, so that the test also runs quickly under Miri.
        let config = Config::new()
            .with_relative_error(0.05)
            .with_range(100, 1_000_000);
        let modes = [
            Mode::SingleWriter,
            Mode::Interlocked,
            Mode::ThreadLocal,
            Mode::Approximate(super::super::ApproxPolicy::new()),
        ];
        // Under Miri (slow) one width: the record paths are the same code for both.
        let widths: &[CounterBits] = if cfg!(miri) {
            &[CounterBits::U32]
        } else {
            &[CounterBits::U32, CounterBits::U64]
        };
        for &bits in widths {
            for mode in modes {
                for storage in [Storage::Dense, Storage::Sparse] {
                    let Ok(h) =
                        DynHistogram::with_storage(config.validate().unwrap(), bits, mode, storage)
                    else {
                        continue; // sparse thread-local is refused
                    };
                    extremes_follow_every_record_path(h.with_exact_extremes(), config, bits);
                }
            }
        }
    }

    #[test]
    fn without_exact_extremes_nothing_is_kept_and_the_direct_path_stays() {
        let config = Config::new()
            .with_relative_error(0.01)
            .with_range(100, 1_000_000);
        let h = DynHistogram::new(config, CounterBits::U32, Mode::Interlocked).unwrap();
        h.record(500);
        assert!(!h.tracks_extremes());
        assert_eq!(h.exact_extremes(), None);
        assert_eq!(h.direct_path().kind, DirectKind::Atomic);
    }

    #[test]
    fn exact_extremes_of_racing_threads_are_the_true_ones() {
        let config = Config::new().with_relative_error(0.01);
        for mode in [Mode::Interlocked, Mode::ThreadLocal] {
            let h = DynHistogram::new(config, CounterBits::U64, mode)
                .unwrap()
                .with_exact_extremes();
            let (lo, hi) = std::thread::scope(|s| {
                let handles: alloc::vec::Vec<_> = (0..4u64)
                    .map(|t| {
                        let h = &h;
                        s.spawn(move || {
                            let mut x = 0x9E37_79B9_7F4A_7C15u64 ^ t;
                            let (mut lo, mut hi) = (u64::MAX, 0);
                            for _ in 0..if cfg!(miri) { 300 } else { 20_000 } {
                                x ^= x << 13;
                                x ^= x >> 7;
                                x ^= x << 17;
                                let v = x >> (x % 64);
                                h.record(v);
                                (lo, hi) = (lo.min(v), hi.max(v));
                            }
                            (lo, hi)
                        })
                    })
                    .collect();
                handles
                    .into_iter()
                    .map(|j| j.join().unwrap())
                    .fold((u64::MAX, 0), |(a, b), (c, d)| (a.min(c), b.max(d)))
            });
            assert_eq!(h.exact_extremes(), Some((lo, hi)), "{mode:?}");
        }
    }
}
