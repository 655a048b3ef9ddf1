//! Inline SVG drawing: a plot frame with its axes, ticks and legend, lines, markers and
//! intervals. Series differ in colour (a CSS class), marker shape and dash; every marker
//! carries its figure as a `<title>` (the browser's tooltip, no script).

use core::fmt::Write;
use std::string::String;
use std::vec::Vec;

use super::page::escape;

const WIDTH: f64 = 640.0;
const HEIGHT: f64 = 280.0;
const LEFT: f64 = 84.0;
const RIGHT: f64 = 16.0;
const TOP: f64 = 28.0;
const BOTTOM: f64 = 46.0;
const R: f64 = 4.0;

/// The marker shapes, in series order.
const SHAPES: [&str; 6] = ["circle", "square", "triangle", "diamond", "cross", "plus"];
/// The markers' outlines from their centre, in the order of [`SHAPES`] (about 8 pixels
/// across).
const SHAPE_PATHS: [&str; 6] = [
    "m-4 0a4 4 0 1 0 8 0a4 4 0 1 0 -8 0",
    "m-4 -4h8v8h-8z",
    "m0 -5l4.5 9h-9z",
    "m0 -5l5 5l-5 5l-5 -5z",
    "m-4 -4l8 8m0 -8l-8 8",
    "m-4 0h8m-4 -4v8",
];
/// The lines' dash patterns, in series order.
const DASHES: [&str; 6] = ["", "7 3", "2 3", "9 3 2 3", "1 3", "12 4"];

/// The shape of series `i`'s markers (`circle`, `square`, …), as the legend names it.
pub fn shape_name(i: usize) -> &'static str {
    SHAPES[i % SHAPES.len()]
}

/// An axis: its range and scale.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Axis {
    lo: f64,
    hi: f64,
    log: bool,
}

impl Axis {
    /// A linear axis over `[lo, hi]` (widened by 1 when empty or not finite).
    pub fn linear(lo: f64, hi: f64) -> Self {
        let (lo, hi) = finite_range(lo, hi);
        Axis { lo, hi, log: false }
    }

    /// An axis for `values`: logarithmic when all are positive and the largest is over 20
    /// times the smallest, else linear from 0 (or the smallest, when below 0), 5 % of head
    /// room above the largest.
    pub fn for_values(values: impl Iterator<Item = f64>) -> Self {
        let (lo, hi) = values
            .filter(|v| v.is_finite())
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), v| {
                (l.min(v), h.max(v))
            });
        if lo > 0.0 && hi / lo > 20.0 {
            return Axis {
                lo: lo / 1.1,
                hi: hi * 1.1,
                log: true,
            };
        }
        let low = lo.min(0.0);
        Axis::linear(low, hi + (hi - low).abs() * 0.05)
    }

    /// Whether the scale is logarithmic.
    pub fn is_log(&self) -> bool {
        self.log
    }

    /// Where `v` lies, from 0 (`lo`) to 1 (`hi`), clamped to the axis.
    fn fraction(&self, v: f64) -> f64 {
        let f = match self.log {
            true => (v.max(self.lo).ln() - self.lo.ln()) / (self.hi.ln() - self.lo.ln()),
            false => (v - self.lo) / (self.hi - self.lo),
        };
        if f.is_nan() {
            0.0
        } else {
            f.clamp(0.0, 1.0)
        }
    }

    /// Round values for ticks: 1, 2 or 5 × 10ᵏ apart, about 5 of them; on a log axis the
    /// powers of 10 (with 2 and 5 between them when the axis spans less than 2 decades).
    pub fn ticks(&self) -> Vec<f64> {
        if self.log {
            return log_ticks(self.lo, self.hi);
        }
        let raw = (self.hi - self.lo) / 5.0;
        let magnitude = 10f64.powf(raw.log10().floor());
        let step = [1.0, 2.0, 5.0, 10.0]
            .iter()
            .map(|m| m * magnitude)
            .find(|s| *s >= raw)
            .unwrap_or(10.0 * magnitude);
        let first = (self.lo / step).ceil() as i64;
        let last = (self.hi / step).floor() as i64;
        (first..=last).map(|k| k as f64 * step).collect()
    }
}

/// `[lo, hi]` made finite and non-empty.
fn finite_range(lo: f64, hi: f64) -> (f64, f64) {
    match (lo.is_finite(), hi.is_finite()) {
        (true, true) if hi > lo => (lo, hi),
        (true, _) => (lo, lo + 1.0),
        (false, true) => (hi - 1.0, hi),
        (false, false) => (0.0, 1.0),
    }
}

fn log_ticks(lo: f64, hi: f64) -> Vec<f64> {
    let (first, last) = (lo.log10().ceil() as i32, hi.log10().floor() as i32);
    let steps: &[f64] = if last - first < 2 {
        &[1.0, 2.0, 5.0]
    } else {
        &[1.0]
    };
    let mut ticks = Vec::new();
    for k in (first - 1)..=last {
        for s in steps {
            let v = s * 10f64.powi(k);
            if v >= lo && v <= hi {
                ticks.push(v);
            }
        }
    }
    ticks
}

/// One plot being drawn: its axes and the SVG so far.
pub struct Frame {
    x: Axis,
    y: Axis,
    svg: String,
}

impl Frame {
    /// A plot titled `title` (its accessible name) over axes `x` and `y`.
    pub fn new(title: &str, x: Axis, y: Axis) -> Self {
        let mut svg = String::new();
        let _ = write!(
            svg,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {WIDTH} {HEIGHT}\" \
             width=\"{WIDTH}\" height=\"{HEIGHT}\" role=\"img\"><title>{}</title>",
            escape(title)
        );
        Frame { x, y, svg }
    }

    /// The pixel of data point `(x, y)`, clamped into the plot area.
    pub fn px(&self, x: f64, y: f64) -> (f64, f64) {
        let w = WIDTH - LEFT - RIGHT;
        let h = HEIGHT - TOP - BOTTOM;
        (
            LEFT + self.x.fraction(x) * w,
            TOP + (1.0 - self.y.fraction(y)) * h,
        )
    }

    /// Ticks and grid lines on the x axis at `(value, label)`, and the axis's label.
    pub fn x_ticks(&mut self, ticks: &[(f64, String)], label: &str) {
        let bottom = HEIGHT - BOTTOM;
        for (v, text) in ticks {
            let (x, _) = self.px(*v, 0.0);
            // A label at the right edge ends there, so that it stays inside the figure.
            let half = 3.1 * text.chars().count() as f64;
            let anchor = if x + half > WIDTH { "end" } else { "middle" };
            let _ = write!(
                self.svg,
                "<line class=\"grid\" x1=\"{x:.1}\" y1=\"{TOP}\" x2=\"{x:.1}\" y2=\"{bottom}\"/>\
                 <text x=\"{x:.1}\" y=\"{:.1}\" text-anchor=\"{anchor}\">{}</text>",
                bottom + 14.0,
                escape(text)
            );
        }
        let _ = write!(
            self.svg,
            "<line class=\"axis\" x1=\"{LEFT}\" y1=\"{bottom}\" x2=\"{}\" y2=\"{bottom}\"/>\
             <text x=\"{:.1}\" y=\"{}\" text-anchor=\"middle\">{}</text>",
            WIDTH - RIGHT,
            (LEFT + WIDTH - RIGHT) / 2.0,
            HEIGHT - 6.0,
            escape(label)
        );
    }

    /// Ticks and grid lines on the y axis at `(value, label)`, and the axis's label.
    pub fn y_ticks(&mut self, ticks: &[(f64, String)], label: &str) {
        for (v, text) in ticks {
            let (_, y) = self.px(self.x.lo, *v);
            let _ = write!(
                self.svg,
                "<line class=\"grid\" x1=\"{LEFT}\" y1=\"{y:.1}\" x2=\"{}\" y2=\"{y:.1}\"/>\
                 <text x=\"{}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>",
                WIDTH - RIGHT,
                LEFT - 6.0,
                y + 4.0,
                escape(text)
            );
        }
        let middle = (TOP + HEIGHT - BOTTOM) / 2.0;
        let _ = write!(
            self.svg,
            "<line class=\"axis\" x1=\"{LEFT}\" y1=\"{TOP}\" x2=\"{LEFT}\" y2=\"{}\"/>\
             <text transform=\"translate(14 {middle:.1}) rotate(-90)\" \
             text-anchor=\"middle\">{}</text>",
            HEIGHT - BOTTOM,
            escape(label)
        );
    }

    /// Series `series`'s line through `points` (its dash pattern).
    pub fn line(&mut self, series: usize, points: &[(f64, f64)]) {
        if points.len() < 2 {
            return;
        }
        let dash = DASHES[series % DASHES.len()];
        let _ = write!(self.svg, "<polyline class=\"line s{}\"", series % 6);
        if !dash.is_empty() {
            let _ = write!(self.svg, " stroke-dasharray=\"{dash}\"");
        }
        self.svg.push_str(" points=\"");
        for &(x, y) in points {
            let (px, py) = self.px(x, y);
            let _ = write!(self.svg, "{px:.1},{py:.1} ");
        }
        self.svg.push_str("\"/>");
    }

    /// Series `series`'s marker at `(x, y)` (hollow: an unfilled one), with tooltip `tip`.
    pub fn marker(&mut self, series: usize, (x, y): (f64, f64), hollow: bool, tip: &str) {
        let (cx, cy) = self.px(x, y);
        marker_at(&mut self.svg, series, (cx, cy), hollow, tip);
    }

    /// A vertical interval from `lo` to `hi` at `x`, with end caps, in series `series`.
    pub fn interval(&mut self, series: usize, x: f64, (lo, hi): (f64, f64)) {
        let (px, top) = self.px(x, hi);
        let (_, bottom) = self.px(x, lo);
        let _ = write!(
            self.svg,
            "<path class=\"line s{}\" d=\"M{:.1} {top:.1}H{:.1}M{px:.1} {top:.1}V{bottom:.1}\
             M{:.1} {bottom:.1}H{:.1}\"/>",
            series % 6,
            px - R,
            px + R,
            px - R,
            px + R
        );
    }

    /// A box from `q1` to `q3` with its median and whiskers to `lo` and `hi`, centred at
    /// `x`, in series `series`.
    pub fn boxplot(&mut self, series: usize, x: f64, five: [f64; 5]) {
        let [lo, q1, q2, q3, hi] = five;
        self.interval(series, x, (lo, hi));
        let (px, top) = self.px(x, q3);
        let (_, bottom) = self.px(x, q1);
        let (_, mid) = self.px(x, q2);
        let _ = write!(
            self.svg,
            "<rect class=\"hollow s{0}\" x=\"{1:.1}\" y=\"{top:.1}\" width=\"16\" \
             height=\"{2:.1}\"/><path class=\"line s{0}\" d=\"M{1:.1} {mid:.1}h16\"/>",
            series % 6,
            px - 8.0,
            (bottom - top).max(1.0)
        );
    }

    /// A shaded band across the plot from `lo` to `hi`, labelled at its right end.
    pub fn band(&mut self, (lo, hi): (f64, f64), label: &str) {
        let (_, top) = self.px(self.x.lo, hi);
        let (_, bottom) = self.px(self.x.lo, lo);
        let _ = write!(
            self.svg,
            "<rect class=\"band\" x=\"{LEFT}\" y=\"{top:.1}\" width=\"{:.1}\" \
             height=\"{:.1}\"/><text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>",
            WIDTH - LEFT - RIGHT,
            (bottom - top).max(1.0),
            WIDTH - RIGHT - 4.0,
            top - 3.0,
            escape(label)
        );
    }

    /// A horizontal line across the plot at `y`.
    pub fn rule(&mut self, y: f64) {
        let (_, py) = self.px(self.x.lo, y);
        let _ = write!(
            self.svg,
            "<line class=\"axis\" x1=\"{LEFT}\" y1=\"{py:.1}\" x2=\"{}\" y2=\"{py:.1}\"/>",
            WIDTH - RIGHT
        );
    }

    /// The legend, above the plot: each series' marker and label (with its shape's name).
    pub fn legend(&mut self, labels: &[String]) {
        let mut x = LEFT + 6.0;
        for (i, label) in labels.iter().enumerate() {
            let y = 12.0;
            marker_at(&mut self.svg, i, (x, y), false, label);
            let text = std::format!("{label} ({})", shape_name(i));
            let _ = write!(
                self.svg,
                "<text x=\"{:.1}\" y=\"{:.1}\">{}</text>",
                x + 9.0,
                y + 4.0,
                escape(&text)
            );
            x += 30.0 + 6.2 * text.chars().count() as f64;
        }
    }

    /// The finished `<svg>` element.
    pub fn finish(mut self) -> String {
        self.svg.push_str("</svg>");
        self.svg
    }
}

/// A marker of series `series`'s shape at pixel `(x, y)`.
fn marker_at(svg: &mut String, series: usize, (x, y): (f64, f64), hollow: bool, tip: &str) {
    let class = match hollow {
        true => std::format!("s{} hollow", series % 6),
        false => std::format!("s{}", series % 6),
    };
    let shape = SHAPE_PATHS[series % SHAPE_PATHS.len()];
    let _ = write!(
        svg,
        "<path class=\"{class}\" stroke-width=\"1.5\" d=\"M{x:.1} {y:.1}{shape}\">\
         <title>{}</title></path>",
        escape(tip)
    );
}
