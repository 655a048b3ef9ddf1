//! The vector path of [`super::BatchPath`] on aarch64: NEON, two values a register, four
//! registers a step. NEON is part of the aarch64 baseline, so the path is compiled where the
//! target has it (`target_feature = "neon"`) and nothing is detected at run time. Its
//! intrinsics are `unsafe` to call from functions without `#[target_feature(enable =
//! "neon")]` even so: each block below says NEON is on.

use core::arch::aarch64::*;

use super::{BatchPath, Fold, Lanes, Offsets, Sink, Tailed};

/// Whether this CPU runs `path`: the portable path and NEON (the module is compiled only
/// where the target has NEON).
pub(super) fn available(path: BatchPath) -> bool {
    matches!(path, BatchPath::Portable | BatchPath::Neon)
}

/// The offsets of `values` on `path` given to `sink` a chunk at a time
/// ([`super::pipeline`]).
pub(super) fn pipeline<S: Sink>(o: &Offsets, path: BatchPath, values: &[u64], sink: &mut S) {
    match path {
        BatchPath::Neon => {
            let mut kernel = Tailed {
                kernel: Neon::new(o),
                offsets: o,
                fold: Fold::NONE,
            };
            super::pipeline(&mut kernel, values, sink)
        }
        _ => super::pipeline(&mut o.portable(), values, sink),
    }
}

/// Registers a step: eight values, each register with its own extremes so that the four
/// folds do not wait on one another.
const REGS: usize = 4;
/// Values a step.
const STEP: usize = 2 * REGS;
// The pipeline's parts are whole steps.
const _: () = assert!(super::PART % STEP == 0);

/// Two values a register, [`STEP`] a step. NEON's `clz` counts at most 32-bit lanes: the
/// count of a `u64` is its high half's, plus its low half's where the high half is zero.
/// NEON has no 64-bit minimum or maximum: the fold picks with unsigned compares.
#[derive(Clone, Copy)]
struct Neon {
    fine: uint64x2_t,
    /// `63 − log2(B)`: the step is this less the leading zeros.
    top: int64x2_t,
    first: uint64x2_t,
    scale: int64x2_t,
    len: uint64x2_t,
    lo: [uint64x2_t; REGS],
    hi: [uint64x2_t; REGS],
}

impl Neon {
    #[inline(always)]
    fn new(o: &Offsets) -> Neon {
        // SAFETY: the target has NEON (this module is compiled only there).
        unsafe {
            Neon {
                fine: vdupq_n_u64(o.fine),
                top: vdupq_n_s64(63 - i64::from(o.scale)),
                first: vdupq_n_u64(o.first),
                scale: vdupq_n_s64(i64::from(o.scale)),
                len: vdupq_n_u64(o.len),
                lo: [vdupq_n_u64(u64::MAX); REGS],
                hi: [vdupq_n_u64(0); REGS],
            }
        }
    }

    /// The offsets of two values, folded into register `r`'s extremes.
    #[inline(always)]
    fn two(&mut self, v: uint64x2_t, r: usize) -> uint64x2_t {
        // SAFETY: the target has NEON (this module is compiled only there).
        unsafe {
            let zeros = vreinterpretq_s64_u64(leading_zeros(vorrq_u64(v, self.fine)));
            let step = vsubq_s64(self.top, zeros);
            // A negative count shifts right: `v >> step`.
            let shifted = vshlq_u64(v, vsubq_s64(zeros, self.top));
            let index = vaddq_u64(vshlq_u64(vreinterpretq_u64_s64(step), self.scale), shifted);
            let offset = vsubq_u64(index, self.first);
            let inside = vcltq_u64(offset, self.len);
            // A value outside becomes one that moves neither extreme: all ones for the
            // least, zero for the greatest.
            let low = vornq_u64(v, inside);
            let high = vandq_u64(v, inside);
            self.lo[r] = vbslq_u64(vcltq_u64(low, self.lo[r]), low, self.lo[r]);
            self.hi[r] = vbslq_u64(vcgtq_u64(high, self.hi[r]), high, self.hi[r]);
            offset
        }
    }
}

/// The leading zeros of each `u64` lane: the 32-bit halves' counts (the low half in the
/// lower 32 bits, as in memory), the high half's plus the low half's where the high half is
/// all zeros (its count is 32).
#[inline(always)]
fn leading_zeros(x: uint64x2_t) -> uint64x2_t {
    // SAFETY: the target has NEON (this module is compiled only there).
    unsafe {
        let halves = vreinterpretq_u64_u32(vclzq_u32(vreinterpretq_u32_u64(x)));
        let high = vshrq_n_u64::<32>(halves);
        let low = vandq_u64(halves, vdupq_n_u64(0xFFFF_FFFF));
        let high_zero = vceqq_u64(high, vdupq_n_u64(32));
        vaddq_u64(high, vandq_u64(high_zero, low))
    }
}

impl Lanes for Neon {
    /// `values` is a multiple of [`STEP`] long (the pipeline's parts are).
    #[inline(always)]
    fn part(&mut self, values: &[u64], out: &mut [u64]) {
        debug_assert_eq!(values.len() % STEP, 0);
        for (v8, o8) in values.chunks_exact(STEP).zip(out.chunks_exact_mut(STEP)) {
            for r in 0..REGS {
                // SAFETY: the target has NEON; `v8` holds `STEP` readable `u64`s and `o8` as
                // many writable ones; register `r` loads and stores the two at `2r` (NEON's
                // loads and stores need no alignment beyond the element's, which a `&[u64]`
                // has).
                unsafe {
                    let v = vld1q_u64(v8.as_ptr().add(2 * r));
                    let offset = self.two(v, r);
                    vst1q_u64(o8.as_mut_ptr().add(2 * r), offset);
                }
            }
        }
    }

    #[inline(always)]
    fn take(&mut self) -> Fold {
        let mut fold = Fold::NONE;
        // SAFETY: the target has NEON (this module is compiled only there).
        unsafe {
            for r in 0..REGS {
                let (lo, hi) = (self.lo[r], self.hi[r]);
                fold.lo = fold
                    .lo
                    .min(vgetq_lane_u64::<0>(lo).min(vgetq_lane_u64::<1>(lo)));
                fold.hi = fold
                    .hi
                    .max(vgetq_lane_u64::<0>(hi).max(vgetq_lane_u64::<1>(hi)));
            }
            self.lo = [vdupq_n_u64(u64::MAX); REGS];
            self.hi = [vdupq_n_u64(0); REGS];
        }
        fold
    }
}
