//! The single writer's exact sum of one sign: per binary exponent, the sum of the
//! significands of the values recorded with it, as an integer.
//!
//! A finite double of biased exponent `e ≥ 1` is `m · 2^(e − 1075)` with `m` its 53-bit
//! significand (implicit bit included); a subnormal is `m · 2^(1 − 1075)` with its 52
//! stored bits. So the values of one exponent sum exactly as integers, and the whole sum
//! is `Σ_e S_e · 2^(e − 1075)`, rounded once when it is read. A record adds `m` to its
//! exponent's `S_e`: one load, one add, one store, and no chain through the other
//! exponents' words (the compensated sum it replaces took two loads, two stores and five
//! dependent operations).
//!
//! `S_e` is kept in two words: `lo < 2^63` and `hi` counting units of `2^63`. A record
//! whose add reaches `2^63` carries (once in `2^10` records of one exponent at the
//! least): it stores `lo` with bit 63 still set (a carry in progress), then the new `hi`,
//! then the cleared `lo`, each after a release fence. A reader loads `hi`, `lo`, `hi`
//! with acquire fences between, and keeps the pair only when both `hi` agree and `lo` has
//! bit 63 clear, so it never pairs a `lo` with the wrong `hi`: a clear `lo` written after
//! some `hi` was stored is seen only together with that `hi` or a later one, which the
//! second load of `hi` would show. The writer never waits; a reader tries again. Stores
//! without a carry need no fence of their own: the last carry's fence precedes them too.
//!
//! Where the words live: beside dense counters, a slot for every exponent of the range
//! (16 bytes each); beside sparse ones, chunks of [`CHUNK`] exponents made with the first
//! block of one of their exponents, so memory follows the data; none in the interlocked
//! mode, whose sum is a running one per stripe.
//!
//! Reading rounds the exact total once: the words of every exponent are added into a
//! fixed-point integer of `WORDS` words (bit 0 is `2^-1074`), then its top 64 bits (the
//! lowest of them set when any bit below is) convert to the nearest double.

use core::sync::atomic::{AtomicPtr, Ordering};

use super::sum::WideSum;
use crate::concurrent::{acquire_fence, release_fence, AtomicCounter, Cell64, RawSlice};
use crate::oom::OutOfMemory;

/// Bit 63 of `lo`: a carry in progress.
const PENDING: u64 = 1 << 63;

/// The significand mask of a double's bits.
const MANTISSA: u64 = (1 << 52) - 1;

/// Words of the fixed-point total: `S_e < 2^127` shifted by up to `2045` bits, and the
/// sum of up to 2046 such terms, stays below `2^2173 < 2^(64·WORDS)`.
const WORDS: usize = 35;

/// Exponents per chunk of chunked sums.
pub(crate) const CHUNK: usize = 64;

/// Chunks covering every biased exponent (`0..2048`).
const CHUNKS: usize = 2048 / CHUNK;

/// Per exponent, the exact sum of the significands recorded with it (one sign).
pub(crate) struct OctaveSums {
    kind: Kind,
}

enum Kind {
    /// None kept (the interlocked mode).
    None,
    /// A slot for each exponent of the range (dense storage): `lo` and `hi` of exponent
    /// `first + k` at words `2k` and `2k + 1`; `first` is 1 or more (subnormals share
    /// exponent 1's slot).
    Flat { words: RawSlice<Cell64>, first: u64 },
    /// Chunks of [`CHUNK`] exponents made on first use, so that memory follows the data
    /// (sparse storage): exponent `e` at words `2·(e % CHUNK)` of chunk `e / CHUNK`, a
    /// leaked box of `2·CHUNK` cells published with a compare-and-swap, freed on drop.
    Chunked(RawSlice<AtomicPtr<Cell64>>),
}

/// Which sums to keep.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SumStorage {
    None,
    Flat,
    Chunked,
}

impl OctaveSums {
    /// Slots for the biased exponents of magnitudes `low..=high` (finite, `0 < low ≤ high`),
    /// kept as `storage` says.
    pub(crate) fn new(low: f64, high: f64, storage: SumStorage) -> Result<Self, OutOfMemory> {
        let kind = match storage {
            SumStorage::None => Kind::None,
            SumStorage::Flat => {
                let (first, last) = (exponent(low), exponent(high));
                let words =
                    crate::oom::try_vec(2 * (last - first + 1) as usize, || u64::new_cell(0))?;
                Kind::Flat {
                    words: RawSlice::new(words.into_boxed_slice()),
                    first,
                }
            }
            SumStorage::Chunked => Kind::Chunked(RawSlice::new(
                crate::oom::try_vec(CHUNKS, || AtomicPtr::new(core::ptr::null_mut()))?
                    .into_boxed_slice(),
            )),
        };
        Ok(OctaveSums { kind })
    }

    /// Bytes of the words (and of the chunk directory).
    pub(crate) fn footprint(&self) -> usize {
        match &self.kind {
            Kind::None => 0,
            Kind::Flat { words, .. } => words.len() * 8,
            Kind::Chunked(dir) => {
                let made = dir
                    .iter()
                    .filter(|p| !p.load(Ordering::Relaxed).is_null())
                    .count();
                made * 2 * CHUNK * 8 + dir.len() * core::mem::size_of::<AtomicPtr<Cell64>>()
            }
        }
    }

    /// The record's path, flat sums: the address of biased exponent `e`'s `lo` is this
    /// plus `2e` cells (wrapping arithmetic: the pointer itself may lie outside the
    /// words); null for other kinds.
    pub(crate) fn flat_biased_base(&self) -> *const Cell64 {
        match &self.kind {
            Kind::Flat { words, first } => words.as_ptr().wrapping_sub(2 * *first as usize),
            _ => core::ptr::null(),
        }
    }

    /// The record's path, chunked sums: the chunk directory (`2048 / CHUNK` pointers,
    /// null until made); null for other kinds.
    pub(crate) fn chunk_directory(&self) -> *const AtomicPtr<Cell64> {
        match &self.kind {
            Kind::Chunked(dir) => dir.as_ptr(),
            _ => core::ptr::null(),
        }
    }

    /// `lo` and `hi` of exponent `e` (1 or more) if its slot exists.
    fn slot(&self, e: u64) -> Option<(&Cell64, &Cell64)> {
        match &self.kind {
            Kind::None => None,
            Kind::Flat { words, first } => {
                let k = 2 * e.checked_sub(*first)? as usize;
                Some((words.get(k)?, words.get(k + 1)?))
            }
            Kind::Chunked(dir) => {
                let p = dir.get(e as usize / CHUNK)?.load(Ordering::Acquire);
                // SAFETY: a made chunk is `2·CHUNK` cells, alive until drop.
                (!p.is_null()).then(|| unsafe { chunk_slot(p, e) })
            }
        }
    }

    /// As [`OctaveSums::slot`], making the exponent's chunk when missing (chunked sums).
    fn slot_or_make(&self, e: u64) -> Option<(&Cell64, &Cell64)> {
        if let Some(s) = self.slot(e) {
            return Some(s);
        }
        let Kind::Chunked(dir) = &self.kind else {
            return None;
        };
        let p = crate::concurrent::publish_block::<u64>(dir.get(e as usize / CHUNK)?, 2 * CHUNK)?;
        // SAFETY: the published chunk of `2·CHUNK` cells, alive until drop.
        Some(unsafe { chunk_slot(p, e) })
    }

    /// Make the slot of biased exponent `e` (0 for subnormals) where slots are made on
    /// first use (chunked sums); false only when that fails for want of memory.
    pub(crate) fn make_for(&self, e: u64) -> bool {
        match self.kind {
            Kind::Chunked(_) => self.slot_or_make(e.max(1)).is_some(),
            _ => true,
        }
    }

    /// Add `n` times the magnitude `bits` (finite, nonzero, its exponent in the range; sign
    /// clear). False, with nothing added, when there is no slot (no sums kept, or no
    /// memory for a chunk) or the exponent's total would reach `2^126` (never from single
    /// records: that takes `2^73` of them); the caller then keeps the amount elsewhere.
    /// One thread adds at a time.
    pub(crate) fn add(&self, bits: u64, n: u64) -> bool {
        let e = bits >> 52;
        let m = if e == 0 {
            bits
        } else {
            (bits & MANTISSA) | (1 << 52)
        };
        let Some((lo, hi)) = self.slot_or_make(e.max(1)) else {
            return false;
        };
        let total = (u128::from(u64::load(hi)) << 63)
            + u128::from(u64::load(lo))
            + u128::from(m) * u128::from(n);
        if total >> 126 != 0 {
            return false;
        }
        let (new_lo, new_hi) = (total as u64 & !PENDING, (total >> 63) as u64);
        if new_hi == u64::load(hi) {
            release_fence();
            u64::store(lo, new_lo);
        } else {
            release_fence();
            u64::store(lo, u64::load(lo) | PENDING);
            release_fence();
            u64::store(hi, new_hi);
            release_fence();
            u64::store(lo, new_lo);
        }
        true
    }

    /// Each slot that exists, with its exponent.
    fn for_each_slot(&self, mut f: impl FnMut(u64, &Cell64, &Cell64)) {
        match &self.kind {
            Kind::None => {}
            Kind::Flat { words, first } => {
                for (k, pair) in words.chunks_exact(2).enumerate() {
                    f(*first + k as u64, &pair[0], &pair[1]);
                }
            }
            Kind::Chunked(dir) => {
                for (c, slot) in dir.iter().enumerate() {
                    let p = slot.load(Ordering::Acquire);
                    if !p.is_null() {
                        for e in (c * CHUNK) as u64..((c + 1) * CHUNK) as u64 {
                            // SAFETY: a made chunk, alive until drop; `e` in the chunk.
                            let (lo, hi) = unsafe { chunk_slot(p, e) };
                            f(e, lo, hi);
                        }
                    }
                }
            }
        }
    }

    /// Zero every slot (the caller excludes readers, as a reset does).
    pub(crate) fn clear(&self) {
        self.for_each_slot(|_, lo, hi| {
            u64::store(lo, 0);
            u64::store(hi, 0);
        });
    }

    /// Add every exponent's total, read consistently with a concurrent writer, into `acc`
    /// (bit 0 is `2^-1074`).
    fn add_into(&self, acc: &mut Fixed) {
        self.for_each_slot(|e, lo, hi| {
            let mut spins = 0;
            let total = loop {
                let h = u64::load(hi);
                acquire_fence();
                let l = u64::load(lo);
                acquire_fence();
                if l & PENDING == 0 && u64::load(hi) == h {
                    break (u128::from(h) << 63) | u128::from(l);
                }
                crate::concurrent::backoff(&mut spins);
            };
            if total != 0 {
                acc.add_shifted(total, (e.max(1) - 1) as usize);
            }
        });
    }
}

impl Drop for OctaveSums {
    fn drop(&mut self) {
        if let Kind::Chunked(dir) = &mut self.kind {
            // SAFETY: every chunk was published by `publish_block` with `2·CHUNK` cells;
            // `&mut self`: no other user, the only free.
            unsafe { crate::concurrent::free_blocks::<u64>(dir, 2 * CHUNK) };
        }
    }
}

/// `lo` and `hi` of exponent `e` in the chunk that starts at `p`.
///
/// # Safety
/// `p` is a made chunk of `2·CHUNK` cells, alive for `'a`; `e` is any exponent (its place
/// in the chunk is taken modulo [`CHUNK`]).
unsafe fn chunk_slot<'a>(p: *const Cell64, e: u64) -> (&'a Cell64, &'a Cell64) {
    let k = 2 * (e as usize % CHUNK);
    // SAFETY: `k + 1 < 2·CHUNK`, within the chunk (the caller's promise).
    unsafe { (&*p.add(k), &*p.add(k + 1)) }
}

/// Add the magnitude `bits` (a normal double's, sign clear) at `lo`, its exponent's slot:
/// the record's path. One thread adds at a time.
///
/// # Safety
/// `lo` is the `lo` word of the slot of the magnitude's exponent in sums alive for the
/// call (the word after it is `hi`).
#[inline(always)]
pub(crate) unsafe fn add_significand(lo: *const Cell64, bits: u64) {
    let m = (bits & MANTISSA) | (1 << 52);
    // SAFETY: the slot's `lo` (the caller's promise).
    let sum = u64::load(unsafe { &*lo }) + m;
    if sum & PENDING == 0 {
        // No fence: the release fence of the last carry precedes this store too.
        // SAFETY: as above.
        u64::store(unsafe { &*lo }, sum);
    } else {
        // SAFETY: as above; `hi` follows `lo`.
        unsafe { carry(&*lo, &*lo.add(1), sum) };
    }
}

/// `lo + m` reached `2^63`: move `2^63` into `hi` (see the module docs for the order).
#[cold]
#[inline(never)]
fn carry(lo: &Cell64, hi: &Cell64, sum: u64) {
    release_fence();
    u64::store(lo, sum);
    release_fence();
    u64::store(hi, u64::load(hi) + 1);
    release_fence();
    u64::store(lo, sum & !PENDING);
}

/// The biased exponent whose slot holds magnitude `x` (finite, `x > 0`).
fn exponent(x: f64) -> u64 {
    (x.to_bits() >> 52).max(1)
}

/// A nonnegative fixed-point number: `Σ words[k] · 2^(64k − 1074)`.
struct Fixed([u64; WORDS]);

impl Fixed {
    /// Add `v · 2^shift` (in units of `2^-1074`).
    fn add_shifted(&mut self, v: u128, shift: usize) {
        let (word, bit) = (shift / 64, (shift % 64) as u32);
        let (p0, p1) = (v as u64, (v >> 64) as u64);
        let parts = if bit == 0 {
            [p0, p1, 0]
        } else {
            [
                p0 << bit,
                (p1 << bit) | (p0 >> (64 - bit)),
                p1 >> (64 - bit),
            ]
        };
        let mut carry = false;
        for (k, w) in self.0[word..].iter_mut().enumerate() {
            let part = parts.get(k).copied().unwrap_or(0);
            if k >= parts.len() && !carry {
                break;
            }
            let (s, c1) = w.overflowing_add(part);
            let (s, c2) = s.overflowing_add(u64::from(carry));
            *w = s;
            carry = c1 || c2;
        }
    }

    /// `self − other` when `self ≥ other` (else `None`).
    fn minus(&self, other: &Fixed) -> Option<Fixed> {
        let mut out = [0u64; WORDS];
        let mut borrow = false;
        for ((o, &a), &b) in out.iter_mut().zip(&self.0).zip(&other.0) {
            let (d, b1) = a.overflowing_sub(b);
            let (d, b2) = d.overflowing_sub(u64::from(borrow));
            *o = d;
            borrow = b1 || b2;
        }
        (!borrow).then_some(Fixed(out))
    }

    /// The nearest double as a [`WideSum`] (`small` when below `2^1024`, else `big`).
    fn to_wide(&self) -> WideSum {
        let Some(top) = (0..WORDS).rev().find(|&k| self.0[k] != 0) else {
            return WideSum::default();
        };
        if top == 0 {
            // Below 2^64 units: one conversion, then an exact scaling (a result of 53 bits
            // or fewer is exact; a longer one is at least 2^-1021, a normal double).
            return WideSum {
                small: pow2_times(self.0[0] as f64, -1074),
                big: 0.0,
            };
        }
        // The 64 bits from the highest set one down, the lowest of them set when any bit
        // below is nonzero: the conversion then rounds as the whole number would.
        let lead = self.0[top].leading_zeros();
        let high = if lead == 0 {
            self.0[top]
        } else {
            (self.0[top] << lead) | (self.0[top - 1] >> (64 - lead))
        };
        let below_mask = if lead == 0 {
            u64::MAX
        } else {
            (1u64 << (64 - lead)) - 1
        };
        let sticky =
            (self.0[top - 1] & below_mask) != 0 || self.0[..top - 1].iter().any(|&w| w != 0);
        let head = (high | u64::from(sticky)) as f64;
        // `high` holds bits `64·top + 63 − lead` down to `64·top − lead`.
        let scale = 64 * top as i32 - lead as i32 - 1074;
        let small = pow2_times(head, scale);
        if small.is_finite() {
            WideSum { small, big: 0.0 }
        } else {
            WideSum {
                small: 0.0,
                big: pow2_times(head, scale - 256),
            }
        }
    }
}

/// `x · 2^k` for `|k| ≤ 2100`, in steps that stay normal (exact when the result is normal).
fn pow2_times(x: f64, k: i32) -> f64 {
    let step = |k: i32| f64::from_bits(((1023 + k) as u64) << 52);
    let mut x = x;
    let mut k = k;
    while k != 0 {
        let s = k.clamp(-1000, 1000);
        x *= step(s);
        k -= s;
    }
    x
}

/// The exact sum of the positive and negative sides' totals, rounded once.
pub(crate) fn exact_sum(pos: &OctaveSums, neg: &OctaveSums) -> WideSum {
    let (mut p, mut n) = (Fixed([0; WORDS]), Fixed([0; WORDS]));
    pos.add_into(&mut p);
    neg.add_into(&mut n);
    match p.minus(&n) {
        Some(d) => d.to_wide(),
        None => {
            let d = n.minus(&p).unwrap_or(Fixed([0; WORDS])).to_wide();
            WideSum {
                small: -d.small,
                big: -d.big,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::sum::DOWN;
    use super::*;

    /// `2^k`, exactly (Miri perturbs `powi`).
    fn two(k: i32) -> f64 {
        f64::from_bits(((1023 + k) as u64) << 52)
    }

    const KINDS: [SumStorage; 2] = [SumStorage::Flat, SumStorage::Chunked];

    /// Both signs' sums for magnitudes `low..=high`.
    fn sums(kind: SumStorage, low: f64, high: f64) -> (OctaveSums, OctaveSums) {
        (
            OctaveSums::new(low, high, kind).unwrap(),
            OctaveSums::new(low, high, kind).unwrap(),
        )
    }

    /// Record `|x|` as the record's path does (the general path for subnormals).
    fn record(s: &OctaveSums, x: f64) {
        let bits = x.abs().to_bits();
        let e = bits >> 52;
        if e != 0 {
            let lo = match s.flat_biased_base() {
                p if !p.is_null() => p.wrapping_add(2 * e as usize),
                _ => {
                    // As `Cells::make_block` and the record do.
                    assert!(s.make_for(e));
                    // SAFETY: the directory covers every exponent; the chunk was made.
                    let chunk = unsafe { &*s.chunk_directory().add(e as usize / CHUNK) }
                        .load(Ordering::Acquire);
                    chunk.wrapping_add(2 * (e as usize % CHUNK)) as *const Cell64
                }
            };
            // SAFETY: the slot of a normal magnitude within the range each test gives
            // `new`.
            unsafe { add_significand(lo, bits) };
        } else {
            assert!(s.add(bits, 1));
        }
    }

    #[test]
    fn chunks_are_made_on_first_use_and_none_keeps_nothing() {
        let (pos, _) = sums(SumStorage::Chunked, f64::from_bits(1), f64::MAX);
        assert_eq!(pos.footprint(), CHUNKS * 8);
        record(&pos, 3.0);
        record(&pos, 1e300);
        assert_eq!(pos.footprint(), CHUNKS * 8 + 2 * (2 * CHUNK * 8));
        let none = OctaveSums::new(1.0, 2.0, SumStorage::None).unwrap();
        assert_eq!(none.footprint(), 0);
        assert!(!none.add(1.5f64.to_bits(), 1));
        assert!(none.flat_biased_base().is_null() && none.chunk_directory().is_null());
        let (flat, _) = sums(SumStorage::Flat, 1.0, 1e3);
        assert_eq!(flat.footprint(), 2 * 10 * 8);
    }

    #[test]
    fn sums_that_doubles_cannot_hold_come_out_rounded_once() {
        for kind in KINDS {
            let (pos, neg) = sums(kind, 1e-300, 1e300);
            // 1 + 2^-60 + 2^-60 ... : a running double sum would lose every small term.
            record(&pos, 1.0);
            for _ in 0..1024 {
                record(&pos, two(-60));
            }
            assert_eq!(exact_sum(&pos, &neg).value(), 1.0 + two(-50));
            // Cancellation: 1e300 − 1e300 + 3 is 3 exactly.
            record(&pos, 1e300);
            record(&neg, 1e300);
            let s = exact_sum(&pos, &neg).value();
            assert_eq!(s, 1.0 + two(-50));
            record(&neg, 1.0);
            assert_eq!(exact_sum(&pos, &neg).value(), two(-50));
            record(&neg, 1.0);
            assert_eq!(exact_sum(&pos, &neg).value(), -1.0 + two(-50));
        }
    }

    #[test]
    fn carries_keep_the_total_and_overflowing_sums_move_to_the_wide_part() {
        for kind in KINDS {
            let (pos, neg) = sums(kind, 1.0, 4.0);
            // Each record adds the significand 2^53 − 1 to `lo`: 1024 of them stay below
            // 2^63 and the 1025th crosses it, so 1100 carry once (few enough for Miri).
            let x = 1.9999999999999998f64;
            for _ in 0..1100 {
                record(&pos, x);
            }
            assert_eq!(exact_sum(&pos, &neg).value(), 1100.0 * x);
            assert!(pos.add(x.to_bits(), 1 << 40));
            let want = (1100.0 + (1u64 << 40) as f64) * x;
            assert_eq!(exact_sum(&pos, &neg).value(), want);
            // Past f64::MAX the total reads +∞ and its scaled part holds it.
            let four = f64::MAX * DOWN * 4.0;
            let (big, none) = sums(kind, 1e300, f64::MAX);
            assert!(big.add(f64::MAX.to_bits(), 4));
            let w = exact_sum(&big, &none);
            assert_eq!(w.value(), f64::INFINITY);
            assert_eq!(w.scaled(), four);
            assert_eq!(exact_sum(&none, &big).scaled(), -four);
            // A total that would reach 2^126 is refused, the slot's two words unchanged
            // (read as words: a whole sum each call would be most of the test under Miri).
            let e = f64::MAX.to_bits() >> 52;
            let words = |s: &OctaveSums| {
                let (lo, hi) = s.slot(e).expect("the slot of f64::MAX's exponent");
                (u64::load(lo), u64::load(hi))
            };
            for calls in 0.. {
                assert!(calls < 1 << 10, "never refused");
                let before = words(&big);
                if !big.add(f64::MAX.to_bits(), u64::MAX) {
                    assert_eq!(words(&big), before);
                    break;
                }
            }
        }
    }

    #[test]
    fn subnormals_and_the_smallest_normals_share_a_slot() {
        for kind in KINDS {
            // Up to 4·MIN_POSITIVE: three slots, not the thousand up to 1.0 that every
            // whole sum below would read (minutes under Miri).
            let (pos, neg) = sums(kind, f64::from_bits(1), 4.0 * f64::MIN_POSITIVE);
            let tiny = f64::from_bits(1);
            record(&pos, tiny);
            record(&pos, tiny);
            record(&pos, f64::MIN_POSITIVE);
            assert_eq!(
                exact_sum(&pos, &neg).value(),
                f64::MIN_POSITIVE + f64::from_bits(2)
            );
            record(&neg, f64::MIN_POSITIVE);
            assert_eq!(exact_sum(&pos, &neg).value(), f64::from_bits(2));
            pos.clear();
            neg.clear();
            assert_eq!(exact_sum(&pos, &neg).value(), 0.0);
        }
    }

    #[test]
    fn rounding_is_to_nearest_with_ties_to_even() {
        for kind in KINDS {
            let (pos, neg) = sums(kind, 1e-20, 1e20);
            // 2^53 + 1 is a tie between 2^53 and 2^53 + 2: even, 2^53.
            record(&pos, two(53));
            record(&pos, 1.0);
            assert_eq!(exact_sum(&pos, &neg).value(), two(53));
            // A bit far below breaks the tie upwards.
            record(&pos, two(-60));
            assert_eq!(exact_sum(&pos, &neg).value(), two(53) + 2.0);
        }
    }
}
