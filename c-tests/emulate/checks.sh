# checks.sh: sourced by scripts/emulate.sh (which sets `build` and `say` and has built the
# plugins and guests there): every check under one QEMU (all_checks), and the cost figures
# (cost_figures). Guest checks that pass count in `exact` of `runs`; a refusal that does
# not go as it should sets `fail`.
exact=0 runs=0 fail=0
ALL_THREADS=18446744073709551615 # PICOLLO_EMULATED_ALL_THREADS
MAGIC=5785229070934299953        # PICOLLO_EMULATED_MAGIC

# run NAME COMMAND...: a check that must exit 0 (its output shown).
run() {
    local name=$1
    shift
    runs=$((runs + 1))
    echo "== $name"
    if "$@"; then exact=$((exact + 1)); else say "FAILED: $name"; fi
}

# expect NAME STATUS TEXT COMMAND...: the command exits STATUS and says TEXT.
expect() {
    local name=$1 status=$2 text=$3 out rc
    shift 3
    out="$("$@" 2>&1)"
    rc=$?
    if [ "$rc" -eq "$status" ] && grep -qF -- "$text" <<<"$out"; then
        echo "== $name: exit $rc, \"$text\""
    else
        say "FAILED: $name: exit $rc, want $status and \"$text\" in: $out"
        fail=1
    fi
}

# The fields of the record in file $1 (picollo_emulated.h's order), on one line.
record() { od -An -v -t u8 -w96 "$1"; }

# api_version QEMU: the plugin says which API version it chose (verbose=on), and QEMU's
# range holds it (QEMU would refuse it otherwise; this shows which it was).
api_version() {
    local line chosen min cur
    line=$("$1" -plugin "$build/plugin.so,verbose=on" "$build/work-x86_64" chain 1 2>&1 |
        grep 'plugin API version') || return 1
    echo "$line"
    local n='\([0-9]*\)'
    read -r chosen min cur < <(sed "s/.*version $n (this QEMU loads $n to $n).*/\\1 \\2 \\3/" <<<"$line")
    [ "$min" -le "$chosen" ] && [ "$chosen" -le "$cur" ]
}

# threads QEMU PLUGIN WANT: `work threads WANT` (two threads alive at once, then the main
# thread), and the totals record agrees: flagged incomplete exactly when WANT says so.
threads() {
    local f=$build/threads.rec magic version thread flags
    rm -f "$f"
    "$1" -plugin "$2,totals=$f" "$build/work-x86_64" threads "$3" || return 1
    read -r magic version thread flags _ < <(record "$f")
    echo "totals record: thread $thread, flags $flags"
    [ "$magic" = $MAGIC ] && [ "$thread" = $ALL_THREADS ] &&
        [ $(((flags & 4) != 0)) -eq "$([ "$3" = incomplete ] && echo 1 || echo 0)" ]
}

# totals_of QEMU GUEST N [PREFIX...]: the instructions in the totals record of `GUEST chain
# N`, run with an empty environment (its size changes the start-up's count) under PREFIX.
totals_of() {
    local q=$1 guest=$2 n=$3 f=$build/chain.rec magic version thread flags instructions
    shift 3
    rm -f "$f"
    env -i "$@" "$q" -plugin "$build/plugin.so,totals=$f" "$guest" chain "$n" || return 1
    read -r magic version thread flags instructions _ < <(record "$f")
    [ "$magic" = $MAGIC ] && [ "$thread" = $ALL_THREADS ] && [ "$flags" = 0 ] &&
        echo "$instructions"
}

# totals QEMU GUEST: the totals of 1,000,000 chain steps are the same in three runs and
# under setarch -R (no address randomisation), and 2,000,000 steps (as many digits: argv
# is as long) give exactly 3 instructions more per step.
totals() {
    local q=$1 g=$2 a b c r d e setarch how="not run (no setarch)"
    setarch=$(command -v setarch) || setarch=""
    a=$(totals_of "$q" "$g" 1000000) && b=$(totals_of "$q" "$g" 1000000) &&
        c=$(totals_of "$q" "$g" 1000000) && d=$(totals_of "$q" "$g" 2000000) &&
        e=$(totals_of "$q" "$g" 1000000 PICOLLO_PAD=1) || return 1
    r=$a
    if [ -n "$setarch" ]; then
        r=$(totals_of "$q" "$g" 1000000 "$setarch" -R) || return 1
        how=$r
    fi
    echo "totals: 1000000 steps: $a, $b, $c instructions, under setarch -R $how;" \
        "2000000 steps: $d (+$((d - a)), want +3000000); with one 12-byte environment" \
        "variable: $e (+$((e - a)), so the guests run with env -i)"
    [ "$a" = "$b" ] && [ "$b" = "$c" ] && [ "$c" = "$r" ] && [ $((d - a)) -eq 3000000 ]
}

# refusals LABEL QEMU: what goes wrong is told, and how.
refusals() {
    local l=$1 q=$2 p=$build/plugin.so g=$build/test_emulated-x86_64
    expect "$l: the guest run natively" 77 "not running under the Picollo QEMU plugin" "$g"
    expect "$l: without the plugin" 77 "not running under the Picollo QEMU plugin" "$q" "$g"
    expect "$l: a plugin of another record version" 3 \
        "the plugin writes record version 2; this program reads version 1" \
        "$q" -plugin "$build/plugin-v2.so" "$g"
    expect "$l: an unknown plugin argument" 1 "argument 'cache=on': unknown" \
        "$q" -plugin "$p,cache=on" "$g"
    expect "$l: a geometry not of powers of two" 1 \
        "argument 'l1d=1000:8:64': BYTES, WAYS and LINE must be powers of two" \
        "$q" -plugin "$p,l1d=1000:8:64" "$g"
    expect "$l: a geometry with no set" 1 "argument 'l1d=256:8:64': WAYS lines of LINE bytes" \
        "$q" -plugin "$p,l1d=256:8:64" "$g"
    expect "$l: no plugin file" 1 "nowhere.so" "$q" -plugin "$build/nowhere.so" "$g"
    expect "$l: totals to a path that cannot be written (the guest's exit status stays)" 0 \
        "picollo plugin: FAILED to write the totals to $build/no-such-dir/totals: No such file" \
        "$q" -plugin "$p,totals=$build/no-such-dir/totals" "$build/work-x86_64" chain 10
}

# all_checks LABEL QEMU_X86_64 QEMU_AARCH64: every check under one QEMU.
all_checks() {
    local l=$1 x=$2 a=$3 p=$build/plugin.so b=$build
    say "the checks under $l"
    run "$l: the plugin API version" api_version "$x"
    run "$l: x86_64" "$x" -plugin "$p" "$b/test_emulated-x86_64"
    run "$l: x86_64, mem=on" "$x" -plugin "$p,mem=on" "$b/test_emulated-x86_64"
    run "$l: aarch64, mem=on" "$a" -plugin "$p,mem=on" "$b/test_emulated-aarch64"
    run "$l: x86_64, l1d=on" "$x" -plugin "$p,l1d=on" "$b/test_l1d-x86_64"
    run "$l: x86_64, l1d=4096:2:32" "$x" -plugin "$p,l1d=4096:2:32" "$b/test_l1d-x86_64"
    run "$l: aarch64, l1d=on" "$a" -plugin "$p,l1d=on" "$b/test_l1d-aarch64"
    run "$l: aarch64, l1d=1024:1:64" "$a" -plugin "$p,l1d=1024:1:64" "$b/test_l1d-aarch64"
    run "$l: x86_64, totals at exit" totals "$x" "$b/work-x86_64"
    run "$l: aarch64, totals at exit" totals "$a" "$b/work-aarch64"
    run "$l: two threads, 4096 slots" threads "$x" "$p" complete
    run "$l: two threads, 2 slots (vCPU 2 uncounted)" threads "$x" "$b/plugin-2slots.so" incomplete
    refusals "$l" "$x"
}

# newer_refuses_api1 VERSION QEMU: without the version choice (API version 1 fixed), a QEMU
# of API 2 and later refuses the plugin by name: the choice is what makes it load.
newer_refuses_api1() {
    expect "QEMU $1: a plugin declaring API version 1 (no choice)" 1 \
        "plugin requires API version 1, but this QEMU supports only a minimum version of" \
        "$2" -plugin "$build/plugin-api1.so" "$build/test_emulated-x86_64"
}

# The median of three numbers.
median3() { printf '%s\n' "$@" | sort -g | sed -n 2p; }

# cost_figures QEMU: a compiled loop of 20 million steps under QEMU with the plugin (plain,
# mem=on, l1d=on) against the same loop natively (timed over 200 million steps, divided by
# 10: 20 million take some 15 ms, too short to time alone), three rounds interleaved so a
# drift of the machine lands on every side; the median of the rounds' ratios. Sets read_ns
# and the slowdown figures.
cost_figures() {
    local q=$1 c=$build/emulated_cost-x86_64 n=20000000 i t r base
    local plain=() mem=() l1d=() reads=()
    for i in 1 2 3; do
        base=$("$c" $((10 * n)) | awk '{print $1 / 10}')
        read -r t r _ < <("$q" -plugin "$build/plugin.so" "$c" $n)
        plain+=("$(awk -v a="$t" -v b="$base" 'BEGIN { print a / b }')") reads+=("$r")
        t=$("$q" -plugin "$build/plugin.so,mem=on" "$c" $n | awk '{print $1}')
        mem+=("$(awk -v a="$t" -v b="$base" 'BEGIN { print a / b }')")
        t=$("$q" -plugin "$build/plugin.so,l1d=on" "$c" $n | awk '{print $1}')
        l1d+=("$(awk -v a="$t" -v b="$base" 'BEGIN { print a / b }')")
    done
    read_ns=$(median3 "${reads[@]}")
    slowdown=$(printf '%.1f' "$(median3 "${plain[@]}")")
    slowdown_mem=$(printf '%.1f' "$(median3 "${mem[@]}")")
    slowdown_l1d=$(printf '%.1f' "$(median3 "${l1d[@]}")")
    say "cost under $("$q" --version | head -n 1 | awk '{print "QEMU", $3}'): the loop's slowdown" \
        "over native per round: plugin ${plain[*]}; mem=on ${mem[*]}; l1d=on ${l1d[*]};" \
        "a read pair ${reads[*]} ns"
}
