"""The heap placement a ``--picollo-against`` worker draws before pytest imports the tests
(`picollo.suite_worker.place_heap`): a function's code object compiled after it lands at
an offset within its page that the draw moves from process to process, the same in every
process given one seed, and the same in every process without the draw (the placement the
workers of one checkout would otherwise share). Each probe is a fresh interpreter with
``PYTHONHASHSEED=0``, so that nothing but the draw varies between them."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from picollo import suite_worker

PROBE = """
from picollo.suite_worker import place_heap
place_heap()
source = "def spin(n):\\n    t = 0\\n    for i in range(n):\\n        t += i\\n    return t\\n"
codes = [compile(source, f"w{k}", "exec").co_consts[0] for k in range(8)]
print(",".join(str(id(c) % 4096) for c in codes))
"""


def offset(setting: str | None) -> str:
    """The page offsets of eight code objects compiled after the draw, in a fresh process
    (one of them may take a block freed at a fixed place: the others follow the draw)."""
    env = dict(os.environ, PYTHONHASHSEED="0",
               PYTHONPATH=os.pathsep.join([str(Path(suite_worker.__file__).parents[1]),
                                           os.environ.get("PYTHONPATH", "")]))
    env.pop(suite_worker.HEAP_PAD_ENV, None)
    if setting is not None:
        env[suite_worker.HEAP_PAD_ENV] = setting
    done = subprocess.run([sys.executable, "-c", PROBE], env=env, capture_output=True,
                          text=True, timeout=60, check=True)
    return done.stdout.split()[-1]


def test_without_the_draw_every_process_places_alike() -> None:
    # The premise: the placement is the checkout's, shared by its workers.
    assert len({offset("off") for _ in range(4)}) == 1


def test_one_seed_places_alike_and_drawn_processes_differ() -> None:
    assert len({offset("12345") for _ in range(3)}) == 1
    drawn = [offset(None) for _ in range(8)]
    # Code objects of 240 bytes, each at one of many offsets a page: 8 drawn processes all
    # alike would take a draw of odds far below 1e-4.
    assert len(set(drawn)) >= 2, drawn


def test_a_bad_setting_is_refused_with_the_variable() -> None:
    with pytest.raises(ValueError, match=suite_worker.HEAP_PAD_ENV):
        suite_worker.place_heap("sometimes")
    assert suite_worker.place_heap("off") == 0
