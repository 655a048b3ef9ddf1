//! HdrHistogram's V2 encoding as export formats: `hdr-v2` (the binary blob, compressed or
//! plain) and `hdr-v2-base64` (the text interval logs carry). The encoding is `v2.rs`'s.

use super::export::{About, Export, ExportError, ExportErrorKind, Options, Out, Written};
use super::v2::{Deflate, V2Error};
use crate::View;

impl From<V2Error> for ExportError {
    /// A failed allocation is `OutOfMemory`; anything else an encoder meets (saturated
    /// counts, a count, value or unit too large for HdrHistogram) is `Unencodable`.
    fn from(e: V2Error) -> Self {
        let kind = match e {
            V2Error::OutOfMemory(_) => ExportErrorKind::OutOfMemory,
            _ => ExportErrorKind::Unencodable,
        };
        ExportError::new(kind, alloc::format!("{e}"))
    }
}

/// The `level` option: a zlib level, 0 to 10 (default 1).
fn deflate(options: &Options<'_>) -> Result<Deflate, ExportError> {
    let level: u8 = options.parse("level", Deflate::FAST.get())?;
    Deflate::level(level).ok_or_else(|| {
        ExportError::option(format_args!(
            "option \"level\" is {level}: a deflate level is 0 (stored) to 10"
        ))
    })
}

const LEVEL: (&str, &str) = (
    "level",
    "the zlib level of the compressed form, 0 (stored) to 10 (default 1)",
);

/// The binary V2 blob (`hdr-v2`).
pub(crate) struct V2Binary;

impl Export for V2Binary {
    fn about(&self) -> &'static About {
        &About {
            name: "hdr-v2",
            description: "HdrHistogram's V2 encoding, the binary blob every HdrHistogram reads",
            options: &[
                (
                    "form",
                    "compressed (default; cookie 0x1c849314) or plain (0x1c849313)",
                ),
                LEVEL,
            ],
            binary: true,
        }
    }
    fn integer(&self, view: &View<'_, u64>, options: &Options<'_>, out: Out<'_>) -> Written {
        let deflate = deflate(options)?;
        let bytes = match options.get("form").unwrap_or("compressed") {
            "compressed" => view.encode_v2_compressed_with(deflate)?,
            "plain" => view.encode_v2()?,
            other => {
                return Err(ExportError::option(format_args!(
                    "option \"form\" is {other:?}: it is compressed or plain"
                )))
            }
        };
        out.extend_from_slice(&bytes);
        Ok(())
    }
}

/// The base64 text of the compressed V2 blob (`hdr-v2-base64`, `"HISTFAAA…"`).
pub(crate) struct V2Base64;

impl Export for V2Base64 {
    fn about(&self) -> &'static About {
        &About {
            name: "hdr-v2-base64",
            description:
                "the base64 text of HdrHistogram's compressed V2 blob, as interval logs carry it",
            options: &[LEVEL],
            binary: false,
        }
    }
    fn integer(&self, view: &View<'_, u64>, options: &Options<'_>, out: Out<'_>) -> Written {
        let text = view.encode_v2_base64_with(deflate(options)?)?;
        out.extend_from_slice(text.as_bytes());
        Ok(())
    }
}
