//! `--html` of `picollo report`, `diff` and `bench`: each writes one page whose figures are
//! the logs' own (worked out by hand from how the inputs were made, cli/tests/data/README.md)
//! and whose verdict is the text's; a selection of nothing gets a page that says so.

mod common;

use common::{assert_has, picollo, serial, temp, Run};

/// `picollo SUBCOMMAND --html FILE ARGS…` (`words` = SUBCOMMAND ARGS…), FILE a temporary
/// file named `name`, asserted to exit with `code`: the run and the page it wrote.
fn html(name: &str, words: &[&str], code: i32) -> (Run, String) {
    let path = temp(name);
    let mut all = vec![words[0], "--html", path.to_str().unwrap()];
    all.extend_from_slice(&words[1..]);
    let run = picollo(&all, None);
    assert_eq!(run.code, Some(code), "{}", run.stderr);
    let page = std::fs::read_to_string(&path).expect("the page was written");
    (run, page)
}

/// The text of the cell `<td … data-tag="T" data-rank="R">`.
fn tag_cell<'a>(page: &'a str, tag: &str, rank: &str) -> &'a str {
    let key = format!("data-tag=\"{tag}\" data-rank=\"{rank}\">");
    let from = page
        .find(&key)
        .unwrap_or_else(|| panic!("{key} in the page"))
        + key.len();
    &page[from..from + page[from..].find("</td>").unwrap()]
}

#[test]
fn report_html_draws_every_tag_with_its_own_figures() {
    // No untagged intervals: no table on stdout, a note, and success.
    let (run, page) = html("report.html", &["report", "peer_hdrh.hlog"], 0);
    assert_has(&run.stderr, "the page shows every tag");
    assert!(page.starts_with("<!DOCTYPE html>"));
    // api: 1..=300, one each: P50 is the 150th value, P99 the 297th, max 300.
    assert_eq!(tag_cell(&page, "api", "50"), "150");
    assert_eq!(tag_cell(&page, "api", "99"), "297");
    assert_eq!(tag_cell(&page, "api", "100"), "300");
    // db: 27 × 500 then 5000, 6000, 7000 (7000 reads back as its bucket's 7002).
    assert_eq!(tag_cell(&page, "db", "90"), "500");
    assert_eq!(tag_cell(&page, "db", "100"), "7,002");
    for figure in [
        "api, interval by interval",
        "db, interval by interval",
        "Percentile spectrum per tag",
    ] {
        assert_has(&page, figure);
    }
    assert_eq!(page.matches("<svg").count(), 3);
    assert!(
        !page.contains("http://")
            || page.matches("http://").count()
                == page.matches("xmlns=\"http://www.w3.org/2000/svg\"").count()
    );
}

#[test]
fn report_html_of_one_tag_divides_by_the_unit_ratio() {
    let words = [
        "report",
        "peer_hdrh.hlog",
        "--tag",
        "api",
        "--unit-ratio",
        "100",
    ];
    let (_, page) = html("report_api.html", &words, 0);
    assert_eq!(tag_cell(&page, "api", "50"), "1.500");
    assert!(!page.contains("data-tag=\"db\""));
}

#[test]
fn report_html_of_nothing_says_so_and_fails() {
    let words = ["report", "latency.hlog", "--tag", "nope"];
    let (_, page) = html("empty.html", &words, 5);
    assert_has(
        &page,
        "Nothing to draw: latency.hlog: no intervals tagged nope",
    );
    assert!(page.trim_end().ends_with("</html>"));
    assert!(!page.contains("<svg"));
}

#[test]
fn diff_html_has_both_spectra_and_the_printed_table() {
    let (run, page) = html("diff.html", &["diff", "latency.hlog", "latency_b.hlog"], 0);
    // The table on stdout, word for word in the page (escaped: it holds no markup).
    let first_row = run.stdout.lines().find(|l| l.starts_with("| 50 ")).unwrap();
    assert_has(&page, first_row);
    assert_has(&page, "latency.hlog (circle)");
    assert_has(&page, "latency_b.hlog (square)");
}

#[test]
fn bench_html_holds_the_verdict_the_text_prints() {
    let _serial = serial();
    let words = [
        "bench", "-r", "8", "-w", "0", "-n", "one", "-n", "two", "true", "true",
    ];
    let (run, page) = html("bench.html", &words, 0);
    let verdict = run.last_line("verdict:");
    // A side whose time is flagged ends the line with `[one's time: …]`.
    let escaped = verdict
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('\'', "&#39;");
    assert_has(&page, &format!("<p class=\"verdict\">{escaped}</p>"));
    assert_has(&page, "two against one");
    assert!(
        page.matches("<svg").count() >= 4,
        "spectrum, rounds and shift of time at least"
    );
}

#[test]
fn bench_html_of_one_command_is_its_report() {
    let _serial = serial();
    let (_, page) = html(
        "bench_one.html",
        &["bench", "-r", "3", "-w", "0", "true"],
        0,
    );
    assert_has(&page, "<h2>true</h2>");
    assert_has(
        &page,
        "data-metric=\"time\" data-side=\"true\" data-rank=\"50\"",
    );
}
