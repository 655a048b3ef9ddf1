//! Exact sums of counters (the scan every query starts with), at the speed of the memory
//! they stream from (the counter-by-counter adds of a merge are in `merge.rs`).
//!
//! A `u64` count can be as large as the sum's lane, so summing in `u64` lanes is exact only
//! where no lane can wrap. Rather than widen every count (half the lanes, twice the
//! work), a run of up to 4,096 counts is summed modulo 2^64 while the same pass ORs them
//! together: when the OR shows every count below 2^32, 4,096 of them cannot have wrapped
//! and the sum is exact. Only a run holding a count of 2^32 or more is summed again, by
//! halves (the low and the high 32 bits of each count in lanes of their own).

/// Counts summed together before the fast sum checks its premise: a run of at most 2^32
/// counts below 2^32 each cannot carry out of a `u64`.
pub(crate) const CHECKED_RUN: usize = 1 << 12;

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

/// `(Σ run mod 2^64, OR of run)`: with AVX2 where the CPU has it (16 counts a step), else
/// with SSE2 (8).
#[cfg(target_arch = "x86_64")]
#[inline]
fn wrapping_sum_and_or(run: &[u64]) -> (u64, u64) {
    if crate::cpu::has_avx2() {
        // SAFETY: the CPU has AVX2 (CPUID, with the OS saving its registers).
        unsafe { wrapping_sum_and_or_avx2(run) }
    } else {
        wrapping_sum_and_or_sse2(run)
    }
}

/// `(Σ run mod 2^64, OR of run)`: sixteen counts a step in four AVX2 registers of sums,
/// so the adds of one step do not wait on the step before.
///
/// # Safety
/// The CPU must have AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn wrapping_sum_and_or_avx2(run: &[u64]) -> (u64, u64) {
    use core::arch::x86_64::{
        __m256i, _mm256_add_epi64, _mm256_loadu_si256, _mm256_or_si256, _mm256_setzero_si256,
        _mm256_storeu_si256,
    };
    let mut sixteens = run.chunks_exact(16);
    let mut lanes = [[0u64; 4]; 2];
    let zero = _mm256_setzero_si256();
    let (mut sums, mut or_a, mut or_b) = ([zero; 4], zero, zero);
    for sixteen in &mut sixteens {
        let p = sixteen.as_ptr() as *const __m256i;
        // SAFETY: each load reads 32 bytes inside `sixteen`, a slice of sixteen `u64`
        // (128 bytes), at offsets 0, 32, 64 and 96; unaligned loads are allowed.
        let v = unsafe {
            [
                _mm256_loadu_si256(p),
                _mm256_loadu_si256(p.add(1)),
                _mm256_loadu_si256(p.add(2)),
                _mm256_loadu_si256(p.add(3)),
            ]
        };
        for k in 0..4 {
            sums[k] = _mm256_add_epi64(sums[k], v[k]);
        }
        or_a = _mm256_or_si256(or_a, _mm256_or_si256(v[0], v[1]));
        or_b = _mm256_or_si256(or_b, _mm256_or_si256(v[2], v[3]));
    }
    let sum = _mm256_add_epi64(
        _mm256_add_epi64(sums[0], sums[1]),
        _mm256_add_epi64(sums[2], sums[3]),
    );
    // SAFETY: each store writes 32 bytes into a `[u64; 4]`.
    unsafe {
        _mm256_storeu_si256(lanes[0].as_mut_ptr() as *mut __m256i, sum);
        _mm256_storeu_si256(
            lanes[1].as_mut_ptr() as *mut __m256i,
            _mm256_or_si256(or_a, or_b),
        );
    }
    let (sum, any) = wrapping_sum_and_or_sse2(sixteens.remainder());
    let sum = lanes[0].iter().fold(sum, |s, &c| s.wrapping_add(c));
    (sum, lanes[1].iter().fold(any, |o, &c| o | c))
}

/// `(Σ run mod 2^64, OR of run)`: eight counts a step in four SSE2 registers of sums, so
/// the adds of one step do not wait on the step before.
#[cfg(target_arch = "x86_64")]
#[inline]
fn wrapping_sum_and_or_sse2(run: &[u64]) -> (u64, u64) {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// `(Σ mod 2^64, OR)` the plain way.
    fn plain(run: &[u64]) -> (u64, u64) {
        run.iter()
            .fold((0, 0), |(s, o), &c| (s.wrapping_add(c), o | c))
    }

    #[test]
    fn every_vector_path_sums_and_ors_as_the_plain_loop() {
        // Counts of every size (wrapping sums included), at every length around the
        // vector steps, from every offset (unaligned loads).
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        // An array, not a Vec: the core's tests also build without an allocator.
        let mut counts = [0u64; 300];
        for (i, c) in counts.iter_mut().enumerate() {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            *c = x >> (x % 64) >> (i % 3 * 20);
        }
        for first in 0..17 {
            for end in first..counts.len() {
                let run = &counts[first..end];
                assert_eq!(wrapping_sum_and_or(run), plain(run), "{first}..{end}");
                #[cfg(target_arch = "x86_64")]
                assert_eq!(wrapping_sum_and_or_sse2(run), plain(run), "{first}..{end}");
                let exact: u128 = run.iter().map(|&c| c as u128).sum();
                assert_eq!(sum_u64(run), exact, "{first}..{end}");
            }
        }
    }
}
