//! The running sum of a float histogram, which does not overflow where the true sum does
//! not: it is held as `small + big · 2^256`. Interlocked records and merges add into
//! `small` (stripes of it; the single writer's exact sums are read into it, see
//! `octaves.rs`); an addition that would overflow a double moves that stripe's part,
//! scaled by `2^-256`, into `big` instead. Scaling by a power of two is exact (but for values below
//! `2^-766`, which then round to the nearest multiple of `2^-1074 · 2^256`: nothing next to
//! the magnitudes that overflow), and `big` cannot overflow: `f64::MAX · 2^64 · 2^-256`
//! fits a double with room to spare.

/// `2^-256`.
pub(crate) const DOWN: f64 = f64::from_bits((1023 - 256) << 52);
/// `2^256`.
pub(crate) const UP: f64 = f64::from_bits((1023 + 256) << 52);

/// A sum held as `small + big · 2^256` (see the module docs).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct WideSum {
    /// The part a double holds (finite).
    pub(crate) small: f64,
    /// The part that would have overflowed, scaled by `2^-256` (finite).
    pub(crate) big: f64,
}

impl WideSum {
    /// The sum as a double: `±∞` only when its magnitude is beyond `f64::MAX`.
    pub(crate) fn value(self) -> f64 {
        if self.big == 0.0 {
            self.small
        } else {
            self.scaled() * UP
        }
    }

    /// The sum · `2^-256`: always finite.
    pub(crate) fn scaled(self) -> f64 {
        self.big + self.small * DOWN
    }

    /// The sum over `n` (NaN for `n == 0`), without overflowing on the way.
    pub(crate) fn mean(self, n: u128) -> f64 {
        if n == 0 {
            return f64::NAN;
        }
        if self.big == 0.0 {
            self.small / n as f64
        } else {
            (self.scaled() / n as f64) * UP
        }
    }

    /// `self − other`, part by part.
    pub(crate) fn minus(self, other: WideSum) -> WideSum {
        let small = self.small - other.small;
        if small.is_finite() {
            WideSum {
                small,
                big: self.big - other.big,
            }
        } else {
            WideSum {
                small: 0.0,
                big: (self.big - other.big) + (self.small * DOWN - other.small * DOWN),
            }
        }
    }

    /// The compensated (Neumaier) sum of `parts()` (finite doubles) and `big` (scaled): in
    /// `small` while the sum fits a double, else wholly in `big`.
    pub(crate) fn of<I: Iterator<Item = f64>>(parts: impl Fn() -> I, big: f64) -> WideSum {
        let small = neumaier(parts());
        if small.is_finite() {
            WideSum { small, big }
        } else {
            WideSum {
                small: 0.0,
                big: neumaier(parts().map(|x| x * DOWN).chain([big])),
            }
        }
    }
}

/// The compensated sum of `parts`: each addition's rounding error kept apart and added
/// at the end.
pub(crate) fn neumaier(parts: impl Iterator<Item = f64>) -> f64 {
    let (mut sum, mut lost) = (0.0f64, 0.0f64);
    for x in parts {
        let t = sum + x;
        lost += if sum.abs() >= x.abs() {
            (sum - t) + x
        } else {
            (x - t) + sum
        };
        sum = t;
    }
    sum + lost
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scale_factors_are_exact_powers_of_two() {
        assert_eq!(DOWN * UP, 1.0);
        assert_eq!(UP, 2f64.powi(256));
        assert_eq!((f64::MAX * DOWN) * UP, f64::MAX);
    }

    #[test]
    fn parts_that_overflow_move_to_the_scaled_part() {
        let s = WideSum::of(|| [1e308, 1e308, -1.5e308].into_iter(), 0.0);
        assert_eq!(s.small, 0.0);
        assert!((s.value() - 0.5e308).abs() <= 1e292, "{}", s.value());
        let fits = WideSum::of(|| [1.0, 2.0, 1e-300].into_iter(), 0.0);
        assert_eq!((fits.small, fits.big), (3.0, 0.0));
        // A true sum beyond f64::MAX reads +∞; its mean does not overflow.
        let over = WideSum::of(|| [1e308; 4].into_iter(), 0.0);
        assert_eq!(over.value(), f64::INFINITY);
        assert!((over.mean(4) - 1e308).abs() <= 1e293);
    }

    #[test]
    fn differences_are_taken_part_by_part() {
        let a = WideSum::of(|| [1e308, 1e308, 1e308].into_iter(), 0.0);
        let b = WideSum::of(|| [1e308, 1e308].into_iter(), 0.0);
        assert!(a.big != 0.0 && b.big != 0.0);
        assert!((a.minus(b).value() - 1e308).abs() <= 1e293);
        let d = WideSum {
            small: f64::MAX,
            big: 0.0,
        }
        .minus(WideSum {
            small: -f64::MAX,
            big: 0.0,
        });
        assert_eq!(d.value(), f64::INFINITY);
        assert_eq!(d.scaled(), f64::MAX * DOWN * 2.0);
        let c = WideSum {
            small: 3.0,
            big: 0.0,
        };
        assert_eq!(
            c.minus(WideSum {
                small: 1.0,
                big: 0.0
            })
            .value(),
            2.0
        );
    }
}
