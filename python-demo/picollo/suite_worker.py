"""A pytest run as a worker of another run's ``--picollo-against`` (the suite runner starts
it, with ``--picollo-worker`` last): it runs the tests that use the ``benchmark`` fixture,
each once, then answers the runner's requests on its standard input and output with the
suite they registered (`picollo.pytest_plugin`). The tests' own output goes to the standard
error.

    python -m picollo.suite_worker [PYTEST ARGS...] --picollo-worker
"""

from __future__ import annotations

import os
import sys
from typing import Optional, Sequence

from .suite import WORKER_FLAG, Suite

#: The runner's requests and replies: this process's standard input and output as they were
#: before pytest ran (its capture replaces both).
_channel: Optional[tuple[int, int]] = None


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run the tests of ``argv`` (pytest's arguments and the worker flag), then serve."""
    import pytest

    global _channel
    args = list(sys.argv[1:] if argv is None else argv)
    if WORKER_FLAG not in args:
        print(f"picollo.suite_worker: the suite runner starts it, with {WORKER_FLAG} "
              "(pytest --picollo-against CHECKOUT)", file=sys.stderr)
        return 2
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
