//! The few float functions the core needs, written out because `core` lacks them without
//! `std` (no libm dependency for three functions).

/// Square root by Newton's method from a bit-level first guess; exact to the last bit or
/// one ulp for finite non-negative input. NaN for negative input.
pub(crate) fn sqrt(x: f64) -> f64 {
    if x.is_nan() || x <= 0.0 || x == f64::INFINITY {
        // 0 → 0, NaN or negative → NaN, +∞ → +∞.
        return if x == 0.0 || x == f64::INFINITY {
            x
        } else {
            f64::NAN
        };
    }
    // Halving the exponent bits gives a guess within a factor of about 1.5.
    let mut y = f64::from_bits((x.to_bits() >> 1) + (1023u64 << 51));
    for _ in 0..6 {
        y = 0.5 * (y + x / y);
    }
    y
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
    fn matches_std() {
        let mut x = 1e-300f64;
        while x < 1e300 {
            for v in [x, x * 1.2345, x * 7.77] {
                let ours = super::sqrt(v);
                let theirs = v.sqrt();
                assert!(
                    (ours - theirs).abs() <= theirs * f64::EPSILON,
                    "{v}: {ours} vs {theirs}"
                );
            }
            x *= 3.1;
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
