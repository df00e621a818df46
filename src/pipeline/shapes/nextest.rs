//! What cargo-nextest prints: one status line per test, its verb right-aligned as cargo's
//! are (`        PASS [   0.012s] (1/8) either deref`, `FAIL`, `SIGSEGV`, `TIMEOUT`), the
//! captured output of a failing test under its status line (`  stdout ───`, `  stderr ───`;
//! `--- STDOUT:  either basic ---` before 0.9.100), and the `Summary [   0.176s] 8 tests
//! run: 6 passed, 2 failed, 0 skipped` tally, after which each failing test's status line
//! is printed again.
//!
//! A failing test's status line heads its output, which opens with libtest's own report
//! of the one test nextest ran in that process (`running 1 test`, `test basic ... FAILED`,
//! `failures:`, `test result: FAILED. 0 passed; 1 failed; ...`): the head says all of that,
//! so it is restated. So is a status line after the tally whose test's output was shown.
//! Where the output is printed at the end instead (`--failure-output final`), the status
//! lines after the tally are the heads, and the ones during the run are restated.

use std::collections::HashSet;

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

/// `FAIL [   0.134s] (5/8) either basic` (leading spaces trimmed): the verb, and what
/// follows the bracketed duration (`(5/8) either basic`). A retry's verb is two words
/// more (`TRY 2 FAIL`).
fn status(t: &str) -> Option<(&str, &str)> {
    let (verb, rest) = t.split_once(" [")?;
    let verb = verb.rsplit(' ').next()?;
    if verb.is_empty() || !verb.bytes().all(|b| b.is_ascii_uppercase() || b == b'-') {
        return None;
    }
    let (duration, rest) = rest.split_once("] ")?;
    // `[> 60.000s]`: a slow test's time so far.
    let duration = duration.trim().trim_start_matches('>').trim_start();
    let timed = duration.is_empty()
        || duration
            .strip_suffix('s')
            .is_some_and(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit() || b == b'.'));
    (timed && !rest.is_empty()).then_some((verb, rest))
}

fn role(t: &str) -> Option<Role> {
    let t = t.trim_start();
    if sw(t, "Summary [") && (t.contains(" tests run: ") || t.contains(" test run: ")) {
        return Some(Role::Summary);
    }
    let (verb, _) = status(t)?;
    Some(match verb {
        "PASS" | "SKIP" | "LEAK" | "FLAKY" => Role::Pass,
        "FAIL" | "TIMEOUT" | "LEAK-FAIL" | "ABORT" => Role::Fail,
        _ if verb.starts_with("SIG") => Role::Fail,
        // `SLOW`, `START`, `RETRY`, `TERMINATING`: a test still on its way.
        _ => Role::Progress,
    })
}

fn marks(t: &str, role: Role) -> Marks {
    let t = t.trim_start();
    match role {
        Role::Summary if sw(t, "Summary [") => Marks::TALLY,
        Role::Fail if status(t).is_some() => Marks::TEST_FAILED,
        _ => Marks::NONE,
    }
}

/// `(5/8) either basic`, `either basic`: the test, without the binary it is in.
fn test_name(t: &str) -> Option<&str> {
    let (verb, rest) = status(t.trim_start())?;
    if role(t) != Some(Role::Fail) || verb.is_empty() {
        return None;
    }
    let rest = match rest.strip_prefix('(') {
        Some(counted) => counted.split_once(") ")?.1,
        None => rest,
    };
    let (_binary, name) = rest.trim().split_once(' ')?;
    Some(name.trim())
}

/// `stdout ───`, `stderr ───`, `--- STDOUT:   either basic ---`: where a test's captured
/// output starts.
fn is_output_head(t: &str) -> bool {
    let t = t.trim();
    (sw(t, "stdout ") || sw(t, "stderr ")) && t.ends_with('─')
        || sw(t, "--- STDOUT:")
        || sw(t, "--- STDERR:")
}

/// The lines of libtest's report of one test: `running 1 test`, `test x ... FAILED`,
/// `failures:`, a name under it, `test result: ...`.
fn is_libtest_report(t: &str, test: &str) -> bool {
    let t = t.trim();
    t == "running 1 test"
        || t == "running 0 tests"
        || t == "failures:"
        || t == test
        || sw(t, "test result: ")
        || t.strip_prefix("test ")
            .and_then(|rest| rest.strip_prefix(test))
            .is_some_and(|rest| sw(rest, " ... "))
}

fn restated(doc: &mut Doc) {
    let n = doc.lines.len();
    let failing = |doc: &Doc, i: usize| {
        doc.lines[i].role == Role::Fail && doc.lines[i].marks.has(Marks::TEST_FAILED)
    };
    // A failing status line with output under it heads that output.
    let mut headed: HashSet<String> = HashSet::new();
    for i in 0..n {
        if !failing(doc, i) {
            continue;
        }
        let next = (i + 1..n).find(|&j| doc.lines[j].role != Role::Blank);
        if !next.is_some_and(|j| is_output_head(&doc.clean(j))) {
            continue;
        }
        let t = doc.clean(i);
        let Some(name) = test_name(&t) else {
            continue;
        };
        headed.insert(name.to_owned());
        let name = name.to_owned();
        let marks = &mut doc.lines[i].marks;
        marks.remove(Marks::TEST_FAILED);
        marks.add(Marks::TEST_SECTION);
        // The output's libtest report, down to the next status line.
        for j in i + 1..n {
            let t = doc.clean(j);
            if status(t.trim_start()).is_some() || sw(t.trim_start(), "Summary [") {
                break;
            }
            if is_libtest_report(&t, &name) {
                doc.lines[j].marks.add(Marks::RESTATED);
            }
        }
    }
    for i in 0..n {
        if !failing(doc, i) {
            continue;
        }
        let t = doc.clean(i);
        if test_name(&t).is_some_and(|name| headed.contains(name)) {
            doc.lines[i].marks.add(Marks::RESTATED);
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
    fn status_lines() {
        assert_eq!(
            role("        PASS [   0.012s] (1/8) either deref"),
            Some(Role::Pass)
        );
        assert_eq!(
            role("        FAIL [   0.134s] either basic"),
            Some(Role::Fail)
        );
        assert_eq!(
            role("     SIGSEGV [   0.134s] (2/9) a t::b"),
            Some(Role::Fail)
        );
        assert_eq!(role("  TRY 2 FAIL [   1.000s] a t::b"), Some(Role::Fail));
        assert_eq!(
            role("        SLOW [> 60.000s] a t::b"),
            Some(Role::Progress)
        );
        assert_eq!(role("        SKIP [         ] a t::b"), Some(Role::Pass));
        assert_eq!(role("FAIL src/a.test.js"), None, "jest's file head");
        assert_eq!(
            role("     Summary [   0.176s] 6/8 tests run: 4 passed, 2 failed, 0 skipped"),
            Some(Role::Summary)
        );
        assert_eq!(
            test_name("        FAIL [   0.134s] (5/8) either basic"),
            Some("basic")
        );
        assert_eq!(
            test_name("        FAIL [   0.1s] itoa::test t::max"),
            Some("t::max")
        );
        assert_eq!(test_name("        PASS [   0.1s] itoa::test t::max"), None);
    }

    #[test]
    fn a_failing_test_is_named_by_the_head_of_its_output() {
        let text = "        PASS [   0.01s] (1/3) a t::ok\n        FAIL [   0.10s] (2/3) a t::bad\n  stdout ───\n\n    running 1 test\n    test t::bad ... FAILED\n\n    failures:\n\n    failures:\n        t::bad\n\n    test result: FAILED. 0 passed; 1 failed; 0 ignored\n\n  stderr ───\n\n    thread 't::bad' (7) panicked at src/lib.rs:3:5:\n    boom\n\n────────────\n     Summary [   0.20s] 3 tests run: 1 passed, 1 failed, 1 skipped\n        FAIL [   0.10s] (2/3) a t::bad\n        FAIL [   0.10s] (3/3) a t::gone\n";
        let mut doc = parse(text);
        classify(&mut doc, Family::Diagnostics, Stream::Stderr);
        let marks: Vec<Marks> = doc.lines.iter().map(|l| l.marks).collect();
        assert_eq!(marks[1], Marks::TEST_SECTION);
        for i in [4, 5, 7, 9, 10, 12] {
            assert!(
                marks[i].has(Marks::RESTATED),
                "line {}: libtest's report",
                i + 1
            );
        }
        assert_eq!(marks[16], Marks::NONE, "the panic");
        assert_eq!(
            doc.lines[17].role,
            Role::Error,
            "the panic's message, which says why"
        );
        assert_eq!(marks[20], Marks::TALLY);
        assert_eq!(marks[21], Marks::TEST_FAILED | Marks::RESTATED);
        assert_eq!(marks[22], Marks::TEST_FAILED, "a test with no output above");
    }
}
