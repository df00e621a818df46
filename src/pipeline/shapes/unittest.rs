//! What Python's unittest prints with `-v` (and the runners built on it: `discover`,
//! Django's, `setup.py test`): one line per test, `test_x (pkg.mod.Class.test_x) ... ok`,
//! the failure sections after the run (`=====`, `FAIL: test_x (...)`, `-----`, the
//! traceback) and the closing tally, `Ran 929 tests in 1.2s` and `FAILED (failures=5,
//! errors=8)` or `OK (skipped=3)`. All of it on stderr.
//!
//! A test with a docstring is printed on two lines: its name, then the docstring's first
//! line with the result, `Sanity-checks for ``ilen()``. ... FAIL`. The second line has no
//! shape of its own (a docstring says anything), so the pair is read in [`restated`],
//! where the line before it is in view: a name line followed by a result is one test,
//! passing or failing as the result says. Reading any line that ends in ` ... ok` as a
//! passing test, without its name above it, would take a build script's `checking x ...
//! ok` for one.
//!
//! A section's head is its `FAIL:` / `ERROR:` line, which is also the one line per failure
//! the tally counts (a subtest's failure gets its own section, as it gets its own count).
//! The `=====` rule above each head closes the section before it, and the `-----` rule
//! above `Ran N tests` closes the last one, so the doctest's inner `-----` rules and
//! `File "...", line N` locations stay inside the section they belong to.

use super::{Tool, sw};
use crate::block::{Doc, Marks, Role};

pub(crate) const TOOL: Tool = Tool {
    role,
    marks,
    restated,
    test_name: super::TestName::Line(test_name),
    payload: super::bare,
    tally_count,
    cut_detail: super::no_detail,
};

/// What a test's result line ends with, and whether it passed.
const OUTCOMES: &[(&str, bool)] = &[
    (" ... ok", true),
    (" ... FAIL", false),
    (" ... ERROR", false),
    (" ... expected failure", true),
    (" ... unexpected success", false),
];

/// `FAIL: test_x (pkg.mod.Class.test_x) (n=1)`: `test_x (pkg.mod.Class.test_x) (n=1)`,
/// the test and, for a subtest, its parameters, as the section names it.
fn test_name(t: &str) -> Option<&str> {
    let rest = t
        .strip_prefix("FAIL: ")
        .or_else(|| t.strip_prefix("ERROR: "))?;
    is_test_id(rest).then_some(rest)
}

/// `test_x (pkg.mod.Class.test_x)`, `test_x (pkg.mod.Class)` (before Python 3.11),
/// `reshape (more_itertools.recipes)` (a doctest), each maybe followed by a subtest's
/// ` (n=1)`.
fn is_test_id(t: &str) -> bool {
    let Some((name, rest)) = t.split_once(" (") else {
        return false;
    };
    let Some((module, params)) = rest.split_once(')') else {
        return false;
    };
    let word = |w: &str| {
        !w.is_empty()
            && !w.starts_with(|c: char| c.is_ascii_digit())
            && w.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
    };
    word(name)
        && module.split('.').all(word)
        && (params.is_empty() || params.starts_with(" (") && params.ends_with(')'))
}

/// The test a result line is for, and whether it passed: `test_x (a.B.test_x) ... ok`.
fn named_result(t: &str) -> Option<bool> {
    let (id, passed) = outcome(t)?;
    is_test_id(id).then_some(passed)
}

/// What comes before a result, and whether it passed: `Docstring ... ok`. A skip
/// (`... skipped 'needs the C speedups'`) passed: the run counts it apart, and it is not
/// what the reader looks for.
fn outcome(t: &str) -> Option<(&str, bool)> {
    if let Some(at) = t.rfind(" ... skipped ") {
        return Some((&t[..at], true));
    }
    OUTCOMES
        .iter()
        .find_map(|&(end, passed)| t.strip_suffix(end).map(|before| (before, passed)))
}

/// `test_x (a.B.test_x) ... skipped 'needs the C speedups'`: a test that did not run.
pub(crate) fn skipped(t: &str) -> bool {
    t.contains(" ... skipped ")
}

/// `File "/p/recipes.py", line 1015, in more_itertools.recipes.reshape` at the start of a
/// line: where a doctest's failed example is (a traceback's frames are indented).
fn is_example_place(t: &str) -> bool {
    t.strip_prefix("File \"")
        .and_then(|rest| rest.split_once("\", line "))
        .and_then(|(_, rest)| rest.split_once(", in "))
        .is_some_and(|(n, _)| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// A rule of `c` as unittest draws it: seventy of them, nothing else.
fn is_rule(t: &str, c: u8) -> bool {
    let t = t.trim_end();
    t.len() >= 20 && t.bytes().all(|b| b == c)
}

fn role(t: &str) -> Option<Role> {
    if let Some(passed) = named_result(t) {
        return Some(if passed { Role::Pass } else { Role::Fail });
    }
    if test_name(t).is_some() {
        return Some(Role::Fail);
    }
    // A test's name before it runs: a state, which its result (on this line, a docstring
    // line or a subtest's lines) supersedes.
    if is_test_id(t) || t.strip_suffix(" ... ").is_some_and(is_test_id) {
        return Some(Role::Progress);
    }
    if is_rule(t, b'=') {
        return Some(Role::Header);
    }
    if is_tally(t) {
        return Some(Role::Summary);
    }
    None
}

/// `Ran 929 tests in 1.2s`, `OK`, `OK (skipped=3)`, `FAILED (failures=5, errors=8)`.
fn is_tally(t: &str) -> bool {
    let ran = t
        .strip_prefix("Ran ")
        .and_then(|rest| rest.split_once(" test"))
        .is_some_and(|(n, _)| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
        && t.contains(" in ");
    ran || t == "OK" || is_verdict(t)
}

/// `OK (skipped=3)`, `FAILED (failures=5, errors=8)`: the line with the run's counts.
fn is_verdict(t: &str) -> bool {
    let counts = t
        .strip_prefix("OK (")
        .or_else(|| t.strip_prefix("FAILED ("))
        .and_then(|rest| rest.strip_suffix(')'));
    counts.is_some_and(|counts| {
        counts.split(", ").all(|pair| {
            pair.split_once('=')
                .is_some_and(|(key, n)| word_key(key) && n.bytes().all(|b| b.is_ascii_digit()))
        })
    })
}

fn word_key(key: &str) -> bool {
    !key.is_empty() && key.bytes().all(|b| b.is_ascii_lowercase() || b == b'_')
}

/// The count unittest's verdict gives `word` (`error` or `failed`, as level 0 names
/// them): `FAILED (failures=5, errors=8)` has 8 errors and 5 failed, and `OK
/// (skipped=3)` none of either; `None` for any other line or word.
fn tally_count(t: &str, word: &str) -> Option<usize> {
    if !(t == "OK" || is_verdict(t)) {
        return None;
    }
    let key = match word {
        "error" => "errors",
        "failed" => "failures",
        _ => return None,
    };
    let counts = t[t.find('(').unwrap_or(t.len())..].trim_matches(['(', ')']);
    let n = counts
        .split(", ")
        .filter_map(|pair| pair.split_once('='))
        .find(|&(k, _)| k == key)
        .and_then(|(_, n)| n.parse().ok());
    Some(n.unwrap_or(0))
}

fn marks(t: &str, role: Role) -> Marks {
    match role {
        Role::Fail if test_name(t).is_some() => Marks::TEST_SECTION | Marks::TEST_FAILED,
        Role::Summary if is_tally(t) => Marks::TALLY,
        Role::Header if is_rule(t, b'=') => Marks::BOUNDARY,
        _ => Marks::NONE,
    }
}

/// Read a docstring's result with the name line above it, and close the last failure
/// section at the rule above `Ran N tests`.
///
/// A passing pair's name line is marked restated (its result says it ran), and its
/// result line becomes the passing test, counted once; a failing pair's two lines are
/// both the failing test, kept together. A doctest's failed examples are sections of
/// their own (see [`is_example_place`]), with no test name: the doctest's `FAIL:` line
/// names it. A section's traceback opens with `Traceback
/// (most recent call last):` in every section alike: the failure is what it ends with, so
/// that line is a note here, and the exception line below it is the section's message.
fn restated(doc: &mut Doc) {
    let n = doc.lines.len();
    for i in 0..n.saturating_sub(1) {
        if doc.lines[i].role != Role::Progress || !is_test_id(&doc.clean(i)) {
            continue;
        }
        let next = doc.clean(i + 1);
        if named_result(&next).is_some() {
            continue;
        }
        let Some((_, passed)) = outcome(&next) else {
            continue;
        };
        if passed {
            doc.lines[i].marks.add(Marks::RESTATED);
            doc.lines[i + 1].role = Role::Pass;
        } else {
            doc.lines[i].role = Role::Fail;
            doc.lines[i + 1].role = Role::Fail;
        }
    }
    let mut in_section = false;
    for i in 0..n {
        let marks = doc.lines[i].marks;
        if marks.has(Marks::TEST_SECTION) {
            in_section = test_name(&doc.clean(i)).is_some();
            continue;
        }
        if !in_section {
            continue;
        }
        if marks.has(Marks::TALLY) {
            in_section = false;
            let rule = (0..i)
                .rev()
                .find(|&j| doc.lines[j].role != Role::Blank)
                .filter(|&j| is_rule(&doc.clean(j), b'-'));
            if let Some(rule) = rule {
                doc.lines[rule].marks.add(Marks::BOUNDARY);
            }
        } else if doc.lines[i].role == Role::Error
            && sw(&doc.clean(i), "Traceback (most recent call last)")
        {
            doc.lines[i].role = Role::Note;
        } else if is_example_place(&doc.clean(i)) {
            // Each failed example of a doctest is a report of its own, and the places
            // of three examples differ only in their line numbers: as sections, none
            // folds into another.
            doc.lines[i].role = Role::Location;
            doc.lines[i].marks.add(Marks::TEST_SECTION);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::block::Stream;
    use crate::pipeline::classify::{Family, classify};
    use crate::pipeline::parse::parse;

    fn classified(text: &str) -> Vec<(Role, Marks)> {
        let mut doc = parse(text);
        classify(&mut doc, Family::Diagnostics, Stream::Stderr);
        doc.lines.iter().map(|l| (l.role, l.marks)).collect()
    }

    #[test]
    fn result_lines_and_their_names() {
        assert_eq!(
            role("test_a (tests.test_x.T.test_a) ... ok"),
            Some(Role::Pass)
        );
        assert_eq!(
            role("test_a (tests.test_x.T) ... skipped 'needs speedups'"),
            Some(Role::Pass)
        );
        assert_eq!(
            role("test_a (tests.test_x.T.test_a) (n=1) ... ERROR"),
            Some(Role::Fail)
        );
        assert_eq!(
            role("test_a (tests.test_x.T.test_a) ... "),
            Some(Role::Progress)
        );
        assert_eq!(role("checking compiler ... ok"), None);
        assert_eq!(role("main (see below) ... ok"), None);
    }

    #[test]
    fn sections_and_tallies() {
        let head = "FAIL: test_a (tests.test_x.T.test_a) (expected=[(0,)])";
        assert_eq!(role(head), Some(Role::Fail));
        assert_eq!(
            marks(head, Role::Fail),
            Marks::TEST_SECTION | Marks::TEST_FAILED
        );
        assert_eq!(
            test_name(head),
            Some("test_a (tests.test_x.T.test_a) (expected=[(0,)])")
        );
        // pip's and others' `ERROR: ` lines are not a test's section.
        assert_eq!(test_name("ERROR: Could not find a version (from x)"), None);
        assert_eq!(role(&"=".repeat(70)), Some(Role::Header));
        for tally in [
            "Ran 929 tests in 1.2s",
            "OK",
            "OK (skipped=3)",
            "FAILED (failures=5, errors=8)",
        ] {
            assert_eq!(role(tally), Some(Role::Summary), "{tally}");
            assert_eq!(marks(tally, Role::Summary), Marks::TALLY, "{tally}");
        }
        assert_eq!(role("FAILED (see log)"), None);
    }

    #[test]
    fn the_verdict_gives_level_0_its_counts() {
        let verdict = "FAILED (failures=5, errors=8, skipped=2)";
        assert_eq!(tally_count(verdict, "error"), Some(8));
        assert_eq!(tally_count(verdict, "failed"), Some(5));
        assert_eq!(tally_count(verdict, "warning"), None);
        assert_eq!(tally_count("FAILED (errors=1)", "failed"), Some(0));
        assert_eq!(tally_count("OK (skipped=3)", "error"), Some(0));
        assert_eq!(tally_count("Ran 3 tests in 0.1s", "error"), None);
    }

    #[test]
    fn a_docstring_line_is_read_with_the_name_above_it() {
        let text = "test_a (t.T.test_a)\nSays what it checks ... ok\ntest_b (t.T.test_b)\nSanity-checks for ``ilen()``. ... FAIL\ntest_c (t.T.test_c) ... ok\n";
        let got: Vec<Role> = classified(text).iter().map(|&(r, _)| r).collect();
        assert_eq!(
            got,
            [
                Role::Progress,
                Role::Pass,
                Role::Fail,
                Role::Fail,
                Role::Pass
            ]
        );
        assert!(classified(text)[0].1.has(Marks::RESTATED));
        assert!(!classified(text)[2].1.has(Marks::RESTATED));
    }

    #[test]
    fn each_failed_example_of_a_doctest_is_a_section() {
        let rule = "-".repeat(70);
        let example = |n: u32| {
            format!(
                "{rule}\nFile \"/p/m.py\", line {n}, in m.f\nFailed example:\n    f({n})\nException raised:\n    Traceback (most recent call last):\n      File \"/p/m.py\", line 9, in f\n    NameError: name 'g' is not defined\n"
            )
        };
        let text = format!(
            "FAIL: f (m)\nDoctest: m.f\n{rule}\nTraceback (most recent call last):\n  File \"/usr/lib/python3.11/doctest.py\", line 2241, in runTest\nAssertionError: Failed doctest test for m.f\n\n{}{}{}\n{rule}\nRan 1 test in 0.1s\n\nFAILED (failures=1)\n",
            example(3),
            example(5),
            example(7)
        );
        let mut doc = parse(&text);
        classify(&mut doc, Family::Diagnostics, Stream::Stderr);
        let heads: Vec<usize> = (0..doc.lines.len())
            .filter(|&i| doc.lines[i].marks.has(Marks::TEST_SECTION))
            .collect();
        assert_eq!(heads, [0, 8, 16, 24]);
        assert_eq!(doc.lines[8].role, Role::Location);
        // The frame inside an example's traceback is indented: not a place of its own.
        assert!(!doc.lines[13].marks.has(Marks::TEST_SECTION));
        crate::pipeline::dedupe::dedupe(&mut doc);
        let folded: Vec<usize> = (0..doc.lines.len())
            .filter(|&i| doc.lines[i].fate != crate::block::Fate::Keep)
            .collect();
        assert_eq!(folded, Vec::<usize>::new(), "{text}");
    }

    #[test]
    fn the_last_section_ends_at_the_rule_above_the_tally() {
        let rule = "-".repeat(70);
        let text = format!(
            "{eq}\nERROR: test_a (t.T.test_a)\n{rule}\nTraceback (most recent call last):\n  File \"t.py\", line 3, in test_a\n    f()\nNameError: name 'f' is not defined\n\n{rule}\nRan 1 test in 0.001s\n\nFAILED (errors=1)\n",
            eq = "=".repeat(70)
        );
        let got = classified(&text);
        assert_eq!(got[0], (Role::Header, Marks::BOUNDARY));
        assert_eq!(got[1].1, Marks::TEST_SECTION | Marks::TEST_FAILED);
        assert!(!got[2].1.has(Marks::BOUNDARY));
        assert_eq!(got[3].0, Role::Note);
        assert_eq!(got[6].0, Role::Error);
        assert!(got[8].1.has(Marks::BOUNDARY));
        assert_eq!(got[9], (Role::Summary, Marks::TALLY));
        assert_eq!(got[11], (Role::Summary, Marks::TALLY));
    }
}
