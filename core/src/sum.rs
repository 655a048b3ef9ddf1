//! Exact sums of counters (the scan every query starts with) and counter-by-counter
//! adds (a merge of the same buckets), at the speed of the memory they stream from.
//!
//! A `u64` count can be as large as the sum's lane, so summing in `u64` lanes is exact only
//! where no lane can wrap. Rather than widen every count (half the lanes, twice the
//! work), a run of up to 4,096 counts is summed modulo 2^64 while the same pass ORs them
//! together: when the OR shows every count below 2^32, 4,096 of them cannot have wrapped
//! and the sum is exact. Only a run holding a count of 2^32 or more is summed again, by
//! halves (the low and the high 32 bits of each count in lanes of their own).

use crate::counter::Counter;

/// Counts summed together before the fast sum checks its premise: a run of at most 2^32
/// counts below 2^32 each cannot carry out of a `u64`.
const CHECKED_RUN: usize = 1 << 12;

/// Elements summed into one `u64` lane before it is widened: each adds below 2^32 (a
/// `u32`, or half of a `u64`), so 2^31 of them cannot carry out.
const LANE_RUN: usize = 1 << 31;

/// `Σ counts`, exact: 32-bit counts add in `u64` lanes.
#[inline]
pub(crate) fn sum_u32(counts: &[u32]) -> u128 {
    counts
        .chunks(LANE_RUN)
        .map(|run| run.iter().map(|&c| c as u64).sum::<u64>() as u128)
        .sum()
}

/// `Σ counts`, exact (see the module docs).
#[inline]
pub(crate) fn sum_u64(counts: &[u64]) -> u128 {
    sum_checked(counts, wrapping_sum_and_or, sum_by_halves)
}

/// The exact sum of what `items` count, in runs of [`CHECKED_RUN`] (the module docs' rule,
/// for any storage): `wrapping(run)` gives a run's sum modulo 2^64 and the OR of its
/// counts; a run holding a count of 2^32 or more is summed again by `wide(run)`.
#[inline]
pub(crate) fn sum_checked<T>(
    items: &[T],
    wrapping: impl Fn(&[T]) -> (u64, u64),
    wide: impl Fn(&[T]) -> u128,
) -> u128 {
    let mut total = 0u128;
    for run in items.chunks(CHECKED_RUN) {
        let (sum, any) = wrapping(run);
        total += if any >> 32 == 0 {
            sum as u128
        } else {
            wide(run)
        };
    }
    total
}

/// `Σ run` for a run of at most 2^31 counts, the halves of each count in lanes of their own.
fn sum_by_halves(run: &[u64]) -> u128 {
    let (mut low, mut high) = (0u64, 0u64);
    for &c in run {
        low += c & 0xffff_ffff;
        high += c >> 32;
    }
    low as u128 + ((high as u128) << 32)
}

/// `(Σ run mod 2^64, OR of run)`: eight counts a step in four SSE2 registers of sums, so
/// the adds of one step do not wait on the step before.
#[cfg(target_arch = "x86_64")]
#[inline]
fn wrapping_sum_and_or(run: &[u64]) -> (u64, u64) {
    use core::arch::x86_64::{
        __m128i, _mm_add_epi64, _mm_loadu_si128, _mm_or_si128, _mm_setzero_si128, _mm_storeu_si128,
    };
    let mut eights = run.chunks_exact(8);
    let mut lanes = [[0u64; 2]; 2];
    #[allow(unused_unsafe)]
    // SAFETY: SSE2 is part of every x86-64 CPU. Each load reads 16 bytes inside `eight`, a
    // slice of eight `u64` (64 bytes), at offsets 0, 16, 32 and 48, unaligned loads being
    // allowed; the stores write 16 bytes into a `[u64; 2]`.
    unsafe {
        let zero = _mm_setzero_si128();
        let mut sums = [zero; 4];
        let (mut or_a, mut or_b) = (zero, zero);
        for eight in &mut eights {
            let p = eight.as_ptr() as *const __m128i;
            let v = [
                _mm_loadu_si128(p),
                _mm_loadu_si128(p.add(1)),
                _mm_loadu_si128(p.add(2)),
                _mm_loadu_si128(p.add(3)),
            ];
            for k in 0..4 {
                sums[k] = _mm_add_epi64(sums[k], v[k]);
            }
            or_a = _mm_or_si128(or_a, _mm_or_si128(v[0], v[1]));
            or_b = _mm_or_si128(or_b, _mm_or_si128(v[2], v[3]));
        }
        let sum = _mm_add_epi64(
            _mm_add_epi64(sums[0], sums[1]),
            _mm_add_epi64(sums[2], sums[3]),
        );
        _mm_storeu_si128(lanes[0].as_mut_ptr() as *mut __m128i, sum);
        _mm_storeu_si128(
            lanes[1].as_mut_ptr() as *mut __m128i,
            _mm_or_si128(or_a, or_b),
        );
    }
    let tail = eights.remainder();
    let sum = tail
        .iter()
        .fold(lanes[0][0].wrapping_add(lanes[0][1]), |s, &c| {
            s.wrapping_add(c)
        });
    let any = tail.iter().fold(lanes[1][0] | lanes[1][1], |o, &c| o | c);
    (sum, any)
}

/// `(Σ run mod 2^64, OR of run)`, in a loop the compiler vectorizes for the target.
#[cfg(not(target_arch = "x86_64"))]
#[inline]
fn wrapping_sum_and_or(run: &[u64]) -> (u64, u64) {
    run.iter()
        .fold((0u64, 0u64), |(s, o), &c| (s.wrapping_add(c), o | c))
}

/// Adds `src` to `dst` counter by counter (equal lengths), each sum capped at `C::MAX`;
/// returns what the caps held back (the caller counts it as saturated).
///
/// Each run of 4,096 is added wrapping while the same pass ORs the counts it adds: when
/// the OR stays at or below half of `C::MAX`, no sum of the run can have passed `C::MAX`
/// (a loop of plain adds, which the compiler vectorizes). Otherwise the run's adds are
/// taken back (wrapping subtraction undoes wrapping addition) and done capped, one by one.
pub(crate) fn add_counts<C: Counter, C2: Counter>(dst: &mut [C], src: &[C2]) -> u64 {
    debug_assert_eq!(dst.len(), src.len());
    let half = C::MAX.to_u64() >> 1;
    let mut excess = 0u64;
    for (mine, theirs) in dst.chunks_mut(CHECKED_RUN).zip(src.chunks(CHECKED_RUN)) {
        let mut any = 0u64;
        for (m, n) in mine.iter_mut().zip(theirs) {
            any |= m.to_u64() | n.to_u64();
            *m = C::from_u64_wrapping(m.to_u64().wrapping_add(n.to_u64()));
        }
        if any > half {
            for (m, n) in mine.iter_mut().zip(theirs) {
                *m = C::from_u64_wrapping(m.to_u64().wrapping_sub(n.to_u64()));
            }
            excess = excess.saturating_add(add_capped(mine, theirs));
        }
    }
    excess
}

/// `dst += src` counter by counter, each sum capped at `C::MAX`; what the caps held back.
fn add_capped<C: Counter, C2: Counter>(dst: &mut [C], src: &[C2]) -> u64 {
    let max = C::MAX.to_u64();
    let mut excess = 0u64;
    for (mine, theirs) in dst.iter_mut().zip(src) {
        let (m, n) = (mine.to_u64(), theirs.to_u64());
        let sum = m.saturating_add(n).min(max);
        *mine = C::from_u64_wrapping(sum);
        excess = excess.saturating_add(n - (sum - m));
    }
    excess
}

/// The index of the last non-zero count, reading eight counts a step.
pub(crate) fn last_nonzero<C: Counter>(counts: &[C]) -> Option<usize> {
    let whole = counts.len() - counts.len() % 8;
    if let Some(i) = counts[whole..].iter().rposition(|&c| c != C::ZERO) {
        return Some(whole + i);
    }
    let mut eights = counts[..whole].chunks_exact(8);
    let at = eights.rposition(|e| e.iter().fold(0, |o, &c| o | c.to_u64()) != 0)?;
    let last = counts[8 * at..8 * at + 8]
        .iter()
        .rposition(|&c| c != C::ZERO)?;
    Some(8 * at + last)
}

/// The index of the first non-zero count, reading eight counts a step.
pub(crate) fn first_nonzero<C: Counter>(counts: &[C]) -> Option<usize> {
    let mut eights = counts.chunks_exact(8);
    match eights
        .by_ref()
        .position(|e| e.iter().fold(0, |o, &c| o | c.to_u64()) != 0)
    {
        Some(at) => Some(8 * at + counts[8 * at..].iter().position(|&c| c != C::ZERO)?),
        None => {
            let tail = eights.remainder();
            let i = tail.iter().position(|&c| c != C::ZERO)?;
            Some(counts.len() - tail.len() + i)
        }
    }
}
