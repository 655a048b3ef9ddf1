//! Where exactly a change lies, once found: the split near the rank sums' best whose two
//! sides fit their own lower quartile best under the quartile's check loss. Time's noise
//! between runs is one-sided (a neighbour, a frequency step, a page fault slow a run; none
//! speeds it), so a run's figure sits at its level or above it: a run far above both levels
//! next to the change says little about its side, a run at the lower level says much, and
//! the check loss weighs them so (a run below a side's quartile costs three times one above
//! it).

use std::vec::Vec;

/// The quantile whose check loss places a change.
const TAU: f64 = 0.25;

/// The `TAU` quantile of `values` (nearest rank).
fn level(values: &[f64]) -> f64 {
    let mut v = values.to_vec();
    v.sort_unstable_by(f64::total_cmp);
    v[((v.len() - 1) as f64 * TAU).round() as usize]
}

/// The check loss of `values` about their own `TAU` quantile, a run above it counted up to
/// `cap` at most.
fn loss(values: &[f64], cap: f64) -> f64 {
    let level = level(values);
    let check = |x: f64| match x >= level {
        true => TAU * (x - level).min(cap),
        false => (1.0 - TAU) * (level - x),
    };
    values.iter().map(|&x| check(x)).sum()
}

/// Each split within `lo..=hi` of `figures` and its two sides' losses.
fn costs(figures: &[f64], (lo, hi): (usize, usize), cap: f64) -> Vec<(usize, f64)> {
    let cost = |k: usize| loss(&figures[..k], cap) + loss(&figures[k..], cap);
    (lo..=hi).map(|k| (k, cost(k))).collect()
}

/// The split of `figures` (one rank's log figures over a stretch) within `reach` runs of
/// `found` whose two sides' losses add to the least, each side at least `min` runs long.
/// A first pass sizes the step; the second counts a run above its side's level up to the
/// step at most, so that a slow run next to the change fits either side equally: such
/// splits tie, and the middle of the ties next to the best is taken (the nearest to
/// wherever among them the change is).
pub fn refine(figures: &[f64], found: usize, reach: usize, min: usize) -> usize {
    let span = (
        found.saturating_sub(reach).max(min),
        (found + reach).min(figures.len() - min),
    );
    let least = |c: &[(usize, f64)]| c.iter().copied().min_by(|a, b| a.1.total_cmp(&b.1));
    let Some((first, _)) = least(&costs(figures, span, f64::INFINITY)) else {
        return found;
    };
    let step = (level(&figures[first..]) - level(&figures[..first])).abs();
    let costs = costs(figures, span, step);
    let Some((best, low)) = least(&costs) else {
        return found;
    };
    // Misplacing a run at its level costs (1 − TAU)·step; a quarter of that is a tie (the
    // sides' levels move a little as a run changes sides).
    let tie = |k: usize| costs[k - span.0].1 <= low + (1.0 - TAU) * step / 4.0;
    let from = (span.0..=best)
        .rev()
        .take_while(|&k| tie(k))
        .last()
        .unwrap_or(best);
    let to = (best..=span.1)
        .take_while(|&k| tie(k))
        .last()
        .unwrap_or(best);
    (from + to) / 2
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_slow_run_before_the_step_stays_before_it() {
        // Level 0 until run 20, 0.2 from there; run 18 slow (0.8), run 19 at its level.
        let mut f: Vec<f64> = (0..40).map(|i| if i < 20 { 0.0 } else { 0.2 }).collect();
        f[18] = 0.8;
        assert_eq!(refine(&f, 18, 5, 3), 20);
    }
}
