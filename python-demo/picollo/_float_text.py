"""The one-line summary of a float summary, written here because the ABI has no
``picollo_float_summary_line``: a port of the library's ``FloatSummary::write_line``
(core/src/format/float.rs) and the number formats it uses. Only the text of a
`FloatSummary` needs it (a snapshot's, say): `FloatHistogram.line` asks the library.
tests/test_float_text.py holds the two to the same text.
"""

from __future__ import annotations

import math
import struct

#: `core::f64::consts::LN_2` and `LOG10_2`, as the library spells them.
_LN_2 = float("0.693147180559945309417232121458176568")
_LOG10_2 = float("0.301029995663981195213738894724493027")
_SQRT_2 = float("1.41421356237309504880168872420969808")

#: The counts outside the quantiles, with their labels (`outside_rows`).
_OUTSIDE = (("NaN", "nan"), ("+Infinity", "positive_infinity"),
            ("-Infinity", "negative_infinity"), ("Underflow", "underflow"),
            ("Overflow", "overflow"), ("Saturated", "saturated"))

#: Where the line's percentiles sit among the 16 standard ranks: P50, P90, P99, P99.9.
_LINE_PERCENTILES = (5, 7, 11, 12)


def _bits(x: float) -> int:
    return struct.unpack("<Q", struct.pack("<d", x))[0]


def _from_bits(b: int) -> float:
    return struct.unpack("<d", struct.pack("<Q", b))[0]


def _log2(x: float) -> float:
    """`fmath::log2`, step for step, so a value near a power of ten gets the library's
    digit count (``math.log10`` may land on the other side of the integer)."""
    e = 0
    if x < 2.2250738585072014e-308:
        x *= _from_bits((1023 + 64) << 52)
        e -= 64
    bits = _bits(x)
    e += ((bits >> 52) & 0x7FF) - 1023
    m = _from_bits((bits & ((1 << 52) - 1)) | (1023 << 52))
    if m > _SQRT_2:
        m /= 2.0
        e += 1
    t = (m - 1.0) / (m + 1.0)
    t2 = t * t
    term, total = t, 0.0
    for k in range(14):
        total += term / float(2 * k + 1)
        term *= t2
    return float(e) + 2.0 * total / _LN_2


def _digits_for(precision: float) -> int:
    """Significant digits that show a value to the layout's resolution."""
    if math.isnan(precision) or precision <= 0.0:
        return 6
    log = _log2(1.0 / precision) * _LOG10_2
    t = int(log)
    return min(max((t + 1 if t < log else t) + 1, 3), 17)


def _grouped_f64(v: float, decimals: int) -> str:
    """`GroupedF64`: thousands separators, fixed decimals, no sign on an all-zero text."""
    s = f"{abs(v):.{decimals}f}"
    whole, dot, frac = s.partition(".")
    sign = "-" if v < 0.0 and any(c in "123456789" for c in s) else ""
    return f"{sign}{int(whole):,}{dot}{frac}"


def _significant(v: float, digits: int) -> str:
    """`Significant`: grouped decimals from 0.001 to 10^15, scientific notation outside
    (Rust's: ``1.2346e-9``, no exponent padding or plus sign)."""
    if v == 0.0:
        return "0"
    if math.isnan(v):
        return "NaN"
    if math.isinf(v):
        return "+∞" if v > 0 else "-∞"
    magnitude = abs(v)
    if 1e-3 <= magnitude < 1e15:
        log = _log2(magnitude) * _LOG10_2
        t = int(log)
        floor = t - (1 if float(t) > log else 0)
        decimals = min(max(digits - (floor + 1), 0), 17)
        return _grouped_f64(v, decimals)
    mantissa, _, exponent = f"{v:.{max(digits - 1, 0)}e}".partition("e")
    return f"{mantissa}e{int(exponent)}"


def _rank(rank: float) -> str:
    """`Rank` for the standard ranks: four decimals at most, trailing zeros trimmed."""
    text = f"{rank:.4f}".rstrip("0").rstrip(".")
    return text or "0"


def summary_line(summary, name: str) -> str:
    """``name: Total=…, Mean=…, Min=…, P50=…, P90=…, P99=…, P99.9=…, Max=…`` and the
    counts outside the quantiles that are not zero (the library's ``write_line``)."""
    digits = _digits_for(summary.precision)
    out = [f"{name}: " if name else "", f"Total={summary.total:,}"]
    if summary.total == 0:
        return "".join(out)

    def sig(v: float | None) -> str:
        return _significant(math.nan if v is None else v, digits)

    out.append(f", Mean={sig(summary.mean)}, Min={sig(summary.min)}")
    for k in _LINE_PERCENTILES:
        p = summary.percentiles[k]
        out.append(f", P{_rank(p.rank)}={sig(p.value)}")
    out.append(f", Max={sig(summary.max)}")
    for label, field in _OUTSIDE:
        count = getattr(summary, field)
        if count:
            out.append(f", {label}={count:,}")
    return "".join(out)
