//! The vector paths of [`super::BatchPath`] on x86-64: AVX2 (four values a vector) and
//! AVX-512 (eight). Each function with a `target_feature` is called only after
//! [`available`] said this CPU has that feature.

use core::arch::x86_64::*;

#[cfg(picollo_float)]
use super::Gates;
use super::{BatchPath, Fold, Offsets};

/// Whether this CPU runs `path` (a vector path).
pub(super) fn available(path: BatchPath) -> bool {
    match path {
        BatchPath::Portable => true,
        BatchPath::Avx2 => has_avx2(),
        BatchPath::Avx512 => cfg!(picollo_avx512) && has_avx512(),
    }
}

#[cfg(feature = "std")]
fn has_avx2() -> bool {
    std::is_x86_feature_detected!("avx2")
}

#[cfg(all(feature = "std", picollo_avx512))]
#[allow(clippy::incompatible_msrv)]
fn has_avx512() -> bool {
    std::is_x86_feature_detected!("avx512f") && std::is_x86_feature_detected!("avx512cd")
}

#[cfg(all(feature = "std", not(picollo_avx512)))]
fn has_avx512() -> bool {
    false
}

#[cfg(not(feature = "std"))]
fn has_avx2() -> bool {
    cfg!(target_feature = "avx2")
}

#[cfg(not(feature = "std"))]
fn has_avx512() -> bool {
    cfg!(all(target_feature = "avx512f", target_feature = "avx512cd"))
}

#[cfg(feature = "std")]
extern crate std;

/// A value slice and its output cut where the last whole vector of `path`'s lanes ends
/// (8 for AVX-512, else 4): the body goes the vector way, the tail the portable way.
type Cut<'a, T> = ((&'a [T], &'a mut [u64]), (&'a [T], &'a mut [u64]));

fn split<'a, T>(path: BatchPath, values: &'a [T], out: &'a mut [u64]) -> Cut<'a, T> {
    let lanes = match path {
        BatchPath::Avx512 => 8,
        _ => 4,
    };
    let whole = values.len() / lanes * lanes;
    let (body, tail) = values.split_at(whole);
    let (out_body, out_tail) = out.split_at_mut(whole);
    ((body, out_body), (tail, out_tail))
}

/// The offsets of `values` into `out` on `path`, which this CPU runs, and their fold; the
/// tail shorter than a vector goes the portable way.
pub(super) fn fill(o: &Offsets, path: BatchPath, values: &[u64], out: &mut [u64]) -> Fold {
    let ((body, out_body), (tail, out_tail)) = split(path, values, out);
    let fold = match path {
        // SAFETY: the caller found AVX2 on this CPU (`available`); the slices are as long
        // as each other, and the function reads and writes within them.
        BatchPath::Avx2 => unsafe { fill_avx2(o, body, out_body) },
        #[cfg(picollo_avx512)]
        // SAFETY: the caller found AVX-512F and CD on this CPU (`available`); as above.
        BatchPath::Avx512 => unsafe { fill_avx512(o, body, out_body) },
        _ => o.fill_portable(body, out_body),
    };
    fold.and(o.fill_portable(tail, out_tail))
}

/// Four values a vector. `⌊log2 x⌋` of `x = v | fine` (never 0) from a double's exponent:
/// the 32-bit half holding `x`'s highest bit (the high half when it is not zero, else the
/// low) is made a double exactly (its bits under 2^52's, less 2^52), whose exponent is
/// that bit's position; the high half adds 32. The fold's unsigned compares are signed ones
/// of the values with their top bit flipped.
///
/// # Safety
/// The CPU has AVX2; `out` is as long as `values`, a multiple of 4.
#[target_feature(enable = "avx2")]
unsafe fn fill_avx2(o: &Offsets, values: &[u64], out: &mut [u64]) -> Fold {
    let fine = _mm256_set1_epi64x(o.fine as i64);
    let low_half = _mm256_set1_epi64x(0xFFFF_FFFF);
    let magic = _mm256_set1_epi64x(0x4330_0000_0000_0000);
    let two52 = _mm256_set1_pd(4_503_599_627_370_496.0);
    // 1023 for the exponent's bias, plus the block scale: what the exponent less is `step`.
    let bias = _mm256_set1_epi64x(1023 + i64::from(o.scale));
    let thirty_two = _mm256_set1_epi64x(32);
    let first = _mm256_set1_epi64x(o.first as i64);
    let scale = _mm_set_epi64x(0, i64::from(o.scale));
    let top_bit = _mm256_set1_epi64x(i64::MIN);
    let len = _mm256_set1_epi64x((o.len ^ (1 << 63)) as i64);
    let (mut lo, mut hi) = (_mm256_set1_epi64x(i64::MAX), top_bit);
    let mut outside = 0;
    for (v4, o4) in values.chunks_exact(4).zip(out.chunks_exact_mut(4)) {
        // SAFETY: `v4` holds 4 readable `u64`s (unaligned load).
        let v = unsafe { _mm256_loadu_si256(v4.as_ptr().cast()) };
        let x = _mm256_or_si256(v, fine);
        let high = _mm256_srli_epi64::<32>(x);
        let high_zero = _mm256_cmpeq_epi64(high, _mm256_setzero_si256());
        let half = _mm256_blendv_epi8(high, _mm256_and_si256(x, low_half), high_zero);
        let d = _mm256_sub_pd(_mm256_castsi256_pd(_mm256_or_si256(half, magic)), two52);
        let exponent = _mm256_srli_epi64::<52>(_mm256_castpd_si256(d));
        let above = _mm256_andnot_si256(high_zero, thirty_two);
        let step = _mm256_sub_epi64(_mm256_add_epi64(exponent, above), bias);
        let index = _mm256_add_epi64(_mm256_sll_epi64(step, scale), _mm256_srlv_epi64(v, step));
        let offset = _mm256_sub_epi64(index, first);
        let inside = _mm256_cmpgt_epi64(len, _mm256_xor_si256(offset, top_bit));
        let flipped = _mm256_xor_si256(v, top_bit);
        let below = _mm256_and_si256(inside, _mm256_cmpgt_epi64(lo, flipped));
        let above = _mm256_and_si256(inside, _mm256_cmpgt_epi64(flipped, hi));
        lo = _mm256_blendv_epi8(lo, flipped, below);
        hi = _mm256_blendv_epi8(hi, flipped, above);
        outside += 4 - _mm256_movemask_pd(_mm256_castsi256_pd(inside)).count_ones() as usize;
        // SAFETY: `o4` holds 4 writable `u64`s (unaligned store).
        unsafe { _mm256_storeu_si256(o4.as_mut_ptr().cast(), offset) };
    }
    let (mut los, mut his) = ([0i64; 4], [0i64; 4]);
    // SAFETY: each array holds 4 writable `i64`s (unaligned stores).
    unsafe {
        _mm256_storeu_si256(los.as_mut_ptr().cast(), lo);
        _mm256_storeu_si256(his.as_mut_ptr().cast(), hi);
    }
    let unflip = |x: i64| (x as u64) ^ (1 << 63);
    Fold {
        outside,
        lo: los.into_iter().map(unflip).min().unwrap_or(u64::MAX),
        hi: his.into_iter().map(unflip).max().unwrap_or(0),
    }
}

/// Eight values a vector, the logarithm `63 − lzcnt(x)`; the fold with masked unsigned
/// minimum and maximum.
///
/// # Safety
/// The CPU has AVX-512F and AVX-512CD; `out` is as long as `values`, a multiple of 8.
// Compiled only where the compiler has them (`picollo_avx512`: Rust 1.89 or later).
#[cfg(picollo_avx512)]
#[allow(clippy::incompatible_msrv)]
#[target_feature(enable = "avx512f,avx512cd")]
unsafe fn fill_avx512(o: &Offsets, values: &[u64], out: &mut [u64]) -> Fold {
    let fine = _mm512_set1_epi64(o.fine as i64);
    let top = _mm512_set1_epi64(63 - i64::from(o.scale));
    let first = _mm512_set1_epi64(o.first as i64);
    let scale = _mm_set_epi64x(0, i64::from(o.scale));
    let len = _mm512_set1_epi64(o.len as i64);
    let (mut lo, mut hi) = (_mm512_set1_epi64(-1), _mm512_setzero_si512());
    let mut outside = 0;
    for (v8, o8) in values.chunks_exact(8).zip(out.chunks_exact_mut(8)) {
        // SAFETY: `v8` holds 8 readable `u64`s (unaligned load).
        let v = unsafe { _mm512_loadu_si512(v8.as_ptr().cast()) };
        let step = _mm512_sub_epi64(top, _mm512_lzcnt_epi64(_mm512_or_si512(v, fine)));
        let index = _mm512_add_epi64(_mm512_sll_epi64(step, scale), _mm512_srlv_epi64(v, step));
        let offset = _mm512_sub_epi64(index, first);
        let inside = _mm512_cmplt_epu64_mask(offset, len);
        lo = _mm512_mask_min_epu64(lo, inside, lo, v);
        hi = _mm512_mask_max_epu64(hi, inside, hi, v);
        outside += (!inside).count_ones() as usize;
        // SAFETY: `o8` holds 8 writable `u64`s (unaligned store).
        unsafe { _mm512_storeu_si512(o8.as_mut_ptr().cast(), offset) };
    }
    Fold {
        outside,
        lo: _mm512_reduce_min_epu64(lo),
        hi: _mm512_reduce_max_epu64(hi),
    }
}

/// The gates of `values` into `out` on `path`, which this CPU runs (see [`Gates::fill`]).
#[cfg(picollo_float)]
pub(super) fn gates(g: &Gates, path: BatchPath, values: &[f64], out: &mut [u64]) {
    let ((body, out_body), (tail, out_tail)) = split(path, values, out);
    match path {
        // SAFETY: the caller found AVX2 on this CPU (`available`); the slices are as long
        // as each other, and the function reads and writes within them.
        BatchPath::Avx2 => unsafe { gates_avx2(g, body, out_body) },
        #[cfg(picollo_avx512)]
        // SAFETY: the caller found AVX-512F on this CPU (`available`); as above.
        BatchPath::Avx512 => unsafe { gates_avx512(g, body, out_body) },
        _ => g.fill_portable(body, out_body),
    }
    g.fill_portable(tail, out_tail);
}

/// Four values a vector: each lane's sign picks its gate, two signed compares (bounds and
/// magnitudes are at most `i64::MAX`) say whether the magnitude is outside.
///
/// # Safety
/// The CPU has AVX2; `out` is as long as `values`, a multiple of 4.
#[cfg(picollo_float)]
#[target_feature(enable = "avx2")]
unsafe fn gates_avx2(g: &Gates, values: &[f64], out: &mut [u64]) {
    let magnitude_bits = _mm256_set1_epi64x(i64::MAX);
    let (lo_pos, lo_neg) = (
        _mm256_set1_epi64x(g.lo[0] as i64),
        _mm256_set1_epi64x(g.lo[1] as i64),
    );
    let (hi_pos, hi_neg) = (
        _mm256_set1_epi64x(g.hi[0] as i64),
        _mm256_set1_epi64x(g.hi[1] as i64),
    );
    for (x4, o4) in values.chunks_exact(4).zip(out.chunks_exact_mut(4)) {
        // SAFETY: `x4` holds 4 readable `f64`s (unaligned load).
        let bits = unsafe { _mm256_loadu_si256(x4.as_ptr().cast()) };
        let negative = _mm256_cmpgt_epi64(_mm256_setzero_si256(), bits);
        let magnitude = _mm256_and_si256(bits, magnitude_bits);
        let lo = _mm256_blendv_epi8(lo_pos, lo_neg, negative);
        let hi = _mm256_blendv_epi8(hi_pos, hi_neg, negative);
        let outside = _mm256_or_si256(
            _mm256_cmpgt_epi64(lo, magnitude),
            _mm256_cmpgt_epi64(magnitude, hi),
        );
        // SAFETY: `o4` holds 4 writable `u64`s (unaligned store).
        unsafe { _mm256_storeu_si256(o4.as_mut_ptr().cast(), outside) };
    }
}

/// Eight values a vector, as [`gates_avx2`] with mask registers.
///
/// # Safety
/// The CPU has AVX-512F; `out` is as long as `values`, a multiple of 8.
#[cfg(picollo_float)]
// Compiled only where the compiler has them (`picollo_avx512`: Rust 1.89 or later).
#[cfg(picollo_avx512)]
#[allow(clippy::incompatible_msrv)]
#[target_feature(enable = "avx512f")]
unsafe fn gates_avx512(g: &Gates, values: &[f64], out: &mut [u64]) {
    let magnitude_bits = _mm512_set1_epi64(i64::MAX);
    let (lo_pos, lo_neg) = (
        _mm512_set1_epi64(g.lo[0] as i64),
        _mm512_set1_epi64(g.lo[1] as i64),
    );
    let (hi_pos, hi_neg) = (
        _mm512_set1_epi64(g.hi[0] as i64),
        _mm512_set1_epi64(g.hi[1] as i64),
    );
    let ones = _mm512_set1_epi64(-1);
    for (x8, o8) in values.chunks_exact(8).zip(out.chunks_exact_mut(8)) {
        // SAFETY: `x8` holds 8 readable `f64`s (unaligned load).
        let bits = unsafe { _mm512_loadu_si512(x8.as_ptr().cast()) };
        let negative = _mm512_cmplt_epi64_mask(bits, _mm512_setzero_si512());
        let magnitude = _mm512_and_si512(bits, magnitude_bits);
        let lo = _mm512_mask_blend_epi64(negative, lo_pos, lo_neg);
        let hi = _mm512_mask_blend_epi64(negative, hi_pos, hi_neg);
        let outside =
            _mm512_cmpgt_epi64_mask(lo, magnitude) | _mm512_cmpgt_epi64_mask(magnitude, hi);
        let words = _mm512_maskz_mov_epi64(outside, ones);
        // SAFETY: `o8` holds 8 writable `u64`s (unaligned store).
        unsafe { _mm512_storeu_si512(o8.as_mut_ptr().cast(), words) };
    }
}
