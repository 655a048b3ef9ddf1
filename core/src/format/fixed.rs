//! Fixed decimals the way JavaScript's `Intl.NumberFormat` writes them, which is how
//! hdr-histogram-js prints every float of a `.hgrm` file.
//!
//! `Intl.NumberFormat` (ICU) does not round the double's exact binary value, as Rust's
//! `{:.2}` and C's `%.2f` do: it first takes the *shortest* decimal that reads back as the
//! same double, then rounds that decimal half away from zero. So `1.005` (a double just
//! below 1.005) prints as `1.01`, `0.125` as `0.13` (where `{:.2}` gives `1.00` and
//! `0.12`), and 2^60 as `1152921504606847000.000` (the shortest decimal padded with zeros,
//! not `…846976.000`). Rust's `{:e}` gives the same shortest digits except when two
//! candidates are exactly as close to the double (`643371375338642.25` lies halfway between
//! `…642.2` and `…642.3`): Rust then takes the upper one, ICU's double-conversion the even
//! one, so [`shortest`] moves to the even one. The rounding is then a small digit-string
//! job on the stack.

use core::fmt::{self, Display, Formatter, Write};

use super::numbers::Buf;

/// The most decimals [`JsFixed`] writes (ICU accepts up to 100; reports use at most 12).
pub(crate) const MAX_DECIMALS: usize = 20;

/// `value` with exactly `decimals` decimals (at most [`MAX_DECIMALS`]), no grouping, a `-`
/// for any negative value including `-0`, `NaN` and `∞` / `-∞` for the non-finite ones.
/// Padding and width come from the formatter (`{:>12}`).
pub(crate) struct JsFixed(pub f64, pub usize);

impl Display for JsFixed {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let JsFixed(v, decimals) = *self;
        let decimals = decimals.min(MAX_DECIMALS);
        if v.is_nan() {
            return f.pad("NaN");
        }
        let sign = if v.is_sign_negative() { "-" } else { "" };
        if v.is_infinite() {
            return f.pad(if v < 0.0 { "-∞" } else { "∞" });
        }
        let (digits, count, exponent) = shortest(v.abs())?;
        let digits = digits[..count].iter().copied();

        // Positions 10^top down to 10^-decimals, one byte each, top = max(exponent, 0);
        // one spare byte in front for a carry out of the top digit.
        let top = exponent.max(0);
        let len = (top + 1) as usize + decimals;
        let mut out = [b'0'; 1 + 309 + MAX_DECIMALS];
        let mut round_up = false;
        for (k, d) in digits.enumerate() {
            let position = exponent - k as i32;
            if position >= -(decimals as i32) {
                out[1 + (top - position) as usize] = d;
            } else {
                // Only the first dropped digit decides: half or more rounds away from zero.
                round_up = position == -(decimals as i32) - 1 && d >= b'5';
                break;
            }
        }
        let first = if round_up {
            add_one(&mut out, len).min(1)
        } else {
            1
        };
        let int_end = 1 + (top + 1) as usize;
        let mut text = Buf::<{ 2 + 1 + 309 + 1 + MAX_DECIMALS }>::new();
        text.write_str(sign)?;
        // The bytes are ASCII digits, so every slice is valid UTF-8.
        let ascii =
            |range: core::ops::Range<usize>| core::str::from_utf8(&out[range]).unwrap_or("");
        text.write_str(ascii(first..int_end))?;
        if decimals > 0 {
            text.write_char('.')?;
            text.write_str(ascii(int_end..len + 1))?;
        }
        f.pad(text.as_str())
    }
}

/// Add one at position `last` of the ASCII digits in `out`, carrying leftwards (the byte
/// in front of the top digit takes a carry out of it); the position of the leftmost digit
/// the carry reached.
fn add_one(out: &mut [u8], last: usize) -> usize {
    let mut i = last;
    loop {
        if out[i] == b'9' {
            out[i] = b'0';
            i -= 1;
        } else {
            out[i] += 1;
            return i;
        }
    }
}

/// The shortest decimal digits that read back as `v` (finite, non-negative), ICU's choice
/// among equally close candidates (the even one): `(digits, count, exponent)` with the first
/// digit at `10^exponent`.
fn shortest(v: f64) -> Result<([u8; 17], usize, i32), fmt::Error> {
    let mut sci = Buf::<40>::new();
    write!(sci, "{v:e}")?;
    let (mantissa, exponent) = sci.as_str().split_once('e').ok_or(fmt::Error)?;
    let exponent: i32 = exponent.parse().map_err(|_| fmt::Error)?;
    let mut digits = [0u8; 17];
    let mut count = 0;
    let mut d = 0u64;
    for b in mantissa.bytes().filter(u8::is_ascii_digit) {
        *digits.get_mut(count).ok_or(fmt::Error)? = b;
        count += 1;
        d = d * 10 + (b - b'0') as u64;
    }
    if d % 2 == 1 {
        // v = (10·d ∓ 5) · 10^(exponent − count): halfway between d and its even neighbour.
        let f = exponent - count as i32;
        for (halfway, even) in [(10 * d - 5, d - 1), (10 * d + 5, d + 1)] {
            // Same number of digits (not 10^k − 1 from 10^k): the exponent stays.
            if equals_decimal(v, halfway, f) && even.checked_ilog10() == d.checked_ilog10() {
                let mut e = even;
                for digit in digits[..count].iter_mut().rev() {
                    *digit = b'0' + (e % 10) as u8;
                    e /= 10;
                }
                break;
            }
        }
    }
    Ok((digits, count, exponent))
}

/// Whether `v` (finite, positive) is exactly `k · 10^f`, for an odd `k`.
fn equals_decimal(v: f64, k: u64, f: i32) -> bool {
    // v = m · 2^e with m odd; k · 10^f = k · 5^f · 2^f with k · 5^f odd: the powers of two
    // must agree, then the odd parts.
    let (m, e) = crate::fmath::integer_significand(v);
    if m == 0 {
        return false;
    }
    let (m, e) = (m >> m.trailing_zeros(), e + m.trailing_zeros() as i32);
    if e != f {
        return false;
    }
    // Compare m with k · 5^f (f ≥ 0) or m · 5^-f with k (f < 0), stopping once past.
    let (mut small, big) = if f >= 0 {
        (k as u128, m as u128)
    } else {
        (m as u128, k as u128)
    };
    for _ in 0..f.unsigned_abs() {
        small *= 5;
        if small > big {
            return false;
        }
    }
    small == big
}

#[cfg(all(test, feature = "alloc"))]
mod tests {
    use super::JsFixed;
    use alloc::format;

    /// Each expected string is what Node 20's
    /// `new Intl.NumberFormat("en-US", {minimumFractionDigits: d, maximumFractionDigits: d,
    /// useGrouping: false}).format(v)` prints (the formatter hdr-histogram-js uses).
    #[test]
    fn digits_match_intl_number_format() {
        let cases: &[(f64, usize, &str)] = &[
            (1.005, 2, "1.01"),
            (2f64.powi(60), 3, "1152921504606847000.000"),
            (0.125, 2, "0.13"),
            (2.5, 0, "3"),
            (0.25, 1, "0.3"),
            (1e21, 3, "1000000000000000000000.000"),
            (-0.0, 2, "-0.00"),
            (1.0 / 3.0, 12, "0.333333333333"),
            (1e-7, 3, "0.000"),
            (0.005, 2, "0.01"),
            (0.0, 1, "0.0"),
            (9.995, 2, "10.00"),
            (999.96, 1, "1000.0"),
            (1023.0, 1, "1023.0"),
            (1.023, 1, "1.0"),
            (0.992_187_5, 12, "0.992187500000"),
            (-0.001, 2, "-0.00"),
            (-1.005, 2, "-1.01"),
            (5e-324, 3, "0.000"),
            (123_456_789.987_65, 5, "123456789.98765"),
            // Halfway between two shortest candidates: ICU takes the even one. (Written as
            // sums, which are exact: the doubles are these dyadic values.)
            (176_611_750_092_960.0 + 0.625, 2, "176611750092960.62"),
            (643_371_375_338_642.0 + 0.25, 2, "643371375338642.20"),
            (643_371_375_338_642.0 + 0.75, 2, "643371375338642.80"),
            (643_371_375_338_643.0 + 0.25, 2, "643371375338643.20"),
            (900_719_925_474_099.0 + 0.25, 2, "900719925474099.20"),
            (1e23, 2, "100000000000000000000000.00"),
        ];
        for &(v, d, want) in cases {
            assert_eq!(format!("{}", JsFixed(v, d)), want, "{v} with {d} decimals");
        }
        assert_eq!(format!("{}", JsFixed(f64::NAN, 2)), "NaN");
        assert_eq!(format!("{}", JsFixed(f64::INFINITY, 2)), "∞");
        assert_eq!(format!("{}", JsFixed(f64::NEG_INFINITY, 2)), "-∞");
    }

    #[test]
    fn width_pads_on_the_left() {
        assert_eq!(format!("{:>12}", JsFixed(1023.0, 1)), "      1023.0");
        assert_eq!(format!("{:>2}", JsFixed(0.5, 12)), "0.500000000000");
        assert_eq!(
            format!("{:>14}", JsFixed(f64::INFINITY, 2)),
            "             ∞"
        );
        // The widest value fits the stack buffers.
        assert_eq!(format!("{}", JsFixed(f64::MAX, 20)).len(), 309 + 1 + 20);
        assert_eq!(
            format!("{}", JsFixed(-f64::MAX, 20)).len(),
            1 + 309 + 1 + 20
        );
    }
}
