//! How the formats for CI (`bmf`, `github`, `gbench`) write their records: serde_json, one
//! line, a double written as Picollo's own formats write one, and members whose names are
//! data (a benchmark's, a metric's) kept in the order they come.

use core::fmt::{self, Write};
use std::io;
use std::string::String;
use std::vec::Vec;

use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::ser::Formatter;

/// serde_json's compact text, but a finite double as Rust's shortest text that reads back
/// as it, which keeps a fraction or an exponent (`5.0`, `1e16`, `3.5e-5`) as the histogram
/// crate's JSON does; serde_json's own writes `0.000035` where the exponent is -5.
struct PicolloNumbers;

impl Formatter for PicolloNumbers {
    fn write_f64<W: ?Sized + io::Write>(&mut self, w: &mut W, value: f64) -> io::Result<()> {
        // serde_json writes `null` for NaN and the infinities and calls this only for the
        // finite doubles, whose `Debug` text JSON's number grammar takes.
        write!(w, "{value:?}")
    }
}

/// `record` as one line of JSON (compact) and a newline.
pub(crate) fn write_line(w: &mut dyn Write, record: &impl Serialize) -> fmt::Result {
    let mut text = Vec::new();
    let mut serializer = serde_json::Serializer::with_formatter(&mut text, PicolloNumbers);
    // Only a map with keys other than strings fails, and every key here is a string.
    record.serialize(&mut serializer).map_err(|_| fmt::Error)?;
    let text = String::from_utf8(text).map_err(|_| fmt::Error)?;
    w.write_str(&text)?;
    w.write_char('\n')
}

/// Pairs written as a JSON object, in their order, each key once per pair: the members
/// whose names are a benchmark's or a metric's.
pub(crate) struct Members<K, V>(pub Vec<(K, V)>);

impl<K: Serialize, V: Serialize> Serialize for Members<K, V> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (key, value) in &self.0 {
            map.serialize_entry(key, value)?;
        }
        map.end()
    }
}

/// The member names of the JSON object `text`, in its order (a test's check that a format
/// keeps the order its readers know).
#[cfg(test)]
pub(crate) fn member_names(text: &str) -> Vec<String> {
    use serde::de::{Deserializer, IgnoredAny, MapAccess, Visitor};

    struct Names;
    impl<'de> Visitor<'de> for Names {
        type Value = Vec<String>;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("a JSON object")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Vec<String>, A::Error> {
            let mut names = Vec::new();
            while let Some((name, IgnoredAny)) = map.next_entry::<String, IgnoredAny>()? {
                names.push(name);
            }
            Ok(names)
        }
    }
    let mut de = serde_json::Deserializer::from_str(text);
    de.deserialize_map(Names).expect("a JSON object")
}

/// The text of member `name` of the JSON object `text`, as written (a test's way into a
/// member whose own order it checks).
#[cfg(test)]
pub(crate) fn member<'a>(text: &'a str, name: &str) -> &'a str {
    use serde_json::value::RawValue;
    let members: std::collections::BTreeMap<String, &RawValue> =
        serde_json::from_str(text).expect("a JSON object");
    members
        .get(name)
        .map_or_else(|| panic!("no {name:?} in {text}"), |m| m.get())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One line of `record`'s JSON.
    fn line(record: &impl Serialize) -> String {
        let mut out = String::new();
        write_line(&mut out, record).unwrap();
        out
    }

    #[test]
    fn doubles_keep_a_fraction_or_an_exponent_and_read_back_as_they_were() {
        let values = [
            0.0,
            -0.0,
            5.0,
            0.5,
            3.5e-5,
            1.5e-7,
            1e15,
            1e16,
            1.5e300,
            f64::MIN,
        ];
        for v in values {
            let text = line(&v);
            assert_eq!(text, std::format!("{v:?}\n"));
            assert!(text.contains(['.', 'e']), "{text}");
            assert_eq!(text.trim().parse::<f64>(), Ok(v));
        }
        for v in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            assert_eq!(line(&v), "null\n");
        }
    }

    #[test]
    fn members_keep_their_order_and_every_pair() {
        let members = Members(std::vec![("b", 1), ("a", 2), ("b", 3)]);
        assert_eq!(line(&members), "{\"b\":1,\"a\":2,\"b\":3}\n");
        assert_eq!(member_names(line(&members).trim()), ["b", "a", "b"]);
    }
}
