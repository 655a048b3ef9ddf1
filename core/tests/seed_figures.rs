//! The figures of the Picollo .NET announcement, reproduced: its getting-started data
//! is regenerated value for value with .NET's `Random(0)`, so its tables can be compared
//! cell for cell.

mod common;

use common::{cells, seed_before, seed_config, seed_second};
use picollo::{Config, Histogram, Layout, Summary};

/// Trimmed cells of every table row (lines starting with `|`), after the title line.
fn table_cells(text: &str) -> Vec<Vec<String>> {
    text.lines()
        .filter(|l| l.starts_with('|'))
        .map(|l| cells(l).iter().map(|c| c.trim().to_string()).collect())
        .collect()
}

fn expected_rows(rows: &[[&str; 4]]) -> Vec<Vec<String>> {
    rows.iter()
        .map(|r| r.iter().map(|c| c.to_string()).collect())
        .collect()
}

/// `text` is the table titled `title` whose rows are `rows`, cell for cell.
fn assert_table(text: &str, title: &str, rows: &[[&str; 4]]) {
    let heading = format!("##### {title}");
    assert_eq!(text.lines().next(), Some(heading.as_str()));
    assert_eq!(table_cells(text), expected_rows(rows), "\n{text}");
}

#[test]
fn precision_of_one_percent_prints_as_0_7813_percent() {
    let h = seed_config().build::<u32>().unwrap();
    let s = h.view().summary();
    assert_eq!(s.precision, 0.0078125);
    let mut text = String::new();
    s.write_table(&mut text, "").unwrap();
    let precision_row = table_cells(&text)
        .into_iter()
        .find(|r| r[0] == "Precision:")
        .unwrap();
    assert_eq!(precision_row[1], "0.7813%");
}

#[test]
fn value_24_900_lands_in_the_seeds_bucket() {
    let h = seed_config().build::<u32>().unwrap();
    let layout = h.layout();
    assert_eq!(layout.index(24_900), 609);
    assert_eq!(layout.index(24_900) - h.view().first_index(), 83);
    let b = layout.bucket_of(24_900);
    assert_eq!((b.lower, b.upper(), b.midpoint()), (24_832, 25_088, 24_960));
    assert_eq!(h.view().bucket(83), Some(b));
}

#[test]
fn p99_displays_like_the_seed() {
    let mut h = seed_config().build::<u32>().unwrap();
    // 985,810 smaller values, then the announcement's 14,190 in the P99 bucket.
    h.record_n(20_000, 985_810);
    h.record_n(24_900, 14_190);
    let p = h.view().percentile(99.0).unwrap();
    assert_eq!(
        p.to_string(),
        "P99=24,960 [83 / 609]: [24,832, 25,088) 14,190"
    );
    assert_eq!(p.value, 24_960);
    assert_eq!(p.plus_minus, 128);
    assert_eq!((p.storage_index, p.logical_index), (83, 609));
    assert_eq!((p.lower, p.upper, p.highest), (24_832, 25_088, 25_087));
    assert_eq!(
        (p.count, p.cumulative_count, p.rank_count),
        (14_190, 1_000_000, 990_000)
    );
}

#[test]
fn footprints_match_design_section_2() {
    let cases = [
        (0.001, u64::MAX, 28_672, 114_688),
        (0.0005, i64::MAX as u64, 55_296, 221_184),
        (0.0005, 30_000, 5_972, 23_888),
    ];
    for (e, max, buckets, bytes) in cases {
        let cfg = Config::new().with_relative_error(e).with_range(0, max);
        assert_eq!(cfg.storage_len(), buckets, "e={e} max={max}");
        let h = cfg.build::<u32>().unwrap();
        assert_eq!(h.counts().len(), buckets);
        assert_eq!(h.footprint_in_bytes(), bytes, "e={e} max={max}");
        let h64 = cfg.build::<u64>().unwrap();
        assert_eq!(h64.footprint_in_bytes(), 2 * bytes);
    }
}

/// The P99 line of the announcement's getting-started, from the regenerated data.
#[test]
fn getting_started_p99_is_the_seeds() {
    let (h, _) = seed_before();
    let s = h.view().summary();
    assert_eq!(
        s.p99().to_string(),
        "P99=24,960 [83 / 609]: [24,832, 25,088) 14,190"
    );
}

/// The percentile rows of the seed's table: rank, value, ± and count. The diff's Before
/// column holds the same values. The announcement prints 999,001 as the P99.9 count: a
/// floating-point off-by-one of the reference (99.9 / 100 · 10^6 is 999,000.0000000001 in
/// f64). Picollo computes the rank count in integers, which gives 999,000.
const SEED_PERCENTILES: [[&str; 4]; 16] = [
    ["0", "20,096", "±128", "1"],
    ["1", "20,096", "±128", "10,000"],
    ["5", "20,096", "±128", "50,000"],
    ["10", "20,096", "±128", "100,000"],
    ["25", "20,352", "±128", "250,000"],
    ["50", "21,376", "±128", "500,000"],
    ["75", "22,912", "±128", "750,000"],
    ["90", "23,936", "±128", "900,000"],
    ["92.5", "24,192", "±128", "925,000"],
    ["95", "24,448", "±128", "950,000"],
    ["97.5", "24,704", "±128", "975,000"],
    ["99", "24,960", "±128", "990,000"],
    ["99.9", "25,472", "±128", "999,000"],
    ["99.99", "25,472", "±128", "999,900"],
    ["99.999", "25,472", "±128", "999,990"],
    ["100", "25,472", "±128", "1,000,000"],
];

/// The empty row between a table's percentiles and its statistics.
const BLANK: [&str; 4] = ["", "", "", ""];

#[test]
fn getting_started_table_is_the_seeds() {
    let (h, _) = seed_before();
    let mut rows = vec![
        ["Percentile", "Value", "±", "Count"],
        [":---------", "--------:", ":-----", "--------:"],
    ];
    rows.extend(SEED_PERCENTILES);
    rows.extend([
        ["Overflow", "", "", "1"],
        BLANK,
        ["Mean:", "21,696.54", "StDev:", "1,482.39"],
        ["Precision:", "0.7813%", "Total:", "1,000,000"],
        ["Range Min:", "10,000", "Max:", "30,000"],
    ]);
    let mut text = String::new();
    let s = h.view().summary();
    s.write_table(&mut text, "Histogram Before").unwrap();
    assert_table(&text, "Histogram Before", &rows);
}

#[test]
fn getting_started_diff_is_the_seeds() {
    // After and Δ% at each rank; Before is the table's Value column.
    let after_and_change = [
        ["19,072", "-5.1%"],
        ["19,072", "-5.1%"],
        ["19,072", "-5.1%"],
        ["19,072", "-5.1%"],
        ["19,328", "-5.0%"],
        ["20,352", "-4.8%"],
        ["23,168", "+1.1%"],
        ["26,240", "+9.6%"],
        ["27,008", "+11.6%"],
        ["27,520", "+12.6%"],
        ["28,288", "+14.5%"],
        ["28,800", "+15.4%"],
        ["29,056", "+14.1%"],
        ["29,312", "+15.1%"],
        ["29,312", "+15.1%"],
        ["29,312", "+15.1%"],
    ];
    let percentiles = SEED_PERCENTILES.iter().zip(after_and_change);
    let mut rows = vec![
        ["Percentile", "Before", "After", "Δ%"],
        [":---------", "--------:", "--------:", "------:"],
    ];
    rows.extend(percentiles.map(|(p, [after, change])| [p[0], p[1], after, change]));
    rows.extend([
        BLANK,
        ["Mean:", "21,696.54", "21,518.53", "-0.8%"],
        ["StDev:", "1,482.39", "2,822.16", "+90.4%"],
        ["Precision:", "0.7813%", "0.7813%", "0.0%"],
        ["Total:", "1,000,000", "2,000,000", "+100.0%"],
        ["D-value:", "", "", "-0.07"],
    ]);
    let (mut h, mut rng) = seed_before();
    let before = h.view().summary();
    h.reset();
    for _ in 0..2_000_000 {
        h.record(seed_second(&mut rng));
    }
    let after = h.view().summary();
    let mut text = String::new();
    before
        .write_diff(&after, &mut text, "Getting Started Diff", "Before", "After")
        .unwrap();
    assert_table(&text, "Getting Started Diff", &rows);
}

#[test]
fn getting_started_bucket_percentiles_are_the_seeds() {
    // The announcement's "Percentiles" example records the same million values, without the 40,000.
    let mut h = seed_config().build::<u32>().unwrap();
    let mut rng = common::DotNetRandom::new(0);
    for _ in 0..1_000_000 {
        h.record(common::seed_first(&mut rng));
    }
    let lines: Vec<String> = h
        .view()
        .bucket_percentiles_with_values()
        .map(|p| p.to_string())
        .collect();
    let expected = [
        "P9.1914=20,096 [64 / 590]: [19,968, 20,224) 183,827",
        "P23.6734=20,352 [65 / 591]: [20,224, 20,480) 105,814",
        "P33.271=20,608 [66 / 592]: [20,480, 20,736) 86,138",
        "P40.836=20,864 [67 / 593]: [20,736, 20,992) 65,161",
        "P46.8661=21,120 [68 / 594]: [20,992, 21,248) 55,441",
        "P52.1414=21,376 [69 / 595]: [21,248, 21,504) 50,065",
        "P56.9318=21,632 [70 / 596]: [21,504, 21,760) 45,744",
        "P61.3189=21,888 [71 / 597]: [21,760, 22,016) 41,997",
        "P65.393=22,144 [72 / 598]: [22,016, 22,272) 39,486",
        "P69.2252=22,400 [73 / 599]: [22,272, 22,528) 37,157",
        "P72.8369=22,656 [74 / 600]: [22,528, 22,784) 35,077",
        "P76.2556=22,912 [75 / 601]: [22,784, 23,040) 33,297",
        "P79.5267=23,168 [76 / 602]: [23,040, 23,296) 32,125",
        "P82.6842=23,424 [77 / 603]: [23,296, 23,552) 31,025",
        "P85.7174=23,680 [78 / 604]: [23,552, 23,808) 29,639",
        "P88.6413=23,936 [79 / 605]: [23,808, 24,064) 28,840",
        "P91.4852=24,192 [80 / 606]: [24,064, 24,320) 28,038",
        "P94.2448=24,448 [81 / 607]: [24,320, 24,576) 27,153",
        "P96.6624=24,704 [82 / 608]: [24,576, 24,832) 21,200",
        "P98.4319=24,960 [83 / 609]: [24,832, 25,088) 14,190",
        "P99.5121=25,216 [84 / 610]: [25,088, 25,344) 7,413",
        "P99.9414=25,472 [85 / 611]: [25,344, 25,600) 1,173",
    ];
    assert_eq!(lines, expected);
}

#[test]
fn getting_started_custom_percentiles_are_the_seeds() {
    let (h, _) = seed_before();
    let ranks = [90.0, 91.0, 92.0, 93.0, 94.0, 95.0, 96.0, 97.0, 98.0];
    let mut out = [picollo::Percentile::default(); 9];
    let mut values = [0u64; 9];
    let v = h.view();
    v.percentiles(&ranks, &mut out).unwrap();
    v.percentile_values(&ranks, &mut values).unwrap();
    let lines: Vec<String> = out.iter().map(|p| p.to_string()).collect();
    assert_eq!(
        lines,
        [
            "P90=23,936 [79 / 605]: [23,808, 24,064) 28,840",
            "P91=24,192 [80 / 606]: [24,064, 24,320) 28,038",
            "P92=24,192 [80 / 606]: [24,064, 24,320) 28,038",
            "P93=24,448 [81 / 607]: [24,320, 24,576) 27,153",
            "P94=24,448 [81 / 607]: [24,320, 24,576) 27,153",
            "P95=24,448 [81 / 607]: [24,320, 24,576) 27,153",
            "P96=24,704 [82 / 608]: [24,576, 24,832) 21,200",
            "P97=24,704 [82 / 608]: [24,576, 24,832) 21,200",
            "P98=24,960 [83 / 609]: [24,832, 25,088) 14,190",
        ]
    );
    assert_eq!(
        values,
        [23_936, 24_192, 24_192, 24_448, 24_448, 24_448, 24_704, 24_704, 24_960]
    );
    for (&rank, p) in ranks.iter().zip(out.iter()) {
        assert_eq!(v.percentile(rank).unwrap(), *p);
        assert_eq!(v.percentile_value(rank).unwrap(), p.value);
    }
}

/// Cohen's d of two samples small enough to work by hand. With relative error 1e-6 every
/// value below 2^20 has its own bucket, so the histogram's moments are exact.
#[test]
fn cohens_d_of_two_known_samples() {
    let cfg = Config::new().with_relative_error(1e-6).with_range(0, 1_000);
    let mut a: Histogram<u64, Vec<u64>> = cfg.build().unwrap();
    let mut b: Histogram<u64, Vec<u64>> = cfg.build().unwrap();
    // a = {2, 4, 4, 4, 5, 5, 7, 9}: mean 5, Σ(x − 5)² = 32, s² = 32/7.
    for v in [2, 4, 4, 4, 5, 5, 7, 9] {
        a.record(v);
    }
    // b = {10, 12, 14}: mean 12, Σ(x − 12)² = 8, s² = 4.
    for v in [10, 12, 14] {
        b.record(v);
    }
    let (sa, sb) = (a.view().summary(), b.view().summary());
    assert_eq!((sa.mean, sb.mean), (5.0, 12.0));
    assert!((sa.stdev - 2.0).abs() < 1e-12, "population σ of a is 2");
    assert!((sa.sample_variance().unwrap() - 32.0 / 7.0).abs() < 1e-12);
    assert!((sb.sample_variance().unwrap() - 4.0).abs() < 1e-12);
    // s_pooled = sqrt((7·32/7 + 2·4) / (8 + 3 − 2)) = sqrt(40 / 9) = 2.108…
    let pooled = (40.0f64 / 9.0).sqrt();
    let d = sa.cohens_d(&sb).unwrap();
    assert!((d - 7.0 / pooled).abs() < 1e-12, "d = {d}");
    assert!((d - 3.3204).abs() < 1e-4);
    // With population variances mixed in (the reference's mistake) it would be 3.57.
    let wrong = 7.0 / ((8.0 * 4.0 + 3.0 * 8.0 / 3.0) / 11.0f64).sqrt();
    assert!((d - wrong).abs() > 0.1);
    assert!(
        (sb.cohens_d(&sa).unwrap() + d).abs() < 1e-12,
        "antisymmetric"
    );
    let mut text = String::new();
    sa.write_diff(&sb, &mut text, "", "A", "B").unwrap();
    let last = text.lines().last().unwrap();
    assert_eq!(cells(last)[0].trim(), "D-value:");
    assert_eq!(cells(last)[3].trim(), "3.32");
}

#[test]
fn cohens_d_is_undefined_for_single_values() {
    let cfg = Config::new().with_relative_error(0.01);
    let mut a = cfg.build::<u32>().unwrap();
    let mut b = cfg.build::<u32>().unwrap();
    let empty = a.view().summary();
    // Both empty, one empty, n = 1 on both sides: undefined, never NaN or a panic.
    assert_eq!(empty.cohens_d(&empty), None);
    a.record(10);
    b.record(20);
    let (sa, sb) = (a.view().summary(), b.view().summary());
    assert_eq!(sa.cohens_d(&sb), None);
    assert_eq!(sa.cohens_d(&empty), None);
    assert_eq!(empty.cohens_d(&sb), None);
    assert_eq!(sa.sample_variance(), None);
    for (x, y) in [(&sa, &sb), (&sa, &empty), (&empty, &sb), (&empty, &empty)] {
        let mut text = String::new();
        x.write_diff(y, &mut text, "t", "A", "B").unwrap();
        let last = text.lines().last().unwrap();
        assert_eq!(cells(last)[0].trim(), "D-value:");
        assert_eq!(cells(last)[3].trim(), "n/a", "\n{text}");
    }
    // Identical constant samples have no spread: undefined as well.
    a.record_n(10, 9);
    let s = a.view().summary();
    assert_eq!(s.cohens_d(&s), None);
}

#[test]
fn layout_of_the_seed_is_block_size_64() {
    let l = Layout::clamped(0.01);
    assert_eq!(l.block_size(), 64);
    assert_eq!(Layout::clamped(0.001).block_size(), 512);
    assert!((Layout::clamped(0.001).relative_error() - 0.000_976_562_5).abs() < 1e-18);
    let s: Summary = Config::new()
        .with_relative_error(0.001)
        .build::<u32>()
        .unwrap()
        .view()
        .summary();
    let mut text = String::new();
    s.write_table(&mut text, "").unwrap();
    assert!(text.contains("| 0.0977% "), "\n{text}");
}
