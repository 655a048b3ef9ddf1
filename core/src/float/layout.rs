//! The bucket layout of the floating-point histogram: the integer layout's idea (one octave
//! per block, `B` buckets per octave) read straight off the IEEE 754 bits.
//!
//! A positive normal double is `2^(e−1023) · 1.f`: its biased exponent `e` names the octave
//! and the top `s = log2(B)` bits of its fraction `f` the bucket inside it, so the index is
//! the bits shifted right by `52 − s` (plus an offset). A bucket spans `2^(e−1023−s)`, a
//! `1/B` share of the octave's lower bound, so its midpoint is within `0.5/B` of every value
//! in it, relatively: the integer layout's guarantee, for every magnitude a double can hold.
//!
//! Subnormals (`e = 0`) are normalised first: the leading one of the fraction says which of
//! 52 octaves below the normal range the value is in, and the bits after it place it there,
//! so tiny values keep the same relative error (in the lowest octaves, where an octave holds
//! fewer than `B` doubles, each bucket holds at most one value and is exact). Octave `o` is
//! `e + 52` for normals (53..=2098) and `p + 1` for a subnormal whose leading one is bit `p`
//! (1..=52); octave 0 is unused (zero has its own bucket in the histogram).

use crate::layout::Layout;

/// Octaves of positive finite doubles: 52 subnormal, 2046 normal, and the unused octave 0.
pub const OCTAVES: usize = 2099;

/// The bucket layout of a floating-point histogram: `2^scale` buckets per octave of
/// magnitude. The same relative error gives the same `scale` as the integer [`Layout`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FloatLayout {
    scale: u32,
}

const FRACTION_BITS: u32 = 52;
const FRACTION_MASK: u64 = (1 << FRACTION_BITS) - 1;

impl FloatLayout {
    /// The layout for `relative_error`, clamped as [`Layout::clamped`] does.
    pub const fn clamped(relative_error: f64) -> FloatLayout {
        FloatLayout {
            scale: Layout::clamped(relative_error).block_scale(),
        }
    }

    /// The layout with `2^scale` buckets per octave, `scale` in `3..=19`.
    pub const fn from_scale(scale: u32) -> Option<FloatLayout> {
        match Layout::from_block_scale(scale) {
            Some(_) => Some(FloatLayout { scale }),
            None => None,
        }
    }

    /// `log2` of the buckets per octave.
    pub const fn scale(&self) -> u32 {
        self.scale
    }

    /// Buckets per octave.
    pub const fn buckets_per_octave(&self) -> usize {
        1 << self.scale
    }

    /// The guaranteed relative error of a bucket's midpoint: `0.5 / buckets_per_octave`.
    pub const fn relative_error(&self) -> f64 {
        0.5 / self.buckets_per_octave() as f64
    }

    /// Indices of every positive finite magnitude: `OCTAVES · 2^scale`.
    pub const fn len(&self) -> usize {
        OCTAVES << self.scale
    }

    /// Never empty (for clippy's `len` convention).
    pub const fn is_empty(&self) -> bool {
        false
    }

    /// The index of the bucket holding the magnitude `x`: a positive finite double
    /// (normal or subnormal). Monotone in `x`. Anything else gives a meaningless index
    /// (never undefined behaviour): the histogram sorts zero, NaN and infinities out first.
    #[inline(always)]
    pub const fn index(&self, x: f64) -> usize {
        let bits = x.to_bits() & !(1 << 63);
        let exponent = bits >> FRACTION_BITS;
        let (octave, fraction) = if exponent != 0 {
            (exponent + 52, bits & FRACTION_MASK)
        } else {
            // Subnormal: bit p is the leading one; the bits after it are the fraction.
            // (`| 1` keeps the count defined for zero, which never comes here.)
            let p = 63 - (bits | 1).leading_zeros() as u64;
            (p + 1, (bits << (FRACTION_BITS as u64 - p)) & FRACTION_MASK)
        };
        ((octave << self.scale) | (fraction >> (FRACTION_BITS - self.scale))) as usize
    }

    /// The octave of an index.
    pub const fn octave_of(&self, index: usize) -> usize {
        index >> self.scale
    }

    /// The bucket with index `index < len()`: the magnitudes in `[lower, upper)` (`upper`
    /// is `+∞` for the topmost bucket, which ends at `f64::MAX`).
    pub const fn bucket(&self, index: usize) -> FloatBucket {
        let octave = (index >> self.scale) as u64;
        let j = (index & (self.buckets_per_octave() - 1)) as u64;
        let step = FRACTION_BITS - self.scale;
        if octave >= 53 {
            let lower = ((octave - 52) << FRACTION_BITS) | (j << step);
            return FloatBucket {
                lower: f64::from_bits(lower),
                upper: f64::from_bits(lower + (1 << step)),
            };
        }
        // Subnormal octave: the values 2^p .. 2^(p+1) − 1 (in units of the smallest
        // subnormal), p = octave − 1; bucket j starts at 2^p + j·2^p / B.
        let p = octave.saturating_sub(1);
        let (lower, width) = if p >= self.scale as u64 {
            (
                (1 << p) + (j << (p - self.scale as u64)),
                1u64 << (p - self.scale as u64),
            )
        } else {
            // Fewer doubles than buckets: one value per reachable bucket (j a multiple of
            // 2^(scale − p)); the others are never hit.
            ((1 << p) + (j >> (self.scale as u64 - p)), 1)
        };
        FloatBucket {
            lower: f64::from_bits(lower),
            upper: f64::from_bits(lower + width),
        }
    }
}

impl Default for FloatLayout {
    fn default() -> Self {
        FloatLayout::clamped(crate::layout::DEFAULT_RELATIVE_ERROR)
    }
}

/// A bucket of magnitudes: `lower ≤ |x| < upper`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FloatBucket {
    /// The smallest magnitude in the bucket.
    pub lower: f64,
    /// The smallest magnitude above the bucket (`+∞` above the topmost one).
    pub upper: f64,
}

impl FloatBucket {
    /// The largest magnitude in the bucket (HdrHistogram's highest equivalent value).
    pub fn highest(&self) -> f64 {
        if self.upper.is_infinite() {
            f64::MAX
        } else {
            f64::from_bits(self.upper.to_bits() - 1)
        }
    }

    /// The magnitude reported for the bucket: halfway between its bounds, or its one value
    /// when it holds a single double.
    pub fn midpoint(&self) -> f64 {
        let highest = self.highest();
        let m = self.lower + (highest - self.lower) / 2.0;
        if m > highest || m < self.lower {
            self.lower
        } else {
            m
        }
    }

    /// Whether the magnitude `x` falls in the bucket.
    pub fn contains(&self, x: f64) -> bool {
        self.lower <= x && x < self.upper
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scales() -> impl Iterator<Item = FloatLayout> {
        (3..=19).map(|s| FloatLayout::from_scale(s).unwrap())
    }

    #[test]
    fn buckets_tile_the_magnitudes_and_hold_what_indexes_to_them() {
        for layout in scales() {
            let b = layout.buckets_per_octave();
            for octave in 1..OCTAVES {
                for j in [0, 1, b / 2, b - 1] {
                    let index = (octave << layout.scale()) | j;
                    let bucket = layout.bucket(index);
                    // In the tiniest octaves some buckets hold no double: skip those.
                    if layout.index(bucket.lower) != index {
                        assert!(octave <= layout.scale() as usize, "{layout:?} {index}");
                        continue;
                    }
                    assert_eq!(layout.index(bucket.highest()), index, "{layout:?} {index}");
                    assert!(bucket.contains(bucket.midpoint()), "{bucket:?}");
                    if !bucket.upper.is_infinite() {
                        // The next bucket with a value starts where this one ends.
                        let next = layout.index(bucket.upper);
                        assert!(next > index);
                        assert_eq!(
                            layout.bucket(next).lower,
                            bucket.upper,
                            "{layout:?} {index}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn the_index_is_monotone_and_covers_every_magnitude() {
        let layout = FloatLayout::clamped(0.01);
        let mut previous = 0;
        let mut x = f64::from_bits(1); // the smallest subnormal
        while x.is_finite() {
            let i = layout.index(x);
            assert!(i >= previous, "{x}");
            assert!(
                layout.bucket(i).contains(x),
                "{x} in {:?}",
                layout.bucket(i)
            );
            previous = i;
            x = (x * 1.37).max(f64::from_bits(x.to_bits() + 1));
        }
        assert_eq!(layout.index(f64::MAX), layout.len() - 1);
        assert_eq!(layout.index(f64::from_bits(1)), 1 << layout.scale());
        assert_eq!(layout.index(f64::MIN_POSITIVE), 53 << layout.scale());
    }

    #[test]
    fn midpoints_are_within_the_relative_error() {
        for layout in scales() {
            let e = layout.relative_error();
            let mut x = 1e-300;
            while x < 1e300 {
                let b = layout.bucket(layout.index(x));
                let m = b.midpoint();
                assert!(
                    ((m - x) / x).abs() <= e * (1.0 + 1e-12),
                    "{layout:?} {x} {m}"
                );
                x *= 1.9;
            }
            // Subnormals too.
            for bits in [1u64, 2, 3, 1000, 1 << 20, (1 << 52) - 1] {
                let x = f64::from_bits(bits);
                let m = layout.bucket(layout.index(x)).midpoint();
                assert!(
                    ((m - x) / x).abs() <= e * (1.0 + 1e-12),
                    "{layout:?} {x:e} {m:e}"
                );
            }
        }
    }
}
