//! The few float functions the core needs, written out because `core` lacks them without
//! `std` (no libm dependency for three functions).

/// Square root, correctly rounded (as IEEE 754 and `f64::sqrt` define it), so reports that
/// print a standard deviation agree to the last digit with other languages' `sqrt`. NaN for
/// negative input.
pub(crate) fn sqrt(x: f64) -> f64 {
    if x.is_nan() || x <= 0.0 || x == f64::INFINITY {
        // 0 → 0, NaN or negative → NaN, +∞ → +∞.
        return if x == 0.0 || x == f64::INFINITY {
            x
        } else {
            f64::NAN
        };
    }
    // x = m · 2^e with m an integer (53 bits, fewer for subnormals).
    let bits = x.to_bits();
    let biased = (bits >> 52) as i32;
    let fraction = bits & ((1 << 52) - 1);
    let (m, e) = if biased == 0 {
        (fraction, -1074)
    } else {
        (fraction | 1 << 52, biased - 1075)
    };
    // Shift m up to 117 or 118 bits, keeping the exponent even so it halves exactly: the
    // integer square root then has 59 bits, 6 more than a double holds.
    let mut shift = (m as u128).leading_zeros() as i32 - 10;
    if (e - shift) & 1 != 0 {
        shift -= 1;
    }
    let wide = (m as u128) << shift;
    let root = wide.isqrt();
    // Round to odd: a nonzero remainder sets the lowest bit, which is below the rounding
    // position, so the one rounding of `as f64` (to nearest, ties to even) is correct.
    let sticky = (root * root != wide) as u128;
    let half_exponent = (e - shift) / 2;
    // sqrt of any positive double is a normal double: the scale is an exact power of two.
    (root | sticky) as f64 * f64::from_bits(((1023 + half_exponent) as u64) << 52)
}

/// `x` rounded half away from zero, for `|x| < 2^63`.
pub(crate) fn round(x: f64) -> f64 {
    let t = (x.abs() + 0.5) as u64 as f64;
    if x < 0.0 {
        -t
    } else {
        t
    }
}

/// Smallest integer `>= x`, for `0 <= x < 2^64`.
pub(crate) fn ceil_nonneg(x: f64) -> u128 {
    let t = x as u128;
    if (t as f64) < x {
        t + 1
    } else {
        t
    }
}

#[cfg(all(test, feature = "std"))]
mod tests {
    #[test]
    fn sqrt_is_correctly_rounded_like_std() {
        let mut x = 5e-324f64;
        while x < 1.7e308 {
            for v in [x, x * 1.2345, x * 7.77, f64::from_bits(x.to_bits() + 1)] {
                assert_eq!(super::sqrt(v).to_bits(), v.sqrt().to_bits(), "{v}");
            }
            x *= 3.1;
        }
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..200_000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let v = f64::from_bits(seed >> 1); // every positive finite double, NaN and +∞
            if v.is_finite() {
                assert_eq!(super::sqrt(v).to_bits(), v.sqrt().to_bits(), "{v}");
            }
        }
        for v in [f64::MAX, f64::MIN_POSITIVE, 1.0, 2.0, 4.0, 0.25] {
            assert_eq!(super::sqrt(v).to_bits(), v.sqrt().to_bits(), "{v}");
        }
        assert_eq!(super::sqrt(0.0), 0.0);
        assert!(super::sqrt(-1.0).is_nan());
        assert_eq!(super::round(2.5), 3.0);
        assert_eq!(super::round(-2.5), -3.0);
        assert_eq!(super::round(78.125), 78.0);
        assert_eq!(super::ceil_nonneg(2.0), 2);
        assert_eq!(super::ceil_nonneg(2.1), 3);
    }
}
