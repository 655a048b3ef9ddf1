# Sourced by the stages that install Debian packages they miss (scripts/emulate.sh,
# scripts/pmu-emulated.sh). The caller defines `say` (its own prefix) and `$work` (where
# apt's log goes).
#
# apt_install PACKAGE...: installs those not installed yet; 0, or 1 having said why it
# could not (no apt-get, no root or sudo -n, apt-get failing even after an update).
apt_install() {
    local need=() p
    for p in "$@"; do dpkg -s "$p" >/dev/null 2>&1 || need+=("$p"); done
    [ ${#need[@]} -eq 0 ] && return 0
    command -v apt-get >/dev/null || { say "no apt-get to install ${need[*]}"; return 1; }
    local sudo=""
    if [ "$(id -u)" -ne 0 ]; then
        sudo -n true 2>/dev/null || { say "installing ${need[*]} needs root (or sudo -n)"; return 1; }
        sudo="sudo -n"
    fi
    say "installing ${need[*]}"
    local apt=(env DEBIAN_FRONTEND=noninteractive apt-get -qq -o DPkg::Lock::Timeout=300)
    if ! $sudo "${apt[@]}" install -y --no-install-recommends "${need[@]}" >"$work/apt.log" 2>&1; then
        $sudo "${apt[@]}" update >>"$work/apt.log" 2>&1
        $sudo "${apt[@]}" install -y --no-install-recommends "${need[@]}" >>"$work/apt.log" 2>&1 ||
            { tail -n 5 "$work/apt.log"; say "apt-get could not install ${need[*]}"; return 1; }
    fi
}
