"""Finding the library: $PICOLLO_LIB, then ../target/release, then the system path."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from picollo import _native

PYTHON_DEMO = Path(__file__).resolve().parent.parent


def run(env_lib: str | None) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "PICOLLO_LIB"}
    if env_lib is not None:
        env["PICOLLO_LIB"] = env_lib
    code = "import picollo; h = picollo.Histogram(); h.record(5); print(h.total, picollo._native.lib._name)"
    return subprocess.run([sys.executable, "-c", code], cwd=PYTHON_DEMO, env=env,
                          capture_output=True, text=True, timeout=60)


def test_workspace_build_is_found_without_env():
    built = PYTHON_DEMO.parent / "target" / "release" / "libpicollo.so"
    if not built.exists():
        pytest.skip("no workspace build in ../target (CARGO_TARGET_DIR elsewhere?)")
    r = run(None)
    assert r.returncode == 0, r.stderr
    total, path = r.stdout.split()
    assert total == "1"
    assert Path(path).resolve() == built.resolve()


def test_env_variable_wins_and_a_bad_one_fails_clearly():
    lib = _native.library_candidates()[0]
    r = run(lib)
    assert r.returncode == 0 and r.stdout.split()[1] == lib
    r = run("/nonexistent/libpicollo.so")
    assert r.returncode != 0
    assert "ImportError" in r.stderr and "PICOLLO_LIB='/nonexistent/libpicollo.so'" in r.stderr
