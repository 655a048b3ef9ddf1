//! `picollo hgrm`: the `.hgrm` of a log's selected intervals. The goldens were compared
//! byte for byte with hdr-histogram-js 3.0.1 reading the same logs (script in
//! tests/data/README.md); the figures below are worked out by hand.

mod common;

use common::{fails, golden, ok, ok_line, picollo};

/// `picollo ARGS`, compared with the golden file `name`; its first lines must be `head`.
fn hgrm_golden(args: &[&str], name: &str, head: &[&str]) -> String {
    let out = ok(args);
    golden(name, &out);
    let first: Vec<&str> = out.lines().take(head.len()).collect();
    assert_eq!(first, head);
    out
}

#[test]
fn hgrm_of_a_tag() {
    // 1..=300: at 10 % the 30th value, at 77.5 % the 233rd (ceil of 232.5).
    let head = [
        "       Value     Percentile TotalCount 1/(1-Percentile)",
        "",
        "       1.000 0.000000000000          1           1.00",
        "      30.000 0.100000000000         30           1.11",
    ];
    let args = ["hgrm", "peer_hdrh.hlog", "--tag", "api"];
    let out = hgrm_golden(&args, "hgrm_peer_api.hgrm", &head);
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines.contains(&"     233.000 0.775000000000        233           4.44"));
    assert!(lines.contains(&"     300.000 1.000000000000        300"));
    assert!(out.ends_with(
        "#[Mean    =      150.500, StdDeviation   =       86.602]\n\
         #[Max     =      300.000, Total count    =          300]\n\
         #[Buckets =           22, SubBuckets     =         2048]\n"
    ));
}

#[test]
fn hgrm_with_ticks_and_a_unit_ratio() {
    let out = ok_line("hgrm peer_hdrh.hlog --tag db --ticks 3 --unit-ratio 1000");
    golden("hgrm_peer_db_ticks3_in_thousands.hgrm", &out);
    // Rows give the bucket's highest value: 7000 lies in [7000, 7003].
    assert!(
        out.contains("\n       7.003 1.000000000000         30\n"),
        "{out}"
    );
    // Mean over midpoints, 1050.2, divided by 1000.
    assert!(out.contains("#[Mean    =        1.050, StdDeviation   =        1.671]"));
    // 3 ticks per half distance: 0, 16.7, 33.3, 50, 58.3, … %.
    assert!(out.contains("       0.500 0.166666666667         27           1.20\n"));
}

#[test]
fn hgrm_as_csv_and_from_stdin() {
    let head = [
        "\"Value\",\"Percentile\",\"TotalCount\",\"1/(1-Percentile)\"",
        "1000.000,0.000000000000,3,1.00",
    ];
    let args = ["hgrm", "latency.hlog", "--csv"];
    let out = hgrm_golden(&args, "hgrm_latency.csv", &head);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.last(), Some(&"1299.000,1.000000000000,600,Infinity"));
    let bytes = std::fs::read(common::data_dir().join("latency.hlog")).unwrap();
    let run = picollo(&["hgrm", "-", "--csv"], Some(&bytes));
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_eq!(run.stdout, out);
}

#[test]
fn hgrm_errors() {
    let untagged = ["hgrm", "peer_hdrh.hlog"];
    fails(&untagged, None, 5, &["no untagged intervals"]);
    let no_ticks = ["hgrm", "latency.hlog", "--ticks", "0"];
    fails(&no_ticks, None, 2, &["--ticks"]);
}
