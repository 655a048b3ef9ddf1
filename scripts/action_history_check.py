#!/usr/bin/env python3
"""The action's history step (action.yml's `history-branch`, scripts/action/step.sh
history) on local repositories, a bare one as the remote: a push adds the head's figures of
a gate's document to the store on the branch, making the branch where there is none; a
second runner whose push is refused because a third pushed first (a pre-push hook pushes
the third's run once) fetches, rebases and pushes again, and all three runs are there,
read by `picollo history list` with no file skipped; an event that is not a push adds
nothing.

    python3 scripts/action_history_check.py [--picollo PATH]     (exits 1 on a failed check)
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCUMENT = ROOT / "bench/tests/golden/documents/suite-against.json"
BRANCH = "benchmark-history"
failures: list[str] = []


def check(ok: bool, what: str) -> None:
    print(f"action history: {'ok' if ok else 'FAILED'}: {what}")
    if not ok:
        failures.append(what)


def git(cwd: Path, *args: str) -> str:
    """`git ARGS` in `cwd`, which must succeed: its output."""
    done = subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", *args],
                          cwd=cwd, capture_output=True, text=True, check=True)
    return done.stdout.strip()


def runner_env(tmp: Path, name: str, workspace: Path, picollo: Path, event: str) -> dict:
    """The environment of the history step on runner `name` (its own RUNNER_TEMP)."""
    temp = tmp / f"runner-{name}"
    temp.mkdir(exist_ok=True)
    return dict(os.environ, GITHUB_EVENT_NAME=event, GITHUB_WORKSPACE=str(workspace),
                GITHUB_ACTION_PATH=str(ROOT), RUNNER_TEMP=str(temp), GITHUB_REF_NAME="main",
                GITHUB_OUTPUT=str(temp / "output"), PICOLLO_CLI=str(picollo),
                PICOLLO_DOCUMENT=str(DOCUMENT), PICOLLO_HISTORY_BRANCH=BRANCH,
                PICOLLO_HISTORY_MACHINE=f"runner-{name}", GIT_AUTHOR_NAME="t",
                GIT_AUTHOR_EMAIL="t@t", GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@t")


def step(env: dict) -> subprocess.CompletedProcess:
    """`step.sh history` with `env`, in its workspace."""
    return subprocess.run(["bash", str(ROOT / "scripts/action/step.sh"), "history"],
                          cwd=env["GITHUB_WORKSPACE"], env=env, capture_output=True, text=True)


def runs_on_branch(tmp: Path, remote: Path, picollo: Path) -> tuple[list[str], str]:
    """`picollo history list` of the branch as the remote holds it: its lines and stderr."""
    store = tmp / "read"
    subprocess.run(["rm", "-rf", str(store)], check=True)
    git(tmp, "clone", "-q", "--branch", BRANCH, str(remote), str(store))
    done = subprocess.run([str(picollo), "history", "list", "--store", str(store)],
                          capture_output=True, text=True)
    return done.stdout.splitlines(), done.stderr


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    target = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
    p.add_argument("--picollo", type=Path, default=target / "release/picollo")
    picollo = p.parse_args().picollo.resolve()
    with tempfile.TemporaryDirectory(prefix="action-history-") as t:
        tmp = Path(t)
        remote = tmp / "remote.git"
        git(tmp, "init", "-q", "--bare", str(remote))
        clones = {}
        for name in "abc":
            clones[name] = tmp / f"ws-{name}"
        git(tmp, "init", "-q", "-b", "main", str(clones["a"]))
        (clones["a"] / "app.c").write_text("int main(void) { return 0; }\n")
        git(clones["a"], "add", "app.c")
        git(clones["a"], "commit", "-q", "-m", "one")
        git(clones["a"], "remote", "add", "origin", str(remote))
        git(clones["a"], "push", "-q", "origin", "main")
        for name in "bc":
            git(tmp, "clone", "-q", "-b", "main", str(remote), str(clones[name]))
        env = {n: runner_env(tmp, n, clones[n], picollo, "push") for n in "abc"}

        done = step(runner_env(tmp, "a", clones["a"], picollo, "pull_request"))
        heads = git(tmp, "ls-remote", "--heads", str(remote), BRANCH)
        check(done.returncode == 0 and heads == "", "a pull request adds nothing")

        done = step(env["a"])
        check(done.returncode == 0, f"runner a makes the branch and adds its run: {done.stdout}{done.stderr}")
        if failures:
            return 1
        lines, err = runs_on_branch(tmp, remote, picollo)
        check(len(lines) == 1 and "runner-a  2 benchmarks" in lines[0] and err == "",
              f"the branch holds a's run: {lines} {err}")

        # Runner b's first push is refused: runner c pushes its run just before it.
        hook = clones["b"] / ".git/hooks/pre-push"
        flag = tmp / "c-pushed"
        c_env = " ".join(f"{k}='{v}'" for k, v in env["c"].items() if k.startswith(("GITHUB_", "RUNNER_", "PICOLLO_")))
        # The hook runs with git's variables of b's repository set: c's git runs without.
        hook.write_text(f"#!/usr/bin/env bash\n[ -e '{flag}' ] && exit 0\ntouch '{flag}'\n"
                        "unset $(git rev-parse --local-env-vars)\n"
                        f"cd '{clones['c']}' && env {c_env} bash '{ROOT}/scripts/action/step.sh' history\n")
        hook.chmod(0o755)
        done = step(env["b"])
        check(done.returncode == 0 and "push 1 refused" in done.stdout,
              f"runner b, refused once, rebases and pushes again: {done.stdout}{done.stderr}")
        lines, err = runs_on_branch(tmp, remote, picollo)
        machines = sorted(line.split()[2] for line in lines)
        check(machines == ["runner-a", "runner-b", "runner-c"] and err == "",
              f"the branch holds the three runs, none skipped: {lines} {err}")
        show = subprocess.run([str(picollo), "history", "show", "--store", str(tmp / "read"),
                               lines[0].split()[-1]], capture_output=True, text=True)
        check("| sum 1000 |" in show.stdout and "(head)" not in show.stdout,
              f"a run keeps the heads under their benchmarks' names: {show.stdout}")
    print(f"action history: {len(failures)} failed" if failures else "action history: all passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
