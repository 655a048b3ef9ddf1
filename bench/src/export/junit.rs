//! JUnit XML, the test report CI systems show (GitHub, GitLab, Jenkins): one `<testsuite>`
//! with a `<testcase>` per benchmark and one per comparison. A benchmark without a result
//! is an `<error>` with why; a comparison that fails the gate (a slower B in a gated run) a
//! `<failure>` with its verdict line as the message; one not judged (too few rounds or runs
//! apart, or a noise floor past its bound) is `<skipped>` with its line as the message; any
//! other comparison passes, its verdict line as `<system-out>`.

use core::fmt::{self, Write};
use std::string::String;

use super::{Compared, Entry, Findings, ResultFormat};
use crate::tell::escape::escaped_with;

/// JUnit XML (`junit`).
pub struct Junit;

/// `text` as XML character data or an attribute's value (double-quoted): the five special
/// characters as entities; tab, line feed and carriage return as character references (an
/// attribute keeps them); any other control character, which XML 1.0 cannot hold, as U+FFFD.
fn escaped(text: &str) -> String {
    escaped_with(text, |c, out| {
        match c {
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' => out.push_str("&#9;"),
            '\n' => out.push_str("&#10;"),
            '\r' => out.push_str("&#13;"),
            c if c.is_control() && (c as u32) < 0x20 => out.push('\u{FFFD}'),
            '\u{FFFE}' | '\u{FFFF}' => out.push('\u{FFFD}'),
            _ => return false,
        }
        true
    })
}

/// A benchmark's test case: passed where it was measured, else an `<error>` saying why.
fn write_entry(w: &mut dyn Write, e: &Entry<'_>) -> fmt::Result {
    let name = escaped(&e.name);
    match e.result {
        Some(_) => writeln!(w, "  <testcase classname=\"benchmark\" name=\"{name}\"/>"),
        None => {
            let why = escaped(e.failed.as_deref().unwrap_or("not measured"));
            writeln!(w, "  <testcase classname=\"benchmark\" name=\"{name}\">")?;
            writeln!(w, "    <error message=\"{why}\"/>")?;
            writeln!(w, "  </testcase>")
        }
    }
}

/// A comparison's test case, `B vs A`: a `<failure>` where it fails the gate, its verdict
/// line the message; `<skipped>` where it was not judged ([`crate::Verdict::judged`]);
/// else passed, the line as its output.
fn write_comparison(w: &mut dyn Write, x: &Compared) -> fmt::Result {
    let c = &x.comparison;
    let mut line = String::new();
    c.write_verdict(&mut line)?;
    let name = escaped(&std::format!("{} vs {}", c.b, c.a));
    let line = escaped(&line);
    writeln!(w, "  <testcase classname=\"comparison\" name=\"{name}\">")?;
    match (x.fails_gate, c.verdict.judged()) {
        (true, _) => writeln!(w, "    <failure message=\"{line}\">{line}</failure>")?,
        (false, false) => writeln!(w, "    <skipped message=\"{line}\"/>")?,
        (false, true) => writeln!(w, "    <system-out>{line}</system-out>")?,
    }
    writeln!(w, "  </testcase>")
}

impl ResultFormat for Junit {
    fn name(&self) -> &'static str {
        "junit"
    }

    fn title(&self) -> &'static str {
        "JUnit XML: a test case per benchmark and comparison, a failure per gate failed"
    }

    fn write(&self, findings: &Findings<'_>, w: &mut dyn Write) -> fmt::Result {
        let errors = findings
            .entries
            .iter()
            .filter(|e| e.result.is_none())
            .count();
        let failures = findings.comparisons.iter().filter(|x| x.fails_gate).count();
        let unjudged = |x: &&Compared| !x.fails_gate && !x.comparison.verdict.judged();
        let skipped = findings.comparisons.iter().filter(unjudged).count();
        let tests = findings.entries.len() + findings.comparisons.len();
        writeln!(w, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>")?;
        writeln!(
            w,
            "<testsuite name=\"picollo\" tests=\"{tests}\" failures=\"{failures}\" \
             errors=\"{errors}\" skipped=\"{skipped}\">"
        )?;
        for e in &findings.entries {
            write_entry(w, e)?;
        }
        for x in &findings.comparisons {
            write_comparison(w, x)?;
        }
        writeln!(w, "</testsuite>")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping_leaves_no_markup_character_bare() {
        let e = escaped("a<b>&\"c\"'d'\n\u{1}");
        assert_eq!(e, "a&lt;b&gt;&amp;&quot;c&quot;&apos;d&apos;&#10;\u{FFFD}");
        assert!(!e.contains(['<', '>', '"', '\'', '\n']));
    }
}
