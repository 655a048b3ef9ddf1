#!/usr/bin/env python3
"""The getting-started of the Picollo announcement, from Python.

Records 1,000,000 values of a first distribution (relative error 1 %, u32 counters,
range 10,000..30,000) plus one value out of range, prints P99 and the Markdown table,
then resets, records 2,000,000 values of a second distribution and prints the diff
table. Writes a percentile plot of both distributions (HdrHistogram-style log axis).

    python3 python-demo/demo.py [--plot python-demo/out/percentiles.png] [--seed 0]
"""

from __future__ import annotations

import argparse
import sys
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import picollo  # noqa: E402

HERE = Path(__file__).resolve().parent

# Plot ranks: 1 - 10^-k for k in 0..6, dense enough for a smooth curve.
PLOT_NINES = 6
PLOT_RANKS = 100.0 * (1.0 - 10.0 ** -np.linspace(0.0, PLOT_NINES, 400))


def first_distribution(rng: np.random.Generator, n: int) -> np.ndarray:
    """``20000 + (ulong)((0.5 - r)·1000 + r'²·5000)``: two draws per value as in the
    original, whose cast to an unsigned integer turns negative deviations into 0."""
    r = rng.random((2, n))
    deviation = (0.5 - r[0]) * 1000.0 + r[1] ** 2 * 5000.0
    return 20_000 + np.maximum(deviation, 0.0).astype(np.uint64)


def second_distribution(rng: np.random.Generator, n: int) -> np.ndarray:
    """``19000 + (ulong)((0.5 - r)·500 + r'³·10000)``, negatives clamped to 0 likewise."""
    r = rng.random((2, n))
    deviation = (0.5 - r[0]) * 500.0 + r[1] ** 3 * 10_000.0
    return 19_000 + np.maximum(deviation, 0.0).astype(np.uint64)


def plot_percentiles(path: Path, curves: dict[str, tuple[np.ndarray, list[int]]],
                     precision: float) -> None:
    """Value against percentile, with x = 1 / (1 - p) on a log axis as HdrHistogram's
    plotter draws it: each decade to the right is one more nine."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import FixedLocator, FuncFormatter, NullLocator

    fig, ax = plt.subplots(figsize=(9, 5.5), dpi=120)
    for name, (ranks, values) in curves.items():
        x = 1.0 / (1.0 - ranks / 100.0)
        ax.plot(x, values, drawstyle="steps-post", linewidth=1.8, label=name)
    ax.set_xscale("log")
    ticks = [10.0**k for k in range(PLOT_NINES)]
    labels = ["0%", "90%", "99%", "99.9%", "99.99%", "99.999%"]
    ax.xaxis.set_major_locator(FixedLocator(ticks))
    ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: labels[ticks.index(v)]
                                               if v in ticks else ""))
    ax.xaxis.set_minor_locator(NullLocator())
    ax.set_xlim(1.0, 10.0**PLOT_NINES)
    ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:,.0f}"))
    ax.set_xlabel("Percentile")
    ax.set_ylabel("Value")
    # Round half up as the library's tables do (0.0078125 reads 0.7813 %, not 0.7812 %).
    shown = Decimal(repr(precision * 100)).quantize(Decimal("0.0001"), ROUND_HALF_UP)
    ax.set_title(f"Getting started: percentile distribution (precision {shown}%)")
    ax.grid(True, which="major", linestyle=":", linewidth=0.8)
    ax.legend(loc="upper left")
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path)
    plt.close(fig)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plot", type=Path, default=HERE / "out" / "percentiles.png",
                        help="where to write the PNG percentile plot")
    parser.add_argument("--seed", type=int, default=0, help="numpy random seed")
    args = parser.parse_args(argv)
    rng = np.random.default_rng(args.seed)

    with picollo.Histogram(relative_error=0.01, counter_bits=32,
                           min=10_000, max=30_000) as h:
        h.record_many(first_distribution(rng, 1_000_000))
        h.record(40_000)  # outside the range: counted as overflow

        # Ranks 0, 1, 5, 10, 25, 50, 75, 90, 92.5, 95, 97.5, 99, 99.9, 99.99, 99.999, 100,
        # plus totals, mean and stdev; each percentile carries its bucket.
        before = h.summary()
        print(f"P99: {before.p(99)}")
        before_curve = h.percentile_values(PLOT_RANKS)

        h.reset()
        h.record_many(second_distribution(rng, 2_000_000))
        after = h.summary()
        after_curve = h.percentile_values(PLOT_RANKS)
        precision = h.precision

    print(before.table("Histogram Before"))
    print(before.diff(after, "Getting Started Diff", "Before", "After"))

    plot_percentiles(args.plot, {"Before": (PLOT_RANKS, before_curve),
                                 "After": (PLOT_RANKS, after_curve)}, precision)
    print(f"Percentile plot written to {args.plot}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
