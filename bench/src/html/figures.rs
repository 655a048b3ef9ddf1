//! The report's figures, from plain numbers: percentile spectra on HdrHistogram's axis
//! (`1/(1 − q)`), the shift of each percentile with its interval, the rounds in the order
//! they ran with a box of all of them, values over time, and bars.

use core::fmt::Write;
use std::string::String;
use std::vec::Vec;

use super::page::escape;
use super::svg::{Axis, Frame};
use picollo::View;

/// The ranks a spectrum marks and tabulates (those its curve's count resolves).
pub const MARKED_RANKS: [f64; 8] = [0.0, 50.0, 90.0, 99.0, 99.9, 99.99, 99.999, 100.0];

/// Points of a line over time that get markers (none beyond).
const MARKED_POINTS: usize = 200;

/// Curve points per decade of `1/(1 − q)`.
const STEPS_PER_DECADE: u32 = 20;

/// A percentile curve: its label, how many values it summarizes, and its value at ranks
/// (in percent, ascending, from [`curve_ranks`]).
pub struct Curve {
    /// The legend's text.
    pub label: String,
    /// The values it summarizes.
    pub count: u64,
    /// `(rank, value)`, ascending ranks.
    pub points: Vec<(f64, f64)>,
}

impl Curve {
    /// The curve of `count` values whose values at the ranks of [`curve_ranks`] are
    /// `values(ranks)` (`None`: no values, an empty curve).
    pub fn of(label: &str, count: u64, values: impl FnOnce(&[f64]) -> Option<Vec<f64>>) -> Self {
        let ranks = curve_ranks(count);
        let values = values(&ranks).unwrap_or_default();
        let points = ranks.into_iter().zip(values).collect();
        Curve {
            label: label.into(),
            count,
            points,
        }
    }

    /// The curve of the values `view` counts, at its buckets' values (one walk).
    pub fn of_view(label: &str, view: &View<'_, u64>) -> Self {
        Curve::of(label, view.total_count(), |ranks| {
            let mut out = std::vec![0u64; ranks.len()];
            view.percentile_values(ranks, &mut out).ok()?;
            Some(out.into_iter().map(|v| v as f64).collect())
        })
    }

    /// The value at `rank` when the curve holds it.
    pub fn at(&self, rank: f64) -> Option<f64> {
        self.points.iter().find(|p| p.0 == rank).map(|p| p.1)
    }
}

/// How far right rank `rank` lies: `log10(1/(1 − q))`, the maximum (100) at `log10(count)`,
/// the last rank `count` values tell apart.
pub fn rank_x(rank: f64, count: u64) -> f64 {
    let end = (count.max(1) as f64).log10();
    match rank >= 100.0 {
        true => end,
        false => (-(1.0 - rank / 100.0).log10()).min(end),
    }
}

/// The ranks of a curve of `count` values: 20 per decade of `1/(1 − q)` up to the last that
/// `count` values resolve, each of [`MARKED_RANKS`] they resolve, and 100.
pub fn curve_ranks(count: u64) -> Vec<f64> {
    let end = (count.max(1) as f64).log10();
    let steps = (end * STEPS_PER_DECADE as f64).floor() as u32;
    let mut ranks: Vec<f64> = (0..=steps)
        .map(|k| 100.0 * (1.0 - 10f64.powf(-(k as f64) / STEPS_PER_DECADE as f64)))
        .collect();
    ranks.extend(
        MARKED_RANKS
            .iter()
            .filter(|&&r| r < 100.0 && rank_x(r, u64::MAX) <= end),
    );
    ranks.push(100.0);
    ranks.sort_by(f64::total_cmp);
    ranks.dedup_by(|a, b| (*a - *b).abs() < 1e-9);
    ranks
}

/// `0 %`, `90 %`, `99 %`, `99.9 %`, … for decade `k` of `1/(1 − q)`.
pub fn decade_label(k: u32) -> String {
    match k {
        0 => "0 %".into(),
        1 => "90 %".into(),
        k => std::format!("99.{} %", "9".repeat(k as usize - 2)).replace("99. %", "99 %"),
    }
}

/// `P50`, `P99.9`, `P0`, `max`.
pub fn rank_label(rank: f64) -> String {
    match rank >= 100.0 {
        true => "max".into(),
        false => std::format!("P{rank}"),
    }
}

/// How a figure writes its values: on the axis's ticks (few digits) and in its tooltips
/// (as the tables show them).
#[derive(Clone, Copy)]
pub struct Show<'a> {
    /// A tick's label.
    pub tick: &'a dyn Fn(f64) -> String,
    /// A value as the tables show it.
    pub value: &'a dyn Fn(f64) -> String,
}

/// Tick labels of `axis` through `show`.
fn labelled(axis: &Axis, show: &dyn Fn(f64) -> String) -> Vec<(f64, String)> {
    axis.ticks().into_iter().map(|v| (v, show(v))).collect()
}

/// The percentile spectra of `curves` in one plot, values shown by `show` on an axis
/// labelled `y_label`; markers at [`MARKED_RANKS`].
pub fn spectrum(title: &str, y_label: &str, curves: &[Curve], show: Show<'_>) -> String {
    let end = curves
        .iter()
        .map(|c| rank_x(100.0, c.count))
        .fold(1.0, f64::max);
    let x = Axis::linear(0.0, end.ceil());
    let y = Axis::for_values(curves.iter().flat_map(|c| c.points.iter().map(|p| p.1)));
    let mut f = Frame::new(title, x, y);
    let ticks: Vec<(f64, String)> = (0..=end.ceil() as u32)
        .map(|k| (k as f64, decade_label(k)))
        .collect();
    f.x_ticks(&ticks, "percentile (each nine equally wide)");
    let scale = if y.is_log() { ", log scale" } else { "" };
    f.y_ticks(&labelled(&y, show.tick), &std::format!("{y_label}{scale}"));
    for (i, c) in curves.iter().enumerate() {
        let points: Vec<(f64, f64)> = c
            .points
            .iter()
            .map(|&(r, v)| (rank_x(r, c.count), v))
            .collect();
        f.line(i, &points);
        for &(r, v) in c.points.iter().filter(|p| MARKED_RANKS.contains(&p.0)) {
            let tip = std::format!("{}: {} = {}", c.label, rank_label(r), (show.value)(v));
            f.marker(i, (rank_x(r, c.count), v), false, &tip);
        }
    }
    let labels: Vec<String> = curves.iter().map(|c| c.label.clone()).collect();
    f.legend(&labels);
    f.finish()
}

/// One percentile's change: its label, the change in percent and its interval (`None`
/// where there is none).
pub struct ShiftPoint {
    /// `P50`, `max`, ….
    pub label: String,
    /// B's change against A, in percent.
    pub change: f64,
    /// The 99 % interval of the change, in percent.
    pub interval: Option<(f64, f64)>,
    /// The interval excludes 0 (as the comparison judged it).
    pub significant: bool,
}

/// The shift plot: each percentile's change with its interval (filled markers where the
/// interval excludes 0), and the band of ±`noise_floor` percent where one is given.
pub fn shift(title: &str, points: &[ShiftPoint], noise_floor: Option<f64>) -> String {
    let x = Axis::linear(-0.5, points.len() as f64 - 0.5);
    let mut ends: Vec<f64> = std::vec![0.0];
    for p in points {
        ends.push(p.change);
        ends.extend(p.interval.iter().flat_map(|&(lo, hi)| [lo, hi]));
    }
    ends.extend(noise_floor.iter().flat_map(|&n| [-n, n]));
    let finite = ends.iter().filter(|v| v.is_finite());
    let (lo, hi) = finite.fold((0f64, 0f64), |(l, h), &v| (l.min(v), h.max(v)));
    let pad = ((hi - lo) * 0.08).max(0.5);
    let y = Axis::linear(lo - pad, hi + pad);
    let mut f = Frame::new(title, x, y);
    let ticks: Vec<(f64, String)> = points
        .iter()
        .enumerate()
        .map(|(i, p)| (i as f64, p.label.clone()))
        .collect();
    f.x_ticks(&ticks, "percentile");
    f.y_ticks(
        &labelled(&y, &|v| std::format!("{v:+.1} %")),
        "change of B against A, %",
    );
    if let Some(n) = noise_floor.filter(|n| n.is_finite() && *n > 0.0) {
        f.band((-n, n), &std::format!("noise floor ±{n:.2} %"));
    }
    f.rule(0.0);
    for (i, p) in points.iter().enumerate() {
        if let Some(iv) = p.interval {
            f.interval(0, i as f64, iv);
        }
        let tip = match p.interval {
            Some((lo, hi)) => {
                std::format!("{}: {:+.2} % [{lo:+.2} %, {hi:+.2} %]", p.label, p.change)
            }
            None => std::format!("{}: {:+.2} % (no interval)", p.label, p.change),
        };
        f.marker(0, (i as f64, p.change), !p.significant, &tip);
    }
    f.finish()
}

/// The five figures of a box: min, quartiles, max (by the nearest rank).
pub fn five(values: &[f64]) -> Option<[f64; 5]> {
    let mut v: Vec<f64> = values.iter().copied().filter(|x| x.is_finite()).collect();
    if v.is_empty() {
        return None;
    }
    v.sort_by(f64::total_cmp);
    let at = |q: f64| v[((q * v.len() as f64).ceil() as usize).clamp(1, v.len()) - 1];
    Some([v[0], at(0.25), at(0.5), at(0.75), v[v.len() - 1]])
}

/// Each side's round medians in the order the rounds ran (side `i` offset a little to the
/// right of side `i − 1`), and right of them a box of each side's rounds.
pub fn rounds(title: &str, y_label: &str, sides: &[(String, Vec<f64>)], show: Show<'_>) -> String {
    let n = sides.iter().map(|s| s.1.len()).max().unwrap_or(0);
    let boxes_at = n as f64 + 1.5;
    let x = Axis::linear(0.0, boxes_at + sides.len() as f64);
    let y = Axis::for_values(sides.iter().flat_map(|s| s.1.iter().copied()));
    let mut f = Frame::new(title, x, y);
    let every = (n / 8).max(1);
    let mut ticks: Vec<(f64, String)> = (1..=n)
        .filter(|k| (k - 1) % every == 0)
        .map(|k| (k as f64, k.to_string()))
        .collect();
    ticks.push((boxes_at + (sides.len() as f64 - 1.0) / 2.0, "all".into()));
    f.x_ticks(
        &ticks,
        "round, in the order they ran; then a box of all rounds per side",
    );
    f.y_ticks(
        &labelled(&y, show.tick),
        &std::format!("median of each round, {y_label}"),
    );
    for (i, (label, medians)) in sides.iter().enumerate() {
        let offset = 0.2 * i as f64 - 0.1 * (sides.len() as f64 - 1.0);
        let points: Vec<(f64, f64)> = medians
            .iter()
            .enumerate()
            .map(|(k, &v)| (k as f64 + 1.0 + offset, v))
            .collect();
        for (k, &p) in points.iter().enumerate() {
            f.marker(
                i,
                p,
                true,
                &std::format!("{label}, round {}: {}", k + 1, (show.value)(p.1)),
            );
        }
        if let Some(b) = five(medians) {
            f.boxplot(i, boxes_at + i as f64, b);
        }
    }
    let labels: Vec<String> = sides.iter().map(|s| s.0.clone()).collect();
    f.legend(&labels);
    f.finish()
}

/// Values over time: each line's `(seconds, value)` points, with markers up to 200 a line.
pub fn over_time(
    title: &str,
    y_label: &str,
    lines: &[(String, Vec<(f64, f64)>)],
    show: Show<'_>,
) -> String {
    let xs = lines.iter().flat_map(|l| l.1.iter().map(|p| p.0));
    let (lo, hi) = xs.fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), v| {
        (l.min(v), h.max(v))
    });
    let x = Axis::linear(lo.min(0.0), hi);
    let y = Axis::for_values(lines.iter().flat_map(|l| l.1.iter().map(|p| p.1)));
    let mut f = Frame::new(title, x, y);
    f.x_ticks(
        &labelled(&x, &|v| std::format!("{v} s")),
        "seconds from the log's start",
    );
    f.y_ticks(&labelled(&y, show.tick), y_label);
    for (i, (label, points)) in lines.iter().enumerate() {
        f.line(i, points);
        // Markers (and their tooltips) where they stay apart; a long log is its lines.
        let marked = if points.len() <= MARKED_POINTS {
            &points[..]
        } else {
            &[]
        };
        for &(t, v) in marked {
            f.marker(
                i,
                (t, v),
                false,
                &std::format!("{label} at {t:.3} s: {}", (show.value)(v)),
            );
        }
    }
    let labels: Vec<String> = lines.iter().map(|l| l.0.clone()).collect();
    f.legend(&labels);
    f.finish()
}

/// A group of bars: its label, and each bar's label, length and text.
pub struct BarGroup {
    /// The group's heading (a metric).
    pub label: String,
    /// `(label, value, text shown)` per bar.
    pub bars: Vec<(String, f64, String)>,
}

/// Horizontal bars, each group scaled to its largest bar, every bar labelled in words and
/// with its figure.
pub fn bars(title: &str, groups: &[BarGroup]) -> String {
    const ROW: f64 = 14.0;
    const LABEL: f64 = 110.0;
    let rows: usize = groups.iter().map(|g| g.bars.len() + 1).sum();
    let height = ROW * rows as f64 + 8.0;
    let mut svg = std::format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 640 {height}\" width=\"640\" \
         height=\"{height}\" role=\"img\"><title>{}</title>",
        escape(title)
    );
    let mut y = ROW;
    for g in groups {
        let _ = write!(
            svg,
            "<text x=\"0\" y=\"{y:.1}\" font-weight=\"600\">{}</text>",
            escape(&g.label)
        );
        let top = g
            .bars
            .iter()
            .map(|b| b.1)
            .filter(|v| v.is_finite())
            .fold(0.0, f64::max);
        for (i, (label, v, text)) in g.bars.iter().enumerate() {
            y += ROW;
            let w = if top > 0.0 && v.is_finite() {
                360.0 * v / top
            } else {
                0.0
            };
            let _ = write!(
                svg,
                "<text x=\"8\" y=\"{y:.1}\">{}</text><rect class=\"s{}\" x=\"{LABEL}\" y=\"{:.1}\" \
                 width=\"{w:.1}\" height=\"{:.1}\"/><text x=\"{:.1}\" y=\"{y:.1}\">{}</text>",
                escape(label),
                i % 6,
                y - ROW + 4.0,
                ROW - 4.0,
                LABEL + w + 4.0,
                escape(text)
            );
        }
        y += ROW;
    }
    svg.push_str("</svg>");
    svg
}
