//! `picollo plot`: a PNG that decodes to the size asked with both curves' colours in it, and
//! an SVG that is well-formed, with one curve and one legend entry per series and the axis
//! labels as text.

mod common;

use common::{fails, ok, picollo};

fn temp(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("picollo-plot-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// Palette99's first two colours, the curves' colours.
const FIRST: [u8; 3] = [0xE6, 0x19, 0x4B];
const SECOND: [u8; 3] = [0x3C, 0xB4, 0x4B];

#[test]
fn a_png_plot_is_a_valid_image_with_every_curve() {
    let path = temp("two.png");
    let out = ok(&[
        "plot",
        "latency.hlog",
        "latency_b.hlog",
        "-o",
        path.to_str().unwrap(),
        "--width",
        "640",
        "--height",
        "400",
        "--title",
        "Latency",
    ]);
    assert!(out.is_empty());
    let bytes = std::fs::read(&path).unwrap();
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
    assert_eq!(&bytes[12..16], b"IHDR");
    assert_eq!(u32::from_be_bytes(bytes[16..20].try_into().unwrap()), 640);
    assert_eq!(u32::from_be_bytes(bytes[20..24].try_into().unwrap()), 400);
    let decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    let mut reader = decoder.read_info().expect("a PNG header");
    let mut pixels = vec![0; reader.output_buffer_size().expect("a size")];
    let info = reader.next_frame(&mut pixels).expect("the image decodes");
    assert_eq!((info.width, info.height), (640, 400));
    assert_eq!(info.color_type, png::ColorType::Rgb);
    let count = |rgb: [u8; 3]| pixels.chunks(3).filter(|p| *p == rgb).count();
    // Each curve spans most of the width, 2 pixels thick.
    assert!(count(FIRST) > 400, "first curve: {} pixels", count(FIRST));
    assert!(
        count(SECOND) > 400,
        "second curve: {} pixels",
        count(SECOND)
    );
    // Text and axes are drawn in black on white.
    assert!(count([0, 0, 0]) > 500, "black: {}", count([0, 0, 0]));
    assert!(count([255, 255, 255]) > 640 * 400 / 2);
    std::fs::remove_file(&path).unwrap();
}

/// Tags of `svg` in order, checked to nest: `(name, attributes, text after it)`.
fn elements(svg: &str) -> Vec<(String, String, String)> {
    let mut out = Vec::new();
    let mut open: Vec<String> = Vec::new();
    let mut rest = svg;
    while let Some(start) = rest.find('<') {
        let end = start + rest[start..].find('>').expect("every tag closes");
        let tag = &rest[start + 1..end];
        rest = &rest[end + 1..];
        if tag.starts_with('?') || tag.starts_with('!') {
            continue;
        }
        if let Some(name) = tag.strip_prefix('/') {
            assert_eq!(
                open.pop().as_deref(),
                Some(name.trim()),
                "mis-nested </{name}>"
            );
            continue;
        }
        let self_closing = tag.ends_with('/');
        let tag = tag.trim_end_matches('/');
        let (name, attrs) = tag.split_once(char::is_whitespace).unwrap_or((tag, ""));
        let text = rest[..rest.find('<').unwrap_or(rest.len())]
            .trim()
            .to_string();
        out.push((name.to_string(), attrs.to_string(), text));
        if !self_closing {
            open.push(name.to_string());
        }
    }
    assert!(open.is_empty(), "unclosed: {open:?}");
    out
}

#[test]
fn an_svg_plot_has_one_curve_and_legend_entry_per_series() {
    let path = temp("tags.svg");
    ok(&[
        "plot",
        "peer_hdrh.hlog",
        "--tag",
        "api",
        "--tag",
        "db",
        "-o",
        path.to_str().unwrap(),
        "--unit-ratio",
        "1000",
    ]);
    let svg = std::fs::read_to_string(&path).unwrap();
    let els = elements(&svg);
    assert_eq!(els[0].0, "svg");
    assert!(els[0].1.contains("width=\"1200\"") && els[0].1.contains("height=\"700\""));
    // Curves and legend swatches are the 2-pixel polylines: a curve has hundreds of points,
    // a swatch two.
    let wide: Vec<usize> = els
        .iter()
        .filter(|(n, a, _)| n == "polyline" && a.contains("stroke-width=\"2\""))
        .map(|(_, a, _)| {
            let points = a
                .split("points=\"")
                .nth(1)
                .unwrap()
                .split('"')
                .next()
                .unwrap();
            points.split_whitespace().count()
        })
        .collect();
    let curves = wide.iter().filter(|&&n| n > 100).count();
    let swatches = wide.iter().filter(|&&n| n == 2).count();
    assert_eq!((curves, swatches), (2, 2), "{wide:?}");
    let texts: Vec<&str> = els
        .iter()
        .filter(|(n, _, _)| n == "text")
        .map(|(_, _, t)| t.as_str())
        .collect();
    for label in [
        "Percentile distribution",
        "percentile",
        "value / 1000",
        "api",
        "db",
    ] {
        assert!(texts.contains(&label), "{label:?} not in {texts:?}");
    }
    // The x axis counts nines: api has 300 values, so it reaches 99.9 %.
    for label in ["0%", "90%", "99%", "99.9%"] {
        assert!(texts.contains(&label), "{label:?} not in {texts:?}");
    }
    std::fs::remove_file(&path).unwrap();
}

#[test]
fn legends_name_files_and_stdin_works() {
    let path = temp("stdin.svg");
    let bytes = std::fs::read(common::data_dir().join("single.b64")).unwrap();
    let run = picollo(
        &["plot", "latency.hlog", "-", "-o", path.to_str().unwrap()],
        Some(&bytes),
    );
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let svg = std::fs::read_to_string(&path).unwrap();
    let texts: Vec<String> = elements(&svg)
        .into_iter()
        .filter(|(n, _, _)| n == "text")
        .map(|(_, _, t)| t)
        .collect();
    assert!(texts.iter().any(|t| t == "latency.hlog"), "{texts:?}");
    assert!(texts.iter().any(|t| t == "&lt;stdin&gt;"), "{texts:?}");
    std::fs::remove_file(&path).unwrap();
}

#[test]
fn a_missing_font_is_an_io_error() {
    let path = temp("font.svg");
    // (the font given, what the error names)
    for (font, named) in [
        ("/nonexistent.ttf", "/nonexistent.ttf"),
        ("latency.hlog", "not a TrueType"),
    ] {
        let out = path.to_str().unwrap();
        let args = ["plot", "latency.hlog", "-o", out, "--font", font];
        fails(&args, None, 3, &[named]);
    }
}

#[test]
fn the_curve_reaches_the_maximum() {
    // 999 values of 1000 and one of 1,000,000: only the maximum is far above the rest.
    let mut h: picollo::Histogram<u64, Vec<u64>> = picollo::Config::new()
        .with_range(1, 10_000_000)
        .build()
        .unwrap();
    h.record_n(1000, 999);
    h.record(1_000_000);
    let text = h.view().encode_v2_base64().unwrap();
    let path = temp("max.svg");
    let run = picollo(
        &["plot", "-", "-o", path.to_str().unwrap()],
        Some(text.as_bytes()),
    );
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let svg = std::fs::read_to_string(&path).unwrap();
    std::fs::remove_file(&path).unwrap();
    // The value axis is scaled to the curve: its labels go up to the maximum.
    let top = elements(&svg)
        .iter()
        .filter(|(n, _, _)| n == "text")
        .filter_map(|(_, _, t)| t.parse::<f64>().ok())
        .fold(0.0f64, f64::max);
    assert!(top >= 900_000.0, "highest value label {top}");
    assert!(top <= 1_050_000.0, "highest value label {top}");
}

#[test]
fn the_value_axis_names_the_unit_or_the_ratio() {
    let texts = |extra: &[&str], name: &str| {
        let path = temp(name);
        let mut args = vec!["plot", "peer_hdrh.hlog", "--tag", "api", "-o"];
        args.push(path.to_str().unwrap());
        args.extend_from_slice(extra);
        ok(&args);
        let svg = std::fs::read_to_string(&path).unwrap();
        let els = elements(&svg);
        els.into_iter().map(|(_, _, text)| text).collect::<Vec<_>>()
    };
    let with_unit = texts(&["--unit-ratio", "1000", "--unit", "µs"], "unit.svg");
    assert!(with_unit.iter().any(|t| t == "value (µs)"), "{with_unit:?}");
    let ratio = texts(&["--unit-ratio", "1000"], "ratio.svg");
    assert!(ratio.iter().any(|t| t == "value / 1000"), "{ratio:?}");
}
