//! The float tickets' vector path on aarch64: NEON, two values a register. Each lane's sign
//! picks its gate, two signed compares (bounds and magnitudes are at most `i64::MAX`) say
//! whether the magnitude is outside, and the ticket is the shifted magnitude over the sign
//! in bit 0, or all ones outside. NEON is baseline where this module is compiled.

use core::arch::aarch64::*;

use super::{Gates, Portable, Tickets};
use crate::batch::{BatchPath, Fold, Kernel, Sink};

/// The tickets of `values` on `path` given to `sink` a chunk at a time.
pub(super) fn pipeline<F: FnMut() -> Gates, S: Sink<f64>>(
    t: Tickets<F>,
    path: BatchPath,
    values: &[f64],
    sink: &mut S,
) {
    let mut portable = t.portable();
    match path {
        BatchPath::Neon => crate::batch::pipeline(&mut Neon { portable }, values, sink),
        _ => crate::batch::pipeline(&mut portable, values, sink),
    }
}

/// Two values a register; the gates are read from the portable kernel's at each part.
struct Neon<F> {
    portable: Portable<F>,
}

impl<F: FnMut() -> Gates> Kernel<f64> for Neon<F> {
    const PART: usize = super::PART;

    #[inline(always)]
    fn part(&mut self, values: &[f64], out: &mut [u64]) {
        let g = self.portable.gates;
        // SAFETY: the target has NEON (this module is compiled only there); `x2` holds 2
        // readable `f64`s (a `u64`'s size and alignment) and `o2` 2 writable `u64`s.
        unsafe {
            let (lo_pos, lo_neg) = (vdupq_n_s64(g.lo[0] as i64), vdupq_n_s64(g.lo[1] as i64));
            let (hi_pos, hi_neg) = (vdupq_n_s64(g.hi[0] as i64), vdupq_n_s64(g.hi[1] as i64));
            let right = vdupq_n_s64(-i64::from(self.portable.shift));
            for (x2, o2) in values.chunks_exact(2).zip(out.chunks_exact_mut(2)) {
                let bits = vld1q_s64(x2.as_ptr().cast());
                let negative = vcltzq_s64(bits);
                let magnitude = vandq_s64(bits, vdupq_n_s64(i64::MAX));
                let lo = vbslq_s64(negative, lo_neg, lo_pos);
                let hi = vbslq_s64(negative, hi_neg, hi_pos);
                let outside = vorrq_u64(vcgtq_s64(lo, magnitude), vcgtq_s64(magnitude, hi));
                let shifted = vshlq_u64(vreinterpretq_u64_s64(magnitude), right);
                let sign = vshrq_n_u64::<63>(vreinterpretq_u64_s64(bits));
                let ticket = vorrq_u64(vshlq_n_u64::<1>(shifted), sign);
                vst1q_u64(o2.as_mut_ptr(), vorrq_u64(ticket, outside));
            }
        }
        let whole = values.len() / 2 * 2;
        self.portable.part(&values[whole..], &mut out[whole..]);
    }

    #[inline(always)]
    fn take(&mut self) -> Fold {
        self.portable.take()
    }

    #[inline(always)]
    fn tail(&mut self, values: &[f64], out: &mut [u64]) {
        self.portable.part(values, out);
    }
}
