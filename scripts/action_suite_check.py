#!/usr/bin/env python3
"""The GitHub Action's mode: suite and its pull-request comment, run here without GitHub.

1. scripts/action_comment_check.py's checks: the helpers on canned input, and the
   comment's find-or-update against a fake REST API.
2. The trap the action's separate target folders rule out: two revisions built into one
   CARGO_TARGET_DIR give one program (cargo calls the second build fresh), and the action's
   compare step refuses it, failing.
3. The action (scripts/action_local.py) on a sample cargo crate whose bench target uses the
   checkout's picollo-bench: identical code builds byte-identical programs, which pass without
   a comparison; a head that adds a benchmark runs the A/A comparison of the two shared ones
   and passes; a head whose `spin` does 20 % more loop steps fails, exit 7, naming it; each
   writes the comment's body and posts, then updates, one comment on the fake API.
4. The same with suite: command on a C suite and, under mono, a C# assembly (whose A/A head
   differs from the base in a string's data alone, so that two builds of other bytes and the
   same code are compared, and whose slower head does twice the steps: on one CI VM, whose
   CPU the log did not name, a head that added a class came out faster by 24.4 % [18.5 %,
   30.0 %] and a head of 20 % more steps faster by 9.5 %, the JIT's code of each build placed
   alike in all of its processes); and
   on a pytest checkout using the plugin (--picollo-against), whose slower head does twice
   the loop steps: a Python call of 45 µs spread by ±30 % between processes on this shared
   2-core VM, where 10 % more was found in none of 5 runs and twice as much in 3 of 3.
5. mode: commands takes picollo from actions/cache on its second run (the first builds and
   saves it), and the action's own time beyond the builds and the comparison is printed.

The verdicts are on time, on this machine: the suites run with `--processes 6 --budget 10`
(a comparison's whole, which stops at the first look that settles it) and a 3 % threshold.
The slower heads do 20 % more steps: this check runs beside the other stages, and under
their load a 10 % head came out `not settled` (+10.37 % [-0.68 %, 22.6 %] in 6.8 s), the
interval wider than the change; what a comparison finds at the defaults is the suites
bench's figure (docs/suites.md). The A/A jobs run with a 10 % threshold: under the other
stages' load (a load average of 9 on the 2-core AMD EPYC VM) one pytest A/A read `faster by
5.5 % [3.5 %, 7.5 %]`, every process of one side about 5 % apart from every one of the
other (a spread of 0.5 % inside each side), and 3 % would fail the job on such a draw. Each
job whose verdict is not the one wanted runs once more, the first verdict printed: two
wrong tries are needed to fail a check.

    python3 scripts/action_suite_check.py [--out DIR]     (exits 1 on a failed check)
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE / "action"))
from action_comment_check import FakeApi, check, check_comment_api, check_helpers, failures  # noqa: E402
from action_local import run_action  # noqa: E402

ROOT = HERE.parent
ARGS = "--budget 10 --warmup 0.1 --counters none --processes 6"


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True,
                          text=True).stdout.strip()


def commit_revisions(where: Path, revisions: dict[str, tuple[str, str]]) -> dict[str, str]:
    """A git repository in `where` (its files so far the first commit's) of one commit per
    revision, each writing one file (path, text); the commit of each."""
    git(where, "init", "-q")
    git(where, "config", "user.email", "ci@example.org")
    git(where, "config", "user.name", "ci")
    commits = {}
    for name, (path, text) in revisions.items():
        (where / path).write_text(text)
        git(where, "add", "-A")
        git(where, "commit", "-qm", name)
        commits[name] = git(where, "rev-parse", "HEAD")
    return commits


def cargo_sample(where: Path) -> dict[str, str]:
    """A git repository of a cargo crate whose bench target `sums` uses the checkout's
    picollo-bench: base; the same code (a README more); a third benchmark added; `spin` doing
    20 % more loop steps. Each step of `spin` waits on the one before (a multiply and an
    add): a loop of `black_box(i)` alone ran at the speed of its code's placement, and the
    build with a benchmark added read it 98.8 % slower in two tries of one CI run. The
    revisions differ in a table's data alone (a flag, a number of steps), read through
    `black_box`, so that the programs hold the same instructions at the same places: a head
    that added a closure of its own moved the code, and its `spin` read 10.5 % and 11.5 %
    slower in the two tries of a later run (a 2-core AMD EPYC Zen 3 VM); what a build's
    placement does to a benchmark is the layouts stage's matter (`picollo layouts`).
    The commit of each."""
    (where / "benches").mkdir(parents=True)
    (where / "src").mkdir()
    (where / "src/lib.rs").write_text("")
    (where / ".gitignore").write_text("/target\n")
    (where / "Cargo.toml").write_text(f"""[package]
name = "sample"
version = "0.1.0"
edition = "2021"

[dev-dependencies]
picollo-bench = {{ path = "{ROOT / 'bench'}", default-features = false }}

[[bench]]
name = "sums"
harness = false

# A project of its own, wherever the scratch folder lies (target/ of this workspace).
[workspace]
""")
    suite = """use picollo_bench::{{black_box, suite::Suite}};

/// The spinning benchmarks: name, loop steps, and whether the suite has it.
static SPINS: [(&str, u64, bool); 2] = [("spin", {steps}, true), ("spin 100", 100, {added})];

/// `steps` multiply-and-add steps, each waiting on the one before.
fn spin(steps: u64) -> u64 {{
    let mut x = black_box(1u64);
    for i in 0..steps {{
        x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(i);
    }}
    x
}}

fn sums(s: &mut Suite) {{
    let values: Vec<u64> = (0..20_000).collect();
    s.bench("sum", move || {{
        black_box(black_box(&values)[..10_000].iter().sum::<u64>());
    }});
    for &(name, steps, on) in black_box(&SPINS) {{
        if on {{
            s.bench(name, move || {{
                black_box(spin(black_box(steps)));
            }});
        }}
    }}
}}

picollo_bench::main!(sums);
"""
    return commit_revisions(where, {
        "base": ("benches/sums.rs", suite.format(steps="2_000", added="false")),
        "same": ("README", "a sample\n"),
        "added": ("benches/sums.rs", suite.format(steps="2_000", added="true")),
        "slower": ("benches/sums.rs", suite.format(steps="2_400", added="true"))})


def pytest_sample(where: Path) -> dict[str, str]:
    """A git repository of pytest benchmarks through the plugin: base; the same code (a
    README more); `spin` doing twice the loop steps."""
    where.mkdir(parents=True)
    work = "def spin(n):\n    total = 0\n    for i in range(n):\n        total += i\n    return total\n"
    tests = ("from work import spin\n\n\ndef test_spin(benchmark):\n"
             "    assert benchmark(spin, {n}) == sum(range({n}))\n\n\n"
             "def test_sorted(benchmark):\n    assert benchmark(sorted, [3, 1, 2]) == [1, 2, 3]\n")
    (where / "work.py").write_text(work)
    return commit_revisions(where, {"base": ("test_bench.py", tests.format(n=2_000)),
                                    "same": ("README", "a sample\n"),
                                    "slower": ("test_bench.py", tests.format(n=4_000))})


def seed(scratch: Path) -> Path:
    """A target folder holding picollo-bench's dependencies built as the sample's are: a
    restored cache, copied into each side's own target folder so that a job builds the
    sample crate alone."""
    crate = scratch / "seed"
    cargo_sample(crate)
    target = scratch / "seed-target"
    subprocess.run(["cargo", "bench", "--no-run", "--bench", "sums", "-q"], cwd=crate,
                   env=dict(os.environ, CARGO_TARGET_DIR=str(target)), check=True)
    for p in (target / "release/deps").glob("sums-*"):
        p.unlink()
    return target


def job(repo: Path, head: str, base: str, scratch: Path, targets: Path | None = None,
        **inputs: str):
    """The action on `repo` checked out at `head` against `base` (each side's target folder
    a copy of `targets`): job, outputs, summary text, temp folder."""
    git(repo, "checkout", "-q", "--detach", head)
    temp = Path(tempfile.mkdtemp(dir=scratch))
    if targets:
        (temp / "picollo-targets").mkdir()
        for side in ("base", "head"):
            subprocess.run(["cp", "-a", str(targets), str(temp / "picollo-targets" / side)],
                           check=True)
    given = {"mode": "suite", "base-ref": base, "threshold": "3", "args": ARGS, **inputs}
    ran, outputs, summary = run_action(ROOT, given, repo, temp / "artifacts", temp)
    print("\n".join(ran.log)[-2500:])
    shutil.rmtree(temp / "picollo-targets", ignore_errors=True)  # 100 MB a side
    return ran, outputs, summary.read_text(encoding="utf-8"), temp


def judged(kind: str, wanted, *args, **inputs):
    """`job(*args, **inputs)`, run once more where its verdict is not the `wanted` one
    (`wanted(outputs)` false), the first verdict printed: a verdict on time is right with
    99 % confidence, so a check of two tries fails correct code about once in 10,000. An
    A/A job (`kind` "A/A") runs with a 10 % threshold: it checks that the job passes when
    nothing is slower, and a false verdict beyond 10 % needs both tries wrong; what the
    verdicts' error rates are is the suites bench's figure and bench/tests' (simulated)."""
    if kind == "A/A":
        inputs = {**inputs, "threshold": "10"}
    first = job(*args, **inputs)
    if wanted(first[1]):
        return first
    print(f"action suite: {kind}: the first try's verdict was {first[1]['verdict']!r} "
          f"(exit {first[1]['exit-status']}, slower {first[1]['slower']!r}); once more")
    return job(*args, **inputs)


def not_slower(outputs) -> bool:
    return outputs["exit-status"] == "0" and outputs["slower"] == ""


def overhead(ran) -> float:
    """The job's seconds beyond building both sides and comparing them."""
    return sum(t for name, t in ran.times if "build the base" not in name and "compare" not in name)


def check_trap(repo: Path, c: dict[str, str], targets: Path, scratch: Path) -> None:
    """Two revisions built into one target folder: one program, refused by compare."""
    shared = scratch / "shared-target"
    subprocess.run(["cp", "-a", str(targets), str(shared)], check=True)
    base_tree, head_tree = scratch / "trap-base", scratch / "trap-head"
    git(repo, "worktree", "add", "-q", "--detach", str(head_tree), c["slower"])
    git(repo, "worktree", "add", "-q", "--detach", str(base_tree), c["base"])
    built = []
    for tree in (base_tree, head_tree):
        done = subprocess.run(["cargo", "bench", "--no-run", "--bench", "sums",
                               "--message-format=json"], cwd=tree, capture_output=True, text=True,
                              env=dict(os.environ, CARGO_TARGET_DIR=str(shared)), check=True)
        sums = [json.loads(m) for m in done.stdout.splitlines() if '"name":"sums"' in m]
        built.append((sums[-1]["executable"], sums[-1]["fresh"]))
    (base_exe, _), (head_exe, head_fresh) = built
    check(base_exe == head_exe, f"one CARGO_TARGET_DIR: both revisions' program is {head_exe}"
          f" (the head's build fresh: {head_fresh})")
    temp = Path(tempfile.mkdtemp(dir=scratch))
    (temp / "picollo").mkdir()
    out = temp / "output"
    env = dict(os.environ, RUNNER_TEMP=str(temp), GITHUB_OUTPUT=str(out), GITHUB_WORKSPACE=str(head_tree),
               PICOLLO_WORKDIR=".", PICOLLO_SUITE="cargo", PICOLLO_BASE_PROGRAM=base_exe,
               PICOLLO_HEAD_PROGRAM=head_exe, PICOLLO_THRESHOLD="3", PICOLLO_EXPORTS="",
               PICOLLO_METRIC="", PICOLLO_ARGS=ARGS, PICOLLO_TESTS="", PICOLLO_LAUNCHER="",
               PICOLLO_PYTHON="")
    done = subprocess.run(["bash", str(HERE / "action/suite.sh"), "compare"], env=env,
                          capture_output=True, text=True)
    check(done.returncode != 0 and "are one file" in done.stdout
          and "judged against itself" in (temp / "picollo/summary.md").read_text(),
          f"the compare step refuses them: {done.stdout.strip()[-200:]}")
    for tree in (base_tree, head_tree):
        git(repo, "worktree", "remove", "--force", str(tree))


def check_cargo(api: FakeApi, scratch: Path) -> list[float]:
    repo = scratch / "cargo-sample"
    c = cargo_sample(repo)
    targets = seed(scratch)
    check_trap(repo, c, targets, scratch)
    cargo = {"suite": "cargo", "bench": "sums"}
    spent = []

    ran, outputs, summary, temp = job(repo, c["same"], c["base"], scratch, targets, **cargo)
    check(not ran.failed and outputs["exit-status"] == "0" and outputs["verdict"] == "identical",
          f"identical code: byte-identical programs, the job passes uncompared ({outputs['verdict']})")
    check("byte-identical" in summary and "::warning title=Picollo: identical builds" in "\n".join(ran.log),
          "identical code: said in the summary and a warning")
    body = Path(outputs["comment"]).read_text() if outputs["comment"] else ""
    check(outputs["comment"] == str(temp / "picollo/comment.md")
          and body.startswith("<!-- picollo-suite: benchmark -->\n### Picollo: nothing compared"),
          "identical code: the comment's body is written where the output says")
    check(any("not posted: no github-token" in line for line in ran.log),
          "no token: the comment is not posted, and the log says why")
    spent.append(overhead(ran))

    os.environ.update(api.env(scratch))
    api.comments.clear()
    api.calls.clear()
    try:
        ran, outputs, summary, temp = judged("A/A", not_slower, repo, c["added"], c["base"], scratch,
                                             targets, **cargo)
        check(not ran.failed and outputs["exit-status"] == "0" and outputs["slower"] == ""
              and outputs["verdict"] in ("unchanged", "faster", "not settled"),
              f"A/A (a benchmark added): the job passes, exit 0 ({outputs})")
        check("| sum (head) vs sum (base)" in summary and "| spin (head) vs spin (base)" in summary,
              "A/A: the summary judges both shared benchmarks")
        check([c["body"].split("\n")[0] for c in api.comments] == ["<!-- picollo-suite: benchmark -->"]
              and "posted comment" in "\n".join(ran.log), "A/A: the comment is posted on the pull request")
        spent.append(overhead(ran))

        ran, outputs, summary, temp = judged("+20 %", lambda o: o["slower"] == "spin", repo,
                                             c["slower"], c["added"], scratch, targets, **cargo)
        check(ran.failed and outputs["exit-status"] == "7" and outputs["verdict"] == "slower"
              and outputs["slower"] == "spin", f"+20 % in spin: the job fails, exit 7, naming it ({outputs})")
        check(any("::error title=Picollo: slower::spin" in line for line in ran.log),
              "+20 %: the gate's annotation names spin")
        body = Path(outputs["comment"]).read_text()
        check(len(api.comments) == 1 and api.comments[0]["body"] == body
              and "▲ slower" in body and api.calls[-1][0] == "PATCH",
              "+20 %: the same comment is updated with the slower verdict")
        spent.append(overhead(ran))

        api.refuse = True
        ran, outputs, _, _ = job(repo, c["same"], c["base"], scratch, targets, **cargo)
        check(not ran.failed and any("::warning title=Picollo: no comment::" in line and "403" in line
                                     for line in ran.log),
              "a refused comment (403) is a warning, and the job passes")
    finally:
        api.refuse = False
        for k in api.env(scratch):
            os.environ.pop(k, None)
    return spent


def check_pytest(scratch: Path) -> list[float]:
    repo = scratch / "pytest-sample"
    c = pytest_sample(repo)
    plugin = {"suite": "pytest", "tests": "test_bench.py", "python": sys.executable}
    ran, outputs, summary, _ = judged("A/A", not_slower, repo, c["same"], c["base"], scratch, **plugin)
    check(not ran.failed and outputs["exit-status"] == "0" and outputs["slower"] == "",
          f"pytest A/A: the job passes, exit 0 ({outputs})")
    check("test\\_bench.py::test\\_spin (head) vs test\\_bench.py::test\\_spin (base)" in summary,
          "pytest A/A: the summary judges test_spin")
    spent = [overhead(ran)]
    ran, outputs, summary, temp = judged("2x", lambda o: o["slower"] == "test_bench.py::test_spin",
                                         repo, c["slower"], c["same"], scratch, **plugin)
    check(ran.failed and outputs["exit-status"] == "7" and outputs["slower"] == "test_bench.py::test_spin",
          f"pytest, twice the steps: the job fails, exit 7, naming test_spin ({outputs})")
    check((temp / "picollo/comment.md").read_text().startswith("<!-- picollo-suite: benchmark -->"),
          "pytest: the comment's body is written")
    spent.append(overhead(ran))
    return spent


C_SUITE = """#include <picollo/picollo_suite.h>

PICOLLO_BENCH(sum, k) {
    static uint64_t values[1000];
    for (uint64_t i = 0; i < k; i++) {
        uint64_t s = 0;
        picollo_do_not_optimize(values);
        for (int j = 0; j < 1000; j++) s += values[j];
        picollo_do_not_optimize(s);
    }
}

PICOLLO_BENCH(spin, k) {
    for (uint64_t i = 0; i < k * STEPS; i++) picollo_do_not_optimize(i);
}

PICOLLO_BENCH_MAIN()
"""

CS_SUITE = """using Picollo.Suites;

public class Sums
{
    /// The revision: the A/A head's source differs from the base's in this string alone.
    public static readonly string Revision = "REV";

    [Benchmark("spin")]
    public static ulong Spin(ulong k)
    {
        ulong x = 1;
        for (ulong i = 0; i < k * STEPS; i++) x = x * 6364136223846793005UL + i;
        return x;
    }

    [Benchmark("parse")]
    public static int Parse() { return int.Parse("12345"); }

    public static int Main(string[] args) { return Suite.Run<Sums>(args); }
}
"""


def cpu() -> str:
    """The CPU's model as /proc/cpuinfo names it, for a failed check's message."""
    try:
        lines = Path("/proc/cpuinfo").read_text().splitlines()
    except OSError:
        return "CPU unknown"
    return next((line.split(":", 1)[1].strip() for line in lines
                 if line.startswith("model name")), "CPU unknown")


def check_command(scratch: Path) -> list[float]:
    """suite: command on a C suite (identical code: byte-identical programs; 20 % more loop
    steps in spin: slower) and, under mono, a C# assembly (a string's data changed: an A/A of
    two builds of the same code; twice the steps: slower)."""
    lib = Path(os.environ["PICOLLO_LIB"]).parent
    repo = scratch / "c-sample"
    repo.mkdir()
    c = commit_revisions(repo, {"base": ("sums.c", C_SUITE.replace("STEPS", "2000")),
                                "same": ("README", "a sample\n"),
                                "slower": ("sums.c", C_SUITE.replace("STEPS", "2400"))})
    build = (f"cc -O2 sums.c -I {ROOT / 'include'} -L {lib} -lpicollo -Wl,-rpath,{lib} -o sums")
    inputs = {"suite": "command", "build": build, "program": "sums"}
    ran, outputs, _, _ = job(repo, c["same"], c["base"], scratch, **inputs)
    check(not ran.failed and outputs["verdict"] == "identical",
          f"C, identical code: byte-identical programs, the job passes ({outputs['verdict']})")
    spent = [overhead(ran)]
    ran, outputs, _, _ = judged("+20 %", lambda o: o["slower"] == "spin", repo, c["slower"], c["same"],
                                scratch, **inputs)
    check(ran.failed and outputs["exit-status"] == "7" and outputs["slower"] == "spin",
          f"C, +20 % in spin: the job fails, exit 7, naming it ({outputs})")
    spent.append(overhead(ran))

    dll = scratch / "Picollo.dll"
    subprocess.run(["mcs", "-nologo", "-unsafe", "-target:library", f"-out:{dll}",
                    f"-recurse:{ROOT / 'dotnet/Picollo'}/*.cs"], check=True)
    repo = scratch / "cs-sample"
    repo.mkdir()
    c = commit_revisions(repo, {
        "base": ("app.cs", CS_SUITE.replace("STEPS", "2000").replace("REV", "base")),
        "other": ("app.cs", CS_SUITE.replace("STEPS", "2000").replace("REV", "head")),
        "slower": ("app.cs", CS_SUITE.replace("STEPS", "4000").replace("REV", "head"))})
    build = f"mcs -nologo -optimize -r:{dll} -out:app.exe app.cs && cp {dll} {lib}/libpicollo.so ."
    inputs = {"suite": "command", "build": build, "program": "app.exe", "launcher": "mono"}
    ran, outputs, summary, _ = judged("A/A", not_slower, repo, c["other"], c["base"], scratch, **inputs)
    check(not ran.failed and outputs["exit-status"] == "0" and outputs["slower"] == ""
          and outputs["verdict"] != "identical" and "| spin (head) vs spin (base)" in summary,
          f"C# A/A: two builds compared under mono, the job passes ({outputs['verdict']})")
    spent.append(overhead(ran))
    ran, outputs, _, _ = judged("2x", lambda o: o["slower"] == "spin", repo, c["slower"], c["other"],
                                scratch, **inputs)
    check(ran.failed and outputs["exit-status"] == "7" and outputs["slower"] == "spin",
          f"C#, twice the steps in spin: the job fails, exit 7, naming it ({outputs}; {cpu()})")
    spent.append(overhead(ran))
    return spent


def check_cli_cache(scratch: Path) -> None:
    """mode: commands, twice with one actions/cache store: built, then restored."""
    repo = scratch / "commands"
    repo.mkdir()
    git(repo, "init", "-q")
    git(repo, "-c", "user.email=ci@example.org", "-c", "user.name=ci", "commit", "-q",
        "--allow-empty", "-m", "base")
    store = scratch / "cache"
    for run in ("first", "second"):
        temp = Path(tempfile.mkdtemp(dir=scratch))
        given = {"base-ref": "HEAD", "build": "true", "run": "true", "runs": "3", "comment": "false"}
        ran, outputs, _ = run_action(ROOT, given, repo, temp / "artifacts", temp, store)
        install = next(t for name, t in ran.times if name == "Picollo: install")
        log = "\n".join(ran.log)
        if run == "first":
            check(not ran.failed and "not found" in log and "saved" in log,
                  f"the first run builds picollo and saves it to the cache ({install:.1f} s)")
        else:
            check(not ran.failed and "from the cache" in log,
                  f"the second run takes picollo from the cache ({install:.1f} s)")
        print(f"action suite: commands mode, {run} run: install {install:.1f} s, overhead "
              f"{overhead(ran):.1f} s of {sum(t for _, t in ran.times):.1f} s")


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--out", type=Path, help="keep the scratch folder here")
    a = p.parse_args()
    scratch = (a.out or Path(tempfile.mkdtemp(prefix="action-suite-"))).resolve()
    shutil.rmtree(scratch, ignore_errors=True)
    scratch.mkdir(parents=True)
    os.environ.pop("GITHUB_TOKEN", None)
    # The pytest sample's plugin and library: this checkout's.
    os.environ["PYTHONPATH"] = str(ROOT / "python-demo")
    target = Path(os.environ.get("CARGO_TARGET_DIR") or ROOT / "target")
    os.environ.setdefault("PICOLLO_LIB", str(target.resolve() / "release/libpicollo.so"))
    print(f"action suite: on {cpu()}, {os.cpu_count()} CPUs")
    check_helpers()
    api = FakeApi()
    check_comment_api(api, scratch)
    spent = check_cargo(api, scratch)
    spent += check_pytest(scratch)
    spent += check_command(scratch)
    check_cli_cache(scratch)
    print(f"action suite: the action's own time beyond both builds and the comparison, "
          f"per job: {', '.join(f'{s:.1f}' for s in spent)} s")
    print(f"action suite: {len(failures)} failed")
    for what in failures:
        print(f"action suite: FAILED: {what}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
