//! `picollo convert`: normalized logs that read back to the same figures, summary JSON,
//! OpenMetrics expositions and OTLP/JSON requests.

mod common;

use common::{fails, golden, ok, ok_line, picollo, row, words};

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
    let out = ok_line("convert latency_b.hlog --to log --from 1 --until 3");
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
    let sum = ["convert", "latency.hlog", "--to", "log", "--sum"];
    fails(&sum, None, 2, &["--sum applies to --to json only"]);
    let yaml = ["convert", "latency.hlog", "--to", "yaml"];
    fails(
        &yaml,
        None,
        2,
        &["[possible values: log, json, openmetrics, otlp-json"],
    );
    // A report row still reads the same after a trip through stdout and stdin.
    let log = ok(&["convert", "latency.hlog", "--to", "log"]);
    let run = picollo(&["report", "-"], Some(log.as_bytes()));
    assert_eq!(row(&run.stdout, "50")[1], "1,099");
}

/// The OTLP/JSON output with the scope's version (the crate's) replaced, so the goldens do
/// not change with each release.
fn otlp(args: &[&str]) -> String {
    let out = ok(args);
    let version = format!("\"version\":\"{}\"", env!("CARGO_PKG_VERSION"));
    assert!(out.contains(&version), "{out}");
    out.replace(&version, "\"version\":\"VERSION\"")
}

/// The `le` bounds and counts of the `_bucket` lines of `name` with these labels
/// (`tag="api",` or empty), in order.
fn om_buckets(text: &str, name: &str, labels: &str) -> Vec<(String, u64)> {
    let prefix = format!("{name}_bucket{{{labels}le=\"");
    text.lines()
        .filter_map(|l| l.strip_prefix(prefix.as_str()))
        .map(|rest| {
            let (le, count) = rest.split_once("\"} ").unwrap();
            (le.to_string(), count.parse().unwrap())
        })
        .collect()
}

#[test]
fn openmetrics_one_family_one_point_per_tag_with_explicit_bounds() {
    let out = ok(&[
        "convert",
        "peer_hdrh.hlog",
        "--to",
        "openmetrics",
        "--bounds",
        "100,1000,6000",
        "--name",
        "rpc_latency_seconds",
        "--unit",
        "seconds",
        "--help-text",
        "RPC latency",
        "--unit-ratio",
        "1000",
    ]);
    golden("convert_peer.om", &out);
    let name = "rpc_latency_seconds";
    assert_eq!(out.matches("# TYPE ").count(), 1);
    assert!(out.starts_with(
        "# TYPE rpc_latency_seconds histogram\n# UNIT rpc_latency_seconds seconds\n\
         # HELP rpc_latency_seconds RPC latency\n"
    ));
    assert!(out.ends_with("\n# EOF\n"));
    // The cumulative counts at the bounds 0.1, 1.0, 6.0 and +Inf (shown in seconds):
    // api: 1..=100, 101..=200, 201..=300 in three intervals;
    // db: 27 × 500, then 5000, 6000 and 7000 (one per interval). 6000 lies in the bucket
    // [6000, 6003], whose top is above the bound 6000: it counts at the next bound.
    for (tag, counts) in [("api", [100, 300, 300, 300]), ("db", [0, 27, 28, 30])] {
        let want: Vec<(String, u64)> = ["0.1", "1.0", "6.0", "+Inf"]
            .map(String::from)
            .into_iter()
            .zip(counts)
            .collect();
        let labels = format!("tag=\"{tag}\",");
        assert_eq!(om_buckets(&out, name, &labels), want, "{tag}");
    }
    assert!(out.contains("rpc_latency_seconds_count{tag=\"api\"} 300\n"));
    // Values below 2048 have buckets of their own: the sum is exact, (1 + … + 300) / 1000.
    let api_sum: u64 = (1..=300).sum();
    assert_eq!(api_sum, 45_150);
    assert!(out.contains("rpc_latency_seconds_sum{tag=\"api\"} 45.15\n"));
    assert!(out.contains("rpc_latency_seconds_created{tag=\"db\"} 1700000000.0\n"));
}

#[test]
fn openmetrics_defaults_derive_exact_bounds_for_untagged_intervals() {
    let out = ok(&["convert", "latency.hlog", "--to", "openmetrics"]);
    golden("convert_latency.om", &out);
    assert!(out.starts_with("# TYPE picollo_histogram histogram\n"));
    // Untagged intervals carry no label; the log's StartTime makes _created absolute (the
    // first interval starts 5 ms after it).
    let buckets = om_buckets(&out, "picollo_histogram", "");
    assert!(buckets.len() > 10, "{out}");
    assert!(
        buckets.windows(2).all(|w| w[0].1 <= w[1].1),
        "cumulative: {out}"
    );
    assert_eq!(buckets.last().unwrap(), &("+Inf".to_string(), 600));
    assert!(out.contains("\npicollo_histogram_count 600\n"));
    assert!(out.contains("\npicollo_histogram_created 1700000100.005\n"));
    // Coarse bounds are tops of buckets, so every count is exact: that of the values at
    // or below the bound. The log holds 1000..=1099 in each of its first three intervals
    // and 1200..=1299 in each of the last three.
    let below = |b: u64| -> u64 {
        let n = |lo: u64, hi: u64| (lo..=hi).filter(|&v| v <= b).count() as u64;
        3 * n(1000, 1099) + 3 * n(1200, 1299)
    };
    for (le, count) in &buckets[..buckets.len() - 1] {
        let bound = le.parse::<f64>().unwrap() as u64;
        assert_eq!(*count, below(bound), "le={le}");
    }
    assert!(
        buckets.iter().any(|(_, c)| *c == 300),
        "a bound between the two groups"
    );
    // A coarser error gives fewer bounds, and the unit ratio divides le and _sum.
    let coarse =
        ok_line("convert latency.hlog --to openmetrics --coarse 0.5 --unit-ratio 1000 --unit ms");
    assert!(coarse
        .starts_with("# TYPE picollo_histogram_ms histogram\n# UNIT picollo_histogram_ms ms\n"));
    let few = om_buckets(&coarse, "picollo_histogram_ms", "");
    assert!(few.len() < buckets.len());
    assert!(
        coarse.contains("\npicollo_histogram_ms_sum 689.7\n"),
        "{coarse}"
    );
    assert!(out.contains("\npicollo_histogram_sum 689700.0\n"));
}

#[test]
fn otlp_json_cumulative_one_point_per_tag() {
    let out = otlp(&["convert", "latency.hlog", "--to", "otlp-json"]);
    golden("convert_latency.otlp.json", &out);
    assert_eq!(out.lines().count(), 1);
    assert!(out.starts_with("{\"resourceMetrics\":[{"));
    assert!(out.contains("\"name\":\"picollo_histogram\""));
    assert_eq!(out.matches("\"startTimeUnixNano\"").count(), 1);
    // From the first interval's start to the last one's end, the StartTime added.
    assert!(out.contains(
        "\"attributes\":[],\"startTimeUnixNano\":\"1700000100005000000\",\
         \"timeUnixNano\":\"1700000106005000000\",\"count\":\"600\",\"sum\":689700.0,"
    ));
    assert!(out.ends_with("\"aggregationTemporality\":2}}]}]}]}\n"));
    // Two tags: one point each, with the tag as attribute.
    let out = otlp(&[
        "convert",
        "peer_hdrh.hlog",
        "--to",
        "otlp-json",
        "--name",
        "rpc.latency",
        "--unit",
        "ms",
        "--help-text",
        "RPC latency",
    ]);
    assert!(
        out.contains("\"name\":\"rpc.latency\",\"description\":\"RPC latency\",\"unit\":\"ms\"")
    );
    let api = "\"attributes\":[{\"key\":\"tag\",\"value\":{\"stringValue\":\"api\"}}],\
               \"startTimeUnixNano\":\"1700000000000000000\",\"timeUnixNano\":\"1700000003000000000\",\
               \"count\":\"300\",\"sum\":45150.0,";
    assert!(out.contains(api), "{api} not in {out}");
    let db = "\"stringValue\":\"db\"}}],\"startTimeUnixNano\":\"1700000000000000000\",\
              \"timeUnixNano\":\"1700000003000000000\",\"count\":\"30\",";
    assert!(out.contains(db));
    assert!(out.find(api).unwrap() < out.find(db).unwrap());
}

#[test]
fn otlp_json_delta_one_point_per_interval() {
    let out = otlp(&words(
        "convert latency.hlog --to otlp-json --delta --until 2 --unit-ratio 1000",
    ));
    golden("convert_latency_delta.otlp.json", &out);
    assert!(out.ends_with("\"aggregationTemporality\":1}}]}]}]}\n"));
    // Two intervals selected (starting at 0.005 and 1.005 s), 100 values each, in ms.
    assert_eq!(out.matches("\"count\":\"100\"").count(), 2);
    assert!(out.contains(
        "\"startTimeUnixNano\":\"1700000100005000000\",\"timeUnixNano\":\"1700000101005000000\""
    ));
    assert!(out.contains(
        "\"startTimeUnixNano\":\"1700000101005000000\",\"timeUnixNano\":\"1700000102005000000\""
    ));
    let out = otlp(&words(
        "convert peer_hdrh.hlog --to otlp-json --delta --tag db",
    ));
    assert_eq!(out.matches("\"stringValue\":\"db\"").count(), 3);
    assert_eq!(out.matches("\"count\":\"10\"").count(), 3);
    assert!(!out.contains("api"));
}

// The tests' protobuf decoder of the core crate, written from the wire format.
#[path = "../../core/tests/common/protobuf.rs"]
#[allow(dead_code)]
mod protobuf;

/// The native histogram of one series: (labels, count, sum, schema, zero_threshold, bucket
/// total from the deltas).
type Series = (Vec<(String, String)>, u64, f64, i64, f64, i64);

/// The families of a delimited stream: (name, help, type, series).
fn native_stream(bytes: &[u8]) -> Vec<(String, String, u64, Vec<Series>)> {
    use protobuf::{all, double, metric_families, unzigzag, varint, Field};
    let series = |(labels, h): protobuf::MetricMessage| {
        // Deltas add up to each bucket's count; the counts to the total.
        let (mut count, mut total) = (0i64, 0i64);
        for d in all(&h, 13) {
            let Field::Varint(d) = d else { panic!() };
            count += unzigzag(d);
            total += count;
        }
        let schema = unzigzag(varint(&h, 5));
        let zero = varint(&h, 7) as i64;
        (
            labels,
            varint(&h, 1),
            double(&h, 2).unwrap(),
            schema,
            double(&h, 6).unwrap(),
            total + zero,
        )
    };
    metric_families(bytes)
        .into_iter()
        .map(|(name, help, kind, metrics)| {
            (name, help, kind, metrics.into_iter().map(series).collect())
        })
        .collect()
}

#[test]
fn prometheus_native_one_family_one_series_per_tag() {
    let path = std::env::temp_dir().join(format!("picollo-native-{}.pb", std::process::id()));
    let out = ok(&[
        "convert",
        "peer_hdrh.hlog",
        "--to",
        "prometheus-native",
        "--name",
        "rpc_latency_seconds",
        "--help-text",
        "RPC latency",
        "--unit-ratio",
        "1000",
        "-o",
        path.to_str().unwrap(),
    ]);
    assert!(out.is_empty());
    let bytes = std::fs::read(&path).unwrap();
    std::fs::remove_file(&path).unwrap();
    let families = native_stream(&bytes);
    assert_eq!(families.len(), 1);
    let (name, help, kind, series) = &families[0];
    assert_eq!(
        (name.as_str(), help.as_str(), *kind),
        ("rpc_latency_seconds", "RPC latency", 4)
    );
    let tags: Vec<&str> = series.iter().map(|s| s.0[0].1.as_str()).collect();
    assert_eq!(tags, ["api", "db"]);
    let api = &series[0];
    assert_eq!(api.0, [("tag".to_string(), "api".to_string())]);
    // api is 1..=300 (buckets one value wide): its count, and its sum in thousands.
    assert_eq!(api.1, 300);
    assert!((api.2 - 45.15).abs() < 1e-9, "{}", api.2);
    // 3 significant digits: 0.05 %, finer than schema 8's 0.135 %, so schema 8.
    assert_eq!(api.3, 8);
    assert!(api.4 > 0.0);
    assert_eq!(api.5, 300, "every value in a bucket");
    assert_eq!((series[1].1, series[1].5), (30, 30));

    // A schema given, and the rules of the options and the name.
    let coarse = std::env::temp_dir().join(format!("picollo-native4-{}.pb", std::process::id()));
    ok(&[
        "convert",
        "latency.hlog",
        "--to",
        "prometheus-native",
        "--schema",
        "-4",
        "-o",
        coarse.to_str().unwrap(),
    ]);
    let bytes = std::fs::read(&coarse).unwrap();
    std::fs::remove_file(&coarse).unwrap();
    let families = native_stream(&bytes);
    assert_eq!(families[0].0, "picollo_histogram");
    assert_eq!(families[0].3[0].0, []);
    assert_eq!((families[0].3[0].3, families[0].3[0].5), (-4, 600));
    for (args, needle) in [
        (&["--schema", "9"][..], "schema is 9: it must be in -4..8"),
        (&["--name", "9x"][..], "--name \"9x\""),
        (&["--name", "x_bucket"][..], "must match [a-zA-Z_:]"),
        (
            &["--unit", "seconds"][..],
            "--unit applies to --to openmetrics or otlp-json only",
        ),
    ] {
        let mut all = vec!["convert", "latency.hlog", "--to", "prometheus-native"];
        all.extend_from_slice(args);
        fails(&all, None, 2, &[needle]);
    }
    let schema = [
        "convert",
        "latency.hlog",
        "--to",
        "otlp-json",
        "--schema",
        "3",
    ];
    fails(
        &schema,
        None,
        2,
        &["--schema applies to --to prometheus-native only"],
    );
}

/// The sum of every interval of a log in the data directory, read by the library.
fn log_sum(name: &str) -> picollo::Histogram<u64, Vec<u64>> {
    let text = std::fs::read_to_string(common::data_dir().join(name)).unwrap();
    let mut sum = picollo::hdr::Accumulator::new();
    for interval in picollo::hdr::LogReader::new(&text) {
        sum.add_interval(&interval.unwrap()).unwrap();
    }
    sum.histogram().expect("a log with intervals").clone()
}

#[test]
fn a_format_of_the_table_writes_the_sum_of_every_interval() {
    let sum = log_sum("latency.hlog");
    let mut rows = String::from("lower,upper,count\n");
    for b in sum.view().buckets_with_values() {
        rows += &format!("{},{},{}\n", b.lower, b.highest, b.count);
    }
    assert_eq!(ok(&["convert", "latency.hlog", "--to", "csv"]), rows);
    let table = ok(&[
        "convert",
        "latency.hlog",
        "--to",
        "table",
        "--option",
        "title=all",
    ]);
    let mut expected = String::new();
    sum.view()
        .summary()
        .write_table(&mut expected, "all")
        .unwrap();
    assert_eq!(table, expected);
    let listed = ok(&["formats"]);
    assert!(
        listed.contains("csv (text;") && listed.contains("hdr-v2 (binary;"),
        "{listed}"
    );
}

#[test]
fn formats_of_the_table_refuse_what_they_do_not_take() {
    let csv = ["convert", "latency.hlog", "--to", "csv"];
    fails(
        &[&csv[..], &["--option", "title=x"]].concat(),
        None,
        2,
        &["takes no option \"title\""],
    );
    fails(
        &["convert", "latency.hlog", "--to", "zip"],
        None,
        2,
        &["\"zip\" is not a target", ", csv"],
    );
    let log = ["convert", "latency.hlog", "--to", "log", "--option", "a=b"];
    fails(&log, None, 2, &["--option applies to the formats"]);
    fails(
        &[&csv[..], &["--option", "novalue"]].concat(),
        None,
        2,
        &["is not NAME=VALUE"],
    );
}

#[test]
fn format_prefix_reaches_the_table_where_a_target_has_its_name() {
    let sum = log_sum("latency.hlog");
    let table = |name: &str, options: &[(&str, &str)]| {
        let bytes = picollo::export::export(name, &sum.view(), options).unwrap();
        String::from_utf8(bytes).unwrap()
    };
    let json = ok(&["convert", "latency.hlog", "--to", "format:json"]);
    assert_eq!(json, table("json", &[]));
    let lines = ok(&["convert", "latency.hlog", "--to", "json"]);
    assert!(
        lines.lines().count() > 1 && lines.starts_with("{\"tag\""),
        "{lines}"
    );
    let om = ["convert", "latency.hlog", "--to", "format:openmetrics"];
    let with_name = [
        &om[..],
        &["--option", "name=lat", "--option", "label.host=a"],
    ]
    .concat();
    let expected = table("openmetrics", &[("name", "lat"), ("label.host", "a")]);
    assert_eq!(ok(&with_name), expected);
    fails(&om, None, 2, &["needs option \"name\""]);
    let csv = ok(&["convert", "latency.hlog", "--to", "format:csv"]);
    assert_eq!(csv, ok(&["convert", "latency.hlog", "--to", "csv"]));
    let unknown = ["convert", "latency.hlog", "--to", "format:log"];
    fails(&unknown, None, 2, &["no format is called \"log\""]);
    let listed = ok(&["formats"]);
    for line in ["json (text; --to format:json)", "csv (text; --to csv)"] {
        assert!(listed.contains(line), "{line}: {listed}");
    }
    assert!(
        listed.contains("otlp-protobuf (binary; --to otlp-protobuf)"),
        "{listed}"
    );
}
