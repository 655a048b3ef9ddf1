"""scripts/check_bindings.py: the bindings match include/picollo.h, and drift is reported.

Each drift test edits a copy of one file (the header, the C# binding or the ctypes tables)
and runs the checker on the copies; nothing here loads libpicollo.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHECKER = ROOT / "scripts" / "check_bindings.py"
PY_ABI = ("_abi.py", "_perf_abi.py")
CS_BINDING = ("Picollo.cs", "PicolloApprox.cs", "PicolloPerf.cs", "PicolloHdr.cs", "PicolloMetrics.cs")


def run_checker(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(CHECKER), *args],
                          capture_output=True, text=True, timeout=60)


@pytest.fixture
def copies(tmp_path: Path) -> dict[str, Path]:
    """Copies of the header, the ctypes ABI modules and the C# binding files."""
    (tmp_path / "py").mkdir()
    (tmp_path / "cs").mkdir()
    shutil.copy(ROOT / "include" / "picollo.h", tmp_path / "picollo.h")
    for name in PY_ABI:
        shutil.copy(ROOT / "python-demo" / "picollo" / name, tmp_path / "py" / name)
    for name in CS_BINDING:
        shutil.copy(ROOT / "dotnet" / "Picollo" / name, tmp_path / "cs" / name)
    return {"header": tmp_path / "picollo.h", "py": tmp_path / "py", "cs": tmp_path / "cs"}


def check_copies(copies: dict[str, Path]) -> subprocess.CompletedProcess:
    return run_checker("--header", str(copies["header"]), "--python", str(copies["py"]),
                       "--csharp", str(copies["cs"]))


def replace_once(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{old!r} is not in {path.name} exactly once"
    path.write_text(text.replace(old, new), encoding="utf-8")


def test_the_bindings_match_the_header():
    result = run_checker()
    assert result.returncode == 0, result.stderr
    assert "Python binding" in result.stdout and "C# binding" in result.stdout


def test_the_unchanged_copies_match(copies):
    result = check_copies(copies)
    assert result.returncode == 0, result.stderr


def replace_in_struct(path: Path, struct: str, old: str, new: str) -> None:
    """Replace ``old`` once inside ``typedef struct <struct> { ... }`` (the field names of
    two structs may be the same: picollo_summary's and picollo_float_summary's mean)."""
    text = path.read_text(encoding="utf-8")
    found = re.search(r"typedef struct %s \{.*?\n\} %s;" % (struct, struct), text, re.S)
    assert found, f"no struct {struct} in {path.name}"
    body = found.group(0)
    assert body.count(old) == 1, f"{old!r} is not in {struct} exactly once"
    path.write_text(text[: found.start()] + body.replace(old, new) + text[found.end():],
                    encoding="utf-8")


def test_a_field_type_changed_in_the_header_is_reported_for_both_bindings(copies):
    replace_in_struct(copies["header"], "picollo_summary", "  double mean;", "  uint64_t mean;")
    result = check_copies(copies)
    assert result.returncode == 1
    assert ("Python picollo_summary field 6 of 10 is `mean: c_double` "
            "but the header has `uint64_t mean`") in result.stderr
    assert "C# SummaryData (picollo_summary) field 21 of 25 is `double Mean`" in result.stderr


def test_a_float_struct_or_signature_drift_is_reported_for_python(copies):
    replace_in_struct(copies["header"], "picollo_float_bucket", "  double value;",
                      "  float value;")
    replace_once(copies["py"] / "_abi.py",
                 '"picollo_float_histogram_record": (None, [FloatHistogramP, c_double]),',
                 '"picollo_float_histogram_record": (None, [FloatHistogramP, c_float]),')
    result = run_checker("--header", str(copies["header"]), "--python", str(copies["py"]))
    assert result.returncode == 1
    assert ("Python picollo_float_bucket field 3 of 6 is `value: c_double` "
            "but the header has `float value`") in result.stderr
    assert ("Python FLOAT_SIGNATURES['picollo_float_histogram_record'] parameter 2 of 2 is "
            "`c_float` but the header has `double value`") in result.stderr


def test_a_new_status_code_is_reported_for_both_bindings(copies):
    replace_once(copies["header"], "  PICOLLO_STATUS_UNENCODABLE = 16,",
                 "  PICOLLO_STATUS_UNENCODABLE = 16,\n  PICOLLO_STATUS_TIMED_OUT = 17,")
    result = check_copies(copies)
    assert result.returncode == 1
    assert "Python Status lacks the header's `PICOLLO_STATUS_TIMED_OUT = 17`" in result.stderr
    assert "C# Status (picollo_status) lacks the header's `PICOLLO_STATUS_TIMED_OUT = 17`" in result.stderr


def test_two_swapped_csharp_fields_are_reported(copies):
    cs = copies["cs"] / "Picollo.cs"
    text = cs.read_text(encoding="utf-8")
    swapped = re.sub(r"(public ulong Underflow;)(\s+)(public ulong Overflow;)", r"\3\2\1", text, count=1)
    assert swapped != text
    cs.write_text(swapped, encoding="utf-8")
    result = run_checker("--header", str(copies["header"]), "--csharp", str(copies["cs"]))
    assert result.returncode == 1
    assert ("C# HistogramInfo (picollo_histogram_info) field 2 of 14 is `ulong Overflow` "
            "but the header has `uint64_t underflow`") in result.stderr
    assert "field 3 of 14 is `ulong Underflow`" in result.stderr


def test_a_wrong_python_argtype_is_reported(copies):
    replace_once(copies["py"] / "_abi.py", '"picollo_histogram_record": (None, [HistogramP, c_uint64]),',
                 '"picollo_histogram_record": (None, [HistogramP, c_uint32]),')
    result = run_checker("--header", str(copies["header"]), "--python", str(copies["py"]))
    assert result.returncode == 1
    assert ("Python SIGNATURES['picollo_histogram_record'] parameter 2 of 2 is `c_uint` "
            "but the header has `uint64_t value`") in result.stderr


def test_a_changed_signature_in_the_header_is_reported_for_both_bindings(copies):
    header = copies["header"]
    text = header.read_text(encoding="utf-8")
    changed = re.sub(r"(picollo_perf_session_add_software\(struct picollo_perf_session \*s,)\s*uint32_t id\);",
                     r"\1 uint64_t id, uint32_t flags);", text)
    assert changed != text
    header.write_text(changed, encoding="utf-8")
    result = check_copies(copies)
    assert result.returncode == 1
    assert "Python PERF_SIGNATURES['picollo_perf_session_add_software'] takes 2 parameters" in result.stderr
    assert "C# picollo_perf_session_add_software takes 2 parameters" in result.stderr


def test_a_function_missing_from_the_header_is_reported(copies):
    header = copies["header"]
    text = header.read_text(encoding="utf-8")
    header.write_text(re.sub(r"uint64_t picollo_add_chain\(uint64_t blocks\);", "", text), encoding="utf-8")
    result = check_copies(copies)
    assert result.returncode == 1
    assert "declares picollo_add_chain, which the header does not have" in result.stderr


def test_line_comments_in_the_header_read_like_doc_blocks(copies):
    """cbindgen's `documentation_style = "c99"` writes `//` lines instead of `/** */`."""
    header = copies["header"]
    text = header.read_text(encoding="utf-8")

    def as_lines(m: re.Match) -> str:
        lines = [line.strip().lstrip("*").strip() for line in m.group(0)[3:-2].splitlines()]
        return "\n".join(f"// {line}" for line in lines if line)

    header.write_text(re.sub(r"/\*\*.*?\*/", as_lines, text, flags=re.S), encoding="utf-8")
    assert "/**" not in header.read_text(encoding="utf-8")
    result = check_copies(copies)
    assert result.returncode == 0, result.stderr


def test_a_csharp_bool_without_a_one_byte_marshal_is_reported(copies):
    """C's bool is one byte: a C# bool parameter stands for it only when marshalled as one
    (a bare C# bool marshals as a 4-byte BOOL)."""
    replace_once(copies["header"], "uint32_t csv,", "bool csv,")
    cs = copies["cs"] / "PicolloHdr.cs"
    replace_once(cs, "double unitRatio, uint csv,", "double unitRatio, [MarshalAs(UnmanagedType.U1)] bool csv,")
    result = run_checker("--header", str(copies["header"]), "--csharp", str(copies["cs"]))
    assert result.returncode == 0, result.stderr
    replace_once(cs, "[MarshalAs(UnmanagedType.U1)] bool csv", "bool csv")
    result = run_checker("--header", str(copies["header"]), "--csharp", str(copies["cs"]))
    assert result.returncode == 1
    assert ("C# picollo_histogram_hgrm parameter 4 of 7 is `bool csv (without "
            "[MarshalAs(UnmanagedType.U1)] a C# bool is a 4-byte BOOL)`") in result.stderr
