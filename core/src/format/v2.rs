//! HdrHistogram's V2 encoding: the binary form every HdrHistogram implementation (Java, C,
//! Rust, Python, JavaScript, .NET) reads and writes, plain and zlib-compressed, and the
//! base64 text of the compressed form that interval logs carry (`"HISTFAAA…"`).
//!
//! # How a Picollo layout maps onto HdrHistogram's
//! HdrHistogram's layout with lowest discernible value `L` and `d` significant digits is
//! Picollo's layout with block size `2^g`, where `g` = 4, 7, 10, 14, 17 for `d` = 1..=5
//! (relative errors 3.1 %, 0.39 %, 0.049 %, 0.0031 % and 0.00038 %), and unit
//! `2^floor(log2 L)`. For those five layouts a bucket's logical index less the layout's
//! first is HdrHistogram's counts index and the export is a straight copy.
//!
//! Any other layout is exported at the nearest **finer** HdrHistogram layout (the smallest
//! `g' >= g`): each Picollo bucket is then a union of `2^(g'-g)` HdrHistogram buckets, and its
//! count goes to the one holding the Picollo bucket's midpoint, so decoding back into the
//! original layout puts every count where it was. Layouts finer than 5 digits (`g` = 18, 19,
//! relative errors below 0.0002 %) have no finer peer: they are exported at 5 digits, and
//! neighbouring buckets are summed (counts stay exact, resolution drops to 0.00038 %).
//!
//! # What has no place in V2
//! - Underflow and overflow counts are exported as values just outside the trackable range:
//!   underflow at the largest value below the first bucket, overflow at the smallest value above
//!   the last. A decoder sees them as ordinary counts there (the total is kept).
//! - Saturated counts (counts that did not fit in a full bucket, so their bucket is unknown)
//!   and bucket counts above `i64::MAX` cannot be represented: encoding fails with
//!   [`V2Error::Saturated`] or [`V2Error::CountTooLarge`] rather than drop them.
//! - Values above `i64::MAX` (HdrHistogram's largest) fail with [`V2Error::ValueTooLarge`].
//! - The trackable range is not kept: the header says, as the lowest discernible value, the
//!   layout's unit (1 unless it has one, see [`crate::Config::with_lowest_discernible`]) and,
//!   as the highest trackable value, the top of the highest non-empty bucket (at least twice
//!   the unit), which keeps what a peer allocates to decode it small. A unit is exported
//!   only where HdrHistogram accepts it (`log2(unit) + block scale <= 61`), else
//!   [`V2Error::UnitTooLarge`].
//!
//! # Decoding
//! [`decode`] accepts what any HdrHistogram writes for integer histograms: significant digits
//! 1..=5, any lowest discernible value `L >= 1` and highest trackable value `H >= 2L`, counts
//! as zigzag LEB128 varints with zero runs (a single zero written as `0` or as a run of one).
//! The normalizing index offset is ignored (the payload is in logical index order whatever
//! it says, and hdr-histogram-js always writes 1), and the integer-to-double ratio must be
//! 1.0, or the integer 1 that hdr-histogram-js writes into that double field; any other ratio
//! marks a `DoubleHistogram`'s inner histogram and is refused.
//! The decoded histogram has HdrHistogram's layout with the unit `2^floor(log2 L)` of the
//! header, so its buckets are exactly the source's (with `L = 1000`, the lowest are 512
//! wide) and every percentile's bounds and ± are the data's; a counts index is the logical
//! index less [`Layout::first_index`]. It covers `0..=H` (up to the end of the block holding
//! `H`, every index HdrHistogram itself allows), or, when that would need more than
//! [`Limits::max_buckets`] counters, the range up to its highest non-empty bucket; nothing in
//! the payload is dropped.
//!
//! Decoders never trust a length: a compressed payload is inflated to at most the header size
//! plus [`Limits::max_payload_bytes`], counts past what the header's range allows are an error
//! (as in HdrHistogram's own decoders), and every failure is a [`V2Error`], never a panic.

use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;

use crate::config::Config;
use crate::counter::Counter;
use crate::histogram::Histogram;
use crate::layout::{Bucket, Layout};
use crate::shape::{OVER, SAT, UNDER};
use crate::view::{Counts, View};
use crate::OutOfMemory;

/// Cookie of an uncompressed V2 blob.
pub const V2_COOKIE: u32 = 0x1c84_9313;
/// Cookie of a zlib-compressed V2 blob.
pub const V2_COMPRESSED_COOKIE: u32 = 0x1c84_9314;
/// Size of the uncompressed header.
pub const V2_HEADER_LEN: usize = 40;
/// Block scales (log2 of the block size) of HdrHistogram's layouts with lowest discernible
/// value 1, for 1..=5 significant digits.
pub const HDR_BLOCK_SCALES: [u32; 5] = [4, 7, 10, 14, 17];

/// Why a V2 blob could not be written or read.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum V2Error {
    /// The input ends before a field it needs (`needed` bytes at least, `available` given).
    Truncated {
        /// Bytes the field needs from the start of the blob.
        needed: usize,
        /// Bytes there are.
        available: usize,
    },
    /// The first four bytes are not a V2 cookie.
    UnknownCookie(u32),
    /// A cookie of an older HdrHistogram encoding (V0, V1) or of a `DoubleHistogram`.
    UnsupportedEncoding(&'static str),
    /// A length field disagrees with the data.
    LengthMismatch {
        /// What the field says.
        declared: u64,
        /// What is there.
        actual: u64,
    },
    /// The declared or inflated size exceeds the decoder's limit.
    TooLarge {
        /// The size asked for (bytes or buckets, see `what`).
        size: u64,
        /// The limit.
        limit: u64,
        /// What was measured: `"payload bytes"` or `"buckets"`.
        what: &'static str,
    },
    /// Significant digits outside 1..=5.
    SignificantDigits(u32),
    /// A header field other implementations never write for integer histograms.
    BadHeader(&'static str),
    /// The zlib stream is corrupt.
    Zlib,
    /// The base64 text is not valid standard base64.
    Base64,
    /// A varint is malformed or runs past the payload, at this payload offset.
    Varint(usize),
    /// Counts continue past the last index the header's range allows.
    CountsPastRange {
        /// Index of the first count beyond the range.
        index: u64,
        /// Number of counts the range allows.
        limit: u64,
    },
    /// Encoding: a bucket count (at this value) does not fit in `i64`.
    CountTooLarge {
        /// Lowest value of the bucket.
        value: u64,
        /// The count.
        count: u64,
    },
    /// Encoding: the histogram has saturated counts, whose buckets are unknown.
    Saturated(u64),
    /// Encoding: a non-empty bucket lies above `i64::MAX`, HdrHistogram's largest value.
    ValueTooLarge(u64),
    /// Encoding: the layout's unit is too wide for HdrHistogram at its significant digits.
    UnitTooLarge(u64),
    /// Memory for the result could not be allocated.
    OutOfMemory(OutOfMemory),
}

impl From<OutOfMemory> for V2Error {
    fn from(e: OutOfMemory) -> Self {
        V2Error::OutOfMemory(e)
    }
}

impl core::fmt::Display for V2Error {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            V2Error::Truncated { needed, available } => write!(
                f,
                "truncated V2 histogram: needs at least {needed} bytes, has {available}"
            ),
            V2Error::UnknownCookie(c) => write!(
                f,
                "not an HdrHistogram V2 histogram: cookie 0x{c:08x} (expected 0x1c849313 or \
                 0x1c849314)"
            ),
            V2Error::UnsupportedEncoding(what) => {
                write!(f, "unsupported HdrHistogram encoding: {what}")
            }
            V2Error::LengthMismatch { declared, actual } => write!(
                f,
                "V2 length field says {declared} bytes but the data has {actual}"
            ),
            V2Error::TooLarge { size, limit, what } => {
                write!(f, "V2 histogram too large: {size} {what} (limit {limit})")
            }
            V2Error::SignificantDigits(d) => {
                write!(f, "V2 significant digits must be 1..=5, got {d}")
            }
            V2Error::BadHeader(why) => write!(f, "bad V2 header: {why}"),
            V2Error::Zlib => f.write_str("corrupt zlib stream in compressed V2 histogram"),
            V2Error::Base64 => f.write_str("invalid base64 in encoded histogram"),
            V2Error::Varint(at) => write!(f, "malformed V2 count varint at payload byte {at}"),
            V2Error::CountsPastRange { index, limit } => write!(
                f,
                "V2 counts continue to index {index}, past the {limit} the header's range allows"
            ),
            V2Error::OutOfMemory(e) => write!(f, "{e}"),
            _ => self.fmt_unencodable(f),
        }
    }
}

impl V2Error {
    /// The messages of the errors that refuse to encode a histogram HdrHistogram cannot hold.
    fn fmt_unencodable(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("cannot encode as V2: ")?;
        match self {
            V2Error::CountTooLarge { value, count } => {
                write!(f, "count {count} at value {value} exceeds i64::MAX")
            }
            V2Error::Saturated(n) => {
                write!(f, "{n} saturated counts have no bucket (use u64 counters)")
            }
            V2Error::ValueTooLarge(v) => {
                write!(f, "value {v} exceeds HdrHistogram's largest (i64::MAX)")
            }
            V2Error::UnitTooLarge(u) => write!(
                f,
                "unit {u} is too wide for HdrHistogram at these \
                 significant digits"
            ),
            other => write!(f, "{other:?}"),
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for V2Error {}

/// The fields of the 40-byte V2 header an encoder writes (the normalizing offset is 0 and
/// the conversion ratio 1.0).
struct V2Header {
    payload_len: u32,
    digits: u32,
    unit: u64,
    highest: u64,
}

impl V2Header {
    fn write(&self, header: &mut [u8]) {
        header[0..4].copy_from_slice(&V2_COOKIE.to_be_bytes());
        header[4..8].copy_from_slice(&self.payload_len.to_be_bytes());
        header[8..12].copy_from_slice(&0u32.to_be_bytes());
        header[12..16].copy_from_slice(&self.digits.to_be_bytes());
        header[16..24].copy_from_slice(&(self.unit as i64).to_be_bytes());
        header[24..32].copy_from_slice(&(self.highest as i64).to_be_bytes());
        header[32..40].copy_from_slice(&1.0f64.to_be_bytes());
    }
}

/// Bounds a decoder keeps to whatever the input claims.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Largest counts payload accepted, in bytes (also caps zlib inflation).
    pub max_payload_bytes: usize,
    /// Largest number of counters a decoded histogram may allocate.
    pub max_buckets: usize,
}

impl Default for Limits {
    /// 64 MiB of payload, 2^23 counters (64 MiB of `u64`): room for any histogram HdrHistogram
    /// itself can allocate (5 digits up to `i64::MAX` needs 6.2 million).
    fn default() -> Self {
        Limits {
            max_payload_bytes: 64 << 20,
            max_buckets: 1 << 23,
        }
    }
}

/// The HdrHistogram layout a Picollo layout is exported as: `(significant digits, block
/// scale)`. See the module documentation for the rule.
pub fn export_layout(layout: Layout) -> (u32, u32) {
    let g = layout.block_scale();
    match HDR_BLOCK_SCALES.iter().position(|&s| s >= g) {
        Some(i) => (i as u32 + 1, HDR_BLOCK_SCALES[i]),
        None => (5, HDR_BLOCK_SCALES[4]),
    }
}

/// The HdrHistogram layout a Picollo layout is exported as, with its unit: `(significant
/// digits, layout)`; an error when the unit is too wide for HdrHistogram at those digits
/// (it needs `log2(unit) + block scale <= 61`).
fn export_target(layout: Layout) -> Result<(u32, Layout), V2Error> {
    let (digits, scale) = export_layout(layout);
    let unit_scale = layout.unit_scale();
    let target = Layout::from_block_scale(scale)
        .and_then(|l| l.with_unit_scale(unit_scale))
        .filter(|_| unit_scale + scale <= 61)
        .ok_or(V2Error::UnitTooLarge(layout.unit()))?;
    Ok((digits, target))
}

/// A decoded V2 histogram and what its header said.
#[derive(Clone, Debug)]
pub struct Decoded {
    /// The counts, in the layout of the header's significant digits and the unit of its lowest
    /// discernible value (see [`decode`]).
    pub histogram: Histogram<u64, Vec<u64>>,
    /// Significant digits from the header.
    pub significant_digits: u32,
    /// Lowest discernible value from the header.
    pub lowest_discernible: u64,
    /// Highest trackable value from the header.
    pub highest_trackable: u64,
}

// ---------------------------------------------------------------------------------------
// Encoding

/// Bytes of the longest varint.
const VARINT_MAX: usize = 9;

/// Bytes a payload writer gathers before it appends them to its output (its stage holds
/// one entry more).
const STAGE: usize = 1024;

/// Bytes of the longest entry: a run of zeros and a count.
const ENTRY_MAX: usize = 2 * VARINT_MAX;

/// Writes zigzag LEB128 as HdrHistogram does into `to` (room for [`VARINT_MAX`] bytes):
/// 7-bit groups, at most 9 bytes, the ninth carrying bits 56..63 whole. Returns the bytes
/// written.
#[inline(always)]
fn put_varint(to: &mut [u8], n: i64) -> usize {
    let mut z = ((n << 1) ^ (n >> 63)) as u64;
    for (k, byte) in to.iter_mut().enumerate().take(VARINT_MAX - 1) {
        if z < 0x80 {
            *byte = z as u8;
            return k + 1;
        }
        *byte = (z as u8) | 0x80;
        z >>= 7;
    }
    to[VARINT_MAX - 1] = z as u8;
    VARINT_MAX
}

/// Writes an entry into `stage` at `at` (at most [`STAGE`]): the run of `zeros` before
/// it (a single zero as a zero count), then `count` (at most `i64::MAX`); returns where
/// the next entry goes. A function of its arguments, so that a caller's loop keeps the
/// position in a register.
#[inline(always)]
fn stage_entry(stage: &mut [u8; STAGE + ENTRY_MAX], at: usize, zeros: u64, count: u64) -> usize {
    let mut at = at;
    if zeros != 0 {
        let n = if zeros == 1 { 0 } else { -(zeros as i64) };
        at += put_varint(&mut stage[at..at + VARINT_MAX], n);
    }
    if count < SMALL {
        stage_small(stage, at, count)
    } else {
        at + put_varint(&mut stage[at..at + VARINT_MAX], count as i64)
    }
}

/// Counts below this are one or two bytes of varint (their zigzag is below 2^14).
const SMALL: u64 = 1 << 13;

/// Writes a count below [`SMALL`] into `stage` at `at` (at most [`STAGE`] + 2), in one or
/// two bytes (both written, the second kept when it is needed): no branch on the count.
/// Returns where the next entry goes.
#[inline(always)]
fn stage_small(stage: &mut [u8; STAGE + ENTRY_MAX], at: usize, count: u64) -> usize {
    // The zigzag of a non-negative count is `z = 2 · count`; its bits above the first
    // byte's seven, `high = z >> 7`, move up one (`+ high << 7`) and the first byte gets its
    // continuation bit (`+ 1 << 7`) where there are any.
    let high = count >> 6;
    let more = (high != 0) as u64;
    let bytes = 2 * count + ((high + more) << 7);
    stage[at..at + 2].copy_from_slice(&(bytes as u16).to_le_bytes());
    at + 1 + more as usize
}

/// Where a stream of counts stands: the zeros since the last entry, and the position in
/// the writer's stage (kept here, in registers, until the stream ends).
struct Run {
    zeros: u64,
    staged: usize,
}

impl Run {
    /// Drains the writer's stage when an entry might not fit it.
    #[inline(always)]
    fn make_room(&mut self, w: &mut PayloadWriter) -> Result<(), V2Error> {
        if self.staged > STAGE {
            w.staged = self.staged;
            w.drain()?;
            self.staged = 0;
        }
        Ok(())
    }

    /// The next bucket's count: a zero lengthens the run; any other count is written
    /// after the run. `Err(None)` for a count above `i64::MAX`.
    #[inline(always)]
    fn bucket(&mut self, w: &mut PayloadWriter, count: u64) -> Result<(), Option<V2Error>> {
        if count == 0 {
            self.zeros += 1;
            return Ok(());
        }
        if count > i64::MAX as u64 {
            return Err(None);
        }
        self.make_room(w).map_err(Some)?;
        self.staged = stage_entry(&mut w.stage, self.staged, self.zeros, count);
        self.zeros = 0;
        Ok(())
    }
}

/// Streams (HdrHistogram index, count) pairs in increasing index order into a payload,
/// summing pairs that land on the same index and writing zero runs. Bytes gather in a
/// fixed stage and move to `out` a block at a time.
struct PayloadWriter {
    out: Vec<u8>,
    stage: [u8; STAGE + ENTRY_MAX],
    staged: usize,
    /// Index the next written entry has.
    next_index: u64,
    /// Pending index and count, not yet written.
    pending: Option<(u64, u64, u64)>,
}

impl PayloadWriter {
    fn new(out: Vec<u8>) -> Self {
        PayloadWriter {
            out,
            stage: [0; STAGE + ENTRY_MAX],
            staged: 0,
            next_index: 0,
            pending: None,
        }
    }

    fn push(&mut self, index: u64, count: u64, value: u64) -> Result<(), V2Error> {
        match &mut self.pending {
            Some((i, c, _)) if *i == index => {
                *c = c.checked_add(count).ok_or(V2Error::CountTooLarge {
                    value,
                    count: u64::MAX,
                })?;
            }
            _ => {
                self.flush()?;
                self.pending = Some((index, count, value));
            }
        }
        Ok(())
    }

    /// Writes the pending pair, if any; `value` (a value of its bucket) names it when its
    /// count does not fit a varint.
    fn flush(&mut self) -> Result<(), V2Error> {
        let Some((index, count, value)) = self.pending.take() else {
            return Ok(());
        };
        if count > i64::MAX as u64 {
            return Err(V2Error::CountTooLarge { value, count });
        }
        self.entry(index, count)
    }

    /// Writes a count of at most `i64::MAX` at `index`, past the last one written.
    fn entry(&mut self, index: u64, count: u64) -> Result<(), V2Error> {
        let mut run = Run {
            zeros: index - self.next_index,
            staged: self.staged,
        };
        run.make_room(self)?;
        self.staged = stage_entry(&mut self.stage, run.staged, run.zeros, count);
        self.next_index = index + 1;
        Ok(())
    }

    /// Moves the staged bytes to `out`.
    fn drain(&mut self) -> Result<(), V2Error> {
        self.out.try_reserve(self.staged).map_err(|_| OutOfMemory {
            bytes: self.out.len().saturating_add(self.staged),
        })?;
        self.out.extend_from_slice(&self.stage[..self.staged]);
        self.staged = 0;
        Ok(())
    }

    /// Writes the pending pair and moves every staged byte to `out`.
    fn finish(&mut self) -> Result<(), V2Error> {
        self.flush()?;
        self.drain()
    }
}

impl<C: Counter, S: Counts<C> + ?Sized> View<'_, C, S> {
    /// HdrHistogram's uncompressed V2 encoding of these counts (cookie `0x1c849313`). See
    /// [`crate::hdr`] for how layouts and out-of-range counts are mapped.
    pub fn encode_v2(&self) -> Result<Vec<u8>, V2Error> {
        let mut out = Vec::new();
        self.encode_v2_into(&mut out)?;
        Ok(out)
    }

    /// [`View::encode_v2`] appended to `out` (reusing its capacity).
    pub fn encode_v2_into(&self, out: &mut Vec<u8>) -> Result<(), V2Error> {
        if self.outside[SAT] != 0 {
            return Err(V2Error::Saturated(self.outside[SAT]));
        }
        let layout = self.layout();
        let (digits, target) = export_target(layout)?;
        let start = out.len();
        let (payload_len, next_index) = match self.append_payload(out, layout, target) {
            Ok(written) => written,
            Err(e) => {
                out.truncate(start);
                return Err(e);
            }
        };
        // The top of the highest non-empty bucket: the smallest range a peer must allocate.
        let unit = layout.unit();
        let highest = match next_index {
            0 => 2 * unit,
            n => target
                .bucket_of_index(target.first_index() + n as usize - 1)
                .highest
                .max(2 * unit),
        };
        let header = V2Header {
            payload_len,
            digits,
            unit,
            highest,
        };
        header.write(&mut out[start..start + V2_HEADER_LEN]);
        Ok(())
    }

    /// Appends a zeroed header and the payload in `target`'s indices to `out`: the payload's
    /// length (refused past `u32::MAX` bytes) and the index after the last one written.
    fn append_payload(
        &self,
        out: &mut Vec<u8>,
        layout: Layout,
        target: Layout,
    ) -> Result<(u32, u64), V2Error> {
        out.try_reserve(V2_HEADER_LEN + 64)
            .map_err(|_| OutOfMemory {
                bytes: V2_HEADER_LEN + 64,
            })?;
        out.extend_from_slice(&[0; V2_HEADER_LEN]);
        let payload_start = out.len();
        let mut w = PayloadWriter::new(core::mem::take(out));
        let result = self.write_payload(&mut w, layout, target);
        *out = w.out;
        result?;
        let payload_len = out.len() - payload_start;
        let payload_len = u32::try_from(payload_len).map_err(|_| V2Error::TooLarge {
            size: payload_len as u64,
            limit: u32::MAX as u64,
            what: "payload bytes",
        })?;
        Ok((payload_len, w.next_index))
    }

    /// Streams the stored counts into `w` when the target layout is this one: the storage
    /// index plus the first stored logical index, less the layout's first, is the target
    /// index. Each index is written once, so no pair waits for a next one to add to it.
    fn write_same_layout(&self, w: &mut PayloadWriter) -> Result<(), V2Error> {
        let base = (self.first_index() - self.layout().first_index()) as u64;
        let Some(last) = self.counts.last_nonzero() else {
            return Ok(());
        };
        if self.shape.bucket(last).lower > i64::MAX as u64 {
            return self.write_each_bucket(w, base);
        }
        w.flush()?;
        // At least a byte per bucket up to the last non-empty one, most often (one or
        // two per count, one per run of zeros): room for that once, not by doublings.
        w.out.try_reserve(last + 1).map_err(|_| OutOfMemory {
            bytes: w.out.len().saturating_add(last + 1),
        })?;
        // Zeros are counted, not indexed: the run before the first stored bucket is the
        // gap from the last index written. The stage position stays in a register.
        let mut run = Run {
            zeros: base - w.next_index,
            staged: w.staged,
        };
        let end = last + 1;
        let whole = end - end % 8;
        for group in self.counts.groups::<8>(0, whole) {
            // Eight counted buckets with small counts, the body of a distribution: two
            // bytes each at most, no zeros, so no branch on any of them.
            let small = group
                .iter()
                .fold(true, |all, &c| all & (c.wrapping_sub(1) < SMALL - 1));
            if run.zeros == 0 && small {
                run.make_room(w)?;
                for c in group {
                    run.staged = stage_small(&mut w.stage, run.staged, c);
                }
            } else {
                for c in group {
                    run.bucket(w, c).map_err(|e| self.either(e))?;
                }
            }
        }
        for c in self.counts.values(whole, end) {
            run.bucket(w, c.to_u64()).map_err(|e| self.either(e))?;
        }
        (w.staged, w.next_index) = (run.staged, base + last as u64 + 1);
        Ok(())
    }

    /// `e`, or (`None`) the error for the first count above `i64::MAX`.
    fn either(&self, e: Option<V2Error>) -> V2Error {
        e.unwrap_or_else(|| self.count_too_large())
    }

    /// The error for the first count above `i64::MAX` (there is one).
    #[cold]
    fn count_too_large(&self) -> V2Error {
        let len = self.counts.len();
        let i = self
            .counts
            .values(0, len)
            .position(|c| c.to_u64() > i64::MAX as u64);
        let i = i.unwrap_or(0);
        V2Error::CountTooLarge {
            value: self.shape.bucket(i).lower,
            count: self.counts.get(i).to_u64(),
        }
    }

    /// [`View::write_same_layout`] bucket by bucket, each value checked: the first bucket
    /// past `i64::MAX` (or count past it) is the error.
    fn write_each_bucket(&self, w: &mut PayloadWriter, base: u64) -> Result<(), V2Error> {
        for i in 0..self.counts.len() {
            let c = self.counts.get(i).to_u64();
            if c != 0 {
                let b = self.shape.bucket(i);
                if b.lower > i64::MAX as u64 {
                    return Err(V2Error::ValueTooLarge(b.lower));
                }
                w.push(base + i as u64, c, b.lower)?;
            }
        }
        Ok(())
    }

    /// Streams every count (underflow, buckets, overflow) into `w` in HdrHistogram index
    /// order.
    fn write_payload(
        &self,
        w: &mut PayloadWriter,
        layout: Layout,
        target: Layout,
    ) -> Result<(), V2Error> {
        let target_scale = target.block_scale();
        let g = layout.block_scale();
        let log2 = crate::layout::Log2::for_this_cpu();
        // The value whose HdrHistogram bucket receives a Picollo bucket's count.
        let pick = |b: Bucket| {
            if target_scale >= g {
                b.midpoint()
            } else {
                b.lower
            }
        };
        let emit = |w: &mut PayloadWriter, b: Bucket, count: u64| -> Result<(), V2Error> {
            let v = pick(b);
            if v > i64::MAX as u64 {
                return Err(V2Error::ValueTooLarge(v));
            }
            let index = target.fast_index(v, log2) - target.first_index();
            w.push(index as u64, count, b.lower)
        };
        let first = self.shape.bucket(0);
        if self.outside[UNDER] != 0 && first.lower > 0 {
            let v = first.lower - 1;
            emit(w, layout.bucket_of(v), self.outside[UNDER])?;
        }
        if target_scale == g {
            self.write_same_layout(w)?;
        } else {
            for i in 0..self.counts.len() {
                let c = self.counts.get(i).to_u64();
                if c != 0 {
                    emit(w, self.shape.bucket(i), c)?;
                }
            }
        }
        let last = self.shape.bucket(self.counts.len() - 1);
        if self.outside[OVER] != 0 {
            match last.highest.checked_add(1) {
                Some(v) => emit(w, layout.bucket_of(v), self.outside[OVER])?,
                None => return Err(V2Error::ValueTooLarge(u64::MAX)),
            }
        }
        w.finish()
    }

    /// HdrHistogram's compressed V2 encoding (cookie `0x1c849314`, zlib), what
    /// `encodeIntoCompressedByteBuffer` writes, deflated at [`Deflate::FAST`].
    pub fn encode_v2_compressed(&self) -> Result<Vec<u8>, V2Error> {
        self.encode_v2_compressed_with(Deflate::FAST)
    }

    /// [`View::encode_v2_compressed`] deflated at `deflate`'s level: smaller blobs for
    /// more time (see [`Deflate`]).
    pub fn encode_v2_compressed_with(&self, deflate: Deflate) -> Result<Vec<u8>, V2Error> {
        let plain = self.encode_v2()?;
        let z = miniz_oxide::deflate::compress_to_vec_zlib(&plain, deflate.0);
        let mut out = Vec::new();
        out.try_reserve_exact(8 + z.len())
            .map_err(|_| OutOfMemory { bytes: 8 + z.len() })?;
        out.extend_from_slice(&V2_COMPRESSED_COOKIE.to_be_bytes());
        out.extend_from_slice(&(z.len() as u32).to_be_bytes());
        out.extend_from_slice(&z);
        Ok(out)
    }

    /// The base64 text of the compressed V2 encoding (`"HISTFAAA…"`), as interval logs and
    /// `hdrh`'s `encode()` carry it.
    pub fn encode_v2_base64(&self) -> Result<String, V2Error> {
        self.encode_v2_base64_with(Deflate::FAST)
    }

    /// [`View::encode_v2_base64`] deflated at `deflate`'s level.
    pub fn encode_v2_base64_with(&self, deflate: Deflate) -> Result<String, V2Error> {
        use base64::Engine as _;
        let bytes = self.encode_v2_compressed_with(deflate)?;
        Ok(base64::engine::general_purpose::STANDARD.encode(bytes))
    }
}

/// How hard compressed V2 blobs are deflated: a zlib level, 0 (stored, no compression) to
/// 9 (smallest; 10 is miniz's slower extra). Every level decodes alike, here and in every
/// HdrHistogram.
///
/// The default, [`Deflate::FAST`] (level 1), suits histogram payloads (runs of small
/// varints): on the 10^6 log-normal latencies of `benches/encode.rs` (0.1 % buckets) its
/// blob is 8,450 bytes in 182 µs, level 6's (zlib's default, HdrHistogram Java's and the
/// `hdrhistogram` crate's) 7,661 bytes in 644 µs, level 9's 7,660 in 598 µs (2-core AMD
/// EPYC VM); `cargo bench --bench encode` prints these side by side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Deflate(u8);

impl Deflate {
    /// Level 1: fast, and what [`View::encode_v2_compressed`] uses.
    pub const FAST: Deflate = Deflate(1);
    /// Level 6: zlib's default, as HdrHistogram Java and the `hdrhistogram` crate deflate.
    pub const DEFAULT: Deflate = Deflate(6);
    /// Level 9: the smallest blobs of zlib's levels.
    pub const BEST: Deflate = Deflate(9);

    /// A level from 0 to 10; `None` above.
    pub const fn level(level: u8) -> Option<Deflate> {
        if level <= 10 {
            Some(Deflate(level))
        } else {
            None
        }
    }

    /// The zlib level.
    pub const fn get(self) -> u8 {
        self.0
    }
}

impl Default for Deflate {
    /// [`Deflate::FAST`].
    fn default() -> Self {
        Deflate::FAST
    }
}

// ---------------------------------------------------------------------------------------
// Decoding

fn be_u32(b: &[u8], at: usize) -> Result<u32, V2Error> {
    b.get(at..at + 4)
        .map(|s| u32::from_be_bytes([s[0], s[1], s[2], s[3]]))
        .ok_or(V2Error::Truncated {
            needed: at + 4,
            available: b.len(),
        })
}

fn be_u64(b: &[u8], at: usize) -> Result<u64, V2Error> {
    match b.get(at..at + 8) {
        Some(s) => {
            let mut a = [0u8; 8];
            a.copy_from_slice(s);
            Ok(u64::from_be_bytes(a))
        }
        None => Err(V2Error::Truncated {
            needed: at + 8,
            available: b.len(),
        }),
    }
}

fn check_cookie(cookie: u32) -> Result<bool, V2Error> {
    match cookie {
        V2_COOKIE => Ok(false),
        V2_COMPRESSED_COOKIE => Ok(true),
        0x1c84_9301 | 0x1c84_9302 => Err(V2Error::UnsupportedEncoding("V0 (pre-2015)")),
        0x1c84_9308 | 0x1c84_9309 => Err(V2Error::UnsupportedEncoding("V1")),
        c if (c & 0xffff_ff00) == 0x0c72_1200 => Err(V2Error::UnsupportedEncoding(
            "DoubleHistogram (floating-point values)",
        )),
        c => Err(V2Error::UnknownCookie(c)),
    }
}

/// The ratio field as hdr-histogram-js writes it: the 64-bit integer 1 where other writers put
/// the double 1.0 (as a double it would be the smallest subnormal, a ratio no writer means).
const JS_RATIO_BITS: u64 = 1;

/// The parsed header of an uncompressed blob.
struct Header {
    payload_len: usize,
    digits: u32,
    lowest: u64,
    highest: u64,
}

fn parse_header(b: &[u8], limits: &Limits) -> Result<Header, V2Error> {
    if b.len() < V2_HEADER_LEN {
        // Say which field is missing when the cookie itself is there.
        be_u32(b, 0).and_then(check_cookie)?;
        return Err(V2Error::Truncated {
            needed: V2_HEADER_LEN,
            available: b.len(),
        });
    }
    if check_cookie(be_u32(b, 0)?)? {
        return Err(V2Error::BadHeader(
            "compressed blob nested in a compressed blob",
        ));
    }
    let payload_len = be_u32(b, 4)? as usize;
    // Bytes 8..12, the normalizing index offset, are not read: they say how the writer had
    // rotated its own counts array, but the payload is in logical index order whatever they
    // say (Java writes counts through its normalized accessor; hdr-histogram-js always
    // writes 1 there).
    let digits = be_u32(b, 12)?;
    if !(1..=5).contains(&digits) {
        return Err(V2Error::SignificantDigits(digits));
    }
    let (lowest, highest) = check_range(be_u64(b, 16)? as i64, be_u64(b, 24)? as i64)?;
    // The integer-to-double ratio: 1.0 for integer histograms, or the bits of the integer 1,
    // which hdr-histogram-js writes into this double field.
    let ratio_bits = be_u64(b, 32)?;
    if ratio_bits != 1.0f64.to_bits() && ratio_bits != JS_RATIO_BITS {
        return Err(V2Error::BadHeader(
            "integer-to-double ratio is not 1 (a DoubleHistogram's inner histogram)",
        ));
    }
    check_payload_len(payload_len, b.len() - V2_HEADER_LEN, limits)?;
    Ok(Header {
        payload_len,
        digits,
        lowest,
        highest,
    })
}

/// The header's lowest discernible and highest trackable values, when `1 <= lowest` and
/// `2 * lowest <= highest`.
fn check_range(lowest: i64, highest: i64) -> Result<(u64, u64), V2Error> {
    if lowest < 1 {
        return Err(V2Error::BadHeader("lowest discernible value below 1"));
    }
    if highest < 2 || highest / 2 < lowest {
        return Err(V2Error::BadHeader(
            "highest trackable value below twice the lowest discernible value",
        ));
    }
    Ok((lowest as u64, highest as u64))
}

/// `Ok` when the declared payload length is within the limit and the bytes after the
/// header (`available`) hold it.
fn check_payload_len(payload_len: usize, available: usize, limits: &Limits) -> Result<(), V2Error> {
    if payload_len > limits.max_payload_bytes {
        return Err(V2Error::TooLarge {
            size: payload_len as u64,
            limit: limits.max_payload_bytes as u64,
            what: "payload bytes",
        });
    }
    if available < payload_len {
        return Err(V2Error::LengthMismatch {
            declared: payload_len as u64,
            actual: available as u64,
        });
    }
    Ok(())
}

/// Reads one zigzag varint at `*at`; `None` when malformed or past the end.
#[inline]
fn get_varint(p: &[u8], at: &mut usize) -> Option<i64> {
    let mut z: u64 = 0;
    for k in 0..8 {
        let byte = *p.get(*at)?;
        *at += 1;
        z |= ((byte & 0x7f) as u64) << (7 * k);
        if byte < 0x80 {
            return Some(((z >> 1) as i64) ^ -((z & 1) as i64));
        }
    }
    let byte = *p.get(*at)?;
    *at += 1;
    z |= (byte as u64) << 56;
    Some(((z >> 1) as i64) ^ -((z & 1) as i64))
}

/// Calls `f(index, count)` for every non-zero count of a payload, checking the indices stay
/// below `limit`.
fn walk_payload(
    p: &[u8],
    limit: u64,
    mut f: impl FnMut(u64, u64) -> Result<(), V2Error>,
) -> Result<(), V2Error> {
    let mut at = 0;
    let mut index: u64 = 0;
    while at < p.len() {
        let start = at;
        let n = get_varint(p, &mut at).ok_or(V2Error::Varint(start))?;
        if n < 0 {
            index = index.saturating_add(n.unsigned_abs());
        } else {
            if n > 0 {
                if index >= limit {
                    return Err(V2Error::CountsPastRange { index, limit });
                }
                f(index, n as u64)?;
            }
            index = index.saturating_add(1);
        }
    }
    Ok(())
}

/// The uncompressed blob inside `b` (inflated when `b` is compressed), bounded by `limits`.
fn plain_blob<'b>(
    b: &'b [u8],
    limits: &Limits,
    scratch: &'b mut Vec<u8>,
) -> Result<&'b [u8], V2Error> {
    if !check_cookie(be_u32(b, 0)?)? {
        return Ok(b);
    }
    let declared = be_u32(b, 4)? as usize;
    if b.len() - 8 < declared {
        return Err(V2Error::LengthMismatch {
            declared: declared as u64,
            actual: (b.len() - 8) as u64,
        });
    }
    let cap = V2_HEADER_LEN.saturating_add(limits.max_payload_bytes);
    *scratch = miniz_oxide::inflate::decompress_to_vec_zlib_with_limit(&b[8..8 + declared], cap)
        .map_err(|e| match e.status {
            miniz_oxide::inflate::TINFLStatus::HasMoreOutput => V2Error::TooLarge {
                size: cap as u64 + 1,
                limit: cap as u64,
                what: "payload bytes",
            },
            _ => V2Error::Zlib,
        })?;
    Ok(scratch)
}

/// HdrHistogram's bucket `i` (counts index) in `layout`, the header's layout with its unit;
/// an error past the last bucket of `u64`.
fn hdr_bucket(layout: Layout, i: u64, limit: u64) -> Result<Bucket, V2Error> {
    let logical = (layout.first_index() as u64).saturating_add(i);
    match layout.bucket(logical.min(usize::MAX as u64) as usize) {
        Some(b) => Ok(b),
        None => Err(V2Error::CountsPastRange { index: i, limit }),
    }
}

/// The layout a header describes: its digits' block scale and the unit of its lowest
/// discernible value; HdrHistogram's own limit, `log2(unit) + block scale <= 61`, holds (so
/// whatever decodes re-encodes).
fn header_layout(h: &Header) -> Result<Layout, V2Error> {
    let scale = HDR_BLOCK_SCALES[h.digits as usize - 1];
    let unit_scale = h.lowest.ilog2();
    Layout::from_block_scale(scale)
        .and_then(|l| l.with_unit_scale(unit_scale))
        .filter(|_| unit_scale + scale <= 61)
        .ok_or(V2Error::BadHeader(
            "lowest discernible value too large for the significant digits",
        ))
}

/// Decode a V2 blob (plain or compressed) with the default [`Limits`]. See the module
/// documentation for how the buckets map.
pub fn decode(bytes: &[u8]) -> Result<Decoded, V2Error> {
    decode_with_limits(bytes, &Limits::default())
}

/// [`decode`] with explicit limits.
pub fn decode_with_limits(bytes: &[u8], limits: &Limits) -> Result<Decoded, V2Error> {
    let mut scratch = Vec::new();
    let blob = plain_blob(bytes, limits, &mut scratch)?;
    let h = parse_header(blob, limits)?;
    let payload = &blob[V2_HEADER_LEN..V2_HEADER_LEN + h.payload_len];
    let layout = header_layout(&h)?;
    let limit = counts_limit(layout, h.highest);
    let config = Config::new().with_layout(layout);
    let decoded = |histogram| Decoded {
        histogram,
        significant_digits: h.digits,
        lowest_discernible: h.lowest,
        highest_trackable: h.highest,
    };
    // Every index the header allows, up to the end of the block holding `highest`.
    let block_top = hdr_bucket(layout, limit - 1, limit)?.highest;
    if config.with_range(0, block_top).storage_len() <= limits.max_buckets {
        // One pass, straight into the counters (counts indices are storage offsets: the
        // range starts at the layout's first bucket).
        let mut histogram = new_histogram(config.with_range(0, block_top))?;
        histogram.with_counts_mut(|counts| {
            walk_payload(payload, limit, |i, c| {
                // In range: i < limit = counts.len(); each index appears once.
                counts[i as usize] = c;
                Ok(())
            })
        })?;
        return Ok(decoded(histogram));
    }
    let top_value = top_value(payload, layout, limit)?;
    let max = fitted_max(config, h.highest.max(top_value), top_value, limits)?;
    let mut histogram = new_histogram(config.with_range(0, max))?;
    walk_payload(payload, limit, |i, c| {
        histogram.record_n(hdr_bucket(layout, i, limit)?.lower, c);
        Ok(())
    })?;
    Ok(decoded(histogram))
}

/// A first pass over the payload: validate it and find the highest non-empty bucket's
/// top (a shifted layout's may reach past the header's highest value), without allocating;
/// 0 when every count is zero.
fn top_value(payload: &[u8], layout: Layout, limit: u64) -> Result<u64, V2Error> {
    let mut top: Option<u64> = None;
    walk_payload(payload, limit, |i, _| {
        hdr_bucket(layout, i, limit)?;
        top = Some(i);
        Ok(())
    })?;
    match top {
        Some(i) => Ok(hdr_bucket(layout, i, limit)?.highest),
        None => Ok(0),
    }
}

/// The top of the decoded range: the header's (`wanted`) when its buckets fit the limit,
/// else only up to the data (`top_value`); `TooLarge` when not even that fits.
fn fitted_max(
    config: Config,
    wanted: u64,
    top_value: u64,
    limits: &Limits,
) -> Result<u64, V2Error> {
    if config.with_range(0, wanted).storage_len() <= limits.max_buckets {
        return Ok(wanted);
    }
    let tight = config.with_range(0, top_value).storage_len();
    if tight > limits.max_buckets {
        return Err(V2Error::TooLarge {
            size: tight as u64,
            limit: limits.max_buckets as u64,
            what: "buckets",
        });
    }
    Ok(top_value)
}

fn new_histogram(config: Config) -> Result<Histogram<u64, Vec<u64>>, V2Error> {
    Histogram::new(config).map_err(|e| match e {
        crate::ConfigError::OutOfMemory { bytes } => V2Error::OutOfMemory(OutOfMemory { bytes }),
        _ => V2Error::BadHeader("no Picollo layout for this header"),
    })
}

/// Number of counts HdrHistogram allocates for `highest` (whole blocks up to the one that
/// holds it), the bound on payload indices (counts indices start at the layout's first).
fn counts_limit(layout: Layout, highest: u64) -> u64 {
    let i = (layout.index(highest) - layout.first_index()) as u64;
    let g = layout.block_scale();
    ((i >> g) + 1) << g
}

/// Decode base64 text (of a compressed or plain V2 blob), surrounding whitespace ignored.
pub fn decode_base64(text: &str) -> Result<Decoded, V2Error> {
    decode_base64_with_limits(text, &Limits::default())
}

/// [`decode_base64`] with explicit limits.
pub fn decode_base64_with_limits(text: &str, limits: &Limits) -> Result<Decoded, V2Error> {
    decode_with_limits(&base64_bytes(text)?, limits)
}

pub(crate) fn base64_bytes(text: &str) -> Result<Vec<u8>, V2Error> {
    use base64::Engine as _;
    base64::engine::general_purpose::STANDARD
        .decode(text.trim())
        .map_err(|_| V2Error::Base64)
}

/// The V2 blob in `data`, whichever way it came: `data` itself when it starts with the first
/// byte of an HdrHistogram cookie (`0x1c`, or `0x0c` for a `DoubleHistogram`, neither of
/// which base64 text can start with), else the bytes of the base64 text it holds (surrounding
/// ASCII whitespace ignored). What bindings accept as "an encoded histogram".
pub fn binary_or_base64(data: &[u8]) -> Result<Cow<'_, [u8]>, V2Error> {
    use base64::Engine as _;
    match data.first() {
        Some(0x1c | 0x0c) => Ok(Cow::Borrowed(data)),
        _ => base64::engine::general_purpose::STANDARD
            .decode(data.trim_ascii())
            .map(Cow::Owned)
            .map_err(|_| V2Error::Base64),
    }
}

/// Where an HdrHistogram bucket's count goes when a V2 blob is added into a histogram of
/// any layout: `record(value, count)` for every non-zero count, at the bucket's midpoint. The
/// whole blob is checked first, so on error `record` was never called.
pub(crate) fn for_each_count(
    bytes: &[u8],
    mut record: impl FnMut(u64, u64),
) -> Result<(), V2Error> {
    let limits = Limits::default();
    let mut scratch = Vec::new();
    let blob = plain_blob(bytes, &limits, &mut scratch)?;
    let h = parse_header(blob, &limits)?;
    let payload = &blob[V2_HEADER_LEN..V2_HEADER_LEN + h.payload_len];
    let layout = header_layout(&h)?;
    let limit = counts_limit(layout, h.highest);
    walk_payload(payload, limit, |i, _| {
        hdr_bucket(layout, i, limit).map(|_| ())
    })?;
    walk_payload(payload, limit, |i, c| {
        record(hdr_bucket(layout, i, limit)?.midpoint(), c);
        Ok(())
    })
}

impl<C: Counter, S: AsRef<[C]> + AsMut<[C]>, const EXACT: bool> Histogram<C, S, EXACT> {
    /// Add the counts of a V2 blob (plain or compressed) into this histogram, whatever its
    /// layout: each HdrHistogram bucket's count is recorded at the bucket's midpoint, so
    /// counts land in this histogram's bucket of that value (or its underflow/overflow) and
    /// none is dropped. Exact when the layouts match. On error nothing was added.
    pub fn add_v2(&mut self, bytes: &[u8]) -> Result<(), V2Error> {
        for_each_count(bytes, |value, count| self.record_n(value, count))
    }
}

#[cfg(test)]
mod tests {
    use super::{put_varint, stage_small, ENTRY_MAX, SMALL, STAGE, VARINT_MAX};

    /// Every count below `SMALL`, staged without a branch, is the bytes the general varint
    /// writes, at every place in the stage such a count may go.
    #[test]
    fn a_small_count_is_staged_as_its_varint() {
        let mut stage = [0u8; STAGE + ENTRY_MAX];
        for count in 0..SMALL {
            let mut want = [0u8; VARINT_MAX];
            let len = put_varint(&mut want, count as i64);
            for at in [0, 1, STAGE - 1, STAGE] {
                let next = stage_small(&mut stage, at, count);
                assert_eq!(&stage[at..next], &want[..len], "count {count} at {at}");
            }
        }
    }
}
