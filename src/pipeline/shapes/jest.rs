//! What jest, vitest and mocha print by themselves: a file's `PASS`/`FAIL` head, the
//! `✓`/`✕` marks of each test, the `● suite › test` section of a failure, and the
//! `Tests:`/`Test Suites:` (jest) and `Test Files`/`Tests` (vitest) tallies. After a run
//! of several files, jest prints every failing file's results again under `Summary of all
//! failing tests`: that block is [`Marks::RESTATED`] when each file it names failed above,
//! and its first line a [`Marks::BOUNDARY`], so the last section above ends there.

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

/// `● suite › test`, vitest's `FAIL  file > suite > test`: the test's full name.
fn test_name(t: &str) -> Option<&str> {
    let trimmed = t.trim_start();
    if let Some(name) = trimmed.strip_prefix("● ") {
        return Some(name.trim());
    }
    let rest = trimmed.strip_prefix("FAIL ")?.trim_start();
    rest.contains(" > ").then_some(rest.trim_end())
}

fn role(t: &str) -> Option<Role> {
    if let Some(rest) = t.strip_prefix("FAIL ") {
        return Some(if rest.trim_start().is_empty() {
            Role::Summary
        } else {
            Role::Fail
        });
    }
    if sw(t, "PASS ") {
        return Some(Role::Pass);
    }
    if sw(t, "Tests:") || sw(t, "Test Suites:") || sw(t, "Snapshots:") {
        return Some(Role::Summary);
    }
    mark_role(t)
}

/// Marks of jest, vitest and mocha: `✓ name`, `✕ name`, `× name`, `● Suite › name`.
pub(crate) fn mark_role(trimmed: &str) -> Option<Role> {
    let c = trimmed.chars().next()?;
    match c {
        '✓' | '√' | '✔' => Some(Role::Pass),
        '✕' | '×' | '✗' | '✖' if !trimmed.contains(" problem") => Some(Role::Fail),
        // `● suite › test`, and a test outside any describe block (`● parses a line`);
        // jest's `● Console` heads captured console output, not a failure.
        '●' if !sw(trimmed, "● Console") && trimmed.chars().nth(1) == Some(' ') => {
            Some(Role::Fail)
        }
        '❯' if trimmed.contains(" failed") => Some(Role::Fail),
        _ => None,
    }
}

/// How many passing tests a passing line stands for: vitest prints a file whose tests all
/// passed as one line, `✓ test/utils.spec.ts (44 tests) 35ms`; any other line is one.
pub(crate) fn tests_passed(t: &str) -> usize {
    let trimmed = t.trim_start();
    if mark_role(trimmed) != Some(Role::Pass) {
        return 1;
    }
    // The count ends the line, or only the file's duration comes after it.
    let duration = |t: &str| {
        let t = t.trim();
        let digits = t.trim_end_matches(|c: char| c.is_ascii_alphabetic());
        t.is_empty()
            || !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit() || b == b'.')
    };
    let count = trimmed.rsplit_once(" (").and_then(|(_, rest)| {
        let (n, after) = rest.split_once(' ')?;
        let after = after
            .strip_prefix("tests)")
            .or_else(|| after.strip_prefix("test)"))?;
        duration(after).then(|| n.parse().ok())?
    });
    count.unwrap_or(1)
}

/// vitest's indented tallies: `Test Files  1 failed (1)`, `Tests  2 failed | 3 passed (5)`.
pub(crate) fn indented_tally(trimmed: &str) -> bool {
    sw(trimmed, "Test Files ") || sw(trimmed, "Tests ") || sw(trimmed, "Duration ")
}

fn marks(t: &str, role: Role) -> Marks {
    let trimmed = t.trim_start();
    match role {
        Role::Fail if sw(trimmed, "✕") || sw(trimmed, "×") => Marks::TEST_FAILED,
        // jest's `● suite › test`; vitest's `FAIL  file > suite > test` (jest's own `FAIL
        // file` heads a file's results, not one test's).
        Role::Fail if sw(trimmed, "●") || sw(trimmed, "FAIL ") && trimmed.contains(" > ") => {
            Marks::TEST_SECTION
        }
        Role::Summary if sw(t, "Tests:") || sw(trimmed, "Tests ") => Marks::TALLY,
        _ => Marks::NONE,
    }
}

fn restated(doc: &mut Doc) {
    summary(doc);
    passed_suites(doc);
}

/// Mark the title of a suite every test under it passed (mocha's and jest's verbose
/// `describe` lines, each over its indented `✔ test` lines): the passing tests go, and
/// their title alone between two markers says nothing they do not. So does a failing test
/// whose section below names it again (mocha's `1) name`, marked restated by its module).
/// A suite holding any other failing test (`✕ name`) or line keeps its title.
fn passed_suites(doc: &mut Doc) {
    let n = doc.lines.len();
    let marked = |i: usize| {
        let t = doc.clean(i);
        doc.lines[i].role == Role::Pass && mark_role(t.trim_start()) == Some(Role::Pass)
    };
    if !(0..n).any(marked) {
        return;
    }
    let indent = |t: &str| t.len() - t.trim_start().len();
    let mut titles = Vec::new();
    for i in 0..n {
        let t = doc.clean(i);
        if doc.lines[i].role != Role::Plain || t.trim().is_empty() {
            continue;
        }
        let depth = indent(&t);
        let (mut passed, mut only_passes) = (0usize, true);
        for j in i + 1..n {
            let u = doc.clean(j);
            if u.trim().is_empty() {
                continue;
            }
            if indent(&u) <= depth {
                break;
            }
            match doc.lines[j].role {
                Role::Pass => passed += 1,
                // mocha's `3) name` when its section below names the test again.
                Role::Fail if doc.lines[j].marks.has(Marks::RESTATED) => passed += 1,
                Role::Plain => {}
                _ => {
                    only_passes = false;
                    break;
                }
            }
        }
        if only_passes && passed > 0 {
            titles.push(i);
        }
    }
    for i in titles {
        doc.lines[i].marks.add(Marks::RESTATED);
    }
}

/// Mark jest's `Summary of all failing tests` block as said again: from its title to the
/// closing tally, when every `FAIL file` in it was printed above it.
fn summary(doc: &mut Doc) {
    let Some(title) =
        (0..doc.lines.len()).find(|&i| doc.clean(i).trim() == "Summary of all failing tests")
    else {
        return;
    };
    let end = (title..doc.lines.len())
        .find(|&i| doc.lines[i].marks.has(Marks::TALLY) || sw(&doc.clean(i), "Test Suites:"))
        .unwrap_or(doc.lines.len());
    let failed = |range: std::ops::Range<usize>| -> Vec<String> {
        range
            .filter(|&i| doc.lines[i].role == Role::Fail && sw(&doc.clean(i), "FAIL "))
            .map(|i| doc.clean(i).into_owned())
            .collect()
    };
    let above = failed(0..title);
    let again = failed(title..end);
    if again.is_empty() || !again.iter().all(|head| above.contains(head)) {
        return;
    }
    doc.lines[title].marks.add(Marks::BOUNDARY);
    for line in &mut doc.lines[title..end] {
        line.marks.add(Marks::RESTATED);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_passing_file_stands_for_its_tests() {
        assert_eq!(tests_passed(" ✓ test/utils.spec.ts (44 tests) 35ms"), 44);
        assert_eq!(tests_passed(" ✓ tests/one.test.js (1 test) 2ms"), 1);
        assert_eq!(tests_passed("   ✓ parses (a) and (b) 3ms"), 1);
        assert_eq!(tests_passed("   ✓ splits (3 tests) in two 3ms"), 1);
        assert_eq!(tests_passed("--- PASS: TestA (0.00s)"), 1);
    }

    #[test]
    fn the_summary_of_failing_tests_is_said_again_only_when_each_file_failed_above() {
        use crate::block::Stream;
        use crate::pipeline::classify::{Family, classify};
        use crate::pipeline::parse::parse;
        let failure = "FAIL test/a.test.js\n  ● a › adds\n\n    expect(received).toBe(expected)\n\n    Expected: 2\n\n";
        let tally = "Test Suites: 1 failed, 1 total\nTests:       1 failed, 1 total\n";
        let text =
            format!("{failure}PASS test/b.test.js\nSummary of all failing tests\n{failure}{tally}");
        let mut doc = parse(&text);
        classify(&mut doc, Family::Diagnostics, Stream::Stderr);
        let restated: Vec<bool> = doc
            .lines
            .iter()
            .map(|l| l.marks.has(Marks::RESTATED))
            .collect();
        let title = 8;
        assert_eq!(doc.raw(title), "Summary of all failing tests");
        assert!(doc.lines[title].marks.has(Marks::BOUNDARY));
        assert!(
            restated[title..title + 8].iter().all(|&r| r),
            "{restated:?}"
        );
        assert!(
            !restated[..title].iter().any(|&r| r) && !restated[title + 8],
            "{restated:?}"
        );
        // A file the summary names that failed nowhere above: nothing is said again.
        let other = text.replacen("FAIL test/a.test.js", "FAIL test/c.test.js", 1);
        let mut doc = parse(&other);
        classify(&mut doc, Family::Diagnostics, Stream::Stderr);
        assert!(!doc.lines.iter().any(|l| l.marks.has(Marks::RESTATED)));
    }

    #[test]
    fn a_suite_whose_tests_all_passed_has_its_title_said_again() {
        use crate::block::Stream;
        use crate::pipeline::classify::{Family, classify};
        use crate::pipeline::parse::parse;
        let text = "  picomatch\n    validation\n      ✔ throws on bad input\n    multiple patterns\n      1) matches any pattern\n      ✔ matches none\n  braces\n    ✔ expands\n    ✔ nests\n\n  12 passing (2s)\n  1 failing\n";
        let mut doc = parse(text);
        classify(&mut doc, Family::Diagnostics, Stream::Stdout);
        let said: Vec<&str> = (0..doc.lines.len())
            .filter(|&i| doc.lines[i].marks.has(Marks::RESTATED))
            .map(|i| doc.raw(i).trim())
            .collect();
        // `picomatch` and `multiple patterns` hold the failing test: they stay.
        assert_eq!(said, ["validation", "braces"], "{said:?}");
    }

    #[test]
    fn marks_sections_and_tallies() {
        assert_eq!(
            role("  ✓ adds (1 ms)"),
            None,
            "indented: classify trims first"
        );
        assert_eq!(mark_role("✓ adds (1 ms)"), Some(Role::Pass));
        assert_eq!(
            marks("  ✕ subtracts (2 ms)", Role::Fail),
            Marks::TEST_FAILED
        );
        assert_eq!(
            marks("  ● math › subtracts", Role::Fail),
            Marks::TEST_SECTION
        );
        assert_eq!(marks("FAIL src/a.test.js", Role::Fail), Marks::NONE);
        assert_eq!(
            marks(" FAIL  a.test.js > math > adds", Role::Fail),
            Marks::TEST_SECTION
        );
        assert_eq!(
            marks("Tests:       1 failed, 1 total", Role::Summary),
            Marks::TALLY
        );
        assert_eq!(mark_role("✖ 3 problems (3 errors, 0 warnings)"), None);
    }
}
