//! Picollo's QEMU plugin as the library carries it: built from `native/qemu/` with this
//! crate, embedded, and written out once per user where QEMU can load it
//! (`qemu-x86_64 -plugin PATH PROG`), so that `picollo emulate` and every binding find the
//! plugin of their own build without configuration.

use std::io::Write;
use std::path::PathBuf;

use super::error::PerfError;

/// The plugin's shared object, as built with this crate.
pub fn qemu_plugin() -> &'static [u8] {
    include_bytes!(concat!(env!("OUT_DIR"), "/picollo_qemu_plugin.so"))
}

/// FNV-1a of `bytes`: names the plugin's file by its content, so builds never share one.
fn fingerprint(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// Where this user's copies go: `$XDG_CACHE_HOME/picollo`, `$HOME/.cache/picollo`, or the
/// temporary directory's `picollo-UID`.
fn cache_dir() -> PathBuf {
    let var = |k: &str| {
        std::env::var_os(k)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    if let Some(dir) = var("XDG_CACHE_HOME") {
        return dir.join("picollo");
    }
    if let Some(home) = var("HOME") {
        return home.join(".cache").join("picollo");
    }
    // SAFETY: getuid has no preconditions and cannot fail.
    let uid = unsafe { libc::getuid() };
    std::env::temp_dir().join(format!("picollo-{uid}"))
}

/// Write the plugin where QEMU can load it, unless a copy of these very bytes is there
/// already, and return its path (`…/picollo/qemu-plugin-VERSION-HASH.so`). The file is
/// written whole under another name and then renamed, so a concurrent caller sees either
/// no file or all of it.
pub fn install_qemu_plugin() -> Result<PathBuf, PerfError> {
    let bytes = qemu_plugin();
    let dir = cache_dir();
    let name = format!(
        "qemu-plugin-{}-{:016x}.so",
        env!("CARGO_PKG_VERSION"),
        fingerprint(bytes)
    );
    let path = dir.join(name);
    if std::fs::metadata(&path).is_ok_and(|m| m.len() == bytes.len() as u64) {
        return Ok(path);
    }
    let failed = |what: &str, e: std::io::Error| {
        let errno = e.raw_os_error().unwrap_or(0);
        let message = format!("{what} {}: {e}", dir.display());
        PerfError::new(super::PerfErrorKind::Os, errno, None, message)
    };
    std::fs::create_dir_all(&dir).map_err(|e| failed("cannot create", e))?;
    static WRITES: core::sync::atomic::AtomicU64 = core::sync::atomic::AtomicU64::new(0);
    let n = WRITES.fetch_add(1, core::sync::atomic::Ordering::Relaxed);
    let part = dir.join(format!(".qemu-plugin-{}-{n}.part", std::process::id()));
    let mut f = std::fs::File::create(&part).map_err(|e| failed("cannot write into", e))?;
    f.write_all(bytes)
        .and_then(|()| f.sync_all())
        .and_then(|()| std::fs::rename(&part, &path))
        .map_err(|e| failed("cannot write the QEMU plugin into", e))?;
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_plugin_is_a_shared_object_written_once_by_content() {
        let bytes = qemu_plugin();
        assert_eq!(&bytes[..4], b"\x7fELF", "an ELF file");
        assert!(bytes.windows(19).any(|w| w == b"qemu_plugin_install"));
        let path = install_qemu_plugin().unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), bytes);
        assert_eq!(install_qemu_plugin().unwrap(), path, "the same file again");
        let name = path.file_name().unwrap().to_str().unwrap();
        assert!(
            name.starts_with("qemu-plugin-") && name.ends_with(".so"),
            "{name}"
        );
        assert_ne!(fingerprint(b"a"), fingerprint(b"b"));
    }
}
