//! The page around the figures: one HTML document with its style inline, nothing loaded
//! from anywhere (a Content-Security-Policy that refuses every fetch says so to the
//! browser), readable in light and dark mode and on paper; tables of the numbers behind
//! every figure.

use crate::tell::escape::escaped_with;
use core::fmt::{self, Write};
use std::string::String;
use std::vec::Vec;

/// `text` with `&`, `<`, `>`, `"` and `'` escaped, for element text and attribute values.
pub fn escape(text: &str) -> String {
    escaped_with(text, |c, out| {
        match c {
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => return false,
        }
        true
    })
}

/// The page's style: series `s0`… differ in colour, and the figures also give each its own
/// marker shape and dash, so that colour is never the only signal.
const STYLE: &str = "\
:root{color-scheme:light dark;--fg:#1c1c1c;--bg:#fff;--muted:#5f5f5f;--grid:#d9d9d9;\
--sig:#fff1b8;--s0:#1f5fa8;--s1:#b9470b;--s2:#2e7d32;--s3:#7b1fa2;--s4:#00838f;--s5:#6d4c41}
@media (prefers-color-scheme:dark){:root{--fg:#e8e8e8;--bg:#151515;--muted:#a3a3a3;\
--grid:#3a3a3a;--sig:#4a3c00;--s0:#82b4ff;--s1:#ffa270;--s2:#8bd48f;--s3:#d9a1f0;\
--s4:#6fd6e0;--s5:#c9a99c}}
body{font:15px/1.45 system-ui,-apple-system,'Segoe UI',sans-serif;color:var(--fg);\
background:var(--bg);max-width:62rem;margin:1.5rem auto;padding:0 1rem}
h1{font-size:1.5rem}h2{font-size:1.25rem;margin-top:2rem}h3{font-size:1.05rem}
.verdict{font-size:1.1rem;font-weight:600;border-left:4px solid var(--s0);padding:.3rem .7rem}
.note{color:var(--muted)}
table{border-collapse:collapse;margin:.5rem 0;font-size:.92rem;display:block;overflow-x:auto}th,td{padding:.2rem .55rem;\
border-bottom:1px solid var(--grid);text-align:left;vertical-align:top}\
td.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
tr.sig{background:var(--sig)}
figure{margin:1rem 0}figcaption{color:var(--muted);font-size:.9rem}
svg{max-width:100%;height:auto;display:block}svg text{fill:currentColor;font-size:11px}
.grid{stroke:var(--grid);stroke-width:1}.axis{stroke:currentColor;stroke-width:1}
.band{fill:var(--grid);opacity:.55}
.s0{stroke:var(--s0);fill:var(--s0)}.s1{stroke:var(--s1);fill:var(--s1)}\
.s2{stroke:var(--s2);fill:var(--s2)}.s3{stroke:var(--s3);fill:var(--s3)}\
.s4{stroke:var(--s4);fill:var(--s4)}.s5{stroke:var(--s5);fill:var(--s5)}
.line{fill:none;stroke-width:1.6}.hollow{fill:var(--bg)}
details{margin:.3rem 0 1rem}pre{overflow-x:auto;font-size:.85rem}summary{cursor:pointer;color:var(--muted)}
@media print{body{max-width:none;margin:0}details{display:block}\
details>*{display:block}tr.sig{outline:1px solid #000}}
";

/// One cell of a table: its text, right-aligned when a number, and attributes (`data-*`)
/// that name what the number is.
pub struct Cell {
    text: String,
    numeric: bool,
    data: String,
}

impl Cell {
    /// A text cell.
    pub fn text(text: impl Into<String>) -> Self {
        Cell {
            text: text.into(),
            numeric: false,
            data: String::new(),
        }
    }

    /// A number's cell, its text as shown.
    pub fn number(text: impl Into<String>) -> Self {
        Cell {
            numeric: true,
            ..Cell::text(text)
        }
    }

    /// The cell with attribute `data-{name}="{value}"`.
    pub fn with(mut self, name: &str, value: &str) -> Self {
        let _ = write!(self.data, " data-{name}=\"{}\"", escape(value));
        self
    }
}

/// A table: its heading row and rows, each row marked significant or not.
pub struct Table {
    id: String,
    head: Vec<String>,
    rows: Vec<(bool, Vec<Cell>)>,
}

impl Table {
    /// An empty table with these column headings; `id` names it in the page.
    pub fn new(id: &str, head: &[&str]) -> Self {
        Table {
            id: id.into(),
            head: head.iter().map(|h| String::from(*h)).collect(),
            rows: Vec::new(),
        }
    }

    /// Adds a row; `significant` marks it (a background and a word, never colour alone).
    pub fn row(&mut self, significant: bool, cells: Vec<Cell>) {
        self.rows.push((significant, cells));
    }

    fn write(&self, id: &str, w: &mut dyn Write) -> fmt::Result {
        write!(w, "<table id=\"{}\"><thead><tr>", escape(id))?;
        for h in &self.head {
            write!(w, "<th scope=\"col\">{}</th>", escape(h))?;
        }
        w.write_str("</tr></thead><tbody>")?;
        for (significant, cells) in &self.rows {
            w.write_str(if *significant {
                "<tr class=\"sig\">"
            } else {
                "<tr>"
            })?;
            for c in cells {
                let class = if c.numeric { " class=\"n\"" } else { "" };
                write!(w, "<td{class}{}>{}</td>", c.data, escape(&c.text))?;
            }
            w.write_str("</tr>")?;
        }
        w.write_str("</tbody></table>\n")
    }
}

/// A page being written: its title and body, the level its headings start from, and the
/// ids given so far (each id is made unique).
pub struct Page {
    title: String,
    body: String,
    base: u8,
    ids: Vec<String>,
}

impl Page {
    /// An empty page titled `title` (its `<h1>` too).
    pub fn new(title: &str) -> Self {
        let mut page = Page {
            title: title.into(),
            body: String::new(),
            base: 0,
            ids: Vec::new(),
        };
        page.heading(1, title);
        page
    }

    /// A section titled `title` (a second-level heading) whose `body`'s headings nest one
    /// level below it: one comparison's or result's whole report among several.
    pub fn section(&mut self, title: &str, body: impl FnOnce(&mut Page)) {
        self.heading(2, title);
        self.nest(true);
        body(self);
        self.nest(false);
    }

    /// Headings from now on one level deeper (`true`), or back (`false`): a section that
    /// holds a whole report (one comparison of several) nests its report's headings.
    pub fn nest(&mut self, deeper: bool) {
        self.base = match deeper {
            true => (self.base + 1).min(4),
            false => self.base.saturating_sub(1),
        };
    }

    /// A heading of `level` (1 to 3), made deeper by the nesting.
    pub fn heading(&mut self, level: u8, text: &str) {
        let level = (level + self.base).min(6);
        let _ = writeln!(self.body, "<h{level}>{}</h{level}>", escape(text));
    }

    /// `id`, or `id-2`, `id-3`… when the page already holds it.
    fn unique(&mut self, id: &str) -> String {
        let mut candidate = String::from(id);
        let mut k = 1;
        while self.ids.contains(&candidate) {
            k += 1;
            candidate = std::format!("{id}-{k}");
        }
        self.ids.push(candidate.clone());
        candidate
    }

    /// A paragraph of `class` (`verdict`, `note`, or none).
    pub fn paragraph(&mut self, class: Option<&str>, text: &str) {
        match class {
            Some(c) => self.body.push_str(&std::format!("<p class=\"{c}\">")),
            None => self.body.push_str("<p>"),
        }
        self.body.push_str(&escape(text));
        self.body.push_str("</p>\n");
    }

    /// Text kept as it is written (a Markdown table), in a monospaced block.
    pub fn preformatted(&mut self, text: &str) {
        let _ = writeln!(self.body, "<pre>{}</pre>", escape(text));
    }

    /// A bulleted list of `items`, with `id`.
    pub fn list(&mut self, id: &str, items: &[String]) {
        let id = self.unique(id);
        let _ = write!(self.body, "<ul id=\"{}\">", escape(&id));
        for item in items {
            let _ = write!(self.body, "<li>{}</li>", escape(item));
        }
        self.body.push_str("</ul>\n");
    }

    /// A table.
    pub fn table(&mut self, table: &Table) {
        let id = self.unique(&table.id);
        let _ = table.write(&id, &mut self.body);
    }

    /// A figure: its SVG (from [`super::spectrum`] and the other figure functions), a
    /// caption that says in words what it shows, and the table of its numbers, folded.
    pub fn figure(&mut self, svg: &str, caption: &str, numbers: &Table) {
        let _ = write!(
            self.body,
            "<figure>{svg}<figcaption>{}</figcaption>",
            escape(caption)
        );
        self.body
            .push_str("<details><summary>The numbers</summary>");
        let id = self.unique(&numbers.id);
        let _ = numbers.write(&id, &mut self.body);
        self.body.push_str("</details></figure>\n");
    }

    /// The whole document.
    pub fn write(&self, w: &mut dyn Write) -> fmt::Result {
        w.write_str("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n")?;
        w.write_str(
            "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; \
             style-src 'unsafe-inline'\">\n",
        )?;
        w.write_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")?;
        writeln!(
            w,
            "<meta name=\"generator\" content=\"Picollo {}\">",
            env!("CARGO_PKG_VERSION")
        )?;
        writeln!(w, "<title>{}</title>", escape(&self.title))?;
        write!(w, "<style>\n{STYLE}</style></head>\n<body>\n")?;
        w.write_str(&self.body)?;
        w.write_str("</body></html>\n")
    }
}
