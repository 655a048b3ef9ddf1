//! A gate's document as a run of the head alone: what a history keeps of a comparison of
//! two builds.

use std::string::String;

use crate::model::Document;

/// What a suite's sides add to a benchmark's name: `NAME (head)`.
const HEAD: &str = " (head)";

/// `document`'s heads: each comparison's B side, under the name of the benchmark it
/// compared (the comparison's `benchmark`, else B's name without ` (head)`), in the order
/// of the comparisons; every other benchmark and every comparison dropped. A document
/// without comparisons is returned as it is.
pub fn heads(document: &Document) -> Document {
    if document.comparisons.is_empty() {
        return document.clone();
    }
    let mut kept = Document {
        commands: std::vec::Vec::new(),
        comparisons: std::vec::Vec::new(),
        ..document.clone()
    };
    for c in &document.comparisons {
        let Some(b) = document.commands.iter().find(|e| e.name == c.b) else {
            continue;
        };
        let name: String = match &c.benchmark {
            Some(name) => name.clone(),
            None => c.b.strip_suffix(HEAD).unwrap_or(&c.b).into(),
        };
        if kept.commands.iter().all(|e| e.name != name) {
            let mut head = b.clone();
            head.name = name;
            kept.commands.push(head);
        }
    }
    kept
}
