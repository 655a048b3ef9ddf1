//! The tails the sequential rule needs: the normal's (the complementary error function),
//! Student's t's for integer degrees of freedom, their critical values, and the
//! probability that a standardized Gaussian random walk crosses an edge at any of its
//! equally spaced looks (from which Pocock's constants come).

use std::vec::Vec;

/// The complementary error function, from its Chebyshev fit of fractional error below
/// 1.2·10⁻⁷ (Numerical Recipes' `erfcc`).
pub fn erfc(x: f64) -> f64 {
    const C: [f64; 10] = [
        -1.265_512_23,
        1.000_023_68,
        0.374_091_96,
        0.096_784_18,
        -0.186_288_06,
        0.278_868_07,
        -1.135_203_98,
        1.488_515_87,
        -0.822_152_23,
        0.170_872_77,
    ];
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let poly = C.iter().rev().fold(0.0, |acc, c| c + t * acc);
    let tail = t * (-z * z + poly).exp();
    match x >= 0.0 {
        true => tail,
        false => 2.0 - tail,
    }
}

/// `P(|T| > t)` for Student's t with `df` degrees of freedom (1 or more), from the finite
/// sums of `cos θ` powers that integer degrees of freedom allow (`θ = atan(t/√df)`;
/// Abramowitz & Stegun 26.7.3–4).
pub fn t_tail(t: f64, df: usize) -> f64 {
    let theta = (t.abs() / (df.max(1) as f64).sqrt()).atan();
    let (s, c2) = (theta.sin(), theta.cos().powi(2));
    let within = match df {
        0 | 1 => 2.0 * theta / core::f64::consts::PI,
        d if d % 2 == 1 => {
            let (mut term, mut sum) = (theta.cos(), theta.cos());
            for j in (3..=d - 2).step_by(2) {
                term *= c2 * (j - 1) as f64 / j as f64;
                sum += term;
            }
            2.0 / core::f64::consts::PI * (theta + s * sum)
        }
        d => {
            let (mut term, mut sum) = (1.0, 1.0);
            for j in (2..=d - 2).step_by(2) {
                term *= c2 * (j - 1) as f64 / j as f64;
                sum += term;
            }
            s * sum
        }
    };
    (1.0 - within).max(0.0)
}

/// The `t` with `P(|T| > t) = level` for Student's t with `df` degrees of freedom: by
/// bisection on [`t_tail`].
pub fn t_critical(level: f64, df: usize) -> f64 {
    let mut high = 1.0;
    while t_tail(high, df) > level && high < 1e12 {
        high *= 2.0;
    }
    let mut low = 0.0;
    for _ in 0..200 {
        let mid = 0.5 * (low + high);
        match t_tail(mid, df) > level {
            true => low = mid,
            false => high = mid,
        }
    }
    0.5 * (low + high)
}

/// The `z` with `P(|Z| > z) = level` for the standard normal: by bisection on [`erfc`].
pub fn normal_critical(level: f64) -> f64 {
    let (mut low, mut high) = (0.0, 40.0);
    for _ in 0..200 {
        let mid = 0.5 * (low + high);
        match erfc(mid / core::f64::consts::SQRT_2) > level {
            true => low = mid,
            false => high = mid,
        }
    }
    0.5 * (low + high)
}

/// Points of the grid the crossing probability integrates on, per look.
const GRID: usize = 241;

/// The standard normal density.
fn phi(x: f64) -> f64 {
    (-0.5 * x * x).exp() / (2.0 * core::f64::consts::PI).sqrt()
}

/// The probability that a standardized Gaussian random walk, `|S_k / √k|`, passes `c` at
/// any of `looks` equally spaced looks: the density of the walk not yet stopped, carried
/// from look to look on a grid by the trapezoid rule (Armitage, McPherson & Rowe's
/// recursion).
pub fn crossing(c: f64, looks: usize) -> f64 {
    let grid = |k: usize| {
        let b = c * (k as f64).sqrt();
        let h = 2.0 * b / (GRID - 1) as f64;
        (
            (0..GRID).map(|i| -b + h * i as f64).collect::<Vec<f64>>(),
            h,
        )
    };
    let weight = |i: usize| if i == 0 || i == GRID - 1 { 0.5 } else { 1.0 };
    let (mut xs, mut h) = grid(1);
    let mut f: Vec<f64> = xs.iter().map(|&x| phi(x)).collect();
    for k in 2..=looks.max(1) {
        let (next, hn) = grid(k);
        let g = next.iter().map(|&x| {
            let each = xs.iter().zip(&f).enumerate();
            h * each
                .map(|(i, (y, fy))| weight(i) * fy * phi(x - y))
                .sum::<f64>()
        });
        f = g.collect();
        (xs, h) = (next, hn);
    }
    let mass = f
        .iter()
        .enumerate()
        .map(|(i, v)| weight(i) * v)
        .sum::<f64>();
    (1.0 - h * mass).max(0.0)
}

/// Pocock's constant for a two-sided `alpha` over `looks` equally spaced looks: the edge
/// [`crossing`] passes with probability `alpha`, by bisection.
pub fn pocock_for(alpha: f64, looks: usize) -> f64 {
    let (mut low, mut high) = (0.0, 12.0);
    for _ in 0..40 {
        let mid = 0.5 * (low + high);
        match crossing(mid, looks) > alpha {
            true => low = mid,
            false => high = mid,
        }
    }
    0.5 * (low + high)
}
