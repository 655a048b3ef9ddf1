//! The vector paths of [`super::BatchPath`] on x86-64: AVX2 (four values a vector) and
//! AVX-512 (eight). Each function with a `target_feature` is called only after
//! [`available`] said this CPU has that feature.

use core::arch::x86_64::*;

use super::{BatchPath, Fold, Lanes, Offsets, Sink, Tailed};

/// Whether this CPU runs `path` (a vector path).
pub(super) fn available(path: BatchPath) -> bool {
    match path {
        BatchPath::Portable => true,
        BatchPath::Avx2 => has_avx2(),
        BatchPath::Avx512 => cfg!(picollo_avx512) && has_avx512(),
        BatchPath::Neon => false,
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

/// The offsets of `values` on `path`, which this CPU runs, given to `sink` a chunk at a
/// time ([`super::pipeline`]); the tail shorter than a vector goes the portable way.
pub(super) fn pipeline<S: Sink>(o: &Offsets, path: BatchPath, values: &[u64], sink: &mut S) {
    match path {
        // SAFETY: the caller found AVX2 on this CPU (`available`).
        BatchPath::Avx2 => unsafe { pipeline_avx2(o, values, sink) },
        #[cfg(picollo_avx512)]
        // SAFETY: the caller found AVX-512F and CD on this CPU (`available`).
        BatchPath::Avx512 => unsafe { pipeline_avx512(o, values, sink) },
        _ => super::pipeline(&mut o.portable(), values, sink),
    }
}

/// [`super::pipeline`] with [`Avx2`]'s offsets, inlined where AVX2 is on.
///
/// # Safety
/// The CPU has AVX2.
#[target_feature(enable = "avx2")]
unsafe fn pipeline_avx2<S: Sink>(o: &Offsets, values: &[u64], sink: &mut S) {
    // SAFETY: the CPU has AVX2 (this function's contract).
    let kernel = unsafe { Avx2::new(o) };
    let mut kernel = Tailed {
        kernel,
        offsets: o,
        fold: Fold::NONE,
    };
    super::pipeline(&mut kernel, values, sink);
}

/// [`super::pipeline`] with [`Avx512`]'s offsets, inlined where AVX-512 is on.
///
/// # Safety
/// The CPU has AVX-512F and AVX-512CD.
#[cfg(picollo_avx512)]
#[allow(clippy::incompatible_msrv)]
#[target_feature(enable = "avx512f,avx512cd")]
unsafe fn pipeline_avx512<S: Sink>(o: &Offsets, values: &[u64], sink: &mut S) {
    // SAFETY: the CPU has AVX-512F and CD (this function's contract).
    let kernel = unsafe { Avx512::new(o) };
    let mut kernel = Tailed {
        kernel,
        offsets: o,
        fold: Fold::NONE,
    };
    super::pipeline(&mut kernel, values, sink);
}

/// Four values a vector with AVX2. `⌊log2 x⌋` of `x = v | fine` (never 0) from a double's
/// exponent: the 32-bit half holding `x`'s highest bit (the high half when it is not zero,
/// else the low) is made a double exactly (its bits under 2^52's, less 2^52), whose
/// exponent is that bit's position; the high half adds 32. The fold's unsigned compares are
/// signed ones of the values with their top bit flipped. Made only where the CPU has AVX2.
#[derive(Clone, Copy)]
struct Avx2 {
    fine: __m256i,
    bias: __m256i,
    first: __m256i,
    scale: __m128i,
    len: __m256i,
    lo: __m256i,
    hi: __m256i,
}

impl Avx2 {
    /// # Safety
    /// The CPU has AVX2.
    #[inline(always)]
    unsafe fn new(o: &Offsets) -> Avx2 {
        // SAFETY: the CPU has AVX2 (this function's contract).
        unsafe {
            Avx2 {
                fine: _mm256_set1_epi64x(o.fine as i64),
                // 1023 for the exponent's bias, plus the block scale: what the exponent
                // less is `step`.
                bias: _mm256_set1_epi64x(1023 + i64::from(o.scale)),
                first: _mm256_set1_epi64x(o.first as i64),
                scale: _mm_set_epi64x(0, i64::from(o.scale)),
                len: _mm256_set1_epi64x((o.len ^ (1 << 63)) as i64),
                lo: _mm256_set1_epi64x(i64::MAX),
                hi: _mm256_set1_epi64x(i64::MIN),
            }
        }
    }

    /// The offsets of four values, folded in.
    ///
    /// # Safety
    /// The CPU has AVX2 (a kernel is made only there).
    #[inline(always)]
    unsafe fn four(&mut self, v: __m256i) -> __m256i {
        // SAFETY: the CPU has AVX2 (this function's contract).
        unsafe {
            let x = _mm256_or_si256(v, self.fine);
            let high = _mm256_srli_epi64::<32>(x);
            let high_zero = _mm256_cmpeq_epi64(high, _mm256_setzero_si256());
            let low = _mm256_and_si256(x, _mm256_set1_epi64x(0xFFFF_FFFF));
            let half = _mm256_blendv_epi8(high, low, high_zero);
            let above = _mm256_andnot_si256(high_zero, _mm256_set1_epi64x(32));
            let step = _mm256_add_epi64(Self::exponent(half), above);
            self.finish(v, _mm256_sub_epi64(step, self.bias))
        }
    }

    /// [`Avx2::four`] where `x = v | fine` (given) is below 2^52 in every lane: its own
    /// double's exponent is its logarithm, no halves needed.
    ///
    /// # Safety
    /// The CPU has AVX2 (a kernel is made only there).
    #[inline(always)]
    unsafe fn four_narrow(&mut self, v: __m256i, x: __m256i) -> __m256i {
        // SAFETY: the CPU has AVX2 (this function's contract).
        unsafe { self.finish(v, _mm256_sub_epi64(Self::exponent(x), self.bias)) }
    }

    /// The biased exponent of `x` (each lane below 2^52) made a double exactly: its bits
    /// under 2^52's, less 2^52.
    ///
    /// # Safety
    /// The CPU has AVX2.
    #[inline(always)]
    unsafe fn exponent(x: __m256i) -> __m256i {
        // SAFETY: the CPU has AVX2 (this function's contract).
        unsafe {
            let magic = _mm256_set1_epi64x(0x4330_0000_0000_0000);
            let two52 = _mm256_set1_pd(4_503_599_627_370_496.0);
            let d = _mm256_sub_pd(_mm256_castsi256_pd(_mm256_or_si256(x, magic)), two52);
            _mm256_srli_epi64::<52>(_mm256_castpd_si256(d))
        }
    }

    /// The offsets of `v` from their `step`s, folded in.
    ///
    /// # Safety
    /// The CPU has AVX2.
    #[inline(always)]
    unsafe fn finish(&mut self, v: __m256i, step: __m256i) -> __m256i {
        // SAFETY: the CPU has AVX2 (this function's contract).
        unsafe {
            let top_bit = _mm256_set1_epi64x(i64::MIN);
            let shifted = _mm256_srlv_epi64(v, step);
            let index = _mm256_add_epi64(_mm256_sll_epi64(step, self.scale), shifted);
            let offset = _mm256_sub_epi64(index, self.first);
            let inside = _mm256_cmpgt_epi64(self.len, _mm256_xor_si256(offset, top_bit));
            let flipped = _mm256_xor_si256(v, top_bit);
            let below = _mm256_and_si256(inside, _mm256_cmpgt_epi64(self.lo, flipped));
            let above = _mm256_and_si256(inside, _mm256_cmpgt_epi64(flipped, self.hi));
            self.lo = _mm256_blendv_epi8(self.lo, flipped, below);
            self.hi = _mm256_blendv_epi8(self.hi, flipped, above);
            offset
        }
    }
}

impl Lanes for Avx2 {
    #[inline(always)]
    fn part(&mut self, values: &[u64], out: &mut [u64]) {
        let (mut v8, mut o8) = (values.chunks_exact(8), out.chunks_exact_mut(8));
        for (v, o) in (&mut v8).zip(&mut o8) {
            // SAFETY: a kernel is made only where the CPU has AVX2 (`new`); `v` holds 8
            // readable `u64`s and `o` 8 writable ones (unaligned loads and stores at 0 and 4).
            unsafe {
                let (a, b) = (v.as_ptr().cast::<__m256i>(), v.as_ptr().add(4).cast());
                let (a, b) = (_mm256_loadu_si256(a), _mm256_loadu_si256(b));
                let (xa, xb) = (_mm256_or_si256(a, self.fine), _mm256_or_si256(b, self.fine));
                let wide = _mm256_set1_epi64x(-1 << 52);
                let (a, b) = if _mm256_testz_si256(_mm256_or_si256(xa, xb), wide) != 0 {
                    (self.four_narrow(a, xa), self.four_narrow(b, xb))
                } else {
                    (self.four(a), self.four(b))
                };
                _mm256_storeu_si256(o.as_mut_ptr().cast(), a);
                _mm256_storeu_si256(o.as_mut_ptr().add(4).cast(), b);
            }
        }
        let rest = v8.remainder().chunks_exact(4);
        for (v4, o4) in rest.zip(o8.into_remainder().chunks_exact_mut(4)) {
            // SAFETY: as above, with 4 `u64`s each.
            unsafe {
                let offset = self.four(_mm256_loadu_si256(v4.as_ptr().cast()));
                _mm256_storeu_si256(o4.as_mut_ptr().cast(), offset);
            }
        }
    }

    #[inline(always)]
    fn take(&mut self) -> Fold {
        let (mut los, mut his) = ([0i64; 4], [0i64; 4]);
        // SAFETY: each array holds 4 writable 64-bit words (unaligned stores); the CPU has
        // AVX2 (`new`).
        unsafe {
            _mm256_storeu_si256(los.as_mut_ptr().cast(), self.lo);
            _mm256_storeu_si256(his.as_mut_ptr().cast(), self.hi);
            self.lo = _mm256_set1_epi64x(i64::MAX);
            self.hi = _mm256_set1_epi64x(i64::MIN);
        }
        let unflip = |x: i64| (x as u64) ^ (1 << 63);
        Fold {
            lo: los.into_iter().map(unflip).min().unwrap_or(u64::MAX),
            hi: his.into_iter().map(unflip).max().unwrap_or(0),
        }
    }
}

/// Eight values a vector with AVX-512, the logarithm `63 − lzcnt(x)`; the fold with masked
/// unsigned minimum and maximum. Made only where the CPU has AVX-512F and AVX-512CD.
// Compiled only where the compiler has them (`picollo_avx512`: Rust 1.89 or later).
#[cfg(picollo_avx512)]
#[derive(Clone, Copy)]
struct Avx512 {
    fine: __m512i,
    top: __m512i,
    first: __m512i,
    scale: __m128i,
    len: __m512i,
    lo: __m512i,
    hi: __m512i,
}

#[cfg(picollo_avx512)]
#[allow(clippy::incompatible_msrv)]
impl Avx512 {
    /// # Safety
    /// The CPU has AVX-512F and AVX-512CD.
    #[inline(always)]
    unsafe fn new(o: &Offsets) -> Avx512 {
        // SAFETY: the CPU has AVX-512F (this function's contract).
        unsafe {
            Avx512 {
                fine: _mm512_set1_epi64(o.fine as i64),
                top: _mm512_set1_epi64(63 - i64::from(o.scale)),
                first: _mm512_set1_epi64(o.first as i64),
                scale: _mm_set_epi64x(0, i64::from(o.scale)),
                len: _mm512_set1_epi64(o.len as i64),
                lo: _mm512_set1_epi64(-1),
                hi: _mm512_setzero_si512(),
            }
        }
    }
}

#[cfg(picollo_avx512)]
#[allow(clippy::incompatible_msrv)]
impl Lanes for Avx512 {
    #[inline(always)]
    fn part(&mut self, values: &[u64], out: &mut [u64]) {
        for (v8, o8) in values.chunks_exact(8).zip(out.chunks_exact_mut(8)) {
            // SAFETY: a kernel is made only where the CPU has AVX-512F and CD (`new`); `v8`
            // holds 8 readable `u64`s and `o8` 8 writable ones (unaligned load and store).
            unsafe {
                let v = _mm512_loadu_si512(v8.as_ptr().cast());
                let x = _mm512_or_si512(v, self.fine);
                let step = _mm512_sub_epi64(self.top, _mm512_lzcnt_epi64(x));
                let shifted = _mm512_srlv_epi64(v, step);
                let index = _mm512_add_epi64(_mm512_sll_epi64(step, self.scale), shifted);
                let offset = _mm512_sub_epi64(index, self.first);
                let inside = _mm512_cmplt_epu64_mask(offset, self.len);
                self.lo = _mm512_mask_min_epu64(self.lo, inside, self.lo, v);
                self.hi = _mm512_mask_max_epu64(self.hi, inside, self.hi, v);
                _mm512_storeu_si512(o8.as_mut_ptr().cast(), offset);
            }
        }
    }

    #[inline(always)]
    fn take(&mut self) -> Fold {
        // SAFETY: a kernel is made only where the CPU has AVX-512F (`new`).
        unsafe {
            let fold = Fold {
                lo: _mm512_reduce_min_epu64(self.lo),
                hi: _mm512_reduce_max_epu64(self.hi),
            };
            self.lo = _mm512_set1_epi64(-1);
            self.hi = _mm512_setzero_si512();
            fold
        }
    }
}
