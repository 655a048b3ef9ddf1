//! Running the `picollo` binary from the tests, and comparing with reviewed golden files.
#![allow(dead_code)] // each test file uses a part

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// What a run left.
pub struct Run {
    /// Exit status (`None` when killed by a signal).
    pub code: Option<i32>,
    /// Standard output, as text.
    pub stdout: String,
    /// Standard error, as text.
    pub stderr: String,
}

impl Run {
    /// The last line of standard output that starts with `prefix` (there must be one).
    pub fn last_line(&self, prefix: &str) -> &str {
        let found = self.stdout.lines().rfind(|l| l.starts_with(prefix));
        found.unwrap_or_else(|| panic!("a line {prefix}… in:\n{}", self.stdout))
    }

    /// Assert that the run exited with `code` and wrote `text` to standard error.
    pub fn assert_exit(&self, code: i32, text: &str) {
        assert_eq!(self.code, Some(code), "{}", self.stderr);
        assert_has(&self.stderr, text);
    }
}

/// The folder of the committed input logs; runs start there, so titles show bare names.
pub fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data")
}

/// Run `picollo ARGS` in the data folder, with `stdin` piped in when given.
pub fn picollo(args: &[&str], stdin: Option<&[u8]>) -> Run {
    // A CI runner's step summary is not the tests' to write.
    let mut child = Command::new(env!("CARGO_BIN_EXE_picollo"))
        .args(args)
        .env_remove("GITHUB_STEP_SUMMARY")
        .current_dir(data_dir())
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the picollo binary runs");
    if let Some(bytes) = stdin {
        child
            .stdin
            .take()
            .unwrap()
            .write_all(bytes)
            .expect("stdin takes the input");
    }
    let out = child.wait_with_output().expect("picollo finishes");
    Run {
        code: out.status.code(),
        stdout: String::from_utf8(out.stdout).expect("stdout is UTF-8"),
        stderr: String::from_utf8(out.stderr).expect("stderr is UTF-8"),
    }
}

/// One test at a time, for the tests that time commands: a test's commands must not share
/// the two CPUs with another's (a saved baseline measured on a quiet machine and a run beside
/// a busy neighbour differ).
pub fn serial() -> std::sync::MutexGuard<'static, ()> {
    static SERIAL: std::sync::Mutex<()> = std::sync::Mutex::new(());
    SERIAL.lock().unwrap_or_else(|e| e.into_inner())
}

/// `picollo bench ARGS`.
pub fn bench(args: &[&str]) -> Run {
    let mut all = vec!["bench"];
    all.extend_from_slice(args);
    picollo(&all, None)
}

/// `picollo bench --json FILE ARGS`, FILE a temporary file named `name`: the run and FILE.
pub fn bench_json(name: &str, args: &[&str]) -> (Run, PathBuf) {
    let json = temp(name);
    let mut all = vec!["--json", json.to_str().unwrap()];
    all.extend_from_slice(args);
    (bench(&all), json)
}

/// The parsed JSON picollo wrote to `path`.
pub fn json_of(path: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).expect("the JSON parses")
}

/// Assert that `text` holds `needle`; the message is `text`.
#[track_caller]
pub fn assert_has(text: &str, needle: &str) {
    assert!(text.contains(needle), "{text}");
}

/// The words of `line`, split at white space: `ok(&words("report a.hlog --from 2"))`.
pub fn words(line: &str) -> Vec<&str> {
    line.split_whitespace().collect()
}

/// A path named `name` in a temporary folder of this test process.
pub fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("picollo-tests-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    dir.join(name)
}

/// The C program `source`, written to `<dir>/<name>.c` in [`temp`]'s folder `dir` and built
/// with `cc -O1` into `<dir>/<name>`: its path.
pub fn build_c(dir: &str, name: &str, source: &str) -> PathBuf {
    let dir = temp(dir);
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join(format!("{name}.c"));
    std::fs::write(&file, source).unwrap();
    let program = dir.join(name);
    let built = std::process::Command::new("cc")
        .args(["-O1", "-o"])
        .arg(&program)
        .arg(&file)
        .status()
        .expect("cc runs");
    assert!(built.success(), "cc built {}", file.display());
    program
}

/// [`temp`], with no file there yet (for a file the runs append to, or a save that must
/// start empty).
pub fn fresh_temp(name: &str) -> PathBuf {
    let path = temp(name);
    let _ = std::fs::remove_file(&path);
    path
}

/// Run and expect success; the standard output.
pub fn ok(args: &[&str]) -> String {
    let run = picollo(args, None);
    assert_eq!(
        run.code,
        Some(0),
        "picollo {args:?} failed:\n{}",
        run.stderr
    );
    assert!(run.stderr.is_empty(), "stderr: {}", run.stderr);
    run.stdout
}

/// `ok` of the words of `line`: `ok_line("report a.hlog --from 2")`.
pub fn ok_line(line: &str) -> String {
    ok(&words(line))
}

/// Run and expect exit status `code`, nothing on stdout and each of `needles` in stderr.
pub fn fails(args: &[&str], stdin: Option<&[u8]>, code: i32, needles: &[&str]) {
    let run = picollo(args, stdin);
    assert_eq!(run.code, Some(code), "picollo {args:?}: {}", run.stderr);
    assert!(run.stdout.is_empty(), "nothing on stdout: {}", run.stdout);
    for needle in needles {
        assert!(
            run.stderr.contains(needle),
            "picollo {args:?}: {needle:?} not in {:?}",
            run.stderr
        );
    }
}

/// Compare `actual` with `tests/golden/NAME`. With `PICOLLO_BLESS=1` the file is written
/// instead (to be reviewed by eye before it is committed).
pub fn golden(name: &str, actual: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(name);
    if std::env::var_os("PICOLLO_BLESS").is_some() {
        std::fs::write(&path, actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (PICOLLO_BLESS=1 writes it)", path.display()));
    if expected != actual {
        panic!(
            "{} differs from the output:\n--- expected\n{expected}\n--- actual\n{actual}",
            path.display()
        );
    }
}

/// The cells of a Markdown table row, trimmed.
pub fn cells(line: &str) -> Vec<&str> {
    let inner = line.trim().trim_start_matches('|').trim_end_matches('|');
    inner.split('|').map(str::trim).collect()
}

/// The row of a table whose first cell is `label`.
pub fn row<'a>(table: &'a str, label: &str) -> Vec<&'a str> {
    table
        .lines()
        .map(cells)
        .find(|c| c[0] == label)
        .unwrap_or_else(|| panic!("no row {label:?} in\n{table}"))
}
