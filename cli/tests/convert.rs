//! `picollo convert`: normalized logs that read back to the same figures, and summary JSON.

mod common;

use common::{golden, ok, picollo, row};

/// The non-empty buckets of a base64 V2 histogram: `(lowest, highest, count)`.
fn buckets(base64: &str) -> Vec<(u64, u64, u64)> {
    let decoded = picollo::hdr::decode_base64(base64).expect("a V2 histogram");
    let view = decoded.histogram.view();
    view.buckets_with_values()
        .map(|b| (b.lower, b.highest, b.count))
        .collect()
}

/// A log against its golden: every line equal, except that histograms need only hold the
/// same buckets and counts (the compressed bytes follow the zlib settings, not the data).
fn same_log(name: &str, actual: &str) {
    if std::env::var_os("PICOLLO_BLESS").is_some() {
        return golden(name, actual);
    }
    let path = common::data_dir().join("../golden").join(name);
    let expected = std::fs::read_to_string(path).unwrap();
    let (e, a): (Vec<&str>, Vec<&str>) = (expected.lines().collect(), actual.lines().collect());
    assert_eq!(e.len(), a.len(), "{name}:\n{actual}");
    for (e, a) in e.iter().zip(&a) {
        match (e.rsplit_once(",HIST"), a.rsplit_once(",HIST")) {
            (Some((ef, eh)), Some((af, ah))) => {
                assert_eq!(ef, af, "{name}: fields differ");
                assert!(ah.starts_with("FAAA"), "compressed V2: {a}");
                let (eh, ah) = (format!("HIST{eh}"), format!("HIST{ah}"));
                assert_eq!(
                    buckets(&eh),
                    buckets(&ah),
                    "{name}: histograms differ:\n{e}\n{a}"
                );
            }
            _ => assert_eq!(e, a, "{name}"),
        }
    }
}

#[test]
fn a_peer_log_becomes_a_normalized_1_3_log() {
    let out = ok(&["convert", "peer_hdrh.hlog", "--to", "log"]);
    same_log("convert_peer.hlog", &out);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "#[Histogram log format version 1.3]");
    assert_eq!(
        lines[1],
        "#[StartTime: 1700000000.000 (seconds since epoch), 2023-11-14T22:13:20Z]"
    );
    assert_eq!(
        lines[2],
        "#[BaseTime: 1700000000.000 (seconds since epoch)]"
    );
    // Both tags kept, times relative to the start with three decimals, maxima as the top
    // of the highest bucket / 10^6 (db's 5000 lies in [5000, 5003]).
    assert!(
        lines[4].starts_with("Tag=api,0.000,1.000,0.000,HISTF"),
        "{}",
        lines[4]
    );
    assert!(
        lines[5].starts_with("Tag=db,0.000,1.000,0.005,HISTF"),
        "{}",
        lines[5]
    );
    assert!(
        lines[9].starts_with("Tag=db,2.000,1.000,0.007,HISTF"),
        "{}",
        lines[9]
    );
    assert_eq!(lines.len(), 10);
    // The histograms are hdrh's, bucket for bucket (db's second interval: nine 500s and
    // 6000, in [6000, 6003]).
    let peer = std::fs::read_to_string(common::data_dir().join("peer_hdrh.hlog")).unwrap();
    let theirs = peer.lines().nth(6).unwrap().rsplit_once(',').unwrap().1;
    let ours = lines[7].rsplit_once(',').unwrap().1;
    assert_eq!(buckets(ours), [(500, 500, 9), (6000, 6003, 1)]);
    assert_eq!(buckets(theirs), buckets(ours));
}

#[test]
fn a_converted_log_reports_what_the_original_does() {
    let dir = std::env::temp_dir().join(format!("picollo-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (input, args) in [
        ("peer_hdrh.hlog", &["--tag", "db"][..]),
        ("peer_hdrh.hlog", &["--tag", "api", "--from", "1"][..]),
        ("latency.hlog", &["--interval", "2"][..]),
        ("latency_b.hlog", &["--from", "2", "--to", "5"][..]),
        ("single.v2", &[][..]),
    ] {
        let path = dir.join(format!("{input}.converted"));
        let path = path.to_str().unwrap();
        ok(&["convert", input, "--to", "log", "-o", path]);
        // Every row but the trackable range, which the re-encoded header narrows to the
        // data (core's V2 export writes the top of the highest non-empty bucket), and the
        // alignment row, whose width follows the range's.
        let report = |file: &str| {
            let text = ok(&[&["report", file][..], args].concat()).replace(file, input);
            let kept: Vec<String> = text
                .lines()
                .skip(usize::from(input == "single.v2")) // "1 histogram" vs "1 interval"
                .filter(|l| !l.starts_with("| Range Min:") && !l.starts_with("| :"))
                .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
                .collect();
            kept.join("\n")
        };
        assert_eq!(report(path), report(input), "{input} {args:?}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn convert_selects_by_tag_and_window() {
    let out = ok(&[
        "convert",
        "latency_b.hlog",
        "--to",
        "log",
        "--from",
        "1",
        "--until",
        "3",
    ]);
    let intervals: Vec<&str> = out.lines().filter(|l| !l.starts_with(['#', '"'])).collect();
    // No StartTime: absolute timestamps stay absolute; the window counts from the first.
    assert_eq!(intervals.len(), 2);
    assert!(intervals[0].starts_with("1700000201.000,1.000,0.001,"));
    assert!(intervals[1].starts_with("1700000202.000,1.000,0.001,"));
    let out = ok(&["convert", "peer_hdrh.hlog", "--to", "log", "--tag", "db"]);
    assert_eq!(out.lines().filter(|l| l.starts_with("Tag=")).count(), 3);
    assert!(!out.contains("Tag=api"));
}

#[test]
fn json_lines_per_interval() {
    let out = ok(&["convert", "latency.hlog", "--to", "json"]);
    golden("convert_latency.jsonl", &out);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 6);
    assert!(lines[0]
        .starts_with("{\"tag\":null,\"start\":0.005,\"length\":1,\"intervals\":1,\"summary\":{"));
    assert!(lines[5].starts_with("{\"tag\":null,\"start\":5.005,"));
    assert!(lines[0].contains("\"totalCount\":100,"));
    assert!(lines[0].contains("\"mean\":1049.5,"));
    assert!(lines[3].contains("\"mean\":1249.5,"));
    assert!(lines.iter().all(|l| l.ends_with("]}}")));
}

#[test]
fn json_sums_per_tag() {
    let out = ok(&["convert", "peer_hdrh.hlog", "--to", "json", "--sum"]);
    golden("convert_peer_sum.jsonl", &out);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2);
    assert!(lines[0].starts_with("{\"tag\":\"api\",\"start\":0,\"length\":3,\"intervals\":3,"));
    assert!(lines[0].contains("\"totalCount\":300,") && lines[0].contains("\"mean\":150.5,"));
    assert!(lines[1].starts_with("{\"tag\":\"db\",\"start\":0,\"length\":3,\"intervals\":3,"));
    assert!(lines[1].contains("\"totalCount\":30,"));
    // The P100 entry of db: 7000 in [7000, 7004), reported at 7002.
    assert!(lines[1].contains(
        "{\"rank\":100.0,\"value\":7002,\"plusMinus\":2,\"lower\":7000,\"upper\":7004,\"count\":1,"
    ));
}

#[test]
fn convert_writes_where_told_and_sum_needs_json() {
    let run = picollo(&["convert", "latency.hlog", "--to", "log", "--sum"], None);
    assert_eq!(run.code, Some(2));
    assert!(
        run.stderr.contains("--sum applies to --to json only"),
        "{}",
        run.stderr
    );
    let run = picollo(&["convert", "latency.hlog", "--to", "yaml"], None);
    assert_eq!(run.code, Some(2));
    assert!(
        run.stderr.contains("[possible values: log, json]"),
        "{}",
        run.stderr
    );
    // A report row still reads the same after a trip through stdout and stdin.
    let log = ok(&["convert", "latency.hlog", "--to", "log"]);
    let run = picollo(&["report", "-"], Some(log.as_bytes()));
    assert_eq!(row(&run.stdout, "50")[1], "1,099");
}
