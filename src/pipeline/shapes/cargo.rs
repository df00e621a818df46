//! What cargo and a Rust test binary print: cargo's right-aligned status lines and
//! `cargo test`'s report (`running N tests`, `test x ... ok`, the `---- x stdout ----`
//! sections, the closing `failures:` list and `test result:` tally).
//!
//! rustc's diagnostics (`error[E0308]: x` with its `-->` and gutter) are the generic
//! severity and gutter shapes in `classify`, shared with clippy, ruff and gcc.
//!
//! A failing test is named three times: its status line, its section header (the panic
//! message under it names it once more) and the closing `failures:` list. The section is
//! where the reader looks, so the status lines and the list are marked restated when the
//! run printed sections for the same tests.

use std::collections::HashSet;

use super::{Tool, sw};
use crate::block::{Doc, Marks, Role};

pub(crate) const TOOL: Tool = Tool {
    role,
    marks,
    restated,
    test_name: section_name,
    payload: super::bare,
};

fn role(t: &str) -> Option<Role> {
    if let Some(rest) = t.strip_prefix("test ") {
        if rest.ends_with(" ... ok") || rest.ends_with(" ... ignored") {
            return Some(Role::Pass);
        }
        if rest.contains(" ... FAILED") {
            return Some(Role::Fail);
        }
        if sw(rest, "result: ") {
            return Some(Role::Summary);
        }
    }
    if sw(t, "running ") && t.ends_with(" tests") || sw(t, "running 1 test") {
        return Some(Role::Header);
    }
    if t == "failures:" || sw(t, "---- ") && t.ends_with(" ----") {
        return Some(Role::Header);
    }
    if sw(t, "thread '") && t.contains("panicked") {
        return Some(Role::Error);
    }
    None
}

fn marks(t: &str, role: Role) -> Marks {
    match role {
        Role::Fail if sw(t, "test ") && t.contains(" ... FAILED") => Marks::TEST_FAILED,
        Role::Summary if sw(t, "test result: ") => Marks::TALLY,
        Role::Header if section_name(t).is_some() => Marks::TEST_SECTION,
        _ => Marks::NONE,
    }
}

/// `---- tests::b stdout ----`: the test a section is for.
fn section_name(t: &str) -> Option<&str> {
    t.strip_prefix("---- ")?.strip_suffix(" stdout ----")
}

/// The role of a cargo status line `t` (verb right-aligned to column 12).
pub(crate) fn status_role(t: &str) -> Role {
    match t[..12].trim_start() {
        "Finished" => Role::Summary,
        // `cargo build -v` runs each rustc invocation as `Running `rustc ...``: progress;
        // cargo test's `Running unittests src/lib.rs (...)` heads a test binary's output.
        "Running" if t[12..].trim_start().starts_with('`') => Role::Progress,
        "Running" | "Doc-tests" => Role::Header,
        _ => Role::Progress,
    }
}

/// Mark what the sections already say: a section header the panic under it names again,
/// the status line of a test the closing list names, and the list itself when every test
/// in it had a section.
fn restated(doc: &mut Doc) {
    let mut sections: HashSet<String> = HashSet::new();
    for i in 0..doc.lines.len() {
        if !doc.lines[i].marks.has(Marks::TEST_SECTION) {
            continue;
        }
        let t = doc.clean(i);
        let Some(name) = section_name(&t) else {
            continue;
        };
        let next = (i + 1..doc.lines.len()).find(|&j| doc.lines[j].role != Role::Blank);
        sections.insert(name.to_owned());
        if next.is_some_and(|j| doc.clean(j).contains(&format!("'{name}'"))) {
            doc.lines[i].marks.add(Marks::RESTATED);
        }
    }
    let mut listed_any = false;
    for b in 0..doc.block_count() {
        let block = doc.block(b);
        if doc.clean(block.first as usize) != "failures:" {
            continue;
        }
        let listed: Vec<usize> = block
            .lines()
            .skip(1)
            .filter(|&i| doc.lines[i].role == Role::Fail)
            .collect();
        if listed.is_empty() {
            continue;
        }
        listed_any = true;
        if listed
            .iter()
            .all(|&i| sections.contains(doc.clean(i).trim()))
        {
            for i in block.lines() {
                doc.lines[i].marks.add(Marks::RESTATED);
            }
        }
    }
    if listed_any {
        for line in doc.lines.iter_mut() {
            if line.marks.has(Marks::TEST_FAILED) {
                line.marks.add(Marks::RESTATED);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::block::Stream;
    use crate::pipeline::classify::{Family, classify};
    use crate::pipeline::parse::parse;

    #[test]
    fn status_verbs() {
        assert_eq!(status_role("   Compiling x v1"), Role::Progress);
        assert_eq!(status_role("    Finished `dev` profile"), Role::Summary);
        assert_eq!(
            status_role("     Running unittests src/lib.rs (t)"),
            Role::Header
        );
        assert_eq!(
            status_role("     Running `rustc --crate-name x`"),
            Role::Progress
        );
    }

    #[test]
    fn each_failing_test_is_named_once_and_the_rest_is_restated() {
        let text = "test t::a ... FAILED\ntest t::b ... ok\n\nfailures:\n\n---- t::a stdout ----\n\nthread 't::a' panicked at src/lib.rs:3:5:\nboom\n\nfailures:\n    t::a\n\ntest result: FAILED. 1 passed; 1 failed\n";
        let mut doc = parse(text);
        classify(&mut doc, Family::Diagnostics, Stream::Stdout);
        let marks: Vec<Marks> = doc.lines.iter().map(|l| l.marks).collect();
        assert_eq!(marks[0], Marks::TEST_FAILED | Marks::RESTATED);
        assert_eq!(marks[5], Marks::TEST_SECTION | Marks::RESTATED);
        assert!(marks[10].has(Marks::RESTATED) && marks[11].has(Marks::RESTATED));
        assert_eq!(marks[13], Marks::TALLY);
        assert_eq!(marks[7], Marks::NONE, "the panic line");
    }

    #[test]
    fn without_a_closing_list_the_status_line_is_the_only_name() {
        let mut doc = parse("test t::a ... FAILED\n");
        classify(&mut doc, Family::Diagnostics, Stream::Stdout);
        assert_eq!(doc.lines[0].marks, Marks::TEST_FAILED);
    }
}
