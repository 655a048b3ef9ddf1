#!/usr/bin/env python3
"""The GitHub Action (action.yml): its metadata, the example workflows, and local runs.

1. The metadata: name, description and a composite `runs`; every step a `run:` with a
   `shell:` or a `uses:`; every `${{ inputs.X }}` declared and every declared input used;
   every `steps.ID` reference to an earlier step's id; each input and output described.
   The check is also run on three broken copies, each of which it must refuse.
2. actionlint on docs/examples/*.yml, with the action reachable at `./.picollo` as the
   examples check it out, so that their `with:` keys are checked against action.yml; on
   action.yml's own `uses:` steps as a workflow's job; and on a copy of an example given an
   input the action does not declare, which it must refuse.
3. The action run here (scripts/action_local.py) on a sample project, a git repository of
   a C loop in four revisions, under --emulate (exact instruction counts, the same on every
   run: no check below can fail correct code by chance): the same code on both sides passes
   the job with the verdict table in the summary, the outputs set and the artifacts there;
   a head of 10 % more loop steps fails it, naming the benchmark; a head that does not
   compile fails it, showing the compiler's error; an unknown export format fails it with
   picollo's usage error (exit 2) in the summary; `mode: suite` without `suite` is refused
   (scripts/action_suite_check.py runs mode: suite).

    python3 scripts/action_check.py [--out DIR]     (exits 1 on a failed check)
"""
from __future__ import annotations

import argparse
import copy
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))
from action_local import run_action  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
failures: list[str] = []


def check(ok: bool, what: str) -> None:
    print(f"action: {'ok' if ok else 'FAILED'}: {what}")
    if not ok:
        failures.append(what)


def metadata_problems(meta: dict) -> list[str]:
    """What is wrong with an action's metadata (none: nothing)."""
    found = [f"no {key}" for key in ("name", "description", "runs") if not meta.get(key)]
    runs = meta.get("runs") or {}
    if runs.get("using") != "composite":
        found.append("runs.using is not composite")
    text = yaml.safe_dump(meta)
    inputs = meta.get("inputs") or {}
    used = set(re.findall(r"\binputs\.([\w-]+)", text))
    found += [f"inputs.{n} is used but not declared" for n in sorted(used - set(inputs))]
    found += [f"input {n} is declared but not used" for n in sorted(set(inputs) - used)]
    for kind, entries in (("input", inputs), ("output", meta.get("outputs") or {})):
        found += [f"{kind} {n} has no description" for n, s in entries.items()
                  if not (s or {}).get("description")]
    ids: set[str] = set()
    for i, step in enumerate(runs.get("steps") or []):
        what = f"step {i + 1} ({step.get('name', '?')})"
        if ("run" in step) == ("uses" in step):
            found.append(f"{what}: not exactly one of run and uses")
        if "run" in step and not step.get("shell"):
            found.append(f"{what}: a run step without shell")
        for ref in re.findall(r"\bsteps\.([\w-]+)\.", yaml.safe_dump(step)):
            if ref not in ids:
                found.append(f"{what}: steps.{ref} is no earlier step")
        ids.add(step.get("id", ""))
    for ref in re.findall(r"\bsteps\.([\w-]+)\.", yaml.safe_dump(meta.get("outputs") or {})):
        if ref not in ids:
            found.append(f"outputs: steps.{ref} is no step")
    return found


def check_metadata() -> None:
    meta = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))
    problems = metadata_problems(meta)
    check(not problems, f"action.yml's metadata: {problems or 'complete'}")
    broken = {
        "a run step without shell": lambda m: m["runs"]["steps"][0].pop("shell"),
        "is used but not declared": lambda m: m["runs"]["steps"][0].setdefault("env", {}).update(
            X="${{ inputs.nosuch }}"),
        "is declared but not used": lambda m: m["inputs"].update(
            unused={"description": "d"}),
    }
    for problem, breaks in broken.items():
        bad = copy.deepcopy(meta)
        breaks(bad)
        found = metadata_problems(bad)
        check(any(problem in f for f in found), f"the check refuses a copy with {problem}: {found}")


def actionlint(workflows: list[Path], scratch: Path) -> subprocess.CompletedProcess:
    """actionlint on `workflows` in a repository where ./.picollo is this checkout."""
    repo = scratch / "lint"
    shutil.rmtree(repo, ignore_errors=True)
    (repo / ".github/workflows").mkdir(parents=True)
    git(repo, "init", "-q")  # actionlint looks for the repository's root
    (repo / ".picollo").symlink_to(ROOT)
    for w in workflows:
        shutil.copy(w, repo / ".github/workflows" / w.name)
    lint = Path(sys.executable).parent / "actionlint"
    return subprocess.run([str(lint), "-oneline", "-shellcheck=", "-pyflakes="], cwd=repo,
                          capture_output=True, text=True)


def check_workflows(scratch: Path) -> None:
    examples = sorted((ROOT / "docs/examples").glob("*.yml"))
    done = actionlint(examples, scratch)
    check(bool(examples) and done.returncode == 0,
          f"actionlint on {', '.join(e.name for e in examples)}: {done.stdout.strip() or 'clean'}")
    # actionlint reads workflows only: action.yml's `uses:` steps as a job of one, so that
    # each action's version and `with:` keys are checked.
    meta = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))
    steps = [{"uses": s["uses"], "with": {k: "x" for k in s.get("with") or {}}}
             for s in meta["runs"]["steps"] if "uses" in s]
    uses = scratch / "action-uses.yml"
    uses.write_text(yaml.safe_dump({"on": "push", "jobs": {"uses": {
        "runs-on": "ubuntu-24.04", "steps": steps}}}))
    done = actionlint([uses], scratch)
    check(done.returncode == 0, f"actionlint on action.yml's uses steps: {done.stdout.strip() or 'clean'}")
    bad = scratch / "bad.yml"
    bad.write_text(examples[0].read_text().replace("name: app", "name: app\n          nosuch: x"))
    done = actionlint([bad], scratch)
    check(done.returncode != 0 and "nosuch" in done.stdout,
          f"actionlint refuses an input action.yml does not declare: {done.stdout.strip()}")


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True,
                          text=True).stdout.strip()


def sample(where: Path) -> dict[str, str]:
    """A git repository of a C loop: base, the same code (a README more), 10 % more loop
    steps, and a head that does not compile; the commit of each."""
    where.mkdir(parents=True)
    git(where, "init", "-q")
    git(where, "config", "user.email", "ci@example.org")
    git(where, "config", "user.name", "ci")
    loop = "int main(void) {{ for (volatile long i = 0; i < {}; i++) {{}} return 0; }}\n"
    revisions = {"base": ("app.c", loop.format(1_000_000)), "same": ("README", "a sample\n"),
                 "slower": ("app.c", loop.format(1_100_000)),
                 "broken": ("app.c", "int main(void) { return undeclared_name; }\n")}
    commits = {}
    for name, (path, text) in revisions.items():
        (where / path).write_text(text)
        git(where, "add", path)
        git(where, "commit", "-qm", name)
        commits[name] = git(where, "rev-parse", "HEAD")
    return commits


def job(repo: Path, head: str, base: str, scratch: Path, **inputs: str):
    """The action on `repo` checked out at `head` against `base`: job, outputs, summary text,
    artifact folder."""
    git(repo, "checkout", "-q", "--detach", head)
    temp = Path(tempfile.mkdtemp(dir=scratch))
    given = {"base-ref": base, "build": "cc -O1 -o app app.c", "run": "{dir}/app",
             "name": "app", "emulate": "instructions", "runs": "5", **inputs}
    ran, outputs, summary = run_action(ROOT, given, repo, temp / "artifacts", temp)
    print("\n".join(ran.log)[-3000:])
    return ran, outputs, summary.read_text(encoding="utf-8"), temp / "artifacts/picollo"


EXPECTED_FILES = ["summary.md", "report.html", "picollo.json", "bmf.json", "github.json",
                  "gbench.json", "build-base.log", "build-head.log"]


def check_runs(scratch: Path) -> None:
    repo = scratch / "sample"
    c = sample(repo)
    ran, outputs, summary, art = job(repo, c["same"], c["base"], scratch)
    check(not ran.failed, "A/A: the job passes")
    check(outputs["verdict"] == "unchanged" and outputs["slower"] == ""
          and outputs["exit-status"] == "0", f"A/A: the outputs {outputs}")
    check("| Benchmark (B vs A) |" in summary and "= no difference" in summary,
          "A/A: the step summary holds the verdict table, no difference")
    missing = [f for f in EXPECTED_FILES if not (art / f).is_file()]
    check(not missing, f"A/A: the artifact holds every file (missing: {missing})")
    picollo = str(ran.temp / "picollo-cli/bin/picollo")

    ran, outputs, summary, art = job(repo, c["slower"], c["same"], scratch, picollo=picollo)
    check(ran.failed and outputs["exit-status"] == "7", f"slower: the job fails, exit 7 ({outputs['exit-status']})")
    check(outputs["verdict"] == "slower" and outputs["slower"] == "app", f"slower: the outputs {outputs}")
    row = next((r for r in summary.splitlines() if r.startswith("| app vs app (base)")), "")
    check("▲ slower" in row, f"slower: the summary names the benchmark slower: {row}")
    check((art / "report.html").is_file(), "slower: the report is uploaded too")

    ran, outputs, summary, art = job(repo, c["broken"], c["slower"], scratch, picollo=picollo)
    check(ran.failed and outputs["exit-status"] == "", "broken head: the job fails before the comparison")
    check("the head build failed" in summary and "undeclared_name" in summary,
          "broken head: the summary shows the build's error")
    check("undeclared_name" in (art / "build-head.log").read_text(), "broken head: its log is uploaded")

    ran, outputs, summary, _ = job(repo, c["same"], c["base"], scratch, picollo=picollo,
                                   exports="bmf csv")
    check(ran.failed and outputs["exit-status"] == "2" and 'unknown format "csv"' in summary,
          f"an unknown export format fails the job, exit 2, said in the summary ({outputs['exit-status']})")

    ran, _, _, _ = job(repo, c["same"], c["base"], scratch, picollo=picollo, mode="suite")
    check(ran.failed and any("needs suite: cargo, pytest or command" in line for line in ran.log),
          "mode: suite without a kind of suite is refused in the first step")


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--out", type=Path, help="keep the scratch folder here")
    a = p.parse_args()
    scratch = (a.out or Path(tempfile.mkdtemp(prefix="action-check-"))).resolve()
    shutil.rmtree(scratch, ignore_errors=True)
    scratch.mkdir(parents=True)
    check_metadata()
    check_workflows(scratch)
    check_runs(scratch)
    print(f"action: {len(failures)} failed")
    for what in failures:
        print(f"action: FAILED: {what}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
