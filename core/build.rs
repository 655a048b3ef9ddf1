//! Compiles `native/` (inline asm: rdpmc, rdtsc, rdtscp, lfence, cpuid, the mmap-page read
//! loop, add_chain) when feature `perf` is on and the target is x86-64 Linux, and tells the
//! crate so through `cfg(picollo_native)`. Every other target uses the read(2) path only.
//! In the repository `core/native` links to the workspace's `native/`; `cargo package`
//! follows the link, so the published crate carries the C sources themselves.
//! The instructions use the single-colon `cargo:` form: Debian's cargo-c builds with an older
//! cargo that ignores `cargo::` lines, and its library would silently lose `native/`.

fn main() {
    println!("cargo:rustc-check-cfg=cfg(picollo_native)");
    println!("cargo:rerun-if-changed=build.rs");
    #[cfg(feature = "perf")]
    native();
}

#[cfg(feature = "perf")]
fn native() {
    let arch = std::env::var("CARGO_CFG_TARGET_ARCH").unwrap_or_default();
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    if arch != "x86_64" || os != "linux" {
        return;
    }
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("native");
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
}
