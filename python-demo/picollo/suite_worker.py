"""A pytest run as a worker of another run's ``--picollo-against`` (the suite runner starts
it, with ``--picollo-worker`` last): it runs the tests that use the ``benchmark`` fixture,
each once, then answers the runner's requests on its standard input and output with the
suite they registered (`picollo.pytest_plugin`). The tests' own output goes to the standard
error.

Before pytest imports the tests, a worker puts a drawn count of small objects into each of
CPython's small-object size classes, and one block of a drawn size on the C heap, kept for
the process's life (`place_heap`): every worker of one checkout imports the same modules in
the same order, so without the draw each of them puts a benchmark's code object, its
bytecode and what it allocates at the same offsets within their pages, and the processes
(the unit a verdict samples) would share that placement instead of sampling it.

    python -m picollo.suite_worker [PYTEST ARGS...] --picollo-worker
"""

from __future__ import annotations

import os
import random
import sys
from typing import Optional, Sequence

from .suite import WORKER_FLAG, Suite

#: The runner's requests and replies: this process's standard input and output as they were
#: before pytest ran (its capture replaces both).
_channel: Optional[tuple[int, int]] = None

#: The variable that fixes the heap's draw: ``off`` (no draw) or an integer, the seed every
#: worker then draws from alike (a test's way to compare placements). Unset, each worker
#: draws afresh.
HEAP_PAD_ENV = "PICOLLO_SUITE_HEAP_PAD"

#: What `place_heap` allocated, kept alive: freed, the next objects would take its place.
_placed: list[object] = []

#: CPython's small-object allocator serves requests up to 512 bytes in classes 16 bytes
#: apart; a float takes the 32-byte class, a bytes object of ``n`` bytes ``n + 33``.
_CLASSES = range(32, 513, 16)
_BYTES_OVERHEAD = 33


def place_heap(setting: Optional[str] = None) -> int:
    """Draw this process's heap placement (see the module): 0 to 255 objects in each small
    size class, and one C-heap block of 0 to 64 KiB. ``setting`` is `HEAP_PAD_ENV`'s value
    (read from the environment where not given); the count of objects placed is returned.
    A value neither ``off`` nor an integer raises ``ValueError``."""
    given = os.environ.get(HEAP_PAD_ENV, "") if setting is None else setting
    if given.strip() == "off":
        return 0
    try:
        seed = int(given) if given.strip() else int.from_bytes(os.urandom(8), "little")
    except ValueError:
        raise ValueError(f"{HEAP_PAD_ENV}={given!r}: off or an integer seed") from None
    draw = random.Random(seed)
    before = len(_placed)
    for size in _CLASSES:
        count = draw.randrange(256)
        if size == 32:
            _placed.extend(k + 0.5 for k in range(count))
        else:
            _placed.extend(bytes(size - _BYTES_OVERHEAD) for _ in range(count))
    # Larger objects come from the C heap: blocks of drawn sizes take its free chunks in a
    # drawn order, and the last one moves its top.
    _placed.extend(bytes(draw.randrange(513, 4096)) for _ in range(draw.randrange(64)))
    _placed.append(bytearray(draw.randrange(64 * 1024)))
    return len(_placed) - before


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run the tests of ``argv`` (pytest's arguments and the worker flag), then serve."""
    import pytest

    global _channel
    args = list(sys.argv[1:] if argv is None else argv)
    if WORKER_FLAG not in args:
        print(f"picollo.suite_worker: the suite runner starts it, with {WORKER_FLAG} "
              "(pytest --picollo-against CHECKOUT)", file=sys.stderr)
        return 2
    place_heap()
    sys.stdout.flush()
    _channel = (os.dup(0), os.dup(1))
    os.dup2(2, 1)
    return int(pytest.main([*args, "-q", "-p", "no:cacheprovider",
                            "-p", "picollo.pytest_plugin"]))


def serve(suite: Suite) -> int:
    """Answer the runner's requests with ``suite`` (the plugin calls it once the tests ran)."""
    if _channel is None:
        raise RuntimeError(f"{WORKER_FLAG}: started by the suite runner as "
                           "python -m picollo.suite_worker, not by pytest itself")
    sys.stdout.flush()
    saved = (os.dup(0), os.dup(1))
    try:
        os.dup2(_channel[0], 0)
        os.dup2(_channel[1], 1)
        return suite.main([WORKER_FLAG])
    finally:
        os.dup2(saved[0], 0)
        os.dup2(saved[1], 1)
        os.close(saved[0])
        os.close(saved[1])


if __name__ == "__main__":
    # As `picollo.suite_worker`, not `__main__`: the plugin reads this module's channel.
    from picollo.suite_worker import main as _main

    sys.exit(_main())
