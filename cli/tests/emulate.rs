//! `picollo emulate` and `picollo bench --emulate`: programs run under QEMU's user mode with
//! the plugin this picollo carries, counted exactly (a loop of known work, the same count
//! on every run, one instruction more found on every comparison), the gate on exact
//! instructions, and what is said when QEMU or the plugin cannot run a program. Without
//! `qemu-x86_64` (Debian's qemu-user) each test says so and passes: scripts/setup.sh
//! installs it, so the test command runs them all.

mod common;

use std::path::PathBuf;
use std::process::Command;

use common::{assert_has, bench, bench_json, json_of, picollo, serial, temp};

/// Why the emulated tests cannot run here, if they cannot.
fn missing_qemu() -> Option<String> {
    let found = Command::new("qemu-x86_64").arg("--version").output();
    match found {
        Ok(o) if o.status.success() => None,
        _ => Some("qemu-x86_64 (Debian's qemu-user) is not on PATH".into()),
    }
}

macro_rules! need_qemu {
    () => {
        if let Some(why) = missing_qemu() {
            println!("SKIPPED: {why}");
            return;
        }
    };
}

/// A guest of known work, built once: `work N X [STATUS]` runs N steps of a loop, then one
/// `nop` more when X is 1 (its branch falls through) than when X is 0 (its branch jumps),
/// and exits with STATUS (0 without).
fn guest() -> PathBuf {
    static BUILT: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    BUILT.get_or_init(build_guest).clone()
}

fn build_guest() -> PathBuf {
    common::build_c(
        "emulate-guest",
        "work",
        "#include <stdlib.h>\n\
         int main(int argc, char **argv) {\n\
           long n = atol(argv[1]);\n\
           volatile long s = 0;\n\
           for (long i = 0; i < n; i++) s += i;\n\
           if (argc > 2 && atol(argv[2])) __asm__ volatile(\"nop\");\n\
           return argc > 3 ? atoi(argv[3]) : 0;\n\
         }\n",
    )
}

/// `picollo emulate [OPTIONS] -- WORDS`: the run and the instructions it printed.
fn emulate(options: &[&str], words: &[&str]) -> (common::Run, Option<u64>) {
    let mut args = vec!["emulate"];
    args.extend_from_slice(options);
    args.push("--");
    args.extend_from_slice(words);
    let run = picollo(&args, None);
    let count = run
        .stderr
        .lines()
        .find_map(|l| l.strip_prefix("picollo emulate: "))
        .and_then(|l| l.split(' ').next())
        .map(|n| n.replace(',', "").parse().unwrap());
    (run, count)
}

#[test]
fn a_loop_counts_the_same_on_every_run_and_exactly_its_steps_more() {
    need_qemu!();
    let g = guest();
    let g = g.to_str().unwrap();
    let count = |n: &str| {
        let (run, c) = emulate(&[], &[g, n, "0", "5"]);
        assert_eq!(run.code, Some(5), "the program's status: {}", run.stderr);
        c.expect("a count")
    };
    let base = count("1000");
    for _ in 0..3 {
        assert_eq!(count("1000"), base, "the same work, the same count");
    }
    let (c2, c3) = (count("2000"), count("3000"));
    let step = c2 - base;
    assert_eq!(c3 - c2, step, "each 1,000 steps add the same");
    assert!(
        step % 1000 == 0 && (2000..=10_000).contains(&step),
        "{step}"
    );
    println!("emulated: 1,000 loop steps are {step} instructions; the whole run {base}");
}

#[test]
fn memory_and_the_l1d_model_are_counted_when_asked_and_written_as_json() {
    need_qemu!();
    let g = guest();
    let json = temp("emulate-counts.json");
    let path = json.to_str().unwrap();
    let (run, _) = emulate(
        &["--l1d", "--json", path],
        &[g.to_str().unwrap(), "500", "0"],
    );
    run.assert_exit(0, " loads, ");
    assert_has(
        &run.stderr,
        " L1D misses (guest user space, every thread, exact)",
    );
    let v = json_of(&json);
    for key in ["Instructions", "Loads", "Stores", "L1DMisses"] {
        assert!(v[format!("Emulated:{key}")].as_u64().unwrap() > 0, "{v}");
    }
    assert_eq!(v["l1d"]["bytes"], 32768);
    // 400 more steps (an argument of as many digits: the same startup): one load and one
    // store each more, exactly (the volatile sum).
    let (more, _) = emulate(
        &["--memory", "--json", path],
        &[g.to_str().unwrap(), "900", "0"],
    );
    assert_eq!(more.code, Some(0));
    let w = json_of(&json);
    let count = |x: &serde_json::Value, k: &str| x[format!("Emulated:{k}")].as_u64().unwrap();
    assert_eq!(count(&w, "Loads") - count(&v, "Loads"), 400, "{v} then {w}");
    assert_eq!(
        count(&w, "Stores") - count(&v, "Stores"),
        400,
        "{v} then {w}"
    );
    assert!(w.get("Emulated:L1DMisses").is_none(), "{w}");
}

#[test]
fn identical_commands_emulated_differ_by_0_and_one_nop_by_1_every_run() {
    need_qemu!();
    let _serial = serial();
    let g = guest();
    let a = format!("{} 20000 0", g.display());
    let b = format!("{} 20000 1", g.display());
    // Twenty interleaved rounds of A, A again and B: each run's count against A's in its
    // round, and the comparisons' exact verdicts.
    let (run, json) = bench_json("emulated.json", &["--emulate", "-r", "20", &a, &a, &b]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let v = json_of(&json);
    let exact = |c: usize| v["comparisons"][c]["exact"][0].clone();
    assert_eq!(exact(0)["metric"], "Emulated:Instructions", "{v}");
    assert_eq!(
        (exact(0)["difference"].clone(), exact(0)["verdict"].clone()),
        (0.into(), "no difference".into())
    );
    assert_eq!(
        (exact(1)["difference"].clone(), exact(1)["verdict"].clone()),
        (1.into(), "more".into())
    );
    assert_has(&run.stdout, "(B − A = 0, [0, 0])");
    assert_has(&run.stdout, "(B − A = +1, [+1, +1])");
    // Per round: the instructions (metric 3, after time, user and system) of each command.
    let per_run = |c: usize| -> Vec<u64> {
        let rounds = v["commands"][c]["result"]["rounds"].as_array().unwrap();
        rounds
            .iter()
            .map(|r| r["values"][3][0].as_u64().unwrap() / 1000)
            .collect()
    };
    let (ra, raa, rb) = (per_run(0), per_run(1), per_run(2));
    let same = ra.iter().zip(&raa).filter(|(x, y)| x == y).count();
    let one = ra.iter().zip(&rb).filter(|(x, y)| **y == **x + 1).count();
    println!("emulated, 20 rounds: A/A the same count in {same}/20, one nop more +1 in {one}/20");
    assert_eq!((ra.len(), same, one), (20, 20, 20), "{ra:?} {raa:?} {rb:?}");
}

#[test]
fn an_emulated_gate_judges_instructions_from_one_saved_run() {
    need_qemu!();
    let _serial = serial();
    let g = guest();
    let base = temp("emulated-base.json");
    let path = base.to_str().unwrap();
    let a = format!("{} 20000 0", g.display());
    let saved = bench(&["--emulate", "-r", "2", "--save", path, &a]);
    assert_eq!(saved.code, Some(0), "{}", saved.stderr);
    let same = bench(&["--emulate", "-r", "2", "--baseline", path, &a]);
    assert_eq!(same.code, Some(0), "{}", same.stderr);
    assert!(!same.stderr.contains("not judged"), "{}", same.stderr);
    let more = format!("{} 20001 1", g.display());
    let strict = bench(&[
        "--emulate",
        "-r",
        "2",
        "--threshold",
        "0",
        "--baseline",
        path,
        &more,
    ]);
    assert_eq!(strict.code, Some(7), "{}", strict.stdout);
    assert_has(
        &strict.stderr,
        "command 1 counts more Emulated:Instructions than its baseline: verdict: ",
    );
    // Under the default 1 % threshold a few instructions more pass.
    let loose = bench(&["--emulate", "-r", "2", "--baseline", path, &more]);
    assert_eq!(loose.code, Some(0), "{}", loose.stderr);
}

#[test]
fn an_interleaved_gate_fails_on_more_instructions_than_the_first_command_only() {
    need_qemu!();
    let _serial = serial();
    let g = guest();
    let a = format!("{} 20000 0", g.display());
    let more = format!("{} 20001 1", g.display());
    let gate = |b: &str, extra: &[&str]| {
        let mut args = vec!["--emulate", "-r", "3", "--threshold", "0"];
        args.extend_from_slice(extra);
        args.extend([a.as_str(), b]);
        bench_json("emulated-gate.json", &args)
    };
    // A/A: B − A = 0 exactly, so the gate passes.
    let (same, _) = gate(&a, &["--gate"]);
    assert_eq!(same.code, Some(0), "{}", same.stderr);
    // One nop more: exit 7, naming both commands, and the document says which fails it.
    let (slower, json) = gate(&more, &["--gate"]);
    assert_eq!(slower.code, Some(7), "{}", slower.stdout);
    assert_has(
        &slower.stderr,
        "command 2 counts more Emulated:Instructions than command 1: verdict: ",
    );
    let doc = json_of(&json);
    assert_eq!(doc["comparisons"][0]["failsGate"], true, "{doc}");
    // Without --gate the same comparison is reported, and the run passes.
    let (reported, json) = gate(&more, &[]);
    assert_eq!(reported.code, Some(0), "{}", reported.stderr);
    assert_eq!(json_of(&json)["comparisons"][0]["verdict"], "slower");
    assert_eq!(json_of(&json)["comparisons"][0]["failsGate"], false);
}

#[test]
fn an_emulated_gate_on_named_instructions_is_the_default_gate() {
    need_qemu!();
    let _serial = serial();
    let g = guest();
    let base = temp("emulated-named-base.json");
    let path = base.to_str().unwrap();
    let a = format!("{} 20000 0", g.display());
    let saved = bench(&["--emulate", "-r", "2", "--save", path, &a]);
    assert_eq!(saved.code, Some(0), "{}", saved.stderr);
    // The same verdict, exit status and message with the metric named or not (in full, or
    // by its short form: under the emulator only Emulated:Instructions answers to it).
    let gate = |command: &str, metric: Option<&str>| {
        let mut args = vec!["--emulate", "-r", "2", "--threshold", "0"];
        args.extend(metric.map_or(vec![], |m| vec!["--metric", m]));
        args.extend(["--baseline", path, command]);
        let (run, json) = bench_json("emulated-named.json", &args);
        let line = run.stdout.lines().rev().find(|l| l.starts_with("verdict:"));
        let line = line.unwrap_or_default().to_string();
        (run.code, line, run.stderr, json_of(&json))
    };
    let more = format!("{} 20000 1", g.display());
    for command in [&a, &more] {
        let (code, line, stderr, json) = gate(command, None);
        for named in ["Emulated:Instructions", "instructions"] {
            let (c, l, e, _) = gate(command, Some(named));
            assert_eq!((c, &l, &e), (code, &line, &stderr), "--metric {named}");
        }
        let c = &json["comparisons"][0];
        assert_eq!(c["metric"], "Emulated:Instructions", "{c}");
        let difference = c["withinJitter"]["difference"].as_f64();
        match command == &a {
            true => {
                assert_eq!((code, difference), (Some(0), Some(0.0)), "{line}");
                assert!(
                    line.starts_with("verdict: no difference between "),
                    "{line}"
                );
            }
            false => {
                assert_eq!((code, difference), (Some(7), Some(1.0)), "{line}");
                assert_has(&line, " counts more Emulated:Instructions than ");
                assert_has(
                    &line,
                    "(exact within read jitter: B − A = +1 [+1, +1] per run)",
                );
                assert_has(
                    &stderr,
                    "counts more Emulated:Instructions than its baseline",
                );
            }
        }
    }
}

#[test]
fn what_cannot_run_under_the_emulator_says_why_with_status_8() {
    need_qemu!();
    let g = guest();
    let g = g.to_str().unwrap();
    let cases: [(&[&str], &[&str], &str); 5] = [
        (
            &["--plugin", "/nowhere/plugin.so"],
            &[g, "1"],
            "/nowhere/plugin.so does not exist",
        ),
        (
            &["--qemu", "/usr/bin/qemu-x86_64-static"],
            &[g, "1"],
            "a static QEMU cannot load plugins",
        ),
        (&[], &["/etc/hostname"], "not an ELF program"),
        (
            &[],
            &["no-such-program-here"],
            "no-such-program-here: not found on PATH",
        ),
        (
            &["--l1d", "1000:3:64"],
            &[g, "1"],
            "the plugin wrote no counts",
        ),
    ];
    for (options, words, text) in cases {
        let (run, _) = emulate(options, words);
        assert_eq!(run.code, Some(8), "{options:?} {words:?}: {}", run.stderr);
        assert_has(&run.stderr, text);
    }
    let nowhere = temp("emulate-empty-path");
    std::fs::create_dir_all(&nowhere).unwrap();
    let run = Command::new(env!("CARGO_BIN_EXE_picollo"))
        .args(["bench", "--emulate", "-r", "1", g])
        .env("PATH", &nowhere)
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(8));
    assert_has(
        &String::from_utf8_lossy(&run.stderr),
        "qemu-x86_64 not found on PATH",
    );
}

#[test]
fn bench_runs_the_emulator_and_plugin_it_is_given_and_only_under_emulate() {
    let alone = bench(&["--qemu", "/nowhere/qemu-x86_64", "true"]);
    alone.assert_exit(2, "--qemu and --plugin go with --emulate");
    need_qemu!();
    let g = guest();
    let g = g.to_str().unwrap();
    let plugin = bench(&["--emulate", "--plugin", "/nowhere/plugin.so", "-r", "1", g]);
    plugin.assert_exit(8, "/nowhere/plugin.so does not exist");
    // With no QEMU on PATH, the one --qemu names runs the command.
    let path = std::env::var_os("PATH").unwrap_or_default();
    let qemu = std::env::split_paths(&path)
        .map(|dir| dir.join("qemu-x86_64"))
        .find(|q| q.is_file())
        .expect("qemu-x86_64 ran, so it is on PATH");
    let nowhere = temp("bench-qemu-empty-path");
    std::fs::create_dir_all(&nowhere).unwrap();
    let run = Command::new(env!("CARGO_BIN_EXE_picollo"))
        .args(["bench", "--emulate", "-r", "1", "--qemu"])
        .arg(&qemu)
        .arg(format!("{g} 100 0"))
        .env("PATH", &nowhere)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(0), "{stderr}");
    assert_has(
        &String::from_utf8_lossy(&run.stdout),
        "Emulated:Instructions",
    );
}

#[test]
fn emulate_takes_its_value_after_an_equals_sign_only_so_the_next_word_is_a_command() {
    // Three names for the two commands `--emulate ./app-main ./app-head` gives are refused
    // before anything runs: both words were read as commands.
    let two = [
        "--emulate",
        "./app-main",
        "./app-head",
        "-n",
        "a",
        "-n",
        "b",
        "-n",
        "c",
    ];
    bench(&two).assert_exit(2, "3 names (--name) for 2 commands");
    let one = ["--emulate=memory", "./app", "-n", "a", "-n", "b"];
    bench(&one).assert_exit(2, "2 names (--name) for 1 commands");
    bench(&["--emulate", "memory", "./app"]).assert_exit(
        2,
        "--emulate memory: there is no program \"memory\" to run; --emulate takes its value \
         after `=` (--emulate=memory)",
    );
    bench(&["--emulate=bogus", "./app"])
        .assert_exit(2, "invalid value 'bogus' for '--emulate[=<WHAT>]'");
    bench(&["--emulate=", "./app"]).assert_exit(2, "a value is required for '--emulate");
    // `picollo emulate --l1d` takes a geometry after a blank: its program follows `--`, so
    // no command can be taken for one (the plugin given is refused after the parse).
    let nowhere = ["--plugin", "/nowhere/plugin.so", "--", "./app"];
    for l1d in [
        &["--l1d"][..],
        &["--l1d", "65536:8:64"],
        &["--l1d=65536:8:64"],
    ] {
        let args = [&["emulate"][..], l1d, &nowhere].concat();
        picollo(&args, None).assert_exit(8, "/nowhere/plugin.so does not exist");
    }
    let run = picollo(&["emulate", "--l1d", "./app"], None);
    run.assert_exit(2, "<PROGRAM>");
}

#[test]
fn emulate_counts_what_its_value_names_and_without_one_the_next_word_runs() {
    need_qemu!();
    let _serial = serial();
    let g = guest();
    let command = format!("{} 100 0", g.display());
    let plain = bench(&["--emulate", &command, "-r", "1"]);
    assert_eq!(plain.code, Some(0), "{}", plain.stderr);
    assert_has(&plain.stdout, "Emulated:Instructions");
    assert!(!plain.stdout.contains("Emulated:Loads"), "{}", plain.stdout);
    let memory = bench(&["--emulate=memory", &command, "-r", "1"]);
    assert_eq!(memory.code, Some(0), "{}", memory.stderr);
    assert_has(&memory.stdout, "Emulated:Loads");
}

/// Copies of the guest in folders whose paths differ in length, and one path through `..`
/// (as `../base/../base/app` is): four paths to one binary.
fn copies_of_the_guest() -> Vec<String> {
    let root = temp("emulate-paths");
    let folders = [
        "a",
        "bb/cccccccccccc",
        "ddddddddddddddddddddddddddddddddddddddd/e/f",
    ];
    let mut paths: Vec<String> = folders
        .iter()
        .map(|f| {
            let dir = root.join(f);
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::copy(guest(), dir.join("work")).unwrap();
            dir.join("work").to_str().unwrap().to_string()
        })
        .collect();
    paths.push(format!("{}/../a/work", root.join("a").display()));
    paths
}

#[test]
fn one_binary_counts_the_same_from_paths_of_any_length_and_one_nop_more_is_caught() {
    need_qemu!();
    let _serial = serial();
    let paths = copies_of_the_guest();
    let command = |p: &str, x: &str| format!("{p} 20000 {x}");
    // In one run: every copy against the first.
    let all: Vec<String> = paths.iter().map(|p| command(p, "0")).collect();
    let mut args = vec!["--emulate", "-r", "3"];
    args.extend(all.iter().map(String::as_str));
    let (run, json) = bench_json("emulated-paths.json", &args);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let v = json_of(&json);
    for c in 0..paths.len() - 1 {
        let exact = &v["comparisons"][c]["exact"][0];
        let (a, b) = (&all[0], &all[c + 1]);
        assert_eq!(exact["difference"], 0, "{b} against {a}: {exact}");
        assert_eq!(
            exact["verdict"], "no difference",
            "{b} against {a}: {exact}"
        );
    }
    // Saved from each of three paths, gated from the fourth at --threshold 0: the same
    // binary passes with B − A = 0, and one `nop` more fails with +1.
    let gate = paths.last().unwrap();
    for (i, saved_from) in paths[..3].iter().enumerate() {
        let base = temp(&format!("emulated-paths-base-{i}.json"));
        let base = base.to_str().unwrap();
        let saved = bench(&[
            "--emulate",
            "-r",
            "1",
            "--save",
            base,
            &command(saved_from, "0"),
        ]);
        assert_eq!(saved.code, Some(0), "{}", saved.stderr);
        let gated = |x: &str| {
            let c = command(gate, x);
            bench(&[
                "--emulate",
                "-r",
                "1",
                "--threshold",
                "0",
                "--baseline",
                base,
                &c,
            ])
        };
        let same = gated("0");
        assert_eq!(
            same.code,
            Some(0),
            "saved from {saved_from}: {}",
            same.stdout
        );
        assert_has(&same.stdout, "(B − A = 0, [0, 0])");
        assert!(
            !same.stderr.contains("started otherwise"),
            "{}",
            same.stderr
        );
        let more = gated("1");
        more.assert_exit(7, "(exact within read jitter: B − A = +1 [+1, +1] per run)");
    }
}

#[test]
fn a_gate_whose_programs_start_otherwise_than_its_baseline_says_so() {
    // A saved record of the start without its counts is a format error, before any run.
    let broken = temp("emulated-start-broken.json");
    let text = r#"{"schema":"picollo-bench","version":1,"emulated":{"path":3},"commands":[]}"#;
    std::fs::write(&broken, text).unwrap();
    let path = broken.to_str().unwrap();
    let run = bench(&["--emulate", "-r", "1", "--baseline", path, "./app"]);
    run.assert_exit(4, "missing field `variables`");
    need_qemu!();
    let _serial = serial();
    let g = guest();
    let a = format!("{} 20000 0", g.display());
    let base = temp("emulated-start.json");
    let base = base.to_str().unwrap();
    let saved = bench(&["--emulate", "-r", "1", "--save", base, &a]);
    assert_eq!(saved.code, Some(0), "{}", saved.stderr);
    let gate = |extra: Option<&str>, baseline: &str| {
        let mut command = Command::new(env!("CARGO_BIN_EXE_picollo"));
        command.args(["bench", "--emulate", "-r", "1", "--baseline", baseline, &a]);
        if let Some(value) = extra {
            command.env("PICOLLO_TEST_EXTRA", value);
        }
        let out = command.current_dir(common::data_dir()).output().unwrap();
        let text = |b: Vec<u8>| String::from_utf8(b).unwrap();
        (out.status.code(), text(out.stdout), text(out.stderr))
    };
    let (code, _, stderr) = gate(None, base);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(!stderr.contains("started otherwise"), "{stderr}");
    // One variable more: the start-up counts apart, and the gate says why.
    let (_, stdout, stderr) = gate(Some("x"), base);
    let note = "was saved where the programs started otherwise: the environment held";
    assert_has(&stderr, note);
    assert_has(&stdout, &format!("- warning: {base} {note}"));
    // Saved by a picollo that did not record the start (each program from its own path).
    let mut v = json_of(std::path::Path::new(base));
    v.as_object_mut().unwrap().remove("emulated");
    let old = temp("emulated-start-old.json");
    std::fs::write(&old, v.to_string()).unwrap();
    let (code, _, stderr) = gate(None, old.to_str().unwrap());
    assert_eq!(code, Some(0), "{stderr}");
    assert_has(&stderr, "was saved by an earlier picollo");
}
