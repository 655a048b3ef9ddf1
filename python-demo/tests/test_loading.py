"""Finding the library: $PICOLLO_LIB, then the copy an installed wheel bundles, then
../target/release (a checkout), then the system path.

Each case imports the package under test (the one conftest imported) in a child process,
run from a scratch directory so that no source tree is on its sys.path.
"""

from __future__ import annotations

import os
import shutil
import site
import subprocess
import sys
from pathlib import Path

import pytest

import picollo
from picollo import _native

PYTHON_DEMO = Path(__file__).resolve().parent.parent
PACKAGE = Path(picollo.__file__).resolve().parent
# run_tests.sh sets it when the package under test is the wheel it built and installed.
INSTALLED = os.environ.get("PICOLLO_TEST_INSTALLED") == "1"


def run(env_lib: str | None, cwd: Path) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "PICOLLO_LIB"}
    env["PYTHONPATH"] = str(PACKAGE.parent)
    if env_lib is not None:
        env["PICOLLO_LIB"] = env_lib
    code = ("import picollo; h = picollo.Histogram(); h.record(5); "
            "print(h.summary().p99.value, picollo.__file__, picollo._native.lib._name)")
    return subprocess.run([sys.executable, "-c", code], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=60)


def loaded(r: subprocess.CompletedProcess) -> tuple[str, Path, Path]:
    assert r.returncode == 0, r.stderr
    p99, package, lib = r.stdout.split()
    return p99, Path(package).resolve().parent, Path(lib).resolve()


@pytest.mark.skipif(not INSTALLED, reason="needs the installed wheel (run_tests.sh sets "
                    "PICOLLO_TEST_INSTALLED=1 after installing it into a fresh venv)")
def test_the_installed_package_loads_the_library_it_bundles(tmp_path):
    site_packages = [Path(p).resolve() for p in site.getsitepackages()]
    assert PACKAGE.parent in site_packages, f"{PACKAGE} is not in {site_packages}"
    bundled = _native.bundled_library()
    assert bundled is not None and bundled.parent == PACKAGE, list(PACKAGE.iterdir())
    assert "PICOLLO_LIB" not in os.environ
    assert Path(_native.lib._name).resolve() == bundled
    p99, package, lib = loaded(run(None, tmp_path))
    assert (p99, package, lib) == ("5", PACKAGE, bundled)


def test_workspace_build_is_found_without_env(tmp_path):
    if _native.bundled_library() is not None:
        pytest.skip("this package bundles its library, which comes before the workspace build")
    built = PYTHON_DEMO.parent / "target" / "release" / "libpicollo.so"
    if not built.exists():
        pytest.skip("no workspace build in ../target (CARGO_TARGET_DIR elsewhere?)")
    p99, package, lib = loaded(run(None, tmp_path))
    assert (p99, package, lib) == ("5", PACKAGE, built.resolve())


def test_env_variable_wins_and_a_bad_one_fails_clearly(tmp_path):
    # A copy under another name, so that loading it can only come from PICOLLO_LIB.
    copy = tmp_path / "libpicollo-override.so"
    shutil.copy(_native.lib._name, copy)
    p99, package, lib = loaded(run(str(copy), tmp_path))
    assert (p99, package, lib) == ("5", PACKAGE, copy.resolve())
    r = run("/nonexistent/libpicollo.so", tmp_path)
    assert r.returncode != 0
    assert "ImportError" in r.stderr and "PICOLLO_LIB='/nonexistent/libpicollo.so'" in r.stderr
