#!/usr/bin/env python3
"""The .NET projects under dotnet/, read without a .NET SDK.

    python3 scripts/csproj.py sources dotnet/Picollo/Picollo.csproj   # the files it compiles
    python3 scripts/csproj.py check                                  # the projects' shape
    python3 scripts/csproj.py pack OUT.nupkg DLL XML [-p:Name=Value]  # the NuGet package

`sources` lists what an SDK-style project compiles: every *.cs file under the project's folder
except bin/ and obj/ (the default), and each file a `<Compile Include="...">` item names outside
that folder (one path, no wildcard: a file another project owns, compiled into this one too).
The mono build (c-tests/csharp/run.sh) compiles exactly that list, so `dotnet build` and mcs
cannot drift apart; anything else that changes the default (EnableDefaultCompileItems, Remove
or Update, wildcards, a file inside the folder named again) is refused rather than
half-understood.

`check` verifies what `dotnet build`/`dotnet pack` rely on: the SDK, a target framework,
unsafe code allowed, the library's native assets (libpicollo.so copied to the output, and packed
at runtimes/linux-x64/native/ and runtimes/linux-arm64/native/), the test programs' reference
to the library and their names in the library's InternalsVisibleTo, and that every .cs file
under dotnet/ belongs to one project.

`pack` writes the package `dotnet pack` makes of dotnet/Picollo, for machines without a .NET
SDK (c-tests/csharp/run.sh): the assembly DLL and its XML documentation (built by mcs) under
lib/<framework>/, every `None` item with Pack="true" at its PackagePath (the properties in its
Include evaluated as MSBuild would, with -p: overrides), the .nuspec from the project's package
properties, and the OPC parts ([Content_Types].xml, _rels/.rels, the core properties). It prints
the package's file list.
"""

from __future__ import annotations

import hashlib
import re
import sys
import xml.etree.ElementTree as ET
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOTNET = ROOT / "dotnet"
LIBRARY = DOTNET / "Picollo" / "Picollo.csproj"
PROGRAMS = [DOTNET / "Picollo.Tests" / "Picollo.Tests.csproj",
            DOTNET / "Picollo.PerfTests" / "Picollo.PerfTests.csproj"]
#: The runtime identifiers the package carries libpicollo.so for.
RUNTIMES = ("linux-x64", "linux-arm64")


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
    folder = project.parent
    found = sorted(p for p in folder.rglob("*.cs")
                   if not {"bin", "obj"} & set(p.relative_to(folder).parts[:-1]))
    if not found:
        raise ProjectError(f"{project}: compiles no .cs file")
    return found + [shared(project, item) for item in root.iter("Compile")]


def shared(project: Path, item: ET.Element) -> Path:
    """The file a `<Compile Include="...">` item adds: one existing .cs file outside the
    project's folder (MSBuild would count one inside it twice)."""
    include = item.get("Include") or ""
    if set(item.keys()) - {"Include", "Link"} or not include.endswith(".cs") or "*" in include:
        raise ProjectError(f"{project}: only <Compile Include=\"FILE.cs\"> items are supported "
                           f"here: {ET.tostring(item, encoding='unicode').strip()}")
    path = (project.parent / include).resolve()
    if not path.is_file() or path.is_relative_to(project.parent):
        raise ProjectError(f"{project}: {include} is not a file outside the project's folder")
    return path


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
    problems += native_assets(lib, props)
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


def native_assets(lib: ET.Element, props: dict[str, str]) -> list[str]:
    """What check() requires of the libpicollo.so items: one copied to the output from
    target/release/, one packed for each of RUNTIMES."""
    problems = []
    native = [n for n in lib.iter("None") if (n.get("Include") or "").endswith("libpicollo.so")]
    copied = [n for n in native if n.get("CopyToOutputDirectory") in ("PreserveNewest", "Always")]
    if len(copied) != 1:
        problems.append("Picollo.csproj: libpicollo.so is not copied to the output")
    elif not copied[0].get("Include", "").startswith("$(PicolloNativeDir)"):
        problems.append("Picollo.csproj: the library copied to the output is not "
                        "$(PicolloNativeDir)'s")
    default = props.get("PicolloNativeDir", "").replace("$(MSBuildThisFileDirectory)", "")
    workspace_lib = ROOT / "target" / "release" / "libpicollo.so"
    if (LIBRARY.parent / default / "libpicollo.so").resolve() != workspace_lib:
        problems.append("Picollo.csproj: PicolloNativeDir does not default to target/release/")
    packed = [n.get("PackagePath") for n in native if n.get("Pack") == "true"]
    for rid in RUNTIMES:
        if packed.count(f"runtimes/{rid}/native/") != 1:
            problems.append(
                f"Picollo.csproj: libpicollo.so is not packed at runtimes/{rid}/native/")
    return problems


def evaluated(project: Path, root: ET.Element, overrides: dict[str, str]) -> dict[str, str]:
    """The project's properties as MSBuild evaluates them, for the forms it uses: $(Name)
    references, and defaults under Condition="'$(Name)' == ''"; -p: overrides win."""
    props = {"MSBuildThisFileDirectory": f"{project.parent}/", **overrides}
    for group in root.iter("PropertyGroup"):
        for p in group:
            condition = p.get("Condition")
            if condition is not None and condition != f"'$({p.tag})' == ''":
                raise ProjectError(
                    f"{project.name}: the condition {condition!r} is not understood here")
            if p.tag in overrides or (condition is not None and props.get(p.tag)):
                continue
            props[p.tag] = expand(p.text or "", props)
    return props


def expand(text: str, props: dict[str, str]) -> str:
    """`text` with each $(Name) replaced by the property's value (empty when undefined)."""
    return re.sub(r"\$\((\w+)\)", lambda m: props.get(m.group(1), ""), text)


def nuspec(props: dict[str, str], framework: str) -> bytes:
    ns = "http://schemas.microsoft.com/packaging/2013/05/nuspec.xsd"
    package = ET.Element("package", xmlns=ns)
    meta = ET.SubElement(package, "metadata")
    for tag, key in (("id", "PackageId"), ("version", "Version"), ("authors", "Authors")):
        ET.SubElement(meta, tag).text = props[key]
    ET.SubElement(meta, "license", type="expression").text = props["PackageLicenseExpression"]
    ET.SubElement(meta, "description").text = props["Description"]
    ET.SubElement(meta, "tags").text = props.get("PackageTags", "").replace(";", " ")
    ET.SubElement(ET.SubElement(meta, "dependencies"), "group", targetFramework=framework)
    return xml(package)


OPC = "http://schemas.openxmlformats.org/package/2006/"
NUGET_MANIFEST = "http://schemas.microsoft.com/packaging/2010/07/manifest"
DUBLIN_CORE = "http://purl.org/dc/elements/1.1/"


def xml(element: ET.Element) -> bytes:
    return ET.tostring(element, encoding="utf-8", xml_declaration=True)


def opc_parts(package_id: str, props: dict[str, str], names: list[str]) -> dict[str, bytes]:
    """[Content_Types].xml, _rels/.rels and the core properties, as `dotnet pack` writes them
    (the core properties' name is a digest here, a random GUID there)."""
    digest = hashlib.sha1(package_id.encode()).hexdigest()[:32]
    core = f"package/services/metadata/core-properties/{digest}.psmdcp"
    types = ET.Element("Types", xmlns=OPC + "content-types")
    for ext, kind in (("rels", "application/vnd.openxmlformats-package.relationships+xml"),
                      ("psmdcp", "application/vnd.openxmlformats-package.core-properties+xml")):
        ET.SubElement(types, "Default", Extension=ext, ContentType=kind)
    for ext in sorted({n.rsplit(".", 1)[-1] for n in names}):
        ET.SubElement(types, "Default", Extension=ext, ContentType="application/octet")
    rels = ET.Element("Relationships", xmlns=OPC + "relationships")
    ET.SubElement(rels, "Relationship", Type=NUGET_MANIFEST, Target=f"/{package_id}.nuspec",
                  Id="R1")
    ET.SubElement(rels, "Relationship", Type=OPC + "relationships/metadata/core-properties",
                  Target=f"/{core}", Id="R2")
    cp = OPC + "metadata/core-properties"
    properties_xml = ET.Element(f"{{{cp}}}coreProperties")
    for tag, text in ((f"{{{DUBLIN_CORE}}}creator", props["Authors"]),
                      (f"{{{DUBLIN_CORE}}}description", props["Description"]),
                      (f"{{{DUBLIN_CORE}}}identifier", package_id),
                      (f"{{{cp}}}version", props["Version"])):
        ET.SubElement(properties_xml, tag).text = text
    return {"[Content_Types].xml": xml(types), "_rels/.rels": xml(rels), core: xml(properties_xml)}


def pack(project: Path, out: Path, dll: Path, doc: Path, overrides: dict[str, str]) -> list[str]:
    """Write the package of `project` to `out`; returns its file names, sorted."""
    root = load(project)
    props = evaluated(project, root, overrides)
    framework, package_id = props["TargetFramework"], props["PackageId"]
    files = {f"lib/{framework}/{props['AssemblyName']}.dll": dll,
             f"lib/{framework}/{props['AssemblyName']}.xml": doc}
    for item in root.iter("None"):
        if item.get("Pack") == "true":
            source = Path(expand(item.get("Include", ""), props))
            files[item.get("PackagePath", "") + source.name] = source
    for name, source in files.items():
        if not source.is_file():
            raise ProjectError(f"pack: {source} is missing (it goes to {name})")
    parts = opc_parts(package_id, props, list(files))
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr(f"{package_id}.nuspec", nuspec(props, framework))
        for name, source in sorted(files.items()):
            z.write(source, name)  # a symbolic link is read through, as MSBuild copies it
        for name, data in parts.items():
            z.writestr(name, data)
    with zipfile.ZipFile(out) as z:
        return sorted(z.namelist())


def main(argv: list[str]) -> int:
    try:
        if len(argv) == 2 and argv[0] == "sources":
            for path in sources(Path(argv[1]).resolve()):
                print(path)
            return 0
        if len(argv) >= 4 and argv[0] == "pack":
            overrides = dict(a[3:].split("=", 1) for a in argv[4:]
                             if a.startswith("-p:") and "=" in a[3:])
            if len(overrides) != len(argv) - 4:
                raise ProjectError("pack: options are -p:Name=Value")
            for name in pack(LIBRARY, Path(argv[1]), Path(argv[2]), Path(argv[3]), overrides):
                print(name)
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
