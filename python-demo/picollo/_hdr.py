"""HdrHistogram interop for `Histogram`: the V2 encoding every HdrHistogram port reads and
writes (plain, compressed, base64), and the .hgrm percentile distribution.

`HdrInterop` is a mixin only to keep `histogram.py` to one idea per file: it needs nothing
of its host but ``_ptr`` (the live handle, `ClosedError` once closed) and ``_adopt`` (a
histogram for a handle the library made).
"""

from __future__ import annotations

import ctypes
from typing import Any, Optional, TypeVar, Union

from . import _native as n
from ._convert import real, u32
from ._errors import Status, check, error_for
from ._text import fetch_text

T = TypeVar("T", bound="HdrInterop")


def _form_code(form: Any) -> int:
    if isinstance(form, str):
        try:
            return n.V2Form[form.upper()]
        except KeyError:
            pass
    elif not isinstance(form, bool) and isinstance(form, int):
        try:
            return n.V2Form(form)
        except ValueError:
            pass
    raise ValueError(f"form {form!r} is not one of plain, compressed, base64")


def _blob(data: Any) -> tuple[bytes, Any]:
    """``(bytes, uint8_t pointer to them)`` for a V2 blob or its base64 text; the caller
    keeps the bytes alive for the call."""
    if isinstance(data, str):
        raw = data.encode("utf-8")  # base64 is ASCII; anything else is the library's to refuse
    elif isinstance(data, bytes):
        raw = data
    else:
        try:
            raw = memoryview(data).tobytes()
        except TypeError:
            raise TypeError(f"expected V2 bytes or base64 text, not {type(data).__name__}") from None
    return raw, ctypes.cast(ctypes.c_char_p(raw), n.c_uint8_p)


class HdrInterop:
    """HdrHistogram's V2 encoding and .hgrm text, for `Histogram`."""

    _ptr: Any  # the host's live handle
    _adopt: Any  # the host's classmethod: a histogram for a handle the library made

    def encode(self, level: Optional[int] = None) -> str:
        """The histogram as HdrHistogram writes it with ``encode()``: base64 text of the
        compressed V2 form (``"HISTFAAA…"``), which every HdrHistogram port decodes.

        Each bucket's count lands in the HdrHistogram bucket holding its midpoint, at the
        nearest layout with 1 to 5 significant digits at least as fine as this one (the same
        buckets when ``relative_error`` is 2**-5, 2**-8, 2**-11, 2**-15 or 2**-18), so
        decoding back into this configuration puts every count where it was. Underflow and
        overflow become counts just below and above the range. `UnencodableError` when
        something has no place in V2: saturated counts, a count or a value above
        ``2**63 - 1``. ``level``: the deflate level, as `encode_v2` takes it."""
        return self.encode_v2("base64", level).decode("ascii")

    def encode_v2(self, form: Union[str, int] = "compressed",
                  level: Optional[int] = None) -> bytes:
        """The V2 encoding as bytes: ``"compressed"`` (zlib, cookie 0x1c849314, what
        HdrHistogram's ``encodeIntoCompressedByteBuffer`` writes), ``"plain"`` (cookie
        0x1c849313) or ``"base64"`` (the ASCII of `encode`). See `encode` for the rules.

        ``level`` is the zlib level of the compressed forms: 0 (stored) to 9 (smallest), or 10
        (miniz's slower extra); None is 1, fast and a few percent larger than 6 (zlib's and
        HdrHistogram's default). Every level decodes alike; ``"plain"`` ignores it.
        ValueError (`InvalidArgumentError`) for a level outside 0..10."""
        h, code = self._ptr, _form_code(form)
        if level is None:  # the library's default level
            def encode(*args: Any) -> int:
                return n.lib.picollo_histogram_encode_v2(h, code, *args)
        else:
            deflate = u32(level, "level")  # which levels exist is the library's to say

            def encode(*args: Any) -> int:
                return n.lib.picollo_histogram_encode_v2_level(h, code, deflate, *args)
        needed = ctypes.c_size_t(0)
        status = encode(None, 0, ctypes.byref(needed))
        while True:
            if status not in (Status.OK, Status.BUFFER_TOO_SMALL):
                raise error_for(status)
            if status == Status.OK and needed.value == 0:
                return b""
            # base64 is text: the library adds a NUL after it
            size = needed.value + (1 if code == n.V2Form.BASE64 else 0)
            buf = (ctypes.c_uint8 * size)()
            status = encode(buf, size, ctypes.byref(needed))
            if status == Status.OK:
                return ctypes.string_at(buf, needed.value)
            if status == Status.BUFFER_TOO_SMALL and needed.value < size:
                raise error_for(status)  # the library contradicts itself: do not loop

    @classmethod
    def decode(cls: type[T], data: Union[str, bytes]) -> T:
        """A histogram from HdrHistogram's V2 encoding: compressed or plain bytes, or the
        base64 text of either (str or bytes; surrounding whitespace is ignored), as any
        HdrHistogram port writes it. The result counts in 64 bits, single-writer mode, with
        the blob's layout (its significant digits: 3 digits is ``relative_error`` 2**-11; its
        lowest discernible value L: `unit` ``2**floor(log2(L))``).
        `FormatError` (a ValueError) when ``data`` is not V2."""
        raw, ptr = _blob(data)
        out = n.HistogramP()
        check(n.lib.picollo_histogram_decode_v2(ptr, len(raw), ctypes.byref(out)))
        return cls._adopt(out)

    def add_encoded(self: T, data: Union[str, bytes]) -> T:
        """Add the counts of a V2 blob (any form `decode` reads) into this histogram,
        re-binned into its buckets; on an error nothing changes. Returns self."""
        h = self._ptr
        raw, ptr = _blob(data)
        check(n.lib.picollo_histogram_add_v2(h, ptr, len(raw)))
        return self

    def to_hgrm(self, ticks: int = 5, unit_ratio: float = 1.0, csv: bool = False) -> str:
        """HdrHistogram's percentile distribution (``outputPercentileDistribution``, the
        ``.hgrm`` text its plotters read): ``ticks`` (1 to 10,000) rows per half of the
        distance left to 100 %, values divided by ``unit_ratio`` (1000 shows ns as µs), CSV
        when ``csv``. For HdrHistogram's layouts (see `encode`) the text is HdrHistogram's."""
        h = self._ptr
        t, r = u32(ticks, "ticks"), real(unit_ratio, "unit_ratio")
        c = 1 if csv else 0
        return fetch_text(lambda buf, size, needed: n.lib.picollo_histogram_hgrm(
            h, t, r, c, buf, size, needed))
