//! The HdrHistogram decoders on arbitrary bytes: V2 blobs (plain and compressed), base64
//! text, interval logs, and adding a blob into an existing histogram. Nothing may panic,
//! memory stays within the decoder's limits, and whatever decodes re-encodes and decodes
//! again to the same counts.
#![no_main]

use libfuzzer_sys::fuzz_target;
use picollo::hdr::{self, Limits, LogReader, V2Error};
use picollo::{Config, Histogram};

/// Small limits, so a lying header cannot make a run slow or large.
const LIMITS: Limits = Limits {
    max_payload_bytes: 1 << 16,
    max_buckets: 1 << 16,
};

fn check_round_trip(d: &hdr::Decoded) {
    let h = &d.histogram;
    assert!(h.counts().len() <= LIMITS.max_buckets + (1 << 17));
    match h.view().encode_v2_compressed() {
        Ok(bytes) => {
            let again = hdr::decode(&bytes).expect("our own encoding decodes");
            assert_eq!(again.histogram.total_count(), h.total_count());
            let ours: Vec<_> = h.view().buckets().filter(|b| b.count > 0).collect();
            let back: Vec<_> = again
                .histogram
                .view()
                .buckets()
                .filter(|b| b.count > 0)
                .collect();
            assert_eq!(ours.len(), back.len());
            for (a, b) in ours.iter().zip(&back) {
                assert_eq!((a.lower, a.highest, a.count), (b.lower, b.highest, b.count));
            }
        }
        // Shifted layouts can sum several peer buckets into one of ours, and their top
        // block can reach past i64::MAX (HdrHistogram's last bucket may extend past its
        // highest trackable value).
        Err(V2Error::CountTooLarge { .. } | V2Error::ValueTooLarge(_)) => {}
        Err(e) => panic!("a decoded histogram does not re-encode: {e}"),
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    match mode % 4 {
        0 => {
            if let Ok(d) = hdr::decode_with_limits(rest, &LIMITS) {
                check_round_trip(&d);
            }
        }
        1 => {
            if let Ok(text) = core::str::from_utf8(rest) {
                if let Ok(d) = hdr::decode_base64_with_limits(text, &LIMITS) {
                    check_round_trip(&d);
                }
            }
        }
        2 => {
            if let Ok(text) = core::str::from_utf8(rest) {
                for entry in LogReader::new(text).with_limits(LIMITS).take(64) {
                    if let Ok(i) = entry {
                        assert!(i.start.is_finite() && i.length.is_finite());
                    }
                }
            }
        }
        _ => {
            let mut h: Histogram<u32, Vec<u32>> = Config::new()
                .with_relative_error(0.01)
                .with_range(100, 1 << 30)
                .build()
                .unwrap();
            h.record(500);
            let before = h.total_count() + h.underflow_count() + h.overflow_count();
            if h.add_v2(rest).is_err() {
                let after = h.total_count() + h.underflow_count() + h.overflow_count();
                assert_eq!(before, after, "a failed add changed the histogram");
                assert_eq!(h.saturated_count(), 0);
            }
        }
    }
});
