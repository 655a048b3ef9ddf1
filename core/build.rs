//! Names the target's backends as cfgs (`backends`: which of `concurrent`, `float` and the
//! two kinds of cells compile), and whether the compiler has the AVX-512 intrinsics
//! (`picollo_avx512`). It compiles nothing and writes nothing.
//! The instructions use the single-colon `cargo:` form: Debian's cargo-c builds with an older
//! cargo that ignores `cargo::` lines.

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    backends();
    avx512();
}

/// `picollo_avx512`: the compiler has the AVX-512 intrinsics and target features (stable
/// since Rust 1.89; the crate's minimum is older), so the batch record's AVX-512 path
/// compiles. Asks `$RUSTC --version`; an answer it cannot read leaves the path out.
fn avx512() {
    println!("cargo:rustc-check-cfg=cfg(picollo_avx512)");
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let Ok(out) = std::process::Command::new(rustc).arg("--version").output() else {
        return;
    };
    let text = String::from_utf8_lossy(&out.stdout);
    // "rustc 1.95.0 (…)": the minor version.
    let minor = text
        .split_whitespace()
        .nth(1)
        .and_then(|v| v.split('.').nth(1))
        .and_then(|m| m.parse::<u32>().ok());
    if minor.is_some_and(|m| m >= 89) {
        println!("cargo:rustc-cfg=picollo_avx512");
    }
}

/// Names, once, the conditions that pick which modules compile on the target:
/// - `picollo_concurrent`: `concurrent` (native 32- and 64-bit atomics, loom, or feature
///   `critical-section`);
/// - `picollo_native_cells` / `picollo_cs_cells`: its cells are native atomics (or loom's),
///   or critical sections (a target without those atomics, or `--cfg picollo_force_cs`);
/// - `picollo_float`: `float` (`concurrent`, feature `alloc` and pointer-wide atomics).
fn backends() {
    let cfg = |name: &str| std::env::var_os(format!("CARGO_CFG_{}", name.to_uppercase())).is_some();
    let feature = |name: &str| std::env::var_os(format!("CARGO_FEATURE_{name}")).is_some();
    let atomics = std::env::var("CARGO_CFG_TARGET_HAS_ATOMIC").unwrap_or_default();
    let has = |width: &str| atomics.split(',').any(|w| w == width);
    let (loom, force_cs, cs) = (
        cfg("loom"),
        cfg("picollo_force_cs"),
        feature("CRITICAL_SECTION"),
    );
    let native_atomics = has("32") && has("64");
    let concurrent = cs || loom || native_atomics;
    let backends = [
        ("picollo_concurrent", concurrent),
        (
            "picollo_native_cells",
            loom || (!force_cs && native_atomics),
        ),
        (
            "picollo_cs_cells",
            !loom && cs && (force_cs || !native_atomics),
        ),
        (
            "picollo_float",
            concurrent && feature("ALLOC") && has("ptr"),
        ),
    ];
    for (name, on) in backends {
        println!("cargo:rustc-check-cfg=cfg({name})");
        if on {
            println!("cargo:rustc-cfg={name}");
        }
    }
}
