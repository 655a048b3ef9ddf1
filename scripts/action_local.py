#!/usr/bin/env python3
"""Runs a composite GitHub Action (action.yml) here, as a runner would, without GitHub.

Its `run:` steps run in order with bash (`bash --noprofile --norc -eo pipefail`, GitHub's
`shell: bash`), each with `${{ ... }}` replaced (inputs, steps.ID.outputs, github.action_path,
github.workspace, runner.temp) and the Actions environment set: GITHUB_WORKSPACE,
GITHUB_ACTION_PATH, RUNNER_TEMP, GITHUB_STEP_SUMMARY (one file for the job) and
GITHUB_OUTPUT (one file per step, read back into steps.ID.outputs). A step's `if:` is
evaluated (always(), success(), failure(), !, &&, ||, ==, !=, the same contexts); a failed
step fails the job and skips the later steps whose `if:` does not ask for them. Of `uses:`
steps, actions/upload-artifact copies its `path` into ARTIFACTS/NAME (and fails where the path
is missing and `if-no-files-found` is `error`); actions/cache, given a cache folder, restores
its `path` from CACHE/KEY (output cache-hit) and saves it there once the job passed, as its
post step does; any other is skipped and said. An input's default is an expression too
(`${{ github.token }}`: $GITHUB_TOKEN, empty where unset). An expression outside these
contexts is an error, not an empty string. Each step's wall time is logged and kept.

    python3 scripts/action_local.py --workspace DIR [--input NAME=VALUE]... [--artifacts DIR]
                                    [--cache DIR]

prints each step's output and time, then the outputs and where the summary is; exits 1 when
the job fails. scripts/action_check.py and scripts/action_suite_check.py run it on sample
projects.
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
EXPR = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")
CONTEXT = re.compile(r"\b(inputs|steps|github|runner)((?:\.[\w-]+)+)")


class ActionError(Exception):
    """The action cannot be run as written (an unknown input, an expression not supported)."""


@dataclass
class Job:
    """One run of the action: its contexts as the steps go, and what it left."""

    inputs: dict[str, str]
    action_path: Path
    workspace: Path
    temp: Path
    artifacts: Path
    cache: Path | None = None
    steps: dict[str, dict[str, str]] = field(default_factory=dict)
    failed: bool = False
    log: list[str] = field(default_factory=list)
    #: Each step run and its wall time in seconds, in order.
    times: list[tuple[str, float]] = field(default_factory=list)
    #: The (path, key) pairs actions/cache saves once the job passed.
    to_save: list[tuple[Path, str]] = field(default_factory=list)

    def lookup(self, ref: str) -> str:
        """The value of a context reference (`inputs.build`, `steps.x.outputs.y`)."""
        parts = ref.split(".")
        if parts[0] == "inputs" and len(parts) == 2 and parts[1] in self.inputs:
            return self.inputs[parts[1]]
        if parts[0] == "steps" and len(parts) == 4 and parts[2] == "outputs":
            return self.steps.get(parts[1], {}).get(parts[3], "")
        fixed = {"github.action_path": str(self.action_path),
                 "github.workspace": str(self.workspace), "runner.temp": str(self.temp),
                 "github.token": os.environ.get("GITHUB_TOKEN", "")}
        if ref in fixed:
            return fixed[ref]
        raise ActionError(f"${{{{ {ref} }}}}: not a context this runner knows (or an undeclared input)")

    def substitute(self, text: str) -> str:
        """`text` with each `${{ context.ref }}` replaced by its value."""
        def one(m: re.Match) -> str:
            expr = m.group(1)
            if not CONTEXT.fullmatch(expr):
                raise ActionError(f"${{{{ {expr} }}}}: only a plain context reference is supported here")
            return self.lookup(expr)
        return EXPR.sub(one, str(text))

    def condition(self, text: str | None) -> bool:
        """A step's `if:` (none: success())."""
        if text is None:
            return not self.failed
        expr = EXPR.sub(lambda m: m.group(1), str(text))
        expr = CONTEXT.sub(lambda m: repr(self.lookup(m.group(0))), expr)
        expr = expr.replace("always()", "True").replace("success()", f"{not self.failed}")
        expr = expr.replace("failure()", f"{self.failed}").replace("cancelled()", "False")
        expr = re.sub(r"!(?!=)", " not ", expr.replace("&&", " and ").replace("||", " or "))
        if re.search(r"[A-Za-z_]\w*\(", expr):
            raise ActionError(f"if: {text}: a function this runner does not know")
        ok = bool(eval(expr, {"__builtins__": {}}, {}))  # noqa: S307 (our own action.yml)
        # GitHub adds success() to a condition that names no status function.
        status_named = re.search(r"\b(always|success|failure|cancelled)\(", str(text))
        return ok if status_named else ok and not self.failed


def load(action: Path) -> dict:
    """The action's metadata, refused unless it is a composite action."""
    meta = yaml.safe_load(action.read_text(encoding="utf-8"))
    if meta.get("runs", {}).get("using") != "composite":
        raise ActionError(f"{action}: not a composite action (runs.using)")
    return meta


def inputs_of(meta: dict, given: dict[str, str]) -> dict[str, str]:
    """Every declared input: the given value or the default; unknown or missing ones refused."""
    declared = meta.get("inputs", {}) or {}
    unknown = sorted(set(given) - set(declared))
    if unknown:
        raise ActionError(f"inputs not declared in action.yml: {', '.join(unknown)}")
    values = {}
    for name, spec in declared.items():
        if name not in given and spec.get("required") and "default" not in spec:
            raise ActionError(f"input {name} is required")
        values[name] = str(given.get(name, spec.get("default", "")))
    return values


def read_outputs(path: Path) -> dict[str, str]:
    """The outputs a step wrote to GITHUB_OUTPUT: NAME=VALUE and NAME<<DELIM ... DELIM."""
    out, lines = {}, path.read_text(encoding="utf-8").splitlines() if path.exists() else []
    i = 0
    while i < len(lines):
        line = lines[i]
        if "<<" in line and ("=" not in line or line.index("<<") < line.index("=")):
            name, delim = line.split("<<", 1)
            end = lines.index(delim, i + 1)
            out[name] = "\n".join(lines[i + 1:end])
            i = end + 1
            continue
        name, _, value = line.partition("=")
        out[name] = value
        i += 1
    return out


def upload(job: Job, step: dict) -> bool:
    """actions/upload-artifact: `path` copied into ARTIFACTS/NAME; False where it is missing
    and the step asks for an error."""
    args = {k: job.substitute(v) for k, v in (step.get("with") or {}).items()}
    source, target = Path(args["path"]), job.artifacts / args.get("name", "artifact")
    if not source.exists():
        job.log.append(f"upload-artifact: no files at {source}")
        return args.get("if-no-files-found", "warn") != "error"
    if source.is_dir():
        shutil.copytree(source, target, dirs_exist_ok=True)
    else:
        target.mkdir(parents=True, exist_ok=True)
        shutil.copy2(source, target)
    job.log.append(f"upload-artifact: {source} -> {target}")
    return True


def cache(job: Job, step: dict, number: int) -> bool:
    """actions/cache: `path` restored from CACHE/KEY where it is there (cache-hit true), else
    marked to be saved there once the job passed; skipped where the job has no cache."""
    if job.cache is None:
        job.log.append(f"skipped: uses {step['uses']} (no --cache folder)")
        return True
    args = {k: job.substitute(v) for k, v in (step.get("with") or {}).items()}
    path, key = Path(args["path"]), args["key"]
    stored = job.cache / key
    hit = stored.is_dir()
    if hit:
        shutil.rmtree(path, ignore_errors=True)
        shutil.copytree(stored, path, symlinks=True)
    else:
        job.to_save.append((path, key))
    job.steps[step.get("id", f"step{number}")] = {"cache-hit": str(hit).lower()}
    job.log.append(f"cache: {key}: {'restored into ' + str(path) if hit else 'not found'}")
    return True


def save_caches(job: Job) -> None:
    """actions/cache's post step: each missed path saved under its key, once the job passed."""
    for path, key in job.to_save:
        if job.failed or not path.exists() or job.cache is None:
            continue
        shutil.copytree(path, job.cache / key, symlinks=True, dirs_exist_ok=True)
        job.log.append(f"cache: {key}: saved {path}")


def run_step(job: Job, step: dict, summary: Path, number: int) -> bool:
    """One `run:` step with bash in the workspace; True when it exits 0."""
    if step.get("shell") != "bash":
        raise ActionError(f"step {step.get('name')}: this runner runs `shell: bash` only")
    output = job.temp / f"output-{number}"
    output.write_text("")
    script = job.temp / f"step-{number}.sh"
    script.write_text(job.substitute(step["run"]) + "\n", encoding="utf-8")
    env = dict(os.environ, GITHUB_WORKSPACE=str(job.workspace), GITHUB_ACTIONS="true",
               GITHUB_ACTION_PATH=str(job.action_path), RUNNER_TEMP=str(job.temp),
               GITHUB_STEP_SUMMARY=str(summary), GITHUB_OUTPUT=str(output))
    env.update({k: job.substitute(v) for k, v in (step.get("env") or {}).items()})
    cwd = job.workspace / job.substitute(step.get("working-directory", "."))
    done = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)],
                          cwd=cwd, env=env, capture_output=True, text=True)
    job.log.append(done.stdout + done.stderr)
    job.steps[step.get("id", f"step{number}")] = read_outputs(output)
    return done.returncode == 0


def run_action(action_dir: Path, given: dict[str, str], workspace: Path,
               artifacts: Path, temp: Path,
               cache_dir: Path | None = None) -> tuple[Job, dict[str, str], Path]:
    """The action's steps in order: the job (failed or not, its log and times), its outputs
    and the step summary's file."""
    meta = load(action_dir / "action.yml")
    job = Job({}, action_dir, workspace, temp, artifacts, cache_dir)
    job.inputs = {k: job.substitute(v) for k, v in inputs_of(meta, given).items()}
    summary = temp / "step_summary.md"
    summary.write_text("")
    for number, step in enumerate(meta["runs"]["steps"]):
        name = step.get("name", step.get("uses", f"step {number}"))
        if not job.condition(step.get("if")):
            job.log.append(f"--- {name}: skipped")
            continue
        job.log.append(f"--- {name}")
        start = time.monotonic()
        if "uses" in step:
            if step["uses"].startswith("actions/upload-artifact@"):
                ok = upload(job, step)
            elif step["uses"].startswith("actions/cache@"):
                ok = cache(job, step, number)
            else:
                ok = True
                job.log.append(f"skipped: uses {step['uses']} (not run here)")
        else:
            ok = run_step(job, step, summary, number)
        job.times.append((name, time.monotonic() - start))
        job.log.append(f"--- {name}: {job.times[-1][1]:.1f} s")
        job.failed |= not ok
    save_caches(job)
    outputs = {k: job.substitute(v.get("value", "")) for k, v in (meta.get("outputs") or {}).items()}
    return job, outputs, summary


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--action", type=Path, default=ROOT, help="the folder of action.yml")
    p.add_argument("--workspace", type=Path, required=True, help="the checked-out project")
    p.add_argument("--input", action="append", default=[], metavar="NAME=VALUE")
    p.add_argument("--artifacts", type=Path, help="where uploaded artifacts go")
    p.add_argument("--cache", type=Path, help="actions/cache's store (none: its steps are skipped)")
    a = p.parse_args()
    given = dict(i.split("=", 1) for i in a.input)
    temp = Path(tempfile.mkdtemp(prefix="action-local-"))
    artifacts = a.artifacts or temp / "artifacts"
    try:
        job, outputs, summary = run_action(a.action.resolve(), given, a.workspace.resolve(),
                                           artifacts, temp, a.cache and a.cache.resolve())
    except ActionError as e:
        print(f"action_local: {e}", file=sys.stderr)
        return 2
    print("\n".join(job.log))
    for k, v in outputs.items():
        print(f"output {k}: {v}")
    print(f"summary: {summary}\nartifacts: {artifacts}\njob: {'failed' if job.failed else 'passed'}")
    return 1 if job.failed else 0


if __name__ == "__main__":
    sys.exit(main())
