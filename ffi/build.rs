//! Builds `bench record`'s C loops (`benches/c/header_record.c`) into objects linked into
//! the bench binary alone (`rustc-link-arg-benches`), so that the C caller's loop and the
//! Rust loops it is compared with live in one binary. The library itself links nothing of
//! it. Where the file is absent (the packaged crate) or no C compiler builds it, the bench
//! prints `NaN` for the C contenders.

use std::path::Path;

fn main() {
    println!("cargo::rustc-check-cfg=cfg(picollo_bench_c_loops)");
    let source = Path::new("benches/c/header_record.c");
    println!("cargo::rerun-if-changed={}", source.display());
    println!("cargo::rerun-if-changed=../include/picollo.h");
    println!("cargo::rerun-if-changed=../include/picollo_inline.h");
    let linux = std::env::var("CARGO_CFG_TARGET_OS").is_ok_and(|os| os == "linux");
    if !linux || !source.exists() {
        return;
    }
    let built = cc::Build::new()
        .file(source)
        .include("../include")
        .std("c99")
        .opt_level(2)
        .warnings_into_errors(true)
        .cargo_warnings(false)
        .try_compile_intermediates();
    if let Ok(objects) = built {
        for object in objects {
            println!("cargo::rustc-link-arg-benches={}", object.display());
        }
        println!("cargo::rustc-cfg=picollo_bench_c_loops");
    }
}
