//! The closing summary of `cargo bench --workspace`: the last lines of every bench of this
//! run, together and in a fixed order ending with `bench values:`. It records nothing: the
//! other benches keep their lines (`report`), and cargo runs this one last (the last
//! package's benches run in the order of their names).

#[path = "../../core/benches/report/mod.rs"]
mod report;

/// The summary's order; lines of other benches come first.
const ORDER: [&str; 12] = [
    "record",
    "threads",
    "perf",
    "harness",
    "encode",
    "ops",
    "export",
    "abi",
    "query",
    "calls",
    "values_int",
    "values",
];

fn main() {
    if std::env::args().any(|a| a == "--list") {
        return;
    }
    let Some(dir) = report::lines_dir() else {
        return;
    };
    let run = report::run_id().to_string();
    let mut lines: Vec<(usize, String, String)> = Vec::new();
    for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(entry.path()).unwrap_or_default();
        // A line of this run is kept; every file is consumed.
        let _ = std::fs::remove_file(entry.path());
        let mut parts = text.lines();
        if parts.next() != Some(run.as_str()) {
            continue;
        }
        if let Some(line) = parts.next() {
            let rank = ORDER.iter().position(|&o| o == name).map_or(0, |p| p + 1);
            lines.push((rank, name, line.to_owned()));
        }
    }
    if lines.is_empty() {
        return;
    }
    lines.sort();
    println!("\nbench summary: the last line of every bench of this run");
    for (_, _, line) in lines {
        println!("{line}");
    }
}
