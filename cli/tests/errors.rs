//! Failures: each kind has its exit status, and the message names the input, the line and
//! the cause.

mod common;

use common::{fails, picollo};

#[test]
fn a_missing_file_is_an_io_error() {
    fails(
        &["report", "nope.hlog"],
        None,
        3,
        &["picollo: nope.hlog: ", "No such file"],
    );
    fails(
        &["diff", "latency.hlog", "nope.hlog"],
        None,
        3,
        &["nope.hlog"],
    );
}

#[test]
fn an_unwritable_output_is_an_io_error() {
    fails(
        &[
            "convert",
            "latency.hlog",
            "--to",
            "json",
            "-o",
            "/nonexistent/dir/out.jsonl",
        ],
        None,
        3,
        &["/nonexistent/dir/out.jsonl"],
    );
}

#[test]
fn a_bad_line_names_the_input_and_the_line() {
    let log = "#[StartTime: 1700000000.000 (seconds since epoch)]\n\
               \"StartTimestamp\",\"Interval_Length\",\"Interval_Max\",\"Interval_Compressed_Histogram\"\n\
               0.000,1.000,0.001,HISTFAAAACV4nJNpmSzMwMCQxgABzFCaEURcm7yEwf4DROA8PxMdAADUZQaT\n\
               1.000,-1.000,0.001,HISTFAAAACV4nJNpmSzMwMCQxgABzFCaEURcm7yEwf4DROA8PxMdAADUZQaT\n";
    fails(
        &["report", "-"],
        Some(log.as_bytes()),
        4,
        &["<stdin>: line 4: ", "interval length"],
    );
    let corrupt = log
        .replace("1.000,-1.000", "1.000,1.000")
        .replace("ADUZQaT\n", "AD!!\n");
    fails(
        &["report", "-"],
        Some(corrupt.as_bytes()),
        4,
        &["<stdin>: line 3: ", "base64"],
    );
    fails(
        &["report", "-"],
        Some(b"hello\n"),
        4,
        &["<stdin>: line 1: "],
    );
}

#[test]
fn input_that_is_neither_a_log_nor_a_histogram_is_a_format_error() {
    fails(
        &["report", "-"],
        Some(&[0xff, 0xfe, 0x00, 0x12]),
        4,
        &["<stdin>: ", "UTF-8"],
    );
    // A V2 cookie with nothing after it.
    fails(
        &["report", "-"],
        Some(&[0x1c, 0x84, 0x93, 0x14, 0, 0]),
        4,
        &["<stdin>: ", "truncated"],
    );
    fails(&["report", "-"], Some(b"HISTFAAAAZZZ\n"), 4, &["<stdin>: "]);
}

#[test]
fn a_selection_of_nothing_is_no_data() {
    fails(
        &["report", "peer_hdrh.hlog"],
        None,
        5,
        &[
            "peer_hdrh.hlog: no untagged intervals",
            "tags: api, db",
            "6 intervals",
        ],
    );
    fails(
        &["report", "latency.hlog", "--from", "100"],
        None,
        5,
        &[
            "no untagged intervals starting from 100 s",
            "spanning 0.005–6.005 s",
        ],
    );
    fails(
        &["report", "-"],
        Some(b""),
        5,
        &["<stdin>: no intervals in the input"],
    );
    fails(
        &["plot", "peer_hdrh.hlog", "--tag", "web", "-o", "x.svg"],
        None,
        5,
        &["tagged web"],
    );
    fails(
        &["convert", "latency.hlog", "--to", "log", "--tag", "x"],
        None,
        5,
        &["tagged x"],
    );
}

#[test]
fn usage_errors_are_clap_s() {
    fails(&["report"], None, 2, &["LOG"]);
    fails(
        &["report", "latency.hlog", "--unit-ratio", "0"],
        None,
        2,
        &["--unit-ratio"],
    );
    fails(
        &["report", "latency.hlog", "--interval", "-1"],
        None,
        2,
        &["--interval"],
    );
    fails(
        &["report", "latency.hlog", "--from", "3", "--to", "2"],
        None,
        2,
        &["window is empty"],
    );
    fails(
        &["plot", "latency.hlog", "-o", "out.jpg"],
        None,
        2,
        &["out.jpg", ".png or .svg"],
    );
    fails(&["plot", "-", "-", "-o", "out.svg"], None, 2, &["once"]);
    fails(&["frobnicate"], None, 2, &["frobnicate"]);
}

#[test]
fn help_documents_exit_statuses_and_the_time_base() {
    // (the arguments, what their help must say)
    let helps: [(&[&str], &[&str]); 2] = [
        (
            &["--help"],
            &[
                "report",
                "diff",
                "hgrm",
                "plot",
                "convert",
                "Exit status",
                "5  no data",
            ],
        ),
        (
            &["report", "--help"],
            &[
                "StartTime",
                "first interval",
                "[from, to)",
                "3  I/O error",
                "4  format",
            ],
        ),
    ];
    for (args, needles) in helps {
        let run = picollo(args, None);
        assert_eq!(run.code, Some(0));
        for needle in needles {
            let what = args.join(" ");
            assert!(run.stdout.contains(needle), "{needle:?} not in {what}");
        }
    }
}

#[test]
fn metric_conversions_reject_bad_options() {
    fn convert<'a>(extra: &[&'a str]) -> Vec<&'a str> {
        [&["convert", "latency.hlog"][..], extra].concat()
    }
    // Usage errors (exit 2): the options after `convert latency.hlog`, what the error says
    // (bad bounds, coarse error and unit ratio, a unit the name does not end with, options of
    // one target given to another).
    let refused: &[(&[&str], &[&str])] = &[
        (
            &["--to", "openmetrics", "--bounds", "10,5"],
            &["--bounds", "strictly increasing (10 is followed by 5)"],
        ),
        (
            &["--to", "openmetrics", "--bounds", "1,2,2"],
            &["strictly increasing"],
        ),
        (
            &["--to", "openmetrics", "--bounds", "1,x,3"],
            &["\"x\" is not a bound"],
        ),
        (&["--to", "openmetrics", "--bounds", ""], &["--bounds"]),
        (
            &["--to", "openmetrics", "--coarse", "1.5"],
            &["not a relative error in (0, 1)"],
        ),
        (
            &["--to", "openmetrics", "--coarse", "0.1", "--bounds", "1"],
            &["cannot be used with"],
        ),
        (
            &["--to", "openmetrics", "--unit-ratio", "0"],
            &["--unit-ratio"],
        ),
        (
            &["--to", "openmetrics", "--name", "rpc", "--unit", "seconds"],
            &["family name not suffixed"],
        ),
        (
            &["--to", "otlp-json", "--bounds", "1,2"],
            &["--bounds and --coarse apply to --to openmetrics only"],
        ),
        (
            &["--to", "openmetrics", "--delta"],
            &["--delta applies to --to otlp-json only"],
        ),
        (
            &["--to", "json", "--name", "x"],
            &["--name applies to --to openmetrics or otlp-json only"],
        ),
    ];
    for (extra, needles) in refused {
        fails(&convert(extra), None, 2, needles);
    }
    // Names OpenMetrics refuses.
    for name in ["rpc-latency", "9lives", "rpc_latency_bucket", "rpc_total"] {
        fails(
            &convert(&["--to", "openmetrics", "--name", name]),
            None,
            2,
            &[name, "invalid OpenMetrics metric family name"],
        );
    }
    // The selection still has to pick something (exit 5), for both targets.
    for to in ["openmetrics", "otlp-json"] {
        fails(
            &convert(&["--to", to, "--tag", "nope"]),
            None,
            5,
            &["no intervals tagged nope"],
        );
    }
}
