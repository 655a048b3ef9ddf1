# Sourced by the scripts that run sample suites as programs (c-tests/suite.sh,
# c-tests/csharp/suite.sh): `run` and `has`, over the caller's folder `$out` and its `die`.

# run WANT NAME PROGRAM ARGS...: run it in $out (its outputs under .picollo/ there), keep
# stdout and stderr in $out/NAME.log, demand exit status WANT (a list: "0|7").
run() {
    local want=$1 name=$2 status=0
    shift 2
    (cd "$out" && "$@") >"$out/$name.log" 2>&1 || status=$?
    [[ "|$want|" == *"|$status|"* ]] || {
        cat "$out/$name.log" >&2
        die "$name: exit status $status, not $want"
    }
}
# has NAME TEXT: the log of NAME holds TEXT.
has() {
    grep -qF -- "$2" "$out/$1.log" || {
        cat "$out/$1.log" >&2
        die "$1: no '$2' in its output"
    }
}
# The settings of a short measurement.
short=(--budget 0.3 --warmup 0.05 --counters none)
