#!/usr/bin/env bash
# The C ABI tests against sanitizer builds of libpicollo:
#  - AddressSanitizer + UndefinedBehaviorSanitizer: the library (every crate and std) built
#    with -Zsanitizer=address, its static library linked into the C and C++ ABI tests
#    (c-tests/test_abi*.c, test_abi.cpp) and the thread test compiled with gcc
#    -fsanitize=address,undefined -fno-sanitize-recover=all;
#  - ThreadSanitizer: the library built with -Zsanitizer=thread, linked into the thread
#    test (c-tests/test_threads*.c, every concurrency mode from several pthreads) compiled
#    with gcc -fsanitize=thread.
# Linking the Rust static library into a gcc-sanitized executable gives one sanitizer
# runtime (gcc's) for both languages. Any report fails the run (halt_on_error, exit codes).
# Needs the nightly toolchain with rust-src (-Zbuild-std: std itself must be instrumented,
# or TSan reports its synchronisation as races) and gcc/g++ with libasan, libubsan, libtsan
# (scripts/setup.sh installs them); without nightly or rust-src it says so and exits 0.
# Builds go to target/asan and target/tsan, the test programs to c-tests/build/sanitize/.
# SANITIZERS="address thread" picks (default both).
set -euo pipefail
exec </dev/null

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
export PATH="$HOME/.cargo/bin:$PATH"
host=x86_64-unknown-linux-gnu
build="$root/c-tests/build/sanitize"

skip() {
    echo "sanitize: SKIPPED: $*"
    exit 0
}
die() {
    echo "sanitize: FAIL: $*" >&2
    exit 1
}
step() { echo "--- sanitize: $*"; }

[[ "$(uname -s)-$(uname -m)" == Linux-x86_64 ]] || skip "sanitizer builds are set up for x86_64 Linux only"
. scripts/needs.sh
needs gcc g++ rust-src || die "gcc or g++ missing (above)"
rustup run nightly rustc --version >/dev/null 2>&1 ||
    skip "no nightly toolchain (rustup toolchain install nightly)"
sysroot="$(rustc +nightly --print sysroot)"
[[ -d "$sysroot/lib/rustlib/src/rust/library" ]] ||
    skip "nightly has no rust-src (rustup component add rust-src --toolchain nightly)"

mkdir -p "$build"
# What a Rust staticlib needs from the system (`rustc --print native-static-libs`).
native_libs=(-lgcc_s -lutil -lrt -lpthread -lm -ldl -lc)

# Build libpicollo.a with -Zsanitizer=$1 into target/$1; prints the library's path.
build_lib() {
    local san=$1 dir
    case $san in
    address) dir="$root/target/asan" ;;
    thread) dir="$root/target/tsan" ;;
    esac
    # opt-level 1 keeps the instrumented tests quick without a release build's LTO time.
    RUSTFLAGS="-Zsanitizer=$san -Cforce-frame-pointers=yes" \
        CARGO_PROFILE_DEV_OPT_LEVEL=1 CARGO_PROFILE_DEV_DEBUG=1 \
        cargo +nightly build -q -p picollo-ffi -Zbuild-std --target "$host" \
        --target-dir "$dir" >&2
    local lib="$dir/$host/debug/libpicollo.a"
    [[ -f "$lib" ]] || die "cargo did not produce $lib"
    echo "$lib"
}

# Run one test program, demand exit 0 and "N passed, 0 failed" as its last line; a
# sanitizer report anywhere in the output fails too.
run_test() {
    local name=$1 log=$2
    shift 2
    local status=0
    "$@" >"$log" 2>&1 || status=$?
    if [[ $status -ne 0 ]] || grep -Eq 'ERROR: (Address|Leak|Thread)Sanitizer|WARNING: ThreadSanitizer|runtime error:' "$log" ||
        ! tail -n 1 "$log" | grep -Eq '^[0-9]+ passed, 0 failed$'; then
        grep -E -m1 -B2 -A40 'Sanitizer|runtime error:' "$log" >&2 || tail -n 60 "$log" >&2
        die "$name exited with status $status (full output: $log)"
    fi
    echo "$name: $(tail -n 1 "$log")"
}

# test_abi and every part of it (c-tests/test_abi_*.c), as c-tests/run.sh builds it.
abi_sources=(check text_protocol test_abi)
for part in c-tests/test_abi_*.c; do
    abi_sources+=("$(basename "$part" .c)")
done
thread_sources=(check test_threads test_threads_reset test_threads_api)
# Compile c-tests/<name>.c for each name after $1 with "${cflags[@]}" into $build/$1_<name>.o;
# the objects' paths in the array `objects`.
compile() {
    local prefix="$1" src
    shift
    objects=()
    for src in "$@"; do
        gcc "${cflags[@]}" -c "c-tests/$src.c" -o "$build/${prefix}_$src.o"
        objects+=("$build/${prefix}_$src.o")
    done
}
sanitizers=(${SANITIZERS:-address thread})

for san in "${sanitizers[@]}"; do
    case $san in
    address)
        step "libpicollo with -Zsanitizer=address (target/asan)"
        start=$SECONDS
        lib="$(build_lib address)"
        echo "built in $((SECONDS - start)) s"
        flags=(-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
        cflags=(-std=c99 -Wall -Wextra -Werror -pedantic -O1 -g -pthread -Iinclude "${flags[@]}")
        step "C and C++ ABI tests and test_threads, gcc ${flags[*]}"
        compile asan "${abi_sources[@]}"
        gcc "${flags[@]}" -pthread "${objects[@]}" "$lib" "${native_libs[@]}" -o "$build/test_abi_asan"
        g++ -std=c++17 -Wall -Wextra -Werror -O1 -g -pthread -Iinclude "${flags[@]}" \
            c-tests/test_abi.cpp "$lib" "${native_libs[@]}" -o "$build/test_abi_cpp_asan"
        compile asan "${thread_sources[@]}"
        gcc "${flags[@]}" -pthread "${objects[@]}" "$lib" "${native_libs[@]}" -o "$build/test_threads_asan"
        gcc "${cflags[@]}" -c c-tests/test_bad_input.c -o "$build/asan_test_bad_input.o"
        gcc "${flags[@]}" -pthread "$build/asan_check.o" "$build/asan_test_bad_input.o" "$lib" \
            "${native_libs[@]}" -lm -o "$build/test_bad_input_asan"
        export ASAN_OPTIONS="halt_on_error=1:detect_leaks=1:detect_stack_use_after_return=1:strict_string_checks=1:check_initialization_order=1"
        export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
        # The timing of the harness test is checked in c-tests/run.sh's native runs; here
        # only its other checks (a second draw of the same odds would double them).
        run_test "test_abi (ASan+UBSan)" "$build/test_abi_asan.out" \
            env PICOLLO_NO_TIMING_CHECKS=1 "$build/test_abi_asan"
        run_test "test_abi_cpp (ASan+UBSan)" "$build/test_abi_cpp_asan.out" "$build/test_abi_cpp_asan"
        run_test "test_bad_input (ASan+UBSan)" "$build/test_bad_input_asan.out" \
            "$build/test_bad_input_asan"
        run_test "test_threads --quick (ASan+UBSan)" "$build/test_threads_asan.out" \
            "$build/test_threads_asan" --quick
        ;;
    thread)
        step "libpicollo with -Zsanitizer=thread (target/tsan)"
        start=$SECONDS
        lib="$(build_lib thread)"
        echo "built in $((SECONDS - start)) s"
        flags=(-fsanitize=thread -fno-omit-frame-pointer)
        # -Wno-tsan: the test's fences only order its own atomic counters (TSan does not
        # model fences, and atomics are never reported as races).
        cflags=(-std=c99 -Wall -Wextra -Werror -Wno-tsan -pedantic -O1 -g -pthread -Iinclude
            "${flags[@]}")
        step "test_threads, gcc ${flags[*]}"
        compile tsan "${thread_sources[@]}"
        # Rust's (LLVM's) TSan calls __tsan_memcpy/memmove/memset, which gcc's libtsan lacks.
        gcc -std=c99 -Wall -Wextra -Werror -O1 -g -fno-builtin "${flags[@]}" \
            -c c-tests/sanitize/tsan_mem_shim.c -o "$build/tsan_mem_shim.o"
        gcc "${flags[@]}" -pthread "${objects[@]}" "$build/tsan_mem_shim.o" "$lib" "${native_libs[@]}" \
            -o "$build/test_threads_tsan"
        export TSAN_OPTIONS="halt_on_error=1:exitcode=66:second_deadlock_stack=1"
        # gcc's TSan runtime cannot map its shadow memory under the kernel's full address
        # randomisation (vm.mmap_rnd_bits above 28 on recent kernels): run without it.
        run_test "test_threads --quick (TSan)" "$build/test_threads_tsan.out" \
            setarch "$(uname -m)" -R "$build/test_threads_tsan" --quick
        ;;
    *) die "unknown sanitizer '$san' (address or thread)" ;;
    esac
done
echo "sanitize: OK"
