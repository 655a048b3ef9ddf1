//! Event names read back ([`Event::parse`]): a class and a name, both matched without
//! regard to case (`Hardware:CpuCycles`, `software:taskclock`), and, for a name that is not
//! one, an error that says why, lists what the class holds and, for a near miss, names the
//! event meant. No allocation: the suggestion is found by an edit distance on the stack.

use core::fmt::{self, Write};

use super::event::{
    CacheEvent, CacheLevel, CacheOp, CacheResult, EmulatedEvent, Event, HardwareEvent, RawEvent,
    SoftwareEvent,
};

/// The classes of event names: the part before the first `:`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EventClass {
    /// `Hardware:<Event>`.
    Hardware,
    /// `HardwareCache:<Level><Op><Result>`.
    HardwareCache,
    /// `Software:<Event>`.
    Software,
    /// `Emulated:<Event>`.
    Emulated,
    /// `Raw:<type>:<config>[:<config1>[:<config2>]]`.
    Raw,
}

impl EventClass {
    /// Every class, in the order the docs list them.
    pub const ALL: [EventClass; 5] = [
        EventClass::Hardware,
        EventClass::HardwareCache,
        EventClass::Software,
        EventClass::Emulated,
        EventClass::Raw,
    ];

    /// Its name: `Hardware`, `HardwareCache`, `Software`, `Emulated` or `Raw`.
    pub const fn as_str(self) -> &'static str {
        match self {
            EventClass::Hardware => "Hardware",
            EventClass::HardwareCache => "HardwareCache",
            EventClass::Software => "Software",
            EventClass::Emulated => "Emulated",
            EventClass::Raw => "Raw",
        }
    }
}

/// Why a name is not an event's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ParseEventError {
    /// The name is empty (or spaces only): a doubled comma in a list, or one at its end.
    Empty,
    /// No class before a `:`, or not one of [`EventClass::ALL`]; `meant` is the event whose
    /// name is nearest, when one is near.
    UnknownClass {
        /// The event meant, if the name is near one's.
        meant: Option<Event>,
    },
    /// The class is known, the rest names none of its events.
    UnknownName {
        /// The class.
        class: EventClass,
        /// The event meant, if the name is near one's.
        meant: Option<Event>,
    },
    /// A raw event's numbers do not parse: what is wrong with them.
    BadRaw(&'static str),
}

impl fmt::Display for ParseEventError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            ParseEventError::Empty => {
                f.write_str("the name is empty (a comma too many in a list?)")
            }
            ParseEventError::UnknownClass { meant } => {
                f.write_str("a counter name is CLASS:NAME, CLASS one of ")?;
                list(f, EventClass::ALL.iter().map(|c| c.as_str()))?;
                did_you_mean(f, meant)
            }
            ParseEventError::UnknownName { class, meant } => {
                write!(f, "no {} event of that name", class.as_str())?;
                did_you_mean(f, meant)?;
                f.write_str("; ")?;
                names_of(f, class)
            }
            ParseEventError::BadRaw(why) => write!(
                f,
                "{why}: a raw event is Raw:<type>:<config>[:<config1>[:<config2>]], each a \
                 decimal or 0x hex number"
            ),
        }
    }
}

/// `; did you mean `Hardware:CpuCycles`?` when an event is meant.
fn did_you_mean(f: &mut fmt::Formatter<'_>, meant: Option<Event>) -> fmt::Result {
    match meant {
        Some(e) => write!(f, "; did you mean `{e}`?"),
        None => Ok(()),
    }
}

/// `a, b, c` from `items`.
fn list<'a>(f: &mut fmt::Formatter<'_>, items: impl Iterator<Item = &'a str>) -> fmt::Result {
    for (i, item) in items.enumerate() {
        if i > 0 {
            f.write_str(", ")?;
        }
        f.write_str(item)?;
    }
    Ok(())
}

/// The names a class holds, as a sentence.
fn names_of(f: &mut fmt::Formatter<'_>, class: EventClass) -> fmt::Result {
    let name = class.as_str();
    match class {
        EventClass::Hardware => {
            write!(f, "the {name} events: ")?;
            list(f, HardwareEvent::ALL.iter().map(|e| e.as_str()))
        }
        EventClass::Software => {
            write!(f, "the {name} events: ")?;
            list(f, SoftwareEvent::ALL.iter().map(|e| e.as_str()))
        }
        EventClass::Emulated => {
            write!(f, "the {name} events: ")?;
            list(f, EmulatedEvent::ALL.iter().map(|e| e.as_str()))
        }
        EventClass::HardwareCache => {
            f.write_str("a cache event is <Level><Op><Result>, Level one of ")?;
            list(f, CacheLevel::ALL.iter().map(|e| e.as_str()))?;
            f.write_str("; Op one of ")?;
            list(f, CacheOp::ALL.iter().map(|e| e.as_str()))?;
            f.write_str("; Result one of ")?;
            list(f, CacheResult::ALL.iter().map(|e| e.as_str()))
        }
        EventClass::Raw => f.write_str("Raw:<type>:<config>[:<config1>[:<config2>]]"),
    }
}

/// The event `name` names (see [`Event::parse`]).
pub(super) fn parse(name: &str) -> Result<Event, ParseEventError> {
    let name = name.trim();
    if name.is_empty() {
        return Err(ParseEventError::Empty);
    }
    let unknown_class = || ParseEventError::UnknownClass {
        meant: nearest(name),
    };
    let (class, rest) = name.split_once(':').ok_or_else(unknown_class)?;
    let class = EventClass::ALL
        .into_iter()
        .find(|c| c.as_str().eq_ignore_ascii_case(class))
        .ok_or_else(unknown_class)?;
    let found = match class {
        EventClass::Hardware => find(HardwareEvent::ALL, rest, |e| e.as_str()).map(Event::Hardware),
        EventClass::Software => find(SoftwareEvent::ALL, rest, |e| e.as_str()).map(Event::Software),
        EventClass::Emulated => find(EmulatedEvent::ALL, rest, |e| e.as_str()).map(Event::Emulated),
        EventClass::HardwareCache => parse_cache(rest),
        EventClass::Raw => return parse_raw(rest).map(Event::Raw),
    };
    found.ok_or(ParseEventError::UnknownName {
        class,
        meant: nearest(name),
    })
}

/// The item of `all` whose name is `rest`, case aside.
fn find<T: Copy>(all: &[T], rest: &str, name: impl Fn(T) -> &'static str) -> Option<T> {
    all.iter()
        .copied()
        .find(|&x| name(x).eq_ignore_ascii_case(rest))
}

/// The item of `all` whose name starts `rest` (the longest, case aside), and what follows.
fn prefix<T: Copy>(all: &[T], rest: &str, name: impl Fn(T) -> &'static str) -> Option<(T, usize)> {
    let starts = |x: &T| {
        let n = name(*x);
        rest.get(..n.len())
            .is_some_and(|p| p.eq_ignore_ascii_case(n))
    };
    let x = all
        .iter()
        .copied()
        .filter(starts)
        .max_by_key(|&x| name(x).len())?;
    Some((x, name(x).len()))
}

/// `L1DReadMiss` and the like: the longest level that starts `rest`, an op, a result.
fn parse_cache(rest: &str) -> Option<Event> {
    let (level, n) = prefix(CacheLevel::ALL, rest, CacheLevel::as_str)?;
    let (op, m) = prefix(CacheOp::ALL, &rest[n..], CacheOp::as_str)?;
    let result = find(CacheResult::ALL, &rest[n + m..], CacheResult::as_str)?;
    Some(Event::cache(level, op, result))
}

/// `TYPE:CONFIG[:CONFIG1[:CONFIG2]]`, each decimal or `0x` hex.
fn parse_raw(rest: &str) -> Result<RawEvent, ParseEventError> {
    let bad = ParseEventError::BadRaw;
    let mut parts = rest.split(':');
    let mut number = |what: &'static str, default: Option<u64>| match parts.next() {
        Some(p) => parse_number(p).ok_or(bad(what)),
        None => default.ok_or(bad("the config is missing")),
    };
    let type_ = number("the type is not a number", None)?;
    let type_ = u32::try_from(type_).map_err(|_| bad("the type is above 2^32 - 1"))?;
    let config = number("the config is not a number", None)?;
    let config1 = number("config1 is not a number", Some(0))?;
    let config2 = number("config2 is not a number", Some(0))?;
    if parts.next().is_some() {
        return Err(bad("there are more than four numbers"));
    }
    Ok(RawEvent {
        type_,
        config,
        config1,
        config2,
    })
}

fn parse_number(s: &str) -> Option<u64> {
    match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        Some(hex) => u64::from_str_radix(hex, 16).ok(),
        None => s.parse().ok(),
    }
}

/// Every named event (the raw ones aside): hardware, every cache combination, software,
/// emulated.
pub fn named_events() -> impl Iterator<Item = Event> {
    let cache = CacheLevel::ALL.iter().flat_map(|&l| {
        CacheOp::ALL.iter().flat_map(move |&o| {
            let results = CacheResult::ALL.iter();
            results.map(move |&r| Event::Cache(CacheEvent::new(l, o, r)))
        })
    });
    let hardware = HardwareEvent::ALL.iter().map(|&h| Event::Hardware(h));
    let software = SoftwareEvent::ALL.iter().map(|&s| Event::Software(s));
    let emulated = EmulatedEvent::ALL.iter().map(|&e| Event::Emulated(e));
    hardware.chain(cache).chain(software).chain(emulated)
}

/// The longest name compared for a suggestion; longer ones get none.
const MAX: usize = 48;

/// Letters and digits, lower case: `cpu-cycles` and `CpuCycles` both `cpucycles`.
struct Folded {
    bytes: [u8; MAX],
    len: usize,
}

impl Write for Folded {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        for b in s.bytes().filter(u8::is_ascii_alphanumeric) {
            *self.bytes.get_mut(self.len).ok_or(fmt::Error)? = b.to_ascii_lowercase();
            self.len += 1;
        }
        Ok(())
    }
}

impl Folded {
    /// `text` folded, or `None` when it is longer than [`MAX`] letters and digits.
    fn of(text: impl fmt::Display) -> Option<Folded> {
        let mut f = Folded {
            bytes: [0; MAX],
            len: 0,
        };
        write!(f, "{text}").ok()?;
        Some(f)
    }

    fn as_bytes(&self) -> &[u8] {
        &self.bytes[..self.len]
    }
}

/// The named event nearest `name` (its whole name, or without its class when `name` has
/// none), when the edit distance between the folded names is at most a quarter of the
/// event's (at least 2).
fn nearest(name: &str) -> Option<Event> {
    let wanted = Folded::of(name)?;
    let has_class = name.contains(':');
    let distance = |e: &Event| {
        let whole = Folded::of(e)?;
        let class_len = Folded::of(e.class().as_str())?.len;
        let candidate = match has_class {
            true => whole.as_bytes(),
            false => &whole.as_bytes()[class_len..],
        };
        let d = edit_distance(wanted.as_bytes(), candidate)?;
        (d <= (candidate.len() / 4).max(2)).then_some(d)
    };
    let scored = named_events().filter_map(|e| Some((distance(&e)?, e)));
    scored.min_by_key(|&(d, _)| d).map(|(_, e)| e)
}

/// Levenshtein distance of two strings of at most [`MAX`] bytes, on one row of the stack.
fn edit_distance(a: &[u8], b: &[u8]) -> Option<usize> {
    if a.len() > MAX || b.len() > MAX {
        return None;
    }
    let mut row = [0usize; MAX + 1];
    for (j, cell) in row.iter_mut().enumerate().take(b.len() + 1) {
        *cell = j;
    }
    for (i, &x) in a.iter().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, &y) in b.iter().enumerate() {
            let substitution = diagonal + usize::from(x != y);
            diagonal = row[j + 1];
            row[j + 1] = substitution.min(row[j] + 1).min(row[j + 1] + 1);
        }
    }
    Some(row[b.len()])
}

impl Event {
    /// Its class, the part of its name before the first `:` (`Hardware` for
    /// `Hardware:CpuCycles`).
    pub fn class(self) -> EventClass {
        match self {
            Event::Hardware(_) => EventClass::Hardware,
            Event::Cache(_) => EventClass::HardwareCache,
            Event::Software(_) => EventClass::Software,
            Event::Emulated(_) => EventClass::Emulated,
            Event::Raw(_) => EventClass::Raw,
        }
    }
}

impl Event {
    /// Parse a name as [`fmt::Display`] writes it (`Hardware:CpuCycles`,
    /// `HardwareCache:LLReadAccess`, `Software:TaskClock`, `Raw:4:0x1c2`,
    /// `Raw:4:0x1c2:0x1:0x0`), the class and the name matched without regard to case.
    /// Numbers may be decimal or `0x` hex. The error says why a name is not one, and for
    /// a near miss (`Hardware:CpuCycle`, `cpu-cycles`) which event was meant.
    pub fn parse(name: &str) -> Result<Event, ParseEventError> {
        parse(name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error(name: &str) -> String {
        Event::parse(name).unwrap_err().to_string()
    }

    #[test]
    fn every_named_event_parses_back_in_any_case() {
        let mut n = 0;
        for e in named_events() {
            let name = e.to_string();
            assert_eq!(Event::parse(&name), Ok(e));
            assert_eq!(Event::parse(&name.to_uppercase()), Ok(e));
            assert_eq!(
                Event::parse(&std::format!("  {name} ")),
                Ok(e),
                "spaces aside"
            );
            n += 1;
        }
        assert_eq!(n, 10 + 7 * 3 * 2 + 9 + 4);
    }

    #[test]
    fn a_near_miss_names_the_event_meant() {
        let meant = |name: &str| match Event::parse(name) {
            Err(ParseEventError::UnknownName { meant, .. })
            | Err(ParseEventError::UnknownClass { meant }) => meant.map(|e| e.to_string()),
            other => panic!("{name}: {other:?}"),
        };
        for (typed, event) in [
            ("Hardware:CpuCycle", "Hardware:CpuCycles"),
            ("cpu-cycles", "Hardware:CpuCycles"),
            ("Software:TaskClok", "Software:TaskClock"),
            ("HardwareCache:L1DReadMis", "HardwareCache:L1DReadMiss"),
            ("page-faults", "Software:PageFaults"),
            ("Sofware:TaskClock", "Software:TaskClock"),
        ] {
            assert_eq!(meant(typed).as_deref(), Some(event), "{typed}");
        }
        assert_eq!(meant("Hardware:Nope"), None, "nothing near");
        assert_eq!(meant(&"x".repeat(500)), None, "too long to compare");
    }

    #[test]
    fn the_error_says_why_and_what_there_is() {
        assert_eq!(Event::parse(" "), Err(ParseEventError::Empty));
        assert!(error("").contains("empty"));
        let class = error("Nope:CpuCycles");
        assert!(class.contains("CLASS one of Hardware, HardwareCache, Software, Emulated, Raw"));
        let hw = error("Hardware:CpuCycle");
        assert!(hw.contains("no Hardware event of that name; did you mean `Hardware:CpuCycles`?"));
        assert!(
            hw.contains("the Hardware events: CpuCycles, Instructions,"),
            "{hw}"
        );
        let sw = error("Software:Nope");
        assert!(sw.contains("TaskClock, PageFaults"), "{sw}");
        assert!(!sw.contains("did you mean"), "{sw}");
        let cache = error("HardwareCache:L2ReadMiss");
        assert!(
            cache.contains("Level one of L1D, L1I, LL, DTLB, ITLB, BPU, NODE"),
            "{cache}"
        );
        assert!(error("Emulated:Cycles").contains("Instructions, Loads, Stores, L1DMisses"));
    }

    #[test]
    fn raw_events_say_which_number_is_wrong() {
        assert_eq!(
            Event::parse("raw:4:0X1C2"),
            Ok(Event::raw(4, 0x1c2)),
            "class and hex prefix in any case"
        );
        for (name, why) in [
            ("Raw:4", "the config is missing"),
            ("Raw:x:1", "the type is not a number"),
            ("Raw:4294967296:1", "the type is above 2^32 - 1"),
            ("Raw:4:zz", "the config is not a number"),
            ("Raw:4:1:q", "config1 is not a number"),
            ("Raw:4:1:2:q", "config2 is not a number"),
            ("Raw:4:1:2:3:4", "more than four numbers"),
        ] {
            let e = error(name);
            assert!(
                e.contains(why) && e.contains("Raw:<type>:<config>"),
                "{name}: {e}"
            );
        }
    }

    #[test]
    fn the_edit_distance_counts_single_byte_edits() {
        let d = |a: &str, b: &str| edit_distance(a.as_bytes(), b.as_bytes());
        assert_eq!(d("kitten", "sitting"), Some(3));
        assert_eq!(d("", "abc"), Some(3));
        assert_eq!(d("abc", "abc"), Some(0));
        assert_eq!(d("flaw", "lawn"), Some(2));
        assert_eq!(d(&"a".repeat(MAX + 1), "a"), None);
    }
}
