//! What a benchmark measures: criterion's [`Measurement`] trait, [`WallTime`] by default.
//!
//! Picollo's runner judges time, so the [`crate::Bencher`] times every routine with the
//! tick clock whatever the measurement. A measurement of another kind (a crate's own
//! `impl Measurement`, brought with `Criterion::with_measurement`) is read around the same
//! routine as well: its values, [`Measurement::to_f64`] of each, go to the suite as a
//! counter beside time, named by the measurement's type (`measurement:Type`), in the
//! reports, the JSON and the comparisons like any counter.

use std::time::{Duration, Instant};

/// A kind of measurement, as criterion's: a reading before the routine
/// ([`Measurement::start`]), the value since it after ([`Measurement::end`]).
pub trait Measurement {
    /// What [`Measurement::start`] reads.
    type Intermediate;
    /// What a routine costs in this measurement's unit (what `iter_custom` reports).
    type Value;

    /// The reading a stretch of iterations starts from.
    fn start(&self) -> Self::Intermediate;
    /// The value since `i`.
    fn end(&self, i: Self::Intermediate) -> Self::Value;
    /// The sum of two values.
    fn add(&self, v1: &Self::Value, v2: &Self::Value) -> Self::Value;
    /// A value of nothing.
    fn zero(&self) -> Self::Value;
    /// A value as a number, in the measurement's unit.
    fn to_f64(&self, value: &Self::Value) -> f64;
    /// How values are written (criterion's reports; Picollo's write their own).
    fn formatter(&self) -> &dyn ValueFormatter;

    /// Not criterion's: `value` as a time where this measurement is time ([`WallTime`]);
    /// `None` for any other, whose values then go to the counter beside time.
    #[doc(hidden)]
    fn picollo_time(&self, value: &Self::Value) -> Option<Duration> {
        let _ = value;
        None
    }
}

/// How a measurement's values are written, as criterion's trait: Picollo's reports write
/// a counter's figures themselves, so nothing here calls it; a measurement still implements
/// it to compile.
pub trait ValueFormatter {
    /// `value` with its unit.
    fn format_value(&self, value: f64) -> String {
        let mut v = [value];
        let unit = self.scale_values(value, &mut v);
        format!("{:>6} {unit}", short(v[0]))
    }

    /// A rate of `throughput` at `value` an iteration, with its unit.
    fn format_throughput(&self, throughput: &crate::Throughput, value: f64) -> String {
        let mut v = [value];
        let unit = self.scale_throughputs(value, throughput, &mut v);
        format!("{:>6} {unit}", short(v[0]))
    }

    /// `values` scaled to a unit that suits `typical_value`: that unit's name.
    fn scale_values(&self, typical_value: f64, values: &mut [f64]) -> &'static str;

    /// `values` (per iteration) as rates of `throughput`, scaled: the unit's name.
    fn scale_throughputs(
        &self,
        typical_value: f64,
        throughput: &crate::Throughput,
        values: &mut [f64],
    ) -> &'static str;

    /// `values` in one fixed unit for machine-readable output: its name.
    fn scale_for_machines(&self, values: &mut [f64]) -> &'static str;
}

/// The name of the counter `measurement`'s figures go to: `measurement:Type` (the type's
/// name without its path); `None` for time ([`WallTime`]).
pub(crate) fn counter_name<M: Measurement>(measurement: &M) -> Option<String> {
    if measurement.picollo_time(&measurement.zero()).is_some() {
        return None;
    }
    let full = std::any::type_name::<M>();
    let path = full.split('<').next().unwrap_or(full);
    let short = path.rsplit("::").next().unwrap_or(path);
    Some(format!("measurement:{short}"))
}

/// `x` with four significant digits.
fn short(x: f64) -> String {
    match x.abs() {
        a if a >= 1000.0 => format!("{x:.0}"),
        a if a >= 100.0 => format!("{x:.1}"),
        a if a >= 10.0 => format!("{x:.2}"),
        _ => format!("{x:.3}"),
    }
}

/// Time on the wall clock (the CPU's tick clock where the build has it).
#[derive(Clone, Copy, Debug, Default)]
pub struct WallTime;

impl Measurement for WallTime {
    type Intermediate = Instant;
    type Value = Duration;

    fn start(&self) -> Instant {
        Instant::now()
    }

    fn end(&self, i: Instant) -> Duration {
        i.elapsed()
    }

    fn add(&self, v1: &Duration, v2: &Duration) -> Duration {
        *v1 + *v2
    }

    fn zero(&self) -> Duration {
        Duration::ZERO
    }

    fn to_f64(&self, value: &Duration) -> f64 {
        value.as_nanos() as f64
    }

    fn formatter(&self) -> &dyn ValueFormatter {
        &Nanoseconds
    }

    fn picollo_time(&self, value: &Duration) -> Option<Duration> {
        Some(*value)
    }
}

/// [`WallTime`]'s values: nanoseconds, scaled to the unit that suits them.
struct Nanoseconds;

impl ValueFormatter for Nanoseconds {
    fn scale_values(&self, typical_value: f64, values: &mut [f64]) -> &'static str {
        let (factor, unit) = match typical_value {
            t if t < 1e3 => (1.0, "ns"),
            t if t < 1e6 => (1e-3, "µs"),
            t if t < 1e9 => (1e-6, "ms"),
            _ => (1e-9, "s"),
        };
        values.iter_mut().for_each(|v| *v *= factor);
        unit
    }

    fn scale_throughputs(
        &self,
        _typical_value: f64,
        throughput: &crate::Throughput,
        values: &mut [f64],
    ) -> &'static str {
        let work = throughput.picollo().per_operation() as f64;
        values.iter_mut().for_each(|v| *v = work * 1e9 / *v);
        match throughput.picollo() {
            picollo_bench::Throughput::Bytes(_) => "B/s",
            picollo_bench::Throughput::Elements(_) => "elem/s",
        }
    }

    fn scale_for_machines(&self, _values: &mut [f64]) -> &'static str {
        "ns"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wall_time_is_time_and_its_values_add_and_scale() {
        let w = WallTime;
        let (a, b) = (Duration::from_micros(3), Duration::from_micros(4));
        assert_eq!(w.add(&a, &b), Duration::from_micros(7));
        assert_eq!(w.to_f64(&w.add(&a, &w.zero())), 3000.0);
        assert_eq!(w.picollo_time(&a), Some(a));
        assert_eq!(w.formatter().format_value(2500.0), " 2.500 µs");
        let t = crate::Throughput::Elements(1000);
        assert_eq!(
            w.formatter().format_throughput(&t, 1000.0),
            "1000000000 elem/s"
        );
    }
}
