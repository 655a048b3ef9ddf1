#!/usr/bin/env bash
# The crates as crates.io and docs.rs would see them:
#  1. every publishable crate's manifest has its metadata (description, license, readme,
#     documentation, keywords, categories; no placeholder repository) and its license files;
#  2. `cargo package --workspace` packs and verifies picollo, picollo-perf, picollo-bench,
#     picollo-ffi, picollo-cli, the compatibility layers picollo-criterion, picollo-divan
#     and picollo-divan-macros, and picollo-metrics (the `metrics` facade's recorder); each
#     builds from its .crate alone (the unpublished picollo comes from cargo's local
#     registry of the workspace);
#  3. the packed picollo builds with every feature from its own folder; the packed
#     picollo-perf carries native/ and builds from its own folder (against the packed
#     picollo) with the rdpmc path (cfg picollo_native) compiled in;
#  4. `cargo doc --workspace --no-deps` (default and all features) prints no warning;
#  5. the library builds without default features with no warning (clippy -D warnings);
#  6. Cargo.lock stays at format 3, the newest that Debian's cargo-c reads.
set -euo pipefail
exec </dev/null
cd "$(dirname "$0")/.."
root="$PWD"
target="${CARGO_TARGET_DIR:-$root/target}"
die() { echo "package: FAIL: $*" >&2; exit 1; }
step() { echo "--- package: $*"; }

crates="picollo picollo-perf picollo-bench picollo-ffi picollo-cli picollo-criterion picollo-divan picollo-divan-macros picollo-metrics"

step "manifest metadata and license files"
cargo metadata --no-deps --format-version 1 | python3 -c '
import json, os, sys
meta = json.load(sys.stdin)
bad = []
published = 0
for p in meta["packages"]:
    if p["publish"] == []:
        continue
    published += 1
    name, folder = p["name"], os.path.dirname(p["manifest_path"])
    for key in ("description", "license", "readme", "documentation"):
        if not p.get(key):
            bad.append(f"{name}: no {key}")
    for key in ("keywords", "categories"):
        if not p.get(key):
            bad.append(f"{name}: no {key}")
    if len(p.get("keywords") or []) > 5:
        bad.append(f"{name}: crates.io takes at most 5 keywords")
    if "invalid" in (p.get("repository") or ""):
        bad.append(name + ": placeholder repository " + p["repository"])
    for f in ("LICENSE-MIT", "LICENSE-APACHE", p.get("readme") or "README.md"):
        if not os.path.isfile(os.path.join(folder, f)):
            bad.append(f"{name}: {f} missing in {folder}")
if published != 9:
    bad.append(f"expected 9 publishable crates, found {published}")
for b in bad:
    print("  " + b)
sys.exit(1 if bad else 0)
' || die "manifest metadata is incomplete (above)"

step "cargo package --workspace (pack and verify every publishable crate)"
mkdir -p "$target"
# Cargo unpacks the packed workspace crates it verifies against under its home, in a
# folder named after the local registry's path, and keeps an unpacked crate of the same
# name and version there from an earlier run at the same path: the verify then builds
# against old sources (a CI failure: picollo-ffi against a picollo without `float`).
# Those unpacked copies (overlay folders start with '-'; crates.io's are left alone) go.
# The verify builds go to a target folder of their own, emptied first: cargo never
# rebuilds a registry crate of an unchanged version whatever its sources, so one built
# from old sources would stay.
cargo_home="${CARGO_HOME:-$HOME/.cargo}"
for crate in $crates; do
    rm -rf "$cargo_home"/registry/src/-*/"$crate"-[0-9]*
done
verify_target="$target/package-verify"
rm -rf "$verify_target"
# The unpublished members (publish = false: the criterion layer's sample suite) are not
# packed: cargo's local registry of the workspace holds none of them for another to need.
unpublished="$(cargo metadata --no-deps --format-version 1 | python3 -c '
import json, sys
print(" ".join("--exclude " + p["name"] for p in json.load(sys.stdin)["packages"] if p["publish"] == []))')"
# Verifying fetches the index and the dependencies again: a second try when the first
# fails, with the first failure shown (a flaky network is not a packaging error).
# shellcheck disable=SC2086 # the --exclude flags, one word each
if ! CARGO_TARGET_DIR="$verify_target" cargo package --workspace $unpublished --allow-dirty \
    >"$target/package.log" 2>&1; then
    echo "package: cargo package failed once; its last lines, then a second try:" >&2
    tail -n 40 "$target/package.log" >&2
    # shellcheck disable=SC2086 # as above
    CARGO_TARGET_DIR="$verify_target" cargo package --workspace $unpublished --allow-dirty \
        >"$target/package.log" 2>&1 || {
        tail -n 40 "$target/package.log" >&2
        die "cargo package failed twice (log: $target/package.log)"
    }
fi
grep -E '^ *(Packaged|Verifying)' "$target/package.log"
pkgdir="$verify_target/package"
contents() { tar tzf "$pkgdir/$1-0.1.0.crate"; }
for crate in $crates; do
    list="$(contents "$crate")"
    for f in LICENSE-MIT LICENSE-APACHE README.md Cargo.toml; do
        grep -qx "$crate-0.1.0/$f" <<<"$list" || die "$crate.crate lacks $f"
    done
done
list="$(contents picollo-perf)"
for f in native/picollo_native.c native/picollo_native.h native/qemu/picollo_qemu_plugin.c \
    build.rs src/lib.rs; do
    grep -qx "picollo-perf-0.1.0/$f" <<<"$list" || die "picollo-perf.crate lacks $f"
done
list="$(contents picollo-ffi)"
# picollo.h includes picollo_inline.h; cargo cinstall of the unpacked crate installs both.
for f in include/picollo.h include/picollo_inline.h; do
    grep -qx "picollo-ffi-0.1.0/$f" <<<"$list" || die "picollo-ffi.crate lacks $f"
done

step "the packed picollo and picollo-perf build on their own"
# Outside the repository, as a user's download would be (inside, cargo would take the
# workspace for its own); into the verify builds' target folder, whose dependencies (built
# just now, with the same flags) it reuses. picollo-perf finds the unpublished picollo in
# the unpacked folder beside it.
unpacked="$(mktemp -d)"
trap 'rm -rf "$unpacked"' EXIT
check_target="$verify_target"
tar xzf "$pkgdir/picollo-0.1.0.crate" -C "$unpacked"
tar xzf "$pkgdir/picollo-perf-0.1.0.crate" -C "$unpacked"
# cargo packs every file with one fixed old mtime, so a build script compiled from an
# earlier package would look fresh in the kept target folder: the unpacked files are new.
find "$unpacked" -exec touch {} +
(cd "$unpacked/picollo-0.1.0" && CARGO_TARGET_DIR="$check_target" cargo build --all-features) \
    >"$target/package-check.log" 2>&1 || {
    tail -n 40 "$target/package-check.log" >&2
    die "the unpacked picollo does not build with --all-features (log: $target/package-check.log)"
}
(cd "$unpacked/picollo-perf-0.1.0" && CARGO_TARGET_DIR="$check_target" cargo build \
    --config "patch.crates-io.picollo.path='$unpacked/picollo-0.1.0'") \
    >>"$target/package-check.log" 2>&1 || {
    tail -n 40 "$target/package-check.log" >&2
    die "the unpacked picollo-perf does not build (log: $target/package-check.log)"
}
if [[ "$(uname -m)" == x86_64 && "$(uname -s)" == Linux ]]; then
    grep -qx 'cargo:rustc-cfg=picollo_native' "$check_target"/debug/build/picollo-perf-*/output ||
        die "the unpacked picollo-perf built without native/ (no cfg picollo_native)"
fi
echo "unpacked picollo: built with --all-features; unpacked picollo-perf: built, native/ compiled"

step "cargo doc --workspace --no-deps: no warnings (default and all features)"
for features in "" "--all-features"; do
    # shellcheck disable=SC2086 # an optional flag
    out="$(RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps $features 2>&1)" || {
        echo "$out" >&2
        die "cargo doc $features failed"
    }
    if grep -qi 'warning' <<<"$out"; then
        echo "$out" >&2
        die "cargo doc $features printed warnings"
    fi
done
[[ -f "$target/doc/picollo/index.html" ]] || die "cargo doc wrote no doc/picollo/index.html"

step "no default features: no warnings"
for features in "" "--features alloc" "--features critical-section"; do
    # shellcheck disable=SC2086 # an optional flag
    cargo clippy -q -p picollo --no-default-features $features --lib -- -D warnings ||
        die "picollo --no-default-features $features has warnings"
done

step "Cargo.lock format"
sed -n '3p' Cargo.lock | grep -qx 'version = 3' ||
    die "Cargo.lock is not format 3 (Debian's cargo-c cannot read newer): set 'version = 3' back"

echo "package: OK"
