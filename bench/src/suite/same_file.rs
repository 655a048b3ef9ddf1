//! Whether two builds named for `--against` are one file: a comparison of a build with a
//! byte-identical copy of itself is an A/A, and its user is told so before it runs.

use std::fs::File;
use std::io::{BufReader, Read};
use std::path::Path;

/// `a` and `b` hold the same bytes (`false` where either cannot be read).
pub(crate) fn same_bytes(a: &Path, b: &Path) -> bool {
    let (Ok(ma), Ok(mb)) = (std::fs::metadata(a), std::fs::metadata(b)) else {
        return false;
    };
    if ma.len() != mb.len() || !ma.is_file() || !mb.is_file() {
        return false;
    }
    let (Ok(fa), Ok(fb)) = (File::open(a), File::open(b)) else {
        return false;
    };
    let (mut ra, mut rb) = (BufReader::new(fa), BufReader::new(fb));
    let (mut ba, mut bb) = ([0u8; 8192], [0u8; 8192]);
    loop {
        let Ok(n) = ra.read(&mut ba) else {
            return false;
        };
        if n == 0 {
            return true;
        }
        if rb.read_exact(&mut bb[..n]).is_err() || ba[..n] != bb[..n] {
            return false;
        }
    }
}

/// The warning for `--against` naming `base` where this side runs `head`, where both are
/// one file's bytes.
pub(crate) fn a_a_warning(base: &Path, head: &Path) -> Option<std::string::String> {
    same_bytes(base, head).then(|| {
        std::format!(
            "warning: the two builds are the same file ({} and {} hold the same bytes): this \
             is an A/A comparison, which finds no change of the code",
            base.display(),
            head.display()
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_bytes_are_told_from_a_differing_byte_and_length() {
        let dir = std::env::temp_dir().join(std::format!("picollo-same-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = |name: &str, bytes: &[u8]| {
            let p = dir.join(name);
            std::fs::write(&p, bytes).unwrap();
            p
        };
        let big: std::vec::Vec<u8> = (0..20_000u32).map(|i| (i % 251) as u8).collect();
        let mut other = big.clone();
        other[15_000] ^= 1;
        let (a, b, c) = (file("a", &big), file("b", &big), file("c", &other));
        let d = file("d", &big[..19_999]);
        assert!(same_bytes(&a, &b));
        assert!(!same_bytes(&a, &c), "a byte differs past the first read");
        assert!(!same_bytes(&a, &d), "a shorter file");
        assert!(!same_bytes(&a, &dir.join("missing")));
        assert!(a_a_warning(&a, &b).unwrap().contains("A/A"));
        assert!(a_a_warning(&a, &c).is_none());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
