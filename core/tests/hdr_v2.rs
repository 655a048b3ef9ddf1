//! The V2 codec against the Rust `hdrhistogram` crate (a real peer), both directions, and
//! the decoder's refusals.

use hdrhistogram::serialization::{Deserializer, Serializer, V2DeflateSerializer, V2Serializer};
use picollo::hdr::{self, Limits, V2Error, HDR_BLOCK_SCALES};
use picollo::{Config, Histogram, View};

mod common;
use common::FIXTURE_VALUES;

type Peer = hdrhistogram::Histogram<u64>;

/// Deterministic latency-like values: a log-uniform spread over 1..2^40 plus small exact ones.
fn values(seed: u64, n: usize) -> Vec<u64> {
    let mut x = seed | 1;
    (0..n)
        .map(|i| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            if i % 7 == 0 {
                x % 3000
            } else {
                let bits = 1 + (x % 40);
                (x >> 24) & ((1u64 << bits) - 1)
            }
        })
        .collect()
}

fn config_for_digits(d: u32) -> Config {
    Config::new().with_relative_error(0.5 / (1u64 << HDR_BLOCK_SCALES[d as usize - 1]) as f64)
}

/// Non-empty buckets as (lowest value, highest value, count).
fn ours(v: &View<'_, u64>) -> Vec<(u64, u64, u64)> {
    v.buckets()
        .filter(|b| b.count != 0)
        .map(|b| (b.lower, b.highest, b.count))
        .collect()
}

fn theirs(h: &Peer) -> Vec<(u64, u64, u64)> {
    h.iter_recorded()
        .map(|it| {
            let v = it.value_iterated_to();
            (
                h.lowest_equivalent(v),
                h.highest_equivalent(v),
                it.count_at_value(),
            )
        })
        .collect()
}

#[test]
fn our_encodings_decode_in_the_rust_crate_with_identical_buckets() {
    for d in 1..=5 {
        let mut h: Histogram<u64, Vec<u64>> = config_for_digits(d).build().unwrap();
        let vs = values(d as u64 * 77, 20_000);
        for &v in &vs {
            h.record(v);
        }
        h.record_n(123_456_789, 1 << 40);
        for bytes in [
            h.view().encode_v2().unwrap(),
            h.view().encode_v2_compressed().unwrap(),
        ] {
            let peer: Peer = Deserializer::new()
                .deserialize(&mut std::io::Cursor::new(&bytes))
                .unwrap_or_else(|e| panic!("digits {d}: the crate rejects our blob: {e:?}"));
            assert_eq!(peer.sigfig() as u32, d);
            assert_eq!(peer.len(), h.total_count());
            assert_eq!(theirs(&peer), ours(&h.view()), "digits {d}");
            for q in [0.5, 0.9, 0.99, 0.999, 1.0] {
                let ours = h.view().percentile(q * 100.0).unwrap();
                let theirs = peer.value_at_quantile(q);
                assert_eq!(
                    h.layout().bucket_of(theirs),
                    h.layout().bucket_of(ours.value),
                    "digits {d}, quantile {q}"
                );
            }
        }
    }
}

/// The peer's V2 encoding: deflated, or plain.
fn peer_bytes(peer: &Peer, deflate: bool) -> Vec<u8> {
    let mut bytes = Vec::new();
    if deflate {
        V2DeflateSerializer::new()
            .serialize(peer, &mut bytes)
            .unwrap();
    } else {
        V2Serializer::new().serialize(peer, &mut bytes).unwrap();
    }
    bytes
}

#[test]
fn the_rust_crates_encodings_decode_into_identical_buckets() {
    for d in 1..=5u8 {
        for (low, high) in [(1u64, 1u64 << 45), (1, 3_600_000_000_000), (1, 1 << 62)] {
            let mut peer = Peer::new_with_bounds(low, high, d).unwrap();
            for v in values(d as u64 * 13 + low, 20_000) {
                peer.record(v.clamp(low, high)).unwrap();
            }
            for deflate in [false, true] {
                let decoded = hdr::decode(&peer_bytes(&peer, deflate)).unwrap();
                assert_eq!(decoded.significant_digits, d as u32);
                assert_eq!(decoded.lowest_discernible, low);
                assert_eq!(decoded.highest_trackable, peer.high());
                let view = decoded.histogram.view();
                assert_eq!(
                    view.layout().block_scale(),
                    HDR_BLOCK_SCALES[d as usize - 1]
                );
                assert_eq!(view.total_count(), peer.len());
                assert_eq!(ours(&view), theirs(&peer), "digits {d}, deflate {deflate}");
                // The range is the peer's when it fits the bucket limit, else tight.
                assert!(view.range().1 >= peer.max());
            }
        }
    }
}

#[test]
fn a_larger_lowest_discernible_value_maps_by_shifted_buckets() {
    for d in [1u8, 3, 5] {
        let low = 1000; // unit magnitude 9: HdrHistogram's buckets are ours shifted left by 9
        let mut peer = Peer::new_with_bounds(low, 1 << 50, d).unwrap();
        let vs = values(99, 10_000);
        for &v in &vs {
            peer.record(v.max(low)).unwrap();
        }
        let decoded = hdr::decode(&peer_bytes(&peer, true)).unwrap();
        let view = decoded.histogram.view();
        assert_eq!(view.total_count(), peer.len());
        // Every peer bucket's count sits in our bucket of its midpoint.
        for it in peer.iter_recorded() {
            let v = it.value_iterated_to();
            let mid = peer.median_equivalent(v);
            let b = view.layout().index(mid) - view.first_index();
            assert!(
                view.count(b).unwrap() >= it.count_at_value(),
                "digits {d}, value {v}"
            );
        }
        // From the second block on, the buckets coincide exactly.
        for it in peer.iter_recorded() {
            let v = it.value_iterated_to();
            let (lo, hi) = (peer.lowest_equivalent(v), peer.highest_equivalent(v));
            let ours = view.layout().bucket_of(lo);
            if lo >= low << (HDR_BLOCK_SCALES[d as usize - 1] + 1) {
                assert_eq!((ours.lower, ours.highest), (lo, hi));
            }
        }
    }
}

#[test]
fn any_layout_round_trips_through_v2_into_its_own_layout() {
    for g in 3..=19u32 {
        let config = Config::new()
            .with_relative_error(0.5 / (1u64 << g) as f64)
            .with_range(500, 1 << 36);
        let mut h: Histogram<u64, Vec<u64>> = config.build().unwrap();
        for v in values(g as u64, 5_000) {
            h.record(v);
        }
        h.record_n(1 << 37, 5); // overflow
        let (under, over) = (h.underflow_count(), h.overflow_count());
        assert!(under > 0 && over >= 5, "g {g}: {under} {over}");
        let text = h.view().encode_v2_base64().unwrap();
        assert!(text.starts_with("HISTFAAA"), "{text}");
        let decoded = hdr::decode_base64(&text).unwrap();
        let (digits, scale) = hdr::export_layout(h.layout());
        assert_eq!(decoded.significant_digits, digits);
        assert_eq!(decoded.histogram.layout().block_scale(), scale);
        assert_eq!(
            decoded.histogram.total_count(),
            h.total_count() + under + over
        );
        let mut back: Histogram<u64, Vec<u64>> = config.build().unwrap();
        back.add_v2(&h.view().encode_v2_compressed().unwrap())
            .unwrap();
        assert_eq!(back.underflow_count(), under, "g {g}");
        assert_eq!(back.overflow_count(), over, "g {g}");
        if g <= 17 {
            assert_eq!(
                back.counts(),
                h.counts(),
                "g {g}: a finer export keeps every bucket"
            );
        } else {
            // Coarser export: each HdrHistogram bucket's count lands on one of ours inside it.
            let coarse = picollo::Layout::from_block_scale(17).unwrap();
            let sums = |x: &Histogram<u64, Vec<u64>>| {
                let mut m = std::collections::BTreeMap::new();
                for b in x.view().buckets().filter(|b| b.count > 0) {
                    *m.entry(coarse.index(b.lower)).or_insert(0) += b.count;
                }
                m
            };
            assert_eq!(sums(&back), sums(&h), "g {g}");
        }
    }
}

#[test]
fn what_v2_cannot_hold_is_an_error_not_a_loss() {
    let mut h: Histogram<u32, Vec<u32>> = Config::new().build().unwrap();
    h.record_n(10, u32::MAX as u64 + 3);
    assert_eq!(h.view().encode_v2(), Err(V2Error::Saturated(3)));
    let mut h: Histogram<u64, Vec<u64>> = Config::new().build().unwrap();
    h.record_n(10, u64::MAX);
    assert!(matches!(
        h.view().encode_v2(),
        Err(V2Error::CountTooLarge { .. })
    ));
    let mut h: Histogram<u64, Vec<u64>> = Config::new().build().unwrap();
    h.record(u64::MAX - 5);
    assert!(matches!(
        h.view().encode_v2(),
        Err(V2Error::ValueTooLarge(_))
    ));
    // A failed encode leaves what the buffer held before.
    let mut out = b"keep".to_vec();
    assert!(h.view().encode_v2_into(&mut out).is_err());
    assert_eq!(out, b"keep");
}

#[test]
fn the_decoder_refuses_bad_input_with_a_reason() {
    let mut h: Histogram<u64, Vec<u64>> = Config::new().build().unwrap();
    for v in values(5, 2000) {
        h.record(v);
    }
    let plain = h.view().encode_v2().unwrap();
    let packed = h.view().encode_v2_compressed().unwrap();
    // Every truncation of both forms fails cleanly.
    for cut in 0..plain.len() {
        assert!(hdr::decode(&plain[..cut]).is_err(), "plain cut at {cut}");
    }
    for cut in 0..packed.len() {
        assert!(hdr::decode(&packed[..cut]).is_err(), "packed cut at {cut}");
    }
    let mut bad = plain.clone();
    bad[0] = 0;
    assert!(matches!(hdr::decode(&bad), Err(V2Error::UnknownCookie(_))));
    let mut v1 = plain.clone();
    v1[..4].copy_from_slice(&0x1c84_9308u32.to_be_bytes());
    assert!(matches!(
        hdr::decode(&v1),
        Err(V2Error::UnsupportedEncoding(_))
    ));
    let mut digits = plain.clone();
    digits[12..16].copy_from_slice(&6u32.to_be_bytes());
    assert_eq!(
        hdr::decode(&digits).unwrap_err(),
        V2Error::SignificantDigits(6)
    );
    let mut lying = plain.clone();
    lying[4..8].copy_from_slice(&(plain.len() as u32).to_be_bytes());
    assert!(matches!(
        hdr::decode(&lying),
        Err(V2Error::LengthMismatch { .. })
    ));
    // Counts past the range the header declares.
    let mut narrow = plain.clone();
    narrow[24..32].copy_from_slice(&100i64.to_be_bytes());
    assert!(matches!(
        hdr::decode(&narrow),
        Err(V2Error::CountsPastRange { .. })
    ));
    // A zlib bomb: a small stream inflating far past the limit.
    let mut blob = plain[..40].to_vec();
    let zeros = vec![0u8; 8 << 20];
    blob[4..8].copy_from_slice(&(zeros.len() as u32).to_be_bytes());
    blob.extend_from_slice(&zeros);
    let z = miniz_oxide::deflate::compress_to_vec_zlib(&blob, 9);
    let mut bomb = 0x1c84_9314u32.to_be_bytes().to_vec();
    bomb.extend_from_slice(&(z.len() as u32).to_be_bytes());
    bomb.extend_from_slice(&z);
    assert!(z.len() < 64 << 10);
    let limits = Limits {
        max_payload_bytes: 1 << 20,
        ..Limits::default()
    };
    assert!(matches!(
        hdr::decode_with_limits(&bomb, &limits),
        Err(V2Error::TooLarge { .. })
    ));
    // The bomb inflates within the default limit, and its zeros are a valid empty payload.
    assert_eq!(hdr::decode(&bomb).unwrap().histogram.total_count(), 0);
    assert_eq!(
        hdr::decode_base64("not base64!").unwrap_err(),
        V2Error::Base64
    );
    // A header asking for a huge range allocates only up to its highest non-empty bucket.
    let mut wide = plain.clone();
    wide[12..16].copy_from_slice(&5u32.to_be_bytes());
    wide[24..32].copy_from_slice(&i64::MAX.to_be_bytes());
    let d = hdr::decode(&wide).unwrap();
    assert!(d.histogram.counts().len() <= Limits::default().max_buckets);
    for e in [V2Error::Zlib, V2Error::Varint(3), V2Error::Saturated(2)] {
        assert!(!e.to_string().is_empty());
    }
}

fn fixture_histogram(digits: u32, values: &[(u64, u64)]) -> Histogram<u64, Vec<u64>> {
    let mut h: Histogram<u64, Vec<u64>> = config_for_digits(digits).build().unwrap();
    for &(v, c) in values {
        h.record_n(v, c);
    }
    h
}

#[test]
fn hdr_histogram_js_headers_decode_offset_ignored_and_integer_ratio_accepted() {
    // hdr-histogram-js writes every blob with normalizing index offset 1 and the
    // integer-to-double ratio as the 64-bit integer 1 (not the double 1.0). Both used to be
    // refused, so nothing it wrote could be read.
    let h = fixture_histogram(3, &FIXTURE_VALUES);
    let plain = h.view().encode_v2().unwrap();
    for offset in [1u32, 7, u32::MAX] {
        for ratio in [1.0f64.to_bits(), 1u64] {
            let mut js = plain.clone();
            js[8..12].copy_from_slice(&offset.to_be_bytes());
            js[32..40].copy_from_slice(&ratio.to_be_bytes());
            let d = hdr::decode(&js).unwrap_or_else(|e| panic!("offset {offset}: {e}"));
            assert_eq!(
                ours(&d.histogram.view()),
                ours(&h.view()),
                "offset {offset}"
            );
        }
    }
    // Any other ratio is a DoubleHistogram's inner histogram: still refused.
    for ratio in [2.0f64.to_bits(), 0.5f64.to_bits(), 2u64, 0] {
        let mut double = plain.clone();
        double[32..40].copy_from_slice(&ratio.to_be_bytes());
        assert!(
            matches!(hdr::decode(&double), Err(V2Error::BadHeader(_))),
            "ratio bits {ratio:#x}"
        );
    }
}

#[test]
fn committed_peer_fixtures_decode_to_their_documented_values() {
    // Written by hdr-histogram-js 3.0.1 and by Python's hdrh 0.10.8 (interop/fixtures).
    let js = include_str!("../../interop/fixtures/hdr-histogram-js-d3.b64");
    let py = include_str!("../../interop/fixtures/hdrh-d3.b64");
    let want = fixture_histogram(3, &FIXTURE_VALUES);
    for (name, text) in [("hdr-histogram-js", js), ("hdrh", py)] {
        let d = hdr::decode_base64(text).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(d.significant_digits, 3, "{name}");
        assert_eq!(d.lowest_discernible, 1, "{name}");
        assert_eq!(d.histogram.total_count(), 36, "{name}");
        assert_eq!(ours(&d.histogram.view()), ours(&want.view()), "{name}");
    }
    // The JS blob carries the header quirks the decoder must accept.
    use base64::Engine as _;
    let raw = base64::engine::general_purpose::STANDARD
        .decode(js.trim())
        .unwrap();
    let plain = miniz_oxide::inflate::decompress_to_vec_zlib(&raw[8..]).unwrap();
    assert_eq!(&plain[8..12], &1u32.to_be_bytes());
    assert_eq!(&plain[32..40], &1u64.to_be_bytes());
}

#[test]
fn binary_or_base64_tells_the_forms_apart() {
    use picollo::hdr::binary_or_base64;
    let mut h: Histogram<u64, Vec<u64>> = Config::new().build().unwrap();
    h.record(42);
    let plain = h.view().encode_v2().unwrap();
    let compressed = h.view().encode_v2_compressed().unwrap();
    let text = format!("\n {} \t", h.view().encode_v2_base64().unwrap());
    assert_eq!(binary_or_base64(&plain).unwrap().as_ref(), &plain[..]);
    assert_eq!(
        binary_or_base64(&compressed).unwrap().as_ref(),
        &compressed[..]
    );
    assert_eq!(
        binary_or_base64(text.as_bytes()).unwrap().as_ref(),
        &compressed[..]
    );
    assert_eq!(binary_or_base64(b"HIST!").unwrap_err(), V2Error::Base64);
    // A DoubleHistogram's cookie is binary, so its decoder names it.
    let double = [0x0c, 0x72, 0x12, 0x49, 0, 0, 0, 0];
    assert!(matches!(
        hdr::decode(&binary_or_base64(&double).unwrap()),
        Err(V2Error::UnsupportedEncoding(_))
    ));
}

#[test]
fn a_dyn_histogram_adds_v2_blobs_and_views() {
    use picollo::concurrent::{CounterBits, DynHistogram, Mode};
    let mut h: Histogram<u64, Vec<u64>> = Config::new().build().unwrap();
    for v in [1, 5, 1000, 123_456] {
        h.record_n(v, 3);
    }
    let blob = h.view().encode_v2_compressed().unwrap();
    for mode in [Mode::SingleWriter, Mode::Interlocked] {
        let coarse = Config::new().with_relative_error(0.01);
        let d = DynHistogram::new(coarse, CounterBits::U32, mode).unwrap();
        d.add_v2(&blob).unwrap();
        let mut want: Histogram<u32, Vec<u32>> = coarse.build().unwrap();
        want.add_v2(&blob).unwrap();
        let got = d
            .with_view(|v| v.as_view().buckets().map(|b| b.count).collect::<Vec<_>>())
            .unwrap();
        assert_eq!(
            got,
            want.view().buckets().map(|b| b.count).collect::<Vec<_>>()
        );
        assert!(d.add_v2(&blob[..blob.len() - 1]).is_err());
        assert_eq!(d.total_count(), Ok(12));
        // A view of the same layout adds exactly; another layout is refused.
        d.add_view(&want.view()).unwrap();
        assert_eq!(d.total_count(), Ok(24));
        assert!(d.add_view(&h.view()).is_err());
    }
}

#[test]
fn a_lowest_discernible_value_decodes_into_the_peers_own_buckets_and_encodes_back() {
    for d in 1..=5u8 {
        for low in [1u64, 1000, 1 << 20] {
            let mut peer = Peer::new_with_bounds(low, 1 << 50, d).unwrap();
            for v in values(d as u64 * 31 + low, 20_000) {
                // Values below the lowest discernible one included: they share bucket 0.
                peer.record(v.min(1 << 50)).unwrap();
            }
            let decoded = hdr::decode(&peer_bytes(&peer, true)).unwrap();
            let view = decoded.histogram.view();
            assert_eq!(view.layout().unit(), 1 << low.ilog2());
            let buckets = theirs(&peer);
            assert_eq!(ours(&view), buckets, "digits {d}, lowest {low}");
            for q in [0.0, 0.25, 0.5, 0.9, 0.99, 0.999, 1.0] {
                let p = view.percentile(q * 100.0).unwrap();
                let theirs = peer.value_at_quantile(q);
                assert!(
                    p.lower <= theirs && theirs <= p.highest,
                    "digits {d}, lowest {low}, quantile {q}: {theirs} outside {p:?}"
                );
            }
            // Encoded back: the unit is the lowest discernible value, the buckets the same.
            let back: Peer = Deserializer::new()
                .deserialize(&mut std::io::Cursor::new(view.encode_v2().unwrap()))
                .unwrap();
            assert_eq!(back.low(), 1 << low.ilog2());
            assert_eq!(theirs(&back), buckets, "digits {d}, lowest {low}");
            println!(
                "hdrhistogram crate, digits {d}, lowest {low}: {} buckets compared, 0 mismatches",
                buckets.len()
            );
        }
    }
}

#[test]
fn a_unit_hdrhistogram_itself_refuses_is_refused_and_every_other_re_encodes() {
    // HdrHistogram needs log2(unit) + block scale <= 61: at 5 digits (block 2^17) a lowest
    // discernible value of 2^44 is the widest.
    let blob = |lowest: u64| {
        let mut b = config_for_digits(5)
            .build::<u64>()
            .unwrap()
            .view()
            .encode_v2()
            .unwrap();
        b[16..24].copy_from_slice(&lowest.to_be_bytes());
        b[24..32].copy_from_slice(&(1u64 << 62).to_be_bytes());
        b
    };
    let widest = hdr::decode(&blob(1 << 44)).unwrap();
    assert_eq!(widest.histogram.layout().unit(), 1 << 44);
    let back = hdr::decode(&widest.histogram.view().encode_v2().unwrap()).unwrap();
    assert_eq!(back.lowest_discernible, 1 << 44);
    assert!(matches!(
        hdr::decode(&blob(1 << 45)),
        Err(V2Error::BadHeader(why)) if why.contains("lowest discernible value too large")
    ));
}

#[test]
fn every_deflate_level_reads_back_alike_and_the_levels_trade_size() {
    use hdr::Deflate;
    let mut h: Histogram<u64, Vec<u64>> = Config::new().build().unwrap();
    values(11, 200_000).into_iter().for_each(|v| h.record(v));
    let plain = h.view().encode_v2().unwrap();
    let mut sizes = Vec::new();
    for level in 0..=10 {
        let deflate = Deflate::level(level).unwrap();
        assert_eq!(deflate.get(), level);
        let blob = h.view().encode_v2_compressed_with(deflate).unwrap();
        let back = hdr::decode(&blob).unwrap().histogram;
        assert_eq!(back.view().encode_v2().unwrap(), plain, "level {level}");
        // The peer inflates every level too.
        let peer: Peer = Deserializer::new()
            .deserialize(&mut std::io::Cursor::new(&blob))
            .unwrap();
        assert_eq!(peer.len(), h.total_count(), "level {level}");
        sizes.push(blob.len());
    }
    assert_eq!(Deflate::level(11), None);
    assert_eq!(Deflate::default(), Deflate::FAST);
    assert_eq!(
        h.view().encode_v2_compressed().unwrap(),
        h.view().encode_v2_compressed_with(Deflate::FAST).unwrap()
    );
    // Stored (level 0) is the largest; level 9 is no larger than level 1.
    assert!(sizes[0] > sizes[1] && sizes[9] <= sizes[1], "{sizes:?}");
    let text = h.view().encode_v2_base64_with(Deflate::BEST).unwrap();
    assert_eq!(
        hdr::decode_base64(&text).unwrap().histogram.total_count(),
        200_000
    );
}
