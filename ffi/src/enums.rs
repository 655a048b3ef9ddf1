//! The enums of the C ABI that every platform exports: the numbers that arguments, config
//! fields and results take, each enum an argument takes with the words `choice` lists when
//! it refuses an unknown number. The Linux-only calls' enums are in `linux_enums`.

use crate::choice::c_enum;

/// How a bucket's reported value is chosen (`picollo_histogram_config.value_selection`).
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum picollo_value_selection {
    /// Bucket midpoint (default); ± is half the bucket width.
    Midpoint = 0,
    /// Smallest value of the bucket.
    Lower = 1,
    /// Largest value of the bucket (HdrHistogram's highest equivalent value).
    Upper = 2,
    /// Interpolated inside the bucket by the rank's position among its counts.
    Interpolated = 3,
}

c_enum!(picollo_value_selection:
    Midpoint = "midpoint", Lower = "lower", Upper = "upper", Interpolated = "interpolated");

/// Concurrency mode of a histogram (`picollo_histogram_config.mode`; docs/concurrency.md).
/// Reads run on any thread in every mode.
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum picollo_mode {
    /// One writer at a time (load + store: the fastest); reset from it; the one with subtract.
    SingleWriter = 0,
    /// Any number of writers, one relaxed atomic add per record: exact. Reset from any thread.
    Interlocked = 1,
    /// Any number of writers, each into its own shard (no contention); exact; reset anywhere.
    ThreadLocal = 2,
    /// Any number of writers; buckets are approximate counters (exact below 2^T, then about 2 %).
    Approximate = 3,
}

c_enum!(picollo_mode:
    SingleWriter = "single writer", Interlocked = "interlocked", ThreadLocal = "thread-local",
    Approximate = "approximate");

/// How a histogram keeps its counters (`picollo_histogram_config.storage`).
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum picollo_storage {
    /// One counter per bucket of the range, allocated at creation: no allocation while recording.
    Dense = 0,
    /// Blocks of counters made when first used: memory follows the data; not thread-local.
    Sparse = 1,
}

c_enum!(picollo_storage: Dense = "dense", Sparse = "sparse");

/// How a float histogram keeps its counters (`picollo_float_config.storage`).
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum picollo_float_storage {
    /// One counter per bucket of the range, allocated at creation.
    Dense = 0,
    /// One block per octave of magnitude, made when a value first lands in it (the default).
    Sparse = 1,
}

c_enum!(picollo_float_storage: Dense = "dense", Sparse = "sparse");

/// Who may record into a float histogram (`picollo_float_config.mode`).
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum picollo_float_mode {
    /// One recording thread at a time; reads from any.
    SingleWriter = 0,
    /// Any number of recording threads (atomic adds).
    Interlocked = 1,
}

c_enum!(picollo_float_mode: SingleWriter = "single writer", Interlocked = "interlocked");

/// A text form of a summary (`picollo_histogram_text`, `picollo_float_histogram_text`).
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum picollo_text_format {
    /// The Markdown table (`picollo_histogram_table`, `picollo_summary_table`).
    Table = 0,
    /// The one-line summary (`picollo_summary_line`), named by the title.
    OneLine = 1,
    /// A JSON object (`picollo_summary_json`); the title is not used.
    Json = 2,
}

c_enum!(picollo_text_format: Table = "table", OneLine = "one line", Json = "JSON");

/// A form of HdrHistogram's V2 encoding (`picollo_histogram_encode_v2`).
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum picollo_v2_form {
    /// Uncompressed V2 bytes (cookie 0x1c849313).
    Plain = 0,
    /// zlib-compressed V2 bytes (cookie 0x1c849314), as `encodeIntoCompressedByteBuffer` writes.
    Compressed = 1,
    /// The base64 text of the compressed form (`"HISTFAAA..."`), as interval logs carry it.
    Base64 = 2,
}

c_enum!(picollo_v2_form: Plain = "plain", Compressed = "compressed", Base64 = "base64");

/// How the points of an OTLP metric relate in time (`picollo_otlp_options.temporality`).
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum picollo_otlp_temporality {
    /// The point holds its interval only (start to time): export a `picollo_histogram_collect`.
    Delta = 1,
    /// The point holds everything since a fixed start: export a read of the histogram.
    Cumulative = 2,
}

c_enum!(picollo_otlp_temporality: Delta = "delta", Cumulative = "cumulative");

/// The encoding `picollo_histogram_otlp` writes.
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum picollo_otlp_format {
    /// The protobuf bytes of an `ExportMetricsServiceRequest` (OTLP/HTTP and gRPC payload).
    Protobuf = 0,
    /// OTLP/JSON: the protobuf JSON mapping (lowerCamelCase, 64-bit integers as strings).
    Json = 1,
}

c_enum!(picollo_otlp_format: Protobuf = "protobuf", Json = "JSON");

/// How `picollo_recorder_record` counts a bucket (`picollo_recorder.kind`).
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum picollo_recorder_kind {
    /// A relaxed atomic load, then a relaxed store of one more (single writer; thread-local shard).
    Plain = 0,
    /// A relaxed atomic add of 1 (interlocked); one finding `limit` is taken back, then `record`.
    Atomic = 1,
    /// No direct path: every record calls `record` (approximate; thread-local at its shard cap).
    Call = 2,
}
