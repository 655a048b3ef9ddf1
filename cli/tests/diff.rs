//! `picollo diff`: two files, two windows of one file, two tags of one file.

mod common;

use common::{fails, golden, ok, ok_line, row};

#[test]
fn two_windows_of_one_log() {
    let out = ok(&["diff", "latency.hlog", "--a-to", "3", "--b-from", "3"]);
    golden("diff_latency_windows.md", &out);
    assert!(out.starts_with(
        "##### latency.hlog (until 3 s, 3 intervals) vs latency.hlog (from 3 s, 3 intervals)\n"
    ));
    assert_eq!(
        row(&out, "Percentile"),
        ["Percentile", "until 3 s", "from 3 s", "Δ%"]
    );
    // A is 1000..=1099 three times, B 1200..=1299: every value 200 higher.
    assert_eq!(row(&out, "50"), ["50", "1,049", "1,249", "+19.1%"]);
    assert_eq!(row(&out, "100"), ["100", "1,099", "1,299", "+18.2%"]);
    // Cohen's d: 200 over the pooled sample deviation sqrt(2·300·833.25 / 598) = 28.914.
    assert_eq!(row(&out, "D-value:")[3], "6.92");
}

#[test]
fn two_logs() {
    let out = ok(&["diff", "latency.hlog", "latency_b.hlog"]);
    golden("diff_latency_files.md", &out);
    assert_eq!(
        row(&out, "Percentile"),
        ["Percentile", "latency.hlog", "latency_b.hlog", "Δ%"]
    );
    // Same mean (1149.5), so no effect size; B is far narrower.
    assert_eq!(
        row(&out, "Mean:"),
        ["Mean:", "1,149.50", "1,149.50", "0.0%"]
    );
    assert_eq!(row(&out, "StDev:")[1..3], ["104.08", "28.87"]);
    assert_eq!(row(&out, "D-value:")[3], "0.00");
}

#[test]
fn two_tags_of_a_peer_log() {
    let out = ok(&["diff", "peer_hdrh.hlog", "--a-tag", "api", "--b-tag", "db"]);
    golden("diff_peer_tags.md", &out);
    assert_eq!(row(&out, "Percentile")[1..3], ["api", "db"]);
    assert_eq!(row(&out, "50"), ["50", "150", "500", "+233.3%"]);
    assert_eq!(row(&out, "Total:"), ["Total:", "300", "30", "-90.0%"]);
}

#[test]
fn shared_options_apply_to_both_sides_unless_overridden() {
    // --from 1 for both, B's window ends at 2: A = 1.005..5.005, B = 1.005 only.
    let out = ok(&["diff", "latency.hlog", "--from", "1", "--b-to", "2"]);
    assert_eq!(row(&out, "Total:")[1..3], ["500", "100"]);
    assert_eq!(row(&out, "Percentile")[1..3], ["from 1 s", "1–2 s"]);
}

#[test]
fn one_log_needs_two_different_selections() {
    fails(&["diff", "latency.hlog"], None, 2, &["--a-tag/--b-tag"]);
}

#[test]
fn an_empty_side_is_no_data() {
    let args = ["diff", "peer_hdrh.hlog", "--a-tag", "api", "--b-tag", "web"];
    fails(&args, None, 5, &["peer_hdrh.hlog: no intervals tagged web"]);
}

#[test]
fn a_unit_ratio_divides_every_value_not_the_deltas() {
    let out = ok_line("diff latency.hlog --a-to 3 --b-from 3 --unit-ratio 1000");
    // As report shows them: 3 decimals for a ratio of 1000; Δ% and d do not change.
    assert_eq!(row(&out, "50"), ["50", "1.049", "1.249", "+19.1%"]);
    assert_eq!(row(&out, "100"), ["100", "1.099", "1.299", "+18.2%"]);
    assert_eq!(row(&out, "D-value:")[3], "6.92");
    let zero = [
        "diff",
        "latency.hlog",
        "latency_b.hlog",
        "--unit-ratio",
        "0",
    ];
    fails(&zero, None, 2, &[]);
}
