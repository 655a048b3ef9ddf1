//! Text made safe for markup: the one rule for `&`, `<` and `>` that HTML, XML and Markdown
//! share, and what each adds.

use std::string::String;

/// `text` with `&`, `<` and `>` as entities, and each other character that `special`
/// writes into `out` itself (answering `true`) written so.
pub(crate) fn escaped_with(text: &str, special: impl Fn(char, &mut String) -> bool) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            c if special(c, &mut out) => {}
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_markup_characters_are_entities_and_the_rest_is_the_callers() {
        let quoted = |c: char, out: &mut String| {
            c == '"' && {
                out.push_str("&quot;");
                true
            }
        };
        assert_eq!(
            escaped_with("a<b>&\"c\"", quoted),
            "a&lt;b&gt;&amp;&quot;c&quot;"
        );
        assert_eq!(escaped_with("é ✓", |_, _| false), "é ✓");
    }
}
