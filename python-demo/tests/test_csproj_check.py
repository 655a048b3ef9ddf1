"""scripts/csproj.py: the .NET projects' shape and source lists, on copies made wrong on purpose."""

from __future__ import annotations

import importlib.util
import shutil
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def csproj(tmp_path: Path, monkeypatch):
    """scripts/csproj.py pointed at a copy of dotnet/ (and the workspace Cargo.toml)."""
    spec = importlib.util.spec_from_file_location("csproj_under_test", ROOT / "scripts" / "csproj.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    shutil.copytree(ROOT / "dotnet", tmp_path / "dotnet",
                    ignore=shutil.ignore_patterns("bin", "obj"))
    shutil.copy(ROOT / "Cargo.toml", tmp_path / "Cargo.toml")
    dotnet = tmp_path / "dotnet"
    monkeypatch.setattr(module, "ROOT", tmp_path)
    monkeypatch.setattr(module, "DOTNET", dotnet)
    monkeypatch.setattr(module, "LIBRARY", dotnet / "Picollo" / "Picollo.csproj")
    monkeypatch.setattr(module, "PROGRAMS", [
        dotnet / "Picollo.Tests" / "Picollo.Tests.csproj",
        dotnet / "Picollo.PerfTests" / "Picollo.PerfTests.csproj"])
    return module


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new))


def test_the_committed_projects_pass(csproj):
    assert csproj.check() == []


def test_sources_are_the_sdk_default_glob(csproj):
    lib = csproj.LIBRARY
    names = {p.name for p in csproj.sources(lib)}
    assert {"Picollo.cs", "PicolloHdr.cs", "AssemblyInfo.cs"} <= names
    (lib.parent / "obj").mkdir()
    (lib.parent / "obj" / "Generated.cs").write_text("// build output\n")
    (lib.parent / "Extra.cs").write_text("// new source\n")
    names = {p.name for p in csproj.sources(lib)}
    assert "Extra.cs" in names and "Generated.cs" not in names


def test_a_stray_source_file_is_reported(csproj):
    (csproj.DOTNET / "Stray.cs").write_text("class Stray {}\n")
    assert any("Stray.cs belongs to no project" in p for p in csproj.check())


# Each edit (of the file a lambda picks from the module), and what check() must then say.
EDITS_CHECK_REPORTS = [
    pytest.param(lambda c: c.LIBRARY, 'PackagePath="runtimes/linux-x64/native/"',
                 'PackagePath="lib/"', "runtimes/linux-x64/native/", id="missing-native-asset"),
    pytest.param(lambda c: c.LIBRARY, 'PackagePath="runtimes/linux-arm64/native/"',
                 'PackagePath="runtimes/linux-x64/native/"', "runtimes/linux-arm64/native/",
                 id="missing-arm64-native-asset"),
    pytest.param(lambda c: c.LIBRARY, 'Pack="false"\n          CopyToOutputDirectory="PreserveNewest"',
                 'Pack="false"', "not copied to the output", id="library-not-copied-to-the-output"),
    pytest.param(lambda c: c.PROGRAMS[0], "<AllowUnsafeBlocks>true</AllowUnsafeBlocks>", "",
                 "AllowUnsafeBlocks", id="unsafe-code-must-be-allowed"),
    pytest.param(lambda c: c.PROGRAMS[1], '<ProjectReference Include="../Picollo/Picollo.csproj" />',
                 "", "no ProjectReference", id="program-without-the-library-reference"),
    pytest.param(lambda c: c.LIBRARY.parent / "Properties" / "AssemblyInfo.cs",
                 '[assembly: InternalsVisibleTo("Picollo.PerfTests")]', "",
                 'InternalsVisibleTo("Picollo.PerfTests")', id="internals-visible-to-each-program"),
    pytest.param(lambda c: c.LIBRARY, "<Version>0.1.0</Version>", "<Version>9.9.9</Version>",
                 "Version differs", id="version-apart-from-the-workspace"),
]


@pytest.mark.parametrize("where, old, new, report", EDITS_CHECK_REPORTS)
def test_a_project_made_wrong_is_reported(csproj, where, old, new, report):
    edit(where(csproj), old, new)
    assert any(report in p for p in csproj.check())


def test_a_file_of_another_project_compiles_into_the_one_that_names_it(csproj):
    perf, tests = csproj.PROGRAMS[1], csproj.PROGRAMS[0]
    shared = (tests.parent / "SeedAnnouncement.cs").resolve()
    assert shared in csproj.sources(perf) and shared in csproj.sources(tests)
    edit(perf, 'Include="../Picollo.Tests/SeedAnnouncement.cs"', 'Include="../Picollo.Tests/Gone.cs"')
    with pytest.raises(csproj.ProjectError, match="Gone.cs is not a file outside the project"):
        csproj.sources(perf)


# Compile items other than one file outside the project's folder, and what sources() says.
REFUSED_COMPILE_ITEMS = [
    pytest.param('<Compile Include="../Picollo/*.cs" />', "only <Compile Include", id="wildcard"),
    pytest.param('<Compile Remove="Tests.cs" />', "only <Compile Include", id="remove"),
    pytest.param('<Compile Include="Tests.cs" />', "not a file outside", id="inside-counted-twice"),
]


@pytest.mark.parametrize("item, report", REFUSED_COMPILE_ITEMS)
def test_other_compile_items_are_refused(csproj, item, report):
    edit(csproj.PROGRAMS[0], "<ItemGroup>", f"<ItemGroup>\n    {item}")
    with pytest.raises(csproj.ProjectError, match=report):
        csproj.sources(csproj.PROGRAMS[0])


def test_disabled_default_items_and_malformed_xml_are_refused(csproj):
    edit(csproj.PROGRAMS[0], "<OutputType>", "<EnableDefaultCompileItems>false</EnableDefaultCompileItems><OutputType>")
    with pytest.raises(csproj.ProjectError, match="EnableDefaultCompileItems=false"):
        csproj.sources(csproj.PROGRAMS[0])
    edit(csproj.PROGRAMS[0], "<!--", "<!-- -- ")
    with pytest.raises(csproj.ProjectError, match="not readable XML"):
        csproj.sources(csproj.PROGRAMS[0])


def packing_inputs(tmp_path: Path) -> tuple[dict[str, str], Path, Path]:
    """Two runtime folders with a libpicollo.so each (their names as contents), an assembly
    and its documentation; returns the -p: overrides naming the folders, the DLL, the XML."""
    overrides = {}
    for prop, rid in (("PicolloLinuxX64Dir", "linux-x64"), ("PicolloLinuxArm64Dir", "linux-arm64")):
        (tmp_path / rid).mkdir()
        (tmp_path / rid / "libpicollo.so").write_text(rid)
        overrides[prop] = f"{tmp_path / rid}/"
    (tmp_path / "Picollo.dll").write_bytes(b"MZ assembly")
    (tmp_path / "Picollo.xml").write_text("<doc />")
    return overrides, tmp_path / "Picollo.dll", tmp_path / "Picollo.xml"


def test_pack_puts_each_runtime_library_at_its_path(csproj, tmp_path):
    overrides, dll, doc = packing_inputs(tmp_path)
    names = csproj.pack(csproj.LIBRARY, tmp_path / "p.nupkg", dll, doc, overrides)
    assert [n for n in names if not n.startswith("package/services/")] == sorted([
        "Picollo.nuspec", "[Content_Types].xml", "_rels/.rels", "lib/net8.0/Picollo.dll",
        "lib/net8.0/Picollo.xml", "runtimes/linux-arm64/native/libpicollo.so",
        "runtimes/linux-x64/native/libpicollo.so"])
    with zipfile.ZipFile(tmp_path / "p.nupkg") as z:
        for rid in ("linux-x64", "linux-arm64"):
            assert z.read(f"runtimes/{rid}/native/libpicollo.so") == rid.encode()
        nuspec = z.read("Picollo.nuspec").decode()
    for part in ("<id>Picollo</id>", "<version>0.1.0</version>",
                 '<license type="expression">MIT OR Apache-2.0</license>',
                 '<group targetFramework="net8.0" />'):
        assert part in nuspec


def test_pack_refuses_a_missing_library_and_a_condition_it_cannot_read(csproj, tmp_path):
    overrides, dll, doc = packing_inputs(tmp_path)
    (tmp_path / "linux-arm64" / "libpicollo.so").unlink()
    with pytest.raises(csproj.ProjectError, match="runtimes/linux-arm64/native/libpicollo.so"):
        csproj.pack(csproj.LIBRARY, tmp_path / "p.nupkg", dll, doc, overrides)
    edit(csproj.LIBRARY, "<PicolloLinuxX64Dir Condition=\"'$(PicolloLinuxX64Dir)' == ''\"",
         "<PicolloLinuxX64Dir Condition=\"Exists('x')\"")
    with pytest.raises(csproj.ProjectError, match="not understood"):
        csproj.pack(csproj.LIBRARY, tmp_path / "p.nupkg", dll, doc, {})
