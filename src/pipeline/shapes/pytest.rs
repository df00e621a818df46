//! What pytest prints by itself: the per-file progress line (`tests/a.py .F [ 50%]`) and
//! `-v`'s one line per test, the short summary's `FAILED id - msg`, the session header,
//! the `____ test_b ____` section of a failure and the `=== 1 failed in 0.1s ===` tally.
//!
//! The FAILURES section's contents (source, `E` lines, the failing location) are read by
//! classify, which tracks the section as it goes.

use std::collections::HashSet;

use super::{Tool, starts_with_any, sw};
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

/// `____ test_b[param] ____`: `test_b[param]`.
fn test_name(t: &str) -> Option<&str> {
    if !is_title(t) {
        return None;
    }
    let name = t.trim_matches(|c: char| c == '_' || c == ' ');
    (!name.is_empty()).then_some(name)
}

/// A failure's title line: its name centred in underscores, `____ test_b ____`, or, when
/// the name is long (a subtest with its parameters), one underscore a side:
/// `_ Tests.test_r (iterable=['1', 2], r=0) _`. Not the `_ _ _ _` rule pytest draws
/// between a test's frames.
pub(crate) fn is_title(t: &str) -> bool {
    let t = t.trim_end();
    let framed =
        t.starts_with("___") && t.ends_with("___") || t.starts_with("_ ") && t.ends_with(" _");
    framed && t.contains(|c: char| c != '_' && c != ' ')
}

fn role(t: &str) -> Option<Role> {
    // `SUBFAILED(r=2) tests/a.py::T::test_r`: a subtest's line in the short summary.
    if sw(t, "FAILED ") || sw(t, "SUBFAILED(") {
        return Some(Role::Fail);
    }
    if sw(t, "ERROR ") || sw(t, "ImportError while importing") {
        return Some(Role::Error);
    }
    if t.ends_with("%]") && t.contains(" [") {
        return Some(if t.contains(" FAILED") || t.contains(" ERROR") {
            Role::Fail
        } else if t.contains(" PASSED") || t.contains(" SKIPPED") || t.contains(" XFAIL") {
            // pytest -v: one line per test.
            Role::Pass
        } else {
            Role::Progress
        });
    }
    // The session header: where it ran, not what happened.
    if starts_with_any(
        t,
        &[
            "platform ",
            "rootdir: ",
            "configfile: ",
            "testpaths: ",
            "plugins: ",
            "cachedir: ",
        ],
    ) && (t.contains(" -- Python ") || !t.starts_with("platform "))
        || t == "Hint: make sure your test modules/packages have valid Python names."
        || t == "Traceback:"
    {
        return Some(Role::Noise);
    }
    None
}

/// pytest -v's `tests/a.py::test_b SKIPPED (needs x) [ 40%]`: a test that did not run.
pub(crate) fn skipped(t: &str) -> bool {
    t.ends_with("%]") && t.contains(" SKIPPED")
}

/// pytest -v's `tests/a.py::test_b XFAIL [ 5%]`: a test expected to fail, which did; its
/// tally counts it as `xfailed`, not passed.
pub(crate) fn xfailed(t: &str) -> bool {
    t.ends_with("%]") && t.contains(" XFAIL")
}

/// The closing tally: `=== 1 failed, 2 passed in 0.12s ===` (the frame is checked by
/// classify, which reads `===` rule lines).
pub(crate) fn is_tally(t: &str) -> bool {
    t.contains(" in ")
        && [
            " passed",
            " failed",
            " error",
            " skipped",
            "no tests ran",
            " deselected",
        ]
        .iter()
        .any(|w| t.contains(w))
}

fn marks(t: &str, role: Role) -> Marks {
    match role {
        Role::Fail if sw(t, "FAILED ") || sw(t, "SUBFAILED(") => Marks::TEST_FAILED,
        Role::Fail if is_title(t) => Marks::TEST_SECTION,
        Role::Summary if sw(t, "===") && is_tally(t) => Marks::TALLY | Marks::BOUNDARY,
        Role::Noise | Role::Header if sw(t, "===") => Marks::BOUNDARY,
        _ => Marks::NONE,
    }
}

/// pytest -v's `tests/a.py::test_b FAILED [ 40%]` says again what the short summary's
/// `FAILED tests/a.py::test_b - msg` says, with the message. And a test's id alone on a
/// line (`tests/a.py::test_b `, when something the test wrote broke its result line) is
/// its start, which the line with its result names again.
fn restated(doc: &mut Doc) {
    started(doc);
    let summarised: HashSet<String> = (0..doc.lines.len())
        .filter(|&i| doc.lines[i].marks.has(Marks::TEST_FAILED))
        .filter_map(|i| {
            let t = doc.clean(i);
            let rest = t.strip_prefix("FAILED ")?;
            let id = rest.split(" - ").next().unwrap_or(rest).trim();
            Some(id.to_owned())
        })
        .collect();
    if summarised.is_empty() {
        return;
    }
    for i in 0..doc.lines.len() {
        if doc.lines[i].role != Role::Fail {
            continue;
        }
        let t = doc.clean(i);
        let restates = t.ends_with("%]")
            && t.split(' ')
                .next()
                .is_some_and(|id| summarised.contains(id));
        if restates {
            doc.lines[i].marks.add(Marks::RESTATED);
        }
    }
}

/// How far below a test's id alone its result line may come: what the test wrote between.
const RESULT_WITHIN: usize = 50;

/// Mark `tests/a.py::test_b ` as the start of the test whose result a line below gives
/// (`tests/a.py::test_b PASSED [ 21%]`): a state, said again by the result.
fn started(doc: &mut Doc) {
    let n = doc.lines.len();
    for i in 0..n {
        if doc.lines[i].role != Role::Plain {
            continue;
        }
        let t = doc.clean(i);
        let id = t.trim_end();
        if !is_test_id(id) || id.len() == t.len() {
            continue;
        }
        let result = format!("{id} ");
        let ends = (i + 1..n.min(i + RESULT_WITHIN)).any(|j| {
            matches!(doc.lines[j].role, Role::Pass | Role::Fail)
                && doc.clean(j).starts_with(&result)
        });
        if ends {
            doc.lines[i].role = Role::Progress;
            doc.lines[i].marks.add(Marks::RESTATED);
        }
    }
}

/// `tests/a.py::T::test_b[x-1]`: a test's node id, a path to a Python file and names.
fn is_test_id(t: &str) -> bool {
    t.split_once("::").is_some_and(|(path, name)| {
        path.ends_with(".py") && !name.is_empty() && !t.contains(char::is_whitespace)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::block::Stream;
    use crate::pipeline::classify::{Family, classify};
    use crate::pipeline::parse::parse;

    #[test]
    fn verbose_status_is_restated_by_the_short_summary() {
        let text = "tests/a.py::test_a PASSED   [ 50%]\ntests/a.py::test_b FAILED   [100%]\nFAILED tests/a.py::test_b - assert 1 == 2\n";
        let mut doc = parse(text);
        classify(&mut doc, Family::Diagnostics, Stream::Stdout);
        let marks: Vec<Marks> = doc.lines.iter().map(|l| l.marks).collect();
        assert_eq!(marks, [Marks::NONE, Marks::RESTATED, Marks::TEST_FAILED]);
    }

    #[test]
    fn a_test_id_alone_is_its_start_when_its_result_follows() {
        let text = "tests/a.py::T::test_a \nException in thread Thread-1:\n\
                    tests/a.py::T::test_a PASSED [ 21%]\ntests/a.py::T::test_c \n";
        let mut doc = parse(text);
        classify(&mut doc, Family::Diagnostics, Stream::Stdout);
        let line = |i: usize| (doc.lines[i].role, doc.lines[i].marks);
        assert_eq!(line(0), (Role::Progress, Marks::RESTATED));
        assert_eq!(line(2).0, Role::Pass);
        // No result below it: what the run was doing when it stopped.
        assert_eq!(line(3), (Role::Plain, Marks::NONE));
    }

    #[test]
    fn sections_and_tallies() {
        assert_eq!(marks("____ test_b ____", Role::Fail), Marks::TEST_SECTION);
        assert_eq!(
            marks("==== 1 failed, 2 passed in 0.12s ====", Role::Summary),
            Marks::TALLY | Marks::BOUNDARY
        );
        assert_eq!(test_name("____ test_b[x-1] ____"), Some("test_b[x-1]"));
        let long = "_ DistinctPermutationsTests.test_unsortable_r (iterable=['1', 2], r=0) _";
        assert_eq!(marks(long, Role::Fail), Marks::TEST_SECTION);
        assert_eq!(
            test_name(long),
            Some("DistinctPermutationsTests.test_unsortable_r (iterable=['1', 2], r=0)")
        );
        assert!(!is_title(
            "_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ "
        ));
        let sub =
            "SUBFAILED(iterable=[], r=4) tests/test_more.py::DistinctPermutationsTests::test_r";
        assert_eq!(role(sub), Some(Role::Fail));
        assert_eq!(marks(sub, Role::Fail), Marks::TEST_FAILED);
        assert_eq!(role("tests/a.py .F      [ 50%]"), Some(Role::Progress));
    }
}
