//! The batch record's first step: the storage offsets of many values computed a vector at
//! a time ([`BatchPath`]), before each mode counts them as its own record would.
//!
//! The offset is [`crate::Shape::slot`]'s, `index(v) − first_index`, with the same
//! logarithm: `⌊log2(v | fine)⌋`. The portable path takes it value by value; AVX2, which has
//! no `lzcnt`, takes it from the exponent of a double: the operand's own where eight values
//! in a row are below 2^52 (exact there), else that of the 32-bit half of the operand that
//! holds its highest bit (exact for every `u64`); AVX-512 takes it with
//! `vplzcntq`; NEON, whose `clz` stops at 32-bit lanes, from the two halves' counts. Values
//! outside the range get offsets of `len()` or more, as `slot`'s do, and the caller leaves
//! them to the per-value record.

#[cfg(picollo_float)]
pub(crate) mod float;

// The target's vector paths as one module, `vector` (`available`, `pipeline`): x86-64's,
// aarch64's (where the target has NEON), or none (the portable path only; the only one
// under Miri). The float tickets' are beside them, in `float`.
#[cfg(all(target_arch = "x86_64", not(miri)))]
mod x86;
#[cfg(all(target_arch = "x86_64", not(miri)))]
use x86 as vector;

#[cfg(all(target_arch = "aarch64", target_feature = "neon", not(miri)))]
mod neon;
#[cfg(all(target_arch = "aarch64", target_feature = "neon", not(miri)))]
use neon as vector;

#[cfg(not(any(
    all(target_arch = "x86_64", not(miri)),
    all(target_arch = "aarch64", target_feature = "neon", not(miri))
)))]
mod vector {
    //! No vector path on this target: every path is the portable one.
    use super::{BatchPath, Offsets, Sink};

    pub(super) fn available(path: BatchPath) -> bool {
        path == BatchPath::Portable
    }

    pub(super) fn pipeline<S: Sink>(o: &Offsets, _: BatchPath, values: &[u64], sink: &mut S) {
        super::pipeline(&mut o.portable(), values, sink);
    }
}

use crate::Shape;

/// How a batch record computes its offsets: one value at a time, or a vector at a time
/// with the instructions a CPU has. Every path gives the same offsets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BatchPath {
    /// One value at a time (any CPU; the path under Miri).
    Portable,
    /// Four values at a time with AVX2 (x86-64).
    Avx2,
    /// Eight values at a time with AVX-512F and AVX-512CD's `vplzcntq` (x86-64).
    Avx512,
    /// Eight values at a time, two a register, with NEON (aarch64, where it is baseline: no
    /// run-time detection).
    Neon,
}

impl BatchPath {
    /// Every path, the portable one first, then x86-64's (the narrower first), then
    /// aarch64's; in the order they are declared (a path's place is its `as u8`).
    pub const ALL: [BatchPath; 4] = [
        BatchPath::Portable,
        BatchPath::Avx2,
        BatchPath::Avx512,
        BatchPath::Neon,
    ];

    /// The environment variable that forces a path by name (read once, with `std`).
    pub const ENV: &'static str = "PICOLLO_RECORD_PATH";

    /// The path's name: `portable`, `avx2`, `avx512` or `neon`.
    pub const fn name(self) -> &'static str {
        match self {
            BatchPath::Portable => "portable",
            BatchPath::Avx2 => "avx2",
            BatchPath::Avx512 => "avx512",
            BatchPath::Neon => "neon",
        }
    }

    /// The path named `name` (as [`BatchPath::name`] spells it); `None` for any other text.
    pub fn parse(name: &str) -> Option<BatchPath> {
        BatchPath::ALL.into_iter().find(|p| p.name() == name)
    }

    /// Whether this CPU runs the path (on x86-64 detected at run time with `std`, else the
    /// target's compile-time features; NEON wherever the aarch64 target has it; never a
    /// vector path under Miri).
    pub fn available(self) -> bool {
        vector::available(self)
    }

    /// The fastest path this CPU runs.
    pub fn best() -> BatchPath {
        [BatchPath::Avx512, BatchPath::Avx2, BatchPath::Neon]
            .into_iter()
            .find(|p| p.available())
            .unwrap_or(BatchPath::Portable)
    }

    /// The path a batch record takes when none is given: [`BatchPath::ENV`]'s where it
    /// names one this CPU runs (one it does not run gives the portable path), else
    /// [`BatchPath::best`]. Chosen once per process.
    pub fn chosen() -> BatchPath {
        use core::sync::atomic::{AtomicU8, Ordering};
        static CHOSEN: AtomicU8 = AtomicU8::new(u8::MAX);
        let known = CHOSEN.load(Ordering::Relaxed);
        if let Some(&p) = BatchPath::ALL.get(usize::from(known)) {
            return p;
        }
        let p = match forced() {
            Some(p) if p.available() => p,
            Some(_) => BatchPath::Portable,
            None => BatchPath::best(),
        };
        CHOSEN.store(p as u8, Ordering::Relaxed);
        p
    }
}

// `chosen` finds a path by its `as u8` in `ALL`.
const _: () = {
    let mut i = 0;
    while i < BatchPath::ALL.len() {
        assert!(
            BatchPath::ALL[i] as usize == i,
            "ALL is in declaration order"
        );
        i += 1;
    }
};

/// The path [`BatchPath::ENV`] names, if it names one.
#[cfg(feature = "std")]
fn forced() -> Option<BatchPath> {
    extern crate std;
    let name = std::env::var(BatchPath::ENV).ok()?;
    BatchPath::parse(name.trim())
}

#[cfg(not(feature = "std"))]
fn forced() -> Option<BatchPath> {
    None
}

/// What the offsets of a shape are computed from ([`crate::Layout::fast_index`]'s terms).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Offsets {
    /// `B · unit`, or-ed into every value before its logarithm (the vector paths').
    #[cfg_attr(
        not(any(
            all(target_arch = "x86_64", not(miri)),
            all(target_arch = "aarch64", target_feature = "neon", not(miri))
        )),
        allow(dead_code)
    )]
    fine: u64,
    /// `log2(B)` (the vector paths').
    #[cfg_attr(
        not(any(
            all(target_arch = "x86_64", not(miri)),
            all(target_arch = "aarch64", target_feature = "neon", not(miri))
        )),
        allow(dead_code)
    )]
    scale: u32,
    /// The shape's first logical index.
    first: u64,
    /// The shape's length: an offset at or above it is a value outside.
    len: u64,
    /// The portable path's index: the layout and the logarithm the shape's own records
    /// take (`lzcnt` where the shape chose it), so that it costs what `record` costs.
    layout: crate::Layout,
    log2: crate::Log2,
}

impl Offsets {
    pub(crate) fn new(shape: &Shape) -> Offsets {
        let layout = shape.layout();
        Offsets {
            fine: layout.fine(),
            scale: layout.block_scale(),
            first: shape.first_index() as u64,
            len: shape.len() as u64,
            layout,
            log2: shape.log2(),
        }
    }

    /// The shape's first logical index (offset + first = the slot's index).
    #[cfg(picollo_concurrent)]
    pub(crate) fn first(&self) -> usize {
        self.first as usize
    }

    /// The offsets of `values` on `path` where this CPU runs it (else the portable path),
    /// given to `sink` as [`pipeline`] gives them.
    pub(crate) fn pipeline<S: Sink>(&self, path: BatchPath, values: &[u64], sink: &mut S) {
        if path != BatchPath::Portable && path.available() {
            return vector::pipeline(self, path, values, sink);
        }
        pipeline(&mut self.portable(), values, sink);
    }

    /// The portable path as a [`Kernel`].
    pub(crate) fn portable(&self) -> Portable<'_> {
        Portable {
            offsets: self,
            fold: Fold::NONE,
        }
    }

    /// One value at a time, as the shape's record computes it.
    pub(crate) fn fill_portable(&self, values: &[u64], out: &mut [u64]) -> Fold {
        let mut fold = Fold::NONE;
        for (o, &v) in out.iter_mut().zip(values) {
            *o = self.one(v);
            fold.note(v, *o < self.len);
        }
        fold
    }

    /// The offset of one value, as [`crate::Shape::slot`] computes it.
    #[inline(always)]
    pub(crate) fn one(&self, v: u64) -> u64 {
        (self.layout.fast_index(v, self.log2) as u64).wrapping_sub(self.first)
    }
}

/// What a mode does with the offsets of a batch: [`pipeline`] gives it each chunk's fold,
/// then that chunk's values and offsets, a part at a time. `T` is the value type (`u64`,
/// or `f64` for the float histogram, whose "offsets" are [`float::Tickets`]).
pub(crate) trait Sink<T = u64> {
    /// The fold of the chunk whose values come next: the adds after it, until the next
    /// fold (or the batch's end), are of that one chunk, at most [`PIPE`] values.
    fn fold(&mut self, fold: &Fold);
    /// Counts `values` at `offsets` (as long).
    fn add(&mut self, values: &[T], offsets: &[u64]);
}

/// A path's offsets, [`Kernel::PART`] values (or any multiple of its vector) at a time,
/// their fold kept until taken.
pub(crate) trait Kernel<T = u64> {
    /// The values the kernel computes between two adds of the chunk before.
    const PART: usize = PART;
    /// `out[i]` = the offset of `values[i]` (as long; a multiple of the path's lanes).
    fn part(&mut self, values: &[T], out: &mut [u64]);
    /// The fold of the values since the last take (a chunk's end).
    fn take(&mut self) -> Fold;
    /// `out[i]` = the offset of `values[i]`, one value at a time (a chunk's ragged tail),
    /// folded into the fold `take` gives next.
    fn tail(&mut self, values: &[T], out: &mut [u64]);
}

/// Whether a batch of `n` values cannot fill any of `len` counters whose OR (at least the
/// largest count) is `any()`, each full at `max`, so that its adds need no test. Asked
/// only of a batch of at least 16 values a counter, where the pass over the counters that
/// `any` makes costs under a sixteenth of an add a value.
pub(crate) fn cannot_fill(len: usize, n: usize, any: impl FnOnce() -> u64, max: u64) -> bool {
    n / 16 >= len && any().checked_add(n as u64).is_some_and(|most| most <= max)
}

/// The values a pipeline's kernel computes between two adds of the chunk before, unless the
/// kernel says otherwise ([`Kernel::PART`]).
pub(crate) const PART: usize = 8;
/// The pipeline's chunk (two buffers of it: 2 KiB).
pub(crate) const PIPE: usize = 128;

/// The portable path as a [`Kernel`]: one value at a time.
pub(crate) struct Portable<'a> {
    offsets: &'a Offsets,
    fold: Fold,
}

impl Kernel for Portable<'_> {
    #[inline(always)]
    fn part(&mut self, values: &[u64], out: &mut [u64]) {
        let fold = self.offsets.fill_portable(values, out);
        self.fold = self.fold.and(fold);
    }

    #[inline(always)]
    fn take(&mut self) -> Fold {
        core::mem::replace(&mut self.fold, Fold::NONE)
    }

    #[inline(always)]
    fn tail(&mut self, values: &[u64], out: &mut [u64]) {
        self.part(values, out);
    }
}

/// A vector path's offsets of `u64`s, a multiple of its lanes at a time, their fold kept
/// until taken: a [`Kernel`] once [`Tailed`] gives it the portable way for ragged tails.
#[cfg_attr(
    not(any(
        all(target_arch = "x86_64", not(miri)),
        all(target_arch = "aarch64", target_feature = "neon", not(miri))
    )),
    allow(dead_code)
)]
pub(crate) trait Lanes {
    /// `out[i]` = the offset of `values[i]` (as long; a multiple of the path's lanes).
    fn part(&mut self, values: &[u64], out: &mut [u64]);
    /// The fold of the values since the last take.
    fn take(&mut self) -> Fold;
}

/// A vector kernel of `u64`s whose ragged tails go the portable way (their fold kept until
/// the next take).
#[cfg_attr(
    not(any(
        all(target_arch = "x86_64", not(miri)),
        all(target_arch = "aarch64", target_feature = "neon", not(miri))
    )),
    allow(dead_code)
)]
pub(crate) struct Tailed<'a, K> {
    pub(crate) kernel: K,
    pub(crate) offsets: &'a Offsets,
    pub(crate) fold: Fold,
}

impl<K: Lanes> Kernel for Tailed<'_, K> {
    #[inline(always)]
    fn part(&mut self, values: &[u64], out: &mut [u64]) {
        self.kernel.part(values, out);
    }

    #[inline(always)]
    fn take(&mut self) -> Fold {
        let tail = core::mem::replace(&mut self.fold, Fold::NONE);
        self.kernel.take().and(tail)
    }

    #[inline(always)]
    fn tail(&mut self, values: &[u64], out: &mut [u64]) {
        self.fold = self.fold.and(self.offsets.fill_portable(values, out));
    }
}

/// A chunk's offsets: its whole parts with `kernel`, the rest one at a time.
#[inline(always)]
fn fill_chunk<T, K: Kernel<T>>(kernel: &mut K, values: &[T], out: &mut [u64]) -> Fold {
    let whole = values.len() / K::PART * K::PART;
    kernel.part(&values[..whole], &mut out[..whole]);
    kernel.tail(&values[whole..], &mut out[whole..]);
    kernel.take()
}

/// The offsets of `values` with `kernel`, given to `sink` a chunk at a time, pipelined: the
/// next chunk's offsets are computed a part at a time between the adds of the chunk
/// before, so that the kernel's vector work overlaps the adds' cache misses (one pass of
/// offsets, then one of adds, leaves each waiting on the other).
#[inline(always)]
pub(crate) fn pipeline<T, K: Kernel<T>, S: Sink<T>>(kernel: &mut K, values: &[T], sink: &mut S) {
    let (mut a, mut b) = ([0u64; PIPE], [0u64; PIPE]);
    let mut chunks = values.chunks(PIPE);
    let Some(mut prev) = chunks.next() else {
        return;
    };
    let mut fold = fill_chunk(kernel, prev, &mut a[..prev.len()]);
    let (mut done, mut next) = (&mut a, &mut b);
    // Every chunk but the last is `PIPE` long: `prev` and `done` here are.
    for chunk in chunks {
        sink.fold(&fold);
        let part = K::PART;
        let whole = chunk.len() / part * part;
        let (out, out_tail) = next[..chunk.len()].split_at_mut(whole);
        let parts = chunk[..whole]
            .chunks_exact(part)
            .zip(out.chunks_exact_mut(part));
        let before = prev.chunks_exact(part).zip(done.chunks_exact(part));
        for ((v, out), (pv, po)) in parts.zip(before) {
            kernel.part(v, out);
            sink.add(pv, po);
        }
        sink.add(&prev[whole..], &done[whole..prev.len()]);
        kernel.tail(&chunk[whole..], out_tail);
        fold = kernel.take();
        core::mem::swap(&mut done, &mut next);
        prev = chunk;
    }
    sink.fold(&fold);
    sink.add(prev, &done[..prev.len()]);
}

/// What a chunk's offsets say of its values: the least and the greatest of those inside the
/// shape (an offset under `len()`; `lo > hi` where none is), the exact extremes' update.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Fold {
    pub(crate) lo: u64,
    pub(crate) hi: u64,
}

impl Fold {
    /// No value yet.
    pub(crate) const NONE: Fold = Fold {
        lo: u64::MAX,
        hi: 0,
    };

    /// `v` counted: inside the shape or outside it.
    #[inline(always)]
    pub(crate) fn note(&mut self, v: u64, inside: bool) {
        if inside {
            (self.lo, self.hi) = (self.lo.min(v), self.hi.max(v));
        }
    }

    /// The fold of two parts of one chunk.
    pub(crate) fn and(self, other: Fold) -> Fold {
        Fold {
            lo: self.lo.min(other.lo),
            hi: self.hi.max(other.hi),
        }
    }
}

#[cfg(all(test, picollo_float))]
mod tests;
