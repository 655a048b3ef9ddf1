//! Picollo's own JSON document: `{"schema": "picollo-bench", "version": 1, "commands":
//! [...], "comparisons": [...]}`, each benchmark with its name and its result (the
//! harness's JSON, [`BenchResult::write_json`]), each comparison with its verdict and
//! figures. `docs/schema/picollo-bench.schema.json` is its JSON Schema; `picollo bench
//! --json` and `--save` write it too, with the members only a command has (its tag, its
//! text, its runs apart, or why it failed).

use core::fmt::{self, Write};

use picollo::text::{comma_separated, json_string};

use super::{Export, Suite};
use crate::judge::shift::Design;
use crate::judge::verdict::{Comparison, Verdict};
use crate::measure::throughput::Throughput;

/// What the document's `schema` member holds.
pub const DOCUMENT_SCHEMA: &str = "picollo-bench";
/// Its `version`: a reader refuses a later one it does not know.
pub const DOCUMENT_VERSION: u32 = 1;

/// Picollo's JSON document (`picollo`).
pub struct Document;

impl Export for Document {
    fn name(&self) -> &'static str {
        "picollo"
    }

    fn title(&self) -> &'static str {
        "Picollo's JSON document (docs/schema/picollo-bench.schema.json)"
    }

    fn write(&self, suite: &Suite<'_>, w: &mut dyn Write) -> fmt::Result {
        write!(
            w,
            "{{\"schema\":\"{DOCUMENT_SCHEMA}\",\"version\":{DOCUMENT_VERSION}"
        )?;
        members(w, &suite.head)?;
        w.write_str(",\"commands\":[")?;
        comma_separated(w, &suite.entries, |w, e| {
            w.write_str("{\"name\":")?;
            json_string(w, &e.name)?;
            members(w, &e.extra)?;
            if let Some(r) = e.result {
                w.write_str(",\"result\":")?;
                r.write_json(w)?;
            }
            w.write_str("}")
        })?;
        w.write_str("],\"comparisons\":[")?;
        comma_separated(w, &suite.comparisons, |w, c| {
            w.write_str("{")?;
            c.comparison.write_json_members(w)?;
            members(w, &c.labels)?;
            write!(w, ",\"failsGate\":{}}}", c.fails_gate)
        })?;
        w.write_str("]}\n")
    }
}

/// A number as the shortest text that reads back as it (`1` for 1.0), or `null` where it is
/// not finite.
fn json_number(w: &mut dyn Write, v: f64) -> fmt::Result {
    match v.is_finite() {
        true => write!(w, "{v}"),
        false => w.write_str("null"),
    }
}

/// `,MEMBERS` where there are any.
fn members(w: &mut dyn Write, members: &str) -> fmt::Result {
    match members.is_empty() {
        true => Ok(()),
        false => write!(w, ",{members}"),
    }
}

impl Comparison {
    /// The members of its JSON object: `"a"`, `"b"`, `"metric"` (the judged metric's name),
    /// `"verdict"` (its word), `"percent"` (of a faster, slower or within-noise verdict, else
    /// null), `"ratio"`, `"change"`, `"changeLow"`, `"changeHigh"`, `"noiseFloor"`,
    /// `"threshold"`, `"builds"` where judged with builds as the unit, `"withinJitter"`
    /// (null unless judged exactly), `"exact"` (each exact metric), `"throughput"` (both
    /// sides' rates, or null), `"throughputDiffers"` (each side's declared work where they
    /// differ, or null), `"paired"`, `"rounds"` and `"line"` (the verdict line).
    pub fn write_json_members(&self, w: &mut dyn Write) -> fmt::Result {
        w.write_str("\"a\":")?;
        json_string(w, &self.a)?;
        w.write_str(",\"b\":")?;
        json_string(w, &self.b)?;
        w.write_str(",\"metric\":")?;
        json_string(w, &self.metric.name)?;
        write!(w, ",\"verdict\":\"{}\",\"percent\":", self.verdict.word())?;
        match self.verdict {
            Verdict::Faster(p) | Verdict::Slower(p) | Verdict::WithinNoise(p) => json_number(w, p)?,
            _ => w.write_str("null")?,
        }
        let numbers = [
            ("ratio", self.ratio),
            ("change", self.change.estimate),
            ("changeLow", self.change.low),
            ("changeHigh", self.change.high),
            ("noiseFloor", self.noise_floor),
            ("threshold", self.threshold),
        ];
        for (key, v) in numbers {
            write!(w, ",\"{key}\":")?;
            json_number(w, v)?;
        }
        self.write_builds_json(w)?;
        self.write_steady_json(w)?;
        self.write_exact_json(w)?;
        self.write_rates_json(w)?;
        self.write_differs_json(w)?;
        let paired = self.design == Design::Paired;
        let (ra, rb) = self.rounds;
        write!(w, ",\"paired\":{paired},\"rounds\":[{ra},{rb}],\"line\":")?;
        let mut line = std::string::String::new();
        self.write_verdict(&mut line)?;
        json_string(w, &line)
    }

    /// `,"builds":{"perSide": K, "processes": P, "layoutSpread": %, "noiseFloor": %}` when
    /// judged over builds (`P` worker processes of each).
    fn write_builds_json(&self, w: &mut dyn Write) -> fmt::Result {
        let Some(b) = &self.builds else {
            return Ok(());
        };
        write!(
            w,
            ",\"builds\":{{\"perSide\":{},\"processes\":{},\"layoutSpread\":",
            b.per_side, b.processes
        )?;
        json_number(w, b.layout_spread)?;
        w.write_str(",\"noiseFloor\":")?;
        json_number(w, b.noise_floor)?;
        w.write_str("}")
    }

    /// `,"withinJitter":{"difference": B − A, "low": L, "high": H, "spread": [A's, B's]}`
    /// where the judged metric was judged exactly (in its unit per operation), else `null`.
    fn write_steady_json(&self, w: &mut dyn Write) -> fmt::Result {
        w.write_str(",\"withinJitter\":")?;
        let Some(s) = &self.steady else {
            return w.write_str("null");
        };
        let d = &s.difference;
        let figures = [("difference", d.estimate), ("low", d.low), ("high", d.high)];
        w.write_str("{")?;
        comma_separated(w, figures, |w, (key, v)| {
            write!(w, "\"{key}\":")?;
            json_number(w, v)
        })?;
        w.write_str(",\"spread\":[")?;
        json_number(w, s.spread.0)?;
        w.write_str(",")?;
        json_number(w, s.spread.1)?;
        w.write_str("]}")
    }

    /// `,"throughput":{"unit": "elements"|"bytes", "a": A's rate, "b": B's rate}` (each a
    /// second, at its median time) where both declare a throughput of one unit, else `null`.
    fn write_rates_json(&self, w: &mut dyn Write) -> fmt::Result {
        w.write_str(",\"throughput\":")?;
        let Some((a, b)) = self.rates else {
            return w.write_str("null");
        };
        write!(w, "{{\"unit\":\"{}\",\"a\":", a.unit())?;
        json_number(w, a.per_second)?;
        w.write_str(",\"b\":")?;
        json_number(w, b.per_second)?;
        w.write_str("}")
    }

    /// `,"throughputDiffers":{"a": A's, "b": B's}` (each `{"unit", "perOperation"}`, or null
    /// where that side declares none) where the two declare different work per operation,
    /// else `null`.
    fn write_differs_json(&self, w: &mut dyn Write) -> fmt::Result {
        w.write_str(",\"throughputDiffers\":")?;
        let Some((a, b)) = self.throughput_differs else {
            return w.write_str("null");
        };
        let side = |w: &mut dyn Write, t: Option<Throughput>| match t {
            Some(t) => write!(
                w,
                "{{\"unit\":\"{}\",\"perOperation\":{}}}",
                t.unit(),
                t.per_operation()
            ),
            None => w.write_str("null"),
        };
        w.write_str("{\"a\":")?;
        side(w, a)?;
        w.write_str(",\"b\":")?;
        side(w, b)?;
        w.write_str("}")
    }

    /// `,"exact":[{"metric": NAME, "a": A, "b": B, "difference": B − A, "verdict": WORD}]`:
    /// each exact metric's figure per operation where every one of a side's counted the same
    /// (else null), and its word (`no difference`, `more`, `fewer`, `varies`).
    fn write_exact_json(&self, w: &mut dyn Write) -> fmt::Result {
        w.write_str(",\"exact\":[")?;
        let exact = self.metrics.iter().filter_map(|d| Some((d, d.exact?)));
        comma_separated(w, exact, |w, (d, x)| {
            w.write_str("{\"metric\":")?;
            json_string(w, &d.name)?;
            for (key, v) in [("a", x.a), ("b", x.b), ("difference", x.difference())] {
                write!(w, ",\"{key}\":")?;
                json_number(w, v.unwrap_or(f64::NAN))?;
            }
            write!(w, ",\"verdict\":\"{}\"}}", x.word())
        })?;
        w.write_str("]")
    }
}
