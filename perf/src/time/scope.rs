//! Scopes: measure a region and record its length into a histogram when the scope ends
//! (on drop, or by [`Scope::end`]).

use picollo::Sink;

use super::clock::{convert_ticks, tick_frequency, ticks_begin, ticks_end};

/// The unit a scope records in.
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TimeUnit {
    /// Raw ticks (see [`super::tick_source`]).
    Ticks = 0,
    /// Nanoseconds.
    Nanos = 1,
    /// Microseconds.
    Micros = 2,
    /// Milliseconds.
    Millis = 3,
}

impl TimeUnit {
    /// Units per second (`None` for ticks, which are counted as they are).
    pub const fn per_second(self) -> Option<u64> {
        match self {
            TimeUnit::Ticks => None,
            TimeUnit::Nanos => Some(1_000_000_000),
            TimeUnit::Micros => Some(1_000_000),
            TimeUnit::Millis => Some(1_000),
        }
    }

    /// `ticks` in this unit.
    pub fn from_ticks(self, ticks: u64) -> u64 {
        match self.per_second() {
            None => ticks,
            Some(per_second) => convert_ticks(ticks, tick_frequency(), per_second),
        }
    }
}

/// A running measurement that records its elapsed time into `sink` when it ends.
///
/// ```
/// use picollo_perf::time::{ScopeExt, TimeUnit};
/// let mut h: picollo::Histogram<u64, Vec<u64>> = picollo::Config::new().build().unwrap();
/// {
///     let _scope = h.nano_scope();
///     picollo_perf::time::add_chain(10);
/// } // recorded here
/// assert_eq!(h.total_count(), 1);
/// ```
#[must_use = "a scope records when it is dropped; bind it to a named variable"]
pub struct Scope<'a, H: Sink + ?Sized> {
    sink: Option<&'a mut H>,
    unit: TimeUnit,
    start: u64,
}

impl<'a, H: Sink + ?Sized> Scope<'a, H> {
    /// Start measuring now. For units other than ticks, the tick frequency is measured
    /// first (once per process) so the region does not pay for it.
    #[inline]
    pub fn new(sink: &'a mut H, unit: TimeUnit) -> Self {
        if unit != TimeUnit::Ticks {
            tick_frequency();
        }
        Scope {
            sink: Some(sink),
            unit,
            start: ticks_begin(),
        }
    }

    /// Ticks since the start.
    #[inline]
    pub fn elapsed_ticks(&self) -> u64 {
        ticks_end().wrapping_sub(self.start)
    }

    /// End now: record and return the elapsed time in the scope's unit.
    #[inline]
    pub fn end(mut self) -> u64 {
        self.finish()
    }

    /// End without recording.
    pub fn cancel(mut self) {
        self.sink = None;
    }

    #[inline]
    fn finish(&mut self) -> u64 {
        let elapsed = self.unit.from_ticks(self.elapsed_ticks());
        if let Some(sink) = self.sink.take() {
            sink.record(elapsed);
        }
        elapsed
    }
}

impl<H: Sink + ?Sized> Drop for Scope<'_, H> {
    #[inline]
    fn drop(&mut self) {
        if self.sink.is_some() {
            self.finish();
        }
    }
}

/// `h.tick_scope()`, `h.nano_scope()`, … on anything that is a [`Sink`].
pub trait ScopeExt: Sink {
    /// A scope recording ticks.
    fn tick_scope(&mut self) -> Scope<'_, Self> {
        Scope::new(self, TimeUnit::Ticks)
    }
    /// A scope recording nanoseconds.
    fn nano_scope(&mut self) -> Scope<'_, Self> {
        Scope::new(self, TimeUnit::Nanos)
    }
    /// A scope recording microseconds.
    fn micro_scope(&mut self) -> Scope<'_, Self> {
        Scope::new(self, TimeUnit::Micros)
    }
    /// A scope recording milliseconds.
    fn milli_scope(&mut self) -> Scope<'_, Self> {
        Scope::new(self, TimeUnit::Millis)
    }
}

impl<T: Sink + ?Sized> ScopeExt for T {}

#[cfg(test)]
mod tests {
    use super::*;
    use picollo::{Config, Histogram};

    fn histogram() -> Histogram<u64, Vec<u64>> {
        Config::new().build().unwrap()
    }

    #[test]
    fn scopes_record_once_in_their_unit() {
        let (mut ms, mut us, mut ns) = (histogram(), histogram(), histogram());
        let sleep = || std::thread::sleep(std::time::Duration::from_millis(3));
        {
            let _s = ms.milli_scope();
            sleep();
        }
        {
            let _s = us.micro_scope();
            sleep();
        }
        let returned = {
            let s = ns.nano_scope();
            sleep();
            s.end()
        };
        ns.tick_scope().cancel();
        // Sleeping 3 ms is at least 3 ms in each unit (lower bounds only: a busy machine
        // may sleep longer).
        for (h, unit_of_3ms) in [(&ms, 3), (&us, 3_000), (&ns, 3_000_000)] {
            assert_eq!(
                h.total_count(),
                1,
                "cancel records nothing, end records once"
            );
            let v = h.view().max_recorded().unwrap();
            assert!(v >= unit_of_3ms * 99 / 100, "{v} < {unit_of_3ms}");
        }
        // end() returns what it recorded (to the histogram's 0.1 % resolution).
        let recorded = ns.view().max_recorded().unwrap();
        assert!(
            returned.abs_diff(recorded) <= returned / 500,
            "{returned} vs {recorded}"
        );
    }

    #[test]
    fn tick_conversion_per_unit() {
        assert_eq!(TimeUnit::Ticks.from_ticks(12_345), 12_345);
        let f = tick_frequency();
        assert_eq!(TimeUnit::Millis.from_ticks(f), 1_000);
        let half = TimeUnit::Micros.from_ticks(f / 2);
        assert!((499_999..=500_000).contains(&half), "{half}");
        assert_eq!(TimeUnit::Nanos.from_ticks(f * 3), 3_000_000_000);
    }
}
