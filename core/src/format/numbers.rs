//! Number formatting for reports: thousands separators, fixed decimals, ranks, signed
//! percentages. All through `core::fmt`, no allocation.

use core::fmt::{self, Display, Formatter, Write};

/// An integer with thousands separators: `1,234,567`.
pub struct Grouped<T>(pub T);

fn write_grouped_digits(f: &mut dyn Write, digits: &str) -> fmt::Result {
    let n = digits.len();
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (n - i) % 3 == 0 {
            f.write_char(',')?;
        }
        f.write_char(ch)?;
    }
    Ok(())
}

macro_rules! grouped_int {
    ($($t:ty),*) => {$(
        impl Display for Grouped<$t> {
            fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
                let mut buf = Buf::<48>::new();
                write!(buf, "{}", self.0)?;
                let mut out = Buf::<64>::new();
                write_grouped_digits(&mut out, buf.as_str())?;
                f.pad(out.as_str())
            }
        }
    )*};
}
grouped_int!(u64, u128, usize);

/// A float with thousands separators and a fixed number of decimals: `21,696.54`.
/// Non-finite values print as `n/a`.
pub struct GroupedF64(pub f64, pub usize);

impl Display for GroupedF64 {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let GroupedF64(v, decimals) = *self;
        if !v.is_finite() {
            return f.pad("n/a");
        }
        let mut buf = Buf::<400>::new();
        write!(buf, "{:.*}", decimals, v.abs())?;
        let s = buf.as_str();
        let (int, frac) = s.split_at(s.find('.').unwrap_or(s.len()));
        let mut out = Buf::<520>::new();
        // "-0.00" reads badly: only show the sign when something non-zero is printed.
        if v < 0.0 && s.bytes().any(|b| (b'1'..=b'9').contains(&b)) {
            out.write_char('-')?;
        }
        write_grouped_digits(&mut out, int)?;
        out.write_str(frac)?;
        f.pad(out.as_str())
    }
}

/// A float in a message, as short as it reads back exactly: `0.001`, `100.0001`, `NaN`,
/// `inf`, and in scientific notation far from 1 (`-1e300`, `5e-324`), where plain
/// decimals would run to hundreds of digits. Every message that shows a caller's float
/// (a relative error, a rank, a base) goes through this.
#[derive(Clone, Copy, Debug)]
pub struct Compact(pub f64);

impl Display for Compact {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let v = self.0;
        // Both forms are Rust's shortest round-trip digits; only the notation differs.
        if v == 0.0 || !v.is_finite() || (1e-5..1e16).contains(&v.abs()) {
            write!(f, "{v}")
        } else {
            write!(f, "{v:e}")
        }
    }
}

/// A rank in percent, as short as it can be: `99.9`, `0`, `9.1914` (at most 4 decimals,
/// more only when the rank needs them).
pub struct Rank(pub f64);

impl Display for Rank {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let v = self.0;
        let mut buf = Buf::<400>::new();
        write_four_decimals(&mut buf, v)?;
        let shown = trim_zeros(buf.as_str()).parse::<f64>().unwrap_or(v);
        // 99.99999 must not read as 100, nor 0.00001 as 0: print those in full.
        if (shown == 100.0 || shown == 0.0) && shown != v {
            buf.clear();
            write!(buf, "{v}")?;
        }
        f.pad(trim_zeros(buf.as_str()))
    }
}

/// `v` with 4 decimals, a tie rounded away from zero on the decimal the rank stands for, as
/// the reference tables print it: a bucket rank of 9.19135 % shows as 9.1914. `{:.4}` would round the
/// binary approximation instead, which lies just below the tie (9.1913). The nudge of 1e-13
/// is far above the few ulps of noise in a computed rank and far below its 1e-4 resolution.
fn write_four_decimals(w: &mut dyn Write, v: f64) -> fmt::Result {
    if v.is_nan() || v.abs() >= 1e12 {
        // NaN, infinities and huge values (no rank of a histogram): nothing to nudge.
        return write!(w, "{}", Compact(v));
    }
    let scaled = crate::fmath::round(v * 10_000.0 * (1.0 + 1e-13));
    let n = scaled.abs() as u64;
    let sign = if scaled < 0.0 { "-" } else { "" };
    write!(w, "{sign}{}.{:04}", n / 10_000, n % 10_000)
}

fn trim_zeros(s: &str) -> &str {
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.')
    } else {
        s
    }
}

/// A signed percentage with one decimal: `+1.1%`, `-5.1%`, `0.0%`; `n/a` when not finite.
pub struct SignedPercent(pub f64);

impl Display for SignedPercent {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let v = self.0;
        let mut buf = Buf::<400>::new();
        if !v.is_finite() {
            buf.write_str("n/a")?;
        } else if crate::fmath::round(v * 10.0) == 0.0 {
            buf.write_str("0.0%")?;
        } else {
            write!(
                buf,
                "{}{}%",
                if v > 0.0 { "+" } else { "-" },
                GroupedF64(v.abs(), 1)
            )?;
        }
        f.pad(buf.as_str())
    }
}

/// A double with as many significant digits as the layout resolves (`digits`): grouped
/// decimals for magnitudes from 0.001 to 10^15, scientific notation outside (`1.2346e-9`),
/// `0` for zero.
#[cfg(feature = "alloc")]
pub(crate) struct Significant(pub f64, pub usize);

#[cfg(feature = "alloc")]
impl Display for Significant {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let Significant(v, digits) = *self;
        if v == 0.0 {
            return f.pad("0");
        }
        if !v.is_finite() {
            return f.pad(if v.is_nan() {
                "NaN"
            } else if v > 0.0 {
                "+∞"
            } else {
                "-∞"
            });
        }
        let magnitude = v.abs();
        let mut buf = Buf::<64>::new();
        if (1e-3..1e15).contains(&magnitude) {
            // Digits before the point: floor(log10 |v|) + 1.
            let log = crate::fmath::log2(magnitude) * core::f64::consts::LOG10_2;
            // floor, without std: truncation rounds negative values up.
            let truncated = log as i64;
            let floor = truncated - i64::from((truncated as f64) > log);
            let int_digits = floor + 1;
            let decimals = (digits as i64 - int_digits).clamp(0, 17) as usize;
            write!(buf, "{}", GroupedF64(v, decimals))?;
        } else {
            write!(buf, "{:.*e}", digits.saturating_sub(1), v)?;
        }
        f.pad(buf.as_str())
    }
}

/// Significant digits that show a value to the layout's resolution: one more than the
/// decimal digits of `1 / precision`.
#[cfg(feature = "alloc")]
pub(crate) fn significant_digits(precision: f64) -> usize {
    if precision.is_nan() || precision <= 0.0 {
        return 6;
    }
    let log = crate::fmath::log2(1.0 / precision) * core::f64::consts::LOG10_2;
    (crate::fmath::ceil_nonneg(log) as usize + 1).clamp(3, 17)
}

/// A fixed-capacity text buffer on the stack; writes past the end fail with `fmt::Error`.
pub(crate) struct Buf<const N: usize> {
    bytes: [u8; N],
    len: usize,
}

impl<const N: usize> Buf<N> {
    pub(crate) const fn new() -> Self {
        Buf {
            bytes: [0; N],
            len: 0,
        }
    }

    pub(crate) fn as_str(&self) -> &str {
        // Only whole `&str`s are ever copied in, so the prefix is valid UTF-8.
        core::str::from_utf8(&self.bytes[..self.len]).unwrap_or("")
    }

    pub(crate) fn clear(&mut self) {
        self.len = 0;
    }
}

impl<const N: usize> AsRef<str> for Buf<N> {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl<const N: usize> Write for Buf<N> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        let end = self.len + s.len();
        if end > N {
            return Err(fmt::Error);
        }
        self.bytes[self.len..end].copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
    }
}

#[cfg(all(test, feature = "alloc"))]
mod tests {
    use super::*;
    use alloc::format;

    #[test]
    fn integers_get_thousands_separators() {
        assert_eq!(format!("{}", Grouped(0u64)), "0");
        assert_eq!(format!("{}", Grouped(999u64)), "999");
        assert_eq!(format!("{}", Grouped(1000u64)), "1,000");
        assert_eq!(format!("{}", Grouped(24_960u64)), "24,960");
        assert_eq!(
            format!("{}", Grouped(u64::MAX)),
            "18,446,744,073,709,551,615"
        );
        assert_eq!(format!("{:>8}", Grouped(1234u64)), "   1,234");
    }

    #[test]
    fn floats_get_separators_and_fixed_decimals() {
        assert_eq!(format!("{}", GroupedF64(21_696.544, 2)), "21,696.54");
        assert_eq!(format!("{}", GroupedF64(21_443.66, 1)), "21,443.7");
        assert_eq!(format!("{}", GroupedF64(-1234.5, 2)), "-1,234.50");
        assert_eq!(format!("{}", GroupedF64(-0.001, 2)), "0.00");
        assert_eq!(format!("{}", GroupedF64(f64::NAN, 2)), "n/a");
        assert_eq!(format!("{}", GroupedF64(1e300, 0)).len(), 301 + 100);
    }

    #[test]
    fn compact_floats_round_trip_without_hundreds_of_digits() {
        let cases = [
            (0.0, "0"),
            (-0.0, "-0"),
            (0.001, "0.001"),
            (100.0001, "100.0001"),
            (-0.001, "-0.001"),
            (1e-5, "0.00001"),
            (1e-6, "1e-6"),
            (1e300, "1e300"),
            (-1e300, "-1e300"),
            (5e-324, "5e-324"),
            (1.7976931348623157e308, "1.7976931348623157e308"),
            (123_456_789.5, "123456789.5"),
            (1e16, "1e16"),
            (f64::NAN, "NaN"),
            (f64::INFINITY, "inf"),
            (f64::NEG_INFINITY, "-inf"),
        ];
        for (v, want) in cases {
            let text = format!("{}", Compact(v));
            assert_eq!(text, want);
            if v.is_finite() {
                assert_eq!(
                    text.parse::<f64>().unwrap().to_bits(),
                    v.to_bits(),
                    "{text}"
                );
            }
        }
    }

    #[test]
    fn ranks_are_short() {
        assert_eq!(format!("{}", Rank(0.0)), "0");
        assert_eq!(format!("{}", Rank(92.5)), "92.5");
        assert_eq!(format!("{}", Rank(99.999)), "99.999");
        assert_eq!(format!("{}", Rank(9.19136)), "9.1914");
        assert_eq!(format!("{}", Rank(0.00001)), "0.00001");
        assert_eq!(format!("{}", Rank(23.6734)), "23.6734");
        assert_eq!(format!("{}", Rank(100.0)), "100");
        assert_eq!(format!("{}", Rank(99.999_999)), "99.999999");
        // Ties round away from zero in decimal, as in the reference bucket-percentile tables.
        assert_eq!(format!("{}", Rank(91_913.5 / 1e6 * 100.0)), "9.1914");
        assert_eq!(format!("{}", Rank(728_368.5 / 1e6 * 100.0)), "72.8369");
        assert_eq!(format!("{}", Rank(408_359.5 / 1e6 * 100.0)), "40.836");
        assert_eq!(format!("{}", Rank(9.19134)), "9.1913");
    }

    #[test]
    fn percentages_are_signed() {
        assert_eq!(format!("{}", SignedPercent(-5.07)), "-5.1%");
        assert_eq!(format!("{}", SignedPercent(100.0)), "+100.0%");
        assert_eq!(format!("{}", SignedPercent(0.0)), "0.0%");
        assert_eq!(format!("{}", SignedPercent(-0.04)), "0.0%");
        assert_eq!(format!("{}", SignedPercent(12345.0)), "+12,345.0%");
        assert_eq!(format!("{}", SignedPercent(f64::INFINITY)), "n/a");
    }
}
