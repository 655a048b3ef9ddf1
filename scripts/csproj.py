#!/usr/bin/env python3
"""The .NET projects under dotnet/, read without a .NET SDK.

    python3 scripts/csproj.py sources dotnet/Picollo/Picollo.csproj   # the files it compiles
    python3 scripts/csproj.py check                                  # the projects' shape

`sources` lists what an SDK-style project compiles by default: every *.cs file under the
project's folder except bin/ and obj/. The mono build (c-tests/csharp/run.sh) compiles exactly
that list, so `dotnet build` and mcs cannot drift apart; a project that changes the default
(EnableDefaultCompileItems, Compile items) is refused rather than half-understood.

`check` verifies what `dotnet build`/`dotnet pack` rely on: the SDK, a target framework,
unsafe code allowed, the library's native asset (libpicollo.so copied to the output and packed
at runtimes/linux-x64/native/), the test programs' reference to the library and their names in
the library's InternalsVisibleTo, and that every .cs file under dotnet/ belongs to one project.
"""

from __future__ import annotations

import re
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOTNET = ROOT / "dotnet"
LIBRARY = DOTNET / "Picollo" / "Picollo.csproj"
PROGRAMS = [DOTNET / "Picollo.Tests" / "Picollo.Tests.csproj",
            DOTNET / "Picollo.PerfTests" / "Picollo.PerfTests.csproj"]


class ProjectError(Exception):
    pass


def load(project: Path) -> ET.Element:
    try:
        root = ET.parse(project).getroot()
    except (OSError, ET.ParseError) as e:
        raise ProjectError(f"{project}: not readable XML ({e})") from e
    if root.tag != "Project" or root.get("Sdk") != "Microsoft.NET.Sdk":
        raise ProjectError(f'{project}: not an SDK-style project (<Project Sdk="Microsoft.NET.Sdk">)')
    return root


def properties(root: ET.Element) -> dict[str, str]:
    return {p.tag: (p.text or "").strip() for group in root.iter("PropertyGroup") for p in group}


def sources(project: Path) -> list[Path]:
    root = load(project)
    if properties(root).get("EnableDefaultCompileItems", "true").lower() == "false":
        raise ProjectError(f"{project}: EnableDefaultCompileItems=false is not supported here")
    if any(True for _ in root.iter("Compile")):
        raise ProjectError(f"{project}: explicit Compile items are not supported here")
    folder = project.parent
    found = sorted(p for p in folder.rglob("*.cs")
                   if not {"bin", "obj"} & set(p.relative_to(folder).parts[:-1]))
    if not found:
        raise ProjectError(f"{project}: compiles no .cs file")
    return found


def check() -> list[str]:
    problems = []

    def need(ok: bool, what: str) -> None:
        if not ok:
            problems.append(what)

    lib = load(LIBRARY)
    props = properties(lib)
    for project, root in [(LIBRARY, lib)] + [(p, load(p)) for p in PROGRAMS]:
        pp = properties(root)
        name = project.relative_to(ROOT)
        need(bool(pp.get("TargetFramework") or pp.get("TargetFrameworks")), f"{name}: no TargetFramework")
        need(pp.get("AllowUnsafeBlocks", "").lower() == "true", f"{name}: AllowUnsafeBlocks is not true")
        need(pp.get("AssemblyName") == project.stem, f"{name}: AssemblyName is not {project.stem}")
    need(props.get("PackageId") == "Picollo", "Picollo.csproj: PackageId is not Picollo")
    cargo = (ROOT / "Cargo.toml").read_text()
    version = re.search(r'^version = "([^"]+)"', cargo, re.M)
    need(version is not None and props.get("Version") == version.group(1),
         "Picollo.csproj: Version differs from the Rust workspace's")
    need(bool(props.get("PackageLicenseExpression")), "Picollo.csproj: no PackageLicenseExpression")
    native = [n for n in lib.iter("None") if (n.get("Include") or "").endswith("libpicollo.so")]
    need(len(native) == 1, "Picollo.csproj: no <None Include=...libpicollo.so> item")
    for n in native:
        need(n.get("Pack") == "true", "Picollo.csproj: libpicollo.so is not packed")
        need(n.get("PackagePath") == "runtimes/linux-x64/native/",
             "Picollo.csproj: libpicollo.so is not packed at runtimes/linux-x64/native/")
        need(n.get("CopyToOutputDirectory") in ("PreserveNewest", "Always"),
             "Picollo.csproj: libpicollo.so is not copied to the output")
        default = props.get("PicolloNativeDir", "").replace("$(MSBuildThisFileDirectory)", "")
        need((LIBRARY.parent / default / "libpicollo.so").resolve()
             == (ROOT / "target" / "release" / "libpicollo.so"),
             "Picollo.csproj: PicolloNativeDir does not default to target/release/")
    visible = set()
    for cs in sources(LIBRARY):
        visible |= set(re.findall(r'InternalsVisibleTo\("([^"]+)"\)', cs.read_text()))
    for project in PROGRAMS:
        root = load(project)
        name = project.relative_to(ROOT)
        need(properties(root).get("OutputType") == "Exe", f"{name}: OutputType is not Exe")
        refs = [r.get("Include") for r in root.iter("ProjectReference")]
        need(any((project.parent / r).resolve() == LIBRARY for r in refs if r),
             f"{name}: no ProjectReference to dotnet/Picollo/Picollo.csproj")
        need(project.stem in visible, f"Picollo: no InternalsVisibleTo(\"{project.stem}\")")
    owned = {p for project in [LIBRARY] + PROGRAMS for p in sources(project)}
    for cs in sorted(DOTNET.rglob("*.cs")):
        if not {"bin", "obj"} & set(cs.relative_to(DOTNET).parts):
            need(cs in owned, f"{cs.relative_to(ROOT)} belongs to no project")
    return problems


def main(argv: list[str]) -> int:
    try:
        if len(argv) == 2 and argv[0] == "sources":
            for path in sources(Path(argv[1]).resolve()):
                print(path)
            return 0
        if argv == ["check"]:
            problems = check()
            for p in problems:
                print(f"csproj: {p}", file=sys.stderr)
            if not problems:
                print(f"csproj: ok ({LIBRARY.relative_to(ROOT)} and {len(PROGRAMS)} test programs)")
            return 1 if problems else 0
    except ProjectError as e:
        print(f"csproj: {e}", file=sys.stderr)
        return 1
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
