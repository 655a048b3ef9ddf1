//! Compiles `native/` (inline asm: the counter read, the tick clock, fences, cpuid on
//! x86-64, the mmap-page read loop, add_chain) and Picollo's QEMU plugin when the target is
//! x86-64 or arm64 Linux, and tells the crate so through `cfg(picollo_native)`. Every other
//! target uses the read(2) path and `CLOCK_MONOTONIC` only.
//! In the repository `perf/native` links to the workspace's `native/`; `cargo package`
//! follows the link, so the published crate carries the C sources themselves.
//! The instructions use the single-colon `cargo:` form: Debian's cargo-c builds with an older
//! cargo that ignores `cargo::` lines, and its library would silently lose `native/`.

fn main() {
    println!("cargo:rustc-check-cfg=cfg(picollo_native)");
    println!("cargo:rerun-if-changed=build.rs");
    native();
}

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
/// (`qemu_plugin`): the library carries the plugin its emulated counters read, and
/// writes it out where QEMU loads it from. Built with the target's C compiler, as QEMU runs
/// on the target's machine and loads plugins of its own architecture.
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
