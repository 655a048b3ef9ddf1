//! The few float functions the core needs, written out because `core` lacks them without
//! `std` (no libm dependency for three functions).

/// `(m, e)` with `x = m · 2^e` for a finite `x ≥ 0`, `m` an integer (53 bits, fewer for
/// subnormals).
pub(crate) fn integer_significand(x: f64) -> (u64, i32) {
    let bits = x.to_bits();
    let biased = (bits >> 52) as i32;
    let fraction = bits & ((1 << 52) - 1);
    if biased == 0 {
        (fraction, -1074)
    } else {
        (fraction | 1 << 52, biased - 1075)
    }
}

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
    let (m, e) = integer_significand(x);
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

/// Base-2 logarithm of a positive finite `x` (NaN otherwise), to within a few units in
/// the last place: exact for powers of two. `x = 2^e · m` with `m` in `[√½, √2)`, then
/// `ln m = 2·atanh((m − 1)/(m + 1))` by its series (|t| < 0.18: 12 terms reach 1e-18).
#[cfg(feature = "alloc")]
pub(crate) fn log2(x: f64) -> f64 {
    if x.is_nan() || x <= 0.0 || x.is_infinite() {
        return f64::NAN;
    }
    let mut x = x;
    let mut e = 0i32;
    // Subnormals: scale into the normal range first.
    if x < f64::MIN_POSITIVE {
        x *= f64::from_bits((1023u64 + 64) << 52);
        e -= 64;
    }
    let bits = x.to_bits();
    e += ((bits >> 52) & 0x7ff) as i32 - 1023;
    let mut m = f64::from_bits((bits & ((1 << 52) - 1)) | (1023u64 << 52));
    if m > core::f64::consts::SQRT_2 {
        m /= 2.0;
        e += 1;
    }
    let t = (m - 1.0) / (m + 1.0);
    let t2 = t * t;
    let (mut term, mut sum) = (t, 0.0);
    for k in 0..14 {
        sum += term / f64::from(2 * k + 1);
        term *= t2;
    }
    f64::from(e) + 2.0 * sum / core::f64::consts::LN_2
}

/// `2^y` for finite `y` (saturating to 0 or +∞ outside the double range): `2^⌊y⌋` exactly
/// times `e^(f·ln 2)` for the fraction `f` in `[0, 1)` by its Taylor series (24 terms).
#[cfg(feature = "alloc")]
pub(crate) fn exp2(y: f64) -> f64 {
    if y.is_nan() {
        return f64::NAN;
    }
    if y >= 1024.0 {
        return f64::INFINITY;
    }
    if y < -1074.0 {
        return 0.0;
    }
    let n = y as i64 - i64::from(y < 0.0 && y != (y as i64) as f64);
    let z = (y - n as f64) * core::f64::consts::LN_2;
    let (mut term, mut sum) = (1.0, 1.0);
    for k in 1..24 {
        term *= z / f64::from(k);
        sum += term;
    }
    // 2^n in two exact steps, so subnormal and near-overflow results work.
    let half = n / 2;
    let pow = |k: i64| f64::from_bits(((1023 + k) as u64) << 52);
    sum * pow(half) * pow(n - half)
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
    #[cfg(feature = "std")]
    #[test]
    fn log2_and_exp2_agree_with_std() {
        for &x in &[
            1.0,
            2.0,
            3.0,
            0.75,
            1e-300,
            5e-324,
            1e300,
            1.0001,
            123_456.789,
        ] {
            let (got, want) = (super::log2(x), f64::log2(x));
            assert!(
                (got - want).abs() <= 1e-13 * want.abs().max(1.0),
                "{x}: {got} {want}"
            );
        }
        for k in -1074..1024 {
            assert_eq!(super::log2(f64::from(k).exp2()), f64::from(k));
        }
        for &y in &[0.0, 0.5, -0.5, 10.25, -1070.5, 1023.9, 1.0 / 512.0, -3.0] {
            let (got, want) = (super::exp2(y), f64::exp2(y));
            assert!((got - want).abs() <= 1e-14 * want, "{y}: {got} {want}");
        }
    }

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
