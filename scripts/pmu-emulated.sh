#!/usr/bin/env bash
# The emulated-PMU stage: every hardware-counter path against a PMU that counts. QEMU's arm64
# system emulator (-M virt -cpu max,pmu=on -icount shift=0) gives Debian's arm64 kernel a
# PMUv3 whose instruction and cycle counts are exact. This script installs what it needs
# (apt: qemu-system-arm, the aarch64 cross gcc, cpio; rustup: the aarch64 target; Debian's
# arm64 kernel, busybox-static and Python, fetched with a private arm64 apt state under
# target/), cross-builds the test programs for aarch64 (Rust statically linked, the C ABI
# tests against libpicollo.a with -static), packs them into an initramfs, boots it and
# fails on any failure in the guest:
#   - picollo-perf's unit tests (perf and time; arm64's C on simulated pages), perf_session and
#     perf_group (sessions, groups, hardware events, one-syscall group reads);
#   - hw_check exact: the user-space read (mrs) against read(2), multiplexing within 1 %,
#     raw events, the harness's instructions per operation; branch checks skipped (ENOENT);
#   - the C ABI's perf test and examples; the Python binding (pmu-emulated/perf_check.py).
# Without QEMU, or what it needs from apt and rustup, it says why and exits 0.
#   PICOLLO_PMU_TIMEOUT  seconds the guest may run (default 300)
set -uo pipefail
cd "$(dirname "$0")/.."

work=target/pmu-emulated
triple=aarch64-unknown-linux-gnu
# A profile of its own (optimized, no LTO: quick to build, and the figures are not those of
# debug code); its artifacts stay apart from every other build's.
profile=(--config 'profile.pmu.inherits="dev"' --config profile.pmu.opt-level=2
    --config profile.pmu.debug=false --config profile.pmu.incremental=false --profile pmu)
build=target/$triple/pmu
guest_timeout=${PICOLLO_PMU_TIMEOUT:-300}
start=$SECONDS
mkdir -p "$work"

say() { echo "pmu-emulated: $*"; }
# Run one step and say how long it took.
step() {
    local t=$SECONDS
    "$@"
    say "$1: $((SECONDS - t)) s"
}
skip() { say "SKIPPED: $*"; exit 0; }
. scripts/needs.sh
fail() { say "FAILED: $*"; exit 1; }

# Host packages: QEMU, the cross compiler and libc, cpio (the initramfs).
install_host_packages() {
    needs qemu-system aarch64-cross || skip "the host packages above are missing"
}

# Debian's arm64 packages for the guest, fetched with apt into $work/debs through an apt
# state of our own (the host's apt configuration is left alone).
fetch_guest_packages() {
    local apt="$work/apt" suite
    suite=$(. /etc/os-release 2>/dev/null && echo "${VERSION_CODENAME:-}")
    suite=${suite:-bookworm}
    mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" "$work/debs"
    touch "$apt/status"
    local key=/usr/share/keyrings/debian-archive-keyring.gpg
    {
        echo "deb [signed-by=$key] http://deb.debian.org/debian $suite main"
        echo "deb [signed-by=$key] http://deb.debian.org/debian $suite-updates main"
        echo "deb [signed-by=$key] http://deb.debian.org/debian-security $suite-security main"
    } >"$apt/sources.list"
    local opts=(-o APT::Architecture=arm64 -o APT::Architectures::=arm64
        -o Dir::State="$PWD/$apt" -o Dir::State::status="$PWD/$apt/status"
        -o Dir::Cache="$PWD/$apt/cache" -o Dir::Etc::SourceList="$PWD/$apt/sources.list"
        -o Dir::Etc::SourceParts=/nonexistent -o Debug::NoLocking=1)
    if [ ! -f "$work/debs/complete" ]; then
        rm -f "$work"/debs/*.deb "$work/vmlinuz"
        apt-get -qq "${opts[@]}" update >"$work/apt-arm64.log" 2>&1 ||
            { tail -n 5 "$work/apt-arm64.log"; skip "no arm64 package lists from deb.debian.org ($suite)"; }
        local kernel
        kernel=$(apt-cache "${opts[@]}" depends linux-image-arm64 2>/dev/null |
            awk '/Depends: linux-image-/ { print $2; exit }')
        [ -n "$kernel" ] || skip "no arm64 kernel package found in $suite"
        (cd "$work/debs" && apt-get -qq "${opts[@]}" download "$kernel" busybox-static \
            python3.11-minimal libpython3.11-minimal libpython3.11-stdlib libc6 libffi8 \
            zlib1g libexpat1 libgcc-s1) >>"$work/apt-arm64.log" 2>&1 ||
            { tail -n 5 "$work/apt-arm64.log"; skip "apt-get download of the guest's packages failed"; }
        touch "$work/debs/complete"
    fi
}

# The guest's kernel and root: busybox, and Python without what the tests do not load.
unpack_guest() {
    local root="$work/root"
    rm -rf "$root" && mkdir -p "$root"/{bin,proc,sys,dev,tmp,t}
    [ -f "$work/vmlinuz" ] || {
        dpkg-deb --fsys-tarfile "$work"/debs/linux-image-*.deb |
            tar -x -O --wildcards './boot/vmlinuz-*' >"$work/vmlinuz.part" &&
            mv "$work/vmlinuz.part" "$work/vmlinuz"
    } || fail "no vmlinuz in the kernel package"
    for deb in "$work"/debs/*.deb; do
        case "$deb" in */linux-image-*) ;; *) dpkg-deb -x "$deb" "$root" ;; esac
    done
    rm -rf "$root"/usr/share "$root"/usr/lib/aarch64-linux-gnu/gconv \
        "$root"/usr/lib/python3.11/{test,idlelib,ensurepip,pydoc_data,lib2to3,tkinter}
    cp scripts/pmu-emulated/init "$root/init" && chmod +x "$root/init"
}

# The test programs, cross-built for aarch64: Rust static, C static against libpicollo.a,
# and a libpicollo.so for Python linked from that archive.
cross_build() {
    export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER=aarch64-linux-gnu-gcc
    export CC_aarch64_unknown_linux_gnu=aarch64-linux-gnu-gcc
    export AR_aarch64_unknown_linux_gnu=aarch64-linux-gnu-ar
    export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_RUSTFLAGS="-C target-feature=+crt-static"
    local t="$work/root/t"
    # The static library is what C links (cargo drops the cdylib: crt-static forbids it).
    cargo build -q "${profile[@]}" --target $triple -p picollo-perf -p picollo-ffi \
        -p picollo-bench --lib --example hw_check >"$work/build.log" 2>&1 ||
        { cat "$work/build.log"; fail "the aarch64 build failed"; }
    cargo test -q --no-run "${profile[@]}" --target $triple -p picollo-perf --lib \
        --test perf_session --test perf_group --message-format=json >"$work/tests.json" ||
        fail "the aarch64 test build failed"
    python3 - "$work/tests.json" "$t" <<'EOF' || fail "no test executables in cargo's output"
import json, shutil, sys
names = {"picollo_perf": "unit", "perf_session": "perf_session", "perf_group": "perf_group"}
found = 0
for line in open(sys.argv[1]):
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m.get("executable"):
        shutil.copy(m["executable"], f"{sys.argv[2]}/{names[m['target']['name']]}")
        found += 1
sys.exit(found != len(names))
EOF
    cp "$build/examples/hw_check" "$t/"
    local cc=(aarch64-linux-gnu-gcc -std=c99 -Wall -Wextra -Werror -O2 -static -Iinclude)
    local libs=("$build/libpicollo.a" -lm -lpthread -ldl)
    "${cc[@]}" -o "$t/test_perf" c-tests/perf/test_perf.c "${libs[@]}" &&
        "${cc[@]}" -o "$t/c_perf_session" c-tests/perf/perf_session.c "${libs[@]}" &&
        "${cc[@]}" -o "$t/c_perf_sorted" c-tests/perf/perf_sorted.c "${libs[@]}" ||
        fail "the C tests did not build for aarch64"
    aarch64-linux-gnu-gcc -shared -o "$t/libpicollo.so" -Wl,--whole-archive "$build/libpicollo.a" \
        -Wl,--no-whole-archive -lm -lpthread -ldl -lgcc_s || fail "libpicollo.so did not link"
    cp -r python-demo/picollo scripts/pmu-emulated/perf_check.py "$t/"
}

boot() {
    (cd "$work/root" && find . | cpio -o -H newc -R 0:0 --quiet | gzip -1) >"$work/initramfs.gz" ||
        fail "the initramfs was not made"
    say "booting ($(du -h "$work/initramfs.gz" | cut -f1) initramfs; the guest runs at most $guest_timeout s)"
    timeout "$guest_timeout" qemu-system-aarch64 -M virt -cpu max,pmu=on -m 1024 -nographic \
        -nic none -icount shift=0 -no-reboot -kernel "$work/vmlinuz" \
        -initrd "$work/initramfs.gz" -append "console=ttyAMA0 quiet panic=-1" </dev/null |
        tr -d '\r' | tee "$work/console.log"
    local status=${PIPESTATUS[0]}
    [ "$status" -eq 0 ] || fail "QEMU exited with $status (124: the guest ran past $guest_timeout s)"
}

# What the guest printed: every program exited 0, the hardware paths ran instead of
# skipping, and the checks that need an exact PMU passed.
judge() {
    local log="$work/console.log" failed=0 name
    grep -q '^=== guest: done$' "$log" || fail "the guest did not finish"
    for name in unit-tests perf_session perf_group hw_check c-test_perf c-perf_session \
        c-perf_sorted python; do
        grep -q "^=== guest: $name: exit 0$" "$log" || { say "FAILED: $name in the guest"; failed=1; }
    done
    for name in chain-ipc multiplex harness-chain-ipc user-read raw-events harness-instructions \
        harness-compare; do
        grep -q "^hw-check: $name: ok: " "$log" || { say "FAILED: hw_check's $name did not pass"; failed=1; }
    done
    grep -q '^hw-check: sorted-branch-misses: \(ok\|skipped\): ' "$log" ||
        { say "FAILED: hw_check's sorted-branch-misses"; failed=1; }
    grep -q 'SKIPPED: hardware_cycles_and_instructions' "$log" &&
        { say "FAILED: perf_session skipped its hardware test"; failed=1; }
    grep -q '^hardware: add_chain(1000) took .*read path 2)$' "$log" ||
        { say "FAILED: the C ABI's hardware test did not read through the page"; failed=1; }
    echo
    say "figures (emulated: QEMU $(qemu-system-aarch64 --version | head -n 1 | awk '{print $4}'), -icount shift=0):"
    grep -E '^hw-check: (discover|multiplex|user-read|raw-events|harness-instructions|harness-compare):' "$log" |
        sed 's/^/  /'
    say "$( [ $failed -eq 0 ] && echo ok || echo FAILED ) in $((SECONDS - start)) s"
    exit $failed
}

# rustup's aarch64 standard library.
add_rust_target() {
    rustup target list --installed 2>/dev/null | grep -qx $triple && return 0
    rustup target add $triple >"$work/rustup.log" 2>&1 ||
        { tail -n 5 "$work/rustup.log"; skip "rustup could not add the $triple target"; }
}

command -v dpkg-deb >/dev/null || skip "no dpkg-deb: the guest is built from Debian packages"
step install_host_packages
command -v qemu-system-aarch64 >/dev/null || skip "no qemu-system-aarch64 after installing qemu-system-arm"
step add_rust_target
step fetch_guest_packages
step unpack_guest
step cross_build
step boot
judge
