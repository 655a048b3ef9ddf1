//! `picollo plot`: percentile curves like HdrHistogram's plotter. The x axis is
//! `log10(1 / (1 − p))`, labelled with the percentile (0 %, 90 %, 99 %, 99.9 %, …), so each
//! "nine" gets the same width; the y axis is the value at that percentile.

use std::path::Path;

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::{register_font, FontStyle};

use crate::error::Failure;
use crate::select::Selected;
use crate::table::Units;

/// Where the font comes from when neither `--font` nor `PICOLLO_FONT` says: DejaVu Sans
/// (Debian's and Ubuntu's fonts-dejavu-core, then Fedora's and Arch's paths).
const FONT_PATHS: [&str; 3] = [
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/dejavu-sans-fonts/DejaVuSans.ttf",
    "/usr/share/fonts/TTF/DejaVuSans.ttf",
];

/// Samples per decade of `1 / (1 − p)`.
const STEPS_PER_DECADE: usize = 100;

/// One curve: its legend and its selection's sum.
pub struct Series {
    /// The legend text.
    pub name: String,
    /// The selected intervals' sum.
    pub selected: Selected,
}

/// What the plot looks like.
pub struct Options<'a> {
    /// The title above the plot.
    pub title: &'a str,
    /// Values are divided by this.
    pub unit_ratio: f64,
    /// The values' unit after the division, for the axis.
    pub unit: Option<&'a str>,
    /// Width and height in pixels.
    pub size: (u32, u32),
    /// A TrueType font file, instead of the default search.
    pub font: Option<&'a str>,
}

/// The image kinds, told by the output's extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// A PNG bitmap.
    Png,
    /// SVG text.
    Svg,
}

impl Format {
    /// The format for `path`'s extension (`.png`, `.svg`, any case), if known.
    pub fn of(path: &str) -> Option<Format> {
        let ext = Path::new(path).extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            "png" => Some(Format::Png),
            "svg" => Some(Format::Svg),
            _ => None,
        }
    }
}

/// Load the font text is drawn with and register it as plotters' "sans-serif".
fn load_font(explicit: Option<&str>) -> Result<(), Failure> {
    let env = std::env::var("PICOLLO_FONT").ok();
    let (path, bytes) = match explicit.map(String::from).or(env) {
        Some(path) => {
            let bytes = std::fs::read(&path).map_err(|e| Failure::io(&path, &e))?;
            (path, bytes)
        }
        None => FONT_PATHS
            .iter()
            .find_map(|p| std::fs::read(p).ok().map(|b| (p.to_string(), b)))
            .ok_or_else(|| Failure {
                exit: crate::error::Exit::Io,
                message: format!(
                    "no font for the plot's text: none of {} exists (install Debian's \
                     fonts-dejavu-core, or name a .ttf file with --font or PICOLLO_FONT)",
                    FONT_PATHS.join(", ")
                ),
            })?,
    };
    // plotters keeps fonts for the life of the process; the program draws one plot and
    // exits, so the bytes are leaked once.
    let bytes: &'static [u8] = Box::leak(bytes.into_boxed_slice());
    register_font("sans-serif", FontStyle::Normal, bytes).map_err(|_| Failure {
        exit: crate::error::Exit::Io,
        message: format!("{path}: not a TrueType or OpenType font"),
    })
}

/// A curve's points: `(log10(1 / (1 − p)), value)` from p = 0 to p = 1 − 1/N (the last
/// rank below 100 % that still tells values apart), `STEPS_PER_DECADE` per decade, then the
/// maximum at that same x: the curve ends at the largest value, as HdrHistogram's plotter's
/// does (its last finite row holds the maximum).
fn points(selected: &Selected, units: Units) -> Vec<(f64, f64)> {
    let view = selected.histogram.view();
    let total = view.total_count().max(1) as f64;
    let last = total.log10();
    let steps = (last * STEPS_PER_DECADE as f64).ceil() as usize;
    let mut out = Vec::with_capacity(steps + 2);
    for i in 0..=steps {
        let x = (i as f64 / STEPS_PER_DECADE as f64).min(last);
        let rank = (100.0 * (1.0 - 10f64.powf(-x))).clamp(0.0, 100.0);
        if let Ok(v) = view.percentile_value(rank) {
            out.push((x, units.scale(v)));
        }
    }
    if let Ok(max) = view.percentile_value(100.0) {
        out.push((last, units.scale(max)));
    }
    out
}

/// The x label for `x` decades: `0%`, `90%`, `99%`, `99.9%`, … (empty between decades).
fn percentile_label(x: f64) -> String {
    let k = x.round();
    if (x - k).abs() > 1e-6 || k < 0.0 {
        return String::new();
    }
    let k = k as i32;
    if k == 0 {
        return "0%".to_string();
    }
    let decimals = (k - 2).max(0) as usize;
    format!("{:.*}%", decimals, 100.0 - 10f64.powi(2 - k))
}

/// The value axis's description: `value (µs)` with a unit, else `value` or `value / R`.
fn value_axis(opts: &Options<'_>) -> String {
    match (opts.unit, opts.unit_ratio) {
        (Some(unit), _) => format!("value ({unit})"),
        (None, 1.0) => "value".to_string(),
        (None, r) => format!("value / {r}"),
    }
}

/// A y label with as many decimals as ticks a tenth of the axis apart need: `1200` on an
/// axis up to 1365, `1.2` on one up to 1.365.
fn value_label(y: f64, top: f64) -> String {
    let decimals = (-(top / 10.0).log10()).ceil().clamp(0.0, 9.0) as usize;
    format!("{y:.decimals$}")
}

/// Draw the curves into `path` (PNG or SVG, by extension).
pub fn plot(
    series: &[Series],
    path: &str,
    format: Format,
    opts: &Options<'_>,
) -> Result<(), Failure> {
    load_font(opts.font)?;
    let units = Units::new(opts.unit_ratio);
    let curves: Vec<(String, Vec<(f64, f64)>)> = series
        .iter()
        .map(|s| (s.name.clone(), points(&s.selected, units)))
        .collect();
    let draw_error = |e: String| Failure {
        exit: crate::error::Exit::Io,
        message: format!("{path}: cannot draw the plot: {e}"),
    };
    let (w, h) = opts.size;
    match format {
        Format::Svg => {
            let mut text = String::new();
            {
                let root = SVGBackend::with_string(&mut text, (w, h)).into_drawing_area();
                draw(&root, &curves, opts).map_err(draw_error)?;
            }
            std::fs::write(path, text).map_err(|e| Failure::io(path, &e))
        }
        Format::Png => {
            let mut pixels = vec![0u8; w as usize * h as usize * 3];
            {
                let root = BitMapBackend::with_buffer(&mut pixels, (w, h)).into_drawing_area();
                draw(&root, &curves, opts).map_err(draw_error)?;
            }
            write_png(path, w, h, &pixels)
        }
    }
}

fn write_png(path: &str, w: u32, h: u32, rgb: &[u8]) -> Result<(), Failure> {
    let file = std::fs::File::create(path).map_err(|e| Failure::io(path, &e))?;
    let mut encoder = png::Encoder::new(std::io::BufWriter::new(file), w, h);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    let encode_error = |e: png::EncodingError| Failure {
        exit: crate::error::Exit::Io,
        message: format!("{path}: {e}"),
    };
    let mut writer = encoder.write_header().map_err(encode_error)?;
    writer.write_image_data(rgb).map_err(encode_error)?;
    writer.finish().map_err(encode_error)
}

/// The axes' extent: the decades of percentile to show (at least 1) and the top of the
/// value axis (5 % above the largest value; 1 when every value is 0).
fn extent(curves: &[(String, Vec<(f64, f64)>)]) -> (f64, f64) {
    let decades = curves
        .iter()
        .filter_map(|(_, p)| p.last().map(|&(x, _)| x))
        .fold(1.0f64, f64::max)
        .ceil();
    let top = curves
        .iter()
        .flat_map(|(_, p)| p.iter().map(|&(_, y)| y))
        .fold(0.0f64, f64::max);
    (decades, if top > 0.0 { top * 1.05 } else { 1.0 })
}

fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    curves: &[(String, Vec<(f64, f64)>)],
    opts: &Options<'_>,
) -> Result<(), String> {
    let err = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    let (decades, top) = extent(curves);
    root.fill(&WHITE).map_err(err)?;
    let mut chart = ChartBuilder::on(root)
        .caption(opts.title, ("sans-serif", 24))
        .margin(20)
        .x_label_area_size(50)
        .y_label_area_size(90)
        // A little room right of the last decade, so its label is not cut at the edge.
        .build_cartesian_2d(0.0..decades * 1.04, 0.0..top)
        .map_err(err)?;
    chart
        .configure_mesh()
        .x_desc("percentile")
        .y_desc(value_axis(opts))
        .x_labels(decades as usize + 1)
        .x_label_formatter(&|x| percentile_label(*x))
        .y_label_formatter(&|y| value_label(*y, top))
        .label_style(("sans-serif", 15))
        .axis_desc_style(("sans-serif", 17))
        .light_line_style(WHITE.mix(0.0))
        .draw()
        .map_err(err)?;
    for (k, (name, points)) in curves.iter().enumerate() {
        let color = Palette99::pick(k).to_rgba();
        let line = LineSeries::new(points.iter().copied(), color.stroke_width(2));
        chart
            .draw_series(line)
            .map_err(err)?
            .label(name.as_str())
            .legend(move |(x, y)| PathElement::new([(x, y), (x + 24, y)], color.stroke_width(2)));
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .label_font(("sans-serif", 15))
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK)
        .draw()
        .map_err(err)?;
    root.present().map_err(err)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn x_labels_count_nines() {
        let labels: Vec<String> = (0..6).map(|k| percentile_label(k as f64)).collect();
        assert_eq!(labels, ["0%", "90%", "99%", "99.9%", "99.99%", "99.999%"]);
        assert_eq!(percentile_label(1.5), "");
    }

    #[test]
    fn y_labels_have_the_decimals_the_axis_needs() {
        assert_eq!(value_label(1200.0, 1365.0), "1200");
        assert_eq!(value_label(1.2, 1.365), "1.2");
        assert_eq!(value_label(0.0005, 0.0012), "0.0005");
    }

    #[test]
    fn formats_follow_the_extension() {
        assert_eq!(Format::of("a/b.PNG"), Some(Format::Png));
        assert_eq!(Format::of("b.svg"), Some(Format::Svg));
        assert_eq!(Format::of("b.jpg"), None);
        assert_eq!(Format::of("png"), None);
    }
}
