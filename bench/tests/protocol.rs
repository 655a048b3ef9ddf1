//! The worker protocol's text, held still: every request and reply written as
//! `golden/protocol.jsonl` holds it and read back as the same message, and the lines a worker
//! of the previous release wrote (keys in another order) still read. Run with
//! `PICOLLO_BLESS=1` to write the golden file anew after a deliberate change (which, unless it
//! only adds a field, is a new `PROTOCOL`).

use std::path::PathBuf;

use picollo_bench::model::{
    Answer, Hello, Opened, Ready, Reply, Request, Settings, TurnFigures, PROTOCOL, TAG,
};
use picollo_bench::{Metric, MetricKind, Unit, WarmUp};

fn golden(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(name)
}

fn settings() -> Settings {
    Settings {
        warmup_ns: 1_000_000_000,
        samples: 1_000_000,
        budget_ns: 300_000_000,
        batch: None,
        rounds: Some(40),
        relative_error: 0.0001,
        counters: Some(vec![
            "Hardware:Instructions".into(),
            "Software:PageFaults".into(),
        ]),
        read_path: "syscall".into(),
    }
}

/// One request of every kind.
fn requests() -> Vec<Request> {
    vec![
        Request::Hello { protocol: PROTOCOL },
        Request::Open {
            name: "sum 1000".into(),
            settings: settings(),
        },
        Request::Batch { batch: 8 },
        Request::Turn {
            quota: 100_000,
            budget_ns: 15_000_000,
            frames: 60,
            heap: 12_816,
        },
        Request::Close,
        Request::Quit,
    ]
}

fn opened() -> Opened {
    Opened {
        batch: 8,
        warm_up: WarmUp {
            batches: 20,
            converged: true,
            last_change: 0.0125,
        },
        metrics: vec![
            Metric::new("time", Unit::Nanoseconds, MetricKind::Time),
            Metric::new(
                "Software:TaskClock",
                Unit::Nanoseconds,
                MetricKind::OnCpuTime,
            ),
            Metric::new("Software:PageFaults", Unit::Events, MetricKind::Counter),
            Metric::new("Emulated:Instructions", Unit::Events, MetricKind::Exact),
            Metric::new("allocated", Unit::Bytes, MetricKind::Counter),
        ],
        warnings: vec!["hardware counters unavailable".into()],
        unoptimized: Some("a Rust build with debug assertions".into()),
    }
}

/// One answer of every kind.
fn answers() -> Vec<Answer> {
    let hello = Hello {
        protocol: PROTOCOL,
        suite: "suite".into(),
        benchmarks: vec!["sum 1000".into(), "spin 200".into()],
    };
    let ready = Ready {
        overhead: vec![20_029, 972_000, 0],
        baseline: vec![0, 0, 0],
        resolution: vec![1, 1_875, 0],
        clock: "Tsc at 2.596 GHz (resolution 0.385 ns)".into(),
        counters_read: None,
    };
    let turn = TurnFigures {
        rows: vec![449_419, 657_125, 0, 287_928, 310_375, 1],
        floored: vec![0, 0, 1],
        multiplexed: vec![false, false, true],
        times: vec![(0, 0), (6_782_659, 6_782_659), (9, 4)],
    };
    vec![
        Answer::Reply(Reply::Hello(hello)),
        Answer::Reply(Reply::Opened(opened())),
        Answer::Reply(Reply::Ready(ready)),
        Answer::Reply(Reply::Turn(turn)),
        Answer::Reply(Reply::Closed),
        Answer::error("benchmark \"panics\" panicked: as the test asked"),
    ]
}

/// Every message's line, requests first.
fn lines() -> Vec<String> {
    let requests = requests().iter().map(Request::line).collect::<Vec<_>>();
    let answers = answers().into_iter().map(|a| a.line());
    requests.into_iter().chain(answers).collect()
}

#[test]
fn every_message_is_written_as_the_golden_file_holds_it() {
    let want: String = lines().iter().map(|l| l.clone() + "\n").collect();
    let path = golden("protocol.jsonl");
    if std::env::var_os("PICOLLO_BLESS").is_some() {
        std::fs::write(&path, &want).unwrap();
    }
    let held = std::fs::read_to_string(&path).unwrap();
    for (i, (w, h)) in want.lines().zip(held.lines()).enumerate() {
        assert_eq!(w, h, "line {} of {}", i + 1, path.display());
    }
    assert_eq!(want.lines().count(), held.lines().count(), "{held}");
}

#[test]
fn every_golden_line_reads_back_as_its_message() {
    let held = std::fs::read_to_string(golden("protocol.jsonl")).unwrap();
    let mut lines = held.lines();
    for request in requests() {
        let line = lines.next().unwrap();
        assert_eq!(Request::read(line).unwrap(), request, "{line}");
    }
    for answer in answers() {
        let line = lines.next().unwrap();
        let text = line
            .strip_prefix(TAG)
            .expect("a reply line starts with the tag");
        assert_eq!(Answer::read(text).unwrap(), answer, "{line}");
    }
    assert_eq!(lines.next(), None);
}

/// The lines a suite and a worker of the previous release wrote (its keys sorted, a real
/// run's figures): the same protocol, so they still read, as the same values.
#[test]
fn the_previous_release_lines_still_read() {
    let held = std::fs::read_to_string(golden("protocol-1-sorted-keys.jsonl")).unwrap();
    let lines: Vec<&str> = held.lines().collect();
    let requests: Vec<Request> = lines[..6]
        .iter()
        .map(|l| Request::read(l).unwrap())
        .collect();
    let kinds: Vec<_> = requests.iter().map(Request::answered_by).collect();
    let want = [
        Some("hello"),
        Some("opened"),
        Some("ready"),
        Some("slot"),
        Some("closed"),
        None,
    ];
    assert_eq!(kinds, want);
    let Request::Open { name, settings } = &requests[1] else {
        panic!("{:?}", requests[1])
    };
    assert_eq!(
        (name.as_str(), settings.batch, settings.counters.as_ref()),
        ("sum 1000", None, None)
    );
    assert_eq!(
        (settings.samples, settings.relative_error),
        (1_000_000, 0.0001)
    );
    let answers: Vec<Answer> = lines[6..]
        .iter()
        .map(|l| Answer::read(l).unwrap())
        .collect();
    let Answer::Reply(Reply::Opened(o)) = &answers[1] else {
        panic!("{:?}", answers[1])
    };
    assert_eq!(
        (o.batch, o.warm_up.batches, o.warm_up.converged),
        (8, 20, true)
    );
    assert_eq!(o.metrics[1].kind, MetricKind::OnCpuTime);
    assert_eq!(o.metrics[2].unit, Unit::Events);
    let Answer::Reply(Reply::Turn(s)) = &answers[3] else {
        panic!("{:?}", answers[3])
    };
    assert_eq!((s.rows.len(), s.times[1]), (8, (6_782_659, 6_782_659)));
    assert_eq!(answers[4], Answer::Reply(Reply::Closed));
    assert!(matches!(&answers[5], Answer::Error { error } if error.contains("panicked")));
    // Written anew and read again, each is the same message.
    for a in &answers {
        let line = a.line();
        assert_eq!(&Answer::read(line.strip_prefix(TAG).unwrap()).unwrap(), a);
    }
}

#[test]
fn a_warm_up_whose_change_is_not_a_number_travels_as_null() {
    let mut o = opened();
    o.warm_up.last_change = f64::NAN;
    let line = Answer::Reply(Reply::Opened(o)).line();
    assert!(line.contains("\"warm_up\":[20,true,null]"), "{line}");
    let Ok(Answer::Reply(Reply::Opened(back))) = Answer::read(line.strip_prefix(TAG).unwrap())
    else {
        panic!("{line}")
    };
    assert!(back.warm_up.last_change.is_nan());
}

#[test]
fn a_reply_missing_a_field_names_it() {
    let text =
        r#"{"reply":"ready","overhead":[1],"baseline":[0],"resolution":[1],"counters_read":null}"#;
    let why = Answer::read(text).unwrap_err();
    assert!(why.contains("missing field `clock`"), "{why}");
    let why = Answer::read(r#"{"reply":"opened","batch":1}"#).unwrap_err();
    assert!(why.contains("missing field"), "{why}");
    let why = Answer::read(r#"{"reply":"bye"}"#).unwrap_err();
    assert!(why.contains("unknown variant `bye`"), "{why}");
    let why = Answer::read("{not json").unwrap_err();
    assert!(why.starts_with("key must be a string"), "{why}");
    let why = Request::read(r#"{"op":"slot","quota":1}"#).unwrap_err();
    assert!(why.contains("missing field `budget_ns`"), "{why}");
}

#[test]
fn unknown_metric_names_and_units_are_refused() {
    let text = r#"{"reply":"opened","batch":1,"warm_up":[1,true,0.0],"metrics":[["time","ms","time"]],"warnings":[],"unoptimized":null}"#;
    let why = Answer::read(text).unwrap_err();
    assert!(why.contains("unknown unit \"ms\""), "{why}");
    let text = text.replace("\"ms\",\"time\"", "\"ns\",\"wall\"");
    let why = Answer::read(&text).unwrap_err();
    assert!(why.contains("unknown variant `wall`"), "{why}");
}
