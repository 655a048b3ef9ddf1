#!/usr/bin/env python3
"""The GitHub Action's mode: suite and its pull-request comment, run here without GitHub.

1. The helpers on canned input: the comment's body (the marker first, a long summary cut
   with its <details> closed), the bench executable found in cargo's JSON messages, a suite's
   slower benchmarks named without ` (head)`.
2. The comment's find-or-update against a fake REST API (a local HTTP server): a pull request
   without the marker gets a POST, one whose marked comment is on the second page a PATCH of
   that comment; a refused call (403, a fork's token) is a warning, never a failed job; no
   token, or no pull request, calls nothing and says why.
3. The trap the action's separate target folders rule out: two revisions built into one
   CARGO_TARGET_DIR give one program (cargo calls the second build fresh), and the action's
   compare step refuses it, failing.
4. The action (scripts/action_local.py) on a sample cargo crate whose bench target uses the
   checkout's picollo-bench: identical code builds byte-identical programs, which pass without
   a comparison; a head that adds a benchmark runs the A/A comparison of the two shared ones
   and passes; a head whose `spin` does 10 % more loop steps fails, exit 7, naming it; each
   writes the comment's body and posts, then updates, one comment on the fake API.
5. The same on a pytest checkout using the plugin (--picollo-against), whose slower head
   does twice the loop steps: a Python call of 45 µs spread by ±30 % between processes on
   this shared 2-core VM, where 10 % more was found in none of 5 runs and twice as much in
   3 of 3.
6. mode: commands takes picollo from actions/cache on its second run (the first builds and
   saves it), and the action's own time beyond the builds and the comparison is printed.

The verdicts are on time, on this machine: the suites run with `--processes 3 --budget 1`
and a 3 % threshold; the head's 10 % is found with room, and an A/A comparison is called
slower only where 3 processes a side differ by 3 % at 99 % confidence.

    python3 scripts/action_suite_check.py [--out DIR]     (exits 1 on a failed check)
"""
from __future__ import annotations

import argparse
import http.server
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE / "action"))
from action_local import run_action  # noqa: E402
import cargo_bench  # noqa: E402
import comment  # noqa: E402
import outcome  # noqa: E402

ROOT = HERE.parent
ARGS = "--budget 1 --warmup 0.1 --counters none --processes 3"
failures: list[str] = []


def check(ok: bool, what: str) -> None:
    print(f"action suite: {'ok' if ok else 'FAILED'}: {what}", flush=True)
    if not ok:
        failures.append(what)


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True,
                          text=True).stdout.strip()


def check_helpers() -> None:
    marker = "<!-- picollo-suite: benchmark -->"
    short = comment.body(marker, "### Picollo: 2 comparisons\n")
    check(short.startswith(marker + "\n### Picollo"), "the comment: the marker, then the summary")
    long = "### head\n<details>\n" + "| row |\n" * 20_000
    cut = comment.body(marker, long)
    check(len(cut) < 65_536 and cut.count("<details>") == cut.count("</details>")
          and "longer than a comment" in cut, f"a long summary is cut to {len(cut)} characters")
    messages = "\n".join(json.dumps(m) for m in [
        {"reason": "compiler-artifact", "target": {"name": "picollo-bench", "kind": ["lib"]},
         "executable": None},
        {"reason": "build-script-executed"},
        {"reason": "compiler-artifact", "target": {"name": "other", "kind": ["bench"]},
         "executable": "/t/release/deps/other-1"},
        {"reason": "compiler-artifact", "target": {"name": "sums", "kind": ["bench"]},
         "executable": "/t/release/deps/sums-2", "fresh": False},
        {"reason": "build-finished", "success": True}]) + "\nnot json\n"
    check(cargo_bench.executable(messages, "sums") == "/t/release/deps/sums-2"
          and cargo_bench.executable(messages, "nosuch") is None,
          "cargo's messages: the bench target's executable, none for another name")
    doc = {"comparisons": [{"b": "spin (head)", "verdict": "slower"},
                           {"b": "sum (head)", "verdict": "no difference"}]}
    check(outcome.outcome(doc, suite=True) == ["slower", "spin"]
          and outcome.outcome(doc) == ["slower", "spin (head)"],
          "a suite's slower benchmark is named without (head)")


class FakeApi:
    """GitHub's issue-comment endpoints on a local port: comments kept in a list, every
    request recorded; `refuse` answers every call 403."""

    def __init__(self) -> None:
        self.comments: list[dict] = []
        self.calls: list[tuple[str, str]] = []
        self.refuse = False
        api = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args) -> None:
                pass

            def reply(self, code: int, data) -> None:
                text = json.dumps(data).encode()
                self.send_response(code)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(text)))
                self.end_headers()
                self.wfile.write(text)

            def handle_call(self, method: str) -> None:
                api.calls.append((method, self.path))
                if api.refuse or self.headers.get("Authorization") != "Bearer t0ken":
                    return self.reply(403, {"message": "Resource not accessible by integration"})
                size = int(self.headers.get("Content-Length") or 0)
                sent = json.loads(self.rfile.read(size)) if size else None
                path, _, query = self.path.partition("?")
                if method == "GET" and path == "/repos/o/r/issues/7/comments":
                    page = int(dict(q.split("=") for q in query.split("&"))["page"])
                    return self.reply(200, api.comments[(page - 1) * 100:page * 100])
                if method == "POST" and path == "/repos/o/r/issues/7/comments":
                    api.comments.append({"id": 1000 + len(api.comments), "body": sent["body"]})
                    return self.reply(201, api.comments[-1])
                if method == "PATCH" and path.startswith("/repos/o/r/issues/comments/"):
                    number = int(path.rsplit("/", 1)[1])
                    for c in api.comments:
                        if c["id"] == number:
                            c["body"] = sent["body"]
                            return self.reply(200, c)
                return self.reply(404, {"message": "Not Found"})

            def do_GET(self) -> None:
                self.handle_call("GET")

            def do_POST(self) -> None:
                self.handle_call("POST")

            def do_PATCH(self) -> None:
                self.handle_call("PATCH")

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_port}"

    def env(self, scratch: Path) -> dict[str, str]:
        """The Actions variables of pull request #7 of o/r, with this API."""
        event = scratch / "event.json"
        event.write_text(json.dumps({"pull_request": {"number": 7}}))
        return {"GITHUB_API_URL": self.url, "GITHUB_REPOSITORY": "o/r",
                "GITHUB_EVENT_PATH": str(event), "GITHUB_TOKEN": "t0ken"}


def check_comment_api(api: FakeApi, scratch: Path) -> None:
    env = api.env(scratch)
    to = comment.target({**env, "PICOLLO_TOKEN": env["GITHUB_TOKEN"]})
    check(isinstance(to, comment.Target) and to.number == 7, f"the pull request's target: {to}")
    check(comment.target({**env, "PICOLLO_TOKEN": ""}) == "no github-token",
          "no token: no call, and why")
    push = scratch / "push.json"
    push.write_text(json.dumps({"ref": "refs/heads/main"}))
    check(comment.target({**env, "PICOLLO_TOKEN": "t0ken", "GITHUB_EVENT_PATH": str(push)})
          == "the event is not a pull request's", "a push's event: no call, and why")
    marker = "<!-- picollo-suite: x -->"
    api.comments[:] = [{"id": i, "body": f"comment {i}"} for i in range(100)]
    did = comment.post_or_update(to, marker, f"{marker}\nfirst")
    check(did.startswith("posted comment 1100") and api.comments[-1]["body"].endswith("first")
          and ("POST", "/repos/o/r/issues/7/comments") in api.calls,
          f"no marked comment on either page: a POST ({did})")
    api.calls.clear()
    did = comment.post_or_update(to, marker, f"{marker}\nsecond")
    check(did == "updated comment 1100 on pull request #7" and len(api.comments) == 101
          and api.comments[-1]["body"].endswith("second")
          and [m for m, _ in api.calls] == ["GET", "GET", "PATCH"],
          f"the marked comment on page 2 is updated in place: {api.calls}")


def cargo_sample(where: Path) -> dict[str, str]:
    """A git repository of a cargo crate whose bench target `sums` uses the checkout's
    picollo-bench: base; the same code (a README more); a third benchmark added; `spin` doing
    10 % more loop steps. The commit of each."""
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
""")
    suite = """use picollo_bench::{{black_box, suite::Suite}};

fn sums(s: &mut Suite) {{
    let values: Vec<u64> = (0..20_000).collect();
    s.bench("sum", move || {{
        black_box(black_box(&values)[..10_000].iter().sum::<u64>());
    }});
    s.bench("spin", || {{
        for i in 0..{steps}u64 {{
            black_box(i);
        }}
    }});{more}
}}

picollo_bench::main!(sums);
"""
    added = '\n    s.bench("spin 100", || {\n        for i in 0..100u64 {\n            black_box(i);\n        }\n    });'
    git(where, "init", "-q")
    git(where, "config", "user.email", "ci@example.org")
    git(where, "config", "user.name", "ci")
    revisions = {"base": ("benches/sums.rs", suite.format(steps="2_000", more="")),
                 "same": ("README", "a sample\n"),
                 "added": ("benches/sums.rs", suite.format(steps="2_000", more=added)),
                 "slower": ("benches/sums.rs", suite.format(steps="2_200", more=added))}
    commits = {}
    for name, (path, text) in revisions.items():
        (where / path).write_text(text)
        git(where, "add", "-A")
        git(where, "commit", "-qm", name)
        commits[name] = git(where, "rev-parse", "HEAD")
    return commits


def pytest_sample(where: Path) -> dict[str, str]:
    """A git repository of pytest benchmarks through the plugin: base; the same code (a
    README more); `spin` doing twice the loop steps."""
    where.mkdir(parents=True)
    work = "def spin(n):\n    total = 0\n    for i in range(n):\n        total += i\n    return total\n"
    tests = ("from work import spin\n\n\ndef test_spin(benchmark):\n"
             "    assert benchmark(spin, {n}) == sum(range({n}))\n\n\n"
             "def test_sorted(benchmark):\n    assert benchmark(sorted, [3, 1, 2]) == [1, 2, 3]\n")
    git(where, "init", "-q")
    git(where, "config", "user.email", "ci@example.org")
    git(where, "config", "user.name", "ci")
    (where / "work.py").write_text(work)
    revisions = {"base": ("test_bench.py", tests.format(n=2_000)),
                 "same": ("README", "a sample\n"),
                 "slower": ("test_bench.py", tests.format(n=4_000))}
    commits = {}
    for name, (path, text) in revisions.items():
        (where / path).write_text(text)
        git(where, "add", "-A")
        git(where, "commit", "-qm", name)
        commits[name] = git(where, "rev-parse", "HEAD")
    return commits


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
    return ran, outputs, summary.read_text(encoding="utf-8"), temp


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
        ran, outputs, summary, temp = job(repo, c["added"], c["base"], scratch, targets, **cargo)
        check(not ran.failed and outputs["exit-status"] == "0" and outputs["slower"] == ""
              and outputs["verdict"] in ("unchanged", "faster"),
              f"A/A (a benchmark added): the job passes, exit 0 ({outputs})")
        check("| sum (head) vs sum (base)" in summary and "| spin (head) vs spin (base)" in summary,
              "A/A: the summary judges both shared benchmarks")
        check([c["body"].split("\n")[0] for c in api.comments] == ["<!-- picollo-suite: benchmark -->"]
              and "posted comment" in "\n".join(ran.log), "A/A: the comment is posted on the pull request")
        spent.append(overhead(ran))

        ran, outputs, summary, temp = job(repo, c["slower"], c["added"], scratch, targets, **cargo)
        check(ran.failed and outputs["exit-status"] == "7" and outputs["verdict"] == "slower"
              and outputs["slower"] == "spin", f"+10 % in spin: the job fails, exit 7, naming it ({outputs})")
        check(any("::error title=Picollo: slower::spin" in line for line in ran.log),
              "+10 %: the gate's annotation names spin")
        body = Path(outputs["comment"]).read_text()
        check(len(api.comments) == 1 and api.comments[0]["body"] == body
              and "▲ slower" in body and api.calls[-1][0] == "PATCH",
              "+10 %: the same comment is updated with the slower verdict")
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
    ran, outputs, summary, _ = job(repo, c["same"], c["base"], scratch, **plugin)
    check(not ran.failed and outputs["exit-status"] == "0" and outputs["slower"] == "",
          f"pytest A/A: the job passes, exit 0 ({outputs})")
    check("test\\_bench.py::test\\_spin (head) vs test\\_bench.py::test\\_spin (base)" in summary,
          "pytest A/A: the summary judges test_spin")
    spent = [overhead(ran)]
    ran, outputs, summary, temp = job(repo, c["slower"], c["same"], scratch, **plugin)
    check(ran.failed and outputs["exit-status"] == "7" and outputs["slower"] == "test_bench.py::test_spin",
          f"pytest, twice the steps: the job fails, exit 7, naming test_spin ({outputs})")
    check((temp / "picollo/comment.md").read_text().startswith("<!-- picollo-suite: benchmark -->"),
          "pytest: the comment's body is written")
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
    check_helpers()
    api = FakeApi()
    check_comment_api(api, scratch)
    spent = check_cargo(api, scratch)
    spent += check_pytest(scratch)
    check_cli_cache(scratch)
    print(f"action suite: the action's own time beyond both builds and the comparison, "
          f"per job: {', '.join(f'{s:.1f}' for s in spent)} s")
    print(f"action suite: {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
