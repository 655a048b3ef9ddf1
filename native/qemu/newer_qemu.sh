# newer_qemu.sh: sourced by scripts/emulate.sh (which sets `work`, `say` and `apt_install`).
# Finds a QEMU user mode newer than the host's, one that loads TCG plugins, so the checks
# run under plugin API version 2 and later (QEMU 9.0 and newer refuse version 1) as well as
# under the host's QEMU 7.2 (version 1). find_newer_qemu sets `newer_dirs` (folders with a
# qemu-x86_64 and a qemu-aarch64, each named qemu-VERSION), or `newer_reason` (why none).
#
# Debian ships none ready: since QEMU 9 its qemu-user (bookworm-backports, trixie, sid) is
# statically linked, and a static QEMU cannot load plugins (no -plugin option). That is
# checked, not assumed: the package is fetched once and its verdict cached. The way that
# works is a build of Debian's source package of QEMU (trixie's by default; set
# PICOLLO_EMULATE_QEMU_SUITE to change), user mode for x86_64 and aarch64 only, made once
# when PICOLLO_EMULATE_BUILD_QEMU=1 (some 10 minutes on 2 cores, one compile at a time)
# and kept under $work/qemu-VERSION/.

# apt options for a state of our own under $work/apt-$1 (the host's apt is left alone),
# reading the one line $2 as its sources.list.
newer_apt() {
    local dir="$PWD/$work/apt-$1"
    mkdir -p "$dir/lists/partial" "$dir/cache/archives/partial"
    touch "$dir/status"
    echo "$2" >"$dir/sources.list"
    newer_apt_opts=(-o Dir::State="$dir" -o Dir::State::status="$dir/status"
        -o Dir::Cache="$dir/cache" -o Dir::Etc::SourceList="$dir/sources.list"
        -o Dir::Etc::SourceParts=/nonexistent -o Debug::NoLocking=1)
    apt-get -qq "${newer_apt_opts[@]}" update >"$dir/update.log" 2>&1
}

# Debian's newest qemu-user for this release (bookworm-backports): fetched once, its
# qemu-x86_64 asked whether it has -plugin; the verdict is cached. 0 if it loads plugins.
newer_from_debian_package() {
    local key=/usr/share/keyrings/debian-archive-keyring.gpg verdict=$work/debs/verdict
    local line="deb [signed-by=$key] http://deb.debian.org/debian bookworm-backports main"
    if [ ! -f "$verdict" ]; then
        newer_apt backports "$line" ||
            { newer_reason="no bookworm-backports package lists"; return 1; }
        mkdir -p "$work/debs" "$work/qemu-deb"
        (cd "$work/debs" && apt-get -qq "${newer_apt_opts[@]}" download qemu-user) >/dev/null 2>&1 ||
            { newer_reason="apt-get download qemu-user (bookworm-backports) failed"; return 1; }
        local deb
        deb=$(ls "$work"/debs/qemu-user_*.deb | tail -n 1)
        dpkg-deb -x "$deb" "$work/qemu-deb"
        local q=$work/qemu-deb/usr/bin/qemu-x86_64 version linked
        version=$("$q" --version | head -n 1 | awk '{print $3}')
        linked=$(file -b "$q" 2>/dev/null | grep -o 'static-pie linked\|statically linked')
        if "$q" -h | grep -q -- '^-plugin'; then
            echo "plugins $version" >"$verdict"
        else
            echo "none $version ${linked:-built}" >"$verdict"
        fi
    fi
    local kind version how
    read -r kind version how <"$verdict"
    if [ "$kind" = plugins ]; then
        ln -sfn "$PWD/$work/qemu-deb/usr/bin" "$work/qemu-$version"
        newer_dirs=("$work/qemu-$version")
        return 0
    fi
    rm -rf "$work/qemu-deb" "$work"/debs/*.deb # of no use: the verdict is kept
    newer_reason="Debian's qemu-user $version (bookworm-backports) is $how without TCG"
    newer_reason+=" plugin support (no -plugin option)"
    return 1
}

# QEMU from Debian's source package of $PICOLLO_EMULATE_QEMU_SUITE: unpacked under
# $work/src, configured for user mode with plugins, built one compile at a time (nice).
newer_build() {
    local suite=${PICOLLO_EMULATE_QEMU_SUITE:-trixie}
    local key=/usr/share/keyrings/debian-archive-keyring.gpg
    apt_install ninja-build libglib2.0-dev flex bison python3-venv device-tree-compiler \
        dpkg-dev || return 1
    newer_apt "src-$suite" "deb-src [signed-by=$key] http://deb.debian.org/debian $suite main" ||
        { newer_reason="no $suite source lists"; return 1; }
    rm -rf "$work/src" && mkdir -p "$work/src"
    (cd "$work/src" && apt-get -qq "${newer_apt_opts[@]}" source --download-only qemu) >/dev/null 2>&1 ||
        { newer_reason="apt-get source qemu ($suite) failed"; return 1; }
    local orig version
    orig=$(ls "$work"/src/qemu_*.orig.tar.xz | tail -n 1)
    version=$(basename "$orig" | sed 's/^qemu_\([0-9.]*\).*/\1/')
    say "building QEMU $version (Debian $suite's source) for x86_64 and aarch64 user mode: minutes"
    tar -xJf "$orig" -C "$work/src" && newer_configure "$work/src/qemu-$version" &&
        nice -n 19 ninja -C "$work/src/qemu-$version/build" -j1 qemu-x86_64 qemu-aarch64 \
            >"$work/src/build.log" 2>&1 ||
        { tail -n 20 "$work/src/build.log" 2>/dev/null; newer_reason="the QEMU $version build failed"; return 1; }
    mkdir -p "$work/qemu-$version"
    cp "$work/src/qemu-$version/build/qemu-x86_64" "$work/src/qemu-$version/build/qemu-aarch64" \
        "$work/qemu-$version/"
    rm -rf "$work/src"
}

# Configures the source at $1: meson and pycotap (QEMU's configure wants them; Debian's
# source leaves out QEMU's bundled wheels) from PyPI into a venv of our own; no firmware,
# documentation, Rust or system emulation.
newer_configure() {
    local venv=$PWD/$work/pyvenv
    [ -x "$venv/bin/meson" ] || { python3 -m venv "$venv" &&
        "$venv/bin/pip" install -q 'meson==1.8.3' 'pycotap==1.3.1'; } >"$work/src/pip.log" 2>&1 ||
        { newer_reason="pip could not install meson for QEMU's build"; return 1; }
    mkdir -p "$1/build"
    (cd "$1/build" && ../configure --python="$venv/bin/python3" \
        --target-list=x86_64-linux-user,aarch64-linux-user --without-default-features \
        --enable-plugins --disable-docs --disable-rust --disable-werror \
        --disable-install-blobs) >"$work/src/configure.log" 2>&1 ||
        { tail -n 5 "$work/src/configure.log"; newer_reason="QEMU's configure failed"; return 1; }
}

# Plugin-capable newer QEMUs: the cached builds (every one), else Debian's package, else
# (when asked) a build.
find_newer_qemu() {
    newer_dirs=()
    local dir
    for dir in $(ls -d "$work"/qemu-[0-9]* 2>/dev/null | sort -V); do
        [ -x "$dir/qemu-x86_64" ] && [ -x "$dir/qemu-aarch64" ] && newer_dirs+=("$dir")
    done
    [ ${#newer_dirs[@]} -gt 0 ] && return 0
    newer_from_debian_package && return 0
    if [ "${PICOLLO_EMULATE_BUILD_QEMU:-0}" != 1 ]; then
        newer_reason+="; PICOLLO_EMULATE_BUILD_QEMU=1 builds QEMU from Debian's source once (cached)"
        return 1
    fi
    newer_build || return 1
    newer_dirs=("$(ls -d "$work"/qemu-[0-9]* | sort -V | tail -n 1)")
}
