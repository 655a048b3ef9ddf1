//! `picollo bench --metric NAME`: comparisons and a `--baseline` gate judged on a counter
//! rather than wall time. This machine may have no PMU, so the counter is a software one:
//! the page faults of a program that touches N pages of fresh memory, and 2N. A metric the
//! run or the baseline lacks is a usage error before any run.

mod common;

use std::path::PathBuf;

use common::{assert_has, bench, bench_json, fresh_temp, json_of, serial, temp};

/// A program built once: `pages N` maps N fresh pages (no huge pages) and writes one byte
/// in each, N page faults more than its start-up.
fn pages() -> PathBuf {
    static BUILT: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    BUILT.get_or_init(build_pages).clone()
}

fn build_pages() -> PathBuf {
    common::build_c(
        "metric-pages",
        "pages",
        "#include <stdlib.h>\n\
         #include <sys/mman.h>\n\
         int main(int argc, char **argv) {\n\
           long n = atol(argv[1]);\n\
           char *p = mmap(0, n * 4096, PROT_READ | PROT_WRITE,\n\
                          MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);\n\
           if (p == MAP_FAILED) return 1;\n\
           madvise(p, n * 4096, MADV_NOHUGEPAGE);\n\
           for (long i = 0; i < n; i++) p[i * 4096] = 1;\n\
           return 0;\n\
         }\n",
    )
}

/// `pages N` as a command.
fn touching(n: u32) -> String {
    format!("{} {n}", pages().display())
}

#[test]
fn a_metric_the_run_does_not_have_is_a_usage_error_naming_those_it_has() {
    let run = bench(&["--runs", "1", "--metric", "Hardware:Bogus", "true"]);
    run.assert_exit(
        2,
        "--metric: no metric \"Hardware:Bogus\" among time, user, system, ",
    );
    assert_has(&run.stderr, "Software:PageFaults");
    assert!(run.stdout.is_empty(), "nothing ran: {}", run.stdout);
    // A baseline saved without it: refused before the runs too.
    let base = temp("metric-time-only.json");
    std::fs::write(
        &base,
        r#"{"schema":"picollo-bench","version":1,"commands":[{"command":"true","runsApart":[1000,1100],
            "result":{"metrics":[{"name":"time","unit":"ns"}]}}]}"#,
    )
    .unwrap();
    let path = base.to_str().unwrap();
    let run = bench(&["--metric", "page-faults", "--baseline", path, "true"]);
    run.assert_exit(
        2,
        &format!("--metric: no metric \"page-faults\" among time, those {path} saved of command 1"),
    );
    assert!(run.stdout.is_empty(), "nothing ran: {}", run.stdout);
}

#[test]
fn twice_the_pages_touched_count_more_page_faults_interleaved() {
    let _serial = serial();
    let (a, b) = (touching(256), touching(512));
    let args = ["-N", "--runs", "10", "--metric", "page-faults", &a, &b];
    let (run, json) = bench_json("metric-pages.json", &args);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let line = run.stdout.lines().rev().find(|l| l.starts_with("verdict:"));
    let line = line.unwrap_or_default();
    let prefix = format!("verdict: {b} counts more Software:PageFaults than {a} by ");
    assert!(line.starts_with(&prefix), "{}", run.stdout);
    let v = json_of(&json);
    let c = &v["comparisons"][0];
    assert_eq!(
        (&c["metric"], &c["verdict"]),
        (&"Software:PageFaults".into(), &"slower".into())
    );
    // 256 faults more on about 300: the change is that, whichever way it was judged.
    let change = c["change"].as_f64().unwrap();
    assert!((60.0..110.0).contains(&change), "{c}");
    // Each metric's median per run is kept as one run apart, for a later gate.
    let by = &v["commands"][0]["runsApartBy"];
    let faults = by["Software:PageFaults"][0].as_f64().unwrap() / 1000.0;
    assert!((256.0..1000.0).contains(&faults), "{by}");
    assert!(by.get("time").is_none(), "time's are runsApart: {by}");
}

#[test]
fn a_page_fault_gate_fails_twice_the_pages_and_passes_the_same() {
    let _serial = serial();
    let base = fresh_temp("metric-pages-base.json");
    let path = base.to_str().unwrap();
    let (a, b) = (touching(256), touching(512));
    for _ in 0..3 {
        let saved = bench(&["-N", "--runs", "10", "--save", path, "--append", &a]);
        assert_eq!(saved.code, Some(0), "{}", saved.stderr);
    }
    let v = json_of(&base);
    let faults = &v["commands"][0]["runsApartBy"]["Software:PageFaults"];
    assert_eq!(faults.as_array().unwrap().len(), 3, "{v}");
    let gate = |command: &str| {
        let args = ["-N", "--runs", "10", "--metric", "Software:PageFaults"];
        let mut all = args.to_vec();
        all.extend(["--baseline", path, command]);
        bench(&all)
    };
    let same = gate(&a);
    assert_eq!(same.code, Some(0), "{}\n{}", same.stdout, same.stderr);
    assert!(!same.stderr.contains("not judged"), "{}", same.stderr);
    let more = gate(&b);
    more.assert_exit(
        7,
        "command 1 counts more Software:PageFaults than its baseline: verdict: ",
    );
    assert_has(&more.stderr, "counts more Software:PageFaults than ");
    // Time, the default, is judged as before: its verdict line names no metric.
    let time = bench(&["-N", "--runs", "10", "--baseline", path, &a]);
    let line = time
        .stdout
        .lines()
        .rev()
        .find(|l| l.starts_with("verdict:"));
    assert!(
        !line.unwrap_or_default().contains(" in "),
        "{}",
        time.stdout
    );
}
