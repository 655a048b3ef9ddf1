//! The `.hgrm` percentile distribution: its shape, ticks, unit ratio, CSV, the empty
//! histogram, counts outside the range, the footer, and views of live cells. (Byte identity
//! with hdr-histogram-js is checked by scripts/interop.sh.)
#![cfg(feature = "std")]

use picollo::concurrent::{CounterBits, DynHistogram, Mode};
use picollo::{Config, HgrmOptions, Histogram, ValueSelection};

mod common;

const HEADER: &str = "       Value     Percentile TotalCount 1/(1-Percentile)\n\n";
const CSV_HEADER: &str = "\"Value\",\"Percentile\",\"TotalCount\",\"1/(1-Percentile)\"\n";

/// A histogram whose buckets are HdrHistogram's for `sf` significant digits (lowest 1).
fn hdr_layout(sf: u32, max: u64) -> Histogram<u64, Vec<u64>> {
    let g = [4, 7, 10, 14, 17][sf as usize - 1];
    Config::new()
        .with_relative_error(0.5 / (1u64 << g) as f64)
        .with_range(0, max)
        .build()
        .unwrap()
}

fn options(ticks: u32, ratio: f64, csv: bool) -> HgrmOptions {
    HgrmOptions {
        ticks_per_half_distance: ticks,
        unit_ratio: ratio,
        csv,
    }
}

/// One plain row: (value, level in percent, cumulative count, 1/(1-p) column if any).
#[derive(Debug)]
struct Row {
    value: f64,
    level: f64,
    cumulative: u64,
    inverse: Option<String>,
}

/// The rows of a plain distribution, checking the column widths on the way.
fn rows(text: &str) -> Vec<Row> {
    let body = text.strip_prefix(HEADER).expect("header");
    body.lines()
        .take_while(|l| !l.starts_with('#'))
        .map(|line| {
            assert_eq!(&line[12..13], " ", "{line:?}");
            let value = line[..12].trim_start();
            assert!(
                !value.starts_with(' ') && line[..12].len() == 12,
                "{line:?}"
            );
            let level = &line[13..27];
            assert_eq!(&line[27..28], " ", "{line:?}");
            let cumulative = line[28..38].trim_start();
            let inverse = (line.len() > 38).then(|| {
                assert_eq!(line.len(), 38 + 1 + 14, "{line:?}");
                line[39..].trim_start().to_string()
            });
            Row {
                value: value.parse().unwrap(),
                // The fraction's 12 decimals as an integer: levels like 77.5 come out exact.
                level: level.replace('.', "").parse::<u64>().unwrap() as f64 / 1e10,
                cumulative: cumulative.parse().unwrap(),
                inverse,
            }
        })
        .collect()
}

/// 1..=`n` once each, at 3 significant digits over the whole range.
fn three_digits_one_each(n: u64) -> Histogram<u64, Vec<u64>> {
    let mut h = hdr_layout(3, u64::MAX);
    for v in 1..=n {
        h.record(v);
    }
    h
}

fn footer(text: &str) -> Vec<&str> {
    text.lines().filter(|l| l.starts_with("#[")).collect()
}

#[test]
fn rows_report_the_first_bucket_reaching_each_tick() {
    // 1..=1000 once each, 3 digits: every value is its own bucket (below 2B = 2048).
    let h = three_digits_one_each(1000);
    let text = h.view().to_hgrm(&HgrmOptions::default());
    let rows = rows(&text);
    let (last, ticks) = rows.split_last().unwrap();
    for r in ticks {
        // The first value whose cumulative share reaches the level: ceil(level · 10), ≥ 1.
        let want = ((r.level * 10.0 - 1e-9).ceil()).max(1.0);
        assert_eq!(r.value, want, "{r:?}");
        assert_eq!(r.cumulative as f64, want, "{r:?}");
        let inverse = format!("{:.2}", 1.0 / (1.0 - r.level / 100.0));
        assert_eq!(r.inverse.as_deref(), Some(inverse.as_str()), "{r:?}");
    }
    assert_eq!(
        (last.value, last.level, last.cumulative),
        (1000.0, 100.0, 1000)
    );
    assert_eq!(last.inverse, None, "the 100 % row has no 1/(1-p) column");
    assert!(text.contains("\n    1000.000 1.000000000000       1000\n"));
    // Mean 500.5; population deviation sqrt((n² − 1) / 12).
    let deviation = ((1000.0f64 * 1000.0 - 1.0) / 12.0).sqrt();
    assert_eq!(
        footer(&text),
        [
            format!("#[Mean    =      500.500, StdDeviation   = {deviation:>12.3}]").as_str(),
            "#[Max     =     1000.000, Total count    =         1000]",
            "#[Buckets =           54, SubBuckets     =         2048]",
        ]
    );
    assert!(text.ends_with("2048]\n"));
}

#[test]
fn each_half_distance_gets_ticks_rows() {
    let h = three_digits_one_each(2000);
    for ticks in [1u32, 2, 5, 7] {
        let rows = rows(&h.view().to_hgrm(&options(ticks, 1.0, false)));
        // Halves [0, 50), [50, 75), [75, 87.5), [87.5, 93.75): `ticks` rows each, equally
        // spaced by 50 / ticks, 25 / ticks, …
        let mut start = 0.0;
        let mut width = 50.0;
        for _ in 0..4 {
            let inside: Vec<f64> = rows
                .iter()
                .map(|r| r.level)
                .filter(|&l| l >= start - 1e-9 && l < start + width - 1e-9)
                .collect();
            assert_eq!(inside.len(), ticks as usize, "ticks {ticks} from {start}");
            for (k, level) in inside.iter().enumerate() {
                let want = start + width * k as f64 / ticks as f64;
                assert!(
                    (level - want).abs() < 1e-9,
                    "ticks {ticks}: {level} vs {want}"
                );
            }
            start += width;
            width /= 2.0;
        }
    }
    // A ticks of 0 would never end in HdrHistogram: it is read as 1.
    assert_eq!(
        h.view().to_hgrm(&options(0, 1.0, false)),
        h.view().to_hgrm(&options(1, 1.0, false))
    );
}

#[test]
fn a_bucket_gets_a_row_for_every_tick_it_reaches() {
    // Two values, 90 % of the counts on the first: its bucket takes the levels 0..=90.
    let mut h = hdr_layout(2, u64::MAX);
    h.record_n(10, 9);
    h.record(20);
    let rows = rows(&h.view().to_hgrm(&HgrmOptions::default()));
    let levels_at_10: Vec<f64> = rows
        .iter()
        .filter(|r| r.value == 10.0)
        .map(|r| r.level)
        .collect();
    assert_eq!(
        levels_at_10,
        [
            0.0, 10.0, 20.0, 30.0, 40.0, 50.0, 55.0, 60.0, 65.0, 70.0, 75.0, 77.5, 80.0, 82.5,
            85.0, 87.5, 88.75, 90.0
        ]
    );
    // The last bucket: one row at the next level, then the 100 % row.
    let at_20: Vec<(f64, u64)> = rows
        .iter()
        .filter(|r| r.value == 20.0)
        .map(|r| (r.level, r.cumulative))
        .collect();
    assert_eq!(at_20, [(91.25, 10), (100.0, 10)]);
}

#[test]
fn the_unit_ratio_divides_values_mean_deviation_and_max() {
    let h = three_digits_one_each(1000);
    let plain = h.view().to_hgrm(&HgrmOptions::default());
    let scaled = h.view().to_hgrm(&options(5, 1000.0, false));
    let (a, b) = (rows(&plain), rows(&scaled));
    assert_eq!(a.len(), b.len());
    for (x, y) in a.iter().zip(&b) {
        assert_eq!(
            format!("{:.3}", x.value / 1000.0),
            format!("{:.3}", y.value)
        );
        assert_eq!((x.level, x.cumulative), (y.level, y.cumulative));
    }
    // 500.5 / 1000 = 0.5005 (a double just below it): printed from its shortest decimal,
    // rounded half away from zero, as hdr-histogram-js's Intl.NumberFormat does.
    assert!(scaled.contains("#[Mean    =        0.501, StdDeviation   =        0.289]\n"));
    assert!(scaled.contains("#[Max     =        1.000, Total count    =         1000]\n"));
}

#[test]
fn csv_has_the_quoted_header_plain_fields_and_no_footer() {
    let mut h = hdr_layout(1, (1 << 53) - 1);
    for v in [1u64, 5, 900, 1000, 70_000] {
        h.record(v);
    }
    let csv = h.view().to_hgrm(&options(2, 1.0, true));
    let plain = rows(&h.view().to_hgrm(&options(2, 1.0, false)));
    let body = csv.strip_prefix(CSV_HEADER).expect("CSV header");
    let lines: Vec<&str> = body.lines().collect();
    assert_eq!(lines.len(), plain.len());
    for (line, row) in lines.iter().zip(&plain) {
        let fields: Vec<&str> = line.split(',').collect();
        assert_eq!(fields.len(), 4, "{line}");
        assert!(!line.contains(' '), "{line}");
        assert_eq!(fields[0].parse::<f64>().unwrap(), row.value);
        assert_eq!(fields[2].parse::<u64>().unwrap(), row.cumulative);
        match &row.inverse {
            Some(inverse) => assert_eq!(fields[3], inverse),
            None => assert_eq!(fields[3], "Infinity"),
        }
    }
    assert!(!csv.contains('#'));
    assert_eq!(lines.last().unwrap(), &"73727.0,1.000000000000,5,Infinity");
}

#[test]
fn an_empty_histogram_prints_the_header_and_a_footer_of_zeros() {
    // As hdr-histogram-js 3.0.1 prints it (1 significant digit, highest 2^53 − 1).
    let h = hdr_layout(1, (1 << 53) - 1);
    assert_eq!(
        h.view().to_hgrm(&HgrmOptions::default()),
        "       Value     Percentile TotalCount 1/(1-Percentile)\n\
         \n\
         #[Mean    =          0.0, StdDeviation   =          0.0]\n\
         #[Max     =          0.0, Total count    =            0]\n\
         #[Buckets =           49, SubBuckets     =           32]\n"
    );
    assert_eq!(h.view().to_hgrm(&options(5, 1.0, true)), CSV_HEADER);
}

#[test]
fn the_value_is_the_bucket_highest_whatever_the_selection() {
    // 1000 at 1 digit lies in [992, 1023]: hdr-histogram-js prints 1023.0, mean 1008.0.
    let mut h = hdr_layout(1, (1 << 53) - 1);
    h.record(1000);
    let text = h.view().to_hgrm(&HgrmOptions::default());
    assert!(text.contains("\n      1023.0 0.000000000000          1           1.00\n"));
    assert!(text.contains("#[Mean    =       1008.0, StdDeviation   =          0.0]"));
    assert!(text.contains("#[Max     =       1023.0, Total count    =            1]"));
    for selection in [
        ValueSelection::Lower,
        ValueSelection::Upper,
        ValueSelection::Interpolated,
    ] {
        assert_eq!(
            h.view()
                .with_value_selection(selection)
                .to_hgrm(&HgrmOptions::default()),
            text
        );
    }
}

#[test]
fn counts_outside_the_range_stay_out_of_the_distribution() {
    let config = Config::new()
        .with_relative_error(0.5 / 1024.0)
        .with_range(100, 10_000);
    let mut inside: Histogram<u64, Vec<u64>> = config.build().unwrap();
    let mut mixed: Histogram<u64, Vec<u64>> = config.build().unwrap();
    for v in (100..=10_000).step_by(37) {
        inside.record(v);
        mixed.record(v);
    }
    mixed.record_n(3, 5); // underflow
    mixed.record_n(50_000, 7); // overflow
    let a = inside.view().to_hgrm(&HgrmOptions::default());
    let b = mixed.view().to_hgrm(&HgrmOptions::default());
    assert!(!a.contains("Not in the distribution"));
    assert_eq!(
        b.strip_prefix(a.as_str()),
        Some("#[Not in the distribution: underflow = 5, overflow = 7, saturated = 0]\n")
    );
    // CSV has no footer: the same rows either way.
    assert_eq!(
        inside.view().to_hgrm(&options(5, 1.0, true)),
        mixed.view().to_hgrm(&options(5, 1.0, true))
    );

    // Saturated counts: a 32-bit counter keeps 2^32 − 1 of 2^32 + 44.
    let mut small: Histogram<u32, Vec<u32>> = config.build().unwrap();
    small.record_n(500, (1 << 32) + 44);
    let text = small.view().to_hgrm(&HgrmOptions::default());
    assert!(text.contains("Total count    =   4294967295]"), "{text}");
    assert!(
        text.ends_with("#[Not in the distribution: underflow = 0, overflow = 0, saturated = 45]\n")
    );
}

#[test]
fn the_footer_counts_buckets_as_hdrhistogram_allocates_them() {
    // HdrHistogram's getBucketsNeededToCoverValue with 2^(g+1) sub-buckets, lowest 1.
    fn hdr_buckets(g: u32, max: u64) -> u32 {
        let mut smallest_untrackable = 1u128 << (g + 1);
        let mut buckets = 1;
        while smallest_untrackable <= max as u128 {
            smallest_untrackable *= 2;
            buckets += 1;
        }
        buckets
    }
    for g in [3u32, 4, 6, 7, 10, 13, 14, 17, 19] {
        for max in [
            1u64,
            100,
            1 << 20,
            (1 << 32) + 5,
            (1 << 53) - 1,
            i64::MAX as u64,
            u64::MAX,
        ] {
            let h: Histogram<u32, Vec<u32>> = Config::new()
                .with_relative_error(0.5 / (1u64 << g) as f64)
                .with_range(max, max) // one bucket: Buckets depends on the maximum only
                .build()
                .unwrap();
            let text = h.view().to_hgrm(&HgrmOptions::default());
            let want = format!(
                "#[Buckets = {:>12}, SubBuckets     = {:>12}]\n",
                hdr_buckets(g, max),
                1u64 << (g + 1)
            );
            assert!(text.ends_with(&want), "g={g} max={max}: {text}");
        }
    }
}

#[test]
fn decimals_are_the_digits_the_layout_honours() {
    // Block size 64 honours 1 significant digit (10 ≤ 64 < 100); 2^19 honours 5.
    for (relative_error, decimals) in [(0.01, 1), (0.5 / 8.0, 0), (1e-6, 5)] {
        let mut h: Histogram<u32, Vec<u32>> = Config::new()
            .with_relative_error(relative_error)
            .with_range(0, 1 << 20)
            .build()
            .unwrap();
        h.record(12_345);
        let text = h.view().to_hgrm(&HgrmOptions::default());
        let value = text.lines().nth(2).unwrap()[..12].trim_start();
        let shown = value.split_once('.').map_or(0, |(_, frac)| frac.len());
        assert_eq!(shown, decimals, "{relative_error}: {value}");
    }
}

#[test]
fn writing_needs_no_allocation_and_reports_a_full_sink() {
    let mut h = hdr_layout(2, 1 << 40);
    for v in [3u64, 30, 300, 3000, 30_000] {
        h.record(v);
    }
    let mut fixed = heapless::String::<4096>::new();
    h.view()
        .write_hgrm(&mut fixed, &HgrmOptions::default())
        .unwrap();
    assert_eq!(fixed.as_str(), h.view().to_hgrm(&HgrmOptions::default()));
    let mut tiny = heapless::String::<64>::new();
    assert!(h
        .view()
        .write_hgrm(&mut tiny, &HgrmOptions::default())
        .is_err());
}

#[test]
fn live_views_print_what_a_copy_prints() {
    let config = Config::new().with_relative_error(0.5 / 128.0);
    let mut plain = hdr_layout(2, u64::MAX);
    let live = DynHistogram::new(config, CounterBits::U64, Mode::Interlocked).unwrap();
    for k in 0..5_000u64 {
        let v = k * k % 100_003 + 1;
        plain.record(v);
        live.record(v);
    }
    let want = plain.view().to_hgrm(&HgrmOptions::default());
    let got = live
        .with_view(|view| view.as_view().to_hgrm(&HgrmOptions::default()))
        .unwrap();
    assert_eq!(got, want);
}

#[test]
fn live_views_agree_with_their_total_while_writers_record() {
    let h = DynHistogram::new(Config::new(), CounterBits::U64, Mode::Interlocked).unwrap();
    common::while_recording(&h, 44, || {
        while h.total_count().unwrap() == 0 {
            std::hint::spin_loop();
        }
        for _ in 0..50 {
            let text = h
                .with_view(|view| view.as_view().to_hgrm(&HgrmOptions::default()))
                .unwrap();
            let rows = rows(&text);
            let total: u64 = footer(&text)[1]
                .split('=')
                .nth(2)
                .unwrap()
                .trim_end_matches(']')
                .trim()
                .parse()
                .unwrap();
            assert!(rows.windows(2).all(|w| w[0].cumulative <= w[1].cumulative));
            let last = rows.last().unwrap();
            assert_eq!((last.level, last.cumulative), (100.0, total));
        }
    });
}
