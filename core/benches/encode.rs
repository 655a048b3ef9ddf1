//! HdrHistogram V2 interchange: encoding and decoding a compressed V2 blob, next to the
//! `hdrhistogram` crate in the same run.
//!
//! Workload: a 0.1 % histogram (Picollo's default layout; `hdrhistogram` at 3 significant
//! digits, the precision Picollo exports it at) holding 10^6 latency-like values,
//! log-normal around 50 µs in nanoseconds with a tail to seconds. Each figure is the best
//! of `REPS` batches, as µs per encode or decode. `picollo_decode` decodes into a new
//! histogram, as `hdrhistogram`'s `Deserializer` does.
//!
//! `cargo bench -p picollo --bench encode`; the last line is
//! `bench encode: picollo_encode=<µs> hdr_encode=<µs> picollo_decode=<µs> hdr_decode=<µs>
//! bytes=<picollo>/<hdrhistogram> level6=<µs>/<bytes> level9=<µs>/<bytes>`: Picollo's
//! default deflate level (1) and `hdrhistogram`'s (6), then Picollo at levels 6 and 9.

mod report;

use std::hint::black_box;

use hdrhistogram::serialization::{Deserializer, Serializer, V2DeflateSerializer};
use picollo::hdr::Deflate;
use picollo::{hdr, Config, Histogram};

mod common;
use common::{best, values, N};

fn main() {
    let vs = values();
    let mut ours: Histogram<u64, Vec<u64>> = Config::new().build().unwrap();
    let mut theirs =
        hdrhistogram::Histogram::<u64>::new_with_bounds(1, 3_600_000_000_000, 3).unwrap();
    for &v in &vs {
        ours.record(v);
        theirs.record(v).unwrap();
    }
    let our_blob = ours.view().encode_v2_compressed().unwrap();
    let mut their_blob = Vec::new();
    V2DeflateSerializer::new()
        .serialize(&theirs, &mut their_blob)
        .unwrap();
    // Both decode what the other wrote, so the figures compare like with like.
    assert_eq!(
        hdr::decode(&their_blob).unwrap().histogram.total_count(),
        N as u64
    );
    let check: hdrhistogram::Histogram<u64> = Deserializer::new()
        .deserialize(&mut std::io::Cursor::new(&our_blob))
        .unwrap();
    assert_eq!(check.len(), N as u64);

    let mut serializer = V2DeflateSerializer::new();
    let mut deserializer = Deserializer::new();
    let picollo_encode = best(|| {
        black_box(ours.view().encode_v2_compressed().unwrap());
    });
    let hdr_encode = best(|| {
        let mut out = Vec::new();
        serializer.serialize(black_box(&theirs), &mut out).unwrap();
        black_box(out);
    });
    let picollo_decode = best(|| {
        black_box(hdr::decode(black_box(&our_blob)).unwrap());
    });
    let hdr_decode = best(|| {
        let h: hdrhistogram::Histogram<u64> = deserializer
            .deserialize(&mut std::io::Cursor::new(black_box(&their_blob)))
            .unwrap();
        black_box(h);
    });
    let level = |deflate: Deflate| {
        let bytes = ours
            .view()
            .encode_v2_compressed_with(deflate)
            .unwrap()
            .len();
        let us = best(|| {
            black_box(ours.view().encode_v2_compressed_with(deflate).unwrap());
        });
        format!("{us:.1}/{bytes}")
    };
    let (level6, level9) = (level(Deflate::DEFAULT), level(Deflate::BEST));
    println!(
        "sizes: picollo={} bytes ({} buckets) hdrhistogram={} bytes; ratios: encode hdr/picollo={:.2} decode hdr/picollo={:.2}",
        our_blob.len(),
        ours.counts().len(),
        their_blob.len(),
        hdr_encode / picollo_encode,
        hdr_decode / picollo_decode
    );
    report::report(&format!("bench encode: picollo_encode={picollo_encode:.1} hdr_encode={hdr_encode:.1} picollo_decode={picollo_decode:.1} hdr_decode={hdr_decode:.1} bytes={}/{} level6={level6} level9={level9}",
        our_blob.len(), their_blob.len()
    ));
}
