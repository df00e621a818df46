//! What `go test` and `go build` print by themselves: `=== RUN` progress, `--- FAIL: X`
//! and `--- PASS: X` results, the per-package `FAIL\tpkg` and `ok  \tpkg` tallies, and a
//! runtime panic's first line.
//!
//! `go vet` and `go build` report `file.go:3:5: message`, which is classify's located
//! shape; goroutine frames in the toolchain are noise, decided there because it takes the
//! frame's two lines.

use std::collections::HashMap;

use super::{Tool, sw};
use crate::block::{Doc, Marks, Role};

pub(crate) const TOOL: Tool = Tool {
    role,
    marks,
    restated,
    test_name: super::TestName::Line(test_name),
    payload: super::bare,
    tally_count: super::no_tally,
    cut_detail: super::no_detail,
};

/// `--- FAIL: TestA/sub (0.00s)`: `TestA/sub`.
fn test_name(t: &str) -> Option<&str> {
    let rest = t.trim_start().strip_prefix("--- FAIL: ")?;
    rest.split(' ').next()
}

fn role(t: &str) -> Option<Role> {
    if sw(t, "--- FAIL: ") {
        return Some(Role::Fail);
    }
    if sw(t, "--- PASS: ") || sw(t, "--- SKIP: ") {
        return Some(Role::Pass);
    }
    if sw(t, "=== RUN ") || sw(t, "=== PAUSE ") || sw(t, "=== CONT ") {
        return Some(Role::Progress);
    }
    if t == "FAIL" || sw(t, "FAIL\t") || sw(t, "ok  \t") || t == "PASS" {
        return Some(Role::Summary);
    }
    if sw(t, "panic: ") || sw(t, "fatal error: ") {
        return Some(Role::Error);
    }
    None
}

fn marks(t: &str, role: Role) -> Marks {
    match role {
        // A subtest is indented under its parent: each names one failing test.
        Role::Fail if sw(t.trim_start(), "--- FAIL: ") => Marks::TEST_FAILED | Marks::TEST_SECTION,
        Role::Summary if sw(t, "FAIL\t") || sw(t, "ok  \t") => Marks::TALLY,
        _ => Marks::NONE,
    }
}

/// Mark the `=== RUN`, `=== PAUSE`, `=== CONT` and `=== NAME` lines of a test whose next
/// result is `--- PASS: X` or `--- SKIP: X`: that line says it ran, so the last of them
/// is not a state worth keeping. A failing test's `=== RUN X` stays; it is what the
/// messages under it are attributed by. Read from the end, so each start line meets the
/// result that follows it; a package's tally (`ok  \tpkg`) ends the names it saw, since
/// two packages may each have a `TestA`.
fn restated(doc: &mut Doc) {
    parents_lines(doc);
    let mut passed: HashMap<String, bool> = HashMap::new();
    for i in (0..doc.lines.len()).rev() {
        let role = doc.lines[i].role;
        let t = doc.clean(i);
        match role {
            Role::Summary if doc.lines[i].marks.has(Marks::TALLY) => passed.clear(),
            Role::Pass => {
                if let Some(name) = passed_name(&t) {
                    passed.insert(name.to_owned(), true);
                }
            }
            Role::Fail => {
                if let Some(name) = test_name(&t) {
                    passed.insert(name.to_owned(), false);
                }
            }
            Role::Progress
                if started_name(&t).is_some_and(|name| passed.get(name) == Some(&true)) =>
            {
                doc.lines[i].marks.add(Marks::RESTATED);
            }
            _ => {}
        }
    }
}

/// Close a subtest's section at its parent's own lines. go prints a test's messages four
/// columns in from its result line, so a parent's message after its subtests
/// (`        toml_test.go:374: passed: 397; failed: 4`, under `    --- FAIL: TestToml/decode`)
/// stands where the subtests' result lines do: a line no deeper than the open section's
/// head is not that subtest's, and a group of subtests must not take it along.
fn parents_lines(doc: &mut Doc) {
    let indent = |t: &str| t.len() - t.trim_start().len();
    let mut open: Option<usize> = None;
    for i in 0..doc.lines.len() {
        let t = doc.clean(i);
        if t.trim().is_empty() {
            continue;
        }
        let trimmed = t.trim_start();
        if doc.lines[i].marks.has(Marks::TEST_SECTION) {
            // Another runner's head (nextest's right-aligned `FAIL [...]`) opens no
            // section of subtests.
            open = sw(trimmed, "--- ").then(|| indent(&t));
        } else if let Some(depth) = open
            && indent(&t) <= depth
        {
            open = None;
            let result = sw(trimmed, "--- ") || sw(trimmed, "=== ");
            if !result && indent(&t) > 0 {
                doc.lines[i].marks.add(Marks::BOUNDARY);
            }
        }
    }
}

/// `--- SKIP: TestA (0.00s)`: a test that did not run.
pub(crate) fn skipped(t: &str) -> bool {
    sw(t.trim_start(), "--- SKIP: ")
}

/// `--- PASS: TestA/sub (0.00s)` or `--- SKIP: ...`: `TestA/sub`.
fn passed_name(t: &str) -> Option<&str> {
    let t = t.trim_start();
    let rest = t
        .strip_prefix("--- PASS: ")
        .or_else(|| t.strip_prefix("--- SKIP: "))?;
    rest.split(' ').next()
}

/// `=== RUN   TestA/sub` (or `PAUSE`, `CONT`, `NAME`): `TestA/sub`.
fn started_name(t: &str) -> Option<&str> {
    let rest = t.trim_start().strip_prefix("=== ")?;
    let (verb, name) = rest.split_once(' ')?;
    matches!(verb, "RUN" | "PAUSE" | "CONT" | "NAME").then(|| name.trim())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_and_tallies() {
        assert_eq!(role("--- FAIL: TestA (0.00s)"), Some(Role::Fail));
        assert_eq!(
            marks("    --- FAIL: TestA/sub (0.00s)", Role::Fail),
            Marks::TEST_FAILED | Marks::TEST_SECTION
        );
        assert_eq!(marks("FAIL\tdemo\t0.01s", Role::Summary), Marks::TALLY);
        assert_eq!(role("=== RUN   TestA"), Some(Role::Progress));
        assert_eq!(role("okay"), None);
    }

    #[test]
    fn a_parents_message_after_its_subtests_closes_the_last_section() {
        use crate::block::Stream;
        use crate::pipeline::classify::{Family, classify};
        use crate::pipeline::parse::parse;
        let text = "--- FAIL: TestT (0.02s)\n    --- FAIL: TestT/decode (0.02s)\n        \
                    --- FAIL: TestT/decode/a (0.00s)\n            t_test.go:352: \n                \
                    Error: differ\n        t_test.go:374: passed: 397; failed: 4\n    \
                    --- FAIL: TestT/encode (0.02s)\n";
        let mut doc = parse(text);
        classify(&mut doc, Family::Diagnostics, Stream::Stdout);
        let boundaries: Vec<bool> = doc
            .lines
            .iter()
            .map(|l| l.marks.has(Marks::BOUNDARY))
            .collect();
        assert_eq!(boundaries, [false, false, false, false, false, true, false]);
    }

    #[test]
    fn a_passing_tests_start_lines_are_restated() {
        use crate::block::Stream;
        use crate::pipeline::classify::{Family, classify};
        use crate::pipeline::parse::parse;
        let text = "=== RUN   TestA\n=== RUN   TestA/ok\n=== RUN   TestA/bad\n    a_test.go:9: bad\n--- FAIL: TestA (0.00s)\n    --- PASS: TestA/ok (0.00s)\n    --- FAIL: TestA/bad (0.00s)\n";
        let mut doc = parse(text);
        classify(&mut doc, Family::Diagnostics, Stream::Stdout);
        let restated: Vec<bool> = doc
            .lines
            .iter()
            .map(|l| l.marks.has(Marks::RESTATED))
            .collect();
        assert_eq!(restated, [false, true, false, false, false, false, false]);
        // The same name in the next package, where it failed, keeps its start line.
        let two = format!(
            "{text}FAIL\ta\t0.01s\n=== RUN   TestA/ok\n    b_test.go:3: bad\n    --- FAIL: TestA/ok (0.00s)\n"
        );
        let mut doc = parse(&two);
        classify(&mut doc, Family::Diagnostics, Stream::Stdout);
        assert!(
            !doc.lines[8].marks.has(Marks::RESTATED),
            "{:?}",
            doc.lines[8]
        );
        assert!(doc.lines[1].marks.has(Marks::RESTATED));
    }
}
