//! `picollo report` on the committed logs: goldens (reviewed by eye) plus the figures that
//! matter worked out by hand from how the inputs were made (cli/tests/data/README.md).

mod common;

use common::{golden, ok, ok_line, picollo, row};

#[test]
fn report_of_a_whole_log() {
    let out = ok(&["report", "latency.hlog"]);
    golden("report_latency.md", &out);
    // 1000..=1099 three times, then 1200..=1299 three times: 600 values, all below 2048, so
    // every bucket is one value wide.
    assert!(out.starts_with("##### latency.hlog (6 intervals, 0.005–6.005 s)\n"));
    assert_eq!(row(&out, "50")[1], "1,099"); // the 300th value
    assert_eq!(row(&out, "75")[1], "1,249"); // the 450th: 150th of the upper half
    assert_eq!(row(&out, "99")[1], "1,297"); // the 594th
    assert_eq!(row(&out, "Mean:")[1], "1,149.50");
    // σ² = 833.25 within each half + 100² between them.
    assert_eq!(row(&out, "Mean:")[3], "104.08");
    assert_eq!(row(&out, "Precision:")[3], "600");
}

#[test]
fn report_per_window_has_one_row_per_window() {
    let out = ok(&["report", "latency.hlog", "--interval", "2"]);
    golden("report_latency_windows.md", &out);
    // Intervals start at k + 0.005 s: windows of 2 s hold two each; the middle one mixes
    // 1000..=1099 and 1200..=1299.
    let middle = row(&out, "2.000");
    assert_eq!(
        middle,
        ["2.000", "4.000", "2", "200", "1,149.50", "1,099", "1,279", "1,297", "1,299", "1,299"]
    );
    assert_eq!(row(&out, "0.000")[5], "1,049");
    assert_eq!(row(&out, "4.000")[5], "1,249");
}

#[test]
fn windows_without_intervals_show_as_empty_rows() {
    let out = ok_line("report latency.hlog --interval 0.5 --from 1 --to 3");
    golden("report_latency_half_seconds.md", &out);
    // From 1 s: 1.005 falls in [1, 1.5), 2.005 in [2, 2.5); [1.5, 2) is empty.
    assert_eq!(row(&out, "1.500")[2..5], ["0", "0", "-"]);
    assert_eq!(row(&out, "1.000")[3], "100");
    assert_eq!(row(&out, "2.000")[3], "100");
    assert!(
        !out.contains("| 2.500 "),
        "no window after the last interval:\n{out}"
    );
}

#[test]
fn a_window_and_a_unit_ratio() {
    let out = ok_line("report latency.hlog --from 2 --to 4 --unit-ratio 1000");
    golden("report_latency_2_4_s_in_thousands.md", &out);
    assert!(out.starts_with("##### latency.hlog (2–4 s, 2 intervals, 2.005–4.005 s)\n"));
    assert_eq!(row(&out, "50")[1], "1.099");
    assert_eq!(row(&out, "90")[1], "1.279");
    assert_eq!(row(&out, "Mean:")[1], "1.14950");
    assert_eq!(row(&out, "Precision:")[3], "200");
}

#[test]
fn without_a_start_time_the_window_counts_from_the_first_interval() {
    // latency_b.hlog has absolute timestamps 1700000200 + k and no StartTime header.
    let out = ok(&["report", "latency_b.hlog", "--from", "1", "--to", "3"]);
    assert!(
        out.starts_with("##### latency_b.hlog (1–3 s, 2 intervals, 1–3 s)\n"),
        "{out}"
    );
    assert_eq!(row(&out, "Precision:")[3], "200");
}

#[test]
fn a_log_written_by_python_hdrh_reads_per_tag() {
    let api = ok(&["report", "peer_hdrh.hlog", "--tag", "api"]);
    golden("report_peer_api.md", &api);
    // 1..=300, once each.
    assert_eq!(row(&api, "50")[1], "150");
    assert_eq!(row(&api, "90")[1], "270");
    assert_eq!(row(&api, "99.9")[1], "300");
    assert_eq!(row(&api, "Mean:")[1], "150.50");
    assert_eq!(row(&api, "Mean:")[3], "86.60"); // sqrt((300² − 1) / 12)
    let db = ok(&["report", "peer_hdrh.hlog", "--tag", "db"]);
    golden("report_peer_db.md", &db);
    // 27 × 500, then 5000, 6000, 7000: buckets 4 wide there ([5000, 5003] and so on), each
    // reported at its midpoint.
    assert_eq!(row(&db, "90")[1], "500"); // the 27th value
    assert_eq!(row(&db, "92.5")[1], "5,002"); // the 28th
    assert_eq!(row(&db, "95")[1], "6,002");
    assert_eq!(row(&db, "100")[1], "7,002");
    assert_eq!(row(&db, "100")[2], "±2");
    assert_eq!(row(&db, "Mean:")[1], "1,050.20"); // (27·500 + 5002 + 6002 + 7002) / 30
}

#[test]
fn single_histograms_in_base64_and_raw_bytes() {
    let b64 = ok(&["report", "single.b64"]);
    golden("report_single.md", &b64);
    assert!(b64.starts_with("##### single.b64 (1 histogram)\n"));
    // 1..=1000 once each.
    assert_eq!(row(&b64, "99")[1], "990");
    assert_eq!(row(&b64, "99.9")[1], "999");
    assert_eq!(row(&b64, "99.99")[1], "1,000");
    // The raw V2 bytes of the same histogram give the same table.
    let raw = ok(&["report", "single.v2"]);
    assert_eq!(raw.replace("single.v2", "single.b64"), b64);
    // And base64 wrapped over lines, as `base64` wraps it.
    let text = std::fs::read_to_string(common::data_dir().join("single.b64")).unwrap();
    let wrapped: String = text
        .trim()
        .as_bytes()
        .chunks(20)
        .map(|c| format!("{}\n", std::str::from_utf8(c).unwrap()))
        .collect();
    let run = picollo(&["report", "-"], Some(wrapped.as_bytes()));
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_eq!(run.stdout.replace("<stdin>", "single.b64"), b64);
}

#[test]
fn standard_input_is_read_for_a_dash() {
    let file = ok(&["report", "latency.hlog", "--interval", "2"]);
    let bytes = std::fs::read(common::data_dir().join("latency.hlog")).unwrap();
    let run = picollo(&["report", "-", "--interval", "2"], Some(&bytes));
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_eq!(run.stdout, file.replace("latency.hlog", "<stdin>"));
    let raw = std::fs::read(common::data_dir().join("single.v2")).unwrap();
    let run = picollo(&["report", "-"], Some(&raw));
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(run.stdout.starts_with("##### <stdin> (1 histogram)\n"));
}

#[test]
fn a_hdr_histogram_js_log_counts_from_start_time_not_base_time() {
    // interop/fixtures (README there): StartTime 1700000000, BaseTime 1699999990, stamps
    // 10, 11 (tagged api, 2 digits), 12: the intervals start 0, 1 and 2 s after StartTime.
    let log = "../../../interop/fixtures/hdr-histogram-js.hlog";
    let all = ok(&["report", log]);
    assert!(
        all.starts_with(&format!("##### {log} (2 intervals, 0–3 s)\n")),
        "{all}"
    );
    assert_eq!(row(&all, "Precision:")[3], "1,036"); // 36 + 1000 untagged values
                                                     // From 1 s: the last interval only, 42 × 1 and 4,200,000 × 999; 4,200,000 lies in
                                                     // [4,198,400, 4,202,495] (3 digits, 4096 wide there).
    let last = ok(&["report", log, "--from", "1"]);
    assert_eq!(row(&last, "Precision:")[3], "1,000");
    assert_eq!(row(&last, "0")[1], "42");
    assert_eq!(row(&last, "50")[1..3], ["4,200,448", "±2,048"]);
    // The api interval has 2 digits: 5,000 lies in [4,992, 5,023].
    let api = ok(&["report", log, "--tag", "api"]);
    assert_eq!(row(&api, "50")[1..3], ["5,008", "±16"]);
    assert_eq!(row(&api, "Precision:")[1..4], ["0.3906%", "Total:", "60"]);
}

#[test]
fn a_log_with_a_lowest_discernible_value_above_1_reports_the_datas_precision() {
    // hdrh's HdrHistogram(1000, 2^45, 3) of 1000, 6683, 30040 and 161204 ns: below 2^20 its
    // buckets are 512 wide (the unit, 1000 rounded down to a power of two), so every row's ±
    // is 256 ns, and 6,683 ns lies in P50's bucket [6,656, 7,168).
    let out = ok(&["report", "peer_hdrh_lowest.hlog", "--unit-ratio", "1000"]);
    assert_eq!(row(&out, "0")[1..3], ["0.768", "±0.256"]); // 1000 in [512, 1024)
    assert_eq!(row(&out, "50")[1..3], ["6.912", "±0.256"]);
    assert_eq!(row(&out, "75")[1..3], ["29.952", "±0.256"]); // 30040 in [29,696, 30,208)
    assert_eq!(row(&out, "100")[1..3], ["161.024", "±0.256"]); // 161204 in [160,768, 161,280)
    assert_eq!(row(&out, "Precision:")[3], "4");
}
