//! The float tickets' vector paths on x86-64: AVX2 (four values a vector) and AVX-512
//! (eight). Each lane's sign picks its gate, two signed compares (bounds and magnitudes are
//! at most `i64::MAX`) say whether the magnitude is outside, and the ticket is the sign
//! in bit 0 under the shifted magnitude, or all ones outside. Each function with a
//! `target_feature` is called only after [`BatchPath::available`] said this CPU has it.

use core::arch::x86_64::*;

use super::{Gates, Portable, Tickets};
use crate::batch::{BatchPath, Fold, Kernel, Sink};

/// The tickets of `values` on `path`, which this CPU runs, given to `sink` a chunk at a
/// time; the tail shorter than a part goes the portable way.
pub(super) fn pipeline<F: FnMut() -> Gates, S: Sink<f64>>(
    t: Tickets<F>,
    path: BatchPath,
    values: &[f64],
    sink: &mut S,
) {
    let portable = t.portable();
    match path {
        // SAFETY: the caller found AVX2 on this CPU (`available`).
        BatchPath::Avx2 => unsafe { pipeline_avx2(portable, values, sink) },
        #[cfg(picollo_avx512)]
        // SAFETY: the caller found AVX-512F on this CPU (`available`).
        BatchPath::Avx512 => unsafe { pipeline_avx512(portable, values, sink) },
        _ => crate::batch::pipeline(&mut { portable }, values, sink),
    }
}

/// [`crate::batch::pipeline`] with [`Avx2`]'s tickets, inlined where AVX2 is on.
///
/// # Safety
/// The CPU has AVX2.
#[target_feature(enable = "avx2")]
unsafe fn pipeline_avx2<F: FnMut() -> Gates, S: Sink<f64>>(
    portable: Portable<F>,
    values: &[f64],
    sink: &mut S,
) {
    // SAFETY: the CPU has AVX2 (this function's contract).
    let mut kernel = unsafe { Avx2::new(portable) };
    crate::batch::pipeline(&mut kernel, values, sink);
}

/// [`crate::batch::pipeline`] with [`Avx512`]'s tickets, inlined where AVX-512 is on.
///
/// # Safety
/// The CPU has AVX-512F.
#[cfg(picollo_avx512)]
#[allow(clippy::incompatible_msrv)]
#[target_feature(enable = "avx512f")]
unsafe fn pipeline_avx512<F: FnMut() -> Gates, S: Sink<f64>>(
    portable: Portable<F>,
    values: &[f64],
    sink: &mut S,
) {
    // SAFETY: the CPU has AVX-512F (this function's contract).
    let mut kernel = unsafe { Avx512::new(portable) };
    crate::batch::pipeline(&mut kernel, values, sink);
}

/// Four values a vector; the gates as registers, per sign (positive, negative). Made only
/// where the CPU has AVX2.
struct Avx2<F> {
    portable: Portable<F>,
    shift: __m128i,
    lo: [__m256i; 2],
    hi: [__m256i; 2],
}

impl<F: FnMut() -> Gates> Avx2<F> {
    /// # Safety
    /// The CPU has AVX2.
    #[inline(always)]
    unsafe fn new(portable: Portable<F>) -> Self {
        // SAFETY: the CPU has AVX2 (this function's contract).
        unsafe {
            let zero = _mm256_setzero_si256();
            let mut kernel = Avx2 {
                shift: _mm_set_epi64x(0, i64::from(portable.shift)),
                portable,
                lo: [zero; 2],
                hi: [zero; 2],
            };
            kernel.load();
            kernel
        }
    }

    /// The registers from the portable kernel's gates.
    #[inline(always)]
    fn load(&mut self) {
        let g = self.portable.gates;
        // SAFETY: a kernel is made only where the CPU has AVX2 (`new`).
        unsafe {
            self.lo = g.lo.map(|b| _mm256_set1_epi64x(b as i64));
            self.hi = g.hi.map(|b| _mm256_set1_epi64x(b as i64));
        }
    }
}

impl<F: FnMut() -> Gates> Kernel<f64> for Avx2<F> {
    const PART: usize = super::PART;

    #[inline(always)]
    fn part(&mut self, values: &[f64], out: &mut [u64]) {
        for (x4, o4) in values.chunks_exact(4).zip(out.chunks_exact_mut(4)) {
            // SAFETY: a kernel is made only where the CPU has AVX2 (`new`); `x4` holds 4
            // readable `f64`s and `o4` 4 writable `u64`s (unaligned load and store).
            unsafe {
                let bits = _mm256_loadu_si256(x4.as_ptr().cast());
                let negative = _mm256_cmpgt_epi64(_mm256_setzero_si256(), bits);
                let magnitude = _mm256_andnot_si256(_mm256_set1_epi64x(i64::MIN), bits);
                let lo = _mm256_blendv_epi8(self.lo[0], self.lo[1], negative);
                let hi = _mm256_blendv_epi8(self.hi[0], self.hi[1], negative);
                let outside = _mm256_or_si256(
                    _mm256_cmpgt_epi64(lo, magnitude),
                    _mm256_cmpgt_epi64(magnitude, hi),
                );
                let shifted = _mm256_slli_epi64::<1>(_mm256_srl_epi64(magnitude, self.shift));
                let ticket = _mm256_or_si256(_mm256_srli_epi64::<63>(bits), shifted);
                let ticket = _mm256_or_si256(ticket, outside);
                _mm256_storeu_si256(o4.as_mut_ptr().cast(), ticket);
            }
        }
    }

    #[inline(always)]
    fn take(&mut self) -> Fold {
        let fold = self.portable.take();
        self.load();
        fold
    }

    #[inline(always)]
    fn tail(&mut self, values: &[f64], out: &mut [u64]) {
        self.portable.part(values, out);
    }
}

/// Eight values a vector, as [`Avx2`] with mask registers. Made only where the CPU has
/// AVX-512F.
// Compiled only where the compiler has them (`picollo_avx512`: Rust 1.89 or later).
#[cfg(picollo_avx512)]
struct Avx512<F> {
    portable: Portable<F>,
    shift: __m128i,
    lo: [__m512i; 2],
    hi: [__m512i; 2],
}

#[cfg(picollo_avx512)]
#[allow(clippy::incompatible_msrv)]
impl<F: FnMut() -> Gates> Avx512<F> {
    /// # Safety
    /// The CPU has AVX-512F.
    #[inline(always)]
    unsafe fn new(portable: Portable<F>) -> Self {
        // SAFETY: the CPU has AVX-512F (this function's contract).
        unsafe {
            let zero = _mm512_setzero_si512();
            let mut kernel = Avx512 {
                shift: _mm_set_epi64x(0, i64::from(portable.shift)),
                portable,
                lo: [zero; 2],
                hi: [zero; 2],
            };
            kernel.load();
            kernel
        }
    }

    /// The registers from the portable kernel's gates.
    #[inline(always)]
    fn load(&mut self) {
        let g = self.portable.gates;
        // SAFETY: a kernel is made only where the CPU has AVX-512F (`new`).
        unsafe {
            self.lo = g.lo.map(|b| _mm512_set1_epi64(b as i64));
            self.hi = g.hi.map(|b| _mm512_set1_epi64(b as i64));
        }
    }
}

#[cfg(picollo_avx512)]
#[allow(clippy::incompatible_msrv)]
impl<F: FnMut() -> Gates> Kernel<f64> for Avx512<F> {
    const PART: usize = super::PART;

    #[inline(always)]
    fn part(&mut self, values: &[f64], out: &mut [u64]) {
        for (x8, o8) in values.chunks_exact(8).zip(out.chunks_exact_mut(8)) {
            // SAFETY: a kernel is made only where the CPU has AVX-512F (`new`); `x8` holds
            // 8 readable `f64`s and `o8` 8 writable `u64`s (unaligned load and store).
            unsafe {
                let bits = _mm512_loadu_si512(x8.as_ptr().cast());
                let negative = _mm512_cmplt_epi64_mask(bits, _mm512_setzero_si512());
                let magnitude = _mm512_andnot_si512(_mm512_set1_epi64(i64::MIN), bits);
                let lo = _mm512_mask_blend_epi64(negative, self.lo[0], self.lo[1]);
                let hi = _mm512_mask_blend_epi64(negative, self.hi[0], self.hi[1]);
                let outside =
                    _mm512_cmpgt_epi64_mask(lo, magnitude) | _mm512_cmpgt_epi64_mask(magnitude, hi);
                let shifted = _mm512_slli_epi64::<1>(_mm512_srl_epi64(magnitude, self.shift));
                let ticket = _mm512_or_si512(_mm512_srli_epi64::<63>(bits), shifted);
                let ticket = _mm512_mask_mov_epi64(ticket, outside, _mm512_set1_epi64(-1));
                _mm512_storeu_si512(o8.as_mut_ptr().cast(), ticket);
            }
        }
    }

    #[inline(always)]
    fn take(&mut self) -> Fold {
        let fold = self.portable.take();
        self.load();
        fold
    }

    #[inline(always)]
    fn tail(&mut self, values: &[f64], out: &mut [u64]) {
        self.portable.part(values, out);
    }
}
