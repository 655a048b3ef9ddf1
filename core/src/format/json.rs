//! The summary as a JSON object, and the pieces every JSON writer of the crate uses.

use core::fmt::{self, Write};

use super::domain::Domain;
#[cfg(picollo_float)]
use crate::float::FloatCounts;
#[cfg(feature = "alloc")]
use {
    super::export::{text_into, About, Export, Options, Out, Written},
    crate::View,
};

/// The summary `s` as a JSON object (no trailing newline): the domain's range fields,
/// `totalCount`, the domain's own counts and the counts beside the buckets, its own
/// statistics, `mean`, `stDev`, `precision` (a statistic not known is `null`), and
/// `percentiles`: objects with `rank`, `value`, `plusMinus`, the bucket's bounds as the
/// domain names them, `count`, `cumulativeCount` and `rankCount`.
pub(crate) fn write_json<S: Domain>(s: &S, w: &mut dyn Write) -> fmt::Result {
    w.write_char('{')?;
    for (key, v) in s.json_range() {
        write!(w, "\"{key}\":")?;
        S::write_json_value(w, v)?;
        w.write_char(',')?;
    }
    write!(w, "\"totalCount\":{}", s.total())?;
    let outside = s.outside().map(|(_, key, n)| (key, n));
    for (key, n) in s.json_counts().chain(outside) {
        write!(w, ",\"{key}\":{n}")?;
    }
    let (mean, stdev) = s.moments();
    let stats = s.json_stats().chain([("mean", mean), ("stDev", stdev)]);
    for (key, x) in stats.chain([("precision", s.precision())]) {
        write!(w, ",\"{key}\":")?;
        json_f64(w, x)?;
    }
    w.write_str(",\"percentiles\":[")?;
    comma_separated(w, 0..crate::STANDARD_RANKS.len(), |w, k| {
        json_percentile(s, w, k)
    })?;
    w.write_str("]}")
}

/// The `k`-th percentile of `s` as a JSON object.
fn json_percentile<S: Domain>(s: &S, w: &mut dyn Write, k: usize) -> fmt::Result {
    let p = s.ranked(k);
    w.write_str("{\"rank\":")?;
    json_f64(w, p.rank)?;
    let fields = [("value", p.value), ("plusMinus", p.plus_minus)];
    for (key, v) in fields.into_iter().chain(s.json_bounds(k)) {
        write!(w, ",\"{key}\":")?;
        S::write_json_value(w, v)?;
    }
    write!(
        w,
        ",\"count\":{},\"cumulativeCount\":{},\"rankCount\":{}}}",
        p.count, p.cumulative_count, p.rank_count
    )
}

/// A finite double as a JSON number that reads back as a double, not an integer: always a
/// fraction or an exponent (`5.0`, `1e300`, `1.5e-7`), the shortest digits that round-trip.
/// Non-finite values have no JSON form and are written as `null`.
pub(crate) fn json_f64(w: &mut dyn Write, v: f64) -> fmt::Result {
    if v.is_finite() {
        // Rust's `Debug` for f64 is the shortest round-trip form; it keeps `.0` on whole
        // numbers and switches to an exponent for very large or small magnitudes, and it
        // never writes anything JSON's number grammar rejects for finite input.
        write!(w, "{v:?}")
    } else {
        w.write_str("null")
    }
}

/// The items, each written by `write_item`, separated by commas.
pub(crate) fn comma_separated<T>(
    w: &mut dyn Write,
    items: impl IntoIterator<Item = T>,
    mut write_item: impl FnMut(&mut dyn Write, T) -> fmt::Result,
) -> fmt::Result {
    for (k, item) in items.into_iter().enumerate() {
        if k > 0 {
            w.write_char(',')?;
        }
        write_item(w, item)?;
    }
    Ok(())
}

/// A JSON string: quote, backslash and control characters escaped (`\n`, `\r`, `\t`, the
/// others as `\u00XX`). Only the OTLP writer writes strings, and it needs `alloc`.
#[cfg(feature = "alloc")]
pub(crate) fn json_string(w: &mut dyn Write, s: &str) -> fmt::Result {
    w.write_char('"')?;
    for c in s.chars() {
        match c {
            '"' => w.write_str("\\\"")?,
            '\\' => w.write_str("\\\\")?,
            '\n' => w.write_str("\\n")?,
            '\r' => w.write_str("\\r")?,
            '\t' => w.write_str("\\t")?,
            c if (c as u32) < 0x20 => write!(w, "\\u{:04x}", c as u32)?,
            c => w.write_char(c)?,
        }
    }
    w.write_char('"')
}

/// The summary's JSON object as an export format (`json`).
#[cfg(feature = "alloc")]
pub(crate) struct Json;

#[cfg(feature = "alloc")]
impl Export for Json {
    fn about(&self) -> &'static About {
        &About {
            name: "json",
            description:
                "the summary as a JSON object: counts, statistics and the standard percentiles",
            options: &[],
            binary: false,
        }
    }
    fn integer(&self, view: &View<'_, u64>, _: &Options<'_>, out: Out<'_>) -> Written {
        text_into(out, |w| write_json(&view.summary(), w))
    }
    #[cfg(picollo_float)]
    fn float(&self, counts: &FloatCounts, _: &Options<'_>, out: Out<'_>) -> Written {
        text_into(out, |w| write_json(&counts.summary(), w))
    }
}
