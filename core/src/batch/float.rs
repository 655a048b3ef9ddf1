//! The float histogram's batch step ([`crate::float::FloatHistogram`]'s single-writer
//! record): per value a ticket, computed a vector at a time and pipelined with the adds as
//! the integer offsets are ([`super::pipeline`]).
//!
//! A ticket is [`OUTSIDE`] where the value's magnitude lies outside its sign's gate (the
//! magnitudes the common path takes whole: normal, in the range, not a new extreme), else
//! the value's sign bit or-ed with its magnitude shifted right by the shape's normal shift
//! (`FloatShape::shifted_normal`): the sign picks the side, the shifted magnitude is the
//! dense cell (less the normal base), and its high and low bits the octave and the place in
//! it. The gates are read again at each chunk's end, so a gate the adds widened serves the
//! chunks after.

// The target's vector kernels as one module, `vector` (`pipeline`), as in `super`.
#[cfg(all(target_arch = "x86_64", not(miri)))]
mod x86;
#[cfg(all(target_arch = "x86_64", not(miri)))]
use x86 as vector;

#[cfg(all(target_arch = "aarch64", target_feature = "neon", not(miri)))]
mod neon;
#[cfg(all(target_arch = "aarch64", target_feature = "neon", not(miri)))]
use neon as vector;

use super::{BatchPath, Fold, Kernel, Sink};

/// The ticket of a value outside its sign's gate (no gated magnitude's: the normal shift
/// is at least 1, so a shifted magnitude is below `2^62`).
pub(crate) const OUTSIDE: u64 = u64::MAX;

/// Per sign (positive, negative), the magnitudes (bits without the sign) the common path
/// takes whole, each bound at most `i64::MAX` so that a signed compare decides (an empty
/// gate, `(u64::MAX, 0)`, becomes `(i64::MAX, 0)`: still empty, as a magnitude of
/// `i64::MAX` is a NaN's).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Gates {
    lo: [u64; 2],
    hi: [u64; 2],
}

impl Gates {
    pub(crate) fn new(lo: [u64; 2], hi: [u64; 2]) -> Gates {
        let top = i64::MAX as u64;
        Gates {
            lo: lo.map(|b| b.min(top)),
            hi: hi.map(|b| b.min(top)),
        }
    }

    /// `x`'s ticket: [`OUTSIDE`] unless its magnitude lies in its sign's gate.
    #[inline(always)]
    fn ticket(&self, x: f64, shift: u32) -> u64 {
        let bits = x.to_bits();
        let sign = (bits >> 63) as usize;
        let magnitude = bits & !(1 << 63);
        if magnitude < self.lo[sign] || magnitude > self.hi[sign] {
            OUTSIDE
        } else {
            (magnitude >> shift << 1) | (bits >> 63)
        }
    }
}

/// What a batch's tickets are computed from: the gates as they are now (`read`, called at
/// each chunk's end) and the shape's normal shift.
pub(crate) struct Tickets<F> {
    pub(crate) read: F,
    pub(crate) shift: u32,
}

/// The portable path's kernel: one value at a time.
struct Portable<F> {
    read: F,
    gates: Gates,
    shift: u32,
}

/// The float kernels' part: the adds of a value cost about four times an integer's, and
/// parts of 32 (against 8) take about a tenth off the batch (in-cache, on the AVX-512 path).
pub(crate) const PART: usize = 32;

impl<F: FnMut() -> Gates> Kernel<f64> for Portable<F> {
    const PART: usize = PART;

    #[inline(always)]
    fn part(&mut self, values: &[f64], out: &mut [u64]) {
        for (o, &x) in out.iter_mut().zip(values) {
            *o = self.gates.ticket(x, self.shift);
        }
    }

    #[inline(always)]
    fn take(&mut self) -> Fold {
        self.gates = (self.read)();
        Fold::NONE
    }

    #[inline(always)]
    fn tail(&mut self, values: &[f64], out: &mut [u64]) {
        self.part(values, out);
    }
}

impl<F: FnMut() -> Gates> Tickets<F> {
    /// The tickets of `values` on `path` where this CPU runs it (else the portable path),
    /// given to `sink` as [`super::pipeline`] gives them (its folds are empty).
    pub(crate) fn pipeline<S: Sink<f64>>(self, path: BatchPath, values: &[f64], sink: &mut S) {
        #[cfg(any(
            all(target_arch = "x86_64", not(miri)),
            all(target_arch = "aarch64", target_feature = "neon", not(miri))
        ))]
        if path != BatchPath::Portable && path.available() {
            return vector::pipeline(self, path, values, sink);
        }
        let _ = path;
        super::pipeline(&mut self.portable(), values, sink);
    }

    /// The portable kernel, its gates read once to start with.
    fn portable(mut self) -> Portable<F> {
        let gates = (self.read)();
        Portable {
            read: self.read,
            gates,
            shift: self.shift,
        }
    }
}
