//! `picollo layouts`: K builds of one C source and of one Cargo target that differ only in
//! layout (each build runs and answers alike, their bytes differ, the functions move), and
//! its errors: no linker, a link that fails, a command without its output file.

mod common;

use std::path::Path;
use std::process::Command;

use common::{fails, picollo, temp};

const SOURCE: &str = r#"
#include <stdio.h>
__attribute__((noinline)) unsigned long step(unsigned long x) { return x * 6364136223846793005UL + 1; }
__attribute__((noinline)) unsigned long mix(unsigned long x) { return (x ^ (x >> 29)) * 0xbf58476d1ce4e5b9UL; }
int main(void) {
  unsigned long x = 1;
  for (int i = 0; i < 1000; i++) x = (i & 1) ? step(x) : mix(x);
  printf("%lu\n", x);
  return 0;
}
"#;

/// Whether `program` runs; when it does not and CI is not set, the test says so and skips.
fn have(program: &str) -> bool {
    let found = Command::new(program).arg("--version").output().is_ok();
    if !found {
        assert!(
            std::env::var_os("CI").is_none(),
            "{program} is missing in CI: scripts/setup.sh installs it"
        );
        eprintln!("SKIP: {program} is not installed (Debian: apt install lld mold)");
    }
    found
}

/// `loop.o`, compiled with one section per function, in a fresh directory.
fn object(name: &str) -> std::path::PathBuf {
    let dir = temp(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("loop.c"), SOURCE).unwrap();
    let cc = Command::new("cc")
        .args(["-O2", "-ffunction-sections", "-c", "loop.c", "-o", "loop.o"])
        .current_dir(&dir)
        .status()
        .unwrap();
    assert!(cc.success());
    dir
}

/// Where `symbol` lies in `binary` (nm's address).
fn address(binary: &Path, symbol: &str) -> String {
    let nm = Command::new("nm").arg(binary).output().unwrap();
    let text = String::from_utf8(nm.stdout).unwrap();
    // mold marks them local (`t`), lld global (`T`).
    let line = text
        .lines()
        .find(|l| l.to_lowercase().ends_with(&format!(" t {symbol}")));
    line.unwrap().split(' ').next().unwrap().to_string()
}

/// Each build runs and prints the same as the first.
fn run_alike(builds: &[&str]) {
    let out = |b: &str| Command::new(b).output().unwrap().stdout;
    let first = out(builds[0]);
    assert!(!first.is_empty());
    for b in builds {
        assert_eq!(out(b), first, "{b}");
    }
}

#[test]
fn c_objects_relinked_in_shuffled_layouts() {
    for (linker, program) in [("lld", "ld.lld"), ("mold", "mold")] {
        if !have(program) {
            continue;
        }
        let dir = object(&format!("layouts-c-{linker}"));
        let out = dir.join("builds");
        let (o, d) = (out.to_str().unwrap(), dir.join("loop.o"));
        let link = ["cc", d.to_str().unwrap(), "-o", "spin"];
        let mut args = vec!["layouts", "-k", "6", "-o", o, "--linker", linker, "--"];
        args.extend(link);
        let run = picollo(&args, None);
        assert_eq!(run.code, Some(0), "{linker}: {}", run.stderr);
        let builds: Vec<&str> = run.stdout.lines().collect();
        let expected: Vec<String> = (1..=6).map(|i| format!("{o}/spin.{i}")).collect();
        assert_eq!(builds, expected, "{linker}");
        assert!(
            run.stderr.contains("6 builds, 6 different"),
            "{}",
            run.stderr
        );
        run_alike(&builds);
        // The functions themselves change places: step and mix do not lie at one pair of
        // addresses in every build.
        let places: std::collections::HashSet<(String, String)> = builds
            .iter()
            .map(|b| (address(Path::new(b), "step"), address(Path::new(b), "mix")))
            .collect();
        assert!(places.len() > 1, "{linker}: {places:?}");
    }
}

#[test]
fn a_cargo_target_built_in_shuffled_layouts() {
    if !have("ld.lld") {
        return;
    }
    let dir = temp("layouts-cargo");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("src")).unwrap();
    let manifest =
        "[package]\nname = \"spin\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[workspace]\n";
    std::fs::write(dir.join("Cargo.toml"), manifest).unwrap();
    let main = "#[inline(never)] fn step(x: u64) -> u64 { x.wrapping_mul(3) ^ 7 }\n\
                fn main() { let mut x = 1u64; for _ in 0..1000 { x = step(x); } println!(\"{x}\"); }\n";
    std::fs::write(dir.join("src/main.rs"), main).unwrap();
    let (manifest, out) = (dir.join("Cargo.toml"), dir.join("builds"));
    let run = picollo(
        &[
            "layouts",
            "-k",
            "3",
            "-o",
            out.to_str().unwrap(),
            "--cargo",
            "--",
            "--release",
            "--bin",
            "spin",
            "--manifest-path",
            manifest.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let builds: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(builds.len(), 3);
    assert!(builds[2].ends_with("builds/spin.3"), "{builds:?}");
    assert!(
        run.stderr.contains("3 builds, 3 different"),
        "{}",
        run.stderr
    );
    run_alike(&builds);
}

#[test]
fn a_missing_linker_a_failed_link_and_a_bad_command_are_told() {
    let empty = temp("layouts-no-path");
    std::fs::create_dir_all(&empty).unwrap();
    let bin = env!("CARGO_BIN_EXE_picollo");
    let run = Command::new(bin)
        .args(["layouts", "-o", "x", "--", "cc", "a.o"])
        .env("PATH", &empty)
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(stderr.contains("ld.lld is not on PATH"), "{stderr}");
    if !have("ld.lld") {
        return;
    }
    let out = temp("layouts-bad");
    let o = out.to_str().unwrap();
    fails(
        &["layouts", "-o", o, "--", "cc", "/nonexistent/x.o"],
        None,
        6,
        &["layouts: cc failed"],
    );
    fails(
        &["layouts", "-o", o, "--", "cc", "x.o", "-o"],
        None,
        2,
        &["ends with -o"],
    );
    fails(&["layouts", "-o", o], None, 2, &["COMMAND"]);
}
