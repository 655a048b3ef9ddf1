//! Names the target's backends as cfgs (`backends`: which of `concurrent`, `float` and the
//! two kinds of cells compile), and compiles `native/` (inline asm: the counter read, the
//! tick clock, fences, cpuid on x86-64, the mmap-page read loop, add_chain) when feature
//! `perf` is on and the target is x86-64 or arm64 Linux, and tells the crate so through
//! `cfg(picollo_native)`. Every other target uses the read(2) path only.
//! In the repository `core/native` links to the workspace's `native/`; `cargo package`
//! follows the link, so the published crate carries the C sources themselves.
//! The instructions use the single-colon `cargo:` form: Debian's cargo-c builds with an older
//! cargo that ignores `cargo::` lines, and its library would silently lose `native/`.

fn main() {
    println!("cargo:rustc-check-cfg=cfg(picollo_native)");
    println!("cargo:rerun-if-changed=build.rs");
    backends();
    #[cfg(feature = "perf")]
    native();
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

#[cfg(feature = "perf")]
fn native() {
    let arch = std::env::var("CARGO_CFG_TARGET_ARCH").unwrap_or_default();
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    if !matches!(arch.as_str(), "x86_64" | "aarch64") || os != "linux" {
        return;
    }
    // Read when the script runs, not baked in when it is compiled: a package unpacked at
    // another path may reuse a build script compiled for the first one.
    let manifest = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let dir = std::path::Path::new(&manifest).join("native");
    for file in ["picollo_native.c", "picollo_native.h"] {
        println!("cargo:rerun-if-changed={}", dir.join(file).display());
    }
    cc::Build::new()
        .file(dir.join("picollo_native.c"))
        .include(&dir)
        .std("c11")
        .opt_level(2)
        .warnings(true)
        .extra_warnings(true)
        .flag_if_supported("-Wno-unused-parameter")
        .compile("picollo_native");
    println!("cargo:rustc-cfg=picollo_native");
    qemu_plugin(&dir.join("qemu"));
}

/// Compiles Picollo's QEMU plugin (`native/qemu/`) into a shared object the crate embeds
/// (`perf::qemu_plugin`): the library carries the plugin its emulated counters read, and
/// writes it out where QEMU loads it from. Built with the target's C compiler, as QEMU runs
/// on the target's machine and loads plugins of its own architecture.
#[cfg(feature = "perf")]
fn qemu_plugin(dir: &std::path::Path) {
    // The plugin is one C file with its headers beside it.
    let sources = std::fs::read_dir(dir).expect("native/qemu is there");
    for entry in sources.flatten() {
        let path = entry.path();
        if path.extension().is_some_and(|e| e == "c" || e == "h") {
            println!("cargo:rerun-if-changed={}", path.display());
        }
    }
    let out = std::path::PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR"))
        .join("picollo_qemu_plugin.so");
    // The target's compiler alone, not its flags: a static build's (crt-static) would
    // link the C library into the shared object.
    let compiler = cc::Build::new().get_compiler();
    let status = std::process::Command::new(compiler.path())
        .args([
            "-O2",
            "-shared",
            "-fPIC",
            "-fvisibility=hidden",
            "-Wall",
            "-Wextra",
        ])
        .arg("-I")
        .arg(dir)
        .arg("-o")
        .arg(&out)
        .arg(dir.join("picollo_qemu_plugin.c"))
        // dlsym (the plugin API version QEMU offers) is in libdl before glibc 2.34.
        .arg("-ldl")
        .status()
        .expect("the C compiler runs");
    assert!(
        status.success(),
        "the QEMU plugin did not compile ({status})"
    );
}
